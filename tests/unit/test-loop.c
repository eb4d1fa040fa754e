// SPDX-License-Identifier: GPL-2.0
/*
 * test-loop.c - the sample loop both engines share (include/lattester/
 * core.h), on the host, against a stand-in timer.
 *
 * The module reaches its region through 4 MiB chunks anywhere in memory,
 * the user engine through one mapping.  Here both layouts hold the same
 * data, every line's first word its own offset, and a stand-in sample
 * function turns the line it is handed into "cycles" by that offset: a
 * figure that depends only on which line was sampled.  The loop of each
 * engine (latt_sample_window() on a stand-in clock that each sample moves
 * on, latt_acct_window()) must then give the same record in both
 * layouts, for flushed, warmed and chased samples, and that record must
 * be what an independent count of the same figures gives: histogram,
 * min, max, sums, backwards samples, outliers seen, recorded and dropped,
 * each record's sample, time, offset, cycles and window, NMI flags.
 *
 * The streams of bandwidth and loaded runs (struct latt_stream) likewise:
 * stand-in stream functions log each call's line, length and kind; both
 * layouts must log the same calls, and those calls must be what the
 * configuration asks (the mix's cycle, pieces of large accesses, the
 * pattern's offsets in the thread's part) with the bytes counted right.
 * The calibration's empty sample and the choice of step; the windows of
 * the calibration and of the streams on stand-in clocks (their ends, the
 * delay after each access never past them).  And the rest of
 * what several threads share: the split, each thread's
 * pattern and share of records, the series' bins, the merge.
 *
 *   cc -I include -o test-loop tests/unit/test-loop.c && ./test-loop
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lattester/core.h>
#include "../tap.h"

#define REGION		(16ULL << 20)
#define CHUNK		(4ULL << 20)
#define NCHUNKS		(REGION / CHUNK)
#define SAMPLES		30000ULL
#define PER_WINDOW	97ULL	/* the stand-in window: this many samples */
#define OVERHEAD	40ULL
#define THRESHOLD	4000ULL
#define MAX_OUT		64U
#define BACKWARDS_EVERY	1009ULL	/* a sample whose t1 < t0 */

/*
 * The stand-in figure of the line at @off: mostly 100..1599 and a tail
 * (about 1/64), and at fixed lines the edges: a figure just at the
 * threshold after the overhead (not an outlier) and one above it, one
 * above the threshold only before the overhead is taken off (not an
 * outlier), one past the histogram's range, and t1 < t0.
 */
static __u64 figure(__u64 off)
{
	__u64 line = off >> 6, h = line * 0x9e3779b97f4a7c15ULL;

	switch (line % BACKWARDS_EVERY) {
	case 7:
		return (__u64)-5;	/* latt_backwards() */
	case 11:
		return THRESHOLD + OVERHEAD;
	case 13:
		return THRESHOLD + OVERHEAD + 1;
	case 17:
		return THRESHOLD + 1;
	case 19:
		return (1ULL << LATT_HIST_MAX_BITS) + line;
	}
	if ((h >> 58) == 0)
		return 5000 + (h >> 40) % 60000;
	return 100 + (h >> 32) % 1500;
}

/*
 * The stand-in clock of the windows: each sample takes TICK cycles of it.
 * The stand-in sample functions log the offset of the line they were
 * handed into fake_log, sample by sample (what the loop sampled, seen
 * from the sample function's side).
 */
#define TICK		10ULL
static __u64 fake_clock, fake_logged, *fake_log;

static __u64 fake_tsc(void)
{
	return fake_clock;
}

static __u64 fake_took(__u64 off)
{
	if (fake_log && fake_logged < SAMPLES)
		fake_log[fake_logged] = off;
	fake_logged++;
	fake_clock += TICK;
	return figure(off);
}

static __u64 fake_fn(char *addr, __u64 size)
{
	(void)size;
	return fake_took(*(__u64 *)addr);
}

/* the offset chase: each node's first word the next one's offset */
static __u64 fake_chase_off(char *base, __u64 mask, __u64 *pos, __u32 chain)
{
	__u64 cyc = fake_took(((struct latt_chase_node *)(base + *pos))->offset);
	__u32 i;

	for (i = 0; i < chain; i++)
		*pos = *(__u64 *)(base + *pos) & mask;
	return cyc;
}

static __u64 fake_chase(char **pos, __u32 chain)
{
	struct latt_chase_node *n = (struct latt_chase_node *)*pos;
	__u64 cyc = fake_took(n->offset);
	__u32 i;

	for (i = 0; i < chain; i++) {
		*pos = n->next;
		n = (struct latt_chase_node *)*pos;
	}
	return cyc;
}

/* the two layouts */
struct layout {
	char *flat;			/* the user engine's one mapping */
	char *chunk[NCHUNKS];		/* the module's chunks */
	int chunked;
};

static char *flat_addr(void *ctx, __u64 off)
{
	return ((struct layout *)ctx)->flat + off;
}

static char *chunk_addr(void *ctx, __u64 off)
{
	return ((struct layout *)ctx)->chunk[off / CHUNK] + off % CHUNK;
}

static char *addr_of(struct layout *l, __u64 off)
{
	return l->chunked ? chunk_addr(l, off) : flat_addr(l, off);
}

static struct latt_chase_node *node_of(void *ctx, __u64 slot)
{
	return (struct latt_chase_node *)addr_of(ctx, slot * 64);
}

static int layout_init(struct layout *l, int chunked)
{
	int i;

	memset(l, 0, sizeof(*l));
	l->chunked = chunked;
	if (!chunked) {
		l->flat = aligned_alloc(4096, REGION);
		if (!l->flat)
			return -1;
	} else {
		/* allocated last chunk first: not one contiguous run */
		for (i = NCHUNKS - 1; i >= 0; i--) {
			l->chunk[i] = aligned_alloc(4096, CHUNK);
			if (!l->chunk[i])
				return -1;
		}
	}
	return 0;
}

/* every line's first word its own offset (a chase build overwrites it) */
static void layout_fill(struct layout *l)
{
	__u64 off;

	for (off = 0; off < REGION; off += 64)
		*(__u64 *)addr_of(l, off) = off;
}

static void layout_free(struct layout *l)
{
	int i;

	free(l->flat);
	for (i = 0; i < (int)NCHUNKS; i++)
		free(l->chunk[i]);
}

/* what a run is asked: the step's mode, the threshold, the records'
 * room, where the thread's part begins */
struct ask {
	int mode;
	__u64 threshold;
	__u32 max_out;
	__u64 part;
};

struct record {
	struct ask ask;
	struct latt_acct a;
	__u64 hist[LATT_HIST_BUCKETS];
	struct latt_outlier out[MAX_OUT];
	__u64 offs[SAMPLES];	/* what the sample functions were handed */
	__u64 logged;		/* samples the sample functions saw */
	__u64 windows, bad_windows;
};

/*
 * The engines' loop: latt_sample_window() on the stand-in clock, windows
 * of TICK * PER_WINDOW cycles, so PER_WINDOW samples; every third window
 * "saw an NMI".  A window of another count of samples, or whose end is
 * not its last sample's, is counted in @rec->bad_windows.
 */
static void run_loop(struct layout *l, struct ask ask, struct record *rec)
{
	const int chase = ask.mode == LATT_STEP_CHASE ||
			  ask.mode == LATT_STEP_CHASE_OFF;
	struct latt_pattern pat;
	struct latt_step s = {
		.fn = fake_fn, .chase = fake_chase, .chase_off = fake_chase_off,
		.ctx = l, .base = l->flat, .mask = (REGION - 1) & ~7ULL,
		.part = ask.part, .size = 64, .chain = 1, .mode = ask.mode,
	};
	__u64 done = 0, window = 0, from, w0, now;
	__u32 first;

	memset(rec, 0, sizeof(*rec));
	rec->ask = ask;
	/* a flushed or warmed thread's part: the region past ask.part */
	latt_pattern_init(&pat, chase ? LATT_PAT_CHASE : LATT_PAT_RAND, 64, 0,
			  REGION - ask.part, 0x1a77e57e);
	layout_fill(l);
	if (chase) {
		struct latt_chase ch;

		latt_chase_init(&ch, &pat, node_of, l,
				ask.mode == LATT_STEP_CHASE_OFF);
		while (latt_chase_step(&ch, ~0ULL))
			;
		s.pos = (char *)node_of(l, 0);
	}
	latt_acct_init(&rec->a);
	rec->a.hist = rec->hist;
	rec->a.outliers = rec->out;
	rec->a.max_outliers = ask.max_out;
	rec->a.overhead = OVERHEAD;
	rec->a.threshold = ask.threshold;
	rec->a.tsc0 = 1000;
	rec->a.cpu = 3;
	fake_clock = 1000;
	fake_logged = 0;
	fake_log = rec->offs;
	while (done < SAMPLES) {
		first = rec->a.nr_outliers;
		from = done;
		w0 = fake_tsc();
		now = l->chunked ?
		      latt_sample_window(&s, &pat, &rec->a, &done, SAMPLES, w0,
					 TICK * PER_WINDOW, window, chunk_addr,
					 fake_tsc) :
		      latt_sample_window(&s, &pat, &rec->a, &done, SAMPLES, w0,
					 TICK * PER_WINDOW, window, flat_addr,
					 fake_tsc);
		if (done - from != (SAMPLES - from < PER_WINDOW ?
				    SAMPLES - from : PER_WINDOW) ||
		    now != w0 + TICK * (done - from))
			rec->bad_windows++;
		latt_acct_window(&rec->a, 10 * PER_WINDOW + window % 5,
				 window % 3 == 2, first);
		window++;
	}
	fake_log = NULL;
	rec->logged = fake_logged;
	rec->windows = window;
}

/* an independent count of the figures of the offsets @rec sampled */
static int model_agrees(const struct record *rec, char *why, size_t len)
{
	static __u64 hist[LATT_HIST_BUCKETS];
	const struct ask *ask = &rec->ask;
	__u64 i, cyc, corr, min = ~0ULL, max = 0, sum = 0, sumc = 0, back = 0,
	      seen = 0, nrec = 0, nmi = 0, over = 0, wmax = 0;

	memset(hist, 0, sizeof(hist));
	for (i = 0; i * PER_WINDOW < SAMPLES; i++)
		if (10 * PER_WINDOW + i % 5 > wmax)
			wmax = 10 * PER_WINDOW + i % 5;
	for (i = 0; i < SAMPLES; i++) {
		if (ask->mode <= LATT_STEP_WARM &&
		    (rec->offs[i] < ask->part || rec->offs[i] >= REGION))
			return snprintf(why, len, "sample %llu at offset %llu, outside the thread's part",
					(unsigned long long)i,
					(unsigned long long)rec->offs[i]), 0;
		cyc = figure(rec->offs[i]);
		if ((__s64)cyc < 0) {
			back++;
			continue;
		}
		hist[latt_hist_index(cyc)]++;
		over += cyc >= 1ULL << LATT_HIST_MAX_BITS;
		min = cyc < min ? cyc : min;
		max = cyc > max ? cyc : max;
		sum += cyc;
		corr = cyc > OVERHEAD ? cyc - OVERHEAD : 0;
		sumc += corr;
		if (!ask->threshold || corr <= ask->threshold)
			continue;
		seen++;
		if (nrec < ask->max_out) {
			const struct latt_outlier *o = &rec->out[nrec++];
			int want_nmi = (i / PER_WINDOW) % 3 == 2;

			if (o->sample != i || o->offset != rec->offs[i] ||
			    o->cycles != cyc || o->window != i / PER_WINDOW ||
			    o->tsc != TICK * i || o->cpu != 3 ||
			    !!(o->flags & LATT_OUT_NMI) != want_nmi) {
				snprintf(why, len, "outlier record %llu: sample %llu offset %llu cycles %llu window %llu tsc %llu flags %u",
					 nrec - 1, (unsigned long long)o->sample,
					 (unsigned long long)o->offset,
					 (unsigned long long)o->cycles,
					 (unsigned long long)o->window,
					 (unsigned long long)o->tsc, o->flags);
				return 0;
			}
			nmi += want_nmi;
		}
	}
	if (memcmp(hist, rec->hist, sizeof(hist)))
		return snprintf(why, len, "histograms differ"), 0;
	if (min != rec->a.min || max != rec->a.max || sum != rec->a.sum ||
	    sumc != rec->a.sum_corrected || back != rec->a.backwards ||
	    over != rec->a.hist_overflow || wmax != rec->a.window_cycles_max ||
	    seen != rec->a.outliers_seen || nrec != rec->a.nr_outliers ||
	    seen - nrec != rec->a.outliers_dropped) {
		snprintf(why, len, "counts: min %llu/%llu max %llu/%llu back %llu/%llu seen %llu/%llu kept %llu/%u",
			 (unsigned long long)min,
			 (unsigned long long)rec->a.min,
			 (unsigned long long)max,
			 (unsigned long long)rec->a.max,
			 (unsigned long long)back,
			 (unsigned long long)rec->a.backwards,
			 (unsigned long long)seen,
			 (unsigned long long)rec->a.outliers_seen,
			 (unsigned long long)nrec, rec->a.nr_outliers);
		return 0;
	}
	snprintf(why, len, "%llu backwards, %llu outliers (%llu kept, %llu in NMI windows), min %llu, max %llu",
		 (unsigned long long)back, (unsigned long long)seen,
		 (unsigned long long)nrec, (unsigned long long)nmi,
		 (unsigned long long)min, (unsigned long long)max);
	return 1;
}

static int same(const struct record *x, const struct record *y)
{
	return !memcmp(x->hist, y->hist, sizeof(x->hist)) &&
	       !memcmp(x->offs, y->offs, sizeof(x->offs)) &&
	       !memcmp(x->out, y->out, sizeof(x->out)) &&
	       x->a.min == y->a.min && x->a.max == y->a.max &&
	       x->a.sum == y->a.sum &&
	       x->a.sum_corrected == y->a.sum_corrected &&
	       x->a.backwards == y->a.backwards &&
	       x->a.hist_overflow == y->a.hist_overflow &&
	       x->a.outliers_seen == y->a.outliers_seen &&
	       x->a.outliers_dropped == y->a.outliers_dropped &&
	       x->a.nr_outliers == y->a.nr_outliers &&
	       x->a.nmi_windows == y->a.nmi_windows &&
	       x->a.window_cycles_max == y->a.window_cycles_max;
}

/* ---- the streams ---- */

#define SLOG_MAX	(1U << 18)	/* lines */
#define SCALL_MAX	4096U		/* calls */

/* one line a stream function touched, in the order it did */
struct sline {
	__u64 off;
	int w;
};

static struct sline slog[SLOG_MAX];
static unsigned int nslog;
static __u64 scall_bytes[SCALL_MAX];
static unsigned int nscall;

/*
 * Every line's first word is its offset (layout_fill()): the lines a call
 * touches, in its order, and its bytes.  A call that ran past its chunk
 * (the module's chunks are apart) would read another allocation's words.
 */
static void slog_add(char *const *addr, __u32 n, __u64 len, int w)
{
	__u64 at;
	__u32 i;

	for (i = 0; i < n; i++)
		for (at = 0; at < len && nslog < SLOG_MAX; at += 64)
			slog[nslog++] = (struct sline){
				*(__u64 *)(addr[i] + at), w };
	if (nscall < SCALL_MAX)
		scall_bytes[nscall++] = (__u64)n * len;
}

static __u64 fake_sread(char *const *addr, __u32 n, __u64 len)
{
	slog_add(addr, n, len, 0);
	return 0;
}

static __u64 fake_swrite(char *const *addr, __u32 n, __u64 len)
{
	slog_add(addr, n, len, 1);
	return 0;
}

/* a --mix's one call a batch (LATT_STREAM_MIX()): each access's kind by
 * its place in the cycle */
static __u64 fake_smix(char *const *addr, __u32 n, __u64 len, __u32 k,
		       __u32 na, __u32 cyc)
{
	__u64 at;
	__u32 i;

	for (i = 0; i < n; i++) {
		for (at = 0; at < len && nslog < SLOG_MAX; at += 64)
			slog[nslog++] = (struct sline){
				*(__u64 *)(addr[i] + at), k >= na };
		if (++k == cyc)
			k = 0;
	}
	if (nscall < SCALL_MAX)
		scall_bytes[nscall++] = (__u64)n * len;
	return 0;
}

struct stream_rec {
	struct sline lines[SLOG_MAX];
	unsigned int n, calls;
	__u64 most;		/* the most bytes of one call */
	__u64 accesses, rd, wr;
};

/*
 * @batches of latt_stream_batch() in layout @l, as a thread of @c would;
 * a --mix in one call a batch, as the engines make it, or with @stretch a
 * call for each stretch of one kind
 */
static void run_stream(struct layout *l, const struct latt_config *c,
		       __u64 part, __u64 region, __u64 start,
		       unsigned int batches, int stretch,
		       struct stream_rec *rec)
{
	struct latt_pattern pat;
	struct latt_stream s;
	unsigned int b;

	nslog = 0;
	nscall = 0;
	latt_pattern_init(&pat, c->pattern, c->size, c->stride, region,
			  c->seed);
	pat.i = start;		/* a thread's spread start (latt_thread_pattern()) */
	latt_stream_init(&s, c, latt_rule_is_store(c->op) ? fake_swrite :
			 fake_sread, fake_sread, fake_swrite,
			 stretch ? NULL : fake_smix, l, part);
	for (b = 0; b < batches; b++)
		latt_stream_batch(&s, &pat, l->chunked ? chunk_addr :
				  flat_addr);
	memcpy(rec->lines, slog, nslog * sizeof(*slog));
	rec->n = nslog;
	rec->calls = nscall;
	rec->most = 0;
	for (b = 0; b < nscall; b++)
		if (scall_bytes[b] > rec->most)
			rec->most = scall_bytes[b];
	rec->accesses = s.accesses;
	rec->rd = s.rd;
	rec->wr = s.wr;
}

/*
 * Is @r what @c asks, counted independently?  The lines, in order: the
 * k-th access's lines at the k-th offset of the pattern, in the part, one
 * after another; its kind by the mix's cycle; the bytes and whole
 * accesses counted; no call of more than 64 KiB (a look at the TSC at
 * least every 64 KiB: an access larger goes in pieces).
 */
static int stream_agrees(const struct stream_rec *r,
			 const struct latt_config *c, __u64 part,
			 __u64 region, __u64 start, char *why, size_t len)
{
	const int mix = c->mix_read || c->mix_write;
	const __u32 na = mix ? c->mix_read : 1, nb = mix ? c->mix_write : 0;
	const int a_w = c->mode == LATT_MODE_BANDWIDTH && !mix &&
			latt_rule_is_store(c->op);
	struct latt_pattern pat;
	__u64 rd = 0, wr = 0, acc = 0, at = 0, base = 0;
	unsigned int i;
	int w = 0;

	latt_pattern_init(&pat, c->pattern, c->size, c->stride, region,
			  c->seed);
	pat.i = start;
	for (i = 0; i < r->n; i++) {
		if (!at) {
			base = part + latt_pattern_next(&pat);
			w = (acc % (na + nb)) >= na;
		}
		if (r->lines[i].off != base + at ||
		    r->lines[i].w != (w || a_w)) {
			snprintf(why, len, "line %u: %llu, %s; want %llu, a %s",
				 i, (unsigned long long)r->lines[i].off,
				 r->lines[i].w ? "write" : "read",
				 (unsigned long long)(base + at),
				 w || a_w ? "write" : "read");
			return 0;
		}
		if (w || a_w)
			wr += 64;
		else
			rd += 64;
		at += 64;
		if (at == c->size) {
			at = 0;
			acc++;
		}
	}
	if (rd != r->rd || wr != r->wr || acc != r->accesses ||
	    r->most > (64ULL << 10)) {
		snprintf(why, len, "counted %llu read, %llu written, %llu accesses; want %llu, %llu, %llu; %llu bytes in one call (64 KiB at most)",
			 (unsigned long long)r->rd, (unsigned long long)r->wr,
			 (unsigned long long)r->accesses,
			 (unsigned long long)rd, (unsigned long long)wr,
			 (unsigned long long)acc, (unsigned long long)r->most);
		return 0;
	}
	snprintf(why, len, "%u lines in %u calls, %llu accesses", r->n,
		 r->calls, (unsigned long long)acc);
	return 1;
}

static void test_streams(struct layout *lf, struct layout *lc)
{
	static struct stream_rec rf, rc, rs;
	static const struct {
		__u32 mode, op, pattern;
		__u64 size;
		__u16 mr, mw;
		__u64 delay, part;
		const char *name;
		__u64 start;	/* the pattern's first seq slot */
		__u64 region;	/* the pattern's; 0: the part's (REGION, or
				 * REGION / 2 from the upper half) */
	} cases[] = {
		{ LATT_MODE_BANDWIDTH, LATT_OP_LOAD, LATT_PAT_SEQ, 4096, 0, 0,
		  0, 0, "bandwidth, seq loads of 4 KiB", 0, 0 },
		{ LATT_MODE_BANDWIDTH, LATT_OP_NT_STORE, LATT_PAT_RAND, 64, 0,
		  0, 0, REGION / 2, "bandwidth, rand nt-stores in the upper half", 0, 0 },
		{ LATT_MODE_BANDWIDTH, LATT_OP_LOAD, LATT_PAT_RAND, 256, 3, 2,
		  0, 0, "bandwidth, --mix 3:2", 0, 0 },
		{ LATT_MODE_LOADED, LATT_OP_STORE, LATT_PAT_SEQ, 64, 0, 0, 0,
		  0, "loaded traffic of a store run: loads", 0, 0 },
		{ LATT_MODE_BANDWIDTH, LATT_OP_LOAD, LATT_PAT_SEQ, 256 << 10,
		  1, 1, 0, 0, "256 KiB accesses, --mix 1:1: 64 KiB pieces", 0, 0 },
		{ LATT_MODE_BANDWIDTH, LATT_OP_LOAD, LATT_PAT_RAND, 64, 0, 3,
		  100, 0, "--mix 0:3 with a delay: one access a batch", 0, 0 },
		{ LATT_MODE_BANDWIDTH, LATT_OP_STORE, LATT_PAT_SEQ, 192, 0, 0,
		  0, REGION / 2, "seq 192 B in the upper half, past a chunk's end", 0, 0 },
		{ LATT_MODE_BANDWIDTH, LATT_OP_LOAD, LATT_PAT_SEQ, 64, 0, 0, 0,
		  0, "seq 64 B from 5 lines before a chunk's end: a batch across it",
		  (CHUNK >> 6) - 5, 0 },
		{ LATT_MODE_BANDWIDTH, LATT_OP_LOAD, LATT_PAT_SEQ, 192, 3, 2, 0,
		  0, "seq 192 B, --mix 3:2, across a chunk's end",
		  (CHUNK / 192) - 7, 0 },
		{ LATT_MODE_BANDWIDTH, LATT_OP_LOAD, LATT_PAT_SEQ, 64, 0, 0, 0,
		  0, "seq 64 B in a 1 MiB part (a split's), from 5 lines before its end: wraps",
		  (1 << 14) - 5, 1 << 20 },
		{ LATT_MODE_BANDWIDTH, LATT_OP_LOAD, LATT_PAT_RAND, 64, 1, 1,
		  0, 0, "bandwidth, rand 64 B, --mix 1:1", 0, 0 },
		{ LATT_MODE_BANDWIDTH, LATT_OP_LOAD, LATT_PAT_SEQ, 64, 1, 1, 0,
		  0, "seq 64 B, --mix 1:1, across a chunk's end",
		  (CHUNK >> 6) - 5, 0 },
		{ LATT_MODE_LOADED, LATT_OP_LOAD, LATT_PAT_SEQ, 64, 2, 1, 0,
		  0, "loaded traffic, seq 64 B, --mix 2:1 in a 1 MiB part: wraps",
		  (1 << 14) - 7, 1 << 20 },
	};
	unsigned int batches, n;
	__u64 region;
	__u32 per;
	struct latt_config c;
	struct latt_stream s;
	char why[256];
	unsigned int i;

	layout_fill(lf);
	layout_fill(lc);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&c, 0, sizeof(c));
		c.mode = cases[i].mode;
		c.op = cases[i].op;
		c.pattern = cases[i].pattern;
		c.size = cases[i].size;
		c.mix_read = cases[i].mr;
		c.mix_write = cases[i].mw;
		c.delay = cases[i].delay;
		c.seed = 0x5eed + i;
		/* 192 B: 4 MiB and more, across the first chunk's 64 B tail */
		batches = c.size == 192 ? 100 : 200;
		region = cases[i].region ? cases[i].region :
			 cases[i].part ? REGION / 2 : REGION;
		run_stream(lf, &c, cases[i].part, region, cases[i].start,
			   batches, 0, &rf);
		run_stream(lc, &c, cases[i].part, region, cases[i].start,
			   batches, 0, &rc);
		if (c.mix_read && c.mix_write) {
			/*
			 * the same lines and kinds, in the same order, as a
			 * call for each stretch of one kind makes them (seq's
			 * batches of stretches run to 64 KiB, of one call to
			 * LATT_STREAM_BATCH accesses: the shorter's lines)
			 */
			run_stream(lf, &c, cases[i].part, region,
				   cases[i].start, batches, 1, &rs);
			n = rs.n < rf.n ? rs.n : rf.n;
			check(n && (c.pattern == LATT_PAT_SEQ || rs.n == rf.n) &&
			      !memcmp(rf.lines, rs.lines, n * sizeof(*rf.lines)) &&
			      rf.calls == batches && rf.calls <= rs.calls,
			      "stream, %s: one call a batch makes the lines a call a stretch does, in order (%u lines of %u and %u, %u calls against %u)",
			      cases[i].name, n, rf.n, rs.n, rf.calls, rs.calls);
		}
		check(rf.n == rc.n && rf.n &&
		      !memcmp(rf.lines, rc.lines, rf.n * sizeof(*rf.lines)) &&
		      rf.rd == rc.rd && rf.wr == rc.wr &&
		      rf.accesses == rc.accesses,
		      "stream, %s: one mapping and 4 MiB chunks make the same calls (%u, %u)",
		      cases[i].name, rf.n, rc.n);
		check(rf.calls >= batches &&
		      rf.n >= batches * (c.size < 64 << 10 ? c.size : 64 << 10) / 64,
		      "stream, %s: each of %u batches moves at least an access or a piece (%u calls, %u lines)",
		      cases[i].name, batches, rf.calls, rf.n);
		check(stream_agrees(&rf, &c, cases[i].part, region,
				    cases[i].start, why, sizeof(why)),
		      "stream, %s: the calls are what the configuration asks (%s)",
		      cases[i].name, why);
		latt_stream_init(&s, &c, fake_sread, fake_sread, fake_swrite,
				 fake_smix, lf, 0);
		/* 64 KiB at most, LATT_STREAM_BATCH accesses at most but
		 * seq's runs */
		per = c.delay || c.size >= (64ULL << 10) ? 1 :
		      (__u32)((64ULL << 10) / c.size);
		check(s.batch == (per > LATT_STREAM_BATCH ? LATT_STREAM_BATCH :
				  per) && s.run == per,
		      "stream, %s: %u accesses or pieces between two looks at the TSC, %u in a seq run",
		      cases[i].name, s.batch, s.run);
	}
}

/* ---- the calibration's empty sample ---- */

static __u64 empty_size = 99, empty_chain = 99;

static __u64 empty_fn(char *addr, __u64 size)
{
	(void)addr;
	empty_size = size;
	return 1;
}

static __u64 empty_chase(char **pos, __u32 chain)
{
	(void)pos;
	empty_chain = chain;
	return 2;
}

static __u64 empty_chase_off(char *base, __u64 mask, __u64 *pos,
			     __u32 chain)
{
	(void)base;
	(void)mask;
	(void)pos;
	empty_chain = chain + 100;
	return 3;
}

static void test_empty(void)
{
	struct latt_config c = { .pattern = LATT_PAT_RAND };
	struct latt_step s = { .fn = empty_fn, .chase = empty_chase,
			       .chase_off = empty_chase_off };
	char line[64], *pos = line;
	__u64 opos = 0;

	s.mode = latt_step_mode(&c, 1);
	check(s.mode == LATT_STEP_FLUSH && latt_step_empty(&s, line, &pos,
							    &opos) == 1 &&
	      !empty_size, "rand: flushed samples; the empty one is the sample function on 0 bytes");
	c.flags = LATT_CFG_WARM;
	check(latt_step_mode(&c, 0) == LATT_STEP_WARM, "--warm: warmed samples");
	c.pattern = LATT_PAT_CHASE;
	s.mode = latt_step_mode(&c, 0);
	check(s.mode == LATT_STEP_CHASE &&
	      latt_step_empty(&s, line, &pos, &opos) == 2 && !empty_chain &&
	      pos == line, "chase on DRAM: pointers; the empty one 0 loads, not moved");
	s.mode = latt_step_mode(&c, 1);
	check(s.mode == LATT_STEP_CHASE_OFF &&
	      latt_step_empty(&s, line, &pos, &opos) == 3 &&
	      empty_chain == 100 && !opos,
	      "chase by offsets: the empty one 0 loads, not moved");
}

/* ---- the windows of the calibration and of the streams ---- */

/* a clock that every read moves on by @calib_step */
static __u64 calib_clock, calib_step;

static __u64 calib_tsc(void)
{
	return calib_clock += calib_step;
}

static void test_calib_window(void)
{
	static __u64 v[LATT_CALIB_SAMPLES];
	struct latt_config c = { .pattern = LATT_PAT_RAND };
	struct latt_step s = { .fn = empty_fn, .chase = empty_chase,
			       .chase_off = empty_chase_off };
	char line[64], *pos = line;
	__u64 opos = 0, med, lo, hi;
	__u32 i = 0, windows = 0, first = 0, filled = 0, j;

	s.mode = latt_step_mode(&c, 0);
	memset(v, 0, sizeof(v));
	calib_clock = 0;
	calib_step = 5;
	/* windows of 50 cycles, a read 5: ten samples each, as the module */
	while (i < LATT_CALIB_SAMPLES) {
		i = latt_calib_window(&s, line, &pos, &opos, v, i, calib_tsc(),
				      50, calib_tsc);
		if (!windows++)
			first = i;
	}
	for (j = 0; j < LATT_CALIB_SAMPLES; j++)
		filled += v[j] == 1;
	check(first == 10 && windows == (LATT_CALIB_SAMPLES + 9) / 10 &&
	      i == LATT_CALIB_SAMPLES && filled == LATT_CALIB_SAMPLES,
	      "latt_calib_window(): windows of 10 empty samples (first %u), %u windows, every figure taken (%u)",
	      first, windows, filled);
	calib_step = 0;	/* a clock that stands still: one window */
	i = latt_calib_window(&s, line, &pos, &opos, v, 0, calib_tsc(), ~0ULL,
			      calib_tsc);
	check(i == LATT_CALIB_SAMPLES,
	      "latt_calib_window(): the user engine's one window takes all %u",
	      i);
	calib_step = 1000;	/* each read past the window: one sample */
	i = latt_calib_window(&s, line, &pos, &opos, v, 7, calib_tsc(), 50,
			      calib_tsc);
	check(i == 8, "latt_calib_window(): at least one sample a window");

	for (j = 0; j < LATT_CALIB_SAMPLES; j++)
		v[j] = 100 + j;
	latt_calib_pick(v, &med, &lo, &hi);
	check(med == 100 + LATT_CALIB_SAMPLES / 2 && lo == 100 &&
	      hi == 100 + LATT_CALIB_SAMPLES - 1,
	      "latt_calib_pick(): median %llu, min %llu, max %llu",
	      (unsigned long long)med, (unsigned long long)lo,
	      (unsigned long long)hi);
	med = 0;
	latt_calib_pick(v, &med, NULL, NULL);
	check(med == 100 + LATT_CALIB_SAMPLES / 2,
	      "latt_calib_pick(): the median alone");
}

/* a streaming access takes TICK cycles of the stand-in clock */
static __u64 tick_sread(char *const *addr, __u32 n, __u64 len)
{
	(void)addr;
	(void)len;
	calib_clock += (__u64)n * TICK;
	return 0;
}

/*
 * One latt_stream_window() of @window cycles from 1000, with @delay and
 * @end, on a clock that each read moves on by 1 and each access by TICK:
 * its end and the accesses it made.
 */
static __u64 stream_window(struct layout *l, __u64 window, __u64 end,
			   __u64 delay, __u64 *accesses)
{
	struct latt_config c = {
		.mode = LATT_MODE_BANDWIDTH, .op = LATT_OP_LOAD,
		.pattern = LATT_PAT_SEQ, .size = 64, .delay = delay,
	};
	struct latt_pattern pat;
	struct latt_stream s;
	__u64 now;

	latt_pattern_init(&pat, c.pattern, c.size, 0, REGION, 1);
	latt_stream_init(&s, &c, tick_sread, tick_sread, tick_sread, NULL, l,
			 0);
	calib_clock = 1000;
	calib_step = 1;
	now = latt_stream_window(&s, &pat, 1000, window, end, delay,
				 flat_addr, calib_tsc);
	*accesses = s.accesses;
	return now;
}

static void test_stream_window(struct layout *l)
{
	__u64 now, n;

	/* no delay: batches of 16 accesses (16 x TICK + 1 a batch) */
	now = stream_window(l, 10000, ~0ULL, 0, &n);
	check(now >= 11000 && now < 11000 + 16 * TICK + 1 && n % 16 == 0 &&
	      n >= 16 * (10000 / (16 * TICK + 1)),
	      "latt_stream_window(): ends past the window, within a batch (at %llu, %llu accesses)",
	      (unsigned long long)now, (unsigned long long)n);
	now = stream_window(l, 10000, 3000, 0, &n);
	check(now >= 3000 && now < 3000 + 16 * TICK + 1,
	      "latt_stream_window(): a deadline inside the window ends it (at %llu)",
	      (unsigned long long)now);
	/* a delay of 90 cycles: an access and its wait take about 100 */
	now = stream_window(l, 10000, ~0ULL, 90, &n);
	check(now >= 11000 && now < 11000 + 100 + TICK + 2 && n >= 90 &&
	      n <= 100,
	      "latt_stream_window(): --delay 90 after each access: %llu accesses in 10000 cycles",
	      (unsigned long long)n);
	/* a delay longer than the window waits only to its end */
	now = stream_window(l, 10000, ~0ULL, 1000000, &n);
	check(n == 1 && now >= 11000 && now <= 11000 + 1,
	      "latt_stream_window(): no delay runs past the window's end (at %llu, %llu accesses)",
	      (unsigned long long)now, (unsigned long long)n);
	now = stream_window(l, 10000, 5000, 1000000, &n);
	check(n == 1 && now >= 5000 && now <= 5000 + 1,
	      "latt_stream_window(): nor past the run's end (at %llu)",
	      (unsigned long long)now);
	calib_clock = 0;
	calib_step = 1;
	now = latt_spin(50, ~0ULL, calib_tsc);
	check(now == 51, "latt_spin(): waits its cycles (%llu)",
	      (unsigned long long)now);
}

/* ---- a load that consumed poison (the module's machine-check fixup) ---- */

#define MC_AT		1000ULL	/* the sample whose load is poisoned */
#define MC_BYTE		192ULL	/* the poisoned line's byte in its block */
static __u64 mc_calls, mc_line;

/* a stand-in sample function: the MC_AT-th call answers "poison" */
static __u64 mc_fn(char *addr, __u64 size)
{
	(void)size;
	if (mc_calls++ == MC_AT) {
		mc_line = *(__u64 *)addr + MC_BYTE;
		return latt_mc_code(MC_BYTE);
	}
	fake_clock += TICK;
	return 300;
}

/*
 * A stand-in stream: the MC_AT-th access of mc_size bytes answers
 * "poison", whether a call makes it alone or in a run of seq accesses
 * (one address, several accesses' length).
 */
static __u64 mc_size = 256;

static __u64 mc_sread(char *const *addr, __u32 n, __u64 len)
{
	__u64 at;
	__u32 i;

	for (i = 0; i < n; i++) {
		for (at = 0; at < len; at += mc_size) {
			if (mc_calls++ == MC_AT) {
				mc_line = *(__u64 *)(addr[i] + at + MC_BYTE);
				return latt_mc_code(((__u64)i << 32) |
						    (at + MC_BYTE));
			}
		}
	}
	return 0;
}

/* ... and a --mix's one call a batch, likewise (its kinds alike here) */
static __u64 mc_smix(char *const *addr, __u32 n, __u64 len, __u32 k,
		     __u32 na, __u32 cyc)
{
	(void)k;
	(void)na;
	(void)cyc;
	return mc_sread(addr, n, len);
}

/*
 * Stream @c's 256 B accesses of pattern @kind through mc_sread (a --mix
 * through @mix, or a call a stretch where NULL), window by window, until
 * one answers "poison" (at most 1000 windows): @ss as it stopped.
 * Return: the bytes read before the last window.
 */
static __u64 stream_to_poison(struct layout *l, const struct latt_config *c,
			      __u32 kind, latt_mix_fn mix,
			      struct latt_stream *ss)
{
	struct latt_pattern pat;
	__u64 rd_before = 0;
	int windows;

	latt_pattern_init(&pat, kind, 256, 0, REGION, 7);
	latt_stream_init(ss, c, mc_sread, mc_sread, mc_sread, mix, l, 0);
	mc_calls = 0;
	for (windows = 0; !ss->mc && windows < 1000; windows++) {
		rd_before = ss->rd;
		latt_stream_window(ss, &pat, calib_tsc(), 100, ~0ULL, 0,
				   flat_addr, calib_tsc);
	}
	return rd_before;
}

/*
 * What a user relies on when a line is poisoned: the run stops at that
 * sample, with the line's offset, and nothing after it (nor the poisoned
 * sample itself) is counted as a time.  A "poison" answer is never a
 * backwards sample: the two codes are told apart.
 */
static void test_poison(struct layout *l)
{
	static __u64 hist[LATT_HIST_BUCKETS];
	struct latt_pattern pat;
	struct latt_step st = {
		.fn = mc_fn, .ctx = l, .size = 256, .mode = LATT_STEP_FLUSH,
	};
	struct latt_config c = { .mode = LATT_MODE_BANDWIDTH,
				 .op = LATT_OP_LOAD, .size = 256 };
	struct latt_stream ss;
	struct latt_acct a;
	__u64 done = 0, total = 0, b, rd_before;
	int windows = 0, i;

	check(latt_mc(latt_mc_code(0)) && latt_mc(latt_mc_code(4095)) &&
	      latt_mc_at(latt_mc_code(4095)) == 4095 &&
	      !latt_mc((__u64)-5) && !latt_mc((__u64)-(1LL << 40)) &&
	      !latt_mc(300) && latt_backwards(latt_mc_code(0)),
	      "latt_mc(): a poison answer is told from times and from backwards samples");
	layout_fill(l);
	latt_pattern_init(&pat, LATT_PAT_RAND, 256, 0, REGION, 7);
	latt_acct_init(&a);
	memset(hist, 0, sizeof(hist));
	a.hist = hist;
	mc_calls = 0;
	fake_clock = 1000;
	while (done < SAMPLES && !a.mc && windows < 1000) {
		latt_sample_window(&st, &pat, &a, &done, SAMPLES, fake_tsc(),
				   TICK * PER_WINDOW, windows, flat_addr,
				   fake_tsc);
		windows++;
	}
	for (b = 0; b < LATT_HIST_BUCKETS; b++)
		total += hist[b];
	check(a.mc && a.mc_off == mc_line && done == MC_AT &&
	      total == MC_AT && !a.backwards && a.max == 300,
	      "latency: a poisoned load stops the samples at it, with its line (mc %d, offset %llu of %llu, %llu samples, %llu counted)",
	      a.mc, (unsigned long long)a.mc_off,
	      (unsigned long long)mc_line, (unsigned long long)done,
	      (unsigned long long)total);

	calib_clock = 0;
	calib_step = 1;
	rd_before = stream_to_poison(l, &c, LATT_PAT_RAND, mc_smix, &ss);
	check(ss.mc && ss.mc_off == mc_line && ss.accesses == MC_AT &&
	      ss.rd == MC_AT * 256 && ss.rd >= rd_before,
	      "bandwidth: a poisoned load stops the stream, its line named, its bytes not counted (offset %llu of %llu, %llu accesses, %llu bytes)",
	      (unsigned long long)ss.mc_off, (unsigned long long)mc_line,
	      (unsigned long long)ss.accesses, (unsigned long long)ss.rd);

	/* seq: a batch of accesses that follow one another is one call */
	stream_to_poison(l, &c, LATT_PAT_SEQ, mc_smix, &ss);
	check(ss.mc && ss.mc_off == mc_line && ss.mc_off == MC_AT * 256 + MC_BYTE &&
	      ss.accesses == MC_AT && ss.rd == MC_AT * 256,
	      "bandwidth, seq: a poisoned line inside a run of accesses made in one call: its line named, the accesses before it counted (offset %llu of %llu, %llu accesses, %llu bytes)",
	      (unsigned long long)ss.mc_off, (unsigned long long)mc_line,
	      (unsigned long long)ss.accesses, (unsigned long long)ss.rd);

	/* --mix 3:2: the poisoned access in a later stretch of its batch,
	 * or inside its batch's one call; rand and seq */
	c.mix_read = 3;
	c.mix_write = 2;
	for (i = 0; i < 4; i++) {
		stream_to_poison(l, &c, i & 1 ? LATT_PAT_SEQ : LATT_PAT_RAND,
				 i & 2 ? NULL : mc_smix, &ss);
		check(ss.mc && ss.mc_off == mc_line && ss.accesses == MC_AT &&
		      ss.rd + ss.wr == MC_AT * 256 &&
		      ss.rd == (MC_AT / 5 * 3 + (MC_AT % 5 < 3 ? MC_AT % 5 : 3)) * 256,
		      "bandwidth, --mix 3:2, %s, %s: a poisoned load: its line named, the accesses before it counted by kind (offset %llu of %llu, %llu accesses, %llu bytes read)",
		      i & 1 ? "seq" : "rand",
		      i & 2 ? "a call a stretch" : "one call a batch",
		      (unsigned long long)ss.mc_off,
		      (unsigned long long)mc_line,
		      (unsigned long long)ss.accesses,
		      (unsigned long long)ss.rd);
	}
}

/* ---- what several threads share ---- */

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

#define NSTREAMS	8
#define STREAM_N	100000

/*
 * What a user of a shared-region run relies on: its threads access
 * different lines, as independent threads would.  Eight threads over
 * 16 GiB (far more lines than their 8 x 10^5 accesses) must touch >= 99 %
 * of the distinct lines that independent uniform draws would (all of
 * them for stride) with rand, a 1 GiB hotspot and stride 4 KiB, and no
 * thread's stream may be another's shifted by fewer than 64 draws (a
 * stream that replays another is a copy that hits the lines the first
 * just opened).  Thread 0 draws what a single-thread run draws.
 */
static void test_thread_streams(void)
{
	static const struct { __u32 kind; __u64 stride; const char *name; }
	pats[] = {
		{ LATT_PAT_RAND, 0, "rand" },
		{ LATT_PAT_HOTSPOT, 1ULL << 30, "hotspot:1G" },
		{ LATT_PAT_STRIDE, 4096, "stride:4096" },
	};
	const __u64 region = 16ULL << 30;
	__u64 *lines = malloc(NSTREAMS * STREAM_N * sizeof(*lines));
	__u64 *all = malloc(NSTREAMS * STREAM_N * sizeof(*all));
	struct latt_pattern p, one;
	struct latt_config c;
	__u64 i, k, distinct, worst;
	double n, l, expect;
	unsigned int a, b, d, k2;
	int same;

	for (k2 = 0; k2 < sizeof(pats) / sizeof(pats[0]); k2++) {
		memset(&c, 0, sizeof(c));
		c.mode = LATT_MODE_LATENCY;
		c.pattern = pats[k2].kind;
		c.stride = pats[k2].stride;
		c.size = 64;
		c.seed = 1234;
		for (a = 0; a < NSTREAMS; a++) {
			latt_thread_pattern(&p, &c, a, NSTREAMS, region,
					    LATT_CHUNK_SHIFT);
			for (i = 0; i < STREAM_N; i++)
				lines[a * STREAM_N + i] =
					latt_pattern_next(&p) >> 6;
		}
		memcpy(all, lines, NSTREAMS * STREAM_N * sizeof(*all));
		qsort(all, NSTREAMS * STREAM_N, sizeof(*all), cmp_u64);
		for (distinct = 1, i = 1; i < NSTREAMS * STREAM_N; i++)
			distinct += all[i] != all[i - 1];
		/* the most draws two streams share at one shift below 64 */
		worst = 0;
		for (a = 0; a < NSTREAMS; a++)
			for (b = 0; b < NSTREAMS; b++)
				for (d = a < b ? 0 : 1; a != b && d < 64; d++) {
					for (k = 0, i = 0; i < 1000; i++)
						k += lines[a * STREAM_N + i] ==
						     lines[b * STREAM_N + i + d];
					if (k > worst)
						worst = k;
				}
		/*
		 * Independent uniform draws of N of L lines give
		 * L (1 - e^(-N/L)) distinct ones: N - N^2/2L + N^3/6L^2 ...
		 * (stride's are distinct by construction: L = the region's)
		 */
		n = (double)NSTREAMS * STREAM_N;
		l = (double)(c.stride && c.pattern == LATT_PAT_HOTSPOT ?
			     c.stride : region) / 64;
		expect = n - n * n / (2 * l) + n * n * n / (6 * l * l);
		check(distinct >= 0.99 * expect && worst < 10,
		      "threads: %s, %u threads x %u over 16 GiB: %llu distinct "
		      "lines (>= 99%% of %.0f, independent draws'), at most "
		      "%llu of 1000 draws alike at a shift below 64 (< 10)",
		      pats[k2].name, NSTREAMS, STREAM_N,
		      (unsigned long long)distinct, expect,
		      (unsigned long long)worst);
		latt_thread_pattern(&p, &c, 0, NSTREAMS, region,
				    LATT_CHUNK_SHIFT);
		latt_pattern_init(&one, c.pattern, c.size, c.stride, region,
				  c.seed);
		for (same = 1, i = 0; i < 1000; i++)
			same &= latt_pattern_next(&p) == latt_pattern_next(&one);
		check(same, "threads: %s, thread 0 draws what one thread "
		      "seeded alike draws", pats[k2].name);
	}
	free(lines);
	free(all);
}

/*
 * A loaded run with a traffic target (ABI 2.9): the probe spans its
 * region, the traffic threads the traffic's, each its own part with
 * --split: disjoint, in order, inside it, as latt_split_part() cuts the
 * traffic region among the traffic threads alone.  The rules refuse what
 * both engines refuse, in rules.h's words.
 */
static void test_traffic(void)
{
	const __u64 probe = 64ULL << 20, sizes[] = { 64, 4096 };
	const __u64 traffics[] = { 4096, 6ULL << 20, 16ULL << 20,
				   (1ULL << 30) + (4ULL << 20) };
	struct latt_traffic t;
	struct latt_config c;
	const char *why;
	__u64 off, bytes, part, end;
	__u32 n, i, k, z;
	int bad = 0, cases = 0, rc;

	memset(&c, 0, sizeof(c));
	c.mode = LATT_MODE_LOADED;
	c.region = probe;
	for (z = 0; z < 2; z++)
	for (k = 0; k < sizeof(traffics) / sizeof(traffics[0]); k++)
	for (n = 2; n <= 9; n++) {
		c.size = sizes[z];
		c.flags = LATT_CFG_SPLIT;
		cases++;
		end = 0;
		if (latt_split_part(traffics[k], n - 1, c.size, &part)) {
			/* refused alike: no part can hold an access */
			bad += !latt_thread_part(&c, traffics[k], 1, n, &off,
						 &bytes);
			continue;
		}
		for (i = 0; i < n; i++) {
			rc = latt_thread_part(&c, traffics[k], i, n, &off,
					      &bytes);
			if (rc) {
				bad++;
				break;
			}
			if (!i) {	/* the probe: its whole region */
				bad += off != 0 || bytes != probe;
				continue;
			}
			/* in order, disjoint, inside, big enough */
			bad += off != end || bytes != part ||
			       off + bytes > traffics[k] || bytes < c.size;
			end = off + bytes;
		}
		/* shared: every traffic thread spans it all */
		c.flags = 0;
		for (i = 1; i < n; i++) {
			latt_thread_part(&c, traffics[k], i, n, &off, &bytes);
			bad += off != 0 || bytes != traffics[k];
		}
	}
	check(!bad, "traffic target: the probe spans its region, each traffic thread its own part of the traffic's, in order, disjoint, inside it, or all of it shared (%d of %d cases wrong)",
	      bad, cases);
	/* no traffic target: as before, the split among all threads */
	c.flags = LATT_CFG_SPLIT;
	c.size = 64;
	latt_thread_part(&c, 0, 3, 4, &off, &bytes);
	check(off == 3 * (16ULL << 20) && bytes == 16ULL << 20,
	      "no traffic target: thread 3 of 4 has the fourth 16 MiB of 64 (%llu, %llu)",
	      (unsigned long long)off, (unsigned long long)bytes);

	/* the rules */
	memset(&c, 0, sizeof(c));
	c.mode = LATT_MODE_LOADED;
	c.nr_threads = 3;
	c.size = 64;
	c.region = probe;
	c.pattern = LATT_PAT_RAND;
	memset(&t, 0, sizeof(t));
	t.target = LATT_TARGET_DRAM;
	t.region = 1ULL << 30;
	why = NULL;
	rc = latt_traffic_rules(&c, &t, &why);
	check(!rc, "traffic rules: a DRAM traffic target of 1 GiB runs (%s)", why ? why : "");
	t.target = LATT_TARGET_PMEM;
	t.fd = 3;
	t.phys_addr = 1ULL << 32;
	rc = latt_traffic_rules(&c, &t, &why);
	check(!rc, "traffic rules: a PMEM one of loads runs");
	c.mix_read = 1;
	c.mix_write = 1;
	rc = latt_traffic_rules(&c, &t, &why);
	check(rc == -LATT_EPERM &&
	      !strcmp(why, "--mix writes would overwrite persistent memory: they need --force"),
	      "traffic rules: --mix writes on PMEM need --force, EPERM (%s)", why);
	c.flags = LATT_CFG_FORCE;
	rc = latt_traffic_rules(&c, &t, &why);
	check(!rc, "traffic rules: ... and run with it");
	c.mode = LATT_MODE_LATENCY;
	rc = latt_traffic_rules(&c, &t, &why);
	check(rc == -LATT_EINVAL &&
	      !strncmp(why, "--traffic-target is for --mode loaded", 37),
	      "traffic rules: latency mode refused (%s)", why);
	c.mode = LATT_MODE_BANDWIDTH;
	rc = latt_traffic_rules(&c, &t, &why);
	check(rc == -LATT_EINVAL,
	      "traffic rules: bandwidth mode refused");
	c.mode = LATT_MODE_LOADED;
	t.reserved[1] = 1;
	rc = latt_traffic_rules(&c, &t, &why);
	check(rc == -LATT_EINVAL,
	      "traffic rules: a reserved field refused");
	t.reserved[1] = 0;
	t.target = LATT_TARGET_DRAM;
	rc = latt_traffic_rules(&c, &t, &why);
	check(rc == -LATT_EINVAL &&
	      !strcmp(why, "a dram traffic target has no device or physical address"),
	      "traffic rules: DRAM with a device's fields refused (%s)", why);
	t.fd = 0;
	t.phys_addr = 0;
	t.target = 7;
	rc = latt_traffic_rules(&c, &t, &why);
	check(rc == -LATT_EINVAL,
	      "traffic rules: an unknown target refused");
	t.target = LATT_TARGET_DRAM;
	t.region = 0;
	rc = latt_traffic_rules(&c, &t, &why);
	check(rc == -LATT_EINVAL,
	      "traffic rules: no region refused");
	t.region = 32;
	rc = latt_traffic_rules(&c, &t, &why);
	check(rc == -LATT_EINVAL &&
	      !strcmp(why, "--size is larger than the traffic target's region"),
	      "traffic rules: a region below --size refused (%s)", why);
	/* split: 2 traffic threads of 64 B parts can't hold 4 KiB each */
	t.region = 128;
	c.size = 64;
	c.flags |= LATT_CFG_SPLIT;
	rc = latt_traffic_rules(&c, &t, &why);
	check(!rc,
	      "traffic rules: 128 B split between 2 traffic threads of 64 B accesses runs");
	t.region = 64;
	rc = latt_traffic_rules(&c, &t, &why);
	check(rc == -LATT_EINVAL &&
	      !strncmp(why, "--split: the traffic target's region", 36),
	      "traffic rules: 64 B split between 2 traffic threads refused (%s)",
	      why);
	/* the pattern on a part: a hotspot wider than the traffic's region */
	c.flags = 0;
	c.pattern = LATT_PAT_HOTSPOT;
	c.stride = 1ULL << 20;
	t.region = 64ULL << 10;
	rc = latt_traffic_rules(&c, &t, &why);
	check(rc == -LATT_EINVAL,
	      "traffic rules: a hotspot wider than the traffic's region refused (%s)",
	      why);
	/* the probe's view: a chase with writing, split traffic elsewhere */
	{
		struct latt_config r, pv;

		memset(&r, 0, sizeof(r));
		r.op = LATT_OP_LOAD;
		r.pattern = LATT_PAT_CHASE;
		r.mode = LATT_MODE_LOADED;
		r.nr_threads = 3;
		r.size = 64;
		r.region = 1ULL << 20;
		r.samples = 1000;
		r.mix_read = 1;
		r.mix_write = 1;
		r.flags = LATT_CFG_SPLIT;
		r.target = LATT_TARGET_PMEM;
		r.flags |= LATT_CFG_FORCE;	/* the chase's links */
		latt_probe_config(&r, 0, &pv);
		rc = latt_config_rules(&pv, &why);
		check(rc == -LATT_EINVAL,
		      "probe view: without a traffic target a chase with split, writing traffic is refused (%s)",
		      why);
		latt_probe_config(&r, 1, &pv);
		why = NULL;
		rc = latt_config_rules(&pv, &why);
		check(!rc && pv.mix_read == 1 && !pv.mix_write &&
		      !(pv.flags & LATT_CFG_SPLIT) && pv.flags & LATT_CFG_FORCE,
		      "probe view: with one, the writes and the split are the traffic's, the probe's chase runs (%s)",
		      why ? why : "");
		r.pattern = LATT_PAT_RAND;
		r.flags = 0;
		latt_probe_config(&r, 1, &pv);
		rc = latt_config_rules(&pv, &why);
		check(!rc, "probe view: a pmem probe under writing traffic elsewhere needs no --force");
		latt_probe_config(&r, 0, &pv);
		rc = latt_config_rules(&pv, &why);
		check(rc == -LATT_EPERM, "probe view: ... as its own writing traffic does (%s)", why);
	}
	/* a chase probe's traffic streams seq: its TLB block is the probe's */
	c.pattern = LATT_PAT_CHASE;
	c.stride = 1ULL << 20;
	c.mix_write = 0;
	why = NULL;
	rc = latt_traffic_rules(&c, &t, &why);
	check(!rc,
	      "traffic rules: a chase probe's TLB block does not bind the traffic's region (%s)",
	      why ? why : "");
}

static void test_threads(void)
{
	static __u64 h_all[LATT_HIST_BUCKETS], h_a[LATT_HIST_BUCKETS],
		     h_b[LATT_HIST_BUCKETS], h_m[LATT_HIST_BUCKETS];
	struct latt_acct all = { 0 }, a = { 0 }, b = { 0 }, m = { 0 };
	struct latt_pattern p1;
	struct latt_config c;
	__u64 part = 0, bin, i, cyc;
	__u32 len, n, sum;
	int ok, rc;

	/* the split: whole chunks, or a power of two below one */
	rc = latt_split_part(16ULL << 20, 2, 64, &part);
	check(!rc && part == 8ULL << 20, "split 16 MiB in 2: 8 MiB (%llu)",
	      (unsigned long long)part);
	rc = latt_split_part(18ULL << 20, 2, 64, &part);
	check(!rc && part == 8ULL << 20,
	      "split 18 MiB in 2: 8 MiB, whole chunks (%llu)",
	      (unsigned long long)part);
	rc = latt_split_part(6ULL << 20, 2, 64, &part);
	check(!rc && part == 2ULL << 20,
	      "split 6 MiB in 2: 2 MiB, a power of two below a chunk (%llu)",
	      (unsigned long long)part);
	check(latt_split_part(4096, 2, 4096, &part) == -22 &&
	      latt_split_part(100, 2, 64, &part) == -22,
	      "split: a part smaller than an access, or than 64 bytes, is EINVAL");
	rc = latt_split_part(4096, 0, 64, &part);
	check(!rc && part == 4096, "split in 0 is in 1 (%llu)",
	      (unsigned long long)part);

	/* roles and records */
	memset(&c, 0, sizeof(c));
	c.mode = LATT_MODE_LOADED;
	check(latt_thread_role(&c, 0) == LATT_ROLE_LATENCY &&
	      latt_thread_role(&c, 1) == LATT_ROLE_STREAM,
	      "loaded: thread 0 times, the others stream");
	c.mode = LATT_MODE_BANDWIDTH;
	check(latt_thread_role(&c, 0) == LATT_ROLE_STREAM,
	      "bandwidth: every thread streams");
	c.mode = LATT_MODE_LATENCY;
	check(latt_thread_role(&c, 3) == LATT_ROLE_LATENCY,
	      "latency: every thread times");
	for (ok = 1, n = 1; n <= 7; n++) {
		for (sum = 0, len = 0; len < n; len++)
			sum += latt_thread_outliers(100, n, len);
		ok &= sum == 100 && latt_thread_outliers(100, n, 0) -
			latt_thread_outliers(100, n, n - 1) <= 1;
	}
	check(ok && !latt_thread_outliers(5, 0, 0),
	      "outlier records shared out: 100 in all, within one of each other, over 1..7 threads");

	/* where seq threads start; a chase's streams go seq (the streams'
	 * independence: test_thread_streams()) */
	c.size = 64;
	c.seed = 42;
	c.pattern = LATT_PAT_SEQ;
	latt_thread_pattern(&p1, &c, 1, 2, REGION, LATT_CHUNK_SHIFT);
	check(latt_pattern_next(&p1) == REGION / 2,
	      "seq, shared region: thread 1 of 2 starts half way");
	c.flags = LATT_CFG_SPLIT;
	latt_thread_pattern(&p1, &c, 1, 2, REGION / 2, LATT_CHUNK_SHIFT);
	check(latt_pattern_next(&p1) == 0,
	      "seq, --split: thread 1 starts at its part's first byte");
	c.flags = 0;
	c.mode = LATT_MODE_LOADED;
	c.pattern = LATT_PAT_CHASE;
	c.stride = 1 << 20;
	latt_thread_pattern(&p1, &c, 1, 2, REGION, LATT_CHUNK_SHIFT);
	check(p1.kind == LATT_PAT_SEQ,
	      "chase, loaded: the traffic streams seq (kind %u)", p1.kind);

	/* the series: at least a window a bin, the duration covered */
	latt_series_bins(1000, 1000000, &bin, &len);
	check(bin == 1000 && len == 1001,
	      "series of 1000 windows: a bin a window, 1001 bins (%llu, %u)",
	      (unsigned long long)bin, len);
	latt_series_bins(10, 1ULL << 40, &bin, &len);
	check(len <= LATT_MAX_SERIES && bin * (len - 1) >= 1ULL << 40,
	      "a long series: at most %u bins that cover it (%llu x %u)",
	      LATT_MAX_SERIES, (unsigned long long)bin, len);

	/* the merge: two threads' records are the record of all samples */
	latt_acct_init(&all);
	latt_acct_init(&a);
	latt_acct_init(&b);
	latt_acct_init(&m);
	all.hist = h_all;
	a.hist = h_a;
	b.hist = h_b;
	m.hist = h_m;
	static struct latt_outlier o_all[MAX_OUT], o_a[MAX_OUT], o_b[MAX_OUT];

	all.outliers = o_all;
	a.outliers = o_a;
	b.outliers = o_b;
	all.max_outliers = MAX_OUT;	/* the run's room, shared out */
	a.max_outliers = latt_thread_outliers(MAX_OUT, 2, 0);
	b.max_outliers = latt_thread_outliers(MAX_OUT, 2, 1);
	all.threshold = a.threshold = b.threshold = THRESHOLD;
	all.overhead = a.overhead = b.overhead = m.overhead = OVERHEAD;
	for (i = 0; i < SAMPLES; i++) {
		cyc = figure(i * 64);
		latt_acct_sample(&all, i, i, i * 64, cyc, i / PER_WINDOW);
		latt_acct_sample(i % 3 ? &a : &b, i, i, i * 64, cyc,
				 i / PER_WINDOW);
	}
	latt_acct_window(&a, 700, 1, 0);
	latt_acct_window(&b, 900, 1, 0);
	latt_acct_window(&all, 900, 1, 0);
	latt_acct_merge(&m, &a);
	latt_acct_merge(&m, &b);
	check(!memcmp(h_m, h_all, sizeof(h_m)) && m.min == all.min &&
	      m.max == all.max && m.sum == all.sum &&
	      m.sum_corrected == all.sum_corrected &&
	      m.backwards == all.backwards &&
	      m.hist_overflow == all.hist_overflow &&
	      m.outliers_seen == all.outliers_seen &&
	      m.window_cycles_max == 900 && m.nmi_windows == 2 &&
	      m.nr_outliers == all.nr_outliers &&
	      m.outliers_dropped == all.outliers_dropped &&
	      all.backwards && all.outliers_seen && all.outliers_dropped,
	      "two threads' records merged are the record of all their samples (sum %llu, %llu outliers)",
	      (unsigned long long)m.sum,
	      (unsigned long long)m.outliers_seen);
}

/* the true figure at @ppm of @n sorted values: the nearest rank */
static __u64 nearest_rank(const __u64 *v, __u64 n, __u64 ppm)
{
	__u64 rank = (ppm * n + 999999) / 1000000;

	return v[(rank ? rank : 1) - 1];
}

/*
 * Threads whose calibrations differ: what a user reads off the run is each
 * sample less its own thread's overhead.  Two threads time the same true
 * latencies, one with an overhead of 30 cycles, one of 47: the run's
 * percentiles, less the run's overhead (thread 0's), must be the true
 * latencies' within a bucket; its min, max and mean exactly.
 */
static void test_merge_overheads(void)
{
	enum { N = 40000 };
	static __u64 h_a[LATT_HIST_BUCKETS], h_b[LATT_HIST_BUCKETS],
		     h_m[LATT_HIST_BUCKETS], truth[N];
	static const __u64 ppms[] = { 1000, 100000, 500000, 900000, 990000,
				      999000 };
	struct latt_acct a = { 0 }, b = { 0 }, m = { 0 };
	__u64 i, x = 0x9e3779b97f4a7c15ULL, lat, sum = 0, cnt = 0, got, want;
	__u64 width, worst = 0, worst_ppm = 0;
	double err, worst_err = 0;
	size_t k;
	int ok = 1;

	latt_acct_init(&a);
	latt_acct_init(&b);
	latt_acct_init(&m);
	a.hist = h_a;
	b.hist = h_b;
	m.hist = h_m;
	a.overhead = 30;
	b.overhead = 47;
	for (i = 0; i < N; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* mostly below the exact range's end, a tenth far above */
		lat = i % 10 ? 3 + x % 200 : 200 + x % 20000;
		truth[i] = lat;
		sum += lat;
		if (i % 2)
			latt_acct_sample(&b, i, 0, 0, lat + b.overhead, 0);
		else
			latt_acct_sample(&a, i, 0, 0, lat + a.overhead, 0);
	}
	qsort(truth, N, sizeof(*truth), cmp_u64);
	m.overhead = a.overhead;	/* thread 0's: the run's */
	latt_acct_merge(&m, &a);
	latt_acct_merge(&m, &b);
	for (i = 0; i < LATT_HIST_BUCKETS; i++)
		cnt += h_m[i];
	for (k = 0; k < sizeof(ppms) / sizeof(ppms[0]); k++) {
		got = latt_hist_percentile(h_m, cnt, m.min, m.max, ppms[k]);
		got = got > m.overhead ? got - m.overhead : 0;
		want = nearest_rank(truth, N, ppms[k]);
		i = latt_hist_index(want + m.overhead);
		width = latt_hist_hi(i) - latt_hist_lo(i) + 1;
		err = (got > want ? (double)(got - want) :
		       (double)(want - got)) / (double)width;
		/* exact in one-value buckets; a bucket and a half above */
		if (width == 1 ? got != want : err > 1.5)
			ok = 0;
		if (err > worst_err) {
			worst_err = err;
			worst = got;
			worst_ppm = ppms[k];
		}
	}
	check(cnt == N && ok,
	      "merged threads of overheads 30 and 47: each percentile less the run's overhead is the truth's, exact below 256 cycles, within 1.5 buckets above (worst %.2f buckets: %llu at %llu ppm)",
	      worst_err, (unsigned long long)worst,
	      (unsigned long long)worst_ppm);
	check(m.min - m.overhead == truth[0] &&
	      m.max - m.overhead == truth[N - 1] &&
	      m.sum - N * m.overhead == sum &&
	      m.sum_corrected == sum,
	      "merged: min %llu, max %llu and mean less the run's overhead are the truth's (%llu, %llu)",
	      (unsigned long long)(m.min - m.overhead),
	      (unsigned long long)(m.max - m.overhead),
	      (unsigned long long)truth[0], (unsigned long long)truth[N - 1]);
	check(latt_hist_shift(LATT_HIST_BUCKETS - 1, 5) ==
	      LATT_HIST_BUCKETS - 1 && latt_hist_shift(3, 5) == 0 &&
	      latt_hist_shift(255, -1) == latt_hist_index(256) &&
	      latt_hist_shift(100, 0) == 100,
	      "latt_hist_shift(): the overflow bucket stays, values floor at 0, an exact bucket moves exactly");
}

/* ---- the calibration across a loaded run's samples ---- */

static __u64 lcal_now;	/* the stand-in empty sample reads the window */

static __u64 lcal_fn(char *addr, __u64 size)
{
	(void)addr;
	(void)size;
	return lcal_now;
}

/*
 * What a user relies on: the overhead reported across a loaded run comes
 * from the whole run, evenly, at any length, in bounded memory.  The
 * stand-in empty sample returns its window's number, so the figures kept
 * tell which windows they came from.
 */
static void test_lcal(void)
{
	static __u64 v[LATT_CALIB_SAMPLES];
	static const __u64 runs[] = { 1, 7, 32, 100, 1000, 33333, 1000000 };
	struct latt_config c = { .pattern = LATT_PAT_RAND };
	struct latt_step s = { .fn = lcal_fn };
	struct latt_lcal lc;
	char line[64];
	__u64 w, q[4], med;
	size_t k;
	__u32 j;
	int bounded = 1, even = 1, covers = 1;

	s.mode = latt_step_mode(&c, 0);
	latt_lcal_init(&lc, NULL, line);
	latt_lcal_window(&lc, &s, 0);
	check(!lc.n, "latt_lcal_window(): without figures to fill, nothing");
	for (k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
		const __u64 W = runs[k];

		latt_lcal_init(&lc, v, line);
		for (w = 0; w < W; w++) {
			lcal_now = w;
			latt_lcal_window(&lc, &s, w);
		}
		/* at most all, at least half of the room once it filled */
		if (lc.n > LATT_CALIB_SAMPLES ||
		    lc.n < (W * LATT_LCAL_EMPTIES < LATT_CALIB_SAMPLES ?
			    W * LATT_LCAL_EMPTIES : LATT_CALIB_SAMPLES / 2))
			bounded = 0;
		memset(q, 0, sizeof(q));
		for (j = 0; j < lc.n; j++)
			q[v[j] * 4 / W]++;
		qsort(v, lc.n, sizeof(*v), cmp_u64);
		med = latt_lcal_median(v, lc.n);
		/* every quarter of the run in 20-30 % of the figures, the
		 * median in the run's middle tenth */
		if (W >= 100) {
			for (j = 0; j < 4; j++)
				if (q[j] * 10 < lc.n * 2 || q[j] * 10 > lc.n * 3)
					even = 0;
			if (med * 20 < W * 9 || med * 20 > W * 11)
				even = 0;
		}
		/* the first window and one of the last eighth are in */
		if (v[0] != 0 || v[lc.n - 1] * 8 < (W - 1) * 7)
			covers = 0;
		printf("# %llu windows: %u figures, windows %llu..%llu, median %llu, quarters %llu %llu %llu %llu\n",
		     (unsigned long long)W, lc.n, (unsigned long long)v[0],
		     (unsigned long long)v[lc.n - 1], (unsigned long long)med,
		     (unsigned long long)q[0], (unsigned long long)q[1],
		     (unsigned long long)q[2], (unsigned long long)q[3]);
	}
	check(bounded, "latt_lcal_window(): at most %u figures, and never fewer than half of them once filled",
	      LATT_CALIB_SAMPLES);
	check(even, "latt_lcal_window(): every quarter of a run gives 20-30 %% of the figures, the median is the run's middle, from 100 windows to 10^6");
	check(covers, "latt_lcal_window(): the figures reach from the first window to the last eighth of the run");
	check(latt_lcal_median(v, 0) == 0, "latt_lcal_median(): none taken is unknown (0)");
}

/* The records as the ABI reports them: LATT_IOC_RESULT, LATT_IOC_THREADS. */
static void test_reports(void)
{
	static __u64 h[LATT_HIST_BUCKETS];
	struct latt_acct a = { 0 };
	struct latt_result r;
	struct latt_thread_stats st;
	__u64 i;

	latt_acct_init(&a);
	a.hist = h;
	a.overhead = OVERHEAD;
	a.threshold = THRESHOLD;
	for (i = 0; i < 5000; i++)
		latt_acct_sample(&a, i, i, i * 64, figure(i * 64), i / 100);
	latt_acct_window(&a, 1234, 1, 0);
	memset(&r, 0xff, sizeof(r));
	memset(&st, 0xff, sizeof(st));
	latt_acct_result(&a, 5000 - a.backwards, &r);
	latt_acct_thread_stats(&a, 5000 - a.backwards, &st);
	check(r.count == 5000 - a.backwards && r.min == a.min &&
	      r.max == a.max && r.sum == a.sum &&
	      r.sum_corrected == a.sum_corrected &&
	      r.backwards == a.backwards && r.nmi_windows == 1 &&
	      r.outliers == a.outliers_seen &&
	      r.outliers_dropped == a.outliers_dropped &&
	      r.hist_overflow == a.hist_overflow &&
	      r.window_cycles_max == 1234 && a.backwards && a.outliers_seen &&
	      r.windows == ~0ULL && r.overhead == ~0ULL,
	      "latt_acct_result(): the record's figures, and nothing of the engine's");
	check(st.count == r.count && st.min == a.min && st.max == a.max &&
	      st.sum == a.sum && st.sum_corrected == a.sum_corrected &&
	      st.overhead == OVERHEAD && st.backwards == a.backwards &&
	      st.nmi_windows == 1 && st.window_cycles_max == 1234 &&
	      st.outliers == a.outliers_seen && st.windows == ~0ULL &&
	      st.cpu == ~0U,
	      "latt_acct_thread_stats(): the thread's figures, and nothing of the engine's");
	{
		struct latt_thread_rec t = {
			.acct = a, .count = 5000 - a.backwards,
			.overhead_end = 41, .overhead_idle = 37,
			.accesses = 7, .bytes_read = 640,
			.bytes_written = 128, .tsc_start = 100, .tsc_end = 900,
			.windows = 50, .part_offset = 4096, .part_bytes = 8192,
			.cpu = 3, .role = LATT_ROLE_STREAM, .error = -5,
		};

		memset(&st, 0, sizeof(st));
		latt_thread_stats_of(&t, 1, &st);
		check(st.cpu == 3 && st.node == 1 &&
		      st.role == LATT_ROLE_STREAM && st.error == -5 &&
		      st.part_offset == 4096 && st.part_bytes == 8192 &&
		      st.count == t.count && st.min == a.min &&
		      st.overhead_end == 41 && st.accesses == 7 &&
		      st.bytes_read == 640 && st.bytes_written == 128 &&
		      st.tsc_start == 100 && st.tsc_end == 900 &&
		      st.windows == 50 && st.nmi_windows == 1 &&
		      st.overhead_idle == 37,
		      "latt_thread_stats_of(): a thread's entry of LATT_IOC_THREADS");
		t.error = -LATT_EINTR;
		latt_thread_stats_of(&t, 1, &st);
		check(!st.error, "latt_thread_stats_of(): a stopped thread reports no error");
	}
	latt_acct_init(&a);
	latt_acct_result(&a, 0, &r);
	latt_acct_thread_stats(&a, 0, &st);
	check(!r.min && !st.min && !r.count,
	      "no sample: a minimum of 0, not the record's ~0 (%llu)",
	      (unsigned long long)a.min);
}

/*
 * The start line's spin (latt_spin_to()) against a stand-in TSC: what a
 * user relies on is that no thread spins without end when its CPU's TSC
 * lags the one that set the start, that a stop is heard while it spins,
 * and that otherwise it leaves at the start itself.
 */
static __u64 go_clock, go_step, go_reads, go_stop_at;
static int go_back;	/* the clock steps back once, after its first read */

static __u64 go_tsc(void)
{
	__u64 now = go_clock;

	go_reads++;
	if (go_reads > 1000000)		/* a spin without end: end it, fail */
		go_clock = ~0ULL - go_step;
	else if (go_back && go_reads == 2)
		go_clock -= 2 * go_step;
	else
		go_clock += go_step;
	return now;
}

static int go_stopped(void *arg)
{
	(void)arg;
	return go_stop_at && go_reads >= go_stop_at;
}

static void test_spin_to(void)
{
	const __u64 limit = 100000;
	int ret;

	/* a TSC that lags by 10^12 ticks: out after the limit, not after 10^12 */
	go_clock = 5000, go_step = 7, go_reads = 0, go_stop_at = 0, go_back = 0;
	ret = latt_spin_to(5000 + 1000000000000ULL, limit, go_tsc, go_stopped, NULL);
	check(ret == LATT_GO_LATE && go_reads <= limit / 7 + 3,
	      "spin_to: a lagging TSC ends the spin at the limit (%d, %llu reads for %llu ticks)",
	      ret, (unsigned long long)go_reads, (unsigned long long)limit);
	/* a start within reach: left at the start, not before, not much after */
	go_clock = 5000, go_reads = 0;
	ret = latt_spin_to(5000 + 5000, limit, go_tsc, go_stopped, NULL);
	check(ret == LATT_GO_NOW && go_clock - go_step >= 10000 &&
	      go_clock - go_step < 10000 + go_step,
	      "spin_to: leaves at the start (%d, TSC %llu for a start at 10000)",
	      ret, (unsigned long long)(go_clock - go_step));
	/* a start already past: no spin */
	go_clock = 5000, go_reads = 0;
	ret = latt_spin_to(10, limit, go_tsc, go_stopped, NULL);
	check(ret == LATT_GO_NOW && go_reads == 1,
	      "spin_to: a start already past is left at once (%d, %llu reads)",
	      ret, (unsigned long long)go_reads);
	/* a stop while it spins to a lagging start: heard at the next look */
	go_clock = 5000, go_reads = 0, go_stop_at = 10;
	ret = latt_spin_to(~0ULL, ~0ULL, go_tsc, go_stopped, NULL);
	check(ret == LATT_GO_STOP && go_reads == 10,
	      "spin_to: a stop is heard while spinning (%d after %llu reads)",
	      ret, (unsigned long long)go_reads);
	/* a TSC that steps back below the spin's first read: out at once */
	go_clock = 5000, go_reads = 0, go_stop_at = 0, go_back = 1;
	ret = latt_spin_to(1000000, limit, go_tsc, go_stopped, NULL);
	check(ret == LATT_GO_LATE && go_reads <= 3,
	      "spin_to: a TSC that steps back ends the spin (%d, %llu reads)",
	      ret, (unsigned long long)go_reads);
	go_back = 0;
}

/*
 * --batch's loop (core.h, latt_batch_window()), both layouts, on a
 * stand-in batch function: a batch of n blocks "takes" BATCH_BASE +
 * BATCH_STEP x n cycles, so that every pair's difference is
 * BATCH_STEP x K; it logs each call's n and the offsets it was handed
 * (each block's first word), and checks the sentinel lines[n].
 */
#define BATCH_K		8U
#define BATCH_PAIRS	300ULL
#define BATCH_BASE	500ULL
#define BATCH_STEP	7ULL
#define BATCH_CALLS	(2 * BATCH_PAIRS)
static __u32 bcall_n[BATCH_CALLS];
static __u64 bcall_offs[BATCH_CALLS * 3 * BATCH_K / 2];
static __u64 bcalls, boffs, bbad_sentinel, bback_at = ~0ULL, bmc_at = ~0ULL;

static __u64 fake_batch(char *const *lines, __u32 n, __u64 size)
{
	__u32 i;

	(void)size;
	bbad_sentinel += lines[n] != lines[n - 1];
	for (i = 0; i < n && boffs < sizeof(bcall_offs) / 8; i++)
		bcall_offs[boffs++] = *(__u64 *)lines[i];
	if (bcalls < BATCH_CALLS)
		bcall_n[bcalls] = n;
	fake_clock += TICK;
	if (bcalls++ == bback_at)
		return (__u64)-5;
	if (bcalls - 1 == bmc_at)	/* block 3, byte 128 */
		return latt_mc_code((3ULL << 32) | 128);
	return BATCH_BASE + BATCH_STEP * n;
}

/* the pairs of one run of latt_batch_window(), windows of PER_WINDOW calls */
static void batch_loop(struct layout *l, struct latt_batch_rec *b,
		       struct latt_acct *a, __u64 *windows)
{
	static char *lines[2 * BATCH_K + 1];
	static __u64 offs[2 * BATCH_K];
	struct latt_step s = {
		.batch = fake_batch, .lines = lines, .offs = offs,
		.ctx = l, .size = 64, .mode = LATT_STEP_FLUSH,
	};
	struct latt_pattern pat;
	__u64 done = 0;

	latt_pattern_init(&pat, LATT_PAT_RAND, 64, 0, REGION, 42);
	latt_acct_init(a);
	bcalls = boffs = bbad_sentinel = 0;
	*windows = 0;
	while (done < BATCH_PAIRS && !a->mc) {
		fake_clock = 1000;
		(l->chunked ? latt_batch_window(&s, &pat, b, a, &done,
						BATCH_PAIRS, fake_clock,
						PER_WINDOW * TICK, chunk_addr,
						fake_tsc) :
			      latt_batch_window(&s, &pat, b, a, &done,
						BATCH_PAIRS, fake_clock,
						PER_WINDOW * TICK, flat_addr,
						fake_tsc));
		(*windows)++;
	}
}

/*
 * The batches take the pattern's offsets in its order, K then 2K in even
 * pairs and 2K then K in odd ones; every pair is recorded with its two
 * figures; a backwards batch leaves its pair out; a poisoned block names
 * its offset.  One mapping and 4 MiB chunks alike.
 */
static void test_batch_loop(struct layout *lf, struct layout *lc)
{
	static struct latt_batch_pair pairs[BATCH_PAIRS];
	struct latt_batch_rec b = { .pairs = pairs, .k = BATCH_K };
	struct layout *l[2] = { lf, lc };
	struct latt_pattern pat;
	struct latt_acct a;
	__u64 windows, i, bad_order = 0, bad_offs = 0, bad_pairs = 0;
	__u64 want_off;
	int k;

	layout_fill(lf);
	layout_fill(lc);
	for (k = 0; k < 2; k++) {
		b.n = b.backwards = 0;
		bad_order = bad_offs = bad_pairs = 0;
		bback_at = bmc_at = ~0ULL;
		batch_loop(l[k], &b, &a, &windows);
		latt_pattern_init(&pat, LATT_PAT_RAND, 64, 0, REGION, 42);
		for (i = 0; i < boffs; i++)
			bad_offs += bcall_offs[i] != latt_pattern_next(&pat);
		for (i = 0; i < BATCH_CALLS; i++)
			bad_order += bcall_n[i] != ((i / 2) & 1 ? i & 1 ?
				BATCH_K : 2 * BATCH_K : i & 1 ?
				2 * BATCH_K : BATCH_K);
		for (i = 0; i < b.n; i++)
			bad_pairs += pairs[i].k != BATCH_BASE +
				     BATCH_STEP * BATCH_K ||
				     pairs[i].k2 != BATCH_BASE +
				     BATCH_STEP * 2 * BATCH_K;
		check(b.n == BATCH_PAIRS && !b.backwards && !bad_pairs &&
		      !bad_order && !bad_offs && !bbad_sentinel &&
		      boffs == 3 * BATCH_K * BATCH_PAIRS && !a.mc &&
		      windows == (BATCH_CALLS + PER_WINDOW - 1) / PER_WINDOW,
		      "%s: latt_batch_window(): %llu pairs of K %u and 2K, %llu in the wrong order, %llu offsets not the pattern's, %llu pairs with other figures, %llu bad sentinels, %llu windows",
		      k ? "4 MiB chunks" : "one mapping",
		      (unsigned long long)b.n, BATCH_K,
		      (unsigned long long)bad_order,
		      (unsigned long long)bad_offs,
		      (unsigned long long)bad_pairs,
		      (unsigned long long)bbad_sentinel,
		      (unsigned long long)windows);
	}
	/* call 101 (pair 50's second, its 2K batch) runs backwards */
	b.n = b.backwards = 0;
	bback_at = 101;
	batch_loop(lf, &b, &a, &windows);
	check(b.n == BATCH_PAIRS - 1 && b.backwards == 1,
	      "a backwards batch leaves its pair out: %llu recorded, %llu backwards",
	      (unsigned long long)b.n, (unsigned long long)b.backwards);
	/* call 7 (pair 3's second, its K batch: pair 3's 2K came first)
	 * consumes poison in its block 3, offset 9K + 2K + 3 of the stream */
	b.n = b.backwards = 0;
	bback_at = ~0ULL;
	bmc_at = 7;
	batch_loop(lf, &b, &a, &windows);
	latt_pattern_init(&pat, LATT_PAT_RAND, 64, 0, REGION, 42);
	for (i = 0; i <= 3 * BATCH_K * 3 + 2 * BATCH_K + 3; i++)
		want_off = latt_pattern_next(&pat);
	check(a.mc && a.mc_off == want_off + 128 && b.n == 3,
	      "poison in a batch's block 3 at byte 128: mc %d at %#llx (the pattern's %#llx + 128), %llu pairs before it",
	      a.mc, (unsigned long long)a.mc_off,
	      (unsigned long long)want_off, (unsigned long long)b.n);
	bmc_at = ~0ULL;
}

int main(void)
{
	static struct record flat, chunked;
	/* every step; then no threshold, and a threshold but no room */
	static const struct { struct ask ask; const char *name; } runs[] = {
		{ { LATT_STEP_FLUSH, THRESHOLD, MAX_OUT, REGION / 2 },
		  "flushed rand, the thread's part the region's upper half" },
		{ { LATT_STEP_WARM, THRESHOLD, MAX_OUT, 4096 },
		  "warmed rand, the part from 4 KiB" },
		{ { LATT_STEP_CHASE, THRESHOLD, MAX_OUT, 0 }, "chase" },
		{ { LATT_STEP_FLUSH, 0, MAX_OUT, 0 }, "no threshold" },
		{ { LATT_STEP_FLUSH, THRESHOLD, 0, 0 }, "no room for records" },
	};
	const struct ask off_chase = { LATT_STEP_CHASE_OFF, THRESHOLD,
				       MAX_OUT, 0 };
	struct layout lf, lc;
	char why[256];
	unsigned int i;
	__u64 distinct, j;

	if (layout_init(&lf, 0) || layout_init(&lc, 1)) {
		check(0, "allocate two 16 MiB layouts");
		return tap_done("loop");
	}
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		run_loop(&lf, runs[i].ask, &flat);
		run_loop(&lc, runs[i].ask, &chunked);
		check(same(&flat, &chunked),
		      "%s: one mapping and 4 MiB chunks give the same record",
		      runs[i].name);
		check(flat.logged == SAMPLES && !flat.bad_windows &&
		      !chunked.bad_windows &&
		      flat.windows == (SAMPLES + PER_WINDOW - 1) / PER_WINDOW,
		      "%s: latt_sample_window(): %llu samples in %llu windows of %llu, each ended by the clock (%llu, %llu otherwise)",
		      runs[i].name, (unsigned long long)flat.logged,
		      (unsigned long long)flat.windows, PER_WINDOW,
		      (unsigned long long)flat.bad_windows,
		      (unsigned long long)chunked.bad_windows);
		check(model_agrees(&flat, why, sizeof(why)),
		      "%s: the record is an independent count of the figures (%s)",
		      runs[i].name, why);
		check(flat.a.backwards > 0 && flat.a.hist_overflow > 0 &&
		      flat.a.nmi_windows == (SAMPLES / PER_WINDOW + 1) / 3 &&
		      (!runs[i].ask.threshold ? !flat.a.outliers_seen :
		       flat.a.outliers_dropped > 0),
		      "%s: the figures reach the edges: backwards %llu, past the histogram %llu, NMI windows %llu, outliers %llu (%llu dropped)",
		      runs[i].name, (unsigned long long)flat.a.backwards,
		      (unsigned long long)flat.a.hist_overflow,
		      (unsigned long long)flat.a.nmi_windows,
		      (unsigned long long)flat.a.outliers_seen,
		      (unsigned long long)flat.a.outliers_dropped);
		for (distinct = 0, j = 1; j < SAMPLES; j++)
			distinct += flat.offs[j] != flat.offs[j - 1];
		check(distinct > SAMPLES / 2,
		      "%s: the samples visit the region (%llu changes of line)",
		      runs[i].name, (unsigned long long)distinct);
	}
	/* a chase's offsets follow its nodes: each the previous one's next */
	run_loop(&lc, runs[2].ask, &chunked);
	for (j = 1; j < SAMPLES; j++)
		if (((struct latt_chase_node *)chunk_addr(&lc,
				chunked.offs[j - 1]))->next !=
		    chunk_addr(&lc, chunked.offs[j]))
			break;
	check(j == SAMPLES, "chase in chunks: every sample's offset is the node the previous one pointed to (%llu of %llu)",
	      (unsigned long long)j, SAMPLES);
	/* persistent memory's chase, by offsets: one mapping only */
	run_loop(&lf, off_chase, &flat);
	check(model_agrees(&flat, why, sizeof(why)),
	      "offset chase: the record is an independent count of the figures (%s)",
	      why);
	for (j = 1; j < SAMPLES; j++)
		if (*(__u64 *)(lf.flat + flat.offs[j - 1]) != flat.offs[j])
			break;
	check(j == SAMPLES && flat.offs[SAMPLES / 2] != flat.offs[0],
	      "offset chase: every sample's offset is the one the node before held (%llu of %llu)",
	      (unsigned long long)j, SAMPLES);
	test_streams(&lf, &lc);
	test_batch_loop(&lf, &lc);
	test_empty();
	test_calib_window();
	test_stream_window(&lf);
	test_poison(&lf);
	test_reports();
	test_threads();
	test_traffic();
	test_merge_overheads();
	test_lcal();
	test_thread_streams();
	test_spin_to();
	layout_free(&lf);
	layout_free(&lc);
	return tap_done("loop");
}
