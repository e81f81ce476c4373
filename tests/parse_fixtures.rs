//! Every shared feed fixture, through the real parsers.

mod common;

use paperboy::config::SourceKind;
use paperboy::paper::AnnounceType;
use paperboy::sources::{ParseContext, ParsedFeed, parse_feed};

fn ctx() -> ParseContext {
    ParseContext::new("test feed", "2026-11-22T00:00:00Z".parse().unwrap())
}

fn parse(dir: &std::path::Path, rel: &str) -> anyhow::Result<(SourceKind, ParsedFeed)> {
    parse_feed(&common::fixture_bytes(dir, rel), None, &mut ctx())
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn every_fixture_parses_or_fails_cleanly() {
    let dir = need_fixtures!();
    let mut seen = 0;
    for entry in walkdir::WalkDir::new(&dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "xml") {
            continue;
        }
        seen += 1;
        let bytes = std::fs::read(entry.path()).unwrap();
        let result = std::panic::catch_unwind(|| parse_feed(&bytes, None, &mut ctx()));
        let name = entry.file_name().to_string_lossy().into_owned();
        let result = result.unwrap_or_else(|_| panic!("{name}: the parser panicked"));
        match result {
            Ok((_, feed)) => {
                for p in &feed.papers {
                    assert!(!p.id.as_str().is_empty(), "{name}: paper without id");
                    assert!(
                        !p.title.contains('\u{fffd}') || name.contains("invalid"),
                        "{name}: {}",
                        p.title
                    );
                }
            }
            Err(e) => {
                let msg = format!("{e:#}");
                assert!(!msg.is_empty());
                // Only the malformed set and the arXiv error answer may fail.
                assert!(
                    entry.path().to_string_lossy().contains("/malformed/")
                        || name.contains("error_entry"),
                    "{name} should parse: {msg}"
                );
            }
        }
    }
    assert_eq!(seen, 36, "the fixture set has 36 feeds");
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn arxiv_api_2026_hundred_entries() {
    let dir = need_fixtures!();
    let (kind, feed) = parse(
        &dir,
        "arxiv_api/api_2026-04_query_all-testing_100entries.xml",
    )
    .unwrap();
    assert_eq!(kind, SourceKind::Arxiv);
    assert_eq!(feed.papers.len(), 100);
    assert!(
        feed.papers
            .iter()
            .all(|p| !p.title.is_empty() && !p.authors.is_empty())
    );
    assert!(
        feed.papers
            .iter()
            .all(|p| p.links.pdf.starts_with("https://arxiv.org/pdf/"))
    );
    assert!(feed.papers.iter().any(|p| !p.doi.is_empty()));
    assert!(feed.papers.iter().any(|p| !p.comment.is_empty()));
    assert!(feed.papers.iter().any(|p| !p.journal_ref.is_empty()));
    // Real UTF-8 names arrive intact.
    let names: Vec<&String> = feed.papers.iter().flat_map(|p| &p.authors).collect();
    assert!(
        names
            .iter()
            .any(|n| n.contains("Ramírez") || n.contains("Götz")),
        "{names:?}"
    );
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn arxiv_api_legacy_wrapped_and_old_style_ids() {
    let dir = need_fixtures!();
    let (_, feed) = parse(
        &dir,
        "arxiv_api/api_2016-10_query_au_del_maestro_10entries.xml",
    )
    .unwrap();
    assert_eq!(feed.papers.len(), 10);
    for p in &feed.papers {
        assert!(
            !p.title.contains('\n') && !p.title.contains("  "),
            "unwrapped: {:?}",
            p.title
        );
        assert!(!p.abstract_text.starts_with(' '));
    }
    assert!(
        feed.papers
            .iter()
            .any(|p| p.id.as_str().starts_with("cond-mat/"))
    );
    let (_, feed) = parse(
        &dir,
        "arxiv_api/api_2026-05_idlist_astro-ph_0601001_oldstyle_id.xml",
    )
    .unwrap();
    let p = &feed.papers[0];
    assert_eq!(p.id.as_str(), "astro-ph/0601001");
    assert_eq!(p.id.content_path(), "0601/astro-ph-0601001.md");
    assert!(!p.journal_ref.is_empty() && !p.comment.is_empty());
    assert!(
        p.abstract_text.contains('<'),
        "&lt; decoded: {}",
        p.abstract_text
    );
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn arxiv_api_blank_entries_error_entry_zero_and_title_zero() {
    let dir = need_fixtures!();
    let (_, feed) = parse(
        &dir,
        "arxiv_api/api_2025-08_idlist_4ids_missing_blank_entries.xml",
    )
    .unwrap();
    assert_eq!((feed.papers.len(), feed.blank_entries), (1, 3));
    let (_, feed) = parse(&dir, "arxiv_api/api_2025-11_idlist_4ids_missing.xml").unwrap();
    let p = &feed.papers[0];
    // Nov 2025 links carry only href: PDF told apart by URL.
    assert!(p.links.pdf.contains("/pdf/"), "{:?}", p.links);
    assert!(p.links.abs.contains("/abs/"));
    let (_, feed) = parse(
        &dir,
        "arxiv_api/api_2026-04_idlist_0000.0000_zero_results.xml",
    )
    .unwrap();
    assert!(feed.papers.is_empty());
    let (_, feed) = parse(
        &dir,
        "arxiv_api/api_2026-04_idlist_2104.12255v1_title_is_0.xml",
    )
    .unwrap();
    assert_eq!(feed.papers[0].title, "0");
    assert!(feed.papers[0].abstract_text.contains("$35,000"));
    let err = parse(
        &dir,
        "arxiv_api/api_2026-04_idlist_abc_error_entry_http400.xml",
    )
    .unwrap_err();
    assert!(
        format!("{err:#}").contains("incorrect id format for abc"),
        "{err:#}"
    );
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn arxiv_rss_and_atom_announcements() {
    let dir = need_fixtures!();
    let (kind, feed) = parse(
        &dir,
        "arxiv_rss/arxiv_rss_20archives_2024-11-28_sliceA_70items.xml",
    )
    .unwrap();
    assert_eq!(kind, SourceKind::ArxivRss);
    assert_eq!(feed.papers.len(), 70);
    let count = |t| {
        feed.papers
            .iter()
            .filter(|p| p.announce_type == Some(t))
            .count()
    };
    assert_eq!(
        (
            count(AnnounceType::New),
            count(AnnounceType::Cross),
            count(AnnounceType::Replace)
        ),
        (40, 5, 25)
    );
    for p in &feed.papers {
        assert!(
            !p.abstract_text.starts_with("arXiv:"),
            "prefix stripped: {}",
            p.abstract_text
        );
        assert!(!p.abstract_text.contains("Announce Type"));
        assert_eq!(
            p.announced.unwrap().to_rfc3339(),
            "2024-11-28T05:00:00+00:00"
        );
    }
    assert!(feed.papers.iter().any(|p| p.version > 1));
    assert!(
        feed.papers.iter().any(|p| p.authors.len() > 3),
        "comma-joined dc:creator split"
    );
    assert!(
        feed.papers
            .iter()
            .any(|p| !p.doi.is_empty() && !p.doi.contains(' '))
    );

    let (kind, feed) = parse(&dir, "arxiv_rss/arxiv_atom_cs.AI_2025-08-20_86entries.xml").unwrap();
    assert_eq!(kind, SourceKind::ArxivRss);
    assert_eq!(feed.papers.len(), 86);
    let count = |t| {
        feed.papers
            .iter()
            .filter(|p| p.announce_type == Some(t))
            .count()
    };
    assert_eq!(
        (count(AnnounceType::New), count(AnnounceType::Cross)),
        (41, 45)
    );
    assert!(feed.papers.iter().all(|p| !p.authors.is_empty()));
    assert!(
        !feed
            .papers
            .iter()
            .flat_map(|p| &p.authors)
            .any(|a| a.contains("\\'")),
        "LaTeX accents read"
    );

    let (_, feed) = parse(
        &dir,
        "arxiv_rss/arxiv_rss_test_2024-11-28_empty_channel.xml",
    )
    .unwrap();
    assert!(feed.papers.is_empty(), "an empty day is not an error");
}

/// An arXiv paper in a journal's feed, linked by its HTML rendition and arXiv's DOI, is
/// not filed as the feed's journal's.
#[test]
fn an_arxiv_paper_in_a_journals_feed_gets_no_journal_name() {
    let feed = br#"<rss xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/" version="2.0"><channel>
<title>Some journal</title><prism:publicationName>Foo Letters</prism:publicationName>
<item><title>From arXiv</title><link>https://arxiv.org/html/2502.01234v1</link>
<prism:doi>10.48550/arXiv.2502.01234</prism:doi><prism:publicationName>Foo Letters</prism:publicationName></item>
<item><title>From Foo</title><link>https://foo.example/a/1</link><prism:doi>10.1234/foo.1</prism:doi></item>
</channel></rss>"#;
    let (_, parsed) = parse_feed(feed, None, &mut ctx()).unwrap();
    let journals: Vec<(&str, &str)> = parsed
        .papers
        .iter()
        .map(|p| (p.title.as_str(), p.journal_ref.as_str()))
        .collect();
    assert_eq!(journals, [("From arXiv", ""), ("From Foo", "Foo Letters")]);
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn journal_feeds() {
    let dir = need_fixtures!();
    let (kind, feed) = parse(&dir, "general/biorxiv_bioinformatics_2025-04-13_rss1.xml").unwrap();
    assert_eq!(kind, SourceKind::Feed);
    assert_eq!(feed.papers.len(), 30);
    let p = &feed.papers[0];
    assert_eq!(p.doi, "10.1101/2025.04.07.647590");
    assert_eq!(p.id.as_str(), "doi-10.1101-2025.04.07.647590");
    assert!(p.title.starts_with("SpatioCell") && !p.title.ends_with(' '));
    assert_eq!(
        p.links.abs,
        "https://www.biorxiv.org/content/10.1101/2025.04.07.647590v1?rss=1"
    );
    assert_eq!(p.authors[0], "N. Hou");
    // The channel names the publication (`prism:publicationName`): every item is bioRxiv's,
    // which their pages tell reference managers.
    assert!(
        feed.papers.iter().all(|p| p.journal_ref == "bioRxiv"),
        "{:?}",
        feed.papers
            .iter()
            .map(|p| &p.journal_ref)
            .collect::<Vec<_>>()
    );
    // A configured `journal` is for a feed that names none: bioRxiv's own name stands.
    let bytes = common::fixture_bytes(&dir, "general/biorxiv_bioinformatics_2025-04-13_rss1.xml");
    let mut configured = ParseContext {
        journal: Some("Bioinformatics".into()),
        ..ctx()
    };
    let (_, named) = parse_feed(&bytes, None, &mut configured).unwrap();
    assert_eq!(named.papers.len(), 30);
    assert!(named.papers.iter().all(|p| p.journal_ref == "bioRxiv"));
    // bioRxiv runs a structured abstract's headings into its text ("BackgroundAmplicon");
    // they read as the OUP feed's below do.
    let amplicon = feed
        .papers
        .iter()
        .find(|p| p.doi == "10.1101/2025.04.10.648097")
        .unwrap();
    assert!(
        amplicon
            .abstract_text
            .starts_with("Background: Amplicon sequencing is"),
        "{}",
        amplicon.abstract_text
    );
    let run_in =
        regex::Regex::new(r"\b(?:Background|Results|Conclusions?|Methods)[A-Z][a-z]").unwrap();
    for p in &feed.papers {
        assert!(!run_in.is_match(&p.abstract_text), "{}", p.abstract_text);
    }
    // bioRxiv spells out characters in braces: a reader sees the letters, and the one it
    // cannot name as a missing character, not as the word "square".
    let all: String = feed
        .papers
        .iter()
        .map(|p| format!("{} {}\n", p.title, p.abstract_text))
        .collect();
    assert!(all.contains("a βIII-tubulin monomer"), "{all}");
    assert!(all.contains("(NH□□, NO□□, urea)"), "{all}");
    assert!(
        !all.contains("{beta}") && !all.contains("{square}"),
        "{all}"
    );

    let (_, feed) = parse(
        &dir,
        "general/oup_bioinformatics_openaccess_2025-03-22_rss2.xml",
    )
    .unwrap();
    assert_eq!(feed.papers.len(), 4);
    // OUP's feed names no journal ("Bioinformatics Open Access" is the feed's title):
    // none is made up; a source's `journal` says it.
    assert!(feed.papers.iter().all(|p| p.journal_ref.is_empty()));
    let bytes = common::fixture_bytes(
        &dir,
        "general/oup_bioinformatics_openaccess_2025-03-22_rss2.xml",
    );
    let mut configured = ParseContext {
        journal: Some("Bioinformatics".into()),
        ..ctx()
    };
    let (_, named) = parse_feed(&bytes, None, &mut configured).unwrap();
    assert_eq!(named.papers.len(), 4);
    assert!(
        named
            .papers
            .iter()
            .all(|p| p.journal_ref == "Bioinformatics")
    );
    for p in &feed.papers {
        assert!(p.doi.starts_with("10.1093/bioinformatics/"), "{}", p.doi);
        assert!(
            !p.abstract_text.contains('<'),
            "raw HTML stripped: {}",
            p.abstract_text
        );
        // A structured abstract reads as PubMed shows one: no "Abstract" label, each
        // section's heading before its text, and no section run into the next.
        assert!(
            p.abstract_text.starts_with("Summary: ") || p.abstract_text.starts_with("Motivation: "),
            "{}",
            p.abstract_text
        );
        assert!(
            p.abstract_text
                .contains(" Supplementary information: Supplementary data are available"),
            "{}",
            p.abstract_text
        );
    }
    let cyto = feed
        .papers
        .iter()
        .find(|p| p.title.starts_with("CytoSimplex"))
        .unwrap();
    assert!(cyto.abstract_text.contains(
        "developmental processes. Availability and Implementation: The R version of CytoSimplex \
         is available on Github at https://github.com/welch-lab/CytoSimplex."
    ));

    let (_, feed) = parse(
        &dir,
        "general/nature_subject_bioinformatics_2025-03-19_atom.xml",
    )
    .unwrap();
    assert_eq!(feed.papers.len(), 30);
    assert!(
        feed.papers
            .iter()
            .all(|p| p.abstract_text.is_empty()
                && p.links.abs.starts_with("https://www.nature.com/"))
    );

    let (_, feed) = parse(&dir, "general/inovacaotecnologica_2020_rss2_iso-8859-1.xml").unwrap();
    assert!(
        feed.papers[0].title.contains('ç') || feed.papers[0].abstract_text.contains('ç'),
        "{:?}",
        feed.papers[0].title
    );

    let (_, feed) = parse(&dir, "general/intertwingly_blog_2012_atom.xml").unwrap();
    // Relative links resolved against the feed's own address.
    assert!(
        feed.papers.iter().all(|p| p.links.abs.starts_with("http")),
        "{:?}",
        feed.papers[0].links
    );
}

#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn malformed_cases_salvage_or_name_the_position() {
    let dir = need_fixtures!();
    let m = |name: &str| parse(&dir, &format!("malformed/{name}"));
    // Truncated download: the whole entries before the cut are kept, with a warning.
    let (_, feed) = m("real_arxiv_atom_cs.AI_truncated_mid_entry.xml").unwrap();
    assert_eq!(feed.papers.len(), 4);
    assert!(
        feed.warnings.iter().any(|w| w.contains("line 69")),
        "{:?}",
        feed.warnings
    );
    // Not a feed at all.
    let err = format!(
        "{:#}",
        m("real_html_document_moved_instead_of_feed.xml").unwrap_err()
    );
    assert!(err.contains("not a feed"), "{err}");
    let err = format!("{:#}", m("fp_rss_empty_document.xml").unwrap_err());
    assert!(err.contains("empty"), "{err}");
    // Broken XML with nothing before it: the error says where.
    let err = format!("{:#}", m("fp_rss_incomplete_cdata_eof.xml").unwrap_err());
    assert!(err.contains("line 13"), "{err}");
    // A bare & in one link does not cost the other items.
    let (_, feed) = m("nodefp_unescaped_ampersand_in_link.xml").unwrap();
    assert_eq!(feed.papers.len(), 3);
    // Undeclared HTML entities are read, with a warning.
    let (_, feed) = m("fp_entity_nbsp_undeclared.xml").unwrap();
    assert!(feed.warnings.iter().any(|w| w.contains("&nbsp;")));
}

/// Each of the 20 malformed feeds, with what a reader of the file expects: the papers its
/// whole items hold (counted in the fixture: `grep -c '<item\|<entry'`, less a cut-off
/// entry), or an error that says what is wrong.
#[test]
#[ignore = "needs the shared fixtures; scripts/test runs it"]
fn each_malformed_feed_salvages_its_whole_items_or_says_why() {
    let dir = need_fixtures!();
    enum Want {
        Papers(usize),
        Error(&'static str),
    }
    use Want::*;
    let cases = [
        // `</rss` never closed, on line 6, and no item before it to keep.
        ("fp_aaa_illformed_unterminated_end_tag.xml", Error("line 6")),
        ("fp_always_strip_doctype_xhtml.xml", Papers(0)),
        ("fp_bogus_encoding_decl.xml", Papers(0)),
        ("fp_demoronize-1_c1_control_bytes.xml", Papers(1)),
        ("fp_double_encoded_html.xml", Papers(1)),
        ("fp_entity_alpha_undeclared.xml", Papers(0)),
        ("fp_entity_hellip_undeclared.xml", Papers(0)),
        ("fp_entity_nbsp_undeclared.xml", Papers(0)),
        ("fp_high_bit_date_iso-8859-7.xml", Papers(0)),
        // Its only item opens with `<item` and no `>`; the parser stops at line 13.
        (
            "fp_htmlish_internal_dtd_entity_broken_tag.xml",
            Error("line 13"),
        ),
        // No item, and `</rss` unterminated on line 10.
        ("fp_invalid_bytes_after_utf8_bom.xml", Error("line 10")),
        ("fp_koi8r_no_encoding_decl.xml", Papers(1)),
        ("fp_rss_empty_document.xml", Error("empty")),
        ("fp_rss_incomplete_cdata_eof.xml", Error("line 13")),
        ("fp_rss_item_description_naked_markup.xml", Papers(1)),
        ("fp_undeclared_namespace_prefix.xml", Papers(0)),
        ("nodefp_unescaped_ampersand_in_link.xml", Papers(3)),
        ("real_arxiv_atom_cs.AI_truncated_mid_entry.xml", Papers(4)),
        (
            "real_html_document_moved_instead_of_feed.xml",
            Error("not a feed"),
        ),
        // An entry with nothing in it but an empty author is no paper (and is said).
        ("rssparser_atom_entry_empty_author_only.xml", Papers(0)),
    ];
    let on_disk = std::fs::read_dir(dir.join("malformed")).unwrap().count();
    assert_eq!(
        on_disk,
        cases.len(),
        "a malformed fixture without its case here"
    );
    let mut wrong = Vec::new();
    for (name, want) in cases {
        let got = parse(&dir, &format!("malformed/{name}"));
        let ok = match (&want, &got) {
            (Papers(n), Ok((_, feed))) => feed.papers.len() == *n,
            (Error(text), Err(e)) => format!("{e:#}").contains(text),
            _ => false,
        };
        if !ok {
            wrong.push(format!(
                "{name}: got {}",
                match &got {
                    Ok((_, f)) => format!("{} papers, warnings {:?}", f.papers.len(), f.warnings),
                    Err(e) => format!("error {e:#}"),
                }
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
