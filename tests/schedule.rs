//! Every paper lands in its week: a real day's arXiv announcement feed (cs.AI, 86 entries)
//! replayed as the five days of its week, fetched as the weekly workflow now does (every
//! announcement day), late, and after missed days (caught up through the API, served by a
//! real HTTP server on 127.0.0.1).

mod common;

use common::{Reply, TestServer, assert_ok, ok_xml, paperboy, read, stderr, temp_site};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

const DAYS: [&str; 5] = [
    "2025-08-18",
    "2025-08-19",
    "2025-08-20",
    "2025-08-21",
    "2025-08-22",
];

/// The feed's header, its entries, and its footer.
fn split_feed(text: &str) -> (String, Vec<String>, String) {
    let first = text.find("<entry>").unwrap();
    let last = text.rfind("</entry>").unwrap() + "</entry>".len();
    let entries = text[first..last]
        .split("<entry>")
        .filter(|e| !e.trim().is_empty())
        .map(|e| format!("<entry>{}", e.trim_end()))
        .collect();
    (text[..first].to_string(), entries, text[last..].to_string())
}

/// The week's five announcement feeds: the real day's entries shared out over Monday to
/// Friday, each feed dated its day (the channel's date is the announcement date).
fn week_feeds() -> Option<Vec<(String, Vec<String>)>> {
    let feeds = common::fixtures()?;
    let text = String::from_utf8(common::fixture_bytes(
        &feeds,
        "arxiv_rss/arxiv_atom_cs.AI_2025-08-20_86entries.xml",
    ))
    .unwrap();
    let (head, entries, foot) = split_feed(&text);
    assert_eq!(entries.len(), 86);
    let per_day = entries.len().div_ceil(5);
    Some(
        DAYS.iter()
            .enumerate()
            .map(|(d, day)| {
                let mine: Vec<String> = entries
                    .iter()
                    .skip(d * per_day)
                    .take(per_day)
                    .cloned()
                    .collect();
                let ids = mine
                    .iter()
                    .map(|e| {
                        let id = e.split("oai:arXiv.org:").nth(1).unwrap();
                        id[..id.find('v').unwrap()].to_string()
                    })
                    .collect();
                let feed = format!(
                    "{}{}\n{}",
                    head.replace("2025-08-20T04:00", &format!("{day}T04:00")),
                    mine.join("\n  "),
                    foot
                );
                (feed, ids)
            })
            .collect(),
    )
}

fn listed(site: &Path, week: &str) -> Vec<String> {
    let text = read(site.join(format!("content/digests/{week}.md")));
    let front: toml::Table = toml::from_str(text.split("+++").nth(1).unwrap()).unwrap();
    let mut ids: Vec<String> = front["papers"]
        .as_array()
        .unwrap()
        .iter()
        .chain(front["updated_papers"].as_array().unwrap())
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

fn fetch_day(site: &Path, feed: &str, now: &str) -> std::process::Output {
    let file = site.join("day.xml");
    std::fs::write(&file, feed).unwrap();
    paperboy(
        site,
        &["fetch", "--from", file.to_str().unwrap(), "--now", now],
    )
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn a_week_fetched_every_announcement_day_lists_every_paper() {
    let Some(days) = week_feeds() else { return };
    let site = temp_site(common::BASIC_CONFIG);
    for (day, (feed, _)) in DAYS.iter().zip(&days) {
        assert_ok(&fetch_day(site.path(), feed, &format!("{day}T06:17:00Z")));
    }
    let mut all: Vec<String> = days.iter().flat_map(|(_, ids)| ids.clone()).collect();
    all.sort();
    assert_eq!(listed(site.path(), "2025-W34"), all);
    assert_eq!(all.len(), 86);
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn a_late_fetch_within_the_grace_period_lands_and_a_frozen_week_is_never_rewritten() {
    let Some(days) = week_feeds() else { return };
    let site = temp_site(common::BASIC_CONFIG);
    assert_ok(&fetch_day(site.path(), &days[0].0, "2025-08-18T06:17:00Z"));
    // Thursday's papers fetched the next Monday: the week ended yesterday, and is still open.
    let out = fetch_day(site.path(), &days[3].0, "2025-08-25T06:17:00Z");
    assert_ok(&out);
    assert!(!stderr(&out).contains("frozen"), "{}", stderr(&out));
    let mut expected: Vec<String> = days[0].1.iter().chain(&days[3].1).cloned().collect();
    expected.sort();
    assert_eq!(listed(site.path(), "2025-W34"), expected);

    // Friday's papers on Thursday: past the three days of grace. Said as a warning that
    // names the papers, even with -q, and the digest stays byte for byte as it was.
    let digest = site.path().join("content/digests/2025-W34.md");
    let before = std::fs::read(&digest).unwrap();
    let file = site.path().join("day.xml");
    std::fs::write(&file, &days[4].0).unwrap();
    let out = paperboy(
        site.path(),
        &[
            "-q",
            "fetch",
            "--from",
            file.to_str().unwrap(),
            "--now",
            "2025-08-28T06:17:00Z",
        ],
    );
    assert_ok(&out);
    let err = stderr(&out);
    let line = err
        .lines()
        .find(|l| l.starts_with("warning: 2025-W34 is frozen"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        line.contains(&format!("{} papers not added", days[4].1.len())),
        "{line}"
    );
    assert!(line.contains(&days[4].1[0]), "{line}");
    assert_eq!(std::fs::read(&digest).unwrap(), before);
}

/// An arXiv API answer for papers submitted on the given days: the shape of a real one
/// (`../shared/fixtures/feeds/arxiv_api/`), with the ids and titles of the day feeds.
fn api_answer(papers: &[(String, &str)]) -> String {
    let mut out = format!(
        "<?xml version='1.0' encoding='UTF-8'?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\" xmlns:arxiv=\"http://arxiv.org/schemas/atom\">\n  <id>https://arxiv.org/api/catchup</id>\n  <title>arXiv Query</title>\n  <updated>2025-08-22T06:00:00Z</updated>\n  <opensearch:itemsPerPage>2000</opensearch:itemsPerPage>\n  <opensearch:totalResults>{}</opensearch:totalResults>\n  <opensearch:startIndex>0</opensearch:startIndex>\n",
        papers.len()
    );
    for (id, day) in papers {
        out.push_str(&format!(
            "  <entry>\n    <id>http://arxiv.org/abs/{id}v1</id>\n    <title>Paper {id}</title>\n    <updated>{day}T12:00:00Z</updated>\n    <published>{day}T12:00:00Z</published>\n    <summary>An abstract.</summary>\n    <author><name>A. Author</name></author>\n    <arxiv:primary_category term=\"cs.AI\"/>\n    <category term=\"cs.AI\" scheme=\"http://arxiv.org/schemas/atom\"/>\n  </entry>\n"
        ));
    }
    out.push_str("</feed>\n");
    out
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn missed_days_are_caught_up_through_the_api() {
    let Some(days) = week_feeds() else { return };
    let day = Arc::new(AtomicUsize::new(0));
    let today = day.clone();
    let feeds: Vec<String> = days.iter().map(|(f, _)| f.clone()).collect();
    let missed: Vec<(String, &str)> = (1..4)
        .flat_map(|d| days[d].1.iter().map(move |id| (id.clone(), DAYS[d])))
        .collect();
    let api = api_answer(&missed);
    let server = TestServer::start(move |req, _| {
        if req.target.starts_with("/api") {
            ok_xml(api.clone().into_bytes())
        } else if req.target.starts_with("/rss") {
            ok_xml(feeds[today.load(Ordering::SeqCst)].clone().into_bytes())
        } else {
            Reply::Full(404, vec![], vec![])
        }
    });
    let site = temp_site(&format!(
        "{}\n[[sources]]\nkind = \"arxiv-rss\"\ncategories = [\"cs.AI\"]\nurl = \"{}\"\napi_url = \"{}\"\n\n[fetch]\ndelay_seconds = 0\n",
        common::BASIC_CONFIG,
        server.url("/rss/cs.AI"),
        server.url("/api/query")
    ));
    assert_ok(&paperboy(
        site.path(),
        &["fetch", "--now", "2025-08-18T06:17:00Z"],
    ));
    assert!(read(site.path().join("state/fetch.toml")).contains("2025-08-18T06:17:00Z"));
    // Tuesday to Thursday the workflow did not run; Friday's fetch asks for them.
    day.store(4, Ordering::SeqCst);
    let out = paperboy(site.path(), &["fetch", "--now", "2025-08-22T06:17:00Z"]);
    assert_ok(&out);
    assert!(
        stderr(&out).contains("asking the arXiv API"),
        "{}",
        stderr(&out)
    );
    let api_requests: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| r.target.starts_with("/api"))
        .collect();
    assert_eq!(api_requests.len(), 1);
    let query = api_requests[0].query("search_query").unwrap();
    let query = query
        .replace("%3A", ":")
        .replace("%5B", "[")
        .replace("%5D", "]")
        .replace('+', " ");
    assert!(
        query.contains("cat:cs.AI")
            && query.contains("submittedDate:[202508140617 TO 202508220617]"),
        "{query}"
    );
    let mut all: Vec<String> = days.iter().flat_map(|(_, ids)| ids.clone()).collect();
    all.sort();
    all.dedup();
    assert_eq!(listed(site.path(), "2025-W34"), all);
}
