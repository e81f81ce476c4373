//! Paper abstracts, held apart from the rest of a paper. An abstract is about half of what a
//! paper takes in memory, so on very large sites they are written to an unlinked temporary
//! file as the papers load and read back (one `pread` each) by the pages that show them. A
//! build of all of arXiv then holds only metadata; smaller sites keep them in memory.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::FileExt;

/// Where one paper's abstract is.
pub enum Abstract {
    Held(String),
    Spilled { offset: u64, len: u32 },
}

impl Abstract {
    /// The text, borrowed when it is in memory, read from `spill` when it is not.
    pub fn text<'a>(&'a self, spill: Option<&Spill>) -> io::Result<Cow<'a, str>> {
        match self {
            Abstract::Held(s) => Ok(Cow::Borrowed(s)),
            Abstract::Spilled { offset, len } => {
                let spill = spill.ok_or_else(|| io::Error::other("no file holds the abstracts"))?;
                spill.read(*offset, *len).map(Cow::Owned)
            }
        }
    }
}

/// The file the abstracts were written to. It has no name, so nothing is left behind
/// however the build ends.
pub struct Spill {
    file: File,
}

impl Spill {
    fn read(&self, offset: u64, len: u32) -> io::Result<String> {
        let mut buf = vec![0; len as usize];
        self.file.read_exact_at(&mut buf, offset)?;
        String::from_utf8(buf).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }
}

/// Slack allowed between neighbouring abstracts for one read to cover them all.
const READ_TOGETHER_SLACK: u64 = 1 << 16;

/// The texts of `list`, in order. Spilled ones that lie close together in the file (papers
/// are written in file order, which is close to paper order) come in one read.
pub fn texts<'a>(list: &[&'a Abstract], spill: Option<&Spill>) -> io::Result<Vec<Cow<'a, str>>> {
    let spans: Vec<(u64, u32)> = list
        .iter()
        .filter_map(|a| match a {
            Abstract::Spilled { offset, len } => Some((*offset, *len)),
            Abstract::Held(_) => None,
        })
        .collect();
    let (Some(spill), Some(start), Some(end)) = (
        spill,
        spans.iter().map(|s| s.0).min(),
        spans.iter().map(|s| s.0 + u64::from(s.1)).max(),
    ) else {
        return list.iter().map(|a| a.text(spill)).collect();
    };
    let wanted: u64 = spans.iter().map(|s| u64::from(s.1)).sum();
    if end - start > 2 * wanted + READ_TOGETHER_SLACK {
        return list.iter().map(|a| a.text(Some(spill))).collect();
    }
    let mut buf = vec![0; (end - start) as usize];
    spill.file.read_exact_at(&mut buf, start)?;
    list.iter()
        .map(|a| match a {
            Abstract::Held(s) => Ok(Cow::Borrowed(s.as_str())),
            Abstract::Spilled { offset, len } => {
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
}

impl SpillWriter {
    pub fn new() -> io::Result<SpillWriter> {
        Ok(SpillWriter {
            out: BufWriter::with_capacity(1 << 20, tempfile::tempfile()?),
            offset: 0,
        })
    }

    pub fn put(&mut self, text: &str) -> io::Result<Abstract> {
        let len = u32::try_from(text.len())
            .map_err(|_| io::Error::other("an abstract longer than 4 GB"))?;
        self.out.write_all(text.as_bytes())?;
        let at = Abstract::Spilled {
            offset: self.offset,
            len,
        };
        self.offset += u64::from(len);
        Ok(at)
    }

    pub fn finish(self) -> io::Result<Spill> {
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        Ok(Spill { file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spilled_abstracts_read_back_exactly() {
        let originals = ["", "Plain.", "Ünïcode — $x^2$ & <tags>", "last"];
        let mut w = SpillWriter::new().unwrap();
        let at: Vec<Abstract> = originals.iter().map(|t| w.put(t).unwrap()).collect();
        let spill = w.finish().unwrap();
        for (a, t) in at.iter().zip(originals).rev() {
            assert_eq!(a.text(Some(&spill)).unwrap(), t);
        }
        assert!(at[1].text(None).is_err());
        // Together, in another order, and mixed with one held in memory.
        let held = Abstract::Held("held".into());
        let list = [&at[2], &held, &at[0], &at[3]];
        let read = texts(&list, Some(&spill)).unwrap();
        assert_eq!(read, [originals[2], "held", originals[0], originals[3]]);
        assert_eq!(Abstract::Held("x".into()).text(None).unwrap(), "x");
    }
}
