//! The built-in summarizer: offline, deterministic and extractive. It picks the abstract's
//! key-result sentence (numbers, comparisons: "up to 32 % faster") for the headline and its
//! contribution sentence ("we present …") for the one-liner, and shortens each by dropping
//! openers ("In this paper, we show that"), trailing clauses and a list of examples in its
//! subject (", such as Yi, Phi, and Llama3,"). Every word it gives is the
//! abstract's own, in the abstract's order: it never writes a claim the authors did not.

use super::{HEADLINE_CHARS, Input, SUMMARY_CHARS, Summarizer, Summary};
use anyhow::Result;
pub use clauses::shorten;
use clauses::{Span, best_span, without_restatement_in_symbols};
use regex::Regex;
use std::sync::LazyLock;
use subject::Subject;

pub struct Extractive;

impl Summarizer for Extractive {
    fn summarize(&self, paper: &Input) -> Result<Summary> {
        Ok(summarize_titled(
            paper.title,
            &super::check::describing_text(paper.abstract_text),
        ))
    }
}

/// Headline and one-liner of an abstract; none of an empty one. (Not the title instead:
/// a card shows the title anyway, and would show it twice.)
pub fn summarize(abstract_text: &str) -> Summary {
    summarize_titled("", abstract_text)
}

/// As `summarize`, with the paper's title: a headline whose subject stands in for what the
/// paper presents ("It reduces …") names it as the title or abstract does (`subject`).
pub fn summarize_titled(title: &str, abstract_text: &str) -> Summary {
    let sentences = sentences(abstract_text);
    if sentences.is_empty() {
        return Summary {
            by: "extractive".into(),
            ..Default::default()
        };
    }
    let n = sentences.len();
    let scored: Vec<(f64, f64)> = sentences
        .iter()
        .enumerate()
        .map(|(i, s)| (result_score(s, i, n), contribution_score(s, i, n)))
        .collect();
    let best = |key: &dyn Fn(usize) -> f64, except: Option<usize>| -> Option<usize> {
        (0..n)
            .filter(|&i| Some(i) != except)
            .max_by(|&a, &b| key(a).total_cmp(&key(b)).then(b.cmp(&a)))
    };
    // Each sentence's headline is made before one is chosen: one that opens by pointing
    // back ("It achieves up to 48x …", once "Even with limited resources," is cut) leaves
    // a reader of the card asking what "it" is, and another sentence speaks first unless
    // it says far less. (The one-liner below it may: the headline and title come first.)
    let name = subject::presented_name(title, &sentences);
    let headlines: Vec<(String, f64)> = sentences
        .iter()
        .map(|s| {
            let s = match subject::named_subject(&strip_openers(s), name.as_deref()) {
                Subject::Own(s) | Subject::Named(s) => s,
                Subject::Unnamed => return (String::new(), 0.0),
            };
            // The headline says what was found; without a result, what was made. Only a
            // whole statement: none where no span of the sentence is one.
            let line = best_span(
                &s,
                HEADLINE_CHARS,
                &|t| result_score(t, 1, 3).max(contribution_score(t, 1, 3)),
                Span::Statement,
            );
            // Not where the work is ("We release this project at https://…"): the card
            // links its code, as for the one-liner below.
            let line = without_restatement_in_symbols(&line);
            if line.contains("://") {
                return (String::new(), 0.0);
            }
            let cost = if subject::points_back(&line) {
                subject::POINTS_BACK_COST
            } else {
                0.0
            };
            (line, cost)
        })
        .collect();
    // A sentence with no headline is never chosen for one.
    let headline_key = |i: usize| {
        if headlines[i].0.is_empty() {
            f64::NEG_INFINITY
        } else {
            scored[i].0.max(scored[i].1 * 0.8) - headlines[i].1
        }
    };
    let mut h = best(&headline_key, None).unwrap_or(0);
    // A sentence cut short before a formula too long for a card ("Its Smith normal form
    // is $$…$$") says less than the title: the next sentence speaks instead.
    if !says_enough(&headlines[h].0, HEADLINE_CHARS)
        && let Some(next) = best(&headline_key, Some(h))
        && !headlines[next].0.is_empty()
    {
        h = next;
    }
    let headline = headlines[h].0.clone();
    let one_liner = |sentence: String| {
        // Room for the "…" of a sentence that goes on past the span.
        let span = best_span(
            &sentence,
            SUMMARY_CHARS - 1,
            &|t| contribution_score(t, 1, 3) + 0.5 * result_score(t, 1, 3),
            Span::Any,
        );
        ellipsis_unless_whole(&sentence, span)
    };
    // The best sentence but the headline's, unless what is left of it once its openers
    // and clauses are cut is a stub ("Experimental results verify the effectiveness of
    // MHSNet" is "The effectiveness of MHSNet"): then the sentence with its openers, and
    // if that is one too, the next sentence that says more.
    let mut others: Vec<usize> = (0..n).filter(|&i| headline.is_empty() || i != h).collect();
    let summary_key = |i: usize| scored[i].1 + 0.5 * scored[i].0;
    others.sort_by(|&a, &b| summary_key(b).total_cmp(&summary_key(a)).then(a.cmp(&b)));
    let lines = others.iter().flat_map(|&s| {
        let first = one_liner(strip_openers(&sentences[s]));
        // Only whole: cut, the frame may crowd out what it framed.
        let whole = is_stub(&first)
            .then(|| capitalize(sentences[s].trim().trim_end_matches(['.', ' '])))
            .filter(|whole| whole.chars().count() < SUMMARY_CHARS);
        std::iter::once(first).chain(whole)
    });
    let mut summary = String::new();
    // Not a line that opens as the headline does: an abstract with a conclusion says its
    // contribution twice ("We have developed EnviroAmpDesigner (v0.1.3, DOI: …) to fill
    // this gap" and, at its end, "We have developed EnviroAmpDesigner (v 0.1.3) software").
    let lines = lines.filter(|line| !opens_alike(line, &headline));
    // A line that gives an address ("we release this project at https://github.com/…", "a
    // video … is available at the following URL: …") says where the work is, not what it
    // is, and the card links its code already: the next line speaks, if there is one.
    for line in lines {
        if !is_stub(&line) && !line.contains("://") {
            summary = line;
            break;
        }
        if summary.is_empty() {
            summary = line;
        }
    }
    Summary {
        headline,
        summary,
        by: "extractive".into(),
        ..Default::default()
    }
}

/// The one-liner, with "…" where the sentence goes on past it: a line that stops before
/// its sentence does ("…and provide initial tools", which the abstract goes on "for
/// measuring software discrimination") must not read as if it said all.
fn ellipsis_unless_whole(sentence: &str, mut span: String) -> String {
    // A span that starts mid-sentence starts with a capital letter the sentence does not
    // have there ("We develop…" of "…, we develop…"). It may be of the sentence without
    // the examples in its subject (`best_span`), whose end is the sentence's.
    let sentence = sentence.trim_end_matches(['.', ' ']);
    let ends_it = |text: &str| text.to_lowercase().ends_with(&span.to_lowercase());
    if !span.is_empty()
        && !span.ends_with('…')
        && !ends_it(sentence)
        && !ends_it(&clauses::without_subject_aside(sentence))
    {
        span.push('…');
    }
    span
}

/// Whether two lines open with the same four words.
fn opens_alike(a: &str, b: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split_whitespace()
            .take(4)
            .map(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            })
            .collect()
    };
    let (a, b) = (words(a), words(b));
    a.len() == 4 && a == b
}

/// Whether a one-liner says too little to stand for its paper: a few words ("How to
/// implement", left of "…, all of which this paper demonstrates how to implement").
fn is_stub(line: &str) -> bool {
    line.split_whitespace().count() < MIN_WORDS
}

/// Fewest words a one-liner has when its abstract has a sentence that gives more.
const MIN_WORDS: usize = 6;

/// Whether a line is more than a stub: whole, or cut to at least half of `max`.
fn says_enough(line: &str, max: usize) -> bool {
    !line.ends_with('…') || line.chars().count() >= max / 2
}

/// Words that end a sentence with their period, not the sentence.
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "et al", "vs", "fig", "figs", "eq", "eqs", "sec", "ref", "refs", "resp", "cf",
    "approx", "no", "dr", "prof", "etc", "al", "viz", "ca", "st", "mr", "ms", "jr",
];

/// `\%` as `%` where it is text; inside a formula it stays escaped, since a bare `%` there
/// starts a TeX comment and the page showed "achieve 25 accuracy" for `$25\%$`.
fn percent_as_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for formula in crate::render::math::formulas(text) {
        out.push_str(&text[at..formula.source.start].replace("\\%", "%"));
        out.push_str(&text[formula.source.clone()]);
        at = formula.source.end;
    }
    out.push_str(&text[at..].replace("\\%", "%"));
    out
}

/// The abstract's sentences, white space folded; a LaTeX `~` is a space.
pub fn sentences(text: &str) -> Vec<String> {
    let text = crate::sources::xml::fold_whitespace(&percent_as_text(&text.replace('~', " ")));
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut start = 0;
    let mut depth = 0i32; // inside brackets or $…$ math a period ends nothing
    let mut in_math = false;
    for i in 0..chars.len() {
        match chars[i] {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = (depth - 1).max(0),
            '$' => in_math = !in_math,
            '.' | '?' | '!' if depth == 0 && !in_math => {
                let next = chars.get(i + 1).copied();
                let after = chars.get(i + 2).copied();
                let ends = next == Some(' ')
                    && after.is_some_and(|c| {
                        c.is_uppercase() || c.is_ascii_digit() || c == '"' || c == '(' || c == '$'
                    })
                    || next.is_none();
                if !ends {
                    continue;
                }
                let piece: String = chars[start..i].iter().collect();
                let last_word = piece
                    .rsplit(|c: char| c.is_whitespace() || c == '(')
                    .next()
                    .unwrap_or("")
                    .to_ascii_lowercase();
                if chars[i] == '.'
                    && (ABBREVIATIONS.contains(&last_word.as_str())
                        || (last_word.len() == 1 && last_word.chars().all(char::is_alphabetic)))
                {
                    continue;
                }
                let sentence: String = chars[start..=i].iter().collect();
                let sentence = without_section_label(sentence.trim());
                if !sentence.is_empty() && !KEYWORDS.is_match(sentence) {
                    out.push(sentence.to_string());
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    let rest: String = chars[start.min(chars.len())..].iter().collect();
    let rest = without_section_label(rest.trim());
    if !rest.is_empty() && !KEYWORDS.is_match(rest) {
        out.push(rest.to_string());
    }
    out
}

/// A list of the paper's keywords or subject codes, which an abstract may end with
/// ("Keywords: competitive programming, language model, dataset" was a headline): no
/// sentence.
static KEYWORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?i:key ?words?|index terms|pacs(?: numbers?| codes?)?|msc(?: \d{4})?(?: classification)?|(?:mathematics )?subject classifications?)\s*(?:[:—–]|-{1,3} )")
        .expect("a valid pattern")
});

/// The heading of a structured abstract's section ("Results: We present …", "BACKGROUND:
/// …") labels the sentence; it is not part of what a headline or one-liner says.
static SECTION_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?i:abstract|background|context|motivation|objectives?|aims?|purpose|rationale|importance|introduction|methods?(?: (?:&|and) results?)?|methodology|results?|findings|interpretation|conclusions?|discussion|significance|summary|availability(?: and implementation)?|supplementary information|contact|impact statement|data summary)\s*:\s+")
        .expect("a valid pattern")
});

/// A label the feed glued to the section's first word ("ResultsHence, we propose …":
/// bioRxiv's structured abstracts without their line breaks). Only the labels such
/// abstracts use, which no model's name starts with ("ContextNet" stays).
static GLUED_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:Background|Motivation|Objectives?|Aims|Purpose|Methods|Results|Conclusions?|Availability and implementation)(\p{Lu}\p{Ll})")
        .expect("a valid pattern")
});

fn without_section_label(sentence: &str) -> &str {
    if let Some(word) = GLUED_LABEL.captures(sentence).and_then(|c| c.get(1)) {
        return &sentence[word.start()..];
    }
    match SECTION_LABEL.find(sentence) {
        Some(label) if label.end() < sentence.len() => &sentence[label.end()..],
        _ => sentence,
    }
}

static NUMBER_RESULT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\d(?:[\d,.]*\d)?\s?(?:%|\\%|×|x\b|times\b|-fold|fold\b|percent|pp\b|percentage points?|points?\b|orders? of magnitude)")
        .expect("a valid pattern")
});
static ANY_NUMBER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d").expect("a valid pattern"));
static COMPARISON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:outperform\w*|faster|slower|speed-?ups?|accelerat\w*|improv\w*|reduc\w*|increas\w*|higher|lower|better|surpass\w*|exceed\w*|beats?|gains?|state[- ]of[- ]the[- ]art|sota|fewer|less|cuts?|saves?|boosts?|up to|achiev\w*|matches|competitive|comparable)\b")
        .expect("a valid pattern")
});
static RESULT_VERB: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:show\w*|demonstrat\w*|reveal\w*|find|finds|found|results?|experiments?|evaluations?|prove[sn]?|establish\w*|confirm\w*)\b")
        .expect("a valid pattern")
});
static CONTRIBUTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:we|this (?:paper|work|study|article)|our (?:work|paper))\s+(?:\w+\s+)?(?:propose|present|introduce|develop|design|build|describe|study|investigate|analy[sz]e|formulate|derive|provide|offer|report|explore|examine|release|construct)\w*")
        .expect("a valid pattern")
});
static BACKGROUND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:in recent years|recently|with the (?:rapid|growing|increasing)|as |despite|although|while|however|existing|traditional|current|many|most|modern)\b|\b(?:has|have) (?:become|emerged|attracted|gained|been widely)\b|\bremains? (?:a |an )?(?:challenge|challenging|open|difficult)\b")
        .expect("a valid pattern")
});

fn result_score(s: &str, i: usize, n: usize) -> f64 {
    let mut score = 0.0;
    score += 3.0 * NUMBER_RESULT.find_iter(s).count().min(2) as f64;
    if ANY_NUMBER.is_match(s) {
        score += 0.5;
    }
    score += COMPARISON.find_iter(s).count().min(3) as f64;
    if RESULT_VERB.is_match(s) {
        score += 1.0;
    }
    if BACKGROUND.is_match(s) {
        score -= 2.0;
    }
    score + position(i, n) + length(s)
}

fn contribution_score(s: &str, i: usize, n: usize) -> f64 {
    let mut score = 0.0;
    if CONTRIBUTION.is_match(s) {
        score += 3.0;
    }
    if BACKGROUND.is_match(s) {
        score -= 2.0;
    }
    // Contributions come after the opening background.
    if i == 0 && n > 2 {
        score -= 0.5;
    }
    score + length(s)
}

fn position(i: usize, n: usize) -> f64 {
    if n <= 2 {
        0.0
    } else if i == 0 {
        -1.0
    } else if i + 1 == n || i + 2 == n {
        0.5
    } else {
        0.0
    }
}

fn length(s: &str) -> f64 {
    let len = s.chars().count();
    if len < 40 {
        -1.5
    } else if len > 320 {
        -1.0
    } else {
        0.0
    }
}

static OPENERS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        // Words that tie the sentence to the one before it, which a card does not show:
        // "Interestingly, …", "On the other hand, …", "Using these, we …", "To address these
        // limitations of mutation testing, we …". First, before a shorter opener takes
        // part of one.
        r"(?i)^(?:interestingly|surprisingly|remarkably|indeed|nonetheless|nevertheless|further|besides|conversely|similarly|likewise|instead|meanwhile|accordingly|in contrast|more (?:generally|specifically|precisely|broadly)|in general|in combination|on the other hand|for (?:instance|example)|in (?:this|the present|our) (?:research|project|context|setting|case|way|regard|framework|direction))\s*,\s+",
        r"(?i)^(?:using|with|given|based on|building on|motivated by|guided by|to (?:achieve|fix|address|do|solve|overcome|tackle|test|answer|that end)) (?:this|these|them|it|that|our|such)(?: [\w-]+){0,4}\s*,\s+",
        // Any short purpose that points back at the sentence before: "To automate this
        // process, …", "To combat these problems we …". A longer one says something of its
        // own ("To tackle these unique challenges from real-world tables"). Lazy, so that
        // the frame ends at its first comma or "we"; "we" stays (`keep`).
        r"(?i)^to [a-z]+ (?:this|these|such)(?: [\w-]+){0,3}?(?:\s*,\s+|\s+(?P<keep>we\b))",
        r"(?i)^(?:in|within|through) (?:this|the present|our) (?:paper|work|study|article|letter|thesis|note|report)\s*,?\s*",
        r"(?i)^(?:here|herein|to this end|to address (?:this|these) (?:issues?|challenges?|problems?|gaps?|limitations?)|to (?:fill|bridge) this gap|in response|in addition|additionally|moreover|furthermore|finally|overall|specifically|in particular|as a result|consequently|notably|importantly|crucially|thus|therefore|hence|in summary|in short|taken together|together|lastly|first|second|third|next)\s*,?\s+",
        // A frame of results: its noun, what qualifies it ("Experiments on three benchmarks
        // show that"), its verb. The fewest words first, so that it ends at its own verb,
        // not a later one ("Our evaluation reveals …: while agents demonstrate").
        r"(?i)^(?:(?:our|the|these|such|experimental|empirical|extensive|comprehensive|numerical|simulation) )*(?:results|experiments|evaluations?|validations?|analyses|analysis|findings|simulations|benchmarks|measurements|studies|tests)(?: [^.;]{1,140}?)??,? (?:show|shows|showed|demonstrate|demonstrates|demonstrated|indicate|indicates|reveal|reveals|suggest|suggests|confirm|confirms|highlight|highlights|verify|verifies|establish|establishes)(?: that)?,?\s+",
        r"(?i)^we (?:also |further |then |additionally |empirically |experimentally |theoretically |formally |first |finally )?(?:show|demonstrate|find|found|observe|report|prove|argue|establish|confirm|verify|note)(?: that)?[,:]?\s+",
        r"(?i)^(?:this|the) (?:paper|work|study|article) (?:shows|demonstrates|finds|reports|proves|argues) that\s+",
        // In the present only: "It has been argued that …" is often what the paper disputes.
        r"(?i)^it is (?:also |further |here )?(?:shown|found|demonstrated|observed|noted|remarked|proved|proven|confirmed|verified) that\s+",
        // A lead-in that announces findings rather than stating one: "Several striking
        // findings: Even state-of-the-art models …", "Our key results are: …".
        r"(?i)^(?:(?:several|some|two|three|four|five|our|the|these|key|main|major|important|striking|surprising|notable|interesting|central|additional|further) )*(?:findings|results|observations|insights|lessons|takeaways|highlights)(?: (?:include|are|were))?\s*:\s+",
        // An item of a list the sentence was: "(1) Themis is effective …", "i) Delaunay …".
        r"^\(?(?:i{1,3}|iv|v|vi{1,3}|[1-9]|[a-h])\)\s+",
    ]
    .iter()
    .map(|p| Regex::new(p).expect("a valid pattern"))
    .collect()
});

/// The sentence without the words that announce it.
fn strip_openers(sentence: &str) -> String {
    let mut s = sentence.trim().to_string();
    // Openers stack: "Finally, in this paper, we show that …".
    for _ in 0..4 {
        let before = s.len();
        for re in OPENERS.iter() {
            let Some(found) = re.captures(&s) else {
                continue;
            };
            // The opener ends where the words it must leave (`keep`) start, else with it.
            let end = match found.name("keep") {
                Some(kept) => kept.start(),
                None => found.get(0).map_or(0, |m| m.end()),
            };
            // "We report on our efforts to …", "We report here on …": what the paper is,
            // which without its verb is a phrase ("On our efforts to …").
            let frame = s[..end].trim_end();
            let opens = |w: &str| {
                s[end..]
                    .get(..w.len())
                    .is_some_and(|r| r.eq_ignore_ascii_case(w))
            };
            if frame
                .get(frame.len().saturating_sub("report".len())..)
                .is_some_and(|w| w.eq_ignore_ascii_case("report"))
                && (opens("on ") || opens("here "))
            {
                continue;
            }
            if end < s.len() {
                s = s[end..].to_string();
            }
        }
        if s.len() == before {
            break;
        }
    }
    // "We then show", "We also present": the word after the subject that points back goes
    // too. Not before a noun's determiner, where it may be the verb ("we further this").
    if let Some(found) = TIE_AFTER_WE.captures(&s)
        && found.name("noun").is_none()
        && let (Some(we), Some(tie)) = (found.name("we"), found.get(0))
    {
        s = format!("{} {}", we.as_str(), &s[tie.end()..]);
    }
    let s = s.trim_end_matches(['.', ' ']);
    capitalize(s)
}

static TIE_AFTER_WE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?P<we>we) (?:then|also|further|additionally|next|subsequently|moreover|finally) (?P<noun>(?:the|this|these|that|those|a|an|our|its|their) )?")
        .expect("a valid pattern")
});

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        // "we", "our" and lower-case words start a sentence again; "mRNA", "eBPF" stay.
        Some(c) if c.is_lowercase() && !chars.clone().next().is_some_and(char::is_uppercase) => {
            c.to_uppercase().chain(chars).collect()
        }
        Some(c) => std::iter::once(c).chain(chars).collect(),
        None => String::new(),
    }
}

mod clauses;
mod subject;

#[cfg(test)]
mod headline_tests;
#[cfg(test)]
mod tests;
