/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core.h - what both engines do with each sample and each window.
 *
 * The module's kthread (kmod/run.c) and lattester-ctl's user engine
 * (user/engine-user.c) take their samples with the same loop: pick the
 * next address (or follow the chase), prepare its lines, time the access,
 * count the figure into a histogram and, above the threshold, an outlier
 * record; at a window's end, its length and its NMIs.  What differs stays
 * with each engine: where the memory is (the module's chunks, the user
 * engine's one mapping), interrupts (off in a window, or not), how a stop
 * is seen.  tests/unit/test-loop.c runs this loop over both layouts
 * against a stand-in timer and checks the records are the same.
 */
#ifndef _LATTESTER_CORE_H
#define _LATTESTER_CORE_H

#include "access.h"
#include "hist.h"
#include "chase.h"

#ifndef __always_inline		/* the kernel has it */
#define __always_inline inline __attribute__((__always_inline__))
#endif

/**
 * struct latt_acct - one thread's record of its samples
 * @hist: LATT_HIST_BUCKETS counters, zeroed by the caller
 * @outliers: the outlier records, room for @max_outliers
 * @max_outliers: room in @outliers (0: count outliers, record none)
 * @nr_outliers: records in @outliers
 * @overhead: the calibrated timer overhead, subtracted before the
 *	threshold is compared
 * @threshold: corrected cycles above which a sample is an outlier; 0: none
 * @tsc0: an outlier's tsc counts from here (the run's start)
 * @cpu: written into each outlier record
 * @min: raw cycles (~0 before the first sample: latt_acct_init())
 * @max: raw cycles
 * @sum: of raw cycles
 * @sum_corrected: of max(raw - @overhead, 0)
 * @hist_overflow: samples of 2^LATT_HIST_MAX_BITS cycles or more
 * @backwards: samples whose t1 came before t0 (not counted otherwise)
 * @outliers_seen: samples above the threshold
 * @outliers_dropped: of those, not recorded: @outliers full
 * @nmi_windows: windows that saw an NMI
 * @window_cycles_max: the longest window, TSC cycles
 */
struct latt_acct {
	__u64 *hist;
	struct latt_outlier *outliers;
	__u32 max_outliers, nr_outliers;
	__u64 overhead, threshold, tsc0;
	__u32 cpu;
	__u64 min, max, sum, sum_corrected;
	__u64 hist_overflow, backwards;
	__u64 outliers_seen, outliers_dropped;
	__u64 nmi_windows, window_cycles_max;
};

/** latt_acct_init() - no sample yet: @a's counters zero, its minimum ~0 */
static inline void latt_acct_init(struct latt_acct *a)
{
	a->min = ~0ULL;
	a->max = a->sum = a->sum_corrected = 0;
	a->hist_overflow = a->backwards = 0;
	a->outliers_seen = a->outliers_dropped = 0;
	a->nmi_windows = a->window_cycles_max = 0;
	a->nr_outliers = 0;
}

/**
 * latt_acct_sample() - count one sample
 * @a: the thread's record
 * @idx: the sample's index in the run
 * @tsc: the TSC just before it (its outlier record's time)
 * @off: its offset in the region
 * @cyc: its raw cycles, as the sample function returned them
 * @window: the window it fell in
 *
 * Runs inside the window (interrupts off, in the module): no allocation,
 * no call out.
 */
static inline void latt_acct_sample(struct latt_acct *a, __u64 idx,
				    __u64 tsc, __u64 off, __u64 cyc,
				    __u64 window)
{
	__u64 corr = cyc > a->overhead ? cyc - a->overhead : 0;
	struct latt_outlier *o;

	if (__builtin_expect(latt_backwards(cyc), 0)) {
		a->backwards++;
		return;
	}
	a->hist[latt_hist_index(cyc)]++;
	if (cyc >> LATT_HIST_MAX_BITS)
		a->hist_overflow++;
	if (cyc < a->min)
		a->min = cyc;
	if (cyc > a->max)
		a->max = cyc;
	a->sum += cyc;
	a->sum_corrected += corr;
	if (!a->threshold || corr <= a->threshold)
		return;
	a->outliers_seen++;
	if (a->nr_outliers >= a->max_outliers) {
		a->outliers_dropped++;
		return;
	}
	o = &a->outliers[a->nr_outliers++];
	o->sample = idx;
	o->tsc = tsc - a->tsc0;
	o->offset = off;
	o->cycles = cyc;
	o->window = window;
	o->flags = 0;
	o->cpu = a->cpu;
}

/**
 * latt_acct_window() - the end of a window
 * @a: the thread's record
 * @cycles: the window's length, TSC cycles
 * @nmi: an NMI came during it (the module's count; never, in userspace)
 * @first_outlier: @a->nr_outliers as the window began: the records an NMI
 *	may have lengthened are flagged LATT_OUT_NMI
 */
static inline void latt_acct_window(struct latt_acct *a, __u64 cycles,
				    int nmi, __u32 first_outlier)
{
	__u32 i;

	if (cycles > a->window_cycles_max)
		a->window_cycles_max = cycles;
	if (!nmi)
		return;
	a->nmi_windows++;
	for (i = first_outlier; i < a->nr_outliers; i++)
		a->outliers[i].flags |= LATT_OUT_NMI;
}

/**
 * struct latt_step - how a thread takes its next sample
 * @fn: the sample function (not for chase)
 * @chase: chase through pointers (DRAM)
 * @chase_off: chase through offsets (persistent memory, masked)
 * @ctx: the argument of latt_step()'s @addr
 * @base: the region's first byte (@chase_off's base)
 * @pos: where the pointer chase stands
 * @opos: where the offset chase stands
 * @mask: @chase_off's mask: (region - 1) & ~7
 * @part: where this thread's part of the region starts (flushed and
 *	warmed samples)
 * @size: bytes an access
 * @chain: dependent loads a chase sample
 * @mode: LATT_STEP_*
 * @clflushopt: flush with clflushopt (else clflush)
 */
struct latt_step {
	latt_sample_fn fn;
	latt_chase_fn chase;
	latt_chase_off_fn chase_off;
	void *ctx;
	char *base, *pos;
	__u64 opos, mask, part, size;
	__u32 chain;
	int mode, clflushopt;
};

#define LATT_STEP_FLUSH		0	/* flush the lines, then time */
#define LATT_STEP_WARM		1	/* touch the lines, then time */
#define LATT_STEP_CHASE		2	/* follow the pointers */
#define LATT_STEP_CHASE_OFF	3	/* follow the offsets */

/**
 * latt_step() - take one sample
 * @s: the thread's way of sampling, its chase position updated
 * @pat: the address generator (flush and warm samples)
 * @off: out: the sample's offset in the region (a chase: where it began)
 * @addr: the address of an offset of the region (the module's chunks, or
 *	the user engine's mapping), called with @s->ctx
 *
 * Always inlined, and @addr a function the caller names: the compiler
 * then inlines the lookup too, as it was before this loop was shared (no
 * indirect call, nothing ftrace could hook, inside the window).
 *
 * Return: the sample function's raw cycles.
 */
static __always_inline __u64 latt_step(struct latt_step *s,
				       struct latt_pattern *pat, __u64 *off,
				       char *(*addr)(void *ctx, __u64 off))
{
	char *start, *line;
	__u64 cyc;

	switch (s->mode) {
	case LATT_STEP_CHASE_OFF:
		*off = s->opos;
		return s->chase_off(s->base, s->mask, &s->opos, s->chain);
	case LATT_STEP_CHASE:
		start = s->pos;
		cyc = s->chase(&s->pos, s->chain);
		/* read after timing: the node is cached now */
		*off = ((struct latt_chase_node *)start)->offset;
		return cyc;
	}
	*off = s->part + latt_pattern_next(pat);
	line = addr(s->ctx, *off);
	if (s->mode == LATT_STEP_WARM)
		latt_prep_warm(line, s->size);
	else
		latt_prep_flush(line, s->size, s->clflushopt);
	return s->fn(line, s->size);
}

#endif /* _LATTESTER_CORE_H */
