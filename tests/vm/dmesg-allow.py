#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""dmesg-allow.py DMESG OUT: DMESG less the kernel warnings cases allow.

A case that drives the kernel into a known bug of its own, one the case
cannot avoid and the module has no part in, says so in its OUT directory's
dmesg-allow file: lines of REGEX<TAB>WHY.  A whole warning block of DMESG
(from "------------[ cut here ]------------" to "---[ end trace") that
matches REGEX (Python re.search over the block's text) is left out of
OUT, unless any line of it but "Modules linked in:" names lattester (a
frame, a log line of the module's): such a block is always kept.  Each
block left out is said on standard output, with the WHY.  The allow
lines are read from standard input.
"""
import re
import sys

def main():
    dmesg, out = sys.argv[1], sys.argv[2]
    allow = []
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        rx, _, why = line.partition("\t")
        allow.append((re.compile(rx), why or "no reason given"))
    lines = open(dmesg, errors="replace").read().split("\n")
    kept, i = [], 0
    while i < len(lines):
        if "------------[ cut here ]------------" not in lines[i]:
            kept.append(lines[i])
            i += 1
            continue
        j = i
        while j < len(lines) and "---[ end trace" not in lines[j]:
            j += 1
        block = lines[i:j + 1]
        text = "\n".join(block)
        ours = any("lattester" in l and "Modules linked in:" not in l
                   for l in block)
        hit = None if ours else next((w for r, w in allow if r.search(text)), None)
        if hit:
            first = next((l for l in block if "WARNING:" in l), block[0])
            print(f"allowed kernel warning ({hit}): {first.strip()}")
        else:
            kept.extend(block)
        i = j + 1
    open(out, "w").write("\n".join(kept))

if __name__ == "__main__":
    main()
