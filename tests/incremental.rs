//! Incremental builds: the second build links the pages whose inputs did not change and
//! renders the rest, and what it leaves in `public/` is byte for byte a full build.

mod common;

use common::{
    age_content, assert_ok, assert_same_tree, edit, example_site, hold_back_weeks, hostile_site,
    ids_in, link_dir, paper_files, paperboy, read, stderr, tree,
};
use std::path::{Path, PathBuf};

/// "…; 1,234 unchanged files kept from the last build" -> 1234 (0 when the line has none).
fn kept(o: &std::process::Output) -> usize {
    let err = stderr(o);
    err.lines()
        .find_map(|l| l.split("; ").nth(1)?.split(' ').next().map(str::to_string))
        .map(|n| n.replace(',', "").parse().unwrap())
        .unwrap_or(0)
}

/// "built 1,952 pages (…" -> 1952.
fn pages_built(o: &std::process::Output) -> usize {
    let err = stderr(o);
    let line = err.lines().find(|l| l.starts_with("built ")).unwrap();
    line.split(' ')
        .nth(1)
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap()
}

#[test]
fn adding_weeks_renders_only_what_changed_and_equals_a_full_build() {
    let site = example_site();
    let aside = tempfile::tempdir().unwrap();
    let back = hold_back_weeks(site.path(), aside.path(), 3);
    assert!(back.len() > 3, "the newest weeks list papers of their own");

    let first = paperboy(site.path(), &["build"]);
    assert_ok(&first);
    assert_eq!(kept(&first), 0, "no manifest yet: a full build");
    let public = site.path().join("public");
    let added_paper = "2604.03438";
    assert!(
        back.iter().any(|(_, to)| to.ends_with("2604.03438.md")),
        "the newest week's paper is held back"
    );
    assert!(!public.join("papers").join(added_paper).exists());

    for (from, to) in &back {
        std::fs::rename(from, to).unwrap();
    }
    // An editor's change to an old paper must reach every page that shows it.
    let edited = site.path().join("content/papers/2508/2508.13167.md");
    edit(
        &edited,
        "summary = \"Distilling",
        "summary = \"An edited one-line summary. Distilling",
    );

    let second = paperboy(site.path(), &["build"]);
    assert_ok(&second);
    let kept_pages = kept(&second);
    assert!(
        kept_pages > 500,
        "most pages are unchanged and kept: {}",
        stderr(&second)
    );
    assert!(
        public
            .join("papers")
            .join(added_paper)
            .join("index.html")
            .exists()
    );
    assert!(
        read(public.join("papers/2508.13167/index.html")).contains("An edited one-line summary.")
    );

    let full = tempfile::tempdir().unwrap();
    let full_out = full.path().join("public");
    assert_ok(&paperboy(
        site.path(),
        &["build", "--full", "--output", full_out.to_str().unwrap()],
    ));
    let complete = assert_same_tree(&full_out, &public, "the full and the incremental build");
    assert!(complete.len() > 2000);

    // Nothing changed: every page is kept, and the site is still the same.
    let third = paperboy(site.path(), &["build"]);
    assert_ok(&third);
    assert!(kept(&third) > kept_pages);
    assert!(
        tree(&public) == complete,
        "a no-change build changed the site"
    );
}

/// The pages rendered from templates (not the folders' redirects to the archive, which
/// no template makes) that were last written before `t`.
fn pages_written_before(public: &Path, t: std::time::SystemTime) -> Vec<PathBuf> {
    sorted_files(public)
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "html"))
        .filter(|f| !read(f).contains("<meta http-equiv=\"refresh\""))
        .filter(|f| std::fs::metadata(f).unwrap().modified().unwrap() < t)
        .collect()
}

#[test]
fn a_template_change_renders_every_page_again() {
    let site = example_site();
    let public = site.path().join("public");
    assert_ok(&paperboy(site.path(), &["build"]));
    let second = paperboy(site.path(), &["build"]);
    // Nothing changed: every file is kept, feeds, sitemap and static files too.
    assert_eq!(
        kept(&second),
        sorted_files(&public).len(),
        "{}",
        stderr(&second)
    );

    let templates = site.path().join("templates");
    std::fs::create_dir_all(&templates).unwrap();
    let base = read(site.path().join("themes/default/templates/base.html"))
        .replace("Made with paperboy.", "Made with paperboy, edited.");
    std::fs::write(templates.join("base.html"), base).unwrap();
    let edited = std::time::SystemTime::now();
    let third = paperboy(site.path(), &["build"]);
    assert_ok(&third);
    assert_eq!(pages_written_before(&public, edited), Vec::<PathBuf>::new());
    assert!(read(site.path().join("public/papers/2604.03438/index.html")).contains("edited."));

    // The config too: a new title shows on every page.
    let config = read(site.path().join("paperboy.toml"));
    let retitled = config.replacen("title = \"", "title = \"New: ", 1);
    assert_ne!(config, retitled);
    std::fs::write(site.path().join("paperboy.toml"), retitled).unwrap();
    let edited = std::time::SystemTime::now();
    let fourth = paperboy(site.path(), &["build"]);
    assert_ok(&fourth);
    assert_eq!(pages_written_before(&public, edited), Vec::<PathBuf>::new());
    assert_equals_full_build(site.path());
}

#[test]
fn a_static_file_over_a_page_stays_over_it_build_after_build() {
    let site = example_site();
    let public = site.path().join("public");
    let page = public.join("404.html");
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(read(&page).contains("<html"));
    // The site's own 404 page, kept by each build after (the third writes into the
    // standby the first left, which still holds the rendered page).
    std::fs::create_dir_all(site.path().join("static")).unwrap();
    std::fs::write(site.path().join("static/404.html"), "Lost.\n").unwrap();
    for build in 2..=4 {
        assert_ok(&paperboy(site.path(), &["build"]));
        assert_eq!(read(&page), "Lost.\n", "build {build}");
    }
    assert_equals_full_build(site.path());
    std::fs::write(site.path().join("static/404.html"), "Lost again.\n").unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    assert_eq!(read(&page), "Lost again.\n");
    std::fs::remove_file(site.path().join("static/404.html")).unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(read(&page).contains("<html"));
    assert_equals_full_build(site.path());
}

#[test]
fn a_build_that_dies_before_its_manifest_is_followed_by_a_full_one() {
    let site = example_site();
    assert_ok(&paperboy(site.path(), &["build"]));
    let manifest = site.path().join(".public.manifest");
    assert!(manifest.exists());
    // What a kill between the swap and the new manifest leaves: no manifest at all.
    std::fs::remove_file(&manifest).unwrap();
    let again = paperboy(site.path(), &["build"]);
    assert_ok(&again);
    assert_eq!(kept(&again), 0);
    // A manifest that does not parse is no manifest either.
    std::fs::write(&manifest, "{ not a manifest").unwrap();
    let again = paperboy(site.path(), &["build"]);
    assert_ok(&again);
    assert_eq!(kept(&again), 0);
    // It wrote a true one.
    let again = paperboy(site.path(), &["build"]);
    assert_ok(&again);
    assert!(kept(&again) > 0);
}

#[test]
fn a_site_moved_with_its_manifest_still_builds_incrementally() {
    let site = example_site();
    assert_ok(&paperboy(site.path(), &["build"]));
    let files = sorted_files(&site.path().join("public")).len();
    // A maintainer renames the site's folder (or a cache is restored at another path).
    let place = tempfile::tempdir().unwrap();
    let moved = place.path().join("renamed-site");
    std::fs::rename(site.path(), &moved).unwrap();
    edit(
        moved.join("content/papers/2508/2508.13167.md"),
        "summary = \"Distilling",
        "summary = \"Moved. Distilling",
    );
    let again = paperboy(&moved, &["build"]);
    assert_ok(&again);
    assert!(
        kept(&again) * 10 > files * 9,
        "one paper edited after the move: most of the {files} files are kept, not made again\n{}",
        stderr(&again)
    );
    assert!(read(moved.join("public/papers/2508.13167/index.html")).contains("Moved. Distilling"));
    assert_equals_full_build(&moved);
}

fn inode(path: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).unwrap().ino()
}

fn assert_equals_full_build(site: &Path) {
    assert_equals_full_build_after(site, "");
}

/// Builds `site` in full elsewhere and asserts its `public/` is that, byte for byte, naming
/// the first file that differs and what came before (`after`).
fn assert_equals_full_build_after(site: &Path, after: &str) {
    let full = tempfile::tempdir().unwrap();
    let out = full.path().join("public");
    assert_ok(&paperboy(
        site,
        &["build", "--full", "--output", out.to_str().unwrap()],
    ));
    assert_same_tree(
        &out,
        &site.join("public"),
        &format!("a full build and the incremental one{after}"),
    );
}

#[test]
fn an_editors_note_keeps_the_search_index_and_an_edited_headline_or_abstract_remakes_it() {
    let site = example_site();
    let first = paperboy(site.path(), &["build"]);
    assert_ok(&first);
    let public = site.path().join("public");
    let (meta, shard) = (
        public.join("search/meta.json"),
        public.join("search/docs/0.json"),
    );
    let before = (inode(&meta), inode(&shard));

    // The editor's markdown is on the page and not in the index.
    let paper = site.path().join("content/papers/2508/2508.13167.md");
    let mut text = read(&paper);
    text.push_str("An editor's note on distillation.\n");
    std::fs::write(&paper, &text).unwrap();
    let second = paperboy(site.path(), &["build"]);
    assert_ok(&second);
    // The kept index is the index's files, not the search page beside them.
    assert_eq!(pages_built(&second), pages_built(&first), "pages counted");
    assert_eq!(
        (inode(&meta), inode(&shard)),
        before,
        "no searchable text changed: the index files are the previous build's"
    );
    assert!(read(public.join("papers/2508.13167/index.html")).contains("An editor's note"));
    assert_equals_full_build(site.path());

    // The summary the card shows is searched: a word put in it is found.
    edit(
        &paper,
        "summary = \"Distilling",
        "summary = \"Qwertyuiopz. Distilling",
    );
    assert_ok(&paperboy(site.path(), &["build"]));
    assert_ne!(
        inode(&meta),
        before.0,
        "a summary changed: the index is made again"
    );
    assert!(read(public.join("search/lex/qw.json")).contains("\"qwertyuiopz\""));
    assert_equals_full_build(site.path());

    let text = read(&paper);
    let at = text.find("abstract = \"").unwrap() + "abstract = \"".len();
    let edited = format!("{}Zyxwvutsrqp {}", &text[..at], &text[at..]);
    std::fs::write(&paper, edited).unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    let shard = public.join("search/lex/zy.json");
    assert!(read(&shard).contains("\"zyxwvutsrqp\""));
    assert_equals_full_build(site.path());
}

/// A new paper that names an author in full moves and renames the author's page: the
/// unchanged papers that give initials link to the new address, and are indexed again
/// under the page's name ("Adrian" finds them) rather than taken from the kept search
/// state.
#[test]
fn a_new_paper_that_renames_an_author_page_relinks_and_reindexes_the_papers_on_it() {
    let site = example_site();
    let papers = paper_files(&site.path().join("content"));
    // First every paper gives "A. Del Maestro", and so does the page.
    for id in [
        "cond-mat/0603029",
        "0807.2873",
        "1005.5383",
        "cond-mat/0702661",
        "1201.4869",
        "cond-mat/0412498",
    ] {
        edit(&papers[id], "\"Adrian Del Maestro\"", "\"A. Del Maestro\"");
    }
    assert_ok(&paperboy(site.path(), &["build"]));
    let public = site.path().join("public");
    assert!(public.join("authors/a-del-maestro/index.html").is_file());
    // A new paper spells the name out: the page is "Adrian Del Maestro" now.
    let text = read(&papers["1201.4869"])
        .replace("1201.4869", "1201.9999")
        .replace("\"A. Del Maestro\"", "\"Adrian Del Maestro\"");
    std::fs::write(papers["1201.4869"].with_file_name("1201.9999.md"), text).unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(
        public
            .join("authors/adrian-del-maestro/index.html")
            .is_file()
    );
    assert_equals_full_build(site.path());
}

/// An incremental build of `site` into a new folder: nothing to reuse but the caches.
fn build_elsewhere(site: &Path) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("public");
    assert_ok(&paperboy(
        site,
        &["build", "--output", out.to_str().unwrap()],
    ));
    (dir, out)
}

/// The site before the current one, kept beside `public/` for the next build to update.
fn standby(site: &Path) -> PathBuf {
    site.join(".public.standby")
}

#[test]
fn the_standby_two_builds_behind_is_brought_up_to_date() {
    let site = example_site();
    let public = site.path().join("public");
    let paper = site.path().join("content/papers/2508/2508.13167.md");
    let paper_page = "papers/2508.13167/index.html";
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(
        !standby(site.path()).exists(),
        "a first build replaces nothing"
    );
    let first_page = inode(&public.join(paper_page));

    // Second build: the newest week leaves and a paper is edited. The first site becomes
    // the standby.
    let aside = tempfile::tempdir().unwrap();
    let back = hold_back_weeks(site.path(), aside.path(), 1);
    let week = back
        .iter()
        .find_map(|(_, to)| {
            let name = to.file_stem()?.to_str()?;
            to.parent()?.ends_with("digests").then(|| name.to_string())
        })
        .unwrap();
    let week_page = format!("digests/{week}/index.html");
    edit(
        &paper,
        "summary = \"Distilling",
        "summary = \"Edited. Distilling",
    );
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(!public.join(&week_page).exists());
    assert!(standby(site.path()).join(&week_page).exists());
    assert!(read(public.join(paper_page)).contains("Edited. Distilling"));

    // Third build, into the standby, which still shows the week that left and the paper
    // before its edit. The edit is undone: the standby's own page is right again and kept.
    edit(
        &paper,
        "summary = \"Edited. Distilling",
        "summary = \"Distilling",
    );
    let third = paperboy(site.path(), &["build"]);
    assert_ok(&third);
    assert!(kept(&third) > 1000, "{}", stderr(&third));
    assert_eq!(
        inode(&public.join(paper_page)),
        first_page,
        "the page the standby held from the first build is kept, not made again"
    );
    assert!(!public.join(&week_page).exists(), "what left is gone");
    assert_equals_full_build(site.path());
    assert!(
        read(standby(site.path()).join(paper_page)).contains("Edited. Distilling"),
        "the second site is the next standby"
    );
}

#[test]
fn a_standby_without_its_manifest_is_not_trusted() {
    let site = example_site();
    let public = site.path().join("public");
    let paper = site.path().join("content/papers/2508/2508.13167.md");
    assert_ok(&paperboy(site.path(), &["build"]));
    assert_ok(&paperboy(site.path(), &["build"]));
    let manifest = site.path().join(".public.standby.manifest");
    assert!(manifest.exists() && standby(site.path()).is_dir());

    // What a build killed while it updated the standby leaves: the folder, part changed,
    // and no manifest.
    std::fs::remove_file(&manifest).unwrap();
    std::fs::write(
        standby(site.path()).join("papers/2508.13167/index.html"),
        "half",
    )
    .unwrap();
    std::fs::write(standby(site.path()).join("stray.html"), "stray").unwrap();
    edit(
        &paper,
        "summary = \"Distilling",
        "summary = \"Edited. Distilling",
    );
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(read(public.join("papers/2508.13167/index.html")).contains("Edited. Distilling"));
    assert_equals_full_build(site.path());

    // A build that fails halfway leaves the site as it was, and the standby untrusted.
    let templates = site.path().join("templates");
    std::fs::create_dir_all(&templates).unwrap();
    std::fs::write(templates.join("paper.html"), "{{ no_such_variable }}").unwrap();
    edit(
        &paper,
        "summary = \"Edited. Distilling",
        "summary = \"Distilling",
    );
    let failed = paperboy(site.path(), &["build"]);
    assert!(!failed.status.success());
    assert!(!manifest.exists());
    assert!(read(public.join("papers/2508.13167/index.html")).contains("Edited. Distilling"));
    std::fs::remove_file(templates.join("paper.html")).unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    assert_equals_full_build(site.path());

    // A full build keeps nothing beside the site but its manifest (and removes the JSON
    // manifests earlier versions wrote).
    std::fs::write(site.path().join(".public.manifest.json"), "{}").unwrap();
    assert_ok(&paperboy(site.path(), &["build", "--full"]));
    let beside: Vec<String> = std::fs::read_dir(site.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".public"))
        .collect();
    assert_eq!(beside, [".public.manifest"]);
}

#[test]
fn unchanged_paper_files_are_not_parsed_again_and_changed_ones_are() {
    let site = example_site();
    age_content(site.path());
    assert_ok(&paperboy(site.path(), &["build"]));
    let public = site.path().join("public");
    let page = "papers/2508.13167/index.html";
    let title = "Distilling";
    assert!(read(public.join(page)).contains(title));

    // The parse cache is what the next build reads for an unchanged file: a title changed
    // in the cache alone shows on the page of a new build (the site's own page is kept,
    // its file being unchanged).
    let cached = site.path().join(".cache/parsed.bin");
    let bytes = std::fs::read(&cached).unwrap();
    edit_kept_record(&cached, "2508.13167", title, "Cachetitle", Seal::Again);
    let (_elsewhere, other_out) = build_elsewhere(site.path());
    assert!(read(other_out.join(page)).contains("Cachetitle"));
    // So is its abstract, which the build reads from the cache file only where a page
    // shows it.
    std::fs::write(&cached, &bytes).unwrap();
    let words = "vibe coding";
    assert!(read(public.join(page)).contains(words));
    edit_kept_record(&cached, "2508.13167", words, "vibe CODING", Seal::Again);
    let (_elsewhere, other_out) = build_elsewhere(site.path());
    assert!(read(other_out.join(page)).contains("vibe CODING"));
    // A record that is not the one indexed (a damaged cache) is missing: the paper's file
    // is parsed again, and the build goes on.
    std::fs::write(&cached, &bytes).unwrap();
    edit_kept_record(&cached, "2508.13167", words, "vibe CODING", Seal::AsItWas);
    let (_elsewhere, other_out) = build_elsewhere(site.path());
    assert!(read(other_out.join(page)).contains(words));
    std::fs::write(&cached, &bytes).unwrap();

    // An edit of the same length is seen (its time and inode changed), as are a paper
    // file removed and one added; the site equals a full build.
    let paper = site.path().join("content/papers/2508/2508.13167.md");
    edit(&paper, "summary = \"Distilling", "summary = \"Distillinf");
    let moved = site.path().join("content/papers/2508/moved.md");
    let other = std::fs::read_dir(paper.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| *p != paper)
        .unwrap();
    std::fs::rename(&other, &moved).unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(read(public.join(page)).contains("Distillinf"));
    assert_equals_full_build(site.path());

    // A cache file that does not parse is no cache.
    std::fs::write(&cached, "{ not a cache").unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    assert_equals_full_build(site.path());
}

#[test]
fn a_paper_read_from_the_parse_cache_builds_the_same_pages_as_one_parsed() {
    let site = hostile_site();
    let paper = site.path().join("content/papers/2601/2601.00001.md");
    // Every kind of value a paper file may hold: the optional date (with a fraction of a
    // second), free-form extra values and an editor's markdown.
    edit(
        &paper,
        "source = \"arxiv\"",
        "source = \"arxiv\"\nannounced = 2026-01-06T12:00:00.5Z",
    );
    let text = read(&paper);
    let end = text.rfind("+++\n").unwrap();
    let text = format!(
        "{}[extra]\nscore = 2.5\nseen = [1, \"two\", {{ at = 2026-01-07 }}]\n+++\nAn *editor's* note: \u{e9}, <b>tags</b>.\n",
        &text[..end]
    );
    std::fs::write(&paper, text).unwrap();
    age_content(site.path());
    assert_ok(&paperboy(site.path(), &["build"]));
    let cached = site.path().join(".cache/parsed.bin");
    assert!(
        std::fs::read(&cached)
            .unwrap()
            .windows(10)
            .any(|w| w == b"2601.00001"),
        "the paper is in the cache"
    );
    let (elsewhere, from_cache) = build_elsewhere(site.path());
    let full = tempfile::tempdir().unwrap();
    let parsed = full.path().join("public");
    assert_ok(&paperboy(
        site.path(),
        &["build", "--full", "--output", parsed.to_str().unwrap()],
    ));
    assert_same_tree(
        &parsed,
        &from_cache,
        "a build from the parse cache and one that parsed",
    );

    // And the cache was read, not found wanting and passed over: what it says shows.
    edit_kept_record(
        &cached,
        "2601.00001",
        "alert('title')",
        "alert('CACHE')",
        Seal::Again,
    );
    let tampered = elsewhere.path().join("tampered");
    assert_ok(&paperboy(
        site.path(),
        &["build", "--output", tampered.to_str().unwrap()],
    ));
    assert!(read(tampered.join("papers/2601.00001/index.html")).contains("CACHE"));
}

/// A week held back from a site, to be added as fetch would add it.
struct HeldWeek {
    _aside: tempfile::TempDir,
    files: Vec<(PathBuf, PathBuf)>,
}

impl HeldWeek {
    fn put_back(self) {
        for (from, to) in &self.files {
            std::fs::rename(from, to).unwrap();
        }
    }
}

/// The example site built (incrementally, so its caches are kept) without its newest week.
fn built_without_its_newest_week() -> (tempfile::TempDir, HeldWeek) {
    let site = example_site();
    let aside = tempfile::tempdir().unwrap();
    let files = hold_back_weeks(site.path(), aside.path(), 1);
    assert_ok(&paperboy(site.path(), &["build"]));
    let week = HeldWeek {
        _aside: aside,
        files,
    };
    (site, week)
}

#[test]
fn a_new_weeks_papers_are_added_to_the_kept_search_index() {
    let (site, week) = built_without_its_newest_week();
    let state_path = site.path().join(".cache/search-state.bin");
    let state = std::fs::read(&state_path).unwrap();
    week.put_back();

    // What the next build starts from is the kept index: a word renamed in it (postcard
    // writes a string's length, then its bytes) stays out, though an older paper's title
    // has it.
    let (word, other_word) = (b"\x0adistilling", b"\x0adistillinx");
    let at = state
        .windows(word.len())
        .position(|w| w == word)
        .expect("the kept index has the word");
    let mut tampered = state.clone();
    tampered[at..at + word.len()].copy_from_slice(other_word);
    std::fs::write(&state_path, tampered).unwrap();
    let (_elsewhere, other) = build_elsewhere(site.path());
    assert!(!read(other.join("search/lex/di.json")).contains("\"distilling\""));

    // From the true state the index is the one a full build makes.
    // The JSON state earlier builds kept is removed, not left behind.
    let old_state = site.path().join(".cache/search-index.json");
    std::fs::write(&old_state, "{}").unwrap();
    std::fs::write(&state_path, &state).unwrap();
    let postings = |public: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = sorted_files(&public.join("search/post"));
        files.extend(sorted_files(&public.join("search/term")));
        files
            .into_iter()
            .map(|f| (f.clone(), std::fs::read(&f).unwrap()))
            .collect()
    };
    let public = site.path().join("public");
    let before = postings(&public);
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(read(public.join("search/lex/di.json")).contains("\"distilling\""));
    assert!(!old_state.exists());
    assert_equals_full_build(site.path());
    // A week changes the postings of the stems its papers have and leaves the others'
    // files byte for byte as they were (the idf is search.js's), so a deploy that uploads
    // what changed does not upload the whole index every week.
    let after = postings(&public);
    let same = before.iter().filter(|f| after.contains(f)).count();
    assert!(
        same * 4 > before.len() && same < after.len(),
        "{same} of {} postings files unchanged after a week",
        after.len()
    );
}

/// The segments of a kept search state: its magic, then each a `u64` length and the bytes.
fn state_segments(state: &[u8]) -> usize {
    let mut rest = &state[8..];
    let mut segments = 0;
    while !rest.is_empty() {
        let len = u64::from_le_bytes(rest[..8].try_into().unwrap()) as usize;
        rest = &rest[8 + len..];
        segments += 1;
    }
    segments
}

#[test]
fn each_weeks_papers_are_appended_to_the_kept_search_state_until_it_is_written_whole() {
    let site = example_site();
    let state_path = site.path().join(".cache/search-state.bin");
    // Ten weeks held back one at a time, newest first, to come back oldest first.
    let mut held: Vec<HeldWeek> = (0..10)
        .map(|_| {
            let aside = tempfile::tempdir().unwrap();
            let files = hold_back_weeks(site.path(), aside.path(), 1);
            HeldWeek {
                _aside: aside,
                files,
            }
        })
        .collect();
    assert_ok(&paperboy(site.path(), &["build"]));
    let mut state = std::fs::read(&state_path).unwrap();
    assert_eq!(state_segments(&state), 1);
    // Eight segments at most (`MAX_SEGMENTS`): the ninth week's build writes one.
    for (week, expected) in [2, 3, 4, 5, 6, 7, 8, 1, 2].into_iter().enumerate() {
        held.pop().unwrap().put_back();
        assert_ok(&paperboy(site.path(), &["build"]));
        let now = std::fs::read(&state_path).unwrap();
        assert_eq!(state_segments(&now), expected, "after week {week}");
        if expected > 1 {
            assert!(
                now.starts_with(&state),
                "week {week}: appended, not rewritten"
            );
        }
        assert_equals_full_build(site.path());
        state = now;
    }
    // An append cut short (a killed build): the state does not decode, the next build
    // tokenizes every paper and writes it whole.
    std::fs::write(&state_path, &state[..state.len() - 3]).unwrap();
    held.pop().unwrap().put_back();
    assert_ok(&paperboy(site.path(), &["build"]));
    assert_eq!(state_segments(&std::fs::read(&state_path).unwrap()), 1);
    assert_equals_full_build(site.path());
}

#[test]
fn related_papers_are_computed_from_the_kept_terms_of_unchanged_papers() {
    let (site, week) = built_without_its_newest_week();
    let public = site.path().join("public");
    let page = public.join("papers/2508.13167/index.html");
    assert!(read(&page).contains("Related papers"));
    let cache = site.path().join(".cache/related-terms.bin");
    let kept = std::fs::read(&cache).unwrap();
    week.put_back();

    // Every kept paper's terms replaced by words no other paper has (each record found
    // through the index at the end of the file): the next build believes it, and related
    // papers come only from the new week's papers.
    let mut emptied = kept.clone();
    let records = kept_records(&kept);
    assert!(records.len() > 10);
    for (n, &(_, record, len)) in records.iter().enumerate() {
        // A record: the count of terms, then (term: u64, frequency: f32) each.
        for term in 0..(len - 4) / 12 {
            let at = record + 4 + term * 12;
            let unique = ((n as u64) << 32) | term as u64;
            emptied[at..at + 8].copy_from_slice(&unique.to_le_bytes());
        }
    }
    reseal(&mut emptied);
    std::fs::write(&cache, &emptied).unwrap();
    let (_elsewhere, other) = build_elsewhere(site.path());
    assert!(!read(other.join("papers/2508.13167/index.html")).contains("Related papers"));

    // From the true terms, the site a full build makes.
    std::fs::write(&cache, &kept).unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(read(&page).contains("Related papers"));
    assert_equals_full_build(site.path());
    assert_ne!(
        std::fs::read(&cache).unwrap(),
        kept,
        "the new week's terms are kept"
    );
}

/// The records a kept-records file (`.cache/parsed.bin`, `related-terms.bin`, `lines.bin`) indexes, as
/// (where its index entry is, where the record starts, its length), read through the
/// footer at the end of the file.
fn kept_records(bytes: &[u8]) -> Vec<(usize, usize, usize)> {
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    let end = bytes.len() - 24;
    let (index, count) = (u64_at(end), u64_at(end + 8));
    // Each index entry: key (16 bytes), offset (8), length (4), the record's xxh3 (8).
    (0..count)
        .map(|n| {
            let e = index + n * 36;
            let len = u32::from_le_bytes(bytes[e + 24..e + 28].try_into().unwrap());
            (e, u64_at(e + 16), len as usize)
        })
        .collect()
}

/// Makes the checks of a kept-records file match its altered records again.
fn reseal(bytes: &mut [u8]) {
    let records = kept_records(bytes);
    for &(e, record, len) in &records {
        let check = xxhash_rust::xxh3::xxh3_64(&bytes[record..record + len]);
        bytes[e + 28..e + 36].copy_from_slice(&check.to_le_bytes());
    }
    let end = bytes.len() - 24;
    let index = records.first().map_or(end, |r| r.0);
    let check = xxhash_rust::xxh3::xxh3_64(&bytes[index..end]);
    bytes[end + 16..end + 24].copy_from_slice(&check.to_le_bytes());
}

/// Whether an altered kept record's check is made to match it again.
enum Seal {
    Again,
    AsItWas,
}

/// Replaces `from` with `to` (as long) in the kept record of `path` that holds `holding`.
fn edit_kept_record(path: &Path, holding: &str, from: &str, to: &str, seal: Seal) {
    assert_eq!(from.len(), to.len(), "a same-length edit");
    let mut bytes = std::fs::read(path).unwrap();
    let has = |b: &[u8], what: &str| b.windows(what.len()).position(|w| w == what.as_bytes());
    let (_, record, len) = kept_records(&bytes)
        .into_iter()
        .find(|&(_, r, len)| has(&bytes[r..r + len], holding).is_some())
        .unwrap_or_else(|| panic!("{} has no record with {holding:?}", path.display()));
    let at = record
        + has(&bytes[record..record + len], from)
            .unwrap_or_else(|| panic!("the record of {holding:?} has no {from:?}"));
    bytes[at..at + to.len()].copy_from_slice(to.as_bytes());
    if let Seal::Again = seal {
        reseal(&mut bytes);
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn author_pages_take_unchanged_papers_lines_from_the_last_build_and_render_changed_ones() {
    let (site, week) = built_without_its_newest_week();
    let public = site.path().join("public");
    let cache = site.path().join(".cache/lines.bin");
    let kept = std::fs::read(&cache).unwrap();
    week.put_back();
    // A title edited: the paper's line on its authors' pages must be made again.
    edit(
        site.path().join("content/papers/2508/2508.13167.md"),
        "title = \"Chain-of-Agents:",
        "title = \"Chain-of-Agents, retitled:",
    );

    // Another paper's kept line altered, its check made to match: the next build
    // believes it, so lines do come from the file.
    let records = kept_records(&kept);
    assert!(records.len() > 300, "a line per paper");
    let mut tampered = kept.clone();
    let (_, start, len) = *records
        .iter()
        .find(|&&(_, start, len)| {
            let line = std::str::from_utf8(&kept[start..start + len]).unwrap();
            line.contains("cond-mat/0607501")
        })
        .expect("the kept lines have the oldest paper's");
    let line = std::str::from_utf8(&kept[start..start + len]).unwrap();
    let altered = line.replace("A striped supersolid", "A STRIPED SUPERSOLID");
    assert_ne!(line, altered);
    tampered[start..start + len].copy_from_slice(altered.as_bytes());
    reseal(&mut tampered);
    std::fs::write(&cache, &tampered).unwrap();
    let (_elsewhere, other) = build_elsewhere(site.path());
    let author_of_oldest = read(other.join("authors/r-g-melko/index.html"));
    assert!(author_of_oldest.contains("A STRIPED SUPERSOLID"));
    let author_of_edited = read(other.join("authors/weizhen-li/index.html"));
    assert!(author_of_edited.contains("Chain-of-Agents, retitled:"));
    assert!(!author_of_edited.contains("Chain-of-Agents: End"));

    // From the true lines, the site a full build makes; a file that does not add up
    // is no cache, and the build is the same.
    std::fs::write(&cache, &kept).unwrap();
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(read(public.join("authors/weizhen-li/index.html")).contains("retitled"));
    assert_equals_full_build(site.path());
    let now = std::fs::read(&cache).unwrap();
    assert!(
        kept_records(&now).len() >= records.len(),
        "the new week's lines are kept"
    );
    std::fs::write(&cache, &now[..now.len() - 5]).unwrap();
    edit(
        site.path().join("content/papers/2508/2508.13167.md"),
        "retitled:",
        "renamed:",
    );
    assert_ok(&paperboy(site.path(), &["build"]));
    assert!(read(public.join("authors/weizhen-li/index.html")).contains("renamed:"));
    assert_equals_full_build(site.path());
    // No page or feed that links to the paper shows an old title; those that show a title
    // (some show the editor's headline instead) show the new one.
    let mut showing = 0;
    for entry in walkdir::WalkDir::new(&public) {
        let entry = entry.unwrap();
        let name = entry.path().to_string_lossy().into_owned();
        if !(name.ends_with(".html") || name.ends_with(".xml")) {
            continue;
        }
        let text = read(entry.path());
        if !text.contains("papers/2508.13167/") {
            continue;
        }
        showing += usize::from(text.contains("Chain-of-Agents, renamed:"));
        assert!(
            !text.contains("Chain-of-Agents, retitled:") && !text.contains("Chain-of-Agents: End"),
            "{name} shows an old title"
        );
    }
    assert!(
        showing >= 4,
        "the paper, its week, its categories and its authors: {showing}"
    );
}

/// The numbered pages of a category, by number, with their HTML.
fn numbered_pages(public: &Path, category: &str) -> Vec<(usize, String)> {
    let dir = public.join("categories").join(category).join("page");
    let mut pages: Vec<(usize, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let n = e.file_name().to_str().unwrap().parse().unwrap();
            (n, read(e.path().join("index.html")))
        })
        .collect();
    pages.sort();
    pages
}

/// The papers a category page links to, a line each, in order.
fn lines_on(html: &str) -> Vec<&str> {
    html.split("<li id=\"paper-")
        .skip(1)
        .map(|line| {
            let start = line.find("/papers/").unwrap();
            let rest = &line[start..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

#[test]
fn new_weeks_leave_full_category_pages_as_they_were() {
    let site = example_site();
    common::set_paginate_by(site.path(), 2);
    let aside = tempfile::tempdir().unwrap();
    let files = hold_back_weeks(site.path(), aside.path(), 5);
    assert_ok(&paperboy(site.path(), &["build", "--full"]));
    let public = site.path().join("public");
    let before = numbered_pages(&public, "cs.SE");
    let front_before = read(public.join("categories/cs.SE/index.html"));
    for (from, to) in &files {
        std::fs::rename(from, to).unwrap();
    }
    assert_ok(&paperboy(site.path(), &["build", "--full"]));
    let after = numbered_pages(&public, "cs.SE");
    let front_after = read(public.join("categories/cs.SE/index.html"));
    assert!(
        after.len() > before.len(),
        "the week adds cs.SE pages: {} -> {}",
        before.len(),
        after.len()
    );
    assert_ne!(lines_on(&front_before), lines_on(&front_after));

    // Every page that was full holds the same papers under the same URL, and all but the
    // newest few are byte for byte the same: the two the front page shows, and the three
    // below them, whose pagers now link the new pages.
    let newest = before.len();
    let mut unchanged = 0;
    for ((n, old), (m, new)) in before.iter().zip(&after) {
        assert_eq!(n, m);
        if lines_on(old).len() == 2 {
            assert_eq!(lines_on(old), lines_on(new), "page {n}");
        }
        if *n + 5 <= newest {
            assert_eq!(old, new, "page {n}");
            unchanged += 1;
        }
    }
    assert!(unchanged >= 5, "only {unchanged} pages compared");
    // Page 1 holds the oldest papers, the front page the newest: together with the pages
    // between, each paper once.
    let all: Vec<&str> = after.iter().rev().flat_map(|(_, h)| lines_on(h)).collect();
    let mut distinct = all.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), all.len(), "a paper on two numbered pages");
    let front = lines_on(&front_after);
    assert_eq!(
        front[..],
        all[..front.len()],
        "the front page starts the list"
    );
}

/// splitmix64: a seeded sequence, so a failing run names the seed that reproduces it.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d4_049b_b133_111b);
        ((z ^ (z >> 31)) % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Replaces the first `from` in a file, or says which edit did not apply.
fn edit_once(path: &Path, from: &str, to: &str) {
    let text = read(path);
    assert!(text.contains(from), "{} has no {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// Replaces the first line that starts with `start` by `line`.
fn replace_line(path: &Path, start: &str, line: &str) {
    let text = read(path);
    let old = text
        .lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("{} has no line starting {start:?}", path.display()));
    edit_once(path, old, line);
}

/// Puts `prefix` (no quotes or backslashes) at the start of the string value of the first
/// `key = …` line, in whichever quotes it has.
fn prefix_value(path: &Path, key: &str, prefix: &str) {
    let text = read(path);
    let quoted = ['"', '\''].map(|q| format!("\n{key} = {q}"));
    let from = quoted
        .iter()
        .filter_map(|q| Some((text.find(q.as_str())?, q)))
        .min()
        .map(|(_, q)| q.clone())
        .unwrap_or_else(|| panic!("{} has no {key}", path.display()));
    std::fs::write(path, text.replacen(&from, &format!("{from}{prefix}"), 1)).unwrap();
}

fn sorted_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    files.sort();
    files
}

/// The edits an editor or a maintainer makes between two builds.
const EDITS: usize = 14;

/// Edit `kind` (below `EDITS`), its file chosen by the dice; returns what it did, for the
/// failure message.
fn random_edit(
    site: &Path,
    dice: &mut Dice,
    kind: usize,
    n: usize,
    held: &mut Vec<Vec<(PathBuf, PathBuf)>>,
) -> String {
    let content = site.join("content");
    let papers = sorted_files(&content.join("papers"));
    let paper = dice.pick(&papers).clone();
    let name = paper.file_name().unwrap().to_string_lossy().into_owned();
    match kind {
        0 if !held.is_empty() => {
            let week = held.remove(0);
            for (from, to) in &week {
                std::fs::rename(from, to).unwrap();
            }
            format!("added a week of {} files", week.len())
        }
        0 | 1 => {
            prefix_value(&paper, "title", &format!("Edit {n}: "));
            format!("retitled the paper {name}")
        }
        2 => {
            edit_once(
                &paper,
                "[review]\nheadline = \"",
                &format!("[review]\nheadline = \"An editor's headline {n}. "),
            );
            format!("gave {name} an editor's headline")
        }
        3 => {
            edit_once(
                &paper,
                "authors = [",
                &format!("authors = [\"Ada Edited{n}\", "),
            );
            format!("added an author to {name}")
        }
        4 => {
            prefix_value(&paper, "abstract", &format!("Quantum annealing {n}. "));
            format!("changed the abstract of {name}")
        }
        5 => {
            replace_line(
                &paper,
                "primary_category = ",
                "primary_category = \"math.NA\"",
            );
            edit_once(&paper, "categories = [", "categories = [\"math.NA\", ");
            format!("moved {name} to math.NA")
        }
        6 => {
            // A paper goes with its lines in the digests that list it; a digest keeps at
            // least one paper.
            let text = read(&paper);
            let id = text
                .lines()
                .find_map(|l| l.strip_prefix("id = \"")?.strip_suffix('"'))
                .unwrap()
                .to_string();
            let line = format!("  \"{id}\",\n");
            let digests = sorted_files(&content.join("digests"));
            let listing: Vec<&PathBuf> =
                digests.iter().filter(|d| read(d).contains(&line)).collect();
            if listing.iter().any(|d| ids_in(d).len() < 2) {
                return format!("kept {name}, the only paper of its week");
            }
            for d in listing {
                edit_once(d, &line, "");
            }
            std::fs::remove_file(&paper).unwrap();
            format!("deleted {name}")
        }
        7 => {
            let config = site.join("paperboy.toml");
            match dice.below(3) {
                0 => edit_once(&config, "title = \"", &format!("title = \"{n} ")),
                1 => edit_once(
                    &config,
                    "description = \"",
                    &format!("description = \"{n} "),
                ),
                _ => {
                    let weeks = 6 + dice.below(10);
                    replace_line(&config, "foryou_weeks", &format!("foryou_weeks = {weeks}"));
                }
            }
            "changed the config".to_string()
        }
        8 => {
            // A page template (its content block) or a snippet the list pages reuse.
            let templates: Vec<PathBuf> = sorted_files(&site.join("themes/default/templates"))
                .into_iter()
                .filter(|t| {
                    let name = t.file_name().unwrap().to_string_lossy();
                    name == "card.html"
                        || name == "line.html"
                        || read(t).contains("{% block content %}")
                })
                .collect();
            let template = dice.pick(&templates).clone();
            let tname = template.file_name().unwrap().to_string_lossy().into_owned();
            let mark = format!("<!-- edit {n} -->");
            let text = read(&template);
            if text.contains("{% block content %}") {
                edit_once(
                    &template,
                    "{% block content %}",
                    &format!("{{% block content %}}{mark}"),
                );
            } else {
                std::fs::write(&template, text + &mark).unwrap();
            }
            format!("edited the theme's {tname}")
        }
        9 => {
            // The site's own template of a name overrides the theme's.
            let own = site.join("templates");
            std::fs::create_dir_all(&own).unwrap();
            let base = read(site.join("themes/default/templates/base.html"));
            std::fs::write(
                own.join("base.html"),
                base.replace("</footer>", &format!("edit {n}</footer>")),
            )
            .unwrap();
            "overrode base.html".to_string()
        }
        10 => {
            let css = site.join("themes/default/static/style.css");
            let text = read(&css);
            std::fs::write(&css, format!("{text}\n/* edit {n} */\n")).unwrap();
            "edited the theme's style.css".to_string()
        }
        11 => {
            let own = site.join("static");
            let files = if own.exists() {
                sorted_files(&own)
            } else {
                Vec::new()
            };
            if let Some(old) = files.first().filter(|_| dice.below(2) == 0) {
                std::fs::remove_file(old).unwrap();
                "deleted a static file of the site".to_string()
            } else {
                std::fs::create_dir_all(own.join("files")).unwrap();
                std::fs::write(
                    own.join(format!("files/note-{n}.txt")),
                    format!("note {n}\n"),
                )
                .unwrap();
                "added a static file to the site".to_string()
            }
        }
        12 => {
            // A paper's figure replaced by another's bytes.
            let figures = sorted_files(&content.join("figures"));
            let (from, to) = (dice.pick(&figures).clone(), dice.pick(&figures).clone());
            std::fs::copy(&from, &to).unwrap();
            format!(
                "replaced the figure {}",
                to.file_name().unwrap().to_string_lossy()
            )
        }
        _ => {
            let digests = sorted_files(&content.join("digests"));
            let digest = dice.pick(&digests).clone();
            edit_once(&digest, "title = \"", &format!("title = \"Edited {n}: "));
            format!(
                "retitled the week {}",
                digest.file_name().unwrap().to_string_lossy()
            )
        }
    }
}

const SEEDS: [u64; 4] = [11, 23, 37, 41];

/// The promise of incremental builds, tried on edits of every kind rather than the ones a
/// test author thought of: after each, the incremental `public/` is a full build's.
#[test]
fn random_edits_leave_the_same_site_as_a_full_build() {
    let mut all = Vec::new();
    for seed in SEEDS {
        let site = example_site();
        let asides: Vec<tempfile::TempDir> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
        let mut held: Vec<_> = asides
            .iter()
            .map(|aside| hold_back_weeks(site.path(), aside.path(), 1))
            .collect();
        assert_ok(&paperboy(site.path(), &["build"]));
        let mut dice = Dice(seed);
        // Each seed makes ten of the edits in an order of its own (Fisher-Yates).
        let mut kinds: Vec<usize> = (0..EDITS).collect();
        for i in (1..EDITS).rev() {
            kinds.swap(i, dice.below(i + 1));
        }
        let mut done = Vec::new();
        for (n, &kind) in kinds.iter().take(10).enumerate() {
            done.push(random_edit(site.path(), &mut dice, kind, n, &mut held));
            let built = paperboy(site.path(), &["build"]);
            assert!(
                built.status.success(),
                "seed {seed}, after {done:?}: {}",
                stderr(&built)
            );
            assert_equals_full_build_after(site.path(), &format!(" (seed {seed}, after {done:?})"));
        }
        all.extend(done);
    }
    // The seeds make every kind of edit at least once.
    for kind in [
        "added a week",
        "retitled the paper",
        "headline",
        "added an author",
        "changed the abstract",
        "moved",
        "deleted",
        "changed the config",
        "edited the theme's",
        "overrode",
        "style.css",
        "static file",
        "replaced the figure",
        "retitled the week",
    ] {
        assert!(
            all.iter().any(|d| d.contains(kind)),
            "no edit {kind:?} among {all:?}"
        );
    }
}

#[test]
fn a_build_leaves_a_hard_linked_backup_of_the_site_as_it_was() {
    let (site, week) = built_without_its_newest_week();
    let backup = tempfile::tempdir().unwrap();
    link_dir(site.path(), backup.path());
    let before = tree(backup.path());
    let kept_files = |dir: &Path| {
        tree(&dir.join(".cache"))
            .into_iter()
            .filter(|(name, _)| name.ends_with(".bin"))
            .collect::<Vec<_>>()
    };
    let kept_before = kept_files(site.path());
    week.put_back();
    assert_ok(&paperboy(site.path(), &["build"]));

    // The week was kept (records added to the files a week grows), and in the site only.
    let kept_after = kept_files(site.path());
    let grown: Vec<&str> = kept_before
        .iter()
        .filter(|(name, bytes)| {
            kept_after
                .iter()
                .any(|(n, b)| n == name && b.len() > bytes.len())
        })
        .map(|(name, _)| name.as_str())
        .collect();
    assert!(
        grown.len() >= 2,
        "only {grown:?} of the kept files grew with the week"
    );
    let after = tree(backup.path());
    assert_eq!(
        before.iter().map(|f| &f.0).collect::<Vec<_>>(),
        after.iter().map(|f| &f.0).collect::<Vec<_>>(),
        "the backup's files"
    );
    for ((name, x), (_, y)) in before.iter().zip(&after) {
        assert!(x == y, "the build wrote into the backup's {name}");
    }
    assert_equals_full_build(site.path());
}
