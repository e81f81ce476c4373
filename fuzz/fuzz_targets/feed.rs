//! Any bytes through the feed reader and every format's parser (OAI-PMH and the
//! metadata snapshot's JSON lines among them): errors are fine, panics
//! are not. The bytes are read into a tree once and the tree given to each parser.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paperboy::config::SourceKind;
use paperboy::sources::{ParseContext, parse_document, xml};

fuzz_target!(|data: &[u8]| {
    if let Ok(line) = std::str::from_utf8(data) {
        let _ = paperboy::sources::arxiv_snapshot::parse_line(line);
    }
    let Ok(doc) = xml::parse(data) else { return };
    let _ = paperboy::sources::arxiv_oai::parse_document(&doc);
    let now = chrono::DateTime::UNIX_EPOCH;
    for kind in [None, Some(SourceKind::Arxiv), Some(SourceKind::ArxivRss), Some(SourceKind::Feed)] {
        let mut ctx = ParseContext::new("fuzz", now);
        let _ = parse_document(&doc, kind, &mut ctx);
    }
});
