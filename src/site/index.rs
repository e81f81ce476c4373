//! The indexes the pages need, made from the papers and digests read: papers by id,
//! digests with their papers, categories and authors with their papers in order.

use super::abstracts::Files;
use super::read::DigestFile;
use super::slugs::{author_slug, category_slug};
use super::{
    Author, Authorships, Category, DigestEntry, PaperEntry, Site, author_merge, byline, taxonomy,
};
use crate::manifest::of_bytes;
use crate::store::frontmatter::PaperFront;
use anyhow::{Result, anyhow, bail};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::path::PathBuf;

pub(super) fn index(
    mut papers: Vec<PaperEntry>,
    abstract_files: Files,
    digests: Vec<DigestFile>,
    digest_files: &[PathBuf],
) -> Result<Site> {
    papers.sort_by(|a, b| a.front.id.cmp(&b.front.id));
    // The lists below are sorted by keys copied out of the papers first: comparing
    // through `papers` reads a scattered cache line per comparison. Papers are in id
    // order, so a paper's index stands for its id.
    let newest_first: Vec<Newest> = papers
        .iter()
        .map(|p| {
            let t = p.front.first_version().instant();
            std::cmp::Reverse((t.timestamp(), t.timestamp_subsec_nanos()))
        })
        .collect();
    // Authors need nothing but the papers: they are indexed while weeks and categories are.
    let (weeks, (authors, authorships)) = rayon::join(
        || -> Result<_> {
            let by_id = ids(&papers)?;
            let digests = digest_entries(digests, digest_files, &by_id)?;
            let mut week_of = vec![None; papers.len()];
            let mut new_version_in = vec![None; papers.len()];
            // Oldest first, so a paper listed twice belongs to the week that first had it,
            // and a new version to the last week that listed one.
            for (di, d) in digests.iter().enumerate().rev() {
                for &pi in &d.papers {
                    week_of[pi].get_or_insert(di);
                }
                for &pi in &d.updated {
                    new_version_in[pi] = Some(di);
                }
            }
            let categories = categories(&papers, &week_of, &newest_first);
            Ok((digests, (week_of, new_version_in), categories))
        },
        || authors(&papers, &newest_first),
    );
    let (digests, (week_of, new_version_in), categories) = weeks?;
    Ok(Site {
        related: vec![Vec::new(); papers.len()],
        newest_first,
        papers,
        digests,
        categories,
        week_of,
        new_version_in,
        authors,
        authorships,
        preferred_categories: Vec::new(),
        temporaries: Vec::new(),
        abstract_files,
    })
}

/// A sort key: newest first by publication time (`FirstVersion::instant`).
pub type Newest = std::cmp::Reverse<(i64, u32)>;

/// Paper id -> index; an id in two files is an error. Borrowed: only the digests are
/// looked up in it.
fn ids(papers: &[PaperEntry]) -> Result<FxHashMap<&str, usize>> {
    // Keys are ids and names from the site's own files; FxHash is several times faster
    // than SipHash over hundreds of thousands of them.
    let mut by_id = FxHashMap::with_capacity_and_hasher(papers.len(), Default::default());
    for (i, p) in papers.iter().enumerate() {
        if let Some(prev) = by_id.insert(p.front.id.as_str(), i) {
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
    by_id: &FxHashMap<&str, usize>,
) -> Result<Vec<DigestEntry>> {
    let mut entries = Vec::with_capacity(digests.len());
    for (file, path) in digests.into_iter().zip(digest_files) {
        let front = file.front;
        let lookup = |ids: &[String], key: &str| -> Result<Vec<usize>> {
            ids.iter()
                .map(|id| {
                    by_id.get(id.as_str()).copied().ok_or_else(|| {
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

/// The authors, sorted by slug, each with their papers newest first; and each paper's
/// authors among them.
fn authors(papers: &[PaperEntry], published: &[Newest]) -> (Vec<Author>, Authorships) {
    let mut start = Vec::with_capacity(papers.len() + 1);
    start.push(0u32);
    for p in papers {
        start.push(start[start.len() - 1] + p.front.authors.len() as u32);
    }
    // Every authorship (paper, place in its byline) by a 128-bit hash of its slug, too
    // wide for two slugs to meet (as fingerprints are); sorted, each run of one slug is
    // one author, its authorships in paper order. All of it on all cores: a pass over the
    // papers looking names up in a map was a tenth of a weekly build at 100,000 papers,
    // on one core.
    let mut keyed: Vec<(u128, u32, u32)> = papers
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, p)| {
            p.front.authors.iter().enumerate().map(move |(j, name)| {
                let slug = author_slug(byline::person(name).0);
                (of_bytes(slug.as_bytes()), i as u32, j as u32)
            })
        })
        .collect();
    keyed.par_sort_unstable();
    let runs: Vec<&[(u128, u32, u32)]> = keyed.par_chunk_by(|a, b| a.0 == b.0).collect();
    // Spellings that share a URL share a page, named by the first one seen. Its slug is
    // made again here, once per author, rather than every authorship's slug kept from the
    // pass above (540,000 strings at 100,000 papers).
    let mut authors: Vec<Author> = runs
        .par_iter()
        .map(|run| {
            let (_, i, j) = run[0];
            let (name, _) = byline::person(&papers[i as usize].front.authors[j as usize]);
            let mut list: Vec<usize> = run.iter().map(|&(_, i, _)| i as usize).collect();
            list.dedup();
            Author {
                name: name.to_string(),
                slug: author_slug(name),
                papers: list,
            }
        })
        .collect();
    let mut author_of = vec![0u32; *start.last().unwrap_or(&0) as usize];
    for (ai, run) in runs.iter().enumerate() {
        for &(_, i, j) in run.iter() {
            author_of[(start[i as usize] + j) as usize] = ai as u32;
        }
    }
    let mut into: Vec<usize> = (0..authors.len()).collect();
    for (from, to) in author_merge::merge(&mut authors, papers) {
        into[from] = to;
    }
    // Sorted by slug; `place[ai]` is where author `ai` went. Merged authors (no papers
    // left) go; their authorships point elsewhere.
    let mut numbered: Vec<(usize, Author)> = authors
        .into_iter()
        .enumerate()
        .filter(|(_, a)| !a.papers.is_empty())
        .collect();
    numbered.par_sort_unstable_by(|a, b| a.1.slug.cmp(&b.1.slug));
    let mut place = vec![0u32; into.len()];
    for (to, (from, _)) in numbered.iter().enumerate() {
        place[*from] = to as u32;
    }
    let mut authors: Vec<Author> = numbered.into_iter().map(|(_, a)| a).collect();
    authors.par_iter_mut().for_each(|a| {
        a.papers.sort_unstable_by_key(|&i| (published[i], i));
        // A paper that lists a person twice, once by initials.
        a.papers.dedup();
    });
    author_of
        .par_iter_mut()
        .for_each(|ai| *ai = place[into[*ai as usize]]);
    (
        authors,
        Authorships {
            start,
            author: author_of,
        },
    )
}

/// Whether `term` is one of the paper's categories, with a page of its own: for an arXiv
/// paper an arXiv category (an MSC or ACM class kept among them by an older fetch is not),
/// for any other paper its journal's subject.
pub fn is_category_of(f: &PaperFront, term: &str) -> bool {
    !f.id.is_arxiv() || taxonomy::lookup(term).is_some()
}
