use super::*;

const MAGIC: &[u8; 8] = b"pbtest01";

/// A record of some hundred bytes, different for each key.
fn record(key: Fingerprint) -> Vec<u8> {
    format!("record {key} ").repeat(10).into_bytes()
}

/// Saves the records of `keys` the way a build does: makes those `kept` lacks.
fn saved(path: &Path, keys: &[Fingerprint], kept: Option<&KeptRecords>) -> usize {
    let writer = RecordWriter::new(path, MAGIC, kept, keys).unwrap();
    let mut made = 0;
    for &k in keys {
        if !kept.is_some_and(|kept| kept.holds(k)) {
            writer.put(k, &record(k));
            made += 1;
        }
    }
    writer.finish();
    made
}

fn all(path: &Path, keys: &[Fingerprint]) -> Vec<Option<Vec<u8>>> {
    KeptRecords::open(path, MAGIC)
        .unwrap()
        .get(keys, |b, _| Some(b.to_vec()))
}

#[test]
fn new_records_are_appended_until_the_dead_outweigh_the_live_then_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("records.bin");
    let keys: Vec<Fingerprint> = (0..100).map(|i| i as u128 + 7).collect();
    assert!(KeptRecords::open(&path, MAGIC).is_none());
    assert_eq!(saved(&path, &keys[..90], None), 90);
    let first = std::fs::read(&path).unwrap();

    // Ten new keys: only they are made, the file grows, and what it held is as it was.
    let kept = KeptRecords::open(&path, MAGIC).unwrap();
    assert_eq!(saved(&path, &keys, Some(&kept)), 10);
    let appended = std::fs::read(&path).unwrap();
    assert!(appended.len() > first.len());
    assert_eq!(appended[..first.len()], first[..]);
    let expected: Vec<Option<Vec<u8>>> = keys.iter().map(|&k| Some(record(k))).collect();
    assert_eq!(all(&path, &keys), expected);
    assert_eq!(KeptRecords::open(&path, MAGIC).unwrap().count(), 100);

    // Most keys gone: the file is written again, holding only the live records, which
    // were carried over, not made again.
    let kept = KeptRecords::open(&path, MAGIC).unwrap();
    assert_eq!(saved(&path, &keys[90..], Some(&kept)), 0);
    let rewritten = std::fs::read(&path).unwrap();
    assert!(rewritten.len() < first.len() / 2);
    let cache = KeptRecords::open(&path, MAGIC).unwrap();
    assert_eq!(cache.count(), 10);
    assert_eq!(all(&path, &keys[90..]), expected[90..]);
    assert_eq!(all(&path, &keys[..1]), [None]);
    let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary file is left behind");
}

#[test]
fn a_build_that_changes_nothing_leaves_the_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("records.bin");
    let keys: Vec<Fingerprint> = (0..20).collect();
    saved(&path, &keys, None);
    let before = std::fs::read(&path).unwrap();
    let kept = KeptRecords::open(&path, MAGIC).unwrap();
    assert_eq!(saved(&path, &keys, Some(&kept)), 0);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_damaged_record_is_missing_and_a_cut_short_append_or_another_kind_is_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("records.bin");
    let keys: Vec<Fingerprint> = (0..50).collect();
    saved(&path, &keys, None);
    let good = std::fs::read(&path).unwrap();

    let head = header(MAGIC).len();
    let mut damaged = good.clone();
    damaged[head + 3] ^= 1;
    std::fs::write(&path, &damaged).unwrap();
    let got = all(&path, &keys);
    assert_eq!(got[0], None);
    assert_eq!(got[1], Some(record(1)));
    // Written whole again (two keys of the fifty left), the damaged record is not
    // carried over and the whole one is.
    let kept = KeptRecords::open(&path, MAGIC).unwrap();
    assert_eq!(saved(&path, &keys[..2], Some(&kept)), 0);
    let next = KeptRecords::open(&path, MAGIC).unwrap();
    assert_eq!(
        (next.holds(0), next.holds(1), next.count()),
        (false, true, 1)
    );

    std::fs::write(&path, [&good[..], &good[head..head + 40]].concat()).unwrap();
    assert!(KeptRecords::open(&path, MAGIC).is_none());
    std::fs::write(&path, &good).unwrap();
    assert!(KeptRecords::open(&path, b"pbother1").is_none());
    assert!(KeptRecords::open(&path, MAGIC).is_some());

    // An index entry whose record would end past the end of numbers (its sums made to
    // match, as the fuzz target does): no file, rather than an overflow.
    let footer = good.len() - FOOTER as usize;
    let index = u64::from_le_bytes(good[footer..footer + 8].try_into().unwrap()) as usize;
    let mut hostile = good.clone();
    hostile[index + 16..index + 24].copy_from_slice(&(u64::MAX - 3).to_le_bytes());
    let check = xxh3_64(&hostile[index..footer]);
    hostile[footer + 16..].copy_from_slice(&check.to_le_bytes());
    std::fs::write(&path, &hostile).unwrap();
    assert!(KeptRecords::open(&path, MAGIC).is_none());
}

#[test]
fn records_come_back_in_the_order_asked_whatever_their_order_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("records.bin");
    // Written in a scattered order, as lines are (in the order pages render them), big
    // enough for several blocks: 3,000 records of 20 KB are 60 MB.
    let written: Vec<Fingerprint> = (0..3000u128).map(|i| (i * 1747) % 3000).collect();
    let big = |k: Fingerprint| format!("{k:>20}").repeat(1000).into_bytes();
    let writer = RecordWriter::new(&path, MAGIC, None, &written).unwrap();
    for &k in &written {
        writer.put(k, &big(k));
    }
    writer.finish();
    // Asked in key order, every third one only (gaps wider than a block may skip), with
    // a key the file lacks and one asked twice.
    let mut asked: Vec<Fingerprint> = (0..3000).step_by(3).collect();
    asked.extend([5000, 9, 9]);
    let got = KeptRecords::open(&path, MAGIC)
        .unwrap()
        .get(&asked, |b, _| Some(b.to_vec()));
    let expected: Vec<Option<Vec<u8>>> =
        asked.iter().map(|&k| (k < 3000).then(|| big(k))).collect();
    assert!(got == expected, "records out of place");
}

#[test]
fn blocks_end_at_a_wide_gap_or_their_size_and_hold_every_record() {
    let spot = |offset: u64, len: u32| {
        (
            Spot {
                offset,
                len,
                check: 0,
            },
            (),
        )
    };
    let wanted = [
        spot(100, 10),
        spot(110, 10),
        spot(120 + GAP_BYTES, 10),
        spot(200 + 3 * GAP_BYTES, BLOCK_BYTES as u32 * 2),
        spot(200 + 3 * GAP_BYTES + 2 * BLOCK_BYTES, 10),
    ];
    let lens: Vec<usize> = blocks(&wanted).iter().map(|b| b.len()).collect();
    // The third record is exactly a gap away, so in the first block; the fourth is past
    // one; it is longer than a block, so the fifth, right after it, starts another.
    assert_eq!(lens, [3, 1, 1]);
}
