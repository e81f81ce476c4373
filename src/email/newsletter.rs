//! The week's newsletter: every paper of the digest, grouped and ordered as on the web (the
//! editor's picks first), each as its headline (linked to its page), title, first authors,
//! one-liner, badges and links. A week too large for Gmail's limit is shortened, never by
//! leaving a paper out while it can: one-liners go first, largest group first, then papers
//! become one line each. A field's week (2,000 papers) does not fit even so: then each
//! list keeps its first lines, in the web page's order and in fair shares of what fits,
//! and ends with how many more there are and a link to the list's page on the site.

use super::text::References;
use crate::config::Config;
use crate::render::{self, views};
use crate::site::{PICKS_SLUG, Site, UPDATED_SLUG};
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
    /// The papers left out, and where they are.
    more: Option<More>,
}

/// The rest of a list cut to fit: how many, and the site's page of the whole list.
#[derive(Serialize)]
struct More {
    count: usize,
    url: String,
    /// Its number among the text part's references.
    url_ref: usize,
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
    /// Papers in the week's digest (new and updated), and in the email: all but in a
    /// week too large for one message, whose lists then link to their pages on the site.
    pub papers: usize,
    pub papers_shown: usize,
    /// What was cut to fit: "one-liners left out in cs.AI (40 papers)", ….
    pub shortened: Vec<String>,
    /// The HTML is over the limit even with every paper on one line.
    pub over_limit: bool,
}

/// The size of the HTML part as sent: encoded, with its part headers.
pub fn encoded_html_len(html: &str) -> usize {
    encoded_len(html, lettre::message::header::ContentType::TEXT_HTML)
}

fn encoded_len(body: &str, kind: lettre::message::header::ContentType) -> usize {
    lettre::message::SinglePart::builder()
        .header(kind)
        .body(body.to_string())
        .formatted()
        .len()
}

/// A week cut to fit is cut to a whole message under `HTML_SIZE_LIMIT`, both parts and
/// its headers (about 1 KB, with room for long addresses and List-Unsubscribe links).
const HEADER_ROOM: usize = 3_000;

fn message_size((html, text): &(String, String)) -> usize {
    encoded_html_len(html)
        + encoded_len(text, lettre::message::header::ContentType::TEXT_PLAIN)
        + HEADER_ROOM
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
        sources.push(("Editor's picks", "", PICKS_SLUG.into(), &digest.picks));
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
    // Where a list's whole length is on the site: its own pages where the week's page cuts
    // it, else the week's page. One entry per list, the new versions last.
    let whole_at: Vec<String> = {
        let lists = views::week_lists(&digest);
        let lens: Vec<usize> = lists.iter().map(|l| l.papers.len()).collect();
        let picks = lists.first().is_some_and(|l| l.slug == PICKS_SLUG);
        let web = views::week_shares(&lens, picks, views::WEEK_CARDS);
        lists
            .iter()
            .zip(web)
            .map(|(l, shown)| {
                if shown < l.papers.len() {
                    urls.permalink(&views::week_list_rel(&digest.week, &l.slug))
                } else {
                    format!("{}#{}", digest.permalink, anchor_of(&l.slug))
                }
            })
            .collect()
    };
    let has_picks = !digest.picks.is_empty();
    let lens: Vec<usize> = sources
        .iter()
        .map(|s| s.3.len())
        .chain((!digest.updated_papers.is_empty()).then_some(digest.updated_papers.len()))
        .collect();
    let render_with = |forms: &[Form], caps: &[usize]| -> Result<(String, String)> {
        let mut refs = References::default();
        let groups: Vec<Group> = sources
            .iter()
            .zip(forms)
            .zip(caps)
            .enumerate()
            .map(
                |(gi, (((name, full_name, anchor, papers), &form), &cap))| Group {
                    name,
                    full_name,
                    anchor: anchor.clone(),
                    count: papers.len(),
                    form,
                    more: (cap < papers.len()).then(|| More {
                        count: papers.len() - cap,
                        url: whole_at[gi].clone(),
                        url_ref: 0,
                    }),
                    items: papers[..cap]
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
                },
            )
            .collect();
        // The links to the rest come after the papers' own among the references.
        let mut groups = groups;
        for g in &mut groups {
            if let Some(m) = &mut g.more {
                m.url_ref = refs.number(&m.url);
            }
        }
        let updated_cap = caps.get(sources.len()).copied().unwrap_or(0);
        let updated: Vec<Updated> = digest.updated_papers[..updated_cap]
            .iter()
            .map(|p| Updated {
                paper: p,
                page_ref: refs.number(&p.permalink),
            })
            .collect();
        let updated_more = (updated_cap < digest.updated_papers.len()).then(|| {
            let url = whole_at[sources.len()].clone();
            More {
                count: digest.updated_papers.len() - updated_cap,
                url_ref: refs.number(&url),
                url,
            }
        });
        let mut ctx = tera::Context::new();
        ctx.insert("site", &site_view);
        ctx.insert("digest", &digest);
        ctx.insert("groups", &groups);
        ctx.insert("updated", &updated);
        ctx.insert("updated_more", &updated_more);
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
    let is_picks = |i: usize| sources[i].2 == PICKS_SLUG;
    order.sort_by_key(|&i| (is_picks(i), std::cmp::Reverse(sources[i].3.len()), i));
    let mut forms = vec![Form::Full; sources.len()];
    let mut rendered = render_with(&forms, &lens)?;
    // Every paper on a line is where the steps end: when even that is over, the steps
    // between (a render each, two for each group) need not be tried.
    if encoded_html_len(&rendered.0) > HTML_SIZE_LIMIT {
        let lines = vec![Form::Line; sources.len()];
        let all_lines = render_with(&lines, &lens)?;
        if encoded_html_len(&all_lines.0) > HTML_SIZE_LIMIT {
            (forms, rendered) = (lines, all_lines);
        }
    }
    let steps = [Form::Brief, Form::Line]
        .into_iter()
        .flat_map(|f| order.iter().map(move |&i| (f, i)));
    for (form, gi) in steps {
        let all_lines = forms.iter().all(|&f| f == Form::Line);
        if all_lines || encoded_html_len(&rendered.0) <= HTML_SIZE_LIMIT {
            break;
        }
        let has_summaries = sources[gi].3.iter().any(|p| !p.review.summary.is_empty());
        if form == Form::Brief && !has_summaries {
            continue;
        }
        forms[gi] = form;
        rendered = render_with(&forms, &lens)?;
    }
    // Still over with every paper on a line: the most lines that fit, shared fairly, in a
    // message whose two parts together are under the limit.
    let mut cut = None;
    if encoded_html_len(&rendered.0) > HTML_SIZE_LIMIT {
        let total: usize = lens.iter().sum();
        let found =
            super::fit::largest_fitting(total, message_size(&rendered), HTML_SIZE_LIMIT, |n| {
                let r = render_with(&forms, &views::week_shares(&lens, has_picks, n))?;
                let size = message_size(&r);
                Ok((r, size))
            })?;
        (cut, rendered) = match found {
            Some((n, r)) => (Some(n), r),
            None => (
                Some(0),
                render_with(&forms, &views::week_shares(&lens, has_picks, 0))?,
            ),
        };
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
    let mut shortened: Vec<String> = shortened;
    if let Some(lines) = cut {
        shortened.push(format!(
            "the first {lines} of {} papers, each list linking its page on the site for the rest",
            lens.iter().sum::<usize>()
        ));
    }
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
        .replace("{week}", &digest.title)
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

/// A list's anchor on the week's page.
fn anchor_of(slug: &str) -> String {
    match slug {
        PICKS_SLUG | UPDATED_SLUG => slug.to_string(),
        _ => format!("group-{slug}"),
    }
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
