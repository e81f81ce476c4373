//! Any RSS 0.9x/1.0/2.0 or Atom 1.0 journal or preprint feed.

use super::text::{
    extract_doi, html_to_text, parse_date, set_apart_run_in_headings, spelled_out_characters,
    split_authors,
};
use super::xml::{Element, NS_CONTENT, NS_DC};
use super::{ParseContext, ParsedFeed};
use crate::paper::{Links, Paper, PaperId};
use anyhow::Result;

pub fn parse(root: &Element, ctx: &ParseContext, out: &mut ParsedFeed) -> Result<()> {
    let (container, item_name) = match root.name.as_str() {
        "feed" => (root, "entry"),
        // RSS 1.0 puts items beside the channel, RSS 2.0 inside it.
        "RDF" => (root, "item"),
        _ => (root.first_own("channel").unwrap_or(root), "item"),
    };
    let feed_link = container
        .own("link")
        .find_map(|l| match l.attr("href") {
            Some(h) if l.attr("rel").is_none_or(|r| r == "alternate") => Some(h.to_string()),
            Some(_) => None,
            None => Some(l.clean_text()),
        })
        .unwrap_or_default();
    // Relative links resolve against where the feed came from, else its self link or id.
    let self_link = container
        .own("link")
        .find(|l| l.attr("rel") == Some("self"))
        .and_then(|l| l.attr("href"))
        .map(str::to_string)
        .or_else(|| container.first_own("id").map(|e| e.clean_text()));
    let origin = ctx
        .base_url
        .as_deref()
        .or(self_link.as_deref())
        .and_then(|u| reqwest::Url::parse(u).ok());
    // Items that name no category are filed under the source's configured name, else
    // under the feed's own title, else its host: never under where the bytes came from,
    // which for `fetch --from` is a path on the maintainer's disk.
    let feed_title = container
        .first_own("title")
        .or_else(|| root.first_own("channel").and_then(|c| c.first_own("title")))
        .map(|t| t.clean_text())
        .filter(|t| !t.is_empty());
    let feed_host = [Some(feed_link.as_str()), self_link.as_deref()]
        .into_iter()
        .flatten()
        .find_map(|u| reqwest::Url::parse(u).ok()?.host_str().map(str::to_string));
    let fallback_category = ctx
        .category
        .clone()
        .or_else(|| feed_title.clone())
        .or_else(|| feed_host.clone());
    // What names the feed in ids of items that carry no id or link of their own: what the
    // feed says of itself, so the same item gets the same id from a saved copy.
    let feed_key = self_link
        .clone()
        .filter(|l| !l.is_empty())
        .or_else(|| (!feed_link.is_empty()).then(|| feed_link.clone()))
        .or(feed_title)
        .unwrap_or_default();
    // The journal of items that name none: the one the feed names for all its items
    // (bioRxiv's channel says "bioRxiv"), else the one the maintainer configured for a
    // feed that names none.
    let feed_journal = publication_name(container)
        .or_else(|| root.first_own("channel").and_then(publication_name))
        .or_else(|| ctx.journal.clone());
    // A licence the feed states for all its items, where an item states none.
    let feed_rights = rights_of(container).or_else(|| rights_of(root));
    let base = match origin {
        Some(o) => o.join(&feed_link).ok().or(Some(o)),
        None => reqwest::Url::parse(&feed_link).ok(),
    };
    for (position, item) in container.own(item_name).enumerate() {
        if !out.take_entry(item) {
            continue;
        }
        match parse_item(
            item,
            base.as_ref(),
            fallback_category.as_deref(),
            feed_journal.as_deref(),
            &feed_key,
            ctx,
        ) {
            Some(mut p) => {
                if p.license.is_empty()
                    && let Some(license) = &feed_rights
                {
                    p.license = license.clone();
                }
                out.papers.push(p)
            }
            None => out.warnings.push(format!(
                "item {} has no title, link, id or text to tell it apart; left out",
                position + 1
            )),
        }
    }
    if out.entries == 0 {
        out.warnings.push(format!(
            "no <{item_name}> in this <{}> document: nothing to read",
            root.name
        ));
    }
    Ok(())
}

/// Text of a field that may carry escaped HTML, CDATA HTML or raw child elements.
fn html_field(e: &Element) -> String {
    if e.has_element_children() {
        html_to_text(&e.inner_markup())
    } else {
        let t = e.text();
        if looks_like_html(&t) {
            html_to_text(&t)
        } else {
            super::xml::fold_whitespace(&t)
        }
    }
}

fn looks_like_html(s: &str) -> bool {
    let b = s.as_bytes();
    b.windows(2)
        .any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || w[1] == b'/' || w[1] == b'!'))
        || s.contains("&lt;")
        || s.contains("&amp;")
}

fn parse_item(
    item: &Element,
    base: Option<&reqwest::Url>,
    fallback_category: Option<&str>,
    feed_journal: Option<&str>,
    feed_key: &str,
    ctx: &ParseContext,
) -> Option<Paper> {
    let title = item
        .first_own("title")
        .or_else(|| item.first_in_ns(NS_DC, "title"))
        .map(html_field)
        .unwrap_or_default();
    let raw_link = item
        .own("link")
        .find_map(|l| match l.attr("href") {
            Some(h) if l.attr("rel").is_none_or(|r| r == "alternate") => Some(h.trim().to_string()),
            Some(_) => None,
            None => Some(l.clean_text()),
        })
        .unwrap_or_default();
    let link = match (base, raw_link.is_empty()) {
        (Some(b), false) => b.join(&raw_link).map(|u| u.to_string()).unwrap_or(raw_link),
        _ => raw_link,
    };
    let guid = item
        .first_own("guid")
        .or_else(|| item.first_own("id"))
        .map(|e| e.clean_text())
        .or_else(|| item.attr("rdf:about").map(str::to_string))
        .unwrap_or_default();
    let abstract_text = item
        .first_own("summary")
        .or_else(|| item.first_own("description"))
        .or_else(|| item.first_in_ns(NS_CONTENT, "encoded"))
        .or_else(|| item.first_own("content"))
        .map(html_field)
        .map(set_apart_run_in_headings)
        .unwrap_or_default();
    if title.is_empty() && link.is_empty() && guid.is_empty() && abstract_text.is_empty() {
        return None;
    }
    // prism:doi is matched by local name: OUP binds the prefix to the URI "prism".
    let doi = item
        .elements()
        .filter(|e| e.name == "doi" || (e.name == "identifier" && e.ns == NS_DC))
        .find_map(|e| extract_doi(&e.clean_text()))
        .or_else(|| extract_doi(&guid))
        .or_else(|| extract_doi(&link))
        .unwrap_or_default();
    let arxiv_link = link.contains("arxiv.org");
    let id = PaperId::from_arxiv_ref(&link)
        .filter(|_| arxiv_link)
        .map(|(id, _)| id)
        .or_else(|| PaperId::from_doi(&doi))
        .unwrap_or_else(|| {
            PaperId::from_item_key(&item_key(
                &guid,
                &link,
                item,
                &title,
                &abstract_text,
                feed_key,
            ))
        });
    // After the id, which an item's key may read the text for: a key stays as it was.
    let (title, abstract_text) = if arxiv_link {
        (title, abstract_text)
    } else {
        (
            spelled_out_characters(title),
            spelled_out_characters(abstract_text),
        )
    };
    let mut authors: Vec<String> = item
        .in_ns(NS_DC, "creator")
        .flat_map(|c| split_authors(&c.text()))
        .collect();
    for a in item.own("author") {
        let name = a
            .first_own("name")
            .map(|n| n.clean_text())
            .unwrap_or_else(|| a.clean_text());
        if !name.is_empty() {
            authors.push(name);
        }
    }
    let date_of = |name: &'static str| item.own(name).find_map(|e| parse_date(&e.text()));
    let published = date_of("published")
        .or_else(|| date_of("pubDate"))
        .or_else(|| {
            item.in_ns(NS_DC, "date")
                .find_map(|e| parse_date(&e.text()))
        })
        .or_else(|| {
            item.elements()
                .filter(|e| e.name == "publicationDate")
                .find_map(|e| parse_date(&e.text()))
        })
        .or_else(|| date_of("updated"))
        // Atom 0.3's names.
        .or_else(|| date_of("issued"))
        .or_else(|| date_of("created"))
        .or_else(|| date_of("modified"))
        .unwrap_or(ctx.now);
    let updated = date_of("updated")
        .or_else(|| date_of("modified"))
        .unwrap_or(published)
        .max(published);
    let mut categories: Vec<String> = item
        .own("category")
        .map(|c| {
            c.attr("term")
                .map(str::to_string)
                .unwrap_or_else(|| c.clean_text())
        })
        .filter(|c| !c.is_empty())
        .collect();
    categories.dedup();
    if categories.is_empty() {
        // Else the item's own host: a journal's site names it better than nothing does.
        let host = reqwest::Url::parse(&link)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string));
        categories.push(match (fallback_category, host) {
            (Some(c), _) => c.to_string(),
            (None, Some(h)) => h,
            (None, None) => "uncategorized".into(),
        });
    }
    // An arXiv paper's journal reference is arXiv's to give, however the feed links it
    // (an /html/ link, arXiv's own DOI).
    let from_arxiv =
        id.is_arxiv() || arxiv_link || doi.to_ascii_lowercase().starts_with("10.48550/");
    let journal_ref = match from_arxiv {
        true => String::new(),
        false => publication_name(item)
            .or_else(|| feed_journal.map(str::to_string))
            .unwrap_or_default(),
    };
    Some(Paper {
        id,
        version: 1,
        title,
        authors,
        published,
        updated,
        primary_category: categories[0].clone(),
        categories,
        abstract_text,
        comment: String::new(),
        journal_ref,
        doi,
        source: ctx.source_kind.to_string(),
        links: Links {
            abs: link,
            pdf: String::new(),
        },
        announced: None,
        announce_type: None,
        license: rights_of(item).unwrap_or_default(),
        classes: Vec::new(),
    })
}

/// `prism:publicationName`, matched by local name as `prism:doi` is: the journal's name,
/// which the paper pages give reference managers (`citation_journal_title`).
fn publication_name(e: &Element) -> Option<String> {
    e.elements()
        .filter(|c| c.name == "publicationName")
        .map(|c| c.clean_text())
        .find(|name| !name.is_empty())
}

/// `dc:rights`, Atom's `rights` or a `license` element, when it names a licence.
fn rights_of(e: &Element) -> Option<String> {
    e.in_ns(NS_DC, "rights")
        .chain(e.own("rights"))
        .chain(e.own("license"))
        .find_map(|r| crate::license::canonical(&r.clean_text()))
}

/// What names an item that has no arXiv id or DOI: its feed id, else its link, else what
/// it says (title, date, text) and which feed said it. Two different items never share a
/// key; the same item read again, from the network or a saved copy, gets the same one.
fn item_key(
    guid: &str,
    link: &str,
    item: &Element,
    title: &str,
    abstract_text: &str,
    feed_key: &str,
) -> String {
    if !guid.is_empty() {
        return guid.to_string();
    }
    if !link.is_empty() {
        return link.to_string();
    }
    let date = [
        "published",
        "pubDate",
        "updated",
        "issued",
        "created",
        "modified",
    ]
    .iter()
    .find_map(|name| item.own(name).next().map(|e| e.clean_text()))
    .or_else(|| item.in_ns(NS_DC, "date").next().map(|e| e.clean_text()))
    .unwrap_or_default();
    // Separators that cannot occur in folded text keep ("ab", "c") apart from ("a", "bc").
    format!("content\u{1}{feed_key}\u{1}{title}\u{1}{date}\u{1}{abstract_text}")
}
