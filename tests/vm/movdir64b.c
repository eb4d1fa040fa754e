// SPDX-License-Identifier: GPL-2.0
/*
 * movdir64b - LATT_OP_MOVDIR64B (ABI 2.2) through the ioctls, whether the
 * guest CPU has the instruction or not: GET_INFO's LATT_FEAT_MOVDIR64B
 * follows /proc/cpuinfo (the kernel's CPUID); without it every START that
 * would execute it is EOPNOTSUPP (the op before its width and fence, the
 * mix's write op too); with it runs are DONE at 64 bytes with mfence and no
 * vector section, bandwidth and loaded traffic stream it, and 64-byte direct
 * stores into the raw namespace read back through the block device.  A
 * write op either way: pmem needs LATT_CFG_FORCE.  TAP output, exit 1 on a
 * failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <uapi/lattester.h>
#include "../tap.h"
#include "vmtest.h"

#define BACK		(1 << 20)	/* bytes stored into the namespace */
#define TAIL		(64 << 10)	/* ... and beyond them, untouched */

/* sysfs "features", or 0 */
static __u64 sysfs_features(void)
{
	unsigned long long v = 0;
	FILE *f = fopen("/sys/class/misc/lattester/features", "r");

	if (f) {
		if (fscanf(f, "%llx", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* START @c: -errno, or the state it ended in (its RESULT in @r) */
static int run(int fd, struct latt_config c, struct latt_result *r)
{
	int ret = xioctl(fd, LATT_IOC_START, &c), s;

	if (ret)
		return ret;
	s = vm_wait_done(fd, 6000);
	memset(r, 0, sizeof(*r));
	if (xioctl(fd, LATT_IOC_RESULT, r))
		return -1000;
	return s;
}

static struct latt_config md_config(void)
{
	struct latt_config c = vm_base_config();

	c.op = LATT_OP_MOVDIR64B;
	return c;
}

/* The guest CPU lacks movdir64b: no START gets to execute it. */
static void test_lacking(int fd, __u32 *cpus, int two)
{
	struct latt_result r;
	struct latt_config c;
	int ret;

	c = md_config();
	ret = run(fd, c, &r);
	check(ret == -EOPNOTSUPP, "movdir64b -> EOPNOTSUPP (got %d)", ret);
	c.width = 8;
	ret = run(fd, c, &r);
	check(ret == -EOPNOTSUPP, "movdir64b, width 8 -> EOPNOTSUPP: the op "
	      "is checked before its width (got %d)", ret);
	c = md_config();
	c.fence = LATT_FENCE_SFENCE;
	ret = run(fd, c, &r);
	check(ret == -EOPNOTSUPP, "movdir64b, SFENCE -> EOPNOTSUPP (got %d)",
	      ret);
	if (!two) {
		skip("loaded mode with movdir64b writes: one CPU online");
		return;
	}
	c = vm_base_config();
	c.mode = LATT_MODE_LOADED;
	c.nr_threads = 2;
	c.cpus_ptr = (__u64)(unsigned long)cpus;
	c.mix_read = 1;
	c.mix_write = 1;
	c.write_op = LATT_OP_MOVDIR64B;
	ret = run(fd, c, &r);
	check(ret == -EOPNOTSUPP, "loaded, --write-op movdir64b -> EOPNOTSUPP "
	      "(got %d)", ret);
}

/* The guest CPU has movdir64b: it runs, in every mode. */
static void test_having(int fd, __u32 *cpus, int two)
{
	struct latt_result r;
	struct latt_config c;
	int ret;

	c = md_config();
	ret = run(fd, c, &r);
	check(ret == LATT_STATE_DONE && r.count == c.samples &&
	      r.width == 64 && r.config.width == 64 &&
	      r.config.fence == LATT_FENCE_MFENCE &&
	      !(r.flags & LATT_RES_VECTOR),
	      "movdir64b: DONE, %llu samples, width %u, fence %u (mfence), "
	      "flags %#x (no vector section)", (unsigned long long)r.count,
	      r.width, r.config.fence, r.flags);
	c.width = 32;
	ret = run(fd, c, &r);
	check(ret == -EINVAL, "movdir64b, width 32 -> EINVAL (got %d)", ret);
	c.width = 64;
	c.fence = LATT_FENCE_NONE;
	c.size = 4096;
	c.pattern = LATT_PAT_SEQ;
	ret = run(fd, c, &r);
	check(ret == LATT_STATE_DONE && r.config.fence == LATT_FENCE_NONE,
	      "movdir64b, width 64, 4 KiB seq, no fence: DONE (got %d)", ret);
	if (!two) {
		skip("movdir64b streams: one CPU online");
		return;
	}
	c = md_config();
	c.mode = LATT_MODE_BANDWIDTH;
	c.samples = 0;
	c.duration_us = 20000;
	c.nr_threads = 2;
	c.cpus_ptr = (__u64)(unsigned long)cpus;
	ret = run(fd, c, &r);
	check(ret == LATT_STATE_DONE && r.bytes_written > 0 && !r.bytes_read,
	      "bandwidth, movdir64b: DONE, %llu bytes written, %llu read",
	      (unsigned long long)r.bytes_written,
	      (unsigned long long)r.bytes_read);
	c = vm_base_config();
	c.mode = LATT_MODE_LOADED;
	c.nr_threads = 2;
	c.cpus_ptr = (__u64)(unsigned long)cpus;
	c.mix_read = 1;
	c.mix_write = 1;
	c.write_op = LATT_OP_MOVDIR64B;
	ret = run(fd, c, &r);
	check(ret == LATT_STATE_DONE && r.bytes_written > 0,
	      "loaded, mix 1:1 of loads and movdir64b: DONE, %llu bytes "
	      "written", (unsigned long long)r.bytes_written);
	c = md_config();
	c.mode = LATT_MODE_LOADED;
	c.nr_threads = 2;
	c.cpus_ptr = (__u64)(unsigned long)cpus;
	c.mix_read = 1;
	c.mix_write = 1;
	ret = run(fd, c, &r);
	check(ret == LATT_STATE_DONE && r.count == c.samples,
	      "loaded, movdir64b timed, loads and stores streamed at a width "
	      "the CPU has: DONE (got %d)", ret);
}

static int all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
	while (n--)
		if (*p++ != v)
			return 0;
	return 1;
}

/*
 * pmem: a write op (EPERM without FORCE, whatever the CPU has); where the
 * CPU has it, 64-byte direct stores to every line of BACK bytes of the
 * namespace read back, through O_DIRECT on the block device, as the 64
 * bytes stored, and the bytes after them as they were.
 */
static void test_pmem(int fd, int have)
{
	__u64 start = 0, size = 0;
	struct latt_result r;
	struct latt_config c;
	unsigned char *buf;
	int excl, direct, ret, ok;

	if (ns_range("namespace0.0", &start, &size) || size < 16 << 20) {
		skip("pmem: no namespace0.0 of 16 MiB or more");
		return;
	}
	excl = open("/dev/pmem0", O_RDWR | O_EXCL | O_CLOEXEC);
	direct = open("/dev/pmem0", O_RDWR | O_DIRECT | O_CLOEXEC);
	buf = aligned_alloc(4096, BACK + TAIL);
	if (excl < 0 || direct < 0 || !buf) {
		check(0, "pmem: open /dev/pmem0 (O_EXCL, O_DIRECT): %s",
		      strerror(errno));
		return;
	}
	c = md_config();
	c.target = LATT_TARGET_PMEM;
	c.phys_addr = start;
	c.region = BACK;
	c.fd = excl;
	ret = run(fd, c, &r);
	check(ret == -EPERM, "pmem, movdir64b without FORCE -> EPERM: a write "
	      "op (got %d)", ret);
	if (!have) {
		c.flags = LATT_CFG_FORCE;
		ret = run(fd, c, &r);
		check(ret == -EOPNOTSUPP, "pmem, movdir64b with FORCE -> "
		      "EOPNOTSUPP (got %d)", ret);
		goto out;
	}
	memset(buf, 0xa5, BACK + TAIL);
	ok = pwrite(direct, buf, BACK + TAIL, 0) == BACK + TAIL;
	c.flags = LATT_CFG_FORCE;
	c.pattern = LATT_PAT_SEQ;
	c.samples = BACK / 64;	/* every line once */
	ret = run(fd, c, &r);
	check(ok && ret == LATT_STATE_DONE && r.count == c.samples,
	      "pmem, movdir64b with FORCE over every line of 1 MiB: DONE "
	      "(got %d)", ret);
	memset(buf, 0, BACK + TAIL);
	ok = pread(direct, buf, BACK + TAIL, 0) == BACK + TAIL;
	check(ok && all_bytes(buf, BACK, 0x5a) &&
	      all_bytes(buf + BACK, TAIL, 0xa5),
	      "pmem, read back through /dev/pmem0: 1 MiB of the 64 bytes "
	      "stored (0x5a...), the 64 KiB after it untouched");
out:
	free(buf);
	close(direct);
	close(excl);
}

int main(void)
{
	int fd = open_dev(), has = cpuinfo_has("movdir64b"), ret, two;
	struct latt_info info;
	struct latt_result r;
	__u32 cpus[2] = { 0, 1 };
	__u64 feat;

	memset(&info, 0, sizeof(info));
	ret = xioctl(fd, LATT_IOC_GET_INFO, &info);
	feat = info.features & LATT_FEAT_MOVDIR64B;
	check(!ret && info.abi_version == LATT_ABI_VERSION && has >= 0 &&
	      !feat == !has,
	      "GET_INFO (ABI %#x): LATT_FEAT_MOVDIR64B %s, as /proc/cpuinfo "
	      "%s movdir64b", info.abi_version, feat ? "set" : "clear",
	      has > 0 ? "has" : has ? "can't tell of" : "lacks");
	check(!(sysfs_features() & LATT_FEAT_MOVDIR64B) == !feat,
	      "sysfs features agree (%#llx)",
	      (unsigned long long)sysfs_features());
	two = sysconf(_SC_NPROCESSORS_ONLN) >= 2;
	if (feat)
		test_having(fd, cpus, two);
	else
		test_lacking(fd, cpus, two);
	test_pmem(fd, !!feat);
	ret = run(fd, (struct latt_config){ .op = LATT_OP_MAX + 1,
		  .pattern = LATT_PAT_RAND, .target = LATT_TARGET_DRAM,
		  .node = LATT_NODE_LOCAL, .size = 64, .region = 16 << 20,
		  .samples = 1000 }, &r);
	check(ret == -EINVAL, "op LATT_OP_MAX + 1 (%u) -> EINVAL (got %d)",
	      LATT_OP_MAX + 1, ret);
	ret = run(fd, vm_base_config(), &r);
	check(ret == LATT_STATE_DONE, "a load run afterwards is DONE");
	close(fd);
	return tap_done("movdir64b");
}
