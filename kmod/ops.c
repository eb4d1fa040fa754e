// SPDX-License-Identifier: GPL-2.0
/*
 * ops.c - which access kernel a run uses, by CPUID
 *
 * The timed access kernels themselves are in include/lattester/access.h
 * (instantiated by samples.h), shared with lattester-ctl's user engine; see
 * its header comment for what one sample does, instruction by instruction.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/errno.h>
#include <asm/cpufeature.h>
#include "lattester.h"
#include <lattester/samples.h>

/**
 * latt_features() - the LATT_FEAT_* bits: this CPU's, and the module's own
 */
u64 latt_features(void)
{
	u64 f = LATT_FEAT_NMI_COUNT | LATT_FEAT_PMEM | LATT_FEAT_THREADS;

	if (boot_cpu_has(X86_FEATURE_RDTSCP))
		f |= LATT_FEAT_RDTSCP;
	if (boot_cpu_has(X86_FEATURE_CLFLUSH))
		f |= LATT_FEAT_CLFLUSH;
	if (boot_cpu_has(X86_FEATURE_CLFLUSHOPT))
		f |= LATT_FEAT_CLFLUSHOPT;
	if (boot_cpu_has(X86_FEATURE_CLWB))
		f |= LATT_FEAT_CLWB;
	if (boot_cpu_has(X86_FEATURE_XMM2))
		f |= LATT_FEAT_SSE2;
	if (boot_cpu_has(X86_FEATURE_XMM4_1))
		f |= LATT_FEAT_SSE4_1;
	if (boot_cpu_has(X86_FEATURE_AVX))
		f |= LATT_FEAT_AVX;
	if (boot_cpu_has(X86_FEATURE_AVX2))
		f |= LATT_FEAT_AVX2;
	if (boot_cpu_has(X86_FEATURE_AVX512F))
		f |= LATT_FEAT_AVX512F;
	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC))
		f |= LATT_FEAT_CONSTANT_TSC;
	if (boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
		f |= LATT_FEAT_NONSTOP_TSC;
	return f;
}

/**
 * latt_widths() - usable access widths: bit n set when 1 << n bytes work
 *
 * 16 bytes need SSE2, 32 need AVX (and the kernel to manage its state),
 * 64 need AVX-512F.
 */
u32 latt_widths(void)
{
	u32 w = BIT(3);

	if (boot_cpu_has(X86_FEATURE_XMM2))
		w |= BIT(4);
	if (boot_cpu_has(X86_FEATURE_AVX) && boot_cpu_has(X86_FEATURE_OSXSAVE))
		w |= BIT(5);
	if (boot_cpu_has(X86_FEATURE_AVX512F))
		w |= BIT(6);
	return w;
}

bool latt_op_is_store(u32 op)
{
	return op >= LATT_OP_STORE && op <= LATT_OP_NT_STORE;
}

/* -EOPNOTSUPP when the CPU lacks an instruction @op needs, else 0. */
static int latt_op_supported(u32 op)
{
	u64 feat = latt_features();

	if (!(feat & LATT_FEAT_RDTSCP) || !(feat & LATT_FEAT_CLFLUSH))
		return -EOPNOTSUPP;
	if (op == LATT_OP_NT_LOAD && !(feat & LATT_FEAT_SSE4_1))
		return -EOPNOTSUPP;
	if (op == LATT_OP_STORE_CLWB && !(feat & LATT_FEAT_CLWB))
		return -EOPNOTSUPP;
	if (op == LATT_OP_STORE_CLFLUSHOPT && !(feat & LATT_FEAT_CLFLUSHOPT))
		return -EOPNOTSUPP;
	return 0;
}

/**
 * latt_pick_streams() - the untimed access functions of a run's threads
 * @run: a run whose configuration is checked and whose width is resolved
 *
 * Sets the run's stream_fn (the op itself: bandwidth without a mix),
 * read_fn (loads) and write_fn (the mix's write op), all at its width.
 *
 * Return: 0; -EOPNOTSUPP when the CPU lacks the write op; -EINVAL for a
 * write op that is not a store.
 */
int latt_pick_streams(struct latt_run *run)
{
	u32 wop = run->cfg.write_op ? run->cfg.write_op : LATT_OP_STORE;
	int w = __builtin_ctz(run->width) - 3, ret;

	if (!latt_op_is_store(wop))
		return -EINVAL;
	ret = latt_op_supported(wop);
	if (ret)
		return ret;
	run->stream_fn = latt_streams[run->cfg.op][w];
	run->read_fn = latt_streams[LATT_OP_LOAD][w];
	run->write_fn = latt_streams[wop][w];
	if (WARN_ON_ONCE(!run->read_fn || !run->write_fn))
		return -EINVAL;
	return 0;
}

/**
 * latt_pick_sample() - the sample function for a configuration
 * @cfg: op, fence (already resolved from DEFAULT) and width (0 = auto)
 * @fn: out: the function
 * @width: out: the width it uses, bytes
 * @vector: out: whether it needs kernel_fpu_begin()
 *
 * Return: 0; -EOPNOTSUPP when the CPU lacks the op's instruction or the
 * width; -EINVAL for a width the op doesn't have (nt-load of 8 bytes) or a
 * fence that doesn't apply (sfence after loads).
 */
int latt_pick_sample(const struct latt_config *cfg, latt_sample_fn *fn,
		     u32 *width, bool *vector)
{
	u64 feat = latt_features();
	u32 widths = latt_widths();
	u32 w = cfg->width;
	int ret = latt_op_supported(cfg->op);

	if (ret)
		return ret;
	if (!latt_op_is_store(cfg->op) && cfg->fence == LATT_FENCE_SFENCE)
		return -EINVAL;

	if (w == LATT_WIDTH_AUTO) {
		w = 1U << (fls(widths) - 1);
		/* 32-byte movntdqa needs AVX2, not just AVX */
		if (cfg->op == LATT_OP_NT_LOAD && w == 32 &&
		    !(feat & LATT_FEAT_AVX2))
			w = 16;
	} else {
		if (w != 8 && w != 16 && w != 32 && w != 64)
			return -EINVAL;
		if (!(widths & w))
			return -EOPNOTSUPP;
		if (cfg->op == LATT_OP_NT_LOAD && w == 32 &&
		    !(feat & LATT_FEAT_AVX2))
			return -EOPNOTSUPP;
	}
	if (cfg->op == LATT_OP_NT_LOAD && w == 8)
		return -EINVAL;

	*fn = latt_samples[cfg->op][__builtin_ctz(w) - 3][cfg->fence - 1];
	if (WARN_ON_ONCE(!*fn))
		return -EINVAL;
	*width = w;
	*vector = w > 8;
	return 0;
}
