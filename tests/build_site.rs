//! `paperboy build` on the example site and on small sites made for one case.

mod common;

use common::{
    age_content, assert_ok, assert_same_tree, edit, example_site, hostile_site, paperboy, read,
    stderr, tree,
};
use std::path::Path;

fn build(root: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["build"];
    args.extend_from_slice(extra);
    paperboy(root, &args)
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}

/// (id, title, categories) of every paper in a content folder, read the plain way.
fn papers_in(content: &Path) -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(content.join("papers")) {
        let e = e.unwrap();
        if !e.file_type().is_file() {
            continue;
        }
        let text = read(e.path());
        let front = text.split("+++").nth(1).unwrap();
        let table: toml::Table = front.parse().unwrap();
        let cats = table["categories"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        out.push((
            table["id"].as_str().unwrap().to_string(),
            table["title"].as_str().unwrap().to_string(),
            cats,
        ));
    }
    out.sort();
    out
}

#[test]
fn the_example_site_has_every_page_type() {
    let site = example_site();
    let out = build(site.path(), &[]);
    assert_ok(&out);
    let public = site.path().join("public");
    let papers = papers_in(&site.path().join("content"));
    let summary = stderr(&out);
    assert!(
        summary.contains(&format!("({} papers,", papers.len())),
        "{summary}"
    );
    for f in [
        "index.html",
        "404.html",
        "archive/index.html",
        "categories/index.html",
        "atom.xml",
        "sitemap.xml",
        "robots.txt",
        "style.css",
    ] {
        assert!(public.join(f).is_file(), "missing {f}");
    }
    // What those files say, not only that they are there.
    let not_found = read(public.join("404.html"));
    assert!(
        not_found.contains("<h1>") && not_found.contains("href=\"/digest/\""),
        "404.html: a heading and a way home"
    );
    let css = read(public.join("style.css"));
    assert!(css.contains("prefers-color-scheme: dark") && css.contains("max-width"));
    // A category's feed: the newest papers that carry the category, from the front matter.
    let in_ai: Vec<&String> = papers
        .iter()
        .filter(|(_, _, cats)| cats.iter().any(|c| c == "cs.AI"))
        .map(|(id, _, _)| id)
        .collect();
    let feed = read(public.join("categories/cs.AI/atom.xml"));
    let entries: Vec<&str> = feed.split("<entry>").skip(1).collect();
    assert_eq!(
        entries.len(),
        in_ai.len().min(50),
        "feed_limit or every cs.AI paper"
    );
    for entry in &entries {
        let id = entry
            .split("/papers/")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .expect("an entry links its paper");
        assert!(
            in_ai.iter().any(|p| p.replace('/', "-") == id),
            "{id} in the cs.AI feed but not in cs.AI"
        );
    }
    for (id, title, cats) in &papers {
        let page = read(
            public
                .join("papers")
                .join(id.replace('/', "-"))
                .join("index.html"),
        );
        // The heading's text, tags dropped and entities decoded, is the title of the
        // front matter (math notation aside), as a reader reads TeX's text: "Young–Fibonacci"
        // for `Young--Fibonacci`, "Schrödinger" for `Schr\"odinger`.
        let h1 = &page[page.find("<h1>").expect("an <h1>") + 4..];
        let h1 = &h1[..h1.find("</h1>").unwrap()];
        let mut text = String::new();
        let mut in_tag = false;
        for c in h1.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        // Simple math ($_2$) is set as <sub>/<sup>; the rest stays LaTeX between \( \).
        let plain = |s: &str| {
            s.replace("\\(", "")
                .replace("\\)", "")
                .replace(['$', '_', '^', '{', '}'], "")
        };
        assert_eq!(
            plain(&html_escape::decode_html_entities(&text)),
            plain(&paperboy::render::math::plain_text(title)),
            "{id}: title"
        );
        for c in cats {
            assert!(
                page.contains(&format!(">{}</a>", html_escape(c))),
                "{id}: category {c}"
            );
        }
    }
    let digests: Vec<String> = std::fs::read_dir(site.path().join("content/digests"))
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    for week in &digests {
        assert!(
            public
                .join("digests")
                .join(week)
                .join("index.html")
                .is_file(),
            "{week}"
        );
    }
    // The archive lists every week, newest first.
    let archive = read(public.join("archive/index.html"));
    let mut sorted = digests.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    let positions: Vec<usize> = sorted
        .iter()
        .map(|w| {
            archive
                .find(&format!("/digests/{w}/"))
                .unwrap_or_else(|| panic!("{w} not in archive"))
        })
        .collect();
    assert!(positions.windows(2).all(|p| p[0] < p[1]), "archive order");
    // A week's counts read as its page gives them.
    let week_page = read(public.join("digests/2024-W48/index.html"));
    let counts = "45 new papers, 25 new versions";
    assert!(week_page.contains(counts) && archive.contains(counts));
    // robots.txt points at the sitemap, which lists every paper.
    assert!(
        read(public.join("robots.txt"))
            .contains("Sitemap: https://example.github.io/digest/sitemap.xml")
    );
    let sitemap = read(public.join("sitemap.xml"));
    assert_eq!(
        sitemap
            .matches("<loc>https://example.github.io/digest/papers/")
            .count(),
        papers.len()
    );
    // The folders of weeks and papers send a reader who shortened an address to the
    // archive; search engines are told the archive is the page, and the sitemap leaves
    // them out.
    for folder in ["digests", "papers"] {
        let page = read(public.join(folder).join("index.html"));
        assert!(
            page.contains("<meta http-equiv=\"refresh\" content=\"0; url=/digest/archive/\">")
                && page.contains(
                    "<link rel=\"canonical\" href=\"https://example.github.io/digest/archive/\">"
                )
                && page.contains("<meta name=\"robots\" content=\"noindex\">"),
            "{folder}/index.html: {page}"
        );
        assert!(!sitemap.contains(&format!("/digest/{folder}/</loc>")));
    }
}

#[test]
fn a_digest_shows_its_papers_grouped_by_category() {
    let site = example_site();
    assert_ok(&build(site.path(), &[]));
    let public = site.path().join("public");
    let digest_md = read(site.path().join("content/digests/2025-W34.md"));
    let front: toml::Table = digest_md.split("+++").nth(1).unwrap().parse().unwrap();
    let ids: Vec<&str> = front["papers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 86);
    let page = read(public.join("digests/2025-W34/index.html"));
    for id in &ids {
        assert!(
            page.contains(&format!("id=\"paper-{id}\"")),
            "card for {id}"
        );
    }
    assert_eq!(page.matches("<article class=\"card").count(), 86);
    assert!(
        page.contains("<h2 id=\"group-cs.AI-title\"><a href=\"/digest/categories/cs.AI/\">cs.AI</a> <span class=\"full-name\">Artificial Intelligence</span> <span class=\"count\">40</span></h2>"),
        "group heading"
    );
    // An overview at the top: the editor's pick first, then the groups by size, the
    // small ones folded into one, each a jump link with its count.
    let overview = page
        .split("<nav class=\"overview\"")
        .nth(1)
        .unwrap()
        .split("</nav>")
        .next()
        .unwrap();
    let links: Vec<&str> = overview
        .split("href=\"#")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    assert_eq!(links.first(), Some(&"picks"));
    assert_eq!(links[1], "group-cs.AI");
    assert_eq!(links.last(), Some(&"group-other"));
    for link in &links {
        assert!(
            page.contains(&format!("id=\"{link}\"")),
            "{link} has its section"
        );
    }
    let sizes: Vec<usize> = overview
        .split("<span class=\"count\">")
        .skip(2)
        .map(|s| s.split('<').next().unwrap().parse().unwrap())
        .collect();
    assert!(
        sizes[..sizes.len() - 1].windows(2).all(|w| w[0] >= w[1]),
        "by size: {sizes:?}"
    );
    assert!(
        sizes[..sizes.len() - 1].iter().all(|&n| n >= 3),
        "small groups folded: {sizes:?}"
    );
    assert_eq!(1 + sizes.iter().sum::<usize>(), 86);
    // Every card, and no abstract inline: each is a link to its paper page's abstract.
    assert_eq!(page.matches("<article class=\"card").count(), 86);
    assert_eq!(page.matches("class=\"abstract-link\"").count(), 86);
    assert!(!page.contains("<details"));
    // The reviewed paper's card: badges, headline, summary.
    assert!(page.contains("<span class=\"badge\">Recognition</span>"));
    // A card with the paper's code says "Code" once: its badge is the link.
    let cards: Vec<&str> = page.split("<article class=\"card").skip(1).collect();
    let with_code: Vec<&&str> = cards.iter().filter(|c| c.contains(">Code</a>")).collect();
    assert!(with_code.len() >= 2, "cards with code: {}", with_code.len());
    for card in &with_code {
        assert_eq!(card.matches(">Code<").count(), 1, "{card}");
        assert!(
            card.contains("<a class=\"badge\" href=\"https://github.com/"),
            "{card}"
        );
    }
    assert!(page.contains("One model plays a whole multi-agent system end to end"));
    assert!(
        page.contains("The week the cs.AI announcement feed brought 86 papers"),
        "intro"
    );
    // Neighbouring weeks are linked, at the top and at the bottom.
    assert_eq!(page.matches("rel=\"prev\"").count(), 2);
    assert_eq!(page.matches("rel=\"next\"").count(), 2);
    // Week links read as the weeks' headings do, not as their ISO names.
    assert!(
        page.contains("rel=\"prev\" href=\"/digest/digests/2025-W30/\">← Week 30, 2025</a>"),
        "previous week"
    );
    let paper = read(public.join("papers/2508.13465/index.html"));
    assert!(
        paper.contains(
            "<dt>In the digest</dt><dd><a href=\"/digest/digests/2025-W34/\">Week 34, 2025</a></dd>"
        ),
        "a paper's week"
    );
    // The paper page carries the editor's commentary as HTML.
    let paper = read(public.join("papers/2604.03438/index.html"));
    assert!(
        paper.contains("<strong>markdown</strong>"),
        "markdown body rendered"
    );
    assert!(paper.contains("href=\"https://arxiv.org/abs/2604.03438\""));
    assert!(paper.contains("href=\"https://arxiv.org/pdf/2604.03438v1\""));
    assert!(paper.contains("ICST 2026"), "comment shown");
}

/// The papers a category page lists, in order: each line's paper id and the page its title
/// links to.
fn lines_on(html: &str) -> Vec<(&str, &str)> {
    html.split("<li id=\"paper-")
        .skip(1)
        .map(|line| {
            let id = &line[..line.find('"').unwrap()];
            let href = line.split("<a href=\"").nth(1).unwrap();
            (id, &href[..href.find('"').unwrap()])
        })
        .collect()
}

#[test]
fn categories_paginate() {
    let site = example_site();
    // Twenty a page (the default is 50), so that the example's cs.AI spans several pages.
    common::set_paginate_by(site.path(), 20);
    assert_ok(&build(site.path(), &[]));
    let public = site.path().join("public");
    let papers = papers_in(&site.path().join("content"));
    let in_ai: Vec<&str> = papers
        .iter()
        .filter(|(_, _, c)| c.iter().any(|c| c == "cs.AI"))
        .map(|(id, _, _)| id.as_str())
        .collect();
    let n = in_ai.len();
    assert!(n > 40, "enough cs.AI papers to paginate: {n}");
    let pages = n.div_ceil(20);
    let dir = public.join("categories/cs.AI");
    let mut listed: Vec<&str> = Vec::new();
    let mut htmls = Vec::new();
    for p in 1..=pages {
        htmls.push((p, read(dir.join(format!("page/{p}/index.html")))));
    }
    for (p, html) in &htmls {
        let lines = lines_on(html);
        let on_page = lines.len();
        // Counted from the oldest: page 1 holds the first 20, the last page the rest.
        let first = (p - 1) * 20 + 1;
        assert_eq!(on_page, if *p < pages { 20 } else { n - (pages - 1) * 20 });
        assert!(
            html.contains(&format!(
                "Page {p}: papers {first} to {}, counted from the oldest",
                first + on_page - 1
            )),
            "page {p}"
        );
        // A line a paper, no card: its title links to its page, which exists; its abstract
        // is there, not here.
        assert!(!html.contains("<article class=\"card"), "page {p}");
        for (id, href) in lines {
            let rel = href.strip_prefix("/digest/").unwrap();
            assert!(
                public.join(rel).join("index.html").is_file(),
                "{id}: {href}"
            );
            listed.push(id);
        }
    }
    // Every paper of the category, each once, across its pages.
    listed.sort();
    let mut expected = in_ai.clone();
    expected.sort();
    assert_eq!(listed, expected);
    assert!(!dir.join(format!("page/{}/index.html", pages + 1)).exists());
    // The front page shows the two newest pages' papers and goes on to the one before.
    let front = read(dir.join("index.html"));
    let newest_two = n - pages.saturating_sub(2) * 20;
    assert_eq!(lines_on(&front).len(), newest_two);
    assert!(front.contains(&format!("{n} papers, newest first")));
    if pages > 2 {
        assert!(front.contains(&format!(
            "rel=\"next\" href=\"/digest/categories/cs.AI/page/{}/\"",
            pages - 2
        )));
    }
    assert!(dir.join("atom.xml").is_file());
}

#[test]
fn every_internal_link_honours_the_base_path() {
    let site = example_site();
    let out_dir = tempfile::tempdir().unwrap();
    let output = out_dir.path().join("site");
    assert_ok(&build(
        site.path(),
        &[
            "--base-url",
            "https://lab.example.org/weekly/",
            "--output",
            output.to_str().unwrap(),
        ],
    ));
    let mut checked = 0;
    for (rel, bytes) in tree(&output) {
        if !rel.ends_with(".html") {
            continue;
        }
        let html = String::from_utf8(bytes).unwrap();
        for attr in ["href=\"", "src=\""] {
            for part in html.split(attr).skip(1) {
                let url = &part[..part.find('"').unwrap()];
                checked += 1;
                assert!(
                    url.starts_with("/weekly/")
                        || url.starts_with("https://")
                        || url.starts_with("http://")
                        || url.starts_with('#'),
                    "{rel}: {url}"
                );
            }
        }
    }
    assert!(checked > 1000);
    let atom = read(output.join("atom.xml"));
    assert!(atom.contains("<link rel=\"self\" type=\"application/atom+xml\" href=\"https://lab.example.org/weekly/atom.xml\"/>"));
}

#[test]
fn feed_text_cannot_inject_markup() {
    let site = common::hostile_site();
    assert_ok(&build(site.path(), &[]));
    let public = site.path().join("public");
    for rel in [
        "papers/2601.00001/index.html",
        "digests/2026-W02/index.html",
        "index.html",
        "categories/cs.CR/index.html",
    ] {
        let html = read(public.join(rel));
        // The only scripts a page may carry are its JSON-LD, which cannot hold a tag, and
        // the theme's own reader.js, exactly as base.html loads it.
        let scripts = html.matches("<script").count();
        let json_ld = html
            .matches("<script type=\"application/ld+json\">")
            .count();
        let reader = html
            .matches("<script src=\"/digest/reader.js\" defer></script>")
            .count();
        assert_eq!(reader, 1, "{rel}: the reader's script");
        assert_eq!(scripts, json_ld + reader, "{rel}: script tag");
        for block in html.split("<script type=\"application/ld+json\">").skip(1) {
            let json = &block[..block.find("</script>").unwrap()];
            assert!(!json.contains('<'), "{rel}: raw < in JSON-LD");
            let v: serde_json::Value = serde_json::from_str(json).unwrap();
            assert!(
                v["name"].as_str().unwrap().contains("<script>"),
                "the title survives as data"
            );
        }
        assert!(!html.contains("<iframe"), "{rel}");
        assert!(!html.contains("<img src=x"), "{rel}");
        assert!(!html.contains("javascript:"), "{rel}: javascript URL");
        assert!(!html.contains("<b>bold</b>"), "{rel}");
        assert!(
            html.contains("&lt;script&gt;alert("),
            "{rel}: escaped text shown"
        );
        assert!(
            html.contains("{{ site.title }}"),
            "{rel}: template syntax shown as text"
        );
        assert_eq!(
            html.matches("</details>").count(),
            html.matches("<details").count(),
            "{rel}"
        );
    }
    for rel in ["atom.xml", "categories/cs.CR/atom.xml"] {
        let xml = read(public.join(rel));
        assert!(
            !xml.contains("<script") && !xml.contains("javascript:"),
            "{rel}"
        );
    }
}

#[test]
fn two_builds_are_byte_identical() {
    let site = example_site();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    assert_ok(&build(site.path(), &["--output", a.to_str().unwrap()]));
    assert_ok(&build(site.path(), &["--output", b.to_str().unwrap()]));
    let (ta, tb) = (tree(&a), tree(&b));
    assert!(ta.len() > 500);
    assert!(ta == tb, "the two builds differ");
}

#[test]
fn a_broken_front_matter_names_file_and_line_and_keeps_the_old_site() {
    let site = example_site();
    assert_ok(&build(site.path(), &[]));
    let public = site.path().join("public");
    let before = tree(&public);
    let page = site.path().join("content/papers/2604/2604.03438.md");
    edit(&page, "\nversion = 1\n", "\nversion = \"one\"\n");
    let out = build(site.path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("content/papers/2604/2604.03438.md:3:"),
        "{err}"
    );
    assert!(before == tree(&public), "the previous site changed");
    let leftovers: Vec<_> = std::fs::read_dir(site.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("building"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn site_templates_override_the_theme_and_unknown_variables_name_the_template() {
    let site = example_site();
    std::fs::create_dir_all(site.path().join("templates")).unwrap();
    std::fs::write(
        site.path().join("templates/404.html"),
        "{% extends \"base.html\" %}{% block content %}<h1>Lost in {{ site.title }}</h1>{% endblock content %}",
    )
    .unwrap();
    assert_ok(&build(site.path(), &[]));
    assert!(
        read(site.path().join("public/404.html"))
            .contains("<h1>Lost in paperboy example digest</h1>")
    );
    let before = tree(&site.path().join("public"));
    std::fs::write(
        site.path().join("templates/archive.html"),
        "{{ no_such_variable }}",
    )
    .unwrap();
    let out = build(site.path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("archive.html:1:") && err.contains("no_such_variable"),
        "{err}"
    );
    assert!(before == tree(&site.path().join("public")));
}

#[test]
#[ignore = "needs feedparser; scripts/test runs it"]
fn our_atom_feed_reads_back_as_a_feed() {
    let site = example_site();
    assert_ok(&build(site.path(), &[]));
    // Python's feedparser, not our own parser, reads it.
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import feedparser, json, sys; d = feedparser.parse(sys.argv[1]); print(json.dumps({'bozo': bool(d.bozo), 'version': d.version, 'n': len(d.entries), 'links': [e.link for e in d.entries], 'titles': [e.title for e in d.entries]}))",
        ])
        .arg(site.path().join("public/atom.xml"))
        .output()
        .expect("python3 runs");
    common::assert_tool_ok(&out, "feedparser");
    let feed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(feed["bozo"], false, "feedparser found the feed malformed");
    assert_eq!(feed["version"], "atom10");
    assert_eq!(feed["n"], 50, "capped at feed_limit");
    for link in feed["links"].as_array().unwrap() {
        assert!(
            link.as_str()
                .unwrap()
                .starts_with("https://example.github.io/digest/papers/"),
            "{link}"
        );
    }
    assert!(
        feed["titles"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| !t.as_str().unwrap().is_empty())
    );
    // In every feed of the site, each entry says something, and says it once: not a blank
    // item for a paper without an abstract (Nature's), nor the card's line and then the
    // abstract that has it word for word. Its authors are persons, not "X et al.".
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            r#"
import feedparser, glob, json, re, sys
bad = []
for path in sorted(glob.glob(sys.argv[1] + "/**/atom.xml", recursive=True)):
    for e in feedparser.parse(path).entries:
        text = " ".join(e.get("summary", "").split())
        sentences = [s.rstrip(".…").lower() for s in re.split(r"(?<=[.?!…]) ", text)]
        said_again = [s for s in sentences if len(s) > 40 and text.lower().count(s) > 1]
        names = [a.get("name", "") for a in e.get("authors", [])]
        if not text or said_again or any(n.endswith("et al.") for n in names):
            bad.append([path, e.title, said_again[:1], names])
print(json.dumps(bad))
"#,
        ])
        .arg(site.path().join("public"))
        .output()
        .expect("python3 runs");
    common::assert_tool_ok(&out, "feedparser");
    let bad: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(bad.as_array().unwrap().len(), 0, "{bad:#}");
}

/// Large sites keep abstracts in a temporary file instead of memory; the pages must not
/// show the difference.
#[test]
fn abstracts_read_back_from_a_file_give_the_same_site() {
    for site in [example_site(), hostile_site()] {
        let root = site.path();
        let config = paperboy::config::Config::load(&root.join("paperboy.toml")).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (held, spilled) = (dir.path().join("held"), dir.path().join("spilled"));
        paperboy::build::run(root, &config, &held, &Default::default()).unwrap();
        let options = paperboy::build::Options {
            abstracts_in_memory_up_to: 0,
            ..Default::default()
        };
        paperboy::build::run(root, &config, &spilled, &options).unwrap();
        let b = assert_same_tree(&spilled, &held, "abstracts spilled and abstracts held");
        // Spilled abstracts taken from the parse cache: written by the first incremental
        // build, read by the second.
        age_content(root);
        let options = paperboy::build::Options {
            incremental: true,
            ..options
        };
        let cached = dir.path().join("cached");
        for _ in 0..2 {
            paperboy::build::run(root, &config, &cached, &options).unwrap();
        }
        assert!(root.join(".cache/parsed.bin").is_file());
        assert_same_tree(&cached, &held, "abstracts spilled from the cache and held");
        // The abstracts are there at all (an empty abstract on both sides would pass above).
        let pages_with_abstracts = b
            .iter()
            .filter(|(name, bytes)| {
                name.starts_with("papers/")
                    && String::from_utf8_lossy(bytes).contains("name=\"citation_abstract\"")
            })
            .count();
        assert!(pages_with_abstracts > 0);
    }
}

/// How often `marker` occurs in the files of a built `site` whose paths start with `prefix`.
fn occurrences_under(site: &[(String, Vec<u8>)], prefix: &str, marker: &str) -> usize {
    site.iter()
        .filter(|(name, _)| name.starts_with(prefix))
        .map(|(_, bytes)| String::from_utf8_lossy(bytes).matches(marker).count())
        .sum()
}

/// Builds the site at `root`, lets `edit` change its theme's templates folder, builds it
/// again and asserts that both builds gave the same files, which it returns. `what` names
/// the snippets rendered once in the first build and on every page in the second.
fn same_site_after_theme_edit(
    root: &Path,
    what: &str,
    edit: impl FnOnce(&Path),
) -> Vec<(String, Vec<u8>)> {
    let once = root.join("public-once");
    assert_ok(&build(root, &["--output", once.to_str().unwrap()]));
    edit(&root.join("themes/default/templates"));
    let every_page = root.join("public-every-page");
    assert_ok(&build(root, &["--output", every_page.to_str().unwrap()]));
    assert_same_tree(
        &once,
        &every_page,
        &format!("{what} once and {what} on every page"),
    )
}

/// The default theme renders each paper's card once (`card.html`) and list pages reuse it.
/// A theme without `card.html`, whose list pages draw every card with the component themselves,
/// must give the same site byte for byte.
#[test]
fn cards_rendered_once_give_the_same_site_as_cards_drawn_on_every_page() {
    for site in [example_site(), hostile_site()] {
        let a = same_site_after_theme_edit(site.path(), "cards", |templates| {
            std::fs::remove_file(templates.join("card.html")).unwrap();
            // The digest and the home page draw their cards in macros.html's `week`.
            let path = templates.join("macros.html");
            let call = "{{ <card paper={paper}/> }}";
            let text = read(&path).replace("{{ paper.card | safe }}", call);
            assert!(text.contains(call), "macros.html draws no cards");
            std::fs::write(&path, text).unwrap();
        });
        // Cards are there at all, on every list page of weeks (category pages list lines).
        for list in ["index.html", "digests/"] {
            let cards = occurrences_under(&a, list, "<article class=\"card");
            assert!(cards > 0, "no cards under {list}");
        }
    }
}

/// The same for author and category pages: the default theme renders each paper's line
/// once (`line.html`); a theme without it, whose `author.html` and `category.html` draw the
/// lines from paper lines, must give the same site byte for byte.
#[test]
fn lines_rendered_once_give_the_same_site_as_lines_drawn_on_every_list_page() {
    for site in [example_site(), hostile_site()] {
        let a = same_site_after_theme_edit(site.path(), "lines", |templates| {
            let line_template = read(templates.join("line.html"));
            let line = line_template
                .lines()
                .find(|l| l.starts_with("<li"))
                .expect("line.html draws a list item");
            std::fs::remove_file(templates.join("line.html")).unwrap();
            for page in ["author.html", "category.html"] {
                let path = templates.join(page);
                let text = read(&path).replace("{{ paper.line | safe }}", line);
                assert!(text.contains("paper.title"), "{page} draws no lines");
                std::fs::write(&path, text).unwrap();
            }
        });
        for list in ["authors/", "categories/"] {
            let lines = occurrences_under(&a, list, "<li id=\"paper-");
            assert!(lines > 0, "no lines under {list}");
        }
    }
}

/// A paper by "Ada Prolific" submitted on day `n` of 2026, with an id of that month (a
/// date past its id's month is a later version's, and pages show the month alone).
fn prolific_paper(site: &Path, n: usize) {
    use chrono::Datelike;
    let day = chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap() + chrono::Days::new(n as u64);
    let yymm = format!("26{:02}", day.month());
    let id = format!("{yymm}.{n:05}");
    let text = format!(
        "+++\nid = \"{id}\"\nversion = 1\ntitle = \"Result number {n}\"\nauthors = [\"Ada Prolific\", \"Co Author{n}\"]\npublished = {day}T12:00:00Z\nupdated = {day}T12:00:00Z\nprimary_category = \"cs.DC\"\ncategories = [\"cs.DC\"]\nabstract = \"Abstract {n}.\"\nsource = \"arxiv\"\n\n[links]\nabs = \"https://arxiv.org/abs/{id}\"\npdf = \"https://arxiv.org/pdf/{id}v1\"\n+++\n"
    );
    let dir = site.join("content/papers").join(yymm);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{id}.md")), text).unwrap();
}

/// The paper ids an author page lists, in order.
fn listed(html: &str) -> Vec<usize> {
    html.split("<li id=\"paper-26")
        .skip(1)
        .map(|s| s[3..8].parse().unwrap())
        .collect()
}

#[test]
fn authors_paginate_and_a_new_paper_changes_only_the_front_page() {
    let site = common::temp_site(common::BASIC_CONFIG);
    for n in 1..=120 {
        prolific_paper(site.path(), n);
    }
    assert_ok(&build(site.path(), &[]));
    let dir = site.path().join("public/authors/ada-prolific");
    let front = read(dir.join("index.html"));
    // The newest 50, newest first.
    assert_eq!(listed(&front), (71..=120).rev().collect::<Vec<_>>());
    assert!(front.contains("120 papers on this site; the newest 50 here"));
    // Older ones on full pages of 50 counted from the oldest, each newest first.
    let page1 = read(dir.join("page/1/index.html"));
    assert_eq!(listed(&page1), (1..=50).rev().collect::<Vec<_>>());
    assert!(page1.contains("Page 1: papers 1 to 50, counted from the oldest, newest first"));
    let page2 = read(dir.join("page/2/index.html"));
    assert_eq!(listed(&page2), (51..=100).rev().collect::<Vec<_>>());
    assert!(!dir.join("page/3").exists(), "no page that is not full");
    // "Older" from the front goes to page 2; page 2's "Newer" to the front page.
    assert!(front.contains("rel=\"next\" href=\"/digest/authors/ada-prolific/page/2/\""));
    assert!(page2.contains("rel=\"prev\" href=\"/digest/authors/ada-prolific/\""));
    assert!(page1.contains("rel=\"prev\" href=\"/digest/authors/ada-prolific/page/2/\""));
    let sitemap = read(site.path().join("public/sitemap.xml"));
    assert!(sitemap.contains("/digest/authors/ada-prolific/page/2/</loc>"));
    // A new week's paper: the front page changes, the full pages stay byte for byte.
    prolific_paper(site.path(), 121);
    assert_ok(&build(site.path(), &[]));
    let front_after = read(dir.join("index.html"));
    assert_eq!(listed(&front_after), (72..=121).rev().collect::<Vec<_>>());
    assert!(
        read(dir.join("page/1/index.html")) == page1,
        "page 1 rewritten"
    );
    assert!(
        read(dir.join("page/2/index.html")) == page2,
        "page 2 rewritten"
    );
    // Thirty more fill page 3. Pages 1 and 2 keep their papers; their pagers now link
    // page 3 (a pager links the two pages on either side).
    for n in 122..=150 {
        prolific_paper(site.path(), n);
    }
    assert_ok(&build(site.path(), &[]));
    assert_eq!(
        listed(&read(dir.join("page/3/index.html"))),
        (101..=150).rev().collect::<Vec<_>>()
    );
    assert_eq!(listed(&read(dir.join("page/1/index.html"))), listed(&page1));
    assert_eq!(listed(&read(dir.join("page/2/index.html"))), listed(&page2));
}

#[test]
fn a_base_url_with_a_trailing_slash_is_the_same_site() {
    let site = example_site();
    common::edit(
        site.path().join("paperboy.toml"),
        "base_url = \"https://example.github.io/digest\"",
        "base_url = \"https://example.github.io/digest/\"",
    );
    assert_ok(&build(site.path(), &[]));
    let index = read(site.path().join("public/index.html"));
    assert!(
        index.contains("<link rel=\"canonical\" href=\"https://example.github.io/digest/\">"),
        "{}",
        &index[..index.len().min(1500)]
    );
    assert!(!index.contains("digest//"), "no doubled slash");
    let check = common::paperboy(site.path(), &["check"]);
    assert_ok(&check);
    // The same from the command line, as the Pages workflow passes it.
    assert_ok(&build(site.path(), &["--base-url", "https://example.org/"]));
    assert!(!read(site.path().join("public/index.html")).contains("example.org//"));
}

/// The outbound links of each card's actions (arXiv or the article, PDF, HTML, code) or
/// of its badges (`class`: the "Code" badge is the link to the code).
fn outbound_links(html: &str, class: &str) -> Vec<String> {
    let href = regex::Regex::new(&format!(r#"<a {class}href="([^"]+)""#)).unwrap();
    href.captures_iter(html)
        .map(|c| c[1].to_string())
        .filter(|u| u.starts_with("http"))
        .collect()
}

#[test]
fn a_paper_page_links_what_its_cards_link_and_names_what_the_machine_wrote() {
    let site = example_site();
    assert_ok(&build(site.path(), &[]));
    let public = site.path().join("public");
    let card = regex::Regex::new(
        r#"(?s)<article class="card[^"]*" id="paper-([^"]+)".*?<p class="card-meta">(.*?)</p>.*?<p class="actions">(.*?)</p>"#,
    )
    .unwrap();
    let mut cards = 0;
    for week in std::fs::read_dir(public.join("digests")).unwrap() {
        let page = week.unwrap().path().join("index.html");
        if !page.is_file() {
            continue;
        }
        for c in card.captures_iter(&read(&page)) {
            let paper = read(public.join("papers").join(&c[1]).join("index.html"));
            let links = paper.split("<p class=\"links\">").nth(1).unwrap();
            let links = &links[..links.find("</p>").unwrap()];
            let mut on_card = outbound_links(&c[3], "");
            on_card.extend(outbound_links(&c[2], r#"class="badge" "#));
            assert_eq!(on_card, outbound_links(links, ""), "{}", &c[1]);
            cards += 1;
        }
    }
    assert!(cards > 300, "{cards} cards");
    // The note under a machine review names what it wrote: 2411.17730 has a headline
    // and no one-liner.
    let paper = read(public.join("papers/2411.17730/index.html"));
    assert!(!paper.contains("<p class=\"summary\">"));
    assert!(
        paper.contains("<p class=\"review-by\">Headline: machine review"),
        "{paper}"
    );
}

/// Where an editor wrote one line and the machine the other, the page's note and the feed
/// say only the machine's line is the machine's.
#[test]
fn an_editors_line_is_not_called_the_machines() {
    let site = example_site();
    let paper = site.path().join("content/papers/0412/cond-mat-0412498.md");
    edit(
        &paper,
        "[review]\nheadline = \"\"",
        "[review]\nheadline = \"An editor's headline about stripes\"",
    );
    assert_ok(&build(site.path(), &[]));
    let public = site.path().join("public");
    let page = read(public.join("papers/cond-mat-0412498/index.html"));
    assert!(
        page.contains("<p class=\"review-by\">Summary: machine review"),
        "{page}"
    );
    // An editor's one-liner, and the machine's headline, which the abstract says: the
    // entry leads with the editor's line alone, not called the machine's.
    edit(
        &paper,
        "[review]\nheadline = \"An editor's headline about stripes\"\nsummary = \"\"",
        "[review]\nheadline = \"\"\nsummary = \"An editor wrote this line about stripes\"",
    );
    assert_ok(&build(site.path(), &[]));
    let feed = read(public.join("categories/cond-mat.str-el/atom.xml"));
    let entry = feed
        .split("<entry>")
        .find(|e| e.contains("/papers/cond-mat-0412498/"))
        .unwrap();
    assert!(
        entry.contains("<summary type=\"text\">An editor wrote this line about stripes.\n"),
        "{entry}"
    );
    assert!(!entry.contains("(machine review)"), "{entry}");
}

#[test]
fn a_digest_without_a_title_is_called_by_its_week() {
    // `title` is optional in a digest's front matter; the week page, the home page and
    // the lists named "Week 14, 2026" wherever the digest named itself.
    let site = example_site();
    let digest = site.path().join("content/digests/2026-W14.md");
    let text = read(&digest);
    assert!(text.contains("title = \"Week 14, 2026\"\n"));
    std::fs::write(&digest, text.replace("title = \"Week 14, 2026\"\n", "")).unwrap();
    assert_ok(&build(site.path(), &[]));
    let public = site.path().join("public");
    let week = read(public.join("digests/2026-W14/index.html"));
    assert!(week.contains("<h1>Week 14, 2026</h1>"), "{week}");
    assert!(week.contains("<title>Week 14, 2026 · "));
    assert!(!week.contains("<h1></h1>"));
    let home = read(public.join("index.html"));
    assert!(home.contains("<h1>Week 14, 2026</h1>"));
}
