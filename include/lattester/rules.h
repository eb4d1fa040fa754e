/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * rules.h - one rule book for both engines: which configurations a run
 * accepts (pick.h: which sample function and timer one gets).
 *
 * The module (kmod/main.c, kmod/ops.c) and lattester-ctl (its user engine,
 * and its checks before it asks the module) call these very functions, so
 * whatever one engine refuses the other refuses, for the same reason: each
 * refusal comes with a sentence (*@why) that lattester-ctl prints and the
 * module returns as its errno.  What only one engine can know (CPUs and
 * nodes online, memory, the device of a pmem target) stays with it.
 */
#ifndef _LATTESTER_RULES_H
#define _LATTESTER_RULES_H

#include "pattern.h"

#define LATT_EINVAL	22
#define LATT_EPERM	1
#define LATT_EOPNOTSUPP	95

static inline int latt_rule(const char **why, const char *what, int err)
{
	*why = what;
	return -err;
}

/**
 * latt_rule_is_store() - whether @op writes its target
 * @op: LATT_OP_*
 *
 * The one definition of a write op, for every rule that asks: what a pmem
 * target needs --force (and a claim open for writing) for, what --write-op
 * takes, which fences apply, which streamed bytes count as written.
 *
 * Return: non-zero for the store ops, flushed or not, the non-temporal
 * stores and the direct stores (movdir64b).
 */
static inline int latt_rule_is_store(__u32 op)
{
	switch (op) {
	case LATT_OP_STORE:
	case LATT_OP_STORE_CLWB:
	case LATT_OP_STORE_CLFLUSHOPT:
	case LATT_OP_STORE_CLFLUSH:
	case LATT_OP_NT_STORE:
	case LATT_OP_MOVDIR64B:
		return 1;
	default:
		return 0;
	}
}

/**
 * latt_op_width() - the one access width an op has, if it has only one
 * @op: LATT_OP_*
 *
 * movdir64b moves 64 bytes per instruction, from memory to memory, through
 * no vector register: its width is 64 whatever vector widths the CPU has
 * (latt_info.widths does not apply to it), and no other.
 *
 * Return: the width in bytes, or 0 for an op that takes any width the CPU
 * has.
 */
static inline __u32 latt_op_width(__u32 op)
{
	return op == LATT_OP_MOVDIR64B ? 64 : 0;
}

/**
 * latt_split_part() - the bytes of each thread's part of a split region
 * @region: the region's bytes
 * @n: threads
 * @size: bytes per access
 * @part: out
 *
 * region / n rounded down to a multiple of LATT_CHUNK, or below one chunk
 * to a power of two, so that no part straddles a chunk (the address
 * generator keeps accesses inside chunks of a region that starts at one).
 *
 * Return: 0, or -EINVAL (-22) when a part can't hold one access.
 */
static inline int latt_split_part(__u64 region, __u32 n, __u64 size,
				  __u64 *part)
{
	__u64 p = region / (n ? n : 1);

	if (p >= LATT_CHUNK)
		p &= ~(LATT_CHUNK - 1);
	else
		while (p & (p - 1))
			p &= p - 1;
	if (p < size || p < LATT_MIN_SIZE)
		return -LATT_EINVAL;
	*part = p;
	return 0;
}

/**
 * latt_thread_part() - where thread @i of a run makes its accesses
 * @c: the run's configuration
 * @traffic: the bytes of its traffic target (ABI 2.9), 0 without one
 * @i: the thread's index
 * @n: the run's threads
 * @off: out: where its part starts in its memory
 * @bytes: out: its part's bytes
 *
 * Without a traffic target every thread spans the region, or with
 * LATT_CFG_SPLIT its own part i of n (latt_split_part()).  With one,
 * thread 0, the probe, spans its region, and the traffic (threads 1 to
 * n - 1) spans the traffic target, or with LATT_CFG_SPLIT each its own
 * part i - 1 of n - 1 of it.
 *
 * Return: 0, or -EINVAL (-22) as latt_split_part().
 */
static inline int latt_thread_part(const struct latt_config *c,
				   __u64 traffic, __u32 i, __u32 n,
				   __u64 *off, __u64 *bytes)
{
	__u64 region = c->region, part;

	*off = 0;
	*bytes = region;
	if (traffic) {
		if (!i)
			return 0;
		region = traffic;
		*bytes = region;
		i--;
		n--;
	}
	if (!(c->flags & LATT_CFG_SPLIT))
		return 0;
	if (latt_split_part(region, n, c->size, &part))
		return -LATT_EINVAL;
	*off = part * i;
	*bytes = part;
	return 0;
}

/*
 * The fields of ABI 1.2's modes, and how they combine with the rest.
 * (the module's former latt_mode_check(), in its order)
 */
static inline int latt_mode_rules(const struct latt_config *c,
				  const char **why)
{
	const int lat = c->mode == LATT_MODE_LATENCY;
	const int bw = c->mode == LATT_MODE_BANDWIDTH;

	if (c->mode > LATT_MODE_MAX)
		return latt_rule(why, "unknown --mode", LATT_EINVAL);
	if (c->delay > LATT_MAX_DELAY)
		return latt_rule(why, "--delay is above 2^20 cycles",
				 LATT_EINVAL);
	if (c->write_op && !latt_rule_is_store(c->write_op))
		return latt_rule(why, "--write-op must be a store op",
				 LATT_EINVAL);
	/* the stream's knobs mean nothing where nothing streams */
	if (lat && (c->delay || c->mix_read || c->mix_write || c->write_op))
		return latt_rule(why, "--delay, --mix and --write-op are for --mode bandwidth and loaded", LATT_EINVAL);
	if (bw) {
		/* timed by the clock, not counted in samples */
		if (c->samples || c->threshold)
			return latt_rule(why, "--mode bandwidth runs by --duration: no samples, no --threshold", LATT_EINVAL);
		if (c->flags & LATT_CFG_WARM || c->pattern == LATT_PAT_CHASE)
			return latt_rule(why, "--mode bandwidth streams: no --warm, no --pattern chase",
					 LATT_EINVAL);
		if (c->duration_us < LATT_MIN_DURATION_US ||
		    c->duration_us > LATT_MAX_DURATION_US)
			return latt_rule(why, "--duration must be 1 ms to 1 hour", LATT_EINVAL);
	} else if (!c->samples || c->samples > LATT_MAX_SAMPLES) {
		return latt_rule(why, "--samples must be 1 to 2^40",
				 LATT_EINVAL);
	} else if (c->duration_us) {
		return latt_rule(why, "--duration is for --mode bandwidth",
				 LATT_EINVAL);
	}
	if (c->mode == LATT_MODE_LOADED && c->nr_threads < 2)
		return latt_rule(why, "--mode loaded needs at least 2 threads",
				 LATT_EINVAL);
	/*
	 * a sample is one access with interrupts off: several threads timing
	 * large ones would hold every CPU of the run so at once (streams go
	 * in 64 KiB pieces, one timed thread is bounded by the ceiling)
	 */
	if (lat && c->nr_threads > 1 && c->size > LATT_MAX_SIZE_THREADS)
		return latt_rule(why, "--size above 256 KiB is for one thread: several threads would each keep interrupts off for a whole access",
				 LATT_EINVAL);
	/* one chain, only thread 0 on it, unwritten */
	if (c->pattern == LATT_PAT_CHASE &&
	    (c->flags & LATT_CFG_SPLIT || c->mix_write ||
	     (lat && c->nr_threads > 1)))
		return latt_rule(why, "--pattern chase is one chain for one thread: no --split, no --mix writes, one thread in latency mode", LATT_EINVAL);
	if (c->target == LATT_TARGET_PMEM && c->mix_write &&
	    !(c->flags & LATT_CFG_FORCE))
		return latt_rule(why, "--mix writes would overwrite persistent memory: they need --force", LATT_EPERM);
	return 0;
}

/**
 * latt_access_rules() - the chain, and what a chase allows
 * @c: the configuration; .chain 0 becomes 1
 * @why: out: the reason of a refusal
 *
 * A part of latt_config_rules(), which lattester-ctl also asks alone while
 * it reads the options (a point of a sweep that breaks them is skipped).
 *
 * Return: 0, -EINVAL.
 */
static inline int latt_access_rules(struct latt_config *c, const char **why)
{
	if (!c->chain)
		c->chain = 1;
	if (c->chain > LATT_MAX_CHAIN)
		return latt_rule(why, "--chain is above 4096", LATT_EINVAL);
	if (c->pattern == LATT_PAT_CHASE) {
		/* dependent loads: plain loads, nothing to warm or fence */
		if (c->op != LATT_OP_LOAD)
			return latt_rule(why, "--pattern chase times dependent loads: --op must be load",
					 LATT_EINVAL);
		if (c->flags & LATT_CFG_WARM)
			return latt_rule(why, "--pattern chase can't --warm: its next address is known only by loading", LATT_EINVAL);
		if (c->fence > LATT_FENCE_NONE)
			return latt_rule(why, "--pattern chase takes no --fence: the timer waits for its loads", LATT_EINVAL);
	} else if (c->chain != 1) {
		return latt_rule(why, "--chain needs --pattern chase",
				 LATT_EINVAL);
	}
	return 0;
}

/* the loads of a chase's batch, --batch times --chain, at most */
#define LATT_MAX_BATCH_LOADS	(16 * LATT_MAX_CHAIN)
/* a flushed batch draws its 2K blocks from at least this many x K */
#define LATT_BATCH_SPREAD	128
/* a warm batch: K at most, and K x size at most (bytes) */
#define LATT_MAX_WARM_BATCH	16
#define LATT_MAX_WARM_BATCH_BYTES	(8ULL << 10)

/**
 * latt_batch_rules() - what --batch K and its pairs allow (ABI 2.7)
 * @c: the configuration, its chain resolved (latt_access_rules())
 * @why: out: the reason of a refusal
 *
 * A batch is one timed stretch with interrupts off, of up to 2K accesses
 * prepared before it: K x --size at most LATT_MAX_SIZE, as one sample's
 * block, and a chase's K x --chain at most LATT_MAX_BATCH_LOADS.  One
 * timing thread takes them, after its samples: latency mode, one thread.
 * And a batch's accesses must be what a sample's is, though they follow
 * one another in one timed region, all prepared before it:
 *  - seq and stride are refused: the prefetchers fetch the next block
 *    while one is read (a flushed seq batch read 10.6 ns an access where
 *    the samples' mean was 117);
 *  - flushed, the blocks drawn from (--region, or the hotspot, / --size)
 *    are at least LATT_BATCH_SPREAD x K, so that under 1% of a batch's
 *    accesses draw a block it drew before, flushed once and hit then;
 *  - warm (--warm), K is at most LATT_MAX_WARM_BATCH and K x --size at
 *    most LATT_MAX_WARM_BATCH_BYTES, so that the 2K blocks touched stay
 *    in the L1 and its TLB until they are read.
 *
 * Return: 0, -EINVAL.
 */
static inline int latt_batch_rules(const struct latt_config *c,
				   const char **why)
{
	__u64 span;

	if (!c->batch)
		return c->batch_pairs ?
		       latt_rule(why, "--batch-pairs needs --batch",
				 LATT_EINVAL) : 0;
	if (c->batch > LATT_MAX_BATCH)
		return latt_rule(why, "--batch must be 1 to 1024", LATT_EINVAL);
	if (c->batch_pairs < LATT_MIN_BATCH_PAIRS ||
	    c->batch_pairs > LATT_MAX_BATCH_PAIRS)
		return latt_rule(why, "--batch-pairs must be 256 to 2^20",
				 LATT_EINVAL);
	if (c->mode != LATT_MODE_LATENCY || c->nr_threads > 1)
		return latt_rule(why, "--batch is for one thread in latency mode", LATT_EINVAL);
	if (c->pattern == LATT_PAT_CHASE)
		return (__u64)c->batch * c->chain > LATT_MAX_BATCH_LOADS ?
		       latt_rule(why, "--batch times --chain is above 65536: a batch is one timed stretch with interrupts off", LATT_EINVAL) : 0;
	if (c->pattern == LATT_PAT_SEQ || c->pattern == LATT_PAT_STRIDE)
		return latt_rule(why, "--batch reads its accesses one after another: with --pattern seq or stride the prefetchers fetch the next block meanwhile; use rand, hotspot or chase", LATT_EINVAL);
	if ((__u64)c->batch * c->size > LATT_MAX_SIZE)
		return latt_rule(why, "--batch times --size is above 4 MiB: a batch is one timed stretch with interrupts off", LATT_EINVAL);
	if (c->flags & LATT_CFG_WARM) {
		if (c->batch > LATT_MAX_WARM_BATCH ||
		    (__u64)c->batch * c->size > LATT_MAX_WARM_BATCH_BYTES)
			return latt_rule(why, "--batch with --warm: K at most 16 and K times --size at most 8 KiB, so that the blocks it touches stay in the L1 and its TLB until they are read", LATT_EINVAL);
		return 0;
	}
	span = c->pattern == LATT_PAT_HOTSPOT && c->stride ? c->stride :
	       c->region;
	/* (a size of 0 is the pattern's to refuse, below) */
	if (c->size && span / c->size < (__u64)LATT_BATCH_SPREAD * c->batch)
		return latt_rule(why, "--batch K needs 128 x K blocks to draw from (--region, or the hotspot, over --size): a block a batch draws twice is flushed once and hit the second time", LATT_EINVAL);
	return 0;
}

/**
 * latt_config_rules() - the checks of a configuration both engines make
 * @c: the configuration; .chain 0 becomes 1
 * @why: out: the reason of a refusal, a sentence for the user
 *
 * Everything that depends on the configuration alone, in the module's
 * order (Documentation/ioctl.md): flags, op, pattern, fence, target,
 * --force on pmem, the modes, the region, the limits, the chain and what
 * chase allows, the batch, the pattern's sizes.
 *
 * Return: 0; -EINVAL, -EPERM, with *@why set.
 */
static inline int latt_config_rules(struct latt_config *c, const char **why)
{
	struct latt_pattern pat;
	int ret;

	if (c->flags & ~LATT_CFG_FLAGS_ALL)
		return latt_rule(why, "unknown flags", LATT_EINVAL);
	if (!c->op || c->op > LATT_OP_MAX)
		return latt_rule(why, "unknown --op", LATT_EINVAL);
	if (!c->pattern || c->pattern > LATT_PAT_MAX)
		return latt_rule(why, "unknown --pattern", LATT_EINVAL);
	if (c->fence > LATT_FENCE_MAX)
		return latt_rule(why, "unknown --fence", LATT_EINVAL);
	switch (c->target) {
	case LATT_TARGET_DRAM:
		if (c->fd || c->phys_addr || c->map_addr)
			return latt_rule(why, "a dram target has no device or physical address", LATT_EINVAL);
		break;
	case LATT_TARGET_PMEM:
		/* stores overwrite it; chase writes its pointers into it */
		if ((latt_rule_is_store(c->op) ||
		     c->pattern == LATT_PAT_CHASE) &&
		    !(c->flags & LATT_CFG_FORCE))
			return latt_rule(why, "store ops and --pattern chase would overwrite persistent memory: they need --force", LATT_EPERM);
		break;
	default:
		return latt_rule(why, "unknown target", LATT_EINVAL);
	}
	ret = latt_mode_rules(c, why);
	if (ret)
		return ret;
	if (!c->region || c->region > LATT_MAX_REGION)
		return latt_rule(why, "--region must be 1 byte to 1 TiB",
				 LATT_EINVAL);
	if (c->size > c->region)
		return latt_rule(why, "--size is larger than --region",
				 LATT_EINVAL);
	if (c->max_outliers > LATT_MAX_OUTLIERS)
		return latt_rule(why, "--max-outliers is above 2^20",
				 LATT_EINVAL);
	if (c->window_us && (c->window_us < LATT_MIN_WINDOW_US ||
			     c->window_us > LATT_MAX_WINDOW_US))
		return latt_rule(why, "--window-us must be 10 to 100000",
				 LATT_EINVAL);
	ret = latt_access_rules(c, why);
	if (!ret)
		ret = latt_batch_rules(c, why);
	if (ret)
		return ret;
	if (latt_pattern_init(&pat, c->pattern, c->size, c->stride,
			      c->region, c->seed))
		return latt_rule(why, latt_pattern_problem(c->pattern,
							   c->stride),
				 LATT_EINVAL);
	return 0;
}

/**
 * latt_probe_config() - a run's configuration as its target sees it
 * @c: the run's configuration
 * @traffic: the run has a traffic target (ABI 2.9)
 * @p: out: @c, less what goes to the traffic target
 *
 * With a traffic target the traffic's --mix writes and its --split are
 * the traffic target's (latt_traffic_rules() checks them there): the
 * probe's region is neither written by the traffic nor split, so its
 * checks (latt_config_rules(), a claim's access) see neither.  A chase
 * probe may then have writing traffic elsewhere, and a persistent memory
 * probe needs no --force for writes that never reach it.
 */
static inline void latt_probe_config(const struct latt_config *c,
				     int traffic, struct latt_config *p)
{
	*p = *c;
	if (!traffic)
		return;
	p->mix_write = 0;
	p->flags &= ~LATT_CFG_SPLIT;
}

/**
 * latt_run_rules() - latt_config_rules() of a run, on what its target sees
 * @c: the run's configuration; .chain 0 becomes 1
 * @traffic: the run has a traffic target (ABI 2.9)
 * @why: out: the reason of a refusal
 *
 * The checks of latt_probe_config()'s view of @c, the ones both engines
 * and the module make of every configuration.
 *
 * Return: 0; -EINVAL, -EPERM, with *@why set.
 */
static inline int latt_run_rules(struct latt_config *c, int traffic,
				 const char **why)
{
	struct latt_config p;
	int ret;

	latt_probe_config(c, traffic, &p);
	ret = latt_config_rules(&p, why);
	c->chain = p.chain;
	return ret;
}

/**
 * latt_target_writes() - does a run overwrite its target?
 * @c: the run's configuration
 * @traffic: the run has a traffic target (ABI 2.9)
 *
 * What needs --force on persistent memory, and a claim and a mapping
 * open for writing: a store op, a chase's links, and a --mix's writes
 * unless a traffic target takes them (latt_probe_config()).
 *
 * Return: non-zero if it does.
 */
static inline int latt_target_writes(const struct latt_config *c,
				     int traffic)
{
	return latt_rule_is_store(c->op) || c->pattern == LATT_PAT_CHASE ||
	       (c->mix_write && !traffic);
}

/**
 * latt_traffic_rules() - what a loaded run's traffic target allows (ABI 2.9,
 *	LATT_IOC_START_TRAFFIC; lattester-ctl's --traffic-target)
 * @c: the run's configuration, which latt_config_rules() passed
 * @t: its traffic target
 * @why: out: the reason of a refusal
 *
 * The traffic streams the run's pattern (seq for a chase, as any loaded
 * run's traffic does) over the traffic target, or each thread over its
 * part of it with LATT_CFG_SPLIT: the pattern must fit there.
 *
 * Return: 0; -EINVAL, -EPERM, with *@why set.
 */
static inline int latt_traffic_rules(const struct latt_config *c,
				     const struct latt_traffic *t,
				     const char **why)
{
	const __u32 n = c->nr_threads > 1 ? c->nr_threads : 1;
	struct latt_pattern pat;
	__u64 off, part;

	if (c->mode != LATT_MODE_LOADED)
		return latt_rule(why, "--traffic-target is for --mode loaded: thread 0 measures --target while the others stream on the traffic target", LATT_EINVAL);
	if (t->reserved0 || t->reserved[0] || t->reserved[1])
		return latt_rule(why, "reserved fields of the traffic target must be zero", LATT_EINVAL);
	switch (t->target) {
	case LATT_TARGET_DRAM:
		if (t->fd || t->phys_addr || t->map_addr)
			return latt_rule(why, "a dram traffic target has no device or physical address", LATT_EINVAL);
		break;
	case LATT_TARGET_PMEM:
		if (c->mix_write && !(c->flags & LATT_CFG_FORCE))
			return latt_rule(why, "--mix writes would overwrite persistent memory: they need --force", LATT_EPERM);
		break;
	default:
		return latt_rule(why, "unknown traffic target", LATT_EINVAL);
	}
	if (!t->region || t->region > LATT_MAX_REGION)
		return latt_rule(why, "the traffic target's region must be 1 byte to 1 TiB", LATT_EINVAL);
	if (c->size > t->region)
		return latt_rule(why, "--size is larger than the traffic target's region", LATT_EINVAL);
	if (latt_thread_part(c, t->region, 1, n, &off, &part))
		return latt_rule(why, "--split: the traffic target's region over the traffic threads leaves parts smaller than --size", LATT_EINVAL);
	if (latt_pattern_init(&pat, c->pattern == LATT_PAT_CHASE ?
			      LATT_PAT_SEQ : c->pattern, c->size,
			      c->pattern == LATT_PAT_CHASE ? 0 : c->stride,
			      part, c->seed))
		return latt_rule(why, latt_pattern_problem(c->pattern,
							   c->stride),
				 LATT_EINVAL);
	return 0;
}

#endif /* _LATTESTER_RULES_H */
