//! Categories are arXiv's (checked against its taxonomy, named and described as arXiv does)
//! or a journal's subject, never an MSC class; one person has one author page. Checked on
//! the example site, which has both kinds of trouble.

mod common;

use common::{assert_ok, edit, example_site, paperboy, read};
use std::path::Path;

fn built() -> tempfile::TempDir {
    let site = example_site();
    // Twenty lines a category page (the default is 50): the example's cs.AI then has six
    // pages, which the pagination checks here need.
    common::set_paginate_by(site.path(), 20);
    assert_ok(&paperboy(site.path(), &["build"]));
    site
}

fn pages_under(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn categories_are_arxiv_s_or_a_journal_s_and_say_what_they_are() {
    let site = built();
    let public = site.path().join("public");
    let categories = pages_under(&public.join("categories"));
    // arXiv's codes keep their case; journal subjects are lower-cased slugs; the MSC class
    // "35" of 2201.13452 is no category.
    assert!(
        categories.contains(&"cs.DC".to_string())
            && categories.contains(&"cond-mat.str-el".to_string())
    );
    assert!(
        categories.contains(&"bioinformatics-nature.com-subject-feeds".to_string()),
        "{categories:?}"
    );
    assert!(
        !categories
            .iter()
            .any(|c| c == "35" || c.chars().any(|ch| ch.is_uppercase()) && !c.contains('.')),
        "{categories:?}"
    );
    let paper = read(public.join("papers/2201.13452/index.html"));
    assert!(
        paper.contains("<dt>Subject classes</dt><dd>35</dd>"),
        "the class is kept, apart"
    );

    // The category page names and describes it as arXiv does.
    let dc = read(public.join("categories/cs.DC/index.html"));
    assert!(dc.contains("Distributed, Parallel, and Cluster Computing"));
    assert!(dc.contains("Covers fault-tolerance, distributed algorithms"));
    // The archive groups categories as arXiv does, journals apart.
    let archive = read(public.join("archive/index.html"));
    let cs = archive.find("<h3>Computer Science</h3>").unwrap();
    let journals = archive.find("<h3>Journals and other feeds</h3>").unwrap();
    let physics = archive.find("<h3>Physics</h3>").unwrap();
    assert!(cs < journals && journals < physics);
    assert!(archive[journals..physics].contains(">Bioinformatics : nature.com subject feeds<"));
    assert!(!archive[journals..physics].contains(">cs."));
    // So does /categories/, which each category page links: every category, with its count.
    let index = read(public.join("categories/index.html"));
    let groups: Vec<usize> = ["Computer Science", "Journals and other feeds", "Physics"]
        .iter()
        .map(|g| index.find(&format!("<h2>{g}</h2>")).unwrap())
        .collect();
    assert!(groups.is_sorted(), "{groups:?}");
    assert!(index.contains(
        "<a href=\"/digest/categories/cs.DC/\" title=\"Covers fault-tolerance, distributed algorithms"
    ));
    for dir in std::fs::read_dir(public.join("categories")).unwrap() {
        let slug = dir.unwrap().file_name().to_string_lossy().into_owned();
        if slug != "index.html" {
            assert!(
                index.contains(&format!("href=\"/digest/categories/{slug}/\"")),
                "{slug}"
            );
        }
    }
    assert!(dc.contains("<a href=\"/digest/categories/\">All categories</a>"));
    assert_ok(&paperboy(site.path(), &["check"]));
}

#[test]
fn a_person_named_by_initials_and_in_full_has_one_page_and_namesakes_keep_theirs() {
    let site = built();
    let authors = site.path().join("public/authors");
    let names = pages_under(&authors);
    // The RSS gave "A. Del Maestro" (4 papers), the API "Adrian Del Maestro" (6), both in
    // condensed matter: one page, named in full.
    assert!(!names.contains(&"a-del-maestro".to_string()));
    let page = read(authors.join("adrian-del-maestro/index.html"));
    assert!(page.contains("<h1>Adrian Del Maestro</h1>"));
    assert!(page.contains("10 papers on this site"), "{page}");
    // Papers of both forms, each once.
    for id in [
        "cond-mat/0607501",
        "1303.6954",
        "1312.6177",
        "1412.6529",
        "cond-mat/0412498",
        "1201.4869",
    ] {
        assert_eq!(
            page.matches(&format!("id=\"paper-{id}\"")).count(),
            1,
            "{id}"
        );
    }
    // A paper that names him by initials links to that page.
    let paper = read(site.path().join("public/papers/1303.6954/index.html"));
    assert!(
        paper.contains("/authors/adrian-del-maestro/\">A. Del Maestro</a>"),
        "{paper}"
    );
    // Namesakes in other fields stay apart: a bioRxiv paper's "J. Tang" is not the "Jie
    // Tang" of two cs papers, nor "J. Ma" the "Jing Ma" of WizardCoder.
    for (initials, full) in [("j-tang", "jie-tang"), ("j-ma", "jing-ma")] {
        assert!(
            names.contains(&initials.to_string()) && names.contains(&full.to_string()),
            "{initials} {full}"
        );
    }
}

#[test]
fn spellings_that_share_a_url_share_a_page_named_as_the_first_paper_names_it() {
    let site = example_site();
    let papers = site.path().join("content/papers");
    // "Tom Götz" and "Tom Gotz" have one URL (`tom-gotz`); the second paper names him
    // twice. Papers go by id: gr-qc/0103067 is the first to name him.
    edit(
        papers.join("0103/gr-qc-0103067.md"),
        r#"authors = ["Mark P. Haugan", "C. Lämmerzahl"]"#,
        r#"authors = ["Mark P. Haugan", "C. Lämmerzahl", "Tom Götz"]"#,
    );
    edit(
        papers.join("0301/hep-ph-0301050.md"),
        r#"authors = ["Andre de Gouvea", "Hitoshi Murayama"]"#,
        r#"authors = ["Tom Gotz", "Andre de Gouvea", "Hitoshi Murayama", "Tom Gotz"]"#,
    );
    assert_ok(&paperboy(site.path(), &["build"]));
    let public = site.path().join("public");
    let page = read(public.join("authors/tom-gotz/index.html"));
    assert!(page.contains("<h1>Tom Götz</h1>"), "{page}");
    assert!(page.contains("2 papers on this site"), "{page}");
    for id in ["gr-qc-0103067", "hep-ph-0301050"] {
        assert!(page.contains(&format!("/papers/{id}/")), "{id}: {page}");
    }
    // Each byline links every spelling, as written, to that page; the other authors
    // keep theirs.
    let first = read(public.join("papers/gr-qc-0103067/index.html"));
    assert!(first.contains(r#"/authors/tom-gotz/">Tom Götz</a>"#));
    let second = read(public.join("papers/hep-ph-0301050/index.html"));
    assert_eq!(
        second
            .matches(r#"/authors/tom-gotz/">Tom Gotz</a>"#)
            .count(),
        2,
        "{second}"
    );
    assert!(second.contains(r#"/authors/hitoshi-murayama/">Hitoshi Murayama</a>"#));
    assert!(second.contains(r#"/authors/andre-de-gouvea/">Andre de Gouvea</a>"#));
}

/// The count an author page gives: "10 papers on this site".
fn count_on_author_page(page: &str) -> usize {
    let said = page
        .split("<p class=\"muted\">")
        .nth(1)
        .and_then(|rest| rest.split(" paper").next())
        .unwrap_or_else(|| panic!("no count on {page}"));
    said.replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("{said:?} is no count"))
}

#[test]
fn authors_lists_the_most_published_first_and_every_author_page_leads_there() {
    let site = built();
    let public = site.path().join("public");
    let pages: Vec<String> = pages_under(&public.join("authors"))
        .into_iter()
        .filter(|name| name != "index.html")
        .collect();
    let count_of =
        |slug: &str| count_on_author_page(&read(public.join(format!("authors/{slug}/index.html"))));
    let index = read(public.join("authors/index.html"));
    assert!(
        index.contains(&format!(
            "{} authors on this site",
            // As a reader sees it, "1,362": the filter the theme prints counts with.
            paperboy::render::thousands(pages.len())
        )),
        "{index}"
    );
    let item = regex::Regex::new(
        r#"<li><a href="/digest/authors/([^/"]+)/">[^<]+</a> <span class="muted">(\d+) papers?</span></li>"#,
    )
    .unwrap();
    let listed: Vec<(String, usize)> = item
        .captures_iter(&index)
        .map(|c| (c[1].to_string(), c[2].parse().unwrap()))
        .collect();
    // The example site has more authors than the page lists: the most published, and
    // no slice of the hundreds with one paper.
    assert!(pages.len() > 100);
    assert!(!listed.is_empty() && listed.len() <= 100, "{index}");
    // Cut where a count ends, so the page can say where: "with 3 papers or more".
    assert!(
        index.contains(&format!(
            "here the {} with {} papers or more</p>",
            listed.len(),
            listed.last().unwrap().1
        )),
        "{index}"
    );
    assert_eq!(listed[0], ("adrian-del-maestro".to_string(), 10));
    assert!(listed.windows(2).all(|w| w[0].1 >= w[1].1), "{listed:?}");
    for (slug, count) in &listed {
        assert_eq!(count_of(slug), *count, "{slug}");
    }
    // Everyone left off has fewer papers than the last one listed.
    let least = listed.last().unwrap().1;
    let mut one_paper = 0;
    for slug in pages
        .iter()
        .filter(|s| !listed.iter().any(|(l, _)| l == *s))
    {
        let count = count_of(slug);
        assert!(count < least, "{slug} has {least} or more");
        // One paper is in no order: "1 paper on this site, newest first" said it was.
        if count == 1 {
            let page = read(public.join(format!("authors/{slug}/index.html")));
            assert!(
                page.contains("1 paper on this site ·") && !page.contains("newest first"),
                "{slug}"
            );
            one_paper += 1;
        }
    }
    assert!(one_paper > 100, "{one_paper} authors with one paper");
    // Anyone else is found by name.
    assert!(index.contains(
        r#"<form role="search" aria-label="Search authors" method="get" action="/digest/search/">"#
    ));
    // Every author page and the archive lead to it; the sitemap lists it.
    let link = r#"<a href="/digest/authors/">Authors</a>"#;
    assert!(read(public.join("authors/gordon-fraser/index.html")).contains(link));
    assert!(read(public.join("archive/index.html")).contains(link));
    let sitemap = read(public.join("sitemap.xml"));
    assert!(sitemap.contains("<loc>https://example.github.io/digest/authors/</loc>"));
    // A numbered page whose every card its front page shows is not listed: cs.AI's pages
    // 5 and 6 are its front page's papers, page 4 is the newest of its own.
    let page = |n: usize| {
        format!("<loc>https://example.github.io/digest/categories/cs.AI/page/{n}/</loc>")
    };
    assert!(public.join("categories/cs.AI/page/6/index.html").exists());
    assert!(
        sitemap.contains(&page(4)) && !sitemap.contains(&page(5)) && !sitemap.contains(&page(6)),
        "{sitemap}"
    );
}

#[test]
fn a_byline_of_one_name_et_al_names_that_person_to_readers_scholar_and_bibtex() {
    // Nature's subject feed gives each paper one author, "A. K. L. Wezenaar et al.".
    let site = built();
    let public = site.path().join("public");
    let names = pages_under(&public.join("authors"));
    let et_al: Vec<&String> = names.iter().filter(|n| n.ends_with("-et-al")).collect();
    assert!(
        et_al.is_empty(),
        "author pages of persons named \"et al.\": {et_al:?}"
    );
    let author = read(public.join("authors/a-k-l-wezenaar/index.html"));
    assert!(author.contains("<h1>A. K. L. Wezenaar</h1>"), "{author}");
    let paper = read(public.join("papers/item-913ad986b2bf6978/index.html"));
    // The byline says what the feed said, linked to the person's page.
    assert!(
        paper.contains(r#"/authors/a-k-l-wezenaar/">A. K. L. Wezenaar et al.</a>"#),
        "{paper}"
    );
    // Google Scholar gets the person; BibTeX its word for the rest.
    assert!(paper.contains(r#"<meta name="citation_author" content="Wezenaar, A. K. L.">"#));
    assert!(!paper.contains("al., "), "{paper}");
    assert!(paper.contains("@misc{wezenaar2025mapping,"), "{paper}");
    assert!(
        paper.contains("author={A. K. L. Wezenaar and others},"),
        "{paper}"
    );
    assert!(
        paper.contains(r#""author":[{"@type":"Person","name":"A. K. L. Wezenaar"}]"#),
        "{paper}"
    );
}

#[test]
fn a_tie_for_the_most_papers_is_listed_by_name_and_the_index_says_so() {
    // A new site: 120 people with one paper each, more than the index lists.
    let site = common::temp_site(common::BASIC_CONFIG);
    for n in 0..120 {
        let id = format!("2401.{n:05}");
        let path = site.path().join(format!("content/papers/2401/{id}.md"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            format!("+++\nid = \"{id}\"\ntitle = \"Paper {n}\"\nauthors = [\"Author {n:03}\"]\npublished = 2024-01-10T00:00:00Z\nupdated = 2024-01-10T00:00:00Z\nabstract = \"We present a thing.\"\n+++\n"),
        )
        .unwrap();
    }
    assert_ok(&paperboy(site.path(), &["build"]));
    let index = read(site.path().join("public/authors/index.html"));
    assert!(
        index.contains(
            "120 authors on this site; here the first 100 by name, each with 1 paper</p>"
        ),
        "{index}"
    );
    assert!(index.contains(">Author 099</a>") && !index.contains(">Author 100</a>"));
}
