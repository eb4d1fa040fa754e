// SPDX-License-Identifier: GPL-2.0
/*
 * test-keep - the region the user engine keeps between a sweep's points
 * (user/engine-user.c, struct user_keep), without a sweep around it.  It
 * includes engine-user.c, so that its rules can be asked directly:
 *  - keep_fits(): a point that changes the NUMA node, the region, the pages
 *    (--hugepages) or the target kind, or on persistent memory the file,
 *    its offset or its access (a load maps read-only, a store read-write),
 *    needs a region of its own; a point that changes none of them (another
 *    op, pattern, size, CPU on DRAM; the same file through another open
 *    file) takes the kept one.  A node this host lacks is fine: nothing is
 *    allocated there;
 *  - chase_fits() and keep_after(): the chase cycle is taken for the same
 *    size, TLB block and seed on DRAM only, and not after a run that wrote
 *    to the region (a store) or on persistent memory;
 *  - user_engine_measure() for real, on this host's DRAM: the first run
 *    allocates (no LATT_RES_REUSED) and leaves the region in *keep; a run
 *    of another op takes it (LATT_RES_REUSED, the same memory); another
 *    region or --hugepages gets a fresh one; a chase takes it and the next
 *    chase of the same layout its cycle too; a run aborted by a stop
 *    leaves nothing kept; @keep NULL (run, --no-reuse) keeps nothing.
 *
 * Built and run by tests/unit/test-sweep-user.sh:
 *   cc -I include -I user tests/unit/test-keep.c user/log.c user/host.c \
 *       user/map.c user/parse.c -lnuma -pthread
 *   test-keep DIR    (DIR: where to make a scratch file)
 */
#include "../../user/engine-user.c"

#include <fcntl.h>

#include "../tap.h"

#define MiB	(1024 * 1024ULL)

volatile sig_atomic_t run_stops;	/* runner.c's, which is not linked */

static struct latt_info info;
static __u64 hist[LATT_HIST_BUCKETS];

static void dram_opts(struct run_opts *o, __u64 region)
{
	struct latt_config *c = &o->cfg;

	memset(o, 0, sizeof(*o));
	snprintf(o->target, sizeof(o->target), "dram:0");
	c->target = LATT_TARGET_DRAM;
	c->node = 0;
	c->op = LATT_OP_LOAD;
	c->fence = LATT_FENCE_DEFAULT;
	c->pattern = LATT_PAT_RAND;
	c->size = 64;
	c->samples = 2000;
	c->region = region;
	c->seed = 0x1a77e57e;
	c->chain = 1;
	c->width = LATT_WIDTH_AUTO;
}

/* One run of @o into a fresh report; its result flags, or ~0U. */
static __u32 measure(const struct run_opts *o, struct user_keep **keep,
		     int abort_at)
{
	struct run_report r = { .info = &info, .hist = hist };
	struct run_hooks h = { .abort_at = abort_at };

	if (user_engine_measure(o, &o->cfg, &r, &h, keep, NULL))
		return ~0U;
	if (r.res.state != LATT_STATE_DONE)
		return ~1U;
	return r.res.flags;
}

/* The rules, on regions made up: no memory behind them. */
static void test_fits(const char *dir)
{
	struct user_keep k = { 0 };
	struct run_opts o;
	struct latt_config *c = &o.cfg;
	char path[4096];
	struct stat st;
	int fd, fd2;

	dram_opts(&o, 16 * MiB);
	k.target = LATT_TARGET_DRAM;
	k.node = 0;
	k.region = 16 * MiB;
	check(keep_fits(&k, &o, c), "dram: the same node, region and pages fit");
	c->op = LATT_OP_STORE;
	c->pattern = LATT_PAT_SEQ;
	c->size = 256;
	c->cpu = 1;
	check(keep_fits(&k, &o, c), "dram: another op, pattern, size, CPU fit");
	c->node = 1;
	check(!keep_fits(&k, &o, c), "dram: another node does not");
	c->node = 0;
	c->region = 32 * MiB;
	check(!keep_fits(&k, &o, c), "dram: another region does not");
	c->region = 16 * MiB;
	o.hugepages = true;
	check(!keep_fits(&k, &o, c), "dram: --hugepages on 4 KiB pages does not");
	k.hugepages = true;
	check(keep_fits(&k, &o, c), "dram: --hugepages on huge pages fits");
	c->target = LATT_TARGET_PMEM;
	check(!keep_fits(&k, &o, c), "a pmem point on a dram region does not");

	/* a scratch file stands for a DAX file: only its identity counts */
	snprintf(path, sizeof(path), "%s/keep-file", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	fd2 = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fd2 < 0 || fstat(fd, &st)) {
		skip("a scratch file in %s: %s", dir, strerror(errno));
		return;
	}
	dram_opts(&o, 16 * MiB);
	memset(&k, 0, sizeof(k));
	k.target = LATT_TARGET_PMEM;
	k.region = 16 * MiB;
	k.file_known = true;
	k.dev = st.st_dev;
	k.ino = st.st_ino;
	k.rdev = st.st_rdev;
	k.offset = 4 * MiB;
	c->target = LATT_TARGET_PMEM;
	c->fd = fd2;
	o.tgt.offset = 4 * MiB;
	check(keep_fits(&k, &o, c), "pmem: the same file (another open file), "
	      "offset, region and access fit");
	c->op = LATT_OP_STORE;
	check(!keep_fits(&k, &o, c), "pmem: a store on a read-only mapping "
	      "does not");
	c->op = LATT_OP_LOAD;
	c->pattern = LATT_PAT_CHASE;
	check(!keep_fits(&k, &o, c), "pmem: a chase (it writes its links) on a "
	      "read-only mapping does not");
	k.writes = true;
	check(keep_fits(&k, &o, c), "pmem: a chase on a read-write mapping "
	      "fits");
	c->pattern = LATT_PAT_RAND;
	check(!keep_fits(&k, &o, c), "pmem: a load on a read-write mapping does "
	      "not (loads map read-only)");
	k.writes = false;
	o.tgt.offset = 8 * MiB;
	check(!keep_fits(&k, &o, c), "pmem: another --offset does not");
	o.tgt.offset = 4 * MiB;
	c->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	check(c->fd >= 0 && !keep_fits(&k, &o, c), "pmem: another file does "
	      "not");
	if (c->fd >= 0)
		close(c->fd);
	c->fd = fd2;
	k.file_known = false;
	check(!keep_fits(&k, &o, c), "pmem: a file that could not be told "
	      "apart does not");
	close(fd);
	close(fd2);
	unlink(path);

	/* the chase cycle */
	dram_opts(&o, 16 * MiB);
	memset(&k, 0, sizeof(k));
	k.target = LATT_TARGET_DRAM;
	k.region = 16 * MiB;
	c->pattern = LATT_PAT_CHASE;
	check(!chase_fits(&k, c), "chase: none built yet");
	keep_after(&k, &o, c);
	check(chase_fits(&k, c), "chase: the one a chase left fits the same");
	c->chain = 16;
	c->op = LATT_OP_LOAD;
	check(chase_fits(&k, c), "chase: another --chain walks the same cycle");
	c->seed++;
	check(!chase_fits(&k, c), "chase: another --seed does not fit");
	c->seed--;
	c->size = 128;
	check(!chase_fits(&k, c), "chase: another --size does not fit");
	c->size = 64;
	c->stride = 4096;
	check(!chase_fits(&k, c), "chase: another --tlb-locality does not fit");
	c->stride = 0;
	c->pattern = LATT_PAT_RAND;
	keep_after(&k, &o, c);
	c->pattern = LATT_PAT_CHASE;
	check(chase_fits(&k, c), "chase: a load run in between leaves it");
	c->op = LATT_OP_STORE;
	c->pattern = LATT_PAT_RAND;
	keep_after(&k, &o, c);
	c->op = LATT_OP_LOAD;
	c->pattern = LATT_PAT_CHASE;
	check(!chase_fits(&k, c), "chase: a store in between overwrote it");
	k.target = LATT_TARGET_PMEM;
	c->target = LATT_TARGET_PMEM;
	keep_after(&k, &o, c);
	check(!chase_fits(&k, c), "chase: never kept on persistent memory");
}

/* The engine for real, on 16 MiB of this host's DRAM. */
static void test_measure(void)
{
	struct user_keep *keep = NULL;
	struct run_opts o;
	char *base;
	__u32 f;

	if (numa_available() < 0) {
		skip("libnuma: NUMA is not available here");
		return;
	}
	user_engine_info(&info);
	dram_opts(&o, 16 * MiB);
	f = measure(&o, &keep, 2);
	check(f != ~0U && f != ~1U && !(f & LATT_RES_REUSED) && keep &&
	      keep->region == 16 * MiB, "the first run: a fresh region, kept");
	base = keep ? keep->base : NULL;
	o.cfg.op = LATT_OP_STORE;
	o.cfg.pattern = LATT_PAT_SEQ;
	f = measure(&o, &keep, 2);
	check(f != ~0U && f != ~1U && (f & LATT_RES_REUSED) && keep &&
	      keep->base == base, "a store run takes it: LATT_RES_REUSED, the "
	      "same memory");
	o.cfg.region = 8 * MiB;
	f = measure(&o, &keep, 2);
	check(f != ~0U && f != ~1U && !(f & LATT_RES_REUSED) && keep &&
	      keep->region == 8 * MiB, "another region: a fresh one");
	o.hugepages = true;
	f = measure(&o, &keep, 2);
	check(f != ~0U && f != ~1U && !(f & LATT_RES_REUSED) && keep &&
	      keep->hugepages, "--hugepages: a fresh one");
	o.hugepages = false;
	o.cfg.op = LATT_OP_LOAD;
	o.cfg.pattern = LATT_PAT_CHASE;
	o.cfg.chain = 4;
	f = measure(&o, &keep, 2);
	check(f != ~0U && f != ~1U && !(f & LATT_RES_REUSED) && keep &&
	      keep->chase, "a chase on 4 KiB pages: a fresh region, its cycle "
	      "kept");
	f = measure(&o, &keep, 2);
	check(f != ~0U && f != ~1U && (f & LATT_RES_REUSED) && keep &&
	      chase_fits(keep, &o.cfg), "the same chase again: the region "
	      "and its cycle taken");
	/* a stop before the run: aborted at its first window's end */
	o.cfg.samples = 100000000;
	run_stops = 2;
	f = measure(&o, &keep, 2);
	run_stops = 0;
	check(f == ~1U && !keep, "a run aborted: nothing kept");
	o.cfg.samples = 2000;
	f = measure(&o, &keep, 2);
	check(f != ~0U && f != ~1U && !(f & LATT_RES_REUSED) && keep,
	      "so the next run makes its own");
	user_keep_free(&keep);
	check(!keep, "user_keep_free() frees it");
	f = measure(&o, NULL, 2);
	check(f != ~0U && f != ~1U && !(f & LATT_RES_REUSED),
	      "without a keep (run, --no-reuse): never LATT_RES_REUSED");
}

int main(int argc, char **argv)
{
	test_fits(argc > 1 ? argv[1] : "/tmp");
	test_measure();
	return tap_done("keep");
}
