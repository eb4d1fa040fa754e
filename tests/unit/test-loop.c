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
 * engine (latt_step(), latt_acct_sample(), latt_acct_window(), windows of
 * a fixed number of samples) must then give the same record in both
 * layouts, for flushed, warmed and chased samples, and that record must
 * be what an independent count of the same figures gives: histogram,
 * min, max, sums, backwards samples, outliers seen, recorded and dropped,
 * each record's sample, time, offset, cycles and window, NMI flags.
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

static __u64 fake_fn(char *addr, __u64 size)
{
	(void)size;
	return figure(*(__u64 *)addr);
}

/* the offset chase: each node's first word the next one's offset */
static __u64 fake_chase_off(char *base, __u64 mask, __u64 *pos, __u32 chain)
{
	__u64 cyc = figure(((struct latt_chase_node *)(base + *pos))->offset);
	__u32 i;

	for (i = 0; i < chain; i++)
		*pos = *(__u64 *)(base + *pos) & mask;
	return cyc;
}

static __u64 fake_chase(char **pos, __u32 chain)
{
	struct latt_chase_node *n = (struct latt_chase_node *)*pos;
	__u64 cyc = figure(n->offset);
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
	__u64 offs[SAMPLES];
};

/*
 * The engines' loop: windows of PER_WINDOW samples, a stand-in TSC that
 * counts samples; every third window "saw an NMI".
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
	__u64 done = 0, window = 0, tsc = 1000, off, cyc;
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
	while (done < SAMPLES) {
		first = rec->a.nr_outliers;
		do {
			cyc = l->chunked ? latt_step(&s, &pat, &off, chunk_addr) :
					   latt_step(&s, &pat, &off, flat_addr);
			rec->offs[done] = off;
			latt_acct_sample(&rec->a, done, tsc, off, cyc, window);
			done++;
			tsc += 10;
		} while (done < SAMPLES && done % PER_WINDOW);
		latt_acct_window(&rec->a, 10 * PER_WINDOW + window % 5,
				 window % 3 == 2, first);
		window++;
	}
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
			    o->tsc != 10 * i || o->cpu != 3 ||
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
	layout_free(&lf);
	layout_free(&lc);
	return tap_done("loop");
}
