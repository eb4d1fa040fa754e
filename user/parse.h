/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - option values of lattester-ctl: numbers, sizes and the names of
 * ops, fences, patterns, targets, states and features.
 *
 * Parsers store into *out only on success and return 0 or a negative errno:
 * -EINVAL for a malformed string, -ERANGE for a value that overflows or is
 * out of range, -EDOM for a size that is not a multiple of 64 bytes.
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
int parse_line_size(const char *s, __u64 *out);
int parse_op(const char *s, __u32 *op);
int parse_fence(const char *s, __u32 *fence);
int parse_pattern(const char *s, __u32 *pattern, __u64 *arg);

/**
 * struct target_spec - a --target as written: dram[:NODE], a path of a pmem
 * or device-DAX device (anything with a '/'), or a namespace name
 * namespaceX.Y.  @name points into the parsed string.
 */
enum target_kind {
	TARGET_DRAM,
	TARGET_PATH,
	TARGET_NAMESPACE,
};

struct target_spec {
	enum target_kind kind;
	__u32 node;		/* TARGET_DRAM: a node or LATT_NODE_LOCAL */
	const char *name;	/* TARGET_PATH, TARGET_NAMESPACE */
};

int parse_target(const char *s, struct target_spec *t);
int parse_offset(const char *s, __u64 *out);
int parse_width(const char *s, __u32 *width);
const char *parse_strerror(int rc);

bool cpulist_has(const char *list, unsigned int cpu);

/* The name tables; latt_name() returns "?" for a value it doesn't know. */
enum latt_names {
	NAMES_OP,
	NAMES_FENCE,
	NAMES_PATTERN,
	NAMES_STATE,
	NAMES_FEATURE,	/* values are bit numbers of LATT_FEAT_* */
};

const char *latt_name(enum latt_names table, __u32 val);
const char *latt_name_list(enum latt_names table);

bool op_is_store(__u32 op);
__u64 op_features(__u32 op);

#endif /* _LATT_PARSE_H */
