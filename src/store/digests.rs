//! Weekly digest files: fetch appends ids to an open week and leaves everything else alone.

use super::frontmatter::{self, Format};
use crate::paper::Week;
use anyhow::{Result, anyhow, bail};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use toml_edit::{Array, DocumentMut, Item, value};

pub fn digest_path(content_dir: &Path, week: Week) -> PathBuf {
    content_dir.join("digests").join(format!("{week}.md"))
}

fn ids_of(doc: &DocumentMut, key: &str) -> Vec<String> {
    doc.get(key)
        .and_then(|i| i.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn set_ids(doc: &mut DocumentMut, key: &str, ids: &[String]) {
    let mut a = Array::new();
    for id in ids {
        a.push(id.as_str());
    }
    // One id a line keeps diffs of the content repository readable.
    for v in a.iter_mut() {
        v.decor_mut().set_prefix("\n  ");
    }
    a.set_trailing("\n");
    a.set_trailing_comma(true);
    doc[key] = value(a);
}

/// The digest file's new text with `new` and `updated` ids added, or None when nothing
/// changes. Ids already listed keep their place; the body is carried over.
pub fn render(
    existing: Option<&str>,
    week: Week,
    new: &[String],
    updated: &[String],
    path: &Path,
) -> Result<Option<String>> {
    let (mut doc, body) = match existing {
        Some(text) => {
            let split = frontmatter::split(text, path)?;
            if split.format == Format::Yaml {
                bail!(
                    "{}: fetch only updates digests with TOML front matter; convert it or add the ids by hand",
                    path.display()
                );
            }
            let doc: DocumentMut = split
                .front
                .parse()
                .map_err(|e| anyhow!("{}: {}", path.display(), e))?;
            (doc, split.body.to_string())
        }
        None => {
            let mut doc = DocumentMut::new();
            doc["week"] = value(week.to_string());
            doc["title"] = value(week.title());
            let date = |d: chrono::NaiveDate| {
                value(
                    d.to_string()
                        .parse::<toml_edit::Datetime>()
                        .expect("a date is a TOML date"),
                )
            };
            doc["start"] = date(week.start());
            doc["end"] = date(week.end());
            doc["papers"] = Item::Value(Array::new().into());
            doc["updated_papers"] = Item::Value(Array::new().into());
            (doc, String::new())
        }
    };
    let mut papers = ids_of(&doc, "papers");
    let mut updated_papers = ids_of(&doc, "updated_papers");
    let before = (papers.len(), updated_papers.len());
    // A week of a bulk import lists thousands of papers: look ids up, never scan.
    let mut in_papers: HashSet<String> = papers.iter().cloned().collect();
    for id in new {
        if in_papers.insert(id.clone()) {
            papers.push(id.clone());
        }
    }
    let mut in_updated: HashSet<String> = updated_papers.iter().cloned().collect();
    for id in updated {
        if !in_papers.contains(id) && in_updated.insert(id.clone()) {
            updated_papers.push(id.clone());
        }
    }
    if existing.is_some() && before == (papers.len(), updated_papers.len()) {
        return Ok(None);
    }
    set_ids(&mut doc, "papers", &papers);
    set_ids(&mut doc, "updated_papers", &updated_papers);
    Ok(Some(format!("+++\n{doc}+++\n{body}")))
}
