#!/usr/bin/env python3
"""The write floor of an incremental build, timed without paperboy: writing, from memory
and on all cores, the files of AFTER whose bytes are not those of the same file in
BEFORE (new or changed) into a fresh folder DEST. Files are compared by content, not by
how the build kept them, so the figure holds for any tool that makes AFTER from BEFORE.

    bench/write_floor.py BEFORE AFTER DEST
"""

import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor

# Python lets go of its lock in open and write, so threads keep the cores busy in
# the kernel, where this time goes.
THREADS = os.cpu_count() or 1


def files_under(root):
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            yield os.path.join(folder, name)


def changed_files(before, after):
    """(relative path, bytes) of every file of `after` that `before` lacks or holds
    other bytes for, in path order; and the number and bytes of all of `after`'s files."""
    changed = []
    files = size = 0
    for path in files_under(after):
        files += 1
        size += os.path.getsize(path)
        rel = os.path.relpath(path, after)
        old = os.path.join(before, rel)
        try:
            # The same file: the build kept it, its bytes cannot differ.
            if os.path.samefile(path, old):
                continue
        except FileNotFoundError:
            pass
        with open(path, "rb") as f:
            data = f.read()
        try:
            with open(old, "rb") as f:
                if f.read() == data:
                    continue
        except FileNotFoundError:
            pass
        changed.append((rel, data))
    return changed, files, size


def timed_on_all_cores(work, items):
    """Seconds to run `work` on every item, spread over THREADS threads."""
    chunks = [items[i::THREADS] for i in range(THREADS)]
    with ThreadPoolExecutor(THREADS) as pool:
        start = time.perf_counter()
        list(pool.map(lambda chunk: [work(item) for item in chunk], chunks))
        return time.perf_counter() - start


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    before, after, dest = sys.argv[1:]
    for folder in (before, after):
        if not os.path.isdir(folder):
            sys.exit(f"write_floor.py: {folder} is not a folder")
    changed, all_files, all_size = changed_files(before, after)
    shutil.rmtree(dest, ignore_errors=True)
    for folder in sorted({os.path.dirname(rel) for rel, _ in changed}):
        os.makedirs(os.path.join(dest, folder), exist_ok=True)

    def write(item):
        rel, data = item
        with open(os.path.join(dest, rel), "wb") as f:
            f.write(data)

    seconds = timed_on_all_cores(write, changed)
    size = sum(len(data) for _, data in changed)
    print(
        f"floor: write the {len(changed):,} files the week changed "
        f"({size / 1e6:.0f} MB) from memory: {seconds:.2f} s"
    )
    by_folder = {}
    for rel, data in changed:
        top = rel.split(os.sep)[0] if os.sep in rel else "(top)"
        count, total = by_folder.get(top, (0, 0))
        by_folder[top] = (count + 1, total + len(data))
    print(
        "       by folder: "
        + "; ".join(
            f"{top} {count:,} files {total / 1e6:.1f} MB"
            for top, (count, total) in sorted(by_folder.items(), key=lambda t: -t[1][1])
        )
    )
    # The share of the output the week changed: a build that makes those files at its
    # full build's own cost per byte spends at least this share of a full build on them.
    print(
        f"floor: the week changed {100 * size / all_size:.1f} % of the output's "
        f"{all_size / 1e6:,.0f} MB and {100 * len(changed) / all_files:.1f} % of its "
        f"{all_files:,} files"
    )
    shutil.rmtree(dest, ignore_errors=True)


if __name__ == "__main__":
    main()
