/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz/directed.h - ioctl-fuzz's directed checks after the storm: a
 * normal run and runs of several threads still do all they should, an
 * abort at once, a split region's stride, a PMEM mix's claim, a long
 * delay.
 *
 * Part of tests/vm/ioctl-fuzz.c and included once by it: one
 * translation unit (tests/vm/run builds the .c alone), so the
 * functions are static and use the types, globals and helpers
 * defined above the #include there (and fuzz/storm.h).
 */
#ifndef _LATT_FUZZ_DIRECTED_H
#define _LATT_FUZZ_DIRECTED_H

/* --- afterwards ------------------------------------------------------------ */

static int wait_idle(int fd, int tries)
{
	int s = -1;

	while (tries-- > 0) {
		s = status_state(fd);
		if (s != LATT_STATE_RUNNING)
			break;
		usleep(10000);
	}
	return s;
}

static struct latt_config plain_config(void)
{
	struct latt_config c = vm_base_config();

	c.samples = 20000;
	c.seed = 42;
	return c;
}

/* A plain run after the storm: every sample taken, the histogram adds up. */
static void normal_run(void)
{
	struct latt_config c = plain_config();
	struct latt_result r;
	unsigned long long sum = 0;
	int fd = open_dev(), s, ret;
	__u64 *h = calloc(LATT_HIST_BUCKETS, sizeof(*h));
	__u32 i;

	c.cpu = online_cpu();
	ret = xioctl(fd, LATT_IOC_START, &c);
	check(ret == 0, "a normal run starts after the fuzzing (%s)",
	      ename(ret));
	s = wait_idle(fd, 6000);
	check(s == LATT_STATE_DONE, "it is DONE (state %d)", s);
	memset(&r, 0, sizeof(r));
	r.hist_ptr = (uintptr_t)h;
	r.hist_len = LATT_HIST_BUCKETS;
	ret = xioctl(fd, LATT_IOC_RESULT, &r);
	for (i = 0; h && i < LATT_HIST_BUCKETS; i++)
		sum += h[i];
	check(ret == 0 && r.count == c.samples && sum == c.samples &&
	      r.state == LATT_STATE_DONE,
	      "RESULT: count %llu == samples %llu, histogram sum %llu",
	      (unsigned long long)r.count, (unsigned long long)c.samples, sum);
	check(ret == 0 && !r.backwards && r.timer_step &&
	      r.timer_step <= GARBAGE && r.overhead_end &&
	      r.overhead_end <= GARBAGE && page_size_ok(r.page_size) &&
	      !(r.flags & LATT_RES_TIMER_RDTSC) == !want_rdtsc(&c),
	      "RESULT (ABI 1.3): no sample backwards (%llu), timer step %llu, "
	      "overhead after the samples %llu, page size %llu, flags %#x",
	      (unsigned long long)r.backwards,
	      (unsigned long long)r.timer_step,
	      (unsigned long long)r.overhead_end,
	      (unsigned long long)r.page_size, r.flags);
	free(h);
	close(fd);
}

/*
 * A run on every online CPU after the storm, latency or bandwidth: DONE,
 * STATUS's total and done, RESULT's count and bytes, THREADS' records
 * (each thread's count, series) adding up to RESULT.
 */
static void threads_run(__u32 mode)
{
	static struct latt_thread_stats st[MAX_CPUS];
	struct latt_config c = plain_config();
	struct latt_threads a;
	struct latt_result r;
	struct latt_status s;
	__u64 *series = calloc((size_t)n_online * LATT_MAX_SERIES, 8);
	__u64 count = 0, bytes = 0, total;
	int fd = open_dev(), state, ret, ok = 1;
	__u32 i;
	const char *name = mode == LATT_MODE_BANDWIDTH ? "bandwidth" :
			   "latency";

	make_list(online_cpu(), n_online);
	c.cpu = list[0];
	c.mode = mode;
	c.nr_threads = list_len;
	c.cpus_ptr = (uintptr_t)list;
	if (mode == LATT_MODE_BANDWIDTH) {
		c.samples = 0;
		c.duration_us = 20000;
		total = c.duration_us;
	} else {
		c.samples = 5000;
		total = c.samples * list_len;
	}
	ret = xioctl(fd, LATT_IOC_START, &c);
	state = wait_idle(fd, 6000);
	check(!ret && state == LATT_STATE_DONE, "a %s run on %u CPUs after "
	      "the fuzzing is DONE (start %s, state %d)", name, list_len,
	      ename(ret), state);
	memset(&s, 0, sizeof(s));
	memset(&r, 0, sizeof(r));
	memset(&a, 0, sizeof(a));
	a.stats_ptr = (uintptr_t)st;
	a.series_ptr = (uintptr_t)series;
	a.len = list_len;
	a.series_len = LATT_MAX_SERIES;
	ret = xioctl(fd, LATT_IOC_STATUS, &s) ||
	      xioctl(fd, LATT_IOC_RESULT, &r) ||
	      xioctl(fd, LATT_IOC_THREADS, &a);
	check(!ret && s.samples_total == total && s.samples_done == total,
	      "%s: STATUS done %llu of %llu, want %llu", name,
	      (unsigned long long)s.samples_done,
	      (unsigned long long)s.samples_total, (unsigned long long)total);
	check(r.count == (mode == LATT_MODE_BANDWIDTH ? 0 : total) &&
	      (mode == LATT_MODE_BANDWIDTH ? r.bytes_read > 0 :
	       !r.bytes_read) && !r.bytes_written,
	      "%s: RESULT count %llu, bytes read %llu, written %llu", name,
	      (unsigned long long)r.count, (unsigned long long)r.bytes_read,
	      (unsigned long long)r.bytes_written);
	for (i = 0; i < a.len && i < list_len; i++) {
		count += st[i].count;
		bytes += st[i].bytes_read;
		ok &= st[i].cpu == list[i];
		if (mode == LATT_MODE_BANDWIDTH)
			ok &= rowsum(series + (size_t)i * LATT_MAX_SERIES,
				     a.series_len) == st[i].bytes_read &&
			      !st[i].overhead_end && !st[i].backwards;
		else
			ok &= st[i].count == c.samples && !st[i].backwards &&
			      st[i].overhead_end > 0 &&
			      st[i].overhead_end <= GARBAGE;
	}
	check(a.len == list_len && ok && count == r.count &&
	      bytes == r.bytes_read,
	      "%s: THREADS: %u threads on their CPUs, each thread's %s, "
	      "counts %llu and bytes %llu add up to RESULT's", name, a.len,
	      mode == LATT_MODE_BANDWIDTH ? "series sums to its bytes, "
	      "nothing timed" : "count is samples, none backwards, "
	      "calibrated after them", (unsigned long long)count,
	      (unsigned long long)bytes);
	free(series);
	close(fd);
}

/* Busy for @ms milliseconds, without sleeping. */
static void spin_ms(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 +
	       (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/*
 * A bandwidth run on every online CPU aborted before its threads reach
 * their common start: the one on this CPU can't run yet (this process is
 * SCHED_FIFO on it and spins 20 ms before the ABORT), the others wait at
 * the start line for it.  Then THREADS says tsc_go 0, and nothing was
 * streamed: STATUS's done (the microseconds streamed) must be 0, and so
 * must RESULT's bytes.
 */
static void abort_at_once(void)
{
	static struct latt_thread_stats st[MAX_CPUS];
	struct sched_param sp = { .sched_priority = 1 };
	struct latt_config c = plain_config();
	struct latt_threads a;
	struct latt_result r;
	struct latt_status s;
	int fd = open_dev(), k, early = 0, bad = 0, fifo;
	unsigned long long done = 0, total = 0, bytes = 0;
	cpu_set_t set, old;

	if (n_online < 2) {
		skip("a bandwidth run aborted before its start: one CPU");
		close(fd);
		return;
	}
	make_list(online_cpu(), n_online);
	sched_getaffinity(0, sizeof(old), &old);
	CPU_ZERO(&set);
	CPU_SET(list[0], &set);
	sched_setaffinity(0, sizeof(set), &set);
	fifo = !sched_setscheduler(0, SCHED_FIFO, &sp);
	c.cpu = list[0];
	c.mode = LATT_MODE_BANDWIDTH;
	c.samples = 0;
	c.duration_us = 1000000;
	c.nr_threads = list_len;
	c.cpus_ptr = (uintptr_t)list;
	for (k = 0; k < 10; k++) {
		if (xioctl(fd, LATT_IOC_START, &c))
			break;
		spin_ms(20);	/* the others reach the start line */
		xioctl(fd, LATT_IOC_ABORT, NULL);
		memset(&a, 0, sizeof(a));
		memset(&r, 0, sizeof(r));
		a.stats_ptr = (uintptr_t)st;
		a.len = list_len;
		if (xioctl(fd, LATT_IOC_THREADS, &a) ||
		    xioctl(fd, LATT_IOC_STATUS, &s) ||
		    xioctl(fd, LATT_IOC_RESULT, &r) || a.tsc_go)
			continue;
		early++;
		if (s.samples_done || r.bytes_read || r.bytes_written) {
			bad++;
			done = s.samples_done;
			total = s.samples_total;
			bytes = r.bytes_read + r.bytes_written;
		}
	}
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	sched_setaffinity(0, sizeof(old), &old);
	if (!early) {
		skip("a bandwidth run aborted before its start: none of 10 "
		     "was (SCHED_FIFO %s)", fifo ? "on" : "refused");
	} else {
		check(!bad, "a bandwidth run aborted before its common start "
		      "(tsc_go 0; %d of 10) streamed nothing: %d said "
		      "otherwise (STATUS done %llu of %llu us, %llu bytes)",
		      early, bad, done, total, bytes);
	}
	close(fd);
}

/*
 * Split parts and the pattern's geometry: a stride (or a hotspot) that fits
 * the region but not a thread's part.  START may refuse it (EINVAL) or run
 * it; a run it accepts must not fail.
 */
static void split_stride(void)
{
	static const __u32 pats[] = { LATT_PAT_STRIDE, LATT_PAT_HOTSPOT };
	struct latt_config c = plain_config();
	struct latt_result r;
	int fd = open_dev(), ret, s;
	unsigned int i;

	if (n_online < 2) {
		skip("a split run with a stride beyond its parts: one CPU");
		close(fd);
		return;
	}
	make_list(online_cpu(), 2);
	for (i = 0; i < ARRAY_SIZE(pats); i++) {
		c.cpu = list[0];
		c.nr_threads = 2;
		c.cpus_ptr = (uintptr_t)list;
		c.flags = LATT_CFG_SPLIT;	/* parts of 8 MiB */
		c.pattern = pats[i];
		c.stride = 12 << 20;
		c.samples = 1000;
		ret = xioctl(fd, LATT_IOC_START, &c);
		s = ret ? -1 : wait_idle(fd, 6000);
		memset(&r, 0, sizeof(r));
		if (!ret)
			xioctl(fd, LATT_IOC_RESULT, &r);
		check(ret == -EINVAL || (!ret && s == LATT_STATE_DONE),
		      "split into 8 MiB parts, %s of 12 MiB: START refuses "
		      "(EINVAL) or the run is DONE (START %s, state %d, error "
		      "%s)", pats[i] == LATT_PAT_STRIDE ? "stride" : "hotspot",
		      ename(ret), s, ename(r.error));
	}
	close(fd);
}

/*
 * A mix's writes overwrite a PMEM target as stores do: with FORCE, a claim
 * not opened for writing is EBADF (before anything is asked of the claim
 * itself).  Claims that can never start a run: pmem0 read-only without
 * O_EXCL, a pipe's read end.
 */
static void pmem_mix_claim(void)
{
	struct latt_config c = plain_config();
	int fd = open_dev(), pfd[2] = { -1, -1 }, claim[2], ret, i;

	if (!have_pmem) {
		skip("a PMEM mix through a read-only claim: no pmem0");
		close(fd);
		return;
	}
	claim[0] = open("/dev/pmem0", O_RDONLY);
	if (pipe(pfd))
		pfd[0] = -1;
	claim[1] = pfd[0];
	c.target = LATT_TARGET_PMEM;
	c.phys_addr = ns_start;
	c.flags = LATT_CFG_FORCE;
	c.mode = LATT_MODE_BANDWIDTH;
	c.samples = 0;
	c.duration_us = LATT_MIN_DURATION_US;
	c.mix_read = 1;
	c.mix_write = 1;
	for (i = 0; i < 2; i++) {
		c.fd = claim[i];
		ret = claim[i] < 0 ? -EBADF : xioctl(fd, LATT_IOC_START, &c);
		if (!ret)	/* can't be: neither claim is O_EXCL */
			wait_idle(fd, 6000);
		check(ret == -EBADF, "PMEM bandwidth with a mix's writes and "
		      "FORCE through a read-only %s -> EBADF (got %s)",
		      i ? "pipe" : "pmem0", ename(ret));
	}
	close(claim[0]);
	close(pfd[0]);
	close(pfd[1]);
	close(fd);
}

/*
 * A streaming thread's delay follows every access, inside the window:
 * interrupts stay off for at most window_us (the header's LATT_MAX_WINDOW_US
 * is "far from watchdogs"), whatever the delay.  LATT_MAX_DELAY (2^20
 * cycles) after each access of a 10 us window: the longest irq-off stretch
 * must stay below LATT_MAX_WINDOW_US, which leaves TCG's jitter a wide
 * margin.  (The fuzzing itself keeps delays below SAFE_DELAY.)
 */
static void long_delay(void)
{
	struct latt_config c = plain_config();
	struct latt_thread_stats st;
	struct latt_threads a;
	struct latt_result r;
	__u64 limit = LATT_MAX_WINDOW_US * info.tsc_khz / 1000;
	int fd = open_dev(), ret, s;

	c.cpu = online_cpu();
	c.mode = LATT_MODE_BANDWIDTH;
	c.samples = 0;
	c.duration_us = LATT_MIN_DURATION_US;
	c.window_us = LATT_MIN_WINDOW_US;
	c.delay = LATT_MAX_DELAY;
	ret = xioctl(fd, LATT_IOC_START, &c);
	s = ret ? -1 : wait_idle(fd, 6000);
	memset(&r, 0, sizeof(r));
	memset(&a, 0, sizeof(a));
	memset(&st, 0, sizeof(st));
	a.stats_ptr = (uintptr_t)&st;
	a.len = 1;
	if (!ret)
		ret = xioctl(fd, LATT_IOC_RESULT, &r);
	if (!ret)
		ret = xioctl(fd, LATT_IOC_THREADS, &a);
	/*
	 * The delay is far longer than the window: the spin must stop at
	 * the window's end, so every window holds exactly one access.  (The
	 * longest stretch is a time, which a busy host inflates under TCG:
	 * printed, not asserted.)
	 */
	check(!ret && s == LATT_STATE_DONE && st.accesses &&
	      st.accesses == st.windows,
	      "bandwidth with a delay of LATT_MAX_DELAY in 10 us windows: "
	      "DONE (%s, state %d), one access a window (%llu accesses, "
	      "%llu windows); longest irq-off stretch %llu cycles (%.1f ms, "
	      "LATT_MAX_WINDOW_US is %llu cycles)",
	      ename(ret), s, (unsigned long long)st.accesses,
	      (unsigned long long)st.windows,
	      (unsigned long long)r.window_cycles_max,
	      info.tsc_khz ? r.window_cycles_max / (double)info.tsc_khz : 0,
	      (unsigned long long)limit);
	close(fd);
}

#endif /* _LATT_FUZZ_DIRECTED_H */
