//! `paperboy build`: content -> public/, as a flat list of timed steps.

use crate::config::Config;
use crate::output::Output;
use crate::render::views::{self, SiteView, Urls};
use crate::render::{self, feeds};
use crate::site::{self, Site};
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

/// Related papers listed on each paper's page.
const RELATED_PER_PAPER: usize = 5;

pub struct BuildReport {
    pub pages: usize,
    pub files: usize,
    pub bytes: usize,
    pub papers: usize,
    pub weeks: usize,
    pub categories: usize,
    pub steps: Vec<(&'static str, Duration)>,
    pub total: Duration,
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
        )
    }
}

struct Steps {
    list: Vec<(&'static str, Duration)>,
    last: Instant,
}

impl Steps {
    fn done(&mut self, name: &'static str) {
        let now = Instant::now();
        self.list.push((name, now - self.last));
        self.last = now;
    }
}

/// Everything the page renderers share.
struct Ctx<'a> {
    site: &'a Site,
    tera: tera::Tera,
    urls: Urls,
    /// `site`, serialized once for every page.
    base: tera::Context,
    config: &'a Config,
}

impl Ctx<'_> {
    fn context(&self) -> tera::Context {
        self.base.clone()
    }

    fn page(&self, out: &Output, template: &str, rel_dir: &str, ctx: &tera::Context) -> Result<()> {
        let html = render::render(&self.tera, template, ctx)?;
        out.write(&format!("{rel_dir}index.html"), html.as_bytes())
    }
}

pub fn run(root: &Path, config: &Config, output: &Path, progress: bool) -> Result<BuildReport> {
    let started = Instant::now();
    let mut steps = Steps {
        list: Vec::new(),
        last: started,
    };
    let mut site = site::load(&root.join("content"))?;
    steps.done("load content");
    site.compute_related(RELATED_PER_PAPER);
    steps.done("related papers");
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
    let mut base = tera::Context::new();
    base.insert("site", &site_view);
    let ctx = Ctx {
        site: &site,
        tera,
        urls,
        base,
        config,
    };
    let out = Output::new(output)?;
    let bar = crate::progress::Progress::new(progress && site.papers.len() > 2000);

    let paper_bar = bar.bar(site.papers.len() as u64, "papers");
    (0..site.papers.len()).into_par_iter().try_for_each(|i| {
        let mut c = ctx.context();
        c.insert("paper", &views::paper_view(&site, i, &ctx.urls));
        c.insert(
            "page",
            &views::paper_page_extras(&site, i, &ctx.urls, &config.title),
        );
        ctx.page(&out, "paper.html", &views::paper_rel(&site.papers[i]), &c)
            .with_context(|| format!("rendering {}", site.papers[i].source_path.display()))?;
        if let Some(b) = &paper_bar {
            b.inc(1);
        }
        Ok::<_, anyhow::Error>(())
    })?;
    steps.done("render papers");

    (0..site.digests.len()).into_par_iter().try_for_each(|di| {
        let mut c = ctx.context();
        c.insert("digest", &views::digest_view(&site, di, &ctx.urls));
        ctx.page(
            &out,
            "digest.html",
            &views::digest_rel(&site.digests[di]),
            &c,
        )
    })?;
    steps.done("render digests");

    render_categories(&ctx, &out)?;
    steps.done("render categories");

    render_authors(&ctx, &out)?;
    steps.done("render authors");

    render_lists(&ctx, &out)?;
    steps.done("render home, archive, search, 404");

    crate::render::search::build_index(&site, &ctx.urls)
        .par_iter()
        .try_for_each(|(rel, json)| out.write(rel, json.as_bytes()))?;
    steps.done("search index");

    render_feeds(&ctx, &out)?;
    steps.done("feeds, sitemap, robots");

    out.copy_dir(&root.join("themes").join(&config.theme).join("static"))?;
    out.copy_dir(&root.join("static"))?;
    steps.done("static files");

    bar.finish();
    let (pages, files, bytes) = (out.html_pages(), out.files(), out.bytes());
    out.commit()?;
    steps.done("swap in");
    Ok(BuildReport {
        pages,
        files,
        bytes,
        papers: site.papers.len(),
        weeks: site.digests.len(),
        categories: site.categories.len(),
        steps: steps.list,
        total: started.elapsed(),
    })
}

fn render_categories(ctx: &Ctx, out: &Output) -> Result<()> {
    let per_page = ctx.config.paginate_by;
    ctx.site.categories.par_iter().try_for_each(|cat| {
        let total = cat.papers.len().div_ceil(per_page).max(1);
        let summary = views::category_summary(cat, &ctx.urls);
        for (n, chunk) in cat.papers.chunks(per_page).enumerate() {
            let page = n + 1;
            let papers: Vec<_> = chunk
                .iter()
                .map(|&i| views::paper_view(ctx.site, i, &ctx.urls))
                .collect();
            let mut c = ctx.context();
            c.insert("category", &summary);
            c.insert("papers", &papers);
            c.insert(
                "paginator",
                &views::paginator(&cat.slug, page, total, &ctx.urls),
            );
            ctx.page(
                out,
                "category.html",
                &views::category_rel(&cat.slug, page),
                &c,
            )?;
        }
        Ok(())
    })
}

fn render_authors(ctx: &Ctx, out: &Output) -> Result<()> {
    ctx.site.authors.par_iter().try_for_each(|author| {
        let papers: Vec<_> = author
            .papers
            .iter()
            .map(|&i| views::paper_line(ctx.site, i, &ctx.urls))
            .collect();
        let mut c = ctx.context();
        c.insert(
            "author",
            &views::AuthorView {
                name: author.name.clone(),
                url: ctx.urls.path(&views::author_rel(&author.slug)),
                paper_count: author.papers.len(),
            },
        );
        c.insert("papers", &papers);
        ctx.page(out, "author.html", &views::author_rel(&author.slug), &c)
    })
}

fn render_lists(ctx: &Ctx, out: &Output) -> Result<()> {
    let weeks = views::week_summaries(ctx.site, &ctx.urls);
    let mut c = ctx.context();
    c.insert("weeks", &weeks);
    let categories: Vec<_> = ctx
        .site
        .categories
        .iter()
        .map(|cat| views::category_summary(cat, &ctx.urls))
        .collect();
    c.insert("categories", &categories);
    ctx.page(out, "archive.html", "archive/", &c)?;

    let mut c = ctx.context();
    let latest = (!ctx.site.digests.is_empty()).then(|| views::digest_view(ctx.site, 0, &ctx.urls));
    c.insert("latest", &latest);
    c.insert(
        "recent_weeks",
        &weeks[..weeks.len().min(ctx.config.recent_weeks)],
    );
    ctx.page(out, "index.html", "", &c)?;

    ctx.page(out, "search.html", "search/", &ctx.context())?;

    let c = ctx.context();
    let html = render::render(&ctx.tera, "404.html", &c)?;
    out.write("404.html", html.as_bytes())
}

fn newest(site: &Site, ids: impl Iterator<Item = usize>, limit: usize) -> Vec<&site::PaperEntry> {
    let mut list: Vec<&site::PaperEntry> = ids.map(|i| &site.papers[i]).collect();
    list.sort_by(|a, b| {
        b.front
            .published
            .cmp(&a.front.published)
            .then_with(|| a.front.id.cmp(&b.front.id))
    });
    list.truncate(limit);
    list
}

fn render_feeds(ctx: &Ctx, out: &Output) -> Result<()> {
    let site = ctx.site;
    let limit = ctx.config.feed_limit;
    let all = newest(site, 0..site.papers.len(), limit);
    let meta = feeds::FeedMeta {
        title: &ctx.config.title,
        subtitle: &ctx.config.description,
        self_rel: "atom.xml",
        alternate_rel: "",
    };
    out.write("atom.xml", feeds::atom(&meta, &all, &ctx.urls).as_bytes())?;
    for cat in &site.categories {
        let papers = newest(site, cat.papers.iter().copied(), limit);
        let title = format!("{}: {}", ctx.config.title, cat.name);
        let self_rel = format!("categories/{}/atom.xml", cat.slug);
        let alternate_rel = views::category_rel(&cat.slug, 1);
        let meta = feeds::FeedMeta {
            title: &title,
            subtitle: "",
            self_rel: &self_rel,
            alternate_rel: &alternate_rel,
        };
        out.write(&self_rel, feeds::atom(&meta, &papers, &ctx.urls).as_bytes())?;
    }
    let mut rels: Vec<String> = vec![String::new(), "archive/".into(), "search/".into()];
    rels.extend(site.digests.iter().map(views::digest_rel));
    for cat in &site.categories {
        let pages = cat.papers.len().div_ceil(ctx.config.paginate_by).max(1);
        rels.extend((1..=pages).map(|n| views::category_rel(&cat.slug, n)));
    }
    rels.extend(site.papers.iter().map(views::paper_rel));
    rels.extend(site.authors.iter().map(|a| views::author_rel(&a.slug)));
    for (name, text) in feeds::sitemaps(&rels, &ctx.urls, feeds::SITEMAP_MAX_URLS) {
        out.write(&name, text.as_bytes())?;
    }
    out.write("robots.txt", feeds::robots(&ctx.urls).as_bytes())
}
