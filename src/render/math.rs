//! LaTeX math in feed text (`$\mu$path`, `$O(n|m|)$`) rendered on the server to MathML,
//! so pages need no JavaScript. Text outside math is HTML-escaped; a `$` that does not
//! open math (`$35,000`) stays money; math that does not parse stays as its source.

use pulldown_latex::{Parser, RenderConfig, Storage, push_mathml};

/// Feed text as HTML with its math as MathML.
pub fn text_with_math(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    let mut rest = s;
    while let Some((before, math, after)) = next_math(rest) {
        crate::render::escape_html_into(&mut out, before);
        match to_mathml(math) {
            Some(mathml) => out.push_str(&mathml),
            None => crate::render::escape_html_into(&mut out, &format!("${math}$")),
        }
        rest = after;
    }
    crate::render::escape_html_into(&mut out, rest);
    out
}

/// Finds the next `$…$` span by the rules Pandoc uses: the opening `$` is followed by a
/// non-space, the closing one is preceded by a non-space and not followed by a digit, and
/// `\$` is a literal dollar.
fn next_math(s: &str) -> Option<(&str, &str, &str)> {
    let bytes = s.as_bytes();
    let mut i = 0;
    // Most text has no `$` at all: jump from one to the next.
    while let Some(found) = memchr::memchr(b'$', &bytes[i..]) {
        i += found;
        if i == 0 || bytes[i - 1] != b'\\' {
            let open = i;
            let body_start = open + 1;
            if body_start < bytes.len()
                && !bytes[body_start].is_ascii_whitespace()
                && bytes[body_start] != b'$'
            {
                let mut j = body_start;
                while let Some(found) = memchr::memchr(b'$', &bytes[j..]) {
                    j += found;
                    if bytes[j - 1] != b'\\' {
                        let closes = !bytes[j - 1].is_ascii_whitespace()
                            && !bytes.get(j + 1).is_some_and(|b| b.is_ascii_digit());
                        if closes {
                            return Some((&s[..open], &s[body_start..j], &s[j + 1..]));
                        }
                        break;
                    }
                    j += 1;
                }
            }
        }
        i += 1;
    }
    None
}

/// MathML for one formula, or None when it does not parse.
pub fn to_mathml(latex: &str) -> Option<String> {
    let storage = Storage::new();
    let events: Vec<_> = Parser::new(latex, &storage).collect();
    if events.iter().any(|e| e.is_err()) {
        return None;
    }
    let mut out = String::new();
    // No <annotation>: pulldown-latex writes it without escaping the source.
    push_mathml(&mut out, events.into_iter(), RenderConfig::default()).ok()?;
    let out = mu_to_em(&escape_text_nodes(&out));
    // Feed text is untrusted: if anything tag-like survived into the markup, show source.
    let lower = out.to_ascii_lowercase();
    if lower.contains("<script") || lower.contains("javascript:") || has_event_attribute(&lower) {
        return None;
    }
    Some(out)
}

const MATHML_ELEMENTS: &[&str] = &[
    "math",
    "semantics",
    "annotation",
    "mrow",
    "mi",
    "mo",
    "mn",
    "ms",
    "mtext",
    "mspace",
    "msub",
    "msup",
    "msubsup",
    "mfrac",
    "msqrt",
    "mroot",
    "mover",
    "munder",
    "munderover",
    "mtable",
    "mtr",
    "mtd",
    "mlabeledtr",
    "mstyle",
    "mpadded",
    "mphantom",
    "menclose",
    "merror",
    "mmultiscripts",
    "mprescripts",
    "none",
];

/// pulldown-latex writes operators such as `<` into text unescaped (`<mo><</mo>`): pass
/// MathML tags through and escape every other `<`, `>` and `&`.
fn escape_text_nodes(markup: &str) -> String {
    let mut out = String::with_capacity(markup.len() + 16);
    let mut rest = markup;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            let after = rest[1..].trim_start_matches('/');
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let end = rest.find('>');
            if let (true, Some(end)) = (MATHML_ELEMENTS.contains(&name.as_str()), end) {
                out.push_str(&rest[..=end]);
                rest = &rest[end + 1..];
                continue;
            }
            out.push_str("&lt;");
        } else if c == '>' {
            out.push_str("&gt;");
        } else if c == '&' {
            let entity = rest[1..].find(';').filter(|&e| {
                e > 0
                    && rest[1..=e]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '#')
            });
            out.push_str(if entity.is_some() { "&" } else { "&amp;" });
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `mu` (1/18 em) is TeX's unit, not one HTML knows: write em instead.
fn mu_to_em(markup: &str) -> String {
    let mut out = String::with_capacity(markup.len());
    let mut rest = markup;
    while let Some(pos) = rest.find("mu\"") {
        let head = &rest[..pos];
        let start = head
            .rfind(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .map_or(0, |i| i + 1);
        match head[start..].parse::<f64>() {
            Ok(v) if start < pos => {
                out.push_str(&head[..start]);
                let em = format!("{:.4}", v / 18.0);
                let em = em.trim_end_matches('0').trim_end_matches('.');
                out.push_str(em);
                out.push_str("em\"");
            }
            _ => {
                out.push_str(head);
                out.push_str("mu\"");
            }
        }
        rest = &rest[pos + 3..];
    }
    out.push_str(rest);
    out
}

/// ` onclick=`-like attribute names inside tags.
fn has_event_attribute(markup: &str) -> bool {
    markup.split('<').skip(1).any(|tag| {
        let tag = tag.split('>').next().unwrap_or("");
        tag.split_whitespace()
            .skip(1)
            .any(|attr| attr.starts_with("on") && attr.contains('='))
    })
}

/// `s` as HTML with its math as MathML, or "" when it has no math: for the JSON files that
/// the site's scripts show titles from, which carry the plain text anyway (a reader's
/// BibTeX export wants the LaTeX).
pub fn html_if_math(s: &str) -> String {
    if next_math(s).is_some() {
        text_with_math(s)
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_only_for_text_with_math() {
        assert_eq!(html_if_math("Strip Planarity Testing"), "");
        assert_eq!(html_if_math("Costs $35,000 & more"), "");
        assert_eq!(
            html_if_math("Graph $A_n$ & <b>"),
            "Graph <math display=\"inline\"><msub><mi>A</mi><mi>n</mi></msub></math> &amp; &lt;b&gt;"
        );
    }

    #[test]
    fn mu_lengths_become_em() {
        assert_eq!(
            mu_to_em(r#"<mspace width="-0.11111111mu"/><mspace width="3mu"/>"#),
            r#"<mspace width="-0.0062em"/><mspace width="0.1667em"/>"#
        );
    }

    #[test]
    fn math_becomes_mathml_and_money_stays() {
        let html = text_with_math("$\\mu$path costs $35,000 and $O(n|m|)$ time");
        assert!(html.starts_with("<math"), "{html}");
        assert!(html.contains("path costs $35,000 and <math"), "{html}");
        assert!(html.ends_with("</math> time"), "{html}");
        assert_eq!(text_with_math("from $5 to $10"), "from $5 to $10");
        assert_eq!(text_with_math("a < b & c"), "a &lt; b &amp; c");
        // `\$` is a literal dollar, outside a formula and inside one.
        let escaped = text_with_math("costs \\$5 and $x$");
        assert!(escaped.starts_with("costs \\$5 and <math"), "{escaped}");
        assert_eq!(next_math("$a\\$b$ end"), Some(("", "a\\$b", " end")));
        assert_eq!(next_math("$ x$ and $y $"), None);
    }

    #[test]
    fn broken_math_stays_source_and_nothing_is_injected() {
        assert_eq!(text_with_math("$\\frac{1}{$ x"), "$\\frac{1}{$ x");
        let hostile = text_with_math("$\\text{<script>alert(1)</script>}$ <img src=x onerror=y>");
        assert!(
            !hostile.contains("<script") && !hostile.contains("<img"),
            "{hostile}"
        );
        assert!(text_with_math("$\\text{ on the way}$").starts_with("<math"));
        let lt = text_with_math("$<26\\%$ and $a > b$");
        assert!(
            lt.contains("<mo>&lt;</mo>") && lt.contains("<mo>&gt;</mo>"),
            "{lt}"
        );
        assert!(!lt.contains("<<"), "{lt}");
    }
}
