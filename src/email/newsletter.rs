//! The week's newsletter: every paper of the digest, grouped and ordered as on the web (the
//! editor's picks first), each as its headline (linked to its page), title, first authors,
//! one-liner, badges and links. A week too large for Gmail's limit is shortened, never by
//! leaving a paper out: one-liners go first, largest group first, then papers become one
//! line each.

use super::text::References;
use crate::config::Config;
use crate::render::{self, views};
use crate::site::Site;
use anyhow::{Result, anyhow, bail};
use serde::Serialize;
use std::path::Path;

/// Gmail clips messages whose HTML is over 102 KB. The limit applies to the HTML part as
/// it travels (quoted-printable, which adds a few per cent), with room to spare.
pub const HTML_SIZE_LIMIT: usize = 100_000;

/// How much of a paper an item shows.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// Headline, title, authors, badges, one-liner, links.
    Full,
    /// The same without the one-liner.
    Brief,
    /// One line: the headline (or title) linked, and the authors.
    Line,
}

#[derive(Serialize)]
struct Item<'a> {
    paper: &'a views::PaperView<'a>,
    /// The headline (the editor's, else the machine's), else the title.
    head: &'a str,
    /// `head` is the machine's headline: said so, as on the site.
    machine_head: bool,
    /// The first three authors, then "et al.".
    authors: String,
    /// The numbers of its links among the text part's references (0: none).
    page_ref: usize,
    abs_ref: usize,
    pdf_ref: usize,
    code_ref: usize,
}

#[derive(Serialize)]
struct Group<'a> {
    name: &'a str,
    /// arXiv's name for the category; empty for picks, journals and "Other categories".
    full_name: &'a str,
    anchor: String,
    count: usize,
    form: Form,
    items: Vec<Item<'a>>,
}

#[derive(Serialize)]
struct Updated<'a> {
    paper: &'a views::PaperView<'a>,
    page_ref: usize,
}

/// The rendered newsletter.
pub struct Newsletter {
    pub week: String,
    pub subject: String,
    pub html: String,
    pub text: String,
    /// Papers in the week's digest (new and updated), and in the email: always all.
    pub papers: usize,
    pub papers_shown: usize,
    /// What was cut to fit: "one-liners left out in cs.AI (40 papers)", ….
    pub shortened: Vec<String>,
    /// The HTML is over the limit even with every paper on one line.
    pub over_limit: bool,
}

/// The size of the HTML part as sent: encoded, with its part headers.
pub fn encoded_html_len(html: &str) -> usize {
    use lettre::message::SinglePart;
    use lettre::message::header::ContentType;
    SinglePart::builder()
        .header(ContentType::TEXT_HTML)
        .body(html.to_string())
        .formatted()
        .len()
}

pub fn render_newsletter(
    root: &Path,
    config: &Config,
    site: &Site,
    di: usize,
) -> Result<Newsletter> {
    let tera = render::load_templates(root, &config.theme)?;
    for name in ["email.html", "email.txt"] {
        if !render::has_template(&tera, name) {
            bail!("theme {:?} has no template {name}", config.theme);
        }
    }
    let urls = views::Urls::absolute(&config.base_url);
    let digest = views::digest_view(site, di, &urls)?;
    let site_view = views::SiteView {
        title: &config.title,
        description: &config.description,
        base_url: &config.base_url,
        base_path: urls.base_path.clone(),
        feed_url: urls.permalink("atom.xml"),
        categories: Vec::new(),
    };
    let email = config.email.clone().unwrap_or_default();
    // The groups as the web digest shows them: picks, then the categories.
    let mut sources: Vec<(&str, &str, String, &[views::PaperView])> = Vec::new();
    if !digest.picks.is_empty() {
        sources.push(("Editor's picks", "", "picks".into(), &digest.picks));
    }
    for g in &digest.groups {
        sources.push((
            &g.category.name,
            g.category.full_name,
            format!("group-{}", g.category.slug),
            &g.papers,
        ));
    }
    let papers = sources.iter().map(|s| s.3.len()).sum::<usize>() + digest.updated_papers.len();
    let machine = sources
        .iter()
        .flat_map(|s| s.3.iter())
        .any(|p| p.review.machine);
    let render_with = |forms: &[Form]| -> Result<(String, String)> {
        let mut refs = References::default();
        let groups: Vec<Group> = sources
            .iter()
            .zip(forms)
            .map(|((name, full_name, anchor, papers), &form)| Group {
                name,
                full_name,
                anchor: anchor.clone(),
                count: papers.len(),
                form,
                items: papers
                    .iter()
                    .map(|p| {
                        let page_ref = refs.number(&p.permalink);
                        let (abs_ref, pdf_ref, code_ref) = if form == Form::Line {
                            (0, 0, 0)
                        } else {
                            (
                                refs.number(&p.abs_url),
                                refs.number(p.pdf_url),
                                refs.number(views::safe_url(p.review.code)),
                            )
                        };
                        let has_headline = !p.review.headline.is_empty();
                        Item {
                            paper: p,
                            head: if has_headline {
                                p.review.headline
                            } else {
                                p.title
                            },
                            machine_head: has_headline && p.review.machine,
                            authors: crate::render::views::first_authors(p.authors, 3),
                            page_ref,
                            abs_ref,
                            pdf_ref,
                            code_ref,
                        }
                    })
                    .collect(),
            })
            .collect();
        let updated: Vec<Updated> = digest
            .updated_papers
            .iter()
            .map(|p| Updated {
                paper: p,
                page_ref: refs.number(&p.permalink),
            })
            .collect();
        let mut ctx = tera::Context::new();
        ctx.insert("site", &site_view);
        ctx.insert("digest", &digest);
        ctx.insert("groups", &groups);
        ctx.insert("updated", &updated);
        ctx.insert("references", &refs.list());
        ctx.insert("machine", &machine);
        ctx.insert("unsubscribe", &email.unsubscribe_links());
        ctx.insert("reason", &email.reason);
        ctx.insert("show_figures", &email.figures);
        let html = render::render(&tera, "email.html", &ctx)?;
        let inliner = css_inline::CSSInliner::options()
            .keep_at_rules(true)
            .load_remote_stylesheets(false)
            .build();
        let html = compact_styles(
            &inliner
                .inline(&html)
                .map_err(|e| anyhow!("cannot inline the email's CSS: {e}"))?,
        );
        let text = render::render(&tera, "email.txt", &ctx)?;
        Ok((html, text))
    };
    // Shortening steps: one-liners out, largest group first (the editor's picks last),
    // then one line per paper in the same order.
    let mut order: Vec<usize> = (0..sources.len()).collect();
    let is_picks = |i: usize| sources[i].2 == "picks";
    order.sort_by_key(|&i| (is_picks(i), std::cmp::Reverse(sources[i].3.len()), i));
    let mut forms = vec![Form::Full; sources.len()];
    let mut rendered = render_with(&forms)?;
    let steps = [Form::Brief, Form::Line]
        .into_iter()
        .flat_map(|f| order.iter().map(move |&i| (f, i)));
    for (form, gi) in steps {
        if encoded_html_len(&rendered.0) <= HTML_SIZE_LIMIT {
            break;
        }
        let has_summaries = sources[gi].3.iter().any(|p| !p.review.summary.is_empty());
        if form == Form::Brief && !has_summaries {
            continue;
        }
        forms[gi] = form;
        rendered = render_with(&forms)?;
    }
    let shortened = [Form::Brief, Form::Line]
        .into_iter()
        .filter_map(|form| {
            let groups: Vec<String> = order
                .iter()
                .filter(|&&i| forms[i] == form)
                .map(|&i| format!("{} ({})", sources[i].0, sources[i].3.len()))
                .collect();
            let what = match form {
                Form::Brief => "one-liners left out in",
                _ => "a title line per paper in",
            };
            match groups.len() {
                0 => None,
                1..=3 => Some(format!("{what} {}", groups.join(", "))),
                n => Some(format!(
                    "{what} {}, and {} more groups",
                    groups[..3].join(", "),
                    n - 3
                )),
            }
        })
        .collect();
    let over_limit = encoded_html_len(&rendered.0) > HTML_SIZE_LIMIT;
    let (html, text) = rendered;
    // Counted in what goes out, not assumed: a paper is shown when both parts link its page.
    let papers_shown = sources
        .iter()
        .flat_map(|s| s.3.iter())
        .chain(&digest.updated_papers)
        .filter(|p| {
            html.contains(&format!("href=\"{}\"", p.permalink)) && text.contains(&p.permalink)
        })
        .count();
    let subject = email
        .subject
        .replace("{site}", &config.title)
        .replace("{week}", digest.title)
        .replace("{week_id}", &digest.week);
    Ok(Newsletter {
        week: digest.week.clone(),
        subject,
        html,
        text,
        papers,
        papers_shown,
        shortened,
        over_limit,
    })
}

/// `style="a: b;c: d;"` as `style="a:b;c:d"`: the inliner's spacing is a tenth of a
/// week's HTML, and Gmail's limit counts it.
fn compact_styles(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find(" style=\"") {
        let (before, after) = rest.split_at(i + 8);
        out.push_str(before);
        let Some(end) = after.find('"') else {
            rest = after;
            break;
        };
        let style = &after[..end];
        let mut first = true;
        for decl in style.split(';').map(str::trim).filter(|d| !d.is_empty()) {
            if !first {
                out.push(';');
            }
            first = false;
            match decl.split_once(':') {
                Some((k, v)) => {
                    out.push_str(k.trim());
                    out.push(':');
                    out.push_str(v.trim());
                }
                None => out.push_str(decl),
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn styles_lose_their_spaces_and_nothing_else() {
        let html = r#"<p class="m" style="margin: 0 0 4px 0;color: #5f6368;">a: b; c</p><a style="color: red">x</a>"#;
        assert_eq!(
            super::compact_styles(html),
            r#"<p class="m" style="margin:0 0 4px 0;color:#5f6368">a: b; c</p><a style="color:red">x</a>"#
        );
    }
}
