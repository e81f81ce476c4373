//! `paperboy review`: a machine review of each paper (headline, one-line summary, badges,
//! figure) written to the `[machine]` table of its front matter. People's `[review]`, any
//! `extra` and the body are never touched; `[review]` wins over `[machine]` key by key
//! when pages are rendered.
//!
//! A paper is reviewed when it has no `[machine]` table, when its version changed since,
//! when its HTML rendition was missing `[review] retry_days` ago, when the figure
//! policy now decides otherwise about its figure, or when the figure it names is not in
//! content/figures/ (a site that keeps figures out of git restores them first, so this
//! is one lost from everywhere). Each paper's review is its own: one that
//! fails is reported and the others still land.

pub mod badges;
pub mod figure;
pub mod html;
pub mod rendition;
pub mod summarize;
mod summary;

pub use summary::ReviewSummary;

use crate::config::{Config, FigurePolicy, SummarizerKind};
use crate::paper::PaperId;
use crate::store::atomic::write_atomic;
use crate::store::frontmatter::{self, Machine, PaperFront};
use anyhow::{Context, Result, anyhow, bail};
use chrono::{DateTime, NaiveDate, Utc};
use rayon::prelude::*;
use rendition::{Asked, Renditions};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use summarize::{Summarizer, Summary};

#[derive(Debug, Clone, Default)]
pub struct ReviewOptions {
    /// At most this many papers.
    pub max: Option<usize>,
    /// Only papers updated or announced on or after this date.
    pub since: Option<NaiveDate>,
    /// Only these papers.
    pub ids: Vec<String>,
    pub dry_run: bool,
    /// Saved HTML renditions instead of the network.
    pub from: Option<PathBuf>,
    /// Review again papers that are up to date.
    pub force: bool,
    pub now: DateTime<Utc>,
    pub progress: bool,
    /// Told of every retry, as a line to show (none: `-q`).
    pub note: Option<fn(&str)>,
}

/// A paper file as it is on disk.
struct Stored {
    path: PathBuf,
    text: String,
    front: PaperFront,
}

/// What the HTML rendition gave a paper, before its summary.
#[derive(Default)]
struct Prepared {
    html: &'static str,
    checked: Option<NaiveDate>,
    license: Option<String>,
    theorems: usize,
    figure: Option<(figure::Thumbnail, String, String)>,
    /// The image a policy keeps out: its source, and the caption.
    withheld: Option<(String, String)>,
    warnings: Vec<String>,
}

/// Papers prepared and summarized together: their pages are read (on all cores from a
/// folder, one at a time over HTTP), then summarized, then written, so a long run that is
/// stopped keeps what it finished.
const BATCH: usize = 64;

/// Where a paper's thumbnail goes, relative to `content/`.
pub fn figure_rel(id: &PaperId) -> String {
    let md = id.content_path();
    format!("figures/{}.webp", md.trim_end_matches(".md"))
}

pub fn run(root: &Path, config: &Config, opts: &ReviewOptions) -> Result<ReviewSummary> {
    let content = root.join("content");
    let review = &config.review;
    let stored = load(root, &content)?;
    let mut summary = ReviewSummary {
        papers: stored.len(),
        ..Default::default()
    };
    let today = opts.now.date_naive();
    let mut due: Vec<usize> = (0..stored.len())
        .filter(|&i| {
            opts.force
                || is_due(&stored[i].front, config, today)
                || figure_missing(&content, &stored[i].front)
        })
        .collect();
    if !opts.ids.is_empty() {
        let wanted: Vec<PaperId> = opts
            .ids
            .iter()
            .map(|id| PaperId::parse_versioned(id).map(|(id, _)| id))
            .collect::<Result<_>>()?;
        for id in &wanted {
            if !stored.iter().any(|s| &s.front.id == id) {
                bail!("--id {id}: no such paper under content/papers/");
            }
        }
        due.retain(|&i| wanted.contains(&stored[i].front.id));
    }
    if let Some(since) = opts.since {
        due.retain(|&i| {
            let f = &stored[i].front;
            f.updated.max(f.announced.unwrap_or(f.updated)).date_naive() >= since
        });
    }
    if let Some(max) = opts.max {
        due.truncate(max);
    }
    let rules = {
        let mut list = if review.default_badges {
            badges::default_rules()
        } else {
            Vec::new()
        };
        list.extend(review.badge.iter().cloned());
        badges::Rules::new(&list, review.theorem_badges)?
    };
    let summarizer: Box<dyn Summarizer> = match review.summarizer {
        SummarizerKind::Extractive => Box::new(summarize::extractive::Extractive),
        SummarizerKind::Openai => {
            let openai = review
                .openai
                .as_ref()
                .ok_or_else(|| anyhow!("[review] summarizer = \"openai\" needs [review.openai]"))?;
            let templates = crate::render::load_templates(root, &config.theme)?;
            // A dry run reads the answers kept, and keeps none.
            Box::new(summarize::openai::OpenAi::new(
                openai,
                templates,
                &config.fetch.user_agent,
                Some(root.join(".cache/review")),
                !opts.dry_run,
            )?)
        }
    };
    let threads = match review.summarizer {
        SummarizerKind::Extractive => None,
        SummarizerKind::Openai => review.openai.as_ref().map(|o| o.concurrency.max(1)),
    };
    let renditions = match &opts.from {
        Some(dir) => {
            if !dir.is_dir() {
                bail!("--from {}: no such folder", dir.display());
            }
            Renditions::Saved { dir: dir.clone() }
        }
        None => Renditions::Web {
            http: Box::new(std::sync::Mutex::new({
                let http = crate::sources::http::HttpClient::new(&config.fetch, None)?;
                match opts.note {
                    Some(note) => http.on_retry(note),
                    None => http,
                }
            })),
            template: review.html_url.clone(),
        },
    };
    let shape = figure::Shape {
        width: review.figure_width,
        max_pixels: review.max_image_pixels,
        ..Default::default()
    };
    let progress = crate::progress::Progress::new(opts.progress);
    let bar = progress.bar(due.len() as u64, "review");
    // Figures referenced once this run is done: for the sweep of orphans.
    let mut figures_now: Vec<String> = stored
        .iter()
        .map(|s| {
            s.front
                .machine
                .as_ref()
                .map(|m| m.figure.clone())
                .unwrap_or_default()
        })
        .collect();
    for batch in due.chunks(BATCH) {
        let prepare_one = |&i: &usize| {
            let s = &stored[i];
            prepare(
                s,
                &renditions,
                &review.figures,
                review.non_commercial,
                shape,
                today,
            )
            .with_context(|| format!("{}", s.path.display()))
        };
        let prepared: Vec<Result<Prepared>> = if renditions.parallel() {
            batch.par_iter().map(prepare_one).collect()
        } else {
            batch.iter().map(prepare_one).collect()
        };
        let summaries = summarize_all(summarizer.as_ref(), threads, batch, &stored);
        for ((&i, prepared), summarized) in batch.iter().zip(prepared).zip(summaries) {
            let s = &stored[i];
            let done = prepared.and_then(|p| {
                let sum = summarized.with_context(|| s.path.display().to_string())?;
                finish(s, p, sum, &rules, &content, opts.dry_run, &mut summary)
            });
            match done {
                Ok(figure) => figures_now[i] = figure,
                Err(e) => summary.failed.push(format!("{e:#}")),
            }
            if let Some(b) = &bar {
                b.inc(1);
            }
        }
    }
    progress.finish();
    summary.figures_removed += sweep_figures(root, &content, &figures_now, opts.dry_run)?;
    Ok(summary)
}

fn load(root: &Path, content: &Path) -> Result<Vec<Stored>> {
    let files: Vec<PathBuf> = crate::walk::files_below(&content.join("papers"), root)?
        .into_iter()
        .filter(|(rel, _)| {
            let name = rel.rsplit('/').next().unwrap_or(rel);
            name.ends_with(".md") && !name.starts_with('.')
        })
        .map(|(_, p)| p)
        .collect();
    files
        .par_iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let split = frontmatter::split(&text, path)?;
            let front: PaperFront = frontmatter::parse(&split, path)?;
            Ok(Stored {
                path: path.clone(),
                text,
                front,
            })
        })
        .collect()
}

/// Whether the figure a paper's `[machine]` table names is missing from `content`.
fn figure_missing(content: &Path, f: &PaperFront) -> bool {
    f.machine
        .as_ref()
        .is_some_and(|m| !m.figure.is_empty() && !content.join(&m.figure).is_file())
}

/// Whether a paper needs a review (see the module's doc).
fn is_due(f: &PaperFront, config: &Config, today: NaiveDate) -> bool {
    let Some(m) = &f.machine else {
        return true;
    };
    if m.reviewed_version != f.version {
        return true;
    }
    if f.id.is_arxiv() {
        match m.html.as_str() {
            "" => return true,
            "none" => {
                let retry = chrono::Duration::days(i64::from(config.review.retry_days));
                if m.checked.is_none_or(|c| c + retry <= today) {
                    return true;
                }
            }
            _ => {}
        }
    }
    let allowed = config
        .review
        .figures
        .allows(&f.license, config.review.non_commercial);
    (!m.figure.is_empty() && !allowed)
        || (m.figure.is_empty() && !m.figure_source.is_empty() && allowed)
}

/// The paper's rendition, licence and figure.
fn prepare(
    s: &Stored,
    renditions: &Renditions,
    policy: &FigurePolicy,
    non_commercial: bool,
    shape: figure::Shape,
    today: NaiveDate,
) -> Result<Prepared> {
    let f = &s.front;
    let mut out = Prepared::default();
    if !f.id.is_arxiv() {
        return Ok(out);
    }
    let rendition = match renditions.page(&f.id, f.version)? {
        Asked::Page(r) => r,
        Asked::NotSaved => return Ok(out),
        Asked::Missing(why) => {
            out.html = "none";
            out.checked = Some(today);
            out.warnings.push(format!("{}: {why}", f.id));
            return Ok(out);
        }
    };
    out.html = "ok";
    out.checked = Some(today);
    out.theorems = rendition.page.theorems;
    if f.license.is_empty() {
        out.license =
            crate::license::canonical(rendition.page.license.trim_start_matches("License:").trim());
    }
    let license = out.license.as_deref().unwrap_or(&f.license);
    let allowed = policy.allows(license, non_commercial);
    let mut tried = Vec::new();
    for (fig, image) in figure::candidates(&rendition.page)
        .into_iter()
        .take(figure::MAX_TRIED)
    {
        if !allowed {
            out.withheld = Some((image.src.clone(), fig.caption.clone()));
            break;
        }
        let made = renditions
            .image(&rendition, &image.src)
            .and_then(|(bytes, source)| Ok((figure::thumbnail(&bytes, shape)?, source)));
        match made {
            Ok((thumb, source)) => {
                out.figure = Some((thumb, source, fig.caption.clone()));
                break;
            }
            Err(e) => tried.push(format!("figure {}: {e:#}", fig.id)),
        }
    }
    if out.figure.is_none() && !tried.is_empty() {
        let more = match tried.len() {
            1 => String::new(),
            n => format!(" (and {} more figures tried)", n - 1),
        };
        out.warnings
            .push(format!("{}: no figure: {}{more}", f.id, tried[0]));
    }
    Ok(out)
}

/// Summaries of a batch's papers: on all cores for the extractive summarizer, on
/// `threads` threads for one that waits on the network.
fn summarize_all(
    summarizer: &dyn Summarizer,
    threads: Option<usize>,
    batch: &[usize],
    stored: &[Stored],
) -> Vec<Result<Summary>> {
    let one = |i: usize| {
        let f = &stored[i].front;
        summarizer.summarize(&summarize::Input {
            id: f.id.as_str(),
            version: f.version,
            title: &f.title,
            abstract_text: &f.abstract_text,
            comment: &f.comment,
            categories: &f.categories,
        })
    };
    let Some(threads) = threads else {
        return batch.par_iter().map(|&i| one(i)).collect();
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Result<Summary>>>> =
        batch.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(batch.len()) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&i) = batch.get(k) else { break };
                    *results[k].lock().expect("no thread panics holding it") = Some(one(i));
                }
            });
        }
    });
    results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .expect("no thread panics holding it")
                .unwrap_or_else(|| Err(anyhow!("not summarized")))
        })
        .collect()
}

/// Writes a paper's review: its figure, then its file. Returns the figure it now shows.
fn finish(
    s: &Stored,
    p: Prepared,
    sum: Summary,
    rules: &badges::Rules,
    content: &Path,
    dry_run: bool,
    summary: &mut ReviewSummary,
) -> Result<String> {
    let f = &s.front;
    let (badges, code) = rules.apply(
        &badges::Fields {
            title: &f.title,
            abstract_text: &f.abstract_text,
            comment: &f.comment,
            journal_ref: &f.journal_ref,
        },
        p.theorems,
    );
    let mut machine = Machine {
        headline: sum.headline,
        summary: sum.summary,
        badges,
        code,
        by: sum.by,
        reviewed_version: f.version,
        html: p.html.to_string(),
        checked: p.checked,
        ..Default::default()
    };
    if let Some(why) = sum.fell_back {
        summary
            .warnings
            .push(format!("{}: used the extractive summary: {why}", f.id));
    }
    if let Some(answer) = sum.refused {
        summary.refused += 1;
        summary.changes.push(format!("refused {}: {answer}", f.id));
    }
    summary.warnings.extend(p.warnings);
    let old_figure = f
        .machine
        .as_ref()
        .map(|m| m.figure.clone())
        .unwrap_or_default();
    if let Some((thumb, source, caption)) = &p.figure {
        let rel = figure_rel(&f.id);
        let path = content.join(&rel);
        if !dry_run && std::fs::read(&path).ok().as_deref() != Some(&thumb.bytes[..]) {
            write_atomic(&path, &thumb.bytes)?;
        }
        machine.figure = rel;
        machine.figure_width = thumb.width;
        machine.figure_height = thumb.height;
        machine.figure_source = source.clone();
        machine.figure_caption = caption.chars().take(400).collect();
        summary.figures += 1;
    } else if let Some((source, caption)) = &p.withheld {
        machine.figure_source = source.clone();
        machine.figure_caption = caption.chars().take(400).collect();
        summary.withheld += 1;
    }
    if p.html == "none" {
        summary.no_html += 1;
    }
    if p.license.is_some() {
        summary.licenses_found += 1;
    }
    summary.reviewed += 1;
    summary.headlines += usize::from(!machine.headline.is_empty());
    summary.no_headline +=
        usize::from(machine.headline.is_empty() && !f.abstract_text.trim().is_empty());
    summary.summaries += usize::from(!machine.summary.is_empty());
    summary.with_badges += usize::from(!machine.badges.is_empty());
    let text =
        crate::store::papers::render_machine(&s.text, &machine, p.license.as_deref(), &s.path)?;
    if text != s.text {
        summary.written += 1;
        summary.changes.push(format!(
            "review {}: {}{}",
            f.id,
            machine.headline,
            if machine.figure.is_empty() {
                String::new()
            } else {
                format!(
                    " [figure {}x{}]",
                    machine.figure_width, machine.figure_height
                )
            }
        ));
        if !dry_run {
            write_atomic(&s.path, text.as_bytes())?;
        }
    }
    if !old_figure.is_empty() && old_figure != machine.figure && !dry_run {
        match std::fs::remove_file(content.join(&old_figure)) {
            Ok(()) => summary.figures_removed += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("cannot remove {old_figure}")),
        }
    }
    Ok(machine.figure)
}

/// Removes figure files no paper shows: left by a paper that went, or by a run that was
/// stopped between writing a figure and its paper.
fn sweep_figures(root: &Path, content: &Path, shown: &[String], dry_run: bool) -> Result<usize> {
    let shown: BTreeSet<&str> = shown.iter().map(String::as_str).collect();
    let mut removed = 0;
    for (rel, path) in crate::walk::files_below(&content.join("figures"), root)? {
        let rel = format!("figures/{rel}");
        if !shown.contains(rel.as_str()) {
            if !dry_run {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot remove {}", path.display()))?;
            }
            removed += 1;
        }
    }
    Ok(removed)
}
