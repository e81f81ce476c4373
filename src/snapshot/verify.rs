//! `paperboy snapshot --verify`: a `.tar.gz` snapshot checked against its manifest.

use super::MANIFEST_NAME;
use anyhow::{Context, Result, bail};
use sha2::Digest;
use std::io::Read;
use std::path::Path;

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
    // Many gzip members, as `snapshot` writes them (and as any gzip may hold).
    let mut tar = tar::Archive::new(flate2::read::MultiGzDecoder::new(std::io::BufReader::new(
        file,
    )));
    let mut hashes: Vec<(String, String)> = Vec::new();
    let mut inner_manifest = None;
    for entry in tar
        .entries()
        .with_context(|| format!("{}: not a tar.gz archive", archive.display()))?
    {
        let mut entry = entry.with_context(|| format!("{}: broken archive", archive.display()))?;
        let path = entry.path()?.to_string_lossy().into_owned();
        if path == MANIFEST_NAME {
            let mut bytes = Vec::new();
            entry
                .read_to_end(&mut bytes)
                .with_context(|| format!("{}: cannot read {path}", archive.display()))?;
            inner_manifest = Some(String::from_utf8_lossy(&bytes).into_owned());
        } else {
            // Hashed as it is read: an archive's files are never held whole.
            let mut hasher = sha2::Sha256::new();
            let mut buf = vec![0; 64 * 1024];
            loop {
                let n = entry
                    .read(&mut buf)
                    .with_context(|| format!("{}: cannot read {path}", archive.display()))?;
                if n == 0 {
                    break;
                }
                hasher.update(&buf[..n]);
            }
            hashes.push((path, data_encoding::HEXLOWER.encode(&hasher.finalize())));
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
