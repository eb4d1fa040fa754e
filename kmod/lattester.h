/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lattester.h - the module's internal interfaces
 */
#ifndef _KMOD_LATTESTER_H
#define _KMOD_LATTESTER_H

#include <linux/version.h>
#include <linux/types.h>
#include <linux/mutex.h>
#include <linux/atomic.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <uapi/lattester.h>

struct dax_device;
#include <lattester/pattern.h>
#include <lattester/chase.h>
#include <lattester/core.h>

/*
 * Kernel range: built and tested on Debian 12's 6.1, 6.12 and 6.12-rt.  The
 * oldest API used is dax_direct_access() with an access mode and
 * vmalloc_array() (6.0).  Block devices are never opened by path here (the
 * caller's O_EXCL file is the claim), which keeps the 6.5/6.7/6.9 changes
 * of the block-device open API out of the module; MAX_ORDER/MAX_PAGE_ORDER
 * (6.8) is handled in dram.c.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 0, 0)
#error "lattester needs Linux 6.0 or later (dax_direct_access() with an access mode)"
#endif

/*
 * A window past max(10 x window_us, this) fails the run (-ETIME): far below
 * the watchdogs (hard lockup 10 s, soft lockup and RCU stalls 20 s), far
 * above what a vCPU preempted by its host loses (70 ms were seen under
 * QEMU TCG with 4 vCPUs on 2 host cores: a run must not fail for that).
 */
#define LATT_CEILING_MIN_US	1000000

/*
 * The allocations a START's configuration sizes (histograms, outlier and
 * series buffers, chunk tables, thread records): a failure is the caller's
 * ENOMEM, with lattester-ctl's message, not a page allocation warning and
 * its stack in the kernel log (tests/vm/cases/68-faults).
 */
#define LATT_GFP	(GFP_KERNEL | __GFP_NOWARN)

/**
 * struct latt_region - the target's memory, seen as chunks of
 *	1 << @chunk_shift bytes (LATT_CHUNK, or 2 MiB on a fragmented node)
 * @chunks: DRAM: each chunk's pages
 * @addr: kernel address of each chunk
 * @nchunks: chunks in @addr (DRAM: allocated so far)
 * @chunk_shift: LATT_CHUNK_SHIFT or LATT_CHUNK_MIN_SHIFT
 * @movable: DRAM: some chunk came from ZONE_MOVABLE (never kept)
 * @bytes: the region's length (DRAM: whole chunks)
 * @node: DRAM: the NUMA node; PMEM: NUMA_NO_NODE
 * @map: PMEM: the mapping
 * @claim: PMEM: the owner's file, held
 * @bdev: PMEM on a block device
 * @dax: PMEM on a device-DAX device
 * @dax_checked: PMEM range matched the device's DAX range
 * @phys: PMEM: the range's first byte
 * @pgmaps: PMEM: the dev_pagemaps held while a run runs (latt_pmem_hold())
 * @npgmaps: how many
 *
 * DRAM: physically contiguous chunks allocated on one node, reached through
 * the kernel's direct map (@chunks).  PMEM: one memremap()ed range (@map),
 * cut into chunks for the same lookup, and the file that claims it.
 */
struct latt_region {
	struct page **chunks;
	char **addr;
	u64 nchunks;
	u32 chunk_shift;
	bool movable;
	u64 bytes;
	int node;
	void *map;
	struct file *claim;
	struct block_device *bdev;
	struct dax_device *dax;
	bool dax_checked;
	u64 phys;
	struct dev_pagemap **pgmaps;
	u32 npgmaps;
};

struct latt_run;

/**
 * struct latt_thread - one kthread of a run and what it found
 * @run: the run it belongs to
 * @done: samples taken so far, for STATUS
 * @task: the kthread, referenced until it is stopped
 * @idx: its index in the run, from 0
 * @rec: what it records, as the user engine's threads do (core.h's
 *	struct latt_thread_rec): its CPU, role, error (-EINTR when stopped),
 *	part of the region, its record of its samples (@rec.acct: histogram,
 *	LATT_HIST_BUCKETS, latency only; outlier records, its share of the
 *	configuration's max_outliers; min, max, sums, backwards, NMI
 *	windows, the longest window, the calibrated overhead it subtracts),
 *	samples counted, its calibrations (the one that corrects, its
 *	minimum and maximum; before the start; after the samples, or across
 *	them under load: 0 = unknown),
 *	streamed accesses and bytes, windows run (latt_run_windows() reads
 *	@rec.windows meanwhile), the TSC as its samples or streaming began
 *	and ended
 * @series: bandwidth: series_len bins
 * @timer_step: latt_timer_step() on its CPU
 * @dax_id: its window's dax_read_lock()
 * @batch_lines: a run with batches (ABI 2.7): a batch's blocks, 2K + 1
 *	entries (core.h's struct latt_step.lines); NULL without
 * @batch_offs: their offsets in the region, 2K entries
 * @chase_pos: a pointer chase's place where the samples left it, where
 *	the batches go on (ABI 2.7)
 * @chase_opos: an offset chase's, likewise
 * @wev: ABI 2.8, a run with outlier records: the evidence of each window
 *	that holds one of its records, room for @max_wev (its records'
 *	room); NULL without
 * @nr_wev: evidence records in @wev
 * @max_wev: their room
 * @quiet_windows: windows without a record that held an event
 * @quiet_ev: their events, by LATT_EV_*
 * @ev_sources: LATT_EVS_* its windows look for
 * @steal: its CPU's KVM steal-time record (struct kvm_steal_time), the
 *	one the kernel registered; NULL where there is none
 *
 * Written by that kthread only, read once the run has stopped.
 */
struct latt_thread {
	struct latt_run *run;
	atomic64_t done;
	struct task_struct *task;
	u32 idx;
	struct latt_thread_rec rec;	/* what it records (core.h) */
	u64 *series;
	u64 timer_step;
	int dax_id;
	char **batch_lines;
	u64 *batch_offs;
	char *chase_pos;
	u64 chase_opos;
	struct latt_wev *wev;
	u32 nr_wev, max_wev;
	u64 quiet_windows;
	u64 quiet_ev[LATT_EV_KINDS];
	u32 ev_sources;
	void *steal;
} ____cacheline_aligned_in_smp;	/* one thread's writes, one CPU's lines */

/**
 * struct latt_run - one run: what was asked, where it stands, what it found
 * @cfg: the configuration, checked, its defaults resolved
 * @region: the target's memory
 * @tcfg: ABI 2.9, LATT_IOC_START_TRAFFIC: the traffic's target, checked
 *	(its node resolved); @tcfg.region 0 without one
 * @traffic: its memory, where the streaming threads go: the run's own,
 *	freed with it, never kept
 * @fn: the sample function (NULL for chase)
 * @batch_fn: the batch of the same access (ABI 2.7, latt_config.batch;
 *	NULL for chase, whose batches are longer chains)
 * @chase: chase through pointers (DRAM)
 * @chase_off: chase through offsets (PMEM)
 * @timer: LATT_TIMER_*
 * @timer_step: thread 0's, cycles
 * @page_size: bytes of the page that maps the region's first byte
 * @chunk_size: of the region, bytes
 * @keep: LATT_CFG_REUSE: the region outlives the run, for the next START
 * @reused: took the previous run's region
 * @chain_reused: ... and its chase chain, built
 * @starter: identity only: who started it
 * @tsc_unstable: the kernel said so by the end
 * @stream_fn: bandwidth without a mix
 * @read_fn: the mix's loads, and loaded traffic
 * @write_fn: the mix's writes
 * @mix_fn: the mix's loads and writes in one call a batch
 * @vector: vector registers are used (accesses wider than 8 bytes but
 *	movdir64b's, or streams at such a width): windows save the FPU state
 * @dax_checked: from the region, which goes first
 * @width: access width, bytes
 * @window_cycles: window_us in TSC cycles
 * @ceiling_cycles: latt_ceiling()
 * @duration_cycles: duration_us in TSC cycles
 * @series_cycles: bandwidth: one series bin's TSC cycles
 * @series_len: bandwidth: bins in each thread's series
 * @nr_threads: threads, and entries of @cpus and @threads
 * @cpus: each thread's CPU
 * @threads: the threads
 * @refs: latt_cur's, and RESULT's copies
 * @stop_lock: serializes latt_run_stop()
 * @abort: READ_ONCE/WRITE_ONCE: user asked
 * @halt: every thread: stop at window end
 * @latency_done: loaded: thread 0 is done
 * @ready: threads at the start line
 * @live: threads not yet ended
 * @tsc_go: the common start, 0 until set
 * @progress: bandwidth: the most reported, us
 * @state: LATT_STATE_*
 * @error: the first thread's failure: cmpxchg by threads, READ_ONCE
 * @hist: merged: LATT_HIST_BUCKETS counters
 * @merged: the threads' records merged (core.h's latt_acct_merge()):
 *	@hist, extremes, sums (sum_corrected: each by its own overhead),
 *	overflows, samples with t1 < t0, outliers seen, dropped and recorded,
 *	NMI windows, the longest window of any thread
 * @count: merged: samples counted
 * @overhead: thread 0's calibration, median (loaded: under load)
 * @overhead_min: thread 0's
 * @overhead_max: thread 0's
 * @overhead_idle: thread 0's, before the start
 * @overhead_end: thread 0's
 * @bytes_read: merged: streamed bytes read
 * @bytes_written: merged: streamed bytes written
 * @windows: merged: windows run
 * @tsc_start: @tsc_go, once merged
 * @tsc_end: the last thread's end
 * @batch: the pairs of batches (ABI 2.7): K (0: none) and, with K, a
 *	record for each of the configuration's batch_pairs, set at START;
 *	filled by thread 0, the run's only thread, after its samples
 *
 * The configuration is written once before the kthreads start; each
 * thread's figures by that thread; the merged figures (@hist, the sums) by
 * whoever ends the run, before the state leaves RUNNING.  Progress is an
 * atomic.
 */
struct latt_run {
	struct latt_config cfg;
	struct latt_region region;
	struct latt_traffic tcfg;
	struct latt_region traffic;
	latt_sample_fn fn;
	latt_batch_fn batch_fn;
	latt_chase_fn chase;
	latt_chase_off_fn chase_off;
	int timer;
	u64 timer_step;
	u64 page_size;
	u64 chunk_size;
	bool keep;
	bool reused;
	bool chain_reused;
	struct file *starter;
	bool tsc_unstable;
	latt_stream_fn stream_fn;
	latt_stream_fn read_fn, write_fn;
	latt_mix_fn mix_fn;
	bool vector;
	bool dax_checked;
	u32 width;
	u64 window_cycles;
	u64 ceiling_cycles;
	u64 duration_cycles;
	u64 series_cycles;
	u32 series_len;

	u32 nr_threads;
	u32 *cpus;
	struct latt_thread *threads;

	refcount_t refs;
	struct mutex stop_lock;
	bool abort;
	bool halt;
	bool latency_done;
	atomic_t ready;
	atomic_t live;
	u64 tsc_go;
	atomic64_t progress;
	atomic_t state;
	int error;

	/* merged, once the threads are done */
	u64 *hist;
	struct latt_acct merged;
	u64 count;
	u64 overhead, overhead_min, overhead_max, overhead_idle, overhead_end;
	u64 bytes_read, bytes_written;
	u64 windows;
	u64 tsc_start, tsc_end;
	struct latt_batch_rec batch;
};

/* ops.c */
u64 latt_features(void);
u32 latt_widths(void);
int latt_check_config(struct latt_config *c, bool traffic);
int latt_pick(struct latt_run *run);
int latt_pick_streams(struct latt_run *run);
bool latt_op_is_store(u32 op);

/* dram.c */
extern unsigned int latt_max_chunk_kib;
int latt_region_alloc(struct latt_region *r, u64 bytes, int node, u64 size);
void latt_region_free(struct latt_region *r);
static inline char *latt_region_addr(const struct latt_region *r, u64 off)
{
	return r->addr[off >> r->chunk_shift] +
	       (off & ((1ULL << r->chunk_shift) - 1));
}

/*
 * The offset in the region of a kernel address of it: latt_region_addr()
 * backwards, LATT_MC_UNKNOWN when @p lies outside.  Only for a poisoned
 * pointer-chase node (core.h's latt_step.off_of): a walk of the chunks.
 */
static inline u64 latt_region_offset(void *region, const char *p)
{
	const struct latt_region *r = region;
	const u64 chunk = 1ULL << r->chunk_shift;
	u64 i;

	for (i = 0; i < r->nchunks; i++)
		if (p >= r->addr[i] && p < r->addr[i] + chunk)
			return (i << r->chunk_shift) + (p - r->addr[i]);
	return LATT_MC_UNKNOWN;
}
int latt_chase_build(struct latt_run *run, struct latt_pattern *pat,
		     u64 *mc_off);

/* pmem.c */
int latt_pmem_map(struct latt_region *r, u64 phys, u64 size, int fd,
		  u64 map_addr, bool writes, bool chase);
bool latt_region_gone(const struct latt_region *r);
int latt_pmem_recheck(struct latt_region *r, u64 phys, u64 size,
		      u64 map_addr, bool writes);
int latt_pmem_hold(struct latt_region *r);
void latt_pmem_release(struct latt_region *r);

/* run.c */
int latt_run_start(struct latt_run *run);
void latt_run_progress(struct latt_run *run, u64 *done, u64 *total);
u64 latt_run_windows(struct latt_run *run);
void latt_run_stop(struct latt_run *run);
void latt_run_put(struct latt_run *run);

#endif /* _KMOD_LATTESTER_H */
