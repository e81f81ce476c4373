//! Weeks, digests, cards and lines, and the summaries of weeks and categories the list pages show.

use super::*;

/// A link to a week's digest: `name` is its ISO week ("2025-W34", as the URL and a card's
/// `data-week` have it), `title` what a reader reads ("Week 34, 2025", as its heading).
#[derive(Serialize)]
pub struct WeekLink {
    pub name: String,
    pub title: String,
    pub url: String,
}

pub fn week_link(d: &DigestEntry, urls: &Urls) -> WeekLink {
    WeekLink {
        name: d.week.to_string(),
        title: week_title(d),
        url: urls.path(&digest_rel(d)),
    }
}

#[derive(Serialize)]
pub struct CategoryGroup<P> {
    /// For "other", the folded groups: its name is "Other categories" ("All categories" when
    /// it is the only group) and its url empty.
    pub category: CategoryRef,
    /// Its papers in the order `group_order` gives; on a week's page, only those it shows.
    pub papers: Vec<P>,
    /// The whole group's length.
    pub count: usize,
    /// Where the rest is, when the week's page shows only its first papers (`fit_week`).
    pub more: Option<More>,
    /// The folded small groups (each paper's card shows its category).
    pub other: bool,
}

/// A digest with its papers as `P`: full paper views, or cards (`CardItem`).
#[derive(Serialize)]
pub struct DigestView<'a, P = PaperView<'a>> {
    pub week: String,
    /// The digest's title, else `Week 9, 2026`.
    pub title: String,
    pub start: String,
    pub end: String,
    pub url: String,
    pub permalink: String,
    /// The editor's introduction as HTML.
    pub body: &'a str,
    pub paper_count: usize,
    /// Papers an editor reviewed, first.
    pub picks: Vec<P>,
    pub picks_count: usize,
    pub picks_more: Option<More>,
    /// The other new papers, grouped by primary category: the site's own categories first
    /// (`Site::preferred_categories`), then the larger groups; groups smaller than
    /// `FOLD_BELOW` fold into one "Other categories" group, last. Papers in the digest's
    /// own order.
    pub groups: Vec<CategoryGroup<P>>,
    pub updated_papers: Vec<P>,
    pub updated_count: usize,
    pub updated_more: Option<More>,
    pub prev: Option<WeekLink>,
    pub next: Option<WeekLink>,
}

/// The category a paper is filed under: its primary one, else its first.
pub fn primary_category(f: &crate::store::frontmatter::PaperFront) -> &str {
    if f.primary_category.is_empty() {
        f.categories
            .first()
            .map(String::as_str)
            .unwrap_or("uncategorized")
    } else {
        &f.primary_category
    }
}

pub fn category_page_link(name: &str, urls: &Urls) -> CategoryRef {
    let slug = category_slug(name);
    CategoryRef {
        name: name.to_string(),
        url: urls.path(&pager::front_rel(&slug)),
        slug,
        full_name: crate::site::taxonomy::lookup(name).map_or("", |e| e.name),
    }
}

/// A digest with full paper views (what `digest.html` gets from a theme without
/// `card.html`, and what emails get).
pub fn digest_view<'a>(site: &'a Site, di: usize, urls: &Urls) -> anyhow::Result<DigestView<'a>> {
    digest_view_with(site, di, urls, |i| paper_view(site, i, urls))
}

/// A digest whose papers are made by `item` from their index.
pub fn digest_view_with<'a, P>(
    site: &'a Site,
    di: usize,
    urls: &Urls,
    mut item: impl FnMut(usize) -> anyhow::Result<P>,
) -> anyhow::Result<DigestView<'a, P>> {
    let d = &site.digests[di];
    let mut picks = Vec::new();
    let mut groups: Vec<CategoryGroup<usize>> = Vec::new();
    for &pi in &d.papers {
        if is_pick(&site.papers[pi]) {
            picks.push(pi);
            continue;
        }
        let category = primary_category(&site.papers[pi].front);
        match groups.iter_mut().find(|g| g.category.name == category) {
            Some(g) => g.papers.push(pi),
            None => groups.push(CategoryGroup {
                category: category_page_link(category, urls),
                papers: vec![pi],
                count: 0,
                more: None,
                other: false,
            }),
        }
    }
    let mut groups = order_groups(groups, &site.preferred_categories);
    for g in &mut groups {
        // A stable sort: papers alike keep the digest's order.
        g.papers.sort_by_key(|&i| group_order(&site.papers[i]));
        g.count = g.papers.len();
    }
    let picks: Vec<P> = picks
        .into_iter()
        .map(&mut item)
        .collect::<anyhow::Result<_>>()?;
    let groups = groups
        .into_iter()
        .map(|g| {
            Ok(CategoryGroup {
                category: g.category,
                papers: g
                    .papers
                    .into_iter()
                    .map(&mut item)
                    .collect::<anyhow::Result<_>>()?,
                count: g.count,
                more: None,
                other: g.other,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let rel = digest_rel(d);
    Ok(DigestView {
        week: d.week.to_string(),
        title: week_title(d),
        start: d.front.start.unwrap_or_else(|| d.week.start()).to_string(),
        end: d.front.end.unwrap_or_else(|| d.week.end()).to_string(),
        url: urls.path(&rel),
        permalink: urls.permalink(&rel),
        body: &d.body_html,
        paper_count: d.papers.len(),
        picks_count: picks.len(),
        picks,
        picks_more: None,
        groups,
        updated_count: d.updated.len(),
        updated_papers: d
            .updated
            .iter()
            .map(|&i| item(i))
            .collect::<anyhow::Result<_>>()?,
        updated_more: None,
        // Digests are newest first: the previous week is the next index.
        prev: site.digests.get(di + 1).map(|p| week_link(p, urls)),
        next: di.checked_sub(1).map(|n| week_link(&site.digests[n], urls)),
    })
}

/// Where a paper comes in its group: one with code first, then one with a venue (a journal
/// reference or a DOI: published, or accepted), then the rest; alike ones in the digest's
/// order. A reader who opens a group that does not fit on the week's page meets first the
/// papers they can check and build on. (The editor's picks come before every group.)
pub fn group_order(p: &PaperEntry) -> (bool, bool) {
    let f = &p.front;
    let code = f
        .machine
        .as_deref()
        .is_some_and(|m| !safe_url(&m.code).is_empty());
    let venue = !f.journal_ref.trim().is_empty() || !f.doi.trim().is_empty();
    (!code, !venue)
}

/// Groups of fewer papers than this fold into "Other categories", unless they are of the
/// site's own categories: a long week of mostly one-paper groups reads as a list.
pub const FOLD_BELOW: usize = 3;

/// Whether an editor reviewed the paper: a pick, shown first.
pub fn is_pick(p: &PaperEntry) -> bool {
    let r = p.front.people_review();
    !r.headline.trim().is_empty() || !r.summary.trim().is_empty()
}

/// The site's own categories first, in their order; then by size, largest first, then by
/// name; small groups folded into one, last.
pub(super) fn order_groups<P>(
    groups: Vec<CategoryGroup<P>>,
    preferred: &[String],
) -> Vec<CategoryGroup<P>> {
    let rank = |g: &CategoryGroup<P>| preferred.iter().position(|c| *c == g.category.name);
    let (mut keep, small): (Vec<_>, Vec<_>) = groups
        .into_iter()
        .partition(|g| rank(g).is_some() || g.papers.len() >= FOLD_BELOW);
    keep.sort_by(|a, b| {
        (
            rank(a).unwrap_or(usize::MAX),
            std::cmp::Reverse(a.papers.len()),
            &a.category.name,
        )
            .cmp(&(
                rank(b).unwrap_or(usize::MAX),
                std::cmp::Reverse(b.papers.len()),
                &b.category.name,
            ))
    });
    match small.len() {
        0 => {}
        // One small group is no fold: it keeps its name.
        1 => keep.extend(small),
        _ => {
            let mut small = small;
            small.sort_by(|a, b| a.category.name.cmp(&b.category.name));
            // With no group beside it there is nothing for it to be "other" than.
            let name = if keep.is_empty() {
                "All categories"
            } else {
                "Other categories"
            };
            keep.push(CategoryGroup {
                category: CategoryRef {
                    name: name.into(),
                    url: String::new(),
                    slug: OTHER_SLUG.into(),
                    full_name: "",
                },
                papers: small.into_iter().flat_map(|g| g.papers).collect(),
                count: 0,
                more: None,
                other: true,
            });
        }
    }
    keep
}

/// A paper on a list page of a theme with `card.html`: its card, rendered once for every
/// page that lists it, and what a template needs around it.
#[derive(Serialize)]
pub struct CardItem<'a> {
    pub id: &'a str,
    pub slug: &'a str,
    pub url: String,
    pub title: &'a str,
    /// `card.html` rendered for this paper.
    pub card: &'a str,
}

pub fn card_item<'a>(site: &'a Site, i: usize, urls: &Urls, card: &'a str) -> CardItem<'a> {
    let p = &site.papers[i];
    CardItem {
        id: p.front.id.as_str(),
        slug: &p.slug,
        url: urls.path(&paper_rel(p)),
        title: &p.front.title,
        card,
    }
}

/// A paper on a category page, with the heading of its week when it is the first of that
/// week on the page.
#[derive(Serialize)]
pub struct Headed<P> {
    #[serde(flatten)]
    pub paper: P,
    pub week_heading: Option<Link>,
}

/// Headings for a category page's papers: the announcing week's title where a new week
/// starts, and one heading over the papers that no digest lists.
pub fn week_headings(site: &Site, papers: &[usize], urls: &Urls) -> Vec<Option<Link>> {
    let mut last = None;
    papers
        .iter()
        .enumerate()
        .map(|(n, i)| {
            let week = site.week_of[*i];
            if n > 0 && week == last {
                return None;
            }
            last = week;
            Some(match week {
                Some(di) => {
                    let d = &site.digests[di];
                    Link {
                        name: week_title(d),
                        url: urls.path(&digest_rel(d)),
                    }
                }
                None => Link {
                    name: "Not in a weekly digest".to_string(),
                    url: String::new(),
                },
            })
        })
        .collect()
}

#[derive(Serialize)]
pub struct WeekSummary {
    pub week: String,
    pub title: String,
    pub url: String,
    pub start: String,
    pub end: String,
    pub paper_count: usize,
    pub updated_count: usize,
    /// Its first few papers' headlines (the editor's picks first), linked: what the home
    /// page shows of past weeks.
    pub top: Vec<TopHeadline>,
}

/// A headline a past week shows on the home page, and whether the machine wrote it: the
/// site promises that a machine's line says so wherever it is shown.
#[derive(Serialize)]
pub struct TopHeadline {
    pub name: String,
    pub url: String,
    pub machine: bool,
}

/// A week's title as lists show it: the digest's own, else `Week 9, 2026`.
pub fn week_title(d: &DigestEntry) -> String {
    if d.front.title.is_empty() {
        d.week.title()
    } else {
        d.front.title.clone()
    }
}

/// Every week, newest first; the first `with_top` carry their top headlines.
pub fn week_summaries(site: &Site, urls: &Urls, with_top: usize) -> Vec<WeekSummary> {
    site.digests
        .iter()
        .enumerate()
        .map(|(di, d)| WeekSummary {
            week: d.week.to_string(),
            title: week_title(d),
            url: urls.path(&digest_rel(d)),
            start: d.front.start.unwrap_or_else(|| d.week.start()).to_string(),
            end: d.front.end.unwrap_or_else(|| d.week.end()).to_string(),
            paper_count: d.papers.len(),
            updated_count: d.updated.len(),
            top: if di < with_top {
                top_headlines(site, di, urls, TOP_HEADLINES)
            } else {
                Vec::new()
            },
        })
        .collect()
}

/// Headlines a past week shows on the home page.
pub const TOP_HEADLINES: usize = 3;

/// The week's first `n` headlines in the order its digest shows papers: picks, then the
/// site's own categories. A paper without a headline shows its title.
pub(super) fn top_headlines(site: &Site, di: usize, urls: &Urls, n: usize) -> Vec<TopHeadline> {
    let Ok(view) = digest_view_with(site, di, urls, Ok) else {
        return Vec::new();
    };
    view.picks
        .iter()
        .chain(view.groups.iter().flat_map(|g| &g.papers))
        .take(n)
        .map(|&i| {
            let p = &site.papers[i];
            let review = review_view(p, urls);
            TopHeadline {
                name: if review.headline.is_empty() {
                    p.front.title.clone()
                } else {
                    review.headline.to_string()
                },
                url: urls.path(&paper_rel(p)),
                machine: review.headline_machine,
            }
        })
        .collect()
}

/// A category's link with its count: `{name, url, feed_url, paper_count}`.
#[derive(Serialize)]
pub struct CategorySummary {
    #[serde(flatten)]
    pub link: CategoryLink,
    pub paper_count: usize,
    /// arXiv's description of what it covers; empty for a journal's subject.
    pub description: &'static str,
    /// arXiv's group ("Computer Science"), or "Journals and other feeds".
    pub group: &'static str,
    /// An arXiv category (else a journal's subject).
    pub is_arxiv: bool,
}

pub fn category_summary(c: &Category, urls: &Urls) -> CategorySummary {
    CategorySummary {
        link: category_link(c, urls),
        paper_count: c.papers.len(),
        description: c.arxiv.map_or("", |e| e.description),
        group: c.arxiv.map_or("Journals and other feeds", |e| e.group),
        is_arxiv: c.arxiv.is_some(),
    }
}
