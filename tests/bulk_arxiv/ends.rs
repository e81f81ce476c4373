//! Harvests that end: an OAI-PMH server on 127.0.0.1 that repeats itself (a token handed
//! back again, a cycle of two tokens, a cursor that stays put, more pages than its list
//! holds).

use super::*;

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
