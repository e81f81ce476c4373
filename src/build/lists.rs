//! Digests and the home page, rendered week by week.

use super::*;

/// Digests and the home page, week by week from the newest: every card is rendered once
/// and held only while pages that show it are still to come.
pub(super) fn render_weeks(ctx: &Ctx, out: &Output) -> Result<()> {
    let site = ctx.site;
    let cards = Snippet::Card.in_theme(&ctx.tera).then(|| {
        let digests = site
            .digests
            .iter()
            .flat_map(|d| d.papers.iter().chain(&d.updated));
        Snippets::new(Snippet::Card, site, &ctx.tera, &ctx.urls, digests.copied())
    });
    let cards = cards.as_ref();
    let home = home_week(site);
    for (di, d) in site.digests.iter().enumerate() {
        if Some(di) != home {
            render_digest(ctx, out, cards, di)?;
        } else {
            // The home page shows the newest week's cards too: they are made once, and
            // then its template and the digest's run side by side.
            if let Some(cards) = cards {
                digest_cards(cards, d, &ctx.base)?;
            }
            let (digest, index) = rayon::join(
                || render_digest(ctx, out, cards, di),
                || render_index(ctx, out, cards),
            );
            digest.and(index)?;
        }
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
pub(super) fn digest_cards<'a>(
    cards: &Snippets<'a>,
    d: &DigestEntry,
    base: &tera::Context,
) -> Result<HashMap<usize, snippets::Held<'a>>> {
    let papers: Vec<usize> = d.papers.iter().chain(&d.updated).copied().collect();
    let rendered = cards.prepare(&papers, base)?;
    Ok(papers.into_iter().zip(rendered).collect())
}

pub(super) fn render_digest(
    ctx: &Ctx,
    out: &Output,
    cards: Option<&Snippets>,
    di: usize,
) -> Result<()> {
    let site = ctx.site;
    let d = &site.digests[di];
    let mut h = ctx.fingerprints.page("digest");
    h.num(d.content_hash).str(&d.week.to_string());
    ctx.fingerprints.papers(&mut h, &d.papers);
    ctx.fingerprints.papers(&mut h, &d.updated);
    // The links to the neighbouring weeks, none as 0.
    for n in [di.checked_sub(1), Some(di + 1)] {
        h.num(
            n.and_then(|n| ctx.fingerprints.week_link.get(n))
                .map_or(0, |&k| k),
        );
    }
    let fits = fits_lists(ctx);
    let mut context = ctx.context();
    ctx.page(
        out,
        &mut context,
        "digest.html",
        &views::digest_rel(d),
        h.finish(),
        |c| {
            c.insert("digest", &week_view(ctx, cards, di, fits)?);
            Ok(())
        },
    )?;
    if fits {
        render_week_lists(ctx, out, cards, di, &mut context)?;
    }
    Ok(())
}

/// Whether the theme pages a week's long lists (it has `week_list.html`): then the week's
/// page and the home page show `WEEK_CARDS` cards and link the rest; else every card.
fn fits_lists(ctx: &Ctx) -> bool {
    render::has_template(&ctx.tera, "week_list.html")
}

/// A week as its page and the home page show it: cards where the theme has them, cut to
/// what the page shows where the theme pages the rest.
fn week_view<'a>(
    ctx: &'a Ctx,
    cards: Option<&'a Snippets>,
    di: usize,
    fits: bool,
) -> Result<tera::Value> {
    let site = ctx.site;
    let value = match cards {
        None => {
            let mut view = views::digest_view(site, di, &ctx.urls)?;
            if fits {
                views::fit_week(&mut view, &ctx.urls);
            }
            tera::Value::from_serializable(&view)
        }
        Some(cards) => {
            let held = digest_cards(cards, &site.digests[di], &ctx.base)?;
            let mut view = views::digest_view_with(site, di, &ctx.urls, |i| {
                Ok(views::card_item(site, i, &ctx.urls, &held[&i]))
            })?;
            if fits {
                views::fit_week(&mut view, &ctx.urls);
            }
            tera::Value::from_serializable(&view)
        }
    };
    Ok(value)
}

/// The pages of each list of the week its page does not show whole: `digests/<week>/
/// <slug>/` and `page/<n>/`, cards in the week page's order.
fn render_week_lists(
    ctx: &Ctx,
    out: &Output,
    cards: Option<&Snippets>,
    di: usize,
    context: &mut tera::Context,
) -> Result<()> {
    let site = ctx.site;
    let d = &site.digests[di];
    let order = views::digest_view_with(site, di, &ctx.urls, Ok)?;
    let week = views::week_link(d, &ctx.urls);
    let mut held = None;
    for (list, _) in views::cut_lists(&order) {
        let front = views::week_list_rel(&week.name, &list.slug);
        let split = views::list_split(list.papers.len());
        for page in split.pages() {
            let papers = &list.papers[split.range(page)];
            let paginator = pager::paginator(&front, split, page, &ctx.urls);
            let mut h = ctx.fingerprints.list_page(
                "week-list",
                &list.name,
                &list.slug,
                &paginator,
                page,
                list.papers.len(),
                papers,
            );
            h.str(&week.title).str(&week.url).str(&list.category_url);
            ctx.page(
                out,
                context,
                "week_list.html",
                &pager::page_rel(&front, page),
                h.finish(),
                |c| {
                    match cards {
                        Some(cards) => {
                            if held.is_none() {
                                held = Some(digest_cards(cards, d, &ctx.base)?);
                            }
                            let held = held.as_ref().expect("just made");
                            let items: Vec<_> = papers
                                .iter()
                                .map(|&i| views::card_item(site, i, &ctx.urls, &held[&i]))
                                .collect();
                            c.insert("papers", &items);
                        }
                        None => {
                            let items = papers
                                .iter()
                                .map(|&i| views::paper_view(site, i, &ctx.urls))
                                .collect::<Result<Vec<_>>>()?;
                            c.insert("papers", &items);
                        }
                    }
                    c.insert(
                        "list",
                        &views::WeekListView {
                            slug: &list.slug,
                            name: &list.name,
                            full_name: list.full_name,
                            category_url: &list.category_url,
                            count: list.papers.len(),
                        },
                    );
                    c.insert("week", &week);
                    c.insert("paginator", &paginator);
                    Ok(())
                },
            )
            .with_context(|| format!("the page of {} in {}", list.name, week.title))?;
        }
    }
    Ok(())
}

/// The week the home page shows in full: the newest that has new papers (a week of only
/// new versions is no week to open with), else the newest.
pub(super) fn home_week(site: &Site) -> Option<usize> {
    site.digests
        .iter()
        .position(|d| !d.papers.is_empty())
        .or((!site.digests.is_empty()).then_some(0))
}

/// The home page: the newest week with papers, in full, and the weeks before it, each with
/// its counts and top headlines. Rendered every time.
pub(super) fn render_index(ctx: &Ctx, out: &Output, cards: Option<&Snippets>) -> Result<()> {
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
    match home {
        None => c.insert("latest", &None::<()>),
        Some(h) => c.insert("latest", &week_view(ctx, cards, h, fits_lists(ctx))?),
    }
    always(ctx, out, "index.html", "index.html", &c)
}

/// Says which content file a page's name comes from, for an error on that page: the
/// category or author name is the paper file's text, and the file is what to fix.
pub(super) fn named_by(what: &str, name: &str, site: &Site, papers: &[usize]) -> String {
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
