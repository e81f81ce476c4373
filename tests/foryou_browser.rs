//! "For you" in a real headless Chromium: tests/browser/foryou.mjs over the example site
//! (save, reload, Saved page, JSON and BibTeX export, import, the For you page, a week sorted
//! for the reader, a corrupt saved value, 1,000 saved papers, nothing without JavaScript).

mod common;

#[test]
#[ignore = "needs Chromium and tests/browser; scripts/test runs it"]
fn for_you_in_a_real_browser() {
    common::require_tools(&common::browser_missing());
    let site = common::example_site();
    let server = common::build_and_serve(site.path());
    common::run_browser_script("foryou.mjs", &server.base);
}
