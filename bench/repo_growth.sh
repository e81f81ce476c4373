#!/usr/bin/env bash
# What a field digest's weekly commit adds to its git repository, with the figures in git
# (today's layout, `init` for GitHub Pages) and kept out of it (`init --host s3`: the
# figures live in the workflow's cache and the bucket). Commits WEEKS weeks of PAPERS
# papers each to two scratch repositories, runs `git gc` after each week and prints the
# packed size; the growth per week is the difference between the last two weeks, so what
# git delta-compresses against earlier weeks counts as it would on GitHub.
#
#   bench/repo_growth.sh                 (2,000 papers a week, 3 weeks)
#   PAPERS=50 WEEKS=3 bench/repo_growth.sh   (a lab's site)
#
# The papers are the example's own (content/papers/*.md, with their [machine] reviews),
# each copy given a new id and its text fields' words shuffled (a seeded shuffle), so git
# can neither deduplicate a copy nor delta it against the paper it came from, while each file
# keeps a real paper's length, words and front matter. A figure is FIGURE_BYTES of random
# bytes: a WebP thumbnail is already compressed (zlib gains nothing on the example's two:
# 25,864 -> 25,845 bytes), and two figures share no runs for git's delta, so random bytes of
# the same size pack exactly as a new figure does. FIGURE_BYTES defaults to 12,000 (the
# issue's "12 KB figure"; the example's two are 25.9 KB and 7.4 KB) and FIGURE_SHARE, the
# papers that get one, to 7/8 ("most papers"; the issue's 21 MB of figures a 2,000-paper week).
set -euo pipefail
cd "$(dirname "$0")/.."
papers=${PAPERS:-2000}
weeks=${WEEKS:-3}
figure_bytes=${FIGURE_BYTES:-12000}
figure_share=${FIGURE_SHARE:-0.875}
work=${BENCH_DIR:-$(mktemp -d /tmp/paperboy-repo-growth.XXXXXX)}
trap 'rm -rf "$work"' EXIT

# Writes week $1's papers (and figures) into $2/content.
make_week() {
  python3 - "$1" "$2" "$papers" "$figure_bytes" "$figure_share" content/papers <<'PY'
import os, random, re, sys
week, root, n, fig_bytes, share, source = sys.argv[1:]
week, n, fig_bytes, share = int(week), int(n), int(fig_bytes), float(share)
examples = []
for d, _, files in sorted(os.walk(source)):
    for f in sorted(files):
        if f.endswith(".md"):
            examples.append(open(os.path.join(d, f), encoding="utf-8").read())
rng = random.Random(week)
quoted = re.compile(r'^(\w+ = )"(.{40,})"$')
for i in range(n):
    text = examples[i % len(examples)]
    old = re.search(r'^id = "([^"]+)"', text, re.M).group(1)
    yymm = f"{26 + (week - 1) // 12:02d}{(week - 1) % 12 + 1:02d}"
    new = f"{yymm}.{i:05d}"
    text = text.replace(old, new)
    lines = []
    for line in text.split("\n"):
        m = quoted.match(line)
        if m:
            words = m.group(2).split(" ")
            rng.shuffle(words)
            line = f'{m.group(1)}"{" ".join(words)}"'
        lines.append(line)
    text = "\n".join(lines)
    has_figure = rng.random() < share
    if has_figure:
        fig = f"figures/{yymm}/{new}.webp"
        text = re.sub(r'^figure = "figures/[^"]*"', f'figure = "{fig}"', text, flags=re.M)
        path = os.path.join(root, "content", fig)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(rng.randbytes(fig_bytes))
    path = os.path.join(root, "content/papers", yymm, f"{new}.md")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
PY
}

packed() { git -C "$1" count-objects -v | awk '/^size-pack:/ { print $2 * 1024 }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.2f MB", b / 1e6 }'; }

echo "$papers papers a week, $weeks weeks; figures: $figure_bytes bytes for $figure_share of the papers"
for layout in figures-in-git figures-out-of-git; do
  repo=$work/$layout
  git init -q "$repo"
  git -C "$repo" config user.name bench
  git -C "$repo" config user.email bench@example.org
  if [ "$layout" = figures-out-of-git ]; then
    printf '/content/figures/\n' > "$repo/.gitignore"
  fi
  previous=0
  for week in $(seq 1 "$weeks"); do
    make_week "$week" "$repo"
    git -C "$repo" add -A
    git -C "$repo" commit -q -m "week $week"
    git -C "$repo" gc -q
    now=$(packed "$repo")
    md=$(find "$repo/content/papers" -name '*.md' -printf '%s\n' | awk '{ s += $1 } END { print s }')
    figs=$(find "$repo/content" -name '*.webp' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
    printf '%-19s week %d: pack %s (+%s); content/ on disk: markdown %s, figures %s\n' \
      "$layout" "$week" "$(mb "$now")" "$(mb $((now - previous)))" "$(mb "$md")" "$(mb "$figs")"
    previous=$now
    last_growth=$((now - ${before_last:-0}))
    before_last=$now
  done
  printf '%-19s a week adds %s of git objects; a year (52 weeks) %s: what a fresh clone downloads\n' \
    "$layout" "$(mb "$last_growth")" "$(mb $((last_growth * 52)))"
  unset before_last
done
