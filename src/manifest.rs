//! The build manifest: for every page of the last build, a fingerprint of everything it
//! was rendered from. The next build renders only the pages whose fingerprint changed and
//! keeps or links the others, so its output equals a full build.
//!
//! It lives beside the output folder (`.public.manifest`), names the output it
//! describes and the site-wide inputs (binary, config, templates). The site an
//! incremental build replaces is kept as the next build's standby folder, with the
//! manifest it had as `.public.standby.manifest`; each manifest exists only while it is
//! true of its folder. A manifest is postcard after a magic prefix: it lists every page
//! (125,000 at 100k papers), and two are read by every build.

use crate::output::{beside, remove_file};
use anyhow::{Context, Result};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

/// Bumped whenever what a fingerprint covers changes.
const FORMAT: u32 = 3;

/// What a manifest starts with.
const MAGIC: &[u8; 8] = b"pbmanif\n";

/// 128-bit fingerprints: collisions between two versions of a page are not a concern.
pub type Fingerprint = u128;

/// Hashes the parts of a page's inputs, each length-prefixed so parts cannot run together.
#[derive(Default)]
pub struct Hasher(Xxh3);

impl Hasher {
    pub fn new() -> Hasher {
        Hasher::default()
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Hasher {
        self.0.update(&(b.len() as u64).to_le_bytes());
        self.0.update(b);
        self
    }
    pub fn str(&mut self, s: &str) -> &mut Hasher {
        self.bytes(s.as_bytes())
    }
    pub fn num(&mut self, n: u128) -> &mut Hasher {
        self.0.update(&n.to_le_bytes());
        self
    }
    /// A value by its `Hash`, which derives stay in step with its fields; for values
    /// hashed often (a pager per author page), where serializing them cost more than the
    /// rest of the page's fingerprint.
    pub fn value(&mut self, v: &impl std::hash::Hash) -> &mut Hasher {
        v.hash(&mut self.0);
        self
    }
    pub fn finish(&self) -> Fingerprint {
        self.0.digest128()
    }
}

pub fn of_bytes(b: &[u8]) -> Fingerprint {
    xxhash_rust::xxh3::xxh3_128(b)
}

/// A manifest as stored: `P` is `String` when read, `&str` when written.
#[derive(Serialize, Deserialize)]
struct File<P> {
    format: u32,
    /// The output folder this manifest describes.
    output: PathBuf,
    /// Site-wide inputs: binary, config, templates, what every page sees.
    site: Fingerprint,
    /// Site-relative page path -> fingerprint.
    pages: Vec<(P, Fingerprint)>,
    /// What related papers and the search index are computed from (every paper's id,
    /// title, abstract, authors, categories, date), and the related papers it gave.
    corpus: Fingerprint,
    related: Vec<Vec<u32>>,
}

/// What the last build into an output folder left for the next one.
pub struct Previous {
    /// The site-wide inputs it was built from.
    pub site: Fingerprint,
    pub pages: FxHashMap<String, Fingerprint>,
    pub corpus: Fingerprint,
    pub related: Vec<Vec<usize>>,
}

/// Where the manifest of an output folder lives: beside it, hidden.
pub fn path_for(output: &Path) -> PathBuf {
    beside(output, "manifest")
}

/// The manifest of the standby folder (`output::standby_dir`).
fn standby_path(output: &Path) -> PathBuf {
    beside(output, "standby.manifest")
}

/// The manifest of the site being replaced, while the swap happens: trusted by nobody.
fn set_aside_path(output: &Path) -> PathBuf {
    beside(output, "manifest.replaced")
}

fn read(path: &Path, output: &Path) -> Option<File<String>> {
    let bytes = std::fs::read(path).ok()?;
    let file: File<String> = postcard::from_bytes(bytes.strip_prefix(MAGIC)?).ok()?;
    (file.format == FORMAT && file.output == absolute(output)).then_some(file)
}

/// What the previous build into this folder made, whatever it was built from (every
/// page's fingerprint covers the site-wide inputs). Anything unreadable means a full
/// build, never an error.
pub fn load(output: &Path) -> Option<Previous> {
    let file = read(&path_for(output), output)?;
    if !output.is_dir() {
        return None;
    }
    Some(Previous {
        site: file.site,
        pages: file.pages.into_iter().collect(),
        corpus: file.corpus,
        related: file
            .related
            .into_iter()
            .map(|list| list.into_iter().map(|i| i as usize).collect())
            .collect(),
    })
}

/// What the standby folder holds; none when its manifest is missing or unreadable.
pub fn read_standby(output: &Path) -> Option<FxHashMap<String, Fingerprint>> {
    read(&standby_path(output), output).map(|f| f.pages.into_iter().collect())
}

/// Removes the standby folder's manifest once it is read: the build about to change the
/// folder owns it from here, and a build that dies leaves no manifest claiming it.
pub fn release_standby(output: &Path) -> Result<()> {
    remove_file(&standby_path(output))
}

/// Called before the new site is swapped in: the manifest of the site it replaces is
/// moved aside, so that a build killed in between leaves no manifest (the next build is a
/// full one) rather than a wrong one.
pub fn set_aside(output: &Path) -> Result<()> {
    let (path, aside) = (path_for(output), set_aside_path(output));
    match std::fs::rename(&path, &aside) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => remove_file(&aside),
        other => other.with_context(|| format!("cannot move {} aside", path.display())),
    }
}

/// Called after the swap. When the replaced site was kept as the standby folder, the
/// manifest set aside before the swap now describes that folder; otherwise it describes
/// nothing and goes.
pub fn after_swap(output: &Path, replaced_is_standby: bool) -> Result<()> {
    let (aside, standby) = (set_aside_path(output), standby_path(output));
    if !replaced_is_standby {
        return remove_file(&aside);
    }
    std::fs::rename(&aside, &standby)
        .with_context(|| format!("cannot move {} to {}", aside.display(), standby.display()))
}

/// What `save` records.
pub struct Record<'a> {
    pub site: Fingerprint,
    pub pages: Vec<(String, Fingerprint)>,
    pub corpus: Fingerprint,
    pub related: &'a [Vec<usize>],
}

pub fn save(output: &Path, record: Record) -> Result<()> {
    let Record {
        site,
        mut pages,
        corpus,
        related,
    } = record;
    // Paths and fingerprints equal are the same entry: the unstable sort orders them as
    // the stable one would, on all cores.
    rayon::slice::ParallelSliceMut::par_sort_unstable(&mut pages[..]);
    pages.dedup();
    let file = File {
        format: FORMAT,
        output: absolute(output),
        site,
        pages: pages.iter().map(|(rel, fp)| (rel.as_str(), *fp)).collect(),
        corpus,
        related: related
            .iter()
            .map(|list| list.iter().map(|&i| i as u32).collect())
            .collect(),
    };
    let mut bytes = MAGIC.to_vec();
    bytes.extend(postcard::to_stdvec(&file).context("cannot serialize the build manifest")?);
    crate::store::atomic::write_atomic(&path_for(output), &bytes)?;
    // The JSON manifests earlier versions wrote: nothing reads them any more.
    for legacy in ["manifest.json", "standby.json", "manifest.replaced.json"] {
        remove_file(&beside(output, legacy))?;
    }
    Ok(())
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The running binary, by size and modification time: a new paperboy may render the same
/// inputs differently, so it starts from a full build.
pub fn binary_identity() -> String {
    std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| {
            let mtime = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            format!("{} {} {mtime}", env!("CARGO_PKG_VERSION"), m.len())
        })
        .unwrap_or_else(|_| format!("{} unknown", env!("CARGO_PKG_VERSION")))
}
