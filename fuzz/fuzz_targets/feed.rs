//! Any bytes through the feed reader and every format's parser: errors are fine, panics
//! are not. The bytes are read into a tree once and the tree given to each parser.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paperboy::config::SourceKind;
use paperboy::sources::{ParseContext, parse_document, xml};

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = xml::parse(data) else { return };
    let now = chrono::DateTime::UNIX_EPOCH;
    for kind in [None, Some(SourceKind::Arxiv), Some(SourceKind::ArxivRss), Some(SourceKind::Feed)] {
        let mut ctx = ParseContext::new("fuzz", now);
        let _ = parse_document(&doc, kind, &mut ctx);
    }
});
