//! Sources: fetching feeds over HTTP and turning their bytes into `Paper` records.

pub mod arxiv_api;
pub mod arxiv_oai;
pub mod arxiv_rss;
pub mod arxiv_snapshot;
pub mod feed;
pub mod http;
pub mod limits;
pub mod text;
pub mod xml;

use crate::config::SourceKind;
use crate::paper::Paper;
use anyhow::{Result, bail};
use chrono::{DateTime, Utc};

/// What a parser needs to know besides the bytes.
#[derive(Debug, Clone)]
pub struct ParseContext {
    pub source_kind: &'static str,
    /// Names the source in messages.
    pub source_name: String,
    /// The category of journal items that name none (a configured source's `name`);
    /// None falls back to the feed's title.
    pub category: Option<String>,
    /// The journal of a feed's items where neither they nor the feed name one (a
    /// configured feed's `journal`).
    pub journal: Option<String>,
    /// Resolves relative links when the feed names no base of its own.
    pub base_url: Option<String>,
    /// Date for items that carry none.
    pub now: DateTime<Utc>,
}

impl ParseContext {
    /// A context for a feed of unknown kind (the parser sets the kind it detects).
    pub fn new(source_name: &str, now: DateTime<Utc>) -> ParseContext {
        ParseContext {
            source_kind: "feed",
            source_name: source_name.to_string(),
            category: None,
            journal: None,
            base_url: None,
            now,
        }
    }
}

#[derive(Debug, Default)]
pub struct ParsedFeed {
    pub papers: Vec<Paper>,
    /// Entries seen, including those left out.
    pub entries: usize,
    pub blank_entries: usize,
    pub total_results: Option<usize>,
    pub warnings: Vec<String>,
}

impl ParsedFeed {
    /// Counts an entry; false (with a warning) for one the document broke off inside.
    pub fn take_entry(&mut self, entry: &xml::Element) -> bool {
        self.entries += 1;
        if !entry.complete {
            self.warnings
                .push("the last entry was cut off and was left out".into());
        }
        entry.complete
    }
}

/// Tells the three kinds apart by what the document says of itself.
pub fn detect(root: &xml::Element) -> Option<SourceKind> {
    match root.name.as_str() {
        "feed" => {
            let id = root
                .first_own("id")
                .map(|e| e.clean_text())
                .unwrap_or_default();
            if root
                .first_in_ns(xml::NS_OPENSEARCH, "totalResults")
                .is_some()
                || id.contains("arxiv.org/api")
            {
                Some(SourceKind::Arxiv)
            } else if root
                .own("entry")
                .any(|e| e.first_in_ns(xml::NS_ARXIV, "announce_type").is_some())
                || id.contains("rss.arxiv.org")
            {
                Some(SourceKind::ArxivRss)
            } else {
                Some(SourceKind::Feed)
            }
        }
        "rss" | "RDF" => {
            let channel = root.first_own("channel");
            let link = channel
                .and_then(|c| c.first_own("link"))
                .map(|l| l.clean_text())
                .unwrap_or_default();
            let is_arxiv = link.contains("rss.arxiv.org")
                || channel.is_some_and(|c| {
                    c.own("item")
                        .any(|i| i.first_in_ns(xml::NS_ARXIV, "announce_type").is_some())
                });
            Some(if is_arxiv {
                SourceKind::ArxivRss
            } else {
                SourceKind::Feed
            })
        }
        _ => None,
    }
}

/// Parses one feed document. `kind` None detects it. Never panics: a document that is
/// not a feed, or an XML error before any whole entry, is an error; an error after some
/// entries keeps them and says so in a warning.
pub fn parse_feed(
    bytes: &[u8],
    kind: Option<SourceKind>,
    ctx: &mut ParseContext,
) -> Result<(SourceKind, ParsedFeed)> {
    let doc = xml::parse(bytes).map_err(|e| anyhow::anyhow!("not a feed: {e}"))?;
    parse_document(&doc, kind, ctx)
}

/// `parse_feed` of a document already read: the fuzz target reads each input once and
/// gives it to every format's parser.
pub fn parse_document(
    doc: &xml::Document,
    kind: Option<SourceKind>,
    ctx: &mut ParseContext,
) -> Result<(SourceKind, ParsedFeed)> {
    let detected = detect(&doc.root);
    let kind = match (kind, detected) {
        (_, None) => bail!(
            "not a feed: the document's root element is <{}>",
            doc.root.name
        ),
        (Some(k), _) => k,
        (None, Some(k)) => k,
    };
    ctx.source_kind = kind.as_str();
    let mut out = ParsedFeed {
        warnings: doc.warnings.clone(),
        ..Default::default()
    };
    match kind {
        SourceKind::Arxiv => arxiv_api::parse(&doc.root, ctx, &mut out)?,
        SourceKind::ArxivRss => arxiv_rss::parse(&doc.root, ctx, &mut out)?,
        SourceKind::Feed => feed::parse(&doc.root, ctx, &mut out)?,
        SourceKind::ArxivOai => bail!("an OAI-PMH answer is read by the harvester (arxiv_oai)"),
    }
    if let Some(err) = &doc.error {
        if out.papers.is_empty() {
            bail!("broken XML at {err}");
        }
        out.warnings.push(format!(
            "broken XML at {err}; kept the {} whole entries before it",
            out.papers.len()
        ));
    }
    Ok((kind, out))
}
