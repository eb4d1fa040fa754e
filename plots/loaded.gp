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
#   unsupported_note  the percentiles not drawn, too few samples (a note)
#   infile     that file (required)
#   nseries    blocks in it; series_1 ... series_N their titles
#   stats      percentiles to draw, e.g. "p50" (default), "p50 p99.9"
#              (more than one: a log latency axis)
#   y_min, y_max, y_zeros, y_floor   the drawn values (as in sweep.gp)
#   per, chain "access" or "load" (chase: the mean of chain dependent
#              loads, 0 if it varies) or "mixed"
#   subtitle   what every point shares (target, cpu, ...)
#   user_note  --note: a line of the caller's under the plot
#   disturbed_note  the points whose traffic lost its CPUs (duty cycle)
if (!exists("infile")) print "loaded.gp: set infile"; exit status 1
if (!exists("nseries")) nseries = 1
if (!exists("stats")) stats = "p50"
if (!exists("subtitle")) subtitle = ""
if (!exists("per")) per = "access"
if (!exists("chain")) chain = 0
if (!exists("y_min")) { stats infile using 4 nooutput; y_min = STATS_min > 0 ? STATS_min : 1; y_max = STATS_max; y_zeros = 0; y_floor = 0 }

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

names = "delay gbps min p50 p90 p99 p99.9 p99.99 p99.999 p99.9999 max mean"
col(s) = sum [k=1:words(names)] (word(names, k) eq s ? k : 0)
stitle(i) = exists(sprintf("series_%d", i)) ? value(sprintf("series_%d", i)) : sprintf("series %d", i)

set title "Loaded latency (" . stats . ") against bandwidth" . \
	(subtitle eq "" ? "" : "\n" . subtitle)
set xlabel "bandwidth of the other threads' traffic (GB/s)"
set xrange [0:*]
per_text = per eq "load" ? (chain > 0 ? sprintf("per load (mean of %d dependent loads)", chain) : \
	"per load (mean of the chain's dependent loads)") : \
	per eq "mixed" ? "per access; chase: per load" : "per access"
if (words(stats) > 1) {
	set ylabel "thread 0's latency " . per_text . " (overhead subtracted; log scale)"
	set logscale y
	set yrange [(y_zeros > 0 ? y_floor : y_min) / 1.3 : y_max * 1.3]
	log_axis = "y"; log_lo = y_min / 1.3; log_hi = y_max * 1.3; log_unit = "ns"; log_zero = y_zeros > 0 ? y_floor : 0
	eval LOG_TICS
	eval FLOOR_LINE
	if (y_zeros > 0) { notes = notes . sprintf("%d value%s of 0 drawn on the floor line marked 0, as a down triangle (a log axis has no 0)\n", y_zeros, y_zeros == 1 ? "" : "s"); nnotes = nnotes + 1 }
} else {
	set ylabel "thread 0's latency " . per_text . " (ns, timer overhead subtracted)"
	set yrange [0:*]
	y_floor = 0
}
if (per ne "access") { notes = notes . "chase: a sample times a chain of dependent loads; its figure is their mean, and p90 and above are percentiles of such means, not of single loads\n"; nnotes = nnotes + 1 }
if (exists("unsupported_note")) { notes = notes . unsupported_note . "\n"; nnotes = nnotes + 1 }
if (exists("disturbed_note")) { notes = notes . disturbed_note . "\n"; nnotes = nnotes + 1 }
if (exists("repeat_note")) { notes = notes . repeat_note . "\n"; nnotes = nnotes + 1 }
if (exists("user_note")) { notes = notes . user_note . "\n"; nnotes = nnotes + 1 }
eval NOTES
set grid xtics ytics
set key outside right top
# one series: a colour per percentile; several: a colour per series
colour(i, j) = nseries == 1 ? j : i
ltitle(i, j) = stitle(i) eq "" ? word(stats, j) : \
	words(stats) == 1 ? stitle(i) : stitle(i) . " " . word(stats, j)
lifted(v, f) = v > 0 ? v : (f > 0 ? f : v)
zero_at(v, f) = v <= 0 && f > 0 ? f : 1/0
zero_plots = y_floor == 0 ? "" : ", for [i=1:nseries] for [j=1:words(stats)] infile index (i - 1) using 2:(zero_at(column(col(word(stats, j))), y_floor)) with points lc colour(i, j) pt 11 ps 1.8 notitle"
plot for [i=1:nseries] for [j=1:words(stats)] infile index (i - 1) \
	using 2:(lifted(column(col(word(stats, j))), y_floor)) with linespoints \
	lc colour(i, j) dt j pt 7 ps 0.8 lw 2 title ltitle(i, j) \
	@zero_plots
