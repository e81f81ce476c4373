//! What templates see: borrowed, serializable views of the site's data. The variables are
//! documented in themes/default/TEMPLATES.md.

use super::pager;
use crate::paper::FirstVersion;
use crate::site::{
    Author, Category, DigestEntry, OTHER_SLUG, PICKS_SLUG, PaperEntry, Site, UPDATED_SLUG,
    category_slug,
};
use serde::Serialize;
use std::borrow::Cow;

mod journal_ref;
mod lists;
mod paper_page;
mod review;
mod week_fit;

pub use lists::*;
pub use paper_page::*;
pub use review::*;
pub use week_fit::*;

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

/// A link to a paper elsewhere as a reader, a reference manager or a feed reader should
/// keep it: `safe_url`, without the parameters a feed adds to count its readers (bioRxiv's
/// and OUP's `?rss=1`, `utm_…`, Wiley's `af=R`), which otherwise go into readers'
/// libraries.
pub fn outbound_url(url: &str) -> Cow<'_, str> {
    let url = safe_url(url);
    let Some((base, rest)) = url.split_once('?') else {
        return Cow::Borrowed(url);
    };
    let (query, fragment) = match rest.split_once('#') {
        Some((query, fragment)) => (query, Some(fragment)),
        None => (rest, None),
    };
    let is_tracking = |pair: &&str| {
        let key = pair.split('=').next().unwrap_or("");
        key.eq_ignore_ascii_case("rss") || key.starts_with("utm_") || *pair == "af=R"
    };
    if !query.split('&').any(|p| is_tracking(&p)) {
        return Cow::Borrowed(url);
    }
    let kept: Vec<&str> = query.split('&').filter(|p| !is_tracking(p)).collect();
    let mut out = base.to_string();
    if !kept.is_empty() {
        out.push('?');
        out.push_str(&kept.join("&"));
    }
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
    Cow::Owned(out)
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
    /// `2026-02-26`, or `2021-03` where only the month of version 1 is known.
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
    /// The comment and journal reference as text, their TeX turned (`''Gyros…''` is
    /// "”Gyros…”", `it~detects` "it detects").
    pub comment: Cow<'a, str>,
    pub journal_ref: Cow<'a, str>,
    pub doi: &'a str,
    pub doi_url: String,
    pub abs_url: Cow<'a, str>,
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
    pub week: Option<WeekLink>,
    /// The last week that listed a new version of it, if not the week that announced it.
    pub new_version_week: Option<WeekLink>,
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

/// The first version's date as pages show it: `2021-03-04`, or `2021-03` where the record
/// knows only the month; `sep` between the parts.
pub fn first_version_shown(v: FirstVersion, sep: char) -> String {
    match v {
        FirstVersion::Day(t) => ymd(&t, sep),
        FirstVersion::Month { year, month } => format!("{year:04}{sep}{month:02}"),
    }
}

/// For `<time datetime>` and JSON-LD: RFC 3339, or `2021-03`, which both read as a month.
pub fn first_version_iso(v: FirstVersion) -> String {
    match v {
        FirstVersion::Day(t) => t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        FirstVersion::Month { .. } => first_version_shown(v, '-'),
    }
}

/// Authors shown on a card.
const CARD_AUTHORS: usize = 8;

/// The first `shown` authors, comma-separated, then " et al." if there are more: one
/// spelling for the cards, the search results, For you and the email.
pub fn first_authors(authors: &[String], shown: usize) -> String {
    let mut s = authors[..authors.len().min(shown)].join(", ");
    if authors.len() > shown {
        s.push_str(" et al.");
    }
    s
}

pub fn paper_view<'a>(site: &'a Site, i: usize, urls: &Urls) -> anyhow::Result<PaperView<'a>> {
    let p = &site.papers[i];
    let f = &p.front;
    let first_version = f.first_version();
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
        authors_short: first_authors(&f.authors, CARD_AUTHORS),
        published: first_version_shown(first_version, '-'),
        updated: ymd(&f.updated, '-'),
        published_iso: first_version_iso(first_version),
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
        comment: crate::render::math::readable_text(&f.comment),
        journal_ref: crate::render::math::readable_text(&f.journal_ref),
        doi: &f.doi,
        doi_url: if f.doi.is_empty() {
            String::new()
        } else {
            format!("https://doi.org/{}", f.doi)
        },
        abs_url: outbound_url(&f.links.abs),
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
        new_version_week: site.new_version_in[i]
            .filter(|&d| site.week_of[i] != Some(d))
            .map(|d| week_link(&site.digests[d], urls)),
    })
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

/// A paper in a list of titles: only what a line needs, so long lists stay cheap to render.
#[derive(Serialize)]
pub struct PaperLine<'a> {
    pub id: &'a str,
    pub url: String,
    pub title: &'a str,
    pub primary_category: &'a str,
    pub published: String,
    /// The first `LINE_AUTHORS`, then "et al.".
    pub authors: String,
    pub badges: &'a [String],
}

/// Authors a line names: enough to tell a group's paper at a glance.
const LINE_AUTHORS: usize = 2;

pub fn paper_line<'a>(site: &'a Site, i: usize, urls: &Urls) -> PaperLine<'a> {
    let p = &site.papers[i];
    PaperLine {
        id: p.front.id.as_str(),
        url: urls.path(&paper_rel(p)),
        title: &p.front.title,
        primary_category: &p.front.primary_category,
        published: first_version_shown(p.front.first_version(), '-'),
        authors: first_authors(&p.front.authors, LINE_AUTHORS),
        badges: review_view(p, urls).badges,
    }
}

#[derive(Serialize)]
pub struct AuthorView {
    pub name: String,
    pub url: String,
    pub paper_count: usize,
}

pub fn author_view(a: &Author, urls: &Urls) -> AuthorView {
    AuthorView {
        name: a.name.clone(),
        url: urls.path(&author_rel(&a.slug)),
        paper_count: a.papers.len(),
    }
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
    fn outbound_links_lose_the_feeds_counting_parameters() {
        let cases = [
            (
                "https://www.biorxiv.org/content/10.1101/2025.04.04.647160v1?rss=1",
                "https://www.biorxiv.org/content/10.1101/2025.04.04.647160v1",
            ),
            (
                "https://example.org/a?id=3&utm_source=rss&utm_medium=feed#s2",
                "https://example.org/a?id=3#s2",
            ),
            (
                "https://example.org/a?af=R&x=1",
                "https://example.org/a?x=1",
            ),
            (
                "https://arxiv.org/abs/2604.03438v1",
                "https://arxiv.org/abs/2604.03438v1",
            ),
            (
                "https://example.org/search?q=rss",
                "https://example.org/search?q=rss",
            ),
            ("javascript:alert(1)?rss=1", ""),
        ];
        for (url, kept) in cases {
            assert_eq!(outbound_url(url), kept, "{url}");
        }
    }

    #[test]
    fn citation_names_and_keys() {
        assert_eq!(last_first("Aishwarya Sarkar"), "Sarkar, Aishwarya");
        assert_eq!(last_first("Plato"), "Plato");
        assert_eq!(last_first("Andre de Gouvea"), "de Gouvea, Andre");
        assert_eq!(last_first("Sean van der Merwe"), "van der Merwe, Sean");
        assert_eq!(last_first("S. de Pee"), "de Pee, S.");
        assert_eq!(
            last_first("Mateus de Freitas Virgilio Pereira"),
            "Pereira, Mateus de Freitas Virgilio"
        );
        assert_eq!(last_first("Jonathan A. Karr Jr."), "Karr Jr., Jonathan A.");
        // Capitalised particles join as arXiv's parser joins them; others stay given names.
        assert_eq!(last_first("A. Del Maestro"), "Del Maestro, A.");
        assert_eq!(last_first("Lucas Van Praet"), "Van Praet, Lucas");
        assert_eq!(last_first("Hieu Van Nguyen"), "Nguyen, Hieu Van");
        assert_eq!(last_first("Saunders Mac Lane"), "Mac Lane, Saunders");
        assert_eq!(last_first("S. El Shawish"), "Shawish, S. El");
        assert_eq!(last_first("Di Wu"), "Wu, Di");
        assert_eq!(
            bibtex_key(&["Adrian Del Maestro"], 2006, "Infinite"),
            "delmaestro2006infinite"
        );
        assert_eq!(
            bibtex_key(&["Andre de Gouvea"], 2003, "Neutrinos"),
            "degouvea2003neutrinos"
        );
        assert_eq!(
            bibtex_key(&["Jonathan A. Karr Jr."], 2025, "Cells"),
            "karr2025cells"
        );
        let authors = ["Aishwarya Sarkar", "Sayan Ghosh"];
        assert_eq!(
            bibtex_key(
                &authors,
                2026,
                "Rudder: Steering Prefetching in Distributed GNN Training"
            ),
            "sarkar2026rudder"
        );
        assert_eq!(
            bibtex_key(&["Tom Götz"], 2025, "The $\\omega$ test"),
            "gotz2025omega"
        );
        assert_eq!(bibtex_value("a {b} c"), "a {b} c");
        assert_eq!(bibtex_value("a } b {"), "a  b ");
    }
}
