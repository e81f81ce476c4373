//! The terms related papers counted in each paper at the last incremental build, by the
//! paper's corpus hash, so that the next build counts only the papers that are new or
//! changed. Counting is nearly all that computing related papers costs; the scoring after
//! it is cheap. Results do not change: a paper's terms depend on its title and abstract
//! alone, both covered by the corpus hash.
//!
//! Kept records (`crate::kept`) in `.cache/related-terms.bin`; a record is a paper's
//! terms: `count: u32`, then `count` times `(term: u64, frequency: f32)`. Rewriting 90 MB
//! at 100k papers each week was most of what related papers cost: new papers' terms are
//! appended.

use super::related::Terms;
use crate::kept::{KeptRecords, RecordWriter};
use crate::manifest::Fingerprint;
use std::path::Path;

/// Bumped when terms are counted otherwise (5: plurals made singular). A binary's identity
/// already keeps another binary's records out, unless its executable could not be found.
const MAGIC: &[u8; 8] = b"pbterms5";

/// The kept terms, open for reading.
pub struct TermCache {
    records: KeptRecords,
}

impl TermCache {
    pub fn open(path: &Path) -> Option<TermCache> {
        KeptRecords::open(path, MAGIC).map(|records| TermCache { records })
    }

    /// Whether it holds the terms of the paper with this corpus hash.
    pub fn holds(&self, hash: Fingerprint) -> bool {
        self.records.holds(hash)
    }

    /// The terms kept for the papers with these corpus hashes, where there are any.
    pub fn get(&self, hashes: &[Fingerprint]) -> Vec<Option<Terms>> {
        self.records.get(hashes, |record, _| decode(record))
    }
}

/// One record: a count, then that many (term, frequency) pairs, and nothing more.
fn decode(record: &[u8]) -> Option<Terms> {
    let count = u32::from_le_bytes(record.get(..4)?.try_into().ok()?) as usize;
    let body = &record[4..];
    if body.len() != count.checked_mul(12)? {
        return None;
    }
    Some(
        body.chunks_exact(12)
            .map(|t| {
                let term = u64::from_le_bytes(t[..8].try_into().expect("8 bytes"));
                (
                    term,
                    f32::from_le_bytes(t[8..].try_into().expect("4 bytes")),
                )
            })
            .collect(),
    )
}

fn encode(doc: &Terms) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(4 + doc.len() * 12);
    bytes.extend((doc.len() as u32).to_le_bytes());
    for &(term, f) in doc {
        bytes.extend(term.to_le_bytes());
        bytes.extend(f.to_le_bytes());
    }
    bytes
}

/// Papers counted at once when many are.
const BATCH: usize = 4096;

/// Keeps the terms of every paper, as (corpus hash, terms). `terms(range)` gives them for a
/// range of papers; only the papers `kept` (the file at `path`, as opened before this
/// build) lacks are asked for. Failing to write only costs the next build the counting.
pub fn save<'t, E: Send>(
    path: &Path,
    hashes: &[Fingerprint],
    kept: Option<&TermCache>,
    terms: impl Fn(std::ops::Range<usize>) -> Result<std::borrow::Cow<'t, [Terms]>, E> + Sync,
) -> Result<(), E> {
    use rayon::prelude::*;
    let kept = kept.map(|k| &k.records);
    let Some(writer) = RecordWriter::new(path, MAGIC, kept, hashes) else {
        return Ok(());
    };
    let missing: Vec<usize> = (0..hashes.len())
        .filter(|&i| !kept.is_some_and(|k| k.holds(hashes[i])))
        .collect();
    // Asked for in runs of neighbours: a first build asks for every paper, in batches.
    let mut ranges = Vec::new();
    let mut at = 0;
    while at < missing.len() {
        let mut end = at + 1;
        while end < missing.len() && missing[end] == missing[end - 1] + 1 && end - at < BATCH {
            end += 1;
        }
        ranges.push(missing[at]..missing[end - 1] + 1);
        at = end;
    }
    // Counted a batch per core at a time (`terms` counts a range on one core: on the
    // first build of 100,000 papers that was a second of one core's work), written in
    // order.
    for window in ranges.chunks(rayon::current_num_threads().max(1)) {
        let counted: Vec<Vec<Vec<u8>>> = window
            .par_iter()
            .map(|range| Ok(terms(range.clone())?.iter().map(encode).collect()))
            .collect::<Result<_, E>>()?;
        for (range, records) in window.iter().zip(counted) {
            for (i, record) in range.clone().zip(records) {
                writer.put(hashes[i], &record);
            }
        }
    }
    writer.finish();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn terms_of(i: usize) -> Terms {
        (0..40 + i as u64 % 5)
            .map(|t| (t * 1000 + i as u64, 1.5 + i as f32))
            .collect()
    }

    /// Saves the terms of `hashes`, paper `i` having `terms_of(i)`; returns the ranges asked.
    fn saved(
        path: &Path,
        hashes: &[Fingerprint],
        kept: Option<&TermCache>,
    ) -> Vec<std::ops::Range<usize>> {
        let asked = Mutex::new(Vec::new());
        save::<()>(path, hashes, kept, |r| {
            asked.lock().unwrap().push(r.clone());
            Ok(std::borrow::Cow::Owned(r.map(terms_of).collect()))
        })
        .unwrap();
        // Asked for on several cores at once: in any order.
        let mut asked = asked.into_inner().unwrap();
        asked.sort_by_key(|r| r.start);
        asked
    }

    #[test]
    fn terms_come_back_as_counted_and_only_papers_the_file_lacks_are_asked_for() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("terms.bin");
        let hashes: Vec<Fingerprint> = (0..5000).map(|i| i as u128 * 31 + 7).collect();
        assert_eq!(saved(&path, &hashes[..4500], None), [0..4096, 4096..4500]);
        let kept = TermCache::open(&path).unwrap();
        assert_eq!(kept.records.count(), 4500);
        // A week of new papers, and one (paper 10) whose words changed.
        let mut now = hashes.clone();
        now[10] = 1;
        assert_eq!(saved(&path, &now, Some(&kept)), [10..11, 4500..5000]);
        let cache = TermCache::open(&path).unwrap();
        let expected: Vec<Option<Terms>> = (0..5000).map(|i| Some(terms_of(i))).collect();
        assert_eq!(cache.get(&now), expected);
        assert_eq!(cache.get(&hashes[10..11]), [None]);
        // A record that is not a paper's terms is not taken for one.
        assert_eq!(decode(&[3, 0, 0, 0, 1, 2]), None);
    }
}
