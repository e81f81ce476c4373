//! `paperboy build`: content -> public/, as a flat list of timed steps.

mod authors;
mod categories;
mod ctx;
mod files;
mod kept_lines;
mod lists;
mod papers;
mod snippets;
mod steps;

use authors::*;
use categories::*;
use ctx::*;
use files::*;
use lists::*;
use papers::*;
use steps::*;

use crate::config::Config;
use crate::manifest::{Fingerprint, Hasher};
use crate::output::{Output, Reuse};
use crate::render::pager::{self, ListPage, Split};
use crate::render::views::{self, SiteView, Urls};
use crate::render::{self, feeds, search, thousands};
use crate::site::{self, Category, DigestEntry, Site};
use anyhow::{Context, Result};
use rayon::prelude::*;
use snippets::{Snippet, Snippets, listed_lines};
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// Items (pages, files) a core takes at a time when a list is shared out. Rayon otherwise
/// cuts a list into about two pieces per core and each core works through its own; the
/// pages a week changes are the last few thousand of 100,000 papers, so they all fell in
/// one piece and one core rendered them while the others had nothing left to take.
const GRAIN: usize = 256;

/// Related papers listed on each paper's page.
const RELATED_PER_PAPER: usize = 5;

pub struct BuildReport {
    pub pages: usize,
    /// Files (pages and search index) linked unchanged from the previous build.
    pub reused: usize,
    pub files: usize,
    pub bytes: usize,
    pub papers: usize,
    pub weeks: usize,
    pub categories: usize,
    /// The whole site's bytes, files, largest file and fullest folder, kept files too.
    pub size: crate::host::SiteSize,
    pub steps: Vec<Step>,
    pub total: Duration,
    /// Temporary files of killed runs removed from `content/`.
    pub temporaries_removed: usize,
}

impl std::fmt::Display for BuildReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "built {} pages ({} papers, {} weeks, {} categories) in {:.2} s",
            thousands(self.pages),
            thousands(self.papers),
            thousands(self.weeks),
            thousands(self.categories),
            self.total.as_secs_f64()
        )?;
        if self.reused > 0 {
            write!(
                f,
                "; {} unchanged files kept from the last build",
                thousands(self.reused)
            )?;
        }
        let size = &self.size;
        write!(
            f,
            "\nsite: {} in {} files",
            crate::host::bytes(size.bytes),
            thousands(size.files)
        )?;
        if let Some((rel, bytes)) = &size.largest {
            write!(f, ", the largest {rel} ({})", crate::host::bytes(*bytes))?;
        }
        Ok(())
    }
}

/// How to build.
pub struct Options {
    /// Show a progress bar on large sites.
    pub progress: bool,
    /// Link pages whose inputs are unchanged since the last build into the same folder
    /// from it, rather than render them again.
    pub incremental: bool,
    /// Past this many papers the abstracts are kept in a temporary file, not in memory.
    pub abstracts_in_memory_up_to: usize,
    /// Remove the temporary files killed runs left in `content/`: only for a caller that
    /// holds the site lock, or it could take a running fetch's file from under it.
    pub remove_temporaries: bool,
}

impl Default for Options {
    /// A full build, quiet, abstracts in memory up to `site::ABSTRACTS_IN_MEMORY_UP_TO`.
    fn default() -> Options {
        Options {
            progress: false,
            incremental: false,
            abstracts_in_memory_up_to: site::ABSTRACTS_IN_MEMORY_UP_TO,
            remove_temporaries: false,
        }
    }
}

/// What an incremental build keeps under `.cache/` for the next one, besides the standby
/// copy of the site and its manifest. A full build trusts none of it and keeps nothing.
struct Kept {
    /// Kept records: parsed paper files, by each file's path, size, modification time and
    /// inode.
    parsed: std::path::PathBuf,
    /// Kept records (`crate::kept`): the terms related papers counted in each paper.
    related_terms: std::path::PathBuf,
    /// Kept records: the paper lines of the author pages.
    lines: std::path::PathBuf,
    /// The postings the search index was made from, in segments.
    search_state: std::path::PathBuf,
}

impl Kept {
    fn under(root: &Path) -> Kept {
        let cache = root.join(".cache");
        Kept {
            parsed: cache.join("parsed.bin"),
            related_terms: cache.join("related-terms.bin"),
            lines: cache.join("lines.bin"),
            search_state: cache.join("search-state.bin"),
        }
    }
}

/// Related papers for every paper: those of the last build when no paper's words, the
/// binary or the config changed, else computed (from `terms_cache`'s kept terms where it
/// has them). Returns what the output can reuse of the last build, and every paper's
/// terms where they were counted and held (`Site::compute_related`).
fn related_papers(
    site: &mut Site,
    previous: Option<crate::manifest::Previous>,
    site_fp: Fingerprint,
    corpus: Fingerprint,
    standby: Option<crate::manifest::Listed>,
    terms_cache: Option<&Path>,
) -> Result<(Option<Reuse>, Option<Vec<site::related::Terms>>)> {
    Ok(match previous {
        Some(p) => {
            // The same papers' words, and the same binary and config: the same related
            // papers.
            let held = if p.site == site_fp
                && p.corpus == corpus
                && p.related.len() == site.papers.len()
            {
                site.related = p.related;
                None
            } else {
                site.compute_related(RELATED_PER_PAPER, terms_cache)?
            };
            let reuse = Reuse {
                current: p.pages,
                standby,
            };
            (Some(reuse), held)
        }
        None => (None, site.compute_related(RELATED_PER_PAPER, terms_cache)?),
    })
}

/// Builds the site into `output`.
pub fn run(root: &Path, config: &Config, output: &Path, options: &Options) -> Result<BuildReport> {
    run_then(root, config, output, options, |_| ()).map(|(report, ())| report)
}

/// Builds the site into `output`, then gives the loaded site to `then` before it is let
/// go: a caller that needs the content too does not load it a second time.
pub fn run_then<T>(
    root: &Path,
    config: &Config,
    output: &Path,
    options: &Options,
    then: impl FnOnce(&Site) -> T,
) -> Result<(BuildReport, T)> {
    let Options {
        progress,
        incremental,
        abstracts_in_memory_up_to,
        remove_temporaries,
    } = *options;
    let started = Instant::now();
    let mut steps = Steps {
        list: Vec::new(),
        last: started,
        last_cpu: process_cpu_time(),
    };
    let kept = incremental.then(|| Kept::under(root));
    let parse_cache = kept.as_ref().map(|k| {
        // Where earlier paperboys kept one parse cache file per content folder.
        let _ = std::fs::remove_dir_all(k.parsed.with_extension(""));
        site::parsed::ParseCache::open(&k.parsed)
    });
    // The two manifests list every file of the site: they are read while the content is,
    // which leaves a core idle for a third of its time.
    let (site, manifests) = rayon::join(
        || {
            site::load_with(
                &root.join("content"),
                abstracts_in_memory_up_to,
                parse_cache.as_ref(),
            )
        },
        || {
            incremental.then(|| {
                (
                    crate::manifest::load(output),
                    crate::manifest::read_standby(output),
                )
            })
        },
    );
    let mut site = site?;
    let (previous, standby) = manifests.unwrap_or_default();
    // Also after a full build, so that no manifest is left for a standby it removes.
    crate::manifest::release_standby(output)?;
    site.preferred_categories = config.site_categories();
    let mut temporaries_removed = 0;
    if remove_temporaries {
        for path in std::mem::take(&mut site.temporaries) {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove {}", path.display()))?;
            temporaries_removed += 1;
        }
    }
    steps.done("load content");
    let tera = render::load_templates(root, &config.theme)?;
    steps.done("load templates");
    let urls = Urls::new(&config.base_url);
    let site_view = SiteView {
        title: &config.title,
        description: &config.description,
        base_url: &config.base_url,
        base_path: urls.base_path.clone(),
        feed_url: urls.path("atom.xml"),
        categories: site
            .categories
            .iter()
            .map(|c| views::category_link(c, &urls))
            .collect(),
    };
    let site_fp = site_inputs(root, config, &site_view)?;
    let corpus = corpus_fingerprint(&site);
    steps.done("fingerprints");
    let terms_cache = kept.as_ref().map(|k| k.related_terms.as_path());
    let (reuse, held_terms) =
        related_papers(&mut site, previous, site_fp, corpus, standby, terms_cache)?;
    steps.done("related papers");
    let mut base = tera::Context::new();
    base.insert("site", &site_view);
    let ctx = Ctx {
        root,
        site: &site,
        tera,
        urls,
        base,
        config,
        fingerprints: Fingerprints::new(site_fp, &site),
    };
    let out = Output::new(output, reuse)?;
    let bar = crate::progress::Progress::new(progress && site.papers.len() > 2000);

    // Next to related papers, while the terms it counted are held: For you reads them too.
    write_foryou(&ctx, &out, terms_cache, held_terms.as_deref())?;
    drop(held_terms);
    steps.done("for-you vectors");

    render_papers(&ctx, &out, &bar)?;
    steps.done("render papers");

    render_weeks(&ctx, &out)?;
    steps.done("render digests, home");

    let search_state = kept.as_ref().map(|k| k.search_state.as_path());
    let lines_cache = kept.as_ref().map(|k| k.lines.as_path());
    // Where earlier builds kept it, as JSON.
    let _ = std::fs::remove_file(root.join(".cache/search-index.json"));
    // Building the search index is mostly one thread's work: the category and author
    // pages, which need nothing from it, keep the other cores busy meanwhile.
    let (authors, search) = rayon::join(
        || render_line_lists(&ctx, &out, lines_cache),
        || write_search_index(&ctx, &out, search_state),
    );
    authors?;
    search?;
    steps.done("render categories, authors, search index");

    render_lists(&ctx, &out)?;
    steps.done("render archive, search, 404");

    render_feeds(&ctx, &out)?;
    steps.done("feeds, sitemap, robots");

    out.copy_dirs(
        &[
            root.join("themes").join(&config.theme).join("static"),
            root.join("static"),
        ],
        root,
    )?;
    steps.done("static files");

    bar.finish();
    let (pages, files, bytes, reused) = (out.html_pages(), out.files(), out.bytes(), out.reused());
    crate::manifest::set_aside(output)?;
    let (manifest, replaced_is_standby) = out.commit()?;
    crate::manifest::after_swap(output, replaced_is_standby)?;
    steps.done("swap in");
    // The site's size is read from the same list the manifest saves: on the other core
    // while it is written (30 ms of CPU at 100,000 papers).
    let (saved, size) = rayon::join(
        || {
            crate::manifest::save(
                output,
                crate::manifest::Record {
                    site: site_fp,
                    pages: &manifest,
                    corpus,
                    related: &site.related,
                },
            )
        },
        || crate::host::SiteSize::of(&manifest),
    );
    saved?;
    steps.done("manifest, site size");
    let report = BuildReport {
        pages,
        reused,
        files,
        bytes,
        papers: site.papers.len(),
        weeks: site.digests.len(),
        categories: site.categories.len(),
        size,
        steps: steps.list,
        total: started.elapsed(),
        temporaries_removed,
    };
    drop(ctx);
    let then = then(&site);
    crate::drop_in_background((site, manifest));
    Ok((report, then))
}
