//! The reader's digest in a real headless Chromium: tests/browser/reader.mjs over the
//! example site (home, a week's overview and groups, cards, columns, category pages, the
//! favicon, no script but the reader's own).

mod common;

#[test]
#[ignore = "needs Chromium and tests/browser; scripts/test runs it"]
fn the_reader_s_digest_in_a_real_browser() {
    common::require_tools(&common::browser_missing());
    let site = common::example_site();
    let server = common::build_and_serve(site.path());
    common::run_browser_script("reader.mjs", &server.base);
}
