//! Any text as a paper or digest file, and as the merge of a paper update into it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paperboy::store::frontmatter::{self, DigestFront, PaperFront};
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let path = Path::new("fuzz.md");
    let Ok(split) = frontmatter::split(text, path) else { return };
    if let Ok(front) = frontmatter::parse::<PaperFront>(&split, path) {
        // A stored paper that parses must take an update without losing its body.
        let mut paper = front.to_paper();
        paper.version += 1;
        if let Ok(updated) = paperboy::store::papers::render_update(text, &paper, path) {
            assert!(updated.ends_with(split.body), "the body was changed");
        }
    }
    let _ = frontmatter::parse::<DigestFront>(&split, path);
    let _ = paperboy::store::digests::render(Some(text), paperboy::paper::Week::parse("2026-W09").unwrap(), &["2602.00001".into()], &[], path);
});
