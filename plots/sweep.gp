# SPDX-License-Identifier: GPL-2.0
# sweep.gp - latency percentiles against access size, stride or hotspot
# size: one colour per series (an op, or an op and whatever else varies),
# one dash pattern per percentile.
#
# Data: `lattester-ctl plot sweep` turns a sweep CSV into blocks, one per
# series, separated by two blank lines, each sorted by x, with the columns
#   x min p50 p90 p99 p99.9 p99.99 p99.999 p99.9999 max mean   (ns)
# Variables:
#   infile     that file (required)
#   nseries    blocks in it; series_1 ... series_N their titles
#   xname      "size", "stride" or "hotspot" (the x axis, bytes)
#   stats      percentiles to draw, e.g. "p50 p99" (default)
#   subtitle   what every point shares (target, cpu, ...)
if (!exists("infile")) print "sweep.gp: set infile"; exit status 1
if (!exists("nseries")) nseries = 1
if (!exists("xname")) xname = "size"
if (!exists("stats")) stats = "p50 p99"
if (!exists("subtitle")) subtitle = ""

names = "x min p50 p90 p99 p99.9 p99.99 p99.999 p99.9999 max mean"
col(s) = sum [k=1:words(names)] (word(names, k) eq s ? k : 0)
stitle(i) = exists(sprintf("series_%d", i)) ? value(sprintf("series_%d", i)) : sprintf("series %d", i)
xlabel_of(n) = n eq "stride" ? "stride (bytes, log scale)" : \
	n eq "hotspot" ? "hotspot size (bytes, log scale)" : \
	"access size (bytes, log scale)"
# 64, 4K, 1M: binary units on the x axis
bytes(x) = x >= 1073741824 ? sprintf("%gG", x / 1073741824.0) : \
	x >= 1048576 ? sprintf("%gM", x / 1048576.0) : \
	x >= 1024 ? sprintf("%gK", x / 1024.0) : sprintf("%g", x)

set title "Latency (" . stats . ") against " . xname . \
	(subtitle eq "" ? "" : "\n" . subtitle)
set xlabel xlabel_of(xname)
set ylabel "latency per access (ns, timer overhead subtracted; log scale)"
set logscale x 2
set logscale y
set format x "%.0f"
set format y "%.0f"
set grid xtics ytics
set key outside right top
set offsets graph 0.02, graph 0.02, 0, 0
# one series: a colour per percentile; several: a colour per series
colour(i, j) = nseries == 1 ? j : i
ltitle(i, j) = stitle(i) eq "" ? word(stats, j) : stitle(i) . " " . word(stats, j)
plot for [i=1:nseries] for [j=1:words(stats)] infile index (i - 1) \
	using 1:(column(col(word(stats, j)))):xtic(bytes($1)) with linespoints \
	lc colour(i, j) dt j pt (j == 1 ? 7 : 6) ps 0.8 lw 2 title ltitle(i, j)
