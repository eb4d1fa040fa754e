// SPDX-License-Identifier: GPL-2.0
/*
 * faults - the module's ioctls under injected allocation failures (issue 24
 * item 6, the debug kernel's FAILSLAB and FAIL_PAGE_ALLOC), TAP output.
 *
 * Usage: faults CALLS SEED
 *
 * The caller (cases/68-faults) arms both fault attributes with
 * task-filter=Y: only tasks whose /proc/PID/make-it-fail is 1 see failures.
 * This program sets it around each ioctl only, so that what fails is the
 * module's work in the caller's context (START's run, thread records,
 * histograms, DRAM chunks, its CPU list; RESULT's and THREADS's copies),
 * not libc's or the kernel's work for anything else.  (The run's kthreads
 * are kthreadd's children: their own allocations are not failed.)
 *
 * CALLS times: a START of a random kind, always a valid one (DRAM; one or
 * two threads, split or not; latency, bandwidth or loaded; chase, one
 * thread; REUSE or not), then, if it
 * started, STATUS polls, sometimes an ABORT, RESULT with a histogram and
 * outlier buffer, THREADS, and sometimes the file closed and opened again.
 * Every answer must be one the ABI documents for it, ENOMEM included
 * wherever an allocation can fail; anything else fails the test.  After
 * the storm, with nothing failed any more, a plain run must work.  Prints
 * the counts: calls, ENOMEMs the caller saw, and runs.
 */
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>
#include <uapi/lattester.h>
#include "../tap.h"
#include "vmtest.h"

static __u64 rng;

static __u64 next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int self_fail = -1;

static void failing(int on)
{
	if (self_fail >= 0 && pwrite(self_fail, on ? "1" : "0", 1, 0) != 1)
		self_fail = -1;
}

/* the ioctl with failures on */
static int fioctl(int fd, unsigned long cmd, void *arg)
{
	int ret;

	failing(1);
	ret = xioctl(fd, cmd, arg);
	failing(0);
	return ret;
}

static unsigned long calls, enomem, runs, bad;

static void answer(const char *what, int ret, int ok1, int ok2)
{
	calls++;
	if (ret == -ENOMEM)
		enomem++;
	else if (ret != 0 && ret != ok1 && ret != ok2) {
		bad++;
		if (bad <= 10)
			printf("# %s: %d (%s), not documented here\n", what, ret,
			       strerror(-ret));
	}
}

int main(int argc, char **argv)
{
	static __u64 hist[LATT_HIST_BUCKETS];
	static struct latt_outlier out[256];
	static struct latt_thread_stats st[8];
	unsigned long n, i;
	__u32 cpus[2] = { 0, 1 };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int dev, ret, polls;

	if (argc != 3) {
		fprintf(stderr, "usage: faults CALLS SEED\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 0);
	rng = strtoull(argv[2], NULL, 0) | 1;
	/*
	 * The buffers RESULT and THREADS copy into, in memory before the
	 * storm: a copy into a page not yet faulted in allocates it in this
	 * task, where an injected failure makes the copy EFAULT (the debug
	 * kernel's fail_page_alloc did, once in 4878 calls): not the
	 * module's answer but the caller's own page
	 */
	memset(hist, 0xff, sizeof(hist));
	memset(out, 0xff, sizeof(out));
	memset(st, 0xff, sizeof(st));
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		printf("# mlockall: %s: the buffers may be paged out\n",
		       strerror(errno));
	self_fail = open("/proc/self/make-it-fail", O_WRONLY | O_CLOEXEC);
	check(self_fail >= 0, "/proc/self/make-it-fail opened (%s)",
	      self_fail >= 0 ? "ok" : strerror(errno));
	dev = open_dev();
	for (i = 0; i < n; i++) {
		struct latt_config c = vm_base_config();
		struct latt_status s;
		struct latt_result r;
		struct latt_threads t;
		__u64 k = next();

		c.seed = next();
		c.samples = 200 + k % 800;
		if (k & 2)
			c.pattern = LATT_PAT_CHASE;
		if (k & 4)
			c.flags |= LATT_CFG_REUSE;
		/* chase is one chain for one thread (rules.h) */
		if ((k & 8) && ncpu >= 2 && c.pattern != LATT_PAT_CHASE) {
			c.nr_threads = 2;
			c.cpus_ptr = (__u64)(uintptr_t)cpus;
			if (k & 16) {
				c.flags |= LATT_CFG_SPLIT;
			} else {
				c.mode = k & 32 ? LATT_MODE_BANDWIDTH :
						   LATT_MODE_LOADED;
				if (c.mode == LATT_MODE_BANDWIDTH) {
					c.samples = 0;
					c.duration_us = 2000;
				}
			}
		}
		if (k & 64)
			c.region = 4 << 20;
		/* EBUSY: a run still going (an ABORT left it stopping) */
		ret = fioctl(dev, LATT_IOC_START, &c);
		answer("START", ret, -EBUSY, -EINTR);
		if (ret)
			continue;
		runs++;
		for (polls = 0; polls < 3000; polls++) {
			memset(&s, 0, sizeof(s));
			ret = fioctl(dev, LATT_IOC_STATUS, &s);
			answer("STATUS", ret, 0, 0);
			if (ret || s.state != LATT_STATE_RUNNING)
				break;
			if ((k & 128) && polls == 1) {
				ret = fioctl(dev, LATT_IOC_ABORT, NULL);
				answer("ABORT", ret, 0, 0);
			}
			usleep(2000);
		}
		memset(&r, 0, sizeof(r));
		r.hist_ptr = (__u64)(uintptr_t)hist;
		r.hist_len = LATT_HIST_BUCKETS;
		r.outlier_ptr = (__u64)(uintptr_t)out;
		r.outlier_len = 256;
		ret = fioctl(dev, LATT_IOC_RESULT, &r);
		answer("RESULT", ret, -EBUSY, -ENOENT);
		memset(&t, 0, sizeof(t));
		t.stats_ptr = (__u64)(uintptr_t)st;
		t.len = 8;
		ret = fioctl(dev, LATT_IOC_THREADS, &t);
		answer("THREADS", ret, -EBUSY, -ENOENT);
		if (k & 256) {
			/* closing frees what the file kept, a run going or not */
			close(dev);
			dev = open_dev();
		}
	}
	/* the storm over: nothing fails, a plain run works */
	{
		struct latt_config c = vm_base_config();
		int st;

		ret = xioctl(dev, LATT_IOC_START, &c);
		st = ret ? -1 : vm_wait_done(dev, 3000);
		check(!ret && st == LATT_STATE_DONE,
		      "after the storm a plain run is DONE (start %d, state %d)",
		      ret, st);
	}
	check(!bad, "%lu calls, %lu ENOMEM, %lu runs started: every answer "
	      "documented (%lu not)", calls, enomem, runs, bad);
	printf("# faults: calls %lu enomem %lu runs %lu\n", calls, enomem,
	       runs);
	close(dev);
	return tap_done("faults");
}
