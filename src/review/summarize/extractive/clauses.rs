//! Where a sentence may be cut: the clause boundaries a headline or one-liner may start
//! and end at, the words a cut must not part, and the tidy end of what is kept.

mod aside;
mod cuts;
mod lexicon;
mod shorten;
mod statement;
mod verbs;

pub(super) use aside::without_subject_aside;
pub(super) use cuts::{may_end_at, may_start_at, starts_clause};
use shorten::SEPARATORS;
pub use shorten::shorten;
pub(super) use shorten::{tidy_end, without_restatement_in_symbols};
pub(super) use statement::is_whole_statement;
// What the tests try on their own.
#[cfg(test)]
pub(super) use cuts::splits_a_pair;
#[cfg(test)]
pub(super) use verbs::{predicate_follows, verb_follows};

use super::capitalize;
use crate::render::math::{formula_around, formula_spans};

/// Where a sentence may be cut into clauses: the boundary goes with the clause after it.
const CLAUSE_BOUNDARIES: &[&str] = &[
    ", ",
    "; ",
    ": ",
    " - ",
    " -- ",
    " --- ",
    " – ",
    " — ",
    " while ",
    " whereas ",
    " where ",
    " which ",
    " but ",
    " by ",
    " with ",
    " and ",
    " through ",
    " using ",
    " via ",
];

/// Where a span the scorer weighs may also end, though not a text cut to fit (`shorten`):
/// before a phrase that qualifies what came before it.
const PHRASE_BOUNDARIES: &[&str] = &[" compared ", " than ", " across ", " on ", " for "];

/// Where a headline may also end: before any phrase a preposition opens, so that a
/// statement too long for a card can stop whole ("AB-Sparse achieves an accuracy
/// improvement of up to 5.43% | over existing block sparse attention baselines") rather
/// than be cut at a word inside a noun phrase.
const STATEMENT_BOUNDARIES: &[&str] = &[
    " over ",
    " in ",
    " at ",
    " from ",
    " under ",
    " within ",
    " without ",
    " during ",
    " against ",
    " among ",
    " versus ",
    " when ",
];

/// What a span must be to be given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Span {
    /// Any run of clauses the cuts allow (a one-liner, which "…" marks as going on).
    Any,
    /// A whole statement (`is_whole_statement`): a headline, which stands alone.
    Statement,
}

/// The sentence whole if it fits in `max` characters; else, without a list of examples in
/// its subject (`without_subject_aside`), whole if that fits, or the run of its clauses
/// that fits and says the most (by `score`), a run that starts the sentence preferred,
/// since it keeps the subject; else the sentence cut at a word, with "…". Where `kind`
/// asks for a statement and none of these is one, nothing (an empty string).
pub(super) fn best_span(
    sentence: &str,
    max: usize,
    score: &dyn Fn(&str) -> f64,
    kind: Span,
) -> String {
    let sentence = sentence.trim_end_matches(['.', ' ']);
    let given = |text: &str, after: &str| kind == Span::Any || is_whole_statement(text, after);
    if sentence.chars().count() <= max {
        return if given(sentence, "") {
            sentence.to_string()
        } else {
            String::new()
        };
    }
    let shorter = without_subject_aside(sentence);
    let sentence = shorter.as_str();
    if sentence.chars().count() <= max {
        return if given(sentence, "") {
            sentence.to_string()
        } else {
            String::new()
        };
    }
    let extra = match kind {
        Span::Any => &[][..],
        Span::Statement => STATEMENT_BOUNDARIES,
    };
    let mut cuts: Vec<usize> = CLAUSE_BOUNDARIES
        .iter()
        .chain(PHRASE_BOUNDARIES)
        .chain(extra)
        .flat_map(|b| sentence.match_indices(b).map(|(at, _)| at))
        .filter(|&at| at > 0)
        .collect();
    cuts.push(0);
    cuts.push(sentence.len());
    cuts.sort_unstable();
    cuts.dedup();
    let formulas = formula_spans(sentence);
    cuts.retain(|&at| !inside(&formulas, at));
    let mut best: Option<(f64, String)> = None;
    for (a, &start) in cuts.iter().enumerate() {
        if !may_start_at(&sentence[..start], &sentence[start..]) {
            continue;
        }
        for &end in &cuts[a + 1..] {
            if !may_end_at(&sentence[..end], &sentence[end..]) {
                continue;
            }
            let raw = sentence[start..end].trim_start_matches(SEPARATORS);
            if fronted_clause_alone(raw, &sentence[end..]) {
                continue;
            }
            let text = tidy_end(strip_connector(raw));
            let len = text.chars().count();
            if len > max {
                break;
            }
            // What follows the words kept, which `tidy_end` may have stopped short of
            // the cut ("…published second" of "second- and third-harmonic").
            let text_end = end - raw.len() + raw.find(text.as_str()).unwrap_or(0) + text.len();
            let after = sentence.get(text_end..).unwrap_or("");
            if len < max / 2 || !given(&text, after) {
                continue;
            }
            let s = score(&text) + if start == 0 { 1.5 } else { 0.0 } + len as f64 / max as f64;
            if best.as_ref().is_none_or(|(b, _)| s > *b) {
                best = Some((s, text));
            }
        }
    }
    match best {
        Some((_, text)) => capitalize(&text),
        // Cut from the subject on, not from a clause before it ("Contrary to the widespread
        // belief that AI facilitates interdisciplinary collaboration…" said nothing found).
        None => {
            let main = main_clause(sentence);
            let cut = shorten(main, max);
            // Its words, before the "…", are the clause's first ones.
            let kept = cut.trim_end_matches('…');
            let after = main.get(kept.len()..).unwrap_or("");
            if given(kept, after) {
                capitalize(&cut)
            } else {
                String::new()
            }
        }
    }
}

/// Words after a comma that open a clause or an item about what came before, not the
/// sentence's subject.
const NOT_A_SUBJECT: &[&str] = &[
    "which",
    "who",
    "whose",
    "where",
    "when",
    "and",
    "or",
    "but",
    "while",
    "whereas",
    "namely",
    "including",
    "such",
    "e.g.",
    "i.e.",
    "respectively",
];

/// The sentence from its subject on, where a clause it can do without comes first: up to
/// ", we" ("Motivated by the application of …, we design …"), or a phrase that a word of
/// `FRONTING` opens, to its comma ("Compared to BLAST-based methods …, Exo-Tox
/// outperforms …"); not to a comma inside a list ("On the organization, challenges, and
/// results of …") or before a clause about the phrase ("…the YASARA tool, which
/// increases …"). A "-ing" opener is often the subject itself ("Increasing the number of
/// recordings improves …"): only a "we" after it ends it.
fn main_clause(sentence: &str) -> &str {
    // Not a comma inside a formula ("For all $a, b \in X$, the norm …").
    let formulas = formula_spans(sentence);
    let commas = || {
        sentence
            .match_indices(", ")
            .map(|(at, _)| at)
            .filter(|&at| !inside(&formulas, at))
    };
    let lower = sentence.to_lowercase();
    let fronted = opens_with(&lower, FRONTING.iter());
    // Only after an opening that can go: "This is, we believe, the first …" keeps its
    // subject.
    if (fronted || opens_with_a_participle(sentence))
        && let Some(at) = commas().find(|&at| subject_after_comma(sentence, at))
    {
        return &sentence[at + ", ".len()..];
    }
    if !fronted {
        return sentence;
    }
    commas()
        .find(|&at| {
            let rest = &sentence[at + ", ".len()..];
            let first = rest.split(' ').next().unwrap_or("").to_lowercase();
            let item = rest.split(", ").nth(1).unwrap_or("");
            let list = item.starts_with("and ") || item.starts_with("or ");
            !NOT_A_SUBJECT.contains(&first.as_str()) && !list && starts_clause(rest)
        })
        .map_or(sentence, |at| &sentence[at + ", ".len()..])
}

/// Whether the text's first word is a participle ("Using …", "Motivated by …"), as the
/// lexicon reads it: not a name that ends as one ("EdgeServing outperforms …").
fn opens_with_a_participle(text: &str) -> bool {
    let first = text.split(' ').next().unwrap_or("");
    let word = lexicon::reading(first, true);
    first.len() > 4 && !word.name && (word.verb_ing || word.verb_past)
}

/// Whether lower-cased `text` opens with one of `words`, whole.
fn opens_with<'w>(text: &str, mut words: impl Iterator<Item = &'w &'w str>) -> bool {
    words.any(|w| text.starts_with(w) && text[w.len()..].starts_with(' '))
}

/// A subject that a comma sets apart from what came before it: ", we show …".
const SUBJECT_AFTER_COMMA: &[&str] = &[", we ", ", our ", ", they ", ", i "];

/// Whether `text` has `SUBJECT_AFTER_COMMA` at byte `at`.
fn subject_after_comma(text: &str, at: usize) -> bool {
    SUBJECT_AFTER_COMMA.iter().any(|s| {
        text.get(at..at + s.len())
            .is_some_and(|a| a.eq_ignore_ascii_case(s))
    })
}

/// Words that open a clause or phrase which comes before a sentence's subject.
const FRONTING: &[&str] = &[
    "to",
    "in order to",
    "by",
    "with",
    "without",
    "although",
    "though",
    "when",
    "while",
    "whereas",
    "since",
    "because",
    "if",
    "as",
    "after",
    "before",
    "unlike",
    "despite",
    "given",
    "through",
    "via",
    "for",
    "beyond",
    "upon",
    "once",
    "thanks",
    "due",
    "owing",
    "in contrast",
    "compared",
    "based",
    "inspired",
    "motivated",
    "from",
    "at",
    "on",
    "under",
    "across",
    "among",
    "within",
    "contrary to",
    "in spite of",
    "notwithstanding",
    "regardless of",
    "apart from",
    "in addition to",
    "according to",
];

/// Whether `span` is only the clause that comes before the sentence's subject, ended by
/// its comma: a purpose, means or circumstance ("To further boost the accuracy of angular
/// information | , a deep neural network is introduced", "Compared to BLAST-based methods
/// | , …"), which says nothing on its own; or ends in such a phrase at the start of what
/// a "that" says.
pub(super) fn fronted_clause_alone(span: &str, after: &str) -> bool {
    // Its comma is still to come (not a shorter cut inside it, "Building on work by
    // Levenshtein (2003) | and Tonchev (2008), we"), and no subject of its own came first
    // ("Using simulations we study …").
    if !after.contains(", ") {
        return false;
    }
    // Whatever it is, it comes before the sentence's own subject: "On three benchmarks:
    // Humanity's Last Exam (HLE), SimpleQA, and GPQA | , we demonstrate that …".
    if subject_after_comma(after, 0) {
        return true;
    }
    // "We demonstrate that for approximately 3% of questions | , the …", "I am able to show
    // that among governing systems | and institutions …, the ratios …": what is shown is
    // still to come, after the phrase that opens its clause.
    // A subject past the phrase's first words says its clause has begun ("that in most
    // cases the method works").
    const SUBJECT: &[&str] = &[
        "the", "a", "an", "we", "i", "it", "they", "our", "this", "these", "its", "their",
    ];
    if let Some(at) = span.rfind(" that ") {
        let clause = span[at + " that ".len()..].to_lowercase();
        if !clause.contains(", ")
            && opens_with(&clause, FRONTING.iter().chain(&["in"]))
            && !clause.split(' ').skip(2).any(|w| SUBJECT.contains(&w))
        {
            return true;
        }
    }
    if span.contains(", ") {
        return false;
    }
    let lower = span.to_lowercase();
    if [" we ", " our ", " this paper ", " this work "]
        .iter()
        .any(|w| lower.contains(w))
    {
        return false;
    }
    let first = lower.split(' ').next().unwrap_or("");
    // "Using …", "Building on …", "During …": any -ing word.
    opens_with(&lower, FRONTING.iter())
        || opens_with_a_participle(span) && !first.ends_with("ed")
        || in_phrase_alone(&lower, after)
}

/// Whether lower-cased `span` is a phrase that "In" opens, ended by its comma, with the
/// sentence's subject after it ("In simulations for the LHC | , a crystal … traps 90%").
/// Not "In silico screening identified …", whose subject it is, nor a phrase whose comma
/// opens a clause about it ("…, which we characterize", "…, of which three …").
fn in_phrase_alone(span: &str, after: &str) -> bool {
    const LATIN: &[&str] = &["silico", "vivo", "vitro", "situ", "vacuo", "utero", "toto"];
    const PREPOSITIONS: &[&str] = &[
        "of", "in", "on", "at", "for", "with", "by", "from", "to", "as",
    ];
    let mut words = span.split(' ');
    if words.next() != Some("in") || words.next().is_some_and(|w| LATIN.contains(&w)) {
        return false;
    }
    let Some(rest) = after.strip_prefix(", ") else {
        return false;
    };
    let next = rest.split(' ').next().unwrap_or("").to_lowercase();
    !NOT_A_SUBJECT.contains(&next.as_str()) && !PREPOSITIONS.contains(&next.as_str())
}

/// A clause without the connecting word it starts with ("and", "while", "by").
pub(super) fn strip_connector(clause: &str) -> &str {
    let first = clause.split(' ').next().unwrap_or("");
    match first {
        "while" | "whereas" | "where" | "which" | "but" | "and" => {
            clause[first.len()..].trim_start()
        }
        _ => clause,
    }
}

fn inside(formulas: &[std::ops::Range<usize>], at: usize) -> bool {
    formula_around(formulas, at).is_some()
}
