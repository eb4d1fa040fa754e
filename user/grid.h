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
int u64_list_add(struct u64_list *l, __u64 v);
int parse_str_list(const char *s, struct str_list *l);
int str_list_add(struct str_list *l, const char *s);
void u64_list_free(struct u64_list *l);
void str_list_free(struct str_list *l);
bool str_list_has(const struct str_list *l, const char *s);

/**
 * struct sweep_grid - the dimensions, outermost first: repeat, target,
 * traffic target, cpu, threads, mix, delay, op, fence, pattern, size,
 * region (the repeats
 * outermost: the whole grid once, then again, so that a drift of the
 * machine reaches every point's repeats alike).  @patterns holds whole
 * pattern strings ("stride:256"): --stride and --hotspot values are added
 * to it.  An empty @threads, @delays or @regions is the single value 1, 0
 * or 0 (region 0: run's default, "region=default" in the key); an empty
 * @mixes, the run's one --mix (or none); an empty @traffics, no
 * --traffic-target ("none" in it: the traffic shares the target).
 */
struct sweep_grid {
	struct str_list targets;
	struct str_list traffics;	/* --traffic-target's */
	struct u64_list cpus;
	struct u64_list threads;
	struct u64_list mixes;	/* R << 16 | W: grid_mix() */
	struct u64_list delays;
	struct str_list ops;
	struct str_list fences;
	struct str_list patterns;
	struct u64_list sizes;
	struct u64_list regions;
	unsigned int repeats;	/* the whole grid this many times; 0: once */
};

struct grid_point {
	size_t index;
	const char *target;
	const char *traffic;	/* NULL: none in the grid; or "none" */
	__u32 cpu;
	__u32 threads;
	__u16 mix_read, mix_write;	/* when mixed */
	bool mixed;			/* a --mix list: the point's */
	__u64 delay;
	const char *op;
	const char *fence;
	const char *pattern;
	__u64 size;
	__u64 region;		/* 0: not a dimension (--region's one value) */
	__u32 repeat;		/* 1 to repeats: the pass over the grid */
};

/* A --mix list's item: R loads then W writes, as one number. */
static inline __u64 grid_mix(__u16 r, __u16 w)
{
	return (__u64)r << 16 | w;
}

size_t grid_size(const struct sweep_grid *g);
void grid_point(const struct sweep_grid *g, size_t i, struct grid_point *p);
int grid_add_pattern_values(struct sweep_grid *g, const char *name,
			    const struct u64_list *values);
void grid_free(struct sweep_grid *g);

/*
 * A point's key: "name=value" fields between ';', in the order of enum
 * key_id.  It says what was measured (the grid's values and the options
 * every point shares), and --resume, plot and compare read it back.  Each
 * field's name, its part and its meaning when a key lacks it are in
 * key_defs[] (grid.c), the one home of the key's spelling: the writers
 * (grid_point_key(), cmd-sweep.c) put fields by id, the readers (sweep
 * --resume, plot, compare) find them by the same table.
 */
enum key_id {
	/* the grid's dimensions (grid_point_key()) */
	KEY_TARGET,
	KEY_CPU,
	KEY_OP,
	KEY_FENCE,
	KEY_PATTERN,
	KEY_SIZE,
	KEY_THREADS,		/* only when not 1 */
	KEY_DELAY,		/* only when not 0 */
	KEY_REPEAT,		/* only when not 1 */
	/* the options every point of a sweep shares (cmd-sweep.c) */
	KEY_SAMPLES,
	KEY_REGION,		/* a dimension: between the shared ones */
	KEY_OFFSET,
	KEY_SEED,
	KEY_CHAIN,
	KEY_THRESHOLD,
	KEY_MAX_OUTLIERS,
	KEY_WINDOW_US,
	KEY_WIDTH,
	KEY_WARM,
	KEY_FORCE,
	KEY_TLB_LOCALITY,	/* only when not 0 */
	KEY_SKIP_BADBLOCKS,	/* only when given */
	KEY_TIMER,		/* only when not auto */
	KEY_ENGINE,		/* only for the user engine */
	KEY_HUGEPAGES,		/* only with the user engine, when given */
	KEY_MODE,		/* these six only in sweeps with threads */
	KEY_CPUS,
	KEY_DURATION_US,
	KEY_MIX,
	KEY_WRITE_OP,
	KEY_SPLIT,
	KEY_TRAFFIC_TARGET,	/* only when given */
	KEY_TRAFFIC_REGION,	/* only when given */
	KEY_NR
};

#define KEY_GRID	0x1	/* a dimension: the points of a sweep differ in it */
#define KEY_FREE	0x2	/* may differ between the points of one file too */
#define KEY_FLAG	0x4	/* 0 or 1: said as "--force, not no --force" */

/**
 * struct key_def - one field of a point's key
 * @name: its name in the key
 * @flags: KEY_GRID, KEY_FREE (a field that rows tell apart in columns of
 *	their own, or that a script varies from one sweep to the next into
 *	one file), KEY_FLAG
 * @absent: what a key without the field stands for (older files, and the
 *	fields a key leaves out at their default); NULL: every key has it
 * @option: the option that sets it, for messages (NULL: none)
 */
struct key_def {
	const char *name;
	unsigned int flags;
	const char *absent;
	const char *option;
};

extern const struct key_def key_defs[KEY_NR];

/* The field called @name, or NULL for one no key of this version has. */
const struct key_def *key_def_of(const char *name);
bool key_name_is(const char *name, size_t nlen, enum key_id id);

/*
 * Append field @id, its value printed by @fmt, to the key in @buf (@len
 * bytes, of which *@n are used), with a ';' before it unless it is the
 * first.  A key that does not fit stops growing (*@n stays at @len - 1).
 */
void key_put(char *buf, size_t len, size_t *n, enum key_id id,
	     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * The key of a point: its grid values and @fixed (the other options that
 * change what is measured, fields from KEY_SAMPLES on),
 * "target=dram;cpu=0;op=load;...;" + fixed.  threads and delay are in it
 * only when not 1 and 0, so that the keys of a single-thread sweep are
 * what they always were.
 */
void grid_point_key(char *buf, size_t len, const struct grid_point *p,
		    const char *fixed);

/*
 * Reading a key.  key_field() copies the value of @name into @buf (a
 * target may hold '=' but no ';'); -ENOENT without it.  key_value(): the
 * value of @name, or what its absence stands for (key_defs[]), "" for a
 * field no key of this version has; the value is in @buf, or a constant.
 * key_next(): the field at *@pos, its name (*@nlen bytes) and value
 * (*@vlen bytes) pointing into the key, *@pos moved past it; 1, 0 at the
 * end, -EINVAL for a field without '=' (*@pos moved past it too).  Empty
 * fields (";;") are passed over.
 */
int key_field(const char *key, const char *name, char *buf, size_t len);
const char *key_value(const char *key, const char *name, char *buf,
		      size_t len);
int key_next(const char **pos, const char **name, size_t *nlen,
	     const char **value, size_t *vlen);

/*
 * Call @fn for each field whose value (key_value()) differs between keys
 * @a and @b: @a's fields in their order, then those only @b has, each
 * once.  It stops at the first call that returns non-zero, and returns
 * that; 0 when every call did.
 */
int key_diff(const char *a, const char *b,
	     int (*fn)(void *ctx, const char *name, const char *va,
		       const char *vb),
	     void *ctx);

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
