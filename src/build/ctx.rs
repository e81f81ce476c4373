//! What every renderer shares (templates, URLs, the site's context) and the fingerprints that tell an incremental build which pages changed.

use super::*;

/// Everything the page renderers share.
pub(super) struct Ctx<'a> {
    /// The site's folder.
    pub(super) root: &'a Path,
    pub(super) site: &'a Site,
    pub(super) tera: tera::Tera,
    pub(super) urls: Urls,
    /// `site`, serialized once for every page.
    pub(super) base: tera::Context,
    pub(super) config: &'a Config,
    pub(super) fingerprints: Fingerprints,
}

impl Ctx<'_> {
    pub(super) fn context(&self) -> tera::Context {
        self.base.clone()
    }

    /// Renders `template` into `<rel_dir>index.html` with the variables `fill` adds to
    /// `context` (a worker's copy of `base`, which gets them taken out again), unless the
    /// previous build made that page from the same inputs (`fingerprint`).
    pub(super) fn page(
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
pub(super) struct PageVars<'c> {
    pub(super) context: &'c mut tera::Context,
    pub(super) added: Vec<&'static str>,
}

impl PageVars<'_> {
    pub(super) fn insert<T: serde::Serialize + ?Sized>(&mut self, key: &'static str, value: &T) {
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

/// What each page is made from, hashed: the site-wide inputs, and per paper its file, the
/// week that announced it and the last that listed a new version (everything a paper view
/// shows). A page's fingerprint
/// combines these for the papers it shows; `Output::page` compares it with the last build.
pub(super) struct Fingerprints {
    pub(super) site: Fingerprint,
    pub(super) paper_view: Vec<Fingerprint>,
    /// Per digest, what a link to it shows (`week_link_key`): for papers' views and the
    /// digests' links to their neighbours.
    pub(super) week_link: Vec<Fingerprint>,
}

impl Fingerprints {
    pub(super) fn new(site_inputs: Fingerprint, site: &Site) -> Fingerprints {
        let week_link: Vec<Fingerprint> = site.digests.iter().map(week_link_key).collect();
        let paper_view = (0..site.papers.len())
            .into_par_iter()
            .map(|i| {
                // None as 0.
                let week = |d: Option<usize>| d.map_or(0, |d| week_link[d]);
                Hasher::new()
                    .num(site.papers[i].content_hash)
                    .num(week(site.week_of[i]))
                    .num(week(site.new_version_in[i]))
                    .finish()
            })
            .collect();
        Fingerprints {
            site: site_inputs,
            paper_view,
            week_link,
        }
    }

    pub(super) fn page(&self, kind: &str) -> Hasher {
        let mut h = Hasher::new();
        h.num(self.site).str(kind);
        h
    }

    /// A page of a paged list (a category's, an author's): whose list, where the page sits
    /// among its pages, the list's length on the front page (the only one showing it),
    /// and the page's papers.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn list_page(
        &self,
        kind: &str,
        name: &str,
        slug: &str,
        paginator: &pager::Paginator,
        page: ListPage,
        total: usize,
        papers: &[usize],
    ) -> Hasher {
        let mut h = self.page(kind);
        h.str(name).str(slug).value(paginator);
        if page == ListPage::Front {
            h.num(total as u128);
        }
        self.papers(&mut h, papers);
        h
    }

    pub(super) fn papers(&self, h: &mut Hasher, papers: &[usize]) {
        h.num(papers.len() as u128);
        for &i in papers {
            h.num(self.paper_view[i]);
        }
    }
}

/// What a link to a week shows: its ISO name (in the URL) and its title.
fn week_link_key(d: &crate::site::DigestEntry) -> Fingerprint {
    Hasher::new()
        .str(&d.week.to_string())
        .str(&views::week_title(d))
        .finish()
}

/// What related papers and the search index are computed from: each paper's id, title,
/// abstract, authors, categories and date, in order.
pub(super) fn corpus_fingerprint(site: &Site) -> Fingerprint {
    let mut h = Hasher::new();
    for p in &site.papers {
        h.num(p.corpus_hash);
    }
    h.finish()
}

/// Everything every page depends on: the binary, the config, the templates and what
/// `site` holds. Any change makes a full build.
pub(super) fn site_inputs(
    root: &Path,
    config: &Config,
    site_view: &SiteView,
) -> Result<Fingerprint> {
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
