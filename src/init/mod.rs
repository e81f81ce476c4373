//! `paperboy init DIR [--host s3]`: a new site with a config to edit, empty content folders,
//! a copy of the default theme (built into the binary, so init works anywhere), and what
//! deploys it as it is: a .gitignore, a workflow (and for GitHub Pages a netlify.toml) that
//! download this very release of paperboy, and a README for the site. For a bucket the
//! figures stay out of git (`deploy`).

mod deploy;

pub use deploy::{FIGURES_REMOTE, RCLONE_VERSION, SITE_REMOTE};

use crate::host::Host;
use anyhow::{Context, Result, bail};
use std::path::Path;

/// The default theme, as shipped in this repository's themes/default/.
const THEME: &[(&str, &str)] = &[
    (
        "templates/404.html",
        include_str!("../../themes/default/templates/404.html"),
    ),
    (
        "templates/archive.html",
        include_str!("../../themes/default/templates/archive.html"),
    ),
    (
        "templates/author.html",
        include_str!("../../themes/default/templates/author.html"),
    ),
    (
        "templates/authors.html",
        include_str!("../../themes/default/templates/authors.html"),
    ),
    (
        "templates/base.html",
        include_str!("../../themes/default/templates/base.html"),
    ),
    (
        "templates/category.html",
        include_str!("../../themes/default/templates/category.html"),
    ),
    (
        "templates/categories.html",
        include_str!("../../themes/default/templates/categories.html"),
    ),
    (
        "templates/digest.html",
        include_str!("../../themes/default/templates/digest.html"),
    ),
    (
        "templates/email.html",
        include_str!("../../themes/default/templates/email.html"),
    ),
    (
        "templates/email.txt",
        include_str!("../../themes/default/templates/email.txt"),
    ),
    (
        "templates/foryou.html",
        include_str!("../../themes/default/templates/foryou.html"),
    ),
    (
        "templates/index.html",
        include_str!("../../themes/default/templates/index.html"),
    ),
    (
        "templates/macros.html",
        include_str!("../../themes/default/templates/macros.html"),
    ),
    (
        "templates/card.html",
        include_str!("../../themes/default/templates/card.html"),
    ),
    (
        "templates/line.html",
        include_str!("../../themes/default/templates/line.html"),
    ),
    (
        "templates/paper.html",
        include_str!("../../themes/default/templates/paper.html"),
    ),
    (
        "templates/review_prompt.txt",
        include_str!("../../themes/default/templates/review_prompt.txt"),
    ),
    (
        "templates/saved.html",
        include_str!("../../themes/default/templates/saved.html"),
    ),
    (
        "templates/search.html",
        include_str!("../../themes/default/templates/search.html"),
    ),
    (
        "templates/week_list.html",
        include_str!("../../themes/default/templates/week_list.html"),
    ),
    (
        "static/favicon.svg",
        include_str!("../../themes/default/static/favicon.svg"),
    ),
    (
        "static/notfound.js",
        include_str!("../../themes/default/static/notfound.js"),
    ),
    (
        "static/reader.js",
        include_str!("../../themes/default/static/reader.js"),
    ),
    (
        "static/search.js",
        include_str!("../../themes/default/static/search.js"),
    ),
    (
        "static/style.css",
        include_str!("../../themes/default/static/style.css"),
    ),
    (
        "TEMPLATES.md",
        include_str!("../../themes/default/TEMPLATES.md"),
    ),
];

const CONFIG: &str = r#"title = "My paper digest"
description = "New papers, week by week"
base_url = "{base_url}"
theme = "default"
week_starts = "monday"
{host}
[[sources]]
kind = "arxiv"                  # the arXiv API
query = "cat:cs.DC"
max_results = 500

[[sources]]
kind = "arxiv-rss"              # the daily announcement feed
categories = ["cs.DC"]

# To start with a field's history (OAI-PMH; resumes where a killed run stopped):
# [[sources]]
# kind = "arxiv-oai"
# set = "cs"
# from = 2024-01-01
# Or once, from arXiv's metadata snapshot: paperboy fetch --from arxiv-metadata-oai-snapshot.json

[fetch]
user_agent = "paperboy/0.1 (mailto:you@example.org)"   # arXiv asks for a contact
delay_seconds = 3
"#;

/// The hosts `init` writes a workflow for.
pub const HOSTS: [Host; 2] = [Host::GithubPages, Host::S3];

/// Creates the site, deployed to `host` (one of `HOSTS`); refuses to touch a folder that
/// already holds a paperboy.toml.
pub fn run(dir: &Path, host: Host) -> Result<()> {
    if !HOSTS.contains(&host) {
        bail!(
            "init writes a workflow for host {}; not for {:?}",
            HOSTS.map(|h| format!("{:?}", h.key())).join(" or "),
            host.key()
        );
    }
    if dir.join("paperboy.toml").exists() {
        bail!(
            "{} already has a paperboy.toml; nothing was changed",
            dir.display()
        );
    }
    for sub in ["content/papers", "content/digests", "templates", "static"] {
        std::fs::create_dir_all(dir.join(sub))
            .with_context(|| format!("cannot create {}", dir.join(sub).display()))?;
    }
    let theme = dir.join("themes/default");
    for (rel, text) in THEME {
        let path = theme.join(rel);
        if !path.exists() {
            crate::store::atomic::write_atomic(&path, text.as_bytes())?;
        }
    }
    for (rel, text) in deploy::files(host) {
        let path = dir.join(rel);
        if !path.exists() {
            crate::store::atomic::write_atomic(&path, text.as_bytes())?;
        }
    }
    let config = CONFIG
        .replace("{base_url}", deploy::base_url(host))
        .replace("{host}", &deploy::config_lines(host));
    crate::store::atomic::write_atomic(&dir.join("paperboy.toml"), config.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_site_builds_and_init_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("digest");
        run(&site, Host::GithubPages).unwrap();
        let config = crate::config::Config::load(&site.join("paperboy.toml")).unwrap();
        assert_eq!(config.host, Some(crate::host::Host::GithubPages));
        let out = dir.path().join("out");
        let report = crate::build::run(&site, &config, &out, &Default::default()).unwrap();
        assert_eq!(report.papers, 0);
        assert!(out.join("index.html").is_file() && out.join("search.js").is_file());
        std::fs::write(site.join("paperboy.toml"), "title = \"mine\"").unwrap();
        assert!(run(&site, Host::GithubPages).is_err());
        assert_eq!(
            std::fs::read_to_string(site.join("paperboy.toml")).unwrap(),
            "title = \"mine\""
        );
    }

    #[test]
    fn a_new_bucket_site_builds_and_says_where_it_is_published() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("digest");
        run(&site, Host::S3).unwrap();
        let text = std::fs::read_to_string(site.join("paperboy.toml")).unwrap();
        let table: toml::Table = toml::from_str(&text).unwrap();
        assert_eq!(table["publish"]["remote"].as_str(), Some(SITE_REMOTE));
        let config = crate::config::Config::parse(&text, &site.join("paperboy.toml")).unwrap();
        assert_eq!(config.host, Some(Host::S3));
        assert_eq!(config.base_url, "https://digest.example.org");
        let out = dir.path().join("out");
        let report = crate::build::run(&site, &config, &out, &Default::default()).unwrap();
        assert_eq!(report.papers, 0);
        assert!(!site.join("netlify.toml").exists());
        assert!(run(&site, Host::S3).is_err());
        assert!(run(&dir.path().join("other"), Host::Netlify).is_err());
    }

    #[test]
    fn the_embedded_theme_is_the_whole_theme() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("themes/default");
        let on_disk = crate::walk::files_below(&dir, &dir).unwrap();
        let names: Vec<&str> = THEME.iter().map(|(n, _)| *n).collect();
        for (rel, _) in &on_disk {
            assert!(
                names.contains(&rel.as_str()),
                "{rel} is not embedded for init"
            );
        }
    }
}
