//! `fetch --from FILE.jsonl[.gz]`: arXiv's metadata snapshot (Kaggle), streamed. Lines
//! are read and parsed in batches (on every core), filtered as any source's papers are,
//! and each batch is written as one journal, so memory stays that of one batch whatever
//! the file's size.

use super::store::{apply, keep};
use super::{FetchOptions, FetchSummary, SourceReport};
use crate::config::Config;
use crate::paper::{Paper, Week};
use crate::sources::arxiv_snapshot::parse_line;
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// Lines a batch holds: ~30 MB of the real snapshot's lines, and few enough journals
/// that writing each costs little beside its papers.
const BATCH_LINES: usize = 20_000;

/// Messages kept of each kind; the rest are counted.
const KEEP_LINES: usize = 1_000;

pub fn is_snapshot(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    path.is_file() && (name.ends_with(".jsonl") || name.ends_with(".json"))
}

/// Reads the snapshot at `path`. A file that ends early (a cut download) keeps the whole
/// lines before the break, and the break is a failure naming its line.
pub fn ingest(
    root: &Path,
    content_dir: &Path,
    config: &Config,
    opts: &FetchOptions,
    path: &Path,
    progress: &crate::progress::Progress,
) -> Result<FetchSummary> {
    let label = path.display().to_string();
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let gzipped = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    let reader: Box<dyn Read> = if gzipped {
        // The snapshot is sometimes shipped as concatenated gzip members.
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut reader = BufReader::with_capacity(1 << 20, reader);
    let bar = progress.source(&label);
    let mut summary = FetchSummary {
        sources: 1,
        ..Default::default()
    };
    let mut opened: BTreeSet<Week> = BTreeSet::new();
    let mut line_no = 0usize;
    let mut kept = 0usize;
    let mut dropped_messages = 0usize;
    let mut lines: Vec<(usize, String)> = Vec::with_capacity(BATCH_LINES);
    let mut broke = None;
    while broke.is_none() {
        lines.clear();
        broke = read_batch(&mut reader, &mut line_no, &mut lines);
        if lines.is_empty() {
            break;
        }
        let parsed: Vec<(usize, Result<Paper, String>)> = lines
            .par_iter()
            .map(|(n, line)| (*n, parse_line(line)))
            .collect();
        let mut papers = Vec::new();
        let mut warnings = Vec::new();
        for (n, paper) in parsed {
            match paper {
                Ok(p) if opts.max.is_some_and(|m| kept >= m) => drop(p),
                Ok(p) if keep(&p, &config.filter, opts.since) => {
                    kept += 1;
                    papers.push(p);
                }
                Ok(_) => summary.filtered_out += 1,
                Err(why) => warnings.push(format!("line {n}: {why}; left out")),
            }
        }
        let report = SourceReport {
            label: label.clone(),
            entries: lines.len(),
            papers,
            warnings,
            ..Default::default()
        };
        let mut written = apply(root, content_dir, config, opts, vec![report], &mut opened)?;
        // A whole arXiv is millions of lines: say the first thousand of each kind.
        for (kept_lines, new_lines) in [
            (&mut summary.changes, std::mem::take(&mut written.changes)),
            (&mut summary.warnings, std::mem::take(&mut written.warnings)),
            (
                &mut summary.frozen_weeks,
                std::mem::take(&mut written.frozen_weeks),
            ),
        ] {
            let room = KEEP_LINES.saturating_sub(kept_lines.len());
            dropped_messages += new_lines.len().saturating_sub(room);
            kept_lines.extend(new_lines.into_iter().take(room));
        }
        summary.absorb(written);
        bar.advance(&label, summary.entries);
        if opts.max.is_some_and(|m| kept >= m) {
            // What was asked for came before the break: the rest of the file is not wanted.
            broke = None;
            break;
        }
    }
    if let Some(Break { line, why }) = broke {
        summary.failed.push(format!(
            "{label}: the file breaks off in line {line} ({why}); the {} whole lines before it are read",
            line - 1
        ));
    }
    if dropped_messages > 0 {
        summary.warnings.push(format!(
            "{label}: {dropped_messages} more lines of changes and warnings not shown"
        ));
    }
    bar.finish(summary.entries);
    Ok(summary)
}

/// Where a file that ends early broke, and why.
struct Break {
    line: usize,
    why: String,
}

/// Reads up to a batch of lines (numbered from `line_no` on) into `lines`. A read that
/// fails (a gzip stream cut off) or a last line that stops inside its record ends the
/// file there; what was read of that line is not a record and is not kept.
fn read_batch(
    reader: &mut impl BufRead,
    line_no: &mut usize,
    lines: &mut Vec<(usize, String)>,
) -> Option<Break> {
    while lines.len() < BATCH_LINES {
        let mut line = String::new();
        let n = match reader.read_line(&mut line) {
            Ok(n) => n,
            Err(e) => {
                return Some(Break {
                    line: *line_no + 1,
                    why: e.to_string(),
                });
            }
        };
        if n == 0 {
            return None;
        }
        *line_no += 1;
        // Only the last line can lack its newline; a whole record there is still whole.
        if !line.ends_with('\n')
            && serde_json::from_str::<serde::de::IgnoredAny>(&line).is_err_and(|e| e.is_eof())
        {
            return Some(Break {
                line: *line_no,
                why: "it ends inside that line's record".into(),
            });
        }
        if !line.trim().is_empty() {
            lines.push((*line_no, line));
        }
    }
    None
}
