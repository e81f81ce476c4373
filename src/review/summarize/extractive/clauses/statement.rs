//! Whether a span is a whole statement: a finite verb of its own (not only one inside a
//! clause that "that", "which" or "how" opens), every such clause with its verb, and an
//! end that is not inside a noun phrase ("…reconstruction of heavy" of "heavy, short-lived
//! particles"). Words are read by the lexicon (`lexicon`) and by their neighbours, as a
//! tagger's rules would: "results" after "the" is a noun, "show" after "results" a verb.

use super::lexicon::{Closed, Reading, reading};
use crate::render::math::formula_spans;

/// Whether `span` says something whole, `after` being the rest of its sentence (empty
/// where the span ends it). A trailing "…" is not part of the words.
pub(crate) fn is_whole_statement(span: &str, after: &str) -> bool {
    let span = span.trim_end_matches(['…', ' ']);
    // A bracket opened and not closed: cut inside it.
    if span.matches(['(', '[']).count() > span.matches([')', ']']).count() {
        return false;
    }
    let words = words(span);
    if words.is_empty() {
        return false;
    }
    let readings: Vec<Reading> = words
        .iter()
        .enumerate()
        .map(|(i, w)| reading(&w.text, i == 0))
        .collect();
    let mut main_verb = false;
    // Clauses opened ("that", "how", "which") whose verb is still to come.
    let mut open_clauses = 0usize;
    // The word before, past adverbs; none after a clause's punctuation.
    let mut before: Option<&Reading> = None;
    for (i, r) in readings.iter().enumerate() {
        // Past a comma the next word is not this one's object or complement.
        let next = readings.get(i + 1).filter(|_| !words[i].ends_clause);
        let finite = match r.closed {
            Some(Closed::Finite) => true,
            Some(Closed::Subordinator) => {
                if opens_a_clause(&words[i].lower, i, before, next) {
                    open_clauses += 1;
                }
                false
            }
            _ => is_finite_verb(r, before, next),
        };
        if finite {
            if open_clauses > 0 {
                open_clauses -= 1;
            } else {
                main_verb = true;
            }
        }
        let adverb = r.adv && !r.noun && !r.adj && !r.verb_base && r.closed.is_none();
        if !adverb {
            before = Some(r);
        }
        if words[i].ends_clause {
            before = None;
        }
    }
    main_verb
        && open_clauses == 0
        && !ends_inside_a_phrase(&readings, &words, span, after)
        && !object_still_to_come(&words, &readings, after)
}

struct Word {
    text: String,
    lower: String,
    /// Followed by a comma, semicolon or colon.
    ends_clause: bool,
}

/// The span's words outside brackets, a formula one word ("$x$").
fn words(span: &str) -> Vec<Word> {
    let mut text = String::with_capacity(span.len());
    let mut at = 0;
    for f in formula_spans(span) {
        text.push_str(&span[at..f.start]);
        text.push_str("$x$");
        at = f.end;
    }
    text.push_str(&span[at..]);
    let mut depth = 0i32;
    let mut plain = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = (depth - 1).max(0),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    plain
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric) || w.contains('$'))
        .map(|w| Word {
            text: w.to_string(),
            lower: w
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase(),
            ends_clause: w.ends_with([',', ';', ':']),
        })
        .collect()
}

/// Whether a subordinating word opens a clause that needs a verb of its own: not "that"
/// as the span's first word (a determiner), and not before a participle or "to" ("while
/// preserving accuracy", "once trained", "how to").
fn opens_a_clause(word: &str, i: usize, before: Option<&Reading>, next: Option<&Reading>) -> bool {
    if i == 0 && word == "that" {
        return false;
    }
    // "that" after a determiner or preposition is one itself ("in that case").
    if word == "that" && before.is_some_and(|b| b.closed == Some(Closed::Preposition)) {
        return false;
    }
    !next.is_some_and(|n| {
        n.closed == Some(Closed::NonFinite)
            || (n.verb_ing || n.verb_past) && !n.noun && n.closed.is_none()
            || (n.verb_ing && n.mostly_verb)
    })
}

/// Whether a word is a finite verb where it stands: after its subject (a noun, a name, a
/// pronoun), not after a determiner, preposition or "to", and in the form its subject
/// takes.
fn is_finite_verb(r: &Reading, before: Option<&Reading>, next: Option<&Reading>) -> bool {
    if r.closed.is_some() || r.name || r.number {
        return false;
    }
    let Some(b) = before else {
        return false;
    };
    let pronoun = b.closed == Some(Closed::Pronoun);
    // "which", "that", "who" before a verb in -s or the past are its subject ("Foo,
    // which cuts …"); before a bare word, it is a noun ("that code obfuscation").
    let relative = b.closed == Some(Closed::Subordinator);
    if relative {
        return (r.verb_s || r.verb_past) && (r.mostly_verb || !r.noun);
    }
    let nominal = pronoun || b.name || b.number || (b.noun && !b.mostly_adj && b.closed.is_none());
    if !nominal {
        return false;
    }
    let plural_subject = b.plural || (pronoun && !b.verb_s);
    // After a name too: names modify nouns ("GPU clusters", "$G$-fixed points").
    // A word that may be a noun too is a verb where its object follows ("the ribose
    // increases the stability"), not before a preposition ("power cycles by …").
    let object_follows = next.is_some_and(|n| {
        n.closed == Some(Closed::Determiner) || n.number || n.closed.is_none() && n.mostly_adj
    });
    if r.verb_s && (b.name || !b.plural) && (r.mostly_verb || pronoun || object_follows) {
        return true;
    }
    // After a name in -s only a word that is mostly a verb ("BL Lacs show", not "the Cox
    // Proportional Hazards model").
    if r.verb_base && plural_subject && !r.mostly_adj && (r.mostly_verb || !b.name) {
        return true;
    }
    // "fixed points", "generalized algebras": a participle WordNet lists as an adjective,
    // before its noun, modifies it.
    if r.verb_past
        && r.adj
        && !pronoun
        && next.is_some_and(|n| n.closed.is_none() && (n.noun || n.name) && !n.mostly_verb)
    {
        return false;
    }
    if r.verb_past {
        // "the model trained on …" is a noun and what qualifies it, not a statement;
        // "we trained on …", "accuracy improved by 12%" are.
        let preposition = next.is_some_and(|n| n.closed == Some(Closed::Preposition));
        return pronoun || !preposition || r.mostly_verb && next.is_some_and(|n| n.number);
    }
    false
}

/// Whether the span stops where its last phrase cannot: on a determiner, preposition or
/// conjunction; on a modifier whose noun comes after it ("…of heavy" before ",
/// short-lived particles"); inside a word ("second" of "second- and third-harmonic"), a
/// noun phrase ("…a typed, in-memory" before "representation") or a coordination ("an
/// extension of Perron-Frobenius" before "and Krein-Rutman theorems for …"); before the
/// object of its last verb ("…a multigraph satisfying" before "the above equality") or
/// the preposition a participle takes ("…can be viewed" before "as a resource"); or on a
/// subject whose verb follows ("…datasets. iGCL" before "also shows").
fn ends_inside_a_phrase(readings: &[Reading], words: &[Word], span: &str, after: &str) -> bool {
    use Closed::*;
    let Some((last, before)) = readings.split_last() else {
        return true;
    };
    let before_last = before.last();
    // An adverb after a comma opens a phrase of its own: "…attacks, even | when …".
    let comma_adverb = last.mostly_adv || last.adv && !last.noun && !last.adj;
    if comma_adverb && words.len() > 1 && words[words.len() - 2].ends_clause {
        return true;
    }
    if matches!(
        last.closed,
        Some(Determiner | Preposition | Conjunction | Subordinator | NonFinite)
    ) {
        return true;
    }
    if after.starts_with('-') {
        return true;
    }
    // A bracket that does not close in the sentence: cut inside it.
    let Some(after) = past_brackets(after) else {
        return true;
    };
    if after.trim().is_empty() || span.ends_with([')', ']']) {
        return false;
    }
    let rest = after.trim_start_matches([',', ' ']);
    let joined = rest
        .strip_prefix("and ")
        .or_else(|| rest.strip_prefix("or "));
    let direct = joined.is_none() && !after.starts_with([',', ';', ':']);
    let rest = joined.unwrap_or(rest);
    let next_words: Vec<Reading> = rest
        .split([',', ';', ':', '.'])
        .next()
        .unwrap_or("")
        .split_whitespace()
        .map(|w| reading(w, false))
        .collect();
    let Some(next) = next_words.first() else {
        return false;
    };
    let open = next.closed.is_none();
    let nominal = open && (next.noun || next.name || next.number);
    if last.mostly_adj && !last.number && (nominal || open && next.mostly_adj) {
        return true;
    }
    // A list of modifiers still going on: "a typed, in-memory | , replayable replica".
    if !direct && joined.is_none() && open && next.mostly_adj && in_a_list_of_modifiers(span) {
        return true;
    }
    if let Some(joined) = joined {
        // "A and B theorems for …" goes on as one noun phrase, and so does a list whose
        // last item is to come ("by 9x, communication by 180x | , and energy usage by
        // 30x"); "…by 40% and improves throughput" is a second predicate. (After a
        // figure alone the next item is another result: "…by up to 2.74x | and average
        // search throughput by up to 1.37x".)
        let predicate = next_words.iter().any(|r| {
            matches!(r.closed, Some(Finite | Pronoun)) || (r.verb_s || r.verb_past) && !r.noun
        });
        let item = nominal || open && next.mostly_adj;
        let serial = after.starts_with(", ") && span.contains(", ");
        let noun_ended = (last.noun || last.name) && !last.number;
        return !joined.is_empty() && item && !predicate && (noun_ended || serial);
    }
    if !direct {
        return false;
    }
    // "…has | at most one": an auxiliary whose verb or object follows ("…how general
    // this phenomenon is" ends its sentence).
    if last.closed == Some(Finite) {
        return true;
    }
    // A verb: not a noun, or a noun's form right after a subject ("we construct").
    let after_subject = before_last.is_some_and(|b| b.closed == Some(Pronoun));
    let verb = last.closed.is_none() && (!last.noun || after_subject) && !last.name;
    // A transitive form whose object follows, or a participle and its preposition.
    if verb && last.verb_ing {
        return true;
    }
    // A verb in -s or its base form with its sentence going on right after it: its object
    // ("obtains | up to 3.2%"), the clause that is its object ("we show | that …",
    // "…benchmarks prove | that …"), or a phrase before it ("we construct | in this paper
    // new infinite classes"). Only a clause of another kind may follow.
    let object_clause = matches!(
        rest.split_whitespace()
            .next()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric())),
        Some("that" | "how" | "whether" | "what" | "why" | "which")
    );
    if verb
        && (last.verb_s || last.verb_base)
        && (object_clause || !matches!(next.closed, Some(Conjunction | Subordinator)))
    {
        return true;
    }
    let next_adverb = next.adv && !next.noun && !next.adj;
    if verb
        && (last.verb_past || last.compound_participle)
        && (next_adverb || matches!(next.closed, Some(Preposition | NonFinite)))
    {
        return true;
    }
    // An adverb before the word it qualifies ("…are further | steepened"), or after a
    // participle whose phrase it opens ("…trained exclusively | on").
    let adverb = last.adv && !last.noun && last.closed.is_none();
    if adverb && open && (next.verb_past || next.verb_ing || next.adj) {
        return true;
    }
    let after_participle = before_last.is_some_and(|b| b.verb_past || b.verb_ing);
    if adverb && after_participle && next.closed == Some(Preposition) {
        return true;
    }
    // The verb of the words the span ends on: "iGCL | also shows".
    let after_adverbs = next_words.iter().find(|r| !(r.adv && !r.noun && !r.adj));
    if after_adverbs.is_some_and(|r| r.closed == Some(Finite) || r.verb_s && r.mostly_verb) {
        return true;
    }
    // Else only a word that opens a phrase of its own may follow without a break: a
    // preposition, a conjunction, a clause, a participle's phrase.
    let opens_a_phrase =
        matches!(
            next.closed,
            Some(Preposition | Conjunction | Subordinator | NonFinite)
        ) || (open && (next.verb_ing || next.verb_past) && !next.noun && !next.adj)
            || (next.adv && !next.noun && !next.adj);
    !opens_a_phrase
}

/// Whether the span ends inside an aside that stands between a word and what it needs:
/// a verb and its object ("…allows us to estimate, at the quantum mechanical level | ,
/// the harmonic contribution"), a conjunction and its second item ("…bounds on $x$ and,
/// as a consequence | , on the efficiency of …").
fn object_still_to_come(words: &[Word], readings: &[Reading], after: &str) -> bool {
    if !after.starts_with(", ") {
        return false;
    }
    let is_bare_verb = |i: usize| {
        let r = &readings[i];
        // Not a noun, or a noun's form right after "to" or a subject ("to estimate").
        let after_to = i > 0
            && matches!(
                readings[i - 1].closed,
                Some(Closed::NonFinite | Closed::Pronoun)
            );
        r.closed.is_none() && (!r.noun || after_to) && (r.verb_base || r.verb_s)
    };
    // The verb itself, its object after the aside: "…to estimate | , at the … level, the
    // harmonic contribution".
    if is_bare_verb(words.len() - 1) {
        return true;
    }
    let Some(comma) = words[..words.len().saturating_sub(1)]
        .iter()
        .rposition(|w| w.ends_clause)
    else {
        return false;
    };
    let aside = readings.get(comma + 1);
    let conjunction = readings[comma].closed == Some(Closed::Conjunction);
    (conjunction || is_bare_verb(comma))
        && aside.is_some_and(|a| matches!(a.closed, Some(Closed::Preposition | Closed::Determiner)))
}

/// Whether the span's last noun phrase, from its determiner, is a list of modifiers so
/// far ("a typed, in-memory"): the words after a comma since "a", "an" or "the".
fn in_a_list_of_modifiers(span: &str) -> bool {
    let lower = span.to_lowercase();
    let phrase = [" a ", " an ", " the "]
        .iter()
        .filter_map(|d| lower.rfind(d).map(|at| &lower[at..]))
        .min_by_key(|p| p.len());
    phrase.is_some_and(|p| p.contains(", ") && !p.contains(" and ") && !p.contains(" or "))
}

/// The text after a bracket that opens it, from where the bracket closes: "SIBFA | (Sum
/// of Interactions …) polarizable force field" goes on with "polarizable". None where it
/// never closes.
fn past_brackets(after: &str) -> Option<&str> {
    let trimmed = after.trim_start();
    if !trimmed.starts_with(['(', '[']) {
        return Some(after);
    }
    let mut depth = 0;
    for (i, c) in trimmed.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&trimmed[i + 1..]);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_has_its_verb_and_ends_where_a_phrase_does() {
        for (span, after) in [
            (
                "It reduces power cycles by up to 60%",
                " with an accuracy loss",
            ),
            (
                "CheckMate integrates validation of LLM-generated approximations",
                "",
            ),
            ("Our results show that Foo beats Bar", ""),
            ("Batteryless IoT systems face energy constraints", ""),
            ("We present Foo, which cuts latency by 40%", ""),
            ("Foo cuts latency by 40% while preserving accuracy", ""),
            ("NAVIS speeds on-SSD vector inserts up to 2.74x", ""),
        ] {
            assert!(is_whole_statement(span, after), "{span}|{after}");
        }
        for (span, after) in [
            (
                "In collider experiments, the kinematic reconstruction of heavy",
                ", short-lived particles is vital",
            ),
            (
                "The paper characterizes how discovery reliability",
                " varies with the sampling",
            ),
            (
                "Both strong and weak scaling of workloads during training and inference",
                " are studied",
            ),
            (
                "We introduce the State Twin: a typed, in-memory",
                " representation",
            ),
            (
                "We introduce the State Twin: a typed, in-memory",
                ", replayable replica of an on-chain automated market maker (AMM) pool",
            ),
            ("Methods that are fast", ""),
        ] {
            assert!(!is_whole_statement(span, after), "{span}|{after}");
        }
    }
}
