//! The site in memory: every content file loaded (in parallel) and the indexes the pages
//! need: papers by id, weeks in order, categories and authors with their papers.

pub mod abstracts;
mod author_merge;
pub mod parsed;
pub mod related;
pub mod taxonomy;
pub mod terms_cache;

use crate::manifest::{Fingerprint, Hasher};
use crate::paper::Week;
use crate::store::frontmatter::{self, DigestFront, PaperFront};
use abstracts::{Abstract, Files, SpillWriter};
use anyhow::{Context, Result, anyhow, bail};
use parsed::ParseCache;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub struct PaperEntry {
    /// The front matter, but for the abstract (`front.abstract_text` is empty): that is in
    /// `abstract_at`, read with `Site::abstract_of`.
    pub front: PaperFront,
    pub abstract_at: Abstract,
    /// The editor's markdown, rendered.
    pub body_html: String,
    pub slug: String,
    pub source_path: PathBuf,
    /// Of the file's bytes: what an incremental build compares.
    pub content_hash: Fingerprint,
    /// Of what related papers and the search index are made from (`corpus_hash`).
    pub corpus_hash: Fingerprint,
}

pub struct DigestEntry {
    pub week: Week,
    pub front: DigestFront,
    pub body_html: String,
    pub content_hash: Fingerprint,
    /// Indexes into `Site::papers`, in display order.
    pub papers: Vec<usize>,
    pub updated: Vec<usize>,
}

pub struct Category {
    /// The name as the feeds give it (`cs.DC`).
    pub name: String,
    pub slug: String,
    /// arXiv's entry for it; none for a journal's subject (or a feed named as one).
    pub arxiv: Option<&'static taxonomy::Entry>,
    /// By announcing week, newest first, then by date, newest first; unlisted papers last.
    pub papers: Vec<usize>,
}

pub struct Author {
    pub name: String,
    pub slug: String,
    /// Newest first.
    pub papers: Vec<usize>,
}

pub struct Site {
    /// Sorted by id.
    pub papers: Vec<PaperEntry>,
    pub by_id: FxHashMap<String, usize>,
    /// Newest week first.
    pub digests: Vec<DigestEntry>,
    /// Sorted by slug.
    pub categories: Vec<Category>,
    /// Paper index -> the digest (index into `digests`) that announced it.
    pub week_of: Vec<Option<usize>>,
    /// Sorted by slug.
    pub authors: Vec<Author>,
    /// Author name -> index into `authors`.
    pub author_index: FxHashMap<String, usize>,
    /// Paper index -> related papers, most similar first (filled by `compute_related`).
    pub related: Vec<Vec<usize>>,
    /// The site's own categories, most important first (`Config::site_categories`): the
    /// digest's groups come in this order, then by size. Empty until the caller sets it.
    pub preferred_categories: Vec<String>,
    /// Temporary files that killed runs left among the content (`walk::is_temporary`):
    /// a build that holds the site lock removes them.
    pub temporaries: Vec<PathBuf>,
    /// Where the abstracts are when they are not in memory.
    abstract_files: Files,
}

impl Site {
    /// Paper `i`'s abstract.
    pub fn abstract_of(&self, i: usize) -> Result<Cow<'_, str>> {
        match self.papers[i].abstract_at.text(&self.abstract_files) {
            Ok(text) => Ok(text),
            Err(_) => self.abstract_from_source(i),
        }
    }

    /// The abstracts of papers `range`, in order, read together where they are in a file.
    pub fn abstracts_of(&self, range: std::ops::Range<usize>) -> Result<Vec<Cow<'_, str>>> {
        let list: Vec<&Abstract> = self.papers[range.clone()]
            .iter()
            .map(|p| &p.abstract_at)
            .collect();
        match abstracts::texts(&list, &self.abstract_files) {
            Ok(texts) => Ok(texts),
            Err(_) => range.map(|i| self.abstract_of(i)).collect(),
        }
    }

    /// An abstract that cannot be read back (a damaged parse cache: not UTF-8, cut
    /// short) is taken from the paper's own file again, so a damaged cache never fails a
    /// build.
    fn abstract_from_source(&self, i: usize) -> Result<Cow<'_, str>> {
        let path = &self.papers[i].source_path;
        match read_paper(path)
            .with_context(|| format!("cannot read back the abstract of {}", path.display()))?
            .abstract_at
        {
            Abstract::Held(text) => Ok(Cow::Owned(text)),
            Abstract::InFile { .. } => unreachable!("a parsed paper holds its abstract"),
        }
    }

    /// Related papers for every paper. With `cache` (incremental builds), the terms of
    /// papers counted by the last such build are read from it rather than counted again,
    /// and the terms of papers it lacks are added to it.
    pub fn compute_related(&mut self, per_paper: usize, cache: Option<&Path>) -> Result<()> {
        let counter = related::TermCounter::default();
        let count = |i: usize| -> Result<related::Terms> {
            Ok(counter.terms(&self.papers[i].front.title, &self.abstract_of(i)?))
        };
        let kept = cache.and_then(terms_cache::TermCache::open);
        // The papers the kept terms lack (a week's) are counted once, here, rather than
        // each time their batch is asked for; unless they are too many to hold.
        let missing: Vec<usize> = kept
            .as_ref()
            .map(|k| {
                (0..self.papers.len())
                    .filter(|&i| !k.holds(self.papers[i].corpus_hash))
                    .collect()
            })
            .unwrap_or_default();
        let fresh: FxHashMap<usize, related::Terms> = if missing.len() <= FRESH_TERMS_HELD_UP_TO {
            missing
                .par_iter()
                .map(|&i| Ok((i, count(i)?)))
                .collect::<Result<_>>()?
        } else {
            FxHashMap::default()
        };
        let counted_any = std::sync::atomic::AtomicBool::new(!missing.is_empty());
        let terms = |range: std::ops::Range<usize>| -> Result<Vec<related::Terms>> {
            let Some(kept) = &kept else {
                counted_any.store(true, std::sync::atomic::Ordering::Relaxed);
                let abstracts = self.abstracts_of(range.clone())?;
                return Ok(self.papers[range]
                    .iter()
                    .zip(abstracts)
                    .map(|(p, a)| counter.terms(&p.front.title, &a))
                    .collect());
            };
            let hashes: Vec<Fingerprint> = self.papers[range.clone()]
                .iter()
                .map(|p| p.corpus_hash)
                .collect();
            range
                .zip(kept.get(&hashes))
                .map(
                    |(i, terms)| match terms.or_else(|| fresh.get(&i).cloned()) {
                        Some(terms) => Ok(terms),
                        None => {
                            counted_any.store(true, std::sync::atomic::Ordering::Relaxed);
                            count(i)
                        }
                    },
                )
                .collect()
        };
        let related = related::related(self.papers.len(), terms, per_paper)?;
        let same_papers = kept
            .as_ref()
            .is_some_and(|k| k.papers() == self.papers.len());
        if let Some(path) = cache
            && (counted_any.load(std::sync::atomic::Ordering::Relaxed) || !same_papers)
        {
            let hashes: Vec<Fingerprint> = self.papers.iter().map(|p| p.corpus_hash).collect();
            terms_cache::save(path, &hashes, kept.as_ref(), terms)?;
        }
        self.related = related;
        Ok(())
    }
}

/// New or changed papers whose counted terms are held for the build (about a kilobyte
/// each); more are counted each time they are asked for.
const FRESH_TERMS_HELD_UP_TO: usize = 20_000;

/// Sites with more papers than this keep their abstracts in a temporary file, not in memory.
pub const ABSTRACTS_IN_MEMORY_UP_TO: usize = 50_000;

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

/// A URL-safe author name: `Tom Götz` -> `tom-gotz`.
pub fn author_slug(name: &str) -> String {
    let s = slug::slugify(name);
    if s.is_empty() {
        "anonymous".into()
    } else {
        bounded_slug(s, name)
    }
}

/// Longest slug kept whole: well inside the 255 bytes a file name may have, and a URL
/// segment a reader can still copy.
const MAX_SLUG: usize = 80;

/// A slug cut to `MAX_SLUG` bytes, with a hash of the full name after the cut so that two
/// long names that share their first bytes keep apart.
fn bounded_slug(slug: String, name: &str) -> String {
    if slug.len() <= MAX_SLUG {
        return slug;
    }
    let mut cut = MAX_SLUG - 17;
    while !slug.is_char_boundary(cut) {
        cut -= 1;
    }
    let hash = xxhash_rust::xxh3::xxh3_64(name.as_bytes());
    format!("{}-{hash:016x}", slug[..cut].trim_end_matches(['-', '.']))
}

/// The content files below `dir`: `.md`, not hidden (editors' and our own temporaries
/// are); and apart, the temporaries that killed runs left there.
fn markdown_files(dir: &Path, within: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
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
fn site_root(content_dir: &Path) -> &Path {
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

fn read_paper(path: &Path) -> Result<PaperEntry> {
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

struct DigestFile {
    week: Week,
    front: DigestFront,
    body_html: String,
    content_hash: Fingerprint,
}

fn read_digest(path: &Path) -> Result<DigestFile> {
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
fn collect_in_order<T: Send>(results: Vec<Result<T>>) -> Result<Vec<T>> {
    results.into_iter().collect()
}

pub fn load(content_dir: &Path) -> Result<Site> {
    load_with(content_dir, ABSTRACTS_IN_MEMORY_UP_TO, None)
}

/// Loads the site, keeping the abstracts in memory if there are at most
/// `abstracts_in_memory_up_to` papers and in a temporary file if there are more. With a
/// `cache`, unchanged paper files are taken from it rather than parsed.
pub fn load_with(
    content_dir: &Path,
    abstracts_in_memory_up_to: usize,
    cache: Option<&ParseCache>,
) -> Result<Site> {
    let papers_dir = content_dir.join("papers");
    let within = site_root(content_dir);
    let (paper_files, mut temporaries) = markdown_files(&papers_dir, within)?;
    let (digest_files, more) = markdown_files(&content_dir.join("digests"), within)?;
    temporaries.extend(more);
    let spill = paper_files.len() > abstracts_in_memory_up_to;
    let (papers, files) = read_papers(
        &papers_dir,
        &paper_files,
        spill,
        cache,
        CACHE_FILES_KEPT_OPEN,
    )?;
    let digests = collect_in_order(digest_files.par_iter().map(|p| read_digest(p)).collect())?;
    let mut site = index(papers, files, digests, &digest_files)?;
    site.temporaries = temporaries;
    Ok(site)
}

/// Folders whose parse cache files stay open for their abstracts; the abstracts of any
/// more are read with the entries, well below the usual limit of 1,024 open files.
const CACHE_FILES_KEPT_OPEN: usize = 400;

/// Reads the paper files a folder at a time, from the cache where it has them, and when
/// `spill` moves the abstracts parsed from each folder to a temporary file (while the next
/// folder is read), so that only two folders' are ever in memory. Abstracts from the
/// cache stay in its files.
fn read_papers(
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

fn index(
    mut papers: Vec<PaperEntry>,
    abstract_files: Files,
    digests: Vec<DigestFile>,
    digest_files: &[PathBuf],
) -> Result<Site> {
    papers.sort_by(|a, b| a.front.id.cmp(&b.front.id));
    // The lists below are sorted by keys copied out of the papers first: comparing
    // through `papers` reads a scattered cache line per comparison. Papers are in id
    // order, so a paper's index stands for its id.
    let published: Vec<Newest> = papers
        .iter()
        .map(|p| {
            let t = &p.front.published;
            std::cmp::Reverse((t.timestamp(), t.timestamp_subsec_nanos()))
        })
        .collect();
    // Authors need nothing but the papers: they are indexed while weeks and categories are.
    let (weeks, (authors, author_index)) = rayon::join(
        || -> Result<_> {
            let by_id = ids(&papers)?;
            let digests = digest_entries(digests, digest_files, &by_id)?;
            let mut week_of = vec![None; papers.len()];
            // Oldest first, so a paper listed twice belongs to the week that first had it.
            for (di, d) in digests.iter().enumerate().rev() {
                for &pi in &d.papers {
                    week_of[pi].get_or_insert(di);
                }
            }
            let categories = categories(&papers, &week_of, &published);
            Ok((by_id, digests, week_of, categories))
        },
        || authors(&papers, &published),
    );
    let (by_id, digests, week_of, categories) = weeks?;
    Ok(Site {
        related: vec![Vec::new(); papers.len()],
        papers,
        by_id,
        digests,
        categories,
        week_of,
        authors,
        author_index,
        preferred_categories: Vec::new(),
        temporaries: Vec::new(),
        abstract_files,
    })
}

/// A sort key: newest first by publication time.
type Newest = std::cmp::Reverse<(i64, u32)>;

/// Paper id -> index; an id in two files is an error.
fn ids(papers: &[PaperEntry]) -> Result<FxHashMap<String, usize>> {
    // Keys are ids and names from the site's own files; FxHash is several times faster
    // than SipHash over hundreds of thousands of them.
    let mut by_id = FxHashMap::with_capacity_and_hasher(papers.len(), Default::default());
    for (i, p) in papers.iter().enumerate() {
        if let Some(prev) = by_id.insert(p.front.id.to_string(), i) {
            bail!(
                "{}: paper {} is also in {}",
                p.source_path.display(),
                p.front.id,
                papers[prev].source_path.display()
            );
        }
    }
    Ok(by_id)
}

/// The digests, newest week first, with their papers looked up by id.
fn digest_entries(
    digests: Vec<DigestFile>,
    digest_files: &[PathBuf],
    by_id: &FxHashMap<String, usize>,
) -> Result<Vec<DigestEntry>> {
    let mut entries = Vec::with_capacity(digests.len());
    for (file, path) in digests.into_iter().zip(digest_files) {
        let front = file.front;
        let lookup = |ids: &[String], key: &str| -> Result<Vec<usize>> {
            ids.iter()
                .map(|id| {
                    by_id.get(id).copied().ok_or_else(|| {
                        anyhow!(
                            "{}: key `{key}`: paper {id:?} has no file under content/papers/",
                            path.display()
                        )
                    })
                })
                .collect()
        };
        let listed = lookup(&front.papers, "papers")?;
        let updated = lookup(&front.updated_papers, "updated_papers")?;
        entries.push(DigestEntry {
            week: file.week,
            body_html: file.body_html,
            content_hash: file.content_hash,
            papers: listed,
            updated,
            front,
        });
    }
    entries.sort_by_key(|d| std::cmp::Reverse(d.week));
    Ok(entries)
}

/// The categories, sorted by slug, each with its papers by the week that announced them,
/// newest first (digests are newest first), then newest first within a week; papers no
/// digest lists come last. Category pages then read as runs of weeks, like the digests.
fn categories(
    papers: &[PaperEntry],
    week_of: &[Option<usize>],
    published: &[Newest],
) -> Vec<Category> {
    // Keyed by slug: two spellings that share a URL share a page (first name wins). A site
    // has a few dozen category names and hundreds of thousands of papers: a name seen
    // before goes straight to its category.
    let mut by_name: FxHashMap<&str, usize> = FxHashMap::default();
    let mut by_slug: FxHashMap<String, usize> = FxHashMap::default();
    let mut categories: Vec<Category> = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for (i, p) in papers.iter().enumerate() {
        let f = &p.front;
        let primary = (!f.primary_category.is_empty()
            && !f.categories.contains(&f.primary_category))
        .then_some(&f.primary_category);
        seen.clear();
        for c in primary
            .into_iter()
            .chain(&f.categories)
            .filter(|c| is_category_of(f, c))
        {
            let ci = match by_name.get(c.as_str()) {
                Some(&ci) => ci,
                None => {
                    let slug = category_slug(c);
                    let ci = *by_slug.entry(slug.clone()).or_insert_with(|| {
                        categories.push(Category {
                            name: c.clone(),
                            slug,
                            arxiv: taxonomy::lookup(c),
                            papers: Vec::new(),
                        });
                        categories.len() - 1
                    });
                    by_name.insert(c, ci);
                    ci
                }
            };
            if !seen.contains(&ci) {
                seen.push(ci);
                categories[ci].papers.push(i);
            }
        }
    }
    categories.sort_unstable_by(|a, b| a.slug.cmp(&b.slug));
    let week: Vec<usize> = week_of.iter().map(|w| w.unwrap_or(usize::MAX)).collect();
    // Keys are unique (the index is last), so an unstable sort gives one order.
    categories.par_iter_mut().for_each(|c| {
        c.papers
            .sort_unstable_by_key(|&i| (week[i], published[i], i))
    });
    categories
}

/// The authors, sorted by slug, each with their papers newest first; and author name ->
/// index into them.
fn authors(papers: &[PaperEntry], published: &[Newest]) -> (Vec<Author>, FxHashMap<String, usize>) {
    // Slugs on all cores: slugifying half a million names was most of indexing.
    let slugs: Vec<Vec<String>> = papers
        .par_iter()
        .map(|p| p.front.authors.iter().map(|n| author_slug(n)).collect())
        .collect();
    // Keyed by slug: spellings that share a URL share a page (the first one seen names
    // it). A name seen before goes straight to its page, without hashing its slug.
    let mut by_slug: FxHashMap<&str, usize> = FxHashMap::default();
    let mut by_name: FxHashMap<&str, usize> = FxHashMap::default();
    let mut authors: Vec<Author> = Vec::new();
    for (i, p) in papers.iter().enumerate() {
        for (name, slug) in p.front.authors.iter().zip(&slugs[i]) {
            let ai = match by_name.get(name.as_str()) {
                Some(&ai) => ai,
                None => {
                    let ai = *by_slug.entry(slug).or_insert_with(|| {
                        authors.push(Author {
                            name: name.clone(),
                            slug: slug.clone(),
                            papers: Vec::new(),
                        });
                        authors.len() - 1
                    });
                    by_name.insert(name, ai);
                    ai
                }
            };
            let list = &mut authors[ai].papers;
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
    }
    author_merge::merge(&mut authors, &mut by_name, papers);
    let before_merges = authors.len();
    // Sorted by slug; `place[ai]` is where author `ai` went. Merged authors (no papers
    // left) go; their names point elsewhere.
    let mut numbered: Vec<(usize, Author)> = authors
        .into_iter()
        .enumerate()
        .filter(|(_, a)| !a.papers.is_empty())
        .collect();
    numbered.sort_unstable_by(|a, b| a.1.slug.cmp(&b.1.slug));
    let mut place = vec![0; before_merges];
    for (to, (from, _)) in numbered.iter().enumerate() {
        place[*from] = to;
    }
    let mut authors: Vec<Author> = numbered.into_iter().map(|(_, a)| a).collect();
    authors.par_iter_mut().for_each(|a| {
        a.papers.sort_unstable_by_key(|&i| (published[i], i));
        // A paper that lists a person twice, once by initials.
        a.papers.dedup();
    });
    let author_index: FxHashMap<String, usize> = by_name
        .into_iter()
        .map(|(name, ai)| (name.to_string(), place[ai]))
        .collect();
    (authors, author_index)
}

/// Whether `term` is one of the paper's categories, with a page of its own: for an arXiv
/// paper an arXiv category (an MSC or ACM class kept among them by an older fetch is not),
/// for any other paper its journal's subject.
pub fn is_category_of(f: &PaperFront, term: &str) -> bool {
    !f.id.is_arxiv() || taxonomy::lookup(term).is_some()
}

/// A URL-safe category name: an arXiv code stays as arXiv writes it (`cs.DC`); any other
/// name is lower-cased (`Bioinformatics : nature.com subject feeds` ->
/// `bioinformatics-nature.com-subject-feeds`).
pub fn category_slug(name: &str) -> String {
    let lowered;
    let name = if taxonomy::lookup(name).is_some() {
        name
    } else {
        lowered = name.to_lowercase();
        &lowered
    };
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    // "a : b" gives one dash, not three.
    let s = s
        .split('-')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let s = s.trim_matches(['-', '.']).replace("..", ".");
    if s.is_empty() {
        "uncategorized".into()
    } else {
        bounded_slug(s, name)
    }
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

    #[test]
    fn long_names_get_bounded_slugs_that_stay_apart() {
        let a = format!("{}A", "Q".repeat(300));
        let b = format!("{}B", "Q".repeat(300));
        for slug in [category_slug(&a), author_slug(&a)] {
            assert!(slug.len() <= MAX_SLUG, "{slug}");
        }
        assert_ne!(category_slug(&a), category_slug(&b));
        assert_ne!(author_slug(&a), author_slug(&b));
        assert_eq!(category_slug(&a), category_slug(&a));
        assert_eq!(category_slug("cs.DC"), "cs.DC");
        assert_eq!(
            category_slug("Bioinformatics : nature.com subject feeds"),
            "bioinformatics-nature.com-subject-feeds"
        );
        assert_eq!(author_slug("Tom Götz"), "tom-gotz");
    }

    fn read_to(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap()
    }
}
