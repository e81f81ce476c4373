//! A search index that works on any static host: postings sharded by term prefix and
//! document details in numbered chunks, so a query downloads one small shard per word
//! and the chunks holding its top results, however large the site.
//!
//! Layout under `search/`:
//! - `meta.json`: `{"prefix": 2, "chunk": 500, "docs": N, "shards": ["ab", …]}`
//! - `index/<prefix>.json`: `{"term": [doc, score, doc, score, …], …}`, best first
//! - `docs/<n>.json`: `[[url, title, authors, date, category], …]` for docs n*chunk…

use crate::render::views::{Urls, paper_rel};
use crate::site::Site;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Postings kept per term: a digest search wants the best matches, not every one.
const MAX_POSTINGS: usize = 1000;
const CHUNK: usize = 500;

/// The same tokenizer as `search.js`: lower case, split on anything not a letter or digit.
/// Words already in lower-case ASCII are borrowed, not copied.
pub fn tokenize(s: &str) -> impl Iterator<Item = Cow<'_, str>> + '_ {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(|t| {
            if t.bytes().any(|b| b.is_ascii_uppercase() || !b.is_ascii()) {
                Cow::Owned(t.to_lowercase())
            } else {
                Cow::Borrowed(t)
            }
        })
}

/// (document, weight) pairs of one term.
type Postings = Vec<(u32, f32)>;

/// How many papers have a term, and its best postings.
type Counted = (u32, Postings);

/// Papers tokenized at once.
const BATCH: usize = 4096;

/// Higher weight first, then lower document number: a total order, so which postings
/// survive `keep_best` does not depend on the order they arrived in.
fn best_first(a: &(u32, f32), b: &(u32, f32)) -> std::cmp::Ordering {
    b.1.total_cmp(&a.1).then(a.0.cmp(&b.0))
}

/// Drops all but the `MAX_POSTINGS` best postings.
fn keep_best(list: &mut Postings) {
    if list.len() > MAX_POSTINGS {
        list.select_nth_unstable_by(MAX_POSTINGS - 1, best_first);
        list.truncate(MAX_POSTINGS);
    }
}

/// Weighted term frequencies of one paper, length-normalised so long abstracts do not
/// win every query; terms sorted, so the postings come out in a fixed order.
fn weighted_terms<'a>(
    p: &'a crate::site::PaperEntry,
    abstract_text: &'a str,
) -> Vec<(String, f32)> {
    let f = &p.front;
    // A paper has a hundred-odd distinct words: sized once, not grown four times.
    let mut tf: FxHashMap<Cow<str>, f32> =
        FxHashMap::with_capacity_and_hasher(256, Default::default());
    let mut add = |text: &'a str, weight: f32| {
        for t in tokenize(text) {
            *tf.entry(t).or_default() += weight;
        }
    };
    add(&f.title, 3.0);
    for a in &f.authors {
        add(a, 3.0);
    }
    for c in &f.categories {
        add(c, 2.0);
    }
    add(f.id.as_str(), 3.0);
    add(abstract_text, 1.0);
    let mut terms: Vec<(String, f32)> = tf.into_iter().map(|(t, w)| (t.into_owned(), w)).collect();
    terms.sort_by(|a, b| a.0.cmp(&b.0));
    // Summed in term order: the same floats whatever order the map gave.
    let len = terms.iter().map(|t| t.1).sum::<f32>().max(1.0).sqrt();
    for t in &mut terms {
        t.1 /= len;
    }
    terms
}

/// Adds one batch of papers' terms (the first paper is number `first`) to the postings.
fn merge_batch(
    postings: &mut FxHashMap<String, Counted>,
    per_doc: Vec<Vec<(String, f32)>>,
    first: usize,
) {
    for (j, terms) in per_doc.into_iter().enumerate() {
        let doc = (first + j) as u32;
        for (t, w) in terms {
            let (count, list) = postings.entry(t).or_default();
            *count += 1;
            list.push((doc, w));
            if list.len() >= 2 * MAX_POSTINGS {
                keep_best(list);
            }
        }
    }
}

/// The files of the index, as (site-relative path, JSON text).
pub fn build_index(site: &Site, urls: &Urls) -> anyhow::Result<Vec<(String, String)>> {
    let n = site.papers.len();
    // Larger sites get finer shards so the first query stays small.
    let prefix = if n > 20_000 { 3 } else { 2 };
    // Papers are tokenized a batch at a time and each term keeps only its best postings
    // (and a count, for its idf), so memory follows the vocabulary, not the corpus.
    let mut postings: FxHashMap<String, Counted> = FxHashMap::default();
    let tokenize_batch = |b: usize| -> anyhow::Result<Vec<Vec<(String, f32)>>> {
        let start = b * BATCH;
        let abstracts = site.abstracts_of(start..n.min(start + BATCH))?;
        Ok(abstracts
            .par_iter()
            .enumerate()
            .map(|(j, a)| weighted_terms(&site.papers[start + j], a))
            .collect())
    };
    let batches = n.div_ceil(BATCH);
    let mut next = (batches > 0).then(|| tokenize_batch(0)).transpose()?;
    let mut b = 0;
    while let Some(per_doc) = next.take() {
        // The next batch is tokenized while this one is merged.
        let ((), upcoming) = rayon::join(
            || merge_batch(&mut postings, per_doc, b * BATCH),
            || (b + 1 < batches).then(|| tokenize_batch(b + 1)),
        );
        next = upcoming.transpose()?;
        b += 1;
    }
    let mut shards: BTreeMap<String, Vec<(String, Counted)>> = BTreeMap::new();
    for (term, counted) in postings {
        let key: String = term.chars().take(prefix).collect();
        shards.entry(key).or_default().push((term, counted));
    }
    let meta = serde_json::json!({
        "prefix": prefix,
        "chunk": CHUNK,
        "docs": n,
        "shards": shards.keys().collect::<Vec<_>>(),
    });
    let mut files = vec![("search/meta.json".to_string(), meta.to_string())];
    let shard_files: Vec<(String, String)> = shards
        .into_par_iter()
        .map(|(key, terms)| {
            let mut map = serde_json::Map::new();
            for (term, (count, mut list)) in terms {
                let idf = ((n as f32 + 1.0) / (count as f32)).ln() + 1.0;
                keep_best(&mut list);
                list.sort_by(best_first);
                let flat: Vec<serde_json::Value> = list
                    .iter()
                    .flat_map(|&(d, s)| {
                        [d.into(), ((s * idf * 100.0).round() as u32).max(1).into()]
                    })
                    .collect();
                map.insert(term, flat.into());
            }
            (
                format!("search/index/{}.json", shard_file(&key)),
                serde_json::Value::Object(map).to_string(),
            )
        })
        .collect();
    files.extend(shard_files);
    let doc_files: Vec<(String, String)> = site
        .papers
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let docs: Vec<serde_json::Value> = chunk
                .iter()
                .map(|p| {
                    let f = &p.front;
                    let mut authors: Vec<&str> =
                        f.authors.iter().take(4).map(String::as_str).collect();
                    if f.authors.len() > 4 {
                        authors.push("et al.");
                    }
                    serde_json::json!([
                        urls.path(&paper_rel(p)),
                        f.title,
                        authors.join(", "),
                        crate::render::views::ymd(&f.published, '-'),
                        f.primary_category,
                    ])
                })
                .collect();
            (
                format!("search/docs/{c}.json"),
                serde_json::Value::Array(docs).to_string(),
            )
        })
        .collect();
    files.extend(doc_files);
    Ok(files)
}

/// A file name for a shard key: letters and digits stay, anything else is hex-escaped
/// (so `ü` and `.` cannot clash with each other or with the file system).
pub fn shard_file(key: &str) -> String {
    key.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_string()
            } else {
                format!("_{:x}", c as u32)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_lower_case_words_borrowed_when_they_can_be() {
        let text = "GPU-based ǅemo: naïve Straße, x2 ΣΑΣ";
        let tokens: Vec<Cow<str>> = tokenize(text).collect();
        assert_eq!(
            tokens,
            ["gpu", "based", "ǆemo", "naïve", "straße", "x2", "σας"]
        );
        // The same as lower-casing each word whole (final sigma included, as in JavaScript).
        for (t, word) in tokens.iter().zip(
            text.split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty()),
        ) {
            assert_eq!(t.as_ref(), word.to_lowercase());
        }
        assert!(matches!(tokens[1], Cow::Borrowed(_)));
    }
}
