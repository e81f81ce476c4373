//! Paper cards and lines, rendered once and shared by every page that shows them.
//!
//! A paper appears on its week's digest, on one page of each of its categories (2.4 on
//! average) and, in the newest week, on the home page, each time as its card; and on the
//! page of each of its authors (3 to 8) as a line. Rendering `card.html` and `line.html`
//! once per paper instead of once per appearance saves most of a build's template work.
//! Holding every snippet would cost more memory than the papers themselves, so one is kept
//! only until the last page that shows it is done: list pages are rendered week by week,
//! newest first, and each paper counts the appearances it has left. With a `Store`,
//! snippets are also taken from the last build's file and this build's are kept in one.

use super::kept_lines::KeptLines;
use crate::kept::RecordWriter;
use crate::manifest::Fingerprint;
use crate::render::{self, views, views::Urls};
use crate::site::Site;
use anyhow::{Context as _, Result};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// What a theme can have rendered once per paper, by providing its template.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Snippet {
    /// `card.html`, shown on the digest, home and category pages, from a paper view.
    Card,
    /// `line.html`, shown on author pages, from a paper line.
    Line,
}

impl Snippet {
    pub fn template(self) -> &'static str {
        match self {
            Snippet::Card => "card.html",
            Snippet::Line => "line.html",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Snippet::Card => "card",
            Snippet::Line => "line",
        }
    }

    /// Whether the theme renders this snippet once per paper.
    pub fn in_theme(self, tera: &tera::Tera) -> bool {
        crate::render::has_template(tera, self.template())
    }
}

/// A snippet: rendered by this build, or kept from the last one (borrowed from its file).
#[derive(Clone)]
pub enum Held<'a> {
    Rendered(Arc<String>),
    Kept(&'a str),
}

impl serde::Serialize for Held<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

/// A paper on a list of lines (a category's page, an author's): its line as `line.html`
/// rendered it once for every list, or, for a theme without `line.html`, the line's view.
#[derive(serde::Serialize)]
#[serde(untagged)]
pub enum ListedLine<'a> {
    Rendered { id: &'a str, line: Held<'a> },
    View(views::PaperLine<'a>),
}

/// `papers` as a list page shows them: each line from `lines`, which holds it until its
/// last page is done, or each line's view.
pub fn listed_lines<'x, 'a: 'x>(
    site: &'x Site,
    urls: &Urls,
    lines: Option<&Snippets<'a>>,
    papers: &[usize],
    context: &mut tera::Context,
) -> Result<Vec<ListedLine<'x>>> {
    papers
        .iter()
        .map(|&i| {
            Ok(match lines {
                Some(lines) => ListedLine::Rendered {
                    id: site.papers[i].front.id.as_str(),
                    line: lines.get(i, context)?,
                },
                None => ListedLine::View(views::paper_line(site, i, urls)),
            })
        })
        .collect()
}

impl std::ops::Deref for Held<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            Held::Rendered(html) => html,
            Held::Kept(html) => html,
        }
    }
}

pub struct Snippets<'a> {
    kind: Snippet,
    site: &'a Site,
    tera: &'a tera::Tera,
    urls: &'a views::Urls,
    slots: Vec<Mutex<Option<Held<'a>>>>,
    /// Per paper, the pages still to come that show it.
    uses_left: Vec<AtomicU32>,
    store: Option<Store<'a>>,
}

/// Snippets kept across builds: those of the last build, and the file this one keeps.
pub struct Store<'a> {
    /// Per paper, the key of its snippet: what it is made from.
    pub keys: &'a [Fingerprint],
    pub kept: Option<&'a KeptLines>,
    pub writer: Option<&'a RecordWriter<'a>>,
}

impl<'a> Snippets<'a> {
    /// `uses` lists, once per appearance, the papers that pages will show.
    pub fn new(
        kind: Snippet,
        site: &'a Site,
        tera: &'a tera::Tera,
        urls: &'a views::Urls,
        uses: impl Iterator<Item = usize>,
    ) -> Snippets<'a> {
        let mut counts = vec![0u32; site.papers.len()];
        for i in uses {
            counts[i] += 1;
        }
        Snippets {
            kind,
            site,
            tera,
            urls,
            slots: (0..site.papers.len()).map(|_| Mutex::new(None)).collect(),
            uses_left: counts.into_iter().map(AtomicU32::new).collect(),
            store: None,
        }
    }

    /// Snippets are taken from `store` when it has them, and those rendered go to it.
    pub fn with_store(self, store: Store<'a>) -> Snippets<'a> {
        Snippets {
            store: Some(store),
            ..self
        }
    }

    fn slot(&self, i: usize) -> std::sync::MutexGuard<'_, Option<Held<'a>>> {
        // A snippet is a finished string: a panic elsewhere cannot leave one half-made.
        self.slots[i]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Paper `i`'s snippet, rendered with `context` (which holds `site`; `paper` is added for
    /// the snippet and taken out again) unless a page already rendered it.
    pub fn get(&self, i: usize, context: &mut tera::Context) -> Result<Held<'a>> {
        if let Some(snippet) = self.slot(i).as_ref() {
            return Ok(snippet.clone());
        }
        let key = self.store.as_ref().map(|s| s.keys[i]);
        if let Some(kept) = self.store.as_ref().and_then(|s| s.kept?.get(s.keys[i])) {
            return Ok(self.slot(i).get_or_insert(Held::Kept(kept)).clone());
        }
        // Rendered outside the lock: two pages that need the same new snippet at the same
        // moment both render it, and the first one kept wins. That is rare and harmless.
        match self.kind {
            Snippet::Card => context.insert("paper", &views::paper_view(self.site, i, self.urls)?),
            Snippet::Line => context.insert("paper", &views::paper_line(self.site, i, self.urls)),
        }
        let html = render::render(self.tera, self.kind.template(), context);
        context.remove("paper");
        let mut html = html.with_context(|| {
            format!(
                "rendering the {} of {}",
                self.kind.name(),
                self.site.papers[i].source_path.display()
            )
        })?;
        // Tera starts every output with room for 2,000 bytes; a line is a tenth of that,
        // and a site's worth of them is held.
        html.shrink_to_fit();
        if let (Some(writer), Some(key)) = (self.store.as_ref().and_then(|s| s.writer), key) {
            writer.put(key, html.as_bytes());
        }
        Ok(self
            .slot(i)
            .get_or_insert_with(|| Held::Rendered(Arc::new(html)))
            .clone())
    }

    /// The snippets of `papers`, in order, those not ready yet rendered on all cores: a
    /// digest shows thousands, and its page is one template run on one core.
    pub fn prepare(&self, papers: &[usize], base: &tera::Context) -> Result<Vec<Held<'a>>> {
        papers
            .par_iter()
            .map_init(|| base.clone(), |c, &i| self.get(i, c))
            .collect()
    }

    /// One page that showed `papers` is done (rendered or kept from the last build): a snippet
    /// no page still needs is dropped.
    pub fn release(&self, papers: &[usize]) {
        for &i in papers {
            if self.uses_left[i].fetch_sub(1, Ordering::Relaxed) == 1 {
                *self.slot(i) = None;
            }
        }
    }

    /// Snippets still held: none once every list page is done, if `new` was told every use.
    #[cfg(debug_assertions)]
    pub fn held(&self) -> usize {
        (0..self.slots.len())
            .filter(|&i| self.slot(i).is_some())
            .count()
    }
}
