// SPDX-License-Identifier: GPL-2.0
/*
 * reuse-pmem - a kept pmem region is checked for bad blocks again before
 * the next run takes it (ABI 2.1, LATT_CFG_REUSE), TAP output.
 *
 * Usage: reuse-pmem /dev/pmemN PHYS SIZE SECTOR
 *   PHYS, SIZE: a clean range of the disk's DAX range; SECTOR: a sector
 *   of the disk inside it, which is then listed as bad (8 sectors).
 *
 * A load run keeps the region; the same one again takes it; then a bad
 * block appears in the disk's list (as a scrub or a machine check taken
 * elsewhere would put it there) and the next START on the kept region is
 * refused with EHWPOISON, as a fresh one is: a kernel-mode load of
 * poison is a machine check the kernel does not survive.  The bad block
 * stays listed: run this last.
 */
#include <libgen.h>
#include <stdint.h>
#include <uapi/lattester.h>
#include "../tap.h"
#include "vmtest.h"

static int start(int dev, __u64 phys, __u64 size, int fd, __u32 flags,
		 struct latt_result *r)
{
	struct latt_config c = vm_base_config();
	int ret;

	c.pattern = LATT_PAT_SEQ;
	c.target = LATT_TARGET_PMEM;
	c.node = LATT_NODE_LOCAL;
	c.region = size;
	c.phys_addr = phys;
	c.fd = fd;
	c.flags = flags;
	ret = xioctl(dev, LATT_IOC_START, &c);
	if (ret)
		return ret;
	if (vm_wait_done(dev, 6000) != LATT_STATE_DONE)
		return -1000;
	memset(r, 0, sizeof(*r));
	return xioctl(dev, LATT_IOC_RESULT, r) ? -1001 : 0;
}

int main(int argc, char **argv)
{
	char bb[128], line[64];
	struct latt_result r;
	__u64 phys, size;
	int dev, fd, ret;
	FILE *f;

	if (argc != 5) {
		fprintf(stderr, "usage: reuse-pmem /dev/pmemN PHYS SIZE SECTOR\n");
		return 2;
	}
	phys = strtoull(argv[2], NULL, 0);
	size = strtoull(argv[3], NULL, 0);
	dev = open_dev();
	fd = open(argv[1], O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		printf("Bail out! open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	ret = start(dev, phys, size, fd, LATT_CFG_REUSE, &r);
	check(!ret && !(r.flags & LATT_RES_REUSED),
	      "a load run on the clean range, kept: %d (flags %#x)", ret,
	      r.flags);
	ret = start(dev, phys, size, fd, LATT_CFG_REUSE, &r);
	check(!ret && (r.flags & LATT_RES_REUSED),
	      "the same again takes the kept region: %d (flags %#x)", ret,
	      r.flags);

	snprintf(bb, sizeof(bb), "/sys/block/%s/badblocks", basename(argv[1]));
	snprintf(line, sizeof(line), "%s 8\n", argv[4]);
	f = fopen(bb, "w");
	ret = f && fputs(line, f) >= 0;
	if (f && fclose(f))
		ret = 0;
	check(ret, "sector %s listed bad in %s", argv[4], bb);

	ret = start(dev, phys, size, fd, LATT_CFG_REUSE, &r);
	check(ret == -EHWPOISON, "the kept region, with a bad block now: "
	      "EHWPOISON (%d)", ret);
	ret = start(dev, phys, size, fd, 0, &r);
	check(ret == -EHWPOISON, "a fresh region there: EHWPOISON (%d)", ret);
	close(fd);
	close(dev);
	return tap_done("reuse-pmem");
}
