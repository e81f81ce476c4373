use super::*;
use crate::paper::{Links, PaperId};

fn paper(version: u32) -> Paper {
    let t = "2026-02-26T23:39:42Z".parse().unwrap();
    Paper {
        id: PaperId::parse("2602.23556").unwrap(),
        version,
        title: "Rudder".into(),
        authors: vec!["A".into()],
        published: t,
        updated: t,
        primary_category: "cs.DC".into(),
        categories: vec!["cs.DC".into()],
        abstract_text: "Line one \"quoted\"\nline two".into(),
        comment: String::new(),
        journal_ref: String::new(),
        doi: String::new(),
        source: "arxiv".into(),
        links: Links::default(),
        announced: None,
        announce_type: None,
        license: String::new(),
        classes: Vec::new(),
    }
}

#[test]
fn new_file_round_trips() {
    let text = render_new(&paper(1));
    let split = frontmatter::split(&text, Path::new("p.md")).unwrap();
    let front: PaperFront = frontmatter::parse(&split, Path::new("p.md")).unwrap();
    assert_eq!(front.to_paper(), paper(1));
}

#[test]
fn update_keeps_review_and_body() {
    let text = render_new(&paper(1)).replace("headline = \"\"", "headline = \"Mine\" # my note")
        + "My commentary.\n";
    let updated = render_update(&text, &paper(2), Path::new("p.md")).unwrap();
    assert!(
        updated.contains("headline = \"Mine\" # my note"),
        "{updated}"
    );
    assert!(updated.ends_with("+++\nMy commentary.\n"));
    assert!(updated.contains("version = 2"));
}

#[test]
fn yaml_stays_yaml_through_fetch_and_review() {
    let yaml = "---\n# kept by hand\nid: \"2601.00001\"\nversion: 1\ntitle: Old\nauthors:\n- A. Writer\npublished: 2026-01-05T00:00:00Z\nupdated: 2026-01-05T00:00:00Z\nannounced: 2026-01-06T00:00:00Z\nprimary_category: cs.DC\ncategories: [cs.DC]\nabstract: |\n  Two\n  lines.\nsource: arxiv\nlinks:\n  abs: https://arxiv.org/abs/2601.00001\n  code: https://example.org/code\nreview:\n  headline: Mine # a note\nextra:\n  team: yes\n---\nBody.\n";
    let path = Path::new("p.md");
    let updated = render_update(yaml, &paper(2), path).unwrap();
    assert!(updated.starts_with("---\n# kept by hand\n"), "{updated}");
    assert!(updated.contains("  headline: Mine # a note\n"), "{updated}");
    assert!(updated.ends_with("---\nBody.\n"), "{updated}");
    let split = frontmatter::split(&updated, path).unwrap();
    let front: PaperFront = frontmatter::parse(&split, path).unwrap();
    assert_eq!(front.to_paper().version, 2);
    let value: serde_json::Value = serde_saphyr::from_str(split.front).unwrap();
    assert_eq!(value["links"]["code"], "https://example.org/code");
    assert_eq!(value["extra"]["team"], true);

    let machine = frontmatter::Machine {
        headline: "Machine words".into(),
        reviewed_version: 2,
        ..Default::default()
    };
    let reviewed = render_machine(
        &updated,
        &machine,
        Some("http://creativecommons.org/licenses/by/4.0/"),
        path,
    )
    .unwrap();
    assert!(reviewed.starts_with("---\n# kept by hand\n"), "{reviewed}");
    let split = frontmatter::split(&reviewed, path).unwrap();
    let value: serde_json::Value = serde_saphyr::from_str(split.front).unwrap();
    assert_eq!(value["machine"]["headline"], "Machine words");
    assert_eq!(value["review"]["headline"], "Mine");
    assert_eq!(
        value["license"],
        "http://creativecommons.org/licenses/by/4.0/"
    );
    let again = render_machine(&reviewed, &machine, None, path).unwrap();
    assert_eq!(again, reviewed, "a second review changes nothing");
}
