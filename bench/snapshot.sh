#!/usr/bin/env bash
# What `paperboy snapshot` costs against the floor of archiving the same folder by hand:
# for each size, a synthetic site (bench/gen_site.rs) on a RAM disk is built, then
# snapshot (which brings the build up to date, as `paperboy build` would, here with
# nothing to do, and writes the .tar.gz and the .warc.gz) is timed with its peak memory,
# beside `tar czf` of the built folder (one gzip, on one core).
#
#   bench/snapshot.sh 10000 100000        (BENCH_DIR=/dev/shm/pbsnap by default)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin paperboy --example gen_site
bin="$PWD/target/release/paperboy"
gen="$PWD/target/release/examples/gen_site"
base="${BENCH_DIR:-/dev/shm/pbsnap}"
for n in "$@"; do
  site="$base/site-$n"
  rm -rf "$site" "$base/out-$n" "$base/tar-$n.tar.gz"
  "$gen" "$n" "$site" 2>/dev/null
  cp -r themes "$site/"
  /usr/bin/time -f "%e s %M KiB" -o "$base/build.time" "$bin" --root "$site" -q build --full
  files=$(find "$site/public" -type f | wc -l)
  mb=$(du -sm "$site/public" | cut -f1)
  /usr/bin/time -f "%e s %M KiB" -o "$base/snap.time" "$bin" --root "$site" -q snapshot --out "$base/out-$n"
  /usr/bin/time -f "%e s %M KiB" -o "$base/tar.time" tar czf "$base/tar-$n.tar.gz" -C "$site" public
  echo "$n papers: $files files, $mb MB built"
  echo "  build --full:   $(cat "$base/build.time")"
  echo "  snapshot:       $(cat "$base/snap.time")  (the build brought up to date, then the .tar.gz and the .warc.gz)"
  echo "  tar czf:        $(cat "$base/tar.time")"
  ls -l "$base/out-$n" "$base/tar-$n.tar.gz" | awk 'NF > 5 {print "  " $5 " bytes  " $NF}'
  rm -rf "$site" "$base/out-$n" "$base/tar-$n.tar.gz"
done
