//! What templates see: borrowed, serializable views of the site's data. The variables are
//! documented in themes/default/TEMPLATES.md.

use super::pager;
use crate::site::{Category, DigestEntry, PaperEntry, Site, category_slug};
use serde::Serialize;
use std::borrow::Cow;

/// Everything a view needs to turn a site path into a link.
pub struct Urls {
    /// `/` or `/digest/`.
    pub base_path: String,
    /// `https://example.org/digest` without a trailing slash.
    pub base_url: String,
    /// Links as absolute URLs (for email) rather than site paths.
    absolute: bool,
}

impl Urls {
    pub fn new(base_url: &str) -> Urls {
        Urls {
            base_path: crate::config::base_path_of(base_url),
            base_url: base_url.trim_end_matches('/').to_string(),
            absolute: false,
        }
    }
    /// Links that work outside the site, in a mail client.
    pub fn absolute(base_url: &str) -> Urls {
        Urls {
            absolute: true,
            ..Urls::new(base_url)
        }
    }
    /// A site-relative path (`papers/x/`) as a link that honours the base path.
    pub fn path(&self, rel: &str) -> String {
        if self.absolute {
            self.permalink(rel)
        } else {
            format!("{}{}", self.base_path, rel)
        }
    }
    /// The same as an absolute URL, for feeds, sitemaps and canonical links.
    pub fn permalink(&self, rel: &str) -> String {
        let host = self
            .base_url
            .strip_suffix(self.base_path.trim_end_matches('/'))
            .unwrap_or(&self.base_url);
        format!("{host}{}{rel}", self.base_path)
    }
}

pub fn paper_rel(p: &PaperEntry) -> String {
    format!("papers/{}/", p.slug)
}
pub fn digest_rel(d: &DigestEntry) -> String {
    format!("digests/{}/", d.week)
}

/// Only http(s) links from feeds reach a page; anything else (`javascript:`) is dropped.
pub fn safe_url(url: &str) -> &str {
    let u = url.trim();
    let lower = u.get(..8).unwrap_or(u).to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        u
    } else {
        ""
    }
}

#[derive(Serialize)]
pub struct Link {
    pub name: String,
    pub url: String,
}

/// A category as a paper or a group shows it.
#[derive(Serialize)]
pub struct CategoryRef {
    pub name: String,
    pub url: String,
    /// URL-safe (`[A-Za-z0-9.-]`): for anchors and `data-` attributes.
    pub slug: String,
    /// arXiv's name for it; empty for a journal's subject.
    pub full_name: &'static str,
}

/// What a card and a paper page show of the paper's review: the editor's `[review]`,
/// key by key over the machine's `[machine]`.
#[derive(Serialize)]
pub struct ReviewView<'a> {
    pub headline: &'a str,
    pub summary: &'a str,
    pub badges: &'a [String],
    /// A repository the paper links (from the machine review).
    pub code: &'a str,
    pub figure: String,
    /// The figure as an absolute URL, for `og:image` and mail.
    pub figure_permalink: String,
    pub figure_caption: &'a str,
    /// The thumbnail's size, for `width` and `height` (0 for an editor's own figure).
    pub figure_width: u32,
    pub figure_height: u32,
    /// "Figure from arXiv:2602.23556 (Sarkar et al.), CC BY 4.0".
    pub figure_credit: String,
    /// Its first part, "Figure from arXiv:2602.23556 (Sarkar et al.)", for a credit line
    /// that links the licence (`paper.license`).
    pub figure_from: String,
    /// The shown headline or summary is the machine's.
    pub machine: bool,
    /// Who wrote the shown headline and summary: the summarizer or model, or "editor".
    pub by: &'a str,
}

/// The paper's licence: its URL and the name a reader knows.
#[derive(Serialize)]
pub struct LicenseView<'a> {
    pub url: &'a str,
    /// "CC BY 4.0"; "license not stated" when none is known.
    pub name: String,
}

pub fn license_view(f: &crate::store::frontmatter::PaperFront) -> LicenseView<'_> {
    LicenseView {
        url: safe_url(&f.license),
        name: crate::license::short_name(&f.license),
    }
}

/// Where the build publishes a paper's machine figure: beside its page.
pub fn figure_rel(p: &PaperEntry) -> Option<String> {
    let m = p.front.machine.as_ref()?;
    (!m.figure.is_empty()).then(|| format!("{}figure.webp", paper_rel(p)))
}

/// "Figure from arXiv:ID (First et al.), LICENCE".
pub fn figure_credit(f: &crate::store::frontmatter::PaperFront) -> String {
    format!(
        "{}, {}",
        figure_from(f),
        crate::license::short_name(&f.license)
    )
}

/// "Figure from arXiv:ID (First et al.)".
pub fn figure_from(f: &crate::store::frontmatter::PaperFront) -> String {
    let from = if f.id.is_arxiv() {
        format!("arXiv:{}", f.id)
    } else {
        format!("\u{201c}{}\u{201d}", f.title)
    };
    let who = match f.authors.as_slice() {
        [] => String::new(),
        [one] => format!(" ({})", surname(one)),
        [a, b] => format!(" ({} and {})", surname(a), surname(b)),
        [a, ..] => format!(" ({} et al.)", surname(a)),
    };
    format!("Figure from {from}{who}")
}

fn surname(name: &str) -> &str {
    name.split_whitespace().last().unwrap_or(name)
}

pub fn review_view<'a>(p: &'a PaperEntry, urls: &Urls) -> ReviewView<'a> {
    let f = &p.front;
    let r = &f.review;
    let m = f.machine.as_ref();
    let machine_str = |pick: fn(&crate::store::frontmatter::Machine) -> &String| {
        m.map(|m| pick(m).as_str()).unwrap_or("")
    };
    let (headline, headline_machine) = if r.headline.is_empty() {
        (machine_str(|m| &m.headline), true)
    } else {
        (r.headline.as_str(), false)
    };
    let (summary, summary_machine) = if r.summary.is_empty() {
        (machine_str(|m| &m.summary), true)
    } else {
        (r.summary.as_str(), false)
    };
    let machine =
        (headline_machine && !headline.is_empty()) || (summary_machine && !summary.is_empty());
    let badges: &[String] = match m {
        Some(m) if r.badges.is_empty() => &m.badges,
        _ => &r.badges,
    };
    let (figure, permalink, caption, width, height) =
        match (r.figure.trim().is_empty(), m, figure_rel(p)) {
            (false, _, _) => {
                let url = figure_url(urls, &r.figure);
                let permalink = if url.is_empty() || !safe_url(&url).is_empty() {
                    url.clone()
                } else {
                    urls.permalink(r.figure.trim().trim_start_matches('/'))
                };
                (url, permalink, r.figure_caption.as_str(), 0, 0)
            }
            (true, Some(m), Some(rel)) => (
                urls.path(&rel),
                urls.permalink(&rel),
                if r.figure_caption.is_empty() {
                    m.figure_caption.as_str()
                } else {
                    r.figure_caption.as_str()
                },
                m.figure_width,
                m.figure_height,
            ),
            _ => (String::new(), String::new(), "", 0, 0),
        };
    ReviewView {
        headline,
        summary,
        badges,
        code: safe_url(machine_str(|m| &m.code)),
        figure_credit: if figure.is_empty() {
            String::new()
        } else {
            figure_credit(f)
        },
        figure_from: if figure.is_empty() {
            String::new()
        } else {
            figure_from(f)
        },
        figure,
        figure_permalink: permalink,
        figure_caption: caption,
        figure_width: width,
        figure_height: height,
        machine,
        by: if machine {
            machine_str(|m| &m.by)
        } else if headline.is_empty() && summary.is_empty() {
            ""
        } else {
            "editor"
        },
    }
}

#[derive(Serialize)]
pub struct PaperView<'a> {
    pub id: &'a str,
    pub slug: &'a str,
    pub url: String,
    pub permalink: String,
    pub version: u32,
    pub title: &'a str,
    /// The title as HTML: escaped, its LaTeX as MathML (what `title | math` gives).
    pub title_html: String,
    pub authors: &'a [String],
    /// The first eight authors, comma-separated, then "et al." if there are more.
    pub authors_short: String,
    /// `2026-02-26`
    pub published: String,
    pub updated: String,
    /// RFC 3339, for `<time datetime>`.
    pub published_iso: String,
    pub updated_iso: String,
    pub primary_category: CategoryRef,
    pub categories: Vec<CategoryRef>,
    /// MSC and ACM subject classes (`35Q30`, `I.2.7`).
    pub classes: &'a [String],
    #[serde(rename = "abstract")]
    pub abstract_text: Cow<'a, str>,
    /// The abstract as HTML, as `abstract | math` gives it.
    pub abstract_html: String,
    pub comment: &'a str,
    pub journal_ref: &'a str,
    pub doi: &'a str,
    pub doi_url: String,
    pub abs_url: &'a str,
    pub pdf_url: &'a str,
    /// arXiv's HTML rendition, where review found one.
    pub html_url: String,
    pub source: &'a str,
    pub is_arxiv: bool,
    pub review: ReviewView<'a>,
    pub license: LicenseView<'a>,
    /// The editor's markdown as HTML (trusted: it comes from the site's own files).
    pub body: &'a str,
    pub extra: &'a Option<serde_json::Value>,
    /// The week that announced it, if a digest lists it.
    pub week: Option<Link>,
}

fn figure_url(urls: &Urls, figure: &str) -> String {
    let f = figure.trim();
    if f.is_empty() {
        return String::new();
    }
    if !safe_url(f).is_empty() {
        return f.to_string();
    }
    if f.contains(':') || f.starts_with("//") {
        return String::new();
    }
    urls.path(f.trim_start_matches('/'))
}

/// `2026-02-26` (or with `/`): what `format("%Y-%m-%d")` gives, without parsing a format
/// string for every date of every page.
pub fn ymd(t: &chrono::DateTime<chrono::Utc>, sep: char) -> String {
    use chrono::Datelike;
    let (year, month, day) = (t.year(), t.month(), t.day());
    if !(0..=9999).contains(&year) {
        return format!("{year:04}{sep}{month:02}{sep}{day:02}");
    }
    // Digit by digit: `format!` with padding costs more than the rest of a paper view.
    let digit = |n: u32| char::from(b'0' + (n % 10) as u8);
    let y = year as u32;
    [
        digit(y / 1000),
        digit(y / 100),
        digit(y / 10),
        digit(y),
        sep,
        digit(month / 10),
        digit(month),
        sep,
        digit(day / 10),
        digit(day),
    ]
    .iter()
    .collect()
}

/// Authors shown on a card.
const CARD_AUTHORS: usize = 8;

fn authors_short(authors: &[String]) -> String {
    let mut s = authors[..authors.len().min(CARD_AUTHORS)].join(", ");
    if authors.len() > CARD_AUTHORS {
        s.push_str(" et al.");
    }
    s
}

pub fn paper_view<'a>(site: &'a Site, i: usize, urls: &Urls) -> anyhow::Result<PaperView<'a>> {
    let p = &site.papers[i];
    let f = &p.front;
    let abstract_text = site.abstract_of(i)?;
    let rel = paper_rel(p);
    let cat_link = |c: &str| category_page_link(c, urls);
    Ok(PaperView {
        id: f.id.as_str(),
        slug: &p.slug,
        url: urls.path(&rel),
        permalink: urls.permalink(&rel),
        version: f.version,
        title: &f.title,
        title_html: crate::render::math::text_with_math(&f.title),
        authors: &f.authors,
        authors_short: authors_short(&f.authors),
        published: ymd(&f.published, '-'),
        updated: ymd(&f.updated, '-'),
        published_iso: f
            .published
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        updated_iso: f.updated.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        primary_category: cat_link(primary_category(f)),
        categories: f
            .categories
            .iter()
            .filter(|c| crate::site::is_category_of(f, c))
            .map(|c| cat_link(c))
            .collect(),
        classes: &f.classes,
        abstract_html: crate::render::math::text_with_math(&abstract_text),
        abstract_text,
        comment: &f.comment,
        journal_ref: &f.journal_ref,
        doi: &f.doi,
        doi_url: if f.doi.is_empty() {
            String::new()
        } else {
            format!("https://doi.org/{}", f.doi)
        },
        abs_url: safe_url(&f.links.abs),
        pdf_url: safe_url(&f.links.pdf),
        html_url: match &f.machine {
            Some(m) if m.html == "ok" && f.id.is_arxiv() => {
                format!("https://arxiv.org/html/{}v{}", f.id, f.version)
            }
            _ => String::new(),
        },
        source: &f.source,
        is_arxiv: f.id.is_arxiv(),
        review: review_view(p, urls),
        license: license_view(f),
        body: &p.body_html,
        extra: &f.extra,
        week: site.week_of[i].map(|d| week_link(&site.digests[d], urls)),
    })
}

pub fn week_link(d: &DigestEntry, urls: &Urls) -> Link {
    Link {
        name: d.week.to_string(),
        url: urls.path(&digest_rel(d)),
    }
}

#[derive(Serialize)]
pub struct CategoryGroup<P> {
    /// For "other", the folded groups: its name is "Other categories" and its url empty.
    pub category: CategoryRef,
    pub papers: Vec<P>,
    /// The folded small groups (each paper's card shows its category).
    pub other: bool,
}

/// A digest with its papers as `P`: full paper views, or cards (`CardItem`).
#[derive(Serialize)]
pub struct DigestView<'a, P = PaperView<'a>> {
    pub week: String,
    pub title: &'a str,
    pub start: String,
    pub end: String,
    pub url: String,
    pub permalink: String,
    /// The editor's introduction as HTML.
    pub body: &'a str,
    pub paper_count: usize,
    /// Papers an editor reviewed, first.
    pub picks: Vec<P>,
    /// The other new papers, grouped by primary category: the site's own categories first
    /// (`Site::preferred_categories`), then the larger groups; groups smaller than
    /// `FOLD_BELOW` fold into one "Other categories" group, last. Papers in the digest's
    /// own order.
    pub groups: Vec<CategoryGroup<P>>,
    pub updated_papers: Vec<P>,
    pub prev: Option<Link>,
    pub next: Option<Link>,
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
    let mut groups: Vec<CategoryGroup<P>> = Vec::new();
    for &pi in &d.papers {
        if is_pick(&site.papers[pi]) {
            picks.push(item(pi)?);
            continue;
        }
        let category = primary_category(&site.papers[pi].front);
        let paper = item(pi)?;
        match groups.iter_mut().find(|g| g.category.name == category) {
            Some(g) => g.papers.push(paper),
            None => groups.push(CategoryGroup {
                category: category_page_link(category, urls),
                papers: vec![paper],
                other: false,
            }),
        }
    }
    let groups = order_groups(groups, &site.preferred_categories);
    let rel = digest_rel(d);
    Ok(DigestView {
        week: d.week.to_string(),
        title: if d.front.title.is_empty() {
            ""
        } else {
            &d.front.title
        },
        start: d.front.start.unwrap_or_else(|| d.week.start()).to_string(),
        end: d.front.end.unwrap_or_else(|| d.week.end()).to_string(),
        url: urls.path(&rel),
        permalink: urls.permalink(&rel),
        body: &d.body_html,
        paper_count: d.papers.len(),
        picks,
        groups,
        updated_papers: d
            .updated
            .iter()
            .map(|&i| item(i))
            .collect::<anyhow::Result<_>>()?,
        // Digests are newest first: the previous week is the next index.
        prev: site.digests.get(di + 1).map(|p| week_link(p, urls)),
        next: di.checked_sub(1).map(|n| week_link(&site.digests[n], urls)),
    })
}

/// Groups of fewer papers than this fold into "Other categories", unless they are of the
/// site's own categories: a long week of mostly one-paper groups reads as a list.
pub const FOLD_BELOW: usize = 3;

/// Whether an editor reviewed the paper: a pick, shown first.
pub fn is_pick(p: &PaperEntry) -> bool {
    !p.front.review.headline.trim().is_empty() || !p.front.review.summary.trim().is_empty()
}

/// The site's own categories first, in their order; then by size, largest first, then by
/// name; small groups folded into one, last.
fn order_groups<P>(groups: Vec<CategoryGroup<P>>, preferred: &[String]) -> Vec<CategoryGroup<P>> {
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
            keep.push(CategoryGroup {
                category: CategoryRef {
                    name: "Other categories".into(),
                    url: String::new(),
                    slug: "other".into(),
                    full_name: "",
                },
                papers: small.into_iter().flat_map(|g| g.papers).collect(),
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

/// A paper on an author page of a theme with `line.html`: its line, rendered once for
/// every author page that lists it.
#[derive(Serialize)]
pub struct LineItem<'a> {
    pub id: &'a str,
    /// `line.html` rendered for this paper.
    pub line: &'a str,
}

pub fn line_item<'a>(site: &'a Site, i: usize, line: &'a str) -> LineItem<'a> {
    LineItem {
        id: site.papers[i].front.id.as_str(),
        line,
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
    pub top: Vec<Link>,
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
fn top_headlines(site: &Site, di: usize, urls: &Urls, n: usize) -> Vec<Link> {
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
            Link {
                name: if review.headline.is_empty() {
                    p.front.title.clone()
                } else {
                    review.headline.to_string()
                },
                url: urls.path(&paper_rel(p)),
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

/// What every page sees. It holds nothing that changes when papers are added (no
/// counts), so an incremental build can treat it as part of the site's fixed inputs.
#[derive(Serialize)]
pub struct SiteView<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub base_url: &'a str,
    pub base_path: String,
    pub feed_url: String,
    pub categories: Vec<CategoryLink>,
}

#[derive(Serialize)]
pub struct CategoryLink {
    pub name: String,
    /// arXiv's name for it ("Distributed, Parallel, and Cluster Computing"); empty for a
    /// journal's subject.
    pub full_name: &'static str,
    pub slug: String,
    pub url: String,
    pub feed_url: String,
}

pub fn category_link(c: &Category, urls: &Urls) -> CategoryLink {
    CategoryLink {
        full_name: c.arxiv.map_or("", |e| e.name),
        slug: c.slug.clone(),
        name: c.name.clone(),
        url: urls.path(&pager::front_rel(&c.slug)),
        feed_url: urls.path(&format!("categories/{}/atom.xml", c.slug)),
    }
}

pub fn author_rel(slug: &str) -> String {
    format!("authors/{slug}/")
}

/// What only a paper's own page shows: linked authors, related papers and the metadata
/// reference managers and search engines read.
#[derive(Serialize)]
pub struct PaperPageExtras {
    pub authors: Vec<Link>,
    pub related: Vec<Link>,
    /// `citation_*` meta tags as (name, content), in arXiv's order.
    pub citation: Vec<(&'static str, String)>,
    /// schema.org ScholarlyArticle, safe to put inside a `<script>` element.
    pub json_ld: String,
    pub bibtex: String,
    /// OpenGraph description: the summary, else the start of the abstract.
    pub description: String,
}

/// "Aishwarya Sarkar" -> "Sarkar, Aishwarya", the form Google Scholar asks for.
pub fn last_first(name: &str) -> String {
    match name.trim().rsplit_once(' ') {
        Some((first, last)) if !first.is_empty() => format!("{last}, {first}"),
        _ => name.trim().to_string(),
    }
}

fn ascii_word(s: &str) -> String {
    slug::slugify(s).replace('-', "")
}

/// arXiv's BibTeX key: first author's family name, year, first significant title word.
pub fn bibtex_key(authors: &[String], year: i32, title: &str) -> String {
    let family = authors
        .first()
        .map(|a| a.trim().rsplit(' ').next().unwrap_or(a).to_string())
        .map(|f| ascii_word(&f))
        .filter(|f| !f.is_empty())
        .unwrap_or_else(|| "anon".into());
    let word = title
        .split(|c: char| !c.is_alphanumeric())
        .map(ascii_word)
        .find(|w| {
            !w.is_empty()
                && !["a", "an", "the", "on", "of", "in", "for", "and", "to"].contains(&w.as_str())
        })
        .unwrap_or_default();
    format!("{family}{year}{word}")
}

fn bibtex_value(s: &str) -> String {
    let balanced = s.chars().try_fold(0i32, |depth, c| {
        let d = match c {
            '{' => depth + 1,
            '}' => depth - 1,
            _ => depth,
        };
        (d >= 0).then_some(d)
    }) == Some(0);
    if balanced {
        s.to_string()
    } else {
        s.replace(['{', '}'], "")
    }
}

/// A paper's schema.org record. Fields are in name order: the order `json!` printed them
/// in before, so pages stay byte for byte the same.
#[derive(Serialize)]
struct JsonLd<'a> {
    #[serde(rename = "@context")]
    context: &'static str,
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(rename = "abstract")]
    abstract_text: &'a str,
    author: Vec<Named<'a>>,
    #[serde(rename = "dateModified")]
    date_modified: String,
    #[serde(rename = "datePublished")]
    date_published: String,
    headline: String,
    identifier: &'a [String],
    /// The thumbnail, as an absolute URL, where the paper has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    image: Option<String>,
    keywords: &'a [String],
    /// The paper's licence URL, where it is known.
    #[serde(skip_serializing_if = "str::is_empty")]
    license: &'a str,
    name: &'a str,
    publisher: Named<'a>,
    #[serde(rename = "sameAs")]
    same_as: Option<&'a str>,
    url: &'a str,
}

#[derive(Serialize)]
struct Named<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    name: &'a str,
}

/// JSON that cannot end or open anything inside a `<script>` element: `<`, `>` and `&`
/// as `\u` escapes (so a `</script>` or `<!--` in a string stays text).
fn script_safe(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 16);
    let mut start = 0;
    for i in memchr::memchr3_iter(b'<', b'>', b'&', json.as_bytes()) {
        out.push_str(&json[start..i]);
        out.push_str(match json.as_bytes()[i] {
            b'<' => "\\u003c",
            b'>' => "\\u003e",
            _ => "\\u0026",
        });
        start = i + 1;
    }
    out.push_str(&json[start..]);
    out
}

/// What a paper's own page shows beyond its card; `abstract_text` is its abstract (as
/// `paper_view` read it: on large sites each read is a trip to a file).
pub fn paper_page_extras(
    site: &Site,
    i: usize,
    urls: &Urls,
    site_title: &str,
    abstract_text: &str,
) -> PaperPageExtras {
    let p = &site.papers[i];
    let f = &p.front;
    let authors = f
        .authors
        .iter()
        .map(|a| Link {
            name: a.clone(),
            url: urls.path(&author_rel(
                &site.authors[site.author_index[a.as_str()]].slug,
            )),
        })
        .collect();
    let related = site.related[i]
        .iter()
        .map(|&r| Link {
            name: site.papers[r].front.title.clone(),
            url: urls.path(&paper_rel(&site.papers[r])),
        })
        .collect();
    let date = ymd(&f.published, '/');
    let mut citation: Vec<(&'static str, String)> = vec![("citation_title", f.title.clone())];
    citation.extend(f.authors.iter().map(|a| ("citation_author", last_first(a))));
    citation.push(("citation_date", date.clone()));
    citation.push(("citation_online_date", ymd(&f.updated, '/')));
    let pdf = safe_url(&f.links.pdf);
    if !pdf.is_empty() {
        citation.push(("citation_pdf_url", pdf.to_string()));
    }
    if f.id.is_arxiv() {
        citation.push(("citation_arxiv_id", f.id.to_string()));
    }
    if !f.doi.is_empty() {
        citation.push(("citation_doi", f.doi.clone()));
    }
    if !f.journal_ref.is_empty() {
        citation.push(("citation_journal_title", f.journal_ref.clone()));
    }
    if !abstract_text.is_empty() {
        citation.push(("citation_abstract", abstract_text.to_string()));
    }
    let permalink = urls.permalink(&paper_rel(p));
    let mut identifiers = Vec::new();
    if f.id.is_arxiv() {
        identifiers.push(format!("arXiv:{}", f.id));
    }
    if !f.doi.is_empty() {
        identifiers.push(format!("https://doi.org/{}", f.doi));
    }
    let abs = safe_url(&f.links.abs);
    let json = JsonLd {
        context: "https://schema.org",
        kind: "ScholarlyArticle",
        abstract_text,
        author: f
            .authors
            .iter()
            .map(|a| Named {
                kind: "Person",
                name: a,
            })
            .collect(),
        date_modified: f.updated.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        date_published: f
            .published
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        headline: f.title.chars().take(110).collect(),
        identifier: &identifiers,
        image: figure_rel(p).map(|rel| urls.permalink(&rel)),
        keywords: &f.categories,
        license: safe_url(&f.license),
        name: &f.title,
        publisher: Named {
            kind: "Organization",
            name: site_title,
        },
        same_as: (!abs.is_empty()).then_some(abs),
        url: &permalink,
    };
    let json_ld = script_safe(&serde_json::to_string_pretty(&json).expect("JSON-LD serializes"));
    let year = chrono::Datelike::year(&f.published);
    let key = bibtex_key(&f.authors, year, &f.title);
    let mut bib = format!(
        "@misc{{{key},\n      title={{{}}},\n      author={{{}}},\n      year={{{year}}},\n",
        bibtex_value(&f.title),
        bibtex_value(&f.authors.join(" and "))
    );
    if f.id.is_arxiv() {
        bib.push_str(&format!(
            "      eprint={{{}}},\n      archivePrefix={{arXiv}},\n      primaryClass={{{}}},\n",
            f.id, f.primary_category
        ));
    }
    if !f.doi.is_empty() {
        bib.push_str(&format!("      doi={{{}}},\n", bibtex_value(&f.doi)));
    }
    let url = if abs.is_empty() {
        permalink.clone()
    } else {
        abs.to_string()
    };
    bib.push_str(&format!("      url={{{}}},\n}}", bibtex_value(&url)));
    let shown_summary = review_view(&site.papers[i], urls).summary;
    let description = if shown_summary.is_empty() {
        let mut d: String = abstract_text.chars().take(200).collect();
        if abstract_text.chars().count() > 200 {
            d.push('…');
        }
        d
    } else {
        shown_summary.to_string()
    };
    PaperPageExtras {
        authors,
        related,
        citation,
        json_ld,
        bibtex: bib,
        description,
    }
}

/// A paper in a list of titles: only what a line needs, so long lists stay cheap to render.
#[derive(Serialize)]
pub struct PaperLine<'a> {
    pub id: &'a str,
    pub url: String,
    pub title: &'a str,
    pub primary_category: &'a str,
    pub published: String,
}

pub fn paper_line<'a>(site: &'a Site, i: usize, urls: &Urls) -> PaperLine<'a> {
    let p = &site.papers[i];
    PaperLine {
        id: p.front.id.as_str(),
        url: urls.path(&paper_rel(p)),
        title: &p.front.title,
        primary_category: &p.front.primary_category,
        published: ymd(&p.front.published, '-'),
    }
}

#[derive(Serialize)]
pub struct AuthorView {
    pub name: String,
    pub url: String,
    pub paper_count: usize,
}

#[cfg(test)]
mod tests {

    #[test]
    fn ymd_is_chronos_format() {
        for t in [
            "2026-02-26T23:39:42Z",
            "1991-08-14T00:00:00Z",
            "0999-01-02T03:04:05Z",
        ] {
            let t: chrono::DateTime<chrono::Utc> = t.parse().unwrap();
            assert_eq!(ymd(&t, '-'), t.format("%Y-%m-%d").to_string());
            assert_eq!(ymd(&t, '/'), t.format("%Y/%m/%d").to_string());
        }
    }

    use super::*;

    #[test]
    fn citation_names_and_keys() {
        assert_eq!(last_first("Aishwarya Sarkar"), "Sarkar, Aishwarya");
        assert_eq!(last_first("Plato"), "Plato");
        let authors = vec!["Aishwarya Sarkar".to_string(), "Sayan Ghosh".to_string()];
        assert_eq!(
            bibtex_key(
                &authors,
                2026,
                "Rudder: Steering Prefetching in Distributed GNN Training"
            ),
            "sarkar2026rudder"
        );
        assert_eq!(
            bibtex_key(&["Tom Götz".into()], 2025, "The $\\omega$ test"),
            "gotz2025omega"
        );
        assert_eq!(bibtex_value("a {b} c"), "a {b} c");
        assert_eq!(bibtex_value("a } b {"), "a  b ");
    }
}
