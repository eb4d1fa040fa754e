# SPDX-License-Identifier: GPL-2.0
# loaded.gp - loaded latency, the curve Intel MLC's --loaded_latency draws:
# the latency of thread 0's accesses against the bandwidth the other
# threads drew meanwhile.  One colour per series (a target, op, thread
# count, ...), its points in order of the streaming threads' injection
# delay (the longest delay, the least traffic, first); one dash pattern per
# percentile.
#
# Data: `lattester-ctl plot loaded` turns the --mode loaded rows of a sweep
# CSV into blocks, one per series, separated by two blank lines, each
# sorted by delay, with the columns
#   delay gbps min p50 p90 p99 p99.9 p99.99 p99.999 p99.9999 max mean
# (delay in TSC cycles, gbps the traffic's total GB/s, the rest ns).
# Variables:
#   infile     that file (required)
#   nseries    blocks in it; series_1 ... series_N their titles
#   stats      percentiles to draw, e.g. "p50" (default), "p50 p99.9"
#              (more than one: a log latency axis)
#   subtitle   what every point shares (target, cpu, ...)
if (!exists("infile")) print "loaded.gp: set infile"; exit status 1
if (!exists("nseries")) nseries = 1
if (!exists("stats")) stats = "p50"
if (!exists("subtitle")) subtitle = ""

names = "delay gbps min p50 p90 p99 p99.9 p99.99 p99.999 p99.9999 max mean"
col(s) = sum [k=1:words(names)] (word(names, k) eq s ? k : 0)
stitle(i) = exists(sprintf("series_%d", i)) ? value(sprintf("series_%d", i)) : sprintf("series %d", i)

set title "Loaded latency (" . stats . ") against bandwidth" . \
	(subtitle eq "" ? "" : "\n" . subtitle)
set xlabel "bandwidth of the other threads' traffic (GB/s)"
set xrange [0:*]
if (words(stats) > 1) {
	set ylabel "latency per access of thread 0 (ns, timer overhead subtracted; log scale)"
	set logscale y
	set format y "%.0f"
} else {
	set ylabel "latency per access of thread 0 (ns, timer overhead subtracted)"
	set yrange [0:*]
}
set grid xtics ytics
set key outside right top
# one series: a colour per percentile; several: a colour per series
colour(i, j) = nseries == 1 ? j : i
ltitle(i, j) = stitle(i) eq "" ? word(stats, j) : \
	words(stats) == 1 ? stitle(i) : stitle(i) . " " . word(stats, j)
plot for [i=1:nseries] for [j=1:words(stats)] infile index (i - 1) \
	using 2:(column(col(word(stats, j)))) with linespoints \
	lc colour(i, j) dt j pt 7 ps 0.8 lw 2 title ltitle(i, j)
