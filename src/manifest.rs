//! The build manifest: for every page of the last build, a fingerprint of everything it
//! was rendered from. The next build renders only the pages whose fingerprint changed and
//! keeps or links the others, so its output equals a full build.
//!
//! It lives beside the output folder (`.public.manifest`) and names the site-wide inputs
//! (binary, config, templates). It describes the folder beside it, wherever the two are: a
//! site moved or renamed with its manifest builds incrementally, as does a cache restored
//! at another path. The site an incremental build replaces is kept as the next build's
//! standby folder, with the manifest it had as `.public.standby.manifest`; each manifest
//! exists only while it is true of its folder. A manifest is postcard after a magic
//! prefix: it lists every page (125,000 at 100k papers), and two are read by every build.

use crate::output::{beside, remove_file};
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

/// Bumped whenever what a fingerprint covers, or what a manifest holds, changes.
const FORMAT: u32 = 5;

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

/// A manifest as stored: `P` is the page list, borrowed from the bytes when read.
#[derive(Serialize, Deserialize)]
struct File<P> {
    format: u32,
    /// Site-wide inputs: binary, config, templates, what every page sees.
    site: Fingerprint,
    /// Site-relative page path -> fingerprint and size in bytes, sorted by path.
    pages: P,
    /// What related papers and the search index are computed from (every paper's id,
    /// title, abstract, authors, categories, date), and the related papers it gave.
    corpus: Fingerprint,
    related: Vec<Vec<u32>>,
}

/// What the last build into an output folder left for the next one.
pub struct Previous {
    /// The site-wide inputs it was built from.
    pub site: Fingerprint,
    pub pages: Listed,
    pub corpus: Fingerprint,
    pub related: Vec<Vec<usize>>,
}

/// Files by site-relative path, each with the fingerprint it was made with and its size;
/// sorted by path, one entry per path. The sizes are what `build` reports of the site, and
/// checks against its host's limits, without reading the folder again. A site has 240,000 files at 100,000 papers and every build
/// holds two or three such lists: the paths are kept end to end in one string, which
/// takes half the memory of a `String` each.
#[derive(Default)]
pub struct Files {
    paths: String,
    /// Where each path ends in `paths`.
    ends: Vec<u32>,
    fingerprints: Vec<Fingerprint>,
    /// Bytes of each file.
    sizes: Vec<u64>,
}

/// One file of a list: its site-relative path, the fingerprint it was made with, its size.
pub type Entry<'a> = (&'a str, Fingerprint, u64);

impl Files {
    /// From entries sorted by path; a path listed twice (a static file over a page)
    /// counts as its last entry, as it did when the list was collected into a map.
    pub fn from_sorted<'a>(
        entries: impl IntoIterator<Item = Entry<'a>, IntoIter: Clone + ExactSizeIterator>,
    ) -> Files {
        let entries = entries.into_iter();
        let mut files = Files {
            paths: String::with_capacity(entries.clone().map(|(rel, _, _)| rel.len()).sum()),
            ends: Vec::with_capacity(entries.len()),
            fingerprints: Vec::with_capacity(entries.len()),
            sizes: Vec::with_capacity(entries.len()),
        };
        for (rel, fp, size) in entries {
            if !files.is_empty() && files.path(files.len() - 1) == rel {
                *files.fingerprints.last_mut().expect("not empty") = fp;
                *files.sizes.last_mut().expect("not empty") = size;
                continue;
            }
            files.paths.push_str(rel);
            files.ends.push(files.paths.len() as u32);
            files.fingerprints.push(fp);
            files.sizes.push(size);
        }
        files
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn path(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.paths[start..self.ends[i] as usize]
    }

    pub fn fingerprint(&self, i: usize) -> Fingerprint {
        self.fingerprints[i]
    }

    pub fn size(&self, i: usize) -> u64 {
        self.sizes[i]
    }

    /// Every file with its fingerprint and size, in order.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = Entry<'_>> + Clone {
        (0..self.len()).map(|i| (self.path(i), self.fingerprints[i], self.sizes[i]))
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, Fingerprint)> + Clone {
        (0..self.len()).map(|i| (self.path(i), self.fingerprints[i]))
    }

    /// The files whose path starts with `prefix`, in order.
    pub fn under(&self, prefix: &str) -> impl Iterator<Item = (&str, Fingerprint)> + Clone {
        let from = self.first(0, |rel| rel >= prefix);
        let to = self.first(from, |rel| !rel.starts_with(prefix));
        (from..to).map(|i| (self.path(i), self.fingerprints[i]))
    }

    /// The first index from `from` whose path is `past`, for a `past` that, once true,
    /// stays true for every later path.
    fn first(&self, from: usize, past: impl Fn(&str) -> bool) -> usize {
        let (mut lo, mut hi) = (from, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if past(self.path(mid)) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }
}

/// Writes the list as a sequence of `(path, fingerprint, size)`, which is what it reads
/// back as.
impl Serialize for Files {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.entries())
    }
}

/// The files a manifest lists, looked up by path. A build looks up every one of its files
/// here (240,000 at 100,000 papers): by a 128-bit hash of the path, like fingerprints too
/// wide for collisions to be a concern, so that a lookup reads no path string (reading
/// them was most of what keeping an unchanged file cost).
#[derive(Default)]
pub struct Listed {
    files: Files,
    /// `path_key` of each file.
    keys: Vec<u128>,
    /// Indexes into `keys` and `files`, hashed by key: 4 bytes a slot, where a map from
    /// key to fingerprint and index took 48.
    by_key: hashbrown::HashTable<u32>,
}

/// What a path is looked up by.
pub fn path_key(rel: &str) -> u128 {
    of_bytes(rel.as_bytes())
}

impl Listed {
    pub fn new(files: Files) -> Listed {
        use rayon::prelude::*;
        let keys: Vec<u128> = (0..files.len())
            .into_par_iter()
            .map(|i| path_key(files.path(i)))
            .collect();
        let mut by_key = hashbrown::HashTable::with_capacity(keys.len());
        for (i, &key) in keys.iter().enumerate() {
            by_key.insert_unique(key as u64, i as u32, |&j| keys[j as usize] as u64);
        }
        Listed {
            files,
            keys,
            by_key,
        }
    }

    /// Where `rel` is among the files, and its fingerprint; `key` is `path_key(rel)`.
    pub fn get(&self, key: u128) -> Option<(usize, Fingerprint)> {
        self.by_key
            .find(key as u64, |&i| self.keys[i as usize] == key)
            .map(|&i| (i as usize, self.files.fingerprints[i as usize]))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn files(&self) -> &Files {
        &self.files
    }
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

/// The manifest at `path`, if it is in this paperboy's format: its pages, and the rest.
fn read(path: &Path) -> Option<(Listed, File<()>)> {
    let bytes = std::fs::read(path).ok()?;
    let file: File<Vec<Entry>> = postcard::from_bytes(bytes.strip_prefix(MAGIC)?).ok()?;
    if file.format != FORMAT {
        return None;
    }
    let File {
        format,
        site,
        mut pages,
        corpus,
        related,
    } = file;
    // Saved sorted; sorting again only matters for a list from elsewhere.
    if !pages.is_sorted() {
        pages.sort_unstable();
    }
    let rest = File {
        format,
        site,
        pages: (),
        corpus,
        related,
    };
    Some((Listed::new(Files::from_sorted(pages.iter().copied())), rest))
}

/// What the previous build into this folder made, whatever it was built from (every
/// page's fingerprint covers the site-wide inputs). Anything unreadable means a full
/// build, never an error.
pub fn load(output: &Path) -> Option<Previous> {
    let (pages, file) = read(&path_for(output))?;
    if !output.is_dir() {
        return None;
    }
    Some(Previous {
        site: file.site,
        pages,
        corpus: file.corpus,
        related: file
            .related
            .into_iter()
            .map(|list| list.into_iter().map(|i| i as usize).collect())
            .collect(),
    })
}

/// What the standby folder holds; none when its manifest is missing or unreadable.
pub fn read_standby(output: &Path) -> Option<Listed> {
    read(&standby_path(output)).map(|(pages, _)| pages)
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
    pub pages: &'a Files,
    pub corpus: Fingerprint,
    pub related: &'a [Vec<usize>],
}

pub fn save(output: &Path, record: Record) -> Result<()> {
    let Record {
        site,
        pages,
        corpus,
        related,
    } = record;
    let file = File {
        format: FORMAT,
        site,
        pages,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(files: &[(&str, u128)]) -> Listed {
        let mut files = files.to_vec();
        files.sort_unstable();
        Listed::new(Files::from_sorted(
            files.iter().map(|&(rel, fp)| (rel, fp, 0)),
        ))
    }

    #[test]
    fn a_path_listed_twice_counts_as_its_last_entry_and_lookups_find_each_path() {
        // As saved: sorted by path, then fingerprint; `404.html` a page, then a static file.
        let l = listed(&[
            ("404.html", 1),
            ("404.html", 7),
            ("index.html", 3),
            ("papers/a/index.html", 4),
        ]);
        assert_eq!(l.len(), 3);
        assert_eq!(l.get(path_key("404.html")), Some((0, 7)));
        assert_eq!(l.get(path_key("index.html")), Some((1, 3)));
        assert_eq!(l.get(path_key("papers/a/index.html")), Some((2, 4)));
        assert_eq!(l.get(path_key("papers/b/index.html")), None);
        assert_eq!(l.files().path(0), "404.html");
        assert_eq!(l.files().fingerprint(0), 7);
        assert_eq!(l.files().path(2), "papers/a/index.html");
    }

    #[test]
    fn under_gives_the_files_below_a_prefix_in_order_whatever_order_they_came_in() {
        let l = listed(&[
            ("search/meta.json", 1),
            ("papers/x/index.html", 2),
            ("search/lex/ab.json", 3),
            ("searching.html", 4),
            ("search.html", 5),
            ("zzz.html", 6),
        ]);
        let under: Vec<&str> = l.files().under("search/").map(|(r, _)| r).collect();
        assert_eq!(under, ["search/lex/ab.json", "search/meta.json"]);
        assert_eq!(l.files().under("nothing/").count(), 0);
        assert_eq!(l.files().under("").count(), 6);
        assert_eq!(Listed::default().files().under("search/").count(), 0);
    }

    #[test]
    fn a_saved_manifest_reads_back_with_every_page_and_what_else_it_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let output = dir.path().join("public");
        std::fs::create_dir(&output).unwrap();
        let pages: Vec<(String, u128)> = (0..3000)
            .map(|i| (format!("papers/{i:05}/index.html"), i * 7 + 1))
            .collect();
        let entries: Vec<Entry> = pages
            .iter()
            .map(|(r, f)| (r.as_str(), *f, *f as u64 * 3))
            .collect();
        let files = Files::from_sorted(entries.iter().copied());
        let related = vec![vec![2, 1], vec![], vec![0]];
        let record = Record {
            site: 11,
            pages: &files,
            corpus: 13,
            related: &related,
        };
        save(&output, record).unwrap();
        let previous = load(&output).expect("the manifest just saved");
        assert_eq!((previous.site, previous.corpus), (11, 13));
        assert_eq!(previous.related, related);
        assert_eq!(previous.pages.len(), pages.len());
        for (i, (rel, fp)) in pages.iter().enumerate() {
            assert_eq!(previous.pages.get(path_key(rel)), Some((i, *fp)));
            assert_eq!(previous.pages.files().path(i), rel);
            assert_eq!(previous.pages.files().size(i), *fp as u64 * 3);
        }
        // Moved with its folder, it still describes it; without the folder, nothing.
        let moved = tempfile::tempdir().unwrap();
        let moved_output = moved.path().join("public");
        std::fs::rename(&output, &moved_output).unwrap();
        std::fs::rename(path_for(&output), path_for(&moved_output)).unwrap();
        assert!(load(&moved_output).is_some_and(|p| p.pages.len() == pages.len()));
        std::fs::remove_dir(&moved_output).unwrap();
        assert!(load(&moved_output).is_none());
    }
}
