/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * samples.h - every (op, width, fence, timer) sample function of access.h,
 * and the table latt_samples[op][log2(width) - 3][fence - 1][timer] to
 * choose one (rules.h's latt_pick_sample() does), with the chase samples
 * of each timer; latt_batches[] likewise, the batches of --batch; the
 * streams, latt_streams[op][log2(width) - 3], and a --mix's,
 * latt_mixes[write op][log2(read width) - 3].
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
/* a --mix's streams: [write op][read width] */
#define LATT_MIX_ALL_WIDTHS(wop)					\
	LATT_STREAM_MIX(wop, 8, 8) LATT_STREAM_MIX(wop, 16, 16)		\
	LATT_STREAM_MIX(wop, 32, 32) LATT_STREAM_MIX(wop, 64, 64)
LATT_MIX_ALL_WIDTHS(store)
LATT_MIX_ALL_WIDTHS(clwb)
LATT_MIX_ALL_WIDTHS(clflushopt)
LATT_MIX_ALL_WIDTHS(clflush)
LATT_MIX_ALL_WIDTHS(ntstore)
LATT_STREAM_MIX(movdir64b, 8, direct)
LATT_STREAM_MIX(movdir64b, 16, direct)
LATT_STREAM_MIX(movdir64b, 32, direct)
LATT_STREAM_MIX(movdir64b, 64, direct)
LATT_CHASE(rdtscp)
LATT_CHASE(rdtsc)
LATT_CHASE_OFF(rdtscp)
LATT_CHASE_OFF(rdtsc)

/* Table index: [op][width log2 - 3][fence - 1][timer] */
#define LATT_WIDX_8	0
#define LATT_WIDX_16	1
#define LATT_WIDX_32	2
#define LATT_WIDX_64	3
#define T_TIMERS(N, op, w, f)						\
	{ [LATT_TIMER_RDTSCP] = N(op, w, f, rdtscp),			\
	  [LATT_TIMER_RDTSC] = N(op, w, f, rdtsc) }
#define T_FENCES(N, op, w)						\
	[LATT_WIDX_##w] = { T_TIMERS(N, op, w, none),			\
			    T_TIMERS(N, op, w, sfence),			\
			    T_TIMERS(N, op, w, mfence) }
#define T_OP(N, op)							\
	{ T_FENCES(N, op, 8), T_FENCES(N, op, 16),			\
	  T_FENCES(N, op, 32), T_FENCES(N, op, 64) }
#define T_ALL(N) {							\
	[LATT_OP_LOAD] = T_OP(N, load),					\
	[LATT_OP_NT_LOAD] = { T_FENCES(N, ntload, 16),			\
			      T_FENCES(N, ntload, 32),			\
			      T_FENCES(N, ntload, 64) },		\
	[LATT_OP_STORE] = T_OP(N, store),				\
	[LATT_OP_STORE_CLWB] = T_OP(N, clwb),				\
	[LATT_OP_STORE_CLFLUSHOPT] = T_OP(N, clflushopt),		\
	[LATT_OP_STORE_CLFLUSH] = T_OP(N, clflush),			\
	[LATT_OP_NT_STORE] = T_OP(N, ntstore),				\
	[LATT_OP_MOVDIR64B] = { [LATT_WIDX_64] = {			\
		T_TIMERS(N, movdir64b, direct, none),			\
		T_TIMERS(N, movdir64b, direct, sfence),			\
		T_TIMERS(N, movdir64b, direct, mfence) } },		\
}

static const latt_sample_fn
latt_samples[LATT_OP_MAX + 1][4][3][LATT_NR_TIMERS] = T_ALL(SAMPLE_NAME);

/* the batches (--batch, ABI 2.7), in the same places */
static const latt_batch_fn
latt_batches[LATT_OP_MAX + 1][4][3][LATT_NR_TIMERS] = T_ALL(BATCH_NAME);

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

/* A --mix's streams: latt_mixes[write op][log2(read width) - 3] */
#define M_OP(wop)							\
	{ [LATT_WIDX_8] = MIX_NAME(wop, 8),				\
	  [LATT_WIDX_16] = MIX_NAME(wop, 16),				\
	  [LATT_WIDX_32] = MIX_NAME(wop, 32),				\
	  [LATT_WIDX_64] = MIX_NAME(wop, 64) }

static const latt_mix_fn latt_mixes[LATT_OP_MAX + 1][4] = {
	[LATT_OP_STORE] = M_OP(store),
	[LATT_OP_STORE_CLWB] = M_OP(clwb),
	[LATT_OP_STORE_CLFLUSHOPT] = M_OP(clflushopt),
	[LATT_OP_STORE_CLFLUSH] = M_OP(clflush),
	[LATT_OP_NT_STORE] = M_OP(ntstore),
	[LATT_OP_MOVDIR64B] = M_OP(movdir64b),
};

#endif /* _LATTESTER_SAMPLES_H */
