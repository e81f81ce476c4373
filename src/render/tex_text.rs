//! TeX's text mode in feed text, between its formulas: what arXiv's authors type for an
//! accent (`Schr\"odinger`, `R\'{e}nyi`, `\v{S}penko`), emphasis (`\emph{…}`, `{\em …}`),
//! quotes (` ``…'' `), a range's dash (`3--5`) and a character TeX reserves (`\%`), shown
//! as a reader expects to see them. A command it does not know stays as written: a
//! reader can still read it, and the text is never lost.

use crate::render::escape_html_into;
use icu_normalizer::ComposingNormalizerBorrowed;

/// Nested groups deeper than this stay as written; feed text is untrusted, and no real
/// abstract nests emphasis this far.
const MAX_DEPTH: usize = 8;

/// `text` (no formulas in it) as HTML: escaped, with its TeX text commands applied.
pub fn push_html(out: &mut String, text: &str) {
    push(out, text, true);
}

/// `text` (no formulas in it) as plain text, for a browser's tab, a feed reader or an
/// email: its TeX text commands applied, emphasis as its words.
pub fn push_plain(out: &mut String, text: &str) {
    push(out, text, false);
}

fn push(out: &mut String, text: &str, html: bool) {
    if !has_tex(text) {
        if html {
            escape_html_into(out, text);
        } else {
            out.push_str(text);
        }
        return;
    }
    let mut sink = Sink {
        out,
        plain: String::with_capacity(text.len()),
        html,
    };
    convert(&mut sink, text, 0);
    sink.flush();
}

/// Whether `text` has any of TeX's marks (a `$` is not one: formulas are found apart);
/// most titles and abstracts have none, and are taken as they are.
pub fn has_tex(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr3(b'\\', b'{', b'~', bytes).is_some()
        || [b"``", b"''", b"--"]
            .iter()
            .any(|pair| memchr::memmem::find(bytes, *pair).is_some())
}

/// Where converted text goes: plain text gathers in `plain` until an element is written
/// or the text ends, so that an accent composes with its letter.
struct Sink<'a> {
    out: &'a mut String,
    plain: String,
    html: bool,
}

impl Sink<'_> {
    fn flush(&mut self) {
        if self.plain.is_empty() {
            return;
        }
        // An accent was written as a letter and a combining mark: compose them, so that
        // "é" is the one character a reader's search for it finds.
        let composed = ComposingNormalizerBorrowed::new_nfc().normalize(&self.plain);
        if self.html {
            escape_html_into(self.out, &composed);
        } else {
            self.out.push_str(&composed);
        }
        self.plain.clear();
    }

    fn tag(&mut self, tag: &str, closing: bool) {
        if !self.html {
            return;
        }
        self.flush();
        self.out.push_str(if closing { "</" } else { "<" });
        self.out.push_str(tag);
        self.out.push('>');
    }
}

/// Where an emphasis command's group goes: its HTML element, or none for a command that
/// only changes the font (`\textsf{TS-Agent}` reads "TS-Agent").
fn wrapper(name: &str) -> Option<Option<&'static str>> {
    Some(match name {
        "emph" | "textit" | "textsl" | "em" | "it" | "sl" => Some("em"),
        "textbf" | "bf" => Some("strong"),
        "textsf" | "texttt" | "textrm" | "textsc" | "textup" | "textmd" | "textnormal" | "text"
        | "mbox" | "underline" | "sf" | "tt" | "rm" | "sc" => None,
        _ => return None,
    })
}

/// The combining mark of an accent command: `\'e`, `\v{S}`.
fn accent(name: &str) -> Option<char> {
    Some(match name {
        "'" => '\u{301}',
        "`" => '\u{300}',
        "^" => '\u{302}',
        "\"" => '\u{308}',
        "~" => '\u{303}',
        "=" => '\u{304}',
        "." => '\u{307}',
        "u" => '\u{306}',
        "v" => '\u{30C}',
        "H" => '\u{30B}',
        "r" => '\u{30A}',
        "c" => '\u{327}',
        "k" => '\u{328}',
        "d" => '\u{323}',
        "b" => '\u{331}',
        _ => return None,
    })
}

/// Letters and marks TeX names: `Stra\ss e`, `\o`, `\ldots`.
pub(crate) fn symbol(name: &str) -> Option<&'static str> {
    Some(match name {
        "ss" => "ß",
        "o" => "ø",
        "O" => "Ø",
        "ae" => "æ",
        "AE" => "Æ",
        "oe" => "œ",
        "OE" => "Œ",
        "aa" => "å",
        "AA" => "Å",
        "l" => "ł",
        "L" => "Ł",
        "i" => "ı",
        "j" => "ȷ",
        "ldots" | "dots" | "textellipsis" => "…",
        "textendash" => "–",
        "textemdash" => "—",
        "LaTeX" => "LaTeX",
        "TeX" => "TeX",
        // Greek letters typed outside a formula ("the sum ({\Sigma}) port", a feed's
        // "( \kappa )" whose dollars were lost): TeX would refuse them, a reader means the
        // letter. unicode-math's choices, as in a formula.
        "alpha" => "α",
        "beta" => "β",
        "gamma" => "γ",
        "delta" => "δ",
        "epsilon" => "ϵ",
        "varepsilon" => "ε",
        "zeta" => "ζ",
        "eta" => "η",
        "theta" => "θ",
        "vartheta" => "ϑ",
        "iota" => "ι",
        "kappa" => "κ",
        "lambda" => "λ",
        "mu" => "μ",
        "nu" => "ν",
        "xi" => "ξ",
        "pi" => "π",
        "rho" => "ρ",
        "sigma" => "σ",
        "tau" => "τ",
        "upsilon" => "υ",
        "phi" => "ϕ",
        "varphi" => "φ",
        "chi" => "χ",
        "psi" => "ψ",
        "omega" => "ω",
        "Gamma" => "Γ",
        "Delta" => "Δ",
        "Theta" => "Θ",
        "Lambda" => "Λ",
        "Xi" => "Ξ",
        "Pi" => "Π",
        "Sigma" => "Σ",
        "Upsilon" => "Υ",
        "Phi" => "Φ",
        "Psi" => "Ψ",
        "Omega" => "Ω",
        _ => return None,
    })
}

/// Converts `text` into `sink`.
fn convert(sink: &mut Sink, text: &str, depth: usize) {
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        let rest = &text[i..];
        let taken = match c {
            '\\' => command(sink, text, i, depth),
            '{' => old_style_group(sink, rest, depth),
            '`' if rest.starts_with("``") => {
                sink.plain.push('“');
                Some(2)
            }
            '\'' if rest.starts_with("''") => {
                sink.plain.push('”');
                Some(2)
            }
            '-' => dash(&mut sink.plain, text, i),
            // A tie between two words ("it~detects", "Artemis~1") or before the formula
            // that ends this text ("of~$X$") is a space that does not break. As written:
            // "~10 ms" (about ten), "2~3x" (a range), "X~N(0,1)" (distributed as).
            '~' if is_tie(&text[..i], &text[i + 1..]) => {
                sink.plain.push('\u{a0}');
                Some(1)
            }
            _ => None,
        };
        match taken {
            Some(len) => i += len,
            None => {
                sink.plain.push(c);
                i += c.len_utf8();
            }
        }
    }
}

/// Whether a `~` between `before` and `after` is TeX's tie: a word before it (not a lone
/// letter, which is a variable) and a word, a figure, a bracket or the text's end after it;
/// not between two figures. An abbreviation's full stop may end the word ("Fig.~3", "et
/// al.~Smith"), a word of letters only, so that "10.~5" keeps its tilde.
fn is_tie(before: &str, after: &str) -> bool {
    let next = after.chars().next();
    if let Some(abbreviation) = before.strip_suffix('.') {
        let letters = trailing_word(abbreviation);
        let count = letters.chars().count();
        let word = count > 1 && letters.chars().all(char::is_alphabetic);
        // An initial before a name ("C.~Vafa", "M.~J.~Kang"), "e.g.~[3]", "i.e.~the".
        let initial = count == 1
            && letters.chars().all(char::is_uppercase)
            && next.is_some_and(char::is_uppercase);
        let latin = before.ends_with("e.g.") || before.ends_with("i.e.");
        return (word || initial || latin) && next.is_some_and(opens_word);
    }
    let word = trailing_word(before);
    let number = word.chars().next_back().is_some_and(|c| c.is_ascii_digit());
    let figures = number && next.is_some_and(|c| c.is_ascii_digit());
    // After a figure, a bracket is what the tilde says it is about: "10~(20%)".
    let opens = if number {
        next.is_none_or(char::is_alphanumeric)
    } else {
        next.is_none_or(opens_word)
    };
    word.chars().count() > 1 && opens && !figures
}

/// The letters and figures `text` ends with.
fn trailing_word(text: &str) -> &str {
    &text[text.trim_end_matches(char::is_alphanumeric).len()..]
}

/// What may follow a tie: a word, a figure, or a bracketed number ("Eq.~(3)", "in~[4]").
fn opens_word(c: char) -> bool {
    c.is_alphanumeric() || c == '(' || c == '['
}

/// `3--5`, `Hasse--Weil` and `Title -- Subtitle`: an en dash between two words or figures
/// or two spaces, `---` an em dash. Not elsewhere, where two hyphens may be a command's
/// option (`--help`).
fn dash(plain: &mut String, text: &str, at: usize) -> Option<usize> {
    let run = text[at..].bytes().take_while(|&b| b == b'-').count();
    let before = text[..at].chars().next_back();
    let after = text[at + run..].chars().next();
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let spaced = before == Some(' ') && after == Some(' ');
    if !(word(before) && word(after) || spaced) {
        // The whole run as written, so that `---x` is not read again from its middle.
        plain.push_str(&text[at..at + run]);
        return Some(run);
    }
    match run {
        2 => plain.push('–'),
        3 => plain.push('—'),
        _ => plain.push_str(&text[at..at + run]),
    }
    Some(run)
}

/// The command at `text[at]` (a backslash), applied; its length, or None to write the
/// backslash as it is.
fn command(sink: &mut Sink, text: &str, at: usize, depth: usize) -> Option<usize> {
    let plain = &mut sink.plain;
    let rest = &text[at + 1..];
    let first = rest.chars().next()?;
    // `i.i.d.\ samples`: a space that does not end a sentence.
    if matches!(first, '%' | '&' | '_' | '#' | '$' | '{' | '}' | ' ') {
        plain.push(first);
        return Some(2);
    }
    let name_len = if first.is_ascii_alphabetic() {
        rest.bytes().take_while(u8::is_ascii_alphabetic).count()
    } else {
        first.len_utf8()
    };
    let name = &rest[..name_len];
    let after = &rest[name_len..];
    let used = 1 + name_len;
    if let Some(mark) = accent(name) {
        let (letter, len) = accent_argument(after, first.is_ascii_alphabetic())?;
        plain.push(letter);
        plain.push(mark);
        return Some(used + len);
    }
    if let Some(s) = symbol(name) {
        plain.push_str(s);
        // TeX ends a command's name at the space after it, inside a word ("Stra\ss e").
        let eaten = if after.starts_with("{}") {
            2
        } else if s.chars().count() == 1
            && after.starts_with(' ')
            && after[1..].starts_with(|c: char| c.is_alphabetic())
        {
            1
        } else {
            0
        };
        return Some(used + eaten);
    }
    if let Some(element) = wrapper(name) {
        let (inner, len) = group(after)?;
        write_group(sink, element, inner, depth);
        return Some(used + len);
    }
    if name == "deg" && after_a_number(plain) {
        plain.push('°');
        return Some(used + if after.starts_with("{}") { 2 } else { 0 });
    }
    match name {
        // A link's text, not its address; an address as its text.
        "href" => {
            let (_, url_len) = group(after)?;
            let (label, label_len) = group(&after[url_len..])?;
            write_group(sink, None, label, depth);
            Some(used + url_len + label_len)
        }
        "url" => {
            let (url, len) = group(after)?;
            sink.plain.push_str(url);
            Some(used + len)
        }
        _ => None,
    }
}

/// The letter an accent sits on: `{e}`, `{\i}` (TeX's dotless i, which takes the accent's
/// place of its dot: "ï"), or the letter itself (`\'e`; after a letter-named accent a space
/// first, `\c c`). Its length with the braces.
fn accent_argument(after: &str, named: bool) -> Option<(char, usize)> {
    if let Some(inner) = after.strip_prefix('{') {
        let (letter, len) = if let Some(dotless) = inner.strip_prefix("\\i") {
            ('i', 2 + usize::from(dotless.starts_with(' ')))
        } else if let Some(dotless) = inner.strip_prefix("\\j") {
            ('j', 2 + usize::from(dotless.starts_with(' ')))
        } else {
            let c = inner.chars().next().filter(|c| c.is_alphabetic())?;
            (c, c.len_utf8())
        };
        return inner[len..].starts_with('}').then_some((letter, len + 2));
    }
    let (skip, rest) = match after.strip_prefix(' ') {
        Some(rest) if named => (1, rest),
        _ if named => return None,
        _ => (0, after),
    };
    let c = rest.chars().next().filter(|c| c.is_alphabetic())?;
    Some((c, skip + c.len_utf8()))
}

/// `{\em words}` and its kind, LaTeX 2.09's way to emphasise; any other brace is text.
fn old_style_group(sink: &mut Sink, rest: &str, depth: usize) -> Option<usize> {
    let (inner, len) = group(rest)?;
    let command = inner.strip_prefix('\\')?;
    let name_len = command.bytes().take_while(u8::is_ascii_alphabetic).count();
    let name = &command[..name_len];
    if inner == r"\deg" && after_a_number(&sink.plain) {
        sink.plain.push('°');
        return Some(len);
    }
    if !matches!(name, "em" | "it" | "sl" | "bf" | "sf" | "tt" | "rm" | "sc") {
        return lone_character(sink, inner, depth).then_some(len);
    }
    let words = command[name_len..].strip_prefix(' ')?;
    write_group(sink, wrapper(name)?, words, depth);
    Some(len)
}

/// Whether the group held one command that makes a character (`Bj{\o}rn`, `G{\"o}del`,
/// `({\Sigma})`), now written without the braces, which TeX does not print.
fn lone_character(sink: &mut Sink, inner: &str, depth: usize) -> bool {
    let mut elements = String::new();
    let mut probe = Sink {
        out: &mut elements,
        plain: String::new(),
        html: sink.html,
    };
    let whole = command(&mut probe, inner, 0, depth) == Some(inner.len());
    let character = std::mem::take(&mut probe.plain);
    if whole && elements.is_empty() && character.chars().filter(|c| !is_mark(*c)).count() == 1 {
        sink.plain.push_str(&character);
        return true;
    }
    false
}

/// Whether `\deg` here is a degree sign: TeX's `\deg` is the operator "deg", which a
/// formula would hold, but after a number outside one ("a 360{\deg} delay", as
/// 2411.17734's feed gives it) the author meant degrees.
fn after_a_number(before: &str) -> bool {
    before.ends_with(|c: char| c.is_ascii_digit())
}

/// A combining mark, which an accent adds to its letter.
fn is_mark(c: char) -> bool {
    ('\u{300}'..='\u{36F}').contains(&c)
}

fn write_group(sink: &mut Sink, element: Option<&str>, inner: &str, depth: usize) {
    if depth >= MAX_DEPTH {
        sink.plain.push_str(inner);
        return;
    }
    if let Some(tag) = element {
        sink.tag(tag, false);
        convert(sink, inner, depth + 1);
        sink.tag(tag, true);
    } else {
        convert(sink, inner, depth + 1);
    }
}

/// The braced group `rest` starts with: what is inside, and its length with the braces.
/// None when it does not close.
pub(crate) fn group(rest: &str) -> Option<(&str, usize)> {
    if !rest.starts_with('{') {
        return None;
    }
    let mut depth = 0usize;
    let mut escaped = false;
    for (i, b) in rest.bytes().enumerate() {
        match b {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((&rest[1..i], i + 1));
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests;
