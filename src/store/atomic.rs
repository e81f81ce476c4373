//! Atomic writes: the new bytes go to a temporary file beside the target, are synced, then
//! renamed over it, so a reader (or a crash) sees the old file or the new one, never half.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".paperboy-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    // Temporary files are private; the file they replace keeps its mode, a new one gets
    // the usual 0644.
    let mode = std::fs::metadata(path)
        .map(|m| m.permissions())
        .unwrap_or_else(|_| default_permissions());
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().set_permissions(mode))
        .and_then(|_| tmp.as_file().sync_all())
        .with_context(|| format!("cannot write {}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(())
}

/// Appends `bytes` to the file at `path`. A file with other names (a hard-linked backup's,
/// as `cp -al` and rsnapshot keep them) is copied with the bytes added and renamed over
/// this name instead, so the other names keep what they had.
pub fn append(path: &Path, bytes: &[u8]) -> Result<()> {
    let shared = std::fs::metadata(path)
        .map(|m| has_other_names(&m))
        .with_context(|| format!("cannot read {}", path.display()))?;
    if shared {
        let mut whole =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        whole.extend_from_slice(bytes);
        return write_atomic(path, &whole);
    }
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Whether the file has names other than the one it was opened by: writing into it would
/// change theirs too.
pub fn has_other_names(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.nlink() > 1
}

/// What a new file gets: 0644, as `touch` gives one under the usual umask.
#[cfg(unix)]
pub fn default_permissions() -> std::fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    std::fs::Permissions::from_mode(0o644)
}

#[cfg(not(unix))]
pub fn default_permissions() -> std::fs::Permissions {
    tempfile::tempfile()
        .and_then(|f| f.metadata())
        .map(|m| m.permissions())
        .expect("a temporary file has permissions")
}
