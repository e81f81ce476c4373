//! Where papers' HTML renditions and their images come from: arXiv over HTTP (the URL
//! template of `[review] html_url`, with fetch's etiquette), or a folder of saved pages
//! (`review --from DIR`).

use super::html::{self, Page};
use crate::paper::PaperId;
use crate::sources::http::HttpClient;
use anyhow::{Context, Result, anyhow, bail};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

pub enum Renditions {
    Web {
        /// One client, so one request per host per `delay_seconds` across all papers.
        http: Box<Mutex<HttpClient>>,
        template: String,
    },
    Saved {
        dir: PathBuf,
    },
}

/// A paper's page, read, and where it was found.
pub struct Rendition {
    pub page: Page,
    pub at: Location,
}

pub enum Location {
    /// The page's URL after redirects.
    Url(reqwest::Url),
    /// The saved page's folder.
    Dir(PathBuf),
}

/// What asking for a paper's page gave.
pub enum Asked {
    Page(Rendition),
    /// No rendition: arXiv has none (404, its "No HTML" page), or the conversion failed.
    /// Says which.
    Missing(String),
    /// `--from DIR` holds no page of the paper: nothing is known of its rendition.
    NotSaved,
}

impl Renditions {
    /// Reads papers' pages on all cores (saved pages) rather than one at a time (HTTP).
    pub fn parallel(&self) -> bool {
        matches!(self, Renditions::Saved { .. })
    }

    pub fn page(&self, id: &PaperId, version: u32) -> Result<Asked> {
        match self {
            Renditions::Web { http, template } => {
                let url = template
                    .replace("{id}", id.as_str())
                    .replace("{version}", &version.to_string());
                let resp = http
                    .lock()
                    .expect("no thread panics holding it")
                    .get_once(&url)?;
                if resp.status == 404 || resp.status == 410 {
                    return Ok(Asked::Missing(format!(
                        "no HTML rendition (HTTP {})",
                        resp.status
                    )));
                }
                if !(200..300).contains(&resp.status) {
                    bail!("GET {url}: HTTP {}", resp.status);
                }
                let at = reqwest::Url::parse(&resp.url)
                    .with_context(|| format!("bad URL {:?}", resp.url))?;
                Ok(read(&resp.body, Location::Url(at), id, version))
            }
            Renditions::Saved { dir } => {
                let slug = id.as_str().replace('/', "_");
                for folder in [dir.join(format!("{slug}v{version}")), dir.join(&slug)] {
                    let index = folder.join("index.html");
                    if index.is_file() {
                        let bytes = std::fs::read(&index)
                            .with_context(|| format!("cannot read {}", index.display()))?;
                        return Ok(read(&bytes, Location::Dir(folder), id, version));
                    }
                }
                Ok(Asked::NotSaved)
            }
        }
    }

    /// The bytes of an image the page references, and where they came from (a URL, or
    /// the saved file's path relative to DIR).
    pub fn image(&self, rendition: &Rendition, src: &str) -> Result<(Vec<u8>, String)> {
        match (&rendition.at, self) {
            (Location::Url(page), Renditions::Web { http, .. }) => {
                let base = if rendition.page.base_href.is_empty() {
                    page.clone()
                } else {
                    page.join(&rendition.page.base_href)
                        .unwrap_or_else(|_| page.clone())
                };
                let url = base
                    .join(src)
                    .map_err(|e| anyhow!("image {src:?}: not a URL ({e})"))?;
                if !matches!(url.scheme(), "http" | "https") {
                    bail!("image {src:?}: not an http(s) URL");
                }
                let resp = http
                    .lock()
                    .expect("no thread panics holding it")
                    .get_once(url.as_str())?;
                if !(200..300).contains(&resp.status) {
                    bail!("GET {url}: HTTP {}", resp.status);
                }
                Ok((resp.body, resp.url))
            }
            (Location::Dir(folder), Renditions::Saved { dir }) => {
                let path =
                    saved_image(folder, dir, &rendition.page.base_href, src).ok_or_else(|| {
                        anyhow!(
                            "image {src:?}: not saved beside the page or under {}",
                            dir.display()
                        )
                    })?;
                let bytes = std::fs::read(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                let label = path
                    .strip_prefix(dir)
                    .unwrap_or(&path)
                    .to_string_lossy()
                    .replace('\\', "/");
                Ok((bytes, label))
            }
            _ => bail!("image {src:?}: the page and the image source disagree"),
        }
    }
}

fn read(bytes: &[u8], at: Location, id: &PaperId, version: u32) -> Asked {
    let page = html::scan(bytes);
    if page.no_html {
        return Asked::Missing("arXiv has no HTML rendition".into());
    }
    if page.conversion_failed {
        return Asked::Missing("the HTML conversion failed".into());
    }
    if !page.is_latexml {
        return Asked::Missing("not a LaTeXML rendition (the authors' own HTML)".into());
    }
    // "arXiv:2403.10131v1 [cs.CL] 15 Mar 2024": a page of another paper is no page of this one.
    if let Some(named) = page
        .watermark
        .split_whitespace()
        .next()
        .and_then(|w| w.strip_prefix("arXiv:"))
        && let Ok((other, _)) = PaperId::parse_versioned(named)
        && other != *id
    {
        return Asked::Missing(format!(
            "the page is of arXiv:{other}, not of {id}v{version}"
        ));
    }
    Asked::Page(Rendition { page, at })
}

/// Where a saved page's image is: below the page's folder (a root-relative source taken
/// from there, a source under the page's own `<base>` folder from there too), then below
/// DIR. Nothing outside DIR.
fn saved_image(folder: &Path, dir: &Path, base_href: &str, src: &str) -> Option<PathBuf> {
    let src = src.split(['?', '#']).next().unwrap_or(src);
    // An absolute URL: its path.
    let path = match reqwest::Url::parse(src) {
        Ok(u) => u.path().to_string(),
        Err(_) => src.to_string(),
    };
    let resolved = if path.starts_with('/') {
        path.clone()
    } else {
        format!("{}/{path}", base_href.trim_end_matches('/'))
    };
    let mut tries: Vec<PathBuf> = Vec::new();
    for root in [folder, dir] {
        for rel in [path.as_str(), resolved.as_str()] {
            if let Some(rel) = safe_relative(rel) {
                tries.push(root.join(&rel));
                // "/html/2403.10131v1/x1.png" saved as "x1.png" beside the page.
                if let Some(name) = rel.file_name() {
                    tries.push(root.join(name));
                }
            }
        }
    }
    let dir_real = std::fs::canonicalize(dir).ok()?;
    tries.into_iter().find(|p| {
        p.is_file() && std::fs::canonicalize(p).is_ok_and(|real| real.starts_with(&dir_real))
    })
}

/// A path with no `..`, root or prefix, relative.
fn safe_relative(p: &str) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in Path::new(p.trim_start_matches('/')).components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_images_are_found_beside_the_page_and_never_outside_dir() {
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join("2403.10131v1");
        std::fs::create_dir_all(page.join("static/img")).unwrap();
        std::fs::write(page.join("static/img/x1.png"), "a").unwrap();
        std::fs::write(page.join("x2.png"), "b").unwrap();
        std::fs::write(dir.path().join("shared.png"), "c").unwrap();
        let find = |base: &str, src: &str| {
            saved_image(&page, dir.path(), base, src).map(|p| {
                p.strip_prefix(dir.path())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
        };
        assert_eq!(
            find("", "/static/img/x1.png").as_deref(),
            Some("2403.10131v1/static/img/x1.png")
        );
        assert_eq!(
            find("/html/2403.10131v1/", "x2.png").as_deref(),
            Some("2403.10131v1/x2.png")
        );
        assert_eq!(
            find("", "https://arxiv.org/static/img/x1.png?v=1").as_deref(),
            Some("2403.10131v1/static/img/x1.png")
        );
        assert_eq!(find("", "shared.png").as_deref(), Some("shared.png"));
        assert_eq!(find("", "../../etc/passwd"), None);
        assert_eq!(find("", "missing.png"), None);
    }
}
