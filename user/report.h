/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - a run's reports (struct run_report, run.h): the text table
 * and the histogram and outlier files (output.c), the JSON documents
 * (json-out.c), and the formatting they share with the commands.
 */
#ifndef _LATT_REPORT_H
#define _LATT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

struct latt_config;
struct latt_spread;
struct run_report;

void fmt_bytes(char *buf, size_t len, __u64 bytes);
void fmt_size(char *buf, size_t len, __u64 bytes);
void fmt_target(char *buf, size_t len, const struct run_report *r);
void fmt_pattern(char *buf, size_t len, const struct latt_config *c);

void report_print(FILE *f, const struct run_report *r);
void report_print_repeats(FILE *f, const struct run_report *r, size_t n);
bool report_repeat_ns(const struct run_report *r);
bool report_repeat_figure(const struct run_report *r, bool ns, int stat,
			  double *v);
int report_repeat_spread(const struct run_report *r, size_t n, int stat,
			 struct latt_spread *s);
int report_write_json_repeats(const char *path, const struct run_report *r,
			      size_t n);
const char *report_timer_name(const struct run_report *r);
double report_quantum(const struct run_report *r);
struct latt_batch_est;
int report_batch(const struct run_report *r, struct latt_batch_est *e);
bool report_quantum_agree(const struct run_report *r);
void fmt_quantum(char *buf, size_t len, __u64 quantum, __u64 read_cost,
		 __u64 khz, const char *note);
int report_tsc_stable(const struct run_report *r);
int report_write_hist(const char *path, const struct run_report *r);
int report_write_hgrm(const char *path, const struct run_report *r);
int report_write_json(const char *path, const struct run_report *r);
int report_outlier_nmi(const struct run_report *r, __u32 i, size_t *at);
const char *report_outlier_cause(const struct run_report *r, __u32 i);
int report_write_outliers_csv(const char *path, const struct run_report *r);
int report_write_outliers_json(const char *path, const struct run_report *r);

#endif /* _LATT_REPORT_H */
