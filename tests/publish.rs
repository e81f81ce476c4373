//! Archival snapshots and `paperboy check`.

mod common;

use common::{assert_ok, assert_same_tree, edit, example_site, paperboy, stderr, stdout};
use std::io::Read;
use std::path::{Path, PathBuf};

fn snapshot(site: &Path, out: &Path) -> (PathBuf, PathBuf) {
    assert_ok(&paperboy(
        site,
        &["snapshot", "--out", out.to_str().unwrap()],
    ));
    let mut files: Vec<PathBuf> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let find = |ext: &str| {
        files
            .iter()
            .find(|p| p.to_string_lossy().ends_with(ext))
            .unwrap()
            .clone()
    };
    (find(".tar.gz"), find(".warc.gz"))
}

#[test]
fn snapshots_are_byte_identical_and_verify() {
    let site = example_site();
    let dir = tempfile::tempdir().unwrap();
    let (tar1, warc1) = snapshot(site.path(), &dir.path().join("one"));
    let (tar2, warc2) = snapshot(site.path(), &dir.path().join("two"));
    assert_eq!(tar1.file_name(), tar2.file_name());
    assert!(
        std::fs::read(&tar1).unwrap() == std::fs::read(&tar2).unwrap(),
        "tar.gz differs"
    );
    assert!(
        std::fs::read(&warc1).unwrap() == std::fs::read(&warc2).unwrap(),
        "warc.gz differs"
    );

    // The archive holds the manifest first, the figures' credits, then every file in path
    // order.
    let mut archive = tar::Archive::new(flate2::read::MultiGzDecoder::new(
        std::fs::File::open(&tar1).unwrap(),
    ));
    let mut names = Vec::new();
    let mut manifest = String::new();
    let mut times = std::collections::BTreeSet::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let name = entry.path().unwrap().to_string_lossy().into_owned();
        // Fixed owners and times: nothing of the machine that made it.
        let header = entry.header();
        assert_eq!(
            (header.uid().unwrap(), header.gid().unwrap()),
            (0, 0),
            "{name}"
        );
        assert!(
            header.username().unwrap().unwrap_or("").is_empty()
                || header.username().unwrap() == Some("root"),
            "{name}: owner {:?}",
            header.username()
        );
        times.insert(header.mtime().unwrap());
        if name == "MANIFEST.sha256" {
            entry.read_to_string(&mut manifest).unwrap();
        }
        names.push(name);
    }
    assert_eq!(times.len(), 1, "entries with different times: {times:?}");
    assert_eq!(names[0], "MANIFEST.sha256");
    assert_eq!(names[1], "FIGURES.tsv");
    let mut sorted = names[2..].to_vec();
    sorted.sort();
    assert_eq!(names[2..], sorted[..]);
    assert!(names.contains(&"papers/2604.03438/index.html".to_string()));
    assert_eq!(manifest.lines().count(), names.len() - 1);
    // The archive is many gzip members (compressed on every core): GNU tar and gzip read
    // it whole, and `sha256sum -c` agrees with the manifest inside.
    let unpacked = dir.path().join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    let tar = std::process::Command::new("tar")
        .arg("-xzf")
        .arg(&tar1)
        .arg("-C")
        .arg(&unpacked)
        .output()
        .unwrap();
    common::assert_tool_ok(&tar, "tar");
    let check = std::process::Command::new("sha256sum")
        .args(["--quiet", "-c", "MANIFEST.sha256"])
        .current_dir(&unpacked)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    assert_eq!(
        walkdir::WalkDir::new(&unpacked)
            .into_iter()
            .filter(|e| e.as_ref().unwrap().file_type().is_file())
            .count(),
        names.len()
    );

    // The same manifest lies beside the archive.
    let beside: Vec<PathBuf> = std::fs::read_dir(tar1.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".sha256"))
        .collect();
    assert_eq!(beside.len(), 1, "{beside:?}");
    assert_eq!(std::fs::read_to_string(&beside[0]).unwrap(), manifest);

    let ok = paperboy(
        site.path(),
        &["snapshot", "--verify", tar1.to_str().unwrap()],
    );
    assert_ok(&ok);
    assert!(stderr(&ok).contains("all match the manifest"));

    // A changed file is reported by name.
    let tampered = dir.path().join("tampered.sha256");
    let line = manifest
        .lines()
        .find(|l| l.ends_with("  index.html"))
        .unwrap();
    let changed = manifest.replace(line, &format!("{}  index.html", "0".repeat(64)));
    std::fs::write(&tampered, changed).unwrap();
    let bad = paperboy(
        site.path(),
        &[
            "snapshot",
            "--verify",
            tar1.to_str().unwrap(),
            "--manifest",
            tampered.to_str().unwrap(),
        ],
    );
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(stdout(&bad).trim(), "changed: index.html");
}

#[test]
fn a_snapshot_archives_the_site_the_content_gives_now() {
    let site = example_site();
    let dir = tempfile::tempdir().unwrap();
    // Built, then a paper edited: the built site is out of date.
    assert_ok(&paperboy(site.path(), &["build"]));
    edit(
        site.path().join("content/papers/2604/2604.03438.md"),
        "title = \"Android Instrumentation Testing",
        "title = \"Edited After The Build: Android Instrumentation Testing",
    );
    let (tar_gz, _) = snapshot(site.path(), &dir.path().join("s"));
    let unpacked = dir.path().join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    tar::Archive::new(flate2::read::MultiGzDecoder::new(
        std::fs::File::open(&tar_gz).unwrap(),
    ))
    .unpack(&unpacked)
    .unwrap();
    assert!(
        common::read(unpacked.join("papers/2604.03438/index.html"))
            .contains("Edited After The Build")
    );
    // The archive's own files aside, it is byte for byte what a full build makes, and the
    // built site was brought up to date as `paperboy build` would have.
    for own in ["MANIFEST.sha256", "FIGURES.tsv"] {
        std::fs::remove_file(unpacked.join(own)).unwrap();
    }
    let full = dir.path().join("full");
    assert_ok(&paperboy(
        site.path(),
        &["build", "--full", "--output", full.to_str().unwrap()],
    ));
    assert_same_tree(&unpacked, &full, "the archive and a full build");
    assert_same_tree(
        &site.path().join("public"),
        &full,
        "the site after the snapshot and a full build",
    );
}

#[test]
fn a_rewritten_archive_fails_verification() {
    let site = example_site();
    let dir = tempfile::tempdir().unwrap();
    let (tar_gz, _) = snapshot(site.path(), &dir.path().join("s"));
    // Copy the archive, changing one page's bytes but keeping the manifest.
    let mut input = tar::Archive::new(flate2::read::MultiGzDecoder::new(
        std::fs::File::open(&tar_gz).unwrap(),
    ));
    let forged = dir.path().join("forged.tar.gz");
    let mut out = tar::Builder::new(flate2::write::GzEncoder::new(
        std::fs::File::create(&forged).unwrap(),
        flate2::Compression::fast(),
    ));
    for entry in input.entries().unwrap() {
        let mut entry = entry.unwrap();
        let name = entry.path().unwrap().to_string_lossy().into_owned();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        if name == "404.html" {
            bytes.extend_from_slice(b"<!-- changed -->");
        }
        let mut header = tar::Header::new_ustar();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        out.append_data(&mut header, &name, bytes.as_slice())
            .unwrap();
    }
    out.into_inner().unwrap().finish().unwrap();
    let bad = paperboy(
        site.path(),
        &["snapshot", "--verify", forged.to_str().unwrap()],
    );
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(stdout(&bad).trim(), "changed: 404.html");
}

#[test]
#[ignore = "needs warcio; scripts/test runs it"]
fn warcio_reads_and_validates_the_warc() {
    let site = example_site();
    let dir = tempfile::tempdir().unwrap();
    let (tar_gz, warc) = snapshot(site.path(), &dir.path().join("s"));
    let files = {
        let mut a = tar::Archive::new(flate2::read::MultiGzDecoder::new(
            std::fs::File::open(&tar_gz).unwrap(),
        ));
        // Less the manifest and the figures' credits, which the WARC has as metadata.
        a.entries().unwrap().count() - 2
    };
    let script = r#"
import sys
from warcio.archiveiterator import ArchiveIterator
kinds = {}
uris = []
with open(sys.argv[1], 'rb') as f:
    it = ArchiveIterator(f, check_digests='raise')
    for rec in it:
        kinds[rec.rec_type] = kinds.get(rec.rec_type, 0) + 1
        if rec.rec_type == 'response':
            uris.append(rec.rec_headers.get_header('WARC-Target-URI'))
            assert rec.rec_headers.get_header('WARC-Payload-Digest').startswith('sha1:')
            assert rec.http_headers.get_statuscode() == '200'
            rec.content_stream().read()
print(kinds.get('warcinfo', 0), kinds.get('response', 0), kinds.get('metadata', 0))
print('\n'.join(uris))
"#;
    let out = std::process::Command::new("python3")
        .args(["-c", script, warc.to_str().unwrap()])
        .output()
        .expect("python3 runs (this test needs warcio: pip install warcio)");
    common::assert_tool_ok(&out, "warcio");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), format!("1 {files} 1"));
    let uris: Vec<&str> = lines.collect();
    assert!(
        uris.iter()
            .all(|u| u.starts_with("https://example.github.io/digest/"))
    );
    assert!(uris.contains(&"https://example.github.io/digest/papers/2604.03438/"));
    assert!(uris.contains(&"https://example.github.io/digest/"));
    // warcio's own checker agrees.
    let check = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys; from warcio.cli import main; sys.exit(main(['check', sys.argv[1]]))",
            warc.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "warcio check: {}",
        String::from_utf8_lossy(&check.stdout)
    );
}

#[test]
fn check_passes_the_example_and_lists_broken_links() {
    let site = example_site();
    let ok = paperboy(site.path(), &["check"]);
    assert_ok(&ok);
    assert!(stderr(&ok).contains(": 0 broken"), "{}", stderr(&ok));
    assert!(!site.path().join("public").exists(), "check writes nothing");

    std::fs::create_dir_all(site.path().join("templates")).unwrap();
    std::fs::write(
        site.path().join("templates/404.html"),
        "{% extends \"base.html\" %}{% block content %}<a href=\"{{ site.base_path }}nowhere/\">x</a><a href=\"#missing\">y</a>{% endblock content %}",
    )
    .unwrap();
    let bad = paperboy(site.path(), &["check"]);
    assert_eq!(bad.status.code(), Some(1));
    let out = stdout(&bad);
    assert!(
        out.contains("broken link: 404.html: /digest/nowhere/ (no such page)"),
        "{out}"
    );
    assert!(
        out.contains("broken link: 404.html: #missing (no id=\"missing\" in 404.html)"),
        "{out}"
    );

    let page = site.path().join("content/papers/2604/2604.03438.md");
    edit(&page, "title = ", "title = = ");
    let broken = paperboy(site.path(), &["check"]);
    assert_eq!(broken.status.code(), Some(1));
    assert!(
        stderr(&broken).contains("2604.03438.md:4:"),
        "{}",
        stderr(&broken)
    );
}
