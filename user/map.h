/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map.h - persistent memory mapped into lattester-ctl for the user engine:
 * a device-DAX device (mmap at the device's alignment) or a file on a DAX
 * filesystem (mmap with MAP_SYNC), checked, locked and pre-faulted.
 */
#ifndef _LATT_MAP_H
#define _LATT_MAP_H

#include <stdbool.h>
#include <linux/types.h>

#include "pmem.h"

/**
 * struct map_region - a mapping and the region inside it
 * @map, @len: what mmap() returned, for munmap()
 * @base: the region's first byte (the target's byte at the run's offset)
 * @align: the mapping's alignment (device-DAX), else the page size
 */
struct map_region {
	void *map;
	__u64 len;
	char *base;
	__u64 align;
};

int map_target(const char *spec, const struct pmem_target *t, int fd,
	       __u64 offset, __u64 len, bool writes, struct map_region *m);
void map_release(struct map_region *m);
int map_check_dax_file(const char *spec, const struct pmem_target *t);

/* The pieces, for the unit test (tests/unit/test-map.c). */
void map_window(__u64 offset, __u64 len, __u64 align, __u64 *start,
		__u64 *size);
int map_devdax_align(int fd, __u64 *align);
int map_file_gap(int fd, __u64 offset, __u64 len, __u64 *gap);
int map_file_gap_seek(int fd, __u64 offset, __u64 len, __u64 *gap);
void map_prefault(char *p, __u64 len, bool writes);

#endif /* _LATT_MAP_H */
