//! One line of arXiv's metadata snapshot (`arxiv-metadata-oai-snapshot.json` on Kaggle):
//! a JSON object per paper with every version and its date.

use super::text::{latex_accents, parse_date, split_authors};
use super::xml::fold_whitespace;
use crate::paper::{Links, Paper, PaperId};
use serde::Deserialize;

#[derive(Deserialize)]
struct Line {
    id: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    authors: Option<String>,
    /// [family, given, suffix, affiliations…]: affiliations in `authors` are cut apart.
    #[serde(default)]
    authors_parsed: Option<Vec<Vec<String>>>,
    #[serde(default)]
    categories: Option<String>,
    #[serde(default)]
    comments: Option<String>,
    #[serde(default, rename = "journal-ref")]
    journal_ref: Option<String>,
    #[serde(default)]
    doi: Option<String>,
    #[serde(default)]
    license: Option<String>,
    #[serde(default, rename = "abstract")]
    abstract_text: Option<String>,
    #[serde(default)]
    versions: Vec<Version>,
}

#[derive(Deserialize)]
struct Version {
    version: String,
    created: String,
}

/// The paper a snapshot line describes, or why it cannot be one.
pub fn parse_line(line: &str) -> Result<Paper, String> {
    let l: Line = serde_json::from_str(line).map_err(|e| format!("not a snapshot record: {e}"))?;
    let (id, _) =
        PaperId::from_arxiv_id(&l.id).ok_or_else(|| format!("not an arXiv id: {:?}", l.id))?;
    let mut versions: Vec<(u32, chrono::DateTime<chrono::Utc>)> = l
        .versions
        .iter()
        .filter_map(|v| {
            let n = v.version.trim().trim_start_matches('v').parse().ok()?;
            Some((n, parse_date(&v.created)?))
        })
        .collect();
    versions.sort();
    let (Some(&(_, published)), Some(&(version, updated))) = (versions.first(), versions.last())
    else {
        return Err(format!("{id}: no version with a date"));
    };
    let text = |s: &Option<String>| s.as_deref().map(fold_whitespace).unwrap_or_default();
    let authors = match &l.authors_parsed {
        Some(parsed) if !parsed.is_empty() => parsed
            .iter()
            .map(|parts| {
                let part = |i: usize| parts.get(i).map(|s| s.trim()).unwrap_or("");
                // "C. -P." is how the snapshot splits "C.-P.".
                let given = part(1).replace(". -", ".-");
                let name = [given.as_str(), part(0), part(2)]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ");
                latex_accents(&name)
            })
            .filter(|n| !n.is_empty())
            .collect(),
        _ => split_authors(&text(&l.authors)),
    };
    let (categories, classes) = super::arxiv_oai::categories(&text(&l.categories), "", "");
    let pdf = format!("https://arxiv.org/pdf/{id}v{version}");
    Ok(Paper {
        links: Links {
            abs: format!("https://arxiv.org/abs/{id}"),
            pdf,
        },
        version,
        title: text(&l.title),
        authors,
        published,
        updated: updated.max(published),
        primary_category: categories.first().cloned().unwrap_or_default(),
        categories,
        abstract_text: text(&l.abstract_text),
        comment: text(&l.comments),
        journal_ref: text(&l.journal_ref),
        doi: text(&l.doi)
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_string(),
        source: "arxiv-snapshot".into(),
        announced: None,
        announce_type: None,
        license: l
            .license
            .as_deref()
            .and_then(crate::license::canonical)
            .unwrap_or_default(),
        classes,
        id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_becomes_a_paper_and_a_bad_one_says_why() {
        let p = parse_line(r#"{"id":"0704.0001","authors":"C. Bal\\'azs, E. L. Berger","title":"Calculation of\n  prompt diphoton","categories":"hep-ph math.CA 35Q30","license":null,"abstract":"  A fully\ndifferential","versions":[{"version":"v2","created":"Tue, 24 Jul 2007 20:10:27 GMT"},{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"}],"authors_parsed":[["Bal\u00e1zs","C.",""],["Yuan","C. -P.",""]]}"#).unwrap();
        assert_eq!(p.id.as_str(), "0704.0001");
        assert_eq!(
            (p.version, p.published.to_rfc3339()),
            (2, "2007-04-02T19:18:42+00:00".into())
        );
        assert_eq!(p.authors, ["C. Balázs", "C.-P. Yuan"]);
        assert_eq!(p.title, "Calculation of prompt diphoton");
        assert_eq!(
            (p.categories.len(), p.classes.as_slice()),
            (2, &["35Q30".to_string()][..])
        );
        assert!(
            parse_line(r#"{"id":"x y"}"#)
                .unwrap_err()
                .contains("not an arXiv id")
        );
        assert!(
            parse_line("{")
                .unwrap_err()
                .contains("not a snapshot record")
        );
    }
}
