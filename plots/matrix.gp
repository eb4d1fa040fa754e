# SPDX-License-Identifier: GPL-2.0
# matrix.gp - the NUMA latency matrix of `lattester-ctl matrix` as a heat
# map: a row per CPU node (measured from one of its CPUs), a column per
# memory node (CPU-less nodes marked), each cell coloured by its latency
# and labelled with it, so that the picture reads without the colour
# scale.  A failed cell is grey and says "-" and "failed"; a cell not
# measured (an interrupted matrix) is light grey and says "."; neither
# has a colour of the scale, and neither is ever drawn as a 0.
#
# Data: `lattester-ctl plot matrix` turns a matrix --json or --csv file
# into one line per cell, row by row, with the columns
#   col row state value label caption
# col, row: the cell's place (0 ...); state: 1 measured, 2 failed, 3 not
# measured, 4 measured without the figure asked (too few samples); value:
# ns, "-" for states 2 to 4; label: what the cell says ("92.4 ns", "-",
# ".", "n/a"); caption: a second, smaller line ("failed", "not measured",
# "too few samples", or "").
# Variables:
#   infile     that file (required)
#   nrows, ncols             the matrix's size
#   row_1 ... row_N          the rows' names ("node 0 (cpu 0)")
#   col_1 ... col_M          the columns' ("node 2 (no CPU)")
#   stat       the figure drawn, e.g. "p50" (default)
#   per, chain "access" (default) or "load" (chase: the mean of chain
#              dependent loads, 0 if not known)
#   v_min, v_max             the smallest and largest value drawn
#   nnotes, note_1 ...       lines for under the plot (the failed cells
#                            and why, ...)
#   subtitle   what every cell shares (op, pattern, size, region, ...)
#   user_note  --note: a line of the caller's under the plot
if (!exists("infile")) print "matrix.gp: set infile"; exit status 1
if (!exists("stat")) stat = "p50"
if (!exists("per")) per = "access"
if (!exists("chain")) chain = 0
if (!exists("subtitle")) subtitle = ""
if (!exists("nnotes")) nnotes = 0
if (!exists("nrows")) { stats infile using 2 nooutput; nrows = int(STATS_max) + 1 }
if (!exists("ncols")) { stats infile using 1 nooutput; ncols = int(STATS_max) + 1 }
if (!exists("v_min")) { stats infile using ($3 == 1 ? $4 : 1/0) nooutput; v_min = STATS_min; v_max = STATS_max }
row_name(i) = exists(sprintf("row_%d", i)) ? value(sprintf("row_%d", i)) : sprintf("row %d", i)
col_name(i) = exists(sprintf("col_%d", i)) ? value(sprintf("col_%d", i)) : sprintf("column %d", i)
per_text = per eq "load" ? (chain > 0 ? sprintf("per load (mean of %d dependent loads)", chain) : \
	"per load (mean of the chain's dependent loads)") : \
	per eq "mixed" ? "per access; chase: per load" : "per access"

set title "NUMA latency matrix: " . stat . " " . per_text . ", in ns" . \
	(subtitle eq "" ? "" : "\n" . subtitle)
# row 1 at the top, as the matrix's table prints it; the columns' names
# above, as its header
set xrange [-0.5 : ncols - 0.5]
set x2range [-0.5 : ncols - 0.5]
set yrange [nrows - 0.5 : -0.5]
unset xtics
tics = ""
do for [i=1:ncols] { tics = tics . sprintf("\"%s\" %d, ", col_name(i), i - 1) }
eval sprintf("set x2tics (%s) scale 0 nomirror", tics[1:strlen(tics) - 2])
tics = ""
do for [i=1:nrows] { tics = tics . sprintf("\"%s\" %d, ", row_name(i), i - 1) }
eval sprintf("set ytics (%s) scale 0 nomirror", tics[1:strlen(tics) - 2])
set x2label "memory node (column)"
set ylabel "CPU node (row), measured from the CPU named"
set border 15

# the colour scale: light for the lowest latency, dark red for the
# highest.  One value alone (a 1x1 matrix, or cells alike) has no scale
# to show: its cells take the scale's middle and no colour box is drawn
# (it once showed a range of +-10% that no cell had)
one_value = !(v_max > v_min)
cb_lo = one_value ? v_min - 1 : v_min
cb_hi = one_value ? v_min + 1 : v_max
set cbrange [cb_lo : cb_hi]
set palette defined (0 "#ffffcc", 0.25 "#fed976", 0.5 "#fd8d3c", 0.75 "#e31a1c", 1 "#800026")
# the label clear of the colour box's numbers, however wide they are
set cblabel stat . (per eq "load" ? " per load" : per eq "access" ? " per access" : "") . " (ns)" \
	offset character (strlen(sprintf("%.0f", cb_hi)) * 0.8 + 0.5), 0
if (one_value) { unset colorbox } else { set colorbox }
# a cell's text: white on the dark end of the scale, black elsewhere
text_rgb(v) = (v - cb_lo) / (cb_hi - cb_lo) > 0.6 ? 0xffffff : 0x000000
# the labels' size: smaller as the cells get narrower
label_font = ncols <= 6 ? ",13" : ncols <= 10 ? ",11" : ",9"

# notes under the plot
notes = ""
n = 0
if (one_value) { notes = notes . "one value: no colour scale\n"; n = n + 1 }
if (per ne "access") { notes = notes . "chase: a sample times a chain of dependent loads; its figure is their mean, and p90 and above are percentiles of such means, not of single loads\n"; n = n + 1 }
do for [i=1:nnotes] { notes = notes . value(sprintf("note_%d", i)) . "\n"; n = n + 1 }
if (exists("user_note")) { notes = notes . user_note . "\n"; n = n + 1 }
if (n > 0) { set bmargin 2 + 1.1 * n; set label 99 notes at character 1, character (0.95 * n + 0.4) left font ",9" }

unset key
set style fill solid 1.0 border rgb "white"
is(s, want) = s == want
plot infile using (is($3, 1) ? $1 : 1/0):2:(0.5):(0.5):4 with boxxyerror \
	lc palette title "measured", \
     infile using (is($3, 2) ? $1 : 1/0):2:(0.5):(0.5) with boxxyerror \
	lc rgb "#a8a8a8" title "failed (-)", \
     infile using (is($3, 3) || is($3, 4) ? $1 : 1/0):2:(0.5):(0.5) with boxxyerror \
	lc rgb "#e4e4e4" title "not measured (.), n/a", \
     infile using 1:2:5:(is($3, 1) ? text_rgb($4) : 0) with labels \
	tc rgb variable font label_font notitle, \
     infile using 1:2:6 with labels offset 0, -1.4 font ",9" notitle
