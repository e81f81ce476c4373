//! The book's command-line reference (docs/src/generated/cli.md) is made from the same clap
//! definition as `paperboy --help` and `paperboy man`: src/cli.rs, compiled into this test.
//! A change to a command, an option or its help that is not in the book fails here;
//! `PAPERBOY_WRITE_DOCS=1 cargo test --test docs_cli` writes the file anew.

#[allow(dead_code)]
#[path = "../src/cli.rs"]
mod cli;

use clap::CommandFactory;
use std::fmt::Write;

mod common;

const GENERATED: &str = "docs/src/generated/cli.md";

/// Help text in a table cell: a sentence, with nothing markdown or HTML would take for its
/// own outside code spans (`DIR/<id>v<version>/` is a path, not a tag).
fn cell(text: &str) -> String {
    let mut text: String = text
        .trim()
        .replace('\n', " ")
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                return part.to_string(); // inside a code span: as it is
            }
            part.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        })
        .collect::<Vec<_>>()
        .join("`")
        .replace('|', "\\|");
    sentence(&mut text);
    text
}

fn sentence(text: &mut String) {
    if !text.is_empty() && !text.ends_with(['.', ')']) {
        text.push('.');
    }
}

/// `--from <FROM>`, `-q, --quiet`, `<DIR>`.
fn arg_name(arg: &clap::Arg) -> String {
    let values = arg
        .get_value_names()
        .map(|v| v.iter().map(|n| format!("<{n}>")).collect::<Vec<_>>())
        .unwrap_or_else(|| vec![format!("<{}>", arg.get_id().as_str().to_uppercase())]);
    if arg.is_positional() {
        return values.join(" ");
    }
    let mut name = String::new();
    if let Some(s) = arg.get_short() {
        name.push_str(&format!("-{s}, "));
    }
    name.push_str(&format!(
        "--{}",
        arg.get_long().unwrap_or(arg.get_id().as_str())
    ));
    if arg.get_action().takes_values() {
        name.push(' ');
        name.push_str(&values.join(" "));
    }
    name
}

fn arg_help(arg: &clap::Arg) -> String {
    let mut help = arg
        .get_long_help()
        .or(arg.get_help())
        .map(|h| h.to_string())
        .unwrap_or_default();
    sentence(&mut help);
    let possible: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| format!("`{}`", v.get_name()))
        .collect();
    if !possible.is_empty() && arg.get_action().takes_values() {
        let _ = write!(help, " One of {}.", possible.join(", "));
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| format!("`{}`", v.to_string_lossy()))
        .collect();
    if !defaults.is_empty() && arg.get_action().takes_values() {
        let _ = write!(help, " Default: {}.", defaults.join(", "));
    }
    help.trim().to_string()
}

fn args_table(out: &mut String, args: &[&clap::Arg]) {
    if args.is_empty() {
        return;
    }
    out.push_str("| argument or option | meaning |\n|---|---|\n");
    for arg in args {
        let _ = writeln!(out, "| `{}` | {} |", arg_name(arg), cell(&arg_help(arg)));
    }
    out.push('\n');
}

/// The reference as markdown: the global options, then each command's usage and options.
fn reference() -> String {
    let mut cmd = cli::Cli::command();
    cmd.build();
    let shown =
        |a: &&clap::Arg| !a.is_hide_set() && !["help", "version"].contains(&a.get_id().as_str());
    let mut out = String::from(
        "<!-- Made by tests/docs_cli.rs from src/cli.rs; do not edit: run\n     PAPERBOY_WRITE_DOCS=1 cargo test --test docs_cli -->\n\n",
    );
    let _ = writeln!(
        out,
        "## Global options\n\n```text\n{}\n```\n",
        cmd.render_usage().to_string().trim_start_matches("Usage: ")
    );
    let globals: Vec<&clap::Arg> = cmd.get_arguments().filter(shown).collect();
    args_table(&mut out, &globals);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_name();
        if name == "help" {
            continue;
        }
        let _ = writeln!(out, "## `paperboy {name}`\n");
        let about = sub
            .get_long_about()
            .or(sub.get_about())
            .map(|a| a.to_string())
            .unwrap_or_default();
        let _ = writeln!(out, "{}\n", cell(about.trim()));
        let usage = sub.clone().render_usage().to_string();
        let _ = writeln!(
            out,
            "```text\n{}\n```\n",
            usage.trim_start_matches("Usage: ").trim()
        );
        let args: Vec<&clap::Arg> = sub
            .get_arguments()
            .filter(shown)
            .filter(|a| !a.is_global_set())
            .collect();
        args_table(&mut out, &args);
    }
    out.trim_end().to_string() + "\n"
}

#[test]
fn the_book_s_command_line_reference_is_made_from_src_cli_rs() {
    let made = reference();
    let path = common::repo().join(GENERATED);
    if std::env::var_os("PAPERBOY_WRITE_DOCS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &made).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == made,
        "{GENERATED} is not what src/cli.rs says; write it anew with\n  PAPERBOY_WRITE_DOCS=1 cargo test --test docs_cli\n\n--- kept\n{kept}\n--- made\n{made}"
    );
    // Every command and option the binary accepts is in it.
    for word in [
        "## `paperboy fetch`",
        "`--base-url <BASE_URL>`",
        "`--dry-run`",
        "`-q, --quiet`",
        "## `paperboy completions`",
        "## `paperboy man`",
    ] {
        assert!(made.contains(word), "{word} missing:\n{made}");
    }
    let chapter = common::read(common::repo().join("docs/src/command-line.md"));
    assert!(chapter.contains("{{#include generated/cli.md}}"));
}

/// The reference and the man page come from one definition: every command the man page
/// lists has its section.
#[test]
fn every_command_of_the_man_page_has_a_section() {
    let out = common::paperboy(&common::repo(), &["man"]);
    common::assert_ok(&out);
    let man = common::stdout(&out);
    let made = reference();
    let mut commands = 0;
    for line in man.lines() {
        // clap_mangen lists subcommands as `paperboy\-fetch(1)`.
        if let Some(rest) = line.strip_prefix("paperboy\\-")
            && let Some((name, _)) = rest.split_once("(1)")
        {
            if name == "help" {
                continue; // clap's own, in every command's --help
            }
            commands += 1;
            assert!(
                made.contains(&format!("## `paperboy {name}`")),
                "{name} is in the man page, not in the book"
            );
        }
    }
    assert!(commands >= 9, "{commands} commands found in:\n{man}");
}
