//! A small formula as Unicode text, for where MathML cannot go and a reader would rather
//! see "QC₂D" or "Aₙ" than "QC$_2$D": a browser's tab, a link's preview, an email.

/// The formula `body` as text, when every piece of it has a character: letters, digits,
/// a few operators and relations, Greek letters, letters in a font Unicode has
/// (`\mathbb{Z}` is "ℤ", `\mathcal T` "𝒯"), function names ("Θ(n/log n)"), and sub- and
/// superscripts of characters that have a sub- or superscript form. None otherwise (the
/// caller keeps its LaTeX).
pub fn formula_text(body: &str) -> Option<String> {
    let mut text = Text::default();
    text.push_formula(body, 0)?;
    (!text.out.is_empty()).then_some(text.out)
}

/// Groups nested deeper than this are not turned: feed text is untrusted.
const MAX_DEPTH: usize = 4;

#[derive(Default)]
struct Text {
    out: String,
    /// A function's name or a thin space was just written: a letter or digit next is a
    /// word apart ("log n", not "logn"; "polylog\,n" is "polylog n").
    word_apart: bool,
}

impl Text {
    fn push(&mut self, c: char) {
        if std::mem::take(&mut self.word_apart) && c.is_alphanumeric() {
            self.out.push(' ');
        }
        self.out.push(c);
    }

    fn push_str(&mut self, s: &str) {
        s.chars().for_each(|c| self.push(c));
    }

    fn push_formula(&mut self, body: &str, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut rest = body;
        while let Some(c) = rest.chars().next() {
            rest = &rest[c.len_utf8()..];
            match c {
                '_' | '^' => {
                    let (script, after) = argument(rest)?;
                    rest = after;
                    if script.contains(['{', '\\']) {
                        return None;
                    }
                    // A script sits on what it follows ("log₂ n", not "log ₂n"); a word
                    // after a function's name and its scripts is still a word apart.
                    for s in script.chars() {
                        self.out.push(if c == '_' {
                            subscript(s)?
                        } else {
                            superscript(s)?
                        });
                    }
                }
                '\\' => rest = self.command(rest, depth)?,
                // Braces only group; what they group is written as it is.
                '{' | '}' | ' ' => {}
                c if c.is_alphanumeric() || "+-=()[],.<>/|':!*;".contains(c) => self.push(c),
                _ => return None,
            }
        }
        Some(())
    }

    /// The command after a backslash, written; what follows it.
    fn command<'a>(&mut self, rest: &'a str, depth: usize) -> Option<&'a str> {
        let name_len = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        if name_len == 0 {
            // `\{`, `\%`, and the spaces `\,` `\;` `\:` `\!` `\ `.
            let c = rest.chars().next()?;
            match c {
                '{' | '}' | '%' | '|' => self.push_str(if c == '|' { "‖" } else { &rest[..1] }),
                // A thin space parts two words ("polylog\,n"); a negative one nothing.
                ',' | ';' | ':' => self.word_apart = true,
                '!' => {}
                ' ' => self.push(' '),
                _ => return None,
            }
            return Some(&rest[c.len_utf8()..]);
        }
        let (name, after) = rest.split_at(name_len);
        let after_space = |s: &'a str| s.strip_prefix(' ').unwrap_or(s);
        if let Some(font) = Font::named(name) {
            let (group, after) = argument(after_space(after))?;
            if font == Font::Text {
                // Words, spaces kept: `\text{if } x`.
                if group.contains(['\\', '{', '$']) {
                    return None;
                }
                self.push_str(group);
            } else {
                let mut inner = Text::default();
                inner.push_formula(group, depth + 1)?;
                for c in inner.out.chars() {
                    self.push(font.letter(c)?);
                }
            }
            // An operator's name is a word, as `\log` is.
            self.word_apart = name == "operatorname";
            return Some(after);
        }
        if name == "mkern" || name == "mskip" || name == "kern" {
            // A dimension: `-2mu`, `3mu`.
            let dim = after
                .find(|c: char| !(c.is_ascii_digit() || c == '-' || c == '.'))
                .unwrap_or(after.len());
            let unit = after[dim..].get(..2)?;
            return ["mu", "em", "ex", "pt"]
                .contains(&unit)
                .then(|| &after[dim + 2..]);
        }
        if FUNCTIONS.contains(&name) {
            if self
                .out
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
            {
                self.out.push(' ');
            }
            self.out.push_str(name);
            self.word_apart = true;
            return Some(after_space(after));
        }
        match name {
            // Spacing, and the sizes of a pair of delimiters.
            "quad" | "qquad" => self.push(' '),
            "left" | "right" | "big" | "Big" | "bigl" | "bigr" | "Bigl" | "Bigr" => {}
            _ => self.push_str(command(name)?),
        }
        Some(after_space(after))
    }
}

/// Functions set upright, as words.
const FUNCTIONS: &[&str] = &[
    "log", "ln", "exp", "sin", "cos", "tan", "max", "min", "sup", "inf", "lim", "det", "dim",
    "ker", "deg", "gcd", "arg", "Pr",
];

/// A font command whose letters Unicode has a form of.
#[derive(Clone, Copy, PartialEq)]
enum Font {
    /// Upright or italic text: the letters as they are.
    Plain,
    /// `\text{…}`: words and spaces.
    Text,
    DoubleStruck,
    Script,
    Bold,
}

impl Font {
    fn named(name: &str) -> Option<Font> {
        Some(match name {
            "mathrm" | "mathit" | "operatorname" | "mathnormal" => Font::Plain,
            "text" | "textrm" | "textit" | "mbox" => Font::Text,
            "mathbb" | "Bbb" => Font::DoubleStruck,
            "mathcal" | "mathscr" => Font::Script,
            "mathbf" | "boldsymbol" | "bm" => Font::Bold,
            _ => return None,
        })
    }

    /// `c` in this font: a Latin letter or digit in the Mathematical Alphanumeric Symbols
    /// (or the Letterlike Symbols that came before them); anything else as it is in the
    /// plain font, and None in another (a bold θ has no place here).
    fn letter(self, c: char) -> Option<char> {
        let offset = |from: char, base: u32| char::from_u32(base + (c as u32 - from as u32));
        let earlier = match (self, c) {
            (Font::DoubleStruck, 'C') => Some('ℂ'),
            (Font::DoubleStruck, 'H') => Some('ℍ'),
            (Font::DoubleStruck, 'N') => Some('ℕ'),
            (Font::DoubleStruck, 'P') => Some('ℙ'),
            (Font::DoubleStruck, 'Q') => Some('ℚ'),
            (Font::DoubleStruck, 'R') => Some('ℝ'),
            (Font::DoubleStruck, 'Z') => Some('ℤ'),
            (Font::Script, 'B') => Some('ℬ'),
            (Font::Script, 'E') => Some('ℰ'),
            (Font::Script, 'F') => Some('ℱ'),
            (Font::Script, 'H') => Some('ℋ'),
            (Font::Script, 'I') => Some('ℐ'),
            (Font::Script, 'L') => Some('ℒ'),
            (Font::Script, 'M') => Some('ℳ'),
            (Font::Script, 'R') => Some('ℛ'),
            (Font::Script, 'e') => Some('ℯ'),
            (Font::Script, 'g') => Some('ℊ'),
            (Font::Script, 'o') => Some('ℴ'),
            _ => None,
        };
        if earlier.is_some() {
            return earlier;
        }
        let (upper, lower, digit) = match self {
            Font::Plain | Font::Text => return Some(c),
            Font::DoubleStruck => (0x1D538, 0x1D552, Some(0x1D7D8)),
            Font::Script => (0x1D49C, 0x1D4B6, None),
            Font::Bold => (0x1D400, 0x1D41A, Some(0x1D7CE)),
        };
        match c {
            'A'..='Z' => offset('A', upper),
            'a'..='z' => offset('a', lower),
            '0'..='9' => offset('0', digit?),
            c if c.is_alphanumeric() => None,
            c => Some(c),
        }
    }
}

/// A command's or script's argument: one character or a braced group (`tex_text::group`:
/// its braces balanced, an escaped one not counted).
fn argument(rest: &str) -> Option<(&str, &str)> {
    if rest.starts_with('{') {
        let (inner, len) = crate::render::tex_text::group(rest)?;
        return Some((inner, &rest[len..]));
    }
    let c = rest
        .chars()
        .next()
        .filter(|c| c.is_alphanumeric() || "+-".contains(*c))?;
    Some(rest.split_at(c.len_utf8()))
}

fn command(name: &str) -> Option<&'static str> {
    Some(match name {
        "pm" => "±",
        "mp" => "∓",
        "times" => "×",
        "cdot" => "·",
        "le" | "leq" => "≤",
        "ge" | "geq" => "≥",
        "leqslant" => "⩽",
        "geqslant" => "⩾",
        "ll" => "≪",
        "gg" => "≫",
        "lesssim" => "≲",
        "gtrsim" => "≳",
        "neq" | "ne" => "≠",
        "approx" => "≈",
        "sim" => "∼",
        "simeq" => "≃",
        "equiv" => "≡",
        "propto" => "∝",
        "infty" => "∞",
        "to" | "rightarrow" => "→",
        "leftarrow" | "gets" => "←",
        "Rightarrow" => "⇒",
        "leftrightarrow" => "↔",
        "mapsto" => "↦",
        "searrow" => "↘",
        "in" => "∈",
        "notin" => "∉",
        "subset" => "⊂",
        "subseteq" => "⊆",
        "cup" => "∪",
        "cap" => "∩",
        "setminus" => "∖",
        "emptyset" | "varnothing" => "∅",
        "forall" => "∀",
        "exists" => "∃",
        "neg" => "¬",
        "wedge" | "land" => "∧",
        "vee" | "lor" => "∨",
        "nabla" => "∇",
        "sum" => "∑",
        "prod" => "∏",
        "circ" => "∘",
        "bullet" => "•",
        "odot" => "⊙",
        "star" => "⋆",
        "ast" => "∗",
        "perp" => "⊥",
        "mid" => "|",
        "colon" => ":",
        "langle" => "⟨",
        "rangle" => "⟩",
        "cdots" => "⋯",
        "ell" => "ℓ",
        "partial" => "∂",
        _ => crate::render::tex_text::symbol(name).filter(|s| {
            s.chars()
                .all(|c| ('\u{0370}'..='\u{03ff}').contains(&c) || c == '…')
        })?,
    })
}

fn subscript(c: char) -> Option<char> {
    Some(match c {
        '0'..='9' => char::from_u32('₀' as u32 + (c as u32 - '0' as u32))?,
        '+' => '₊',
        '-' => '₋',
        '=' => '₌',
        '(' => '₍',
        ')' => '₎',
        'a' => 'ₐ',
        'e' => 'ₑ',
        'h' => 'ₕ',
        'i' => 'ᵢ',
        'j' => 'ⱼ',
        'k' => 'ₖ',
        'l' => 'ₗ',
        'm' => 'ₘ',
        'n' => 'ₙ',
        'o' => 'ₒ',
        'p' => 'ₚ',
        'r' => 'ᵣ',
        's' => 'ₛ',
        't' => 'ₜ',
        'u' => 'ᵤ',
        'v' => 'ᵥ',
        'x' => 'ₓ',
        _ => return None,
    })
}

fn superscript(c: char) -> Option<char> {
    Some(match c {
        '0' => '⁰',
        '1' => '¹',
        '2' => '²',
        '3' => '³',
        '4'..='9' => char::from_u32('⁴' as u32 + (c as u32 - '4' as u32))?,
        '+' => '⁺',
        '-' => '⁻',
        '=' => '⁼',
        '(' => '⁽',
        ')' => '⁾',
        'i' => 'ⁱ',
        'n' => 'ⁿ',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::formula_text;

    #[test]
    fn small_formulas_become_text_and_others_do_not() {
        assert_eq!(formula_text("_2").as_deref(), Some("₂"));
        assert_eq!(formula_text("A_n").as_deref(), Some("Aₙ"));
        assert_eq!(formula_text("\\omega").as_deref(), Some("ω"));
        assert_eq!(formula_text("ω").as_deref(), Some("ω"));
        assert_eq!(
            formula_text("x^{2n} \\le 10^{-3}").as_deref(),
            Some("x²ⁿ≤10⁻³")
        );
        assert_eq!(formula_text("T_c").as_deref(), None);
        // Letters in a font Unicode has, functions as words, relations and sets.
        assert_eq!(formula_text("\\mathbb{R}^4").as_deref(), Some("ℝ⁴"));
        assert_eq!(formula_text("\\mathbb{Z}_2").as_deref(), Some("ℤ₂"));
        assert_eq!(formula_text("\\mathcal T").as_deref(), Some("𝒯"));
        assert_eq!(
            formula_text("\\mathcal{E\\mkern-2mu L}").as_deref(),
            Some("ℰℒ")
        );
        assert_eq!(
            formula_text("f\\colon\\mathbb R^n\\to\\mathbb R").as_deref(),
            Some("f:ℝⁿ→ℝ")
        );
        assert_eq!(formula_text("\\mathbf{x}").as_deref(), Some("𝐱"));
        assert_eq!(
            formula_text("O(n\\log(1/\\varepsilon))").as_deref(),
            Some("O(n log(1/ε))")
        );
        assert_eq!(formula_text("\\log n").as_deref(), Some("log n"));
        assert_eq!(
            formula_text("\\mathcal{O}\\left(\\log_{2}L\\right)").as_deref(),
            Some("𝒪(log₂ L)")
        );
        assert_eq!(
            formula_text("O(n\\log^2 n)").as_deref(),
            Some("O(n log² n)")
        );
        assert_eq!(
            formula_text("\\operatorname{rank} A").as_deref(),
            Some("rank A")
        );
        assert_eq!(
            formula_text("\\mathrm{polylog}\\,n").as_deref(),
            Some("polylog n")
        );
        assert_eq!(
            formula_text("[n]=\\{1,2,\\ldots,n\\}").as_deref(),
            Some("[n]={1,2,…,n}")
        );
        assert_eq!(formula_text("20\\%").as_deref(), Some("20%"));
        assert_eq!(formula_text("\\text{if } x").as_deref(), Some("if x"));
        assert_eq!(formula_text("\\mathrm{Bun}_G"), None);
        assert_eq!(formula_text("\\mathbfθ"), None);
        assert_eq!(formula_text("\\tilde{O}(n)"), None);
        assert_eq!(formula_text("\\frac{1}{2}"), None);
        assert_eq!(formula_text("\\o"), None);
        assert_eq!(formula_text(""), None);
    }
}
