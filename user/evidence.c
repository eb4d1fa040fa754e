// SPDX-License-Identifier: GPL-2.0
/*
 * evidence.c - see evidence.h
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/perf_event.h>

#include <lattester/access.h>
#include "evidence.h"

/* The tracepoints counted, and what each says. */
static const struct {
	const char *name;	/* under tracefs's events/ */
	int what;		/* enum latt_cause; softirqs: below */
} tps[] = {
	{ "irq_vectors/local_timer_entry", LATT_CAUSE_IRQ_TIMER },
	{ "irq/irq_handler_entry", LATT_CAUSE_IRQ_DEVICE },
	{ "irq_vectors/call_function_entry", LATT_CAUSE_IRQ_IPI },
	{ "irq_vectors/call_function_single_entry", LATT_CAUSE_IRQ_IPI },
	{ "irq_vectors/reschedule_entry", LATT_CAUSE_IRQ_RESCHED },
	{ "irq_vectors/irq_work_entry", LATT_CAUSE_IRQ_WORK },
	{ "nmi/nmi_handler", LATT_CAUSE_NMI },
	{ "exceptions/page_fault_user", LATT_CAUSE_FAULT },
	{ "exceptions/page_fault_kernel", LATT_CAUSE_FAULT },
	{ "irq/softirq_entry", LATT_CAUSE_SOFTIRQ },
};
#define NTPS	(sizeof(tps) / sizeof(tps[0]))
#define TP_SOFTIRQ	(NTPS - 1)	/* one counter per vector */

static const char *const tracefs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

static long tp_id(const char *root, const char *name)
{
	char path[256];
	long id = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/events/%s/id", root, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &id) != 1)
		id = -1;
	fclose(f);
	return id;
}

/* does the kernel keep steal out of the threads' CPU time? */
static bool pv_time_accounting(void)
{
	static const char key[] = "CONFIG_PARAVIRT_TIME_ACCOUNTING=y";
	char path[128 + sizeof(((struct utsname *)0)->release)], line[256];
	struct utsname u;
	bool yes = false;
	FILE *f;
	int pipe = 0;

	if (uname(&u))
		return false;
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	f = fopen(path, "re");
	if (!f && access("/proc/config.gz", R_OK) == 0) {
		f = popen("gzip -dc /proc/config.gz 2>/dev/null", "r");
		pipe = 1;
	}
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, sizeof(key) - 1))
			yes = true;
	if (pipe)
		pclose(f);
	else
		fclose(f);
	return yes;
}

static void why_add(char *why, size_t len, const char *what)
{
	size_t l = strlen(why);

	snprintf(why + l, len - l, "%s%s", l ? "; " : "", what);
}

/**
 * ev_probe() - what the host lets the user engine count: the tracepoints'
 * ids (tracefs mounted) and whether CPU time leaves steal out
 */
void ev_probe(struct ev_probe *p)
{
	const char *root = NULL;
	size_t i, k;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < EV_MAX; i++)
		p->ids[i] = -1;
	for (k = 0; k < sizeof(tracefs) / sizeof(tracefs[0]); k++) {
		if (tp_id(tracefs[k], tps[0].name) >= 0 ||
		    tp_id(tracefs[k], tps[1].name) >= 0) {
			root = tracefs[k];
			break;
		}
	}
	if (root) {
		for (i = 0; i < NTPS; i++)
			p->ids[i] = tp_id(root, tps[i].name);
	} else {
		why_add(p->why, sizeof(p->why), "interrupts, NMIs, softirqs and faults not counted: tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
	}
	p->steal = pv_time_accounting();
	if (!p->steal)
		why_add(p->why, sizeof(p->why), "steal not looked for: the kernel counts it as the thread's CPU time (CONFIG_PARAVIRT_TIME_ACCOUNTING is not set)");
}

static int tp_open(long id, int group, const char *filter)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_TRACEPOINT;
	a.size = sizeof(a);
	a.config = (__u64)id;
	a.read_format = PERF_FORMAT_GROUP;
	a.disabled = group < 0;
	/* this thread, wherever it runs (it is pinned) */
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, group,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0 && filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
		close(fd);
		return -1;
	}
	return fd;
}

/**
 * ev_open() - open @p's sources on the calling thread
 *
 * Return: 0; a source that can't be opened is left out and said in
 * @e->why (the run goes on without it).
 */
int ev_open(struct ev_src *e, const struct ev_probe *p, __u64 tsc_khz)
{
	bool irq = p->ids[0] >= 0 && p->ids[1] >= 0, nmi = false;
	int fault = 0, soft = 0, err = 0, fd, v;
	char filter[32];
	size_t i;

	memset(e, 0, sizeof(*e));
	e->lead = -1;
	e->tsc_khz = tsc_khz;
	snprintf(e->why, sizeof(e->why), "%s", p->why);
	e->sources = LATT_EVS_SWITCH | LATT_EVS_GAP |
		     (p->steal ? LATT_EVS_STEAL : 0);
	for (i = 0; i < NTPS && e->n < EV_MAX; i++) {
		if (p->ids[i] < 0)
			continue;
		for (v = 0; v < (i == TP_SOFTIRQ ? LATT_SOFTIRQS : 1); v++) {
			if (i == TP_SOFTIRQ)
				snprintf(filter, sizeof(filter), "vec == %d", v);
			fd = tp_open(p->ids[i], e->lead,
				     i == TP_SOFTIRQ ? filter : NULL);
			if (fd < 0 && (e->lead < 0 || errno == EACCES ||
				       errno == EPERM)) {
				err = errno;
				break;
			}
			if (fd < 0)	/* this one alone: left out */
				break;
			if (e->lead < 0)
				e->lead = fd;
			e->fds[e->n] = fd;
			e->what[e->n++] = i == TP_SOFTIRQ ?
					  LATT_CAUSE_KINDS + v : tps[i].what;
			if (i == TP_SOFTIRQ)
				soft += v == LATT_SOFTIRQS - 1;
			else if (tps[i].what == LATT_CAUSE_FAULT)
				fault++;
			else if (tps[i].what == LATT_CAUSE_NMI)
				nmi = true;
		}
		if (err)
			break;
	}
	if (err) {
		char msg[160];

		ev_close(e);
		e->lead = -1;
		snprintf(msg, sizeof(msg), "interrupts, NMIs, softirqs and faults not counted: perf_event_open: %s%s", strerror(err),
			 err == EACCES || err == EPERM ?
			 " (root, or kernel.perf_event_paranoid -1)" : "");
		why_add(e->why, sizeof(e->why), msg);
		return 0;
	}
	if (e->lead >= 0) {
		if (irq)
			e->sources |= LATT_EVS_IRQ;
		if (nmi)
			e->sources |= LATT_EVS_NMI;
		if (fault == 2)
			e->sources |= LATT_EVS_FAULT;
		if (soft)
			e->sources |= LATT_EVS_SOFTIRQ;
		if (ioctl(e->lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP)) {
			err = errno;
			ev_close(e);
			e->sources &= ~(LATT_EVS_IRQ | LATT_EVS_NMI |
					LATT_EVS_FAULT | LATT_EVS_SOFTIRQ);
			why_add(e->why, sizeof(e->why), strerror(err));
		}
	}
	return 0;
}

/** ev_read() - one reading of @e's sources, and the TSC */
void ev_read(const struct ev_src *e, struct ev_snap *s)
{
	__u64 buf[1 + EV_MAX];
	struct rusage ru;
	struct timespec ts;
	int i;

	if (e->lead >= 0 &&
	    read(e->lead, buf, sizeof(buf)) >= (ssize_t)(8 * (1 + e->n)))
		for (i = 0; i < e->n; i++)
			s->cnt[i] = buf[1 + i];
	if (!getrusage(RUSAGE_THREAD, &ru)) {
		s->nvcsw = ru.ru_nvcsw;
		s->nivcsw = ru.ru_nivcsw;
	}
	s->cpu_ns = 0;
	if (e->sources & LATT_EVS_STEAL &&
	    !clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		s->cpu_ns = (__u64)ts.tv_sec * 1000000000ULL +
			    (__u64)ts.tv_nsec;
	s->tsc = latt_rdtsc();
}

/**
 * ev_window() - the events of a window from the readings @a before it
 * and @b after it, added to @w (begun by core.h's latt_wev_open(): its
 * place, records and gap): its counters' @ev and @softirq, its switches,
 * and its @steal_ns
 */
void ev_window(const struct ev_src *e, const struct ev_snap *a,
	       const struct ev_snap *b, struct latt_wev *w)
{
	__u64 d, wall, cpu;
	int i, c;

	for (i = 0; i < e->n && e->lead >= 0; i++) {
		d = b->cnt[i] - a->cnt[i];
		c = e->what[i];
		if (c >= LATT_CAUSE_KINDS) {
			w->softirq[c - LATT_CAUSE_KINDS] += (__u32)d;
			c = LATT_CAUSE_SOFTIRQ;
		}
		w->ev[c] += (__u32)d;
	}
	w->ev[LATT_CAUSE_PREEMPTED] = (__u32)((b->nvcsw - a->nvcsw) +
					      (b->nivcsw - a->nivcsw));
	w->steal_ns = 0;
	if (e->sources & LATT_EVS_STEAL && !w->ev[LATT_CAUSE_PREEMPTED] &&
	    e->tsc_khz) {
		/* switched out, the time is others' too: not steal alone */
		wall = (b->tsc - a->tsc) * 1000000ULL / e->tsc_khz;
		cpu = b->cpu_ns - a->cpu_ns;
		w->steal_ns = wall > cpu ? wall - cpu : 0;
		w->ev[LATT_CAUSE_STEAL] = w->steal_ns >= 2 * LATT_CAUSE_MIN_NS;
	}
}

/** ev_close() - close @e's counters */
void ev_close(struct ev_src *e)
{
	int i;

	for (i = e->n - 1; i >= 0; i--)
		if (e->fds[i] >= 0)
			close(e->fds[i]);
	e->n = 0;
	e->lead = -1;
}
