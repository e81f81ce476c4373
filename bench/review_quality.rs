//! How close the built-in extractive summarizer comes to pith's machine reviews: ROUGE-1
//! and ROUGE-L F1 of our headline and one-liner against pith's for the 80 papers of the
//! reference page, and how often our headline keeps the key number pith's headline took
//! from the abstract. No rule was tuned to a paper of this page.
//!
//!   cargo run --release --example review_quality [-- ../shared/seeds/pith-cs.DC-category-page.txt] [-v]
//!
//! With `--endpoint URL --model NAME` (an OpenAI-compatible chat endpoint; `bench/review_model.sh`
//! starts llama.cpp's with SmolLM2), the same 80 papers go through the model as `review`
//! sends them, prompt, schema, checks and all: papers a minute, how many answers pass the
//! checks and why the others did not, and ROUGE-1 of the lines that land beside the
//! extractive summarizer's.

use paperboy::review::summarize::{Input, check, extractive};

struct Card {
    headline: String,
    title: String,
    /// The category the meta line names.
    categories: Vec<String>,
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
            categories: line.split(' ').take(1).map(str::to_string).collect(),
            oneliner: rest[2].to_string(),
            abstract_text: rest[at + 1].to_string(),
        });
    }
    out
}

impl Card {
    /// The card's paper as a summarizer reads it.
    fn input(&self) -> Input<'_> {
        Input {
            id: "",
            version: 1,
            title: &self.title,
            abstract_text: &self.abstract_text,
            comment: "",
            categories: &self.categories,
        }
    }
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
    let model = take_option(&mut args, "--endpoint").map(|endpoint| {
        let name = take_option(&mut args, "--model").unwrap_or_else(|| "model".into());
        (endpoint, name)
    });
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
    honest_answers_checked(&cards, verbose);
    if let Some((endpoint, name)) = model {
        through_a_model(&cards, &endpoint, &name, verbose);
    }
}

fn take_option(args: &mut Vec<String>, name: &str) -> Option<String> {
    let at = args.iter().position(|a| a == name)?;
    args.remove(at);
    (at < args.len()).then(|| args.remove(at))
}

/// The cards reviewed through a chat endpoint as `review` does it.
fn through_a_model(cards: &[Card], endpoint: &str, name: &str, verbose: bool) {
    use paperboy::review::summarize::{Summarizer, openai::OpenAi};
    let config: paperboy::config::OpenAiConfig = toml::from_str(&format!(
        "endpoint = {endpoint:?}\nmodel = {name:?}\ntimeout_seconds = 120\nrequests_per_minute = 6000\n"
    ))
    .unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let templates = paperboy::render::load_templates(root, "default").unwrap();
    let model = OpenAi::new(&config, templates, "paperboy-bench", None, false).unwrap();
    let start = std::time::Instant::now();
    let (mut used, mut refused, mut failed) = (0, 0, 0);
    let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
    let (mut h1, mut s1, mut h1_used, mut s1_used) = (0.0, 0.0, 0.0, 0.0);
    for c in cards {
        let s = model.summarize(&c.input()).unwrap();
        let (h, o) = (
            rouge1(&words(&s.headline), &words(&c.headline)),
            rouge1(&words(&s.summary), &words(&c.oneliner)),
        );
        h1 += h;
        s1 += o;
        match (&s.fell_back, &s.refused) {
            (None, _) => {
                used += 1;
                h1_used += h;
                s1_used += o;
            }
            (Some(_), Some(_)) => refused += 1,
            (Some(_), None) => failed += 1,
        }
        if let Some(why) = &s.fell_back {
            // The rule or the failure, without the paper's own words.
            let key: String = why
                .split(": ")
                .nth(if s.refused.is_some() { 2 } else { 1 })
                .unwrap_or(why)
                .chars()
                .take(60)
                .collect();
            *reasons.entry(key).or_default() += 1;
        }
        if verbose {
            println!(
                "pith:  {}\nmodel: {}\n       {}\n       {}\n",
                c.headline,
                s.refused.as_deref().unwrap_or(&s.headline),
                s.summary,
                s.fell_back.as_deref().unwrap_or("used")
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = cards.len() as f64;
    println!(
        "{name} at {endpoint}: {} papers in {secs:.0} s, {:.1} papers a minute",
        cards.len(),
        n * 60.0 / secs
    );
    println!(
        "answers: {used} used ({:.0} %), {refused} refused by the checks, {failed} failed",
        100.0 * used as f64 / n
    );
    for (why, count) in &reasons {
        println!("  {count:>3}  {why}");
    }
    println!(
        "ROUGE-1 F1 of what lands (model where used, extractive otherwise): headline {:.3}, one-liner {:.3}",
        h1 / n,
        s1 / n
    );
    if used > 0 {
        println!(
            "ROUGE-1 F1 of the {used} model answers used: headline {:.3}, one-liner {:.3}",
            h1_used / used as f64,
            s1_used / used as f64
        );
    }
}

/// pith's headlines and one-liners, written by a model from the abstract, as honest
/// answers to the checks a model's answer must pass: how many pass, and the share of their
/// content words that are the abstract's.
fn honest_answers_checked(cards: &[Card], verbose: bool) {
    let mut shares = Vec::new();
    let mut refused: Vec<String> = Vec::new();
    for c in cards {
        let paper = check::Paper::new(&c.input());
        for line in [&c.headline, &c.oneliner] {
            shares.push(paper.share(line));
            if let Err(why) = paper.check(line) {
                refused.push(format!("{line}\n    {why}"));
            }
        }
    }
    shares.sort_by(f64::total_cmp);
    let at = |q: f64| shares[((shares.len() - 1) as f64 * q) as usize];
    println!(
        "answer checks on pith's {} lines as honest answers: {} pass ({:.1} %); share of content words from the abstract: min {:.2}, 5th percentile {:.2}, median {:.2}",
        shares.len(),
        shares.len() - refused.len(),
        100.0 * (shares.len() - refused.len()) as f64 / shares.len().max(1) as f64,
        at(0.0),
        at(0.05),
        at(0.5)
    );
    if verbose {
        for r in &refused {
            println!("  refused: {r}");
        }
    }
}
