//! Headline and one-line summary: two summarizers behind one small trait, the built-in
//! extractive one (offline, deterministic) and any OpenAI-compatible chat endpoint.

pub mod check;
pub mod extractive;
pub mod openai;

use anyhow::Result;

/// At most this many characters in a headline, and in a one-line summary.
pub const HEADLINE_CHARS: usize = 90;
pub const SUMMARY_CHARS: usize = 180;

/// What a summarizer reads of a paper.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    pub id: &'a str,
    pub version: u32,
    pub title: &'a str,
    pub abstract_text: &'a str,
    pub comment: &'a str,
    pub categories: &'a [String],
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub headline: String,
    pub summary: String,
    /// Who wrote it, for `[machine] by`: `extractive`, or the model.
    pub by: String,
    /// Why the configured summarizer's answer was not used, when it fell back.
    pub fell_back: Option<String>,
    /// The answer the checks refused (headline / summary), for `--dry-run`.
    pub refused: Option<String>,
}

pub trait Summarizer: Sync {
    /// Summarizes one paper. Called from several threads at once.
    fn summarize(&self, paper: &Input) -> Result<Summary>;
}
