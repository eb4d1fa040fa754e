/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plots.S - the gnuplot scripts of plots/ built into lattester-ctl, so that
 * `lattester-ctl plot` works wherever the binary is installed.  Each is a
 * NUL-terminated plot_gp_NAME[] (cmd-plot.c).
 */
#define SCRIPT(name, file)			\
	.globl plot_gp_##name;			\
	.type plot_gp_##name, @object;		\
plot_gp_##name:					\
	.incbin file;				\
	.byte 0;				\
	.size plot_gp_##name, . - plot_gp_##name

	.section .rodata
SCRIPT(hist, "hist.gp")
SCRIPT(tail, "tail.gp")
SCRIPT(outliers, "outliers.gp")
SCRIPT(sweep, "sweep.gp")
SCRIPT(bars, "bars.gp")
SCRIPT(bw, "bw.gp")
SCRIPT(loaded, "loaded.gp")
SCRIPT(working_set, "working-set.gp")
SCRIPT(matrix, "matrix.gp")
SCRIPT(curves, "curves.gp")

	.section .note.GNU-stack, "", @progbits
