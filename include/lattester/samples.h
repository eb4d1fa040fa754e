/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * samples.h - every (op, width, fence) sample function of access.h, and
 * the table latt_samples[op][log2(width) - 3][fence - 1] to choose one.
 * Include it in exactly one file of a program (kmod/ops.c, the user engine).
 * Entries are NULL where an op has no such width (nt-load of 8 bytes).
 */
#ifndef _LATTESTER_SAMPLES_H
#define _LATTESTER_SAMPLES_H

#include "access.h"

LATT_OP_ALL_WIDTHS(load)
LATT_FENCES(ntload, 16)
LATT_FENCES(ntload, 32)
LATT_FENCES(ntload, 64)
LATT_OP_ALL_WIDTHS(store)
LATT_OP_ALL_WIDTHS(clwb)
LATT_OP_ALL_WIDTHS(clflushopt)
LATT_OP_ALL_WIDTHS(clflush)
LATT_OP_ALL_WIDTHS(ntstore)

/* Table index: [op][width log2 - 3][fence - 1] */
#define LATT_WIDX_8	0
#define LATT_WIDX_16	1
#define LATT_WIDX_32	2
#define LATT_WIDX_64	3
#define T_FENCES(op, w)							\
	[LATT_WIDX_##w] = { SAMPLE_NAME(op, w, none),			\
		       SAMPLE_NAME(op, w, sfence),			\
		       SAMPLE_NAME(op, w, mfence) }
#define T_OP(op)							\
	{ T_FENCES(op, 8), T_FENCES(op, 16),				\
	  T_FENCES(op, 32), T_FENCES(op, 64) }

static const latt_sample_fn latt_samples[LATT_OP_MAX + 1][4][3] = {
	[LATT_OP_LOAD] = T_OP(load),
	[LATT_OP_NT_LOAD] = { T_FENCES(ntload, 16), T_FENCES(ntload, 32),
			      T_FENCES(ntload, 64) },
	[LATT_OP_STORE] = T_OP(store),
	[LATT_OP_STORE_CLWB] = T_OP(clwb),
	[LATT_OP_STORE_CLFLUSHOPT] = T_OP(clflushopt),
	[LATT_OP_STORE_CLFLUSH] = T_OP(clflush),
	[LATT_OP_NT_STORE] = T_OP(ntstore),
};


#endif /* _LATTESTER_SAMPLES_H */
