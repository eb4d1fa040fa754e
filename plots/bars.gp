# SPDX-License-Identifier: GPL-2.0
# bars.gp - the basic latency table as a grouped bar chart: one group per
# op, one bar per series (pattern, size, ... whatever else varies).
#
# Data: `lattester-ctl plot bars` turns a sweep CSV into a table: one row
# per group, the group's name then one column per series (ns; "-" where
# the sweep has no such point); with repeats, then each series' least and
# largest in turn (the error bar; the bar is their median).
# Variables:
#   infile     that file (required)
#   nseries    its series columns; series_1 ... series_N their titles
#   stat       the percentile shown, e.g. "p50" (default)
#   group      what the groups are, e.g. "op" (default)
#   subtitle   what every point shares (target, cpu, ...)
#   user_note  --note: a line of the caller's under the plot
#   per, chain "access" (default) or "load" (chase: the mean of chain
#              dependent loads, 0 if it varies) or "mixed"
#   nzero      how many bars are 0 (default 1: look for them)
#   unsupported_note  percentiles not drawn, too few samples
#   repeats    the most times a point was measured (default 1: no error
#              bars); repeat_note says so under the plot
#   errbars    1: error bars from the columns after the figures (default:
#              repeats > 1): the repeats' least and largest, or each
#              figure's 95% interval (a sweep file with ns_lo_, ns_hi_)
#   nrefs      --ref lines; ref_1 ... their latencies (ns), ref_1_label ...
#              their labels
#   y_max      the largest bar, error bar or line (default: autoscale)
# A bar of 0 would be invisible: it gets a marker on the axis and its
# value, "0 ns", above it.
if (!exists("infile")) print "bars.gp: set infile"; exit status 1
if (!exists("nseries")) nseries = 1
if (!exists("stat")) stat = "p50"
if (!exists("group")) group = "op"
if (!exists("subtitle")) subtitle = ""
if (!exists("per")) per = "access"
if (!exists("chain")) chain = 0
stitle(i) = exists(sprintf("series_%d", i)) ? value(sprintf("series_%d", i)) : sprintf("series %d", i)

set datafile missing "-"
set title "Latency (" . stat . ") by " . group . \
	(subtitle eq "" ? "" : "\n" . subtitle)
per_text = per eq "load" ? (chain > 0 ? sprintf("per load (mean of %d dependent loads)", chain) : \
	"per load (mean of the chain's dependent loads)") : \
	per eq "mixed" ? "per access; chase: per load" : "per access"
set ylabel stat . " latency " . per_text . " (ns, timer overhead subtracted)"
bnote = per ne "access" ? "chase: a sample times a chain of dependent loads; its figure is their mean, and p90 and above are percentiles of such means" : ""
if (exists("unsupported_note")) { bnote = bnote . (bnote eq "" ? "" : "\n") . unsupported_note . " (no bar)" }
if (!exists("repeats")) repeats = 1
if (!exists("errbars")) errbars = repeats > 1
if (exists("repeat_note")) { bnote = bnote . (bnote eq "" ? "" : "\n") . repeat_note }
if (exists("user_note")) { bnote = bnote . (bnote eq "" ? "" : "\n") . user_note }
if (bnote ne "") { set label 99 bnote at character 1, character 1.2 left font ",9"; set bmargin (strstrt(bnote, "\n") > 0 ? 6 : 5) }
set xlabel group
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
if (exists("y_max") && y_max > 0) { set yrange [0:y_max * 1.12] } else { set yrange [0:*] }
# --ref: dashed lines at reference latencies (a published figure), each
# labelled at its left end
if (!exists("nrefs")) nrefs = 0
do for [k = 1:nrefs] { \
	rv = value(sprintf("ref_%d", k)); \
	eval sprintf("set arrow %d from graph 0, first %.12g to graph 1, first %.12g nohead dt 2 lw 1.5 lc rgb '#b00000' front", 100 + k, rv, rv); \
	eval sprintf("set label %d \"%s\" at graph 0.01, first %.12g offset 0, 0.6 left font ',9' front boxed tc rgb '#b00000'", 100 + k, value(sprintf("ref_%d_label", k)), rv) }
if (nrefs > 0) { set style textbox opaque noborder margins 1, 1 }

set grid ytics
set key outside right top
set xtics nomirror rotate by -20
# where bar i of a group is: clusters of nseries bars and a gap of 1
bar_x(g, i) = g + (i - (nseries + 1) / 2.0) / (nseries + 1.0)
is_zero(v) = v <= 0
# repeats: an error bar from each bar's least to its largest repeat
err_plots = !errbars ? "" : ", for [i=1:nseries] infile using (bar_x($0, i)):(column(i + 1)):(column(nseries + 2 * i)):(column(nseries + 2 * i + 1)) with yerrorbars lc rgb '#222222' pt 0 lw 1.2 notitle"
if (!exists("nzero")) nzero = 1
if (nzero > 0) {
plot for [i=1:nseries] infile using (column(i + 1)):xtic(1) \
	title (stitle(i) eq "" ? stat : stitle(i)), \
     for [i=1:nseries] infile using (bar_x($0, i)):(is_zero(column(i + 1)) ? 0 : 1/0) \
	with points pt 9 ps 1.6 lc i notitle, \
     for [i=1:nseries] infile using (bar_x($0, i)):(is_zero(column(i + 1)) ? 0 : 1/0):("0 ns") \
	with labels rotate by 90 left offset 0, 1 font ",9" notitle \
	@err_plots
} else {
# no bar of 0: no markers (gnuplot 5.4 dies of a labels plot whose every
# point is undefined beside the bars of a single group)
plot for [i=1:nseries] infile using (column(i + 1)):xtic(1) \
	title (stitle(i) eq "" ? stat : stitle(i)) @err_plots
}
