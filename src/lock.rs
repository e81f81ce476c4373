//! One writer at a time per site: `fetch`, `build`, `check` and `snapshot` hold an exclusive lock on
//! `ROOT/.paperboy.lock`. The OS drops the lock when the process ends, however it ends,
//! so a killed run never leaves a stale lock behind.

use anyhow::{Context, Result, bail};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

pub struct SiteLock {
    _file: std::fs::File,
}

pub fn acquire(root: &Path, what: &str) -> Result<SiteLock> {
    let path = root.join(".paperboy.lock");
    // A lock file with other names is a copy's too (`cp -al`): locking it would lock the
    // copy, and writing who holds it would write into the copy. This site's name is
    // dropped and a file of its own made; the lock taken on a file the name no longer
    // points to is let go and taken again, so two runs never both hold one.
    for _ in 0..4 {
        let mut file = open_locked(&path)?;
        let meta = file
            .metadata()
            .with_context(|| format!("cannot read {}", path.display()))?;
        if crate::store::atomic::has_other_names(&meta) {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot replace {}", path.display()))?;
            continue;
        }
        let named = std::fs::metadata(&path).ok();
        if named.is_none_or(|m| (m.dev(), m.ino()) != (meta.dev(), meta.ino())) {
            continue;
        }
        // Who holds it, for the message the next run prints.
        let _ = file.set_len(0);
        let _ = file.rewind();
        let _ = write!(
            file,
            "pid {}, {what}, since {}",
            std::process::id(),
            chrono::Utc::now().format("%Y-%m-%d %H:%M:%S UTC")
        );
        return Ok(SiteLock { _file: file });
    }
    bail!(
        "cannot lock {}: it was replaced each time it was locked",
        path.display()
    )
}

fn open_locked(path: &Path) -> Result<std::fs::File> {
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("cannot open the lock file {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            bail!(
                "another paperboy is working on this site ({}); try again when it has finished",
                if holder.is_empty() {
                    "see .paperboy.lock"
                } else {
                    holder
                }
            );
        }
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
}
