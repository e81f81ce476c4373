//! What this machine knows the remote holds: for each file published there, its MD5 (what
//! S3-compatible stores report for an object), size and the build fingerprint it had.
//!
//! It is a log, one line a fact, appended and synced as each rclone run is confirmed, so a
//! publish killed at any point leaves a record that is still true:
//!
//! - `S md5 fingerprint size path`: the remote holds these bytes at `path`.
//! - `P path`: a file may be at `path` with bytes nobody knows (an upload that was under
//!   way). The next publish sends it again if the site has it and deletes it if not.
//! - `D path`: nothing is at `path`.
//!
//! Later lines win. A publish ends by writing the record again, compacted, in one atomic
//! rename; a last line cut short by a crash is ignored.

use anyhow::Result;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The first line: which remote this record describes, in which format.
const HEADER: &str = "paperboy publish record 1";

/// What the remote holds at a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// These bytes; `fingerprint` is the build's for them, when known (not for a file
    /// found by listing the remote).
    Known {
        md5: [u8; 16],
        fingerprint: Option<u128>,
        size: u64,
    },
    /// Something, or nothing: an upload was under way.
    Unknown,
}

pub struct Record {
    path: PathBuf,
    remote: String,
    pub files: HashMap<String, Held>,
}

impl Record {
    /// An empty record for `remote` kept at `path` (nothing written yet).
    pub fn new(path: PathBuf, remote: &str) -> Record {
        Record {
            path,
            remote: remote.to_string(),
            files: HashMap::new(),
        }
    }

    /// The record at `path` if it describes `remote`; none when missing, for another
    /// remote or another format (then the remote is listed, never guessed at).
    pub fn load(path: PathBuf, remote: &str) -> Option<Record> {
        let text = std::fs::read_to_string(&path).ok()?;
        let mut lines = text.split_inclusive('\n');
        let header = lines.next()?.strip_suffix('\n')?;
        if header != format!("{HEADER}\t{remote}") {
            return None;
        }
        let mut record = Record::new(path, remote);
        for line in lines {
            // A line without its end was being written when the run died.
            let Some(line) = line.strip_suffix('\n') else {
                break;
            };
            record.apply(line);
        }
        Some(record)
    }

    fn apply(&mut self, line: &str) {
        let mut parts = line.splitn(5, '\t');
        match parts.next() {
            Some("S") => {
                let (Some(md5), Some(fp), Some(size), Some(path)) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return;
                };
                let (Some(md5), Ok(size)) = (parse_md5(md5), size.parse()) else {
                    return;
                };
                let fingerprint = u128::from_str_radix(fp, 16).ok();
                self.files.insert(
                    path.to_string(),
                    Held::Known {
                        md5,
                        fingerprint,
                        size,
                    },
                );
            }
            Some("P") => {
                if let Some(path) = parts.next() {
                    self.files.insert(path.to_string(), Held::Unknown);
                }
            }
            Some("D") => {
                if let Some(path) = parts.next() {
                    self.files.remove(path);
                }
            }
            _ => {}
        }
    }

    /// Records facts and syncs them to disk before returning.
    pub fn append(&mut self, lines: &[String]) -> Result<()> {
        if lines.is_empty() {
            return Ok(());
        }
        let mut text = String::new();
        for line in lines {
            self.apply(line);
            text.push_str(line);
            text.push('\n');
        }
        if !self.path.exists() {
            return self.compact();
        }
        crate::store::atomic::append(&self.path, text.as_bytes())
    }

    /// Writes the record again, one line a file, sorted, replacing the log in one rename.
    pub fn compact(&self) -> Result<()> {
        let mut paths: Vec<&String> = self.files.keys().collect();
        paths.sort_unstable();
        let mut text = format!("{HEADER}\t{}\n", self.remote);
        for path in paths {
            text.push_str(&line_for(path, self.files[path]));
            text.push('\n');
        }
        crate::store::atomic::write_atomic(&self.path, text.as_bytes())
    }
}

/// The line that says the remote holds `held` at `path`.
pub fn line_for(path: &str, held: Held) -> String {
    match held {
        Held::Known {
            md5,
            fingerprint,
            size,
        } => {
            let fp = fingerprint.map_or_else(|| "-".to_string(), |f| format!("{f:032x}"));
            format!("S\t{}\t{fp}\t{size}\t{path}", md5_hex(&md5))
        }
        Held::Unknown => format!("P\t{path}"),
    }
}

pub fn gone_line(path: &str) -> String {
    format!("D\t{path}")
}

pub fn md5_hex(md5: &[u8; 16]) -> String {
    md5.iter().fold(String::with_capacity(32), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

pub fn parse_md5(hex: &str) -> Option<[u8; 16]> {
    if hex.len() != 32 || !hex.is_ascii() {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_reads_back_later_lines_winning_and_a_torn_last_line_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.log");
        let known = |n: u8| Held::Known {
            md5: [n; 16],
            fingerprint: Some(n as u128),
            size: n as u64,
        };
        let mut r = Record::new(path.clone(), "r2:b/site");
        r.append(&[line_for("a.html", known(1)), line_for("b.html", known(2))])
            .unwrap();
        r.append(&[line_for("a.html", Held::Unknown), gone_line("b.html")])
            .unwrap();
        r.append(&[line_for("c.html", known(3))]).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, b"D\tc.ht"))
            .unwrap();
        let back = Record::load(path.clone(), "r2:b/site").unwrap();
        assert_eq!(back.files.len(), 2);
        assert_eq!(back.files["a.html"], Held::Unknown);
        assert_eq!(back.files["c.html"], known(3));
        back.compact().unwrap();
        let again = Record::load(path.clone(), "r2:b/site").unwrap();
        assert_eq!(again.files, back.files);
        // Another remote's record is no record of this one.
        assert!(Record::load(path, "r2:b/other").is_none());
    }
}
