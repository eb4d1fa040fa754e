# SPDX-License-Identifier: GPL-2.0
# bars.gp - the basic latency table as a grouped bar chart: one group per
# op, one bar per series (pattern, size, ... whatever else varies).
#
# Data: `lattester-ctl plot bars` turns a sweep CSV into a table: one row
# per group, the group's name then one column per series (ns; "-" where
# the sweep has no such point).
# Variables:
#   infile     that file (required)
#   nseries    its series columns; series_1 ... series_N their titles
#   stat       the percentile shown, e.g. "p50" (default)
#   group      what the groups are, e.g. "op" (default)
#   subtitle   what every point shares (target, cpu, ...)
if (!exists("infile")) print "bars.gp: set infile"; exit status 1
if (!exists("nseries")) nseries = 1
if (!exists("stat")) stat = "p50"
if (!exists("group")) group = "op"
if (!exists("subtitle")) subtitle = ""
stitle(i) = exists(sprintf("series_%d", i)) ? value(sprintf("series_%d", i)) : sprintf("series %d", i)

set datafile missing "-"
set title "Latency (" . stat . ") by " . group . \
	(subtitle eq "" ? "" : "\n" . subtitle)
set ylabel stat . " latency per access (ns, timer overhead subtracted)"
set xlabel group
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:*]
set grid ytics
set key outside right top
set xtics nomirror rotate by -20
plot for [i=1:nseries] infile using (column(i + 1)):xtic(1) \
	title (stitle(i) eq "" ? stat : stitle(i))
