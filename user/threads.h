/* SPDX-License-Identifier: GPL-2.0 */
/*
 * threads.h - runs of several threads and the modes of ABI 1.2 (threads.c):
 * the options --threads, --cpus, --mode, --duration, --mix, --write-op,
 * --delay and --split, their checks, the CPU list sent to the module, and
 * the per-thread records fetched back (LATT_IOC_THREADS) with what is made
 * of them: per-thread percentiles, bytes and GB/s, the bandwidth series.
 */
#ifndef _LATT_THREADS_H
#define _LATT_THREADS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uapi/lattester.h>

#define THREADS_DEFAULT_DURATION_US	1000000ULL	/* --duration 1s */

/* The options (set by run_set_option(); the rest go into latt_config). */
struct thread_opts {
	__u32 n;		/* --threads; 0: as many as --cpus lists */
	__u32 ncpus;		/* --cpus */
	char cpus_text[256];	/* --cpus as given, for sweep keys */
	__u32 cpus[LATT_MAX_THREADS];
	__u64 duration_us;	/* --duration, bandwidth mode */
	bool duration_set;
	bool samples_set;	/* --samples given (not for bandwidth) */
	bool cpu_set;		/* --cpu given */
	__u32 list[LATT_MAX_THREADS];	/* resolved: what START gets */
};

/* What came back: every thread's record, histogram and series. */
struct thread_report {
	__u32 n;
	struct latt_thread_stats *st;
	__u64 *hist;		/* n * LATT_HIST_BUCKETS */
	__u64 *series;		/* n * series_len */
	__u32 series_len;
	__u64 series_cycles;
	__u64 tsc_go;
};

/* The run's bandwidth: every thread's bytes over the longest span. */
struct run_bandwidth {
	__u64 bytes_read, bytes_written;
	__u64 cycles;
	double read_gbps, write_gbps;
};

struct run_opts;
struct run_report;
struct latt_dev;
struct json_object;

int threads_set_option(struct run_opts *o, int id, const char *v);
const char *threads_args_problem(const struct run_opts *o);
int threads_resolve(struct run_opts *o);
int threads_fetch(struct latt_dev *d, struct run_report *r);

double threads_gbps(__u64 bytes, __u64 cycles, __u64 tsc_khz);
void run_bandwidth(const struct run_report *r, struct run_bandwidth *b);
void threads_print(FILE *f, const struct run_report *r);
struct latt_outlier;
__u64 outlier_overhead(const struct run_report *r,
		       const struct latt_outlier *o);
struct json_object *json_run_threads(const struct run_report *r);

/** threads_used() - does @c need ABI 1.2 (threads or a mode)? */
static inline bool threads_used(const struct latt_config *c)
{
	return c->nr_threads > 1 || c->mode != LATT_MODE_LATENCY ||
	       c->flags & LATT_CFG_SPLIT;
}

/* threads_free() - what threads_fetch() (or the user engine) gave @t */
static inline void threads_free(struct thread_report *t)
{
	free(t->st);
	free(t->hist);
	free(t->series);
	memset(t, 0, sizeof(*t));
}

#endif /* _LATT_THREADS_H */
