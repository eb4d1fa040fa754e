// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl-neg - every validation of /dev/lattester returns its documented
 * error, and the module keeps working afterwards.  Runs in the test VM as
 * root, with the module loaded.  TAP-style output, exit 1 on any failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <uapi/lattester.h>
#include "../tap.h"
#include "vmtest.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define GARBAGE		(1ULL << 40)	/* no calibration or step is this */

static const char *dev = LATT_DEV_PATH;

static int state(int fd)
{
	struct latt_status st;

	if (xioctl(fd, LATT_IOC_STATUS, &st))
		return -1;
	return (int)st.state;
}

static int wait_done(int fd)
{
	int s, i;

	for (i = 0; i < 6000; i++) {
		s = state(fd);
		if (s != LATT_STATE_RUNNING)
			return s;
		usleep(10000);
	}
	return -1;
}

/* GET_INFO says the module has feature @bit, named @name in the message */
static void check_feature(int fd, __u64 bit, const char *name)
{
	struct latt_info info;
	int ret;

	memset(&info, 0, sizeof(info));
	ret = xioctl(fd, LATT_IOC_GET_INFO, &info);
	check(!ret && (info.features & bit), "GET_INFO: %s (features %#llx)",
	      name, (unsigned long long)info.features);
}
#define CHECK_FEATURE(fd, f)	check_feature(fd, f, #f)

static int start_errno(int fd, struct latt_config c)
{
	int ret = xioctl(fd, LATT_IOC_START, &c);

	if (!ret)	/* should not have started: clean up */
		wait_done(fd);
	return ret;
}

#define EXPECT_START(fd, field_expr, err) do {				\
	struct latt_config c = vm_base_config();			\
	field_expr;							\
	int r = start_errno(fd, c);					\
	check(r == -(err), "START with %s -> %s (got %s)", #field_expr,	\
	      strerrorname_np(err), r ? strerrorname_np(-r) : "0");	\
} while (0)

static void sysfs_write(const char *attr, const char *val, int want)
{
	char path[256];
	int fd, r = 0;

	snprintf(path, sizeof(path), "/sys/class/misc/lattester/%s", attr);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, val, strlen(val)) < 0)
		r = -errno;
	if (fd >= 0)
		close(fd);
	check(r == -want, "sysfs %s <- '%s' -> %s (got %s)", attr, val,
	      want ? strerrorname_np(want) : "0", r ? strerrorname_np(-r) : "0");
}

/*
 * ABI 2.7: latt_batch_rules() (include/lattester/rules.h): K 1 to 1024,
 * its pairs 256 to 2^20 and none without it, latency mode with one
 * thread, K x size at most 4 MiB, a chase's K x chain at most 65536; no
 * seq or stride; warm, K at most 16 and K x size at most 8 KiB; flushed,
 * 128 x K blocks in the region (a hotspot's window) at least.
 */
static void test_batch_rules(int fd)
{
	static __u32 two[2] = { 0, 1 };

	EXPECT_START(fd, c.batch_pairs = 1, EINVAL);	/* without batch */
	EXPECT_START(fd, (c.batch = LATT_MAX_BATCH + 1,
			  c.batch_pairs = LATT_MIN_BATCH_PAIRS), EINVAL);
	EXPECT_START(fd, (c.batch = 1,
			  c.batch_pairs = LATT_MIN_BATCH_PAIRS - 1), EINVAL);
	EXPECT_START(fd, (c.batch = 1,
			  c.batch_pairs = LATT_MAX_BATCH_PAIRS + 1U), EINVAL);
	EXPECT_START(fd, (c.batch = 1, c.batch_pairs = LATT_MIN_BATCH_PAIRS,
			  c.mode = LATT_MODE_BANDWIDTH, c.samples = 0,
			  c.duration_us = 10000), EINVAL);
	EXPECT_START(fd, (c.batch = 1, c.batch_pairs = LATT_MIN_BATCH_PAIRS,
			  c.nr_threads = 2,
			  c.cpus_ptr = (__u64)(unsigned long)two), EINVAL);
	EXPECT_START(fd, (c.batch = 1024, c.batch_pairs = LATT_MIN_BATCH_PAIRS,
			  c.size = 8192), EINVAL);	/* 8 MiB a batch */
	EXPECT_START(fd, (c.batch = 17, c.batch_pairs = LATT_MIN_BATCH_PAIRS,
			  c.pattern = LATT_PAT_CHASE,
			  c.chain = LATT_MAX_CHAIN), EINVAL);
	/* what a batch's accesses must share with a sample's */
	EXPECT_START(fd, (c.batch = 8, c.batch_pairs = LATT_MIN_BATCH_PAIRS,
			  c.pattern = LATT_PAT_SEQ), EINVAL);
	EXPECT_START(fd, (c.batch = 8, c.batch_pairs = LATT_MIN_BATCH_PAIRS,
			  c.pattern = LATT_PAT_STRIDE, c.stride = 4096),
		     EINVAL);
	EXPECT_START(fd, (c.batch = 17, c.batch_pairs = LATT_MIN_BATCH_PAIRS,
			  c.flags = LATT_CFG_WARM), EINVAL);
	EXPECT_START(fd, (c.batch = 16, c.batch_pairs = LATT_MIN_BATCH_PAIRS,
			  c.flags = LATT_CFG_WARM, c.size = 1024), EINVAL);
	EXPECT_START(fd, (c.batch = 16, c.batch_pairs = LATT_MIN_BATCH_PAIRS,
			  c.region = 128 * 16 * 64 - 64), EINVAL);
	EXPECT_START(fd, (c.batch = 16, c.batch_pairs = LATT_MIN_BATCH_PAIRS,
			  c.pattern = LATT_PAT_HOTSPOT,
			  c.stride = 64 << 10), EINVAL);	/* 1024 blocks */
}

static void test_validation(int fd)
{
	EXPECT_START(fd, c.op = 0, EINVAL);
	EXPECT_START(fd, c.op = LATT_OP_MAX + 1, EINVAL);
	EXPECT_START(fd, c.pattern = 0, EINVAL);
	EXPECT_START(fd, c.pattern = 99, EINVAL);
	EXPECT_START(fd, c.fence = 9, EINVAL);
	EXPECT_START(fd, c.fence = LATT_FENCE_SFENCE, EINVAL);
	EXPECT_START(fd, c.target = 0, EINVAL);
	EXPECT_START(fd, c.size = 0, EINVAL);
	EXPECT_START(fd, c.size = 100, EINVAL);
	EXPECT_START(fd, c.size = LATT_MAX_SIZE + 64, EINVAL);
	EXPECT_START(fd, c.size = 32 << 20, EINVAL);	/* > region */
	EXPECT_START(fd, c.region = 0, EINVAL);
	EXPECT_START(fd, c.region = LATT_MAX_REGION + 1, EINVAL);
	EXPECT_START(fd, c.region = 512ULL << 30, ENOMEM);
	EXPECT_START(fd, c.samples = 0, EINVAL);
	EXPECT_START(fd, c.cpu = 100000, EINVAL);
	EXPECT_START(fd, c.node = 7, EINVAL);	/* not possible here */
	EXPECT_START(fd, c.node = 1U << 20, EINVAL);
	EXPECT_START(fd, c.map_addr = 1 << 20, EINVAL);	/* ABI 2.1 */
	/* ABI 2.7: batch and batch_pairs (the paddings before) */
	EXPECT_START(fd, c.batch = 1, EINVAL);		/* no pairs */
	EXPECT_START(fd, c.flags = 1U << 7, EINVAL);
	/* the first bit after ABI 1.3's LATT_CFG_RDTSC */
	EXPECT_START(fd, c.flags = LATT_CFG_FLAGS_ALL + 1, EINVAL);
	EXPECT_START(fd, c.chain = 4, EINVAL);		/* not chase */
	EXPECT_START(fd, (c.pattern = LATT_PAT_CHASE, c.op = LATT_OP_STORE),
		     EINVAL);
	EXPECT_START(fd, (c.pattern = LATT_PAT_CHASE,
			  c.chain = LATT_MAX_CHAIN + 1), EINVAL);
	EXPECT_START(fd, (c.pattern = LATT_PAT_STRIDE, c.stride = 0), EINVAL);
	EXPECT_START(fd, (c.pattern = LATT_PAT_STRIDE, c.stride = 100),
		     EINVAL);
	EXPECT_START(fd, (c.pattern = LATT_PAT_HOTSPOT, c.stride = 32),
		     EINVAL);
	EXPECT_START(fd, c.stride = 4096, EINVAL);	/* rand has none */
	/* a chase's stride is its TLB-locality block: a power of two of
	 * whole accesses, at most the region */
	EXPECT_START(fd, (c.pattern = LATT_PAT_CHASE, c.stride = 3 * 64),
		     EINVAL);
	EXPECT_START(fd, (c.pattern = LATT_PAT_CHASE, c.size = 128,
			  c.stride = 64), EINVAL);
	EXPECT_START(fd, (c.pattern = LATT_PAT_CHASE, c.stride = 32 << 20),
		     EINVAL);
	EXPECT_START(fd, c.window_us = 5, EINVAL);
	EXPECT_START(fd, c.window_us = LATT_MAX_WINDOW_US + 1, EINVAL);
	EXPECT_START(fd, c.width = 12, EINVAL);
	EXPECT_START(fd, (c.op = LATT_OP_NT_LOAD, c.width = 8), EINVAL);
	EXPECT_START(fd, c.max_outliers = LATT_MAX_OUTLIERS + 1, EINVAL);
	EXPECT_START(fd, c.fd = 3, EINVAL);		/* DRAM takes no file */
	EXPECT_START(fd, c.phys_addr = 1 << 20, EINVAL);
	EXPECT_START(fd, c.batch_pairs = LATT_MIN_BATCH_PAIRS, EINVAL);
	test_batch_rules(fd);
	EXPECT_START(fd, c.target = 3, EINVAL);
	check(xioctl(fd, LATT_IOC_START, (void *)8) == -EFAULT,
	      "START with a bad pointer -> EFAULT");
}

/* LATT_TARGET_PMEM: the claim and the range are checked; a load run works. */
/* GET_INFO's LATT_FEAT_LFENCE_SERIAL (ABI 2.4) */
static int lfence_serial(int fd)
{
	struct latt_info info;

	memset(&info, 0, sizeof(info));
	return !xioctl(fd, LATT_IOC_GET_INFO, &info) &&
	       (info.features & LATT_FEAT_LFENCE_SERIAL);
}

static void test_pmem(int fd)
{
	struct latt_config c = vm_base_config();
	struct latt_result r;
	__u64 start, size;
	int excl, shared, null, rdonly, ret;

	if (ns_range("namespace0.0", &start, &size) ||
	    access("/dev/pmem0", F_OK)) {
		skip("PMEM targets: no raw namespace0.0 / pmem0 in this VM");
		return;
	}
	excl = open("/dev/pmem0", O_RDWR | O_EXCL);
	shared = open("/dev/pmem0", O_RDWR);
	null = open("/dev/null", O_RDWR);
	rdonly = open("/dev/pmem0", O_RDONLY);
	check(excl >= 0 && shared >= 0 && null >= 0, "open pmem0 and /dev/null");
	c.target = LATT_TARGET_PMEM;
	c.node = LATT_NODE_LOCAL;
	c.phys_addr = start;
	c.region = 16 << 20;

	c.fd = -1;
	check(start_errno(fd, c) == -EBADF, "PMEM with fd -1 -> EBADF");
	c.fd = null;
	check(start_errno(fd, c) == -EINVAL, "PMEM claimed by /dev/null -> EINVAL");
	c.fd = shared;
	check(start_errno(fd, c) == -EBUSY,
	      "PMEM claimed by a file without O_EXCL -> EBUSY");
	c.fd = excl;
	c.phys_addr = 1 << 20;
	check(start_errno(fd, c) == -EINVAL, "PMEM range in System RAM -> EINVAL");
	c.phys_addr = start + size - (8 << 20);
	check(start_errno(fd, c) == -EINVAL,
	      "PMEM range past the namespace's end -> EINVAL");
	c.phys_addr = start + 100;
	check(start_errno(fd, c) == -EINVAL, "PMEM range not page-aligned -> EINVAL");
	c.phys_addr = start;
	c.op = LATT_OP_STORE_CLWB;
	check(start_errno(fd, c) == -EPERM, "PMEM store without FORCE -> EPERM");
	c.flags = LATT_CFG_FORCE;
	c.fd = rdonly;
	check(start_errno(fd, c) == -EBADF,
	      "PMEM store with FORCE through a read-only claim -> EBADF");
	c.fd = excl;
	c.flags = 0;
	c.op = LATT_OP_LOAD;
	c.pattern = LATT_PAT_CHASE;
	check(start_errno(fd, c) == -EPERM, "PMEM chase without FORCE -> EPERM");
	c.flags = LATT_CFG_FORCE;
	c.region = 12 << 20;
	check(start_errno(fd, c) == -EINVAL,
	      "PMEM chase over a region not a power of two -> EINVAL");
	c.region = 16 << 20;
	/* "lfence; rdtsc" where LFENCE serializes (ABI 2.4) */
	c.flags = LATT_CFG_FORCE |
		  (lfence_serial(fd) ? LATT_CFG_RDTSC : 0);
	check(xioctl(fd, LATT_IOC_START, &c) == 0 &&
	      wait_done(fd) == LATT_STATE_DONE,
	      "PMEM chase with FORCE over 16 MiB runs (offsets, masked), "
	      "timed with %s", c.flags & LATT_CFG_RDTSC ? "lfence; rdtsc" :
	      "the default timer");
	memset(&r, 0, sizeof(r));
	ret = xioctl(fd, LATT_IOC_RESULT, &r);
	check(ret == 0 && r.count == c.samples && !r.backwards &&
	      !(r.flags & LATT_RES_TIMER_RDTSC) ==
	      !(c.flags & LATT_CFG_RDTSC) && r.timer_step > 0 &&
	      r.overhead_end > 0 && r.overhead_end <= GARBAGE &&
	      (!r.page_size || r.page_size == 4096 ||
	       r.page_size == 2ULL << 20 || r.page_size == 1ULL << 30),
	      "PMEM chase result: %llu samples, %llu backwards, flags %#x "
	      "(TIMER_RDTSC as asked), step %llu, overhead after %llu, page size %llu",
	      (unsigned long long)r.count, (unsigned long long)r.backwards,
	      r.flags, (unsigned long long)r.timer_step,
	      (unsigned long long)r.overhead_end,
	      (unsigned long long)r.page_size);
	c.flags = 0;
	c.pattern = LATT_PAT_RAND;
	c.node = 1U << 20;
	check(start_errno(fd, c) == -EINVAL, "PMEM with a bad node -> EINVAL");
	c.node = LATT_NODE_LOCAL;

	check(xioctl(fd, LATT_IOC_START, &c) == 0, "PMEM load run starts");
	check(wait_done(fd) == LATT_STATE_DONE, "PMEM load run is DONE");
	memset(&r, 0, sizeof(r));
	ret = xioctl(fd, LATT_IOC_RESULT, &r);	/* before the message's args */
	check(ret == 0 && r.count == c.samples &&
	      r.config.target == LATT_TARGET_PMEM &&
	      r.config.phys_addr == start && !(r.flags & LATT_RES_DAX),
	      "PMEM result: %llu samples, raw namespace (no DAX check)",
	      (unsigned long long)r.count);
	c.op = LATT_OP_NT_STORE;
	c.flags = LATT_CFG_FORCE;
	check(xioctl(fd, LATT_IOC_START, &c) == 0 &&
	      wait_done(fd) == LATT_STATE_DONE, "PMEM nt-store with FORCE runs");
	close(excl);
	close(shared);
	close(null);
	close(rdonly);
}

static void test_offline_cpu(int fd)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int last = (int)ncpu - 1;

	if (ncpu < 2 || vm_set_cpu_online(last, 0)) {
		skip("offline CPU: cannot offline a CPU here");
		return;
	}
	EXPECT_START(fd, c.cpu = (unsigned int)last, ENODEV);
	check(vm_set_cpu_online(last, 1) == 0, "CPU %d back online", last);
}

/*
 * The order of START's checks, as Documentation/ioctl.md's list states it
 * (include/lattester/rules.h, then the module's own): each pair breaks an
 * earlier and a later check whose errnos differ, and the earlier answers.
 */
static void test_order(int fd)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int last = (int)ncpu - 1;

	/* 1. fields and flags before the pmem --force check */
	EXPECT_START(fd, (c.flags = 1U << 9, c.target = LATT_TARGET_PMEM,
			  c.op = LATT_OP_STORE), EINVAL);
	/* 2. target and FORCE before the modes, limits, chase, sizes */
	EXPECT_START(fd, (c.target = LATT_TARGET_PMEM, c.op = LATT_OP_STORE,
			  c.samples = 0), EPERM);
	EXPECT_START(fd, (c.target = LATT_TARGET_PMEM, c.op = LATT_OP_STORE,
			  c.region = 0), EPERM);
	EXPECT_START(fd, (c.target = LATT_TARGET_PMEM, c.op = LATT_OP_STORE,
			  c.size = 100, c.window_us = 1, c.chain = 9999), EPERM);
	EXPECT_START(fd, (c.target = LATT_TARGET_PMEM,
			  c.pattern = LATT_PAT_CHASE, c.stride = 3,
			  c.max_outliers = ~0U), EPERM);
	/* 3. the modes' own --force (mix writes) before the limits */
	EXPECT_START(fd, (c.target = LATT_TARGET_PMEM, c.flags = 0,
			  c.mode = LATT_MODE_LOADED, c.nr_threads = 2,
			  c.mix_read = 1, c.mix_write = 1, c.region = 0),
		     EPERM);
	if (ncpu >= 2 && !vm_set_cpu_online(last, 0)) {
		/* 4. every configuration rule before the CPU's being online */
		EXPECT_START(fd, (c.size = 100, c.cpu = (unsigned int)last),
			     EINVAL);
		EXPECT_START(fd, (c.chain = 2, c.cpu = (unsigned int)last),
			     EINVAL);
		EXPECT_START(fd, (c.batch = 1, c.cpu = (unsigned int)last),
			     EINVAL);
		EXPECT_START(fd, (c.pattern = LATT_PAT_STRIDE, c.stride = 96,
				  c.cpu = (unsigned int)last), EINVAL);
		/* 5. the CPU before the node (a node beyond the possible) */
		EXPECT_START(fd, (c.cpu = (unsigned int)last,
				  c.node = 1U << 20), ENODEV);
		/* 6. the CPU before the sample function (width, fence) */
		EXPECT_START(fd, (c.cpu = (unsigned int)last, c.width = 12),
			     ENODEV);
		EXPECT_START(fd, (c.cpu = (unsigned int)last,
				  c.fence = LATT_FENCE_SFENCE), ENODEV);
		check(vm_set_cpu_online(last, 1) == 0, "CPU %d back online",
		      last);
	} else {
		skip("check order with an offline CPU: cannot offline one");
	}
	/* 7. the sample function before the threads' CPUs (a bad pointer) */
	EXPECT_START(fd, (c.width = 12, c.nr_threads = 2, c.cpus_ptr = 8),
		     EINVAL);
	/* 8. the threads' CPUs: a bad pointer is EFAULT, after all of it */
	EXPECT_START(fd, (c.nr_threads = 2, c.cpus_ptr = 8), EFAULT);
}

/*
 * What STATUS promises (ioctl.md): a bandwidth run's progress never falls,
 * across an ABORT too, and stays at its last value once the run ended; a
 * run reports an error only together with FAILED.  A child polls STATUS on
 * its own file while this process aborts, or takes a CPU away.
 */
static int poll_status(int *falls, int *err_running, __u64 *last_done)
{
	struct latt_status st;
	int fd = open_dev(), n = 0, after = 0;
	__u64 prev = 0;

	*falls = *err_running = 0;
	while (after < 50 && n < 2000000) {
		if (xioctl(fd, LATT_IOC_STATUS, &st))
			break;
		n++;
		if (st.samples_done < prev)
			(*falls)++;
		prev = st.samples_done;
		if (st.state == LATT_STATE_RUNNING && st.error)
			(*err_running)++;
		if (st.state != LATT_STATE_RUNNING) {
			if (after && st.samples_done != *last_done)
				(*falls)++;	/* not frozen */
			*last_done = st.samples_done;
			after++;
		}
	}
	close(fd);
	return n;
}

static void test_status_promises(int fd)
{
	struct latt_config c = vm_base_config();
	int falls, err_running, status, i, ok = 0;
	__u64 last = 0;
	__u32 two[2] = { 0, 1 };
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	pid_t pid;

	/*
	 * A region of many chunks: the run is freed before its state leaves
	 * RUNNING, and meanwhile the clock went on (what the old module
	 * reported, then took back)
	 */
	c.mode = LATT_MODE_BANDWIDTH;
	c.samples = 0;
	c.region = 256 << 20;
	c.duration_us = 20ULL * 1000000;
	for (i = 0; i < 3; i++) {
		if (xioctl(fd, LATT_IOC_START, &c)) {
			check(0, "bandwidth run for the progress check starts");
			return;
		}
		pid = fork();
		if (pid == 0) {
			int n = poll_status(&falls, &err_running, &last);

			_exit(n > 10 && !falls && !err_running ? 0 : 1);
		}
		usleep(200000);
		xioctl(fd, LATT_IOC_ABORT, NULL);
		waitpid(pid, &status, 0);
		ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	check(ok == 3, "bandwidth progress polled across an ABORT, 3 times: "
	      "never falls, frozen after the end, no error while RUNNING "
	      "(%d of 3)", ok);

	if (ncpu < 2) {
		skip("error with FAILED only: one CPU");
		return;
	}
	c = vm_base_config();
	c.samples = 1ULL << 36;
	c.window_us = LATT_MAX_WINDOW_US;	/* the other thread's stop: long */
	c.nr_threads = 2;
	c.cpus_ptr = (__u64)(unsigned long)two;
	if (xioctl(fd, LATT_IOC_START, &c)) {
		check(0, "two-thread run for the CPU-offline check starts");
		return;
	}
	pid = fork();
	if (pid == 0) {
		int n = poll_status(&falls, &err_running, &last);

		_exit(n > 10 && !err_running ? 0 : 1);
	}
	usleep(300000);
	if (vm_set_cpu_online(1, 0)) {
		xioctl(fd, LATT_IOC_ABORT, NULL);
		waitpid(pid, &status, 0);
		skip("error with FAILED only: cannot offline CPU 1");
		return;
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "CPU 1 offline under a run: no STATUS says RUNNING with an "
	      "error");
	check(state(fd) == LATT_STATE_FAILED, "... and the run is FAILED");
	check(vm_set_cpu_online(1, 1) == 0, "CPU 1 back online");
}

static void test_unknown_commands(int fd)
{
	char buf[512] = { 0 };

	check(xioctl(fd, _IO(LATT_IOC_MAGIC, 0x7f), buf) == -ENOTTY,
	      "unknown command number -> ENOTTY");
	check(xioctl(fd, _IOR('x', 0x00, struct latt_info), buf) == -ENOTTY,
	      "other magic -> ENOTTY");
	check(xioctl(fd, _IOR(LATT_IOC_MAGIC, 0x00, __u64), buf) == -ENOTTY,
	      "GET_INFO with a wrong size -> ENOTTY");
	/* ABI 2.0: nsfs's magic, ABI 1.x's, is no longer answered */
	check(xioctl(fd, LATT_IOC_GET_INFO_V1, buf) == -ENOTTY,
	      "ABI 1.x's GET_INFO (magic 0xb7) -> ENOTTY");
	check(xioctl(fd, _IO(LATT_IOC_MAGIC_V1, 0x03), buf) == -ENOTTY,
	      "_IO(0xb7, 3): 1.x's ABORT, nsfs's NS_GET_NSTYPE -> ENOTTY");
}

static void test_busy_abort(int fd)
{
	struct latt_config c = vm_base_config(), c2;
	struct latt_batch b;
	struct latt_windows w;
	struct latt_threads a;
	struct latt_result r;
	int fd2 = open_dev(), s;

	c.samples = 1ULL << 36;		/* runs until aborted */
	check(xioctl(fd, LATT_IOC_START, &c) == 0, "long run starts");
	check(state(fd) == LATT_STATE_RUNNING, "state is RUNNING");
	check(xioctl(fd2, LATT_IOC_START, &c) == -EBUSY,
	      "second START from another file -> EBUSY");
	check(xioctl(fd, LATT_IOC_START, &c) == -EBUSY,
	      "second START from the same file -> EBUSY");
	memset(&r, 0, sizeof(r));
	check(xioctl(fd, LATT_IOC_RESULT, &r) == -EBUSY,
	      "RESULT while running -> EBUSY");
	memset(&a, 0, sizeof(a));
	check(xioctl(fd, LATT_IOC_THREADS, &a) == -EBUSY,
	      "THREADS while running -> EBUSY");
	memset(&b, 0, sizeof(b));
	check(xioctl(fd, LATT_IOC_BATCH, &b) == -EBUSY,
	      "BATCH while running -> EBUSY");
	memset(&w, 0, sizeof(w));
	check(xioctl(fd, LATT_IOC_WINDOWS, &w) == -EBUSY,
	      "WINDOWS while running -> EBUSY");
	/* ABI 2.7: the largest batches pass every check (EBUSY answers) */
	c2 = c;
	c2.batch = LATT_MAX_BATCH;
	c2.batch_pairs = LATT_MAX_BATCH_PAIRS;
	c2.size = LATT_MAX_SIZE / LATT_MAX_BATCH;
	c2.region = 128ULL * LATT_MAX_BATCH * c2.size;	/* 128 K blocks */
	check(xioctl(fd2, LATT_IOC_START, &c2) == -EBUSY,
	      "START of K 1024 x 4 KiB, 2^20 pairs while running -> EBUSY");
	c2 = c;
	c2.pattern = LATT_PAT_CHASE;
	c2.chain = LATT_MAX_CHAIN;
	c2.batch = 16;
	c2.batch_pairs = LATT_MIN_BATCH_PAIRS;
	check(xioctl(fd2, LATT_IOC_START, &c2) == -EBUSY,
	      "START of a chase's K 16 x chain 4096 while running -> EBUSY");
	usleep(200000);
	check(xioctl(fd2, LATT_IOC_ABORT, NULL) == 0, "ABORT from another file");
	s = state(fd);
	check(s == LATT_STATE_ABORTED, "state is ABORTED (got %d)", s);
	memset(&r, 0, sizeof(r));
	s = xioctl(fd, LATT_IOC_RESULT, &r);	/* before the message's args */
	check(s == 0 &&
	      r.state == LATT_STATE_ABORTED && r.count < c.samples,
	      "RESULT after abort: partial (%llu samples)",
	      (unsigned long long)r.count);
	/*
	 * stopped in its samples: no calibration after them, or a real one;
	 * a step wherever samples were taken (it is measured before them)
	 */
	check(s == 0 && r.overhead_end <= GARBAGE &&
	      (r.timer_step > 0 || !r.count) && r.timer_step <= GARBAGE &&
	      r.count + r.backwards < c.samples,
	      "RESULT after abort (ABI 1.3): overhead_end %llu, timer_step "
	      "%llu, %llu backwards: no garbage",
	      (unsigned long long)r.overhead_end,
	      (unsigned long long)r.timer_step,
	      (unsigned long long)r.backwards);
	r.hist_ptr = 8;
	r.hist_len = LATT_HIST_BUCKETS;
	check(xioctl(fd, LATT_IOC_RESULT, &r) == -EFAULT,
	      "RESULT into an unmapped buffer -> EFAULT");
	/* ABI 2.5: RESULT has no reserved field left; what a client puts in
	 * overhead_idle is overwritten, as every output field is */
	memset(&r, 0, sizeof(r));
	r.overhead_idle = ~0ULL;
	check(!xioctl(fd, LATT_IOC_RESULT, &r) && r.overhead &&
	      r.overhead_idle == r.overhead,
	      "RESULT overwrites overhead_idle: a latency run's is its "
	      "overhead (%llu, %llu)", (unsigned long long)r.overhead_idle,
	      (unsigned long long)r.overhead);
	close(fd2);
}

/* Before any run (this program runs first in a fresh module): ENOENT. */
static void test_threads_fresh(int fd)
{
	struct latt_batch b;
	struct latt_windows w;
	struct latt_threads a;
	struct latt_result r;

	memset(&r, 0, sizeof(r));
	if (xioctl(fd, LATT_IOC_RESULT, &r) != -ENOENT) {
		skip("THREADS before any run: the module holds a run already");
		return;
	}
	memset(&a, 0, sizeof(a));
	check(xioctl(fd, LATT_IOC_THREADS, &a) == -ENOENT,
	      "THREADS before any run -> ENOENT");
	memset(&b, 0, sizeof(b));
	check(xioctl(fd, LATT_IOC_BATCH, &b) == -ENOENT,
	      "BATCH before any run -> ENOENT");
	memset(&w, 0, sizeof(w));
	check(xioctl(fd, LATT_IOC_WINDOWS, &w) == -ENOENT,
	      "WINDOWS before any run -> ENOENT");
}

/* LATT_IOC_THREADS once a (one-thread) run is held. */
static void test_threads(int fd)
{
	struct latt_thread_stats st[2];
	struct latt_threads a;
	struct latt_result r;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(a.reserved); i++) {
		memset(&a, 0, sizeof(a));
		a.reserved[i] = 1;
		ret = xioctl(fd, LATT_IOC_THREADS, &a);
		check(ret == -EINVAL, "THREADS with reserved[%u] set -> EINVAL "
		      "(got %s)", i, ret ? strerrorname_np(-ret) : "0");
	}
	check(xioctl(fd, LATT_IOC_THREADS, (void *)8) == -EFAULT,
	      "THREADS with a bad pointer -> EFAULT");
	memset(&a, 0, sizeof(a));
	a.stats_ptr = 8;
	a.len = 1;
	check(xioctl(fd, LATT_IOC_THREADS, &a) == -EFAULT,
	      "THREADS with a bad stats_ptr -> EFAULT");
	memset(&a, 0, sizeof(a));
	a.hist_ptr = 8;
	a.len = 1;
	check(xioctl(fd, LATT_IOC_THREADS, &a) == -EFAULT,
	      "THREADS with a bad hist_ptr -> EFAULT");
	memset(&a, 0, sizeof(a));
	a.stats_ptr = 8;
	a.hist_ptr = 8;
	ret = xioctl(fd, LATT_IOC_THREADS, &a);
	check(ret == 0 && a.len == 1, "THREADS with len 0: nothing copied, "
	      "bad pointers untouched; len says 1 thread (got %s, len %u)",
	      ret ? strerrorname_np(-ret) : "0", a.len);
	memset(&a, 0, sizeof(a));
	memset(st, 0xa5, sizeof(st));
	a.stats_ptr = (__u64)(unsigned long)st;
	a.len = 2;
	memset(&r, 0, sizeof(r));
	ret = xioctl(fd, LATT_IOC_THREADS, &a) ||
	      xioctl(fd, LATT_IOC_RESULT, &r);
	check(!ret && a.len == 1 && !a.series_len && st[0].count == r.count &&
	      st[0].role == LATT_ROLE_LATENCY && st[1].cpu == 0xa5a5a5a5,
	      "THREADS of a one-thread run: len 1, its count %llu is "
	      "RESULT's %llu, the second record untouched",
	      (unsigned long long)st[0].count, (unsigned long long)r.count);
}

/* START_TRAFFIC of @c and @t: its errno (a run that started is waited for) */
static int traffic_errno(int fd, struct latt_config c, struct latt_traffic t)
{
	int ret;

	t.config_ptr = (__u64)(unsigned long)&c;
	ret = xioctl(fd, LATT_IOC_START_TRAFFIC, &t);
	if (!ret)
		wait_done(fd);
	return ret;
}

/* START_TRAFFIC of @c and @t changed by @set (on u, a copy): -@err */
#define EXPECT_TRAFFIC(fd, c, t, set, err, what) do {			\
	struct latt_traffic u = (t);					\
	int r_;								\
									\
	set;								\
	r_ = traffic_errno(fd, c, u);					\
	check(r_ == -(err), what " -> " #err " (%s)",			\
	      r_ ? strerrorname_np(-r_) : "0");				\
} while (0)

/*
 * ABI 2.9, LATT_IOC_START_TRAFFIC: the traffic target's fields refused as
 * documented, the configuration's as START refuses them; a loaded run on
 * CPUs 0 and 1 whose traffic streams on node 1's DRAM (the probe on node
 * 0's) ends done, with the probe over its region and the traffic over the
 * traffic's own, as THREADS says; with --split the traffic's part is the
 * traffic region's, not the probe's.  The probe's region is kept
 * (LATT_CFG_REUSE) and taken by the next START_TRAFFIC; the traffic's
 * never is.
 */
static void test_traffic(int fd)
{
	struct latt_config c = vm_base_config(), b;
	struct latt_thread_stats st[2];
	struct latt_threads a;
	struct latt_traffic t, u;
	struct latt_result r;
	__u32 cpus[2] = { 0, 1 };
	int ret, s;

	CHECK_FEATURE(fd, LATT_FEAT_TRAFFIC);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		skip("START_TRAFFIC: one CPU online, a loaded run needs two");
		return;
	}
	c.mode = LATT_MODE_LOADED;
	c.nr_threads = 2;
	c.cpus_ptr = (__u64)(unsigned long)cpus;
	c.node = 0;
	c.region = 8 << 20;
	memset(&t, 0, sizeof(t));
	t.target = LATT_TARGET_DRAM;
	t.node = 1;
	t.region = 4 << 20;

	check(xioctl(fd, LATT_IOC_START_TRAFFIC, (void *)8) == -EFAULT,
	      "START_TRAFFIC with a bad pointer -> EFAULT");
	u = t;
	u.config_ptr = 8;
	ret = xioctl(fd, LATT_IOC_START_TRAFFIC, &u);
	check(ret == -EFAULT, "START_TRAFFIC with a bad config_ptr -> EFAULT (%s)",
	      ret ? strerrorname_np(-ret) : "0");
	EXPECT_TRAFFIC(fd, c, t, u.reserved0 = 1, EINVAL, "reserved0 set");
	EXPECT_TRAFFIC(fd, c, t, u.reserved[0] = 1, EINVAL, "reserved[0] set");
	EXPECT_TRAFFIC(fd, c, t, u.reserved[1] = 1, EINVAL, "reserved[1] set");
	b = c;
	b.mode = LATT_MODE_LATENCY;
	b.nr_threads = 0;
	b.cpus_ptr = 0;
	EXPECT_TRAFFIC(fd, b, t, (void)0, EINVAL, "a latency run");
	EXPECT_TRAFFIC(fd, c, t, u.region = 0, EINVAL, "no region");
	EXPECT_TRAFFIC(fd, c, t, u.fd = 3, EINVAL, "DRAM with an fd");
	EXPECT_TRAFFIC(fd, c, t, u.target = 9, EINVAL, "an unknown target");
	EXPECT_TRAFFIC(fd, c, t, u.node = 4096, EINVAL, "node 4096");
	b = c;
	b.mix_read = 1;
	b.mix_write = 1;
	EXPECT_TRAFFIC(fd, b, t, u.target = LATT_TARGET_PMEM, EPERM,
		       "PMEM traffic with --mix writes, no LATT_CFG_FORCE");
	b = c;
	b.flags = LATT_CFG_SPLIT;
	b.size = 128;
	EXPECT_TRAFFIC(fd, b, t, u.region = 64, EINVAL,
		       "a traffic region below --size");

	/* a run: the probe on node 0's 8 MiB, the traffic on node 1's 4 */
	t.config_ptr = (__u64)(unsigned long)&c;
	c.flags = LATT_CFG_REUSE;
	ret = xioctl(fd, LATT_IOC_START_TRAFFIC, &t);
	s = ret ? -1 : wait_done(fd);
	memset(&a, 0, sizeof(a));
	memset(st, 0, sizeof(st));
	a.stats_ptr = (__u64)(unsigned long)st;
	a.len = 2;
	memset(&r, 0, sizeof(r));
	ret = ret ?: xioctl(fd, LATT_IOC_THREADS, &a) ?:
	      xioctl(fd, LATT_IOC_RESULT, &r);
	check(!ret && s == LATT_STATE_DONE && a.len == 2 &&
	      st[0].role == LATT_ROLE_LATENCY && st[0].part_bytes == 8 << 20 &&
	      st[0].count == c.samples && st[1].role == LATT_ROLE_STREAM &&
	      st[1].part_bytes == 4 << 20 && st[1].part_offset == 0 &&
	      st[1].accesses > 0 && st[1].bytes_read == 64 * st[1].accesses &&
	      r.config.node == 0,
	      "START_TRAFFIC: done (%d), the probe over its 8 MiB (%llu), the traffic over its own 4 MiB (%llu), %llu accesses of 64 B (%s)",
	      s, (unsigned long long)st[0].part_bytes,
	      (unsigned long long)st[1].part_bytes,
	      (unsigned long long)st[1].accesses,
	      ret ? strerrorname_np(-ret) : "0");
	/* again: the probe's region kept and taken, the traffic's made anew */
	ret = xioctl(fd, LATT_IOC_START_TRAFFIC, &t);
	s = ret ? -1 : wait_done(fd);
	memset(&r, 0, sizeof(r));
	ret = ret ?: xioctl(fd, LATT_IOC_RESULT, &r);
	check(!ret && s == LATT_STATE_DONE && (r.flags & LATT_RES_REUSED),
	      "START_TRAFFIC again with LATT_CFG_REUSE: done, the probe's region reused (flags %#x, %s)",
	      r.flags, ret ? strerrorname_np(-ret) : "0");
	/* a split: the part is the traffic's, cut among the traffic alone */
	c.flags = LATT_CFG_SPLIT;
	ret = xioctl(fd, LATT_IOC_START_TRAFFIC, &t);
	s = ret ? -1 : wait_done(fd);
	memset(st, 0, sizeof(st));
	a.len = 2;
	ret = ret ?: xioctl(fd, LATT_IOC_THREADS, &a);
	check(!ret && s == LATT_STATE_DONE && st[0].part_bytes == 8 << 20 &&
	      st[1].part_bytes == 4 << 20,
	      "START_TRAFFIC with LATT_CFG_SPLIT: the probe over 8 MiB, one traffic thread over all 4 of its own (%llu, %llu)",
	      (unsigned long long)st[0].part_bytes,
	      (unsigned long long)st[1].part_bytes);
}

static void test_close_aborts(void)
{
	struct latt_config c = vm_base_config();
	int fd = open_dev(), fd2 = open_dev(), s;

	c.samples = 1ULL << 36;
	check(xioctl(fd, LATT_IOC_START, &c) == 0, "long run starts again");
	usleep(100000);
	close(fd);
	s = state(fd2);
	check(s == LATT_STATE_ABORTED, "closing the starter's file aborts (%d)",
	      s);
	close(fd2);
}

static void test_non_root(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(3);
		fd = open(dev, O_RDWR);
		_exit(fd < 0 && (errno == EACCES || errno == EPERM) ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "open as uid 65534 refused");
}

static void test_normal_run(int fd)
{
	static __u64 hist[LATT_HIST_BUCKETS];
	struct latt_config c = vm_base_config();
	struct latt_result r;
	__u64 sum = 0;
	unsigned int i;
	int s;

	c.threshold = 1;	/* most samples are outliers ... */
	c.max_outliers = 0;	/* ... and none fits the buffer */
	check(xioctl(fd, LATT_IOC_START, &c) == 0, "normal run starts");
	s = wait_done(fd);
	check(s == LATT_STATE_DONE, "normal run is DONE (%d)", s);
	memset(&r, 0, sizeof(r));
	r.hist_ptr = (__u64)(unsigned long)hist;
	r.hist_len = LATT_HIST_BUCKETS;
	check(xioctl(fd, LATT_IOC_RESULT, &r) == 0, "RESULT");
	for (i = 0; i < LATT_HIST_BUCKETS; i++)
		sum += hist[i];
	check(r.count == c.samples && sum == c.samples,
	      "count %llu and histogram sum %llu equal samples",
	      (unsigned long long)r.count, (unsigned long long)sum);
	check(r.outliers_dropped == r.outliers && r.outlier_len == 0,
	      "outliers past the buffer are counted as dropped");
	check(r.min <= r.max && r.overhead_min <= r.overhead &&
	      r.overhead <= r.overhead_max, "min <= max, overhead ordered");
	check(r.config.fence == LATT_FENCE_NONE && r.config.chain == 1 &&
	      r.config.node != LATT_NODE_LOCAL && r.config.window_us,
	      "defaults resolved in the returned config");
}

static int page_size_ok(__u64 b)
{
	return b == 4096 || b == 2ULL << 20 || b == 1ULL << 30;
}

/*
 * One DRAM run of @c to its end: START, DONE, RESULT with the histogram.
 * 0, or -1 after a failed check of its own.
 */
static int timer_run(int fd, struct latt_config *c, struct latt_result *r,
		     const char *what)
{
	static __u64 hist[LATT_HIST_BUCKETS];
	__u64 sum = 0;
	unsigned int i;
	int ret, s;

	ret = xioctl(fd, LATT_IOC_START, c);
	s = ret ? -1 : wait_done(fd);
	memset(hist, 0, sizeof(hist));
	memset(r, 0, sizeof(*r));
	r->hist_ptr = (__u64)(unsigned long)hist;
	r->hist_len = LATT_HIST_BUCKETS;
	if (!ret && s == LATT_STATE_DONE)
		ret = xioctl(fd, LATT_IOC_RESULT, r);
	check(!ret && s == LATT_STATE_DONE, "%s: DONE (START/RESULT %s, "
	      "state %d)", what, ret ? strerrorname_np(-ret) : "0", s);
	if (ret || s != LATT_STATE_DONE)
		return -1;
	for (i = 0; i < LATT_HIST_BUCKETS; i++)
		sum += hist[i];
	/* a completed run: every sample counted, none went backwards */
	check(r->count == c->samples && !r->backwards && sum == r->count,
	      "%s: count %llu == samples %llu, %llu backwards, histogram "
	      "sum %llu", what, (unsigned long long)r->count,
	      (unsigned long long)c->samples,
	      (unsigned long long)r->backwards, (unsigned long long)sum);
	check(r->timer_step > 0 && r->timer_step <= GARBAGE &&
	      r->overhead_end > 0 && r->overhead_end <= GARBAGE,
	      "%s: timer step %llu, overhead after the samples %llu (before "
	      "%llu): measured", what, (unsigned long long)r->timer_step,
	      (unsigned long long)r->overhead_end,
	      (unsigned long long)r->overhead);
	check(page_size_ok(r->page_size), "%s: DRAM mapped by a page of "
	      "%llu bytes (4 KiB, 2 MiB or 1 GiB)", what,
	      (unsigned long long)r->page_size);
	return 0;
}

/*
 * ABI 1.3: the timer (rdtscp, or lfence; rdtsc when asked with
 * LATT_CFG_RDTSC or where the CPU lacks rdtscp), the figures RESULT gained
 * (timer_step, overhead_end, backwards, page_size), mfence as every store
 * op's default fence.  Only paths and invariants: TCG's timings are
 * emulator artifacts.
 */
static void test_timer(int fd)
{
	static const __u32 stores[] = { LATT_OP_STORE, LATT_OP_STORE_CLWB,
		LATT_OP_STORE_CLFLUSHOPT, LATT_OP_STORE_CLFLUSH,
		LATT_OP_NT_STORE };
	struct latt_config c;
	struct latt_result r;
	struct latt_info info;
	int rdtscp = cpuinfo_has("rdtscp"), fallback, ret;
	unsigned int i;
	char what[96];

	memset(&info, 0, sizeof(info));
	ret = xioctl(fd, LATT_IOC_GET_INFO, &info);
	check(!ret && rdtscp >= 0 &&
	      !(info.features & LATT_FEAT_RDTSCP) == !rdtscp &&
	      (info.features & LATT_FEAT_TIMER_RDTSC),
	      "GET_INFO: LATT_FEAT_RDTSCP %s as /proc/cpuinfo %s rdtscp; "
	      "LATT_FEAT_TIMER_RDTSC set (features %#llx)",
	      info.features & LATT_FEAT_RDTSCP ? "set" : "clear",
	      rdtscp > 0 ? "has" : rdtscp ? "can't tell of" : "lacks",
	      (unsigned long long)info.features);
	/* without rdtscp the module falls back by itself */
	fallback = !(info.features & LATT_FEAT_RDTSCP);
	/*
	 * ABI 2.4: "lfence; rdtsc" only where LFENCE serializes (pick.h);
	 * TCG's AuthenticAMD CPU shows neither CPUID 0x80000021 EAX[2] nor
	 * DE_CFG bit 1, its GenuineIntel one does (cases-nordtscp): each
	 * side is tested where it is the CPU's
	 */
	if (!(info.features & LATT_FEAT_LFENCE_SERIAL)) {
		c = vm_base_config();
		c.flags = LATT_CFG_RDTSC;
		ret = start_errno(fd, c);
		check(ret == -EOPNOTSUPP, "LATT_CFG_RDTSC without "
		      "LATT_FEAT_LFENCE_SERIAL -> EOPNOTSUPP (%d)", ret);
		c.flags = 0;
		ret = start_errno(fd, c);
		if (fallback)
			check(ret == -EOPNOTSUPP, "no rdtscp and no "
			      "serializing LFENCE -> EOPNOTSUPP (%d)", ret);
		else
			check(!ret && wait_done(fd) == LATT_STATE_DONE,
			      "rdtscp needs no serializing LFENCE: runs (%d)",
			      ret);
		return;
	}

	c = vm_base_config();
	if (!timer_run(fd, &c, &r, "load, default timer"))
		check(!(r.flags & LATT_RES_TIMER_RDTSC) == !fallback &&
		      !(r.config.flags & LATT_CFG_RDTSC),
		      "load, default timer: %s (flags %#x)", fallback ?
		      "lfence; rdtsc, the CPU lacking rdtscp" : "rdtscp",
		      r.flags);
	/* TSC_UNSTABLE is the kernel's verdict, which never goes back */
	memset(&info, 0, sizeof(info));
	ret = xioctl(fd, LATT_IOC_GET_INFO, &info);
	check(!ret && (!(r.flags & LATT_RES_TSC_UNSTABLE) ||
		       !(info.features & LATT_FEAT_TSC_STABLE)),
	      "RESULT's TSC_UNSTABLE (%s) and GET_INFO's TSC_STABLE (%s) "
	      "agree", r.flags & LATT_RES_TSC_UNSTABLE ? "set" : "clear",
	      info.features & LATT_FEAT_TSC_STABLE ? "set" : "clear");

	c = vm_base_config();
	c.flags = LATT_CFG_RDTSC;
	if (!timer_run(fd, &c, &r, "load, LATT_CFG_RDTSC"))
		check((r.flags & LATT_RES_TIMER_RDTSC) &&
		      (r.config.flags & LATT_CFG_RDTSC),
		      "load, LATT_CFG_RDTSC: timed with lfence; rdtsc (flags "
		      "%#x, config flags %#x)", r.flags, r.config.flags);

	c = vm_base_config();
	c.flags = LATT_CFG_RDTSC;
	c.pattern = LATT_PAT_CHASE;
	c.chain = 4;
	c.stride = 4096;	/* a TLB-locality block */
	if (!timer_run(fd, &c, &r, "chase in 4 KiB blocks, LATT_CFG_RDTSC"))
		check((r.flags & LATT_RES_TIMER_RDTSC) &&
		      r.config.stride == 4096, "chase in 4 KiB blocks, "
		      "LATT_CFG_RDTSC: timed with lfence; rdtsc (flags %#x), "
		      "block %llu", r.flags,
		      (unsigned long long)r.config.stride);

	c = vm_base_config();
	c.op = LATT_OP_NT_STORE;
	c.flags = LATT_CFG_RDTSC | LATT_CFG_WARM;
	c.width = 16;
	if (!timer_run(fd, &c, &r, "nt-store of 16 bytes, warm, "
		       "LATT_CFG_RDTSC"))
		check((r.flags & LATT_RES_TIMER_RDTSC) &&
		      (r.flags & LATT_RES_VECTOR),
		      "nt-store of 16 bytes, LATT_CFG_RDTSC: lfence; rdtsc in "
		      "a vector section (flags %#x)", r.flags);

	/* every store op's default fence is mfence since ABI 1.3 */
	for (i = 0; i < ARRAY_SIZE(stores); i++) {
		c = vm_base_config();
		c.op = stores[i];
		c.samples = 200;
		snprintf(what, sizeof(what), "op %u, default fence", c.op);
		ret = xioctl(fd, LATT_IOC_START, &c);
		if (ret == -EOPNOTSUPP) {
			skip("%s: the CPU lacks the op's instruction", what);
			continue;
		}
		if (!ret)
			wait_done(fd);
		memset(&r, 0, sizeof(r));
		if (!ret)
			ret = xioctl(fd, LATT_IOC_RESULT, &r);
		check(!ret && r.config.fence == LATT_FENCE_MFENCE,
		      "%s: RESULT.config.fence is MFENCE (got %u, %s)", what,
		      r.config.fence, ret ? strerrorname_np(-ret) : "0");
	}
	c = vm_base_config();
	c.op = LATT_OP_STORE;
	c.fence = LATT_FENCE_SFENCE;
	c.samples = 200;
	ret = xioctl(fd, LATT_IOC_START, &c);
	if (!ret)
		wait_done(fd);
	memset(&r, 0, sizeof(r));
	if (!ret)
		ret = xioctl(fd, LATT_IOC_RESULT, &r);
	check(!ret && r.config.fence == LATT_FENCE_SFENCE,
	      "store with SFENCE asked: RESULT.config.fence stays SFENCE "
	      "(got %u)", r.config.fence);
	c = vm_base_config();
	c.op = LATT_OP_NT_LOAD;
	c.samples = 200;
	ret = xioctl(fd, LATT_IOC_START, &c);
	if (ret == -EOPNOTSUPP) {
		skip("nt-load, default fence: the CPU lacks SSE4.1");
	} else {
		if (!ret)
			wait_done(fd);
		memset(&r, 0, sizeof(r));
		if (!ret)
			ret = xioctl(fd, LATT_IOC_RESULT, &r);
		check(!ret && r.config.fence == LATT_FENCE_NONE,
		      "nt-load, default fence: RESULT.config.fence is NONE "
		      "(got %u)", r.config.fence);
	}
}

/* LATT_IOC_BATCH into @b, the pairs into @p (@len of them, or none) */
static int get_batch(int fd, struct latt_batch *b, struct latt_batch_pair *p,
		     __u32 len)
{
	memset(b, 0, sizeof(*b));
	b->pairs_ptr = (__u64)(unsigned long)p;
	b->len = len;
	return xioctl(fd, LATT_IOC_BATCH, b);
}

/*
 * ABI 2.7: a run of @c with batches to its end, then LATT_IOC_BATCH: K as
 * asked, every pair recorded (none backwards: one CPU's TSC), in a buffer
 * of exactly that many and no further, each batch's cycles measured (not
 * 0, not saturated); fewer asked for, fewer copied; the samples as
 * without batches.  Paths and invariants only: TCG's timings are the
 * emulator's.
 */
static void batch_run(int fd, struct latt_config c, const char *what)
{
	const __u32 P = c.batch_pairs;
	struct latt_batch_pair *p = calloc(P + 1, sizeof(*p));
	struct latt_result r;
	struct latt_batch b, b2;
	unsigned int i, bad = 0;
	int ret, s;

	if (!p) {
		check(0, "%s: memory for %u pairs", what, P);
		return;
	}
	ret = xioctl(fd, LATT_IOC_START, &c);
	if (ret == -EOPNOTSUPP) {
		skip("%s: the CPU lacks the op's instruction or the timer",
		     what);
		free(p);
		return;
	}
	s = ret ? -1 : wait_done(fd);
	memset(p, 0xa5, (P + 1) * sizeof(*p));
	memset(&r, 0, sizeof(r));
	if (!ret && s == LATT_STATE_DONE)
		ret = get_batch(fd, &b, p, P + 1);
	if (!ret && s == LATT_STATE_DONE)
		ret = xioctl(fd, LATT_IOC_RESULT, &r);
	check(!ret && s == LATT_STATE_DONE, "%s: DONE (START/BATCH/RESULT "
	      "%s, state %d)", what, ret ? strerrorname_np(-ret) : "0", s);
	if (ret || s != LATT_STATE_DONE) {
		free(p);
		return;
	}
	for (i = 0; i < P; i++)
		if (!p[i].k || !p[i].k2 || p[i].k == LATT_BATCH_SAT ||
		    p[i].k2 == LATT_BATCH_SAT)
			bad++;
	check(b.batch == c.batch && b.pairs == P && b.len == P &&
	      !b.backwards && b.pairs_ptr == (__u64)(unsigned long)p &&
	      !b.reserved[0] && !b.reserved[1] && !b.reserved[2] &&
	      !b.reserved[3] && p[P].k == 0xa5a5a5a5,
	      "%s: BATCH says K %u, %llu pairs of %u asked, %llu backwards; "
	      "%u copied into room for %u, none past them", what, b.batch,
	      (unsigned long long)b.pairs, P, (unsigned long long)b.backwards,
	      b.len, P + 1);
	check(!bad, "%s: every pair's two batches measured: %u pairs with "
	      "0 or saturated cycles (the first: K %u, 2K %u)", what, bad,
	      p[0].k, p[0].k2);
	ret = get_batch(fd, &b2, p, 10);
	check(!ret && b2.len == 10 && b2.pairs == P && b2.batch == c.batch,
	      "%s: BATCH with room for 10 pairs copies 10 (%u), counts %llu",
	      what, b2.len, (unsigned long long)b2.pairs);
	ret = get_batch(fd, &b2, NULL, P);
	check(!ret && !b2.len && b2.pairs == P && b2.batch == c.batch,
	      "%s: BATCH without a buffer: the counts only (len %u, %llu "
	      "pairs)", what, b2.len, (unsigned long long)b2.pairs);
	check(r.count == c.samples && !r.backwards && r.overhead_end &&
	      r.config.batch == c.batch && r.config.batch_pairs == P,
	      "%s: the samples as without batches (%llu of %llu, overhead "
	      "after them %llu), config as asked; vector %s", what,
	      (unsigned long long)r.count, (unsigned long long)c.samples,
	      (unsigned long long)r.overhead_end,
	      r.flags & LATT_RES_VECTOR ? "yes" : "no");
	free(p);
}

/*
 * A stop in the batches ends the run within a window: a run of many pairs
 * is aborted once its samples are done and its batch windows go on (STATUS:
 * every sample taken, windows still counting); the pairs taken stay
 * readable, and the samples stand.
 */
static void test_batch_abort(int fd)
{
	struct latt_config c = vm_base_config();
	struct latt_status st;
	struct latt_result r;
	struct latt_batch b;
	struct timespec t0, t1;
	__u64 w = 0;
	int i, s, ret;
	double ms;

	c.samples = 200;
	c.batch = 64;
	c.batch_pairs = LATT_MAX_BATCH_PAIRS;
	ret = xioctl(fd, LATT_IOC_START, &c);
	if (ret == -EOPNOTSUPP) {
		skip("ABORT in the batches: the CPU lacks the timer");
		return;
	}
	if (ret) {
		check(0, "batch run to abort starts (%s)",
		      strerrorname_np(-ret));
		return;
	}
	for (i = 0; i < 2000; i++) {
		if (xioctl(fd, LATT_IOC_STATUS, &st) ||
		    st.state != LATT_STATE_RUNNING)
			break;
		if (st.samples_done == c.samples && !w)
			w = st.windows;
		if (w && st.windows >= w + 3)
			break;
		usleep(5000);
	}
	check(st.state == LATT_STATE_RUNNING && w && st.windows >= w + 3,
	      "batch run: samples done (%llu of %llu), windows go on (%llu, "
	      "%llu at the samples' end): in its batches",
	      (unsigned long long)st.samples_done,
	      (unsigned long long)st.samples_total,
	      (unsigned long long)st.windows, (unsigned long long)w);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = xioctl(fd, LATT_IOC_ABORT, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	s = state(fd);
	check(!ret && s == LATT_STATE_ABORTED && ms < 2000,
	      "ABORT in the batches: ABORTED (%d) in %.1f ms", s, ms);
	memset(&r, 0, sizeof(r));
	ret = get_batch(fd, &b, NULL, 0);
	if (!ret)
		ret = xioctl(fd, LATT_IOC_RESULT, &r);
	check(!ret && b.batch == c.batch && b.pairs &&
	      b.pairs + b.backwards < c.batch_pairs && r.count == c.samples &&
	      r.state == LATT_STATE_ABORTED,
	      "aborted batch run: %llu pairs kept (K %u), its %llu samples "
	      "stand (%s)", (unsigned long long)b.pairs, b.batch,
	      (unsigned long long)r.count, ret ? strerrorname_np(-ret) : "0");
}

/*
 * ABI 2.8, LATT_IOC_WINDOWS: reserved fields refused; a run without a
 * threshold keeps nothing; a run whose every sample is an outlier keeps
 * one evidence record for each window that holds records, thread after
 * thread in window order, whose outlier counts add up to the records of
 * that window and whose sources say interrupts were off and NMIs and
 * gaps looked for; a bad pointer faults.  Paths and invariants only:
 * TCG's timings are emulator artifacts.
 */
static void test_windows(int fd)
{
	static struct latt_outlier rec[512];
	static struct latt_wev wev[512];
	struct latt_config c = vm_base_config();
	struct latt_windows w;
	struct latt_result r;
	unsigned int i, j, bad = 0;
	int ret, s;

	CHECK_FEATURE(fd, LATT_FEAT_WINDOWS);
	for (i = 0; i < ARRAY_SIZE(w.reserved); i++) {
		memset(&w, 0, sizeof(w));
		w.reserved[i] = 1;
		ret = xioctl(fd, LATT_IOC_WINDOWS, &w);
		check(ret == -EINVAL, "WINDOWS with reserved[%u] set -> EINVAL "
		      "(got %s)", i, ret ? strerrorname_np(-ret) : "0");
	}
	/* the run before (no threshold): nothing kept */
	memset(&w, 0, sizeof(w));
	w.wev_ptr = (__u64)(unsigned long)wev;
	w.len = ARRAY_SIZE(wev);
	ret = xioctl(fd, LATT_IOC_WINDOWS, &w);
	check(!ret && !w.kept && !w.len,
	      "WINDOWS of a run without a threshold: %llu kept, %u copied (%s)",
	      (unsigned long long)w.kept, w.len,
	      ret ? strerrorname_np(-ret) : "0");

	c.samples = 20000;
	c.threshold = 1;		/* (nearly) every sample an outlier */
	c.max_outliers = ARRAY_SIZE(rec);
	c.window_us = 100;
	ret = xioctl(fd, LATT_IOC_START, &c);
	s = ret ? -1 : wait_done(fd);
	memset(&r, 0, sizeof(r));
	r.outlier_ptr = (__u64)(unsigned long)rec;
	r.outlier_len = ARRAY_SIZE(rec);
	if (!ret && s == LATT_STATE_DONE)
		ret = xioctl(fd, LATT_IOC_RESULT, &r);
	check(!ret && s == LATT_STATE_DONE && r.outlier_len > 0,
	      "a run of outliers: DONE, %u records (%s)", r.outlier_len,
	      ret ? strerrorname_np(-ret) : "0");
	memset(&w, 0, sizeof(w));
	w.wev_ptr = (__u64)(unsigned long)wev;
	w.len = ARRAY_SIZE(wev);
	ret = xioctl(fd, LATT_IOC_WINDOWS, &w);
	check(!ret && w.kept == w.len && w.len > 0 && w.len <= r.outlier_len,
	      "WINDOWS: %u records of evidence, all copied, at most one a record (%u)",
	      w.len, r.outlier_len);
	check((w.sources & (LATT_EVS_NMI | LATT_EVS_GAP | LATT_EVS_IRQ_OFF)) ==
	      (LATT_EVS_NMI | LATT_EVS_GAP | LATT_EVS_IRQ_OFF) &&
	      !(w.sources & ~LATT_EVS_ALL),
	      "WINDOWS: sources %#x: NMIs, gaps, interrupts off", w.sources);
	/* each record's window has its evidence, in order, counts adding up */
	for (i = 0, j = 0; i < r.outlier_len && !ret; i++) {
		while (j < w.len && (wev[j].cpu != rec[i].cpu ||
				     wev[j].window < rec[i].window))
			j++;
		if (j == w.len || wev[j].window != rec[i].window) {
			bad++;
			continue;
		}
		if (i + 1 == r.outlier_len || rec[i + 1].window != rec[i].window) {
			unsigned int k, n = 0;

			for (k = 0; k < r.outlier_len; k++)
				n += rec[k].window == rec[i].window &&
				     rec[k].cpu == rec[i].cpu;
			bad += wev[j].outliers != n;
		}
	}
	for (j = 0; j < w.len; j++)
		bad += wev[j].sources != w.sources || wev[j].reserved ||
		       (j && wev[j].window <= wev[j - 1].window &&
			wev[j].cpu == wev[j - 1].cpu) ||
		       wev[j].ev[LATT_EV_PREEMPTED] || wev[j].ev[LATT_EV_IRQ_TIMER] ||
		       wev[j].ev[LATT_EV_SOFTIRQ] || wev[j].ev[LATT_EV_FAULT];
	check(!bad, "WINDOWS: every record's window there, in order, its outlier count right, no interrupt, switch or fault in a window (%u bad)",
	      bad);
	memset(&w, 0, sizeof(w));
	ret = xioctl(fd, LATT_IOC_WINDOWS, &w);
	check(!ret && !w.len && w.kept > 0,
	      "WINDOWS without a buffer: the counts only (%llu kept)",
	      (unsigned long long)w.kept);
	w.wev_ptr = 8;
	w.len = 1;
	check(xioctl(fd, LATT_IOC_WINDOWS, &w) == -EFAULT,
	      "WINDOWS into a bad wev_ptr -> EFAULT");
	check(xioctl(fd, LATT_IOC_WINDOWS, (void *)8) == -EFAULT,
	      "WINDOWS with a bad pointer -> EFAULT");
}

/*
 * ABI 2.7, LATT_IOC_BATCH: reserved fields refused; a run without batches
 * says batch 0 and no pairs; bad pointers fault; runs with batches of
 * loads (at the widest width: a vector one under TCG), of warmed
 * store-clwbs and of a chase record every pair; a stop in the batches is
 * prompt.
 */
static void test_batch(int fd)
{
	struct latt_batch_pair p[4];
	struct latt_config c;
	struct latt_batch b;
	unsigned int i;
	int ret;

	CHECK_FEATURE(fd, LATT_FEAT_BATCH);
	for (i = 0; i < ARRAY_SIZE(b.reserved); i++) {
		memset(&b, 0, sizeof(b));
		b.reserved[i] = 1;
		ret = xioctl(fd, LATT_IOC_BATCH, &b);
		check(ret == -EINVAL, "BATCH with reserved[%u] set -> EINVAL "
		      "(got %s)", i, ret ? strerrorname_np(-ret) : "0");
	}
	memset(p, 0xa5, sizeof(p));
	ret = get_batch(fd, &b, p, 4);
	check(!ret && !b.batch && !b.pairs && !b.backwards && !b.len &&
	      p[0].k == 0xa5a5a5a5,
	      "BATCH of a run without batches: batch %u, %llu pairs, %u "
	      "copied (%s)", b.batch, (unsigned long long)b.pairs, b.len,
	      ret ? strerrorname_np(-ret) : "0");
	check(xioctl(fd, LATT_IOC_BATCH, (void *)8) == -EFAULT,
	      "BATCH with a bad pointer -> EFAULT");

	c = vm_base_config();
	c.region = 1 << 20;
	c.batch = 8;
	c.batch_pairs = LATT_MIN_BATCH_PAIRS + 3;
	batch_run(fd, c, "load batches of 8");
	ret = get_batch(fd, &b, (void *)8, 1);
	check(ret == -EFAULT, "BATCH into a bad pairs_ptr -> EFAULT (got %s)",
	      ret ? strerrorname_np(-ret) : "0");
	c.op = LATT_OP_STORE_CLWB;
	c.flags = LATT_CFG_WARM;
	c.batch_pairs = LATT_MIN_BATCH_PAIRS;
	batch_run(fd, c, "warm store-clwb batches of 8");
	c = vm_base_config();
	c.pattern = LATT_PAT_CHASE;
	c.region = 1 << 20;
	c.chain = 2;
	c.batch = 4;
	c.batch_pairs = 2 * LATT_MIN_BATCH_PAIRS;
	batch_run(fd, c, "chase batches of 4 x chain 2");
	test_batch_abort(fd);
}

int main(void)
{
	struct latt_info info;
	int fd = open_dev(), ret;

	/* first the call, then the message: its arguments are read first */
	memset(&info, 0, sizeof(info));
	ret = xioctl(fd, LATT_IOC_GET_INFO, &info);
	check(ret == 0 && info.abi_version == LATT_ABI_VERSION &&
	      info.hist_buckets == LATT_HIST_BUCKETS && info.tsc_khz > 0,
	      "GET_INFO: ABI %#x, tsc_khz %llu", info.abi_version,
	      (unsigned long long)info.tsc_khz);
	/* ABI 2.6: the quantum is a tick or more, and no more than the
	 * smallest difference of two reads, which is at least one of it */
	check(ret == 0 && info.timer_quantum >= LATT_QUANTUM_ONE &&
	      info.timer_read_cost > 0 &&
	      info.timer_quantum <= info.timer_read_cost * LATT_QUANTUM_ONE &&
	      !info.reserved[0] && !info.reserved[1] && !info.reserved[2] &&
	      !info.reserved[3],
	      "GET_INFO (ABI 2.6): TSC quantum %.3f cycles, read cost %llu, reserved zero",
	      (double)info.timer_quantum / LATT_QUANTUM_ONE,
	      (unsigned long long)info.timer_read_cost);
	test_threads_fresh(fd);
	test_unknown_commands(fd);
	test_validation(fd);
	test_order(fd);
	test_offline_cpu(fd);
	test_pmem(fd);
	test_busy_abort(fd);
	test_status_promises(fd);
	test_close_aborts();
	test_non_root();
	sysfs_write("window_us", "5", EINVAL);
	sysfs_write("window_us", "abc", EINVAL);
	sysfs_write("window_us", "200000", EINVAL);
	sysfs_write("window_us", "1000", 0);
	sysfs_write("state", "idle", EACCES);
	test_normal_run(fd);
	test_timer(fd);
	test_threads(fd);	/* any one-thread run */
	test_batch(fd);		/* after test_threads: a run without batches */
	test_windows(fd);	/* after test_batch: a run without a threshold */
	test_traffic(fd);
	sysfs_write("window_us", "500", 0);
	close(fd);
	return tap_done("ioctl-neg");
}
