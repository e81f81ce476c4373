//! Badges from what a paper's own metadata and HTML say, by rules a site can read and
//! extend in `paperboy.toml`. A badge is given only where its rule matches: none that the
//! data does not back.

use anyhow::{Context, Result};
use regex::Regex;
use serde::Deserialize;

/// One rule: where `pattern` matches one of `fields`, the badge is `label` with
/// `{name}` replaced by the match's named group (`{0}`: the whole match). A `link` rule's
/// match is a URL that goes on the card as the paper's code.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BadgeRule {
    pub label: String,
    /// Of `title`, `abstract`, `comment`, `journal_ref`.
    pub fields: Vec<String>,
    pub pattern: String,
    #[serde(default)]
    pub link: bool,
}

/// The built-in badge of a paper that links its code: a card makes it the link.
pub const CODE_BADGE: &str = "Code";

/// The rules every site starts with; `[review] default_badges = false` drops them.
pub fn default_rules() -> Vec<BadgeRule> {
    let rule = |label: &str, fields: &[&str], pattern: &str, link: bool| BadgeRule {
        label: label.into(),
        fields: fields.iter().map(|f| f.to_string()).collect(),
        pattern: pattern.into(),
        link,
    };
    vec![
        // "Accepted to ICS 2026", "to appear in Proceedings of VLDB 2026", "(ICST 2026)". A
        // workshop says so ("Workshop on … at ICPADS 2015", "ICALP 2011 Group Testing
        // Workshop", "SBFT@ICSE 2024"): its paper was not in the conference it is held at.
        rule(
            "{venue} {year} {workshop}{workshop_after}",
            &["comment", "journal_ref"],
            r"(?i:accepted|published|to appear|appear(?:s|ing)? in|presented|camera[- ]ready)[^.;]*?(?:\b(?P<workshop>(?i:workshop))\b[^.;]*?)?\b(?P<venue>(?:[A-Z][A-Za-z]*@)?[A-Z][A-Za-z]*[A-Z][A-Za-z-]*)[ '’]*(?P<year>(?:19|20)\d{2})\b(?:[ A-Za-z-]{0,40}?\b(?P<workshop_after>(?i:workshop))\b)?",
            false,
        ),
        rule(
            CODE_BADGE,
            &["abstract", "comment"],
            r"https?://(?:www\.)?(?:github\.com|gitlab\.com|codeberg\.org|huggingface\.co|zenodo\.org|bitbucket\.org)/[^\s)\]}>,;'`]+",
            true,
        ),
        rule(
            "Survey",
            &["title"],
            r"(?i)\b(?:a survey|survey of|survey on|systematic (?:literature )?review|a review of|tutorial)\b",
            false,
        ),
        rule(
            "Benchmark",
            &["title"],
            r"(?i)\bbenchmark(?:s|ing)?\b",
            false,
        ),
        rule("Dataset", &["title"], r"(?i)\b(?:dataset|corpus)\b", false),
    ]
}

/// At most this many badges on a card.
pub const MAX_BADGES: usize = 4;

/// A badge longer than this is not a badge.
const MAX_LABEL: usize = 30;

/// The rules, compiled once.
pub struct Rules {
    rules: Vec<(BadgeRule, Regex)>,
    theorems: bool,
}

/// What the rules read of a paper.
pub struct Fields<'a> {
    pub title: &'a str,
    pub abstract_text: &'a str,
    pub comment: &'a str,
    pub journal_ref: &'a str,
}

impl Fields<'_> {
    fn get(&self, name: &str) -> &str {
        match name {
            "title" => self.title,
            "abstract" => self.abstract_text,
            "comment" => self.comment,
            "journal_ref" => self.journal_ref,
            _ => "",
        }
    }
}

impl Rules {
    /// Compiles `rules`; an error names the rule and what is wrong with its pattern.
    /// `theorems`: count theorems in the HTML ("2 theorems").
    pub fn new(rules: &[BadgeRule], theorems: bool) -> Result<Rules> {
        let mut compiled = Vec::new();
        for (i, r) in rules.iter().enumerate() {
            for f in &r.fields {
                if !matches!(f.as_str(), "title" | "abstract" | "comment" | "journal_ref") {
                    anyhow::bail!(
                        "review.badge[{i}] ({:?}): unknown field {f:?} (title, abstract, comment or journal_ref)",
                        r.label
                    );
                }
            }
            let re = Regex::new(&r.pattern)
                .with_context(|| format!("review.badge[{i}] ({:?}): bad pattern", r.label))?;
            compiled.push((r.clone(), re));
        }
        Ok(Rules {
            rules: compiled,
            theorems,
        })
    }

    /// The paper's badges, in rule order, and the code link a `link` rule found.
    pub fn apply(&self, fields: &Fields, theorems: usize) -> (Vec<String>, String) {
        let mut badges: Vec<String> = Vec::new();
        let mut code = String::new();
        for (rule, re) in &self.rules {
            let Some(caps) = rule.fields.iter().find_map(|f| re.captures(fields.get(f))) else {
                continue;
            };
            if rule.link && code.is_empty() {
                code = caps[0].trim_end_matches(['.', ':']).to_string();
            }
            let label = fill(&rule.label, &caps);
            if !label.is_empty() && label.chars().count() <= MAX_LABEL && !badges.contains(&label) {
                badges.push(label);
            }
        }
        if self.theorems && theorems > 0 {
            badges.push(if theorems == 1 {
                "1 theorem".into()
            } else {
                format!("{theorems} theorems")
            });
        }
        badges.truncate(MAX_BADGES);
        (badges, code)
    }
}

fn fill(label: &str, caps: &regex::Captures) -> String {
    let mut out = String::new();
    let mut rest = label;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            out.push_str(&rest[open..]);
            return out.trim().to_string();
        };
        let name = &rest[open + 1..open + close];
        let value = match name.parse::<usize>() {
            Ok(n) => caps.get(n),
            Err(_) => caps.name(name),
        };
        out.push_str(value.map(|m| m.as_str()).unwrap_or(""));
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    crate::sources::xml::fold_whitespace(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn badges(
        title: &str,
        abstract_text: &str,
        comment: &str,
        theorems: usize,
    ) -> (Vec<String>, String) {
        Rules::new(&default_rules(), true).unwrap().apply(
            &Fields {
                title,
                abstract_text,
                comment,
                journal_ref: "",
            },
            theorems,
        )
    }

    #[test]
    fn venues_code_and_theorems() {
        assert_eq!(badges("T", "", "Accepted to ICS 2026", 0).0, ["ICS 2026"]);
        assert_eq!(
            badges("T", "", "Accepted at the 19th IEEE International Conference on Software Testing, Verification and Validation (ICST 2026)", 0).0,
            ["ICST 2026"]
        );
        assert_eq!(
            badges("T", "", "To appear in NeurIPS'25", 0).0,
            Vec::<String>::new()
        );
        // Workshops are named as such.
        for (comment, badge) in [
            (
                "4 pages, to appear in the Proceedings of the 17th International Workshop on Search-Based and Fuzz Testing (SBFT@ICSE 2024)",
                "SBFT@ICSE 2024 Workshop",
            ),
            (
                "Preprint. Accepted to the Workshop on Automated Testing for Cyber-Physical Systems in the Cloud at ICPADS 2015",
                "ICPADS 2015 Workshop",
            ),
            (
                "14 pages; to appear in \"Algorithmica\". Part of this work has been presented at the ICALP 2011 Group Testing Workshop; arXiv:1106.3680",
                "ICALP 2011 Workshop",
            ),
            (
                "Accepted at the NeurIPS 2024 workshop on ML for Systems",
                "NeurIPS 2024 workshop",
            ),
        ] {
            assert_eq!(badges("T", "", comment, 0).0, [badge], "{comment}");
        }
        // A workshop in another sentence is not the venue's.
        assert_eq!(
            badges(
                "T",
                "",
                "Accepted to ICS 2026. An early version was at a workshop.",
                0
            )
            .0,
            ["ICS 2026"]
        );
        assert_eq!(
            badges("T", "", "12 pages, 5 figures", 0).0,
            Vec::<String>::new()
        );
        let (b, code) = badges(
            "A Survey of Things",
            "Code is at https://github.com/aishwaryyasarkar/rudder-llm-agent.",
            "",
            2,
        );
        assert_eq!(b, ["Code", "Survey", "2 theorems"]);
        assert_eq!(code, "https://github.com/aishwaryyasarkar/rudder-llm-agent");
        assert_eq!(badges("T", "", "", 1).0, ["1 theorem"]);
    }

    #[test]
    fn a_bad_rule_is_named() {
        let bad = BadgeRule {
            label: "x".into(),
            fields: vec!["title".into()],
            pattern: "(".into(),
            link: false,
        };
        let err = Rules::new(&[bad], false).err().unwrap().to_string();
        assert!(err.contains("review.badge[0]"), "{err}");
    }
}
