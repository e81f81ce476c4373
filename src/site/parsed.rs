//! Paper files as the last build parsed them, so that the next build reads only the files
//! that changed. Parsing front matter is most of what loading a large site costs, and a
//! week's fetch touches a few thousand of its files.
//!
//! Kept records (`crate::kept`) in `.cache/parsed.bin`, each under a fingerprint of the
//! paper file's path (within `content/papers`) and stamp: its size, modification time and
//! inode. A record found under that key is what parsing the file again would give; a file
//! changed is a new key. A record is `len: u32`, what parsing gave (postcard, `len` bytes),
//! then the abstract. The abstracts are checked with the rest but not held: the papers
//! point into the file, which stays open for the build.

use super::PaperEntry;
use crate::kept::{KeptRecords, RecordWriter};
use crate::manifest::{Fingerprint, Hasher};
use crate::store::frontmatter::PaperFront;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::{Duration, SystemTime};

/// Bumped with what a record holds; the binary's identity in the file's header already
/// keeps another paperboy's records from being read.
const MAGIC: &[u8; 8] = b"pbparse6";
/// A file changed this recently may change again within the same timestamp; such an
/// entry is not written, and the file is parsed again next time.
const SETTLED_AFTER: Duration = Duration::from_secs(2);

/// What identifies one version of a file without reading it.
#[derive(Clone, Copy)]
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

    /// Whether the file is old enough for its stamp to say it is unchanged.
    pub fn settled(&self, now: SystemTime) -> bool {
        let now_ns = now
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos() as i128)
            .unwrap_or(0);
        self.mtime_ns + (SETTLED_AFTER.as_nanos() as i128) < now_ns
    }
}

/// What parsing one paper file gave, as stored: `S` is `String` when read, `&str` when
/// written.
#[derive(Serialize, Deserialize)]
struct Record<S> {
    content_hash: Fingerprint,
    corpus_hash: Fingerprint,
    body_html: S,
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
        let r = f.people_review();
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
        let review = crate::store::frontmatter::Review {
            headline,
            summary,
            badges,
            figure,
            figure_caption,
        };
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
            review: (review != Default::default()).then(|| Box::new(review)),
            license: self.license,
            classes: self.classes,
            machine: match self.machine {
                Some(m) => {
                    let [headline, summary] = m.text;
                    let [figure, figure_caption, figure_source] = m.figure;
                    Some(Box::new(crate::store::frontmatter::Machine {
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
                    }))
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

/// The key of a paper file's record: its path within `content/papers` and its stamp.
pub fn key(path: &str, stamp: Stamp) -> Fingerprint {
    let mut h = Hasher::new();
    h.str(path)
        .num(u128::from(stamp.len))
        .num(stamp.mtime_ns as u128)
        .num(u128::from(stamp.ino));
    h.finish()
}

/// One kept paper file: what parsing it gave, and where its abstract is in the kept file.
pub struct Entry {
    content_hash: Fingerprint,
    corpus_hash: Fingerprint,
    body_html: String,
    front: PaperFront,
    /// Offset in the file and length.
    pub abstract_at: (u64, u32),
}

impl Entry {
    pub fn into_paper(
        self,
        path: std::path::PathBuf,
        abstract_at: super::abstracts::Abstract,
    ) -> PaperEntry {
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

/// The paper files the last build parsed, open for reading.
pub struct ParseCache {
    path: std::path::PathBuf,
    records: Option<KeptRecords>,
}

impl ParseCache {
    /// The records in `path`; an empty cache when there are none this binary can read.
    pub fn open(path: &Path) -> ParseCache {
        ParseCache {
            path: path.to_path_buf(),
            records: KeptRecords::open(path, MAGIC),
        }
    }

    /// The file the abstracts of its entries are in, when it has any.
    pub fn file(&self) -> Option<std::fs::File> {
        self.records.as_ref()?.file().try_clone().ok()
    }

    /// The entries under `keys`, where there are any that are whole.
    pub fn get(&self, keys: &[Fingerprint]) -> Vec<Option<Entry>> {
        match &self.records {
            Some(records) => records.get(keys, decode),
            None => keys.iter().map(|_| None).collect(),
        }
    }

    /// A writer for the entries of this build's files, `keys` (all the site's, now).
    pub fn writer(&self, keys: &[Fingerprint]) -> Option<RecordWriter<'_>> {
        RecordWriter::new(&self.path, MAGIC, self.records.as_ref(), keys)
    }
}

/// One record, which starts at `offset` in the file.
fn decode(record: &[u8], offset: u64) -> Option<Entry> {
    let (len, rest) = record.split_first_chunk::<4>()?;
    let len = u32::from_le_bytes(*len) as usize;
    let parsed = rest.get(..len)?;
    let abstract_len = u32::try_from(rest.len() - len).ok()?;
    let r: Record<String> = postcard::from_bytes(parsed).ok()?;
    Some(Entry {
        content_hash: r.content_hash,
        corpus_hash: r.corpus_hash,
        body_html: r.body_html,
        front: r.front.into_front()?,
        abstract_at: (offset + 4 + len as u64, abstract_len),
    })
}

/// The record of `paper` whose abstract is `abstract_text`.
pub fn encode(paper: &PaperEntry, abstract_text: &str) -> Option<Vec<u8>> {
    let parsed = postcard::to_stdvec(&Record {
        content_hash: paper.content_hash,
        corpus_hash: paper.corpus_hash,
        body_html: paper.body_html.as_str(),
        front: Front::of(&paper.front),
    })
    .ok()?;
    let mut record = Vec::with_capacity(4 + parsed.len() + abstract_text.len());
    record.extend(u32::try_from(parsed.len()).ok()?.to_le_bytes());
    record.extend(parsed);
    record.extend(abstract_text.as_bytes());
    Some(record)
}
