# SPDX-License-Identifier: GPL-2.0
# bw.gp - bandwidth against the number of threads (plot bw-threads) or the
# access size (plot bw-size): one colour per series (an op, or an op and
# whatever else varies), one dash pattern per bandwidth (total, read,
# write).
#
# Data: `lattester-ctl plot bw-threads|bw-size` turns the --mode bandwidth
# rows of a sweep CSV into blocks, one per series, separated by two blank
# lines, each sorted by x, with the columns
#   x total read write   (GB/s of all the threads together)
# Variables:
#   infile     that file (required)
#   nseries    blocks in it; series_1 ... series_N their titles
#   xname      "threads" (default) or "size" (bytes, log scale)
#   gbps       bandwidths to draw, e.g. "total" (default), "read write"
#   subtitle   what every point shares (target, cpu, ...)
#   user_note  --note: a line of the caller's under the plot
if (!exists("infile")) print "bw.gp: set infile"; exit status 1
if (!exists("nseries")) nseries = 1
if (!exists("xname")) xname = "threads"
if (!exists("gbps")) gbps = "total"
if (!exists("subtitle")) subtitle = ""

names = "x total read write"
col(s) = sum [k=1:words(names)] (word(names, k) eq s ? k : 0)
stitle(i) = exists(sprintf("series_%d", i)) ? value(sprintf("series_%d", i)) : sprintf("series %d", i)
# 64, 4K, 1M: binary units on a size axis; thread counts as they are
bytes(x) = x >= 1073741824 ? sprintf("%gG", x / 1073741824.0) : \
	x >= 1048576 ? sprintf("%gM", x / 1048576.0) : \
	x >= 1024 ? sprintf("%gK", x / 1024.0) : sprintf("%g", x)
xtic_of(x) = xname eq "size" ? bytes(x) : sprintf("%d", x)

set title "Bandwidth (" . gbps . ") against " . \
	(xname eq "size" ? "access size" : "threads") . \
	(subtitle eq "" ? "" : "\n" . subtitle)
if (xname eq "size") {
	set xlabel "access size (bytes, log scale)"
	set logscale x 2
	set offsets graph 0.02, graph 0.02, 0, 0
} else {
	set xlabel "threads"
	set offsets 0.25, 0.25, 0, 0
}
# one series: a colour per bandwidth; several: a colour per series
colour(i, j) = nseries == 1 ? j : i
ltitle(i, j) = stitle(i) eq "" ? word(gbps, j) : \
	words(gbps) == 1 ? stitle(i) : stitle(i) . " " . word(gbps, j)
# a series of 0 GB/s throughout (the writes of a load) would lie on the x
# axis over the others' zeros: not drawn, named in a note instead
notes = ""
nnotes = 0
do for [i=1:nseries] { do for [j=1:words(gbps)] { \
	stats infile index (i - 1) using (column(col(word(gbps, j)))) nooutput; \
	eval sprintf("zero_%d_%d = %d", i, j, STATS_max == 0 && STATS_min == 0); \
	if (value(sprintf("zero_%d_%d", i, j))) { \
		zeros = (exists("zeros") ? zeros . ", " : "") . ltitle(i, j) } } }
# every line 0: drawn after all (nothing else to hide, and gnuplot refuses
# a plot of nothing)
all_zero = 1
do for [i=1:nseries] { do for [j=1:words(gbps)] { all_zero = all_zero && value(sprintf("zero_%d_%d", i, j)) } }
if (all_zero) { do for [i=1:nseries] { do for [j=1:words(gbps)] { eval sprintf("zero_%d_%d = 0", i, j) } }; undefine zeros }
if (exists("zeros")) { notes = notes . "0 GB/s throughout, not drawn: " . zeros . "\n"; nnotes = nnotes + 1 }
if (exists("repeat_note")) { notes = notes . repeat_note . "\n"; nnotes = nnotes + 1 }
if (exists("user_note")) { notes = notes . user_note . "\n"; nnotes = nnotes + 1 }
if (nnotes > 0) { set bmargin 4 + 1.1 * nnotes; set label 99 notes at character 1, character (0.95 * nnotes + 0.4) left font ",9" }
is_zero(i, j) = value(sprintf("zero_%d_%d", i, j))
set ylabel "bandwidth of all threads (GB/s)"
if (all_zero) { set yrange [0:1] } else { set yrange [0:*] }
set grid xtics ytics
set key outside right top
plot for [i=1:nseries] for [j=1:words(gbps)] infile index (i - 1) \
	using 1:(is_zero(i, j) ? 1/0 : column(col(word(gbps, j)))):xtic(xtic_of($1)) with linespoints \
	lc colour(i, j) dt j pt 7 ps 0.8 lw 2 title (is_zero(i, j) ? "" : ltitle(i, j))
