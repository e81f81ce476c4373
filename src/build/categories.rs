//! Category pages: a line a paper (`line.html`, the line author pages show), newest first,
//! older ones on numbered pages counted from the oldest.

use super::*;

/// A page of a category's list.
pub(super) struct CategoryPage<'s> {
    pub(super) category: &'s Category,
    pub(super) split: Split,
    pub(super) page: ListPage,
    pub(super) papers: &'s [usize],
}

/// Every category's pages: the front page (its two newest pages' papers) and the numbered
/// ones.
pub(super) fn category_pages(site: &Site, per_page: usize) -> Vec<CategoryPage<'_>> {
    site.categories
        .iter()
        .flat_map(|category| {
            let split = Split {
                len: category.papers.len(),
                per_page,
                front: pager::Front::TwoNewestPages,
            };
            let pages: Vec<ListPage> = split.pages().collect();
            pages.into_iter().map(move |page| CategoryPage {
                category,
                split,
                page,
                papers: &category.papers[split.range(page)],
            })
        })
        .collect()
}

/// The category pages, each paper as its line from `lines` (rendered once for every list
/// that shows it), or as a plain line view for a theme without `line.html`.
pub(super) fn render_category_pages(
    ctx: &Ctx,
    out: &Output,
    lines: Option<&Snippets>,
    pages: &[CategoryPage],
) -> Result<()> {
    let site = ctx.site;
    pages.par_iter().with_max_len(GRAIN).try_for_each_init(
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
            let mut h = ctx.fingerprints.list_page(
                "category",
                &cat.name,
                &cat.slug,
                &paginator,
                page,
                cat.papers.len(),
                papers,
            );
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
                    let list: Vec<_> = listed_lines(site, &ctx.urls, lines, papers, c.context)?
                        .into_iter()
                        .zip(headings)
                        .map(|(paper, week_heading)| views::Headed {
                            paper,
                            week_heading,
                        })
                        .collect();
                    c.insert("papers", &list);
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
            if let Some(lines) = lines {
                lines.release(papers);
            }
            Ok(())
        },
    )
}
