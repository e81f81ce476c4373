//! The terms related papers counted in each paper at the last incremental build, by the
//! paper's corpus hash, so that the next build counts only the papers that are new or
//! changed. Counting is nearly all that computing related papers costs; the scoring after
//! it is cheap. Results do not change: a paper's terms depend on its title and abstract
//! alone, both covered by the corpus hash.
//!
//! One binary file (`.cache/related-terms.bin`), read a record at a time so that a
//! million papers' terms are never in memory at once:
//! - header: `MAGIC`, then the binary's identity (length-prefixed), since a new paperboy
//!   may count differently;
//! - records: per paper `count: u32`, then `count` times `(term: u64, frequency: f32)`;
//! - index: per paper `(corpus hash: u128, offset: u64, count: u32, check: u64)`, where
//!   `check` is the record's xxh3;
//! - footer: the index's offset, the number of papers and the index's xxh3, as `u64`s.
//!
//! A build with new papers appends their records, then a new index and footer, and leaves
//! the rest of the file as it was: the old index and the records of papers that changed or
//! went stay behind, unread, until they are half the file and it is written again whole.
//! Rewriting 90 MB at 100k papers was most of what related papers cost a weekly build.
//! An append cut short leaves a file whose footer does not add up, and a record whose
//! xxh3 is not the one indexed (never written, or damaged) is counted again: anything that
//! does not add up is no cache. All little-endian.

use super::related::Terms;
use crate::manifest::Fingerprint;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;
use xxhash_rust::xxh3::xxh3_64;

const MAGIC: &[u8; 8] = b"pbterms2";
const ENTRY: usize = 16 + 8 + 4 + 8;
const FOOTER: u64 = 24;

/// Where a paper's record is.
#[derive(Clone, Copy)]
struct Spot {
    offset: u64,
    count: u32,
    check: u64,
}

impl Spot {
    /// Where `record` goes when it is written at `offset`.
    fn of(record: &[u8], offset: u64) -> Spot {
        Spot {
            offset,
            count: ((record.len() - 4) / 12) as u32,
            check: xxh3_64(record),
        }
    }

    fn len(&self) -> u64 {
        4 + 12 * u64::from(self.count)
    }
}

/// The kept terms, open for reading.
pub struct TermCache {
    file: File,
    /// The file's length when it was opened: where an append starts.
    len: u64,
    index: HashMap<Fingerprint, Spot>,
}

impl TermCache {
    pub fn open(path: &Path) -> Option<TermCache> {
        let mut file = File::open(path).ok()?;
        let len = file.metadata().ok()?.len();
        let mut magic = [0; 8];
        file.read_exact(&mut magic).ok()?;
        let binary = crate::manifest::binary_identity();
        let mut n = [0; 4];
        file.read_exact(&mut n).ok()?;
        let mut kept_binary = vec![0; u32::from_le_bytes(n) as usize];
        file.read_exact(&mut kept_binary).ok()?;
        if &magic != MAGIC || kept_binary != binary.as_bytes() || len < FOOTER {
            return None;
        }
        let mut footer = [0; FOOTER as usize];
        file.read_exact_at(&mut footer, len - FOOTER).ok()?;
        let u64_at =
            |b: &[u8], at: usize| Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?));
        let (at, papers, check) = (
            u64_at(&footer, 0)?,
            u64_at(&footer, 8)?,
            u64_at(&footer, 16)?,
        );
        if at.checked_add(papers.checked_mul(ENTRY as u64)?)? != len - FOOTER {
            return None;
        }
        let mut bytes = vec![0; papers as usize * ENTRY];
        file.read_exact_at(&mut bytes, at).ok()?;
        if xxh3_64(&bytes) != check {
            return None;
        }
        let mut index = HashMap::with_capacity(papers as usize);
        for e in bytes.chunks_exact(ENTRY) {
            let hash = u128::from_le_bytes(e[..16].try_into().ok()?);
            let spot = Spot {
                offset: u64_at(e, 16)?,
                count: u32::from_le_bytes(e[24..28].try_into().ok()?),
                check: u64_at(e, 28)?,
            };
            if spot.offset.checked_add(spot.len())? > at {
                return None;
            }
            index.insert(hash, spot);
        }
        Some(TermCache { file, len, index })
    }

    /// How many papers it holds.
    pub fn papers(&self) -> usize {
        self.index.len()
    }

    /// Whether it holds the terms of the paper with this corpus hash.
    pub fn holds(&self, hash: Fingerprint) -> bool {
        self.index.contains_key(&hash)
    }

    /// The terms kept for the papers with these corpus hashes, where there are any.
    /// Records that follow each other in the file (papers kept in the same order) are
    /// read together.
    pub fn get(&self, hashes: &[Fingerprint]) -> Vec<Option<Terms>> {
        let spots: Vec<Option<Spot>> = hashes.iter().map(|h| self.index.get(h).copied()).collect();
        let mut out = Vec::with_capacity(hashes.len());
        let mut i = 0;
        while i < spots.len() {
            let Some(first) = spots[i] else {
                out.push(None);
                i += 1;
                continue;
            };
            let (start, mut len) = (first.offset, first.len());
            let mut run = 1;
            while let Some(Some(next)) = spots.get(i + run)
                && next.offset == start + len
            {
                len += next.len();
                run += 1;
            }
            let mut bytes = vec![0; len as usize];
            let read = self.file.read_exact_at(&mut bytes, start).is_ok();
            for spot in spots[i..i + run].iter().flatten() {
                let at = (spot.offset - start) as usize;
                let record = &bytes[at..at + spot.len() as usize];
                out.push(
                    (read && xxh3_64(record) == spot.check)
                        .then(|| decode(record))
                        .flatten(),
                );
            }
            i += run;
        }
        out
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

/// Papers counted at once when a file is written whole.
const BATCH: usize = 4096;

/// Keeps the terms of every paper, in order, as (corpus hash, terms). `terms(range)`
/// gives them a batch at a time. With `kept` (the file at `path`, as opened before this
/// build), only the papers it lacks are asked for and appended, unless that would leave
/// the file more than half dead. Failing to write only costs the next build the counting.
pub fn save<E: Send>(
    path: &Path,
    hashes: &[Fingerprint],
    kept: Option<&TermCache>,
    terms: impl Fn(std::ops::Range<usize>) -> Result<Vec<Terms>, E> + Sync,
) -> Result<(), E> {
    if let Some(kept) = kept {
        let live: u64 = hashes
            .iter()
            .filter_map(|h| kept.index.get(h))
            .map(Spot::len)
            .sum();
        // Appended to while the dead bytes (records of papers gone, old indexes) would
        // not outweigh the live records. New records add to both sides, so leaving them
        // out of the reckoning only makes a rewrite come sooner.
        let dead = kept.len - live + (hashes.len() * ENTRY) as u64 + FOOTER;
        if dead <= live {
            return append(path, hashes, kept, terms);
        }
    }
    rewrite(path, hashes, terms)
}

/// The index entry of one record.
fn entry(hash: Fingerprint, spot: Spot) -> impl Iterator<Item = u8> {
    hash.to_le_bytes()
        .into_iter()
        .chain(spot.offset.to_le_bytes())
        .chain(spot.count.to_le_bytes())
        .chain(spot.check.to_le_bytes())
}

/// The index and footer for records at `spots`, the index starting at `at`.
fn index_and_footer(hashes: &[Fingerprint], spots: &[Spot], at: u64) -> Vec<u8> {
    let mut index: Vec<u8> = Vec::with_capacity(hashes.len() * ENTRY + FOOTER as usize);
    for (&hash, &spot) in hashes.iter().zip(spots) {
        index.extend(entry(hash, spot));
    }
    let check = xxh3_64(&index);
    index.extend(at.to_le_bytes());
    index.extend((hashes.len() as u64).to_le_bytes());
    index.extend(check.to_le_bytes());
    index
}

fn append<E: Send>(
    path: &Path,
    hashes: &[Fingerprint],
    kept: &TermCache,
    terms: impl Fn(std::ops::Range<usize>) -> Result<Vec<Terms>, E> + Sync,
) -> Result<(), E> {
    use rayon::prelude::*;
    let missing: Vec<usize> = (0..hashes.len())
        .filter(|&i| !kept.index.contains_key(&hashes[i]))
        .collect();
    let records: Vec<(usize, Vec<u8>)> = missing
        .par_iter()
        .map(|&i| Ok((i, encode(terms(i..i + 1)?.first().unwrap_or(&Vec::new())))))
        .collect::<Result<_, E>>()?;
    let mut spots: Vec<Option<Spot>> = hashes.iter().map(|h| kept.index.get(h).copied()).collect();
    let mut offset = kept.len;
    let mut tail = Vec::new();
    for (i, record) in records {
        spots[i] = Some(Spot::of(&record, offset));
        offset += record.len() as u64;
        tail.extend(record);
    }
    let spots: Vec<Spot> = spots.into_iter().flatten().collect();
    if spots.len() != hashes.len() {
        return Ok(());
    }
    tail.extend(index_and_footer(hashes, &spots, offset));
    // Written after the end the file had when this build opened it, which is where the
    // offsets point. A file changed since (another paperboy, against the build lock)
    // is not appended to.
    let Ok(file) = std::fs::OpenOptions::new().write(true).open(path) else {
        return Ok(());
    };
    if file.metadata().map(|m| m.len()).ok() == Some(kept.len) {
        let _ = file.write_all_at(&tail, kept.len);
    }
    Ok(())
}

fn rewrite<E>(
    path: &Path,
    hashes: &[Fingerprint],
    terms: impl Fn(std::ops::Range<usize>) -> Result<Vec<Terms>, E> + Sync,
) -> Result<(), E> {
    use rayon::prelude::*;
    let dir = path.parent().unwrap_or(Path::new("."));
    let Ok(file) = std::fs::create_dir_all(dir).and_then(|()| tempfile::NamedTempFile::new_in(dir))
    else {
        return Ok(());
    };
    let mut out = BufWriter::new(file);
    let binary = crate::manifest::binary_identity();
    let mut head = MAGIC.to_vec();
    head.extend((binary.len() as u32).to_le_bytes());
    head.extend(binary.as_bytes());
    let mut written = out.write_all(&head);
    let mut offset = head.len() as u64;
    let mut spots = Vec::with_capacity(hashes.len());
    for start in (0..hashes.len()).step_by(BATCH) {
        let end = hashes.len().min(start + BATCH);
        let records: Vec<Vec<u8>> = terms(start..end)?.par_iter().map(encode).collect();
        for record in records {
            spots.push(Spot::of(&record, offset));
            offset += record.len() as u64;
            written = written.and_then(|()| out.write_all(&record));
        }
    }
    let _ = written
        .and_then(|()| out.write_all(&index_and_footer(hashes, &spots, offset)))
        .and_then(|()| out.into_inner().map_err(|e| e.into_error()))
        .and_then(|file| file.persist(path).map_err(|e| e.error).map(drop));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Forty-odd terms, as a short abstract has: the records outweigh their index entries.
    fn terms_of(i: usize) -> Terms {
        (0..40 + i as u64 % 5)
            .map(|t| (t * 1000 + i as u64, 1.5))
            .collect()
    }

    /// Saves papers `papers` of `hashes`, paper `i` having `terms_of(i)`.
    fn saved(
        path: &Path,
        hashes: &[Fingerprint],
        papers: std::ops::Range<usize>,
        kept: Option<&TermCache>,
    ) {
        let first = papers.start;
        save::<()>(path, &hashes[papers], kept, |r| {
            Ok(r.map(|i| terms_of(first + i)).collect())
        })
        .unwrap();
    }

    #[test]
    fn new_papers_are_appended_until_half_the_file_is_dead_then_it_is_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("terms.bin");
        let hashes: Vec<Fingerprint> = (0..100).map(|i| i as u128 + 7).collect();
        saved(&path, &hashes, 0..90, None);
        let first = std::fs::read(&path).unwrap();

        // Ten new papers: the file grows, and what it held before is left as it was.
        let kept = TermCache::open(&path).unwrap();
        saved(&path, &hashes, 0..100, Some(&kept));
        let appended = std::fs::read(&path).unwrap();
        assert!(appended.len() > first.len());
        assert_eq!(appended[..first.len()], first[..]);
        let cache = TermCache::open(&path).unwrap();
        assert_eq!(cache.papers(), 100);
        let expected: Vec<Option<Terms>> = (0..100).map(|i| Some(terms_of(i))).collect();
        assert_eq!(cache.get(&hashes), expected);

        // Most papers gone: the file is written again, holding only the live ones.
        drop(kept);
        saved(&path, &hashes, 90..100, Some(&cache));
        let rewritten = std::fs::read(&path).unwrap();
        assert!(rewritten.len() < first.len() / 2);
        let cache = TermCache::open(&path).unwrap();
        assert_eq!(cache.papers(), 10);
        assert_eq!(cache.get(&hashes[90..]), expected[90..]);
    }

    #[test]
    fn a_damaged_record_or_a_cut_short_append_is_no_cache() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("terms.bin");
        let hashes: Vec<Fingerprint> = (0..50).map(|i| i as u128).collect();
        saved(&path, &hashes, 0..50, None);
        let good = std::fs::read(&path).unwrap();

        // A record's bytes changed (here, the first term of the first): that paper is a
        // miss, the others are read.
        let head = 8 + 4 + crate::manifest::binary_identity().len();
        let mut damaged = good.clone();
        damaged[head + 4] ^= 1;
        std::fs::write(&path, &damaged).unwrap();
        let got = TermCache::open(&path).unwrap().get(&hashes);
        assert_eq!(got[0], None);
        assert_eq!(got[1], Some(terms_of(1)));

        // An append that stopped half way: the footer does not add up.
        std::fs::write(&path, [&good[..], &good[head..head + 40]].concat()).unwrap();
        assert!(TermCache::open(&path).is_none());
    }
}
