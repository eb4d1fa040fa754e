// SPDX-License-Identifier: GPL-2.0
/*
 * tests/validate/chase.c - an independent pointer chase, sharing no code
 * with lattester, for tests/validate/run to check lattester's --pattern
 * chase figure against:
 *
 *   chase REGION_BYTES CPU huge|small [LOADS]
 *
 * Pins itself to CPU, maps REGION_BYTES of anonymous memory (2 MiB aligned;
 * "huge" asks for transparent huge pages with MADV_HUGEPAGE, "small" asks
 * for none with MADV_NOHUGEPAGE), links its 64-byte slots into one random
 * cycle (Sattolo's algorithm with a splitmix64 generator, each slot's first
 * word the address of the next), then times LOADS (default 10^6) dependent
 * loads p = *p with CLOCK_MONOTONIC around the loop.  Prints the mean ns per
 * load on stdout, and on stderr how much of the region the kernel backed
 * with huge pages (AnonHugePages of /proc/self/smaps).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define SLOT	64
#define HUGE_SZ	(2UL << 20)

static void *volatile sink;
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t splitmix64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* kB of AnonHugePages in the mapping that contains @p */
static long huge_kb(void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	int in = 0;
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)	/* a mapping */
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
		else if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	size_t region, n, i, j;
	long loads = 1000000, k;
	struct timespec t0, t1;
	cpu_set_t set;
	uint32_t *perm;
	char *raw, *buf;
	void **p;
	double ns;
	int huge;

	if (argc < 4 || argc > 5 ||
	    (strcmp(argv[3], "huge") && strcmp(argv[3], "small"))) {
		fprintf(stderr, "usage: chase REGION_BYTES CPU huge|small [LOADS]\n");
		return 2;
	}
	region = strtoull(argv[1], NULL, 0);
	huge = !strcmp(argv[3], "huge");
	if (argc == 5)
		loads = atol(argv[4]);
	n = region / SLOT;
	if (n < 2 || loads < 1) {
		fprintf(stderr, "chase: region too small\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[2]), &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	raw = mmap(NULL, region + HUGE_SZ, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	buf = (char *)(((uintptr_t)raw + HUGE_SZ - 1) & ~(HUGE_SZ - 1));
	if (madvise(buf, region, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE))
		perror("madvise");
	memset(buf, 0, region);

	/* Sattolo: a random permutation that is one single cycle */
	perm = malloc(n * sizeof(*perm));
	if (!perm) {
		perror("malloc");
		return 1;
	}
	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n - 1; i > 0; i--) {
		uint32_t t;

		j = splitmix64() % i;	/* j < i: never itself */
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < n; i++)
		*(void **)(buf + i * SLOT) = buf + (size_t)perm[i] * SLOT;
	free(perm);

	p = (void **)buf;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; k < loads; k++)
		p = *p;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
	sink = p;	/* the walk's end: keeps the loop */
	printf("%.3f\n", ns / loads);
	fprintf(stderr, "chase: %zu MiB, huge pages %ld kB\n", region >> 20,
		huge_kb(buf));
	return 0;
}
