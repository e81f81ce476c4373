//! `paperboy serve` in headless Chromium: reload after an edit, the error banner, its
//! removal (tests/browser/serve.mjs); the 404 page it serves, as a static host does, for an
//! address without a page, and the archive for a shortened one (tests/browser/notfound.mjs).

mod common;

/// Runs `script` (in tests/browser/) against `paperboy serve` on a copy of the example
/// site, with `args` after the server's address.
fn node_against_serve(script: &str, args: impl Fn(&std::path::Path) -> Vec<std::path::PathBuf>) {
    common::require_tools(&common::browser_missing());
    let site = common::example_site();
    let served = common::start_serve(site.path());
    let out = std::process::Command::new("node")
        .arg(common::repo().join("tests/browser").join(script))
        .arg(&served.url)
        .args(args(site.path()))
        .output()
        .expect("node runs");
    let report = String::from_utf8_lossy(&out.stdout);
    eprintln!("{report}");
    common::assert_tool_ok(&out, format!("{script} failed:\n{report}"));
}

#[test]
#[ignore = "needs Chromium and tests/browser; scripts/test runs it"]
fn serve_reloads_and_shows_errors_in_a_real_browser() {
    node_against_serve("serve.mjs", |site| {
        vec![
            site.to_path_buf(),
            common::repo().join("target/screenshots"),
        ]
    });
}

#[test]
#[ignore = "needs Chromium and tests/browser; scripts/test runs it"]
fn a_missing_address_finds_what_it_asked_for_and_a_shortened_one_the_archive() {
    node_against_serve("notfound.mjs", |_| {
        vec![common::repo().join("target/screenshots")]
    });
}
