//! What a paper's own page adds: citation tags, BibTeX, JSON-LD and author links.

use super::*;

pub fn author_rel(slug: &str) -> String {
    format!("authors/{slug}/")
}

/// What only a paper's own page shows: linked authors, related papers and the metadata
/// reference managers and search engines read.
#[derive(Serialize)]
pub struct PaperPageExtras {
    pub authors: Vec<Link>,
    pub related: Vec<Link>,
    /// `citation_*` meta tags as (name, content), in arXiv's order.
    pub citation: Vec<(&'static str, String)>,
    /// schema.org ScholarlyArticle, safe to put inside a `<script>` element.
    pub json_ld: String,
    pub bibtex: String,
    /// OpenGraph description: the summary, else the start of the abstract.
    pub description: String,
}

/// "Aishwarya Sarkar" -> "Sarkar, Aishwarya", the form Google Scholar asks for; "Andre de
/// Gouvea" -> "de Gouvea, Andre" and "Jonathan A. Karr Jr." -> "Karr Jr., Jonathan A.", as
/// arXiv and reference managers file them.
pub fn last_first(name: &str) -> String {
    let (given, family, suffix) = name_parts(name);
    match (given.is_empty(), suffix) {
        (true, _) => name.trim().to_string(),
        (false, Some(suffix)) => format!("{family} {suffix}, {given}"),
        (false, None) => format!("{family}, {given}"),
    }
}

/// Words that join the family name they come before when written in lower case.
const PARTICLES: &[&str] = &[
    "de", "da", "das", "do", "dos", "du", "del", "della", "di", "der", "den", "van", "von", "ten",
    "ter", "le", "la", "zu", "bin", "ibn", "al", "el",
];
/// Particles that join the family name in any case, as arXiv's own author parser takes
/// them (its metadata gives "De Raedt, Hans", "Di Vecchia, Paolo", but "Shawish, S. El"):
/// "A. Del Maestro" is "Del Maestro, A.".
const ANY_CASE_PARTICLES: &[&str] = &[
    "van", "der", "de", "la", "von", "del", "della", "da", "mac", "ter", "dem", "di",
];

/// Vietnamese family names, most common first: before one, a capitalised "Van" (Văn) is a
/// middle name ("Hieu Van Nguyen" is "Nguyen, Hieu Van"), not a particle.
const VIETNAMESE_FAMILY_NAMES: &[&str] = &[
    "Nguyen", "Nguyễn", "Tran", "Trần", "Le", "Lê", "Pham", "Phạm", "Hoang", "Hoàng", "Huynh",
    "Huỳnh", "Phan", "Vu", "Vũ", "Vo", "Võ", "Dang", "Đặng", "Bui", "Bùi", "Do", "Đỗ", "Ho", "Hồ",
    "Ngo", "Ngô", "Duong", "Dương", "Ly", "Lý", "Dinh", "Đinh", "Truong", "Trương", "Luong",
    "Lương", "Trinh", "Trịnh", "Mai", "Cao", "Lam", "Lâm", "Ha", "Hà", "Ta", "Tạ",
];

/// Whether `word`, before `next`, belongs to the family name: a particle of `PARTICLES` in
/// lower case, or of `ANY_CASE_PARTICLES` in any case.
fn is_particle(word: &str, next: &str) -> bool {
    PARTICLES.contains(&word)
        || (ANY_CASE_PARTICLES
            .iter()
            .any(|p| p.eq_ignore_ascii_case(word))
            && !(word == "Van" && VIETNAMESE_FAMILY_NAMES.contains(&next)))
}

/// A generation after a name, which is not its family name.
const SUFFIXES: &[&str] = &["Jr.", "Jr", "Sr.", "Sr", "II", "III", "IV"];

/// A person's name as (given names, family name, generation): the family name is the last
/// word with the particles before it (`is_particle`). The given names are empty for one word.
fn name_parts(name: &str) -> (String, String, Option<&str>) {
    let mut words: Vec<&str> = name.split_whitespace().collect();
    let suffix = match words.last() {
        Some(w) if words.len() > 2 && SUFFIXES.contains(w) => words.pop(),
        _ => None,
    };
    let mut start = words.len().saturating_sub(1);
    while start > 1 && is_particle(words[start - 1], words[start]) {
        start -= 1;
    }
    (words[..start].join(" "), words[start..].join(" "), suffix)
}

pub(super) fn ascii_word(s: &str) -> String {
    slug::slugify(s).replace('-', "")
}

/// The title as schema.org's `headline`, which search engines read as text of at most 110
/// characters: its formulas as Unicode where they can be, and a longer title cut after a
/// word, with "…" ("…Scale and redshift variation of " and "…tunneling-based Hamilt" were
/// cut where the 110th character fell).
fn json_ld_headline(title: &str) -> String {
    const MAX: usize = 110;
    let text = crate::render::math::readable_text(title);
    if text.chars().count() <= MAX {
        return text.into_owned();
    }
    let end = text
        .char_indices()
        .nth(MAX - 1)
        .map_or(text.len(), |(i, _)| i);
    // A word that ends where the room does is whole.
    let cut = if text[end..].starts_with(char::is_whitespace) {
        end
    } else {
        text[..end].rfind(char::is_whitespace).unwrap_or(end)
    };
    format!("{}…", text[..cut].trim_end_matches([' ', ',', ':', ';']))
}

/// What a feed entry says of a paper with no abstract and no review: the byline
/// description its page's preview shows.
pub fn byline_description_of(f: &crate::store::frontmatter::PaperFront) -> String {
    let (persons, more) = crate::site::byline::persons(&f.authors);
    let day = first_version_shown(f.first_version(), '-');
    byline_description(&persons, more, &day, &outbound_url(&f.links.abs))
}

/// "By Tiannan Guo et al.; published 2025-02-26 at www.nature.com.": a paper's description
/// when nothing says what it is about. Three names at most, as a byline on a card.
fn byline_description(persons: &[&str], more: bool, day: &str, abs: &str) -> String {
    let mut d = match persons {
        [] => "Published ".to_string(),
        [one] if !more => format!("By {one}; published "),
        [init @ .., last] if !more && persons.len() <= 3 => {
            format!("By {} and {last}; published ", init.join(", "))
        }
        _ => format!(
            "By {} et al.; published ",
            persons[..persons.len().min(3)].join(", ")
        ),
    };
    d.push_str(day);
    if let Some(host) = reqwest::Url::parse(abs)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
    {
        d.push_str(" at ");
        d.push_str(&host);
    }
    d.push('.');
    d
}

/// arXiv's BibTeX key: first author's family name, year, first significant title word.
pub fn bibtex_key(authors: &[&str], year: i32, title: &str) -> String {
    let family = authors
        .first()
        .map(|a| name_parts(a).1)
        .map(|f| ascii_word(&f))
        .filter(|f| !f.is_empty())
        .unwrap_or_else(|| "anon".into());
    let word = title
        .split(|c: char| !c.is_alphanumeric())
        .map(ascii_word)
        .find(|w| {
            !w.is_empty()
                && !["a", "an", "the", "on", "of", "in", "for", "and", "to"].contains(&w.as_str())
        })
        .unwrap_or_default();
    format!("{family}{year}{word}")
}

pub(super) fn bibtex_value(s: &str) -> String {
    let balanced = s.chars().try_fold(0i32, |depth, c| {
        let d = match c {
            '{' => depth + 1,
            '}' => depth - 1,
            _ => depth,
        };
        (d >= 0).then_some(d)
    }) == Some(0);
    if balanced {
        s.to_string()
    } else {
        s.replace(['{', '}'], "")
    }
}

/// A paper's schema.org record, in name order. A field with nothing to say is left out:
/// `"author": []` reads as a paper with no authors.
///
/// No `abstract`: the page carries the abstract twice already, as text (which Google
/// Scholar's inclusion guidelines ask to see on the page) and as `citation_abstract` (the
/// Highwire tag reference managers read it from), and schema.org's ScholarlyArticle asks
/// for none. A third copy was 1.7 KB of a 10.5 KB page (issue #78).
#[derive(Serialize)]
pub(super) struct JsonLd<'a> {
    #[serde(rename = "@context")]
    context: &'static str,
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    author: Vec<Named<'a>>,
    #[serde(rename = "dateModified")]
    date_modified: String,
    #[serde(rename = "datePublished")]
    date_published: String,
    headline: String,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    identifier: &'a [String],
    /// The thumbnail, as an absolute URL, where the paper has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    image: Option<String>,
    /// The journal a journal's paper is in, as schema.org names one.
    #[serde(rename = "isPartOf", skip_serializing_if = "Option::is_none")]
    is_part_of: Option<Named<'a>>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    keywords: &'a [String],
    /// The paper's licence URL, where it is known.
    #[serde(skip_serializing_if = "str::is_empty")]
    license: &'a str,
    name: &'a str,
    #[serde(rename = "sameAs", skip_serializing_if = "Option::is_none")]
    same_as: Option<&'a str>,
    /// The digest made this record, not the paper: as `publisher` it named the digest the
    /// publisher of every paper on arXiv or in a journal.
    #[serde(rename = "sdPublisher")]
    sd_publisher: Named<'a>,
    url: &'a str,
}

#[derive(Serialize)]
pub(super) struct Named<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    name: &'a str,
}

/// JSON that cannot end or open anything inside a `<script>` element: `<`, `>` and `&`
/// as `\u` escapes (so a `</script>` or `<!--` in a string stays text).
pub(super) fn script_safe(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 16);
    let mut start = 0;
    for i in memchr::memchr3_iter(b'<', b'>', b'&', json.as_bytes()) {
        out.push_str(&json[start..i]);
        out.push_str(match json.as_bytes()[i] {
            b'<' => "\\u003c",
            b'>' => "\\u003e",
            _ => "\\u0026",
        });
        start = i + 1;
    }
    out.push_str(&json[start..]);
    out
}

/// What a paper's own page shows beyond its card; `abstract_text` is its abstract (as
/// `paper_view` read it: on large sites each read is a trip to a file).
pub fn paper_page_extras(
    site: &Site,
    i: usize,
    urls: &Urls,
    site_title: &str,
    abstract_text: &str,
) -> PaperPageExtras {
    let p = &site.papers[i];
    let f = &p.front;
    let authors = f
        .authors
        .iter()
        .zip(site.authorships.of(i))
        .map(|(a, ai)| Link {
            name: a.clone(),
            url: urls.path(&author_rel(&site.authors[ai].slug)),
        })
        .collect();
    let related = site.related[i]
        .iter()
        .map(|&r| Link {
            name: site.papers[r].front.title.clone(),
            url: urls.path(&paper_rel(&site.papers[r])),
        })
        .collect();
    // Google Scholar asks for a full date, or the year alone.
    let first_version = f.first_version();
    let date = match first_version {
        FirstVersion::Day(t) => ymd(&t, '/'),
        FirstVersion::Month { year, .. } => year.to_string(),
    };
    let mut citation: Vec<(&'static str, String)> = vec![("citation_title", f.title.clone())];
    // Persons, as Google Scholar and reference managers read them: "A. K. L. Wezenaar et
    // al." is one person and more not named.
    let (persons, more) = crate::site::byline::persons(&f.authors);
    citation.extend(persons.iter().map(|a| ("citation_author", last_first(a))));
    citation.push(("citation_date", date.clone()));
    // The latest version's date, where it says more than the first's.
    let online = ymd(&f.updated, '/');
    if online != date {
        citation.push(("citation_online_date", online));
    }
    let pdf = safe_url(&f.links.pdf);
    if !pdf.is_empty() {
        citation.push(("citation_pdf_url", pdf.to_string()));
    }
    if f.id.is_arxiv() {
        citation.push(("citation_arxiv_id", f.id.to_string()));
    }
    if !f.doi.is_empty() {
        citation.push(("citation_doi", f.doi.clone()));
    }
    // The reference's parts, where it reads as a journal's or a conference's: the whole of
    // "Phys. Rev. B 74, 024520 (2006)" is not a journal's name.
    let venue = super::journal_ref::paper_venue(&f.journal_ref, f.id.is_arxiv());
    if let Some(venue) = &venue {
        citation.extend(
            venue
                .citation_tags()
                .into_iter()
                .map(|(tag, value)| (tag, value.to_string())),
        );
    }
    if !abstract_text.is_empty() {
        citation.push(("citation_abstract", abstract_text.to_string()));
    }
    let permalink = urls.permalink(&paper_rel(p));
    let mut identifiers = Vec::new();
    if f.id.is_arxiv() {
        identifiers.push(format!("arXiv:{}", f.id));
    }
    if !f.doi.is_empty() {
        identifiers.push(format!("https://doi.org/{}", f.doi));
    }
    let abs = outbound_url(&f.links.abs);
    let json = JsonLd {
        context: "https://schema.org",
        kind: "ScholarlyArticle",
        author: persons
            .iter()
            .map(|a| Named {
                kind: "Person",
                name: a,
            })
            .collect(),
        date_modified: f.updated.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        date_published: first_version_iso(first_version),
        headline: json_ld_headline(&f.title),
        identifier: &identifiers,
        image: figure_rel(p).map(|rel| urls.permalink(&rel)),
        is_part_of: venue.as_ref().and_then(|v| v.journal()).map(|name| Named {
            kind: "Periodical",
            name,
        }),
        keywords: &f.categories,
        license: safe_url(&f.license),
        name: &f.title,
        same_as: (!abs.is_empty()).then_some(&*abs),
        sd_publisher: Named {
            kind: "Organization",
            name: site_title,
        },
        url: &permalink,
    };
    // On one line: the indentation was a twelfth of the record, on every paper's page.
    let json_ld = script_safe(&serde_json::to_string(&json).expect("JSON-LD serializes"));
    let year = first_version.year();
    let key = bibtex_key(&persons, year, &f.title);
    // BibTeX's own word for authors not named.
    let mut names = persons.join(" and ");
    if more {
        names.push_str(" and others");
    }
    // A feed that named no one gives no `author` field, not an empty one: a style then
    // treats the entry as it treats any work without an author.
    let author = if names.is_empty() {
        String::new()
    } else {
        format!("      author={{{}}},\n", bibtex_value(&names))
    };
    // A paper a journal or a conference published is cited as that, in the year it gives;
    // as `@misc` a reference manager filed Phys. Rev. B 89, 224502 as a preprint.
    let (kind, venue_fields, year) = match &venue {
        Some(venue) => (
            venue.bibtex_type(),
            venue.bibtex_fields(),
            super::journal_ref::year(&f.journal_ref).unwrap_or(year),
        ),
        None => ("misc", String::new(), year),
    };
    let mut bib = format!(
        "@{kind}{{{key},\n      title={{{}}},\n{author}{venue_fields}      year={{{year}}},\n",
        bibtex_value(&f.title),
    );
    if f.id.is_arxiv() {
        bib.push_str(&format!(
            "      eprint={{{}}},\n      archivePrefix={{arXiv}},\n      primaryClass={{{}}},\n",
            f.id, f.primary_category
        ));
    }
    if !f.doi.is_empty() {
        bib.push_str(&format!("      doi={{{}}},\n", bibtex_value(&f.doi)));
    }
    let url = if abs.is_empty() {
        permalink.clone()
    } else {
        abs.to_string()
    };
    bib.push_str(&format!("      url={{{}}},\n}}", bibtex_value(&url)));
    let shown_summary = review_view(&site.papers[i], urls).summary;
    // A link preview shows text, not TeX: "At $T>T_{RW}$" as "At T>T_RW" where the
    // formula has a Unicode form.
    let description = if shown_summary.is_empty() && abstract_text.trim().is_empty() {
        // A feed that gives no abstract (Nature's subject feeds): who and when, so that a
        // link preview is not blank.
        let day = first_version_shown(first_version, '-');
        byline_description(&persons, more, &day, &abs)
    } else if shown_summary.is_empty() {
        let text = crate::render::math::readable_text(abstract_text);
        let mut d: String = text.chars().take(200).collect();
        if text.chars().count() > 200 {
            d.push('…');
        }
        d
    } else {
        crate::render::math::readable_text(&shown_summary).into_owned()
    };
    PaperPageExtras {
        authors,
        related,
        citation,
        json_ld,
        bibtex: bib,
        description,
    }
}
