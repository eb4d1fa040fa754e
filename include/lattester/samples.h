/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * samples.h - every (op, width, fence, timer) sample function of access.h,
 * and the table latt_samples[op][log2(width) - 3][fence - 1][timer] to
 * choose one (rules.h's latt_pick_sample() does), with the chase samples
 * of each timer.
 * Include it in exactly one file of a program (kmod/ops.c, the user engine).
 * Entries are NULL where an op has no such width (nt-load of 8 bytes;
 * movdir64b has only 64, its own "direct" width: access.h).
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
LATT_FENCES(movdir64b, direct)
LATT_CHASE(rdtscp)
LATT_CHASE(rdtsc)
LATT_CHASE_OFF(rdtscp)
LATT_CHASE_OFF(rdtsc)

/* Table index: [op][width log2 - 3][fence - 1][timer] */
#define LATT_WIDX_8	0
#define LATT_WIDX_16	1
#define LATT_WIDX_32	2
#define LATT_WIDX_64	3
#define T_TIMERS(op, w, f)						\
	{ [LATT_TIMER_RDTSCP] = SAMPLE_NAME(op, w, f, rdtscp),		\
	  [LATT_TIMER_RDTSC] = SAMPLE_NAME(op, w, f, rdtsc) }
#define T_FENCES(op, w)							\
	[LATT_WIDX_##w] = { T_TIMERS(op, w, none),			\
			    T_TIMERS(op, w, sfence),			\
			    T_TIMERS(op, w, mfence) }
#define T_OP(op)							\
	{ T_FENCES(op, 8), T_FENCES(op, 16),				\
	  T_FENCES(op, 32), T_FENCES(op, 64) }

static const latt_sample_fn
latt_samples[LATT_OP_MAX + 1][4][3][LATT_NR_TIMERS] = {
	[LATT_OP_LOAD] = T_OP(load),
	[LATT_OP_NT_LOAD] = { T_FENCES(ntload, 16), T_FENCES(ntload, 32),
			      T_FENCES(ntload, 64) },
	[LATT_OP_STORE] = T_OP(store),
	[LATT_OP_STORE_CLWB] = T_OP(clwb),
	[LATT_OP_STORE_CLFLUSHOPT] = T_OP(clflushopt),
	[LATT_OP_STORE_CLFLUSH] = T_OP(clflush),
	[LATT_OP_NT_STORE] = T_OP(ntstore),
	[LATT_OP_MOVDIR64B] = { [LATT_WIDX_64] = {
		T_TIMERS(movdir64b, direct, none),
		T_TIMERS(movdir64b, direct, sfence),
		T_TIMERS(movdir64b, direct, mfence) } },
};

static const latt_chase_fn latt_chases[LATT_NR_TIMERS] = {
	[LATT_TIMER_RDTSCP] = latt_sample_chase_rdtscp,
	[LATT_TIMER_RDTSC] = latt_sample_chase_rdtsc,
};

static const latt_chase_off_fn latt_chases_off[LATT_NR_TIMERS] = {
	[LATT_TIMER_RDTSCP] = latt_sample_chase_off_rdtscp,
	[LATT_TIMER_RDTSC] = latt_sample_chase_off_rdtsc,
};

/* Streams, the same way: latt_streams[op][log2(width) - 3] */
#define S_OP(op)							\
	{ [LATT_WIDX_8] = STREAM_NAME(op, 8),				\
	  [LATT_WIDX_16] = STREAM_NAME(op, 16),				\
	  [LATT_WIDX_32] = STREAM_NAME(op, 32),				\
	  [LATT_WIDX_64] = STREAM_NAME(op, 64) }

static const latt_stream_fn latt_streams[LATT_OP_MAX + 1][4] = {
	[LATT_OP_LOAD] = S_OP(load),
	[LATT_OP_NT_LOAD] = { [LATT_WIDX_16] = STREAM_NAME(ntload, 16),
			      [LATT_WIDX_32] = STREAM_NAME(ntload, 32),
			      [LATT_WIDX_64] = STREAM_NAME(ntload, 64) },
	[LATT_OP_STORE] = S_OP(store),
	[LATT_OP_STORE_CLWB] = S_OP(clwb),
	[LATT_OP_STORE_CLFLUSHOPT] = S_OP(clflushopt),
	[LATT_OP_STORE_CLFLUSH] = S_OP(clflush),
	[LATT_OP_NT_STORE] = S_OP(ntstore),
	[LATT_OP_MOVDIR64B] = {
		[LATT_WIDX_64] = STREAM_NAME(movdir64b, direct) },
};

#endif /* _LATTESTER_SAMPLES_H */
