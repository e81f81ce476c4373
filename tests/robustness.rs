//! Bad networks, killed runs, two runs at once, hostile text everywhere, ids that try to
//! leave the site.

mod common;

use common::{
    Reply, TestServer, assert_ok, example_site, ok_xml, paperboy, read, stderr, temp_site, tree,
};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn fetch_config(sources: &str, fetch: &str) -> String {
    format!(
        "{}\n{sources}\n[fetch]\ndelay_seconds = 0\nretries = 1\ntimeout_seconds = 2\n{fetch}\n",
        common::BASIC_CONFIG
    )
}

fn feed_source(name: &str, url: &str) -> String {
    format!("[[sources]]\nkind = \"feed\"\nname = \"{name}\"\nurl = \"{url}\"\n\n")
}

fn count_papers(root: &Path) -> usize {
    walkdir::WalkDir::new(root.join("content/papers"))
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md"))
        .count()
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn each_broken_source_fails_alone_and_keeps_its_last_good_papers() {
    let dir = need_fixtures!();
    let good = common::fixture_bytes(
        &dir,
        "general/nature_subject_bioinformatics_2025-03-19_atom.xml",
    );
    let oup = common::fixture_bytes(
        &dir,
        "general/oup_bioinformatics_openaccess_2025-03-22_rss2.xml",
    );
    let html = common::fixture_bytes(
        &dir,
        "malformed/real_html_document_moved_instead_of_feed.xml",
    );
    let broken = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = broken.clone();
    let server = TestServer::start(move |req, _| match req.target.as_str() {
        "/good" => ok_xml(good.clone()),
        "/oup" if !flag.load(std::sync::atomic::Ordering::SeqCst) => ok_xml(oup.clone()),
        "/oup" => Reply::Full(500, vec![], b"oops".to_vec()),
        "/html" => Reply::Full(
            200,
            vec![("Content-Type".into(), "text/html".into())],
            html.clone(),
        ),
        "/loop" => Reply::Full(302, vec![("Location".into(), "/loop".into())], vec![]),
        "/huge" => ok_xml(vec![b' '; 40_000]),
        _ => Reply::Full(404, vec![], vec![]),
    });
    let refused = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/feed", l.local_addr().unwrap())
    };
    let sources = [
        feed_source("Good", &server.url("/good")),
        feed_source("OUP", &server.url("/oup")),
        feed_source("HTML page", &server.url("/html")),
        feed_source("Redirect loop", &server.url("/loop")),
        feed_source("Too big", &server.url("/huge")),
        feed_source("Refused", &refused),
    ]
    .concat();
    let site = temp_site(&fetch_config(&sources, "max_body_bytes = 32768"));
    let out = paperboy(site.path(), &["fetch"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    for (name, why) in [
        ("HTML page", "not a feed"),
        ("Redirect loop", "redirect"),
        ("Too big", "larger than max_body_bytes"),
        ("Refused", "cannot connect"),
    ] {
        let line = err
            .lines()
            .find(|l| l.starts_with(&format!("error: {name}:")))
            .unwrap_or_else(|| panic!("{name}: {err}"));
        assert!(line.contains(why), "{line}");
        assert!(
            line.contains("http://127.0.0.1:"),
            "the URL is named: {line}"
        );
    }
    assert!(
        err.contains("6 sources:") && err.contains("4 failed"),
        "{err}"
    );
    assert_eq!(
        count_papers(site.path()),
        34,
        "Nature's 30 and OUP's 4 landed"
    );

    // Next week OUP breaks: its papers stay.
    broken.store(true, std::sync::atomic::Ordering::SeqCst);
    let again = paperboy(site.path(), &["fetch"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("error: OUP:") && stderr(&again).contains("HTTP 500"));
    assert_eq!(count_papers(site.path()), 34);
    assert_ok(&paperboy(site.path(), &["build"]));
}

#[test]
fn a_second_run_on_the_same_site_refuses_with_a_clear_message() {
    let site = example_site();
    let held = paperboy::lock::acquire(site.path(), "a test").unwrap();
    let out = paperboy(site.path(), &["build"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("another paperboy is working on this site") && err.contains("a test"),
        "{err}"
    );
    assert!(!site.path().join("public").exists());
    drop(held);
    assert_ok(&paperboy(site.path(), &["build"]));
}

/// A small deterministic generator, so a failing run can be repeated from its seed.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound
    }
}

fn seed() -> u64 {
    let s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("seed {s}");
    s
}

fn kill_after(root: &Path, args: &[&str], delay: Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_paperboy"))
        .arg("--root")
        .arg(root)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    // SIGKILL: no destructor, no cleanup.
    let _ = child.kill();
    let _ = child.wait();
}

/// Python: every content file's TOML front matter parses, and every paper a digest lists
/// has its file. Temporary files (dot-named) are not content.
const WHOLE_FILES: &str = r#"
import pathlib, sys, tomllib
root = pathlib.Path(sys.argv[1])
ids = set()
digests = []
for f in root.rglob("*.md"):
    if f.name.startswith("."):
        continue
    text = f.read_text()
    assert text.startswith("+++\n"), f
    front = tomllib.loads(text[4:text.index("\n+++\n", 3)])
    if "week" in front:
        digests.append((f, front))
    else:
        ids.add(front["id"])
for f, d in digests:
    for p in d.get("papers", []) + d.get("updated_papers", []):
        assert p in ids, f"{f} lists {p}, which has no file"
"#;

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn killing_fetch_at_any_moment_leaves_every_file_whole() {
    let dir = need_fixtures!();
    let site = temp_site(common::BASIC_CONFIG);
    let mut rng = Lcg(seed());
    let feeds = dir.join("arxiv_rss");
    for round in 0..12 {
        kill_after(
            site.path(),
            &["fetch", "--from", feeds.to_str().unwrap()],
            Duration::from_millis(rng.next(400)),
        );
        // Every file there parses (Python's tomllib reads each front matter, not our
        // loader) and every digest names papers that exist.
        let check = Command::new("python3")
            .args(["-c", WHOLE_FILES])
            .arg(site.path().join("content"))
            .output()
            .unwrap();
        common::assert_tool_ok(&check, format!("round {round}"));
    }
    // A full run afterwards gives what a clean run gives.
    assert_ok(&paperboy(
        site.path(),
        &["fetch", "--from", feeds.to_str().unwrap()],
    ));
    let clean = temp_site(common::BASIC_CONFIG);
    assert_ok(&paperboy(
        clean.path(),
        &["fetch", "--from", feeds.to_str().unwrap()],
    ));
    let visible = |root: &Path| -> Vec<(String, Vec<u8>)> {
        tree(&root.join("content"))
            .into_iter()
            .filter(|(p, _)| !p.rsplit('/').next().unwrap().starts_with('.'))
            .collect()
    };
    assert!(
        visible(site.path()) == visible(clean.path()),
        "killed-then-finished differs from a clean run"
    );
}

#[test]
fn killing_build_at_any_moment_leaves_the_old_or_the_new_site() {
    let site = example_site();
    let digest = site.path().join("content/digests/2025-W34.md");
    let a = read(&digest);
    let b = a.replace("The week the cs.AI", "Changed: the week the cs.AI");
    let scratch = tempfile::tempdir().unwrap();
    let build_tree = |text: &str, name: &str| {
        std::fs::write(&digest, text).unwrap();
        let out = scratch.path().join(name);
        assert_ok(&paperboy(
            site.path(),
            &["build", "--output", out.to_str().unwrap()],
        ));
        tree(&out)
    };
    let (tree_a, tree_b) = (build_tree(&a, "a"), build_tree(&b, "b"));
    assert!(tree_a != tree_b);
    std::fs::write(&digest, &a).unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    // Builds like those below, the week changed and changed back, leave a standby (with its
    // manifest) beside public/, as on a live site. The fastest bounds the kill delays below:
    // a disk busy with other writes can hold one build's fsync for a second, and a bound
    // that long would let every build below finish before its kill.
    let build_ms = [&b, &a, &b, &a]
        .iter()
        .map(|text| {
            std::fs::write(&digest, text).unwrap();
            let started = std::time::Instant::now();
            assert_ok(&paperboy(site.path(), &["build"]));
            started.elapsed().as_millis() as u64
        })
        .min()
        .unwrap();
    let public = site.path().join("public");
    let standby_manifest = site.path().join(".public.standby.manifest");
    let staging = |root: &Path| {
        std::fs::read_dir(root).unwrap().flatten().any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(".public.building-")
        })
    };
    let mut rng = Lcg(seed());
    let (mut finished, mut mid_write) = (0, 0);
    let mut before = tree_a.clone();
    for round in 0..16 {
        let text = if round % 2 == 0 { &b } else { &a };
        std::fs::write(&digest, text).unwrap();
        // The write phase has begun when the build takes the standby's manifest (it then
        // writes into the standby) or, with no trusted standby, makes a staging folder.
        let had_standby = standby_manifest.exists();
        let mut child = Command::new(env!("CARGO_BIN_EXE_paperboy"))
            .arg("--root")
            .arg(site.path())
            .arg("build")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let waiting = std::time::Instant::now();
        while if had_standby {
            standby_manifest.exists()
        } else {
            !staging(site.path())
        } {
            if child.try_wait().unwrap().is_some() || waiting.elapsed() > Duration::from_secs(60) {
                break;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        // An incremental build writes few files once its write phase begins: a short delay
        // keeps the kill inside it, at a different point each round.
        std::thread::sleep(Duration::from_micros(rng.next(build_ms * 100 + 1)));
        let running = child.try_wait().unwrap().is_none();
        let _ = child.kill();
        let status = child.wait().unwrap();
        // Killed, not finished a moment before the signal.
        use std::os::unix::process::ExitStatusExt;
        mid_write += usize::from(running && status.signal() == Some(9));
        let now = tree(&public);
        assert!(
            now == tree_a || now == tree_b,
            "round {round}: public/ is neither the old nor the new site"
        );
        finished += usize::from(now != before);
        before = now;
    }
    eprintln!(
        "{mid_write} of 16 builds killed in their write phase, {finished} finished (builds take {build_ms} ms)"
    );
    assert!(
        mid_write >= 12,
        "only {mid_write} of 16 kills landed while the build was writing"
    );
    // Staging folders of killed builds are cleared by the next build, which gives the site
    // of the text as it now is (round 15 wrote the old one back, so change it once more).
    std::fs::write(&digest, &b).unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(
        tree(&public) == tree_b,
        "the build after the kills is not the new site"
    );
    let leftovers: Vec<String> = std::fs::read_dir(site.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".building-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn hostile_text_is_inert_in_email_and_sitemap() {
    let site = common::hostile_site();
    let out = tempfile::tempdir().unwrap();
    assert_ok(&paperboy(
        site.path(),
        &[
            "email",
            "--week",
            "2026-W02",
            "--out",
            out.path().to_str().unwrap(),
        ],
    ));
    let html = read(out.path().join("2026-W02.html"));
    assert!(
        !html.contains("<script") && !html.contains("<iframe") && !html.contains("<img"),
        "{html}"
    );
    assert!(!html.contains("javascript:"));
    assert!(html.contains("&lt;script&gt;alert("));
    let text = read(out.path().join("2026-W02.txt"));
    assert!(
        text.contains("<script>alert('title')</script>"),
        "plain text keeps the words as words"
    );
    assert_ok(&paperboy(site.path(), &["build"]));
    let sitemap = read(site.path().join("public/sitemap.xml"));
    assert!(!sitemap.contains("<script") && !sitemap.contains("javascript:"));
    for loc in sitemap.split("<loc>").skip(1) {
        let url = &loc[..loc.find("</loc>").unwrap()];
        assert!(url.starts_with("https://example.org/digest/"), "{url}");
        assert!(!url.contains(".."), "{url}");
    }
}

#[test]
fn ids_and_weeks_that_would_leave_the_site_are_refused() {
    // A content file whose id would escape public/.
    let site = temp_site(common::BASIC_CONFIG);
    let papers = site.path().join("content/papers/x");
    std::fs::create_dir_all(&papers).unwrap();
    std::fs::write(
        papers.join("evil.md"),
        "+++\nid = \"../../../tmp/evil\"\ntitle = \"t\"\npublished = 2026-01-01T00:00:00Z\nupdated = 2026-01-01T00:00:00Z\n+++\n",
    )
    .unwrap();
    let out = paperboy(site.path(), &["build"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("evil.md:2:") && stderr(&out).contains("not a paper id"),
        "{}",
        stderr(&out)
    );

    // A digest whose week names a path.
    let site = temp_site(common::BASIC_CONFIG);
    std::fs::create_dir_all(site.path().join("content/digests")).unwrap();
    std::fs::write(
        site.path().join("content/digests/2026-W02.md"),
        "+++\nweek = \"../../2026-W02\"\n+++\n",
    )
    .unwrap();
    let out = paperboy(site.path(), &["build"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("2026-W02.md") && stderr(&out).contains("not an ISO week"),
        "{}",
        stderr(&out)
    );
    // Refused as a usage error before anything is read.
    let out = paperboy(site.path(), &["email", "--week", "../../etc"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!site.path().join("email").exists());

    // A feed whose entries carry such ids writes nothing anywhere.
    let site = temp_site(common::BASIC_CONFIG);
    let feed = site.path().join("evil.xml");
    std::fs::write(
        &feed,
        r#"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <opensearch:totalResults>2</opensearch:totalResults>
  <entry><id>http://arxiv.org/abs/../../../etc/passwd</id><title>x</title><published>2026-01-01T00:00:00Z</published></entry>
  <entry><id>http://arxiv.org/abs//tmp/evil</id><title>y</title><published>2026-01-01T00:00:00Z</published></entry>
</feed>"#,
    )
    .unwrap();
    let out = paperboy(
        site.path(),
        &["-v", "fetch", "--from", feed.to_str().unwrap()],
    );
    assert_ok(&out);
    assert!(
        stderr(&out).contains("warning: ") && stderr(&out).contains("not an arXiv id"),
        "{}",
        stderr(&out)
    );
    assert!(!site.path().join("content").exists());
    assert!(!Path::new("/tmp/evil.md").exists() && !Path::new("/etc/passwd.md").exists());
}

#[test]
fn a_paper_in_two_files_or_a_digest_naming_a_missing_paper_is_an_error_naming_the_files() {
    let paper = |id: &str| {
        format!(
            "+++\nid = \"{id}\"\ntitle = \"t\"\npublished = 2026-01-05T00:00:00Z\nupdated = 2026-01-05T00:00:00Z\n+++\n"
        )
    };
    let site = temp_site(common::BASIC_CONFIG);
    let papers = site.path().join("content/papers/2601");
    std::fs::create_dir_all(&papers).unwrap();
    std::fs::write(papers.join("2601.00001.md"), paper("2601.00001")).unwrap();
    std::fs::write(papers.join("copy.md"), paper("2601.00001")).unwrap();
    let out = paperboy(site.path(), &["build"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("paper 2601.00001 is also in")
            && err.contains("2601.00001.md")
            && err.contains("copy.md"),
        "{err}"
    );
    assert!(!site.path().join("public").exists(), "nothing published");

    std::fs::remove_file(papers.join("copy.md")).unwrap();
    std::fs::create_dir_all(site.path().join("content/digests")).unwrap();
    std::fs::write(
        site.path().join("content/digests/2026-W02.md"),
        "+++\nweek = \"2026-W02\"\npapers = [\"2601.00001\", \"2601.09999\"]\n+++\n",
    )
    .unwrap();
    let out = paperboy(site.path(), &["build"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("2026-W02.md")
            && err.contains("key `papers`")
            && err.contains("\"2601.09999\" has no file"),
        "{err}"
    );

    // Listed by its id, the paper is found.
    common::edit(
        site.path().join("content/digests/2026-W02.md"),
        ", \"2601.09999\"",
        "",
    );
    assert_ok(&paperboy(site.path(), &["build"]));
    let digest = common::read(site.path().join("public/digests/2026-W02/index.html"));
    assert!(digest.contains("papers/2601.00001/"), "{digest}");
}
