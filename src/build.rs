//! `paperboy build`: content -> public/, as a flat list of timed steps.

mod kept_lines;
mod snippets;

use crate::config::Config;
use crate::manifest::{Fingerprint, Hasher};
use crate::output::{Output, Reuse};
use crate::render::pager::{self, ListPage, Split};
use crate::render::views::{self, SiteView, Urls};
use crate::render::{self, feeds, search};
use crate::site::{self, Category, DigestEntry, Site};
use anyhow::{Context, Result};
use rayon::prelude::*;
use snippets::{Snippet, Snippets};
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

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
    pub steps: Vec<Step>,
    pub total: Duration,
    /// Temporary files of killed runs removed from `content/`.
    pub temporaries_removed: usize,
}

fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
        Ok(())
    }
}

/// One step of a build: its name, how long it took, and the process's peak memory
/// (bytes) at its end, where the OS tells.
pub struct Step {
    pub name: &'static str,
    pub took: Duration,
    /// CPU time of all the process's threads during the step: near `took` times the
    /// number of cores when the step keeps them all busy.
    pub cpu: Duration,
    pub peak_memory: Option<u64>,
    /// Resident memory at its end.
    pub memory: Option<u64>,
}

struct Steps {
    list: Vec<Step>,
    last: Instant,
    last_cpu: Duration,
}

impl Steps {
    fn done(&mut self, name: &'static str) {
        let now = Instant::now();
        let cpu = process_cpu_time();
        self.list.push(Step {
            name,
            took: now - self.last,
            cpu: cpu.saturating_sub(self.last_cpu),
            peak_memory: status_bytes("VmHWM:"),
            memory: status_bytes("VmRSS:"),
        });
        self.last = now;
        self.last_cpu = cpu;
    }
}

fn process_cpu_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// A size from /proc/self/status: `VmHWM:` (peak resident memory so far), `VmRSS:`.
fn status_bytes(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Everything the page renderers share.
struct Ctx<'a> {
    /// The site's folder.
    root: &'a Path,
    site: &'a Site,
    tera: tera::Tera,
    urls: Urls,
    /// `site`, serialized once for every page.
    base: tera::Context,
    config: &'a Config,
    fingerprints: Fingerprints,
}

impl Ctx<'_> {
    fn context(&self) -> tera::Context {
        self.base.clone()
    }

    /// Renders `template` into `<rel_dir>index.html` with the variables `fill` adds to
    /// `context` (a worker's copy of `base`, which gets them taken out again), unless the
    /// previous build made that page from the same inputs (`fingerprint`).
    fn page(
        &self,
        out: &Output,
        context: &mut tera::Context,
        template: &str,
        rel_dir: &str,
        fingerprint: Fingerprint,
        fill: impl FnOnce(&mut PageVars) -> Result<()>,
    ) -> Result<()> {
        out.page(&format!("{rel_dir}index.html"), fingerprint, || {
            let mut vars = PageVars {
                context,
                added: Vec::new(),
            };
            fill(&mut vars)?;
            render::render(&self.tera, template, vars.context)
        })
    }
}

/// One page's variables, added to a context that is reused from page to page and taken
/// out of it again when the page is done: `site` is copied once per worker, not once per
/// page (copying and dropping it was a tenth of a build's work).
struct PageVars<'c> {
    context: &'c mut tera::Context,
    added: Vec<&'static str>,
}

impl PageVars<'_> {
    fn insert<T: serde::Serialize + ?Sized>(&mut self, key: &'static str, value: &T) {
        self.context.insert(key, value);
        self.added.push(key);
    }
}

impl Drop for PageVars<'_> {
    fn drop(&mut self) {
        for key in &self.added {
            self.context.remove(key);
        }
    }
}

/// What each page is made from, hashed: the site-wide inputs, and per paper its file and
/// the week that announced it (everything a paper view shows). A page's fingerprint
/// combines these for the papers it shows; `Output::page` compares it with the last build.
struct Fingerprints {
    site: Fingerprint,
    paper_view: Vec<Fingerprint>,
}

impl Fingerprints {
    fn new(site_inputs: Fingerprint, site: &Site) -> Fingerprints {
        let paper_view = (0..site.papers.len())
            .into_par_iter()
            .map(|i| {
                let week = site.week_of[i]
                    .map(|d| site.digests[d].week.to_string())
                    .unwrap_or_default();
                Hasher::new()
                    .num(site.papers[i].content_hash)
                    .str(&week)
                    .finish()
            })
            .collect();
        Fingerprints {
            site: site_inputs,
            paper_view,
        }
    }

    fn page(&self, kind: &str) -> Hasher {
        let mut h = Hasher::new();
        h.num(self.site).str(kind);
        h
    }

    fn papers(&self, h: &mut Hasher, papers: &[usize]) {
        h.num(papers.len() as u128);
        for &i in papers {
            h.num(self.paper_view[i]);
        }
    }
}

/// What related papers and the search index are computed from: each paper's id, title,
/// abstract, authors, categories and date, in order.
fn corpus_fingerprint(site: &Site) -> Fingerprint {
    let mut h = Hasher::new();
    for p in &site.papers {
        h.num(p.corpus_hash);
    }
    h.finish()
}

/// The search index, or the previous build's when no paper's searchable text changed.
/// With `state`, where an incremental build keeps what the index was made from, only
/// the papers added since are tokenized.
fn write_search_index(
    ctx: &Ctx,
    out: &Output,
    corpus: Fingerprint,
    state: Option<&Path>,
) -> Result<()> {
    let fingerprint = Hasher::new()
        .num(ctx.fingerprints.site)
        .num(corpus)
        .str("search")
        .finish();
    // A week's new papers change the last few chunks of document details; each chunk is
    // made only when what it shows of its papers changed (their corpus hashes cover it).
    // The postings change with every paper (the idf).
    let n = ctx.site.papers.len();
    (0..n.div_ceil(search::CHUNK))
        .into_par_iter()
        .try_for_each(|c| {
            let range = c * search::CHUNK..n.min((c + 1) * search::CHUNK);
            let mut h = ctx.fingerprints.page("search-docs");
            h.num(c as u128);
            for p in &ctx.site.papers[range.clone()] {
                h.num(p.corpus_hash);
            }
            out.page(&search::doc_chunk_rel(c), h.finish(), || {
                search::doc_chunk(ctx.site, &ctx.urls, range)
            })
        })?;
    let previous = out.previous_under("search/", fingerprint);
    let mut linked = !previous.is_empty();
    for rel in &previous {
        if !out.reuse(rel, fingerprint)? {
            linked = false;
            break;
        }
    }
    if linked {
        return Ok(());
    }
    // Anything unreadable is no state: every paper is tokenized.
    let kept = state
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|bytes| search::SearchState::decode(&bytes));
    let index = search::build_index(ctx.site, kept, state.is_some(), &|rel, json| {
        out.page(&rel, fingerprint, || Ok(json))
    })?;
    if let (Some(path), Some(bytes)) = (state, &index.state) {
        // Failing to keep it only costs the next build the tokenizing.
        let _ = std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))
            .map_err(anyhow::Error::from)
            .and_then(|()| crate::store::atomic::write_atomic(path, bytes));
    }
    Ok(())
}

/// Everything every page depends on: the binary, the config, the templates and what
/// `site` holds. Any change makes a full build.
fn site_inputs(root: &Path, config: &Config, site_view: &SiteView) -> Result<Fingerprint> {
    let mut h = Hasher::new();
    h.str(&crate::manifest::binary_identity())
        .str(&format!("{config:?}"));
    for dir in [
        root.join("themes").join(&config.theme).join("templates"),
        root.join("templates"),
    ] {
        for (rel, path) in crate::walk::files_below(&dir, root)? {
            let bytes =
                std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            h.str(&rel).bytes(&bytes);
        }
    }
    h.bytes(&serde_json::to_vec(site_view).context("cannot serialize the site view")?);
    Ok(h.finish())
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

/// Builds the site into `output`.
pub fn run(root: &Path, config: &Config, output: &Path, options: &Options) -> Result<BuildReport> {
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
    // A full build trusts nothing kept from earlier builds, and keeps nothing for later.
    let parse_cache =
        incremental.then(|| site::parsed::ParseCache::new(root.join(".cache/parsed")));
    let mut site = site::load_with(
        &root.join("content"),
        abstracts_in_memory_up_to,
        parse_cache.as_ref(),
    )?;
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
    // The two manifests list every file of the site; reading one is most of this step.
    let ((corpus, previous), standby) = rayon::join(
        || {
            let previous = incremental.then(|| crate::manifest::load(output)).flatten();
            (corpus_fingerprint(&site), previous)
        },
        // Always taken, so that a full build leaves no manifest for a standby it removes.
        || crate::manifest::take_standby(output),
    );
    let standby = standby?;
    steps.done("fingerprints");
    let terms_cache = incremental.then(|| root.join(".cache/related-terms.bin"));
    let reuse = match previous {
        Some(p) => {
            // The same papers' words, and the same binary and config: the same related
            // papers.
            if p.site == site_fp && p.corpus == corpus && p.related.len() == site.papers.len() {
                site.related = p.related;
            } else {
                site.compute_related(RELATED_PER_PAPER, terms_cache.as_deref())?;
            }
            Some(Reuse {
                current: p.pages,
                standby,
            })
        }
        None => {
            site.compute_related(RELATED_PER_PAPER, terms_cache.as_deref())?;
            None
        }
    };
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

    let paper_bar = bar.bar(site.papers.len() as u64, "papers");
    (0..site.papers.len()).into_par_iter().try_for_each_init(
        || ctx.context(),
        |context, i| {
            let fps = &ctx.fingerprints;
            let mut h = fps.page("paper");
            h.num(fps.paper_view[i]);
            // Related papers show their titles and links: their files count.
            for &r in &site.related[i] {
                h.num(site.papers[r].content_hash);
            }
            ctx.page(
                &out,
                context,
                "paper.html",
                &views::paper_rel(&site.papers[i]),
                h.finish(),
                |c| {
                    let paper = views::paper_view(&site, i, &ctx.urls)?;
                    let extras = views::paper_page_extras(
                        &site,
                        i,
                        &ctx.urls,
                        &config.title,
                        &paper.abstract_text,
                    );
                    c.insert("paper", &paper);
                    c.insert("page", &extras);
                    Ok(())
                },
            )
            .with_context(|| format!("rendering {}", site.papers[i].source_path.display()))?;
            publish_figure(&ctx, &out, i)?;
            if let Some(b) = &paper_bar {
                b.inc(1);
            }
            Ok::<_, anyhow::Error>(())
        },
    )?;
    steps.done("render papers");

    render_weeks(&ctx, &out)?;
    steps.done("render digests, home, categories");

    let search_state = incremental.then(|| root.join(".cache/search-state.bin"));
    let lines_cache = incremental.then(|| root.join(".cache/lines.bin"));
    // Where earlier builds kept it, as JSON.
    let _ = std::fs::remove_file(root.join(".cache/search-index.json"));
    // Building the search index is mostly one thread's work: the author pages, which
    // need nothing from it, keep the other cores busy meanwhile.
    let (authors, search) = rayon::join(
        || render_authors(&ctx, &out, lines_cache.as_deref()),
        || write_search_index(&ctx, &out, corpus, search_state.as_deref()),
    );
    authors?;
    search?;
    steps.done("render authors, search index");

    render_lists(&ctx, &out)?;
    steps.done("render archive, search, 404");

    render_feeds(&ctx, &out)?;
    steps.done("feeds, sitemap, robots");

    write_foryou(&ctx, &out, terms_cache.as_deref())?;
    steps.done("for-you vectors");

    out.copy_dir(
        &root.join("themes").join(&config.theme).join("static"),
        root,
    )?;
    out.copy_dir(&root.join("static"), root)?;
    steps.done("static files");

    bar.finish();
    let (pages, files, bytes, reused) = (out.html_pages(), out.files(), out.bytes(), out.reused());
    crate::manifest::set_aside(output)?;
    let (manifest, replaced_is_standby) = out.commit()?;
    crate::manifest::after_swap(output, replaced_is_standby)?;
    steps.done("swap in");
    crate::manifest::save(
        output,
        crate::manifest::Record {
            site: site_fp,
            pages: manifest,
            corpus,
            related: &site.related,
        },
    )?;
    steps.done("manifest");
    Ok(BuildReport {
        pages,
        reused,
        files,
        bytes,
        papers: site.papers.len(),
        weeks: site.digests.len(),
        categories: site.categories.len(),
        steps: steps.list,
        total: started.elapsed(),
        temporaries_removed,
    })
}

/// A paper's machine figure (`content/figures/…`), published beside its page. Made again
/// when the paper's file or the figure file changed.
fn publish_figure(ctx: &Ctx, out: &Output, i: usize) -> Result<()> {
    let p = &ctx.site.papers[i];
    let (Some(rel), Some(m)) = (views::figure_rel(p), &p.front.machine) else {
        return Ok(());
    };
    let safe = m.figure.starts_with("figures/")
        && std::path::Path::new(&m.figure)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
    if !safe {
        anyhow::bail!(
            "{}: key `machine.figure`: {:?} is not a file under content/figures/",
            p.source_path.display(),
            m.figure
        );
    }
    let path = ctx.root.join("content").join(&m.figure);
    let meta = std::fs::metadata(&path).with_context(|| {
        format!(
            "{}: key `machine.figure`: cannot read {} (run `paperboy review --id {}` to make it again)",
            p.source_path.display(),
            path.display(),
            p.front.id
        )
    })?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let mut h = ctx.fingerprints.page("figure");
    h.num(p.content_hash).num(u128::from(meta.len())).num(mtime);
    out.file(&rel, h.finish(), || {
        std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))
    })
}

/// A page of a category's list.
struct CategoryPage<'s> {
    category: &'s Category,
    split: Split,
    page: ListPage,
    papers: &'s [usize],
}

/// Digests, the home page and category pages, week by week from the newest, each category
/// page right after the digest of the oldest week it shows: every card is then rendered
/// once and held only while pages that show it are still to come.
fn render_weeks(ctx: &Ctx, out: &Output) -> Result<()> {
    let site = ctx.site;
    let weeks = site.digests.len();
    let per_page = ctx.config.paginate_by;
    // due[w]: the category pages to render after week w; due[weeks]: those that show
    // papers no digest lists.
    let mut due: Vec<Vec<CategoryPage>> = (0..=weeks).map(|_| Vec::new()).collect();
    for category in &site.categories {
        let split = Split {
            len: category.papers.len(),
            per_page,
            front: pager::Front::TwoNewestPages,
        };
        for page in split.pages() {
            let papers = &category.papers[split.range(page)];
            let oldest = papers
                .iter()
                .map(|i| site.week_of[*i].unwrap_or(weeks))
                .max()
                .unwrap_or(weeks);
            due[oldest].push(CategoryPage {
                category,
                split,
                page,
                papers,
            });
        }
    }
    let cards = Snippet::Card.in_theme(&ctx.tera).then(|| {
        let digests = site
            .digests
            .iter()
            .flat_map(|d| d.papers.iter().chain(&d.updated));
        let pages = due.iter().flatten().flat_map(|p| p.papers);
        Snippets::new(
            Snippet::Card,
            site,
            &ctx.tera,
            &ctx.urls,
            digests.chain(pages).copied(),
        )
    });
    let cards = cards.as_ref();
    let home = home_week(site);
    for (di, pages) in due.iter().enumerate() {
        let Some(d) = site.digests.get(di) else {
            render_category_pages(ctx, out, cards, pages)?;
            continue;
        };
        // A digest page is one long template run: the week's category pages use the
        // other cores meanwhile.
        let (digest, categories) = rayon::join(
            || {
                if Some(di) != home {
                    return render_digest(ctx, out, cards, di);
                }
                // The home page shows the newest week's cards too: they are made once,
                // and then its template and the digest's run side by side.
                if let Some(cards) = cards {
                    digest_cards(cards, d, &ctx.base)?;
                }
                let (digest, index) = rayon::join(
                    || render_digest(ctx, out, cards, di),
                    || render_index(ctx, out, cards),
                );
                digest.and(index)
            },
            || render_category_pages(ctx, out, cards, pages),
        );
        digest?;
        categories?;
        if let Some(cards) = cards {
            cards.release(&d.papers);
            cards.release(&d.updated);
        }
    }
    if site.digests.is_empty() {
        render_index(ctx, out, cards)?;
    }
    #[cfg(debug_assertions)]
    if let Some(cards) = cards {
        debug_assert_eq!(cards.held(), 0, "cards held after every list page");
    }
    Ok(())
}

/// The cards of a digest's papers, new and updated, by paper.
fn digest_cards<'a>(
    cards: &Snippets<'a>,
    d: &DigestEntry,
    base: &tera::Context,
) -> Result<HashMap<usize, snippets::Held<'a>>> {
    let papers: Vec<usize> = d.papers.iter().chain(&d.updated).copied().collect();
    let rendered = cards.prepare(&papers, base)?;
    Ok(papers.into_iter().zip(rendered).collect())
}

/// The cards of `papers`, by paper, rendered where not ready.
fn cards_of<'a>(
    cards: &Snippets<'a>,
    papers: &[usize],
    context: &mut tera::Context,
) -> Result<HashMap<usize, snippets::Held<'a>>> {
    papers
        .iter()
        .map(|&i| Ok((i, cards.get(i, context)?)))
        .collect()
}

fn render_digest(ctx: &Ctx, out: &Output, cards: Option<&Snippets>, di: usize) -> Result<()> {
    let site = ctx.site;
    let d = &site.digests[di];
    let mut h = ctx.fingerprints.page("digest");
    h.num(d.content_hash).str(&d.week.to_string());
    ctx.fingerprints.papers(&mut h, &d.papers);
    ctx.fingerprints.papers(&mut h, &d.updated);
    // The links to the neighbouring weeks.
    for n in [di.checked_sub(1), Some(di + 1)] {
        let week = n
            .and_then(|n| site.digests.get(n))
            .map(|w| w.week.to_string());
        h.str(&week.unwrap_or_default());
    }
    let mut context = ctx.context();
    ctx.page(
        out,
        &mut context,
        "digest.html",
        &views::digest_rel(d),
        h.finish(),
        |c| {
            let Some(cards) = cards else {
                c.insert("digest", &views::digest_view(site, di, &ctx.urls)?);
                return Ok(());
            };
            let held = digest_cards(cards, d, &ctx.base)?;
            let view = views::digest_view_with(site, di, &ctx.urls, |i| {
                Ok(views::card_item(site, i, &ctx.urls, &held[&i]))
            })?;
            c.insert("digest", &view);
            Ok(())
        },
    )
}

/// The week the home page shows in full: the newest that has new papers (a week of only
/// new versions is no week to open with), else the newest.
fn home_week(site: &Site) -> Option<usize> {
    site.digests
        .iter()
        .position(|d| !d.papers.is_empty())
        .or((!site.digests.is_empty()).then_some(0))
}

/// The home page: the newest week with papers, in full, and the weeks before it, each with
/// its counts and top headlines. Rendered every time.
fn render_index(ctx: &Ctx, out: &Output, cards: Option<&Snippets>) -> Result<()> {
    let site = ctx.site;
    let home = home_week(site);
    let recent = ctx.config.recent_weeks;
    let weeks = views::week_summaries(site, &ctx.urls, home.map_or(0, |h| h + 1) + recent);
    let others: Vec<&views::WeekSummary> = weeks
        .iter()
        .enumerate()
        .filter(|(di, _)| Some(*di) != home)
        .map(|(_, w)| w)
        .take(recent)
        .collect();
    let mut c = ctx.context();
    c.insert("recent_weeks", &others);
    match (home, cards) {
        (None, _) => c.insert("latest", &None::<()>),
        (Some(h), None) => c.insert("latest", &views::digest_view(site, h, &ctx.urls)?),
        (Some(h), Some(cards)) => {
            let held = digest_cards(cards, &site.digests[h], &ctx.base)?;
            let view = views::digest_view_with(site, h, &ctx.urls, |i| {
                Ok(views::card_item(site, i, &ctx.urls, &held[&i]))
            })?;
            c.insert("latest", &view);
        }
    }
    always(ctx, out, "index.html", "index.html", &c)
}

fn render_category_pages(
    ctx: &Ctx,
    out: &Output,
    cards: Option<&Snippets>,
    pages: &[CategoryPage],
) -> Result<()> {
    let site = ctx.site;
    pages.par_iter().try_for_each_init(
        || ctx.context(),
        |context, page| {
            let CategoryPage {
                category: cat,
                split,
                page,
                papers,
            } = *page;
            let headings = views::week_headings(site, papers, &ctx.urls);
            let paginator = pager::paginator(&pager::front_rel(&cat.slug), split, page, &ctx.urls);
            let mut h = ctx.fingerprints.page("category");
            h.str(&cat.name)
                .str(&cat.slug)
                .bytes(&serde_json::to_vec(&paginator).context("cannot serialize a pager")?);
            if page == ListPage::Front {
                // Only the front page shows the count.
                h.num(cat.papers.len() as u128);
            }
            ctx.fingerprints.papers(&mut h, papers);
            // Week headings show digest titles, which a paper's own inputs do not cover.
            for heading in headings.iter().flatten() {
                h.str(&heading.name).str(&heading.url);
            }
            ctx.page(
                out,
                context,
                "category.html",
                &pager::rel(&cat.slug, page),
                h.finish(),
                |c| {
                    match cards {
                        Some(cards) => {
                            let held = cards_of(cards, papers, c.context)?;
                            let list: Vec<_> = papers
                                .iter()
                                .zip(headings)
                                .map(|(&i, w)| views::Headed {
                                    paper: views::card_item(site, i, &ctx.urls, &held[&i]),
                                    week_heading: w,
                                })
                                .collect();
                            c.insert("papers", &list);
                        }
                        None => {
                            let list: Vec<_> = papers
                                .iter()
                                .zip(headings)
                                .map(|(&i, w)| {
                                    Ok(views::Headed {
                                        paper: views::paper_view(site, i, &ctx.urls)?,
                                        week_heading: w,
                                    })
                                })
                                .collect::<Result<_>>()?;
                            c.insert("papers", &list);
                        }
                    }
                    if page == ListPage::Front {
                        c.insert("category", &views::category_summary(cat, &ctx.urls));
                    } else {
                        c.insert("category", &views::category_link(cat, &ctx.urls));
                    }
                    c.insert("paginator", &paginator);
                    Ok(())
                },
            )
            .with_context(|| named_by("category", &cat.name, site, papers))?;
            if let Some(cards) = cards {
                cards.release(papers);
            }
            Ok(())
        },
    )
}

/// Says which content file a page's name comes from, for an error on that page: the
/// category or author name is the paper file's text, and the file is what to fix.
fn named_by(what: &str, name: &str, site: &Site, papers: &[usize]) -> String {
    let shown: String = name.chars().take(60).collect();
    let ellipsis = if shown.len() < name.len() { "…" } else { "" };
    match papers.first() {
        Some(&i) => format!(
            "the page of {what} {shown:?}{ellipsis}, named in {}",
            site.papers[i].source_path.display()
        ),
        None => format!("the page of {what} {shown:?}{ellipsis}"),
    }
}

/// Author pages. With `kept` (incremental builds), paper lines are taken from, and kept
/// in, that file.
fn render_authors(ctx: &Ctx, out: &Output, kept: Option<&Path>) -> Result<()> {
    let site = ctx.site;
    let in_theme = Snippet::Line.in_theme(&ctx.tera);
    let kept = kept.filter(|_| in_theme);
    let keys: Vec<Fingerprint> = match kept {
        Some(_) => (0..site.papers.len())
            .into_par_iter()
            .map(|i| {
                let mut h = ctx.fingerprints.page("line");
                h.num(ctx.fingerprints.paper_view[i]);
                h.finish()
            })
            .collect(),
        None => Vec::new(),
    };
    let kept_lines = kept.and_then(kept_lines::KeptLines::open);
    let writer = kept.and_then(kept_lines::LineWriter::new);
    // A paper is on the page of each of its authors: its line is rendered once.
    let lines = in_theme.then(|| {
        let uses = site.authors.iter().flat_map(|a| a.papers.iter().copied());
        let lines = Snippets::new(Snippet::Line, site, &ctx.tera, &ctx.urls, uses);
        match kept {
            Some(_) => lines.with_store(snippets::Store {
                keys: &keys,
                kept: kept_lines.as_ref(),
                writer: writer.as_ref(),
            }),
            None => lines,
        }
    });
    site.authors.par_iter().try_for_each_init(
        || ctx.context(),
        |context, author| {
            let front = views::author_rel(&author.slug);
            let split = author_split(author.papers.len());
            for page in split.pages() {
                let papers = &author.papers[split.range(page)];
                let paginator = pager::paginator(&front, split, page, &ctx.urls);
                let mut h = ctx.fingerprints.page("author");
                h.str(&author.name)
                    .str(&author.slug)
                    .bytes(&serde_json::to_vec(&paginator).context("cannot serialize a pager")?);
                if page == ListPage::Front {
                    // Only the front page shows the count.
                    h.num(author.papers.len() as u128);
                }
                ctx.fingerprints.papers(&mut h, papers);
                let rel = pager::page_rel(&front, page);
                ctx.page(out, context, "author.html", &rel, h.finish(), |c| {
                    match &lines {
                        Some(lines) => {
                            let held = papers
                                .iter()
                                .map(|&i| lines.get(i, c.context))
                                .collect::<Result<Vec<_>>>()?;
                            let list: Vec<_> = papers
                                .iter()
                                .zip(&held)
                                .map(|(&i, line)| views::line_item(site, i, line))
                                .collect();
                            c.insert("papers", &list);
                        }
                        None => {
                            let list: Vec<_> = papers
                                .iter()
                                .map(|&i| views::paper_line(site, i, &ctx.urls))
                                .collect();
                            c.insert("papers", &list);
                        }
                    }
                    c.insert(
                        "author",
                        &views::AuthorView {
                            name: author.name.clone(),
                            url: ctx.urls.path(&front),
                            paper_count: author.papers.len(),
                        },
                    );
                    c.insert("paginator", &paginator);
                    Ok(())
                })
                .with_context(|| named_by("author", &author.name, site, &author.papers))?;
            }
            if let Some(lines) = &lines {
                lines.release(&author.papers);
            }
            Ok::<_, anyhow::Error>(())
        },
    )?;
    #[cfg(debug_assertions)]
    if let Some(lines) = &lines {
        debug_assert_eq!(lines.held(), 0, "lines held after every author page");
    }
    drop(lines);
    if let (Some(writer), Some(path)) = (writer, kept) {
        writer.finish(kept_lines.as_ref(), &keys, path);
    }
    Ok(())
}

/// Papers on an author's front page, the newest; older ones are on full pages of as many,
/// counted from the oldest.
const AUTHOR_PAGE: usize = 50;

fn author_split(len: usize) -> Split {
    Split {
        len,
        per_page: AUTHOR_PAGE,
        front: pager::Front::NewestPapers,
    }
}

/// Each week's papers as vectors for the reader's browser (`render::foryou`), made again
/// only for weeks whose papers changed; and the list of weeks the "For you" page ranks.
fn write_foryou(ctx: &Ctx, out: &Output, terms_cache: Option<&Path>) -> Result<()> {
    let site = ctx.site;
    let weeks = render::foryou::Weeks::new(site, terms_cache);
    (0..site.digests.len()).into_par_iter().try_for_each(|di| {
        let d = &site.digests[di];
        let mut h = ctx.fingerprints.page("foryou");
        h.str(&d.week.to_string());
        ctx.fingerprints.papers(&mut h, &d.papers);
        ctx.fingerprints.papers(&mut h, &d.updated);
        // The older weeks its idf is counted over.
        for older in render::foryou::idf_weeks(site, di).skip(1) {
            let o = &site.digests[older];
            for &i in o.papers.iter().chain(&o.updated) {
                h.num(site.papers[i].corpus_hash);
            }
        }
        out.page(&format!("foryou/{}.json", d.week), h.finish(), || {
            weeks.week_file(di, &ctx.urls)
        })
    })?;
    out.write(
        "foryou/weeks.json",
        render::foryou::recent_weeks(site, ctx.config.foryou_weeks).as_bytes(),
    )
}

fn render_lists(ctx: &Ctx, out: &Output) -> Result<()> {
    let weeks = views::week_summaries(ctx.site, &ctx.urls, 0);
    let mut c = ctx.context();
    c.insert("weeks", &weeks);
    let categories: Vec<_> = ctx
        .site
        .categories
        .iter()
        .map(|cat| views::category_summary(cat, &ctx.urls))
        .collect();
    c.insert("categories", &categories);
    always(ctx, out, "archive.html", "archive/index.html", &c)?;
    always(ctx, out, "search.html", "search/index.html", &ctx.context())?;
    // The reader's saved papers and their ranking: pages of a theme that has them.
    for (template, rel) in [
        ("saved.html", "saved/index.html"),
        ("foryou.html", "foryou/index.html"),
    ] {
        if ctx.tera.get_template_names().any(|n| n == template) {
            always(ctx, out, template, rel, &ctx.context())?;
        }
    }
    always(ctx, out, "404.html", "404.html", &ctx.context())
}

/// The few pages that show something of every week or category are rendered every time.
fn always(ctx: &Ctx, out: &Output, template: &str, rel: &str, c: &tera::Context) -> Result<()> {
    let html = render::render(&ctx.tera, template, c)?;
    out.write(rel, html.as_bytes())
}

fn newest(site: &Site, ids: impl Iterator<Item = usize>, limit: usize) -> Vec<usize> {
    let mut list: Vec<usize> = ids.collect();
    list.sort_by(|&a, &b| {
        let (a, b) = (&site.papers[a].front, &site.papers[b].front);
        b.published.cmp(&a.published).then_with(|| a.id.cmp(&b.id))
    });
    list.truncate(limit);
    list
}

fn render_feeds(ctx: &Ctx, out: &Output) -> Result<()> {
    let (feeds, sitemaps) = rayon::join(|| write_feeds(ctx, out), || write_sitemaps(ctx, out));
    feeds?;
    sitemaps
}

/// The site's Atom feed and one per category.
fn write_feeds(ctx: &Ctx, out: &Output) -> Result<()> {
    let site = ctx.site;
    let limit = ctx.config.feed_limit;
    let all = newest(site, 0..site.papers.len(), limit);
    let meta = feeds::FeedMeta {
        title: &ctx.config.title,
        subtitle: &ctx.config.description,
        self_rel: "atom.xml",
        alternate_rel: "",
    };
    out.write(
        "atom.xml",
        feeds::atom(&meta, site, &all, &ctx.urls)?.as_bytes(),
    )?;
    site.categories.par_iter().try_for_each(|cat| {
        let papers = newest(site, cat.papers.iter().copied(), limit);
        let title = format!("{}: {}", ctx.config.title, cat.name);
        let self_rel = format!("categories/{}/atom.xml", cat.slug);
        let alternate_rel = pager::front_rel(&cat.slug);
        let meta = feeds::FeedMeta {
            title: &title,
            subtitle: "",
            self_rel: &self_rel,
            alternate_rel: &alternate_rel,
        };
        out.write(
            &self_rel,
            feeds::atom(&meta, site, &papers, &ctx.urls)?.as_bytes(),
        )
    })
}

fn write_sitemaps(ctx: &Ctx, out: &Output) -> Result<()> {
    let site = ctx.site;
    let mut rels: Vec<String> = vec![String::new(), "archive/".into(), "search/".into()];
    rels.extend(site.digests.iter().map(views::digest_rel));
    for cat in &site.categories {
        let split = Split {
            len: cat.papers.len(),
            per_page: ctx.config.paginate_by,
            front: pager::Front::TwoNewestPages,
        };
        rels.extend(split.pages().map(|page| pager::rel(&cat.slug, page)));
    }
    rels.extend(site.papers.iter().map(views::paper_rel));
    for author in &site.authors {
        let front = views::author_rel(&author.slug);
        let split = author_split(author.papers.len());
        rels.extend(split.pages().map(|page| pager::page_rel(&front, page)));
    }
    for (name, text) in feeds::sitemaps(&rels, &ctx.urls, feeds::SITEMAP_MAX_URLS) {
        out.write(&name, text.as_bytes())?;
    }
    out.write("robots.txt", feeds::robots(&ctx.urls).as_bytes())
}
