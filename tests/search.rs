//! Search finds every paper that has every word: a site of 8,400 papers whose words follow
//! a rule the test knows (so the expected sets are counted here, not by paperboy), searched
//! by the site's own search.js in Node, page by page. Words in 1,200 papers would have lost
//! postings to the old cap of 1,000 a term; a word in every paper is written in three parts
//! of 4,096 postings, a word in half of them in two.

mod common;

use common::{assert_ok, paperboy, temp_site};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

const N: usize = 8400;

fn id(i: usize) -> String {
    format!("2401.{i:05}")
}

/// Paper i: "consensus" if i is even, "byzantine" if divisible by 3, "graphs" by 5,
/// "graph" by 7; cs.DC if divisible by 4 (else cs.LG); published in 2023 for the first
/// half and 2024 for the second.
fn write_site(root: &Path) {
    let dir = root.join("content/papers/2401");
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..N {
        let mut words = vec!["alpha", "beta", "gamma"];
        for (k, w) in [
            (2, "consensus"),
            (3, "byzantine"),
            (5, "graphs"),
            (7, "graph"),
        ] {
            if i % k == 0 {
                words.push(w);
            }
        }
        let category = if i % 4 == 0 { "cs.DC" } else { "cs.LG" };
        let year = if i < N / 2 { 2023 } else { 2024 };
        let text = format!(
            "+++\nid = \"{id}\"\nversion = 1\ntitle = \"Paper number {i}\"\nauthors = [\"Ann Writer\"]\npublished = {year}-03-01T00:00:00Z\nupdated = {year}-03-01T00:00:00Z\nprimary_category = \"{category}\"\ncategories = [\"{category}\"]\nabstract = \"We study {words} systems in depth.\"\nsource = \"arxiv\"\n+++\n",
            id = id(i),
            words = words.join(" "),
        );
        std::fs::write(dir.join(format!("{}.md", id(i))), text).unwrap();
    }
}

struct Answer {
    total: usize,
    papers: BTreeSet<String>,
    ordered: bool,
    value: serde_json::Value,
}

fn search(public: &Path, q: &str, opts: serde_json::Value) -> Answer {
    let mut opts = opts;
    opts["all"] = true.into();
    let out = Command::new("node")
        .arg(common::repo().join("tests/browser/search_query.mjs"))
        .arg(format!("{}/search/", public.display()))
        .arg(public.join("search.js"))
        .arg(q)
        .arg(opts.to_string())
        .output()
        .expect("node runs");
    common::assert_tool_ok(&out, q);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let urls: Vec<String> = value["urls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap().to_string())
        .collect();
    let papers: BTreeSet<String> = urls.iter().cloned().collect();
    assert_eq!(papers.len(), urls.len(), "{q}: a paper on two pages");
    Answer {
        total: value["total"].as_u64().unwrap() as usize,
        papers,
        ordered: value["ordered"].as_bool().unwrap(),
        value,
    }
}

fn expected(rule: impl Fn(usize) -> bool) -> BTreeSet<String> {
    (0..N)
        .filter(|&i| rule(i))
        .map(|i| format!("/digest/papers/{}/", id(i)))
        .collect()
}

#[test]
fn every_matching_paper_is_found_counted_and_paged() {
    let site = temp_site(common::BASIC_CONFIG);
    write_site(site.path());
    assert_ok(&paperboy(site.path(), &["build"]));
    let public = site.path().join("public");
    let none = serde_json::json!({});

    let check = |q: &str, opts: serde_json::Value, want: BTreeSet<String>| {
        let a = search(&public, q, opts.clone());
        assert_eq!(a.total, want.len(), "{q} {opts}: the count");
        assert!(a.papers == want, "{q} {opts}: not the expected papers");
        assert!(a.ordered, "{q} {opts}: pages not in score order");
        a
    };
    // Complete recall for AND queries, beyond any cap.
    let both = check(
        "byzantine consensus",
        none.clone(),
        expected(|i| i % 6 == 0),
    );
    assert_eq!(both.total, 1400);
    assert_eq!(both.value["pages"], 47);
    let files = |stem: &str| {
        let dir = public.join("search/term");
        (0..4)
            .filter(|k| dir.join(format!("{stem}.{k}.json")).exists())
            .count()
    };
    assert_eq!((files("alpha"), files("consensus")), (3, 2));
    check("alpha", none.clone(), expected(|_| true));
    check("consensus", none.clone(), expected(|i| i % 2 == 0));
    // Stemming: "graph" and "graphs" are one word to search.
    let graph = expected(|i| i % 5 == 0 || i % 7 == 0);
    check("graph", none.clone(), graph.clone());
    check("GRAPHS", none.clone(), graph);
    // A typo in a long word.
    check("consesus", none.clone(), expected(|i| i % 2 == 0));
    check("byzantnie", none.clone(), expected(|i| i % 3 == 0));
    // Filters by category and year.
    check(
        "consensus",
        serde_json::json!({"category": "cs.DC"}),
        expected(|i| i % 4 == 0),
    );
    check(
        "byzantine",
        serde_json::json!({"from": "2024", "to": "2024"}),
        expected(|i| i >= N / 2 && i % 3 == 0),
    );
    // A paper's id and a word that is nowhere.
    check("2401.00042", none.clone(), expected(|i| i == 42));
    check("zebra consensus", none, BTreeSet::new());
}

/// Papers whose names carry accents, as feeds write them: in TeX or in Unicode.
const ACCENTED: [(&str, &str, &str); 7] = [
    (
        "2401.00001",
        r#"Stability for Schr\\\"odinger equations with potential"#,
        "Ann Writer",
    ),
    (
        "2401.00002",
        r"R\\'enyi entropy of random graphs",
        "Ann Writer",
    ),
    (
        "2401.00003",
        "Colourings of sparse hypergraphs",
        "Paul Erdős",
    ),
    (
        "2401.00004",
        "Møller scattering at low energy",
        "Ann Writer",
    ),
    (
        "2401.00005",
        "Łukasiewicz logic for the Straße",
        "Ann Writer",
    ),
    ("2401.00006", "Sums of squares", "Géza Tóth"),
    ("2401.00007", "Ørsted currents on lattices", "Ann Writer"),
];

#[test]
fn a_word_is_found_with_or_without_its_accents() {
    let site = temp_site(common::BASIC_CONFIG);
    let dir = site.path().join("content/papers/2401");
    std::fs::create_dir_all(&dir).unwrap();
    for (id, title, author) in ACCENTED {
        let text = format!(
            "+++\nid = \"{id}\"\nversion = 1\ntitle = \"{title}\"\nauthors = [\"{author}\"]\npublished = 2024-03-01T00:00:00Z\nupdated = 2024-03-01T00:00:00Z\nprimary_category = \"math.CO\"\ncategories = [\"math.CO\"]\nabstract = \"We study it.\"\nsource = \"arxiv\"\n+++\n",
        );
        std::fs::write(dir.join(format!("{id}.md")), text).unwrap();
    }
    assert_ok(&paperboy(site.path(), &["build"]));
    let public = site.path().join("public");
    let one = |id: &str| BTreeSet::from([format!("/digest/papers/{id}/")]);
    let missed = [
        ("schrodinger", "2401.00001"),
        ("Schrödinger", "2401.00001"),
        ("SCHRÖDINGER equations", "2401.00001"),
        // The accent typed as a character of its own (a decomposed keyboard).
        ("Schro\u{308}dinger", "2401.00001"),
        ("renyi", "2401.00002"),
        ("Rényi", "2401.00002"),
        ("erdos", "2401.00003"),
        ("Erdős", "2401.00003"),
        ("moller", "2401.00004"),
        ("Møller", "2401.00004"),
        ("lukasiewicz", "2401.00005"),
        ("strasse", "2401.00005"),
        ("straße", "2401.00005"),
        ("toth", "2401.00006"),
        ("Tóth", "2401.00006"),
        ("orsted", "2401.00007"),
    ]
    .into_iter()
    .filter_map(|(q, id)| {
        let a = search(&public, q, serde_json::json!({}));
        (a.papers != one(id)).then(|| format!("{q:?} found {:?} ({})", a.papers, a.value["words"]))
    })
    .collect::<Vec<_>>();
    assert!(missed.is_empty(), "{missed:#?}");
}

/// A category's name finds the papers filed under it, then those cross-listed there, each
/// newest first. As two words ("cs", "lg") it ranked by abstract length: the shortest
/// first, and a paper cross-listed in five `cs.*` categories above those filed in cs.LG.
#[test]
fn a_category_s_name_finds_its_own_papers_before_its_cross_lists() {
    let site = temp_site(common::BASIC_CONFIG);
    let dir = site.path().join("content/papers/2401");
    std::fs::create_dir_all(&dir).unwrap();
    // Abstracts of 160 and 40 words: arXiv's run from about 100 to 250.
    let long = "We study learning systems in depth and at some length here. ".repeat(16);
    let short = "We test software systems for fairness and find discrimination. ".repeat(4);
    let papers = [
        // id, primary, categories, abstract
        (1, "cs.LG", r#""cs.LG""#, long.as_str()),
        (2, "cs.LG", r#""cs.LG", "stat.ML""#, long.as_str()),
        (
            3,
            "cs.SE",
            r#""cs.SE", "cs.AI", "cs.CY", "cs.DB", "cs.LG""#,
            short.as_str(),
        ),
        (4, "stat.ML", r#""stat.ML", "cs.LG""#, short.as_str()),
        (5, "cs.SE", r#""cs.SE""#, short.as_str()),
    ];
    for (n, primary, categories, abstract_text) in papers {
        let id = format!("2401.{n:05}");
        let text = format!(
            "+++\nid = \"{id}\"\nversion = 1\ntitle = \"Paper {n}\"\nauthors = [\"Ann Writer\"]\npublished = 2024-01-0{n}T00:00:00Z\nupdated = 2024-01-0{n}T00:00:00Z\nprimary_category = \"{primary}\"\ncategories = [{categories}]\nabstract = \"{abstract_text}\"\nsource = \"arxiv\"\n+++\n",
        );
        std::fs::write(dir.join(format!("{id}.md")), text).unwrap();
    }
    // A paper of 2005 under an id of arXiv's old scheme, which sorts after "2401.…": the
    // index numbers papers by id, and listed by that it came first.
    let old = site.path().join("content/papers/0503");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(
        old.join("cs-0503001.md"),
        format!(
            "+++\nid = \"cs/0503001\"\nversion = 1\ntitle = \"Paper of 2005\"\nauthors = [\"Ann Writer\"]\npublished = 2005-03-01T00:00:00Z\nupdated = 2005-03-01T00:00:00Z\nprimary_category = \"cs.LG\"\ncategories = [\"cs.LG\"]\nabstract = \"{long}\"\nsource = \"arxiv\"\n+++\n"
        ),
    )
    .unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    let public = site.path().join("public");
    let order = |q: &str| -> Vec<String> {
        search(&public, q, serde_json::json!({})).value["urls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| {
                u.as_str()
                    .unwrap()
                    .trim_start_matches("/digest/papers/")
                    .trim_start_matches("2401.")
                    .trim_end_matches('/')
                    .to_string()
            })
            .collect()
    };
    assert_eq!(
        order("cs.LG"),
        ["00002", "00001", "cs-0503001", "00004", "00003"]
    );
    assert_eq!(order(" CS.lg "), order("cs.LG"), "as typed");
    // The category chosen in the menu with no words lists it the same way.
    let chosen = search(&public, "", serde_json::json!({"category": "cs.LG"}));
    assert_eq!(chosen.total, 5);
    assert_eq!(chosen.value["urls"][0], "/digest/papers/2401.00002/");
    assert_eq!(order("stat.ML"), ["00004", "00002"]);
    // Two words are words: "cs lg" is not the category's name.
    assert_eq!(order("cs lg").len(), 5);
}

/// A query's words are spelt as the index spells them: search.js and the index's tokenizer
/// agree on every line of the example site's papers (feed text in many scripts, TeX and
/// all) and on a few hard cases.
#[test]
fn search_js_splits_and_folds_words_as_the_index_does() {
    let mut strings: Vec<String> = [
        "GPU-based ǅemo: naïve Straße, x2 ΣΑΣ Ἀθῆναι 한국어 \u{958}\u{93f}\u{932}\u{93e}",
        "Schro\u{308}dinger \u{301}alone İstanbul ÆRØ œuvre ẞ Đorđe ı ﬁnite ½ Ⅻ",
        "Erdős–Rényi, Nguyễn Văn, Łódź; Ørsted/Þórr",
    ]
    .map(String::from)
    .to_vec();
    for entry in walkdir::WalkDir::new(common::repo().join("content/papers")) {
        let entry = entry.unwrap();
        if entry.path().extension().is_some_and(|e| e == "md") {
            strings.extend(common::read(entry.path()).lines().map(String::from));
        }
    }
    assert!(strings.len() > 1000, "{} lines", strings.len());
    let mut node = Command::new("node")
        .arg(common::repo().join("tests/browser/search_tokens.mjs"))
        .arg(common::repo().join("themes/default/static/search.js"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("node runs");
    let input = serde_json::to_vec(&strings).unwrap();
    let mut stdin = node.stdin.take().unwrap();
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, &input));
    let out = node.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    common::assert_tool_ok(&out, "search_tokens.mjs");
    let js: Vec<Vec<String>> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(js.len(), strings.len());
    let mut differ = 0;
    for (s, js) in strings.iter().zip(&js) {
        let rust: Vec<String> = paperboy::render::search::tokenize(s)
            .map(|t| t.into_owned())
            .collect();
        if &rust != js {
            differ += 1;
            eprintln!("{s:?}\n  index: {rust:?}\n  js:    {js:?}");
        }
    }
    assert_eq!(differ, 0, "lines the two tokenizers read differently");
}

/// An author's name as their page gives it finds every paper on that page, those that
/// give it by initials too: "Adrian Del Maestro" found 6 of the 10 papers on his page, the
/// other 4 saying "A. Del Maestro".
#[test]
fn an_author_s_page_name_finds_every_paper_on_the_page() {
    let site = common::example_site();
    assert_ok(&paperboy(site.path(), &["build"]));
    let public = site.path().join("public");
    let page = common::read(public.join("authors/adrian-del-maestro/index.html"));
    let on_page: BTreeSet<String> = regex::Regex::new(r#"href="(/digest/papers/[^"]+/)""#)
        .unwrap()
        .captures_iter(&page)
        .map(|c| c[1].to_string())
        .collect();
    assert!(on_page.len() >= 10, "{on_page:?}");
    let found = search(&public, "Adrian Del Maestro", serde_json::json!({}));
    assert_eq!(found.papers, on_page, "{}", found.value);
}
