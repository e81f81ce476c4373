//! `kind = "arxiv-oai"`: OAI-PMH `ListRecords` harvesting, page by page. Each page's
//! papers are written (as one journal) before the harvest state moves on to the next
//! page's token, so a killed harvest resumes where it stopped and gives what an
//! uninterrupted one gives.

use super::list_progress::ListProgress;
use super::store::apply;
use super::{FetchOptions, FetchSummary, SourceReport};
use crate::config::{Config, SourceConfig};
use crate::paper::Week;
use crate::sources::arxiv_oai::{self, NO_VERSIONS, OaiPage};
use crate::sources::http::HttpClient;
use crate::store::state::{FetchState, HarvestState};
use anyhow::{Context, Result, bail};
use chrono::NaiveDate;
use std::collections::BTreeSet;
use std::path::Path;

/// arXiv's OAI-PMH endpoint since 2025 (export.arxiv.org/oai2 before).
const ARXIV_OAI: &str = "https://oaipmh.arxiv.org/oai";

/// All of arXiv is under 3M records in pages of 1,000 or more: a harvest that asks for
/// more pages than this is a server handing out tokens in a loop (one that says no
/// `completeListSize`, else `ListProgress` stops it long before).
const MAX_PAGES: usize = 10_000;

/// How often a page that came cut off (its XML ends early) is asked for again.
const CUT_PAGE_TRIES: u32 = 3;

/// Harvests one source. Any failure on the way (an OAI error, a server that keeps
/// failing, a page that could not be written) is in `failed`, with the pages written
/// before it kept and the state at the first unwritten page; an error is only a harvest
/// state that cannot be saved.
#[allow(clippy::too_many_arguments)]
pub fn harvest(
    root: &Path,
    content_dir: &Path,
    config: &Config,
    http: &mut HttpClient,
    source: &SourceConfig,
    opts: &FetchOptions,
    state: &mut FetchState,
    progress: &crate::progress::Progress,
) -> Result<FetchSummary> {
    let label = source.label();
    http.set_label(&label);
    let bar = progress.source(&label);
    let mut harvest = state.harvests.get(&label).cloned().unwrap_or_default();
    let mut summary = FetchSummary::default();
    let prefix = source.metadata_prefix.as_deref().unwrap_or("arXivRaw");
    if prefix != "arXivRaw" {
        summary
            .warnings
            .push(format!("{label}: metadataPrefix {prefix} {NO_VERSIONS}"));
    }
    let mut opened: BTreeSet<Week> = harvest
        .opened_weeks
        .iter()
        .filter_map(|w| Week::parse(w).ok())
        .collect();
    let mut kept = 0;
    let mut list = ListProgress::new(harvest.resumption_token.as_deref());
    let result = (|| -> Result<()> {
        if let Some(token) = &harvest.resumption_token
            && let Some(note) = opts.note
        {
            note(&format!(
                "{label}: resuming an unfinished harvest at resumptionToken {token}"
            ));
        }
        for _ in 0..MAX_PAGES {
            let url = page_url(source, prefix, &harvest)?;
            let mut page = get_page(http, &url, opts)?;
            if let Some((code, message)) = &page.error {
                match code.as_str() {
                    // Nothing changed in the window: a harvest that is done.
                    "noRecordsMatch" => {
                        finish(&mut harvest, &page, opts);
                        return Ok(());
                    }
                    "badResumptionToken" => {
                        // Tokens expire; the window is asked for again from its start
                        // next time (what is stored already merges as unchanged).
                        harvest.resumption_token = None;
                        harvest.opened_weeks.clear();
                        bail!(
                            "GET {url}: OAI error badResumptionToken: {message} (the harvest starts its window again on the next run)"
                        );
                    }
                    _ => bail!("GET {url}: OAI error {code}: {message}"),
                }
            }
            // A page that would not move the list on is not written: the harvest stands at
            // its request, as at any page that failed.
            if let Err(why) = list.next_page(&page) {
                let next_run = match &harvest.resumption_token {
                    Some(t) => format!("the next run asks with resumptionToken {t} again"),
                    None => "the next run starts its window again".into(),
                };
                bail!("GET {url}: {why}; the harvest stops here ({next_run})");
            }
            let papers = page.papers.len();
            let report = page_report(&label, &mut page);
            let written = apply(root, content_dir, config, opts, vec![report], &mut opened)?;
            summary.absorb(written);
            bar.advance(&label, summary.entries);
            kept += papers;
            match &page.resumption_token {
                Some(token) => {
                    harvest.resumption_token = Some(token.clone());
                    harvest.opened_weeks = opened.iter().map(Week::to_string).collect();
                }
                None => finish(&mut harvest, &page, opts),
            }
            if !opts.dry_run {
                state.harvests.insert(label.clone(), harvest.clone());
                crate::store::state::save(root, state)?;
            }
            if page.resumption_token.is_none() || opts.max.is_some_and(|m| kept >= m) {
                return Ok(());
            }
        }
        bail!("more than {MAX_PAGES} pages: the server keeps handing out resumption tokens")
    })();
    if let Err(e) = result {
        summary.failed.push(format!("{label}: {e:#}"));
    }
    if !opts.dry_run {
        state.harvests.insert(label, harvest);
        crate::store::state::save(root, state)?;
    }
    bar.finish(summary.entries);
    Ok(summary)
}

/// What a page gave, as any source's report; its token and date stay with the page.
pub(super) fn page_report(label: &str, page: &mut OaiPage) -> SourceReport {
    SourceReport {
        label: label.to_string(),
        entries: page.records,
        papers: std::mem::take(&mut page.papers),
        warnings: std::mem::take(&mut page.warnings),
        ..Default::default()
    }
}

/// The harvest reached the end of its list: the next one asks from this answer's day.
fn finish(harvest: &mut HarvestState, page: &OaiPage, opts: &FetchOptions) {
    harvest.resumption_token = None;
    harvest.opened_weeks.clear();
    harvest.harvested_until = Some(page.response_date.unwrap_or(opts.now).date_naive());
}

fn date_of(value: &Option<toml::value::Datetime>) -> Option<NaiveDate> {
    let d = value.as_ref()?.date?;
    NaiveDate::from_ymd_opt(d.year.into(), d.month.into(), d.day.into())
}

/// The next request: the token of an unfinished list, else a new list over the window.
fn page_url(source: &SourceConfig, prefix: &str, harvest: &HarvestState) -> Result<String> {
    let base = source.url.as_deref().unwrap_or(ARXIV_OAI);
    let mut params: Vec<(&str, String)> = vec![("verb", "ListRecords".into())];
    match &harvest.resumption_token {
        // OAI-PMH: a resumptionToken is the request's only argument besides the verb.
        Some(token) => params.push(("resumptionToken", token.clone())),
        None => {
            params.push(("metadataPrefix", prefix.into()));
            if let Some(set) = &source.set {
                params.push(("set", set.clone()));
            }
            if let Some(from) = harvest.harvested_until.or(date_of(&source.from)) {
                params.push(("from", from.to_string()));
            }
            if let Some(until) = date_of(&source.until) {
                params.push(("until", until.to_string()));
            }
        }
    }
    let url = reqwest::Url::parse_with_params(base, &params)
        .with_context(|| format!("bad OAI-PMH url {base:?}"))?;
    Ok(url.into())
}

/// GETs and reads one page. The client waits out 503 + Retry-After (arXiv's flow
/// control) and retries what fails in transit; a page whose XML ends early is asked for
/// again here, since its token comes last.
fn get_page(http: &mut HttpClient, url: &str, opts: &FetchOptions) -> Result<OaiPage> {
    let mut tries = 0;
    loop {
        tries += 1;
        // Tokens are good for one list; the answer is never asked for conditionally.
        let resp = http.get_once(url)?;
        if !(200..300).contains(&resp.status) {
            // OAI-PMH errors come with 200, but some servers send them with 4xx.
            if let Ok(page) = arxiv_oai::parse(&resp.body)
                && let Some((code, message)) = page.error
            {
                bail!(
                    "GET {url}: HTTP {}: OAI error {code}: {message}",
                    resp.status
                );
            }
            bail!("GET {url}: HTTP {}", resp.status);
        }
        match arxiv_oai::parse(&resp.body) {
            Ok(page) => return Ok(page),
            Err(why) if why.contains("broke off") && tries < CUT_PAGE_TRIES => {
                if let Some(note) = opts.note {
                    note(&format!(
                        "retry: GET {url}: {why}; asking again ({} of {CUT_PAGE_TRIES})",
                        tries + 1
                    ));
                }
            }
            Err(why) => bail!("GET {url}: {why}"),
        }
    }
}
