// SPDX-License-Identifier: GPL-2.0
/*
 * stream-ref.c - make bench's reference for bandwidth: a plain loop, as a
 * STREAM-like benchmark would write it, with nothing of lattester in it.
 *
 *   stream-ref CPUS REGION SIZE DURATION_MS read|copy
 *
 * One thread per CPU of CPUS (a comma-separated list), each pinned to its
 * CPU; one shared region of REGION bytes (anonymous memory, first touched
 * by the first thread on its CPU, so on that CPU's node, as lattester-ctl
 * takes dram from the node of --cpu); thread i starts at i/n of it, as
 * lattester's sequential threads do, and goes through it in blocks of SIZE
 * bytes, wrapping, until DURATION_MS from one common start.  "read" sums
 * the block's 64-bit words into eight accumulators (loads the compiler
 * vectorises: make builds it with -O3 -march=native, as STREAM is built,
 * so at the widest vectors this CPU has, as lattester's streams use); "copy" memcpy()s the block into the other
 * half of the region (bytes read and written both counted).  The clock
 * is read every 64 KiB.  Prints
 * "bytes N", "ns N" (the longest thread's time) and "gbps X" (10^9 bytes a
 * second), one per line.
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
	int copy;
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

static uint64_t sum_block(const uint64_t *p, uint64_t words)
{
	uint64_t a[8] = { 0 }, i, k, s = 0;

	for (i = 0; i + 8 <= words; i += 8)
		for (k = 0; k < 8; k++)
			a[k] += p[i + k];
	for (k = 0; k < 8; k++)
		s += a[k];
	return s;
}

static void *thread_main(void *arg)
{
	struct thr *t = arg;
	struct ref *r = t->r;
	uint64_t span = r->copy ? r->region / 2 : r->region;
	uint64_t blocks = span / r->size, b, t0, end, now, s = 0, bytes = 0;
	/* a look at the clock every 64 KiB, as lattester's streams look at
	 * the TSC: not a clock_gettime() a block */
	const uint64_t per = r->size >= 65536 ? 1 : 65536 / r->size;
	uint64_t k;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		fprintf(stderr, "stream-ref: cannot pin to CPU %d\n", t->cpu);
	if (!t->idx)	/* first touch: the memory on this CPU's node */
		memset(r->base, 1, r->region);
	b = blocks * t->idx / r->n;
	pthread_barrier_wait(&r->go);
	t0 = now_ns();
	end = t0 + r->ns;
	do {
		for (k = 0; k < per; k++) {
			char *src = r->base + b * r->size;

			if (r->copy) {
				memcpy(src + span, src, r->size);
				bytes += 2 * r->size;
			} else {
				s += sum_block((const uint64_t *)src,
					       r->size / 8);
				bytes += r->size;
			}
			if (++b == blocks)
				b = 0;
		}
		now = now_ns();
	} while (now < end);
	t->ns = now - t0;
	t->bytes = bytes;
	t->sink = s;
	return NULL;
}

int main(int argc, char **argv)
{
	static struct thr th[MAX_THREADS];
	struct ref r = { 0 };
	uint64_t bytes = 0, ns = 0, sink = 0;
	char *cpus, *tok, *save = NULL;
	unsigned int i;

	if (argc != 6 || (strcmp(argv[5], "read") && strcmp(argv[5], "copy"))) {
		fprintf(stderr, "usage: stream-ref CPUS REGION SIZE DURATION_MS read|copy\n");
		return 2;
	}
	cpus = argv[1];
	r.region = strtoull(argv[2], NULL, 0);
	r.size = strtoull(argv[3], NULL, 0);
	r.ns = strtoull(argv[4], NULL, 0) * 1000000ULL;
	r.copy = !strcmp(argv[5], "copy");
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
