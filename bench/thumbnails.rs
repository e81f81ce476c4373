//! How fast thumbnails are made and how big they are: every PNG figure under
//! ../shared/fixtures/arxiv_html/ scaled to the default width and encoded as WebP, on one
//! core, ten times over.
//!
//!   cargo run --release --example thumbnails [-- WIDTH]

fn main() {
    let width: u32 = std::env::args()
        .nth(1)
        .and_then(|w| w.parse().ok())
        .unwrap_or(paperboy::review::figure::Shape::default().width);
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/arxiv_html");
    let mut images = Vec::new();
    for entry in walkdir::WalkDir::new(&dir).sort_by_file_name() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().to_string();
        if name.ends_with(".png") && !name.contains("ar5iv") && !name.contains("icon") {
            images.push((name, std::fs::read(entry.path()).unwrap()));
        }
    }
    let shape = paperboy::review::figure::Shape {
        width,
        ..Default::default()
    };
    let start = std::time::Instant::now();
    let rounds = 10;
    let mut sizes = Vec::new();
    for round in 0..rounds {
        for (name, bytes) in &images {
            let t = paperboy::review::figure::thumbnail(bytes, shape).unwrap();
            if round == 0 {
                println!(
                    "{name:<20} {:>4} x {:<4} {:>6} bytes",
                    t.width,
                    t.height,
                    t.bytes.len()
                );
                sizes.push(t.bytes.len());
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    sizes.sort_unstable();
    let input: usize = images.iter().map(|(_, b)| b.len()).sum();
    println!(
        "{} images ({} KB of PNG) at {width} px: {:.1} thumbnails/s on one core; median {:.1} KB, largest {:.1} KB",
        images.len(),
        input / 1000,
        (images.len() * rounds) as f64 / secs,
        sizes[sizes.len() / 2] as f64 / 1000.0,
        sizes[sizes.len() - 1] as f64 / 1000.0
    );
}
