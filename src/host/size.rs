//! What a host's limits are measured against: the built site's bytes, files, largest file
//! and fullest folder, from the build manifest's list of files (no second walk of the site).

use crate::manifest::Files;
use rustc_hash::{FxHashMap, FxHashSet};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteSize {
    pub bytes: u64,
    pub files: usize,
    /// The largest file's site-relative path and size.
    pub largest: Option<(String, u64)>,
    /// The folder with the most files and folders directly in it (`""` for the site's
    /// top folder), and how many.
    pub fullest_folder: Option<(String, usize)>,
}

/// The folder a site-relative path is in: `""` at the top.
fn parent(rel: &str) -> &str {
    rel.rfind('/').map_or("", |i| &rel[..i])
}

impl SiteSize {
    pub fn of(files: &Files) -> SiteSize {
        let mut size = SiteSize {
            files: files.len(),
            ..SiteSize::default()
        };
        let mut largest: Option<(&str, u64)> = None;
        // Entries directly in each folder: its files, and each folder below it once.
        let mut entries: FxHashMap<&str, usize> = FxHashMap::default();
        let mut seen: FxHashSet<&str> = FxHashSet::default();
        for (rel, _, bytes) in files.entries() {
            size.bytes += bytes;
            if largest.is_none_or(|(_, most)| bytes > most) {
                largest = Some((rel, bytes));
            }
            let mut folder = parent(rel);
            *entries.entry(folder).or_default() += 1;
            // A folder seen before was counted in its parent, as were those above it.
            while !folder.is_empty() && seen.insert(folder) {
                let up = parent(folder);
                *entries.entry(up).or_default() += 1;
                folder = up;
            }
        }
        size.largest = largest.map(|(rel, bytes)| (rel.to_string(), bytes));
        size.fullest_folder = entries
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
            .map(|(folder, n)| (folder.to_string(), n));
        size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_bytes_files_the_largest_file_and_the_fullest_folder() {
        let list = [
            ("404.html", 1, 10),
            ("index.html", 2, 300),
            ("papers/a/index.html", 3, 50),
            ("papers/b/index.html", 4, 60),
            ("papers/c/index.html", 5, 70),
            ("search/lex/ab.json", 6, 5),
            ("search/meta.json", 7, 5),
        ];
        let size = SiteSize::of(&Files::from_sorted(list.iter().copied()));
        assert_eq!(size.bytes, 500);
        assert_eq!(size.files, 7);
        assert_eq!(size.largest, Some(("index.html".to_string(), 300)));
        // The top folder holds 404.html, index.html, papers/ and search/; papers/ holds
        // three folders.
        assert_eq!(size.fullest_folder, Some((String::new(), 4)));
        let more = [("papers/d/index.html", 8, 1), ("papers/e/index.html", 9, 1)];
        let mut all: Vec<_> = list.iter().chain(&more).copied().collect();
        all.sort_unstable();
        let size = SiteSize::of(&Files::from_sorted(all.iter().copied()));
        assert_eq!(size.fullest_folder, Some(("papers".to_string(), 5)));
        assert_eq!(SiteSize::of(&Files::default()), SiteSize::default());
    }
}
