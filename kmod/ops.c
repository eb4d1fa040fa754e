// SPDX-License-Identifier: GPL-2.0
/*
 * ops.c - the timed access kernels
 *
 * One sample is one call of a function built by LATT_SAMPLE() below:
 *
 *	mfence; lfence		earlier flushes/stores of the preparation are
 *				done, nothing of it leaks into the timed region
 *	t0 = rdtscp; lfence	rdtscp waits for all earlier instructions to
 *				execute; the lfence keeps later ones from
 *				starting before t0 is read
 *	access every line of the block (op, width)
 *	fence (none/sfence/mfence)
 *	t1 = rdtscp; lfence	rdtscp waits for the loads to return data and
 *				the fence to complete
 *
 * and returns t1 - t0.  The overhead of all of this without the access (the
 * same function on zero bytes) is calibrated in the same run and subtracted
 * by userspace.
 *
 * Per line (64 bytes), by op:
 *	load             -- 64/width temporal loads
 *	nt-load          -- 64/width movntdqa loads (16, 32 or 64 bytes)
 *	store            -- 64/width temporal stores
 *	store-clwb       -- the stores, then clwb of the line
 *	store-clflushopt -- the stores, then clflushopt of the line
 *	store-clflush    -- the stores, then clflush of the line
 *	nt-store         -- 64/width non-temporal stores (movnti for 8 bytes)
 *
 * Vector widths run inside kernel_fpu_begin()/kernel_fpu_end() (run.c); no
 * vector register is named to the compiler, which uses none in the kernel.
 * Nothing here is built for the build host's CPU: the table is filtered by
 * CPUID at run time (latt_pick_sample()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/errno.h>
#include <asm/cpufeature.h>
#include "lattester.h"

static __always_inline u64 latt_rdtscp(void)
{
	u32 lo, hi, aux;

	asm volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return ((u64)hi << 32) | lo;
}

/* Repeat an instruction template over the 64-byte line at %0. */
#define X8(i)	i(0) i(8) i(16) i(24) i(32) i(40) i(48) i(56)
#define X4(i)	i(0) i(16) i(32) i(48)
#define X2(i)	i(0) i(32)
#define X1(i)	i(0)

#define LD8(o)	"movq " #o "(%0), %%rax\n\t"
#define LD16(o)	"movdqa " #o "(%0), %%xmm0\n\t"
#define LD32(o)	"vmovdqa " #o "(%0), %%ymm0\n\t"
#define LD64(o)	"vmovdqa64 " #o "(%0), %%zmm0\n\t"
#define NL16(o)	"movntdqa " #o "(%0), %%xmm0\n\t"
#define NL32(o)	"vmovntdqa " #o "(%0), %%ymm0\n\t"
#define NL64(o)	"vmovntdqa " #o "(%0), %%zmm0\n\t"
#define ST8(o)	"movq %1, " #o "(%0)\n\t"
#define ST16(o)	"movdqa %%xmm0, " #o "(%0)\n\t"
#define ST32(o)	"vmovdqa %%ymm0, " #o "(%0)\n\t"
#define ST64(o)	"vmovdqa64 %%zmm0, " #o "(%0)\n\t"
#define NS8(o)	"movnti %1, " #o "(%0)\n\t"
#define NS16(o)	"movntdq %%xmm0, " #o "(%0)\n\t"
#define NS32(o)	"vmovntdq %%ymm0, " #o "(%0)\n\t"
#define NS64(o)	"vmovntdq %%zmm0, " #o "(%0)\n\t"

/* What each op does to one line, as asm text, for each width. */
#define LINE_load_8		X8(LD8)
#define LINE_load_16		X4(LD16)
#define LINE_load_32		X2(LD32)
#define LINE_load_64		X1(LD64)
#define LINE_ntload_16		X4(NL16)
#define LINE_ntload_32		X2(NL32)
#define LINE_ntload_64		X1(NL64)
#define LINE_store_8		X8(ST8)
#define LINE_store_16		X4(ST16)
#define LINE_store_32		X2(ST32)
#define LINE_store_64		X1(ST64)
#define LINE_clwb_8		X8(ST8) "clwb (%0)\n\t"
#define LINE_clwb_16		X4(ST16) "clwb (%0)\n\t"
#define LINE_clwb_32		X2(ST32) "clwb (%0)\n\t"
#define LINE_clwb_64		X1(ST64) "clwb (%0)\n\t"
#define LINE_clflushopt_8	X8(ST8) "clflushopt (%0)\n\t"
#define LINE_clflushopt_16	X4(ST16) "clflushopt (%0)\n\t"
#define LINE_clflushopt_32	X2(ST32) "clflushopt (%0)\n\t"
#define LINE_clflushopt_64	X1(ST64) "clflushopt (%0)\n\t"
#define LINE_clflush_8		X8(ST8) "clflush (%0)\n\t"
#define LINE_clflush_16		X4(ST16) "clflush (%0)\n\t"
#define LINE_clflush_32		X2(ST32) "clflush (%0)\n\t"
#define LINE_clflush_64		X1(ST64) "clflush (%0)\n\t"
#define LINE_ntstore_8		X8(NS8)
#define LINE_ntstore_16		X4(NS16)
#define LINE_ntstore_32		X2(NS32)
#define LINE_ntstore_64		X1(NS64)

/*
 * The fences, inside the timed region after the last line:
 * sfence -- stores, clwb, clflushopt and non-temporal stores are complete
 *	     (reached the persistence domain on ADR/eADR platforms) before t1;
 * mfence -- the same for loads and stores, and for clflush, which sfence
 *	     does not order on every CPU.
 */
#define FENCE_none	""
#define FENCE_sfence	"sfence\n\t"
#define FENCE_mfence	"mfence\n\t"

/* What the stores write: LATT_STORE_WORD, or zeroes from vector register 0. */
#define LATT_STORE_WORD	0x5a5a5a5a5a5a5a5aULL
#define CLEAR_8		""
#define CLEAR_16	"pxor %%xmm0, %%xmm0\n\t"
#define CLEAR_32	"vpxor %%ymm0, %%ymm0, %%ymm0\n\t"
#define CLEAR_64	"vpxord %%zmm0, %%zmm0, %%zmm0\n\t"

#define SAMPLE_NAME(op, w, f)	latt_sample_##op##_##w##_##f

#define LATT_SAMPLE(op, w, f)						\
static noinline u64 SAMPLE_NAME(op, w, f)(char *addr, u64 size)	\
{									\
	char *p, *end = addr + size;					\
	u64 t0, t1;							\
									\
	asm volatile(CLEAR_##w "mfence\n\tlfence" : : : "memory");\
	t0 = latt_rdtscp();						\
	asm volatile("lfence" : : : "memory");				\
	for (p = addr; p < end; p += LATT_LINE)				\
		asm volatile(LINE_##op##_##w				\
			     : : "r"(p), "r"(LATT_STORE_WORD)		\
			     : "rax", "memory");\
	asm volatile(FENCE_##f : : : "memory");				\
	t1 = latt_rdtscp();						\
	asm volatile("lfence" : : : "memory");				\
	return t1 - t0;							\
}

/* Every (op, width) with every fence. */
#define LATT_FENCES(op, w)						\
	LATT_SAMPLE(op, w, none)					\
	LATT_SAMPLE(op, w, sfence)					\
	LATT_SAMPLE(op, w, mfence)

#define LATT_OP_ALL_WIDTHS(op)						\
	LATT_FENCES(op, 8) LATT_FENCES(op, 16)				\
	LATT_FENCES(op, 32) LATT_FENCES(op, 64)

LATT_OP_ALL_WIDTHS(load)
LATT_FENCES(ntload, 16)
LATT_FENCES(ntload, 32)
LATT_FENCES(ntload, 64)
LATT_OP_ALL_WIDTHS(store)
LATT_OP_ALL_WIDTHS(clwb)
LATT_OP_ALL_WIDTHS(clflushopt)
LATT_OP_ALL_WIDTHS(clflush)
LATT_OP_ALL_WIDTHS(ntstore)

/* Table index: [op][width log2 - 3][fence - 1] */
#define W_IDX(w)	(ilog2(w) - 3)
#define T_FENCES(op, w)							\
	[W_IDX(w)] = { SAMPLE_NAME(op, w, none),			\
		       SAMPLE_NAME(op, w, sfence),			\
		       SAMPLE_NAME(op, w, mfence) }
#define T_OP(op)							\
	{ T_FENCES(op, 8), T_FENCES(op, 16),				\
	  T_FENCES(op, 32), T_FENCES(op, 64) }

static const latt_sample_fn latt_samples[LATT_OP_MAX + 1][4][3] = {
	[LATT_OP_LOAD] = T_OP(load),
	[LATT_OP_NT_LOAD] = { T_FENCES(ntload, 16), T_FENCES(ntload, 32),
			      T_FENCES(ntload, 64) },
	[LATT_OP_STORE] = T_OP(store),
	[LATT_OP_STORE_CLWB] = T_OP(clwb),
	[LATT_OP_STORE_CLFLUSHOPT] = T_OP(clflushopt),
	[LATT_OP_STORE_CLFLUSH] = T_OP(clflush),
	[LATT_OP_NT_STORE] = T_OP(ntstore),
};

/**
 * latt_features() - the LATT_FEAT_* bits: this CPU's, and the module's own
 */
u64 latt_features(void)
{
	u64 f = LATT_FEAT_NMI_COUNT | LATT_FEAT_PMEM;

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

/**
 * latt_default_fence() - the fence an op gets unless one is asked for
 * @op: LATT_OP_*
 *
 * Loads: none (rdtscp already waits for them).  Stores with clwb or
 * clflushopt and non-temporal stores: sfence, what makes them persistent.
 * clflush: mfence.  Plain stores: sfence, so the figure covers the store
 * leaving the store buffer rather than just retiring.
 */
u32 latt_default_fence(u32 op)
{
	switch (op) {
	case LATT_OP_LOAD:
	case LATT_OP_NT_LOAD:
		return LATT_FENCE_NONE;
	case LATT_OP_STORE_CLFLUSH:
		return LATT_FENCE_MFENCE;
	default:
		return LATT_FENCE_SFENCE;
	}
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

	if (!(feat & LATT_FEAT_RDTSCP) || !(feat & LATT_FEAT_CLFLUSH))
		return -EOPNOTSUPP;
	if (cfg->op == LATT_OP_NT_LOAD && !(feat & LATT_FEAT_SSE4_1))
		return -EOPNOTSUPP;
	if (cfg->op == LATT_OP_STORE_CLWB && !(feat & LATT_FEAT_CLWB))
		return -EOPNOTSUPP;
	if (cfg->op == LATT_OP_STORE_CLFLUSHOPT &&
	    !(feat & LATT_FEAT_CLFLUSHOPT))
		return -EOPNOTSUPP;
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

	*fn = latt_samples[cfg->op][W_IDX(w)][cfg->fence - 1];
	if (WARN_ON_ONCE(!*fn))
		return -EINVAL;
	*width = w;
	*vector = w > 8;
	return 0;
}

/**
 * latt_prep_flush() - put a block's lines out of every cache level
 * @addr: the block
 * @size: its bytes
 *
 * clflushopt where the CPU has it, else clflush; the sample's own leading
 * mfence waits for them to complete before t0.
 */
void latt_prep_flush(char *addr, u64 size)
{
	char *p, *end = addr + size;

	if (static_cpu_has(X86_FEATURE_CLFLUSHOPT)) {
		for (p = addr; p < end; p += LATT_LINE)
			asm volatile("clflushopt (%0)" : : "r"(p) : "memory");
	} else {
		for (p = addr; p < end; p += LATT_LINE)
			asm volatile("clflush (%0)" : : "r"(p) : "memory");
	}
}

/**
 * latt_prep_warm() - bring a block's lines into the cache (--warm)
 * @addr: the block
 * @size: its bytes
 */
void latt_prep_warm(char *addr, u64 size)
{
	char *p, *end = addr + size;

	for (p = addr; p < end; p += LATT_LINE)
		asm volatile("movq (%0), %%rax" : : "r"(p) : "rax", "memory");
}

/**
 * latt_sample_chase() - time @chain dependent loads from *@pos
 * @pos: in: the first node; out: the next sample's
 * @chain: loads to time
 *
 * Each node's first word holds the address of the next node; *@pos is left
 * at the first node not yet loaded, where the next sample starts.
 */
noinline u64 latt_sample_chase(char **pos, u32 chain)
{
	char *p = *pos;
	u64 t0, t1;
	u32 i;

	asm volatile("mfence\n\tlfence" : : : "memory");
	t0 = latt_rdtscp();
	asm volatile("lfence" : : : "memory");
	for (i = 0; i < chain; i++)
		p = READ_ONCE(*(char **)p);
	t1 = latt_rdtscp();
	asm volatile("lfence" : : : "memory");
	*pos = p;
	return t1 - t0;
}
