//! One writer at a time per site: `fetch`, `build`, `check` and `snapshot` hold an exclusive lock on
//! `ROOT/.paperboy.lock`. The OS drops the lock when the process ends, however it ends,
//! so a killed run never leaves a stale lock behind.

use anyhow::{Context, Result, bail};
use std::io::{Read, Seek, Write};
use std::path::Path;

pub struct SiteLock {
    _file: std::fs::File,
}

pub fn acquire(root: &Path, what: &str) -> Result<SiteLock> {
    let path = root.join(".paperboy.lock");
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .with_context(|| format!("cannot open the lock file {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
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
            return Err(e).with_context(|| format!("cannot lock {}", path.display()));
        }
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
    Ok(SiteLock { _file: file })
}
