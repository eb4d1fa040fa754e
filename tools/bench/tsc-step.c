// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-step.c - the TSC's smallest observable step, for make bench
 * (tools/bench/bench.py).
 *
 * Reads the TSC back to back, READS times with rdtsc and READS times with
 * rdtscp (latt_rdtscp(), the very instruction the samples use), on the CPU
 * it was started on, and prints for each, one "key value" a line:
 *
 *	rdtsc_min	the smallest difference between two successive reads
 *	rdtsc_step	the greatest common divisor of all non-zero
 *			differences: the TSC's granularity as seen here
 *	rdtsc_zero	how many successive reads returned the same value
 *	rdtsc_median	the median difference: the cost of one read
 *
 * and the same for rdtscp_*.  A timer whose step is larger than the cost of
 * one read shows zeros and steps; one that ticks every cycle shows a step
 * of 1 and a minimum near the cost of the instruction.
 *
 *   tsc-step [READS]		(default 1000000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#include <lattester/access.h>

#define DEFAULT_READS	1000000UL

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

static __u64 gcd(__u64 a, __u64 b)
{
	while (b) {
		__u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Print what @n + 1 successive reads in @t say, as @name_*. */
static void report(const char *name, __u64 *t, unsigned long n)
{
	__u64 step = 0, zero = 0;
	unsigned long i;

	for (i = 0; i < n; i++) {
		t[i] = t[i + 1] - t[i];
		if (t[i])
			step = gcd(step, t[i]);
		else
			zero++;
	}
	qsort(t, n, sizeof(*t), cmp_u64);
	printf("%s_min %llu\n", name, (unsigned long long)t[0]);
	printf("%s_step %llu\n", name, (unsigned long long)step);
	printf("%s_zero %llu\n", name, (unsigned long long)zero);
	printf("%s_median %llu\n", name, (unsigned long long)t[n / 2]);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : DEFAULT_READS;
	__u64 *t;
	unsigned long i;

	if (n < 1 || argc > 2) {
		fprintf(stderr, "usage: tsc-step [READS]\n");
		return 2;
	}
	t = malloc((n + 1) * sizeof(*t));
	if (!t) {
		perror("tsc-step");
		return 1;
	}
	printf("reads %lu\n", n);
	for (i = 0; i <= n; i++)
		t[i] = __rdtsc();
	report("rdtsc", t, n);
	for (i = 0; i <= n; i++)
		t[i] = latt_rdtscp();
	report("rdtscp", t, n);
	free(t);
	return fflush(stdout) ? 1 : 0;
}
