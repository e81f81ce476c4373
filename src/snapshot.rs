//! `paperboy snapshot`: an archival copy of the built site that can be checked years later:
//! a deterministic `.tar.gz` with `MANIFEST.sha256` inside (and beside it), and a WARC 1.1
//! file with one response record per file, addressed under `base_url`.

use crate::config::Config;
use crate::render::views::Urls;
use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
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

/// A built site read into memory, in path order, and the archive's own files.
struct SiteFiles {
    files: Vec<(String, Vec<u8>)>,
    /// Not the site's: in the tar and the manifest, not served in the WARC.
    extra: Vec<(String, Vec<u8>)>,
}

fn read_site(dir: &Path) -> Result<SiteFiles> {
    let files = crate::walk::files_below(dir, dir)?
        .into_iter()
        .map(|(rel, path)| {
            std::fs::read(&path)
                .map(|bytes| (rel, bytes))
                .with_context(|| format!("cannot read {}", path.display()))
        })
        .collect::<Result<_>>()?;
    Ok(SiteFiles {
        files,
        extra: Vec::new(),
    })
}

fn sha256_hex(bytes: &[u8]) -> String {
    data_encoding::HEXLOWER.encode(&Sha256::digest(bytes))
}

/// `sha256sum`-compatible lines: `<hex>  <path>`.
fn manifest(site: &SiteFiles) -> String {
    site.extra
        .iter()
        .chain(&site.files)
        .map(|(rel, bytes)| format!("{}  {rel}\n", sha256_hex(bytes)))
        .collect()
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
    let scratch = tempfile::tempdir().context("cannot create a temporary folder")?;
    let built = scratch.path().join("site");
    crate::build::run(root, config, &built, &Default::default())?;
    let mut site = read_site(&built)?;
    if site
        .files
        .iter()
        .any(|(rel, _)| rel == FIGURES_NAME || rel == MANIFEST_NAME)
    {
        bail!(
            "the site has a file named {FIGURES_NAME} or {MANIFEST_NAME} at its top, which the snapshot's own would hide; rename it"
        );
    }
    let content = crate::site::load(&root.join("content"))?;
    let when = archive_time(&content);
    // Archived beside the site's files and listed in the manifest, under a name no page has.
    site.extra = vec![(FIGURES_NAME.to_string(), figures_tsv(&content).into_bytes())];
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
    let tar_bytes = tar_gz_bytes(&site, &manifest_text, when.timestamp().max(0) as u64)?;
    let warc_bytes = warc_gz_bytes(&site, &Urls::new(&config.base_url), when)?;
    crate::store::atomic::write_atomic(&tar_gz, &tar_bytes)?;
    crate::store::atomic::write_atomic(&warc_gz, &warc_bytes)?;
    crate::store::atomic::write_atomic(&manifest_path, manifest_text.as_bytes())?;
    Ok(SnapshotReport {
        tar_gz,
        warc_gz,
        manifest: manifest_path,
        files: site.files.len(),
        tar_bytes: tar_bytes.len() as u64,
        warc_bytes: warc_bytes.len() as u64,
    })
}

fn gzip() -> flate2::GzBuilder {
    // No file name and a zero timestamp: the gzip header carries nothing of the moment.
    flate2::GzBuilder::new().mtime(0)
}

fn tar_gz_bytes(site: &SiteFiles, manifest_text: &str, mtime: u64) -> Result<Vec<u8>> {
    let encoder = gzip().write(Vec::new(), flate2::Compression::best());
    let mut tar = tar::Builder::new(encoder);
    tar.mode(tar::HeaderMode::Deterministic);
    let mut append = |path: &str, bytes: &[u8]| -> Result<()> {
        let mut header = tar::Header::new_ustar();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(mtime);
        header.set_uid(0);
        header.set_gid(0);
        header.set_entry_type(tar::EntryType::Regular);
        tar.append_data(&mut header, path, bytes)
            .with_context(|| format!("cannot archive {path}"))
    };
    append(MANIFEST_NAME, manifest_text.as_bytes())?;
    for (rel, bytes) in site.extra.iter().chain(&site.files) {
        append(rel, bytes)?;
    }
    let encoder = tar.into_inner().context("cannot finish the tar archive")?;
    encoder.finish().context("cannot finish gzip")
}

fn sha1_base32(bytes: &[u8]) -> String {
    use sha1::Digest as _;
    format!(
        "sha1:{}",
        data_encoding::BASE32.encode(&sha1::Sha1::digest(bytes))
    )
}

/// A record id that is the same for the same URI and payload.
fn record_id(kind: &str, key: &str) -> String {
    let h = Sha256::digest(format!("{kind}\n{key}").as_bytes());
    let hex = data_encoding::HEXLOWER.encode(&h[..16]);
    format!(
        "<urn:uuid:{}-{}-8{}-a{}-{}>",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}

fn warc_record(out: &mut Vec<u8>, headers: &[(&str, String)], block: &[u8]) -> Result<()> {
    let mut rec = Vec::with_capacity(block.len() + 512);
    rec.extend_from_slice(b"WARC/1.1\r\n");
    for (k, v) in headers {
        rec.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
    }
    rec.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
    rec.extend_from_slice(block);
    rec.extend_from_slice(b"\r\n\r\n");
    // One gzip member per record, as WARC readers expect of .warc.gz.
    let mut enc = gzip().write(Vec::new(), flate2::Compression::best());
    enc.write_all(&rec)?;
    out.extend_from_slice(&enc.finish()?);
    Ok(())
}

fn warc_gz_bytes(
    site: &SiteFiles,
    urls: &Urls,
    when: chrono::DateTime<chrono::Utc>,
) -> Result<Vec<u8>> {
    let date = when.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let mut out = Vec::new();
    let info = format!(
        "software: paperboy/{}\r\nformat: WARC File Format 1.1\r\nconformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\nisPartOf: {}\r\n",
        env!("CARGO_PKG_VERSION"),
        urls.permalink("")
    );
    warc_record(
        &mut out,
        &[
            ("WARC-Type", "warcinfo".into()),
            ("WARC-Date", date.clone()),
            ("WARC-Record-ID", record_id("warcinfo", &urls.permalink(""))),
            ("Content-Type", "application/warc-fields".into()),
        ],
        info.as_bytes(),
    )?;
    for (name, bytes) in &site.extra {
        warc_record(
            &mut out,
            &[
                ("WARC-Type", "metadata".into()),
                ("WARC-Target-URI", urls.permalink("")),
                ("WARC-Date", date.clone()),
                (
                    "WARC-Record-ID",
                    record_id("metadata", &format!("{name}\n{}", sha256_hex(bytes))),
                ),
                ("Content-Type", "text/tab-separated-values".into()),
                ("WARC-Block-Digest", sha1_base32(bytes)),
            ],
            bytes,
        )?;
    }
    for (rel, payload) in &site.files {
        // A folder's index.html is what a reader fetched at the folder's URL.
        let target = match rel.strip_suffix("index.html") {
            Some(dir) if dir.is_empty() || dir.ends_with('/') => urls.permalink(dir),
            _ => urls.permalink(rel),
        };
        let mut block = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\n\r\n",
            crate::walk::content_type(rel),
            payload.len()
        )
        .into_bytes();
        block.extend_from_slice(payload);
        warc_record(
            &mut out,
            &[
                ("WARC-Type", "response".into()),
                ("WARC-Target-URI", target.clone()),
                ("WARC-Date", date.clone()),
                (
                    "WARC-Record-ID",
                    record_id("response", &format!("{target}\n{}", sha256_hex(payload))),
                ),
                ("WARC-Payload-Digest", sha1_base32(payload)),
                ("WARC-Block-Digest", sha1_base32(&block)),
                ("Content-Type", "application/http; msgtype=response".into()),
            ],
            &block,
        )?;
    }
    Ok(out)
}

#[derive(Debug, Default)]
pub struct VerifyReport {
    pub files: usize,
    /// `changed: path`, `missing: path`, `unlisted: path`.
    pub problems: Vec<String>,
}

/// Checks a `.tar.gz` snapshot against the `MANIFEST.sha256` it carries (or `manifest`,
/// a separate copy, when given).
pub fn verify(archive: &Path, manifest: Option<&Path>) -> Result<VerifyReport> {
    let file = std::fs::File::open(archive)
        .with_context(|| format!("cannot open {}", archive.display()))?;
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut hashes: Vec<(String, String)> = Vec::new();
    let mut inner_manifest = None;
    for entry in tar
        .entries()
        .with_context(|| format!("{}: not a tar.gz archive", archive.display()))?
    {
        let mut entry = entry.with_context(|| format!("{}: broken archive", archive.display()))?;
        let path = entry.path()?.to_string_lossy().into_owned();
        let mut bytes = Vec::new();
        entry
            .read_to_end(&mut bytes)
            .with_context(|| format!("{}: cannot read {path}", archive.display()))?;
        if path == MANIFEST_NAME {
            inner_manifest = Some(String::from_utf8_lossy(&bytes).into_owned());
        } else {
            hashes.push((path, sha256_hex(&bytes)));
        }
    }
    let manifest_text = match manifest {
        Some(p) => {
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?
        }
        None => match inner_manifest {
            Some(m) => m,
            None => bail!("{}: no {MANIFEST_NAME} inside", archive.display()),
        },
    };
    let mut expected: std::collections::BTreeMap<String, String> =
        std::collections::BTreeMap::new();
    for (n, line) in manifest_text.lines().enumerate() {
        let Some((hash, path)) = line.split_once("  ") else {
            bail!("{MANIFEST_NAME}:{}: not a `<sha256>  <path>` line", n + 1);
        };
        expected.insert(path.to_string(), hash.to_string());
    }
    let mut report = VerifyReport {
        files: hashes.len(),
        ..Default::default()
    };
    for (path, hash) in &hashes {
        match expected.remove(path) {
            Some(h) if &h == hash => {}
            Some(_) => report.problems.push(format!("changed: {path}")),
            None => report.problems.push(format!("unlisted: {path}")),
        }
    }
    for path in expected.keys() {
        report.problems.push(format!("missing: {path}"));
    }
    report.problems.sort();
    Ok(report)
}
