//! URL-safe names for authors and categories, bounded in length.

use super::taxonomy;

/// A URL-safe author name: `Tom Götz` -> `tom-gotz`.
pub fn author_slug(name: &str) -> String {
    let s = slug::slugify(name);
    if s.is_empty() {
        "anonymous".into()
    } else {
        bounded_slug(s, name)
    }
}

/// Longest slug kept whole: well inside the 255 bytes a file name may have, and a URL
/// segment a reader can still copy.
const MAX_SLUG: usize = 80;

/// A slug cut to `MAX_SLUG` bytes, with a hash of the full name after the cut so that two
/// long names that share their first bytes keep apart.
fn bounded_slug(slug: String, name: &str) -> String {
    if slug.len() <= MAX_SLUG {
        return slug;
    }
    let mut cut = MAX_SLUG - 17;
    while !slug.is_char_boundary(cut) {
        cut -= 1;
    }
    let hash = xxhash_rust::xxh3::xxh3_64(name.as_bytes());
    format!("{}-{hash:016x}", slug[..cut].trim_end_matches(['-', '.']))
}

/// A URL-safe category name: an arXiv code stays as arXiv writes it (`cs.DC`); any other
/// name is lower-cased (`Bioinformatics : nature.com subject feeds` ->
/// `bioinformatics-nature.com-subject-feeds`).
pub fn category_slug(name: &str) -> String {
    let lowered;
    let name = if taxonomy::lookup(name).is_some() {
        name
    } else {
        lowered = name.to_lowercase();
        &lowered
    };
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    // "a : b" gives one dash, not three.
    let s = s
        .split('-')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let s = s.trim_matches(['-', '.']).replace("..", ".");
    if s.is_empty() {
        "uncategorized".into()
    } else if RESERVED_LIST_SLUGS.contains(&s.as_str()) {
        format!("{s}-category")
    } else {
        bounded_slug(s, name)
    }
}

/// The slugs of a week's own lists, beside its categories' (`/digests/<week>/<slug>/`):
/// the editor's picks, the new versions, and the small groups folded into one.
pub const PICKS_SLUG: &str = "picks";
pub const UPDATED_SLUG: &str = "updated";
pub const OTHER_SLUG: &str = "other";

/// Those, and the numbered pages of a list: a journal subject called "Updated" must not
/// take the new versions' page.
const RESERVED_LIST_SLUGS: [&str; 4] = [PICKS_SLUG, UPDATED_SLUG, OTHER_SLUG, "page"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_category_named_like_a_weeks_own_list_gets_a_slug_of_its_own() {
        for name in ["Picks", "updated", "Other", "page"] {
            let slug = category_slug(name);
            assert_eq!(slug, format!("{}-category", name.to_lowercase()));
        }
        assert_eq!(category_slug("Updates"), "updates");
    }

    #[test]
    fn long_names_get_bounded_slugs_that_stay_apart() {
        let a = format!("{}A", "Q".repeat(300));
        let b = format!("{}B", "Q".repeat(300));
        for slug in [category_slug(&a), author_slug(&a)] {
            assert!(slug.len() <= MAX_SLUG, "{slug}");
        }
        assert_ne!(category_slug(&a), category_slug(&b));
        assert_ne!(author_slug(&a), author_slug(&b));
        assert_eq!(category_slug(&a), category_slug(&a));
        assert_eq!(category_slug("cs.DC"), "cs.DC");
        assert_eq!(
            category_slug("Bioinformatics : nature.com subject feeds"),
            "bioinformatics-nature.com-subject-feeds"
        );
        assert_eq!(author_slug("Tom Götz"), "tom-gotz");
    }
}
