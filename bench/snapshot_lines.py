#!/usr/bin/env python3
"""Writes N lines shaped like arXiv's metadata snapshot: the real lines of a snapshot
excerpt (../shared/fixtures/arxiv_snapshot) repeated with fresh new-style ids, 20,000 a
month from January 2019 (arXiv's rate in 2024), each version's date moved into the id's
month with the gaps between versions kept.

    bench/snapshot_lines.py FIXTURE.jsonl N > out.jsonl
"""
import datetime as dt
import email.utils
import json
import sys

PER_MONTH = 20_000


def main():
    source, n = sys.argv[1], int(sys.argv[2])
    records = [json.loads(line) for line in open(source, encoding="utf-8") if line.strip()]
    out = sys.stdout
    for i in range(n):
        r = dict(records[i % len(records)])
        month, k = divmod(i, PER_MONTH)
        year, mon = 2019 + month // 12, 1 + month % 12
        r["id"] = f"{year % 100:02}{mon:02}.{k + 1:05}"
        dates = [email.utils.parsedate_to_datetime(v["created"]) for v in r["versions"]]
        first = dates[0]
        day = 1 + k * 28 // PER_MONTH
        moved = first.replace(year=year, month=mon, day=day)
        r["versions"] = [
            {"version": v["version"], "created": email.utils.format_datetime(moved + (d - first), usegmt=True)}
            for v, d in zip(r["versions"], dates)
        ]
        r["update_date"] = (moved + (dates[-1] - first)).date().isoformat()
        out.write(json.dumps(r, separators=(",", ":")))
        out.write("\n")


if __name__ == "__main__":
    main()
