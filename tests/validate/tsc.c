// SPDX-License-Identifier: GPL-2.0
/*
 * tests/validate/tsc.c - what the host's timestamp counter really does,
 * measured here without any of lattester's code, for tests/validate/run:
 *
 *   tsc step CPU   the timer step: the smallest non-zero difference between
 *                  two back-to-back timestamp reads (rdtscp where CPUID has
 *                  it, else lfence;rdtsc;lfence), over 10^6 pairs.  A
 *                  latency "corrected" for the timer overhead can only be
 *                  trusted to within one such step.
 *   tsc quantum CPU  the TSC's quantum: the spacing of the values a
 *                  difference of two reads takes.  2*10^5 pairs a spin of
 *                  0 to 1023 rounds apart; their distinct differences,
 *                  sorted; the mean gap between neighbours, leaving out
 *                  gaps over 1.5x the median gap (multiples no pair hit).
 *                  Another method than lattester's quantum.h (least
 *                  squares over candidate divisors of the smallest).
 *   tsc khz CPU    the TSC's rate in kHz: TSC ticks over ~1 s of spinning,
 *                  against CLOCK_MONOTONIC_RAW (not slewed by NTP), to check
 *                  the tsc_khz lattester converts cycles to ns with.
 *
 * Both pin themselves to CPU first and print one number on stdout.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

static int have_rdtscp;

static inline uint64_t stamp(void)
{
	unsigned int aux;
	uint64_t t;

	if (have_rdtscp)
		return __rdtscp(&aux);
	_mm_lfence();
	t = __rdtsc();
	_mm_lfence();
	return t;
}

static uint64_t step(void)
{
	uint64_t best = UINT64_MAX, a, b;
	long i;

	for (i = 0; i < 1000000; i++) {
		a = stamp();
		b = stamp();
		if (b > a && b - a < best)
			best = b - a;
	}
	return best;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

#define QPAIRS	200000

static double quantum(void)
{
	static uint64_t d[QPAIRS], gap[QPAIRS];
	volatile unsigned int sink = 0;
	uint64_t a, b, med;
	long i, j, n = 0, g = 0, k;
	double sum = 0;

	for (i = 0; i < QPAIRS; i++) {
		a = stamp();
		for (j = 0; j < (i * 7919) % 1024; j++)
			sink += (unsigned int)j;
		b = stamp();
		if (b > a && b - a < 100000)
			d[n++] = b - a;
	}
	qsort(d, n, sizeof(*d), cmp_u64);
	for (i = 1; i < n; i++)
		if (d[i] != d[i - 1])
			gap[g++] = d[i] - d[i - 1];
	if (!g)
		return 0;
	qsort(gap, g, sizeof(*gap), cmp_u64);
	med = gap[g / 2];
	for (i = 0, k = 0; i < g; i++) {
		if (2 * gap[i] <= 3 * med) {
			sum += (double)gap[i];
			k++;
		}
	}
	return sum / k;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * A (clock, TSC) pair whose clock reads bracket the TSC read tightly: the
 * best of 100 tries, so a preemption between the reads can't skew it.
 */
static void pair(double *ns, uint64_t *tsc)
{
	double a, b, best = 1e18;
	uint64_t t;
	int i;

	for (i = 0; i < 100; i++) {
		a = now_ns();
		t = stamp();
		b = now_ns();
		if (b - a < best) {
			best = b - a;
			*ns = (a + b) / 2;
			*tsc = t;
		}
	}
}

/* ticks per ms over ~1 s of spinning */
static double khz(void)
{
	double n0, n1;
	uint64_t t0, t1;

	pair(&n0, &t0);
	do
		n1 = now_ns();
	while (n1 - n0 < 1e9);
	pair(&n1, &t1);
	return (double)(t1 - t0) / (n1 - n0) * 1e6;
}

int main(int argc, char **argv)
{
	unsigned int a, b, c, d;
	cpu_set_t set;

	if (argc != 3 || (strcmp(argv[1], "step") && strcmp(argv[1], "khz") &&
			  strcmp(argv[1], "quantum"))) {
		fprintf(stderr, "usage: tsc step|quantum|khz CPU\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[2]), &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	if (__get_cpuid(0x80000001, &a, &b, &c, &d))
		have_rdtscp = !!(d & (1u << 27));
	if (!strcmp(argv[1], "step")) {
		uint64_t s = step();

		if (s == UINT64_MAX) {
			fprintf(stderr, "tsc: the counter never advanced\n");
			return 1;
		}
		printf("%llu\n", (unsigned long long)s);
	} else if (!strcmp(argv[1], "quantum")) {
		double q = quantum();

		if (!q) {
			fprintf(stderr, "tsc: the differences took one value\n");
			return 1;
		}
		printf("%.3f\n", q);
	} else {
		printf("%.0f\n", khz());
	}
	fprintf(stderr, "tsc: read with %s\n",
		have_rdtscp ? "rdtscp" : "lfence;rdtsc;lfence");
	return 0;
}
