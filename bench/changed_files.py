"""What a build changed: the files of AFTER that BEFORE lacks or holds with other bytes,
and the files of BEFORE that AFTER lacks (bench/publish.sh: what a publish has to send).

    python3 bench/changed_files.py BEFORE AFTER
"""
import os, sys
before, after = sys.argv[1], sys.argv[2]
def files(root):
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            out[os.path.relpath(p, root)] = p
    return out
b, a = files(before), files(after)
changed = [r for r, p in a.items() if r not in b or open(p, 'rb').read() != open(b[r], 'rb').read()]
gone = [r for r in b if r not in a]
print(f"the week changed or added {len(changed)} files ({sum(os.path.getsize(a[r]) for r in changed)} bytes) and removed {len(gone)}")
