//! What the sources gave, merged into the store: one record per id, new papers and new
//! versions into their weeks' digests, all of it written as one journal.

use super::{FetchOptions, FetchSummary, SourceReport};
use crate::config::{Config, FilterConfig};
use crate::paper::{AnnounceType, Paper, PaperId, Week};
use crate::store::{MergeOutcome, digests, merge_records, papers};
use anyhow::{Context, Result};
use chrono::NaiveDate;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

pub(super) fn keep(p: &Paper, filter: &FilterConfig, since: Option<NaiveDate>) -> bool {
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
pub(super) fn apply(
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
    // The papers' files are one stage of the journal, the digests that list them the next.
    let papers_end = writes.len();
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
        crate::store::journal::commit(root, &writes, &[papers_end])?;
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
pub(super) fn remove_stale_temporaries(root: &Path, content_dir: &Path) -> Result<usize> {
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
