/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * lattester.h - the ABI between lattester.ko and lattester-ctl
 *
 * One header for both sides.  It includes only <linux/types.h> and
 * <linux/ioctl.h>.  Every structure is made of naturally aligned fixed-width
 * fields with explicit padding; pointers travel as __u64; every reserved
 * field and every unused flag bit must be zero (the module returns -EINVAL
 * otherwise, so they can be given a meaning later).  Never renumber a command
 * or change a structure: add a new command instead and bump
 * LATT_ABI_VERSION's minor.
 *
 * Times are raw TSC cycles; struct latt_info.tsc_khz converts them.
 */
#ifndef _UAPI_LATTESTER_H
#define _UAPI_LATTESTER_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define LATT_ABI_MAJOR		2
#define LATT_ABI_MINOR		9
#define LATT_ABI_VERSION	((LATT_ABI_MAJOR << 16) | LATT_ABI_MINOR)

#define LATT_DEVICE_NAME	"lattester"

/* Operations (struct latt_config.op) */
#define LATT_OP_LOAD		1	/* temporal loads */
#define LATT_OP_NT_LOAD		2	/* movntdqa loads (SSE4.1) */
#define LATT_OP_STORE		3	/* temporal stores */
#define LATT_OP_STORE_CLWB	4	/* stores, then clwb each line */
#define LATT_OP_STORE_CLFLUSHOPT 5	/* stores, then clflushopt each line */
#define LATT_OP_STORE_CLFLUSH	6	/* stores, then clflush each line */
#define LATT_OP_NT_STORE	7	/* non-temporal stores (movnt*) */
#define LATT_OP_MOVDIR64B	8	/* 64-byte direct stores, movdir64b
					 * (ABI 2.2, LATT_FEAT_MOVDIR64B) */
#define LATT_OP_MAX		8

/* Fence after the access, inside the timed region (latt_config.fence) */
#define LATT_FENCE_DEFAULT	0	/* the op's default: none after loads,
					 * mfence after every store op (since
					 * ABI 1.3; sfence before), so that the
					 * second timestamp waits for the
					 * stores to complete */
#define LATT_FENCE_NONE		1
#define LATT_FENCE_SFENCE	2	/* store ops only */
#define LATT_FENCE_MFENCE	3
#define LATT_FENCE_MAX		3

/* Address patterns (latt_config.pattern) */
#define LATT_PAT_SEQ		1	/* slot i, i+1, ... wrapping */
#define LATT_PAT_RAND		2	/* uniform size-aligned slots */
#define LATT_PAT_STRIDE		3	/* offset advances by .stride bytes */
#define LATT_PAT_CHASE		4	/* dependent loads, random cycle */
#define LATT_PAT_HOTSPOT	5	/* uniform inside the first .stride bytes */
#define LATT_PAT_MAX		5

/* Target kinds (latt_config.target) */
#define LATT_TARGET_DRAM	1	/* pages on NUMA node .node */
#define LATT_TARGET_PMEM	2	/* .region bytes at .phys_addr, a range
					 * of persistent memory claimed by .fd
					 * (ABI 1.1) */

/* Run modes (latt_config.mode, ABI 1.2) */
#define LATT_MODE_LATENCY	0	/* every thread times its accesses */
#define LATT_MODE_BANDWIDTH	1	/* every thread streams, untimed, for
					 * .duration_us; bytes are counted */
#define LATT_MODE_LOADED	2	/* thread 0 times its accesses while
					 * the others stream (loaded latency) */
#define LATT_MODE_MAX		2

#define LATT_NODE_LOCAL		0xffffffffU	/* the measuring CPU's node */

/* Access widths in bytes (latt_config.width); 0 = widest the CPU has */
#define LATT_WIDTH_AUTO		0

/* latt_config.flags */
#define LATT_CFG_WARM		(1U << 0) /* touch the lines instead of
					   * flushing them before each sample */
#define LATT_CFG_FORCE		(1U << 1) /* allow ops that overwrite a
					   * PMEM target (stores, chase) */
#define LATT_CFG_SPLIT		(1U << 2) /* each thread on its own part of
					   * the region (ABI 1.2) */
#define LATT_CFG_RDTSC		(1U << 3) /* time with "lfence; rdtsc" even
					   * where rdtscp exists (ABI 1.3) */
#define LATT_CFG_REUSE		(1U << 4) /* keep the region on this file
					   * after the run, and take the
					   * one kept if it matches (2.1) */
#define LATT_CFG_FLAGS_ALL	(LATT_CFG_WARM | LATT_CFG_FORCE | \
				 LATT_CFG_SPLIT | LATT_CFG_RDTSC | \
				 LATT_CFG_REUSE)

/* CPU and platform features (latt_info.features) */
#define LATT_FEAT_RDTSCP	(1ULL << 0)
#define LATT_FEAT_CLFLUSH	(1ULL << 1)
#define LATT_FEAT_CLFLUSHOPT	(1ULL << 2)
#define LATT_FEAT_CLWB		(1ULL << 3)
#define LATT_FEAT_SSE2		(1ULL << 4)
#define LATT_FEAT_SSE4_1	(1ULL << 5)	/* movntdqa */
#define LATT_FEAT_AVX		(1ULL << 6)
#define LATT_FEAT_AVX2		(1ULL << 7)	/* 32-byte vmovntdqa */
#define LATT_FEAT_AVX512F	(1ULL << 8)
#define LATT_FEAT_CONSTANT_TSC	(1ULL << 9)
#define LATT_FEAT_NONSTOP_TSC	(1ULL << 10)
#define LATT_FEAT_NMI_COUNT	(1ULL << 11)	/* per-window NMI detection */
#define LATT_FEAT_PMEM		(1ULL << 12)	/* LATT_TARGET_PMEM (ABI 1.1) */
#define LATT_FEAT_THREADS	(1ULL << 13)	/* modes, threads (ABI 1.2) */
#define LATT_FEAT_TIMER_RDTSC	(1ULL << 14)	/* times with "lfence; rdtsc"
						 * where the CPU lacks rdtscp,
						 * LATT_CFG_RDTSC (ABI 1.3) */
#define LATT_FEAT_TSC_STABLE	(1ULL << 15)	/* the kernel has not marked
						 * the TSC unstable (ABI 1.3) */
#define LATT_FEAT_REUSE		(1ULL << 16)	/* LATT_CFG_REUSE (ABI 2.1) */
#define LATT_FEAT_DAX_MAP	(1ULL << 17)	/* device-DAX ranges checked
						 * through .map_addr (2.1) */
#define LATT_FEAT_MOVDIR64B	(1ULL << 18)	/* MOVDIR64B, and the module
						 * has LATT_OP_MOVDIR64B (2.2) */
#define LATT_FEAT_MC_SAFE	(1ULL << 19)	/* every load the module makes
						 * of a target has a machine-
						 * check fixup: a consumed
						 * poison ends the run with
						 * EHWPOISON and
						 * latt_status.poison_offset
						 * (2.3) */
#define LATT_FEAT_MC_RECOVER	(1ULL << 20)	/* the CPU reports machine
						 * checks the kernel can
						 * recover from (Intel
						 * MCG_CAP.SER_P, AMD SUCCOR):
						 * without it a consumed
						 * poison is fatal anyway
						 * (2.3) */
#define LATT_FEAT_LFENCE_SERIAL	(1ULL << 21)	/* LFENCE waits for every
						 * older instruction before
						 * a younger one starts:
						 * Intel always; AMD, Hygon
						 * with CPUID 0x80000021
						 * EAX[2] or DE_CFG bit 1.
						 * "lfence; rdtsc" is
						 * refused without it
						 * (2.4) */
#define LATT_FEAT_BATCH		(1ULL << 22)	/* latt_config.batch, the
						 * batch estimates, and
						 * LATT_IOC_BATCH (2.7) */
#define LATT_FEAT_WINDOWS	(1ULL << 23)	/* each outlier window's
						 * evidence, LATT_IOC_WINDOWS
						 * (2.8) */
#define LATT_FEAT_TRAFFIC	(1ULL << 24)	/* a loaded run's traffic on
						 * memory of its own,
						 * LATT_IOC_START_TRAFFIC
						 * (2.9) */

/* Limits */
#define LATT_LINE		64ULL		/* bytes; sizes are multiples */
#define LATT_MIN_SIZE		64ULL
#define LATT_MAX_SIZE		(4ULL << 20)	/* one DRAM chunk */
#define LATT_MAX_SIZE_THREADS	(256ULL << 10)	/* latency mode, several
						 * threads (ABI 2.1) */
#define LATT_MAX_CHAIN		4096U
#define LATT_MAX_OUTLIERS	(1U << 20)
#define LATT_MAX_REGION		(1ULL << 40)
#define LATT_MAX_SAMPLES	(1ULL << 40)
#define LATT_MIN_WINDOW_US	10U
#define LATT_MAX_WINDOW_US	100000U		/* 100 ms: far from watchdogs */
#define LATT_MAX_THREADS	1024U
#define LATT_MIN_DURATION_US	1000ULL
#define LATT_MAX_DURATION_US	(3600ULL * 1000000)
#define LATT_MAX_DELAY		(1ULL << 20)	/* cycles */
#define LATT_MAX_SERIES		4096U		/* bins of a thread's series */
#define LATT_MAX_BATCH		1024U		/* accesses of a batch, K (2.7) */
#define LATT_MIN_BATCH_PAIRS	256U		/* pairs of a --batch run */
#define LATT_MAX_BATCH_PAIRS	(1U << 20)

/*
 * Histogram of raw sample cycles: log-linear, 2^LATT_HIST_SUB_BITS exact
 * buckets, then 2^(LATT_HIST_SUB_BITS - 1) buckets per power of two up to
 * 2^LATT_HIST_MAX_BITS cycles; larger values land in the last bucket (the
 * exact maximum is kept beside it).  include/lattester/hist.h has the math.
 */
#define LATT_HIST_SUB_BITS	8
#define LATT_HIST_MAX_BITS	40
#define LATT_HIST_BUCKETS	((1U << LATT_HIST_SUB_BITS) + \
				 (LATT_HIST_MAX_BITS - LATT_HIST_SUB_BITS) * \
				 (1U << (LATT_HIST_SUB_BITS - 1)))

/* Run states (latt_status.state, sysfs "state") */
#define LATT_STATE_IDLE		0
#define LATT_STATE_RUNNING	1
#define LATT_STATE_DONE		2
#define LATT_STATE_ABORTED	3
#define LATT_STATE_FAILED	4

/**
 * struct latt_info - LATT_IOC_GET_INFO, filled by the module
 * @abi_version: LATT_ABI_VERSION
 * @hist_buckets: LATT_HIST_BUCKETS
 * @features: LATT_FEAT_*
 * @tsc_khz: the kernel's TSC frequency, kHz
 * @max_size: LATT_MAX_SIZE
 * @max_region: LATT_MAX_REGION
 * @max_chain: LATT_MAX_CHAIN
 * @max_outliers: LATT_MAX_OUTLIERS
 * @nr_cpu_ids: the kernel's nr_cpu_ids: every CPU number is below it
 * @window_us: current default (sysfs window_us)
 * @state: LATT_STATE_* of the current or last run
 * @widths: bit n: width 1 << n bytes usable
 * @timer_quantum: ABI 2.6: the TSC's quantum, in 1/256 of a cycle
 *	(LATT_QUANTUM_ONE is one: a TSC that moves by one), found when the
 *	module loaded (latt_quantum_find() over latt_timer_diffs()): the
 *	common spacing of its values, what a single sample can tell apart.
 *	A scaled TSC under a hypervisor may move in steps of tens of cycles;
 *	0 = unknown (an older module)
 * @timer_read_cost: ABI 2.6: cycles: the smallest difference of two
 *	back-to-back "lfence; rdtsc" reads then; 0 = unknown
 * @reserved: zero
 */
struct latt_info {
	__u32 abi_version;
	__u32 hist_buckets;
	__u64 features;
	__u64 tsc_khz;
	__u64 max_size;
	__u64 max_region;
	__u32 max_chain;
	__u32 max_outliers;
	__u32 nr_cpu_ids;
	__u32 window_us;
	__u32 state;
	__u32 widths;
	__u64 timer_quantum;
	__u64 timer_read_cost;
	__u64 reserved[4];
};

/* struct latt_info.timer_quantum of a TSC that moves by one */
#define LATT_QUANTUM_ONE	256

/**
 * struct latt_config - LATT_IOC_START, a run's description
 * @op: LATT_OP_*
 * @fence: LATT_FENCE_*
 * @pattern: LATT_PAT_*
 * @target: LATT_TARGET_*
 * @node: NUMA node, or LATT_NODE_LOCAL
 * @cpu: CPU the kthread is bound to (thread 0's, with several)
 * @size: bytes per access, multiple of 64
 * @stride: stride in bytes for LATT_PAT_STRIDE, hotspot window in bytes for
 *	LATT_PAT_HOTSPOT, the TLB-locality block for LATT_PAT_CHASE (ABI 1.3:
 *	the chain visits every node of a block of that many bytes before the
 *	next; a power of two, a multiple of .size, at most .region; 0 = one
 *	cycle over the whole region), zero otherwise.
 * @region: bytes of target memory
 * @samples: timed samples each timing thread takes; 0 in bandwidth mode
 * @seed: the address generator's seed
 * @threshold: outlier threshold on (raw - overhead) sample cycles; 0 keeps
 *	no outlier records.
 * @chain: dependent loads per sample (chase); 0 = 1
 * @max_outliers: outlier buffer, records
 * @window_us: interrupt-off window; 0 takes the module's default.
 * @width: LATT_WIDTH_AUTO or 8, 16, 32, 64
 * @flags: LATT_CFG_*.  LATT_CFG_REUSE (ABI 2.1): when the run ends, done
 *	or aborted (not failed), the module keeps its region (DRAM chunks, or
 *	the checked PMEM mapping and claim) on this open file.  The next START
 *	on the same file with the flag and the same target, node, region,
 *	phys_addr and map_addr, and for PMEM an @fd of the very open file the
 *	region holds (the same struct file: that descriptor or a dup of it;
 *	another open of the device does not match), takes it as it is where
 *	the new run may use it (LATT_RES_REUSED); a DRAM chase chain too, when
 *	the run started last before it was a chase of the same size, seed and
 *	TLB-locality block that ended done (any other run between loses the
 *	chain: LATT_RES_CHAIN_REUSED).  Any other START frees it first.  A
 *	kept region is freed on close, on rmmod and under memory pressure
 *	(Documentation/ioctl.md).
 * @batch: ABI 2.7 (before, a padding that had to be zero): 0, or K, 1 to
 *	LATT_MAX_BATCH: after its samples the timing thread times
 *	@batch_pairs pairs of batches, one of K accesses and one of 2K, each
 *	batch in one timed region: every access prepared before it as a
 *	sample's is (flushed, or touched with LATT_CFG_WARM), then timed
 *	with its fence and an lfence after it (a chase: K or 2K samples'
 *	loads in one chain).  The difference of a pair, T(2K) - T(K), is K
 *	accesses without the timer's overhead; LATT_IOC_BATCH returns the
 *	pairs.  Latency mode, one thread; K x @size at most LATT_MAX_SIZE,
 *	a chase's K x @chain at most 65536; not seq or stride; flushed, 128
 *	x K blocks to draw from; warm, K <= 16 and K x @size <= 8 KiB
 *	(include/lattester/rules.h, latt_batch_rules()).
 *	Needs LATT_FEAT_BATCH.  The module keeps @batch_pairs records of
 *	8 bytes for the run
 * @phys_addr: LATT_TARGET_PMEM (ABI 1.1): physical address of the first
 *	byte.  The range [phys_addr, phys_addr + region) must lie inside one
 *	iomem resource of persistent memory (also legacy e820) or
 *	soft-reserved memory; page-aligned.
 * @fd: LATT_TARGET_PMEM (ABI 1.1): an open file of the device that owns
 *	the range, held by the module for the run: a pmem block device
 *	opened with O_EXCL (so that nothing can mount it meanwhile; a mounted
 *	one can't be opened so), or a device-DAX character device.  Where the
 *	block device supports DAX, the range must be the one DAX reports for
 *	it.  Must be 0 for DRAM.
 * @batch_pairs: ABI 2.7 (before, a padding): the pairs of a @batch run,
 *	LATT_MIN_BATCH_PAIRS to LATT_MAX_BATCH_PAIRS; 0 without @batch
 * @nr_threads: ABI 1.2: kthreads; 0 or 1 = one thread on .cpu
 * @mode: ABI 1.2: LATT_MODE_*
 * @cpus_ptr: ABI 1.2: the threads' CPUs, __u32[nr_threads], or 0
 * @duration_us: ABI 1.2: how long the threads stream; bandwidth mode only
 * @delay: ABI 1.2: cycles a streaming thread waits after each access.
 * @mix_read: ABI 1.2: a streaming thread does mix_read loads, then
 *	mix_write accesses of @write_op, and again; 0:0 = every access is
 *	@op (bandwidth) or a load (loaded).
 * @mix_write: ABI 1.2: see @mix_read.
 * @write_op: ABI 1.2: the op of the mix's writes, a store LATT_OP_*; 0 =
 *	LATT_OP_STORE.
 * @map_addr: ABI 2.1, a device-DAX @fd: where the caller has the byte at
 *	@phys_addr mapped through @fd (MAP_SHARED, @region bytes on).  The
 *	module asks the caller's page tables for the pages there and takes
 *	the range only if they are that device's and exactly
 *	[@phys_addr, @phys_addr + @region): the device's own translation
 *	ties the range to it.  0 with a device-DAX @fd is refused where
 *	info.features has LATT_FEAT_DAX_MAP; must be 0 for other targets.
 *
 * Threads (ABI 1.2): @nr_threads kthreads (0 means 1), bound to the CPUs in
 * the array @cpus_ptr points to (__u32[nr_threads]; 0 for one thread on
 * @cpu).  The CPUs must be online and distinct and cpus[0] must be @cpu.
 * All start at one TSC time after every thread is ready, and stop together:
 * in latency mode each takes @samples samples, in loaded mode thread 0 takes
 * @samples samples and the others stream until it is done, in bandwidth mode
 * all stream for @duration_us (@samples must be 0).  LATT_CFG_SPLIT gives
 * thread i the part [i * part, (i + 1) * part) of the region, part being
 * region / nr_threads rounded down to a multiple of LATT_CHUNK, or to a
 * power of two below it; without it every thread spans the whole region.
 */
struct latt_config {
	__u32 op;
	__u32 fence;
	__u32 pattern;
	__u32 target;
	__u32 node;
	__u32 cpu;
	__u64 size;
	__u64 stride;
	__u64 region;
	__u64 samples;
	__u64 seed;
	__u64 threshold;
	__u32 chain;
	__u32 max_outliers;
	__u32 window_us;
	__u32 width;
	__u32 flags;
	__u32 batch;
	__u64 phys_addr;
	__s32 fd;
	__u32 batch_pairs;
	__u32 nr_threads;
	__u32 mode;
	__u64 cpus_ptr;
	__u64 duration_us;
	__u64 delay;
	__u16 mix_read;
	__u16 mix_write;
	__u32 write_op;
	__u64 map_addr;
};

/**
 * struct latt_status - LATT_IOC_STATUS, filled by the module
 * @state: LATT_STATE_*
 * @error: negative errno of a failed run
 * @samples_done: samples taken so far; bandwidth mode: microseconds
 *	streamed since the common start
 * @samples_total: samples asked of all timing threads; bandwidth mode:
 *	duration_us
 * @windows: windows run so far, by every thread
 * @poison_offset: ABI 2.3, a run that failed with -EHWPOISON: the byte
 *	offset in the target of the line whose load consumed poison (the
 *	first thread's to meet one), LATT_POISON_UNKNOWN when no load did
 *	(a bad block listed meanwhile) or the place can't be told; 0 else
 * @reserved: zero
 */
struct latt_status {
	__u32 state;
	__s32 error;
	__u64 samples_done;
	__u64 samples_total;
	__u64 windows;
	__u64 poison_offset;
	__u64 reserved[3];
};

#define LATT_POISON_UNKNOWN	(~0ULL)	/* latt_status.poison_offset */

/* latt_outlier.flags */
#define LATT_OUT_NMI		(1U << 0) /* an NMI arrived in its window */

/**
 * struct latt_outlier - one sample above the threshold
 * @sample: index among its thread's samples, from 0
 * @tsc: TSC as the sample began (before its preparation), minus the run's
 *	start
 * @offset: byte offset in the target
 * @cycles: raw cycles (overhead not subtracted)
 * @window: index of its thread's window, from 0
 * @flags: LATT_OUT_*
 * @cpu: the CPU of the thread that took it
 */
struct latt_outlier {
	__u64 sample;
	__u64 tsc;
	__u64 offset;
	__u64 cycles;
	__u64 window;
	__u32 flags;
	__u32 cpu;
};

/* latt_result.flags */
#define LATT_RES_VECTOR		(1U << 0) /* ran inside kernel_fpu_begin */
#define LATT_RES_DAX		(1U << 1) /* PMEM range checked against the
					   * block device's DAX mapping */
#define LATT_RES_TIMER_RDTSC	(1U << 2) /* timed with "lfence; rdtsc", not
					   * rdtscp (ABI 1.3) */
#define LATT_RES_TSC_UNSTABLE	(1U << 3) /* the kernel had called the TSC
					   * unstable by the run's end (1.3) */
#define LATT_RES_REUSED		(1U << 4) /* the run took the region kept
					   * by the previous one (2.1) */
#define LATT_RES_CHAIN_REUSED	(1U << 5) /* ... and the chase chain the
					   * run right before built: a chase
					   * of the same layout, done (2.1) */

/**
 * struct latt_result - LATT_IOC_RESULT
 * @hist_ptr: in: __u64[hist_len]
 * @outlier_ptr: in: struct latt_outlier[outlier_len]
 * @hist_len: in: buckets; out: LATT_HIST_BUCKETS
 * @outlier_len: in: records; out: records copied
 * @state: LATT_STATE_*
 * @error: negative errno of a failed run
 * @config: as run, defaults resolved
 * @count: samples taken
 * @min: raw cycles (several timing threads: merged, see below)
 * @max: raw cycles (likewise)
 * @sum: of raw cycles (likewise)
 * @sum_corrected: of max(raw - overhead, 0)
 * @overhead: calibrated timer overhead, median: what corrects the
 *	figures.  Thread 0's: in loaded mode its calibration under load (ABI
 *	2.5), run after the common start while the traffic runs; otherwise
 *	its calibration before the start (@overhead_idle)
 * @overhead_min: that calibration's minimum
 * @overhead_max: that calibration's maximum
 * @windows: irq-off windows run
 * @nmi_windows: windows that saw an NMI
 * @outliers: samples above threshold
 * @outliers_dropped: of those, not recorded: buffer full
 * @hist_overflow: samples >= 2^LATT_HIST_MAX_BITS cycles
 * @tsc_start: the common start
 * @tsc_end: the last thread's end
 * @window_cycles_max: longest irq-off stretch, TSC cycles
 * @flags: LATT_RES_*
 * @width: access width used, bytes
 * @bytes_read: ABI 1.2: by streaming threads
 * @bytes_written: ABI 1.2: by streaming threads
 * @overhead_end: ABI 1.3: the same calibration again after the samples (a
 *	drift of more than @timer_step between the two says the CPU's clock
 *	or the platform changed during the run); in loaded mode (ABI 2.5)
 *	the median of the empty samples that start the sample windows, under
 *	the traffic, across the run; 0 = unknown
 * @timer_step: ABI 1.3: cycles: the smallest non-zero difference of two
 *	successive timer reads: the read cost, one quantum or more
 *	(struct latt_info.timer_quantum, ABI 2.6: the resolution)
 * @backwards: ABI 1.3: samples with t1 < t0 (the second timestamp below
 *	the first), counted here and nowhere else (@count, the histogram and
 *	the sums leave them out)
 * @page_size: ABI 1.3: bytes of the smallest page that maps a byte of
 *	the region (ABI 2.4; before, of the page that maps its first byte)
 *	in the module's mapping (direct map or memremap), 0 = unknown
 * @chunk_size: ABI 2.1: bytes of the blocks no access crosses.  DRAM: its
 *	physically contiguous chunks, LATT_CHUNK (4 MiB) or 2 MiB; PMEM:
 *	always 4 MiB, counted from @config.phys_addr in its one mapping.
 *	0 = unknown
 * @overhead_idle: ABI 2.5: thread 0's calibration before the common start,
 *	median, with no traffic running (the traffic threads wait at the
 *	start line); equal to @overhead but in loaded mode; 0 = unknown
 *
 * In: @hist_ptr/@hist_len (buckets of __u64 the buffer holds) and
 * @outlier_ptr/@outlier_len (records).  A zero pointer skips that copy.
 * Out: everything else.  Only valid once the run is no longer running.
 * Cycles are raw (timer overhead included); corrected = raw - @overhead,
 * floored at zero, and for chains per load = corrected / @chain.  With
 * several timing threads (ABI 2.5) each thread's samples enter the merged
 * histogram, @min, @max and @sum moved by its own overhead less thread
 * 0's: corrected = merged - @overhead is then each sample less its own
 * thread's overhead (exact below 256 cycles, within a bucket above).
 * Outlier records stay raw: correct each by its thread's overhead
 * (LATT_IOC_THREADS).
 */
struct latt_result {
	__u64 hist_ptr;
	__u64 outlier_ptr;
	__u32 hist_len;
	__u32 outlier_len;
	__u32 state;
	__s32 error;
	struct latt_config config;
	__u64 count;
	__u64 min;
	__u64 max;
	__u64 sum;
	__u64 sum_corrected;
	__u64 overhead;
	__u64 overhead_min;
	__u64 overhead_max;
	__u64 windows;
	__u64 nmi_windows;
	__u64 outliers;
	__u64 outliers_dropped;
	__u64 hist_overflow;
	__u64 tsc_start;
	__u64 tsc_end;
	__u64 window_cycles_max;
	__u32 flags;
	__u32 width;
	__u64 bytes_read;
	__u64 bytes_written;
	__u64 overhead_end;
	__u64 timer_step;
	__u64 backwards;
	__u64 page_size;
	__u64 chunk_size;
	__u64 overhead_idle;
};

/* latt_thread_stats.role */
#define LATT_ROLE_LATENCY	1	/* takes timed samples */
#define LATT_ROLE_STREAM	2	/* streams untimed accesses */

/**
 * struct latt_thread_stats - one thread's figures (LATT_IOC_THREADS)
 * @cpu: the CPU it ran on
 * @node: the CPU's NUMA node
 * @role: LATT_ROLE_*
 * @error: what stopped it, if it failed
 * @part_offset: where its part of the region starts, bytes
 * @part_bytes: its part's length (the whole region without LATT_CFG_SPLIT)
 * @count: samples
 * @min: raw cycles
 * @max: raw cycles
 * @sum: of raw cycles
 * @sum_corrected: by its own overhead (the merged result's sum_corrected
 *	adds these up)
 * @overhead: its own calibration, median (loaded mode: under load)
 * @accesses: streamed accesses
 * @bytes_read: streamed bytes read
 * @bytes_written: streamed bytes written
 * @tsc_start: TSC as its samples or streaming began
 * @tsc_end: TSC as they ended
 * @windows: windows it ran
 * @nmi_windows: of those, windows that saw an NMI
 * @window_cycles_max: its longest window, TSC cycles
 * @outliers: its samples above the threshold
 * @overhead_end: ABI 1.3: its calibration after the samples (loaded mode,
 *	ABI 2.5: across them, as in struct latt_result)
 * @backwards: ABI 1.3: samples with t1 < t0
 * @overhead_idle: ABI 2.5: its calibration before the common start (equal
 *	to @overhead but for the loaded run's timing thread; 0 for a
 *	streaming thread, which calibrates nothing)
 *
 * Cycles are raw, as in struct latt_result; @tsc_start/@tsc_end are the
 * thread's own, on the common TSC.  A streaming thread counts no samples.
 */
struct latt_thread_stats {
	__u32 cpu;
	__u32 node;
	__u32 role;
	__s32 error;
	__u64 part_offset;
	__u64 part_bytes;
	__u64 count;
	__u64 min;
	__u64 max;
	__u64 sum;
	__u64 sum_corrected;
	__u64 overhead;
	__u64 accesses;
	__u64 bytes_read;
	__u64 bytes_written;
	__u64 tsc_start;
	__u64 tsc_end;
	__u64 windows;
	__u64 nmi_windows;
	__u64 window_cycles_max;
	__u64 outliers;
	__u64 overhead_end;
	__u64 backwards;
	__u64 overhead_idle;
};

/**
 * struct latt_threads - LATT_IOC_THREADS (ABI 1.2)
 * @stats_ptr: in: struct latt_thread_stats[len]
 * @hist_ptr: in: __u64[len][LATT_HIST_BUCKETS], thread by thread
 * @series_ptr: in: __u64[len][series_len], series_len as passed in
 * @len: in: threads the buffers hold; out: the run's threads
 * @series_len: in: bins per thread; out: bins each thread's series has
 * @series_cycles: out: one bin's TSC cycles
 * @tsc_go: out: the common start; 0 for a run stopped before it
 * @reserved: must be zero
 *
 * A zero pointer skips that copy.  A series is the bytes of bandwidth
 * mode: one bin is what the thread moved in windows ending inside it; the
 * run's first series_len (out) bins are filled.  Only valid once the run
 * is no longer running; -ENOENT without a run.
 */
struct latt_threads {
	__u64 stats_ptr;
	__u64 hist_ptr;
	__u64 series_ptr;
	__u32 len;
	__u32 series_len;
	__u64 series_cycles;
	__u64 tsc_go;
	__u64 reserved[4];
};

/* latt_batch_pair's figure of a batch of 2^32 - 1 cycles or more */
#define LATT_BATCH_SAT		0xffffffffU

/**
 * struct latt_batch_pair - one pair of batches (ABI 2.7, --batch)
 * @k: raw TSC cycles of its batch of K accesses (timer overhead
 *	included; LATT_BATCH_SAT: that or more)
 * @k2: raw TSC cycles of its batch of 2K
 */
struct latt_batch_pair {
	__u32 k;
	__u32 k2;
};

/**
 * struct latt_batch - LATT_IOC_BATCH (ABI 2.7): a run's pairs of batches
 * @pairs_ptr: in: struct latt_batch_pair[@len], or 0 for the counts only
 * @len: in: pairs the buffer holds; out: pairs copied
 * @batch: out: K as run; 0: the run timed no batches
 * @pairs: out: pairs recorded, in the order they were taken
 * @backwards: out: pairs left out: a batch's TSC went backwards
 * @reserved: zero
 *
 * Pairs alternate which batch comes first (the K batch in even pairs).
 * A pair's difference k2 - k is the cost of K accesses, the overhead of
 * the timer's two reads gone; divided by K (by K x chain for a chase) it
 * is one access's.  lattester-ctl takes the mean of the differences that
 * lie within 7 robust standard deviations of their median, with its 95%
 * interval (Documentation/methodology.md).  Only valid once the run is
 * no longer running; -ENOENT without a run.
 */
struct latt_batch {
	__u64 pairs_ptr;
	__u32 len;
	__u32 batch;
	__u64 pairs;
	__u64 backwards;
	__u64 reserved[4];
};

/*
 * What happened in a window (ABI 2.8): struct latt_wev's @ev, indexed by
 * kind, in the order lattester-ctl assigns them to outliers
 * (include/lattester/cause.h, enum latt_cause).
 */
#define LATT_EV_SMI		0	/* a System Management Interrupt */
#define LATT_EV_STEAL		1	/* the hypervisor ran something else */
#define LATT_EV_NMI		2
#define LATT_EV_PREEMPTED	3	/* the thread was switched out */
#define LATT_EV_IRQ_TIMER	4
#define LATT_EV_IRQ_DEVICE	5
#define LATT_EV_IRQ_IPI		6
#define LATT_EV_IRQ_RESCHED	7
#define LATT_EV_IRQ_WORK	8
#define LATT_EV_SOFTIRQ		9
#define LATT_EV_FAULT		10
#define LATT_EV_GAP		11	/* time lost between samples */
#define LATT_EV_KINDS		12

/* struct latt_wev.sources: the kinds a window's evidence looked for */
#define LATT_EVS_SMI		(1U << 0)
#define LATT_EVS_STEAL		(1U << 1)
#define LATT_EVS_NMI		(1U << 2)
#define LATT_EVS_SWITCH		(1U << 3)
#define LATT_EVS_IRQ		(1U << 4)	/* every hard interrupt kind */
#define LATT_EVS_SOFTIRQ	(1U << 5)
#define LATT_EVS_FAULT		(1U << 6)
#define LATT_EVS_GAP		(1U << 7)
#define LATT_EVS_IRQ_OFF	(1U << 8)	/* interrupts, switches and
						 * faults were shut out (the
						 * module's windows) */
#define LATT_EVS_ALL		0x1ffU

#define LATT_SOFTIRQS		10	/* the kernel's softirq vectors */

/**
 * struct latt_wev - what happened in one window (ABI 2.8)
 * @window: its index among its thread's windows (as latt_outlier.window)
 * @steal_ns: time the hypervisor took during it, ns
 * @gap_max: the longest stretch between two samples not timed by either,
 *	TSC cycles, less the window's shortest (the hwlat tracer's outer
 *	gap)
 * @gap_at: the index of the sample after it (as latt_outlier.sample)
 * @cpu: its thread's CPU
 * @sources: LATT_EVS_*: the kinds looked for
 * @outliers: outlier records in it
 * @ev: events counted, by LATT_EV_*; @ev[LATT_EV_STEAL] and
 *	@ev[LATT_EV_GAP] are 1 where @steal_ns or @gap_max reached 1 us
 * @softirq: softirqs run, by vector (the user engine's)
 * @reserved: zero
 */
struct latt_wev {
	__u64 window;
	__u64 steal_ns;
	__u64 gap_max;
	__u64 gap_at;
	__u32 cpu;
	__u32 sources;
	__u32 outliers;
	__u32 ev[LATT_EV_KINDS];
	__u32 softirq[LATT_SOFTIRQS];
	__u32 reserved;
};

/**
 * struct latt_windows - LATT_IOC_WINDOWS (ABI 2.8): the evidence of the
 *	windows that hold outlier records
 * @wev_ptr: in: struct latt_wev[@len], or 0 for the counts only
 * @len: in: records the buffer holds; out: records copied
 * @sources: out: LATT_EVS_* the module's windows looked for
 * @kept: out: records the module holds, thread after thread, each
 *	thread's in window order (as the outlier records); at most one a
 *	record, so never more than the run's outlier records
 * @quiet_windows: out: windows without a record that held an event
 * @quiet_ev: out: their events, by LATT_EV_*
 * @reserved: zero
 *
 * The module's windows run with interrupts and preemption off: of the
 * kinds of event only NMIs (counted), SMIs (MSR_SMI_COUNT, Intel, where
 * it reads) and the hypervisor's steal (the KVM steal-time page the
 * kernel registered, where there is one) reach them, and the gap between
 * samples shows what took time unseen.  Kept only for a run with a
 * threshold.  Only valid once the run is no longer running; -ENOENT
 * without a run.
 */
struct latt_windows {
	__u64 wev_ptr;
	__u32 len;
	__u32 sources;
	__u64 kept;
	__u64 quiet_windows;
	__u64 quiet_ev[LATT_EV_KINDS];
	__u64 reserved[2];
};

/**
 * struct latt_traffic - LATT_IOC_START_TRAFFIC (ABI 2.9): a loaded run
 *	whose traffic streams on memory other than the probe's
 * @config_ptr: the run's struct latt_config, as LATT_IOC_START takes it:
 *	LATT_MODE_LOADED.  Its target, node, region, phys_addr, fd and
 *	map_addr are the probe's (thread 0's); its pattern, size, seed, mix,
 *	write_op and delay the traffic's, as in any loaded run.
 * @target: LATT_TARGET_* of the traffic's memory
 * @node: LATT_TARGET_DRAM: its NUMA node, or LATT_NODE_LOCAL (thread 1's
 *	CPU's node); LATT_TARGET_PMEM: for the record, as latt_config.node
 * @region: the traffic's bytes, 1 to LATT_MAX_REGION
 * @phys_addr: LATT_TARGET_PMEM: as latt_config.phys_addr; 0 for DRAM
 * @fd: LATT_TARGET_PMEM: its claim, as latt_config.fd; 0 for DRAM
 * @map_addr: LATT_TARGET_PMEM on device-DAX: as latt_config.map_addr
 * @reserved0: zero
 * @reserved: zero
 *
 * Thread 0 times its accesses on the configuration's target; threads 1 to
 * nr_threads - 1 stream on this one: each over all of @region, or with
 * LATT_CFG_SPLIT each over its own part of it (@region / (nr_threads - 1),
 * rounded as latt_config's parts are).  The traffic's memory is the run's
 * own, never kept (LATT_CFG_REUSE keeps the probe's region only).  Its
 * writes (a --mix) on PMEM need LATT_CFG_FORCE and a claim open for
 * writing.  A load of the traffic that consumes poison fails the run with
 * -EHWPOISON and latt_status.poison_offset LATT_POISON_UNKNOWN: the offset
 * is of the probe's target only.  Needs LATT_FEAT_TRAFFIC.
 */
struct latt_traffic {
	__u64 config_ptr;
	__u32 target;
	__u32 node;
	__u64 region;
	__u64 phys_addr;
	__s32 fd;
	__u32 reserved0;
	__u64 map_addr;
	__u64 reserved[2];
};

/*
 * ABI 2.0 took a magic of its own: 0xB7, ABI 1.x's, is nsfs's (its
 * NS_GET_NSTYPE is bit for bit 1.x's ABORT).  0xBC is free in the 6.12
 * kernel's uapi headers and in Documentation/userspace-api/ioctl/
 * ioctl-number.rst (Documentation/ioctl.md has the line for that file).
 * The structures are 1.3's, unchanged.
 */
#define LATT_IOC_MAGIC		0xBC
/* ABI 1.x's GET_INFO, only to name an old module for what it is */
#define LATT_IOC_MAGIC_V1	0xB7
#define LATT_IOC_GET_INFO_V1	_IOR(LATT_IOC_MAGIC_V1, 0x00, struct latt_info)

#define LATT_IOC_GET_INFO	_IOR(LATT_IOC_MAGIC, 0x00, struct latt_info)
#define LATT_IOC_START		_IOW(LATT_IOC_MAGIC, 0x01, struct latt_config)
#define LATT_IOC_STATUS		_IOR(LATT_IOC_MAGIC, 0x02, struct latt_status)
#define LATT_IOC_ABORT		_IO(LATT_IOC_MAGIC, 0x03)
#define LATT_IOC_RESULT		_IOWR(LATT_IOC_MAGIC, 0x04, struct latt_result)
#define LATT_IOC_THREADS	_IOWR(LATT_IOC_MAGIC, 0x05, struct latt_threads)
#define LATT_IOC_BATCH		_IOWR(LATT_IOC_MAGIC, 0x06, struct latt_batch)
#define LATT_IOC_WINDOWS	_IOWR(LATT_IOC_MAGIC, 0x07, struct latt_windows)
#define LATT_IOC_START_TRAFFIC	_IOW(LATT_IOC_MAGIC, 0x08, struct latt_traffic)

/* Sizes are ABI: checked on both sides. */
#define LATT_INFO_SIZE		112
#define LATT_CONFIG_SIZE	160
#define LATT_STATUS_SIZE	64
#define LATT_OUTLIER_SIZE	48
#define LATT_RESULT_SIZE	(32 + LATT_CONFIG_SIZE + 16 * 8 + 8 + 64)
#define LATT_THREAD_STATS_SIZE	(16 + 20 * 8)
#define LATT_THREADS_SIZE	(24 + 8 + 16 + 32)
#define LATT_BATCH_PAIR_SIZE	8
#define LATT_BATCH_SIZE		64
#define LATT_WEV_SIZE		(32 + 12 + 4 * LATT_EV_KINDS + 4 * LATT_SOFTIRQS + 4)
#define LATT_WINDOWS_SIZE	(32 + 8 * LATT_EV_KINDS + 16)
#define LATT_TRAFFIC_SIZE	64

#endif /* _UAPI_LATTESTER_H */
