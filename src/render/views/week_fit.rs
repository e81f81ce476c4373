//! A week at any size: how many cards of each list (the editor's picks, each group, the
//! new versions) a week's page shows, and the pages of a list that does not fit.
//!
//! A week's page shows at most `WEEK_CARDS` cards, whatever the number of groups (the
//! editor's picks first, up to half of them; the groups and new versions share the rest): a field's
//! week of 3,000 papers in 40 categories opens as fast as a category's week of 86. What a
//! list does not show is on its own pages (`digests/<week>/<slug>/`, then `page/<n>/`),
//! each linked from the week's page.

use super::*;

/// Cards a week's page (and the home page) shows, all lists together. A card without its
/// abstract is about 1.5 KB: 100 of them are some 150 KB, a few screens on a phone.
pub const WEEK_CARDS: usize = 100;

/// Cards on a page of a week's list.
pub const LIST_PAGE_CARDS: usize = 100;

/// How many of each list's papers a page of `budget` cards shows: a list shorter than
/// its fair share shows all of it, and what it leaves goes to the longer lists in equal
/// shares (the remainder one each to the first of them). Every list shows at least one.
pub fn fair_shares(lens: &[usize], budget: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..lens.len()).collect();
    order.sort_by_key(|&i| (lens[i], i));
    let mut shares = lens.to_vec();
    let mut left = budget;
    for (k, &i) in order.iter().enumerate() {
        let lists_left = lens.len() - k;
        let share = left / lists_left;
        if lens[i] <= share {
            left -= lens[i];
            continue;
        }
        // This list and every longer one are cut to the same share.
        let capped = &order[k..];
        let mut extra = left % lists_left;
        let mut by_position = capped.to_vec();
        by_position.sort_unstable();
        for j in by_position {
            let bonus = usize::from(extra > 0);
            extra = extra.saturating_sub(1);
            shares[j] = (share + bonus).clamp(1, lens[j]);
        }
        break;
    }
    shares
}

/// `fair_shares` of a week's lists, the editor's picks (when `picks`, the first list)
/// served first: they are the editor's choice, shown whole up to half the budget, and the
/// rest is shared among the groups and the new versions.
pub fn week_shares(lens: &[usize], picks: bool, budget: usize) -> Vec<usize> {
    match lens.split_first() {
        Some((&first, rest)) if picks => {
            let shown = first.min(budget / 2).max(1);
            let mut shares = vec![shown];
            shares.extend(fair_shares(rest, budget - shown.min(budget)));
            shares
        }
        _ => fair_shares(lens, budget),
    }
}

/// One list of a week as its page shows it, in page order.
pub struct WeekList<'v, P> {
    /// `picks`, a group's category slug (`other` for the folded small groups), `updated`.
    pub slug: String,
    pub name: String,
    pub full_name: &'static str,
    /// The category's page; empty for picks, new versions and the folded groups.
    pub category_url: String,
    pub papers: &'v [P],
}

/// The week's lists: the editor's picks, the groups, the new versions (those not empty).
pub fn week_lists<'v, P>(view: &'v DigestView<'_, P>) -> Vec<WeekList<'v, P>> {
    let mut lists = Vec::new();
    let mut push = |slug: &str, name: &str, full_name, url: &str, papers: &'v [P]| {
        if !papers.is_empty() {
            lists.push(WeekList {
                slug: slug.to_string(),
                name: name.to_string(),
                full_name,
                category_url: url.to_string(),
                papers,
            });
        }
    };
    push(PICKS_SLUG, "Editor's picks", "", "", &view.picks);
    for g in &view.groups {
        push(
            &g.category.slug,
            &g.category.name,
            g.category.full_name,
            &g.category.url,
            &g.papers,
        );
    }
    push(UPDATED_SLUG, "New versions", "", "", &view.updated_papers);
    lists
}

/// The lists that do not fit on the week's page, each with how many of its papers that
/// page shows.
pub fn cut_lists<'v, P>(view: &'v DigestView<'_, P>) -> Vec<(WeekList<'v, P>, usize)> {
    let lists = week_lists(view);
    let lens: Vec<usize> = lists.iter().map(|l| l.papers.len()).collect();
    let picks = lists.first().is_some_and(|l| l.slug == PICKS_SLUG);
    let shares = week_shares(&lens, picks, WEEK_CARDS);
    lists
        .into_iter()
        .zip(shares)
        .filter(|(l, shown)| *shown < l.papers.len())
        .collect()
}

/// A list's pages: where its first is, in pages of `LIST_PAGE_CARDS`.
pub fn list_split(len: usize) -> pager::Split {
    pager::Split {
        len,
        per_page: LIST_PAGE_CARDS,
        front: pager::Front::Start,
    }
}

/// What `week_list.html` gets as `list`.
#[derive(Serialize)]
pub struct WeekListView<'a> {
    pub slug: &'a str,
    pub name: &'a str,
    pub full_name: &'static str,
    pub category_url: &'a str,
    /// The whole list's length.
    pub count: usize,
}

/// The first page of a week's list.
pub fn week_list_rel(week: &str, slug: &str) -> String {
    format!("digests/{week}/{slug}/")
}

/// Every page of the lists week `di`'s page cuts, as site paths.
pub fn week_list_rels(site: &Site, di: usize, urls: &Urls) -> anyhow::Result<Vec<String>> {
    let view = digest_view_with(site, di, urls, Ok)?;
    let mut rels = Vec::new();
    for (list, _) in cut_lists(&view) {
        let front = week_list_rel(&view.week, &list.slug);
        let split = list_split(list.papers.len());
        rels.extend(split.pages().map(|page| pager::page_rel(&front, page)));
    }
    Ok(rels)
}

/// What a list the week's page cuts links to: its whole length and its pages.
#[derive(Serialize, Hash)]
pub struct More {
    pub count: usize,
    /// The list's first page.
    pub url: String,
    /// Every page of it, numbered from 1 (its first page).
    pub pages: Vec<pager::PageLink>,
}

fn more(week: &str, slug: &str, len: usize, urls: &Urls) -> More {
    let front = week_list_rel(week, slug);
    let split = list_split(len);
    let mut pages = pager::paginator(&front, split, pager::ListPage::Front, urls).pages;
    for p in &mut pages {
        p.current = false;
    }
    More {
        count: len,
        url: urls.path(&front),
        pages,
    }
}

/// Cuts the view's lists to what the week's page shows (`WEEK_CARDS` in all) and says
/// where the rest is. The counts (`count`, `picks_count`, `updated_count`) stay whole.
pub fn fit_week<P>(view: &mut DigestView<'_, P>, urls: &Urls) {
    let cuts: Vec<(String, usize, usize)> = cut_lists(view)
        .into_iter()
        .map(|(l, shown)| (l.slug, shown, l.papers.len()))
        .collect();
    for (slug, shown, len) in cuts {
        let more = Some(more(&view.week, &slug, len, urls));
        match slug.as_str() {
            PICKS_SLUG => {
                view.picks.truncate(shown);
                view.picks_more = more;
            }
            UPDATED_SLUG => {
                view.updated_papers.truncate(shown);
                view.updated_more = more;
            }
            _ => {
                if let Some(g) = view.groups.iter_mut().find(|g| g.category.slug == slug) {
                    g.papers.truncate(shown);
                    g.more = more;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lists_show_whole_and_long_ones_share_the_rest() {
        assert_eq!(fair_shares(&[10, 20, 30], 100), [10, 20, 30]);
        assert_eq!(fair_shares(&[10, 500, 1000], 100), [10, 45, 45]);
        assert_eq!(fair_shares(&[500, 1000, 2], 101), [50, 49, 2]);
        // Forty groups of a field: a hundred cards, two or three each.
        let shares = fair_shares(&[75; 40], 100);
        assert_eq!(shares.iter().sum::<usize>(), 100);
        assert!(shares.iter().all(|&s| s == 2 || s == 3));
        // More lists than cards: each still shows its first.
        assert_eq!(fair_shares(&[5; 4], 2), [1, 1, 1, 1]);
        assert_eq!(fair_shares(&[], 100), Vec::<usize>::new());
    }

    #[test]
    fn the_editor_s_picks_are_served_first_up_to_half() {
        // Twelve picks show whole; the groups share the other 88.
        assert_eq!(week_shares(&[12, 1000, 1000], true, 100), [12, 44, 44]);
        assert_eq!(week_shares(&[12, 1000, 1000], false, 100), [12, 44, 44]);
        assert_eq!(week_shares(&[300, 1000], true, 100), [50, 50]);
        assert_eq!(week_shares(&[30, 1000, 5], true, 100), [30, 65, 5]);
    }
}
