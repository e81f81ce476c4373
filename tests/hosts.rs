//! The site's size against its host's documented limits: `build` says how big the site is
//! and warns from 80 % of a limit, `check` fails past one, both naming the limit and the
//! figure. Measured on real builds of a site big enough to near Cloudflare Pages' 20,000
//! files.

mod common;

use common::{assert_ok, paperboy, stderr, temp_site};
use std::fmt::Write as _;
use std::path::Path;

/// Writes `papers` papers in one week, each with five authors of its own: a paper page
/// and five author pages a paper, about 6 files each.
fn write_papers(site: &Path, from: usize, papers: usize) {
    let dir = site.join("content/papers/2401");
    std::fs::create_dir_all(&dir).unwrap();
    for i in from..from + papers {
        let id = format!("2401.{i:05}");
        let authors: Vec<String> = (0..5).map(|a| format!("\"Author {i} {a}\"")).collect();
        let mut f = String::new();
        write!(
            f,
            "+++\nid = \"{id}\"\nversion = 1\ntitle = \"Paper {i} on scheduling\"\nauthors = [{}]\npublished = 2024-01-0{}T00:00:00Z\nupdated = 2024-01-02T00:00:00Z\nprimary_category = \"cs.DC\"\ncategories = [\"cs.DC\"]\nabstract = \"We study scheduling number {i}.\"\ncomment = \"\"\njournal_ref = \"\"\ndoi = \"\"\nsource = \"arxiv\"\n\n[links]\nabs = \"https://arxiv.org/abs/{id}\"\npdf = \"https://arxiv.org/pdf/{id}v1\"\n+++\n",
            authors.join(", "),
            2 + i % 5,
        )
        .unwrap();
        std::fs::write(dir.join(format!("{id}.md")), f).unwrap();
    }
}

/// Files below `dir`, and their bytes, as a host would count them.
fn files_and_bytes(dir: &Path) -> (usize, u64) {
    let mut stack = vec![dir.to_path_buf()];
    let (mut files, mut bytes) = (0, 0);
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                files += 1;
                bytes += meta.len();
            }
        }
    }
    (files, bytes)
}

/// "site: 12.3 MB in 17,012 files, the largest …" -> 17012.
fn files_said(err: &str) -> usize {
    let line = err.lines().find(|l| l.starts_with("site: ")).expect(err);
    let files = line
        .split(" in ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    files.replace(',', "").parse().unwrap()
}

fn config(host: &str) -> String {
    format!(
        "title = \"Field digest\"\nbase_url = \"https://example.org/digest\"\nhost = \"{host}\"\n"
    )
}

#[test]
fn build_warns_near_cloudflares_file_limit_and_check_fails_past_it() {
    let site = temp_site(&config("cloudflare-pages"));
    let root = site.path();
    write_papers(root, 0, 2_700);

    let built = paperboy(root, &["build"]);
    assert_ok(&built);
    let err = stderr(&built);
    let (files, bytes) = files_and_bytes(&root.join("public"));
    // What build says of the site is what the folder holds.
    assert_eq!(files_said(&err), files, "{err}");
    assert!(err.contains("the largest "), "{err}");
    assert!(
        (16_000..20_000).contains(&files),
        "the site should be within 80 % of 20,000 files: {files}"
    );
    let percent = files * 100 / 20_000;
    let warning = format!(
        "warning: Cloudflare Pages allows 20,000 files a site on the Free plan (100,000 on paid plans) (https://developers.cloudflare.com/pages/platform/limits/#files); the site has {} files, {percent} % of it.",
        thousands(files)
    );
    assert!(err.contains(&warning), "{warning}\nnot in\n{err}");
    assert!(
        err.contains("host = \"github-pages\" or \"netlify\""),
        "{err}"
    );

    // A build that keeps every file from the last one still knows their sizes.
    let again = paperboy(root, &["build"]);
    assert_ok(&again);
    let again = stderr(&again);
    assert!(again.contains("unchanged files kept"), "{again}");
    assert_eq!(site_line(&again), site_line(&err));
    assert!(again.contains(&warning), "{again}");
    assert!(
        site_line(&err).contains(&format!("{:.1} MB", bytes as f64 / 1e6)),
        "{err}"
    );

    // Past 20,000 files check fails, naming the limit. (Each build of this site takes a
    // minute or more in a debug build on a slow disk: the over-limit build is check's.)
    write_papers(root, 2_700, 700);
    let checked = paperboy(root, &["check"]);
    assert!(!checked.status.success(), "{}", stderr(&checked));
    let err = stderr(&checked);
    // A paper page and five author pages for each of the 700 papers added.
    let before = files;
    let files = files_in_finding(&err);
    assert!(files >= before + 700 * 6 && files > 20_000, "{err}");
    let over = format!("the site has {} files, over the limit.", thousands(files));
    assert!(
        err.contains("error: Cloudflare Pages allows 20,000 files"),
        "{err}"
    );
    assert!(err.contains(&over), "{err}");
    assert!(err.contains("over 1 of the host's limits"), "{err}");
}

/// "…; the site has 21,012 files, over the limit…" -> 21012.
fn files_in_finding(err: &str) -> usize {
    let after = err.split("the site has ").nth(1).expect(err);
    let n = after.split(' ').next().unwrap();
    n.replace(',', "").parse().unwrap()
}

fn site_line(err: &str) -> &str {
    err.lines().find(|l| l.starts_with("site: ")).unwrap_or("")
}

fn thousands(n: usize) -> String {
    paperboy::render::thousands(n)
}

#[test]
fn a_host_paperboy_does_not_know_is_an_error_naming_the_key() {
    // A host the config cannot name is an error naming the key and the line.
    let site = temp_site(&config("vercel"));
    let out = paperboy(site.path(), &["build"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("paperboy.toml:3"), "{err}");
    assert!(err.contains("`host`"), "{err}");
    assert!(err.contains("github-pages"), "{err}");
}
