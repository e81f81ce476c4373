//! Paper licenses: the URL a source or an HTML rendition states, read into one canonical
//! form, a short name to show, and whether it lets anyone share the work.

/// arXiv's own licence: it lets arXiv distribute the paper and grants nothing to anyone else.
pub const ARXIV_NONEXCLUSIVE: &str = "http://arxiv.org/licenses/nonexclusive-distrib/1.0/";
pub const CC0: &str = "http://creativecommons.org/publicdomain/zero/1.0/";

/// The canonical URL of a licence given as a URL ("https://creativecommons.org/licenses/by/4.0")
/// or as the words arXiv's HTML renditions use ("CC BY 4.0", "arXiv.org perpetual
/// non-exclusive license"). Another URL is kept as it is; words it does not know give none.
pub fn canonical(stated: &str) -> Option<String> {
    let s = stated.trim();
    if s.is_empty() {
        return None;
    }
    let lower = s.to_ascii_lowercase();
    if lower.contains("arxiv.org/licenses/nonexclusive-distrib")
        || (lower.contains("non-exclusive") && lower.contains("arxiv"))
    {
        return Some(ARXIV_NONEXCLUSIVE.into());
    }
    if lower.contains("arxiv.org/licenses/assumed-1991-2003") {
        return Some("http://arxiv.org/licenses/assumed-1991-2003/".into());
    }
    if lower.contains("publicdomain/zero")
        || lower.contains("cc zero")
        || words(&lower).iter().any(|w| w == "cc0")
    {
        return Some(CC0.into());
    }
    if lower.contains("publicdomain/mark") || lower == "public domain" {
        return Some("http://creativecommons.org/publicdomain/mark/1.0/".into());
    }
    if let Some(at) = lower.find("creativecommons.org/licenses/") {
        let rest = &lower[at + "creativecommons.org/licenses/".len()..];
        let mut parts = rest.split('/').filter(|p| !p.is_empty());
        let kind = parts.next()?;
        let version = parts.next().unwrap_or("4.0");
        if cc_kind(kind) {
            return Some(format!(
                "http://creativecommons.org/licenses/{kind}/{version}/"
            ));
        }
    }
    // "CC BY-NC-SA 4.0", "Creative Commons Attribution 4.0 International".
    let w = words(&lower);
    let version = w
        .iter()
        .find(|t| t.chars().next().is_some_and(|c| c.is_ascii_digit()) && t.contains('.'))
        .cloned()
        .unwrap_or_else(|| "4.0".into());
    if let Some(i) = w.iter().position(|t| t == "cc") {
        let kind: Vec<&str> = w[i + 1..]
            .iter()
            .take_while(|t| matches!(t.as_str(), "by" | "sa" | "nc" | "nd"))
            .map(String::as_str)
            .collect();
        let kind = kind.join("-");
        if cc_kind(&kind) {
            return Some(format!(
                "http://creativecommons.org/licenses/{kind}/{version}/"
            ));
        }
    }
    if lower.contains("creative commons") && lower.contains("attribution") {
        let mut kind = vec!["by"];
        if lower.contains("noncommercial") || lower.contains("non-commercial") {
            kind.push("nc");
        }
        if lower.contains("sharealike") || lower.contains("share-alike") {
            kind.push("sa");
        }
        if lower.contains("noderivatives") || lower.contains("no derivatives") {
            kind.push("nd");
        }
        return Some(format!(
            "http://creativecommons.org/licenses/{}/{version}/",
            kind.join("-")
        ));
    }
    if (lower.starts_with("http://") || lower.starts_with("https://"))
        && !s.contains(char::is_whitespace)
    {
        return Some(s.to_string());
    }
    None
}

fn cc_kind(kind: &str) -> bool {
    matches!(
        kind,
        "by" | "by-sa" | "by-nc" | "by-nc-sa" | "by-nc-nd" | "by-nd"
    )
}

/// Lower-case words, split at anything but letters, digits, `.` and `-`… with `-` also
/// splitting, so "by-nc-sa" gives "by", "nc", "sa".
fn words(lower: &str) -> Vec<String> {
    lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
        .filter(|t| !t.is_empty())
        .map(|t| t.trim_end_matches('.').to_string())
        .collect()
}

/// The name a reader knows: "CC BY 4.0", "CC0 1.0", "arXiv non-exclusive license".
pub fn short_name(url: &str) -> String {
    if url.is_empty() {
        return "license not stated".into();
    }
    if url == ARXIV_NONEXCLUSIVE {
        return "arXiv non-exclusive license".into();
    }
    if url.contains("arxiv.org/licenses/assumed-1991-2003") {
        return "arXiv license assumed (1991–2003)".into();
    }
    if url == CC0 {
        return "CC0 1.0".into();
    }
    if url.contains("publicdomain/mark") {
        return "Public Domain Mark".into();
    }
    if let Some(rest) = url.split("creativecommons.org/licenses/").nth(1) {
        let mut parts = rest.split('/').filter(|p| !p.is_empty());
        if let (Some(kind), Some(version)) = (parts.next(), parts.next()) {
            return format!("CC {} {version}", kind.to_ascii_uppercase());
        }
    }
    url.to_string()
}

/// Whether the licence lets anyone share the work: Creative Commons (the NC ones only
/// for a site that declares itself non-commercial), CC0 and the public domain.
pub fn is_open(url: &str, non_commercial_site: bool) -> bool {
    if url == CC0 || url.contains("publicdomain/") {
        return true;
    }
    match url.split("creativecommons.org/licenses/").nth(1) {
        Some(rest) => {
            let kind = rest.split('/').next().unwrap_or("");
            cc_kind(kind) && (non_commercial_site || !kind.contains("nc"))
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stated_licenses_become_one_url() {
        for (stated, url) in [
            (
                "http://creativecommons.org/licenses/by/4.0/",
                "http://creativecommons.org/licenses/by/4.0/",
            ),
            (
                "https://creativecommons.org/licenses/by-nc-sa/4.0",
                "http://creativecommons.org/licenses/by-nc-sa/4.0/",
            ),
            ("CC BY 4.0", "http://creativecommons.org/licenses/by/4.0/"),
            (
                "License: CC BY-NC-ND 4.0",
                "http://creativecommons.org/licenses/by-nc-nd/4.0/",
            ),
            (
                "CC BY-SA 4.0",
                "http://creativecommons.org/licenses/by-sa/4.0/",
            ),
            ("CC Zero", CC0),
            ("http://creativecommons.org/publicdomain/zero/1.0/", CC0),
            (
                "arXiv.org perpetual non-exclusive license",
                ARXIV_NONEXCLUSIVE,
            ),
            (
                "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
                ARXIV_NONEXCLUSIVE,
            ),
            (
                "Creative Commons Attribution 4.0 International",
                "http://creativecommons.org/licenses/by/4.0/",
            ),
            (
                "https://example.org/our-terms",
                "https://example.org/our-terms",
            ),
        ] {
            assert_eq!(canonical(stated).as_deref(), Some(url), "{stated}");
        }
        assert_eq!(canonical("© 2025 The Authors. All rights reserved."), None);
        assert_eq!(canonical(""), None);
    }

    #[test]
    fn names_and_openness() {
        assert_eq!(
            short_name("http://creativecommons.org/licenses/by-nc-sa/4.0/"),
            "CC BY-NC-SA 4.0"
        );
        assert_eq!(
            short_name(ARXIV_NONEXCLUSIVE),
            "arXiv non-exclusive license"
        );
        assert_eq!(short_name(""), "license not stated");
        assert!(is_open(
            "http://creativecommons.org/licenses/by/4.0/",
            false
        ));
        assert!(is_open(CC0, false));
        assert!(!is_open(
            "http://creativecommons.org/licenses/by-nc/4.0/",
            false
        ));
        assert!(is_open(
            "http://creativecommons.org/licenses/by-nc/4.0/",
            true
        ));
        assert!(!is_open(ARXIV_NONEXCLUSIVE, true));
        assert!(!is_open("", true));
    }
}
