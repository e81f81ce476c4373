//! Reading the content files: papers a folder at a time (from the parse cache where a
//! file is unchanged), digests, and the markdown of both.

use super::PaperEntry;
use super::abstracts::{Abstract, Files, SpillWriter};
use super::parsed::{self, ParseCache, Stamp};
use crate::kept::RecordWriter;
use crate::manifest::{Fingerprint, Hasher};
use crate::paper::Week;
use crate::store::frontmatter::{self, DigestFront, PaperFront};
use anyhow::{Context, Result, anyhow, bail};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// What related papers and the search index read of a paper: id, title, abstract,
/// authors, categories and date.
fn corpus_hash(f: &PaperFront) -> Fingerprint {
    let mut h = Hasher::new();
    h.str(f.id.as_str())
        .str(&f.title)
        .str(&f.abstract_text)
        .str(&f.primary_category)
        .str(&f.published.to_rfc3339());
    h.num(f.authors.len() as u128);
    for a in &f.authors {
        h.str(a);
    }
    h.num(f.categories.len() as u128);
    for c in &f.categories {
        h.str(c);
    }
    h.finish()
}

/// The content files below `dir`: `.md`, not hidden (editors' and our own temporaries
/// are); and apart, the temporaries that killed runs left there.
pub(super) fn markdown_files(dir: &Path, within: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let mut markdown = Vec::new();
    let mut temporaries = Vec::new();
    for (rel, path) in crate::walk::files_below(dir, within)? {
        let name = rel.rsplit('/').next().unwrap_or(&rel);
        if name.ends_with(".md") && !name.starts_with('.') {
            markdown.push(path);
        } else if crate::walk::is_temporary(name) {
            temporaries.push(path);
        }
    }
    Ok((markdown, temporaries))
}

/// The site's folder, which links in `content/` must not leave.
pub(super) fn site_root(content_dir: &Path) -> &Path {
    match content_dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

pub fn markdown_to_html(md: &str) -> String {
    if md.trim().is_empty() {
        return String::new();
    }
    let mut opts = pulldown_cmark::Options::empty();
    opts.insert(pulldown_cmark::Options::ENABLE_TABLES);
    opts.insert(pulldown_cmark::Options::ENABLE_FOOTNOTES);
    opts.insert(pulldown_cmark::Options::ENABLE_STRIKETHROUGH);
    let parser = pulldown_cmark::Parser::new_ext(md, opts);
    let mut html = String::with_capacity(md.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, parser);
    html
}

pub(super) fn read_paper(path: &Path) -> Result<PaperEntry> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let split = frontmatter::split(&text, path)?;
    let mut front: PaperFront = frontmatter::parse(&split, path)?;
    let corpus_hash = corpus_hash(&front);
    Ok(PaperEntry {
        abstract_at: Abstract::Held(std::mem::take(&mut front.abstract_text)),
        corpus_hash,
        slug: front.id.slug(),
        body_html: markdown_to_html(split.body),
        front,
        source_path: path.to_path_buf(),
        content_hash: crate::manifest::of_bytes(text.as_bytes()),
    })
}

pub(super) struct DigestFile {
    pub week: Week,
    pub front: DigestFront,
    pub body_html: String,
    pub content_hash: Fingerprint,
}

pub(super) fn read_digest(path: &Path) -> Result<DigestFile> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let split = frontmatter::split(&text, path)?;
    let front: DigestFront = frontmatter::parse(&split, path)?;
    let week =
        Week::parse(&front.week).map_err(|e| anyhow!("{}:2: key `week`: {e}", path.display()))?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if stem != front.week {
        bail!(
            "{}: the file is named {stem} but says week = {:?}",
            path.display(),
            front.week
        );
    }
    Ok(DigestFile {
        week,
        front,
        body_html: markdown_to_html(split.body),
        content_hash: crate::manifest::of_bytes(text.as_bytes()),
    })
}

/// The first error in path order, so the same broken site always names the same file.
pub(super) fn collect_in_order<T: Send>(results: Vec<Result<T>>) -> Result<Vec<T>> {
    results.into_iter().collect()
}

/// The abstracts' files, by their numbers in `Files`: the temporary file abstracts are
/// spilled to, and the parse cache.
const SPILLED: u32 = 0;
const KEPT: u32 = 1;

/// Reads the paper files a folder at a time, from the cache where it has them, and when
/// `spill` moves each abstract parsed to a temporary file as soon as it is read, on the
/// thread that read it: a thread frees what it allocated, where the allocator takes it
/// back at once. Abstracts from the cache stay in its file. With a cache, what was parsed
/// is kept there for the next build.
pub(super) fn read_papers(
    papers_dir: &Path,
    files: &[PathBuf],
    spill: bool,
    cache: Option<&ParseCache>,
) -> Result<(Vec<PaperEntry>, Files)> {
    let writer = if spill {
        Some(Mutex::new(SpillWriter::new(SPILLED).context(SPILL_ERROR)?))
    } else {
        None
    };
    let mut folders: BTreeMap<String, Vec<&PathBuf>> = BTreeMap::new();
    for path in files {
        let folder = path
            .parent()
            .and_then(|p| p.strip_prefix(papers_dir).ok())
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        folders.entry(folder).or_default().push(path);
    }
    let folders: Vec<(String, Vec<&PathBuf>)> = folders.into_iter().collect();
    // Every file is stamped before any is read: the stamps are the keys of the cache's
    // records, and the writer of the next cache is given all the site's keys.
    let stamped: Vec<Vec<Option<(Fingerprint, Stamp)>>> = folders
        .par_iter()
        .map(|(folder, paths)| match cache {
            Some(_) => stamp_folder(folder, paths),
            None => vec![None; paths.len()],
        })
        .collect();
    let mut abstract_files = Files::default();
    let records = cache.and_then(|cache| {
        if let Some(file) = cache.file() {
            abstract_files.put(KEPT, file);
        }
        let keys: Vec<Fingerprint> = stamped.iter().flatten().flatten().map(|s| s.0).collect();
        cache.writer(&keys)
    });
    let mut papers = Vec::with_capacity(files.len());
    let now = std::time::SystemTime::now();
    let read = Read {
        cache,
        records: records.as_ref(),
        spill: writer.as_ref(),
        now,
    };
    for ((_, paths), stamped) in folders.iter().zip(&stamped) {
        papers.extend(read_folder(paths, stamped, &read)?);
    }
    if let Some(records) = records {
        records.finish();
    }
    if let Some(w) = writer {
        let w = w.into_inner().unwrap_or_else(PoisonError::into_inner);
        w.finish(&mut abstract_files).context(SPILL_ERROR)?;
    }
    Ok((papers, abstract_files))
}

const SPILL_ERROR: &str = "cannot write the abstracts to a temporary file (is TMPDIR writable?)";

/// Where `read_folder` takes parsed papers from and puts them.
struct Read<'a> {
    cache: Option<&'a ParseCache>,
    records: Option<&'a RecordWriter<'a>>,
    spill: Option<&'a Mutex<SpillWriter>>,
    now: std::time::SystemTime,
}

/// The key and stamp of each of a folder's files, looked up in the open folder; none where
/// a file cannot be stat-ed (reading it will say why).
fn stamp_folder(folder: &str, paths: &[&PathBuf]) -> Vec<Option<(Fingerprint, Stamp)>> {
    let dir = paths
        .first()
        .and_then(|p| p.parent())
        .and_then(|d| std::fs::File::open(d).ok());
    paths
        .par_iter()
        .map(|path| {
            let name = path.file_name()?;
            let stamp = match &dir {
                Some(dir) => Stamp::at(dir, name),
                None => Stamp::of(path),
            }
            .ok()?;
            let within = format!("{folder}/{}", name.to_string_lossy());
            Some((parsed::key(&within, stamp), stamp))
        })
        .collect()
}

/// The papers of one content folder: from the cache where it holds a file's stamp, parsed
/// otherwise. What was parsed goes to `records` once its file has settled; the stamp was
/// taken before the file was read, so a change while it is read shows next time.
fn read_folder(
    paths: &[&PathBuf],
    stamped: &[Option<(Fingerprint, Stamp)>],
    read: &Read,
) -> Result<Vec<PaperEntry>> {
    let entries: Vec<Option<parsed::Entry>> = match read.cache {
        Some(cache) => {
            let keys: Vec<Fingerprint> = stamped.iter().flatten().map(|s| s.0).collect();
            let mut found = cache.get(&keys).into_iter();
            stamped
                .iter()
                .map(|s| s.and_then(|_| found.next().flatten()))
                .collect()
        }
        None => paths.iter().map(|_| None).collect(),
    };
    collect_in_order(
        paths
            .par_iter()
            .zip(stamped)
            .zip(entries)
            .map(|((path, stamped), entry)| {
                if let Some(entry) = entry {
                    let (offset, len) = entry.abstract_at;
                    let at = Abstract::InFile {
                        file: KEPT,
                        offset,
                        len,
                    };
                    return Ok(entry.into_paper(path.to_path_buf(), at));
                }
                let mut paper = read_paper(path)?;
                let Abstract::Held(text) = &paper.abstract_at else {
                    return Ok(paper);
                };
                if let (Some(records), Some((key, stamp))) = (read.records, stamped)
                    && stamp.settled(read.now)
                    && let Some(record) = parsed::encode(&paper, text)
                {
                    records.put(*key, &record);
                }
                if let Some(spill) = read.spill {
                    let mut spill = spill.lock().unwrap_or_else(PoisonError::into_inner);
                    paper.abstract_at = spill.put(text).context(SPILL_ERROR)?;
                }
                Ok(paper)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three folders of two papers, their files a minute old (settled, for the cache).
    fn content(dir: &Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for (folder, ids) in [
            ("2601", ["2601.00001", "2601.00002"]),
            ("2602", ["2602.00001", "2602.00002"]),
            ("2603", ["2603.00001", "2603.00002"]),
        ] {
            std::fs::create_dir_all(dir.join(folder)).unwrap();
            for id in ids {
                let path = dir.join(folder).join(format!("{id}.md"));
                std::fs::write(
                    &path,
                    format!(
                        "+++\nid = \"{id}\"\ntitle = \"Paper {id}\"\npublished = 2026-01-05T00:00:00Z\nupdated = 2026-01-05T00:00:00Z\nabstract = \"The abstract of {id}.\"\n+++\n"
                    ),
                )
                .unwrap();
                let minute_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
                std::fs::File::options()
                    .write(true)
                    .open(&path)
                    .unwrap()
                    .set_modified(minute_ago)
                    .unwrap();
                files.push(path);
            }
        }
        files
    }

    fn abstracts(papers: &[PaperEntry], files: &Files) -> Vec<String> {
        papers
            .iter()
            .map(|p| p.abstract_at.text(files).unwrap().into_owned())
            .collect()
    }

    #[test]
    fn abstracts_from_the_cache_stay_in_its_file_and_parsed_ones_are_spilled() {
        let dir = tempfile::tempdir().unwrap();
        let papers_dir = dir.path().join("papers");
        let paper_files = content(&papers_dir);
        let path = dir.path().join("parsed.bin");
        let load = |spill| {
            read_papers(
                &papers_dir,
                &paper_files,
                spill,
                Some(&ParseCache::open(&path)),
            )
            .unwrap()
        };
        let (parsed, files) = load(false);
        assert!(
            parsed
                .iter()
                .all(|p| matches!(p.abstract_at, Abstract::Held(_)))
        );
        let expected = abstracts(&parsed, &files);
        assert_eq!(expected[0], "The abstract of 2601.00001.");

        let (cached, files) = load(false);
        assert!(
            cached
                .iter()
                .all(|p| matches!(p.abstract_at, Abstract::InFile { file: KEPT, .. }))
        );
        assert_eq!(abstracts(&cached, &files), expected);

        // Spilled: parsed abstracts go to the temporary file, cached ones stay.
        std::fs::write(
            &paper_files[0],
            read_to(&paper_files[0]).replace("The abstract", "An abstract"),
        )
        .unwrap();
        let (mixed, files) = load(true);
        assert!(matches!(
            mixed[0].abstract_at,
            Abstract::InFile { file: SPILLED, .. }
        ));
        assert!(matches!(
            mixed[1].abstract_at,
            Abstract::InFile { file: KEPT, .. }
        ));
        let mut changed = expected.clone();
        changed[0] = "An abstract of 2601.00001.".into();
        assert_eq!(abstracts(&mixed, &files), changed);
    }

    #[test]
    fn a_damaged_cache_record_is_parsed_again_and_the_cache_mended() {
        let dir = tempfile::tempdir().unwrap();
        let papers_dir = dir.path().join("papers");
        let paper_files = content(&papers_dir);
        let path = dir.path().join("parsed.bin");
        let load = || {
            read_papers(
                &papers_dir,
                &paper_files,
                false,
                Some(&ParseCache::open(&path)),
            )
        };
        let (parsed, files) = load().unwrap();
        let expected = abstracts(&parsed, &files);
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes
            .windows(12)
            .position(|w| w == b"The abstract")
            .unwrap();
        bytes[at] = b'A';
        std::fs::write(&path, bytes).unwrap();
        let (again, files) = load().unwrap();
        assert_eq!(abstracts(&again, &files), expected);
        let parsed_again = again
            .iter()
            .filter(|p| matches!(p.abstract_at, Abstract::Held(_)))
            .count();
        assert_eq!(parsed_again, 1, "only the damaged record's paper is parsed");
        // Mended: the next load takes every paper from the cache, as they are.
        let (mended, files) = load().unwrap();
        assert!(
            mended
                .iter()
                .all(|p| matches!(p.abstract_at, Abstract::InFile { file: KEPT, .. }))
        );
        assert_eq!(abstracts(&mended, &files), expected);
    }

    fn read_to(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap()
    }
}
