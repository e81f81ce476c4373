//! Journal feeds (Nature's subject feeds among them) shorten a byline to its first author:
//! `<name>A. K. L. Wezenaar et al.</name>`. The content file keeps what the feed said; the
//! person is "A. K. L. Wezenaar", and "et al." says there are more. Author pages, citation
//! tags, BibTeX and figure credits name the person.

/// The person a byline entry names, and whether it ends in "et al." (more authors, not
/// named). A name that is nothing but "et al." stays as it is.
pub fn person(name: &str) -> (&str, bool) {
    let trimmed = name.trim_end();
    let without_dot = trimmed.strip_suffix('.').unwrap_or(trimmed);
    let Some(head) = strip_suffix_ignore_case(without_dot, "et al") else {
        return (name, false);
    };
    // "et al" must be a word of its own: not the end of "Beet al".
    if !head.ends_with(|c: char| c.is_whitespace() || c == ',') {
        return (name, false);
    }
    let person = head.trim_end_matches(|c: char| c.is_whitespace() || c == ',');
    if person.is_empty() {
        (name, false)
    } else {
        (person, true)
    }
}

fn strip_suffix_ignore_case<'a>(s: &'a str, suffix: &str) -> Option<&'a str> {
    let cut = s.len().checked_sub(suffix.len())?;
    (s.is_char_boundary(cut) && s[cut..].eq_ignore_ascii_case(suffix)).then(|| &s[..cut])
}

/// The persons of a byline, and whether it says there are more.
pub fn persons(authors: &[String]) -> (Vec<&str>, bool) {
    let mut more = false;
    let list = authors
        .iter()
        .map(|a| {
            let (p, m) = person(a);
            more |= m;
            p
        })
        .collect();
    (list, more)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn et_al_is_taken_off_the_person_and_only_a_word_of_its_own() {
        assert_eq!(
            person("A. K. L. Wezenaar et al."),
            ("A. K. L. Wezenaar", true)
        );
        assert_eq!(person("Jelena Đokić et al"), ("Jelena Đokić", true));
        assert_eq!(person("Can Li, et al. "), ("Can Li", true));
        assert_eq!(person("Can Li ET AL."), ("Can Li", true));
        assert_eq!(person("Ada Lovelace"), ("Ada Lovelace", false));
        assert_eq!(person("Jo Beet al"), ("Jo Beet al", false));
        assert_eq!(person("et al."), ("et al.", false));
        assert_eq!(person("Ünal"), ("Ünal", false));
    }
}
