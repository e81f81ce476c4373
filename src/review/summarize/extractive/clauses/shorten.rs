//! A text cut to fit: at a clause boundary where one keeps enough of it, else at a word
//! with "…"; and the tidy end of whatever is kept.

use super::cuts::may_end_at;
use super::{CLAUSE_BOUNDARIES, fronted_clause_alone, inside};
use crate::render::math::{formula_around, formula_spans};
use regex::Regex;
use std::sync::LazyLock;

/// Words a shortened text must not end on.
const DANGLING: &[&str] = &[
    "each",
    "every",
    "and",
    "or",
    "the",
    "of",
    "to",
    "with",
    "for",
    "in",
    "on",
    "by",
    "a",
    "an",
    "at",
    "from",
    "that",
    "which",
    "while",
    "as",
    "its",
    "their",
    "our",
    "is",
    "are",
    "than",
    "into",
    "via",
    "both",
    "using",
    "over",
    "under",
    "between",
    "across",
    "compared",
    "such",
    "including",
    "driven",
    "when",
    "where",
    "designed",
    "i.e.",
    "e.g.",
    "viz.",
    "namely",
    "but",
    "also",
    "rather",
    // Adverbs that point at the phrase after them: "effective potentials especially".
    "especially",
    "particularly",
    "mainly",
    "primarily",
    "chiefly",
    "notably",
    "solely",
    "very",
    // A preposition, as "of" and "in" are.
    "within",
    // A determiner whose noun is cut off: "…only 4--16% of those…".
    "these",
    "those",
    // A modal without its verb: "…and may".
    "may",
    "might",
    "can",
    "could",
    "will",
    "would",
    "should",
    "must",
];

/// The text cut to `max` characters: whole, or up to the last clause boundary that keeps
/// at least half of it, or up to a word with "…".
pub fn shorten(text: &str, max: usize) -> String {
    let text = crate::sources::xml::fold_whitespace(text);
    let text = text.trim_end_matches(['.', ' ']);
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut_at = text
        .char_indices()
        .nth(max)
        .map(|(b, _)| b)
        .unwrap_or(text.len());
    let head = &text[..cut_at];
    let formulas = formula_spans(text);
    let best = CLAUSE_BOUNDARIES
        .iter()
        .flat_map(|b| head.match_indices(b).map(|(at, _)| at))
        .filter(|&at| {
            head[..at].chars().count() >= max / 2
                && may_end_at(&head[..at], &text[at..])
                && !fronted_clause_alone(&head[..at], &text[at..])
                && !inside(&formulas, at)
        })
        .max();
    if let Some(at) = best {
        return tidy_end(&head[..at]);
    }
    let at = word_cut(head, text, max);
    // Half a formula is not one: cut before it.
    let at = formula_around(&formulas, at).map_or(at, |f| f.start);
    // Its tidy end is a prefix of the text: what follows it is the rest.
    let end = tidy_end(&head[..at]);
    format!("{}…", tidy_end(without_item_mark(&end, text)))
}

/// Words that open a phrase of their own after a noun: a cut before one ends a line on
/// that noun ("…coupling between electrons…"), where a cut at any word may end on a
/// modifier whose noun is cut off ("…between electrons in adjacent…"). Not "to", "that"
/// or "as", which more often open what the word before needs ("measured to be 0.927",
/// "demonstrate that", "taken as").
const OPENS_A_PHRASE: &[&str] = &[
    "of", "in", "for", "with", "and", "or", "which", "by", "from", "on", "at", "using", "via",
    "across", "over", "between", "into", "through", "while", "where", "when", "under", "within",
    "without", "among", "against", "whose", "who", "because", "since", "although", "whereas",
    "but",
];

/// Where to cut `head` (the first `max` characters of `text`) at a word: the last word,
/// unless the line would end on what reads as a modifier whose noun is cut off. Then the
/// word before it, if the line ends well there; else the last word that opens a phrase
/// (`OPENS_A_PHRASE`) after a word that may be a noun and is no modifier, keeping at least
/// half of `max`, where a line may end and what it keeps holds a verb (not a subject
/// alone: "The experimental realization and tomographic analysis…"); else the last word
/// after all.
fn word_cut(head: &str, text: &str, max: usize) -> usize {
    let last = head.rfind(' ').unwrap_or(head.len());
    let ends_on_a_modifier =
        |at: usize| reads_as_a_modifier(tidy_end(&head[..at]).rsplit(' ').next().unwrap_or(""));
    if !ends_on_a_modifier(last) {
        return last;
    }
    // The modifier alone dropped, where what is left ends well ("…providers of GPAI
    // models…" of "…models presenting…", "…electrons…" of "…electrons in adjacent…").
    // Only where a word that cannot end a line went with it ("in", "of the") or what is
    // left ends on a plural: a word before a modifier is as often a verb ("to locate
    // two…").
    if let Some(before) = head[..last].rfind(' ') {
        let kept = tidy_end(&head[..before]);
        let word = kept.rsplit(' ').next().unwrap_or("");
        let plural = word.len() > 3
            && word.ends_with('s')
            && !word.ends_with("ss")
            && word.chars().all(|c| c.is_ascii_lowercase());
        if (kept.len() < head[..before].trim_end().len() || plural)
            && kept.chars().count() >= max / 2
            && ends_on_a_noun(&kept)
            && !reads_as_a_modifier(word)
            && super::verbs::holds_a_verb(&kept)
            && may_end_at(&kept, text.get(kept.len()..).unwrap_or(""))
        {
            return before;
        }
    }
    head.rmatch_indices(' ')
        .map(|(at, _)| at)
        .find(|&at| {
            let next = text[at + 1..].split(' ').next().unwrap_or("");
            OPENS_A_PHRASE.contains(&next)
                && head[..at].chars().count() >= max / 2
                && ends_on_a_noun(&head[..at])
                && !ends_on_a_modifier(at)
                && super::verbs::holds_a_verb(&head[..at])
                && may_end_at(&head[..at], &text[at..])
        })
        .unwrap_or(last)
}

/// Whether a line's last word reads as the modifier of a noun after it, or as a word a
/// phrase goes on from: an adjective's ending ("adjacent", "chemical", "genomic"), a
/// participle, a compound whose last part is one ("non-arithmetic"), a number, or one of the words
/// that are not nouns (`ends_on_a_noun`). A singular noun ("model") and a plural
/// ("inclusions") end a line as they are.
fn reads_as_a_modifier(word: &str) -> bool {
    const ENDINGS: &[&str] = &[
        "al", "ic", "ive", "ous", "ent", "ant", "ary", "ible", "able", "ful", "less", "ing", "ed",
    ];
    const NUMBERS: &[&str] = &[
        "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "several",
    ];
    // Nouns with an adjective's ending.
    const NOUNS: &[&str] = &[
        "signal",
        "potential",
        "training",
        "variable",
        "boundary",
        "material",
        "interval",
        "trial",
        "proposal",
        "journal",
        "manual",
        "agent",
        "patient",
        "student",
        "gradient",
        "component",
        "element",
        "constant",
        "variant",
        "content",
        "event",
        "client",
        "thing",
        "string",
        "setting",
        "learning",
        "meaning",
        "library",
        "summary",
        "dictionary",
        "table",
        "cable",
        "need",
        "speed",
        "seed",
        "feed",
    ];
    let lower = word.to_ascii_lowercase();
    if NOUNS.contains(&lower.as_str()) || lower.ends_with("ment") {
        return false;
    }
    let lettered = lower.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    // A compound by its last part: "non-arithmetic" is one, "d-polytopes" is not.
    let last_part = lower.rsplit('-').next().unwrap_or("");
    // "3D", "2D", "5G": a size or kind before its noun.
    let short_code = lower.len() <= 3
        && lower.starts_with(|c: char| c.is_ascii_digit())
        && !lower.ends_with(|c: char| c.is_ascii_digit());
    short_code
        || (lettered
            && ENDINGS
                .iter()
                .any(|e| last_part.len() > e.len() + 2 && last_part.ends_with(e)))
        || NUMBERS.contains(&lower.as_str())
        || (!lower.is_empty() && lower.chars().all(|c| c.is_ascii_digit()))
        || !ends_on_a_noun(word)
}

/// Whether the text's last word may be a noun: not a verb, participle, adverb or a word
/// that a fixed phrase goes on from ("in terms of", "up to"). The summarizer has no
/// tagger: this errs towards refusing, and a refused cut is the last word, as before.
fn ends_on_a_noun(text: &str) -> bool {
    const NOT_NOUNS: &[&str] = &[
        "terms",
        "due",
        "other",
        "another",
        "respect",
        "regard",
        "up",
        "out",
        "well",
        "made",
        "found",
        "taken",
        "given",
        "shown",
        "known",
        "seen",
        "done",
        "chosen",
        "held",
        "built",
        "set",
        "show",
        "shows",
        "demonstrate",
        "demonstrates",
        "allow",
        "allows",
        "study",
        "studies",
        "use",
        "uses",
        "it",
        "them",
        "us",
        "this",
        "that",
        "some",
        "many",
        "most",
        "all",
        "any",
        "several",
        "few",
        "one",
        "two",
        "more",
        "less",
        "much",
        "none",
        "part",
    ];
    let word = text.rsplit(' ').next().unwrap_or("");
    let lower = word.to_ascii_lowercase();
    let in_ending = |e: &str| lower.len() > e.len() + 2 && lower.ends_with(e);
    !(word.is_empty()
        || NOT_NOUNS.contains(&lower.as_str())
        || super::verbs::FINITE.contains(&lower.as_str())
        || DANGLING.contains(&lower.as_str())
        || in_ending("ed")
        || in_ending("ing")
        || in_ending("ly"))
}

/// The text cut at a word without the mark of a list's item it ends on ("…the transmitter
/// (i)" of "…the transmitter (i) is deterministic, (ii) may…"), whose item is cut off. Only
/// where the text goes on to a next item: "(1)" alone refers to an equation.
fn without_item_mark<'a>(cut: &'a str, text: &str) -> &'a str {
    let Some((before, last)) = cut.trim_end().rsplit_once(' ') else {
        return cut;
    };
    let mark = last.strip_suffix(')').unwrap_or("");
    let mark = mark.strip_prefix('(').unwrap_or(mark);
    let next = match mark {
        "i" => "ii",
        "ii" => "iii",
        "iii" => "iv",
        "a" => "b",
        "b" => "c",
        "1" => "2",
        "2" => "3",
        _ => return cut,
    };
    let rest = text.get(cut.len()..).unwrap_or("");
    if rest.contains(&format!("{next})")) {
        before
    } else {
        cut
    }
}

/// What may stand between two clauses, and so neither begins nor ends one: punctuation and
/// a dash set apart by spaces (`-`, TeX's `--`, `–`, `—`).
pub(super) const SEPARATORS: [char; 7] = [',', ';', ':', ' ', '-', '–', '—'];

/// A word that is only a sign joining the words either side of it ("concept inclusions /
/// TGDs", "R & D", "a + b"): ending on it, a line reads as cut mid-phrase ("…inclusions /…").
fn joins_words(word: &str) -> bool {
    !word.is_empty() && word.chars().all(|c| "/&+=<>|~*·×→←↔≈".contains(c))
}

pub(crate) fn tidy_end(s: &str) -> String {
    let mut words: Vec<&str> = s
        .trim_end_matches(|c| SEPARATORS.contains(&c) || c == '(')
        .split(' ')
        .collect();
    while words.len() > 1
        && words
            .last()
            // As written: "CAN" (a bus), "May" (a month) and "Will" (a name) end a line.
            .is_some_and(|w| DANGLING.contains(w) || joins_words(w))
    {
        words.pop();
    }
    let joined = words.join(" ");
    // An opening bracket with no closing one reads as broken.
    let open = joined.matches('(').count();
    let close = joined.matches(')').count();
    if open > close
        && let Some(at) = joined.rfind('(')
    {
        return joined[..at].trim_end_matches([',', ' ']).to_string();
    }
    joined.trim_end_matches(SEPARATORS).to_string()
}

/// A line that ends by saying its words again as a formula ("the Gaussian sequence model,
/// i.e. $X \sim N(\mathbfθ, I_\infty)$"): the words are what a card's reader takes in.
/// Only after "i.e.", and not a formula with a number or a relation in it: "the minimax
/// rate, i.e. $O(n^{-1/2})$" and "namely $\nu = 0.63$" are the finding itself.
pub(crate) fn without_restatement_in_symbols(line: &str) -> String {
    let Some(found) = RESTATED_IN_SYMBOLS.captures(line) else {
        return line.to_string();
    };
    let tail = found.get(0).map_or(line.len(), |m| m.start());
    if tail == 0 || FORMULA_FINDING.is_match(&found["formula"]) {
        return line.to_string();
    }
    line[..tail].to_string()
}

static RESTATED_IN_SYMBOLS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:,\s*|\s+\(\s*)i\.\s?e\.,?\s*\$(?P<formula>[^$]+)\$\)?$")
        .expect("a valid pattern")
});

static FORMULA_FINDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\d|[=<>≤≥≈≠]|\\(?:le|ge|leq|geq|approx|neq|ll|gg|asymp|propto)\b|\b[OΘΩ]\(|\\(?:Theta|Omega)\b")
        .expect("a valid pattern")
});
