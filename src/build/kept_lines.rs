//! The paper lines (`line.html`, rendered once per paper for the author pages) of the last
//! incremental build, kept in `.cache/lines.bin` as records (`crate::kept`) under the
//! fingerprint of what each was made from, so that the next build renders only the lines
//! of new and changed papers. A week added to a large site rewrites the pages of most
//! authors, and those show nearly every paper: rendering their lines again was most of
//! what the author pages cost.
//!
//! A line's key hashes the site's inputs (binary, config, templates, the `site` variable)
//! and the paper's view fingerprint (its file's bytes and its week), as a page's does:
//! a line found under its key is the one rendering would give.

use crate::kept::{KeptRecords, RecordWriter};
use crate::manifest::Fingerprint;
use rustc_hash::FxHashMap;
use std::path::Path;

const MAGIC: &[u8; 8] = b"pblines2";

/// The lines kept by the last build that this one can use, by key.
pub struct KeptLines {
    records: Option<KeptRecords>,
    lines: FxHashMap<Fingerprint, String>,
}

impl KeptLines {
    /// The lines in `path` under `keys` (the site's lines now): each read once, here.
    pub fn open(path: &Path, keys: &[Fingerprint]) -> KeptLines {
        let records = KeptRecords::open(path, MAGIC);
        let lines = match &records {
            Some(records) => {
                let found = records.get(keys, |bytes, _| {
                    std::str::from_utf8(bytes).ok().map(str::to_owned)
                });
                keys.iter()
                    .zip(found)
                    .filter_map(|(&k, line)| Some((k, line?)))
                    .collect()
            }
            None => FxHashMap::default(),
        };
        KeptLines { records, lines }
    }

    pub fn get(&self, key: Fingerprint) -> Option<&str> {
        self.lines.get(&key).map(String::as_str)
    }

    /// A writer for this build's lines, appended to the kept ones or written whole; at
    /// `finish` it keeps the kept lines of `keys` it did not take.
    pub fn writer(&self, path: &Path, keys: &[Fingerprint]) -> Option<RecordWriter<'_>> {
        RecordWriter::new(path, MAGIC, self.records.as_ref(), keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(path: &Path, lines: &[(u128, &str)], keys: &[u128]) {
        let kept = KeptLines::open(path, keys);
        let w = kept.writer(path, keys).unwrap();
        for (key, line) in lines {
            w.put(*key, line.as_bytes());
        }
        w.finish();
    }

    #[test]
    fn lines_come_back_by_key_and_only_those_the_site_still_has_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lines.bin");
        assert_eq!(KeptLines::open(&path, &[1]).get(1), None);
        written(
            &path,
            &[(1, "<li>one</li>"), (2, "<li>two ✓</li>")],
            &[1, 2],
        );
        let kept = KeptLines::open(&path, &[1, 2, 3]);
        assert_eq!(kept.get(1), Some("<li>one</li>"));
        assert_eq!(kept.get(2), Some("<li>two ✓</li>"));
        assert_eq!(kept.get(3), None);

        // Paper 1 changed (its key is now 3); paper 2 is kept from the old file.
        written(&path, &[(3, "<li>one, edited</li>")], &[3, 2]);
        let next = KeptLines::open(&path, &[1, 2, 3]);
        assert_eq!(next.get(1), None);
        assert_eq!(next.get(2), Some("<li>two ✓</li>"));
        assert_eq!(next.get(3), Some("<li>one, edited</li>"));
        // Only the lines asked for are read.
        assert_eq!(KeptLines::open(&path, &[3]).get(2), None);
    }

    #[test]
    fn a_line_that_is_not_text_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lines.bin");
        let kept = KeptLines::open(&path, &[1, 2]);
        let w = kept.writer(&path, &[1, 2]).unwrap();
        w.put(1, b"\xff\xfe");
        w.put(2, b"second line");
        w.finish();
        let kept = KeptLines::open(&path, &[1, 2]);
        assert_eq!(kept.get(1), None);
        assert_eq!(kept.get(2), Some("second line"));
    }
}
