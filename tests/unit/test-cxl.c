// SPDX-License-Identifier: GPL-2.0
/*
 * test-cxl - what user/cxl.c makes of a CXL region, on a host without CXL:
 * user/cxl.c is built in here without libcxl (HAVE_LIBCXL undefined), and
 * its regions and device-DAX devices are made up, so that every state a
 * region can be in is checked without a CXL bus:
 *  - match_dax(): the device-DAX devices whose range starts inside the
 *    region's (its first byte in, its end out), the libnvdimm region over
 *    a pmem one;
 *  - resolve_region(): what `run --target cxl:regionN` measures (a devdax
 *    device in place, a system-ram one's node as dram:NODE) or the words
 *    of its refusal, with the fix: not committed, not enabled, range
 *    unknown, dax ranges unknown (not root), no dax device (ram: dax_cxl;
 *    pmem: no libnvdimm region, its namespaces, no namespace), two dax
 *    devices, a disabled one, memory offline, node unknown;
 *  - cxl_inv_note(): the words the run reports;
 *  - without libcxl: an empty inventory, and cxl_inv_resolve() refuses.
 * The libcxl side is tested in the VM (tests/vm/cases-cxl/).
 *
 *   test-cxl
 */
#include <stdio.h>
#include <string.h>

#include "../../user/cxl.c"
#include "../tap.h"

/* pmem.c stands in: cxl_inv_resolve() lists the device-DAX devices with it */
static struct pmem_inventory fake_pm;

int pmem_scan(struct pmem_inventory *inv)
{
	*inv = fake_pm;
	return 0;
}

void pmem_free(struct pmem_inventory *inv)
{
	memset(inv, 0, sizeof(*inv));
}

#define MiB	(1ULL << 20)
#define R0	0x290000000ULL		/* the region's start */

static struct pmem_dax dax(const char *name, const char *mode,
			   unsigned long long start, int node)
{
	struct pmem_dax d;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "%s", name);
	snprintf(d.mode, sizeof(d.mode), "%s", mode);
	d.phys_start = start;
	d.size = d.phys_size = 512 * MiB;
	d.target_node = d.numa_node = node;
	d.mem_online = d.mem_blocks = d.movable = -1;
	return d;
}

/* A committed, enabled region of @mode at R0, 1 GiB, its dax devices from
 * @pm matched and resolved. */
static struct cxl_inv_region region(const char *mode,
				    const struct pmem_inventory *pm)
{
	struct cxl_inv_region r;

	memset(&r, 0, sizeof(r));
	snprintf(r.name, sizeof(r.name), "region0");
	snprintf(r.mode, sizeof(r.mode), "%s", mode);
	r.start = R0;
	r.size = 1024 * MiB;
	r.ways = 1;
	r.granularity = 256;
	r.committed = r.enabled = true;
	r.dax.target_node = -1;
	match_dax(&r, pm);
	resolve_region(&r, pm);
	return r;
}

static void refused(const struct cxl_inv_region *r, const char *what,
		    const char *words, const char *fix)
{
	check(!r->resolved[0] && strstr(r->why, words) &&
	      (!fix || strstr(r->why, fix)),
	      "%s: refused: '%s'", what, r->why);
}

static void resolved(const struct cxl_inv_region *r, const char *what,
		     const char *want)
{
	check(!strcmp(r->resolved, want) && !r->why[0],
	      "%s: resolves to '%s' (want '%s'; why '%s')", what, r->resolved,
	      want, r->why);
}

static void test_states(void)
{
	struct pmem_inventory pm = { 0 };
	struct pmem_dax d[3];
	struct pmem_region nd;
	struct pmem_ns ns[2];
	struct cxl_inv_region r;

	r = region("ram", &pm);
	refused(&r, "ram, no dax device", "committed but has no dax device",
		"modprobe dax_cxl");

	memset(&r, 0, sizeof(r));
	snprintf(r.name, sizeof(r.name), "region3");
	r.start = r.size = CXL_UNKNOWN;
	resolve_region(&r, &pm);
	refused(&r, "not committed", "not committed",
		"echo 1 > /sys/bus/cxl/devices/region3/commit");
	r.committed = true;
	resolve_region(&r, &pm);
	refused(&r, "committed, not enabled", "committed but not enabled",
		"'cxl enable-region region3'");
	r.enabled = true;
	resolve_region(&r, &pm);
	refused(&r, "range unknown", "its physical range is unknown", NULL);

	/* a device-DAX device: where it starts decides */
	d[0] = dax("dax0.0", "devdax", R0, 1);
	pm.dax = d;
	pm.nr_dax = 1;
	r = region("ram", &pm);
	resolved(&r, "ram, devdax", "/dev/dax0.0");
	check(r.nr_dax == 1 && !strcmp(r.dax.name, "dax0.0") &&
	      !strcmp(r.dax_names, "dax0.0"), "ram, devdax: its dax device");
	d[0].phys_start = R0 + 1024 * MiB;	/* the byte after the region */
	r = region("ram", &pm);
	check(r.nr_dax == 0, "a dax device starting at the region's end is not its");
	d[0].phys_start = R0 - 4096;
	r = region("ram", &pm);
	check(r.nr_dax == 0, "a dax device starting before the region is not its");
	d[0].phys_start = R0 + 1024 * MiB - 4096;
	r = region("ram", &pm);
	check(r.nr_dax == 1, "a dax device starting at the region's last page is its");

	d[0].phys_start = PMEM_UNKNOWN;
	r = region("ram", &pm);
	refused(&r, "dax ranges unreadable", "can't read the devices' physical ranges", "are you root?");

	/* system-ram: the node */
	d[0] = dax("dax0.0", "system-ram", R0, 1);
	d[0].mem_online = d[0].mem_blocks = 4;
	d[0].movable = 1;
	r = region("ram", &pm);
	resolved(&r, "ram, system-ram online", "dram:1");
	{
		char note[256];

		cxl_inv_note(note, sizeof(note), &r);
		check(!strcmp(note, "a ram region: dax0.0 in system-ram mode, its memory on node 1 (online, movable)"),
		      "note: '%s'", note);
	}
	d[0].mem_online = d[0].mem_blocks = d[0].movable = -1;	/* not root */
	r = region("ram", &pm);
	resolved(&r, "ram, system-ram, state unknown", "dram:1");
	d[0].mem_online = 0;
	d[0].mem_blocks = 4;
	r = region("ram", &pm);
	refused(&r, "system-ram offline", "in system-ram mode with its memory offline",
		"'daxctl online-memory dax0.0'");
	d[0].mem_online = 2;
	r = region("ram", &pm);
	resolved(&r, "system-ram partly online", "dram:1");
	d[0].target_node = -1;
	r = region("ram", &pm);
	refused(&r, "system-ram, node unknown", "the node its memory is on is unknown", NULL);
	d[0] = dax("dax0.0", "disabled", R0, 1);
	r = region("ram", &pm);
	refused(&r, "dax device disabled", "dax0.0 is disabled, no driver has it",
		"'daxctl reconfigure-device --mode=devdax dax0.0'");

	/* two in the region, one elsewhere */
	d[0] = dax("dax0.0", "devdax", R0, 1);
	d[1] = dax("dax0.1", "devdax", R0 + 512 * MiB, 1);
	d[2] = dax("dax5.0", "devdax", 0x100000000ULL, 0);
	pm.nr_dax = 3;
	r = region("ram", &pm);
	refused(&r, "two dax devices", "it holds 2 dax devices (dax0.0, dax0.1)",
		"--target /dev/daxX.Y");

	/* pmem: through libnvdimm */
	pm.nr_dax = 0;
	r = region("pmem", &pm);
	refused(&r, "pmem, no libnvdimm region", "no libnvdimm region", "cxl_pmem");
	memset(&nd, 0, sizeof(nd));
	snprintf(nd.name, sizeof(nd.name), "region1");
	nd.phys_start = R0;
	pm.regions = &nd;
	pm.nr_regions = 1;
	r = region("pmem", &pm);
	check(!strcmp(r.nd_region, "region1"), "pmem: its libnvdimm region, by address");
	refused(&r, "pmem, no namespace", "a pmem region with no device-DAX device",
		"'ndctl create-namespace -r region1 -m devdax'");
	memset(ns, 0, sizeof(ns));
	snprintf(ns[0].name, sizeof(ns[0].name), "namespace1.0");
	snprintf(ns[0].region, sizeof(ns[0].region), "region1");
	snprintf(ns[0].mode, sizeof(ns[0].mode), "fsdax");
	ns[0].active = true;
	ns[1] = ns[0];
	snprintf(ns[1].name, sizeof(ns[1].name), "namespace1.1");
	snprintf(ns[1].mode, sizeof(ns[1].mode), "sector");
	pm.ns = ns;
	pm.nr_ns = 2;
	r = region("pmem", &pm);
	refused(&r, "pmem, an fsdax namespace", "measure its namespaces by name (namespace1.0, --target namespaceX.Y)",
		"-m devdax");
	d[0] = dax("dax1.0", "devdax", R0 + 130 * MiB, 1);
	snprintf(d[0].namespace, sizeof(d[0].namespace), "namespace1.2");
	pm.nr_dax = 1;
	r = region("pmem", &pm);
	resolved(&r, "pmem, a devdax namespace", "/dev/dax1.0");
	{
		char note[256];

		cxl_inv_note(note, sizeof(note), &r);
		check(!strcmp(note, "a pmem region: dax1.0 in devdax mode, namespace1.2, node 1"),
		      "note: '%s'", note);
	}
}

static void test_without_libcxl(void)
{
	struct cxl_inventory inv;
	struct cxl_inv_resolved res;

	check(!cxl_inv_scan(&inv, NULL) && !inv.libcxl && !inv.nr_regions &&
	      !inv.nr_memdevs && !inv.nr_decoders,
	      "without libcxl: an empty inventory that says so");
	cxl_inv_free(&inv);
	fprintf(stderr, "# the refusal expected next:\n");
	check(cxl_inv_resolve("cxl:region0", "region0", &res) == 1,
	      "without libcxl: cxl:region0 refused");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_states();
	test_without_libcxl();
	return tap_done("cxl");
}
