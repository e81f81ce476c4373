//! Where a sentence may be cut: the clause boundaries a headline or one-liner may start
//! and end at, the words a cut must not part, and the tidy end of what is kept.

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

/// The sentence whole if it fits in `max` characters; else, without a list of examples in
/// its subject (`without_subject_aside`), whole if that fits, or the run of its clauses
/// that fits and says the most (by `score`), a run that starts the sentence preferred,
/// since it keeps the subject; else the sentence cut at a word, with "…".
pub(super) fn best_span(sentence: &str, max: usize, score: &dyn Fn(&str) -> f64) -> String {
    let sentence = sentence.trim_end_matches(['.', ' ']);
    if sentence.chars().count() <= max {
        return sentence.to_string();
    }
    let shorter = without_subject_aside(sentence);
    let sentence = shorter.as_str();
    if sentence.chars().count() <= max {
        return sentence.to_string();
    }
    let mut cuts: Vec<usize> = CLAUSE_BOUNDARIES
        .iter()
        .chain(PHRASE_BOUNDARIES)
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
        // Nor inside brackets: "DOI: 10.5281/zenodo.14967337) to fill this gap" of
        // "We have developed EnviroAmpDesigner (v0.1.3, DOI: …) to fill this gap".
        let before = &sentence[..start];
        if !starts_clause(&sentence[start..])
            || before.matches('(').count() > before.matches(')').count()
        {
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
            if len < max / 2 {
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
        None => capitalize(&shorten(main_clause(sentence), max)),
    }
}

/// The sentence without a list set off within its subject, right before its verb: "…
/// lightweight models, such as Yi, Phi, and Llama3, can effectively support edge
/// applications" reads "… lightweight models can effectively support edge applications".
/// Cut at its commas instead, a span was the subject alone ("Chemical modification on the
/// ribose, especially the 1' and 3'-ribose positions") or stopped inside the list. Only
/// examples go, never a condition: the subject before the aside is the sentence's first
/// few words with no verb among them, the aside is items of a list (short, none opening a
/// clause: ", when quantized to 4 bits," stays), outside brackets and formulas, and a verb
/// follows it. Else the sentence is as it was.
pub(super) fn without_subject_aside(sentence: &str) -> String {
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
    let first = lower.split(' ').next().unwrap_or("");
    let fronted = opens_with(&lower, FRONTING.iter());
    // Only after an opening that can go: "This is, we believe, the first …" keeps its
    // subject.
    if (fronted || (first.len() > 4 && (first.ends_with("ing") || first.ends_with("ed"))))
        && let Some(at) = commas().find(|&at| subject_after_comma(sentence, at))
    {
        return &sentence[at + ", ".len()..];
    }
    if !fronted {
        return sentence;
    }
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
    ];
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
    opens_with(&lower, FRONTING.iter()) || (first.len() > 4 && first.ends_with("ing"))
}

/// Whether a span may end between `before` and `after`: not inside brackets ("recent
/// (2020 | and later) studies"), not between the words of a pair, and not before the
/// clause's own verb ("the number of stars | with sensitivity to HJs is only 4-16%").
pub(super) fn may_end_at(before: &str, after: &str) -> bool {
    after.is_empty()
        || (before.matches('(').count() <= before.matches(')').count()
            && !object_follows(before)
            && !splits_a_pair(before, after)
            && !inside_a_list(before, after)
            && !verb_follows(after)
            && !predicate_follows(after)
            && !bare_participle(before, after)
            && !question_follows(before, after))
}

/// Whether the cut parts "that" from the clause it opens: what "we demonstrate that | for
/// approximately 3% of questions, …" demonstrates is all after it, and a span cut there
/// read "…, we demonstrate".
fn object_follows(before: &str) -> bool {
    before
        .rsplit(' ')
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("that"))
}

/// Whether the cut parts a verb from the question it asks ("…, and assess | which approach
/// yields the best performance", "we determine | whether"): "which" after a verb, not
/// after a noun, opens its object, not a clause of its own.
fn question_follows(before: &str, after: &str) -> bool {
    const ASKING: &[&str] = &[" which ", " whether ", " how ", " what ", " why "];
    const BEFORE_A_VERB: &[&str] = &[
        "and", "or", "to", "we", "can", "will", "would", "could", "may", "might", "must", "should",
        "not", "also", "then", "further",
    ];
    if !ASKING.iter().any(|w| after.starts_with(w)) {
        return false;
    }
    let mut words = before.rsplit(' ');
    words.next();
    words
        .next()
        .is_some_and(|w| BEFORE_A_VERB.contains(&w.to_ascii_lowercase().as_str()))
}

/// Whether the text before the cut ends with a clause that is a participle alone, its
/// object or complement cut off ("…of LLMs, especially focusing | on their ability",
/// "…, relying | on"), or with a past participle whose agent or ground follows ("a
/// nonlinear system governed | by", "a graph tailored | for"). Punctuation after it ends
/// the clause there, whole.
fn bare_participle(before: &str, after: &str) -> bool {
    if after.starts_with([',', ';', ':', ')']) {
        return false;
    }
    let last = before.rsplit(' ').next().unwrap_or("");
    if participle(last, &["ed"])
        && [" by ", " on ", " upon ", " for ", " with "]
            .iter()
            .any(|p| after.starts_with(p))
    {
        return true;
    }
    let Some((_, clause)) = before.rsplit_once(", ") else {
        return false;
    };
    let words: Vec<&str> = clause.split(' ').collect();
    let Some((last, lead)) = words.split_last() else {
        return false;
    };
    participle(last, &["ing", "ed"]) && lead.iter().all(|w| w.len() > 3 && w.ends_with("ly"))
}

/// Whether `word` looks like a participle: a lower-case word longer than "used" with one of
/// these endings.
fn participle(word: &str, endings: &[&str]) -> bool {
    word.len() > 4
        && word.chars().all(|c| c.is_ascii_lowercase())
        && endings.iter().any(|e| word.ends_with(e))
}

/// Whether the cut falls before a list's last item: the text before it ends with a short
/// item after a comma, and the text after it goes on with "and" or "or"
/// ("benchmarking on histopathological, simulated | , and real data", "pocket
/// prediction, structural alignment | and clustering methods").
pub(super) fn inside_a_list(before: &str, after: &str) -> bool {
    let rest = after.trim_start_matches([',', ' ']);
    if !(rest.starts_with("and ") || rest.starts_with("or ")) {
        return false;
    }
    before
        .rsplit_once(", ")
        .is_some_and(|(_, item)| item.split_whitespace().count() <= 2)
}

/// Verbs that make a clause finite, whatever their subject.
const FINITE: &[&str] = &[
    "is", "are", "was", "were", "can", "could", "may", "might", "will", "would", "should", "must",
    "has", "have", "had", "does", "do", "did", "remains", "remain",
];

/// Whether the cut is at a comma that closes an aside within the subject, its verb right
/// after ("Chemical modification on the ribose, especially the 1' and 3'-ribose positions
/// | , increases the stability", "CPU-only deployment of lightweight models, such as Yi,
/// Phi, and Llama3 | , can effectively support"): the text before it is a subject that
/// says nothing of it. A finite verb, or a word in -s that is not an item of a list (a
/// comma or "and" after it) and not an adverb or a noun in -ss, -us, -is or -ics.
pub(super) fn predicate_follows(after: &str) -> bool {
    let Some(rest) = after.strip_prefix(", ") else {
        return false;
    };
    let mut words = rest.split(' ');
    let word = words.next().unwrap_or("");
    let next = words.next().unwrap_or("");
    // A noun in -s is followed by "and", "or" (a list goes on) or "of" ("transformers of
    // various sizes"), a verb hardly ever.
    FINITE.contains(&word)
        || (verb_in_s(word) && !next.is_empty() && !matches!(next, "and" | "or" | "of"))
}

/// Whether a word reads as a verb in -s ("increases", "outperforms"): lower case, not a
/// noun in -ss, -us, -is, -as or -ics, nor one of the adverbs and nouns listed.
fn verb_in_s(word: &str) -> bool {
    const NOT_VERBS: &[&str] = &[
        "whereas",
        "thus",
        "perhaps",
        "besides",
        "sometimes",
        "always",
        "nevertheless",
        "regardless",
        "unless",
        "across",
        "towards",
        "afterwards",
        "versus",
        "plus",
        "means",
        "news",
        "diabetes",
        "herpes",
        "species",
        "series",
        "analyses",
        "times",
    ];
    word.len() > 3
        && word.chars().all(|c| c.is_ascii_lowercase())
        && word.ends_with('s')
        && !["ss", "us", "is", "as", "ics"]
            .iter()
            .any(|e| word.ends_with(e))
        && !NOT_VERBS.contains(&word)
}

/// Whether the words after a cut inside a clause, up to the next comma, hold a finite
/// verb of that clause (not of a clause of its own: "… and it is", "… that might"): the
/// text before the cut is then a subject without its verb. A cut at a comma or a spaced
/// dash parts clauses, which the rest of `may_end_at` judges.
pub(super) fn verb_follows(after: &str) -> bool {
    const OWN_CLAUSE: &[&str] = &[
        "which", "while", "whereas", "where", "but", "we", "it", "they", "this", "these", "our",
        "that", "who", "when", "although", "though", "so", "thus", "hence", "yet", "if", "whether",
        "because", "since", "once", "until", "unless",
    ];
    if after.starts_with([',', ';', ':']) || after.trim_start().starts_with(['-', '–', '—']) {
        return false;
    }
    let chunk = after.split([',', ';', ':']).next().unwrap_or("");
    let mut words = chunk.split_whitespace().map(|w| {
        w.trim_matches(|c: char| !c.is_alphanumeric())
            .to_ascii_lowercase()
    });
    let own_clause = |w: &str| OWN_CLAUSE.contains(&w);
    // "… which is", "… and it is": a clause of its own; "… and VHJs is": the subject
    // goes on.
    match words.next().as_deref() {
        Some(w) if own_clause(w) => return false,
        Some("and") if words.clone().next().is_some_and(|w| own_clause(&w)) => return false,
        _ => {}
    }
    words
        .take_while(|w| !own_clause(w))
        .any(|w| FINITE.contains(&w.as_str()))
}

/// Whether ending before this " and " would part two words of one phrase: "a combination
/// of energy | and timing cuts", "to identify | and simulate stimuli", "scalability |
/// and reproducibility". The word before "and" is then the first of the pair right after
/// a word that opens a phrase (or a comma, in a list). Parted clauses ("Foo cuts latency
/// by 42% | and costs less") end with more than one word of their own, or with a figure.
pub(super) fn splits_a_pair(before: &str, after: &str) -> bool {
    const OPENERS: &[&str] = &[
        "a",
        "an",
        "the",
        "of",
        "to",
        "between",
        "in",
        "on",
        "for",
        "from",
        "with",
        "by",
        "at",
        "as",
        "into",
        "both",
        "either",
        "its",
        "their",
        "our",
        "e.g.",
        "i.e.",
        "namely",
        "especially",
        "including",
        "such",
        "like",
        "than",
        "and",
        "or",
    ];
    if !after.starts_with(" and ") {
        return false;
    }
    let mut words = before.rsplit(' ');
    let (Some(pair), Some(opener)) = (words.next(), words.next()) else {
        return false;
    };
    let opener = opener.to_ascii_lowercase();
    // "by up to 2.74x | and", "a recall of 55.4% | and": a result, whole.
    let figure = pair.starts_with(|c: char| c.is_ascii_digit())
        && !matches!(opener.as_str(), "a" | "an" | "the" | "between");
    !figure && (opener.ends_with(',') || OPENERS.contains(&opener.as_str()))
}

/// Whether a span may start here: at the sentence's start, after a semicolon or colon, or
/// after a comma where a subject follows ("…, GriNNder achieves"); not inside a phrase
/// ("by up to 1.37x", "and datasets").
pub(super) fn starts_clause(rest: &str) -> bool {
    if !rest.starts_with([',', ';', ':']) {
        return !rest.starts_with(' ');
    }
    if rest.starts_with([';', ':']) {
        // Not an item of a list: "…; (ii) all $δ$ in the Bayesian setting", "…; and (v) an
        // annual forum".
        let next = rest[1..].trim_start();
        let next = next
            .strip_prefix("and ")
            .or_else(|| next.strip_prefix("or "))
            .unwrap_or(next);
        return !next.starts_with('(');
    }
    let next = rest[1..].trim_start();
    // Not the last items of a list: "…: HLE, | SimpleQA, and GPQA, we show".
    let (item, after) = next.split_once(',').unwrap_or((next, ""));
    let after = after.trim_start();
    if item.split_whitespace().count() <= 2
        && (after.starts_with("and ") || after.starts_with("or "))
    {
        return false;
    }
    let word = next.split([' ', ',']).next().unwrap_or("");
    (word.chars().next().is_some_and(char::is_uppercase)
        || matches!(
            word,
            "we" | "our" | "it" | "its" | "they" | "this" | "these" | "the" | "while" | "whereas"
        ))
        && holds_a_verb(next)
}

/// Whether the rest of a sentence from a comma on has a verb: else it is an item of a list
/// ("…, MultiNLI accuracy to 86.7% (4.6% absolute improvement)") or a noun put beside the
/// one before it ("…to its larger counterpart, Llama Guard 3-1B, despite being
/// approximately 7 times smaller", which was the smaller model's), and alone it says what
/// the sentence did not. A verb: a finite one, a common irregular past, a word after a
/// subject pronoun or after a plural name ("LLMs fail"), or a word in -s or -ed after the
/// first (plural nouns and participles pass too: the test lets through more than verbs).
fn holds_a_verb(rest: &str) -> bool {
    const IRREGULAR_PAST: &[&str] = &[
        "found", "made", "took", "gave", "led", "fell", "won", "ran", "saw", "grew", "rose",
        "became", "began", "brought", "built", "held", "kept", "left", "lost", "met", "set",
        "sent", "spent", "stood", "thought", "told", "went", "wrote",
    ];
    let words: Vec<String> = rest
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_ascii_lowercase()
        })
        .collect();
    let first = rest.split_whitespace().next().unwrap_or("");
    let plural_name = first.len() > 2
        && first.ends_with('s')
        && first[..first.len() - 1]
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
    if plural_name
        || words
            .first()
            .is_some_and(|w| matches!(w.as_str(), "we" | "it" | "they" | "i" | "he" | "she"))
    {
        return true;
    }
    words.iter().enumerate().any(|(i, w)| {
        let in_ed = w.len() > 3 && w.ends_with("ed") && w.chars().all(|c| c.is_ascii_lowercase());
        FINITE.contains(&w.as_str())
            || IRREGULAR_PAST.contains(&w.as_str())
            || (i > 0 && (in_ed || verb_in_s(w)))
    })
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
    format!("{}…", tidy_end(&head[..at]))
}

fn inside(formulas: &[std::ops::Range<usize>], at: usize) -> bool {
    formula_around(formulas, at).is_some()
}

/// What may stand between two clauses, and so neither begins nor ends one: punctuation and
/// a dash set apart by spaces (`-`, TeX's `--`, `–`, `—`).
const SEPARATORS: [char; 7] = [',', ';', ':', ' ', '-', '–', '—'];

pub(super) fn tidy_end(s: &str) -> String {
    let mut words: Vec<&str> = s
        .trim_end_matches(|c| SEPARATORS.contains(&c) || c == '(')
        .split(' ')
        .collect();
    while words.len() > 1
        && words
            .last()
            .is_some_and(|w| DANGLING.contains(&w.to_ascii_lowercase().as_str()))
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
