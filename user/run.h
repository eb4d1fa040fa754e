/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - one finished run as lattester-ctl reports it: the text table and
 * histogram file (output.c), the JSON document (json-out.c).
 */
#ifndef _LATT_RUN_H
#define _LATT_RUN_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include <uapi/lattester.h>
#include "builtin.h"
#include "pmem.h"
#include "stats.h"

/**
 * struct run_target - what was measured, for the reports
 * @spec: the --target as given ("dram" by default)
 * @kind: "dram", "pmem" (a pmem block device) or "devdax"
 * @pm: a pmem or devdax target as resolved
 * @offset: --offset: where the region starts in @pm's range
 */
struct run_target {
	char spec[PATH_MAX];
	char kind[8];
	struct pmem_target pm;
	__u64 offset;
};

struct run_report {
	const struct cmd_ctx *ctx;	/* the command line */
	const struct latt_info *info;
	const struct run_target *target;
	__u64 samples_asked;
	struct latt_result res;		/* as run, defaults resolved */
	__u64 *hist;			/* LATT_HIST_BUCKETS raw-cycle counts */
	struct latt_outlier *outliers;	/* res.outlier_len records */
	struct latt_summary sum;
	struct timespec start, end;	/* CLOCK_REALTIME around the run */
	bool interrupted;		/* SIGINT/SIGTERM aborted it */
};

void fmt_bytes(char *buf, size_t len, __u64 bytes);
void fmt_size(char *buf, size_t len, __u64 bytes);
void fmt_target(char *buf, size_t len, const struct run_report *r);

void report_print(FILE *f, const struct run_report *r);
int report_write_hist(const char *path, const struct run_report *r);
int report_write_json(const char *path, const struct run_report *r);

#endif /* _LATT_RUN_H */
