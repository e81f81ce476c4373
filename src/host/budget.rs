//! A built site against its host's limits: a warning from 80 % of a limit, an error past
//! it, each naming the limit, the figure, and what to do.

use super::{Host, Limit, Measure, SiteSize};
use crate::render::thousands;

/// From this share of a limit, `build` warns.
const WARN_FROM_PERCENT: u64 = 80;

/// A limit the site nears or is past.
#[derive(Debug)]
pub struct Finding {
    pub host: Host,
    pub limit: &'static Limit,
    /// The site's figure for what the limit counts.
    pub figure: u64,
    /// What the figure is of: the largest file, the fullest folder.
    pub subject: Option<String>,
    /// Past the limit, not only near it.
    pub over: bool,
    /// `host` came from paperboy.toml, rather than being the default.
    pub host_stated: bool,
}

/// The limits of `host` the site is within 80 % of or past, in the host's order.
pub fn assess(host: Host, host_stated: bool, size: &SiteSize) -> Vec<Finding> {
    host.limits()
        .iter()
        .filter_map(|limit| {
            let (figure, subject) = match limit.measure {
                Measure::SiteBytes => (size.bytes, None),
                Measure::Files => (size.files as u64, None),
                Measure::FileBytes => {
                    let (rel, bytes) = size.largest.clone()?;
                    (bytes, Some(rel))
                }
                Measure::FolderEntries => {
                    let (folder, n) = size.fullest_folder.clone()?;
                    (n as u64, Some(format!("{folder}/")))
                }
            };
            (figure * 100 >= limit.max * WARN_FROM_PERCENT).then_some(Finding {
                host,
                limit,
                figure,
                subject,
                over: figure > limit.max,
                host_stated,
            })
        })
        .collect()
}

/// Bytes as a reader says them: `1.2 GB`, `830.5 MB`, `12.0 KB`, `500 bytes`.
pub fn bytes(n: u64) -> String {
    let n = n as f64;
    match n {
        n if n >= 1e9 => format!("{:.2} GB", n / 1e9),
        n if n >= 1e6 => format!("{:.1} MB", n / 1e6),
        n if n >= 1e3 => format!("{:.1} KB", n / 1e3),
        n => format!("{n} bytes"),
    }
}

impl Finding {
    /// How a command prints it: `error` past the limit, `warning` near it.
    pub fn label(&self) -> &'static str {
        if self.over { "error" } else { "warning" }
    }

    fn figure_text(&self) -> String {
        match self.limit.measure {
            Measure::SiteBytes => format!("the site is {}", bytes(self.figure)),
            Measure::Files => format!("the site has {} files", thousands(self.figure as usize)),
            Measure::FileBytes => format!(
                "its largest file, {}, is {}",
                self.subject.as_deref().unwrap_or(""),
                bytes(self.figure)
            ),
            Measure::FolderEntries => format!(
                "the folder {} holds {} files and folders",
                self.subject.as_deref().unwrap_or(""),
                thousands(self.figure as usize)
            ),
        }
    }

    /// What makes the figure smaller, for this measure.
    fn remedy(&self) -> &'static str {
        match self.limit.measure {
            Measure::SiteBytes | Measure::Files => {
                "Each paper makes a page of its own and lines on its week's, categories' and \
                 authors' pages: fewer papers make a smaller site (narrow the `[[sources]]` \
                 queries or add a `[filter]` for new papers; remove old ones from \
                 content/papers/)"
            }
            Measure::FileBytes => {
                "A week's page lists every paper of the week: a narrower site makes it smaller"
            }
            Measure::FolderEntries => {
                "papers/ holds a folder for each paper and authors/ one for each author: \
                 fewer papers make them smaller"
            }
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let percent = self.figure * 100 / self.limit.max.max(1);
        let state = if self.over {
            "over the limit".to_string()
        } else {
            format!("{percent} % of it")
        };
        write!(
            f,
            "{} allows {} ({}); {}, {state}. {}",
            self.host.name(),
            self.limit.stated,
            self.limit.source,
            self.figure_text(),
            self.remedy()
        )?;
        let others: Vec<String> = Host::without(self.limit.measure)
            .map(|h| format!("\"{}\"", h.key()))
            .collect();
        if !others.is_empty() {
            write!(
                f,
                "; or publish to a host without this limit: host = {} in paperboy.toml",
                others.join(" or ")
            )?;
        }
        write!(f, ".")?;
        if !self.host_stated {
            write!(
                f,
                " (paperboy.toml names no `host`: {} is assumed; `host = \"none\"` checks no limits.)",
                self.host.name()
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(bytes: u64, files: usize) -> SiteSize {
        SiteSize {
            bytes,
            files,
            largest: Some(("digests/2020-W04/index.html".into(), 7_344_312)),
            fullest_folder: Some(("papers".into(), 10_001)),
        }
    }

    #[test]
    fn warns_from_80_percent_and_is_over_past_the_limit() {
        assert!(assess(Host::GithubPages, true, &size(799_999_999, 10)).is_empty());
        let near = assess(Host::GithubPages, true, &size(800_000_000, 10));
        assert_eq!(near.len(), 1);
        assert!(!near[0].over);
        let text = near[0].to_string();
        assert!(text.contains("1 GB for a published site"), "{text}");
        assert!(text.contains("the site is 800.0 MB, 80 % of it"), "{text}");
        assert!(text.contains("docs.github.com"), "{text}");
        assert!(
            text.contains("host = \"netlify\" or \"cloudflare-pages\" or \"s3\" in paperboy.toml"),
            "{text}"
        );
        let over = assess(Host::GithubPages, false, &size(1_000_000_001, 10));
        assert!(over[0].over);
        let text = over[0].to_string();
        assert!(text.contains("over the limit"), "{text}");
        assert!(text.contains("names no `host`"), "{text}");
    }

    #[test]
    fn each_host_is_judged_by_its_own_limits() {
        // 16,000 files is 80 % of Cloudflare's 20,000 and nothing to GitHub Pages.
        let site = size(300_000_000, 16_000);
        assert!(assess(Host::GithubPages, true, &site).is_empty());
        let cloudflare = assess(Host::CloudflarePages, true, &site);
        assert_eq!(cloudflare.len(), 1);
        assert_eq!(cloudflare[0].limit.measure, Measure::Files);
        let text = cloudflare[0].to_string();
        assert!(
            text.contains("the site has 16,000 files, 80 % of it"),
            "{text}"
        );
        assert!(text.contains("\"github-pages\" or \"netlify\""), "{text}");
        // A week's page of 21 MB nears Cloudflare's 25 MiB a file.
        let mut big_week = site.clone();
        big_week.largest = Some(("digests/2020-W04/index.html".into(), 21_000_000));
        let found = assess(Host::CloudflarePages, true, &big_week);
        assert_eq!(found.len(), 2);
        assert!(
            found[1]
                .to_string()
                .contains("digests/2020-W04/index.html, is 21.0 MB")
        );
        // 44,000 paper folders is 81 % of Netlify's 54,000 a folder.
        let mut wide = site.clone();
        wide.fullest_folder = Some(("papers".into(), 44_000));
        let netlify = assess(Host::Netlify, true, &wide);
        assert_eq!(netlify.len(), 1);
        let text = netlify[0].to_string();
        assert!(
            text.contains("the folder papers/ holds 44,000 files and folders"),
            "{text}"
        );
        assert!(text.contains("authors/ one for each author"), "{text}");
        assert!(assess(Host::None, true, &size(u64::MAX / 200, usize::MAX / 200)).is_empty());
        // A bucket takes a site of any size and files; only a 5 TiB file would near its limit.
        assert!(assess(Host::S3, true, &size(u64::MAX / 200, usize::MAX / 200)).is_empty());
    }
}
