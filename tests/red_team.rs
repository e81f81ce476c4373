//! Regressions for the defects a red-team run found (issue #25), one test each, through the
//! real binary. None needs the shared fixtures: each builds the hostile input it needs.

mod common;

use common::{BASIC_CONFIG, assert_ok, paperboy, read, stderr, temp_site};
use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, bytes).unwrap();
    path
}

fn fetch_from(root: &Path, file: &Path) -> std::process::Output {
    paperboy(
        root,
        &[
            "fetch",
            "--from",
            file.to_str().unwrap(),
            "--now",
            "2026-01-07T12:00:00Z",
        ],
    )
}

fn paper_files(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(root.join("content/papers"))
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| e.into_path())
        .collect();
    files.sort();
    files
}

fn rss(items: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Lab news</title><link>https://lab.example.org/</link>{items}</channel></rss>"
    )
}

#[test]
fn defect_1_items_without_link_or_id_are_told_apart_by_what_they_say() {
    let scratch = tempfile::tempdir().unwrap();
    let site = temp_site(BASIC_CONFIG);
    let feed = write(
        scratch.path(),
        "a.xml",
        rss(
            "<item><title>First result</title><description>One.</description><pubDate>Mon, 05 Jan 2026 10:00:00 GMT</pubDate></item>\
             <item><title>Second result</title><description>Two.</description><pubDate>Mon, 05 Jan 2026 11:00:00 GMT</pubDate></item>\
             <item><category>nothing else</category></item>",
        ),
    );
    let out = fetch_from(site.path(), &feed);
    assert_ok(&out);
    let err = stderr(&out);
    assert!(err.contains("3 entries, 2 new papers"), "{err}");
    assert!(
        err.contains("a.xml: item 3 has no title, link, id or text"),
        "the item left out is named by feed and position: {err}"
    );
    assert_eq!(paper_files(site.path()).len(), 2);

    // Another feed's item without id or link is another paper, not a duplicate.
    let other = write(
        scratch.path(),
        "b.xml",
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Other lab</title>\
         <item><title>Third result</title><description>Three.</description></item></channel></rss>",
    );
    let out = fetch_from(site.path(), &other);
    assert!(stderr(&out).contains("1 new paper"), "{}", stderr(&out));
    assert_eq!(paper_files(site.path()).len(), 3);

    // The same items read again are the same papers: the ids are stable.
    let again = fetch_from(site.path(), &feed);
    assert!(
        stderr(&again).contains("0 new papers") && stderr(&again).contains("2 duplicates"),
        "{}",
        stderr(&again)
    );
    assert_eq!(paper_files(site.path()).len(), 3);
}

#[cfg(unix)]
#[test]
fn defect_2_links_that_leave_the_site_are_never_read() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "shadow", "root:SECRET:19000");
    write(outside.path(), "ssl/private/key.pem", "SECRET KEY");
    for (link, at) in [
        ("static", ""),
        ("static/deeper", "static-inside"),
        ("templates", ""),
        ("content", ""),
        ("content/papers/2601", "content-inside"),
    ] {
        let site = temp_site(BASIC_CONFIG);
        if !at.is_empty() {
            // A real folder holds the link, one level down.
            std::fs::create_dir_all(site.path().join(Path::new(link).parent().unwrap())).unwrap();
        }
        symlink(outside.path(), site.path().join(link)).unwrap();
        let out = paperboy(site.path(), &["build"]);
        assert_eq!(out.status.code(), Some(1), "{link}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("outside the site's folder") && err.contains(link),
            "{link}: the error names the link and why: {err}"
        );
        let public = site.path().join("public");
        assert!(
            !public.exists()
                || !common::tree(&public)
                    .iter()
                    .any(|(_, b)| b.windows(6).any(|w| w == b"SECRET")),
            "{link}: nothing from outside was published"
        );
    }

    // The theme folder itself.
    let site = temp_site(BASIC_CONFIG);
    std::fs::remove_dir_all(site.path().join("themes/default")).unwrap();
    symlink(outside.path(), site.path().join("themes/default")).unwrap();
    let out = paperboy(site.path(), &["build"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("outside the site's folder"),
        "{}",
        stderr(&out)
    );

    // A link that stays inside the site is followed: its files are published.
    let site = temp_site(BASIC_CONFIG);
    write(
        site.path(),
        "assets/logo.svg",
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    );
    std::fs::create_dir_all(site.path().join("static")).unwrap();
    symlink(site.path().join("assets"), site.path().join("static/img")).unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(site.path().join("public/img/logo.svg").is_file());
}

#[test]
fn defect_3_one_hostile_item_cannot_break_every_build() {
    let scratch = tempfile::tempdir().unwrap();
    let site = temp_site(BASIC_CONFIG);
    let long_category = "Q".repeat(300);
    let authors: String = (0..7_000)
        .map(|i| format!("<dc:creator>Author Number {i}</dc:creator>"))
        .collect();
    let feed = write(
        scratch.path(),
        "hostile.xml",
        format!(
            "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel><title>Hostile</title>\
             <item><title>{}</title><link>https://x.example.org/1</link><category>{long_category}</category><category>physics</category>{authors}</item>\
             </channel></rss>",
            "T".repeat(3_000)
        ),
    );
    let out = fetch_from(site.path(), &feed);
    assert_ok(&out);
    let err = stderr(&out);
    for said in [
        "title cut to 1000 characters",
        "kept the first 6000 of 7000 authors",
        "left out 1 category name(s) longer than 100 characters",
    ] {
        assert!(
            err.contains("warning: ") && err.contains(said),
            "{said}: {err}"
        );
    }
    let out = paperboy(site.path(), &["build"]);
    assert_ok(&out);
    assert_ok(&paperboy(site.path(), &["check"]));

    // A category written by hand, as long as the feed's was, gets a bounded folder name.
    let paper = &paper_files(site.path())[0];
    common::edit(
        paper,
        "categories = [\"physics\"]",
        &format!("categories = [\"physics\", \"{long_category}\"]"),
    );
    assert_ok(&paperboy(site.path(), &["build"]));
    let longest = std::fs::read_dir(site.path().join("public/categories"))
        .unwrap()
        .map(|e| e.unwrap().file_name().len())
        .max()
        .unwrap();
    assert!(
        longest <= 80,
        "category folder names are bounded ({longest})"
    );

    // An error on a page a paper's text names says which content file to look at.
    write(
        site.path(),
        "templates/category.html",
        "{% if category.name == \"physics\" %}{{ throw(message=\"no physics here\") }}{% endif %}",
    );
    let out = paperboy(site.path(), &["build"]);
    assert_eq!(out.status.code(), Some(1));
    let name = paper
        .strip_prefix(site.path())
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(stderr(&out).contains(&name), "{name}: {}", stderr(&out));
}

#[test]
fn defect_4_a_saved_feed_lends_the_site_no_local_path() {
    let scratch = tempfile::tempdir().unwrap();
    let site = temp_site(BASIC_CONFIG);
    let feed = write(
        scratch.path(),
        "untitled-feed.xml",
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel>\
         <item><title>An untitled channel's item</title><link>https://journal.example.org/a/1</link></item>\
         </channel></rss>",
    );
    assert_ok(&fetch_from(site.path(), &feed));
    assert_ok(&paperboy(site.path(), &["build"]));
    let scratch_path = scratch.path().to_string_lossy().into_owned();
    let slug_of_path = scratch_path.trim_start_matches('/').replace('/', "-");
    for (rel, bytes) in common::tree(&site.path().join("public"))
        .into_iter()
        .chain(common::tree(&site.path().join("content")))
    {
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains(&scratch_path)
                && !text.contains(&slug_of_path)
                && !text.contains("untitled-feed"),
            "{rel} shows where the feed file was"
        );
    }
    // The item is filed under the feed's own host.
    assert!(
        site.path()
            .join("public/categories/journal.example.org/index.html")
            .is_file()
    );
}

#[test]
fn defect_5_atom_03_and_wide_or_legacy_encodings_are_read() {
    let scratch = tempfile::tempdir().unwrap();
    let site = temp_site(BASIC_CONFIG);
    let atom03 = write(
        scratch.path(),
        "atom03.xml",
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\
         <feed version=\"0.3\" xmlns=\"http://purl.org/atom/ns#\"><title>Old blog</title>\
         <link rel=\"alternate\" type=\"text/html\" href=\"https://old.example.org/\"/>\
         <entry><title>Entry one</title><link rel=\"alternate\" type=\"text/html\" href=\"https://old.example.org/1\"/><id>tag:old.example.org,2005:1</id><issued>2026-01-05T10:00:00Z</issued><modified>2026-01-05T10:00:00Z</modified><summary>First.</summary></entry>\
         <entry><title>Entry two</title><link rel=\"alternate\" type=\"text/html\" href=\"https://old.example.org/2\"/><id>tag:old.example.org,2005:2</id><issued>2026-01-06T10:00:00Z</issued><summary>Second.</summary></entry>\
         </feed>",
    );
    let out = fetch_from(site.path(), &atom03);
    assert!(
        stderr(&out).contains("2 entries, 2 new papers"),
        "{}",
        stderr(&out)
    );

    // UTF-16LE without a byte order mark, as feedparser's test suite has it.
    let text = rss("<item><title>Caf\u{e9} \u{3b1}-helix</title><link>https://lab.example.org/u16</link></item>")
        .replace("<?xml version=\"1.0\"?>", "<?xml version=\"1.0\" encoding=\"utf-16\"?>");
    let wide: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    let utf16 = write(scratch.path(), "utf16.xml", wide);
    assert_ok(&fetch_from(site.path(), &utf16));

    // Shift_JIS with no declaration.
    let title = "\u{65e5}\u{672c}\u{8a9e}\u{306e}\u{8ad6}\u{6587}\u{3067}\u{3059}\u{3002}\u{5206}\u{6563}\u{30b7}\u{30b9}\u{30c6}\u{30e0}";
    let text = rss(&format!(
        "<item><title>{title}</title><link>https://lab.example.org/sjis</link></item>"
    ));
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(&text);
    let sjis = write(scratch.path(), "sjis.xml", &sjis[..]);
    assert_ok(&fetch_from(site.path(), &sjis));

    let titles: Vec<String> = paper_files(site.path()).iter().map(read).collect();
    assert!(
        titles
            .iter()
            .any(|t| t.contains("title = \"Caf\u{e9} \u{3b1}-helix\"")),
        "{titles:?}"
    );
    assert!(
        titles
            .iter()
            .any(|t| t.contains(&format!("title = \"{title}\""))),
        "{titles:?}"
    );
    assert_eq!(titles.len(), 4);
}

#[test]
fn defect_6_a_saved_feed_is_held_to_max_body_bytes() {
    let scratch = tempfile::tempdir().unwrap();
    let site = temp_site(&format!("{BASIC_CONFIG}\n[fetch]\nmax_body_bytes = 4096\n"));
    let items: String = (0..100)
        .map(|i| {
            format!("<item><title>Paper {i}</title><link>https://lab.example.org/{i}</link></item>")
        })
        .collect();
    let big = write(scratch.path(), "big.xml", rss(&items));
    let out = fetch_from(site.path(), &big);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("big.xml") && err.contains("larger than max_body_bytes (4096)"),
        "{err}"
    );
    assert!(paper_files(site.path()).is_empty());
}

#[test]
fn defect_7_temporaries_of_killed_runs_are_cleared_by_the_next_run() {
    let scratch = tempfile::tempdir().unwrap();
    let feed = write(
        scratch.path(),
        "a.xml",
        rss(
            "<item><title>A paper</title><link>https://lab.example.org/1</link><pubDate>Mon, 05 Jan 2026 10:00:00 GMT</pubDate></item>",
        ),
    );
    for command in ["fetch", "build", "check"] {
        let site = temp_site(BASIC_CONFIG);
        assert_ok(&fetch_from(site.path(), &feed));
        let shard = paper_files(site.path())[0].parent().unwrap().to_path_buf();
        let left = [
            write(&shard, ".paperboy-Ab12Cd.tmp", "half a pap"),
            write(
                &site.path().join("content/digests"),
                ".paperboy-Ef34Gh.tmp",
                "+++\nweek",
            ),
        ];
        let out = if command == "fetch" {
            fetch_from(site.path(), &feed)
        } else {
            paperboy(site.path(), &[command])
        };
        assert_ok(&out);
        for path in &left {
            assert!(!path.exists(), "{command} left {}", path.display());
        }
        assert!(
            stderr(&out).contains("removed 2 temporary files"),
            "{command}: {}",
            stderr(&out)
        );
    }
}
