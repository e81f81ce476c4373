//! LaTeX math in feed text (`$\mu$path`, `$O(n|m|)$`, `$$…$$`, `\(…\)`, `\[…\]`)
//! rendered on the server to MathML, so pages need no JavaScript. Text outside math goes
//! through TeX's text mode (`super::tex_text`) and is HTML-escaped; a `$` that does not
//! open math (`$35,000`) stays money; math that does not parse stays as its source.

use pulldown_latex::config::DisplayMode;
use pulldown_latex::{Parser, RenderConfig, Storage, push_mathml};
use std::borrow::Cow;
use std::ops::Range;

mod unicode;

/// Feed text as HTML with its math as MathML.
pub fn text_with_math(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    let mut at = 0;
    for formula in formulas(s) {
        super::tex_text::push_html(&mut out, &s[at..formula.source.start]);
        match to_mathml_as(&s[formula.body], formula.display) {
            Some(mathml) => out.push_str(&mathml),
            None => crate::render::escape_html_into(&mut out, &s[formula.source.clone()]),
        }
        at = formula.source.end;
    }
    super::tex_text::push_html(&mut out, &s[at..]);
    out
}

/// Feed text as plain text, for where MathML cannot go (a browser's tab, a feed reader, an
/// email, the search index): its TeX text applied, its formulas as their LaTeX. Borrowed
/// when it has no TeX, as most text has none.
pub fn plain_text(s: &str) -> Cow<'_, str> {
    plain(s, false)
}

/// `plain_text` with each small formula as Unicode text where it has one (`QC$_2$D` is
/// "QC₂D"), for what a reader sees without markup: a page's `<title>`, its preview, an
/// email. Not for the search index, which reads formulas' words as they were typed.
pub fn readable_text(s: &str) -> Cow<'_, str> {
    plain(s, true)
}

fn plain(s: &str, formulas_as_unicode: bool) -> Cow<'_, str> {
    // Text with no TeX mark is itself; so is its formulas' LaTeX, unless they are turned.
    let turned = formulas_as_unicode && s.contains('$');
    if !(super::tex_text::has_tex(s) || turned) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut at = 0;
    for formula in formulas(s) {
        super::tex_text::push_plain(&mut out, &s[at..formula.source.start]);
        let text = (formulas_as_unicode && !formula.display)
            .then(|| unicode::formula_text(&s[formula.body.clone()]))
            .flatten();
        out.push_str(text.as_deref().unwrap_or(&s[formula.source.clone()]));
        at = formula.source.end;
    }
    super::tex_text::push_plain(&mut out, &s[at..]);
    Cow::Owned(out)
}

/// Each formula of `s` that renders, as its source and its MathML set inline: for a search
/// result's snippet, a line of text that a formula set apart would break.
pub fn inline_mathml(s: &str) -> impl Iterator<Item = (&str, String)> + '_ {
    formulas(s).filter_map(|f| Some((&s[f.source], to_mathml_as(&s[f.body], false)?)))
}

/// Where the text's formulas are, delimiters included: for a cut of the text, which must
/// not fall inside one (`formula_around`).
pub fn formula_spans(text: &str) -> Vec<Range<usize>> {
    formulas(text).map(|f| f.source).collect()
}

/// The one of `spans` that a cut at `at` falls inside (half a formula is not one).
pub fn formula_around(spans: &[Range<usize>], at: usize) -> Option<&Range<usize>> {
    spans.iter().find(|f| f.start < at && at < f.end)
}

/// One formula in feed text: where it is with its delimiters, where its LaTeX is, and
/// whether it is set apart (`$$…$$`, `\[…\]`).
#[derive(Debug, PartialEq)]
pub struct Formula {
    pub source: Range<usize>,
    pub body: Range<usize>,
    pub display: bool,
}

/// The formulas of `s` in order; a summarizer cutting text must not cut one.
pub fn formulas(s: &str) -> impl Iterator<Item = Formula> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let found = next_formula(s, at)?;
        at = found.source.end;
        Some(found)
    })
}

/// Finds the next formula from `from`. `$…$` by the rules Pandoc uses: the opening `$` is
/// followed by a non-space, the closing one is preceded by a non-space and not followed
/// by a digit, and `\$` is a literal dollar. One exception: a closing `$` after a space
/// closes a body with a TeX command, `_`, `^` or `{` in it, as on arXiv, whose pages
/// render `$W_Q\left( A_n \right) $`; "$5 and $10" stays text. `$$…$$`, `\(…\)` and
/// `\[…\]` up to their closing pair.
fn next_formula(s: &str, from: usize) -> Option<Formula> {
    let bytes = s.as_bytes();
    let mut i = from;
    // Most text has no `$` or backslash at all: jump from one to the next.
    // `i` steps over a command's two bytes, which may pass the end by one.
    while let Some(found) = bytes
        .get(i..)
        .and_then(|rest| memchr::memchr2(b'$', b'\\', rest))
    {
        i += found;
        if bytes[i] == b'\\' {
            if let Some(formula) = environment(s, i) {
                return Some(formula);
            }
            let close: &[u8] = match bytes.get(i + 1) {
                Some(b'(') => b"\\)",
                Some(b'[') => b"\\]",
                // Any other command, `\$` among them, with the character it escapes.
                _ => {
                    i += 2;
                    continue;
                }
            };
            if let Some(end) = find_closing(bytes, i + 2, close) {
                return Some(Formula {
                    source: i..end + 2,
                    body: i + 2..end,
                    display: close == b"\\]",
                });
            }
            i += 2;
            continue;
        }
        let open = i;
        if bytes.get(open + 1) == Some(&b'$') {
            match find_closing(bytes, open + 2, b"$$") {
                Some(end) if end > open + 2 => {
                    return Some(Formula {
                        source: open..end + 2,
                        body: open + 2..end,
                        display: true,
                    });
                }
                _ => {
                    i += 2;
                    continue;
                }
            }
        }
        let body_start = open + 1;
        if body_start < bytes.len() && !bytes[body_start].is_ascii_whitespace() {
            let mut j = body_start;
            while let Some(found) = memchr::memchr(b'$', &bytes[j..]) {
                j += found;
                if bytes[j - 1] != b'\\' {
                    let closes = (!bytes[j - 1].is_ascii_whitespace()
                        || looks_like_tex(&bytes[body_start..j]))
                        && !bytes.get(j + 1).is_some_and(|b| b.is_ascii_digit());
                    if closes {
                        return Some(Formula {
                            source: open..j + 1,
                            body: body_start..j,
                            display: false,
                        });
                    }
                    break;
                }
                j += 1;
            }
        }
        i += 1;
    }
    None
}

/// Whether a `$…$` body is TeX rather than prose between two dollar amounts.
fn looks_like_tex(body: &[u8]) -> bool {
    body.iter().any(|b| matches!(b, b'\\' | b'_' | b'^' | b'{'))
}

/// A display environment at `at` (`\begin{equation*}…\end{equation*}`), whole: the
/// parser reads the environment itself.
fn environment(s: &str, at: usize) -> Option<Formula> {
    const DISPLAY: &[&str] = &[
        "equation",
        "equation*",
        "align",
        "align*",
        "gather",
        "gather*",
        "multline",
        "multline*",
    ];
    let rest = s[at..].strip_prefix("\\begin{")?;
    let name = &rest[..rest.find('}')?];
    if !DISPLAY.contains(&name) {
        return None;
    }
    let end_tag = format!("\\end{{{name}}}");
    let end = at + s[at..].find(&end_tag)? + end_tag.len();
    Some(Formula {
        source: at..end,
        body: at..end,
        display: true,
    })
}

/// Where `close` next occurs from `from`, not escaped by a backslash before it.
fn find_closing(bytes: &[u8], from: usize, close: &[u8]) -> Option<usize> {
    let mut j = from;
    while j + close.len() <= bytes.len() {
        let found = memchr::memmem::find(&bytes[j..], close)?;
        let at = j + found;
        if close[0] == b'$' && at > 0 && bytes[at - 1] == b'\\' {
            j = at + 1;
            continue;
        }
        return Some(at);
    }
    None
}

/// MathML for one formula, or None when it does not parse.
pub fn to_mathml(latex: &str) -> Option<String> {
    to_mathml_as(latex, false)
}

fn to_mathml_as(latex: &str, display: bool) -> Option<String> {
    let storage = Storage::new();
    let events: Vec<_> = Parser::new(latex, &storage).collect();
    if events.iter().any(|e| e.is_err()) {
        return None;
    }
    let mut out = String::new();
    // No <annotation>: pulldown-latex writes it without escaping the source.
    let config = RenderConfig {
        display_mode: if display {
            DisplayMode::Block
        } else {
            DisplayMode::Inline
        },
        ..RenderConfig::default()
    };
    push_mathml(&mut out, events.into_iter(), config).ok()?;
    // pulldown-latex 0.8 gives a TeX space (`\ `, `~`) as the text "&nbsp;", then
    // escapes that text: a reader saw "&nbsp;".
    let out = mu_to_em(&escape_text_nodes(&out)).replace("&amp;nbsp;", "&nbsp;");
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

/// `s` as HTML with its math as MathML and its TeX text applied, or "" when that is just
/// `s` escaped: for the JSON files that the site's scripts show titles from, which carry
/// the plain text anyway (a reader's BibTeX export wants the LaTeX).
pub fn html_if_tex(s: &str) -> String {
    // Most titles: nothing to render, and no page of HTML to compare.
    if !super::tex_text::has_tex(s) && formulas(s).next().is_none() {
        return String::new();
    }
    let html = text_with_math(s);
    if html == crate::render::escape_html(s) {
        String::new()
    } else {
        html
    }
}

#[cfg(test)]
mod tests;
