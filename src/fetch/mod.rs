//! `paperboy fetch`: sources -> paper records -> content files and weekly digests.

use crate::config::{Config, SourceConfig, SourceKind};
use crate::paper::Paper;
use crate::sources::http::HttpClient;
use crate::sources::{ParseContext, ParsedFeed, parse_document, xml};
use anyhow::{Result, bail};
use chrono::{DateTime, NaiveDate, Utc};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

mod feeds;
mod list_progress;
mod oai;
mod snapshot;
mod store;

use feeds::{CATCH_UP_AFTER, catch_up, fetch_arxiv_api, fetch_one};
use store::{apply, remove_stale_temporaries};

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
    let progress = crate::progress::Progress::new(opts.progress);
    match &opts.from {
        Some(from) if snapshot::is_snapshot(from) => {
            snapshot::ingest(root, content_dir, config, opts, from, &progress)
        }
        Some(from) => {
            let reports = read_saved(from, config.fetch.max_body_bytes, opts, &progress)?;
            progress.finish();
            apply(
                root,
                content_dir,
                config,
                opts,
                reports,
                &mut BTreeSet::new(),
            )
        }
        None => fetch_sources(root, content_dir, config, opts, &progress),
    }
}

/// The configured sources. Harvests write page by page as they go; the other sources'
/// papers are merged and written together after them.
fn fetch_sources(
    root: &Path,
    content_dir: &Path,
    config: &Config,
    opts: &FetchOptions,
    progress: &crate::progress::Progress,
) -> Result<FetchSummary> {
    if config.sources.is_empty() {
        bail!("paperboy.toml: no [[sources]] to fetch (or give --from FILE|DIR)");
    }
    let mut http = HttpClient::new(&config.fetch, Some(root.join(".cache").join("http")))?;
    if let Some(note) = opts.note {
        http = http.on_retry(note);
    }
    let mut state = crate::store::state::load(root)?;
    let mut harvested = FetchSummary::default();
    let mut reports: Vec<SourceReport> = Vec::new();
    for s in &config.sources {
        if s.kind == SourceKind::ArxivOai {
            let h = oai::harvest(
                root,
                content_dir,
                config,
                &mut http,
                s,
                opts,
                &mut state,
                progress,
            )?;
            harvested.absorb(h);
        } else {
            let last_ok = state.sources.get(&s.label()).map(|s| s.last_ok);
            reports.push(fetch_source(
                &mut http,
                s,
                content_dir,
                opts,
                last_ok,
                progress,
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
        content_dir,
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
    Ok(summary)
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
                Ok(bytes) => read_saved_document(&bytes, &label, opts, &mut report),
                Err(e) => report.error = Some(format!("{label}: {e:#}")),
            }
            bar.finish(report.entries);
            report
        })
        .collect())
}

/// One saved document: a feed, or an OAI-PMH page (a harvest kept on disk), told apart by
/// its root element and read as the harvester reads it.
fn read_saved_document(bytes: &[u8], label: &str, opts: &FetchOptions, report: &mut SourceReport) {
    let doc = match xml::parse(bytes) {
        Ok(doc) => doc,
        Err(e) => return report.error = Some(format!("{label}: not a feed: {e}")),
    };
    if doc.root.name != "OAI-PMH" {
        let mut ctx = ParseContext::new(label, opts.now);
        match parse_document(&doc, None, &mut ctx) {
            Ok((_, parsed)) => absorb(report, parsed),
            Err(e) => report.error = Some(format!("{label}: {e:#}")),
        }
        return;
    }
    match crate::sources::arxiv_oai::parse_document(&doc) {
        Ok(mut page) => match page.error.take() {
            None => *report = oai::page_report(label, &mut page),
            Some((code, message)) => {
                report.error = Some(format!("{label}: OAI error {code}: {message}"))
            }
        },
        Err(e) => report.error = Some(format!("{label}: {e}")),
    }
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
