/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz/model.h - ioctl-fuzz's model of the documented ABI: what the
 * module must answer to a START configuration (model_check(): the
 * exact errno, in the module's check order; model_mode(),
 * model_threads(), model_pmem(), ...), which runs are too big to start
 * in the VM (unsafe()), and what a run of a configuration produces
 * (streams_read(), want_count(), want_rdtsc(), ...).
 *
 * Part of tests/vm/ioctl-fuzz.c and included once by it: one
 * translation unit (tests/vm/run builds the .c alone), so the
 * functions are static and use the types, globals and helpers
 * defined above the #include there.
 */
#ifndef _LATT_FUZZ_MODEL_H
#define _LATT_FUZZ_MODEL_H

/* --- the model of the ABI ------------------------------------------------ */

/* the ops that write: the stores, flushed or not, nt and direct (2.2) */
static int is_store(__u32 op)
{
	return (op >= LATT_OP_STORE && op <= LATT_OP_NT_STORE) ||
	       op == LATT_OP_MOVDIR64B;
}

/* ABI 2.2: movdir64b has one width, 64, whatever the vector widths */
static __u32 own_width(__u32 op)
{
	return op == LATT_OP_MOVDIR64B ? 64 : 0;
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
	if (op == LATT_OP_MOVDIR64B && !(f & LATT_FEAT_MOVDIR64B))
		return -EOPNOTSUPP;
	return 0;
}

/*
 * latt_pick_sample(): 0 or -errno.  The op's instructions first (chase's
 * too: its loads need clflush like any run), then the timer ("lfence;
 * rdtsc" needs a serializing LFENCE), then the fence is resolved
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
	/* ABI 2.4: "lfence; rdtsc" only where LFENCE serializes */
	if (((c->flags & LATT_CFG_RDTSC) || !(f & LATT_FEAT_RDTSCP)) &&
	    !(f & LATT_FEAT_LFENCE_SERIAL))
		return -EOPNOTSUPP;
	if (c->fence == LATT_FENCE_DEFAULT)
		c->fence = default_fence(c->op);
	if (!is_store(c->op) && c->fence == LATT_FENCE_SFENCE)
		return -EINVAL;
	if (c->pattern == LATT_PAT_CHASE)
		return w != LATT_WIDTH_AUTO && w != 8 ? -EINVAL : 0;
	if (own_width(c->op))
		return w != LATT_WIDTH_AUTO && w != own_width(c->op) ?
		       -EINVAL : 0;
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
 * ABI 2.7, the batches (latt_config.batch, .batch_pairs, paddings before),
 * after the chain (0 resolved to 1): none, or K 1..LATT_MAX_BATCH with
 * LATT_MIN_BATCH_PAIRS..LATT_MAX_BATCH_PAIRS pairs, in latency mode with
 * one thread, K x size at most LATT_MAX_SIZE (a chase: K x chain at most
 * 16 x LATT_MAX_CHAIN loads); not seq or stride; warm, K at most 16 and
 * K x size at most 8 KiB; flushed, 128 x K blocks in the region (a
 * hotspot's window) at least.  Every refusal is EINVAL.
 */
static int model_batch(const struct latt_config *c)
{
	__u64 span;

	if (!c->batch)
		return c->batch_pairs ? -EINVAL : 0;
	if (c->batch > LATT_MAX_BATCH ||
	    c->batch_pairs < LATT_MIN_BATCH_PAIRS ||
	    c->batch_pairs > LATT_MAX_BATCH_PAIRS ||
	    c->mode != LATT_MODE_LATENCY || nthreads(c) > 1)
		return -EINVAL;
	if (c->pattern == LATT_PAT_CHASE)
		return (__u64)c->batch * c->chain > 16ULL * LATT_MAX_CHAIN ?
		       -EINVAL : 0;
	if (c->pattern == LATT_PAT_SEQ || c->pattern == LATT_PAT_STRIDE ||
	    (__u64)c->batch * c->size > LATT_MAX_SIZE)
		return -EINVAL;
	if (c->flags & LATT_CFG_WARM)
		return c->batch > 16 || (__u64)c->batch * c->size > 8192 ?
		       -EINVAL : 0;
	span = c->pattern == LATT_PAT_HOTSPOT && c->stride ? c->stride :
	       c->region;
	return c->size && span / c->size < 128ULL * c->batch ? -EINVAL : 0;
}

/*
 * What START's validation of the configuration says about @c0: 0 or
 * -errno.  The module's order, which Documentation/ioctl.md describes:
 * the fields (flags, op, pattern, fence, target, modes, region, limits,
 * chain, batches, the pattern), then the CPU and node, then the
 * instructions, the fence and the width.  Every check before the target's
 * EPERM is an EINVAL, so their order among themselves can't show.
 */
static int model_check(const struct latt_config *c0)
{
	struct latt_config c = *c0;
	struct latt_pattern pat;
	__u32 node;
	int ret;

	if (c.flags & ~LATT_CFG_FLAGS_ALL)
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
	if (model_batch(&c))
		return -EINVAL;
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

/*
 * ABI 2.7: the accesses (a chase's loads) and the bytes of a run's
 * batches, 3K a pair
 */
static __u64 batch_accesses(const struct latt_config *c)
{
	__u64 chain = c->chain ? c->chain : 1;

	return 3ULL * c->batch * c->batch_pairs *
	       (c->pattern == LATT_PAT_CHASE ? chain : 1);
}

static __u64 batch_bytes(const struct latt_config *c)
{
	return c->pattern == LATT_PAT_CHASE ? 0 :
	       3ULL * c->batch * c->batch_pairs * c->size;
}

/* Would this configuration, if valid, start a run too big for the VM? */
static int unsafe(const struct latt_config *c)
{
	__u64 chain = c->chain ? c->chain : 1;

	return c->samples > SAFE_SAMPLES || c->region > SAFE_REGION ||
	       batch_accesses(c) > SAFE_BATCH ||
	       batch_bytes(c) > SAFE_BATCH_BYTES ||
	       (c->threshold && c->max_outliers > SAFE_OUTLIERS) ||
	       (c->pattern == LATT_PAT_CHASE &&
		chain * c->samples > SAFE_CHASE) ||
	       c->duration_us > SAFE_DURATION_US || c->delay > SAFE_DELAY ||
	       (c->target == LATT_TARGET_PMEM &&
		c->flags & LATT_CFG_FORCE && c->fd == excl_fd);
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

#endif /* _LATT_FUZZ_MODEL_H */
