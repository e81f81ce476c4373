#!/usr/bin/env bash
# What a reader downloads to open a week (issue #78, item 1): for K papers a week
# (bench/gen_site.rs --per-week K, three weeks, `build --full`), the bytes of the newest
# week's page and of the home page, raw and gzipped (-6, as a host serves them), and of
# the week's email (`paperboy email`, the files it writes; the goal is under 100,000 bytes
# as sent), and how long `paperboy email` took.
#
#   bench/week_pages.sh 86 300 2000 3000
#   BIN=path/to/paperboy GEN=path/to/gen_site bench/week_pages.sh 2000
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-86 300 2000 3000}")
work=${BENCH_DIR:-/dev/shm/paperboy-weeks}
trap 'rm -rf "$work"' EXIT
if [ -z "${BIN:-}" ] || [ -z "${GEN:-}" ]; then
  cargo build --release --quiet --bin paperboy --example gen_site
fi
bin=${BIN:-$PWD/target/release/paperboy}
gen=${GEN:-$PWD/target/release/examples/gen_site}
gz() { gzip -6 -c "$1" | wc -c; }
printf "%-8s %-28s %12s %12s\n" "a week" page bytes gzipped
for K in ${sizes[*]}; do
  rm -rf "$work"; mkdir -p "$work"
  "$gen" $((3 * K)) "$work/site" --per-week "$K" >/dev/null 2>&1
  printf '\n[email]\nfrom = "Bench <bench@example.org>"\nto = ["reader@example.org"]\n' >>"$work/site/paperboy.toml"
  "$bin" --root "$work/site" -q build --full
  site=$work/site/public
  # The newest week's page; the home page shows the newest week too.
  week=$(ls "$site/digests" | grep -E '^[0-9]{4}-W[0-9]{2}$' | sort | tail -1)
  papers=$(grep -c '^' <(grep -o '"[0-9]\{4\}\.[0-9]\{5\}"' "$work/site/content/digests/$week.md" | sort -u))
  for page in "digests/$week/index.html" index.html; do
    printf "%-8s %-28s %12d %12d\n" "$K" "$page" "$(stat -c %s "$site/$page")" "$(gz "$site/$page")"
  done
  if /usr/bin/time -o "$work/email-time" -f "%e" \
    "$bin" --root "$work/site" -q email --week "$week" --out "$work/email" >/dev/null 2>&1; then
    echo "$K: paperboy email took $(cat "$work/email-time") s"
    for f in "$work"/email/*; do
      printf "%-8s %-28s %12d %12s\n" "$K" "email/$(basename "$f")" "$(stat -c %s "$f")" "-"
    done
  else
    echo "$K: paperboy email failed for $week"
  fi
  echo "($week holds $papers papers)"
done
