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
//! - index: per paper `(corpus hash: u128, offset: u64)`;
//! - footer: the index's offset and the number of papers, as `u64`s.
//!
//! All little-endian. Anything that does not add up is no cache.

use super::related::Terms;
use crate::manifest::Fingerprint;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

const MAGIC: &[u8; 8] = b"pbterms1";

/// The kept terms, open for reading.
pub struct TermCache {
    file: File,
    /// Corpus hash -> where its record starts, and its length.
    index: HashMap<Fingerprint, (u64, u64)>,
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
        if &magic != MAGIC || kept_binary != binary.as_bytes() || len < 16 {
            return None;
        }
        let mut footer = [0; 16];
        file.read_exact_at(&mut footer, len - 16).ok()?;
        let at = u64::from_le_bytes(footer[..8].try_into().ok()?);
        let papers = u64::from_le_bytes(footer[8..].try_into().ok()?);
        if at.checked_add(papers.checked_mul(24)?)? != len - 16 {
            return None;
        }
        let mut bytes = vec![0; (papers * 24) as usize];
        file.read_exact_at(&mut bytes, at).ok()?;
        let entries: Vec<(Fingerprint, u64)> = bytes
            .chunks_exact(24)
            .map(|e| {
                let hash = u128::from_le_bytes(e[..16].try_into().expect("16 bytes"));
                (
                    hash,
                    u64::from_le_bytes(e[16..].try_into().expect("8 bytes")),
                )
            })
            .collect();
        // Records were written in index order: each ends where the next begins.
        let ends = entries.iter().skip(1).map(|e| e.1).chain([at]);
        let mut index = HashMap::with_capacity(entries.len());
        for (&(hash, start), end) in entries.iter().zip(ends) {
            index.insert(hash, (start, end.checked_sub(start)?));
        }
        Some(TermCache { file, index })
    }

    /// How many papers it holds.
    pub fn papers(&self) -> usize {
        self.index.len()
    }

    /// The terms kept for the papers with these corpus hashes, where there are any.
    /// Records that follow each other in the file (papers kept in the same order) are
    /// read together.
    pub fn get(&self, hashes: &[Fingerprint]) -> Vec<Option<Terms>> {
        let spots: Vec<Option<(u64, u64)>> =
            hashes.iter().map(|h| self.index.get(h).copied()).collect();
        let mut out = Vec::with_capacity(hashes.len());
        let mut i = 0;
        while i < spots.len() {
            let Some((start, mut len)) = spots[i] else {
                out.push(None);
                i += 1;
                continue;
            };
            let mut run = 1;
            while let Some(Some((next, next_len))) = spots.get(i + run)
                && *next == start + len
            {
                len += next_len;
                run += 1;
            }
            let mut bytes = vec![0; len as usize];
            let read = self.file.read_exact_at(&mut bytes, start).is_ok();
            for (record_start, record_len) in spots[i..i + run].iter().flatten() {
                let at = (record_start - start) as usize;
                let record = &bytes[at..at + *record_len as usize];
                out.push(read.then(|| decode(record)).flatten());
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

/// Writes the terms of every paper, in order, as (corpus hash, terms). `terms(range)`
/// gives them a batch at a time. Failing to write only costs the next build the counting.
pub fn save<E>(
    path: &Path,
    hashes: &[Fingerprint],
    terms: impl Fn(std::ops::Range<usize>) -> Result<Vec<Terms>, E> + Sync,
) -> Result<(), E> {
    use rayon::prelude::*;
    const BATCH: usize = 4096;
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
    let mut index = Vec::with_capacity(hashes.len() * 24);
    for start in (0..hashes.len()).step_by(BATCH) {
        let end = hashes.len().min(start + BATCH);
        let records: Vec<Vec<u8>> = terms(start..end)?
            .par_iter()
            .map(|doc| {
                let mut bytes = Vec::with_capacity(4 + doc.len() * 12);
                bytes.extend((doc.len() as u32).to_le_bytes());
                for &(term, f) in doc {
                    bytes.extend(term.to_le_bytes());
                    bytes.extend(f.to_le_bytes());
                }
                bytes
            })
            .collect();
        for (hash, record) in hashes[start..end].iter().zip(records) {
            index.extend(hash.to_le_bytes());
            index.extend(offset.to_le_bytes());
            offset += record.len() as u64;
            written = written.and_then(|()| out.write_all(&record));
        }
    }
    index.extend(offset.to_le_bytes());
    index.extend((hashes.len() as u64).to_le_bytes());
    let _ = written
        .and_then(|()| out.write_all(&index))
        .and_then(|()| out.into_inner().map_err(|e| e.into_error()))
        .and_then(|file| file.persist(path).map_err(|e| e.error).map(drop));
    Ok(())
}
