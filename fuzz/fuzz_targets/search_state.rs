//! Any bytes as the search state an incremental build reads back from `.cache/`: a damaged
//! or hostile file is no state (None), never a panic or an allocation without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = paperboy::render::search::KeptState::decode(data);
    // The same bytes behind the right magic reach the segment framing, and framed as one
    // segment they reach the decoder itself.
    let mut framed = b"pbsrchs1".to_vec();
    framed.extend_from_slice(data);
    let _ = paperboy::render::search::KeptState::decode(&framed);
    let mut segment = b"pbsrchs1".to_vec();
    segment.extend_from_slice(&(data.len() as u64).to_le_bytes());
    segment.extend_from_slice(data);
    let _ = paperboy::render::search::KeptState::decode(&segment);
});
