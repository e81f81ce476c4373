//! What of a paper's text can support a model's answer: the sentences of its title, comment
//! and abstract that describe the work. Left out are the sentences that speak to whoever
//! reads the text (an order to an AI reviewer, "ignore the instructions above"), those in
//! another language than the paper's, and TeX comments, which no reader of the paper sees.
//! Everything an answer says must come from what is left, so an instruction hidden in the
//! paper cannot lend its words, links or numbers to the answer it asks for.
//!
//! There is no parser here: the cues are the marks of a sentence that gives orders in any
//! register (an imperative at the start of a clause followed by its object; "you"; a
//! model named as the one who must act), and of a sentence in another language (its
//! function words are another language's, or its letters another script's).

/// The sentences of a paper's text that may support an answer, and those left out.
#[derive(Debug, Default)]
pub struct Sentences {
    pub kept: Vec<String>,
    pub left_out: Vec<String>,
}

pub fn sentences(title: &str, comment: &str, abstract_text: &str) -> Sentences {
    let mut out = Sentences::default();
    let latin_paper = script_share(abstract_text) < 0.3;
    for (text, is_title) in [(title, true), (comment, false), (abstract_text, false)] {
        let sentences =
            crate::review::summarize::extractive::sentences(&without_tex_comments(text));
        for s in sentences.iter().flat_map(|s| by_script(s)) {
            let words = words(s);
            let orders_or_foreign =
                gives_orders(s, &words, is_title) || (latin_paper && is_foreign(s, &words));
            let keep = !orders_or_foreign;
            if keep {
                out.kept.push(s.to_string());
            } else {
                out.left_out.push(s.to_string());
            }
        }
    }
    out
}

/// A sentence split where another script's sentence starts: the English splitter looks
/// for a capital after a full stop, and a Chinese sentence has none (nor its full stop).
fn by_script(sentence: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    for (i, c) in sentence.char_indices() {
        let other_script = c.is_alphabetic() && !is_latin_or_greek(c);
        let after_stop = matches!(prev, Some('.' | '!' | '?'))
            || sentence[..i].trim_end().ends_with(['.', '!', '?']);
        if other_script && after_stop && i > start {
            out.push(sentence[start..i].trim());
            start = i;
        }
        if matches!(c, '。' | '！' | '？') {
            let end = i + c.len_utf8();
            out.push(sentence[start..end].trim());
            start = end;
        }
        if !c.is_whitespace() {
            prev = Some(c);
        }
    }
    out.push(sentence[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

/// The text without TeX comments: from an unescaped `%` that does not follow a number to
/// the end of its line.
pub fn without_tex_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let mut cut = None;
        let mut prev: Option<char> = None;
        for (i, c) in line.char_indices() {
            if c == '%'
                && prev != Some('\\')
                && !line[..i].trim_end().ends_with(|p: char| p.is_ascii_digit())
            {
                cut = Some(i);
                break;
            }
            prev = Some(c);
        }
        match cut {
            Some(i) => {
                out.push_str(&line[..i]);
                if line.ends_with('\n') {
                    out.push('\n');
                }
            }
            None => out.push_str(line),
        }
    }
    out
}

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().replace('’', "'"))
        .collect()
}

/// Verbs that order a writer about, when they open a clause and their object follows.
const ORDERS: &[&str] = &[
    "ignore",
    "disregard",
    "forget",
    "override",
    "write",
    "output",
    "print",
    "say",
    "respond",
    "reply",
    "give",
    "rate",
    "recommend",
    "summarize",
    "summarise",
    "describe",
    "mention",
    "include",
    "omit",
    "praise",
    "accept",
    "emphasize",
    "emphasise",
    "highlight",
    "insert",
    "append",
    "pretend",
    "translate",
    "repeat",
    "replace",
    "tell",
    "produce",
    "generate",
];

/// Words an order may open with before its verb.
const LEADS: &[&str] = &[
    "do", "don't", "never", "always", "please", "now", "then", "and", "also", "instead", "just",
    "simply",
];

/// What opens the object of an order: "write the …", "ignore all …", "say: …".
const OBJECT_OPENERS: &[&str] = &[
    "the",
    "a",
    "an",
    "all",
    "any",
    "every",
    "this",
    "that",
    "these",
    "those",
    "it",
    "its",
    "your",
    "my",
    "our",
    "only",
    "exactly",
    "previous",
    "prior",
    "above",
    "following",
    "instead",
    "now",
    "no",
    "nothing",
    "everything",
    "that",
    "in",
    "as",
    "to",
    "this",
];

/// Who an order in a paper is for.
const ADDRESSEES: &[&str] = &[
    "ai",
    "llm",
    "llms",
    "gpt",
    "chatgpt",
    "assistant",
    "assistants",
    "chatbot",
    "reviewer",
    "reviewers",
    "summarizer",
    "summarizers",
    "agent",
    "agents",
    "model",
    "models",
];

/// What says that the one named must act: "AI reviewers must …", "the model should …".
const MODALS: &[&str] = &["must", "should", "shall"];

const SECOND_PERSON: &[&str] = &["you", "your", "yours", "yourself", "yourselves"];

/// Whether a sentence gives orders to its reader rather than describing the work.
fn gives_orders(sentence: &str, words: &[String], is_title: bool) -> bool {
    let is = |w: Option<&String>, list: &[&str]| w.is_some_and(|w| list.contains(&w.as_str()));
    let ordered = clauses(sentence).iter().any(|clause| {
        let w = self::words(clause);
        // Words in capitals before the order are its banner ("IMPORTANT NOTE write …").
        let skip = clause
            .split_whitespace()
            .take_while(|t| t.len() > 1 && t.chars().all(|c| !c.is_lowercase()))
            .count()
            .min(w.len());
        let mut w = &w[skip..];
        // "Do not mention the …", "Now write the …": the order is the verb after them.
        while let Some(lead) = w.first().filter(|l| LEADS.contains(&l.as_str())) {
            w = &w[if lead == "do" && is(w.get(1), &["not"]) {
                2
            } else {
                1
            }..];
        }
        is(w.first(), ORDERS) && (is(w.get(1), OBJECT_OPENERS) || w.len() == 1)
    });
    let addressed = (0..words.len()).any(|i| {
        is(words.get(i), ADDRESSEES)
            && (is(words.get(i + 1), MODALS) || is(words.get(i + 2), MODALS))
    });
    let you = words.iter().any(|w| SECOND_PERSON.contains(&w.as_str()));
    // A title may say "you" ("Attention Is All You Need"), or name a model that must do
    // something; an order in it still counts.
    ordered || (!is_title && (addressed || (you && mentions_ai(words))))
}

fn mentions_ai(words: &[String]) -> bool {
    words
        .iter()
        .any(|w| ADDRESSEES.contains(&w.as_str()) || w == "instructions" || w == "prompt")
}

/// A sentence's clauses, as far as its marks tell them apart: what follows a colon, a
/// semicolon, a bracket, a quotation mark or a dash opens a clause of its own.
fn clauses(sentence: &str) -> Vec<&str> {
    sentence
        .split([
            ':', ';', '(', ')', '[', ']', '"', '“', '”', '«', '»', '—', '–',
        ])
        .flat_map(|c| c.split(" - "))
        .filter(|c| !c.trim().is_empty())
        .collect()
}

/// Function words of the languages a hidden instruction is most often written in besides
/// English, and English's own: a sentence with more of another language's than of
/// English's is in that language.
const ENGLISH: &[&str] = &[
    "the", "of", "and", "to", "in", "a", "is", "for", "we", "that", "on", "with", "by", "as",
    "are", "this", "an", "be", "from", "our", "it", "which", "at", "can", "or", "its", "not",
];
const OTHER: &[&str] = &[
    // French
    "le", "la", "les", "des", "du", "et", "est", "dans", "pour", "que", "qui", "une", "sur", "avec",
    "nous", "vous", "cette", "pas", "ce", "au", "aux", "toutes", "tous", // German
    "der", "die", "das", "und", "ist", "nicht", "mit", "für", "auf", "ein", "eine", "den", "dem",
    "sie", "wir", "zu", "von", "alle", "als", "schreibe", "diese", "dieser",
    // Spanish, Italian, Portuguese
    "el", "los", "las", "y", "es", "en", "para", "con", "una", "por", "del", "su", "todas", "il",
    "di", "che", "per", "della", "sono", "gli", "o", "os", "um", "não", "uma", "e",
];

fn is_foreign(sentence: &str, words: &[String]) -> bool {
    if script_share(sentence) >= 0.3 {
        return true;
    }
    let english = words
        .iter()
        .filter(|w| ENGLISH.contains(&w.as_str()))
        .count();
    let other = words.iter().filter(|w| OTHER.contains(&w.as_str())).count();
    other >= 2 && other > english
}

/// The share of a text's words in another script than Latin (or Greek, which formulas
/// use), a letter of such a script counted as a word: a Chinese sentence that quotes an
/// English phrase is still Chinese.
fn script_share(text: &str) -> f64 {
    let other = text
        .chars()
        .filter(|&c| c.is_alphabetic() && !is_latin_or_greek(c))
        .count();
    let latin_words = text
        .split(|c: char| !(c.is_alphabetic() && is_latin_or_greek(c)))
        .filter(|w| !w.is_empty())
        .count();
    other as f64 / (other + latin_words).max(1) as f64
}

fn is_latin_or_greek(c: char) -> bool {
    (c as u32) < 0x0250
        || ('\u{0370}'..='\u{03ff}').contains(&c)
        || ('\u{1e00}'..='\u{1eff}').contains(&c)
}
