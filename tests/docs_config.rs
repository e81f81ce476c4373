//! The book's configuration chapter and its TOML examples against the real loader: every
//! key `paperboy.toml` accepts has a row in docs/src/configuration.md, every row names a
//! key it accepts, a default written as a value is the default, and every ```toml block of
//! the book parses.
//!
//! The keys are not listed here: they are asked of the loader itself. Its tables deny
//! unknown keys, and serde's error for one lists the keys the table has (`unknown field
//! `x`, expected one of `a`, `b``), so a key or a table added to the config structs shows
//! up here without this file changing.

use paperboy::config::Config;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

mod common;

const BASE: &str = "title = \"t\"\nbase_url = \"https://example.org\"\n";
const PROBE: &str = "zz_no_such_key";

fn parse(text: &str) -> anyhow::Result<Config> {
    Config::parse(text, Path::new("paperboy.toml"))
}

/// How a table is written: `[a.b]`, or `[[a]]` for an array of tables.
#[derive(Clone, Debug, PartialEq)]
struct Table {
    path: String,
    array: bool,
}

impl Table {
    /// The header that opens it, with what its parents need (an array's element).
    fn header(&self, tables: &BTreeMap<String, Table>) -> String {
        if self.path.is_empty() {
            return String::new();
        }
        let mut out = String::new();
        // A table inside an array of tables (`[review.badge]` is not, `sources` is) needs
        // its array's element first.
        if let Some((parent, _)) = self.path.rsplit_once('.')
            && tables.get(parent).is_some_and(|t| t.array)
        {
            out.push_str(&format!("[[{parent}]]\n"));
        }
        if self.array {
            out.push_str(&format!("[[{}]]\n", self.path));
        } else {
            out.push_str(&format!("[{}]\n", self.path));
        }
        out
    }
}

/// The keys a table accepts, from the loader's answer to a key it does not know.
fn keys_of(header: &str) -> Option<Vec<String>> {
    let text = format!("{BASE}{header}{PROBE} = 1\n");
    let err = format!("{:#}", parse(&text).err()?);
    let unknown = format!("unknown field `{PROBE}`, expected ");
    let list = &err[err.find(&unknown)? + unknown.len()..];
    let list = list.strip_prefix("one of ").unwrap_or(list);
    // serde lists three keys or more as "one of `a`, `b`, `c`", two as "`a` or `b`".
    Some(
        list.split(", ")
            .flat_map(|k| k.split(" or "))
            .filter_map(|k| k.trim().strip_prefix('`')?.split('`').next())
            .map(str::to_string)
            .collect(),
    )
}

/// Every table of the config and its keys that hold values (tables are walked into).
fn config_keys() -> (BTreeMap<String, Table>, BTreeSet<(String, String)>) {
    let mut tables = BTreeMap::new();
    let mut leaves = BTreeSet::new();
    let root = Table {
        path: String::new(),
        array: false,
    };
    tables.insert(String::new(), root.clone());
    let mut queue = vec![root];
    while let Some(table) = queue.pop() {
        let keys = keys_of(&table.header(&tables))
            .unwrap_or_else(|| panic!("the loader names no keys for [{}]", table.path));
        for key in keys {
            let path = if table.path.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", table.path)
            };
            let sub = [false, true]
                .into_iter()
                .map(|array| Table {
                    path: path.clone(),
                    array,
                })
                .find(|t| {
                    let mut with = tables.clone();
                    with.insert(t.path.clone(), t.clone());
                    keys_of(&t.header(&with)).is_some()
                });
            match sub {
                Some(t) => {
                    tables.insert(t.path.clone(), t.clone());
                    queue.push(t);
                }
                None => {
                    leaves.insert((table.path.clone(), key));
                }
            }
        }
    }
    (tables, leaves)
}

/// A row of the chapter: its table, key and default cell.
#[derive(Debug)]
struct Row {
    table: String,
    key: String,
    default: String,
    line: usize,
}

fn chapter() -> String {
    common::read(common::repo().join("docs/src/configuration.md"))
}

/// The tables the chapter's headings name (`## [fetch]`, `## [[sources]]`, `## Top level`)
/// and the rows of each table's key list.
fn documented() -> (BTreeSet<String>, Vec<Row>) {
    let mut headings = BTreeSet::new();
    let mut rows = Vec::new();
    let mut table: Option<String> = None;
    for (i, line) in chapter().lines().enumerate() {
        if let Some(title) = line.strip_prefix("## ") {
            let name = title.trim().trim_matches('`').trim_matches(['[', ']']);
            let name = if title.trim() == "Top level" {
                ""
            } else {
                name
            };
            headings.insert(name.to_string());
            table = Some(name.to_string());
            continue;
        }
        let Some(t) = &table else { continue };
        let cells: Vec<&str> = line
            .split(" | ")
            .map(|c| c.trim_matches([' ', '|']))
            .collect();
        if cells.len() < 4 || !cells[0].starts_with('`') {
            continue;
        }
        rows.push(Row {
            table: t.clone(),
            key: cells[0].trim_matches('`').to_string(),
            default: cells[2].to_string(),
            line: i + 1,
        });
    }
    (headings, rows)
}

/// The value of a cell that is exactly one code span: `` `20` `` or `required, e.g. `"x"``.
fn code_value(cell: &str) -> Option<String> {
    let inner = cell.strip_prefix('`')?.strip_suffix('`')?;
    (!inner.contains('`')).then(|| inner.to_string())
}

fn required_example(cell: &str) -> Option<String> {
    code_value(cell.strip_prefix("required, e.g. ")?)
}

#[test]
fn every_key_of_the_config_is_documented_and_every_documented_key_exists() {
    let (tables, leaves) = config_keys();
    // The walk finds what the structs have, nested tables included.
    for known in [
        ("", "base_url"),
        ("sources", "metadata_prefix"),
        ("review.openai", "endpoint"),
        ("review.badge", "pattern"),
        ("email", "list_unsubscribe"),
    ] {
        assert!(
            leaves.contains(&(known.0.to_string(), known.1.to_string())),
            "{known:?} not found in {leaves:?}"
        );
    }
    assert!(tables["sources"].array && tables["review.badge"].array && !tables["fetch"].array);

    let (headings, rows) = documented();
    let documented: BTreeSet<(String, String)> = rows
        .iter()
        .map(|r| (r.table.clone(), r.key.clone()))
        .collect();
    let undocumented: Vec<String> = leaves
        .difference(&documented)
        .map(|(t, k)| format!("[{t}] {k}"))
        .collect();
    assert!(
        undocumented.is_empty(),
        "keys the loader accepts with no row in docs/src/configuration.md: {undocumented:?}"
    );
    let unknown: Vec<String> = documented
        .difference(&leaves)
        .map(|(t, k)| format!("[{t}] {k}"))
        .collect();
    assert!(
        unknown.is_empty(),
        "rows of docs/src/configuration.md the loader does not accept: {unknown:?}"
    );
    let tables: BTreeSet<String> = tables.keys().cloned().collect();
    assert_eq!(
        headings, tables,
        "the chapter's headings and the config's tables differ"
    );
    let mut seen = BTreeSet::new();
    for r in &rows {
        assert!(
            seen.insert((&r.table, &r.key)),
            "configuration.md:{}: [{}] {} has two rows",
            r.line,
            r.table,
            r.key
        );
    }
}

#[test]
fn every_documented_default_is_the_default_and_every_example_parses() {
    let (tables, _) = config_keys();
    let (_, rows) = documented();
    // A table's smallest valid form: its header and its required keys, as documented.
    let minimal = |table: &str| -> String {
        if table.is_empty() {
            return BASE.to_string();
        }
        let mut text = format!("{BASE}{}", tables[table].header(&tables));
        for r in rows.iter().filter(|r| r.table == table) {
            if let Some(example) = required_example(&r.default) {
                text.push_str(&format!("{} = {example}\n", r.key));
            }
        }
        text
    };
    let mut checked = 0;
    for r in &rows {
        let row = format!("configuration.md:{}: [{}] {}", r.line, r.table, r.key);
        if r.table.is_empty() && required_example(&r.default).is_some() {
            // Top-level required keys are BASE's: the example must be accepted in its place.
            let example = required_example(&r.default).unwrap();
            let text = BASE
                .lines()
                .map(|l| {
                    if l.starts_with(&format!("{} =", r.key)) {
                        format!("{} = {example}", r.key)
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n");
            parse(&text).unwrap_or_else(|e| panic!("{row}: the example does not parse: {e:#}"));
            continue;
        }
        let base = minimal(&r.table);
        let without =
            parse(&base).unwrap_or_else(|e| panic!("{row}: [{}] as documented: {e:#}", r.table));
        if required_example(&r.default).is_some() {
            continue; // part of `base`, which parsed
        }
        let Some(value) = code_value(&r.default) else {
            assert!(
                !r.default.starts_with("required"),
                "{row}: a required key's default cell reads `required, e.g. `VALUE``"
            );
            continue; // "none", or said in words
        };
        // Inside the table's own section: after its header, before any sub-table.
        let header = tables[&r.table].header(&tables);
        let with_text = if r.table.is_empty() {
            format!("{} = {value}\n{base}", r.key)
        } else {
            base.replacen(&header, &format!("{header}{} = {value}\n", r.key), 1)
        };
        let with = parse(&with_text)
            .unwrap_or_else(|e| panic!("{row}: default {value} does not parse: {e:#}"));
        assert_eq!(
            format!("{with:?}"),
            format!("{without:?}"),
            "{row}: {value} is not the default"
        );
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} defaults checked");
}

/// Every ```toml block of the book, as (file, line, text).
fn toml_blocks() -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    let dir = common::repo().join("docs/src");
    let mut files: Vec<_> = walkdir::WalkDir::new(&dir)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    for file in files {
        let name = file.strip_prefix(&dir).unwrap().display().to_string();
        let mut block: Option<(usize, String)> = None;
        for (i, line) in common::read(&file).lines().enumerate() {
            match &mut block {
                None if line.trim_start().starts_with("```toml") => {
                    block = Some((i + 1, String::new()))
                }
                Some((start, text)) if line.trim_start().starts_with("```") => {
                    out.push((name.clone(), *start, std::mem::take(text)));
                    block = None;
                }
                Some((_, text)) => {
                    text.push_str(line);
                    text.push('\n');
                }
                None => {}
            }
        }
    }
    out
}

/// The book's convention: a block that sets `title` is a whole paperboy.toml; any other is
/// a part of one, parsed after a title and a base_url.
#[test]
fn every_toml_example_of_the_book_parses_with_the_real_loader() {
    let blocks = toml_blocks();
    assert!(blocks.len() >= 4, "{blocks:?}");
    let mut failures = Vec::new();
    for (file, line, text) in &blocks {
        let whole = text.lines().any(|l| l.trim_start().starts_with("title ="));
        let config = if whole {
            text.clone()
        } else {
            format!("{BASE}{text}")
        };
        if let Err(e) = parse(&config) {
            failures.push(format!("docs/src/{file}:{line}: {e:#}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
