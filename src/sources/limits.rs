//! Bounds on what a feed may put into a paper. Feed text is untrusted: one item with a
//! 300-character category or a million authors must not make file names the disk refuses
//! or a million author pages. Real papers stay well inside these bounds.

use crate::paper::Paper;

/// arXiv's longest titles are under 300 characters.
pub const MAX_TITLE_CHARS: usize = 1_000;
/// arXiv caps abstracts at 1,920 characters; journals' run longer, never this long.
pub const MAX_ABSTRACT_CHARS: usize = 20_000;
/// Comment and journal reference.
pub const MAX_NOTE_CHARS: usize = 2_000;
pub const MAX_AUTHOR_CHARS: usize = 200;
/// The longest author lists on arXiv (ATLAS and CMS together) have about 5,200 names.
pub const MAX_AUTHORS: usize = 6_000;
/// arXiv codes are under 20 characters; journal subjects under 60.
pub const MAX_CATEGORY_CHARS: usize = 100;
pub const MAX_CATEGORIES: usize = 50;

/// Cuts the paper's fields to the bounds above; one line per field cut, naming the paper.
pub fn bound(p: &mut Paper) -> Vec<String> {
    let mut said = Vec::new();
    let id = p.id.to_string();
    let mut cut = |field: &str, text: &mut String, max: usize| {
        let chars = text.chars().count();
        if chars > max {
            *text = text
                .chars()
                .take(max)
                .collect::<String>()
                .trim_end()
                .to_string();
            said.push(format!(
                "{id}: {field} cut to {max} characters (it had {chars})"
            ));
        }
    };
    cut("title", &mut p.title, MAX_TITLE_CHARS);
    cut("abstract", &mut p.abstract_text, MAX_ABSTRACT_CHARS);
    cut("comment", &mut p.comment, MAX_NOTE_CHARS);
    cut("journal_ref", &mut p.journal_ref, MAX_NOTE_CHARS);
    if p.authors.len() > MAX_AUTHORS {
        said.push(format!(
            "{id}: kept the first {MAX_AUTHORS} of {} authors",
            p.authors.len()
        ));
        p.authors.truncate(MAX_AUTHORS);
    }
    if p.categories.len() > MAX_CATEGORIES {
        said.push(format!(
            "{id}: kept the first {MAX_CATEGORIES} of {} categories",
            p.categories.len()
        ));
        p.categories.truncate(MAX_CATEGORIES);
    }
    let long_names = p
        .authors
        .iter()
        .filter(|a| a.chars().count() > MAX_AUTHOR_CHARS)
        .count();
    let too_long = |c: &String| c.chars().count() > MAX_CATEGORY_CHARS;
    let long_categories = p.categories.iter().filter(|c| too_long(c)).count()
        + usize::from(too_long(&p.primary_category) && !p.categories.contains(&p.primary_category));
    // A name or category this long is not one: it is left out, not cut into a new one.
    if long_names > 0 {
        p.authors.retain(|a| a.chars().count() <= MAX_AUTHOR_CHARS);
        said.push(format!(
            "{id}: left out {long_names} author name(s) longer than {MAX_AUTHOR_CHARS} characters"
        ));
    }
    if long_categories > 0 {
        p.categories
            .retain(|c| c.chars().count() <= MAX_CATEGORY_CHARS);
        if p.primary_category.chars().count() > MAX_CATEGORY_CHARS {
            p.primary_category = p.categories.first().cloned().unwrap_or_default();
        }
        said.push(format!(
            "{id}: left out {long_categories} category name(s) longer than {MAX_CATEGORY_CHARS} characters"
        ));
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paper::{Links, PaperId};

    fn paper() -> Paper {
        let t = "2026-02-26T23:39:42Z".parse().unwrap();
        Paper {
            id: PaperId::parse("2602.23556").unwrap(),
            version: 1,
            title: "T".into(),
            authors: vec!["A".into()],
            published: t,
            updated: t,
            primary_category: "cs.DC".into(),
            categories: vec!["cs.DC".into()],
            abstract_text: String::new(),
            comment: String::new(),
            journal_ref: String::new(),
            doi: String::new(),
            source: "feed".into(),
            links: Links::default(),
            announced: None,
            announce_type: None,
            license: String::new(),
            classes: Vec::new(),
        }
    }

    #[test]
    fn a_real_paper_is_left_as_it_is() {
        let mut p = paper();
        assert!(bound(&mut p).is_empty());
        assert_eq!(p, paper());
    }

    #[test]
    fn hostile_fields_are_bounded_and_said() {
        let mut p = paper();
        p.title = "x".repeat(5_000);
        p.categories = vec!["Q".repeat(300), "cs.DC".into()];
        p.primary_category = "Q".repeat(300);
        p.authors = (0..1_000_000).map(|i| format!("Author {i}")).collect();
        p.authors.push("N".repeat(250));
        let said = bound(&mut p);
        assert_eq!(p.title.chars().count(), MAX_TITLE_CHARS);
        assert_eq!(p.categories, ["cs.DC"]);
        assert_eq!(p.primary_category, "cs.DC");
        assert_eq!(p.authors.len(), MAX_AUTHORS);
        assert_eq!(said.len(), 3, "{said:?}");
        assert!(said[0].starts_with("2602.23556: title cut to 1000 characters"));
    }
}
