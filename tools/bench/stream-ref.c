// SPDX-License-Identifier: GPL-2.0
/*
 * stream-ref.c - make bench's reference for bandwidth: a plain loop, as a
 * STREAM-like benchmark would write it, with nothing of lattester in it.
 *
 *   stream-ref CPUS REGION SIZE DURATION_MS read|copy|mix:R:W [seq|rand]
 *
 * One thread per CPU of CPUS (a comma-separated list), each pinned to its
 * CPU; one shared region of REGION bytes (anonymous memory, first touched
 * by the first thread on its CPU, so on that CPU's node, as lattester-ctl
 * takes dram from the node of --cpu), seen as blocks of SIZE bytes; each
 * thread goes through them until DURATION_MS from one common start.
 * "seq" (the default): thread i starts at i/n of the blocks, as
 * lattester's sequential threads do, and takes them in order, wrapping.
 * "rand": each thread draws every block uniformly from all of them, with
 * a SplitMix64 generator of its own (seeded through a mixer: streams whose
 * seeds differ by a multiple of the increment would replay one another)
 * and a power-of-two mask with rejection, no division (lattester's rand
 * draws the same way: no rejections when the block count is a power of
 * two).  "read" adds the block's 64-bit words into eight accumulators,
 * kept from block to block and summed at the end (loads the compiler
 * vectorises: make builds it with -O3 -march=native, as STREAM is built,
 * so at the widest vectors this CPU has, as lattester's streams use);
 * "copy" memcpy()s the block into the other half
 * of the region (bytes read and written both counted); "mix:R:W" takes R
 * blocks as "read" does, then writes W blocks with plain stores of a
 * constant, again and again, as lattester's --mix R:W with its default
 * --write-op store (each block's bytes counted once).  The clock is read
 * every 64 KiB of blocks.  Prints "bytes N", "ns N" (the longest thread's
 * time) and "gbps X" (10^9 bytes a second), one per line.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define MAX_THREADS	256

struct ref {
	char *base;
	uint64_t region, size, ns;
	int copy, rand;
	unsigned int mr, mw;	/* mix:R:W; 0:0 for read and copy */
	unsigned int n;
	pthread_barrier_t go;
};

/* one thread's: its own cache lines, no false sharing with another's */
struct thr {
	struct ref *r;
	pthread_t tid;
	unsigned int idx;
	int cpu;
	uint64_t bytes, ns, sink;
} __attribute__((aligned(64)));

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* SplitMix64 (Steele, Lea, Flood 2014) */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* rand: a block drawn uniformly below @blocks, @mask the smallest
 * all-ones mask covering them: no division, no modulo bias */
static uint64_t draw(uint64_t *seed, uint64_t mask, uint64_t blocks)
{
	uint64_t b;

	do
		b = splitmix64(seed) & mask;
	while (b >= blocks);
	return b;
}

/*
 * The loop itself, from block @b for the duration from @t0: @copy, @mix
 * and @rnd constants where it is inlined, so that each of the six is its
 * own loop with no test of them in it.  "read" keeps its eight accumulators
 * from block to block (the compiler keeps them in a vector register) and
 * adds them up at the end.
 */
static inline __attribute__((always_inline)) void
stream(struct thr *t, uint64_t b, uint64_t t0, const int copy, const int mix,
       const int rnd)
{
	const struct ref *r = t->r;
	char *const base = r->base;
	const uint64_t size = r->size, words = size / 8;
	const uint64_t span = copy ? r->region / 2 : r->region;
	const uint64_t blocks = span / size;
	const uint64_t mask = blocks > 1 ?
		~0ULL >> __builtin_clzll(blocks - 1) : 0;
	/* a look at the clock every 64 KiB, as lattester's streams look at
	 * the TSC: not a clock_gettime() a block */
	const uint64_t per = size >= 65536 ? 1 : 65536 / size;
	const uint64_t end = t0 + r->ns;
	const unsigned int mr = r->mr, cyc = r->mr + r->mw;
	uint64_t a[8] = { 0 }, i, k, n, now, bytes = 0, seed = t->idx;
	unsigned int place = 0;

	seed = splitmix64(&seed);	/* through the mixer: unrelated streams */
	if (rnd)
		b = draw(&seed, mask, blocks);
	do {
		for (n = 0; n < per; n++) {
			const uint64_t *src = (const uint64_t *)(base + b * size);

			if (copy) {
				memcpy((char *)src + span, src, size);
			} else if (mix && place >= mr) {
				uint64_t *dst = (uint64_t *)src;

				for (i = 0; i < words; i += 8)
					for (k = 0; k < 8; k++)
						dst[i + k] = 0x5a5a5a5a5a5a5a5aULL;
			} else {
				for (i = 0; i < words; i += 8)
					for (k = 0; k < 8; k++)
						a[k] += src[i + k];
			}
			if (mix && ++place == cyc)
				place = 0;
			if (rnd)
				b = draw(&seed, mask, blocks);
			else if (++b == blocks)
				b = 0;
		}
		bytes += per * (copy ? 2 : 1) * size;
		now = now_ns();
	} while (now < end);
	t->ns = now - t0;
	t->bytes = bytes;
	for (k = 0; k < 8; k++)
		t->sink += a[k];
}

static void *thread_main(void *arg)
{
	struct thr *t = arg;
	struct ref *r = t->r;
	const uint64_t blocks = (r->copy ? r->region / 2 : r->region) / r->size;
	const uint64_t b = blocks * t->idx / r->n;	/* seq: its share */
	uint64_t t0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		fprintf(stderr, "stream-ref: cannot pin to CPU %d\n", t->cpu);
	if (!t->idx)	/* first touch: the memory on this CPU's node */
		memset(r->base, 1, r->region);
	pthread_barrier_wait(&r->go);
	t0 = now_ns();
	if (r->copy && r->rand)
		stream(t, b, t0, 1, 0, 1);
	else if (r->copy)
		stream(t, b, t0, 1, 0, 0);
	else if (r->mw && r->rand)
		stream(t, b, t0, 0, 1, 1);
	else if (r->mw)
		stream(t, b, t0, 0, 1, 0);
	else if (r->rand)
		stream(t, b, t0, 0, 0, 1);
	else
		stream(t, b, t0, 0, 0, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	static struct thr th[MAX_THREADS];
	struct ref r = { 0 };
	uint64_t bytes = 0, ns = 0, sink = 0;
	char *cpus, *tok, *save = NULL;
	unsigned int i;

	if ((argc != 6 && argc != 7) ||
	    (strcmp(argv[5], "read") && strcmp(argv[5], "copy") &&
	     sscanf(argv[5], "mix:%u:%u", &r.mr, &r.mw) != 2) ||
	    (argc == 7 && strcmp(argv[6], "seq") && strcmp(argv[6], "rand"))) {
		fprintf(stderr, "usage: stream-ref CPUS REGION SIZE DURATION_MS read|copy|mix:R:W [seq|rand]\n");
		return 2;
	}
	if (!strncmp(argv[5], "mix:", 4) && (!r.mw || r.mr + r.mw > 1000)) {
		fprintf(stderr, "stream-ref: mix:R:W needs W of 1 or more, R + W up to 1000\n");
		return 2;
	}
	cpus = argv[1];
	r.region = strtoull(argv[2], NULL, 0);
	r.size = strtoull(argv[3], NULL, 0);
	r.ns = strtoull(argv[4], NULL, 0) * 1000000ULL;
	r.copy = !strcmp(argv[5], "copy");
	r.rand = argc == 7 && !strcmp(argv[6], "rand");
	for (tok = strtok_r(cpus, ",", &save); tok && r.n < MAX_THREADS;
	     tok = strtok_r(NULL, ",", &save))
		th[r.n++].cpu = atoi(tok);
	if (!r.n || r.size < 64 || r.size % 64 ||
	    r.region < (r.copy ? 2 : 1) * r.size || !r.ns) {
		fprintf(stderr, "stream-ref: bad CPUS, REGION, SIZE or DURATION_MS\n");
		return 2;
	}
	r.base = mmap(NULL, r.region, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r.base == MAP_FAILED) {
		perror("stream-ref: mmap");
		return 1;
	}
	pthread_barrier_init(&r.go, NULL, r.n);
	/* thread 0 first: it touches the region before the barrier */
	for (i = 0; i < r.n; i++) {
		th[i].r = &r;
		th[i].idx = i;
		if (pthread_create(&th[i].tid, NULL, thread_main, &th[i])) {
			perror("stream-ref: pthread_create");
			return 1;
		}
	}
	for (i = 0; i < r.n; i++) {
		pthread_join(th[i].tid, NULL);
		bytes += th[i].bytes;
		ns = th[i].ns > ns ? th[i].ns : ns;
		sink += th[i].sink;
	}
	printf("bytes %llu\nns %llu\ngbps %.3f\n", (unsigned long long)bytes,
	       (unsigned long long)ns, ns ? (double)bytes / (double)ns : 0.0);
	fprintf(stderr, "stream-ref: sink %llu\n", (unsigned long long)sink);
	return 0;
}
