//! What fetch does to content/: one paper per id, new versions, ownership, weeks.

mod common;

use common::{assert_ok, paperboy, read, stderr, stdout, temp_site};
use std::path::Path;

const NOW: &str = "--now=2026-11-22T12:00:00Z";

fn fetch_file(root: &Path, file: &Path, extra: &[&str]) -> std::process::Output {
    let f = file.to_str().unwrap();
    let mut args = vec![NOW, "fetch", "--from", f];
    args.extend_from_slice(extra);
    paperboy(root, &args)
}

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The one-entry 2026 API answer (2104.12255v1), and the same paper as v2 announced on
/// 2026-11-20, made from it by changing the version and dates.
fn versions(fixtures: &Path, scratch: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let v1 = fixtures.join("arxiv_api/api_2026-04_idlist_2104.12255v1_title_is_0.xml");
    let text = read(&v1);
    let v2 = text.replace("2104.12255v1", "2104.12255v2").replace(
        "<updated>2021-04-20T16:07:14Z</updated>",
        "<updated>2026-11-20T10:00:00Z</updated>",
    );
    assert!(
        v2.contains("2026-11-20T10:00:00Z"),
        "the fixture's updated date moved"
    );
    (v1, write(scratch, "v2.xml", &v2))
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn new_version_updates_fields_and_keeps_the_editors_words() {
    let fixtures = need_fixtures!();
    let site = temp_site(common::BASIC_CONFIG);
    let scratch = tempfile::tempdir().unwrap();
    let (v1, v2) = versions(&fixtures, scratch.path());
    assert_ok(&fetch_file(site.path(), &v1, &[]));
    let page = site.path().join("content/papers/2104/2104.12255.md");
    let original = read(&page);
    assert!(original.contains("version = 1") && original.contains("title = \"0\""));
    let week = "2021-W16";
    let digest = read(site.path().join(format!("content/digests/{week}.md")));
    assert!(digest.contains("\"2104.12255\""), "{digest}");

    // An editor reviews the paper, and notes something outside [review].
    let edited = original
        .replacen("+++\n", "+++\n# picked for the reading group\n", 1)
        .replace(
            "headline = \"\"",
            "headline = \"Zero is a title\" # checked by hand",
        )
        .replace("badges = []", "badges = [\"Recognition\"]")
        + "\nMy commentary, with *markdown*.\n";
    std::fs::write(&page, &edited).unwrap();

    let out = fetch_file(site.path(), &v2, &[]);
    assert_ok(&out);
    assert!(
        stderr(&out).contains("0 new papers, 1 updated"),
        "{}",
        stderr(&out)
    );
    let after = read(&page);
    assert!(after.contains("version = 2"), "{after}");
    assert!(after.contains("updated = 2026-11-20T10:00:00Z"), "{after}");
    assert!(
        after.contains("pdf = \"https://arxiv.org/pdf/2104.12255v2\""),
        "{after}"
    );
    let review_before = &edited[edited.find("[review]").unwrap()..];
    let review_after = &after[after.find("[review]").unwrap()..];
    assert_eq!(
        review_before, review_after,
        "review table and body untouched"
    );
    assert!(
        after.starts_with("+++\n# picked for the reading group\n"),
        "a comment outside [review] is kept: {after}"
    );

    // Listed as updated in the week of the new version, never again as new.
    let w47 = read(site.path().join("content/digests/2026-W47.md"));
    let updated_part = &w47[w47.find("updated_papers").unwrap()..];
    assert!(updated_part.contains("\"2104.12255\""), "{w47}");
    assert!(
        !w47[..w47.find("updated_papers").unwrap()].contains("2104.12255"),
        "{w47}"
    );

    // The same version again changes nothing.
    let again = fetch_file(site.path(), &v2, &[]);
    assert_ok(&again);
    assert!(stderr(&again).contains("1 duplicate"), "{}", stderr(&again));
    assert_eq!(read(&page), after);
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn a_paper_kept_in_yaml_is_updated_in_yaml() {
    let fixtures = need_fixtures!();
    let site = temp_site(common::BASIC_CONFIG);
    let scratch = tempfile::tempdir().unwrap();
    let (v1, v2) = versions(&fixtures, scratch.path());
    assert_ok(&fetch_file(site.path(), &v1, &[]));
    let page = site.path().join("content/papers/2104/2104.12255.md");
    // An editor keeps the page in YAML, as Hugo sites often do.
    let yaml = "---\nid: \"2104.12255\"\nversion: 1\ntitle: \"0\"\nauthors: [\"A. Writer\"]\npublished: 2021-04-19T00:00:00Z\nupdated: 2021-04-19T00:00:00Z\nprimary_category: cs.DC\ncategories: [cs.DC]\nabstract: \"Old abstract.\"\nsource: arxiv\n# the editor's note\nreview:\n  headline: \"Kept in YAML\"\n---\nBody text.\n";
    std::fs::write(&page, yaml).unwrap();
    let out = fetch_file(site.path(), &v2, &[]);
    assert_ok(&out);
    let after = read(&page);
    assert!(after.starts_with("---\n"), "still YAML: {after}");
    let front: serde_json::Value = {
        let inner = &after[4..after[4..].find("\n---\n").unwrap() + 4];
        serde_saphyr::from_str(inner).unwrap_or_else(|e| panic!("{e}: {inner}"))
    };
    assert_eq!(front["version"], 2, "{after}");
    assert_eq!(front["review"]["headline"], "Kept in YAML");
    assert!(after.contains("# the editor's note"), "{after}");
    assert!(after.ends_with("---\nBody text.\n"), "{after}");
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn an_ended_week_is_not_rewritten() {
    let fixtures = need_fixtures!();
    let site = temp_site(common::BASIC_CONFIG);
    let api = fixtures.join("arxiv_api/api_2026-04_query_all-testing_100entries.xml");
    assert_ok(&fetch_file(site.path(), &api, &[]));
    let digests = site.path().join("content/digests");
    let first = std::fs::read_dir(&digests)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let with_intro = read(&first) + "An introduction the editor wrote.\n";
    std::fs::write(&first, &with_intro).unwrap();
    // Remove one of its papers and fetch again: the paper comes back, the week stays shut.
    let week_ids: Vec<String> = with_intro
        .lines()
        .filter(|l| l.trim().starts_with('"'))
        .map(|l| l.trim().trim_matches([',', '"']).to_string())
        .collect();
    let id = &week_ids[0];
    let paper = site
        .path()
        .join("content/papers")
        .join(&id[..4])
        .join(format!("{id}.md"));
    std::fs::remove_file(&paper).unwrap();
    let out = fetch_file(site.path(), &api, &[]);
    assert_ok(&out);
    assert!(paper.exists());
    assert_eq!(read(&first), with_intro);
    assert!(
        stderr(&out).contains("warning: ") && stderr(&out).contains("is frozen"),
        "{}",
        stderr(&out)
    );
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn the_same_paper_from_rss_and_api_is_one_paper() {
    let fixtures = need_fixtures!();
    let site = temp_site(common::BASIC_CONFIG);
    let rss = fixtures.join("arxiv_rss/arxiv_rss_20archives_2024-11-28_sliceA_70items.xml");
    assert_ok(&fetch_file(site.path(), &rss, &[]));
    let page = site.path().join("content/papers/2411/2411.17700.md");
    assert!(read(&page).contains("source = \"arxiv-rss\""));
    let scratch = tempfile::tempdir().unwrap();
    let api = write(
        scratch.path(),
        "api.xml",
        r#"<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <id>https://arxiv.org/api/test</id>
  <title>arXiv Query: test</title>
  <opensearch:totalResults>1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/2411.17700v1</id>
    <title>Exploring the Impact of Generative AI on Cross-Border E-Commerce Brand Building in Chinese Tianjin's Manufacturing Sector</title>
    <updated>2024-11-26T03:04:05Z</updated>
    <published>2024-11-26T03:04:05Z</published>
    <summary>Same abstract.</summary>
    <author><name>Jun Cui</name></author>
    <arxiv:comment>12 pages</arxiv:comment>
    <arxiv:primary_category term="cs.CY"/>
    <category term="cs.CY"/>
    <category term="econ.GN"/>
  </entry>
</feed>"#,
    );
    let out = fetch_file(site.path(), &api, &[]);
    assert_ok(&out);
    assert!(stderr(&out).contains("0 new papers"), "{}", stderr(&out));
    let text = read(&page);
    assert!(
        text.contains("published = 2024-11-26T03:04:05Z"),
        "API date wins: {text}"
    );
    assert!(text.contains("comment = \"12 pages\""), "{text}");
    assert!(text.contains("\"econ.GN\""), "{text}");
    assert!(
        text.contains("announced = 2024-11-28T05:00:00Z"),
        "first announcement kept: {text}"
    );
    let count = walkdir::WalkDir::new(site.path().join("content/papers"))
        .into_iter()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .to_string_lossy()
                .contains("2411.17700")
        })
        .count();
    assert_eq!(count, 1);
}

#[test]
fn a_journal_item_is_matched_by_doi() {
    let site = temp_site(common::BASIC_CONFIG);
    let scratch = tempfile::tempdir().unwrap();
    let api = write(
        scratch.path(),
        "api.xml",
        r#"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <opensearch:totalResults>1</opensearch:totalResults>
  <entry><id>http://arxiv.org/abs/2501.00001v1</id><title>A paper</title>
    <published>2025-01-01T00:00:00Z</published><updated>2025-01-01T00:00:00Z</updated>
    <summary>S</summary><author><name>A B</name></author>
    <arxiv:doi>10.1234/journal.5678</arxiv:doi><category term="cs.DC"/></entry>
</feed>"#,
    );
    let journal = write(
        scratch.path(),
        "journal.xml",
        r#"<rss version="2.0"><channel><title>J</title><link>https://journal.example.org/</link>
  <item><title>A paper</title><link>https://journal.example.org/a</link><guid>https://doi.org/10.1234/JOURNAL.5678</guid><pubDate>Mon, 06 Jan 2025 00:00:00 GMT</pubDate></item>
  <item><title>Another paper</title><link>https://journal.example.org/b</link><guid>https://doi.org/10.1234/journal.9999</guid><pubDate>Mon, 06 Jan 2025 00:00:00 GMT</pubDate></item>
</channel></rss>"#,
    );
    assert_ok(&fetch_file(site.path(), &api, &[]));
    let out = fetch_file(site.path(), &journal, &[]);
    assert_ok(&out);
    assert!(
        stderr(&out).contains("1 new paper,") && stderr(&out).contains("1 duplicate"),
        "{}",
        stderr(&out)
    );
    // Which merged: the DOI (in any case) is the arXiv paper's; the other is its own paper.
    let files: Vec<String> = walkdir::WalkDir::new(site.path().join("content/papers"))
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert_eq!(files.len(), 2, "the arXiv paper and the other journal item");
    let with_doi = |doi: &str| {
        files
            .iter()
            .filter(|f| f.to_lowercase().contains(doi))
            .count()
    };
    assert_eq!(
        with_doi("10.1234/journal.5678"),
        1,
        "the matched DOI is one paper"
    );
    assert!(
        files
            .iter()
            .any(|f| f.contains("id = \"2501.00001\"") && f.contains("10.1234/journal.5678"))
    );
    assert_eq!(with_doi("10.1234/journal.9999"), 1);
    assert!(
        !files
            .iter()
            .any(|f| f.contains("https://journal.example.org/a\"") && !f.contains("2501.00001"))
    );
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn dry_run_writes_nothing_and_filters_narrow() {
    let fixtures = need_fixtures!();
    let config = format!(
        "{}\n[filter]\nkeywords = [\"fuzz\"]\n",
        common::BASIC_CONFIG
    );
    let site = temp_site(&config);
    let api = fixtures.join("arxiv_api/api_2026-04_query_all-testing_100entries.xml");
    let dry = fetch_file(site.path(), &api, &["--dry-run"]);
    assert_ok(&dry);
    assert!(!site.path().join("content").exists(), "dry run wrote files");
    let dry_out = stdout(&dry);
    let planned: Vec<&str> = dry_out.lines().filter(|l| l.starts_with("new ")).collect();
    assert!(!planned.is_empty() && planned.len() < 100, "{planned:?}");
    assert!(stderr(&dry).contains("filtered out"));
    let real = fetch_file(site.path(), &api, &[]);
    assert_ok(&real);
    let files: Vec<_> = walkdir::WalkDir::new(site.path().join("content/papers"))
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .collect();
    assert_eq!(files.len(), planned.len());
    for f in &files {
        let text = read(f.path()).to_lowercase();
        assert!(text.contains("fuzz"), "{}", f.path().display());
        assert!(!f.file_name().to_string_lossy().ends_with(".tmp"));
    }
}

#[test]
fn a_broken_config_names_the_key() {
    let site = temp_site(&format!(
        "{}\n[[sources]]\nkind = \"arxiv\"\nquerry = \"cat:cs.DC\"\n",
        common::BASIC_CONFIG
    ));
    let out = paperboy(site.path(), &["fetch"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("querry") && stderr(&out).contains("paperboy.toml:"),
        "{}",
        stderr(&out)
    );
    let out = paperboy(site.path(), &["fetch", "--bogus"]);
    assert_eq!(out.status.code(), Some(2));
}
