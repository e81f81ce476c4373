//! arXiv's category taxonomy, shipped with the tool (`taxonomy.tsv`, from arXiv's own
//! definitions): what tells an arXiv category (`cs.DC`) from the MSC or ACM subject classes
//! arXiv lists beside it (`35`, `68T05`, `I.2.7`) and from a journal's subject, and what a
//! category page says of it.

use std::collections::HashMap;
use std::sync::LazyLock;

#[derive(Debug, PartialEq, Eq)]
pub struct Entry {
    pub code: &'static str,
    /// "Distributed, Parallel, and Cluster Computing".
    pub name: &'static str,
    /// "Computer Science".
    pub group: &'static str,
    /// Still open to submissions (retired ones, like `cmp-lg`, stay valid for old papers).
    pub active: bool,
    /// arXiv's description of what it covers; empty for some retired ones.
    pub description: &'static str,
}

static TABLE: LazyLock<HashMap<&'static str, Entry>> = LazyLock::new(|| {
    include_str!("taxonomy.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split('\t');
            let mut next = || f.next().unwrap_or("");
            let e = Entry {
                code: next(),
                name: next(),
                group: next(),
                active: next() == "1",
                description: next(),
            };
            (e.code, e)
        })
        .collect()
});

/// The category, if `code` is one of arXiv's (exactly, as arXiv writes it).
pub fn lookup(code: &str) -> Option<&'static Entry> {
    TABLE.get(code)
}

/// The category an OAI `oai_dc` subject names: arXiv writes "Quantum Physics",
/// "High Energy Physics - Theory" (an archive's whole name) or "Archive - Category name"
/// ("Computer Science - Machine Learning", "Condensed Matter - Materials Science").
pub fn by_subject(subject: &str) -> Option<&'static str> {
    let subject = subject.trim();
    fn named(name: &str) -> impl Iterator<Item = &'static Entry> + '_ {
        TABLE.values().filter(move |e| e.name == name)
    }
    // Retired archives share names with their successors ("Astrophysics"): prefer the
    // open one, then the shortest code, so the answer never depends on the map's order.
    let pick = |mut v: Vec<&'static Entry>| {
        v.sort_by_key(|e| (!e.active, e.code.len(), e.code));
        v.first().map(|e| e.code)
    };
    let whole: Vec<&'static Entry> = named(subject).collect();
    if !whole.is_empty() {
        return pick(whole);
    }
    let (archive, name) = subject.split_once(" - ")?;
    let candidates: Vec<&'static Entry> = named(name.trim()).collect();
    if candidates.len() <= 1 {
        return candidates.first().map(|e| e.code);
    }
    // "Statistics - Machine Learning" against "Computer Science - Machine Learning": the
    // group, or the archive ("Condensed Matter" is cond-mat), tells them apart.
    let archive_codes: Vec<&str> = named(archive.trim()).map(|e| e.code).collect();
    let fitting: Vec<&'static Entry> = candidates
        .iter()
        .copied()
        .filter(|e| {
            e.group == archive.trim()
                || archive_codes
                    .iter()
                    .any(|a| e.code.strip_prefix(a).is_some_and(|r| r.starts_with('.')))
        })
        .collect();
    pick(if fitting.is_empty() {
        candidates
    } else {
        fitting
    })
}

/// Splits the terms an arXiv source lists as categories into arXiv categories and the
/// subject classes (MSC, ACM) arXiv lists among them, each in its order.
pub fn split_terms(terms: Vec<String>) -> (Vec<String>, Vec<String>) {
    terms.into_iter().partition(|t| lookup(t).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_and_classes_are_told_apart() {
        let dc = lookup("cs.DC").unwrap();
        assert_eq!(dc.name, "Distributed, Parallel, and Cluster Computing");
        assert_eq!(dc.group, "Computer Science");
        assert!(dc.active && dc.description.starts_with("Covers fault-tolerance"));
        assert!(
            lookup("astro-ph").is_some_and(|e| !e.active),
            "old papers' archive"
        );
        assert!(lookup("math.AP").is_some() && lookup("q-bio.QM").is_some());
        for not in ["35", "68T05", "I.2.7", "cs.dc", "Bioinformatics", ""] {
            assert!(lookup(not).is_none(), "{not}");
        }
        let (cats, classes) = split_terms(vec!["math.AP".into(), "35".into(), "cs.LG".into()]);
        assert_eq!(
            (cats, classes),
            (vec!["math.AP".into(), "cs.LG".into()], vec!["35".into()])
        );
        assert!(TABLE.len() > 150);
    }

    #[test]
    fn oai_dc_subjects_name_their_category() {
        for (subject, code) in [
            ("Quantum Physics", "quant-ph"),
            ("High Energy Physics - Theory", "hep-th"),
            ("Computer Science - Machine Learning", "cs.LG"),
            ("Statistics - Machine Learning", "stat.ML"),
            ("Mathematics - Information Theory", "math.IT"),
            ("Computer Science - Information Theory", "cs.IT"),
            ("Condensed Matter - Materials Science", "cond-mat.mtrl-sci"),
            (
                "Astrophysics - Cosmology and Nongalactic Astrophysics",
                "astro-ph.CO",
            ),
            ("Physics - Optics", "physics.optics"),
        ] {
            assert_eq!(by_subject(subject), Some(code), "{subject}");
        }
        assert_eq!(by_subject("40-01, 65B10"), None);
    }
}
