//! A headline whose subject stands in for what the paper presents ("It reduces power
//! cycles by up to 60%", "Our approach outperforms …", "The proposed method …") leaves a
//! reader of the card asking what "it" is. Where the paper names it (the title's name
//! before a colon, "CheckMate: …", or "This paper presents CheckMate, …") the name
//! speaks; where it names nothing the sentence is no headline.

use regex::Regex;
use std::sync::LazyLock;

/// The name the paper gives what it presents: its title's part before a colon where that
/// reads as a name ("NAVIS: …", "LOOP: …"), else the name right after "we present",
/// "this paper introduces" and the like in the abstract ("This paper presents CheckMate,
/// an automated framework"), or after "called" ("a framework called FooNet").
pub(super) fn presented_name(title: &str, sentences: &[String]) -> Option<String> {
    if let Some((head, _)) = title.split_once(": ") {
        let head = head.trim();
        let capitalized = head
            .split_whitespace()
            .all(|w| w.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit()));
        if head.split_whitespace().count() <= 3 && capitalized && reads_as_a_name(head) {
            return Some(head.to_string());
        }
    }
    sentences.iter().find_map(|s| {
        PRESENTS
            .captures_iter(s)
            .filter_map(|c| c.name("name"))
            .map(|m| m.as_str().trim_end_matches(['-', ' ']).to_string())
            .find(|name| reads_as_a_name(name))
            .or_else(|| {
                // "We propose a new simple network architecture, the Transformer, based
                // …": a capital mid-sentence names it.
                APPOSITIVE
                    .captures(s)
                    .and_then(|c| c.name("name"))
                    .map(|m| m.as_str().to_string())
            })
    })
}

/// Whether words read as a name rather than as words: a capital or digit inside a word
/// ("CheckMate", "GPT-4o", "vLLM") or a word in capitals ("NAVIS").
fn reads_as_a_name(text: &str) -> bool {
    !text.is_empty()
        && !text.contains('$')
        && text.split([' ', '-']).any(|w| {
            let inner = w
                .chars()
                .skip(1)
                .any(|c| c.is_uppercase() || c.is_ascii_digit());
            let capitals = w.chars().filter(|c| c.is_alphabetic()).count() >= 2
                && w.chars().all(|c| !c.is_lowercase());
            inner || capitals
        })
}

/// "we present X,", "this paper introduces X (", "our work proposes X:", "called X".
static PRESENTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:\b(?:[Ww]e|[Tt]his (?:paper|work|study|article|letter)|[Oo]ur (?:paper|work)) (?:\w+ly )?(?:present|propose|introduce|develop|design|build|describe|release)(?:s|d)? (?:here )?|\b(?:called|named|dubbed|termed) )(?P<name>[A-Za-z][\w.+-]*(?: [A-Z0-9][\w.+-]*){0,2})(?:,|:| \(| -| —| –|\.? |$)")
        .expect("a valid pattern")
});

/// "we propose a new … architecture, the Transformer,": what the paper presents, then its
/// name set beside it.
static APPOSITIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:[Ww]e|[Tt]his (?:paper|work|study|article)) (?:\w+ly )?(?:present|propose|introduce|develop|design|build|describe|release)(?:s|d)? (?:a|an) [^,.;:]{1,80}, (?P<name>(?:the )?[A-Z][\w-]*(?: [A-Z][\w-]*){0,2})(?:,|\.|$| \()")
        .expect("a valid pattern")
});

/// What a stand-in subject opens a sentence or clause with: "It", "Its", "This work",
/// "Our approach", "The proposed method" (and not "It is known that", whose "it" stands
/// for what follows).
static STAND_IN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|, )(?P<subject>(?i:it|its|(?:this|our|the proposed|the presented|the resulting|the new) (?:paper|work|study|article|approach|method|methodology|framework|system|tool|technique|design|model|algorithm|solution|scheme|architecture|pipeline|prototype|implementation|library|platform|protocol|strategy)))(?P<after> \w+)")
        .expect("a valid pattern")
});

/// A stand-in for the paper itself rather than for what it presents.
static PAPER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(?:paper|work|study|article)$").expect("a valid pattern"));

/// What follows an "it" that stands for a clause after it ("It is known that …", "it
/// remains open whether …"): no stand-in for a thing the paper made.
static EXPLETIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^ (?:is|was|has been|remains|seems|appears|turns|follows|becomes|can be|should be|must be)\b")
        .expect("a valid pattern")
});

/// What a stand-in subject does in a sentence.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Subject {
    /// None: the sentence as it was.
    Own(String),
    /// The sentence with the paper's name for what it presents in the stand-in's place.
    Named(String),
    /// A stand-in the paper gives no name for: no headline of this sentence.
    Unnamed,
}

/// The sentence with its first stand-in subject, at its start or after a comma ("Tested
/// across six IoT applications, it reduces …"), replaced by `name`. A sentence that names
/// `name` before the stand-in, or after one for the paper ("This paper presents
/// CheckMate, …"), keeps its words.
pub(super) fn named_subject(sentence: &str, name: Option<&str>) -> Subject {
    let Some(found) = STAND_IN.captures(sentence) else {
        return Subject::Own(sentence.to_string());
    };
    let (Some(subject), Some(after)) = (found.name("subject"), found.name("after")) else {
        return Subject::Own(sentence.to_string());
    };
    let it = subject.as_str().eq_ignore_ascii_case("it");
    if it && EXPLETIVE.is_match(&sentence[after.start()..]) {
        return Subject::Own(sentence.to_string());
    }
    let Some(name) = name else {
        return Subject::Unnamed;
    };
    // The name before the stand-in is what it stands for ("GraphFlash …, and it …"); after
    // a stand-in for the paper, what the paper presents ("This paper presents CheckMate").
    let named_at = sentence.find(name);
    let the_paper = PAPER.is_match(subject.as_str());
    if named_at.is_some_and(|at| at < subject.start() || the_paper) {
        return Subject::Own(sentence.to_string());
    }
    let mut replacement = if subject.as_str().eq_ignore_ascii_case("its") {
        format!("{name}'s")
    } else {
        name.to_string()
    };
    // "the Transformer" opening the sentence.
    if subject.start() == 0 {
        replacement = super::capitalize(&replacement);
    }
    Subject::Named(format!(
        "{}{replacement}{}",
        &sentence[..subject.start()],
        &sentence[subject.end()..]
    ))
}

/// What opening with a word that points back costs a sentence: more than a result's
/// number gains it (3), so that a sentence naming what it speaks of wins over one as
/// strong that does not.
pub(super) const POINTS_BACK_COST: f64 = 4.0;

static POINTS_BACK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:it|its|they|their|them|these|those|such|this|that|he|she|his|her)\b")
        .expect("a valid pattern")
});
/// Openings of those words that point at nothing before them: the paper itself ("This
/// paper …", "This work …", "It proposes …"), or "it" before what it stands for ("It is
/// known that …").
static POINTS_AT_THE_PAPER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:this|that) (?:(?:short|position|survey|review|tutorial|white) )?(?:paper|work|study|article|thesis|dissertation|report|survey|review|tutorial|letter|note|chapter|manuscript|document|contribution|research|project|book|essay|talk|extended abstract)\b|^it (?:is|was|has been|remains|turns out|seems|appears)\b|^it (?:propose|present|introduce|develop|describe|stud|investigat|explor|examin|report|review|survey|discuss|address|focus|consider|provide|offer)\w*")
        .expect("a valid pattern")
});

/// Whether a line made from a sentence starts with a word that stands for something an
/// earlier sentence named.
pub(super) fn points_back(sentence: &str) -> bool {
    POINTS_BACK.is_match(sentence) && !POINTS_AT_THE_PAPER.is_match(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_is_the_titles_before_its_colon_or_the_one_the_abstract_presents() {
        let s = |t: &str| vec![t.to_string()];
        assert_eq!(
            presented_name("NAVIS: Fast vector inserts", &[]).as_deref(),
            Some("NAVIS")
        );
        assert_eq!(
            presented_name(
                "LLM-Powered Approximate Intermittent Computing",
                &s("This paper presents CheckMate, an automated framework leveraging LLMs.")
            )
            .as_deref(),
            Some("CheckMate")
        );
        assert_eq!(
            presented_name(
                "On graphs",
                &s("We introduce a tool called GraphFoo to do it.")
            )
            .as_deref(),
            Some("GraphFoo")
        );
        assert_eq!(
            presented_name(
                "Attention Is All You Need",
                &s("We propose a new simple network architecture, the Transformer, based solely on attention mechanisms.")
            )
            .as_deref(),
            Some("the Transformer")
        );
        // Words, not a name.
        assert_eq!(
            presented_name(
                "Sustainable AI training: a survey",
                &s("We present a survey.")
            ),
            None
        );
    }

    #[test]
    fn a_stand_in_subject_gives_way_to_the_name() {
        assert_eq!(
            named_subject(
                "Tested across six IoT applications, it reduces power cycles by up to 60%",
                Some("CheckMate")
            ),
            Subject::Named(
                "Tested across six IoT applications, CheckMate reduces power cycles by up to 60%"
                    .into()
            )
        );
        assert_eq!(
            named_subject("Our approach cuts latency by 40%", Some("Foo")),
            Subject::Named("Foo cuts latency by 40%".into())
        );
        assert_eq!(
            named_subject("This work explores optimization methods", None),
            Subject::Unnamed
        );
        assert_eq!(
            named_subject("It is known that graphs are sparse", None),
            Subject::Own("It is known that graphs are sparse".into())
        );
        assert_eq!(
            named_subject(
                "This paper presents CheckMate, a framework",
                Some("CheckMate")
            ),
            Subject::Own("This paper presents CheckMate, a framework".into())
        );
    }
}
