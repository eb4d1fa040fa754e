// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - the measuring kthreads
 *
 * A run is one kthread per asked CPU, each bound to its CPU.  Each works in
 * windows: for at most window_us microseconds it has interrupts off (and so
 * no preemption) and takes samples back to back (latency) or streams
 * untimed accesses and counts their bytes (bandwidth, and the traffic of a
 * loaded-latency run); then it turns interrupts on, lets the scheduler run
 * (cond_resched) and checks for a stop.  Nothing in a window sleeps or
 * allocates.  The CPU's NMI count is read at both ends of every window:
 * NMIs can't be turned off, so a window that saw one is counted, and the
 * outliers recorded in it are flagged, to tell the platform's noise from
 * the memory's.
 *
 * A run with batches (ABI 2.7, latt_config.batch) has one thread, which
 * after its samples and the calibration after them times pairs of batches
 * (core.h's latt_batch_window()) in the same kind of windows.
 *
 * Before the samples, each timing thread spins LATT_WARMUP_US to bring its
 * core to its running clock, measures the timer's step and calibrates the
 * timer's overhead in the same kind of windows by timing its own sample
 * function on zero bytes; thread 0's median is what userspace subtracts.
 * The calibration runs again after the samples, to show a drift.  Then every thread waits
 * at a start line; the last to arrive sets one TSC time a little ahead
 * (LATT_GO_MARGIN_US) and all begin there.  They stop together: a stop, an
 * abort or one thread's failure sets a flag every thread reads at the end
 * of each window; a bandwidth run ends at one TSC deadline; the traffic of
 * a loaded run ends when thread 0 has its samples.  The last thread out
 * merges the threads' figures into the run's.  All figures stay raw here.
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
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/topology.h>
#include <linux/wait_bit.h>
#include <linux/dax.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <asm/fpu/api.h>
#include <asm/msr.h>
#include <asm/tsc.h>
#include <asm/cpufeature.h>
#include <asm/pgtable.h>
#include <asm/kvm_para.h>
#include <lattester/hist.h>
#include <lattester/access.h>
#include "lattester.h"

/* how far ahead of the last thread's arrival the common start is */
#define LATT_GO_MARGIN_US	(2 * jiffies_to_usecs(1) + 100)

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
	return kthread_should_stop() || READ_ONCE(run->halt);
}

/* Every thread stops at its next window's end, or leaves the start line. */
static void latt_halt(struct latt_run *run)
{
	WRITE_ONCE(run->halt, true);
	wake_up_var(&run->tsc_go);
}

static int latt_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The thread's CPU went offline and the scheduler moved it. */
static inline bool latt_moved(const struct latt_thread *t)
{
	return unlikely(smp_processor_id() != t->rec.cpu);
}

/*
 * What a window's evidence reads at each of its ends (ABI 2.8): the CPU's
 * NMI count, and where the thread's windows look for them
 * (t->ev_sources), its SMI count and the hypervisor's steal.
 */
struct latt_ev_snap {
	unsigned int nmi;
	u64 smi;
	u64 steal;
};

/*
 * The steal the hypervisor has recorded in a KVM steal-time record, ns:
 * its version is odd while the host writes, and changes with each write
 * (the kernel's kvm_steal_clock() reads it so).
 */
static u64 latt_steal_read(const struct kvm_steal_time *st)
{
	u32 v;
	u64 steal;

	do {
		v = READ_ONCE(st->version);
		virt_rmb();
		steal = READ_ONCE(st->steal);
		virt_rmb();
	} while ((v & 1) || v != READ_ONCE(st->version));
	return steal;
}

/* @evidence: a sample window's, which reads the SMI count and the steal
 * too where @t looks for them; other windows read the NMI count alone */
static inline void latt_ev_read(const struct latt_thread *t,
				struct latt_ev_snap *s, bool evidence)
{
	s->nmi = this_cpu_read(irq_stat.__nmi_count);
	if (!evidence)
		return;
	if (t->ev_sources & LATT_EVS_SMI && rdmsrl_safe(MSR_SMI_COUNT, &s->smi))
		s->smi = 0;
	if (t->steal)
		s->steal = latt_steal_read(t->steal);
}

/*
 * A measuring window on @t's CPU: interrupts off, the CPU's NMI count
 * noted, with the rest of the evidence the thread looks for in a sample
 * window (@evidence, latt_ev_read()).  -ENODEV (interrupts on again) when the CPU went
 * offline and the scheduler moved the thread, or when the run's
 * device-DAX device died.
 *
 * A device-DAX target is pinned for the window: each window is a DAX read
 * section (dax_read_lock(), SRCU) that starts only while the device is
 * alive, and kill_dax() sets it dead, then waits for every read section
 * (synchronize_srcu()): a device torn down under a run is gone only once
 * the current window has ended, and no window touches it after.
 */
static inline int latt_window_open(struct latt_thread *t, unsigned long *fl,
				   struct latt_ev_snap *ev, bool evidence)
{
	struct dax_device *dax = t->run->region.dax;

	if (dax) {
		t->dax_id = dax_read_lock();
		if (!dax_alive(dax)) {
			dax_read_unlock(t->dax_id);
			return -ENODEV;
		}
	}
	latt_window_enter(t->run, fl);
	if (latt_moved(t)) {
		latt_window_leave(t->run, *fl);
		if (dax)
			dax_read_unlock(t->dax_id);
		return -ENODEV;
	}
	latt_ev_read(t, ev, evidence);
	return 0;
}

/* The window's end, its evidence read into @end; whether an NMI came. */
static inline bool latt_window_close(struct latt_thread *t, unsigned long fl,
				     const struct latt_ev_snap *start,
				     struct latt_ev_snap *end, bool evidence)
{
	bool seen;

	latt_ev_read(t, end, evidence);
	seen = end->nmi != start->nmi;
	latt_window_leave(t->run, fl);
	if (t->run->region.dax)
		dax_read_unlock(t->dax_id);
	return seen;
}

/*
 * Spin LATT_WARMUP_US with interrupts on, so that the core has left its idle
 * clock before the calibration; -EINTR when stopped meanwhile.
 */
static int latt_warmup(struct latt_thread *t)
{
	u64 now = rdtsc(), end = now + div_u64((u64)LATT_WARMUP_US * tsc_khz,
					       1000);

	while (now < end) {
		cpu_relax();
		now = rdtsc();
		if (need_resched())
			cond_resched();
		if (latt_should_stop(t->run))
			return -EINTR;
	}
	return 0;
}

/*
 * How @t takes its samples, their calibration's empty ones and its batches
 * (core.h's struct latt_step), from the start of the chase's chain.
 */
static void latt_thread_step(struct latt_thread *t, struct latt_step *s)
{
	struct latt_run *run = t->run;

	*s = (struct latt_step){
		.fn = run->fn,
		.batch = run->batch_fn,
		.lines = t->batch_lines,
		.offs = t->batch_offs,
		.chase = run->chase,
		.chase_off = run->chase_off,
		.ctx = &run->region,
		.off_of = latt_region_offset,
		.base = run->region.map,
		.pos = run->region.addr[0],
		.mask = (run->cfg.region - 1) & ~7ULL,
		.part = t->rec.part_offset,
		.size = run->cfg.size,
		.chain = run->cfg.chain,
		/* PMEM chase: offsets, masked (see latt_sample_chase_off()) */
		.mode = latt_step_mode(&run->cfg, !!run->region.map),
		.clflushopt = static_cpu_has(X86_FEATURE_CLFLUSHOPT),
	};
}

/**
 * latt_calibrate() - time the empty sample LATT_CALIB_SAMPLES times
 * @t: the thread, with its run's sample function and region
 * @med: out: the median
 * @lo: out: the minimum, or NULL
 * @hi: out: the maximum, or NULL
 *
 * Same function, same windows, zero bytes (a chain of zero loads for
 * chase): what remains is the timer, the lfences, the fence and the loop's
 * setup.  The first window also measures the timer's step, once.
 *
 * Return: 0; -ENOMEM; -EINTR when stopped, -ENODEV when the region's
 * device went away.
 */
static int latt_calibrate(struct latt_thread *t, u64 *med, u64 *lo, u64 *hi)
{
	struct latt_run *run = t->run;
	char *base = latt_region_addr(&run->region, t->rec.part_offset);
	char *pos = base;
	struct latt_step s;
	unsigned long fl;
	u64 *v, opos = 0;
	u32 i = 0;

	latt_thread_step(t, &s);
	v = kmalloc_array(LATT_CALIB_SAMPLES, sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	while (i < LATT_CALIB_SAMPLES) {
		latt_window_enter(run, &fl);
		if (!t->timer_step)
			t->timer_step = latt_timer_step(run->timer);
		i = latt_calib_window(&s, base, &pos, &opos, v, i, latt_rdtsc(),
				      run->window_cycles, latt_rdtsc);
		latt_window_leave(run, fl);
		cond_resched();
		if (latt_should_stop(run) || latt_region_gone(&run->region)) {
			kfree(v);
			return latt_should_stop(run) ? -EINTR : -ENODEV;
		}
	}
	sort(v, LATT_CALIB_SAMPLES, sizeof(*v), latt_cmp_u64, NULL);
	latt_calib_pick(v, med, lo, hi);
	kfree(v);
	return 0;
}

/* The memory thread @t accesses: the run's region, or the traffic's. */
static struct latt_region *latt_thread_region(struct latt_thread *t)
{
	struct latt_run *run = t->run;

	return run->tcfg.region && t->rec.role == LATT_ROLE_STREAM ?
	       &run->traffic : &run->region;
}

/*
 * A load of @t consumed poison at @off of the region (LATT_MC_UNKNOWN: a
 * place that can't be told): the kernel's #MC handler found the load's
 * exception-table entry (access.h, LATT_MC_AT()) and resumed at its fixup.
 * The thread's record keeps the place, the run fails with -EHWPOISON.  A
 * traffic thread's place on a traffic target (ABI 2.9) is logged but kept
 * as unknown: the record's offsets are the run's target's.
 */
static int latt_poisoned(struct latt_thread *t, u64 off)
{
	struct latt_run *run = t->run;
	const struct latt_region *r = &run->region;
	u64 phys = 0;

	/* an offset is the run's target's (struct latt_traffic) */
	if (r != latt_thread_region(t)) {
		t->rec.acct.mc = 1;
		t->rec.acct.mc_off = LATT_MC_UNKNOWN;
		pr_err_ratelimited("CPU %u: a load at byte %lld of the traffic's memory consumed poison (a machine check, recovered): the run stops\n",
				   t->rec.cpu, off == LATT_MC_UNKNOWN ? -1LL :
				   (long long)off);
		return -EHWPOISON;
	}
	t->rec.acct.mc = 1;
	t->rec.acct.mc_off = off;
	if (off == LATT_MC_UNKNOWN) {
		pr_err_ratelimited("CPU %u: a load of the region consumed poison (a machine check, recovered), at a place not known: the run stops\n",
				   t->rec.cpu);
		return -EHWPOISON;
	}
	if (r->map)
		phys = run->cfg.phys_addr + off;
	else if (r->chunks && (off >> r->chunk_shift) < r->nchunks)
		phys = page_to_phys(r->chunks[off >> r->chunk_shift]) +
		       (off & ((1ULL << r->chunk_shift) - 1));
	pr_err_ratelimited("CPU %u: a load at byte %llu of the region (physical address %#llx) consumed poison (a machine check, recovered): the run stops\n",
			   t->rec.cpu, off, phys);
	return -EHWPOISON;
}

/*
 * A sample window's evidence (ABI 2.8), from its two ends' readings and
 * its samples' gaps (core.h): kept where it holds a record of @t's (from
 * @first on), tallied where it holds none but an event.  Interrupts,
 * switches, faults and softirqs can't reach a window: LATT_EVS_IRQ_OFF.
 */
static void latt_window_evidence(struct latt_thread *t,
				 const struct latt_ev_snap *a,
				 const struct latt_ev_snap *b, u32 first)
{
	struct latt_wev w, *d;

	d = latt_wev_open(t->wev, &t->nr_wev, t->max_wev, &w, &t->rec.acct,
			  first, t->rec.windows, t->ev_sources, tsc_khz);
	d->ev[LATT_EV_NMI] = b->nmi - a->nmi;
	if (t->ev_sources & LATT_EVS_SMI)
		d->ev[LATT_EV_SMI] = (u32)(b->smi - a->smi);
	if (t->steal) {
		d->steal_ns = b->steal - a->steal;
		d->ev[LATT_EV_STEAL] = d->steal_ns >= LATT_CAUSE_MIN_NS;
	}
	if (d == &w)
		latt_wev_tally(&w, &t->quiet_windows, t->quiet_ev);
}

/* End of a window: its length and its NMIs, on the thread's record. */
static void latt_window_done(struct latt_thread *t, u64 cycles, bool nmi,
			     u32 first_outlier)
{
	latt_acct_window(&t->rec.acct, cycles, nmi, first_outlier);
	WRITE_ONCE(t->rec.windows, t->rec.windows + 1);
}

/* A window's length; 0 if the TSC went backwards (a VM's can) */
static inline u64 latt_window_len(u64 w0, u64 now)
{
	return (s64)(now - w0) < 0 ? 0 : now - w0;
}

/*
 * A window longer than this ends the run: run->ceiling_cycles, ten windows
 * and at least LATT_CEILING_MIN_US.  Interrupts were off all that time.
 */
static int latt_ceiling(struct latt_thread *t, u64 cycles)
{
	struct latt_run *run = t->run;

	if (likely(cycles <= run->ceiling_cycles))
		return 0;
	pr_warn_ratelimited("CPU %u: interrupts were off for %llu us, beyond the ceiling of %llu us (10 x window_us, at least %u us): the run stops; a smaller --size, or a larger --window-us\n",
			    t->rec.cpu, div_u64(cycles * 1000, tsc_khz),
			    div_u64(run->ceiling_cycles * 1000, tsc_khz),
			    LATT_CEILING_MIN_US);
	return -ETIME;
}

/*
 * A sample or batch window of @t has ended, @len cycles long, an NMI in it
 * or not (@nmi), its outliers recorded from @first on: count it, then what
 * ends the run: a consumed poison (-EHWPOISON), the ceiling (-ETIME), a
 * stop (-EINTR while @more is left to take; 0 once all was), the region's
 * device gone (-ENODEV).
 */
static int latt_window_end(struct latt_thread *t, u64 len, bool nmi,
			   u32 first, bool more)
{
	struct latt_run *run = t->run;

	latt_window_done(t, len, nmi, first);
	if (unlikely(t->rec.acct.mc))
		return latt_poisoned(t, t->rec.acct.mc_off);
	if (latt_ceiling(t, len))
		return -ETIME;
	cond_resched();
	if (latt_should_stop(run))
		return more ? -EINTR : 0;
	if (latt_region_gone(&run->region))
		return -ENODEV;
	return 0;
}

/*
 * An offset of the region, through its chunks: the lookup core.h's
 * latt_sample_window() and latt_stream_window() make, inlined.
 */
static inline char *latt_region_at(void *region, u64 off)
{
	return latt_region_addr(region, off);
}

/**
 * latt_measure() - take a thread's samples, window by window
 * @t: the thread
 * @pat: its address generator, seeded
 * @lc: a loaded run's calibration across the samples: each window starts
 *	with its empty samples (latt_lcal_window()); @lc->v NULL: none
 *
 * Return: 0 when all were taken, -EINTR when stopped before, -ETIME when a
 * window ran past the ceiling (one sample longer than ten windows),
 * -EHWPOISON when a load consumed poison (latt_poisoned()).
 */
static int latt_measure(struct latt_thread *t, struct latt_pattern *pat,
			struct latt_lcal *lc)
{
	struct latt_run *run = t->run;
	const u64 total = run->cfg.samples;
	struct latt_step s;
	u64 done = 0, w0, now, len;
	struct latt_ev_snap ev0, ev1;
	bool nmi_seen;
	unsigned long fl;
	u32 first;
	int ret;

	latt_thread_step(t, &s);
	t->rec.acct.tsc0 = run->tsc_go;
	while (done < total) {
		first = t->rec.acct.nr_outliers;
		if (latt_window_open(t, &fl, &ev0, t->ev_sources))
			return -ENODEV;
		w0 = latt_rdtsc();
		latt_lcal_window(lc, &s, t->rec.windows);
		now = latt_sample_window(&s, pat, &t->rec.acct, &done, total,
					 lc->v ? latt_rdtsc() : w0,
					 run->window_cycles, t->rec.windows,
					 latt_region_at, latt_rdtsc);
		nmi_seen = latt_window_close(t, fl, &ev0, &ev1, t->ev_sources);
		len = latt_window_len(w0, now);
		if (t->ev_sources)
			latt_window_evidence(t, &ev0, &ev1, first);

		t->rec.count = done - t->rec.acct.backwards;
		atomic64_set(&t->done, done);
		ret = latt_window_end(t, len, nmi_seen, first, done < total);
		if (ret)
			return ret;
	}
	/* where the batches go on: lines the samples loaded may be cached */
	t->chase_pos = s.pos;
	t->chase_opos = s.opos;
	return 0;
}

/**
 * latt_batch_measure() - take a thread's pairs of batches (ABI 2.7),
 *	window by window, as latt_measure() takes its samples
 * @t: the thread, its run's only one
 * @pat: its address generator, where its samples left it
 *
 * A chase goes on from the node its samples stopped at
 * (@t->chase_pos), not from the cycle's start, whose lines the samples
 * have just brought into the caches.
 *
 * After the samples and the calibration after them, so that neither
 * changes.  Each window is a sample window's (interrupts off, the FPU
 * state saved for a vector width, the NMI count, a device-DAX read
 * section); core.h's latt_batch_window() takes pairs in it, at least one,
 * and records each in the run's struct latt_batch_rec.  The windows count
 * in the thread's windows, NMI windows and longest window.  STATUS's
 * progress stays at the samples taken.
 *
 * Return: 0 when every pair was taken, -EINTR when stopped before,
 * -ETIME when a window ran past the ceiling, -EHWPOISON when a load
 * consumed poison, -ENODEV when the CPU went offline or the region's
 * device went away.
 */
static int latt_batch_measure(struct latt_thread *t, struct latt_pattern *pat)
{
	struct latt_run *run = t->run;
	const u64 total = run->cfg.batch_pairs;
	struct latt_step s;
	u64 done = 0, w0, now;
	struct latt_ev_snap ev0, ev1;
	bool nmi_seen;
	unsigned long fl;
	int ret;

	if (WARN_ON_ONCE(!run->batch.pairs || !t->batch_lines ||
			 !t->batch_offs ||
			 (!run->batch_fn &&
			  run->cfg.pattern != LATT_PAT_CHASE)))
		return -EINVAL;		/* allocated and checked at START */
	/* stopped during the calibration before: no window more */
	if (latt_should_stop(run))
		return -EINTR;
	latt_thread_step(t, &s);
	s.pos = t->chase_pos;
	s.opos = t->chase_opos;
	while (done < total) {
		if (latt_window_open(t, &fl, &ev0, false))
			return -ENODEV;
		w0 = latt_rdtsc();
		now = latt_batch_window(&s, pat, &run->batch, &t->rec.acct,
					&done, total, w0, run->window_cycles,
					latt_region_at, latt_rdtsc);
		nmi_seen = latt_window_close(t, fl, &ev0, &ev1, false);
		ret = latt_window_end(t, latt_window_len(w0, now), nmi_seen,
				      t->rec.acct.nr_outliers, done < total);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * latt_stream() - stream untimed accesses, window by window, and count bytes
 * @t: the thread
 * @pat: its address generator, seeded
 *
 * core.h's latt_stream_batch() makes the accesses (a --mix's cycle, pieces
 * of large ones), each followed by the run's delay.  Bandwidth runs end at
 * the common deadline; the traffic of a loaded run when thread 0 is done.
 * Stores are fenced once a window (mfence: also clflush), not per access.
 * A window never runs more than one piece past its end.
 *
 * Return: 0 when the run's end came, -EINTR when stopped before, -ETIME
 * past the ceiling, -EHWPOISON when a load consumed poison.
 */
static int latt_stream(struct latt_thread *t, struct latt_pattern *pat)
{
	struct latt_run *run = t->run;
	const struct latt_config *c = &run->cfg;
	const bool bw = c->mode == LATT_MODE_BANDWIDTH;
	const u64 end = bw ? run->tsc_go + run->duration_cycles : U64_MAX;
	struct latt_stream s;
	u64 w0, now, rd, wr, bin;
	struct latt_ev_snap ev0, ev1;
	bool nmi_seen;
	unsigned long fl;
	int ret;

	latt_stream_init(&s, c, run->stream_fn, run->read_fn, run->write_fn,
			 run->mix_fn,
			 latt_thread_region(t), t->rec.part_offset);
	for (;;) {
		if (latt_window_open(t, &fl, &ev0, false))
			return -ENODEV;
		w0 = latt_rdtsc();
		rd = s.rd;
		wr = s.wr;
		now = latt_stream_window(&s, pat, w0, run->window_cycles, end,
					 c->delay, latt_region_at, latt_rdtsc);
		if (s.wr != wr)
			mb();
		nmi_seen = latt_window_close(t, fl, &ev0, &ev1, false);

		t->rec.accesses = s.accesses;
		t->rec.bytes_read = s.rd;
		t->rec.bytes_written = s.wr;
		if (t->series) {
			bin = div64_u64(now - run->tsc_go, run->series_cycles);
			t->series[min_t(u64, bin, run->series_len - 1)] +=
				s.rd - rd + s.wr - wr;
		}
		latt_window_done(t, latt_window_len(w0, now), nmi_seen,
				 t->rec.acct.nr_outliers);
		if (unlikely(s.mc))
			return latt_poisoned(t, s.mc_off);
		ret = latt_ceiling(t, latt_window_len(w0, now));
		if (ret)
			return ret;
		cond_resched();
		if (bw && now >= end)
			return 0;
		if (!bw && READ_ONCE(run->latency_done))
			return 0;
		if (latt_should_stop(run))
			return -EINTR;
		if (latt_region_gone(latt_thread_region(t)))
			return -ENODEV;
	}
}

/* latt_spin_to()'s stop */
static int latt_go_stop(void *run)
{
	return latt_should_stop(run);
}

/*
 * The start line: the last thread to arrive sets the common start, a little
 * ahead so that the sleepers wake in time; all then spin to it
 * (latt_spin_to(): at most the margin and LATT_GO_SPIN_MAX_US more, a stop
 * heard).
 */
static int latt_wait_go(struct latt_thread *t)
{
	struct latt_run *run = t->run;
	u64 go;

	if (atomic_inc_return(&run->ready) == run->nr_threads) {
		go = rdtsc();
		if (run->nr_threads > 1)
			go += div_u64((u64)LATT_GO_MARGIN_US * tsc_khz, 1000);
		smp_store_release(&run->tsc_go, go);
		wake_up_var(&run->tsc_go);
	}
	/* kthread_stop() and latt_halt() wake us too */
	wait_var_event_interruptible(&run->tsc_go,
				     smp_load_acquire(&run->tsc_go) ||
				     latt_should_stop(run));
	go = smp_load_acquire(&run->tsc_go);
	if (!go)
		return -EINTR;
	/* the limit counts past the margin the start was set ahead by */
	switch (latt_spin_to(go, div_u64((u64)(LATT_GO_MARGIN_US +
					       LATT_GO_SPIN_MAX_US) * tsc_khz,
					 1000),
			     latt_rdtsc, latt_go_stop, run)) {
	case LATT_GO_STOP:
		return -EINTR;
	case LATT_GO_LATE:
		pr_warn_ratelimited("CPU %u: the common start was still ahead after %u us of spinning: this CPU's TSC is behind the one that set it (the TSCs disagree): starting now\n",
				    t->rec.cpu, LATT_GO_SPIN_MAX_US);
		break;
	}
	return 0;
}

/* core.h's latt_thread_pattern(), in the region's chunks */
static int latt_thread_pattern_of(struct latt_thread *t,
				  struct latt_pattern *pat)
{
	return latt_thread_pattern(pat, &t->run->cfg, t->idx,
				   t->run->nr_threads, t->rec.part_bytes,
				   latt_thread_region(t)->chunk_shift);
}

/*
 * A run's end, for its region: kept for the next START only when whole
 * (not after a failure), and never in ZONE_MOVABLE (offlining that memory
 * waits for its pages); kept, it holds no device (latt_pmem_release()).
 */
static void latt_region_let_go(struct latt_run *run)
{
	if (!run->keep || run->error || run->region.movable)
		latt_region_free(&run->region);
	else
		latt_pmem_release(&run->region);
	latt_region_free(&run->traffic);	/* never kept */
}

/**
 * latt_run_finish() - merge the threads' figures, free the region, and
 * publish the end state
 * @run: a run none of whose threads runs any more
 * @interrupted: some thread was stopped before it ran
 */
static void latt_run_finish(struct latt_run *run, bool interrupted)
{
	struct latt_thread *t;
	u32 i;

	latt_acct_init(&run->merged);
	run->merged.hist = run->hist;
	/* each thread's samples moved onto thread 0's overhead */
	run->merged.overhead = run->threads[0].rec.acct.overhead;
	run->tsc_start = run->tsc_go;
	for (i = 0; i < run->nr_threads; i++) {
		t = &run->threads[i];
		if (t->rec.error == -EINTR)
			interrupted = true;
		latt_acct_merge(&run->merged, &t->rec.acct);
		run->count += t->rec.count;
		run->bytes_read += t->rec.bytes_read;
		run->bytes_written += t->rec.bytes_written;
		run->windows += t->rec.windows;
		run->tsc_end = max(run->tsc_end, t->rec.tsc_end);
	}
	run->overhead = run->threads[0].rec.acct.overhead;
	run->overhead_min = run->threads[0].rec.overhead_min;
	run->overhead_max = run->threads[0].rec.overhead_max;
	run->overhead_idle = run->threads[0].rec.overhead_idle;
	run->overhead_end = run->threads[0].rec.overhead_end;
	/* marked unstable, the TSC stays so: by the run's end, then */
	run->tsc_unstable = check_tsc_unstable();
	run->timer_step = run->threads[0].timer_step;
	latt_region_let_go(run);
	/* pairs with the acquire in latt_run_state(): figures first */
	smp_wmb();
	atomic_set(&run->state, run->error ? LATT_STATE_FAILED :
		   interrupted ? LATT_STATE_ABORTED : LATT_STATE_DONE);
}

/*
 * A timing thread's calibrations: before the start, idle (the traffic of a
 * loaded run waits at the start line), what corrects its samples but in a
 * loaded run, whose timing thread calibrates again after the start, under
 * the traffic (core.h, struct latt_lcal).
 */
static int latt_calibrate_idle(struct latt_thread *t)
{
	struct latt_thread_rec *r = &t->rec;
	int ret;

	ret = latt_warmup(t);
	if (!ret)
		ret = latt_calibrate(t, &r->acct.overhead, &r->overhead_min,
				     &r->overhead_max);
	r->overhead_idle = r->acct.overhead;
	return ret;
}

/*
 * A timing thread's samples: a loaded run's after its calibration under
 * the traffic, with empty samples at the start of its windows (@lcal:
 * LATT_CALIB_SAMPLES figures, or NULL), whose median is its overhead_end.
 */
static int latt_measure_all(struct latt_thread *t, struct latt_pattern *pat,
			    u64 *lcal)
{
	struct latt_thread_rec *r = &t->rec;
	struct latt_lcal lc;
	int ret;

	latt_lcal_init(&lc, lcal,
		       latt_region_addr(&t->run->region, r->part_offset));
	if (lcal) {
		ret = latt_calibrate(t, &r->acct.overhead, &r->overhead_min,
				     &r->overhead_max);
		if (ret)
			return ret;
		r->tsc_start = rdtsc();	/* the samples begin after it */
	}
	ret = latt_measure(t, pat, &lc);
	/* as the calibration after the samples: unknown (0) when stopped */
	if (lcal && !ret) {
		sort(lcal, lc.n, sizeof(*lcal), latt_cmp_u64, NULL);
		r->overhead_end = latt_lcal_median(lcal, lc.n);
	}
	return ret;
}

/*
 * What @t's windows look for (ABI 2.8), on its CPU: NMIs (counted), the
 * gaps between samples, SMIs where MSR_SMI_COUNT reads (Intel), the steal
 * where the kernel registered a KVM steal-time record for this CPU
 * (MSR_KVM_STEAL_TIME holds its physical address, enabled); interrupts,
 * switches and faults are shut out.
 */
static void latt_ev_init(struct latt_thread *t)
{
	u64 v;

	t->ev_sources = LATT_EVS_NMI | LATT_EVS_GAP | LATT_EVS_IRQ_OFF;
	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
	    !rdmsrl_safe(MSR_SMI_COUNT, &v))
		t->ev_sources |= LATT_EVS_SMI;
	if (kvm_para_available() && !rdmsrl_safe(MSR_KVM_STEAL_TIME, &v) &&
	    (v & KVM_MSR_ENABLED)) {
		t->steal = phys_to_virt(v & KVM_STEAL_VALID_BITS);
		t->ev_sources |= LATT_EVS_STEAL;
	}
}

static int latt_thread(void *data)
{
	struct latt_thread *t = data;
	struct latt_run *run = t->run;
	const bool lat = t->rec.role == LATT_ROLE_LATENCY;
	const bool loaded = lat && run->cfg.mode == LATT_MODE_LOADED;
	struct latt_pattern pat;
	u64 off, *lcal = NULL;
	int ret;

	ret = latt_thread_pattern_of(t, &pat);
	if (WARN_ON_ONCE(ret))	/* checked at START */
		goto out;
	if (loaded) {
		lcal = kmalloc_array(LATT_CALIB_SAMPLES, sizeof(*lcal),
				     LATT_GFP);
		ret = lcal ? 0 : -ENOMEM;
		if (ret)
			goto out;
	}
	if (lat) {
		if (run->cfg.pattern == LATT_PAT_CHASE && !run->chain_reused) {
			ret = latt_chase_build(run, &pat, &off);
			if (ret == -EHWPOISON)
				ret = latt_poisoned(t, off);
			if (ret)
				goto out;
		}
		ret = latt_calibrate_idle(t);
		if (ret)
			goto out;
		if (t->wev)
			latt_ev_init(t);
	}
	ret = latt_wait_go(t);
	if (ret)
		goto out;
	t->rec.tsc_start = rdtsc();
	if (lat)
		ret = latt_measure_all(t, &pat, lcal);
	else
		ret = latt_stream(t, &pat);
	t->rec.tsc_end = rdtsc();
	if (loaded)
		WRITE_ONCE(run->latency_done, true);	/* traffic stops */
	/*
	 * The same calibration after the samples, to show a drift; stopped
	 * or with the region gone meanwhile, it is unknown (0), and the
	 * samples stand.  A loaded run's was taken across them.
	 */
	if (!ret && lat && !loaded &&
	    latt_calibrate(t, &t->rec.overhead_end, NULL, NULL))
		t->rec.overhead_end = 0;
	/* ABI 2.7: the batches, after both (latency mode, one thread) */
	if (!ret && lat && run->cfg.batch)
		ret = latt_batch_measure(t, &pat);
out:
	kfree(lcal);
	if (!t->rec.tsc_end)
		t->rec.tsc_end = rdtsc();
	t->rec.error = ret;
	if (ret && ret != -EINTR) {
		/* the first failure is the run's; it stops the others */
		cmpxchg(&run->error, 0, ret);
		latt_halt(run);
	}
	if (loaded)
		WRITE_ONCE(run->latency_done, true);
	if (atomic_dec_and_test(&run->live))
		latt_run_finish(run, false);
	return ret;
}

/* A thread's part, role and buffers. */
static int latt_thread_init(struct latt_run *run, u32 i, u32 nlat)
{
	struct latt_thread *t = &run->threads[i];
	const struct latt_config *c = &run->cfg;
	int node = cpu_to_node(run->cpus[i]);

	t->run = run;
	t->idx = i;
	t->rec.cpu = run->cpus[i];
	latt_acct_init(&t->rec.acct);
	t->rec.acct.cpu = t->rec.cpu;
	t->rec.acct.threshold = c->threshold;
	t->rec.role = latt_thread_role(c, i);
	if (latt_thread_part(c, run->tcfg.region, i, run->nr_threads,
			     &t->rec.part_offset, &t->rec.part_bytes))
		return -EINVAL;
	if (t->rec.role == LATT_ROLE_STREAM) {
		if (c->mode != LATT_MODE_BANDWIDTH)
			return 0;
		t->series = kvzalloc_node(array_size(run->series_len,
						     sizeof(u64)), LATT_GFP, node);
		return t->series ? 0 : -ENOMEM;
	}
	t->rec.acct.hist = kvzalloc_node(array_size(LATT_HIST_BUCKETS,
						sizeof(u64)), LATT_GFP, node);
	if (!t->rec.acct.hist)
		return -ENOMEM;
	t->rec.acct.max_outliers = latt_thread_outliers(c->max_outliers, nlat, i);
	if (c->threshold && t->rec.acct.max_outliers) {
		t->rec.acct.outliers =
			kvmalloc_node(array_size(t->rec.acct.max_outliers,
						 sizeof(*t->rec.acct.outliers)),
				      LATT_GFP, node);
		if (!t->rec.acct.outliers)
			return -ENOMEM;
		/* ABI 2.8: a window's evidence for each record, at most */
		t->max_wev = t->rec.acct.max_outliers;
		t->wev = kvmalloc_node(array_size(t->max_wev, sizeof(*t->wev)),
				       LATT_GFP, node);
		if (!t->wev)
			return -ENOMEM;
	}
	if (c->batch) {		/* ABI 2.7: a batch's blocks, up to 2K */
		t->batch_lines = kvmalloc_node(array_size(2 * c->batch + 1,
							  sizeof(char *)),
					       LATT_GFP, node);
		t->batch_offs = kvmalloc_node(array_size(2 * c->batch,
							 sizeof(u64)),
					      LATT_GFP, node);
		if (!t->batch_lines || !t->batch_offs)
			return -ENOMEM;
	}
	return 0;
}

/* Stop and release every thread started so far; the run stays as it is. */
static void latt_threads_stop(struct latt_run *run)
{
	struct latt_thread *t;
	u32 i;

	latt_halt(run);
	for (i = 0; run->threads && i < run->nr_threads; i++) {
		t = &run->threads[i];
		if (!t->task)
			continue;
		kthread_stop(t->task);
		put_task_struct(t->task);
		t->task = NULL;
	}
}

/* The size of the page that maps @addr in the kernel's page tables. */
static u64 latt_page_size(const void *addr)
{
	unsigned int level;

	if (!lookup_address((unsigned long)addr, &level))
		return 0;
	return page_level_size(level);
}

/*
 * The smallest page that maps any byte of @r in the kernel's page tables
 * (a chunk's, or part of one's, 4 KiB where the direct map was split), 0
 * if a byte is not mapped.  Looked up page by page of the mapping, never
 * past a chunk's end (the next chunk may be mapped otherwise); done at the
 * first 4 KiB page, none smaller.
 */
static u64 latt_region_page_size(const struct latt_region *r)
{
	u64 off = 0, min = 0, sz, step, cend;
	const char *a;

	while (off < r->bytes) {
		a = latt_region_addr(r, off);
		sz = latt_page_size(a);
		if (!sz)
			return 0;
		if (!min || sz < min)
			min = sz;
		if (min <= PAGE_SIZE)
			break;
		step = sz - ((unsigned long)a & (sz - 1));
		cend = (off | ((1ULL << r->chunk_shift) - 1)) + 1;
		off = min_t(u64, off + step, cend);
		if (!(off & ((1ULL << 30) - 1)))
			cond_resched();
	}
	return min;
}

/**
 * latt_run_start() - allocate the results and start the kthreads
 * @run: a checked run with its region and its CPUs (@cpus, @nr_threads)
 *
 * The configuration is checked, the region allocated and run->fn chosen by
 * the caller.
 *
 * Return: 0 or a negative errno, with nothing left running.
 */
int latt_run_start(struct latt_run *run)
{
	const struct latt_config *c = &run->cfg;
	u32 i, nlat = c->mode == LATT_MODE_BANDWIDTH ? 0 :
		      c->mode == LATT_MODE_LOADED ? 1 : run->nr_threads;
	struct task_struct *task;
	int ret;

	run->page_size = latt_region_page_size(&run->region);
	run->chunk_size = 1ULL << run->region.chunk_shift;
	run->window_cycles = div_u64((u64)c->window_us * tsc_khz, 1000);
	run->ceiling_cycles = max(10 * run->window_cycles,
				  div_u64((u64)LATT_CEILING_MIN_US * tsc_khz,
					  1000));
	run->duration_cycles = div_u64(c->duration_us * tsc_khz, 1000);
	if (c->mode == LATT_MODE_BANDWIDTH)
		latt_series_bins(run->window_cycles, run->duration_cycles,
				 &run->series_cycles, &run->series_len);
	/* ABI 2.7: a record for each pair (LATT_IOC_BATCH), before the run */
	run->batch.k = c->batch;
	if (c->batch) {
		run->batch.pairs =
			kvmalloc_node(array_size(c->batch_pairs,
						 sizeof(*run->batch.pairs)),
				      LATT_GFP, cpu_to_node(run->cpus[0]));
		if (!run->batch.pairs)
			return -ENOMEM;
	}
	run->hist = kvzalloc(array_size(LATT_HIST_BUCKETS, sizeof(u64)),
			     LATT_GFP);
	run->threads = kvcalloc(run->nr_threads, sizeof(*run->threads),
				LATT_GFP);
	if (!run->hist || !run->threads)
		return -ENOMEM;
	for (i = 0; i < run->nr_threads; i++) {
		ret = latt_thread_init(run, i, nlat);
		if (ret)
			return ret;
	}
	atomic_set(&run->live, run->nr_threads);
	atomic_set(&run->state, LATT_STATE_RUNNING);

	for (i = 0; i < run->nr_threads; i++) {
		task = kthread_create_on_node(latt_thread, &run->threads[i],
					      cpu_to_node(run->cpus[i]),
					      "lattester/%u", run->cpus[i]);
		if (IS_ERR(task)) {
			/* never woken: they end without running */
			latt_threads_stop(run);
			atomic_set(&run->state, LATT_STATE_FAILED);
			return PTR_ERR(task);
		}
		kthread_bind(task, run->cpus[i]);
		get_task_struct(task);
		run->threads[i].task = task;
	}
	for (i = 0; i < run->nr_threads; i++)
		wake_up_process(run->threads[i].task);
	return 0;
}

/*
 * What a bandwidth run reports never falls: while it is stopped the clock
 * goes on until the threads' end times are merged, which may be earlier.
 * Returns the most of @us and what was reported before.
 */
static u64 latt_progress_max(struct latt_run *run, u64 us)
{
	s64 old = atomic64_read(&run->progress), prev;

	while ((u64)old < us) {
		prev = atomic64_cmpxchg(&run->progress, old, (s64)us);
		if (prev == old)
			return us;
		old = prev;
	}
	return (u64)old;
}

/**
 * latt_run_progress() - how far a run is, for STATUS and sysfs
 * @run: the run
 * @done: out: samples taken; bandwidth: microseconds streamed, which never
 *	falls within a run and stays at its last value after it
 * @total: out: samples asked of all timing threads; bandwidth: duration_us
 */
void latt_run_progress(struct latt_run *run, u64 *done, u64 *total)
{
	u64 go, us;
	u32 i;

	if (run->cfg.mode != LATT_MODE_BANDWIDTH) {
		for (*done = 0, i = 0; run->threads && i < run->nr_threads; i++)
			*done += atomic64_read(&run->threads[i].done);
		*total = run->cfg.samples *
			 (run->cfg.mode == LATT_MODE_LOADED ? 1 :
			  run->nr_threads);
		return;
	}
	*total = run->cfg.duration_us;
	go = smp_load_acquire(&run->tsc_go);
	us = 0;
	if (!go)		/* not started, or stopped before the start */
		us = 0;
	else if (atomic_read_acquire(&run->state) != LATT_STATE_RUNNING)
		us = run->tsc_end > go ? run->tsc_end - go : 0;
	else if (READ_ONCE(run->halt))	/* stopping: the clock is no news */
		us = 0;
	else if (rdtsc() > go)
		us = rdtsc() - go;
	us = tsc_khz ? div_u64(us * 1000, tsc_khz) : 0;
	*done = latt_progress_max(run, min(us, *total));
}

/** latt_run_windows() - the windows every thread has run so far */
u64 latt_run_windows(struct latt_run *run)
{
	u64 n = 0;
	u32 i;

	for (i = 0; run->threads && i < run->nr_threads; i++)
		n += READ_ONCE(run->threads[i].rec.windows);
	return n;
}

/**
 * latt_run_stop() - stop the kthreads if they run, wait for them, free the
 * region
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
	WRITE_ONCE(run->abort, true);
	latt_threads_stop(run);
	/* threads stopped before they ran never got to end the run */
	if (atomic_read(&run->state) == LATT_STATE_RUNNING && run->threads)
		latt_run_finish(run, true);
	latt_region_let_go(run);
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
	u32 i;

	if (!run || !refcount_dec_and_test(&run->refs))
		return;
	latt_run_stop(run);
	latt_region_free(&run->region);		/* kept, and never taken */
	latt_region_free(&run->traffic);
	for (i = 0; run->threads && i < run->nr_threads; i++) {
		kvfree(run->threads[i].rec.acct.hist);
		kvfree(run->threads[i].rec.acct.outliers);
		kvfree(run->threads[i].wev);
		kvfree(run->threads[i].series);
		kvfree(run->threads[i].batch_lines);
		kvfree(run->threads[i].batch_offs);
	}
	kvfree(run->threads);
	kvfree(run->batch.pairs);
	kfree(run->cpus);
	kvfree(run->hist);
	kfree(run);
}
