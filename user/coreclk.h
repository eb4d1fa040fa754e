/* SPDX-License-Identifier: GPL-2.0 */
/*
 * coreclk.h - the core clock of a run's CPU against the TSC, measured by
 * lattester-ctl right before and right after the run, for both engines
 * (include/lattester/coreclk.h's dependent adds), and APERF/MPERF over
 * the run where the msr driver lets ctl read them.
 */
#ifndef _LATT_CORECLK_H
#define _LATT_CORECLK_H

#include <stdbool.h>
#include <linux/types.h>

#define MSR_IA32_MPERF		0xe7
#define MSR_IA32_APERF		0xe8
/* a drift between the two calibrations above this is warned of */
#define CORE_DRIFT_MAX		0.01

/**
 * struct core_clock - core cycles per TSC cycle on @cpu around a run
 * @ok: both calibrations gave a ratio
 * @before, @after: the ratios (core cycles per TSC cycle)
 * @aperf_ok: APERF and MPERF were read before and after; else
 *	@aperf_why says why not
 * @aperf, @mperf: what they counted over the run
 */
struct core_clock {
	bool ok;
	bool emulated;		/* QEMU TCG: not measured */
	unsigned int cpu;
	double before, after;
	bool aperf_ok;
	__u64 aperf0, mperf0, aperf, mperf;
	char aperf_why[160];
};

void core_clock_begin(struct core_clock *c, unsigned int cpu);
void core_clock_end(struct core_clock *c);
double core_clock_ratio(const struct core_clock *c);
double core_clock_drift(const struct core_clock *c);

#endif /* _LATT_CORECLK_H */
