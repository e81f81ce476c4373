//! What readers, reference managers and search engines get from a paper page, and the
//! static search index.

mod common;

use common::{assert_ok, example_site, read};
use std::path::Path;

fn built() -> tempfile::TempDir {
    let site = example_site();
    assert_ok(&common::paperboy(site.path(), &["build"]));
    site
}

fn meta(html: &str, name: &str) -> Vec<String> {
    let needle = format!("<meta name=\"{name}\" content=\"");
    html.split(&needle)
        .skip(1)
        .map(|rest| {
            html_escape::decode_html_entities(&rest[..rest.find('"').unwrap()]).into_owned()
        })
        .collect()
}

/// A page's JSON-LD.
fn json_ld(html: &str) -> serde_json::Value {
    let json = html
        .split("<script type=\"application/ld+json\">")
        .nth(1)
        .unwrap();
    serde_json::from_str(&json[..json.find("</script>").unwrap()]).unwrap()
}

fn front(site: &Path, rel: &str) -> toml::Table {
    read(site.join("content/papers").join(rel))
        .split("+++")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn paper_pages_carry_citation_tags_json_ld_and_bibtex() {
    let site = built();
    let f = front(site.path(), "2604/2604.03438.md");
    let html = read(site.path().join("public/papers/2604.03438/index.html"));
    assert_eq!(
        meta(&html, "citation_title"),
        [f["title"].as_str().unwrap()]
    );
    assert_eq!(
        meta(&html, "citation_author"),
        ["Parsazadeh, Hamid", "Ghaleb, Taher A.", "Hassan, Safwat"]
    );
    assert_eq!(meta(&html, "citation_date"), ["2026/04/03"]);
    assert_eq!(meta(&html, "citation_arxiv_id"), ["2604.03438"]);
    assert_eq!(
        meta(&html, "citation_pdf_url"),
        ["https://arxiv.org/pdf/2604.03438v1"]
    );
    assert!(html.contains(
        "<meta property=\"og:url\" content=\"https://example.github.io/digest/papers/2604.03438/\">"
    ));
    // One version: its day is said once (citation_online_date is for a later version's),
    // and its abstract twice, as text on the page and as citation_abstract; the JSON-LD
    // does not repeat it.
    assert!(meta(&html, "citation_online_date").is_empty(), "{html}");
    let opening: String = f["abstract"].as_str().unwrap().chars().take(40).collect();
    assert_eq!(meta(&html, "citation_abstract").len(), 1);
    assert_eq!(html.matches(opening.as_str()).count(), 2, "{opening}");

    let json = json_ld(&html);
    assert_eq!(json["@type"], "ScholarlyArticle");
    assert_eq!(json["name"], f["title"].as_str().unwrap());
    assert_eq!(json["author"][1]["name"], "Taher A. Ghaleb");
    assert_eq!(json["identifier"][0], "arXiv:2604.03438");
    // The digest made the record; the paper is arXiv's. As "publisher" the digest was
    // named the publisher of every paper on it.
    assert!(json.get("publisher").is_none(), "{json}");
    assert_eq!(json["sdPublisher"]["name"], "paperboy example digest");
    // A journal reference as the parts a reference manager files: the whole of "Physics of
    // Fluids 36, 117158 (2024)" was the journal's name.
    let fluids = read(site.path().join("public/papers/2202.06515/index.html"));
    assert_eq!(
        meta(&fluids, "citation_journal_title"),
        ["Physics of Fluids"]
    );
    assert_eq!(meta(&fluids, "citation_volume"), ["36"]);
    // And search engines read the journal from the JSON-LD.
    assert_eq!(
        json_ld(&fluids)["isPartOf"],
        serde_json::json!({"@type": "Periodical", "name": "Physics of Fluids"})
    );
    assert_eq!(meta(&fluids, "citation_firstpage"), ["117158"]);
    // And its BibTeX cites the article, in the journal's year; as `@misc` a reference
    // manager filed it as a preprint. The key stays the first version's, as cited before.
    let bib = fluids.split("<pre>").nth(1).unwrap();
    let bib = html_escape::decode_html_entities(&bib[..bib.find("</pre>").unwrap()]).into_owned();
    assert!(bib.starts_with("@article{xu2022statistical,"), "{bib}");
    for field in [
        "journal={Physics of Fluids}",
        "volume={36}",
        "pages={117158}",
        "year={2024}",
        "eprint={2202.06515}",
    ] {
        assert!(bib.contains(field), "{field} in {bib}");
    }
    // A headline search engines read in full: a long title ends after a word, TeX turned.
    for (id, headline) in [
        (
            "2202.06515",
            "On the statistical theory of self-gravitating collisionless dark matter flow: Scale and redshift variation of…",
        ),
        (
            "2012.06822",
            // 110 characters once its "--" is a dash: whole.
            "Digital Twins Are Not Monozygotic – Cross-Replicating ADAS Testing in Two Industry-Grade Automotive Simulators",
        ),
    ] {
        let page = read(site.path().join(format!("public/papers/{id}/index.html")));
        let got = json_ld(&page)["headline"].as_str().unwrap().to_string();
        assert_eq!(got, headline);
        assert!(got.chars().count() <= 110);
    }

    let bib = html.split("<pre>").nth(1).unwrap();
    let bib = html_escape::decode_html_entities(&bib[..bib.find("</pre>").unwrap()]).into_owned();
    assert!(bib.starts_with("@misc{parsazadeh2026android,"), "{bib}");
    assert!(
        bib.contains("author={Hamid Parsazadeh and Taher A. Ghaleb and Safwat Hassan}"),
        "{bib}"
    );
    assert!(
        bib.contains("eprint={2604.03438}") && bib.contains("primaryClass={cs.SE}"),
        "{bib}"
    );
    assert!(
        bib.contains("archivePrefix={arXiv}")
            && bib.contains("url={https://arxiv.org/abs/2604.03438}")
    );
    // A journal paper cites its DOI.
    let oup = std::fs::read_dir(site.path().join("public/papers"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .find(|n| n.starts_with("doi-10.1093"))
        .unwrap();
    let oup_html = read(
        site.path()
            .join("public/papers")
            .join(&oup)
            .join("index.html"),
    );
    assert!(meta(&oup_html, "citation_doi")[0].starts_with("10.1093/bioinformatics/"));
    assert!(meta(&oup_html, "citation_arxiv_id").is_empty());
    // Its feed named no one (Bioinformatics' feed gives no authors): the BibTeX has no
    // author field rather than an empty one.
    assert!(meta(&oup_html, "citation_author").is_empty());
    let bib = oup_html.split("<pre>").nth(1).unwrap();
    assert!(bib.contains("title={") && !bib.contains("author="), "{bib}");
    // Its feed names no journal, and none is made up from the feed's title.
    assert!(meta(&oup_html, "citation_journal_title").is_empty());
    assert!(bib.starts_with("@misc{"), "{bib}");
    // bioRxiv's feed names its publication: a reference manager files its papers as
    // bioRxiv's, as bioRxiv's own pages and BibTeX do, not as web pages.
    let biorxiv = read(
        site.path()
            .join("public/papers/doi-10.1101-2025.04.11.648322/index.html"),
    );
    assert_eq!(meta(&biorxiv, "citation_journal_title"), ["bioRxiv"]);
    assert_eq!(json_ld(&biorxiv)["isPartOf"]["name"], "bioRxiv");
    let bib = biorxiv.split("<pre>").nth(1).unwrap();
    assert!(
        bib.starts_with("@article{li2025role,") && bib.contains("journal={bioRxiv}"),
        "{bib}"
    );
    // Nor an empty list in its JSON-LD, which reads as a paper by no one; nor an empty
    // abstract and no identifiers on a Nature item that has neither.
    assert!(json_ld(&oup_html).get("author").is_none());
    assert!(json_ld(&oup_html).get("isPartOf").is_none());
    let nature = json_ld(&read(
        site.path()
            .join("public/papers/item-13f85fece88eea7f/index.html"),
    ));
    assert!(
        nature.get("abstract").is_none() && nature.get("identifier").is_none(),
        "{nature}"
    );
    assert_eq!(nature["author"][0]["name"], "Tiannan Guo");
}

/// What a link preview and a reference manager read of a paper: its one-liner as text, not
/// TeX ("$\sim10^{49}$" was what a link preview showed), and each person's family
/// name whole ("Gouvea, Andre de" gave Andre de Gouvea the given names "Andre de").
#[test]
fn previews_read_text_not_tex_and_citations_keep_family_names_whole() {
    let site = built();
    // (2105.14026's one-liner had "$\sim10^{49}$"; its formula is in the headline now.)
    let html = read(site.path().join("public/papers/2008.01944/index.html"));
    let description = &meta(&html, "description")[0];
    assert!(
        description.contains("has no more than r '1's in each row") && !description.contains('$'),
        "{description}"
    );
    let og = format!("<meta property=\"og:description\" content=\"{description}");
    assert!(html_escape::decode_html_entities(&html).contains(&og));
    // Nature's subject feeds give no abstract, and there is no review to show: a preview
    // says who and when rather than nothing (30 of the example's pages said nothing).
    let html = read(
        site.path()
            .join("public/papers/item-13f85fece88eea7f/index.html"),
    );
    assert_eq!(
        meta(&html, "description"),
        ["By Tiannan Guo et al.; published 2025-02-26 at www.nature.com."]
    );
    // A comment's TeX quotes and an abstract's ties read as text.
    let html = read(site.path().join("public/papers/gr-qc-0103067/index.html"));
    assert!(
        html.contains("<dd>in: ”Gyros, Clocks, and Interferometers") && !html.contains("''"),
        "{html}"
    );
    let html = read(site.path().join("public/papers/1706.00679/index.html"));
    let shown = &html[html.find("<body").unwrap()..];
    assert!(
        shown.contains("(it\u{a0}detects") && !shown.contains('~'),
        "{shown}"
    );
    // A feed's counting parameter stays out of the links readers keep: bioRxiv's and OUP's
    // `?rss=1` was on 34 papers' article links, BibTeX and feed entries.
    let biorxiv = read(
        site.path()
            .join("public/papers/doi-10.1101-2025.04.04.647160/index.html"),
    );
    assert!(
        biorxiv.contains("href=\"https://www.biorxiv.org/content/10.1101/2025.04.04.647160v1\""),
        "{biorxiv}"
    );
    for file in walkdir::WalkDir::new(site.path().join("public")) {
        let file = file.unwrap();
        if file.file_type().is_file() {
            let bytes = std::fs::read(file.path()).unwrap();
            assert!(
                !bytes.windows(6).any(|w| w == b"?rss=1"),
                "{}",
                file.path().display()
            );
        }
    }
    let mut pages = 0;
    for page in std::fs::read_dir(site.path().join("public/papers")).unwrap() {
        let path = page.unwrap().path().join("index.html");
        if !path.is_file() {
            continue;
        }
        let html = read(path);
        let description = meta(&html, "description");
        assert!(
            description.len() == 1 && !description[0].trim().is_empty(),
            "{html}"
        );
        pages += 1;
    }
    assert!(pages > 300, "{pages} paper pages");

    let html = read(site.path().join("public/papers/hep-ph-0301050/index.html"));
    assert_eq!(
        meta(&html, "citation_author"),
        ["de Gouvea, Andre", "Murayama, Hitoshi"]
    );
    assert!(html.contains("@article{degouvea2003statistical,"));
    // A capitalised particle joins the family name, as arXiv's metadata has it.
    let html = read(
        site.path()
            .join("public/papers/cond-mat-0603029/index.html"),
    );
    assert_eq!(
        meta(&html, "citation_author"),
        ["Del Maestro, Adrian", "Rosenow, Bernd", "Sachdev, Subir"]
    );
    assert!(html.contains("@article{delmaestro2006"), "{html}");
}

/// arXiv's announcement feed lists a replaced paper under the day its new version was
/// announced; the example holds 27 such papers, 2103.07442 (v3 announced 2024-11-28) among
/// them. That day is not when the paper was published, and a reference manager that read
/// it would cite a 2021 paper as 2024.
#[test]
fn a_replaced_paper_from_the_announcement_feed_is_cited_by_its_id_s_month() {
    let site = built();
    let f = front(site.path(), "2103/2103.07442.md");
    assert_eq!(f["published"].to_string(), "2024-11-28T05:00:00Z");
    assert_eq!(f["version"].as_integer(), Some(3));
    let html = read(site.path().join("public/papers/2103.07442/index.html"));
    assert_eq!(meta(&html, "citation_date"), ["2021"]);
    assert_eq!(meta(&html, "citation_online_date"), ["2024/11/28"]);
    let json = json_ld(&html);
    assert_eq!(json["datePublished"], "2021-03");
    assert_eq!(json["dateModified"], "2024-11-28T05:00:00Z");
    let bib = html.split("<pre>").nth(1).unwrap();
    assert!(
        bib.starts_with("@misc{begun2021quark,") && bib.contains("year={2021}"),
        "{bib}"
    );
    // The page says what it knows: the month of v1, and the day of v3.
    assert!(
        html.contains("<dt>Published</dt><dd><time datetime=\"2021-03\">2021-03</time></dd>"),
        "published"
    );
    assert!(
        html.contains("<time datetime=\"2024-11-28T05:00:00Z\">2024-11-28</time> (v3)"),
        "updated"
    );
    // And it leads back to the week that listed the new version, as an announced paper's
    // page leads to its week.
    assert!(
        html.contains("<dt>New version in</dt><dd><a href=\"/digest/digests/2024-W48/#updated\">Week 48, 2024</a></dd>"),
        "new version's week"
    );
    let week = read(site.path().join("public/digests/2024-W48/index.html"));
    let card = &week[week.find("id=\"paper-2103.07442\"").expect("card")..];
    let card = &card[..card.find("</article>").unwrap()];
    assert!(
        card.contains("<time datetime=\"2021-03\">2021-03</time>"),
        "{card}"
    );
    // Atom's `published` is an instant: the entry leaves out the day it does not know.
    let feed = read(site.path().join("public/categories/hep-lat/atom.xml"));
    let entry = feed
        .split("<entry>")
        .find(|e| e.contains("/papers/2103.07442/"))
        .unwrap();
    assert!(!entry.contains("<published>"), "{entry}");
    assert!(entry.contains("<updated>2024-11-28T05:00:00Z</updated>"));
    // A paper the API gave with v1's day keeps it.
    let api = read(site.path().join("public/papers/2604.03438/index.html"));
    assert_eq!(meta(&api, "citation_date"), ["2026/04/03"]);
}

#[test]
fn math_is_mathml_on_pages_and_text_in_feeds() {
    let site = built();
    let page = read(site.path().join("public/papers/2306.03845/index.html"));
    let h1 = &page[page.find("<h1>").unwrap()..page.find("</h1>").unwrap()];
    assert!(h1.contains("<math"), "{h1}");
    assert!(h1.contains("Test: WebView-Oriented Testing"), "{h1}");
    assert!(!h1.contains('$'), "{h1}");
    // `$35,000` is money, not math.
    let money = read(site.path().join("public/papers/2104.12255/index.html"));
    let abs = &money[money.find("<section class=\"abstract-full\"").unwrap()..];
    let abs = &abs[..abs.find("</section>").unwrap()];
    assert!(abs.contains("$35,000") && !abs.contains("<math"), "{abs}");
    // Where markup cannot go (the tab, feeds), a small formula is its Unicode text.
    assert!(
        page.contains("<title>ωTest: WebView"),
        "the tab reads ωTest, not $ω$Test"
    );
    let atom = read(site.path().join("public/atom.xml"));
    assert!(!atom.contains("<math"));
    // Letters in a font Unicode has are those letters (`$\mathbb{Z}_2$` was left as TeX).
    let feed = read(site.path().join("public/categories/hep-th/atom.xml"));
    assert!(
        feed.contains("Chern character map on ℤ₂-equivariantized 7-Cohomotopy"),
        "{feed}"
    );
    // A feed's summary reads the card's lines as sentences: each ends once, a headline cut
    // short ("…") with no full stop after it.
    assert!(atom.contains("<summary type=\"text\">Emulator flakiness, not test code, decides whether Android CI runs instrumentation tests. A study of 4,518 open-source Android apps"));
    // (No headline of the example's newest papers is cut short now that a headline is a
    // whole statement: `sentence` in src/render/feeds.rs is tested on one.)
    assert!(!atom.contains("…."), "a cut headline takes no full stop");
    // So do the titles of the category feeds that list the paper.
    let feeds: Vec<String> = walkdir::WalkDir::new(site.path().join("public/categories"))
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name() == "atom.xml")
        .map(|e| read(e.path()))
        .filter(|f| f.contains("2306.03845"))
        .collect();
    assert!(!feeds.is_empty(), "a category feed lists 2306.03845");
    for f in &feeds {
        assert!(
            f.contains("<title>ωTest: WebView"),
            "a feed's title reads ωTest"
        );
        assert!(!f.contains("<math"));
    }
}

/// A week whose every group is small folds them into one, and with nothing beside it that
/// one is not "Other categories" (2017-W22: two papers, two categories).
#[test]
fn a_week_of_small_groups_is_one_group_of_all_categories() {
    let site = built();
    let week = read(site.path().join("public/digests/2017-W22/index.html"));
    let groups: Vec<&str> = week
        .split("<h2 id=\"group-")
        .skip(1)
        .map(|h| &h[h.find('>').unwrap() + 1..h.find(" <span").unwrap()])
        .collect();
    assert_eq!(groups, ["All categories"]);
    // Beside larger groups, the small ones are the other categories.
    let w48 = read(site.path().join("public/digests/2024-W48/index.html"));
    assert!(w48.contains(">Other categories <span class=\"count\">"));
}

#[test]
fn author_pages_and_related_papers() {
    let site = built();
    let public = site.path().join("public");
    let page = read(public.join("papers/2604.03438/index.html"));
    assert!(page.contains("<a href=\"/digest/authors/taher-a-ghaleb/\">Taher A. Ghaleb</a>"));
    let author = read(public.join("authors/taher-a-ghaleb/index.html"));
    assert!(author.contains("<h1>Taher A. Ghaleb</h1>"));
    assert!(author.contains("id=\"paper-2604.03438\""));
    // Related papers link to pages that exist.
    let related = page
        .split("<section class=\"related\"")
        .nth(1)
        .expect("related papers listed");
    let related = &related[..related.find("</section>").unwrap()];
    let links: Vec<&str> = related
        .split("href=\"/digest/")
        .skip(1)
        .map(|r| &r[..r.find('"').unwrap()])
        .collect();
    assert!(!links.is_empty() && links.len() <= 5, "{links:?}");
    for l in &links {
        assert!(public.join(l).join("index.html").is_file(), "{l}");
        assert_ne!(*l, "papers/2604.03438/");
    }
}

/// The answer of the site's own search.js, in Node, to `query`.
fn search(public: &std::path::Path, query: &str) -> serde_json::Value {
    let out = std::process::Command::new("node")
        .arg(common::repo().join("tests/browser/search_query.mjs"))
        .arg(format!("{}/search/", public.display()))
        .arg(public.join("search.js"))
        .arg(query)
        .output()
        .expect("node runs");
    common::assert_tool_ok(&out, "search_query.mjs");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_search_index_finds_a_paper_by_a_word_of_its_abstract_or_its_headline() {
    let site = built();
    let public = site.path().join("public");
    // "instrumentation" is in 2604.03438's abstract.
    let answer = search(&public, "instrumentation");
    let hit = answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["url"] == "/digest/papers/2604.03438/")
        .expect("the paper is found");
    assert!(
        hit["abstract"]
            .as_str()
            .unwrap()
            .contains("instrumentation")
    );
    // "flakiness" is only in the headline the editor wrote for it, which every card shows:
    // a reader searches for the words they saw.
    let answer = search(&public, "flakiness");
    let results = answer["results"].as_array().unwrap();
    let urls: Vec<&str> = results.iter().map(|r| r["url"].as_str().unwrap()).collect();
    assert!(
        urls.contains(&"/digest/papers/2604.03438/"),
        "a word of a headline: {urls:?}"
    );
    // The result carries the headline, for a snippet that shows the word it was found by.
    let hit = &results[urls
        .iter()
        .position(|u| *u == "/digest/papers/2604.03438/")
        .unwrap()];
    assert!(
        hit["headline"].as_str().unwrap().contains("flakiness"),
        "{hit}"
    );
    assert!(!hit["abstract"].as_str().unwrap().contains("flakiness"));
    // An id as a paper page labels it, or as arXiv links it, finds the paper: its words
    // "arxiv", "abs" and its version are in no paper's index.
    for (query, url) in [
        ("arXiv:1706.03762", "/digest/papers/1706.03762/"),
        ("1706.03762v7", "/digest/papers/1706.03762/"),
        (
            "https://arxiv.org/pdf/1706.03762v5",
            "/digest/papers/1706.03762/",
        ),
        ("arXiv:hep-ph/0301050v2", "/digest/papers/hep-ph-0301050/"),
    ] {
        let answer = search(&public, query);
        let urls: Vec<&str> = answer["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["url"].as_str().unwrap())
            .collect();
        assert_eq!(urls, [url], "{query}");
    }
    assert!(public.join("search/index.html").is_file());
    // Every index file stays small enough for one request on a phone.
    let biggest = walkdir::WalkDir::new(public.join("search"))
        .into_iter()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .max()
        .unwrap();
    assert!(biggest < 64 * 1024, "index files stay small: {biggest}");
}
