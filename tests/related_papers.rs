//! Related papers on the example site are close ones (#81): "Attention Is All You Need"
//! listed "Accelerating Test Automation through a Domain Specific Language" first, two
//! words in common; a paper with no neighbour that close says so.

mod common;

use common::{assert_ok, example_site, read};

/// The titles a paper page lists as related, or none where it has no list.
fn related_titles(page: &str) -> Option<Vec<String>> {
    let section = page.split("<section class=\"related\"").nth(1)?;
    let section = &section[..section.find("</section>").unwrap()];
    Some(
        section
            .split("<li><a href=\"")
            .skip(1)
            .map(|li| {
                let text = &li[li.find('>').unwrap() + 1..];
                text[..text.find("</a>").unwrap()].to_string()
            })
            .collect(),
    )
}

#[test]
fn related_papers_are_close_or_the_page_says_there_are_none() {
    let site = example_site();
    assert_ok(&common::paperboy(site.path(), &["build"]));
    let public = site.path().join("public");
    let attention = read(public.join("papers/1706.03762/index.html"));
    let titles = related_titles(&attention).expect("a list of related papers");
    assert_eq!(
        titles,
        ["BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"]
    );
    assert!(!attention.contains("No closely related papers"));
    // The Test Automation paper has no neighbour that close either: the page says so, and
    // has no empty list.
    let dsl = read(public.join("papers/1809.08100/index.html"));
    assert_eq!(related_titles(&dsl), None);
    assert!(dsl.contains("<p class=\"related-none\">No closely related papers on this site.</p>"));
}
