/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * access.h - the timed access kernels, shared by the module (kmod/ops.c)
 * and lattester-ctl's user engine, so that both time the very same
 * instructions.
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
 * The caller checks CPUID before it calls a function that uses an
 * instruction the CPU may lack; nothing here is built for the build host's
 * CPU.  include/lattester/samples.h instantiates every (op, width, fence)
 * and the table to pick one from; include that in one file of a program.
 * In the kernel, vector widths run inside kernel_fpu_begin()/end() and
 * no vector register is named to the compiler (the kernel uses none, and
 * builds with -mno-sse); in userspace the register is declared clobbered.
 */
#ifndef _LATTESTER_ACCESS_H
#define _LATTESTER_ACCESS_H

#include <linux/types.h>
#include "../uapi/lattester.h"

#ifdef __KERNEL__
#define LATT_NOINLINE	noinline
#define LATT_VCLOBBER
#else
#define LATT_NOINLINE	__attribute__((noinline))
#define LATT_VCLOBBER	, "xmm0"
#endif

/* The access a sample times; returns TSC cycles between the two rdtscp. */
typedef __u64 (*latt_sample_fn)(char *addr, __u64 size);

static inline __attribute__((always_inline)) __u64 latt_rdtscp(void)
{
	__u32 lo, hi, aux;

	__asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return ((__u64)hi << 32) | lo;
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

/**
 * latt_default_fence() - the fence an op gets unless one is asked for
 * @op: LATT_OP_*
 *
 * Loads: none (rdtscp already waits for them).  Stores with clwb or
 * clflushopt and non-temporal stores: sfence, what makes them persistent.
 * clflush: mfence.  Plain stores: sfence, so the figure covers the store
 * leaving the store buffer rather than just retiring.  Both engines resolve
 * LATT_FENCE_DEFAULT with it.
 */
static inline __u32 latt_default_fence(__u32 op)
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

/* What the stores write: LATT_STORE_WORD, or zeroes from vector register 0. */
#define LATT_STORE_WORD	0x5a5a5a5a5a5a5a5aULL
#define CLEAR_8		""
#define CLEAR_16	"pxor %%xmm0, %%xmm0\n\t"
#define CLEAR_32	"vpxor %%ymm0, %%ymm0, %%ymm0\n\t"
#define CLEAR_64	"vpxord %%zmm0, %%zmm0, %%zmm0\n\t"

#define SAMPLE_NAME(op, w, f)	latt_sample_##op##_##w##_##f

#define LATT_SAMPLE(op, w, f)						\
static LATT_NOINLINE __attribute__((unused)) __u64		\
SAMPLE_NAME(op, w, f)(char *addr, __u64 size)			\
{									\
	char *p, *end = addr + size;					\
	__u64 t0, t1;							\
									\
	__asm__ __volatile__(CLEAR_##w "mfence\n\tlfence"			\
		     : : : "memory" LATT_VCLOBBER);			\
	t0 = latt_rdtscp();						\
	__asm__ __volatile__("lfence" : : : "memory");				\
	for (p = addr; p < end; p += LATT_LINE)				\
		__asm__ __volatile__(LINE_##op##_##w				\
			     : : "r"(p), "r"(LATT_STORE_WORD)		\
			     : "rax", "memory" LATT_VCLOBBER);	\
	__asm__ __volatile__(FENCE_##f : : : "memory");				\
	t1 = latt_rdtscp();						\
	__asm__ __volatile__("lfence" : : : "memory");				\
	return t1 - t0;							\
}

/* Every (op, width) with every fence. */
#define LATT_FENCES(op, w)						\
	LATT_SAMPLE(op, w, none)					\
	LATT_SAMPLE(op, w, sfence)					\
	LATT_SAMPLE(op, w, mfence)					\
	LATT_STREAM(op, w)

#define LATT_OP_ALL_WIDTHS(op)						\
	LATT_FENCES(op, 8) LATT_FENCES(op, 16)				\
	LATT_FENCES(op, 32) LATT_FENCES(op, 64)

/*
 * Streams: the same lines with no timing and no fence, for the traffic of
 * bandwidth and loaded-latency runs (the caller fences once a window).
 */
#define STREAM_NAME(op, w)	latt_stream_##op##_##w

#define LATT_STREAM(op, w)						\
static LATT_NOINLINE __attribute__((unused)) void			\
STREAM_NAME(op, w)(char *addr, __u64 size)				\
{									\
	char *p, *end = addr + size;					\
									\
	__asm__ __volatile__(CLEAR_##w : : : "memory" LATT_VCLOBBER);	\
	for (p = addr; p < end; p += LATT_LINE)				\
		__asm__ __volatile__(LINE_##op##_##w				\
			     : : "r"(p), "r"(LATT_STORE_WORD)		\
			     : "rax", "memory" LATT_VCLOBBER);	\
}

/* The traffic of one access (no timing); see LATT_STREAM(). */
typedef void (*latt_stream_fn)(char *addr, __u64 size);

/**
 * latt_prep_flush() - put a block's lines out of every cache level
 * @addr: the block
 * @size: its bytes
 * @opt: the CPU has clflushopt (else clflush)
 *
 * The sample's own leading mfence waits for them to complete before t0.
 */
static inline void latt_prep_flush(char *addr, __u64 size, int opt)
{
	char *p, *end = addr + size;

	if (opt) {
		for (p = addr; p < end; p += LATT_LINE)
			__asm__ __volatile__("clflushopt (%0)" : : "r"(p) : "memory");
	} else {
		for (p = addr; p < end; p += LATT_LINE)
			__asm__ __volatile__("clflush (%0)" : : "r"(p) : "memory");
	}
}

/**
 * latt_prep_warm() - bring a block's lines into the cache (--warm)
 * @addr: the block
 * @size: its bytes
 */
static inline void latt_prep_warm(char *addr, __u64 size)
{
	char *p, *end = addr + size;

	for (p = addr; p < end; p += LATT_LINE)
		__asm__ __volatile__("movq (%0), %%rax" : : "r"(p) : "rax", "memory");
}

/**
 * latt_sample_chase() - time @chain dependent loads from *@pos
 * @pos: in: the first node; out: the next sample's
 * @chain: loads to time
 *
 * Each node's first word holds the address of the next node; *@pos is left
 * at the first node not yet loaded, where the next sample starts.
 */
static LATT_NOINLINE __attribute__((unused)) __u64
latt_sample_chase(char **pos, __u32 chain)
{
	char *p = *pos;
	__u64 t0, t1;
	__u32 i;

	__asm__ __volatile__("mfence\n\tlfence" : : : "memory");
	t0 = latt_rdtscp();
	__asm__ __volatile__("lfence" : : : "memory");
	for (i = 0; i < chain; i++)
		p = *(char *volatile *)p;
	t1 = latt_rdtscp();
	__asm__ __volatile__("lfence" : : : "memory");
	*pos = p;
	return t1 - t0;
}

/**
 * latt_sample_chase_off() - chase through offsets instead of pointers
 * @base: the region's first byte
 * @mask: region size - 1 (a power of two), less the low 3 bits
 * @pos: in: the first node's offset; out: the next sample's
 * @chain: loads to time
 *
 * For memory others can write while the run goes (a shared device): each
 * node's first word holds the next node's offset, masked before use, so
 * whatever the memory holds the loads stay inside [base, base + mask + 8).
 * The mask and the add are in the timed loop: one more dependent ALU
 * operation (or two) per load than latt_sample_chase().
 */
static LATT_NOINLINE __attribute__((unused)) __u64
latt_sample_chase_off(char *base, __u64 mask, __u64 *pos, __u32 chain)
{
	__u64 off = *pos, t0, t1;
	__u32 i;

	__asm__ __volatile__("mfence\n\tlfence" : : : "memory");
	t0 = latt_rdtscp();
	__asm__ __volatile__("lfence" : : : "memory");
	for (i = 0; i < chain; i++)
		off = *(volatile __u64 *)(base + off) & mask;
	t1 = latt_rdtscp();
	__asm__ __volatile__("lfence" : : : "memory");
	*pos = off;
	return t1 - t0;
}

#endif /* _LATTESTER_ACCESS_H */
