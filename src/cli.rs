//! The command line: its commands, options and help (the binary's, beside `main.rs`;
//! the library does not see it).

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "paperboy",
    version,
    about = "A static site generator for paper digests"
)]
pub struct Cli {
    /// The site's folder.
    #[arg(long, global = true, default_value = ".")]
    pub root: PathBuf,
    /// The config file (default: ROOT/paperboy.toml).
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
    /// No progress and no summary.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Say more: warnings and every change.
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Pretend the time is this (RFC 3339), for reproducible runs and tests.
    #[arg(long, global = true, hide = true)]
    pub now: Option<String>,
    #[command(subcommand)]
    pub command: Command,
}

/// Help for the commands that need no site: `--root` and `--config` are global (so that
/// `paperboy --root SITE build` works) but mean nothing to them, so their help leaves them out.
const SITELESS_HELP: &str = "{about-with-newline}\n{usage-heading} {usage}\n\nArguments:\n{positionals}\n\nOptions:\n  -q, --quiet  No progress and no summary\n  -h, --help   Print help\n";
const INIT_HELP: &str = "{about-with-newline}\n{usage-heading} {usage}\n\nArguments:\n{positionals}\n\nOptions:\n      --host <HOST>  Where it is published: the workflow, README and .gitignore init writes\n                     for it [default: github-pages] [possible values: github-pages, s3]\n  -q, --quiet        No progress and no summary\n  -h, --help         Print help\n";
const SITELESS_HELP_NO_ARGUMENTS: &str = "{about-with-newline}\n{usage-heading} {usage}\n\nOptions:\n  -q, --quiet  No progress and no summary\n  -h, --help   Print help\n";

#[derive(Subcommand)]
pub enum Command {
    /// A new site: paperboy.toml, content/, and a copy of the default theme.
    #[command(help_template = INIT_HELP)]
    Init {
        /// The new site's folder.
        dir: PathBuf,
        /// Where it is published: the workflow, README and .gitignore init writes for it.
        #[arg(long, value_name = "HOST", default_value = "github-pages", value_parser = ["github-pages", "s3"])]
        host: String,
    },
    /// Sources -> content/papers/ and content/digests/.
    Fetch {
        /// Read saved feed files (a file, or every .xml below a folder) instead of the network.
        #[arg(long)]
        from: Option<PathBuf>,
        /// Skip papers last updated before this date (YYYY-MM-DD).
        #[arg(long)]
        since: Option<chrono::NaiveDate>,
        /// At most this many papers from each source.
        #[arg(long)]
        max: Option<usize>,
        /// Print what would change and write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// A machine review of papers that have none (headline, one-liner, badges, figure),
    /// written to their [machine] table.
    Review {
        /// At most this many papers.
        #[arg(long)]
        max: Option<usize>,
        /// Only papers updated or announced on or after this date (YYYY-MM-DD).
        #[arg(long)]
        since: Option<chrono::NaiveDate>,
        /// Only this paper (repeatable), e.g. 2602.23556.
        #[arg(long = "id", value_name = "ID")]
        ids: Vec<String>,
        /// Saved HTML renditions instead of the network: DIR/<id>v<version>/index.html or
        /// DIR/<id>/index.html ('_' for '/' in old ids), images beside them.
        #[arg(long, value_name = "DIR")]
        from: Option<PathBuf>,
        /// Print what would change and write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Review again papers whose review is up to date.
        #[arg(long)]
        force: bool,
    },
    /// Content -> public/.
    Build {
        /// Overrides base_url (for previews and Pages): an http:// or https:// URL.
        #[arg(long, value_parser = parse_base_url)]
        base_url: Option<String>,
        /// Where the site goes (default: ROOT/public).
        #[arg(long)]
        output: Option<PathBuf>,
        /// Render every page, even those whose inputs did not change since the last build.
        #[arg(long)]
        full: bool,
    },
    /// Build, serve on 127.0.0.1, rebuild and reload open pages on every change.
    Serve {
        /// The port (0 picks a free one).
        #[arg(long, default_value_t = 1111)]
        port: u16,
        /// The address to listen on (0.0.0.0 to be reachable from other machines).
        #[arg(long, default_value = "127.0.0.1")]
        interface: std::net::IpAddr,
        /// Open the site in the default browser once it is built.
        #[arg(long)]
        open: bool,
    },
    /// Validate config, content and every internal link and anchor; writes nothing.
    Check,
    /// public/ to the [publish] remote (a bucket, via rclone): only the files that changed
    /// since the last publish there, then deletes what the site no longer has.
    Publish {
        /// Print what would be sent and deleted; send nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// The week's digest as a newsletter: .html, .txt and .eml, optionally sent over SMTP.
    Email {
        /// The ISO week, e.g. 2026-W20, or `frozen`: the newest week that no longer
        /// changes (see freeze_after_days). Default: the latest digest.
        #[arg(long, value_parser = parse_week)]
        week: Option<String>,
        /// Where the files go (default: ROOT/email).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Deliver to the [email] recipients over SMTP, each once (state/email/ records
        /// who has it).
        #[arg(long)]
        send: bool,
        /// With --send: deliver again to recipients who already have the week's email.
        #[arg(long, requires = "send")]
        resend: bool,
    },
    /// An archival copy of the built site: .tar.gz with a SHA-256 manifest, and WARC 1.1.
    Snapshot {
        /// Where the archives go (default: ROOT/snapshots).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Check an archive against its manifest instead of making one.
        #[arg(long, value_name = "ARCHIVE")]
        verify: Option<PathBuf>,
        /// With --verify: a separate manifest to check against (default: the one inside).
        #[arg(long, requires = "verify")]
        manifest: Option<PathBuf>,
    },
    /// Shell completions on stdout, e.g. `paperboy completions bash > /etc/bash_completion.d/paperboy`.
    #[command(help_template = SITELESS_HELP)]
    Completions { shell: clap_complete::Shell },
    /// The manual page (roff) on stdout, e.g. `paperboy man > paperboy.1`.
    #[command(help_template = SITELESS_HELP_NO_ARGUMENTS)]
    Man,
}

/// `--base-url` is held to what the config's `base_url` must be.
fn parse_base_url(s: &str) -> Result<String, String> {
    let rest = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
        .ok_or_else(|| format!("{s:?} is not an http:// or https:// URL"))?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() || host.contains(char::is_whitespace) {
        return Err(format!("{s:?} has no host"));
    }
    // As the config's base_url: a trailing slash would double in `{{ site.base_url }}/`.
    Ok(s.trim_end_matches('/').to_string())
}

/// An ISO week (2026-W20) or `frozen`.
fn parse_week(s: &str) -> Result<String, String> {
    if s == "frozen" {
        return Ok(s.to_string());
    }
    let valid = s
        .split_once("-W")
        .and_then(|(y, w)| Some((y.parse::<i32>().ok()?, w.parse::<u32>().ok()?)))
        .is_some_and(|(y, w)| {
            s.len() == 8 && chrono::NaiveDate::from_isoywd_opt(y, w, chrono::Weekday::Mon).is_some()
        });
    if valid {
        Ok(s.to_string())
    } else {
        Err(format!(
            "{s:?} is not an ISO week like 2026-W20 (or `frozen`)"
        ))
    }
}
