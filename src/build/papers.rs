//! Paper pages, one per paper, each with its figure.

use super::*;

/// The paper pages. A page shows its related papers' titles and links: their files are
/// among its inputs.
pub(super) fn render_papers(
    ctx: &Ctx,
    out: &Output,
    bar: &crate::progress::Progress,
) -> Result<()> {
    let site = ctx.site;
    let paper_bar = bar.bar(site.papers.len() as u64, "papers");
    (0..site.papers.len())
        .into_par_iter()
        .with_max_len(GRAIN)
        .try_for_each_init(
            || ctx.context(),
            |context, i| {
                let fps = &ctx.fingerprints;
                let mut h = fps.page("paper");
                h.num(fps.paper_view[i]);
                // Related papers show their titles and links: their files count.
                for &r in &site.related[i] {
                    h.num(site.papers[r].content_hash);
                }
                // The authors link to their pages, whose addresses other papers may change:
                // a paper that spells out "A. Del Maestro" moves his page.
                for a in site.authorships.of(i) {
                    h.str(&site.authors[a].slug);
                }
                ctx.page(
                    out,
                    context,
                    "paper.html",
                    &views::paper_rel(&site.papers[i]),
                    h.finish(),
                    |c| {
                        let paper = views::paper_view(site, i, &ctx.urls)?;
                        let extras = views::paper_page_extras(
                            site,
                            i,
                            &ctx.urls,
                            &ctx.config.title,
                            &paper.abstract_text,
                        );
                        c.insert("paper", &paper);
                        c.insert("page", &extras);
                        Ok(())
                    },
                )
                .with_context(|| format!("rendering {}", site.papers[i].source_path.display()))?;
                publish_figure(ctx, out, i)?;
                if let Some(b) = &paper_bar {
                    b.inc(1);
                }
                Ok::<_, anyhow::Error>(())
            },
        )
}
