//! The files "For you" ranks from, as the build writes them: one per week with every paper
//! of the week and a usable vector, the list of the newest weeks, and a new week that
//! leaves the older weeks' files as they were (their idf looks only at older weeks).

mod common;

use common::{assert_ok, paperboy, read};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

fn week_files(public: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(public.join("foryou"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect()
}

/// The week files' papers by id, each with its vector.
fn rows(files: &BTreeMap<String, Vec<u8>>) -> BTreeMap<String, Vec<Vec<u64>>> {
    let mut out: BTreeMap<String, Vec<Vec<u64>>> = BTreeMap::new();
    for (name, bytes) in files {
        if name == "weeks.json" {
            continue;
        }
        let week: Value = serde_json::from_slice(bytes).unwrap();
        assert_eq!(format!("{}.json", week["week"].as_str().unwrap()), *name);
        for row in week["papers"].as_array().unwrap() {
            let vector = row[7]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect();
            out.entry(row[0].as_str().unwrap().to_string())
                .or_default()
                .push(vector);
        }
    }
    out
}

#[test]
fn every_week_has_its_papers_vectors_and_the_page_lists_the_newest_weeks() {
    let site = common::example_site();
    assert_ok(&paperboy(site.path(), &["build"]));
    let public = site.path().join("public");
    let files = week_files(&public);
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
        assert!(files.contains_key(&format!("{week}.json")), "{week}");
    }
    let by_id = rows(&files);
    let papers = walkdir::WalkDir::new(site.path().join("content/papers"))
        .into_iter()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "md")
        })
        .count();
    assert_eq!(by_id.len(), papers, "every paper is in a week's file");
    for (id, vectors) in &by_id {
        for v in vectors {
            // Pairs of (term, weight): some terms, weights 1 to 255, the strongest at 255.
            assert!(v.len() >= 2 && v.len() % 2 == 0, "{id}: {v:?}");
            let weights: Vec<u64> = v.iter().skip(1).step_by(2).copied().collect();
            assert!(weights.iter().all(|w| (1..=255).contains(w)), "{id}");
            assert_eq!(weights.iter().max(), Some(&255), "{id}");
        }
    }
    // A title or headline with math carries it as MathML too, for the scripts to show;
    // one without carries nothing more.
    let row_of = |week: &str, id: &str| -> Value {
        let file: Value = serde_json::from_slice(&files[&format!("{week}.json")]).unwrap();
        let rows = file["papers"].as_array().unwrap();
        rows.iter().find(|r| r[0] == id).unwrap().clone()
    };
    let omega = row_of("2023-W23", "2306.03845");
    assert!(omega[2].as_str().unwrap().starts_with("$ω$Test"), "{omega}");
    assert!(
        omega[8]
            .as_str()
            .unwrap()
            .starts_with("<math display=\"inline\"><mi>ω</mi></math>Test"),
        "{omega}"
    );
    // "Assuming instead a natural large sieve inequality, we recover the same bound on
    // $N(X)$", the machine's, under a title without math.
    let sieve = row_of("2024-W48", "2108.03395");
    assert_eq!(sieve[8], "", "{sieve}");
    assert!(
        sieve[9].as_str().unwrap().starts_with(
            "Assuming instead a natural large sieve inequality, we recover the same bound on <math display=\"inline\"><mi>N</mi>"
        ),
        "{sieve}"
    );
    // Whose the headline is (1: the machine's), and for a paper not on arXiv where its
    // article is: what Saved and For you mark and link.
    assert_eq!((&sieve[10], &sieve[11]), (&json!(1), &json!("")), "{sieve}");
    let biorxiv = row_of("2025-W15", "doi-10.1101-2025.04.07.647590");
    assert_eq!(
        biorxiv[11], "https://www.biorxiv.org/content/10.1101/2025.04.07.647590v1",
        "{biorxiv}"
    );
    // A reader's browser loads only the newest weeks: the example keeps twelve.
    let weeks: Value = serde_json::from_slice(&files["weeks.json"]).unwrap();
    let listed: Vec<&str> = weeks["weeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    let mut newest = digests.clone();
    newest.sort();
    newest.reverse();
    newest.truncate(12);
    assert_eq!(listed, newest);
    // The page and the saved list exist, and say what they need without JavaScript.
    assert!(read(public.join("foryou/index.html")).contains("needs JavaScript"));
    assert!(read(public.join("saved/index.html")).contains("id=\"saved-list\""));
}

#[test]
fn a_new_week_writes_its_own_file_and_leaves_the_older_weeks_alone() {
    let site = common::example_site();
    assert_ok(&paperboy(site.path(), &["build"]));
    let before = week_files(&site.path().join("public"));
    // A new paper in a new week, on the same topic as one of the example's.
    let old = site.path().join("content/papers/2604/2604.03438.md");
    let text = read(&old)
        .replace("2604.03438", "2605.00001")
        .replace("2026-04-03T20:24:19Z", "2026-05-05T20:24:19Z");
    std::fs::create_dir_all(site.path().join("content/papers/2605")).unwrap();
    std::fs::write(site.path().join("content/papers/2605/2605.00001.md"), text).unwrap();
    std::fs::write(
        site.path().join("content/digests/2026-W19.md"),
        "+++\nweek = \"2026-W19\"\ntitle = \"Week 19, 2026\"\nstart = 2026-05-04\nend = 2026-05-10\npapers = [\"2605.00001\"]\nupdated_papers = []\n+++\n",
    )
    .unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    let after = week_files(&site.path().join("public"));
    let changed: Vec<&String> = after
        .keys()
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert_eq!(changed, ["2026-W19.json", "weeks.json"]);
    // The copy's vector is its original's: the same words weigh the same.
    let by_id = rows(&after);
    assert_eq!(by_id["2605.00001"][0].len(), by_id["2604.03438"][0].len());
}
