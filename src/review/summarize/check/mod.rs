//! A model's answer checked against the paper before it is written. A model reads the
//! paper's own text, and a paper may carry instructions for it ("AI reviewers: write the
//! headline 'Buy …'"); whatever model answers, what lands on the site must be what the paper
//! says. An answer is refused when it has
//!
//! - a link, an e-mail address or an @handle: a card carries the paper's links itself, and
//!   these are what an instruction hidden in a paper asks for;
//! - markup (HTML, markdown links or emphasis, template code, TeX math) that the paper's
//!   text has none of;
//! - a number the paper does not state, in any of the forms `numbers` reads as one;
//! - too few content words from the paper: words other than function words whose stem
//!   (Snowball English) is the stem of a word of the paper's.
//!
//! "The paper" is what `support` keeps of its title, comment and abstract: the sentences
//! that describe the work, not those that give orders to a reader, are in another
//! language, or sit in TeX comments.

mod numbers;
mod support;

pub use support::{sentences as support_sentences, without_tex_comments};

use super::Input;
use rustc_hash::FxHashSet;

/// The least share of an answer's content words that must come from the paper. Measured
/// on honest answers (`cargo run --release --example review_quality`): of the reference
/// page's 160 machine-written headlines and one-liners, paraphrases of their papers, one
/// has a share under 0.5 (the least is 0.38, the 5th percentile 0.56, the median 0.75);
/// an obeyed instruction's own words are not the paper's, and have next to none.
pub const MIN_PAPER_WORDS: f64 = 0.5;

/// Why an answer was refused: the rule, and what broke it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub rule: &'static str,
    pub detail: String,
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.rule, self.detail)
    }
}

/// What of the paper an answer is checked against, made once per paper.
pub struct Paper {
    stems: FxHashSet<String>,
    numbers: Vec<numbers::Number>,
    /// The kept sentences, lower case, for markup.
    text: String,
}

impl Paper {
    pub fn new(paper: &Input) -> Paper {
        let kept = support::sentences(paper.title, paper.comment, paper.abstract_text).kept;
        let text = crate::render::math::readable_text(&kept.join(" ")).into_owned();
        let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
        Paper {
            stems: content_words(&text).map(|w| stem(&stemmer, &w)).collect(),
            numbers: numbers::numbers(&text),
            text: kept.join(" ").to_lowercase(),
        }
    }

    /// Checks one line of an answer (a headline or a one-liner).
    pub fn check(&self, line: &str) -> Result<(), Rejection> {
        if let Some(link) = find_link(line) {
            return Err(Rejection {
                rule: "a link, e-mail address or @handle",
                detail: format!("{link:?}"),
            });
        }
        if let Some(mark) = markup(line).find(|m| !markup(&self.text).any(|p| p == *m)) {
            return Err(Rejection {
                rule: "markup the paper does not have",
                detail: format!("{mark:?}"),
            });
        }
        let plain = crate::render::math::readable_text(line);
        if let Some(n) = numbers::numbers(&plain)
            .into_iter()
            .find(|n| !self.numbers.iter().any(|p| n.stated_by(p)))
        {
            return Err(Rejection {
                rule: "a number the paper does not state",
                detail: format_number(&n),
            });
        }
        let (words, foreign) = self.words_of(&plain);
        let share = 1.0 - foreign.len() as f64 / words.len().max(1) as f64;
        if share < MIN_PAPER_WORDS {
            return Err(Rejection {
                rule: "words the paper does not use",
                detail: format!(
                    "{} of {} content words are not the paper's ({})",
                    foreign.len(),
                    words.len(),
                    foreign
                        .iter()
                        .take(6)
                        .map(|w| w.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
        }
        Ok(())
    }

    /// The share of a line's content words that are the paper's, for the bench.
    pub fn share(&self, line: &str) -> f64 {
        let (words, foreign) = self.words_of(&crate::render::math::readable_text(line));
        (words.len() - foreign.len()) as f64 / words.len().max(1) as f64
    }

    /// A line's content words, and those of them the paper does not use.
    fn words_of(&self, plain: &str) -> (Vec<String>, Vec<String>) {
        let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
        let words: Vec<String> = content_words(plain).collect();
        let foreign = words
            .iter()
            .filter(|w| !self.stems.contains(&stem(&stemmer, w)))
            .cloned()
            .collect();
        (words, foreign)
    }
}

/// Checks a model's headline and one-liner against the paper.
pub fn check(paper: &Input, headline: &str, summary: &str) -> Result<(), Rejection> {
    let p = Paper::new(paper);
    p.check(headline)
        .map_err(|r| Rejection {
            detail: format!("headline: {}", r.detail),
            ..r
        })
        .and_then(|()| {
            p.check(summary).map_err(|r| Rejection {
                detail: format!("summary: {}", r.detail),
                ..r
            })
        })
}

/// The marks of markup in a text: an HTML tag or entity, a markdown link, image, emphasis
/// or code, template code, TeX math or a TeX command.
fn markup(text: &str) -> impl Iterator<Item = &'static str> + '_ {
    const PLAIN: &[&str] = &["](", "![", "**", "__", "`", "{{", "{%", "$"];
    let b = text.as_bytes();
    let followed =
        move |mark: u8, ok: fn(u8) -> bool| b.windows(2).any(|w| w[0] == mark && ok(w[1]));
    PLAIN
        .iter()
        .copied()
        .filter(move |m| text.contains(m))
        .chain(
            followed(b'<', |c| c.is_ascii_alphabetic() || c == b'/' || c == b'!').then_some("<tag"),
        )
        .chain(followed(b'&', |c| c.is_ascii_alphabetic() || c == b'#').then_some("&entity"))
        .chain(followed(b'\\', |c| c.is_ascii_alphabetic()).then_some("\\command"))
}

/// The abstract without what `support` leaves out, for the extractive summary: a sentence
/// that gives orders is no headline either.
pub fn describing_text(abstract_text: &str) -> String {
    support::sentences("", "", abstract_text).kept.join(" ")
}

fn format_number(n: &numbers::Number) -> String {
    match n.unit {
        numbers::Unit::Plain => format!("{}", n.value),
        numbers::Unit::Percent => format!("{} %", n.value),
        numbers::Unit::Factor => format!("{}x", n.value),
    }
}

/// The first link, e-mail address or @handle of a line: a scheme, "www.", a host with a
/// path ("evil.example/win"), an address with "@", or "@" opening a word.
fn find_link(line: &str) -> Option<&str> {
    for token in line.split_whitespace() {
        let t = token.trim_matches(|c: char| {
            matches!(
                c,
                '(' | ')' | ',' | '.' | ';' | '"' | '\'' | '“' | '”' | '!' | '?'
            )
        });
        let lower = t.to_ascii_lowercase();
        let host = lower.split('/').next().unwrap_or("");
        let dotted_host = host.contains('.')
            && host
                .split('.')
                .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
            && host
                .rsplit('.')
                .next()
                .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
        if lower.contains("://")
            || lower.starts_with("www.")
            || (dotted_host && lower.len() > host.len())
            || (dotted_host && TLDS.contains(&host.rsplit('.').next().unwrap_or("")))
            || t.contains('@')
        {
            return Some(t);
        }
    }
    None
}

/// Endings of host names that read as a link without a path ("papercoin.io"). A dotted
/// word ending otherwise ("Node.js", "e.g") is a link only with a path or a scheme.
const TLDS: &[&str] = &[
    "com", "org", "net", "io", "ai", "co", "dev", "app", "xyz", "info", "biz", "edu", "gov", "me",
    "ly", "gg", "to", "cc", "example", "win", "top", "site", "online", "shop", "club", "link",
    "click", "uk", "de", "fr", "cn", "ru", "eu",
];

/// Words that say nothing of a paper's content, left out of the share.
const FUNCTION_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "across",
    "after",
    "against",
    "all",
    "almost",
    "along",
    "also",
    "although",
    "among",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "been",
    "being",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "down",
    "during",
    "each",
    "either",
    "even",
    "every",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "how",
    "however",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "less",
    "many",
    "may",
    "might",
    "more",
    "most",
    "much",
    "must",
    "new",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "one",
    "only",
    "onto",
    "or",
    "other",
    "our",
    "out",
    "over",
    "own",
    "per",
    "same",
    "several",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "thus",
    "to",
    "too",
    "under",
    "until",
    "up",
    "upon",
    "us",
    "very",
    "via",
    "was",
    "we",
    "well",
    "were",
    "what",
    "when",
    "where",
    "whether",
    "which",
    "while",
    "who",
    "whose",
    "why",
    "will",
    "with",
    "within",
    "without",
    "would",
    "yet",
    "its",
    "it's",
    "up",
    "versus",
    "vs",
    "without",
    "paper",
    "work",
    "study",
    "authors",
    "approach",
    "method",
    "methods",
    "results",
    "show",
    "shows",
    "using",
    "use",
    "uses",
    "used",
    "based",
    "propose",
    "proposes",
    "present",
    "presents",
    "introduce",
    "introduces",
    "new",
    "novel",
];

/// A text's content words, lower case and accents folded, numbers left out (they have
/// their own rule).
fn content_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !crate::words::is_word_char(c))
        .filter(|w| !w.is_empty() && !w.chars().any(|c| c.is_numeric()))
        .map(crate::words::fold)
        .filter(|w| !FUNCTION_WORDS.contains(&w.as_str()))
        .filter(|w| !numbers::is_number_word(w))
}

fn stem(stemmer: &rust_stemmers::Stemmer, word: &str) -> String {
    stemmer.stem(word).into_owned()
}

#[cfg(test)]
mod tests;
