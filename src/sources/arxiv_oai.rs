//! arXiv's OAI-PMH answers (`ListRecords`, `GetRecord`) in its three metadata formats:
//! `arXivRaw` (every version with its date), `arXiv` (authors apart, first and last
//! dates only) and `oai_dc` (Dublin Core: subjects by name, dates without versions).

use super::text::{latex_accents, parse_date, split_authors};
use super::xml::{self, Element, fold_whitespace};
use crate::paper::{Links, Paper, PaperId};
use chrono::{DateTime, Utc};

pub const NS_OAI: &str = "http://www.openarchives.org/OAI/2.0/";
const NS_ARXIV_RAW: &str = "http://arxiv.org/OAI/arXivRaw/";
const NS_ARXIV_OAI: &str = "http://arxiv.org/OAI/arXiv/";

/// One answer of an OAI-PMH repository.
#[derive(Debug, Default)]
pub struct OaiPage {
    pub papers: Vec<Paper>,
    /// Records on the page, deleted ones included.
    pub records: usize,
    pub deleted: usize,
    /// The token that asks for the next page: None when the list ends here (an empty
    /// `<resumptionToken/>` or none at all).
    pub resumption_token: Option<String>,
    /// `completeListSize`, when the repository says it.
    pub complete_list_size: Option<usize>,
    /// The token's `cursor` (records of the list before this page), when said.
    pub cursor: Option<usize>,
    pub response_date: Option<DateTime<Utc>>,
    /// The OAI error code and its message (`badResumptionToken`, `noRecordsMatch`, …).
    pub error: Option<(String, String)>,
    pub warnings: Vec<String>,
}

/// What the formats without version numbers cannot say.
pub const NO_VERSIONS: &str = "gives no version numbers: each paper is recorded as the version its dates show least (v1), so a new version is not told from the first; use metadata_prefix = \"arXivRaw\" for versions";

/// Parses one OAI-PMH document. An error is a document that is not OAI-PMH at all or
/// broke before its end (the resumption token comes last, so a cut page is asked again).
pub fn parse(bytes: &[u8]) -> Result<OaiPage, String> {
    let doc = xml::parse(bytes).map_err(|e| format!("not XML: {e}"))?;
    parse_document(&doc)
}

/// `parse` of a document already read (the fuzz target gives one tree to every parser).
pub fn parse_document(doc: &xml::Document) -> Result<OaiPage, String> {
    if doc.root.name != "OAI-PMH" {
        return Err(format!(
            "not an OAI-PMH answer: the document's root element is <{}>",
            doc.root.name
        ));
    }
    if let Some(err) = &doc.error {
        return Err(format!("the answer broke off at {err}"));
    }
    if !doc.root.complete {
        return Err("the answer broke off before its end".into());
    }
    let root = &doc.root;
    let mut page = OaiPage {
        response_date: root
            .first_in_ns(NS_OAI, "responseDate")
            .and_then(|e| parse_date(&e.text())),
        warnings: doc.warnings.clone(),
        ..Default::default()
    };
    if let Some(e) = root.first_in_ns(NS_OAI, "error") {
        page.error = Some((
            e.attr("code").unwrap_or("unknown").to_string(),
            e.clean_text(),
        ));
        return Ok(page);
    }
    let Some(list) = root
        .first_in_ns(NS_OAI, "ListRecords")
        .or_else(|| root.first_in_ns(NS_OAI, "GetRecord"))
    else {
        return Err("an OAI-PMH answer with neither ListRecords, GetRecord nor an error".into());
    };
    for record in list.in_ns(NS_OAI, "record") {
        page.records += 1;
        let header = record.first_in_ns(NS_OAI, "header");
        if header.and_then(|h| h.attr("status")) == Some("deleted") {
            page.deleted += 1;
            continue;
        }
        let identifier = header
            .and_then(|h| h.first_in_ns(NS_OAI, "identifier"))
            .map(|e| e.clean_text())
            .unwrap_or_default();
        let Some(metadata) = record
            .first_in_ns(NS_OAI, "metadata")
            .and_then(|m| m.elements().next())
        else {
            page.warnings
                .push(format!("{identifier}: a record without metadata; left out"));
            continue;
        };
        let paper = if metadata.is(NS_ARXIV_RAW, "arXivRaw") {
            arxiv_raw(metadata)
        } else if metadata.is(NS_ARXIV_OAI, "arXiv") {
            arxiv_format(metadata)
        } else if metadata.name == "dc" {
            dublin_core(metadata, &identifier)
        } else {
            Err(format!(
                "metadata in a format paperboy does not read (<{}>)",
                metadata.name
            ))
        };
        match paper {
            Ok(p) => page.papers.push(p),
            Err(why) => page.warnings.push(format!("{identifier}: {why}; left out")),
        }
    }
    if let Some(token) = list.first_in_ns(NS_OAI, "resumptionToken") {
        let number = |name| token.attr(name).and_then(|n| n.trim().parse().ok());
        page.complete_list_size = number("completeListSize");
        page.cursor = number("cursor");
        let t = token.clean_text();
        page.resumption_token = (!t.is_empty()).then_some(t);
    }
    Ok(page)
}

fn field(meta: &Element, name: &'static str) -> String {
    meta.first_own(name)
        .map(|e| fold_whitespace(&e.text()))
        .unwrap_or_default()
}

/// The fields the three formats share.
struct Common {
    id: PaperId,
    title: String,
    authors: Vec<String>,
    categories: Vec<String>,
    classes: Vec<String>,
    abstract_text: String,
    comment: String,
    journal_ref: String,
    doi: String,
    license: String,
}

fn paper(c: Common, version: u32, published: DateTime<Utc>, updated: DateTime<Utc>) -> Paper {
    let id = c.id;
    let pdf = if version > 1 {
        format!("https://arxiv.org/pdf/{id}v{version}")
    } else {
        format!("https://arxiv.org/pdf/{id}")
    };
    Paper {
        links: Links {
            abs: format!("https://arxiv.org/abs/{id}"),
            pdf,
        },
        id,
        version,
        title: c.title,
        authors: c.authors,
        published,
        updated: updated.max(published),
        primary_category: c.categories.first().cloned().unwrap_or_default(),
        categories: c.categories,
        abstract_text: c.abstract_text,
        comment: c.comment,
        journal_ref: c.journal_ref,
        doi: c.doi.split_whitespace().next().unwrap_or("").to_string(),
        source: "arxiv-oai".into(),
        announced: None,
        announce_type: None,
        license: crate::license::canonical(&c.license).unwrap_or_default(),
        classes: c.classes,
    }
}

/// arXiv's space-separated categories (first = primary), with MSC/ACM classes apart; the
/// metadata snapshot writes them the same way.
pub(super) fn categories(list: &str, msc: &str, acm: &str) -> (Vec<String>, Vec<String>) {
    let mut terms: Vec<String> = Vec::new();
    for t in list.split_whitespace() {
        if !terms.iter().any(|x| x == t) {
            terms.push(t.to_string());
        }
    }
    let (cats, mut classes) = crate::site::taxonomy::split_terms(terms);
    for c in [msc, acm]
        .iter()
        .flat_map(|s| s.split([',', ';']))
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        if !classes.iter().any(|x| x == c) {
            classes.push(c.to_string());
        }
    }
    (cats, classes)
}

fn common(meta: &Element, authors: Vec<String>) -> Result<Common, String> {
    let id_text = field(meta, "id");
    let (id, _) =
        PaperId::from_arxiv_id(&id_text).ok_or_else(|| format!("not an arXiv id: {id_text:?}"))?;
    let (categories, classes) = categories(
        &field(meta, "categories"),
        &field(meta, "msc-class"),
        &field(meta, "acm-class"),
    );
    Ok(Common {
        id,
        title: field(meta, "title"),
        authors,
        categories,
        classes,
        abstract_text: field(meta, "abstract"),
        comment: field(meta, "comments"),
        journal_ref: field(meta, "journal-ref"),
        doi: field(meta, "doi"),
        license: field(meta, "license"),
    })
}

fn arxiv_raw(meta: &Element) -> Result<Paper, String> {
    let c = common(meta, split_authors(&field(meta, "authors")))?;
    let mut versions: Vec<(u32, DateTime<Utc>)> = meta
        .own("version")
        .filter_map(|v| {
            let n = v
                .attr("version")?
                .trim()
                .trim_start_matches('v')
                .parse()
                .ok()?;
            let date = parse_date(&v.first_own("date")?.text())?;
            Some((n, date))
        })
        .collect();
    versions.sort();
    let (Some(first), Some(last)) = (versions.first(), versions.last()) else {
        return Err("no version with a date".into());
    };
    let (published, (version, updated)) = (first.1, *last);
    Ok(paper(c, version, published, updated))
}

fn arxiv_format(meta: &Element) -> Result<Paper, String> {
    let authors = meta
        .first_own("authors")
        .map(|a| {
            a.own("author")
                .map(|au| {
                    let part = |n: &'static str| {
                        au.first_own(n)
                            .map(|e| latex_accents(&e.clean_text()))
                            .unwrap_or_default()
                    };
                    [part("forenames"), part("keyname"), part("suffix")]
                        .into_iter()
                        .filter(|s| !s.is_empty())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .filter(|n| !n.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let c = common(meta, authors)?;
    let created = parse_date(&field(meta, "created")).ok_or("no created date")?;
    let updated = parse_date(&field(meta, "updated")).unwrap_or(created);
    Ok(paper(c, 1, created, updated))
}

fn dublin_core(meta: &Element, identifier: &str) -> Result<Paper, String> {
    let dc = |name: &'static str| meta.in_ns(xml::NS_DC, name);
    let id_text = dc("identifier")
        .map(|e| e.clean_text())
        .find(|t| t.contains("arxiv.org/abs/"))
        .unwrap_or_else(|| identifier.to_string());
    let id_text = id_text.trim_start_matches("oai:arXiv.org:");
    let (id, _) =
        PaperId::from_arxiv_id(id_text).ok_or_else(|| format!("not an arXiv id: {id_text:?}"))?;
    let mut categories: Vec<String> = Vec::new();
    let mut classes: Vec<String> = Vec::new();
    for s in dc("subject").map(|e| e.clean_text()) {
        match crate::site::taxonomy::by_subject(&s) {
            Some(code) if !categories.iter().any(|c| c == code) => categories.push(code.into()),
            Some(_) => {}
            None => classes.extend(
                s.split([',', ';'])
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .map(str::to_string),
            ),
        }
    }
    // The abstract is the first description; the comment comes as "Comment: …".
    let mut abstract_text = String::new();
    let mut comment = String::new();
    for d in dc("description").map(|e| e.clean_text()) {
        match d.strip_prefix("Comment:") {
            Some(c) => comment = c.trim().to_string(),
            None if abstract_text.is_empty() => abstract_text = d,
            None => {}
        }
    }
    let mut dates: Vec<DateTime<Utc>> = dc("date").filter_map(|e| parse_date(&e.text())).collect();
    dates.sort();
    let (Some(&published), Some(&updated)) = (dates.first(), dates.last()) else {
        return Err("no date".into());
    };
    let authors = dc("creator")
        .map(|e| {
            // "Baillie, Robert" -> "Robert Baillie"; a collaboration stays as it is.
            let name = latex_accents(&e.clean_text());
            match name.split_once(", ") {
                Some((family, given)) if !given.contains(',') => format!("{given} {family}"),
                _ => name,
            }
        })
        .filter(|n| !n.is_empty())
        .collect();
    let doi = dc("identifier")
        .filter_map(|e| super::text::extract_doi(&e.clean_text()))
        .next()
        .unwrap_or_default();
    let c = Common {
        id,
        title: dc("title")
            .next()
            .map(|e| e.clean_text())
            .unwrap_or_default(),
        authors,
        categories,
        classes,
        abstract_text,
        comment,
        journal_ref: String::new(),
        doi,
        license: dc("rights")
            .next()
            .map(|e| e.clean_text())
            .unwrap_or_default(),
    };
    Ok(paper(c, 1, published, updated))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_and_a_token_are_read() {
        let err = br#"<?xml version="1.0"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2017-08-24T11:43:16Z</responseDate><error code="badResumptionToken">expired</error></OAI-PMH>"#;
        let page = parse(err).unwrap();
        assert_eq!(
            page.error,
            Some(("badResumptionToken".into(), "expired".into()))
        );
        assert!(parse(b"<html><body><h1>Retry after 1 seconds</h1></body></html>").is_err());
        let cut = br#"<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords><record>"#;
        assert!(parse(cut).unwrap_err().contains("broke off"));
        let next = br#"<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords><resumptionToken cursor="1000" completeListSize=" 2265 ">6511260|2001</resumptionToken></ListRecords></OAI-PMH>"#;
        let page = parse(next).unwrap();
        assert_eq!(
            (page.resumption_token.as_deref(), page.cursor),
            (Some("6511260|2001"), Some(1000))
        );
        assert_eq!(page.complete_list_size, Some(2265));
    }
}
