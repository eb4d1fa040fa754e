/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * prng.h - the address generator's random numbers, shared by the module and
 * lattester-ctl so that a seed gives the same addresses in both engines.
 *
 * SplitMix64 (Steele, Lea, Flood 2014): one 64-bit word of state, passes
 * BigCrush, and any seed (zero included) is a good seed.  Bounded values use
 * rejection on a power-of-two mask, so they carry no modulo bias.
 */
#ifndef _LATTESTER_PRNG_H
#define _LATTESTER_PRNG_H

#include <linux/types.h>

struct latt_prng {
	__u64 state;
};

static inline void latt_prng_seed(struct latt_prng *r, __u64 seed)
{
	r->state = seed;
}

static inline __u64 latt_prng_next(struct latt_prng *r)
{
	__u64 z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * latt_prng_derive() - the seed of stream @idx of a run seeded with @seed
 * @seed: the run's seed
 * @idx: the stream (a thread's index); 0 keeps @seed
 *
 * A SplitMix64 stream seeded with s + k x its increment is the stream of s
 * shifted by k draws, so streams seeded s, s + inc, s + 2 inc ... replay one
 * another.  The other streams' seeds go through a mixer of their own (the
 * "moremur" constants, Evensen 2019, unlike SplitMix64's): their states
 * then lie at unrelated points of the generator's one cycle of 2^64, and
 * two streams overlap within 2^20 draws with a probability near 2^-43.
 *
 * Return: the stream's seed.
 */
static inline __u64 latt_prng_derive(__u64 seed, __u64 idx)
{
	__u64 z;

	if (!idx)
		return seed;
	z = seed ^ (idx * 0xd1342543de82ef95ULL);
	z = (z ^ (z >> 27)) * 0x3c79ac492ba7b653ULL;
	z = (z ^ (z >> 33)) * 0x1c69b3f74ac4ae35ULL;
	return z ^ (z >> 27);
}

/**
 * latt_prng_below() - uniform value in [0, n), n > 0, without modulo bias
 * @r: the generator
 * @n: the bound
 *
 * Draws are masked to the smallest power of two >= n and redrawn when they
 * land at or above n: fewer than two draws on average.
 *
 * Return: the value; 0 when @n is 1 or less.
 */
static inline __u64 latt_prng_below(struct latt_prng *r, __u64 n)
{
	__u64 mask, v;

	if (n <= 1)
		return 0;
	mask = ~0ULL >> __builtin_clzll(n - 1);
	do {
		v = latt_prng_next(r) & mask;
	} while (v >= n);
	return v;
}

#endif /* _LATTESTER_PRNG_H */
