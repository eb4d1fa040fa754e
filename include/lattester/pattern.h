/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * pattern.h - where each sample goes: the address generator shared by the
 * module and lattester-ctl, so one seed gives one offset sequence in both.
 *
 * The target is seen as chunks of LATT_CHUNK bytes (the module backs DRAM
 * with physically contiguous 4 MiB blocks), or of 2 MiB where the module
 * could only get 2 MiB blocks (latt_pattern_init_in(), LATT_CHUNK_MIN_SHIFT):
 * the chunk is the pattern's @chunk_shift.  Each chunk holds
 * floor(chunk / size) slots of @size bytes, so no access ever crosses a
 * chunk.  For power-of-two sizes the slots tile the region and slot s is at
 * byte s * size.  Offsets returned are byte offsets in the region.
 */
#ifndef _LATTESTER_PATTERN_H
#define _LATTESTER_PATTERN_H

#include <linux/types.h>
#include "../uapi/lattester.h"
#include "prng.h"

#ifndef __always_inline		/* the kernel has it */
#define __always_inline inline __attribute__((__always_inline__))
#endif

#define LATT_CHUNK_SHIFT	22
#define LATT_CHUNK		(1ULL << LATT_CHUNK_SHIFT)
#define LATT_CHUNK_MIN_SHIFT	21	/* 2 MiB: a fragmented node's blocks */
#define LATT_NO_SHIFT		64	/* latt_pattern.pc_shift: divide */

struct latt_pattern {
	__u32 kind;		/* LATT_PAT_* */
	__u64 size;		/* access size */
	__u64 region;		/* bytes */
	__u64 per_chunk;	/* slots in one chunk */
	__u64 pc_inv;		/* per_chunk not a power of two: 2^64 / it */
	__u32 pc_shift;		/* a power of two: its log2; else LATT_NO_SHIFT */
	__u32 chunk_shift;	/* a chunk is 1 << chunk_shift bytes */
	__u64 nslots;		/* slots in the region */
	__u64 hot_slots;	/* slots inside the hotspot */
	__u64 block_slots;	/* chase: slots in a TLB-locality block */
	__u64 stride;
	__u64 span;		/* stride wraps here */
	__u64 i;		/* samples generated */
	__u64 pos;		/* stride: next byte position */
	struct latt_prng prng;
};

/**
 * latt_slots_below_in() - how many slots lie entirely below byte @bytes,
 *	in chunks of 1 << @shift bytes
 * @bytes: a byte offset in the region
 * @size: bytes per slot
 * @shift: log2 of the chunk's bytes
 *
 * Return: the number of slots.
 */
static inline __u64 latt_slots_below_in(__u64 bytes, __u64 size,
					__u32 shift)
{
	__u64 per_chunk = (1ULL << shift) / size;
	__u64 rest = bytes & ((1ULL << shift) - 1);

	rest /= size;
	if (rest > per_chunk)
		rest = per_chunk;
	return (bytes >> shift) * per_chunk + rest;
}

/** latt_slot_offset_in() - byte offset of slot @s, chunks of 1 << @shift */
static inline __u64 latt_slot_offset_in(__u64 s, __u64 size, __u32 shift)
{
	__u64 per_chunk = (1ULL << shift) / size;

	return ((s / per_chunk) << shift) + (s % per_chunk) * size;
}

/* The same, in LATT_CHUNK chunks. */
static inline __u64 latt_slots_below(__u64 bytes, __u64 size)
{
	return latt_slots_below_in(bytes, size, LATT_CHUNK_SHIFT);
}

static inline __u64 latt_slot_offset(__u64 s, __u64 size)
{
	return latt_slot_offset_in(s, size, LATT_CHUNK_SHIFT);
}

/**
 * latt_pattern_init_in() - check a pattern's parameters and set it up, for
 *	a target in chunks of 1 << @shift bytes (LATT_CHUNK_MIN_SHIFT to
 *	LATT_CHUNK_SHIFT)
 * @p: the pattern to set up
 * @kind: LATT_PAT_*
 * @size: bytes per access
 * @stride: latt_config.stride: the stride, the hotspot's bytes or the
 *	chase's TLB-locality block
 * @region: the region's bytes
 * @seed: the PRNG's seed
 * @shift: log2 of the chunk's bytes
 *
 * Return: 0, or -22 (EINVAL) when the sizes don't fit: size not a multiple
 * of 64 or above LATT_MAX_SIZE or the chunk, no whole slot in the region,
 * a stride not a multiple of 64 or beyond the region, a hotspot smaller
 * than one access, a chase's TLB-locality block (@stride) not a power of
 * two, not a multiple of the size or beyond the region.
 */
static inline int latt_pattern_init_in(struct latt_pattern *p, __u32 kind,
				       __u64 size, __u64 stride, __u64 region,
				       __u64 seed, __u32 shift)
{
	const int einval = 22;

	if (!size || size % LATT_LINE || size > LATT_MAX_SIZE ||
	    shift < LATT_CHUNK_MIN_SHIFT || shift > LATT_CHUNK_SHIFT ||
	    size > 1ULL << shift)
		return -einval;
	p->kind = kind;
	p->size = size;
	p->region = region;
	p->chunk_shift = shift;
	p->per_chunk = (1ULL << shift) / size;
	if (p->per_chunk & (p->per_chunk - 1)) {
		p->pc_shift = LATT_NO_SHIFT;
		/* floor(2^64 / d): d is no power of two, so not a divisor */
		p->pc_inv = ~0ULL / p->per_chunk;
	} else {
		p->pc_shift = (__u32)__builtin_ctzll(p->per_chunk);
		p->pc_inv = 0;
	}
	p->nslots = latt_slots_below_in(region, size, shift);
	p->hot_slots = 0;
	p->block_slots = 0;
	p->stride = stride;
	p->span = 0;
	p->i = 0;
	p->pos = 0;
	latt_prng_seed(&p->prng, seed);
	if (!p->nslots)
		return -einval;

	switch (kind) {
	case LATT_PAT_SEQ:
	case LATT_PAT_RAND:
		if (stride)
			return -einval;
		return 0;
	case LATT_PAT_CHASE:
		/* the TLB-locality block (chase.h): whole slots, tiling */
		if (stride && ((stride & (stride - 1)) || stride % size ||
			       stride > region))
			return -einval;
		p->block_slots = stride / size;
		return 0;
	case LATT_PAT_STRIDE:
		if (!stride || stride % LATT_LINE || stride >= region)
			return -einval;
		/* wrap where the last whole access still fits */
		p->span = latt_slot_offset_in(p->nslots - 1, size, shift) +
			  size;
		return 0;
	case LATT_PAT_HOTSPOT:
		if (stride < size || stride > region || stride % LATT_LINE)
			return -einval;
		p->hot_slots = latt_slots_below_in(stride, size, shift);
		return p->hot_slots ? 0 : -einval;
	}
	return -einval;
}

/** latt_pattern_init() - latt_pattern_init_in() in LATT_CHUNK chunks */
static inline int latt_pattern_init(struct latt_pattern *p, __u32 kind,
				    __u64 size, __u64 stride, __u64 region,
				    __u64 seed)
{
	return latt_pattern_init_in(p, kind, size, stride, region, seed,
				    LATT_CHUNK_SHIFT);
}

/* The high 64 bits of @a x @b (one mulq). */
static __always_inline __u64 latt_mulhi(__u64 a, __u64 b)
{
	__u64 lo, hi;

	__asm__("mulq %3" : "=a"(lo), "=d"(hi) : "a"(a), "rm"(b));
	(void)lo;
	return hi;
}

/**
 * latt_pattern_slot() - byte offset of slot @s of @p: latt_slot_offset_in()
 *	without a division
 * @p: the pattern, set up by latt_pattern_init_in()
 * @s: a slot
 *
 * Where the slots tile the chunk (a power-of-two --size) slot @s is at
 * @s x size.  Else its chunk is @s / per_chunk: a shift where per_chunk
 * is a power of two, else the high half of @s x
 * floor(2^64 / per_chunk), which is the quotient or one less (the
 * estimate falls short of @s / per_chunk by @s x (2^64 mod per_chunk) /
 * (per_chunk x 2^64), less than 1), put right by one compare.  This is
 * the streams' per-access arithmetic: a 64-bit division there costs tens
 * of cycles (issue 27).
 *
 * Return: the byte offset, as latt_slot_offset_in() gives it.
 */
static __always_inline __u64 latt_pattern_slot(const struct latt_pattern *p,
					       __u64 s)
{
	__u64 q, r;

	if (p->per_chunk * p->size == 1ULL << p->chunk_shift)
		return s * p->size;	/* the slots tile: a power-of-two size */
	if (p->pc_shift != LATT_NO_SHIFT) {
		q = s >> p->pc_shift;
		r = s & (p->per_chunk - 1);
	} else {
		q = latt_mulhi(s, p->pc_inv);
		r = s - q * p->per_chunk;
		if (r >= p->per_chunk) {
			q++;
			r -= p->per_chunk;
		}
	}
	return (q << p->chunk_shift) + r * p->size;
}

/**
 * latt_pattern_problem() - what latt_pattern_init() refused, in words,
 *	for a configuration whose size is already known to be in range
 * @kind: LATT_PAT_*
 * @stride: latt_config.stride
 *
 * Return: the refusal's sentence, a constant string.
 */
static inline const char *latt_pattern_problem(__u32 kind, __u64 stride)
{
	switch (kind) {
	case LATT_PAT_CHASE:
		if (stride)
			return "--tlb-locality must be a power of two, a multiple of --size and at most --region";
		return "--region must hold at least one access of --size bytes";
	case LATT_PAT_STRIDE:
		return "the stride must be smaller than --region";
	case LATT_PAT_HOTSPOT:
		return "the hotspot must be at least --size and at most --region";
	default:
		return "--region must hold at least one access of --size bytes";
	}
}

/*
 * latt_pattern_draw() - @n slots below @m from @p's PRNG, as @n calls of
 *	latt_prng_below() would give them, as byte offsets (and addresses,
 *	latt_pattern_fill_at()): the mask worked out once
 */
static __always_inline void latt_pattern_draw(struct latt_pattern *p,
					      __u64 *off, char **a, __u32 n,
					      __u64 m,
					      char *(*addr)(void *, __u64),
					      void *ctx, __u64 base)
{
	const __u64 mask = m > 1 ? ~0ULL >> __builtin_clzll(m - 1) : 0;
	const __u64 size = p->size;
	const int tiles = p->per_chunk * size == 1ULL << p->chunk_shift;
	/*
	 * the generator's state in a local: a store to off[] may alias
	 * p->prng, which would then go to memory and back each draw
	 */
	struct latt_prng r = p->prng;
	__u64 v, o;
	__u32 i;

	for (i = 0; i < n; i++) {
		v = 0;		/* m <= 1: latt_prng_below() draws nothing */
		if (m > 1) {
			do {
				v = latt_prng_next(&r) & mask;
			} while (v >= m);
		}
		o = tiles ? v * size : latt_pattern_slot(p, v);
		if (off)
			off[i] = o;
		if (addr)
			a[i] = addr(ctx, base + o);
	}
	p->prng = r;
}

/**
 * latt_pattern_fill_at() - where the next @n accesses go, as offsets and
 *	as addresses
 * @p: the pattern, set up by latt_pattern_init_in()
 * @off: out: @n byte offsets in the region, or NULL for none (a constant
 *	where this is inlined)
 * @a: out: their addresses, @addr of @base + each offset (if @addr)
 * @n: how many
 * @addr: the address of an offset, called with @ctx; NULL: offsets only
 *	(always inlined: a constant here, as the engines' are)
 * @ctx: its argument
 * @base: added to each offset before @addr (a thread's part)
 *
 * The offsets @n calls of latt_pattern_next() return, in their order: the
 * streams take their addresses a batch at a time, so that the kind of
 * pattern is looked at once and the loads that follow are independent of
 * the arithmetic.  seq divides once a batch, not once an access.
 */
static __always_inline void latt_pattern_fill_at(struct latt_pattern *p,
						 __u64 *off, char **a,
						 __u32 n,
						 char *(*addr)(void *, __u64),
						 void *ctx, __u64 base)
{
	const __u64 chunk = 1ULL << p->chunk_shift;
	__u64 s, o;
	__u32 i;

	switch (p->kind) {
	case LATT_PAT_SEQ:
		s = p->i % p->nslots;
		for (i = 0; i < n; i++) {
			o = latt_pattern_slot(p, s);
			if (off)
				off[i] = o;
			if (addr)
				a[i] = addr(ctx, base + o);
			if (++s == p->nslots)
				s = 0;
		}
		break;
	case LATT_PAT_RAND:
		latt_pattern_draw(p, off, a, n, p->nslots, addr, ctx, base);
		break;
	case LATT_PAT_HOTSPOT:
		latt_pattern_draw(p, off, a, n, p->hot_slots, addr, ctx, base);
		break;
	case LATT_PAT_STRIDE:
		for (i = 0; i < n; i++) {
			o = p->pos;
			/* an access may not cross a chunk: go to the next */
			if ((o & (chunk - 1)) + p->size > chunk)
				o = (o | (chunk - 1)) + 1;
			if (o + p->size > p->span)
				o = 0;
			if (off)
				off[i] = o;
			if (addr)
				a[i] = addr(ctx, base + o);
			/* (o + stride) % span, o < span */
			o += p->stride;
			while (o >= p->span)
				o -= p->span;
			p->pos = o;
		}
		break;
	default:
		for (i = 0; i < n; i++) {
			if (off)
				off[i] = 0;
			if (addr)
				a[i] = addr(ctx, base);
		}
		break;
	}
	p->i += n;
}

/** latt_pattern_fill() - latt_pattern_fill_at(), the offsets alone */
static __always_inline void latt_pattern_fill(struct latt_pattern *p,
					      __u64 *off, __u32 n)
{
	latt_pattern_fill_at(p, off, (char **)0, n,
			     (char *(*)(void *, __u64))0, (void *)0, 0);
}

/**
 * latt_pattern_run() - seq: how many of the next accesses, up to @max,
 *	follow one another in one chunk, and where the first goes
 * @p: a LATT_PAT_SEQ pattern, set up by latt_pattern_init_in()
 * @max: at most this many (at least 1)
 * @off: out: the first one's byte offset in the region
 *
 * They are the offsets the next calls of latt_pattern_next() would
 * return, one slot after another: the run stops at a chunk's last slot
 * and at the region's last (seq wraps to slot 0 there).  @p moves past
 * them.
 *
 * Return: how many, 1 to @max.
 */
static __always_inline __u32 latt_pattern_run(struct latt_pattern *p,
					      __u32 max, __u64 *off)
{
	const __u64 s = p->i % p->nslots;
	__u64 left = p->nslots - s, in_chunk;

	*off = latt_pattern_slot(p, s);
	/* the slots left in s's chunk: its offset's chunk ends there */
	in_chunk = p->per_chunk - ((*off & ((1ULL << p->chunk_shift) - 1)) /
				   p->size);
	if (in_chunk < left)
		left = in_chunk;
	if (left > max)
		left = max;
	p->i += left;
	return (__u32)left;
}

/**
 * latt_pattern_next() - where the next sample's access goes
 * @p: the pattern, set up by latt_pattern_init_in()
 *
 * Not used by LATT_PAT_CHASE, whose addresses are the chain itself.
 *
 * Return: its byte offset in the region.
 */
static __always_inline __u64 latt_pattern_next(struct latt_pattern *p)
{
	__u64 off;

	latt_pattern_fill(p, &off, 1);
	return off;
}

#endif /* _LATTESTER_PATTERN_H */
