//! The machine review, the licence and the figure credit of a paper, as templates see them.

use super::*;
use crate::review::badges::CODE_BADGE;

/// What a card and a paper page show of the paper's review: the editor's `[review]`,
/// key by key over the machine's `[machine]`.
#[derive(Serialize)]
pub struct ReviewView<'a> {
    pub headline: &'a str,
    pub summary: Cow<'a, str>,
    pub badges: &'a [String],
    /// A repository the paper links (from the machine review).
    pub code: &'a str,
    /// The badge that says so ("Code"), when `code` is set and the paper has it: a card
    /// makes that badge the link, rather than say "Code" twice. Empty otherwise.
    pub code_badge: &'static str,
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
    /// Which of them is: an editor may have written the other.
    pub headline_machine: bool,
    pub summary_machine: bool,
    /// Who wrote the shown headline and summary: the summarizer or model, or "editor".
    pub by: &'a str,
}

/// The paper's licence: its URL and the name a reader knows.
#[derive(Serialize)]
pub struct LicenseView<'a> {
    pub url: &'a str,
    /// "CC BY 4.0"; "license not stated" when none is known.
    pub name: String,
    /// Whether the paper states one: a `dc:rights` that is no URL still names it.
    pub stated: bool,
}

pub fn license_view(f: &crate::store::frontmatter::PaperFront) -> LicenseView<'_> {
    LicenseView {
        url: safe_url(&f.license),
        name: crate::license::short_name(&f.license),
        stated: !f.license.is_empty(),
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
    let (persons, more) = crate::site::byline::persons(&f.authors);
    let who = match persons.as_slice() {
        [] => String::new(),
        [one] if !more => format!(" ({})", surname(one)),
        [a, b] if !more => format!(" ({} and {})", surname(a), surname(b)),
        [a, ..] => format!(" ({} et al.)", surname(a)),
    };
    format!("Figure from {from}{who}")
}

pub(super) fn surname(name: &str) -> &str {
    name.split_whitespace().last().unwrap_or(name)
}

pub fn review_view<'a>(p: &'a PaperEntry, urls: &Urls) -> ReviewView<'a> {
    let f = &p.front;
    let r = f.people_review();
    let m = f.machine.as_deref();
    let (headline, _) = f.shown_lines();
    let summary = f.shown_summary();
    let headline_machine = r.headline.is_empty() && !headline.is_empty();
    let summary_machine = r.summary.is_empty() && !summary.is_empty();
    let machine = headline_machine || summary_machine;
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
    let by = if machine {
        m.map_or("", |m| m.by.as_str())
    } else if headline.is_empty() && summary.is_empty() {
        ""
    } else {
        "editor"
    };
    let code = safe_url(m.map_or("", |m| m.code.as_str()));
    let code_badge = if !code.is_empty() && badges.iter().any(|b| b == CODE_BADGE) {
        CODE_BADGE
    } else {
        ""
    };
    ReviewView {
        headline,
        summary,
        badges,
        code,
        code_badge,
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
        headline_machine,
        summary_machine,
        by,
    }
}
