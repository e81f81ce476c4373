//! A search index that works on any static host and finds every paper that matches: the
//! complete postings of every word, stemmed (Snowball, English), so an AND query intersects
//! whole lists and the count it shows is exact. A query downloads one lexicon shard per
//! word (its words, their stems and how many papers have each), the postings of those
//! stems, and the document details of the page of results it shows.
//!
//! Layout under `search/`:
//! - `meta.json`: `{"format": 5, "docs": N, "chunk": 10, "prefix": 2, "big": 100,
//!   "part": 4096, "lex": [shard keys], "post": [shard keys], "categories": [[name,
//!   papers], …], "years": [[year, papers], …], "primary": [[category, papers], …]}`
//! - `lex/<prefix of the word>.json`: `{"graphs": ["graph", 412], …}`
//! - `post/<prefix of the stem>.json`: `{"graph": [doc, weight, +doc, weight, …], …}` for
//!   stems in fewer than `big` papers; for the others `term/<stem>.<k>.json`, k = 0, 1, …:
//!   the same list cut into parts of `part` postings (a stem in `papers` papers has
//!   ⌈papers / part⌉ of them). Documents ascend, each but a list's or part's first as the
//!   gap from the one before. Categories and years are terms too (`c:cs.dc`, `y:2025`),
//!   which is how results are filtered by them, and so is the category a paper is filed
//!   under (`p:cs.dc`), which a query that names a category lists first. A category's
//!   weight is the day of the paper's first version (days since 1970), which lists it
//!   newest first; a year's is 1.
//! - The weights are a paper's own (in hundredths); `search.js` multiplies them by the
//!   stem's idf, from `docs` and the stem's count. So a postings file depends on its papers
//!   alone, and a week's new papers rewrite only the files of the stems they have (the last
//!   part of a common one), not every file because every idf moved.
//! - `docs/<n>.json`: `[[url, title, authors, date, category, abstract], …]` for docs
//!   n*chunk…; a title with math has its HTML (math as MathML) as a seventh item.

mod state;
mod terms;

pub use state::{KeptState, StateWrite};
pub use terms::{stem, tokenize};

use crate::manifest::{Fingerprint, Hasher};
use crate::render::views::{Urls, paper_rel};
use crate::site::Site;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use state::{MAX_SEGMENTS, STATE_MAGIC, with_segment};
use std::borrow::Cow;
use std::collections::BTreeMap;
use terms::{ChunkTerms, Collected, Postings, Tokenizer};

/// Stems in at least this many papers get a postings file of their own; rarer ones share a
/// file with the stems of the same prefix.
const BIG: usize = 100;

/// Postings per file of a stem in `BIG` papers or more, on a site of `papers` papers.
/// Parts fill in document order, so a full one never changes. The size doubles with every
/// doubling of the site past 131,072 papers, so that a word is never more than 32 files (a
/// query for a word in every one of 100,000 papers loads 25 of about 25 KB at once); the
/// parts are cut anew only when the site crosses a power of two.
fn part_size(papers: usize) -> usize {
    4096 << (papers / 65_536).max(1).ilog2()
}

/// The layout of the files `search.js` reads (`meta.json`'s `format`).
const INDEX_FORMAT: u32 = 5;

/// Where the index's files go: the site-relative path, a fingerprint of what the file is
/// made from, and what makes its text (called only when the file must be made).
pub type Emit<'a> = dyn Fn(String, Fingerprint, &dyn Fn() -> anyhow::Result<String>) -> anyhow::Result<()>
    + Sync
    + 'a;

/// Papers tokenized at once.
const BATCH: usize = 4096;

/// Papers tokenized together on one core, sharing one table of words: small enough that
/// a batch keeps eight cores busy, large enough that most of a chunk's words recur.
const CHUNK_PAPERS: usize = 512;

/// The abstracts of papers `docs`, read together where they are consecutive.
fn abstracts_for<'s>(site: &'s Site, docs: &[usize]) -> anyhow::Result<Vec<Cow<'s, str>>> {
    match (docs.first(), docs.last()) {
        (Some(&first), Some(&last)) if last - first + 1 == docs.len() => {
            site.abstracts_of(first..last + 1)
        }
        _ => docs.iter().map(|&i| site.abstract_of(i)).collect(),
    }
}

/// A weight as the files hold it: in hundredths, at least 1.
fn hundredths(w: f32) -> u32 {
    ((w * 100.0).round() as u32).max(1)
}

/// What a list's file is made from, hashed: its documents and their weights, by the
/// weights' bits (the same bits write the same hundredths). Every list of the index is
/// hashed each build: rounding each weight first took a third of that.
fn list_inputs(h: &mut Hasher, list: &[(u32, f32)]) {
    h.num(list.len() as u128);
    let mut bytes = [0u8; 4096];
    for part in list.chunks(bytes.len() / 8) {
        for (out, &(d, w)) in bytes.chunks_exact_mut(8).zip(part) {
            out[..4].copy_from_slice(&d.to_le_bytes());
            out[4..].copy_from_slice(&w.to_bits().to_le_bytes());
        }
        h.bytes(&bytes[..part.len() * 8]);
    }
}

/// A list as the files hold it, as JSON text: documents ascending, each after the first as
/// the gap from the one before, each with its weight.
fn encoded(list: &[(u32, f32)]) -> String {
    // itoa, not `write!`: formatting these numbers was a tenth of a weekly build's CPU.
    let mut digits = itoa::Buffer::new();
    let mut out = String::with_capacity(list.len() * 6 + 2);
    out.push('[');
    let mut last = 0;
    for (i, &(d, w)) in list.iter().enumerate() {
        let gap = if i == 0 { d } else { d - last };
        if i > 0 {
            out.push(',');
        }
        out.push_str(digits.format(gap));
        out.push(',');
        out.push_str(digits.format(hundredths(w)));
        last = d;
    }
    out.push(']');
    out
}

/// The files of the index but the document details (`doc_chunk`), each handed to `emit`
/// with what it is made from, and made as soon as `emit` asks, so that the index is never
/// whole in memory; and with `keep` the state to keep for the next build. With `previous`,
/// papers it covers are not tokenized again. `searched` holds each paper's `search_hash`
/// (what the state is keyed by) and `corpus` a fingerprint of them all: what `meta.json`
/// is made from.
pub fn build_index(
    site: &Site,
    searched: &[Fingerprint],
    corpus: Fingerprint,
    previous: Option<KeptState>,
    keep: Option<&(dyn Fn(StateWrite) + Sync)>,
    emit: &Emit,
) -> anyhow::Result<()> {
    let n = site.papers.len();
    let (todo, mut all, segments) = previous
        .and_then(|state| state.postings_for(site, searched))
        .unwrap_or_else(|| ((0..n).collect(), Collected::default(), 0));
    // A kept state is added to while it has room; any other is written whole.
    let append = segments > 0 && segments < MAX_SEGMENTS;
    if append {
        all.fresh_words = Some(Vec::new());
    }
    let batches: Vec<&[usize]> = todo.chunks(BATCH).collect();
    let tokenize_batch = |docs: &[usize]| -> anyhow::Result<Vec<ChunkTerms>> {
        let abstracts = abstracts_for(site, docs)?;
        Ok(docs
            .par_chunks(CHUNK_PAPERS)
            .zip(abstracts.par_chunks(CHUNK_PAPERS))
            .map(|(docs, abstracts)| {
                let mut tokenizer = Tokenizer::new();
                for (&i, a) in docs.iter().zip(abstracts) {
                    let names: Vec<&str> = site.page_names(i).collect();
                    tokenizer.paper(i, &site.papers[i].front, a, &names);
                }
                tokenizer.finish()
            })
            .collect())
    };
    let mut next = batches
        .first()
        .map(|docs| tokenize_batch(docs))
        .transpose()?;
    let mut b = 0;
    while let Some(chunks) = next.take() {
        // The next batch is tokenized while this one is merged.
        let ((), upcoming) = rayon::join(
            || chunks.into_iter().for_each(|chunk| all.merge(chunk)),
            || batches.get(b + 1).map(|docs| tokenize_batch(docs)),
        );
        next = upcoming.transpose()?;
        b += 1;
    }
    let mut words: Vec<(String, String)> = std::mem::take(&mut all.words).into_iter().collect();
    let fresh_words = all.fresh_words.take();
    let mut terms: Vec<(String, Postings)> = all.into_terms();
    terms
        .par_iter_mut()
        .for_each(|(_, list)| list.sort_by_key(|p| p.0));
    terms.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    words.par_sort_unstable();
    // The state is encoded and kept while the files are made.
    let keep_state = || -> anyhow::Result<()> {
        let Some(keep) = keep else { return Ok(()) };
        if !append {
            let every: Vec<usize> = (0..n).collect();
            let bytes = with_segment(STATE_MAGIC.to_vec(), searched, &every, &terms, &words)?;
            keep(StateWrite::Whole(bytes));
        } else if !todo.is_empty() {
            let mut fresh = fresh_words.unwrap_or_default();
            fresh.sort_unstable();
            let bytes = with_segment(Vec::new(), searched, &todo, &terms, &fresh)?;
            keep(StateWrite::Append(bytes));
        }
        Ok(())
    };
    let (kept, made) = rayon::join(keep_state, || {
        write_files(site, corpus, &terms, &words, emit)
    });
    kept?;
    made
}

/// The lexicon, meta and postings files, each handed to `emit` as soon as it is made.
fn write_files(
    site: &Site,
    corpus: Fingerprint,
    terms: &[(String, Postings)],
    words: &[(String, String)],
    emit: &Emit,
) -> anyhow::Result<()> {
    let n = site.papers.len();
    // Larger sites get finer shards so that a query's lexicon shard stays small.
    let prefix = if n > 20_000 { 3 } else { 2 };
    let df: FxHashMap<&str, usize> = terms.iter().map(|(t, l)| (t.as_str(), l.len())).collect();
    let key_of = |t: &str| -> String { t.chars().take(prefix).collect() };
    let part = part_size(n);

    // The lexicon: words (not the filter terms, which no one types) by their prefix.
    // Words are sorted, so each shard lists its words in order.
    let mut lex: BTreeMap<String, Vec<(&str, &str, usize)>> = BTreeMap::new();
    for (word, stemmed) in words {
        let papers = df.get(stemmed.as_str()).copied().unwrap_or(0);
        lex.entry(key_of(word))
            .or_default()
            .push((word, stemmed, papers));
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
    let (categories, mut years, primary) = (filters("c:"), filters("y:"), filters("p:"));
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
    let meta = serde_json::json!({
        "format": INDEX_FORMAT,
        "docs": n,
        "chunk": CHUNK,
        "prefix": prefix,
        "big": BIG,
        "part": part,
        "lex": lex.keys().collect::<Vec<_>>(),
        "post": small.keys().collect::<Vec<_>>(),
        "categories": categories,
        "years": years,
        "primary": primary,
    });
    emit("search/meta.json".to_string(), corpus, &|| {
        Ok(meta.to_string())
    })?;
    // The shards are written as text rather than through `serde_json::Value`s: building
    // a value per word was most of making the lexicon.
    lex.into_par_iter().try_for_each(|(key, entries)| {
        let mut inputs = Hasher::new();
        for (word, stemmed, papers) in &entries {
            inputs.str(word).str(stemmed).num(*papers as u128);
        }
        let make = || -> anyhow::Result<String> {
            let mut digits = itoa::Buffer::new();
            let mut json = Vec::with_capacity(entries.len() * 32 + 2);
            json.push(b'{');
            for (i, (word, stemmed, papers)) in entries.iter().enumerate() {
                if i > 0 {
                    json.push(b',');
                }
                serde_json::to_writer(&mut json, word)?;
                json.extend_from_slice(b":[");
                serde_json::to_writer(&mut json, stemmed)?;
                json.push(b',');
                json.extend_from_slice(digits.format(*papers).as_bytes());
                json.push(b']');
            }
            json.push(b'}');
            Ok(String::from_utf8(json)?)
        };
        let rel = format!("search/lex/{}.json", shard_file(&key));
        emit(rel, inputs.finish(), &make)
    })?;
    small.into_par_iter().try_for_each(|(key, entries)| {
        let mut inputs = Hasher::new();
        for (t, l) in &entries {
            list_inputs(inputs.str(t), l);
        }
        let make = || -> anyhow::Result<String> {
            // Keys are JSON strings; the lists are JSON already.
            let mut json = Vec::new();
            json.push(b'{');
            for (i, (t, l)) in entries.iter().enumerate() {
                if i > 0 {
                    json.push(b',');
                }
                serde_json::to_writer(&mut json, t)?;
                json.push(b':');
                json.extend_from_slice(encoded(l).as_bytes());
            }
            json.push(b'}');
            Ok(String::from_utf8(json)?)
        };
        let rel = format!("search/post/{}.json", shard_file(&key));
        emit(rel, inputs.finish(), &make)
    })?;
    big.into_par_iter()
        .flat_map_iter(|(t, l)| {
            l.chunks(part)
                .enumerate()
                .map(move |(k, postings)| (t, k, postings))
        })
        .try_for_each(|(t, k, postings)| {
            let mut inputs = Hasher::new();
            list_inputs(&mut inputs, postings);
            let rel = format!("search/term/{}.{k}.json", shard_file(t));
            emit(rel, inputs.finish(), &|| Ok(encoded(postings)))
        })?;
    Ok(())
}

/// Whether `rel` is one of the files `build_index` makes (not the document details, nor
/// the search page beside them).
pub fn is_index_file(rel: &str) -> bool {
    rel == "search/meta.json"
        || ["search/lex/", "search/post/", "search/term/"]
            .iter()
            .any(|dir| rel.starts_with(dir))
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
/// date, category, the start of the abstract (for the snippet), for a title with math the
/// title as HTML, the card's headline and summary, and the MathML of the formulas in the
/// abstract's start, the headline and the summary. They depend on those papers alone (their
/// search hashes cover them), so a chunk whose papers did not change need not be made again.
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
            let authors = crate::render::views::first_authors(&f.authors, 4);
            let mut doc = vec![
                urls.path(&paper_rel(p)).into(),
                f.title.as_str().into(),
                authors.into(),
                crate::render::views::first_version_shown(f.first_version(), '-').into(),
                f.primary_category.as_str().into(),
            ];
            let snippet = cut_at_word(
                crate::render::math::plain_text(abstract_text.trim()).trim(),
                ABSTRACT_CHARS,
            );
            // Then, each only when something after it is not empty: the title as HTML
            // when it has math, the headline and summary the card shows (for a paper found
            // by a word the reader saw on its card), and the MathML of the formulas in the
            // snippet's texts, by their LaTeX, so a result shows math as its page does.
            let (headline, _) = f.shown_lines();
            let summary = f.shown_summary();
            let math: serde_json::Map<String, serde_json::Value> = [&*snippet, headline, &summary]
                .into_iter()
                .flat_map(crate::render::math::inline_mathml)
                .map(|(source, mathml)| (source.to_string(), mathml.into()))
                .collect();
            let rest: [serde_json::Value; 5] = [
                snippet.into(),
                crate::render::math::html_if_tex(&f.title).into(),
                headline.into(),
                summary.into_owned().into(),
                math.into(),
            ];
            let is_empty = |v: &serde_json::Value| match v {
                serde_json::Value::String(s) => s.is_empty(),
                serde_json::Value::Object(o) => o.is_empty(),
                _ => false,
            };
            let used = rest.iter().rposition(|v| !is_empty(v)).map_or(0, |i| i + 1);
            doc.extend(rest.into_iter().take(used));
            serde_json::Value::Array(doc)
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
    let mut cut = text[..end].rfind(char::is_whitespace).unwrap_or(end);
    // Not inside a formula: half of one would show as LaTeX source.
    let spans = crate::render::math::formula_spans(text);
    if let Some(f) = crate::render::math::formula_around(&spans, cut) {
        cut = f.start;
    }
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
    fn postings_are_gaps_with_scores() {
        let v = encoded(&[(3, 1.0), (10, 0.5), (11, 0.0)]);
        assert_eq!(v, "[3,100,7,50,1,1]");
        assert_eq!(cut_at_word("one two three", 8), "one two…");
    }

    #[test]
    fn a_snippet_is_not_cut_inside_a_formula() {
        let words = "word ".repeat(20);
        let text = format!("{words}$\\frac{{a}}{{b}} + c$ and more");
        assert_eq!(cut_at_word(&text, 110), format!("{}…", words.trim_end()));
        assert_eq!(
            cut_at_word(&text, 120),
            format!("{words}$\\frac{{a}}{{b}} + c$…")
        );
    }

    #[test]
    fn a_word_is_at_most_32_parts_at_any_size() {
        assert_eq!(part_size(8_400), 4096);
        assert_eq!(part_size(131_071), 4096);
        assert_eq!(part_size(131_072), 8192);
        for n in [1usize, 100_000, 131_072, 1_000_000, 5_000_000, 50_000_000] {
            assert!(n.div_ceil(part_size(n)) <= 32, "{n} papers");
        }
    }
}
