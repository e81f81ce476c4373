//! Writes a synthetic paper-digest site of N papers in paperboy's format, and optionally
//! the same pages as a Hugo site and a Zola site, for benchmarks.
//!
//! cargo run --release --example gen_site -- N OUT_DIR [--hugo HUGO_DIR] [--zola ZOLA_DIR]
//!     [--without-last-week] [--per-week K]   (K papers a week, 2,800 unless given)
//!     [--authors-only]   (print the authorship distribution, write nothing)
//!
//! Realistic sizes: ~1.5 KB abstracts, 3-8 authors, 1-4 categories, 400 papers a day
//! (2,800 a week, a field's such as cs.LG); `--per-week` for a category's 86 or 300.
//! Deterministic: the same N gives the same files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const CATEGORIES: &[&str] = &[
    "cs.DC",
    "cs.LG",
    "cs.AI",
    "cs.CL",
    "cs.CV",
    "cs.CR",
    "cs.DS",
    "cs.NI",
    "cs.PF",
    "cs.SE",
    "cs.OS",
    "cs.PL",
    "cs.DB",
    "cs.IR",
    "cs.RO",
    "cs.SY",
    "math.OC",
    "math.NA",
    "stat.ML",
    "quant-ph",
    "physics.comp-ph",
    "astro-ph.IM",
    "q-bio.QM",
    "eess.SP",
    "econ.EM",
    "cond-mat.dis-nn",
    "hep-th",
    "gr-qc",
    "nlin.AO",
    "q-fin.CP",
];

const WORDS: &str = "distributed parallel cluster computing consensus replication fault tolerance \
    byzantine scheduling throughput latency graph neural network training inference gpu memory \
    bandwidth communication collective compression sparse dense matrix solver iterative krylov \
    cholesky heterogeneous accelerator kernel compiler runtime storage cache prefetching \
    checkpoint recovery elastic serverless cloud edge federated privacy secure protocol model \
    language agent reasoning benchmark evaluation dataset empirical study we propose novel \
    approach method results show improves performance scalability across systems workloads \
    experiments demonstrate achieves speedup compared baseline state art framework design \
    implementation analysis theoretical bound optimal algorithm complexity approximation";

fn words(rng: &mut Rng, vocab: &[&str], n: usize) -> String {
    let mut s = String::with_capacity(n * 9);
    for i in 0..n {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(vocab[rng.below(vocab.len())]);
    }
    s
}

fn title_case(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

struct Paper {
    id: String,
    title: String,
    authors: Vec<String>,
    categories: Vec<String>,
    abstract_text: String,
    published: String,
    date: String,
    week: String,
}

/// Chance, in thousandths, that an author slot goes to someone new. Tuned so that at
/// 100,000 papers about half of all authors have one paper and the top 1 % have 50 or more
/// (the distribution is printed).
const NEW_AUTHOR_PER_MILLE: usize = 200;

/// The `i`th person: distinct names for any number of them.
fn author_name(i: usize) -> String {
    const FIRST: [&str; 16] = [
        "Ana", "Bo", "Chen", "Dara", "Eli", "Fatima", "Gus", "Hiro", "Ines", "Jon", "Kai", "Lena",
        "Mo", "Nia", "Omar", "Priya",
    ];
    const LAST: [&str; 16] = [
        "Smith", "Garcia", "Wang", "Kumar", "Ivanova", "Okafor", "Rossi", "Tanaka", "Novak",
        "Silva", "Berg", "Haddad", "Kim", "Moreau", "Costa", "Weber",
    ];
    format!("{} {}{}", FIRST[i % 16], LAST[(i / 16) % 16], i / 256)
}

/// Papers per author: the share with one paper, the top 1 %'s least count, the largest.
fn print_authorship(papers: &[Paper]) {
    let mut counts: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
    for p in papers {
        for a in &p.authors {
            *counts.entry(a).or_default() += 1;
        }
    }
    let mut c: Vec<u32> = counts.into_values().collect();
    c.sort_unstable_by(|a, b| b.cmp(a));
    if c.is_empty() {
        return;
    }
    let one = c.iter().filter(|&&x| x == 1).count();
    let top = c[(c.len() / 100).min(c.len() - 1)];
    let at_least = |k: u32| c.iter().filter(|&&x| x >= k).count();
    eprintln!(
        "authors: {} ({:.1} papers each); {:.1} % have 1 paper; top 1 % have >= {}; >= 10: {}, >= 50: {}, >= 200: {}; most: {}",
        c.len(),
        c.iter().map(|&x| x as f64).sum::<f64>() / c.len() as f64,
        100.0 * one as f64 / c.len() as f64,
        top,
        at_least(10),
        at_least(50),
        at_least(200),
        c[0]
    );
}

fn generate(n: usize, per_week: usize) -> Vec<Paper> {
    let vocab: Vec<&str> = WORDS.split_whitespace().collect();
    let mut rng = Rng(0x9E3779B97F4A7C15 ^ n as u64);
    let mut slots: Vec<Vec<usize>> = vec![Vec::new(); CATEGORIES.len()];
    let mut people = 0;
    let start = chrono::NaiveDate::from_ymd_opt(2020, 1, 6).unwrap();
    (0..n)
        .map(|i| {
            // Spread evenly over the days of each week (2,800: 400 a day); weeks start on
            // Monday 2020-01-06.
            let day = start + chrono::Duration::days((i * 7 / per_week) as i64);
            let yymm = day.format("%y%m").to_string();
            let id = format!("{yymm}.{:05}", i % 100_000);
            let mut categories: Vec<String> = Vec::new();
            for _ in 0..1 + rng.below(4) {
                let c = CATEGORIES[rng.below(CATEGORIES.len())].to_string();
                if !categories.contains(&c) {
                    categories.push(c);
                }
            }
            // Preferential attachment, as bibliographies grow, within the paper's field (its
            // primary category): a slot goes to an earlier author of the field with
            // probability proportional to their paper count (a uniform pick among the
            // field's earlier slots), else to a new person. One process for all fields would
            // let its first author sign most papers of the site.
            let field = CATEGORIES.iter().position(|c| *c == categories[0]).unwrap();
            let slots = &mut slots[field];
            let mut authors: Vec<String> = Vec::new();
            for _ in 0..3 + rng.below(6) {
                let author = if slots.is_empty() || rng.below(1000) < NEW_AUTHOR_PER_MILLE {
                    people += 1;
                    people - 1
                } else {
                    slots[rng.below(slots.len())]
                };
                let name = author_name(author);
                if !authors.contains(&name) {
                    slots.push(author);
                    authors.push(name);
                }
            }
            let iso = day.iso_week();
            let (title_len, abstract_len) = (8 + rng.below(8), 170 + rng.below(30));
            Paper {
                id,
                title: title_case(&words(&mut rng, &vocab, title_len)),
                authors,
                categories,
                abstract_text: title_case(&words(&mut rng, &vocab, abstract_len)) + ".",
                published: format!("{}T12:00:00Z", day),
                date: day.to_string(),
                week: format!("{}-W{:02}", iso.year(), iso.week()),
            }
        })
        .collect()
}

use chrono::Datelike;

/// Leaves a file that already says `text` alone, as fetch does: generating the site again
/// with one more week then touches only that week's files.
fn write(path: &Path, text: &str) {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return;
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn toml_str(s: &str) -> String {
    format!("{s:?}")
}

fn write_paperboy(papers: &[Paper], out: &Path) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&repo.join("themes"), &out.join("themes"));
    write(
        &out.join("paperboy.toml"),
        "title = \"Synthetic digest\"\ndescription = \"Benchmark site\"\nbase_url = \"https://bench.example.org\"\n",
    );
    let mut weeks: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for p in papers {
        let mut f = String::with_capacity(2500);
        let _ = write!(
            f,
            "+++\nid = {}\nversion = 1\ntitle = {}\nauthors = [{}]\npublished = {}\nupdated = {}\nprimary_category = {}\ncategories = [{}]\nabstract = {}\ncomment = \"\"\njournal_ref = \"\"\ndoi = \"\"\nsource = \"arxiv\"\n\n[links]\nabs = \"https://arxiv.org/abs/{}\"\npdf = \"https://arxiv.org/pdf/{}v1\"\n\n[review]\nheadline = \"\"\nsummary = \"\"\nbadges = []\nfigure = \"\"\n+++\n",
            toml_str(&p.id),
            toml_str(&p.title),
            p.authors
                .iter()
                .map(|a| toml_str(a))
                .collect::<Vec<_>>()
                .join(", "),
            p.published,
            p.published,
            toml_str(&p.categories[0]),
            p.categories
                .iter()
                .map(|c| toml_str(c))
                .collect::<Vec<_>>()
                .join(", "),
            toml_str(&p.abstract_text),
            p.id,
            p.id
        );
        write(
            &out.join("content/papers")
                .join(&p.id[..4])
                .join(format!("{}.md", p.id)),
            &f,
        );
        weeks.entry(&p.week).or_default().push(&p.id);
    }
    for (week, ids) in weeks {
        let list: Vec<String> = ids.iter().map(|i| toml_str(i)).collect();
        write(
            &out.join("content/digests").join(format!("{week}.md")),
            &format!(
                "+++\nweek = \"{week}\"\npapers = [{}]\n+++\n",
                list.join(", ")
            ),
        );
    }
}

/// The same pages for Hugo: a paper page each, paginated category lists, weekly lists.
fn write_hugo(papers: &[Paper], out: &Path) {
    // The pages paperboy writes, as Hugo (0.146+ template lookup: layouts/<kind>.html):
    // a page per paper, category pages paginated by 20 with full cards, a page per week
    // with every card, a page per author listing titles.
    write(
        &out.join("hugo.toml"),
        "baseURL = \"https://bench.example.org/\"\ntitle = \"Synthetic digest\"\ndisableKinds = [\"RSS\", \"sitemap\", \"robotsTXT\", \"404\"]\n[pagination]\npagerSize = 20\n[taxonomies]\ncategory = \"categories\"\nweek = \"weeks\"\nauthor = \"authors\"\n",
    );
    let layouts = out.join("layouts");
    let head = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{{ .Title }}</title></head><body>";
    write(
        &layouts.join("single.html"),
        &format!(
            "{head}<article><h1>{{{{ .Title }}}}</h1><p>{{{{ range .Params.authors }}}}<a href=\"/authors/{{{{ . | urlize }}}}/\">{{{{ . }}}}</a> {{{{ end }}}}</p><p>{{{{ .Date.Format \"2006-01-02\" }}}}</p>{{{{ range .Params.categories }}}}<a href=\"/categories/{{{{ . | urlize }}}}/\">{{{{ . }}}}</a> {{{{ end }}}}<details><summary>abstract</summary><p>{{{{ .Params.abstract }}}}</p></details></article></body></html>"
        ),
    );
    let card = "<article><p>{{ index .Params.categories 0 }} {{ .Date.Format \"2006-01-02\" }}</p><h3><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></h3><p>{{ delimit (first 8 .Params.authors) \", \" }}</p><details><summary>abstract</summary><p>{{ .Params.abstract }}</p></details></article>";
    write(
        &layouts.join("term.html"),
        &format!(
            "{head}<h1>{{{{ .Title }}}}</h1>{{{{ if eq .Data.Plural \"weeks\" }}}}{{{{ range .Pages }}}}{card}{{{{ end }}}}{{{{ else if eq .Data.Plural \"authors\" }}}}<ol>{{{{ range .Pages }}}}<li><a href=\"{{{{ .RelPermalink }}}}\">{{{{ .Title }}}}</a></li>{{{{ end }}}}</ol>{{{{ else }}}}{{{{ $p := .Paginate .Pages }}}}{{{{ range $p.Pages }}}}{card}{{{{ end }}}}{{{{ with $p.Prev }}}}<a href=\"{{{{ .URL }}}}\">newer</a>{{{{ end }}}}{{{{ with $p.Next }}}}<a href=\"{{{{ .URL }}}}\">older</a>{{{{ end }}}}{{{{ end }}}}</body></html>"
        ),
    );
    write(
        &layouts.join("list.html"),
        &format!("{head}<h1>{{{{ .Title }}}}</h1></body></html>"),
    );
    write(
        &layouts.join("taxonomy.html"),
        &format!(
            "{head}<h1>{{{{ .Title }}}}</h1><ul>{{{{ range .Pages }}}}<li><a href=\"{{{{ .RelPermalink }}}}\">{{{{ .Title }}}}</a></li>{{{{ end }}}}</ul></body></html>"
        ),
    );
    write(
        &layouts.join("home.html"),
        &format!("{head}<h1>Synthetic digest</h1></body></html>"),
    );
    for p in papers {
        let f = format!(
            "+++\ntitle = {}\ndate = {}\nauthors = [{}]\ncategories = [{}]\nweeks = [\"{}\"]\nabstract = {}\n+++\n",
            toml_str(&p.title),
            p.published,
            p.authors
                .iter()
                .map(|a| toml_str(a))
                .collect::<Vec<_>>()
                .join(", "),
            p.categories
                .iter()
                .map(|c| toml_str(c))
                .collect::<Vec<_>>()
                .join(", "),
            p.week,
            toml_str(&p.abstract_text),
        );
        write(
            &out.join("content/papers")
                .join(&p.id[..4])
                .join(format!("{}.md", p.id)),
            &f,
        );
    }
    let _ = papers.first().map(|p| &p.date);
}

fn write_zola(papers: &[Paper], out: &Path) {
    // The same pages as Hugo's (above), as Zola 0.22 makes them: taxonomies for categories
    // (paginated by 20, full cards), weeks (every card) and authors (titles).
    write(
        &out.join("config.toml"),
        "base_url = \"https://bench.example.org\"\ntitle = \"Synthetic digest\"\ncompile_sass = false\nbuild_search_index = false\ngenerate_feeds = false\ntaxonomies = [\n  { name = \"categories\", paginate_by = 20 },\n  { name = \"weeks\" },\n  { name = \"authors\" },\n]\n",
    );
    let t = out.join("templates");
    let head = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Synthetic digest</title></head><body>";
    let card = "<article><p>{{ page.taxonomies.categories | first }} {{ page.date | date(format=\"%Y-%m-%d\") }}</p><h3><a href=\"{{ page.path }}\">{{ page.title }}</a></h3><p>{{ page.taxonomies.authors | slice(end=8) | join(sep=\", \") }}</p><details><summary>abstract</summary><p>{{ page.extra.abstract }}</p></details></article>";
    write(
        &t.join("page.html"),
        &format!(
            "{head}<article><h1>{{{{ page.title }}}}</h1><p>{{% for a in page.taxonomies.authors %}}<a href=\"/authors/{{{{ a | slugify }}}}/\">{{{{ a }}}}</a> {{% endfor %}}</p><p>{{{{ page.date | date(format=\"%Y-%m-%d\") }}}}</p>{{% for c in page.taxonomies.categories %}}<a href=\"/categories/{{{{ c | slugify }}}}/\">{{{{ c }}}}</a> {{% endfor %}}<details><summary>abstract</summary><p>{{{{ page.extra.abstract }}}}</p></details></article></body></html>"
        ),
    );
    write(
        &t.join("categories/single.html"),
        &format!(
            "{head}<h1>{{{{ term.name }}}}</h1>{{% for page in paginator.pages %}}{card}{{% endfor %}}{{% if paginator.previous %}}<a href=\"{{{{ paginator.previous }}}}\">newer</a>{{% endif %}}{{% if paginator.next %}}<a href=\"{{{{ paginator.next }}}}\">older</a>{{% endif %}}</body></html>"
        ),
    );
    write(
        &t.join("weeks/single.html"),
        &format!(
            "{head}<h1>{{{{ term.name }}}}</h1>{{% for page in term.pages %}}{card}{{% endfor %}}</body></html>"
        ),
    );
    write(
        &t.join("authors/single.html"),
        &format!(
            "{head}<h1>{{{{ term.name }}}}</h1><ol>{{% for page in term.pages %}}<li><a href=\"{{{{ page.path }}}}\">{{{{ page.title }}}}</a></li>{{% endfor %}}</ol></body></html>"
        ),
    );
    write(
        &t.join("taxonomy_list.html"),
        &format!(
            "{head}<h1>{{{{ taxonomy.name }}}}</h1><ul>{{% for term in terms %}}<li><a href=\"{{{{ term.path }}}}\">{{{{ term.name }}}}</a></li>{{% endfor %}}</ul></body></html>"
        ),
    );
    write(
        &t.join("index.html"),
        &format!("{head}<h1>Synthetic digest</h1></body></html>"),
    );
    write(
        &t.join("section.html"),
        &format!("{head}<h1>{{{{ section.title }}}}</h1></body></html>"),
    );
    write(&out.join("content/_index.md"), "+++\n+++\n");
    write(
        &out.join("content/papers/_index.md"),
        "+++\ntitle = \"Papers\"\n+++\n",
    );
    for p in papers {
        let list = |v: &[String]| v.iter().map(|a| toml_str(a)).collect::<Vec<_>>().join(", ");
        let f = format!(
            "+++\ntitle = {}\ndate = {}\n\n[taxonomies]\nauthors = [{}]\ncategories = [{}]\nweeks = [\"{}\"]\n\n[extra]\nabstract = {}\n+++\n",
            toml_str(&p.title),
            p.published,
            list(&p.authors),
            list(&p.categories),
            p.week,
            toml_str(&p.abstract_text),
        );
        write(&out.join("content/papers").join(format!("{}.md", p.id)), &f);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: gen_site N OUT_DIR [--hugo HUGO_DIR] [--zola ZOLA_DIR] [--without-last-week] [--per-week K] [--authors-only]";
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).expect(usage);
    let out = PathBuf::from(args.get(2).expect(usage));
    let hugo = args
        .iter()
        .position(|a| a == "--hugo")
        .map(|i| PathBuf::from(args.get(i + 1).expect(usage)));
    let zola = args
        .iter()
        .position(|a| a == "--zola")
        .map(|i| PathBuf::from(args.get(i + 1).expect(usage)));
    let per_week: usize = args
        .iter()
        .position(|a| a == "--per-week")
        .map(|i| args.get(i + 1).and_then(|k| k.parse().ok()).expect(usage))
        .unwrap_or(2_800);
    assert!(per_week > 0, "{usage}");
    let mut papers = generate(n, per_week);
    // For incremental-build benchmarks: the same site one week earlier, so that running
    // again without the flag adds exactly one week of papers.
    if args.iter().any(|a| a == "--without-last-week") {
        let last = papers.last().map(|p| p.week.clone()).unwrap_or_default();
        papers.retain(|p| p.week != last);
    }
    print_authorship(&papers);
    if args.iter().any(|a| a == "--authors-only") {
        return;
    }
    write_paperboy(&papers, &out);
    if let Some(h) = hugo {
        write_hugo(&papers, &h);
    }
    if let Some(z) = zola {
        write_zola(&papers, &z);
    }
    eprintln!("wrote {} papers to {}", papers.len(), out.display());
}
