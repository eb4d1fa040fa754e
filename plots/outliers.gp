# SPDX-License-Identifier: GPL-2.0
# outliers.gp - every outlier of a run against the time since its start,
# coloured by its cause (methodology.md 8.1); in files without causes,
# outliers whose window saw an NMI are drawn apart (the kernel engine's
# data only: the user engine keeps no interrupt out).
#
# Data: a `lattester-ctl run --outliers FILE.csv` file: '#' comment lines,
# then the header sample,time_ns,offset,cycles,raw_cycles,ns,window,nmi
# and, since issue 26, cause.
# Variables: infile (required), subtitle, threshold_ns (a line at the
# threshold, if > 0), nmi_known (0: the user engine's file, "nmi
# unavailable": no NMI marker; default 1), ncauses, cause_col and
# cause1..causeN (the causes present, in their order; none: a file
# without causes), user_note (--note: a line under the plot).
if (!exists("infile")) print "outliers.gp: set infile"; exit status 1
if (!exists("subtitle")) subtitle = ""
if (!exists("threshold_ns")) threshold_ns = 0
if (!exists("nmi_known")) nmi_known = 1
if (!exists("ncauses")) ncauses = 0
# a colour per cause: the memory's own (none seen) dark, the machine's
# interference warm, interrupts blue, what is unexplained grey
cause_colour(c) = c eq "none seen" ? "#000000" : \
	c eq "preempted" ? "#d62728" : c eq "steal" ? "#ff7f0e" : \
	c eq "smi" ? "#8c564b" : c eq "nmi" ? "#9467bd" : \
	c eq "irq:timer" ? "#1f77b4" : c[1:4] eq "irq:" ? "#17becf" : \
	c eq "softirq" ? "#2ca02c" : c eq "fault" ? "#bcbd22" : \
	c eq "gap" ? "#e377c2" : c eq "after" ? "#f7b6d2" : \
	c eq "unassigned" ? "#7f7f7f" : "#c7c7c7"
cause(i) = value(sprintf("cause%d", i))

set datafile separator ","
set datafile columnheaders
# the latencies: the smallest above 0, the largest, how many are 0
stats infile using ($6 > 0 ? $6 : 1e300) nooutput
y_min = STATS_min < 1e300 ? STATS_min : 1
stats infile using 6 nooutput
y_max = STATS_max > y_min ? STATS_max : y_min
stats infile using ($6 <= 0 ? 1 : 0) nooutput
y_zeros = STATS_sum
if (threshold_ns > 0 && threshold_ns < y_min) { y_min = threshold_ns }

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
y_floor = y_zeros > 0 ? nice_below(y_min / 3) : 0

set title "Outliers over time" . (subtitle eq "" ? "" : "\n" . subtitle)
set xlabel "time since the run's start (ms)"
set ylabel "latency of the sample (timer overhead subtracted; log scale)"
set logscale y
set yrange [(y_zeros > 0 ? y_floor : y_min) / 1.3 : y_max * 1.3]
log_axis = "y"; log_lo = y_min / 1.3; log_hi = y_max * 1.3; log_unit = "ns"; log_zero = y_floor
eval LOG_TICS
eval FLOOR_LINE
if (y_zeros > 0) { notes = notes . "latencies of 0 drawn on the floor line marked 0 (a log axis has no 0)\n"; nnotes = nnotes + 1 }
if (!nmi_known && ncauses == 0) { notes = notes . "user engine: interrupts were not kept out and NMIs are not seen, so no outlier is flagged as an NMI's\n"; nnotes = nnotes + 1 }
if (ncauses > 0) { notes = notes . "colour: each outlier's cause, what happened in its window (methodology.md 8.1); none seen: nothing did, the memory's own\n"; nnotes = nnotes + 1 }
if (exists("user_note")) { notes = notes . user_note . "\n"; nnotes = nnotes + 1 }
eval NOTES
set grid xtics ytics
set key top left box opaque Left reverse
if (threshold_ns > 0) {
	set arrow 1 from graph 0, first threshold_ns to graph 1, first threshold_ns \
		nohead dt 2 lc rgb "#555555"
	set label 1 sprintf("threshold %.1f ns", threshold_ns) \
		at graph 0.01, first threshold_ns left offset 0, -0.8 tc rgb "#555555"
}
lifted(v) = v > 0 ? v : y_floor
if (ncauses > 0) {
	plot for [i = 1:ncauses] infile \
		using ($2 / 1e6):(strcol(cause_col) eq cause(i) ? lifted($6) : 1/0) \
		with points pt 7 ps 0.7 lc rgb cause_colour(cause(i)) title cause(i)
} else {
	if (nmi_known) {
		plot infile using ($2 / 1e6):($8 == 0 ? lifted($6) : 1/0) \
			with points pt 7 ps 0.6 lc rgb "#1f77b4" title "outlier", \
		     infile using ($2 / 1e6):($8 != 0 ? lifted($6) : 1/0) \
			with points pt 6 ps 1.2 lw 2 lc rgb "#d62728" title "outlier in a window with an NMI"
	} else {
		plot infile using ($2 / 1e6):(lifted($6)) \
			with points pt 7 ps 0.6 lc rgb "#1f77b4" title "outlier"
	}
}
