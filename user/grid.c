// SPDX-License-Identifier: GPL-2.0
/*
 * grid.c - see grid.h.  No I/O, no logging: the unit test links it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "parse.h"

static int u64_list_add(struct u64_list *l, __u64 v)
{
	__u64 *nv;

	if (l->n >= GRID_MAX_VALUES)
		return -E2BIG;
	nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	l->v = nv;
	l->v[l->n++] = v;
	return 0;
}

void u64_list_free(struct u64_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

int str_list_add(struct str_list *l, const char *s)
{
	char **nv;
	char *dup;

	if (l->n >= GRID_MAX_VALUES)
		return -E2BIG;
	dup = strdup(s);
	nv = dup ? realloc(l->v, (l->n + 1) * sizeof(*nv)) : NULL;
	if (!nv) {
		free(dup);
		return -ENOMEM;
	}
	l->v = nv;
	l->v[l->n++] = dup;
	return 0;
}

void str_list_free(struct str_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

bool str_list_has(const struct str_list *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

/*
 * split_list() - @fn on each item of "a,b,c", copied into @item (@size
 * bytes); an empty item or one that doesn't fit is -EINVAL
 */
static int split_list(const char *s, char *item, size_t size,
		      int (*fn)(char *item, void *ctx), void *ctx)
{
	const char *p = s, *comma;
	size_t len;
	int rc;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (!len || len >= size)
			return -EINVAL;
		memcpy(item, p, len);
		item[len] = '\0';
		rc = fn(item, ctx);
		if (rc)
			return rc;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static int add_str_item(char *item, void *l)
{
	return str_list_add(l, item);
}

/** parse_str_list() - "a,b,c" appended to @l; empty items are refused */
int parse_str_list(const char *s, struct str_list *l)
{
	char item[4096];

	return split_list(s, item, sizeof(item), add_str_item, l);
}

static int parse_value(const char *s, enum list_kind kind, __u64 *v)
{
	size_t i;

	if (kind == LIST_SIZES)
		return parse_size(s, v);
	for (i = 0; s[i]; i++)
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
	return parse_u64(s, v);
}

/* One item: VALUE, A..B, A..BxK (geometric) or A..B+STEP (arithmetic). */
static int parse_item(char *item, enum list_kind kind, struct u64_list *l)
{
	char *dots = strstr(item, ".."), *hi_s, *step_s;
	__u64 lo, hi, step = 1, v;
	bool geometric = false;
	int rc;

	if (!dots) {
		rc = parse_value(item, kind, &v);
		return rc ? rc : u64_list_add(l, v);
	}
	*dots = '\0';
	hi_s = dots + 2;
	step_s = strpbrk(hi_s, "x+");
	if (step_s) {
		geometric = *step_s == 'x';
		*step_s++ = '\0';
		rc = geometric ? parse_value(step_s, LIST_NUMBERS, &step) :
		     parse_value(step_s, kind, &step);
		if (rc)
			return rc;
		if (geometric ? step < 2 : step < 1)
			return -ERANGE;
	} else if (kind == LIST_SIZES) {
		return -EINVAL;	/* a range of sizes needs its step */
	}
	rc = parse_value(item, kind, &lo);
	if (!rc)
		rc = parse_value(hi_s, kind, &hi);
	if (rc)
		return rc;
	if (lo > hi || (geometric && !lo))
		return -ERANGE;
	for (v = lo; v <= hi;) {
		rc = u64_list_add(l, v);
		if (rc)
			return rc;
		if (geometric ? v > hi / step : step > hi - v)
			break;
		v = geometric ? v * step : v + step;
	}
	return 0;
}

struct u64_item_ctx {
	enum list_kind kind;
	struct u64_list *l;
};

static int add_u64_item(char *item, void *arg)
{
	struct u64_item_ctx *ctx = arg;

	return parse_item(item, ctx->kind, ctx->l);
}

/**
 * parse_u64_list() - comma-separated values and ranges appended to @l:
 * "64,256", "64..4096x2" (64, 128, ... 4096: times 2 while not above the
 * end), "64..512+64" (plus 64), for LIST_NUMBERS also "0..3"
 */
int parse_u64_list(const char *s, enum list_kind kind, struct u64_list *l)
{
	struct u64_item_ctx ctx = { kind, l };
	char item[128];

	return split_list(s, item, sizeof(item), add_u64_item, &ctx);
}

/** grid_add_pattern_values() - "NAME:V" for each of @values */
int grid_add_pattern_values(struct sweep_grid *g, const char *name,
			    const struct u64_list *values)
{
	char buf[64];
	size_t i;
	int rc;

	for (i = 0; i < values->n; i++) {
		snprintf(buf, sizeof(buf), "%s:%llu", name,
			 (unsigned long long)values->v[i]);
		rc = str_list_add(&g->patterns, buf);
		if (rc)
			return rc;
	}
	return 0;
}

/** grid_size() - points in the cross product; 0 if a dimension is empty */
size_t grid_size(const struct sweep_grid *g)
{
	size_t dims[] = { g->targets.n, g->cpus.n,
			  g->threads.n ? g->threads.n : 1,
			  g->delays.n ? g->delays.n : 1, g->ops.n, g->fences.n,
			  g->patterns.n, g->sizes.n,
			  g->regions.n ? g->regions.n : 1 };
	size_t n = 1, i;

	for (i = 0; i < sizeof(dims) / sizeof(dims[0]); i++) {
		if (!dims[i])
			return 0;
		if (n > GRID_MAX_POINTS / dims[i])
			return GRID_MAX_POINTS + 1;
		n *= dims[i];
	}
	return n;
}

/** grid_point() - point @i: the last dimension (region) varies fastest */
void grid_point(const struct sweep_grid *g, size_t i, struct grid_point *p)
{
	p->index = i;
	p->region = g->regions.n ? g->regions.v[i % g->regions.n] : 0;
	i /= g->regions.n ? g->regions.n : 1;
	p->size = g->sizes.v[i % g->sizes.n];
	i /= g->sizes.n;
	p->pattern = g->patterns.v[i % g->patterns.n];
	i /= g->patterns.n;
	p->fence = g->fences.v[i % g->fences.n];
	i /= g->fences.n;
	p->op = g->ops.v[i % g->ops.n];
	i /= g->ops.n;
	p->delay = g->delays.n ? g->delays.v[i % g->delays.n] : 0;
	i /= g->delays.n ? g->delays.n : 1;
	p->threads = g->threads.n ? (__u32)g->threads.v[i % g->threads.n] : 1;
	i /= g->threads.n ? g->threads.n : 1;
	p->cpu = (__u32)g->cpus.v[i % g->cpus.n];
	i /= g->cpus.n;
	p->target = g->targets.v[i % g->targets.n];
}

void grid_free(struct sweep_grid *g)
{
	str_list_free(&g->targets);
	u64_list_free(&g->cpus);
	u64_list_free(&g->threads);
	u64_list_free(&g->delays);
	str_list_free(&g->ops);
	str_list_free(&g->fences);
	str_list_free(&g->patterns);
	u64_list_free(&g->sizes);
	u64_list_free(&g->regions);
}

void grid_point_key(char *buf, size_t len, const struct grid_point *p,
		    const char *fixed)
{
	char extra[64] = "";
	int n = 0;

	if (p->threads != 1)
		n = snprintf(extra, sizeof(extra), "threads=%u;", p->threads);
	if (p->delay && n >= 0 && (size_t)n < sizeof(extra))
		snprintf(extra + n, sizeof(extra) - n, "delay=%llu;",
			 (unsigned long long)p->delay);
	snprintf(buf, len, "target=%s;cpu=%u;op=%s;fence=%s;pattern=%s;size=%llu;%s%s", p->target, p->cpu, p->op, p->fence,
		 p->pattern, (unsigned long long)p->size, extra, fixed);
}

int key_field(const char *key, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name), vlen;
	const char *p = key, *end;

	for (; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ";");
		if ((size_t)(end - p) > n && !strncmp(p, name, n) &&
		    p[n] == '=') {
			vlen = (size_t)(end - p) - n - 1;
			if (len)
				snprintf(buf, len, "%.*s", (int)vlen, p + n + 1);
			return 0;
		}
	}
	return -ENOENT;
}

bool key_is_grid_field(const char *name)
{
	static const char *const grid[] = { "target", "cpu", "threads",
		"delay", "op", "fence", "pattern", "size", "region" };
	size_t i;

	for (i = 0; i < sizeof(grid) / sizeof(grid[0]); i++)
		if (!strcmp(grid[i], name))
			return true;
	return false;
}

int key_set_add(struct key_set *k, const char *key)
{
	char **nv;
	char *dup;

	if (k->n == k->cap) {
		nv = realloc(k->v, (k->cap ? 2 * k->cap : 64) * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		k->v = nv;
		k->cap = k->cap ? 2 * k->cap : 64;
	}
	dup = strdup(key);
	if (!dup)
		return -ENOMEM;
	k->v[k->n++] = dup;
	k->sorted = false;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool key_set_has(struct key_set *k, const char *key)
{
	if (!k->n)
		return false;
	if (!k->sorted) {
		qsort(k->v, k->n, sizeof(*k->v), cmp_str);
		k->sorted = true;
	}
	return bsearch(&key, k->v, k->n, sizeof(*k->v), cmp_str) != NULL;
}

void key_set_free(struct key_set *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->v[i]);
	free(k->v);
	memset(k, 0, sizeof(*k));
}
