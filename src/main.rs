mod cli;

use cli::{Cli, Command};

use anyhow::{Context, Result};
use clap::Parser;
use paperboy::config::Config;
use std::path::PathBuf;
use std::process::ExitCode;

// A build allocates and frees millions of small strings (views, Tera values); mimalloc
// does that markedly faster than glibc's malloc on many threads.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay`, for which libmimalloc-sys has no constant.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// mimalloc 3 holds memory the program freed for a second (`purge_delay`, 1000 ms) before
/// it gives it back. A snapshot's build frees much of what it loaded as it goes, and at
/// 100,000 papers that second held 40-50 MB at its peak: 10 ms (mimalloc 2's default)
/// brought it from 287-292 to 240-247 MiB. Only for `snapshot`, whose memory is
/// what must stay flat: a weekly build was a quarter slower with it (madvise, and the
/// page faults after it). `MIMALLOC_PURGE_DELAY` still has the last word.
fn return_freed_memory_sooner() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: called before the command starts any other thread, so nothing reads
        // the option while it is set.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 10) }
    }
}

/// `error:` in bold red when stderr is a terminal and NO_COLOR is not set.
fn error_label() -> &'static str {
    use std::io::IsTerminal;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if std::io::stderr().is_terminal() && !no_color {
        "\x1b[1;31merror\x1b[0m"
    } else {
        "error"
    }
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
            eprintln!("{}: {e:#}", error_label());
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

/// Finishes the writes of a fetch that was interrupted (the caller holds the site lock).
fn recover(cli: &Cli) -> Result<()> {
    let n = paperboy::store::journal::recover(&cli.root)?;
    if n > 0 && !cli.quiet {
        eprintln!("note: finished {n} writes of an interrupted fetch");
    }
    Ok(())
}

fn config_path(cli: &Cli) -> PathBuf {
    cli.config
        .clone()
        .unwrap_or_else(|| cli.root.join("paperboy.toml"))
}

fn load_config(cli: &Cli) -> Result<Config> {
    let path = config_path(cli);
    if !path.exists() {
        anyhow::bail!(
            "{}: no such file; is {} a paperboy site? `paperboy init DIR` makes one (or pass --root / --config)",
            path.display(),
            cli.root.display()
        );
    }
    Config::load(&path)
}

/// A line for the person at the terminal (or the workflow's log), as it happens.
fn say(line: &str) {
    eprintln!("{line}");
}

/// 0 when everything went through, 1 when something (a source, a recipient, a link) failed.
fn exit_code(all_ok: bool) -> ExitCode {
    if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    if let Command::Init { dir, host } = &cli.command {
        let host = paperboy::init::HOSTS
            .into_iter()
            .find(|h| h.key() == host)
            .context("--host: github-pages or s3")?;
        paperboy::init::run(dir, host)?;
        if !cli.quiet {
            eprintln!(
                "created {}: edit paperboy.toml, then `paperboy --root {} fetch` and `build`",
                dir.display(),
                dir.display()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    match &cli.command {
        Command::Completions { shell } => {
            use clap::CommandFactory;
            let mut command = Cli::command();
            clap_complete::generate(*shell, &mut command, "paperboy", &mut std::io::stdout());
            return Ok(ExitCode::SUCCESS);
        }
        Command::Man => {
            use clap::CommandFactory;
            clap_mangen::Man::new(Cli::command()).render(&mut std::io::stdout())?;
            return Ok(ExitCode::SUCCESS);
        }
        // An archive carries its own manifest: checking it needs no site.
        Command::Snapshot {
            verify: Some(archive),
            manifest,
            ..
        } => return verify_snapshot(&cli, archive, manifest.as_deref()),
        _ => {}
    }
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
                note: (!cli.quiet).then_some(say as fn(&str)),
            };
            let _lock = if *dry_run {
                None
            } else {
                Some(paperboy::lock::acquire(&cli.root, "fetch")?)
            };
            if !*dry_run {
                recover(&cli)?;
            }
            let summary = paperboy::fetch::run(&cli.root, &config, &opts)?;
            if *dry_run || cli.verbose {
                for line in &summary.changes {
                    println!("{line}");
                }
            }
            if !cli.quiet {
                for line in &summary.warnings {
                    eprintln!("warning: {line}");
                }
            }
            if summary.temporaries_removed > 0 && !cli.quiet {
                eprintln!(
                    "note: removed {} temporary files that killed runs left in content/",
                    summary.temporaries_removed
                );
            }
            // Never silent, even with -q: papers that reach no digest are a loss to readers.
            for line in &summary.frozen_weeks {
                eprintln!("warning: {line}");
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
            Ok(exit_code(summary.failed.is_empty()))
        }
        Command::Init { .. } | Command::Completions { .. } | Command::Man => {
            unreachable!("handled before the config is read")
        }
        Command::Review {
            max,
            since,
            ids,
            from,
            dry_run,
            force,
        } => {
            let opts = paperboy::review::ReviewOptions {
                max: *max,
                since: *since,
                ids: ids.clone(),
                dry_run: *dry_run,
                from: from.clone(),
                force: *force,
                now: now(&cli)?,
                progress: !cli.quiet,
                note: (!cli.quiet).then_some(say as fn(&str)),
            };
            let _lock = if *dry_run {
                None
            } else {
                Some(paperboy::lock::acquire(&cli.root, "review")?)
            };
            if !*dry_run {
                recover(&cli)?;
            }
            let summary = paperboy::review::run(&cli.root, &config, &opts)?;
            if *dry_run || cli.verbose {
                for line in &summary.changes {
                    println!("{line}");
                }
            }
            if !cli.quiet {
                for line in &summary.warnings {
                    eprintln!("warning: {line}");
                }
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
            Ok(exit_code(summary.failed.is_empty()))
        }
        Command::Build {
            base_url,
            output,
            full,
        } => {
            let mut config = config;
            if let Some(url) = base_url {
                config.base_url = url.clone();
            }
            let output = output
                .as_ref()
                .cloned()
                .unwrap_or_else(|| cli.root.join("public"));
            let _lock = paperboy::lock::acquire(&cli.root, "build")?;
            recover(&cli)?;
            let report = paperboy::build::run(
                &cli.root,
                &config,
                &output,
                &paperboy::build::Options {
                    progress: !cli.quiet,
                    incremental: !full,
                    remove_temporaries: true,
                    ..Default::default()
                },
            )?;
            if cli.verbose {
                for step in &report.steps {
                    let peak = match (step.memory, step.peak_memory) {
                        (Some(now), Some(peak)) => format!(
                            "{:>6} MB now {:>6} MB peak",
                            now / 1_000_000,
                            peak / 1_000_000
                        ),
                        _ => String::new(),
                    };
                    eprintln!(
                        "{:>8.1} ms {:>8.1} ms cpu  {:<36}{peak}",
                        step.took.as_secs_f64() * 1000.0,
                        step.cpu.as_secs_f64() * 1000.0,
                        step.name
                    );
                }
                eprintln!(
                    "{} files: {} written ({} bytes), {} linked unchanged from the last build",
                    report.files,
                    report.files - report.reused,
                    report.bytes,
                    report.reused
                );
            }
            if report.temporaries_removed > 0 && !cli.quiet {
                eprintln!(
                    "note: removed {} temporary files that killed runs left in content/",
                    report.temporaries_removed
                );
            }
            if !cli.quiet {
                eprintln!("{report}");
            }
            let host = config.host.is_some();
            for finding in paperboy::host::assess(config.host(), host, &report.size) {
                eprintln!("warning: {finding}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Email {
            week,
            out,
            send,
            resend,
        } => {
            let opts = paperboy::email::EmailOptions {
                week: week.clone(),
                out: out.clone().unwrap_or_else(|| cli.root.join("email")),
                send: *send,
                resend: *resend,
                now: now(&cli)?,
                note: (!cli.quiet).then_some(say as fn(&str)),
            };
            let report = paperboy::email::run(&cli.root, &config, &opts)?;
            if cli.verbose {
                for f in &report.files {
                    eprintln!("wrote {}", f.display());
                }
            }
            for r in report.refused.iter().chain(&report.failed) {
                eprintln!("error: not delivered to {r}");
            }
            if report.over_limit {
                eprintln!(
                    "warning: the email's HTML is over {} bytes even with one line per paper; Gmail will clip it",
                    paperboy::email::HTML_SIZE_LIMIT
                );
            }
            if !cli.quiet {
                eprintln!("{report}");
            }
            Ok(exit_code(report.ok()))
        }
        Command::Serve {
            port,
            interface,
            open,
        } => {
            let config_path = config_path(&cli);
            let open = *open;
            let opts = paperboy::serve::ServeOptions {
                interface: *interface,
                port: *port,
                output: cli.root.join(".cache").join("serve"),
            };
            paperboy::serve::run(
                &cli.root,
                &opts,
                move || Config::load(&config_path),
                |url| {
                    eprintln!("serving {url}/ (Ctrl-C to stop)");
                    if open {
                        open_in_browser(&format!("{url}/"));
                    }
                },
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Check => {
            let _lock = paperboy::lock::acquire(&cli.root, "check")?;
            recover(&cli)?;
            let report = paperboy::check::run(&cli.root, &config, true)?;
            for line in &report.broken {
                println!("broken link: {line}");
            }
            for finding in &report.limits {
                eprintln!("{}: {finding}", finding.label());
            }
            if report.temporaries_removed > 0 && !cli.quiet {
                eprintln!(
                    "note: removed {} temporary files that killed runs left in content/",
                    report.temporaries_removed
                );
            }
            if !cli.quiet {
                eprintln!("{report}");
            }
            Ok(exit_code(report.ok()))
        }
        Command::Publish { dry_run } => {
            let _lock = paperboy::lock::acquire(&cli.root, "publish")?;
            let opts = paperboy::publish::Options {
                dry_run: *dry_run,
                progress: !cli.quiet,
                list_changes: *dry_run || cli.verbose,
            };
            let report = paperboy::publish::run(&cli.root, &config, &opts)?;
            for line in &report.changes {
                println!("{line}");
            }
            if !cli.quiet {
                eprintln!("{report}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Snapshot { out, .. } => {
            return_freed_memory_sooner();
            let out = out.clone().unwrap_or_else(|| cli.root.join("snapshots"));
            let _lock = paperboy::lock::acquire(&cli.root, "snapshot")?;
            recover(&cli)?;
            let report = paperboy::snapshot::run(&cli.root, &config, &out)?;
            if !cli.quiet {
                eprintln!("{report}");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn verify_snapshot(
    cli: &Cli,
    archive: &std::path::Path,
    manifest: Option<&std::path::Path>,
) -> Result<ExitCode> {
    let report = paperboy::snapshot::verify(archive, manifest)?;
    for p in &report.problems {
        println!("{p}");
    }
    if !cli.quiet {
        eprintln!(
            "{}: {} files, {}",
            archive.display(),
            report.files,
            if report.problems.is_empty() {
                "all match the manifest".to_string()
            } else {
                format!("{} differ from the manifest", report.problems.len())
            }
        );
    }
    Ok(exit_code(report.problems.is_empty()))
}

/// `serve --open`: the platform's opener; a failure is said, the server goes on.
fn open_in_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("warning: cannot open {url} with {opener}: {e}");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_option_set_for_freed_memory_is_mimallocs_purge_delay() {
        // Its default is 1000 ms in mimalloc 3: an upgrade that renumbers the options
        // fails here rather than setting some other option to 10.
        let default = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        assert_eq!(default, 1000);
    }
}
