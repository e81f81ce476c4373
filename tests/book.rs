//! The book (docs/) builds with mdBook without a warning, and every link and anchor inside
//! it leads somewhere, checked by the same code as `paperboy check`.

use paperboy::render::views::Urls;
use std::path::PathBuf;
use std::process::Command;

mod common;

/// Where the book is published: the example site's Pages address, then /book/
/// (docs/book.toml's site-url).
const BOOK_URL: &str = "https://paperboy-digest.github.io/paperboy/book";

/// The mdbook scripts/test installed (its path in PAPERBOY_MDBOOK), else one on PATH.
fn mdbook() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("PAPERBOY_MDBOOK") {
        return Some(PathBuf::from(path));
    }
    let found = Command::new("mdbook").arg("--version").output();
    found
        .is_ok_and(|o| o.status.success())
        .then(|| "mdbook".into())
}

#[test]
#[ignore = "needs mdbook; scripts/test runs it"]
fn the_book_builds_without_warnings_or_broken_links() {
    let mdbook = mdbook();
    common::require_tools(if mdbook.is_some() {
        &[]
    } else {
        &["mdbook (cargo install mdbook --locked)"]
    });
    let out = tempfile::tempdir().unwrap();
    let run = Command::new(mdbook.unwrap())
        .arg("build")
        .arg(common::repo().join("docs"))
        .arg("--dest-dir")
        .arg(out.path())
        .env("NO_COLOR", "1")
        .output()
        .expect("mdbook runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(run.status.success(), "mdbook build failed:\n{said}");
    let complaints: Vec<&str> = said
        .lines()
        .filter(|l| !l.trim_start().starts_with("INFO"))
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert!(
        complaints.is_empty(),
        "mdbook said more than INFO:\n{}",
        complaints.join("\n")
    );

    let report = paperboy::check::check_links(out.path(), &Urls::new(BOOK_URL)).unwrap();
    assert!(
        report.broken.is_empty(),
        "{report}:\n{}",
        report.broken.join("\n")
    );
    // Every chapter of SUMMARY.md is a page, and the links between them were checked.
    let summary = common::read(common::repo().join("docs/src/SUMMARY.md"));
    let chapters: Vec<&str> = summary
        .lines()
        .filter_map(|l| l.split_once("](")?.1.split_once(".md)").map(|(c, _)| c))
        .collect();
    assert!(chapters.len() >= 20, "{chapters:?}");
    for chapter in &chapters {
        assert!(
            out.path().join(format!("{chapter}.html")).is_file(),
            "{chapter}.md made no page"
        );
    }
    assert!(report.links > chapters.len() * 20, "{report}");
    // The included files are in: the template reference and the generated CLI reference.
    let templates = common::read(out.path().join("templates.html"));
    assert!(templates.contains("receive"), "TEMPLATES.md not included");
    let cli = common::read(out.path().join("command-line.html"));
    assert!(
        cli.contains("paperboy snapshot"),
        "generated/cli.md not included"
    );
}
