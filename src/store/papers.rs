//! Paper files: fetch writes the feed fields and leaves `[review]`, `extra` and the body alone.

pub use super::frontmatter::Machine;
use super::frontmatter::{self, Format, PaperFront};
use crate::paper::Paper;
use anyhow::{Context, Result, anyhow};
use std::path::{Path, PathBuf};
use toml_edit::{Array, DocumentMut, Item, Table, value};

pub fn paper_path(content_dir: &Path, paper: &crate::paper::PaperId) -> PathBuf {
    content_dir.join("papers").join(paper.content_path())
}

/// Reads a stored paper's front matter, if the file exists.
pub fn read_stored(path: &Path) -> Result<Option<(PaperFront, String)>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let split = frontmatter::split(&text, path)?;
    let front: PaperFront = frontmatter::parse(&split, path)?;
    Ok(Some((front, text)))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MergeOutcome {
    /// A newer version: the page changes and the week lists it as updated.
    Updated,
    /// Same version, but the new record fills in fields the stored one lacked.
    Refreshed,
    /// Nothing new.
    Same,
}

/// Merges a newly seen record into what is known of the paper. The first announcement
/// and the first publication date are kept; empty fields never wipe filled ones.
pub fn merge_records(known: &Paper, seen: &Paper) -> (Paper, MergeOutcome) {
    let (merged, outcome) = merge_fields(known, seen);
    let merged = with_classes_apart(merged);
    let outcome = match outcome {
        MergeOutcome::Same if merged != *known => MergeOutcome::Refreshed,
        other => other,
    };
    (merged, outcome)
}

/// An arXiv paper's categories hold arXiv categories only: subject classes an older fetch
/// kept among them (`"35"`) move to `classes`.
fn with_classes_apart(mut p: Paper) -> Paper {
    if p.id.is_arxiv() {
        let (categories, classes) =
            crate::site::taxonomy::split_terms(std::mem::take(&mut p.categories));
        p.categories = categories;
        for c in classes {
            if !p.classes.contains(&c) {
                p.classes.push(c);
            }
        }
    }
    p
}

fn merge_fields(known: &Paper, seen: &Paper) -> (Paper, MergeOutcome) {
    let fill = |a: &String, b: &String| if a.is_empty() { b.clone() } else { a.clone() };
    let earliest = |a: Option<chrono::DateTime<chrono::Utc>>, b| match (a, b) {
        (Some(x), Some(y)) => Some(std::cmp::min(x, y)),
        (x, y) => x.or(y),
    };
    if seen.version > known.version {
        let mut merged = seen.clone();
        merged.published = known.published.min(seen.published);
        merged.announced = known.announced.or(seen.announced);
        merged.comment = fill(&seen.comment, &known.comment);
        merged.journal_ref = fill(&seen.journal_ref, &known.journal_ref);
        merged.doi = fill(&seen.doi, &known.doi);
        merged.license = fill(&seen.license, &known.license);
        if merged.classes.is_empty() {
            merged.classes = known.classes.clone();
        }
        if merged.authors.is_empty() {
            merged.authors = known.authors.clone();
        }
        if merged.abstract_text.is_empty() {
            merged.abstract_text = known.abstract_text.clone();
        }
        return (merged, MergeOutcome::Updated);
    }
    let mut merged = known.clone();
    if seen.version == known.version {
        merged.published = known.published.min(seen.published);
        merged.announced = earliest(known.announced, seen.announced);
        merged.title = fill(&known.title, &seen.title);
        merged.abstract_text = fill(&known.abstract_text, &seen.abstract_text);
        merged.comment = fill(&known.comment, &seen.comment);
        merged.journal_ref = fill(&known.journal_ref, &seen.journal_ref);
        merged.doi = fill(&known.doi, &seen.doi);
        merged.license = fill(&known.license, &seen.license);
        for c in &seen.classes {
            if !merged.classes.contains(c) {
                merged.classes.push(c.clone());
            }
        }
        merged.primary_category = fill(&known.primary_category, &seen.primary_category);
        if merged.authors.is_empty() {
            merged.authors = seen.authors.clone();
        }
        for c in &seen.categories {
            if !merged.categories.contains(c) {
                merged.categories.push(c.clone());
            }
        }
        // The API knows the real v1 date; an announcement feed only knows the day.
        if known.source == "arxiv-rss" && seen.source == "arxiv" {
            merged.published = seen.published;
            merged.updated = seen.updated;
            merged.primary_category = seen.primary_category.clone();
            merged.categories = seen.categories.clone();
            merged.source = seen.source.clone();
            merged.links = seen.links.clone();
        }
    }
    let outcome = if merged == *known {
        MergeOutcome::Same
    } else {
        MergeOutcome::Refreshed
    };
    (merged, outcome)
}

fn string_array(items: &[String]) -> Item {
    let mut a = Array::new();
    for s in items {
        a.push(s.as_str());
    }
    value(a)
}

fn datetime(t: chrono::DateTime<chrono::Utc>) -> Item {
    let s = t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true);
    value(
        s.parse::<toml_edit::Datetime>()
            .expect("RFC 3339 is a TOML datetime"),
    )
}

/// Writes the feed fields into a TOML document, in the contract's order for new files,
/// in place for existing ones.
fn set_feed_fields(doc: &mut DocumentMut, p: &Paper) {
    doc["id"] = value(p.id.as_str());
    doc["version"] = value(p.version as i64);
    doc["title"] = value(p.title.as_str());
    doc["authors"] = string_array(&p.authors);
    doc["published"] = datetime(p.published);
    doc["updated"] = datetime(p.updated);
    if let Some(a) = p.announced {
        doc["announced"] = datetime(a);
    }
    doc["primary_category"] = value(p.primary_category.as_str());
    doc["categories"] = string_array(&p.categories);
    if !p.classes.is_empty() {
        doc["classes"] = string_array(&p.classes);
    }
    doc["abstract"] = value(p.abstract_text.as_str());
    doc["comment"] = value(p.comment.as_str());
    doc["journal_ref"] = value(p.journal_ref.as_str());
    doc["doi"] = value(p.doi.as_str());
    doc["source"] = value(p.source.as_str());
    // Only ever filled in: review may have read the licence from the HTML rendition.
    if !p.license.is_empty() {
        doc["license"] = value(p.license.as_str());
    }
    if !doc.contains_table("links") {
        doc["links"] = Item::Table(Table::new());
    }
    doc["links"]["abs"] = value(p.links.abs.as_str());
    doc["links"]["pdf"] = value(p.links.pdf.as_str());
}

/// The text of a new paper file.
pub fn render_new(p: &Paper) -> String {
    let mut doc = DocumentMut::new();
    set_feed_fields(&mut doc, p);
    let mut review = Table::new();
    review.decor_mut().set_prefix("\n");
    review["headline"] = value("");
    review["summary"] = value("");
    review["badges"] = value(Array::new());
    review["figure"] = value("");
    doc["review"] = Item::Table(review);
    format!("+++\n{doc}+++\n")
}

/// The text of an existing paper file with the feed fields replaced. The review table,
/// any other keys, comments in them, and the body are carried over untouched.
pub fn render_update(existing: &str, p: &Paper, path: &Path) -> Result<String> {
    let split = frontmatter::split(existing, path)?;
    match split.format {
        Format::Toml => {
            let mut doc: DocumentMut = split
                .front
                .parse()
                .map_err(|e| anyhow!("{}: {}", path.display(), e))?;
            set_feed_fields(&mut doc, p);
            Ok(format!("+++\n{doc}+++\n{}", split.body))
        }
        Format::Yaml => {
            let old: serde_json::Value = serde_saphyr::from_str(split.front)
                .map_err(|e| anyhow!("{}: {}", path.display(), e))?;
            let mut fields = feed_fields_json(p);
            // Links other than abs and pdf are the editor's.
            let mut links = old
                .get("links")
                .and_then(|l| l.as_object())
                .cloned()
                .unwrap_or_default();
            links.insert("abs".into(), p.links.abs.as_str().into());
            links.insert("pdf".into(), p.links.pdf.as_str().into());
            fields.push(("links", serde_json::Value::Object(links)));
            if p.license.is_empty() {
                // Only ever filled in: a licence review found stays.
                fields.retain(|(k, _)| *k != "license");
            }
            let front = yaml_replace(split.front, &fields)?;
            Ok(format!("---\n{front}---\n{}", split.body))
        }
    }
}

/// The feed's fields as `set_feed_fields` writes them, for a YAML file.
fn feed_fields_json(p: &Paper) -> Vec<(&'static str, serde_json::Value)> {
    let time = |t: chrono::DateTime<chrono::Utc>| {
        serde_json::Value::from(t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true))
    };
    let mut fields = vec![
        ("id", p.id.as_str().into()),
        ("version", (p.version as i64).into()),
        ("title", p.title.as_str().into()),
        ("authors", p.authors.clone().into()),
        ("published", time(p.published)),
        ("updated", time(p.updated)),
    ];
    if let Some(a) = p.announced {
        fields.push(("announced", time(a)));
    }
    fields.push(("primary_category", p.primary_category.as_str().into()));
    fields.push(("categories", p.categories.clone().into()));
    if !p.classes.is_empty() {
        fields.push(("classes", p.classes.clone().into()));
    }
    fields.extend([
        ("abstract", p.abstract_text.as_str().into()),
        ("comment", p.comment.as_str().into()),
        ("journal_ref", p.journal_ref.as_str().into()),
        ("doi", p.doi.as_str().into()),
        ("source", p.source.as_str().into()),
        ("license", p.license.as_str().into()),
    ]);
    fields
}

/// YAML front matter with the top-level keys of `fields` set to their values, written where
/// the first of them was, and every other line (other keys, comments, blank lines) as it
/// was. A key's block is its line and the lines under it that are indented or list items.
fn yaml_replace(front: &str, fields: &[(&str, serde_json::Value)]) -> Result<String> {
    let replaced = |line: &str| {
        fields.iter().any(|(k, _)| {
            line.strip_prefix(k)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
    };
    let mut kept: Vec<&str> = Vec::new();
    let mut at = None;
    let mut skipping = false;
    for line in front.lines() {
        let continues = line.starts_with([' ', '\t']) || line.starts_with("- ") || line == "-";
        if skipping && continues {
            continue;
        }
        skipping = false;
        if replaced(line) {
            at.get_or_insert(kept.len());
            skipping = true;
            continue;
        }
        kept.push(line);
    }
    let mut map = serde_json::Map::new();
    for (k, v) in fields {
        map.insert((*k).to_string(), v.clone());
    }
    let new = serde_saphyr::to_string(&serde_json::Value::Object(map))
        .context("cannot write YAML front matter")?;
    // serde_json's map is sorted; put the keys back in the order given.
    let mut blocks: Vec<(usize, String)> = Vec::new();
    for line in new.lines() {
        let top = !line.starts_with([' ', '\t']) && !line.starts_with('-');
        if top || blocks.is_empty() {
            let order = fields
                .iter()
                .position(|(k, _)| line.starts_with(&format!("{k}:")))
                .unwrap_or(usize::MAX);
            blocks.push((order, String::new()));
        }
        let block = &mut blocks.last_mut().expect("a block").1;
        block.push_str(line);
        block.push('\n');
    }
    blocks.sort_by_key(|b| b.0);
    let at = at.unwrap_or(kept.len());
    let mut out = String::new();
    for line in &kept[..at] {
        out.push_str(line);
        out.push('\n');
    }
    for (_, block) in &blocks {
        out.push_str(block);
    }
    for line in &kept[at..] {
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}

/// The text of an existing paper file with its `[machine]` table replaced by `machine`
/// and, where the file states none, its `license` filled in. Everything people wrote
/// (`[review]`, `extra`, comments, the body) is carried over untouched.
pub fn render_machine(
    existing: &str,
    machine: &super::frontmatter::Machine,
    license: Option<&str>,
    path: &Path,
) -> Result<String> {
    let split = frontmatter::split(existing, path)?;
    let (mut doc, body): (DocumentMut, &str) = match split.format {
        Format::Toml => (
            split
                .front
                .parse()
                .map_err(|e| anyhow!("{}: {}", path.display(), e))?,
            split.body,
        ),
        Format::Yaml => {
            let old: serde_json::Value = serde_saphyr::from_str(split.front)
                .map_err(|e| anyhow!("{}: {}", path.display(), e))?;
            let mut fields = vec![("machine", serde_json::to_value(machine)?)];
            if let Some(l) = license
                && old
                    .get("license")
                    .and_then(|v| v.as_str())
                    .is_none_or(str::is_empty)
            {
                fields.push(("license", l.into()));
            }
            let front = yaml_replace(split.front, &fields)?;
            return Ok(format!("---\n{front}---\n{}", split.body));
        }
    };
    if let Some(old) = doc.get("machine")
        && !old.is_table()
    {
        doc.remove("machine");
    }
    finish_machine(std::mem::take(&mut doc), machine, license, body)
}

fn finish_machine(
    mut doc: DocumentMut,
    m: &super::frontmatter::Machine,
    license: Option<&str>,
    body: &str,
) -> Result<String> {
    if let Some(l) = license
        && doc
            .get("license")
            .and_then(|v| v.as_str())
            .is_none_or(str::is_empty)
    {
        doc["license"] = value(l);
    }
    let mut t = Table::new();
    t.decor_mut().set_prefix("\n");
    let text = |t: &mut Table, key: &str, v: &str| {
        if !v.is_empty() {
            t[key] = value(v);
        }
    };
    text(&mut t, "headline", &m.headline);
    text(&mut t, "summary", &m.summary);
    if !m.badges.is_empty() {
        t["badges"] = string_array(&m.badges);
    }
    text(&mut t, "code", &m.code);
    text(&mut t, "figure", &m.figure);
    text(&mut t, "figure_caption", &m.figure_caption);
    if m.figure_width > 0 {
        t["figure_width"] = value(i64::from(m.figure_width));
        t["figure_height"] = value(i64::from(m.figure_height));
    }
    text(&mut t, "figure_source", &m.figure_source);
    text(&mut t, "by", &m.by);
    t["reviewed_version"] = value(i64::from(m.reviewed_version));
    text(&mut t, "html", &m.html);
    if let Some(d) = m.checked {
        t["checked"] = value(
            d.to_string()
                .parse::<toml_edit::Datetime>()
                .expect("a date is a TOML date"),
        );
    }
    doc["machine"] = Item::Table(t);
    Ok(format!("+++\n{doc}+++\n{body}"))
}

#[cfg(test)]
mod tests;
