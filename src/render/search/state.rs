//! What an incremental build keeps of the index (`.cache/search-state.bin`) so that the
//! next one tokenizes only the papers added since.

use super::terms::{Collected, Postings};
use crate::manifest::Fingerprint;
use crate::site::Site;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// What one build tokenized, kept so that the next build only tokenizes the papers
/// added since: a stem's postings are those of each paper, and a paper's weights depend on
/// that paper alone, so the kept postings plus the new papers' are exactly what tokenizing
/// every paper again gives. The idf is applied when the files are written.
///
/// Read with owned terms (`String`) and lists, written borrowing them (`&str`, `Gaps`).
#[derive(Serialize, Deserialize)]
pub struct SearchState<S = String, L = Vec<(u32, f32)>> {
    format: u32,
    /// A new paperboy may weigh words differently.
    binary: String,
    /// The `search_hash` of each paper it covers, in document order; its postings number
    /// them from 0.
    docs: Vec<Fingerprint>,
    /// Each stem and its postings as (document, weight), each document after the first as
    /// the gap from the one before (small numbers take a byte in postcard).
    terms: Vec<(S, L)>,
    /// Each word its papers were written with, and its stem.
    words: Vec<(S, S)>,
}

/// The kept state: `STATE_MAGIC`, then segments, each a little-endian `u64` length and a
/// postcard `SearchState`. A weekly build appends one segment for its new papers, rather
/// than rewriting postings it read (tens of MB at 100k papers); after `MAX_SEGMENTS`, or
/// when a paper changed or went, the state is written again as one segment. An append cut
/// short leaves a segment that does not decode: anything that does not decode is no state.
pub struct KeptState {
    segments: Vec<SearchState>,
}

/// What the build hands back to be kept: the whole file, or a segment to append to it.
pub enum StateWrite {
    Whole(Vec<u8>),
    Append(Vec<u8>),
}

/// The papers still to tokenize, the postings of the others, and the segments they came
/// from.
pub(super) type Resumed = (Vec<usize>, Collected, usize);

/// Bumped when what the state holds, or how weights are computed, changes.
const STATE_FORMAT: u32 = 6;

/// Segments a state may have before it is written again whole: a year of weekly builds
/// rewrites it six times instead of fifty-two.
pub(super) const MAX_SEGMENTS: usize = 8;

/// The state is postcard after this prefix: at 100k papers it is tens of MB, which JSON
/// took most of a second to read.
pub(super) const STATE_MAGIC: &[u8; 8] = b"pbsrchs1";

impl KeptState {
    /// The state in `bytes`; none if they are not one.
    pub fn decode(bytes: &[u8]) -> Option<KeptState> {
        let mut rest = bytes.strip_prefix(STATE_MAGIC)?;
        let mut frames = Vec::new();
        while !rest.is_empty() {
            let (len, tail) = rest.split_first_chunk::<8>()?;
            let len = usize::try_from(u64::from_le_bytes(*len)).ok()?;
            frames.push(tail.get(..len)?);
            rest = &tail[len..];
        }
        let segments = frames
            .into_par_iter()
            .map(|frame| postcard::from_bytes(frame).ok())
            .collect::<Option<Vec<SearchState>>>()?;
        Some(KeptState { segments })
    }

    /// Its postings, renumbered for `site` (papers are numbered in id order, and a new
    /// paper's id may come before older ones': the lists are sorted after), and the papers
    /// of `site` it lacks; none if a paper it covers changed or went.
    pub(super) fn postings_for(self, site: &Site, searched: &[Fingerprint]) -> Option<Resumed> {
        let binary = crate::manifest::binary_identity();
        if self.segments.is_empty()
            || self
                .segments
                .iter()
                .any(|s| s.format != STATE_FORMAT || s.binary != binary)
        {
            return None;
        }
        let now: FxHashMap<Fingerprint, usize> =
            searched.iter().enumerate().map(|(i, &h)| (h, i)).collect();
        let renumber: Vec<u32> = self
            .segments
            .iter()
            .flat_map(|s| &s.docs)
            .map(|h| now.get(h).map(|&i| i as u32))
            .collect::<Option<_>>()?;
        let mut covered = vec![false; site.papers.len()];
        for &i in &renumber {
            covered[i as usize] = true;
        }
        let missing = (0..site.papers.len()).filter(|&i| !covered[i]).collect();
        let segments = self.segments.len();
        let mut all = Collected::default();
        let mut first = 0;
        for segment in self.segments {
            let renumber = renumber.get(first..first + segment.docs.len())?;
            first += segment.docs.len();
            for (term, mut list) in segment.terms {
                // Renumbered where it was decoded, and moved rather than copied when the
                // term is new (in the first segment, every term is).
                let mut d = 0u32;
                for (k, posting) in list.iter_mut().enumerate() {
                    d = if k == 0 {
                        posting.0
                    } else {
                        d.checked_add(posting.0)?
                    };
                    posting.0 = *renumber.get(d as usize)?;
                }
                let postings = all.postings(term);
                if postings.is_empty() {
                    *postings = list;
                } else {
                    postings.append(&mut list);
                }
            }
            all.words.extend(segment.words);
        }
        Some((missing, all, segments))
    }
}

/// A stem's postings in the segment, as the gaps `SearchState` keeps, made while they are
/// encoded: copied into lists of their own first, a whole state's postings took more
/// memory than anything else a build holds at that point.
struct Gaps<'a> {
    list: &'a [(u32, f32)],
    /// The segment's number of each of the site's documents (`u32::MAX`: not in it); none
    /// when the segment has every paper.
    local: Option<&'a [u32]>,
    len: usize,
}

impl<'a> Gaps<'a> {
    fn new(list: &'a [(u32, f32)], local: Option<&'a [u32]>) -> Gaps<'a> {
        let len = match local {
            Some(local) => list
                .iter()
                .filter(|p| local[p.0 as usize] != u32::MAX)
                .count(),
            None => list.len(),
        };
        Gaps { list, local, len }
    }
}

/// Encoded as the `Vec<(u32, f32)>` it is read back as.
impl Serialize for Gaps<'_> {
    fn serialize<Ser: serde::Serializer>(&self, ser: Ser) -> Result<Ser::Ok, Ser::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = ser.serialize_seq(Some(self.len))?;
        let mut last = None;
        for &(d, w) in self.list {
            let d = self.local.map_or(d, |local| local[d as usize]);
            if d == u32::MAX {
                continue;
            }
            seq.serialize_element(&(last.map_or(d, |l| d - l), w))?;
            last = Some(d);
        }
        seq.end()
    }
}

/// `bytes` with a segment for papers `docs` (ascending) of a site whose papers' search
/// hashes are `searched` after them: its length, then the segment, their postings taken
/// from `terms` and their words from `words`.
pub(super) fn with_segment(
    mut bytes: Vec<u8>,
    searched: &[Fingerprint],
    docs: &[usize],
    terms: &[(String, Postings)],
    words: &[(String, String)],
) -> anyhow::Result<Vec<u8>> {
    // Document numbers within the segment; a segment of every paper keeps the site's.
    let local: Option<Vec<u32>> = (docs.len() != searched.len()).then(|| {
        let mut local = vec![u32::MAX; searched.len()];
        for (k, &d) in docs.iter().enumerate() {
            local[d] = k as u32;
        }
        local
    });
    let state = SearchState {
        format: STATE_FORMAT,
        binary: crate::manifest::binary_identity(),
        docs: docs.iter().map(|&i| searched[i]).collect(),
        terms: terms
            .iter()
            .filter_map(|(term, list)| {
                let gaps = Gaps::new(list, local.as_deref());
                (gaps.len > 0).then_some((term.as_str(), gaps))
            })
            .collect(),
        words: words
            .iter()
            .map(|(w, s)| (w.as_str(), s.as_str()))
            .collect(),
    };
    // Encoded in place after a length filled in after: the state is tens of MB, so it is
    // measured first and given room once, rather than copied as it grows.
    let size = postcard::serialize_with_flavor(&state, postcard::ser_flavors::Size::default())?;
    let at = bytes.len();
    bytes.reserve_exact(8 + size);
    bytes.extend_from_slice(&[0; 8]);
    let mut bytes = postcard::to_extend(&state, bytes)?;
    let len = (bytes.len() - at - 8) as u64;
    bytes[at..at + 8].copy_from_slice(&len.to_le_bytes());
    Ok(bytes)
}
