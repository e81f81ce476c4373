//! The command line as a newcomer meets it: bad values are usage errors (exit 2) that say
//! what is wrong and write nothing, a folder without a site points to `init`, an archive is
//! verified anywhere, the completions and man page come from the binary, and the commands
//! that need no site do not offer site options.

mod common;

use common::{assert_ok, paperboy, stderr, stdout};
use std::process::Command;

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_paperboy"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

#[test]
fn a_bad_base_url_or_week_is_a_usage_error_and_writes_nothing() {
    let site = common::example_site();
    for bad in [
        "",
        "notaurl",
        "https://",
        "ftp://x.org",
        "http:// spaces.org",
    ] {
        let out = paperboy(site.path(), &["build", "--base-url", bad]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "--base-url {bad:?}: {}",
            stderr(&out)
        );
        assert!(stderr(&out).contains("--base-url"), "{}", stderr(&out));
        assert!(
            !site.path().join("public").exists(),
            "--base-url {bad:?} built a site"
        );
    }
    for bad in ["banana", "2026-W54", "2026-W00", "2026W20", "2026-W2"] {
        let out = paperboy(site.path(), &["email", "--week", bad]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "--week {bad:?}: {}",
            stderr(&out)
        );
        assert!(stderr(&out).contains("ISO week"), "{}", stderr(&out));
        assert!(!site.path().join("email").exists());
    }
    let out = paperboy(site.path(), &["email", "--week", "2025-W34"]);
    assert_ok(&out);
    assert!(site.path().join("email/2025-W34.eml").is_file());
}

#[test]
fn a_folder_without_a_site_points_to_init() {
    let empty = tempfile::tempdir().unwrap();
    let out = paperboy(empty.path(), &["build"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("paperboy.toml") && err.contains("paperboy init"),
        "{err}"
    );
    assert!(!err.contains('\x1b'), "colour with NO_COLOR set: {err:?}");
}

#[test]
fn snapshot_verify_needs_no_site() {
    let site = common::example_site();
    let snaps = site.path().join("snaps");
    assert_ok(&paperboy(site.path(), &["build"]));
    assert_ok(&paperboy(
        site.path(),
        &["snapshot", "--out", snaps.to_str().unwrap()],
    ));
    let archive = std::fs::read_dir(&snaps)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .expect("a .tar.gz");
    let elsewhere = tempfile::tempdir().unwrap();
    let out = paperboy(
        elsewhere.path(),
        &["snapshot", "--verify", archive.to_str().unwrap()],
    );
    assert_ok(&out);
    assert!(
        stderr(&out).contains("all match the manifest"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn completions_and_man_page() {
    let out = run(&["completions", "bash"]);
    assert_ok(&out);
    let bash = stdout(&out);
    for word in ["_paperboy()", "fetch", "review", "snapshot", "--base-url"] {
        assert!(bash.contains(word), "bash completions lack {word}");
    }
    let syntax = Command::new("bash")
        .args(["-n", "-c", &bash])
        .output()
        .unwrap();
    assert_ok(&syntax);
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        assert_ok(&run(&["completions", shell]));
    }
    assert_eq!(run(&["completions", "tcsh"]).status.code(), Some(2));
    let out = run(&["man"]);
    assert_ok(&out);
    let man = stdout(&out);
    assert!(
        man.starts_with(".ie") || man.contains(".TH paperboy"),
        "{}",
        &man[..200.min(man.len())]
    );
    assert!(man.contains("static site generator for paper digests"));
}

#[test]
fn commands_that_need_no_site_do_not_offer_root_or_config() {
    for command in ["init", "completions", "man"] {
        let out = run(&[command, "--help"]);
        assert_ok(&out);
        let help = stdout(&out);
        assert!(help.contains("--help"), "{command}: {help}");
        assert!(
            !help.contains("--root") && !help.contains("--config"),
            "{command} --help offers site options: {help}"
        );
    }
    // The commands that work on a site still do, before or after the command's name.
    let help = stdout(&run(&["build", "--help"]));
    assert!(
        help.contains("--root") && help.contains("--config"),
        "{help}"
    );
    let site = common::example_site();
    let out = run(&["build", "--root", site.path().to_str().unwrap(), "-q"]);
    assert_ok(&out);
    assert!(site.path().join("public/index.html").is_file());
}
