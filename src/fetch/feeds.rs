//! The feeds fetched whole or paged: a feed document, the arXiv API's pages, and the API
//! catch-up of an announcement feed that missed days.

use super::{FetchOptions, SourceReport, absorb};
use crate::config::{SourceConfig, SourceKind};
use crate::sources::http::HttpClient;
use crate::sources::{ParseContext, ParsedFeed, parse_feed};
use crate::store::papers;
use anyhow::{Context, Result, bail};
use chrono::{DateTime, Utc};
use std::path::Path;

const ARXIV_API: &str = "https://export.arxiv.org/api/query";
const ARXIV_PAGE_MAX: usize = 2000;

/// A day's announcement feed lists that day's papers only: a fetch this long after the
/// last one may have missed a day.
pub(super) const CATCH_UP_AFTER: chrono::Duration = chrono::Duration::hours(26);

/// Asks the arXiv API for the papers of an announcement feed's categories submitted since
/// a few days before its last fetch (announcements run a day or more behind submissions,
/// and a weekend more), so the days a fetch missed still land in their weeks.
pub(super) fn catch_up(
    http: &mut HttpClient,
    source: &SourceConfig,
    content_dir: &Path,
    opts: &FetchOptions,
    last_ok: DateTime<Utc>,
    report: &mut SourceReport,
) -> Result<()> {
    if source.categories.is_empty() {
        return Ok(());
    }
    let from = last_ok - chrono::Duration::days(4);
    let cats: Vec<String> = source
        .categories
        .iter()
        .map(|c| format!("cat:{c}"))
        .collect();
    let query = format!(
        "({}) AND submittedDate:[{} TO {}]",
        cats.join(" OR "),
        from.format("%Y%m%d%H%M"),
        opts.now.format("%Y%m%d%H%M")
    );
    if let Some(note) = &opts.note {
        note(&format!(
            "{}: last fetched {}; asking the arXiv API for what was submitted since {}",
            report.label,
            last_ok.format("%Y-%m-%d %H:%M UTC"),
            from.format("%Y-%m-%d")
        ));
    }
    let api = SourceConfig {
        kind: SourceKind::Arxiv,
        query: Some(query),
        url: source.api_url.clone(),
        max_results: Some(ARXIV_PAGE_MAX),
        ..source.clone()
    };
    fetch_arxiv_api(http, &api, content_dir, opts, report)
}

/// GETs and parses one feed document, turning HTTP errors into errors that name the URL.
fn get_feed(
    http: &mut HttpClient,
    url: &str,
    source: &SourceConfig,
    opts: &FetchOptions,
) -> Result<(ParsedFeed, bool)> {
    let resp = http.get(url)?;
    let mut ctx = ParseContext {
        base_url: Some(url.to_string()),
        category: source.name.clone(),
        journal: source.journal.clone(),
        ..ParseContext::new(&source.label(), opts.now)
    };
    if !(200..300).contains(&resp.status) && resp.status != 304 {
        // arXiv states API errors in a feed served with 400; say what it says.
        if let Err(e) = parse_feed(&resp.body, Some(source.kind), &mut ctx)
            && e.to_string().contains("answered with an error")
        {
            bail!("GET {url}: HTTP {}: {e}", resp.status);
        }
        bail!("GET {url}: HTTP {}", resp.status);
    }
    let (_, parsed) = parse_feed(&resp.body, Some(source.kind), &mut ctx)
        .with_context(|| format!("GET {url}"))?;
    Ok((parsed, resp.not_modified))
}

pub(super) fn fetch_one(
    http: &mut HttpClient,
    url: &str,
    source: &SourceConfig,
    opts: &FetchOptions,
    report: &mut SourceReport,
) -> Result<()> {
    let (parsed, unchanged) = get_feed(http, url, source, opts)?;
    report.unchanged = unchanged;
    absorb(report, parsed);
    Ok(())
}

pub(super) fn fetch_arxiv_api(
    http: &mut HttpClient,
    source: &SourceConfig,
    content_dir: &Path,
    opts: &FetchOptions,
    report: &mut SourceReport,
) -> Result<()> {
    let wanted = source
        .max_results
        .unwrap_or(ARXIV_PAGE_MAX)
        .min(opts.max.unwrap_or(usize::MAX))
        .max(1);
    let page_size = wanted.min(ARXIV_PAGE_MAX);
    let base = source.url.as_deref().unwrap_or(ARXIV_API);
    let query = source.query.as_deref().unwrap_or("all");
    // arXiv sometimes answers with fewer entries than asked; allow some short pages, but
    // never loop without end.
    let max_pages = wanted.div_ceil(page_size) + 10 + EMPTY_PAGE_TRIES as usize;
    let mut seen_ids = std::collections::HashSet::new();
    let mut start = 0;
    let mut all_unchanged = true;
    // What the first page says the query matches: the papers to expect, up to `wanted`.
    let mut total: Option<usize> = None;
    let mut empty_tries = 0;
    let mut stopped_early = false;
    for _ in 0..max_pages {
        let url = reqwest::Url::parse_with_params(
            base,
            &[
                ("search_query", query.to_string()),
                ("sortBy", "submittedDate".to_string()),
                ("sortOrder", "descending".to_string()),
                ("start", start.to_string()),
                (
                    "max_results",
                    page_size
                        .min(wanted - report.papers.len().min(wanted))
                        .max(1)
                        .to_string(),
                ),
            ],
        )
        .with_context(|| format!("bad arXiv API url {base:?}"))?;
        let (parsed, unchanged) = get_feed(http, url.as_str(), source, opts)?;
        all_unchanged &= unchanged;
        if total.is_none() {
            total = parsed.total_results;
        }
        let expected = total.map_or(wanted, |t| t.min(wanted));
        let page_entries = parsed.entries;
        let page_papers = parsed.papers.len();
        if page_entries == 0 && start < expected {
            // Under load arXiv answers an empty page for one that has entries: ask again,
            // as arxiv.py does, after the delay the client keeps between requests.
            if empty_tries < EMPTY_PAGE_TRIES {
                empty_tries += 1;
                if let Some(note) = &opts.note {
                    note(&format!(
                        "retry: {}: GET {url}: an empty page at {start} of {expected}; asking again ({empty_tries} of {EMPTY_PAGE_TRIES})",
                        report.label
                    ));
                }
                continue;
            }
            break;
        }
        empty_tries = 0;
        // Stop early when the newest-first pages reach papers we hold or dates we skip.
        let reached_known = page_papers > 0
            && parsed.papers.iter().all(|p| {
                papers::read_stored(&papers::paper_path(content_dir, &p.id))
                    .ok()
                    .flatten()
                    .is_some_and(|(front, _)| front.version >= p.version)
            });
        let reached_since = opts.since.is_some_and(|since| {
            parsed
                .papers
                .iter()
                .any(|p| p.published.date_naive() < since)
        });
        let fresh = parsed
            .papers
            .iter()
            .filter(|p| seen_ids.insert(p.id.clone()))
            .count();
        absorb(report, parsed);
        start += page_entries;
        if page_papers == 0 || fresh == 0 || reached_known || reached_since {
            stopped_early = start < expected;
            break;
        }
        if report.papers.len() >= wanted || start >= expected {
            break;
        }
    }
    report.unchanged = all_unchanged && report.entries > 0;
    let expected = total.map_or(wanted, |t| t.min(wanted));
    if !stopped_early && start < expected {
        // What came is kept; the source is reported as failed so the run says so.
        bail!(
            "the arXiv API gave {start} of the {expected} entries expected (totalResults {}): paging ended early",
            total.map_or("unknown".into(), |t| t.to_string())
        );
    }
    Ok(())
}

/// How often an empty page of arXiv API results is asked for again.
const EMPTY_PAGE_TRIES: u32 = 3;
