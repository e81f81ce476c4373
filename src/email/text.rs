//! The text part's layout: paragraphs wrapped at 72 columns, as plain-text mail has been
//! since RFC 2822's advice, and links as numbered references listed at the end, so a
//! long URL never breaks a line of prose.

use std::collections::HashMap;

/// Columns of the text part.
pub const WIDTH: usize = 72;

/// `text` wrapped at `width` columns: the first line after `first`, the others after
/// `rest` (indents count towards the width). Words longer than a line stand alone.
pub fn wrap(text: &str, width: usize, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut line = String::from(first);
    let mut line_len = first.chars().count();
    let mut empty = true;
    for word in text.split_whitespace() {
        let len = word.chars().count();
        if !empty && line_len + 1 + len > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(rest);
            line_len = rest.chars().count();
            empty = true;
        }
        if !empty {
            line.push(' ');
            line_len += 1;
        }
        line.push_str(word);
        line_len += len;
        empty = false;
    }
    out.push_str(line.trim_end());
    out
}

/// The `wrap` filter for `email.txt`: `{{ s | wrap(first="* ", rest="  ") }}`, with
/// `width` (default 72) and `first`/`rest` indents (default none).
pub fn wrap_filter(s: &str, args: tera::Kwargs, _: &tera::State) -> tera::TeraResult<String> {
    let width = args.get::<u64>("width")?.map_or(WIDTH, |w| w as usize);
    let first = args.get::<&str>("first")?.unwrap_or("");
    let rest = args.get::<&str>("rest")?.unwrap_or(first);
    Ok(wrap(s, width, first, rest))
}

/// Numbered references: each link gets a number the first time it is seen.
#[derive(Default)]
pub struct References {
    urls: Vec<String>,
    seen: HashMap<String, usize>,
}

impl References {
    /// The number of `url` (from 1); an empty URL has none (0).
    pub fn number(&mut self, url: &str) -> usize {
        if url.is_empty() {
            return 0;
        }
        if let Some(&n) = self.seen.get(url) {
            return n;
        }
        self.urls.push(url.to_string());
        self.seen.insert(url.to_string(), self.urls.len());
        self.urls.len()
    }

    /// `(number, url)`, in order.
    pub fn list(&self) -> Vec<(usize, &str)> {
        self.urls
            .iter()
            .enumerate()
            .map(|(i, u)| (i + 1, u.as_str()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_the_width_with_indents() {
        let text = "Emulator flakiness, not test code, decides whether Android CI runs instrumentation tests at all in practice";
        let w = wrap(text, 40, "* ", "  ");
        for line in w.lines() {
            assert!(line.chars().count() <= 40, "{line:?}");
        }
        assert!(w.starts_with("* Emulator"));
        assert!(
            w.lines()
                .skip(1)
                .all(|l| l.starts_with("  ") && !l.starts_with("   "))
        );
        assert_eq!(
            w.split_whitespace().collect::<Vec<_>>().len(),
            text.split_whitespace().count() + 1
        );
        // A word longer than the line is not cut.
        let long = "x".repeat(50);
        assert_eq!(wrap(&long, 40, "", ""), long);
    }

    #[test]
    fn a_link_keeps_its_number() {
        let mut r = References::default();
        assert_eq!(r.number("https://a"), 1);
        assert_eq!(r.number("https://b"), 2);
        assert_eq!(r.number("https://a"), 1);
        assert_eq!(r.number(""), 0);
        assert_eq!(r.list(), vec![(1, "https://a"), (2, "https://b")]);
    }
}
