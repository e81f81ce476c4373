//! What a review run did, counted, and the line that says so.

#[derive(Debug, Default)]
pub struct ReviewSummary {
    /// Papers in the site.
    pub papers: usize,
    /// Papers reviewed, whether or not their review changed.
    pub reviewed: usize,
    /// Of those, papers whose file changed (or would, in a dry run).
    pub written: usize,
    pub headlines: usize,
    /// Papers with an abstract but no headline: no whole statement of it fits a card, which
    /// then shows the title alone.
    pub no_headline: usize,
    pub summaries: usize,
    pub with_badges: usize,
    pub figures: usize,
    /// Figures the licence policy keeps out.
    pub withheld: usize,
    /// Papers arXiv has no usable HTML rendition of.
    pub no_html: usize,
    pub licenses_found: usize,
    /// Figure files removed: replaced, withheld now, or no paper's any more.
    pub figures_removed: usize,
    pub failed: Vec<String>,
    /// Model answers the checks refused (the paper got the extractive review).
    pub refused: usize,
    /// What was read with a fallback: a summarizer's failed answer, a figure that could
    /// not be used.
    pub warnings: Vec<String>,
    /// What changed, a line per paper, for `--dry-run` and `-v`.
    pub changes: Vec<String>,
}

impl std::fmt::Display for ReviewSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "reviewed {} of {} papers: {} written, {} headlines",
            self.reviewed, self.papers, self.written, self.headlines
        )?;
        if self.no_headline > 0 {
            write!(
                f,
                " ({} papers with an abstract have none: no whole statement of it fits a card)",
                self.no_headline
            )?;
        }
        write!(
            f,
            ", {} one-liners, {} with badges, {} figures",
            self.summaries, self.with_badges, self.figures
        )?;
        if self.withheld > 0 {
            write!(f, " ({} withheld by the licence policy)", self.withheld)?;
        }
        if self.no_html > 0 {
            write!(f, ", {} without HTML", self.no_html)?;
        }
        if self.licenses_found > 0 {
            write!(f, ", {} licences read", self.licenses_found)?;
        }
        if self.figures_removed > 0 {
            write!(f, ", {} figure files removed", self.figures_removed)?;
        }
        if self.refused > 0 {
            write!(f, ", {} model answers refused by the checks", self.refused)?;
        }
        if !self.failed.is_empty() {
            write!(f, ", {} failed", self.failed.len())?;
        }
        Ok(())
    }
}
