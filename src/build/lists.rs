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
