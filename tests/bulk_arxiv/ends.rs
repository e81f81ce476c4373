//! Harvests that end: an OAI-PMH server on 127.0.0.1 that repeats itself (a token handed
//! back again, a cycle of two tokens, a cursor that stays put, more pages than its list
//! holds), and metadata snapshots cut off in the middle of a line.

use super::*;
use std::io::Write;

/// Answers after which the repeating server gives an OAI error instead: a harvest that
/// never stops fails the test with a wrong count instead of hanging it.
const ANSWERS: usize = 20;

/// PAGE1's records with the token and cursor a server hands out.
fn page_with(page1: &str, token: &str, cursor: usize) -> Vec<u8> {
    let fixture_token = format!(
        "<resumptionToken cursor=\"0\" completeListSize=\"2265\">{TOKEN}</resumptionToken>"
    );
    assert!(
        page1.contains(&fixture_token),
        "the fixture's token changed"
    );
    page1
        .replace(
            &fixture_token,
            &format!(
                "<resumptionToken cursor=\"{cursor}\" completeListSize=\"2265\">{token}</resumptionToken>"
            ),
        )
        .into_bytes()
}

/// A server whose every page is PAGE1's records, with the token and cursor `next` gives
/// for the request's token (None at the list's start) and the request's number.
fn repeating_server(
    dir: &Path,
    next: impl Fn(Option<&str>, usize) -> (String, usize) + Send + Sync + 'static,
) -> TestServer {
    let page1 = String::from_utf8(common::fixture_bytes(dir, PAGE1)).unwrap();
    TestServer::start(move |req, n| {
        if n >= ANSWERS {
            return xml(oai_error("badArgument", "the test server answers no more"));
        }
        let asked = req.query("resumptionToken").map(|t| t.replace("%7C", "|"));
        let (token, cursor) = next(asked.as_deref(), n);
        xml(page_with(&page1, &token, cursor))
    })
}

/// The tokens the requests asked with, in order (None: the list's start).
fn asked_tokens(server: &TestServer) -> Vec<Option<String>> {
    server
        .requests()
        .iter()
        .map(|r| r.query("resumptionToken").map(|t| t.replace("%7C", "|")))
        .collect()
}

fn fetch_fails(site: &Path) -> String {
    let out = paperboy(site, &["--now", NOW, "fetch"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    stderr(&out)
}

/// PAGE1's papers are on disk and the harvest stands at `token`.
fn kept_page1_at(site: &Path, dir: &Path, token: &str) {
    let mut ids = ids_in(&common::fixture_bytes(dir, PAGE1));
    ids.sort();
    ids.dedup();
    assert_eq!(
        paper_files(site).len(),
        ids.len(),
        "the page received is kept"
    );
    let state = read(site.join("state/fetch.toml"));
    assert!(
        state.contains(&format!("resumption_token = \"{token}\"")),
        "{state}"
    );
}

const T2: &str = "6511260|2001";

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn a_token_handed_back_again_stops_the_harvest_and_the_next_run_at_its_first_answer() {
    let dir = need_oai!();
    // arXiv's first page, whatever is asked: its token never moves.
    let server = repeating_server(&dir, |_, _| (TOKEN.into(), 0));
    let site = temp_site(&oai_config(&server.url("/oai"), ""));
    let err = fetch_fails(site.path());
    assert!(
        err.contains(&format!("error: arxiv-oai cs: GET {}", server.url("/oai")))
            && err.contains(&format!(
                "resumptionToken {TOKEN}, which this harvest has already asked with"
            )),
        "names the source and the token: {err}"
    );
    assert_eq!(asked_tokens(&server), [None, Some(TOKEN.into())]);
    kept_page1_at(site.path(), &dir, TOKEN);

    // As after any failed page, the next run asks with the token it stands at, and stops
    // at the first answer while the server repeats itself.
    let err = fetch_fails(site.path());
    assert!(err.contains("already asked with"), "{err}");
    assert_eq!(asked_tokens(&server).len(), 3);
    kept_page1_at(site.path(), &dir, TOKEN);
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn a_cycle_of_two_tokens_stops_the_harvest() {
    let dir = need_oai!();
    // The cursor moves on; the tokens go round: TOKEN, T2, TOKEN, …
    let server = repeating_server(&dir, |asked, n| {
        let token = if asked == Some(TOKEN) { T2 } else { TOKEN };
        (token.into(), n * 1000)
    });
    let site = temp_site(&oai_config(&server.url("/oai"), ""));
    let err = fetch_fails(site.path());
    assert!(
        err.contains(&format!("resumptionToken {TOKEN}, which this harvest")),
        "{err}"
    );
    assert_eq!(
        asked_tokens(&server),
        [None, Some(TOKEN.into()), Some(T2.into())]
    );
    kept_page1_at(site.path(), &dir, T2);

    // The next run starts at T2: one step round the cycle and it is seen again.
    let err = fetch_fails(site.path());
    assert!(
        err.contains(&format!("resumptionToken {T2}, which this harvest")),
        "{err}"
    );
    assert_eq!(asked_tokens(&server).len(), 5);
    kept_page1_at(site.path(), &dir, TOKEN);
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn a_cursor_that_stays_put_stops_the_harvest() {
    let dir = need_oai!();
    // A new token on every answer, and every page says it starts the list.
    let server = repeating_server(&dir, |_, n| (format!("6511260|{}", 1001 + n * 1000), 0));
    let site = temp_site(&oai_config(&server.url("/oai"), ""));
    let err = fetch_fails(site.path());
    assert!(
        err.contains("error: arxiv-oai cs: ")
            && err.contains(
                "cursor (0) is not past the last page's (0): resumptionToken 6511260|2001"
            ),
        "{err}"
    );
    assert_eq!(asked_tokens(&server), [None, Some(TOKEN.into())]);
    kept_page1_at(site.path(), &dir, TOKEN);
    fetch_fails(site.path());
    assert_eq!(asked_tokens(&server).len(), 4, "two more, not for ever");
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn more_pages_than_the_list_holds_stop_the_harvest() {
    let dir = need_oai!();
    // New tokens and a cursor that moves on, past the 2,265 records the list says it has.
    let server = repeating_server(&dir, |_, n| {
        (format!("6511260|{}", 1001 + n * 1000), n * 1000)
    });
    let site = temp_site(&oai_config(&server.url("/oai"), ""));
    let err = fetch_fails(site.path());
    // 2,265 records in pages of 1,000 are 3 pages; twice that and two more are let by.
    assert!(
        err.contains("9 pages and still a resumptionToken (6511260|9001)")
            && err.contains("completeListSize 2265"),
        "{err}"
    );
    assert_eq!(asked_tokens(&server).len(), 9);
}

/// The snapshot fixture's lines, each with its newline.
fn snapshot_lines() -> Option<Vec<String>> {
    let dir = common::shared_fixtures("arxiv_snapshot")?;
    let text = read(dir.join("kaggle_arxiv_metadata_first200.jsonl"));
    Some(text.split_inclusive('\n').map(str::to_string).collect())
}

fn ids_of(lines: &[String]) -> Vec<String> {
    let mut ids: Vec<String> = lines
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["id"].as_str().unwrap().to_string()
        })
        .collect();
    ids.sort();
    ids
}

/// Fetches `file` into `site`; the ids written.
fn fetch_from(site: &Path, file: &Path) -> (std::process::Output, Vec<String>) {
    let out = paperboy(site, &["fetch", "--from", file.to_str().unwrap()]);
    let mut ids: Vec<String> = digest_listing(site).into_keys().collect();
    ids.sort();
    (out, ids)
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn a_gzipped_snapshot_cut_mid_line_keeps_the_whole_lines_before_it() {
    let Some(lines) = snapshot_lines() else {
        return;
    };
    let site = temp_site(common::BASIC_CONFIG);
    // 100 lines compressed and flushed (all of them can be read back), then the next
    // lines, and the file cut a few bytes into them: inside line 101.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(lines[..100].concat().as_bytes()).unwrap();
    gz.flush().unwrap();
    let whole = gz.get_ref().len();
    gz.write_all(lines[100..150].concat().as_bytes()).unwrap();
    let bytes = gz.finish().unwrap();
    let file = site.path().join("arxiv-metadata-oai-snapshot.jsonl.gz");
    std::fs::write(&file, &bytes[..whole + 64]).unwrap();

    let (out, written) = fetch_from(site.path(), &file);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("arxiv-metadata-oai-snapshot.jsonl.gz: the file breaks off in line 101")
            && err.contains("the 100 whole lines before it are read"),
        "{err}"
    );
    assert_eq!(written, ids_of(&lines[..100]));
    assert_eq!(paper_files(site.path()).len(), 100);

    // `--max` met before the break: the rest of the file was not wanted.
    let site = temp_site(common::BASIC_CONFIG);
    let file = site.path().join("arxiv-metadata-oai-snapshot.jsonl.gz");
    std::fs::write(&file, &bytes[..whole + 64]).unwrap();
    let out = paperboy(
        site.path(),
        &["fetch", "--from", file.to_str().unwrap(), "--max", "10"],
    );
    assert_ok(&out);
    assert_eq!(paper_files(site.path()).len(), 10);
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn a_plain_snapshot_cut_mid_line_keeps_the_whole_lines_and_a_last_line_without_newline_is_whole() {
    let Some(lines) = snapshot_lines() else {
        return;
    };
    let site = temp_site(common::BASIC_CONFIG);
    let file = site.path().join("snapshot.jsonl");
    let cut = &lines[100][..lines[100].len() / 2];
    std::fs::write(&file, lines[..100].concat() + cut).unwrap();
    let (out, written) = fetch_from(site.path(), &file);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("snapshot.jsonl: the file breaks off in line 101 (it ends inside that line's record); the 100 whole lines before it are read"),
        "{err}"
    );
    assert_eq!(written, ids_of(&lines[..100]));

    // A file whose last record is whole but has no newline after it is not cut off.
    let site = temp_site(common::BASIC_CONFIG);
    let file = site.path().join("snapshot.jsonl");
    std::fs::write(&file, lines[..101].concat().trim_end()).unwrap();
    let (out, written) = fetch_from(site.path(), &file);
    assert_ok(&out);
    assert_eq!(written, ids_of(&lines[..101]));
}
