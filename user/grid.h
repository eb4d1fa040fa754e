/* SPDX-License-Identifier: GPL-2.0 */
/*
 * grid.h - the parameter grid of lattester-ctl sweep: value lists with
 * ranges ("64..4096x2", "0..3+1", "seq,rand"), the cross product of the
 * dimensions, and the key that identifies a point in a sweep's files.
 * No I/O: the unit test links this file.
 */
#ifndef _LATT_GRID_H
#define _LATT_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#define GRID_MAX_VALUES		100000	/* per dimension */
#define GRID_MAX_POINTS		1000000

struct u64_list {
	__u64 *v;
	size_t n;
};

struct str_list {
	char **v;
	size_t n;
};

/* List kinds for parse_u64_list(). */
enum list_kind {
	LIST_SIZES,	/* parse_size values; a range needs xK or +STEP */
	LIST_NUMBERS,	/* decimal numbers; A..B steps by 1 */
};

int parse_u64_list(const char *s, enum list_kind kind, struct u64_list *l);
int parse_str_list(const char *s, struct str_list *l);
int str_list_add(struct str_list *l, const char *s);
void u64_list_free(struct u64_list *l);
void str_list_free(struct str_list *l);
bool str_list_has(const struct str_list *l, const char *s);

/**
 * struct sweep_grid - the dimensions, outermost first: target, cpu,
 * threads, delay, op, fence, pattern, size, region.  @patterns holds whole
 * pattern strings ("stride:256"): --stride and --hotspot values are added
 * to it.  An empty @threads, @delays or @regions is the single value 1, 0
 * or 0 (region 0: run's default, "region=default" in the key).
 */
struct sweep_grid {
	struct str_list targets;
	struct u64_list cpus;
	struct u64_list threads;
	struct u64_list delays;
	struct str_list ops;
	struct str_list fences;
	struct str_list patterns;
	struct u64_list sizes;
	struct u64_list regions;
};

struct grid_point {
	size_t index;
	const char *target;
	__u32 cpu;
	__u32 threads;
	__u64 delay;
	const char *op;
	const char *fence;
	const char *pattern;
	__u64 size;
	__u64 region;		/* 0: not a dimension (--region's one value) */
};

size_t grid_size(const struct sweep_grid *g);
void grid_point(const struct sweep_grid *g, size_t i, struct grid_point *p);
int grid_add_pattern_values(struct sweep_grid *g, const char *name,
			    const struct u64_list *values);
void grid_free(struct sweep_grid *g);

/*
 * The key of a point: its grid values and @fixed (the other options that
 * change what is measured), "target=dram;cpu=0;op=load;...;" + fixed.
 * threads and delay are in it only when not 1 and 0, so that the keys of
 * a single-thread sweep are what they always were.
 */
void grid_point_key(char *buf, size_t len, const struct grid_point *p,
		    const char *fixed);

/*
 * A key's fields, "name=value" between ';'.  key_field() copies the value
 * of @name into @buf (a target may hold '=' but no ';'); -ENOENT without
 * it.  key_is_grid_field(): is @name one of the grid's dimensions (target,
 * cpu, threads, delay, op, fence, pattern, size, region), the fields two
 * points of one sweep may differ in?
 */
int key_field(const char *key, const char *name, char *buf, size_t len);
bool key_is_grid_field(const char *name);

/* A set of keys (those already in a file, for --resume). */
struct key_set {
	char **v;
	size_t n, cap;
	bool sorted;
};

int key_set_add(struct key_set *k, const char *key);
bool key_set_has(struct key_set *k, const char *key);
void key_set_free(struct key_set *k);

#endif /* _LATT_GRID_H */
