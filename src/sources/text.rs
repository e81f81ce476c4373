//! Text clean-up shared by the feed parsers: HTML to plain text, author lists, dates.

use chrono::{DateTime, NaiveDate, Utc};
use regex::Regex;
use std::sync::LazyLock;

/// Feed HTML (escaped, CDATA or raw) to plain text: tags dropped, entities decoded,
/// white space folded. The result is text, to be escaped again wherever it is shown.
///
/// Blocks stay apart: words of adjacent blocks never run together ("processes.Availability"
/// would also be one sentence to the machine review). A structured abstract's headings,
/// short unpunctuated blocks before more text (`<div class="boxTitle">Motivation</div>`),
/// read as PubMed shows them ("Motivation: …"), and a first block that only says
/// "Abstract" is dropped: it labels the field, it is not part of it.
pub fn html_to_text(html: &str) -> String {
    if !html.contains('<') && !html.contains('&') {
        return super::xml::fold_whitespace(html);
    }
    blocks_to_text(html)
}

/// An abstract with the headings run into its text set apart, as `html_to_text` sets apart
/// those in tags ("Background: Amplicon sequencing is…"). bioRxiv's feeds drop the tags
/// upstream and give "BackgroundAmplicon sequencing is…", "…this gap. ResultsWe show…".
pub fn set_apart_run_in_headings(text: String) -> String {
    match RUN_IN_HEADING.replace_all(&text, "$lead$heading: $next") {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(set_apart) => set_apart,
    }
}

/// A journal feed's text with the characters it spells out in braces put back: bioRxiv
/// writes "{beta}III-tubulin", "{Delta}" and, for a character it cannot name,
/// "NH{square}{square}". A Greek letter's name becomes the letter; `{square}` becomes "□",
/// the sign for a character that is missing, rather than a word that search and related
/// papers would read. Other braces are left as they are: arXiv's TeX has `\mathcal{O}`.
pub fn spelled_out_characters(text: String) -> String {
    if !text.contains('{') {
        return text;
    }
    match SPELLED_OUT.replace_all(&text, |c: &regex::Captures| {
        let name = &c[1];
        match name {
            "square" => "□".to_string(),
            _ => greek_letter(name).map_or_else(|| c[0].to_string(), String::from),
        }
    }) {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(mended) => mended,
    }
}

static SPELLED_OUT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\{([A-Za-z]+)\}").expect("a valid pattern"));

/// The letter a Greek letter's name stands for: lower case for "beta", capital for "Delta".
fn greek_letter(name: &str) -> Option<char> {
    const NAMES: [&str; 24] = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
        "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi",
        "chi", "psi", "omega",
    ];
    let lower = name.to_ascii_lowercase();
    let at = NAMES.iter().position(|n| *n == lower)?;
    // Past rho both cases skip a place: the final sigma's in lower case, and U+03A2,
    // unassigned, in capitals.
    let small = char::from_u32(0x03B1 + at as u32 + u32::from(at >= 17))?;
    let capital = char::from_u32(0x0391 + at as u32 + u32::from(at >= 17))?;
    let first = name.chars().next()?;
    if name[1..].chars().any(|c| c.is_ascii_uppercase()) {
        return None;
    }
    Some(if first.is_ascii_uppercase() {
        capital
    } else {
        small
    })
}

/// At the text's start or after a sentence's end, a heading PubMed knows, then a capital
/// where a space should be. A name that starts with a heading at a sentence's start is
/// parted too ("SummaryStats is" reads "Summary: Stats is"): no feed here has one, and the
/// headings that most often start a name ("ContactNet", "DesignNet") are left out. The
/// machine review strips these headings (`extractive::SECTION_LABEL`): keep the lists alike.
static RUN_IN_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    const ONE: &str = concat!(
        r"(?:Abstract|Background|Motivation|Introduction|Objectives?|Aims?|Purpose|Rationale|",
        r"Importance|Significance|Methods?|Methodology|Results?|Findings|Interpretation|",
        r"Discussion|Conclusions?|Summary|Data [Ss]ummary|Impact [Ss]tatement|",
        r"Availability(?: and [Ii]mplementation)?|Supplementary [Ii]nformation)",
    );
    // Two may share a section: "Methods & ResultsThe target…".
    Regex::new(&format!(
        r"(?P<lead>^|[.?!] )(?P<heading>{ONE}(?: (?:&|and) {ONE})?)(?P<next>[A-Z][a-z]|A [a-z]|[A-Z]{{2,}}[^a-z])"
    ))
    .expect("a valid pattern")
});

fn blocks_to_text(html: &str) -> String {
    let cleaned = ammonia::Builder::empty()
        .clean(&mark_blocks(html))
        .to_string();
    let decoded = html_escape::decode_html_entities(&cleaned);
    // Each block's text, and whether it ended where a heading may end.
    let mut blocks: Vec<(String, bool)> = decoded
        .split_inclusive([HEADING_END, BLOCK_EDGE])
        .map(|piece| match piece.strip_suffix(HEADING_END) {
            Some(text) => (super::xml::fold_whitespace(text), true),
            None => (
                super::xml::fold_whitespace(piece.strip_suffix(BLOCK_EDGE).unwrap_or(piece)),
                false,
            ),
        })
        .filter(|(text, _)| !text.is_empty())
        .collect();
    if blocks.len() > 1 && matches!(blocks[0].0.as_str(), "Abstract" | "ABSTRACT" | "Abstract:") {
        blocks.remove(0);
    }
    let mut out = String::with_capacity(decoded.len());
    for (i, (text, may_be_heading)) in blocks.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(text);
        if *may_be_heading && i + 1 < blocks.len() && is_heading(text) {
            out.push(':');
        }
    }
    out
}

/// Where a block that may be a heading ends (`</div>`, `</p>`, `</hN>`), and where any
/// other block starts or ends: characters that survive the tags' removal and that feed
/// text hardly ever holds (where it does, they only part two words).
const HEADING_END: char = '\u{2029}';
const BLOCK_EDGE: char = '\u{2028}';
const HEADING_BLOCKS: &[&str] = &["div", "p", "h1", "h2", "h3", "h4", "h5", "h6"];

fn mark_blocks(html: &str) -> String {
    const BLOCKS: &[&str] = &[
        "address",
        "article",
        "aside",
        "blockquote",
        "br",
        "dd",
        "div",
        "dl",
        "dt",
        "figcaption",
        "figure",
        "footer",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "td",
        "th",
        "tr",
        "ul",
    ];
    let mut out = String::with_capacity(html.len() + 16);
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let tag = &rest[at + 1..];
        let closing = tag.starts_with('/');
        let name: String = tag[usize::from(closing)..]
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if BLOCKS.contains(&name.as_str()) {
            let heading = closing && HEADING_BLOCKS.contains(&name.as_str());
            out.push(if heading { HEADING_END } else { BLOCK_EDGE });
        }
        out.push('<');
        rest = tag;
    }
    out.push_str(rest);
    out
}

/// A block that reads as a heading: a few words, capitalized, with no punctuation.
fn is_heading(text: &str) -> bool {
    text.split_whitespace().count() <= 5
        && text.len() <= 48
        && text.chars().next().is_some_and(char::is_uppercase)
        && !text.contains(['.', ',', ':', ';', '?', '!', '(', ')'])
}

/// Splits a `dc:creator` string: "A One, B Two and C Three", or bioRxiv's
/// "Hou, N., Wu, Z." (family name, initials) which becomes "N. Hou", "Z. Wu".
pub fn split_authors(s: &str) -> Vec<String> {
    let s = latex_accents(&super::xml::fold_whitespace(s));
    let tokens: Vec<&str> = s
        .split([',', ';'])
        .flat_map(|t| t.split(" and "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        if i + 1 < tokens.len() && is_initials(tokens[i + 1]) {
            out.push(format!("{} {}", tokens[i + 1], t));
            i += 2;
        } else {
            out.push(t.to_string());
            i += 1;
        }
    }
    out
}

fn is_initials(t: &str) -> bool {
    !t.is_empty()
        && t.len() <= 12
        && t.split([' ', '-'])
            .filter(|w| !w.is_empty())
            .all(|w| w.ends_with('.') && w.chars().filter(|c| c.is_alphabetic()).count() <= 2)
}

/// RFC 3339, RFC 2822 or a bare date (midnight UTC).
pub fn parse_date(s: &str) -> Option<DateTime<Utc>> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Some(t.with_timezone(&Utc));
    }
    if let Ok(t) = DateTime::parse_from_rfc2822(s) {
        return Some(t.with_timezone(&Utc));
    }
    // RFC 822 with a zone name chrono does not know ("Thu, 28 Nov 2024 00:00:00 EST").
    if let Some((head, _zone)) = s.rsplit_once(' ')
        && let Ok(t) = chrono::NaiveDateTime::parse_from_str(head, "%a, %d %b %Y %H:%M:%S")
    {
        return Some(t.and_utc());
    }
    let date_part = s.get(..10).unwrap_or(s);
    NaiveDate::parse_from_str(date_part, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc())
}

/// A DOI from `doi:10.x/y`, `https://doi.org/10.x/y` or a bare `10.x/y`.
pub fn extract_doi(s: &str) -> Option<String> {
    let s = s.trim();
    let start = s.find("10.")?;
    let prefix = &s[..start];
    if !(prefix.is_empty()
        || prefix.ends_with("doi:")
        || prefix.ends_with("doi.org/")
        || prefix.ends_with("/doi/")
        || prefix.ends_with("dx.doi.org/"))
    {
        return None;
    }
    let doi: String = s[start..]
        .split(|c: char| c.is_whitespace() || c == '?' || c == '#')
        .next()?
        .to_string();
    let (registrant, suffix) = doi.split_once('/')?;
    if registrant.len() < 4 || suffix.is_empty() {
        return None;
    }
    Some(doi.trim_end_matches(['.', ',']).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_biorxiv_runs_into_the_text_are_set_apart() {
        // As bioRxiv's RSS gives them (fixtures/feeds/general/biorxiv_*).
        assert_eq!(
            set_apart_run_in_headings(html_to_text(
                "BackgroundAmplicon sequencing is popular. ResultsWe show it. Methods & ResultsThe tool. Impact statementWe \
                 have developed a tool. Data SummaryFor the purposes of review. ConclusionExo works. MotivationA gap. \
                 BackgroundRNA-seq is used."
            )),
            "Background: Amplicon sequencing is popular. Results: We show it. Methods & Results: The tool. Impact statement: \
             We have developed a tool. Data Summary: For the purposes of review. Conclusion: Exo works. Motivation: A gap. \
             Background: RNA-seq is used."
        );
        // Not inside a sentence, nor before a lower-case letter, a name's second capital or
        // a heading left out; a name at a sentence's start is parted ("Background: Subtraction").
        for text in [
            "We compare Background subtraction. BackgroundSubtraction works.",
            "A SummaryStats table. Resultsfor all. MethodsX is a journal. ContactNet ranks. DesignNet.",
        ] {
            let expected = text.replace("BackgroundSubtraction", "Background: Subtraction");
            assert_eq!(set_apart_run_in_headings(text.to_string()), expected);
        }
    }

    #[test]
    fn characters_biorxiv_spells_out_are_put_back() {
        // As fixtures/feeds/general/biorxiv_bioinformatics_2025-04-13_rss1.xml gives them.
        assert_eq!(
            spelled_out_characters(
                "a {beta}III-tubulin monomer, {beta}-sheets, {Delta}G, {omega}, {Sigma}, \
                 {sigma} and {tau} (NH{square}{square}, NO{square}{square}, urea)"
                    .to_string()
            ),
            "a βIII-tubulin monomer, β-sheets, ΔG, ω, Σ, σ and τ (NH□□, NO□□, urea)"
        );
        // Not a Greek letter's name, or not as bioRxiv writes one: as it was.
        for text in [
            "O(n) as \\mathcal{O}",
            "{x} and {RW}",
            "{BETA} {bEta}",
            "{square root}",
        ] {
            assert_eq!(spelled_out_characters(text.to_string()), text);
        }
    }

    #[test]
    fn authors() {
        assert_eq!(
            split_authors("Hou, N., Wu, Z., Yu, Y."),
            vec!["N. Hou", "Z. Wu", "Y. Yu"]
        );
        assert_eq!(
            split_authors("Jun Cui, Ana B. Ramírez and Tom Götz"),
            vec!["Jun Cui", "Ana B. Ramírez", "Tom Götz"]
        );
    }

    #[test]
    fn html() {
        assert_eq!(
            html_to_text("Cells &amp; <script>alert(1)</script>more <i>in vivo</i>"),
            "Cells & more in vivo"
        );
        // OUP's structured abstracts: the label dropped, headings as headings, and the
        // sections' sentences apart.
        assert_eq!(
            html_to_text(
                "<span class=\"paragraphSection\"><div class=\"boxTitle\">Abstract</div>\
                 <div class=\"boxTitle\">Summary</div>Cells differ.<div class=\"boxTitle\">\
                 Availability and Implementation</div>On <a href=\"https://github.com/x\">\
                 GitHub</a>.</span>"
            ),
            "Summary: Cells differ. Availability and Implementation: On GitHub."
        );
        // Blocks that are not headings stay as they were, apart.
        assert_eq!(
            html_to_text("<ul><li>Fast</li><li>Small</li></ul><p>It works.</p><p>Done</p>"),
            "Fast Small It works. Done"
        );
        assert_eq!(html_to_text("<p>Abstract</p>"), "Abstract");
        assert_eq!(
            html_to_text("<p>Abstract interpretation of C<sub>2</sub> code.</p>"),
            "Abstract interpretation of C2 code."
        );
        assert_eq!(html_to_text("one<br>two"), "one two");
    }

    #[test]
    fn dois() {
        assert_eq!(
            extract_doi("doi:10.1101/2025.04.07.647590").unwrap(),
            "10.1101/2025.04.07.647590"
        );
        assert_eq!(
            extract_doi("http://doi.org/10.1093/bioinformatics/btaf119").unwrap(),
            "10.1093/bioinformatics/btaf119"
        );
        assert!(extract_doi("https://example.org/v10.2/x").is_none());
    }

    #[test]
    fn dates() {
        assert_eq!(
            parse_date("Thu, 28 Nov 2024 00:00:00 -0500")
                .unwrap()
                .to_rfc3339(),
            "2024-11-28T05:00:00+00:00"
        );
        assert!(parse_date("2025-04-12").is_some());
        assert!(parse_date("garbage").is_none());
    }
}

/// LaTeX accents in names (`Andr\'e`, `Kra{\ss}`, `\"{o}`) as the letters they stand for,
/// as pages show TeX text (one reader of it for both). Anything it does not know is left
/// as it was.
pub fn latex_accents(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    crate::render::tex_text::push_plain(&mut out, s);
    out
}

#[cfg(test)]
mod latex_tests {
    use super::latex_accents;

    #[test]
    fn accents() {
        assert_eq!(latex_accents("Andr\\'e"), "André");
        assert_eq!(latex_accents("Kra{\\ss}"), "Kraß");
        assert_eq!(latex_accents("Al\\'an Aspuru-Guzik"), "Alán Aspuru-Guzik");
        assert_eq!(latex_accents("G\\\"{o}tz"), "Götz");
        assert_eq!(latex_accents("\\v{S}imon"), "Šimon");
        assert_eq!(latex_accents("plain"), "plain");
        assert_eq!(latex_accents("50\\%"), "50%");
        assert_eq!(latex_accents("\\foo{x}"), "\\foo{x}");
        // One letter each, as the page's own TeX reader composes them.
        assert_eq!(
            latex_accents("Ko\\'nczak, Przemys{\\l}aw"),
            "Kończak, Przemysław"
        );
        assert_eq!(latex_accents("Ko\\'nczak").chars().count(), 7);
    }
}
