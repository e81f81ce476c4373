//! The paper lines (`line.html`, rendered once per paper for the author pages) of the last
//! incremental build, kept in `.cache/lines.bin` by the fingerprint of what each was made
//! from, so that the next build renders only the lines of new and changed papers. A week
//! added to a large site rewrites the pages of most authors, and those show nearly every
//! paper: rendering their lines again was most of what the author pages cost.
//!
//! A line's key hashes the site's inputs (binary, config, templates, the `site` variable)
//! and the paper's view fingerprint (its file's bytes and its week), as a page's does:
//! a line found under its key is the one rendering would give.
//!
//! The file: `MAGIC`, then records of `key: u128`, `check: u64` (the line's xxh3),
//! `len: u32` and the line's bytes, little-endian, in no particular order. A record
//! whose check fails is left out; a file that does not add up is no cache at all.
//! Written whole each time beside the old one and renamed over it.

use crate::manifest::Fingerprint;
use rustc_hash::{FxHashMap, FxHashSet};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use xxhash_rust::xxh3::xxh3_64;

const MAGIC: &[u8; 8] = b"pblines1";
const HEAD: usize = 16 + 8 + 4;

/// The lines kept by the last build, by key.
pub struct KeptLines {
    bytes: Vec<u8>,
    /// Key -> where its line's bytes are in `bytes`.
    spots: FxHashMap<Fingerprint, (usize, usize)>,
}

impl KeptLines {
    /// The lines in `path`; none when there is no such file or it does not add up.
    pub fn open(path: &Path) -> Option<KeptLines> {
        let bytes = std::fs::read(path).ok()?;
        let mut at = bytes.starts_with(MAGIC).then_some(MAGIC.len())?;
        let mut spots = FxHashMap::default();
        while at < bytes.len() {
            let head: &[u8; HEAD] = bytes.get(at..at + HEAD)?.try_into().ok()?;
            let key = u128::from_le_bytes(head[..16].try_into().ok()?);
            let check = u64::from_le_bytes(head[16..24].try_into().ok()?);
            let len = u32::from_le_bytes(head[24..].try_into().ok()?) as usize;
            let start = at + HEAD;
            let line = bytes.get(start..start + len)?;
            if xxh3_64(line) == check && std::str::from_utf8(line).is_ok() {
                spots.insert(key, (start, len));
            }
            at = start + len;
        }
        Some(KeptLines { bytes, spots })
    }

    pub fn get(&self, key: Fingerprint) -> Option<&str> {
        let &(start, len) = self.spots.get(&key)?;
        // Checked to be UTF-8 when opened.
        std::str::from_utf8(&self.bytes[start..start + len]).ok()
    }

    /// The whole record of the line at `start`, as it is in the file.
    fn record(&self, start: usize, len: usize) -> &[u8] {
        &self.bytes[start - HEAD..start + len]
    }
}

/// The next file, written while lines are rendered: the lines this build rendered, then,
/// at `finish`, those it took from the kept file and the site still has.
pub struct LineWriter {
    file: Mutex<BufWriter<tempfile::NamedTempFile>>,
    failed: std::sync::atomic::AtomicBool,
    written: AtomicUsize,
}

impl LineWriter {
    /// A writer for the file that will replace `path`; none when the folder is not
    /// writable, and the build goes on without keeping its lines.
    pub fn new(path: &Path) -> Option<LineWriter> {
        let dir = path.parent()?;
        std::fs::create_dir_all(dir).ok()?;
        let file = tempfile::Builder::new()
            .prefix(".lines-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .ok()?;
        let mut file = BufWriter::with_capacity(1 << 20, file);
        file.write_all(MAGIC).ok()?;
        Some(LineWriter {
            file: Mutex::new(file),
            failed: Default::default(),
            written: AtomicUsize::new(0),
        })
    }

    pub fn put(&self, key: Fingerprint, line: &str) {
        let mut head = [0u8; HEAD];
        head[..16].copy_from_slice(&key.to_le_bytes());
        head[16..24].copy_from_slice(&xxh3_64(line.as_bytes()).to_le_bytes());
        head[24..].copy_from_slice(&(line.len() as u32).to_le_bytes());
        self.write(&[&head, line.as_bytes()]);
        self.written.fetch_add(1, Ordering::Relaxed);
    }

    fn write(&self, parts: &[&[u8]]) {
        // A line is a finished string: a panic elsewhere cannot leave one half-written.
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if parts.iter().any(|p| file.write_all(p).is_err()) {
            self.failed.store(true, Ordering::Relaxed);
        }
    }

    /// Adds the kept lines whose keys are in `keys` (the site's lines now) and puts the
    /// file in place of `path`, unless nothing changed. A cache that cannot be written is
    /// left as it was: the next build renders more, nothing else.
    pub fn finish(self, kept: Option<&KeptLines>, keys: &[Fingerprint], path: &Path) {
        let current: FxHashSet<Fingerprint> = keys.iter().copied().collect();
        let mut carried: Vec<(usize, usize)> = kept
            .map(|k| {
                k.spots
                    .iter()
                    .filter(|(key, _)| current.contains(key))
                    .map(|(_, &spot)| spot)
                    .collect()
            })
            .unwrap_or_default();
        let kept_count = kept.map_or(0, |k| k.spots.len());
        if self.written.load(Ordering::Relaxed) == 0
            && carried.len() == kept_count
            && kept.is_some()
        {
            return;
        }
        // In the old file's order: read front to back.
        carried.sort_unstable();
        if let Some(kept) = kept {
            for (start, len) in carried {
                self.write(&[kept.record(start, len)]);
            }
        }
        let file = self
            .file
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if self.failed.into_inner() {
            return;
        }
        if let Ok(file) = file.into_inner() {
            let _ = file.persist(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(path: &Path, kept: Option<&KeptLines>, lines: &[(u128, &str)], keys: &[u128]) {
        let w = LineWriter::new(path).unwrap();
        for (key, line) in lines {
            w.put(*key, line);
        }
        w.finish(kept, keys, path);
    }

    #[test]
    fn lines_come_back_by_key_and_only_those_the_site_still_has_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lines.bin");
        assert!(KeptLines::open(&path).is_none());
        written(
            &path,
            None,
            &[(1, "<li>one</li>"), (2, "<li>two ✓</li>")],
            &[1, 2],
        );
        let kept = KeptLines::open(&path).unwrap();
        assert_eq!(kept.get(1), Some("<li>one</li>"));
        assert_eq!(kept.get(2), Some("<li>two ✓</li>"));
        assert_eq!(kept.get(3), None);

        // Paper 1 changed (its key is now 3); paper 2 is kept from the old file.
        written(&path, Some(&kept), &[(3, "<li>one, edited</li>")], &[3, 2]);
        let next = KeptLines::open(&path).unwrap();
        assert_eq!(next.get(1), None);
        assert_eq!(next.get(2), Some("<li>two ✓</li>"));
        assert_eq!(next.get(3), Some("<li>one, edited</li>"));
    }

    #[test]
    fn a_build_that_changes_nothing_leaves_the_file_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lines.bin");
        written(&path, None, &[(1, "a"), (2, "b")], &[1, 2]);
        let before = std::fs::metadata(&path).unwrap().modified().unwrap();
        let kept = KeptLines::open(&path).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        written(&path, Some(&kept), &[], &[1, 2]);
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            before
        );
        let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary file is left behind");
    }

    #[test]
    fn a_damaged_line_is_left_out_and_a_cut_file_is_no_cache() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lines.bin");
        written(
            &path,
            None,
            &[(1, "first line"), (2, "second line")],
            &[1, 2],
        );
        let bytes = std::fs::read(&path).unwrap();
        let at = bytes.windows(5).position(|w| w == b"first").unwrap();
        let mut damaged = bytes.clone();
        damaged[at] = b'F';
        std::fs::write(&path, &damaged).unwrap();
        let kept = KeptLines::open(&path).unwrap();
        assert_eq!(kept.get(1), None);
        assert_eq!(kept.get(2), Some("second line"));

        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(KeptLines::open(&path).is_none());
        std::fs::write(&path, b"not a cache").unwrap();
        assert!(KeptLines::open(&path).is_none());
    }
}
