//! Paper files as the last build parsed them, so that the next build reads only the files
//! that changed. Parsing front matter is most of what loading a large site costs, and a
//! week's fetch touches a few thousand of its files.
//!
//! One file per content folder (`.cache/parsed/<hash of the folder>.bin`): a JSON header
//! line, the folder's abstracts one after another, then the entries in postcard, in chunks
//! decoded on all cores. An entry holds the paper file's size, modification time and
//! inode, what parsing it gave, and where its abstract is. It is used only when all three
//! still match and the binary is the one that wrote it; anything unreadable is a miss,
//! never an error. A folder's file is rewritten, whole and atomically, when any of its
//! entries missed. The abstracts are not read with the entries: the papers point into the
//! file, which stays open for the build.

use super::PaperEntry;
use super::abstracts::{Abstract, Files};
use crate::manifest::Fingerprint;
use crate::store::frontmatter::PaperFront;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Bumped when what an entry holds changes.
const FORMAT: u32 = 5;

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
        Ok(Stamp::of_stat(rustix::fs::stat(path)?))
    }

    /// The stamp of `name` in the open folder `dir`: the kernel looks up one name, not
    /// every folder on the way to it, which was most of what stamping a site cost.
    pub fn at(dir: impl std::os::fd::AsFd, name: &std::ffi::OsStr) -> std::io::Result<Stamp> {
        Ok(Stamp::of_stat(rustix::fs::statat(
            dir,
            name,
            rustix::fs::AtFlags::empty(),
        )?))
    }

    fn of_stat(st: rustix::fs::Stat) -> Stamp {
        // The field types differ between architectures.
        #[allow(clippy::unnecessary_cast)]
        Stamp {
            len: st.st_size as u64,
            mtime_ns: st.st_mtime as i128 * 1_000_000_000 + st.st_mtime_nsec as i128,
            ino: st.st_ino as u64,
        }
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

/// One parsed paper file, as stored: `S` is `String` when read, `&str` when written.
#[derive(Serialize, Deserialize)]
struct Record<S> {
    name: S,
    stamp: Stamp,
    content_hash: Fingerprint,
    corpus_hash: Fingerprint,
    body_html: S,
    /// Offset (from the start of the abstracts) and length.
    abstract_at: (u64, u32),
    front: Front<S>,
}

/// A paper's front matter without its abstract, in plain values: postcard does not
/// describe what it stores, and `PaperFront`'s own `Deserialize` asks the format what a
/// value is (a date may be a string or a TOML date).
#[derive(Serialize, Deserialize)]
struct Front<S> {
    id: S,
    version: u32,
    title: S,
    authors: Vec<S>,
    /// Seconds and nanoseconds since 1970.
    published: (i64, u32),
    updated: (i64, u32),
    announced: Option<(i64, u32)>,
    primary_category: S,
    categories: Vec<S>,
    comment: S,
    journal_ref: S,
    doi: S,
    source: S,
    links: [S; 2],
    review: (S, S, Vec<S>, S, S),
    license: S,
    classes: Vec<S>,
    machine: Option<MachineRow<S>>,
    /// As JSON.
    extra: Option<String>,
}

/// `Machine` in plain values; `checked` as days since 1970.
#[derive(Serialize, Deserialize)]
struct MachineRow<S> {
    text: [S; 2],
    badges: Vec<S>,
    code: S,
    figure: [S; 3],
    size: (u32, u32),
    by: S,
    reviewed_version: u32,
    html: S,
    checked: Option<i64>,
}

fn instant(t: &chrono::DateTime<chrono::Utc>) -> (i64, u32) {
    (t.timestamp(), t.timestamp_subsec_nanos())
}

fn from_instant((secs, nanos): (i64, u32)) -> Option<chrono::DateTime<chrono::Utc>> {
    chrono::DateTime::from_timestamp(secs, nanos)
}

impl<'a> Front<&'a str> {
    fn of(f: &'a PaperFront) -> Front<&'a str> {
        let strs = |v: &'a [String]| v.iter().map(String::as_str).collect();
        let r = &f.review;
        Front {
            id: f.id.as_str(),
            version: f.version,
            title: &f.title,
            authors: strs(&f.authors),
            published: instant(&f.published),
            updated: instant(&f.updated),
            announced: f.announced.as_ref().map(instant),
            primary_category: &f.primary_category,
            categories: strs(&f.categories),
            comment: &f.comment,
            journal_ref: &f.journal_ref,
            doi: &f.doi,
            source: &f.source,
            links: [&f.links.abs, &f.links.pdf],
            review: (
                &r.headline,
                &r.summary,
                strs(&r.badges),
                &r.figure,
                &r.figure_caption,
            ),
            license: f.license.as_str(),
            classes: strs(&f.classes),
            machine: f.machine.as_ref().map(|m| MachineRow {
                text: [m.headline.as_str(), m.summary.as_str()],
                badges: strs(&m.badges),
                code: m.code.as_str(),
                figure: [
                    m.figure.as_str(),
                    m.figure_caption.as_str(),
                    m.figure_source.as_str(),
                ],
                size: (m.figure_width, m.figure_height),
                by: m.by.as_str(),
                reviewed_version: m.reviewed_version,
                html: m.html.as_str(),
                checked: m.checked.map(|d| {
                    d.signed_duration_since(chrono::NaiveDate::default())
                        .num_days()
                }),
            }),
            extra: f.extra.as_ref().map(|v| v.to_string()),
        }
    }
}

impl Front<String> {
    /// The front matter, or none where a value is out of range (a damaged cache).
    fn into_front(self) -> Option<PaperFront> {
        let [abs, pdf] = self.links;
        let (headline, summary, badges, figure, figure_caption) = self.review;
        Some(PaperFront {
            id: crate::paper::PaperId::try_from(self.id).ok()?,
            version: self.version,
            title: self.title,
            authors: self.authors,
            published: from_instant(self.published)?,
            updated: from_instant(self.updated)?,
            announced: match self.announced {
                Some(t) => Some(from_instant(t)?),
                None => None,
            },
            primary_category: self.primary_category,
            categories: self.categories,
            abstract_text: String::new(),
            comment: self.comment,
            journal_ref: self.journal_ref,
            doi: self.doi,
            source: self.source,
            links: crate::paper::Links { abs, pdf },
            review: crate::store::frontmatter::Review {
                headline,
                summary,
                badges,
                figure,
                figure_caption,
            },
            license: self.license,
            classes: self.classes,
            machine: match self.machine {
                Some(m) => {
                    let [headline, summary] = m.text;
                    let [figure, figure_caption, figure_source] = m.figure;
                    Some(crate::store::frontmatter::Machine {
                        headline,
                        summary,
                        badges: m.badges,
                        code: m.code,
                        figure,
                        figure_caption,
                        figure_width: m.size.0,
                        figure_height: m.size.1,
                        figure_source,
                        by: m.by,
                        reviewed_version: m.reviewed_version,
                        html: m.html,
                        checked: match m.checked {
                            Some(days) => Some(
                                chrono::NaiveDate::default()
                                    .checked_add_signed(chrono::Duration::try_days(days)?)?,
                            ),
                            None => None,
                        },
                    })
                }
                None => None,
            },
            extra: match self.extra {
                Some(json) => Some(serde_json::from_str(&json).ok()?),
                None => None,
            },
        })
    }
}

/// One kept paper file.
pub struct Entry {
    stamp: Stamp,
    content_hash: Fingerprint,
    corpus_hash: Fingerprint,
    body_html: String,
    abstract_at: (u64, u32),
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

/// Entries are stored in chunks of this many, each decoded on its own core.
const CHUNK: usize = 512;

/// A folder's kept entries with their file names, sorted by name, and the open file
/// that holds their abstracts.
pub struct Kept {
    pub entries: Vec<(String, Entry)>,
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
        self.dir.join(format!("{hash:016x}.bin"))
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
        // Chunks: a little-endian u32 length, then a postcard list of records.
        let mut chunks = Vec::new();
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let (len, tail) = rest.split_first_chunk::<4>()?;
            let len = u32::from_le_bytes(*len) as usize;
            chunks.push(tail.get(..len)?);
            rest = &tail[len..];
        }
        let end = header.abstracts_len;
        let entry = |r: Record<String>| -> Option<(String, Entry)> {
            // An abstract outside the abstracts would be read as something else.
            if r.abstract_at.0 + u64::from(r.abstract_at.1) > end {
                return None;
            }
            let entry = Entry {
                stamp: r.stamp,
                content_hash: r.content_hash,
                corpus_hash: r.corpus_hash,
                body_html: r.body_html,
                abstract_at: r.abstract_at,
                front: r.front.into_front()?,
            };
            Some((r.name, entry))
        };
        let decoded: Vec<Vec<(String, Entry)>> = chunks
            .par_iter()
            .map(|c| {
                let records: Vec<Record<String>> = postcard::from_bytes(c).ok()?;
                records.into_iter().map(entry).collect()
            })
            .collect::<Option<_>>()?;
        let mut entries: Vec<(String, Entry)> = decoded.into_iter().flatten().collect();
        // Saved in the folder's order, which is by name; a file that says otherwise is
        // put in order rather than trusted.
        if !entries.is_sorted_by(|a, b| a.0 <= b.0) {
            entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        }
        Some(Kept {
            entries,
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
            // Serialized on all cores, a chunk at a time, and written in order.
            let chunks: Vec<Vec<u8>> = papers
                .par_chunks(CHUNK)
                .zip(at.par_chunks(CHUNK))
                .map(|(slice, at)| {
                    let names: Vec<std::borrow::Cow<str>> = slice
                        .iter()
                        .map(|(_, _, name)| name.to_string_lossy())
                        .collect();
                    let records: Vec<Record<&str>> = slice
                        .iter()
                        .zip(at)
                        .zip(&names)
                        .map(|((&(stamp, paper, _), &abstract_at), name)| Record {
                            name: name.as_ref(),
                            stamp,
                            content_hash: paper.content_hash,
                            corpus_hash: paper.corpus_hash,
                            body_html: &paper.body_html,
                            abstract_at,
                            front: Front::of(&paper.front),
                        })
                        .collect();
                    postcard::to_stdvec(&records).map_err(std::io::Error::other)
                })
                .collect::<std::io::Result<_>>()?;
            for chunk in chunks {
                let len = u32::try_from(chunk.len()).map_err(std::io::Error::other)?;
                out.write_all(&len.to_le_bytes())?;
                out.write_all(&chunk)?;
            }
            let file = out.into_inner().map_err(|e| e.into_error())?;
            file.persist(self.path(folder)).map_err(|e| e.error)?;
            Ok(())
        };
        let _ = write();
    }
}
