// SPDX-License-Identifier: GPL-2.0
/*
 * dax-tie - a device-DAX range is taken only where the device itself maps
 * it (ABI 2.1, latt_config.map_addr), TAP output.
 *
 * Usage: dax-tie /dev/daxX.Y OTHER_PHYS
 *   OTHER_PHYS: the first byte of another namespace (fsdax, raw): a range
 *   the claimed device does not own.
 *
 * The claimed device is mapped here, as lattester-ctl maps it; then START
 * is asked for ranges it does not map (another namespace, its own first
 * bytes shifted by a page, its namespace's metadata below it, an anonymous
 * mapping, a mapping too short, no map_addr), each of which must be
 * EINVAL; for a map_addr where nothing is mapped (page 1, a hole left by
 * munmap()), which must be EFAULT (ioctl.md); and for its own range, which
 * must run.  Loads only: nothing is written.
 */
#include <inttypes.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <uapi/lattester.h>
#include "../tap.h"
#include "vmtest.h"

static int start(int dev, __u64 phys, int fd, void *map)
{
	struct latt_config c = {
		.op = LATT_OP_LOAD, .pattern = LATT_PAT_SEQ,
		.target = LATT_TARGET_PMEM, .node = LATT_NODE_LOCAL,
		.size = 64, .region = 4 << 20, .samples = 1000, .seed = 1,
		.phys_addr = phys, .fd = fd,
		.map_addr = (__u64)(uintptr_t)map,
	};

	return xioctl(dev, LATT_IOC_START, &c);
}

static int wait_done(int dev)
{
	return vm_wait_done(dev, 3000);
}

int main(int argc, char **argv)
{
	__u64 start_phys, size, align, other;
	struct latt_info info;
	struct latt_result r;
	void *map, *anon;
	int dev, fd, rc;

	if (argc != 3) {
		fprintf(stderr, "usage: dax-tie /dev/daxX.Y OTHER_PHYS\n");
		return 2;
	}
	other = strtoull(argv[2], NULL, 0);
	dev = open_dev();
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("Bail out! open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	start_phys = vm_dax_attr(fd, "resource");
	size = vm_dax_attr(fd, "size");
	align = vm_dax_attr(fd, "align");
	if (!start_phys || size < (8 << 20) || !align) {
		printf("Bail out! %s: resource %#llx size %llu align %llu\n",
		       argv[1], (unsigned long long)start_phys,
		       (unsigned long long)size, (unsigned long long)align);
		return 1;
	}
	check(!xioctl(dev, LATT_IOC_GET_INFO, &info) &&
	      (info.features & LATT_FEAT_DAX_MAP),
	      "the module checks device-DAX ranges through map_addr");
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	anon = mmap(NULL, 4 << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (map == MAP_FAILED || anon == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return 1;
	}

	rc = start(dev, start_phys, fd, NULL);
	check(rc == -EINVAL, "no map_addr -> EINVAL (%d)", rc);
	rc = start(dev, other, fd, map);
	check(rc == -EINVAL, "another namespace's range at %#llx -> EINVAL "
	      "(%d)", (unsigned long long)other, rc);
	rc = start(dev, start_phys + 4096, fd, map);
	check(rc == -EINVAL, "its own range shifted by a page -> EINVAL (%d)",
	      rc);
	rc = start(dev, start_phys - align, fd, map);
	check(rc == -EINVAL, "the namespace's bytes below the device (its "
	      "metadata) -> EINVAL (%d)", rc);
	rc = start(dev, start_phys, fd, anon);
	check(rc == -EINVAL, "an anonymous mapping -> EINVAL (%d)", rc);
	rc = start(dev, start_phys, fd, (char *)map + size - (2 << 20));
	check(rc == -EINVAL, "a mapping shorter than the region -> EINVAL "
	      "(%d)", rc);

	rc = start(dev, start_phys, fd, (void *)(uintptr_t)4096);
	check(rc == -EFAULT, "map_addr 0x1000, nothing mapped -> EFAULT (%d)",
	      rc);
	if (munmap(anon, 4 << 20) == 0) {
		rc = start(dev, start_phys, fd, anon);
		check(rc == -EFAULT, "map_addr in a hole (unmapped) -> EFAULT "
		      "(%d)", rc);
	} else {
		check(0, "munmap: %s", strerror(errno));
	}

	rc = start(dev, start_phys, fd, map);
	check(rc == 0, "its own range, mapped -> runs (%d)", rc);
	memset(&r, 0, sizeof(r));
	/* the result first: check()'s arguments have no order */
	rc = !rc && wait_done(dev) == LATT_STATE_DONE &&
	     !xioctl(dev, LATT_IOC_RESULT, &r);
	check(rc && r.count == 1000 &&
	      r.config.map_addr == (__u64)(uintptr_t)map &&
	      r.chunk_size == 4 << 20,
	      "DONE: %llu samples, chunk_size %llu",
	      (unsigned long long)r.count, (unsigned long long)r.chunk_size);
	rc = start(dev, start_phys + (4 << 20), fd, (char *)map + (4 << 20));
	check(rc == 0 && wait_done(dev) == LATT_STATE_DONE,
	      "4 MiB further in, mapped there -> runs (%d)", rc);

	return tap_done("dax-tie");
}
