//! HTTP for the sources: polite (User-Agent, one request per host per delay), patient
//! (retries with backoff that honour Retry-After) and thrifty (conditional GET against a
//! cache under `.cache/`, gzip).

use crate::config::FetchConfig;
use crate::store::atomic::write_atomic;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Where a line for the person running paperboy goes.
type Note = Box<dyn Fn(&str) + Send + Sync>;

pub struct HttpClient {
    client: reqwest::blocking::Client,
    config: FetchConfig,
    cache_dir: Option<PathBuf>,
    last_request: HashMap<String, Instant>,
    /// Told of every retry, as a line to show: a fetch that waits on a failing server says
    /// so, on a terminal or not.
    on_retry: Option<Note>,
    /// Names the source being fetched in those lines.
    label: String,
}

#[derive(Debug)]
pub struct HttpResponse {
    pub status: u16,
    /// Where the body came from, after redirects: relative links resolve against it.
    pub url: String,
    pub body: Vec<u8>,
    /// The server answered 304 and `body` is the cached copy.
    pub not_modified: bool,
}

#[derive(Serialize, Deserialize)]
struct CacheEntry {
    url: String,
    etag: Option<String>,
    last_modified: Option<String>,
}

impl HttpClient {
    pub fn new(config: &FetchConfig, cache_dir: Option<PathBuf>) -> Result<HttpClient> {
        // reqwest is built without a bundled crypto provider; ring is ours.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::blocking::Client::builder()
            .user_agent(config.user_agent.clone())
            .timeout(Duration::from_secs_f64(config.timeout_seconds))
            .connect_timeout(Duration::from_secs_f64(config.timeout_seconds.min(30.0)))
            .redirect(reqwest::redirect::Policy::limited(5))
            .build()
            .context("cannot set up the HTTP client")?;
        Ok(HttpClient {
            client,
            config: config.clone(),
            cache_dir,
            last_request: HashMap::new(),
            on_retry: None,
            label: String::new(),
        })
    }

    /// Says each retry to `note` (what failed, and when the next try comes).
    pub fn on_retry(mut self, note: impl Fn(&str) + Send + Sync + 'static) -> HttpClient {
        self.on_retry = Some(Box::new(note));
        self
    }

    /// The source the next requests are for, for the retry lines.
    pub fn set_label(&mut self, label: &str) {
        self.label = label.to_string();
    }

    /// Tells `on_retry` of a retry, and waits for it.
    fn wait_to_retry(&self, url: &str, why: &str, wait: Duration, attempt: u32) {
        if let Some(note) = &self.on_retry {
            let source = if self.label.is_empty() {
                String::new()
            } else {
                format!("{}: ", self.label)
            };
            note(&format!(
                "retry: {source}GET {url}: {why}; next try ({} of {}) in {} s",
                attempt + 2,
                self.config.retries + 1,
                wait.as_secs_f64().ceil()
            ));
        }
        std::thread::sleep(wait);
    }

    fn cache_paths(&self, url: &str) -> Option<(PathBuf, PathBuf)> {
        use sha2::{Digest, Sha256};
        let dir = self.cache_dir.as_ref()?;
        let hex: String = Sha256::digest(url.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        Some((
            dir.join(format!("{hex}.json")),
            dir.join(format!("{hex}.body")),
        ))
    }

    fn wait_for_host(&mut self, url: &reqwest::Url) {
        let host = url.host_str().unwrap_or("").to_string();
        let delay = Duration::from_secs_f64(self.config.delay_seconds.max(0.0));
        if let Some(last) = self.last_request.get(&host) {
            let since = last.elapsed();
            if since < delay {
                std::thread::sleep(delay - since);
            }
        }
        self.last_request.insert(host, Instant::now());
    }

    /// GETs a URL. Non-success statuses other than 429/5xx come back as they are, so a
    /// caller can read an error document; network errors and exhausted retries are errors
    /// that name the URL.
    pub fn get(&mut self, url: &str) -> Result<HttpResponse> {
        self.get_with(url, true)
    }

    /// `get` without the conditional cache: for documents whose URL names their version
    /// (a paper's HTML rendition, its images), which are asked for once and never change.
    pub fn get_once(&mut self, url: &str) -> Result<HttpResponse> {
        self.get_with(url, false)
    }

    fn get_with(&mut self, url: &str, use_cache: bool) -> Result<HttpResponse> {
        let parsed = reqwest::Url::parse(url).with_context(|| format!("bad URL {url:?}"))?;
        let cached: Option<CacheEntry> = self
            .cache_paths(url)
            .filter(|_| use_cache)
            .and_then(|(meta, body)| body.exists().then_some(meta))
            .and_then(|meta| std::fs::read(meta).ok())
            .and_then(|b| serde_json::from_slice(&b).ok());
        let mut attempt = 0u32;
        loop {
            self.wait_for_host(&parsed);
            let mut request = self.client.get(parsed.clone());
            if let Some(c) = &cached {
                if let Some(etag) = &c.etag {
                    request = request.header(reqwest::header::IF_NONE_MATCH, etag);
                }
                if let Some(lm) = &c.last_modified {
                    request = request.header(reqwest::header::IF_MODIFIED_SINCE, lm);
                }
            }
            let (retry_in, why) = match request.send() {
                Err(e) => {
                    let why = describe(&e);
                    // A redirect loop or a bad URL will not mend itself.
                    if e.is_redirect() || e.is_builder() {
                        bail!("GET {url}: {why}");
                    }
                    if attempt >= self.config.retries {
                        bail!("GET {url}: {why} (gave up after {} tries)", attempt + 1);
                    }
                    (self.backoff(attempt), why)
                }
                Ok(resp) => {
                    let status = resp.status().as_u16();
                    if status == 304 {
                        if let Some((_, body_path)) = self.cache_paths(url)
                            && let Ok(body) = std::fs::read(&body_path)
                        {
                            return Ok(HttpResponse {
                                status,
                                url: url.to_string(),
                                body,
                                not_modified: true,
                            });
                        }
                        bail!("GET {url}: 304 Not Modified but the cached copy is gone");
                    }
                    if status == 429 || (500..600).contains(&status) {
                        let asked = retry_after(resp.headers());
                        if attempt >= self.config.retries {
                            bail!(
                                "GET {url}: HTTP {status} (gave up after {} tries)",
                                attempt + 1
                            );
                        }
                        if let Some(asked) = asked
                            && asked.as_secs_f64() > self.config.max_retry_after_seconds
                        {
                            bail!(
                                "GET {url}: HTTP {status} with Retry-After of {} s, more than the {} s allowed",
                                asked.as_secs(),
                                self.config.max_retry_after_seconds
                            );
                        }
                        (
                            asked.unwrap_or_else(|| self.backoff(attempt)),
                            match asked {
                                Some(a) => format!("HTTP {status}, Retry-After {} s", a.as_secs()),
                                None => format!("HTTP {status}"),
                            },
                        )
                    } else {
                        let etag = header(&resp, reqwest::header::ETAG);
                        let last_modified = header(&resp, reqwest::header::LAST_MODIFIED);
                        let final_url = resp.url().to_string();
                        match read_capped(resp, self.config.max_body_bytes) {
                            Ok(body) => {
                                if use_cache && (200..300).contains(&status) {
                                    self.store_cache(url, etag, last_modified, &body);
                                }
                                return Ok(HttpResponse {
                                    status,
                                    url: final_url,
                                    body,
                                    not_modified: false,
                                });
                            }
                            Err(BodyError::TooLarge) => bail!(
                                "GET {url}: the body is larger than max_body_bytes ({})",
                                self.config.max_body_bytes
                            ),
                            Err(BodyError::Io(e)) => {
                                if attempt >= self.config.retries {
                                    bail!(
                                        "GET {url}: the body was cut off: {e} (gave up after {} tries)",
                                        attempt + 1
                                    );
                                }
                                (self.backoff(attempt), format!("the body was cut off: {e}"))
                            }
                        }
                    }
                }
            };
            self.wait_to_retry(url, &why, retry_in, attempt);
            attempt += 1;
        }
    }

    fn backoff(&self, attempt: u32) -> Duration {
        Duration::from_secs(1u64 << attempt.min(6))
    }

    fn store_cache(
        &self,
        url: &str,
        etag: Option<String>,
        last_modified: Option<String>,
        body: &[u8],
    ) {
        let Some((meta_path, body_path)) = self.cache_paths(url) else {
            return;
        };
        if etag.is_none() && last_modified.is_none() {
            return;
        }
        let meta = CacheEntry {
            url: url.to_string(),
            etag,
            last_modified,
        };
        // A cache that cannot be written only costs a full download next time.
        let _ = write_atomic(&body_path, body)
            .and_then(|_| write_atomic(&meta_path, &serde_json::to_vec_pretty(&meta)?));
    }
}

fn header(resp: &reqwest::blocking::Response, name: reqwest::header::HeaderName) -> Option<String> {
    resp.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

enum BodyError {
    TooLarge,
    Io(std::io::Error),
}

fn read_capped(resp: reqwest::blocking::Response, cap: u64) -> Result<Vec<u8>, BodyError> {
    let mut body = Vec::new();
    resp.take(cap + 1)
        .read_to_end(&mut body)
        .map_err(BodyError::Io)?;
    if body.len() as u64 > cap {
        return Err(BodyError::TooLarge);
    }
    Ok(body)
}

fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let v = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = chrono::DateTime::parse_from_rfc2822(v).ok()?;
    let wait = when.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(wait.to_std().unwrap_or(Duration::ZERO))
}

fn describe(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "timed out".into()
    } else if e.is_connect() {
        format!("cannot connect ({})", root_cause(e))
    } else {
        root_cause(e)
    }
}

fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cur = e;
    while let Some(next) = cur.source() {
        cur = next;
    }
    cur.to_string()
}
