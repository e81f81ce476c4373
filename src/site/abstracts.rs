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
        let texts = ["", "Plain.", "Ünïcode — $x^2$ & <tags>", "last"];
        let mut w = SpillWriter::new().unwrap();
        let at: Vec<Abstract> = texts.iter().map(|t| w.put(t).unwrap()).collect();
        let spill = w.finish().unwrap();
        for (a, t) in at.iter().zip(texts).rev() {
            assert_eq!(a.text(Some(&spill)).unwrap(), t);
        }
        assert!(at[1].text(None).is_err());
        assert_eq!(Abstract::Held("x".into()).text(None).unwrap(), "x");
    }
}
