//! Whether an OAI-PMH list is moving on. A repository that hands back a token already
//! used (a stale token after a restart, a proxy's cached page), a `cursor` that stays put,
//! or more pages than its `completeListSize` can fill would be asked for ever, every
//! `delay_seconds`, from a scheduled workflow; a harvest stops at the first such page.

use crate::sources::arxiv_oai::OaiPage;
use std::collections::HashSet;

/// How many times the pages `completeListSize` needs a harvest may ask for (plus
/// `SPARE_PAGES`): page sizes vary a little and the list grows while it is harvested, but
/// not to twice its size.
const PAGE_MARGIN: usize = 2;
const SPARE_PAGES: usize = 2;

/// What one run of a harvest has seen of its list.
#[derive(Debug, Default)]
pub(super) struct ListProgress {
    /// The tokens asked with in this run, and the one about to be.
    asked: HashSet<String>,
    cursor: Option<usize>,
    pages: usize,
    largest_page: usize,
}

impl ListProgress {
    /// A run that starts at `resume_at` (an unfinished harvest's token) or at the list's start.
    pub(super) fn new(resume_at: Option<&str>) -> ListProgress {
        ListProgress {
            asked: resume_at.map(str::to_string).into_iter().collect(),
            ..Default::default()
        }
    }

    /// Takes a page whose token the harvest means to ask with next, or says why that
    /// would not move the list on.
    pub(super) fn next_page(&mut self, page: &OaiPage) -> Result<(), String> {
        let Some(token) = &page.resumption_token else {
            return Ok(());
        };
        self.pages += 1;
        self.largest_page = self.largest_page.max(page.records);
        if self.asked.contains(token) {
            return Err(format!(
                "the server handed back resumptionToken {token}, which this harvest has already asked with"
            ));
        }
        if let (Some(before), Some(now)) = (self.cursor, page.cursor)
            && now <= before
        {
            return Err(format!(
                "the page's cursor ({now}) is not past the last page's ({before}): resumptionToken {token} would not move the list on"
            ));
        }
        if let Some(size) = page.complete_list_size {
            let needed = size.div_ceil(self.largest_page.max(1));
            let allowed = needed * PAGE_MARGIN + SPARE_PAGES;
            if self.pages > allowed {
                return Err(format!(
                    "{} pages and still a resumptionToken ({token}), when completeListSize {size} in pages of up to {} records needs {needed}",
                    self.pages, self.largest_page
                ));
            }
        }
        self.cursor = page.cursor.or(self.cursor);
        self.asked.insert(token.clone());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(token: &str, cursor: Option<usize>) -> OaiPage {
        OaiPage {
            records: 1000,
            resumption_token: Some(token.into()),
            cursor,
            complete_list_size: Some(2265),
            ..Default::default()
        }
    }

    #[test]
    fn a_list_moves_on_by_new_tokens_and_cursors_within_its_size() {
        let mut list = ListProgress::new(None);
        assert_eq!(list.next_page(&page("a", Some(0))), Ok(()));
        assert_eq!(list.next_page(&page("b", Some(1000))), Ok(()));
        // The last page has no token: nothing is asked after it.
        let last = OaiPage {
            cursor: Some(1000),
            ..Default::default()
        };
        assert_eq!(list.next_page(&last), Ok(()));
        // A page without a cursor is judged by its token and the list's size.
        assert_eq!(list.next_page(&page("c", None)), Ok(()));
    }

    #[test]
    fn a_token_used_before_a_cursor_that_stays_and_too_many_pages_stop_it() {
        let mut resumed = ListProgress::new(Some("a"));
        let why = resumed.next_page(&page("a", Some(1000))).unwrap_err();
        assert!(why.contains("resumptionToken a, which"), "{why}");

        let mut cycle = ListProgress::new(None);
        cycle.next_page(&page("a", Some(0))).unwrap();
        cycle.next_page(&page("b", Some(1000))).unwrap();
        let why = cycle.next_page(&page("a", Some(2000))).unwrap_err();
        assert!(why.contains("already asked with"), "{why}");

        let mut stuck = ListProgress::new(None);
        stuck.next_page(&page("a", Some(0))).unwrap();
        let why = stuck.next_page(&page("b", Some(0))).unwrap_err();
        assert!(
            why.contains("cursor (0)") && why.contains("resumptionToken b "),
            "{why}"
        );

        // 2265 records in pages of 1000 are 3 pages: twice that and two more are let by.
        let mut endless = ListProgress::new(None);
        for n in 0..8 {
            endless
                .next_page(&page(&format!("t{n}"), Some(n * 1000)))
                .unwrap();
        }
        let why = endless.next_page(&page("t8", Some(8000))).unwrap_err();
        assert!(
            why.starts_with("9 pages") && why.contains("needs 3"),
            "{why}"
        );
    }
}
