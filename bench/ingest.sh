#!/usr/bin/env bash
# Streams a metadata snapshot of N records through `paperboy fetch --from` and prints
# records a second, MB a second and peak memory; BUILD=1 then builds the site it made.
# The file repeats the real snapshot lines of ../shared/fixtures/arxiv_snapshot with fresh
# ids, 20,000 a month (bench/snapshot_lines.py). The content goes to a RAM disk
# (BENCH_DIR, /dev/shm); a 1M-paper site's output (~20 GB) goes to OUT (target/ on disk).
#
#   bench/ingest.sh 1000000
#   GZ=1 BUILD=1 bench/ingest.sh 100000
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
fixture=${FIXTURE:-../shared/fixtures/arxiv_snapshot/kaggle_arxiv_metadata_first200.jsonl}
[ -f "$fixture" ] || { echo "ingest.sh: $fixture is missing (FIXTURE=path)" >&2; exit 2; }
work=${BENCH_DIR:-/dev/shm/paperboy-ingest}
out=${OUT:-$PWD/target/ingest-public}
manifest=$(dirname "$out")/.$(basename "$out").manifest
trap 'rm -rf "$work" "$out" "$manifest"' EXIT
cargo build --release --quiet --bin paperboy
bin=$PWD/target/release/paperboy
rm -rf "$work" "$out" "$manifest"; mkdir -p "$work/site"
cp -r themes "$work/site/"
printf 'title = "Snapshot bench"\nbase_url = "https://example.org/"\n' >"$work/site/paperboy.toml"
file=$work/snapshot.jsonl
python3 bench/snapshot_lines.py "$fixture" "$n" >"$file"
if [ "${GZ:-0}" = 1 ]; then gzip -1 "$file"; file=$file.gz; fi
bytes=$(stat -c %s "$file")
raw=$bytes
[ "${GZ:-0}" = 1 ] && raw=$(gzip -dc "$file" | wc -c)
/usr/bin/time -o "$work/time" -f "%e %U %S %M" "$bin" -q --root "$work/site" fetch --from "$file"
read -r wall user sys rss <"$work/time"
papers=$(find "$work/site/content/papers" -type f | wc -l)
digests=$(find "$work/site/content/digests" -type f | wc -l)
echo "ingest: $n lines, $((raw / 1000000)) MB ($((bytes / 1000000)) MB read) -> $papers papers, $digests digests"
echo "ingest: ${wall} s wall, $(echo "$user + $sys" | bc) s CPU, peak $((rss / 1024)) MiB"
echo "ingest: $(echo "$n / $wall" | bc) records/s, $(echo "$raw / 1000000 / $wall" | bc) MB/s"
echo "ingest: all of arXiv (2.9M records) at this rate: $(echo "2900000 / ($n / $wall)" | bc) s"
# The floors: the content it wrote copied with `cp -r` (as the build's benchmarks do), and
# written from memory with plain writes on every core (bench/write_floor.py).
/usr/bin/time -o "$work/time" -f "%e" cp -r "$work/site/content" "$work/floor"
echo "floor: cp -r of content/: $(cat "$work/time") s"
rm -rf "$work/floor"
mkdir -p "$work/empty"
python3 bench/write_floor.py "$work/empty" "$work/site/content" "$work/floor" | sed -n 1p | sed 's/^.*from memory: /floor: plain writes from memory: /'
rm -rf "$work/floor"
if [ "${BUILD:-0}" = 1 ]; then
  sync
  /usr/bin/time -o "$work/time" -f "%e %U %S %M" "$bin" -q --root "$work/site" build --full --output "$out"
  read -r wall user sys rss <"$work/time"
  echo "build: ${wall} s wall, $(echo "$user + $sys" | bc) s CPU, peak $((rss / 1024)) MiB, $(find "$out" -type f | wc -l) files, $(du -sh "$out" | cut -f1)"
fi
