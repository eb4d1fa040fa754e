/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json-out.h - small json-c helpers shared by the commands.
 */
#ifndef _LATT_JSON_OUT_H
#define _LATT_JSON_OUT_H

#include <json-c/json.h>
#include <linux/types.h>
#include <stdbool.h>

void latt_json_str(struct json_object *o, const char *key, const char *val);
void latt_json_u64(struct json_object *o, const char *key, __u64 val);
void latt_json_int(struct json_object *o, const char *key, long long val);
void latt_json_double(struct json_object *o, const char *key, double val);
void latt_json_bool(struct json_object *o, const char *key, int val);
struct json_object *json_new_fixed(double val, int decimals);
void json_add_quantum(struct json_object *o, __u64 quantum, __u64 khz);
int json_emit(const char *path, struct json_object *o);

/* The blocks of a run's JSON (json-out.c), also the rows of a sweep. */
struct run_report;
struct cmd_ctx;
struct latt_info;
struct timespec;
struct json_object *json_provenance(const struct cmd_ctx *ctx,
				    const struct latt_info *info,
				    bool user_engine,
				    const struct timespec *start,
				    const struct timespec *end);
struct json_object *json_run_provenance(const struct run_report *r);
struct json_object *json_run_target(const struct run_report *r);
struct json_object *json_run_config(const struct run_report *r);
struct json_object *json_run_result(const struct run_report *r);
struct json_object *json_run_warnings(const struct run_report *r);
struct json_object *json_run_latency(const struct run_report *r);
struct json_object *json_run_outlier_summary(const struct run_report *r);

#endif /* _LATT_JSON_OUT_H */
