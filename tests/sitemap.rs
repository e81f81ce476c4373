//! Past 30,000 URLs the sitemap becomes an index of parts (the sitemaps.org limit is
//! 50,000): a real build of 15,100 papers, each by its own author, so every paper page and
//! author page is a URL. The parts together list every page of the site, checked against
//! the pages on disk, and each part is read by Python's XML parser. A week added later
//! comes at the end of the papers' and the authors' parts, so their full parts stay the
//! same files.

mod common;

use common::{assert_ok, paperboy, temp_site};
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

#[test]
fn a_large_site_gets_a_sitemap_index_whose_parts_list_every_page() {
    let n = 15_100;
    let site = temp_site(common::BASIC_CONFIG);
    write_week(site.path(), "2024-W01", 0..n, |i| {
        format!("\"Writer Number{i}\"")
    });
    assert_ok(&paperboy(site.path(), &["build"]));
    let public = site.path().join("public");
    let first = parts(&public);
    assert_every_page_listed_once(&public, &first);

    // A week later: 40 new papers, each by a new author and by one of the first week.
    write_week(site.path(), "2024-W02", n..n + 40, |i| {
        format!("\"Writer Number{i}\", \"Writer Number7\"")
    });
    assert_ok(&paperboy(site.path(), &["build"]));
    let second = parts(&public);
    assert_every_page_listed_once(&public, &second);
    for group in ["papers", "authors"] {
        let name = format!("sitemap-{group}1.xml");
        let (before, after) = (&first[&name], &second[&name]);
        assert_eq!(after.len(), before.len() + 40, "{name}");
        assert_eq!(
            &after[..before.len()],
            &before[..],
            "{name}: the first week's URLs moved"
        );
    }
    assert!(
        second["sitemap-papers1.xml"]
            .last()
            .unwrap()
            .ends_with(&format!("/papers/2401.{:05}/", n + 39))
    );
    assert!(
        common::read(public.join("robots.txt"))
            .contains("Sitemap: https://example.org/digest/sitemap.xml")
    );
}

/// Papers `ids` of `week`, in `content/papers/2401/`, and the week's digest listing them.
fn write_week(
    root: &std::path::Path,
    week: &str,
    ids: std::ops::Range<usize>,
    authors: impl Fn(usize) -> String,
) {
    let dir = root.join("content/papers/2401");
    std::fs::create_dir_all(&dir).unwrap();
    // The week's Monday, its Sunday, and the day its papers came out.
    let (start, end, day) = if week.ends_with("01") {
        ("01", "07", "02")
    } else {
        ("08", "14", "09")
    };
    let mut listed = String::new();
    for i in ids {
        let id = format!("2401.{i:05}");
        std::fs::write(
            dir.join(format!("{id}.md")),
            format!(
                "+++\nid = \"{id}\"\nversion = 1\ntitle = \"Paper {i}\"\nauthors = [{}]\npublished = 2024-01-{day}T00:00:00Z\nupdated = 2024-01-{day}T00:00:00Z\nprimary_category = \"cs.DC\"\ncategories = [\"cs.DC\"]\nabstract = \"Text.\"\nsource = \"arxiv\"\n+++\n",
                authors(i)
            ),
        )
        .unwrap();
        listed.push_str(&format!("  \"{id}\",\n"));
    }
    let digests = root.join("content/digests");
    std::fs::create_dir_all(&digests).unwrap();
    std::fs::write(
        digests.join(format!("{week}.md")),
        format!(
            "+++\nweek = \"{week}\"\ntitle = \"{week}\"\nstart = 2024-01-{start}\nend = 2024-01-{end}\npapers = [\n{listed}]\nupdated_papers = []\n+++\n"
        ),
    )
    .unwrap();
}

/// Each part of the sitemap index, by file name, with its URLs in order.
fn parts(public: &std::path::Path) -> BTreeMap<String, Vec<String>> {
    let script = r#"
import json, sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
root = ET.parse(sys.argv[1] + "/sitemap.xml").getroot()
assert root.tag.endswith("}sitemapindex"), root.tag
out = {}
for loc in root.findall("s:sitemap/s:loc", ns):
    name = loc.text.rsplit("/", 1)[1]
    part = ET.parse(sys.argv[1] + "/" + name).getroot()
    out[name] = [u.text for u in part.findall("s:url/s:loc", ns)]
print(json.dumps(out))
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(public)
        .output()
        .expect("python3 runs");
    common::assert_tool_ok(&out, "python3, reading the sitemap");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Whether `rel` is a numbered page of a category or an author whose every paper its front
/// page shows: it stays for links made to it, but is no page of its own to a search engine.
fn shown_in_front(public: &std::path::Path, rel: &str) -> bool {
    let Some((front, _)) = rel.split_once("page/") else {
        return false;
    };
    if !(rel.starts_with("categories/") || rel.starts_with("authors/")) {
        return false;
    }
    let papers = |path: std::path::PathBuf| -> BTreeSet<String> {
        let html = std::fs::read_to_string(path).unwrap();
        html.split("id=\"paper-")
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].to_string())
            .collect()
    };
    let shown = papers(public.join(rel));
    !shown.is_empty() && shown.is_subset(&papers(public.join(front).join("index.html")))
}

/// The parts together list every page on disk, each once, in parts of at most 30,000,
/// but for those `shown_in_front`.
fn assert_every_page_listed_once(public: &std::path::Path, parts: &BTreeMap<String, Vec<String>>) {
    let sizes: Vec<usize> = parts.values().map(Vec::len).collect();
    assert!(
        sizes.len() >= 2 && sizes.iter().all(|&s| s <= 30_000),
        "{sizes:?}"
    );
    // Every page on disk, as a URL; not 404.html, not the reader's own tools (saved/,
    // foryou/), which show nothing until a reader has saved papers, and not the folders
    // that send a reader on to the archive.
    let base = "https://example.org/digest/";
    let pages: BTreeSet<String> = walkdir::WalkDir::new(public)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name() == "index.html")
        .filter(|e| {
            let rel = e
                .path()
                .strip_prefix(public)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            !rel.starts_with("saved/")
                && !rel.starts_with("foryou/")
                && !["digests/index.html", "papers/index.html"].contains(&rel.as_str())
                && !shown_in_front(public, &rel)
        })
        .map(|e| {
            let rel = e.path().parent().unwrap().strip_prefix(public).unwrap();
            let rel = rel.to_string_lossy();
            if rel.is_empty() {
                base.to_string()
            } else {
                format!("{base}{rel}/")
            }
        })
        .collect();
    assert!(pages.len() > 30_000, "{} pages", pages.len());

    let listed: Vec<&String> = parts.values().flatten().collect();
    let unique: BTreeSet<String> = listed.iter().map(|u| u.to_string()).collect();
    assert_eq!(unique.len(), listed.len(), "a URL in two parts");
    let missing: Vec<&String> = pages.difference(&unique).take(5).collect();
    let extra: Vec<&String> = unique.difference(&pages).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}, not pages {extra:?}"
    );
}
