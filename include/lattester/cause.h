/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * cause.h - a cause for each outlier: what a window's evidence says
 * happened in it, and which of its outliers each event explains.  One rule
 * book for both engines' runs (lattester-ctl attributes; the engines only
 * gather): Documentation/methodology.md, "Causes".
 *
 * An engine keeps, for each window that held an outlier, a struct
 * latt_wev: the events it counted from the window's start to its end,
 * and which kinds it looked for (@sources; a kind not looked for proves
 * nothing either way).  The user engine counts with the kernel's
 * tracepoints, getrusage() and the thread's CPU time; the module's
 * windows run with interrupts and preemption off, so that of those only
 * NMIs, SMIs and the hypervisor can reach them.
 *
 * latt_cause_assign() then gives each of the window's outliers one cause.
 * An event explains one outlier, the largest not yet explained (an
 * interrupt lengthens the sample it lands in, and the samples it lands
 * between lose nothing): a window of three outliers and one timer tick
 * has one irq:timer and two LATT_CAUSE_UNASSIGNED, not three ticks.
 * Causes are taken in the order of enum latt_cause: what the guest cannot
 * see (an SMI, the hypervisor's steal) before what it handles (an NMI, a
 * switch, an interrupt, a fault), and a gap (time lost between samples,
 * with no event counted) last.
 */
#ifndef _LATTESTER_CAUSE_H
#define _LATTESTER_CAUSE_H

#include <linux/types.h>
#include "../uapi/lattester.h"

/* What caused an outlier, in the order they are assigned: the uapi's
 * LATT_EV_* kinds of event, then what is left. */
enum latt_cause {
	LATT_CAUSE_SMI = LATT_EV_SMI,
	LATT_CAUSE_STEAL = LATT_EV_STEAL,
	LATT_CAUSE_NMI = LATT_EV_NMI,
	LATT_CAUSE_PREEMPTED = LATT_EV_PREEMPTED,
	LATT_CAUSE_IRQ_TIMER = LATT_EV_IRQ_TIMER,	/* the tick, hrtimers */
	LATT_CAUSE_IRQ_DEVICE = LATT_EV_IRQ_DEVICE,
	LATT_CAUSE_IRQ_IPI = LATT_EV_IRQ_IPI,		/* a function call */
	LATT_CAUSE_IRQ_RESCHED = LATT_EV_IRQ_RESCHED,
	LATT_CAUSE_IRQ_WORK = LATT_EV_IRQ_WORK,
	LATT_CAUSE_SOFTIRQ = LATT_EV_SOFTIRQ,	/* no hard interrupt counted */
	LATT_CAUSE_FAULT = LATT_EV_FAULT,
	LATT_CAUSE_GAP = LATT_EV_GAP,		/* no event seen */
	LATT_CAUSE_EVENTS = LATT_EV_KINDS,	/* the kinds of event */
	LATT_CAUSE_AFTER = LATT_CAUSE_EVENTS, /* after an event in its window,
					       * unexplained by one: the lines
					       * and the TLB refilling */
	LATT_CAUSE_UNASSIGNED,	/* its window's events went to larger ones */
	LATT_CAUSE_NONE,	/* "none seen": the window was looked at and
				 * nothing happened in it: the access */
	LATT_CAUSE_UNKNOWN,	/* its window was not looked at */
	LATT_CAUSE_KINDS
};

/*
 * struct latt_wev (uapi, ABI 2.8) is a window's evidence: the events an
 * engine counted from the window's start to its end, by kind (@ev), and
 * which kinds it looked for (@sources, LATT_EVS_*).
 */

/* time a window must lose to hold a gap or a steal: 1 us */
#define LATT_CAUSE_MIN_NS	1000

static inline const char *latt_cause_name(int c)
{
	static const char *const names[LATT_CAUSE_KINDS] = {
		[LATT_CAUSE_SMI] = "smi",
		[LATT_CAUSE_STEAL] = "steal",
		[LATT_CAUSE_NMI] = "nmi",
		[LATT_CAUSE_PREEMPTED] = "preempted",
		[LATT_CAUSE_IRQ_TIMER] = "irq:timer",
		[LATT_CAUSE_IRQ_DEVICE] = "irq:device",
		[LATT_CAUSE_IRQ_IPI] = "irq:ipi",
		[LATT_CAUSE_IRQ_RESCHED] = "irq:resched",
		[LATT_CAUSE_IRQ_WORK] = "irq:work",
		[LATT_CAUSE_SOFTIRQ] = "softirq",
		[LATT_CAUSE_FAULT] = "fault",
		[LATT_CAUSE_GAP] = "gap",
		[LATT_CAUSE_AFTER] = "after",
		[LATT_CAUSE_UNASSIGNED] = "unassigned",
		[LATT_CAUSE_NONE] = "none seen",
		[LATT_CAUSE_UNKNOWN] = "unknown",
	};

	return c >= 0 && c < LATT_CAUSE_KINDS ? names[c] : "?";
}

/*
 * latt_wev_quiet() - could nothing of the kinds that matter have happened
 * in @w unseen?  Every kind was looked for, or shut out (the module's
 * windows: interrupts, switches, faults and softirqs can't reach them).
 * An SMI where the CPU has no count, or steal where the kernel keeps
 * none, stays possible (the summary's "not:" line says which).
 */
static inline int latt_wev_quiet(const struct latt_wev *w)
{
	__u32 s = w->sources, need = LATT_EVS_NMI | LATT_EVS_SWITCH |
		LATT_EVS_IRQ | LATT_EVS_SOFTIRQ | LATT_EVS_FAULT;
	int c;

	if (s & LATT_EVS_IRQ_OFF)
		s |= LATT_EVS_SWITCH | LATT_EVS_IRQ | LATT_EVS_SOFTIRQ |
		     LATT_EVS_FAULT;
	for (c = 0; c < LATT_CAUSE_EVENTS; c++)
		if (w->ev[c])
			return 0;
	return (s & need) == need;
}

/**
 * latt_cause_assign() - a cause for each outlier of one window
 * @w: the window's evidence, or NULL where it was not looked at
 * @rec: its outliers' records, @n of them (their @sample)
 * @cycles: their corrected cycles
 * @cause: out: each one's enum latt_cause
 * @order: scratch, @n entries
 * @n: its outliers
 *
 * Each event explains one outlier, the largest left (ties: the earlier
 * record); causes go in enum order, so one SMI explains the largest
 * outlier before an interrupt the second.  A softirq counts only where
 * no hard interrupt did (it runs on an interrupt's way out: the
 * interrupt is the cause), and a gap only where no event did (an
 * interrupt between two samples makes one).  Of the outliers left, those
 * that came after the first the window's events explain (or after its
 * gap) are LATT_CAUSE_AFTER: the lines and the TLB entries another task,
 * the host or a handler took away are fetched again.  The rest are
 * LATT_CAUSE_UNASSIGNED if the window held any event, LATT_CAUSE_NONE if
 * it was looked at throughout and held none, LATT_CAUSE_UNKNOWN
 * otherwise.
 *
 * Return: the events left over (that no outlier was left for).
 */
static inline __u32 latt_cause_assign(const struct latt_wev *w,
				      const struct latt_outlier *rec,
				      const __u64 *cycles, __u8 *cause,
				      __u32 *order, __u32 n)
{
	__u32 i, j, k, next = 0, left = 0, evs, hard = 0;
	__u64 from = ~0ULL;
	int c, any = 0;

	/* the outliers, largest first (a window holds few: insertion) */
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && cycles[order[j - 1]] < cycles[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	if (!w) {
		for (i = 0; i < n; i++)
			cause[i] = LATT_CAUSE_UNKNOWN;
		return 0;
	}
	for (c = LATT_CAUSE_IRQ_TIMER; c <= LATT_CAUSE_IRQ_WORK; c++)
		hard += w->ev[c];
	for (c = 0; c < LATT_CAUSE_EVENTS; c++) {
		evs = w->ev[c];
		if (c == LATT_CAUSE_SOFTIRQ && hard)
			evs = 0;	/* the interrupts' own */
		if (c == LATT_CAUSE_GAP && any)
			evs = 0;	/* the time an event seen took */
		any |= evs != 0;
		for (k = 0; k < evs; k++) {
			if (next == n) {
				left += evs - k;
				break;
			}
			i = order[next++];
			cause[i] = (__u8)c;
			if (rec[i].sample < from)
				from = rec[i].sample;
		}
	}
	if (w->ev[LATT_CAUSE_GAP] && w->gap_at < from)
		from = w->gap_at;
	for (; next < n; next++) {
		i = order[next];
		cause[i] = any && rec[i].sample > from ? LATT_CAUSE_AFTER :
			   any ? LATT_CAUSE_UNASSIGNED :
			   latt_wev_quiet(w) ? LATT_CAUSE_NONE :
			   LATT_CAUSE_UNKNOWN;
	}
	return left;
}

#endif /* _LATTESTER_CAUSE_H */
