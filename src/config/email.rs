//! `[email]`: the weekly newsletter's sender, recipients and SMTP server.

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmailConfig {
    pub from: String,
    #[serde(default)]
    pub to: Vec<String>,
    #[serde(default)]
    pub smtp_host: Option<String>,
    #[serde(default)]
    pub smtp_port: Option<u16>,
    #[serde(default)]
    pub smtp_security: SmtpSecurity,
    /// A PEM certificate to trust besides the system's, for a relay whose certificate
    /// comes from a private authority (relative to the site's folder).
    #[serde(default)]
    pub smtp_ca_file: Option<std::path::PathBuf>,
    /// Where a reader unsubscribes: a mailto: or https: URL, or both as a list. They go
    /// into List-Unsubscribe and the footer; an https one also gives
    /// List-Unsubscribe-Post (one-click, RFC 8058), as Gmail and Yahoo ask of bulk senders.
    #[serde(default, deserialize_with = "one_or_many")]
    pub list_unsubscribe: Vec<String>,
    /// The List-Id (RFC 2919), e.g. `weekly.lab.example.org`; by default made from the
    /// site's title and host.
    #[serde(default)]
    pub list_id: Option<String>,
    /// Why a reader gets the email, said in its footer.
    #[serde(default = "default_reason")]
    pub reason: String,
    #[serde(default = "default_subject")]
    pub subject: String,
    /// Show each paper's figure, small, credited, from the site (off: many mail clients
    /// load no remote images, and a list of text reads faster).
    #[serde(default)]
    pub figures: bool,
    /// Tries for a recipient whose delivery fails for a while (a 4xx answer, a dropped
    /// connection), with `retry_seconds` doubling between them.
    #[serde(default = "default_send_tries")]
    pub tries: u32,
    #[serde(default = "default_retry_seconds")]
    pub retry_seconds: f64,
}

impl Default for EmailConfig {
    fn default() -> EmailConfig {
        EmailConfig {
            from: String::new(),
            to: Vec::new(),
            smtp_host: None,
            smtp_port: None,
            smtp_security: SmtpSecurity::default(),
            smtp_ca_file: None,
            list_unsubscribe: Vec::new(),
            list_id: None,
            reason: default_reason(),
            subject: default_subject(),
            figures: false,
            tries: default_send_tries(),
            retry_seconds: default_retry_seconds(),
        }
    }
}

impl EmailConfig {
    /// The unsubscribe addresses, https first (the one a click should use).
    pub fn unsubscribe_links(&self) -> Vec<&str> {
        let mut links: Vec<&str> = self
            .list_unsubscribe
            .iter()
            .map(String::as_str)
            .filter(|u| u.starts_with("https://") || u.starts_with("mailto:"))
            .collect();
        links.sort_by_key(|u| !u.starts_with("https://"));
        links
    }
}

fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

fn default_subject() -> String {
    "{site}: {week}".into()
}

fn default_reason() -> String {
    "You get this email because you subscribed to the digest.".into()
}

fn default_send_tries() -> u32 {
    4
}

fn default_retry_seconds() -> f64 {
    5.0
}

/// How the SMTP connection is protected.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmtpSecurity {
    /// Plain connection upgraded with STARTTLS (port 587).
    #[default]
    Starttls,
    /// TLS from the first byte (port 465).
    Tls,
    /// No encryption: only for a relay on the same machine.
    None,
}
