//! `[[sources]]`, `[fetch]` and `[filter]`: what `paperboy fetch` asks for, and how.

use serde::Deserialize;

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
    /// For `feed`: the journal its items are published in, where the feed does not name
    /// one (`prism:publicationName`): reference managers then file them as its articles.
    #[serde(default)]
    pub journal: Option<String>,
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
