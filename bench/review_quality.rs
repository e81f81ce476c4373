//! How close the built-in extractive summarizer comes to pith's machine reviews: ROUGE-1
//! and ROUGE-L F1 of our headline and one-liner against pith's for the 80 papers of the
//! reference page, and how often our headline keeps the key number pith's headline took
//! from the abstract. No rule was tuned to a paper of this page.
//!
//!   cargo run --release --example review_quality [-- ../shared/seeds/pith-cs.DC-category-page.txt] [-v]

use paperboy::review::summarize::extractive;

struct Card {
    headline: String,
    title: String,
    oneliner: String,
    abstract_text: String,
}

/// The page's cards: a meta line ("cs.DC 2026-05-14 Recognition"), headline, title,
/// one-liner, an optional "Figure from the paper" line, "abstract click to expand", the
/// abstract.
fn cards(text: &str) -> Vec<Card> {
    let meta = regex::Regex::new(r"^[a-z-]+(\.[A-Za-z-]+)? \d{4}-\d{2}-\d{2}").unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !meta.is_match(line) {
            continue;
        }
        let rest: Vec<&str> = lines[i + 1..]
            .iter()
            .copied()
            .filter(|l| !l.trim().is_empty())
            .take(7)
            .collect();
        let Some(at) = rest
            .iter()
            .position(|l| l.starts_with("abstract click to expand"))
        else {
            continue;
        };
        if at < 3 || at + 1 >= rest.len() {
            continue;
        }
        out.push(Card {
            headline: rest[0].to_string(),
            title: rest[1].to_string(),
            oneliner: rest[2].to_string(),
            abstract_text: rest[at + 1].to_string(),
        });
    }
    out
}

fn words(s: &str) -> Vec<String> {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric() && c != '%' && c != '.')
        .map(|w| w.trim_matches('.').to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

fn f1(overlap: usize, a: usize, b: usize) -> f64 {
    if overlap == 0 || a == 0 || b == 0 {
        return 0.0;
    }
    let (p, r) = (overlap as f64 / a as f64, overlap as f64 / b as f64);
    2.0 * p * r / (p + r)
}

fn rouge1(ours: &[String], theirs: &[String]) -> f64 {
    let mut counts = std::collections::HashMap::new();
    for w in theirs {
        *counts.entry(w.as_str()).or_insert(0i32) += 1;
    }
    let mut overlap = 0;
    for w in ours {
        if let Some(c) = counts.get_mut(w.as_str())
            && *c > 0
        {
            *c -= 1;
            overlap += 1;
        }
    }
    f1(overlap, ours.len(), theirs.len())
}

fn rouge_l(ours: &[String], theirs: &[String]) -> f64 {
    let mut dp = vec![vec![0usize; theirs.len() + 1]; ours.len() + 1];
    for i in 1..=ours.len() {
        for j in 1..=theirs.len() {
            dp[i][j] = if ours[i - 1] == theirs[j - 1] {
                dp[i - 1][j - 1] + 1
            } else {
                dp[i - 1][j].max(dp[i][j - 1])
            };
        }
    }
    f1(dp[ours.len()][theirs.len()], ours.len(), theirs.len())
}

fn numbers(s: &str) -> Vec<String> {
    let re = regex::Regex::new(r"\d+(?:\.\d+)?").unwrap();
    re.find_iter(s).map(|m| m.as_str().to_string()).collect()
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    args.retain(|a| a != "-v");
    let path = args
        .first()
        .cloned()
        .unwrap_or_else(|| "../shared/seeds/pith-cs.DC-category-page.txt".into());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cards = cards(&text);
    let (mut h1, mut hl, mut s1, mut sl) = (0.0, 0.0, 0.0, 0.0);
    let (mut with_key, mut kept_key) = (0, 0);
    let mut headline_chars = 0;
    for c in &cards {
        let ours = extractive::summarize_titled(&c.title, &c.abstract_text);
        let (oh, th) = (words(&ours.headline), words(&c.headline));
        let (os, ts) = (words(&ours.summary), words(&c.oneliner));
        h1 += rouge1(&oh, &th);
        hl += rouge_l(&oh, &th);
        s1 += rouge1(&os, &ts);
        sl += rouge_l(&os, &ts);
        headline_chars += ours.headline.chars().count();
        // The key number: one pith's headline took from the abstract.
        let abstract_numbers = numbers(&c.abstract_text);
        if let Some(key) = numbers(&c.headline)
            .into_iter()
            .find(|n| abstract_numbers.contains(n))
        {
            with_key += 1;
            if numbers(&ours.headline).contains(&key) {
                kept_key += 1;
            }
        }
        if verbose {
            println!(
                "pith: {}\nours: {}\npith: {}\nours: {}\n",
                c.headline, ours.headline, c.oneliner, ours.summary
            );
        }
    }
    let n = cards.len() as f64;
    println!("{} cards from {path}", cards.len());
    println!(
        "headline:  ROUGE-1 F1 {:.3}, ROUGE-L F1 {:.3}, {:.0} characters on average",
        h1 / n,
        hl / n,
        headline_chars as f64 / n
    );
    println!(
        "one-liner: ROUGE-1 F1 {:.3}, ROUGE-L F1 {:.3}",
        s1 / n,
        sl / n
    );
    println!(
        "key number: pith's headline takes one from the abstract in {with_key} cards; ours keeps it in {kept_key} ({:.0} %)",
        100.0 * kept_key as f64 / with_key.max(1) as f64
    );
}
