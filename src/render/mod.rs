//! Rendering: the theme's Tera templates (with the site's own overriding them), feeds and
//! the sitemap. Each function returns the bytes of one output file; `output` writes them.

pub mod feeds;
pub mod foryou;
pub mod math;
pub mod pager;
pub mod search;
pub mod tex_text;
pub mod views;

use anyhow::{Result, anyhow};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The templates every theme must have.
pub const REQUIRED: &[&str] = &[
    "index.html",
    "author.html",
    "search.html",
    "paper.html",
    "digest.html",
    "category.html",
    "archive.html",
    "404.html",
];

fn template_files(dir: &Path, root: &Path) -> Result<BTreeMap<String, PathBuf>> {
    Ok(crate::walk::files_below(dir, root)?.into_iter().collect())
}

/// Loads `themes/<theme>/templates/`, then `templates/` of the site over it.
pub fn load_templates(root: &Path, theme: &str) -> Result<tera::Tera> {
    let theme_dir = root.join("themes").join(theme).join("templates");
    // Listed first: a theme folder that is a link out of the site is that error.
    let mut files = template_files(&theme_dir, root)?;
    if !theme_dir.is_dir() {
        return Err(anyhow!(
            "theme {theme:?} not found: no folder {}",
            theme_dir.display()
        ));
    }
    files.extend(template_files(&root.join("templates"), root)?);
    let mut tera = tera::Tera::new();
    tera.autoescape_on([".html", ".xml"]);
    tera.set_escape_fn(escape_html_to);
    // Tera 2 checks at load time that every filter a template names exists.
    // `{{ text | math | safe }}`: escaped text with its LaTeX as MathML.
    tera.register_filter("math", |s: &str, _: tera::Kwargs, _: &tera::State| {
        math::text_with_math(s)
    });
    // `{{ title | tex }}`: plain text with TeX's accents, quotes and dashes applied and
    // small formulas as Unicode, for where markup cannot go (`<title>`, an attribute, an
    // email's text).
    tera.register_filter("tex", |s: &str, _: tera::Kwargs, _: &tera::State| {
        math::readable_text(s).into_owned()
    });
    tera.register_filter("wrap", crate::email::text::wrap_filter);
    // `{{ count | thousands }}`: "1,362 authors", as the build's own report writes counts.
    tera.register_filter("thousands", |n: usize, _: tera::Kwargs, _: &tera::State| {
        thousands(n)
    });
    // Tera 2's group_by keeps no order; this one sorts groups by key, as Tera 1's did.
    tera.register_filter("group_by", group_by);
    let mut list = Vec::with_capacity(files.len());
    for (name, path) in files {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| anyhow!("cannot read template {}: {e}", path.display()))?;
        list.push((name, text));
    }
    tera.add_raw_templates(list)
        .map_err(|e| anyhow!("{}", tera_error(&e)))?;
    for name in REQUIRED {
        if !has_template(&tera, name) {
            return Err(anyhow!(
                "theme {theme:?} has no template {name} (looked in {} and {})",
                theme_dir.display(),
                root.join("templates").display()
            ));
        }
    }
    Ok(tera)
}

/// HTML escaping for text and quoted attributes. Unlike Tera's default it leaves `/`
/// alone, so URLs stay readable in the page source.
pub fn escape_html(input: &str) -> String {
    let mut out = String::with_capacity(input.len() + input.len() / 8);
    escape_html_into(&mut out, input);
    out
}

/// `escape_html`, appended to `out`.
pub fn escape_html_into(out: &mut String, input: &str) {
    let _ = escape_pieces::<std::convert::Infallible>(input, |piece| {
        out.push_str(piece);
        Ok(())
    });
}

/// `escape_html` for Tera, which writes to an `io::Write`.
fn escape_html_to(input: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    escape_pieces(input, |piece| out.write_all(piece.as_bytes()))
}

/// Hands `piece` the escaped text in order: the runs between special bytes whole (pages
/// are mostly plain text) and an entity for each special byte. The next `&<>` and the next
/// quote are found apart (memchr3 and memchr2 scan many bytes at a time) and each search is
/// redone only once the copy has passed its hit.
fn escape_pieces<E>(input: &str, mut piece: impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
    let bytes = input.as_bytes();
    let end = bytes.len();
    let markup =
        |from: usize| memchr::memchr3(b'&', b'<', b'>', &bytes[from..]).map_or(end, |p| from + p);
    let quote =
        |from: usize| memchr::memchr2(b'"', b'\'', &bytes[from..]).map_or(end, |p| from + p);
    let (mut next_markup, mut next_quote) = (markup(0), quote(0));
    let mut start = 0;
    loop {
        let i = next_markup.min(next_quote);
        if i == end {
            break;
        }
        piece(&input[start..i])?;
        piece(match bytes[i] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => "&#x27;",
        })?;
        start = i + 1;
        if i == next_markup {
            next_markup = markup(start);
        } else {
            next_quote = quote(start);
        }
    }
    piece(&input[start..])
}

/// `list | group_by(attribute="a.b")`: the items by the value at that path, groups in key
/// order (items without it left out), so that a page lists them the same way every build.
fn group_by(
    list: Vec<tera::Value>,
    kwargs: tera::Kwargs,
    _: &tera::State,
) -> tera::TeraResult<tera::Map> {
    let attribute = kwargs.must_get::<&str>("attribute")?;
    let mut groups: BTreeMap<String, Vec<tera::Value>> = BTreeMap::new();
    for item in list {
        let Some(key) = item.get_from_path(attribute).filter(|k| !k.is_none()) else {
            continue;
        };
        let key = key.as_str().map_or_else(|| key.to_string(), str::to_string);
        groups.entry(key).or_default().push(item);
    }
    Ok(groups
        .into_iter()
        .map(|(k, v)| (k.into(), v.into()))
        .collect())
}

/// Tera's error with its causes: Tera 2 reports the template, line and column, and shows the
/// line with the fault marked.
pub fn tera_error(e: &tera::Error) -> String {
    // The report begins with its own "error: ", which paperboy's message already has.
    let report = e.to_string();
    let mut msg = report
        .strip_prefix("error: ")
        .unwrap_or(&report)
        .to_string();
    let mut cur: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(e);
    while let Some(c) = cur {
        msg.push_str(": ");
        msg.push_str(&c.to_string());
        cur = c.source();
    }
    msg
}

/// Whether the theme (or the site's `templates/`) has template `name`.
pub fn has_template(tera: &tera::Tera, name: &str) -> bool {
    tera.get_template_names().any(|n| n == name)
}

pub fn render(tera: &tera::Tera, name: &str, ctx: &tera::Context) -> Result<String> {
    tera.render(name, ctx)
        .map_err(|e| anyhow!("{}", tera_error(&e)))
}

/// A count with a comma between each three digits: 1,956.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The obvious character-by-character escaper, to check the fast one against.
    fn escape_slowly(s: &str) -> String {
        s.chars()
            .map(|c| match c {
                '&' => "&amp;".to_string(),
                '<' => "&lt;".to_string(),
                '>' => "&gt;".to_string(),
                '"' => "&quot;".to_string(),
                '\'' => "&#x27;".to_string(),
                c => c.to_string(),
            })
            .collect()
    }

    #[test]
    fn a_count_has_a_comma_between_each_three_digits() {
        for (n, said) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (1362, "1,362"),
            (100_000, "100,000"),
            (1_234_567, "1,234,567"),
        ] {
            assert_eq!(thousands(n), said);
        }
    }

    #[test]
    fn escapes_like_the_obvious_escaper() {
        for s in [
            "",
            "plain text, no specials",
            "&",
            "<>\"'&",
            "a'b\"c<d>e&f",
            "It's \"quoted\" & <tagged> — ünïcode's fine, ok'",
            "''''\"\"\"<<<>>>&&&",
            "tail &",
            "& head",
        ] {
            assert_eq!(escape_html(s), escape_slowly(s), "{s}");
            let mut written = Vec::new();
            escape_html_to(s, &mut written).unwrap();
            assert_eq!(String::from_utf8(written).unwrap(), escape_slowly(s), "{s}");
        }
        let long: String = "word's <b> & \"more\" ".repeat(500);
        assert_eq!(escape_html(&long), escape_slowly(&long));
    }
}
