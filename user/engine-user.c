// SPDX-License-Identifier: GPL-2.0
/*
 * engine-user.c - the user engine: what the module's kthread does (kmod/
 * run.c, dram.c, ops.c), from a thread of lattester-ctl.
 *
 * The same sample functions (include/lattester/samples.h), chosen by the
 * same code from CPUID and checked by the same rules (rules.h;
 * engine_rules() lends them to the runner's checks of either engine); the
 * same address generator (pattern.h), so one seed gives one offset
 * sequence in both engines; the same chase cycle
 * (Sattolo over the slots, with pointers); the same windows of samples,
 * of streaming and of the calibration (core.h: the sample function on
 * zero bytes, LATT_CALIB_SAMPLES times: median, min, max); the same
 * accounting into struct latt_result, the histogram and the
 * outlier records; with several threads (--threads, --cpus, the modes)
 * core.h's roles, parts, seeds, streams and merge, one pthread per CPU
 * where the module has a kthread, all starting at one TSC time.  What
 * differs: each thread is pinned to its CPU with
 * pthread_setaffinity_np() but runs with interrupts and preemption on, so
 * windows are bookkeeping only (they keep their length and count, no NMI
 * detection: nmi_windows is 0), and the memory is the process's: from
 * libnuma on the node, mlock'ed (a warning if that fails) and pre-faulted,
 * with MADV_HUGEPAGE for --hugepages; or, for a device-DAX or fsdax-file
 * target, the device or file mapped, locked and pre-faulted by map.c.  On
 * persistent memory, chase links its nodes by offsets masked at each load
 * (latt_sample_chase_off()), as the module does: others may write a shared
 * device or file while the run goes.  A page of it may also vanish under
 * the run (the file truncated, the device disabled) or be poisoned (a media
 * error): the access raises SIGBUS, and the run fails with the reason, as
 * the module's run fails when its device goes away.  The pre-fault of a
 * mapped target (map.c) runs under the same guard (map_guard()), and is
 * refused with the byte and the reason; known bad blocks were refused (or
 * skipped) before anything was mapped (runner.c).
 *
 * A sweep keeps the region between its points (struct user_keep, as the
 * module keeps its own on an open file with LATT_CFG_REUSE): a point that
 * would make the same region (target, node, region, pages, offset,
 * access) takes the one the previous point left, locked and faulted in,
 * and the samples flush their lines as they always do; any other point
 * frees it first.  Allocating, locking and faulting in a region costs
 * far more than 10^5 samples on it.
 */
#include <cpuid.h>
#include <errno.h>
#include <numa.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <lattester/chase.h>
#include <lattester/core.h>
#include <lattester/hist.h>
#include <lattester/pattern.h>
#include <lattester/samples.h>
#include <lattester/pick.h>
#include <lattester/quantum.h>
#include "engine-user.h"
#include "evidence.h"
#include "host.h"
#include "log.h"
#include "map.h"
#include "msr.h"

#define USER_HUGE		MAP_HUGE
#define USER_PAGE		4096ULL
#define POLL_FIRST_US		1000
#define POLL_MS			100
/* the common start, this far ahead of the last thread ready: time for
 * the others to wake from their naps and spin to it (a vCPU the
 * hypervisor holds longer starts late; the deadline still holds) */
#define USER_GO_MARGIN_US	1000
#define USER_GO_NAP_US		50	/* a nap at the start line, waiting */
#define USER_CHASE_STEPS	(1U << 16)	/* between looks for a stop */
#define CLOCKSOURCE	"/sys/devices/system/clocksource/clocksource0/current_clocksource"

static __u64 xcr0(void)
{
	__u32 lo, hi;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((__u64)hi << 32) | lo;
}

/*
 * LATTESTER_HWCAPS=-rdtscp,-clwb,... hides CPU features from the user
 * engine, as a hypervisor that masks CPUID bits would (glibc's
 * glibc.cpu.hwcaps tunable does the same for its own choices): to try the
 * fallbacks on a CPU that has everything.  Names as `lattester-ctl info`
 * prints them; an unknown name is said once and ignored.
 */
static __u64 hwcaps_hidden(void)
{
	static bool said;
	const char *env = getenv("LATTESTER_HWCAPS");
	char buf[256], *tok, *save = NULL;
	__u64 hide = 0;
	int bit;

	if (!env || !*env)
		return 0;
	snprintf(buf, sizeof(buf), "%s", env);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		bit = *tok == '-' ? latt_value(NAMES_FEATURE, tok + 1) : -1;
		if (bit >= 0)
			hide |= 1ULL << bit;
		else if (!said)
			log_warn("LATTESTER_HWCAPS: '%s' is not -FEATURE with a feature of 'lattester-ctl info'; ignored",
				 tok);
	}
	said = true;
	return hide;
}

/*
 * Does LFENCE serialize (pick.h's latt_lfence_serializing(), as the
 * module's latt_lfence_serial())?  On AMD, CPUID Fn8000_0021 EAX[2], else
 * DE_CFG bit 1 read through the msr driver where it can be (root; else
 * not shown).
 */
static bool lfence_serial(void)
{
	unsigned int a, b, c, d, ext21 = 0;
	__u64 de_cfg = 0;
	bool amd;
	int err = -1;

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return false;
	/* "AuthenticAMD", "HygonGenuine": EBX, EDX, ECX */
	amd = (b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163) ||
	      (b == 0x6f677948 && d == 0x6e65476e && c == 0x656e6975);
	if (!amd)
		return true;
	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000021 &&
	    __get_cpuid(0x80000021, &a, &b, &c, &d))
		ext21 = a;
	if (!(ext21 & (1U << 2)))
		err = msr_read(0, 0xc0011029, &de_cfg);	/* DE_CFG */
	return latt_lfence_serializing(amd, ext21, !err, de_cfg);
}

/* The LATT_FEAT_* bits of this CPU, and the widths usable here. */
static void user_cpu(__u64 *features, __u32 *widths)
{
	unsigned int a, b, c, d;
	__u64 f = 0, x = 0;
	__u32 w = 1U << 3;
	bool osxsave = false;

	if (__get_cpuid(1, &a, &b, &c, &d)) {
		if (d & (1U << 19))
			f |= LATT_FEAT_CLFLUSH;
		if (d & (1U << 26))
			f |= LATT_FEAT_SSE2;
		if (c & (1U << 19))
			f |= LATT_FEAT_SSE4_1;
		if (c & (1U << 28))
			f |= LATT_FEAT_AVX;
		osxsave = c & (1U << 27);
	}
	if (osxsave)
		x = xcr0();
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		if (b & (1U << 5))
			f |= LATT_FEAT_AVX2;
		if (b & (1U << 16))
			f |= LATT_FEAT_AVX512F;
		if (b & (1U << 23))
			f |= LATT_FEAT_CLFLUSHOPT;
		if (b & (1U << 24))
			f |= LATT_FEAT_CLWB;
		/*
		 * CPUID.(EAX=7,ECX=0):ECX[28]: MOVDIR64B (bit 27 would be
		 * MOVDIRI).  CPUID alone says so: a hypervisor that hides
		 * the bit hides the op, which is refused, never tried.
		 */
		if (c & (1U << 28))
			f |= LATT_FEAT_MOVDIR64B;
	}
	if (__get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1U << 27)))
		f |= LATT_FEAT_RDTSCP;
	if (__get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1U << 8)))
		f |= LATT_FEAT_CONSTANT_TSC | LATT_FEAT_NONSTOP_TSC;
	if (lfence_serial())
		f |= LATT_FEAT_LFENCE_SERIAL;
	f &= ~hwcaps_hidden();

	/* as the module's latt_widths(), plus the OS's state (XCR0) */
	if (f & LATT_FEAT_SSE2)
		w |= 1U << 4;
	if ((f & LATT_FEAT_AVX) && (x & 0x6) == 0x6)
		w |= 1U << 5;
	else
		f &= ~(LATT_FEAT_AVX | LATT_FEAT_AVX2);
	if ((f & LATT_FEAT_AVX512F) && (x & 0xe6) == 0xe6)
		w |= 1U << 6;
	else
		f &= ~LATT_FEAT_AVX512F;
	if (!(f & LATT_FEAT_SSE2))
		w &= ~(1U << 4);
	*features = f;
	*widths = w;
}

/**
 * user_clocksource() - the kernel's current clocksource, "" if unknown
 */
const char *user_clocksource(void)
{
	static char name[32];
	FILE *f;

	if (name[0])
		return name;
	f = fopen(CLOCKSOURCE, "r");
	if (f) {
		if (!fgets(name, sizeof(name), f))
			name[0] = 0;
		fclose(f);
	}
	name[strcspn(name, "\n")] = 0;
	return name;
}

static __u64 ts_ns(const struct timespec *t)
{
	return (__u64)t->tv_sec * 1000000000ULL + (__u64)t->tv_nsec;
}

/*
 * tsc_khz: the kernel's (tsc_freq_khz) if it says, else ~100 ms against
 * CLOCK_MONOTONIC_RAW; either once a process, so that a sweep's points
 * (each asks user_engine_info()) don't each wait the 100 ms
 */
static __u64 user_tsc_khz(void)
{
	static __u64 khz;
	struct timespec t0, t1, nap = { 0, 100 * 1000 * 1000 };
	unsigned long long v;
	__u64 c0, c1, ns;

	if (khz)
		return khz;
	if (!host_tsc_khz(&v))	/* info names the source with it too */
		return khz = v;
	clock_gettime(CLOCK_MONOTONIC_RAW, &t0);
	c0 = latt_rdtsc();
	while (nanosleep(&nap, &nap) && errno == EINTR)
		;
	clock_gettime(CLOCK_MONOTONIC_RAW, &t1);
	c1 = latt_rdtsc();
	ns = ts_ns(&t1) - ts_ns(&t0);
	khz = ns ? (c1 - c0) * 1000000ULL / ns : 0;
	log_dbg("tsc_khz %llu, calibrated against CLOCK_MONOTONIC_RAW",
		(unsigned long long)khz);
	if (!khz)
		khz = 1;	/* nonsense, but kept: not calibrated again */
	return khz;
}

/** user_engine_timer() - "rdtscp" or "rdtsc", as the user engine times */
const char *user_engine_timer(void)
{
	__u64 f;
	__u32 w;

	user_cpu(&f, &w);
	return f & LATT_FEAT_RDTSCP ? "rdtscp" : "rdtsc";
}

/*
 * The TSC's quantum and read cost (quantum.h), found once a process as
 * the module finds them at load: from latt_timer_diffs(), here with
 * interrupts on (a pair one lands in is a stray difference, and the fit
 * allows 1% of them).
 */
static const struct latt_quantum *user_timer_quantum(void)
{
	static struct latt_quantum q;
	static bool done;
	__u64 d[LATT_QUANTUM_DIFFS];

	if (!done) {
		latt_timer_diffs(LATT_TIMER_RDTSC, d, LATT_QUANTUM_DIFFS, 0);
		latt_quantum_find(&q, d, LATT_QUANTUM_DIFFS);
		done = true;
	}
	return &q;
}

int user_engine_info(struct latt_info *in)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	memset(in, 0, sizeof(*in));
	in->abi_version = LATT_ABI_VERSION;
	in->hist_buckets = LATT_HIST_BUCKETS;
	user_cpu(&in->features, &in->widths);
	/* device-DAX and DAX files (map.c); "lfence; rdtsc" without rdtscp */
	in->features |= LATT_FEAT_PMEM | LATT_FEAT_TIMER_RDTSC;
	/* pthreads pinned to the CPUs: every mode, as the module's threads */
	in->features |= LATT_FEAT_THREADS;
	/* --batch's pairs after the samples (core.h) */
	in->features |= LATT_FEAT_BATCH;
	/* each outlier window's evidence (evidence.c) */
	in->features |= LATT_FEAT_WINDOWS;
	/* a loaded run's traffic on a target of its own (--traffic-target) */
	in->features |= LATT_FEAT_TRAFFIC;
	/* the kernel keeps time with the TSC only while it trusts it */
	if (!strcmp(user_clocksource(), "tsc"))
		in->features |= LATT_FEAT_TSC_STABLE;
	in->tsc_khz = user_tsc_khz();
	in->max_size = LATT_MAX_SIZE;
	in->max_region = LATT_MAX_REGION;
	in->max_chain = LATT_MAX_CHAIN;
	in->max_outliers = LATT_MAX_OUTLIERS;
	in->nr_cpu_ids = cpus > 0 ? (__u32)cpus : 1;
	in->window_us = LATT_DEFAULT_WINDOW_US;
	in->state = LATT_STATE_IDLE;
	in->timer_quantum = user_timer_quantum()->quantum;
	in->timer_read_cost = user_timer_quantum()->read_cost;
	return 0;
}

/**
 * engine_rules() - rules.h's checks of a configuration, both engines' (the
 *	module makes them again at START)
 * @c: the configuration, not changed
 * @traffic: the run has a --traffic-target: latt_run_rules() checks what
 *	the probe's target sees
 * @in: the engine's info (features, widths)
 * @lacks: out: the instruction the CPU lacks, or NULL
 *
 * Return: NULL, or why @c can't run.
 */
const char *engine_rules(const struct latt_config *c, bool traffic,
			 const struct latt_info *in, const char **lacks)
{
	struct latt_config copy = *c;
	struct latt_pick p = { 0 };
	const char *why = NULL;
	__u64 f = in->features;

	/* a module before ABI 2.4 has no such rule, nor the bit */
	if (in->abi_version < ((2U << 16) | 4))
		f |= LATT_FEAT_LFENCE_SERIAL;
	*lacks = NULL;
	if (latt_run_rules(&copy, traffic, &why) ||
	    latt_pick_sample(&copy, f, in->widths, &p, &why)) {
		*lacks = p.lacks;
		return why;
	}
	return NULL;
}

/*
 * The module's latt_config_check() less what is checked before (the
 * runner's engine_rules()): resolve node (DRAM: the CPU's, for "local"),
 * window, fence and width in @c, choose the functions and the timer; with
 * @traffic, a --traffic-target's, check what the probe's target sees.
 * Says what is wrong and returns 1, or 0.
 */
static int pick(struct latt_config *c, const struct latt_info *in,
		bool traffic, struct latt_pick *p)
{
	const char *why = NULL;
	int node;

	if (c->node == LATT_NODE_LOCAL && c->target == LATT_TARGET_DRAM) {
		node = numa_node_of_cpu((int)c->cpu);
		c->node = node < 0 ? 0 : (__u32)node;
	}
	if (!c->window_us)
		c->window_us = in->window_us;
	/* what the probe's target sees: a traffic target takes the rest */
	if (latt_run_rules(c, traffic, &why) ||
	    latt_pick_sample(c, in->features, in->widths, p, &why)) {
		if (p->lacks)
			log_err("%s: this CPU lacks %s", why, p->lacks);
		else
			log_err("%s", why);
		return 1;
	}
	return 0;
}

/*
 * One measuring thread: the module's struct latt_thread, a pthread pinned
 * to its CPU.  Its figures are its own until the run is over.
 */
struct user_thr {
	struct user_run *u;
	pthread_t tid;
	__u32 idx, node;
	struct latt_thread_rec rec;	/* what it records (core.h); windows
					 * atomic */
	__u64 *hist;		/* its histogram, on its node */
	__u64 *series;		/* bandwidth: bytes per bin, on its node */
	__u64 *lcal;		/* loaded: LATT_CALIB_SAMPLES, struct latt_lcal */
	char **lines;		/* --batch: 2K + 1 blocks (struct latt_step) */
	__u64 *offs;		/* --batch: their 2K offsets */
	char *chase_pos;	/* a chase's place after the samples, where */
	__u64 chase_opos;	/* the batches go on (not the cycle's start,
				 * whose lines the samples left cached) */
	__u64 done;		/* atomic: samples taken */
	struct ev_src ev;	/* what it counts around its windows */
	bool ev_on;		/* ... if anything (user_run.evidence) */
	struct latt_wev *wev;	/* the windows that hold its records */
	__u32 nr_wev, max_wev;
	__u64 quiet_windows;	/* windows with no record and an event */
	__u64 quiet_ev[LATT_CAUSE_EVENTS];	/* their events */
	__u64 ev_cycles;	/* TSC cycles spent reading it */
} __attribute__((aligned(64)));	/* one thread's writes, its own lines */

/* What the measuring threads share with the one that waits for them. */
struct user_run {
	const char *spec;	/* the --target, for messages */
	struct latt_config cfg;
	struct latt_pick pick;	/* functions, width, timer */
	struct latt_stream_pick streams;	/* the untimed ones */
	char *base;		/* the region */
	const char *tspec;	/* --traffic-target, resolved, or NULL */
	char *tbase;		/* its region: the traffic streams there */
	__u64 traffic;		/* its bytes; 0: the traffic is on @base */
	bool chase_off;		/* persistent memory: chase by offsets */
	bool chase_built;	/* the region holds this run's chase cycle */
	int clflushopt;
	__u64 window_cycles;
	__u64 duration_cycles;
	__u64 series_cycles;
	__u32 series_len;
	__u64 tsc_khz;
	__u64 timer_step;	/* thread 0's */
	__u32 nr_threads, nlat;
	struct user_thr *thr;
	__u64 tsc_go;		/* atomic: the common start, 0 until set */
	__u32 ready;		/* atomic: threads at the start line */
	__u32 live;		/* atomic: threads not yet ended */
	int latency_done;	/* atomic: loaded: thread 0 is done */
	int abort;		/* atomic: stop at the next window's end */
	int finished;		/* atomic: every thread is done */
	sem_t done_sem;		/* posted once @finished is set */
	int error;		/* atomic: the first failure, negative errno */
	struct latt_batch_rec batch;	/* --batch: thread 0's pairs */
	bool evidence;		/* count events around windows (cause.h) */
	struct ev_probe evp;	/* what there is to count */
};

static __u64 load64(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static bool stopping(const struct user_run *u)
{
	return __atomic_load_n(&u->abort, __ATOMIC_ACQUIRE);
}

static struct latt_chase_node *chase_node(void *ctx, __u64 slot)
{
	const struct user_run *u = ctx;

	return (struct latt_chase_node *)(u->base +
		latt_slot_offset(slot, u->cfg.size));
}

/*
 * The module's latt_chase_build() (chase.h): pointers, or offsets (pmem),
 * in steps, looking for a stop between them (a GiB takes seconds).
 */
static int chase_build(struct user_run *u, struct latt_pattern *pat)
{
	struct latt_chase ch;

	latt_chase_init(&ch, pat, chase_node, u, u->chase_off);
	while (latt_chase_step(&ch, USER_CHASE_STEPS))
		if (stopping(u))
			return -EINTR;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* The module's latt_warmup(): spin, so the core leaves its idle clock. */
static void warmup(const struct user_run *u)
{
	__u64 end = latt_rdtsc() + LATT_WARMUP_US * u->tsc_khz / 1000;

	while (latt_rdtsc() < end && !stopping(u))
		__builtin_ia32_pause();
}

/*
 * The module's latt_calibrate() in one window (core.h's): the empty sample,
 * median (and min/max if asked); the timer's step, once.
 */
static int calibrate(struct user_thr *t, __u64 *med, __u64 *lo, __u64 *hi)
{
	struct user_run *u = t->u;
	__u64 *v = malloc(LATT_CALIB_SAMPLES * sizeof(*v));
	char *pos = u->base;
	const struct latt_step s = {
		.fn = u->pick.fn,
		.chase = u->pick.chase,
		.chase_off = u->pick.chase_off,
		.mode = latt_step_mode(&u->cfg, u->chase_off),
	};
	__u64 opos = 0;

	if (!v)
		return -ENOMEM;
	if (!t->idx && !u->timer_step)
		u->timer_step = latt_timer_step(u->pick.timer);
	/* one window: no interrupts to let in */
	latt_calib_window(&s, u->base, &pos, &opos, v, 0, latt_rdtsc(), ~0ULL,
			  latt_rdtsc);
	qsort(v, LATT_CALIB_SAMPLES, sizeof(*v), cmp_u64);
	latt_calib_pick(v, med, lo, hi);
	free(v);
	return 0;
}

/* core.h's latt_sample_window() and latt_stream_window(): an offset of
 * the region, in its one mapping */
static inline char *step_addr(void *base, __u64 off)
{
	return (char *)base + off;
}

/*
 * A latency window's evidence, from the reading @a at its start to @b at
 * its end (evidence.h): kept where it holds a record, tallied where it
 * holds none but an event.  @first: the records before it.
 */
static void window_evidence(struct user_thr *t, const struct ev_snap *a,
			    const struct ev_snap *b, __u32 first)
{
	struct latt_wev w, *d;

	d = latt_wev_open(t->wev, &t->nr_wev, t->max_wev, &w, &t->rec.acct,
			  first, t->rec.windows, t->ev.sources, t->ev.tsc_khz);
	ev_window(&t->ev, a, b, d);
	if (d == &w)
		latt_wev_tally(&w, &t->quiet_windows, t->quiet_ev);
}

/* The window's end: its length, counted; the thread's progress. */
static void window_done(struct user_thr *t, __u64 cycles, __u64 done)
{
	latt_acct_window(&t->rec.acct, cycles, 0, 0);
	__atomic_store_n(&t->done, done, __ATOMIC_RELEASE);
	__atomic_store_n(&t->rec.windows, t->rec.windows + 1, __ATOMIC_RELEASE);
}

/* How @t takes its samples and batches (core.h's struct latt_step). */
static struct latt_step step_of(struct user_thr *t)
{
	const struct user_run *u = t->u;

	return (struct latt_step){
		.fn = u->pick.fn,
		.batch = u->pick.batch,
		.lines = t->lines,
		.offs = t->offs,
		.chase = u->pick.chase,
		.chase_off = u->pick.chase_off,
		.ctx = u->base,
		.base = u->base,
		.pos = u->base,
		.mask = (u->cfg.region - 1) & ~7ULL,
		.part = t->rec.part_offset,
		.size = u->cfg.size,
		.chain = u->cfg.chain,
		.mode = latt_step_mode(&u->cfg, u->chase_off),
		.clflushopt = u->clflushopt,
	};
}

/*
 * The module's latt_measure(), windows for bookkeeping only; a loaded run's
 * windows start with empty samples (@lc, core.h's struct latt_lcal).
 */
static int sample_all(struct user_thr *t, struct latt_pattern *pat,
		      struct latt_lcal *lc)
{
	struct user_run *u = t->u;
	const __u64 total = u->cfg.samples;
	struct latt_step s = step_of(t);
	__u64 done = 0, w0, now;
	struct ev_snap snap[2];
	__u32 first;
	int e = 0;

	t->rec.acct.tsc0 = load64(&u->tsc_go);
	memset(snap, 0, sizeof(snap));
	if (t->ev_on)
		ev_read(&t->ev, &snap[e]);
	while (done < total) {
		first = t->rec.acct.nr_outliers;
		w0 = latt_rdtsc();
		latt_lcal_window(lc, &s, t->rec.windows);
		now = latt_sample_window(&s, pat, &t->rec.acct, &done, total,
					 lc->v ? latt_rdtsc() : w0,
					 u->window_cycles, t->rec.windows,
					 step_addr, latt_rdtsc);
		t->rec.count = done - t->rec.acct.backwards;
		if (t->ev_on) {
			ev_read(&t->ev, &snap[!e]);
			window_evidence(t, &snap[e], &snap[!e], first);
			e = !e;
			/* from the reading's TSC: its own cost, and this */
			t->ev_cycles += latt_rdtsc() - now;
		}
		window_done(t, now - w0, done);
		if (stopping(u))
			return done < total ? -EINTR : 0;
	}
	t->chase_pos = s.pos;
	t->chase_opos = s.opos;
	return 0;
}

/*
 * The module's latt_batch_measure(): --batch's pairs after the samples,
 * window by window (core.h's latt_batch_window()).  A chase goes on from
 * where the samples left it.
 */
static int batch_all(struct user_thr *t, struct latt_pattern *pat)
{
	struct user_run *u = t->u;
	const __u64 total = u->cfg.batch_pairs;
	struct latt_step s = step_of(t);
	__u64 done = 0, w0, now;

	s.pos = t->chase_pos;
	s.opos = t->chase_opos;
	if (stopping(u))	/* stopped during the calibration before */
		return -EINTR;
	while (done < total) {
		w0 = latt_rdtsc();
		now = latt_batch_window(&s, pat, &u->batch, &t->rec.acct,
					&done, total, w0, u->window_cycles,
					step_addr, latt_rdtsc);
		window_done(t, now - w0, __atomic_load_n(&t->done,
							  __ATOMIC_ACQUIRE));
		if (stopping(u))
			return done < total ? -EINTR : 0;
	}
	return 0;
}

/*
 * The module's latt_stream(): core.h's latt_stream_batch() window by
 * window, each access followed by the delay; the bytes counted, the
 * series binned.  Writes are fenced once a window with mfence, which
 * orders clflush too (SDM Vol. 2A, CLFLUSH: ordered by MFENCE; the other
 * stores and flushes by SFENCE as well).
 */
static int stream(struct user_thr *t, struct latt_pattern *pat)
{
	struct user_run *u = t->u;
	const struct latt_config *c = &u->cfg;
	const bool bw = c->mode == LATT_MODE_BANDWIDTH;
	const __u64 go = load64(&u->tsc_go);
	const __u64 end = bw ? go + u->duration_cycles : ~0ULL;
	struct latt_stream s;
	__u64 w0, now, rd, wr, bin;

	latt_stream_init(&s, c, u->streams.op_fn, u->streams.read_fn,
			 u->streams.write_fn, u->streams.mix_fn,
			 u->traffic ? u->tbase : u->base,
			 t->rec.part_offset);
	for (;;) {
		w0 = latt_rdtsc();
		rd = s.rd;
		wr = s.wr;
		now = latt_stream_window(&s, pat, w0, u->window_cycles, end,
					 c->delay, step_addr, latt_rdtsc);
		if (s.wr != wr)
			__builtin_ia32_mfence();
		t->rec.accesses = s.accesses;
		t->rec.bytes_read = s.rd;
		t->rec.bytes_written = s.wr;
		if (t->series) {
			bin = (now - go) / u->series_cycles;
			t->series[bin < u->series_len ? bin :
				  u->series_len - 1] += s.rd - rd + s.wr - wr;
		}
		window_done(t, now - w0, 0);
		if (bw && now >= end)
			return 0;
		if (!bw && __atomic_load_n(&u->latency_done, __ATOMIC_ACQUIRE))
			return 0;
		if (stopping(u))
			return -EINTR;
	}
}

/* latt_spin_to()'s stop */
static int go_stop(void *u)
{
	return stopping(u);
}

/*
 * The module's latt_wait_go(): the last thread to arrive sets the common
 * start a little ahead; the others nap until it is set (the thread that
 * builds a chase may take seconds: no CPU is burnt meanwhile), then all
 * spin to it, each on its own CPU (latt_spin_to(): at most
 * LATT_GO_SPIN_MAX_US).  -EINTR when the run is stopped, or another thread
 * failed, before.
 */
static int wait_go(struct user_thr *t)
{
	struct user_run *u = t->u;
	__u64 go;

	if (__atomic_add_fetch(&u->ready, 1, __ATOMIC_ACQ_REL) ==
	    u->nr_threads) {
		go = latt_rdtsc();
		if (u->nr_threads > 1)
			go += USER_GO_MARGIN_US * u->tsc_khz / 1000;
		__atomic_store_n(&u->tsc_go, go, __ATOMIC_RELEASE);
	}
	while (!(go = load64(&u->tsc_go))) {
		struct timespec nap = { 0, USER_GO_NAP_US * 1000 };

		if (stopping(u))
			return -EINTR;
		nanosleep(&nap, NULL);
	}
	switch (latt_spin_to(go, (__u64)(USER_GO_MARGIN_US + LATT_GO_SPIN_MAX_US) *
				 u->tsc_khz / 1000,
			     latt_rdtsc, go_stop, u)) {
	case LATT_GO_STOP:
		return -EINTR;
	case LATT_GO_LATE:
		log_warn("CPU %u: the common start was still ahead after %u us of spinning: this CPU's TSC is behind the one that set it (the TSCs disagree): starting now",
			 t->rec.cpu, LATT_GO_SPIN_MAX_US);
		break;
	}
	return 0;
}

/*
 * Say why the run's memory raised SIGBUS (@f) in thread @t; the run's
 * error.  Poison is -EHWPOISON, its line kept in the thread's record as
 * the module's fixup keeps it (runner.c says it, for both engines).
 */
static int bus_error(struct user_thr *t, const struct map_fault *f)
{
	const struct user_run *u = t->u;
	/* the traffic's, on a --traffic-target */
	const bool tr = u->traffic && t->rec.role == LATT_ROLE_STREAM;
	unsigned long long at =
		(unsigned long long)(f->addr - (tr ? u->tbase : u->base));

	if (f->code == BUS_MCEERR_AR || f->code == BUS_MCEERR_AO) {
		/* an offset is the probe's target's (struct latt_traffic) */
		t->rec.acct.mc = 1;
		t->rec.acct.mc_off = tr ? LATT_MC_UNKNOWN :
				     at & ~(LATT_LINE - 1);
		if (tr)
			log_err("%s: --traffic-target: a load at byte %llu consumed poison: the run stops",
				u->tspec, at);
		return -EHWPOISON;
	}
	log_err("%s: SIGBUS at byte %llu of the region: the memory is gone (the file truncated, or the device disabled): the run stops",
		tr ? u->tspec : u->spec, at);
	return -ENODEV;
}

/*
 * The module's latt_measure_all(): a loaded run's samples after its
 * calibration under the traffic, with empty samples at the start of its
 * windows (@lcal: LATT_CALIB_SAMPLES figures, or NULL), whose median is
 * its overhead_end.
 */
static int measure_all(struct user_thr *t, struct latt_pattern *pat,
		       __u64 *lcal)
{
	struct latt_thread_rec *r = &t->rec;
	struct latt_lcal lc;
	int ret;

	latt_lcal_init(&lc, lcal, t->u->base);
	if (lcal) {
		ret = calibrate(t, &r->acct.overhead, &r->overhead_min,
				&r->overhead_max);
		if (ret)
			return ret;
		r->tsc_start = latt_rdtsc();	/* the samples begin after it */
	}
	ret = sample_all(t, pat, &lc);
	/* as the calibration after the samples: unknown (0) when stopped */
	if (lcal && !ret) {
		qsort(lcal, lc.n, sizeof(*lcal), cmp_u64);
		r->overhead_end = latt_lcal_median(lcal, lc.n);
	}
	return ret;
}

/* A thread's run proper: the module's latt_thread(), from its pattern on. */
static int thr_body(struct user_thr *t, struct latt_pattern *pat)
{
	struct user_run *u = t->u;
	__u64 *lcal = t->lcal;
	const bool lat = t->rec.role == LATT_ROLE_LATENCY;
	int ret;

	if (lat) {
		if (u->cfg.pattern == LATT_PAT_CHASE && !u->chase_built) {
			ret = chase_build(u, pat);
			if (ret)
				return ret;
		}
		/* idle: a loaded run's traffic waits at the start line */
		warmup(u);
		ret = calibrate(t, &t->rec.acct.overhead,
				&t->rec.overhead_min, &t->rec.overhead_max);
		t->rec.overhead_idle = t->rec.acct.overhead;
		if (ret)
			return ret;
	}
	ret = wait_go(t);
	if (ret)
		return ret;
	t->rec.tsc_start = latt_rdtsc();
	ret = lat ? measure_all(t, pat, lcal) : stream(t, pat);
	t->rec.tsc_end = latt_rdtsc();
	if (lcal)	/* traffic stops */
		__atomic_store_n(&u->latency_done, 1, __ATOMIC_RELEASE);
	/* the same calibration after the samples, to show a drift (a loaded
	 * run's was taken across them) */
	if (!ret && lat && !lcal &&
	    calibrate(t, &t->rec.overhead_end, NULL, NULL))
		t->rec.overhead_end = 0;
	/* the batches after it: the samples' figures are the same with them */
	if (!ret && lat && u->cfg.batch)
		ret = batch_all(t, pat);
	return ret;
}

struct body_arg {
	struct user_thr *t;
	struct latt_pattern *pat;
};

static int body_fn(void *arg)
{
	struct body_arg *a = arg;

	return thr_body(a->t, a->pat);
}

/*
 * thr_body() under map.c's SIGBUS guard, a SIGBUS turned into the run's
 * error.  The handler is there while a pmem target is mapped (map_target()
 * to map_release(), the pre-fault included); on DRAM a SIGBUS kills, as it
 * would without the guard.  The guard is the thread's own (SIGBUS goes to
 * the thread that made the access).
 */
static int bus_guard(struct user_thr *t, struct latt_pattern *pat)
{
	struct body_arg a = { t, pat };
	struct map_fault f;
	int ret = map_guard(body_fn, &a, &f);

	return f.hit ? bus_error(t, &f) : ret;
}

/* Its buffers, on its node: first touched by the thread, on its CPU. */
static int thr_buffers(struct user_thr *t)
{
	struct user_run *u = t->u;

	if (t->rec.role == LATT_ROLE_LATENCY) {
		t->hist = calloc(LATT_HIST_BUCKETS, sizeof(*t->hist));
		if (!t->hist)
			return -ENOMEM;
		t->rec.acct.hist = t->hist;
		if (u->cfg.mode == LATT_MODE_LOADED) {
			t->lcal = malloc(LATT_CALIB_SAMPLES * sizeof(*t->lcal));
			if (!t->lcal)
				return -ENOMEM;
		}
		if (u->evidence) {
			ev_open(&t->ev, &u->evp, u->tsc_khz);
			t->ev_on = true;
			t->max_wev = t->rec.acct.max_outliers;
			t->wev = t->max_wev ? calloc(t->max_wev,
						     sizeof(*t->wev)) : NULL;
			if (t->max_wev && !t->wev)
				return -ENOMEM;
		}
		if (u->cfg.batch) {
			t->lines = calloc(2 * u->cfg.batch + 1,
					  sizeof(*t->lines));
			t->offs = calloc(2 * u->cfg.batch, sizeof(*t->offs));
			if (!t->lines || !t->offs)
				return -ENOMEM;
		}
	} else if (u->cfg.mode == LATT_MODE_BANDWIDTH) {
		t->series = calloc(u->series_len, sizeof(*t->series));
		if (!t->series)
			return -ENOMEM;
	}
	return 0;
}

static void *user_thread(void *arg)
{
	struct user_thr *t = arg;
	struct user_run *u = t->u;
	struct latt_pattern pat;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(t->rec.cpu, &set);
	ret = -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (ret)
		log_err("%s: thread %u: cannot run on CPU %u: %s (a cgroup's cpuset may not allow it: /proc/self/status, Cpus_allowed_list)",
			u->spec, t->idx, t->rec.cpu, strerror(-ret));
	if (!ret)
		ret = thr_buffers(t);
	if (!ret)
		ret = latt_thread_pattern(&pat, &u->cfg, t->idx, u->nr_threads,
					  t->rec.part_bytes, LATT_CHUNK_SHIFT);
	if (!ret)
		ret = bus_guard(t, &pat);
	if (!t->rec.tsc_end)
		t->rec.tsc_end = latt_rdtsc();
	if (t->rec.role == LATT_ROLE_LATENCY && u->cfg.mode == LATT_MODE_LOADED)
		__atomic_store_n(&u->latency_done, 1, __ATOMIC_RELEASE);
	t->rec.error = ret;
	if (ret && ret != -EINTR) {
		/* the first failure is the run's; it stops the others */
		int zero = 0;

		__atomic_compare_exchange_n(&u->error, &zero, ret, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
		__atomic_store_n(&u->abort, 1, __ATOMIC_RELEASE);
	}
	if (!__atomic_sub_fetch(&u->live, 1, __ATOMIC_ACQ_REL)) {
		__atomic_store_n(&u->finished, 1, __ATOMIC_RELEASE);
		sem_post(&u->done_sem);
	}
	return NULL;
}

/* The memory: node-local pages, huge pages if asked, locked, faulted in. */
static char *region_alloc(const struct run_opts *o, const struct latt_config *c,
			  void **mem, size_t *len)
{
	static bool warned;
	__u64 extra = o->hugepages ? USER_HUGE : 0;
	uintptr_t base;
	char *p;

	*len = c->region + extra;
	*mem = numa_alloc_onnode(*len, (int)c->node);
	if (!*mem) {
		log_err("%s: cannot allocate %llu MiB on node %u", o->target,
			(unsigned long long)(*len >> 20), c->node);
		return NULL;
	}
	base = (uintptr_t)*mem;
	if (o->hugepages) {
		base = (base + USER_HUGE - 1) & ~(uintptr_t)(USER_HUGE - 1);
		if (madvise((void *)base, c->region, MADV_HUGEPAGE))
			log_warn("--hugepages: madvise(MADV_HUGEPAGE): %s",
				 strerror(errno));
	}
	if (mlock((void *)base, c->region) && !warned) {
		log_warn("mlock of %llu MiB failed (%s): the region may be paged; raise 'ulimit -l' or run as root",
			 (unsigned long long)(c->region >> 20), strerror(errno));
		warned = true;
	}
	for (p = (char *)base; p < (char *)base + c->region; p += USER_PAGE)
		*(volatile char *)p = 0;
	return (char *)base;
}

/*
 * The region's memory: DRAM from libnuma, or a mapped pmem target, with
 * map.c's SIGBUS handler held from its pre-fault until it is released.
 */
struct user_mem {
	void *numa;		/* numa_alloc_onnode()'s, or NULL */
	size_t numa_len;
	struct map_region map;	/* device-DAX or fsdax-file */
};

static char *mem_get(const struct run_opts *o, const struct latt_config *c,
		     struct user_mem *m)
{
	memset(m, 0, sizeof(*m));
	if (c->target == LATT_TARGET_DRAM)
		return region_alloc(o, c, &m->numa, &m->numa_len);
	if (map_target(o->target, &o->tgt.pm, c->fd, o->tgt.offset, c->region,
		       run_writes(o), &m->map))
		return NULL;
	return m->map.base;
}

static void mem_put(struct user_mem *m)
{
	if (m->numa)
		numa_free(m->numa, m->numa_len);
	map_release(&m->map);
}

/*
 * A run's region and what it was made for: freed after the run, or kept
 * for the next (user_engine_measure()'s @keep).  The chase cycle a run
 * built in it is kept too, for a chase of the same layout (size, region,
 * TLB block, seed) on DRAM while no run wrote to it since; on persistent
 * memory others may write the device between two runs, so there every
 * chase builds its cycle again, as the module does.
 */
struct user_keep {
	struct user_mem mem;
	char *base;
	__u32 target;
	__u32 node;
	__u64 region;
	bool hugepages;
	bool writes;		/* a pmem mapping: mapped for writing */
	bool file_known;	/* @dev, @ino, @rdev: the mapped file */
	dev_t dev, rdev;
	ino_t ino;
	__u64 offset;		/* --offset of a pmem target */
	bool chase;		/* a chase cycle of this layout is built: */
	__u64 chase_size, chase_stride, chase_seed;
	bool pages_fixed;	/* no huge page can come: @page_size stays */
	__u64 page_size;	/* map_page_size()'s, once read */
	char page_note[64];
};

/* The region for @c, allocated or mapped afresh; NULL after a message. */
static struct user_keep *keep_new(const struct run_opts *o,
				  const struct latt_config *c)
{
	struct user_keep *k = calloc(1, sizeof(*k));
	struct stat st;

	if (!k) {
		log_err("out of memory");
		return NULL;
	}
	k->base = mem_get(o, c, &k->mem);
	if (!k->base) {
		free(k);
		return NULL;
	}
	k->target = c->target;
	k->node = c->node;
	k->region = c->region;
	k->hugepages = o->hugepages;
	k->writes = run_writes(o);
	k->offset = o->tgt.offset;
	/*
	 * DRAM that transparent huge pages can't reach (THP "never", or
	 * "madvise" without --hugepages) keeps the pages it was faulted in
	 * with, locked: its page size is read once, not every point (reading
	 * smaps walks the whole process, ~10 ms a GiB)
	 */
	if (c->target == LATT_TARGET_DRAM && !o->hugepages) {
		char thp[32];

		host_thp_mode(thp, sizeof(thp));
		k->pages_fixed = !strcmp(thp, "never") ||
				 !strcmp(thp, "madvise");
	}
	if (c->target == LATT_TARGET_PMEM && !fstat(c->fd, &st)) {
		k->file_known = true;
		k->dev = st.st_dev;
		k->ino = st.st_ino;
		k->rdev = st.st_rdev;
	}
	return k;
}

void user_keep_free(struct user_keep **keep)
{
	if (!*keep)
		return;
	mem_put(&(*keep)->mem);
	free(*keep);
	*keep = NULL;
}

/*
 * Would a run of @c make the region @k holds?  The same memory (a DRAM
 * node, or the device or file behind @c->fd at the same offset, mapped for
 * the same access: loads map read-only), the same region and pages.
 */
static bool keep_fits(const struct user_keep *k, const struct run_opts *o,
		      const struct latt_config *c)
{
	struct stat st;

	if (k->target != c->target || k->region != c->region)
		return false;
	if (c->target == LATT_TARGET_DRAM)
		return k->node == c->node && k->hugepages == o->hugepages;
	return k->file_known && !fstat(c->fd, &st) && st.st_dev == k->dev &&
	       st.st_ino == k->ino && st.st_rdev == k->rdev &&
	       k->offset == o->tgt.offset && k->writes == run_writes(o);
}

/* Does @k hold the chase cycle a run of @c would build? */
static bool chase_fits(const struct user_keep *k, const struct latt_config *c)
{
	return k->chase && c->pattern == LATT_PAT_CHASE &&
	       k->target == LATT_TARGET_DRAM && k->chase_size == c->size &&
	       k->chase_stride == c->stride && k->chase_seed == c->seed;
}

/* After a run of @c that ended done on @k: is its chase cycle still there? */
static void keep_after(struct user_keep *k, const struct run_opts *o,
		       const struct latt_config *c)
{
	if (c->pattern == LATT_PAT_CHASE && c->target == LATT_TARGET_DRAM) {
		k->chase = true;
		k->chase_size = c->size;
		k->chase_stride = c->stride;
		k->chase_seed = c->seed;
	} else if (run_writes(o) || c->target != LATT_TARGET_DRAM) {
		k->chase = false;
	}
}

/*
 * Wait for the threads as wait_run() waits for the module, but woken the
 * moment they are done: a run of 10^5 samples takes tens of ms, and a
 * sleep of the poll's interval past its end would be the longest part of
 * a point that reuses its region.  A signal cuts the wait short, as it
 * does the module's poll (no SA_RESTART).  The progress is the module's
 * STATUS: samples of the timing threads, or a bandwidth run's
 * microseconds since the common start.
 */
static bool wait_thread(struct user_run *u, const struct run_hooks *h)
{
	long us = POLL_FIRST_US;
	struct latt_status st;
	struct timespec until;
	bool aborted = false;
	__u64 go, now;
	__u32 i;

	while (!__atomic_load_n(&u->finished, __ATOMIC_ACQUIRE)) {
		if (run_stops >= h->abort_at && !aborted) {
			__atomic_store_n(&u->abort, 1, __ATOMIC_RELEASE);
			aborted = true;
		}
		if (h->progress) {
			memset(&st, 0, sizeof(st));
			st.state = LATT_STATE_RUNNING;
			for (i = 0; i < u->nr_threads; i++)
				st.windows += load64(&u->thr[i].rec.windows);
			if (u->cfg.mode == LATT_MODE_BANDWIDTH) {
				go = load64(&u->tsc_go);
				now = latt_rdtsc();
				st.samples_total = u->cfg.duration_us;
				st.samples_done = go && now > go ?
					(now - go) * 1000 / u->tsc_khz : 0;
				if (st.samples_done > st.samples_total)
					st.samples_done = st.samples_total;
			} else {
				st.samples_total = u->cfg.samples * u->nlat;
				for (i = 0; i < u->nlat; i++)
					st.samples_done +=
						load64(&u->thr[i].done);
			}
			h->progress(h->arg, &st);
		}
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += us % 1000000 * 1000;
		until.tv_sec += us / 1000000 + until.tv_nsec / 1000000000;
		until.tv_nsec %= 1000000000;
		/* posted after @finished is set: the loop's test sees it */
		sem_clockwait(&u->done_sem, CLOCK_MONOTONIC, &until);
		us = us * 2 > POLL_MS * 1000L ? POLL_MS * 1000L : us * 2;
	}
	return aborted;
}

/*
 * The module's latt_thread_init(): each thread's CPU, node, role, part of
 * the region and share of the outlier records (@outliers: the report's,
 * shared out in thread order).
 */
static int threads_init(struct user_run *u, const struct latt_config *c,
			struct latt_outlier *outliers, __u32 nout)
{
	const __u32 *cpus = (const __u32 *)(uintptr_t)c->cpus_ptr;
	__u64 off, part;
	__u32 i, at = 0;
	int node;

	u->nr_threads = c->nr_threads > 1 ? c->nr_threads : 1;
	u->nlat = c->mode == LATT_MODE_BANDWIDTH ? 0 :
		  c->mode == LATT_MODE_LOADED ? 1 : u->nr_threads;
	/* the parts are one split (the probe's region is never cut): the
	 * last thread's is any streaming or split thread's */
	if (latt_thread_part(c, u->traffic, u->nr_threads - 1, u->nr_threads,
			     &off, &part)) {
		log_err("%s: --split: the region's parts can't hold an access",
			u->spec);
		return 1;
	}
	u->thr = aligned_alloc(64, u->nr_threads * sizeof(*u->thr));
	if (!u->thr) {
		log_err("out of memory");
		return 1;
	}
	memset(u->thr, 0, u->nr_threads * sizeof(*u->thr));
	for (i = 0; i < u->nr_threads; i++) {
		struct user_thr *t = &u->thr[i];

		t->u = u;
		t->idx = i;
		t->rec.cpu = cpus && c->nr_threads > 1 ? cpus[i] : c->cpu;
		node = numa_available() < 0 ? 0 : numa_node_of_cpu((int)t->rec.cpu);
		t->node = node < 0 ? 0 : (__u32)node;
		t->rec.role = latt_thread_role(c, i);
		latt_thread_part(c, u->traffic, i, u->nr_threads,
				 &t->rec.part_offset, &t->rec.part_bytes);
		latt_acct_init(&t->rec.acct);
		t->rec.acct.cpu = t->rec.cpu;
		t->rec.acct.threshold = c->threshold;
		if (t->rec.role != LATT_ROLE_LATENCY)
			continue;
		t->rec.acct.max_outliers = latt_thread_outliers(nout, u->nlat, i);
		t->rec.acct.outliers = outliers ? outliers + at : NULL;
		if (!outliers)
			t->rec.acct.max_outliers = 0;
		at += t->rec.acct.max_outliers;
	}
	return 0;
}

/* Start every thread; 0, or 1 after a message (those started are
 * stopped and joined). */
static int threads_start(struct user_run *u)
{
	__u32 i;
	int rc;

	u->live = u->nr_threads;
	for (i = 0; i < u->nr_threads; i++) {
		rc = pthread_create(&u->thr[i].tid, NULL, user_thread,
				    &u->thr[i]);
		if (!rc)
			continue;
		log_err("%s: cannot start measuring thread %u: %s", u->spec,
			i, strerror(rc));
		__atomic_store_n(&u->abort, 1, __ATOMIC_RELEASE);
		/* those never started end here, as if they had run */
		if (__atomic_sub_fetch(&u->live, u->nr_threads - i,
				       __ATOMIC_ACQ_REL) == 0)
			__atomic_store_n(&u->finished, 1, __ATOMIC_RELEASE);
		while (i--)
			pthread_join(u->thr[i].tid, NULL);
		return 1;
	}
	return 0;
}

/*
 * The latency threads' window evidence into the report (r->wev, thread
 * after thread, as the records), what it looked for into r->cause.
 */
static int threads_evidence(struct user_run *u, struct run_report *r)
{
	struct cause_summary *cs = &r->cause;
	size_t n = 0;
	__u32 i;
	int c;

	if (!u->evidence)
		return 0;
	for (i = 0; i < u->nr_threads; i++)
		n += u->thr[i].nr_wev;
	free(r->wev);
	r->wev = n ? calloc(n, sizeof(*r->wev)) : NULL;
	if (n && !r->wev) {
		log_err("out of memory");
		return 1;
	}
	r->nr_wev = 0;
	free(cs->of);
	memset(cs, 0, sizeof(*cs));
	for (i = 0; i < u->nr_threads; i++) {
		struct user_thr *t = &u->thr[i];

		if (!t->ev_on)
			continue;
		if (!cs->on) {	/* the first latency thread's */
			cs->on = true;
			cs->sources = t->ev.sources;
			snprintf(cs->why, sizeof(cs->why), "%s", t->ev.why);
		}
		memcpy(r->wev + r->nr_wev, t->wev,
		       t->nr_wev * sizeof(*t->wev));
		r->nr_wev += t->nr_wev;
		cs->quiet_windows += t->quiet_windows;
		cs->ev_cycles += t->ev_cycles;
		for (c = 0; c < LATT_CAUSE_EVENTS; c++)
			cs->quiet_ev[c] += t->quiet_ev[c];
	}
	return 0;
}

/* The threads' figures into the report: merged, and each thread's. */
static int threads_merge(struct user_run *u, struct run_report *r)
{
	struct thread_report *tr = &r->trep;
	struct latt_acct all;
	__u32 i, n = u->nr_threads, at = 0;
	bool interrupted = false;

	latt_acct_init(&all);
	all.hist = r->hist;
	/* each thread's samples moved onto thread 0's overhead */
	all.overhead = u->thr[0].rec.acct.overhead;
	memset(r->hist, 0, LATT_HIST_BUCKETS * sizeof(*r->hist));
	memset(&r->res, 0, sizeof(r->res));
	r->res.tsc_start = u->tsc_go;
	for (i = 0; i < n; i++) {
		struct user_thr *t = &u->thr[i];

		if (t->rec.error == -EINTR)
			interrupted = true;
		/* the records close up, thread after thread, as RESULT's */
		if (t->rec.acct.nr_outliers && r->outliers &&
		    t->rec.acct.outliers != r->outliers + at)
			memmove(r->outliers + at, t->rec.acct.outliers,
				t->rec.acct.nr_outliers * sizeof(*r->outliers));
		at += t->rec.acct.nr_outliers;
		latt_acct_merge(&all, &t->rec.acct);
		r->res.count += t->rec.count;
		r->res.bytes_read += t->rec.bytes_read;
		r->res.bytes_written += t->rec.bytes_written;
		r->res.windows += t->rec.windows;
		if (t->rec.tsc_end > r->res.tsc_end)
			r->res.tsc_end = t->rec.tsc_end;
	}
	if (!u->tsc_go)		/* stopped before the start */
		r->res.tsc_start = r->res.tsc_end;
	if (threads_evidence(u, r))
		return 1;
	r->res.state = u->error ? LATT_STATE_FAILED :
		       interrupted ? LATT_STATE_ABORTED : LATT_STATE_DONE;
	r->res.error = u->error;
	r->poison_offset = u->error == -EHWPOISON && all.mc ? all.mc_off :
			   LATT_POISON_UNKNOWN;
	/* nmi_windows 0: no window here looks for NMIs */
	latt_acct_result(&all, r->res.count, &r->res);
	r->res.outlier_len = all.nr_outliers;
	r->res.overhead = u->thr[0].rec.acct.overhead;
	r->res.overhead_min = u->thr[0].rec.overhead_min;
	r->res.overhead_max = u->thr[0].rec.overhead_max;
	r->res.overhead_idle = u->thr[0].rec.overhead_idle;
	r->res.overhead_end = u->thr[0].rec.overhead_end;
	r->res.timer_step = u->timer_step;

	threads_free(tr);
	if (!threads_used(&u->cfg))
		return 0;
	tr->n = n;
	tr->series_len = u->series_len;
	tr->series_cycles = u->series_cycles;
	tr->tsc_go = u->tsc_go;
	tr->st = calloc(n, sizeof(*tr->st));
	tr->hist = calloc((size_t)n * LATT_HIST_BUCKETS, sizeof(*tr->hist));
	tr->series = calloc((size_t)n * tr->series_len + 1,
			    sizeof(*tr->series));
	if (!tr->st || !tr->hist || !tr->series) {
		log_err("out of memory");
		return 1;
	}
	for (i = 0; i < n; i++) {
		const struct user_thr *t = &u->thr[i];
		struct latt_thread_stats *st = &tr->st[i];

		latt_thread_stats_of(&t->rec, t->node, st);	/* calloc'ed */
		if (t->hist)
			memcpy(tr->hist + (size_t)i * LATT_HIST_BUCKETS,
			       t->hist, LATT_HIST_BUCKETS * sizeof(*t->hist));
		if (t->series)
			memcpy(tr->series + (size_t)i * tr->series_len,
			       t->series, tr->series_len * sizeof(*t->series));
	}
	return 0;
}

static void threads_release(struct user_run *u)
{
	__u32 i;

	for (i = 0; u->thr && i < u->nr_threads; i++) {
		free(u->thr[i].hist);
		free(u->thr[i].lcal);
		free(u->thr[i].lines);
		free(u->thr[i].offs);
		free(u->thr[i].series);
		free(u->thr[i].wev);
		if (u->thr[i].ev_on)
			ev_close(&u->thr[i].ev);
	}
	free(u->thr);
	u->thr = NULL;
}

/*
 * A region for @c of @o: the one *@keep holds if it fits (*@reused), else
 * one made afresh (what *@keep held freed first).  NULL after a message.
 */
static struct user_keep *keep_take(const struct run_opts *o,
				   const struct latt_config *c,
				   struct user_keep **keep, bool *reused)
{
	struct user_keep *k;

	*reused = false;
	if (keep && *keep && !keep_fits(*keep, o, c))
		user_keep_free(keep);	/* another region: this one goes first */
	if (!keep || !*keep)
		return keep_new(o, c);
	k = *keep;
	*keep = NULL;
	*reused = true;
	return k;
}

int user_engine_measure(const struct run_opts *o, const struct latt_config *c,
			struct run_report *r, const struct run_hooks *h,
			struct user_keep **keep, struct user_keep **tkeep)
{
	const struct run_opts *t = o->traffic_run;
	struct user_keep *k = NULL, *tk = NULL;
	bool treused = false;
	struct user_run *u;
	bool reused = false;
	__u32 nout = r->outliers && c->threshold ? c->max_outliers : 0;
	__u32 i;
	int rc = 1, ret;

	if ((c->target == LATT_TARGET_DRAM ||
	     (t && t->cfg.target == LATT_TARGET_DRAM)) &&
	    numa_available() < 0) {
		log_err("%s: --engine user: libnuma: NUMA is not available",
			o->target);
		return 1;
	}
	u = calloc(1, sizeof(*u));
	if (!u) {
		log_err("out of memory");
		return 1;
	}
	sem_init(&u->done_sem, 0, 0);
	u->spec = o->target;
	u->cfg = *c;
	if (t) {
		u->tspec = t->target;
		u->traffic = t->cfg.region;
	}
	if (pick(&u->cfg, r->info, t != NULL, &u->pick))
		goto out;
	u->batch = (struct latt_batch_rec){ .pairs = r->batch_pairs,
					    .k = u->cfg.batch };
	if (threads_used(&u->cfg)) {
		ret = latt_pick_streams_of(&u->cfg, r->info->features,
					   r->info->widths, &u->streams);
		if (ret) {	/* check_module() said it for the module */
			log_err("%s: --write-op: %s", o->target,
				strerror(-ret));
			goto out;
		}
	}
	u->tsc_khz = r->info->tsc_khz;
	u->evidence = !o->no_evidence && nout &&
		      u->cfg.mode != LATT_MODE_BANDWIDTH;
	if (u->evidence)
		ev_probe(&u->evp);
	u->clflushopt = !!(r->info->features & LATT_FEAT_CLFLUSHOPT);
	u->window_cycles = (__u64)u->cfg.window_us * r->info->tsc_khz / 1000;
	u->duration_cycles = u->cfg.duration_us * r->info->tsc_khz / 1000;
	if (u->cfg.mode == LATT_MODE_BANDWIDTH)
		latt_series_bins(u->window_cycles, u->duration_cycles,
				 &u->series_cycles, &u->series_len);
	if (threads_init(u, &u->cfg, r->outliers, nout))
		goto out;
	u->chase_off = c->target == LATT_TARGET_PMEM &&
		       c->pattern == LATT_PAT_CHASE;
	/* the run starts before its memory is mapped and faulted in, as
	 * the module's START allocates it: wall_ns counts both */
	clock_gettime(CLOCK_REALTIME, &r->start);
	k = keep_take(o, &u->cfg, keep, &reused);
	if (!k)
		goto out;
	if (reused) {
		u->chase_built = chase_fits(k, &u->cfg);
		log_info("%s: the region of the previous run, as it is%s",
			 o->target, u->chase_built ? ", its chase cycle too" :
			 "");
	}
	u->base = k->base;
	if (t) {	/* the traffic's memory: a region of its own */
		tk = keep_take(t, &t->cfg, tkeep, &treused);
		if (!tk) {
			user_keep_free(&k);
			goto out;
		}
		if (treused)
			log_info("%s: --traffic-target: the region of the previous run, as it is",
				 t->target);
		u->tbase = tk->base;
	}

	if (threads_start(u)) {
		user_keep_free(&k);
		user_keep_free(&tk);
		goto out;
	}
	log_info("%s: started (user engine, %u thread%s), seed 0x%llx, threshold %llu cycles", o->target, u->nr_threads, u->nr_threads > 1 ? "s" : "",
		 (unsigned long long)c->seed, (unsigned long long)c->threshold);
	r->interrupted = wait_thread(u, h);
	for (i = 0; i < u->nr_threads; i++)
		pthread_join(u->thr[i].tid, NULL);
	if (k->pages_fixed && k->page_size) {
		snprintf(r->page_note, sizeof(r->page_note), "%s",
			 k->page_note);
	} else {
		k->page_size = map_page_size(u->base, u->cfg.region,
					       r->page_note,
					       sizeof(r->page_note));
		snprintf(k->page_note, sizeof(k->page_note), "%s",
			 r->page_note);
	}
	if (threads_merge(u, r)) {
		user_keep_free(&k);
		user_keep_free(&tk);
		goto out;
	}
	r->res.page_size = k->page_size;
	/* kept for the next run only if this one ended as it should: a
	 * failed or aborted run may have left its chase half built */
	if (keep && r->res.state == LATT_STATE_DONE && !r->interrupted) {
		keep_after(k, o, &u->cfg);
		*keep = k;
	} else {
		user_keep_free(&k);	/* as the module frees it before RESULT */
	}
	if (tkeep && r->res.state == LATT_STATE_DONE && !r->interrupted)
		*tkeep = tk;
	else
		user_keep_free(&tk);
	clock_gettime(CLOCK_REALTIME, &r->end);

	r->res.hist_ptr = 0;
	r->res.outlier_ptr = 0;
	r->res.hist_len = LATT_HIST_BUCKETS;
	r->res.config = u->cfg;
	r->res.flags =
		(u->pick.timer == LATT_TIMER_RDTSC ? LATT_RES_TIMER_RDTSC : 0) |
		(strcmp(user_clocksource(), "tsc") ? LATT_RES_TSC_UNSTABLE : 0) |
		(reused ? LATT_RES_REUSED : 0) |
		(u->chase_built ? LATT_RES_CHAIN_REUSED : 0);
	r->res.width = u->cfg.width;
	r->batch = (struct latt_batch){ .len = (__u32)u->batch.n,
					.batch = u->cfg.batch,
					.pairs = u->batch.n,
					.backwards = u->batch.backwards };
	rc = 0;
out:
	threads_release(u);
	sem_destroy(&u->done_sem);
	free(u);
	return rc;
}
