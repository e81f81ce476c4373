//! The site in memory: every content file loaded (in parallel) and the indexes the pages
//! need: papers by id, weeks in order, categories and authors with their papers.

pub mod abstracts;
mod author_merge;
pub mod byline;
mod index;
pub mod parsed;
mod read;
pub mod related;
mod slugs;
pub mod taxonomy;
pub mod terms_cache;

pub use index::is_category_of;
pub use read::markdown_to_html;
pub use slugs::{OTHER_SLUG, PICKS_SLUG, UPDATED_SLUG, author_slug, category_slug};

use crate::manifest::Fingerprint;
use crate::paper::Week;
use crate::store::frontmatter::{DigestFront, PaperFront};
use abstracts::{Abstract, Files};
use anyhow::{Context, Result};
use parsed::ParseCache;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
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
    /// Of what related papers and For you are made from (`corpus_hash`); the search index
    /// reads the card's lines too (`search_hash`).
    pub corpus_hash: Fingerprint,
}

impl PaperEntry {
    /// Of what the search index reads of the paper: its corpus and the lines its card
    /// shows. Not in `corpus_hash`, so an edited review leaves related papers as they were.
    pub fn search_hash(&self) -> Fingerprint {
        let (headline, _) = self.front.shown_lines();
        let mut h = crate::manifest::Hasher::new();
        h.num(self.corpus_hash)
            .str(headline)
            .str(&self.front.shown_summary());
        h.finish()
    }
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

/// Every paper's authors, in one list: `author[start[i]..start[i + 1]]` are paper `i`'s.
pub struct Authorships {
    start: Vec<u32>,
    author: Vec<u32>,
}

impl Authorships {
    /// Paper `i`'s authors, as indexes into `Site::authors`.
    pub fn of(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.author[self.start[i] as usize..self.start[i + 1] as usize]
            .iter()
            .map(|&a| a as usize)
    }
}

pub struct Site {
    /// Sorted by id.
    pub papers: Vec<PaperEntry>,
    /// Newest week first.
    pub digests: Vec<DigestEntry>,
    /// Sorted by slug.
    pub categories: Vec<Category>,
    /// Paper index -> the digest (index into `digests`) that announced it.
    pub week_of: Vec<Option<usize>>,
    /// Paper index -> the newest digest that lists it among its new versions.
    pub new_version_in: Vec<Option<usize>>,
    /// Sorted by slug.
    pub authors: Vec<Author>,
    /// Each paper's authors as indexes into `authors`, in byline order.
    pub authorships: Authorships,
    /// Paper index -> its key in an order newest first by first version.
    pub newest_first: Vec<index::Newest>,
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
    /// The names paper `i`'s authors have on their pages where they differ from the ones
    /// it gives ("Adrian Del Maestro" for its "A. Del Maestro"), in byline order.
    pub fn page_names(&self, i: usize) -> impl Iterator<Item = &str> {
        self.papers[i]
            .front
            .authors
            .iter()
            .zip(self.authorships.of(i))
            .map(|(written, a)| (written, self.authors[a].name.as_str()))
            .filter(|(written, name)| byline::person(written).0 != *name)
            .map(|(_, name)| name)
    }

    /// What the search index is made from for paper `i`: the paper's own `search_hash`,
    /// and the names its authors' pages give them, which another paper may change. Worked
    /// out for every paper on every build: nothing is collected.
    pub fn search_fingerprint(&self, i: usize) -> Fingerprint {
        let mut h = crate::manifest::Hasher::new();
        h.num(self.papers[i].search_hash());
        for name in self.page_names(i) {
            h.str(name);
        }
        h.finish()
    }

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
        match read::read_paper(path)
            .with_context(|| format!("cannot read back the abstract of {}", path.display()))?
            .abstract_at
        {
            Abstract::Held(text) => Ok(Cow::Owned(text)),
            Abstract::InFile { .. } => unreachable!("a parsed paper holds its abstract"),
        }
    }

    /// Related papers for every paper. With `cache` (incremental builds), the terms of
    /// papers counted by the last such build are read from it rather than counted again,
    /// and the terms of papers it lacks are added to it. When there are none to read (a
    /// full or first build) and few enough papers (`ALL_TERMS_HELD_UP_TO`), every paper's
    /// terms are counted once and held, and returned for For you.
    pub fn compute_related(
        &mut self,
        per_paper: usize,
        cache: Option<&Path>,
    ) -> Result<Option<Vec<related::Terms>>> {
        self.compute_related_holding(per_paper, cache, ALL_TERMS_HELD_UP_TO)
    }

    /// `compute_related`, holding every paper's terms on a site of up to `held_up_to`.
    fn compute_related_holding(
        &mut self,
        per_paper: usize,
        cache: Option<&Path>,
        held_up_to: usize,
    ) -> Result<Option<Vec<related::Terms>>> {
        let counter = related::TermCounter::default();
        let count = |i: usize| -> Result<related::Terms> {
            Ok(counter.terms(&self.papers[i].front.title, &self.abstract_of(i)?))
        };
        let count_range = |range: std::ops::Range<usize>| -> Result<Vec<related::Terms>> {
            let abstracts = self.abstracts_of(range.clone())?;
            Ok(self.papers[range]
                .iter()
                .zip(abstracts)
                .map(|(p, a)| counter.terms(&p.front.title, &a))
                .collect())
        };
        let kept = cache.and_then(terms_cache::TermCache::open);
        let n = self.papers.len();
        // Related papers reads every paper's terms twice and the kept file takes them
        // once more: counting them each time was most of what the step cost.
        let held: Option<Vec<related::Terms>> = match kept {
            None if n <= held_up_to => Some(
                related::batches(n)
                    .map(count_range)
                    .collect::<Result<Vec<_>>>()?
                    .into_iter()
                    .flatten()
                    .collect(),
            ),
            _ => None,
        };
        // The papers the kept terms lack (a week's) are counted once, here, rather than
        // each time their batch is asked for; unless they are too many to hold.
        let missing: Vec<usize> = kept
            .as_ref()
            .map(|k| {
                (0..n)
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
        let terms = |range: std::ops::Range<usize>| -> Result<Cow<'_, [related::Terms]>> {
            if let Some(held) = &held {
                return Ok(Cow::Borrowed(&held[range]));
            }
            let Some(kept) = &kept else {
                return Ok(Cow::Owned(count_range(range)?));
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
                        None => count(i),
                    },
                )
                .collect::<Result<Vec<_>>>()
                .map(Cow::Owned)
        };
        let related = related::related(n, terms, per_paper)?;
        // The writer leaves the file as it was when it already holds every paper's terms
        // and no others.
        if let Some(path) = cache {
            let hashes: Vec<Fingerprint> = self.papers.iter().map(|p| p.corpus_hash).collect();
            terms_cache::save(path, &hashes, kept.as_ref(), terms)?;
        }
        self.related = related;
        Ok(held)
    }
}

/// Papers whose terms a build with no kept terms (a full or first build) counts once and
/// holds, at about 1.3 KB a paper (125 MB at 100,000 papers, while the build is far from
/// its peak); past it they are counted for each pass, a batch at a time.
const ALL_TERMS_HELD_UP_TO: usize = 250_000;

/// New or changed papers whose counted terms are held for the build (about a kilobyte
/// each); more are counted each time they are asked for.
const FRESH_TERMS_HELD_UP_TO: usize = 20_000;

/// Sites with more papers than this keep their abstracts in a temporary file, not in memory.
pub const ABSTRACTS_IN_MEMORY_UP_TO: usize = 50_000;

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
    let within = read::site_root(content_dir);
    let (paper_files, mut temporaries) = read::markdown_files(&papers_dir, within)?;
    let (digest_files, more) = read::markdown_files(&content_dir.join("digests"), within)?;
    temporaries.extend(more);
    let spill = paper_files.len() > abstracts_in_memory_up_to;
    let (papers, files) = read::read_papers(&papers_dir, &paper_files, spill, cache)?;
    let digests = read::collect_in_order(
        digest_files
            .par_iter()
            .map(|p| read::read_digest(p))
            .collect(),
    )?;
    let mut site = index::index(papers, files, digests, &digest_files)?;
    site.temporaries = temporaries;
    Ok(site)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 600 papers, more than one batch of a related-papers pass: each pair shares two rare
    /// words, and every paper one of four common ones.
    fn site(dir: &Path) -> Site {
        let topics = ["consensus", "graphs", "quantum", "proteins"];
        let content = dir.join("content");
        std::fs::create_dir_all(content.join("digests")).unwrap();
        std::fs::create_dir_all(content.join("papers/2601")).unwrap();
        for i in 0..600 {
            let id = format!("2601.{:05}", i + 1);
            let (topic, pair) = (topics[i % 4], i / 2);
            std::fs::write(
                content.join(format!("papers/2601/{id}.md")),
                format!(
                    "+++\nid = \"{id}\"\ntitle = \"On zq{pair}x and yv{pair}k\"\npublished = 2026-01-05T00:00:00Z\nupdated = 2026-01-05T00:00:00Z\nabstract = \"We study {topic} and zq{pair}x, with ww{i}y.\"\n+++\n"
                ),
            )
            .unwrap();
        }
        load(&content).unwrap()
    }

    #[test]
    fn held_terms_give_the_related_papers_and_kept_terms_that_counting_each_pass_gives() {
        let dir = tempfile::tempdir().unwrap();
        let mut held = site(dir.path());
        let terms = held.compute_related_holding(3, None, usize::MAX).unwrap();
        assert_eq!(terms.map(|t| t.len()), Some(600));
        let mut counted = site(dir.path());
        assert!(
            counted
                .compute_related_holding(3, None, 0)
                .unwrap()
                .is_none()
        );
        assert_eq!(held.related, counted.related);
        // Each paper relates to its pair first, in every batch.
        assert!((0..600).all(|i| held.related[i].first() == Some(&(i ^ 1))));

        // The kept terms file each way holds the same terms: a later build reads it.
        let (a, b) = (dir.path().join("held.bin"), dir.path().join("counted.bin"));
        site(dir.path())
            .compute_related_holding(3, Some(&a), usize::MAX)
            .unwrap();
        site(dir.path())
            .compute_related_holding(3, Some(&b), 0)
            .unwrap();
        let hashes: Vec<Fingerprint> = held.papers.iter().map(|p| p.corpus_hash).collect();
        let read = |path: &Path| terms_cache::TermCache::open(path).unwrap().get(&hashes);
        assert!(read(&a).iter().all(Option::is_some));
        assert_eq!(read(&a), read(&b));
        let mut from_kept = site(dir.path());
        assert!(
            from_kept
                .compute_related_holding(3, Some(&a), 0)
                .unwrap()
                .is_none()
        );
        assert_eq!(from_kept.related, held.related);
    }
}
