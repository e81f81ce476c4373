//! Paper files as the last build parsed them, so that the next build reads only the files
//! that changed. Parsing front matter is most of what loading a large site costs, and a
//! week's fetch touches a few thousand of its files.
//!
//! One file per content folder (`.cache/parsed/<hash of the folder>.jsonl`): a header line,
//! then one line per paper file with the file's size, modification time and inode and what
//! parsing it gave. An entry is used only when all three still match and the binary is
//! the one that wrote it; anything unreadable is a miss, never an error. A folder's file
//! is rewritten, whole and atomically, when any of its entries missed.

use super::PaperEntry;
use super::abstracts::Abstract;
use crate::manifest::Fingerprint;
use crate::store::frontmatter::PaperFront;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Bumped when what an entry holds changes.
const FORMAT: u32 = 1;

/// A file changed this recently may change again within the same timestamp; such an
/// entry is not written, and the file is parsed again next time.
const SETTLED_AFTER: Duration = Duration::from_secs(2);

/// What identifies one version of a file without reading it.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Debug)]
pub struct Stamp {
    len: u64,
    mtime_ns: i128,
    ino: u64,
}

impl Stamp {
    pub fn of(path: &Path) -> std::io::Result<Stamp> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path)?;
        Ok(Stamp {
            len: m.len(),
            mtime_ns: m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128,
            ino: m.ino(),
        })
    }

    fn settled(&self, now: SystemTime) -> bool {
        let now_ns = now
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos() as i128)
            .unwrap_or(0);
        self.mtime_ns + (SETTLED_AFTER.as_nanos() as i128) < now_ns
    }
}

#[derive(Serialize, Deserialize)]
struct Header {
    format: u32,
    binary: String,
    folder: String,
}

/// One parsed paper file.
#[derive(Serialize, Deserialize)]
pub struct Entry {
    name: String,
    stamp: Stamp,
    content_hash: Fingerprint,
    corpus_hash: Fingerprint,
    body_html: String,
    abstract_text: String,
    /// With an empty abstract: it is in `abstract_text`.
    front: PaperFront,
}

impl Entry {
    pub fn stamp(&self) -> Stamp {
        self.stamp
    }

    pub fn into_paper(self, path: PathBuf) -> PaperEntry {
        PaperEntry {
            slug: self.front.id.slug(),
            front: self.front,
            abstract_at: Abstract::Held(self.abstract_text),
            body_html: self.body_html,
            source_path: path,
            content_hash: self.content_hash,
            corpus_hash: self.corpus_hash,
        }
    }
}

/// The entry of `paper` as written, borrowing it.
#[derive(Serialize)]
struct EntryRef<'a> {
    name: &'a str,
    stamp: Stamp,
    content_hash: Fingerprint,
    corpus_hash: Fingerprint,
    body_html: &'a str,
    abstract_text: &'a str,
    front: &'a PaperFront,
}

/// Where parsed files are kept.
pub struct ParseCache {
    dir: PathBuf,
}

impl ParseCache {
    pub fn new(dir: PathBuf) -> ParseCache {
        ParseCache { dir }
    }

    fn path(&self, folder: &str) -> PathBuf {
        let hash = xxhash_rust::xxh3::xxh3_64(folder.as_bytes());
        self.dir.join(format!("{hash:016x}.jsonl"))
    }

    /// The entries kept for the files of `folder` (relative to `content/papers`), by file
    /// name.
    pub fn load(&self, folder: &str) -> HashMap<String, Entry> {
        use rayon::prelude::*;
        let Ok(bytes) = std::fs::read(self.path(folder)) else {
            return HashMap::new();
        };
        // serde_json escapes newlines inside strings: every line is one value.
        let mut lines = bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty());
        let header: Option<Header> = lines.next().and_then(|l| serde_json::from_slice(l).ok());
        match header {
            Some(h)
                if h.format == FORMAT
                    && h.binary == crate::manifest::binary_identity()
                    && h.folder == folder => {}
            _ => return HashMap::new(),
        }
        let lines: Vec<&[u8]> = lines.collect();
        let entries: Option<Vec<Entry>> = lines
            .par_iter()
            .map(|l| serde_json::from_slice::<Entry>(l).ok())
            .collect();
        entries
            .unwrap_or_default()
            .into_iter()
            .map(|e| (e.name.clone(), e))
            .collect()
    }

    /// Rewrites the entries of `folder`: (stamp taken before the file was read, paper).
    /// Failing to write only costs the next build some parsing.
    pub fn save(&self, folder: &str, papers: &[(Stamp, &PaperEntry)]) {
        use rayon::prelude::*;
        let now = SystemTime::now();
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(&self.dir)?;
            let mut out = std::io::BufWriter::new(tempfile::NamedTempFile::new_in(&self.dir)?);
            serde_json::to_writer(
                &mut out,
                &Header {
                    format: FORMAT,
                    binary: crate::manifest::binary_identity(),
                    folder: folder.to_string(),
                },
            )?;
            out.write_all(b"\n")?;
            // Serialized on all cores, a slice at a time, and written in order.
            let slices: Vec<Vec<u8>> = papers
                .par_chunks(1024)
                .map(|slice| {
                    let mut bytes = Vec::new();
                    for &(stamp, paper) in slice {
                        let (Abstract::Held(abstract_text), Some(name)) =
                            (&paper.abstract_at, paper.source_path.file_name())
                        else {
                            continue;
                        };
                        if !stamp.settled(now) {
                            continue;
                        }
                        serde_json::to_writer(
                            &mut bytes,
                            &EntryRef {
                                name: &name.to_string_lossy(),
                                stamp,
                                content_hash: paper.content_hash,
                                corpus_hash: paper.corpus_hash,
                                body_html: &paper.body_html,
                                abstract_text,
                                front: &paper.front,
                            },
                        )?;
                        bytes.push(b'\n');
                    }
                    Ok(bytes)
                })
                .collect::<std::io::Result<_>>()?;
            for bytes in slices {
                out.write_all(&bytes)?;
            }
            let file = out.into_inner().map_err(|e| e.into_error())?;
            file.persist(self.path(folder)).map_err(|e| e.error)?;
            Ok(())
        };
        let _ = write();
    }
}
