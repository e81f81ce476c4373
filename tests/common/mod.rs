//! Shared test helpers: the shared feed fixtures, temporary sites, the real binary, and a
//! small real HTTP server on 127.0.0.1.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A folder of `../shared/fixtures/` (`feeds`, `arxiv_html`). The tests that read them are
/// `#[ignore]`d in a plain `cargo test` and run by `scripts/test`: there a missing folder fails
/// the test under CI (which always has them; `PAPERBOY_NO_SHARED_FIXTURES` says a run
/// has none), and elsewhere is a skip said on stderr.
pub fn shared_fixtures(sub: &str) -> Option<PathBuf> {
    let dir = repo().join("..").join("shared").join("fixtures").join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    let why = format!(
        "{} is missing; this test reads the shared fixtures",
        dir.display()
    );
    // Under CI a missing folder is a failure, unless the run says out loud that it has no
    // fixtures (GitHub's runners, where ../shared does not exist).
    let said = std::env::var_os("PAPERBOY_NO_SHARED_FIXTURES").is_some();
    assert!(std::env::var_os("CI").is_none() || said, "{why}");
    eprintln!("SKIPPED: {why}");
    record_skip(&why);
    None
}

/// Leaves a note that this test checked nothing, for scripts/test's summary: libtest can
/// only count a test that returns as passed, and swallows what a passing test printed.
/// The note is a file per test (tests run side by side) in `PAPERBOY_SKIPPED_DIR`, named
/// after the test binary and the test (libtest names each test's thread after it).
fn record_skip(why: &str) {
    let Some(dir) = std::env::var_os("PAPERBOY_SKIPPED_DIR") else {
        return;
    };
    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_default();
    // Cargo names a test binary `<file>-<hash>`.
    let binary = binary
        .rsplit_once('-')
        .map_or(binary.as_str(), |(name, _)| name);
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("unnamed");
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("PAPERBOY_SKIPPED_DIR can be made");
    let file = dir.join(format!("{binary}::{test}").replace('/', "_"));
    std::fs::write(&file, format!("{binary}::{test}\t{why}\n"))
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", file.display()));
}

/// `../shared/fixtures/feeds`, as `shared_fixtures`.
pub fn fixtures() -> Option<PathBuf> {
    shared_fixtures("feeds")
}

/// What the browser tests need that this machine lacks.
pub fn browser_missing() -> Vec<&'static str> {
    let mut missing = Vec::new();
    if !Path::new("/usr/bin/chromium").exists() {
        missing.push("chromium");
    }
    if !repo()
        .join("tests/browser/node_modules/playwright-core")
        .is_dir()
    {
        missing.push("tests/browser/node_modules (npm ci --prefix tests/browser)");
    }
    missing
}

/// Fails a test that runs without the tools it needs (scripts/test installs them).
pub fn require_tools(missing: &[&str]) {
    assert!(
        missing.is_empty(),
        "missing {missing:?}: scripts/test installs them (a virtualenv under target/, npm ci, apt as root)"
    );
}

/// Returns early from a test when the shared fixtures are missing.
#[macro_export]
macro_rules! need_fixtures {
    () => {
        match common::fixtures() {
            Some(d) => d,
            None => return,
        }
    };
}

pub fn fixture_bytes(dir: &Path, rel: &str) -> Vec<u8> {
    std::fs::read(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

pub fn copy_dir(from: &Path, to: &Path) {
    place_dir(from, to, |from, to| std::fs::copy(from, to).map(drop));
}

/// `cp -al`: the same folders, every file a second name for the same bytes, as
/// hard-linked backups (rsnapshot, `cp -al` rotations) keep a site.
pub fn link_dir(from: &Path, to: &Path) {
    place_dir(from, to, |from, to| std::fs::hard_link(from, to));
}

/// The folders below `from` made again below `to`, and each file put there by `place`.
fn place_dir(from: &Path, to: &Path, place: impl Fn(&Path, &Path) -> std::io::Result<()>) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(from).unwrap();
        let target = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            place(entry.path(), &target)
                .unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
        }
    }
}

/// A fresh site in a temp folder with the default theme and the given config.
pub fn temp_site(config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("themes"), &dir.path().join("themes"));
    std::fs::write(dir.path().join("paperboy.toml"), config).unwrap();
    dir
}

/// The example site of the repo, copied so tests can change it.
pub fn example_site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for part in ["themes", "content"] {
        copy_dir(&repo().join(part), &dir.path().join(part));
    }
    std::fs::copy(
        repo().join("paperboy.toml"),
        dir.path().join("paperboy.toml"),
    )
    .unwrap();
    dir
}

/// A site with one paper whose every feed field is an attack, listed in week 2026-W02.
pub fn hostile_site() -> tempfile::TempDir {
    let site = temp_site(&format!(
        "{BASIC_CONFIG}\n[email]\nfrom = \"Digest <d@example.org>\"\nto = [\"r@example.org\"]\n"
    ));
    let paper = r#"+++
id = "2601.00001"
version = 1
title = "<script>alert('title')</script> {{ site.title }} {% raw %} $\\text{<img src=x onerror=alert(1)>}$"
authors = ["Eve <img src=x onerror=alert(1)>"]
published = 2026-01-05T00:00:00Z
updated = 2026-01-05T00:00:00Z
primary_category = "cs.CR"
categories = ["cs.CR", "\"><script>alert('cat')</script>"]
abstract = "</details><script>alert('abstract')</script> $<script>alert(1)</script>$"
comment = "<b>bold</b>"
journal_ref = ""
doi = ""
source = "arxiv"

[links]
abs = "javascript:alert('abs')"
pdf = "https://arxiv.org/pdf/2601.00001v1"

[review]
headline = "<iframe src=evil>"
summary = ""
badges = ["<i>x</i>"]
figure = "javascript:alert('figure')"
+++
"#;
    std::fs::create_dir_all(site.path().join("content/papers/2601")).unwrap();
    std::fs::write(site.path().join("content/papers/2601/2601.00001.md"), paper).unwrap();
    std::fs::create_dir_all(site.path().join("content/digests")).unwrap();
    std::fs::write(
        site.path().join("content/digests/2026-W02.md"),
        "+++\nweek = \"2026-W02\"\ntitle = \"Week 2, 2026\"\npapers = [\"2601.00001\"]\n+++\n",
    )
    .unwrap();
    site
}

pub const BASIC_CONFIG: &str = r#"title = "Test digest"
description = "Papers for tests"
base_url = "https://example.org/digest"
"#;

/// A site's paper files (`content/papers/**/*.md`), in path order.
pub fn paper_markdown(site: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(site.join("content/papers"))
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    files
}

pub fn paperboy(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_paperboy"))
        .arg("--root")
        .arg(root)
        .args(args)
        .output()
        .expect("the paperboy binary runs")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[track_caller]
pub fn assert_ok(o: &Output) {
    assert!(
        o.status.success(),
        "paperboy failed ({:?}):\nstdout: {}\nstderr: {}",
        o.status.code(),
        stdout(o),
        stderr(o)
    );
}

/// For a tool a test runs beside paperboy (python3, node, openssl): `what` and the tool's
/// stderr are the message.
#[track_caller]
pub fn assert_tool_ok(o: &Output, what: impl std::fmt::Display) {
    assert!(o.status.success(), "{what}: {}", stderr(o));
}

/// Sets how many papers a category page lists (`paginate_by`) in the site's
/// `paperboy.toml`, ahead of its tables.
pub fn set_paginate_by(site: &Path, n: usize) {
    let config = site.join("paperboy.toml");
    std::fs::write(&config, format!("paginate_by = {n}\n{}", read(&config))).unwrap();
}

pub fn read(path: impl AsRef<Path>) -> String {
    let p = path.as_ref();
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Edits a file in place as an editor would: `from` (which must be there) becomes `to`.
pub fn edit(path: impl AsRef<Path>, from: &str, to: &str) {
    let p = path.as_ref();
    let text = read(p);
    assert!(
        text.contains(from),
        "{} has no {from:?} to edit",
        p.display()
    );
    std::fs::write(p, text.replace(from, to)).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
}

/// `path` with the first `from` replaced by `to`, which must be as long: for binary files
/// whose values carry their lengths.
pub fn edit_bytes(path: impl AsRef<Path>, from: &str, to: &str) {
    assert_eq!(from.len(), to.len(), "a same-length edit");
    let p = path.as_ref();
    let mut bytes = std::fs::read(p).unwrap();
    let at = bytes
        .windows(from.len())
        .position(|w| w == from.as_bytes())
        .unwrap_or_else(|| panic!("{} has no {from:?} to edit", p.display()));
    bytes[at..at + to.len()].copy_from_slice(to.as_bytes());
    std::fs::write(p, bytes).unwrap();
}

/// Every file below a folder with its bytes, for comparing whole sites.
pub fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path()
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Asserts that two folders hold the same files with the same bytes, naming the first file
/// that differs (`what` says which two builds they are), and returns the first folder's.
pub fn assert_same_tree(a: &Path, b: &Path, what: &str) -> Vec<(String, Vec<u8>)> {
    let (ta, tb) = (tree(a), tree(b));
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&ta), names(&tb), "{what}: not the same files");
    for ((name, x), (_, y)) in ta.iter().zip(&tb) {
        assert!(x == y, "{name} differs between {what}");
    }
    ta
}

// ---- A real HTTP server on 127.0.0.1 ----

#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// Path with query.
    pub target: String,
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
    /// When the server had read it.
    pub at: std::time::Instant,
}

impl Request {
    pub fn query(&self, key: &str) -> Option<String> {
        let q = self.target.split_once('?')?.1;
        q.split('&').find_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            (k == key).then(|| v.to_string())
        })
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }
}

pub enum Reply {
    /// Status, extra headers, body.
    Full(u16, Vec<(String, String)>, Vec<u8>),
    /// Announces `Content-Length: claimed` but sends only `body`, then closes.
    CutOff { claimed: usize, body: Vec<u8> },
    /// Waits before answering.
    Slow(Duration, Box<Reply>),
}

pub fn ok_xml(body: Vec<u8>) -> Reply {
    Reply::Full(
        200,
        vec![("Content-Type".into(), "application/atom+xml".into())],
        body,
    )
}

type Handler = dyn Fn(&Request, usize) -> Reply + Send + Sync;

pub struct TestServer {
    pub addr: String,
    pub requests: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// Starts a server; `handler` gets each request and its 0-based number.
    pub fn start(handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let (reqs, stop2) = (requests.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let (reqs, handler) = (reqs.clone(), handler.clone());
                std::thread::spawn(move || serve(stream, &reqs, &*handler));
            }
        });
        TestServer {
            addr,
            requests,
            stop,
            thread: Some(thread),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.addr, path)
    }

    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr.trim_start_matches("http://"));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(mut stream: TcpStream, reqs: &Mutex<Vec<Request>>, handler: &Handler) {
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
        if buf.len() > 64 * 1024 {
            return;
        }
    }
    let head_end = buf.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(0) + 4;
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let method = first.next().unwrap_or("").to_string();
    let target = first.next().unwrap_or("").to_string();
    let headers = lines
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse().ok())?
        })
        .unwrap_or(0)
        .min(16 * 1024 * 1024);
    let mut body = buf[head_end..].to_vec();
    while body.len() < length {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => body.extend_from_slice(&chunk[..n]),
        }
    }
    let req = Request {
        method,
        target,
        headers,
        body,
        at: std::time::Instant::now(),
    };
    let n = {
        let mut r = reqs.lock().unwrap();
        r.push(req.clone());
        r.len() - 1
    };
    let mut reply = handler(&req, n);
    while let Reply::Slow(wait, inner) = reply {
        std::thread::sleep(wait);
        reply = *inner;
    }
    let _ = match reply {
        Reply::Full(status, headers, body) => {
            let mut out = format!(
                "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            for (k, v) in headers {
                out.push_str(&format!("{k}: {v}\r\n"));
            }
            out.push_str("\r\n");
            stream
                .write_all(out.as_bytes())
                .and_then(|_| stream.write_all(&body))
        }
        Reply::CutOff { claimed, body } => {
            let out = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {claimed}\r\nConnection: close\r\n\r\n"
            );
            stream
                .write_all(out.as_bytes())
                .and_then(|_| stream.write_all(&body))
        }
        Reply::Slow(..) => unreachable!(),
    };
    let _ = stream.flush();
}

/// Dates every content file an hour back, as files written by last week's fetch are.
pub fn age_content(site: &Path) {
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for entry in walkdir::WalkDir::new(site.join("content")) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            std::fs::File::options()
                .write(true)
                .open(entry.path())
                .unwrap()
                .set_modified(an_hour_ago)
                .unwrap();
        }
    }
}

// ---- A built site served to a real browser ----

/// A static file server (Python's) for a built site, stopped when dropped.
pub struct StaticServer {
    child: std::process::Child,
    pub base: String,
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Builds `site` for a server on a free port of 127.0.0.1 and serves it.
pub fn build_and_serve(site: &Path) -> StaticServer {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}/");
    let out = site.join("served");
    assert_ok(&paperboy(
        site,
        &[
            "build",
            "--base-url",
            &base,
            "--output",
            out.to_str().unwrap(),
        ],
    ));
    let child = Command::new("python3")
        .args([
            "-m",
            "http.server",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--directory",
        ])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed().as_secs() < 15,
            "the static server did not start"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    StaticServer { child, base }
}

/// Runs a script of tests/browser/ against a served site; its report is the failure message.
pub fn run_browser_script(script: &str, base: &str) {
    let shots = repo().join("target/screenshots");
    let out = Command::new("node")
        .arg(repo().join("tests/browser").join(script))
        .arg(base)
        .arg(&shots)
        .output()
        .expect("node runs (tests/browser needs `npm ci --prefix tests/browser`)");
    let report = String::from_utf8_lossy(&out.stdout);
    eprintln!("{report}");
    assert_tool_ok(&out, format!("{script} failed:\n{report}"));
}

pub struct Serve {
    child: std::process::Child,
    pub url: String,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `paperboy serve --port 0` on the site at `root`, once it says where it serves.
pub fn start_serve(root: &std::path::Path) -> Serve {
    let mut child = Command::new(env!("CARGO_BIN_EXE_paperboy"))
        .arg("--root")
        .arg(root)
        .args(["serve", "--port", "0"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut url = None;
    for _ in 0..20 {
        let mut line = String::new();
        if std::io::BufRead::read_line(&mut reader, &mut line).unwrap() == 0 {
            break;
        }
        if let Some(rest) = line.strip_prefix("serving ") {
            url = Some(
                rest.split_whitespace()
                    .next()
                    .unwrap()
                    .trim_end_matches('/')
                    .to_string(),
            );
            break;
        }
    }
    // Keep draining stderr so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in std::io::BufRead::lines(reader) {});
    Serve {
        child,
        url: url.expect("serve printed its address"),
    }
}

/// The ids a digest lists (`papers` and `updated_papers`).
pub fn ids_in(digest: &Path) -> Vec<String> {
    let text = read(digest);
    let list = |key: &str| -> Vec<String> {
        let Some(start) = text.find(&format!("{key} = [")) else {
            return Vec::new();
        };
        let rest = &text[start..];
        let end = rest.find(']').unwrap();
        rest[..end]
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let mut ids = list("papers");
    ids.extend(list("updated_papers"));
    ids
}

/// Paper id -> its file, read from the files themselves (`id = "…"`).
pub fn paper_files(content: &Path) -> std::collections::HashMap<String, PathBuf> {
    walkdir::WalkDir::new(content.join("papers"))
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let text = read(e.path());
            let id = text
                .lines()
                .find_map(|l| l.strip_prefix("id = \"")?.strip_suffix('"'))?
                .to_string();
            Some((id, e.path().to_path_buf()))
        })
        .collect()
}

/// Moves the newest `n` weeks (digests and the papers only they list) out of the site and
/// returns (where each is now, where it was) pairs for putting back.
pub fn hold_back_weeks(site: &Path, aside: &Path, n: usize) -> Vec<(PathBuf, PathBuf)> {
    let content = site.join("content");
    let mut digests: Vec<PathBuf> = std::fs::read_dir(content.join("digests"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    digests.sort();
    let (kept_weeks, newest) = digests.split_at(digests.len() - n);
    let still_listed: std::collections::HashSet<String> =
        kept_weeks.iter().flat_map(|d| ids_in(d)).collect();
    let files = paper_files(&content);
    let mut moved = Vec::new();
    for d in newest {
        for id in ids_in(d) {
            if !still_listed.contains(&id) {
                moved.push(files[&id].clone());
            }
        }
        moved.push(d.clone());
    }
    moved.sort();
    moved.dedup();
    moved
        .into_iter()
        .enumerate()
        .map(|(i, from)| {
            let to = aside.join(format!("{i}.md"));
            std::fs::rename(&from, &to).unwrap();
            (to, from)
        })
        .collect()
}
