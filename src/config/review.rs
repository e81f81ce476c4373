//! `[review]` and `[review.openai]`: how `paperboy review` writes each paper's machine review.

use serde::Deserialize;

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
    /// The most tokens the model may answer with: a headline and a one-liner in JSON
    /// take about 100; a bound keeps a small model that rambles from running to the timeout.
    #[serde(default = "default_max_tokens")]
    pub max_tokens: u32,
    /// How the answer's JSON schema is asked for (see `ResponseFormat`).
    #[serde(default)]
    pub response_format: ResponseFormat,
}

/// How a request asks for the answer's JSON schema: servers take different forms.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseFormat {
    /// `json_schema`, then `json_object_schema`, then `json_object`: a form the server
    /// rejects (HTTP 400, 422 or 500 naming it) is dropped for the rest of the run.
    #[default]
    Auto,
    /// OpenAI's `{"type": "json_schema", "json_schema": {…}}` (OpenAI, vLLM, Ollama's
    /// OpenAI-compatible endpoint).
    JsonSchema,
    /// `{"type": "json_object", "schema": {…}}` (llama-cpp-python's server).
    JsonObjectSchema,
    /// `{"type": "json_object"}`: JSON, with no schema.
    JsonObject,
    /// No `response_format` at all.
    None,
}

impl ResponseFormat {
    /// The forms to try, in order.
    pub fn forms(self) -> Vec<ResponseFormat> {
        match self {
            ResponseFormat::Auto => vec![
                ResponseFormat::JsonSchema,
                ResponseFormat::JsonObjectSchema,
                ResponseFormat::JsonObject,
            ],
            one => vec![one],
        }
    }
}

fn default_max_tokens() -> u32 {
    200
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
