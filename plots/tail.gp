# SPDX-License-Identifier: GPL-2.0
# tail.gp - the tail of one run: latency against percentile, p50 to
# p99.9999, on a log scale of 1/(1-p) ("nines").
#
# Data: a `lattester-ctl run --hist FILE` file (see hist.gp).  A bucket
# holds the percentiles from the fraction of samples below it to
# cumulative_fraction; it is drawn as a step at the fraction below it.
# Variables: infile (required), subtitle.
if (!exists("infile")) print "tail.gp: set infile"; exit status 1
if (!exists("subtitle")) subtitle = ""

stats infile using 3 nooutput
N = STATS_sum
below(cum, n) = cum - n / N
nines(cum, n) = 1.0 / (1.0 - below(cum, n))

set title "Tail latency" . (subtitle eq "" ? "" : "\n" . subtitle)
set xlabel "percentile (log scale of 1/(1-p))"
set ylabel "latency per access (ns, timer overhead subtracted)"
set logscale x
set logscale y
set xrange [2:1e6]
set xtics ("p50" 2, "p90" 10, "p99" 100, "p99.9" 1000, "p99.99" 10000, \
	   "p99.999" 100000, "p99.9999" 1000000)
set format y "%.0f"
set grid xtics ytics
set key off
plot infile using (below($5, $3) < 1 ? nines($5, $3) : 1/0):4 \
	with steps lw 2 lc rgb "#d62728", \
     infile using (below($5, $3) < 1 ? nines($5, $3) : 1/0):4 \
	with points pt 7 ps 0.4 lc rgb "#d62728"
