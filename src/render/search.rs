//! A search index that works on any static host: postings sharded by term prefix and
//! document details in numbered chunks, so a query downloads one small shard per word
//! and the chunks holding its top results, however large the site.
//!
//! Layout under `search/`:
//! - `meta.json`: `{"prefix": 2, "chunk": 500, "docs": N, "shards": ["ab", …]}`
//! - `index/<prefix>.json`: `{"term": [doc, score, doc, score, …], …}`, best first
//! - `docs/<n>.json`: `[[url, title, authors, date, category], …]` for docs n*chunk…

use crate::render::views::{Urls, paper_rel};
use crate::site::Site;
use std::collections::BTreeMap;

/// Postings kept per term: a digest search wants the best matches, not every one.
const MAX_POSTINGS: usize = 1000;
const CHUNK: usize = 500;

/// The same tokenizer as `search.js`: lower case, split on anything not a letter or digit.
pub fn tokenize(s: &str) -> impl Iterator<Item = String> + '_ {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(|t| t.to_lowercase())
}

/// The files of the index, as (site-relative path, JSON text).
pub fn build_index(site: &Site, urls: &Urls) -> Vec<(String, String)> {
    let n = site.papers.len();
    // Larger sites get finer shards so the first query stays small.
    let prefix = if n > 20_000 { 3 } else { 2 };
    let mut postings: BTreeMap<String, Vec<(u32, f32)>> = BTreeMap::new();
    for (doc, p) in site.papers.iter().enumerate() {
        let f = &p.front;
        let mut tf: BTreeMap<String, f32> = BTreeMap::new();
        let mut add = |text: &str, weight: f32| {
            for t in tokenize(text) {
                *tf.entry(t).or_default() += weight;
            }
        };
        add(&f.title, 3.0);
        for a in &f.authors {
            add(a, 3.0);
        }
        for c in &f.categories {
            add(c, 2.0);
        }
        add(f.id.as_str(), 3.0);
        add(&f.abstract_text, 1.0);
        let len = tf.values().sum::<f32>().max(1.0);
        for (t, w) in tf {
            // Length-normalised so long abstracts do not win every query.
            postings
                .entry(t)
                .or_default()
                .push((doc as u32, w / len.sqrt()));
        }
    }
    let mut shards: BTreeMap<String, serde_json::Map<String, serde_json::Value>> = BTreeMap::new();
    for (term, mut list) in postings {
        let idf = ((n as f32 + 1.0) / (list.len() as f32)).ln() + 1.0;
        list.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        list.truncate(MAX_POSTINGS);
        let flat: Vec<serde_json::Value> = list
            .iter()
            .flat_map(|&(d, s)| [d.into(), ((s * idf * 100.0).round() as u32).max(1).into()])
            .collect();
        let key: String = term.chars().take(prefix).collect();
        shards.entry(key).or_default().insert(term, flat.into());
    }
    let mut files = Vec::new();
    let meta = serde_json::json!({
        "prefix": prefix,
        "chunk": CHUNK,
        "docs": n,
        "shards": shards.keys().collect::<Vec<_>>(),
    });
    files.push(("search/meta.json".to_string(), meta.to_string()));
    for (key, map) in shards {
        files.push((
            format!("search/index/{}.json", shard_file(&key)),
            serde_json::Value::Object(map).to_string(),
        ));
    }
    for (c, chunk) in site.papers.chunks(CHUNK).enumerate() {
        let docs: Vec<serde_json::Value> = chunk
            .iter()
            .map(|p| {
                let f = &p.front;
                let mut authors: Vec<&str> = f.authors.iter().take(4).map(String::as_str).collect();
                if f.authors.len() > 4 {
                    authors.push("et al.");
                }
                serde_json::json!([
                    urls.path(&paper_rel(p)),
                    f.title,
                    authors.join(", "),
                    f.published.format("%Y-%m-%d").to_string(),
                    f.primary_category,
                ])
            })
            .collect();
        files.push((
            format!("search/docs/{c}.json"),
            serde_json::Value::Array(docs).to_string(),
        ));
    }
    files
}

/// A file name for a shard key: letters and digits stay, anything else is hex-escaped
/// (so `ü` and `.` cannot clash with each other or with the file system).
pub fn shard_file(key: &str) -> String {
    key.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_string()
            } else {
                format!("_{:x}", c as u32)
            }
        })
        .collect()
}
