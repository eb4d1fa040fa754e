// SPDX-License-Identifier: GPL-2.0
/*
 * duty.c - see duty.h.
 *
 * Neither engine records how long its windows lasted in all, only how
 * many a thread ran and its longest; and the user engine's windows run
 * with interrupts on, so a thread preempted inside one lengthens it rather
 * than leaving a gap between two.  A window streams for --window-us, then
 * finishes the batch under way; a window stretched further was stretched
 * by time not streamed (a preemption in the user engine; an SMI, an NMI
 * or the hypervisor in the module's, whose windows keep interrupts out).
 * So a thread streamed for its windows times what one window streams, and
 * that over the run's time is its duty cycle:
 *  - while none of its windows lasted more than DUTY_WINDOW_SLACK_US past
 *    --window-us, each is taken as long as the longest: a quiet thread
 *    reads 100%, its windows filling its time, and one kept off its CPU
 *    between windows (the module's, at cond_resched()) has fewer windows
 *    than its time holds;
 *  - once one did, each is taken as --window-us, what a disturbed window
 *    streamed at most: the quiet windows' last batches are left out, so
 *    it reads low by a batch's time over --window-us (microseconds in the
 *    default 500 us; more with --window-us near its floor of 10 us).
 * Each within the thread's own time, from its start to its end.
 */
#include <stdio.h>
#include <string.h>

#include "duty.h"
#include "stats.h"

/* @us microseconds in TSC cycles at @khz */
static __u64 us_cycles(__u64 us, __u64 khz)
{
	return us * khz / 1000;
}

/**
 * duty_of() - the streaming of a run from its records
 * @d: out
 * @res: the run's result (LATT_IOC_RESULT, or the user engine's)
 * @st: its threads' records (LATT_IOC_THREADS), or NULL
 * @n: records in @st
 * @tsc_khz: the TSC's frequency
 * @default_window_us: the engine's window where @res->config has none
 *
 * The run's time is the common start to the last thread's end, as its
 * GB/s are counted over.  A latency run has no streams: @d->streams false,
 * nothing else set.  A run that was stopped before its end (aborted,
 * failed) is not held to its yardstick (@d->over false).
 */
void duty_of(struct run_duty *d, const struct latt_result *res,
	     const struct latt_thread_stats *st, __u32 n, __u64 tsc_khz,
	     __u32 default_window_us)
{
	const struct latt_config *c = &res->config;
	const __u32 window_us = c->window_us ? c->window_us : default_window_us;
	double sum = 0;
	__u64 limit;
	__u32 i;

	memset(d, 0, sizeof(*d));
	d->mode = c->mode;
	d->streams = c->mode == LATT_MODE_BANDWIDTH ||
		     c->mode == LATT_MODE_LOADED;
	if (!d->streams)
		return;
	d->wall = res->tsc_end > res->tsc_start ?
		  res->tsc_end - res->tsc_start : 0;
	d->window = us_cycles(window_us, tsc_khz);
	d->slack = us_cycles(DUTY_WINDOW_SLACK_US, tsc_khz);
	if (c->mode == LATT_MODE_BANDWIDTH)
		d->asked = us_cycles(c->duration_us, tsc_khz);
	for (i = 0; st && i < n; i++) {
		const struct latt_thread_stats *s = &st[i];

		if (s->role == LATT_ROLE_LATENCY) {
			/* loaded: the first timing thread's time */
			if (!d->asked && c->mode == LATT_MODE_LOADED &&
			    s->tsc_end > res->tsc_start)
				d->asked = s->tsc_end - res->tsc_start;
			continue;
		}
		if (s->role != LATT_ROLE_STREAM)
			continue;
		d->nstream++;
		if (s->window_cycles_max > d->longest)
			d->longest = s->window_cycles_max;
	}
	/* no thread records (a module without them): the run's windows are
	 * all streams' in bandwidth mode */
	if (!d->nstream && c->mode == LATT_MODE_BANDWIDTH)
		d->longest = res->window_cycles_max;
	d->known = d->wall && d->window && d->nstream;
	for (i = 0; d->known && i < n; i++)
		if (st[i].role == LATT_ROLE_STREAM)
			sum += duty_thread(d, &st[i]);
	if (d->known) {
		d->share = sum / d->nstream;
		d->low = duty_low(d->share);
	}
	if (d->asked && res->state == LATT_STATE_DONE) {
		limit = d->asked + (c->mode == LATT_MODE_LOADED ? d->window : 0);
		d->over = (double)d->wall * 100 >
			  (double)limit * (100 + DUTY_OVER_PCT);
	}
	d->long_window = d->window &&
			 d->longest > DUTY_WINDOW_FACTOR * d->window + d->slack;
}

/**
 * duty_thread() - the share of the run's time a streaming thread streamed,
 *	0 to 1 (its duty cycle)
 * @d: the run's (duty_of())
 * @s: the thread's record
 *
 * Its windows, each taken as streaming for as long as the longest lasted
 * while that was within DUTY_WINDOW_SLACK_US of --window-us, else for
 * --window-us, within the thread's own time, over the run's.
 *
 * Return: the share, or -1 where it is not known (a thread that streams
 * not, a run of no time).
 */
double duty_thread(const struct run_duty *d,
		   const struct latt_thread_stats *s)
{
	__u64 len = s->window_cycles_max, span;
	double t;

	if (s->role != LATT_ROLE_STREAM || !d->wall || !d->window)
		return -1;
	if (!len || len > d->window + d->slack)
		len = d->window;
	span = s->tsc_end > s->tsc_start ? s->tsc_end - s->tsc_start : 0;
	t = (double)s->windows * (double)len;
	if (t > (double)span)
		t = (double)span;
	return t >= (double)d->wall ? 1.0 : t / (double)d->wall;
}

/* A time of @cycles at @khz, as the warning says it. */
static void fmt_time(char *buf, size_t len, __u64 cycles, __u64 khz)
{
	double ns = latt_ns((double)cycles, khz);

	if (ns >= 100e9)
		snprintf(buf, len, "%.0f s", ns / 1e9);
	else if (ns >= 1e9)
		snprintf(buf, len, "%.2f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.0f us", ns / 1e3);
}


/**
 * duty_warning() - the warning of a disturbed run, in the same words for
 *	both engines
 * @d: the run's (duty_of())
 * @tsc_khz: the TSC's frequency
 * @buf: where the sentence goes
 * @len: its room (the reports keep 320 bytes)
 *
 * Return: true with the sentence in @buf for a disturbed run
 * (duty_disturbed()); false, @buf untouched, for a quiet one.
 */
bool duty_warning(const struct run_duty *d, __u64 tsc_khz, char *buf,
		  size_t len)
{
	const bool bw = d->mode == LATT_MODE_BANDWIDTH;
	char a[24], b[24], w[24], s[24];
	size_t at;

	if (!duty_disturbed(d) || !len)
		return false;
	at = buf_put(buf, len, 0, "streaming disturbed:");
	if (d->over) {
		fmt_time(a, sizeof(a), d->wall, tsc_khz);
		fmt_time(b, sizeof(b), d->asked, tsc_khz);
		at = buf_put(buf, len, at, bw ?
			 " the run took %s, over %d%% past its --duration of %s;" :
			 " the traffic ran %s, over %d%% past the timing thread's %s + a window;",
			 a, DUTY_OVER_PCT, b);
	}
	if (d->long_window) {
		fmt_time(a, sizeof(a), d->longest, tsc_khz);
		fmt_time(w, sizeof(w), d->window, tsc_khz);
		fmt_time(s, sizeof(s), d->slack, tsc_khz);
		at = buf_put(buf, len, at,
			 " a window lasted %s, over %d x --window-us (%s) + %s;",
			 a, DUTY_WINDOW_FACTOR, w, s);
	}
	if (d->known)
		at = buf_put(buf, len, at,
			 " the streams ran %.0f%% of the run (duty cycle);",
			 100 * d->share);
	/* the last part's ';' becomes the cause's ':' */
	if (at < len && buf[at - 1] == ';')
		at--;
	buf_put(buf, len, at,
	    ": a thread lost its CPU (another task, the hypervisor, an SMI); %s",
	    bw ? "the GB/s count the time lost" :
	    "the samples had less traffic than asked");
	return true;
}
