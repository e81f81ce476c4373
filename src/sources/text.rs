//! Text clean-up shared by the feed parsers: HTML to plain text, author lists, dates.

use chrono::{DateTime, NaiveDate, Utc};

/// Feed HTML (escaped, CDATA or raw) to plain text: tags dropped, entities decoded,
/// white space folded. The result is text, to be escaped again wherever it is shown.
pub fn html_to_text(html: &str) -> String {
    if !html.contains('<') && !html.contains('&') {
        return super::xml::fold_whitespace(html);
    }
    // Block-level ends become spaces so words from adjacent blocks do not run together.
    let spaced = html
        .replace("</div>", "</div> ")
        .replace("</p>", "</p> ")
        .replace("<br>", " ")
        .replace("<br/>", " ")
        .replace("<br />", " ");
    let cleaned = ammonia::Builder::empty().clean(&spaced).to_string();
    let decoded = html_escape::decode_html_entities(&cleaned);
    super::xml::fold_whitespace(&decoded)
}

/// Splits a `dc:creator` string: "A One, B Two and C Three", or bioRxiv's
/// "Hou, N., Wu, Z." (family name, initials) which becomes "N. Hou", "Z. Wu".
pub fn split_authors(s: &str) -> Vec<String> {
    let s = super::xml::fold_whitespace(s);
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
    if let Some((head, _zone)) = s.rsplit_once(' ') {
        if let Ok(t) = chrono::NaiveDateTime::parse_from_str(head, "%a, %d %b %Y %H:%M:%S") {
            return Some(t.and_utc());
        }
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
            html_to_text("<div>Abstract</div>Cells &amp; <script>alert(1)</script>more"),
            "Abstract Cells & more"
        );
    }

    #[test]
    fn dois() {
        assert_eq!(extract_doi("doi:10.1101/2025.04.07.647590").unwrap(), "10.1101/2025.04.07.647590");
        assert_eq!(extract_doi("http://doi.org/10.1093/bioinformatics/btaf119").unwrap(), "10.1093/bioinformatics/btaf119");
        assert!(extract_doi("https://example.org/v10.2/x").is_none());
    }

    #[test]
    fn dates() {
        assert_eq!(
            parse_date("Thu, 28 Nov 2024 00:00:00 -0500").unwrap().to_rfc3339(),
            "2024-11-28T05:00:00+00:00"
        );
        assert!(parse_date("2025-04-12").is_some());
        assert!(parse_date("garbage").is_none());
    }
}
