# SPDX-License-Identifier: GPL-2.0
# tail.gp - the tail of one run: latency against percentile, p50 to
# p99.9999, on a log scale of 1/(1-p) ("nines"), as far as the samples
# support (10 beyond a percentile: up to 1 - 10/N of N samples).
#
# Data: a `lattester-ctl run --hist FILE` file (see hist.gp).  A bucket
# holds the percentiles from the fraction of samples below it to
# cumulative_fraction; it is drawn as a step at the fraction below it.
# Variables: infile (required), subtitle, chain (the file's "chain K":
# lattester-ctl plot reads it; K > 1, a chase's, is per load), user_note
# (--note: a line under the plot).
if (!exists("infile")) print "tail.gp: set infile"; exit status 1
if (!exists("subtitle")) subtitle = ""
if (!exists("chain")) chain = 1

stats infile using 3 nooutput
N = STATS_sum
below(cum, n) = cum - n / N
nines(cum, n) = 1.0 / (1.0 - below(cum, n))
# run's rule (lattester-ctl's LATT_PCT_BEYOND): a percentile q needs 10
# samples beyond it, 10/(1-q) in all, so N samples support nines up to
# N/10; a bucket beyond is one of the few largest samples, not drawn
max_nines = N / 10.0
drawn(cum, n) = below(cum, n) < 1 && nines(cum, n) <= max_nines * 1.000001
# the latencies drawn (those of the supported buckets): the smallest
# above 0, the largest, and whether there is a 0
stats infile using (drawn($5, $3) && $4 > 0 ? $4 : 1e300) nooutput
y_min = STATS_min < 1e300 ? STATS_min : 1
stats infile using (drawn($5, $3) ? $4 : 0) nooutput
y_max = STATS_max > y_min ? STATS_max : y_min
stats infile using (drawn($5, $3) && $4 <= 0 ? 1 : 0) nooutput
y_zeros = STATS_sum
stats infile using (drawn($5, $3) ? 0 : 1) nooutput
cut = STATS_sum

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
y_floor = y_zeros > 0 ? nice_below(y_min / 3) : 0

set title "Tail latency" . (subtitle eq "" ? "" : "\n" . subtitle)
set xlabel "percentile (log scale of 1/(1-p))"
set ylabel "latency " . per_text . " (overhead subtracted; log scale)"
set logscale x
set logscale y
set xrange [2:1e6]
set xtics ("p50" 2, "p90" 10, "p99" 100, "p99.9" 1000, "p99.99" 10000, \
	   "p99.999" 100000, "p99.9999" 1000000)
set yrange [(y_zeros > 0 ? y_floor : y_min) / 1.3 : y_max * 1.3]
log_axis = "y"; log_lo = y_min / 1.3; log_hi = y_max * 1.3; log_unit = "ns"; log_zero = y_floor
eval LOG_TICS
eval FLOOR_LINE
if (y_zeros > 0) { notes = notes . "latencies of 0 drawn on the floor line marked 0 (a log axis has no 0)\n"; nnotes = nnotes + 1 }
if (chain > 1) { notes = notes . sprintf("chase: a sample times %d dependent loads; its figure is their mean, and so the percentiles are of such means, not of single loads\n", chain); nnotes = nnotes + 1 }
if (cut > 0) { notes = notes . sprintf("%.0f samples support percentiles up to %s (10 samples beyond each): %d bucket%s above it not drawn\n", N, pct_label(1 - 1 / max_nines)[1:strlen(pct_label(1 - 1 / max_nines)) - 1], cut, cut == 1 ? "" : "s"); nnotes = nnotes + 1 }
if (exists("user_note")) { notes = notes . user_note . "\n"; nnotes = nnotes + 1 }
eval NOTES
set grid xtics ytics
set key off
lifted(v) = v > 0 ? v : y_floor
plot infile using (drawn($5, $3) ? nines($5, $3) : 1/0):(lifted($4)) \
	with steps lw 2 lc rgb "#d62728", \
     infile using (drawn($5, $3) ? nines($5, $3) : 1/0):(lifted($4)) \
	with points pt 7 ps 0.4 lc rgb "#d62728"
