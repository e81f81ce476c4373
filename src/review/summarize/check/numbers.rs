//! The numbers a text states, each as a value and what it counts, so that "32 %", "32%"
//! and "32 percent" are one number, "2x", "2×", "2-fold", "twofold" and "doubles" another.
//!
//! Forms read: digits with a decimal point and thousands commas ("1,024", "3.5"); number
//! words from "two" to "ninety" and "hundred"; a scale after a number ("1.2 million",
//! "3 billion", "10k"), kept with and without it; a unit after a number: "%", "percent",
//! "per cent", "percentage points" (a share), "x", "×", "-fold", "fold", "times" (a
//! factor); "twofold" … "tenfold", "double(s/d)", "twice", "triple(s/d)", "thrice",
//! "half/halved/halves" (a factor of 2, 3 or a half). "one" is not read: it is as often
//! a pronoun ("one of the first") as a count.

/// What a number counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Unit {
    Plain,
    Percent,
    Factor,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number {
    pub value: f64,
    pub unit: Unit,
    /// Digits after the decimal point, as written.
    pub decimals: u32,
}

impl Number {
    /// Whether a number of the paper states this one: the same value, and a share or a
    /// factor only where the paper says it is one (a plain number in the answer may be
    /// any of the paper's).
    /// A number may be the paper's rounded to fewer decimals ("56 %" for "56.4 %").
    pub fn stated_by(&self, paper: &Number) -> bool {
        let scale = 10f64.powi(self.decimals as i32);
        let rounded = if paper.decimals > self.decimals {
            (paper.value * scale).round() / scale
        } else {
            paper.value
        };
        let same = (self.value - rounded).abs() <= 1e-9 * self.value.abs().max(1.0);
        same && (self.unit == Unit::Plain || self.unit == paper.unit)
    }
}

const WORDS: &[(&str, f64)] = &[
    ("two", 2.0),
    ("three", 3.0),
    ("four", 4.0),
    ("five", 5.0),
    ("six", 6.0),
    ("seven", 7.0),
    ("eight", 8.0),
    ("nine", 9.0),
    ("ten", 10.0),
    ("eleven", 11.0),
    ("twelve", 12.0),
    ("thirteen", 13.0),
    ("fourteen", 14.0),
    ("fifteen", 15.0),
    ("sixteen", 16.0),
    ("seventeen", 17.0),
    ("eighteen", 18.0),
    ("nineteen", 19.0),
    ("twenty", 20.0),
    ("thirty", 30.0),
    ("forty", 40.0),
    ("fifty", 50.0),
    ("sixty", 60.0),
    ("seventy", 70.0),
    ("eighty", 80.0),
    ("ninety", 90.0),
    ("hundred", 100.0),
];

/// Words that are a factor by themselves.
const FACTORS: &[(&str, f64)] = &[
    ("double", 2.0),
    ("doubles", 2.0),
    ("doubled", 2.0),
    ("doubling", 2.0),
    ("twice", 2.0),
    ("triple", 3.0),
    ("triples", 3.0),
    ("tripled", 3.0),
    ("tripling", 3.0),
    ("thrice", 3.0),
    ("quadruple", 4.0),
    ("quadruples", 4.0),
    ("quadrupled", 4.0),
    ("half", 0.5),
    ("halve", 0.5),
    ("halves", 0.5),
    ("halved", 0.5),
    ("halving", 0.5),
];

const SCALES: &[(&str, f64)] = &[
    ("thousand", 1e3),
    ("k", 1e3),
    ("million", 1e6),
    ("millions", 1e6),
    ("m", 1e6),
    ("billion", 1e9),
    ("billions", 1e9),
    ("b", 1e9),
    ("trillion", 1e12),
];

/// A token of the text: a word, a number written in digits, or one mark.
#[derive(Debug, PartialEq)]
enum Token<'a> {
    Word(&'a str),
    Digits(f64, u32),
    Mark(char),
}

fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        if c.is_ascii_digit() {
            let mut j = i;
            let mut digits = String::new();
            while j < chars.len() {
                let d = chars[j].1;
                let next_digit = chars.get(j + 1).is_some_and(|n| n.1.is_ascii_digit());
                if d.is_ascii_digit() {
                    digits.push(d);
                } else if d == ',' && next_digit && thousands_group(&chars[j + 1..]) {
                } else if d == '.' && next_digit && !digits.contains('.') {
                    digits.push('.');
                } else {
                    break;
                }
                j += 1;
            }
            let decimals = digits.split_once('.').map_or(0, |(_, d)| d.len() as u32);
            out.push(Token::Digits(digits.parse().unwrap_or(0.0), decimals));
            i = j;
        } else if c.is_alphabetic() {
            let mut j = i;
            while j < chars.len() && chars[j].1.is_alphabetic() {
                j += 1;
            }
            let end = chars.get(j).map_or(text.len(), |c| c.0);
            out.push(Token::Word(&text[at..end]));
            i = j;
        } else {
            if !c.is_whitespace() {
                out.push(Token::Mark(c));
            }
            i += 1;
        }
    }
    out
}

/// Whether the digits after a comma are a group of three ("1,024", not "1,2").
fn thousands_group(rest: &[(usize, char)]) -> bool {
    rest.len() >= 3
        && rest[..3].iter().all(|c| c.1.is_ascii_digit())
        && rest.get(3).is_none_or(|c| !c.1.is_ascii_digit())
}

fn word_value(w: &str, table: &[(&str, f64)]) -> Option<f64> {
    table
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(w))
        .map(|&(_, v)| v)
}

/// The numbers of a text, in order.
pub fn numbers(text: &str) -> Vec<Number> {
    let toks = tokens(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let mut decimals = 0;
        let value = match &toks[i] {
            Token::Digits(v, d) => {
                decimals = *d;
                Some(*v)
            }
            Token::Word(w) => {
                let lower = w.to_lowercase();
                // "doubles", "half" (a half needs its decimal), "twofold", "tenfold"
                let factor = word_value(&lower, FACTORS).map(|f| (f, 1)).or_else(|| {
                    lower
                        .strip_suffix("fold")
                        .and_then(|n| word_value(n, WORDS))
                        .map(|n| (n, 0))
                });
                if let Some((value, decimals)) = factor {
                    out.push(Number {
                        value,
                        unit: Unit::Factor,
                        decimals,
                    });
                    i += 1;
                    continue;
                }
                word_value(&lower, WORDS)
            }
            Token::Mark(_) => None,
        };
        let Some(mut value) = value else {
            i += 1;
            continue;
        };
        let mut j = i + 1;
        // "10k", "1.2 million": the number with its scale, and as written.
        if let Some(Token::Word(w)) = toks.get(j)
            && let Some(scale) = word_value(w, SCALES)
        {
            out.push(Number {
                value,
                unit: Unit::Plain,
                decimals,
            });
            value *= scale;
            decimals = 0;
            j += 1;
        }
        // A hyphen may stand between a number and its unit ("2-fold", "32-percent").
        let k = if toks.get(j) == Some(&Token::Mark('-')) {
            j + 1
        } else {
            j
        };
        let unit = match toks.get(k) {
            Some(Token::Mark('%')) => Some((Unit::Percent, 1)),
            Some(Token::Mark('×')) => Some((Unit::Factor, 1)),
            Some(Token::Word(w)) => match w.to_lowercase().as_str() {
                "percent" | "pct" => Some((Unit::Percent, 1)),
                "per" if matches!(toks.get(k + 1), Some(Token::Word(c)) if c.eq_ignore_ascii_case("cent")) => {
                    Some((Unit::Percent, 2))
                }
                "percentage" => Some((Unit::Percent, 1)),
                "x" | "fold" | "times" => Some((Unit::Factor, 1)),
                _ => None,
            },
            _ => None,
        };
        match unit {
            Some((unit, len)) => {
                out.push(Number {
                    value,
                    unit,
                    decimals,
                });
                i = k + len;
            }
            None => {
                out.push(Number {
                    value,
                    unit: Unit::Plain,
                    decimals,
                });
                i = j;
            }
        }
    }
    out
}

/// Whether a word is one `numbers` reads as a number or a unit (so it is not a content
/// word as well).
pub fn is_number_word(w: &str) -> bool {
    word_value(w, WORDS).is_some()
        || word_value(w, FACTORS).is_some()
        || w.strip_suffix("fold")
            .is_some_and(|n| n.is_empty() || word_value(n, WORDS).is_some())
        || matches!(
            w,
            "one"
                | "percent"
                | "percentage"
                | "times"
                | "thousand"
                | "million"
                | "millions"
                | "billion"
                | "billions"
                | "trillion"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<(f64, Unit)> {
        numbers(text)
            .into_iter()
            .map(|n| (n.value, n.unit))
            .collect()
    }

    #[test]
    fn one_number_however_it_is_written() {
        for text in ["32%", "32 %", "32 percent", "32-percent", "32 per cent"] {
            assert_eq!(read(text), vec![(32.0, Unit::Percent)], "{text}");
        }
        for text in [
            "2x", "2 x", "2×", "2-fold", "twofold", "two-fold", "doubles", "twice",
        ] {
            assert_eq!(read(text), vec![(2.0, Unit::Factor)], "{text}");
        }
        assert_eq!(read("1,024 nodes"), vec![(1024.0, Unit::Plain)]);
        assert_eq!(read("9.65x"), vec![(9.65, Unit::Factor)]);
        assert_eq!(
            read("1.2 million papers"),
            vec![(1.2, Unit::Plain), (1.2e6, Unit::Plain)]
        );
        assert_eq!(
            read("on 10k GPUs"),
            vec![(10.0, Unit::Plain), (1e4, Unit::Plain)]
        );
        assert_eq!(read("one of the first"), vec![]);
        assert_eq!(
            read("from 1,2 to 3"),
            vec![(1.0, Unit::Plain), (2.0, Unit::Plain), (3.0, Unit::Plain)]
        );
    }

    #[test]
    fn a_share_or_a_factor_needs_the_paper_to_say_so() {
        let paper = numbers("up to 32 percent faster on 2 GPUs");
        let stated = |answer: &str| {
            numbers(answer)
                .iter()
                .all(|a| paper.iter().any(|p| a.stated_by(p)))
        };
        assert!(stated("32% faster"));
        assert!(stated("two GPUs"));
        assert!(!stated("2x faster"), "2 GPUs is not a factor of 2");
        assert!(!stated("33% faster"));
        let paper = numbers("GPU-hours fall by 56.4% and latency by 35.82%");
        let stated = |answer: &str| {
            numbers(answer)
                .iter()
                .all(|a| paper.iter().any(|p| a.stated_by(p)))
        };
        assert!(stated("cuts GPU-hours 56%, latency 36 %"), "rounded");
        assert!(!stated("cuts GPU-hours 57%"));
    }
}
