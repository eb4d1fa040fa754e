// SPDX-License-Identifier: GPL-2.0
/*
 * dax-reuse - a device-DAX region kept between runs (ABI 2.1,
 * LATT_CFG_REUSE) is taken again only while the device still owns its
 * range (issue 24 item 3), TAP output.
 *
 * Usage: dax-reuse /dev/daxX.Y SCRIPT
 *   SCRIPT STEP is run between the points: "shrink" (unbind the device,
 *   shrink it to half, bind it again, and create a second device on the
 *   freed half, filled with a pattern), "same" (the second device's
 *   pattern is unchanged: exit 0), "regrow" (the second device destroyed,
 *   the first grown to its whole size, which may be more than at the
 *   start: it is mapped again), "online" (as "shrink", and the second
 *   device onlined as System RAM: its half must be whole memory blocks).
 *
 * The whole device is mapped, as lattester-ctl maps it, at one address
 * (unmapped only while a step runs: see step()).  A load run keeps the
 * region, the same again takes it (LATT_RES_REUSED); then the device is
 * reconfigured under the kept region, alive again afterwards: the next
 * START, a store run with FORCE at random lines of the whole kept region
 * (1000 of 16 MiB, about half of them in the freed half), must be refused
 * (EINVAL: the device no longer maps the range), and the second device's
 * bytes must be as they were.
 * Then the same with the freed half onlined as System RAM: refused with
 * EBUSY (the range touches System RAM) or EINVAL.
 */
#include <inttypes.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <uapi/lattester.h>
#include "../tap.h"
#include "vmtest.h"

static int start(int dev, __u32 op, __u64 phys, __u64 size, int fd,
		 void *map, struct latt_result *r)
{
	struct latt_config c = {
		.op = op, .pattern = LATT_PAT_RAND,
		.target = LATT_TARGET_PMEM, .node = LATT_NODE_LOCAL,
		.size = 64, .region = size, .samples = 1000, .seed = 1,
		.phys_addr = phys, .fd = fd,
		.map_addr = (__u64)(uintptr_t)map,
		.flags = LATT_CFG_REUSE | LATT_CFG_FORCE,
	};
	int ret = xioctl(dev, LATT_IOC_START, &c);

	if (ret)
		return ret;
	if (vm_wait_done(dev, 6000) != LATT_STATE_DONE)
		return -1000;
	memset(r, 0, sizeof(*r));
	return xioctl(dev, LATT_IOC_RESULT, r) ? -1001 : 0;
}

/*
 * Run SCRIPT WHAT with the device unmapped, then map it again at the same
 * address (the kept region matches only the same map_addr): a process
 * that keeps a device-DAX device mapped through its unbind, resize, rebind
 * and a kmem online and offline of its neighbour gets the kernel's
 * "refcount_t: underflow" warning at the last unbind (seen on 6.12.118
 * with no lattester ioctl at all).
 */
static int step(const char *script, const char *what, int fd, void **map,
		__u64 size)
{
	char cmd[512];
	void *at = *map;
	int ret;

	snprintf(cmd, sizeof(cmd), "%s %s", script, what);
	fflush(stdout);
	munmap(at, size);
	ret = system(cmd);
	*map = mmap(at, size, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
	if (*map != at) {
		printf("Bail out! mmap again at %p: %s\n", at,
		       *map == MAP_FAILED ? strerror(errno) : "elsewhere");
		exit(1);
	}
	return ret;
}

int main(int argc, char **argv)
{
	struct latt_result r;
	__u64 phys, size;
	int dev, fd, ret;
	char cmd[512];
	void *map;

	if (argc != 3) {
		fprintf(stderr, "usage: dax-reuse /dev/daxX.Y SCRIPT\n");
		return 2;
	}
	dev = open_dev();
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("Bail out! open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	phys = vm_dax_attr(fd, "resource");
	size = vm_dax_attr(fd, "size");
	if (!phys || size < (8 << 20)) {
		printf("Bail out! %s: resource %#llx size %llu\n", argv[1],
		       (unsigned long long)phys, (unsigned long long)size);
		return 1;
	}
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return 1;
	}

	/* round 1: the freed half becomes another device-DAX device */
	ret = start(dev, LATT_OP_LOAD, phys, size, fd, map, &r);
	check(!ret && !(r.flags & LATT_RES_REUSED),
	      "a load run over the whole device, kept: %d (flags %#x)", ret,
	      r.flags);
	ret = start(dev, LATT_OP_LOAD, phys, size, fd, map, &r);
	check(!ret && (r.flags & LATT_RES_REUSED),
	      "the same again takes the kept region: %d (flags %#x)", ret,
	      r.flags);
	ret = step(argv[2], "shrink", fd, &map, size);
	check(!ret, "unbound, shrunk to half, bound again; a second device "
	      "on the freed half, filled (%d)", ret);
	ret = start(dev, LATT_OP_STORE, phys, size, fd, map, &r);
	check(ret == -EINVAL, "a store run with FORCE on the kept region: "
	      "EINVAL, the device no longer maps it (%d)", ret);
	ret = step(argv[2], "same", fd, &map, size);
	check(!ret, "the second device's bytes are unchanged (%d)", ret);

	/* round 2: the freed half onlined as System RAM */
	/* grown to its whole: mapped again, as lattester-ctl would */
	munmap(map, size);
	snprintf(cmd, sizeof(cmd), "%s regrow", argv[2]);
	fflush(stdout);
	ret = system(cmd);
	check(!ret, "the second device destroyed, the first grown back (%d)",
	      ret);
	phys = vm_dax_attr(fd, "resource");
	size = vm_dax_attr(fd, "size");
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		printf("Bail out! mmap %llu bytes: %s\n",
		       (unsigned long long)size, strerror(errno));
		return 1;
	}
	ret = start(dev, LATT_OP_LOAD, phys, size, fd, map, &r);
	check(!ret, "a load run over the whole device again, kept: %d "
	      "(flags %#x)", ret, r.flags);
	ret = step(argv[2], "online", fd, &map, size);
	check(!ret, "shrunk again, the freed half onlined as System RAM (%d)",
	      ret);
	ret = start(dev, LATT_OP_STORE, phys, size, fd, map, &r);
	check(ret == -EBUSY || ret == -EINVAL, "a store run with FORCE on "
	      "the kept region: EBUSY or EINVAL (%d)", ret);
	munmap(map, size);
	close(fd);
	close(dev);
	return tap_done("dax-reuse");
}
