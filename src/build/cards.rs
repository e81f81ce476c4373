//! Paper cards, rendered once and shared by every list page that shows them.
//!
//! A paper appears on its week's digest, on one page of each of its categories (2.4 on
//! average) and, in the newest week, on the home page. Rendering `card.html` once per
//! paper instead of once per appearance saves most of a build's template work. Holding
//! every card would cost more memory than the papers themselves, so a card is kept only
//! until the last page that lists it is done: list pages are rendered week by week,
//! newest first, and each paper counts the appearances it has left.

use crate::render::{self, views};
use crate::site::Site;
use anyhow::{Context as _, Result};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// The template a theme provides to have its cards rendered once per paper.
pub const TEMPLATE: &str = "card.html";

pub struct Cards<'a> {
    site: &'a Site,
    tera: &'a tera::Tera,
    urls: &'a views::Urls,
    slots: Vec<Mutex<Option<Arc<String>>>>,
    /// Per paper, the list pages still to come that show it.
    uses_left: Vec<AtomicU32>,
}

impl<'a> Cards<'a> {
    /// `uses` lists, once per appearance, the papers that list pages will show.
    pub fn new(
        site: &'a Site,
        tera: &'a tera::Tera,
        urls: &'a views::Urls,
        uses: impl Iterator<Item = usize>,
    ) -> Cards<'a> {
        let mut counts = vec![0u32; site.papers.len()];
        for i in uses {
            counts[i] += 1;
        }
        Cards {
            site,
            tera,
            urls,
            slots: (0..site.papers.len()).map(|_| Mutex::new(None)).collect(),
            uses_left: counts.into_iter().map(AtomicU32::new).collect(),
        }
    }

    fn slot(&self, i: usize) -> std::sync::MutexGuard<'_, Option<Arc<String>>> {
        // A card is a finished string: a panic elsewhere cannot leave one half-made.
        self.slots[i]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Paper `i`'s card, rendered with `context` (which holds `site`; `paper` is added for
    /// the card and taken out again) unless a page already rendered it.
    pub fn get(&self, i: usize, context: &mut tera::Context) -> Result<Arc<String>> {
        if let Some(card) = self.slot(i).as_ref() {
            return Ok(card.clone());
        }
        // Rendered outside the lock: two pages that need the same new card at the same
        // moment both render it, and the first one kept wins. That is rare and harmless.
        let view = views::paper_view(self.site, i, self.urls)?;
        context.insert("paper", &view);
        let html = render::render(self.tera, TEMPLATE, context);
        context.remove("paper");
        let html = html.with_context(|| {
            format!(
                "rendering the card of {}",
                self.site.papers[i].source_path.display()
            )
        })?;
        Ok(self.slot(i).get_or_insert_with(|| Arc::new(html)).clone())
    }

    /// The cards of `papers`, in order, those not ready yet rendered on all cores: a
    /// digest shows thousands, and its page is one template run on one core.
    pub fn prepare(&self, papers: &[usize], base: &tera::Context) -> Result<Vec<Arc<String>>> {
        papers
            .par_iter()
            .map_init(|| base.clone(), |c, &i| self.get(i, c))
            .collect()
    }

    /// One page that showed `papers` is done (rendered or kept from the last build): a card
    /// no page still needs is dropped.
    pub fn release(&self, papers: &[usize]) {
        for &i in papers {
            if self.uses_left[i].fetch_sub(1, Ordering::Relaxed) == 1 {
                *self.slot(i) = None;
            }
        }
    }

    /// Cards still held: none once every list page is done, if `new` was told every use.
    #[cfg(debug_assertions)]
    pub fn held(&self) -> usize {
        (0..self.slots.len())
            .filter(|&i| self.slot(i).is_some())
            .count()
    }
}
