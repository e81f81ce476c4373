//! Content files: front matter (TOML between `+++`, or YAML between `---`) and a markdown body.

use anyhow::{Result, anyhow};
use chrono::{DateTime, NaiveDate, Utc};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use std::borrow::Cow;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Toml,
    Yaml,
}

/// A content file split into its parts, borrowing the text.
#[derive(Debug)]
pub struct Split<'a> {
    pub format: Format,
    pub front: &'a str,
    /// 1-based line of the first front matter line in the file.
    pub front_line: usize,
    pub body: &'a str,
}

pub fn split<'a>(text: &'a str, path: &Path) -> Result<Split<'a>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (format, fence) = if text.starts_with("+++") {
        (Format::Toml, "+++")
    } else if text.starts_with("---") {
        (Format::Yaml, "---")
    } else {
        return Err(anyhow!(
            "{}:1: no front matter: the file must start with +++ (TOML) or --- (YAML)",
            path.display()
        ));
    };
    let after_open = text[3..]
        .strip_prefix("\r\n")
        .or_else(|| text[3..].strip_prefix('\n'))
        .ok_or_else(|| {
            anyhow!(
                "{}:1: the opening {fence} must stand alone on its line",
                path.display()
            )
        })?;
    let mut offset = 0;
    for line in after_open.split_inclusive('\n') {
        if line.trim_end() == fence {
            let front = &after_open[..offset];
            let body = &after_open[offset + line.len()..];
            return Ok(Split {
                format,
                front,
                front_line: 2,
                body,
            });
        }
        offset += line.len();
    }
    Err(anyhow!(
        "{}:1: the front matter opened with {fence} is never closed",
        path.display()
    ))
}

/// Deserializes front matter, naming file and line on error.
pub fn parse<T: DeserializeOwned>(split: &Split, path: &Path) -> Result<T> {
    match split.format {
        Format::Toml => toml::from_str(split.front).map_err(|e| {
            let line = e
                .span()
                .map(|s| {
                    split.front[..s.start.min(split.front.len())]
                        .matches('\n')
                        .count()
                })
                .unwrap_or(0);
            let message = e.message().trim_end();
            match key_on_line(split.front, line, message) {
                Some(key) => anyhow!(
                    "{}:{}: key `{key}`: {message}",
                    path.display(),
                    split.front_line + line
                ),
                None => anyhow!("{}:{}: {message}", path.display(), split.front_line + line),
            }
        }),
        Format::Yaml => serde_saphyr::from_str(split.front).map_err(|e| {
            let msg = e.to_string();
            let line = yaml_line(&msg).unwrap_or(0);
            let line = if line > 0 {
                split.front_line + line - 1
            } else {
                split.front_line
            };
            anyhow!(
                "{}:{}: {}",
                path.display(),
                line,
                msg.lines().next().unwrap_or("")
            )
        }),
    }
}

/// The TOML key on line `index` (0-based) of `text`, when `message` does not already name
/// it: toml's message for a wrong value names the type it wanted, not the key.
pub fn key_on_line<'t>(text: &'t str, index: usize, message: &str) -> Option<&'t str> {
    text.lines()
        .nth(index)
        .and_then(|l| l.split_once('='))
        .map(|(k, _)| k.trim())
        .filter(|k| !k.is_empty() && !k.starts_with('[') && !message.contains(k))
}

fn yaml_line(msg: &str) -> Option<usize> {
    let at = msg.find("line ")?;
    msg[at + 5..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// Accepts a TOML datetime (which toml hands over as a private map) or an RFC 3339 string.
pub fn de_datetime<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
    let s = d.deserialize_any(DateVisitor)?;
    crate::sources::text::parse_date(&s)
        .ok_or_else(|| serde::de::Error::custom(format!("not a date and time: {s:?}")))
}

pub fn de_opt_datetime<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DateTime<Utc>>, D::Error> {
    de_datetime(d).map(Some)
}

pub fn de_date<'de, D: Deserializer<'de>>(d: D) -> Result<NaiveDate, D::Error> {
    let s = d.deserialize_any(DateVisitor)?;
    NaiveDate::parse_from_str(s.get(..10).unwrap_or(&s), "%Y-%m-%d")
        .map_err(|_| serde::de::Error::custom(format!("not a date: {s:?}")))
}

struct DateVisitor;

impl<'de> serde::de::Visitor<'de> for DateVisitor {
    type Value = String;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a date, like 2026-02-26T23:39:42Z")
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<String, A::Error> {
        let mut out = None;
        while let Some(key) = map.next_key::<String>()? {
            let v: toml::value::Datetime = if key.contains("datetime") {
                // toml's private datetime map carries the value as a string.
                let s: String = map.next_value()?;
                s.parse().map_err(serde::de::Error::custom)?
            } else {
                return Err(serde::de::Error::custom(format!(
                    "unexpected key {key:?} in a date"
                )));
            };
            out = Some(v.to_string());
        }
        out.ok_or_else(|| serde::de::Error::custom("empty date"))
    }
}

/// The editor's part of a paper page.
#[derive(Debug, Clone, Default, Deserialize, serde::Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Review {
    #[serde(default)]
    pub headline: String,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub badges: Vec<String>,
    #[serde(default)]
    pub figure: String,
    #[serde(default)]
    pub figure_caption: String,
}

/// What `paperboy review` wrote: the machine's part of a paper page. People's `[review]`
/// wins over it key by key when pages are rendered; review never touches `[review]`.
#[derive(Debug, Clone, Default, Deserialize, serde::Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    #[serde(default)]
    pub headline: String,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub badges: Vec<String>,
    /// A repository the paper links (GitHub, GitLab, Codeberg, Hugging Face, Zenodo).
    #[serde(default)]
    pub code: String,
    /// The thumbnail, relative to `content/` (`figures/2602/2602.23556.webp`).
    #[serde(default)]
    pub figure: String,
    #[serde(default)]
    pub figure_caption: String,
    #[serde(default)]
    pub figure_width: u32,
    #[serde(default)]
    pub figure_height: u32,
    /// Where the image was taken from, for the credit.
    #[serde(default)]
    pub figure_source: String,
    /// The summarizer that wrote headline and summary: `extractive`, or the model.
    #[serde(default)]
    pub by: String,
    /// The paper version reviewed; a newer version is reviewed again.
    #[serde(default)]
    pub reviewed_version: u32,
    /// What the paper's HTML rendition gave: `ok`, `none` (no rendition, or a failed
    /// conversion) or empty (not asked: not an arXiv paper).
    #[serde(default)]
    pub html: String,
    /// When the HTML rendition was last asked for: `none` is asked again after
    /// `[review] retry_days`.
    #[serde(
        default,
        deserialize_with = "de_opt_date",
        skip_serializing_if = "Option::is_none"
    )]
    pub checked: Option<NaiveDate>,
}

/// A paper file's front matter, as the build reads it. Serialized only for the parse
/// cache (`site::parsed`), which reads it back through the same `Deserialize`.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct PaperFront {
    pub id: crate::paper::PaperId,
    #[serde(default = "one")]
    pub version: u32,
    pub title: String,
    #[serde(default)]
    pub authors: Vec<String>,
    #[serde(deserialize_with = "de_datetime")]
    pub published: DateTime<Utc>,
    #[serde(deserialize_with = "de_datetime")]
    pub updated: DateTime<Utc>,
    #[serde(
        default,
        deserialize_with = "de_opt_datetime",
        skip_serializing_if = "Option::is_none"
    )]
    pub announced: Option<DateTime<Utc>>,
    #[serde(default)]
    pub primary_category: String,
    #[serde(default)]
    pub categories: Vec<String>,
    #[serde(rename = "abstract", default)]
    pub abstract_text: String,
    #[serde(default)]
    pub comment: String,
    #[serde(default)]
    pub journal_ref: String,
    #[serde(default)]
    pub doi: String,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub links: crate::paper::Links,
    /// The license the authors chose, as a URL (arXiv's and Creative Commons' own).
    #[serde(default)]
    pub license: String,
    /// MSC and ACM subject classes (`35Q30`, `I.2.7`), kept apart from the categories.
    #[serde(default)]
    pub classes: Vec<String>,
    /// Read with `people_review`. Boxed, as is `machine`: a paper nobody reviewed holds
    /// 8 bytes in each rather than 120 and 232, for every paper, through the whole build.
    #[serde(default)]
    pub review: Option<Box<Review>>,
    #[serde(default)]
    pub machine: Option<Box<Machine>>,
    /// Free-form values for custom templates, as in Zola's `[extra]`.
    #[serde(default)]
    pub extra: Option<serde_json::Value>,
}

fn one() -> u32 {
    1
}

/// A digest file's front matter.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DigestFront {
    pub week: String,
    #[serde(default)]
    pub title: String,
    #[serde(default, deserialize_with = "de_opt_date")]
    pub start: Option<NaiveDate>,
    #[serde(default, deserialize_with = "de_opt_date")]
    pub end: Option<NaiveDate>,
    #[serde(default)]
    pub papers: Vec<String>,
    #[serde(default)]
    pub updated_papers: Vec<String>,
    #[serde(default)]
    pub extra: Option<serde_json::Value>,
}

fn de_opt_date<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NaiveDate>, D::Error> {
    de_date(d).map(Some)
}

impl PaperFront {
    /// The editor's `[review]`, empty where there is none.
    pub fn people_review(&self) -> &Review {
        static NONE: Review = Review {
            headline: String::new(),
            summary: String::new(),
            badges: Vec::new(),
            figure: String::new(),
            figure_caption: String::new(),
        };
        self.review.as_deref().unwrap_or(&NONE)
    }

    /// The headline and one-line summary a card shows: the editor's, else the machine's.
    pub fn shown_lines<'a>(&'a self) -> (&'a str, &'a str) {
        let r = self.people_review();
        let m = self.machine.as_deref();
        let pick = |people: &'a String, machine: Option<&'a String>| -> &'a str {
            match machine {
                Some(machine) if people.is_empty() => machine,
                _ => people,
            }
        };
        (
            pick(&r.headline, m.map(|m| &m.headline)),
            pick(&r.summary, m.map(|m| &m.summary)),
        )
    }

    /// The one-liner a card shows: the editor's as written; the machine's, a sentence or the
    /// end of one whose full stop the summarizer drops, with it, as an editor's has and as
    /// the reference digest's one-liners have. One cut short keeps its "…", and one that ends
    /// with an address takes no stop a reader could copy with it.
    pub fn shown_summary(&self) -> Cow<'_, str> {
        let (_, summary) = self.shown_lines();
        let last_word = summary.split_whitespace().next_back().unwrap_or("");
        // A stop inside closing quotes, brackets or a formula ends it too: "… “as intended.”"
        let closed = summary
            .trim_end()
            .trim_end_matches([')', ']', '"', '\'', '”', '’', '$']);
        let ended = closed.ends_with(['.', '!', '?', '…'])
            || last_word.contains("://")
            || last_word.starts_with("www.");
        if self.people_review().summary.is_empty() && !summary.trim().is_empty() && !ended {
            Cow::Owned(format!("{}.", summary.trim_end()))
        } else {
            Cow::Borrowed(summary)
        }
    }

    /// When version 1 appeared, as far as `published` can tell (`FirstVersion::of`).
    pub fn first_version(&self) -> crate::paper::FirstVersion {
        crate::paper::FirstVersion::of(&self.id, self.published)
    }

    pub fn to_paper(&self) -> crate::paper::Paper {
        crate::paper::Paper {
            id: self.id.clone(),
            version: self.version,
            title: self.title.clone(),
            authors: self.authors.clone(),
            published: self.published,
            updated: self.updated,
            primary_category: self.primary_category.clone(),
            categories: self.categories.clone(),
            abstract_text: self.abstract_text.clone(),
            comment: self.comment.clone(),
            journal_ref: self.journal_ref.clone(),
            doi: self.doi.clone(),
            source: self.source.clone(),
            links: self.links.clone(),
            announced: self.announced,
            announce_type: None,
            license: self.license.clone(),
            classes: self.classes.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_and_yaml_agree() {
        let toml_file = "+++\nid = \"2602.23556\"\ntitle = \"T\"\npublished = 2026-02-26T23:39:42Z\nupdated = 2026-02-26T23:39:42Z\n[review]\nheadline = \"H\"\n+++\nBody\n";
        let yaml_file = "---\nid: \"2602.23556\"\ntitle: T\npublished: 2026-02-26T23:39:42Z\nupdated: 2026-02-26T23:39:42Z\nreview:\n  headline: H\n---\nBody\n";
        for f in [toml_file, yaml_file] {
            let s = split(f, Path::new("x.md")).unwrap();
            let p: PaperFront = parse(&s, Path::new("x.md")).unwrap();
            assert_eq!(p.people_review().headline, "H");
            assert_eq!(p.published.to_rfc3339(), "2026-02-26T23:39:42+00:00");
            assert_eq!(s.body, "Body\n");
        }
    }

    /// A paper's front matter with these tables after its required keys.
    fn front(tables: &str) -> PaperFront {
        let f = format!(
            "+++\nid = \"2602.23556\"\ntitle = \"T\"\npublished = 2026-02-26T23:39:42Z\nupdated = 2026-02-26T23:39:42Z\n{tables}+++\n"
        );
        parse(&split(&f, Path::new("x.md")).unwrap(), Path::new("x.md")).unwrap()
    }

    #[test]
    fn shown_lines_are_the_editors_else_the_machines_line_by_line() {
        let machine = "[machine]\nheadline = \"MH\"\nsummary = \"MS\"\n";
        assert_eq!(front("").shown_lines(), ("", ""));
        assert_eq!(front(machine).shown_lines(), ("MH", "MS"));
        let people = format!("[review]\nheadline = \"PH\"\n{machine}");
        assert_eq!(front(&people).shown_lines(), ("PH", "MS"));
        assert_eq!(
            front("[review]\nsummary = \"PS\"\n").shown_lines(),
            ("", "PS")
        );
    }

    #[test]
    fn errors_name_file_and_line() {
        let f = "+++\nid = \"2602.23556\"\ntitle = \"T\"\npublished = 2026-02-26T23:39:42Z\nupdated = oops\n+++\n";
        let s = split(f, Path::new("c/p.md")).unwrap();
        let err = parse::<PaperFront>(&s, Path::new("c/p.md"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("c/p.md:5:"), "{err}");
    }

    #[test]
    fn a_machine_one_liner_ends_with_its_full_stop_and_an_editors_is_as_written() {
        let machine = |summary: &str| front(&format!("[machine]\nsummary = \"{summary}\"\n"));
        assert_eq!(
            machine("We cut latency by 42%").shown_summary(),
            "We cut latency by 42%."
        );
        assert_eq!(
            machine("Significant (p < 0.05)").shown_summary(),
            "Significant (p < 0.05)."
        );
        assert_eq!(
            machine("Ends with a formula $x^2$ ").shown_summary(),
            "Ends with a formula $x^2$."
        );
        for whole in [
            "Cut short at a word…",
            "Already ended.",
            "Does it hold?",
            "",
            "A video is at https://youtu.be/EdGcNbGSGeY",
            "It reads “as intended.”",
            "   ",
        ] {
            assert_eq!(machine(whole).shown_summary(), whole);
        }
        let editor =
            front("[review]\nsummary = \"An editor's line\"\n[machine]\nsummary = \"M\"\n");
        assert_eq!(editor.shown_summary(), "An editor's line");
    }
}
