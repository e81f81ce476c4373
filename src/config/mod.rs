//! `paperboy.toml`: the site's configuration, strict so that a typo is an error that names the key.

mod email;
mod fetch;
mod publish;
mod review;

pub use email::{EmailConfig, SmtpSecurity};
pub use fetch::{FetchConfig, FilterConfig, SourceConfig, SourceKind};
pub use publish::PublishConfig;
pub use review::{FigurePolicy, OpenAiConfig, ResponseFormat, ReviewConfig, SummarizerKind};

use crate::host::Host;
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
    /// Where the site is published, for its documented limits: `host()`.
    #[serde(default)]
    pub host: Option<Host>,
    /// Where `paperboy publish` sends the site.
    #[serde(default)]
    pub publish: Option<PublishConfig>,
}

fn default_theme() -> String {
    "default".into()
}
fn default_week_starts() -> String {
    "monday".into()
}
fn default_paginate_by() -> usize {
    50
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
        if let Some(publish) = &self.publish
            && let Some(problem) = publish.remote_problem()
        {
            bail!(
                "{}: key `publish.remote`: {:?} {problem}",
                path.display(),
                publish.remote
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
            if s.journal.is_some() && s.kind != SourceKind::Feed {
                bail!(
                    "{}: sources[{}] (kind = \"{}\"): key `journal` is for a `feed` source (arXiv gives each paper's journal reference itself)",
                    path.display(),
                    i,
                    s.kind.as_str()
                );
            }
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

    /// Where the site is published. A site without the key is taken to be on GitHub Pages,
    /// where `init` has always set sites up to deploy (its workflow and its example
    /// `base_url`): the host whose 1 GB a growing site meets first, so such a site is warned
    /// rather than left unchecked. The warning says the host was assumed.
    pub fn host(&self) -> Host {
        self.host.unwrap_or(Host::GithubPages)
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
    fn host_is_one_of_the_known_ones_and_github_pages_when_unnamed() {
        let parse = |extra: &str| {
            Config::parse(
                &format!("title = \"t\"\nbase_url = \"https://x.org\"\n{extra}"),
                Path::new("paperboy.toml"),
            )
        };
        assert_eq!(parse("").unwrap().host(), Host::GithubPages);
        assert_eq!(parse("host = \"netlify\"").unwrap().host(), Host::Netlify);
        assert_eq!(
            parse("host = \"cloudflare-pages\"").unwrap().host(),
            Host::CloudflarePages
        );
        assert_eq!(parse("host = \"none\"").unwrap().host(), Host::None);
        let err = parse("host = \"vercel\"").unwrap_err().to_string();
        assert!(err.contains("paperboy.toml:3"), "{err}");
        assert!(err.contains("host"), "{err}");
        assert!(err.contains("github-pages"), "{err}");
    }

    #[test]
    fn base_path_is_slashed() {
        assert_eq!(base_path_of("https://a.github.io/digest"), "/digest/");
        assert_eq!(base_path_of("https://a.github.io/digest/"), "/digest/");
        assert_eq!(base_path_of("https://a.org"), "/");
    }
}
