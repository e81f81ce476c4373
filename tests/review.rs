//! `paperboy review`: real arXiv HTML renditions from `../shared/fixtures/arxiv_html/`, read
//! from a folder or served by a real HTTP server on 127.0.0.1 with the failures arXiv and
//! the network produce, and a real chat-completions endpoint on loopback.

mod common;

use common::{Reply, TestServer, assert_ok, paperboy, read, stderr, temp_site};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

macro_rules! need_html {
    () => {
        match common::shared_fixtures("arxiv_html") {
            Some(d) => d,
            None => return,
        }
    };
}

fn config(extra: &str) -> String {
    format!(
        "{}\n[fetch]\nuser_agent = \"paperboy-test (mailto:test@example.org)\"\ndelay_seconds = 0\nretries = 1\ntimeout_seconds = 5\n\n{extra}\n",
        common::BASIC_CONFIG
    )
}

/// A paper file as fetch writes it, with a `[review]` an editor may fill in.
fn paper(
    site: &Path,
    id: &str,
    version: u32,
    title: &str,
    abstract_text: &str,
    extra: &str,
) -> PathBuf {
    let path = site.join(format!("content/papers/{}/{id}.md", &id[..4]));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        format!(
            "+++\nid = \"{id}\"\nversion = {version}\ntitle = \"{title}\"\nauthors = [\"Ada Lovelace\", \"Alan Turing\"]\npublished = 2024-03-15T00:00:00Z\nupdated = 2024-03-15T00:00:00Z\nprimary_category = \"cs.CL\"\ncategories = [\"cs.CL\"]\nabstract = \"{abstract_text}\"\ncomment = \"\"\njournal_ref = \"\"\ndoi = \"\"\nsource = \"arxiv\"\n{extra}\n[links]\nabs = \"https://arxiv.org/abs/{id}\"\npdf = \"https://arxiv.org/pdf/{id}v{version}\"\n\n[review]\nheadline = \"\"\nsummary = \"\"\nbadges = []\nfigure = \"\"\n+++\n"
        ),
    )
    .unwrap();
    path
}

const ABSTRACT: &str = "Models are large. We present a method that reads papers. Experiments show that it is up to 32% faster than reading them by hand.";

fn machine(path: &Path) -> toml::Table {
    let text = read(path);
    let front = text.split("+++").nth(1).unwrap();
    let doc: toml::Table = toml::from_str(front).unwrap();
    doc.get("machine")
        .and_then(|m| m.as_table())
        .cloned()
        .unwrap_or_default()
}

fn s<'a>(t: &'a toml::Table, key: &str) -> &'a str {
    t.get(key).and_then(|v| v.as_str()).unwrap_or("")
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn saved_pages_give_figures_badges_licences_and_leave_people_s_words() {
    let html = need_html!();
    let site = temp_site(&config(""));
    let root = site.path();
    let attention = paper(
        root,
        "1706.03762",
        1,
        "Attention Is All You Need",
        ABSTRACT,
        "",
    );
    let split = paper(
        root,
        "2210.12503",
        1,
        "An Axiomatic Characterization of Split Cycle",
        ABSTRACT,
        "",
    );
    let raft = paper(root, "2403.10131", 1, "RAFT", ABSTRACT, "");
    let failed = paper(root, "2403.06634", 1, "Untitled", ABSTRACT, "");
    let unsaved = paper(root, "2601.00001", 1, "Not saved", ABSTRACT, "");
    // An editor's words: [review], a comment in it, the body.
    common::edit(
        &raft,
        "headline = \"\"",
        "headline = \"Editors' pick\" # mine",
    );
    std::fs::write(&raft, read(&raft) + "Our commentary.\n").unwrap();

    let out = paperboy(
        root,
        &[
            "review",
            "--from",
            html.to_str().unwrap(),
            "--now",
            "2026-11-24T12:00:00Z",
        ],
    );
    assert_ok(&out);
    let err = stderr(&out);
    assert!(err.contains("reviewed 5 of 5 papers: 5 written"), "{err}");

    // Figure 1 of the Transformer paper, as a small WebP beside its content.
    let m = machine(&attention);
    assert_eq!(s(&m, "figure"), "figures/1706/1706.03762.webp");
    assert_eq!(
        s(&m, "figure_caption"),
        "The Transformer - model architecture."
    );
    assert_eq!(s(&m, "html"), "ok");
    let webp = std::fs::read(root.join("content/figures/1706/1706.03762.webp")).unwrap();
    assert_eq!(&webp[8..12], b"WEBP");
    assert!(webp.len() < 30_000, "{} bytes", webp.len());
    assert_eq!(m["figure_width"].as_integer(), Some(543));
    // The source image is 1520 x 2239 px: held to 1.25 x 640 = 800 px high, 543 px wide.
    assert_eq!(m["figure_height"].as_integer(), Some(800));
    assert_eq!(s(&m, "by"), "extractive");
    assert_eq!(
        s(&m, "headline"),
        "It is up to 32% faster than reading them by hand"
    );

    // Theorems counted in the HTML; the licence the page names, filled in.
    assert!(
        machine(&split)["badges"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b.as_str() == Some("13 theorems"))
    );
    assert!(read(&raft).contains("license = \"http://creativecommons.org/licenses/by/4.0/\""));
    // A failed conversion is no rendition; a paper with no saved page was not asked.
    assert_eq!(s(&machine(&failed), "html"), "none");
    assert_eq!(s(&machine(&unsaved), "html"), "");
    // People's words are theirs.
    let text = read(&raft);
    assert!(
        text.contains("headline = \"Editors' pick\" # mine"),
        "{text}"
    );
    assert!(text.ends_with("+++\nOur commentary.\n"), "{text}");

    // A second run finds nothing to change.
    let again = paperboy(
        root,
        &[
            "review",
            "--from",
            html.to_str().unwrap(),
            "--now",
            "2026-11-24T12:00:00Z",
        ],
    );
    assert_ok(&again);
    assert!(stderr(&again).contains(" 0 written"), "{}", stderr(&again));

    // The site shows it: the figure with its size and credit, the machine's words marked,
    // the editor's headline over the machine's.
    assert_ok(&paperboy(root, &["build"]));
    let page = read(root.join("public/papers/1706.03762/index.html"));
    assert!(
        page.contains("src=\"/digest/papers/1706.03762/figure.webp\""),
        "{page}"
    );
    assert!(page.contains("width=\"543\" height=\"800\""));
    assert!(
        page.contains("Figure from arXiv:1706.03762 (Lovelace and Turing), license not stated")
    );
    // Said as a reader understands it, not by the summarizer's name.
    assert!(
        page.contains(
            "machine review, the abstract's own words, picked and shortened by a program"
        ),
        "{page}"
    );
    assert!(!page.contains("(extractive)"));
    assert_eq!(
        std::fs::read(root.join("public/papers/1706.03762/figure.webp")).unwrap(),
        webp
    );
    let page = read(root.join("public/papers/2403.10131/index.html"));
    assert!(
        page.contains("Editors&#x27; pick") || page.contains("Editors' pick"),
        "{page}"
    );
    assert!(page.contains(
        "<a href=\"http://creativecommons.org/licenses/by/4.0/\" rel=\"license\">CC BY 4.0</a>"
    ));
    let ld = page.split("application/ld+json\">").nth(1).unwrap();
    assert!(ld.contains("\"license\":\"http://creativecommons.org/licenses/by/4.0/\""));
    assert_ok(&paperboy(root, &["check"]));
}

/// A PNG that says it is `w` x `h` pixels and holds almost nothing: a decompression bomb.
fn bomb_png(w: u32, h: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend(w.to_be_bytes());
    ihdr.extend(h.to_be_bytes());
    ihdr.extend([8, 2, 0, 0, 0]);
    png.extend((13u32).to_be_bytes());
    let crc = crc32(&ihdr);
    png.extend(&ihdr);
    png.extend(crc.to_be_bytes());
    png
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn over_http_each_failure_is_said_and_the_other_papers_land() {
    let html = need_html!();
    let file = |rel: &str| std::fs::read(html.join(rel)).unwrap();
    let transformer_page = file("1706.03762/index.html");
    let figure_png = file("1706.03762/static/img/ModalNet-21.png");
    let pages = [
        ("/html/1706.03762v1", transformer_page),
        ("/html/1808.08002v1", file("1808.08002/index.html")),
        ("/html/2210.12503v1", file("2210.12503/index.html")),
        ("/html/2403.06634v1", file("2403.06634/index.html")),
        ("/html/2403.10131v1/", file("2403.10131v1/index.html")),
    ];
    let server = TestServer::start(move |req, _| {
        let path = req.target.as_str();
        if let Some((_, body)) = pages.iter().find(|(p, _)| *p == path) {
            return Reply::Full(
                200,
                vec![("Content-Type".into(), "text/html".into())],
                body.clone(),
            );
        }
        match path {
            // arXiv moves a page: the images resolve against where it ended up.
            "/html/2403.10131v1" => Reply::Full(
                301,
                vec![("Location".into(), "/html/2403.10131v1/".into())],
                vec![],
            ),
            "/static/img/ModalNet-21.png" | "/html/2403.10131v1/x1.png" => Reply::Full(
                200,
                vec![("Content-Type".into(), "image/png".into())],
                figure_png.clone(),
            ),
            // 1808.08002's first three figures: cut off, not an image, a bomb.
            "/static/img/x1.png" => Reply::CutOff {
                claimed: 100_000,
                body: figure_png[..5_000].to_vec(),
            },
            "/static/img/x2.png" => Reply::Full(
                200,
                vec![("Content-Type".into(), "text/html".into())],
                b"<html>Not here</html>".to_vec(),
            ),
            "/static/img/x3.png" => Reply::Full(
                200,
                vec![("Content-Type".into(), "image/png".into())],
                bomb_png(100_000, 100_000),
            ),
            "/html/2501.11120v1" => Reply::Full(500, vec![], b"oops".to_vec()),
            _ => Reply::Full(
                404,
                vec![],
                b"<html><body>No HTML for this paper</body></html>".to_vec(),
            ),
        }
    });
    let site = temp_site(&config(&format!(
        "[review]\nhtml_url = \"{}\"\nretry_days = 14\n",
        server.url("/html/{id}v{version}")
    )));
    let root = site.path();
    let ok = paper(root, "1706.03762", 1, "Attention", ABSTRACT, "");
    let broken = paper(root, "1808.08002", 1, "Polynomial chaos", ABSTRACT, "");
    let theorems = paper(root, "2210.12503", 1, "Split Cycle", ABSTRACT, "");
    let failed = paper(root, "2403.06634", 1, "Untitled", ABSTRACT, "");
    let moved = paper(root, "2403.10131", 1, "RAFT", ABSTRACT, "");
    let missing = paper(root, "2404.14219", 1, "Phi-3", ABSTRACT, "");
    let server_error = paper(
        root,
        "2501.11120",
        1,
        "Tell me about yourself",
        ABSTRACT,
        "",
    );
    let now = "2026-11-24T12:00:00Z";

    let out = paperboy(root, &["review", "--now", now]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "a paper failed: {err}");
    assert!(
        err.contains("error: ") && err.contains("2501.11120") && err.contains("HTTP 500"),
        "{err}"
    );
    assert!(err.contains("reviewed 6 of 7 papers"), "{err}");
    assert!(
        s(&machine(&server_error), "headline").is_empty(),
        "the failed paper has no review"
    );

    assert_eq!(s(&machine(&ok), "figure"), "figures/1706/1706.03762.webp");
    assert_eq!(
        s(&machine(&ok), "figure_source"),
        server.url("/static/img/ModalNet-21.png")
    );
    let m = machine(&moved);
    assert_eq!(
        s(&m, "figure_source"),
        server.url("/html/2403.10131v1/x1.png")
    );
    assert!(root.join("content/figures/2403/2403.10131.webp").is_file());

    // Three figures tried, none usable, one warning that says why.
    let m = machine(&broken);
    assert_eq!(s(&m, "html"), "ok");
    assert_eq!(s(&m, "figure"), "");
    let line = err
        .lines()
        .find(|l| l.contains("1808.08002: no figure"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        line.contains("cut off") && line.contains("2 more figures tried"),
        "{line}"
    );
    assert!(!root.join("content/figures/1808").exists());

    assert!(
        machine(&theorems)["badges"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b.as_str() == Some("13 theorems"))
    );
    for (path, why) in [(&failed, "conversion failed"), (&missing, "HTTP 404")] {
        let m = machine(path);
        assert_eq!(s(&m, "html"), "none");
        assert_eq!(
            m["checked"].as_datetime().unwrap().to_string(),
            "2026-11-24"
        );
        assert!(err.contains(why), "{why}: {err}");
        // Still a headline: the abstract is enough for that.
        assert!(!s(&m, "headline").is_empty());
    }
    // Etiquette: the configured User-Agent, and one request per image and page.
    let requests = server.requests();
    assert!(
        requests
            .iter()
            .all(|r| r.header("user-agent") == Some("paperboy-test (mailto:test@example.org)"))
    );
    let asked = |path: &str| requests.iter().filter(|r| r.target == path).count();
    assert_eq!(asked("/html/1706.03762v1"), 1);
    assert_eq!(asked("/static/img/x2.png"), 1);
    assert_eq!(
        asked("/html/2501.11120v1"),
        2,
        "a 5xx is retried (retries = 1)"
    );

    // A week later nothing is asked again but the paper that failed; a month later the
    // papers without HTML are asked again.
    let before = server.requests().len();
    let out = paperboy(root, &["review", "--now", "2026-12-01T12:00:00Z"]);
    assert_eq!(out.status.code(), Some(1));
    let asked_now: Vec<String> = server.requests()[before..]
        .iter()
        .map(|r| r.target.clone())
        .collect();
    assert_eq!(asked_now, ["/html/2501.11120v1", "/html/2501.11120v1"]);
    let before = server.requests().len();
    let _ = paperboy(root, &["review", "--now", "2026-12-09T12:00:00Z"]);
    let mut asked_now: Vec<String> = server.requests()[before..]
        .iter()
        .map(|r| r.target.clone())
        .collect();
    asked_now.sort();
    asked_now.dedup();
    assert_eq!(
        asked_now,
        [
            "/html/2403.06634v1",
            "/html/2404.14219v1",
            "/html/2501.11120v1"
        ]
    );
}

#[test]
fn options_narrow_what_is_reviewed_and_dry_run_writes_nothing() {
    let site = temp_site(&config(
        "[review]\nhtml_url = \"http://127.0.0.1:9/{id}v{version}\"\n",
    ));
    let root = site.path();
    // Journal papers: no HTML is asked for, so no network is needed.
    let ids = ["doi-10.1101-a", "doi-10.1101-b", "doi-10.1101-c"];
    let paths: Vec<PathBuf> = ids
        .iter()
        .map(|id| {
            let path = root.join(format!("content/papers/doi-00/{id}.md"));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, format!("+++\nid = \"{id}\"\ntitle = \"Paper {id}\"\npublished = 2026-01-0{}T00:00:00Z\nupdated = 2026-01-0{}T00:00:00Z\nabstract = \"{ABSTRACT}\"\n+++\n", ids.iter().position(|x| x == id).unwrap() + 1, ids.iter().position(|x| x == id).unwrap() + 1)).unwrap();
            path
        })
        .collect();
    let before: Vec<String> = paths.iter().map(read).collect();
    let out = paperboy(root, &["review", "--dry-run"]);
    assert_ok(&out);
    assert!(common::stdout(&out).contains("review doi-10.1101-a: It is up to 32% faster"));
    assert_eq!(
        paths.iter().map(read).collect::<Vec<_>>(),
        before,
        "a dry run writes nothing"
    );

    assert_ok(&paperboy(root, &["review", "--id", "doi-10.1101-b"]));
    assert!(machine(&paths[0]).is_empty() && !machine(&paths[1]).is_empty());
    assert_ok(&paperboy(root, &["review", "--since", "2026-01-03"]));
    assert!(machine(&paths[0]).is_empty() && !machine(&paths[2]).is_empty());
    assert_ok(&paperboy(root, &["review", "--max", "1"]));
    assert!(!machine(&paths[0]).is_empty());
    let out = paperboy(root, &["review", "--id", "2601.99999"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--id 2601.99999: no such paper"),
        "{}",
        stderr(&out)
    );
    // --force reviews again what is up to date.
    let out = paperboy(root, &["review", "--force"]);
    assert!(
        stderr(&out).contains("reviewed 3 of 3 papers: 0 written"),
        "{}",
        stderr(&out)
    );
}

/// What the chat endpoint does for a paper, told by a word of its title in the prompt.
fn chat_reply(prompt: &str) -> Reply {
    let json = |content: serde_json::Value| {
        Reply::Full(
            200,
            vec![("Content-Type".into(), "application/json".into())],
            serde_json::to_vec(&content).unwrap(),
        )
    };
    let message = |content: &str| {
        json(
            serde_json::json!({"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]}),
        )
    };
    if prompt.contains("Good paper") {
        message(
            r#"{"headline": "Reading papers gets 32% faster", "summary": "A method reads papers for you."}"#,
        )
    } else if prompt.contains("Malformed paper") {
        message("Here is your summary: it is good.")
    } else if prompt.contains("Slow paper") {
        Reply::Slow(
            Duration::from_secs(4),
            Box::new(message(r#"{"headline": "Late", "summary": "Late."}"#)),
        )
    } else if prompt.contains("Refused paper") {
        json(
            serde_json::json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": null, "refusal": "I can't help with that."}, "finish_reason": "stop"}]}),
        )
    } else {
        message(
            r#"{"headline": "Reading papers by hand is slower", "summary": "A method reads them faster."}"#,
        )
    }
}

#[test]
fn a_chat_endpoint_writes_the_review_and_every_failure_falls_back() {
    let busy_once = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let flag = busy_once.clone();
    let server = TestServer::start(move |req, _| {
        let prompt = String::from_utf8_lossy(&req.body).into_owned();
        if req.header("authorization") != Some("Bearer sk-test-key") {
            return Reply::Full(401, vec![], b"{\"error\": \"no key\"}".to_vec());
        }
        if prompt.contains("Busy paper") && flag.swap(false, std::sync::atomic::Ordering::SeqCst) {
            return Reply::Full(
                429,
                vec![("Retry-After".into(), "1".into())],
                b"{}".to_vec(),
            );
        }
        chat_reply(&prompt)
    });
    let site = temp_site(&config(&format!(
        "[review]\nsummarizer = \"openai\"\n\n[review.openai]\nendpoint = \"{}\"\nmodel = \"test-model-1\"\napi_key_env = \"PAPERBOY_TEST_KEY\"\ntimeout_seconds = 2\nconcurrency = 2\nrequests_per_minute = 600\n",
        server.url("/v1/chat/completions")
    )));
    let root = site.path();
    let journal = |title: &str| {
        let id = format!(
            "doi-10.1101-{}",
            title.split(' ').next().unwrap().to_lowercase()
        );
        let path = root.join(format!("content/papers/doi-00/{id}.md"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("+++\nid = \"{id}\"\ntitle = \"{title}\"\npublished = 2026-01-01T00:00:00Z\nupdated = 2026-01-01T00:00:00Z\nabstract = \"{ABSTRACT}\"\n+++\n")).unwrap();
        path
    };
    let good = journal("Good paper");
    let malformed = journal("Malformed paper");
    let slow = journal("Slow paper");
    let refused = journal("Refused paper");
    let busy = journal("Busy paper");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_paperboy"))
            .arg("--root")
            .arg(root)
            .args(args)
            .env("PAPERBOY_TEST_KEY", "sk-test-key")
            .output()
            .unwrap()
    };
    let out = run(&["review"]);
    assert_ok(&out);
    let err = stderr(&out);

    let m = machine(&good);
    assert_eq!(
        (s(&m, "headline"), s(&m, "by")),
        ("Reading papers gets 32% faster", "test-model-1")
    );
    let m = machine(&busy);
    assert_eq!(
        (s(&m, "headline"), s(&m, "by")),
        ("Reading papers by hand is slower", "test-model-1")
    );
    for (path, why) in [
        (&malformed, "malformed answer"),
        (&slow, "no answer within 2 s"),
        (&refused, "refused"),
    ] {
        let m = machine(path);
        assert_eq!(s(&m, "by"), "extractive", "{why}");
        assert_eq!(
            s(&m, "headline"),
            "It is up to 32% faster than reading them by hand"
        );
        let id = path.file_stem().unwrap().to_string_lossy().into_owned();
        let line = err
            .lines()
            .find(|l| l.contains(&id))
            .unwrap_or_else(|| panic!("{id}: {err}"));
        assert!(
            line.contains("used the extractive summary") && line.contains(why),
            "{line}"
        );
    }
    // The 429 was honoured: the second try came a Retry-After later.
    let busy_requests: Vec<std::time::Instant> = server
        .requests()
        .iter()
        .filter(|r| String::from_utf8_lossy(&r.body).contains("Busy paper"))
        .map(|r| r.at)
        .collect();
    assert_eq!(busy_requests.len(), 2);
    assert!(busy_requests[1] - busy_requests[0] >= Duration::from_millis(900));

    // A rerun costs nothing for the answers kept; the failures are asked again.
    let before = server.requests().len();
    assert_ok(&run(&["review", "--force"]));
    let asked: Vec<String> = server.requests()[before..]
        .iter()
        .map(|r| String::from_utf8_lossy(&r.body).into_owned())
        .collect();
    assert_eq!(asked.len(), 3, "the three failures only");
    assert!(
        !asked
            .iter()
            .any(|p| p.contains("Good paper") || p.contains("Busy paper"))
    );
}
