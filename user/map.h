/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map.h - persistent memory mapped into lattester-ctl for the user engine:
 * a device-DAX device (mmap at the device's alignment) or a file on a DAX
 * filesystem (mmap with MAP_SYNC), checked, locked and pre-faulted under a
 * SIGBUS guard; and the arithmetic of a target's bytes that both engines'
 * checks share: known bad blocks (lists of struct pmem_bad), where a file's
 * bytes lie on its device (FIEMAP), the largest stretch free of bad blocks.
 */
#ifndef _LATT_MAP_H
#define _LATT_MAP_H

#include <stdbool.h>
#include <stdio.h>
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
	bool sigbus;		/* holds map_sigbus_hold() */
};

/**
 * struct map_fault - a SIGBUS that map_guard() caught
 * @hit: there was one
 * @code: its si_code (BUS_ADRERR: the page is gone or can't be mapped;
 *	BUS_MCEERR_AR/AO: poison consumed)
 * @addr: the address of the access
 */
struct map_fault {
	bool hit;
	int code;
	char *addr;
};

int map_target(const char *spec, const struct pmem_target *t, int fd,
	       __u64 offset, __u64 len, bool writes, struct map_region *m);
void map_release(struct map_region *m);
int map_devdax_for_module(const char *spec, const struct pmem_target *t,
			  int fd, __u64 offset, __u64 len, bool writes,
			  struct map_region *m);
int map_check_dax_file(const char *spec, const struct pmem_target *t);

/* The pieces, for the unit test (tests/unit/test-map.c). */
void map_window(__u64 offset, __u64 len, __u64 align, __u64 *start,
		__u64 *size);
int map_devdax_align(int fd, __u64 *align);
int map_file_gap(int fd, __u64 offset, __u64 len, __u64 *gap);
int map_file_gap_seek(int fd, __u64 offset, __u64 len, __u64 *gap);
void map_prefault(char *p, __u64 len, bool writes);
#define MAP_HUGE	(2ULL << 20)	/* a transparent huge page */
__u64 map_page_size_from(FILE *f, const char *base, __u64 len, char *note,
			 size_t nlen);
__u64 map_page_size(const char *base, __u64 len, char *note, size_t nlen);

/* The SIGBUS guard: the handler is installed while a hold is taken. */
int map_sigbus_hold(void);
void map_sigbus_release(void);
int map_guard(int (*fn)(void *arg), void *arg, struct map_fault *f);
int map_prefault_guarded(char *p, __u64 len, bool writes,
			 struct map_fault *f);

/* Lists of bad blocks (pmem.h's struct pmem_badlist). */
int map_bad_add(struct pmem_badlist *bl, __u64 offset, __u64 len, __u64 phys);
void map_bad_sort(struct pmem_badlist *bl);
void map_bad_free(struct pmem_badlist *bl);
const struct pmem_bad *map_bad_find(const struct pmem_badlist *bl,
				    __u64 offset, __u64 len,
				    unsigned int *count);
int map_bad_clip(const struct pmem_badlist *from, __u64 start, __u64 len,
		 __u64 phys, struct pmem_badlist *to);
int map_clean_stretch(const struct pmem_badlist *bl, __u64 from, __u64 to,
		      __u64 align, __u64 *start, __u64 *end);
int map_file_bad(int fd, __u64 offset, __u64 len,
		 const struct pmem_badlist *dev, struct pmem_badlist *out);

#endif /* _LATT_MAP_H */
