//! `paperboy serve` in headless Chromium: reload after an edit, the error banner, its
//! removal (tests/browser/serve.mjs); the 404 page it serves, as a static host does, for an
//! address without a page (tests/browser/notfound.mjs).

mod common;

#[test]
#[ignore = "needs Chromium and tests/browser; scripts/test runs it"]
fn serve_reloads_and_shows_errors_in_a_real_browser() {
    common::require_tools(&common::browser_missing());
    let site = common::example_site();
    let served = common::start_serve(site.path());
    let out = std::process::Command::new("node")
        .arg(common::repo().join("tests/browser/serve.mjs"))
        .arg(&served.url)
        .arg(site.path())
        .arg(common::repo().join("target/screenshots"))
        .output()
        .expect("node runs");
    let report = String::from_utf8_lossy(&out.stdout);
    eprintln!("{report}");
    common::assert_tool_ok(&out, format!("serve.mjs failed:\n{report}"));
}

#[test]
#[ignore = "needs Chromium and tests/browser; scripts/test runs it"]
fn the_404_page_finds_what_a_missing_address_asked_for() {
    common::require_tools(&common::browser_missing());
    let site = common::example_site();
    let served = common::start_serve(site.path());
    let out = std::process::Command::new("node")
        .arg(common::repo().join("tests/browser/notfound.mjs"))
        .arg(&served.url)
        .arg(common::repo().join("target/screenshots"))
        .output()
        .expect("node runs");
    let report = String::from_utf8_lossy(&out.stdout);
    eprintln!("{report}");
    common::assert_tool_ok(&out, format!("notfound.mjs failed:\n{report}"));
}
