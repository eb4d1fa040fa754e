// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl-fuzz - hostile input against /dev/lattester: random command
 * numbers, mutated START configurations, bad user pointers (NULL, unmapped,
 * read-only, misaligned, straddling into an unmapped page, kernel and
 * non-canonical addresses), RESULT buffers that are bad or too small, ABORTs
 * at random times and real short runs started, aborted and finished in
 * between; files are closed and reopened (closing the starter's aborts).
 *
 * Every call's result is checked against a model of the documented ABI
 * (Documentation/ioctl.md, in the module's check order): a START config's
 * exact errno, EFAULT exactly when a pointer can't be read or written,
 * ENOTTY for every other command number, and the contents of what comes
 * back (reserved fields zero, count == samples for a DONE run, histogram
 * sum == count).  Afterwards: no run is left running once every file is
 * closed, and a normal run still takes all its samples.
 *
 *   ioctl-fuzz [--seed N] [--calls N] [--procs N] [--verbose]
 *
 * --seed (default: from the clock; always printed) fixes each worker's call
 * sequence, which does not depend on what the calls return: with --procs 1
 * a seed replays the same calls.  --calls (default 100000) is the total
 * over --procs workers (default 2, one per CPU of the test VM), which run
 * concurrently on their own files.  Runs it starts stay small (region
 * <= 64 MiB, samples <= 10^5).  Never passes LATT_CFG_FORCE together with
 * an exclusively opened pmem device, so the VM's pmem is never written.
 * TAP output (tests/tap.h); exit 1 on any failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <uapi/lattester.h>
#include <lattester/pattern.h>
#include "../tap.h"
#include "vmtest.h"

#define MAX_NUMNODES	1024	/* sizes the bitmaps: Debian's NODES_SHIFT=10 */
#define MAX_CPUS	256
#define NDEV		4	/* /dev/lattester files per worker */
#define NERR		160	/* errno slots in the statistics */
#define MAX_REPORTS	20	/* unexpected results printed per worker */

/* Limits on the runs the fuzzer may really start. */
#define SAFE_REGION	(64ULL << 20)
#define SAFE_SAMPLES	100000ULL
#define SAFE_OUTLIERS	65536U
#define SAFE_CHASE	1000000ULL	/* chain * samples */

enum { C_INFO, C_START, C_STATUS, C_ABORT, C_RESULT, C_OTHER, C_NR };
static const char *const cmd_names[C_NR] = {
	"GET_INFO", "START", "STATUS", "ABORT", "RESULT", "other",
};

struct stats {
	unsigned long calls[C_NR];
	unsigned long err[C_NR][NERR];	/* [0] = success */
	unsigned long unexpected;
	unsigned long started;		/* START returned 0 */
	unsigned long result_state[5];	/* RESULT's state, on success */
	unsigned long reopens;
	unsigned long waits;
	unsigned long dram_enomem;
	unsigned long bad_output;	/* a successful call returned garbage */
};

struct shared {
	int run_held;			/* the module holds a run's results */
	struct stats st[];
};

/* --- the environment, learned before the workers start ------------------- */

static struct latt_info info;
static unsigned char cpu_online[MAX_CPUS];
static int cpu_node[MAX_CPUS];
static unsigned char node_mem[MAX_NUMNODES];	/* online with memory */
static unsigned int nr_nodes;	/* possible nodes: the kernel's nr_node_ids */
static __u64 ns_start, ns_size;			/* raw pmem namespace */
static int have_pmem;

/* What the module makes of a PMEM claim's fd (see claim_kind()). */
enum { F_BAD, F_WRONG, F_SHARED, F_EXCL };
/* Descriptors to claim with: pmem0 (O_EXCL and not), -1, closed ones,
 * /dev/null, a regular file, a pipe, 0..2, /dev/lattester. */
static int claims[16];
static int nclaims;
static int excl_fd = -1;

static struct shared *sh;
static struct stats *me;
static int worker;
static int verbose;

/* --- random numbers (independent of what the calls return) ---------------- */

static struct latt_prng rng;

static __u64 rnd(void)
{
	return latt_prng_next(&rng);
}

static __u64 below(__u64 n)
{
	return latt_prng_below(&rng, n);
}

/* true with probability pct/100 */
static int chance(unsigned int pct)
{
	return below(100) < pct;
}

static __u64 pick(const __u64 *v, size_t n)
{
	return v[below(n)];
}
#define PICK(arr) pick(arr, sizeof(arr) / sizeof(arr[0]))

static const __u64 boundary[] = {
	0, 1, 2, 3, 7, 8, 15, 16, 32, 63, 64, 65, 100, 127, 128, 4095, 4096,
	4097, 65535, 65536, 1ULL << 20, (1ULL << 20) + 1, 4ULL << 20,
	(4ULL << 20) + 64, 16ULL << 20, 64ULL << 20, 1ULL << 30, 0x7fffffff,
	0x80000000, 0xfffffffe, 0xffffffff, 1ULL << 32, 1ULL << 40,
	(1ULL << 40) + 1, (1ULL << 40) - 1, 1ULL << 62, 1ULL << 63,
	~0ULL, ~0ULL - 1, 0x5a5a5a5a5a5a5a5aULL,
};

/* A value to put in a mutated field. */
static __u64 mutant(__u64 old)
{
	switch (below(6)) {
	case 0:
	case 1:
		return PICK(boundary);
	case 2:
		return rnd();
	case 3:
		return old ^ (1ULL << below(64));
	case 4:
		return below(256);
	default:
		return old + below(5) - 2;
	}
}

/* --- user pointers ------------------------------------------------------- */

static long pagesz;
static char *good;		/* GOOD_SIZE bytes, read-write */
#define GOOD_SIZE	(64 << 10)
static char *ro;		/* one page, read-only */
static char *edge;		/* one page; the next one is unmapped */
static char *gone;		/* an unmapped page */
static char *hist;		/* HIST_BYTES, then a PROT_NONE page */
#define HIST_BYTES	(LATT_HIST_BUCKETS * 8UL)
static size_t hist_size;	/* HIST_BYTES rounded up to pages */
static char *outl;		/* OUTL_PAGES pages, then a PROT_NONE page */
#define OUTL_PAGES	16
static size_t outl_size;

enum {
	P_GOOD, P_MISALIGNED, P_NULL, P_GONE, P_RO, P_EDGE, P_GUARD,
	P_KERNEL, P_NONCANON, P_HIGH, P_LOW, P_NR
};
static const char *const ptr_names[P_NR] = {
	"good", "misaligned", "NULL", "unmapped", "read-only", "straddling",
	"PROT_NONE", "kernel", "non-canonical", "~0", "low",
};

struct uptr {
	char *p;
	int kind;
	size_t rd, wr;		/* bytes readable/writable from p */
};

/*
 * A pointer for a struct of @size bytes.  @bad_pct: how often it is not a
 * plain good one.  Straddling pointers end the struct's first k bytes at an
 * unmapped page, k around @size.
 */
static struct uptr uptr(size_t size, unsigned int bad_pct)
{
	static const __u64 kern[] = {
		0xffff888000000000ULL, 0xffffffff81000000ULL,
		0xffffc90000000000ULL, 0xfffffe0000000000ULL,
	};
	static const __u64 noncanon[] = {
		0x0000800000000000ULL, 0x8000000000000000ULL,
		0xdead000000000000ULL, 0x00007ffffffff000ULL,
	};
	struct uptr u = { NULL, P_GOOD, 0, 0 };
	size_t off, k;

	u.kind = chance(bad_pct) ? (int)(1 + below(P_NR - 1)) : P_GOOD;
	switch (u.kind) {
	case P_GOOD:
		off = below((GOOD_SIZE - size) / 8) * 8;
		u.p = good + off;
		u.rd = u.wr = GOOD_SIZE - off;
		break;
	case P_MISALIGNED:
		off = below(GOOD_SIZE - size - 8) | 1;
		u.p = good + off;
		u.rd = u.wr = GOOD_SIZE - off;
		break;
	case P_NULL:
		break;
	case P_GONE:
		u.p = gone + below(pagesz);
		break;
	case P_RO:
		off = below((size_t)pagesz - size + 1);
		u.p = ro + off;
		u.rd = pagesz - off;
		break;
	case P_EDGE:
		k = below(size + 16) + 1;
		if (k > (size_t)pagesz)
			k = pagesz;
		u.p = edge + pagesz - k;
		u.rd = u.wr = k;
		break;
	case P_GUARD:
		u.p = hist + hist_size + below(pagesz);
		break;
	case P_KERNEL:
		u.p = (char *)(uintptr_t)(PICK(kern) + below(1 << 20));
		break;
	case P_NONCANON:
		u.p = (char *)(uintptr_t)(PICK(noncanon) + below(4096));
		break;
	case P_HIGH:
		u.p = (char *)(uintptr_t)(~0ULL - below(512));
		break;
	case P_LOW:
		u.p = (char *)(uintptr_t)(1 + below(65535));
		break;
	}
	return u;
}

/* Put @len bytes of @src where @u points, as far as they can be written. */
static void place(const struct uptr *u, const void *src, size_t len)
{
	size_t n = len < u->rd ? len : u->rd;

	if (!n)
		return;
	if (u->kind == P_RO) {
		mprotect(ro, pagesz, PROT_READ | PROT_WRITE);
		memcpy(u->p, src, n);
		mprotect(ro, pagesz, PROT_READ);
	} else {
		memcpy(u->p, src, n);
	}
}

/* --- the model of the ABI ------------------------------------------------ */

static int is_store(__u32 op)
{
	return op >= LATT_OP_STORE && op <= LATT_OP_NT_STORE;
}

static __u32 default_fence(__u32 op)
{
	if (op == LATT_OP_LOAD || op == LATT_OP_NT_LOAD)
		return LATT_FENCE_NONE;
	return op == LATT_OP_STORE_CLFLUSH ? LATT_FENCE_MFENCE :
	       LATT_FENCE_SFENCE;
}

static int all_zero(const __u64 *v, size_t n)
{
	while (n--)
		if (*v++)
			return 0;
	return 1;
}

/* latt_pick_sample(): 0 or -errno; the fence is resolved. */
static int model_sample(const struct latt_config *c)
{
	__u64 f = info.features;
	__u32 w = c->width, widths = info.widths;

	if (!(f & LATT_FEAT_RDTSCP) || !(f & LATT_FEAT_CLFLUSH))
		return -EOPNOTSUPP;
	if (c->op == LATT_OP_NT_LOAD && !(f & LATT_FEAT_SSE4_1))
		return -EOPNOTSUPP;
	if (c->op == LATT_OP_STORE_CLWB && !(f & LATT_FEAT_CLWB))
		return -EOPNOTSUPP;
	if (c->op == LATT_OP_STORE_CLFLUSHOPT && !(f & LATT_FEAT_CLFLUSHOPT))
		return -EOPNOTSUPP;
	if (!is_store(c->op) && c->fence == LATT_FENCE_SFENCE)
		return -EINVAL;
	if (w == LATT_WIDTH_AUTO) {
		w = 1U << (31 - __builtin_clz(widths));
		if (c->op == LATT_OP_NT_LOAD && w == 32 &&
		    !(f & LATT_FEAT_AVX2))
			w = 16;
	} else {
		if (w != 8 && w != 16 && w != 32 && w != 64)
			return -EINVAL;
		if (!(widths & w))
			return -EOPNOTSUPP;
		if (c->op == LATT_OP_NT_LOAD && w == 32 &&
		    !(f & LATT_FEAT_AVX2))
			return -EOPNOTSUPP;
	}
	if (c->op == LATT_OP_NT_LOAD && w == 8)
		return -EINVAL;
	return 0;
}

/*
 * What START's validation says about @c0 (before the busy check and the
 * target's allocation): 0 or -errno.  The module's order, which
 * Documentation/ioctl.md describes.
 */
static int model_check(const struct latt_config *c0)
{
	struct latt_config c = *c0;
	struct latt_pattern pat;
	__u32 node;

	if (c.pad || !all_zero(c.reserved, 6) ||
	    c.flags & ~LATT_CFG_FLAGS_ALL)
		return -EINVAL;
	if (!c.op || c.op > LATT_OP_MAX || !c.pattern ||
	    c.pattern > LATT_PAT_MAX || c.fence > LATT_FENCE_MAX || c.pad2)
		return -EINVAL;
	if (c.target == LATT_TARGET_DRAM) {
		if (c.fd || c.phys_addr)
			return -EINVAL;
	} else if (c.target == LATT_TARGET_PMEM) {
		if ((is_store(c.op) || c.pattern == LATT_PAT_CHASE) &&
		    !(c.flags & LATT_CFG_FORCE))
			return -EPERM;
	} else {
		return -EINVAL;
	}
	if (!c.samples || c.samples > LATT_MAX_SAMPLES)
		return -EINVAL;
	if (!c.region || c.region > LATT_MAX_REGION || c.size > c.region)
		return -EINVAL;
	if (c.max_outliers > LATT_MAX_OUTLIERS)
		return -EINVAL;
	if (c.window_us && (c.window_us < LATT_MIN_WINDOW_US ||
			    c.window_us > LATT_MAX_WINDOW_US))
		return -EINVAL;
	if (!c.chain)
		c.chain = 1;
	if (c.chain > LATT_MAX_CHAIN)
		return -EINVAL;
	if (c.pattern == LATT_PAT_CHASE) {
		if (c.op != LATT_OP_LOAD || c.flags & LATT_CFG_WARM ||
		    c.fence > LATT_FENCE_NONE)
			return -EINVAL;
	} else if (c.chain != 1) {
		return -EINVAL;
	}
	if (latt_pattern_init(&pat, c.pattern, c.size, c.stride, c.region,
			      c.seed))
		return -EINVAL;
	if (c.cpu >= info.nr_cpu_ids)
		return -EINVAL;
	if (c.cpu >= MAX_CPUS || !cpu_online[c.cpu])
		return -ENODEV;
	node = c.node;
	if (c.target == LATT_TARGET_PMEM) {
		if (node != LATT_NODE_LOCAL && node >= nr_nodes)
			return -EINVAL;
	} else {
		if (node == LATT_NODE_LOCAL)
			node = cpu_node[c.cpu];
		if (node >= nr_nodes)
			return -EINVAL;
		if (!node_mem[node])
			return -ENODEV;
	}
	if (c.fence == LATT_FENCE_DEFAULT)
		c.fence = default_fence(c.op);
	if (c.pattern == LATT_PAT_CHASE)
		return c.width != LATT_WIDTH_AUTO && c.width != 8 ? -EINVAL : 0;
	return model_sample(&c);
}

static dev_t pmem_rdev;

/*
 * What the module makes of @fd as a claim, looked up in this process's
 * file table as the module does: EBADF (also for a read-only file when the
 * run would write), EINVAL (not a pmem disk or a
 * device-DAX device), EBUSY (pmem0, but not opened O_EXCL by that file) or
 * F_EXCL.
 */
static int claim_kind(int fd)
{
	struct stat s;

	if (fstat(fd, &s))
		return F_BAD;
	if (fd == excl_fd)
		return F_EXCL;
	if (S_ISBLK(s.st_mode) && have_pmem && s.st_rdev == pmem_rdev)
		return F_SHARED;
	return F_WRONG;
}

/* latt_pmem_map() for a configuration that passed validation. */
static int model_pmem(const struct latt_config *c)
{
	__u64 end = c->phys_addr + c->region;
	int kind;

	if (c->phys_addr % (__u64)pagesz || end < c->phys_addr)
		return -EINVAL;
	kind = claim_kind(c->fd);
	if (kind == F_BAD)
		return -EBADF;
	/* overwriting takes a claim opened for writing */
	if ((c->op >= LATT_OP_STORE || c->pattern == LATT_PAT_CHASE) &&
	    (fcntl(c->fd, F_GETFL) & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (kind == F_WRONG)
		return -EINVAL;
	if (kind == F_SHARED)
		return -EBUSY;
	if (!have_pmem || c->phys_addr < ns_start || end > ns_start + ns_size)
		return -EINVAL;
	return 0;
}

/* Would this configuration, if valid, start a run too big for the VM? */
static int unsafe(const struct latt_config *c)
{
	__u64 chain = c->chain ? c->chain : 1;

	return c->samples > SAFE_SAMPLES || c->region > SAFE_REGION ||
	       (c->threshold && c->max_outliers > SAFE_OUTLIERS) ||
	       (c->pattern == LATT_PAT_CHASE &&
		chain * c->samples > SAFE_CHASE) ||
	       (c->target == LATT_TARGET_PMEM &&
		c->flags & LATT_CFG_FORCE && c->fd == excl_fd);
}

/* --- configurations ------------------------------------------------------- */

static __u32 online_cpu(void)
{
	__u32 i, n = info.nr_cpu_ids < MAX_CPUS ? info.nr_cpu_ids : MAX_CPUS;

	for (;;) {
		i = below(n);
		if (cpu_online[i])
			return i;
	}
}

static __u32 valid_width(__u32 op)
{
	static const __u32 w[] = { 8, 16, 32, 64 };
	__u32 x;

	if (chance(60))
		return LATT_WIDTH_AUTO;
	x = w[below(4)];
	if (!(info.widths & x) || (op == LATT_OP_NT_LOAD && x == 8) ||
	    (op == LATT_OP_NT_LOAD && x == 32 &&
	     !(info.features & LATT_FEAT_AVX2)))
		return LATT_WIDTH_AUTO;
	return x;
}

static __u64 claim_fd(void)
{
	if (chance(60) && excl_fd >= 0)
		return (__u64)excl_fd;
	if (chance(20))
		return rnd() & 0xffff;
	return (__u64)claims[below(nclaims)];
}

/* A valid, small run: 16 MiB mostly, a few thousand samples mostly. */
static struct latt_config valid_config(void)
{
	struct latt_config c;
	__u64 slots;

	memset(&c, 0, sizeof(c));
	c.target = LATT_TARGET_DRAM;
	c.op = 1 + below(LATT_OP_MAX);
	c.pattern = 1 + below(LATT_PAT_MAX);
	if (have_pmem && excl_fd >= 0 && chance(15)) {
		c.target = LATT_TARGET_PMEM;
		c.op = chance(50) ? LATT_OP_LOAD : LATT_OP_NT_LOAD;
		if (c.pattern == LATT_PAT_CHASE)
			c.pattern = LATT_PAT_RAND;
		c.fd = excl_fd;
	}
	if (c.pattern == LATT_PAT_CHASE)
		c.op = LATT_OP_LOAD;
	c.size = chance(70) ? 64ULL << below(7) : 64 * (1 + below(256));
	c.region = chance(75) ? 16ULL << 20 : (1 + below(16)) << 22;
	if (chance(10))
		c.region = c.size + 64 * below(1024);
	if (c.size > c.region)
		c.region = c.size;
	if (c.target == LATT_TARGET_PMEM) {
		if (c.region > ns_size)
			c.region = ns_size;
		slots = (ns_size - c.region) / (__u64)pagesz;
		c.phys_addr = ns_start + below(slots + 1) * (__u64)pagesz;
		c.node = chance(50) ? LATT_NODE_LOCAL : 1;
	} else {
		c.node = chance(70) ? LATT_NODE_LOCAL : (__u32)below(2);
	}
	c.cpu = online_cpu();
	switch (c.pattern) {
	case LATT_PAT_STRIDE:
		c.stride = 64 * (1 + below((c.region - 1) / 64));
		break;
	case LATT_PAT_HOTSPOT:
		c.stride = c.size + 64 * below((c.region - c.size) / 64 + 1);
		break;
	case LATT_PAT_CHASE:
		c.chain = chance(50) ? 0 : 1 + below(64);
		break;
	}
	if (chance(70))
		c.samples = 1 + below(1000);
	else if (chance(85))
		c.samples = 1000 + below(20000);
	else
		c.samples = 1 + below(SAFE_SAMPLES);
	if (c.pattern == LATT_PAT_CHASE && c.chain > 1 &&
	    c.samples * c.chain > SAFE_CHASE)
		c.samples = SAFE_CHASE / c.chain;
	c.seed = rnd();
	if (chance(30)) {
		c.threshold = below(2000);
		c.max_outliers = below(4096);
	}
	if (chance(20))
		c.window_us = LATT_MIN_WINDOW_US +
			      below(chance(90) ? 2000 : LATT_MAX_WINDOW_US);
	if (c.pattern == LATT_PAT_CHASE) {
		c.fence = below(2);
		c.width = chance(70) ? 0 : 8;
	} else {
		if (chance(30))
			c.fence = is_store(c.op) ? below(4) :
				  (chance(50) ? LATT_FENCE_NONE :
				   LATT_FENCE_MFENCE);
		c.width = valid_width(c.op);
		if (chance(20))
			c.flags |= LATT_CFG_WARM;
	}
	return c;
}

/* Change one field of @c to a random or boundary value. */
static const char *mutate(struct latt_config *c)
{
	__u64 v;
	int i;

	switch (below(24)) {
	case 0:
		c->op = (__u32)mutant(c->op);
		return "op";
	case 1:
		c->fence = (__u32)mutant(c->fence);
		return "fence";
	case 2:
		c->pattern = (__u32)mutant(c->pattern);
		return "pattern";
	case 3:
		/* often a PMEM target, with a random claim and range */
		if (chance(60)) {
			c->target = LATT_TARGET_PMEM;
			c->fd = (__s32)claim_fd();
			c->phys_addr = chance(50) && have_pmem ?
				ns_start + (below(ns_size / 4096 + 8) << 12) :
				mutant(ns_start);
			if (chance(30))
				c->flags |= LATT_CFG_FORCE;
			return "target=pmem";
		}
		c->target = (__u32)mutant(c->target);
		return "target";
	case 4:
		c->node = chance(30) ? LATT_NODE_LOCAL : (__u32)mutant(c->node);
		return "node";
	case 5:
		c->cpu = (__u32)mutant(c->cpu);
		return "cpu";
	case 6:
		c->size = mutant(c->size);
		return "size";
	case 7:
		c->stride = mutant(c->stride);
		return "stride";
	case 8:
		c->region = mutant(c->region);
		return "region";
	case 9:
		c->samples = mutant(c->samples);
		return "samples";
	case 10:
		c->seed = mutant(c->seed);
		return "seed";
	case 11:
		c->threshold = mutant(c->threshold);
		return "threshold";
	case 12:
		c->chain = (__u32)mutant(c->chain);
		return "chain";
	case 13:
		c->max_outliers = (__u32)mutant(c->max_outliers);
		return "max_outliers";
	case 14:
		c->window_us = (__u32)mutant(c->window_us);
		return "window_us";
	case 15:
		c->width = (__u32)mutant(c->width);
		return "width";
	case 16:
		v = below(3);
		c->flags = v == 0 ? (__u32)mutant(c->flags) :
			   v == 1 ? c->flags ^ (1U << below(32)) :
			   (__u32)below(4);
		return "flags";
	case 17:
		c->pad = (__u32)(chance(50) ? 1U << below(32) : rnd());
		return "pad";
	case 18:
		c->phys_addr = mutant(c->phys_addr);
		return "phys_addr";
	case 19:
		c->fd = (__s32)(chance(50) ? claim_fd() : mutant((__u32)c->fd));
		return "fd";
	case 20:
		c->pad2 = (__u32)(chance(50) ? 1U << below(32) : rnd());
		return "pad2";
	case 21:
		i = (int)below(6);
		c->reserved[i] = chance(50) ? 1ULL << below(64) : rnd();
		return "reserved";
	case 22:	/* the pattern's geometry together */
		c->pattern = 1 + below(LATT_PAT_MAX);
		c->stride = mutant(c->stride);
		c->size = mutant(c->size);
		return "pattern+stride+size";
	default:	/* raw bytes anywhere */
		((unsigned char *)c)[below(sizeof(*c))] = (unsigned char)rnd();
		return "byte";
	}
}

/* --- checking and counting ------------------------------------------------ */

static const char *ename(int e)
{
	const char *n;

	if (!e)
		return "0";
	n = strerrorname_np(e < 0 ? -e : e);
	return n ? n : "?";
}

static void count(int c, int ret)
{
	int e = -ret;

	me->calls[c]++;
	me->err[c][e >= 0 && e < NERR ? e : NERR - 1]++;
}

static void hexdump(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		printf("%s%02x", i % 32 ? "" : "\n#     ", b[i]);
	putchar('\n');
}

static unsigned long callno;

/* A result outside the model's set: print it (the first few) and count. */
static __attribute__((format(printf, 3, 4)))
void unexpected(int ret, const void *cfg, const char *fmt, ...)
{
	va_list ap;

	me->unexpected++;
	if (me->unexpected > MAX_REPORTS)
		return;
	printf("# UNEXPECTED worker %d step %lu: got %s: ", worker, callno,
	       ename(ret));
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (cfg) {
		const struct latt_config *c = cfg;

		printf("\n#   config: op %u fence %u pattern %u target %u node %#x "
		       "cpu %u size %#llx stride %#llx region %#llx samples %#llx "
		       "threshold %#llx chain %u max_outliers %u window_us %u "
		       "width %u flags %#x pad %#x phys %#llx fd %d pad2 %#x, "
		       "bytes:", c->op, c->fence, c->pattern, c->target,
		       c->node, c->cpu, (unsigned long long)c->size,
		       (unsigned long long)c->stride,
		       (unsigned long long)c->region,
		       (unsigned long long)c->samples,
		       (unsigned long long)c->threshold, c->chain,
		       c->max_outliers, c->window_us, c->width, c->flags,
		       c->pad, (unsigned long long)c->phys_addr, c->fd,
		       c->pad2);
		hexdump(cfg, sizeof(struct latt_config));
	} else {
		putchar('\n');
	}
	fflush(stdout);
}

static __attribute__((format(printf, 1, 2)))
void bad_output(const char *fmt, ...)
{
	va_list ap;

	me->bad_output++;
	me->unexpected++;
	if (me->unexpected > MAX_REPORTS)
		return;
	printf("# BAD OUTPUT worker %d step %lu: ", worker, callno);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* --- the calls ------------------------------------------------------------ */

static int devs[NDEV];


static int a_dev(void)
{
	return devs[below(NDEV)];
}

static void do_info(void)
{
	struct uptr u = uptr(sizeof(struct latt_info), 30);
	int fd = a_dev();
	int want = u.wr >= sizeof(struct latt_info) ? 0 : -EFAULT;
	int ret = xioctl(fd, LATT_IOC_GET_INFO, u.p);
	struct latt_info i;

	count(C_INFO, ret);
	if (ret != want) {
		unexpected(ret, NULL, "GET_INFO into a %s pointer %p, want %s",
			   ptr_names[u.kind], u.p, ename(want));
		return;
	}
	if (ret)
		return;
	memcpy(&i, u.p, sizeof(i));
	if (i.abi_version != LATT_ABI_VERSION ||
	    i.hist_buckets != LATT_HIST_BUCKETS ||
	    i.nr_cpu_ids != info.nr_cpu_ids || i.state > LATT_STATE_FAILED ||
	    !all_zero(i.reserved, 6))
		bad_output("GET_INFO: abi %#x buckets %u cpus %u state %u",
			   i.abi_version, i.hist_buckets, i.nr_cpu_ids,
			   i.state);
}

static void do_status(void)
{
	struct uptr u = uptr(sizeof(struct latt_status), 30);
	int want = u.wr >= sizeof(struct latt_status) ? 0 : -EFAULT;
	int ret = xioctl(a_dev(), LATT_IOC_STATUS, u.p);
	struct latt_status s;

	count(C_STATUS, ret);
	if (ret != want) {
		unexpected(ret, NULL, "STATUS into a %s pointer %p, want %s",
			   ptr_names[u.kind], u.p, ename(want));
		return;
	}
	if (ret)
		return;
	memcpy(&s, u.p, sizeof(s));
	if (s.state > LATT_STATE_FAILED ||
	    s.samples_done > s.samples_total || !all_zero(s.reserved, 4) ||
	    (s.state != LATT_STATE_FAILED && s.error))
		bad_output("STATUS: state %u error %d done %llu of %llu",
			   s.state, s.error,
			   (unsigned long long)s.samples_done,
			   (unsigned long long)s.samples_total);
}

static void do_abort(void)
{
	struct uptr u = uptr(8, 50);	/* ABORT takes no argument */
	int ret = xioctl(a_dev(), LATT_IOC_ABORT, u.p);

	count(C_ABORT, ret);
	if (ret)
		unexpected(ret, NULL, "ABORT, want 0");
}

static void do_start(void)
{
	struct latt_config c = valid_config();
	struct uptr u = uptr(sizeof(c), 10);
	const char *what[2] = { "none", "" };
	int n = 0, want, ret, alt = 0, alt2 = 0;

	if (chance(70)) {
		n = chance(70) ? 1 : 2;
		what[0] = mutate(&c);
		if (n == 2)
			what[1] = mutate(&c);
	}
	if (unsafe(&c))
		c.width = 3;	/* never starts: EINVAL or an earlier error */
	place(&u, &c, sizeof(c));

	if (u.rd < sizeof(c)) {
		want = -EFAULT;
	} else {
		want = model_check(&c);
		if (!want) {
			/* valid: then busy, or the target's outcome */
			alt = -EBUSY;
			if (c.target == LATT_TARGET_PMEM) {
				want = model_pmem(&c);
			} else {
				alt2 = -ENOMEM;
			}
		}
	}
	ret = xioctl(a_dev(), LATT_IOC_START, u.p);
	count(C_START, ret);
	if (!ret) {
		me->started++;
		__atomic_store_n(&sh->run_held, 1, __ATOMIC_SEQ_CST);
	}
	if (ret == -ENOMEM && alt2)
		me->dram_enomem++;
	if (ret != want && (!alt || ret != alt) && (!alt2 || ret != alt2))
		unexpected(ret, u.rd >= sizeof(c) ? &c : NULL,
			   "START from a %s pointer, mutated %s%s%s, want %s%s%s",
			   ptr_names[u.kind], what[0], n == 2 ? " and " : "",
			   what[1], ename(want), alt ? " or EBUSY" : "",
			   alt2 ? " or ENOMEM" : "");
}

/* A buffer for RESULT's histogram or outliers: pointer, length, bytes. */
static void result_buf(__u64 *ptr, __u32 *len, size_t elem, char *base,
		       size_t size, size_t *wr)
{
	static const __u64 lens[] = {
		0, 1, 2, 100, 1365, 4351, 4352, 4353, 65536, 0x7fffffff,
		0xffffffff,
	};
	struct uptr u;
	size_t k;

	*wr = 0;
	*len = chance(50) ? (__u32)PICK(lens) : (__u32)below(size / elem + 2);
	switch (below(5)) {
	case 0:		/* none */
		*ptr = 0;
		break;
	case 1:		/* the whole buffer */
		*ptr = (uintptr_t)base;
		*wr = size;
		break;
	case 2:		/* its last k elements: too small for most lengths */
		k = below(size / elem + 1);
		*ptr = (uintptr_t)(base + size - k * elem);
		*wr = k * elem;
		break;
	case 3:		/* misaligned, near the end */
		k = 1 + below(size - 1);
		*ptr = (uintptr_t)(base + size - k);
		*wr = k;
		break;
	default:	/* anything */
		u = uptr(elem, 90);
		*ptr = (uintptr_t)u.p;
		*wr = u.wr;
		if (!*ptr)
			*wr = 0;
		break;
	}
}

static void check_result(const struct latt_result *r, __u32 out_asked,
			 int full_hist)
{
	unsigned long long sum = 0;
	__u32 i;

	if (r->state > LATT_STATE_FAILED)
		bad_output("RESULT: state %u", r->state);
	else
		me->result_state[r->state]++;
	if (r->hist_len != LATT_HIST_BUCKETS || !all_zero(r->reserved, 8) ||
	    !all_zero(r->config.reserved, 6) || r->config.pad ||
	    r->config.pad2)
		bad_output("RESULT: hist_len %u, or reserved/pad not zero",
			   r->hist_len);
	if (r->state == LATT_STATE_RUNNING || r->state == LATT_STATE_IDLE ||
	    r->state == LATT_STATE_FAILED || r->error)
		bad_output("RESULT: state %u error %d", r->state, r->error);
	if (r->count > r->config.samples ||
	    (r->state == LATT_STATE_DONE && r->count != r->config.samples))
		bad_output("RESULT: state %u, %llu of %llu samples", r->state,
			   (unsigned long long)r->count,
			   (unsigned long long)r->config.samples);
	if (r->outliers_dropped > r->outliers ||
	    r->outlier_len > out_asked ||
	    r->outliers - r->outliers_dropped > r->config.max_outliers ||
	    (out_asked >= r->outliers - r->outliers_dropped &&
	     r->outlier_len != r->outliers - r->outliers_dropped))
		bad_output("RESULT: outliers %llu dropped %llu copied %u of %u",
			   (unsigned long long)r->outliers,
			   (unsigned long long)r->outliers_dropped,
			   r->outlier_len, out_asked);
	if (r->count && r->min > r->max)
		bad_output("RESULT: min %llu > max %llu",
			   (unsigned long long)r->min,
			   (unsigned long long)r->max);
	if (full_hist) {
		for (i = 0; i < LATT_HIST_BUCKETS; i++)
			sum += ((const __u64 *)hist)[i];
		if (sum != r->count)
			bad_output("RESULT: histogram sum %llu, count %llu",
				   sum, (unsigned long long)r->count);
	}
}

static void do_result(void)
{
	struct latt_result r;
	struct uptr u = uptr(sizeof(r), 15);
	size_t hwr, owr;
	int held, must_fault = 0, may_fault = 0, ret, full, ok = 1;
	int want_einval;
	__u32 out_asked;
	__u64 hneed;

	/* input fields: the buffers, reserved; the rest is ignored */
	for (size_t i = 0; i < sizeof(r); i += 8)
		*(__u64 *)((char *)&r + i) = chance(50) ? 0 : rnd();
	memset(r.reserved, 0, sizeof(r.reserved));
	if (chance(5))
		r.reserved[below(8)] = chance(50) ? 1ULL << below(64) : rnd();
	result_buf(&r.hist_ptr, &r.hist_len, 8, hist, hist_size, &hwr);
	result_buf(&r.outlier_ptr, &r.outlier_len, LATT_OUTLIER_SIZE, outl,
		   outl_size, &owr);
	out_asked = r.outlier_ptr ? r.outlier_len : 0;
	full = r.hist_ptr == (uintptr_t)hist && r.hist_len >= LATT_HIST_BUCKETS;
	want_einval = !all_zero(r.reserved, 8);
	place(&u, &r, sizeof(r));

	hneed = r.hist_ptr ? (r.hist_len < LATT_HIST_BUCKETS ? r.hist_len :
			      LATT_HIST_BUCKETS) * 8ULL : 0;
	if (hneed > hwr || u.wr < sizeof(r))
		must_fault = 1;
	if (r.outlier_ptr && (__u64)r.outlier_len * LATT_OUTLIER_SIZE > owr)
		may_fault = 1;	/* if the run has that many records */

	held = __atomic_load_n(&sh->run_held, __ATOMIC_SEQ_CST);
	ret = xioctl(a_dev(), LATT_IOC_RESULT, u.p);
	count(C_RESULT, ret);
	if (u.rd < sizeof(r))
		ok = ret == -EFAULT;
	else if (want_einval)
		ok = ret == -EINVAL;
	else if (ret == -EBUSY || (ret == -ENOENT && !held))
		ok = 1;
	else if (must_fault)
		ok = ret == -EFAULT;
	else
		ok = ret == 0 || (may_fault && ret == -EFAULT);
	if (!ok) {
		unexpected(ret, NULL, "RESULT at a %s pointer (%zu readable, "
			   "%zu writable), hist %#llx len %u (%zu writable), "
			   "outliers %#llx len %u (%zu writable), reserved %s",
			   ptr_names[u.kind], u.rd, u.wr,
			   (unsigned long long)r.hist_ptr, r.hist_len, hwr,
			   (unsigned long long)r.outlier_ptr, r.outlier_len,
			   owr, want_einval ? "set" : "zero");
		return;
	}
	if (!ret) {
		memcpy(&r, u.p, sizeof(r));
		check_result(&r, out_asked, full);
	}
}

/* Command numbers that the VFS handles itself, before the driver. */
static int vfs_magic(unsigned int cmd)
{
	unsigned int type = _IOC_TYPE(cmd);

	return type == 'T' || type == 'X' || type == 'f' || type == 0x94 ||
	       type == 0x15 || type == 0x00;
}

static int real_cmd(unsigned int cmd)
{
	return cmd == LATT_IOC_GET_INFO || cmd == LATT_IOC_START ||
	       cmd == LATT_IOC_STATUS || cmd == LATT_IOC_ABORT ||
	       cmd == LATT_IOC_RESULT;
}

static void do_other(void)
{
	static const unsigned int real[] = {
		LATT_IOC_GET_INFO, LATT_IOC_START, LATT_IOC_STATUS,
		LATT_IOC_ABORT, LATT_IOC_RESULT,
	};
	struct uptr u = uptr(512, 50);
	unsigned int cmd, dir, type, nr, size;
	int ret;

	do {
		switch (below(4)) {
		case 0:		/* a real command, another size or direction */
			cmd = real[below(5)];
			dir = chance(50) ? _IOC_DIR(cmd) : (__u32)below(4);
			size = chance(50) ? _IOC_SIZE(cmd) :
			       (__u32)(chance(50) ? below(1 << 14) :
				       _IOC_SIZE(cmd) + below(17) - 8);
			cmd = _IOC(dir, LATT_IOC_MAGIC, _IOC_NR(cmd),
				   size & 0x3fff);
			break;
		case 1:		/* our magic, any number */
			dir = (__u32)below(4);
			nr = chance(50) ? (__u32)below(16) : (__u32)below(256);
			size = chance(50) ? (__u32)below(512) :
			       (__u32)below(1 << 14);
			cmd = _IOC(dir, LATT_IOC_MAGIC, nr, size);
			break;
		case 2:		/* another magic */
			type = (__u32)below(256);
			cmd = _IOC((__u32)below(4), type, (__u32)below(256),
				   (__u32)below(1 << 14));
			break;
		default:	/* 32 random bits */
			cmd = (unsigned int)rnd();
			break;
		}
	} while (real_cmd(cmd) || vfs_magic(cmd));
	/* the upper 32 bits of the request are not part of the command */
	ret = xioctl(a_dev(), chance(10) ? cmd | (rnd() << 32) : cmd, u.p);
	count(C_OTHER, ret);
	if (ret != -ENOTTY)
		unexpected(ret, NULL, "command %#x (dir %u type %#x nr %#x "
			   "size %u), want ENOTTY", cmd, _IOC_DIR(cmd),
			   _IOC_TYPE(cmd), _IOC_NR(cmd), _IOC_SIZE(cmd));
}

static int status_state(int fd)
{
	struct latt_status s;

	return xioctl(fd, LATT_IOC_STATUS, &s) ? -1 : (int)s.state;
}

/* Close one file and open it again: aborts a run if it was the starter. */
static void do_reopen(void)
{
	int i = (int)below(NDEV);

	close(devs[i]);
	devs[i] = open_dev();
	me->reopens++;
}

/* Let a run finish by itself now and then (at most 2 s). */
static void do_wait(void)
{
	int i;

	me->waits++;
	for (i = 0; i < 200 && status_state(devs[0]) == LATT_STATE_RUNNING;
	     i++)
		usleep(10000);
}

/* @calls ioctl calls, with reopens and waits in between. */
static void fuzz(unsigned long calls)
{
	unsigned long done = 0;
	unsigned int r;
	int i;

	for (i = 0; i < NDEV; i++)
		devs[i] = open_dev();
	for (callno = 1; done < calls; callno++) {
		if (verbose && callno % 10000 == 0)
			printf("# worker %d: %lu calls\n", worker, done);
		r = (unsigned int)below(1000);
		if (r >= 993) {
			if (r < 998)
				do_reopen();
			else
				do_wait();
			continue;
		}
		done++;
		if (r < 250)
			do_start();
		else if (r < 420)
			do_result();
		else if (r < 570)
			do_status();
		else if (r < 670)
			do_info();
		else if (r < 685)
			do_abort();
		else
			do_other();
	}
	for (i = 0; i < NDEV; i++)
		close(devs[i]);
}

/* --- setup --------------------------------------------------------------- */

/* Parse a sysfs list like "0-1,3" into flags. */
static void read_list(const char *path, unsigned char *set, unsigned int n)
{
	char buf[4096], *p, *end;
	unsigned long a, b;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	for (p = buf; *p && *p != '\n';) {
		a = strtoul(p, &end, 10);
		if (end == p)
			break;
		b = a;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		for (; a <= b && a < n; a++)
			set[a] = 1;
		p = *end == ',' ? end + 1 : end;
	}
}

static void add_claim(int fd)
{
	if (nclaims < (int)(sizeof(claims) / sizeof(claims[0])))
		claims[nclaims++] = fd;
}

/* @size bytes (whole pages) read-write, then a PROT_NONE page. */
static char *guarded(size_t size)
{
	char *p = mmap(NULL, size + pagesz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + size, pagesz, PROT_NONE)) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		exit(1);
	}
	return p;
}

static void setup_env(void)
{
	unsigned char node_online[MAX_NUMNODES] = { 0 };
	unsigned char has_mem[MAX_NUMNODES] = { 0 };
	unsigned char possible[MAX_NUMNODES] = { 0 };
	char path[128];
	int fd, i, n, pipefd[2], shared;
	char *m;

	fd = open_dev();
	if (xioctl(fd, LATT_IOC_GET_INFO, &info)) {
		printf("Bail out! GET_INFO: %s\n", strerror(errno));
		exit(1);
	}
	close(fd);
	read_list("/sys/devices/system/cpu/online", cpu_online, MAX_CPUS);
	read_list("/sys/devices/system/node/online", node_online,
		  MAX_NUMNODES);
	read_list("/sys/devices/system/node/has_memory", has_mem,
		  MAX_NUMNODES);
	read_list("/sys/devices/system/node/possible", possible, MAX_NUMNODES);
	for (i = 0; i < MAX_NUMNODES; i++) {
		node_mem[i] = node_online[i] && has_mem[i];
		if (possible[i])
			nr_nodes = i + 1;
	}
	for (i = 0; i < MAX_CPUS; i++) {
		cpu_node[i] = 0;
		for (n = 0; n < 64; n++) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/node%d", i, n);
			if (!access(path, F_OK)) {
				cpu_node[i] = n;
				break;
			}
		}
	}

	have_pmem = !ns_range("namespace0.0", &ns_start, &ns_size) &&
		    !access("/dev/pmem0", F_OK);
	if (have_pmem) {
		struct stat ps;

		if (!stat("/dev/pmem0", &ps))
			pmem_rdev = ps.st_rdev;
		excl_fd = open("/dev/pmem0", O_RDWR | O_EXCL);
		shared = open("/dev/pmem0", O_RDONLY);
		if (excl_fd >= 0)
			add_claim(excl_fd);
		if (shared >= 0)
			add_claim(shared);
	}
	add_claim(-1);
	add_claim(999);
	add_claim(INT_MAX);
	add_claim(INT_MIN);
	add_claim(open("/dev/null", O_RDWR));
	fd = open("/tmp/ioctl-fuzz.file", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		if (write(fd, "x", 1) != 1)
			fd = -1;
		unlink("/tmp/ioctl-fuzz.file");
		add_claim(fd);
	}
	if (!pipe(pipefd))
		add_claim(pipefd[0]);
	/* 0, 1 and 2: /dev/null and pipes in the VM, a tty by hand */
	for (i = 0; i < 3; i++)
		add_claim(i);
	/* NDEV /dev/lattester files of a worker are 3 + ... : any is wrong */
	fd = open_dev();
	add_claim(fd);

	/* pointers: every buffer ends at a PROT_NONE or unmapped page, so
	 * that nothing the module writes past its end lands elsewhere */
	pagesz = sysconf(_SC_PAGESIZE);
	hist_size = (HIST_BYTES + pagesz - 1) / pagesz * pagesz;
	outl_size = OUTL_PAGES * pagesz;
	good = guarded(GOOD_SIZE);
	ro = guarded(pagesz);
	hist = guarded(hist_size);
	outl = guarded(outl_size);
	mprotect(ro, pagesz, PROT_READ);
	edge = mmap(NULL, 3 * pagesz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (edge == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		exit(1);
	}
	/* edge's second and third pages are unmapped: "gone" is the third */
	m = edge + pagesz;
	munmap(m, 2 * pagesz);
	gone = m + pagesz;
}

/* --- afterwards ------------------------------------------------------------ */

static void print_stats(const struct stats *t, double secs,
			unsigned long calls)
{
	int c, e;

	printf("# %lu calls in %.1f s: %.0f calls/s\n", calls, secs,
	       secs > 0 ? calls / secs : 0.0);
	for (c = 0; c < C_NR; c++) {
		printf("#   %-8s %7lu:", cmd_names[c], t->calls[c]);
		for (e = 0; e < NERR; e++)
			if (t->err[c][e])
				printf(" %s %lu", ename(-e), t->err[c][e]);
		putchar('\n');
	}
	printf("#   runs started %lu; RESULT saw done %lu, aborted %lu, "
	       "failed %lu; files reopened %lu; waits %lu; DRAM ENOMEM %lu\n",
	       t->started, t->result_state[LATT_STATE_DONE],
	       t->result_state[LATT_STATE_ABORTED],
	       t->result_state[LATT_STATE_FAILED], t->reopens, t->waits,
	       t->dram_enomem);
}

static int wait_idle(int fd, int tries)
{
	int s = -1;

	while (tries-- > 0) {
		s = status_state(fd);
		if (s != LATT_STATE_RUNNING)
			break;
		usleep(10000);
	}
	return s;
}

/* A plain run after the storm: every sample taken, the histogram adds up. */
static void normal_run(void)
{
	struct latt_config c;
	struct latt_result r;
	unsigned long long sum = 0;
	int fd = open_dev(), s, ret;
	__u64 *h = calloc(LATT_HIST_BUCKETS, sizeof(*h));
	__u32 i;

	memset(&c, 0, sizeof(c));
	c.op = LATT_OP_LOAD;
	c.pattern = LATT_PAT_RAND;
	c.target = LATT_TARGET_DRAM;
	c.node = LATT_NODE_LOCAL;
	c.size = 64;
	c.region = 16 << 20;
	c.samples = 20000;
	c.seed = 42;
	ret = xioctl(fd, LATT_IOC_START, &c);
	check(ret == 0, "a normal run starts after the fuzzing (%s)",
	      ename(ret));
	s = wait_idle(fd, 6000);
	check(s == LATT_STATE_DONE, "it is DONE (state %d)", s);
	memset(&r, 0, sizeof(r));
	r.hist_ptr = (uintptr_t)h;
	r.hist_len = LATT_HIST_BUCKETS;
	ret = xioctl(fd, LATT_IOC_RESULT, &r);
	for (i = 0; h && i < LATT_HIST_BUCKETS; i++)
		sum += h[i];
	check(ret == 0 && r.count == c.samples && sum == c.samples &&
	      r.state == LATT_STATE_DONE,
	      "RESULT: count %llu == samples %llu, histogram sum %llu",
	      (unsigned long long)r.count, (unsigned long long)c.samples, sum);
	free(h);
	close(fd);
}

static void usage(void)
{
	fprintf(stderr, "usage: ioctl-fuzz [--seed N] [--calls N] "
		"[--procs N] [--verbose]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long long seed;
	unsigned long calls = 100000, n, total = 0;
	struct timespec t0, t1;
	struct stats sum;
	int procs = 2, i, c, e, st, fd, s, failed_workers = 0;
	pid_t *pids;
	double secs;
	char *end;

	clock_gettime(CLOCK_REALTIME, &t0);
	seed = (unsigned long long)t0.tv_nsec ^ ((unsigned long long)t0.tv_sec
						 << 20) ^ getpid();
	for (i = 1; i < argc; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--seed")) {
			seed = strtoull(argv[++i], &end, 0);
		} else if (i + 1 < argc && !strcmp(argv[i], "--calls")) {
			calls = strtoul(argv[++i], &end, 0);
		} else if (i + 1 < argc && !strcmp(argv[i], "--procs")) {
			procs = (int)strtol(argv[++i], &end, 0);
			if (procs < 1 || procs > 64)
				usage();
		} else if (!strcmp(argv[i], "--verbose")) {
			verbose = 1;
			continue;
		} else {
			usage();
		}
		if (*end)
			usage();
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# ioctl-fuzz --seed %#llx --calls %lu --procs %d\n", seed,
	       calls, procs);
	setup_env();
	printf("# %u CPUs, features %#llx, widths %#x; pmem %s "
	       "[%#llx, +%#llx)\n", info.nr_cpu_ids,
	       (unsigned long long)info.features, info.widths,
	       have_pmem ? "namespace0.0" : "none",
	       (unsigned long long)ns_start, (unsigned long long)ns_size);

	sh = mmap(NULL, sizeof(*sh) + procs * sizeof(struct stats),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return 1;
	}
	/* does the module already hold a run (from an earlier test)? */
	fd = open_dev();
	{
		struct latt_result r;

		memset(&r, 0, sizeof(r));
		sh->run_held = xioctl(fd, LATT_IOC_RESULT, &r) != -ENOENT;
	}
	close(fd);
	/* the claim table's /dev/lattester file stays open in the workers;
	 * it never starts a run */

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pids = calloc(procs, sizeof(*pids));
	for (i = 0; i < procs; i++) {
		n = calls / procs + (i == 0 ? calls % procs : 0);
		pids[i] = fork();
		if (pids[i] < 0) {
			printf("Bail out! fork: %s\n", strerror(errno));
			return 1;
		}
		if (pids[i] == 0) {
			worker = i;
			me = &sh->st[i];
			latt_prng_seed(&rng, seed + 0x9e3779b97f4a7c15ULL * i);
			/* mix once so that near seeds differ at once */
			latt_prng_seed(&rng, latt_prng_next(&rng));
			fuzz(n);
			_exit(0);
		}
	}
	for (i = 0; i < procs; i++) {
		if (waitpid(pids[i], &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			printf("# worker %d died (status %#x)\n", i, st);
			failed_workers++;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < procs; i++) {
		const struct stats *w = &sh->st[i];

		for (c = 0; c < C_NR; c++) {
			sum.calls[c] += w->calls[c];
			total += w->calls[c];
			for (e = 0; e < NERR; e++)
				sum.err[c][e] += w->err[c][e];
		}
		sum.unexpected += w->unexpected;
		sum.bad_output += w->bad_output;
		sum.started += w->started;
		for (e = 0; e < 5; e++)
			sum.result_state[e] += w->result_state[e];
		sum.reopens += w->reopens;
		sum.waits += w->waits;
		sum.dram_enomem += w->dram_enomem;
	}
	print_stats(&sum, secs, total);

	check(!failed_workers && total == calls,
	      "%lu of %lu calls made by %d workers", total, calls, procs);
	check(sum.unexpected == 0,
	      "every result as documented (%lu unexpected, %lu of them bad "
	      "output)", sum.unexpected, sum.bad_output);
	/*
	 * Whether a run also got to finish while the calls went on depends
	 * on timing (one long run can keep every START busy until the end:
	 * seen once, 0.6 s for 10^5 calls); the checks after the fuzzing
	 * take a run to DONE every time.
	 */
	if (calls >= 10000)
		check(sum.started > 0 && sum.err[C_START][EBUSY] > 0 &&
		      sum.result_state[LATT_STATE_DONE] +
		      sum.result_state[LATT_STATE_ABORTED] > 0,
		      "runs were started (%lu), found busy, and ended (%lu "
		      "done, %lu aborted)", sum.started,
		      sum.result_state[LATT_STATE_DONE],
		      sum.result_state[LATT_STATE_ABORTED]);

	/* all the workers' files are closed: their runs are aborted */
	for (i = 0; i < nclaims; i++)
		if (claims[i] > 2)
			close(claims[i]);
	fd = open_dev();
	s = status_state(fd);
	check(s != LATT_STATE_RUNNING,
	      "no run left running once every file is closed (state %d)", s);
	if (s == LATT_STATE_RUNNING) {
		xioctl(fd, LATT_IOC_ABORT, NULL);
		wait_idle(fd, 500);
	}
	close(fd);
	normal_run();
	printf("# reproduce: ioctl-fuzz --seed %#llx --calls %lu --procs %d\n",
	       seed, calls, procs);
	return tap_done("ioctl-fuzz");
}
