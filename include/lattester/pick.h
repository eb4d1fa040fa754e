/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * pick.h - which sample function and timer a configuration gets, the same
 * in both engines (kmod/ops.c, user/engine-user.c), after rules.h's checks.
 *
 * Include it in the one file of a program that includes samples.h.
 */
#ifndef _LATTESTER_PICK_H
#define _LATTESTER_PICK_H

#include "samples.h"
#include "rules.h"

/**
 * latt_pick_timer() - the timer a run uses: rdtscp where CPUID has it,
 *	else (or with LATT_CFG_RDTSC) lfence; rdtsc
 * @c: the configuration
 * @features: LATT_FEAT_* of the CPU
 *
 * Return: LATT_TIMER_RDTSCP or LATT_TIMER_RDTSC.
 */
static inline int latt_pick_timer(const struct latt_config *c,
				  __u64 features)
{
	if ((c->flags & LATT_CFG_RDTSC) || !(features & LATT_FEAT_RDTSCP))
		return LATT_TIMER_RDTSC;
	return LATT_TIMER_RDTSCP;
}

/**
 * latt_lfence_serializing() - does LFENCE wait for every older instruction
 *	to complete before any younger one starts?  The "lfence; rdtsc"
 *	timer reads the TSC only after the access when it does.
 * @amd: an AMD or Hygon CPU
 * @ext21_eax: CPUID 0x80000021 EAX, 0 where the leaf is missing
 * @de_cfg_read: @de_cfg could be read
 * @de_cfg: MSR C001_1029h (DE_CFG)
 *
 * Intel: always (SDM Vol. 2A, LFENCE: it "does not execute until all prior
 * instructions have completed locally, and no later instruction begins
 * execution until LFENCE completes").  AMD: LFENCE is dispatch-serializing
 * only where CPUID Fn8000_0021 EAX[2] (LFenceAlwaysSerializing) says so or
 * DE_CFG bit 1 is set (APM Vol. 3, LFENCE; the kernel sets the bit at
 * boot, which a hypervisor may ignore); without either it orders loads
 * only, and rdtsc may read the TSC before the access completes.
 *
 * Return: 1 or 0.
 */
static inline int latt_lfence_serializing(int amd, __u32 ext21_eax,
					  int de_cfg_read, __u64 de_cfg)
{
	if (!amd)
		return 1;
	if (ext21_eax & (1U << 2))
		return 1;
	return de_cfg_read && (de_cfg & (1ULL << 1));
}

/**
 * latt_op_lacks() - the instruction @op needs and the CPU lacks
 * @op: LATT_OP_*
 * @features: LATT_FEAT_* of the CPU
 *
 * Only CPUID says whether a CPU has an instruction (the module's
 * boot_cpu_has(), the user engine's CPUID leaves): a hypervisor may hide
 * one, and an instruction hidden so is refused here like a missing one,
 * never tried.
 *
 * Return: its name ("sse4.1", "clwb", "clflushopt", "movdir64b"), or NULL.
 */
static inline const char *latt_op_lacks(__u32 op, __u64 features)
{
	if (op == LATT_OP_NT_LOAD && !(features & LATT_FEAT_SSE4_1))
		return "sse4.1";
	if (op == LATT_OP_STORE_CLWB && !(features & LATT_FEAT_CLWB))
		return "clwb";
	if (op == LATT_OP_STORE_CLFLUSHOPT &&
	    !(features & LATT_FEAT_CLFLUSHOPT))
		return "clflushopt";
	if (op == LATT_OP_MOVDIR64B && !(features & LATT_FEAT_MOVDIR64B))
		return "movdir64b";
	return NULL;
}

/**
 * struct latt_pick - what a configuration resolves to
 * @fn: the sample function (NULL for chase, which has its own)
 * @batch: the batch of the same access (--batch; NULL for chase, whose
 *	batches are longer chains)
 * @chase: chase through pointers, with the run's timer
 * @chase_off: chase through masked offsets, with the run's timer
 * @width: bytes per access instruction
 * @timer: LATT_TIMER_*
 * @lacks: the instruction the CPU lacks, for -EOPNOTSUPP
 */
struct latt_pick {
	latt_sample_fn fn;
	latt_batch_fn batch;
	latt_chase_fn chase;
	latt_chase_off_fn chase_off;
	__u32 width;
	int timer;
	const char *lacks;
};

/**
 * latt_pick_sample() - resolve the fence and width, choose the functions
 * @c: a configuration that passed latt_config_rules(); .fence DEFAULT and
 *	.width AUTO are resolved in place
 * @features: LATT_FEAT_* of the CPU
 * @widths: bit n set when 1 << n bytes are usable
 * @p: out
 * @why: out: the reason of a refusal
 *
 * An op of one width of its own (latt_op_width(): movdir64b) takes that
 * width for LATT_WIDTH_AUTO and refuses any other; @widths does not apply
 * to it.
 *
 * Return: 0; -EOPNOTSUPP when the CPU lacks the op's instruction or the
 * width, or the run's timer is "lfence; rdtsc" and LFENCE does not
 * serialize (@p->lacks names what is missing); -EINVAL for a width the op
 * doesn't have or a fence that doesn't apply (sfence after loads).
 */
static inline int latt_pick_sample(struct latt_config *c, __u64 features,
				   __u32 widths, struct latt_pick *p,
				   const char **why)
{
	__u32 w = c->width;

	p->fn = NULL;
	p->batch = NULL;
	p->lacks = latt_op_lacks(c->op, features);
	p->timer = latt_pick_timer(c, features);
	p->chase = latt_chases[p->timer];
	p->chase_off = latt_chases_off[p->timer];
	if (!(features & LATT_FEAT_CLFLUSH)) {
		p->lacks = "clflush";
		return latt_rule(why, "every sample's lines are flushed first",
				 LATT_EOPNOTSUPP);
	}
	if (p->lacks)
		return latt_rule(why, "--op needs an instruction",
				 LATT_EOPNOTSUPP);
	if (p->timer == LATT_TIMER_RDTSC &&
	    !(features & LATT_FEAT_LFENCE_SERIAL)) {
		p->lacks = "a serializing lfence (CPUID 0x80000021 EAX[2] or DE_CFG bit 1 on AMD)";
		return latt_rule(why, "the timer lfence; rdtsc, which this run would use (no rdtscp, or --timer rdtsc), reads the TSC after the access only where LFENCE waits for it",
				 LATT_EOPNOTSUPP);
	}
	if (c->fence == LATT_FENCE_DEFAULT)
		c->fence = latt_default_fence(c->op);
	if (!latt_rule_is_store(c->op) && c->fence == LATT_FENCE_SFENCE)
		return latt_rule(why, "--fence sfence is for store ops",
				 LATT_EINVAL);
	if (c->pattern == LATT_PAT_CHASE) {
		/* pointer loads: 8 bytes, no vector state, no table entry */
		if (w != LATT_WIDTH_AUTO && w != 8)
			return latt_rule(why, "--pattern chase loads 8-byte pointers: --width must be 8",
					 LATT_EINVAL);
		p->width = c->width = 8;
		return 0;
	}
	if (latt_op_width(c->op)) {
		/* its own width, whatever vector widths the CPU has */
		if (w != LATT_WIDTH_AUTO && w != latt_op_width(c->op))
			return latt_rule(why, "--op movdir64b stores 64 bytes at a time: --width must be 64 (or auto)",
					 LATT_EINVAL);
		w = latt_op_width(c->op);
	} else if (w == LATT_WIDTH_AUTO) {
		w = 1U << (31 - __builtin_clz(widths | 1));
		/* 32-byte movntdqa needs AVX2, not just AVX */
		if (c->op == LATT_OP_NT_LOAD && w == 32 &&
		    !(features & LATT_FEAT_AVX2))
			w = 16;
	} else {
		if (w != 8 && w != 16 && w != 32 && w != 64)
			return latt_rule(why, "--width must be 8, 16, 32 or 64",
					 LATT_EINVAL);
		if (!(widths & w)) {
			p->lacks = w == 16 ? "sse2" : w == 32 ? "avx" :
				   "avx512f";
			return latt_rule(why, "--width: the CPU lacks its instructions", LATT_EOPNOTSUPP);
		}
		if (c->op == LATT_OP_NT_LOAD && w == 32 &&
		    !(features & LATT_FEAT_AVX2)) {
			p->lacks = "avx2";
			return latt_rule(why, "--width 32: nt-load of 32 bytes needs AVX2", LATT_EOPNOTSUPP);
		}
	}
	if (c->op == LATT_OP_NT_LOAD && w == 8)
		return latt_rule(why, "nt-load has no 8-byte form (16, 32 or 64)", LATT_EINVAL);
	p->fn = latt_samples[c->op][__builtin_ctz(w) - 3][c->fence - 1]
			    [p->timer];
	p->batch = latt_batches[c->op][__builtin_ctz(w) - 3][c->fence - 1]
			       [p->timer];
	if (!p->fn || !p->batch)
		return latt_rule(why, "no such access", LATT_EINVAL);
	p->width = c->width = w;
	return 0;
}

/**
 * struct latt_stream_pick - the untimed functions of a run's threads
 * @op_fn: the op itself (bandwidth without a mix)
 * @read_fn: loads: a mix's, and the traffic of a loaded run
 * @write_fn: the mix's writes, of its write op
 * @mix_fn: the mix's loads and writes in one call (LATT_STREAM_MIX())
 * @width: bytes per instruction of @read_fn (and of @write_fn, but for a
 *	write op of its own width)
 * @vector: non-zero when a function the run's threads will call uses
 *	vector registers (more than 8 bytes an instruction, and no width of
 *	its own): the windows must save the FPU state
 */
struct latt_stream_pick {
	latt_stream_fn op_fn;
	latt_stream_fn read_fn;
	latt_stream_fn write_fn;
	latt_mix_fn mix_fn;
	__u32 width;
	int vector;
};

/**
 * latt_pick_streams_of() - the untimed functions of a run's threads
 * @c: a configuration latt_pick_sample() resolved (its width)
 * @features: LATT_FEAT_* of the CPU
 * @widths: bit n set when 1 << n bytes are usable
 * @s: out
 *
 * The streams load and write at the run's width; where the op has a width
 * of its own (movdir64b, which needs no vector register), at the widest
 * the CPU has, as LATT_WIDTH_AUTO would give the other ops, so that no
 * width the CPU lacks is ever streamed.  A write op of its own width
 * writes at that width.
 *
 * Return: 0; -EINVAL for a write op that is not a store; -EOPNOTSUPP when
 * the CPU lacks the write op's instruction.
 */
static inline int latt_pick_streams_of(const struct latt_config *c,
				       __u64 features, __u32 widths,
				       struct latt_stream_pick *s)
{
	__u32 wop = c->write_op ? c->write_op : LATT_OP_STORE;
	__u32 w = latt_op_width(c->op) ? 1U << (31 - __builtin_clz(widths | 1))
				       : c->width;
	__u32 ww = latt_op_width(wop) ? latt_op_width(wop) : w;
	int mix, op_used, read_used, write_used;

	if (!latt_rule_is_store(wop))
		return -LATT_EINVAL;
	if (latt_op_lacks(wop, features))
		return -LATT_EOPNOTSUPP;
	s->op_fn = latt_streams[c->op][__builtin_ctz(c->width) - 3];
	s->read_fn = latt_streams[LATT_OP_LOAD][__builtin_ctz(w) - 3];
	s->write_fn = latt_streams[wop][__builtin_ctz(ww) - 3];
	s->mix_fn = latt_mixes[wop][__builtin_ctz(w) - 3];
	s->width = w;
	if (!s->op_fn || !s->read_fn || !s->write_fn || !s->mix_fn)
		return -LATT_EINVAL;
	/* which of them the threads call: kmod/run.c's latt_stream() */
	mix = c->mix_read || c->mix_write;
	op_used = c->mode == LATT_MODE_BANDWIDTH && !mix;
	read_used = (c->mode == LATT_MODE_LOADED && !mix) || c->mix_read;
	write_used = c->mix_write;
	s->vector = (op_used && !latt_op_width(c->op) && c->width > 8) ||
		    (read_used && w > 8) ||
		    (write_used && !latt_op_width(wop) && ww > 8);
	return 0;
}

#endif /* _LATTESTER_PICK_H */
