// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-list.c - lattester-ctl list: what `run --target` can measure.  NUMA
 * nodes (libnuma), persistent memory regions and their namespaces
 * (libndctl), with the known bad blocks of each, device-DAX devices
 * (libdaxctl), CXL memory devices, root decoders and regions (libcxl, if
 * built with it; cxl.c), each region with its dax device and node.  Needs
 * no module; as root it also shows the physical ranges, which the kernel
 * hides from other users.
 *
 * The node shown for a namespace or device-DAX device is its target node,
 * where its memory lands (for CXL and other memory-only NUMA it differs
 * from the device's numa_node, which the JSON keeps beside it).
 */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cxl.h"
#include "host.h"
#include "json-out.h"
#include "log.h"
#include "pmem.h"
#include "report.h"
#include "run.h"

#define LIST_SCHEMA	"lattester-list/1"
#define MAX_NODES	1024

/* OPT_JSON: run.h's */

static const struct cmd_opt list_options[] = {
	OPT_ROW("json", OPT_JSON, NULL, "print JSON on stdout"),
	OPT_END
};

static const char *const list_examples[] = {
	"lattester-ctl list", "the nodes, namespaces and devices, as tables",
	"lattester-ctl list --json | jq -r '.regions[].namespaces[].target'",
	"the namespaces run can measure",
	"lattester-ctl list --json | jq '.cxl.regions[] | {target, resolves_to, refusal}'",
	"what each CXL region is measured as now, or why not",
	NULL
};

const struct cmd_usage list_usage = {
	.cmd = "list",
	.synopsis = "[--json]",
	.about = "List what 'lattester-ctl run --target' can measure: NUMA nodes (dram:NODE), persistent\n"
		 "memory regions and namespaces (/dev/pmemN, namespaceX.Y), device-DAX devices\n"
		 "(/dev/daxX.Y) and CXL regions (cxl:regionN), with the usable physical range of each\n"
		 "(root only), its known bad blocks and any filesystem mounted on it.  No module needed.",
	.opts = list_options,
	.description =
		"NUMA nodes come from libnuma, with their CPUs, memory, free memory and distances; a node with memory and no CPUs (a CXL memory expander, say) is marked memory only.  Persistent memory regions and their namespaces come from libndctl: mode (fsdax, devdax, raw, sector), capacity, NUMA node, device, the usable physical range, the known bad blocks (media errors) and the mount point of a filesystem on it.  Device-DAX devices come from libdaxctl: mode (devdax, or system-ram when kmem has its memory, with that memory's state: online, movable), NUMA node, physical range.  The node of a namespace or device-DAX device is its target node, the node its memory lands on (the JSON also has the device's own numa_node).  A machine without NVDIMMs or device-DAX shows empty lists; as another user than root the physical ranges are shown as ?, and so are the bad blocks of a namespace whose region has some it can't place.\n\n"
		"CXL comes from libcxl: memory devices (host, serial, ram and pmem capacity), root decoders (the windows of physical address space the platform gives CXL: range, interleave, what they may hold) and regions (range, mode, interleave, committed and enabled, the memory device at each position), each region with its dax device and the node its memory is on (libdaxctl, by address), and what run --target cxl:regionN measures now: that device in place, or that node as dram:NODE; or why nothing.  A machine without CXL shows 'CXL: none'; a lattester-ctl built without libcxl says so instead.\n\n"
		"Bad blocks are counted in 512-byte blocks, as ndctl's badblock_count: a region's from its list (/sys/bus/nd/devices/regionN/badblocks), a namespace's from its pmem disk's list (/sys/block/pmemN/badblocks) and the region's within its range; run refuses a region that holds one.\n\n"
		"--json prints a lattester-list/1 document with numa_nodes, regions (with their namespaces), dax_devices and cxl.  Exit status: 0 done, 1 if libndctl, libdaxctl or libcxl failed, 2 usage.",
	.examples = list_examples,
	.see_also = "ndctl-list(1), daxctl-list(1), cxl-list(1)",
};

static unsigned int list_nodes(unsigned int *nodes)
{
	int max = host_max_node(), n;
	unsigned int nr = 0;

	for (n = 0; n <= max && nr < MAX_NODES; n++)
		if (host_node_exists((unsigned int)n))
			nodes[nr++] = (unsigned int)n;
	return nr;
}

/* "0x100400000-0x107ffffff", or "?" when the range is unknown. */
static void fmt_range(char *buf, size_t len, unsigned long long start,
		      unsigned long long size)
{
	if (start == PMEM_UNKNOWN || size == PMEM_UNKNOWN || !size)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "0x%llx-0x%llx", start, start + size - 1);
}

static void fmt_node(char *buf, size_t len, int node)
{
	if (node < 0)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%d", node);
}

/* Where the memory lands: the target node, else the device's node. */
static int mem_node(int numa_node, int target_node)
{
	return target_node >= 0 ? target_node : numa_node;
}

/* " (device on node 0)" where the device's node is another, else "" */
static void fmt_dev_node(char *buf, size_t len, int numa_node, int target_node)
{
	if (numa_node >= 0 && target_node >= 0 && numa_node != target_node)
		snprintf(buf, len, " (device on node %d)", numa_node);
	else
		buf[0] = '\0';
}

static void print_nodes(const unsigned int *nodes, unsigned int nr)
{
	char cpus[HOST_STR], mem[32], freeb[32];
	long long size, free;
	unsigned int i, j;

	printf("NUMA nodes (--target dram:NODE)\n");
	printf("  %-5s %-12s %12s %12s  %s\n", "node", "cpus", "memory", "free",
	       "distances");
	for (i = 0; i < nr; i++) {
		host_node_cpus(nodes[i], cpus, sizeof(cpus));
		if (host_node_mem(nodes[i], &size, &free))
			size = free = -1;
		snprintf(mem, sizeof(mem), "%lld MiB", size < 0 ? -1 : size >> 20);
		snprintf(freeb, sizeof(freeb), "%lld MiB", free < 0 ? -1 : free >> 20);
		printf("  %-5u %-12s %12s %12s ", nodes[i], cpus[0] ? cpus : "none",
		       mem, freeb);
		for (j = 0; j < nr; j++)
			printf(" %d", host_node_distance(nodes[i], nodes[j]));
		if (!cpus[0] && size > 0)
			printf("  (memory only)");
		putchar('\n');
	}
}

/*
 * The state of a system-ram device-DAX device's memory: "  (memory online,
 * movable)", "  (memory offline)", "" (not system-ram, or unknown: not root)
 */
static void fmt_mem(char *buf, size_t len, const struct pmem_dax *d)
{
	buf[0] = '\0';
	if (strcmp(d->mode, "system-ram") || d->mem_online < 0 ||
	    d->mem_blocks <= 0)
		return;
	snprintf(buf, len, "  (memory %s%s)",
		 d->mem_online == d->mem_blocks ? "online" :
		 d->mem_online ? "partly online" : "offline",
		 d->movable < 0 || !d->mem_online ? "" :
		 d->movable ? ", movable" : ", not movable");
}

/* The 512-byte bad blocks of @bl: "0", "8", "?" (unlocated), "-" (none kept) */
static void fmt_bad(char *buf, size_t len, const struct pmem_badlist *bl)
{
	if (bl->state == PMEM_BB_KNOWN)
		snprintf(buf, len, "%llu", pmem_bad_sectors(bl));
	else
		snprintf(buf, len, "%s", bl->state == PMEM_BB_UNLOCATED ?
			 "?" : "-");
}

static void print_ns(const struct pmem_ns *n)
{
	char size[32], node[16], range[64], dev[PMEM_NAME + 8], bad[24];
	char note[PATH_MAX + 16], devnode[32];

	fmt_size(size, sizeof(size), n->size);
	fmt_node(node, sizeof(node), mem_node(n->numa_node, n->target_node));
	fmt_dev_node(devnode, sizeof(devnode), n->numa_node, n->target_node);
	fmt_range(range, sizeof(range), n->phys_start, n->phys_size);
	fmt_bad(bad, sizeof(bad), &n->bb);
	if (n->blockdev[0] || n->chardev[0])
		snprintf(dev, sizeof(dev), "/dev/%s",
			 n->blockdev[0] ? n->blockdev : n->chardev);
	else
		snprintf(dev, sizeof(dev), "-");
	if (n->mount[0])
		snprintf(note, sizeof(note), "  mounted on %s", n->mount);
	else if (!strcmp(n->mode, "sector") && n->active)
		snprintf(note, sizeof(note), "  (sector: not measurable)");
	else
		note[0] = '\0';
	printf("    %-14s %-7s %12s %4s  %-14s %-25s %9s%s%s\n", n->name,
	       n->active ? n->mode : "disabled", size, node, dev, range, bad,
	       note, devnode);
}

/* What a persistence domain asks of a store, for the table */
static const char *persistence_gloss(const char *d)
{
	if (!strcmp(d, PMEM_PERSIST_CPU_CACHE))
		return " (eADR: store + sfence is durable)";
	if (!strcmp(d, PMEM_PERSIST_MEM_CTRL))
		return " (ADR: store + clwb + sfence is durable)";
	return "";
}

static void print_pmem(const struct pmem_inventory *inv)
{
	char size[32], avail[32], node[16], bad[24], devnode[32];
	unsigned int i, j;
	bool any_bad = false;

	if (!inv->nr_regions) {
		printf("\npersistent memory regions: none\n");
	} else {
		printf("\npersistent memory regions (--target /dev/pmemN, /dev/daxX.Y or namespaceX.Y)\n");
	}
	for (i = 0; i < inv->nr_regions; i++) {
		const struct pmem_region *r = &inv->regions[i];

		fmt_size(size, sizeof(size), r->size);
		fmt_size(avail, sizeof(avail), r->available);
		fmt_node(node, sizeof(node), mem_node(r->numa_node,
						      r->target_node));
		fmt_dev_node(devnode, sizeof(devnode), r->numa_node,
			     r->target_node);
		fmt_bad(bad, sizeof(bad), &r->bb);
		printf("  %s: %s, %s (%s unallocated), node %s%s, bus %s%s",
		       r->name, r->type, size, avail, node, devnode, r->bus,
		       r->enabled ? "" : ", disabled");
		if (r->phys_start != PMEM_UNKNOWN)
			printf(", at 0x%llx", r->phys_start);
		printf(", %s badblocks, persistence domain %s%s\n", bad,
		       r->persistence, persistence_gloss(r->persistence));
		printf("    %-14s %-7s %12s %4s  %-14s %-25s %9s\n", "namespace",
		       "mode", "size", "node", "device", "usable physical range",
		       "badblocks");
		any_bad |= r->bb.nr || r->bb.state == PMEM_BB_UNLOCATED;
		for (j = 0; j < inv->nr_ns; j++) {
			if (strcmp(inv->ns[j].region, r->name))
				continue;
			print_ns(&inv->ns[j]);
			any_bad |= inv->ns[j].bb.nr ||
				   inv->ns[j].bb.state == PMEM_BB_UNLOCATED;
		}
	}
	if (any_bad)
		printf("  badblocks: known bad blocks (media errors), 512 bytes each ('?': can't be placed, not root?); 'ndctl list --media-errors' lists them; run refuses a region that holds one (see --skip-badblocks)\n");
	if (!inv->nr_dax) {
		printf("\ndevice-DAX devices: none\n");
		return;
	}
	printf("\ndevice-DAX devices (--target /dev/daxX.Y)\n");
	printf("  %-10s %-10s %12s %4s  %-25s %s\n", "device", "mode", "size",
	       "node", "physical range", "namespace");
	for (i = 0; i < inv->nr_dax; i++) {
		const struct pmem_dax *d = &inv->dax[i];
		char range[64], mem[64];

		fmt_size(size, sizeof(size), d->size);
		fmt_node(node, sizeof(node), mem_node(d->numa_node,
						      d->target_node));
		fmt_dev_node(devnode, sizeof(devnode), d->numa_node,
			     d->target_node);
		fmt_range(range, sizeof(range), d->phys_start, d->phys_size);
		fmt_mem(mem, sizeof(mem), d);
		printf("  %-10s %-10s %12s %4s  %-25s %s%s%s\n", d->name,
		       d->mode, size, node, range,
		       d->namespace[0] ? d->namespace : "-", devnode, mem);
	}
}

static void add_str_or_null(struct json_object *o, const char *key,
			    const char *val)
{
	if (val && val[0])
		latt_json_str(o, key, val);
	else
		json_object_object_add(o, key, NULL);
}

static void add_u64_or_null(struct json_object *o, const char *key,
			    unsigned long long val)
{
	if (val == PMEM_UNKNOWN)
		json_object_object_add(o, key, NULL);
	else
		latt_json_u64(o, key, val);
}

static void add_dev(struct json_object *o, const char *key, const char *name)
{
	char path[PMEM_NAME + 8];

	snprintf(path, sizeof(path), "/dev/%s", name);
	add_str_or_null(o, key, name[0] ? path : NULL);
}

/*
 * "badblock_count" (512-byte blocks, as ndctl's) and "badblocks": [{offset,
 * length (both in 512-byte blocks, as ndctl list --media-errors gives
 * them), phys_addr}], both null when the list can't be read or placed or
 * isn't kept
 */
static void add_bad(struct json_object *o, const struct pmem_badlist *bl)
{
	struct json_object *arr, *b;
	unsigned int i;

	if (bl->state != PMEM_BB_KNOWN) {
		json_object_object_add(o, "badblock_count", NULL);
		json_object_object_add(o, "badblocks", NULL);
		return;
	}
	arr = json_object_new_array();
	for (i = 0; i < bl->nr; i++) {
		b = json_object_new_object();
		latt_json_u64(b, "offset", bl->bad[i].offset / PMEM_SECTOR);
		latt_json_u64(b, "length", (bl->bad[i].len + PMEM_SECTOR - 1) /
			      PMEM_SECTOR);
		add_u64_or_null(b, "phys_addr", bl->bad[i].phys);
		json_object_array_add(arr, b);
	}
	latt_json_u64(o, "badblock_count", pmem_bad_sectors(bl));
	json_object_object_add(o, "badblocks", arr);
}

static struct json_object *json_nodes(const unsigned int *nodes,
				      unsigned int nr)
{
	struct json_object *arr = json_object_new_array();
	struct json_object *n, *dist;
	char cpus[HOST_STR], key[16];
	long long size, free;
	unsigned int i, j;

	for (i = 0; i < nr; i++) {
		n = json_object_new_object();
		dist = json_object_new_object();
		host_node_cpus(nodes[i], cpus, sizeof(cpus));
		if (host_node_mem(nodes[i], &size, &free))
			size = free = -1;
		latt_json_u64(n, "node", nodes[i]);
		latt_json_str(n, "cpus", cpus);
		latt_json_int(n, "mem_total", size);
		latt_json_int(n, "mem_free", free);
		latt_json_bool(n, "memory_only", !cpus[0] && size > 0);
		for (j = 0; j < nr; j++) {
			snprintf(key, sizeof(key), "%u", nodes[j]);
			latt_json_int(dist, key,
				      host_node_distance(nodes[i], nodes[j]));
		}
		json_object_object_add(n, "distances", dist);
		json_object_array_add(arr, n);
	}
	return arr;
}

static struct json_object *json_ns(const struct pmem_ns *n)
{
	struct json_object *o = json_object_new_object();
	const char *dev = n->blockdev[0] ? n->blockdev : n->chardev;
	bool measurable = n->active && strcmp(n->mode, "sector") &&
			  dev[0] && n->phys_start != PMEM_UNKNOWN;

	latt_json_str(o, "name", n->name);
	latt_json_str(o, "mode", n->mode);
	latt_json_bool(o, "enabled", n->active);
	latt_json_u64(o, "size", n->size);
	latt_json_u64(o, "raw_size", n->raw_size);
	latt_json_int(o, "numa_node", n->numa_node);
	latt_json_int(o, "target_node", n->target_node);
	add_dev(o, "blockdev", n->blockdev);
	add_dev(o, "chardev", n->chardev);
	add_u64_or_null(o, "phys_start", n->phys_start);
	add_u64_or_null(o, "phys_size", n->phys_size);
	add_str_or_null(o, "mounted_on", n->mount);
	add_str_or_null(o, "target", measurable ? n->name : NULL);
	add_bad(o, &n->bb);
	return o;
}

static struct json_object *json_pmem(const struct pmem_inventory *inv)
{
	struct json_object *arr = json_object_new_array();
	struct json_object *o, *nss;
	unsigned int i, j;

	for (i = 0; i < inv->nr_regions; i++) {
		const struct pmem_region *r = &inv->regions[i];

		o = json_object_new_object();
		nss = json_object_new_array();
		latt_json_str(o, "name", r->name);
		latt_json_str(o, "type", r->type);
		latt_json_str(o, "bus", r->bus);
		latt_json_str(o, "persistence_domain", r->persistence);
		latt_json_bool(o, "enabled", r->enabled);
		latt_json_u64(o, "size", r->size);
		latt_json_u64(o, "available_size", r->available);
		add_u64_or_null(o, "phys_start", r->phys_start);
		latt_json_int(o, "numa_node", r->numa_node);
		latt_json_int(o, "target_node", r->target_node);
		add_bad(o, &r->bb);
		for (j = 0; j < inv->nr_ns; j++)
			if (!strcmp(inv->ns[j].region, r->name))
				json_object_array_add(nss, json_ns(&inv->ns[j]));
		json_object_object_add(o, "namespaces", nss);
		json_object_array_add(arr, o);
	}
	return arr;
}

static void add_int_or_null(struct json_object *o, const char *key, int val)
{
	if (val < 0)
		json_object_object_add(o, key, NULL);
	else
		latt_json_int(o, key, val);
}

/*
 * A system-ram device's memory, as daxctl list says it: "online_memblocks",
 * "total_memblocks", "movable"; null when not system-ram or unknown (not
 * root)
 */
static void add_mem(struct json_object *o, const struct pmem_dax *d)
{
	add_int_or_null(o, "online_memblocks", d->mem_online);
	add_int_or_null(o, "total_memblocks", d->mem_blocks);
	if (d->movable < 0)
		json_object_object_add(o, "movable", NULL);
	else
		latt_json_bool(o, "movable", d->movable);
}

static struct json_object *json_dax(const struct pmem_inventory *inv)
{
	struct json_object *arr = json_object_new_array();
	struct json_object *o;
	unsigned int i;

	for (i = 0; i < inv->nr_dax; i++) {
		const struct pmem_dax *d = &inv->dax[i];

		o = json_object_new_object();
		latt_json_str(o, "name", d->name);
		add_dev(o, "path", d->name);
		latt_json_str(o, "mode", d->mode);
		latt_json_u64(o, "size", d->size);
		latt_json_int(o, "numa_node", d->numa_node);
		latt_json_int(o, "target_node", d->target_node);
		latt_json_int(o, "region_id", d->region_id);
		add_str_or_null(o, "namespace", d->namespace);
		add_u64_or_null(o, "phys_start", d->phys_start);
		add_u64_or_null(o, "phys_size", d->phys_size);
		add_mem(o, d);
		json_object_array_add(arr, o);
	}
	return arr;
}

/* ---- CXL ---- */

/* "0x290000000-0x2afffffff", "?" when unknown; as fmt_range() */
static void fmt_cxl_range(char *buf, size_t len, unsigned long long start,
			  unsigned long long size)
{
	fmt_range(buf, len, start == CXL_UNKNOWN ? PMEM_UNKNOWN : start,
		  size == CXL_UNKNOWN ? PMEM_UNKNOWN : size);
}

static void fmt_cxl_size(char *buf, size_t len, unsigned long long size)
{
	if (size == CXL_UNKNOWN)
		snprintf(buf, len, "?");
	else
		fmt_size(buf, len, size);
}

static void print_cxl_memdevs(const struct cxl_inventory *inv)
{
	char ram[32], pmem[32], node[16], serial[24];
	unsigned int i;

	if (!inv->nr_memdevs) {
		printf("\nCXL memory devices: none\n");
		return;
	}
	printf("\nCXL memory devices\n");
	printf("  %-8s %-16s %-18s %12s %12s %4s\n", "memdev", "host", "serial",
	       "ram", "pmem", "node");
	for (i = 0; i < inv->nr_memdevs; i++) {
		const struct cxl_inv_memdev *m = &inv->memdevs[i];

		fmt_cxl_size(ram, sizeof(ram), m->ram_size);
		fmt_cxl_size(pmem, sizeof(pmem), m->pmem_size);
		fmt_node(node, sizeof(node), m->numa_node);
		if (m->serial == CXL_UNKNOWN)
			snprintf(serial, sizeof(serial), "?");
		else
			snprintf(serial, sizeof(serial), "%#llx", m->serial);
		printf("  %-8s %-16s %-18s %12s %12s %4s\n", m->name,
		       m->host[0] ? m->host : "?", serial, ram, pmem, node);
	}
}

static void print_cxl_decoders(const struct cxl_inventory *inv)
{
	char range[64], size[32];
	unsigned int i;

	if (!inv->nr_decoders) {
		printf("\nCXL root decoders: none\n");
		return;
	}
	printf("\nCXL root decoders (the physical address windows regions are made in)\n");
	printf("  %-12s %-27s %12s %4s %11s  %s\n", "decoder", "physical range",
	       "size", "ways", "granularity", "holds");
	for (i = 0; i < inv->nr_decoders; i++) {
		const struct cxl_inv_decoder *d = &inv->decoders[i];

		fmt_cxl_range(range, sizeof(range), d->start, d->size);
		fmt_cxl_size(size, sizeof(size), d->size);
		printf("  %-12s %-27s %12s %4u %11u  %s\n", d->name, range,
		       size, d->ways, d->granularity,
		       d->ram && d->pmem ? "ram, pmem" : d->ram ? "ram" :
		       d->pmem ? "pmem" : "-");
	}
}

static void print_cxl_region(const struct cxl_inv_region *r)
{
	const struct pmem_dax *d = &r->dax;
	char range[64], size[32], node[16], mem[64];
	unsigned int i;

	fmt_cxl_range(range, sizeof(range), r->start, r->size);
	fmt_cxl_size(size, sizeof(size), r->size);
	printf("  %s: %s, %s at %s in %s, %u way%s, granularity %u, %s, %s\n",
	       r->name, r->mode, size, range, r->decoder, r->ways,
	       r->ways == 1 ? "" : "s", r->granularity,
	       r->committed ? "committed" : "not committed",
	       r->enabled ? "enabled" : "not enabled");
	for (i = 0; i < r->nr_targets; i++)
		printf("    position %u: %s (%s)\n", r->targets[i].position,
		       r->targets[i].memdev[0] ? r->targets[i].memdev : "?",
		       r->targets[i].decoder);
	if (r->nr_dax == 1) {
		fmt_node(node, sizeof(node), d->target_node);
		fmt_mem(mem, sizeof(mem), d);
		printf("    dax device: %s, %s%s%s, node %s%s\n", d->name, d->mode,
		       d->namespace[0] ? ", " : "", d->namespace, node, mem);
	} else if (r->nr_dax > 1) {
		printf("    dax devices: %s\n", r->dax_names);
	}
	if (r->nd_region[0])
		printf("    libnvdimm region: %s\n", r->nd_region);
	if (r->resolved[0])
		printf("    --target cxl:%s measures %s\n", r->name, r->resolved);
	else
		printf("    --target cxl:%s: not measurable: %s\n", r->name,
		       r->why);
}

static void print_cxl(const struct cxl_inventory *inv)
{
	unsigned int i;

	if (!inv->libcxl) {
		printf("\nCXL: not listed: this lattester-ctl was built without libcxl (libcxl-dev)\n");
		return;
	}
	if (!inv->nr_memdevs && !inv->nr_decoders && !inv->nr_regions) {
		printf("\nCXL: none\n");
		return;
	}
	print_cxl_memdevs(inv);
	print_cxl_decoders(inv);
	if (!inv->nr_regions) {
		printf("\nCXL regions: none\n");
		return;
	}
	printf("\nCXL regions (--target cxl:regionN)\n");
	for (i = 0; i < inv->nr_regions; i++)
		print_cxl_region(&inv->regions[i]);
}

/* 0 is libcxl's "can't read" for a region's interleave: null */
static void add_uint_or_null(struct json_object *o, const char *key,
			     unsigned int val)
{
	if (!val)
		json_object_object_add(o, key, NULL);
	else
		latt_json_u64(o, key, val);
}

static struct json_object *json_cxl_memdevs(const struct cxl_inventory *inv)
{
	struct json_object *arr = json_object_new_array(), *o;
	unsigned int i;

	for (i = 0; i < inv->nr_memdevs; i++) {
		const struct cxl_inv_memdev *m = &inv->memdevs[i];

		o = json_object_new_object();
		latt_json_str(o, "name", m->name);
		add_str_or_null(o, "host", m->host);
		if (m->serial == CXL_UNKNOWN)	/* libcxl could not read it */
			json_object_object_add(o, "serial", NULL);
		else
			latt_json_u64(o, "serial", m->serial);
		add_u64_or_null(o, "ram_size", m->ram_size);
		add_u64_or_null(o, "pmem_size", m->pmem_size);
		latt_json_int(o, "numa_node", m->numa_node);
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *json_cxl_decoders(const struct cxl_inventory *inv)
{
	struct json_object *arr = json_object_new_array(), *o;
	unsigned int i;

	for (i = 0; i < inv->nr_decoders; i++) {
		const struct cxl_inv_decoder *d = &inv->decoders[i];

		o = json_object_new_object();
		latt_json_str(o, "name", d->name);
		latt_json_str(o, "port", d->port);
		add_u64_or_null(o, "start", d->start);
		add_u64_or_null(o, "size", d->size);
		add_uint_or_null(o, "interleave_ways", d->ways);
		add_uint_or_null(o, "interleave_granularity", d->granularity);
		latt_json_bool(o, "volatile_capable", d->ram);
		latt_json_bool(o, "pmem_capable", d->pmem);
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *json_cxl_region(const struct cxl_inv_region *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *arr = json_object_new_array(), *t, *names;
	const struct pmem_dax *d = r->nr_dax == 1 ? &r->dax : NULL;
	char target[CXL_NAME + 8];
	const char *p, *end;
	unsigned int i;

	latt_json_str(o, "name", r->name);
	latt_json_str(o, "decoder", r->decoder);
	latt_json_str(o, "mode", r->mode);
	add_u64_or_null(o, "start", r->start);
	add_u64_or_null(o, "size", r->size);
	add_uint_or_null(o, "interleave_ways", r->ways);
	add_uint_or_null(o, "interleave_granularity", r->granularity);
	latt_json_bool(o, "committed", r->committed);
	latt_json_bool(o, "enabled", r->enabled);
	for (i = 0; i < r->nr_targets; i++) {
		t = json_object_new_object();
		latt_json_u64(t, "position", r->targets[i].position);
		add_str_or_null(t, "memdev", r->targets[i].memdev);
		add_str_or_null(t, "decoder", r->targets[i].decoder);
		json_object_array_add(arr, t);
	}
	json_object_object_add(o, "targets", arr);
	/* every dax device in its range; the one, with its memory */
	names = json_object_new_array();
	for (p = r->dax_names; *p; p = *end ? end + 2 : end) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		json_object_array_add(names, json_object_new_string_len(
					      p, (int)(end - p)));
	}
	json_object_object_add(o, "dax_devices", names);
	add_str_or_null(o, "dax_device", d ? d->name : NULL);
	add_str_or_null(o, "dax_mode", d ? d->mode : NULL);
	add_int_or_null(o, "target_node", d ? d->target_node : -1);
	add_int_or_null(o, "online_memblocks", d ? d->mem_online : -1);
	add_int_or_null(o, "total_memblocks", d ? d->mem_blocks : -1);
	if (!d || d->movable < 0)
		json_object_object_add(o, "movable", NULL);
	else
		latt_json_bool(o, "movable", d->movable);
	add_str_or_null(o, "nd_region", r->nd_region);
	snprintf(target, sizeof(target), "cxl:%s", r->name);
	add_str_or_null(o, "target", r->resolved[0] ? target : NULL);
	add_str_or_null(o, "resolves_to", r->resolved);
	add_str_or_null(o, "refusal", r->resolved[0] ? NULL : r->why);
	return o;
}

/* "cxl": {"libcxl", "memdevs", "root_decoders", "regions"}; without libcxl
 * the lists are null */
static struct json_object *json_cxl(const struct cxl_inventory *inv)
{
	struct json_object *o = json_object_new_object(), *arr;
	unsigned int i;

	latt_json_bool(o, "libcxl", inv->libcxl);
	if (!inv->libcxl) {
		json_object_object_add(o, "memdevs", NULL);
		json_object_object_add(o, "root_decoders", NULL);
		json_object_object_add(o, "regions", NULL);
		return o;
	}
	json_object_object_add(o, "memdevs", json_cxl_memdevs(inv));
	json_object_object_add(o, "root_decoders", json_cxl_decoders(inv));
	arr = json_object_new_array();
	for (i = 0; i < inv->nr_regions; i++)
		json_object_array_add(arr, json_cxl_region(&inv->regions[i]));
	json_object_object_add(o, "regions", arr);
	return o;
}

int cmd_list(int argc, char **argv, const struct cmd_ctx *ctx)
{
	struct pmem_inventory inv;
	struct cxl_inventory cxl;
	unsigned int *nodes, nr;
	bool json = false;
	struct json_object *o;
	int id, rc;

	(void)ctx;
	optind = 0;
	while ((id = cmd_getopt(argc, argv, &list_usage)) != -1) {
		if (id == OPT_BAD)
			return EXIT_USAGE;
		if (id == OPT_HELP) {
			cmd_print_usage(stdout, &list_usage);
			return 0;
		}
		json = true;
	}
	nodes = calloc(MAX_NODES, sizeof(*nodes));
	if (!nodes) {
		log_err("out of memory");
		return 1;
	}
	nr = list_nodes(nodes);
	rc = pmem_scan(&inv);
	if (rc) {
		log_err("cannot list persistent memory: %s", strerror(-rc));
		free(nodes);
		return 1;
	}
	rc = cxl_inv_scan(&cxl, &inv);
	if (rc) {
		log_err("cannot list CXL memory: %s", strerror(-rc));
		pmem_free(&inv);
		free(nodes);
		return 1;
	}
	if (json) {
		o = json_object_new_object();
		latt_json_str(o, "schema", LIST_SCHEMA);
		json_object_object_add(o, "numa_nodes", json_nodes(nodes, nr));
		json_object_object_add(o, "regions", json_pmem(&inv));
		json_object_object_add(o, "dax_devices", json_dax(&inv));
		json_object_object_add(o, "cxl", json_cxl(&cxl));
		rc = json_emit("-", o) ? 1 : 0;
		json_object_put(o);
	} else {
		print_nodes(nodes, nr);
		print_pmem(&inv);
		print_cxl(&cxl);
	}
	cxl_inv_free(&cxl);
	pmem_free(&inv);
	free(nodes);
	return rc;
}
