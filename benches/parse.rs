//! Feed parsing speed on the real 100-entry arXiv API answer (the 2026 shape).
//! Run: `cargo bench --bench parse` (needs ../shared/fixtures/feeds).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use paperboy::sources::{ParseContext, parse_feed};
use std::hint::black_box;

// The allocator the paperboy binary runs with.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/fixtures/feeds/arxiv_api/api_2026-04_query_all-testing_100entries.xml"
    );
    let Ok(bytes) = std::fs::read(path) else {
        eprintln!("SKIPPED: {path} is missing");
        return;
    };
    let mut ctx = ParseContext::new("bench", "2026-11-22T00:00:00Z".parse().unwrap());
    let mut group = c.benchmark_group("arxiv_api_100_entries");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("bytes", |b| {
        b.iter(|| parse_feed(black_box(&bytes), None, &mut ctx).unwrap())
    });
    group.throughput(Throughput::Elements(100));
    group.bench_function("entries", |b| {
        b.iter(|| parse_feed(black_box(&bytes), None, &mut ctx).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
