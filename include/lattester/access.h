/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * access.h - the timed access kernels, shared by the module (kmod/ops.c)
 * and lattester-ctl's user engine, so that both time the very same
 * instructions.
 *
 * One sample is one call of a function built by LATT_SAMPLE() below, with
 * one of two timers: rdtscp, or where CPUID does not advertise it (some
 * hypervisors hide it) the ordered rdtsc, "lfence; rdtsc":
 *
 *	mfence; lfence		earlier flushes/stores of the preparation are
 *				done, nothing of it leaks into the timed region
 *	t0 = timer; lfence	rdtscp (and lfence; rdtsc) waits for all earlier
 *				instructions to execute; the lfence keeps later
 *				ones from starting before t0 is read
 *	access every line of the block (op, width)
 *	fence (none/sfence/mfence)
 *	t1 = timer; lfence	waits for the loads to return data; NOT for
 *				stores to be globally visible: the SDM (Vol. 2B,
 *				RDTSCP) prescribes MFENCE immediately before it
 *				for that, which is why every store op's default
 *				fence is mfence (latt_default_fence())
 *
 * and returns t1 - t0 (wrapped when the TSC went backwards: latt_backwards()).
 * The overhead of all of this without the access (the same function on zero
 * bytes) is calibrated in the same run and subtracted by userspace.
 *
 * Per line (64 bytes), by op:
 *	load             -- 64/width temporal loads
 *	nt-load          -- 64/width movntdqa loads (16, 32 or 64 bytes)
 *	store            -- 64/width temporal stores
 *	store-clwb       -- the stores, then clwb of the line
 *	store-clflushopt -- the stores, then clflushopt of the line
 *	store-clflush    -- the stores, then clflush of the line
 *	nt-store         -- 64/width non-temporal stores (movnti for 8 bytes)
 *	movdir64b        -- one movdir64b: a 64-byte direct store of the line
 *			    latt_direct_src to it (width 64 only, "direct")
 *
 * The caller checks CPUID before it calls a function that uses an
 * instruction the CPU may lack; nothing here is built for the build host's
 * CPU.  include/lattester/samples.h instantiates every (op, width, fence,
 * timer) and the table to pick one from; include that in one file of a
 * program, and choose with latt_pick_sample() (rules.h).
 * In the kernel, vector widths run inside kernel_fpu_begin()/end() and
 * no vector register is named to the compiler (the kernel uses none, and
 * builds with -mno-sse); in userspace the register is declared clobbered.
 */
#ifndef _LATTESTER_ACCESS_H
#define _LATTESTER_ACCESS_H

#include <linux/types.h>
#include "../uapi/lattester.h"

#ifdef __KERNEL__
#include <asm/asm.h>
#define LATT_NOINLINE	noinline
#define LATT_VCLOBBER
#else
#define LATT_NOINLINE	__attribute__((noinline))
#define LATT_VCLOBBER	, "xmm0"
#endif

/*
 * Machine-check-safe loads.  A load that consumes poison (a media error of
 * persistent memory, an uncorrected DRAM error) raises a machine check
 * (SRAR, "data load": SDM Vol. 3B, 16.6 and 16.10.3; AMD: MCA with SUCCOR,
 * APM Vol. 2, 9.3).  From kernel mode the kernel survives it only when
 * the faulting instruction has an exception-table entry of an MCE-safe
 * type: the #MC handler then calls the error recoverable
 * (arch/x86/kernel/cpu/mce/severity.c, error_context(): EX_TYPE_*_MCE_SAFE
 * -> IN_KERNEL_RECOV) and resumes at the entry's fixup; any other
 * kernel-mode consumption is a panic.  So in the module every load the
 * module makes of a target (the loads of the access templates, the
 * streams, --warm, both chase loops, the chase build's reads of its
 * nodes) is a numbered label "1:" with such an entry, and its fixup makes
 * the sample report the poison (latt_mc_code()) instead of a time.  In
 * userspace the entries are empty: a poisoned load there is a SIGBUS, the
 * user engine's (user/map.c).  Stores, clwb, clflushopt and clflush
 * consume no poison (a poisoned line is written or flushed as it is), so
 * they have no entry.
 */
#ifdef __KERNEL__
#define LATT_MC_AT(from, to) \
	_ASM_EXTABLE_TYPE(from, to, EX_TYPE_DEFAULT_MCE_SAFE)
#else
#define LATT_MC_AT(from, to)	""
#endif

/*
 * What a sample function returns when one of its loads consumed poison:
 * bit 63 set and bits 62-52 clear, the byte of the block whose line it was
 * in the low bits (0 for a chase: the caller knows the node).  A backwards
 * sample (latt_backwards()) is negative too, but only by less than 2^52
 * cycles (weeks of TSC), so the two never meet.
 */
#define LATT_MC_FLAG	(1ULL << 63)

/** latt_mc_code() - the sample's answer to poison at byte @at of its block */
static inline __u64 latt_mc_code(__u64 at)
{
	return LATT_MC_FLAG | (at & ((1ULL << 52) - 1));
}

/** latt_mc() - whether a sample function's @cycles say "poison" */
static inline int latt_mc(__u64 cycles)
{
	return (cycles >> 52) == (LATT_MC_FLAG >> 52);
}

/** latt_mc_at() - the byte of its block a poison answer names */
static inline __u64 latt_mc_at(__u64 cycles)
{
	return cycles & ((1ULL << 52) - 1);
}

/**
 * latt_mc_read() - one machine-check-safe 8-byte load (the chase build's)
 * @p: the word
 * @v: out: its value
 *
 * Return: 0, or -1 when the load consumed poison (@v then 0).
 */
static inline int latt_mc_read(const void *p, __u64 *v)
{
	__u64 x = 0;
	int bad = 1;

	__asm__ __volatile__("1:\tmovq (%[p]), %[x]\n\t"
			     "xorl %[bad], %[bad]\n"
			     "2:\n\t"
			     LATT_MC_AT(1b, 2b)
			     : [x] "+r"(x), [bad] "+r"(bad) : [p] "r"(p)
			     : "memory");
	*v = bad ? 0 : x;
	return bad ? -1 : 0;
}

/* The access a sample times; returns TSC cycles between the two reads. */
typedef __u64 (*latt_sample_fn)(char *addr, __u64 size);

/* The timers (struct latt_result.flags LATT_RES_TIMER_RDTSC says which). */
#define LATT_TIMER_RDTSCP	0
#define LATT_TIMER_RDTSC	1	/* lfence; rdtsc */
#define LATT_NR_TIMERS		2

static inline __attribute__((always_inline)) __u64 latt_rdtscp(void)
{
	__u32 lo, hi, aux;

	__asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return ((__u64)hi << 32) | lo;
}

/*
 * The ordered rdtsc: the SDM (Vol. 2B, RDTSC) says an LFENCE immediately
 * before RDTSC makes it wait for every earlier instruction to execute and
 * every earlier load to be globally visible, as RDTSCP does; the kernel's
 * rdtsc_ordered() is the same.  (On AMD, LFENCE is dispatch serializing
 * where the kernel set it so: X86_FEATURE_LFENCE_RDTSC.)
 */
static inline __attribute__((always_inline)) __u64 latt_rdtsc_lfence(void)
{
	__u32 lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((__u64)hi << 32) | lo;
}

/*
 * The windows' clock: a plain RDTSC, not ordered with anything (the
 * kernel's rdtsc()).  The loops read it between samples, to end a window
 * and to stamp the next sample; it never bounds a timed region.
 */
static inline __attribute__((always_inline)) __u64 latt_rdtsc(void)
{
	__u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((__u64)hi << 32) | lo;
}

#define LATT_TS_rdtscp()	latt_rdtscp()
#define LATT_TS_rdtsc()		latt_rdtsc_lfence()

/**
 * latt_timer_read() - one read of a timer, outside the timed region
 * @timer: LATT_TIMER_*
 *
 * Return: the TSC.
 */
static inline __u64 latt_timer_read(int timer)
{
	return timer == LATT_TIMER_RDTSC ? latt_rdtsc_lfence() : latt_rdtscp();
}

/* back-to-back pairs latt_timer_step() reads */
#define LATT_STEP_PAIRS		256

/**
 * latt_timer_step() - the smallest non-zero difference of two successive
 *	reads of @timer: nothing shorter can be told from zero
 * @timer: LATT_TIMER_*
 *
 * On AMD Zen the TSC advances in steps of tens of cycles; on Intel it
 * ticks every cycle and this is the cost of one read.
 *
 * Return: the step, cycles; 0 if every pair read the same value (a timer
 * that does not move).
 */
static inline __u64 latt_timer_step(int timer)
{
	__u64 a, b, best = ~0ULL;
	int i;

	for (i = 0; i < LATT_STEP_PAIRS; i++) {
		a = latt_timer_read(timer);
		b = latt_timer_read(timer);
		if (b > a && b - a < best)
			best = b - a;
	}
	return best == ~0ULL ? 0 : best;
}

/* the differences latt_timer_diffs() makes for the quantum, in all */
#define LATT_QUANTUM_DIFFS	512
/* ... at most this many at a time (the module's interrupt-off stretch) */
#define LATT_QUANTUM_CHUNK	32

/**
 * latt_timer_diffs() - differences of two reads of @timer, for
 *	latt_quantum_find(): back to back, and a varying spin apart
 * @timer: LATT_TIMER_*
 * @d: out: @n differences, ticks (0 for a pair that went backwards)
 * @n: how many
 * @first: the index of @d[0] in the whole set (so that a caller taking
 *	them in chunks gets the same spins)
 *
 * Even indices read back to back: their smallest is the read cost.  Odd
 * ones spin between the reads for 1 to 255 (odd) rounds of a dependent
 * multiply-add, so that the differences are many multiples of the
 * quantum: back-to-back pairs alone, all 2 or 3 quanta apart, can't tell
 * the quantum from two of them.  Interrupts and preemption are the
 * caller's: a pair an interrupt lands in is one stray difference.
 */
static inline void latt_timer_diffs(int timer, __u64 *d, __u32 n,
				    __u32 first)
{
	__u64 a, b, x;
	__u32 i, k, spin;

	for (i = 0; i < n; i++) {
		spin = (first + i) & 1 ? ((first + i) * 157) & 255 : 0;
		x = spin;
		a = latt_timer_read(timer);
		for (k = 0; k < spin; k++) {
			x = x * 3 + 1;
			__asm__ __volatile__("" : "+r" (x));
		}
		b = latt_timer_read(timer);
		d[i] = b > a ? b - a : 0;
	}
}

/**
 * latt_backwards() - whether a sample's t1 came before its t0
 * @cycles: what a sample function returned
 *
 * The TSC of one CPU does not run backwards, but a hypervisor's can
 * (migration, a TSC offset changed under the guest).  Such a sample is
 * counted apart (latt_result.backwards), never as 2^64 - a little.
 *
 * Return: non-zero when @cycles is negative as a signed value.
 */
static inline int latt_backwards(__u64 cycles)
{
	return (__s64)cycles < 0;
}

/* Repeat an instruction template over the 64-byte line at %0. */
#define X8(i)	i(0) i(8) i(16) i(24) i(32) i(40) i(48) i(56)
#define X4(i)	i(0) i(16) i(32) i(48)
#define X2(i)	i(0) i(32)
#define X1(i)	i(0)

/* each load its label and its machine-check fixup (%l[mc]: the caller's) */
#define MC_LD	LATT_MC_AT(1b, %l[mc])
#define LD8(o)	"1:\tmovq " #o "(%0), %%rax\n\t" MC_LD
#define LD16(o)	"1:\tmovdqa " #o "(%0), %%xmm0\n\t" MC_LD
#define LD32(o)	"1:\tvmovdqa " #o "(%0), %%ymm0\n\t" MC_LD
#define LD64(o)	"1:\tvmovdqa64 " #o "(%0), %%zmm0\n\t" MC_LD
#define NL16(o)	"1:\tmovntdqa " #o "(%0), %%xmm0\n\t" MC_LD
#define NL32(o)	"1:\tvmovntdqa " #o "(%0), %%ymm0\n\t" MC_LD
#define NL64(o)	"1:\tvmovntdqa " #o "(%0), %%zmm0\n\t" MC_LD
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
 * movdir64b (66 0F 38 F8 /r; "movdir64b (%1), %0": the source is the
 * 64-byte memory operand, the destination's address is the register, the
 * ModRM reg field).  It reads the 64 bytes at %1 (latt_direct_src), then
 * writes them to the line at %0 as one direct store with 64-byte write
 * atomicity; the destination must be 64-byte aligned (#GP otherwise),
 * which every line is here.  The store uses the write-combining protocol
 * whatever the destination's memory type: the line is not fetched into
 * the caches, and a cached copy of it is written back (if modified) and
 * invalidated before the store.  (SDM Vol. 2B, MOVDIR64B, for all of
 * this.)  Its width is the instruction's own, "direct": no vector
 * register, nothing to clear, the data comes from memory (DATA_direct).
 */
#define LINE_movdir64b_direct	"movdir64b (%1), %0\n\t"

/*
 * One line's asm statement, by op: a load op's is an asm goto whose loads
 * may leave for the function's "mc" label (their fixup, in the module);
 * the other ops load nothing and are plain asm, so that "mc" is not
 * reached and the compiler drops it.  @p is the line, @d the store data.
 */
#define LATT_ASM_MC(text, p, d)						\
	__asm__ goto(text : : "r"(p), "r"(d)				\
		     : "rax", "memory" LATT_VCLOBBER : mc)
#define LATT_ASM_PLAIN(text, p, d)					\
	__asm__ __volatile__(text : : "r"(p), "r"(d)			\
			     : "rax", "memory" LATT_VCLOBBER)
#define ASM_load		LATT_ASM_MC
#define ASM_ntload		LATT_ASM_MC
#define ASM_store		LATT_ASM_PLAIN
#define ASM_clwb		LATT_ASM_PLAIN
#define ASM_clflushopt		LATT_ASM_PLAIN
#define ASM_clflush		LATT_ASM_PLAIN
#define ASM_ntstore		LATT_ASM_PLAIN
#define ASM_movdir64b		LATT_ASM_PLAIN

/*
 * The fences, inside the timed region after the last line, before t1:
 * mfence -- every earlier load and store (clwb, clflushopt, clflush and
 *	     non-temporal stores included) is globally visible before t1 is
 *	     read: the SDM's MFENCE before RDTSCP (Vol. 2B, RDTSCP; RDTSC:
 *	     "MFENCE; LFENCE").  The default of every store op.
 * sfence -- orders the stores against later stores only; it is "not
 *	     ordered with respect to memory loads or the LFENCE instruction"
 *	     (SDM Vol. 2B, SFENCE), so t1 may be read before the stores
 *	     complete: the figure is the stores' issue cost, not completion;
 * none   -- likewise.
 * movdir64b's direct store is weakly ordered like a non-temporal store:
 * "fencing operation such as SFENCE or MFENCE should follow the MOVDIR64B
 * instruction to enforce ordering when needed" (SDM Vol. 2B, MOVDIR64B);
 * it gets the fences of nt-store, and mfence by default, the one RDTSCP
 * waits for (above).
 */
#define FENCE_none	""
#define FENCE_sfence	"sfence\n\t"
#define FENCE_mfence	"mfence\n\t"

/**
 * latt_default_fence() - the fence an op gets unless one is asked for
 * @op: LATT_OP_*
 *
 * Loads: none (rdtscp and lfence; rdtsc already wait for loads).  Every
 * store op, with or without a flush, non-temporal and direct stores
 * (movdir64b, weakly ordered as non-temporal stores are: SDM Vol. 2B,
 * MOVDIR64B): mfence, the
 * only fence that makes the timestamp wait for the stores to complete
 * (they retire into the store buffer; AMD APM Vol. 3, RDTSCP: it waits for
 * older instructions to retire, not for their stores to drain).  Both
 * engines resolve LATT_FENCE_DEFAULT with it.
 *
 * Return: LATT_FENCE_NONE or LATT_FENCE_MFENCE.
 */
static inline __u32 latt_default_fence(__u32 op)
{
	switch (op) {
	case LATT_OP_LOAD:
	case LATT_OP_NT_LOAD:
		return LATT_FENCE_NONE;
	default:
		return LATT_FENCE_MFENCE;
	}
}

/*
 * What the stores write: LATT_STORE_WORD (8 bytes: DATA_8 is the register
 * operand %1), zeroes from vector register 0 (cleared by CLEAR_<w>), or,
 * for the direct store, the line latt_direct_src (%1 is its address).
 */
#define LATT_STORE_WORD	0x5a5a5a5a5a5a5a5aULL
#define CLEAR_8		""
#define CLEAR_16	"pxor %%xmm0, %%xmm0\n\t"
#define CLEAR_32	"vpxor %%ymm0, %%ymm0, %%ymm0\n\t"
#define CLEAR_64	"vpxord %%zmm0, %%zmm0, %%zmm0\n\t"
#define CLEAR_direct	""
#define DATA_8		LATT_STORE_WORD
#define DATA_16		LATT_STORE_WORD
#define DATA_32		LATT_STORE_WORD
#define DATA_64		LATT_STORE_WORD
#define DATA_direct	latt_direct_src

/* movdir64b's source: one line of LATT_STORE_WORD, read from the cache */
static const __u64 latt_direct_src[8]
	__attribute__((aligned(64), unused)) = {
	LATT_STORE_WORD, LATT_STORE_WORD, LATT_STORE_WORD, LATT_STORE_WORD,
	LATT_STORE_WORD, LATT_STORE_WORD, LATT_STORE_WORD, LATT_STORE_WORD,
};

#define SAMPLE_NAME(op, w, f, t)	latt_sample_##op##_##w##_##f##_##t

#define LATT_SAMPLE(op, w, f, t)					\
static LATT_NOINLINE __attribute__((unused)) __u64			\
SAMPLE_NAME(op, w, f, t)(char *addr, __u64 size)			\
{									\
	char *p, *end = addr + size;					\
	__u64 t0, t1;							\
									\
	__asm__ __volatile__(CLEAR_##w "mfence\n\tlfence"		\
		     : : : "memory" LATT_VCLOBBER);			\
	t0 = LATT_TS_##t();						\
	__asm__ __volatile__("lfence" : : : "memory");			\
	for (p = addr; p < end; p += LATT_LINE)				\
		ASM_##op(LINE_##op##_##w, p, DATA_##w);			\
	__asm__ __volatile__(FENCE_##f : : : "memory");			\
	t1 = LATT_TS_##t();						\
	__asm__ __volatile__("lfence" : : : "memory");			\
	return t1 - t0;							\
mc: __attribute__((unused));						\
	__asm__ __volatile__("lfence" : : : "memory");			\
	return latt_mc_code((__u64)(p - addr));				\
}

/*
 * A batch (ABI 2.7, --batch): @n blocks of @size bytes at @lines[0..n-1],
 * prepared by the caller as samples' are, in one timed region:
 *
 *	mfence; lfence; t0 = timer; lfence	as a sample's
 *	n times: access the block; fence; lfence
 *	t1 = timer; lfence
 *
 * Each block's fence is the sample's, and the lfence after it stands for
 * the wait of a sample's closing timer read: it does not execute until
 * every earlier instruction has completed locally (SDM Vol. 2A, LFENCE;
 * AMD where latt_info has LATT_FEAT_LFENCE_SERIAL), so the next block's
 * access starts only once this one's loads have their data, and its
 * stores, behind the default mfence, are globally visible: one access
 * after the other, none overlapping, as samples are.  The next block's
 * address is loaded from @lines (an L1 hit) before the fence, so no load
 * of the list lies on the path from one access to the next.  @lines has
 * @n + 1 entries (the last is read, not used).
 *
 * Return: t1 - t0, or latt_mc_code() of (index << 32 | byte of its block)
 * when a load consumed poison.
 */
typedef __u64 (*latt_batch_fn)(char *const *lines, __u32 n, __u64 size);

#define BATCH_NAME(op, w, f, t)	latt_batch_##op##_##w##_##f##_##t

#define LATT_BATCH(op, w, f, t)						\
static LATT_NOINLINE __attribute__((unused)) __u64			\
BATCH_NAME(op, w, f, t)(char *const *lines, __u32 n, __u64 size)	\
{									\
	char *p = lines[0], *block = p, *next = p;			\
	__u64 t0, t1;							\
	__u32 i;							\
									\
	__asm__ __volatile__(CLEAR_##w "mfence\n\tlfence"		\
		     : : : "memory" LATT_VCLOBBER);			\
	t0 = LATT_TS_##t();						\
	__asm__ __volatile__("lfence" : : : "memory");			\
	for (i = 0; i < n; i++) {					\
		block = next;						\
		next = lines[i + 1];					\
		for (p = block; p < block + size; p += LATT_LINE)	\
			ASM_##op(LINE_##op##_##w, p, DATA_##w);		\
		__asm__ __volatile__(FENCE_##f "lfence" : : : "memory"); \
	}								\
	t1 = LATT_TS_##t();						\
	__asm__ __volatile__("lfence" : : : "memory");			\
	return t1 - t0;							\
mc: __attribute__((unused));						\
	__asm__ __volatile__("lfence" : : : "memory");			\
	return latt_mc_code(((__u64)i << 32) | (__u64)(p - block));	\
}

/* A timed function @T (LATT_SAMPLE, LATT_BATCH) of every fence and timer */
#define LATT_TIMED(T, op, w)						\
	T(op, w, none, rdtscp) T(op, w, sfence, rdtscp)			\
	T(op, w, mfence, rdtscp) T(op, w, none, rdtsc)			\
	T(op, w, sfence, rdtsc) T(op, w, mfence, rdtsc)

/* Every (op, width): its samples and batches, and its stream. */
#define LATT_FENCES(op, w)						\
	LATT_TIMED(LATT_SAMPLE, op, w)					\
	LATT_TIMED(LATT_BATCH, op, w)					\
	LATT_STREAM(op, w)

#define LATT_OP_ALL_WIDTHS(op)						\
	LATT_FENCES(op, 8) LATT_FENCES(op, 16)				\
	LATT_FENCES(op, 32) LATT_FENCES(op, 64)

/*
 * Streams: the same lines with no timing and no fence, for the traffic of
 * bandwidth and loaded-latency runs (the caller fences once a window).
 * One call makes @n accesses of @len bytes each, at @addr[0] to
 * @addr[n - 1] in that order: the op inlined, one call a batch (core.h's
 * latt_stream_batch()), and nothing in the loop that waits for a load, so
 * that as many misses are in flight as the core allows.
 */
#define STREAM_NAME(op, w)	latt_stream_##op##_##w

#define LATT_STREAM(op, w)						\
static LATT_NOINLINE __attribute__((unused)) __u64			\
STREAM_NAME(op, w)(char *const *addr, __u32 n, __u64 len)		\
{									\
	char *p = addr[0], *end;					\
	__u32 i;							\
									\
	__asm__ __volatile__(CLEAR_##w : : : "memory" LATT_VCLOBBER);	\
	for (i = 0; i < n; i++) {					\
		end = addr[i] + len;					\
		for (p = addr[i]; p < end; p += LATT_LINE)		\
			ASM_##op(LINE_##op##_##w, p, DATA_##w);		\
	}								\
	return 0;							\
mc: __attribute__((unused));						\
	return latt_mc_code(((__u64)i << 32) | (__u64)(p - addr[i]));	\
}

/*
 * A --mix's streams: @n accesses of @len bytes at @addr[0] to
 * @addr[n - 1] in that order, each a load at width @w where its place in
 * the mix's cycle, @k for the first and one more for each after (back to
 * 0 at @cyc), is below @na, else its write op's lines at width @ww.
 * Both inlined in one call a batch: a call for each stretch of one kind
 * (one access at --mix 1:1) held few misses in flight.  Each write clears
 * the vector register it stores from again (a zeroing idiom, no work):
 * the loads before it filled it, and their data would make each store
 * wait for a miss and write what it read.
 */
#define MIX_NAME(wop, w)	latt_mix_##wop##_##w

#define LATT_STREAM_MIX(wop, w, ww)					\
static LATT_NOINLINE __attribute__((unused)) __u64			\
MIX_NAME(wop, w)(char *const *addr, __u32 n, __u64 len, __u32 k,	\
		 __u32 na, __u32 cyc)					\
{									\
	char *p = addr[0], *end;					\
	__u32 i;							\
									\
	__asm__ __volatile__(CLEAR_##w : : : "memory" LATT_VCLOBBER);	\
	for (i = 0; i < n; i++) {					\
		end = addr[i] + len;					\
		if (k < na) {						\
			for (p = addr[i]; p < end; p += LATT_LINE)	\
				ASM_load(LINE_load_##w, p, DATA_##w);	\
		} else {						\
			__asm__ __volatile__(CLEAR_##ww : : :		\
					     "memory" LATT_VCLOBBER);	\
			for (p = addr[i]; p < end; p += LATT_LINE)	\
				ASM_##wop(LINE_##wop##_##ww, p,		\
					  DATA_##ww);			\
		}							\
		if (++k == cyc)						\
			k = 0;						\
	}								\
	return 0;							\
mc: __attribute__((unused));						\
	return latt_mc_code(((__u64)i << 32) | (__u64)(p - addr[i]));	\
}

/*
 * A --mix's traffic of @n accesses, from place @k of a cycle of @na loads
 * and then writes up to @cyc; see LATT_STREAM_MIX().  Returns as a
 * latt_stream_fn does.
 */
typedef __u64 (*latt_mix_fn)(char *const *addr, __u32 n, __u64 len, __u32 k,
			     __u32 na, __u32 cyc);

/*
 * The traffic of @n accesses (no timing); see LATT_STREAM().  Returns 0,
 * or latt_mc_code() of (i << 32 | byte) when a load of the i-th access
 * consumed poison at that byte of it: the accesses before it were made.
 */
typedef __u64 (*latt_stream_fn)(char *const *addr, __u32 n, __u64 len);

/* latt_stream_fn's answer to poison: which access, and its byte */
static inline __u32 latt_mc_access(__u64 code)
{
	return (__u32)(latt_mc_at(code) >> 32);
}

static inline __u64 latt_mc_byte(__u64 code)
{
	return latt_mc_at(code) & 0xffffffffULL;
}

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
 *
 * Return: 0, or latt_mc_code() when a load consumed poison.
 */
static inline __u64 latt_prep_warm(char *addr, __u64 size)
{
	char *p, *end = addr + size;

	for (p = addr; p < end; p += LATT_LINE)
		__asm__ goto(LD8(0) : : "r"(p) : "rax", "memory" : mc);
	return 0;
mc:
	return latt_mc_code((__u64)(p - addr));
}

/* A chase sample through pointers, and one through masked offsets. */
typedef __u64 (*latt_chase_fn)(char **pos, __u32 chain);
typedef __u64 (*latt_chase_off_fn)(char *base, __u64 mask, __u64 *pos,
				   __u32 chain);

/*
 * latt_sample_chase_<timer>(pos, chain) - time @chain dependent loads from
 * *@pos.  Each node's first word holds the address of the next node; *@pos
 * is left at the first node not yet loaded, where the next sample starts.
 * No fence before t1: the timer waits for the loads.  The loop is one
 * load, a decrement and a branch; a load that consumed poison leaves it
 * at its fixup (2:) with loads still to go, *@pos at the poisoned node.
 */
#define LATT_CHASE(t)							\
static LATT_NOINLINE __attribute__((unused)) __u64			\
latt_sample_chase_##t(char **pos, __u32 chain)				\
{									\
	char *p = *pos;							\
	__u64 t0, t1;							\
	__u32 n = chain;						\
									\
	__asm__ __volatile__("mfence\n\tlfence" : : : "memory");	\
	t0 = LATT_TS_##t();						\
	__asm__ __volatile__("lfence" : : : "memory");			\
	__asm__ __volatile__("test %[n], %[n]\n\t"			\
			     "jz 2f\n"					\
			     "1:\tmovq (%[p]), %[p]\n\t"		\
			     "dec %[n]\n\t"				\
			     "jnz 1b\n"					\
			     "2:\n\t"					\
			     LATT_MC_AT(1b, 2b)				\
			     : [p] "+r"(p), [n] "+r"(n) : : "memory");	\
	t1 = LATT_TS_##t();						\
	__asm__ __volatile__("lfence" : : : "memory");			\
	*pos = p;							\
	return n ? latt_mc_code(0) : t1 - t0;				\
}

/*
 * latt_sample_chase_off_<timer>(base, mask, pos, chain) - chase through
 * offsets instead of pointers, for memory others can write while the run
 * goes (a shared device): each node's first word holds the next node's
 * offset, masked (region size - 1, a power of two, less the low 3 bits)
 * before use, so whatever the memory holds the loads stay inside
 * [base, base + mask + 8).  The mask and the add are in the timed loop: one
 * more dependent ALU operation (or two) per load than the pointer chase.
 */
#define LATT_CHASE_OFF(t)						\
static LATT_NOINLINE __attribute__((unused)) __u64			\
latt_sample_chase_off_##t(char *base, __u64 mask, __u64 *pos, __u32 chain) \
{									\
	__u64 off = *pos, t0, t1;					\
	__u32 n = chain;						\
									\
	__asm__ __volatile__("mfence\n\tlfence" : : : "memory");	\
	t0 = LATT_TS_##t();						\
	__asm__ __volatile__("lfence" : : : "memory");			\
	__asm__ __volatile__("test %[n], %[n]\n\t"			\
			     "jz 2f\n"					\
			     "1:\tmovq (%[b],%[o]), %[o]\n\t"		\
			     "andq %[m], %[o]\n\t"			\
			     "dec %[n]\n\t"				\
			     "jnz 1b\n"					\
			     "2:\n\t"					\
			     LATT_MC_AT(1b, 2b)				\
			     : [o] "+r"(off), [n] "+r"(n)		\
			     : [b] "r"(base), [m] "r"(mask) : "memory");	\
	t1 = LATT_TS_##t();						\
	__asm__ __volatile__("lfence" : : : "memory");			\
	*pos = off;							\
	return n ? latt_mc_code(0) : t1 - t0;				\
}

#endif /* _LATTESTER_ACCESS_H */
