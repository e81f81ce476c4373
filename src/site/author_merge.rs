//! One person, one author page: arXiv's announcement feeds give initials ("A. Del Maestro")
//! where the API gives the full name ("Adrian Del Maestro"). An abbreviated name joins a
//! full one when
//!
//! - the surname is the same and every initial is the first letter of the full name's
//!   given name in its place;
//! - the full name is the only one in the site it fits (a "J. Wang" that fits "Jun Wang"
//!   and "Jie Wang" stays as it is); and
//! - the two share a co-author (by surname and first initial), or publish in a category
//!   they share: two people of one surname and initials in one field of one site.
//!
//! The page is named by the full form. A name in no doubt is never touched.

use super::{Author, PaperEntry};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// A name's given names (as written) and its surname key (lower-case words).
fn parts(name: &str) -> Option<(Vec<&str>, String)> {
    if name.contains(" et al") || name.contains(',') {
        return None;
    }
    let words: Vec<&str> = name.split_whitespace().collect();
    // The surname: the words after the last given name. The given names run to the last
    // initial; a name without initials has one, its first word.
    let last_given = words.iter().rposition(|w| is_initial(w)).unwrap_or(0);
    if words.len() < 2 || last_given + 1 >= words.len() {
        return None;
    }
    let surname = words[last_given + 1..]
        .iter()
        .map(slug::slugify)
        .collect::<Vec<_>>()
        .join("-");
    (!surname.is_empty()).then(|| (words[..=last_given].to_vec(), surname))
}

/// "A.", "A", "J.-P."
fn is_initial(word: &str) -> bool {
    let letters: Vec<char> = word.chars().filter(|c| c.is_alphabetic()).collect();
    !letters.is_empty()
        && letters.len() <= 2
        && word.chars().next().is_some_and(char::is_uppercase)
        && (word.ends_with('.') || letters.len() == 1)
}

fn is_abbreviated(given: &[&str]) -> bool {
    given.iter().all(|w| is_initial(w))
}

/// Whether initials ("A.", "A. J.") fit given names ("Adrian", "Andrew James").
fn fits(initials: &[&str], given: &[&str]) -> bool {
    initials.len() <= given.len()
        && initials.iter().zip(given).all(|(i, g)| {
            let first = |s: &str| {
                s.chars()
                    .find(|c| c.is_alphabetic())
                    .map(|c| c.to_lowercase().to_string())
            };
            first(i).is_some() && first(i) == first(g)
        })
}

/// Co-author keys: surname and first initial, so "B. Kulchytskyy" is "Bohdan Kulchytskyy".
fn key(name: &str) -> Option<(String, char)> {
    let (given, surname) = parts(name)?;
    let initial = given.first()?.chars().find(|c| c.is_alphabetic())?;
    Some((surname, initial.to_lowercase().next()?))
}

/// Merges abbreviated authors into the full name they stand for, as the module says:
/// their papers move to it. Returns who went where; leaves the merged authors with no
/// papers, for the caller to drop.
pub fn merge(authors: &mut [Author], papers: &[PaperEntry]) -> Vec<(usize, usize)> {
    // Names are split on all cores: there is one per author page, most never abbreviated.
    let split: Vec<Option<(Vec<&str>, String)>> =
        authors.par_iter().map(|a| parts(&a.name)).collect();
    // Full names by surname key: the only candidates.
    let mut full: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    let mut abbreviated = Vec::new();
    for (ai, parts) in split.iter().enumerate() {
        let Some((given, surname)) = parts else {
            continue;
        };
        if is_abbreviated(given) {
            abbreviated.push((ai, given, surname));
        } else {
            full.entry(surname).or_default().push(ai);
        }
    }
    let co_authors = |ai: usize| -> FxHashSet<(String, char)> {
        authors[ai]
            .papers
            .iter()
            .flat_map(|&p| &papers[p].front.authors)
            .map(|n| super::byline::person(n).0)
            .filter(|n| *n != authors[ai].name)
            .filter_map(key)
            .collect()
    };
    let categories = |ai: usize| -> FxHashSet<&str> {
        authors[ai]
            .papers
            .iter()
            .flat_map(|&p| &papers[p].front.categories)
            .map(String::as_str)
            .collect()
    };
    let mut into: Vec<(usize, usize)> = Vec::new();
    for (ai, initials, surname) in abbreviated {
        let fitting: Vec<usize> = full
            .get(surname.as_str())
            .into_iter()
            .flatten()
            .copied()
            .filter(|&bi| {
                split[bi]
                    .as_ref()
                    .is_some_and(|(given, _)| fits(initials, given))
            })
            .collect();
        let [bi] = fitting[..] else { continue };
        let shared_co_author = !co_authors(ai).is_disjoint(&co_authors(bi));
        let shared_field = !categories(ai).is_disjoint(&categories(bi));
        if shared_co_author || shared_field {
            into.push((ai, bi));
        }
    }
    drop(split);
    for &(ai, bi) in &into {
        let moved = std::mem::take(&mut authors[ai].papers);
        authors[bi].papers.extend(moved);
    }
    into
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_given_names_and_surname() {
        assert_eq!(
            parts("A. Del Maestro"),
            Some((vec!["A."], "del-maestro".into()))
        );
        assert_eq!(
            parts("Adrian Del Maestro"),
            Some((vec!["Adrian"], "del-maestro".into()))
        );
        assert_eq!(
            parts("C. M. Herdman"),
            Some((vec!["C.", "M."], "herdman".into()))
        );
        assert_eq!(
            parts("Michel J. P. Gingras"),
            Some((vec!["Michel", "J.", "P."], "gingras".into()))
        );
        assert_eq!(parts("Microsoft"), None);
        assert_eq!(parts("A. K. L. Wezenaar et al."), None);
        assert!(fits(&["A."], &["Adrian"]) && fits(&["A.", "J."], &["Andrew", "James"]));
        assert!(!fits(&["B."], &["Adrian"]) && !fits(&["A.", "J."], &["Adrian"]));
    }
}
