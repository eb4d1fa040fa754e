// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - the measuring kthread
 *
 * A run is one kthread bound to one CPU.  It works in windows: for at most
 * window_us microseconds it has interrupts off (and so no preemption) and
 * takes samples back to back; then it turns interrupts on, lets the
 * scheduler run (cond_resched) and checks for a stop.  Nothing in a window
 * sleeps or allocates.  The CPU's NMI count is read at both ends of every
 * window: NMIs can't be turned off, so a window that saw one is counted, and
 * the outliers recorded in it are flagged, to tell the platform's noise from
 * the memory's.
 *
 * Before the samples, the timer's overhead is calibrated in the same kind of
 * windows by timing the run's own sample function on zero bytes; its median
 * is what userspace subtracts.  All figures stay raw here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/sort.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <asm/fpu/api.h>
#include <asm/msr.h>
#include <asm/tsc.h>
#include <asm/cpufeature.h>
#include <lattester/hist.h>
#include <lattester/access.h>
#include "lattester.h"

/* A window: FPU state saved (vector ops), then interrupts off. */
static inline void latt_window_enter(struct latt_run *run, unsigned long *fl)
{
	if (run->vector)
		kernel_fpu_begin();
	local_irq_save(*fl);
}

static inline void latt_window_leave(struct latt_run *run, unsigned long fl)
{
	local_irq_restore(fl);
	if (run->vector)
		kernel_fpu_end();
}

static bool latt_should_stop(struct latt_run *run)
{
	return kthread_should_stop() || READ_ONCE(run->abort);
}

static int latt_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * latt_calibrate() - time the empty sample LATT_CALIB_SAMPLES times
 * @run: the run, with its sample function and region
 *
 * Same function, same windows, zero bytes (a chain of zero loads for
 * chase): what remains is rdtscp, the lfences, the fence and the loop's
 * setup.  Keeps the median, the minimum and the maximum.
 */
static int latt_calibrate(struct latt_run *run)
{
	char *base = run->region.addr[0], *pos = base;
	unsigned long fl;
	u64 *v, w0, opos = 0;
	u32 i = 0;

	v = kmalloc_array(LATT_CALIB_SAMPLES, sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	while (i < LATT_CALIB_SAMPLES) {
		latt_window_enter(run, &fl);
		w0 = rdtsc();
		do {
			if (run->cfg.pattern == LATT_PAT_CHASE && run->region.map)
				v[i] = latt_sample_chase_off(base, 0, &opos, 0);
			else if (run->cfg.pattern == LATT_PAT_CHASE)
				v[i] = latt_sample_chase(&pos, 0);
			else
				v[i] = run->fn(base, 0);
		} while (++i < LATT_CALIB_SAMPLES &&
			 rdtsc() - w0 < run->window_cycles);
		latt_window_leave(run, fl);
		cond_resched();
		if (latt_should_stop(run) || latt_region_gone(&run->region)) {
			kfree(v);
			return latt_should_stop(run) ? -EINTR : -ENODEV;
		}
	}
	sort(v, LATT_CALIB_SAMPLES, sizeof(*v), latt_cmp_u64, NULL);
	run->overhead = v[LATT_CALIB_SAMPLES / 2];
	run->overhead_min = v[0];
	run->overhead_max = v[LATT_CALIB_SAMPLES - 1];
	kfree(v);
	return 0;
}

/* Count one sample; runs with interrupts off. */
static inline void latt_account(struct latt_run *run, u64 idx, u64 tsc,
				u64 off, u64 cyc, u64 window)
{
	u64 corr = cyc > run->overhead ? cyc - run->overhead : 0;
	struct latt_outlier *o;

	run->hist[latt_hist_index(cyc)]++;
	if (cyc >> LATT_HIST_MAX_BITS)
		run->hist_overflow++;
	if (cyc < run->min)
		run->min = cyc;
	if (cyc > run->max)
		run->max = cyc;
	run->sum += cyc;
	run->sum_corrected += corr;

	if (!run->cfg.threshold || corr <= run->cfg.threshold)
		return;
	run->outliers_seen++;
	if (run->nr_outliers >= run->cfg.max_outliers) {
		run->outliers_dropped++;
		return;
	}
	o = &run->outliers[run->nr_outliers++];
	o->sample = idx;
	o->tsc = tsc - run->tsc_start;
	o->offset = off;
	o->cycles = cyc;
	o->window = window;
	o->flags = 0;
	o->cpu = run->cfg.cpu;
}

/**
 * latt_measure() - take the run's samples, window by window
 * @run: the run
 * @pat: its address generator, seeded
 *
 * Return: 0 when all were taken, -EINTR when stopped before.
 */
static int latt_measure(struct latt_run *run, struct latt_pattern *pat)
{
	const u64 total = run->cfg.samples, size = run->cfg.size;
	const bool chase = run->cfg.pattern == LATT_PAT_CHASE;
	const bool warm = run->cfg.flags & LATT_CFG_WARM;
	const int opt = static_cpu_has(X86_FEATURE_CLFLUSHOPT);
	char *pos = run->region.addr[0], *start, *addr;
	/* PMEM chase: offsets, masked (see latt_sample_chase_off()) */
	const bool chase_off = chase && run->region.map;
	const u64 mask = (run->cfg.region - 1) & ~7ULL;
	u64 done = 0, w0, now, off, cyc, opos = 0;
	unsigned int nmi0, nmi1;
	unsigned long fl;
	u32 first, i;

	while (done < total) {
		first = run->nr_outliers;
		latt_window_enter(run, &fl);
		if (unlikely(smp_processor_id() != run->cfg.cpu)) {
			/* the CPU went offline and the scheduler moved us */
			latt_window_leave(run, fl);
			return -ENODEV;
		}
		nmi0 = this_cpu_read(irq_stat.__nmi_count);
		w0 = now = rdtsc();
		do {
			if (chase_off) {
				off = opos;
				cyc = latt_sample_chase_off(run->region.map,
							    mask, &opos,
							    run->cfg.chain);
			} else if (chase) {
				start = pos;
				cyc = latt_sample_chase(&pos, run->cfg.chain);
				/* read after timing: the node is cached now */
				off = ((struct latt_chase_node *)start)->offset;
			} else {
				off = latt_pattern_next(pat);
				addr = latt_region_addr(&run->region, off);
				if (warm)
					latt_prep_warm(addr, size);
				else
					latt_prep_flush(addr, size, opt);
				cyc = run->fn(addr, size);
			}
			latt_account(run, done, now, off, cyc, run->windows);
			done++;
			now = rdtsc();
		} while (done < total && now - w0 < run->window_cycles);
		nmi1 = this_cpu_read(irq_stat.__nmi_count);
		latt_window_leave(run, fl);

		if (now - w0 > run->window_cycles_max)
			run->window_cycles_max = now - w0;
		if (nmi1 != nmi0) {
			run->nmi_windows++;
			for (i = first; i < run->nr_outliers; i++)
				run->outliers[i].flags |= LATT_OUT_NMI;
		}
		run->windows++;
		atomic64_set(&run->done, done);
		atomic64_set(&run->windows_done, run->windows);
		cond_resched();
		if (latt_should_stop(run))
			return done < total ? -EINTR : 0;
		if (latt_region_gone(&run->region))
			return -ENODEV;
	}
	return 0;
}

static int latt_thread(void *data)
{
	struct latt_run *run = data;
	struct latt_pattern pat;
	int ret;

	ret = latt_pattern_init(&pat, run->cfg.pattern, run->cfg.size,
				run->cfg.stride, run->cfg.region,
				run->cfg.seed);
	if (WARN_ON_ONCE(ret))	/* checked at START */
		goto out;
	run->tsc_start = rdtsc();
	if (run->cfg.pattern == LATT_PAT_CHASE) {
		ret = latt_chase_build(run, &pat);
		if (ret)
			goto out;
	}
	ret = latt_calibrate(run);
	if (ret)
		goto out;
	run->tsc_start = rdtsc();
	ret = latt_measure(run, &pat);
out:
	run->tsc_end = rdtsc();
	latt_region_free(&run->region);
	run->error = ret == -EINTR ? 0 : ret;
	/* pairs with the acquire in latt_run_state(): counters first */
	smp_wmb();
	atomic_set(&run->state, ret == -EINTR ? LATT_STATE_ABORTED :
		   ret ? LATT_STATE_FAILED : LATT_STATE_DONE);
	return ret;
}

/**
 * latt_run_start() - allocate the results and start the kthread
 * @run: a checked run with its region
 *
 * The configuration is checked, the region allocated and run->fn chosen by
 * the caller.  Return: 0 or a negative errno, with nothing left running.
 */
int latt_run_start(struct latt_run *run)
{
	struct task_struct *t;

	run->hist = vzalloc(array_size(LATT_HIST_BUCKETS, sizeof(u64)));
	if (run->cfg.threshold && run->cfg.max_outliers)
		run->outliers = vmalloc_array(run->cfg.max_outliers,
					      sizeof(*run->outliers));
	if (!run->hist ||
	    (run->cfg.threshold && run->cfg.max_outliers && !run->outliers))
		return -ENOMEM;
	run->min = U64_MAX;
	run->window_cycles = div_u64((u64)run->cfg.window_us * tsc_khz, 1000);
	atomic_set(&run->state, LATT_STATE_RUNNING);

	t = kthread_create_on_node(latt_thread, run, cpu_to_node(run->cfg.cpu),
				   "lattester/%u", run->cfg.cpu);
	if (IS_ERR(t)) {
		atomic_set(&run->state, LATT_STATE_FAILED);
		return PTR_ERR(t);
	}
	kthread_bind(t, run->cfg.cpu);
	get_task_struct(t);
	run->task = t;
	wake_up_process(t);
	return 0;
}

/**
 * latt_run_stop() - stop the kthread if it runs, wait for it, free the region
 * @run: the run
 *
 * Returns within one window (or one batch of the chase setup).  Safe to call
 * more than once, from several tasks at once (the second waits for the
 * first), and on a run that has ended by itself.  Callers hold a reference,
 * not the module's lock: STATUS and sysfs answer meanwhile.
 */
void latt_run_stop(struct latt_run *run)
{
	mutex_lock(&run->stop_lock);
	if (run->task) {
		WRITE_ONCE(run->abort, true);
		kthread_stop(run->task);
		put_task_struct(run->task);
		run->task = NULL;
	}
	/* a thread stopped before it ran never got to free it */
	latt_region_free(&run->region);
	if (atomic_read(&run->state) == LATT_STATE_RUNNING)
		atomic_set(&run->state, LATT_STATE_ABORTED);
	mutex_unlock(&run->stop_lock);
}

/**
 * latt_run_put() - drop a reference; the last one stops the run and frees
 * everything it holds
 * @run: the run, or NULL
 */
void latt_run_put(struct latt_run *run)
{
	if (!run || !refcount_dec_and_test(&run->refs))
		return;
	latt_run_stop(run);
	vfree(run->hist);
	vfree(run->outliers);
	kfree(run);
}
