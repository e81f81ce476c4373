//! The reader's digest in a real headless Chromium: tests/browser/reader.mjs over the
//! example site (home, a week's overview and groups, cards, columns, category pages, the
//! favicon, no script but the reader's own).

mod common;

#[test]
fn the_reader_s_digest_in_a_real_browser() {
    if !std::path::Path::new("/usr/bin/chromium").exists()
        || !common::repo()
            .join("tests/browser/node_modules/playwright-core")
            .is_dir()
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have chromium and tests/browser/node_modules"
        );
        eprintln!("SKIPPED: chromium or tests/browser/node_modules is missing");
        return;
    }
    let site = common::example_site();
    let server = common::build_and_serve(site.path());
    common::run_browser_script("reader.mjs", &server.base);
}
