//! The message as it travels: multipart/alternative (text, then HTML), with the headers
//! list mail needs (Message-ID, Date, List-Id, List-Unsubscribe and, for an https
//! address, List-Unsubscribe-Post), and the SMTP connection that carries it.

use super::newsletter::Newsletter;
use crate::config::{EmailConfig, SmtpSecurity};
use anyhow::{Context, Result, anyhow, bail};
use lettre::Message;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};
use sha2::{Digest, Sha256};

/// A header whose value is given whole.
macro_rules! raw_header {
    ($name:ident, $text:literal) => {
        #[derive(Clone)]
        struct $name(String);

        impl Header for $name {
            fn name() -> HeaderName {
                HeaderName::new_from_ascii_str($text)
            }
            fn parse(
                s: &str,
            ) -> std::result::Result<Self, Box<dyn std::error::Error + Send + Sync>> {
                Ok($name(s.to_string()))
            }
            fn display(&self) -> HeaderValue {
                HeaderValue::new(Self::name(), self.0.clone())
            }
        }
    };
}

raw_header!(ListUnsubscribe, "List-Unsubscribe");
raw_header!(ListUnsubscribePost, "List-Unsubscribe-Post");
raw_header!(ListId, "List-Id");

fn mailbox(s: &str, key: &str) -> Result<Mailbox> {
    s.parse()
        .map_err(|e| anyhow!("paperboy.toml: [email] {key}: {s:?} is not an address: {e}"))
}

fn short_hash(s: &str) -> String {
    data_encoding::HEXLOWER.encode(&Sha256::digest(s.as_bytes())[..8])
}

/// What identifies one delivery: the same week, recipient, content and resend number give
/// the same Message-ID, so a message sent twice by accident is one message to mail
/// clients that drop duplicates, and a resend on purpose is a new one.
pub struct Delivery<'a> {
    pub to: &'a str,
    pub date: chrono::DateTime<chrono::Utc>,
    /// 0 for the first delivery to this recipient, then 1, 2, … for `--resend`.
    pub resend: usize,
}

pub fn message_id(n: &Newsletter, d: &Delivery, domain: &str) -> String {
    let content = short_hash(&format!("{}\n{}", n.html, n.text));
    let resend = if d.resend > 0 {
        format!(".r{}", d.resend)
    } else {
        String::new()
    };
    format!(
        "<{}.{}.{content}{resend}@{domain}>",
        n.week,
        short_hash(&d.to.to_lowercase())
    )
}

/// `<title-of-the-site.host>`, as RFC 2919 asks: a name no other list has.
pub fn list_id(email: &EmailConfig, title: &str, domain: &str) -> String {
    match &email.list_id {
        Some(id) => format!("<{}>", id.trim_matches(['<', '>'])),
        None => {
            let slug: String = title
                .to_lowercase()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect::<String>()
                .split('-')
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("-");
            let slug = if slug.is_empty() {
                "digest".into()
            } else {
                slug
            };
            format!(
                "{title} <{slug}.{domain}>",
                title = title.replace(['<', '>', '"'], "")
            )
        }
    }
}

/// A multipart/alternative message to one recipient.
pub fn build(
    n: &Newsletter,
    email: &EmailConfig,
    site_title: &str,
    d: &Delivery,
    domain: &str,
) -> Result<Message> {
    let boundary = short_hash(&format!("{}\n{}", n.html, n.text));
    let mut builder = Message::builder()
        .from(mailbox(&email.from, "from")?)
        .to(mailbox(d.to, "to")?)
        .subject(n.subject.clone())
        .date(d.date.into())
        .message_id(Some(message_id(n, d, domain)))
        .header(ListId(list_id(email, site_title, domain)));
    let links = email.unsubscribe_links();
    if !links.is_empty() {
        builder = builder.header(ListUnsubscribe(
            links
                .iter()
                .map(|u| format!("<{u}>"))
                .collect::<Vec<_>>()
                .join(", "),
        ));
        if links.iter().any(|u| u.starts_with("https://")) {
            builder = builder.header(ListUnsubscribePost("List-Unsubscribe=One-Click".into()));
        }
    }
    builder
        .multipart(
            MultiPart::alternative()
                .boundary(format!("paperboy-{boundary}"))
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

pub fn transport(root: &std::path::Path, email: &EmailConfig) -> Result<lettre::SmtpTransport> {
    use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
    let host = email
        .smtp_host
        .as_deref()
        .ok_or_else(|| anyhow!("paperboy.toml: [email] smtp_host is needed to --send"))?;
    let tls = || -> Result<TlsParameters> {
        let mut params = TlsParameters::builder(host.to_string());
        if let Some(file) = &email.smtp_ca_file {
            let path = root.join(file);
            let pem = std::fs::read(&path)
                .with_context(|| format!("[email] smtp_ca_file: cannot read {}", path.display()))?;
            let cert = Certificate::from_pem(&pem).with_context(|| {
                format!(
                    "[email] smtp_ca_file: {} is not a PEM certificate",
                    path.display()
                )
            })?;
            params = params.add_root_certificate(cert);
        }
        Ok(params.build()?)
    };
    let mut builder = match email.smtp_security {
        SmtpSecurity::Starttls => lettre::SmtpTransport::builder_dangerous(host)
            .port(587)
            .tls(Tls::Required(tls()?)),
        SmtpSecurity::Tls => lettre::SmtpTransport::builder_dangerous(host)
            .port(465)
            .tls(Tls::Wrapper(tls()?)),
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
