// SPDX-License-Identifier: GPL-2.0
/*
 * test-cli-fake.c - an LD_PRELOAD stand-in for /dev/lattester, so that
 * test-cli-usage.sh can drive lattester-ctl's whole ioctl path (START,
 * STATUS polling, ABORT on SIGINT, RESULT, table, JSON, histogram file) on
 * a host without the module and without root.
 *
 *   LATTESTER_DEV=/dev/null LD_PRELOAD=user/test-cli-fake.so lattester-ctl ...
 *
 * It answers the LATT_IOC_* requests on any fd and passes every other
 * ioctl on.  It checks what the module checks about zeroed fields, so a
 * tool that forgets to clear them fails here too.  Environment:
 *   FAKE_START_ERR=N	START fails with errno N
 *   FAKE_HANG=1	the run keeps running until ABORT
 *   FAKE_ABI=N		abi_version to report; a major of 1 answers only
 *			ABI 1.x's GET_INFO (its own magic), as such a module
 *			would
 *   FAKE_FEATURES=N	features to report (default: those of ABI 1.0); with
 *			LATT_FEAT_THREADS (1 << 13), THREADS answers too:
 *			every thread with the run's samples
 *   FAKE_OVERHEAD_CYCLES=N  the calibrated overhead (default 20)
 *   FAKE_QUANTUM=N	GET_INFO's timer_quantum, 1/256 cycle (default 256:
 *			a TSC that moves by one; 0: unknown, as before ABI
 *			2.6), with a read cost of 18 cycles
 *   FAKE_STEP=N	the result's timer_step, cycles (default 0: unknown)
 *   FAKE_REALISTIC=1	samples that depend on op, pattern and size, with
 *			noise, a slow tail, rare outliers (more of them in
 *			small hotspots) and a periodic spike, as fixtures for
 *			the plots (tests/plots/make-fixtures)
 *   START_TRAFFIC (ABI 2.9) with LATT_FEAT_TRAFFIC (1 << 24) in
 *			FAKE_FEATURES: checked as the module checks its
 *			fields (DRAM only here), the traffic's region each
 *			stream's part in THREADS
 *   FAKE_STALL_US=N	the streaming threads (bandwidth, loaded) lose N us
 *			in one window: it lasts a window and N us, and the
 *			run ends N us late (default 0: every window a
 *			window long, the threads' time filled with them)
 * Samples are otherwise synthetic: 90% at 200 raw cycles, 9% at 300, 0.9%
 * at 1000, the rest at 5000; overhead 20 cycles; tsc_khz 2000000 (1 cycle =
 * 0.5 ns).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <lattester/hist.h>

#define FAKE_TSC_KHZ	2000000ULL
#define FAKE_OVERHEAD	fake_overhead()

static struct latt_config run;
static __u32 state = LATT_STATE_IDLE;
static int polls;
static __u32 run_cpus[64];	/* the threads' CPUs (ABI 1.2) */
static __u32 run_threads;	/* 1 without threads */
static __u64 run_traffic;	/* START_TRAFFIC's region, or 0 */

static __u64 env_u64(const char *name, __u64 def)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : def;
}

/* the timer overhead the fake calibrates: FAKE_OVERHEAD_CYCLES, or 20 */
static __u64 fake_overhead(void)
{
	return env_u64("FAKE_OVERHEAD_CYCLES", 20);
}

static int fake_info(struct latt_info *in)
{
	memset(in, 0, sizeof(*in));
	in->abi_version = (__u32)env_u64("FAKE_ABI", LATT_ABI_VERSION);
	in->hist_buckets = LATT_HIST_BUCKETS;
	in->features = env_u64("FAKE_FEATURES", (1ULL << 12) - 1);
	in->tsc_khz = FAKE_TSC_KHZ;
	in->max_size = LATT_MAX_SIZE;
	in->max_region = LATT_MAX_REGION;
	in->max_chain = LATT_MAX_CHAIN;
	in->max_outliers = LATT_MAX_OUTLIERS;
	in->nr_cpu_ids = 4096;
	in->window_us = 100;
	in->state = state;
	in->widths = 8 | 16 | 32 | 64;
	in->timer_quantum = env_u64("FAKE_QUANTUM", LATT_QUANTUM_ONE);
	in->timer_read_cost = in->timer_quantum ? 18 : 0;
	return 0;
}

static int all_zero(const void *p, size_t len)
{
	const unsigned char *b = p;

	while (len--)
		if (*b++)
			return 0;
	return 1;
}

static int fake_start(const struct latt_config *c)
{
	int err = (int)env_u64("FAKE_START_ERR", 0);

	if (err)
		return -err;
	if (state == LATT_STATE_RUNNING)
		return -EBUSY;
	if (!c->batch != !c->batch_pairs || c->map_addr ||
	    c->flags & ~LATT_CFG_FLAGS_ALL || !c->op || c->op > LATT_OP_MAX ||
	    c->fence > LATT_FENCE_MAX || !c->pattern ||
	    c->pattern > LATT_PAT_MAX || c->target != LATT_TARGET_DRAM ||
	    !c->size || c->size % LATT_LINE ||
	    (!c->samples && c->mode != LATT_MODE_BANDWIDTH))
		return -EINVAL;
	run = *c;
	run_traffic = 0;
	run_threads = c->nr_threads > 1 ? c->nr_threads : 1;
	if (run_threads > sizeof(run_cpus) / sizeof(run_cpus[0]))
		return -EINVAL;
	if (c->nr_threads > 1 && !c->cpus_ptr)
		return -EINVAL;
	if (c->nr_threads > 1)
		memcpy(run_cpus, (const void *)(uintptr_t)c->cpus_ptr,
		       run_threads * sizeof(run_cpus[0]));
	else
		run_cpus[0] = c->cpu;
	if (run.node == LATT_NODE_LOCAL)
		run.node = 0;
	if (run.fence == LATT_FENCE_DEFAULT)
		run.fence = run.op >= LATT_OP_STORE ? LATT_FENCE_SFENCE :
			    LATT_FENCE_NONE;
	if (!run.window_us)
		run.window_us = 100;
	if (!run.chain)
		run.chain = 1;
	state = LATT_STATE_RUNNING;
	polls = 0;
	return 0;
}

/* ABI 2.9: START of a loaded run whose traffic has a DRAM region of its own */
static int fake_start_traffic(const struct latt_traffic *t)
{
	const struct latt_config *c = (const void *)(uintptr_t)t->config_ptr;
	int rc;

	if (!(env_u64("FAKE_FEATURES", 0) & LATT_FEAT_TRAFFIC))
		return -ENOTTY;
	if (!c || t->reserved0 || !all_zero(t->reserved, sizeof(t->reserved)) ||
	    t->target != LATT_TARGET_DRAM || t->fd || t->phys_addr ||
	    t->map_addr || !t->region || c->mode != LATT_MODE_LOADED)
		return -EINVAL;
	rc = fake_start(c);
	if (!rc)
		run_traffic = t->region;
	return rc;
}

static int fake_status(struct latt_status *st)
{
	memset(st, 0, sizeof(*st));
	if (state == LATT_STATE_RUNNING && !getenv("FAKE_HANG") && ++polls > 2)
		state = LATT_STATE_DONE;
	st->state = state;
	st->samples_total = run.samples;
	st->samples_done = state == LATT_STATE_DONE ? run.samples :
			   run.samples / 2;
	st->windows = 3;
	return 0;
}

static __u64 mix(__u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A uniform number in [0, 1) for sample @i, stream @k. */
static double unit(__u64 i, __u64 k)
{
	return (double)(mix(i * 4 + k + run.seed * 0x10001) >> 11) /
	       9007199254740992.0;
}

/* FAKE_REALISTIC: the typical raw cycles of the configured access. */
static double base_cycles(void)
{
	static const double op_base[] = { 0, 180, 190, 140, 280, 320, 360, 240,
					  230 };
	int load = run.op <= LATT_OP_NT_LOAD;
	double b = op_base[run.op <= LATT_OP_MAX ? run.op : 1];

	if (run.pattern == LATT_PAT_RAND || run.pattern == LATT_PAT_CHASE)
		b += load ? 150 : 60;
	if (run.pattern == LATT_PAT_STRIDE)
		b += run.stride >= 4096 ? 120 : (double)run.stride / 40;
	b += (double)(run.size / 64 - 1) * (load ? 9 : 22);
	return b;
}

static __u64 realistic_cycles(__u64 i)
{
	double v = base_cycles() * (1 + 0.06 * unit(i, 0)), rare = 1e-4;

	if (run.pattern == LATT_PAT_HOTSPOT && run.op >= LATT_OP_STORE)
		rare *= 1 + 262144.0 / (double)(run.stride ? run.stride : 1);
	if (unit(i, 1) < 0.01)
		v *= 1.3 + 1.5 * unit(i, 2);
	if (unit(i, 3) < rare)
		v *= 20 + 80 * unit(i, 2);
	if (i % 7919 == 4000)		/* a periodic cause, every 7919 samples */
		v += 3000;
	return (__u64)v;
}

/* Sample i's raw cycles: the distribution described at the top. */
static __u64 sample_cycles(__u64 i)
{
	__u64 m = i % 1000;

	if (getenv("FAKE_REALISTIC"))
		return realistic_cycles(i);

	if (m < 900)
		return 200;
	if (m < 990)
		return 300;
	if (m < 999)
		return 1000;
	return 5000;
}

static void fill_outlier(struct latt_outlier *o, __u64 i, __u64 cycles)
{
	memset(o, 0, sizeof(*o));
	o->sample = i;
	o->tsc = i * 1000;
	o->offset = (i * 64) % run.region;
	o->cycles = cycles;
	o->window = i / 1000;
	o->flags = o->window == 1 ? LATT_OUT_NMI : 0;
	if (getenv("FAKE_REALISTIC")) {
		o->tsc = (__u64)((double)i * (base_cycles() + 400));
		o->window = o->tsc / 200000;
		o->flags = o->window % 13 == 7 ? LATT_OUT_NMI : 0;
	}
}

/* a streaming thread's window, TSC cycles (the run's --window-us) */
static __u64 stream_window(void)
{
	return (__u64)run.window_us * FAKE_TSC_KHZ / 1000;
}

/* FAKE_STALL_US in TSC cycles */
static __u64 stream_stall(void)
{
	return env_u64("FAKE_STALL_US", 0) * FAKE_TSC_KHZ / 1000;
}

/*
 * A streaming thread's time from the common start: --duration in
 * bandwidth mode, the @n samples' (1000 cycles each) in a loaded run;
 * the stall too
 */
static __u64 stream_cycles(__u64 n)
{
	return (run.mode == LATT_MODE_BANDWIDTH ?
		run.duration_us * FAKE_TSC_KHZ / 1000 : n * 1000) +
	       stream_stall();
}

/* the windows of a streaming thread: its time less the stall, in whole
 * windows (at least one) */
static __u64 stream_windows(__u64 n)
{
	__u64 w = (stream_cycles(n) - stream_stall()) / stream_window();

	return w ? w : 1;
}

/* the records RESULT gave, for WINDOWS (ABI 2.8) */
static struct latt_outlier fake_rec[64];
static __u32 fake_nrec;

static int fake_result(struct latt_result *r)
{
	__u64 *hist = (__u64 *)(uintptr_t)r->hist_ptr;
	struct latt_outlier *out = (struct latt_outlier *)(uintptr_t)r->outlier_ptr;
	__u64 n, i, v;
	__u32 room = r->outlier_len;

	if (state == LATT_STATE_RUNNING || state == LATT_STATE_IDLE)
		return -EINVAL;
	if (hist && r->hist_len < LATT_HIST_BUCKETS)
		return -EINVAL;
	n = state == LATT_STATE_DONE ? run.samples : run.samples / 2;
	memset(&r->state, 0, sizeof(*r) - offsetof(struct latt_result, state));
	r->hist_len = LATT_HIST_BUCKETS;
	r->outlier_len = 0;
	fake_nrec = 0;
	if (hist)
		memset(hist, 0, LATT_HIST_BUCKETS * sizeof(*hist));
	r->min = ~0ULL;
	for (i = 0; i < n; i++) {
		v = sample_cycles(i);
		if (hist)
			hist[latt_hist_index(v)]++;
		r->min = v < r->min ? v : r->min;
		r->max = v > r->max ? v : r->max;
		r->sum += v;
		r->sum_corrected += v - FAKE_OVERHEAD;
		if (!run.threshold || v - FAKE_OVERHEAD <= run.threshold)
			continue;
		r->outliers++;
		if (out && r->outlier_len < room) {
			fill_outlier(&out[r->outlier_len], i, v);
			if (fake_nrec < 64)
				fake_rec[fake_nrec++] = out[r->outlier_len];
			r->outlier_len++;
		} else
			r->outliers_dropped++;
	}
	if (!n)
		r->min = 0;
	r->state = state;
	r->config = run;
	r->count = n;
	r->overhead = FAKE_OVERHEAD;
	r->timer_step = env_u64("FAKE_STEP", 0);
	r->overhead_min = 18;
	r->overhead_max = 30;
	/* ABI 2.5: a loaded run's overhead is its calibration under load */
	r->overhead_idle = run.mode == LATT_MODE_LOADED ? FAKE_OVERHEAD - 2 :
			   FAKE_OVERHEAD;
	r->windows = n / 1000 + 1;
	r->nmi_windows = 1;
	r->tsc_start = 1000;
	r->tsc_end = 1000 + n * 1000;
	r->window_cycles_max = 200000;
	if (run.mode != LATT_MODE_LATENCY) {
		/* the streams: every thread's (thread 0 times, loaded) */
		__u32 k = run.mode == LATT_MODE_LOADED ? run_threads - 1 :
			  run_threads;

		r->windows = (run.mode == LATT_MODE_LOADED ? r->windows : 0) +
			     k * stream_windows(n);
		r->tsc_end = 1000 + stream_cycles(n);
		r->window_cycles_max = stream_window() + stream_stall();
		r->bytes_read = k * stream_windows(n) * 65536;
	}
	r->flags = LATT_RES_VECTOR;
	r->width = run.width ? run.width : 64;
	return 0;
}

/*
 * LATT_IOC_THREADS (ABI 1.2; with FAKE_FEATURES including LATT_FEAT_THREADS):
 * every thread of the run as the merged result: the same samples, each
 * thread on its CPU; in a loaded run thread 0 times, the others stream,
 * and in a bandwidth run every thread streams (FAKE_STALL_US).
 */
static int fake_threads(struct latt_threads *a)
{
	struct latt_thread_stats *st =
		(struct latt_thread_stats *)(uintptr_t)a->stats_ptr;
	__u64 *hist = (__u64 *)(uintptr_t)a->hist_ptr;
	__u64 n, k, v;
	__u32 i;

	if (state == LATT_STATE_RUNNING || state == LATT_STATE_IDLE)
		return -ENOENT;
	if (!all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	n = state == LATT_STATE_DONE ? run.samples : run.samples / 2;
	if (st && a->len >= run_threads) {
		memset(st, 0, run_threads * sizeof(*st));
		for (i = 0; i < run_threads; i++) {
			bool times = run.mode == LATT_MODE_LATENCY ||
				     (run.mode == LATT_MODE_LOADED && !i);

			st[i].cpu = run_cpus[i];
			st[i].role = times ? LATT_ROLE_LATENCY :
				     LATT_ROLE_STREAM;
			st[i].part_bytes = !times && run_traffic ?
					   run_traffic : run.region;
			st[i].overhead = FAKE_OVERHEAD;
			if (times)
				st[i].overhead_idle = run.mode == LATT_MODE_LOADED ?
						      FAKE_OVERHEAD - 2 :
						      FAKE_OVERHEAD;
			st[i].tsc_start = 1000;
			st[i].tsc_end = 1000 + n * 1000;
			st[i].windows = n / 1000 + 1;
			if (!times) {
				/* a stream: its windows fill its time but
				 * for the stall, which one of them holds */
				st[i].tsc_end = 1000 + stream_cycles(n);
				st[i].windows = stream_windows(n);
				st[i].window_cycles_max = stream_window() +
							  stream_stall();
				st[i].bytes_read = st[i].windows * 65536;
				st[i].accesses = st[i].bytes_read / run.size;
				continue;
			}
			st[i].count = n;
			st[i].min = ~0ULL;
			if (hist)
				memset(hist + (size_t)i * LATT_HIST_BUCKETS, 0,
				       LATT_HIST_BUCKETS * sizeof(*hist));
			for (k = 0; k < n; k++) {
				v = sample_cycles(k);
				st[i].min = v < st[i].min ? v : st[i].min;
				st[i].max = v > st[i].max ? v : st[i].max;
				st[i].sum += v;
				st[i].sum_corrected += v - FAKE_OVERHEAD;
				if (hist)
					hist[(size_t)i * LATT_HIST_BUCKETS +
					     latt_hist_index(v)]++;
			}
			if (!n)
				st[i].min = 0;
		}
	}
	a->len = run_threads;
	a->series_len = 0;
	a->series_cycles = 0;
	a->tsc_go = 1000;
	return 0;
}

/*
 * LATT_IOC_WINDOWS (ABI 2.8; with FAKE_FEATURES including
 * LATT_FEAT_WINDOWS): a window's evidence for each window of RESULT's
 * records, as the module's (NMIs, SMIs, gaps; interrupts off): its NMI
 * flag an NMI, window 2 an SMI, window 3 a gap of 5000 cycles before its
 * record; and two quiet windows with an NMI each.  FAKE_WINDOWS_EPROTO:
 * one record more kept than fits (another run's).
 */
static int fake_windows(struct latt_windows *w)
{
	struct latt_wev *d = (struct latt_wev *)(uintptr_t)w->wev_ptr;
	__u32 i, n = 0;

	if (w->reserved[0] || w->reserved[1])
		return -EINVAL;
	if (state == LATT_STATE_RUNNING || state == LATT_STATE_IDLE)
		return -EBUSY;
	w->sources = LATT_EVS_NMI | LATT_EVS_SMI | LATT_EVS_GAP |
		     LATT_EVS_IRQ_OFF;
	memset(w->quiet_ev, 0, sizeof(w->quiet_ev));
	w->quiet_windows = 2;
	w->quiet_ev[LATT_EV_NMI] = 2;
	for (i = 0; i < fake_nrec; i++) {
		const struct latt_outlier *o = &fake_rec[i];
		struct latt_wev *e;

		if (n && d && d[n - 1].window == o->window) {
			d[n - 1].outliers++;
			continue;
		}
		if (!d || n >= w->len)
			break;
		e = &d[n++];
		memset(e, 0, sizeof(*e));
		e->window = o->window;
		e->cpu = o->cpu;
		e->sources = w->sources;
		e->outliers = 1;
		e->ev[LATT_EV_NMI] = !!(o->flags & LATT_OUT_NMI);
		e->ev[LATT_EV_SMI] = o->window == 2;
		if (o->window == 3) {
			e->gap_max = 5000;
			e->gap_at = o->sample - 1;
			e->ev[LATT_EV_GAP] = 1;
		}
	}
	w->kept = n + (getenv("FAKE_WINDOWS_EPROTO") ? 1 : 0);
	w->len = n;
	return 0;
}

static int fake_ioctl(unsigned long req, void *arg)
{
	int v1 = env_u64("FAKE_ABI", LATT_ABI_VERSION) >> 16 == 1;

	if (v1)		/* a module of ABI 1.x: its GET_INFO, nothing else */
		return req == LATT_IOC_GET_INFO_V1 ? fake_info(arg) : -ENOTTY;
	switch (req) {
	case LATT_IOC_GET_INFO:
		return fake_info(arg);
	case LATT_IOC_START:
		return fake_start(arg);
	case LATT_IOC_START_TRAFFIC:
		return fake_start_traffic(arg);
	case LATT_IOC_STATUS:
		return fake_status(arg);
	case LATT_IOC_ABORT:
		if (state != LATT_STATE_RUNNING)
			return -EINVAL;
		state = LATT_STATE_ABORTED;
		return 0;
	case LATT_IOC_RESULT:
		return fake_result(arg);
	case LATT_IOC_THREADS:
		if (!(env_u64("FAKE_FEATURES", 0) & LATT_FEAT_THREADS))
			return -ENOTTY;
		return fake_threads(arg);
	case LATT_IOC_WINDOWS:
		if (!(env_u64("FAKE_FEATURES", 0) & LATT_FEAT_WINDOWS))
			return -ENOTTY;
		return fake_windows(arg);
	}
	return -ENOTTY;
}

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;
	int rc;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (_IOC_TYPE(req) == LATT_IOC_MAGIC ||
	    _IOC_TYPE(req) == LATT_IOC_MAGIC_V1) {
		rc = fake_ioctl(req, arg);
		if (rc < 0) {
			errno = -rc;
			return -1;
		}
		return rc;
	}
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real(fd, req, arg);
}
