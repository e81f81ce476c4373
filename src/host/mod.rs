//! Where a site is published (`host` in paperboy.toml), and the limits each host documents
//! on what it publishes: `build` warns as a site nears one, `check` fails past one.

mod budget;
mod size;

pub use budget::{Finding, assess, bytes};
pub use size::SiteSize;

use serde::Deserialize;

/// A static host paperboy knows the limits of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Host {
    GithubPages,
    Netlify,
    CloudflarePages,
    /// An S3-compatible bucket (AWS S3, Cloudflare R2, Google Cloud Storage, Backblaze B2,
    /// MinIO) that `paperboy publish` fills with rclone: no limit on a site's size or files.
    S3,
    /// Published elsewhere (a server of one's own): no limits are checked.
    None,
}

/// What a limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Bytes of the whole site.
    SiteBytes,
    /// Bytes of the largest file.
    FileBytes,
    /// Files in the site.
    Files,
    /// Files and folders directly in one folder, the fullest one.
    FolderEntries,
}

/// One documented limit of a host.
#[derive(Debug)]
pub struct Limit {
    pub measure: Measure,
    pub max: u64,
    /// The limit as the host states it, e.g. "1 GB for a published site".
    pub stated: &'static str,
    /// Where the host documents it.
    pub source: &'static str,
}

const GITHUB_PAGES: &[Limit] = &[
    Limit {
        measure: Measure::SiteBytes,
        // "1 GB": read as 10^9 bytes, the lower of the two readings.
        max: 1_000_000_000,
        stated: "1 GB for a published site",
        source: "https://docs.github.com/en/pages/getting-started-with-github-pages/github-pages-limits",
    },
    Limit {
        measure: Measure::FileBytes,
        max: 100 * 1024 * 1024,
        stated: "100 MiB for a file in a repository (a site published from a branch)",
        source: "https://docs.github.com/en/repositories/working-with-files/managing-large-files/about-large-files-on-github",
    },
];

const NETLIFY: &[Limit] = &[Limit {
    measure: Measure::FolderEntries,
    max: 54_000,
    stated: "54,000 files in one folder (no limit on files per deploy)",
    source: "https://docs.netlify.com/site-deploys/overview/#files-per-directory-limit",
}];

const CLOUDFLARE_PAGES: &[Limit] = &[
    Limit {
        measure: Measure::Files,
        max: 20_000,
        stated: "20,000 files a site on the Free plan (100,000 on paid plans)",
        source: "https://developers.cloudflare.com/pages/platform/limits/#files",
    },
    Limit {
        measure: Measure::FileBytes,
        max: 25 * 1024 * 1024,
        stated: "25 MiB for a file",
        source: "https://developers.cloudflare.com/pages/platform/limits/#file-size",
    },
];

/// The one limit a bucket puts on a static site. A bucket holds any number of objects of any
/// total size; only an object's size is bounded, and differently by each provider: AWS S3
/// 50 TB, Google Cloud Storage 5 TiB, Cloudflare R2 5 TiB less 5 GiB, the lowest, checked
/// here. rclone sends a large file in parts, so the single-request limits (5 GiB) never bind.
const S3: &[Limit] = &[Limit {
    measure: Measure::FileBytes,
    max: 5 * (1 << 40) - 5 * (1 << 30),
    stated: "an object of at most 5 TiB less 5 GiB (Cloudflare R2's; AWS S3 allows 50 TB, Google Cloud Storage 5 TiB)",
    source: "https://developers.cloudflare.com/r2/platform/limits/",
}];

impl Host {
    pub const ALL: [Host; 5] = [
        Host::GithubPages,
        Host::Netlify,
        Host::CloudflarePages,
        Host::S3,
        Host::None,
    ];

    /// As written in paperboy.toml.
    pub fn key(self) -> &'static str {
        match self {
            Host::GithubPages => "github-pages",
            Host::Netlify => "netlify",
            Host::CloudflarePages => "cloudflare-pages",
            Host::S3 => "s3",
            Host::None => "none",
        }
    }

    /// As its maker names it.
    pub fn name(self) -> &'static str {
        match self {
            Host::GithubPages => "GitHub Pages",
            Host::Netlify => "Netlify",
            Host::CloudflarePages => "Cloudflare Pages",
            Host::S3 => "an S3-compatible bucket",
            Host::None => "no host",
        }
    }

    pub fn limits(self) -> &'static [Limit] {
        match self {
            Host::GithubPages => GITHUB_PAGES,
            Host::Netlify => NETLIFY,
            Host::CloudflarePages => CLOUDFLARE_PAGES,
            Host::S3 => S3,
            Host::None => &[],
        }
    }

    /// The hosts that document no limit on `measure`.
    pub fn without(measure: Measure) -> impl Iterator<Item = Host> {
        Host::ALL
            .into_iter()
            .filter(move |h| *h != Host::None && h.limits().iter().all(|l| l.measure != measure))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_is_a_host_without_a_site_size_or_file_count_limit() {
        #[derive(Deserialize)]
        struct Site {
            host: Host,
        }
        let site: Site = toml::from_str("host = \"s3\"").unwrap();
        assert_eq!(site.host, Host::S3);
        assert_eq!(Host::S3.key(), "s3");
        assert!(Host::without(Measure::SiteBytes).any(|h| h == Host::S3));
        assert!(Host::without(Measure::Files).any(|h| h == Host::S3));
        assert!(Host::without(Measure::FolderEntries).any(|h| h == Host::S3));
        // Only an object's size is bounded, by R2's 5 TiB less 5 GiB.
        let [limit] = Host::S3.limits() else {
            panic!("one limit")
        };
        assert_eq!(limit.measure, Measure::FileBytes);
        assert_eq!(limit.max, 5_497_558_138_880 - 5_368_709_120);
    }
}
