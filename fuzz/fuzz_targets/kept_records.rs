//! Any bytes as a kept-records file (`.cache/related-terms.bin`, `lines.bin`) that an
//! incremental build reads back: a damaged or hostile file is no file or missing records,
//! never a panic or an allocation without bound. The checks are xxh3 sums a fuzzer cannot
//! forge, so the bytes are also sealed: taken as records and an index of 36-byte entries,
//! with the index's and each record's sums made to match, so that any offsets and lengths
//! reach the reader.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paperboy::kept::{KeptRecords, header};
use xxhash_rust::xxh3::xxh3_64;

const MAGIC: &[u8; 8] = b"pbfuzz01";

fn read_back(path: &std::path::Path, bytes: &[u8], keys: &[u128]) {
    std::fs::write(path, bytes).unwrap();
    if let Some(kept) = KeptRecords::open(path, MAGIC) {
        let got = kept.get(keys, |r, _| Some(r.len()));
        assert_eq!(got.len(), keys.len());
    }
}

fuzz_target!(|data: &[u8]| {
    let path = std::env::temp_dir().join(format!("kept-records-{}.bin", std::process::id()));
    let head = header(MAGIC);
    let mut plain = head.clone();
    plain.extend_from_slice(data);
    read_back(&path, &plain, &[0, 1]);

    // Sealed: the last whole 36-byte entries of `data` (at most a quarter of it) are the
    // index, the rest records.
    let entries = (data.len() / 4) / 36;
    let index_at = head.len() + data.len() - entries * 36;
    let mut sealed = plain;
    let mut keys = Vec::new();
    for e in 0..entries {
        let at = index_at + e * 36;
        keys.push(u128::from_le_bytes(sealed[at..at + 16].try_into().unwrap()));
        let offset = u64::from_le_bytes(sealed[at + 16..at + 24].try_into().unwrap());
        let len = u32::from_le_bytes(sealed[at + 24..at + 28].try_into().unwrap());
        let end = offset.saturating_add(u64::from(len));
        if end <= index_at as u64 {
            let check = xxh3_64(&sealed[offset as usize..end as usize]);
            sealed[at + 28..at + 36].copy_from_slice(&check.to_le_bytes());
        }
    }
    let check = xxh3_64(&sealed[index_at..]);
    sealed.extend((index_at as u64).to_le_bytes());
    sealed.extend((entries as u64).to_le_bytes());
    sealed.extend(check.to_le_bytes());
    keys.push(7);
    read_back(&path, &sealed, &keys);
    let _ = std::fs::remove_file(&path);
});
