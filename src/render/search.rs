//! A search index that works on any static host: postings sharded by term prefix and
//! document details in numbered chunks, so a query downloads one small shard per word
//! and the chunks holding its top results, however large the site.
//!
//! Layout under `search/`:
//! - `meta.json`: `{"prefix": 2, "chunk": 500, "docs": N, "shards": ["ab", …]}`
//! - `index/<prefix>.json`: `{"term": [doc, score, doc, score, …], …}`, best first
//! - `docs/<n>.json`: `[[url, title, authors, date, category], …]` for docs n*chunk…

use crate::manifest::Fingerprint;
use crate::render::views::{Urls, paper_rel};
use crate::site::Site;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Postings kept per term: a digest search wants the best matches, not every one.
const MAX_POSTINGS: usize = 1000;

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

/// A paper's document number and weighted terms.
type DocTerms = (usize, Vec<(String, f32)>);

/// Adds one batch of papers' terms, each with its document number, to the postings.
fn merge_batch(postings: &mut FxHashMap<String, Counted>, per_doc: Vec<DocTerms>) {
    for (doc, terms) in per_doc {
        let doc = doc as u32;
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

/// What the index of the last build was made from, kept so that the next build only
/// tokenizes the papers added since. A term's postings are the best `MAX_POSTINGS` by
/// weight, and a paper's weights depend on that paper alone, so the best of (the kept
/// postings + the new papers') are exactly what tokenizing every paper again gives. The
/// idf is applied when the shards are written, from the counts.
///
/// Read with owned terms (`String`), written borrowing them (`&str`).
#[derive(Serialize, Deserialize)]
pub struct SearchState<S = String> {
    format: u32,
    /// A new paperboy may weigh words differently.
    binary: String,
    /// Every paper's `corpus_hash`, in document order.
    docs: Vec<Fingerprint>,
    terms: Vec<KeptTerm<S>>,
}

/// A term as the state keeps it: the term, how many papers have it, its best postings as
/// (document, weight's bits).
type KeptTerm<S> = (S, u32, Vec<(u32, u32)>);

/// The papers still to tokenize, and the postings of the others.
type Resumed = (Vec<usize>, FxHashMap<String, Counted>);

/// Bumped when what the state holds, or how weights are computed, changes.
const STATE_FORMAT: u32 = 2;

/// The state is postcard after this prefix: at 100k papers it is 20 MB, which JSON took
/// most of a hundred milliseconds to read.
const STATE_MAGIC: &[u8; 8] = b"pbsearch";

impl SearchState {
    /// The state in `bytes`; none if they are not one.
    pub fn decode(bytes: &[u8]) -> Option<SearchState> {
        postcard::from_bytes(bytes.strip_prefix(STATE_MAGIC)?).ok()
    }

    /// Its postings, renumbered for `site`, and the papers of `site` it lacks; none if a
    /// paper it covers changed or went. Papers are numbered in id order, so papers it
    /// covers keep their order among themselves and a tie between two of them is broken
    /// as before.
    fn postings_for(self, site: &Site) -> Option<Resumed> {
        if self.format != STATE_FORMAT || self.binary != crate::manifest::binary_identity() {
            return None;
        }
        let now: FxHashMap<Fingerprint, usize> = site
            .papers
            .iter()
            .enumerate()
            .map(|(i, p)| (p.corpus_hash, i))
            .collect();
        let renumber: Vec<u32> = self
            .docs
            .iter()
            .map(|h| now.get(h).map(|&i| i as u32))
            .collect::<Option<_>>()?;
        if !renumber.is_sorted_by(|a, b| a < b) {
            return None;
        }
        let mut covered = vec![false; site.papers.len()];
        for &i in &renumber {
            covered[i as usize] = true;
        }
        let missing = (0..site.papers.len()).filter(|&i| !covered[i]).collect();
        let postings = self
            .terms
            .into_iter()
            .map(|(term, count, list)| {
                let list = list
                    .into_iter()
                    .map(|(d, w)| Some((*renumber.get(d as usize)?, f32::from_bits(w))))
                    .collect::<Option<_>>()?;
                Some((term, (count, list)))
            })
            .collect::<Option<_>>()?;
        Some((missing, postings))
    }
}

/// The abstracts of papers `docs`, read together where they are consecutive.
fn abstracts_for<'s>(site: &'s Site, docs: &[usize]) -> anyhow::Result<Vec<Cow<'s, str>>> {
    match (docs.first(), docs.last()) {
        (Some(&first), Some(&last)) if last - first + 1 == docs.len() => {
            site.abstracts_of(first..last + 1)
        }
        _ => docs.iter().map(|&i| site.abstract_of(i)).collect(),
    }
}

/// The index and what to keep of it.
pub struct Index {
    /// (site-relative path, JSON text).
    pub files: Vec<(String, String)>,
    /// The `SearchState` for the next build, encoded, when asked for.
    pub state: Option<Vec<u8>>,
}

/// The files of the index but the document details (`doc_chunk`), and with `keep` the
/// state to keep for the next build. With `previous`, papers it covers are not tokenized
/// again.
pub fn build_index(
    site: &Site,
    previous: Option<SearchState>,
    keep: bool,
) -> anyhow::Result<Index> {
    let n = site.papers.len();
    // Larger sites get finer shards so the first query stays small.
    let prefix = if n > 20_000 { 3 } else { 2 };
    // Papers are tokenized a batch at a time and each term keeps only its best postings
    // (and a count, for its idf), so memory follows the vocabulary, not the corpus.
    let (todo, mut postings) = previous
        .and_then(|state| state.postings_for(site))
        .unwrap_or_else(|| ((0..n).collect(), FxHashMap::default()));
    let batches: Vec<&[usize]> = todo.chunks(BATCH).collect();
    let tokenize_batch = |docs: &[usize]| -> anyhow::Result<Vec<DocTerms>> {
        let abstracts = abstracts_for(site, docs)?;
        Ok(docs
            .par_iter()
            .zip(abstracts.par_iter())
            .map(|(&i, a)| (i, weighted_terms(&site.papers[i], a)))
            .collect())
    };
    let mut next = batches
        .first()
        .map(|docs| tokenize_batch(docs))
        .transpose()?;
    let mut b = 0;
    while let Some(per_doc) = next.take() {
        // The next batch is tokenized while this one is merged.
        let ((), upcoming) = rayon::join(
            || merge_batch(&mut postings, per_doc),
            || batches.get(b + 1).map(|docs| tokenize_batch(docs)),
        );
        next = upcoming.transpose()?;
        b += 1;
    }
    let mut terms: Vec<(String, Counted)> = postings.into_iter().collect();
    terms.par_iter_mut().for_each(|(_, (_, list))| {
        keep_best(list);
        list.sort_by(best_first);
    });
    terms.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let state = keep
        .then(|| {
            let bytes = STATE_MAGIC.to_vec();
            postcard::to_extend(
                &SearchState {
                    format: STATE_FORMAT,
                    binary: crate::manifest::binary_identity(),
                    docs: site.papers.iter().map(|p| p.corpus_hash).collect(),
                    terms: terms
                        .iter()
                        .map(|(term, (count, list))| {
                            let bits = list.iter().map(|&(d, w)| (d, w.to_bits())).collect();
                            (term.as_str(), *count, bits)
                        })
                        .collect(),
                },
                bytes,
            )
        })
        .transpose()?;
    // Shards own their terms, so that each term's postings go once its shard is written.
    let mut shards: BTreeMap<String, Vec<(String, Counted)>> = BTreeMap::new();
    for entry in terms {
        let key: String = entry.0.chars().take(prefix).collect();
        shards.entry(key).or_default().push(entry);
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
            for (term, (count, list)) in terms {
                let idf = ((n as f32 + 1.0) / (count as f32)).ln() + 1.0;
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
    Ok(Index { files, state })
}

/// Papers per file of document details.
pub const CHUNK: usize = 500;

/// Where chunk `c` of the document details goes.
pub fn doc_chunk_rel(c: usize) -> String {
    format!("search/docs/{c}.json")
}

/// The document details of papers `range` (one chunk): url, title, the first authors,
/// date and category of each. They depend on those papers alone, so a chunk whose papers
/// did not change need not be made again.
pub fn doc_chunk(site: &Site, urls: &Urls, range: std::ops::Range<usize>) -> String {
    let docs: Vec<serde_json::Value> = site.papers[range]
        .iter()
        .map(|p| {
            let f = &p.front;
            let mut authors: Vec<&str> = f.authors.iter().take(4).map(String::as_str).collect();
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
    serde_json::Value::Array(docs).to_string()
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
