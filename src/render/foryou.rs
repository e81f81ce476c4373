//! "For you": each week's papers as small term vectors, for a reader's browser to rank by
//! the papers that reader saved. No server, no account: the build writes one file per
//! week (`foryou/<week>.json`) and `reader.js` does the rest.
//!
//! A paper's vector is its strongest title and abstract terms, weighted by tf-idf with the
//! idf of its week and the weeks before it, as many as make `IDF_PAPERS` papers: a week's
//! file then depends on weeks that no longer change, so a new week writes one file, not
//! every one (a site-wide idf moves with every paper added), and a small week still weighs
//! its words against enough papers to tell a topic's words from everyone's.

use super::math::html_if_tex;
use super::views::{Urls, outbound_url, paper_rel, primary_category, review_view};
use crate::site::Site;
use crate::site::related::{TermCounter, Terms, term_hash};
use serde::Serialize;

/// Terms kept per paper: enough to tell topics apart, few enough to keep a week small.
pub const TERMS: usize = 12;

/// Bumped when the file's shape or the weights change.
pub const FORMAT: u32 = 4;

/// Papers an idf is counted over, at least: the week's, then older weeks', whole.
pub const IDF_PAPERS: usize = 2000;

/// The weeks whose papers week `di`'s idf is counted over: it and the older ones, until
/// they hold `IDF_PAPERS` papers.
pub fn idf_weeks(site: &Site, di: usize) -> std::ops::Range<usize> {
    let mut count = 0;
    let mut end = di;
    while end < site.digests.len() && count < IDF_PAPERS {
        count += site.digests[end].papers.len() + site.digests[end].updated.len();
        end += 1;
    }
    di..end.max(di + 1).min(site.digests.len().max(di + 1))
}

/// One paper of a week file: id, site path, title, headline, first authors, primary
/// category, date, the vector as alternating term ids (32 bits of the term's hash) and
/// weights (1 to 255), the title and the headline as HTML with their math as MathML
/// ("" for one without math), 1 where the headline is the machine's (else 0), and the
/// article's address for a paper not on arXiv ("" for one on arXiv, whose links the
/// reader's page makes from its id). A row, not an object: keys would double the file.
type Row<'a> = (
    &'a str,
    String,
    &'a str,
    &'a str,
    String,
    &'a str,
    String,
    Vec<u32>,
    String,
    String,
    u8,
    std::borrow::Cow<'a, str>,
);

#[derive(Serialize)]
struct WeekFile<'a> {
    format: u32,
    week: String,
    papers: Vec<Row<'a>>,
}

/// Makes week files, counting each week's document frequencies once however many windows
/// of weeks take them.
pub struct Weeks<'a> {
    site: &'a Site,
    counter: TermCounter,
    /// The terms the related-papers step held (every paper's) or kept
    /// (`.cache/related-terms.bin`), so that the papers are not counted a second time;
    /// those it lacks are counted here.
    held: Option<&'a [Terms]>,
    kept: Option<crate::site::terms_cache::TermCache>,
    /// Per week: its papers and how many of them have each term.
    df: Vec<std::sync::OnceLock<anyhow::Result<WeekDf>>>,
}

/// A week's papers, and how many of them have each term.
type WeekDf = (u32, rustc_hash::FxHashMap<u64, u32>);

fn week_df(terms: &[Terms]) -> WeekDf {
    let mut df: rustc_hash::FxHashMap<u64, u32> = Default::default();
    for doc in terms {
        for (h, _) in doc {
            *df.entry(*h).or_default() += 1;
        }
    }
    (terms.len() as u32, df)
}

impl<'a> Weeks<'a> {
    pub fn new(
        site: &'a Site,
        terms_cache: Option<&std::path::Path>,
        held: Option<&'a [Terms]>,
    ) -> Weeks<'a> {
        Weeks {
            site,
            counter: TermCounter::default(),
            held,
            kept: match held {
                Some(_) => None,
                None => terms_cache.and_then(crate::site::terms_cache::TermCache::open),
            },
            df: (0..site.digests.len())
                .map(|_| std::sync::OnceLock::new())
                .collect(),
        }
    }

    fn papers(&self, di: usize) -> impl Iterator<Item = usize> + '_ {
        let d = &self.site.digests[di];
        d.papers.iter().chain(&d.updated).copied()
    }

    /// The terms of week `di`'s papers, in `papers` order.
    fn terms(&self, di: usize) -> anyhow::Result<Vec<Terms>> {
        let site = self.site;
        let ids: Vec<usize> = self.papers(di).collect();
        let kept = match (self.held, &self.kept) {
            (Some(held), _) => ids.iter().map(|&i| Some(held[i].clone())).collect(),
            (None, Some(k)) => k.get(
                &ids.iter()
                    .map(|&i| site.papers[i].corpus_hash)
                    .collect::<Vec<_>>(),
            ),
            (None, None) => vec![None; ids.len()],
        };
        ids.iter()
            .zip(kept)
            .map(|(&i, kept)| {
                let p = &site.papers[i];
                let mut terms = match kept {
                    Some(t) => t,
                    None => self.counter.terms(&p.front.title, &site.abstract_of(i)?),
                };
                // A paper's categories are terms too, each as strong as a word said twice in
                // the title (idf still weighs a small category above a large one): on the
                // example this lifts same-category picks in the top ten from 3.6 to 4.3
                // (bench/foryou_quality.mjs).
                for c in &p.front.categories {
                    terms.push((term_hash(&format!("category:{c}")), 4.0));
                }
                Ok(terms)
            })
            .collect()
    }

    fn df(&self, di: usize) -> anyhow::Result<&WeekDf> {
        self.df[di]
            .get_or_init(|| Ok(week_df(&self.terms(di)?)))
            .as_ref()
            .map_err(|e| anyhow::anyhow!("{e:#}"))
    }

    /// The papers of week `di` (new and updated), with their vectors, as JSON.
    pub fn week_file(&self, di: usize, urls: &Urls) -> anyhow::Result<String> {
        let site = self.site;
        let d = &site.digests[di];
        // The week's own terms are counted once, for its df and its vectors both.
        let terms = self.terms(di)?;
        if self.df[di].get().is_none() {
            let _ = self.df[di].set(Ok(week_df(&terms)));
        }
        let mut df: rustc_hash::FxHashMap<u64, u32> = Default::default();
        let mut n = 0.0f32;
        for w in idf_weeks(site, di) {
            let (count, week_df) = self.df(w)?;
            n += *count as f32;
            for (h, c) in week_df {
                *df.entry(*h).or_default() += c;
            }
        }
        let rows = self
            .papers(di)
            .zip(terms)
            .map(|(i, terms)| {
                let p = &site.papers[i];
                let f = &p.front;
                // Smoothed, so a rare word of a small site still counts for more than a
                // common one, and no weight is zero.
                let mut v: Vec<(u64, f32)> = terms
                    .into_iter()
                    .map(|(h, tf)| {
                        let d = df.get(&h).copied().unwrap_or(1).max(1) as f32;
                        (h, (1.0 + tf.ln()) * ((n + 1.0) / d).ln().max(0.0) + 0.1)
                    })
                    .collect();
                v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                v.truncate(TERMS);
                let top = v.first().map_or(1.0, |x| x.1).max(1e-6);
                let vector = v
                    .iter()
                    .flat_map(|&(h, w)| {
                        [
                            h as u32,
                            ((w / top) * 255.0).round().clamp(1.0, 255.0) as u32,
                        ]
                    })
                    .collect();
                let review = review_view(p, urls);
                let authors = crate::render::views::first_authors(&f.authors, 3);
                Ok((
                    f.id.as_str(),
                    paper_rel(p),
                    f.title.as_str(),
                    review.headline,
                    authors,
                    primary_category(f),
                    super::views::first_version_shown(f.first_version(), '-'),
                    vector,
                    html_if_tex(&f.title),
                    html_if_tex(review.headline),
                    u8::from(review.headline_machine),
                    if f.id.is_arxiv() {
                        std::borrow::Cow::Borrowed("")
                    } else {
                        outbound_url(&f.links.abs)
                    },
                ))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(serde_json::to_string(&WeekFile {
            format: FORMAT,
            week: d.week.to_string(),
            papers: rows,
        })?)
    }
}

/// The weeks the "For you" page ranks: the newest `n` that have papers.
pub fn recent_weeks(site: &Site, n: usize) -> String {
    let weeks: Vec<String> = site
        .digests
        .iter()
        .filter(|d| !d.papers.is_empty())
        .take(n)
        .map(|d| d.week.to_string())
        .collect();
    serde_json::json!({ "format": FORMAT, "weeks": weeks }).to_string()
}
