//! What a host's limits are measured against: the built site's bytes, files, largest file
//! and fullest folder, from the build manifest's list of files (no second walk of the site).

use crate::manifest::Files;

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

/// `folder` in place of `fullest` when it holds more.
fn keep_fuller<'a>(fullest: &mut Option<(&'a str, usize)>, folder: (&'a str, usize)) {
    if fullest.is_none_or(|(_, most)| folder.1 > most) {
        *fullest = Some(folder);
    }
}

impl SiteSize {
    pub fn of(files: &Files) -> SiteSize {
        let mut size = SiteSize {
            files: files.len(),
            ..SiteSize::default()
        };
        let mut largest: Option<(&str, u64)> = None;
        let mut fullest: Option<(&str, usize)> = None;
        // The list is sorted by path, so the files below a folder come together: one pass
        // with the folders of the current path on a stack, each with the files and folders
        // seen directly in it, where a map of every folder took 30 ms at 100,000 papers.
        let mut open: Vec<(&str, usize)> = vec![("", 0)];
        for (rel, _, bytes) in files.entries() {
            size.bytes += bytes;
            if largest.is_none_or(|(_, most)| bytes > most) {
                largest = Some((rel, bytes));
            }
            while open.len() > 1 {
                let folder = open.last().expect("the top folder stays").0;
                if rel.starts_with(folder) && rel.as_bytes().get(folder.len()) == Some(&b'/') {
                    break;
                }
                keep_fuller(&mut fullest, open.pop().expect("more than one"));
            }
            let mut from = match open.last() {
                Some((folder, _)) if !folder.is_empty() => folder.len() + 1,
                _ => 0,
            };
            while let Some(slash) = rel[from..].find('/') {
                open.last_mut().expect("the top folder stays").1 += 1;
                open.push((&rel[..from + slash], 0));
                from += slash + 1;
            }
            open.last_mut().expect("the top folder stays").1 += 1;
        }
        while let Some(folder) = open.pop() {
            keep_fuller(&mut fullest, folder);
        }
        size.largest = largest.map(|(rel, bytes)| (rel.to_string(), bytes));
        size.fullest_folder = fullest
            .filter(|(_, n)| *n > 0)
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
        // A folder whose name runs on in a sibling's ("papers/a-b" sorts before
        // "papers/a/") is still one folder.
        let mut odd = all.clone();
        odd.extend([("papers/a-b/index.html", 10, 1), ("papers/a/x.json", 11, 1)]);
        odd.sort_unstable();
        let size = SiteSize::of(&Files::from_sorted(odd.iter().copied()));
        assert_eq!(size.fullest_folder, Some(("papers".to_string(), 6)));
        assert_eq!(SiteSize::of(&Files::default()), SiteSize::default());
    }
}
