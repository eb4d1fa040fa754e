#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tablecheck.py TABLE CHECK...: what gnuplot drew, from the `set table`
file gnuplot-spy writes (a "# Curve N of M, K points" block per plot, its
"# Curve title", then "x y type" rows: i in range, o out of range, u
undefined).  Titled curves are the lines of the legend; untitled ones the
markers a plot adds (the down triangles of a 0, the bars' 0 markers), but
for error bars (rows with ylow and yhigh), which are neither.
Checks, each one argument:
  all-in            every point of every titled curve is in range (i):
                    none vanished (u, as a 0 on a log axis does) or fell
                    off the axes (o)
  no-undefined      no point of a titled curve is undefined (u): none
                    vanished (points off a fixed range, o, may be)
  titled=N          the titled curves hold N points in all
  at:Y=N            N points of titled curves lie at y = Y (a floor)
  marks:Y=N         N points of untitled curves lie in range at y = Y
  cells:TITLE=X,Y;X,Y...   the points in range of the curve titled TITLE
                    are those at X,Y ... (each once; none: cells:TITLE=)
  colour:TITLE@X,Y=V       its point at X,Y has the colour value V (a
                    palette's: the column before the type)
  label:X,Y=TEXT    a curve of labels writes TEXT at X,Y
Prints one line per check; exit 0 if all hold, 1 if not."""
import sys


def curves(path):
    out, cur = [], None
    for line in open(path):
        line = line.strip()
        if line.startswith("# Curve") and " of " in line:
            cur = {"title": None, "points": [], "cols": ""}
            out.append(cur)
        elif line.startswith("# x y") and cur is not None:
            cur["cols"] = line
        elif line.startswith("# Curve title:") and cur is not None:
            cur["title"] = line.split(":", 1)[1].strip().strip('"')
        elif line and not line.startswith("#") and cur is not None:
            f = line.split()
            if len(f) >= 3:
                cur["points"].append((f[0], f[1], f[-1], f, line))
    return out


def near(a, b):
    try:
        return abs(float(a) - b) <= 1e-6 * max(1.0, abs(b))
    except ValueError:
        return False


def main(path, checks):
    cs = curves(path)
    titled = [c for c in cs if c["title"]]
    # untitled curves but error bars (their rows have ylow, yhigh)
    marks = [c for c in cs if not c["title"] and "ylow" not in c["cols"]]
    bad = 0
    for chk in checks:
        if chk == "all-in":
            off = [(c["title"], p) for c in titled for p in c["points"]
                   if p[2] != "i"]
            ok = not off and titled
            msg = "%d titled curves, all in range" % len(titled) if ok else \
                "not in range: %s" % off[:4]
        elif chk == "no-undefined":
            off = [(c["title"], p) for c in titled for p in c["points"]
                   if p[2] == "u"]
            n = sum(len(c["points"]) for c in titled)
            ok = not off and n > 0
            msg = "%d titled points, none undefined" % n if ok else \
                "undefined: %s" % off[:4]
        elif chk.startswith("titled="):
            n = sum(len(c["points"]) for c in titled)
            ok = n == int(chk[7:])
            msg = "%d titled points, want %s" % (n, chk[7:])
        elif chk.startswith("at:") or chk.startswith("marks:"):
            kind, rest = chk.split(":", 1)
            y, want = rest.split("=")
            pool = titled if kind == "at" else marks
            n = sum(1 for c in pool for p in c["points"]
                    if p[2] == "i" and near(p[1], float(y)))
            ok = n == int(want)
            msg = "%d %s points at y=%s, want %s" % (
                n, "titled" if kind == "at" else "marker", y, want)
        elif chk.startswith("cells:"):
            title, want = chk[6:].rsplit("=", 1)
            pts = [(float(p[0]), float(p[1])) for c in titled
                   if c["title"] == title for p in c["points"] if p[2] == "i"]
            exp = [tuple(float(v) for v in xy.split(","))
                   for xy in want.split(";") if xy]
            ok = sorted(pts) == sorted(exp) and \
                any(c["title"] == title for c in titled)
            msg = "curve %r in range at %s, want %s" % (title, sorted(pts),
                                                       sorted(exp))
        elif chk.startswith("colour:"):
            title, rest = chk[7:].rsplit("@", 1)
            xy, want = rest.split("=")
            x, y = (float(v) for v in xy.split(","))
            got = [p[3][-2] for c in titled if c["title"] == title
                   for p in c["points"] if p[2] == "i" and
                   near(p[0], x) and near(p[1], y)]
            ok = len(got) == 1 and near(got[0], float(want))
            msg = "curve %r at %s: colour %s, want %s" % (title, xy, got,
                                                         want)
        elif chk.startswith("label:"):
            xy, want = chk[6:].split("=", 1)
            x, y = (float(v) for v in xy.split(","))
            got = [p[4].split('"')[1] for c in marks for p in c["points"]
                   if p[4].count('"') >= 2 and near(p[0], x) and
                   near(p[1], y)]
            ok = want in got
            msg = "labels at %s: %s, want %r" % (xy, got, want)
        else:
            ok, msg = False, "unknown check " + chk
        print(("ok: " if ok else "FAIL: ") + msg)
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
