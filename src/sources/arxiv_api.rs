//! The arXiv API's Atom answers (export.arxiv.org/api/query), legacy and 2025+ shapes.

use super::xml::{Element, NS_ARXIV, NS_OPENSEARCH, fold_whitespace};
use super::{ParseContext, ParsedFeed, text::parse_date};
use crate::paper::{Links, Paper, PaperId};
use anyhow::{Result, bail};

pub fn parse(root: &Element, ctx: &ParseContext, out: &mut ParsedFeed) -> Result<()> {
    out.total_results = root
        .first_in_ns(NS_OPENSEARCH, "totalResults")
        .and_then(|e| e.clean_text().parse().ok());
    for entry in root.own("entry") {
        if !out.take_entry(entry) {
            continue;
        }
        let id_text = entry
            .first_own("id")
            .map(|e| e.clean_text())
            .unwrap_or_default();
        let title = entry
            .first_own("title")
            .map(|e| e.clean_text())
            .unwrap_or_default();
        // arXiv reports errors as a feed whose one entry is the message.
        if id_text.contains("arxiv.org/api/errors") || (title == "Error" && id_text.is_empty()) {
            let msg = entry
                .first_own("summary")
                .map(|e| e.clean_text())
                .unwrap_or_else(|| id_text.clone());
            bail!("the arXiv API answered with an error: {msg}");
        }
        if id_text.is_empty() {
            // Legacy answers pad id_list queries with blank entries for unknown ids.
            out.blank_entries += 1;
            continue;
        }
        let Some((id, version)) = PaperId::from_arxiv_ref(&id_text) else {
            out.warnings.push(format!(
                "entry with an id that is not an arXiv id: {id_text:?}"
            ));
            continue;
        };
        let version = version.unwrap_or(1);
        let published = entry
            .first_own("published")
            .and_then(|e| parse_date(&e.text()));
        let updated = entry
            .first_own("updated")
            .and_then(|e| parse_date(&e.text()));
        let Some(published) = published.or(updated) else {
            out.warnings
                .push(format!("{id}: no published date; left out"));
            continue;
        };
        let updated = updated.unwrap_or(published).max(published);
        let mut categories: Vec<String> = Vec::new();
        for c in entry.own("category") {
            if let Some(term) = c.attr("term").map(str::trim).filter(|t| !t.is_empty())
                && !categories.iter().any(|x| x == term)
            {
                categories.push(term.to_string());
            }
        }
        let primary_category = entry
            .first_in_ns(NS_ARXIV, "primary_category")
            .and_then(|e| e.attr("term"))
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .or_else(|| categories.first().cloned())
            .unwrap_or_default();
        if !primary_category.is_empty() {
            categories.retain(|c| c != &primary_category);
            categories.insert(0, primary_category.clone());
        }
        // arXiv lists MSC and ACM subject classes among the categories ("35", "I.2.7").
        let (categories, classes) = crate::site::taxonomy::split_terms(categories);
        let authors = entry
            .own("author")
            .filter_map(|a| {
                a.first_own("name")
                    .map(|n| super::text::latex_accents(&n.clean_text()))
            })
            .filter(|n| !n.is_empty())
            .collect();
        let field = |name: &str| {
            entry
                .first_in_ns(NS_ARXIV, name)
                .map(|e| fold_whitespace(&e.text()))
                .unwrap_or_default()
        };
        let mut links = Links {
            abs: format!("https://arxiv.org/abs/{id}"),
            pdf: format!("https://arxiv.org/pdf/{id}v{version}"),
        };
        // 2016 and 2026 answers title the PDF link; the Nov 2025 ones give only hrefs.
        // The abs link stays the unversioned canonical one.
        for link in entry.own("link") {
            let href = link.attr("href").unwrap_or("").trim();
            let is_pdf = link.attr("title") == Some("pdf") || href.contains("/pdf/");
            if is_pdf && !href.is_empty() {
                links.pdf = https(href);
            }
        }
        out.papers.push(Paper {
            id,
            version,
            title,
            authors,
            published,
            updated,
            primary_category,
            categories,
            abstract_text: entry
                .first_own("summary")
                .map(|e| e.clean_text())
                .unwrap_or_default(),
            comment: field("comment"),
            journal_ref: field("journal_ref"),
            doi: field("doi")
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string(),
            source: ctx.source_kind.to_string(),
            links,
            announced: None,
            announce_type: None,
            // The API states no licence: review reads it from the HTML rendition.
            license: String::new(),
            classes,
        });
    }
    Ok(())
}

fn https(url: &str) -> String {
    match url.strip_prefix("http://arxiv.org/") {
        Some(rest) => format!("https://arxiv.org/{rest}"),
        None => url.to_string(),
    }
}
