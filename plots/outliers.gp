# SPDX-License-Identifier: GPL-2.0
# outliers.gp - every outlier of a run against the time since its start;
# outliers whose window saw an NMI are drawn apart.
#
# Data: a `lattester-ctl run --outliers FILE.csv` file: '#' comment lines,
# then the header sample,time_ns,offset,cycles,raw_cycles,ns,window,nmi.
# Variables: infile (required), subtitle, threshold_ns (a line at the
# threshold, if > 0).
if (!exists("infile")) print "outliers.gp: set infile"; exit status 1
if (!exists("subtitle")) subtitle = ""
if (!exists("threshold_ns")) threshold_ns = 0

set datafile separator ","
set datafile columnheaders
set title "Outliers over time" . (subtitle eq "" ? "" : "\n" . subtitle)
set xlabel "time since the run's start (ms)"
set ylabel "latency of the sample (ns, timer overhead subtracted; log scale)"
set logscale y
set format y "%.0f"
set grid xtics ytics
set key top left box opaque Left reverse
if (threshold_ns > 0) {
	set yrange [threshold_ns / 2:*]
	set arrow 1 from graph 0, first threshold_ns to graph 1, first threshold_ns \
		nohead dt 2 lc rgb "#555555"
	set label 1 sprintf("threshold %.1f ns", threshold_ns) \
		at graph 0.01, first threshold_ns left offset 0, -0.8 tc rgb "#555555"
}
plot infile using ($2 / 1e6):($8 == 0 ? $6 : 1/0) \
	with points pt 7 ps 0.6 lc rgb "#1f77b4" title "outlier", \
     infile using ($2 / 1e6):($8 != 0 ? $6 : 1/0) \
	with points pt 6 ps 1.2 lw 2 lc rgb "#d62728" title "outlier in a window with an NMI"
