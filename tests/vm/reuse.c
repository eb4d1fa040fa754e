// SPDX-License-Identifier: GPL-2.0
/*
 * reuse - LATT_CFG_REUSE and DRAM chunks (ABI 2.1), TAP output.
 *
 * A run with LATT_CFG_REUSE leaves its region to the next START of the
 * same open file that asks for the same memory (LATT_RES_REUSED); one that
 * asks for other memory, one from another file, and one after the file was
 * closed get a fresh region; the kept region is given back on close and
 * under memory pressure (the shrinker, driven by drop_caches).  Then the
 * 2 MiB chunks a fragmented node falls back to (sysfs max_chunk_kib):
 * chunk_size says so, a size above 2 MiB is refused, and no access crosses
 * 2 MiB (the outlier records' offsets, with a threshold every sample
 * exceeds).
 */
#include <stdint.h>
#include <uapi/lattester.h>
#include "../tap.h"
#include "vmtest.h"

#define SYSFS	"/sys/class/misc/lattester/"
#define MIB	(1ULL << 20)

static struct latt_config base(__u64 region)
{
	struct latt_config c = vm_base_config();

	c.region = region;
	c.samples = 2000;
	c.flags = LATT_CFG_REUSE;
	return c;
}

static int wait_done(int fd)
{
	return vm_wait_done(fd, 6000);
}

/*
 * Run @c on @fd to its end; the result in @r (its outliers in @out, up to
 * @nout).  0 or -errno of START, -1000 when it did not end DONE.
 */
static int run(int fd, struct latt_config c, struct latt_result *r,
	       struct latt_outlier *out, __u32 nout)
{
	int ret = xioctl(fd, LATT_IOC_START, &c);

	if (ret)
		return ret;
	if (wait_done(fd) != LATT_STATE_DONE)
		return -1000;
	memset(r, 0, sizeof(*r));
	r->outlier_ptr = (__u64)(uintptr_t)out;
	r->outlier_len = out ? nout : 0;
	return xioctl(fd, LATT_IOC_RESULT, r) ? -1001 : 0;
}

static const char *reused(const struct latt_result *r)
{
	return r->flags & LATT_RES_REUSED ? "reused" : "fresh";
}

/* MemFree in bytes, from /proc/meminfo */
static __u64 mem_free(void)
{
	unsigned long long kb = 0;
	char line[128];
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb << 10;
}

static int write_str(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -errno;
	ok = write(fd, v, strlen(v)) == (ssize_t)strlen(v);
	close(fd);
	return ok ? 0 : -errno;
}

int main(void)
{
	static struct latt_outlier out[512];
	struct latt_result r;
	struct latt_config c;
	__u64 before, after, i, bad;
	int a = open_dev(), b = open_dev(), ret;

	ret = run(a, base(16 * MIB), &r, NULL, 0);
	check(!ret && !(r.flags & LATT_RES_REUSED) && r.chunk_size == 4 * MIB,
	      "first run with REUSE: %d, %s, chunk_size %llu", ret,
	      reused(&r), (unsigned long long)r.chunk_size);
	c = base(16 * MIB);
	c.op = LATT_OP_NT_LOAD;
	c.pattern = LATT_PAT_SEQ;
	ret = run(a, c, &r, NULL, 0);
	check(!ret && (r.flags & LATT_RES_REUSED) && r.count == 2000,
	      "same file, same memory, another op: %d, %s, %llu samples",
	      ret, reused(&r), (unsigned long long)r.count);
	ret = run(a, base(8 * MIB), &r, NULL, 0);
	check(!ret && !(r.flags & LATT_RES_REUSED),
	      "another region size: %d, %s", ret, reused(&r));
	ret = run(a, base(8 * MIB), &r, NULL, 0);
	check(!ret && (r.flags & LATT_RES_REUSED),
	      "that size again: %d, %s", ret, reused(&r));
	ret = run(b, base(8 * MIB), &r, NULL, 0);
	check(!ret && !(r.flags & LATT_RES_REUSED),
	      "another open file, same memory: %d, %s", ret, reused(&r));
	c = base(8 * MIB);
	c.flags = 0;
	ret = run(b, c, &r, NULL, 0);
	check(!ret && !(r.flags & LATT_RES_REUSED),
	      "without the flag: %d, %s", ret, reused(&r));
	ret = run(b, base(8 * MIB), &r, NULL, 0);
	check(!ret && !(r.flags & LATT_RES_REUSED),
	      "after a run that kept nothing: %d, %s", ret, reused(&r));

	/* a DRAM chase chain is kept with its region, while nothing
	 * could have changed it (LATT_RES_CHAIN_REUSED) */
	c = base(16 * MIB);
	c.pattern = LATT_PAT_CHASE;
	c.chain = 4;
	ret = run(a, c, &r, NULL, 0);
	check(!ret && !(r.flags & LATT_RES_CHAIN_REUSED),
	      "chase after a rand run: %d, chain built (flags %#x)", ret,
	      r.flags);
	ret = run(a, c, &r, NULL, 0);
	check(!ret && (r.flags & LATT_RES_REUSED) &&
	      (r.flags & LATT_RES_CHAIN_REUSED) && r.count == 2000 &&
	      r.sum_corrected > 0,
	      "the same chase again: %d, chain reused (flags %#x), %llu "
	      "samples", ret, r.flags, (unsigned long long)r.count);
	c.seed = 2;
	ret = run(a, c, &r, NULL, 0);
	check(!ret && (r.flags & LATT_RES_REUSED) &&
	      !(r.flags & LATT_RES_CHAIN_REUSED),
	      "another seed: %d, region reused, chain built (flags %#x)", ret,
	      r.flags);
	c.op = LATT_OP_STORE;	/* a store run between two chases */
	c.pattern = LATT_PAT_SEQ;
	c.chain = 0;
	ret = run(a, c, &r, NULL, 0);
	c.op = LATT_OP_LOAD;
	c.pattern = LATT_PAT_CHASE;
	c.chain = 4;
	ret = ret ? ret : run(a, c, &r, NULL, 0);
	check(!ret && (r.flags & LATT_RES_REUSED) &&
	      !(r.flags & LATT_RES_CHAIN_REUSED),
	      "after a store run: %d, chain built again (flags %#x)", ret,
	      r.flags);

	/* closing the file gives a kept region back */
	ret = run(b, base(256 * MIB), &r, NULL, 0);
	before = mem_free();
	close(b);
	after = mem_free();
	check(!ret && after > before + 192 * MIB,
	      "close gives the kept 256 MiB back: MemFree %llu -> %llu MiB",
	      (unsigned long long)(before >> 20),
	      (unsigned long long)(after >> 20));
	b = open_dev();
	ret = run(b, base(256 * MIB), &r, NULL, 0);
	check(!ret && !(r.flags & LATT_RES_REUSED),
	      "a new file after the close: %d, %s", ret, reused(&r));

	/* the shrinker gives it back under memory pressure */
	before = mem_free();
	ret = write_str("/proc/sys/vm/drop_caches", "2");
	after = mem_free();
	check(!ret && after > before + 192 * MIB,
	      "drop_caches (the shrinkers) gives the kept 256 MiB back: "
	      "MemFree %llu -> %llu MiB", (unsigned long long)(before >> 20),
	      (unsigned long long)(after >> 20));
	ret = run(b, base(256 * MIB), &r, NULL, 0);
	check(!ret && !(r.flags & LATT_RES_REUSED),
	      "after the shrinker took it: %d, %s", ret, reused(&r));

	/* 2 MiB chunks */
	check(write_str(SYSFS "max_chunk_kib", "3000") == -EINVAL,
	      "max_chunk_kib takes 2048 or 4096 only");
	check(!write_str(SYSFS "max_chunk_kib", "2048"), "max_chunk_kib 2048");
	ret = run(a, base(16 * MIB), &r, NULL, 0);
	check(!ret && r.chunk_size == 2 * MIB && !(r.flags & LATT_RES_REUSED),
	      "2 MiB chunks: %d, chunk_size %llu, %s", ret,
	      (unsigned long long)r.chunk_size, reused(&r));
	c = base(16 * MIB);
	c.size = 4 * MIB;
	ret = xioctl(a, LATT_IOC_START, &c);
	check(ret == -ENOMEM, "a 4 MiB access in 2 MiB chunks -> ENOMEM (%d)",
	      ret);
	c = base(16 * MIB);
	c.flags = 0;
	c.size = 192 << 10;	/* not a power of two: 10 slots in 2 MiB, 21
				 * in 4 MiB, the 11th of which spans 2 MiB */
	c.pattern = LATT_PAT_SEQ;
	c.threshold = 1;	/* every sample is an outlier */
	c.max_outliers = 512;
	c.samples = 512;
	ret = run(a, c, &r, out, 512);
	for (i = 0, bad = 0; !ret && i < r.outlier_len; i++)
		bad += out[i].offset % (2 * MIB) + c.size > 2 * MIB;
	check(!ret && r.chunk_size == 2 * MIB && r.outlier_len == 512 && !bad,
	      "192 KiB accesses in 2 MiB chunks: %u offsets, %llu crossing 2 MiB",
	      r.outlier_len, (unsigned long long)bad);
	check(!write_str(SYSFS "max_chunk_kib", "4096"), "max_chunk_kib 4096");
	ret = run(a, c, &r, out, 512);
	for (i = 0, bad = 0; !ret && i < r.outlier_len; i++)
		bad += out[i].offset % (2 * MIB) + c.size > 2 * MIB;
	check(!ret && r.chunk_size == 4 * MIB && bad > 0,
	      "the same in 4 MiB chunks: %llu of %u offsets cross 2 MiB "
	      "(the check above can fail)", (unsigned long long)bad,
	      r.outlier_len);
	close(a);
	close(b);
	return tap_done("reuse");
}
