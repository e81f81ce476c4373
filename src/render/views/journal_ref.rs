//! A paper's journal reference as the parts reference managers and Google Scholar read
//! (`citation_journal_title`, `citation_volume`, …): arXiv's `journal_ref` is free text
//! ("Phys. Rev. B 74, 024520 (2006)"), and the whole of it as the journal's name is what
//! Zotero then files.

use regex::Regex;
use std::sync::LazyLock;

/// Where a paper was published, as far as its reference says.
#[derive(Debug, PartialEq)]
pub enum Venue<'a> {
    Journal {
        name: &'a str,
        volume: &'a str,
        issue: &'a str,
        first_page: &'a str,
        last_page: &'a str,
    },
    Conference(&'a str),
}

impl Venue<'_> {
    /// The venue as Google Scholar's tags, those it has a value for.
    pub fn citation_tags(&self) -> Vec<(&'static str, &str)> {
        let tags = match *self {
            Venue::Journal {
                name,
                volume,
                issue,
                first_page,
                last_page,
            } => vec![
                ("citation_journal_title", name),
                ("citation_volume", volume),
                ("citation_issue", issue),
                ("citation_firstpage", first_page),
                ("citation_lastpage", last_page),
            ],
            Venue::Conference(name) => vec![("citation_conference_title", name)],
        };
        tags.into_iter().filter(|(_, v)| !v.is_empty()).collect()
    }

    /// The journal's name, for a journal.
    pub fn journal(&self) -> Option<&str> {
        match *self {
            Venue::Journal { name, .. } => Some(name),
            Venue::Conference(_) => None,
        }
    }

    /// BibTeX's entry type for a paper published here.
    pub fn bibtex_type(&self) -> &'static str {
        match self {
            Venue::Journal { .. } => "article",
            Venue::Conference(_) => "inproceedings",
        }
    }

    /// The venue's BibTeX fields, a line each, those it has a value for.
    pub fn bibtex_fields(&self) -> String {
        let pages;
        let fields = match *self {
            Venue::Journal {
                name,
                volume,
                issue,
                first_page,
                last_page,
            } => {
                pages = match (first_page, last_page) {
                    (first, "") => first.to_string(),
                    (first, last) => format!("{first}--{last}"),
                };
                vec![
                    ("journal", name),
                    ("volume", volume),
                    ("number", issue),
                    ("pages", pages.as_str()),
                ]
            }
            Venue::Conference(name) => vec![("booktitle", name)],
        };
        fields
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(field, v)| {
                format!(
                    "      {field}={{{}}},\n",
                    super::paper_page::bibtex_value(v)
                )
            })
            .collect()
    }
}

/// The year a reference gives: one in brackets ("J. Algebra 320 (2008), 1917-1935" 2008),
/// else the last that is not a page ("Lect.Notes Phys.562:195-212,2001" 2001, "Proceedings
/// of ICML 2019, pages 1999-2008" 2019): a page range or a page after a colon looks like a
/// year as often as not.
pub fn year(journal_ref: &str) -> Option<i32> {
    let text = the_papers(journal_ref);
    let is_page = |m: &regex::Match| {
        text[..m.start()].ends_with(['-', '–', ':']) || text[m.end()..].starts_with(['-', '–'])
    };
    let in_brackets =
        |m: &regex::Match| text[..m.start()].ends_with('(') || text[m.end()..].starts_with(')');
    let years: Vec<regex::Match> = YEAR.find_iter(text).filter(|m| !is_page(m)).collect();
    years
        .iter()
        .rfind(|m| in_brackets(m))
        .or(years.last())?
        .as_str()
        .parse()
        .ok()
}

/// The first of two references ("…; Erratum: …", a translation's): the paper's.
fn the_papers(journal_ref: &str) -> &str {
    journal_ref.split("; ").next().unwrap_or_default()
}

static YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(?:19|20)\d\d\b").expect("a valid pattern"));

/// "Phys. Rev. B 74, 024520 (2006)", "Phys. Part. Nucl. Lett. 15(3), 225-229 (2018)",
/// "Software Testing, Verification and Reliability, 35(2):e1914, 2025".
static CITED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<name>[^\d(]*[A-Za-z.)]),? (?P<volume>\d+)(?: ?\((?P<issue>\d+)\))?[,:] ?(?P<first>[A-Za-z]?\d+)(?:\([A-Z]\))?(?:(?:--?|–)(?P<last>[A-Za-z]?\d+))?,? \(?(?:19|20)\d\d\)?\.?$")
        .expect("a valid pattern")
});
/// The year after the volume, as mathematics journals cite: "Math. Res. Lett. 15 (2008),
/// no. 2, 351--358", "J. Math. Phys. 48(2007), 092102.", "J. of Pure and Applied Algebra,
/// 213(2) (Feb. 2009) 264-278".
static YEAR_AFTER_VOLUME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<name>[^\d(]*[A-Za-z.)]),? (?P<volume>\d+)(?:\((?P<issue>\d+)\))? ?\([^()]*(?:19|20)\d\d\)(?:,? [Nn]o\. ?(?P<number>\d+))?,? (?:pp\. ?)?(?P<first>[A-Za-z]?\d+)(?:(?:--?|–)(?P<last>[A-Za-z]?\d+))?\.?$")
        .expect("a valid pattern")
});
/// SPIRES' own form: "Phys.Lett.B573:94-100,2003", "Lect.Notes Phys.562:195-212,2001",
/// "JHEP 0705:034,2007", "JHEP 0601:123, 2006".
static SPIRES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<name>[^\d]*[A-Za-z.]) ?(?P<volume>\d+)(?:\((?P<issue>\d+)\))?:(?P<first>[A-Za-z]?\d+)(?:-(?P<last>[A-Za-z]?\d+))?, ?(?:19|20)\d\d$")
        .expect("a valid pattern")
});
/// A volume's label left at the end of a journal's name: "Journal of Applied Physics, vol
/// 104, 073536 (2008)".
static VOLUME_LABEL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i),? ?\bvol(?:ume|\.)?$").expect("a valid pattern"));
/// "International Journal of … (IJSEA), Vol.3, No.1, January 2012", and IEEE Xplore's
/// "IEEE Transactions on Information Theory ( Volume: 65 , Issue: 4 , April 2019 )".
static LABELLED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<name>[^\d]+?),? (?:\( ?)?Vol(?:\.|ume:)? ?(?P<volume>\d+) ?,? (?:(?:No\.?|Issue:) ?(?P<issue>\d+))?")
        .expect("a valid pattern")
});
static CONFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:conference|symposium|workshops?|proceedings|proc\.)")
        .expect("a valid pattern")
});
/// A meeting by name: what a journal's name never says, where "Proc." and "Proceedings"
/// may be a journal's (Proc. Natl. Acad. Sci., Proceedings of the IEEE).
static MEETING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:conference|symposium|workshops?)\b").expect("a valid pattern")
});
/// What follows a conference's name in a reference: its pages, publisher and year.
static AFTER_CONFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:,? \(?(?:pp\.|pages) .*|, (?:19|20)\d\d,.*)$").expect("a valid pattern")
});

/// The venue `journal_ref` names, or None where it reads as neither a journal's
/// reference nor a conference (a book chapter, a date alone).
pub fn venue(journal_ref: &str) -> Option<Venue<'_>> {
    let text = the_papers(journal_ref).trim();
    if let Some(caps) = [&CITED, &YEAR_AFTER_VOLUME, &SPIRES, &LABELLED]
        .into_iter()
        .find_map(|re| re.captures(text))
    {
        let get = |n: &str| caps.name(n).map_or("", |m| m.as_str());
        let name = get("name").trim().trim_end_matches(',');
        let name = VOLUME_LABEL
            .find(name)
            .map_or(name, |label| &name[..label.start()]);
        if !name.is_empty() && !MEETING.is_match(name) {
            return Some(Venue::Journal {
                name,
                volume: get("volume"),
                issue: Some(get("issue"))
                    .filter(|issue| !issue.is_empty())
                    .unwrap_or(get("number")),
                first_page: get("first"),
                last_page: get("last"),
            });
        }
    }
    if CONFERENCE.is_match(text) {
        let name = AFTER_CONFERENCE
            .find(text)
            .map_or(text, |after| &text[..after.start()])
            .trim_start_matches("In ")
            .trim_end_matches(['.', ',', ' ']);
        return (!name.is_empty()).then_some(Venue::Conference(name));
    }
    None
}

/// A paper's venue. For a paper from a journal's feed (not arXiv), whose `journal_ref`
/// fetch filled with the name the feed gives (`prism:publicationName`, a source's
/// `journal`), a name alone is its journal's ("Proceedings of the National Academy of
/// Sciences", "Philosophical Transactions A: Mathematical, Physical and Engineering
/// Sciences"), or a meeting's; anything else is read by `venue`. A name alone has no word
/// that starts with a digit, as every reference's volume, pages or year does.
pub fn paper_venue(journal_ref: &str, is_arxiv: bool) -> Option<Venue<'_>> {
    let name = journal_ref.trim();
    let a_name_alone = !name.is_empty()
        && name
            .split_whitespace()
            .all(|w| !w.starts_with(|c: char| c.is_ascii_digit()));
    if is_arxiv || !a_name_alone {
        return venue(journal_ref);
    }
    Some(if MEETING.is_match(name) {
        Venue::Conference(name)
    } else {
        Venue::Journal {
            name,
            volume: "",
            issue: "",
            first_page: "",
            last_page: "",
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_gives_its_year_and_bibtex_fields() {
        assert_eq!(year("Phys. Rev. B 89, 224502 (2014)"), Some(2014));
        assert_eq!(year("Lect.Notes Phys.562:195-212,2001"), Some(2001));
        assert_eq!(
            year(
                "2022 IEEE International Conference On Artificial Intelligence Testing (AITest), 2022, pp. 26-33"
            ),
            Some(2022)
        );
        assert_eq!(
            year("Phys. Rev. D 75, 1203 (2007); Erratum: 2009"),
            Some(2007)
        );
        assert_eq!(year("Journal of Stuff 12, 345"), None);
        // Pages that look like years.
        assert_eq!(year("J. Algebra 320 (2008), 1917-1935"), Some(2008));
        assert_eq!(year("Discrete Math. 309 (2009), 2001--2010"), Some(2009));
        assert_eq!(
            year("Proceedings of ICML 2019, pages 1999-2008"),
            Some(2019)
        );
        assert_eq!(year("JHEP 0601:123, 2006"), Some(2006));
        let v = venue("Phys. Part. Nucl. Lett. 15(3), 225-229 (2018)").unwrap();
        assert_eq!(v.bibtex_type(), "article");
        assert_eq!(
            v.bibtex_fields(),
            "      journal={Phys. Part. Nucl. Lett.},\n      volume={15},\n      number={3},\n      pages={225--229},\n"
        );
        let v = venue("In Proc. ACM SIGSOFT International Symposium on Software Testing and Analysis (ISSTA 2020), pages 14-26. ACM, 2020").unwrap();
        assert_eq!(v.bibtex_type(), "inproceedings");
        assert!(
            v.bibtex_fields()
                .starts_with("      booktitle={Proc. ACM SIGSOFT"),
            "{}",
            v.bibtex_fields()
        );
    }

    fn journal<'a>(
        name: &'a str,
        volume: &'a str,
        issue: &'a str,
        first_page: &'a str,
        last_page: &'a str,
    ) -> Option<Venue<'a>> {
        Some(Venue::Journal {
            name,
            volume,
            issue,
            first_page,
            last_page,
        })
    }

    #[test]
    fn references_of_the_example_and_the_snapshot_read_as_their_parts() {
        for (text, venue_of) in [
            (
                "Physics of Fluids 36, 117158 (2024)",
                journal("Physics of Fluids", "36", "", "117158", ""),
            ),
            (
                "Annals of Physics 324, 523 (2009).",
                journal("Annals of Physics", "324", "", "523", ""),
            ),
            (
                "Phys. Rev. B 74, 024520 (2006)",
                journal("Phys. Rev. B", "74", "", "024520", ""),
            ),
            (
                "Physical Review B 82, 060515(R) (2010)",
                journal("Physical Review B", "82", "", "060515", ""),
            ),
            (
                "Int. J. Mod. Phys. B, 26, 1244002 (2012)",
                journal("Int. J. Mod. Phys. B", "26", "", "1244002", ""),
            ),
            (
                "Phys. Part. Nucl. Lett. 15(3), 225-229 (2018)",
                journal("Phys. Part. Nucl. Lett.", "15", "3", "225", "229"),
            ),
            (
                "Phys.Lett.B573:94-100,2003",
                journal("Phys.Lett.B", "573", "", "94", "100"),
            ),
            (
                "Software Testing, Verification and Reliability, 35(2):e1914, 2025",
                journal(
                    "Software Testing, Verification and Reliability",
                    "35",
                    "2",
                    "e1914",
                    "",
                ),
            ),
            (
                "IEEE Transactions on Information Theory ( Volume: 65 , Issue: 4 , April 2019 )",
                journal("IEEE Transactions on Information Theory", "65", "4", "", ""),
            ),
            (
                "2022 IEEE International Conference On Artificial Intelligence Testing (AITest), 2022, pp. 26-33",
                Some(Venue::Conference(
                    "2022 IEEE International Conference On Artificial Intelligence Testing (AITest)",
                )),
            ),
            (
                "In Proc. ACM SIGSOFT International Symposium on Software Testing and Analysis (ISSTA 2020), pages 14-26. ACM, 2020",
                Some(Venue::Conference(
                    "Proc. ACM SIGSOFT International Symposium on Software Testing and Analysis (ISSTA 2020)",
                )),
            ),
            // arXiv's metadata snapshot: the year after the volume, TeX's page ranges,
            // SPIRES with a space, an erratum after the reference, a volume's label.
            (
                "Math. Res. Lett. 15 (2008), no. 2, 351--358",
                journal("Math. Res. Lett.", "15", "2", "351", "358"),
            ),
            (
                "J. Math. Phys. 48(2007), 092102.",
                journal("J. Math. Phys.", "48", "", "092102", ""),
            ),
            (
                "J. of Pure and Applied Algebra, 213(2) (Feb. 2009) 264-278",
                journal("J. of Pure and Applied Algebra", "213", "2", "264", "278"),
            ),
            (
                "Comm. Math. Helv. 84 (2009), No. 2, pp. 259--296.",
                journal("Comm. Math. Helv.", "84", "2", "259", "296"),
            ),
            ("JHEP 0705:034,2007", journal("JHEP", "0705", "", "034", "")),
            (
                "JHEP 0601:123, 2006",
                journal("JHEP", "0601", "", "123", ""),
            ),
            (
                "J. Math. Phys. 47, 123--145 (2006)",
                journal("J. Math. Phys.", "47", "", "123", "145"),
            ),
            (
                "J.Opt.Soc.Am.A 23, 2578-2591 (2006); Erratum: J.Opt.Soc.Am.A 32, 2407-2408 (2015)",
                journal("J.Opt.Soc.Am.A", "23", "", "2578", "2591"),
            ),
            (
                "Journal of Applied Physics, vol 104, 073536 (2008)",
                journal("Journal of Applied Physics", "104", "", "073536", ""),
            ),
            // "Evol." is a word of a name, not a volume's label.
            (
                "Mol. Biol. Evol. 24, 1234 (2007)",
                journal("Mol. Biol. Evol.", "24", "", "1234", ""),
            ),
            (
                "J. Mol. Evol. 50 (2000) 1-10",
                journal("J. Mol. Evol.", "50", "", "1", "10"),
            ),
            (
                "Contrib. Plasma Phys.Volume 47, 368, 2007",
                journal("Contrib. Plasma Phys.", "47", "", "368", ""),
            ),
            // Journals named for proceedings.
            (
                "Proc. Natl. Acad. Sci. USA 103, 15123 (2006)",
                journal("Proc. Natl. Acad. Sci. USA", "103", "", "15123", ""),
            ),
            (
                "Proceedings of the IEEE 108, 1 (2020)",
                journal("Proceedings of the IEEE", "108", "", "1", ""),
            ),
            (
                "Formal Methods and Testing, Springer-Verlag (Ed.) (2008) 209-239",
                None,
            ),
            (
                "Communications in Mathematics and Statistics, 27 December 2022",
                None,
            ),
            ("Phys. Rev. Accel. Beams 27, (2024) 112802", None),
        ] {
            assert_eq!(venue(text), venue_of, "{text}");
        }
    }

    #[test]
    fn a_journal_feeds_name_alone_is_its_journal_but_not_an_arxiv_papers() {
        let named = |name| journal(name, "", "", "", "");
        for name in [
            "bioRxiv",
            "Proceedings of the National Academy of Sciences",
            "Proc. R. Soc. A",
            "Philosophical Transactions of the Royal Society A: Mathematical, Physical and Engineering Sciences",
            "F1000Research",
        ] {
            assert_eq!(paper_venue(name, false), named(name), "{name}");
        }
        assert_eq!(
            paper_venue(" Bioinformatics ", false),
            named("Bioinformatics")
        );
        // On an arXiv paper a bare name says too little to file it as that journal's.
        assert_eq!(paper_venue("Bioinformatics", true), None);
        // A reference is read as one; a date is no journal's name.
        assert_eq!(
            paper_venue("Phys. Rev. B 74, 024520 (2006)", false),
            journal("Phys. Rev. B", "74", "", "024520", "")
        );
        assert_eq!(
            paper_venue(
                "Communications in Mathematics and Statistics, 27 December 2022",
                false
            ),
            None
        );
        assert_eq!(paper_venue("", false), None);
        assert_eq!(
            paper_venue("International Workshop on Software Testing", false),
            Some(Venue::Conference(
                "International Workshop on Software Testing"
            ))
        );
    }
}
