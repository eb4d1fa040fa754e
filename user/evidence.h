/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence.h - what the user engine counts around each window, for the
 * causes of its outliers (include/lattester/cause.h): the kernel's
 * tracepoints, counted for the measuring thread alone (perf_event_open(2),
 * one group read a window), its context switches (getrusage(2),
 * RUSAGE_THREAD), and the hypervisor's steal (the thread's CPU time falls
 * behind the TSC by it, where the kernel keeps steal out of CPU time:
 * CONFIG_PARAVIRT_TIME_ACCOUNTING).  What can't be counted is said once,
 * in @why, and its LATT_EVS_* bit stays clear.
 */
#ifndef _LATT_EVIDENCE_H
#define _LATT_EVIDENCE_H

#include <stdbool.h>
#include <lattester/cause.h>

#define EV_MAX		24	/* counters in the group */

/*
 * One reading: the counters, the switches, the thread's CPU time and the
 * TSC, taken one after the other at a window's end.
 */
struct ev_snap {
	__u64 cnt[EV_MAX];
	long nvcsw, nivcsw;
	__u64 cpu_ns;
	__u64 tsc;
};

/**
 * struct ev_src - one measuring thread's sources (opened on that thread)
 * @lead: the perf group's leader, -1 without one
 * @n: counters in the group
 * @what: each counter's enum latt_cause, or LATT_CAUSE_KINDS + vector
 *	for a softirq
 * @sources: LATT_EVS_* looked for
 * @tsc_khz: to turn TSC cycles into ns
 * @why: what is not looked for, and why ("" when all is)
 */
struct ev_src {
	int lead;
	int fds[EV_MAX];
	int n;
	int what[EV_MAX];
	__u32 sources;
	__u64 tsc_khz;
	char why[320];
};

/**
 * struct ev_probe - what the host lets the user engine count, found once
 *	a run (ev_probe()) before its threads start
 * @ids: each tracepoint's id, -1 where there is none
 * @steal: the thread's CPU time leaves steal out
 * @why: as struct ev_src's
 */
struct ev_probe {
	long ids[EV_MAX];
	bool steal;
	char why[320];
};

void ev_probe(struct ev_probe *p);
int ev_open(struct ev_src *e, const struct ev_probe *p, __u64 tsc_khz);
void ev_read(const struct ev_src *e, struct ev_snap *s);
void ev_window(const struct ev_src *e, const struct ev_snap *a,
	       const struct ev_snap *b, struct latt_wev *w);
void ev_close(struct ev_src *e);

#endif /* _LATT_EVIDENCE_H */
