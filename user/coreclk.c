// SPDX-License-Identifier: GPL-2.0
/*
 * coreclk.c - the core clock around a run (coreclk.h): ctl pins itself to
 * the run's CPU for the calibration, then goes back where it was.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <lattester/coreclk.h>
#include "coreclk.h"
#include "engine-user.h"
#include "host.h"
#include "msr.h"

/* the user engine's timer: rdtscp where CPUID (less LATTESTER_HWCAPS)
 * has it, else lfence; rdtsc (the difference of two chains takes the
 * timer's cost out, whichever it is) */
static int core_timer(void)
{
	return strcmp(user_engine_timer(), "rdtscp") ? LATT_TIMER_RDTSC :
						       LATT_TIMER_RDTSCP;
}

/*
 * The ratio on @cpu (0 when it can't be had: the CPU not ours to run on,
 * or a timer that does not move), and APERF/MPERF into *@ap, *@mp
 * (false, with @why, where they can't be read).
 */
static double calibrate(unsigned int cpu, __u64 *ap, __u64 *mp, bool *aok,
			char *why, size_t len, bool after)
{
	cpu_set_t old, one;
	__u64 ppm = 0;
	int rc;

	*aok = false;
	if (sched_getaffinity(0, sizeof(old), &old)) {
		snprintf(why, len, "can't read ctl's CPU affinity: %s",
			 strerror(errno));
		return 0;
	}
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		snprintf(why, len, "ctl can't run on CPU %u: %s", cpu,
			 strerror(errno));
		return 0;
	}
	/* APERF/MPERF span the run alone: read after the calibration
	 * before it, before the calibration after it */
	if (!after)
		ppm = latt_core_ratio(core_timer());
	rc = msr_read(cpu, MSR_IA32_APERF, ap);
	if (!rc)
		rc = msr_read(cpu, MSR_IA32_MPERF, mp);
	if (after)
		ppm = latt_core_ratio(core_timer());
	*aok = !rc;
	if (rc)
		snprintf(why, len, "%s", rc == -ENOENT ?
			 "no /dev/cpu/N/msr (modprobe msr)" :
			 rc == -EACCES || rc == -EPERM ?
			 "the msr device needs root" :
			 rc == -EIO ? "the CPU (or its hypervisor) has none" :
			 strerror(-rc));
	sched_setaffinity(0, sizeof(old), &old);
	return (double)ppm / 1e6;
}

/*
 * QEMU's TCG emulates the CPU ("QEMU TCG CPU" is its model name): its
 * adds take no core's cycles, so there is nothing to calibrate, and the
 * emulated chains would only slow every run of the VM tests.
 */
static bool emulated(void)
{
	static int e = -1;
	char model[256];

	if (e < 0) {
		host_cpu_model(model, sizeof(model));
		e = !!strstr(model, "TCG");
	}
	return e;
}

/** core_clock_begin() - calibrate on @cpu before the run */
void core_clock_begin(struct core_clock *c, unsigned int cpu)
{
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	if (emulated()) {
		c->emulated = true;
		snprintf(c->aperf_why, sizeof(c->aperf_why), "%s",
			 "the CPU is emulated (QEMU TCG)");
		return;
	}
	c->before = calibrate(cpu, &c->aperf0, &c->mperf0, &c->aperf_ok,
			      c->aperf_why, sizeof(c->aperf_why), false);
}

/** core_clock_end() - and after it */
void core_clock_end(struct core_clock *c)
{
	__u64 a = 0, m = 0;
	bool ok = false;

	if (c->emulated)
		return;
	c->after = calibrate(c->cpu, &a, &m, &ok, c->aperf_why,
			     sizeof(c->aperf_why), true);
	c->ok = c->before > 0 && c->after > 0;
	if (c->aperf_ok && ok && a > c->aperf0 && m > c->mperf0) {
		c->aperf = a - c->aperf0;
		c->mperf = m - c->mperf0;
	} else {
		if (c->aperf_ok && ok)
			snprintf(c->aperf_why, sizeof(c->aperf_why), "%s",
				 "they did not advance over the run");
		c->aperf_ok = false;
	}
}

/**
 * core_clock_ratio() - core cycles per TSC cycle: the mean of the two
 * calibrations; 0 when they did not both work
 */
double core_clock_ratio(const struct core_clock *c)
{
	return c->ok ? (c->before + c->after) / 2 : 0;
}

/** core_clock_drift() - |after - before| / before, 0 when unknown */
double core_clock_drift(const struct core_clock *c)
{
	double d = c->after - c->before;

	return c->ok ? (d < 0 ? -d : d) / c->before : 0;
}
