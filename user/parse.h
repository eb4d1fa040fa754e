/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - option values of lattester-ctl: numbers, sizes and the names of
 * ops, fences, patterns, targets, states and features.
 *
 * Parsers store into *out only on success and return 0 or a negative errno:
 * -EINVAL for a malformed string, -ERANGE for a value that overflows or is
 * out of range, -EDOM for a size that is not a multiple of 64 bytes,
 * -EBADMSG for a size whose unit is not binary (KB, MB: say K or KiB).
 * parse_strerror() turns those into words for a message.
 */
#ifndef _LATT_PARSE_H
#define _LATT_PARSE_H

#include <stdbool.h>
#include <linux/types.h>

#define LATT_PAGE	4096ULL	/* alignment of a pmem target's start */

int parse_u64(const char *s, __u64 *out);
int parse_u32(const char *s, __u32 *out);
int parse_size(const char *s, __u64 *out);
int parse_count(const char *s, __u64 *out);
int parse_line_size(const char *s, __u64 *out);
int parse_op(const char *s, __u32 *op);
int parse_fence(const char *s, __u32 *fence);
int parse_pattern(const char *s, __u32 *pattern, __u64 *arg);

/**
 * struct target_spec - a --target as written: dram[:NODE], a path of a pmem
 * or device-DAX device (anything with a '/'), a namespace name
 * namespaceX.Y, or a CXL region cxl:regionN (resolved when the run starts
 * to what the region is then: its device-DAX device or its NUMA node).
 * @name points into the parsed string.
 */
enum target_kind {
	TARGET_DRAM,
	TARGET_PATH,
	TARGET_NAMESPACE,
	TARGET_CXL,
};

struct target_spec {
	enum target_kind kind;
	__u32 node;		/* TARGET_DRAM: a node or LATT_NODE_LOCAL */
	const char *name;	/* TARGET_PATH, TARGET_NAMESPACE; TARGET_CXL:
				 * "regionN", after the "cxl:" */
};

int parse_target(const char *s, struct target_spec *t);
int parse_offset(const char *s, __u64 *out);
int parse_width(const char *s, __u32 *width);
const char *parse_strerror(int rc);

/**
 * struct threshold_spec - a --threshold as written: cycles ("2000",
 * "0x800"), a time ("2us", "500ns", "1.5ms") or a multiple of the median
 * ("10x", "2.5x").  0 in any unit means no outlier records.
 * @value: cycles, nanoseconds, or the multiple
 * @text: the string as given, for reports and sweep keys
 */
enum threshold_kind {
	THR_OFF,
	THR_CYCLES,
	THR_NS,
	THR_MEDIAN,
};

struct threshold_spec {
	enum threshold_kind kind;
	double value;
	char text[32];
};

#define THR_MAX_MULTIPLE	1e6	/* "1000000x" */
#define THR_MAX_NS		1e12	/* 1000 s */

int parse_threshold(const char *s, struct threshold_spec *t);
__u64 threshold_cycles(const struct threshold_spec *t, __u64 tsc_khz,
		       __u64 median);

bool cpulist_has(const char *list, unsigned int cpu);
int parse_cpulist(const char *s, __u32 *cpus, __u32 max, __u32 *n);
int parse_mode(const char *s, __u32 *mode);
int parse_duration_us(const char *s, __u64 *us);
int parse_mix(const char *s, __u16 *r, __u16 *w);
const char *mode_name(__u32 mode);

/* The name tables; latt_name() returns "?" for a value it doesn't know. */
enum latt_names {
	NAMES_OP,
	NAMES_FENCE,
	NAMES_PATTERN,
	NAMES_STATE,
	NAMES_FEATURE,	/* values are bit numbers of LATT_FEAT_* */
};

const char *latt_name(enum latt_names table, __u32 val);
int latt_value(enum latt_names table, const char *name);
const char *latt_name_list(enum latt_names table);
const char *latt_name_at(enum latt_names table, unsigned int i, bool *has_arg);

bool op_is_store(__u32 op);
__u64 op_features(__u32 op);

#endif /* _LATT_PARSE_H */
