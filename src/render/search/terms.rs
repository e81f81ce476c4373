//! What the index is made of: the words of a paper, their stems and weights, and every
//! stem's postings gathered.

use crate::store::frontmatter::PaperFront;
use crate::words::{fold, is_word_char};
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// The same tokenizer as `search.js`: split on anything not a letter, a digit or an accent
/// mark, then fold each word (`crate::words::fold`). Words already in lower-case ASCII are
/// borrowed, not copied.
pub fn tokenize(s: &str) -> impl Iterator<Item = Cow<'_, str>> + '_ {
    s.split(|c: char| !is_word_char(c))
        .filter(|t| !t.is_empty())
        .map(|t| {
            if !t.is_ascii() {
                Cow::Owned(fold(t))
            } else if t.bytes().any(|b| b.is_ascii_uppercase()) {
                Cow::Owned(t.to_ascii_lowercase())
            } else {
                Cow::Borrowed(t)
            }
        })
        .filter(|t| !t.is_empty())
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

/// Papers tokenized together, with one table of their words and stems: a paper's terms are
/// indexes into it, so that no paper's words are strings of their own, and the merge looks
/// each of the chunk's words and stems up once rather than once for every paper that has
/// it (that was half the index's CPU at 100k papers).
pub(super) struct ChunkTerms {
    /// The chunk's stems and filter terms, each once.
    names: Vec<String>,
    /// Every word the chunk's papers were written with, and the index of its stem in
    /// `names`.
    words: FxHashMap<String, u32>,
    /// (document, index in `names`, weight), each paper's terms together.
    postings: Vec<(u32, u32, f32)>,
}

/// Tokenizes the papers of a chunk into `ChunkTerms`: Snowball is asked once per word of
/// the chunk, however many papers have it.
pub(super) struct Tokenizer {
    stemmer: rust_stemmers::Stemmer,
    chunk: ChunkTerms,
    /// Index in `chunk.names` of each name.
    ids: FxHashMap<String, u32>,
    /// The current paper's weight of each name, by index; zero for names it has not used.
    tf: Vec<f32>,
    /// The names the current paper used, in the order it first did.
    used: Vec<u32>,
}

impl Tokenizer {
    pub(super) fn new() -> Tokenizer {
        Tokenizer {
            stemmer: english(),
            chunk: ChunkTerms {
                names: Vec::new(),
                words: FxHashMap::default(),
                postings: Vec::new(),
            },
            ids: FxHashMap::default(),
            tf: Vec::new(),
            used: Vec::new(),
        }
    }

    fn id(&mut self, name: Cow<str>) -> u32 {
        if let Some(&id) = self.ids.get(name.as_ref()) {
            return id;
        }
        let id = self.chunk.names.len() as u32;
        let name = name.into_owned();
        self.chunk.names.push(name.clone());
        self.ids.insert(name, id);
        self.tf.push(0.0);
        id
    }

    fn add(&mut self, text: &str, weight: f32) {
        for word in tokenize(text) {
            let id = match self.chunk.words.get(word.as_ref()) {
                Some(&id) => id,
                None => {
                    // A stem already in the table is not copied: most words are their own
                    // stem, borrowed.
                    let id = self.id(stem(&self.stemmer, &word));
                    self.chunk.words.insert(word.into_owned(), id);
                    id
                }
            };
            if self.tf[id as usize] == 0.0 {
                self.used.push(id);
            }
            self.tf[id as usize] += weight;
        }
    }

    /// Adds paper `doc`'s weighted stems, length-normalised so long abstracts do not win
    /// every query, and its filter terms.
    pub(super) fn paper(
        &mut self,
        doc: usize,
        f: &PaperFront,
        abstract_text: &str,
        page_names: &[&str],
    ) {
        // The words as the pages show them: a reader searches "Schrödinger", which the feed
        // wrote `Schr\"odinger`.
        let text = crate::render::math::plain_text;
        self.add(&text(&f.title), 3.0);
        // What the card says above the title and under it: a reader searches the words
        // they saw.
        let (headline, summary) = f.shown_lines();
        self.add(&text(headline), 2.0);
        self.add(&text(summary), 1.0);
        for a in &f.authors {
            self.add(a, 3.0);
        }
        // A reader searches an author by the name on their page: "Adrian Del Maestro"
        // finds the papers that give "A. Del Maestro". Only the words the paper lacks, so
        // that "Del Maestro" weighs as much as in any other paper.
        if !page_names.is_empty() {
            let given: rustc_hash::FxHashSet<_> =
                f.authors.iter().flat_map(|a| tokenize(a)).collect();
            for name in page_names {
                for word in tokenize(name).filter(|w| !given.contains(w)) {
                    self.add(&word, 3.0);
                }
            }
        }
        for c in &f.categories {
            self.add(c, 2.0);
        }
        self.add(f.id.as_str(), 3.0);
        self.add(&text(abstract_text), 1.0);
        let doc = doc as u32;
        // Summed in the order the paper first uses each stem: the paper's own, whatever
        // chunk it is in. The weights being whole numbers, the sum is exact (below 2^24) and
        // the same in any order.
        let len = self
            .used
            .iter()
            .map(|&id| self.tf[id as usize])
            .sum::<f32>()
            .max(1.0)
            .sqrt();
        for &id in &self.used {
            let tf = std::mem::take(&mut self.tf[id as usize]);
            self.chunk.postings.push((doc, id, tf / len));
        }
        self.used.clear();
        // Filters. A year's has the smallest weight, so it never decides a ranking. A
        // category's (`c:`, and `p:` for the one the paper is filed under, which a search
        // for a category's name lists first) is the day of the paper's first version, in
        // hundredths, for that listing's newest first: document numbers follow ids, where
        // "cs/0503050" and "doi-…" come after "2604.03438".
        let first = f.first_version();
        let day = first.instant().timestamp().div_euclid(86_400).max(1) as f32 / 100.0;
        let primary = (!f.primary_category.is_empty())
            .then(|| format!("p:{}", f.primary_category.to_lowercase()));
        let year = self.id(Cow::Owned(format!("y:{:04}", first.year())));
        let mut filters: Vec<(u32, f32)> = f
            .categories
            .iter()
            .map(|c| category_term(c))
            .chain(primary)
            .map(|t| (self.id(Cow::Owned(t)), day))
            .chain([(year, 0.0)])
            .collect();
        filters.sort_unstable_by_key(|&(id, _)| id);
        filters.dedup_by_key(|&mut (id, _)| id);
        self.chunk
            .postings
            .extend(filters.into_iter().map(|(id, w)| (doc, id, w)));
    }

    pub(super) fn finish(self) -> ChunkTerms {
        self.chunk
    }
}

/// Every stem's postings and every word's stem, as built so far.
#[derive(Default)]
pub(super) struct Collected {
    /// Index in `lists` of each stem and filter term.
    index: FxHashMap<String, u32>,
    lists: Vec<Postings>,
    pub words: FxHashMap<String, String>,
    /// With a kept state: the words it lacked, which the segment for the new papers holds.
    pub fresh_words: Option<Vec<(String, String)>>,
}

impl Collected {
    /// The postings of `term`, empty when it is new.
    pub(super) fn postings(&mut self, term: String) -> &mut Postings {
        let at = self.list_of(term);
        &mut self.lists[at]
    }

    fn list_of(&mut self, term: String) -> usize {
        let next = self.lists.len() as u32;
        let at = *self.index.entry(term).or_insert(next);
        if at == next {
            self.lists.push(Vec::new());
        }
        at as usize
    }

    /// Adds one chunk of papers' terms to the postings.
    pub(super) fn merge(&mut self, chunk: ChunkTerms) {
        let ChunkTerms {
            names,
            words,
            postings,
        } = chunk;
        let mut at: Vec<usize> = Vec::with_capacity(names.len());
        for name in &names {
            let known = self.index.get(name.as_str()).map(|&i| i as usize);
            at.push(known.unwrap_or_else(|| self.list_of(name.clone())));
        }
        for (doc, id, w) in postings {
            self.lists[at[id as usize]].push((doc, w));
        }
        for (word, id) in words {
            if let std::collections::hash_map::Entry::Vacant(v) = self.words.entry(word) {
                let stemmed = names[id as usize].clone();
                if let Some(fresh) = &mut self.fresh_words {
                    fresh.push((v.key().clone(), stemmed.clone()));
                }
                v.insert(stemmed);
            }
        }
    }

    /// Every term and its postings, in no particular order.
    pub(super) fn into_terms(self) -> Vec<(String, Postings)> {
        let mut lists = self.lists;
        self.index
            .into_iter()
            .map(|(term, at)| (term, std::mem::take(&mut lists[at as usize])))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_lower_case_words_borrowed_when_they_can_be() {
        let text =
            "GPU-based ǅemo: naïve Straße, x2 ΣΑΣ Ἀθῆναι 한국어 \u{958}\u{93f}\u{932}\u{93e}";
        let tokens: Vec<Cow<str>> = tokenize(text).collect();
        assert_eq!(
            tokens,
            [
                "gpu",
                "based",
                "ǆemo",
                "naive",
                "strasse",
                "x2",
                "σας",
                "αθηναι",
                "한국어",
                // The nukta stays (only Latin and Greek accents go), decomposed as NFC
                // leaves U+0958.
                "क\u{93c}िला"
            ]
        );
        assert!(matches!(tokens[1], Cow::Borrowed(_)));
    }

    #[test]
    fn a_word_is_found_however_its_accents_are_typed() {
        let words = |s: &str| tokenize(s).map(Cow::into_owned).collect::<Vec<_>>();
        for (typed, indexed) in [
            ("Schrödinger", "schrodinger"),
            ("SCHRÖDINGER", "schrodinger"),
            // The accent typed as a second character: one word all the same.
            ("Schro\u{308}dinger", "schrodinger"),
            ("Rényi", "renyi"),
            ("Erdős", "erdos"),
            ("Møller", "moller"),
            ("Łukasiewicz", "lukasiewicz"),
            ("Ærø", "aero"),
            ("İstanbul", "istanbul"),
        ] {
            assert_eq!(words(typed), [indexed], "{typed}");
        }
        // Nothing but accents is no word.
        assert!(words("\u{301} \u{308}").is_empty());
    }

    fn front(id: &str, title: &str, category: &str) -> PaperFront {
        serde_json::from_value(serde_json::json!({
            "id": id,
            "title": title,
            "authors": ["Ada Graph"],
            "published": "2025-01-02T00:00:00Z",
            "updated": "2025-01-02T00:00:00Z",
            "categories": [category],
        }))
        .unwrap()
    }

    type Sorted = (Vec<(String, Postings)>, Vec<(String, String)>);

    /// Every term's postings, sorted as the files list them, and every word's stem.
    fn sorted(all: Collected) -> Sorted {
        let mut words: Vec<_> = all.words.clone().into_iter().collect();
        words.sort();
        let mut terms = all.into_terms();
        terms.iter_mut().for_each(|(_, l)| l.sort_by_key(|p| p.0));
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        (terms, words)
    }

    #[test]
    fn a_papers_weights_are_its_own_whatever_chunk_it_is_in() {
        let papers = [
            (front("2501.00001", "Graphs graph", "cs.DC"), "graph"),
            (
                front("2501.00002", "Consensus", "cs.DC"),
                "Graphs of CONSENSUS in 2025",
            ),
            (front("2501.00003", "Learning", "math.CO"), "learned graph"),
        ];
        let mut together = Collected::default();
        let mut tokenizer = Tokenizer::new();
        for (i, (f, a)) in papers.iter().enumerate() {
            tokenizer.paper(i, f, a, &[]);
        }
        together.merge(tokenizer.finish());
        let mut alone = Collected::default();
        for (i, (f, a)) in papers.iter().enumerate().rev() {
            let mut tokenizer = Tokenizer::new();
            tokenizer.paper(i, f, a, &[]);
            alone.merge(tokenizer.finish());
        }
        let (terms, words) = sorted(together);
        assert_eq!((terms.clone(), words.clone()), sorted(alone));
        // Paper 0: "graph" 3 + 3 in the title, 3 in the author, 1 in the abstract, against
        // "ada" 3, "cs" 2, "dc" 2, "2501" 3, "00001" 3: a total of 23.
        let graph = &terms.iter().find(|(t, _)| t == "graph").unwrap().1;
        assert_eq!(graph[0], (0, 10.0 / 23f32.sqrt()));
        assert_eq!(graph.iter().map(|p| p.0).collect::<Vec<_>>(), [0, 1, 2]);
        // A category's weight is the day of the paper's first version (2025-01-02 is day
        // 20,090 since 1970), in hundredths; a year's is the least.
        let dc = &terms.iter().find(|(t, _)| t == "c:cs.dc").unwrap().1;
        let day = 20_090_f32 / 100.0;
        assert_eq!(dc, &[(0, day), (1, day)]);
        let year = &terms.iter().find(|(t, _)| t == "y:2025").unwrap().1;
        assert_eq!(year, &[(0, 0.0), (1, 0.0), (2, 0.0)]);
        assert!(words.contains(&("graphs".to_string(), "graph".to_string())));
        assert!(words.contains(&("consensus".to_string(), "consensus".to_string())));
        assert!(!words.iter().any(|(w, _)| w.starts_with("c:")));
    }

    #[test]
    fn a_paper_is_found_by_its_words_as_the_page_shows_them() {
        let f = front(
            "2411.17730",
            r#"Stability for Schr\"odinger equation with potential"#,
            "math.AP",
        );
        let mut tokenizer = Tokenizer::new();
        tokenizer.paper(
            0,
            &f,
            r"the R\'{e}nyi entropy of \emph{Hasse--Weil} forms",
            &[],
        );
        let mut all = Collected::default();
        all.merge(tokenizer.finish());
        let (_, words) = sorted(all);
        let words: Vec<&str> = words.iter().map(|(w, _)| w.as_str()).collect();
        for word in ["schrodinger", "renyi", "hasse", "weil"] {
            assert!(words.contains(&word), "{word} in {words:?}");
        }
        for piece in ["odinger", "nyi", "emph"] {
            assert!(!words.contains(&piece), "{piece} in {words:?}");
        }
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
