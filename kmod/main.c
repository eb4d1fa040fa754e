// SPDX-License-Identifier: GPL-2.0
/*
 * lattester - time single memory accesses from the kernel
 *
 * /dev/lattester (root only) takes a run's configuration through ioctl
 * (include/uapi/lattester.h), checks every field, allocates the target on
 * the asked node and starts one kthread bound to the asked CPU (run.c).
 * Results stay in the module until the next run starts or the module goes,
 * and are read with LATT_IOC_RESULT (each thread's with LATT_IOC_THREADS,
 * the batches' with LATT_IOC_BATCH); nothing is reported through dmesg.
 *
 * One run at a time: a START while a run goes returns -EBUSY.  Closing the
 * file that started a run aborts it; so does module unload.
 *
 * LATT_CFG_REUSE (a sweep's points): the run's region outlives it, held by
 * the run that stays latt_cur, and the next START of the same file takes
 * it when it asks for the same memory (latt_kept_matches()).  Any other
 * START frees it before allocating; so do closing that file, rmmod, and
 * the shrinker when memory runs short.  See
 * Documentation/methodology.md for what a figure means, and
 * Documentation/ABI/testing/sysfs-class-misc-lattester for the attributes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/nodemask.h>
#include <linux/topology.h>
#include <linux/capability.h>
#include <linux/file.h>
#include <linux/shrinker.h>
#include <linux/version.h>
#include <asm/tsc.h>
#include <lattester/access.h>
#include <lattester/quantum.h>
#include "lattester.h"

static_assert(sizeof(struct latt_info) == LATT_INFO_SIZE);
static_assert(sizeof(struct latt_config) == LATT_CONFIG_SIZE);
static_assert(sizeof(struct latt_status) == LATT_STATUS_SIZE);
static_assert(sizeof(struct latt_outlier) == LATT_OUTLIER_SIZE);
static_assert(sizeof(struct latt_result) == LATT_RESULT_SIZE);
static_assert(sizeof(struct latt_thread_stats) == LATT_THREAD_STATS_SIZE);
static_assert(sizeof(struct latt_threads) == LATT_THREADS_SIZE);
static_assert(sizeof(struct latt_batch_pair) == LATT_BATCH_PAIR_SIZE);
static_assert(sizeof(struct latt_batch) == LATT_BATCH_SIZE);
static_assert(sizeof(struct latt_wev) == LATT_WEV_SIZE);
static_assert(sizeof(struct latt_windows) == LATT_WINDOWS_SIZE);
static_assert(sizeof(struct latt_traffic) == LATT_TRAFFIC_SIZE);

static DEFINE_MUTEX(latt_lock);		/* guards everything below */
static struct latt_run *latt_cur;	/* the last run, if any */
static struct file *latt_owner;		/* the file that started it */
static bool latt_starting;		/* a START is allocating */
static unsigned int latt_window_us = LATT_DEFAULT_WINDOW_US;

static const char *const latt_state_names[] = {
	[LATT_STATE_IDLE] = "idle",
	[LATT_STATE_RUNNING] = "running",
	[LATT_STATE_DONE] = "done",
	[LATT_STATE_ABORTED] = "aborted",
	[LATT_STATE_FAILED] = "failed",
};

/* The run's state; once not RUNNING, its counters are final and visible. */
static u32 latt_run_state(struct latt_run *run)
{
	u32 s;

	if (!run)
		return LATT_STATE_IDLE;
	s = atomic_read(&run->state);
	smp_rmb();	/* pairs with smp_wmb() at the kthread's end */
	return s;
}

static bool latt_all_zero(const u64 *v, size_t n)
{
	while (n--)
		if (*v++)
			return false;
	return true;
}

/**
 * latt_threads_check() - copy and check a run's CPUs
 * @run: a run whose configuration passed latt_config_check()
 *
 * Return: 0 with @run->cpus and @run->nr_threads set; -EFAULT; -ENOMEM;
 * -EINVAL for a CPU out of range, a duplicate, too many threads, a first
 * CPU other than .cpu, a region too small to split; -ENODEV for a CPU that
 * is offline.
 */
static int latt_threads_check(struct latt_run *run)
{
	const struct latt_config *c = &run->cfg;
	u32 i, n = c->nr_threads ? c->nr_threads : 1;
	cpumask_var_t seen;
	u64 part;
	int ret = 0;

	if (n > LATT_MAX_THREADS || n > nr_cpu_ids ||
	    (n > 1 && !c->cpus_ptr) || (c->cpus_ptr && !c->nr_threads))
		return -EINVAL;
	/* a traffic target's parts: latt_traffic_check() */
	if (c->flags & LATT_CFG_SPLIT && !run->tcfg.region) {
		struct latt_pattern pat;

		/* each thread's generator runs on its part: check it there */
		if (latt_split_part(c->region, n, c->size, &part) ||
		    latt_pattern_init(&pat, c->pattern, c->size, c->stride,
				      part, c->seed))
			return -EINVAL;
	}
	if (c->cpus_ptr) {
		run->cpus = memdup_user(u64_to_user_ptr(c->cpus_ptr),
					array_size(n, sizeof(u32)));
		if (IS_ERR(run->cpus)) {
			ret = PTR_ERR(run->cpus);
			run->cpus = NULL;
			return ret;
		}
	} else {
		run->cpus = kmalloc(sizeof(u32), GFP_KERNEL);
		if (!run->cpus)
			return -ENOMEM;
		run->cpus[0] = c->cpu;
	}
	run->nr_threads = n;
	if (run->cpus[0] != c->cpu)
		return -EINVAL;
	if (!zalloc_cpumask_var(&seen, GFP_KERNEL))
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++) {
		if (run->cpus[i] >= nr_cpu_ids ||
		    cpumask_test_and_set_cpu(run->cpus[i], seen))
			ret = -EINVAL;
		else if (!cpu_online(run->cpus[i]))
			ret = -ENODEV;
	}
	free_cpumask_var(seen);
	return ret;
}

/**
 * latt_config_check() - check every field and resolve the defaults
 * @run: the run, whose configuration from userspace is completed in place
 *
 * First the rules both engines share (include/lattester/rules.h: fields,
 * flags, modes, limits, chase, the pattern's sizes), then what only the
 * module knows (CPUs, nodes, the TSC), then the sample function and timer.
 *
 * Return: 0; -EINVAL for a field out of its range or a non-zero reserved
 * field; -ENODEV for a CPU that is offline or a node that is not online or
 * has no memory; -EOPNOTSUPP for an op or width this CPU lacks; -EPERM for
 * an op that would overwrite a PMEM target without LATT_CFG_FORCE.
 */
static int latt_config_check(struct latt_run *run)
{
	struct latt_config *c = &run->cfg;
	int ret;

	/* what the probe's target sees: a traffic target takes the rest */
	ret = latt_check_config(c, run->tcfg.region != 0);
	if (ret)
		return ret;
	if (c->cpu >= nr_cpu_ids)
		return -EINVAL;
	if (!cpu_online(c->cpu))
		return -ENODEV;
	/* beyond the possible nodes (/sys/devices/system/node/possible) */
	if (c->target == LATT_TARGET_PMEM) {
		/* told by userspace, for the record; nothing is allocated */
		if (c->node != LATT_NODE_LOCAL && c->node >= nr_node_ids)
			return -EINVAL;
	} else {
		if (c->node == LATT_NODE_LOCAL)
			c->node = cpu_to_node(c->cpu);
		if (c->node >= nr_node_ids)
			return -EINVAL;
		if (!node_online(c->node) || !node_state(c->node, N_MEMORY))
			return -ENODEV;
	}

	if (!tsc_khz)	/* no calibrated TSC: no time to keep windows by */
		return -EOPNOTSUPP;
	if (!c->window_us)
		c->window_us = READ_ONCE(latt_window_us);
	return latt_pick(run);
}

/**
 * latt_traffic_check() - check a run's traffic target (ABI 2.9)
 * @run: a run whose configuration and threads passed their checks, with
 *	@run->tcfg as userspace gave it
 *
 * rules.h's latt_traffic_rules(), then what only the module knows: the
 * node of DRAM ("local": thread 1's CPU's), online and with memory.
 *
 * Return: 0; -EINVAL, -EPERM as the rules say; -ENODEV for a node that is
 * not online or has no memory.
 */
static int latt_traffic_check(struct latt_run *run)
{
	struct latt_traffic *t = &run->tcfg;
	const char *why = NULL;
	int ret = latt_traffic_rules(&run->cfg, t, &why);

	if (ret) {
		pr_debug("START_TRAFFIC refused: %s\n", why);
		return ret;
	}
	if (t->target == LATT_TARGET_PMEM)
		return t->node != LATT_NODE_LOCAL && t->node >= nr_node_ids ?
		       -EINVAL : 0;
	if (t->node == LATT_NODE_LOCAL)
		t->node = cpu_to_node(run->cpus[1]);
	if (t->node >= nr_node_ids)
		return -EINVAL;
	if (!node_online(t->node) || !node_state(t->node, N_MEMORY))
		return -ENODEV;
	return 0;
}

/*
 * The traffic's memory (ABI 2.9): DRAM on its node, or the PMEM range its
 * claim owns, mapped and held as a run's region is; never kept.
 */
static int latt_traffic_map(struct latt_run *run)
{
	const struct latt_traffic *t = &run->tcfg;
	int ret;

	if (t->target != LATT_TARGET_PMEM)
		return latt_region_alloc(&run->traffic, t->region, t->node,
					 run->cfg.size);
	ret = latt_pmem_map(&run->traffic, t->phys_addr, t->region, t->fd,
			    t->map_addr, run->cfg.mix_write, false);
	return ret ? ret : latt_pmem_hold(&run->traffic);
}

/* Does @run overwrite its target?  rules.h's latt_target_writes(). */
static bool latt_run_writes(const struct latt_run *run)
{
	return latt_target_writes(&run->cfg, run->tcfg.region != 0);
}

/*
 * The region the last run kept (LATT_CFG_REUSE), moved out of it into
 * @out: the caller owns it then.  Only from a run that has ended, and with
 * @starter, only from one that file started.  Under latt_lock.
 */
static bool latt_take_kept(struct file *starter, struct latt_region *out)
{
	struct latt_run *old = latt_cur;

	/* the state first: a run that fails frees its region while RUNNING */
	if (!old || latt_run_state(old) == LATT_STATE_RUNNING || !old->keep ||
	    !old->region.nchunks || (starter && old->starter != starter))
		return false;
	*out = old->region;
	memset(&old->region, 0, sizeof(old->region));
	return true;
}

/*
 * May @run take the region @old kept (@r)?  The same memory asked for by
 * the same file: target, node, bytes, the PMEM range, its claim (the very
 * file: fget() of the new fd gives the one the region holds) and its
 * mapping; and what the new run does must be allowed on it, as
 * latt_pmem_map() would check: writes through a claim opened for them, a
 * chase over a power of two, an access no larger than a chunk.  Under
 * latt_lock.
 */
static bool latt_kept_matches(const struct latt_run *old,
			      const struct latt_run *run,
			      const struct latt_region *r, struct file *claim)
{
	const struct latt_config *a = &old->cfg, *b = &run->cfg;

	if (a->target != b->target || a->node != b->node ||
	    a->region != b->region || a->phys_addr != b->phys_addr ||
	    a->map_addr != b->map_addr || b->size > 1ULL << r->chunk_shift)
		return false;
	if (b->target != LATT_TARGET_PMEM)
		return true;
	if (!claim || claim != r->claim)
		return false;
	if (latt_run_writes(run) && !(claim->f_mode & FMODE_WRITE))
		return false;
	return b->pattern != LATT_PAT_CHASE || is_power_of_2(b->region);
}

/*
 * Does the region @old kept hold the chase chain @run would build?  Only
 * on DRAM, which nothing but the module writes (others may write a pmem
 * device between runs), after a chase of the same layout that ran to its
 * end: the run right before, so no store run came between.  Under
 * latt_lock.
 */
static bool latt_chain_matches(struct latt_run *old,
			       const struct latt_run *run)
{
	const struct latt_config *a = &old->cfg, *b = &run->cfg;

	return b->target == LATT_TARGET_DRAM &&
	       a->pattern == LATT_PAT_CHASE && b->pattern == LATT_PAT_CHASE &&
	       a->size == b->size && a->seed == b->seed &&
	       a->stride == b->stride &&
	       latt_run_state(old) == LATT_STATE_DONE;
}

/* Free what latt_cur kept, if @starter's (any file's: NULL). */
static void latt_free_kept(struct file *starter)
{
	struct latt_region kept;
	bool took;

	mutex_lock(&latt_lock);
	took = latt_take_kept(starter, &kept);
	mutex_unlock(&latt_lock);
	if (took)
		latt_region_free(&kept);
}

/*
 * START, and ABI 2.9's START_TRAFFIC: @arg the configuration, @tr the
 * traffic's target (NULL: none, the traffic streams on the run's region).
 */
static long latt_ioctl_start(struct file *file, void __user *arg,
			     const struct latt_traffic *tr)
{
	struct latt_run *run, *old;
	struct latt_region kept;
	struct file *claim = NULL;
	bool took, reuse = false, writes;
	int ret;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	refcount_set(&run->refs, 1);
	mutex_init(&run->stop_lock);
	if (copy_from_user(&run->cfg, arg, sizeof(run->cfg))) {
		kfree(run);
		return -EFAULT;
	}
	if (tr)
		run->tcfg = *tr;
	ret = latt_config_check(run);
	writes = latt_run_writes(run);
	if (!ret)
		ret = latt_threads_check(run);
	if (!ret && tr)
		ret = latt_traffic_check(run);
	if (!ret)
		ret = latt_pick_streams(run);
	if (ret) {
		kfree(run->cpus);
		kfree(run);
		return ret;
	}

	/*
	 * Claim the right to start, then allocate (which may take a while
	 * for a large region) without holding the lock, so that STATUS,
	 * ABORT and sysfs readers are not held up.
	 */
	mutex_lock(&latt_lock);
	if (latt_starting ||
	    latt_run_state(latt_cur) == LATT_STATE_RUNNING) {
		mutex_unlock(&latt_lock);
		kfree(run->cpus);
		kfree(run);
		return -EBUSY;
	}
	latt_starting = true;
	run->keep = run->cfg.flags & LATT_CFG_REUSE;
	run->starter = file;
	/* what the last run kept is taken, or freed before allocating */
	if (run->keep && run->cfg.target == LATT_TARGET_PMEM)
		claim = fget(run->cfg.fd);
	took = latt_take_kept(NULL, &kept);
	if (took && run->keep && latt_owner == file)
		reuse = latt_kept_matches(latt_cur, run, &kept, claim);
	if (reuse)
		run->chain_reused = latt_chain_matches(latt_cur, run);
	mutex_unlock(&latt_lock);
	if (claim)
		fput(claim);

	if (took && !reuse)
		latt_region_free(&kept);
	ret = 0;
	/* what a kept pmem region may have got meanwhile: bad blocks */
	if (reuse && run->cfg.target == LATT_TARGET_PMEM)
		ret = latt_pmem_recheck(&kept, run->cfg.phys_addr,
					run->cfg.region, run->cfg.map_addr,
					writes);
	if (reuse) {
		run->region = kept;	/* freed with the run if refused */
		run->reused = !ret;
		run->chain_reused = run->chain_reused && !ret;
	} else if (run->cfg.target == LATT_TARGET_PMEM)
		ret = latt_pmem_map(&run->region, run->cfg.phys_addr,
				    run->cfg.region, run->cfg.fd,
				    run->cfg.map_addr, writes,
				    run->cfg.pattern == LATT_PAT_CHASE);
	else
		ret = latt_region_alloc(&run->region, run->cfg.region,
					run->cfg.node, run->cfg.size);

	run->dax_checked = run->region.dax_checked;
	/* the device can't let go of a PMEM range while the run has it */
	if (!ret)
		ret = latt_pmem_hold(&run->region);
	if (!ret && tr)
		ret = latt_traffic_map(run);
	/* per-thread buffers and up to LATT_MAX_THREADS kthreads: unlocked */
	if (!ret)
		ret = latt_run_start(run);
	mutex_lock(&latt_lock);
	latt_starting = false;
	if (ret) {
		/* the previous run's results stay readable */
		mutex_unlock(&latt_lock);
		latt_run_put(run);
		return ret;
	}
	old = latt_cur;
	latt_cur = run;
	latt_owner = file;
	mutex_unlock(&latt_lock);
	latt_run_put(old);	/* not running: only its results */
	return 0;
}

/* The threads' outlier records, thread after thread, up to @len. */
static int latt_copy_outliers(struct latt_run *run,
			      struct latt_outlier __user *dst, u32 len, u32 *n)
{
	struct latt_thread *t;
	u32 i, k;

	*n = 0;
	for (i = 0; i < run->nr_threads && *n < len; i++) {
		t = &run->threads[i];
		k = min(len - *n, t->rec.acct.nr_outliers);
		if (copy_to_user(dst + *n, t->rec.acct.outliers,
				 array_size(k, sizeof(*t->rec.acct.outliers))))
			return -EFAULT;
		*n += k;
	}
	return 0;
}

/*
 * A reference to the current run, if it is not running; -ENOENT without
 * one, -EBUSY while it runs.  @state: out, its state.
 */
static struct latt_run *latt_get_stopped(u32 *state)
{
	struct latt_run *run;

	mutex_lock(&latt_lock);
	run = latt_cur;
	if (!run) {
		mutex_unlock(&latt_lock);
		return ERR_PTR(-ENOENT);
	}
	*state = latt_run_state(run);
	if (*state == LATT_STATE_RUNNING) {
		mutex_unlock(&latt_lock);
		return ERR_PTR(-EBUSY);
	}
	refcount_inc(&run->refs);
	mutex_unlock(&latt_lock);
	return run;
}

/* Copy each thread's record, histogram and series the caller has room for */
static int latt_copy_threads(struct latt_run *run, struct latt_threads *a)
{
	struct latt_thread_stats __user *sp = u64_to_user_ptr(a->stats_ptr);
	u64 __user *hp = u64_to_user_ptr(a->hist_ptr);
	u64 __user *bp = u64_to_user_ptr(a->series_ptr);
	u32 i, n = min(a->len, run->nr_threads);
	u32 bins = min(a->series_len, run->series_len);
	const size_t hbytes = LATT_HIST_BUCKETS * sizeof(u64);
	struct latt_thread_stats st;
	u64 __user *hist;
	struct latt_thread *t;

	for (i = 0; i < n; i++) {
		t = &run->threads[i];
		memset(&st, 0, sizeof(st));	/* every byte, written or not */
		latt_thread_stats_of(&t->rec, cpu_to_node(t->rec.cpu), &st);
		if (sp && copy_to_user(sp + i, &st, sizeof(st)))
			return -EFAULT;
		hist = hp + (size_t)i * LATT_HIST_BUCKETS;
		if (hp && (t->rec.acct.hist ?
			   copy_to_user(hist, t->rec.acct.hist, hbytes) :
			   clear_user(hist, hbytes)))
			return -EFAULT;
		if (bp && bins && t->series &&
		    copy_to_user(bp + (size_t)i * a->series_len, t->series,
				 array_size(bins, sizeof(u64))))
			return -EFAULT;
	}
	return 0;
}

static long latt_ioctl_threads(void __user *arg)
{
	struct latt_threads a;
	struct latt_run *run;
	u32 state;
	int ret;

	if (copy_from_user(&a, arg, sizeof(a)))
		return -EFAULT;
	if (!latt_all_zero(a.reserved, ARRAY_SIZE(a.reserved)))
		return -EINVAL;
	run = latt_get_stopped(&state);
	if (IS_ERR(run))
		return PTR_ERR(run);
	ret = latt_copy_threads(run, &a);
	a.len = run->nr_threads;
	a.series_len = run->series_len;
	a.series_cycles = run->series_cycles;
	a.tsc_go = run->tsc_go;
	if (!ret && copy_to_user(arg, &a, sizeof(a)))
		ret = -EFAULT;
	latt_run_put(run);
	return ret;
}

static long latt_ioctl_result(void __user *arg)
{
	struct latt_result r;
	struct latt_run *run;
	u32 n;
	int ret = 0;

	if (copy_from_user(&r, arg, sizeof(r)))
		return -EFAULT;

	/*
	 * Take a reference and copy without the lock: a user buffer whose
	 * page fault takes forever (userfaultfd, FUSE) must not hold up
	 * STATUS, ABORT, sysfs or the close that aborts a run.  A run that
	 * is not running changes no more.
	 */
	run = latt_get_stopped(&r.state);
	if (IS_ERR(run))
		return PTR_ERR(run);

	if (r.hist_ptr) {
		n = min_t(u32, r.hist_len, LATT_HIST_BUCKETS);
		if (copy_to_user(u64_to_user_ptr(r.hist_ptr), run->hist,
				 array_size(n, sizeof(u64)))) {
			ret = -EFAULT;
			goto out;
		}
	}
	r.hist_len = LATT_HIST_BUCKETS;
	n = 0;
	if (r.outlier_ptr) {
		ret = latt_copy_outliers(run, u64_to_user_ptr(r.outlier_ptr),
					 r.outlier_len, &n);
		if (ret)
			goto out;
	}
	r.outlier_len = n;
	r.error = run->error;
	r.config = run->cfg;
	latt_acct_result(&run->merged, run->count, &r);
	r.overhead = run->overhead;
	r.overhead_min = run->overhead_min;
	r.overhead_max = run->overhead_max;
	r.overhead_end = run->overhead_end;
	r.overhead_idle = run->overhead_idle;
	r.timer_step = run->timer_step;
	r.page_size = run->page_size;
	r.chunk_size = run->chunk_size;
	r.windows = run->windows;
	r.tsc_start = run->tsc_start;
	r.tsc_end = run->tsc_end;
	r.flags = (run->vector ? LATT_RES_VECTOR : 0) |
		  (run->dax_checked ? LATT_RES_DAX : 0) |
		  (run->timer == LATT_TIMER_RDTSC ? LATT_RES_TIMER_RDTSC : 0) |
		  (run->tsc_unstable ? LATT_RES_TSC_UNSTABLE : 0) |
		  (run->reused ? LATT_RES_REUSED : 0) |
		  (run->chain_reused ? LATT_RES_CHAIN_REUSED : 0);
	r.width = run->width;
	r.bytes_read = run->bytes_read;
	r.bytes_written = run->bytes_written;
	if (copy_to_user(arg, &r, sizeof(r)))
		ret = -EFAULT;
out:
	latt_run_put(run);
	return ret;
}

/*
 * LATT_IOC_BATCH (ABI 2.7): the run's pairs of batches, as many as the
 * caller has room for, in the order they were taken, and their counts;
 * batch 0 and no pairs for a run that asked for none.  THREADS' rules:
 * -EINVAL for a reserved field set, -ENOENT without a run, -EBUSY while
 * it runs, -EFAULT.  Copied without the lock, as RESULT.
 */
static long latt_ioctl_batch(void __user *arg)
{
	struct latt_batch b;
	struct latt_run *run;
	u32 state, n;
	int ret = 0;

	if (copy_from_user(&b, arg, sizeof(b)))
		return -EFAULT;
	if (!latt_all_zero(b.reserved, ARRAY_SIZE(b.reserved)))
		return -EINVAL;
	run = latt_get_stopped(&state);
	if (IS_ERR(run))
		return PTR_ERR(run);
	n = b.pairs_ptr ? min_t(u64, b.len, run->batch.n) : 0;
	if (n && copy_to_user(u64_to_user_ptr(b.pairs_ptr), run->batch.pairs,
			      array_size(n, sizeof(*run->batch.pairs))))
		ret = -EFAULT;
	b.len = n;
	b.batch = run->batch.k;
	b.pairs = run->batch.n;
	b.backwards = run->batch.backwards;
	if (!ret && copy_to_user(arg, &b, sizeof(b)))
		ret = -EFAULT;
	latt_run_put(run);
	return ret;
}

/*
 * LATT_IOC_WINDOWS (ABI 2.8): the evidence of the windows that hold
 * outlier records, thread after thread as the records, as many as the
 * caller has room for, the windows' sources and the events of the
 * windows without records.  THREADS' rules: -EINVAL for a reserved field
 * set, -ENOENT without a run, -EBUSY while it runs, -EFAULT.
 */
static long latt_ioctl_windows(void __user *arg)
{
	struct latt_windows w;
	struct latt_wev __user *dst;
	struct latt_thread *t;
	struct latt_run *run;
	u32 state, i, k, n = 0;
	int ret = 0, c;

	if (copy_from_user(&w, arg, sizeof(w)))
		return -EFAULT;
	if (!latt_all_zero(w.reserved, ARRAY_SIZE(w.reserved)))
		return -EINVAL;
	run = latt_get_stopped(&state);
	if (IS_ERR(run))
		return PTR_ERR(run);
	dst = u64_to_user_ptr(w.wev_ptr);
	w.sources = 0;
	w.kept = 0;
	w.quiet_windows = 0;
	memset(w.quiet_ev, 0, sizeof(w.quiet_ev));
	for (i = 0; i < run->nr_threads; i++) {
		t = &run->threads[i];
		if (!w.sources)
			w.sources = t->ev_sources;
		w.kept += t->nr_wev;
		w.quiet_windows += t->quiet_windows;
		for (c = 0; c < LATT_EV_KINDS; c++)
			w.quiet_ev[c] += t->quiet_ev[c];
		k = w.wev_ptr ? min(w.len - n, t->nr_wev) : 0;
		if (k && copy_to_user(dst + n, t->wev,
				      array_size(k, sizeof(*t->wev)))) {
			ret = -EFAULT;
			break;
		}
		n += k;
	}
	w.len = n;
	if (!ret && copy_to_user(arg, &w, sizeof(w)))
		ret = -EFAULT;
	latt_run_put(run);
	return ret;
}

/**
 * latt_stop_current() - stop the current run and wait for it
 * @owner: stop it only if this file started it (and forget the owner), or
 *	NULL to stop it whoever did
 *
 * The wait happens on a reference, outside the module's lock.
 */
static void latt_stop_current(struct file *owner)
{
	struct latt_run *run = NULL;

	mutex_lock(&latt_lock);
	if (!owner || latt_owner == owner) {
		run = latt_cur;
		if (run)
			refcount_inc(&run->refs);
		if (owner)
			latt_owner = NULL;
	}
	mutex_unlock(&latt_lock);
	if (run) {
		latt_run_stop(run);
		latt_run_put(run);
	}
}

/* the TSC's quantum and read cost, found at load (latt_timer_quantum()) */
static struct latt_quantum latt_tq;

static long latt_ioctl(struct file *file, unsigned int cmd, unsigned long a)
{
	void __user *arg = (void __user *)a;
	struct latt_status st = {};
	struct latt_info info = {};

	switch (cmd) {
	case LATT_IOC_GET_INFO:
		info.abi_version = LATT_ABI_VERSION;
		info.hist_buckets = LATT_HIST_BUCKETS;
		info.features = latt_features();
		info.tsc_khz = tsc_khz;
		info.max_size = LATT_MAX_SIZE;
		info.max_region = LATT_MAX_REGION;
		info.max_chain = LATT_MAX_CHAIN;
		info.max_outliers = LATT_MAX_OUTLIERS;
		info.nr_cpu_ids = nr_cpu_ids;
		info.window_us = READ_ONCE(latt_window_us);
		info.widths = latt_widths();
		info.timer_quantum = latt_tq.quantum;
		info.timer_read_cost = latt_tq.read_cost;
		mutex_lock(&latt_lock);
		info.state = latt_run_state(latt_cur);
		mutex_unlock(&latt_lock);
		return copy_to_user(arg, &info, sizeof(info)) ? -EFAULT : 0;
	case LATT_IOC_START:
		return latt_ioctl_start(file, arg, NULL);
	case LATT_IOC_START_TRAFFIC: {
		struct latt_traffic tr;

		if (copy_from_user(&tr, arg, sizeof(tr)))
			return -EFAULT;
		return latt_ioctl_start(file, u64_to_user_ptr(tr.config_ptr),
					&tr);
	}
	case LATT_IOC_STATUS:
		mutex_lock(&latt_lock);
		st.state = latt_run_state(latt_cur);
		if (latt_cur) {
			/*
			 * a failing thread sets the error before the run
			 * is FAILED: say it with that state, as documented
			 * (the state was read first, with its barrier)
			 */
			st.error = st.state == LATT_STATE_FAILED ?
				   READ_ONCE(latt_cur->error) : 0;
			/* merged before FAILED was published */
			if (st.error == -EHWPOISON)
				st.poison_offset = latt_cur->merged.mc ?
					latt_cur->merged.mc_off :
					LATT_POISON_UNKNOWN;
			latt_run_progress(latt_cur, &st.samples_done,
					  &st.samples_total);
			st.windows = latt_run_windows(latt_cur);
		}
		mutex_unlock(&latt_lock);
		return copy_to_user(arg, &st, sizeof(st)) ? -EFAULT : 0;
	case LATT_IOC_ABORT:
		/* stops the run, whoever started it; 0 if none was running */
		latt_stop_current(NULL);
		return 0;
	case LATT_IOC_RESULT:
		return latt_ioctl_result(arg);
	case LATT_IOC_THREADS:
		return latt_ioctl_threads(arg);
	case LATT_IOC_BATCH:
		return latt_ioctl_batch(arg);
	case LATT_IOC_WINDOWS:
		return latt_ioctl_windows(arg);
	}
	return -ENOTTY;
}

static int latt_open(struct inode *inode, struct file *file)
{
	/* the node is 0600 already; a root without the capability is not */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return 0;
}

static int latt_release(struct inode *inode, struct file *file)
{
	latt_stop_current(file);
	latt_free_kept(file);
	return 0;
}

/*
 * Memory pressure: a kept region is idle memory, given back whole, to
 * reclaim on its own node (NUMA-aware: another node's kswapd leaves it).
 * Never waits for the module's lock (the allocation that reclaims may be
 * one made under it).
 */
static unsigned long latt_shrink_count(struct shrinker *s,
				       struct shrink_control *sc)
{
	unsigned long pages = 0;

	if (!mutex_trylock(&latt_lock))
		return 0;
	/* the state first, as latt_take_kept(); only its node's reclaim */
	if (latt_cur && latt_run_state(latt_cur) != LATT_STATE_RUNNING &&
	    latt_cur->keep && latt_cur->region.chunks &&
	    latt_cur->region.node == sc->nid)
		pages = latt_cur->region.nchunks <<
			(latt_cur->region.chunk_shift - PAGE_SHIFT);
	mutex_unlock(&latt_lock);
	return pages ? pages : SHRINK_EMPTY;
}

static unsigned long latt_shrink_scan(struct shrinker *s,
				      struct shrink_control *sc)
{
	struct latt_region kept;
	unsigned long pages;
	bool took = false;

	if (!mutex_trylock(&latt_lock))
		return SHRINK_STOP;
	/* DRAM only: a PMEM mapping holds no memory the system could use */
	if (latt_cur && latt_run_state(latt_cur) != LATT_STATE_RUNNING &&
	    latt_cur->region.chunks && latt_cur->region.node == sc->nid)
		took = latt_take_kept(NULL, &kept);
	mutex_unlock(&latt_lock);
	if (!took)
		return SHRINK_STOP;
	pages = kept.nchunks << (kept.chunk_shift - PAGE_SHIFT);
	latt_region_free(&kept);
	pr_info("freed a kept region of %lu pages under memory pressure\n",
		pages);
	return pages;
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
static struct shrinker *latt_shrinker;

static int latt_shrinker_add(void)
{
	latt_shrinker = shrinker_alloc(SHRINKER_NUMA_AWARE, "lattester");
	if (!latt_shrinker)
		return -ENOMEM;
	latt_shrinker->count_objects = latt_shrink_count;
	latt_shrinker->scan_objects = latt_shrink_scan;
	latt_shrinker->seeks = DEFAULT_SEEKS;
	shrinker_register(latt_shrinker);
	return 0;
}

static void latt_shrinker_del(void)
{
	shrinker_free(latt_shrinker);
}
#else
static struct shrinker latt_shrinker_s = {
	.count_objects = latt_shrink_count,
	.scan_objects = latt_shrink_scan,
	.seeks = DEFAULT_SEEKS,
	.flags = SHRINKER_NUMA_AWARE,
};

static int latt_shrinker_add(void)
{
	return register_shrinker(&latt_shrinker_s, "lattester");
}

static void latt_shrinker_del(void)
{
	unregister_shrinker(&latt_shrinker_s);
}
#endif

static const struct file_operations latt_fops = {
	.owner = THIS_MODULE,
	.open = latt_open,
	.release = latt_release,
	.unlocked_ioctl = latt_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/* sysfs: /sys/class/misc/lattester/ */

static ssize_t abi_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u.%u\n", LATT_ABI_MAJOR, LATT_ABI_MINOR);
}
static DEVICE_ATTR_RO(abi_version);

static ssize_t tsc_khz_show(struct device *dev,
			    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", tsc_khz);
}
static DEVICE_ATTR_RO(tsc_khz);

static ssize_t features_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n", (unsigned long long)latt_features());
}
static DEVICE_ATTR_RO(features);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	u32 s;

	mutex_lock(&latt_lock);
	s = latt_run_state(latt_cur);
	mutex_unlock(&latt_lock);
	return sysfs_emit(buf, "%s\n", latt_state_names[s]);
}
static DEVICE_ATTR_RO(state);

static ssize_t progress_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	u64 done = 0, total = 0;

	mutex_lock(&latt_lock);
	if (latt_cur)
		latt_run_progress(latt_cur, &done, &total);
	mutex_unlock(&latt_lock);
	return sysfs_emit(buf, "%llu %llu\n", (unsigned long long)done,
			  (unsigned long long)total);
}
static DEVICE_ATTR_RO(progress);

static ssize_t window_us_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(latt_window_us));
}

/*
 * A sysfs write of a decimal unsigned int into @var: -ERANGE beyond one,
 * -EINVAL for anything else that is not one or that @ok refuses.
 */
static ssize_t latt_store_uint(const char *buf, size_t count,
			       unsigned int *var, bool (*ok)(unsigned int))
{
	unsigned int v;
	int ret = kstrtouint(buf, 10, &v);

	if (ret)
		return ret;
	if (!ok(v))
		return -EINVAL;
	WRITE_ONCE(*var, v);
	return count;
}

static bool latt_window_ok(unsigned int v)
{
	return v >= LATT_MIN_WINDOW_US && v <= LATT_MAX_WINDOW_US;
}

static ssize_t window_us_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	return latt_store_uint(buf, count, &latt_window_us, latt_window_ok);
}
static DEVICE_ATTR_RW(window_us);

static ssize_t max_chunk_kib_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(latt_max_chunk_kib));
}

/* 4096 (the default) or 2048: what a fragmented node falls back to */
static bool latt_chunk_kib_ok(unsigned int v)
{
	return v == LATT_CHUNK >> 10 || v == 1U << (LATT_CHUNK_MIN_SHIFT - 10);
}

static ssize_t max_chunk_kib_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t count)
{
	return latt_store_uint(buf, count, &latt_max_chunk_kib,
			       latt_chunk_kib_ok);
}
static DEVICE_ATTR_RW(max_chunk_kib);

static struct attribute *latt_attrs[] = {
	&dev_attr_abi_version.attr,
	&dev_attr_tsc_khz.attr,
	&dev_attr_features.attr,
	&dev_attr_state.attr,
	&dev_attr_progress.attr,
	&dev_attr_window_us.attr,
	&dev_attr_max_chunk_kib.attr,
	NULL,
};
ATTRIBUTE_GROUPS(latt);

static struct miscdevice latt_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = LATT_DEVICE_NAME,
	.fops = &latt_fops,
	.groups = latt_groups,
	.mode = 0600,
};

/*
 * latt_timer_quantum() - find the TSC's quantum (quantum.h) from
 * LATT_QUANTUM_DIFFS differences, LATT_QUANTUM_CHUNK pairs at a time with
 * interrupts off on one CPU (a few microseconds each), so that no
 * interrupt or migration lands inside a pair.
 */
static void __init latt_timer_quantum(void)
{
	unsigned long flags;
	__u64 *d;
	__u32 i;

	d = kmalloc_array(LATT_QUANTUM_DIFFS, sizeof(*d), GFP_KERNEL);
	if (!d)
		return;	/* unknown: 0 in struct latt_info */
	for (i = 0; i < LATT_QUANTUM_DIFFS; i += LATT_QUANTUM_CHUNK) {
		local_irq_save(flags);
		latt_timer_diffs(LATT_TIMER_RDTSC, d + i, LATT_QUANTUM_CHUNK, i);
		local_irq_restore(flags);
		cond_resched();
	}
	latt_quantum_find(&latt_tq, d, LATT_QUANTUM_DIFFS);
	kfree(d);
}

static int __init latt_init(void)
{
	int ret;

	latt_timer_quantum();
	ret = latt_shrinker_add();
	if (ret)
		return ret;
	ret = misc_register(&latt_misc);
	if (ret)
		latt_shrinker_del();
	return ret;
}

static void __exit latt_exit(void)
{
	misc_deregister(&latt_misc);
	latt_shrinker_del();
	/* no file is open (each holds a module reference): just free */
	mutex_lock(&latt_lock);
	latt_run_put(latt_cur);
	latt_cur = NULL;
	mutex_unlock(&latt_lock);
}

module_init(latt_init);
module_exit(latt_exit);

MODULE_DESCRIPTION("Memory access latency measurement (DRAM, pmem, CXL)");
MODULE_AUTHOR("The lattester developers");
MODULE_LICENSE("GPL");
