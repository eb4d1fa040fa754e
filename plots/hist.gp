# SPDX-License-Identifier: GPL-2.0
# hist.gp - the latency histogram of one run: samples per cycle of each
# bucket's width, log scale.  The buckets are a cycle wide below 256
# cycles and wider above (log-linear, under 0.8% of their value): bare
# counts would step up at 256 where a smooth distribution does not, so
# each count is divided by its bucket's width.
#
# Data: a `lattester-ctl run --hist FILE` file: columns lo_cycles hi_cycles
# count corrected_ns_mid cumulative_fraction after '#' comment lines.
# Variables (lattester-ctl plot sets them; by hand: gnuplot -e "..."):
#   infile    the histogram file (required)
#   subtitle  what was measured: target, cpu, op, pattern, size
#   user_note  --note: a line of the caller's under the plot
#   chain     the file's "chain K" (K > 1: a chase's, per load)
# The terminal and output are set before this script runs, e.g.
#   gnuplot -e "infile='run.hist'; set terminal pngcairo; set output 'h.png'" hist.gp
if (!exists("infile")) print "hist.gp: set infile"; exit status 1
if (!exists("subtitle")) subtitle = ""
if (!exists("chain")) chain = 1

# the latencies: the smallest above 0, the largest, and the buckets at 0
stats infile using ($4 > 0 ? $4 : 1e300) nooutput
x_min = STATS_min < 1e300 ? STATS_min : 1
stats infile using 4 nooutput
x_max = STATS_max > x_min ? STATS_max : x_min
stats infile using ($4 <= 0 && $3 > 0 ? 1 : 0) nooutput
x_zeros = STATS_sum

# ---- units: the same block in every script with a log latency axis ----
# (tests/plots/run checks that the copies agree)
# ns_label(v): 500 ns, 1 µs, 2.5 µs, 10 ms, 1 s; pct_label(v): 0.01%
# (a mark's label is a format: its % doubled)
ns_label(v) = v >= 1e9 ? sprintf("%g s", v / 1e9) : \
	v >= 1e6 ? sprintf("%g ms", v / 1e6) : \
	v >= 1e3 ? sprintf("%g µs", v / 1e3) : sprintf("%g ns", v)
pct_label(v) = sprintf("%g%%%%", 100 * v)
# The marks of a log axis spanning span decades: 1, 2 and 5 a decade,
# finer over little more than one decade (so that 120 reads apart from
# 270); a horizontal axis's labels are wider: they count 1.6 times.
tic_mant(span) = span < 1.3 ? "1 1.2 1.5 2 2.5 3 4 5 6 7 8" : \
	span < 2.5 ? "1 1.5 2 3 5 7" : span < 5 ? "1 2 5" : \
	span < 8 ? "1 3" : "1"
tic_span(lo, hi, zero, axis) = log10(hi / (zero > 0 ? zero : lo)) * (axis eq "x" ? 1.6 : 1)
# nice_below(x): the largest 1, 2 or 5 times a power of ten not above x,
# where a 0 is drawn: nice_below(smallest value / 3)
dec(x) = 10.0 ** floor(log10(x))
nice_below(x) = x / dec(x) >= 5 ? 5 * dec(x) : x / dec(x) >= 2 ? 2 * dec(x) : dec(x)
# eval LOG_TICS: "set {log_axis}tics (...)", the marks from log_lo to
# log_hi labelled in log_unit ("ns" or "%"), and, if log_zero > 0, a mark
# "0" there: the floor line a 0 is drawn on (a log axis has no 0).
LOG_TICS = 'tics = ""; do for [e = floor(log10(log_lo)) : ceil(log10(log_hi))] { do for [m in tic_mant(tic_span(log_lo, log_hi, log_zero, log_axis))] { v = real(m) * 10.0 ** e; if (v >= log_lo * 0.999 && v <= log_hi * 1.001 && (log_zero <= 0 || v > log_zero * 1.9)) { tics = tics . sprintf("\"%s\" %.12g, ", log_unit eq "%" ? pct_label(v) : ns_label(v), v) } } }; if (log_zero > 0) { tics = tics . sprintf("\"0\" %.12g, ", log_zero) }; if (strlen(tics) > 2) { eval sprintf("set %stics (%s)", log_axis, tics[1:strlen(tics) - 2]) }'
# eval FLOOR_LINE: a dotted line across the plot at log_zero of log_axis
FLOOR_LINE = 'if (log_zero > 0) { if (log_axis eq "x") { eval sprintf("set arrow from first %.12g, graph 0 to first %.12g, graph 1 nohead dt 3 lc rgb \"#777777\" back", log_zero, log_zero) } else { eval sprintf("set arrow from graph 0, %s %.12g to graph 1, %s %.12g nohead dt 3 lc rgb \"#777777\" back", log_axis eq "y2" ? "second" : "first", log_zero, log_axis eq "y2" ? "second" : "first", log_zero) } }'
# notes: lines under the plot; eval NOTES once they are all in
notes = ""
nnotes = 0
NOTES = 'if (nnotes > 0) { set bmargin 4 + 1.1 * nnotes; set label 99 notes at character 1, character (0.95 * nnotes + 0.4) left font ",9" }'
# ---- end units ----
# chase: a sample times a chain of chain dependent loads; its figure, and
# every percentile, is of the chain's mean
per_text = chain > 1 ? sprintf("per load (mean of %d dependent loads)", chain) : "per access"
x_floor = x_zeros > 0 ? nice_below(x_min / 3) : 0

set title "Latency histogram" . (subtitle eq "" ? "" : "\n" . subtitle)
set xlabel "latency " . per_text . " (timer overhead subtracted; log scale)"
set ylabel "samples per cycle (bucket count / its width in cycles; log scale)"
set logscale xy
set xrange [(x_zeros > 0 ? x_floor : x_min) / 1.3 : x_max * 1.3]
log_axis = "x"; log_lo = x_min / 1.3; log_hi = x_max * 1.3; log_unit = "ns"; log_zero = x_floor
eval LOG_TICS
eval FLOOR_LINE
if (x_zeros > 0) { notes = notes . sprintf("%d bucket%s at 0 drawn on the floor line marked 0 (a log axis has no 0)\n", x_zeros, x_zeros == 1 ? "" : "s"); nnotes = nnotes + 1 }
if (chain > 1) { notes = notes . sprintf("chase: a sample times %d dependent loads; its figure is their mean, not a single load's latency\n", chain); nnotes = nnotes + 1 }
if (exists("user_note")) { notes = notes . user_note . "\n"; nnotes = nnotes + 1 }
eval NOTES
set format y "%g"
set grid xtics ytics mxtics
set key off
set style fill solid 0.6 border -1
# a bucket's density: its count over its width (raw cycles, hi - lo + 1)
density(lo, hi, n) = n / (hi - lo + 1.0)
stats infile using ($3 > 0 ? density($1, $2, $3) : 1e300) nooutput
y_lo = STATS_min < 1e300 ? STATS_min / 1.5 : 0.8
set yrange [y_lo:*]
# Buckets are log-linear, so impulses at each bucket's middle read best.
lifted(v) = v > 0 ? v : x_floor
plot infile using (lifted($4)):(density($1, $2, $3)) with impulses lw 3 lc rgb "#1f77b4", \
     infile using (lifted($4)):(density($1, $2, $3)) with points pt 7 ps 0.5 lc rgb "#1f77b4"
