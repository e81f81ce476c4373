#!/usr/bin/env bash
# Kills fetch and build with SIGKILL at random moments and checks what each kill left:
# temporaries, a site that no longer builds, a public/ that is not whole. Prints one line
# per command with the counts. Not a test: it takes minutes and its figures go in notes.
#
#   bench/kills.sh [FETCH_KILLS] [BUILD_KILLS]     (defaults 50 and 100)
#
# Needs ../shared/fixtures/feeds (the example's feeds) and a release build of paperboy.
set -euo pipefail
cd "$(dirname "$0")/.."
fetch_kills=${1:-50}
build_kills=${2:-100}
bin=$PWD/target/release/paperboy
[ -x "$bin" ] || cargo build --release --quiet
feeds=$PWD/../shared/fixtures/feeds
[ -d "$feeds" ] || { echo "kills.sh: $feeds is missing" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
RANDOM=25   # the same moments every run

# The example's feeds, as "How the example content was made" lists them.
mkdir -p "$work/feeds"
for f in arxiv_api/api_2016-10_query_au_del_maestro_10entries.xml \
  arxiv_api/api_2025-08_idlist_4ids_missing_blank_entries.xml \
  arxiv_api/api_2026-04_idlist_2104.12255v1_title_is_0.xml \
  arxiv_api/api_2026-04_query_all-testing_100entries.xml \
  arxiv_api/api_2026-05_idlist_astro-ph_0601001_oldstyle_id.xml \
  arxiv_rss/arxiv_atom_cs.AI_2025-08-20_86entries.xml \
  arxiv_rss/arxiv_rss_20archives_2024-11-28_sliceA_70items.xml \
  general/biorxiv_bioinformatics_2025-04-13_rss1.xml \
  general/nature_subject_bioinformatics_2025-03-19_atom.xml \
  general/oup_bioinformatics_openaccess_2025-03-22_rss2.xml; do
  cp "$feeds/$f" "$work/feeds/"
done

temporaries() { { find "$1/content" -name '.paperboy-*.tmp' 2>/dev/null || true; } | wc -l; }

# Kills `paperboy ARGS` after a random 0-`max_ms` ms; prints "landed" when the run was
# still going when the signal came.
kill_at_random() {
  local site=$1 max_ms=$2
  shift 2
  local ms=$((RANDOM % max_ms))
  "$bin" -q --root "$site" "$@" >/dev/null 2>&1 &
  local pid=$!
  sleep "$(printf '0.%03d' "$ms")"
  if kill -9 "$pid" 2>/dev/null; then echo landed; fi
  wait "$pid" 2>/dev/null || true
}

site=$work/site
mkdir -p "$site"
cp -r themes paperboy.toml "$site/"

# fetch: each kill on an empty site, so that every kill meets the 333 papers' writes.
landed=0 left=0 left_after=0 broken=0
for _ in $(seq "$fetch_kills"); do
  rm -rf "$site/content"
  [ "$(kill_at_random "$site" 600 fetch --from "$work/feeds")" = landed ] && landed=$((landed + 1))
  left=$((left + $(temporaries "$site")))
  "$bin" -q --root "$site" fetch --from "$work/feeds" >/dev/null 2>&1 || true
  left_after=$((left_after + $(temporaries "$site")))
  "$bin" -q --root "$site" check >/dev/null 2>&1 || broken=$((broken + 1))
done
echo "fetch: $fetch_kills kills, $landed mid-run; temporaries left by the kills: $left, after the next fetch: $left_after; sites that failed check: $broken"

# build: the same content each time; public/ must be the last build's or the new one.
"$bin" -q --root "$site" build --full
ref=$(cd "$site/public" && find . -type f | sort | xargs sha256sum | sha256sum)
landed=0 not_whole=0 left=0
for _ in $(seq "$build_kills"); do
  [ "$(kill_at_random "$site" 400 build)" = landed ] && landed=$((landed + 1))
  now=$(cd "$site/public" && find . -type f | sort | xargs sha256sum | sha256sum)
  [ "$now" = "$ref" ] || not_whole=$((not_whole + 1))
  left=$((left + $(find "$site" -maxdepth 1 -name '.paperboy-*.tmp' | wc -l)))
done
"$bin" -q --root "$site" build
echo "build: $build_kills kills, $landed mid-run; public/ not the same whole site after a kill: $not_whole; temporaries at the site's top: $left"
