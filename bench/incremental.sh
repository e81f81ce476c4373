#!/usr/bin/env bash
# Incremental build benchmark: a synthetic site of N papers is built with its last week held
# back and built twice (the second build leaves the standby a weekly site has), the week
# is added, and the next build is timed against a full build of the same
# content; the two outputs are compared byte for byte. Then the floor: what statting the
# content and writing the files the week changed cost without paperboy. Runs on a RAM
# disk (/dev/shm).
#
#   bench/incremental.sh 100000
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100000}
work=${BENCH_DIR:-/dev/shm/paperboy-incremental}
# A RAM disk holds what it is given until the machine restarts: the sites go when this ends.
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet --bin paperboy --example gen_site
bin=$PWD/target/release/paperboy
gen=$PWD/target/release/examples/gen_site
site=$work/site
rm -rf "$work"; mkdir -p "$work"
timed() { # label cmd...
  local label=$1; shift
  /usr/bin/time -o "$work/time" -f "%e %U %S %M" "$@" 2>"$work/log" >/dev/null
  read -r wall user sys rss <"$work/time"
  last_wall=$wall
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
# A snapshot of the site before the week, in hard links: a build never writes through a
# file, it replaces it.
cp -al "$site/public" "$work/before"
timed "incremental build" "$bin" --root "$site" -v build
incremental_wall=$last_wall
grep -E " ms " "$work/log" || true
timed "no-change build after it" "$bin" --root "$site" build
timed "full build (--full)" "$bin" --root "$site" -v build --full --output "$work/full"
full_wall=$last_wall
# What the full build spent past reading the content: making and writing the output.
full_load=$(awk '/ ms .* load content/ { print $1 / 1000 }' "$work/log")
if diff -r "$site/public" "$work/full" >/dev/null; then echo "outputs identical"; else echo "OUTPUTS DIFFER"; exit 1; fi
printf "incremental / full: %.0f %%; 5 %% of the full build: %.2f s\n" \
  "$(echo "100 * $incremental_wall / $full_wall" | bc -l)" "$(echo "$full_wall / 20" | bc -l)"
# What any tool that builds this site incrementally must do, timed without paperboy: stat
# every content file, and write the files the week changed (whose bytes differ from the
# site before it) from memory, both on all cores.
stat_content() { # one find per folder, as many at a time as there are cores
  find "$site/content" -type d -print0 |
    xargs -0 -P"$(nproc)" -I{} find {} -maxdepth 1 -type f -printf '%s %T@\n' >/dev/null
}
seconds=$( { TIMEFORMAT=%R; time stat_content; } 2>&1 )
echo "floor: stat the $(find "$site/content" -type f | wc -l) content files (find): $seconds s"
if command -v python3 >/dev/null; then
  written=$(python3 bench/write_floor.py "$work/before" "$site/public" "$work/floor")
  echo "$written"
  write_seconds=$(echo "$written" | sed -n 's/.*from memory: \([0-9.]*\) s$/\1/p')
  floor=$(echo "$seconds + $write_seconds" | bc -l)
  # Both of the week's targets side by side: the floor can itself be more than 5 % of a
  # full build, and then no incremental build, however lean, meets that one.
  printf "floor: %.2f s; incremental / floor: %.1fx (2x asked); floor / full build: %.1f %%\n" \
    "$floor" "$(echo "$incremental_wall / $floor" | bc -l)" "$(echo "100 * $floor / $full_wall" | bc -l)"
  # A build that made the week's files at its own full build's cost per byte of output
  # (what the full build spent past loading the content), and statted the content, would
  # take this share of the full build: where the 5 % target stands against the share of
  # the output a week changes.
  share=$(echo "$written" | sed -n 's/.*week changed \([0-9.]*\) % of the output.*/\1/p')
  at_rate=$(echo "($full_wall - $full_load) * $share / 100" | bc -l)
  printf "at the full build's cost per byte: %.2f s for the week's %s %% + %.2f s stat = %.2f s, %.1f %% of the full build\n" \
    "$at_rate" "$share" "$seconds" "$(echo "$at_rate + $seconds" | bc -l)" \
    "$(echo "100 * ($at_rate + $seconds) / $full_wall" | bc -l)"
else
  echo "floor: skipped (no python3)"
fi
