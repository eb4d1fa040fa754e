/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cxl.h - CXL memory as lattester-ctl sees it, through libcxl: memory
 * devices, root decoders (the platform's CXL windows of host physical
 * address space) and regions, each region with the device-DAX device and
 * the NUMA node its memory ended up as (libdaxctl, matched by address).
 * cxl_inv_scan() takes one snapshot; cxl_inv_resolve() turns `run
 * --target cxl:regionN` into what the region is now: its device-DAX
 * device (measured in place) or the node its memory was onlined to
 * (measured as dram:NODE).
 *
 * libcxl is optional at build time (HAVE_LIBCXL, user/Makefile): without
 * it the inventory is empty with @libcxl false, and cxl_inv_resolve()
 * refuses every region saying so.
 */
#ifndef _LATT_CXL_H
#define _LATT_CXL_H

#include <limits.h>
#include <stdbool.h>

#include "pmem.h"

#define CXL_NAME	64
#define CXL_UNKNOWN	(~0ULL)	/* an address or size libcxl can't read */
#define CXL_MAX_WAYS	16	/* the most interleave ways CXL has */
#define CXL_WHY		640

/**
 * struct cxl_inv_memdev - a CXL memory device (memN)
 * @host: the device it is, e.g. the PCI function "0000:0d:00.0"
 * @numa_node: the device's node (its CPUs' side), -1 unknown
 */
struct cxl_inv_memdev {
	char name[CXL_NAME];
	char host[CXL_NAME];
	unsigned long long serial, ram_size, pmem_size;
	int numa_node;
};

/**
 * struct cxl_inv_decoder - a root decoder: a window of host physical
 * address space the platform routes to CXL (ACPI CFMWS), regions are made in
 * @start, @size: the window; CXL_UNKNOWN if unreadable (start: root only)
 * @ways, @granularity: its interleave (0 unknown)
 * @ram, @pmem: what it may hold (volatile, persistent memory)
 */
struct cxl_inv_decoder {
	char name[CXL_NAME];
	char port[CXL_NAME];	/* root0 */
	unsigned long long start, size;
	unsigned int ways, granularity;
	bool ram, pmem;
};

/* One position of a region's interleave: the memdev and its decoder. */
struct cxl_inv_target {
	unsigned int position;
	char memdev[CXL_NAME];	/* "" if unknown */
	char decoder[CXL_NAME];	/* the endpoint decoder: decoder2.0 */
};

/**
 * struct cxl_inv_region - a CXL region (regionN) and what it is now
 * @decoder: the root decoder it lies in
 * @mode: "ram", "pmem", or "none" when no endpoint decoder says (libcxl 76
 *	has no cxl_region_get_mode(): its position 0's endpoint decoder's)
 * @start, @size: its host physical range; CXL_UNKNOWN if unknown
 * @committed: its decoders decode the range; @enabled: a driver has it
 * @targets, @nr_targets: the memdevs behind its positions, by position
 * @dax: its one device-DAX device, if @nr_dax is 1 (libdaxctl, the device
 *	whose range lies in @start..@size: libcxl 76 has no
 *	cxl_region_get_daxctl_region())
 * @nr_dax, @dax_names: how many lie there, and their names ("dax0.0 dax1.0")
 * @nd_region: a pmem region: the libnvdimm region over it ("" if none)
 * @resolved: what `run --target cxl:NAME` measures now: "/dev/daxX.Y" or
 *	"dram:NODE"; "" if nothing, and then @why says why, in words that
 *	name the fix
 */
struct cxl_inv_region {
	char name[CXL_NAME];
	char decoder[CXL_NAME];
	char mode[16];
	unsigned long long start, size;
	unsigned int ways, granularity;
	bool committed, enabled;
	struct cxl_inv_target targets[CXL_MAX_WAYS];
	unsigned int nr_targets;
	struct pmem_dax dax;
	unsigned int nr_dax;
	char dax_names[4 * PMEM_NAME];
	char nd_region[PMEM_NAME];
	char resolved[PATH_MAX];
	char why[CXL_WHY];
};

/**
 * struct cxl_inventory - cxl_inv_scan()'s snapshot
 * @libcxl: this lattester-ctl was built with libcxl (else all empty)
 */
struct cxl_inventory {
	bool libcxl;
	struct cxl_inv_memdev *memdevs;
	unsigned int nr_memdevs;
	struct cxl_inv_decoder *decoders;
	unsigned int nr_decoders;
	struct cxl_inv_region *regions;
	unsigned int nr_regions;
};

/**
 * struct cxl_inv_resolved - what `--target cxl:regionN` resolved to
 * @region, @mode: the region ("region0") and its mode
 * @dax: its device-DAX device ("dax0.0")
 * @device: "/dev/dax0.0" when that is measured in place; "" for a node
 * @node: the node to measure as dram:NODE (system-ram), else -1
 * @size: the region's bytes (CXL_UNKNOWN if libcxl could not read them)
 * @resolved: "/dev/dax0.0" or "dram:1", for the reports
 * @note: what the region is now, in words, for the reports
 */
struct cxl_inv_resolved {
	char region[CXL_NAME];
	char mode[16];
	char dax[PMEM_NAME];
	char device[PATH_MAX];
	int node;
	unsigned long long size;
	char resolved[PATH_MAX];
	char note[256];
};

int cxl_inv_scan(struct cxl_inventory *inv, const struct pmem_inventory *pm);
void cxl_inv_free(struct cxl_inventory *inv);
void cxl_inv_note(char *buf, size_t len, const struct cxl_inv_region *r);
int cxl_inv_resolve(const char *spec, const char *region,
		    struct cxl_inv_resolved *res);

#endif /* _LATT_CXL_H */
