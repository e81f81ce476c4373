//! What the index is made of: the words of a paper, their stems and weights, and every
//! stem's postings gathered.

use rustc_hash::FxHashMap;
use std::borrow::Cow;

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

pub(super) fn english() -> rust_stemmers::Stemmer {
    rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English)
}

/// The filter term of a category.
pub(super) fn category_term(category: &str) -> String {
    format!("c:{}", category.to_lowercase())
}

/// (document, weight) pairs of one stem.
pub(super) type Postings = Vec<(u32, f32)>;

/// A paper's weighted stems, length-normalised so long abstracts do not win every query
/// and sorted (so postings come out in a fixed order), and the words it was written with.
pub(super) struct DocTerms {
    doc: usize,
    stems: Vec<(String, f32)>,
    words: Vec<(String, String)>,
}

/// Snowball and the stems it already gave: most words recur from paper to paper, and
/// stemming each again was most of the index's time.
pub(super) struct Stems {
    stemmer: rust_stemmers::Stemmer,
    known: FxHashMap<String, String>,
}

impl Stems {
    pub(super) fn new() -> Stems {
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

pub(super) fn weighted_terms(
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
    // Keys are unique (map keys, as are the words' below), so an unstable sort gives one
    // order, without the stable sort's scratch copy.
    stems.sort_unstable_by(|a, b| a.0.cmp(&b.0));
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
    words.sort_unstable();
    DocTerms { doc, stems, words }
}

/// Every stem's postings and every word's stem, as built so far.
#[derive(Default)]
pub(super) struct Collected {
    pub stems: FxHashMap<String, Postings>,
    pub words: FxHashMap<String, String>,
    /// With a kept state: the words it lacked, which the segment for the new papers holds.
    pub fresh_words: Option<Vec<(String, String)>>,
}

/// Adds one batch of papers' terms to the postings.
pub(super) fn merge_batch(all: &mut Collected, per_doc: Vec<DocTerms>) {
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
}
