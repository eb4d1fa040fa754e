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
#include "stats.h"

struct run_report {
	const struct cmd_ctx *ctx;	/* the command line */
	const struct latt_info *info;
	__u64 samples_asked;
	struct latt_result res;		/* as run, defaults resolved */
	__u64 *hist;			/* LATT_HIST_BUCKETS raw-cycle counts */
	struct latt_outlier *outliers;	/* res.outlier_len records */
	struct latt_summary sum;
	struct timespec start, end;	/* CLOCK_REALTIME around the run */
	bool interrupted;		/* SIGINT/SIGTERM aborted it */
};

void fmt_bytes(char *buf, size_t len, __u64 bytes);
void fmt_target(char *buf, size_t len, const struct latt_config *cfg);

void report_print(FILE *f, const struct run_report *r);
int report_write_hist(const char *path, const struct run_report *r);
int report_write_json(const char *path, const struct run_report *r);

#endif /* _LATT_RUN_H */
