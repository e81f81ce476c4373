//! Where a span may start and end: not inside brackets, a pair, a list or a question, and
//! not between a subject and its verb.

use super::verbs::{holds_a_verb, predicate_follows, verb_follows};

/// Whether a span may end between `before` and `after`: not inside brackets ("recent
/// (2020 | and later) studies"), not between the words of a pair, and not before the
/// clause's own verb ("the number of stars | with sensitivity to HJs is only 4-16%").
pub(crate) fn may_end_at(before: &str, after: &str) -> bool {
    after.is_empty()
        || (before.matches('(').count() <= before.matches(')').count()
            && !object_follows(before)
            && !prepositional_object_follows(before, after)
            && !splits_a_pair(before, after)
            && !inside_a_list(before, after)
            && !verb_follows(after)
            && !predicate_follows(after)
            && !bare_participle(before, after)
            && !question_follows(before, after)
            && !defining_clause_follows(before, after)
            && !complement_follows(before, after)
            && !quantity_follows(before, after))
}

/// Whether a span may start between `before` and `after`: where a clause starts
/// (`starts_clause`), not inside brackets ("DOI: 10.5281/zenodo.14967337) to fill this
/// gap" of "We have developed EnviroAmpDesigner (v0.1.3, DOI: …) to fill this gap") and
/// not at a list's later item ("…the S-wave, P-wave, | D-wave and radially excited…").
pub(crate) fn may_start_at(before: &str, after: &str) -> bool {
    starts_clause(after)
        && before.matches('(').count() <= before.matches(')').count()
        && !inside_a_list(before, after)
}

/// Whether the cut parts a comparison from what it is measured against or by: "more",
/// "less" or a comparative in -er from its "than" ("similar results, where more | than 90%
/// of the atoms …", "which is 34.62%-45.19% higher | than previous works"), or a change
/// from its size ("SFT boosts held-out association Precision at 5 | by 16-20% in
/// English", "by up to 12%"). Alone, a quantity of nothing, or a result without its number.
fn quantity_follows(before: &str, after: &str) -> bool {
    if let Some(by) = after.strip_prefix(" by ") {
        return is_a_size(by);
    }
    after.starts_with(" than ")
        && before.rsplit(' ').next().is_some_and(|w| {
            let w = w.to_ascii_lowercase();
            // A comparative in -er ("higher", "fewer", "other than" too), but not
            // "rather", which says "instead of" and goes with the cut (`tidy_end`):
            // "…components rather | than simple…" reads "…components".
            ["more", "less", "worse"].contains(&w.as_str())
                || (w.len() > 4
                    && w.ends_with("er")
                    && w.chars().all(|c| c.is_ascii_alphabetic())
                    && w != "rather")
        })
}

/// Whether `text` opens with a size ("16-20%", "up to 2.7x", "+0.20", "an average of 3.1
/// points"), not a means that starts with a figure ("4-bit quantization", "5G links").
fn is_a_size(text: &str) -> bool {
    const HEDGES: &[&str] = &[
        "up to ",
        "over ",
        "about ",
        "around ",
        "nearly ",
        "almost ",
        "roughly ",
        "approximately ",
        "more than ",
        "at least ",
        "as much as ",
        "an average of ",
        "a factor of ",
        "a median of ",
    ];
    let mut text = text;
    while let Some(hedge) = HEDGES.iter().find(|h| text.starts_with(*h)) {
        text = &text[hedge.len()..];
    }
    let word = text
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches([',', '.', ';', ':', ')']);
    let body = word.strip_suffix(['x', '×']).unwrap_or(word);
    word.starts_with(|c: char| c.is_ascii_digit() || "+-−~≈".contains(c))
        && body.chars().any(|c| c.is_ascii_digit())
        && body
            .chars()
            .all(|c| c.is_ascii_digit() || "+-−~≈.,%".contains(c))
}

/// Whether the cut parts an adjective from what it is said of ("parameters that are
/// sufficient | for hardness to arise", "a method suitable | for large graphs"): alone it claims more
/// than the abstract does.
fn complement_follows(before: &str, after: &str) -> bool {
    const ADJECTIVES: &[&str] = &[
        "sufficient",
        "insufficient",
        "necessary",
        "able",
        "unable",
        "capable",
        "incapable",
        "responsible",
        "suitable",
        "unsuitable",
        "applicable",
        "equivalent",
        "similar",
        "comparable",
        "specific",
        "essential",
        "amenable",
        "prone",
        "susceptible",
        "proportional",
        "dependent",
        "independent",
        "sensitive",
        "insensitive",
        "conducive",
        "relevant",
    ];
    // Of the boundaries a span may end at, those that open a complement.
    if ![" for ", " on ", " with "]
        .iter()
        .any(|p| after.starts_with(p))
    {
        return false;
    }
    before
        .rsplit(' ')
        .next()
        .is_some_and(|w| ADJECTIVES.contains(&w.to_ascii_lowercase().as_str()))
}

/// Whether the cut parts "the" and its noun from the clause that says which ("for the
/// cases | where the transmitter is deterministic"): without it the line ends on a noun
/// it never names. After a comma, or any other noun, the clause only adds.
fn defining_clause_follows(before: &str, after: &str) -> bool {
    // The boundaries a span may end at (`CLAUSE_BOUNDARIES`, `PHRASE_BOUNDARIES`) that
    // open one.
    const DEFINING: &[&str] = &[" where ", " for which "];
    if !DEFINING.iter().any(|w| after.starts_with(w)) {
        return false;
    }
    let mut words = before.rsplit(' ');
    words.next();
    words.next().is_some_and(|w| w.eq_ignore_ascii_case("the"))
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

/// Whether the cut parts a verb from the preposition that takes its object ("a simple
/// scaling form allows | for the extrapolation of …", "relies | on"): the line would end
/// on a verb that says nothing alone. (Only prepositions a span may end before.)
fn prepositional_object_follows(before: &str, after: &str) -> bool {
    const VERBS: &[(&str, &str)] = &[
        ("allow", " for "),
        ("account", " for "),
        ("call", " for "),
        ("rely", " on "),
        ("relies", " on "),
        ("relied", " on "),
        ("depend", " on "),
    ];
    let Some(word) = before.rsplit(' ').next() else {
        return false;
    };
    VERBS.iter().any(|&(verb, preposition)| {
        after.starts_with(preposition)
            && word
                .strip_prefix(verb)
                .is_some_and(|ending| ["", "s", "ed", "ing"].contains(&ending))
    })
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
/// Or before any later item of such a list ("to address disease heterogeneity, enhance
/// efficacy | , reduce resistance, and improve patient outcomes", "in machine learning,
/// statistics, economics | , biology and other fields"): the line would read as if the
/// list were whole.
fn inside_a_list(before: &str, after: &str) -> bool {
    let rest = after.trim_start_matches([',', ' ']);
    let next_item = after.starts_with(", ") || rest.starts_with("and ") || rest.starts_with("or ");
    // A short item before the cut: a cut after a list's first item reads whole.
    next_item
        && before
            .rsplit_once(", ")
            .is_some_and(|(_, item)| item.split_whitespace().count() <= 2)
        && list_goes_on(rest, true)
}

/// Whether `items` are the rest of a list: short items, up to one that "and" or "or" joins
/// ("SimpleQA, and GPQA", "P-wave, D-wave and radially excited…"). A first item with "and"
/// as its second word is one only where the text before was an item (`listed`): else it
/// may be a subject ("BERT and GPT achieve").
fn list_goes_on(items: &str, listed: bool) -> bool {
    for (i, item) in items.split(", ").take(8).enumerate() {
        let words: Vec<&str> = item.split_whitespace().collect();
        let joins = |w: Option<&&str>| matches!(w, Some(&("and" | "or")));
        if joins(words.first()) || joins(words.get(1)) {
            return listed || i > 0;
        }
        if words.len() > 3 {
            return false;
        }
    }
    false
}

/// Whether ending before this " and " would part two words of one phrase: "a combination
/// of energy | and timing cuts", "to identify | and simulate stimuli", "scalability |
/// and reproducibility". The word before "and" is then the first of the pair right after
/// a word that opens a phrase (or a comma, in a list). Parted clauses ("Foo cuts latency
/// by 42% | and costs less") end with more than one word of their own, or with a figure.
pub(crate) fn splits_a_pair(before: &str, after: &str) -> bool {
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
    // Two compound words, as in "long-read single-cell | and single-nuclei RNA": the
    // adjectives of one noun still to come.
    let hyphenated = |w: &str| {
        w.contains('-')
            && !w.ends_with('-')
            && !w.starts_with(|c: char| c.is_ascii_digit() || c == '-')
    };
    if hyphenated(pair)
        && after[" and ".len()..]
            .split(' ')
            .next()
            .is_some_and(hyphenated)
    {
        return true;
    }
    let opener = opener.to_ascii_lowercase();
    // "by up to 2.74x | and", "a recall of 55.4% | and": a result, whole.
    let figure = pair.starts_with(|c: char| c.is_ascii_digit())
        && !matches!(opener.as_str(), "a" | "an" | "the" | "between");
    !figure && (opener.ends_with(',') || OPENERS.contains(&opener.as_str()))
}

/// Whether a span may start here: at the sentence's start, after a semicolon or colon
/// unless they part the items of a list, or after a comma where a subject follows ("…,
/// GriNNder achieves"); not inside a phrase ("by up to 1.37x", "and datasets") or a
/// list ("…, SimpleQA, and GPQA").
pub(crate) fn starts_clause(rest: &str) -> bool {
    if !rest.starts_with([',', ';', ':']) {
        return !rest.starts_with(' ');
    }
    if rest.starts_with([';', ':']) {
        // Not an item of a list: "…; (ii) all $δ$ in the Bayesian setting", "…; and (v) an
        // annual forum".
        let item = rest[1..].trim_start();
        let next = item
            .strip_prefix("and ")
            .or_else(|| item.strip_prefix("or "))
            .unwrap_or(item);
        // Nor an item of a list that semicolons part, the last one ("; and …") or one
        // before it ("…requirements; | third-party evaluators; policymakers …; and
        // academic researchers …").
        let semicolons = rest.starts_with(';');
        let last_item = next.len() < item.len();
        let list_goes_on = next.contains("; and ") || next.contains("; or ");
        return !next.starts_with('(') && !(semicolons && (last_item || list_goes_on));
    }
    let next = rest[1..].trim_start();
    // Not the last items of a list: "…: HLE, | SimpleQA, and GPQA, we show", "…of the
    // S-wave, | P-wave, D-wave and radially excited charmed baryons".
    if list_goes_on(next, false) {
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
