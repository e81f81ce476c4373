//! `paperboy check`: the config, every content file, and every internal link and anchor of
//! the site as it would be built. Writes nothing: the site is built in a temporary folder.

use crate::config::Config;
use crate::render::views::Urls;
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::Path;

#[derive(Debug, Default)]
pub struct CheckReport {
    pub pages: usize,
    pub links: usize,
    /// `page: link (why)`, sorted.
    pub broken: Vec<String>,
    /// Temporary files of killed runs, removed from `content/`.
    pub temporaries_removed: usize,
    /// The host's limits the site nears or is past (`host` in paperboy.toml).
    pub limits: Vec<crate::host::Finding>,
}

impl CheckReport {
    /// No broken link, and within every limit of the host.
    pub fn ok(&self) -> bool {
        self.broken.is_empty() && !self.limits.iter().any(|l| l.over)
    }
}

impl std::fmt::Display for CheckReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "checked {} pages, {} internal links: {} broken",
            self.pages,
            self.links,
            self.broken.len()
        )?;
        let over = self.limits.iter().filter(|l| l.over).count();
        if over > 0 {
            write!(f, "; over {over} of the host's limits")?;
        }
        Ok(())
    }
}

/// `locked`: the caller holds the site lock, so temporaries of killed runs can go.
pub fn run(root: &Path, config: &Config, locked: bool) -> Result<CheckReport> {
    let scratch = tempfile::tempdir().context("cannot create a temporary folder")?;
    let out = scratch.path().join("site");
    let options = crate::build::Options {
        remove_temporaries: locked,
        ..Default::default()
    };
    let built = crate::build::run(root, config, &out, &options)?;
    let mut report = check_links(&out, &Urls::new(&config.base_url))?;
    report.temporaries_removed = built.temporaries_removed;
    report.limits = crate::host::assess(config.host(), config.host.is_some(), &built.size);
    Ok(report)
}

/// The values of `attr="…"` in a page, entity-decoded.
fn attribute_values<'a>(html: &'a str, attr: &'a str) -> impl Iterator<Item = String> + 'a {
    let needle = format!(" {attr}=\"");
    html.match_indices(needle.clone().as_str())
        .map(|(i, _)| i)
        .collect::<Vec<_>>()
        .into_iter()
        .filter_map(move |i| {
            let start = i + needle.len();
            let end = html[start..].find('"')? + start;
            Some(html_escape::decode_html_entities(&html[start..end]).into_owned())
        })
}

/// Checks every `href`/`src` of every HTML page below `site` that points into the site.
pub fn check_links(site: &Path, urls: &Urls) -> Result<CheckReport> {
    let texts: Vec<(String, String)> = crate::walk::files_below(site, site)?
        .into_par_iter()
        .filter(|(rel, _)| rel.ends_with(".html"))
        .map(|(rel, path)| {
            std::fs::read_to_string(&path)
                .map(|t| (rel, t))
                .with_context(|| format!("cannot read {}", path.display()))
        })
        .collect::<Result<_>>()?;
    let ids: HashMap<&str, HashSet<String>> = texts
        .iter()
        .map(|(rel, html)| (rel.as_str(), attribute_values(html, "id").collect()))
        .collect();
    let site_prefix = urls.permalink("");
    let results: Vec<(usize, Vec<String>)> = texts
        .par_iter()
        .map(|(rel, html)| {
            let mut count = 0;
            let mut broken = Vec::new();
            for link in attribute_values(html, "href").chain(attribute_values(html, "src")) {
                let Some(target) = internal_target(&link, rel, urls, &site_prefix) else {
                    continue;
                };
                count += 1;
                let (path, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p.to_string(), Some(a.to_string())),
                    None => (target.clone(), None),
                };
                let path = if path.is_empty() { rel.clone() } else { path };
                let file = if path.ends_with('/') || path.is_empty() {
                    format!("{path}index.html")
                } else if site.join(&path).is_dir() {
                    format!("{path}/index.html")
                } else {
                    path.clone()
                };
                if !site.join(&file).is_file() {
                    broken.push(format!("{rel}: {link} (no such page)"));
                    continue;
                }
                if let Some(a) = anchor.filter(|a| !a.is_empty())
                    && !ids.get(file.as_str()).is_some_and(|set| set.contains(&a))
                {
                    broken.push(format!("{rel}: {link} (no id=\"{a}\" in {file})"));
                }
            }
            (count, broken)
        })
        .collect();
    let mut report = CheckReport {
        pages: texts.len(),
        ..Default::default()
    };
    for (count, broken) in results {
        report.links += count;
        report.broken.extend(broken);
    }
    report.broken.sort();
    Ok(report)
}

/// The site-relative path a link points to, or None for a link that leaves the site.
fn internal_target(link: &str, page_rel: &str, urls: &Urls, site_prefix: &str) -> Option<String> {
    let link = link.trim();
    if link.is_empty() {
        return None;
    }
    if let Some(rest) = link.strip_prefix(site_prefix) {
        return Some(rest.to_string());
    }
    if link.contains(':') && !link.starts_with('/') && !link.starts_with('#') {
        return None; // https:, mailto:, …
    }
    if link.starts_with("//") {
        return None;
    }
    if let Some(rest) = link.strip_prefix(&urls.base_path) {
        return Some(rest.to_string());
    }
    if link.starts_with('/') {
        // Under the host but outside the base path: a link out of the site.
        return Some(format!("../{}", link.trim_start_matches('/')));
    }
    if let Some(anchor) = link.strip_prefix('#') {
        return Some(format!("{page_rel}#{anchor}"));
    }
    // Relative to the page's folder.
    let dir = page_rel
        .rsplit_once('/')
        .map(|(d, _)| format!("{d}/"))
        .unwrap_or_default();
    Some(format!("{dir}{link}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_broken_links_and_anchors() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path();
        std::fs::create_dir_all(site.join("a")).unwrap();
        std::fs::write(
            site.join("index.html"),
            r#"<a href="/d/a/">ok</a> <a href="/d/a/#top">ok</a> <a href="/d/a/#nope">bad anchor</a>
               <a href="/d/missing/">missing</a> <a href="https://other.org/">out</a> <img src="/d/x.png">"#,
        )
        .unwrap();
        std::fs::write(
            site.join("a/index.html"),
            r#"<h1 id="top">A</h1><a href="../index.html">up</a>"#,
        )
        .unwrap();
        let report = check_links(site, &Urls::new("https://example.org/d")).unwrap();
        assert_eq!(report.pages, 2);
        assert_eq!(report.links, 6);
        assert_eq!(
            report.broken,
            vec![
                "index.html: /d/a/#nope (no id=\"nope\" in a/index.html)",
                "index.html: /d/missing/ (no such page)",
                "index.html: /d/x.png (no such page)",
            ]
        );
    }
}
