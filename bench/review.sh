#!/usr/bin/env bash
# Times `paperboy review` offline: N synthetic papers (bench/gen_site.rs), each with a saved
# HTML rendition (the arXiv pages of ../shared/fixtures/arxiv_html/ in turn, 590 KB on
# average; their images are not saved, so no thumbnail is made), extractive summaries and
# badges. Prints the wall and CPU time of the fastest of RUNS (3) runs, each with --force
# on the same site, and the HTML read per second. Thumbnails are timed apart by
# `cargo run --release --example thumbnails`.
#
#   bench/review.sh [N]          (default 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-2000}
html=$PWD/../shared/fixtures/arxiv_html
[ -d "$html" ] || { echo "review.sh: $html is missing" >&2; exit 2; }
work=${BENCH_DIR:-/dev/shm/paperboy-review-bench}
# A RAM disk holds what it is given until the machine restarts: the sites go when this ends.
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet --bin paperboy --example gen_site
bin=$PWD/target/release/paperboy
rm -rf "$work" && mkdir -p "$work"
target/release/examples/gen_site "$n" "$work/site" >/dev/null
# The LaTeXML pages, in name order; paper k gets page k mod their number.
mapfile -t pages < <(cd "$html" && grep -l 'ltx_document\|ltx_page_main' */index.html | sort)
k=0
bytes=0
while IFS= read -r file; do
  id=$(basename "$file" .md)
  page=$html/${pages[$((k % ${#pages[@]}))]}
  mkdir -p "$work/html/${id}v1"
  ln "$page" "$work/html/${id}v1/index.html" 2>/dev/null || cp "$page" "$work/html/${id}v1/index.html"
  bytes=$((bytes + $(stat -c %s "$page")))
  k=$((k + 1))
done < <(find "$work/site/content/papers" -name '*.md' | sort)
echo "$k papers, ${#pages[@]} pages in turn, $((bytes / 1000000)) MB of HTML"
best=""
for _ in $(seq "${RUNS:-3}"); do
  /usr/bin/time -o "$work/time" -f "%e %U %S %M" \
    "$bin" -q --root "$work/site" review --force --from "$work/html" --now 2026-11-24T00:00:00Z
  read -r wall user sys rss <"$work/time"
  if [ -z "$best" ] || [ "$(echo "$wall < $best" | bc)" = 1 ]; then
    best=$wall; cpu=$(echo "$user + $sys" | bc); peak=$rss
  fi
done
printf "review of %d papers: %.2f s wall, %.2f s CPU, %d MiB peak, %.0f MB/s of HTML\n" \
  "$k" "$best" "$cpu" "$((peak / 1024))" "$(echo "$bytes / 1000000 / $best" | bc -l)"
