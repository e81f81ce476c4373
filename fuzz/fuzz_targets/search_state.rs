//! Any bytes as the search state an incremental build reads back from `.cache/`: a damaged
//! or hostile file is no state (None), never a panic or an allocation without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = paperboy::render::search::SearchState::decode(data);
    // The same bytes behind the right magic reach the decoder itself.
    let mut framed = b"pbsearch".to_vec();
    framed.extend_from_slice(data);
    let _ = paperboy::render::search::SearchState::decode(&framed);
});
