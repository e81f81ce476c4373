//! `paperboy email`: a week's digest as a newsletter. HTML that mail clients render (table
//! layout, inlined CSS, 600 px, kept under Gmail's clipping size), a text part, a
//! multipart `.eml`, and delivery over SMTP.

use crate::config::{Config, EmailConfig, SmtpSecurity};
use crate::render::{self, views};
use crate::site::Site;
use anyhow::{Context, Result, anyhow, bail};
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};
use lettre::{Message, Transport};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Gmail clips messages whose HTML is over 102 KB. The limit applies to the HTML part as
/// it travels (quoted-printable, which adds a few per cent), with room to spare.
pub const HTML_SIZE_LIMIT: usize = 100_000;

/// The size of the HTML part as sent: encoded, with its part headers.
pub fn encoded_html_len(html: &str) -> usize {
    SinglePart::builder()
        .header(ContentType::TEXT_HTML)
        .body(html.to_string())
        .formatted()
        .len()
}

pub struct EmailOptions {
    pub week: Option<String>,
    pub out: PathBuf,
    pub send: bool,
    pub now: chrono::DateTime<chrono::Utc>,
}

#[derive(Debug, Default)]
pub struct EmailReport {
    pub week: String,
    pub files: Vec<PathBuf>,
    pub html_bytes: usize,
    /// The HTML part as it travels (quoted-printable).
    pub html_encoded_bytes: usize,
    pub text_bytes: usize,
    pub eml_bytes: usize,
    pub papers: usize,
    pub papers_shown: usize,
    pub abstracts_shown: usize,
    pub sent: Vec<String>,
    /// `address: why`.
    pub refused: Vec<String>,
}

impl std::fmt::Display for EmailReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "email for {}: {} bytes of HTML ({} encoded), {} of text, {} papers with {} abstracts",
            self.week,
            self.html_bytes,
            self.html_encoded_bytes,
            self.text_bytes,
            self.papers_shown,
            self.abstracts_shown
        )?;
        if self.papers_shown < self.papers {
            write!(
                f,
                " ({} more linked on the web)",
                self.papers - self.papers_shown
            )?;
        }
        if !self.sent.is_empty() || !self.refused.is_empty() {
            write!(
                f,
                "; sent to {}, refused by {}",
                self.sent.len(),
                self.refused.len()
            )?;
        }
        Ok(())
    }
}

#[derive(Serialize)]
struct EmailItem<'a> {
    paper: &'a views::PaperView<'a>,
    show_abstract: bool,
}

#[derive(Serialize)]
struct EmailGroup<'a> {
    category: &'a views::CategoryRef,
    papers: Vec<EmailItem<'a>>,
}

#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }
    fn parse(s: &str) -> std::result::Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_string()))
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

/// The rendered newsletter.
pub struct Newsletter {
    pub week: String,
    pub subject: String,
    pub html: String,
    pub text: String,
    pub papers: usize,
    pub papers_shown: usize,
    pub abstracts_shown: usize,
}

fn find_week(site: &Site, week: Option<&str>) -> Result<usize> {
    match week {
        None if site.digests.is_empty() => bail!("no digests in content/digests/: nothing to send"),
        None => Ok(0),
        Some(w) => {
            let wanted = crate::paper::Week::parse(w)?;
            site.digests
                .iter()
                .position(|d| d.week == wanted)
                .ok_or_else(|| anyhow!("--week {w}: no content/digests/{w}.md"))
        }
    }
}

/// Renders the week's newsletter, listing fewer abstracts, then fewer papers, until the
/// HTML fits under `HTML_SIZE_LIMIT`.
pub fn render_newsletter(
    root: &Path,
    config: &Config,
    site: &Site,
    week: Option<&str>,
) -> Result<Newsletter> {
    let di = find_week(site, week)?;
    let tera = render::load_templates(root, &config.theme)?;
    for name in ["email.html", "email.txt"] {
        if !tera.get_template_names().any(|n| n == name) {
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
    let unsubscribe = config
        .email
        .as_ref()
        .and_then(|e| e.list_unsubscribe.clone());
    let total: usize = digest.groups.iter().map(|g| g.papers.len()).sum();
    let render_with = |papers_max: usize, abstracts_max: usize| -> Result<(String, String)> {
        let mut shown = 0;
        let groups: Vec<EmailGroup> = digest
            .groups
            .iter()
            .map(|g| EmailGroup {
                category: &g.category,
                papers: g
                    .papers
                    .iter()
                    .filter_map(|p| {
                        shown += 1;
                        (shown <= papers_max).then_some(EmailItem {
                            paper: p,
                            show_abstract: shown <= abstracts_max,
                        })
                    })
                    .collect(),
            })
            .filter(|g| !g.papers.is_empty())
            .collect();
        let mut ctx = tera::Context::new();
        ctx.insert("site", &site_view);
        ctx.insert("digest", &digest);
        ctx.insert("groups", &groups);
        ctx.insert("updated", &digest.updated_papers);
        ctx.insert("more_papers", &total.saturating_sub(papers_max));
        ctx.insert(
            "abstracts_left_out",
            &total.min(papers_max).saturating_sub(abstracts_max),
        );
        ctx.insert("unsubscribe", &unsubscribe);
        ctx.insert(
            "show_figures",
            &config.email.as_ref().is_some_and(|e| e.figures),
        );
        let html = render::render(&tera, "email.html", &ctx)?;
        let inliner = css_inline::CSSInliner::options()
            .keep_at_rules(true)
            .load_remote_stylesheets(false)
            .build();
        let html = inliner
            .inline(&html)
            .map_err(|e| anyhow!("cannot inline the email's CSS: {e}"))?;
        let text = render::render(&tera, "email.txt", &ctx)?;
        Ok((html, text))
    };
    // Fewest cuts first: as many abstracts as fit with every paper; if none fit, as many
    // papers as fit without abstracts. Each search is a bisection over renders.
    let fits = |papers_max: usize, abstracts_max: usize| -> Result<bool> {
        Ok(encoded_html_len(&render_with(papers_max, abstracts_max)?.0) <= HTML_SIZE_LIMIT)
    };
    let largest = |hi: usize, ok: &dyn Fn(usize) -> Result<bool>| -> Result<usize> {
        // The largest n in 0..=hi with ok(n), given ok is monotone and ok(0) is assumed.
        let (mut lo, mut hi) = (0, hi);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if ok(mid)? { lo = mid } else { hi = mid - 1 }
        }
        Ok(lo)
    };
    let (papers_max, abstracts_max) = if fits(total, total)? {
        (total, total)
    } else if fits(total, 0)? {
        (total, largest(total, &|a| fits(total, a))?)
    } else {
        (largest(total, &|p| fits(p, 0))?, 0)
    };
    let (html, text) = render_with(papers_max, abstracts_max)?;
    let template = config
        .email
        .as_ref()
        .map(|e| e.subject.clone())
        .unwrap_or_else(|| "{site}: {week}".into());
    let subject = template
        .replace("{site}", &config.title)
        .replace("{week}", digest.title)
        .replace("{week_id}", &digest.week);
    Ok(Newsletter {
        week: digest.week.clone(),
        subject,
        html,
        text,
        papers: total,
        papers_shown: papers_max.min(total),
        abstracts_shown: abstracts_max.min(papers_max).min(total),
    })
}

fn mailbox(s: &str, key: &str) -> Result<Mailbox> {
    s.parse()
        .map_err(|e| anyhow!("paperboy.toml: [email] {key}: {s:?} is not an address: {e}"))
}

/// A multipart/alternative message to one recipient.
pub fn build_message(
    n: &Newsletter,
    email: &EmailConfig,
    to: &str,
    date: chrono::DateTime<chrono::Utc>,
    domain: &str,
) -> Result<Message> {
    use sha2::{Digest, Sha256};
    let hash = data_encoding::HEXLOWER
        .encode(&Sha256::digest(format!("{}\n{}", n.html, n.text).as_bytes())[..12]);
    let mut builder = Message::builder()
        .from(mailbox(&email.from, "from")?)
        .to(mailbox(to, "to")?)
        .subject(n.subject.clone())
        .date(date.into())
        .message_id(Some(format!("<{}.{hash}@{domain}>", n.week)));
    if let Some(u) = &email.list_unsubscribe {
        builder = builder.header(ListUnsubscribe(u.clone()));
    }
    builder
        .multipart(
            MultiPart::alternative()
                .boundary(format!("paperboy-{hash}"))
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_PLAIN)
                        .body(n.text.clone()),
                )
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_HTML)
                        .body(n.html.clone()),
                ),
        )
        .context("cannot build the email message")
}

fn transport(email: &EmailConfig) -> Result<lettre::SmtpTransport> {
    let host = email
        .smtp_host
        .as_deref()
        .ok_or_else(|| anyhow!("paperboy.toml: [email] smtp_host is needed to --send"))?;
    let mut builder = match email.smtp_security {
        SmtpSecurity::Starttls => lettre::SmtpTransport::starttls_relay(host)?,
        SmtpSecurity::Tls => lettre::SmtpTransport::relay(host)?,
        SmtpSecurity::None => lettre::SmtpTransport::builder_dangerous(host),
    };
    if let Some(port) = email.smtp_port {
        builder = builder.port(port);
    }
    // Credentials come only from the environment and are never printed.
    match (
        std::env::var("PAPERBOY_SMTP_USER"),
        std::env::var("PAPERBOY_SMTP_PASSWORD"),
    ) {
        (Ok(user), Ok(password)) => {
            builder = builder.credentials(
                lettre::transport::smtp::authentication::Credentials::new(user, password),
            );
        }
        (Ok(_), Err(_)) | (Err(_), Ok(_)) => {
            bail!("set both PAPERBOY_SMTP_USER and PAPERBOY_SMTP_PASSWORD, or neither")
        }
        _ => {}
    }
    Ok(builder
        .timeout(Some(std::time::Duration::from_secs(30)))
        .build())
}

pub fn run(root: &Path, config: &Config, opts: &EmailOptions) -> Result<EmailReport> {
    let mut site = crate::site::load(&root.join("content"))?;
    site.preferred_categories = config.site_categories();
    let n = render_newsletter(root, config, &site, opts.week.as_deref())?;
    let email = config.email.clone();
    let domain = reqwest::Url::parse(&config.base_url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| "paperboy.invalid".into());
    let mut report = EmailReport {
        week: n.week.clone(),
        html_bytes: n.html.len(),
        html_encoded_bytes: encoded_html_len(&n.html),
        text_bytes: n.text.len(),
        papers: n.papers,
        papers_shown: n.papers_shown,
        abstracts_shown: n.abstracts_shown,
        ..Default::default()
    };
    let write = |name: String, bytes: &[u8]| -> Result<PathBuf> {
        let path = opts.out.join(name);
        crate::store::atomic::write_atomic(&path, bytes)?;
        Ok(path)
    };
    report
        .files
        .push(write(format!("{}.html", n.week), n.html.as_bytes())?);
    report
        .files
        .push(write(format!("{}.txt", n.week), n.text.as_bytes())?);
    let Some(email) = email else {
        if opts.send {
            bail!("paperboy.toml: an [email] table (from, to, smtp_host) is needed to --send");
        }
        return Ok(report);
    };
    let first = email
        .to
        .first()
        .map(String::as_str)
        .unwrap_or("undisclosed-recipients:;");
    let eml = build_message(&n, &email, first, opts.now, &domain)?.formatted();
    report.eml_bytes = eml.len();
    report.files.push(write(format!("{}.eml", n.week), &eml)?);
    if opts.send {
        if email.to.is_empty() {
            bail!("paperboy.toml: [email] to: no recipients");
        }
        let smtp = transport(&email)?;
        // One message per recipient: a refused address does not stop the others, and no
        // reader sees the list.
        for to in &email.to {
            let result = build_message(&n, &email, to, opts.now, &domain)
                .and_then(|m| smtp.send(&m).map_err(|e| anyhow!("{e}")));
            match result {
                Ok(_) => report.sent.push(to.clone()),
                Err(e) => report.refused.push(format!("{to}: {e:#}")),
            }
        }
    }
    Ok(report)
}
