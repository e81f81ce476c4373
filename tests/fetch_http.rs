//! `paperboy fetch` against a real HTTP server on 127.0.0.1 serving the real fixtures.

mod common;

use common::{Reply, TestServer, assert_ok, ok_xml, paperboy, read, stderr, temp_site};
use std::time::Duration;

fn config(sources: &str, fetch: &str) -> String {
    format!(
        "{}\n{sources}\n[fetch]\nuser_agent = \"paperboy-test (mailto:test@example.org)\"\ndelay_seconds = 0\n{fetch}\n",
        common::BASIC_CONFIG
    )
}

/// The paper files fetch wrote under `content/papers/`.
fn paper_files(root: &std::path::Path) -> Vec<std::path::PathBuf> {
    walkdir::WalkDir::new(root.join("content/papers"))
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect()
}

fn papers_written(root: &std::path::Path) -> usize {
    paper_files(root).len()
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn arxiv_api_pages_and_an_empty_page_is_asked_again() {
    let dir = need_fixtures!();
    // 100 entries of 214,881, then an empty page (arXiv under load), then 10 more.
    let pages = [
        common::fixture_bytes(
            &dir,
            "arxiv_api/api_2026-04_query_all-testing_100entries.xml",
        ),
        common::fixture_bytes(
            &dir,
            "arxiv_api/api_2026-04_idlist_0000.0000_zero_results.xml",
        ),
        common::fixture_bytes(
            &dir,
            "arxiv_api/api_2016-10_query_au_del_maestro_10entries.xml",
        ),
    ];
    let server = TestServer::start(move |_, n| ok_xml(pages[n.min(2)].clone()));
    let site = temp_site(&config(
        &format!(
            "[[sources]]\nkind = \"arxiv\"\nquery = \"cat:cs.DC\"\nmax_results = 110\nurl = \"{}\"\n",
            server.url("/api/query")
        ),
        "",
    ));
    let out = paperboy(site.path(), &["fetch"]);
    assert_ok(&out);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3, "{reqs:?}");
    let starts: Vec<String> = reqs.iter().map(|r| r.query("start").unwrap()).collect();
    assert_eq!(
        starts,
        ["0", "100", "100"],
        "the empty page is asked for again"
    );
    assert_eq!(reqs[0].query("search_query").unwrap(), "cat%3Acs.DC");
    assert_eq!(reqs[0].query("sortBy").unwrap(), "submittedDate");
    assert_eq!(reqs[0].query("max_results").unwrap(), "110");
    assert_eq!(
        reqs[0].header("user-agent").unwrap(),
        "paperboy-test (mailto:test@example.org)"
    );
    assert!(
        reqs[0]
            .header("accept-encoding")
            .unwrap_or("")
            .contains("gzip")
    );
    // Said as it happened, though stderr is no terminal.
    assert!(
        stderr(&out).contains("retry: arxiv cat:cs.DC: GET http://127.0.0.1:")
            && stderr(&out).contains("an empty page at 100 of 110"),
        "{}",
        stderr(&out)
    );
    assert_eq!(papers_written(site.path()), 110);
    assert!(stderr(&out).contains("110 new papers"), "{}", stderr(&out));
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn arxiv_paging_that_ends_short_of_total_results_fails_that_source_and_keeps_its_papers() {
    let dir = need_fixtures!();
    let first = common::fixture_bytes(
        &dir,
        "arxiv_api/api_2026-04_query_all-testing_100entries.xml",
    );
    // After the first page, only empty pages, though totalResults says 214,881.
    let empty = common::fixture_bytes(
        &dir,
        "arxiv_api/api_2026-04_idlist_0000.0000_zero_results.xml",
    );
    let server = TestServer::start(move |req, _| {
        if req.query("start").as_deref() == Some("0") {
            ok_xml(first.clone())
        } else {
            ok_xml(empty.clone())
        }
    });
    let site = temp_site(&config(
        &format!(
            "[[sources]]\nkind = \"arxiv\"\nquery = \"cat:cs.DC\"\nmax_results = 300\nurl = \"{}\"\n",
            server.url("/api/query")
        ),
        "",
    ));
    let out = paperboy(site.path(), &["fetch"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("error: arxiv cat:cs.DC: the arXiv API gave 100 of the 300 entries expected (totalResults 214881)"),
        "{err}"
    );
    assert_eq!(
        err.matches("an empty page at 100 of 300").count(),
        3,
        "{err}"
    );
    assert_eq!(
        server.requests().len(),
        5,
        "the first page and the empty one four times"
    );
    assert_eq!(papers_written(site.path()), 100, "what came is kept");
    // The next run stops at the papers it holds: nothing is missing any more.
    assert_ok(&paperboy(site.path(), &["fetch"]));
    // -q silences the retry lines, not the error.
    let fresh = temp_site(&read(site.path().join("paperboy.toml")));
    let quiet = paperboy(fresh.path(), &["-q", "fetch"]);
    assert!(!stderr(&quiet).contains("retry:") && stderr(&quiet).contains("error: arxiv"));
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn retries_503_honouring_retry_after_then_succeeds() {
    let dir = need_fixtures!();
    let body = common::fixture_bytes(
        &dir,
        "arxiv_rss/arxiv_rss_20archives_2024-11-28_sliceA_70items.xml",
    );
    let server = TestServer::start(move |_, n| match n {
        0 => Reply::Full(
            503,
            vec![("Retry-After".into(), "1".into())],
            b"busy".to_vec(),
        ),
        1 => Reply::Full(429, vec![], b"slow down".to_vec()),
        _ => ok_xml(body.clone()),
    });
    let site = temp_site(&config(
        &format!(
            "[[sources]]\nkind = \"arxiv-rss\"\ncategories = [\"cs.DC\"]\nurl = \"{}\"\n",
            server.url("/rss/cs.DC")
        ),
        "retries = 3",
    ));
    let out = paperboy(site.path(), &["fetch"]);
    assert_ok(&out);
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    // As the server saw them: Retry-After: 1 honoured, then a backoff of at least a second
    // for the bare 429 (lower bounds, so a busy machine cannot fail them).
    let gap = |i: usize| requests[i + 1].at.duration_since(requests[i].at);
    assert!(
        gap(0) >= Duration::from_millis(950),
        "Retry-After ignored: {:?}",
        gap(0)
    );
    assert!(
        gap(1) >= Duration::from_millis(950),
        "no backoff after 429: {:?}",
        gap(1)
    );
    assert_eq!(papers_written(site.path()), 70);
}

#[test]
fn gives_up_after_the_retries_and_names_the_url() {
    let server = TestServer::start(|_, _| {
        Reply::Full(503, vec![("Retry-After".into(), "0".into())], vec![])
    });
    let url = server.url("/feed.xml");
    let site = temp_site(&config(
        &format!("[[sources]]\nkind = \"feed\"\nurl = \"{url}\"\n"),
        "retries = 2",
    ));
    let out = paperboy(site.path(), &["fetch"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&url) && stderr(&out).contains("503"),
        "{}",
        stderr(&out)
    );
    assert_eq!(server.requests().len(), 3);
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn unchanged_feed_costs_a_304() {
    let dir = need_fixtures!();
    let body = common::fixture_bytes(&dir, "general/biorxiv_bioinformatics_2025-04-13_rss1.xml");
    let server = TestServer::start(move |req, _| {
        if req.header("if-none-match") == Some("\"v1\"") {
            Reply::Full(304, vec![], vec![])
        } else {
            Reply::Full(200, vec![("ETag".into(), "\"v1\"".into())], body.clone())
        }
    });
    let site = temp_site(&config(
        &format!(
            "[[sources]]\nkind = \"feed\"\nname = \"bioRxiv\"\nurl = \"{}\"\n",
            server.url("/bio")
        ),
        "",
    ));
    assert_ok(&paperboy(site.path(), &["fetch"]));
    let second = paperboy(site.path(), &["fetch"]);
    assert_ok(&second);
    assert!(
        stderr(&second).contains("1 feed unchanged (304)"),
        "{}",
        stderr(&second)
    );
    assert!(
        stderr(&second).contains("0 new papers"),
        "{}",
        stderr(&second)
    );
    let reqs = server.requests();
    assert_eq!(reqs[1].header("if-none-match"), Some("\"v1\""));
    assert_eq!(papers_written(site.path()), 30);
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn body_cut_off_in_transit_fails_that_source_only() {
    let dir = need_fixtures!();
    let full = common::fixture_bytes(
        &dir,
        "general/oup_bioinformatics_openaccess_2025-03-22_rss2.xml",
    );
    let good = common::fixture_bytes(
        &dir,
        "general/nature_subject_bioinformatics_2025-03-19_atom.xml",
    );
    let server = TestServer::start(move |req, _| {
        if req.target.starts_with("/cut") {
            Reply::CutOff {
                claimed: full.len(),
                body: full[..full.len() / 2].to_vec(),
            }
        } else {
            ok_xml(good.clone())
        }
    });
    let site = temp_site(&config(
        &format!(
            "[[sources]]\nkind = \"feed\"\nname = \"OUP\"\nurl = \"{}\"\n\n[[sources]]\nkind = \"feed\"\nname = \"Nature\"\nurl = \"{}\"\n",
            server.url("/cut"),
            server.url("/nature")
        ),
        "retries = 1",
    ));
    let out = paperboy(site.path(), &["fetch"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("OUP") && err.contains("/cut") && err.contains("cut off"),
        "{err}"
    );
    assert!(err.contains("1 failed"), "{err}");
    // The other source still landed, and nothing of the broken one was written.
    assert_eq!(papers_written(site.path()), 30);
}

/// A journal's feed that does not name its journal (OUP's names none): the source's
/// `journal` says it, and the pages cite each paper as that journal's article.
#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn a_sources_journal_names_the_journal_its_papers_are_cited_in() {
    let dir = need_fixtures!();
    let body = common::fixture_bytes(
        &dir,
        "general/oup_bioinformatics_openaccess_2025-03-22_rss2.xml",
    );
    let server = TestServer::start(move |_, _| ok_xml(body.clone()));
    let site = temp_site(&config(
        &format!(
            "[[sources]]\nkind = \"feed\"\nname = \"OUP\"\njournal = \"Bioinformatics\"\nurl = \"{}\"\n",
            server.url("/oup")
        ),
        "",
    ));
    assert_ok(&paperboy(site.path(), &["fetch"]));
    let files: Vec<String> = paper_files(site.path()).iter().map(read).collect();
    assert_eq!(files.len(), 4);
    for text in &files {
        assert!(
            text.contains("\njournal_ref = \"Bioinformatics\"\n"),
            "{text}"
        );
    }
    assert_ok(&paperboy(site.path(), &["build"]));
    let page = read(
        site.path()
            .join("public/papers/doi-10.1093-bioinformatics-btaf119/index.html"),
    );
    assert!(
        page.contains("<meta name=\"citation_journal_title\" content=\"Bioinformatics\">"),
        "{page}"
    );
    assert!(page.contains("journal={Bioinformatics}"), "{page}");

    // The key is a feed's: on an arXiv source it is refused, named.
    let arxiv = temp_site(&config(
        &format!(
            "[[sources]]\nkind = \"arxiv\"\nquery = \"cat:cs.DC\"\njournal = \"X\"\nurl = \"{}\"\n",
            server.url("/api")
        ),
        "",
    ));
    let out = paperboy(arxiv.path(), &["fetch"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("sources[0]") && stderr(&out).contains("key `journal`"),
        "{}",
        stderr(&out)
    );
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn feed_truncated_mid_entry_keeps_the_whole_entries() {
    let dir = need_fixtures!();
    let body = common::fixture_bytes(
        &dir,
        "malformed/real_arxiv_atom_cs.AI_truncated_mid_entry.xml",
    );
    let server = TestServer::start(move |_, _| ok_xml(body.clone()));
    let site = temp_site(&config(
        &format!(
            "[[sources]]\nkind = \"arxiv-rss\"\ncategories = [\"cs.AI\"]\nurl = \"{}\"\n",
            server.url("/atom/cs.AI")
        ),
        "",
    ));
    let out = paperboy(site.path(), &["-v", "fetch"]);
    assert_ok(&out);
    assert_eq!(papers_written(site.path()), 4);
    // Said as a warning, on stderr, without -v too.
    assert!(
        stderr(&out).contains("warning: ") && stderr(&out).contains("line 69"),
        "{}",
        stderr(&out)
    );
    // Every file written parses.
    let build = paperboy(site.path(), &["build"]);
    assert_ok(&build);
}

#[test]
fn a_server_slower_than_the_timeout_is_an_error_naming_the_url() {
    let server = TestServer::start(|_, _| {
        // A whole, valid answer, but late: had fetch waited for it, it would succeed.
        Reply::Slow(
            Duration::from_secs(20),
            Box::new(ok_xml(b"<rss/>".to_vec())),
        )
    });
    let url = server.url("/slow");
    let site = temp_site(&config(
        &format!("[[sources]]\nkind = \"feed\"\nurl = \"{url}\"\n"),
        "timeout_seconds = 1\nretries = 0",
    ));
    let out = paperboy(site.path(), &["fetch"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(server.requests().len(), 1, "retries = 0");
    let err = stderr(&out);
    assert!(err.contains(&url) && err.contains("timed out"), "{err}");
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn arxiv_error_answer_is_reported_not_stored() {
    let dir = need_fixtures!();
    let body = common::fixture_bytes(
        &dir,
        "arxiv_api/api_2026-04_idlist_abc_error_entry_http400.xml",
    );
    let server = TestServer::start(move |_, _| Reply::Full(400, vec![], body.clone()));
    let site = temp_site(&config(
        &format!(
            "[[sources]]\nkind = \"arxiv\"\nquery = \"id:abc\"\nurl = \"{}\"\n",
            server.url("/api/query")
        ),
        "",
    ));
    let out = paperboy(site.path(), &["fetch"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("incorrect id format for abc"),
        "{}",
        stderr(&out)
    );
    assert!(!site.path().join("content/papers").exists());
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn gzip_bodies_and_last_modified_with_the_cache_on_disk() {
    use std::io::Write;
    let dir = need_fixtures!();
    let body = common::fixture_bytes(&dir, "general/biorxiv_bioinformatics_2025-04-13_rss1.xml");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&body).unwrap();
    let gzipped = gz.finish().unwrap();
    let stamp = "Sun, 13 Apr 2025 06:00:00 GMT";
    let server = TestServer::start(move |req, _| {
        if req.header("if-modified-since") == Some(stamp) {
            return Reply::Full(304, vec![], vec![]);
        }
        let mut headers = vec![("Last-Modified".to_string(), stamp.to_string())];
        if req
            .header("accept-encoding")
            .is_some_and(|e| e.contains("gzip"))
        {
            headers.push(("Content-Encoding".into(), "gzip".into()));
            Reply::Full(200, headers, gzipped.clone())
        } else {
            Reply::Full(200, headers, body.clone())
        }
    });
    let site = temp_site(&config(
        &format!(
            "[[sources]]\nkind = \"feed\"\nname = \"bioRxiv\"\nurl = \"{}\"\n",
            server.url("/bio")
        ),
        "",
    ));
    assert_ok(&paperboy(site.path(), &["fetch"]));
    // The feed's 30 items, as counted in the file.
    let items = String::from_utf8_lossy(&common::fixture_bytes(
        &dir,
        "general/biorxiv_bioinformatics_2025-04-13_rss1.xml",
    ))
    .matches("<item ")
    .count();
    assert_eq!(papers_written(site.path()), items);
    let reqs = server.requests();
    assert!(
        reqs[0]
            .header("accept-encoding")
            .is_some_and(|e| e.contains("gzip")),
        "asks for gzip"
    );
    // What the next run sends comes from .cache/http/ on disk.
    let cached = walkdir::WalkDir::new(site.path().join(".cache/http"))
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .count();
    assert!(cached >= 1, "nothing kept in .cache/http/");
    let second = paperboy(site.path(), &["fetch"]);
    assert_ok(&second);
    assert_eq!(
        server.requests()[1].header("if-modified-since"),
        Some(stamp)
    );
    assert!(
        stderr(&second).contains("1 feed unchanged (304)"),
        "{}",
        stderr(&second)
    );
    // Without the cache, the feed is asked for whole again.
    std::fs::remove_dir_all(site.path().join(".cache/http")).unwrap();
    assert_ok(&paperboy(site.path(), &["fetch"]));
    assert_eq!(server.requests()[2].header("if-modified-since"), None);
}
