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
