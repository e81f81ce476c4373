//! Related papers: tf-idf over titles and abstracts, cosine similarity, a handful per paper,
//! computed at build time. Each paper keeps only its strongest terms and very common terms
//! are skipped, so the work grows with the corpus rather than with its square. Terms are
//! held as 64-bit hashes. `related` reads the documents twice (once for document
//! frequencies, once for their vectors), a batch at a time, so it needs only a few hundred
//! bytes per paper; a build that counts every paper's terms holds them for both passes
//! (`Site::compute_related`).

use crate::words::{fold, is_word_char};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet, FxHasher};
use std::borrow::Cow;
use std::hash::Hasher as _;

/// Terms kept per paper.
const TERMS_PER_DOC: usize = 24;

/// Calls `f` with each lower-cased word of three or more characters in `s` as two hashes:
/// the word's own, which stop words are checked against ("news" is not "new"), and its
/// term's, the word made singular (`singular`). Numbers are left out ("1990s" too), words
/// with accents folded (`crate::words::fold`). Words are lower-cased into a buffer only
/// when they have a capital, so most are hashed where they stand; all-ASCII text is split
/// without decoding it.
fn for_each_term(s: &str, buf: &mut String, mut f: impl FnMut(u64, u64)) {
    if s.is_ascii() {
        // The common case, split byte by byte: no characters to decode.
        let mut lower = Vec::new();
        for t in s.as_bytes().split(|b| !b.is_ascii_alphanumeric()) {
            if t.len() < 3 || t.iter().all(u8::is_ascii_digit) {
                continue;
            }
            if t.iter().any(u8::is_ascii_uppercase) {
                lower.clear();
                lower.extend(t.iter().map(u8::to_ascii_lowercase));
                word_and_term(&lower, &mut f);
            } else {
                word_and_term(t, &mut f);
            }
        }
        return;
    }
    for t in s.split(|c: char| !is_word_char(c)) {
        if t.len() < 3 {
            continue;
        }
        if t.is_ascii() {
            if t.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            if t.bytes().any(|b| b.is_ascii_uppercase()) {
                buf.clear();
                buf.extend(t.chars().map(|c| c.to_ascii_lowercase()));
                word_and_term(buf.as_bytes(), &mut f);
            } else {
                word_and_term(t.as_bytes(), &mut f);
            }
        } else {
            // "Schrödinger" and "Schrodinger" are one word, as in search.
            let word = fold(t);
            if word.chars().nth(2).is_none() {
                continue;
            }
            word_and_term(word.as_bytes(), &mut f);
        }
    }
}

/// A word in -s without it: the first step of Porter's stemmer ("transformers" and
/// "transformer" are one term, "processes" and "process" too). Other plurals do not meet
/// their singular ("studies" gives "studi", "analyses" "analys"). Without it BERT
/// ("Transformers") was not related to "Attention Is All You Need" ("Transformer").
/// Search stems words fully; here a stemmer's cost on every word of every paper would be
/// most of the step's.
fn singular(w: &[u8]) -> &[u8] {
    if w.ends_with(b"sses") || w.ends_with(b"ies") {
        &w[..w.len() - 2]
    } else if w.ends_with(b"ss") {
        w
    } else if let Some(stem) = w.strip_suffix(b"s") {
        stem
    } else {
        w
    }
}

/// Calls `f` with the hash of the lower-case word `w` and that of its term.
fn word_and_term(w: &[u8], f: &mut impl FnMut(u64, u64)) {
    let word = bytes_hash(w);
    let term = singular(w);
    if term.len() == w.len() {
        f(word, word)
    } else if !term.iter().all(u8::is_ascii_digit) {
        f(word, bytes_hash(term))
    }
}

fn bytes_hash(t: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(t);
    h.finish()
}

pub(crate) fn term_hash(t: &str) -> u64 {
    bytes_hash(t.as_bytes())
}

/// A paper's terms as related papers count them: (term hash, frequency, the title
/// counting double), in no particular order (`related` orders what it keeps).
pub type Terms = Vec<(u64, f32)>;

/// Counts the terms of papers, stop words left out.
pub struct TermCounter {
    stop: FxHashSet<u64>,
}

impl Default for TermCounter {
    fn default() -> TermCounter {
        TermCounter {
            stop: STOP.iter().map(|w| term_hash(w)).collect(),
        }
    }
}

impl TermCounter {
    pub fn terms(&self, title: &str, abs: &str) -> Terms {
        // An abstract has a hundred-odd distinct words: sized once, not grown four times.
        let mut tf: FxHashMap<u64, f32> =
            FxHashMap::with_capacity_and_hasher(256, Default::default());
        let mut buf = String::new();
        for (text, weight) in [(title, 2.0), (abs, 1.0)] {
            // The words as the pages show them: `Schr\"odinger` is "Schrödinger", one word.
            let text = crate::render::math::plain_text(text);
            for_each_term(&text, &mut buf, |word, t| {
                if !self.stop.contains(&word) {
                    *tf.entry(t).or_default() += weight;
                }
            });
        }
        tf.into_iter().collect()
    }
}

const STOP: &[&str] = &[
    "the",
    "and",
    "for",
    "with",
    "that",
    "this",
    "are",
    "from",
    "our",
    "we",
    "which",
    "can",
    "these",
    "such",
    "also",
    "has",
    "have",
    "been",
    "was",
    "were",
    "its",
    "their",
    "not",
    "but",
    "using",
    "use",
    "used",
    "based",
    "show",
    "paper",
    "propose",
    "proposed",
    "approach",
    "method",
    "methods",
    "results",
    "new",
    "than",
    "into",
    "between",
    "both",
    "more",
    "other",
    "while",
    "two",
    "one",
    "how",
    "what",
    "when",
    "where",
    "who",
    "all",
    "any",
    "each",
    "most",
    "only",
    "over",
    "under",
    "via",
    "through",
    "work",
    "study",
    "present",
    "however",
    "further",
    "may",
    "well",
    "well",
    "able",
    "then",
    "there",
    "they",
    "them",
    "here",
    "first",
    "different",
];

/// The most papers a term may be in and still count towards similarity: it bounds the
/// scoring of one paper to TERMS_PER_DOC x MAX_DF postings. Below 20,000 papers the tenth
/// of the corpus is the lower bound and this changes nothing.
const MAX_DF: u32 = 2_000;

/// The cosine similarity a related paper must exceed, and the fewest of its kept terms it
/// must share. One shared word made most of the nonsense a reader saw: a paper whose
/// abstract the feed left out is a vector of a few title words, so "exposure" alone put
/// cypermethrin in fish beside radiation in spaceflight at 0.28. Two shared words were
/// not enough either: "Attention Is All You Need" listed "Accelerating Test Automation
/// through a Domain Specific Language" first (0.18, on two words). Measured on
/// the example site (344 papers; two of them at random share an arXiv category 19 % of the
/// time), pairs sharing two terms share a category 37-47 % of the time in every band of
/// similarity below 0.20 and 64 % or more above it; pairs sharing three or more, 55-82 %
/// in every band above 0.08. A paper is listed where pairs like it share a category more
/// often than not: three shared terms and above 0.10, or two and above 0.20. Of the
/// example's 344 papers 231 then have a list (443 links, 67 % sharing a category, against
/// 308 papers, 892 links and 56 % with two terms above 0.10); the others say that the site
/// has no closely related paper.
const MIN_SCORE: f32 = 0.10;
const MIN_SHARED: u32 = 3;
const MIN_SCORE_TWO_SHARED: f32 = 0.20;

/// Documents read at a time.
const BATCH: usize = 256;

/// The ranges of `n` documents read a batch at a time, in order, on all cores.
pub(crate) fn batches(n: usize) -> impl IndexedParallelIterator<Item = std::ops::Range<usize>> {
    (0..n.div_ceil(BATCH))
        .into_par_iter()
        .map(move |b| b * BATCH..n.min((b + 1) * BATCH))
}

/// For each of `n` documents, up to `k` others, most similar first. `terms(range)` gives
/// those documents' terms (`TermCounter::terms`), counted or borrowed from where they are
/// held; each is asked for twice, a batch at a time, so they need not all be in memory at
/// once.
pub fn related<'t, E: Send>(
    n: usize,
    terms: impl Fn(std::ops::Range<usize>) -> Result<Cow<'t, [Terms]>, E> + Sync,
    k: usize,
) -> Result<Vec<Vec<usize>>, E> {
    if n < 2 {
        return Ok(vec![Vec::new(); n]);
    }
    let df: FxHashMap<u64, u32> = batches(n)
        .try_fold(FxHashMap::default, |mut df, range| {
            for doc in terms(range)?.iter() {
                for &(t, _) in doc {
                    *df.entry(t).or_default() += 1;
                }
            }
            Ok(df)
        })
        .try_reduce(FxHashMap::default, |mut a, b| {
            for (t, c) in b {
                *a.entry(t).or_default() += c;
            }
            Ok(a)
        })?;
    // Terms in more than a tenth of the papers say little about any one of them; and a
    // term's postings are scanned for every paper that keeps it, so past MAX_DF papers it
    // would make the work grow with the square of the corpus (arXiv holds thousands of
    // identical "This paper has been withdrawn" abstracts).
    let max_df = (((n as f32) * 0.1) as u32).clamp(3, MAX_DF);
    let vector = |doc: &Terms| -> Vec<(u64, f32)> {
        let mut v: Vec<(u64, f32)> = doc
            .iter()
            .filter_map(|&(t, f)| {
                let d = df[&t];
                (d >= 2 && d <= max_df).then(|| (t, (1.0 + f.ln()) * ((n as f32) / d as f32).ln()))
            })
            .collect();
        v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        v.truncate(TERMS_PER_DOC);
        let norm = v.iter().map(|(_, w)| w * w).sum::<f32>().sqrt().max(1e-9);
        // A new vector of exactly the kept terms: collecting from `v.into_iter()` would
        // reuse the allocation sized for all of the paper's terms (a gigabyte over a
        // million papers).
        v.iter().map(|&(t, w)| (t, w / norm)).collect()
    };
    let vectors: Vec<Vec<(u64, f32)>> = batches(n)
        .map(|range| Ok(terms(range)?.iter().map(vector).collect::<Vec<_>>()))
        .collect::<Result<Vec<Vec<_>>, E>>()?
        .into_iter()
        .flatten()
        .collect();
    drop(df);
    let mut term_ids: FxHashMap<u64, u32> = FxHashMap::default();
    let mut postings: Vec<Vec<(u32, f32)>> = Vec::new();
    let vectors: Vec<Vec<(u32, f32)>> = vectors
        .into_iter()
        .enumerate()
        .map(|(doc, v)| {
            v.into_iter()
                .map(|(t, w)| {
                    let next = term_ids.len() as u32;
                    let id = *term_ids.entry(t).or_insert(next);
                    if id == next {
                        postings.push(Vec::new());
                    }
                    postings[id as usize].push((doc as u32, w));
                    (id, w)
                })
                .collect()
        })
        .collect();
    Ok(vectors
        .par_iter()
        .enumerate()
        .map(|(doc, v)| {
            // Each other paper's score and how many of this paper's terms it shares.
            let mut scores: FxHashMap<u32, (f32, u32)> = FxHashMap::default();
            for &(t, w) in v {
                for &(other, w2) in &postings[t as usize] {
                    if other as usize != doc {
                        let s = scores.entry(other).or_default();
                        s.0 += w * w2;
                        s.1 += 1;
                    }
                }
            }
            let mut best: Vec<(u32, f32)> = scores
                .into_iter()
                .filter(|&(_, (s, shared))| {
                    (s > MIN_SCORE && shared >= MIN_SHARED)
                        || (s > MIN_SCORE_TWO_SHARED && shared >= 2)
                })
                .map(|(other, (s, _))| (other, s))
                .collect();
            best.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            best.truncate(k);
            best.into_iter().map(|(d, _)| d as usize).collect()
        })
        .collect())
}

#[cfg(test)]
mod tests;
