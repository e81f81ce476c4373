//! The book's quick start, run as a reader would: every command of its `sh` blocks, in
//! order, in a fresh folder, with the `paperboy.toml` its `toml` block shows. Offline: the
//! sources' endpoints (`url`, which every source takes) point at a server on 127.0.0.1
//! serving the shared fixtures' arXiv answers, the review's HTML renditions at the same
//! server (which has none: each paper is "no rendition"), and the delay between requests
//! is 0. `paperboy serve` is run on a free port and stopped once a page is served.

use common::{Reply, TestServer, ok_xml};
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

/// The commands of the chapter's ```sh blocks and the text of its ```toml block.
fn chapter() -> (Vec<String>, String) {
    let text = common::read(common::repo().join("docs/src/quick-start.md"));
    let mut commands = Vec::new();
    let mut toml = String::new();
    let mut block: Option<&str> = None;
    for line in text.lines() {
        match block {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    block = Some(if info == "sh" || info == "toml" {
                        info
                    } else {
                        "other"
                    });
                }
            }
            Some(_) if line.starts_with("```") => block = None,
            Some("sh") => {
                let command = line.split(" #").next().unwrap().trim();
                if !command.is_empty() && !command.starts_with('#') {
                    commands.push(command.to_string());
                }
            }
            Some("toml") => {
                toml.push_str(line);
                toml.push('\n');
            }
            Some(_) => {}
        }
    }
    (commands, toml)
}

/// The arXiv API's and the announcement feed's answers, from the fixtures.
fn arxiv_server(feeds: &Path) -> TestServer {
    // A query's first page of 10, saying it matched 31: as if it matched these 10.
    let api = String::from_utf8(common::fixture_bytes(
        feeds,
        "arxiv_api/api_2016-10_query_au_del_maestro_10entries.xml",
    ))
    .unwrap()
    .replace(
        ">31</opensearch:totalResults>",
        ">10</opensearch:totalResults>",
    );
    let rss = common::fixture_bytes(
        feeds,
        "arxiv_rss/arxiv_rss_20archives_2024-11-28_sliceA_70items.xml",
    );
    TestServer::start(move |req, _| {
        if req.target.starts_with("/api/") {
            ok_xml(api.clone().into_bytes())
        } else if req.target.starts_with("/rss/") {
            ok_xml(rss.clone())
        } else {
            Reply::Full(404, vec![], b"no HTML rendition".to_vec())
        }
    })
}

/// The quick start's paperboy.toml with every address on 127.0.0.1.
fn offline(config: &str, server: &TestServer) -> String {
    let mut doc: toml_edit::DocumentMut = config.parse().expect("the quick start's toml parses");
    let sources = doc["sources"].as_array_of_tables_mut().unwrap();
    assert!(
        !sources.is_empty(),
        "the quick start's config has no sources"
    );
    for source in sources.iter_mut() {
        let url = match source["kind"].as_str().unwrap() {
            "arxiv" => server.url("/api/query"),
            "arxiv-rss" => server.url("/rss/cs.DC"),
            other => panic!("the test serves no fixture for a source of kind {other}"),
        };
        source["url"] = toml_edit::value(url);
        source["api_url"] = toml_edit::value(server.url("/api/query"));
    }
    doc["fetch"]["delay_seconds"] = toml_edit::value(0.0);
    doc["review"]["html_url"] = toml_edit::value(server.url("/html/{id}v{version}"));
    doc.to_string()
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn every_command_of_the_quick_start_works_on_a_fresh_site() {
    let Some(feeds) = common::fixtures() else {
        return;
    };
    let (commands, config) = chapter();
    assert!(
        commands.len() >= 7 && commands[0].starts_with("paperboy init"),
        "{commands:?}"
    );
    let server = arxiv_server(&feeds);
    let home = tempfile::tempdir().unwrap();
    let mut cwd: PathBuf = home.path().to_path_buf();
    let mut ran = Vec::new();
    for command in &commands {
        let words: Vec<&str> = command.split_whitespace().collect();
        match words.as_slice() {
            ["cd", dir] => {
                cwd = cwd.join(dir);
                assert!(cwd.is_dir(), "`{command}`: no folder {}", cwd.display());
            }
            ["paperboy", "serve"] => {
                let serve = common::start_serve(&cwd);
                let _ = rustls::crypto::ring::default_provider().install_default();
                let page = reqwest::blocking::Client::builder()
                    .timeout(std::time::Duration::from_secs(30))
                    .build()
                    .unwrap()
                    .get(format!("{}/", serve.url))
                    .send()
                    .unwrap();
                assert!(page.status().is_success(), "serve: {}", page.status());
                let home_page = page.text().unwrap();
                assert!(home_page.contains("cs.DC weekly"), "{home_page}");
            }
            ["paperboy", args @ ..] => {
                if args.first() == Some(&"fetch") {
                    // The reader has set paperboy.toml as the chapter shows.
                    std::fs::write(cwd.join("paperboy.toml"), offline(&config, &server)).unwrap();
                }
                let out = Command::new(env!("CARGO_BIN_EXE_paperboy"))
                    .args(args)
                    .current_dir(&cwd)
                    .output()
                    .unwrap();
                eprintln!("$ {command}\n{}", common::stderr(&out));
                assert!(
                    out.status.success(),
                    "`{command}` failed:\n{}",
                    common::stderr(&out)
                );
            }
            _ => panic!("the quick start has `{command}`, which this test cannot run"),
        }
        ran.push(command.clone());
    }
    // What the chapter says each step leaves.
    let site = &cwd;
    let papers = walkdir::WalkDir::new(site.join("content/papers"))
        .into_iter()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "md")
        })
        .count();
    assert!(papers >= 70, "{papers} papers fetched");
    let first = std::fs::read_dir(site.join("content/papers"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let some_paper = walkdir::WalkDir::new(first)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .find(|p| p.is_file())
        .unwrap();
    assert!(
        common::read(&some_paper).contains("[machine]"),
        "review wrote no [machine] table"
    );
    assert!(site.join("public/index.html").is_file());
    assert!(common::read(site.join("public/index.html")).contains("cs.DC weekly"));
    let emails: Vec<_> = std::fs::read_dir(site.join("email")).unwrap().collect();
    assert_eq!(emails.len(), 2, "the week's .html and .txt");
    assert!(
        server
            .requests()
            .iter()
            .any(|r| r.target.starts_with("/rss/"))
    );
    assert_eq!(ran.len(), commands.len());
}
