//! `paperboy email`: a week's digest as a newsletter. HTML that mail clients render (table
//! layout, inlined CSS, 600 px, kept under Gmail's clipping size), a text part wrapped at
//! 72 columns, a multipart `.eml`, and delivery over SMTP, once per recipient and week.

mod fit;
mod message;
mod newsletter;
mod sent;
pub(crate) mod text;

pub use newsletter::{HTML_SIZE_LIMIT, Newsletter, encoded_html_len, render_newsletter};

use crate::config::Config;
use crate::site::Site;
use anyhow::{Result, anyhow, bail};
use lettre::Transport;
use std::path::{Path, PathBuf};

pub struct EmailOptions {
    /// An ISO week (`2026-W20`), `frozen` (the newest week that no longer changes), or
    /// none: the newest week.
    pub week: Option<String>,
    pub out: PathBuf,
    pub send: bool,
    /// Send again to recipients who already have the week's email.
    pub resend: bool,
    pub now: chrono::DateTime<chrono::Utc>,
    /// Told of every retry, as a line to show (none: `-q`).
    pub note: Option<fn(&str)>,
}

#[derive(Debug, Default)]
pub struct EmailReport {
    /// Empty when `--week frozen` found no frozen week.
    pub week: String,
    pub files: Vec<PathBuf>,
    pub html_bytes: usize,
    /// The HTML part as it travels (quoted-printable, with its headers).
    pub html_encoded_bytes: usize,
    pub text_bytes: usize,
    pub eml_bytes: usize,
    pub papers: usize,
    /// Papers whose page the HTML and the text both link.
    pub papers_shown: usize,
    pub shortened: Vec<String>,
    pub over_limit: bool,
    pub sent: Vec<String>,
    /// Recipients who already had it (a rerun sends them nothing).
    pub already_sent: Vec<String>,
    /// `address: why`: refused for good (5xx).
    pub refused: Vec<String>,
    /// `address: why`: still failing after every try (4xx, dropped connections).
    pub failed: Vec<String>,
}

impl EmailReport {
    pub fn ok(&self) -> bool {
        self.refused.is_empty() && self.failed.is_empty()
    }
}

impl std::fmt::Display for EmailReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.week.is_empty() {
            return write!(f, "no week is frozen yet: nothing to send");
        }
        write!(
            f,
            "email for {}: {} of {} papers, {} bytes of HTML ({} as sent), {} of text",
            self.week,
            self.papers_shown,
            self.papers,
            self.html_bytes,
            self.html_encoded_bytes,
            self.text_bytes,
        )?;
        if !self.shortened.is_empty() {
            write!(f, "; shortened to fit: {}", self.shortened.join(", "))?;
        }
        if self.over_limit {
            write!(
                f,
                "; still over {HTML_SIZE_LIMIT} bytes with a line per paper: Gmail will clip it"
            )?;
        }
        if !self.sent.is_empty()
            || !self.already_sent.is_empty()
            || !self.refused.is_empty()
            || !self.failed.is_empty()
        {
            write!(f, "; sent to {}", self.sent.len())?;
            if !self.already_sent.is_empty() {
                write!(
                    f,
                    ", {} already had it (--resend sends again)",
                    self.already_sent.len()
                )?;
            }
            if !self.refused.is_empty() {
                write!(f, ", refused by {}", self.refused.len())?;
            }
            if !self.failed.is_empty() {
                write!(
                    f,
                    ", failed for {} (the next run tries them again)",
                    self.failed.len()
                )?;
            }
        }
        Ok(())
    }
}

/// The digest the options ask for: an index into `site.digests` (newest first), or none
/// for `frozen` when no week is.
fn find_week(site: &Site, config: &Config, opts: &EmailOptions) -> Result<Option<usize>> {
    match opts.week.as_deref() {
        None if site.digests.is_empty() => bail!("no digests in content/digests/: nothing to send"),
        None => Ok(Some(0)),
        Some("frozen") => Ok(site
            .digests
            .iter()
            .position(|d| d.week.is_frozen(opts.now, config.fetch.freeze_after_days))),
        Some(w) => {
            let wanted = crate::paper::Week::parse(w)?;
            site.digests
                .iter()
                .position(|d| d.week == wanted)
                .map(Some)
                .ok_or_else(|| anyhow!("--week {w}: no content/digests/{w}.md"))
        }
    }
}

pub fn run(root: &Path, config: &Config, opts: &EmailOptions) -> Result<EmailReport> {
    // Sending records who got what: one writer at a time.
    let _lock = if opts.send {
        Some(crate::lock::acquire(root, "email --send")?)
    } else {
        None
    };
    let mut site = crate::site::load(&root.join("content"))?;
    site.preferred_categories = config.site_categories();
    let Some(di) = find_week(&site, config, opts)? else {
        return Ok(EmailReport::default());
    };
    let n = render_newsletter(root, config, &site, di)?;
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
        shortened: n.shortened.clone(),
        over_limit: n.over_limit,
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
    let sample = message::Delivery {
        to: first,
        date: opts.now,
        resend: 0,
    };
    let eml = message::build(&n, &email, &config.title, &sample, &domain)?.formatted();
    report.eml_bytes = eml.len();
    report.files.push(write(format!("{}.eml", n.week), &eml)?);
    if opts.send {
        deliver(root, config, &email, &n, &domain, opts, &mut report)?;
    }
    Ok(report)
}

/// One message per recipient (a refused address does not stop the others, and no reader
/// sees the list), each recorded as soon as the server took it.
fn deliver(
    root: &Path,
    config: &Config,
    email: &crate::config::EmailConfig,
    n: &Newsletter,
    domain: &str,
    opts: &EmailOptions,
    report: &mut EmailReport,
) -> Result<()> {
    if email.to.is_empty() {
        bail!("paperboy.toml: [email] to: no recipients");
    }
    let mut state = sent::load(root, &n.week)?;
    let smtp = message::transport(root, email)?;
    for to in &email.to {
        let before = state.count(to);
        if before > 0 && !opts.resend {
            report.already_sent.push(to.clone());
            continue;
        }
        let delivery = message::Delivery {
            to,
            date: opts.now,
            resend: before,
        };
        let message = message::build(n, email, &config.title, &delivery, domain)?;
        let mut wait = std::time::Duration::from_secs_f64(email.retry_seconds.max(0.0));
        for attempt in 1..=email.tries {
            match smtp.send(&message) {
                Ok(_) => {
                    state.delivered.push(sent::Delivered {
                        to: to.clone(),
                        message_id: message::message_id(n, &delivery, domain),
                        at: opts.now,
                    });
                    sent::save(root, &n.week, &state)?;
                    report.sent.push(to.clone());
                    break;
                }
                Err(e) if e.is_permanent() => {
                    report.refused.push(format!("{to}: {e}"));
                    break;
                }
                Err(e) if attempt == email.tries => {
                    report
                        .failed
                        .push(format!("{to}: {e} (tried {attempt} times)"));
                }
                Err(e) => {
                    if let Some(note) = opts.note {
                        note(&format!(
                            "retry: email to {to}: {e}; trying again in {:.0} s ({attempt} of {})",
                            wait.as_secs_f64(),
                            email.tries
                        ));
                    }
                    std::thread::sleep(wait);
                    wait *= 2;
                }
            }
        }
    }
    Ok(())
}
