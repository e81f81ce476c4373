//! The paper record every source produces, and the ids, paths and weeks derived from it.

use anyhow::{Result, bail};
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

/// How a paper arrived in an announcement feed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnnounceType {
    New,
    Cross,
    Replace,
    ReplaceCross,
}

impl AnnounceType {
    pub fn parse(s: &str) -> Option<AnnounceType> {
        match s.trim() {
            "new" => Some(AnnounceType::New),
            "cross" => Some(AnnounceType::Cross),
            "replace" => Some(AnnounceType::Replace),
            "replace-cross" => Some(AnnounceType::ReplaceCross),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Links {
    #[serde(default)]
    pub abs: String,
    #[serde(default)]
    pub pdf: String,
}

/// One paper as a source saw it: the fields fetch owns.
#[derive(Debug, Clone, PartialEq)]
pub struct Paper {
    pub id: PaperId,
    pub version: u32,
    pub title: String,
    pub authors: Vec<String>,
    pub published: DateTime<Utc>,
    pub updated: DateTime<Utc>,
    pub primary_category: String,
    pub categories: Vec<String>,
    pub abstract_text: String,
    pub comment: String,
    pub journal_ref: String,
    pub doi: String,
    pub source: String,
    pub links: Links,
    /// The announcement day, when an announcement feed said it.
    pub announced: Option<DateTime<Utc>>,
    pub announce_type: Option<AnnounceType>,
    /// The license, as a URL, where the source states one (`license::canonical`).
    pub license: String,
    /// MSC and ACM subject classes arXiv lists beside the categories (`35Q30`, `I.2.7`).
    pub classes: Vec<String>,
}

impl Paper {
    /// The instant that decides the week a paper is new in.
    pub fn first_seen(&self) -> DateTime<Utc> {
        self.announced.unwrap_or(self.published)
    }
}

/// A canonical paper id, without version: `2602.23556`, `hep-th/9901001`, or `doi-…` /
/// `item-…` slugs for papers that have no arXiv id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PaperId(String);

impl TryFrom<String> for PaperId {
    type Error = anyhow::Error;
    fn try_from(s: String) -> Result<Self> {
        PaperId::parse(&s)
    }
}

impl From<PaperId> for String {
    fn from(id: PaperId) -> String {
        id.0
    }
}

impl std::fmt::Display for PaperId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn is_new_style(s: &str) -> bool {
    let Some((yymm, num)) = s.split_once('.') else {
        return false;
    };
    yymm.len() == 4
        && yymm.bytes().all(|b| b.is_ascii_digit())
        && (4..=5).contains(&num.len())
        && num.bytes().all(|b| b.is_ascii_digit())
}

fn is_old_style(s: &str) -> bool {
    let Some((archive, num)) = s.split_once('/') else {
        return false;
    };
    !archive.is_empty()
        && archive
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'-' || b == b'.')
        && !archive.starts_with(['.', '-'])
        && !archive.contains("..")
        && num.len() == 7
        && num.bytes().all(|b| b.is_ascii_digit())
}

fn is_slug(s: &str) -> bool {
    (s.starts_with("doi-") || s.starts_with("item-"))
        && s.len() <= 200
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        && !s.contains("..")
}

impl PaperId {
    /// Accepts exactly the id shapes paperboy writes; anything that could name a path outside
    /// `content/` or `public/` is refused.
    pub fn parse(s: &str) -> Result<PaperId> {
        if is_new_style(s) || is_old_style(s) || is_slug(s) {
            Ok(PaperId(s.to_string()))
        } else {
            bail!("not a paper id: {s:?}")
        }
    }

    /// Splits `2602.23556v2` or `hep-th/9901001v1` into id and version.
    pub fn parse_versioned(s: &str) -> Result<(PaperId, Option<u32>)> {
        let s = s.trim();
        if let Some(pos) = s.rfind('v') {
            let (head, tail) = (&s[..pos], &s[pos + 1..]);
            if !tail.is_empty()
                && tail.bytes().all(|b| b.is_ascii_digit())
                && let Ok(id) = PaperId::parse(head)
            {
                return Ok((id, tail.parse().ok()));
            }
        }
        Ok((PaperId::parse(s)?, None))
    }

    /// Finds an arXiv id in an abs/pdf URL, an `oai:arXiv.org:` guid or an `arXiv:` prefix.
    pub fn from_arxiv_ref(s: &str) -> Option<(PaperId, Option<u32>)> {
        let s = s.trim();
        let tail = ["/abs/", "/pdf/", "oai:arXiv.org:", "arXiv:", "arxiv:"]
            .iter()
            .find_map(|p| s.find(p).map(|i| &s[i + p.len()..]))?;
        let tail = tail.trim_end_matches(".pdf").trim_end_matches('/');
        PaperId::parse_versioned(tail).ok()
    }

    /// A bare arXiv id (`0704.0001`, `math/0211159v2`) or any reference `from_arxiv_ref`
    /// reads: the bulk sources (OAI-PMH, the metadata snapshot) write them bare.
    pub fn from_arxiv_id(s: &str) -> Option<(PaperId, Option<u32>)> {
        PaperId::from_arxiv_ref(s).or_else(|| {
            PaperId::parse_versioned(s)
                .ok()
                .filter(|(id, _)| id.is_arxiv())
        })
    }

    /// A paper without an arXiv id, named by its DOI.
    pub fn from_doi(doi: &str) -> Option<PaperId> {
        let slug: String = doi
            .trim()
            .to_ascii_lowercase()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        let slug = slug.trim_matches(['-', '.']).replace("..", ".");
        if slug.is_empty() {
            return None;
        }
        PaperId::parse(&format!("doi-{slug}")).ok()
    }

    /// A paper with neither arXiv id nor DOI, named by a hash of its feed id or link.
    pub fn from_item_key(key: &str) -> PaperId {
        use sha2::{Digest, Sha256};
        let hash = Sha256::digest(key.trim().as_bytes());
        let hex: String = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
        PaperId(format!("item-{hex}"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_arxiv(&self) -> bool {
        is_new_style(&self.0) || is_old_style(&self.0)
    }

    /// URL- and file-safe form: `hep-th/9901001` -> `hep-th-9901001`.
    pub fn slug(&self) -> String {
        self.0.replace('/', "-")
    }

    /// The month an arXiv id names (`2103.07442`, `hep-th/9901001`: March 2021, January
    /// 1999), as year and month; none for other ids.
    pub fn arxiv_month(&self) -> Option<(i32, u32)> {
        let yymm = self.yymm()?.as_bytes();
        let two = |at: usize| u32::from(yymm[at] - b'0') * 10 + u32::from(yymm[at + 1] - b'0');
        let (yy, month) = (two(0) as i32, two(2));
        // Old-style ids began in 1991; new-style ones in April 2007.
        let year = if yy >= 91 { 1900 + yy } else { 2000 + yy };
        (1..=12).contains(&month).then_some((year, month))
    }

    /// The four digits of an arXiv id's year and month (`2103` of `2103.07442`, `9901` of
    /// `hep-th/9901001`); none for other ids. Both shapes were checked to hold them.
    fn yymm(&self) -> Option<&str> {
        if is_new_style(&self.0) {
            Some(&self.0[..4])
        } else if is_old_style(&self.0) {
            let (_, num) = self.0.split_once('/')?;
            Some(&num[..4])
        } else {
            None
        }
    }

    /// Path under `content/papers/`, sharded by month (arXiv) or by a hash prefix (others).
    pub fn content_path(&self) -> String {
        let shard = if let Some(yymm) = self.yymm() {
            yymm.to_string()
        } else {
            use sha2::{Digest, Sha256};
            let hash = Sha256::digest(self.0.as_bytes());
            format!(
                "{}-{:02x}",
                &self.0[..self.0.find('-').unwrap_or(0)],
                hash[0]
            )
        };
        format!("{shard}/{}.md", self.slug())
    }
}

/// When a paper's first version appeared, as far as its record can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstVersion {
    /// The instant its source gave for version 1.
    Day(DateTime<Utc>),
    /// Only the month its arXiv id names. The record's date is later than that month, so it
    /// is a later version's: arXiv's announcement feed gives a replaced paper the day of its
    /// new version, and a record made from one version's page that version's date.
    Month { year: i32, month: u32 },
}

impl FirstVersion {
    /// What `published` says of version 1 of paper `id`. An arXiv id is given in the month
    /// of its first version (at most a day later, across time zones), so a date past that
    /// is a later version's.
    pub fn of(id: &PaperId, published: DateTime<Utc>) -> FirstVersion {
        let Some((year, month)) = id.arxiv_month() else {
            return FirstVersion::Day(published);
        };
        let (next_year, next_month) = if month == 12 {
            (year + 1, 1)
        } else {
            (year, month + 1)
        };
        match month_start(next_year, next_month).map(|t| t + Duration::days(1)) {
            Some(t) if published >= t => FirstVersion::Month { year, month },
            _ => FirstVersion::Day(published),
        }
    }

    pub fn year(&self) -> i32 {
        match *self {
            FirstVersion::Day(t) => t.year(),
            FirstVersion::Month { year, .. } => year,
        }
    }

    /// The instant papers are ordered by: the day's, or the month's first.
    pub fn instant(&self) -> DateTime<Utc> {
        match *self {
            FirstVersion::Day(t) => t,
            FirstVersion::Month { year, month } => month_start(year, month).unwrap_or_default(),
        }
    }
}

/// Midnight UTC on the first of a month.
fn month_start(year: i32, month: u32) -> Option<DateTime<Utc>> {
    Some(
        NaiveDate::from_ymd_opt(year, month, 1)?
            .and_hms_opt(0, 0, 0)?
            .and_utc(),
    )
}

/// An ISO week, `2026-W09`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Week {
    pub year: i32,
    pub week: u32,
}

impl Week {
    pub fn of(t: DateTime<Utc>) -> Week {
        let w = t.iso_week();
        Week {
            year: w.year(),
            week: w.week(),
        }
    }

    pub fn parse(s: &str) -> Result<Week> {
        let bad = || anyhow::anyhow!("not an ISO week like 2026-W09: {s:?}");
        let (y, w) = s.split_once("-W").ok_or_else(bad)?;
        if y.len() != 4 || w.len() != 2 {
            return Err(bad());
        }
        let week = Week {
            year: y.parse().map_err(|_| bad())?,
            week: w.parse().map_err(|_| bad())?,
        };
        NaiveDate::from_isoywd_opt(week.year, week.week, chrono::Weekday::Mon).ok_or_else(bad)?;
        Ok(week)
    }

    pub fn start(&self) -> NaiveDate {
        NaiveDate::from_isoywd_opt(self.year, self.week, chrono::Weekday::Mon)
            .expect("weeks are only built from valid dates")
    }

    pub fn end(&self) -> NaiveDate {
        self.start() + Duration::days(6)
    }

    /// True once the whole week lies before `now`.
    pub fn has_ended(&self, now: DateTime<Utc>) -> bool {
        now.date_naive() > self.end()
    }

    /// True once the week ended more than `grace_days` before `now`: its digest takes no
    /// more papers.
    pub fn is_frozen(&self, now: DateTime<Utc>, grace_days: u32) -> bool {
        now.date_naive() > self.end() + Duration::days(i64::from(grace_days))
    }

    pub fn title(&self) -> String {
        format!("Week {}, {}", self.week, self.year)
    }
}

impl std::fmt::Display for Week {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-W{:02}", self.year, self.week)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_paths() {
        let (id, v) = PaperId::parse_versioned("2602.23556v2").unwrap();
        assert_eq!((id.as_str(), v), ("2602.23556", Some(2)));
        assert_eq!(id.content_path(), "2602/2602.23556.md");
        let (id, v) = PaperId::from_arxiv_ref("http://arxiv.org/abs/hep-th/9901001v2").unwrap();
        assert_eq!((id.as_str(), v), ("hep-th/9901001", Some(2)));
        assert_eq!(id.content_path(), "9901/hep-th-9901001.md");
        assert_eq!(id.slug(), "hep-th-9901001");
        let id = PaperId::from_doi("10.1101/2025.04.10.648123").unwrap();
        assert_eq!(id.as_str(), "doi-10.1101-2025.04.10.648123");
        assert!(id.content_path().starts_with("doi-"));
    }

    #[test]
    fn a_date_past_the_month_of_an_arxiv_id_is_not_the_first_version_s() {
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().to_utc();
        let id = |s: &str| PaperId::parse(s).unwrap();
        assert_eq!(id("2103.07442").arxiv_month(), Some((2021, 3)), "new style");
        assert_eq!(id("hep-th/9901001").arxiv_month(), Some((1999, 1)));
        assert_eq!(id("cs/0503050").arxiv_month(), Some((2005, 3)));
        assert_eq!(id("doi-10.1101-2025.04.10.648123").arxiv_month(), None);
        // arXiv's RSS lists v3 of 2103.07442 under the day v3 was announced.
        let replaced = FirstVersion::of(&id("2103.07442"), at("2024-11-28T05:00:00Z"));
        assert_eq!(
            replaced,
            FirstVersion::Month {
                year: 2021,
                month: 3
            }
        );
        assert_eq!(replaced.year(), 2021);
        assert_eq!(replaced.instant(), at("2021-03-01T00:00:00Z"));
        // Within the month, or the day after it (time zones), the date is v1's.
        for t in [
            "2021-03-31T23:59:59Z",
            "2021-04-01T03:00:00Z",
            "2021-02-28T20:00:00Z",
        ] {
            assert_eq!(
                FirstVersion::of(&id("2103.07442"), at(t)),
                FirstVersion::Day(at(t))
            );
        }
        assert_eq!(
            FirstVersion::of(&id("1912.00001"), at("2020-01-02T00:00:00Z")),
            FirstVersion::Month {
                year: 2019,
                month: 12
            }
        );
        // A journal paper's date is whatever its feed said.
        let doi = id("doi-10.1101-2025.04.10.648123");
        let t = at("2026-01-01T00:00:00Z");
        assert_eq!(FirstVersion::of(&doi, t), FirstVersion::Day(t));
    }

    #[test]
    fn escaping_ids_are_refused() {
        for bad in [
            "../etc/passwd",
            "/abs",
            "doi-../../x",
            "2602.2355/../..",
            "",
            "a b",
        ] {
            assert!(PaperId::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn weeks() {
        let w = Week::parse("2026-W09").unwrap();
        assert_eq!(w.start().to_string(), "2026-02-23");
        assert_eq!(w.end().to_string(), "2026-03-01");
        assert_eq!(w.to_string(), "2026-W09");
        assert!(Week::parse("2026-W54").is_err());
        assert!(Week::parse("../../x").is_err());
    }
}
