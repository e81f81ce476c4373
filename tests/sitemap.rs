//! Past 30,000 URLs the sitemap becomes an index of parts (the sitemaps.org limit is
//! 50,000): a real build of 15,100 papers, each by its own author, so every paper page and
//! author page is a URL. The parts together list every page of the site, checked against
//! the pages on disk, and each part is read by Python's XML parser.

mod common;

use common::{assert_ok, paperboy, temp_site};
use std::collections::BTreeSet;
use std::process::Command;

#[test]
fn a_large_site_gets_a_sitemap_index_whose_parts_list_every_page() {
    let n = 15_100;
    let site = temp_site(common::BASIC_CONFIG);
    let dir = site.path().join("content/papers/2401");
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..n {
        let id = format!("2401.{i:05}");
        std::fs::write(
            dir.join(format!("{id}.md")),
            format!(
                "+++\nid = \"{id}\"\nversion = 1\ntitle = \"Paper {i}\"\nauthors = [\"Writer Number{i}\"]\npublished = 2024-01-02T00:00:00Z\nupdated = 2024-01-02T00:00:00Z\nprimary_category = \"cs.DC\"\ncategories = [\"cs.DC\"]\nabstract = \"Text.\"\nsource = \"arxiv\"\n+++\n"
            ),
        )
        .unwrap();
    }
    assert_ok(&paperboy(site.path(), &["build"]));
    let public = site.path().join("public");

    // Every page on disk, as a URL; not 404.html, and not the reader's own tools (saved/,
    // foryou/), which show nothing until a reader has saved papers.
    let base = "https://example.org/digest/";
    let pages: BTreeSet<String> = walkdir::WalkDir::new(&public)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name() == "index.html")
        .filter(|e| {
            let rel = e
                .path()
                .strip_prefix(&public)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            !rel.starts_with("saved/") && !rel.starts_with("foryou/")
        })
        .map(|e| {
            let rel = e.path().parent().unwrap().strip_prefix(&public).unwrap();
            let rel = rel.to_string_lossy();
            if rel.is_empty() {
                base.to_string()
            } else {
                format!("{base}{rel}/")
            }
        })
        .collect();
    assert!(pages.len() > 30_000, "{} pages", pages.len());

    let script = r#"
import json, sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
root = ET.parse(sys.argv[1] + "/sitemap.xml").getroot()
out = {"root": root.tag.split("}")[1], "parts": [], "urls": []}
for loc in root.findall("s:sitemap/s:loc", ns):
    out["parts"].append(loc.text)
    name = loc.text.rsplit("/", 1)[1]
    part = ET.parse(sys.argv[1] + "/" + name).getroot()
    urls = [u.text for u in part.findall("s:url/s:loc", ns)]
    out.setdefault("sizes", []).append(len(urls))
    out["urls"] += urls
print(json.dumps(out))
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(&public)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let map: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(map["root"], "sitemapindex");
    let sizes: Vec<u64> = map["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    assert!(
        sizes.len() >= 2 && sizes.iter().all(|&s| s <= 30_000),
        "{sizes:?}"
    );
    let listed: Vec<String> = map["urls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap().to_string())
        .collect();
    let unique: BTreeSet<String> = listed.iter().cloned().collect();
    assert_eq!(unique.len(), listed.len(), "a URL in two parts");
    let missing: Vec<&String> = pages.difference(&unique).take(5).collect();
    let extra: Vec<&String> = unique.difference(&pages).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}, not pages {extra:?}"
    );
    assert!(
        common::read(public.join("robots.txt"))
            .contains("Sitemap: https://example.org/digest/sitemap.xml")
    );
}
