//! The newsletter in a real headless Chromium: tests/browser/email.mjs over the example's
//! busiest week at 600 and 375 px, light and dark.

mod common;

#[test]
#[ignore = "needs Chromium and tests/browser; scripts/test runs it"]
fn the_email_reads_on_a_desktop_and_a_phone_light_and_dark() {
    common::require_tools(&common::browser_missing());
    let site = common::example_site();
    let out = tempfile::tempdir().unwrap();
    common::assert_ok(&common::paperboy(
        site.path(),
        &[
            "email",
            "--week",
            "2025-W34",
            "--out",
            out.path().to_str().unwrap(),
        ],
    ));
    // Every paper the digest lists, as its page's address.
    let digest = common::read(site.path().join("content/digests/2025-W34.md"));
    let front: toml::Table = digest.split("+++").nth(1).unwrap().parse().unwrap();
    let urls: Vec<String> = ["papers", "updated_papers"]
        .iter()
        .flat_map(|k| front[*k].as_array().unwrap().clone())
        .map(|id| {
            format!(
                "https://example.github.io/digest/papers/{}/",
                id.as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(urls.len(), 86);
    std::fs::write(
        out.path().join("expected.json"),
        serde_json::to_string(&urls).unwrap(),
    )
    .unwrap();
    let file_url = format!("file://{}", out.path().join("2025-W34.html").display());
    common::run_browser_script("email.mjs", &file_url);
}
