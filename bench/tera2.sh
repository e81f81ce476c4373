#!/usr/bin/env bash
# Tera 2 against Tera 1 (#22) on the synthetic site: the default theme's card, author line
# and paper page rendered for every paper by each engine, on one core (bench/tera2/), with
# paperboy's patched Tera 1 and with Tera 1 as crates.io has it. Then whole builds of the
# same site with paperboy as it is and with the patch left out.
#
#   bench/tera2.sh [N]     (default 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}
work=${BENCH_DIR:-/dev/shm/paperboy-tera2-bench}
target=$PWD/target/tera2-bench
cargo build --release --quiet --bin paperboy --example gen_site
rm -rf "$work" && mkdir -p "$work"
target/release/examples/gen_site "$n" "$work/site" >/dev/null 2>&1
echo "== templates, $n papers, one core (fastest of 3)"
cargo run --release --quiet --manifest-path bench/tera2/Cargo.toml --target-dir "$target" -- "$work/site"
cargo run --release --quiet --manifest-path bench/tera2/stock/Cargo.toml --target-dir "$target" -- "$work/site" | tail -n +3

# paperboy built without the patch: the [patch] table commented out in a copy of the repo.
stock=$work/stock-src
mkdir -p "$stock"
git ls-files -z | grep -zv '^bench/tera2/' | xargs -0 cp --parents -t "$stock"
sed -i 's/^\[patch.crates-io\]/# &/; s/^tera = { path = "vendor\/tera" }/# &/' "$stock/Cargo.toml"
(cd "$stock" && cargo build --release --quiet --bin paperboy --target-dir "$target/stock")
echo "== build --full, $n papers, both cores (fastest of 3, alternating)"
best() { sort -n | head -1; }
: >"$work/patched"; : >"$work/stock"
for _ in 1 2 3; do
  for which in patched stock; do
    bin=target/release/paperboy
    [ "$which" = stock ] && bin=$target/stock/release/paperboy
    s=$(date +%s.%N)
    "$bin" --root "$work/site" -q build --full
    echo "$(date +%s.%N) - $s" | bc >>"$work/$which"
  done
done
p=$(best <"$work/patched"); s=$(best <"$work/stock")
printf 'paperboy (patched Tera 1): %.2f s\npaperboy (stock Tera 1):   %.2f s  (%.2fx)\n' "$p" "$s" "$(echo "$s / $p" | bc -l)"
