//! Renders the default theme's card, author line and paper page for every paper of a site
//! with Tera 1 (as paperboy does) and with Tera 2 (templates/ here, the same markup ported),
//! from the same views, on one core; prints the fastest of three runs of each and checks
//! that both engines wrote the same bytes.
//!
//!   bench/tera2.sh [N]   (generates an N-paper site with gen_site, default 10000)

use anyhow::{Context as _, Result, anyhow};
use paperboy::render::{self, views};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const TEMPLATES: [&str; 3] = ["card.html", "line.html", "paper.html"];

/// paperboy's escaping (it leaves `/` alone), so that both engines write the same bytes.
fn escape(input: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let bytes = input.as_bytes();
    let mut start = 0;
    for (i, b) in bytes.iter().enumerate() {
        let entity: &[u8] = match b {
            b'&' => b"&amp;",
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'"' => b"&quot;",
            b'\'' => b"&#x27;",
            _ => continue,
        };
        out.write_all(&bytes[start..i])?;
        out.write_all(entity)?;
        start = i + 1;
    }
    out.write_all(&bytes[start..])
}

fn tera2_engine(dir: &Path) -> Result<tera2::Tera> {
    let mut tera = tera2::Tera::new();
    tera.autoescape_on([".html"]);
    tera.set_escape_fn(escape);
    tera.register_filter("math", |s: &str, _: tera2::Kwargs, _: &tera2::State| {
        render::math::text_with_math(s)
    });
    let mut files = Vec::new();
    for name in [
        "components.html",
        "base.html",
        "card.html",
        "line.html",
        "paper.html",
    ] {
        let text = std::fs::read_to_string(dir.join(name))?;
        files.push((name.to_string(), text));
    }
    tera.add_raw_templates(files)
        .map_err(|e| anyhow!("Tera 2 templates: {e:?}"))?;
    Ok(tera)
}

fn best_of_three(mut run: impl FnMut() -> Result<Vec<String>>) -> Result<(Duration, Vec<String>)> {
    let mut best = Duration::MAX;
    let mut out = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        out = run()?;
        best = best.min(started.elapsed());
    }
    Ok((best, out))
}

fn main() -> Result<()> {
    let site_dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .context("usage: tera2-bench SITE_DIR")?,
    );
    // The repository holds both manifests (bench/tera2/ and bench/tera2/stock/).
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|d| d.join("themes/default").is_dir())
        .context("no themes/default above the bench")?;
    let mut site = paperboy::site::load(&site_dir.join("content"))?;
    site.compute_related(5, None)?;
    let n = site.papers.len();
    let urls = views::Urls::new("https://example.org/digest");
    let site_view = views::SiteView {
        title: "Bench digest",
        description: "Synthetic papers",
        base_url: &urls.base_url,
        base_path: urls.base_path.clone(),
        feed_url: urls.path("atom.xml"),
        categories: site
            .categories
            .iter()
            .map(|c| views::category_link(c, &urls))
            .collect(),
    };
    let started = Instant::now();
    let papers = (0..n)
        .map(|i| views::paper_view(&site, i, &urls))
        .collect::<Result<Vec<_>>>()?;
    let lines: Vec<_> = (0..n).map(|i| views::paper_line(&site, i, &urls)).collect();
    let extras: Vec<_> = (0..n)
        .map(|i| {
            views::paper_page_extras(&site, i, &urls, "Bench digest", &papers[i].abstract_text)
        })
        .collect();
    eprintln!("{n} papers; views made in {:.0?}", started.elapsed());

    let tera1 = render::load_templates(repo, "default")?;
    let tera2 = tera2_engine(&repo.join("bench/tera2/templates"))?;
    println!(
        "| template | Tera 1 ({}) | Tera 2 | Tera 2 / Tera 1 | same bytes |",
        if env!("CARGO_PKG_NAME").ends_with("stock") {
            "1.20.1 from crates.io"
        } else {
            "1.20.1 patched"
        }
    );
    println!("|---|---:|---:|---:|---:|");
    let mut totals = (Duration::ZERO, Duration::ZERO);
    for template in TEMPLATES {
        let (t1, out1) = best_of_three(|| {
            let mut c = tera::Context::new();
            c.insert("site", &site_view);
            (0..n)
                .map(|i| {
                    match template {
                        "line.html" => c.insert("paper", &lines[i]),
                        _ => c.insert("paper", &papers[i]),
                    }
                    if template == "paper.html" {
                        c.insert("page", &extras[i]);
                    }
                    render::render(&tera1, template, &c)
                })
                .collect()
        })?;
        let (t2, out2) = best_of_three(|| {
            let mut c = tera2::Context::new();
            c.insert("site", &site_view);
            (0..n)
                .map(|i| {
                    match template {
                        "line.html" => c.insert("paper", &lines[i]),
                        _ => c.insert("paper", &papers[i]),
                    }
                    if template == "paper.html" {
                        c.insert("page", &extras[i]);
                    }
                    tera2
                        .render(template, &c)
                        .map_err(|e| anyhow!("Tera 2 {template}: {e:?}"))
                })
                .collect()
        })?;
        let same = out1.iter().zip(&out2).filter(|(a, b)| a == b).count();
        if let Some((a, b)) = out1.iter().zip(&out2).find(|(a, b)| a != b) {
            let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
            let from = at.saturating_sub(80);
            eprintln!(
                "{template}: first difference at byte {at}\n  Tera 1: {:?}\n  Tera 2: {:?}",
                a.get(from..(at + 80).min(a.len())).unwrap_or(""),
                b.get(from..(at + 80).min(b.len())).unwrap_or("")
            );
        }
        totals = (totals.0 + t1, totals.1 + t2);
        println!(
            "| {template} | {:.0} ms | {:.0} ms | {:.2} | {same} of {n} |",
            t1.as_secs_f64() * 1e3,
            t2.as_secs_f64() * 1e3,
            t2.as_secs_f64() / t1.as_secs_f64()
        );
    }
    println!(
        "| all three | {:.0} ms | {:.0} ms | {:.2} | |",
        totals.0.as_secs_f64() * 1e3,
        totals.1.as_secs_f64() * 1e3,
        totals.1.as_secs_f64() / totals.0.as_secs_f64()
    );
    Ok(())
}
