/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmem.h - persistent memory as lattester-ctl sees it, through libndctl and
 * libdaxctl: regions, namespaces (mode, usable physical range, NUMA node,
 * the device that claims them, a filesystem mounted on them) and device-DAX
 * devices.  pmem_scan() takes one snapshot; pmem_resolve() turns a --target
 * of `run` into the device to claim and the physical range to measure (or,
 * for the user engine, a file on a DAX filesystem and the namespace under
 * it).  Both know the bad blocks (media errors) the kernel knows of:
 * pmem_scan() per region and namespace, pmem_target_badblocks() for the
 * target of a run.
 */
#ifndef _LATT_PMEM_H
#define _LATT_PMEM_H

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define PMEM_NAME	64
#define PMEM_UNKNOWN	(~0ULL)		/* a size or address libndctl can't read */
#define PMEM_SECTOR	512ULL		/* the unit of the kernel's badblocks */

/**
 * struct pmem_bad - a run of known bad blocks (media errors)
 * @offset: its first byte, from the start of what the list belongs to (a
 *	region, a namespace's usable range, a target, a file)
 * @len: its bytes (whole 512-byte blocks, as the kernel keeps them)
 * @phys: the physical address of @offset, or PMEM_UNKNOWN
 */
struct pmem_bad {
	unsigned long long offset, len, phys;
};

/* struct pmem_badlist's @state */
enum pmem_bb_state {
	PMEM_BB_KNOWN,		/* @bad is every known bad block */
	PMEM_BB_UNLOCATED,	/* some can't be placed (@why): assume the worst */
	PMEM_BB_NOLIST,		/* the kernel keeps no list for it (@why) */
};

/**
 * struct pmem_badlist - the known bad blocks of a region, namespace or
 * target: sorted by offset, overlapping and adjacent runs merged
 * @bad, @nr: the runs
 * @state: PMEM_BB_*
 * @why: for PMEM_BB_UNLOCATED and PMEM_BB_NOLIST, why
 *
 * The kernel keeps two lists: each region's (its bus's poison list: what an
 * address range scrub or a machine check found, /sys/bus/nd/devices/regionN/
 * badblocks) and each pmem disk's (/sys/block/pmemN/badblocks: the region's
 * part under the disk when the disk was probed or told, plus what was
 * written there).  A namespace's list is the union of both, the region's
 * mapped into its range; device-DAX has only the region's.
 */
struct pmem_badlist {
	struct pmem_bad *bad;
	unsigned int nr;
	int state;
	char why[192];
};

/**
 * struct pmem_ns - one namespace of a region
 * @size: the capacity ndctl reports: the pfn's (fsdax), the dax's (devdax),
 *	the btt's (sector) or the namespace's (raw)
 * @raw_size: the namespace's own size (labels, info block included)
 * @phys_start, @phys_size: where the data lives: PMEM_UNKNOWN if unknown
 *	(not root) or meaningless (sector mode, disabled)
 * @blockdev: "pmem0" (fsdax, raw, sector) or ""; @chardev: "dax0.1" or ""
 * @rdev: the device number of /dev/@blockdev or /dev/@chardev, 0 if none
 * @mount: where a filesystem on /dev/@blockdev is mounted, "" if nowhere
 * @numa_node: the device's node (the CPUs nearest to it), as ndctl's
 *	numa_node; @target_node: the node its memory lands on when it is
 *	onlined (ndctl's target_node; for CXL or memory-only NUMA, not the
 *	same).  -1 if unknown.
 */
struct pmem_ns {
	char name[PMEM_NAME];
	char mode[16];		/* fsdax, devdax, raw, sector, unknown */
	char region[PMEM_NAME];
	char blockdev[PMEM_NAME];
	char chardev[PMEM_NAME];
	bool active;		/* enabled, or claimed by an enabled pfn/dax/btt */
	int numa_node;		/* -1 if unknown */
	int target_node;	/* -1 if unknown */
	unsigned long long size, raw_size;
	unsigned long long phys_start, phys_size;
	dev_t rdev;
	char mount[PATH_MAX];
	struct pmem_badlist bb;	/* offsets from @phys_start's byte (the
				 * namespace's for sector mode) */
};

/*
 * Where a store becomes durable (the region's persistence domain, as the
 * platform reports it: ACPI NFIT's platform capabilities, through the
 * kernel's /sys/bus/nd/devices/regionN/persistence_domain and libndctl):
 * PMEM_PERSIST_CPU_CACHE (eADR: the CPU caches are flushed on power loss,
 * a store is durable once globally visible), PMEM_PERSIST_MEM_CTRL (ADR:
 * the memory controller's queues are, the line must be written back),
 * "none" (nothing survives), "unknown" (the platform says nothing).
 */
#define PMEM_PERSIST_CPU_CACHE	"cpu_cache"
#define PMEM_PERSIST_MEM_CTRL	"memory_controller"
#define PMEM_PERSIST_NONE	"none"
#define PMEM_PERSIST_UNKNOWN	"unknown"

struct pmem_region {
	char name[PMEM_NAME];
	char type[16];		/* pmem, blk, unknown */
	char persistence[24];	/* PMEM_PERSIST_* */
	char bus[PMEM_NAME];	/* the bus provider: ACPI.NFIT, e820, ... */
	int numa_node, target_node;	/* as struct pmem_ns's; -1 unknown */
	unsigned long long size, available, phys_start;
	bool enabled;
	struct pmem_badlist bb;	/* offsets from @phys_start */
};

/**
 * struct pmem_dax - one device-DAX device (libdaxctl)
 * @mode: "devdax", "system-ram" (bound to kmem: its memory is, or was, hot
 *	added to @target_node; as daxctl list says), or "disabled"
 * @namespace: "" if no libnvdimm namespace (hmem, a CXL ram region)
 * @numa_node: the namespace's numa_node, else @target_node
 * @target_node: where its memory lands (daxctl's target_node), -1 unknown
 * @mem_online, @mem_blocks: system-ram: memory blocks online, and all of
 *	its blocks (daxctl's online_memblocks, total_memblocks); -1 unknown
 *	(not system-ram, or not root)
 * @movable: system-ram: 1 if its memory is ZONE_MOVABLE, 0 if not, -1
 *	unknown
 * @phys_start, @phys_size: the first contiguous range; PMEM_UNKNOWN if
 *	unreadable (not root)
 */
struct pmem_dax {
	char name[PMEM_NAME];	/* dax0.1 */
	char mode[16];
	char namespace[PMEM_NAME];
	int region_id;
	int numa_node, target_node;
	int mem_online, mem_blocks, movable;
	unsigned long long size, phys_start, phys_size;
	unsigned int major, minor;
};

struct pmem_inventory {
	struct pmem_region *regions;
	unsigned int nr_regions;
	struct pmem_ns *ns;
	unsigned int nr_ns;
	struct pmem_dax *dax;
	unsigned int nr_dax;
};

/**
 * struct pmem_target - what `run --target PATH|namespaceX.Y` resolves to
 * @kind: "pmem" (a block device is claimed), "devdax" (a character device)
 *	or "fsdax-file" (a regular file, for the user engine)
 * @device: the device to open: /dev/pmemN or /dev/daxX.Y; for a file, the
 *	pmem block device its filesystem is on ("" if none is known)
 * @file: a fsdax-file's path as given, the file to open; else ""
 * @namespace, @mode, @region: "" when unknown (a device-DAX device with no
 *	libnvdimm namespace has mode "devdax" and region "dax region N")
 * @numa_node: where the memory lies: the target node (see struct pmem_ns),
 *	else the device's node, -1 if neither is known
 * @phys_start, @phys_size: the usable physical range; PMEM_UNKNOWN for a
 *	file, or when it can't be read (PMEM_RESOLVE_NOPHYS, not root)
 * @size: bytes measurable from offset 0: @phys_size, else the device's or
 *	the file's size
 * @persistence: @region's persistence domain (PMEM_PERSIST_*); "unknown"
 *	where no libnvdimm region is known (a device-DAX device of no
 *	namespace, a file on no pmem disk)
 */
struct pmem_target {
	char kind[16];
	char device[PATH_MAX];
	char file[PATH_MAX];
	char namespace[PMEM_NAME];
	char mode[16];
	char region[PMEM_NAME];
	char persistence[24];	/* @region's, PMEM_PERSIST_* */
	int numa_node;
	unsigned long long phys_start, phys_size, size;
	bool block;
	char mount[PATH_MAX];
};

/* pmem_resolve()'s flags */
enum {
	PMEM_RESOLVE_PATH	= 1 << 0,	/* @spec is a path, not a name */
	PMEM_RESOLVE_FILES	= 1 << 1,	/* a regular file is a target */
	PMEM_RESOLVE_NOPHYS	= 1 << 2,	/* no physical range is fine */
};

int pmem_scan(struct pmem_inventory *inv);
void pmem_free(struct pmem_inventory *inv);
int pmem_resolve(const char *spec, unsigned int flags, struct pmem_target *t);
int pmem_mount_of(dev_t dev, char *buf, size_t len);
int pmem_target_badblocks(const struct pmem_target *t,
			  struct pmem_badlist *bl);
unsigned long long pmem_bad_sectors(const struct pmem_badlist *bl);

/*
 * inv_push() - grow the array *@arr_p of an inventory (pmem.c, cxl.c) by
 * one zeroed element of @size bytes, counted in *@nr; NULL if out of
 * memory (the array is then as it was)
 */
static inline void *inv_push(void *arr_p, unsigned int *nr, size_t size)
{
	void **arr = arr_p;
	char *p = realloc(*arr, (*nr + 1) * size);

	if (!p)
		return NULL;
	*arr = p;
	memset(p + *nr * size, 0, size);
	return p + (*nr)++ * size;
}

#endif /* _LATT_PMEM_H */
