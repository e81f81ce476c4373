#!/usr/bin/env bash
# Where a built site's bytes go: builds synthetic sites of N papers (bench/gen_site.rs,
# `build --full`) and prints bytes and files per top-level folder, the total, and bytes a
# paper; then the largest files. The figures item 2 of issue #78 is judged by (10 KB a
# paper keeps 100,000 papers inside GitHub Pages' 1 GB).
#
#   bench/sizes.sh 10000 100000
#   BIN=path/to/paperboy GEN=path/to/gen_site bench/sizes.sh 10000   (another build's figures)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-10000}")
work=${BENCH_DIR:-/dev/shm/paperboy-sizes}
trap 'rm -rf "$work"' EXIT
if [ -z "${BIN:-}" ] || [ -z "${GEN:-}" ]; then
  cargo build --release --quiet --bin paperboy --example gen_site
fi
bin=${BIN:-$PWD/target/release/paperboy}
gen=${GEN:-$PWD/target/release/examples/gen_site}
for N in ${sizes[*]}; do
  rm -rf "$work"; mkdir -p "$work"
  "$gen" "$N" "$work/site" >/dev/null 2>&1
  "$bin" --root "$work/site" -q build --full
  site=$work/site/public
  echo "== $N papers: $site"
  printf "%-14s %14s %10s %12s\n" folder bytes files "bytes/paper"
  # Apparent sizes (what a host counts), not disk blocks.
  find "$site" -type f -printf '%s %P\n' | awk -v n="$N" '
    { split($2, p, "/"); top = (index($2, "/") ? p[1] "/" : "(top files)");
      bytes[top] += $1; files[top]++; total += $1; count++ }
    END {
      for (t in bytes) printf "%-14s %14.0f %10d %12.0f\n", t, bytes[t], files[t], bytes[t] / n | "sort -k2 -nr";
      close("sort -k2 -nr");
      printf "%-14s %14.0f %10d %12.0f\n", "total", total, count, total / n }'
  echo "largest files:"
  find "$site" -type f -printf '%s %P\n' | sort -nr | sed -n 1,5p
  # A paper page and what its head weighs, the first place item 2 looks.
  page=$(find "$site/papers" -mindepth 2 -name index.html -print -quit)
  head_bytes=$(LC_ALL=C awk '/<\/head>/ { print n + index($0, "</head>") + 6; exit } { n += length($0) + 1 }' "$page")
  echo "a paper page: $(stat -c %s "$page") bytes, $head_bytes of them before </head> ($page)"
done
