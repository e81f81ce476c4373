//! `paperboy serve`: a real server on 127.0.0.1 that rebuilds on edits.

mod common;

use common::{edit, example_site, read, start_serve as start};
use std::time::{Duration, Instant};

fn get(url: &str) -> (u16, String) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let resp = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
        .get(url)
        .send()
        .unwrap();
    (resp.status().as_u16(), resp.text().unwrap())
}

/// A request sent byte for byte as given, and the whole answer.
fn raw_get(authority: &str, target: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(authority).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// Polls until `cond` holds, for at most 20 seconds.
fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        if cond() {
            return;
        }
        std::thread::sleep(Duration::from_millis(150));
    }
    panic!("timed out waiting for {what}");
}

#[test]
fn serves_rebuilds_and_keeps_the_last_good_site_on_a_broken_edit() {
    let site = example_site();
    let serve = start(site.path());
    let page = format!("{}/digests/2025-W34/", serve.url);
    let (status, html) = get(&page);
    assert_eq!(status, 200);
    assert!(html.contains("<h1>Week 34, 2025</h1>"));
    assert!(
        html.contains("/__paperboy/events"),
        "reload script injected"
    );
    assert!(
        html.contains(&format!("href=\"{}/style.css\"", serve.url))
            || html.contains("href=\"/style.css\"")
    );
    let (status, _) = get(&format!("{}/no/such/page/", serve.url));
    assert_eq!(status, 404);
    // reqwest would normalize `..` away before sending; a raw request reaches the server as
    // written.
    let authority = serve.url.trim_start_matches("http://").to_string();
    for target in [
        "/../../../../../../etc/passwd".to_string(),
        "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd".to_string(),
        "/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd".to_string(),
        "/..\\..\\..\\..\\..\\..\\etc\\passwd".to_string(),
        "/%2fetc%2fpasswd".to_string(),
        format!("http://{authority}/../../../../../../etc/passwd"),
    ] {
        let answer = raw_get(&authority, &target);
        let status = answer.split(' ').nth(1).unwrap_or("");
        assert!(
            status == "404" || status == "400",
            "{target}: {}",
            answer.lines().next().unwrap_or("")
        );
        assert!(!answer.contains("root:"), "{target} served /etc/passwd");
    }
    let (_, events) = get(&format!("{}/__paperboy/events", serve.url));
    let first: serde_json::Value = serde_json::from_str(&events).unwrap();
    assert!(first["error"].is_null());

    // An edit to the digest shows up.
    let digest = site.path().join("content/digests/2025-W34.md");
    edit(&digest, "The week the cs.AI", "Edited: the week the cs.AI");
    eventually("the edit to be served", || {
        get(&page).1.contains("Edited: the week the cs.AI")
    });

    // A broken edit: the error is reported, the last good page still served.
    let paper = site.path().join("content/papers/2604/2604.03438.md");
    let good = read(&paper);
    std::fs::write(&paper, good.replace("version = 1", "version = \"one\"")).unwrap();
    let mut last = serde_json::Value::Null;
    eventually("the error to be reported", || {
        last = serde_json::from_str(&get(&format!("{}/__paperboy/events", serve.url)).1).unwrap();
        last["error"].is_string()
    });
    assert!(
        last["error"].as_str().unwrap().contains("2604.03438.md:3"),
        "{last}"
    );
    let (status, html) = get(&page);
    assert_eq!(status, 200);
    assert!(html.contains("Edited: the week the cs.AI"));

    // Mending it clears the error.
    std::fs::write(&paper, good).unwrap();
    eventually("the error to clear", || {
        let v: serde_json::Value =
            serde_json::from_str(&get(&format!("{}/__paperboy/events", serve.url)).1).unwrap();
        v["error"].is_null()
    });

    // A template, a static file and the config, each changed, are served rebuilt.
    let template = site.path().join("themes/default/templates/digest.html");
    let text = read(&template);
    let at = text
        .find("{% block content %}")
        .expect("digest.html has a content block")
        + "{% block content %}".len();
    std::fs::write(
        &template,
        format!(
            "{}<p id=\"served-template\">changed</p>{}",
            &text[..at],
            &text[at..]
        ),
    )
    .unwrap();
    eventually("the template change to be served", || {
        get(&page).1.contains("id=\"served-template\"")
    });
    let css = site.path().join("themes/default/static/style.css");
    std::fs::write(&css, format!("{}\n/* served-static */\n", read(&css))).unwrap();
    eventually("the static change to be served", || {
        get(&format!("{}/style.css", serve.url))
            .1
            .contains("served-static")
    });
    let config = site.path().join("paperboy.toml");
    let before = read(&config);
    let retitled = before.replacen("title = \"", "title = \"Served: ", 1);
    assert_ne!(before, retitled);
    std::fs::write(&config, retitled).unwrap();
    eventually("the config change to be served", || {
        get(&page).1.contains("Served: ")
    });
}
