//! How a long list (a category's papers, an author's) is cut into pages, and the pager
//! that links them.
//!
//! Pages are numbered from the oldest papers: `page/1/` holds a list's first `per_page`
//! papers and keeps them for good, so a full page never changes when a new week is added.
//! That makes old pages permalinks worth citing and archiving, and lets an incremental
//! build leave them alone; numbering from the newest (Zola's and Hugo's way) shifts every
//! page of a list every week. The front page shows the newest papers, in one of two ways
//! (`Front`).

use super::views::Urls;
use serde::Serialize;
use std::ops::Range;

/// Where a list's pages sit: the front page, or page `n` counted from the oldest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListPage {
    Front,
    Numbered(usize),
}

/// What a list's front page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Front {
    /// The two newest numbered pages, the newest of which may be part full: "Older"
    /// continues with the page after them and no paper is shown twice in a row
    /// (categories).
    TwoNewestPages,
    /// The newest `per_page` papers; numbered pages are full ones only, so a new paper
    /// changes the front page and, past a multiple of `per_page`, the pager of the pages
    /// below it (authors: a week rewrites about one page per author of its papers). The
    /// newest numbered page may repeat some of the front page's papers.
    NewestPapers,
    /// A list that does not grow, read from its start (a week's group, in the digest's
    /// order): the front page is its first page, `page/n/` its n-th from n = 2, and the
    /// pager lists every page, in order.
    Start,
}

/// A list of `len` papers (newest first, as `Category::papers` and `Author::papers` hold
/// them) cut into pages of `per_page`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    pub len: usize,
    pub per_page: usize,
    pub front: Front,
}

impl Split {
    /// Numbered pages: none while the front page holds every paper.
    pub fn numbered(&self) -> usize {
        if self.len <= self.per_page {
            0
        } else {
            match self.front {
                Front::TwoNewestPages | Front::Start => self.len.div_ceil(self.per_page),
                Front::NewestPapers => self.len / self.per_page,
            }
        }
    }

    /// The newest numbered page with papers the front page does not show (0: none).
    pub fn before_front(&self) -> usize {
        match self.front {
            Front::TwoNewestPages => self.numbered().saturating_sub(2),
            Front::NewestPapers if self.numbered() == 0 => 0,
            Front::NewestPapers => (self.len - 1) / self.per_page,
            Front::Start => 0,
        }
    }

    /// A numbered page whose papers the front page shows, every one: it stays for its
    /// links, but the pager does not lead to it and the sitemap does not list it.
    pub fn shown_in_front(&self, page: ListPage) -> bool {
        matches!(page, ListPage::Numbered(n) if n > self.before_front())
    }

    /// The papers of a page, as a range of the newest-first list.
    pub fn range(&self, page: ListPage) -> Range<usize> {
        match (page, self.front) {
            (ListPage::Front, Front::TwoNewestPages) => {
                0..self.len - self.before_front() * self.per_page
            }
            (ListPage::Front, Front::NewestPapers | Front::Start) => 0..self.len.min(self.per_page),
            (ListPage::Numbered(n), Front::Start) => {
                ((n - 1) * self.per_page).min(self.len)..(n * self.per_page).min(self.len)
            }
            (ListPage::Numbered(n), _) => {
                let end = self.len - (n - 1) * self.per_page;
                end.saturating_sub(self.per_page)..end
            }
        }
    }

    /// Every page, the front page first.
    pub fn pages(&self) -> impl Iterator<Item = ListPage> {
        // A list read from its start has no page 1 apart from its front page.
        let first = if self.front == Front::Start { 2 } else { 1 };
        std::iter::once(ListPage::Front).chain((first..=self.numbered()).map(ListPage::Numbered))
    }
}

/// A category's front page.
pub fn front_rel(slug: &str) -> String {
    format!("categories/{slug}/")
}

/// A page of the list whose front page is `front` (`categories/cs.DC/`, `authors/x/`).
pub fn page_rel(front: &str, page: ListPage) -> String {
    match page {
        ListPage::Front => front.to_string(),
        ListPage::Numbered(n) => format!("{front}page/{n}/"),
    }
}

/// A category's page.
pub fn rel(slug: &str, page: ListPage) -> String {
    page_rel(&front_rel(slug), page)
}

/// What `category.html` and `author.html` get as `paginator`. Everything in it goes into the page's
/// fingerprint, so it holds nothing that changes while the page's papers stay the same:
/// no page count, and only the numbered pages near this one.
#[derive(Serialize, Hash)]
pub struct Paginator {
    /// This page's number; none on the front page.
    pub current: Option<usize>,
    /// On a numbered page, its papers' positions counted from the category's oldest
    /// (1-based, inclusive).
    pub first: Option<usize>,
    pub last: Option<usize>,
    /// The newer page (`rel="prev"`), or none on the front page.
    pub prev: Option<String>,
    /// The older page (`rel="next"`), or none where there is none.
    pub next: Option<String>,
    /// The front page.
    pub newest: String,
    /// Numbered pages to link, newest first, with gaps.
    pub pages: Vec<PageLink>,
}

#[derive(Serialize, Hash)]
pub struct PageLink {
    pub number: usize,
    pub url: String,
    pub current: bool,
    /// Stands for the pages left out between its neighbours (shown as "…").
    pub gap: bool,
}

/// Numbered pages linked on either side of the current one.
const WINDOW: usize = 2;

/// The pager of a page of the list whose front page is `front` (see `page_rel`).
pub fn paginator(front: &str, split: Split, page: ListPage, urls: &Urls) -> Paginator {
    if split.front == Front::Start {
        return from_start(front, split, page, urls);
    }
    let url = |n: usize| urls.path(&page_rel(front, ListPage::Numbered(n)));
    let total = split.numbered();
    let newest = urls.path(front);
    // The numbers shown, newest first: near this page, then the oldest page. The front page
    // shows the papers of the newest numbered pages itself: the pager leads to none of them
    // (but from one of them, reached by its address), so a reader going "older" never
    // meets a card twice, nor one going "newer" a page the front page showed them.
    let before_front = split.before_front();
    let top = match page {
        ListPage::Numbered(_) if split.shown_in_front(page) => total,
        _ => before_front,
    };
    let (current, near) = match page {
        ListPage::Front => (None, top.saturating_sub(WINDOW)..=top),
        ListPage::Numbered(n) => (Some(n), n.saturating_sub(WINDOW)..=(n + WINDOW).min(top)),
    };
    let near = (*near.start()).max(1)..=*near.end();
    let mut pages = Vec::new();
    if top > 0 {
        if *near.end() < top {
            pages.push(gap(*near.end() + 1));
        }
        for n in near.clone().rev() {
            pages.push(PageLink {
                number: n,
                url: url(n),
                current: Some(n) == current,
                gap: false,
            });
        }
        if *near.start() > 2 {
            pages.push(gap(*near.start() - 1));
        }
        if *near.start() > 1 {
            pages.push(PageLink {
                number: 1,
                url: url(1),
                current: false,
                gap: false,
            });
        }
    }
    let (first, last, prev, next) = match page {
        ListPage::Front => {
            let older = split.before_front();
            (None, None, None, (older > 0).then(|| url(older)))
        }
        ListPage::Numbered(n) => {
            let r = split.range(page);
            let prev = if n < top { url(n + 1) } else { newest.clone() };
            let first = split.len - r.end + 1;
            (
                Some(first),
                Some(first + r.len() - 1),
                Some(prev),
                (n > 1).then(|| url(n - 1)),
            )
        }
    };
    Paginator {
        current,
        first,
        last,
        prev,
        next,
        newest,
        pages,
    }
}

/// The pager of a list read from its start: every page linked, in order (a week's group
/// has a few dozen pages at most, and the week's page links them all too).
fn from_start(front: &str, split: Split, page: ListPage, urls: &Urls) -> Paginator {
    let url = |n: usize| match n {
        1 => urls.path(front),
        n => urls.path(&page_rel(front, ListPage::Numbered(n))),
    };
    let n = match page {
        ListPage::Front => 1,
        ListPage::Numbered(n) => n,
    };
    let total = split.numbered();
    let r = split.range(page);
    Paginator {
        current: (total > 0).then_some(n),
        first: Some(r.start + 1),
        last: Some(r.end),
        prev: (n > 1).then(|| url(n - 1)),
        next: (n < total).then(|| url(n + 1)),
        newest: urls.path(front),
        pages: (1..=total)
            .map(|k| PageLink {
                number: k,
                url: url(k),
                current: k == n,
                gap: false,
            })
            .collect(),
    }
}

fn gap(number: usize) -> PageLink {
    PageLink {
        number,
        url: String::new(),
        current: false,
        gap: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(len: usize) -> Split {
        Split {
            len,
            per_page: 10,
            front: Front::TwoNewestPages,
        }
    }

    fn author(len: usize) -> Split {
        Split {
            len,
            per_page: 50,
            front: Front::NewestPapers,
        }
    }

    #[test]
    fn an_author_s_front_page_shows_the_newest_fifty_and_numbered_pages_are_full() {
        assert_eq!(author(50).numbered(), 0);
        assert_eq!(author(50).range(ListPage::Front), 0..50);
        // 120 papers: pages 1 (oldest 50) and 2 (the next 50); the front page the newest 50.
        let s = author(120);
        assert_eq!(s.numbered(), 2);
        assert_eq!(s.range(ListPage::Front), 0..50);
        assert_eq!(s.range(ListPage::Numbered(1)), 70..120);
        assert_eq!(s.range(ListPage::Numbered(2)), 20..70);
        // Every paper is on the front page or a numbered page.
        let mut seen: Vec<usize> = s.pages().flat_map(|p| s.range(p)).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen, (0..120).collect::<Vec<_>>());
        // "Older" goes to page 2, which holds papers the front page does not.
        assert_eq!(s.before_front(), 2);
        // At 100, page 2 is the front page's papers exactly: "Older" skips it.
        assert_eq!(author(100).before_front(), 1);
        // A new week adds a paper: page 1 and page 2 keep theirs (counted from the oldest).
        let shift = |r: Range<usize>, len: usize| (len - r.end)..(len - r.start);
        for n in 1..=2 {
            let page = ListPage::Numbered(n);
            assert_eq!(
                shift(author(120).range(page), 120),
                shift(author(121).range(page), 121)
            );
        }
    }

    #[test]
    fn pages_are_counted_from_the_oldest_and_the_front_page_shows_the_newest_two() {
        // 45 papers, newest first: page 1 is the oldest ten, page 5 the newest five.
        let s = split(45);
        assert_eq!(s.numbered(), 5);
        assert_eq!(s.range(ListPage::Numbered(1)), 35..45);
        assert_eq!(s.range(ListPage::Numbered(4)), 5..15);
        assert_eq!(s.range(ListPage::Numbered(5)), 0..5);
        assert_eq!(s.range(ListPage::Front), 0..15);
        // Every paper is on exactly one numbered page.
        let mut seen: Vec<usize> = (1..=5)
            .flat_map(|n| s.range(ListPage::Numbered(n)))
            .collect();
        seen.sort();
        assert_eq!(seen, (0..45).collect::<Vec<_>>());
    }

    #[test]
    fn a_full_page_keeps_its_papers_when_newer_ones_come() {
        let (before, after) = (split(45), split(58));
        for n in 1..=4 {
            let page = ListPage::Numbered(n);
            // The same papers, counted from the oldest: the list grows at the front.
            let shift = |r: Range<usize>, len: usize| (len - r.end)..(len - r.start);
            assert_eq!(
                shift(before.range(page), 45),
                shift(after.range(page), 58),
                "page {n}"
            );
        }
    }

    #[test]
    fn small_categories_have_only_a_front_page() {
        assert_eq!(split(10).numbered(), 0);
        assert_eq!(split(10).range(ListPage::Front), 0..10);
        assert_eq!(split(0).range(ListPage::Front), 0..0);
        assert_eq!(split(11).numbered(), 2);
        assert_eq!(split(11).range(ListPage::Front), 0..11);
    }

    fn shown(p: &Paginator) -> String {
        p.pages
            .iter()
            .map(|p| match (p.gap, p.current) {
                (true, _) => "…".to_string(),
                (_, true) => format!("[{}]", p.number),
                _ => p.number.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_pager_links_newer_and_older_pages_and_the_oldest() {
        let urls = Urls::new("https://example.org/d/");
        let p = |len, page| paginator("categories/cs.DC/", split(len), page, &urls);
        let mid = p(200, ListPage::Numbered(10));
        assert_eq!(shown(&mid), "… 12 11 [10] 9 8 … 1");
        assert_eq!(mid.prev.as_deref(), Some("/d/categories/cs.DC/page/11/"));
        assert_eq!(mid.next.as_deref(), Some("/d/categories/cs.DC/page/9/"));
        assert_eq!((mid.first, mid.last), (Some(91), Some(100)));
        // The front page shows pages 20 and 19 itself: its pager starts at 18.
        let front = p(200, ListPage::Front);
        assert_eq!(shown(&front), "18 17 16 … 1");
        assert_eq!(front.current, None);
        assert_eq!(front.prev, None);
        assert_eq!(front.next.as_deref(), Some("/d/categories/cs.DC/page/18/"));
        let newest = p(195, ListPage::Numbered(20));
        assert_eq!(newest.prev.as_deref(), Some("/d/categories/cs.DC/"));
        assert_eq!((newest.first, newest.last), (Some(191), Some(195)));
        // The newest page the front page does not show leads newer to the front page, not
        // to page 19, whose papers the reader saw there; nor does its pager list 19 or 20.
        let below_front = p(200, ListPage::Numbered(18));
        assert_eq!(shown(&below_front), "[18] 17 16 … 1");
        assert_eq!(below_front.prev.as_deref(), Some("/d/categories/cs.DC/"));
        assert_eq!(shown(&p(200, ListPage::Numbered(17))), "18 [17] 16 15 … 1");
        assert!(split(200).shown_in_front(ListPage::Numbered(19)));
        assert!(!split(200).shown_in_front(ListPage::Numbered(18)));
        assert!(!split(200).shown_in_front(ListPage::Front));
        // An author's: 100 papers, the front page the newest 50, page 2 the same 50.
        assert!(author(100).shown_in_front(ListPage::Numbered(2)));
        assert!(!author(120).shown_in_front(ListPage::Numbered(2)));
        let oldest = p(200, ListPage::Numbered(1));
        assert_eq!(shown(&oldest), "… 3 2 [1]");
        assert_eq!(oldest.next, None);
        assert_eq!(shown(&p(30, ListPage::Front)), "1");
        assert_eq!(shown(&p(20, ListPage::Front)), "");
        assert_eq!(shown(&p(5, ListPage::Front)), "");
    }

    #[test]
    fn a_week_s_group_is_paged_from_its_start_and_every_page_is_linked() {
        let urls = Urls::new("/");
        let s = Split {
            len: 250,
            per_page: 100,
            front: Front::Start,
        };
        let pages: Vec<ListPage> = s.pages().collect();
        assert_eq!(
            pages,
            [
                ListPage::Front,
                ListPage::Numbered(2),
                ListPage::Numbered(3)
            ]
        );
        assert_eq!(s.range(ListPage::Front), 0..100);
        assert_eq!(s.range(ListPage::Numbered(3)), 200..250);
        // Every paper on exactly one page.
        let seen: Vec<usize> = pages.iter().flat_map(|&p| s.range(p)).collect();
        assert_eq!(seen, (0..250).collect::<Vec<_>>());
        let p = paginator("digests/2026-W10/cs.lg/", s, ListPage::Numbered(2), &urls);
        assert_eq!(shown(&p), "1 [2] 3");
        assert_eq!(p.pages[0].url, "/digests/2026-W10/cs.lg/");
        assert_eq!(p.prev.as_deref(), Some("/digests/2026-W10/cs.lg/"));
        assert_eq!(p.next.as_deref(), Some("/digests/2026-W10/cs.lg/page/3/"));
        assert_eq!((p.first, p.last), (Some(101), Some(200)));
        let small = Split { len: 40, ..s };
        assert_eq!(small.pages().count(), 1);
        assert_eq!(shown(&paginator("x/", small, ListPage::Front, &urls)), "");
    }

    #[test]
    fn an_old_page_s_pager_stays_the_same_as_pages_are_added() {
        let urls = Urls::new("/");
        let json = |len| {
            serde_json::to_string(&paginator(
                "categories/x/",
                split(len),
                ListPage::Numbered(5),
                &urls,
            ))
            .unwrap()
        };
        // Page 5 links up to page 7, and a gap once there are more the front page does not
        // show: from 91 papers (page 8, of 10) on.
        assert_eq!(json(91), json(500));
        assert_ne!(json(81), json(91));
    }
}
