//! A small formula as Unicode text, for where MathML cannot go and a reader would rather
//! see "QC₂D" or "Aₙ" than "QC$_2$D": a browser's tab, a link's preview, an email.

/// The formula `body` as text, when every piece of it has a character: letters, digits,
/// a few operators, Greek letters, and sub- and superscripts of characters that have a
/// sub- or superscript form. None otherwise (the caller keeps its LaTeX).
pub fn formula_text(body: &str) -> Option<String> {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '_' | '^' => {
                let (script, after) = argument(rest)?;
                rest = after;
                for s in script.chars() {
                    out.push(if c == '_' {
                        subscript(s)?
                    } else {
                        superscript(s)?
                    });
                }
            }
            '\\' => {
                let name_len = rest
                    .find(|c: char| !c.is_ascii_alphabetic())
                    .unwrap_or(rest.len());
                let (name, after) = rest.split_at(name_len);
                out.push_str(command(name)?);
                rest = after.strip_prefix(' ').unwrap_or(after);
            }
            ' ' => {}
            c if c.is_alphanumeric() || "+-=()[],.<>/|':!".contains(c) => out.push(c),
            _ => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// A script's argument: one character or a braced group of plain characters.
fn argument(rest: &str) -> Option<(&str, &str)> {
    if let Some(group) = rest.strip_prefix('{') {
        let end = group.find('}')?;
        let inner = &group[..end];
        return (!inner.contains(['{', '\\'])).then_some((inner, &group[end + 1..]));
    }
    let c = rest
        .chars()
        .next()
        .filter(|c| c.is_ascii_alphanumeric() || "+-".contains(*c))?;
    Some(rest.split_at(c.len_utf8()))
}

fn command(name: &str) -> Option<&'static str> {
    Some(match name {
        "pm" => "±",
        "times" => "×",
        "cdot" => "·",
        "le" | "leq" => "≤",
        "ge" | "geq" => "≥",
        "neq" | "ne" => "≠",
        "approx" => "≈",
        "sim" => "∼",
        "infty" => "∞",
        "to" | "rightarrow" => "→",
        "ell" => "ℓ",
        "partial" => "∂",
        _ => crate::render::tex_text::symbol(name)
            .filter(|s| s.chars().all(|c| ('\u{0370}'..='\u{03ff}').contains(&c)))?,
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
        assert_eq!(formula_text("\\mathbb{R}^4"), None);
        assert_eq!(formula_text("\\frac{1}{2}"), None);
        assert_eq!(formula_text("\\o"), None);
        assert_eq!(formula_text(""), None);
    }
}
