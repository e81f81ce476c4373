//! What the build writes besides the pages it renders from templates: the search index, machine figures, For you vectors, feeds and sitemaps.

use super::*;

/// The search index, or the previous build's when no paper's searchable text changed.
/// With `state`, where an incremental build keeps what the index was made from, only
/// the papers added since are tokenized. Each file is fingerprinted by what it is made
/// from (its postings, its words), so the files a week did not change are kept.
pub(super) fn write_search_index(ctx: &Ctx, out: &Output, state: Option<&Path>) -> Result<()> {
    // Each paper's search hash, worked out once: the kept state is keyed by them, and
    // `meta.json` (so every file of the index) by all of them.
    let searched: Vec<Fingerprint> = (0..ctx.site.papers.len())
        .into_par_iter()
        .map(|i| ctx.site.search_fingerprint(i))
        .collect();
    let corpus = {
        let mut h = Hasher::new();
        for &s in &searched {
            h.num(s);
        }
        h.finish()
    };
    // An index file's fingerprint: the site's inputs and what `build_index` says the file
    // is made from (for `meta.json`, the corpus).
    let site = ctx.fingerprints.site;
    let index_file =
        |inputs: Fingerprint| Hasher::new().num(site).num(inputs).str("search").finish();
    // A week's new papers change the last few chunks of document details; each chunk is
    // made only when what it shows of its papers changed (their search hashes cover it).
    let n = ctx.site.papers.len();
    (0..n.div_ceil(search::CHUNK))
        .into_par_iter()
        .with_max_len(GRAIN)
        .try_for_each(|c| {
            let range = c * search::CHUNK..n.min((c + 1) * search::CHUNK);
            let mut h = ctx.fingerprints.page("search-docs");
            h.num(c as u128);
            for &s in &searched[range.clone()] {
                h.num(s);
            }
            out.page(&search::doc_chunk_rel(c), h.finish(), || {
                search::doc_chunk(ctx.site, &ctx.urls, range)
            })
        })?;
    // `meta.json` is made from the whole corpus: when it is as it was, so is every
    // file of the index, kept without reading the state.
    let previous = out.previous_under("search/");
    let unchanged = previous
        .clone()
        .any(|(rel, fp)| rel == "search/meta.json" && fp == index_file(corpus));
    if unchanged {
        let mut linked = true;
        for (rel, fp) in previous.filter(|(rel, _)| search::is_index_file(rel)) {
            if !out.reuse(rel, fp)? {
                linked = false;
                break;
            }
        }
        if linked {
            return Ok(());
        }
    }
    // Anything unreadable is no state: every paper is tokenized. Failing to keep it only
    // costs the next build the tokenizing.
    let kept = state
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|bytes| search::KeptState::decode(&bytes));
    let keep = state.map(|path| {
        move |write: search::StateWrite| {
            let _ = keep_search_state(path, write);
        }
    });
    search::build_index(
        ctx.site,
        &searched,
        corpus,
        kept,
        keep.as_ref()
            .map(|keep| keep as &(dyn Fn(search::StateWrite) + Sync)),
        &|rel, inputs, make| out.page(&rel, index_file(inputs), make),
    )
}

/// Writes the search state whole, or appends a segment to it. An append cut short leaves a
/// state that does not decode, which the next build does without.
fn keep_search_state(path: &Path, write: search::StateWrite) -> Result<()> {
    match write {
        search::StateWrite::Whole(bytes) => crate::store::atomic::write_atomic(path, &bytes),
        search::StateWrite::Append(bytes) => crate::store::atomic::append(path, &bytes),
    }
}

/// A paper's machine figure (`content/figures/…`), published beside its page. Made again
/// when the paper's file or the figure file changed.
pub(super) fn publish_figure(ctx: &Ctx, out: &Output, i: usize) -> Result<()> {
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
            "{}: key `machine.figure`: cannot read {} (where figures are kept out of git, \
             copy them back first, as README.md says; `paperboy review` makes a missing one again)",
            p.source_path.display(),
            path.display()
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

/// Each week's papers as vectors for the reader's browser (`render::foryou`), made again
/// only for weeks whose papers changed; and the list of weeks the "For you" page ranks.
pub(super) fn write_foryou(
    ctx: &Ctx,
    out: &Output,
    terms_cache: Option<&Path>,
    held: Option<&[site::related::Terms]>,
) -> Result<()> {
    let site = ctx.site;
    let weeks = render::foryou::Weeks::new(site, terms_cache, held);
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

pub(super) fn render_lists(ctx: &Ctx, out: &Output) -> Result<()> {
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
    // A reader who shortens a week's or a paper's address (`/digests/2026-W14/` to
    // `/digests/`) is sent to the archive, which lists both, rather than to a 404: those
    // folders have no page of their own.
    let to_archive = redirect_page(&ctx.urls, "archive/", "the archive");
    for rel in ["digests/index.html", "papers/index.html"] {
        out.write(rel, to_archive.as_bytes())?;
    }
    always(ctx, out, "search.html", "search/index.html", &ctx.context())?;
    // Pages of a theme that has them: the list of categories, the authors with the most
    // papers, the reader's saved papers and their ranking.
    let mut by_count = ctx.context();
    let (listed, listed_down_to) = most_published(ctx);
    by_count.insert("authors", &listed);
    by_count.insert("listed_down_to", &listed_down_to);
    by_count.insert("author_count", &ctx.site.authors.len());
    for (template, rel, c) in [
        ("categories.html", "categories/index.html", &c),
        ("authors.html", "authors/index.html", &by_count),
        ("saved.html", "saved/index.html", &ctx.context()),
        ("foryou.html", "foryou/index.html", &ctx.context()),
    ] {
        if render::has_template(&ctx.tera, template) {
            always(ctx, out, template, rel, c)?;
        }
    }
    always(ctx, out, "404.html", "404.html", &ctx.context())
}

/// How many authors `/authors/` lists at most: every author of a lab's digest, and the
/// most published of a field's, whose hundred thousand names would make a page of
/// megabytes.
const AUTHORS_LISTED: usize = 100;

/// The authors with the most papers, most first; ties by name, then by slug. Authors tied
/// with the first one left off are left off too, so that no alphabetical slice of a
/// tie (forty of five hundred with one paper) is listed, unless that leaves no one. With
/// them, the fewest papers a listed author has when everyone with as many is listed: the
/// page says "the 49 with 3 papers or more".
fn most_published(ctx: &Ctx) -> (Vec<views::AuthorView>, Option<usize>) {
    let authors = &ctx.site.authors;
    let count = |a: usize| authors[a].papers.len();
    let order = |&a: &usize, &b: &usize| {
        (count(b).cmp(&count(a)))
            .then_with(|| authors[a].name.cmp(&authors[b].name))
            .then_with(|| authors[a].slug.cmp(&authors[b].slug))
    };
    let mut list: Vec<usize> = (0..authors.len()).collect();
    if list.len() > AUTHORS_LISTED {
        list.select_nth_unstable_by(AUTHORS_LISTED, order);
        list.truncate(AUTHORS_LISTED + 1);
    }
    list.sort_unstable_by(order);
    let mut down_to = None;
    if let Some(&first_left_off) = list.get(AUTHORS_LISTED) {
        let tied = count(first_left_off);
        let untied = list.iter().take_while(|&&a| count(a) > tied).count();
        if untied == 0 {
            list.truncate(AUTHORS_LISTED);
        } else {
            list.truncate(untied);
            down_to = Some(count(list[untied - 1]));
        }
    }
    let listed = list
        .into_iter()
        .map(|a| views::author_view(&authors[a], &ctx.urls))
        .collect();
    (listed, down_to)
}

/// A page that sends its reader on to `rel` at once, as Zola's and Hugo's aliases do: a
/// refresh for browsers, a canonical link for search engines, a link for anyone else.
fn redirect_page(urls: &crate::render::views::Urls, rel: &str, name: &str) -> String {
    let path = render::escape_html(&urls.path(rel));
    let permalink = render::escape_html(&urls.permalink(rel));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>Moved to {name}</title>\n<meta name=\"robots\" content=\"noindex\">\n\
         <link rel=\"canonical\" href=\"{permalink}\">\n\
         <meta http-equiv=\"refresh\" content=\"0; url={path}\">\n</head>\n<body>\n\
         <p>This page is <a href=\"{path}\">{name}</a>.</p>\n</body>\n</html>\n"
    )
}

/// The few pages that show something of every week or category are rendered every time.
pub(super) fn always(
    ctx: &Ctx,
    out: &Output,
    template: &str,
    rel: &str,
    c: &tera::Context,
) -> Result<()> {
    let html = render::render(&ctx.tera, template, c)?;
    out.write(rel, html.as_bytes())
}

/// The `limit` newest of papers `ids` by their first version, newest first; papers are in
/// id order, so the index breaks ties as the id would.
pub(super) fn newest(site: &Site, ids: impl Iterator<Item = usize>, limit: usize) -> Vec<usize> {
    let mut keyed: Vec<_> = ids.map(|i| (site.newest_first[i], i)).collect();
    if limit < keyed.len() {
        keyed.select_nth_unstable(limit);
        keyed.truncate(limit);
    }
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

pub(super) fn render_feeds(ctx: &Ctx, out: &Output) -> Result<()> {
    let (feeds, sitemaps) = rayon::join(|| write_feeds(ctx, out), || write_sitemaps(ctx, out));
    feeds?;
    sitemaps
}

/// The site's Atom feed and one per category.
pub(super) fn write_feeds(ctx: &Ctx, out: &Output) -> Result<()> {
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

/// The sitemap, in three groups whose parts a weekly build mostly leaves as they were:
/// papers in the order their weeks announced them, and authors in the order of their first
/// paper, so a week's new pages come at the end of each; the pages that change every week
/// (home, digests, categories, authors' numbered pages) in a group of their own.
pub(super) fn write_sitemaps(ctx: &Ctx, out: &Output) -> Result<()> {
    let site = ctx.site;
    let mut pages: Vec<String> = vec![String::new(), "archive/".into(), "search/".into()];
    for (template, rel) in [
        ("categories.html", "categories/"),
        ("authors.html", "authors/"),
    ] {
        if render::has_template(&ctx.tera, template) {
            pages.push(rel.into());
        }
    }
    // Each week, oldest first, then the pages of the lists its page cuts.
    let week_lists = render::has_template(&ctx.tera, "week_list.html");
    for di in (0..site.digests.len()).rev() {
        pages.push(views::digest_rel(&site.digests[di]));
        if week_lists {
            pages.extend(views::week_list_rels(site, di, &ctx.urls)?);
        }
    }
    for cat in &site.categories {
        let split = Split {
            len: cat.papers.len(),
            per_page: ctx.config.paginate_by,
            front: pager::Front::TwoNewestPages,
        };
        // Not a page whose papers its front page shows, all of them: a search engine
        // would have the same list twice.
        pages.extend(
            split
                .pages()
                .filter(|&page| !split.shown_in_front(page))
                .map(|page| pager::rel(&cat.slug, page)),
        );
    }
    for author in &site.authors {
        let before_front = author_split(author.papers.len()).before_front();
        if before_front > 0 {
            let front = views::author_rel(&author.slug);
            pages
                .extend((1..=before_front).map(|n| pager::page_rel(&front, ListPage::Numbered(n))));
        }
    }
    // Oldest week first (`digests` is newest first), papers no digest lists last; by id
    // within each.
    let mut papers: Vec<usize> = (0..site.papers.len()).collect();
    papers.sort_by_key(|&i| {
        let week = site.week_of[i];
        (week.is_none(), std::cmp::Reverse(week), i)
    });
    let mut place = vec![0; papers.len()];
    for (n, &i) in papers.iter().enumerate() {
        place[i] = n;
    }
    let mut authors: Vec<(usize, &site::Author)> = site
        .authors
        .iter()
        .map(|a| (a.papers.iter().map(|&i| place[i]).min().unwrap_or(0), a))
        .collect();
    authors.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.slug.cmp(&b.1.slug)));
    let groups = [
        feeds::SitemapGroup {
            name: "pages",
            rels: pages,
        },
        feeds::SitemapGroup {
            name: "papers",
            rels: papers
                .iter()
                .map(|&i| views::paper_rel(&site.papers[i]))
                .collect(),
        },
        feeds::SitemapGroup {
            name: "authors",
            rels: authors
                .iter()
                .map(|(_, a)| views::author_rel(&a.slug))
                .collect(),
        },
    ];
    for (name, text) in feeds::sitemaps(&groups, &ctx.urls, feeds::SITEMAP_MAX_URLS) {
        out.write(&name, text.as_bytes())?;
    }
    out.write("robots.txt", feeds::robots(&ctx.urls).as_bytes())
}
