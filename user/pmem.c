// SPDX-License-Identifier: GPL-2.0
/*
 * pmem.c - see pmem.h.  Everything about namespaces and device-DAX comes
 * from libndctl and libdaxctl; only /proc/self/mountinfo is read by hand.
 * No NVDIMM at all (no nd bus, no dax region) is an empty inventory.
 *
 * Bad blocks: libndctl reads the region's and the pmem disk's sysfs lists
 * (ndctl_region_badblock_foreach, ndctl_namespace_badblock_foreach), in
 * 512-byte blocks from the region's start and from the disk's, whose first
 * block is the first byte of the namespace's usable range (fsdax: after
 * the info block, where the pfn's resource starts; raw and e820: the
 * namespace's start).  libndctl can't tell an unreadable list from an
 * empty one, so the file is checked for reading first: a list that can't
 * be read is no empty list.
 */
#include <errno.h>
#include <stdarg.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <daxctl/libdaxctl.h>
#include <ndctl/libndctl.h>

#include "log.h"
#include "map.h"
#include "pmem.h"

#define MOUNTINFO	"/proc/self/mountinfo"

/* libndctl and libdaxctl messages go to our log, at debug level. */
static void nd_log(struct ndctl_ctx *ctx, int prio, const char *file, int line,
		   const char *fn, const char *fmt, va_list ap)
{
	(void)ctx;
	(void)file;
	(void)line;
	log_lib("libndctl", prio, fn, fmt, ap);
}

static void dax_log(struct daxctl_ctx *ctx, int prio, const char *file,
		    int line, const char *fn, const char *fmt, va_list ap)
{
	(void)ctx;
	(void)file;
	(void)line;
	log_lib("libdaxctl", prio, fn, fmt, ap);
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/* The device number of /dev/@name, 0 if there is no such node. */
static dev_t dev_node(const char *name, bool block)
{
	char path[PATH_MAX];
	struct stat st;

	if (!name[0])
		return 0;
	snprintf(path, sizeof(path), "/dev/%s", name);
	if (stat(path, &st) || (block ? !S_ISBLK(st.st_mode) :
				!S_ISCHR(st.st_mode)))
		return 0;
	return st.st_rdev;
}

/* mountinfo escapes blanks, tabs, newlines and backslashes as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/**
 * pmem_mount_of() - where a filesystem on block device @dev is mounted
 *
 * Returns 1 with the first mount point in @buf, 0 if none, or a negative
 * errno if /proc/self/mountinfo can't be read.
 */
int pmem_mount_of(dev_t dev, char *buf, size_t len)
{
	FILE *f = fopen(MOUNTINFO, "re");
	char *line = NULL, *save, *tok, *point;
	size_t cap = 0;
	unsigned int maj = 0, min = 0;
	int i, found = 0;

	buf[0] = '\0';
	if (!f)
		return -errno;
	while (!found && getline(&line, &cap, f) > 0) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... */
		tok = strtok_r(line, " ", &save);
		point = NULL;
		for (i = 1; tok && i <= 4; i++) {
			tok = strtok_r(NULL, " ", &save);
			if (i == 2 && (!tok || sscanf(tok, "%u:%u", &maj, &min) != 2))
				tok = NULL;
			if (i == 4)
				point = tok;
		}
		if (!point || makedev(maj, min) != dev)
			continue;
		unescape(point);
		snprintf(buf, len, "%s", point);
		found = 1;
	}
	free(line);
	fclose(f);
	return found;
}

static const char *mode_name(enum ndctl_namespace_mode m)
{
	switch (m) {
	case NDCTL_NS_MODE_FSDAX:	return "fsdax";
	case NDCTL_NS_MODE_SECTOR:	return "sector";
	case NDCTL_NS_MODE_RAW:		return "raw";
	case NDCTL_NS_MODE_DEVDAX:	return "devdax";
	default:			return "unknown";
	}
}

/* Can the sysfs list at @path be read?  0, or a negative errno. */
static int bb_readable(const char *path)
{
	return access(path, R_OK) ? -errno : 0;
}

/* Set @bl's state and reason. */
static void bb_state(struct pmem_badlist *bl, int state, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void bb_state(struct pmem_badlist *bl, int state, const char *fmt, ...)
{
	va_list ap;

	bl->state = state;
	va_start(ap, fmt);
	vsnprintf(bl->why, sizeof(bl->why), fmt, ap);
	va_end(ap);
}

/* The region's bad blocks: offsets from its start.  0 or -ENOMEM. */
static int scan_region_bb(struct pmem_region *r, struct ndctl_region *region)
{
	char path[PATH_MAX];
	struct badblock *bb;
	int rc;

	snprintf(path, sizeof(path), "/sys/bus/nd/devices/%s/badblocks",
		 r->name);
	rc = bb_readable(path);
	if (rc) {
		bb_state(&r->bb, PMEM_BB_UNLOCATED, "cannot read %s: %s", path,
			 strerror(-rc));
		return 0;
	}
	ndctl_region_badblock_foreach(region, bb) {
		unsigned long long off = bb->offset * PMEM_SECTOR;

		if (map_bad_add(&r->bb, off, bb->len * PMEM_SECTOR,
				r->phys_start == PMEM_UNKNOWN ? PMEM_UNKNOWN :
				r->phys_start + off))
			return -ENOMEM;
	}
	map_bad_sort(&r->bb);
	return 0;
}

/*
 * A namespace's bad blocks, offsets from its usable range's start (the
 * namespace's for sector mode, whose range is not measurable): its pmem
 * disk's list (fsdax, raw, e820), and the region's mapped into the range.
 * Needs the region's list (@r->bb) and start, and the range's start and
 * size (@start, @size) for the latter; without them (not root), a region
 * with bad blocks leaves the namespace's unlocated.  0 or -ENOMEM.
 */
static int scan_ns_bb(struct pmem_ns *n, const struct pmem_region *r,
		      struct ndctl_namespace *ndns, unsigned long long start,
		      unsigned long long size)
{
	struct pmem_badlist *bl = &n->bb;
	char path[PATH_MAX];
	struct badblock *bb;
	int rc;

	if (!n->active) {
		bb_state(bl, PMEM_BB_NOLIST, "%s is disabled", n->name);
		return 0;
	}
	if (n->blockdev[0] && strcmp(n->mode, "sector")) {
		snprintf(path, sizeof(path), "/sys/block/%s/badblocks",
			 n->blockdev);
		rc = bb_readable(path);
		if (rc) {
			bb_state(bl, PMEM_BB_UNLOCATED, "cannot read %s: %s",
				 path, strerror(-rc));
		} else {
			ndctl_namespace_badblock_foreach(ndns, bb) {
				unsigned long long off = bb->offset * PMEM_SECTOR;

				if (map_bad_add(bl, off, bb->len * PMEM_SECTOR,
						start == PMEM_UNKNOWN ?
						PMEM_UNKNOWN : start + off))
					return -ENOMEM;
			}
		}
	}
	if (r->bb.state != PMEM_BB_KNOWN) {
		if (bl->state == PMEM_BB_KNOWN)
			bb_state(bl, r->bb.state, "%s", r->bb.why);
	} else if (r->bb.nr && (start == PMEM_UNKNOWN || !size ||
				size == PMEM_UNKNOWN ||
				r->phys_start == PMEM_UNKNOWN)) {
		if (bl->state == PMEM_BB_KNOWN)
			bb_state(bl, PMEM_BB_UNLOCATED, "%s has known bad blocks, but where %s lies in it is unknown (libndctl can't read the physical ranges: are you root?)",
				 r->name, n->name);
	} else if (r->bb.nr && start >= r->phys_start &&
		   map_bad_clip(&r->bb, start - r->phys_start, size, start, bl)) {
		return -ENOMEM;
	}
	map_bad_sort(bl);
	return 0;
}

/** pmem_bad_sectors() - the 512-byte blocks in @bl (ndctl's badblock_count) */
unsigned long long pmem_bad_sectors(const struct pmem_badlist *bl)
{
	unsigned long long n = 0;
	unsigned int i;

	for (i = 0; i < bl->nr; i++)
		n += (bl->bad[i].len + PMEM_SECTOR - 1) / PMEM_SECTOR;
	return n;
}

static int scan_ns(struct pmem_ns *n, const struct pmem_region *r,
		   struct ndctl_region *region, struct ndctl_namespace *ndns)
{
	struct ndctl_pfn *pfn = ndctl_namespace_get_pfn(ndns);
	struct ndctl_dax *dax = ndctl_namespace_get_dax(ndns);
	struct ndctl_btt *btt = ndctl_namespace_get_btt(ndns);
	enum ndctl_namespace_mode mode = ndctl_namespace_get_mode(ndns);

	copy(n->name, sizeof(n->name), ndctl_namespace_get_devname(ndns));
	copy(n->region, sizeof(n->region), ndctl_region_get_devname(region));
	n->active = ndctl_namespace_is_active(ndns);
	n->numa_node = ndctl_namespace_get_numa_node(ndns);
	n->target_node = ndctl_namespace_get_target_node(ndns);
	n->raw_size = ndctl_namespace_get_size(ndns);
	n->size = n->raw_size;
	n->phys_start = n->phys_size = PMEM_UNKNOWN;
	copy(n->mode, sizeof(n->mode), mode_name(mode));

	/* an enabled claim says where the data is, whatever "mode" says */
	if (pfn && ndctl_pfn_is_enabled(pfn)) {
		copy(n->mode, sizeof(n->mode), "fsdax");
		copy(n->blockdev, sizeof(n->blockdev),
		     ndctl_pfn_get_block_device(pfn));
		n->size = ndctl_pfn_get_size(pfn);
		n->phys_start = ndctl_pfn_get_resource(pfn);
		n->phys_size = n->size;
	} else if (dax && ndctl_dax_is_enabled(dax)) {
		struct daxctl_region *dr = ndctl_dax_get_daxctl_region(dax);
		struct daxctl_dev *dev = dr ? daxctl_dev_get_first(dr) : NULL;

		copy(n->mode, sizeof(n->mode), "devdax");
		n->size = ndctl_dax_get_size(dax);
		n->phys_start = ndctl_dax_get_resource(dax);
		n->phys_size = n->size;
		if (dev)
			copy(n->chardev, sizeof(n->chardev),
			     daxctl_dev_get_devname(dev));
	} else if (btt && ndctl_btt_is_enabled(btt)) {
		copy(n->mode, sizeof(n->mode), "sector");
		copy(n->blockdev, sizeof(n->blockdev),
		     ndctl_btt_get_block_device(btt));
		n->size = ndctl_btt_get_size(btt);
	} else {
		/*
		 * The namespace's own block device: raw, or a legacy e820
		 * range, which ndctl calls fsdax ("map":"mem": its struct
		 * pages are in RAM, no pfn info block).
		 */
		copy(n->blockdev, sizeof(n->blockdev),
		     ndctl_namespace_get_block_device(ndns));
		n->phys_start = ndctl_namespace_get_resource(ndns);
		n->phys_size = n->raw_size;
	}
	if (!n->active || n->phys_start == PMEM_UNKNOWN ||
	    n->phys_size == PMEM_UNKNOWN || !n->phys_size)
		n->phys_start = n->phys_size = PMEM_UNKNOWN;
	if (n->size == PMEM_UNKNOWN)
		n->size = 0;
	if (n->blockdev[0]) {
		n->rdev = dev_node(n->blockdev, true);
		if (n->rdev && pmem_mount_of(n->rdev, n->mount, sizeof(n->mount)) < 0)
			n->mount[0] = '\0';
	} else if (n->chardev[0]) {
		n->rdev = dev_node(n->chardev, false);
	}
	if (!strcmp(n->mode, "sector"))
		return scan_ns_bb(n, r, ndns, ndctl_namespace_get_resource(ndns),
				  n->raw_size);
	return scan_ns_bb(n, r, ndns, n->phys_start, n->phys_size);
}

/* libndctl's persistence domain, by the kernel's sysfs words */
static const char *persistence_name(enum ndctl_persistence_domain d)
{
	switch (d) {
	case PERSISTENCE_CPU_CACHE:
		return PMEM_PERSIST_CPU_CACHE;
	case PERSISTENCE_MEM_CTRL:
		return PMEM_PERSIST_MEM_CTRL;
	case PERSISTENCE_NONE:
		return PMEM_PERSIST_NONE;
	default:
		return PMEM_PERSIST_UNKNOWN;
	}
}

static int scan_nd(struct pmem_inventory *inv)
{
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	struct ndctl_region *region;
	struct ndctl_namespace *ndns;
	struct pmem_region *r;
	struct pmem_ns *n;
	int rc;

	rc = ndctl_new(&ctx);
	if (rc) {
		log_dbg("libndctl: ndctl_new: %s", strerror(-rc));
		return 0;	/* no nd subsystem: no pmem */
	}
	ndctl_set_log_fn(ctx, nd_log);
	rc = 0;
	ndctl_bus_foreach(ctx, bus) {
		ndctl_region_foreach(bus, region) {
			r = inv_push(&inv->regions, &inv->nr_regions, sizeof(*r));
			if (!r) {
				rc = -ENOMEM;
				goto out;
			}
			copy(r->name, sizeof(r->name),
			     ndctl_region_get_devname(region));
			copy(r->type, sizeof(r->type),
			     ndctl_region_get_type_name(region));
			copy(r->bus, sizeof(r->bus), ndctl_bus_get_provider(bus));
			r->numa_node = ndctl_region_get_numa_node(region);
			r->target_node = ndctl_region_get_target_node(region);
			r->size = ndctl_region_get_size(region);
			r->available = ndctl_region_get_available_size(region);
			r->phys_start = ndctl_region_get_resource(region);
			r->enabled = ndctl_region_is_enabled(region);
			copy(r->persistence, sizeof(r->persistence),
			     persistence_name(
				ndctl_region_get_persistence_domain(region)));
			rc = scan_region_bb(r, region);
			if (rc)
				goto out;
			ndctl_namespace_foreach(region, ndns) {
				/* idle seeds (size 0) are not namespaces yet */
				if (!ndctl_namespace_get_size(ndns))
					continue;
				n = inv_push(&inv->ns, &inv->nr_ns, sizeof(*n));
				if (!n) {
					rc = -ENOMEM;
					goto out;
				}
				rc = scan_ns(n, r, region, ndns);
				if (rc)
					goto out;
			}
		}
	}
out:
	ndctl_unref(ctx);
	return rc;
}

/*
 * "disabled"; "system-ram" when kmem has it (daxctl_dev_get_memory(): its
 * memory is hot-added to the target node, or was and is offline now: no
 * device-DAX mapping either way), with its blocks online and their zone
 * (these need the device's physical range: root); else "devdax".  As
 * daxctl list says it.
 */
static void dax_mode(struct pmem_dax *d, struct daxctl_dev *dev)
{
	struct daxctl_memory *mem;
	int n;

	d->mem_online = d->mem_blocks = d->movable = -1;
	if (!daxctl_dev_is_enabled(dev)) {
		copy(d->mode, sizeof(d->mode), "disabled");
		return;
	}
	mem = daxctl_dev_get_memory(dev);
	if (!mem) {
		copy(d->mode, sizeof(d->mode), "devdax");
		return;
	}
	copy(d->mode, sizeof(d->mode), "system-ram");
	if (d->phys_start == PMEM_UNKNOWN)
		return;
	n = daxctl_memory_num_sections(mem);
	d->mem_blocks = n < 0 ? -1 : n;
	n = daxctl_memory_is_online(mem);
	d->mem_online = n < 0 ? -1 : n;
	n = daxctl_memory_is_movable(mem);
	d->movable = n < 0 ? -1 : n;
}

static int scan_dax(struct pmem_inventory *inv)
{
	struct daxctl_ctx *ctx;
	struct daxctl_region *region;
	struct daxctl_dev *dev;
	struct daxctl_mapping *map;
	struct pmem_dax *d;
	unsigned int i, nmap;
	int rc;

	rc = daxctl_new(&ctx);
	if (rc) {
		log_dbg("libdaxctl: daxctl_new: %s", strerror(-rc));
		return 0;
	}
	daxctl_set_log_fn(ctx, dax_log);
	rc = 0;
	daxctl_region_foreach(ctx, region) {
		daxctl_dev_foreach(region, dev) {
			if (!daxctl_dev_get_size(dev))
				continue;	/* an idle seed */
			d = inv_push(&inv->dax, &inv->nr_dax, sizeof(*d));
			if (!d) {
				rc = -ENOMEM;
				goto out;
			}
			copy(d->name, sizeof(d->name), daxctl_dev_get_devname(dev));
			d->region_id = daxctl_region_get_id(region);
			d->target_node = daxctl_dev_get_target_node(dev);
			d->numa_node = d->target_node;
			d->size = daxctl_dev_get_size(dev);
			/* 0: libdaxctl couldn't read it (root only), nor
			 * /proc/iomem, which shows zeros to other users */
			d->phys_start = daxctl_dev_get_resource(dev);
			if (!d->phys_start)
				d->phys_start = PMEM_UNKNOWN;
			d->phys_size = d->size;
			d->major = (unsigned int)daxctl_dev_get_major(dev);
			d->minor = (unsigned int)daxctl_dev_get_minor(dev);
			/* several ranges: only the first one is contiguous */
			nmap = 0;
			daxctl_mapping_foreach(dev, map) {
				if (!nmap++ && daxctl_mapping_get_start(map) ==
					       d->phys_start)
					d->phys_size = daxctl_mapping_get_size(map);
			}
			if (nmap <= 1)
				d->phys_size = d->size;
			if (d->phys_start == PMEM_UNKNOWN)
				d->phys_size = PMEM_UNKNOWN;
			dax_mode(d, dev);
			for (i = 0; i < inv->nr_ns; i++) {
				if (strcmp(inv->ns[i].chardev, d->name))
					continue;
				copy(d->namespace, sizeof(d->namespace),
				     inv->ns[i].name);
				if (inv->ns[i].numa_node >= 0)
					d->numa_node = inv->ns[i].numa_node;
			}
		}
	}
out:
	daxctl_unref(ctx);
	return rc;
}

/* "namespace12.3" -> region 12, id 3: the order to list them in */
static unsigned long long ns_order(const char *name)
{
	unsigned int r = ~0U, id = ~0U;

	sscanf(name, "namespace%u.%u", &r, &id);
	return (unsigned long long)r << 32 | id;
}

static int cmp_ns(const void *a, const void *b)
{
	unsigned long long x = ns_order(((const struct pmem_ns *)a)->name);
	unsigned long long y = ns_order(((const struct pmem_ns *)b)->name);

	return x < y ? -1 : x > y;
}

/** pmem_scan() - regions, namespaces and device-DAX devices, now */
int pmem_scan(struct pmem_inventory *inv)
{
	int rc;

	memset(inv, 0, sizeof(*inv));
	rc = scan_nd(inv);
	if (!rc && inv->nr_ns)
		qsort(inv->ns, inv->nr_ns, sizeof(*inv->ns), cmp_ns);
	if (!rc)
		rc = scan_dax(inv);
	if (rc)
		pmem_free(inv);
	return rc;
}

void pmem_free(struct pmem_inventory *inv)
{
	unsigned int i;

	for (i = 0; i < inv->nr_regions; i++)
		map_bad_free(&inv->regions[i].bb);
	for (i = 0; i < inv->nr_ns; i++)
		map_bad_free(&inv->ns[i].bb);
	free(inv->regions);
	free(inv->ns);
	free(inv->dax);
	memset(inv, 0, sizeof(*inv));
}

/*
 * The physical range @start + @psize of @name, and the bytes measurable
 * (@psize, else @size) into @t; 0, or 1 after a message when the range is
 * unknown (not root) and @flags don't allow that.
 */
static int set_range(const char *spec, const char *name, const char *lib,
		     unsigned long long start, unsigned long long psize,
		     unsigned long long size, unsigned int flags,
		     struct pmem_target *t)
{
	if (start == PMEM_UNKNOWN && !(flags & PMEM_RESOLVE_NOPHYS)) {
		log_err("%s: the physical range of %s is unknown (%s could not read it: are you root?)", spec, name, lib);
		return 1;
	}
	t->phys_start = start;
	t->phys_size = start == PMEM_UNKNOWN ? PMEM_UNKNOWN : psize;
	t->size = start == PMEM_UNKNOWN ? size : psize;
	if (!t->size || t->size == PMEM_UNKNOWN) {
		log_err("%s: the size of %s is unknown", spec, name);
		return 1;
	}
	return 0;
}

/*
 * Namespace @n's name, mode, region and NUMA node into @t: where its
 * memory is (the target node), else the device's node.
 */
static void set_ns(struct pmem_target *t, const struct pmem_ns *n)
{
	copy(t->namespace, sizeof(t->namespace), n->name);
	copy(t->mode, sizeof(t->mode), n->mode);
	copy(t->region, sizeof(t->region), n->region);
	t->numa_node = n->target_node >= 0 ? n->target_node : n->numa_node;
}

/* Fill @t from namespace @n; 0, or 1 after saying why it can't be measured. */
static int target_of_ns(const char *spec, const struct pmem_ns *n,
			unsigned int flags, struct pmem_target *t)
{
	const char *dev;

	if (!n->active) {
		log_err("%s: %s is disabled: enable it first ('ndctl enable-namespace %s')", spec, n->name, n->name);
		return 1;
	}
	if (!strcmp(n->mode, "sector")) {
		log_err("%s: %s is in sector mode (BTT): its blocks are remapped, so it has no physical range to measure; use fsdax, devdax or raw", spec, n->name);
		return 1;
	}
	dev = n->blockdev[0] ? n->blockdev : n->chardev;
	if (!dev[0]) {
		log_err("%s: %s (%s) has no block or device-DAX device",
			spec, n->name, n->mode);
		return 1;
	}
	if (set_range(spec, n->name, "libndctl", n->phys_start, n->phys_size,
		      n->size, flags, t))
		return 1;
	copy(t->kind, sizeof(t->kind), n->blockdev[0] ? "pmem" : "devdax");
	snprintf(t->device, sizeof(t->device), "/dev/%s", dev);
	set_ns(t, n);
	t->block = n->blockdev[0] != '\0';
	copy(t->mount, sizeof(t->mount), n->mount);
	return 0;
}

static int target_of_dax(const char *spec, const struct pmem_inventory *inv,
			 const struct pmem_dax *d, unsigned int flags,
			 struct pmem_target *t)
{
	unsigned int i;

	/* a namespace's device: the namespace says it all */
	for (i = 0; d->namespace[0] && i < inv->nr_ns; i++)
		if (!strcmp(inv->ns[i].name, d->namespace))
			return target_of_ns(spec, &inv->ns[i], flags, t);
	if (strcmp(d->mode, "devdax")) {
		log_err("%s: %s is %s, not a device-DAX device%s", spec,
			d->name, d->mode, strcmp(d->mode, "system-ram") ? "" :
			" (its memory is a NUMA node: use dram:NODE)");
		return 1;
	}
	if (set_range(spec, d->name, "libdaxctl", d->phys_start, d->phys_size,
		      d->size, flags, t))
		return 1;
	copy(t->kind, sizeof(t->kind), "devdax");
	snprintf(t->device, sizeof(t->device), "/dev/%s", d->name);
	copy(t->namespace, sizeof(t->namespace), d->namespace);
	copy(t->mode, sizeof(t->mode), "devdax");
	if (!d->namespace[0])
		snprintf(t->region, sizeof(t->region), "dax region %d",
			 d->region_id);
	t->numa_node = d->target_node >= 0 ? d->target_node : d->numa_node;
	t->block = false;
	return 0;
}

/*
 * A regular file (the user engine maps it; whether it is DAX, only its
 * mmap(MAP_SYNC) can tell): the namespace of the pmem block device its
 * filesystem is on, if it is on one, says where it lives.
 */
static void target_of_file(const char *spec, const struct stat *st,
			   const struct pmem_inventory *inv,
			   struct pmem_target *t)
{
	const struct pmem_ns *n;
	unsigned int i;

	copy(t->kind, sizeof(t->kind), "fsdax-file");
	copy(t->file, sizeof(t->file), spec);
	t->phys_start = t->phys_size = PMEM_UNKNOWN;
	t->size = (unsigned long long)st->st_size;
	for (i = 0; i < inv->nr_ns; i++) {
		n = &inv->ns[i];
		if (!n->blockdev[0] || n->rdev != st->st_dev)
			continue;
		snprintf(t->device, sizeof(t->device), "/dev/%s", n->blockdev);
		set_ns(t, n);
		break;
	}
}

static const char *file_type(mode_t m)
{
	if (S_ISREG(m))
		return "a regular file";
	if (S_ISDIR(m))
		return "a directory";
	return "not a device";
}

static int resolve_path(const char *spec, const struct pmem_inventory *inv,
			unsigned int flags, struct pmem_target *t)
{
	struct stat st;
	unsigned int i;

	if (stat(spec, &st)) {
		log_err("%s: %s", spec, strerror(errno));
		return 1;
	}
	if (S_ISREG(st.st_mode) && (flags & PMEM_RESOLVE_FILES)) {
		target_of_file(spec, &st, inv, t);
		return 0;
	}
	if (S_ISBLK(st.st_mode)) {
		for (i = 0; i < inv->nr_ns; i++)
			if (inv->ns[i].blockdev[0] && inv->ns[i].rdev == st.st_rdev)
				break;
		if (i < inv->nr_ns) {
			if (target_of_ns(spec, &inv->ns[i], flags, t))
				return 1;
			/* the path as given: what the user knows it by */
			copy(t->device, sizeof(t->device), spec);
			return 0;
		}
	} else if (S_ISCHR(st.st_mode)) {
		for (i = 0; i < inv->nr_dax; i++)
			if (makedev(inv->dax[i].major, inv->dax[i].minor) ==
			    st.st_rdev)
				break;
		if (i < inv->nr_dax) {
			if (target_of_dax(spec, inv, &inv->dax[i], flags, t))
				return 1;
			copy(t->device, sizeof(t->device), spec);
			return 0;
		}
	}
	if (S_ISBLK(st.st_mode))
		log_err("%s: not a pmem device (block device %u:%u belongs to no pmem namespace; see 'lattester-ctl list')", spec,
			major(st.st_rdev), minor(st.st_rdev));
	else if (S_ISCHR(st.st_mode))
		log_err("%s: not a device-DAX device (character device %u:%u; see 'lattester-ctl list')", spec, major(st.st_rdev),
			minor(st.st_rdev));
	else
		log_err("%s: not a pmem or device-DAX device (%s; see 'lattester-ctl list')%s", spec, file_type(st.st_mode),
			S_ISREG(st.st_mode) ? "; a file on a DAX filesystem is measured by 'run --engine user'" : "");
	return 1;
}

static int resolve_name(const char *spec, const struct pmem_inventory *inv,
			unsigned int flags, struct pmem_target *t)
{
	unsigned int i;

	for (i = 0; i < inv->nr_ns; i++)
		if (!strcmp(inv->ns[i].name, spec))
			return target_of_ns(spec, &inv->ns[i], flags, t);
	if (inv->nr_regions)
		log_err("%s: no such namespace (see 'lattester-ctl list' or 'ndctl list -Ni')", spec);
	else
		log_err("%s: no such namespace: this machine has no persistent memory regions", spec);
	return 1;
}

/**
 * pmem_resolve() - the device to claim and the range to measure
 * @spec: a path (/dev/pmem0, /dev/dax0.1, with PMEM_RESOLVE_FILES also a
 *	regular file) or a namespace name
 * @flags: PMEM_RESOLVE_*
 *
 * Returns 0, or 1 after a message naming what is wrong (no such device or
 * namespace, disabled, sector mode, not pmem at all).
 */
int pmem_resolve(const char *spec, unsigned int flags, struct pmem_target *t)
{
	struct pmem_inventory inv;
	unsigned int i;
	int rc;

	memset(t, 0, sizeof(*t));
	t->numa_node = -1;
	rc = pmem_scan(&inv);
	if (rc) {
		log_err("%s: cannot list persistent memory: %s", spec,
			strerror(-rc));
		return 1;
	}
	rc = flags & PMEM_RESOLVE_PATH ? resolve_path(spec, &inv, flags, t) :
	     resolve_name(spec, &inv, flags, t);
	copy(t->persistence, sizeof(t->persistence), PMEM_PERSIST_UNKNOWN);
	for (i = 0; !rc && i < inv.nr_regions; i++)
		if (!strcmp(inv.regions[i].name, t->region))
			copy(t->persistence, sizeof(t->persistence),
			     inv.regions[i].persistence);
	pmem_free(&inv);
	return rc;
}

/**
 * pmem_target_badblocks() - the known bad blocks of a resolved target
 * @t: from pmem_resolve()
 * @bl: out, to be freed with map_bad_free(): for a block device or a
 *	device-DAX device, offsets from the target's first byte (that of its
 *	usable range); for a file, offsets on the block device its filesystem
 *	is on (the namespace's usable range: map_file_bad() finds the file's
 *	bytes on them)
 *
 * A list that can't be read or placed (not root: no physical ranges) is
 * PMEM_BB_UNLOCATED; a device-DAX device without a libnvdimm namespace
 * (soft-reserved memory) or a file on no pmem namespace has no list,
 * PMEM_BB_NOLIST.  Returns 0, or a negative errno if persistent memory
 * can't be listed.
 */
/*
 * cxl_region_of() - the CXL region (regionN) a device-DAX device @dev
 * (/dev/daxX.Y) belongs to, from sysfs: dax_cxl puts its dax_regionN
 * under the CXL region (.../decoderX.Y/regionN/dax_regionN/daxN.M).
 * True with @buf set, else false.
 */
static bool cxl_region_of(const char *dev, char *buf, size_t len)
{
	const char *name = strrchr(dev, '/');
	char path[PATH_MAX], real[PATH_MAX], *p, *q;

	snprintf(path, sizeof(path), "/sys/bus/dax/devices/%s",
		 name ? name + 1 : dev);
	if (!realpath(path, real) || !strstr(real, "/decoder"))
		return false;
	p = strstr(real, "/dax_region");
	if (!p)
		return false;
	*p = '\0';
	q = strrchr(real, '/');
	if (!q || strncmp(q + 1, "region", 6))
		return false;
	snprintf(buf, len, "%s", q + 1);
	return true;
}

int pmem_target_badblocks(const struct pmem_target *t, struct pmem_badlist *bl)
{
	struct pmem_inventory inv;
	const struct pmem_ns *n = NULL;
	char cxl[PMEM_NAME];
	unsigned int i;
	int rc;

	memset(bl, 0, sizeof(*bl));
	if (!t->namespace[0] && !t->file[0] &&
	    cxl_region_of(t->device, cxl, sizeof(cxl))) {
		bb_state(bl, PMEM_BB_NOLIST, "it is CXL %s's memory, whose poison list lattester-ctl does not read (see 'cxl list -r %s --media-errors', in an ndctl newer than Debian 12's 76)", cxl, cxl);
		return 0;
	}
	if (!t->namespace[0]) {
		bb_state(bl, PMEM_BB_NOLIST, t->file[0] ?
			 "its filesystem is on no pmem namespace" :
			 "it belongs to no libnvdimm namespace, whose region keeps the list");
		return 0;
	}
	rc = pmem_scan(&inv);
	if (rc)
		return rc;
	for (i = 0; i < inv.nr_ns && !n; i++)
		if (!strcmp(inv.ns[i].name, t->namespace))
			n = &inv.ns[i];
	if (!n) {
		bb_state(bl, PMEM_BB_UNLOCATED, "%s is gone", t->namespace);
	} else {
		bl->state = n->bb.state;
		snprintf(bl->why, sizeof(bl->why), "%s", n->bb.why);
		rc = map_bad_clip(&n->bb, 0, PMEM_UNKNOWN, PMEM_UNKNOWN, bl);
	}
	pmem_free(&inv);
	if (rc)
		map_bad_free(bl);
	return rc;
}
