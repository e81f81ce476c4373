//! Whether words hold a verb: the summarizer has no part-of-speech tagger, so these are
//! word tests that err towards leaving a sentence whole.

/// Verbs that make a clause finite, whatever their subject.
pub(super) const FINITE: &[&str] = &[
    "is", "are", "was", "were", "can", "could", "may", "might", "will", "would", "should", "must",
    "has", "have", "had", "does", "do", "did", "remains", "remain",
];

/// Whether the cut is at a comma that closes an aside within the subject, its verb right
/// after ("Chemical modification on the ribose, especially the 1' and 3'-ribose positions
/// | , increases the stability", "CPU-only deployment of lightweight models, such as Yi,
/// Phi, and Llama3 | , can effectively support"): the text before it is a subject that
/// says nothing of it. A finite verb, or a word in -s that is not an item of a list (a
/// comma or "and" after it) and not an adverb or a noun in -ss, -us, -is or -ics.
pub(crate) fn predicate_follows(after: &str) -> bool {
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
pub(crate) fn verb_follows(after: &str) -> bool {
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

/// Whether the rest of a sentence from a comma on has a verb: else it is an item of a list
/// ("…, MultiNLI accuracy to 86.7% (4.6% absolute improvement)") or a noun put beside the
/// one before it ("…to its larger counterpart, Llama Guard 3-1B, despite being
/// approximately 7 times smaller", which was the smaller model's), and alone it says what
/// the sentence did not. A verb: a finite one, a common irregular past, a word after a
/// subject pronoun or after a plural name ("LLMs fail"), or a word in -s or -ed after the
/// first (plural nouns and participles pass too: the test lets through more than verbs).
pub(super) fn holds_a_verb(rest: &str) -> bool {
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
