//! `paperboy snapshot`: an archival copy of the built site that can be checked years later:
//! a deterministic `.tar.gz` with `MANIFEST.sha256` inside (and beside it), and a WARC 1.1
//! file with one response record per file, addressed under `base_url`.
//!
//! Both are streamed to disk: the files are hashed first (on every core, for the manifest,
//! which comes first in the archive and names it), then read again as they are archived,
//! so memory stays flat however large the site; compression runs on every core
//! (`pgz`), with output that depends on the bytes alone.

mod pgz;
mod verify;
mod warc;

pub use verify::{VerifyReport, verify};

use crate::config::Config;
use crate::render::views::Urls;
use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

pub struct SnapshotReport {
    pub tar_gz: PathBuf,
    pub warc_gz: PathBuf,
    pub manifest: PathBuf,
    pub files: usize,
    pub tar_bytes: u64,
    pub warc_bytes: u64,
}

impl std::fmt::Display for SnapshotReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "snapshot of {} files: {} ({} bytes), {} ({} bytes)",
            self.files,
            self.tar_gz.display(),
            self.tar_bytes,
            self.warc_gz.display(),
            self.warc_bytes
        )
    }
}

/// A built site's files, in path order, with their sizes and hashes; and the archive's
/// own files, which are small and held.
struct SiteFiles {
    dir: PathBuf,
    files: Vec<SiteFile>,
    /// Not the site's: in the tar and the manifest, not served in the WARC.
    extra: Vec<(String, Vec<u8>)>,
}

struct SiteFile {
    rel: String,
    len: u64,
    sha256: [u8; 32],
}

impl SiteFiles {
    fn path(&self, f: &SiteFile) -> PathBuf {
        self.dir.join(&f.rel)
    }
}

/// Lists and hashes the files below `dir`, on every core, reading each once.
fn read_site(dir: &Path) -> Result<SiteFiles> {
    let rels: Vec<String> = crate::walk::files_below(dir, dir)?
        .into_iter()
        .map(|(rel, _)| rel)
        .collect();
    let files = rels
        .into_par_iter()
        .map(|rel| {
            let path = dir.join(&rel);
            let (len, sha256) =
                hash_file(&path).with_context(|| format!("cannot read {}", path.display()))?;
            Ok(SiteFile { rel, len, sha256 })
        })
        .collect::<Result<_>>()?;
    Ok(SiteFiles {
        dir: dir.to_path_buf(),
        files,
        extra: Vec::new(),
    })
}

fn hash_file(path: &Path) -> std::io::Result<(u64, [u8; 32])> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0; 64 * 1024];
    let mut len = 0;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        len += n as u64;
    }
    Ok((len, hasher.finalize().into()))
}

fn sha256_hex(bytes: &[u8]) -> String {
    data_encoding::HEXLOWER.encode(&Sha256::digest(bytes))
}

/// `sha256sum`-compatible lines: `<hex>  <path>`.
fn manifest(site: &SiteFiles) -> String {
    let mut out = String::new();
    for (rel, bytes) in &site.extra {
        out.push_str(&format!("{}  {rel}\n", sha256_hex(bytes)));
    }
    for f in &site.files {
        out.push_str(&format!(
            "{}  {}\n",
            data_encoding::HEXLOWER.encode(&f.sha256),
            f.rel
        ));
    }
    out
}

pub const MANIFEST_NAME: &str = "MANIFEST.sha256";

/// Where each figure of the site came from and under what terms: a librarian's answer to
/// "may we keep this?". Tab-separated, one line per figure, with a header.
pub const FIGURES_NAME: &str = "FIGURES.tsv";

/// The archive's fixed time: the newest `updated` of the content, so the same content
/// always gives the same bytes.
fn archive_time(site: &crate::site::Site) -> chrono::DateTime<chrono::Utc> {
    site.papers
        .iter()
        .map(|p| p.front.updated)
        .max()
        .unwrap_or(chrono::DateTime::UNIX_EPOCH)
}

/// `FIGURES.tsv`: the file in the site, the paper, where the image came from, its licence
/// and the credit the pages show.
fn figures_tsv(site: &crate::site::Site) -> String {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let mut out = String::from("file\tpaper\tsource\tlicense\tcredit\n");
    for p in &site.papers {
        let (Some(rel), Some(m)) = (crate::render::views::figure_rel(p), &p.front.machine) else {
            continue;
        };
        let paper = if p.front.id.is_arxiv() {
            format!("arXiv:{}", p.front.id)
        } else {
            p.front.id.to_string()
        };
        out.push_str(&format!(
            "{rel}\t{paper}\t{}\t{}\t{}\n",
            clean(&m.figure_source),
            clean(&p.front.license),
            clean(&crate::render::views::figure_credit(&p.front))
        ));
    }
    out
}

pub fn run(root: &Path, config: &Config, out_dir: &Path) -> Result<SnapshotReport> {
    // The site is built where `paperboy build` puts it, as that would: what an earlier
    // build left that is still current is kept, not made again, and what is archived is
    // the site the content gives now (an incremental build is byte for byte a full one).
    let built = root.join("public");
    let (_, (when, figures)) = crate::build::run_then(
        root,
        config,
        &built,
        &crate::build::Options {
            incremental: true,
            remove_temporaries: true,
            ..Default::default()
        },
        |site| (archive_time(site), figures_tsv(site)),
    )?;
    let mut site = read_site(&built)?;
    if site
        .files
        .iter()
        .any(|f| f.rel == FIGURES_NAME || f.rel == MANIFEST_NAME)
    {
        bail!(
            "the site has a file named {FIGURES_NAME} or {MANIFEST_NAME} at its top, which the snapshot's own would hide; rename it"
        );
    }
    // Archived beside the site's files and listed in the manifest, under a name no page has.
    site.extra = vec![(FIGURES_NAME.to_string(), figures.into_bytes())];
    let manifest_text = manifest(&site);
    let stem = format!(
        "{}-{}",
        when.format("%Y-%m-%d"),
        &sha256_hex(manifest_text.as_bytes())[..12]
    );
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    let tar_gz = out_dir.join(format!("site-{stem}.tar.gz"));
    let warc_gz = out_dir.join(format!("site-{stem}.warc.gz"));
    let manifest_path = out_dir.join(format!("site-{stem}.sha256"));
    let tar_bytes = write_whole(&tar_gz, |w| {
        write_tar_gz(w, &site, &manifest_text, when.timestamp().max(0) as u64)
    })?;
    let warc_bytes = write_whole(&warc_gz, |w| {
        warc::write(w, &site, &Urls::new(&config.base_url), when)
    })?;
    crate::store::atomic::write_atomic(&manifest_path, manifest_text.as_bytes())?;
    Ok(SnapshotReport {
        tar_gz,
        warc_gz,
        manifest: manifest_path,
        files: site.files.len(),
        tar_bytes,
        warc_bytes,
    })
}

/// Streams a file into place: written beside `path` under a temporary name, synced and
/// renamed, so a killed snapshot leaves no half archive under the final name.
fn write_whole(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<std::fs::File>) -> Result<()>,
) -> Result<u64> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = tempfile::Builder::new()
        .prefix(".paperboy-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    let mut w = BufWriter::with_capacity(1 << 20, tmp.reopen()?);
    write(&mut w).with_context(|| format!("cannot write {}", path.display()))?;
    let file = w.into_inner().map_err(|e| e.into_error())?;
    // Temporary files are private; an archive is not.
    file.set_permissions(crate::store::atomic::default_permissions())?;
    file.sync_all()?;
    let len = file.metadata()?.len();
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(len)
}

fn write_tar_gz(
    out: &mut impl Write,
    site: &SiteFiles,
    manifest_text: &str,
    mtime: u64,
) -> Result<()> {
    let mut tar = tar::Builder::new(pgz::ParallelGz::new(out));
    tar.mode(tar::HeaderMode::Deterministic);
    let header = |len: u64| {
        let mut header = tar::Header::new_ustar();
        header.set_size(len);
        header.set_mode(0o644);
        header.set_mtime(mtime);
        header.set_uid(0);
        header.set_gid(0);
        header.set_entry_type(tar::EntryType::Regular);
        header
    };
    let mut append = |path: &str, len: u64, data: &mut dyn Read| -> Result<()> {
        tar.append_data(&mut header(len), path, data)
            .with_context(|| format!("cannot archive {path}"))
    };
    append(
        MANIFEST_NAME,
        manifest_text.len() as u64,
        &mut manifest_text.as_bytes(),
    )?;
    for (rel, bytes) in &site.extra {
        append(rel, bytes.len() as u64, &mut bytes.as_slice())?;
    }
    for f in &site.files {
        let path = site.path(f);
        let file = std::fs::File::open(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        // Exactly the bytes hashed: a file that changed since would not match its header.
        append(&f.rel, f.len, &mut file.take(f.len))?;
    }
    let gz = tar.into_inner().context("cannot finish the tar archive")?;
    gz.finish().context("cannot finish gzip")?;
    Ok(())
}
