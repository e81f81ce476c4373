//! `paperboy.toml`: the site's configuration, strict so that a typo is an error that names the key.

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::path::Path;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub base_url: String,
    #[serde(default = "default_theme")]
    pub theme: String,
    #[serde(default = "default_week_starts")]
    pub week_starts: String,
    /// Papers per category page.
    #[serde(default = "default_paginate_by")]
    pub paginate_by: usize,
    /// Entries in each Atom feed.
    #[serde(default = "default_feed_limit")]
    pub feed_limit: usize,
    /// How many weeks the home page lists.
    #[serde(default = "default_recent_weeks")]
    pub recent_weeks: usize,
    /// How many of the newest weeks the "For you" page ranks for a reader.
    #[serde(default = "default_foryou_weeks")]
    pub foryou_weeks: usize,
    #[serde(default)]
    pub sources: Vec<SourceConfig>,
    #[serde(default)]
    pub fetch: FetchConfig,
    #[serde(default)]
    pub filter: FilterConfig,
    #[serde(default)]
    pub email: Option<EmailConfig>,
    #[serde(default)]
    pub review: ReviewConfig,
    /// The site's own categories, most important first: a digest's groups come in this
    /// order, then by size. Default: the categories its sources ask for.
    #[serde(default)]
    pub categories: Vec<String>,
}

fn default_theme() -> String {
    "default".into()
}
fn default_week_starts() -> String {
    "monday".into()
}
fn default_paginate_by() -> usize {
    20
}
fn default_feed_limit() -> usize {
    50
}
fn default_recent_weeks() -> usize {
    8
}
fn default_foryou_weeks() -> usize {
    4
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum SourceKind {
    #[serde(rename = "arxiv")]
    Arxiv,
    #[serde(rename = "arxiv-rss")]
    ArxivRss,
    #[serde(rename = "feed")]
    Feed,
    /// OAI-PMH harvesting of arXiv (`ListRecords`), for a field's whole history.
    #[serde(rename = "arxiv-oai")]
    ArxivOai,
}

impl SourceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Arxiv => "arxiv",
            SourceKind::ArxivRss => "arxiv-rss",
            SourceKind::Feed => "feed",
            SourceKind::ArxivOai => "arxiv-oai",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceConfig {
    pub kind: SourceKind,
    #[serde(default)]
    pub name: Option<String>,
    /// Overrides the endpoint (tests point it at 127.0.0.1).
    #[serde(default)]
    pub url: Option<String>,
    /// arXiv API search query, e.g. `cat:cs.DC`.
    #[serde(default)]
    pub query: Option<String>,
    #[serde(default)]
    pub max_results: Option<usize>,
    /// arXiv RSS categories, e.g. `["cs.DC"]`.
    #[serde(default)]
    pub categories: Vec<String>,
    /// For `arxiv-rss`: when the last fetch of this source was more than a day ago, ask
    /// the arXiv API for the papers submitted since, which the day's feed no longer lists.
    #[serde(default = "catch_up_default")]
    pub catch_up: bool,
    /// The arXiv API endpoint for that catch-up (tests point it at 127.0.0.1).
    #[serde(default)]
    pub api_url: Option<String>,
    /// For `arxiv-oai`: the OAI set (`cs`, `math`, `physics:hep-ex`); none harvests all.
    #[serde(default)]
    pub set: Option<String>,
    /// For `arxiv-oai`: `arXivRaw` (default: every version with its date), `arXiv` or
    /// `oai_dc`.
    #[serde(default)]
    pub metadata_prefix: Option<String>,
    /// For `arxiv-oai`: the first harvest's window (dates of arXiv's record changes).
    /// Later runs start where the last complete one ended.
    #[serde(default)]
    pub from: Option<toml::value::Datetime>,
    #[serde(default)]
    pub until: Option<toml::value::Datetime>,
}

fn catch_up_default() -> bool {
    true
}

impl SourceConfig {
    pub fn label(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        match self.kind {
            SourceKind::Arxiv => format!("arxiv {}", self.query.as_deref().unwrap_or("")),
            SourceKind::ArxivRss => format!("arxiv-rss {}", self.categories.join("+")),
            SourceKind::Feed => format!("feed {}", self.url.as_deref().unwrap_or("")),
            SourceKind::ArxivOai => format!("arxiv-oai {}", self.set.as_deref().unwrap_or("all")),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchConfig {
    #[serde(default = "default_user_agent")]
    pub user_agent: String,
    #[serde(default = "default_delay")]
    pub delay_seconds: f64,
    #[serde(default = "default_timeout")]
    pub timeout_seconds: f64,
    #[serde(default = "default_retries")]
    pub retries: u32,
    /// Longest wait a Retry-After may ask for before the source is given up.
    #[serde(default = "default_max_retry_after")]
    pub max_retry_after_seconds: f64,
    /// Upper bound on one response body.
    #[serde(default = "default_max_body")]
    pub max_body_bytes: u64,
    /// A week's digest takes new papers until this many days after the week ended, then it
    /// is frozen: arXiv announces Friday's papers on Monday, and a fetch may run late.
    #[serde(default = "default_freeze_after_days")]
    pub freeze_after_days: u32,
}

fn default_freeze_after_days() -> u32 {
    3
}

fn default_user_agent() -> String {
    concat!("paperboy/", env!("CARGO_PKG_VERSION")).into()
}
fn default_delay() -> f64 {
    3.0
}
fn default_timeout() -> f64 {
    30.0
}
fn default_retries() -> u32 {
    4
}
fn default_max_retry_after() -> f64 {
    300.0
}
fn default_max_body() -> u64 {
    64 * 1024 * 1024
}

impl Default for FetchConfig {
    fn default() -> Self {
        FetchConfig {
            user_agent: default_user_agent(),
            delay_seconds: default_delay(),
            timeout_seconds: default_timeout(),
            retries: default_retries(),
            max_retry_after_seconds: default_max_retry_after(),
            max_body_bytes: default_max_body(),
            freeze_after_days: default_freeze_after_days(),
        }
    }
}

/// Topic filters: a paper is kept when every non-empty list has a match.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilterConfig {
    /// Case-insensitive words or phrases looked for in title and abstract.
    #[serde(default)]
    pub keywords: Vec<String>,
    /// Case-insensitive substrings of author names.
    #[serde(default)]
    pub authors: Vec<String>,
    /// Categories, any of the paper's.
    #[serde(default)]
    pub categories: Vec<String>,
}

/// `[review]`: how `paperboy review` writes each paper's `[machine]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewConfig {
    /// Where a paper's HTML rendition is; `{id}` and `{version}` are filled in.
    #[serde(default = "default_html_url")]
    pub html_url: String,
    /// A paper with no HTML rendition is asked again after this many days.
    #[serde(default = "default_retry_days")]
    pub retry_days: u32,
    /// Thumbnails are scaled to this width (never up).
    #[serde(default = "default_figure_width")]
    pub figure_width: u32,
    /// Images with more pixels are refused undecoded (decompression bombs).
    #[serde(default = "default_max_image_pixels")]
    pub max_image_pixels: u64,
    /// Which papers' figures are shown: `"all"` (each small and credited, as a quotation
    /// for review), `"open"` (licences that let anyone share the work), `"none"`, or a list
    /// of licence URLs.
    #[serde(default)]
    pub figures: FigurePolicy,
    /// The site is non-commercial: `open` admits the NC licences too.
    #[serde(default)]
    pub non_commercial: bool,
    #[serde(default)]
    pub summarizer: SummarizerKind,
    #[serde(default)]
    pub openai: Option<OpenAiConfig>,
    /// Start from the built-in badge rules (venue, code, survey, benchmark, dataset).
    #[serde(default = "yes")]
    pub default_badges: bool,
    /// "N theorems", counted in the HTML rendition.
    #[serde(default = "yes")]
    pub theorem_badges: bool,
    /// More badge rules, after the built-in ones.
    #[serde(default)]
    pub badge: Vec<crate::review::badges::BadgeRule>,
}

fn default_html_url() -> String {
    "https://arxiv.org/html/{id}v{version}".into()
}
fn default_retry_days() -> u32 {
    14
}
fn default_figure_width() -> u32 {
    crate::review::figure::Shape::default().width
}
fn default_max_image_pixels() -> u64 {
    crate::review::figure::Shape::default().max_pixels
}
fn yes() -> bool {
    true
}

impl Default for ReviewConfig {
    fn default() -> Self {
        toml::from_str("").expect("every key of [review] has a default")
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum FigurePolicy {
    #[default]
    All,
    Open,
    None,
    /// Licence URLs (canonical form, see `license::canonical`).
    Only(Vec<String>),
}

impl<'de> Deserialize<'de> for FigurePolicy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Word(String),
            List(Vec<String>),
        }
        match Raw::deserialize(d)? {
            Raw::Word(w) => match w.as_str() {
                "all" => Ok(FigurePolicy::All),
                "open" => Ok(FigurePolicy::Open),
                "none" => Ok(FigurePolicy::None),
                other => Err(serde::de::Error::custom(format!(
                    "figures = {other:?}: \"all\", \"open\", \"none\" or a list of licence URLs"
                ))),
            },
            Raw::List(list) => list
                .iter()
                .map(|l| {
                    crate::license::canonical(l).ok_or_else(|| {
                        serde::de::Error::custom(format!("figures: {l:?} is not a licence URL"))
                    })
                })
                .collect::<Result<_, _>>()
                .map(FigurePolicy::Only),
        }
    }
}

impl FigurePolicy {
    /// Whether a paper under `license` (a URL, or empty when unknown) may show a figure.
    pub fn allows(&self, license: &str, non_commercial: bool) -> bool {
        match self {
            FigurePolicy::All => true,
            FigurePolicy::None => false,
            FigurePolicy::Open => crate::license::is_open(license, non_commercial),
            FigurePolicy::Only(list) => list.iter().any(|l| l == license),
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SummarizerKind {
    /// Built in, offline, deterministic: sentences of the abstract, shortened.
    #[default]
    Extractive,
    /// An OpenAI-compatible chat-completions endpoint (`[review.openai]`).
    Openai,
}

/// `[review.openai]`: any endpoint that speaks OpenAI's chat completions (OpenAI, Ollama,
/// llama.cpp's server, vLLM).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenAiConfig {
    /// The full URL, e.g. `http://127.0.0.1:11434/v1/chat/completions`.
    pub endpoint: String,
    pub model: String,
    /// The environment variable that holds the API key (the key is never in a file).
    #[serde(default = "default_api_key_env")]
    pub api_key_env: String,
    /// The prompt template, by name, from the site's `templates/` or the theme's.
    #[serde(default = "default_prompt")]
    pub prompt: String,
    #[serde(default = "default_openai_timeout")]
    pub timeout_seconds: f64,
    /// Requests in flight at once.
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
    #[serde(default = "default_rpm")]
    pub requests_per_minute: u32,
    /// Retries of a 429 or 5xx answer (Retry-After is honoured up to a minute).
    #[serde(default = "default_openai_retries")]
    pub retries: u32,
}

fn default_api_key_env() -> String {
    "OPENAI_API_KEY".into()
}
fn default_prompt() -> String {
    "review_prompt.txt".into()
}
fn default_openai_timeout() -> f64 {
    60.0
}
fn default_concurrency() -> usize {
    4
}
fn default_rpm() -> u32 {
    60
}
fn default_openai_retries() -> u32 {
    3
}

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

impl Config {
    pub fn load(path: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read config {}", path.display()))?;
        Self::parse(&text, path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        let config: Config = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1)
                .unwrap_or(0);
            let message = e.message().trim_end();
            match crate::store::frontmatter::key_on_line(text, line.saturating_sub(1), message) {
                Some(key) => anyhow::anyhow!("{}:{}: key `{key}`: {message}", path.display(), line),
                None => anyhow::anyhow!("{}:{}: {message}", path.display(), line),
            }
        })?;
        // Templates join paths as `{{ site.base_url }}/…`: "https://x.org/" and
        // "https://x.org" are one site.
        let mut config = config;
        config.base_url = config.base_url.trim_end_matches('/').to_string();
        config.validate(path)?;
        Ok(config)
    }

    fn validate(&self, path: &Path) -> Result<()> {
        if !(self.base_url.starts_with("http://") || self.base_url.starts_with("https://")) {
            bail!(
                "{}: key `base_url`: must start with http:// or https://, got {:?}",
                path.display(),
                self.base_url
            );
        }
        if let Some(email) = &self.email {
            for u in &email.list_unsubscribe {
                if !(u.starts_with("https://") || u.starts_with("mailto:")) {
                    bail!(
                        "{}: key `email.list_unsubscribe`: {u:?} is neither a mailto: nor an https:// URL",
                        path.display()
                    );
                }
            }
            if email.tries == 0 {
                bail!("{}: key `email.tries`: must be at least 1", path.display());
            }
        }
        if self.week_starts != "monday" {
            bail!(
                "{}: key `week_starts`: only \"monday\" (ISO weeks) is supported",
                path.display()
            );
        }
        if self.review.summarizer == SummarizerKind::Openai && self.review.openai.is_none() {
            bail!(
                "{}: key `review.summarizer`: \"openai\" needs a [review.openai] table with `endpoint` and `model`",
                path.display()
            );
        }
        if !self.review.html_url.contains("{id}") {
            bail!(
                "{}: key `review.html_url`: must contain {{id}} (and usually {{version}})",
                path.display()
            );
        }
        if self.paginate_by == 0 {
            bail!("{}: key `paginate_by`: must be at least 1", path.display());
        }
        for (i, s) in self.sources.iter().enumerate() {
            let missing = match s.kind {
                SourceKind::Arxiv if s.query.is_none() && s.url.is_none() => Some("query"),
                SourceKind::ArxivRss if s.categories.is_empty() && s.url.is_none() => {
                    Some("categories")
                }
                SourceKind::Feed if s.url.is_none() => Some("url"),
                _ => None,
            };
            if let Some(prefix) = &s.metadata_prefix
                && !["arXivRaw", "arXiv", "oai_dc"].contains(&prefix.as_str())
            {
                bail!(
                    "{}: sources[{}]: key `metadata_prefix`: {prefix:?} is not one of \"arXivRaw\", \"arXiv\", \"oai_dc\"",
                    path.display(),
                    i
                );
            }
            for (key, value) in [("from", &s.from), ("until", &s.until)] {
                if let Some(v) = value
                    && v.date.is_none()
                {
                    bail!(
                        "{}: sources[{}]: key `{key}`: {v} is not a date (write it as 2024-01-31)",
                        path.display(),
                        i
                    );
                }
            }
            if let Some(key) = missing {
                bail!(
                    "{}: sources[{}] (kind = \"{}\"): missing key `{}`",
                    path.display(),
                    i,
                    s.kind.as_str(),
                    key
                );
            }
        }
        Ok(())
    }

    /// The site's own categories: `categories`, else those its sources ask for (an
    /// `arxiv-rss` source's `categories`, the `cat:` terms of an `arxiv` query, a feed's
    /// `name`), in order.
    pub fn site_categories(&self) -> Vec<String> {
        if !self.categories.is_empty() {
            return self.categories.clone();
        }
        let mut out: Vec<String> = Vec::new();
        for s in &self.sources {
            let from: Vec<String> = match s.kind {
                SourceKind::ArxivRss => s.categories.clone(),
                SourceKind::Arxiv => s
                    .query
                    .iter()
                    .flat_map(|q| q.split(|c: char| c.is_whitespace() || c == '(' || c == ')'))
                    .filter_map(|t| t.strip_prefix("cat:"))
                    .map(str::to_string)
                    .collect(),
                SourceKind::Feed => s.name.iter().cloned().collect(),
                // A set is an archive, not a category the site can name up front.
                SourceKind::ArxivOai => Vec::new(),
            };
            for c in from {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        out
    }

    /// The path part of `base_url`, always starting and ending with `/`.
    pub fn base_path(&self) -> String {
        base_path_of(&self.base_url)
    }
}

pub fn base_path_of(base_url: &str) -> String {
    let after_scheme = base_url.split_once("://").map(|x| x.1).unwrap_or(base_url);
    let path = after_scheme
        .find('/')
        .map(|i| &after_scheme[i..])
        .unwrap_or("/");
    let trimmed = path.trim_end_matches('/');
    format!("{trimmed}/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_key_is_named() {
        let err = Config::parse(
            "title = \"t\"\nbase_url = \"https://x.org\"\ntitel = 1\n",
            Path::new("paperboy.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("titel"), "{err}");
        assert!(err.contains("paperboy.toml:3"), "{err}");
    }

    #[test]
    fn base_path_is_slashed() {
        assert_eq!(base_path_of("https://a.github.io/digest"), "/digest/");
        assert_eq!(base_path_of("https://a.github.io/digest/"), "/digest/");
        assert_eq!(base_path_of("https://a.org"), "/");
    }
}
