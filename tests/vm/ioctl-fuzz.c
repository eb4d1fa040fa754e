// SPDX-License-Identifier: GPL-2.0
// vm-m32: ioctl-fuzz32
/*
 * ioctl-fuzz - hostile input against /dev/lattester: random command
 * numbers, mutated START configurations (ABI 1.2: threads and their CPU
 * lists, modes, durations, delays, mixes, split regions; ABI 1.3: the
 * rdtsc timer, a chase's TLB-locality block), bad user pointers
 * (NULL, unmapped, read-only, misaligned, straddling into an unmapped page,
 * kernel and non-canonical addresses), RESULT and THREADS buffers that are
 * bad or too small, BATCH (ABI 2.7: runs with batches, and their
 * refusals) into any pointer, ABORTs at random times and real short runs of one or
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
 * adding up to RESULT's, each thread's histogram and series to its counts;
 * BATCH's groups adding up to its pairs, and its K and pairs RESULT's
 * configuration's.
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
 * The code, one translation unit: fuzz/model.h (the model of the ABI),
 * fuzz/storm.h (the workers' calls, their checks and statistics) and
 * fuzz/directed.h (the checks after the storm), included below; here the
 * environment, random numbers, user pointers, setup and main().
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
 * per thread, bandwidth <= 50 ms, delay <= 20000 cycles, batches <= 3 x
 * 10^5 accesses and 256 MiB).  Never passes
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
#define SAFE_BATCH	300000ULL	/* ABI 2.7: accesses of the batches */
#define SAFE_BATCH_BYTES (256ULL << 20)	/* ... and their bytes */

/* ABI 1.3: what the module may say */
#define FEAT_KNOWN	((LATT_FEAT_TRAFFIC << 1) - 1)	/* ABI 2.9 */
#define RES_KNOWN	(LATT_RES_VECTOR | LATT_RES_DAX | \
			 LATT_RES_TIMER_RDTSC | LATT_RES_TSC_UNSTABLE | \
			 LATT_RES_REUSED | LATT_RES_CHAIN_REUSED)
#define GARBAGE		(1ULL << 40)	/* no calibration, no step is this */

enum { C_INFO, C_START, C_STATUS, C_ABORT, C_RESULT, C_THREADS, C_BATCH,
       C_WINDOWS, C_OTHER, C_NR };
static const char *const cmd_names[C_NR] = {
	"GET_INFO", "START", "STATUS", "ABORT", "RESULT", "THREADS", "BATCH",
	"WINDOWS", "other",
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
	unsigned long started_batch;	/* ... with batches (ABI 2.7) */
	unsigned long started_mode[LATT_MODE_MAX + 1];
	unsigned long result_state[5];	/* RESULT's state, on success */
	unsigned long reopens;
	unsigned long waits;
	unsigned long dram_enomem;
	unsigned long bad_output;	/* a successful call returned garbage */
	unsigned long known;		/* STATUS/THREADS checked against
					 * the run record */
	unsigned long followups;	/* THREADS, BATCH checked against
					 * RESULT */
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

/*
 * The stack, and the gap below it into which the kernel grows it on a
 * fault (stack_guard_gap: 256 pages by default; 4 MiB here, for margin).
 * The module's copy_from_user() of an address there may succeed, the
 * stack growing to take it, where peek() found nothing: a 32-bit
 * fuzzer's mutated cpus_ptr 0xfff20b18 read zeros (EINVAL) where the
 * model said EFAULT.  So no mutated pointer is sent there.
 */
static __u64 stack_lo, stack_hi;

/* kmod/run.c's LATT_STREAM_BATCH_BYTES: a stream's larger accesses go in
 * pieces of this, and a run may end between two */
#define STREAM_PIECE	(64ULL << 10)

static void find_stack(void)
{
	unsigned long long lo, hi;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]") &&
		    sscanf(line, "%llx-%llx", &lo, &hi) == 2) {
			stack_lo = lo > (4ULL << 20) ? lo - (4ULL << 20) : 0;
			stack_hi = hi;
		}
	fclose(f);
}

/* mutant() for a pointer: anything but the stack and its growth gap */
static __u64 mutant_ptr(__u64 old)
{
	__u64 p;

	do
		p = mutant(old);
	while (p >= stack_lo && p < stack_hi);
	return p;
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

#include "fuzz/model.h"
#include "fuzz/storm.h"

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
	find_stack();
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

#include "fuzz/directed.h"

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
		sum.started_batch += w->started_batch;
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
