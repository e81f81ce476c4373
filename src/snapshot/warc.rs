//! The snapshot's WARC 1.1 file: a warcinfo record, the archive's metadata (FIGURES.tsv),
//! then one response record per file under `base_url`, each its own gzip member as WARC
//! readers expect of `.warc.gz`. Records are made and compressed a batch at a time on every
//! core and written in order.

use super::{SiteFiles, pgz, sha256_hex};
use crate::render::views::Urls;
use anyhow::{Context, Result};
use sha2::{Digest, Sha256};
use std::io::Write;

/// Payload bytes read into one batch of records, at most (and a file more).
const BATCH_BYTES: u64 = 16 << 20;
const BATCH_FILES: usize = 1024;

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

/// One record, uncompressed.
fn record(headers: &[(&str, String)], block: &[u8]) -> Vec<u8> {
    let mut rec = Vec::with_capacity(block.len() + 512);
    rec.extend_from_slice(b"WARC/1.1\r\n");
    for (k, v) in headers {
        rec.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
    }
    rec.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
    rec.extend_from_slice(block);
    rec.extend_from_slice(b"\r\n\r\n");
    rec
}

/// The response record of the site's file `i`.
fn response(site: &SiteFiles, i: usize, urls: &Urls, date: &str) -> Result<Vec<u8>> {
    let f = &site.files[i];
    let path = site.path(f);
    let payload =
        std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let rel = f.rel.as_str();
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
    block.extend_from_slice(&payload);
    let id = format!("{target}\n{}", data_encoding::HEXLOWER.encode(&f.sha256));
    Ok(record(
        &[
            ("WARC-Type", "response".into()),
            ("WARC-Target-URI", target),
            ("WARC-Date", date.to_string()),
            ("WARC-Record-ID", record_id("response", &id)),
            ("WARC-Payload-Digest", sha1_base32(&payload)),
            ("WARC-Block-Digest", sha1_base32(&block)),
            ("Content-Type", "application/http; msgtype=response".into()),
        ],
        &block,
    ))
}

pub(super) fn write(
    out: &mut impl Write,
    site: &SiteFiles,
    urls: &Urls,
    when: chrono::DateTime<chrono::Utc>,
) -> Result<()> {
    let date = when.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let info = format!(
        "software: paperboy/{}\r\nformat: WARC File Format 1.1\r\nconformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\nisPartOf: {}\r\n",
        env!("CARGO_PKG_VERSION"),
        urls.permalink("")
    );
    let mut head = vec![record(
        &[
            ("WARC-Type", "warcinfo".into()),
            ("WARC-Date", date.clone()),
            ("WARC-Record-ID", record_id("warcinfo", &urls.permalink(""))),
            ("Content-Type", "application/warc-fields".into()),
        ],
        info.as_bytes(),
    )];
    for (name, bytes) in &site.extra {
        head.push(record(
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
        ));
    }
    for member in pgz::members(&head)? {
        out.write_all(&member)?;
    }
    let mut start = 0;
    while start < site.files.len() {
        let mut end = start;
        let mut bytes = 0;
        while end < site.files.len() && end - start < BATCH_FILES && bytes < BATCH_BYTES {
            bytes += site.files[end].len;
            end += 1;
        }
        use rayon::prelude::*;
        let members: Vec<Vec<u8>> = (start..end)
            .into_par_iter()
            .map(|i| Ok(pgz::member(&response(site, i, urls, &date)?)?))
            .collect::<Result<_>>()?;
        for m in members {
            out.write_all(&m)?;
        }
        start = end;
    }
    Ok(())
}
