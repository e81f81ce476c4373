//! Reading the content files: papers a folder at a time (from the parse cache where a
//! file is unchanged), digests, and the markdown of both.

use super::PaperEntry;
use super::abstracts::{self, Abstract, Files, SpillWriter};
use super::parsed::{self, ParseCache};
use crate::manifest::{Fingerprint, Hasher};
use crate::paper::Week;
use crate::store::frontmatter::{self, DigestFront, PaperFront};
use anyhow::{Context, Result, anyhow, bail};
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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

/// Folders whose parse cache files stay open for their abstracts; the abstracts of any
/// more are read with the entries, well below the usual limit of 1,024 open files.
pub(super) const CACHE_FILES_KEPT_OPEN: usize = 400;

/// Reads the paper files a folder at a time, from the cache where it has them, and when
/// `spill` moves the abstracts parsed from each folder to a temporary file (while the next
/// folder is read), so that only two folders' are ever in memory. Abstracts from the
/// cache stay in its files.
pub(super) fn read_papers(
    papers_dir: &Path,
    files: &[PathBuf],
    spill: bool,
    cache: Option<&ParseCache>,
    kept_open: usize,
) -> Result<(Vec<PaperEntry>, Files)> {
    let spill_error = || "cannot write the abstracts to a temporary file (is TMPDIR writable?)";
    // File 0 is the temporary file, file k + 1 folder k's cache file.
    let mut writer = if spill {
        Some(SpillWriter::new(0).with_context(spill_error)?)
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
    let mut papers = Vec::with_capacity(files.len());
    let mut abstract_files = Files::default();
    let mut keep = |(read, file): ReadFolder| -> Result<()> {
        for mut p in read {
            if let Some(writer) = writer.as_mut()
                && let Abstract::Held(text) = &p.abstract_at
            {
                p.abstract_at = writer.put(text).with_context(spill_error)?;
            }
            papers.push(p);
        }
        if let Some((at, file)) = file {
            abstract_files.put(at, file);
        }
        Ok(())
    };
    let mut previous: Option<ReadFolder> = None;
    for (k, (folder, paths)) in folders.iter().enumerate() {
        let file_no = (k < kept_open).then_some(k as u32 + 1);
        let (kept, read) = rayon::join(
            || previous.take().map(&mut keep).transpose(),
            || read_folder(folder, paths, cache, file_no),
        );
        kept?;
        previous = Some(read?);
    }
    previous.map(&mut keep).transpose()?;
    if let Some(w) = writer {
        w.finish(&mut abstract_files).with_context(spill_error)?;
    }
    Ok((papers, abstract_files))
}

/// A folder's papers, and the cache file their abstracts are in (with its number).
type ReadFolder = (Vec<PaperEntry>, Option<(u32, std::fs::File)>);

/// The papers of one content folder: from the cache when a file's stamp is the one it
/// recorded, parsed otherwise; the folder's cache is rewritten when anything missed. With
/// `file_no`, abstracts from the cache are left in its file, which becomes that number.
fn read_folder(
    folder: &str,
    paths: &[&PathBuf],
    cache: Option<&ParseCache>,
    file_no: Option<u32>,
) -> Result<ReadFolder> {
    let mut kept = cache.and_then(|c| c.load(folder));
    let entries = kept
        .as_mut()
        .map(|k| std::mem::take(&mut k.entries))
        .unwrap_or_default();
    // The cache file is read through `files` until it is handed over: number 0 stands in
    // when it is not to stay open.
    let at = file_no.unwrap_or(0);
    // Both lists are sorted by file name: they are matched in one pass.
    let mut entries = entries.into_iter().peekable();
    let mut unused_entries = 0;
    let jobs: Vec<(&PathBuf, Option<parsed::Entry>)> = paths
        .iter()
        .map(|&p| {
            let name = p.file_name().map(|n| n.to_string_lossy());
            let name = name.as_deref().unwrap_or("");
            while entries.next_if(|(kept, _)| kept.as_str() < name).is_some() {
                unused_entries += 1;
            }
            let entry = entries.next_if(|(kept, _)| kept == name).map(|(_, e)| e);
            (p, entry)
        })
        .collect();
    unused_entries += entries.count();
    // Only a build that keeps a cache needs the stamps. A folder that cannot be opened is
    // stamped through full paths.
    let dir = cache
        .and_then(|_| paths.first()?.parent())
        .and_then(|d| std::fs::File::open(d).ok());
    let stamp = |path: &Path| -> Option<parsed::Stamp> {
        cache?;
        match (&dir, path.file_name()) {
            (Some(dir), Some(name)) => parsed::Stamp::at(dir, name).ok(),
            _ => parsed::Stamp::of(path).ok(),
        }
    };
    let mut read: Vec<(Option<parsed::Stamp>, PaperEntry, bool)> = collect_in_order(
        jobs.into_par_iter()
            .map(|(path, entry)| {
                // The stamp is taken before the file is read: a change while it is read
                // shows next time.
                let stamp = stamp(path);
                if let (Some(stamp), Some(entry), Some(kept)) = (stamp, entry, kept.as_ref())
                    && entry.stamp() == stamp
                {
                    let abstract_at = kept.abstract_of(&entry, at);
                    return Ok((
                        Some(stamp),
                        entry.into_paper(path.clone(), abstract_at),
                        true,
                    ));
                }
                Ok((stamp, read_paper(path)?, false))
            })
            .collect(),
    )?;
    let mut files = Files::default();
    if let Some(kept) = kept {
        files.put(at, kept.into_file());
    }
    if file_no.is_none() {
        // Read now, while the file is at hand: they lie together in it, and come in one read.
        let in_file: Vec<&Abstract> = read
            .iter()
            .map(|(_, paper, _)| &paper.abstract_at)
            .filter(|a| matches!(a, Abstract::InFile { .. }))
            .collect();
        let texts: Option<Vec<String>> = abstracts::texts(&in_file, &files)
            .ok()
            .map(|texts| texts.into_iter().map(Cow::into_owned).collect());
        match texts {
            Some(texts) => {
                let mut texts = texts.into_iter();
                for (_, paper, _) in &mut read {
                    if let Abstract::InFile { .. } = paper.abstract_at {
                        paper.abstract_at =
                            Abstract::Held(texts.next().expect("one text per abstract"));
                    }
                }
            }
            // A damaged cache: its papers are parsed again, and the cache rewritten.
            None => {
                for (_, paper, hit) in &mut read {
                    if let Abstract::InFile { .. } = paper.abstract_at {
                        *paper = read_paper(&paper.source_path)?;
                        *hit = false;
                    }
                }
            }
        }
    }
    if let Some(cache) = cache
        && (unused_entries > 0 || read.iter().any(|(_, _, hit)| !hit))
    {
        let stamped: Vec<(parsed::Stamp, &PaperEntry)> = read
            .iter()
            .filter_map(|(stamp, paper, _)| Some(((*stamp)?, paper)))
            .collect();
        cache.save(folder, &stamped, &files);
    }
    let file = file_no.and_then(|at| Some((at, files.take(at)?)));
    Ok((read.into_iter().map(|(_, paper, _)| paper).collect(), file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::parsed::ParseCache;

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
    fn abstracts_from_the_cache_stay_in_its_files_up_to_a_number_of_folders() {
        let dir = tempfile::tempdir().unwrap();
        let papers_dir = dir.path().join("papers");
        let paper_files = content(&papers_dir);
        let cache = ParseCache::new(dir.path().join("cache"));
        let (parsed, files) =
            read_papers(&papers_dir, &paper_files, false, Some(&cache), 2).unwrap();
        assert!(
            parsed
                .iter()
                .all(|p| matches!(p.abstract_at, Abstract::Held(_)))
        );
        let expected = abstracts(&parsed, &files);
        assert_eq!(expected[0], "The abstract of 2601.00001.");

        let (cached, files) =
            read_papers(&papers_dir, &paper_files, false, Some(&cache), 2).unwrap();
        let in_file: Vec<Option<u32>> = cached
            .iter()
            .map(|p| match p.abstract_at {
                Abstract::InFile { file, .. } => Some(file),
                Abstract::Held(_) => None,
            })
            .collect();
        // The first two folders' files stay open; the third folder's abstracts are read.
        assert_eq!(in_file, [Some(1), Some(1), Some(2), Some(2), None, None]);
        assert_eq!(abstracts(&cached, &files), expected);

        // Spilled: parsed abstracts go to the temporary file, cached ones stay.
        std::fs::write(
            &paper_files[0],
            read_to(&paper_files[0]).replace("The abstract", "An abstract"),
        )
        .unwrap();
        let (mixed, files) = read_papers(&papers_dir, &paper_files, true, Some(&cache), 2).unwrap();
        assert!(matches!(
            mixed[0].abstract_at,
            Abstract::InFile { file: 0, .. }
        ));
        assert!(matches!(
            mixed[1].abstract_at,
            Abstract::InFile { file: 1, .. }
        ));
        assert!(matches!(
            mixed[4].abstract_at,
            Abstract::InFile { file: 0, .. }
        ));
        let mut changed = expected.clone();
        changed[0] = "An abstract of 2601.00001.".into();
        assert_eq!(abstracts(&mixed, &files), changed);
    }

    #[test]
    fn a_damaged_cache_abstract_read_at_load_is_parsed_again_and_the_cache_mended() {
        let dir = tempfile::tempdir().unwrap();
        let papers_dir = dir.path().join("papers");
        let paper_files = content(&papers_dir);
        let cache = ParseCache::new(dir.path().join("cache"));
        let (parsed, files) =
            read_papers(&papers_dir, &paper_files, false, Some(&cache), 0).unwrap();
        let expected = abstracts(&parsed, &files);
        let damage = || {
            for entry in std::fs::read_dir(dir.path().join("cache")).unwrap() {
                let path = entry.unwrap().path();
                let mut bytes = std::fs::read(&path).unwrap();
                let at = bytes
                    .windows(12)
                    .position(|w| w == b"The abstract")
                    .unwrap();
                bytes[at] = 0xff;
                std::fs::write(&path, bytes).unwrap();
            }
        };
        damage();
        let (again, files) =
            read_papers(&papers_dir, &paper_files, false, Some(&cache), 0).unwrap();
        assert_eq!(abstracts(&again, &files), expected);
        // Rewritten: the next load takes every paper from the cache, undamaged.
        let (mended, files) =
            read_papers(&papers_dir, &paper_files, false, Some(&cache), 0).unwrap();
        assert_eq!(abstracts(&mended, &files), expected);
        for entry in std::fs::read_dir(dir.path().join("cache")).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            assert!(bytes.windows(12).any(|w| w == b"The abstract"));
        }
    }

    fn read_to(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap()
    }
}
