//! "For you" in a real headless Chromium: tests/browser/foryou.mjs over the example site
//! (save, reload, Saved page, JSON and BibTeX export, import, the For you page, a week sorted
//! for the reader, a corrupt saved value, 1,000 saved papers, nothing without JavaScript).

mod common;

#[test]
fn for_you_in_a_real_browser() {
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
    common::run_browser_script("foryou.mjs", &server.base);
}
