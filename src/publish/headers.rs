//! The Content-Type and Cache-Control each file is stored with. rclone sets one header set
//! per run, so files are grouped by the pair and each group is one run (or a few).
//!
//! Types are given, never guessed by rclone from its own table: an Atom feed is not
//! `text/xml` to a reader's feed app, and a search shard must be JSON.

use std::collections::HashMap;

/// Pages and data that change when a week is added or a paper revised: a CDN and a browser
/// ask again each time (cheap with the ETag), so a reader never sees last week's home page.
pub const REVALIDATE: &str = "public, max-age=0, must-revalidate";

/// What does not change once published: a paper's figure, and a full numbered page of a
/// list (`page/3/` of a category keeps its papers for good). A week, not a year with
/// `immutable`: the URLs carry no content hash, and a figure is replaced when a revised
/// paper is reviewed again, as is every page when the theme changes; a week bounds how
/// long a reader can see the old one.
pub const LASTING: &str = "public, max-age=604800";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Headers {
    pub content_type: &'static str,
    pub cache_control: &'static str,
}

/// The Content-Type for a site path, by its extension.
pub fn content_type(path: &str) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    match ext.to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "xml" if name == "atom.xml" => "application/atom+xml; charset=utf-8",
        "xml" => "application/xml; charset=utf-8",
        "json" => "application/json",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "pdf" => "application/pdf",
        _ => "application/octet-stream",
    }
}

/// The headers of every file of a site, given all its paths: whether a numbered page is
/// full depends on whether its list has a newer one.
pub struct Classifier {
    /// For each list with numbered pages (`categories/cs.DC/`), its newest page number.
    newest_page: HashMap<String, u64>,
}

/// `categories/cs.DC/page/3/index.html` -> (`categories/cs.DC/`, 3).
fn numbered_page(path: &str) -> Option<(&str, u64)> {
    let rest = path.strip_suffix("/index.html")?;
    let (list, n) = rest.rsplit_once("/page/")?;
    let n = n.parse().ok()?;
    Some((&path[..list.len() + 1], n))
}

impl Classifier {
    pub fn new<'a>(paths: impl Iterator<Item = &'a str>) -> Classifier {
        let mut newest_page: HashMap<String, u64> = HashMap::new();
        for (list, n) in paths.filter_map(numbered_page) {
            let newest = newest_page.entry(list.to_string()).or_default();
            *newest = (*newest).max(n);
        }
        Classifier { newest_page }
    }

    pub fn headers(&self, path: &str) -> Headers {
        Headers {
            content_type: content_type(path),
            cache_control: if self.lasting(path) {
                LASTING
            } else {
                REVALIDATE
            },
        }
    }

    fn lasting(&self, path: &str) -> bool {
        if path.starts_with("papers/") && path.rsplit('/').next() == Some("figure.webp") {
            return true;
        }
        // The newest page of a list may be part full (a category's) or have its pager
        // change when the next one comes (an author's): only those below it are done.
        numbered_page(path)
            .is_some_and(|(list, n)| self.newest_page.get(list).is_some_and(|&newest| n < newest))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_and_full_numbered_pages_last_and_the_rest_revalidates() {
        let paths = [
            "index.html",
            "categories/cs.DC/index.html",
            "categories/cs.DC/page/1/index.html",
            "categories/cs.DC/page/2/index.html",
            "categories/cs.DC/page/10/index.html",
            "authors/a-b/page/1/index.html",
            "papers/2101.00001/index.html",
            "papers/2101.00001/figure.webp",
            "search/meta.json",
        ];
        let c = Classifier::new(paths.iter().copied());
        let cache = |p| c.headers(p).cache_control;
        assert_eq!(cache("categories/cs.DC/page/2/index.html"), LASTING);
        assert_eq!(cache("categories/cs.DC/page/1/index.html"), LASTING);
        assert_eq!(cache("categories/cs.DC/page/10/index.html"), REVALIDATE);
        assert_eq!(cache("authors/a-b/page/1/index.html"), REVALIDATE);
        assert_eq!(cache("papers/2101.00001/figure.webp"), LASTING);
        for p in [
            "index.html",
            "categories/cs.DC/index.html",
            "search/meta.json",
        ] {
            assert_eq!(cache(p), REVALIDATE, "{p}");
        }
        assert_eq!(
            content_type("atom.xml"),
            "application/atom+xml; charset=utf-8"
        );
        assert_eq!(
            content_type("categories/cs.DC/atom.xml"),
            "application/atom+xml; charset=utf-8"
        );
        assert_eq!(
            content_type("sitemap.xml"),
            "application/xml; charset=utf-8"
        );
        assert_eq!(content_type("search/lex/0a.json"), "application/json");
        assert_eq!(content_type("reader.js"), "text/javascript; charset=utf-8");
    }
}
