//! The content store: paper and digest files under `content/`, merged without losing
//! anything an editor wrote.

pub mod atomic;
pub mod digests;
pub mod frontmatter;
pub mod journal;
pub mod papers;
pub mod state;

pub use papers::{MergeOutcome, merge_records};
