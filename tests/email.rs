//! `paperboy email`: the newsletter as a reader gets it (parsed from the `.eml` with
//! mailparse, not with the library that wrote it), and delivery to a real SMTP server on
//! 127.0.0.1 (aiosmtpd, tests/support/smtp_server.py) that refuses one recipient, answers
//! 451 once, drops the connection, or stalls so that a run can be killed mid-list.

mod common;

use common::{assert_ok, example_site, paper_markdown, paperboy, read, stderr};
use mailparse::MailHeaderMap;
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};

struct SmtpServer {
    child: Child,
    stdout: std::io::BufReader<ChildStdout>,
    port: u16,
    dir: tempfile::TempDir,
}

impl SmtpServer {
    fn start(args: &[&str]) -> SmtpServer {
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new("python3")
            .arg(common::repo().join("tests/support/smtp_server.py"))
            .arg(dir.path())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect(
                "python3 runs (the SMTP test needs python3 with aiosmtpd: pip install aiosmtpd)",
            );
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let port = line.trim().parse().unwrap_or_else(|_| {
            panic!("the SMTP server did not start (is aiosmtpd installed? pip install aiosmtpd): {line:?}")
        });
        SmtpServer {
            child,
            stdout,
            port,
            dir,
        }
    }

    /// Waits until the server says it stalled (`--stall-at`).
    fn wait_for_stall(&mut self) {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "STALL", "the server stopped without stalling");
    }

    /// (file name, message), in the order they were accepted.
    fn messages(&self) -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<(usize, String, Vec<u8>)> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".eml"))
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let n = name.split('-').next().unwrap().parse().unwrap();
                (n, name, std::fs::read(e.path()).unwrap())
            })
            .collect();
        out.sort();
        out.into_iter().map(|(_, n, b)| (n, b)).collect()
    }

    /// How many messages each recipient got.
    fn per_recipient(&self) -> BTreeMap<String, usize> {
        let mut out = BTreeMap::new();
        for (name, _) in self.messages() {
            let rcpt = name.split_once('-').unwrap().1.trim_end_matches(".eml");
            *out.entry(rcpt.to_string()).or_default() += 1;
        }
        out
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The example's config with an [email] table for a server on `port`; retries quick.
fn with_email_config(site: &Path, port: u16, to: &[String]) {
    let config = read(site.join("paperboy.toml"));
    let base = &config[..config
        .find("[email]")
        .expect("the example config has [email]")];
    let list: Vec<String> = to.iter().map(|t| format!("{t:?}")).collect();
    let email = format!(
        "[email]\nfrom = \"Digest <digest@example.org>\"\nto = [{}]\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {port}\nsmtp_security = \"none\"\nlist_unsubscribe = [\"mailto:leave@example.org\", \"https://example.org/leave\"]\ntries = 3\nretry_seconds = 0.2\n",
        list.join(", ")
    );
    std::fs::write(site.join("paperboy.toml"), format!("{base}{email}")).unwrap();
}

fn addresses(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn part<'a>(mail: &'a mailparse::ParsedMail<'a>, mime: &str) -> &'a mailparse::ParsedMail<'a> {
    mail.subparts
        .iter()
        .find(|p| p.ctype.mimetype == mime)
        .unwrap_or_else(|| panic!("no {mime} part"))
}

fn email(site: &Path, week: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["email", "--week", week, "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    paperboy(site, &args)
}

/// The front matter of a content file.
fn front(path: &Path) -> toml::Table {
    read(path).split("+++").nth(1).unwrap().parse().unwrap()
}

/// Every paper a digest lists (new and updated), with its front matter.
fn digest_papers(site: &Path, week: &str) -> Vec<toml::Table> {
    let digest = front(&site.join(format!("content/digests/{week}.md")));
    let mut out = Vec::new();
    for key in ["papers", "updated_papers"] {
        for id in digest[key].as_array().unwrap() {
            let id = id.as_str().unwrap();
            let path = site
                .join("content/papers")
                .join(paperboy::paper::PaperId::parse(id).unwrap().content_path());
            out.push(front(&path));
        }
    }
    out
}

fn permalink(paper: &toml::Table) -> String {
    format!(
        "https://example.github.io/digest/papers/{}/",
        paper["id"].as_str().unwrap()
    )
}

/// Checks what a reader of the `.eml` would: every paper linked in both parts, no
/// abstracts, the text wrapped at 72 columns with its references, the HTML part as sent
/// under Gmail's limit. Returns (HTML part bytes as sent, HTML decoded, text).
fn check_newsletter(eml: &[u8], papers: &[toml::Table]) -> (usize, String, String) {
    let mail = mailparse::parse_mail(eml).unwrap();
    assert_eq!(mail.ctype.mimetype, "multipart/alternative");
    let html_part = part(&mail, "text/html");
    let html = html_part.get_body().unwrap();
    let text = part(&mail, "text/plain").get_body().unwrap();
    let sent = html_part.raw_bytes.len();
    assert!(sent < 100_000, "the HTML part as sent is {sent} bytes");
    for p in papers {
        let url = permalink(p);
        assert!(html.contains(&format!("href=\"{url}\"")), "{url} in HTML");
        assert!(text.contains(&url), "{url} in text");
        // No abstracts: at most the one sentence a one-liner takes from one.
        let abs = p["abstract"]
            .as_str()
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let sentences = abs
            .split(". ")
            .filter(|s| s.len() > 40 && html.contains(*s))
            .count();
        assert!(
            sentences <= 2,
            "{url}: {sentences} sentences of its abstract in the HTML (a headline and a one-liner may take one each)"
        );
    }
    assert!(!html.contains("href=\"\""), "a link to nowhere");
    // Every in-page link has its target.
    for part in html.split("href=\"#").skip(1) {
        let id = &part[..part.find('"').unwrap()];
        assert!(html.contains(&format!("id=\"{id}\"")), "#{id}");
    }
    // The text part: 72 columns but for references; every reference resolves.
    let text = text.replace("\r\n", "\n");
    let (body, refs) = text.split_once("\nReferences\n").unwrap_or_else(|| {
        panic!(
            "a references list: {}",
            &text[text.len().saturating_sub(300)..]
        )
    });
    for line in body.lines() {
        assert!(
            line.chars().count() <= 72 || line.contains("://"),
            "over 72 columns: {line:?}"
        );
    }
    let listed: Vec<usize> = refs
        .lines()
        .filter_map(|l| l.strip_prefix('[')?.split_once(']')?.0.parse().ok())
        .collect();
    for chunk in body.split('[').skip(1) {
        if let Some(n) = chunk
            .split_once(']')
            .and_then(|(n, _)| n.parse::<usize>().ok())
        {
            assert!(
                n > 0 && listed.contains(&n),
                "reference [{n}] is not listed"
            );
        }
    }
    (sent, html, text)
}

#[test]
fn every_paper_of_the_week_at_a_glance() {
    let site = example_site();
    let out = tempfile::tempdir().unwrap();
    let run = email(site.path(), "2025-W34", out.path(), &[]);
    assert_ok(&run);
    assert!(stderr(&run).contains("86 of 86 papers"), "{}", stderr(&run));
    let papers = digest_papers(site.path(), "2025-W34");
    assert_eq!(papers.len(), 86);
    let eml = std::fs::read(out.path().join("2025-W34.eml")).unwrap();
    let (sent, html, text) = check_newsletter(&eml, &papers);
    eprintln!("2025-W34: 86 papers, HTML part as sent {sent} bytes");
    // The editor's pick first: its headline linked, its title, three authors et al.
    let first_group = &html[html.find("<h2").unwrap()..];
    assert!(first_group[..first_group.find("</h2>").unwrap()].contains("Editor's picks"));
    assert!(html.contains(">One model plays a whole multi-agent system end to end</a>"));
    assert!(html.contains("Chain-of-Agents: End-to-End Agent Foundation Models"));
    assert!(html.contains("Weizhen Li, Jianbo Lin, Zhuosong Jiang et al."));
    assert!(!html.contains("Jingyi Cao"), "only three authors");
    assert!(html.contains("href=\"https://arxiv.org/abs/2508.13167\""));
    assert!(html.contains("href=\"https://arxiv.org/pdf/2508.13167v1\""));
    // Badges and the machine's text, said to be the machine's.
    assert!(html.contains(">Recognition</span>"));
    assert!(html.contains("written by a program"));
    // The top: the week, its groups with counts, the web digest.
    assert!(html.contains("href=\"#group-cs.AI\"") && html.contains(">cs.AI</a> 40 ·"));
    assert!(html.contains("href=\"https://example.github.io/digest/digests/2025-W34/\""));
    // The foot: why, the archive, unsubscribe.
    assert!(html.contains("because you subscribed"));
    assert!(html.contains("href=\"https://example.github.io/digest/archive/\""));
    // Table layout, CSS inlined, dark mode kept in a style block.
    assert!(html.contains("width=\"600\""));
    assert!(html.contains("<h1 style="));
    assert!(html.contains("prefers-color-scheme: dark"));
    assert!(!html.contains("<math"), "math stays LaTeX in mail");
    assert!(text.contains("- One model plays a whole multi-agent system end to end [1]"));
    // The files written beside it are what the .eml holds.
    assert_eq!(
        read(out.path().join("2025-W34.html")).trim_end(),
        html.replace("\r\n", "\n").trim_end()
    );
    // The inbox's preview line counts the papers in words a reader would write.
    assert!(html.contains(">86 new papers: "), "preview of 86");
    assert_ok(&email(site.path(), "2026-W14", out.path(), &[]));
    let one = read(out.path().join("2026-W14.html"));
    assert!(
        one.contains(">1 new paper: Emulator flakiness"),
        "preview of 1"
    );
    // A week that does not exist.
    let bad = email(site.path(), "2030-W01", out.path(), &[]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("no content/digests/2030-W01.md"));
}

/// A week of 300 papers: the example's papers again under new ids, in 2025-W37.
#[test]
fn a_week_of_journal_papers_without_pdfs_authors_or_abstracts() {
    let site = example_site();
    let out = tempfile::tempdir().unwrap();
    assert_ok(&email(site.path(), "2025-W12", out.path(), &[]));
    let papers = digest_papers(site.path(), "2025-W12");
    let eml = std::fs::read(out.path().join("2025-W12.eml")).unwrap();
    let (_, html, text) = check_newsletter(&eml, &papers);
    // No feed gave a PDF: no PDF link, and no reference to one.
    assert!(
        !html.contains(">PDF</a>") && !text.contains("PDF ["),
        "{text}"
    );
    // OUP gave no authors: the badges stand alone, with nothing before them.
    assert!(
        !text.lines().any(|l| l.trim_start().starts_with('·')),
        "{text}"
    );
    // The "Code" badge is the link to the code, not said again among the links.
    assert!(
        html.contains(">Code</a> <a href=\"https://academic.oup.com/"),
        "{html}"
    );
    assert!(
        html.contains("<a class=\"b\" href=\"https://github.com/"),
        "{html}"
    );
    assert!(!html.contains(" · <a href=\"https://github.com/"), "{html}");
    // Nature gave no abstracts: no machine headline repeats the title; it is the head.
    let title = "Quantitative characterization of cell niches in spatially resolved omics data";
    assert_eq!(html.matches(title).count(), 1, "{html}");
}

#[test]
fn a_week_of_one_group_has_no_overview_to_jump_from() {
    let site = example_site();
    let out = tempfile::tempdir().unwrap();
    assert_ok(&email(site.path(), "2026-W14", out.path(), &[]));
    let papers = digest_papers(site.path(), "2026-W14");
    let eml = std::fs::read(out.path().join("2026-W14.eml")).unwrap();
    let (_, html, _) = check_newsletter(&eml, &papers);
    // "Editor's picks 1", linked to the group right below it: a link many mail clients do
    // not follow, to nowhere else.
    assert!(
        html.contains("<h2 id=\"picks\"") && html.contains(">Editor's picks</h2>"),
        "{html}"
    );
    assert!(!html.contains("href=\"#"), "{html}");
}

fn add_big_week(site: &Path) -> Vec<toml::Table> {
    let sources = paper_markdown(site);
    let dir = site.join("content/papers/2509");
    std::fs::create_dir_all(&dir).unwrap();
    let mut ids = Vec::new();
    for (n, src) in sources.iter().cycle().take(300).enumerate() {
        let text = read(src);
        let table = front(src);
        let old = table["id"].as_str().unwrap();
        let id = format!("2509.{:05}", 20000 + n);
        let day = 8 + n % 5;
        let mut out = text.replace(old, &id);
        for key in ["published", "updated"] {
            let line = out
                .lines()
                .find(|l| l.starts_with(&format!("{key} = ")))
                .unwrap()
                .to_string();
            out = out.replace(&line, &format!("{key} = 2025-09-{day:02}T12:00:00Z"));
        }
        std::fs::write(dir.join(format!("{id}.md")), out).unwrap();
        ids.push(format!("  \"{id}\","));
    }
    std::fs::write(
        site.join("content/digests/2025-W37.md"),
        format!(
            "+++\nweek = \"2025-W37\"\ntitle = \"Week 37, 2025\"\nstart = 2025-09-08\nend = 2025-09-14\npapers = [\n{}\n]\nupdated_papers = [\n]\n+++\n",
            ids.join("\n")
        ),
    )
    .unwrap();
    digest_papers(site, "2025-W37")
}

#[test]
fn a_300_paper_week_is_shortened_and_keeps_every_paper() {
    let site = example_site();
    let papers = add_big_week(site.path());
    assert_eq!(papers.len(), 300);
    let out = tempfile::tempdir().unwrap();
    let run = email(site.path(), "2025-W37", out.path(), &[]);
    assert_ok(&run);
    let err = stderr(&run);
    eprintln!("{err}");
    assert!(err.contains("300 of 300 papers"), "{err}");
    assert!(
        err.contains("shortened to fit: one-liners left out in"),
        "{err}"
    );
    let eml = std::fs::read(out.path().join("2025-W37.eml")).unwrap();
    let (sent, html, _) = check_newsletter(&eml, &papers);
    eprintln!("2025-W37: 300 papers, HTML part as sent {sent} bytes; {err}");
    // Shortened, not cut: the largest group lost its one-liners first.
    assert!(
        html.contains("class=\"p\""),
        "some papers keep their full item"
    );
}

#[test]
#[ignore = "needs aiosmtpd; scripts/test runs it"]
fn delivery_refuses_one_retries_a_drop_and_a_4xx_and_sends_each_once() {
    // Message 1 (alice) is taken; refuse-me is refused for good; when bob's message
    // begins the connection drops; tempfail-carol gets a 451 first.
    let smtp = SmtpServer::start(&["--drop-after", "2", "--tempfail", "tempfail"]);
    let site = example_site();
    let to = addresses(&[
        "alice@example.org",
        "refuse-me@example.org",
        "bob@example.org",
        "tempfail-carol@example.org",
    ]);
    with_email_config(site.path(), smtp.port, &to);
    let out = tempfile::tempdir().unwrap();
    let run = email(site.path(), "2025-W34", out.path(), &["--send"]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(
        err.contains("not delivered to refuse-me@example.org") && err.contains("550"),
        "{err}"
    );
    assert!(err.contains("retry: email to bob@example.org"), "{err}");
    assert!(
        err.contains("retry: email to tempfail-carol@example.org"),
        "{err}"
    );
    let got = smtp.per_recipient();
    let expected: BTreeMap<String, usize> = [
        ("alice@example.org", 1),
        ("bob@example.org", 1),
        ("tempfail-carol@example.org", 1),
    ]
    .into_iter()
    .map(|(a, n)| (a.to_string(), n))
    .collect();
    assert_eq!(got, expected);
    // What a bulk sender must say about itself.
    let messages = smtp.messages();
    let mail = mailparse::parse_mail(&messages[0].1).unwrap();
    let header = |name: &str| mail.headers.get_first_value(name).unwrap_or_default();
    assert_eq!(header("To"), "alice@example.org");
    assert_eq!(header("Subject"), "paperboy example digest: Week 34, 2025");
    assert_eq!(
        header("List-Unsubscribe"),
        "<https://example.org/leave>, <mailto:leave@example.org>"
    );
    assert_eq!(
        header("List-Unsubscribe-Post"),
        "List-Unsubscribe=One-Click"
    );
    assert!(header("List-Id").ends_with("<paperboy-example-digest.example.github.io>"));
    assert!(header("Message-ID").starts_with("<2025-W34."));
    assert!(!header("Date").is_empty());
    let ids: std::collections::BTreeSet<String> = messages
        .iter()
        .map(|(_, m)| {
            mailparse::parse_mail(m)
                .unwrap()
                .headers
                .get_first_value("Message-ID")
                .unwrap()
        })
        .collect();
    assert_eq!(ids.len(), 3, "a Message-ID per recipient");
    // The deliveries are on record.
    let state = read(site.path().join("state/email/2025-W34.toml"));
    for a in ["alice@", "bob@", "tempfail-carol@"] {
        assert!(state.contains(a), "{state}");
    }
    assert!(!state.contains("refuse-me"));

    // A rerun sends nothing to those who have it (and tries the refused one again).
    let again = email(site.path(), "2025-W34", out.path(), &["--send"]);
    assert!(
        stderr(&again).contains("3 already had it"),
        "{}",
        stderr(&again)
    );
    assert_eq!(smtp.per_recipient(), expected);
    // --resend sends again on purpose, as new messages.
    let resend = email(site.path(), "2025-W34", out.path(), &["--send", "--resend"]);
    assert_eq!(resend.status.code(), Some(1));
    let twice: BTreeMap<String, usize> = expected.keys().map(|a| (a.clone(), 2)).collect();
    assert_eq!(smtp.per_recipient(), twice);
    let resent = &smtp.messages()[3].1;
    let id = mailparse::parse_mail(resent)
        .unwrap()
        .headers
        .get_first_value("Message-ID")
        .unwrap();
    assert!(id.contains(".r1@"), "{id}");
}

#[test]
#[ignore = "needs aiosmtpd; scripts/test runs it"]
fn a_run_killed_mid_list_finishes_on_the_next_and_nobody_gets_two() {
    let to: Vec<String> = (0..100)
        .map(|i| format!("reader{i:02}@example.org"))
        .collect();
    let site = example_site();
    // The server takes 40 messages, then stalls when the 41st begins.
    let mut first = SmtpServer::start(&["--stall-at", "41"]);
    with_email_config(site.path(), first.port, &to);
    let out = tempfile::tempdir().unwrap();
    let mut run = Command::new(env!("CARGO_BIN_EXE_paperboy"))
        .args(["--root", site.path().to_str().unwrap()])
        .args(["email", "--week", "2025-W34", "--send", "--out"])
        .arg(out.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    first.wait_for_stall();
    // Killed while it waits for the server: after the 40th delivery was recorded.
    run.kill().unwrap();
    let status = run.wait().unwrap();
    assert!(!status.success(), "the run was cut off");
    assert_eq!(first.messages().len(), 40);
    let state = read(site.path().join("state/email/2025-W34.toml"));
    assert_eq!(state.matches("[[delivered]]").count(), 40, "{state}");
    // The next run, against a server that answers, sends to the other 60.
    let second = SmtpServer::start(&[]);
    with_email_config(site.path(), second.port, &to);
    let rerun = email(site.path(), "2025-W34", out.path(), &["--send"]);
    assert_ok(&rerun);
    assert!(
        stderr(&rerun).contains("sent to 60, 40 already had it"),
        "{}",
        stderr(&rerun)
    );
    let mut all = first.per_recipient();
    for (a, n) in second.per_recipient() {
        *all.entry(a).or_default() += n;
    }
    assert_eq!(all.len(), 100, "every reader got it");
    assert!(all.values().all(|&n| n == 1), "nobody got it twice");
}

#[test]
#[ignore = "needs aiosmtpd; scripts/test runs it"]
fn one_list_address_gets_one_message_and_frozen_picks_the_newest_frozen_week() {
    let smtp = SmtpServer::start(&[]);
    let site = example_site();
    with_email_config(
        site.path(),
        smtp.port,
        &addresses(&["digest-list@example.org"]),
    );
    let out = tempfile::tempdir().unwrap();
    // 2025-W34 ended on 2025-08-24: three days later it is frozen, the newest that is.
    let run = paperboy(
        site.path(),
        &[
            "--now",
            "2025-08-28T08:00:00Z",
            "email",
            "--week",
            "frozen",
            "--send",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_ok(&run);
    assert!(
        stderr(&run).contains("email for 2025-W34"),
        "{}",
        stderr(&run)
    );
    assert_eq!(smtp.messages().len(), 1);
    // Before any week is frozen there is nothing to send, and that is no error.
    let early = paperboy(
        site.path(),
        &[
            "--now",
            "2000-01-01T00:00:00Z",
            "email",
            "--week",
            "frozen",
            "--send",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_ok(&early);
    assert!(stderr(&early).contains("no week is frozen yet"));
    assert_eq!(smtp.messages().len(), 1);
}

/// A private certificate authority and a certificate for 127.0.0.1 it signed (openssl), in
/// `dir`: ca.pem, server.pem, server.key.
fn throwaway_certificates(dir: &Path) {
    let openssl = |args: &[&str]| {
        let out = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("openssl runs");
        common::assert_tool_ok(&out, format!("openssl {args:?}"));
    };
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    openssl(
        &[
            &["req", "-x509"][..],
            &ec,
            &[
                "-keyout",
                "ca.key",
                "-out",
                "ca.pem",
                "-days",
                "2",
                "-subj",
                "/CN=paperboy test CA",
            ],
            &[
                "-addext",
                "basicConstraints=critical,CA:TRUE",
                "-addext",
                "keyUsage=critical,keyCertSign",
            ],
        ]
        .concat(),
    );
    openssl(
        &[
            &["req"][..],
            &ec,
            &[
                "-keyout",
                "server.key",
                "-out",
                "server.csr",
                "-subj",
                "/CN=127.0.0.1",
            ],
        ]
        .concat(),
    );
    std::fs::write(
        dir.join("ext.cnf"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "2",
        "-extfile",
        "ext.cnf",
    ]);
}

#[test]
#[ignore = "needs aiosmtpd; scripts/test runs it"]
fn starttls_and_implicit_tls_with_credentials_from_the_environment() {
    let certs = tempfile::tempdir().unwrap();
    throwaway_certificates(certs.path());
    let cert = certs.path().join("server.pem");
    let key = certs.path().join("server.key");
    for (mode, security) in [("starttls", "starttls"), ("implicit", "tls")] {
        let server = SmtpServer::start(&[
            "--tls",
            mode,
            "--cert",
            cert.to_str().unwrap(),
            "--key",
            key.to_str().unwrap(),
            "--auth",
            "digest-bot:s3cret pass",
        ]);
        let site = example_site();
        with_email_config(
            site.path(),
            server.port,
            &addresses(&["reader@example.org"]),
        );
        let config = read(site.path().join("paperboy.toml")).replace(
            "smtp_security = \"none\"",
            &format!("smtp_security = \"{security}\""),
        );
        let trusting = format!("{config}smtp_ca_file = {:?}\n", certs.path().join("ca.pem"));
        let out_dir = site.path().join("out");
        let send = |config: &str, password: &str| {
            std::fs::write(site.path().join("paperboy.toml"), config).unwrap();
            Command::new(env!("CARGO_BIN_EXE_paperboy"))
                .arg("--root")
                .arg(site.path())
                .args(["email", "--week", "2025-W34", "--send", "--out"])
                .arg(&out_dir)
                .env("PAPERBOY_SMTP_USER", "digest-bot")
                .env("PAPERBOY_SMTP_PASSWORD", password)
                .output()
                .unwrap()
        };
        // A certificate nobody vouches for is refused before anything is said.
        let untrusted = send(&config, "s3cret pass");
        assert_eq!(
            untrusted.status.code(),
            Some(1),
            "{mode}: {}",
            stderr(&untrusted)
        );
        assert!(
            server.messages().is_empty(),
            "{mode}: sent over an untrusted connection"
        );
        // A wrong password is an error naming no secret, and nothing is sent.
        let wrong = send(&trusting, "wrong");
        assert_eq!(wrong.status.code(), Some(1), "{mode}: {}", stderr(&wrong));
        assert!(!stderr(&wrong).contains("wrong") && !stderr(&wrong).contains("s3cret"));
        assert!(server.messages().is_empty());
        // With the private authority trusted and the right credentials, it goes.
        let ok = send(&trusting, "s3cret pass");
        assert_ok(&ok);
        let messages = server.messages();
        assert_eq!(messages.len(), 1, "{mode}");
        assert!(messages[0].0.ends_with("reader@example.org.eml"));
    }
}
