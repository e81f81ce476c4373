//! Licences: recorded from the feeds and the HTML renditions, a figure policy that adds and
//! removes figures (and their files) as it changes, and a credit on every figure shown,
//! archived in snapshots.

mod common;

use common::{assert_ok, paperboy, read, stderr, temp_site};
use std::path::{Path, PathBuf};

fn license_of(path: &Path) -> String {
    let text = read(path);
    let front: toml::Table = toml::from_str(text.split("+++").nth(1).unwrap()).unwrap();
    front
        .get("license")
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_string()
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn fetch_keeps_the_licence_each_feed_item_states() {
    let feeds = need_fixtures!();
    let site = temp_site(common::BASIC_CONFIG);
    let feed = feeds.join("arxiv_rss/arxiv_rss_20archives_2024-11-28_sliceA_70items.xml");
    assert_ok(&paperboy(
        site.path(),
        &[
            "fetch",
            "--from",
            feed.to_str().unwrap(),
            "--now",
            "2024-11-28T12:00:00Z",
        ],
    ));
    // Read from the feed itself: each item's dc:rights, by its guid.
    let text = String::from_utf8(std::fs::read(&feed).unwrap()).unwrap();
    let mut checked = 0;
    for item in text.split("<item>").skip(1) {
        let guid = item.split("<guid").nth(1).unwrap();
        let id = guid
            .split("oai:arXiv.org:")
            .nth(1)
            .unwrap()
            .split('v')
            .next()
            .unwrap();
        let rights = item
            .split("<dc:rights>")
            .nth(1)
            .unwrap()
            .split("</dc:rights>")
            .next()
            .unwrap();
        let path = site
            .path()
            .join(format!("content/papers/{}/{id}.md", &id[..4]));
        assert_eq!(license_of(&path), rights, "{id}");
        checked += 1;
    }
    assert_eq!(checked, 70);
}

fn paper(site: &Path, id: &str, license: &str) -> PathBuf {
    let path = site.join(format!("content/papers/{}/{id}.md", &id[..4]));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let license = if license.is_empty() {
        String::new()
    } else {
        format!("license = \"{license}\"\n")
    };
    std::fs::write(
        &path,
        format!("+++\nid = \"{id}\"\ntitle = \"Paper {id}\"\nauthors = [\"Grace Hopper\"]\npublished = 2024-03-15T00:00:00Z\nupdated = 2024-03-15T00:00:00Z\nabstract = \"We present a thing. It is 2x faster.\"\n{license}+++\n"),
    )
    .unwrap();
    path
}

fn figure_files(site: &Path) -> Vec<String> {
    let mut out: Vec<String> = walkdir::WalkDir::new(site.join("content/figures"))
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn a_stricter_figure_policy_removes_figures_and_their_files_and_a_looser_one_brings_them_back() {
    let Some(html) = common::shared_fixtures("arxiv_html") else {
        return;
    };
    let config = |policy: &str| format!("{}\n[review]\nfigures = {policy}\n", common::BASIC_CONFIG);
    let site = temp_site(&config("\"all\""));
    let root = site.path();
    // The two renditions whose images are saved: one under CC BY, one under arXiv's
    // licence (as the licence lines of the fixture's other pages read).
    let open = paper(
        root,
        "1706.03762",
        "http://creativecommons.org/licenses/by/4.0/",
    );
    let closed = paper(
        root,
        "1808.08002",
        "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
    );
    let from = html.to_str().unwrap();
    let review = |root: &Path| paperboy(root, &["review", "--from", from]);
    assert_ok(&review(root));
    assert_eq!(figure_files(root), ["1706.03762.webp", "1808.08002.webp"]);

    // "open": the arXiv-licensed paper loses its figure, and the file goes with it.
    std::fs::write(root.join("paperboy.toml"), config("\"open\"")).unwrap();
    let out = review(root);
    assert_ok(&out);
    assert!(
        stderr(&out).contains("reviewed 1 of 2 papers"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("1 withheld by the licence policy"),
        "{}",
        stderr(&out)
    );
    assert_eq!(figure_files(root), ["1706.03762.webp"]);
    let m = read(&closed);
    assert!(
        !m.contains("figure = \"figures/") && m.contains("figure_source = "),
        "{m}"
    );
    assert_ok(&paperboy(root, &["build"]));
    assert!(!root.join("public/papers/1808.08002/figure.webp").exists());
    let card = read(root.join("public/papers/1808.08002/index.html"));
    assert!(!card.contains("<figure"), "no figure on the page");
    assert!(card.contains("arXiv non-exclusive license"));

    // A list of licences; then "none"; then back to "all".
    std::fs::write(
        root.join("paperboy.toml"),
        config("[\"https://creativecommons.org/licenses/by/4.0\"]"),
    )
    .unwrap();
    assert_ok(&review(root));
    assert_eq!(figure_files(root), ["1706.03762.webp"]);
    std::fs::write(root.join("paperboy.toml"), config("\"none\"")).unwrap();
    assert_ok(&review(root));
    assert!(figure_files(root).is_empty(), "no orphan file is left");
    std::fs::write(root.join("paperboy.toml"), config("\"all\"")).unwrap();
    assert_ok(&review(root));
    assert_eq!(figure_files(root), ["1706.03762.webp", "1808.08002.webp"]);
    assert!(read(&open).contains("figure = \"figures/1706/1706.03762.webp\""));

    // A figure file no paper shows any more (its paper went) is swept.
    std::fs::remove_file(&closed).unwrap();
    assert_ok(&review(root));
    assert_eq!(figure_files(root), ["1706.03762.webp"]);

    // A policy that names no licence is refused, naming the key.
    std::fs::write(root.join("paperboy.toml"), config("\"some\"")).unwrap();
    let out = review(root);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("figures"), "{}", stderr(&out));
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn every_figure_is_credited_on_the_site_and_in_the_snapshot() {
    let Some(html) = common::shared_fixtures("arxiv_html") else {
        return;
    };
    let site = temp_site(common::BASIC_CONFIG);
    let root = site.path();
    paper(
        root,
        "1706.03762",
        "http://creativecommons.org/licenses/by/4.0/",
    );
    paper(root, "1808.08002", "");
    for (week, id) in [("2024-W11", "1706.03762"), ("2024-W12", "1808.08002")] {
        let path = root.join(format!("content/digests/{week}.md"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            format!("+++\nweek = \"{week}\"\npapers = [\"{id}\"]\n+++\n"),
        )
        .unwrap();
    }
    assert_ok(&paperboy(
        root,
        &["review", "--from", html.to_str().unwrap()],
    ));
    assert_ok(&paperboy(root, &["build"]));
    let digest = read(root.join("public/digests/2024-W11/index.html"));
    assert!(
        digest.contains("title=\"Figure from arXiv:1706.03762 (Hopper), CC BY 4.0\""),
        "{digest}"
    );
    assert!(digest.contains("Figure from arXiv:1706.03762 (Hopper), <a href=\"http://creativecommons.org/licenses/by/4.0/\" rel=\"license\">CC BY 4.0</a>"));
    let digest = read(root.join("public/digests/2024-W12/index.html"));
    assert!(digest.contains("Figure from arXiv:1808.08002 (Hopper), license not stated"));
    // The paper page's facts say it once: "License: not stated".
    let page = read(root.join("public/papers/1808.08002/index.html"));
    assert!(
        page.contains("<dt>License</dt><dd>not stated</dd>"),
        "{page}"
    );
    let page = read(root.join("public/papers/1706.03762/index.html"));
    assert!(
        page.contains("<dt>License</dt><dd><a href=\"http://creativecommons.org/licenses/by/4.0/\" rel=\"license\">CC BY 4.0</a></dd>"),
        "{page}"
    );

    let out = paperboy(
        root,
        &["snapshot", "--out", root.join("snap").to_str().unwrap()],
    );
    assert_ok(&out);
    let archive = std::fs::read_dir(root.join("snap"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .unwrap();
    let mut tar = tar::Archive::new(flate2::read::MultiGzDecoder::new(
        std::fs::File::open(&archive).unwrap(),
    ));
    let mut figures = String::new();
    for entry in tar.entries().unwrap() {
        let mut entry = entry.unwrap();
        if entry.path().unwrap().to_string_lossy() == "FIGURES.tsv" {
            std::io::Read::read_to_string(&mut entry, &mut figures).unwrap();
        }
    }
    let lines: Vec<&str> = figures.lines().collect();
    assert_eq!(lines[0], "file\tpaper\tsource\tlicense\tcredit");
    assert_eq!(
        lines[1],
        "papers/1706.03762/figure.webp\tarXiv:1706.03762\t1706.03762/static/img/ModalNet-21.png\thttp://creativecommons.org/licenses/by/4.0/\tFigure from arXiv:1706.03762 (Hopper), CC BY 4.0"
    );
    assert!(
        lines[2]
            .starts_with("papers/1808.08002/figure.webp\tarXiv:1808.08002\t1808.08002/static/img/")
    );
    assert!(lines[2].ends_with("\t\tFigure from arXiv:1808.08002 (Hopper), license not stated"));
    // Listed in the manifest, so `--verify` holds it to its hash.
    let verify = paperboy(root, &["snapshot", "--verify", archive.to_str().unwrap()]);
    assert_ok(&verify);
    assert!(stderr(&verify).contains("all match the manifest"));

    // The email shows figures when asked to, each with its credit.
    std::fs::write(
        root.join("paperboy.toml"),
        format!(
            "{}\n[email]\nfrom = \"d@example.org\"\nto = [\"r@example.org\"]\nfigures = true\n",
            common::BASIC_CONFIG
        ),
    )
    .unwrap();
    let out_dir = root.join("mail");
    assert_ok(&paperboy(
        root,
        &[
            "email",
            "--week",
            "2024-W11",
            "--out",
            out_dir.to_str().unwrap(),
        ],
    ));
    let html = read(out_dir.join("2024-W11.html"));
    assert!(
        html.contains("src=\"https://example.org/digest/papers/1706.03762/figure.webp\""),
        "{html}"
    );
    let credit = html.split("Figure from arXiv:1706.03762 (Hopper), <a href=\"http://creativecommons.org/licenses/by/4.0/\"").nth(1).unwrap_or_else(|| panic!("{html}"));
    assert!(
        credit.split("</a>").next().unwrap().ends_with(">CC BY 4.0"),
        "{credit}"
    );
}
