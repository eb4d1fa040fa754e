/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz/storm.h - ioctl-fuzz's storm: the random calls each worker
 * makes (valid and mutated configurations, bad pointers, random
 * command numbers, reopens and waits: fuzz()), each checked against
 * fuzz/model.h and the shared run record, and the statistics they
 * leave (print_stats()).
 *
 * Part of tests/vm/ioctl-fuzz.c and included once by it: one
 * translation unit (tests/vm/run builds the .c alone), so the
 * functions are static and use the types, globals and helpers
 * defined above the #include there (and fuzz/model.h).
 */
#ifndef _LATT_FUZZ_STORM_H
#define _LATT_FUZZ_STORM_H

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
	if (own_width(op))	/* ABI 2.2: movdir64b's 64, or auto */
		return chance(50) ? own_width(op) : LATT_WIDTH_AUTO;
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
 * ABI 2.7: batches of K mostly up to 16, sometimes up to 1024, within the
 * rules (K x size at most 4 MiB, a chase's K x chain at most 65536 loads)
 * and a small run's work (SAFE_BATCH accesses, a quarter of
 * SAFE_BATCH_BYTES), 256 pairs or a few more.
 */
static void valid_batch(struct latt_config *c)
{
	__u64 chain = c->chain ? c->chain : 1;

	c->batch = 1 + (__u32)below(chance(80) ? 16 : LATT_MAX_BATCH);
	c->batch_pairs = LATT_MIN_BATCH_PAIRS +
			 (__u32)below(chance(80) ? 64 : 4096);
	while (c->batch > 1 &&
	       (c->pattern == LATT_PAT_CHASE ?
		c->batch * chain > 16ULL * LATT_MAX_CHAIN :
		c->batch * c->size > LATT_MAX_SIZE))
		c->batch /= 2;
	while (c->batch_pairs > LATT_MIN_BATCH_PAIRS &&
	       (batch_accesses(c) > SAFE_BATCH ||
		batch_bytes(c) > SAFE_BATCH_BYTES / 4))
		c->batch_pairs /= 2;
	if (c->batch_pairs < LATT_MIN_BATCH_PAIRS)
		c->batch_pairs = LATT_MIN_BATCH_PAIRS;
	while (c->batch > 1 && (batch_accesses(c) > SAFE_BATCH ||
				batch_bytes(c) > SAFE_BATCH_BYTES / 4))
		c->batch /= 2;
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
	/*
	 * a valid configuration is one this CPU runs: without movdir64b
	 * (every TCG guest) that op is refused, and the storm would start
	 * fewer runs of each mode (the directed checks and cases/21 try
	 * the refusal)
	 */
	if (c.op == LATT_OP_MOVDIR64B &&
	    !(info.features & LATT_FEAT_MOVDIR64B))
		c.op = LATT_OP_NT_STORE;
	c.pattern = 1 + below(LATT_PAT_MAX);
	r = below(100);
	c.mode = r < 55 ? LATT_MODE_LATENCY :
		 r < 80 ? LATT_MODE_BANDWIDTH : LATT_MODE_LOADED;
	/*
	 * until this worker has started a run of each mode, a mode it has
	 * not started yet, half the time: the runs a storm gets to start
	 * depend on how long the ones before took (6 of 10^4 calls under
	 * TCG, none of them loaded, failed the check of every mode once)
	 */
	if (chance(50)) {
		if (!me->started_mode[LATT_MODE_LOADED])
			c.mode = LATT_MODE_LOADED;
		if (!me->started_mode[LATT_MODE_BANDWIDTH])
			c.mode = LATT_MODE_BANDWIDTH;
	}
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
		if (chance(40))	/* a store op, direct ones too */
			c.write_op = chance(10) &&
				     (info.features & LATT_FEAT_MOVDIR64B) ?
				     LATT_OP_MOVDIR64B :
				     LATT_OP_STORE + below(5);
	}
	if (chance(25) && c.pattern != LATT_PAT_CHASE &&
	    !model_split(c.region, n ? n : 1, c.size, &part))
		c.flags |= LATT_CFG_SPLIT;
	/* ABI 1.3: the other timer, lfence; rdtsc */
	if (chance(25))
		c.flags |= LATT_CFG_RDTSC;
	/* ABI 2.7: batches, for one thread in latency mode */
	if (c.mode == LATT_MODE_LATENCY && n <= 1 && chance(20))
		valid_batch(&c);
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
	static const __u64 batches[] = {
		0, 1, 2, 16, 17, LATT_MAX_BATCH, LATT_MAX_BATCH + 1, ~0U,
	};
	static const __u64 batch_pairs[] = {
		0, 1, LATT_MIN_BATCH_PAIRS - 1, LATT_MIN_BATCH_PAIRS,
		LATT_MIN_BATCH_PAIRS + 1, LATT_MAX_BATCH_PAIRS,
		LATT_MAX_BATCH_PAIRS + 1ULL, ~0U,
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
	case 17:	/* ABI 2.7 (a padding before) */
		c->batch = chance(50) ? (__u32)PICK(batches) :
			   (__u32)mutant(c->batch);
		if (chance(50) && !c->batch_pairs)
			c->batch_pairs = LATT_MIN_BATCH_PAIRS;
		return "batch";
	case 18:
		c->phys_addr = mutant(c->phys_addr);
		return "phys_addr";
	case 19:
		c->fd = (__s32)(chance(50) ? claim_fd() : mutant((__u32)c->fd));
		return "fd";
	case 20:	/* ABI 2.7 (a padding before) */
		c->batch_pairs = chance(50) ? (__u32)PICK(batch_pairs) :
				 (__u32)mutant(c->batch_pairs);
		return "batch_pairs";
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
			c->cpus_ptr = mutant_ptr(c->cpus_ptr);
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
	       "window_us %u width %u flags %#x batch %u phys %#llx fd %d "
	       "batch_pairs %u nr_threads %u mode %u cpus_ptr %#llx "
	       "duration_us "
	       "%llu delay %llu mix %u:%u write_op %u map_addr %#llx",
	       c->op, c->fence, c->pattern, c->target, c->node, c->cpu,
	       (unsigned long long)c->size, (unsigned long long)c->stride,
	       (unsigned long long)c->region, (unsigned long long)c->samples,
	       (unsigned long long)c->seed,
	       (unsigned long long)c->threshold, c->chain, c->max_outliers,
	       c->window_us, c->width, c->flags, c->batch,
	       (unsigned long long)c->phys_addr, c->fd, c->batch_pairs,
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
	    !(i.features & LATT_FEAT_MC_SAFE) ||
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
	    /* ABI 2.3: a place only for a run that poison ended */
	    (s.error != -EHWPOISON && s.poison_offset) ||
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
		if (c.batch)
			me->started_batch++;
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
	    r->overhead_idle > GARBAGE ||
	    (c->mode == LATT_MODE_BANDWIDTH && r->overhead_idle) ||
	    model_batch(c))
		bad_output(c, "RESULT: hist_len %u, overhead_idle %llu (mode "
			   "%u), or batches against the rules", r->hist_len,
			   (unsigned long long)r->overhead_idle, c->mode);
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
	/*
	 * bytes: only where something streams, on the side it could; whole
	 * accesses, but for accesses above 64 KiB, which stream in 64 KiB
	 * pieces (kmod/run.c, LATT_STREAM_BATCH_BYTES) and may be cut at the
	 * run's end or an abort: whole lines then
	 */
	if ((r->bytes_read && !streams_read(c)) ||
	    (r->bytes_written && !streams_write(c)) ||
	    (c->size && c->size <= STREAM_PIECE &&
	     (r->bytes_read % c->size || r->bytes_written % c->size)) ||
	    r->bytes_read % LATT_LINE || r->bytes_written % LATT_LINE ||
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

/*
 * Whether a copy-out command's answer @ret is one the module may give: a
 * structure it can't read faults; reserved fields set (@einval) are
 * refused; no run (@held 0) or a running one answers ENOENT or EBUSY;
 * buffers it must write and can't (@must) fault, those it may (@may) may.
 */
static int copy_out_ok(int ret, size_t rd, size_t size, int einval,
		       int held, int must, int may)
{
	if (rd < size)
		return ret == -EFAULT;
	if (einval)
		return ret == -EINVAL;
	if (ret == -EBUSY || (ret == -ENOENT && !held))
		return 1;
	if (must)
		return ret == -EFAULT;
	return ret == 0 || (may && ret == -EFAULT);
}

static void do_result(void)
{
	struct latt_result r;
	struct uptr u = uptr(sizeof(r), 15);
	size_t hwr, owr;
	int held, must_fault = 0, may_fault = 0, ret, full, ok = 1;
	__u32 out_asked;
	__u64 hneed;

	/* input fields: the buffers; the rest is ignored (ABI 2.5: no
	 * reserved field is left) */
	for (size_t i = 0; i < sizeof(r); i += 8)
		*(__u64 *)((char *)&r + i) = chance(50) ? 0 : rnd();
	result_buf(&r.hist_ptr, &r.hist_len, 8, hist, hist_size, &hwr);
	result_buf(&r.outlier_ptr, &r.outlier_len, LATT_OUTLIER_SIZE, outl,
		   outl_size, &owr);
	out_asked = r.outlier_ptr ? r.outlier_len : 0;
	full = r.hist_ptr == (uintptr_t)hist && r.hist_len >= LATT_HIST_BUCKETS;
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
	ok = copy_out_ok(ret, u.rd, sizeof(r), 0, held, must_fault,
			 may_fault);
	if (!ok) {
		unexpected(ret, NULL, "RESULT at a %s pointer (%zu readable, "
			   "%zu writable), hist %#llx len %u (%zu writable), "
			   "outliers %#llx len %u (%zu writable)",
			   ptr_names[u.kind], u.rd, u.wr,
			   (unsigned long long)r.hist_ptr, r.hist_len, hwr,
			   (unsigned long long)r.outlier_ptr, r.outlier_len,
			   owr);
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

		ok = s->overhead_idle <= GARBAGE &&
		     (s->role == LATT_ROLE_LATENCY || !s->overhead_idle) &&
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

	ok = copy_out_ok(ret, u.rd, sizeof(a), einval, held, must, may);
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

/* --- BATCH (ABI 2.7) ----------------------------------------------------- */

/*
 * What BATCH returned, against RESULT of the same run (no START in
 * between): its K the configuration's, its pairs (and those left out)
 * no more than asked, all of them once the run is DONE.
 */
static void batch_vs_result(const struct latt_batch *b,
			    const struct run_rec *rec)
{
	struct latt_result r;
	const struct latt_config *c = &r.config;
	__u64 taken = b->pairs + b->backwards;

	memset(&r, 0, sizeof(r));
	if (xioctl(a_dev(), LATT_IOC_RESULT, &r) || !rec_same(rec))
		return;
	me->followups++;
	if (b->batch != c->batch || taken > c->batch_pairs ||
	    (r.state == LATT_STATE_DONE && taken != c->batch_pairs))
		bad_output(c, "BATCH vs RESULT: K %u (config %u), %llu pairs "
			   "and %llu left out of %u, run state %u", b->batch,
			   c->batch, (unsigned long long)b->pairs,
			   (unsigned long long)b->backwards, c->batch_pairs,
			   r.state);
}

/*
 * BATCH: EFAULT when the struct can't be read; EINVAL for a reserved
 * field set; ENOENT before any run, EBUSY while one runs; then EFAULT
 * exactly when the struct can't be written back, or (may) when the pairs
 * buffer is smaller than its len says and the run has that many.  What
 * comes back: min(len, pairs) copied (0 without a buffer), reserved zero,
 * no pairs without K.
 */
static void do_batch(void)
{
	struct latt_batch b, in;
	struct uptr u = uptr(sizeof(b), 15);
	struct run_rec rec;
	size_t wr;
	int held, ret, ok, einval, must, may;

	for (size_t i = 0; i < sizeof(b); i += 8)
		*(__u64 *)((char *)&b + i) = chance(50) ? 0 : rnd();
	memset(b.reserved, 0, sizeof(b.reserved));
	if (chance(5))
		b.reserved[below(ARRAY_SIZE(b.reserved))] =
			chance(50) ? 1ULL << below(64) : rnd();
	einval = !all_zero(b.reserved, ARRAY_SIZE(b.reserved));
	/* the pairs into the RESULT histogram's buffer, or anywhere */
	result_buf(&b.pairs_ptr, &b.len, LATT_BATCH_PAIR_SIZE, hist,
		   hist_size, &wr);
	in = b;
	place(&u, &b, sizeof(b));
	must = u.wr < sizeof(b);
	may = in.pairs_ptr && (__u64)in.len * LATT_BATCH_PAIR_SIZE > wr;

	rec_get(&rec);
	held = __atomic_load_n(&sh->run_held, __ATOMIC_SEQ_CST);
	ret = xioctl(a_dev(), LATT_IOC_BATCH, u.p);
	count(C_BATCH, ret);
	ok = copy_out_ok(ret, u.rd, sizeof(b), einval, held, must, may);
	if (!ok) {
		unexpected(ret, NULL, "BATCH at a %s pointer (%zu readable, "
			   "%zu writable), pairs %#llx len %u (%zu writable), "
			   "reserved %s", ptr_names[u.kind], u.rd, u.wr,
			   (unsigned long long)in.pairs_ptr, in.len, wr,
			   einval ? "set" : "zero");
		return;
	}
	if (ret)
		return;
	memcpy(&b, u.p, sizeof(b));
	if (b.pairs_ptr != in.pairs_ptr ||
	    b.len != (in.pairs_ptr ? (in.len < b.pairs ? in.len :
				      b.pairs) : 0) ||
	    b.batch > LATT_MAX_BATCH || b.pairs > LATT_MAX_BATCH_PAIRS ||
	    (!b.batch && (b.pairs || b.backwards)) ||
	    !all_zero(b.reserved, ARRAY_SIZE(b.reserved))) {
		bad_output(NULL, "BATCH: K %u, %llu pairs, %llu left out, %u "
			   "copied of room for %u (pairs_ptr %#llx, %#llx "
			   "given), reserved %s", b.batch,
			   (unsigned long long)b.pairs,
			   (unsigned long long)b.backwards, b.len, in.len,
			   (unsigned long long)b.pairs_ptr,
			   (unsigned long long)in.pairs_ptr,
			   all_zero(b.reserved, ARRAY_SIZE(b.reserved)) ?
			   "zero" : "set");
		return;
	}
	batch_vs_result(&b, &rec);
}

/*
 * WINDOWS (ABI 2.8): EFAULT when the struct can't be read; EINVAL for a
 * reserved field set; ENOENT before any run, EBUSY while one runs; then
 * EFAULT exactly when the struct can't be written back, or (may) when
 * the records' buffer is smaller than its len says and the run kept that
 * many.  What comes back: min(len, kept) copied (0 without a buffer),
 * sources the module knows, reserved zero.
 */
static void do_windows(void)
{
	struct latt_windows w, in;
	struct uptr u = uptr(sizeof(w), 15);
	size_t wr;
	int held, ret, ok, einval, must, may;

	for (size_t i = 0; i < sizeof(w); i += 8)
		*(__u64 *)((char *)&w + i) = chance(50) ? 0 : rnd();
	memset(w.reserved, 0, sizeof(w.reserved));
	if (chance(5))
		w.reserved[below(ARRAY_SIZE(w.reserved))] =
			chance(50) ? 1ULL << below(64) : rnd();
	einval = !all_zero(w.reserved, ARRAY_SIZE(w.reserved));
	/* the records into the RESULT histogram's buffer, or anywhere */
	result_buf(&w.wev_ptr, &w.len, LATT_WEV_SIZE, hist, hist_size, &wr);
	in = w;
	place(&u, &w, sizeof(w));
	must = u.wr < sizeof(w);
	may = in.wev_ptr && (__u64)in.len * LATT_WEV_SIZE > wr;

	held = __atomic_load_n(&sh->run_held, __ATOMIC_SEQ_CST);
	ret = xioctl(a_dev(), LATT_IOC_WINDOWS, u.p);
	count(C_WINDOWS, ret);
	ok = copy_out_ok(ret, u.rd, sizeof(w), einval, held, must, may);
	if (!ok) {
		unexpected(ret, NULL, "WINDOWS at a %s pointer (%zu readable, "
			   "%zu writable), wev %#llx len %u (%zu writable), "
			   "reserved %s", ptr_names[u.kind], u.rd, u.wr,
			   (unsigned long long)in.wev_ptr, in.len, wr,
			   einval ? "set" : "zero");
		return;
	}
	if (ret)
		return;
	memcpy(&w, u.p, sizeof(w));
	if (w.wev_ptr != in.wev_ptr ||
	    w.len != (in.wev_ptr ? (in.len < w.kept ? in.len :
				    (__u32)w.kept) : 0) ||
	    w.kept > LATT_MAX_OUTLIERS || (w.sources & ~LATT_EVS_ALL) ||
	    !all_zero(w.reserved, ARRAY_SIZE(w.reserved)))
		bad_output(NULL, "WINDOWS: %llu kept, %u copied of room for %u "
			   "(wev_ptr %#llx, %#llx given), sources %#x, "
			   "reserved %s", (unsigned long long)w.kept, w.len,
			   in.len, (unsigned long long)w.wev_ptr,
			   (unsigned long long)in.wev_ptr, w.sources,
			   all_zero(w.reserved, ARRAY_SIZE(w.reserved)) ?
			   "zero" : "set");
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
	LATT_IOC_ABORT, LATT_IOC_RESULT, LATT_IOC_THREADS, LATT_IOC_BATCH,
	LATT_IOC_WINDOWS, LATT_IOC_START_TRAFFIC,
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
		else if (r < 770)
			do_batch();
		else if (r < 800)
			do_windows();
		else
			do_other();
	}
	for (i = 0; i < NDEV; i++)
		close(devs[i]);
}

/* --- statistics ----------------------------------------------------------- */

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
	       "%lu of several threads, %lu with batches); RESULT saw done "
	       "%lu, aborted %lu, failed %lu; files reopened %lu; waits %lu; "
	       "DRAM ENOMEM %lu\n",
	       t->started, t->started_mode[LATT_MODE_LATENCY],
	       t->started_mode[LATT_MODE_BANDWIDTH],
	       t->started_mode[LATT_MODE_LOADED], t->started_threads,
	       t->started_batch,
	       t->result_state[LATT_STATE_DONE],
	       t->result_state[LATT_STATE_ABORTED],
	       t->result_state[LATT_STATE_FAILED], t->reopens, t->waits,
	       t->dram_enomem);
	printf("#   STATUS/THREADS checked against a known run %lu; THREADS "
	       "and BATCH checked against RESULT %lu\n", t->known,
	       t->followups);
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

#endif /* _LATT_FUZZ_STORM_H */
