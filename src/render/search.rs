//! A search index that works on any static host and finds every paper that matches: the
//! complete postings of every word, stemmed (Snowball, English), so an AND query intersects
//! whole lists and the count it shows is exact. A query downloads one lexicon shard per
//! word (its words, their stems and how many papers have each), the postings of those
//! stems, and the document details of the page of results it shows.
//!
//! Layout under `search/`:
//! - `meta.json`: `{"format": 3, "docs": N, "chunk": 10, "prefix": 2, "big": 100,
//!   "lex": [shard keys], "post": [shard keys], "categories": [[name, papers], …],
//!   "years": [[year, papers], …]}`
//! - `lex/<prefix of the word>.json`: `{"graphs": ["graph", 412], …}`
//! - `post/<prefix of the stem>.json`: `{"graph": [doc, score, +doc, score, …], …}` for
//!   stems in fewer than `big` papers; `term/<stem>.json`: the same list alone for the
//!   others. Documents ascend, each but the first as the gap from the one before.
//!   Categories and years are terms too (`c:cs.dc`, `y:2025`), which is how results are
//!   filtered by them.
//! - `docs/<n>.json`: `[[url, title, authors, date, category, abstract], …]` for docs
//!   n*chunk…

use crate::manifest::Fingerprint;
use crate::render::views::{Urls, paper_rel};
use crate::site::Site;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Stems in at least this many papers get a postings file of their own; rarer ones share a
/// file with the stems of the same prefix.
const BIG: usize = 100;

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

/// The stem a word is indexed under: Snowball's English stemmer for words of letters
/// ("graphs" and "graph" meet), the word itself when it has a digit (ids, years, "x2").
pub fn stem<'w>(stemmer: &rust_stemmers::Stemmer, word: &'w str) -> Cow<'w, str> {
    if word.chars().any(|c| c.is_numeric()) {
        Cow::Borrowed(word)
    } else {
        stemmer.stem(word)
    }
}

fn english() -> rust_stemmers::Stemmer {
    rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English)
}

/// The filter term of a category.
fn category_term(category: &str) -> String {
    format!("c:{}", category.to_lowercase())
}

/// (document, weight) pairs of one stem.
type Postings = Vec<(u32, f32)>;

/// Papers tokenized at once.
const BATCH: usize = 4096;

/// A paper's weighted stems, length-normalised so long abstracts do not win every query
/// and sorted (so postings come out in a fixed order), and the words it was written with.
struct DocTerms {
    doc: usize,
    stems: Vec<(String, f32)>,
    words: Vec<(String, String)>,
}

/// Snowball and the stems it already gave: most words recur from paper to paper, and
/// stemming each again was most of the index's time.
struct Stems {
    stemmer: rust_stemmers::Stemmer,
    known: FxHashMap<String, String>,
}

impl Stems {
    fn new() -> Stems {
        Stems {
            stemmer: english(),
            known: FxHashMap::default(),
        }
    }

    fn of(&mut self, word: &str) -> &str {
        if !self.known.contains_key(word) {
            let s = stem(&self.stemmer, word).into_owned();
            self.known.insert(word.to_string(), s);
        }
        &self.known[word]
    }
}

fn weighted_terms(
    stems_of: &mut Stems,
    doc: usize,
    p: &crate::site::PaperEntry,
    abstract_text: &str,
) -> DocTerms {
    let f = &p.front;
    // A paper has a hundred-odd distinct words: sized once, not grown four times.
    let mut tf: FxHashMap<String, f32> =
        FxHashMap::with_capacity_and_hasher(256, Default::default());
    let mut words: FxHashMap<String, String> =
        FxHashMap::with_capacity_and_hasher(256, Default::default());
    let mut add = |text: &str, weight: f32| {
        for t in tokenize(text) {
            if let Some(s) = words.get(t.as_ref()) {
                *tf.entry(s.clone()).or_default() += weight;
                continue;
            }
            let s = stems_of.of(&t).to_string();
            words.insert(t.into_owned(), s.clone());
            *tf.entry(s).or_default() += weight;
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
    let mut stems: Vec<(String, f32)> = tf.into_iter().collect();
    stems.sort_by(|a, b| a.0.cmp(&b.0));
    // Summed in term order: the same floats whatever order the map gave.
    let len = stems.iter().map(|t| t.1).sum::<f32>().max(1.0).sqrt();
    for t in &mut stems {
        t.1 /= len;
    }
    // Filters: the smallest weight, so they never decide a ranking.
    let mut filters: Vec<String> = f.categories.iter().map(|c| category_term(c)).collect();
    filters.push(format!(
        "y:{}",
        crate::render::views::ymd(&f.published, '-')
            .get(..4)
            .unwrap_or("")
    ));
    filters.sort();
    filters.dedup();
    stems.extend(filters.into_iter().map(|t| (t, 0.0)));
    let mut words: Vec<(String, String)> = words.into_iter().collect();
    words.sort();
    DocTerms { doc, stems, words }
}

/// Every stem's postings and every word's stem, as built so far.
#[derive(Default)]
struct Collected {
    stems: FxHashMap<String, Postings>,
    words: FxHashMap<String, String>,
    /// With a kept state: the words it lacked, which the segment for the new papers holds.
    fresh_words: Option<Vec<(String, String)>>,
}

/// Adds one batch of papers' terms to the postings.
fn merge_batch(all: &mut Collected, per_doc: Vec<DocTerms>) {
    for d in per_doc {
        let doc = d.doc as u32;
        for (t, w) in d.stems {
            all.stems.entry(t).or_default().push((doc, w));
        }
        for (word, stemmed) in d.words {
            if let std::collections::hash_map::Entry::Vacant(v) = all.words.entry(word) {
                if let Some(fresh) = &mut all.fresh_words {
                    fresh.push((v.key().clone(), stemmed.clone()));
                }
                v.insert(stemmed);
            }
        }
    }
}

/// What one build tokenized, kept so that the next build only tokenizes the papers
/// added since: a stem's postings are those of each paper, and a paper's weights depend on
/// that paper alone, so the kept postings plus the new papers' are exactly what tokenizing
/// every paper again gives. The idf is applied when the files are written.
///
/// Read with owned terms (`String`), written borrowing them (`&str`).
#[derive(Serialize, Deserialize)]
pub struct SearchState<S = String> {
    format: u32,
    /// A new paperboy may weigh words differently.
    binary: String,
    /// The `corpus_hash` of each paper it covers, in document order; its postings number
    /// them from 0.
    docs: Vec<Fingerprint>,
    /// Each stem and its postings as (document, weight's bits).
    terms: Vec<(S, Vec<(u32, u32)>)>,
    /// Each word its papers were written with, and its stem.
    words: Vec<(S, S)>,
}

/// The kept state: `STATE_MAGIC`, then segments, each a little-endian `u64` length and a
/// postcard `SearchState`. A weekly build appends one segment for its new papers, rather
/// than rewriting postings it read (tens of MB at 100k papers); after `MAX_SEGMENTS`, or
/// when a paper changed or went, the state is written again as one segment. An append cut
/// short leaves a segment that does not decode: anything that does not decode is no state.
pub struct KeptState {
    segments: Vec<SearchState>,
}

/// What the build hands back to be kept: the whole file, or a segment to append to it.
pub enum StateWrite {
    Whole(Vec<u8>),
    Append(Vec<u8>),
}

/// The papers still to tokenize, the postings of the others, and the segments they came
/// from.
type Resumed = (Vec<usize>, Collected, usize);

/// Bumped when what the state holds, or how weights are computed, changes.
const STATE_FORMAT: u32 = 3;

/// Segments a state may have before it is written again whole: a year of weekly builds
/// rewrites it six times instead of fifty-two.
const MAX_SEGMENTS: usize = 8;

/// The state is postcard after this prefix: at 100k papers it is tens of MB, which JSON
/// took most of a second to read.
const STATE_MAGIC: &[u8; 8] = b"pbsrchs1";

impl KeptState {
    /// The state in `bytes`; none if they are not one.
    pub fn decode(bytes: &[u8]) -> Option<KeptState> {
        let mut rest = bytes.strip_prefix(STATE_MAGIC)?;
        let mut frames = Vec::new();
        while !rest.is_empty() {
            let (len, tail) = rest.split_first_chunk::<8>()?;
            let len = usize::try_from(u64::from_le_bytes(*len)).ok()?;
            frames.push(tail.get(..len)?);
            rest = &tail[len..];
        }
        let segments = frames
            .into_par_iter()
            .map(|frame| postcard::from_bytes(frame).ok())
            .collect::<Option<Vec<SearchState>>>()?;
        Some(KeptState { segments })
    }

    /// Its postings, renumbered for `site` (papers are numbered in id order, and a new
    /// paper's id may come before older ones': the lists are sorted after), and the papers
    /// of `site` it lacks; none if a paper it covers changed or went.
    fn postings_for(self, site: &Site) -> Option<Resumed> {
        let binary = crate::manifest::binary_identity();
        if self.segments.is_empty()
            || self
                .segments
                .iter()
                .any(|s| s.format != STATE_FORMAT || s.binary != binary)
        {
            return None;
        }
        let now: FxHashMap<Fingerprint, usize> = site
            .papers
            .iter()
            .enumerate()
            .map(|(i, p)| (p.corpus_hash, i))
            .collect();
        let renumber: Vec<u32> = self
            .segments
            .iter()
            .flat_map(|s| &s.docs)
            .map(|h| now.get(h).map(|&i| i as u32))
            .collect::<Option<_>>()?;
        let mut covered = vec![false; site.papers.len()];
        for &i in &renumber {
            covered[i as usize] = true;
        }
        let missing = (0..site.papers.len()).filter(|&i| !covered[i]).collect();
        let segments = self.segments.len();
        let mut all = Collected::default();
        let mut first = 0;
        for segment in self.segments {
            let renumber = renumber.get(first..first + segment.docs.len())?;
            first += segment.docs.len();
            for (term, list) in segment.terms {
                let postings = all.stems.entry(term).or_default();
                for (d, w) in list {
                    postings.push((*renumber.get(d as usize)?, f32::from_bits(w)));
                }
            }
            all.words.extend(segment.words);
        }
        Some((missing, all, segments))
    }
}

/// The state to keep for papers `docs` (ascending) of `site`, their postings taken from
/// `terms` and their words from `words`, encoded.
fn encoded_state(
    site: &Site,
    docs: &[usize],
    terms: &[(String, Postings)],
    words: &[(String, String)],
) -> anyhow::Result<Vec<u8>> {
    let whole = docs.len() == site.papers.len();
    // Document numbers within the segment.
    let mut local = vec![u32::MAX; if whole { 0 } else { site.papers.len() }];
    for (k, &d) in docs.iter().enumerate() {
        if !whole {
            local[d] = k as u32;
        }
    }
    let state = SearchState {
        format: STATE_FORMAT,
        binary: crate::manifest::binary_identity(),
        docs: docs.iter().map(|&i| site.papers[i].corpus_hash).collect(),
        terms: terms
            .iter()
            .filter_map(|(term, list)| {
                let bits: Vec<(u32, u32)> = list
                    .iter()
                    .filter_map(|&(d, w)| {
                        let d = if whole { d } else { local[d as usize] };
                        (d != u32::MAX).then_some((d, w.to_bits()))
                    })
                    .collect();
                (!bits.is_empty()).then_some((term.as_str(), bits))
            })
            .collect(),
        words: words
            .iter()
            .map(|(w, s)| (w.as_str(), s.as_str()))
            .collect(),
    };
    Ok(postcard::to_allocvec(&state)?)
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

/// A list as the files hold it, as JSON text: documents ascending, each after the first as
/// the gap from the one before, each with its score (weight times idf, in hundredths; at
/// least 1).
fn encoded(list: &[(u32, f32)], idf: f32) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(list.len() * 6 + 2);
    out.push('[');
    let mut last = 0;
    for (i, &(d, w)) in list.iter().enumerate() {
        let score = ((w * idf * 100.0).round() as u32).max(1);
        let gap = if i == 0 { d } else { d - last };
        let sep = if i == 0 { "" } else { "," };
        let _ = write!(out, "{sep}{gap},{score}");
        last = d;
    }
    out.push(']');
    out
}

/// The files of the index but the document details (`doc_chunk`), each handed to `emit`
/// (site-relative path, JSON text) as soon as it is made, so that the index is never whole
/// in memory; and with `keep` the state to keep for the next build. With `previous`,
/// papers it covers are not tokenized again.
pub fn build_index(
    site: &Site,
    previous: Option<KeptState>,
    keep: Option<&(dyn Fn(StateWrite) + Sync)>,
    emit: &(dyn Fn(String, String) -> anyhow::Result<()> + Sync),
) -> anyhow::Result<()> {
    let n = site.papers.len();
    let (todo, mut all, segments) = previous
        .and_then(|state| state.postings_for(site))
        .unwrap_or_else(|| ((0..n).collect(), Collected::default(), 0));
    // A kept state is added to while it has room; any other is written whole.
    let append = segments > 0 && segments < MAX_SEGMENTS;
    if append {
        all.fresh_words = Some(Vec::new());
    }
    let batches: Vec<&[usize]> = todo.chunks(BATCH).collect();
    let tokenize_batch = |docs: &[usize]| -> anyhow::Result<Vec<DocTerms>> {
        let abstracts = abstracts_for(site, docs)?;
        Ok(docs
            .par_iter()
            .zip(abstracts.par_iter())
            .map_init(Stems::new, |stems, (&i, a)| {
                weighted_terms(stems, i, &site.papers[i], a)
            })
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
            || merge_batch(&mut all, per_doc),
            || batches.get(b + 1).map(|docs| tokenize_batch(docs)),
        );
        next = upcoming.transpose()?;
        b += 1;
    }
    let mut terms: Vec<(String, Postings)> = all.stems.into_iter().collect();
    terms
        .par_iter_mut()
        .for_each(|(_, list)| list.sort_by_key(|p| p.0));
    terms.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut words: Vec<(String, String)> = all.words.into_iter().collect();
    words.par_sort_unstable();
    // The state is encoded and kept while the files are made.
    let keep_state = || -> anyhow::Result<()> {
        let Some(keep) = keep else { return Ok(()) };
        let framed = |segment: Vec<u8>| {
            let mut bytes = Vec::with_capacity(segment.len() + 16);
            bytes.extend_from_slice(&(segment.len() as u64).to_le_bytes());
            bytes.extend_from_slice(&segment);
            bytes
        };
        if !append {
            let mut bytes = STATE_MAGIC.to_vec();
            let every: Vec<usize> = (0..n).collect();
            bytes.extend(framed(encoded_state(site, &every, &terms, &words)?));
            keep(StateWrite::Whole(bytes));
        } else if !todo.is_empty() {
            let mut fresh = all.fresh_words.take().unwrap_or_default();
            fresh.sort_unstable();
            keep(StateWrite::Append(framed(encoded_state(
                site, &todo, &terms, &fresh,
            )?)));
        }
        Ok(())
    };
    let (kept, made) = rayon::join(keep_state, || write_files(site, &terms, &words, emit));
    kept?;
    made
}

/// The lexicon, meta and postings files, each handed to `emit` as soon as it is made.
fn write_files(
    site: &Site,
    terms: &[(String, Postings)],
    words: &[(String, String)],
    emit: &(dyn Fn(String, String) -> anyhow::Result<()> + Sync),
) -> anyhow::Result<()> {
    let n = site.papers.len();
    // Larger sites get finer shards so that a query's lexicon shard stays small.
    let prefix = if n > 20_000 { 3 } else { 2 };
    let df: FxHashMap<&str, usize> = terms.iter().map(|(t, l)| (t.as_str(), l.len())).collect();
    let key_of = |t: &str| -> String { t.chars().take(prefix).collect() };

    // The lexicon: words (not the filter terms, which no one types) by their prefix.
    let mut lex: BTreeMap<String, serde_json::Map<String, serde_json::Value>> = BTreeMap::new();
    for (word, stemmed) in words {
        let papers = df.get(stemmed.as_str()).copied().unwrap_or(0);
        lex.entry(key_of(word))
            .or_default()
            .insert(word.clone(), serde_json::json!([stemmed, papers]));
    }
    let filters = |tag: &str| -> Vec<serde_json::Value> {
        let mut list: Vec<(&str, usize)> = terms
            .iter()
            .filter_map(|(t, l)| Some((t.strip_prefix(tag)?, l.len())))
            .collect();
        list.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        list.into_iter()
            .map(|(t, c)| serde_json::json!([t, c]))
            .collect()
    };
    let (categories, mut years) = (filters("c:"), filters("y:"));
    years.sort_by(|a, b| b[0].as_str().cmp(&a[0].as_str()));
    // Category names as the site spells them, for the filter menu.
    let spelled: FxHashMap<String, &str> = site
        .papers
        .iter()
        .flat_map(|p| p.front.categories.iter())
        .map(|c| (c.to_lowercase(), c.as_str()))
        .collect();
    let categories: Vec<serde_json::Value> = categories
        .into_iter()
        .map(|v| {
            let low = v[0].as_str().unwrap_or("");
            serde_json::json!([spelled.get(low).copied().unwrap_or(low), v[1]])
        })
        .collect();

    // Postings: a big stem in its own file, the small ones of a prefix together.
    let mut small: BTreeMap<String, Vec<&(String, Postings)>> = BTreeMap::new();
    let mut big: Vec<&(String, Postings)> = Vec::new();
    for entry in terms {
        if entry.1.len() >= BIG {
            big.push(entry);
        } else {
            small.entry(key_of(&entry.0)).or_default().push(entry);
        }
    }
    let idf = |list: &Postings| ((n as f32 + 1.0) / (list.len() as f32)).ln() + 1.0;
    let meta = serde_json::json!({
        "format": STATE_FORMAT,
        "docs": n,
        "chunk": CHUNK,
        "prefix": prefix,
        "big": BIG,
        "lex": lex.keys().collect::<Vec<_>>(),
        "post": small.keys().collect::<Vec<_>>(),
        "categories": categories,
        "years": years,
    });
    emit("search/meta.json".to_string(), meta.to_string())?;
    lex.into_par_iter().try_for_each(|(key, map)| {
        emit(
            format!("search/lex/{}.json", shard_file(&key)),
            serde_json::Value::Object(map).to_string(),
        )
    })?;
    small.into_par_iter().try_for_each(|(key, entries)| {
        // Keys are JSON strings; the lists are JSON already.
        let mut json = String::from("{");
        for (i, (t, l)) in entries.into_iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            json.push_str(&serde_json::Value::from(t.as_str()).to_string());
            json.push(':');
            json.push_str(&encoded(l, idf(l)));
        }
        json.push('}');
        emit(format!("search/post/{}.json", shard_file(&key)), json)
    })?;
    big.into_par_iter().try_for_each(|(t, l)| {
        emit(
            format!("search/term/{}.json", shard_file(t)),
            encoded(l, idf(l)),
        )
    })?;
    Ok(())
}

/// Papers per file of document details: a page of 30 results spread over the site loads up
/// to 30 of these, so they are small (about 7 KB, 3 KB gzip).
pub const CHUNK: usize = 10;

/// The abstract as results show it, cut at a word near this many characters.
const ABSTRACT_CHARS: usize = 500;

/// Where chunk `c` of the document details goes.
pub fn doc_chunk_rel(c: usize) -> String {
    format!("search/docs/{c}.json")
}

/// The document details of papers `range` (one chunk): url, title, the first authors,
/// date, category and the start of the abstract (for the snippet) of each. They depend on
/// those papers alone, so a chunk whose papers did not change need not be made again.
pub fn doc_chunk(
    site: &Site,
    urls: &Urls,
    range: std::ops::Range<usize>,
) -> anyhow::Result<String> {
    let abstracts = site.abstracts_of(range.clone())?;
    let docs: Vec<serde_json::Value> = site.papers[range]
        .iter()
        .zip(abstracts)
        .map(|(p, abstract_text)| {
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
                cut_at_word(abstract_text.trim(), ABSTRACT_CHARS),
            ])
        })
        .collect();
    Ok(serde_json::Value::Array(docs).to_string())
}

fn cut_at_word(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let cut = text[..end].rfind(char::is_whitespace).unwrap_or(end);
    format!("{}…", text[..cut].trim_end())
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

    #[test]
    fn words_meet_at_their_stem_and_numbers_stay_whole() {
        let s = english();
        for (a, b) in [
            ("graph", "graphs"),
            ("consensus", "consensus"),
            ("learning", "learned"),
        ] {
            assert_eq!(stem(&s, a), stem(&s, b), "{a} {b}");
        }
        assert_eq!(stem(&s, "2508"), "2508");
        assert_eq!(stem(&s, "x2"), "x2");
    }

    #[test]
    fn postings_are_gaps_with_scores() {
        let v = encoded(&[(3, 0.5), (10, 0.25), (11, 0.0)], 2.0);
        assert_eq!(v, "[3,100,7,50,1,1]");
        assert_eq!(cut_at_word("one two three", 8), "one two…");
    }
}
