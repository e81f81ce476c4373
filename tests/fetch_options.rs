//! What the README promises of fetch's options and config, over HTTP from 127.0.0.1 with a
//! real arXiv announcement feed: --max, --since, -q, --config, [filter] by category and
//! author, delay_seconds and max_retry_after_seconds as the server saw them, and config
//! errors that name the file, line and key. Expected counts come from the feed's text.

mod common;

use common::{Reply, TestServer, assert_ok, ok_xml, paperboy, stderr, temp_site};
use std::path::Path;
use std::time::Duration;

const FEED: &str = "arxiv_rss/arxiv_rss_20archives_2024-11-28_sliceA_70items.xml";

fn config(url: &str, extra: &str) -> String {
    format!(
        "{}\n[[sources]]\nkind = \"arxiv-rss\"\ncategories = [\"cs.DC\"]\nurl = \"{url}\"\n\n[fetch]\nuser_agent = \"paperboy-test (mailto:test@example.org)\"\ndelay_seconds = 0\n{extra}\n",
        common::BASIC_CONFIG
    )
}

fn papers(root: &Path) -> usize {
    walkdir::WalkDir::new(root.join("content/papers"))
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md"))
        .count()
}

/// The feed's items, as text.
fn items(feed: &str) -> Vec<&str> {
    feed.split("<item").skip(1).collect()
}

fn serve(body: Vec<u8>) -> TestServer {
    TestServer::start(move |_, _| ok_xml(body.clone()))
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn max_since_quiet_and_another_config() {
    let dir = need_fixtures!();
    let body = common::fixture_bytes(&dir, FEED);
    let total = items(&String::from_utf8_lossy(&body)).len();
    assert_eq!(total, 70);
    let server = serve(body);
    let url = server.url("/rss");

    let site = temp_site(&config(&url, ""));
    assert_ok(&paperboy(site.path(), &["fetch", "--max", "5"]));
    assert_eq!(papers(site.path()), 5, "--max 5");

    // Every item was announced on 2024-11-28.
    let site = temp_site(&config(&url, ""));
    assert_ok(&paperboy(site.path(), &["fetch", "--since", "2024-11-29"]));
    assert_eq!(papers(site.path()), 0, "--since after the feed");
    let out = paperboy(site.path(), &["-q", "fetch", "--since", "2024-11-27"]);
    assert_ok(&out);
    assert_eq!(papers(site.path()), total);
    assert_eq!(stderr(&out), "", "-q prints nothing on success");

    // --config names another file; the default one is not read.
    let elsewhere = site.path().join("other.toml");
    std::fs::write(
        &elsewhere,
        config(&url, "").replace("Test digest", "Other digest"),
    )
    .unwrap();
    std::fs::write(site.path().join("paperboy.toml"), "not = [valid").unwrap();
    let out = paperboy(
        site.path(),
        &["--config", elsewhere.to_str().unwrap(), "build"],
    );
    assert_ok(&out);
    assert!(common::read(site.path().join("public/index.html")).contains("Other digest"));
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn filters_keep_only_the_categories_and_authors_asked_for() {
    let dir = need_fixtures!();
    let body = common::fixture_bytes(&dir, FEED);
    let text = String::from_utf8_lossy(&body).into_owned();
    let in_dc = items(&text)
        .iter()
        .filter(|i| i.contains("<category>cs.DC</category>"))
        .count();
    let by_jian = items(&text)
        .iter()
        .filter(|i| {
            i.split("<dc:creator>")
                .nth(1)
                .is_some_and(|c| c[..c.find('<').unwrap_or(c.len())].contains("Jian"))
        })
        .count();
    assert!(in_dc > 0 && in_dc < 70 && by_jian > 0 && by_jian < 70);
    let server = serve(body);
    let url = server.url("/rss");

    let site = temp_site(&config(&url, "\n[filter]\ncategories = [\"cs.DC\"]\n"));
    assert_ok(&paperboy(site.path(), &["fetch"]));
    assert_eq!(papers(site.path()), in_dc, "[filter] categories");

    let site = temp_site(&config(&url, "\n[filter]\nauthors = [\"Jian\"]\n"));
    assert_ok(&paperboy(site.path(), &["fetch"]));
    assert_eq!(papers(site.path()), by_jian, "[filter] authors");
}

#[test]
fn delay_between_requests_and_a_retry_after_too_long_to_wait() {
    let feed =
        b"<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title></channel></rss>"
            .to_vec();
    let server = {
        let feed = feed.clone();
        TestServer::start(move |_, _| ok_xml(feed.clone()))
    };
    let two = format!(
        "{}\n[[sources]]\nkind = \"feed\"\nurl = \"{}\"\n\n[[sources]]\nkind = \"feed\"\nurl = \"{}\"\n\n[fetch]\nuser_agent = \"paperboy-test (mailto:test@example.org)\"\ndelay_seconds = 1\n",
        common::BASIC_CONFIG,
        server.url("/a.xml"),
        server.url("/b.xml"),
    );
    let site = temp_site(&two);
    assert_ok(&paperboy(site.path(), &["fetch"]));
    let seen = server.requests();
    assert_eq!(seen.len(), 2);
    let gap = seen[1].at.duration_since(seen[0].at);
    assert!(
        gap >= Duration::from_millis(950),
        "one host, delay_seconds = 1: {gap:?}"
    );

    // Retry-After of an hour, against max_retry_after_seconds = 2: given up at once, said.
    let busy = TestServer::start(|_, _| {
        Reply::Full(
            503,
            vec![("Retry-After".into(), "3600".into())],
            b"busy".to_vec(),
        )
    });
    let site = temp_site(&config(
        &busy.url("/rss"),
        "retries = 3\nmax_retry_after_seconds = 2",
    ));
    let out = paperboy(site.path(), &["fetch"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        busy.requests().len(),
        1,
        "no retry after an hour's Retry-After"
    );
    let err = stderr(&out);
    assert!(err.contains("3600") && err.contains("Retry-After"), "{err}");
}

#[test]
fn config_errors_name_the_file_line_and_key() {
    for (text, line, key) in [
        (
            format!(
                "{}\n[fetch]\nuser_agent = \"x (mailto:a@b.org)\"\ndelay_seconds = \"three\"\n",
                common::BASIC_CONFIG
            ),
            7,
            "delay_seconds",
        ),
        (
            format!("{}\n[fetch]\ntimeout_secs = 3\n", common::BASIC_CONFIG),
            6,
            "timeout_secs",
        ),
        ("title = \"t\"\n".to_string(), 1, "base_url"),
    ] {
        let site = temp_site(&text);
        let out = paperboy(site.path(), &["build"]);
        assert_eq!(out.status.code(), Some(1), "{text}");
        let err = stderr(&out);
        let file = site.path().join("paperboy.toml");
        assert!(
            err.contains(&format!("{}:{line}", file.display())) && err.contains(key),
            "want {}:{line} and {key}, got {err}",
            file.display()
        );
        assert!(!site.path().join("public").exists());
    }
}
