// SPDX-License-Identifier: GPL-2.0
// vm-m32: ioctl-fuzz32
/*
 * ioctl-fuzz - hostile input against /dev/lattester: random command
 * numbers, mutated START configurations (ABI 1.2: threads and their CPU
 * lists, modes, durations, delays, mixes, split regions; ABI 1.3: the
 * rdtsc timer, a chase's TLB-locality block), bad user pointers
 * (NULL, unmapped, read-only, misaligned, straddling into an unmapped page,
 * kernel and non-canonical addresses), RESULT and THREADS buffers that are
 * bad or too small, ABORTs at random times and real short runs of one or
 * several threads started, aborted and finished in between; files are
 * closed and reopened (closing the starter's aborts).
 *
 * Every call's result is checked against a model of the documented ABI
 * (include/uapi/lattester.h, Documentation/ioctl.md, in the module's check
 * order): a START config's exact errno (a CPU list is read from this
 * process's memory as the kernel would, with process_vm_readv, so any
 * pointer works), EFAULT exactly when a pointer can't be read or written,
 * ENOTTY for every other command number, and the contents of what comes
 * back: reserved fields zero; RESULT's count (+ backwards) == samples x
 * threads for a DONE latency run (loaded: samples; bandwidth: 0), bytes
 * only where something streamed and on the side that could, the flags the
 * timer and the target call for, a page size of 4 KiB, 2 MiB or 1 GiB,
 * ABI 1.3's figures in range; STATUS's done <= total,
 * total = samples x threads or duration_us (bandwidth); THREADS' records
 * adding up to RESULT's, each thread's histogram and series to its counts.
 * The model is deliberately its own code, not the module's (nor
 * include/lattester/rules.h's, which the module shares with lattester-ctl).
 *
 * Which run the module holds is known while no START is in flight: a shared
 * record of the last successful START (struct run_rec) lets STATUS and
 * THREADS be checked against its mode, threads and CPUs.
 *
 * Afterwards: no run is left running once every file is closed; a normal
 * run, one on every online CPU and a bandwidth run still do all they
 * should; and directed checks of what the storm found or can't safely try:
 * a bandwidth run aborted before its common start says it streamed
 * nothing, a split run whose stride fits the region but not a part is
 * refused or runs, a PMEM mix that writes takes a claim open for writing,
 * a long delay does not stretch the interrupts-off windows.
 *
 *   ioctl-fuzz [--seed N] [--calls N] [--procs N] [--offline-cpu N]
 *              [--verbose]
 *
 * --seed (default: from the clock; always printed) fixes each worker's call
 * sequence, which does not depend on what the calls return: with --procs 1
 * a seed replays the same calls.  --calls (default 100000) is the total
 * over --procs workers (default 2, one per CPU of the test VM), which run
 * concurrently on their own files.  --offline-cpu takes that CPU offline
 * while the workers run (so that CPU lists name an offline CPU) and brings
 * it back.  Runs it starts stay small (region <= 64 MiB, samples <= 10^5
 * per thread, bandwidth <= 50 ms, delay <= 20000 cycles).  Never passes
 * LATT_CFG_FORCE together with an exclusively opened pmem device, so the
 * VM's pmem is never written.  TAP output (tests/tap.h); exit 1 on any
 * failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <uapi/lattester.h>
#include <lattester/pattern.h>
#include "../tap.h"
#include "vmtest.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define MAX_NUMNODES	1024	/* sizes the bitmaps: Debian's NODES_SHIFT=10 */
#define MAX_CPUS	LATT_MAX_THREADS	/* and the CPU lists */
#define NDEV		4	/* /dev/lattester files per worker */
#define NERR		160	/* errno slots in the statistics */
#define MAX_REPORTS	40	/* unexpected results printed per worker */
#define KIND_REPORTS	3	/* ... of one kind */
#define MAX_KINDS	64

/* Limits on the runs the fuzzer may really start. */
#define SAFE_REGION	(64ULL << 20)
#define SAFE_SAMPLES	100000ULL	/* per timing thread */
#define SAFE_OUTLIERS	65536U
#define SAFE_CHASE	1000000ULL	/* chain * samples */
#define SAFE_DURATION_US 50000ULL	/* bandwidth: 1..50 ms */
#define SAFE_DELAY	20000ULL	/* cycles after each streamed access */

/* ABI 1.3: what the module may say */
#define FEAT_KNOWN	((LATT_FEAT_DAX_MAP << 1) - 1)	/* ABI 2.1 */
#define RES_KNOWN	(LATT_RES_VECTOR | LATT_RES_DAX | \
			 LATT_RES_TIMER_RDTSC | LATT_RES_TSC_UNSTABLE | \
			 LATT_RES_REUSED | LATT_RES_CHAIN_REUSED)
#define GARBAGE		(1ULL << 40)	/* no calibration, no step is this */

enum { C_INFO, C_START, C_STATUS, C_ABORT, C_RESULT, C_THREADS, C_OTHER,
       C_NR };
static const char *const cmd_names[C_NR] = {
	"GET_INFO", "START", "STATUS", "ABORT", "RESULT", "THREADS", "other",
};

/* One kind of unexpected result: its message format and the errno got. */
struct kind {
	const char *fmt;
	int err;
	unsigned long n;
};

struct stats {
	unsigned long calls[C_NR];
	unsigned long err[C_NR][NERR];	/* [0] = success */
	unsigned long unexpected;
	unsigned long printed;
	unsigned long started;		/* START returned 0 */
	unsigned long started_threads;	/* ... of several threads */
	unsigned long started_mode[LATT_MODE_MAX + 1];
	unsigned long result_state[5];	/* RESULT's state, on success */
	unsigned long reopens;
	unsigned long waits;
	unsigned long dram_enomem;
	unsigned long bad_output;	/* a successful call returned garbage */
	unsigned long known;		/* STATUS/THREADS checked against
					 * the run record */
	unsigned long followups;	/* THREADS checked against RESULT */
	struct kind kinds[MAX_KINDS];
};

/*
 * The run the module holds, as the last successful START described it.
 * Valid only while no START is in flight and gen has not moved; a START
 * that overlapped another leaves it invalid (which of them won is unknown).
 */
struct run_rec {
	unsigned long gen;		/* successful STARTs */
	unsigned long begun_idx;	/* the START that wrote it */
	int valid;
	__u32 mode, n;
	__u64 total;			/* STATUS's samples_total */
	int sl_known;			/* THREADS told its series_len */
	__u32 series_len;
	__u32 cpus[MAX_CPUS];
};

struct shared {
	int run_held;			/* the module holds a run's results */
	int lock;			/* guards rec */
	int starting;			/* STARTs in flight */
	unsigned long begun;		/* STARTs begun */
	struct run_rec rec;
	struct stats st[];
};

/* --- the environment, learned before the workers start ------------------- */

static struct latt_info info;
static unsigned char cpu_online[MAX_CPUS];
static unsigned int n_online;
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
#define PICK(arr) pick(arr, ARRAY_SIZE(arr))

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

/*
 * Where pointers of one use point: the ioctls' own structs (args), the CPU
 * lists of START (lists).  Separate, so that one never overlaps the other.
 */
struct arena {
	char *good;		/* good_size bytes read-write, then PROT_NONE */
	size_t good_size;
	char *ro;		/* one page, read-only, then PROT_NONE */
	char *edge;		/* one page; the next two are unmapped */
	char *guard;		/* a PROT_NONE page */
};
static struct arena args, lists;
#define GOOD_SIZE	(64 << 10)
static char *gone;		/* an unmapped page */
static char *hist;		/* HIST_BYTES, then a PROT_NONE page */
#define HIST_BYTES	(LATT_HIST_BUCKETS * 8UL)
static size_t hist_size;	/* HIST_BYTES rounded up to pages */
static char *outl;		/* OUTL_PAGES pages, then a PROT_NONE page */
#define OUTL_PAGES	16
static size_t outl_size;

/* THREADS' buffers: records, histograms, series; room for tcap threads */
static __u32 tcap;
static char *tstats, *thist, *tseries;
static size_t tstats_size, thist_size, tseries_size;
/* the series buffer lies at the start of a PROT_NONE reservation this big,
 * so that rows of any length the fuzzer passes fault inside it */
#define SERIES_RESERVE	(64UL << 20)

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
	const struct arena *a;
};

/*
 * A pointer for a struct of @size bytes in arena @a.  @bad_pct: how often
 * it is not a plain good one.  Straddling pointers end the struct's first k
 * bytes at an unmapped page, k around @size.
 */
static struct uptr uptr_in(const struct arena *a, size_t size,
			   unsigned int bad_pct)
{
	static const __u64 kern[] = {
		0xffff888000000000ULL, 0xffffffff81000000ULL,
		0xffffc90000000000ULL, 0xfffffe0000000000ULL,
	};
	static const __u64 noncanon[] = {
		0x0000800000000000ULL, 0x8000000000000000ULL,
		0xdead000000000000ULL, 0x00007ffffffff000ULL,
	};
	struct uptr u = { NULL, P_GOOD, 0, 0, a };
	size_t off, k;

	u.kind = chance(bad_pct) ? (int)(1 + below(P_NR - 1)) : P_GOOD;
	switch (u.kind) {
	case P_GOOD:
		off = below((a->good_size - size) / 8) * 8;
		u.p = a->good + off;
		u.rd = u.wr = a->good_size - off;
		break;
	case P_MISALIGNED:
		off = below(a->good_size - size - 8) | 1;
		u.p = a->good + off;
		u.rd = u.wr = a->good_size - off;
		break;
	case P_NULL:
		break;
	case P_GONE:
		u.p = gone + below(pagesz);
		break;
	case P_RO:
		off = below((size_t)pagesz - size + 1);
		u.p = a->ro + off;
		u.rd = pagesz - off;
		break;
	case P_EDGE:
		k = below(size + 16) + 1;
		if (k > (size_t)pagesz)
			k = pagesz;
		u.p = a->edge + pagesz - k;
		u.rd = u.wr = k;
		break;
	case P_GUARD:
		u.p = a->guard + below(pagesz);
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

static struct uptr uptr(size_t size, unsigned int bad_pct)
{
	return uptr_in(&args, size, bad_pct);
}

/* Put @len bytes of @src where @u points, as far as they can be written. */
static void place(const struct uptr *u, const void *src, size_t len)
{
	size_t n = len < u->rd ? len : u->rd;

	if (!n)
		return;
	if (u->kind == P_RO) {
		mprotect(u->a->ro, pagesz, PROT_READ | PROT_WRITE);
		memcpy(u->p, src, n);
		mprotect(u->a->ro, pagesz, PROT_READ);
	} else {
		memcpy(u->p, src, n);
	}
}

/*
 * Read @len bytes at user address @p as the kernel would (a fault is a
 * short read): the bytes read.  Works for any address, mapped or not.
 */
static size_t peek(__u64 p, void *dst, size_t len)
{
	struct iovec l = { dst, len }, r = { (void *)(uintptr_t)p, len };
	ssize_t n;

	/* a 32-bit build: what doesn't fit a pointer is no address here */
	if (!p || p != (uintptr_t)p)
		return 0;
	n = process_vm_readv(getpid(), &l, 1, &r, 1, 0);
	return n < 0 ? 0 : (size_t)n;
}

/* The writable list of @k CPUs at @p, if @p lies in the lists arena. */
static __u32 *list_at(__u64 p, size_t k)
{
	uintptr_t b = (uintptr_t)lists.good;

	/* no p + k * 4: a mutated pointer near 2^64 would wrap */
	if (p < b || p - b > lists.good_size ||
	    k * 4 > lists.good_size - (p - b))
		return NULL;
	return (__u32 *)(uintptr_t)p;
}

/* --- the model of the ABI ------------------------------------------------ */

static int is_store(__u32 op)
{
	return op >= LATT_OP_STORE && op <= LATT_OP_NT_STORE;
}

/* ABI 1.3: mfence after every store op (sfence before), none after loads */
static __u32 default_fence(__u32 op)
{
	if (op == LATT_OP_LOAD || op == LATT_OP_NT_LOAD)
		return LATT_FENCE_NONE;
	return LATT_FENCE_MFENCE;
}

static int all_zero(const __u64 *v, size_t n)
{
	while (n--)
		if (*v++)
			return 0;
	return 1;
}

static __u32 nthreads(const struct latt_config *c)
{
	return c->nr_threads ? c->nr_threads : 1;
}

/*
 * EOPNOTSUPP when the CPU lacks what @op needs.  Not rdtscp (ABI 1.3):
 * without it the module times with "lfence; rdtsc".
 */
static int model_op(__u32 op)
{
	__u64 f = info.features;

	if (!(f & LATT_FEAT_CLFLUSH))
		return -EOPNOTSUPP;
	if (op == LATT_OP_NT_LOAD && !(f & LATT_FEAT_SSE4_1))
		return -EOPNOTSUPP;
	if (op == LATT_OP_STORE_CLWB && !(f & LATT_FEAT_CLWB))
		return -EOPNOTSUPP;
	if (op == LATT_OP_STORE_CLFLUSHOPT && !(f & LATT_FEAT_CLFLUSHOPT))
		return -EOPNOTSUPP;
	return 0;
}

/*
 * latt_pick_sample(): 0 or -errno.  The op's instructions first (chase's
 * too: its loads need clflush like any run), then the fence is resolved
 * and checked, then the width.
 */
static int model_sample(const struct latt_config *c0)
{
	struct latt_config c1 = *c0, *c = &c1;
	__u64 f = info.features;
	__u32 w = c->width, widths = info.widths;
	int ret = model_op(c->op);

	if (ret)
		return ret;
	if (c->fence == LATT_FENCE_DEFAULT)
		c->fence = default_fence(c->op);
	if (!is_store(c->op) && c->fence == LATT_FENCE_SFENCE)
		return -EINVAL;
	if (c->pattern == LATT_PAT_CHASE)
		return w != LATT_WIDTH_AUTO && w != 8 ? -EINVAL : 0;
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
 * The bytes of each thread's part of a split region (the header's rule:
 * region / threads rounded down to a multiple of LATT_CHUNK, or below one
 * chunk to a power of two); -EINVAL when a part can't hold one access.
 */
static int model_split(__u64 region, __u32 n, __u64 size, __u64 *part)
{
	__u64 p = region / n;

	if (p >= LATT_CHUNK)
		p -= p % LATT_CHUNK;
	else if (p)
		p = 1ULL << (63 - __builtin_clzll(p));
	if (p < size || p < LATT_MIN_SIZE)
		return -EINVAL;
	*part = p;
	return 0;
}

/* The ABI 1.2 fields: modes and what streams (latt_mode_check()). */
static int model_mode(const struct latt_config *c)
{
	const int lat = c->mode == LATT_MODE_LATENCY;
	const int bw = c->mode == LATT_MODE_BANDWIDTH;

	if (c->mode > LATT_MODE_MAX || c->delay > LATT_MAX_DELAY)
		return -EINVAL;
	if (c->write_op && !is_store(c->write_op))
		return -EINVAL;
	/* nothing streams in latency mode */
	if (lat && (c->delay || c->mix_read || c->mix_write || c->write_op))
		return -EINVAL;
	if (bw) {
		/* max_outliers is a buffer no sample fills: allowed */
		if (c->samples || c->threshold ||
		    c->flags & LATT_CFG_WARM || c->pattern == LATT_PAT_CHASE ||
		    c->duration_us < LATT_MIN_DURATION_US ||
		    c->duration_us > LATT_MAX_DURATION_US)
			return -EINVAL;
	} else if (!c->samples || c->samples > LATT_MAX_SAMPLES ||
		   c->duration_us) {
		return -EINVAL;
	}
	if (c->mode == LATT_MODE_LOADED && c->nr_threads < 2)
		return -EINVAL;
	/* ABI 2.1: several threads timing large accesses at once */
	if (lat && c->nr_threads > 1 && c->size > LATT_MAX_SIZE_THREADS)
		return -EINVAL;
	/* one chain, thread 0's alone, never written */
	if (c->pattern == LATT_PAT_CHASE &&
	    (c->flags & LATT_CFG_SPLIT || c->mix_write ||
	     (lat && c->nr_threads > 1)))
		return -EINVAL;
	if (c->target == LATT_TARGET_PMEM && c->mix_write &&
	    !(c->flags & LATT_CFG_FORCE))
		return -EPERM;
	return 0;
}

/*
 * What START's validation of the configuration says about @c0: 0 or
 * -errno.  The module's order, which Documentation/ioctl.md describes:
 * the fields (reserved, pads, flags, op, pattern, fence, target, modes,
 * region, limits, chain, the pattern), then the CPU and node, then the
 * instructions, the fence and the width.  Every check before the target's
 * EPERM is an EINVAL, so their order among themselves can't show.
 */
static int model_check(const struct latt_config *c0)
{
	struct latt_config c = *c0;
	struct latt_pattern pat;
	__u32 node;
	int ret;

	if (c.pad || c.pad2 || c.flags & ~LATT_CFG_FLAGS_ALL)
		return -EINVAL;
	if (!c.op || c.op > LATT_OP_MAX || !c.pattern ||
	    c.pattern > LATT_PAT_MAX || c.fence > LATT_FENCE_MAX)
		return -EINVAL;
	if (c.target == LATT_TARGET_DRAM) {
		if (c.fd || c.phys_addr || c.map_addr)
			return -EINVAL;
	} else if (c.target == LATT_TARGET_PMEM) {
		if ((is_store(c.op) || c.pattern == LATT_PAT_CHASE) &&
		    !(c.flags & LATT_CFG_FORCE))
			return -EPERM;
	} else {
		return -EINVAL;
	}
	ret = model_mode(&c);
	if (ret)
		return ret;
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
	return model_sample(&c);
}

/*
 * The threads of a configuration that passed model_check(): 0 or -errno,
 * the run's CPUs in @cpus (MAX_CPUS entries) and their number in @np.
 * The list is read from this process's memory, wherever cpus_ptr points.
 */
static int model_threads(const struct latt_config *c, __u32 *cpus,
			 __u32 *np)
{
	static unsigned char seen[MAX_CPUS];
	__u32 n = nthreads(c), i;
	struct latt_pattern pat;
	__u64 part;
	int ret = 0;

	*np = 0;
	if (n > LATT_MAX_THREADS || n > info.nr_cpu_ids ||
	    (n > 1 && !c->cpus_ptr) || (c->cpus_ptr && !c->nr_threads))
		return -EINVAL;
	/* each part must hold the pattern, as the region does */
	if (c->flags & LATT_CFG_SPLIT &&
	    (model_split(c->region, n, c->size, &part) ||
	     latt_pattern_init(&pat, c->pattern, c->size, c->stride, part,
			       c->seed)))
		return -EINVAL;
	if (c->cpus_ptr) {
		if (peek(c->cpus_ptr, cpus, n * 4UL) != n * 4UL)
			return -EFAULT;
	} else {
		cpus[0] = c->cpu;
	}
	*np = n;
	if (cpus[0] != c->cpu)
		return -EINVAL;
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < n && !ret; i++) {
		if (cpus[i] >= info.nr_cpu_ids || cpus[i] >= MAX_CPUS ||
		    seen[cpus[i]])
			ret = -EINVAL;
		else if (!cpu_online[cpus[i]])
			ret = -ENODEV;
		else
			seen[cpus[i]] = 1;
	}
	return ret;
}

/* The streams' functions (latt_pick_streams()): the mix's write op. */
static int model_streams(const struct latt_config *c)
{
	__u32 wop = c->write_op ? c->write_op : LATT_OP_STORE;

	if (!is_store(wop))
		return -EINVAL;
	return model_op(wop);
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

/*
 * Does a valid run of @c write its target?  Stores, chase (its pointers),
 * and the writes of a mix (which is why a PMEM mix needs FORCE).
 */
static int run_writes(const struct latt_config *c)
{
	return is_store(c->op) || c->pattern == LATT_PAT_CHASE ||
	       (c->mode != LATT_MODE_LATENCY && c->mix_write);
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
	if (run_writes(c) &&
	    (fcntl(c->fd, F_GETFL) & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (kind == F_WRONG)
		return -EINVAL;
	if (kind == F_SHARED)
		return -EBUSY;
	if (!have_pmem || c->phys_addr < ns_start || end > ns_start + ns_size)
		return -EINVAL;
	/* ABI 2.1: only a device-DAX claim has a mapping to check */
	if (c->map_addr)
		return -EINVAL;
	if (c->pattern == LATT_PAT_CHASE && (c->region & (c->region - 1)))
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
	       c->duration_us > SAFE_DURATION_US || c->delay > SAFE_DELAY ||
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

/* An offline CPU below nr_cpu_ids, or nr_cpu_ids when there is none. */
static __u32 offline_cpu(void)
{
	__u32 i, n = info.nr_cpu_ids < MAX_CPUS ? info.nr_cpu_ids : MAX_CPUS;
	__u32 k = below(n);

	for (i = 0; i < n; i++)
		if (!cpu_online[(k + i) % n])
			return (k + i) % n;
	return info.nr_cpu_ids;
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

/*
 * A claim that never lets a run start (not the O_EXCL pmem0), half the time
 * one opened read-only.
 */
static __s32 other_claim(void)
{
	int i, fd;

	for (i = 0; i < 8; i++) {
		fd = claims[below(nclaims)];
		if (chance(50) &&
		    (fcntl(fd, F_GETFL) & O_ACCMODE) != O_RDONLY)
			continue;
		if (fd != excl_fd)
			return fd;
	}
	return -1;
}

/*
 * The CPU list valid_config() made: list[0] = .cpu, then distinct online
 * CPUs in random order; list_len entries.
 */
static __u32 list[MAX_CPUS];
static __u32 list_len;

static void make_list(__u32 first, __u32 n)
{
	__u32 i, j, t, k = 0;

	list[k++] = first;
	for (i = 0; i < info.nr_cpu_ids && i < MAX_CPUS; i++)
		if (cpu_online[i] && i != first)
			list[k++] = i;
	/* shuffle all but the first */
	for (i = k - 1; i > 1; i--) {
		j = 1 + below(i);
		t = list[i];
		list[i] = list[j];
		list[j] = t;
	}
	list_len = n < k ? n : k;
}

/* Place the list's first @n entries (n * 4 bytes) where @u points. */
static __u64 place_list(const struct uptr *u, __u32 n)
{
	place(u, list, n * 4UL);
	return (uintptr_t)u->p;
}

/*
 * A valid, small run: 16 MiB mostly, a few thousand samples mostly; one
 * thread or several (up to every online CPU), in latency, bandwidth (1-50
 * ms) or loaded mode, with the streams' delay, mix and write op now and
 * then, a split region, a chase's TLB-locality block, and the rdtsc timer
 * (LATT_CFG_RDTSC).
 */
static struct latt_config valid_config(void)
{
	struct latt_config c;
	struct uptr u;
	__u64 slots, part;
	__u32 n, r;

	memset(&c, 0, sizeof(c));
	c.target = LATT_TARGET_DRAM;
	c.op = 1 + below(LATT_OP_MAX);
	c.pattern = 1 + below(LATT_PAT_MAX);
	r = below(100);
	c.mode = r < 55 ? LATT_MODE_LATENCY :
		 r < 80 ? LATT_MODE_BANDWIDTH : LATT_MODE_LOADED;
	if (c.mode == LATT_MODE_LOADED && n_online < 2)
		c.mode = LATT_MODE_LATENCY;
	if (c.mode == LATT_MODE_BANDWIDTH && c.pattern == LATT_PAT_CHASE)
		c.pattern = chance(50) ? LATT_PAT_SEQ : LATT_PAT_RAND;
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
		/*
		 * a TLB-locality block (the stride of a chase): a power of
		 * two of whole accesses, at most the region
		 */
		if (chance(30) && !(c.size & (c.size - 1))) {
			c.stride = c.size << below(12);
			while (c.stride > c.region)
				c.stride >>= 1;
		}
		break;
	}

	/* threads: 0 or 1 mostly without a list, else 2.. every online CPU */
	if (c.mode == LATT_MODE_LOADED)
		n = 2 + below(n_online - 1);
	else if (n_online < 2 || chance(45))
		n = chance(80) ? 0 : 1;
	else
		n = 2 + below(n_online - 1);
	if (c.mode == LATT_MODE_LATENCY && c.pattern == LATT_PAT_CHASE &&
	    n > 1)
		n = 1;
	c.nr_threads = n;
	make_list(c.cpu, n ? n : 1);
	if (n > 1 || (n == 1 && chance(50))) {
		u = uptr_in(&lists, n * 4UL, 0);
		c.cpus_ptr = place_list(&u, n);
	}

	if (c.mode == LATT_MODE_BANDWIDTH) {
		c.duration_us = LATT_MIN_DURATION_US +
			below((chance(70) ? 10000 : SAFE_DURATION_US) -
			      LATT_MIN_DURATION_US + 1);
	} else {
		if (chance(70))
			c.samples = 1 + below(1000);
		else if (chance(85))
			c.samples = 1000 + below(20000);
		else
			c.samples = 1 + below(SAFE_SAMPLES);
		/*
		 * several timing threads, or streams, keep every CPU busy
		 * (and the fuzzer waiting): shorter
		 */
		if (n > 1)
			c.samples = 1 + below(chance(80) ? 500 : 5000);
		if (c.pattern == LATT_PAT_CHASE && c.chain > 1 &&
		    c.samples * c.chain > SAFE_CHASE)
			c.samples = SAFE_CHASE / c.chain;
		if (chance(30)) {
			c.threshold = below(2000);
			c.max_outliers = below(4096);
		}
	}
	c.seed = rnd();
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
		if (chance(20) && c.mode != LATT_MODE_BANDWIDTH)
			c.flags |= LATT_CFG_WARM;
	}

	/* what the streams do */
	if (c.mode != LATT_MODE_LATENCY) {
		if (chance(30))
			c.delay = below(chance(80) ? 2000 : SAFE_DELAY + 1);
		if (chance(30)) {
			c.mix_read = (__u16)below(4);
			c.mix_write = (__u16)below(4);
		}
		if (c.pattern == LATT_PAT_CHASE ||
		    c.target == LATT_TARGET_PMEM)
			c.mix_write = 0;	/* refused; PMEM: needs FORCE */
		if (chance(40))
			c.write_op = LATT_OP_STORE + below(5);
	}
	if (chance(25) && c.pattern != LATT_PAT_CHASE &&
	    !model_split(c.region, n ? n : 1, c.size, &part))
		c.flags |= LATT_CFG_SPLIT;
	/* ABI 1.3: the other timer, lfence; rdtsc */
	if (chance(25))
		c.flags |= LATT_CFG_RDTSC;
	return c;
}

/* Change the CPU list at cpus_ptr, or make one: duplicates, CPUs out of
 * range or offline, a first CPU other than .cpu, a swap. */
static const char *mutate_cpus(struct latt_config *c)
{
	__u32 n = nthreads(c), *v, i, j, t;
	struct uptr u;

	if (n > MAX_CPUS)
		n = MAX_CPUS;
	v = list_at(c->cpus_ptr, n);
	if (!v) {
		/* a fresh list where there was none (or not one of ours) */
		make_list(c->cpu, n);
		u = uptr_in(&lists, n * 4UL, 0);
		c->cpus_ptr = place_list(&u, n);
		v = list_at(c->cpus_ptr, n);
		if (!v || chance(30))
			return "cpus=new";
	}
	i = below(n);
	switch (below(6)) {
	case 0:		/* a duplicate */
		j = below(n);
		if (i == j)
			i = (i + 1) % n;
		v[i] = v[j];
		return "cpus=dup";
	case 1:		/* out of range */
		v[i] = chance(50) ? info.nr_cpu_ids + (__u32)below(4) :
		       (__u32)mutant(v[i]);
		return "cpus=range";
	case 2:		/* offline (or nr_cpu_ids without one) */
		v[i] = offline_cpu();
		return "cpus=offline";
	case 3:		/* the first is not .cpu */
		v[0] = online_cpu();
		return "cpus[0]";
	case 4:		/* a swap */
		j = below(n);
		t = v[i];
		v[i] = v[j];
		v[j] = t;
		return "cpus=swap";
	default:	/* the first few entries only */
		v[i] = (__u32)below(info.nr_cpu_ids + 2);
		return "cpus=any";
	}
}

/* Change one field of @c to a random or boundary value. */
static const char *mutate(struct latt_config *c)
{
	static const char *const list_ptr[P_NR] = {
		"cpus_ptr=good", "cpus_ptr=misaligned", "cpus_ptr=NULL",
		"cpus_ptr=unmapped", "cpus_ptr=read-only",
		"cpus_ptr=straddling", "cpus_ptr=PROT_NONE",
		"cpus_ptr=kernel", "cpus_ptr=non-canonical", "cpus_ptr=~0",
		"cpus_ptr=low",
	};
	static const __u64 durations[] = {
		0, 1, LATT_MIN_DURATION_US - 1, LATT_MIN_DURATION_US,
		LATT_MIN_DURATION_US + 1, SAFE_DURATION_US,
		LATT_MAX_DURATION_US, LATT_MAX_DURATION_US + 1,
	};
	static const __u64 delays[] = {
		0, 1, 100, SAFE_DELAY, LATT_MAX_DELAY, LATT_MAX_DELAY + 1,
		~0ULL,
	};
	struct uptr u;
	__u64 v;
	__u32 n;

	switch (below(37)) {
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
			   (__u32)below(LATT_CFG_FLAGS_ALL + 2);
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
		c->map_addr = chance(50) ? 1ULL << below(64) : rnd();
		return "map_addr";
	case 22:	/* the pattern's geometry together */
		c->pattern = 1 + below(LATT_PAT_MAX);
		c->stride = mutant(c->stride);
		c->size = mutant(c->size);
		return "pattern+stride+size";
	case 23:
		switch (below(4)) {
		case 0:
			n = info.nr_cpu_ids + (__u32)below(3) - 1;
			break;
		case 1:
			n = n_online + (__u32)below(3) - 1;
			break;
		case 2:
			n = (__u32)below(LATT_MAX_THREADS + 2);
			break;
		default:
			n = (__u32)mutant(c->nr_threads);
			break;
		}
		c->nr_threads = n;
		return "nr_threads";
	case 24:
		c->mode = chance(50) ? (__u32)below(LATT_MODE_MAX + 1) :
			  (__u32)mutant(c->mode);
		return "mode";
	case 25:
		switch (below(4)) {
		case 0:
			c->cpus_ptr = 0;
			break;
		case 1:
			c->cpus_ptr = mutant(c->cpus_ptr);
			break;
		default:	/* the list, at a pointer of any kind */
			n = nthreads(c) < MAX_CPUS ? nthreads(c) : MAX_CPUS;
			if (list_len < n)
				make_list(c->cpu, n);
			u = uptr_in(&lists, n * 4UL, 80);
			c->cpus_ptr = place_list(&u, n);
			return list_ptr[u.kind];
		}
		return "cpus_ptr";
	case 26:
		return mutate_cpus(c);
	case 27:
		c->duration_us = chance(50) ? PICK(durations) :
				 mutant(c->duration_us);
		return "duration_us";
	case 28:
		c->delay = chance(50) ? PICK(delays) : mutant(c->delay);
		return "delay";
	case 29:
		c->mix_read = (__u16)mutant(c->mix_read);
		return "mix_read";
	case 30:
		c->mix_write = (__u16)mutant(c->mix_write);
		return "mix_write";
	case 31:
		c->write_op = chance(50) ? (__u32)below(LATT_OP_MAX + 2) :
			      (__u32)mutant(c->write_op);
		return "write_op";
	case 32:
		c->flags ^= LATT_CFG_SPLIT;
		return "split";
	case 33:	/* another mode, the rest as it was */
		c->mode = (c->mode + 1 + below(LATT_MODE_MAX)) %
			  (LATT_MODE_MAX + 1);
		if (chance(50))
			c->duration_us = c->duration_us ? 0 :
				LATT_MIN_DURATION_US + below(10000);
		return "mode+duration";
	case 34:
		/*
		 * PMEM, FORCE, the target's range, a claim that never lets a
		 * run start (not the O_EXCL pmem0): which claims may a run
		 * that writes (stores, chase, a mix's writes) take?
		 */
		c->target = LATT_TARGET_PMEM;
		c->flags |= LATT_CFG_FORCE;
		c->fd = other_claim();
		c->phys_addr = have_pmem ? ns_start : mutant(0);
		if (c->mode != LATT_MODE_LATENCY && chance(50))
			c->mix_write = (__u16)(1 + below(3));
		return "pmem-claim";
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

/*
 * Count one unexpected result of a kind (its message, the errno got);
 * whether to print it: the first few of each kind, and not too many.
 */
static int report(const char *fmt, int err)
{
	struct kind *k;
	int i;

	me->unexpected++;
	for (i = 0; i < MAX_KINDS; i++) {
		k = &me->kinds[i];
		if (!k->fmt) {
			k->fmt = fmt;
			k->err = err;
		}
		if (k->fmt == fmt && k->err == err)
			break;
	}
	if (i < MAX_KINDS && ++me->kinds[i].n > KIND_REPORTS)
		return 0;
	return ++me->printed <= MAX_REPORTS;
}

static void print_config(const struct latt_config *c)
{

	printf("#   config: op %u fence %u pattern %u target %u node %#x "
	       "cpu %u size %#llx stride %#llx region %#llx samples %#llx "
	       "seed %#llx threshold %#llx chain %u max_outliers %u "
	       "window_us %u width %u flags %#x pad %#x phys %#llx fd %d "
	       "pad2 %#x nr_threads %u mode %u cpus_ptr %#llx duration_us "
	       "%llu delay %llu mix %u:%u write_op %u map_addr %#llx",
	       c->op, c->fence, c->pattern, c->target, c->node, c->cpu,
	       (unsigned long long)c->size, (unsigned long long)c->stride,
	       (unsigned long long)c->region, (unsigned long long)c->samples,
	       (unsigned long long)c->seed,
	       (unsigned long long)c->threshold, c->chain, c->max_outliers,
	       c->window_us, c->width, c->flags, c->pad,
	       (unsigned long long)c->phys_addr, c->fd, c->pad2,
	       c->nr_threads, c->mode, (unsigned long long)c->cpus_ptr,
	       (unsigned long long)c->duration_us,
	       (unsigned long long)c->delay, c->mix_read, c->mix_write,
	       c->write_op, (unsigned long long)c->map_addr);
}

/* A CPU list as the model read it. */
static void print_cpus(const __u32 *cpus, __u32 n)
{
	__u32 i;

	printf("#   cpus (as read):");
	for (i = 0; i < n && i < 16; i++)
		printf(" %u", cpus[i]);
	printf("%s\n", n > 16 ? " ..." : "");
}

/* A result outside the model's set: print it (the first few) and count. */
static __attribute__((format(printf, 3, 4)))
void unexpected(int ret, const void *cfg, const char *fmt, ...)
{
	va_list ap;

	if (!report(fmt, ret))
		return;
	printf("# UNEXPECTED worker %d step %lu: got %s: ", worker, callno,
	       ename(ret));
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (cfg) {
		print_config(cfg);
		printf("#   bytes:");
		hexdump(cfg, sizeof(struct latt_config));
	}
	fflush(stdout);
}

static __attribute__((format(printf, 2, 3)))
void bad_output(const struct latt_config *cfg, const char *fmt, ...)
{
	va_list ap;

	me->bad_output++;
	if (!report(fmt, 0))
		return;
	printf("# BAD OUTPUT worker %d step %lu: ", worker, callno);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (cfg)
		print_config(cfg);
	fflush(stdout);
}

/* --- the run record ------------------------------------------------------- */

static void rec_lock(void)
{
	while (__atomic_exchange_n(&sh->lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void rec_unlock(void)
{
	__atomic_store_n(&sh->lock, 0, __ATOMIC_RELEASE);
}

/* A START begins: its index; *busy: another START was in flight. */
static unsigned long start_begin(int *busy)
{
	*busy = __atomic_fetch_add(&sh->starting, 1, __ATOMIC_SEQ_CST) > 0;
	return __atomic_add_fetch(&sh->begun, 1, __ATOMIC_SEQ_CST);
}

/*
 * A START ends.  If it started a run (@ok), that run is the module's now:
 * describe it, unless another START overlapped this one (then which of them
 * the module holds is unknown) or @c is not what the model thought.
 */
static void start_end(unsigned long idx, int busy, int ok,
		      const struct latt_config *c, const __u32 *cpus,
		      __u32 n, int model_ok)
{
	struct run_rec *r = &sh->rec;

	if (ok) {
		busy |= __atomic_load_n(&sh->begun, __ATOMIC_SEQ_CST) != idx;
		rec_lock();
		if (idx > r->begun_idx) {
			r->begun_idx = idx;
			r->valid = !busy && model_ok;
			r->mode = c->mode;
			r->n = n;
			r->total = c->mode == LATT_MODE_BANDWIDTH ?
				c->duration_us :
				c->mode == LATT_MODE_LOADED ? c->samples :
				c->samples * n;
			r->sl_known = 0;
			if (n <= MAX_CPUS)
				memcpy(r->cpus, cpus, n * sizeof(*cpus));
			else
				r->valid = 0;
		}
		r->gen++;
		rec_unlock();
	}
	__atomic_sub_fetch(&sh->starting, 1, __ATOMIC_SEQ_CST);
}

/* A copy of the record before a call; rec_same() after it says whether it
 * describes the run that call saw. */
static void rec_get(struct run_rec *out)
{
	int busy = __atomic_load_n(&sh->starting, __ATOMIC_SEQ_CST);

	rec_lock();
	*out = sh->rec;
	rec_unlock();
	if (busy)
		out->valid = 0;
}

static int rec_same(const struct run_rec *r)
{
	unsigned long g;

	if (!r->valid || __atomic_load_n(&sh->starting, __ATOMIC_SEQ_CST))
		return 0;
	rec_lock();
	g = sh->rec.gen;
	rec_unlock();
	return g == r->gen;
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
	/*
	 * The features don't change, but for TSC_STABLE, which the kernel
	 * may take away (a TSC marked unstable stays so), never give back.
	 */
	if (i.abi_version != LATT_ABI_VERSION ||
	    i.hist_buckets != LATT_HIST_BUCKETS ||
	    i.nr_cpu_ids != info.nr_cpu_ids || i.state > LATT_STATE_FAILED ||
	    !(i.features & LATT_FEAT_THREADS) ||
	    !(i.features & LATT_FEAT_TIMER_RDTSC) ||
	    !(i.features & LATT_FEAT_REUSE) ||
	    !(i.features & LATT_FEAT_DAX_MAP) ||
	    (i.features & ~FEAT_KNOWN) ||
	    (i.features | LATT_FEAT_TSC_STABLE) !=
	    (info.features | LATT_FEAT_TSC_STABLE) ||
	    ((i.features & LATT_FEAT_TSC_STABLE) &&
	     !(info.features & LATT_FEAT_TSC_STABLE)) ||
	    !all_zero(i.reserved, ARRAY_SIZE(i.reserved)))
		bad_output(NULL, "GET_INFO: abi %#x buckets %u cpus %u state %u "
			   "features %#llx", i.abi_version, i.hist_buckets,
			   i.nr_cpu_ids, i.state,
			   (unsigned long long)i.features);
}

/*
 * STATUS: done <= total always, an error only with FAILED; while the run
 * is known (struct run_rec), total is samples x timing threads (loaded:
 * samples) or duration_us (bandwidth), a DONE run has done == total, and
 * done never falls within one run (as one process sees it).
 */
static unsigned long seen_gen;	/* the run of seen_done */
static __u64 seen_done;

static void do_status(void)
{
	struct uptr u = uptr(sizeof(struct latt_status), 30);
	int want = u.wr >= sizeof(struct latt_status) ? 0 : -EFAULT;
	struct latt_status s;
	struct run_rec r;
	int ret;

	rec_get(&r);
	ret = xioctl(a_dev(), LATT_IOC_STATUS, u.p);
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
	    s.samples_done > s.samples_total ||
	    !all_zero(s.reserved, ARRAY_SIZE(s.reserved)) ||
	    (s.state != LATT_STATE_FAILED && s.error) ||
	    (s.state == LATT_STATE_IDLE && (s.samples_total || s.windows)))
		bad_output(NULL, "STATUS: state %u error %d done %llu of %llu",
			   s.state, s.error,
			   (unsigned long long)s.samples_done,
			   (unsigned long long)s.samples_total);
	if (!rec_same(&r))
		return;
	me->known++;
	/* progress never falls within a run, as this process sees it */
	if (seen_gen == r.gen && s.samples_done < seen_done)
		bad_output(NULL, "STATUS: progress of one run fell from %llu "
			   "to %llu", (unsigned long long)seen_done,
			   (unsigned long long)s.samples_done);
	seen_gen = r.gen;
	seen_done = s.samples_done;
	if (s.state == LATT_STATE_IDLE || s.samples_total != r.total ||
	    (s.state == LATT_STATE_DONE && s.samples_done != r.total))
		bad_output(NULL, "STATUS of a run of mode %u, %u threads: "
			   "state %u, done %llu of %llu, want a total of %llu",
			   r.mode, r.n, s.state,
			   (unsigned long long)s.samples_done,
			   (unsigned long long)s.samples_total,
			   (unsigned long long)r.total);
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
	static __u32 cpus[MAX_CPUS];
	struct latt_config c = valid_config();
	struct uptr u = uptr(sizeof(c), 10);
	const char *what[2] = { "none", "" };
	int n = 0, want, ret, alt = 0, alt2 = 0, busy;
	unsigned long idx;
	__u32 nt = 0;

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
		if (!want)
			want = model_threads(&c, cpus, &nt);
		if (!want)
			want = model_streams(&c);
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
	idx = start_begin(&busy);
	ret = xioctl(a_dev(), LATT_IOC_START, u.p);
	start_end(idx, busy, !ret, &c, cpus, nt, !want);
	count(C_START, ret);
	if (!ret) {
		me->started++;
		me->started_mode[c.mode <= LATT_MODE_MAX ? c.mode : 0]++;
		if (nt > 1)
			me->started_threads++;
		__atomic_store_n(&sh->run_held, 1, __ATOMIC_SEQ_CST);
	}
	if (ret == -ENOMEM && alt2)
		me->dram_enomem++;
	if (ret != want && (!alt || ret != alt) && (!alt2 || ret != alt2)) {
		unexpected(ret, u.rd >= sizeof(c) ? &c : NULL,
			   "START from a %s pointer, mutated %s%s%s, want %s%s%s",
			   ptr_names[u.kind], what[0], n == 2 ? " and " : "",
			   what[1], ename(want), alt ? " or EBUSY" : "",
			   alt2 ? " or ENOMEM" : "");
		if (u.rd >= sizeof(c) && c.cpus_ptr && nt &&
		    me->printed <= MAX_REPORTS)
			print_cpus(cpus, nt);
	}
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

/* Can the streams of a run of @c read, write? */
static int streams_read(const struct latt_config *c)
{
	if (c->mode == LATT_MODE_LATENCY)
		return 0;
	if (c->mix_read || c->mix_write)
		return c->mix_read > 0;
	return c->mode == LATT_MODE_LOADED || !is_store(c->op);
}

static int streams_write(const struct latt_config *c)
{
	if (c->mode == LATT_MODE_LATENCY)
		return 0;
	if (c->mix_read || c->mix_write)
		return c->mix_write > 0;
	return c->mode == LATT_MODE_BANDWIDTH && is_store(c->op);
}

/* The samples a run of @c takes: latency x threads, loaded 1, bandwidth 0 */
static __u64 want_count(const struct latt_config *c)
{
	if (c->mode == LATT_MODE_BANDWIDTH)
		return 0;
	return c->mode == LATT_MODE_LOADED ? c->samples :
	       c->samples * nthreads(c);
}

/* The timer a run of @c uses: rdtsc when asked or without rdtscp. */
static int want_rdtsc(const struct latt_config *c)
{
	return (c->flags & LATT_CFG_RDTSC) ||
	       !(info.features & LATT_FEAT_RDTSCP);
}

/* A page size lookup_address() can report: 4 KiB, 2 MiB, 1 GiB. */
static int page_size_ok(__u64 b)
{
	return b == 4096 || b == 2ULL << 20 || b == 1ULL << 30;
}

static void check_result(const struct latt_result *r, __u32 out_asked,
			 int full_hist)
{
	const struct latt_config *c = &r->config;
	unsigned long long sum = 0;
	__u64 want = want_count(c), recorded;
	__u32 i;

	if (r->state > LATT_STATE_FAILED)
		bad_output(c, "RESULT: state %u", r->state);
	else
		me->result_state[r->state]++;
	if (r->hist_len != LATT_HIST_BUCKETS ||
	    !all_zero(r->reserved, ARRAY_SIZE(r->reserved)) ||
	    c->pad ||
	    c->pad2)
		bad_output(c, "RESULT: hist_len %u, or reserved/pad not zero",
			   r->hist_len);
	if (r->state == LATT_STATE_RUNNING || r->state == LATT_STATE_IDLE ||
	    r->state == LATT_STATE_FAILED || r->error)
		bad_output(c, "RESULT: state %u error %d (%s)", r->state,
			   r->error, ename(r->error));
	/* samples that ran backwards are counted apart (ABI 1.3) */
	if (r->count + r->backwards > want || r->backwards > want ||
	    (r->state == LATT_STATE_DONE && r->count + r->backwards != want))
		bad_output(c, "RESULT: state %u mode %u, %u threads: %llu "
			   "samples and %llu backwards, want %llu", r->state,
			   c->mode, nthreads(c), (unsigned long long)r->count,
			   (unsigned long long)r->backwards,
			   (unsigned long long)want);
	/*
	 * ABI 1.3: the timer's flag as the configuration and the CPU call
	 * for, no unknown flag, DAX only for PMEM; a page size of DRAM's
	 * direct map (or 0 for PMEM if unknown); no step or calibration
	 * beyond 2^40 cycles; a step wherever a sample was taken (it is
	 * measured before the first); nothing timed in bandwidth mode.
	 */
	if ((r->flags & ~RES_KNOWN) ||
	    !(r->flags & LATT_RES_TIMER_RDTSC) != !want_rdtsc(c) ||
	    ((r->flags & LATT_RES_DAX) && c->target != LATT_TARGET_PMEM))
		bad_output(c, "RESULT: flags %#x (config flags %#x, CPU %s "
			   "rdtscp, target %u)", r->flags, c->flags,
			   info.features & LATT_FEAT_RDTSCP ? "with" :
			   "without", c->target);
	/* ABI 2.1: the blocks the region is made of, 2 or 4 MiB */
	if (r->chunk_size != 2 << 20 && r->chunk_size != 4 << 20)
		bad_output(c, "RESULT: chunk_size %llu",
			   (unsigned long long)r->chunk_size);
	if ((r->flags & LATT_RES_REUSED) && !(c->flags & LATT_CFG_REUSE))
		bad_output(c, "RESULT: reused without LATT_CFG_REUSE");
	if ((r->flags & LATT_RES_CHAIN_REUSED) &&
	    (!(r->flags & LATT_RES_REUSED) || c->pattern != LATT_PAT_CHASE ||
	     c->target != LATT_TARGET_DRAM))
		bad_output(c, "RESULT: a chain reused by a run that reused no "
			   "DRAM region, or did not chase");
	if (c->target == LATT_TARGET_DRAM ? !page_size_ok(r->page_size) :
	    r->page_size && !page_size_ok(r->page_size))
		bad_output(c, "RESULT: page_size %llu (target %u)",
			   (unsigned long long)r->page_size, c->target);
	if (r->overhead_end > GARBAGE || r->timer_step > GARBAGE ||
	    (r->count && !r->timer_step) ||
	    (c->mode == LATT_MODE_BANDWIDTH &&
	     (r->overhead_end || r->backwards)))
		bad_output(c, "RESULT: state %u mode %u: overhead_end %llu, "
			   "timer_step %llu, %llu samples, %llu backwards",
			   r->state, c->mode,
			   (unsigned long long)r->overhead_end,
			   (unsigned long long)r->timer_step,
			   (unsigned long long)r->count,
			   (unsigned long long)r->backwards);
	/* bytes: only where something streams, on the side it could */
	if ((r->bytes_read && !streams_read(c)) ||
	    (r->bytes_written && !streams_write(c)) ||
	    (c->size && (r->bytes_read % c->size ||
			 r->bytes_written % c->size)) ||
	    (r->state == LATT_STATE_DONE && c->mode != LATT_MODE_LATENCY &&
	     !(r->bytes_read + r->bytes_written)))
		bad_output(c, "RESULT: state %u mode %u mix %u:%u op %u: "
			   "%llu bytes read, %llu written", r->state, c->mode,
			   c->mix_read, c->mix_write, c->op,
			   (unsigned long long)r->bytes_read,
			   (unsigned long long)r->bytes_written);
	recorded = r->outliers - r->outliers_dropped;
	if (r->outliers_dropped > r->outliers ||
	    r->outlier_len > out_asked ||
	    (out_asked >= recorded && r->outlier_len != recorded))
		bad_output(c, "RESULT: outliers %llu dropped %llu copied %u of %u",
			   (unsigned long long)r->outliers,
			   (unsigned long long)r->outliers_dropped,
			   r->outlier_len, out_asked);
	/* the header: max_outliers is the outlier buffer, in records */
	if (recorded > c->max_outliers)
		bad_output(c, "RESULT: %llu outlier records kept (%llu seen, "
			   "%llu dropped) by %u threads, buffer max_outliers %u",
			   (unsigned long long)recorded,
			   (unsigned long long)r->outliers,
			   (unsigned long long)r->outliers_dropped,
			   nthreads(c), c->max_outliers);
	if ((r->count && r->min > r->max) || (!r->count && r->min))
		bad_output(c, "RESULT: count %llu min %llu max %llu",
			   (unsigned long long)r->count,
			   (unsigned long long)r->min,
			   (unsigned long long)r->max);
	if (full_hist) {
		for (i = 0; i < LATT_HIST_BUCKETS; i++)
			sum += ((const __u64 *)hist)[i];
		if (sum != r->count)
			bad_output(c, "RESULT: histogram sum %llu, count %llu",
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
		r.reserved[below(ARRAY_SIZE(r.reserved))] =
			chance(50) ? 1ULL << below(64) : rnd();
	result_buf(&r.hist_ptr, &r.hist_len, 8, hist, hist_size, &hwr);
	result_buf(&r.outlier_ptr, &r.outlier_len, LATT_OUTLIER_SIZE, outl,
		   outl_size, &owr);
	out_asked = r.outlier_ptr ? r.outlier_len : 0;
	full = r.hist_ptr == (uintptr_t)hist && r.hist_len >= LATT_HIST_BUCKETS;
	want_einval = !all_zero(r.reserved, ARRAY_SIZE(r.reserved));
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

/* --- THREADS --------------------------------------------------------------- */

/* An output buffer: pointer, bytes writable from it, and how far past those
 * a write may go before it is sure to fault (a PROT_NONE or unmapped span) */
struct obuf {
	__u64 ptr;
	size_t wr, guard;
};

/* A pointer into [base, base + size) for elements of @elem bytes, or none,
 * or anything (mostly bad). */
static struct obuf out_buf(size_t elem, char *base, size_t size,
			   size_t guard)
{
	struct obuf b = { 0, 0, pagesz };
	struct uptr u;
	size_t k;

	switch (below(6)) {
	case 0:		/* none */
		break;
	case 1:
	case 2:		/* the whole buffer */
		b.ptr = (uintptr_t)base;
		b.wr = size;
		b.guard = guard;
		break;
	case 3:		/* its last k elements */
		k = below(size / elem + 1);
		b.ptr = (uintptr_t)(base + size - k * elem);
		b.wr = k * elem;
		b.guard = guard;
		break;
	case 4:		/* misaligned, near the end */
		k = 1 + below(elem * 2 < size ? elem * 2 : size - 1);
		b.ptr = (uintptr_t)(base + size - k);
		b.wr = k;
		b.guard = guard;
		break;
	default:	/* anything */
		u = uptr(elem < 512 ? elem : 512, 90);
		b.ptr = (uintptr_t)u.p;
		b.wr = b.ptr ? u.wr : 0;
		break;
	}
	return b;
}

/*
 * Does THREADS fault on its buffers for a run of @n threads (copied:
 * min(len, n)), @bw (bandwidth: each thread has a series) and @bins bins
 * copied per row?  Records, histograms and rows are written in order, each
 * range from its start, so a fault is exactly a range past what's writable.
 */
static int t_fault(const struct latt_threads *a, __u32 n, int bw,
		   __u64 bins, const struct obuf *s, const struct obuf *h,
		   const struct obuf *b)
{
	if (!n)
		return 0;
	if (a->stats_ptr &&
	    (__u64)n * sizeof(struct latt_thread_stats) > s->wr)
		return 1;
	if (a->hist_ptr && (__u64)n * HIST_BYTES > h->wr)
		return 1;
	if (bw && bins && a->series_ptr &&
	    ((__u64)(n - 1) * a->series_len + bins) * 8 > b->wr)
		return 1;
	return 0;
}

static int inside(__u64 p, const char *base, size_t size)
{
	return p && p >= (uintptr_t)base && p < (uintptr_t)base + size;
}

/* The sum of @n __u64 at @p, which may be misaligned. */
static __u64 rowsum(const void *p, __u64 n)
{
	const char *b = p;
	__u64 s = 0, v;

	for (; n--; b += 8) {
		memcpy(&v, b, 8);
		s += v;
	}
	return s;
}

/*
 * The records THREADS returned, against what RESULT and STATUS say of the
 * same run (no START in between): threads add up to the result, roles and
 * parts as the configuration asks, a run that never reached its common
 * start (tsc_go 0) streamed nothing.
 */
static void threads_vs_result(const struct latt_threads *a,
			      const struct latt_thread_stats *st,
			      const struct run_rec *rec)
{
	struct latt_result r;
	struct latt_status s;
	const struct latt_config *c = &r.config;
	__u64 count = 0, rd = 0, wr = 0, part = 0, back = 0;
	__u32 i, n = a->len, role;
	int fd = a_dev(), roles = 1, parts = 1, counts = 1, errs = 1;

	memset(&r, 0, sizeof(r));
	if (xioctl(fd, LATT_IOC_RESULT, &r) ||
	    xioctl(fd, LATT_IOC_STATUS, &s) || !rec_same(rec))
		return;
	me->followups++;
	if (!(c->flags & LATT_CFG_SPLIT) ||
	    model_split(c->region, n, c->size, &part))
		part = 0;
	for (i = 0; i < n; i++) {
		count += st[i].count;
		back += st[i].backwards;
		rd += st[i].bytes_read;
		wr += st[i].bytes_written;
		role = c->mode == LATT_MODE_LATENCY ||
		       (c->mode == LATT_MODE_LOADED && !i) ?
		       LATT_ROLE_LATENCY : LATT_ROLE_STREAM;
		roles &= st[i].role == role;
		if (c->flags & LATT_CFG_SPLIT)
			parts &= st[i].part_offset == part * i &&
				 st[i].part_bytes == part;
		else
			parts &= !st[i].part_offset &&
				 st[i].part_bytes == c->region;
		if (r.state == LATT_STATE_DONE && role == LATT_ROLE_LATENCY)
			counts &= st[i].count + st[i].backwards == c->samples;
		if (r.state != LATT_STATE_FAILED)
			errs &= !st[i].error;
	}
	/* ABI 1.3: backwards add up too; the result's calibration after
	 * the samples is thread 0's */
	if (n != nthreads(c) || count != r.count || rd != r.bytes_read ||
	    wr != r.bytes_written || back != r.backwards ||
	    st[0].overhead_end != r.overhead_end)
		bad_output(c, "THREADS vs RESULT: %u threads (config %u), "
			   "counts %llu/%llu, backwards %llu/%llu, "
			   "overhead_end %llu/%llu, read %llu/%llu, written "
			   "%llu/%llu", n, nthreads(c),
			   (unsigned long long)count,
			   (unsigned long long)r.count,
			   (unsigned long long)back,
			   (unsigned long long)r.backwards,
			   (unsigned long long)st[0].overhead_end,
			   (unsigned long long)r.overhead_end,
			   (unsigned long long)rd,
			   (unsigned long long)r.bytes_read,
			   (unsigned long long)wr,
			   (unsigned long long)r.bytes_written);
	if (!roles || !parts || !counts || !errs)
		bad_output(c, "THREADS of a %s run: roles %s, parts %s "
			   "(want %llu each), each timing thread's count %s, "
			   "errors %s", r.state == LATT_STATE_DONE ? "DONE" :
			   "stopped", roles ? "ok" : "wrong",
			   parts ? "ok" : "wrong", (unsigned long long)part,
			   counts ? "ok" : "wrong", errs ? "none" : "set");
	if (c->mode == LATT_MODE_BANDWIDTH && !a->tsc_go &&
	    (s.samples_done || r.bytes_read || r.bytes_written))
		bad_output(c, "a bandwidth run that never reached its start "
			   "(tsc_go 0, state %u): STATUS says %llu of %llu us "
			   "streamed, RESULT %llu+%llu bytes", s.state,
			   (unsigned long long)s.samples_done,
			   (unsigned long long)s.samples_total,
			   (unsigned long long)r.bytes_read,
			   (unsigned long long)r.bytes_written);
}

/* The rows THREADS wrote, on success: records, histograms, series. */
static void check_threads(const struct latt_threads *in,
			  const struct latt_threads *a,
			  const struct run_rec *rec, int known)
{
	static struct latt_thread_stats st[MAX_CPUS];
	__u32 n = in->len < a->len ? in->len : a->len, i, role;
	__u64 bins = in->series_len < a->series_len ? in->series_len :
		     a->series_len;
	int bw = a->series_len != 0, ok = 1, j;

	if (!all_zero(a->reserved, ARRAY_SIZE(a->reserved)) || !a->len ||
	    a->len > info.nr_cpu_ids || a->series_len > LATT_MAX_SERIES ||
	    !a->series_len != !a->series_cycles ||
	    (known && (a->len != rec->n ||
		       bw != (rec->mode == LATT_MODE_BANDWIDTH))))
		bad_output(NULL, "THREADS: len %u (run %u), series_len %u of "
			   "%llu cycles, mode %u, reserved %s", a->len,
			   known ? rec->n : 0, a->series_len,
			   (unsigned long long)a->series_cycles,
			   known ? rec->mode : 0,
			   all_zero(a->reserved, ARRAY_SIZE(a->reserved)) ?
			   "zero" : "set");
	if (known) {
		/* the run's series_len, learned once */
		rec_lock();
		if (sh->rec.gen == rec->gen && !sh->rec.sl_known) {
			sh->rec.sl_known = 1;
			sh->rec.series_len = a->series_len;
		}
		rec_unlock();
		if (rec->sl_known && rec->series_len != a->series_len)
			bad_output(NULL, "THREADS: series_len %u, %u before",
				   a->series_len, rec->series_len);
	}
	/* contents: only where no other buffer (or the struct) overlaps */
	if (!inside(in->stats_ptr, tstats, tstats_size) || n > MAX_CPUS)
		return;
	memcpy(st, (void *)(uintptr_t)in->stats_ptr, n * sizeof(*st));
	for (i = 0; i < n; i++) {
		const struct latt_thread_stats *s = &st[i];
		const char *row;

		ok = all_zero(s->reserved, ARRAY_SIZE(s->reserved)) &&
		     s->cpu < info.nr_cpu_ids && s->cpu < MAX_CPUS &&
		     (int)s->node == cpu_node[s->cpu] &&
		     (s->role == LATT_ROLE_LATENCY ||
		      s->role == LATT_ROLE_STREAM) &&
		     (s->count ? s->min <= s->max : !s->min) &&
		     (s->role == LATT_ROLE_STREAM ?
		      !s->count && !s->backwards && !s->overhead_end :
		      !s->accesses && !s->bytes_read &&
		      !s->bytes_written) &&
		     s->overhead_end <= GARBAGE;
		for (j = 0; j < (int)i; j++)
			ok &= st[j].cpu != s->cpu;
		if (known) {
			role = rec->mode == LATT_MODE_LATENCY ||
			       (rec->mode == LATT_MODE_LOADED && !i) ?
			       LATT_ROLE_LATENCY : LATT_ROLE_STREAM;
			ok &= s->cpu == rec->cpus[i] && s->role == role;
		}
		if (!ok) {
			bad_output(NULL, "THREADS: thread %u of %u: cpu %u "
				   "(asked %u) node %u role %u count %llu "
				   "backwards %llu overhead_end %llu "
				   "min %llu max %llu accesses %llu bytes "
				   "%llu+%llu", i, a->len, s->cpu,
				   known ? rec->cpus[i] : s->cpu, s->node,
				   s->role, (unsigned long long)s->count,
				   (unsigned long long)s->backwards,
				   (unsigned long long)s->overhead_end,
				   (unsigned long long)s->min,
				   (unsigned long long)s->max,
				   (unsigned long long)s->accesses,
				   (unsigned long long)s->bytes_read,
				   (unsigned long long)s->bytes_written);
			return;
		}
		if (inside(in->hist_ptr, thist, thist_size)) {
			row = (const char *)(uintptr_t)in->hist_ptr +
			      (size_t)i * HIST_BYTES;
			if (rowsum(row, LATT_HIST_BUCKETS) != s->count)
				bad_output(NULL, "THREADS: thread %u's "
					   "histogram holds %llu, count %llu",
					   i, (unsigned long long)
					   rowsum(row, LATT_HIST_BUCKETS),
					   (unsigned long long)s->count);
		}
		if (inside(in->series_ptr, tseries, tseries_size) && bw &&
		    bins) {
			/* the whole series is the thread's bytes; a part,
			 * no more */
			row = (const char *)(uintptr_t)in->series_ptr +
			      (size_t)i * in->series_len * 8;
			if (bins == a->series_len ?
			    rowsum(row, bins) != s->bytes_read +
			    s->bytes_written :
			    rowsum(row, bins) > s->bytes_read +
			    s->bytes_written)
				bad_output(NULL, "THREADS: thread %u's series "
					   "(%llu of %u bins) sums to %llu, "
					   "bytes %llu", i,
					   (unsigned long long)bins,
					   a->series_len,
					   (unsigned long long)rowsum(row, bins),
					   (unsigned long long)
					   (s->bytes_read + s->bytes_written));
		}
	}
	if (known && n == a->len)
		threads_vs_result(a, st, rec);
}

/*
 * THREADS: reserved -> EINVAL; a bad struct pointer or a buffer too small
 * for what the run has -> EFAULT; ENOENT before any run, EBUSY while one
 * runs; lengths below the run's copy that much.  While the run is known,
 * how many records, histograms and bins get written is known exactly;
 * otherwise EFAULT is allowed where some run could overflow a buffer.
 */
static void do_threads(void)
{
	static const __u64 lens[] = {
		0, 1, 2, 3, 4, 5, 8, 0x7fffffff, 0xffffffff,
	};
	static const __u64 slens[] = {
		0, 1, 2, 3, 100, LATT_MAX_SERIES - 1, LATT_MAX_SERIES,
		LATT_MAX_SERIES + 1, 65536, 1 << 20, 0x7fffffff, 0xffffffff,
	};
	struct latt_threads a, in;
	struct uptr u = uptr(sizeof(a), 15);
	struct obuf s, h, b;
	struct run_rec rec;
	__u32 nmax, nmin, n;
	__u64 lim, bins;
	int held, ret, ok, einval, must, may, known;

	for (size_t i = 0; i < sizeof(a); i += 8)
		*(__u64 *)((char *)&a + i) = chance(50) ? 0 : rnd();
	memset(a.reserved, 0, sizeof(a.reserved));
	if (chance(5))
		a.reserved[below(ARRAY_SIZE(a.reserved))] =
			chance(50) ? 1ULL << below(64) : rnd();
	einval = !all_zero(a.reserved, ARRAY_SIZE(a.reserved));
	a.len = chance(50) ? (__u32)PICK(lens) :
		chance(50) ? info.nr_cpu_ids + (__u32)below(3) - 1 :
		(__u32)below(tcap + 2);
	a.series_len = chance(50) ? (__u32)PICK(slens) :
		       (__u32)below(2 * LATT_MAX_SERIES);
	s = out_buf(sizeof(struct latt_thread_stats), tstats, tstats_size,
		    pagesz);
	h = out_buf(HIST_BYTES, thist, thist_size, pagesz);
	b = out_buf(8, tseries, tseries_size, SERIES_RESERVE - tseries_size);
	a.stats_ptr = s.ptr;
	a.hist_ptr = h.ptr;
	a.series_ptr = b.ptr;
	/*
	 * Row i of the series is written at i * series_len: keep every row
	 * of a writable buffer starting where a write lands in it or faults,
	 * never beyond its guard in someone else's memory.
	 */
	nmax = a.len < info.nr_cpu_ids ? a.len : info.nr_cpu_ids;
	if (b.ptr && b.wr && nmax > 1) {
		lim = (b.wr + b.guard) / 8 / (nmax - 1);
		if (a.series_len >= lim)
			a.series_len = (__u32)below(lim);	/* 0 if 0 */
	}
	in = a;
	place(&u, &a, sizeof(a));

	rec_get(&rec);
	held = __atomic_load_n(&sh->run_held, __ATOMIC_SEQ_CST);
	ret = xioctl(a_dev(), LATT_IOC_THREADS, u.p);
	count(C_THREADS, ret);
	known = rec_same(&rec);

	/* how much the run has: known exactly, or bounds */
	nmin = a.len ? 1 : 0;
	if (known) {
		n = a.len < rec.n ? a.len : rec.n;
		nmin = nmax = n;
	}
	bins = a.series_len < LATT_MAX_SERIES ? a.series_len :
	       LATT_MAX_SERIES;
	must = t_fault(&a, nmin, known && rec.mode == LATT_MODE_BANDWIDTH,
		       known && rec.sl_known ? (a.series_len < rec.series_len ?
		       a.series_len : rec.series_len) : !!bins, &s, &h, &b);
	may = t_fault(&a, nmax, !known || rec.mode == LATT_MODE_BANDWIDTH,
		      known && rec.sl_known ? (a.series_len < rec.series_len ?
		      a.series_len : rec.series_len) : bins, &s, &h, &b);
	if (u.wr < sizeof(a))
		must = may = 1;		/* the copy back */

	if (u.rd < sizeof(a))
		ok = ret == -EFAULT;
	else if (einval)
		ok = ret == -EINVAL;
	else if (ret == -EBUSY || (ret == -ENOENT && !held))
		ok = 1;
	else if (must)
		ok = ret == -EFAULT;
	else
		ok = ret == 0 || (may && ret == -EFAULT);
	if (!ok) {
		unexpected(ret, NULL, "THREADS at a %s pointer (%zu readable, "
			   "%zu writable), len %u series_len %u, stats %#llx "
			   "(%zu writable), hist %#llx (%zu), series %#llx "
			   "(%zu), reserved %s; run %s (%u threads, mode %u)",
			   ptr_names[u.kind], u.rd, u.wr, a.len, a.series_len,
			   (unsigned long long)a.stats_ptr, s.wr,
			   (unsigned long long)a.hist_ptr, h.wr,
			   (unsigned long long)a.series_ptr, b.wr,
			   einval ? "set" : "zero", known ? "known" : "unknown",
			   known ? rec.n : 0, known ? rec.mode : 0);
		return;
	}
	if (ret)
		return;
	if (known)
		me->known++;
	memcpy(&a, u.p, sizeof(a));
	check_threads(&in, &a, &rec, known);
}

/* --- other commands, and the loop ---------------------------------------- */

/* Command numbers that the VFS handles itself, before the driver. */
static int vfs_magic(unsigned int cmd)
{
	unsigned int type = _IOC_TYPE(cmd);

	return type == 'T' || type == 'X' || type == 'f' || type == 0x94 ||
	       type == 0x15 || type == 0x00;
}

static const unsigned int real[] = {
	LATT_IOC_GET_INFO, LATT_IOC_START, LATT_IOC_STATUS,
	LATT_IOC_ABORT, LATT_IOC_RESULT, LATT_IOC_THREADS,
};

static int real_cmd(unsigned int cmd)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(real); i++)
		if (cmd == real[i])
			return 1;
	return 0;
}

static void do_other(void)
{
	struct uptr u = uptr(512, 50);
	unsigned int cmd, dir, type, nr, size;
	int ret;

	do {
		switch (below(4)) {
		case 0:		/* a real command, another size or direction */
			cmd = real[below(ARRAY_SIZE(real))];
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
		if (r < 240)
			do_start();
		else if (r < 400)
			do_result();
		else if (r < 530)
			do_status();
		else if (r < 620)
			do_info();
		else if (r < 635)
			do_abort();
		else if (r < 735)
			do_threads();
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
	if (nclaims < (int)ARRAY_SIZE(claims))
		claims[nclaims++] = fd;
}

static void bail(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(1);
}

/* @size bytes (whole pages) read-write, then a PROT_NONE page. */
static char *guarded(size_t size)
{
	char *p = mmap(NULL, size + pagesz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + size, pagesz, PROT_NONE))
		bail("mmap");
	return p;
}

static size_t pages(size_t bytes)
{
	return (bytes + pagesz - 1) / pagesz * pagesz;
}

/*
 * An arena: @good_size read-write bytes, a read-only page, an edge (whose
 * next two pages unmap_edge() unmaps once every other mapping is made, so
 * that no later one fills the hole).
 */
static void make_arena(struct arena *a, size_t good_size)
{
	a->good_size = good_size;
	a->good = guarded(good_size);
	a->guard = a->good + good_size;
	a->ro = guarded(pagesz);
	mprotect(a->ro, pagesz, PROT_READ);
	a->edge = mmap(NULL, 3 * pagesz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a->edge == MAP_FAILED)
		bail("mmap");
}

static void unmap_edge(struct arena *a)
{
	munmap(a->edge + pagesz, 2 * pagesz);
}

static void setup_env(void)
{
	unsigned char node_online[MAX_NUMNODES] = { 0 };
	unsigned char has_mem[MAX_NUMNODES] = { 0 };
	unsigned char possible[MAX_NUMNODES] = { 0 };
	char path[128];
	int fd, i, n, pipefd[2], shared;

	fd = open_dev();
	if (xioctl(fd, LATT_IOC_GET_INFO, &info))
		bail("GET_INFO");
	close(fd);
	if (info.nr_cpu_ids > MAX_CPUS) {
		printf("Bail out! %u CPU ids, more than %u\n",
		       info.nr_cpu_ids, MAX_CPUS);
		exit(1);
	}
	read_list("/sys/devices/system/cpu/online", cpu_online, MAX_CPUS);
	for (i = 0; i < MAX_CPUS; i++)
		n_online += cpu_online[i];
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
	for (i = 0; i < (int)info.nr_cpu_ids; i++) {
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
	hist_size = pages(HIST_BYTES);
	outl_size = OUTL_PAGES * pagesz;
	make_arena(&args, GOOD_SIZE);
	make_arena(&lists, 2 * pages(MAX_CPUS * 4));
	hist = guarded(hist_size);
	outl = guarded(outl_size);
	gone = args.edge + 2 * pagesz;

	tcap = info.nr_cpu_ids + 2;
	tstats_size = pages(tcap * sizeof(struct latt_thread_stats));
	tstats = guarded(tstats_size);
	thist_size = pages(tcap * HIST_BYTES);
	thist = guarded(thist_size);
	tseries_size = pages(tcap * LATT_MAX_SERIES * 8UL);
	if (tseries_size > SERIES_RESERVE / 2) {
		printf("Bail out! %u CPU ids: series buffer too big\n",
		       info.nr_cpu_ids);
		exit(1);
	}
	tseries = mmap(NULL, SERIES_RESERVE, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (tseries == MAP_FAILED ||
	    mprotect(tseries, tseries_size, PROT_READ | PROT_WRITE))
		bail("mmap");
	/* last: the holes after the edges */
	unmap_edge(&args);
	unmap_edge(&lists);
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
	printf("#   runs started %lu (latency %lu, bandwidth %lu, loaded %lu; "
	       "%lu of several threads); RESULT saw done %lu, aborted %lu, "
	       "failed %lu; files reopened %lu; waits %lu; DRAM ENOMEM %lu\n",
	       t->started, t->started_mode[LATT_MODE_LATENCY],
	       t->started_mode[LATT_MODE_BANDWIDTH],
	       t->started_mode[LATT_MODE_LOADED], t->started_threads,
	       t->result_state[LATT_STATE_DONE],
	       t->result_state[LATT_STATE_ABORTED],
	       t->result_state[LATT_STATE_FAILED], t->reopens, t->waits,
	       t->dram_enomem);
	printf("#   STATUS/THREADS checked against a known run %lu; THREADS "
	       "checked against RESULT %lu\n", t->known, t->followups);
	for (e = 0; e < MAX_KINDS && t->kinds[e].fmt; e++)
		printf("#   unexpected x%lu (got %s): %.100s\n", t->kinds[e].n,
		       ename(t->kinds[e].err), t->kinds[e].fmt);
}

/* Add the kinds of @w to @sum's. */
static void add_kinds(struct stats *sum, const struct stats *w)
{
	int i, j;

	for (i = 0; i < MAX_KINDS && w->kinds[i].fmt; i++) {
		for (j = 0; j < MAX_KINDS; j++) {
			if (!sum->kinds[j].fmt)
				sum->kinds[j] = (struct kind){ w->kinds[i].fmt,
							       w->kinds[i].err,
							       0 };
			if (sum->kinds[j].fmt == w->kinds[i].fmt &&
			    sum->kinds[j].err == w->kinds[i].err)
				break;
		}
		if (j < MAX_KINDS)
			sum->kinds[j].n += w->kinds[i].n;
	}
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

static struct latt_config plain_config(void)
{
	struct latt_config c;

	memset(&c, 0, sizeof(c));
	c.op = LATT_OP_LOAD;
	c.pattern = LATT_PAT_RAND;
	c.target = LATT_TARGET_DRAM;
	c.node = LATT_NODE_LOCAL;
	c.size = 64;
	c.region = 16 << 20;
	c.samples = 20000;
	c.seed = 42;
	return c;
}

/* A plain run after the storm: every sample taken, the histogram adds up. */
static void normal_run(void)
{
	struct latt_config c = plain_config();
	struct latt_result r;
	unsigned long long sum = 0;
	int fd = open_dev(), s, ret;
	__u64 *h = calloc(LATT_HIST_BUCKETS, sizeof(*h));
	__u32 i;

	c.cpu = online_cpu();
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
	check(ret == 0 && !r.backwards && r.timer_step &&
	      r.timer_step <= GARBAGE && r.overhead_end &&
	      r.overhead_end <= GARBAGE && page_size_ok(r.page_size) &&
	      !(r.flags & LATT_RES_TIMER_RDTSC) == !want_rdtsc(&c),
	      "RESULT (ABI 1.3): no sample backwards (%llu), timer step %llu, "
	      "overhead after the samples %llu, page size %llu, flags %#x",
	      (unsigned long long)r.backwards,
	      (unsigned long long)r.timer_step,
	      (unsigned long long)r.overhead_end,
	      (unsigned long long)r.page_size, r.flags);
	free(h);
	close(fd);
}

/*
 * A run on every online CPU after the storm, latency or bandwidth: DONE,
 * STATUS's total and done, RESULT's count and bytes, THREADS' records
 * (each thread's count, series) adding up to RESULT.
 */
static void threads_run(__u32 mode)
{
	static struct latt_thread_stats st[MAX_CPUS];
	struct latt_config c = plain_config();
	struct latt_threads a;
	struct latt_result r;
	struct latt_status s;
	__u64 *series = calloc((size_t)n_online * LATT_MAX_SERIES, 8);
	__u64 count = 0, bytes = 0, total;
	int fd = open_dev(), state, ret, ok = 1;
	__u32 i;
	const char *name = mode == LATT_MODE_BANDWIDTH ? "bandwidth" :
			   "latency";

	make_list(online_cpu(), n_online);
	c.cpu = list[0];
	c.mode = mode;
	c.nr_threads = list_len;
	c.cpus_ptr = (uintptr_t)list;
	if (mode == LATT_MODE_BANDWIDTH) {
		c.samples = 0;
		c.duration_us = 20000;
		total = c.duration_us;
	} else {
		c.samples = 5000;
		total = c.samples * list_len;
	}
	ret = xioctl(fd, LATT_IOC_START, &c);
	state = wait_idle(fd, 6000);
	check(!ret && state == LATT_STATE_DONE, "a %s run on %u CPUs after "
	      "the fuzzing is DONE (start %s, state %d)", name, list_len,
	      ename(ret), state);
	memset(&s, 0, sizeof(s));
	memset(&r, 0, sizeof(r));
	memset(&a, 0, sizeof(a));
	a.stats_ptr = (uintptr_t)st;
	a.series_ptr = (uintptr_t)series;
	a.len = list_len;
	a.series_len = LATT_MAX_SERIES;
	ret = xioctl(fd, LATT_IOC_STATUS, &s) ||
	      xioctl(fd, LATT_IOC_RESULT, &r) ||
	      xioctl(fd, LATT_IOC_THREADS, &a);
	check(!ret && s.samples_total == total && s.samples_done == total,
	      "%s: STATUS done %llu of %llu, want %llu", name,
	      (unsigned long long)s.samples_done,
	      (unsigned long long)s.samples_total, (unsigned long long)total);
	check(r.count == (mode == LATT_MODE_BANDWIDTH ? 0 : total) &&
	      (mode == LATT_MODE_BANDWIDTH ? r.bytes_read > 0 :
	       !r.bytes_read) && !r.bytes_written,
	      "%s: RESULT count %llu, bytes read %llu, written %llu", name,
	      (unsigned long long)r.count, (unsigned long long)r.bytes_read,
	      (unsigned long long)r.bytes_written);
	for (i = 0; i < a.len && i < list_len; i++) {
		count += st[i].count;
		bytes += st[i].bytes_read;
		ok &= st[i].cpu == list[i];
		if (mode == LATT_MODE_BANDWIDTH)
			ok &= rowsum(series + (size_t)i * LATT_MAX_SERIES,
				     a.series_len) == st[i].bytes_read &&
			      !st[i].overhead_end && !st[i].backwards;
		else
			ok &= st[i].count == c.samples && !st[i].backwards &&
			      st[i].overhead_end > 0 &&
			      st[i].overhead_end <= GARBAGE;
	}
	check(a.len == list_len && ok && count == r.count &&
	      bytes == r.bytes_read,
	      "%s: THREADS: %u threads on their CPUs, each thread's %s, "
	      "counts %llu and bytes %llu add up to RESULT's", name, a.len,
	      mode == LATT_MODE_BANDWIDTH ? "series sums to its bytes, "
	      "nothing timed" : "count is samples, none backwards, "
	      "calibrated after them", (unsigned long long)count,
	      (unsigned long long)bytes);
	free(series);
	close(fd);
}

/* Busy for @ms milliseconds, without sleeping. */
static void spin_ms(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 +
	       (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/*
 * A bandwidth run on every online CPU aborted before its threads reach
 * their common start: the one on this CPU can't run yet (this process is
 * SCHED_FIFO on it and spins 20 ms before the ABORT), the others wait at
 * the start line for it.  Then THREADS says tsc_go 0, and nothing was
 * streamed: STATUS's done (the microseconds streamed) must be 0, and so
 * must RESULT's bytes.
 */
static void abort_at_once(void)
{
	static struct latt_thread_stats st[MAX_CPUS];
	struct sched_param sp = { .sched_priority = 1 };
	struct latt_config c = plain_config();
	struct latt_threads a;
	struct latt_result r;
	struct latt_status s;
	int fd = open_dev(), k, early = 0, bad = 0, fifo;
	unsigned long long done = 0, total = 0, bytes = 0;
	cpu_set_t set, old;

	if (n_online < 2) {
		skip("a bandwidth run aborted before its start: one CPU");
		close(fd);
		return;
	}
	make_list(online_cpu(), n_online);
	sched_getaffinity(0, sizeof(old), &old);
	CPU_ZERO(&set);
	CPU_SET(list[0], &set);
	sched_setaffinity(0, sizeof(set), &set);
	fifo = !sched_setscheduler(0, SCHED_FIFO, &sp);
	c.cpu = list[0];
	c.mode = LATT_MODE_BANDWIDTH;
	c.samples = 0;
	c.duration_us = 1000000;
	c.nr_threads = list_len;
	c.cpus_ptr = (uintptr_t)list;
	for (k = 0; k < 10; k++) {
		if (xioctl(fd, LATT_IOC_START, &c))
			break;
		spin_ms(20);	/* the others reach the start line */
		xioctl(fd, LATT_IOC_ABORT, NULL);
		memset(&a, 0, sizeof(a));
		memset(&r, 0, sizeof(r));
		a.stats_ptr = (uintptr_t)st;
		a.len = list_len;
		if (xioctl(fd, LATT_IOC_THREADS, &a) ||
		    xioctl(fd, LATT_IOC_STATUS, &s) ||
		    xioctl(fd, LATT_IOC_RESULT, &r) || a.tsc_go)
			continue;
		early++;
		if (s.samples_done || r.bytes_read || r.bytes_written) {
			bad++;
			done = s.samples_done;
			total = s.samples_total;
			bytes = r.bytes_read + r.bytes_written;
		}
	}
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	sched_setaffinity(0, sizeof(old), &old);
	if (!early) {
		skip("a bandwidth run aborted before its start: none of 10 "
		     "was (SCHED_FIFO %s)", fifo ? "on" : "refused");
	} else {
		check(!bad, "a bandwidth run aborted before its common start "
		      "(tsc_go 0; %d of 10) streamed nothing: %d said "
		      "otherwise (STATUS done %llu of %llu us, %llu bytes)",
		      early, bad, done, total, bytes);
	}
	close(fd);
}

/*
 * Split parts and the pattern's geometry: a stride (or a hotspot) that fits
 * the region but not a thread's part.  START may refuse it (EINVAL) or run
 * it; a run it accepts must not fail.
 */
static void split_stride(void)
{
	static const __u32 pats[] = { LATT_PAT_STRIDE, LATT_PAT_HOTSPOT };
	struct latt_config c = plain_config();
	struct latt_result r;
	int fd = open_dev(), ret, s;
	unsigned int i;

	if (n_online < 2) {
		skip("a split run with a stride beyond its parts: one CPU");
		close(fd);
		return;
	}
	make_list(online_cpu(), 2);
	for (i = 0; i < ARRAY_SIZE(pats); i++) {
		c.cpu = list[0];
		c.nr_threads = 2;
		c.cpus_ptr = (uintptr_t)list;
		c.flags = LATT_CFG_SPLIT;	/* parts of 8 MiB */
		c.pattern = pats[i];
		c.stride = 12 << 20;
		c.samples = 1000;
		ret = xioctl(fd, LATT_IOC_START, &c);
		s = ret ? -1 : wait_idle(fd, 6000);
		memset(&r, 0, sizeof(r));
		if (!ret)
			xioctl(fd, LATT_IOC_RESULT, &r);
		check(ret == -EINVAL || (!ret && s == LATT_STATE_DONE),
		      "split into 8 MiB parts, %s of 12 MiB: START refuses "
		      "(EINVAL) or the run is DONE (START %s, state %d, error "
		      "%s)", pats[i] == LATT_PAT_STRIDE ? "stride" : "hotspot",
		      ename(ret), s, ename(r.error));
	}
	close(fd);
}

/*
 * A mix's writes overwrite a PMEM target as stores do: with FORCE, a claim
 * not opened for writing is EBADF (before anything is asked of the claim
 * itself).  Claims that can never start a run: pmem0 read-only without
 * O_EXCL, a pipe's read end.
 */
static void pmem_mix_claim(void)
{
	struct latt_config c = plain_config();
	int fd = open_dev(), pfd[2] = { -1, -1 }, claim[2], ret, i;

	if (!have_pmem) {
		skip("a PMEM mix through a read-only claim: no pmem0");
		close(fd);
		return;
	}
	claim[0] = open("/dev/pmem0", O_RDONLY);
	if (pipe(pfd))
		pfd[0] = -1;
	claim[1] = pfd[0];
	c.target = LATT_TARGET_PMEM;
	c.phys_addr = ns_start;
	c.flags = LATT_CFG_FORCE;
	c.mode = LATT_MODE_BANDWIDTH;
	c.samples = 0;
	c.duration_us = LATT_MIN_DURATION_US;
	c.mix_read = 1;
	c.mix_write = 1;
	for (i = 0; i < 2; i++) {
		c.fd = claim[i];
		ret = claim[i] < 0 ? -EBADF : xioctl(fd, LATT_IOC_START, &c);
		if (!ret)	/* can't be: neither claim is O_EXCL */
			wait_idle(fd, 6000);
		check(ret == -EBADF, "PMEM bandwidth with a mix's writes and "
		      "FORCE through a read-only %s -> EBADF (got %s)",
		      i ? "pipe" : "pmem0", ename(ret));
	}
	close(claim[0]);
	close(pfd[0]);
	close(pfd[1]);
	close(fd);
}

/*
 * A streaming thread's delay follows every access, inside the window:
 * interrupts stay off for at most window_us (the header's LATT_MAX_WINDOW_US
 * is "far from watchdogs"), whatever the delay.  LATT_MAX_DELAY (2^20
 * cycles) after each access of a 10 us window: the longest irq-off stretch
 * must stay below LATT_MAX_WINDOW_US, which leaves TCG's jitter a wide
 * margin.  (The fuzzing itself keeps delays below SAFE_DELAY.)
 */
static void long_delay(void)
{
	struct latt_config c = plain_config();
	struct latt_thread_stats st;
	struct latt_threads a;
	struct latt_result r;
	__u64 limit = LATT_MAX_WINDOW_US * info.tsc_khz / 1000;
	int fd = open_dev(), ret, s;

	c.cpu = online_cpu();
	c.mode = LATT_MODE_BANDWIDTH;
	c.samples = 0;
	c.duration_us = LATT_MIN_DURATION_US;
	c.window_us = LATT_MIN_WINDOW_US;
	c.delay = LATT_MAX_DELAY;
	ret = xioctl(fd, LATT_IOC_START, &c);
	s = ret ? -1 : wait_idle(fd, 6000);
	memset(&r, 0, sizeof(r));
	memset(&a, 0, sizeof(a));
	memset(&st, 0, sizeof(st));
	a.stats_ptr = (uintptr_t)&st;
	a.len = 1;
	if (!ret)
		ret = xioctl(fd, LATT_IOC_RESULT, &r);
	if (!ret)
		ret = xioctl(fd, LATT_IOC_THREADS, &a);
	/*
	 * The delay is far longer than the window: the spin must stop at
	 * the window's end, so every window holds exactly one access.  (The
	 * longest stretch is a time, which a busy host inflates under TCG:
	 * printed, not asserted.)
	 */
	check(!ret && s == LATT_STATE_DONE && st.accesses &&
	      st.accesses == st.windows,
	      "bandwidth with a delay of LATT_MAX_DELAY in 10 us windows: "
	      "DONE (%s, state %d), one access a window (%llu accesses, "
	      "%llu windows); longest irq-off stretch %llu cycles (%.1f ms, "
	      "LATT_MAX_WINDOW_US is %llu cycles)",
	      ename(ret), s, (unsigned long long)st.accesses,
	      (unsigned long long)st.windows,
	      (unsigned long long)r.window_cycles_max,
	      info.tsc_khz ? r.window_cycles_max / (double)info.tsc_khz : 0,
	      (unsigned long long)limit);
	close(fd);
}

static void usage(void)
{
	fprintf(stderr, "usage: ioctl-fuzz [--seed N] [--calls N] "
		"[--procs N] [--offline-cpu N] [--verbose]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long long seed;
	unsigned long calls = 100000, n, total = 0;
	struct timespec t0, t1;
	struct stats sum;
	int procs = 2, i, c, e, st, fd, s, failed_workers = 0;
	int offline = -1, offlined = 0;
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
		} else if (i + 1 < argc && !strcmp(argv[i], "--offline-cpu")) {
			offline = (int)strtol(argv[++i], &end, 0);
			if (offline < 1)	/* CPU 0 can't go */
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
	printf("# ioctl-fuzz --seed %#llx --calls %lu --procs %d", seed,
	       calls, procs);
	if (offline >= 0)
		printf(" --offline-cpu %d", offline);
	putchar('\n');
	if (offline >= 0) {
		e = vm_set_cpu_online(offline, 0);
		if (e)
			skip("CPU %d offline while fuzzing: %s", offline,
			     strerror(-e));
		else
			offlined = 1;
	}
	/* before setup_env(): no mapping after it may fill its holes */
	sh = mmap(NULL, sizeof(*sh) + procs * sizeof(struct stats),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		bail("mmap");
	setup_env();
	printf("# %u CPU ids, %u online, features %#llx, widths %#x; pmem %s "
	       "[%#llx, +%#llx)\n", info.nr_cpu_ids, n_online,
	       (unsigned long long)info.features, info.widths,
	       have_pmem ? "namespace0.0" : "none",
	       (unsigned long long)ns_start, (unsigned long long)ns_size);

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
		if (pids[i] < 0)
			bail("fork");
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
		sum.started_threads += w->started_threads;
		for (e = 0; e <= LATT_MODE_MAX; e++)
			sum.started_mode[e] += w->started_mode[e];
		for (e = 0; e < 5; e++)
			sum.result_state[e] += w->result_state[e];
		sum.reopens += w->reopens;
		sum.waits += w->waits;
		sum.dram_enomem += w->dram_enomem;
		sum.known += w->known;
		sum.followups += w->followups;
		add_kinds(&sum, w);
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
	if (calls >= 10000 && n_online > 1)
		check(sum.started_threads > 0 &&
		      sum.started_mode[LATT_MODE_BANDWIDTH] > 0 &&
		      sum.started_mode[LATT_MODE_LOADED] > 0,
		      "runs of several threads (%lu), bandwidth (%lu) and "
		      "loaded (%lu) runs were started", sum.started_threads,
		      sum.started_mode[LATT_MODE_BANDWIDTH],
		      sum.started_mode[LATT_MODE_LOADED]);

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
	if (offlined) {
		e = vm_set_cpu_online(offline, 1);
		check(!e, "CPU %d back online (%s)", offline, ename(e));
		if (!e) {
			memset(cpu_online, 0, sizeof(cpu_online));
			read_list("/sys/devices/system/cpu/online", cpu_online,
				  MAX_CPUS);
			for (n_online = 0, i = 0; i < MAX_CPUS; i++)
				n_online += cpu_online[i];
		}
	}
	latt_prng_seed(&rng, seed);
	normal_run();
	if (n_online > 1)
		threads_run(LATT_MODE_LATENCY);
	threads_run(LATT_MODE_BANDWIDTH);
	abort_at_once();
	split_stride();
	pmem_mix_claim();
	long_delay();
	printf("# reproduce: ioctl-fuzz --seed %#llx --calls %lu --procs %d",
	       seed, calls, procs);
	if (offline >= 0)
		printf(" --offline-cpu %d", offline);
	putchar('\n');
	return tap_done("ioctl-fuzz");
}
