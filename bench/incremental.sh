#!/usr/bin/env bash
# Incremental build benchmark: a synthetic site of N papers is built with its last week held
# back and built twice (the second build leaves the standby a weekly site has), the week
# is added, and the next build is timed against a full build of the same
# content; the two outputs are compared byte for byte. Runs on a RAM disk (/dev/shm).
#
#   bench/incremental.sh 100000
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100000}
work=${BENCH_DIR:-/dev/shm/paperboy-incremental}
cargo build --release --quiet --bin paperboy --example gen_site
bin=$PWD/target/release/paperboy
gen=$PWD/target/release/examples/gen_site
site=$work/site
rm -rf "$work"; mkdir -p "$work"
timed() { # label cmd...
  local label=$1; shift
  /usr/bin/time -o "$work/time" -f "%e %U %S %M" "$@" 2>"$work/log" >/dev/null
  read -r wall user sys rss <"$work/time"
  printf "%-28s %8.2f s wall %8.2f s cpu %6.0f MiB peak   %s\n" "$label" "$wall" "$(echo "$user + $sys" | bc)" "$(echo "$rss / 1024" | bc)" "$(tail -1 "$work/log")"
}
"$gen" "$N" "$site" --without-last-week 2>&1
timed "full build, week held back" "$bin" --root "$site" build
# A site that is built every week has the site before the current one as its standby.
timed "no-change build" "$bin" --root "$site" build
before=$(find "$site/content/papers" -name '*.md' | wc -l)
"$gen" "$N" "$site" >/dev/null 2>&1
after=$(find "$site/content/papers" -name '*.md' | wc -l)
echo "added one week: $((after - before)) papers"
timed "incremental build" "$bin" --root "$site" -v build
grep -E " ms " "$work/log" || true
timed "full build (--full)" "$bin" --root "$site" build --full --output "$work/full"
if diff -r "$site/public" "$work/full" >/dev/null; then echo "outputs identical"; else echo "OUTPUTS DIFFER"; exit 1; fi
