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

#define LATT_DEFAULT_WINDOW_US	500
#define LATT_CALIB_SAMPLES	1024
#define LATT_WARMUP_US		10000	/* spin before calibrating */
/*
 * A window past max(10 x window_us, this) fails the run (-ETIME): far below
 * the watchdogs (hard lockup 10 s, soft lockup and RCU stalls 20 s), far
 * above what a vCPU preempted by its host loses (70 ms were seen under
 * QEMU TCG with 4 vCPUs on 2 host cores: a run must not fail for that).
 */
#define LATT_CEILING_MIN_US	1000000

/* The access a sample times, the traffic a thread streams (access.h). */
typedef __u64 (*latt_sample_fn)(char *addr, __u64 size);
typedef void (*latt_stream_fn)(char *addr, __u64 size);
typedef __u64 (*latt_chase_fn)(char **pos, __u32 chain);
typedef __u64 (*latt_chase_off_fn)(char *base, __u64 mask, __u64 *pos,
				   __u32 chain);

/**
 * struct latt_region - the target's memory, seen as chunks of
 *	1 << @chunk_shift bytes (LATT_CHUNK, or 2 MiB on a fragmented node)
 *
 * DRAM: physically contiguous chunks allocated on one node, reached through
 * the kernel's direct map (@chunks).  PMEM: one memremap()ed range (@map),
 * cut into chunks for the same lookup, and the file that claims it.
 */
struct latt_region {
	struct page **chunks;	/* DRAM */
	char **addr;		/* kernel address of each chunk */
	u64 nchunks;
	u32 chunk_shift;	/* LATT_CHUNK_SHIFT or LATT_CHUNK_MIN_SHIFT */
	u64 bytes;
	int node;
	void *map;		/* PMEM: the mapping */
	struct file *claim;	/* PMEM: the owner's file, held */
	struct block_device *bdev; /* PMEM on a block device */
	struct dax_device *dax;	/* PMEM on a device-DAX device */
	bool dax_checked;	/* PMEM range matched the device's DAX range */
};

struct latt_run;

/**
 * struct latt_thread - one kthread of a run and what it found.  Written by
 * that kthread only, read once the run has stopped.
 */
struct latt_thread {
	struct latt_run *run;
	atomic64_t done;		/* samples, for STATUS */
	struct task_struct *task;
	u32 idx;
	u32 cpu;
	u32 role;			/* LATT_ROLE_* */
	int error;
	u64 part_offset, part_bytes;

	u64 *hist;			/* LATT_HIST_BUCKETS; latency only */
	struct latt_outlier *outliers;
	u32 max_outliers, nr_outliers;
	u64 *series;			/* bandwidth: series_len bins */

	u64 count, min, max, sum, sum_corrected, hist_overflow;
	u64 overhead, overhead_min, overhead_max, overhead_end;
	u64 backwards;			/* samples with t1 < t0 */
	u64 timer_step;			/* latt_timer_step() on its CPU */
	int dax_id;			/* its window's dax_read_lock() */
	u64 accesses, bytes_read, bytes_written;
	u64 windows, nmi_windows, window_cycles_max;
	u64 outliers_seen, outliers_dropped;
	u64 tsc_start, tsc_end;
} ____cacheline_aligned_in_smp;	/* one thread's writes, one CPU's lines */

/**
 * struct latt_run - one run: what was asked, where it stands, what it found.
 * The configuration is written once before the kthreads start; each
 * thread's figures by that thread; the merged figures (@hist, the sums) by
 * whoever ends the run, before the state leaves RUNNING.  Progress is an
 * atomic.
 */
struct latt_run {
	struct latt_config cfg;
	struct latt_region region;
	latt_sample_fn fn;
	latt_chase_fn chase;		/* chase through pointers (DRAM) */
	latt_chase_off_fn chase_off;	/* through offsets (PMEM) */
	int timer;			/* LATT_TIMER_* */
	u64 timer_step;			/* thread 0's, cycles */
	u64 page_size;			/* of the region's first byte */
	u64 chunk_size;			/* of the region, bytes */
	bool keep;			/* LATT_CFG_REUSE: the region outlives
					 * the run, for the next START */
	bool reused;			/* took the previous run's region */
	bool chain_reused;		/* ... and its chase chain, built */
	struct file *starter;		/* identity only: who started it */
	bool tsc_unstable;		/* the kernel said so by the end */
	latt_stream_fn stream_fn;	/* bandwidth without a mix */
	latt_stream_fn read_fn, write_fn; /* the mix's, and loaded traffic */
	bool vector;
	bool dax_checked;		/* from the region, which goes first */
	u32 width;
	u64 window_cycles;
	u64 ceiling_cycles;		/* latt_ceiling() */
	u64 duration_cycles;
	u64 series_cycles;
	u32 series_len;

	u32 nr_threads;
	u32 *cpus;
	struct latt_thread *threads;

	refcount_t refs;		/* latt_cur's, and RESULT's copies */
	struct mutex stop_lock;		/* serializes latt_run_stop() */
	bool abort;			/* READ_ONCE/WRITE_ONCE: user asked */
	bool halt;			/* every thread: stop at window end */
	bool latency_done;		/* loaded: thread 0 is done */
	atomic_t ready;			/* threads at the start line */
	atomic_t live;			/* threads not yet ended */
	u64 tsc_go;			/* the common start, 0 until set */
	atomic64_t progress;		/* bandwidth: the most reported, us */
	atomic_t state;			/* LATT_STATE_* */
	int error;			/* cmpxchg by threads, READ_ONCE */

	/* merged, once the threads are done */
	u64 *hist;			/* LATT_HIST_BUCKETS */
	u32 nr_outliers;
	u64 count, min, max, sum, sum_corrected, hist_overflow;
	u64 overhead, overhead_min, overhead_max, overhead_end;
	u64 backwards;
	u64 bytes_read, bytes_written;
	u64 windows, nmi_windows, window_cycles_max;
	u64 outliers_seen, outliers_dropped;
	u64 tsc_start, tsc_end;
};

/* ops.c */
u64 latt_features(void);
u32 latt_widths(void);
int latt_check_config(struct latt_config *c);
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
int latt_chase_build(struct latt_run *run, struct latt_pattern *pat);
int latt_split_part(u64 region, u32 n, u64 size, u64 *part);

/* pmem.c */
int latt_pmem_map(struct latt_region *r, u64 phys, u64 size, int fd,
		  u64 map_addr, bool writes, bool chase);
bool latt_region_gone(const struct latt_region *r);

/* run.c */
int latt_run_start(struct latt_run *run);
void latt_run_progress(struct latt_run *run, u64 *done, u64 *total);
u64 latt_run_windows(struct latt_run *run);
void latt_run_stop(struct latt_run *run);
void latt_run_put(struct latt_run *run);

#endif /* _KMOD_LATTESTER_H */
