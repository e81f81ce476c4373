//! Records an incremental build keeps for the next one, each under the fingerprint of what
//! it was made from. A record found under its key is the one making it again would give,
//! so there is nothing to invalidate: a changed input is a new key, and records whose keys
//! the site no longer has are left behind. Parsed paper files (by the file's path and
//! stamp), the related papers' terms (by a paper's corpus hash) and the author pages'
//! paper lines (by the line's fingerprint) are kept this way.
//!
//! One file per kind of record, read a block of nearby records at a time, so that a million
//! papers' records are never in memory at once:
//! - header: an 8-byte magic naming the kind, then the binary's identity (length-prefixed),
//!   since a new paperboy may make its records differently;
//! - records: bytes, as the kind encodes them;
//! - index: per record `(key: u128, offset: u64, len: u32, check: u64)`, where `check` is
//!   the record's xxh3;
//! - footer: the index's offset, its number of records and its xxh3, as `u64`s.
//!
//! A build appends the records it made, then a new index and footer, and leaves the rest of
//! the file as it was: old indexes and the records of keys gone stay behind, unread, until
//! they would outweigh the live records; then the file is written whole beside the old one
//! and renamed over it. An append cut short leaves a footer that does not add up, and a
//! record whose xxh3 is not the one indexed (never written, or damaged) is missing:
//! anything that does not add up is made again. All little-endian.

use crate::manifest::Fingerprint;
use rustc_hash::{FxHashMap, FxHashSet};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use xxhash_rust::xxh3::xxh3_64;

const ENTRY: usize = 16 + 8 + 4 + 8;
const FOOTER: u64 = 24;
/// Records near each other in the file are read together, up to this many bytes.
const BLOCK_BYTES: u64 = 4 << 20;
/// Bytes no record asked for that a block may read rather than end: one read costs more
/// than copying this much.
const GAP_BYTES: u64 = 64 << 10;

/// Where a record is.
#[derive(Clone, Copy)]
struct Spot {
    offset: u64,
    len: u32,
    check: u64,
}

impl Spot {
    fn of(record: &[u8], offset: u64) -> Spot {
        Spot {
            offset,
            len: record.len() as u32,
            check: xxh3_64(record),
        }
    }

    fn end(&self) -> u64 {
        self.offset + u64::from(self.len)
    }
}

/// The start of a file of the kind `magic` names, written by this binary.
pub fn header(magic: &[u8; 8]) -> Vec<u8> {
    let binary = crate::manifest::binary_identity();
    let mut head = magic.to_vec();
    head.extend((binary.len() as u32).to_le_bytes());
    head.extend(binary.as_bytes());
    head
}

/// The records kept by the last build, open for reading.
pub struct KeptRecords {
    file: File,
    /// The file's length when it was opened: where an append starts.
    len: u64,
    /// Whether the file has other names (a hard-linked backup's): it is then written whole
    /// under this one, never appended to.
    shared: bool,
    index: FxHashMap<Fingerprint, Spot>,
}

impl KeptRecords {
    /// The records in `path`, of the kind `magic` names; none when there is no such file,
    /// another binary wrote it, or it does not add up.
    pub fn open(path: &Path, magic: &[u8; 8]) -> Option<KeptRecords> {
        let mut file = File::open(path).ok()?;
        let meta = file.metadata().ok()?;
        let (len, shared) = (meta.len(), crate::store::atomic::has_other_names(&meta));
        let head = header(magic);
        let mut got = vec![0; head.len()];
        file.read_exact(&mut got).ok()?;
        if got != head || len < head.len() as u64 + FOOTER {
            return None;
        }
        let mut footer = [0; FOOTER as usize];
        file.read_exact_at(&mut footer, len - FOOTER).ok()?;
        let u64_at =
            |b: &[u8], at: usize| Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?));
        let (at, count, check) = (
            u64_at(&footer, 0)?,
            u64_at(&footer, 8)?,
            u64_at(&footer, 16)?,
        );
        if at < head.len() as u64
            || at.checked_add(count.checked_mul(ENTRY as u64)?)? != len - FOOTER
        {
            return None;
        }
        let mut bytes = vec![0; count as usize * ENTRY];
        file.read_exact_at(&mut bytes, at).ok()?;
        if xxh3_64(&bytes) != check {
            return None;
        }
        let mut index = FxHashMap::with_capacity_and_hasher(count as usize, Default::default());
        for e in bytes.chunks_exact(ENTRY) {
            let key = u128::from_le_bytes(e[..16].try_into().ok()?);
            let spot = Spot {
                offset: u64_at(e, 16)?,
                len: u32::from_le_bytes(e[24..28].try_into().ok()?),
                check: u64_at(e, 28)?,
            };
            if spot.offset < head.len() as u64 || spot.offset.checked_add(u64::from(spot.len))? > at
            {
                return None;
            }
            index.insert(key, spot);
        }
        Some(KeptRecords {
            file,
            len,
            shared,
            index,
        })
    }

    /// How many records it holds.
    pub fn count(&self) -> usize {
        self.index.len()
    }

    pub fn holds(&self, key: Fingerprint) -> bool {
        self.index.contains_key(&key)
    }

    /// The records under `keys`, decoded (with where each starts in the file), where there
    /// are any that are whole. Read in the file's order, a block of nearby records at a
    /// time, and decoded on all cores: a stretch of keys has records all over the file
    /// (lines are kept in the order they were rendered), and reading them one by one was
    /// 100,000 reads for a 100,000-paper site.
    pub fn get<T: Send>(
        &self,
        keys: &[Fingerprint],
        decode: impl Fn(&[u8], u64) -> Option<T> + Sync,
    ) -> Vec<Option<T>> {
        use rayon::prelude::*;
        let mut wanted: Vec<(Spot, usize)> = keys
            .iter()
            .enumerate()
            .filter_map(|(i, k)| Some((*self.index.get(k)?, i)))
            .collect();
        wanted.sort_unstable_by_key(|(spot, _)| spot.offset);
        let decoded: Vec<Vec<(usize, T)>> = blocks(&wanted)
            .into_par_iter()
            .map(|block| {
                let mut out = Vec::with_capacity(block.len());
                self.read_block(block, |(spot, i), record| {
                    if let Some(t) = record.and_then(|r| decode(r, spot.offset)) {
                        out.push((*i, t));
                    }
                });
                out
            })
            .collect();
        let mut records: Vec<Option<T>> = keys.iter().map(|_| None).collect();
        for (i, t) in decoded.into_iter().flatten() {
            records[i] = Some(t);
        }
        records
    }

    /// The open file, which stays as it was read while the build lasts: a build appends
    /// past its end or puts a new file in its place.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Hands each of `block`'s records (one of `blocks`) to `each`, or none if it is not
    /// the one indexed, in one read.
    fn read_block<I>(&self, block: &[(Spot, I)], mut each: impl FnMut(&(Spot, I), Option<&[u8]>)) {
        let (Some((first, _)), Some(end)) =
            (block.first(), block.iter().map(|(s, _)| s.end()).max())
        else {
            return;
        };
        let mut bytes = vec![0; (end - first.offset) as usize];
        let read = self.file.read_exact_at(&mut bytes, first.offset).is_ok();
        for wanted in block {
            let at = (wanted.0.offset - first.offset) as usize;
            let record = &bytes[at..at + wanted.0.len as usize];
            each(
                wanted,
                (read && xxh3_64(record) == wanted.0.check).then_some(record),
            );
        }
    }
}

/// `wanted` (in the file's order) cut into blocks that are each read at once: records at
/// most `GAP_BYTES` apart, at most `BLOCK_BYTES` from the first one's start to the last
/// one's end (or the one record, if it is longer).
fn blocks<I>(wanted: &[(Spot, I)]) -> Vec<&[(Spot, I)]> {
    let mut blocks = Vec::new();
    let mut start = 0;
    let mut end = 0;
    for (i, (spot, _)) in wanted.iter().enumerate() {
        let first = wanted[start].0.offset;
        if i > start && (spot.offset > end + GAP_BYTES || spot.end().max(end) - first > BLOCK_BYTES)
        {
            blocks.push(&wanted[start..i]);
            start = i;
            end = 0;
        }
        end = end.max(spot.end());
    }
    if start < wanted.len() {
        blocks.push(&wanted[start..]);
    }
    blocks
}

/// Where a writer's records go.
enum Target {
    /// After the end of the kept file, written there at `finish`.
    Tail { kept_len: u64, bytes: Vec<u8> },
    /// A new file, renamed over the kept one at `finish`.
    Whole(BufWriter<tempfile::NamedTempFile>),
}

struct Sink {
    target: Target,
    /// Where the next record goes in the file.
    offset: u64,
    spots: FxHashMap<Fingerprint, Spot>,
    failed: bool,
}

/// The next file of records, taking the records a build makes (from any thread) and, at
/// `finish`, keeping those of the kept file the site still has.
pub struct RecordWriter<'k> {
    path: PathBuf,
    /// The file at `path` as this build opened it.
    kept: Option<&'k KeptRecords>,
    /// The site's keys now, each once, in the order the index lists them.
    keys: Vec<Fingerprint>,
    sink: Mutex<Sink>,
}

impl<'k> RecordWriter<'k> {
    /// A writer for the records of `keys` (the site's, now). It appends to `kept` (the file
    /// at `path`, opened before this build) unless the file has other names, the bytes no
    /// key needs would outweigh the live records or the new records would be more than
    /// those kept; otherwise it writes the file whole. None when the folder cannot be
    /// written: the next build makes more again, nothing else.
    pub fn new(
        path: &Path,
        magic: &[u8; 8],
        kept: Option<&'k KeptRecords>,
        keys: &[Fingerprint],
    ) -> Option<RecordWriter<'k>> {
        let mut seen = FxHashSet::default();
        let keys: Vec<Fingerprint> = keys.iter().copied().filter(|k| seen.insert(*k)).collect();
        let append = kept.filter(|kept| !kept.shared).and_then(|kept| {
            let held: Vec<&Spot> = keys.iter().filter_map(|k| kept.index.get(k)).collect();
            let live: u64 = held.iter().map(|s| u64::from(s.len)).sum();
            // Counting the new index as dead makes the rewrite come sooner, never later.
            let dead = kept.len - live + (keys.len() * ENTRY) as u64 + FOOTER;
            let new = keys.len() - held.len();
            (dead <= live && new <= held.len()).then_some(kept.len)
        });
        let (target, offset) = match append {
            Some(kept_len) => (
                Target::Tail {
                    kept_len,
                    bytes: Vec::new(),
                },
                kept_len,
            ),
            None => {
                let dir = path.parent()?;
                std::fs::create_dir_all(dir).ok()?;
                let file = tempfile::Builder::new()
                    .prefix(".records-")
                    .suffix(".tmp")
                    .tempfile_in(dir)
                    .ok()?;
                let mut out = BufWriter::with_capacity(1 << 20, file);
                let head = header(magic);
                out.write_all(&head).ok()?;
                (Target::Whole(out), head.len() as u64)
            }
        };
        Some(RecordWriter {
            path: path.to_path_buf(),
            kept,
            keys,
            sink: Mutex::new(Sink {
                target,
                offset,
                spots: FxHashMap::default(),
                failed: false,
            }),
        })
    }

    pub fn put(&self, key: Fingerprint, record: &[u8]) {
        // A record is written whole under the lock: a panic elsewhere cannot cut one.
        let mut sink = self
            .sink
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        sink.put(key, record);
    }

    /// Keeps the records of the kept file whose keys the site has and this build did not
    /// make, indexes them with the new ones and puts the file in place; leaves the file as
    /// it was when nothing changed. A file that cannot be written is left as it was.
    pub fn finish(self) {
        let RecordWriter {
            path,
            kept,
            keys,
            sink,
        } = self;
        let mut sink = sink
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let (Target::Whole(_), Some(kept)) = (&sink.target, kept) {
            // In the old file's order, so that it is read front to back.
            let mut carried: Vec<(Spot, Fingerprint)> = keys
                .iter()
                .filter(|k| !sink.spots.contains_key(k))
                .filter_map(|k| Some((*kept.index.get(k)?, *k)))
                .collect();
            carried.sort_unstable_by_key(|(s, _)| s.offset);
            for block in blocks(&carried) {
                kept.read_block(block, |(_, key), record| {
                    if let Some(record) = record {
                        sink.put(*key, record);
                    }
                });
            }
        }
        if sink.failed {
            return;
        }
        let held_by_kept = |k: &Fingerprint| kept.and_then(|kept| kept.index.get(k)).copied();
        if let Target::Tail { .. } = sink.target
            && sink.spots.is_empty()
            && kept.is_some_and(|kept| kept.count() == keys.len())
            && keys.iter().all(|k| held_by_kept(k).is_some())
        {
            return;
        }
        let entries: Vec<(Fingerprint, Spot)> = keys
            .iter()
            .filter_map(|k| {
                let spot = match &sink.target {
                    Target::Tail { .. } => sink.spots.get(k).copied().or_else(|| held_by_kept(k)),
                    Target::Whole(_) => sink.spots.get(k).copied(),
                };
                Some((*k, spot?))
            })
            .collect();
        let index = index_and_footer(&entries, sink.offset);
        match sink.target {
            Target::Tail {
                kept_len,
                mut bytes,
            } => {
                bytes.extend(index);
                // Written after the end the file had when this build opened it, which is
                // where the offsets point. A file changed since (another paperboy, against
                // the build lock) is not appended to.
                let Ok(file) = std::fs::OpenOptions::new().write(true).open(&path) else {
                    return;
                };
                if file.metadata().map(|m| m.len()).ok() == Some(kept_len) {
                    let _ = file.write_all_at(&bytes, kept_len);
                }
            }
            Target::Whole(mut out) => {
                let _ = out
                    .write_all(&index)
                    .and_then(|()| out.into_inner().map_err(|e| e.into_error()))
                    .and_then(|file| file.persist(&path).map_err(|e| e.error).map(drop));
            }
        }
    }
}

impl Sink {
    fn put(&mut self, key: Fingerprint, record: &[u8]) {
        let written = match &mut self.target {
            Target::Tail { bytes, .. } => {
                bytes.extend_from_slice(record);
                Ok(())
            }
            Target::Whole(out) => out.write_all(record),
        };
        if written.is_err() {
            self.failed = true;
        }
        self.spots.insert(key, Spot::of(record, self.offset));
        self.offset += record.len() as u64;
    }
}

/// The index of `entries` starting at `at`, and the footer.
fn index_and_footer(entries: &[(Fingerprint, Spot)], at: u64) -> Vec<u8> {
    let mut index: Vec<u8> = Vec::with_capacity(entries.len() * ENTRY + FOOTER as usize);
    for (key, spot) in entries {
        index.extend(key.to_le_bytes());
        index.extend(spot.offset.to_le_bytes());
        index.extend(spot.len.to_le_bytes());
        index.extend(spot.check.to_le_bytes());
    }
    let check = xxh3_64(&index);
    index.extend(at.to_le_bytes());
    index.extend((entries.len() as u64).to_le_bytes());
    index.extend(check.to_le_bytes());
    index
}

#[cfg(test)]
mod tests;
