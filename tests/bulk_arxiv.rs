//! The bulk arXiv routes: OAI-PMH harvesting (`kind = "arxiv-oai"`) against a real HTTP
//! server on 127.0.0.1 serving arXiv's real answers, and the metadata snapshot
//! (`fetch --from FILE.jsonl[.gz]`) from the real first 200 lines of Kaggle's file.

mod common;

use common::{Reply, TestServer, assert_ok, paperboy, read, stderr, temp_site};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const PAGE1: &str = "listrecords_oai_dc_2023-03-07_page1_resumptiontoken.xml";
const PAGE_LAST: &str = "listrecords_oai_dc_2023-03-07_page3_final_empty_token.xml";
const TOKEN: &str = "6511260|1001";
/// Every week of the 2023 harvest is long past: the freeze must not keep a harvest's
/// later pages out of the digests its earlier pages opened.
const NOW: &str = "2026-11-25T12:00:00Z";

macro_rules! need_oai {
    () => {
        match common::shared_fixtures("arxiv_oai") {
            Some(d) => d,
            None => return,
        }
    };
}

fn oai_config(url: &str, extra: &str) -> String {
    format!(
        "{}\n[[sources]]\nkind = \"arxiv-oai\"\nurl = \"{url}\"\nset = \"cs\"\nfrom = 2023-03-07\n{extra}\n[fetch]\nuser_agent = \"paperboy-test (mailto:test@example.org)\"\ndelay_seconds = 0\n",
        common::BASIC_CONFIG
    )
}

fn xml(body: Vec<u8>) -> Reply {
    Reply::Full(200, vec![("Content-Type".into(), "text/xml".into())], body)
}

/// The distinct arXiv ids a harvest page lists, read with a plain scan of the fixture.
fn ids_in(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    text.split("<dc:identifier>http://arxiv.org/abs/")
        .skip(1)
        .map(|rest| rest.split('<').next().unwrap().to_string())
        .collect()
}

fn paper_files(root: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(root.join("content/papers"))
        .sort_by_file_name()
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect()
}

fn paper_text(root: &Path, id: &str) -> String {
    paper_files(root)
        .into_iter()
        .find(|p| read(p).contains(&format!("id = \"{id}\"")))
        .map(read)
        .unwrap_or_else(|| panic!("no paper file for {id}"))
}

/// Every id listed by some digest, with how often.
fn digest_listing(root: &Path) -> std::collections::BTreeMap<String, usize> {
    let mut out = std::collections::BTreeMap::new();
    for e in std::fs::read_dir(root.join("content/digests")).unwrap() {
        let text = read(e.unwrap().path());
        for line in text.lines() {
            let l = line.trim().trim_end_matches(',');
            if l.starts_with('"') && l.ends_with('"') && !l.contains(' ') {
                *out.entry(l.trim_matches('"').to_string()).or_insert(0) += 1;
            }
        }
    }
    out
}

fn oai_error(code: &str, message: &str) -> Vec<u8> {
    // arXiv's layout (see the idDoesNotExist fixtures) with the code of OAI-PMH 2.0 §3.6.
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<OAI-PMH xmlns=\"http://www.openarchives.org/OAI/2.0/\"><responseDate>2023-03-14T10:00:00Z</responseDate><request verb=\"ListRecords\">http://export.arxiv.org/oai2</request><error code=\"{code}\">{message}</error></OAI-PMH>\n").into_bytes()
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn a_harvest_follows_its_token_waits_out_503_and_asks_a_cut_page_again() {
    let dir = need_oai!();
    let page1 = common::fixture_bytes(&dir, PAGE1);
    let last = common::fixture_bytes(&dir, PAGE_LAST);
    let busy = common::fixture_bytes(&dir, "export_arxiv_503_retry_after_body.html");
    let cut = last[..last.len() / 2].to_vec();
    let server = TestServer::start(move |_, n| match n {
        // arXiv's flow control: 503, Retry-After, and a body that is not XML.
        0 => Reply::Full(503, vec![("Retry-After".into(), "1".into())], busy.clone()),
        1 => xml(page1.clone()),
        // The last page breaks off half way (a whole HTTP answer, a cut document).
        2 => xml(cut.clone()),
        3 => xml(last.clone()),
        // The next run: nothing changed since.
        _ => xml(oai_error("noRecordsMatch", "No records match the request")),
    });
    let site = temp_site(&oai_config(
        &server.url("/oai"),
        "metadata_prefix = \"oai_dc\"",
    ));
    let out = paperboy(site.path(), &["--now", NOW, "fetch"]);
    assert_ok(&out);
    let err = stderr(&out);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 4, "{reqs:?}");
    for r in &reqs[..2] {
        assert_eq!(r.query("verb").as_deref(), Some("ListRecords"));
        assert_eq!(r.query("metadataPrefix").as_deref(), Some("oai_dc"));
        assert_eq!(r.query("set").as_deref(), Some("cs"));
        assert_eq!(r.query("from").as_deref(), Some("2023-03-07"));
    }
    assert!(
        reqs[1].at - reqs[0].at >= Duration::from_secs(1),
        "Retry-After is waited out"
    );
    for r in &reqs[2..] {
        // OAI-PMH: the token is the only argument besides the verb.
        assert_eq!(
            r.query("resumptionToken").as_deref(),
            Some("6511260%7C1001")
        );
        assert_eq!(r.query("metadataPrefix"), None);
    }
    assert!(err.contains("Retry-After 1 s"), "{err}");
    assert!(err.contains("broke off"), "the cut page is said: {err}");
    assert!(
        err.contains("no version numbers"),
        "oai_dc's limit is said: {err}"
    );

    let mut ids = ids_in(&common::fixture_bytes(&dir, PAGE1));
    ids.extend(ids_in(&common::fixture_bytes(&dir, PAGE_LAST)));
    ids.sort();
    ids.dedup();
    assert_eq!(paper_files(site.path()).len(), ids.len());
    let listed = digest_listing(site.path());
    assert_eq!(
        listed.keys().cloned().collect::<Vec<_>>(),
        ids,
        "every harvested paper is in a digest"
    );
    assert!(listed.values().all(|&n| n == 1), "and in one only");

    // oai_dc names categories in words: each must be read back to an arXiv code.
    for f in paper_files(site.path()) {
        let text = read(&f);
        assert!(
            !text.contains("primary_category = \"\"") && !text.contains("categories = []"),
            "{}: a subject not read as a category:\n{text}",
            f.display()
        );
    }
    // A record as oai_dc gives it: subjects by name, "Family, Given", a comment line.
    let p = paper_text(site.path(), "0806.4410");
    assert!(
        p.contains("title = \"Summing the curious series of Kempner and Irwin\""),
        "{p}"
    );
    assert!(p.contains("authors = [\"Robert Baillie\"]"), "{p}");
    assert!(p.contains("categories = [\"math.CA\", \"math.NT\"]"), "{p}");
    assert!(
        p.contains("\"40-01\", \"65B10\""),
        "MSC classes kept apart: {p}"
    );
    assert!(
        p.contains("comment = \"29 pages, 2 figures, 10 tables."),
        "{p}"
    );
    assert!(p.contains("published = 2008-06-27"), "{p}");

    let state = read(site.path().join("state/fetch.toml"));
    assert!(
        state.contains("harvested_until = \"2023-03-07\""),
        "{state}"
    );
    assert!(!state.contains("resumption_token"), "{state}");

    // The weekly run asks for what changed since the last harvest, and an empty window
    // is no error.
    let again = paperboy(site.path(), &["--now", NOW, "fetch"]);
    assert_ok(&again);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 5);
    assert_eq!(reqs[4].query("from").as_deref(), Some("2023-03-07"));
    assert!(
        stderr(&again).contains("0 new papers"),
        "{}",
        stderr(&again)
    );
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn a_killed_harvest_resumes_at_its_token_and_gives_what_an_uninterrupted_one_gives() {
    let dir = need_oai!();
    let page1 = common::fixture_bytes(&dir, PAGE1);
    let last = common::fixture_bytes(&dir, PAGE_LAST);
    let pages = move |req: &common::Request| match req.query("resumptionToken") {
        None => xml(page1.clone()),
        Some(_) => xml(last.clone()),
    };
    let whole = TestServer::start({
        let pages = pages.clone();
        move |req, _| pages(req)
    });
    let uninterrupted = temp_site(&oai_config(&whole.url("/oai"), ""));
    assert_ok(&paperboy(uninterrupted.path(), &["--now", NOW, "fetch"]));

    // The second page hangs until the run is killed, then answers as the first server.
    let killed = Arc::new(AtomicBool::new(false));
    let flaky = TestServer::start({
        let killed = killed.clone();
        move |req, _| {
            if req.query("resumptionToken").is_some() && !killed.load(Ordering::SeqCst) {
                Reply::Slow(Duration::from_secs(30), Box::new(pages(req)))
            } else {
                pages(req)
            }
        }
    });
    let resumed = temp_site(&oai_config(&flaky.url("/oai"), ""));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_paperboy"))
        .arg("--root")
        .arg(resumed.path())
        .args(["-q", "--now", NOW, "fetch"])
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !flaky
        .requests()
        .iter()
        .any(|r| r.query("resumptionToken").is_some())
    {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no second request"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    killed.store(true, Ordering::SeqCst);
    let state = read(resumed.path().join("state/fetch.toml"));
    assert!(
        state.contains(&format!("resumption_token = \"{TOKEN}\"")),
        "the first page was written and the token kept: {state}"
    );
    let page1_ids = ids_in(&common::fixture_bytes(&dir, PAGE1));
    assert!(paper_files(resumed.path()).len() >= page1_ids.len() - 5);

    let rerun = paperboy(resumed.path(), &["--now", NOW, "fetch"]);
    assert_ok(&rerun);
    assert!(stderr(&rerun).contains("resuming"), "{}", stderr(&rerun));
    let reqs = flaky.requests();
    let last_req = reqs.last().unwrap();
    assert!(
        last_req.query("resumptionToken").is_some() && reqs.len() == 3,
        "the rerun asks for the unfinished page, not the whole window again: {reqs:?}"
    );
    common::assert_same_tree(
        &uninterrupted.path().join("content"),
        &resumed.path().join("content"),
        "an uninterrupted harvest and a killed one resumed",
    );
    assert_eq!(
        read(uninterrupted.path().join("state/fetch.toml")),
        read(resumed.path().join("state/fetch.toml"))
    );
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn oai_errors_fail_their_source_with_what_arxiv_said() {
    let dir = need_oai!();
    let unknown = common::fixture_bytes(&dir, "error_idDoesNotExist_unknown_identifier.xml");
    let server = TestServer::start(move |_, _| xml(unknown.clone()));
    let site = temp_site(&oai_config(&server.url("/oai"), ""));
    let out = paperboy(site.path(), &["--now", NOW, "fetch"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("OAI error idDoesNotExist"), "{err}");
    assert!(err.contains("does not correspond to an item"), "{err}");
    assert!(err.contains(&server.url("/oai")), "names the URL: {err}");

    // An expired token: said, and the next run starts its window again.
    let server = TestServer::start(|_, _| {
        xml(oai_error(
            "badResumptionToken",
            "The value of the resumptionToken argument is invalid or expired.",
        ))
    });
    let site = temp_site(&oai_config(&server.url("/oai"), ""));
    std::fs::create_dir_all(site.path().join("state")).unwrap();
    std::fs::write(
        site.path().join("state/fetch.toml"),
        "[harvests.\"arxiv-oai cs\"]\nresumption_token = \"6511260|9001\"\n",
    )
    .unwrap();
    let out = paperboy(site.path(), &["--now", NOW, "fetch"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("badResumptionToken"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("starts its window again"));
    assert!(!read(site.path().join("state/fetch.toml")).contains("resumption_token"));

    // A page that is not OAI-PMH (a proxy's error page) names the URL.
    let server = TestServer::start(|_, _| xml(b"<html><body>Bad gateway</body></html>".to_vec()));
    let site = temp_site(&oai_config(&server.url("/oai"), ""));
    let out = paperboy(site.path(), &["--now", NOW, "fetch"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not an OAI-PMH answer"),
        "{}",
        stderr(&out)
    );
}

/// The snapshot line of 1810.09584 as it stood before its v2, written from the fields of
/// arXiv's own arXivRaw record of it (fixture getrecord_arXivRaw_1810.09584.xml).
fn snapshot_line_before_v2(dir: &Path) -> String {
    let raw = String::from_utf8(common::fixture_bytes(
        dir,
        "getrecord_arXivRaw_1810.09584.xml",
    ))
    .unwrap();
    let field = |name: &str| {
        let open = format!("<{name}>");
        let start = raw.find(&open).unwrap() + open.len();
        let end = raw[start..].find(&format!("</{name}>")).unwrap();
        raw[start..start + end].to_string()
    };
    serde_json::json!({
        "id": field("id"),
        "submitter": field("submitter"),
        "authors": field("authors"),
        "title": field("title"),
        "comments": field("comments"),
        "journal-ref": null,
        "doi": null,
        "report-no": null,
        "categories": field("categories"),
        "license": field("license"),
        "abstract": field("abstract"),
        "versions": [{"version": "v1", "created": "Mon, 22 Oct 2018 22:41:50 GMT"}],
        "update_date": "2018-10-23",
        "authors_parsed": [],
    })
    .to_string()
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn the_same_paper_from_the_snapshot_and_a_harvest_is_one_paper_and_its_v2_an_update() {
    let dir = need_oai!();
    let site = temp_site(&oai_config("http://127.0.0.1:9/unused", ""));
    let line = site.path().join("before-v2.jsonl");
    std::fs::write(&line, snapshot_line_before_v2(&dir) + "\n").unwrap();
    assert_ok(&paperboy(
        site.path(),
        &["--now", NOW, "fetch", "--from", line.to_str().unwrap()],
    ));
    let v1 = paper_text(site.path(), "1810.09584");
    assert!(
        v1.contains("version = 1") && v1.contains("source = \"arxiv-snapshot\""),
        "{v1}"
    );
    assert!(read(site.path().join("content/digests/2018-W43.md")).contains("\"1810.09584\""));

    let record = common::fixture_bytes(&dir, "getrecord_arXivRaw_1810.09584.xml");
    let server = TestServer::start(move |_, _| xml(record.clone()));
    common::edit(
        site.path().join("paperboy.toml"),
        "http://127.0.0.1:9/unused",
        &server.url("/oai"),
    );
    let out = paperboy(site.path(), &["--now", NOW, "fetch"]);
    assert_ok(&out);
    assert!(stderr(&out).contains("1 updated"), "{}", stderr(&out));
    assert_eq!(paper_files(site.path()).len(), 1, "one paper, not two");
    let v2 = paper_text(site.path(), "1810.09584");
    assert!(v2.contains("version = 2"), "{v2}");
    assert!(
        v2.contains("published = 2018-10-22T22:41:50Z"),
        "first version's date kept: {v2}"
    );
    assert!(v2.contains("updated = 2019-01-13T11:17:09Z"), "{v2}");
    assert!(
        v2.contains("journal_ref = \"EPL 124,60006 (2018)\""),
        "{v2}"
    );
    assert!(
        v2.contains(
            "authors = [\"Raphael Chetrite\", \"Shamik Gupta\", \"Izaak Neri\", \"Édgar Roldán\"]"
        ),
        "{v2}"
    );
    let week = read(site.path().join("content/digests/2019-W02.md"));
    assert!(
        week.contains("updated_papers = [\n  \"1810.09584\""),
        "{week}"
    );
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn the_metadata_snapshot_streams_gzipped_through_the_filters() {
    let Some(dir) = common::shared_fixtures("arxiv_snapshot") else {
        return;
    };
    let source = dir.join("kaggle_arxiv_metadata_first200.jsonl");
    let lines: Vec<serde_json::Value> = read(&source)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The rule the filter must follow, read from the file itself.
    let since = "2008-01-01";
    let expected: Vec<&str> = lines
        .iter()
        .filter(|l| {
            let cats = l["categories"].as_str().unwrap();
            let last = l["versions"].as_array().unwrap().last().unwrap()["created"]
                .as_str()
                .unwrap();
            let last = chrono::DateTime::parse_from_rfc2822(last).unwrap();
            cats.split(' ').any(|c| c == "hep-ph" || c == "astro-ph")
                && last.date_naive().to_string().as_str() >= since
        })
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert!(
        expected.len() > 3 && expected.len() < 100,
        "{}",
        expected.len()
    );

    let site = temp_site(&format!(
        "{}\n[filter]\ncategories = [\"hep-ph\", \"astro-ph\"]\n",
        common::BASIC_CONFIG
    ));
    // Gzipped, with a line that is not a record in the middle.
    let mut text = read(&source);
    let at = text.match_indices('\n').nth(99).unwrap().0 + 1;
    text.insert_str(at, "{\"id\": \"0704.9999\", \"title\": \"cut off\n");
    let gz = site.path().join("arxiv-metadata-oai-snapshot.jsonl.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    std::io::Write::write_all(&mut enc, text.as_bytes()).unwrap();
    enc.finish().unwrap();

    let out = paperboy(
        site.path(),
        &["fetch", "--from", gz.to_str().unwrap(), "--since", since],
    );
    assert_ok(&out);
    let err = stderr(&out);
    assert!(err.contains("line 101: not a snapshot record"), "{err}");
    assert!(err.contains("201 entries"), "{err}");
    let mut written: Vec<String> = digest_listing(site.path()).into_keys().collect();
    written.sort();
    let mut expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(written, expected, "the filtered papers, each in a digest");
    assert_eq!(paper_files(site.path()).len(), expected.len());

    // Unfiltered, the first record whole: TeX accents, versions, DOI.
    let site = temp_site(common::BASIC_CONFIG);
    assert_ok(&paperboy(
        site.path(),
        &["fetch", "--from", source.to_str().unwrap(), "--max", "1"],
    ));
    assert_eq!(paper_files(site.path()).len(), 1);
    let p = paper_text(site.path(), "0704.0001");
    assert!(
        p.contains(
            "authors = [\"C. Balázs\", \"E. L. Berger\", \"P. M. Nadolsky\", \"C.-P. Yuan\"]"
        ),
        "{p}"
    );
    assert!(
        p.contains("version = 2") && p.contains("published = 2007-04-02T19:18:42Z"),
        "{p}"
    );
    assert!(p.contains("doi = \"10.1103/PhysRevD.76.013009\""), "{p}");
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn saved_oai_pages_are_read_by_fetch_from_like_a_harvest() {
    let dir = need_oai!();
    let site = temp_site(common::BASIC_CONFIG);
    let out = paperboy(site.path(), &["fetch", "--from", dir.to_str().unwrap()]);
    // The two idDoesNotExist answers are OAI errors, said with their file; the rest land.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.matches("OAI error idDoesNotExist").count(), 2, "{err}");
    assert!(
        err.contains("error_idDoesNotExist_versioned_identifier.xml"),
        "{err}"
    );
    let mut ids = ids_in(&common::fixture_bytes(&dir, PAGE1));
    ids.extend(ids_in(&common::fixture_bytes(&dir, PAGE_LAST)));
    ids.sort();
    ids.dedup();
    // Both oai_dc pages, the 3 records of the `arXiv` page and the arXivRaw record.
    assert_eq!(paper_files(site.path()).len(), ids.len() + 3 + 1);
    let hep = paper_text(site.path(), "1706.09418");
    assert!(
        hep.contains("authors = [\"Daniel Dercks\", \"Herbi Dreiner\", \"Manuel E. Krauss\""),
        "{hep}"
    );
    assert!(
        hep.contains("categories = [\"hep-ph\", \"hep-ex\"]"),
        "{hep}"
    );
    assert!(
        hep.contains("doi = \"10.1140/epjc/s10052-017-5414-4\""),
        "{hep}"
    );
}

// After the helpers and `need_oai!`, which the harvests that must end use too.
#[path = "bulk_arxiv/ends.rs"]
mod ends;
