// SPDX-License-Identifier: GPL-2.0
/*
 * tests/validate/coreclk.c - lattester's core-clock calibration
 * (include/lattester/coreclk.h) run N times in a row on one CPU, for
 * tests/validate/run: prints one ratio (core cycles per TSC cycle) a line.
 *
 *   coreclk CPU N
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <lattester/coreclk.h>

int main(int argc, char **argv)
{
	unsigned int a, b, c, d;
	int timer = LATT_TIMER_RDTSC, i, n;
	cpu_set_t set;

	if (argc != 3) {
		fprintf(stderr, "usage: coreclk CPU N\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	if (__get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27)))
		timer = LATT_TIMER_RDTSCP;
	n = atoi(argv[2]);
	latt_core_ratio(timer);	/* the core leaves its idle clock */
	for (i = 0; i < n; i++)
		printf("%.6f\n", (double)latt_core_ratio(timer) / 1e6);
	return 0;
}
