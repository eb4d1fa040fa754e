# SPDX-License-Identifier: GPL-2.0
# hist.gp - the latency histogram of one run, log counts.
#
# Data: a `lattester-ctl run --hist FILE` file: columns lo_cycles hi_cycles
# count corrected_ns_mid cumulative_fraction after '#' comment lines.
# Variables (lattester-ctl plot sets them; by hand: gnuplot -e "..."):
#   infile    the histogram file (required)
#   subtitle  what was measured: target, cpu, op, pattern, size
# The terminal and output are set before this script runs, e.g.
#   gnuplot -e "infile='run.hist'; set terminal pngcairo; set output 'h.png'" hist.gp
if (!exists("infile")) print "hist.gp: set infile"; exit status 1
if (!exists("subtitle")) subtitle = ""

set title "Latency histogram" . (subtitle eq "" ? "" : "\n" . subtitle)
set xlabel "latency per access (ns, timer overhead subtracted; log scale)"
set ylabel "samples per bucket (log scale)"
set logscale xy
set format x "%.0f"
set format y "%.0f"
set grid xtics ytics mxtics
set key off
set style fill solid 0.6 border -1
set yrange [0.8:*]
# Buckets are log-linear, so impulses at each bucket's middle read best.
plot infile using ($4 > 0 ? $4 : 0.1):3 with impulses lw 3 lc rgb "#1f77b4", \
     infile using ($4 > 0 ? $4 : 0.1):3 with points pt 7 ps 0.5 lc rgb "#1f77b4"
