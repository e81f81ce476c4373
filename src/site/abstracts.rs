//! Paper abstracts, held apart from the rest of a paper. An abstract is about half of what a
//! paper takes in memory, so on very large sites they are written to an unlinked temporary
//! file as the papers load and read back (one `pread` each) by the pages that show them. A
//! build of all of arXiv then holds only metadata; smaller sites keep them in memory. The
//! abstracts of papers read from the parse cache stay in its file, which is kept open: an
//! incremental build shows few of them.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::FileExt;

/// Where one paper's abstract is.
pub enum Abstract {
    Held(String),
    /// In file `file` of the site's `Files`.
    InFile {
        file: u32,
        offset: u64,
        len: u32,
    },
}

impl Abstract {
    /// The text, borrowed when it is in memory, read from `files` when it is not.
    pub fn text<'a>(&'a self, files: &Files) -> io::Result<Cow<'a, str>> {
        match self {
            Abstract::Held(s) => Ok(Cow::Borrowed(s)),
            Abstract::InFile { file, offset, len } => {
                files.read(*file, *offset, *len).map(Cow::Owned)
            }
        }
    }
}

/// The open files abstracts are read from, by number. Those without a name (the
/// temporary file) leave nothing behind however the build ends; the parse cache may be
/// appended to or replaced by a newer version meanwhile, and is read as it was when opened.
#[derive(Default)]
pub struct Files {
    files: Vec<Option<File>>,
}

impl Files {
    /// Puts `file` at number `at`.
    pub fn put(&mut self, at: u32, file: File) {
        let at = at as usize;
        if self.files.len() <= at {
            self.files.resize_with(at + 1, || None);
        }
        self.files[at] = Some(file);
    }

    /// Takes file `at` out.
    pub fn take(&mut self, at: u32) -> Option<File> {
        self.files.get_mut(at as usize).and_then(Option::take)
    }

    fn file(&self, at: u32) -> io::Result<&File> {
        self.files
            .get(at as usize)
            .and_then(Option::as_ref)
            .ok_or_else(|| io::Error::other("no file holds the abstract"))
    }

    fn read(&self, at: u32, offset: u64, len: u32) -> io::Result<String> {
        let mut buf = vec![0; len as usize];
        self.file(at)?.read_exact_at(&mut buf, offset)?;
        String::from_utf8(buf).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }
}

/// Slack allowed between neighbouring abstracts for one read to cover them all.
const READ_TOGETHER_SLACK: u64 = 1 << 16;

/// The texts of `list`, in order. Those in one file that lie close together in it (papers
/// are written in file order, which is close to paper order) come in one read.
pub fn texts<'a>(list: &[&'a Abstract], files: &Files) -> io::Result<Vec<Cow<'a, str>>> {
    let spans: Vec<(u32, u64, u32)> = list
        .iter()
        .filter_map(|a| match a {
            Abstract::InFile { file, offset, len } => Some((*file, *offset, *len)),
            Abstract::Held(_) => None,
        })
        .collect();
    let one_file = spans
        .first()
        .map(|s| s.0)
        .filter(|&f| spans.iter().all(|s| s.0 == f));
    let (Some(file), Some(start), Some(end)) = (
        one_file,
        spans.iter().map(|s| s.1).min(),
        spans.iter().map(|s| s.1 + u64::from(s.2)).max(),
    ) else {
        return list.iter().map(|a| a.text(files)).collect();
    };
    let wanted: u64 = spans.iter().map(|s| u64::from(s.2)).sum();
    if end - start > 2 * wanted + READ_TOGETHER_SLACK {
        return list.iter().map(|a| a.text(files)).collect();
    }
    let mut buf = vec![0; (end - start) as usize];
    files.file(file)?.read_exact_at(&mut buf, start)?;
    list.iter()
        .map(|a| match a {
            Abstract::Held(s) => Ok(Cow::Borrowed(s.as_str())),
            Abstract::InFile { offset, len, .. } => {
                let at = (offset - start) as usize;
                String::from_utf8(buf[at..at + *len as usize].to_vec())
                    .map(Cow::Owned)
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
            }
        })
        .collect()
}

/// Appends abstracts to a new temporary file while the papers load.
pub struct SpillWriter {
    out: BufWriter<File>,
    offset: u64,
    /// Its number in `Files`.
    at: u32,
}

impl SpillWriter {
    pub fn new(at: u32) -> io::Result<SpillWriter> {
        Ok(SpillWriter {
            out: BufWriter::with_capacity(1 << 20, tempfile::tempfile()?),
            offset: 0,
            at,
        })
    }

    pub fn put(&mut self, text: &str) -> io::Result<Abstract> {
        let len = u32::try_from(text.len())
            .map_err(|_| io::Error::other("an abstract longer than 4 GB"))?;
        self.out.write_all(text.as_bytes())?;
        let at = Abstract::InFile {
            file: self.at,
            offset: self.offset,
            len,
        };
        self.offset += u64::from(len);
        Ok(at)
    }

    /// Adds the file to `files`.
    pub fn finish(self, files: &mut Files) -> io::Result<()> {
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        files.put(self.at, file);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spilled_abstracts_read_back_exactly() {
        let originals = ["", "Plain.", "Ünïcode — $x^2$ & <tags>", "last"];
        let mut w = SpillWriter::new(2).unwrap();
        let at: Vec<Abstract> = originals.iter().map(|t| w.put(t).unwrap()).collect();
        assert!(at[1].text(&Files::default()).is_err());
        let mut files = Files::default();
        w.finish(&mut files).unwrap();
        for (a, t) in at.iter().zip(originals).rev() {
            assert_eq!(a.text(&files).unwrap(), t);
        }
        // Together, in another order, and mixed with one held in memory.
        let held = Abstract::Held("held".into());
        let list = [&at[2], &held, &at[0], &at[3]];
        let read = texts(&list, &files).unwrap();
        assert_eq!(read, [originals[2], "held", originals[0], originals[3]]);
        assert_eq!(
            Abstract::Held("x".into()).text(&Files::default()).unwrap(),
            "x"
        );
    }
}
