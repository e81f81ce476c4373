//! Author pages: the newest papers first, older ones on pages counted from the oldest;
//! and the lists of lines they share with category pages.

use super::*;

/// Category and author pages, which list a paper as its line. With `kept` (incremental
/// builds), paper lines are taken from, and kept in, that file.
pub(super) fn render_line_lists(ctx: &Ctx, out: &Output, kept: Option<&Path>) -> Result<()> {
    let site = ctx.site;
    let category_pages = category_pages(site, ctx.config.paginate_by);
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
    let kept_lines = kept.map(|path| kept_lines::KeptLines::open(path, &keys));
    let writer = kept
        .zip(kept_lines.as_ref())
        .and_then(|(path, lines)| lines.writer(path, &keys));
    // A paper is on the page of each of its authors and of each of its categories: its
    // line is rendered once.
    let lines = in_theme.then(|| {
        let uses = site
            .authors
            .iter()
            .flat_map(|a| a.papers.iter().copied())
            .chain(category_pages.iter().flat_map(|p| p.papers.iter().copied()));
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
    render_category_pages(ctx, out, lines.as_ref(), &category_pages)?;
    render_author_pages(ctx, out, lines.as_ref())?;
    #[cfg(debug_assertions)]
    if let Some(lines) = &lines {
        debug_assert_eq!(lines.held(), 0, "lines held after every list page");
    }
    drop(lines);
    if let Some(writer) = writer {
        writer.finish();
    }
    Ok(())
}

/// Every author's pages, each paper as its line from `lines` (or as a plain line view for
/// a theme without `line.html`).
fn render_author_pages(ctx: &Ctx, out: &Output, lines: Option<&Snippets>) -> Result<()> {
    let site = ctx.site;
    site.authors
        .par_iter()
        .with_max_len(GRAIN)
        .try_for_each_init(
            || ctx.context(),
            |context, author| {
                let front = views::author_rel(&author.slug);
                let split = author_split(author.papers.len());
                for page in split.pages() {
                    let papers = &author.papers[split.range(page)];
                    let paginator = pager::paginator(&front, split, page, &ctx.urls);
                    let h = ctx.fingerprints.list_page(
                        "author",
                        &author.name,
                        &author.slug,
                        &paginator,
                        page,
                        author.papers.len(),
                        papers,
                    );
                    let rel = pager::page_rel(&front, page);
                    ctx.page(out, context, "author.html", &rel, h.finish(), |c| {
                        let list = listed_lines(site, &ctx.urls, lines, papers, c.context)?;
                        c.insert("papers", &list);
                        c.insert("author", &views::author_view(author, &ctx.urls));
                        c.insert("paginator", &paginator);
                        Ok(())
                    })
                    .with_context(|| named_by("author", &author.name, site, &author.papers))?;
                }
                if let Some(lines) = lines {
                    lines.release(&author.papers);
                }
                Ok::<_, anyhow::Error>(())
            },
        )
}

/// Papers on an author's front page, the newest; older ones are on full pages of as many,
/// counted from the oldest.
pub(super) const AUTHOR_PAGE: usize = 50;

pub(super) fn author_split(len: usize) -> Split {
    Split {
        len,
        per_page: AUTHOR_PAGE,
        front: pager::Front::NewestPapers,
    }
}
