use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use paperboy::config::Config;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "paperboy",
    version,
    about = "A static site generator for paper digests"
)]
struct Cli {
    /// The site's folder.
    #[arg(long, global = true, default_value = ".")]
    root: PathBuf,
    /// The config file (default: ROOT/paperboy.toml).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    /// No progress and no summary.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Say more: warnings and every change.
    #[arg(short, long, global = true)]
    verbose: bool,
    /// Pretend the time is this (RFC 3339), for reproducible runs and tests.
    #[arg(long, global = true, hide = true)]
    now: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
    /// Content -> public/.
    Build {
        /// Overrides base_url (for previews and Pages).
        #[arg(long)]
        base_url: Option<String>,
        /// Where the site goes (default: ROOT/public).
        #[arg(long)]
        output: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn now(cli: &Cli) -> Result<chrono::DateTime<chrono::Utc>> {
    match &cli.now {
        Some(s) => Ok(chrono::DateTime::parse_from_rfc3339(s)
            .with_context(|| format!("--now {s:?}: not an RFC 3339 time"))?
            .with_timezone(&chrono::Utc)),
        None => Ok(chrono::Utc::now()),
    }
}

fn load_config(cli: &Cli) -> Result<Config> {
    let path = cli
        .config
        .clone()
        .unwrap_or_else(|| cli.root.join("paperboy.toml"));
    Config::load(&path)
}

fn run(cli: Cli) -> Result<ExitCode> {
    let config = load_config(&cli)?;
    match &cli.command {
        Command::Fetch {
            from,
            since,
            max,
            dry_run,
        } => {
            let opts = paperboy::fetch::FetchOptions {
                from: from.clone(),
                since: *since,
                max: *max,
                dry_run: *dry_run,
                now: now(&cli)?,
                progress: !cli.quiet,
            };
            let summary = paperboy::fetch::run(&cli.root, &config, &opts)?;
            if *dry_run || cli.verbose {
                for line in &summary.changes {
                    println!("{line}");
                }
            }
            for line in &summary.frozen_weeks {
                eprintln!("note: {line}");
            }
            for failure in &summary.failed {
                eprintln!("error: {failure}");
            }
            if !cli.quiet {
                let tail = if *dry_run {
                    " (dry run: nothing written)"
                } else {
                    ""
                };
                eprintln!("{summary}{tail}");
            }
            Ok(if summary.failed.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Build { base_url, output } => {
            let mut config = config;
            if let Some(url) = base_url {
                config.base_url = url.clone();
            }
            let output = output
                .as_ref()
                .cloned()
                .unwrap_or_else(|| cli.root.join("public"));
            let report = paperboy::build::run(&cli.root, &config, &output, !cli.quiet)?;
            if cli.verbose {
                for (step, took) in &report.steps {
                    eprintln!("{:>8.1} ms  {step}", took.as_secs_f64() * 1000.0);
                }
            }
            if !cli.quiet {
                eprintln!("{report}");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
