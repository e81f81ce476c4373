#!/usr/bin/env bash
# What one search downloads: builds the synthetic site of N papers and runs queries with
# the site's own search.js in Node (tests/browser/search_query.mjs), printing matches,
# requests and bytes (raw and gzip, as a static host serves them) per query.
#
#   bench/search.sh 10000 100000
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin paperboy --example gen_site
work=${BENCH_DIR:-/dev/shm/paperboy-search-bench}
# A RAM disk holds what it is given until the machine restarts: the sites go when this ends.
trap 'rm -rf "$work"' EXIT
queries=("byzantine consensus" "consensus" "framework gpu scheduling" "byzantin" "rossi23")
for N in "${@:-10000}"; do
  rm -rf "$work"; mkdir -p "$work"
  target/release/examples/gen_site "$N" "$work/site" 2>/dev/null
  target/release/paperboy --root "$work/site" -q build
  printf "%s papers: search/ holds %s in %s files\n" "$N" "$(du -sh "$work/site/public/search" | cut -f1)" "$(find "$work/site/public/search" -type f | wc -l)"
  for q in "${queries[@]}"; do
    node tests/browser/search_query.mjs "$work/site/public/search/" "$work/site/public/search.js" "$q" |
      python3 -c 'import json,sys; d=json.load(sys.stdin); w=d["download"]; print("  %-26s %7d papers %3d requests %8.1f KB %7.1f KB gzip %6.1f ms" % (sys.argv[1], d["total"], w["requests"], w["bytes"]/1024, w["gzip"]/1024, d["ms"]))' "$q"
  done
done
