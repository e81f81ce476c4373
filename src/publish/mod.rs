//! `paperboy publish`: `public/` to a bucket (any rclone remote), sending only what
//! changed since the last publish to it.
//!
//! What the remote holds is kept in a record on this machine (`record`); the build
//! manifest says which files the site has and what they were made from, so a file whose
//! fingerprint is the one recorded is not even read. The others are hashed, and those whose
//! bytes differ from what the remote holds are handed to rclone by name, one run per
//! header set (`headers`) and per batch; the record is brought up to date as each run is
//! confirmed. Files gone from the site are deleted last, once every new page they might
//! be linked from is in place. Without a record (a first publish, a fresh CI machine) the
//! remote is listed once, with its MD5s, and taken as the record: what is there already
//! and equal is not sent again, and what the site no longer has is deleted.

mod headers;
mod rclone;
mod record;

pub use headers::{Classifier, Headers, LASTING, REVALIDATE, content_type};

use crate::config::Config;
use crate::manifest::Fingerprint;
use anyhow::{Context, Result, anyhow, bail};
use md5::Digest;
use rayon::prelude::*;
use record::{Held, Record};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Files per rclone run: what a killed publish sends again at most, and what each run's
/// start-up (a second of the bucket's handshakes) is spread over.
const BATCH: usize = 1000;

pub struct Options {
    /// Say what would travel; send and delete nothing, write no record.
    pub dry_run: bool,
    pub progress: bool,
    /// Keep every path sent or deleted in the report (`-v`, `--dry-run`).
    pub list_changes: bool,
}

pub struct Report {
    pub remote: String,
    pub sent: usize,
    pub bytes: u64,
    pub deleted: usize,
    /// The remote was listed: this machine had no record of it.
    pub listed: bool,
    pub dry_run: bool,
    pub took: Duration,
    /// `send PATH` and `delete PATH`, in order, when asked for.
    pub changes: Vec<String>,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (sent, deleted) = if self.dry_run {
            ("would be sent", "would be deleted")
        } else {
            ("sent", "deleted")
        };
        write!(
            f,
            "publish: {} {} {sent} ({}), {} {deleted}, to {} in {:.1} s",
            self.sent,
            if self.sent == 1 { "file" } else { "files" },
            crate::host::bytes(self.bytes),
            self.deleted,
            self.remote,
            self.took.as_secs_f64()
        )?;
        if self.listed {
            write!(f, " (no record of this remote here: listed it)")?;
        }
        Ok(())
    }
}

/// A file the remote does not hold as the site has it.
struct Send<'a> {
    path: &'a str,
    held: Held,
}

pub fn run(root: &Path, config: &Config, opts: &Options) -> Result<Report> {
    let started = Instant::now();
    let publish = config.publish.as_ref().ok_or_else(|| {
        anyhow!("the config has no [publish] table: add one with remote = \"name:bucket/path\" (an rclone remote)")
    })?;
    let rclone = rclone::Rclone {
        binary: binary(root, publish.rclone.as_deref()),
        remote: publish.remote.clone(),
    };
    let output = root.join("public");
    let built = crate::manifest::load(&output).ok_or_else(|| {
        anyhow!(
            "{}: no build to publish (or its manifest is gone): run `paperboy build` first",
            output.display()
        )
    })?;
    let site = built.pages.files();
    if let Some(bad) = site
        .iter()
        .map(|(p, _)| p)
        .find(|p| p.contains(['\n', '\t']))
    {
        bail!(
            "{}: {bad:?}: a file name with a tab or a line break cannot be published",
            output.display()
        );
    }

    let mut listed = false;
    let mut record = match Record::load(record_path(root, &publish.remote), &publish.remote) {
        Some(r) => r,
        None => {
            listed = true;
            from_listing(&rclone, record_path(root, &publish.remote))?
        }
    };

    let sends = to_send(&output, site.entries(), &mut record)?;
    let in_site: HashSet<&str> = site.iter().map(|(p, _)| p).collect();
    let mut gone: Vec<String> = record
        .files
        .keys()
        .filter(|p| !in_site.contains(p.as_str()))
        .cloned()
        .collect();
    gone.sort_unstable();

    let mut report = Report {
        remote: publish.remote.clone(),
        sent: sends.len(),
        bytes: sends.iter().map(|s| size_of(s.held)).sum(),
        deleted: gone.len(),
        listed,
        dry_run: opts.dry_run,
        took: Duration::ZERO,
        changes: Vec::new(),
    };
    if opts.list_changes {
        report
            .changes
            .extend(sends.iter().map(|s| format!("send {}", s.path)));
        report
            .changes
            .extend(gone.iter().map(|p| format!("delete {p}")));
    }
    if opts.dry_run {
        report.took = started.elapsed();
        return Ok(report);
    }
    // What the listing or the hashing learnt is kept even if this run dies next.
    record.compact()?;

    let classifier = Classifier::new(site.iter().map(|(p, _)| p));
    let mut groups: BTreeMap<Headers, Vec<&Send>> = BTreeMap::new();
    for s in &sends {
        groups
            .entry(classifier.headers(s.path))
            .or_default()
            .push(s);
    }
    let progress = crate::progress::Progress::new(opts.progress);
    let bar = progress.bar((sends.len() + gone.len()) as u64, "publish");
    for (headers, files) in &groups {
        let content_type = format!("Content-Type: {}", headers.content_type);
        let cache_control = format!("Cache-Control: {}", headers.cache_control);
        for batch in files.chunks(BATCH) {
            let paths: Vec<&str> = batch.iter().map(|s| s.path).collect();
            record.append(
                &paths
                    .iter()
                    .map(|p| record::line_for(p, Held::Unknown))
                    .collect::<Vec<_>>(),
            )?;
            rclone.copy(&output, &paths, [&content_type, &cache_control])?;
            record.append(
                &batch
                    .iter()
                    .map(|s| record::line_for(s.path, s.held))
                    .collect::<Vec<_>>(),
            )?;
            if let Some(bar) = &bar {
                bar.inc(batch.len() as u64);
            }
        }
    }
    for batch in gone.chunks(BATCH) {
        let paths: Vec<&str> = batch.iter().map(String::as_str).collect();
        rclone.delete(&paths)?;
        record.append(
            &paths
                .iter()
                .map(|p| record::gone_line(p))
                .collect::<Vec<_>>(),
        )?;
        if let Some(bar) = &bar {
            bar.inc(batch.len() as u64);
        }
    }
    progress.finish();
    record.compact()?;
    report.took = started.elapsed();
    Ok(report)
}

/// `[publish] rclone`: a bare name is looked up on PATH, a path is the site's.
fn binary(root: &Path, configured: Option<&Path>) -> PathBuf {
    match configured {
        Some(p) if p.components().count() > 1 || p.is_absolute() => root.join(p),
        Some(p) => p.to_path_buf(),
        None => PathBuf::from("rclone"),
    }
}

/// `.cache/publish/<hash of the remote>.log`: one record per remote a site goes to.
fn record_path(root: &Path, remote: &str) -> PathBuf {
    let key = xxhash_rust::xxh3::xxh3_64(remote.as_bytes());
    root.join(".cache")
        .join("publish")
        .join(format!("{key:016x}.log"))
}

/// A record made from what the remote holds now: a file with an MD5 is known, one
/// without is sent again if the site has it.
fn from_listing(rclone: &rclone::Rclone, path: PathBuf) -> Result<Record> {
    let mut record = Record::new(path, &rclone.remote);
    for file in rclone.list()? {
        let held = match file.md5 {
            Some(md5) => Held::Known {
                md5,
                fingerprint: None,
                size: file.size,
            },
            None => Held::Unknown,
        };
        record.files.insert(file.path, held);
    }
    Ok(record)
}

fn size_of(held: Held) -> u64 {
    match held {
        Held::Known { size, .. } => size,
        Held::Unknown => 0,
    }
}

/// The site's files the remote does not hold as they are. A file whose build fingerprint
/// is the one recorded is taken as unchanged unread; the others are read and hashed, and
/// one whose bytes the remote already has only has its fingerprint noted.
fn to_send<'a>(
    output: &Path,
    files: impl Iterator<Item = (&'a str, Fingerprint, u64)>,
    record: &mut Record,
) -> Result<Vec<Send<'a>>> {
    let unsure: Vec<(&str, Fingerprint)> = files
        .filter(|&(path, fp, size)| {
            !matches!(record.files.get(path), Some(&Held::Known { fingerprint: Some(f), size: s, .. }) if f == fp && s == size)
        })
        .map(|(path, fp, _)| (path, fp))
        .collect();
    let hashed: Vec<(&str, Held)> = unsure
        .par_iter()
        .map(|&(path, fp)| {
            let file = output.join(path);
            let bytes = std::fs::read(&file).with_context(|| {
                format!(
                    "cannot read {} (rebuild with `paperboy build`)",
                    file.display()
                )
            })?;
            let held = Held::Known {
                md5: md5::Md5::digest(&bytes).into(),
                fingerprint: Some(fp),
                size: bytes.len() as u64,
            };
            Ok((path, held))
        })
        .collect::<Result<_>>()?;
    let mut sends = Vec::new();
    for (path, held) in hashed {
        let same = match (record.files.get(path), held) {
            (
                Some(Held::Known {
                    md5: a, size: n, ..
                }),
                Held::Known {
                    md5: b, size: m, ..
                },
            ) => *a == b && *n == m,
            _ => false,
        };
        if same {
            record.files.insert(path.to_string(), held);
        } else {
            sends.push(Send { path, held });
        }
    }
    Ok(sends)
}
