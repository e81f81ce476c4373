//! Atom feeds, the sitemap and robots.txt, written directly: their shape is fixed by
//! their specs, and every piece of feed text is escaped on the way out.

use super::views::Urls;
use crate::site::Site;
use quick_xml::escape::escape;

/// Text safe for XML 1.0: escaped, and without the control characters XML forbids.
pub fn xml_text(s: &str) -> String {
    let allowed = |c: char| {
        matches!(c, '\t' | '\n' | '\r')
            || (c >= ' '
                && !('\u{7f}'..='\u{9f}').contains(&c)
                && c != '\u{fffe}'
                && c != '\u{ffff}')
    };
    // Printable ASCII, the usual case, needs no look at its characters.
    let plain = s
        .bytes()
        .all(|b| (b' '..=b'~').contains(&b) || matches!(b, b'\t' | b'\n' | b'\r'));
    if plain || s.chars().all(allowed) {
        return escape(s).into_owned();
    }
    let cleaned: String = s.chars().filter(|&c| allowed(c)).collect();
    escape(cleaned.as_str()).into_owned()
}

pub struct FeedMeta<'a> {
    pub title: &'a str,
    pub subtitle: &'a str,
    /// Site-relative path of the feed itself.
    pub self_rel: &'a str,
    /// Site-relative path of the page the feed mirrors.
    pub alternate_rel: &'a str,
}

/// An Atom 1.0 feed of `site`'s papers `papers` (indexes, already newest first and capped).
pub fn atom(meta: &FeedMeta, site: &Site, papers: &[usize], urls: &Urls) -> anyhow::Result<String> {
    let updated = papers
        .iter()
        .map(|&i| site.papers[i].front.updated)
        .max()
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_else(|| "1970-01-01T00:00:00Z".into());
    let mut out = String::with_capacity(1024 + papers.len() * 2048);
    out.push_str("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    out.push_str("<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"en\">\n");
    out.push_str(&format!("  <title>{}</title>\n", xml_text(meta.title)));
    if !meta.subtitle.is_empty() {
        out.push_str(&format!(
            "  <subtitle>{}</subtitle>\n",
            xml_text(meta.subtitle)
        ));
    }
    let self_url = urls.permalink(meta.self_rel);
    out.push_str(&format!(
        "  <link rel=\"self\" type=\"application/atom+xml\" href=\"{}\"/>\n",
        xml_text(&self_url)
    ));
    out.push_str(&format!(
        "  <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n",
        xml_text(&urls.permalink(meta.alternate_rel))
    ));
    out.push_str(&format!("  <id>{}</id>\n", xml_text(&self_url)));
    out.push_str(&format!("  <updated>{updated}</updated>\n"));
    out.push_str(
        "  <generator uri=\"https://github.com/paperboy-ssg/paperboy\">paperboy</generator>\n",
    );
    for &i in papers {
        let p = &site.papers[i];
        let f = &p.front;
        let link = urls.permalink(&super::views::paper_rel(p));
        out.push_str("  <entry>\n");
        // A feed reader shows text: TeX's accents and dashes applied, small formulas as
        // Unicode, others as LaTeX.
        let title = super::math::readable_text(&f.title);
        out.push_str(&format!("    <title>{}</title>\n", xml_text(&title)));
        out.push_str(&format!(
            "    <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n",
            xml_text(&link)
        ));
        let abs = super::views::outbound_url(&f.links.abs);
        if !abs.is_empty() {
            out.push_str(&format!(
                "    <link rel=\"related\" type=\"text/html\" href=\"{}\"/>\n",
                xml_text(&abs)
            ));
        }
        out.push_str(&format!("    <id>{}</id>\n", xml_text(&link)));
        // Atom's `published` is an instant: a record that knows only the month of version
        // 1 (`FirstVersion::Month`) leaves it out rather than name a day it does not know.
        if let crate::paper::FirstVersion::Day(t) = f.first_version() {
            out.push_str(&format!(
                "    <published>{}</published>\n",
                t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            ));
        }
        out.push_str(&format!(
            "    <updated>{}</updated>\n",
            f.updated.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        ));
        if f.authors.is_empty() {
            out.push_str("    <author><name>unknown</name></author>\n");
        }
        // A person's name, as the author pages give it: not "Basanta Kumar Das et al.".
        for a in &f.authors {
            out.push_str(&format!(
                "    <author><name>{}</name></author>\n",
                xml_text(crate::site::byline::person(a).0)
            ));
        }
        for c in &f.categories {
            out.push_str(&format!("    <category term=\"{}\"/>\n", xml_text(c)));
        }
        // The card's headline and one-liner, said as the machine's where they are, then
        // the abstract; not a line the abstract then says again (an extractive review's
        // lines are its sentences).
        let review = super::views::review_view(&site.papers[i], urls);
        let abstract_text = site.abstract_of(i)?;
        // Compared as read: the abstract's "80.77\%" is the line's "80.77%".
        let abstract_read = super::math::readable_text(&abstract_text);
        let lead: Vec<(&str, bool)> = [
            (review.headline, review.headline_machine),
            (&review.summary, review.summary_machine),
        ]
        .into_iter()
        .filter(|(s, _)| {
            !s.is_empty() && !says_again(&abstract_read, &super::math::readable_text(s))
        })
        .collect();
        let summary = if lead.is_empty() && abstract_text.trim().is_empty() {
            // Nature's subject feeds give no abstract: who and when, not a blank item.
            super::views::byline_description_of(f)
        } else if lead.is_empty() {
            abstract_text.into_owned()
        } else {
            // Said as the machine's only where a line kept is.
            let machine = lead.iter().any(|&(_, machine)| machine);
            let lead: Vec<String> = lead.into_iter().map(|(s, _)| sentence(s)).collect();
            format!(
                "{}{}\n\n{abstract_text}",
                lead.join(" "),
                if machine { " (machine review)" } else { "" }
            )
        };
        if let Some(rel) = super::views::figure_rel(&site.papers[i]) {
            out.push_str(&format!(
                "    <link rel=\"enclosure\" type=\"image/webp\" href=\"{}\"/>\n",
                xml_text(&urls.permalink(&rel))
            ));
        }
        out.push_str(&format!(
            "    <summary type=\"text\">{}</summary>\n",
            xml_text(&super::math::readable_text(&summary))
        ));
        out.push_str("  </entry>\n");
    }
    out.push_str("</feed>\n");
    Ok(out)
}

pub const SITEMAP_MAX_URLS: usize = 30_000;

/// The site's URLs for the sitemap, in groups: each is split into parts on its own, so a
/// group that only grows at its end leaves its full parts as they were.
pub struct SitemapGroup {
    /// In the part's name: `sitemap-{name}{n}.xml`.
    pub name: &'static str,
    pub rels: Vec<String>,
}

/// The sitemap: one file, or past `max` URLs a sitemap index over numbered parts of each
/// group. Returns (site-relative path, contents) pairs.
pub fn sitemaps(groups: &[SitemapGroup], urls: &Urls, max: usize) -> Vec<(String, String)> {
    use rayon::prelude::*;
    let total: usize = groups.iter().map(|g| g.rels.len()).sum();
    if total <= max {
        let all = groups.iter().flat_map(|g| &g.rels);
        return vec![("sitemap.xml".into(), urlset(all, total, urls))];
    }
    let parts: Vec<(String, &[String])> = groups
        .iter()
        .flat_map(|g| {
            g.rels
                .chunks(max)
                .enumerate()
                .map(move |(n, chunk)| (format!("sitemap-{}{}.xml", g.name, n + 1), chunk))
        })
        .collect();
    let mut index = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for (name, _) in &parts {
        index.push_str(&format!(
            "  <sitemap><loc>{}</loc></sitemap>\n",
            xml_text(&urls.permalink(name))
        ));
    }
    index.push_str("</sitemapindex>\n");
    // A part is tens of thousands of URLs: the parts are written on all cores.
    let mut files: Vec<(String, String)> = parts
        .into_par_iter()
        .map(|(name, chunk)| (name, urlset(chunk.iter(), chunk.len(), urls)))
        .collect();
    files.insert(0, ("sitemap.xml".into(), index));
    files
}

fn urlset<'a>(rels: impl Iterator<Item = &'a String>, len: usize, urls: &Urls) -> String {
    let mut s = String::with_capacity(len * 80);
    s.push_str(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for rel in rels {
        s.push_str("  <url><loc>");
        s.push_str(&xml_text(&urls.permalink(rel)));
        s.push_str("</loc></url>\n");
    }
    s.push_str("</urlset>\n");
    s
}

pub fn robots(urls: &Urls) -> String {
    format!(
        "User-agent: *\nAllow: /\n\nSitemap: {}\n",
        urls.permalink("sitemap.xml")
    )
}

/// Whether `text` says `line` (a card's line, perhaps cut with "…" and its first letter
/// made a capital) word for word.
fn says_again(text: &str, line: &str) -> bool {
    let words = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    // Its "…", or the full stop a card gives a machine's one-liner, which the abstract's
    // sentence may not have at that place.
    let (text, line) = (words(text), words(line.trim_end_matches(['…', '.'])));
    // As whole words: "net gain" is not said by "magnet gains".
    let word_edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
    !line.is_empty()
        && text.match_indices(&line).any(|(at, _)| {
            word_edge(text[..at].chars().next_back())
                && word_edge(text[at + line.len()..].chars().next())
        })
}

/// A card's line as a sentence of a feed's summary: a headline cut short ("…") or one that
/// ends as a sentence does takes no full stop after it ("…." read as a typo).
fn sentence(line: &str) -> String {
    if line.ends_with(['.', '?', '!', '…']) {
        line.to_string()
    } else {
        format!("{line}.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_cut_short_takes_no_full_stop() {
        assert_eq!(
            sentence("We study the Chernoff-Stein exponent…"),
            "We study the Chernoff-Stein exponent…"
        );
        assert_eq!(
            sentence("Foo cuts latency by 42%"),
            "Foo cuts latency by 42%."
        );
        assert_eq!(sentence("Does it work?"), "Does it work?");
    }

    #[test]
    fn a_line_is_said_again_only_word_for_word() {
        let abstract_text =
            "We find a net gain. Specifically, the   proposed work shows 0.116 NED.";
        assert!(says_again(
            abstract_text,
            "The proposed work shows 0.116 NED"
        ));
        assert!(says_again(abstract_text, "We find a net…"));
        assert!(!says_again("Magnet gains were found.", "net gain"));
        assert!(!says_again(abstract_text, "The proposed work shows 0.11"));
        assert!(!says_again(abstract_text, "…"));
    }

    #[test]
    fn sitemap_splits_each_group_into_an_index() {
        let urls = Urls::new("https://example.org/d");
        let group = |name, n: usize| SitemapGroup {
            name,
            rels: (0..n).map(|i| format!("{name}/{i}/")).collect(),
        };
        let groups = [group("papers", 7), group("authors", 2)];
        let one = sitemaps(&groups, &urls, 10);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].1.matches("<url>").count(), 9);
        let split = sitemaps(&groups, &urls, 3);
        let names: Vec<&str> = split.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "sitemap.xml",
                "sitemap-papers1.xml",
                "sitemap-papers2.xml",
                "sitemap-papers3.xml",
                "sitemap-authors1.xml"
            ]
        );
        assert!(split[0].1.contains("<sitemapindex"));
        assert!(
            split[0]
                .1
                .contains("<loc>https://example.org/d/sitemap-authors1.xml</loc>")
        );
        // The last part of a group holds what is left of it, not the next group's first.
        assert_eq!(split[3].1.matches("<url>").count(), 1);
        assert_eq!(split[4].1.matches("<url>").count(), 2);
        assert!(
            split[1]
                .1
                .contains("<loc>https://example.org/d/papers/0/</loc>")
        );
    }

    #[test]
    fn xml_text_drops_forbidden_controls() {
        assert_eq!(xml_text("a\u{0}b\u{1b}c<&>\u{85}"), "abc&lt;&amp;&gt;");
    }
}
