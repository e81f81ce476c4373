//! A text cut to fit: at a clause boundary where one keeps enough of it, else at a word
//! with "…"; and the tidy end of whatever is kept.

use super::cuts::may_end_at;
use super::{CLAUSE_BOUNDARIES, fronted_clause_alone, inside};
use crate::render::math::{formula_around, formula_spans};

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
    let at = head.rfind(' ').unwrap_or(head.len());
    // Half a formula is not one: cut before it.
    let at = formula_around(&formulas, at).map_or(at, |f| f.start);
    // Its tidy end is a prefix of the text: what follows it is the rest.
    let end = tidy_end(&head[..at]);
    format!("{}…", tidy_end(without_item_mark(&end, text)))
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
