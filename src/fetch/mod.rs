//! `paperboy fetch`: sources -> paper records -> content files and weekly digests.

use crate::config::{Config, FilterConfig, SourceConfig, SourceKind};
use crate::paper::{AnnounceType, Paper, PaperId, Week};
use crate::sources::http::HttpClient;
use crate::sources::{ParseContext, ParsedFeed, parse_feed};
use crate::store::{MergeOutcome, digests, merge_records, papers};
use anyhow::{Context, Result, bail};
use chrono::{DateTime, NaiveDate, Utc};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

mod oai;
mod snapshot;

#[derive(Debug, Clone)]
pub struct FetchOptions {
    pub from: Option<PathBuf>,
    pub since: Option<NaiveDate>,
    pub max: Option<usize>,
    pub dry_run: bool,
    pub now: DateTime<Utc>,
    pub progress: bool,
    /// Told of every retry, as a line to show (none: `-q`).
    pub note: Option<fn(&str)>,
}

/// What one source gave.
#[derive(Debug, Default)]
pub struct SourceReport {
    pub label: String,
    pub entries: usize,
    pub papers: Vec<Paper>,
    pub unchanged: bool,
    pub warnings: Vec<String>,
    pub error: Option<String>,
}

#[derive(Debug, Default)]
pub struct FetchSummary {
    pub sources: usize,
    pub entries: usize,
    pub new_papers: usize,
    pub updated: usize,
    pub duplicates: usize,
    pub filtered_out: usize,
    pub unchanged_feeds: usize,
    pub failed: Vec<String>,
    pub frozen_weeks: Vec<String>,
    /// What a source gave that was read with a repair, cut to bounds or left out.
    pub warnings: Vec<String>,
    pub files_written: usize,
    /// Temporary files of killed runs, removed.
    pub temporaries_removed: usize,
    /// Lines saying what would change, for `--dry-run`.
    pub changes: Vec<String>,
}

impl FetchSummary {
    /// Adds what a later step of the same run did (a harvest's next page, a snapshot's
    /// next batch); `sources` stays as counted.
    fn absorb(&mut self, other: FetchSummary) {
        self.entries += other.entries;
        self.new_papers += other.new_papers;
        self.updated += other.updated;
        self.duplicates += other.duplicates;
        self.filtered_out += other.filtered_out;
        self.unchanged_feeds += other.unchanged_feeds;
        self.failed.extend(other.failed);
        self.frozen_weeks.extend(other.frozen_weeks);
        self.warnings.extend(other.warnings);
        self.files_written += other.files_written;
        self.temporaries_removed += other.temporaries_removed;
        self.changes.extend(other.changes);
    }
}

impl std::fmt::Display for FetchSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural = |n: usize, one: &str, many: &str| {
            if n == 1 {
                format!("1 {one}")
            } else {
                format!("{n} {many}")
            }
        };
        write!(
            f,
            "{}: {}, {}, {} updated, {}",
            plural(self.sources, "source", "sources"),
            plural(self.entries, "entry", "entries"),
            plural(self.new_papers, "new paper", "new papers"),
            self.updated,
            plural(self.duplicates, "duplicate", "duplicates"),
        )?;
        if self.filtered_out > 0 {
            write!(f, ", {} filtered out", self.filtered_out)?;
        }
        if self.unchanged_feeds > 0 {
            write!(
                f,
                ", {} unchanged (304)",
                plural(self.unchanged_feeds, "feed", "feeds")
            )?;
        }
        if !self.failed.is_empty() {
            write!(f, ", {} failed", self.failed.len())?;
        }
        Ok(())
    }
}

pub fn run(root: &Path, config: &Config, opts: &FetchOptions) -> Result<FetchSummary> {
    let content_dir = root.join("content");
    let temporaries_removed = if opts.dry_run {
        0
    } else {
        remove_stale_temporaries(root, &content_dir)?
    };
    let mut summary = fetch(root, &content_dir, config, opts)?;
    summary.temporaries_removed = temporaries_removed;
    Ok(summary)
}

fn fetch(
    root: &Path,
    content_dir: &Path,
    config: &Config,
    opts: &FetchOptions,
) -> Result<FetchSummary> {
    let content_dir = content_dir.to_path_buf();
    let progress = crate::progress::Progress::new(opts.progress);
    let reports = match &opts.from {
        Some(from) if snapshot::is_snapshot(from) => {
            return snapshot::ingest(root, &content_dir, config, opts, from, &progress);
        }
        Some(from) => read_saved(from, config.fetch.max_body_bytes, opts, &progress)?,
        None => {
            if config.sources.is_empty() {
                bail!("paperboy.toml: no [[sources]] to fetch (or give --from FILE|DIR)");
            }
            let mut http = HttpClient::new(&config.fetch, Some(root.join(".cache").join("http")))?;
            if let Some(note) = opts.note {
                http = http.on_retry(note);
            }
            let mut state = crate::store::state::load(root)?;
            // Harvests write page by page as they go; the other sources' papers are
            // merged and written together after them.
            let mut harvested = FetchSummary::default();
            let mut reports: Vec<SourceReport> = Vec::new();
            for s in &config.sources {
                if s.kind == SourceKind::ArxivOai {
                    let h = oai::harvest(
                        root,
                        &content_dir,
                        config,
                        &mut http,
                        s,
                        opts,
                        &mut state,
                        &progress,
                    )?;
                    harvested.absorb(h);
                } else {
                    let last_ok = state.sources.get(&s.label()).map(|s| s.last_ok);
                    reports.push(fetch_source(
                        &mut http,
                        s,
                        &content_dir,
                        opts,
                        last_ok,
                        &progress,
                    ));
                }
            }
            progress.finish();
            let ok: Vec<String> = reports
                .iter()
                .filter(|r| r.error.is_none())
                .map(|r| r.label.clone())
                .collect();
            let mut summary = apply(
                root,
                &content_dir,
                config,
                opts,
                reports,
                &mut BTreeSet::new(),
            )?;
            summary.absorb(harvested);
            summary.sources = config.sources.len();
            if !opts.dry_run {
                for label in ok {
                    state.sources.insert(
                        label,
                        crate::store::state::SourceState { last_ok: opts.now },
                    );
                }
                crate::store::state::save(root, &state)?;
            }
            return Ok(summary);
        }
    };
    progress.finish();
    apply(
        root,
        &content_dir,
        config,
        opts,
        reports,
        &mut BTreeSet::new(),
    )
}

/// Reads saved feed files (a file, or every file below a folder, in name order).
fn read_saved(
    from: &Path,
    max_bytes: u64,
    opts: &FetchOptions,
    progress: &crate::progress::Progress,
) -> Result<Vec<SourceReport>> {
    let mut files: Vec<PathBuf> = if from.is_dir() {
        walkdir::WalkDir::new(from)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_file())
            .filter(|e| {
                matches!(
                    e.path().extension().and_then(|x| x.to_str()),
                    Some("xml" | "atom" | "rss" | "rdf")
                )
            })
            .map(|e| e.into_path())
            .collect()
    } else if from.is_file() {
        vec![from.to_path_buf()]
    } else {
        bail!("--from {}: no such file or folder", from.display());
    };
    files.sort();
    Ok(files
        .iter()
        .map(|path| {
            let label = path.display().to_string();
            let bar = progress.source(&label);
            let mut report = SourceReport {
                label: label.clone(),
                ..Default::default()
            };
            match read_capped(path, max_bytes) {
                // A saved OAI-PMH page (a harvest kept on disk) is read as the harvester
                // reads it.
                Ok(bytes) if is_oai_pmh(&bytes) => match crate::sources::arxiv_oai::parse(&bytes) {
                    Ok(page) if page.error.is_none() => {
                        report.entries += page.records;
                        report.papers.extend(page.papers);
                        report.warnings.extend(page.warnings);
                    }
                    Ok(page) => {
                        let (code, message) = page.error.unwrap_or_default();
                        report.error = Some(format!("{label}: OAI error {code}: {message}"));
                    }
                    Err(e) => report.error = Some(format!("{label}: {e}")),
                },
                Ok(bytes) => {
                    let mut ctx = ParseContext::new(&label, opts.now);
                    match parse_feed(&bytes, None, &mut ctx) {
                        Ok((_, parsed)) => absorb(&mut report, parsed),
                        Err(e) => report.error = Some(format!("{label}: {e:#}")),
                    }
                }
                Err(e) => report.error = Some(format!("{label}: {e:#}")),
            }
            bar.finish(report.entries);
            report
        })
        .collect())
}

/// Whether a document's root element is OAI-PMH's (within its first kilobyte or two, past
/// the declaration and comments).
fn is_oai_pmh(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(2048)];
    memchr::memmem::find(head, b"<OAI-PMH").is_some()
}

/// A saved feed, held to the same size limit as one fetched over HTTP.
fn read_capped(path: &Path, max_bytes: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        bail!("the file is larger than max_body_bytes ({max_bytes}); not read");
    }
    Ok(bytes)
}

fn absorb(report: &mut SourceReport, parsed: ParsedFeed) {
    report.entries += parsed.entries;
    report.papers.extend(parsed.papers);
    report.warnings.extend(parsed.warnings);
}

const ARXIV_API: &str = "https://export.arxiv.org/api/query";
const ARXIV_PAGE_MAX: usize = 2000;

fn fetch_source(
    http: &mut HttpClient,
    source: &SourceConfig,
    content_dir: &Path,
    opts: &FetchOptions,
    last_ok: Option<DateTime<Utc>>,
    progress: &crate::progress::Progress,
) -> SourceReport {
    let label = source.label();
    http.set_label(&label);
    let bar = progress.source(&label);
    let mut report = SourceReport {
        label: label.clone(),
        ..Default::default()
    };
    let result = match source.kind {
        SourceKind::Arxiv => fetch_arxiv_api(http, source, content_dir, opts, &mut report),
        SourceKind::ArxivRss => {
            let url = source.url.clone().unwrap_or_else(|| {
                format!("https://rss.arxiv.org/rss/{}", source.categories.join("+"))
            });
            fetch_one(http, &url, source, opts, &mut report).and_then(|()| match last_ok {
                Some(last) if source.catch_up && opts.now - last > CATCH_UP_AFTER => {
                    catch_up(http, source, content_dir, opts, last, &mut report)
                }
                _ => Ok(()),
            })
        }
        SourceKind::Feed => {
            let url = source.url.clone().unwrap_or_default();
            fetch_one(http, &url, source, opts, &mut report)
        }
        SourceKind::ArxivOai => Err(anyhow::anyhow!(
            "an OAI-PMH source is harvested page by page, not fetched whole"
        )),
    };
    if let Err(e) = result {
        report.error = Some(format!("{label}: {e:#}"));
    }
    bar.finish(report.entries);
    report
}

/// A day's announcement feed lists that day's papers only: a fetch this long after the
/// last one may have missed a day.
const CATCH_UP_AFTER: chrono::Duration = chrono::Duration::hours(26);

/// Asks the arXiv API for the papers of an announcement feed's categories submitted since
/// a few days before its last fetch (announcements run a day or more behind submissions,
/// and a weekend more), so the days a fetch missed still land in their weeks.
fn catch_up(
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

fn fetch_one(
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

fn fetch_arxiv_api(
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

fn keep(p: &Paper, filter: &FilterConfig, since: Option<NaiveDate>) -> bool {
    if let Some(since) = since
        && p.updated.date_naive() < since
    {
        return false;
    }
    let lower = |s: &str| s.to_lowercase();
    // Lower-cased only when a keyword asks: a bulk import passes millions of abstracts.
    let kw = filter.keywords.is_empty() || {
        let text = format!("{} {}", lower(&p.title), lower(&p.abstract_text));
        filter.keywords.iter().any(|k| text.contains(&lower(k)))
    };
    let au = filter.authors.is_empty()
        || filter.authors.iter().any(|a| {
            let a = lower(a);
            p.authors.iter().any(|x| lower(x).contains(&a))
        });
    let cat = filter.categories.is_empty()
        || filter
            .categories
            .iter()
            .any(|c| p.categories.iter().any(|x| x == c));
    kw && au && cat
}

/// Merges what the sources gave into the store and writes the changed files. `opened`
/// holds the digests a bulk import (a harvest, a snapshot) created in earlier steps: it
/// may go on filling them though their weeks are long past, and gains those this step
/// creates.
fn apply(
    root: &Path,
    content_dir: &Path,
    config: &Config,
    opts: &FetchOptions,
    reports: Vec<SourceReport>,
    opened: &mut BTreeSet<Week>,
) -> Result<FetchSummary> {
    let mut summary = FetchSummary {
        sources: reports.len(),
        ..Default::default()
    };
    // One record per id across sources, in the order the sources came.
    let mut incoming: BTreeMap<PaperId, Paper> = BTreeMap::new();
    for report in reports {
        summary.entries += report.entries;
        if report.unchanged {
            summary.unchanged_feeds += 1;
        }
        for w in &report.warnings {
            summary.warnings.push(format!("{}: {w}", report.label));
        }
        // A source that failed part of the way keeps what it gave (a shortfall of arXiv's
        // paging); one that gave nothing is only its error.
        if let Some(e) = report.error {
            summary.failed.push(e);
        }
        let mut kept = 0;
        for mut p in report.papers {
            for w in crate::sources::limits::bound(&mut p) {
                summary.warnings.push(format!("{}: {w}", report.label));
            }
            if opts.max.is_some_and(|m| kept >= m) || !keep(&p, &config.filter, opts.since) {
                summary.filtered_out += 1;
                continue;
            }
            kept += 1;
            match incoming.get(&p.id) {
                Some(known) => {
                    let (merged, _) = merge_records(known, &p);
                    summary.duplicates += 1;
                    incoming.insert(p.id.clone(), merged);
                }
                None => {
                    incoming.insert(p.id.clone(), p);
                }
            }
        }
    }
    let doi_index = doi_index_if_needed(content_dir, &incoming)?;
    let mut writes: Vec<(PathBuf, String)> = Vec::new();
    let mut new_by_week: BTreeMap<Week, Vec<&Paper>> = BTreeMap::new();
    let mut updated_by_week: BTreeMap<Week, Vec<String>> = BTreeMap::new();
    let mut merged_papers: Vec<&Paper> = Vec::new();
    // Reading each stored record and rendering its new text is most of a bulk import's
    // work and touches one file per paper: it runs on every core, in the store's order.
    let steps: Vec<Result<StoreStep>> = incoming
        .par_iter()
        .map(|(id, seen)| store_step(content_dir, &doi_index, id, seen))
        .collect();
    for ((id, seen), step) in incoming.iter().zip(steps) {
        match step? {
            StoreStep::KnownByDoi => summary.duplicates += 1,
            StoreStep::New(path, text) => {
                summary.new_papers += 1;
                summary.changes.push(format!("new {id}: {}", seen.title));
                writes.push((path, text));
                // A replacement announcement of a paper first seen now is not new
                // research: its week lists it with the updated papers.
                if matches!(
                    seen.announce_type,
                    Some(AnnounceType::Replace | AnnounceType::ReplaceCross)
                ) {
                    updated_by_week
                        .entry(Week::of(seen.first_seen()))
                        .or_default()
                        .push(id.to_string());
                } else {
                    merged_papers.push(seen);
                }
            }
            StoreStep::Same => summary.duplicates += 1,
            StoreStep::Refreshed(path, text) => {
                summary.duplicates += 1;
                summary.changes.push(format!("refresh {id}"));
                writes.push((path, text));
            }
            StoreStep::Updated { path, text, from } => {
                summary.updated += 1;
                summary
                    .changes
                    .push(format!("update {id} v{from} -> v{}", seen.version));
                let when = seen.announced.unwrap_or(seen.updated);
                updated_by_week
                    .entry(Week::of(when))
                    .or_default()
                    .push(id.to_string());
                writes.push((path, text));
            }
        }
    }
    for p in merged_papers {
        new_by_week
            .entry(Week::of(p.first_seen()))
            .or_default()
            .push(p);
    }
    let mut weeks: Vec<Week> = new_by_week
        .keys()
        .chain(updated_by_week.keys())
        .copied()
        .collect();
    weeks.sort();
    weeks.dedup();
    for week in weeks {
        let mut new: Vec<&Paper> = new_by_week.remove(&week).unwrap_or_default();
        // Display order: grouped by primary category, newest first inside a group.
        new.sort_by(|a, b| {
            (&a.primary_category, std::cmp::Reverse(a.published), &a.id).cmp(&(
                &b.primary_category,
                std::cmp::Reverse(b.published),
                &b.id,
            ))
        });
        let new_ids: Vec<String> = new.iter().map(|p| p.id.to_string()).collect();
        let updated_ids = updated_by_week.remove(&week).unwrap_or_default();
        let path = digests::digest_path(content_dir, week);
        let existing = match std::fs::read_to_string(&path) {
            Ok(t) => Some(t),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let grace = config.fetch.freeze_after_days;
        if existing.is_some() && week.is_frozen(opts.now, grace) && !opened.contains(&week) {
            let mut ids: Vec<&String> = new_ids.iter().chain(&updated_ids).collect();
            let count = ids.len();
            ids.truncate(20);
            let ids: Vec<&str> = ids.iter().map(|s| s.as_str()).collect();
            summary.frozen_weeks.push(format!(
                "{week} is frozen (it ended {}; freeze_after_days = {grace}): {count} papers not added to its digest: {}{}",
                week.end(),
                ids.join(", "),
                if count > ids.len() { ", …" } else { "" }
            ));
            continue;
        }
        if let Some(text) =
            digests::render(existing.as_deref(), week, &new_ids, &updated_ids, &path)?
        {
            summary.changes.push(format!(
                "digest {week}: +{} new, +{} updated",
                new_ids.len(),
                updated_ids.len()
            ));
            if existing.is_none() {
                opened.insert(week);
            }
            writes.push((path, text));
        }
    }
    if !opts.dry_run {
        // Papers before digests, and all of them or none (see store::journal).
        crate::store::journal::commit(root, &writes)?;
        summary.files_written = writes.len();
    }
    Ok(summary)
}

/// What a record seen by a source does to the store.
enum StoreStep {
    /// A journal item for a paper held under its arXiv id.
    KnownByDoi,
    New(PathBuf, String),
    Same,
    /// Same version; the record fills in what the stored one lacked.
    Refreshed(PathBuf, String),
    /// A newer version than the stored one (`from`).
    Updated {
        path: PathBuf,
        text: String,
        from: u32,
    },
}

fn store_step(
    content_dir: &Path,
    doi_index: &HashMap<String, PaperId>,
    id: &PaperId,
    seen: &Paper,
) -> Result<StoreStep> {
    if !id.is_arxiv()
        && !seen.doi.is_empty()
        && let Some(owner) = doi_index.get(&seen.doi.to_lowercase())
        && owner != id
    {
        return Ok(StoreStep::KnownByDoi);
    }
    let path = papers::paper_path(content_dir, id);
    let Some((front, text)) = papers::read_stored(&path)? else {
        let text = papers::render_new(seen);
        return Ok(StoreStep::New(path, text));
    };
    let (merged, outcome) = merge_records(&front.to_paper(), seen);
    Ok(match outcome {
        MergeOutcome::Same => StoreStep::Same,
        MergeOutcome::Refreshed => {
            let text = papers::render_update(&text, &merged, &path)?;
            StoreStep::Refreshed(path, text)
        }
        MergeOutcome::Updated => StoreStep::Updated {
            text: papers::render_update(&text, &merged, &path)?,
            path,
            from: front.version,
        },
    })
}

/// A run that was killed mid-write leaves `.paperboy-*.tmp` files beside its targets; the
/// next fetch (holding the site lock) clears every one of them under `content/`.
fn remove_stale_temporaries(root: &Path, content_dir: &Path) -> Result<usize> {
    let mut removed = 0;
    for (rel, path) in crate::walk::files_below(content_dir, root)? {
        if crate::walk::is_temporary(rel.rsplit('/').next().unwrap_or(&rel)) {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove {}", path.display()))?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// DOI -> id of every stored paper, built only when a journal item needs matching.
fn doi_index_if_needed(
    content_dir: &Path,
    incoming: &BTreeMap<PaperId, Paper>,
) -> Result<HashMap<String, PaperId>> {
    let mut index = HashMap::new();
    for p in incoming.values() {
        if p.id.is_arxiv() && !p.doi.is_empty() {
            index.insert(p.doi.to_lowercase(), p.id.clone());
        }
    }
    if !incoming
        .values()
        .any(|p| !p.id.is_arxiv() && !p.doi.is_empty())
    {
        return Ok(index);
    }
    let dir = content_dir.join("papers");
    if dir.is_dir() {
        for entry in walkdir::WalkDir::new(&dir).sort_by_file_name() {
            let entry = entry?;
            if entry.file_type().is_file()
                && entry.path().extension().is_some_and(|e| e == "md")
                && let Some((front, _)) = papers::read_stored(entry.path())?
                && !front.doi.is_empty()
            {
                index.entry(front.doi.to_lowercase()).or_insert(front.id);
            }
        }
    }
    Ok(index)
}
