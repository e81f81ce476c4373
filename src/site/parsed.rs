//! Paper files as the last build parsed them, so that the next build reads only the files
//! that changed. Parsing front matter is most of what loading a large site costs, and a
//! week's fetch touches a few thousand of its files.
//!
//! One file per content folder (`.cache/parsed/<hash of the folder>.jsonl`): a header line,
//! the folder's abstracts one after another, then one line per paper file with the file's
//! size, modification time and inode, what parsing it gave, and where its abstract is. An
//! entry is used only when all three still match and the binary is the one that wrote it;
//! anything unreadable is a miss, never an error. A folder's file is rewritten, whole and
//! atomically, when any of its entries missed. The abstracts are not read with the entries:
//! the papers point into the file, which stays open for the build.

use super::PaperEntry;
use super::abstracts::{Abstract, Files};
use crate::manifest::Fingerprint;
use crate::store::frontmatter::PaperFront;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Bumped when what an entry holds changes.
const FORMAT: u32 = 2;

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
    /// The abstracts' bytes, right after this line.
    abstracts_len: u64,
}

/// One parsed paper file.
#[derive(Serialize, Deserialize)]
pub struct Entry {
    name: String,
    stamp: Stamp,
    content_hash: Fingerprint,
    corpus_hash: Fingerprint,
    body_html: String,
    /// Offset (from the start of the abstracts) and length.
    abstract_at: (u64, u32),
    /// With an empty abstract: it is at `abstract_at`.
    front: PaperFront,
}

impl Entry {
    pub fn stamp(&self) -> Stamp {
        self.stamp
    }

    pub fn into_paper(self, path: PathBuf, abstract_at: Abstract) -> PaperEntry {
        PaperEntry {
            slug: self.front.id.slug(),
            front: self.front,
            abstract_at,
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
    abstract_at: (u64, u32),
    front: &'a PaperFront,
}

/// A folder's kept entries, by file name, and the open file that holds their abstracts.
pub struct Kept {
    pub entries: HashMap<String, Entry>,
    file: std::fs::File,
    abstracts_at: u64,
}

impl Kept {
    /// Where `entry`'s abstract is once this file is number `file` of the site's `Files`.
    pub fn abstract_of(&self, entry: &Entry, file: u32) -> Abstract {
        Abstract::InFile {
            file,
            offset: self.abstracts_at + entry.abstract_at.0,
            len: entry.abstract_at.1,
        }
    }

    /// The file that holds the abstracts.
    pub fn into_file(self) -> std::fs::File {
        self.file
    }
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
    /// name, with their abstracts left in the file.
    pub fn load(&self, folder: &str) -> Option<Kept> {
        use rayon::prelude::*;
        use std::io::{BufRead, Read};
        let mut file = std::io::BufReader::new(std::fs::File::open(self.path(folder)).ok()?);
        let mut line = Vec::new();
        file.read_until(b'\n', &mut line).ok()?;
        let header: Header = serde_json::from_slice(&line).ok()?;
        if header.format != FORMAT
            || header.binary != crate::manifest::binary_identity()
            || header.folder != folder
        {
            return None;
        }
        let abstracts_at = line.len() as u64;
        let mut file = file.into_inner();
        std::io::Seek::seek(
            &mut file,
            std::io::SeekFrom::Start(abstracts_at + header.abstracts_len),
        )
        .ok()?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).ok()?;
        // serde_json escapes newlines inside strings: every line is one value.
        let lines: Vec<&[u8]> = bytes
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        let entries: Vec<Entry> = lines
            .par_iter()
            .map(|l| serde_json::from_slice::<Entry>(l).ok())
            .collect::<Option<_>>()?;
        // An abstract outside the abstracts would be read as something else.
        let end = header.abstracts_len;
        if entries
            .iter()
            .any(|e| e.abstract_at.0 + u64::from(e.abstract_at.1) > end)
        {
            return None;
        }
        Some(Kept {
            entries: entries.into_iter().map(|e| (e.name.clone(), e)).collect(),
            file,
            abstracts_at,
        })
    }

    /// Rewrites the entries of `folder`: (stamp taken before the file was read, paper),
    /// reading from `files` the abstracts that are not in memory. Failing to write only
    /// costs the next build some parsing.
    pub fn save(&self, folder: &str, papers: &[(Stamp, &PaperEntry)], files: &Files) {
        use rayon::prelude::*;
        let now = SystemTime::now();
        let write = || -> std::io::Result<()> {
            let papers: Vec<(Stamp, &PaperEntry, &std::ffi::OsStr)> = papers
                .iter()
                .filter(|(stamp, _)| stamp.settled(now))
                .filter_map(|&(stamp, p)| Some((stamp, p, p.source_path.file_name()?)))
                .collect();
            let texts: Vec<std::borrow::Cow<str>> = papers
                .par_iter()
                .map(|(_, p, _)| p.abstract_at.text(files))
                .collect::<std::io::Result<_>>()?;
            let mut at = Vec::with_capacity(texts.len());
            let mut abstracts_len = 0u64;
            for t in &texts {
                let len = u32::try_from(t.len()).map_err(std::io::Error::other)?;
                at.push((abstracts_len, len));
                abstracts_len += u64::from(len);
            }
            std::fs::create_dir_all(&self.dir)?;
            let mut out = std::io::BufWriter::new(tempfile::NamedTempFile::new_in(&self.dir)?);
            serde_json::to_writer(
                &mut out,
                &Header {
                    format: FORMAT,
                    binary: crate::manifest::binary_identity(),
                    folder: folder.to_string(),
                    abstracts_len,
                },
            )?;
            out.write_all(b"\n")?;
            for t in &texts {
                out.write_all(t.as_bytes())?;
            }
            // Serialized on all cores, a slice at a time, and written in order.
            let slices: Vec<Vec<u8>> = papers
                .par_chunks(1024)
                .zip(at.par_chunks(1024))
                .map(|(slice, at)| {
                    let mut bytes = Vec::new();
                    for (&(stamp, paper, name), &abstract_at) in slice.iter().zip(at) {
                        serde_json::to_writer(
                            &mut bytes,
                            &EntryRef {
                                name: &name.to_string_lossy(),
                                stamp,
                                content_hash: paper.content_hash,
                                corpus_hash: paper.corpus_hash,
                                body_html: &paper.body_html,
                                abstract_at,
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
