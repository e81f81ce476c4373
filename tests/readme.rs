//! The README a newcomer reads in two minutes: short, with the picture of a week, the
//! set-up commands CI runs, and links that lead somewhere.

use std::path::Path;

mod common;

fn readme() -> String {
    common::read(common::repo().join("README.md"))
}

#[test]
fn the_readme_is_short_and_shows_a_week() {
    let text = readme();
    let lines = text.lines().count();
    assert!(lines < 150, "README.md has {lines} lines");
    let picture = "docs/src/images/week.webp";
    assert!(
        text.contains(&format!("]({picture})")),
        "README shows no {picture}"
    );
    let path = common::repo().join(picture);
    let bytes = std::fs::metadata(&path).unwrap().len();
    assert!(bytes < 150 * 1024, "{picture} is {bytes} bytes");
    let (width, height) = image::image_dimensions(&path).unwrap();
    assert_eq!(width, 1280, "{picture} is {width}x{height}");
    assert!(height >= 600, "{picture} is {width}x{height}");
}

#[test]
fn the_readme_s_set_up_commands_are_the_ones_ci_runs() {
    let text = readme();
    let ci = common::read(common::repo().join(".ci/run"));
    // .ci/run ends with the README's test command, exactly.
    assert!(ci.lines().any(|l| l.trim() == "scripts/test"), "{ci}");
    for command in ["cargo run --release -- build ", "scripts/test "] {
        assert!(
            text.lines().any(|l| l.starts_with(command)),
            "README.md lost `{}`",
            command.trim()
        );
    }
}

#[test]
fn every_link_of_the_readme_to_a_file_of_the_repository_leads_to_one() {
    let text = readme();
    let mut checked = 0;
    for (i, _) in text.match_indices("](") {
        let target = text[i + 2..].split(')').next().unwrap();
        if target.contains("://") || target.starts_with('#') {
            continue;
        }
        let file = target.split('#').next().unwrap();
        assert!(
            common::repo().join(Path::new(file)).exists(),
            "README.md links to {target}, which is not in the repository"
        );
        checked += 1;
    }
    assert!(checked >= 15, "{checked} links checked");
}
