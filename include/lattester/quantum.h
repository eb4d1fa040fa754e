/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * quantum.h - the timer's resolution told apart from its read cost (issue
 * 25, item 1), for both engines: integer arithmetic only (the module has no
 * FPU to use).
 *
 * A TSC that a hypervisor scales may advance in steps: on the AMD EPYC
 * guests seen so far every reading moved by 24.45 ticks (10 ns), so every
 * difference of two readings is a multiple of that quantum, rounded to a
 * tick.  The read cost (two readings back to back) is a few quanta there,
 * and the two are different things: the cost is what a sample's overhead
 * subtracts, the quantum is how finely a single sample can tell two
 * latencies apart.
 *
 * latt_quantum_find() takes differences of readings: back-to-back deltas
 * and, better, a run's own raw samples, whose many multiples pin the
 * quantum down (deltas alone that are all 3 quanta apart can't tell the
 * quantum from three of them).  The quantum is the largest spacing that
 * nearly every difference is a multiple of, within the rounding of its two
 * readings, then refined by least squares over those multiples; it is held
 * in 1/256 of a tick, since it need not be a whole number of ticks.
 *
 * Both engines find the quantum once, from differences of their own
 * (latt_timer_diffs() in access.h: pairs back to back and pairs a varying
 * spin apart), for struct latt_info.timer_quantum; lattester-ctl finds it
 * again from a run's raw samples (latt_quantum_hist()), reports the
 * engine's, and warns where the samples' spacing is finer.
 */
#ifndef _LATTESTER_QUANTUM_H
#define _LATTESTER_QUANTUM_H

#include <linux/types.h>
#include "hist.h"

#define LATT_Q_SHIFT		8	/* the quantum in 1/256 of a tick */
#define LATT_Q_ONE		(1ULL << LATT_Q_SHIFT)
#if LATT_QUANTUM_ONE != 1 << LATT_Q_SHIFT
#error "struct latt_info.timer_quantum's unit is not quantum.h's"
#endif
#define LATT_Q_MAX_DIV		64	/* quanta in the smallest difference */
#define LATT_Q_FIT_PPM		990000	/* differences that must fit: 99% */
#define LATT_Q_MAX_D		(1ULL << 16)	/* differences looked at: below */
#define LATT_Q_MAX_N		65536	/* and at most this many */

/**
 * struct latt_quantum - what latt_quantum_find() found
 * @quantum: the common spacing of the differences, in 1/256 of a tick
 *	(LATT_Q_ONE is one tick: a TSC that moves by one); 0 for none
 * @read_cost: the smallest difference above 0, in ticks
 * @fit_ppm: the differences that are multiples of @quantum, per million
 * @used: the differences looked at (0, and LATT_Q_MAX_D ticks or more,
 *	left out: a tail sample adds nothing a smaller one doesn't, and the
 *	sums stay within 64 bits)
 */
struct latt_quantum {
	__u64 quantum;
	__u64 read_cost;
	__u32 fit_ppm;
	__u32 used;
};

/**
 * latt_q_fits() - is @d (ticks) a multiple of @q (1/256 tick) within the
 * rounding of two readings?
 * @d: a difference of two readings
 * @q: a candidate quantum, > 0
 * @k: set to the multiple
 *
 * Each reading is the true time rounded to a tick, so a difference lies
 * within a tick of k quanta; the tolerance is half a tick more, for a
 * candidate not yet refined, and a quarter quantum where that is less, so
 * that a quantum of 1 (every tick) is not taken for 2.
 *
 * Return: nonzero if it fits.
 */
static inline int latt_q_fits(__u64 d, __u64 q, __u64 *k)
{
	__u64 x = d << LATT_Q_SHIFT, r, tol;

	tol = q / 4 < 3 * LATT_Q_ONE / 2 ? q / 4 : 3 * LATT_Q_ONE / 2;
	*k = x / q;
	r = x - *k * q;
	if (r > q / 2) {
		r = q - r;
		(*k)++;
	}
	return *k > 0 && r <= tol;
}

/*
 * latt_q_band() - over the differences up to @lim ticks: how many there
 * are (*@m) and fit @q (*@fit), and the least-squares quantum of those
 * that fit, sum(d k) / sum(k k) (@q where none does)
 */
static inline __u64 latt_q_band(const __u64 *d, __u32 n, __u64 q, __u64 lim,
				__u32 *m, __u32 *fit)
{
	__u64 k, sdk = 0, skk = 0;
	__u32 i;

	*m = 0;
	*fit = 0;
	for (i = 0; i < n; i++) {
		if (!d[i] || d[i] >= LATT_Q_MAX_D || d[i] > lim)
			continue;
		(*m)++;
		if (!latt_q_fits(d[i], q, &k))
			continue;
		(*fit)++;
		sdk += (d[i] << LATT_Q_SHIFT) * k;
		skk += k * k;
	}
	return skk ? sdk / skk : q;
}

/*
 * latt_q_try() - the candidate of the smallest difference @min taken as
 * @div quanta, refined band by band up to the largest @max: nonzero, with
 * the quantum in *@q and the differences that fit it in *@fit, where at
 * least LATT_Q_FIT_PPM of every band fit
 */
static inline int latt_q_try(const __u64 *d, __u32 n, __u64 min, __u64 max,
			     __u32 div, __u64 *q, __u32 *fit)
{
	__u64 base = 0, lim;
	__u32 i, m = 0;

	/*
	 * the smallest difference, div quanta, as the mean of those within
	 * half a quantum of it: one is off by up to a tick, their mean far
	 * less
	 */
	for (i = 0; i < n; i++) {
		if (d[i] && d[i] <= min + min / div / 2) {
			base += d[i] << LATT_Q_SHIFT;
			m++;
		}
	}
	*q = base / m / div;
	if (*q < 3 * LATT_Q_ONE / 4)
		return 0;
	for (lim = 2 * min;; lim += lim / 2) {
		*q = latt_q_band(d, n, *q, lim, &m, fit);
		if ((__u64)*fit * 1000000 < (__u64)m * LATT_Q_FIT_PPM || !*q)
			return 0;
		if (lim >= max)
			break;
	}
	return *q >= LATT_Q_ONE;
}

/*
 * latt_q_misfit() - how far the differences lie from multiples of @q:
 * the sum of the squared distances, in (1/256 tick)^2, each at most
 * (@cap / 2)^2, so that a stray value weighs no more for one candidate
 * than for another
 */
static inline __u64 latt_q_misfit(const __u64 *d, __u32 n, __u64 q,
				  __u64 cap)
{
	__u64 x, r, s = 0;
	__u32 i;

	for (i = 0; i < n; i++) {
		if (!d[i] || d[i] >= LATT_Q_MAX_D)
			continue;
		x = d[i] << LATT_Q_SHIFT;
		r = x % q;
		if (r > q / 2)
			r = q - r;
		if (r > cap / 2)
			r = cap / 2;
		s += r * r;
	}
	return s;
}

/**
 * latt_quantum_find() - the quantum and the read cost of a timer
 * @out: the result
 * @d: differences of two readings, in ticks: back-to-back deltas, a run's
 *	raw samples, or both
 * @n: how many; LATT_Q_MAX_N at most are read
 *
 * Candidates are the smallest difference divided by 1 to LATT_Q_MAX_DIV,
 * the largest first, the smallest taken for each divisor as the mean of
 * the differences within half that candidate of it (one multiple).  A
 * candidate is tried on the differences up to twice the smallest, refined
 * by least squares over their multiples, then on differences half again
 * as large, and so on: a candidate off by a fraction of a tick would miss
 * the larger multiples, a refined one hits them.  The first that
 * LATT_Q_FIT_PPM of the differences of every band fit is the quantum,
 * unless a neighbour fits better: differences of few multiples (a warm L1
 * load's samples of 22 to 28 quanta of 2 ticks) fit 2.08 ticks, 44 ticks
 * taken as 21 quanta, nearly as well as 2, 44 as 22.  So the divisors
 * after it whose candidates are above 3/5 of it (a submultiple, half of
 * it or less, fits whatever it fits and is never better) are tried too,
 * and the one whose differences lie nearest their multiples (the least
 * sum of squares) is taken, the larger where two tie.
 * When none fits, the quantum is one tick: readings are whole ticks.
 * (A quantum below a LATT_Q_MAX_DIV-th of the smallest difference can't
 * be told from one tick this way: the run's samples of a DRAM load, 100
 * quanta and more, say nothing of a quantum of 2.)
 *
 * Return: 0 for a spacing that fits, 1 for one tick by default (no
 *	spacing above a tick fits), or -1 with no difference above 0 and
 *	below LATT_Q_MAX_D (@out then holds nothing: @quantum and
 *	@read_cost 0).
 */
static inline int latt_quantum_find(struct latt_quantum *out, const __u64 *d,
				    __u32 n)
{
	__u64 min = 0, max = 0, q, best = 0, cap = 0, cost, best_cost = 0;
	__u32 i, div, fit, best_fit = 0, used = 0;

	out->quantum = 0;
	out->fit_ppm = 0;
	if (n > LATT_Q_MAX_N)
		n = LATT_Q_MAX_N;
	for (i = 0; i < n; i++) {
		if (!d[i] || d[i] >= LATT_Q_MAX_D)
			continue;
		used++;
		if (!min || d[i] < min)
			min = d[i];
		if (d[i] > max)
			max = d[i];
	}
	out->read_cost = min;
	out->used = used;
	if (!used)
		return -1;
	for (div = 1; div <= LATT_Q_MAX_DIV; div++) {
		/* below a tick: one tick, after the loop; past the first
		 * fit's neighbours: done */
		if ((min << LATT_Q_SHIFT) / div < 3 * LATT_Q_ONE / 4 ||
		    (cap && (min << LATT_Q_SHIFT) / div * 5 <= cap * 3))
			break;
		if (!latt_q_try(d, n, min, max, div, &q, &fit) ||
		    (cap && q * 5 <= cap * 3))
			continue;
		if (!cap)
			cap = q;	/* every candidate's misfit capped alike */
		cost = latt_q_misfit(d, n, q, cap);
		if (!best || cost < best_cost) {
			best = q;
			best_cost = cost;
			best_fit = fit;
		}
	}
	if (best) {
		out->quantum = best;
		out->fit_ppm = (__u32)((__u64)best_fit * 1000000 / used);
		return 0;
	}
	/*
	 * Readings are whole ticks: every difference is a multiple of one.
	 * A timer that ticks every cycle ends here (a candidate near a tick
	 * rarely fits the larger differences before its refinement), and so
	 * would one whose differences are too disordered for any spacing.
	 */
	out->quantum = LATT_Q_ONE;
	out->fit_ppm = 1000000;
	return 1;
}

/**
 * latt_quantum_hist() - the differences a histogram of raw samples holds
 * @d: out: LATT_Q_MAX_N differences at most
 * @h: LATT_HIST_BUCKETS counters of raw samples (each the difference of
 *	two readings)
 *
 * The buckets of one value each, below LATT_HIST_EXACT ticks (a wider
 * bucket adds its own rounding to the readings', more than the fit
 * allows).  A bucket gives its value as often as it counted it, up to
 * LATT_Q_MAX_N / LATT_HIST_EXACT times, so that a stray sample weighs as
 * little as it did in the run.  A run whose samples are all longer
 * gives none: the quantum is then the timer's alone.
 *
 * Return: how many differences were written to @d.
 */
static inline __u32 latt_quantum_hist(__u64 *d, const __u64 *h)
{
	const __u64 cap = LATT_Q_MAX_N / LATT_HIST_EXACT;
	__u32 idx, n = 0;
	__u64 k, c;

	for (idx = 1; idx < LATT_HIST_EXACT; idx++) {
		c = h[idx] < cap ? h[idx] : cap;
		for (k = 0; k < c && n < LATT_Q_MAX_N; k++)
			d[n++] = latt_hist_lo(idx);
	}
	return n;
}

#endif /* _LATTESTER_QUANTUM_H */
