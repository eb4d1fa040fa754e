/* SPDX-License-Identifier: GPL-2.0 */
/*
 * duty.h - whether the streaming threads of a run (--mode bandwidth and
 * loaded) streamed for the run's time or were held off their CPUs, and
 * the share of it they streamed: the duty cycle (duty.c).
 *
 * Both engines report the same records (struct latt_result, and struct
 * latt_thread_stats for every thread: its windows, its longest window,
 * its start and end on the common TSC), the kernel's over the ioctl, the
 * user engine's filled by the same core.h code; what is made of them, and
 * the warning that says so, is written here once for both.  No I/O: the
 * unit test links this file.
 */
#ifndef _LATT_DUTY_H
#define _LATT_DUTY_H

#include <stdbool.h>
#include <stddef.h>
#include <uapi/lattester.h>

/*
 * A run whose time exceeds its yardstick by more than this share (%):
 * --duration in bandwidth mode; in a loaded run, the timing thread's time
 * from the common start to its end and one window (the traffic stops at
 * the end of the window it is in).  A quiet run overshoots by one batch of
 * at most 64 KiB a thread.
 */
#define DUTY_OVER_PCT		10

/*
 * A streaming window longer than DUTY_WINDOW_FACTOR x --window-us plus
 * DUTY_WINDOW_SLACK_US was disturbed: its thread lost the CPU for longer
 * than the window streamed.  A quiet window runs past --window-us by the
 * batch under way (at most 64 KiB: 1 ms only below 64 MB/s a thread) and
 * what interrupts, NMIs and SMIs take (micro- to a few hundred
 * microseconds); a thread preempted by another task loses a time slice,
 * milliseconds.  A thread whose windows all kept within the slack has
 * them counted at its longest's length, the others at --window-us
 * (duty_thread()).
 */
#define DUTY_WINDOW_FACTOR	2
#define DUTY_WINDOW_SLACK_US	1000

/* A duty cycle below this (%) is a disturbed run: over a tenth lost. */
#define DUTY_MIN_PCT		90

/* Is a duty cycle of @share (0 to 1) a disturbed run's?  The run's
 * warning, and plot's and compare's of the results they read, which say
 * the bound with duty_min_pct(): the rule is spelt here alone. */
static inline bool duty_low(double share)
{
	return share * 100 < DUTY_MIN_PCT;
}

static inline int duty_min_pct(void)
{
	return DUTY_MIN_PCT;
}

/**
 * struct run_duty - the streaming of a run, as its records tell it
 * @streams: a bandwidth or loaded run: it has streaming threads
 * @known: @share is known (a run with time, streaming threads' records,
 *	a window length)
 * @mode: LATT_MODE_*
 * @wall: TSC cycles from the common start to the last thread's end
 * @asked: TSC cycles the run was to take: --duration (bandwidth), the
 *	timing thread's time from the common start to its end (loaded);
 *	0 = unknown
 * @window: --window-us in TSC cycles (0 = unknown)
 * @slack: DUTY_WINDOW_SLACK_US in TSC cycles
 * @longest: the streaming threads' longest window, TSC cycles
 * @nstream: streaming threads with records
 * @share: the share of @wall the streaming threads streamed: their mean
 *	duty cycle (duty_thread()), 0 to 1
 * @over: the run took more than DUTY_OVER_PCT% past @asked (and one
 *	window, loaded)
 * @long_window: @longest is beyond DUTY_WINDOW_FACTOR windows and the slack
 * @low: @share is below DUTY_MIN_PCT%
 */
struct run_duty {
	bool streams, known;
	__u32 mode;
	__u64 wall, asked, window, slack, longest;
	__u32 nstream;
	double share;
	bool over, long_window, low;
};

void duty_of(struct run_duty *d, const struct latt_result *res,
	     const struct latt_thread_stats *st, __u32 n, __u64 tsc_khz,
	     __u32 default_window_us);
double duty_thread(const struct run_duty *d,
		   const struct latt_thread_stats *s);

/** duty_disturbed() - did the run's records show its streams held off? */
static inline bool duty_disturbed(const struct run_duty *d)
{
	return d->over || d->long_window || d->low;
}

bool duty_warning(const struct run_duty *d, __u64 tsc_khz, char *buf,
		  size_t len);

#endif /* _LATT_DUTY_H */
