//! `paperboy email`: the newsletter files, and delivery to a real SMTP server on 127.0.0.1
//! (aiosmtpd, started by the test).

mod common;

use common::{assert_ok, example_site, paperboy, read, stderr};
use std::io::BufRead;
use std::process::{Child, Command, Stdio};

struct SmtpServer {
    child: Child,
    port: u16,
    dir: tempfile::TempDir,
}

impl SmtpServer {
    fn start() -> SmtpServer {
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new("python3")
            .arg(common::repo().join("tests/support/smtp_server.py"))
            .arg(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect(
                "python3 runs (the SMTP test needs python3 with aiosmtpd: pip install aiosmtpd)",
            );
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line.trim().parse().unwrap_or_else(|_| {
            panic!("the SMTP server did not start (is aiosmtpd installed? pip install aiosmtpd): {line:?}")
        });
        SmtpServer { child, port, dir }
    }

    fn messages(&self) -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<_> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap())
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        out.sort();
        out
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

fn with_email_config(site: &std::path::Path, port: u16, to: &[&str]) {
    let config = read(site.join("paperboy.toml"));
    let base = &config[..config
        .find("[email]")
        .expect("the example config has [email]")];
    let list: Vec<String> = to.iter().map(|t| format!("{t:?}")).collect();
    let email = format!(
        "[email]\nfrom = \"Digest <digest@example.org>\"\nto = [{}]\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {port}\nsmtp_security = \"none\"\nlist_unsubscribe = \"mailto:leave@example.org\"\n",
        list.join(", ")
    );
    std::fs::write(site.join("paperboy.toml"), format!("{base}{email}")).unwrap();
}

fn part<'a>(mail: &'a mailparse::ParsedMail<'a>, mime: &str) -> &'a mailparse::ParsedMail<'a> {
    mail.subparts
        .iter()
        .find(|p| p.ctype.mimetype == mime)
        .unwrap_or_else(|| panic!("no {mime} part"))
}

#[test]
fn the_newsletter_arrives_with_both_parts() {
    let smtp = SmtpServer::start();
    let site = example_site();
    with_email_config(
        site.path(),
        smtp.port,
        &[
            "alice@example.org",
            "refuse-me@example.org",
            "bob@example.org",
        ],
    );
    let out = tempfile::tempdir().unwrap();
    let run = paperboy(
        site.path(),
        &[
            "email",
            "--week",
            "2025-W34",
            "--out",
            out.path().to_str().unwrap(),
            "--send",
        ],
    );
    // One refused recipient: reported, exit 1, the others still served.
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let err = stderr(&run);
    assert!(
        err.contains("not delivered to refuse-me@example.org") && err.contains("550"),
        "{err}"
    );
    let messages = smtp.messages();
    let names: Vec<&str> = messages.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["1-alice@example.org.eml", "2-bob@example.org.eml"]);

    let raw = &messages[0].1;
    let mail = mailparse::parse_mail(raw).unwrap();
    use mailparse::MailHeaderMap;
    assert_eq!(
        mail.headers.get_first_value("Subject").unwrap(),
        "paperboy example digest: Week 34, 2025"
    );
    assert_eq!(
        mail.headers.get_first_value("To").unwrap(),
        "alice@example.org"
    );
    assert_eq!(
        mail.headers.get_first_value("List-Unsubscribe").unwrap(),
        "<mailto:leave@example.org>"
    );
    assert_eq!(mail.ctype.mimetype, "multipart/alternative");
    let html = part(&mail, "text/html").get_body().unwrap();
    let text = part(&mail, "text/plain").get_body().unwrap();
    let web = "https://example.github.io/digest/digests/2025-W34/";
    assert!(
        html.contains(&format!("href=\"{web}\"")),
        "web link in HTML"
    );
    assert!(text.contains(web), "web link in text");
    assert!(
        html.len() < 102 * 1024,
        "under Gmail's clipping size: {}",
        html.len()
    );
    assert!(html.contains("width=\"600\""));
    assert!(!html.contains("<link rel=\"stylesheet\""));
    // CSS is inlined onto the elements; the dark-mode rules stay in a style block.
    assert!(html.contains("<h1 style="), "inlined CSS");
    assert!(html.contains("prefers-color-scheme: dark"));
    // Every paper of the week is there, linked to its page.
    let digest = read(site.path().join("content/digests/2025-W34.md"));
    let front: toml::Table = digest.split("+++").nth(1).unwrap().parse().unwrap();
    for id in front["papers"].as_array().unwrap() {
        let url = format!(
            "https://example.github.io/digest/papers/{}/",
            id.as_str().unwrap()
        );
        assert!(html.contains(&url) && text.contains(&url), "{url}");
    }
    // Math stays LaTeX: no MathML in mail.
    assert!(!html.contains("<math"));
    // The files written beside it.
    for ext in ["html", "txt", "eml"] {
        assert!(
            out.path().join(format!("2025-W34.{ext}")).is_file(),
            "{ext}"
        );
    }
    assert_eq!(
        read(out.path().join("2025-W34.html")).trim_end(),
        html.replace("\r\n", "\n").trim_end(),
        "the .html file is what was sent"
    );
}

#[test]
fn a_big_week_lists_fewer_abstracts_to_stay_under_the_limit() {
    let site = example_site();
    let out = tempfile::tempdir().unwrap();
    let run = paperboy(
        site.path(),
        &[
            "email",
            "--week",
            "2025-W34",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_ok(&run);
    let html = read(out.path().join("2025-W34.html"));
    assert!(
        html.len() <= paperboy::email::HTML_SIZE_LIMIT,
        "{}",
        html.len()
    );
    let abstracts = html.matches("class=\"abstract\"").count();
    assert!(abstracts > 0 && abstracts < 86, "{abstracts}");
    assert!(html.contains("All abstracts on the web"));
    // A small week keeps every abstract.
    let run = paperboy(
        site.path(),
        &[
            "email",
            "--week",
            "2026-W14",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_ok(&run);
    let small = read(out.path().join("2026-W14.html"));
    assert_eq!(small.matches("class=\"abstract\"").count(), 1);
    assert!(!small.contains("All abstracts on the web"));
    let bad = paperboy(
        site.path(),
        &[
            "email",
            "--week",
            "2030-W01",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("no content/digests/2030-W01.md"));
}
