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
 *
 * So it is with several threads: which role each has, which part of the
 * region and which addresses (latt_thread_pattern()), its share of the
 * outlier records, the untimed streams of bandwidth and loaded runs
 * (struct latt_stream), the bins of a bandwidth series, and the merge of
 * the threads' records into the run's (latt_acct_merge()).  Each engine
 * keeps its own threads (kthreads, or pinned pthreads), its start line
 * and its stop.
 */
#ifndef _LATTESTER_CORE_H
#define _LATTESTER_CORE_H

#include "access.h"
#include "hist.h"
#include "chase.h"
#include "rules.h"
#include "cause.h"

#ifndef __always_inline		/* the kernel has it */
#define __always_inline inline __attribute__((__always_inline__))
#endif
#ifndef __uninitialized		/* the kernel's; userspace zeroes nothing */
#define __uninitialized
#endif

#define LATT_DEFAULT_WINDOW_US	500	/* a window, when the run says 0 */
#define LATT_CALIB_SAMPLES	1024	/* empty samples of a calibration */
#define LATT_WARMUP_US		10000	/* spin before calibrating */

/* A TSC read of the windows' clock: latt_rdtsc(), or a test's stand-in. */
typedef __u64 (*latt_tsc_fn)(void);

/*
 * The start line (the module's latt_wait_go(), the user engine's
 * wait_go()): the last thread to arrive sets the common start @go from its
 * own TSC, and each thread spins to it on its CPU's.  Where two CPUs' TSCs
 * disagree by more than the start's margin, a thread whose TSC is behind
 * would spin for as long as they disagree, deaf to a stop.  So no thread
 * spins longer than the margin and LATT_GO_SPIN_MAX_US more by its own
 * TSC (then it starts, LATT_GO_LATE, and its engine says that the TSCs
 * disagree), and each look at the TSC looks at the stop too.
 */
#define LATT_GO_SPIN_MAX_US	20000
#define LATT_GO_NOW		0	/* @go reached */
#define LATT_GO_LATE		1	/* the spin's limit reached first */
#define LATT_GO_STOP		(-1)	/* @stop said so first */

/**
 * latt_spin_to() - spin to @go on this CPU's TSC
 * @go: the common start
 * @limit: the most TSC ticks to spin (the margin and LATT_GO_SPIN_MAX_US)
 * @tsc: the TSC read (latt_rdtsc(), or a test's stand-in)
 * @stop: true when the run is to stop
 * @arg: for @stop
 *
 * Return: LATT_GO_NOW, LATT_GO_LATE or LATT_GO_STOP.  A TSC that steps
 * back below the spin's first read counts as past the limit.
 */
static __always_inline int latt_spin_to(__u64 go, __u64 limit,
					latt_tsc_fn tsc,
					int (*stop)(void *), void *arg)
{
	const __u64 t0 = tsc();
	__u64 now = t0;

	for (;;) {
		if (now >= go)
			return LATT_GO_NOW;
		if (stop(arg))
			return LATT_GO_STOP;
		if (now - t0 > limit)
			return LATT_GO_LATE;
		__asm__ __volatile__("pause" : : : "memory");
		now = tsc();
	}
}

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
 * @gap_max: the window's longest stretch from one sample's start to the
 *	next's not timed by the first (its preparation, its record, and
 *	whatever took the CPU between the two), TSC cycles: the hwlat
 *	tracer's outer gap (latt_sample_window() sets it)
 * @gap_min: the window's shortest such stretch (~0 for none)
 * @gap_at: the index of the sample after the longest
 * @mc: a load consumed poison (access.h, latt_mc()): the samples stopped
 * @mc_off: the poisoned line's offset in the region, LATT_MC_UNKNOWN when
 *	it can't be told
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
	__u64 gap_max, gap_min, gap_at;
	int mc;
	__u64 mc_off;
};

/* latt_acct.mc_off when the poisoned line's offset can't be told */
#define LATT_MC_UNKNOWN		(~0ULL)

/** latt_acct_init() - no sample yet: @a's counters zero, its minimum ~0 */
static inline void latt_acct_init(struct latt_acct *a)
{
	a->min = ~0ULL;
	a->max = a->sum = a->sum_corrected = 0;
	a->hist_overflow = a->backwards = 0;
	a->outliers_seen = a->outliers_dropped = 0;
	a->nmi_windows = a->window_cycles_max = 0;
	a->nr_outliers = 0;
	a->mc = 0;
	a->mc_off = LATT_MC_UNKNOWN;
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
 * latt_wev_open() - a sample window's evidence record (cause.h), begun
 *	with what both engines know of the window: where it is, its
 *	records, its gap (the events are each engine's to add)
 * @kept: the thread's kept records, @max of them, *@nr in use
 * @nr: in use; one more when this window holds a record and there is room
 * @max: room in @kept
 * @scratch: the record of a window that holds none (its events tallied,
 *	latt_wev_tally())
 * @a: the thread's record of its samples, as the window left it
 * @first: @a->nr_outliers as the window began
 * @window: the window's index
 * @sources: LATT_EVS_* the engine looks for
 * @tsc_khz: TSC cycles per ms, for the gap's bound
 *
 * Return: the record to fill: in @kept, or @scratch.
 */
static inline struct latt_wev *latt_wev_open(struct latt_wev *kept, __u32 *nr,
					     __u32 max,
					     struct latt_wev *scratch,
					     const struct latt_acct *a,
					     __u32 first, __u64 window,
					     __u32 sources, __u64 tsc_khz)
{
	struct latt_wev *d = a->nr_outliers > first && *nr < max ?
			     &kept[(*nr)++] : scratch;
	__u64 gap = a->gap_min != ~0ULL ? a->gap_max - a->gap_min : 0;

	*d = (struct latt_wev){ .window = window, .cpu = a->cpu,
				.sources = sources,
				.outliers = a->nr_outliers - first,
				.gap_max = gap, .gap_at = a->gap_at };
	d->ev[LATT_EV_GAP] = tsc_khz &&
			     gap * 1000000 / tsc_khz >= LATT_CAUSE_MIN_NS;
	return d;
}

/**
 * latt_wev_tally() - a window without records: its events, summed
 * @w: its evidence
 * @windows: windows that held an event, one more if this one did
 * @ev: events by LATT_EV_*, LATT_EV_KINDS of them
 */
static inline void latt_wev_tally(const struct latt_wev *w, __u64 *windows,
				  __u64 *ev)
{
	int c, any = 0;

	for (c = 0; c < LATT_EV_KINDS; c++) {
		ev[c] += w->ev[c];
		any |= w->ev[c] != 0;
	}
	*windows += any;
}

/**
 * struct latt_step - how a thread takes its next sample
 * @fn: the sample function (not for chase)
 * @chase: chase through pointers (DRAM)
 * @chase_off: chase through offsets (persistent memory, masked)
 * @ctx: the argument of latt_step()'s @addr
 * @off_of: a pointer chase's node's offset in the region, called with @ctx
 *	only when a load consumed poison (the node can't be read); NULL:
 *	LATT_MC_UNKNOWN
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
 * @batch: the batch function of --batch (not for chase)
 * @lines: a batch's blocks, 2K + 1 entries (latt_batch_take())
 * @offs: their offsets, 2K entries
 */
struct latt_step {
	latt_sample_fn fn;
	latt_batch_fn batch;
	char **lines;
	__u64 *offs;
	latt_chase_fn chase;
	latt_chase_off_fn chase_off;
	void *ctx;
	__u64 (*off_of)(void *ctx, const char *p);
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
 * latt_step_mode() - how a thread of @c takes its samples
 * @c: the run's configuration
 * @by_offset: its chase links nodes by offsets (persistent memory, which
 *	others may write: latt_sample_chase_off() masks each one)
 *
 * Return: LATT_STEP_*.
 */
static inline int latt_step_mode(const struct latt_config *c, int by_offset)
{
	if (c->pattern == LATT_PAT_CHASE)
		return by_offset ? LATT_STEP_CHASE_OFF : LATT_STEP_CHASE;
	return c->flags & LATT_CFG_WARM ? LATT_STEP_WARM : LATT_STEP_FLUSH;
}

/**
 * latt_step_empty() - one sample of nothing, the calibration's: the same
 *	function a sample of @s calls, on zero bytes (zero loads of a chase)
 * @s: the thread's way of sampling (its mode and functions)
 * @base: an address of the thread's part of the region
 * @pos: a pointer chase's place (zero loads: not moved)
 * @opos: an offset chase's place (not moved)
 *
 * Return: the raw cycles of the timer around nothing: its overhead.
 */
static __always_inline __u64 latt_step_empty(const struct latt_step *s,
					     char *base, char **pos,
					     __u64 *opos)
{
	switch (s->mode) {
	case LATT_STEP_CHASE_OFF:
		return s->chase_off(base, 0, opos, 0);
	case LATT_STEP_CHASE:
		return s->chase(pos, 0);
	}
	return s->fn(base, 0);
}

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
 * Return: the sample function's raw cycles; or, when one of its loads
 * (or a --warm load) consumed poison, a latt_mc() answer, with @off the
 * poisoned line's offset (LATT_MC_UNKNOWN for a pointer chase without
 * @s->off_of).
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
		cyc = s->chase_off(s->base, s->mask, &s->opos, s->chain);
		if (__builtin_expect(latt_mc(cyc), 0))
			*off = s->opos;		/* the node it stopped at */
		return cyc;
	case LATT_STEP_CHASE:
		start = s->pos;
		cyc = s->chase(&s->pos, s->chain);
		if (__builtin_expect(latt_mc(cyc), 0)) {
			*off = s->off_of ? s->off_of(s->ctx, s->pos) :
			       LATT_MC_UNKNOWN;
			return cyc;
		}
		/* read after timing: the node is cached now */
		*off = ((struct latt_chase_node *)start)->offset;
		return cyc;
	}
	*off = s->part + latt_pattern_next(pat);
	line = addr(s->ctx, *off);
	if (s->mode == LATT_STEP_WARM) {
		cyc = latt_prep_warm(line, s->size);
		if (__builtin_expect(latt_mc(cyc), 0)) {
			*off += latt_mc_at(cyc);
			return cyc;
		}
	} else {
		latt_prep_flush(line, s->size, s->clflushopt);
	}
	cyc = s->fn(line, s->size);
	if (__builtin_expect(latt_mc(cyc), 0))
		*off += latt_mc_at(cyc);
	return cyc;
}

/**
 * latt_sample_window() - one window's samples: from sample *@done on,
 *	until @total are taken or @window_cycles have passed since @w0
 * @s: the thread's way of sampling (latt_step())
 * @pat: its address generator
 * @a: the record each sample is counted into
 * @done: the samples taken so far, advanced
 * @total: the samples to take
 * @w0: the TSC the window began at, the first sample's time
 * @window_cycles: the window's length
 * @window: the window's number, for outlier records
 * @addr: as for latt_step()
 * @tsc: the windows' clock (latt_rdtsc(); always inlined, as @addr)
 *
 * At least one sample is taken.  The engine opens the window before (the
 * module turns interrupts off) and closes it after (latt_acct_window()).
 * A sample whose load consumed poison is not counted: it sets @a->mc and
 * @a->mc_off and ends the window, and the engine ends the run (EHWPOISON).
 *
 * Return: the TSC at the window's end.
 */
static __always_inline __u64 latt_sample_window(struct latt_step *s,
						struct latt_pattern *pat,
						struct latt_acct *a,
						__u64 *done, __u64 total,
						__u64 w0, __u64 window_cycles,
						__u64 window,
						char *(*addr)(void *ctx,
							      __u64 off),
						latt_tsc_fn tsc)
{
	__u64 i = *done, now = w0, prev, off, cyc, gap;

	a->gap_max = 0;
	a->gap_min = ~0ULL;
	a->gap_at = i;
	do {
		prev = now;
		cyc = latt_step(s, pat, &off, addr);
		if (__builtin_expect(latt_mc(cyc), 0)) {
			a->mc = 1;
			a->mc_off = off;
			now = tsc();
			break;
		}
		latt_acct_sample(a, i, now, off, cyc, window);
		i++;
		now = tsc();
		/* what of the stretch the sample did not time */
		gap = now - prev > cyc ? now - prev - cyc : 0;
		if (gap > a->gap_max) {
			a->gap_max = gap;
			a->gap_at = i;
		}
		if (gap < a->gap_min)
			a->gap_min = gap;
	} while (i < total && now - w0 < window_cycles);
	*done = i;
	return now;
}

/**
 * latt_batch_take() - time one batch of @n accesses (ABI 2.7, --batch)
 * @s: the thread's way of sampling, as for latt_step()
 * @pat: its address generator
 * @n: the accesses, K or 2K
 * @off: out, a poisoned load's offset, as latt_step()'s
 * @addr: as for latt_step()
 *
 * Each access is prepared as a sample's is (its block flushed, or touched
 * with --warm), all of them before the batch's timed region; a chase's
 * batch is one chase of @n x chain loads.
 *
 * Return: the batch's raw cycles, or a latt_mc() answer.
 */
static __always_inline __u64 latt_batch_take(struct latt_step *s,
					     struct latt_pattern *pat,
					     __u32 n, __u64 *off,
					     char *(*addr)(void *ctx,
							   __u64 off))
{
	__u64 cyc, o;
	__u32 i;

	switch (s->mode) {
	case LATT_STEP_CHASE_OFF:
		cyc = s->chase_off(s->base, s->mask, &s->opos, n * s->chain);
		*off = s->opos;
		return cyc;
	case LATT_STEP_CHASE:
		cyc = s->chase(&s->pos, n * s->chain);
		if (__builtin_expect(latt_mc(cyc), 0))
			*off = s->off_of ? s->off_of(s->ctx, s->pos) :
			       LATT_MC_UNKNOWN;
		return cyc;
	}
	for (i = 0; i < n; i++) {
		o = s->part + latt_pattern_next(pat);
		s->offs[i] = o;
		s->lines[i] = addr(s->ctx, o);
		if (s->mode == LATT_STEP_WARM) {
			cyc = latt_prep_warm(s->lines[i], s->size);
			if (__builtin_expect(latt_mc(cyc), 0)) {
				*off = o + latt_mc_at(cyc);
				return cyc;
			}
		} else {
			latt_prep_flush(s->lines[i], s->size, s->clflushopt);
		}
	}
	s->lines[n] = s->lines[n - 1];
	cyc = s->batch(s->lines, n, s->size);
	if (__builtin_expect(latt_mc(cyc), 0))
		*off = s->offs[latt_mc_at(cyc) >> 32] +
		       (latt_mc_at(cyc) & 0xffffffffULL);
	return cyc;
}

/**
 * struct latt_batch_rec - what a thread records of its pairs of batches
 * @pairs: one record a pair, as many as the run's batch_pairs
 * @n: pairs recorded
 * @backwards: pairs left out: a batch's TSC went backwards
 * @k: K, the run's batch
 */
struct latt_batch_rec {
	struct latt_batch_pair *pairs;
	__u64 n, backwards;
	__u32 k;
};

/* a batch's raw cycles in a pair record's 32 bits */
static inline __u32 latt_batch_sat(__u64 cycles)
{
	return cycles >= LATT_BATCH_SAT ? LATT_BATCH_SAT : (__u32)cycles;
}

/**
 * latt_batch_count() - record a pair: a K batch of @tk raw cycles, a 2K
 *	one of @t2k
 * @b: the thread's record, its buffer not yet full
 * @tk: raw cycles of the K batch
 * @t2k: raw cycles of the 2K batch
 */
static inline void latt_batch_count(struct latt_batch_rec *b, __u64 tk,
				    __u64 t2k)
{
	struct latt_batch_pair *p;

	if (latt_backwards(tk) || latt_backwards(t2k)) {
		b->backwards++;
		return;
	}
	p = &b->pairs[b->n++];
	p->k = latt_batch_sat(tk);
	p->k2 = latt_batch_sat(t2k);
}

/**
 * latt_batch_window() - one window's pairs of batches: from pair *@done
 *	on, until @total are taken or @window_cycles have passed since @w0
 * @s: the thread's way of sampling, with its batch and buffers
 * @pat: its address generator
 * @b: the thread's batch record, with room for @total pairs
 * @a: the thread's record, for a poisoned load (@a->mc, @a->mc_off)
 * @done: the pairs taken so far, advanced
 * @total: the pairs to take
 * @w0: the TSC the window began at
 * @window_cycles: the window's length
 * @addr: as for latt_step()
 * @tsc: the windows' clock
 *
 * Pair j times its K batch first when j is even, its 2K batch first when
 * it is odd, so that whatever the first batch leaves to the second (a
 * prefetcher's state, a warmer TLB) falls on both alike.  At least one
 * pair is taken.
 *
 * Return: the TSC at the window's end.
 */
static __always_inline __u64 latt_batch_window(struct latt_step *s,
					       struct latt_pattern *pat,
					       struct latt_batch_rec *b,
					       struct latt_acct *a,
					       __u64 *done, __u64 total,
					       __u64 w0, __u64 window_cycles,
					       char *(*addr)(void *ctx,
							     __u64 off),
					       latt_tsc_fn tsc)
{
	__u64 j = *done, now = w0, off = LATT_MC_UNKNOWN, c1, c2;
	const __u32 k = b->k;

	do {
		c1 = latt_batch_take(s, pat, j & 1 ? 2 * k : k, &off, addr);
		c2 = latt_mc(c1) ? c1 :
		     latt_batch_take(s, pat, j & 1 ? k : 2 * k, &off, addr);
		if (__builtin_expect(latt_mc(c2), 0)) {
			a->mc = 1;
			a->mc_off = off;
			now = tsc();
			break;
		}
		if (j & 1)
			latt_batch_count(b, c2, c1);
		else
			latt_batch_count(b, c1, c2);
		j++;
		now = tsc();
	} while (j < total && now - w0 < window_cycles);
	*done = j;
	return now;
}

/**
 * latt_calib_window() - one window of the calibration's empty samples
 * @s: the thread's way of sampling (latt_step_empty())
 * @base: an address of the thread's part of the region
 * @pos: a pointer chase's place
 * @opos: an offset chase's place
 * @v: LATT_CALIB_SAMPLES figures, filled from @i on
 * @i: the samples taken so far
 * @w0: the TSC the window began at
 * @window_cycles: the window's length
 * @tsc: the windows' clock
 *
 * Return: the samples taken so far (LATT_CALIB_SAMPLES: all; at least one
 * more than @i).
 */
static __always_inline __u32 latt_calib_window(const struct latt_step *s,
					       char *base, char **pos,
					       __u64 *opos, __u64 *v, __u32 i,
					       __u64 w0, __u64 window_cycles,
					       latt_tsc_fn tsc)
{
	do {
		v[i] = latt_step_empty(s, base, pos, opos);
	} while (++i < LATT_CALIB_SAMPLES && tsc() - w0 < window_cycles);
	return i;
}

/**
 * latt_calib_pick() - the calibration's figures, once @v is sorted
 * @v: LATT_CALIB_SAMPLES empty samples, ascending (the engine's sort)
 * @med: out: the median, the overhead every sample is corrected by
 * @lo: out: the minimum, or NULL
 * @hi: out: the maximum, or NULL
 */
static inline void latt_calib_pick(const __u64 *v, __u64 *med, __u64 *lo,
				   __u64 *hi)
{
	*med = v[LATT_CALIB_SAMPLES / 2];
	if (lo)
		*lo = v[0];
	if (hi)
		*hi = v[LATT_CALIB_SAMPLES - 1];
}

/*
 * The calibration under load (loaded mode, ABI 2.5).  The traffic changes
 * what the timer costs on the timing CPU: its core's clock (a turbo budget
 * shared with the busy cores) and the fences' wait for the memory system.
 * So the loaded run's timing thread calibrates again after the common
 * start, with the traffic running, and that overhead corrects its samples
 * (the idle one, before the start, is reported beside it).  Then each of
 * its sample windows starts with LATT_LCAL_EMPTIES empty samples
 * (latt_lcal_window()), inside the same window, before its samples: their
 * median, across the run, is the run's overhead_end, and a drift between
 * the two says that the traffic's effect changed while the samples ran.
 * @v holds LATT_CALIB_SAMPLES figures at most, LATT_LCAL_EMPTIES from each
 * window that takes them: when it is full, every other such window's
 * figures are dropped and the windows that take empties become every
 * other one, so that what is kept stays spread evenly over the whole run
 * at any length: the empties of all W windows of a short run, of 32 to 64
 * evenly spaced windows of a long one.  Whole windows are dropped, never
 * figures within one, so that each kept window gives the same share of
 * its empties (the first after the window opens may be slower).
 */
#define LATT_LCAL_EMPTIES	16
_Static_assert(LATT_CALIB_SAMPLES % (2 * LATT_LCAL_EMPTIES) == 0,
	       "a full latt_lcal holds an even number of windows' empties");

/**
 * struct latt_lcal - a loaded run's calibration across its samples
 * @v: LATT_CALIB_SAMPLES figures, the engine's (NULL: none taken)
 * @base: what latt_step_empty() is given (the calibration's own)
 * @n: figures in @v
 * @every: a power of two: windows whose number is a multiple of it take
 *	empties
 */
struct latt_lcal {
	__u64 *v;
	char *base;
	__u32 n;
	__u64 every;
};

/** latt_lcal_init() - nothing taken yet; @v NULL: nothing to take */
static inline void latt_lcal_init(struct latt_lcal *c, __u64 *v, char *base)
{
	c->v = v;
	c->base = base;
	c->n = 0;
	c->every = 1;
}

/**
 * latt_lcal_window() - the empty samples that start sample window @window
 * @c: the run's calibration across its samples
 * @s: the thread's way of sampling (latt_step_empty())
 * @window: the window's number, from 0
 *
 * Inside the window (interrupts off, in the module): no allocation, no
 * call out.  Nothing when @c->v is NULL or the window takes none.
 */
static __always_inline void latt_lcal_window(struct latt_lcal *c,
					     const struct latt_step *s,
					     __u64 window)
{
	char *pos = c->base;
	__u64 opos = 0;
	__u32 k;

	if (!c->v || (window & (c->every - 1)))
		return;
	if (c->n + LATT_LCAL_EMPTIES > LATT_CALIB_SAMPLES) {
		/*
		 * full (the empties of LATT_CALIB_SAMPLES /
		 * LATT_LCAL_EMPTIES windows, an even number): keep windows
		 * 0, 2, 4 ... of them, which are those whose number is a
		 * multiple of the new @every, and take empties half as often
		 */
		for (k = 0; k < LATT_CALIB_SAMPLES / 2; k++)
			c->v[k] = c->v[(k / LATT_LCAL_EMPTIES) * 2 *
				       LATT_LCAL_EMPTIES +
				       k % LATT_LCAL_EMPTIES];
		c->n = LATT_CALIB_SAMPLES / 2;
		c->every *= 2;
		if (window & (c->every - 1))
			return;
	}
	for (k = 0; k < LATT_LCAL_EMPTIES; k++)
		c->v[c->n++] = latt_step_empty(s, c->base, &pos, &opos);
}

/**
 * latt_lcal_median() - the median of @n figures, once sorted ascending
 * @v: the figures (struct latt_lcal's, sorted by the engine)
 * @n: how many
 *
 * Return: the median; 0 (unknown) for none.
 */
static inline __u64 latt_lcal_median(const __u64 *v, __u32 n)
{
	return n ? v[n / 2] : 0;
}

/* accesses a streaming thread makes between two looks at the TSC */
#define LATT_STREAM_BATCH	128
#define LATT_STREAM_BATCH_BYTES	(64ULL << 10)

/* @v - @d, floored at 0 (@d may be negative: @v moves up) */
static inline __u64 latt_sub_floor(__u64 v, __s64 d)
{
	if (d >= 0)
		return v > (__u64)d ? v - (__u64)d : 0;
	return v + (__u64)-d;
}

/**
 * latt_hist_shift() - the bucket of bucket @b's values less @d
 * @b: a histogram bucket
 * @d: cycles to take off (negative: to add)
 *
 * Exact where @b holds one value (below 2^LATT_HIST_SUB_BITS); above, the
 * bucket's middle is moved, so a value lands within one bucket of where it
 * would have been counted.  The last bucket (the overflow) stays.
 *
 * Return: the bucket that counts them.
 */
static inline __u32 latt_hist_shift(__u32 b, __s64 d)
{
	__u64 mid;

	if (b + 1 >= LATT_HIST_BUCKETS)
		return b;
	mid = latt_hist_lo(b) + (latt_hist_hi(b) - latt_hist_lo(b)) / 2;
	return latt_hist_index(latt_sub_floor(mid, d));
}

/**
 * latt_acct_merge() - add one thread's record into the run's
 * @to: the run's record (latt_acct_init()ed, its @hist zeroed, or NULL
 *	for no histogram)
 * @from: a thread's
 *
 * Sums, extremes, counters and the number of outlier records; the records
 * themselves stay with each thread (RESULT hands them out thread by
 * thread).  The run's overhead, @to->overhead, is thread 0's, set before
 * the first merge; each thread's samples enter moved by its own overhead
 * less that one (latt_hist_shift()), so that the run's figures less the
 * run's overhead are each sample less its own thread's overhead: threads
 * whose calibrations differ by a few cycles then share one corrected
 * scale.  The threshold is not merged.  A poisoned load: the first
 * thread's (in index order).
 */
static inline void latt_acct_merge(struct latt_acct *to,
				   const struct latt_acct *from)
{
	__s64 d = (__s64)(from->overhead - to->overhead);
	__u64 n = 0, c;
	__u32 b;

	if (from->hist)
		for (b = 0; b < LATT_HIST_BUCKETS; b++) {
			c = from->hist[b];
			if (!c)
				continue;
			n += c;
			if (to->hist)
				to->hist[d ? latt_hist_shift(b, d) : b] += c;
		}
	if (from->min != ~0ULL) {	/* it has samples: moved, as they */
		if (latt_sub_floor(from->min, d) < to->min)
			to->min = latt_sub_floor(from->min, d);
		if (latt_sub_floor(from->max, d) > to->max)
			to->max = latt_sub_floor(from->max, d);
	}
	to->sum += latt_sub_floor(from->sum, d * (__s64)n);
	to->sum_corrected += from->sum_corrected;
	to->hist_overflow += from->hist_overflow;
	to->backwards += from->backwards;
	to->outliers_seen += from->outliers_seen;
	to->outliers_dropped += from->outliers_dropped;
	to->nr_outliers += from->nr_outliers;
	to->nmi_windows += from->nmi_windows;
	if (from->window_cycles_max > to->window_cycles_max)
		to->window_cycles_max = from->window_cycles_max;
	if (from->mc && !to->mc) {
		to->mc = 1;
		to->mc_off = from->mc_off;
	}
}

#define LATT_EINTR	4	/* -EINTR: a thread stopped (as rules.h's EINVAL) */
#ifdef EINTR
_Static_assert(LATT_EINTR == EINTR, "LATT_EINTR is EINTR");
#endif

/**
 * struct latt_thread_rec - what a thread of either engine records of its
 *	run: what LATT_IOC_THREADS reports of it (latt_thread_stats_of()),
 *	what the run adds up
 * @acct: its samples' record (@acct.overhead: the calibration that
 *	corrects them, under load in a loaded run)
 * @count: the samples it counted, less the backwards ones
 * @overhead_min: the minimum of that calibration
 * @overhead_max: its maximum
 * @overhead_idle: the calibration before the common start (no traffic)
 * @overhead_end: the calibration again, after the samples; in a loaded run
 *	the median of the empty samples interleaved with them (latt_lcal)
 * @accesses: a streaming thread's whole accesses
 * @bytes_read: a streaming thread's bytes read
 * @bytes_written: a streaming thread's bytes written
 * @tsc_start: when its samples or its streaming began
 * @tsc_end: when they ended
 * @windows: the windows it ran (read while it runs: each engine writes it
 *	with its own store-release)
 * @part_offset: where its part of the region begins
 * @part_bytes: its part's length
 * @cpu: the CPU it is bound to
 * @role: LATT_ROLE_*
 * @error: how it ended: 0, or a negative errno (-EINTR: stopped)
 */
struct latt_thread_rec {
	struct latt_acct acct;
	__u64 count, overhead_min, overhead_max, overhead_idle, overhead_end;
	__u64 accesses, bytes_read, bytes_written;
	__u64 tsc_start, tsc_end;
	__u64 windows;
	__u64 part_offset, part_bytes;
	__u32 cpu, role;
	int error;
};

/**
 * latt_acct_result() - a run's figures from its merged record, as
 *	LATT_IOC_RESULT reports them
 * @a: the threads' records, merged (latt_acct_merge())
 * @count: the samples the run counted (no minimum without one)
 * @r: the result; its other fields are the engine's to fill
 */
static inline void latt_acct_result(const struct latt_acct *a, __u64 count,
				    struct latt_result *r)
{
	r->count = count;
	r->min = count ? a->min : 0;
	r->max = a->max;
	r->sum = a->sum;
	r->sum_corrected = a->sum_corrected;
	r->backwards = a->backwards;
	r->nmi_windows = a->nmi_windows;
	r->outliers = a->outliers_seen;
	r->outliers_dropped = a->outliers_dropped;
	r->hist_overflow = a->hist_overflow;
	r->window_cycles_max = a->window_cycles_max;
}

/**
 * latt_acct_thread_stats() - a thread's figures from its record, as
 *	LATT_IOC_THREADS reports them
 * @a: the thread's record
 * @count: the samples it counted (no minimum without one)
 * @st: the thread's entry; its other fields are the engine's to fill
 */
static inline void latt_acct_thread_stats(const struct latt_acct *a,
					  __u64 count,
					  struct latt_thread_stats *st)
{
	st->count = count;
	st->min = count ? a->min : 0;
	st->max = a->max;
	st->sum = a->sum;
	st->sum_corrected = a->sum_corrected;
	st->overhead = a->overhead;
	st->backwards = a->backwards;
	st->nmi_windows = a->nmi_windows;
	st->window_cycles_max = a->window_cycles_max;
	st->outliers = a->outliers_seen;
}

/**
 * latt_thread_stats_of() - a thread's entry of LATT_IOC_THREADS
 * @t: the thread's record
 * @node: the NUMA node of its CPU
 * @st: the entry, every field filled
 *
 * A thread that was stopped reports no error: the run's state says so.
 */
static inline void latt_thread_stats_of(const struct latt_thread_rec *t,
					__u32 node,
					struct latt_thread_stats *st)
{
	st->cpu = t->cpu;
	st->node = node;
	st->role = t->role;
	st->error = t->error == -LATT_EINTR ? 0 : t->error;
	st->part_offset = t->part_offset;
	st->part_bytes = t->part_bytes;
	latt_acct_thread_stats(&t->acct, t->count, st);
	st->overhead_end = t->overhead_end;
	st->overhead_idle = t->overhead_idle;
	st->accesses = t->accesses;
	st->bytes_read = t->bytes_read;
	st->bytes_written = t->bytes_written;
	st->tsc_start = t->tsc_start;
	st->tsc_end = t->tsc_end;
	st->windows = t->windows;
}

/**
 * latt_thread_role() - what thread @i of a run of @c does
 * @c: the configuration
 * @i: the thread's index, 0 for the one on .cpu
 *
 * Return: LATT_ROLE_STREAM for every thread of a bandwidth run and for
 * the traffic of a loaded one (all but thread 0); LATT_ROLE_LATENCY else.
 */
static inline __u32 latt_thread_role(const struct latt_config *c, __u32 i)
{
	return c->mode == LATT_MODE_BANDWIDTH ||
	       (c->mode == LATT_MODE_LOADED && i) ?
	       LATT_ROLE_STREAM : LATT_ROLE_LATENCY;
}

/**
 * latt_thread_outliers() - the outlier records thread @i may keep
 * @max: .max_outliers of the run
 * @nlat: the run's timing threads
 * @i: the thread's index among them
 *
 * The run's buffer shared out: no more records than asked in all.
 *
 * Return: the records of thread @i (0 without timing threads).
 */
static inline __u32 latt_thread_outliers(__u32 max, __u32 nlat, __u32 i)
{
	return nlat ? max / nlat + (i < max % nlat) : 0;
}

/**
 * latt_repeat_seed() - the seed of repeat @repeat of a run seeded @seed
 * (lattester-ctl run --repeat, sweep --repeat)
 * @seed: the run's --seed
 * @repeat: from 1
 *
 * The first repeat keeps @seed; the others get seeds of their own, apart
 * from every thread's stream (latt_prng_derive() of a thread index, below
 * LATT_MAX_THREADS): a repeat draws new addresses, not a replay.
 *
 * Return: the repeat's seed.
 */
static inline __u64 latt_repeat_seed(__u64 seed, __u32 repeat)
{
	return repeat <= 1 ? seed :
	       latt_prng_derive(seed, (1ULL << 32) + repeat);
}

/**
 * latt_thread_pattern() - the address generator of a run's thread
 * @pat: out
 * @c: the run's configuration
 * @idx: the thread's index
 * @n: the run's threads
 * @part_bytes: the bytes of its part (the region without LATT_CFG_SPLIT)
 * @shift: log2 of the region's chunks (latt_pattern_init_in())
 *
 * Each thread has a stream of its own (latt_prng_derive(): thread 0 draws
 * what a single-thread run with the seed draws, no thread replays
 * another's).  The streams of a chase run go sequentially, without its
 * TLB-locality block (its stride): only thread 0 chases.  Threads that
 * share the region with seq or stride start spread over it, thread i at
 * i/n of it (a line's start).
 *
 * Return: 0, or -EINVAL (-22) as latt_pattern_init_in().
 */
static inline int latt_thread_pattern(struct latt_pattern *pat,
				      const struct latt_config *c, __u32 idx,
				      __u32 n, __u64 part_bytes, __u32 shift)
{
	__u32 kind = c->pattern;
	__u64 stride = c->stride;
	int ret;

	if (latt_thread_role(c, idx) == LATT_ROLE_STREAM &&
	    kind == LATT_PAT_CHASE) {
		kind = LATT_PAT_SEQ;
		stride = 0;
	}
	ret = latt_pattern_init_in(pat, kind, c->size, stride, part_bytes,
				   latt_prng_derive(c->seed, idx), shift);
	if (ret)
		return ret;
	if (!(c->flags & LATT_CFG_SPLIT) && idx && n) {
		pat->i = pat->nslots * idx / n;
		if (pat->kind == LATT_PAT_STRIDE)
			pat->pos = (pat->span / n * idx) & ~(__u64)(LATT_LINE - 1);
	}
	return 0;
}

/**
 * latt_series_bins() - the bins of a bandwidth run's series
 * @window_cycles: a window's TSC cycles
 * @duration_cycles: the run's
 * @bin_cycles: out: one bin's TSC cycles, at least a window
 * @len: out: bins, at most LATT_MAX_SERIES
 */
static inline void latt_series_bins(__u64 window_cycles,
				    __u64 duration_cycles, __u64 *bin_cycles,
				    __u32 *len)
{
	__u64 c = (duration_cycles + LATT_MAX_SERIES - 2) /
		  (LATT_MAX_SERIES - 1);

	if (c < window_cycles)
		c = window_cycles;
	if (!c)
		c = 1;
	*bin_cycles = c;
	*len = (__u32)((duration_cycles + c - 1) / c + 1);
}

/**
 * struct latt_stream - a streaming thread's untimed accesses
 * @fa: the first @na accesses of a cycle: the op itself (bandwidth without
 *	a mix), else loads
 * @fw: the @nb writes of a --mix, with its write op
 * @fm: a --mix's loads and writes, in one call a batch; NULL: a call of
 *	@fa or @fw for each stretch of one kind (a stand-in's, in the tests)
 * @ctx: the argument of latt_stream_batch()'s @addr
 * @addr: the access under way, when accesses go in pieces
 * @off: its offset in the region
 * @part: where the thread's part of the region starts
 * @size: bytes an access
 * @piece_max: bytes moved between two looks at the TSC, at most
 *	LATT_STREAM_BATCH_BYTES: a larger access goes in pieces
 * @piece: bytes of the access under way moved so far
 * @na: accesses with @fa a cycle
 * @nb: writes with @fw a cycle
 * @k: where the cycle stands
 * @batch: whole accesses between two looks at the TSC (one with a delay,
 *	one piece for an access larger than LATT_STREAM_BATCH_BYTES)
 * @run: the same for seq, whose accesses in a chunk follow one another:
 *	LATT_STREAM_BATCH_BYTES of them (one with a delay)
 * @a_writes: @fa writes (a store op in bandwidth mode)
 * @cur_w: the access under way in pieces is a write
 * @accesses: whole accesses made
 * @rd: bytes read
 * @wr: bytes written
 * @mc: a load consumed poison: the stream stopped
 * @mc_off: the poisoned line's offset in the region
 */
struct latt_stream {
	latt_stream_fn fa, fw;
	latt_mix_fn fm;
	void *ctx;
	char *addr;
	__u64 off, part, size, piece_max, piece;
	__u32 na, nb, k, batch, run;
	int a_writes, cur_w;
	__u64 accesses, rd, wr;
	int mc;
	__u64 mc_off;
};

/**
 * latt_stream_init() - set up a streaming thread
 * @s: out
 * @c: the run's configuration
 * @op_fn: the op's stream function (pick.h's latt_pick_streams_of())
 * @read_fn: its loads
 * @write_fn: its mix's write op
 * @mix_fn: its mix's loads and writes in one call (pick.h), or NULL
 * @ctx: for latt_stream_batch()'s @addr
 * @part: the thread's part's first byte
 *
 * A cycle of mix_read accesses, then mix_write of the write op, each
 * followed by the run's delay (the engine's); without a --mix every access
 * is the op itself in bandwidth mode, a load in a loaded run's traffic.
 */
static inline void latt_stream_init(struct latt_stream *s,
				    const struct latt_config *c,
				    latt_stream_fn op_fn, latt_stream_fn read_fn,
				    latt_stream_fn write_fn,
				    latt_mix_fn mix_fn, void *ctx,
				    __u64 part)
{
	const int bw = c->mode == LATT_MODE_BANDWIDTH;
	const int mix = c->mix_read || c->mix_write;
	__u64 per;

	s->fa = bw && !mix ? op_fn : read_fn;
	s->fw = write_fn;
	s->fm = mix_fn;
	s->ctx = ctx;
	s->addr = (void *)0;	/* NULL, without a header for it */
	s->part = part;
	s->size = c->size;
	s->piece_max = c->size < LATT_STREAM_BATCH_BYTES ? c->size :
		       LATT_STREAM_BATCH_BYTES;
	s->piece = 0;
	s->na = mix ? c->mix_read : 1;
	s->nb = mix ? c->mix_write : 0;
	s->k = 0;
	/*
	 * between two looks at the TSC: LATT_STREAM_BATCH accesses, fewer
	 * for big ones (at most LATT_STREAM_BATCH_BYTES), one with a delay
	 */
	per = s->piece_max ? LATT_STREAM_BATCH_BYTES / s->piece_max : 1;
	s->batch = c->delay ? 1 : per < 1 ? 1 :
		   per > LATT_STREAM_BATCH ? LATT_STREAM_BATCH : (__u32)per;
	s->run = c->delay || per < 1 ? 1 : (__u32)per;
	s->a_writes = bw && !mix && latt_rule_is_store(c->op);
	s->cur_w = 0;
	s->accesses = s->rd = s->wr = 0;
	s->off = 0;
	s->mc = 0;
	s->mc_off = LATT_MC_UNKNOWN;
}

/*
 * latt_stream_piece() - one piece of an access larger than
 *	LATT_STREAM_BATCH_BYTES (latt_stream_batch())
 */
static __always_inline void latt_stream_piece(struct latt_stream *s,
					      struct latt_pattern *pat,
					      char *(*addr)(void *ctx,
							    __u64 off))
{
	__u64 len, r;
	char *a;

	if (!s->piece) {	/* a new access */
		s->off = s->part + latt_pattern_next(pat);
		s->addr = addr(s->ctx, s->off);
		s->cur_w = s->k >= s->na;
		if (++s->k == s->na + s->nb)
			s->k = 0;
	}
	len = s->size - s->piece < s->piece_max ? s->size - s->piece :
	      s->piece_max;
	a = s->addr + s->piece;
	r = (s->cur_w ? s->fw : s->fa)(&a, 1, len);
	if (__builtin_expect(latt_mc(r), 0)) {
		s->mc = 1;
		s->mc_off = s->off + s->piece + latt_mc_byte(r);
		return;
	}
	if (s->cur_w || s->a_writes)
		s->wr += len;
	else
		s->rd += len;
	s->piece += len;
	if (s->piece == s->size) {
		s->piece = 0;
		s->accesses++;
	}
}

/*
 * latt_mix_reads() - how many of @n accesses of a --mix are loads, the
 * first at place @k of its cycle of @na loads and then writes up to @cyc
 */
static inline __u32 latt_mix_reads(__u32 k, __u32 n, __u32 na, __u32 cyc)
{
	__u32 r = n / cyc * na, e = k + n % cyc;

	/* the rest: places k to e - 1, past cyc from 0 again */
	if (k < na)
		r += (e < na ? e : na) - k;
	if (e > cyc)
		r += e - cyc < na ? e - cyc : na;
	return r;
}

/*
 * latt_stream_replay() - the offset of access @nth (from 0) of a batch
 * whose generator stood at @state, @pi and @pos when it began (@pat as it
 * is now for the rest), drawn again: a poisoned access's, as only the
 * batch's addresses are kept
 */
static __always_inline __u64 latt_stream_replay(const struct latt_pattern *pat,
						__u64 state, __u64 pi,
						__u64 pos, __u32 nth)
{
	struct latt_pattern before = *pat;
	__u64 o = 0;
	__u32 j;

	before.prng.state = state;
	before.i = pi;
	before.pos = pos;
	for (j = 0; j <= nth; j++)
		o = latt_pattern_next(&before);
	return o;
}

/**
 * latt_stream_batch() - one batch of a streaming thread's accesses
 * @s: the thread's stream, its counters advanced
 * @pat: its address generator
 * @addr: the address of an offset of the region, called with @s->ctx
 *	(always inlined, as latt_step()'s)
 *
 * Up to @s->batch whole accesses (@s->run for seq), in stretches of one
 * kind (a --mix's cycle), each stretch's offsets drawn first, all at once
 * (latt_pattern_fill_at()), then one call of the stream function makes
 * them, so that the loads in flight wait for nothing of the arithmetic.  seq's
 * accesses that follow one another in a chunk (latt_pattern_run()) are
 * one access of their whole length, up to LATT_STREAM_BATCH_BYTES: the
 * same lines in the same order, with no arithmetic per access at all.
 * The counters are read into locals and written back once: a field stored
 * and read back at another width on each access stalls the next read
 * until the store retires, behind the miss before it, and that is one
 * miss in flight (issue 27).
 *
 * A --mix with both kinds (@s->fm) draws up to @s->batch offsets, a seq
 * one run after another, and makes them in one call, its loads and
 * writes in their order.
 *
 * An access larger than LATT_STREAM_BATCH_BYTES is made in pieces, so the
 * caller looks at the TSC at least every LATT_STREAM_BATCH_BYTES: an
 * access may go on in the next window.  Bytes are counted as they are
 * moved.  Writes are not fenced here: the caller fences once a window.
 * A load that consumed poison stops the batch, the accesses before it
 * counted, its own not, with @s->mc and @s->mc_off set.
 */
static __always_inline void latt_stream_batch(struct latt_stream *s,
					      struct latt_pattern *pat,
					      char *(*addr)(void *ctx,
							    __u64 off))
{
	/* filled before it is read: not zeroed each batch by a kernel with
	 * CONFIG_INIT_STACK_ALL_ZERO (1 KiB a batch) */
	char *a[LATT_STREAM_BATCH] __uninitialized;
	const __u64 part = s->part, size = s->size;
	const __u32 na = s->na, cyc = s->na + s->nb;
	const int seq = pat->kind == LATT_PAT_SEQ, one = !na || !s->nb;
	const __u32 cap = seq ? s->run : s->batch;
	__u32 k = s->k, done = 0, n, i, j;
	__u64 r, o = 0, state = 0, pi = 0, pos = 0;
	int w;

	if (size > s->piece_max) {
		latt_stream_piece(s, pat, addr);
		return;
	}
	/*
	 * Only the batch's addresses are kept (a batch of offsets too would
	 * be twice the stack): a poisoned access's offset is drawn again
	 * from the generator as it was.  What a draw changes is kept field
	 * by field: a copy of the whole struct reads the state just stored
	 * in wider loads, which the store queue can't forward, and waits for
	 * the misses before.
	 */
	state = pat->prng.state;
	pi = pat->i;
	pos = pat->pos;
	if (!one && s->fm) {
		/* a --mix: its batch in one call, loads and writes in order */
		n = s->batch;
		if (seq) {
			for (; done < n; done += j) {
				j = latt_pattern_run(pat, n - done, &o);
				for (i = 0; i < j; i++)
					a[done + i] = addr(s->ctx, part + o +
							   (__u64)i * size);
			}
		} else {
			latt_pattern_fill_at(pat, (__u64 *)0, a, n, addr,
					     s->ctx, part);
		}
		r = s->fm(a, n, size, k, na, cyc);
		if (__builtin_expect(latt_mc(r), 0)) {
			i = latt_mc_access(r);
			o = latt_stream_replay(pat, state, pi, pos, i);
			s->mc = 1;
			s->mc_off = part + o + latt_mc_byte(r) % size;
			n = i;		/* the ones before it were made */
		}
		i = latt_mix_reads(k, n, na, cyc);
		s->accesses += n;
		s->rd += (__u64)i * size;
		s->wr += (__u64)(n - i) * size;
		s->k = (k + n) % cyc;
		return;
	}
	if (!seq) {
		/* the batch's addresses, all at once */
		latt_pattern_fill_at(pat, (__u64 *)0, a, cap, addr, s->ctx,
				     part);
	}
	do {
		/* a stretch of one kind: a --mix's cycle splits the batch */
		if (one) {
			w = !na;
			n = cap;
		} else {
			w = k >= na;
			n = (w ? cyc : na) - k;
			if (n > cap - done)
				n = cap - done;
		}
		if (seq) {
			/*
			 * the accesses that follow one another in a chunk:
			 * one of their whole length, the same lines in the
			 * same order
			 */
			n = latt_pattern_run(pat, n, &o);
			a[0] = addr(s->ctx, part + o);
			r = (w ? s->fw : s->fa)(a, 1, (__u64)n * size);
		} else {
			r = (w ? s->fw : s->fa)(a + done, n, size);
		}
		if (__builtin_expect(latt_mc(r), 0)) {
			if (seq) {
				i = (__u32)(latt_mc_byte(r) / size);
				o += (__u64)i * size;
			} else {
				i = latt_mc_access(r);
				o = latt_stream_replay(pat, state, pi, pos,
						       done + i);
			}
			s->mc = 1;
			s->mc_off = part + o + latt_mc_byte(r) % size;
			n = i;		/* the ones before it were made */
		} else if (!one) {
			k += n;
			if (k == cyc)
				k = 0;
		}
		s->accesses += n;
		if (w || s->a_writes)
			s->wr += (__u64)n * size;
		else
			s->rd += (__u64)n * size;
		done += n;
		/* no stretch is empty; one would spin here, interrupts off */
	} while (n && !one && done < cap && !s->mc);
	s->k = k;
}

/* One pause of a busy wait: the kernel's cpu_relax(). */
static __always_inline void latt_relax(void)
{
	__asm__ __volatile__("pause" : : : "memory");
}

/**
 * latt_spin() - busy-wait @cycles TSC cycles, a streaming thread's
 *	injection delay, but not past @limit (the window's end)
 * @cycles: the delay
 * @limit: a TSC not to wait past
 * @tsc: the windows' clock
 *
 * Return: the TSC it stopped at.
 */
static __always_inline __u64 latt_spin(__u64 cycles, __u64 limit,
				       latt_tsc_fn tsc)
{
	__u64 t0 = tsc(), now = t0;

	while (now - t0 < cycles && now < limit) {
		latt_relax();
		now = tsc();
	}
	return now;
}

/**
 * latt_stream_window() - one window of a streaming thread: batches of
 *	latt_stream_batch(), each whole access followed by @delay cycles,
 *	until @window_cycles have passed since @w0 or @end came
 * @s: the thread's stream, its counters advanced
 * @pat: its address generator
 * @w0: the TSC the window began at
 * @window_cycles: the window's length
 * @end: the run's end (a bandwidth run's deadline), or ~0
 * @delay: cycles to wait after each access (--delay), 0 for none
 * @addr: as for latt_stream_batch()
 * @tsc: the windows' clock
 *
 * At least one batch is made; no delay runs past the window's end.  The
 * stores are not fenced here: the engine fences once a window, after.
 * A poisoned load (@s->mc) ends the window.
 *
 * Return: the TSC at the window's end.
 */
static __always_inline __u64 latt_stream_window(struct latt_stream *s,
						struct latt_pattern *pat,
						__u64 w0, __u64 window_cycles,
						__u64 end, __u64 delay,
						char *(*addr)(void *ctx,
							      __u64 off),
						latt_tsc_fn tsc)
{
	const __u64 lim = w0 + window_cycles < end ? w0 + window_cycles : end;
	__u64 now;

	do {
		latt_stream_batch(s, pat, addr);
		now = delay && !s->piece && !s->mc ?
		      latt_spin(delay, lim, tsc) : tsc();
	} while (now - w0 < window_cycles && now < end && !s->mc);
	return now;
}

#endif /* _LATTESTER_CORE_H */
