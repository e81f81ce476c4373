//! Every input in fuzz/regressions/<target>/ goes through the same code as that fuzz
//! target (fuzz/fuzz_targets/), so a crash the fuzzer once found stays fixed. Add a crash
//! file there to keep it.

use paperboy::config::SourceKind;
use paperboy::sources::{ParseContext, parse_feed};
use paperboy::store::frontmatter::{self, DigestFront, PaperFront};
use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

/// Runs `f` on a thread with the default 2 MiB stack, as the program's worker threads have.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .expect("no panic");
}

#[test]
fn feed_inputs_do_not_crash() {
    for file in inputs("feed") {
        let data = std::fs::read(&file).unwrap();
        on_small_stack(move || {
            for kind in [
                None,
                Some(SourceKind::Arxiv),
                Some(SourceKind::ArxivRss),
                Some(SourceKind::Feed),
            ] {
                let mut ctx = ParseContext::new("fuzz", chrono::DateTime::UNIX_EPOCH);
                let _ = parse_feed(&data, kind, &mut ctx);
            }
        });
    }
}

#[test]
fn frontmatter_inputs_do_not_crash() {
    for file in inputs("frontmatter") {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.display().to_string();
        on_small_stack(move || {
            let path = Path::new("fuzz.md");
            let Ok(split) = frontmatter::split(&text, path) else {
                return;
            };
            if let Ok(front) = frontmatter::parse::<PaperFront>(&split, path) {
                let mut paper = front.to_paper();
                paper.version += 1;
                if let Ok(updated) = paperboy::store::papers::render_update(&text, &paper, path) {
                    assert!(
                        updated.ends_with(split.body),
                        "{name}: the body was changed"
                    );
                }
            }
            let _ = frontmatter::parse::<DigestFront>(&split, path);
        });
    }
}
