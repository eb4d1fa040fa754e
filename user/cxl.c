// SPDX-License-Identifier: GPL-2.0
/*
 * cxl.c - see cxl.h.  The topology comes from libcxl (76 or later); what a
 * region's memory became, from libdaxctl through pmem.c's inventory.
 * libcxl 76 can't tell a region's mode or its dax region, so:
 *
 *  - a region's mode is that of the endpoint decoder at its position 0
 *    (cxl_decoder_get_mode()): ram or pmem;
 *  - its device-DAX device is the one whose physical range starts inside
 *    the region's (daxctl_dev_get_resource()), and the node its memory
 *    lands on that device's target node (daxctl_dev_get_target_node());
 *    system-ram when kmem holds it (daxctl_dev_get_memory()).  No libcxl
 *    call gives a region's NUMA node.
 *
 * The ranges need root (the kernel shows them to root only): as another
 * user the device-DAX device of a region can't be found, and the region
 * says so instead of resolving.  No CXL at all (no /sys/bus/cxl) is an
 * empty inventory.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBCXL
#include <cxl/libcxl.h>
#endif

#include "cxl.h"
#include "log.h"

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

#ifdef HAVE_LIBCXL
/* libcxl's messages go to our log, at debug level. */
static void cxl_log(struct cxl_ctx *ctx, int prio, const char *file, int line,
		    const char *fn, const char *fmt, va_list ap)
{
	(void)ctx;
	(void)file;
	(void)line;
	log_lib("libcxl", prio, fn, fmt, ap);
}

static const char *decoder_mode(struct cxl_decoder *d)
{
	switch (cxl_decoder_get_mode(d)) {
	case CXL_DECODER_MODE_RAM:	return "ram";
	case CXL_DECODER_MODE_PMEM:	return "pmem";
	case CXL_DECODER_MODE_MIXED:	return "mixed";
	default:			return "none";
	}
}

/* libcxl's "unreadable" (all ones) as 0, our "unknown" for interleaves */
static unsigned int known_uint(unsigned int v)
{
	return v == ~0U ? 0 : v;
}

static int scan_memdevs(struct cxl_inventory *inv, struct cxl_ctx *ctx)
{
	struct cxl_memdev *memdev;
	struct cxl_inv_memdev *m;

	cxl_memdev_foreach(ctx, memdev) {
		m = inv_push(&inv->memdevs, &inv->nr_memdevs, sizeof(*m));
		if (!m)
			return -ENOMEM;
		copy(m->name, sizeof(m->name), cxl_memdev_get_devname(memdev));
		copy(m->host, sizeof(m->host), cxl_memdev_get_host(memdev));
		m->serial = cxl_memdev_get_serial(memdev);
		m->ram_size = cxl_memdev_get_ram_size(memdev);
		m->pmem_size = cxl_memdev_get_pmem_size(memdev);
		m->numa_node = cxl_memdev_get_numa_node(memdev);
	}
	return 0;
}

/*
 * The memdev behind each position of @region, in position order, and the
 * region's mode: its position 0's endpoint decoder's.
 */
static void scan_targets(struct cxl_inv_region *r, struct cxl_region *region)
{
	struct cxl_memdev_mapping *map;
	struct cxl_decoder *d;
	struct cxl_memdev *md;
	struct cxl_inv_target t;
	unsigned int i;

	copy(r->mode, sizeof(r->mode), "none");
	/* libcxl reads target0..target<ways-1>: not with unknown ways */
	if (!r->ways || r->ways > CXL_MAX_WAYS)
		return;
	cxl_mapping_foreach(region, map) {
		if (r->nr_targets >= CXL_MAX_WAYS)
			break;
		d = cxl_mapping_get_decoder(map);
		md = d ? cxl_decoder_get_memdev(d) : NULL;
		memset(&t, 0, sizeof(t));
		t.position = cxl_mapping_get_position(map);
		copy(t.decoder, sizeof(t.decoder),
		     d ? cxl_decoder_get_devname(d) : NULL);
		copy(t.memdev, sizeof(t.memdev),
		     md ? cxl_memdev_get_devname(md) : NULL);
		if (d && t.position == 0)
			copy(r->mode, sizeof(r->mode), decoder_mode(d));
		/* in position order (libcxl keeps them the other way round) */
		for (i = r->nr_targets; i > 0 &&
		     r->targets[i - 1].position > t.position; i--)
			r->targets[i] = r->targets[i - 1];
		r->targets[i] = t;
		r->nr_targets++;
	}
}

static int scan_regions(struct cxl_inventory *inv, struct cxl_decoder *decoder)
{
	struct cxl_region *region;
	struct cxl_inv_region *r;
	unsigned long long v;

	cxl_region_foreach(decoder, region) {
		r = inv_push(&inv->regions, &inv->nr_regions, sizeof(*r));
		if (!r)
			return -ENOMEM;
		copy(r->name, sizeof(r->name), cxl_region_get_devname(region));
		copy(r->decoder, sizeof(r->decoder),
		     cxl_decoder_get_devname(decoder));
		/* libcxl leaves 0 for a range it can't read or that has none */
		v = cxl_region_get_resource(region);
		r->start = v && v != ~0ULL ? v : CXL_UNKNOWN;
		v = cxl_region_get_size(region);
		r->size = v != ~0ULL ? v : CXL_UNKNOWN;
		r->ways = known_uint(cxl_region_get_interleave_ways(region));
		r->granularity =
			known_uint(cxl_region_get_interleave_granularity(region));
		r->committed = cxl_region_decode_is_committed(region) > 0;
		r->enabled = cxl_region_is_enabled(region) > 0;
		r->dax.target_node = r->dax.numa_node = -1;
		scan_targets(r, region);
	}
	return 0;
}

static int scan_decoders(struct cxl_inventory *inv, struct cxl_ctx *ctx)
{
	struct cxl_decoder *decoder;
	struct cxl_inv_decoder *d;
	struct cxl_port *port;
	struct cxl_bus *bus;
	unsigned long long v;
	int rc;

	cxl_bus_foreach(ctx, bus) {
		port = cxl_bus_get_port(bus);
		if (!port)
			continue;
		cxl_decoder_foreach(port, decoder) {
			d = inv_push(&inv->decoders, &inv->nr_decoders, sizeof(*d));
			if (!d)
				return -ENOMEM;
			copy(d->name, sizeof(d->name),
			     cxl_decoder_get_devname(decoder));
			copy(d->port, sizeof(d->port), cxl_port_get_devname(port));
			v = cxl_decoder_get_resource(decoder);
			d->start = v && v != ~0ULL ? v : CXL_UNKNOWN;
			v = cxl_decoder_get_size(decoder);
			d->size = v != ~0ULL ? v : CXL_UNKNOWN;
			d->ways = known_uint(cxl_decoder_get_interleave_ways(decoder));
			d->granularity = known_uint(
				cxl_decoder_get_interleave_granularity(decoder));
			d->ram = cxl_decoder_is_volatile_capable(decoder);
			d->pmem = cxl_decoder_is_pmem_capable(decoder);
			rc = scan_regions(inv, decoder);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int scan_libcxl(struct cxl_inventory *inv)
{
	struct cxl_ctx *ctx;
	int rc;

	inv->libcxl = true;
	/* it only allocates: a machine without CXL still gets a context */
	rc = cxl_new(&ctx);
	if (rc) {
		log_dbg("libcxl: cxl_new: %s", strerror(-rc));
		return rc;
	}
	cxl_set_log_fn(ctx, cxl_log);
	rc = scan_memdevs(inv, ctx);
	if (!rc)
		rc = scan_decoders(inv, ctx);
	cxl_unref(ctx);
	return rc;
}
#else
static int scan_libcxl(struct cxl_inventory *inv)
{
	inv->libcxl = false;
	return 0;
}
#endif /* HAVE_LIBCXL */

/* "region12" -> 12: the order to list regions in */
static unsigned long name_id(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(name, prefix, n) ? ~0UL : strtoul(name + n, NULL, 10);
}

static int cmp_region(const void *a, const void *b)
{
	unsigned long x = name_id(((const struct cxl_inv_region *)a)->name,
				  "region");
	unsigned long y = name_id(((const struct cxl_inv_region *)b)->name,
				  "region");

	return x < y ? -1 : x > y;
}

static int cmp_memdev(const void *a, const void *b)
{
	unsigned long x = name_id(((const struct cxl_inv_memdev *)a)->name,
				  "mem");
	unsigned long y = name_id(((const struct cxl_inv_memdev *)b)->name,
				  "mem");

	return x < y ? -1 : x > y;
}

static bool inside(unsigned long long addr, unsigned long long start,
		   unsigned long long size)
{
	return addr != PMEM_UNKNOWN && start != CXL_UNKNOWN &&
	       size != CXL_UNKNOWN && addr >= start && addr - start < size;
}

/* @r's device-DAX devices and libnvdimm region, by address, from @pm. */
static void match_dax(struct cxl_inv_region *r, const struct pmem_inventory *pm)
{
	const struct pmem_dax *d;
	size_t len;
	unsigned int i;

	for (i = 0; i < pm->nr_dax; i++) {
		d = &pm->dax[i];
		if (!inside(d->phys_start, r->start, r->size))
			continue;
		if (!r->nr_dax++)
			r->dax = *d;
		len = strlen(r->dax_names);
		snprintf(r->dax_names + len, sizeof(r->dax_names) - len, "%s%s",
			 len ? ", " : "", d->name);
	}
	for (i = 0; i < pm->nr_regions; i++)
		if (inside(pm->regions[i].phys_start, r->start, r->size))
			copy(r->nd_region, sizeof(r->nd_region),
			     pm->regions[i].name);
}

/* Some device-DAX device whose range can't be read (not root)? */
static bool dax_unplaced(const struct pmem_inventory *pm)
{
	unsigned int i;

	for (i = 0; i < pm->nr_dax; i++)
		if (pm->dax[i].phys_start == PMEM_UNKNOWN)
			return true;
	return false;
}

/* The measurable namespaces of libnvdimm region @nd: "namespace1.0, ..." */
static void nd_namespaces(char *buf, size_t len,
			  const struct pmem_inventory *pm, const char *nd)
{
	const struct pmem_ns *n;
	unsigned int i;
	size_t at;

	buf[0] = '\0';
	for (i = 0; i < pm->nr_ns; i++) {
		n = &pm->ns[i];
		if (strcmp(n->region, nd) || !n->active ||
		    !strcmp(n->mode, "sector"))
			continue;
		at = strlen(buf);
		snprintf(buf + at, len - at, "%s%s", at ? ", " : "", n->name);
	}
}

/* Why a region with no device-DAX device can't be measured, and the fix. */
static void why_no_dax(struct cxl_inv_region *r, const struct pmem_inventory *pm)
{
	char nss[192];

	if (!strcmp(r->mode, "pmem") && !r->nd_region[0]) {
		snprintf(r->why, sizeof(r->why), "a pmem region with no libnvdimm region over it, hence no device-DAX device (is cxl_pmem loaded? see 'ndctl list -R')");
		return;
	}
	if (!strcmp(r->mode, "pmem")) {
		nd_namespaces(nss, sizeof(nss), pm, r->nd_region);
		if (nss[0])
			snprintf(r->why, sizeof(r->why), "a pmem region with no device-DAX device: measure its namespaces by name (%s, --target namespaceX.Y), or make a devdax one ('ndctl create-namespace -r %s -m devdax')", nss, r->nd_region);
		else
			snprintf(r->why, sizeof(r->why), "a pmem region with no device-DAX device: make one ('ndctl create-namespace -r %s -m devdax')", r->nd_region);
		return;
	}
	snprintf(r->why, sizeof(r->why), "committed but has no dax device (a ram region gets one from the dax_cxl module: 'modprobe dax_cxl'; see 'daxctl list')");
}

/*
 * What `--target cxl:NAME` measures now (@r->resolved), or why nothing
 * (@r->why): its one device-DAX device, in place; or, kmem holding that,
 * the node its memory was onlined to.
 */
static void resolve_region(struct cxl_inv_region *r,
			   const struct pmem_inventory *pm)
{
	const struct pmem_dax *d = &r->dax;

	if (!r->committed) {
		snprintf(r->why, sizeof(r->why), "not committed: its decoders don't decode its range yet (commit it: echo 1 > /sys/bus/cxl/devices/%s/commit, or make it with 'cxl create-region')", r->name);
		return;
	}
	if (!r->enabled) {
		snprintf(r->why, sizeof(r->why), "committed but not enabled, no driver has it ('cxl enable-region %s')", r->name);
		return;
	}
	if (r->start == CXL_UNKNOWN || r->size == CXL_UNKNOWN) {
		snprintf(r->why, sizeof(r->why), "its physical range is unknown (libcxl could not read it: are you root?), so its dax device can't be found");
		return;
	}
	if (!r->nr_dax && dax_unplaced(pm)) {
		snprintf(r->why, sizeof(r->why), "its dax device can't be found: libdaxctl can't read the devices' physical ranges (are you root?)");
		return;
	}
	if (!r->nr_dax) {
		why_no_dax(r, pm);
		return;
	}
	if (r->nr_dax > 1) {
		snprintf(r->why, sizeof(r->why), "it holds %u dax devices (%s): name one, --target /dev/daxX.Y (or its node, dram:NODE)", r->nr_dax, r->dax_names);
		return;
	}
	if (!strcmp(d->mode, "devdax")) {
		snprintf(r->resolved, sizeof(r->resolved), "/dev/%s", d->name);
	} else if (strcmp(d->mode, "system-ram")) {
		snprintf(r->why, sizeof(r->why), "its dax device %s is %s, no driver has it: bind it ('daxctl reconfigure-device --mode=devdax %s', or --mode=system-ram for a node)", d->name, d->mode, d->name);
	} else if (d->mem_online == 0) {
		snprintf(r->why, sizeof(r->why), "its dax device %s is in system-ram mode with its memory offline: online it ('daxctl online-memory %s'), or make it device-DAX ('daxctl reconfigure-device --mode=devdax %s')", d->name, d->name, d->name);
	} else if (d->target_node < 0) {
		snprintf(r->why, sizeof(r->why), "its dax device %s is in system-ram mode, but the node its memory is on is unknown (see 'daxctl list')", d->name);
	} else {
		snprintf(r->resolved, sizeof(r->resolved), "dram:%d",
			 d->target_node);
	}
}

/**
 * cxl_inv_scan() - memdevs, root decoders and regions, now
 * @pm: pmem_scan()'s inventory, where each region's dax device is looked
 *	for; NULL: none is
 *
 * Returns 0 (an empty inventory where there is no CXL, or no libcxl), or
 * -ENOMEM.
 */
int cxl_inv_scan(struct cxl_inventory *inv, const struct pmem_inventory *pm)
{
	static const struct pmem_inventory none;
	unsigned int i;
	int rc;

	memset(inv, 0, sizeof(*inv));
	rc = scan_libcxl(inv);
	if (rc) {
		cxl_inv_free(inv);
		return rc;
	}
	if (inv->nr_regions)
		qsort(inv->regions, inv->nr_regions, sizeof(*inv->regions),
		      cmp_region);
	if (inv->nr_memdevs)
		qsort(inv->memdevs, inv->nr_memdevs, sizeof(*inv->memdevs),
		      cmp_memdev);
	for (i = 0; i < inv->nr_regions; i++) {
		match_dax(&inv->regions[i], pm ? pm : &none);
		resolve_region(&inv->regions[i], pm ? pm : &none);
	}
	return 0;
}

void cxl_inv_free(struct cxl_inventory *inv)
{
	free(inv->memdevs);
	free(inv->decoders);
	free(inv->regions);
	memset(inv, 0, sizeof(*inv));
}

/**
 * cxl_inv_note() - what region @r is now, in words: "a ram region: dax0.0
 * in system-ram mode, its memory on node 1 (online, movable)"
 */
void cxl_inv_note(char *buf, size_t len, const struct cxl_inv_region *r)
{
	const struct pmem_dax *d = &r->dax;
	char state[64] = "";

	if (r->nr_dax != 1) {
		snprintf(buf, len, "a %s region", r->mode);
		return;
	}
	if (!strcmp(d->mode, "system-ram")) {
		if (d->mem_online >= 0 && d->mem_blocks > 0)
			snprintf(state, sizeof(state), " (%s%s)",
				 d->mem_online == d->mem_blocks ? "online" :
				 d->mem_online ? "partly online" : "offline",
				 d->movable < 0 ? "" : d->movable ?
				 ", movable" : ", not movable");
		snprintf(buf, len, "a %s region: %s in system-ram mode, its memory on node %d%s",
			 r->mode, d->name, d->target_node, state);
	} else {
		snprintf(buf, len, "a %s region: %s in %s mode%s%s, node %d",
			 r->mode, d->name, d->mode, d->namespace[0] ? ", " : "",
			 d->namespace, d->target_node);
	}
}

/**
 * cxl_inv_resolve() - what `--target cxl:REGION` is now
 * @spec: the target as given, for messages ("cxl:region0")
 * @region: its region's name ("region0")
 *
 * Returns 0 with @res filled, or 1 after a message that names what is
 * wrong and its fix: no such region (or no libcxl), not committed, not
 * enabled, no dax device or more than one, memory offline.
 */
int cxl_inv_resolve(const char *spec, const char *region,
		    struct cxl_inv_resolved *res)
{
	struct pmem_inventory pm;
	struct cxl_inventory inv;
	const struct cxl_inv_region *r = NULL;
	char names[256] = "";
	unsigned int i;
	size_t at;
	int rc;

	memset(res, 0, sizeof(*res));
	res->node = -1;
	rc = pmem_scan(&pm);
	if (rc) {
		log_err("%s: cannot list device-DAX devices: %s", spec,
			strerror(-rc));
		return 1;
	}
	rc = cxl_inv_scan(&inv, &pm);
	pmem_free(&pm);
	if (rc) {
		log_err("%s: cannot list CXL memory: %s", spec, strerror(-rc));
		return 1;
	}
	if (!inv.libcxl) {
		log_err("%s: this lattester-ctl was built without libcxl (libcxl-dev), so it can't resolve CXL regions: measure the region's device-DAX device (/dev/daxX.Y) or NUMA node (dram:NODE), or rebuild it with libcxl", spec);
		cxl_inv_free(&inv);
		return 1;
	}
	for (i = 0; i < inv.nr_regions; i++) {
		if (!strcmp(inv.regions[i].name, region))
			r = &inv.regions[i];
		at = strlen(names);
		snprintf(names + at, sizeof(names) - at, "%s%s", at ? ", " : "",
			 inv.regions[i].name);
	}
	if (!r && !inv.nr_regions)
		log_err("%s: no such CXL region: this machine has none (see 'lattester-ctl list')", spec);
	else if (!r)
		log_err("%s: no such CXL region (there are %s; see 'lattester-ctl list')", spec, names);
	else if (!r->resolved[0])
		log_err("%s: %s", spec, r->why);
	if (!r || !r->resolved[0]) {
		cxl_inv_free(&inv);
		return 1;
	}
	copy(res->region, sizeof(res->region), r->name);
	copy(res->mode, sizeof(res->mode), r->mode);
	copy(res->dax, sizeof(res->dax), r->dax.name);
	copy(res->resolved, sizeof(res->resolved), r->resolved);
	res->size = r->size;
	if (r->resolved[0] == '/')
		copy(res->device, sizeof(res->device), r->resolved);
	else
		res->node = r->dax.target_node;
	cxl_inv_note(res->note, sizeof(res->note), r);
	cxl_inv_free(&inv);
	return 0;
}
