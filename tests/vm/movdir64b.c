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
 * failure.  One table holds every configuration with the answer of each
 * kind of CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
	int ret, s;

	memset(r, 0, sizeof(*r));	/* a refused START shows zeros */
	ret = xioctl(fd, LATT_IOC_START, &c);
	if (ret)
		return ret;
	s = vm_wait_done(fd, 6000);
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

/*
 * One table for both kinds of CPU: each configuration, what a CPU without
 * movdir64b answers (no START gets to execute it: EOPNOTSUPP, the op
 * checked before its width and fence, the mix's write op too) and what one
 * with it answers (runs in every mode), with what else its RESULT must
 * show.  NOT_TRIED: the case says nothing there.
 */
#define NOT_TRIED	INT_MIN	/* neither an errno nor a state */

enum md_shape { MD_PLAIN, MD_W32, MD_SFENCE, MD_SEQ_NOFENCE, MD_BW,
		MD_LOADED_WRITES, MD_LOADED_TIMED };

struct md_case {
	enum md_shape shape;
	int two;		/* needs two CPUs */
	int lacking;		/* -errno, or the end state */
	int having;
	const char *name;
};

static const struct md_case md_cases[] = {
	{ MD_PLAIN, 0, -EOPNOTSUPP, LATT_STATE_DONE,
	  "movdir64b: 64 bytes, mfence, no vector section" },
	{ MD_W32, 0, -EOPNOTSUPP, -EINVAL,
	  "movdir64b, width 32 (the op checked before its width)" },
	{ MD_SFENCE, 0, -EOPNOTSUPP, NOT_TRIED, "movdir64b, SFENCE" },
	{ MD_SEQ_NOFENCE, 0, -EOPNOTSUPP, LATT_STATE_DONE,
	  "movdir64b, width 64, 4 KiB seq, no fence" },
	{ MD_BW, 1, -EOPNOTSUPP, LATT_STATE_DONE,
	  "bandwidth, movdir64b: bytes written, none read" },
	{ MD_LOADED_WRITES, 1, -EOPNOTSUPP, LATT_STATE_DONE,
	  "loaded, mix 1:1 of loads and --write-op movdir64b: bytes written" },
	{ MD_LOADED_TIMED, 1, -EOPNOTSUPP, LATT_STATE_DONE,
	  "loaded, movdir64b timed, loads and stores streamed at a width the CPU has" },
};

static struct latt_config md_shape(enum md_shape shape, __u32 *cpus)
{
	struct latt_config c = md_config();

	switch (shape) {
	case MD_PLAIN:
		break;
	case MD_W32:
		c.width = 32;
		break;
	case MD_SFENCE:
		c.fence = LATT_FENCE_SFENCE;
		break;
	case MD_SEQ_NOFENCE:
		c.width = 64;
		c.fence = LATT_FENCE_NONE;
		c.size = 4096;
		c.pattern = LATT_PAT_SEQ;
		break;
	case MD_BW:
		c.mode = LATT_MODE_BANDWIDTH;
		c.samples = 0;
		c.duration_us = 20000;
		break;
	case MD_LOADED_WRITES:
		c = vm_base_config();
		c.write_op = LATT_OP_MOVDIR64B;
		/* fall through */
	case MD_LOADED_TIMED:
		c.mode = LATT_MODE_LOADED;
		c.mix_read = 1;
		c.mix_write = 1;
		break;
	}
	if (c.mode != LATT_MODE_LATENCY) {
		c.nr_threads = 2;
		c.cpus_ptr = (__u64)(unsigned long)cpus;
	}
	return c;
}

/* What a CPU with movdir64b must show beyond the end state. */
static int md_having_ok(enum md_shape shape, const struct latt_config *c,
			const struct latt_result *r)
{
	switch (shape) {
	case MD_PLAIN:
		return r->count == c->samples && r->width == 64 &&
		       r->config.width == 64 &&
		       r->config.fence == LATT_FENCE_MFENCE &&
		       !(r->flags & LATT_RES_VECTOR);
	case MD_SEQ_NOFENCE:
		return r->config.fence == LATT_FENCE_NONE;
	case MD_BW:
		return r->bytes_written > 0 && !r->bytes_read;
	case MD_LOADED_WRITES:
		return r->bytes_written > 0;
	case MD_LOADED_TIMED:
		return r->count == c->samples;
	default:
		return 1;
	}
}

static void test_table(int fd, __u32 *cpus, int two, int have)
{
	struct latt_result r;
	struct latt_config c;
	unsigned int i;
	int ret, want;

	for (i = 0; i < sizeof(md_cases) / sizeof(md_cases[0]); i++) {
		const struct md_case *k = &md_cases[i];

		want = have ? k->having : k->lacking;
		if (want == NOT_TRIED)
			continue;
		if (k->two && !two) {
			skip("%s: one CPU online", k->name);
			continue;
		}
		c = md_shape(k->shape, cpus);
		ret = run(fd, c, &r);
		check(ret == want && (ret != LATT_STATE_DONE ||
				      md_having_ok(k->shape, &c, &r)),
		      "%s CPU: %s -> %d (got %d; %llu samples, width %u, fence %u, flags %#x, %llu bytes read, %llu written)",
		      have ? "a movdir64b" : "no movdir64b", k->name, want,
		      ret, (unsigned long long)r.count, r.width,
		      r.config.fence, r.flags,
		      (unsigned long long)r.bytes_read,
		      (unsigned long long)r.bytes_written);
	}
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
	test_table(fd, cpus, two, !!feat);
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
