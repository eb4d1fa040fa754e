// SPDX-License-Identifier: GPL-2.0
/*
 * threads - runs of several kthreads through the ioctls themselves (ABI
 * 1.2): latency, bandwidth and loaded modes, split and shared regions, the
 * per-thread records (LATT_IOC_THREADS) against the merged result, an abort
 * that must reach every thread, and the validation of the new fields; ABI
 * 1.3's per-thread calibration after the samples and backwards samples,
 * with either timer.
 * Runs in the test VM (cases-threads: 4 CPUs on 2 nodes) as root, with the
 * module loaded.  Under TCG nothing here looks at a latency or a bandwidth:
 * only at counts, bytes, orderings and states.  TAP-style output.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <uapi/lattester.h>
#include <lattester/core.h>
#include "../tap.h"
#include "vmtest.h"

#define MAXT	8
#define GARBAGE	(1ULL << 40)	/* no calibration is this long */

static int ncpus;
static __u64 tsc_khz;

static bool latt_op_writes(__u32 op)
{
	return latt_rule_is_store(op);	/* the rule book's list */
}
static __u32 cpus[MAXT];

struct got {
	int ret;			/* START's */
	int state;
	struct latt_result r;
	struct latt_threads a;
	struct latt_thread_stats st[MAXT];
	__u64 *hist;			/* the merged histogram */
	__u64 *thist;			/* MAXT per-thread histograms */
	__u64 *series;			/* MAXT * LATT_MAX_SERIES */
};

static struct latt_config base(__u32 mode, __u32 n)
{
	struct latt_config c = vm_base_config();

	c.node = 0;
	c.cpu = cpus[0];
	c.samples = mode == LATT_MODE_BANDWIDTH ? 0 : 2000;
	c.duration_us = mode == LATT_MODE_BANDWIDTH ? 20000 : 0;
	c.seed = 7;
	c.mode = mode;
	c.nr_threads = n;
	c.cpus_ptr = (uintptr_t)cpus;
	return c;
}

static int wait_done(int fd)
{
	return vm_wait_done(fd, 12000);
}

/* Run @c to its end and fetch everything; g->ret is START's result. */
static void run(int fd, struct latt_config *c, struct got *g)
{
	memset(&g->r, 0, sizeof(g->r));
	memset(&g->a, 0, sizeof(g->a));
	memset(g->st, 0, sizeof(g->st));
	g->ret = xioctl(fd, LATT_IOC_START, c);
	if (g->ret)
		return;
	g->state = wait_done(fd);
	g->r.hist_ptr = (uintptr_t)g->hist;
	g->r.hist_len = LATT_HIST_BUCKETS;
	if (xioctl(fd, LATT_IOC_RESULT, &g->r))
		g->state = -1;
	g->a.stats_ptr = (uintptr_t)g->st;
	g->a.hist_ptr = (uintptr_t)g->thist;
	g->a.series_ptr = (uintptr_t)g->series;
	g->a.len = MAXT;
	g->a.series_len = LATT_MAX_SERIES;
	if (xioctl(fd, LATT_IOC_THREADS, &g->a))
		g->state = -1;
}

static __u64 sum(const __u64 *v, size_t n)
{
	__u64 s = 0;

	while (n--)
		s += *v++;
	return s;
}

/* Every thread ran on its CPU, on the common start, and the sums add up. */
static void check_threads(struct got *g, const char *what, __u32 n)
{
	static __u64 shifted[LATT_HIST_BUCKETS];
	__u64 count = 0, rd = 0, wr = 0, win = 0, back = 0;
	bool on_cpu = true, after_go = true, ends = true, hists = true;
	bool timed = true;
	__u32 i, b;

	check(g->a.len == n, "%s: THREADS reports %u threads (want %u)", what,
	      g->a.len, n);
	for (i = 0; i < n && i < MAXT; i++) {
		struct latt_thread_stats *s = &g->st[i];

		on_cpu &= s->cpu == cpus[i];
		after_go &= s->tsc_start >= g->a.tsc_go;
		ends &= s->tsc_end >= s->tsc_start;
		hists &= sum(g->thist + (size_t)i * LATT_HIST_BUCKETS,
			     LATT_HIST_BUCKETS) == s->count;
		count += s->count;
		back += s->backwards;
		rd += s->bytes_read;
		wr += s->bytes_written;
		win += s->windows;
		/*
		 * ABI 1.3: a timing thread of a completed run calibrated
		 * again after its samples, and none of them went backwards;
		 * a streaming thread timed nothing
		 */
		if (s->role == LATT_ROLE_STREAM)
			timed &= !s->overhead_end && !s->backwards &&
				 !s->overhead_idle;
		else if (g->r.state == LATT_STATE_DONE)
			timed &= s->overhead_end > 0 &&
				 s->overhead_end <= GARBAGE && !s->backwards &&
				 s->overhead_idle > 0 &&
				 s->overhead_idle <= GARBAGE &&
				 /* ABI 2.5: idle is the overhead but under load */
				 (g->r.config.mode == LATT_MODE_LOADED ||
				  s->overhead_idle == s->overhead);
	}
	check(on_cpu, "%s: each thread on the CPU asked for it", what);
	check(after_go, "%s: no thread began before the common start", what);
	check(ends, "%s: every thread ended after it began", what);
	check(hists, "%s: each thread's histogram holds its count", what);
	check(timed && back == g->r.backwards &&
	      g->st[0].overhead_end == g->r.overhead_end &&
	      g->st[0].overhead_idle == g->r.overhead_idle,
	      "%s: each timing thread calibrated after its samples, none went "
	      "backwards, streams timed nothing; RESULT's overhead_end %llu is "
	      "thread 0's %llu, its backwards %llu the threads' %llu", what,
	      (unsigned long long)g->r.overhead_end,
	      (unsigned long long)g->st[0].overhead_end,
	      (unsigned long long)g->r.backwards, (unsigned long long)back);
	check(count == g->r.count && rd == g->r.bytes_read &&
	      wr == g->r.bytes_written && win == g->r.windows,
	      "%s: threads add up to the result (count %llu/%llu, read %llu/%llu, written %llu/%llu, windows %llu/%llu)",
	      what, (unsigned long long)count, (unsigned long long)g->r.count,
	      (unsigned long long)rd, (unsigned long long)g->r.bytes_read,
	      (unsigned long long)wr, (unsigned long long)g->r.bytes_written,
	      (unsigned long long)win, (unsigned long long)g->r.windows);
	/*
	 * ABI 2.5: each timing thread's samples enter the run's histogram
	 * moved by its overhead less thread 0's (core.h's latt_hist_shift())
	 */
	memset(shifted, 0, sizeof(shifted));
	for (i = 0; i < n; i++) {
		__s64 d = (__s64)(g->st[i].overhead - g->st[0].overhead);

		for (b = 0; b < LATT_HIST_BUCKETS; b++)
			shifted[latt_hist_shift(b, d)] +=
				g->thist[(size_t)i * LATT_HIST_BUCKETS + b];
	}
	hists = !memcmp(shifted, g->hist, sizeof(shifted));
	check(hists, "%s: the merged histogram is the threads' sum, each on "
	      "thread 0's overhead (%llu; thread %u's %llu)", what,
	      (unsigned long long)g->st[0].overhead, n - 1,
	      (unsigned long long)g->st[n - 1].overhead);
}

static void test_latency(int fd, struct got *g)
{
	struct latt_config c = base(LATT_MODE_LATENCY, ncpus);
	__u32 i;
	bool each = true;

	run(fd, &c, g);
	check(!g->ret && g->state == LATT_STATE_DONE,
	      "latency x%d: DONE (start %d, state %d)", ncpus, g->ret,
	      g->state);
	check(g->r.count == c.samples * ncpus,
	      "latency x%d: %llu samples, samples x threads", ncpus,
	      (unsigned long long)g->r.count);
	for (i = 0; i < (__u32)ncpus; i++)
		each &= g->st[i].count == c.samples &&
			g->st[i].role == LATT_ROLE_LATENCY &&
			g->st[i].part_bytes == c.region &&
			g->st[i].overhead > 0;
	check(each, "latency: every thread took its samples, calibrated, "
	      "on the whole region");
	check_threads(g, "latency", ncpus);
}

/*
 * ABI 1.3, two timing threads with each timer: the result says which, and
 * LATT_IOC_THREADS has each thread's calibration after its samples
 * (overhead_end) and its samples that went backwards (none, here).
 */
static void test_timer(int fd, struct got *g, bool rdtsc,
		       const struct latt_info *info)
{
	struct latt_config c = base(LATT_MODE_LATENCY, 2);
	bool want = rdtsc || !(info->features & LATT_FEAT_RDTSCP), each = true;
	const char *what = rdtsc ? "2 threads, LATT_CFG_RDTSC" :
			   "2 threads, default timer";
	__u64 s = 0;
	__u32 i;

	if (rdtsc)
		c.flags = LATT_CFG_RDTSC;
	/* ABI 2.4: "lfence; rdtsc" only where LFENCE serializes */
	if (want && !(info->features & LATT_FEAT_LFENCE_SERIAL)) {
		int e = xioctl(fd, LATT_IOC_START, &c);

		check(e == -EOPNOTSUPP, "%s: no serializing LFENCE -> "
		      "EOPNOTSUPP (%d)", what, e);
		return;
	}
	run(fd, &c, g);
	check(!g->ret && g->state == LATT_STATE_DONE,
	      "%s: DONE (start %d, state %d)", what, g->ret, g->state);
	check(!(g->r.flags & LATT_RES_TIMER_RDTSC) == !want &&
	      g->r.timer_step > 0 && g->r.timer_step <= GARBAGE,
	      "%s: timed with %s (flags %#x), timer step %llu", what,
	      want ? "lfence; rdtsc" : "rdtscp", g->r.flags,
	      (unsigned long long)g->r.timer_step);
	for (i = 0; i < 2; i++) {
		each &= g->st[i].count == c.samples && !g->st[i].backwards &&
			g->st[i].overhead > 0 && g->st[i].overhead_end > 0 &&
			g->st[i].overhead_end <= GARBAGE &&
			g->st[i].overhead_idle == g->st[i].overhead;
		s += sum(g->thist + (size_t)i * LATT_HIST_BUCKETS,
			 LATT_HIST_BUCKETS);
	}
	check(each && g->r.count == 2 * c.samples && !g->r.backwards &&
	      s == g->r.count,
	      "%s: THREADS: each thread %llu+%llu samples (+ backwards), "
	      "overhead %llu/%llu before, %llu/%llu after; histograms hold "
	      "%llu of RESULT's %llu", what,
	      (unsigned long long)g->st[0].count,
	      (unsigned long long)g->st[0].backwards,
	      (unsigned long long)g->st[0].overhead,
	      (unsigned long long)g->st[1].overhead,
	      (unsigned long long)g->st[0].overhead_end,
	      (unsigned long long)g->st[1].overhead_end,
	      (unsigned long long)s, (unsigned long long)g->r.count);
	check_threads(g, what, 2);
}

static void test_split(int fd, struct got *g)
{
	struct latt_config c = base(LATT_MODE_LATENCY, ncpus);
	struct latt_outlier out[4096];
	__u64 part = (16 << 20) / 4;	/* 4 MiB for 2..4 threads */
	bool inside = true;
	__u32 i, k;

	if (ncpus == 2)
		part = 8 << 20;
	c.flags = LATT_CFG_SPLIT;
	c.threshold = 1;		/* every sample: see their offsets */
	c.max_outliers = 4096;
	c.samples = 500;
	run(fd, &c, g);
	check(!g->ret && g->state == LATT_STATE_DONE,
	      "split x%d: DONE (start %d, state %d)", ncpus, g->ret, g->state);
	for (i = 0; i < (__u32)ncpus; i++)
		inside &= g->st[i].part_bytes == part &&
			  g->st[i].part_offset == part * i;
	check(inside, "split: thread i has [i * %llu, (i + 1) * %llu)",
	      (unsigned long long)part, (unsigned long long)part);
	memset(&g->r, 0, sizeof(g->r));
	g->r.outlier_ptr = (uintptr_t)out;
	g->r.outlier_len = 4096;
	check(!xioctl(fd, LATT_IOC_RESULT, &g->r) && g->r.outlier_len > 0,
	      "split: %u outlier records", g->r.outlier_len);
	for (k = 0; k < g->r.outlier_len; k++) {
		for (i = 0; i < (__u32)ncpus && cpus[i] != out[k].cpu; i++)
			;
		inside &= i < (__u32)ncpus && out[k].offset >= part * i &&
			  out[k].offset + c.size <= part * (i + 1);
	}
	check(inside, "split: every access of a thread fell in its own part");
}

static void test_bandwidth(int fd, struct got *g, __u32 op, __u32 pat,
			   bool quiet)
{
	struct latt_config c = base(LATT_MODE_BANDWIDTH, ncpus);
	__u64 series = 0, bytes = 0;
	bool series_ok = true, deadline = true;
	__u32 i;

	c.op = op;
	c.pattern = pat;
	if (pat == LATT_PAT_STRIDE || pat == LATT_PAT_HOTSPOT)
		c.stride = 4096;
	c.size = 256;
	if (quiet)
		c.duration_us = 2000;
	run(fd, &c, g);
	if (quiet) {
		check(!g->ret && g->state == LATT_STATE_DONE &&
		      (g->r.bytes_read + g->r.bytes_written) > 0 &&
		      (latt_op_writes(op) ? !g->r.bytes_read :
		       !g->r.bytes_written),
		      "bandwidth op %u pattern %u: DONE, bytes on the op's side "
		      "(start %d, state %d, read %llu, written %llu)", op, pat,
		      g->ret, g->state, (unsigned long long)g->r.bytes_read,
		      (unsigned long long)g->r.bytes_written);
		return;
	}
	check(!g->ret && g->state == LATT_STATE_DONE,
	      "bandwidth x%d: DONE (start %d, state %d)", ncpus, g->ret,
	      g->state);
	check(g->r.count == 0 && g->r.bytes_read > 0 && !g->r.bytes_written,
	      "bandwidth loads: no samples, %llu bytes read, none written",
	      (unsigned long long)g->r.bytes_read);
	for (i = 0; i < (__u32)ncpus; i++) {
		struct latt_thread_stats *s = &g->st[i];

		/* rows are as long as the buffer said, not the run's */
		series = sum(g->series + (size_t)i * LATT_MAX_SERIES,
			     g->a.series_len);
		bytes = s->bytes_read + s->bytes_written;
		series_ok &= s->role == LATT_ROLE_STREAM && bytes > 0 &&
			     series == bytes && s->accesses * c.size == bytes;
		deadline &= s->tsc_end - g->a.tsc_go >=
			    c.duration_us * tsc_khz / 1000;
	}
	check(g->a.series_len > 0 && g->a.series_cycles > 0 && series_ok,
	      "bandwidth: each thread's series sums to its bytes = accesses x "
	      "size (%u bins of %llu cycles)", g->a.series_len,
	      (unsigned long long)g->a.series_cycles);
	check(deadline, "bandwidth: every thread ran to the deadline");
	check_threads(g, "bandwidth", ncpus);
}

static void test_mix(int fd, struct got *g)
{
	struct latt_config c = base(LATT_MODE_BANDWIDTH, ncpus);
	bool ratio = true;
	__u32 i;

	c.mix_read = 2;
	c.mix_write = 1;
	c.write_op = LATT_OP_STORE_CLWB;
	run(fd, &c, g);
	check(!g->ret && g->state == LATT_STATE_DONE,
	      "mix 2:1: DONE (start %d, state %d)", g->ret, g->state);
	for (i = 0; i < (__u32)ncpus; i++) {
		__u64 r = g->st[i].bytes_read / c.size;
		__u64 w = g->st[i].bytes_written / c.size;

		/* whole batches of 16 accesses: reads = 2w, give or take 2 */
		ratio &= w > 0 && r + 2 >= 2 * w && r <= 2 * w + 2;
	}
	check(ratio, "mix 2:1: each thread read twice what it wrote");
	check_threads(g, "mix", ncpus);
}

/* @block: a chase's TLB-locality block (its stride), which the streams,
 * going sequentially, must not take for theirs */
static void test_loaded(int fd, struct got *g, __u32 pattern, __u64 delay,
			__u64 block)
{
	struct latt_config c = base(LATT_MODE_LOADED, ncpus);
	bool streams = true;
	__u32 i;

	c.pattern = pattern;
	c.delay = delay;
	if (pattern == LATT_PAT_CHASE) {
		c.chain = 8;
		c.stride = block;
	}
	run(fd, &c, g);
	check(!g->ret && g->state == LATT_STATE_DONE,
	      "loaded (pattern %u, delay %llu, block %llu): DONE (start %d, "
	      "state %d)", pattern, (unsigned long long)delay,
	      (unsigned long long)block, g->ret, g->state);
	check(g->r.count == c.samples && g->st[0].count == c.samples &&
	      g->st[0].role == LATT_ROLE_LATENCY,
	      "loaded: thread 0 took the %llu samples (got %llu)",
	      (unsigned long long)c.samples, (unsigned long long)g->r.count);
	for (i = 1; i < (__u32)ncpus; i++)
		streams &= g->st[i].role == LATT_ROLE_STREAM &&
			   !g->st[i].count && g->st[i].bytes_read > 0 &&
			   !g->st[i].bytes_written &&
			   g->st[i].tsc_end >= g->st[0].tsc_end;
	check(streams, "loaded: the others streamed loads until thread 0 was "
	      "done");
	check_threads(g, "loaded", ncpus);
}

static void test_abort(int fd, struct got *g)
{
	struct latt_config c = base(LATT_MODE_BANDWIDTH, ncpus);
	struct timespec t0, t1;
	bool ended = true;
	int s;
	__u32 i;

	c.duration_us = 600ULL * 1000000;
	check(!xioctl(fd, LATT_IOC_START, &c), "abort: a 600 s run starts");
	/*
	 * until 200 ms have passed since the common start (microseconds
	 * streamed): every thread is in its windows by then.  At the first
	 * microsecond a thread may still be on its way to the start line,
	 * and a stop there ends it before its first window, with no byte
	 * (seen once on 6.12-rt under TCG)
	 */
	for (i = 0; i < 3000; i++) {
		struct latt_status st;

		if (xioctl(fd, LATT_IOC_STATUS, &st) ||
		    st.samples_done >= 200000)
			break;
		usleep(10000);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	check(!xioctl(fd, LATT_IOC_ABORT, NULL), "abort: ABORT returns 0");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = wait_done(fd);
	check(s == LATT_STATE_ABORTED, "abort: state ABORTED (got %d), ABORT "
	      "took %ld ms", s, (long)((t1.tv_sec - t0.tv_sec) * 1000 +
				      (t1.tv_nsec - t0.tv_nsec) / 1000000));
	memset(&g->a, 0, sizeof(g->a));
	g->a.stats_ptr = (uintptr_t)g->st;
	g->a.len = MAXT;
	check(!xioctl(fd, LATT_IOC_THREADS, &g->a), "abort: THREADS answers");
	for (i = 0; i < (__u32)ncpus; i++)
		ended &= g->st[i].tsc_end > 0 && g->st[i].bytes_read > 0;
	check(ended, "abort: every thread streamed and ended");
}

static void expect(int fd, struct latt_config c, int err, const char *what)
{
	int r = xioctl(fd, LATT_IOC_START, &c);

	if (!r)
		wait_done(fd);
	check(r == -err, "START %s -> %s (got %s)", what, strerrorname_np(err),
	      r ? strerrorname_np(-r) : "0");
}

static void test_negative(int fd)
{
	struct latt_config c;
	__u32 saved[MAXT], bad[MAXT + 1];

	memcpy(saved, cpus, sizeof(cpus));
	c = base(LATT_MODE_LATENCY, ncpus);
	cpus[1] = cpus[0];
	expect(fd, c, EINVAL, "duplicate CPUs");
	memcpy(cpus, saved, sizeof(cpus));
	/* every CPU once, then the next number: no such CPU */
	c = base(LATT_MODE_LATENCY, ncpus + 1);
	memcpy(bad, cpus, ncpus * sizeof(*bad));
	bad[ncpus] = ncpus;
	c.cpus_ptr = (uintptr_t)bad;
	expect(fd, c, EINVAL, "more threads than online CPUs");
	c = base(LATT_MODE_LATENCY, 2);
	cpus[1] = 4000;
	expect(fd, c, EINVAL, "a CPU beyond nr_cpu_ids");
	memcpy(cpus, saved, sizeof(cpus));
	c = base(LATT_MODE_LATENCY, 2);
	c.cpu = cpus[1];
	expect(fd, c, EINVAL, "cpus[0] other than .cpu");
	c = base(LATT_MODE_LATENCY, 2);
	c.cpus_ptr = 0;
	expect(fd, c, EINVAL, "two threads and no CPU list");
	c = base(LATT_MODE_LATENCY, 2);
	c.cpus_ptr = 8;
	expect(fd, c, EFAULT, "a CPU list at a bad address");
	c = base(LATT_MODE_LATENCY, 2);
	c.flags = LATT_CFG_SPLIT;
	c.region = 64;
	expect(fd, c, EINVAL, "a region too small to split (64 B, 2 threads)");
	c = base(LATT_MODE_LATENCY, 2);
	c.flags = LATT_CFG_SPLIT;
	c.region = 8192;
	c.size = 8192;
	expect(fd, c, EINVAL, "parts smaller than one access");
	c = base(LATT_MODE_LATENCY, 2);
	c.flags = LATT_CFG_SPLIT;
	c.region = 8 << 20;
	c.pattern = LATT_PAT_STRIDE;
	c.stride = 6 << 20;	/* fits the region, not a 4 MiB part */
	expect(fd, c, EINVAL, "split with a stride beyond the part");
	expect(fd, base(LATT_MODE_LOADED, 1), EINVAL, "loaded, one thread");
	c = base(LATT_MODE_MAX + 1, 2);
	expect(fd, c, EINVAL, "mode out of range");
	c = base(LATT_MODE_BANDWIDTH, 2);
	c.samples = 10;
	expect(fd, c, EINVAL, "bandwidth with samples");
	c = base(LATT_MODE_BANDWIDTH, 2);
	c.duration_us = 10;
	expect(fd, c, EINVAL, "bandwidth shorter than LATT_MIN_DURATION_US");
	c = base(LATT_MODE_BANDWIDTH, 2);
	c.pattern = LATT_PAT_CHASE;
	expect(fd, c, EINVAL, "bandwidth chase");
	c = base(LATT_MODE_BANDWIDTH, 2);
	c.threshold = 100;
	expect(fd, c, EINVAL, "bandwidth with a threshold");
	c = base(LATT_MODE_LATENCY, 2);
	c.delay = 100;
	expect(fd, c, EINVAL, "latency mode with a delay");
	c = base(LATT_MODE_LATENCY, 2);
	c.duration_us = 100000;
	expect(fd, c, EINVAL, "latency mode with a duration");
	c = base(LATT_MODE_LOADED, 2);
	c.delay = LATT_MAX_DELAY + 1;
	expect(fd, c, EINVAL, "a delay beyond LATT_MAX_DELAY");
	c = base(LATT_MODE_LOADED, 2);
	c.mix_read = 1;
	c.mix_write = 1;
	c.write_op = LATT_OP_NT_LOAD;
	expect(fd, c, EINVAL, "a write op that is a load");
	c = base(LATT_MODE_LOADED, 2);
	c.pattern = LATT_PAT_CHASE;
	c.mix_write = 1;
	expect(fd, c, EINVAL, "loaded chase with writing traffic");
	c = base(LATT_MODE_LATENCY, 2);
	c.pattern = LATT_PAT_CHASE;
	expect(fd, c, EINVAL, "two threads on one chase");
	c = base(LATT_MODE_LOADED, 2);
	c.pattern = LATT_PAT_CHASE;
	c.flags = LATT_CFG_SPLIT;
	expect(fd, c, EINVAL, "chase on split parts");

	/* cpus[1]: not .cpu, whose own check would answer first */
	if (vm_set_cpu_online(cpus[1], 0)) {
		skip("an offline CPU: can't take CPU %u offline", cpus[1]);
	} else {
		c = base(LATT_MODE_LATENCY, ncpus);
		expect(fd, c, ENODEV, "with an offline CPU among the others");
		check(!vm_set_cpu_online(cpus[1], 1), "CPU %u back online",
		      cpus[1]);
	}
}

int main(void)
{
	static const __u32 ops[] = { LATT_OP_LOAD, LATT_OP_NT_LOAD,
		LATT_OP_STORE, LATT_OP_STORE_CLWB, LATT_OP_STORE_CLFLUSHOPT,
		LATT_OP_STORE_CLFLUSH, LATT_OP_NT_STORE };
	static const __u32 pats[] = { LATT_PAT_SEQ, LATT_PAT_RAND,
		LATT_PAT_STRIDE, LATT_PAT_HOTSPOT };
	struct latt_info info;
	struct got g;
	int fd = open_dev();
	unsigned int i, j;

	ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus > MAXT)
		ncpus = MAXT;
	for (i = 0; i < (unsigned int)ncpus; i++)
		cpus[i] = ncpus - 1 - i;	/* not in order: pinning shows */
	g.hist = calloc(LATT_HIST_BUCKETS, sizeof(__u64));
	g.thist = calloc((size_t)MAXT * LATT_HIST_BUCKETS, sizeof(__u64));
	g.series = calloc((size_t)MAXT * LATT_MAX_SERIES, sizeof(__u64));
	if (!g.hist || !g.thist || !g.series || ncpus < 2) {
		printf("Bail out! %d CPUs online, or no memory\n", ncpus);
		return 1;
	}
	memset(&info, 0, sizeof(info));
	i = xioctl(fd, LATT_IOC_GET_INFO, &info);	/* before the message */
	check(!i && info.features & LATT_FEAT_THREADS &&
	      info.abi_version >= ((1 << 16) | 2),
	      "GET_INFO: ABI %#x with LATT_FEAT_THREADS", info.abi_version);

	tsc_khz = info.tsc_khz;
	test_latency(fd, &g);
	test_timer(fd, &g, false, &info);
	test_timer(fd, &g, true, &info);
	test_split(fd, &g);
	test_bandwidth(fd, &g, LATT_OP_LOAD, LATT_PAT_SEQ, false);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		for (j = 0; j < sizeof(pats) / sizeof(pats[0]); j++)
			test_bandwidth(fd, &g, ops[i], pats[j], true);
	test_mix(fd, &g);
	test_loaded(fd, &g, LATT_PAT_RAND, 0, 0);
	test_loaded(fd, &g, LATT_PAT_RAND, 1000, 0);
	test_loaded(fd, &g, LATT_PAT_CHASE, 0, 0);
	test_loaded(fd, &g, LATT_PAT_CHASE, 0, 4096);	/* --tlb-locality 4K */
	test_abort(fd, &g);
	test_negative(fd);

	/* and one plain run still works afterwards */
	{
		struct latt_config c = base(LATT_MODE_LATENCY, 1);

		c.cpus_ptr = 0;
		c.nr_threads = 0;
		run(fd, &c, &g);
		check(!g.ret && g.state == LATT_STATE_DONE &&
		      g.r.count == c.samples && g.a.len == 1,
		      "one thread, no CPU list (ABI 1.1 style): DONE, %llu "
		      "samples, THREADS says 1", (unsigned long long)g.r.count);
	}
	return tap_done("threads");
}
