//! A list of examples set off within a sentence's subject, which a headline can do
//! without: "lightweight models, such as Yi, Phi, and Llama3, can …".

use super::inside;
use super::verbs::{FINITE, predicate_follows};
use crate::render::math::formula_spans;

/// The sentence without a list set off within its subject, right before its verb: "…
/// lightweight models, such as Yi, Phi, and Llama3, can effectively support edge
/// applications" reads "… lightweight models can effectively support edge applications".
/// Cut at its commas instead, a span was the subject alone ("Chemical modification on the
/// ribose, especially the 1' and 3'-ribose positions") or stopped inside the list. Only
/// examples go, never a condition: the subject before the aside is the sentence's first
/// few words with no verb among them, the aside is items of a list (short, none opening a
/// clause: ", when quantized to 4 bits," stays), outside brackets and formulas, and a verb
/// follows it. Else the sentence is as it was.
pub(crate) fn without_subject_aside(sentence: &str) -> String {
    const OPENERS: &[&str] = &[
        ", such as ",
        ", especially ",
        ", in particular ",
        ", including ",
        ", e.g. ",
        ", e.g., ",
        ", i.e. ",
        ", i.e., ",
        ", namely ",
    ];
    let Some((start, opener)) = OPENERS
        .iter()
        .filter_map(|o| sentence.find(o).map(|at| (at, *o)))
        .min()
    else {
        return sentence.to_string();
    };
    let subject = &sentence[..start];
    let formulas = formula_spans(sentence);
    if !is_a_bare_subject(subject) || inside(&formulas, start) {
        return sentence.to_string();
    }
    // The aside's items, comma by comma, up to the one a verb follows.
    let mut item_start = start + opener.len();
    let mut first = true;
    while let Some(at) = sentence[item_start..].find(", ").map(|at| item_start + at) {
        let item = &sentence[item_start..at];
        if !is_a_list_item(item, first) || inside(&formulas, at) {
            break;
        }
        if predicate_follows(&sentence[at..]) {
            return format!("{subject}{}", &sentence[at + 1..]);
        }
        first = false;
        item_start = at + 2;
    }
    sentence.to_string()
}

/// Whether the text may be a subject with no verb of its own: a few words, no comma,
/// bracket or formula, no finite verb, and no word in -s or -ed but its last (the head
/// noun: "lightweight models"), since a verb may hide among them ("Our toolkit supports
/// common formats"). A subject that has one ("systems for question answering") keeps
/// its examples.
fn is_a_bare_subject(text: &str) -> bool {
    let words: Vec<String> = text.split(' ').map(str::to_ascii_lowercase).collect();
    if words.len() > 8 || text.contains([',', '(', ')', '$', ';', ':']) {
        return false;
    }
    let Some((_, before_last)) = words.split_last() else {
        return false;
    };
    !words.iter().any(|w| FINITE.contains(&w.as_str()))
        && !before_last.iter().any(|w| {
            w.len() > 3
                && w.chars().all(|c| c.is_ascii_lowercase())
                && (w.ends_with('s') || w.ends_with("ed"))
        })
}

/// Whether the text between two commas of an aside is an item of its list: a few words,
/// brackets closed, and no clause ("when quantized", "trained on curated data"): the
/// first item follows the opener, a later one may start with "and" or "or".
fn is_a_list_item(item: &str, first: bool) -> bool {
    const OPENS_A_CLAUSE: &[&str] = &[
        "when", "where", "which", "while", "whereas", "if", "unless", "although", "though",
        "because", "since", "that", "who", "whose", "as", "once", "after", "before", "despite",
    ];
    let item = match first {
        true => item,
        false => item
            .strip_prefix("and ")
            .or_else(|| item.strip_prefix("or "))
            .unwrap_or(item),
    };
    let words: Vec<&str> = item.split_whitespace().collect();
    let Some(head) = words.first() else {
        return false;
    };
    let head = head.to_ascii_lowercase();
    words.len() <= 6
        && item.matches('(').count() == item.matches(')').count()
        && !OPENS_A_CLAUSE.contains(&head.as_str())
        && !(head.len() > 4 && (head.ends_with("ed") || head.ends_with("ing")))
}
