# SPDX-License-Identifier: GPL-2.0
# sweep.gp - latency percentiles against access size, stride, hotspot or
# region size: one colour per series (an op, or an op and whatever else
# varies), one dash pattern per percentile; a sweep with a threshold
# also draws each series' outlier rate, on the right-hand axis.
#
# Data: `lattester-ctl plot sweep` turns a sweep CSV into blocks, one per
# series, separated by two blank lines, each sorted by x, with the columns
#   x min p50 p90 p99 p99.9 p99.99 p99.999 p99.9999 max mean rate
# (ns; rate: outliers / samples, "-" without a threshold); with repeats,
# then each of those columns' least and largest in turn (min_lo min_hi
# p50_lo p50_hi ...: the error bar; the point is their median)
# Variables:
#   unsupported_note  the percentiles not drawn, too few samples (a note)
#   infile     that file (required)
#   nseries    blocks in it; series_1 ... series_N their titles
#   xname      "size", "stride", "hotspot" or "region" (the x axis, bytes)
#   stats      percentiles to draw, e.g. "p50 p99" (default)
#   y_min, y_max, y_zeros, y_floor   the drawn values: the smallest above
#              0, the largest, how many are 0, and the floor a 0 is drawn
#              on (0: none)
#   rate       1: draw the outlier rate (y2_min ... y2_floor as for y)
#   per        "access" (default), "load" (chase: the mean of a chain of
#              chain loads) or "mixed"; chain: K, or 0 if it varies
#   subtitle   what every point shares (target, cpu, ...)
#   user_note  --note: a line of the caller's under the plot
#   repeats    the most times a point was measured (default 1: no error
#              bars); repeat_note says so under the plot
#   errbars    1: error bars from the columns after the figures (default:
#              repeats > 1): the repeats' least and largest, or each
#              figure's 95% interval (a sweep file with ns_lo_, ns_hi_)
#   baseline_note  says that some --ref lines are a plain pattern's points
#              (x 0: no hotspot or stride), drawn across as a baseline
#   nrefs      --ref lines; ref_1 ... their latencies (ns, within y_min
#              and y_max), ref_1_label ... their labels
if (!exists("infile")) print "sweep.gp: set infile"; exit status 1
if (!exists("nseries")) nseries = 1
if (!exists("xname")) xname = "size"
if (!exists("stats")) stats = "p50 p99"
if (!exists("subtitle")) subtitle = ""
if (!exists("rate")) rate = 0
if (!exists("repeats")) repeats = 1
if (!exists("errbars")) errbars = repeats > 1
if (!exists("per")) per = "access"
if (!exists("chain")) chain = 0
if (!exists("y2_floor")) { y2_floor = 0; y2_zeros = 0 }
if (!exists("y_min")) { stats infile using 3 nooutput; y_min = STATS_min > 0 ? STATS_min : 1; y_max = STATS_max; y_zeros = 0; y_floor = 0 }
stats infile using 1 nooutput
x_sparse = STATS_records / nseries > 12

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

names = "x min p50 p90 p99 p99.9 p99.99 p99.999 p99.9999 max mean rate"
col(s) = sum [k=1:words(names)] (word(names, k) eq s ? k : 0)
# repeats: the least and largest of figure s follow the figures
nfig = words(names) - 1
lo_col(s) = nfig + 2 * (col(s) - 1)
hi_col(s) = lo_col(s) + 1
stitle(i) = exists(sprintf("series_%d", i)) ? value(sprintf("series_%d", i)) : sprintf("series %d", i)
xlabel_of(n) = n eq "stride" ? "stride (bytes, log scale)" : \
	n eq "hotspot" ? "hotspot size (bytes, log scale)" : \
	n eq "region" ? "region: the memory the accesses spread over (bytes, log scale)" : \
	"access size (bytes, log scale)"
# 64, 4K, 1M: binary units on the x axis
bytes(x) = x >= 1073741824 ? sprintf("%gG", x / 1073741824.0) : \
	x >= 1048576 ? sprintf("%gM", x / 1048576.0) : \
	x >= 1024 ? sprintf("%gK", x / 1024.0) : sprintf("%g", x)
per_text = per eq "load" ? (chain > 0 ? sprintf("per load (mean of %d dependent loads)", chain) : \
	"per load (mean of the chain's dependent loads)") : \
	per eq "mixed" ? "per access; chase: per load" : "per access"

set title "Latency (" . stats . ") against " . xname . \
	(subtitle eq "" ? "" : "\n" . subtitle)
set xlabel xlabel_of(xname)
set ylabel "latency " . per_text . " (overhead subtracted; log scale)"
set logscale x 2
set logscale y
set format x "%.0f"
set yrange [(y_zeros > 0 ? y_floor : y_min) / 1.3 : y_max * 1.3]
log_axis = "y"; log_lo = y_min / 1.3; log_hi = y_max * 1.3; log_unit = "ns"; log_zero = y_zeros > 0 ? y_floor : 0
eval LOG_TICS
eval FLOOR_LINE
if (y_zeros > 0) { notes = notes . sprintf("%d value%s of 0 drawn on the floor line marked 0, as a down triangle (a log axis has no 0)\n", y_zeros, y_zeros == 1 ? "" : "s"); nnotes = nnotes + 1 }
if (per ne "access") { notes = notes . "chase: a sample times a chain of dependent loads; its figure is their mean, and p90 and above are percentiles of such means, not of single loads\n"; nnotes = nnotes + 1 }
if (rate) {
	set y2label "outlier rate (share of samples above the threshold; log scale)"
	set logscale y2
	set y2range [(y2_zeros > 0 ? y2_floor : y2_min) / 1.3 : y2_max * 1.3]
	set ytics nomirror
	log_axis = "y2"; log_lo = y2_min / 1.3; log_hi = y2_max * 1.3; log_unit = "%"; log_zero = y2_zeros > 0 ? y2_floor : 0
	eval LOG_TICS
	eval FLOOR_LINE
	if (y2_zeros > 0) { notes = notes . sprintf("%d outlier rate%s of 0 drawn on the right axis's floor line marked 0\n", y2_zeros, y2_zeros == 1 ? "" : "s"); nnotes = nnotes + 1 }
}
if (exists("unsupported_note")) { notes = notes . unsupported_note . "\n"; nnotes = nnotes + 1 }
if (exists("repeat_note")) { notes = notes . repeat_note . "\n"; nnotes = nnotes + 1 }
if (exists("baseline_note")) { notes = notes . baseline_note . "\n"; nnotes = nnotes + 1 }
if (exists("user_note")) { notes = notes . user_note . "\n"; nnotes = nnotes + 1 }
eval NOTES
# --ref: dashed lines at reference latencies (a published figure), each
# labelled at its left end
if (!exists("nrefs")) nrefs = 0
do for [k = 1:nrefs] { \
	rv = value(sprintf("ref_%d", k)); \
	eval sprintf("set arrow %d from graph 0, first %.12g to graph 1, first %.12g nohead dt 2 lw 1.5 lc rgb '#b00000' front", 100 + k, rv, rv); \
	eval sprintf("set label %d \"%s\" at graph 0.01, first %.12g offset 0, 0.6 left font ',9' front boxed tc rgb '#b00000'", 100 + k, value(sprintf("ref_%d_label", k)), rv) }
if (nrefs > 0) { set style textbox opaque noborder margins 1, 1 }
set grid xtics ytics
set key outside right top
set datafile missing "-"
set offsets graph 0.02, graph 0.02, 0, 0
# more than 12 points a line: a label at every other power of two only
xtic_of(x) = !x_sparse || int(floor(log(x) / log(2) + 0.5)) % 2 == 0 ? bytes(x) : ""
# one series: a colour per percentile; several: a colour per series
colour(i, j) = nseries == 1 ? j : i
ltitle(i, j) = stitle(i) eq "" ? word(stats, j) : stitle(i) . " " . word(stats, j)
# a 0 on the log axis: on the floor line, and a down triangle there
lifted(v, f) = v > 0 ? v : (f > 0 ? f : 1/0)
zero_at(v, f) = v <= 0 && f > 0 ? f : 1/0
# the zeros' triangles and the outlier rates, where there are any (a
# rate in dark grey beside one series' colours, else in the series')
rate_lc = nseries == 1 ? "lc rgb '#333333'" : "lc i"
zero_plots = y_zeros == 0 ? "" : ", for [i=1:nseries] for [j=1:words(stats)] infile index (i - 1) using 1:(zero_at(column(col(word(stats, j))), y_floor)) with points lc colour(i, j) pt 11 ps 1.8 notitle"
# the rate: a dash pattern and a point of its own, after the percentiles'
# (p99.99, the third of four, once shared dash 3 with it)
rate_dt = words(stats) + 1
rate_plots = !rate ? "" : ", for [i=1:nseries] infile index (i - 1) using 1:(lifted(column(col('rate')), y2_floor)) axes x1y2 with linespoints " . rate_lc . " dt rate_dt pt 12 ps 1.1 lw 1.5 title (stitle(i) eq '' ? 'outlier rate' : stitle(i) . ' outlier rate')" . \
	(y2_zeros == 0 ? "" : ", for [i=1:nseries] infile index (i - 1) using 1:(zero_at(column(col('rate')), y2_floor)) axes x1y2 with points " . rate_lc . " pt 11 ps 1.8 notitle")
err_plots = !errbars ? "" : ", for [i=1:nseries] for [j=1:words(stats)] infile index (i - 1) using 1:(lifted(column(col(word(stats, j))), y_floor)):(lifted(column(lo_col(word(stats, j))), y_floor)):(lifted(column(hi_col(word(stats, j))), y_floor)) with yerrorbars lc colour(i, j) pt 0 lw 1.2 notitle"
plot for [i=1:nseries] for [j=1:words(stats)] infile index (i - 1) \
	using 1:(lifted(column(col(word(stats, j))), y_floor)):xtic(xtic_of($1)) with linespoints \
	lc colour(i, j) dt j pt (j == 1 ? 7 : 6) ps 0.8 lw 2 title ltitle(i, j) \
	@err_plots @zero_plots @rate_plots
