/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * coreclk.h - the core's clock against the TSC without a PMU (issue 25,
 * item 4): how many core cycles one TSC cycle holds, from a chain of
 * dependent adds timed with the TSC.
 *
 * An "add reg, reg" whose input is the previous one's output takes one
 * core cycle on every x86 core lattester runs on (Intel since the P6, AMD
 * since K7: the ALU latency tables of the Intel and AMD optimization
 * manuals), whatever the clock; the loop's counter and branch run beside
 * the chain.  So a chain of N adds lasts N core cycles, and timing N and
 * 2N with the TSC and taking the difference removes the timer's own cost:
 *
 *	core cycles per TSC cycle = N / (T(2N) - T(N))
 *
 * T is the least of several tries (an interrupt or a stolen vCPU only
 * ever adds).  Short chains and many tries: on the KVM guest of December
 * 2026, ten calibrations of 2^18 adds the least of 5 spread over up to
 * 4%, of 2^15 adds the least of 21 mostly over 0.1% (a burst of steal
 * can still take every try of one).  Under emulation (QEMU TCG) the
 * figure means nothing.
 *
 * The same code serves lattester-ctl for both engines: the core clock is
 * the CPU's, so ctl calibrates on the run's CPU right before START and
 * right after the result, and reports both and their drift.  Ordering:
 * the timer reads are latt_timer_read()'s (rdtscp, or lfence; rdtsc
 * without it), which wait for the earlier instructions to execute
 * (SDM Vol. 2B, RDTSCP; LFENCE), so the chain lies between them.
 */
#ifndef _LATTESTER_CORECLK_H
#define _LATTESTER_CORECLK_H

#include <linux/types.h>
#include "access.h"

#define LATT_CORE_ADDS		64	/* dependent adds a loop round */
#define LATT_CORE_ROUNDS	512	/* N = 2^15 adds: ~13 us at 2.5 GHz */
#define LATT_CORE_TRIES		21	/* the least of them */
#define LATT_CORE_WARMUP	32768	/* rounds first: 2^21 adds, ~0.8 ms */

/* the asm below repeats its add 64 times */
#if LATT_CORE_ADDS != 64
#error "LATT_CORE_ADDS is the .rept count of latt_core_adds()"
#endif

/* @rounds rounds of LATT_CORE_ADDS dependent adds */
static inline __u64 latt_core_adds(__u64 rounds)
{
	__u64 x = 0, one = 1, i;

	for (i = 0; i < rounds; i++)
		__asm__ __volatile__(".rept 64\n\tadd %1, %0\n\t.endr"
				     : "+r" (x) : "r" (one));
	return x;
}

/* one chain of @rounds rounds, in TSC cycles (~0: the TSC went back) */
static inline __u64 latt_core_time(int timer, __u64 rounds)
{
	__u64 t0, t1;

	t0 = latt_timer_read(timer);
	latt_core_adds(rounds);
	t1 = latt_timer_read(timer);
	return t1 > t0 ? t1 - t0 : ~0ULL;
}

/**
 * latt_core_ratio() - core cycles per TSC cycle, in parts per million
 * @timer: LATT_TIMER_*
 *
 * N = LATT_CORE_ROUNDS * LATT_CORE_ADDS adds against 2N, the least of
 * LATT_CORE_TRIES of each, taken in turn (N, 2N, N, ...) so that a clock
 * that moves during the calibration reaches both alike (taken N first
 * and 2N after, one calibration right after a run's setup read 4% above
 * the one after the run, and none did since), after
 * LATT_CORE_WARMUP rounds that bring the core to its running clock.
 * Runs on the calling CPU, preemptible: the caller pins itself.
 *
 * Return: the ratio in ppm (10^6: the core runs at the TSC's rate), or 0
 *	when 2N did not take longer than N (a timer that does not move).
 */
static inline __u64 latt_core_ratio(int timer)
{
	__u64 one = ~0ULL, two = ~0ULL, t;
	int k;

	latt_core_adds(LATT_CORE_WARMUP);
	for (k = 0; k < LATT_CORE_TRIES; k++) {
		t = latt_core_time(timer, LATT_CORE_ROUNDS);
		one = t < one ? t : one;
		t = latt_core_time(timer, 2 * LATT_CORE_ROUNDS);
		two = t < two ? t : two;
	}
	if (two == ~0ULL || one == ~0ULL || two <= one)
		return 0;
	return (__u64)LATT_CORE_ROUNDS * LATT_CORE_ADDS * 1000000ULL /
	       (two - one);
}

#endif /* _LATTESTER_CORECLK_H */
