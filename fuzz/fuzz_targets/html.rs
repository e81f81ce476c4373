//! Any bytes as a paper's HTML rendition: the review's page scan and its choice of figure
//! never panic, and every figure it picks is one the scan found.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paperboy::review::{figure, html};

fuzz_target!(|data: &[u8]| {
    let page = html::scan(data);
    for (fig, image) in figure::candidates(&page) {
        assert!(fig.images.contains(image));
        assert!(!image.src.is_empty() && !image.missing);
    }
});
