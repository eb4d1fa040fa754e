/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * chase.h - the cycle a --pattern chase run follows, built in place in the
 * region by both engines (kmod/dram.c, user/engine-user.c), so that one
 * seed gives one chain in both.
 *
 * Every slot of the pattern (pattern.h) is a node: its first word is the
 * next node's address (DRAM) or byte offset (persistent memory, where the
 * loads mask it: access.h, latt_sample_chase_off_*()), the second the
 * node's own offset, for the outlier records.
 *
 * Without a TLB-locality block (latt_config.stride 0) the cycle is one
 * uniformly random cycle through all the slots: Sattolo's algorithm, each
 * node first holding its own index.  With a block of B bytes (a power of
 * two, a multiple of the size: LATT_PAT_CHASE's stride) the cycle visits
 * every node of one B-byte block, in random order, before the next block,
 * the blocks in random order too, but for the first: the walk starts at
 * slot 0 (both engines start there), so slot 0's block comes first and
 * slot 0 first in it; a partial last block (a region that is not a
 * multiple of B) comes last.  Like multichase's -T: with B at most a
 * page, the chain takes one TLB miss per B bytes instead of one per load.
 * The permutation is kept in the nodes' second words while it is built: no
 * memory beyond the region.
 *
 * The build runs in steps, so that the module can sleep and look for a
 * stop between batches: latt_chase_step() until it returns 0.
 */
#ifndef _LATTESTER_CHASE_H
#define _LATTESTER_CHASE_H

#include "pattern.h"
#include "access.h"

/* A chase node: where the next one is, and where this one is. */
struct latt_chase_node {
	char *next;
	__u64 offset;
};

/**
 * struct latt_chase - a cycle being built
 * @pat: the run's pattern (slots, size, block, seeded PRNG)
 * @node: the node of a slot, in the engine's mapping
 * @ctx: @node's argument
 * @offsets: link by offsets (persistent memory), not addresses
 * @phase: where the build is
 * @i: and how far in it
 * @b: the block being swapped (block phase)
 * @c: the block it is swapped with
 * @mc: the node word whose read consumed poison, or NULL: the build stops
 *	there (the engine's run fails with EHWPOISON)
 */
struct latt_chase {
	struct latt_pattern *pat;
	struct latt_chase_node *(*node)(void *ctx, __u64 slot);
	void *ctx;
	int offsets;
	int phase;
	__u64 i, b, c;
	const void *mc;
};

static inline void latt_chase_init(struct latt_chase *ch,
				   struct latt_pattern *pat,
				   struct latt_chase_node *(*node)(void *,
								   __u64),
				   void *ctx, int offsets)
{
	ch->pat = pat;
	ch->node = node;
	ch->ctx = ctx;
	ch->offsets = offsets;
	ch->phase = 0;
	ch->i = 0;
	ch->b = 0;
	ch->c = 0;
	ch->mc = (void *)0;
}

/*
 * A word of a node, as the build reads it back from the target: machine-
 * check safe in the module (access.h's latt_mc_read()).  A poisoned one
 * reads 0 and stops the build at its step (@ch->mc).
 */
static inline __u64 latt_chase_rd(struct latt_chase *ch, const void *word)
{
	__u64 v;

	if (latt_mc_read(word, &v) && !ch->mc)
		ch->mc = word;
	return v;
}

static inline void latt_chase_swap_next(struct latt_chase *ch,
					struct latt_chase_node *a,
					struct latt_chase_node *b)
{
	__u64 t = latt_chase_rd(ch, &a->next);

	a->next = (char *)(__UINTPTR_TYPE__)latt_chase_rd(ch, &b->next);
	b->next = (char *)(__UINTPTR_TYPE__)t;
}

static inline void latt_chase_swap_off(struct latt_chase *ch,
				       struct latt_chase_node *a,
				       struct latt_chase_node *b)
{
	__u64 t = latt_chase_rd(ch, &a->offset);

	a->offset = latt_chase_rd(ch, &b->offset);
	b->offset = t;
}

/* The last phase: indices into addresses or offsets, own offsets set. */
static inline void latt_chase_link(struct latt_chase *ch, __u64 i)
{
	const __u64 n = ch->pat->nslots;
	struct latt_chase_node *a = ch->node(ch->ctx, i);
	__u64 next = latt_chase_rd(ch, &a->next);

	if (next >= n)		/* read back from the target: see phase 3 */
		next %= n;

	a->offset = latt_pattern_slot(ch->pat, i);
	a->next = ch->offsets ?
		  (char *)(__UINTPTR_TYPE__)latt_pattern_slot(ch->pat, next) :
		  (char *)ch->node(ch->ctx, next);
}

/*
 * One step of the block build; phases 1-4 (0 and 5 are shared):
 * 1: within each block, Fisher-Yates over the permutation's positions
 *    (position 0, slot 0, left alone);
 * 2: Fisher-Yates over the whole blocks but block 0, a block swap k
 *    element swaps;
 * 3: node P[j] links to P[j + 1];
 * then latt_chase_link() for every node.
 */
static inline void latt_chase_block_step(struct latt_chase *ch)
{
	struct latt_pattern *p = ch->pat;
	const __u64 n = p->nslots, k = p->block_slots, full = n / k;
	__u64 lo, j;

	switch (ch->phase) {
	case 1:		/* j = n - 1 - i, shuffled inside its block */
		j = n - 1 - ch->i;
		lo = j / k * k;
		if (!lo)	/* slot 0, where the walk starts, stays first */
			lo = 1;
		if (j > lo)
			latt_chase_swap_off(ch, ch->node(ch->ctx, j),
				ch->node(ch->ctx, lo +
					 latt_prng_below(&p->prng, j - lo + 1)));
		break;
	case 2:		/* element i % k of block b, with block c */
		if (ch->i % k == 0) {	/* block 0 stays first */
			ch->b = full - 1 - ch->i / k;
			ch->c = ch->b > 1 ?
				1 + latt_prng_below(&p->prng, ch->b) : ch->b;
		}
		if (ch->b != ch->c)
			latt_chase_swap_off(ch,
				ch->node(ch->ctx, ch->b * k + ch->i % k),
				ch->node(ch->ctx, ch->c * k + ch->i % k));
		break;
	case 3:
		/*
		 * P is read back from the target: on persistent memory others
		 * may write it meanwhile, so it is bounded before it names a
		 * node to write (a cycle that came out wrong is only wrong,
		 * never a write outside the region)
		 */
		j = ch->i;
		lo = latt_chase_rd(ch, &ch->node(ch->ctx, j)->offset);
		ch->node(ch->ctx, lo < n ? lo : lo % n)->next =
			(char *)(__UINTPTR_TYPE__)latt_chase_rd(ch,
			&ch->node(ch->ctx, j + 1 < n ? j + 1 : 0)->offset);
		break;
	}
}

/* How many steps phase @phase of @ch has. */
static inline __u64 latt_chase_len(const struct latt_chase *ch, int phase)
{
	const struct latt_pattern *p = ch->pat;
	const __u64 n = p->nslots, k = p->block_slots;

	if (!k)		/* 0 init, 1 Sattolo (i = n - 1 .. 1), 4 link */
		return phase == 1 ? n - 1 : phase == 2 || phase == 3 ? 0 : n;
	return phase == 2 ? n / k * k : n;
}

/**
 * latt_chase_step() - build up to @budget more steps of the cycle
 * @ch: the build
 * @budget: steps (about one node's loads and stores each)
 *
 * Return: 1 while there is more to do, 0 once the cycle is complete or a
 * read consumed poison (@ch->mc).
 */
static inline int latt_chase_step(struct latt_chase *ch, __u64 budget)
{
	struct latt_pattern *p = ch->pat;
	const __u64 n = p->nslots;
	struct latt_chase_node *a;

	while (budget && ch->phase <= 4 && !ch->mc) {
		if (ch->i >= latt_chase_len(ch, ch->phase)) {
			ch->i = 0;
			ch->phase++;
			continue;
		}
		switch (ch->phase) {
		case 0:
			a = ch->node(ch->ctx, ch->i);
			if (p->block_slots) {
				a->offset = ch->i;	/* P[i] = i */
			} else {
				a->next = (char *)(__UINTPTR_TYPE__)ch->i;
				a->offset = latt_pattern_slot(p, ch->i);
			}
			break;
		case 1:
			if (p->block_slots)
				latt_chase_block_step(ch);
			else	/* Sattolo: i = n - 1 .. 1 */
				latt_chase_swap_next(ch,
					ch->node(ch->ctx, n - 1 - ch->i),
					ch->node(ch->ctx, latt_prng_below(
						&p->prng, n - 1 - ch->i)));
			break;
		case 2:
		case 3:
			latt_chase_block_step(ch);
			break;
		case 4:
			latt_chase_link(ch, ch->i);
			break;
		}
		ch->i++;
		budget--;
	}
	return ch->phase <= 4 && !ch->mc;
}

#endif /* _LATTESTER_CHASE_H */
