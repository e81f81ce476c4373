//! rss.arxiv.org announcement feeds, RSS 2.0 and Atom flavours.

use super::text::{parse_date, split_authors};
use super::xml::{Element, NS_ARXIV, NS_DC, fold_whitespace};
use super::{ParseContext, ParsedFeed};
use crate::paper::{AnnounceType, Links, Paper, PaperId};
use anyhow::{Result, bail};

pub fn parse(root: &Element, ctx: &ParseContext, out: &mut ParsedFeed) -> Result<()> {
    let (container, item_name) = match root.first_own("channel") {
        Some(channel) => (channel, "item"),
        None => (root, "entry"),
    };
    let feed_title = container
        .first_own("title")
        .map(|t| t.clean_text())
        .unwrap_or_default();
    if feed_title.starts_with("Feed error for query") {
        bail!("arXiv RSS answered with an error feed: {feed_title}");
    }
    // Every item of a day's announcement shares the channel's date.
    let channel_date = container
        .first_own("pubDate")
        .or_else(|| container.first_own("updated"))
        .and_then(|e| parse_date(&e.text()));
    for item in container.own(item_name) {
        if !out.take_entry(item) {
            continue;
        }
        match parse_item(item, channel_date, ctx) {
            Ok(p) => out.papers.push(p),
            Err(e) => out.warnings.push(e.to_string()),
        }
    }
    Ok(())
}

fn parse_item(
    item: &Element,
    channel_date: Option<chrono::DateTime<chrono::Utc>>,
    ctx: &ParseContext,
) -> Result<Paper> {
    let description = item
        .first_own("description")
        .or_else(|| item.first_own("summary"))
        .map(|e| e.text())
        .unwrap_or_default();
    // "arXiv:2411.17700v1 Announce Type: new \nAbstract: ..."
    let (head, abstract_html) = match description.find("Abstract:") {
        Some(i) => (&description[..i], &description[i + "Abstract:".len()..]),
        None => ("", description.as_str()),
    };
    let guid = item
        .first_own("guid")
        .or_else(|| item.first_own("id"))
        .map(|e| e.clean_text())
        .unwrap_or_default();
    let link = item
        .first_own("link")
        .map(|l| {
            l.attr("href")
                .map(str::to_string)
                .unwrap_or_else(|| l.clean_text())
        })
        .unwrap_or_default();
    let (id, version) = PaperId::from_arxiv_ref(&guid)
        .or_else(|| PaperId::from_arxiv_ref(head))
        .or_else(|| PaperId::from_arxiv_ref(&link))
        .ok_or_else(|| anyhow::anyhow!("item without an arXiv id (guid {guid:?}); left out"))?;
    let version = version.unwrap_or(1);
    let announce_type = item
        .first_in_ns(NS_ARXIV, "announce_type")
        .map(|e| e.clean_text())
        .or_else(|| {
            head.split("Announce Type:")
                .nth(1)
                .map(|t| t.trim().to_string())
        })
        .and_then(|t| AnnounceType::parse(&t));
    let announced = item
        .first_own("pubDate")
        .or_else(|| item.first_own("published"))
        .and_then(|e| parse_date(&e.text()))
        .or(channel_date)
        .ok_or_else(|| anyhow::anyhow!("{id}: no announcement date; left out"))?;
    let mut categories: Vec<String> = Vec::new();
    for c in item.own("category") {
        let term = c
            .attr("term")
            .map(str::to_string)
            .unwrap_or_else(|| c.clean_text());
        let term = term.trim();
        if !term.is_empty() && !categories.iter().any(|x| x == term) {
            categories.push(term.to_string());
        }
    }
    let (categories, classes) = crate::site::taxonomy::split_terms(categories);
    let authors = item
        .in_ns(NS_DC, "creator")
        .flat_map(|c| split_authors(&c.text()))
        .collect();
    let doi = item
        .first_in_ns(NS_ARXIV, "DOI")
        .map(|e| e.clean_text())
        .and_then(|d| d.split_whitespace().next().map(str::to_string))
        .unwrap_or_default();
    let journal_ref = item
        .first_in_ns(NS_ARXIV, "journal_reference")
        .map(|e| fold_whitespace(&e.text()))
        .unwrap_or_default();
    Ok(Paper {
        links: Links {
            abs: format!("https://arxiv.org/abs/{id}"),
            pdf: format!("https://arxiv.org/pdf/{id}v{version}"),
        },
        id,
        version,
        title: item
            .first_own("title")
            .map(|e| e.clean_text())
            .unwrap_or_default(),
        authors,
        published: announced,
        updated: announced,
        primary_category: categories.first().cloned().unwrap_or_default(),
        categories,
        // arXiv descriptions are plain text (a `<` arrives escaped), not HTML.
        abstract_text: fold_whitespace(abstract_html),
        comment: String::new(),
        journal_ref,
        doi,
        source: ctx.source_kind.to_string(),
        announced: Some(announced),
        announce_type,
        license: item
            .first_in_ns(NS_DC, "rights")
            .and_then(|e| crate::license::canonical(&e.clean_text()))
            .unwrap_or_default(),
        classes,
    })
}
