//! What a word may be: its parts of speech as WordNet 3.0 tags them (`lexicon.txt`, which
//! `tools/wordnet_lexicon.py` writes, with how often each was used in WordNet's
//! sense-tagged texts), the closed classes WordNet leaves out (determiners, prepositions,
//! pronouns, auxiliaries), and the regular endings of English (-s, -ed, -ing) back to the
//! lemma WordNet lists. It stands in for a tagger's lexicon: what a word is in a given
//! sentence is `statement`'s to judge from its neighbours.

use rustc_hash::FxHashMap;
use std::sync::LazyLock;

/// How often a lemma was tagged as each part of speech, plus one where WordNet has it at
/// all (so that 0 is "never").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Parts {
    noun: u32,
    verb: u32,
    adj: u32,
    adv: u32,
}

struct Lexicon {
    words: FxHashMap<&'static str, Parts>,
    /// Irregular forms: "found" is a form of the verb "find", "better" of "good".
    irregular: FxHashMap<&'static str, (&'static str, char)>,
}

static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| {
    let mut words = FxHashMap::default();
    let mut irregular = FxHashMap::default();
    for line in include_str!("lexicon.txt").lines() {
        if line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(' ');
        let word = fields.next().unwrap_or("");
        if let Some(form) = word.strip_prefix('>') {
            if let (Some(lemma), Some(pos)) = (fields.next(), fields.next()) {
                irregular.insert(form, (lemma, pos.chars().next().unwrap_or('v')));
            }
            continue;
        }
        let mut parts = Parts::default();
        for field in fields {
            let count = field[1..].parse::<u32>().unwrap_or(0) + 1;
            match field.as_bytes().first() {
                Some(b'n') => parts.noun = count,
                Some(b'v') => parts.verb = count,
                Some(b'a') => parts.adj = count,
                Some(b'r') => parts.adv = count,
                _ => {}
            }
        }
        words.insert(word, parts);
    }
    Lexicon { words, irregular }
});

/// Words of the closed classes, which WordNet does not list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Closed {
    /// "the", "a", "this", "their": a noun is still to come.
    Determiner,
    /// "of", "in", "with": its object is still to come.
    Preposition,
    /// "and", "or", "but".
    Conjunction,
    /// "that", "how", "whether", "while": a clause with a verb of its own is to come.
    Subordinator,
    /// "we", "it", "they": a subject.
    Pronoun,
    /// "is", "has", "can": a finite verb whatever its subject.
    Finite,
    /// "be", "been", "being", "to": a verb phrase, not a finite one.
    NonFinite,
}

fn closed(word: &str) -> Option<Closed> {
    use Closed::*;
    Some(match word {
        "a" | "an" | "the" | "these" | "those" | "each" | "every" | "some" | "any" | "no"
        | "both" | "either" | "neither" | "another" | "its" | "their" | "our" | "my" | "your"
        | "his" | "her" | "several" | "many" | "few" | "most" | "much" | "all" | "such" => {
            Determiner
        }
        "of" | "in" | "on" | "at" | "for" | "with" | "by" | "from" | "into" | "onto" | "over"
        | "under" | "between" | "across" | "among" | "through" | "via" | "within" | "without"
        | "against" | "about" | "after" | "before" | "during" | "per" | "than" | "upon"
        | "toward" | "towards" | "beyond" | "along" | "around" | "behind" | "below" | "above"
        | "beneath" | "despite" | "like" | "unlike" | "near" | "since" | "until" | "versus"
        | "vs" | "amid" | "throughout" | "as" | "up" => Preposition,
        // And the adverbs that join a clause to another: "…, however".
        "and" | "or" | "but" | "nor" | "yet" | "so" | "plus" | "however" | "thus" | "hence"
        | "therefore" => Conjunction,
        "that" | "which" | "who" | "whom" | "whose" | "where" | "when" | "while" | "whereas"
        | "whether" | "if" | "because" | "although" | "though" | "unless" | "how" | "why"
        | "what" | "once" => Subordinator,
        "we" | "i" | "you" | "they" | "it" | "he" | "she" | "this" | "one" => Pronoun,
        "is" | "are" | "was" | "were" | "am" | "has" | "have" | "had" | "does" | "do" | "did"
        | "can" | "could" | "may" | "might" | "will" | "would" | "should" | "must" | "shall"
        | "cannot" => Finite,
        "be" | "been" | "being" | "to" | "not" => NonFinite,
        _ => return None,
    })
}

/// What a word may be, as far as the word alone says.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Reading {
    pub closed: Option<Closed>,
    /// A name, an acronym or a symbol ("CheckMate", "LLMs", "$x$"): a noun.
    pub name: bool,
    /// A figure: "60%", "2.74x", "three".
    pub number: bool,
    /// May be a noun; `plural` where it ends as one.
    pub noun: bool,
    pub plural: bool,
    /// May be a verb in -s ("reduces"), the base form ("present"), the past or past
    /// participle ("achieved", "found") or the -ing form.
    pub verb_s: bool,
    pub verb_base: bool,
    pub verb_past: bool,
    pub verb_ing: bool,
    /// May be an adjective, an adverb.
    pub adj: bool,
    pub adv: bool,
    /// A verb is the word's most used reading (as against a noun: "reduces", not
    /// "results"); an adjective is (as against a noun: "heavy", not "signal").
    pub mostly_verb: bool,
    pub mostly_adj: bool,
    /// An adverb as often as anything else ("even", "only").
    pub mostly_adv: bool,
    /// A compound that ends in a participle ("fine-tuned", "LLM-based"): a modifier, whose
    /// preposition may follow it ("fine-tuned on").
    pub compound_participle: bool,
}

/// The reading of a word as written (case and all): a name where it has a capital past its
/// first letter or a digit, else as its lower-case form says.
pub(crate) fn reading(word: &str, starts_sentence: bool) -> Reading {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '$' && c != '%');
    if word.is_empty() {
        return Reading::default();
    }
    let lower = word.to_lowercase();
    // A possessive ("Dalang's condition") stands where a determiner does.
    if lower.ends_with("'s") || lower.ends_with("’s") {
        return Reading {
            closed: Some(Closed::Determiner),
            ..Default::default()
        };
    }
    if let Some(closed) = closed(&lower) {
        return Reading {
            closed: Some(closed),
            ..Default::default()
        };
    }
    let figure = word.starts_with(|c: char| c.is_ascii_digit())
        || matches!(
            lower.as_str(),
            "two" | "three" | "four" | "five" | "six" | "seven" | "eight" | "nine" | "ten"
        );
    if figure {
        return Reading {
            number: true,
            noun: true,
            ..Default::default()
        };
    }
    // A compound is what its last part is ("short-lived", "on-SSD"), but a participle at
    // its end makes a modifier ("LLM-based", "energy-aware").
    if let Some((_, last)) = word.rsplit_once('-')
        && last.len() > 1
        && last.chars().all(|c| c.is_ascii_lowercase())
    {
        let mut r = of_word(last);
        if r.verb_past || r.verb_ing || r.mostly_adj {
            return Reading {
                adj: true,
                mostly_adj: true,
                compound_participle: r.verb_past,
                ..Default::default()
            };
        }
        r.verb_s = false;
        r.verb_base = false;
        r.verb_past = false;
        r.mostly_verb = false;
        return r;
    }
    let capital_inside = word
        .chars()
        .skip(1)
        .any(|c| c.is_uppercase() || c.is_ascii_digit());
    let capital = word.starts_with(char::is_uppercase);
    // A capitalized first word WordNet does not know is a name too ("Dooly achieves …"
    // is no adverb in -ly); a word it does know is read as that word ("Recently", "Our").
    let unknown_first = capital && starts_sentence && !is_known(&lower);
    if word.contains('$') || capital_inside || (capital && !starts_sentence) || unknown_first {
        return Reading {
            name: true,
            noun: true,
            plural: word.ends_with('s'),
            ..Default::default()
        };
    }
    of_word(&lower)
}

/// The reading of a lower-case word from the lexicon and its ending.
fn of_word(w: &str) -> Reading {
    let lex = &*LEXICON;
    let mut r = Reading::default();
    let mut known = false;
    if let Some(p) = lex.words.get(w) {
        known = true;
        r.noun = p.noun > 0;
        r.verb_base = p.verb > 0;
        r.adj = p.adj > 0;
        r.adv = p.adv > 0;
        r.mostly_verb = p.verb > 0 && p.verb >= p.noun && p.verb >= p.adj;
        r.mostly_adj = p.adj > 0 && p.adj >= p.noun && p.adj >= p.verb;
        r.mostly_adv = p.adv > 0 && p.adv >= p.noun && p.adv >= p.adj && p.adv >= p.verb;
    }
    // "found" is a lemma too (to found a company), and the past of "find".
    if let Some(&(lemma, pos)) = lex.irregular.get(w) {
        match pos {
            // WordNet lists some -ing and -s forms as irregular too ("fitting").
            'v' if w.ends_with("ing") => r.verb_ing = true,
            'v' if w.ends_with('s') => r.verb_s = true,
            'v' => {
                r.verb_past = true;
                r.mostly_verb = true;
            }
            _ => {
                r.adj = true;
                r.mostly_adj = !r.noun;
            }
        }
        return with_lemma_noun(r, lemma, lex);
    }
    // The regular endings, back to a lemma WordNet lists.
    let lemma = |stems: &[String]| -> Option<Parts> {
        stems
            .iter()
            .filter(|s| s.len() > 1)
            .find_map(|s| lex.words.get(s.as_str()).copied())
    };
    if let Some(stem) = w.strip_suffix('s')
        && !w.ends_with("ss")
        && !w.ends_with("us")
        && !w.ends_with("is")
    {
        let stems = [
            stem.to_string(),
            w.strip_suffix("es").unwrap_or("").to_string(),
            w.strip_suffix("ies")
                .map(|s| format!("{s}y"))
                .unwrap_or_default(),
        ];
        match lemma(&stems) {
            Some(p) => {
                r.verb_s |= p.verb > 0;
                r.mostly_verb |= p.verb > 0 && p.verb >= p.noun;
                // A lemma WordNet lists only as a verb has no plural ("maintains").
                r.noun |= p.noun > 0 || p.verb == 0;
                r.plural = r.noun;
            }
            // Not a lemma WordNet lists as a verb or adjective: a plural noun.
            None if !known => {
                r.noun = true;
                r.plural = true;
                // "parallelizes", "tokenizes": a verb's ending WordNet may not list.
                r.verb_s = ["izes", "ises", "ates", "ifies"]
                    .iter()
                    .any(|e| w.ends_with(e));
                r.mostly_verb = r.verb_s;
            }
            None => {}
        }
        return r;
    }
    for (ending, past) in [("ed", true), ("ing", false)] {
        let Some(stem) = w.strip_suffix(ending) else {
            continue;
        };
        if stem.len() < 2 {
            continue;
        }
        let mut stems = vec![stem.to_string(), format!("{stem}e")];
        if past && let Some(s) = stem.strip_suffix('i') {
            stems.push(format!("{s}y"));
        }
        // "stopped", "running": the doubled consonant.
        let b = stem.as_bytes();
        if b.len() > 2 && b[b.len() - 1] == b[b.len() - 2] {
            stems.push(stem[..stem.len() - 1].to_string());
        }
        // Any stem that is a verb: "lived" is of "live", though "liv" is a word too.
        let verb = stems
            .iter()
            .any(|s| lex.words.get(s.as_str()).is_some_and(|p| p.verb > 0));
        // An unknown word in -ed or -ing is read as a verb's form ("tokenized").
        if verb || lemma(&stems).is_none() {
            if past {
                r.verb_past = true;
            } else {
                r.verb_ing = true;
            }
            r.mostly_verb = !(r.mostly_adj || known && r.noun && !r.verb_base);
        }
        if !known {
            // A gerund WordNet does not list is a noun too, unless its verb is one it
            // lists ("containing"); "training" and "setting" it lists as nouns.
            r.noun |= !past && !verb;
        }
        return r;
    }
    if !known {
        // An unknown word by its ending: an adverb, an adjective or, most often, a noun.
        if w.len() > 4 && w.ends_with("ly") {
            r.adv = true;
        } else if [
            "ous", "ive", "ical", "able", "ible", "ful", "less", "ic", "ary", "al",
        ]
        .iter()
        .any(|e| w.len() > e.len() + 2 && w.ends_with(e))
        {
            r.adj = true;
            r.mostly_adj = true;
        } else {
            r.noun = true;
        }
    }
    r
}

/// Whether WordNet lists the word, as it stands or as a regular form of a lemma it lists.
fn is_known(w: &str) -> bool {
    let lex = &*LEXICON;
    if lex.words.contains_key(w) || lex.irregular.contains_key(w) {
        return true;
    }
    [
        ("ies", "y"),
        ("es", ""),
        ("s", ""),
        ("ed", ""),
        ("ed", "e"),
        ("ing", ""),
        ("ing", "e"),
    ]
    .iter()
    .any(|(ending, add)| {
        w.strip_suffix(ending)
            .is_some_and(|stem| lex.words.contains_key(format!("{stem}{add}").as_str()))
    })
}

fn with_lemma_noun(mut r: Reading, lemma: &str, lex: &Lexicon) -> Reading {
    if lex.words.get(lemma).is_some_and(|p| p.noun > p.verb) {
        r.noun = true;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_as_wordnet_and_their_endings_say() {
        let heavy = reading("heavy", false);
        assert!(heavy.adj && heavy.mostly_adj, "{heavy:?}");
        let reduces = reading("reduces", false);
        assert!(reduces.verb_s && reduces.mostly_verb, "{reduces:?}");
        let results = reading("results", false);
        assert!(results.noun && results.plural, "{results:?}");
        assert!(reading("found", false).verb_past);
        assert!(reading("CheckMate", false).name);
        assert!(reading("LLM-based", false).mostly_adj);
        assert!(reading("short-lived", false).mostly_adj);
        assert!(reading("tokenizes", false).verb_s);
        assert_eq!(reading("the", false).closed, Some(Closed::Determiner));
        let reliability = reading("reliability", false);
        assert!(
            reliability.noun && !reliability.verb_base,
            "{reliability:?}"
        );
    }
}
