//! Related papers: tf-idf over titles and abstracts, cosine similarity, a handful per paper,
//! computed at build time. Each paper keeps only its strongest terms and very common terms
//! are skipped, so the work grows with the corpus rather than with its square.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// Terms kept per paper.
const TERMS_PER_DOC: usize = 24;

pub fn tokens(s: &str) -> impl Iterator<Item = String> + '_ {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|t| t.chars().count() >= 3)
        .map(|t| t.to_lowercase())
        .filter(|t| !STOP.contains(&t.as_str()) && !t.chars().all(|c| c.is_ascii_digit()))
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

/// For each document (title, abstract), up to `k` others, most similar first.
pub fn related(docs: &[(&str, &str)], k: usize) -> Vec<Vec<usize>> {
    let n = docs.len();
    if n < 2 {
        return vec![Vec::new(); n];
    }
    // Term frequencies, the title counting double.
    let tfs: Vec<FxHashMap<String, f32>> = docs
        .par_iter()
        .map(|(title, abs)| {
            let mut tf: FxHashMap<String, f32> = FxHashMap::default();
            for t in tokens(title) {
                *tf.entry(t).or_default() += 2.0;
            }
            for t in tokens(abs) {
                *tf.entry(t).or_default() += 1.0;
            }
            tf
        })
        .collect();
    let mut df: FxHashMap<&str, u32> = FxHashMap::default();
    for tf in &tfs {
        for t in tf.keys() {
            *df.entry(t.as_str()).or_default() += 1;
        }
    }
    // Terms in more than a tenth of the papers say little about any one of them.
    let max_df = ((n as f32) * 0.1).max(3.0) as u32;
    let mut term_ids: FxHashMap<&str, u32> = FxHashMap::default();
    let vectors: Vec<Vec<(u32, f32)>> = tfs
        .iter()
        .map(|tf| {
            let mut v: Vec<(&str, f32)> = tf
                .iter()
                .filter_map(|(t, &f)| {
                    let d = df[t.as_str()];
                    (d >= 2 && d <= max_df)
                        .then(|| (t.as_str(), (1.0 + f.ln()) * ((n as f32) / d as f32).ln()))
                })
                .collect();
            v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
            v.truncate(TERMS_PER_DOC);
            let norm = v.iter().map(|(_, w)| w * w).sum::<f32>().sqrt().max(1e-9);
            v.into_iter()
                .map(|(t, w)| {
                    let next = term_ids.len() as u32;
                    (*term_ids.entry(t).or_insert(next), w / norm)
                })
                .collect()
        })
        .collect();
    let mut postings: Vec<Vec<(u32, f32)>> = vec![Vec::new(); term_ids.len()];
    for (doc, v) in vectors.iter().enumerate() {
        for &(t, w) in v {
            postings[t as usize].push((doc as u32, w));
        }
    }
    vectors
        .par_iter()
        .enumerate()
        .map(|(doc, v)| {
            let mut scores: FxHashMap<u32, f32> = FxHashMap::default();
            for &(t, w) in v {
                for &(other, w2) in &postings[t as usize] {
                    if other as usize != doc {
                        *scores.entry(other).or_default() += w * w2;
                    }
                }
            }
            let mut best: Vec<(u32, f32)> = scores.into_iter().filter(|(_, s)| *s > 0.05).collect();
            best.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            best.truncate(k);
            best.into_iter().map(|(d, _)| d as usize).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_paper_on_the_same_topic() {
        let docs = [
            (
                "Byzantine consensus for blockchains",
                "We study Byzantine fault tolerant consensus protocols for permissioned blockchains.",
            ),
            (
                "Graph neural network training",
                "Sampling neighbors for distributed graph neural network training on GPUs.",
            ),
            (
                "Faster Byzantine agreement",
                "A consensus protocol tolerating Byzantine faults with fewer messages for blockchains.",
            ),
            (
                "Prefetching for GNN training",
                "Remote node prefetching speeds up distributed graph neural network training.",
            ),
            ("Cooking pasta", "Boil water, add salt and pasta."),
        ];
        let r = related(&docs, 2);
        assert_eq!(r[0].first(), Some(&2));
        assert_eq!(r[1].first(), Some(&3));
        assert!(r[4].is_empty());
    }
}
