// SPDX-License-Identifier: GPL-2.0
/*
 * grid.c - see grid.h.  No I/O, no logging: the unit test links it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "parse.h"

int u64_list_add(struct u64_list *l, __u64 v)
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
		/* "0-3": the kernel's list syntax (run --cpus, taskset) */
		hi_s = kind == LIST_NUMBERS ? strchr(item, '-') : NULL;
		if (hi_s && hi_s != item && isdigit((unsigned char)hi_s[1])) {
			*hi_s = '\0';
			rc = parse_value(item, kind, &lo);
			if (!rc)
				rc = parse_value(hi_s + 1, kind, &hi);
			if (rc)
				return rc;
			if (lo > hi)
				return -ERANGE;
			for (v = lo; v <= hi; v++) {
				rc = u64_list_add(l, v);
				if (rc || v == hi)
					return rc;
			}
			return 0;
		}
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
 * end), "64..512+64" (plus 64), for LIST_NUMBERS also "0..3" and the
 * kernel's "0-3" (as run --cpus and taskset write CPU lists)
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
	size_t dims[] = { g->targets.n,
			  g->traffics.n ? g->traffics.n : 1, g->cpus.n,
			  g->threads.n ? g->threads.n : 1,
			  g->mixes.n ? g->mixes.n : 1,
			  g->delays.n ? g->delays.n : 1, g->ops.n, g->fences.n,
			  g->patterns.n, g->sizes.n,
			  g->regions.n ? g->regions.n : 1,
			  g->repeats ? g->repeats : 1 };
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
	p->mixed = g->mixes.n > 0;
	p->mix_read = p->mixed ? (__u16)(g->mixes.v[i % g->mixes.n] >> 16) : 0;
	p->mix_write = p->mixed ? (__u16)g->mixes.v[i % g->mixes.n] : 0;
	i /= g->mixes.n ? g->mixes.n : 1;
	p->threads = g->threads.n ? (__u32)g->threads.v[i % g->threads.n] : 1;
	i /= g->threads.n ? g->threads.n : 1;
	p->cpu = (__u32)g->cpus.v[i % g->cpus.n];
	i /= g->cpus.n;
	p->traffic = g->traffics.n ? g->traffics.v[i % g->traffics.n] : NULL;
	i /= g->traffics.n ? g->traffics.n : 1;
	p->target = g->targets.v[i % g->targets.n];
	i /= g->targets.n;
	p->repeat = (__u32)(i % (g->repeats ? g->repeats : 1)) + 1;
}

void grid_free(struct sweep_grid *g)
{
	str_list_free(&g->targets);
	str_list_free(&g->traffics);
	u64_list_free(&g->cpus);
	u64_list_free(&g->threads);
	u64_list_free(&g->mixes);
	u64_list_free(&g->delays);
	str_list_free(&g->ops);
	str_list_free(&g->fences);
	str_list_free(&g->patterns);
	u64_list_free(&g->sizes);
	u64_list_free(&g->regions);
}

const struct key_def key_defs[KEY_NR] = {
	[KEY_TARGET]		= { "target", KEY_GRID, NULL, "--target" },
	[KEY_CPU]		= { "cpu", KEY_GRID, NULL, "--cpu" },
	[KEY_OP]		= { "op", KEY_GRID, NULL, "--op" },
	[KEY_FENCE]		= { "fence", KEY_GRID, NULL, "--fence" },
	[KEY_PATTERN]		= { "pattern", KEY_GRID, NULL, "--pattern" },
	[KEY_SIZE]		= { "size", KEY_GRID, NULL, "--size" },
	[KEY_THREADS]		= { "threads", KEY_GRID, "1", "--threads" },
	[KEY_DELAY]		= { "delay", KEY_GRID, "0", "--delay" },
	[KEY_REPEAT]		= { "repeat", KEY_GRID, "1", "--repeat" },
	[KEY_SAMPLES]		= { "samples", 0, NULL, "--samples" },
	[KEY_REGION]		= { "region", KEY_GRID, NULL, "--region" },
	[KEY_OFFSET]		= { "offset", 0, NULL, "--offset" },
	[KEY_SEED]		= { "seed", 0, NULL, "--seed" },
	[KEY_CHAIN]		= { "chain", KEY_FREE, NULL, "--chain" },
	[KEY_THRESHOLD]		= { "threshold", 0, NULL, "--threshold" },
	[KEY_MAX_OUTLIERS]	= { "max_outliers", 0, NULL, "--max-outliers" },
	[KEY_WINDOW_US]		= { "window_us", 0, NULL, "--window-us" },
	[KEY_WIDTH]		= { "width", KEY_FREE, NULL, "--width" },
	[KEY_WARM]		= { "warm", KEY_FREE | KEY_FLAG, NULL, "--warm" },
	[KEY_FORCE]		= { "force", KEY_FLAG, NULL, "--force" },
	[KEY_TLB_LOCALITY]	= { "tlb_locality", 0, "0", "--tlb-locality" },
	[KEY_SKIP_BADBLOCKS]	= { "skip_badblocks", KEY_FLAG, "0",
				    "--skip-badblocks" },
	[KEY_TIMER]		= { "timer", 0, "auto", "--timer" },
	[KEY_ENGINE]		= { "engine", KEY_FREE, "kernel", "--engine" },
	[KEY_HUGEPAGES]		= { "hugepages", KEY_FREE | KEY_FLAG, "0",
				    "--hugepages" },
	[KEY_MODE]		= { "mode", KEY_FREE, "latency", "--mode" },
	[KEY_CPUS]		= { "cpus", 0, "", "--cpus" },
	[KEY_DURATION_US]	= { "duration_us", 0, "0", "--duration (us)" },
	[KEY_MIX]		= { "mix", KEY_FREE, "0:0", "--mix" },
	[KEY_WRITE_OP]		= { "write_op", KEY_FREE, "store", "--write-op" },
	[KEY_SPLIT]		= { "split", KEY_FLAG, "0", "--split" },
	[KEY_TRAFFIC_TARGET]	= { "traffic_target", KEY_FREE, "none",
				    "--traffic-target" },
	[KEY_TRAFFIC_REGION]	= { "traffic_region", 0, "default",
				    "--traffic-region" },
};

const struct key_def *key_def_of(const char *name)
{
	size_t i;

	for (i = 0; i < KEY_NR; i++)
		if (!strcmp(key_defs[i].name, name))
			return &key_defs[i];
	return NULL;
}

/* Is the @nlen bytes at @name (a key_next() field) field @id's name? */
bool key_name_is(const char *name, size_t nlen, enum key_id id)
{
	return strlen(key_defs[id].name) == nlen &&
	       !strncmp(name, key_defs[id].name, nlen);
}

void key_put(char *buf, size_t len, size_t *n, enum key_id id,
	     const char *fmt, ...)
{
	va_list ap;
	int r;

	if (!len || *n + 1 >= len)
		return;
	r = snprintf(buf + *n, len - *n, "%s%s=", *n ? ";" : "",
		     key_defs[id].name);
	if (r > 0 && *n + (size_t)r < len) {
		*n += (size_t)r;
		va_start(ap, fmt);
		r = vsnprintf(buf + *n, len - *n, fmt, ap);
		va_end(ap);
	}
	*n = r < 0 || *n + (size_t)r >= len ? len - 1 : *n + (size_t)r;
}

void grid_point_key(char *buf, size_t len, const struct grid_point *p,
		    const char *fixed)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	key_put(buf, len, &n, KEY_TARGET, "%s", p->target);
	key_put(buf, len, &n, KEY_CPU, "%u", p->cpu);
	key_put(buf, len, &n, KEY_OP, "%s", p->op);
	key_put(buf, len, &n, KEY_FENCE, "%s", p->fence);
	key_put(buf, len, &n, KEY_PATTERN, "%s", p->pattern);
	key_put(buf, len, &n, KEY_SIZE, "%llu", (unsigned long long)p->size);
	if (p->threads != 1)
		key_put(buf, len, &n, KEY_THREADS, "%u", p->threads);
	if (p->delay)
		key_put(buf, len, &n, KEY_DELAY, "%llu",
			(unsigned long long)p->delay);
	if (p->repeat > 1)
		key_put(buf, len, &n, KEY_REPEAT, "%u", p->repeat);
	if (*fixed && n + 1 < len)
		snprintf(buf + n, len - n, ";%s", fixed);
}

int key_next(const char **pos, const char **name, size_t *nlen,
	     const char **value, size_t *vlen)
{
	const char *p = *pos, *end, *eq;

	while (*p == ';')
		p++;
	if (!*p) {
		*pos = p;
		return 0;
	}
	end = p + strcspn(p, ";");
	*pos = end;
	eq = memchr(p, '=', (size_t)(end - p));
	if (!eq)
		return -EINVAL;
	*name = p;
	*nlen = (size_t)(eq - p);
	*value = eq + 1;
	*vlen = (size_t)(end - eq - 1);
	return 1;
}

int key_field(const char *key, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name), nlen, vlen;
	const char *pos = key, *f, *v;
	int r;

	while ((r = key_next(&pos, &f, &nlen, &v, &vlen))) {
		if (r < 0 || nlen != n || strncmp(f, name, n))
			continue;
		if (len)
			snprintf(buf, len, "%.*s", (int)vlen, v);
		return 0;
	}
	return -ENOENT;
}

const char *key_value(const char *key, const char *name, char *buf,
		      size_t len)
{
	const struct key_def *d;

	if (!key_field(key, name, buf, len))
		return buf;
	d = key_def_of(name);
	return d && d->absent ? d->absent : "";
}

int key_diff(const char *a, const char *b,
	     int (*fn)(void *ctx, const char *name, const char *va,
		       const char *vb),
	     void *ctx)
{
	const char *keys[2] = { a, b }, *pos, *f, *v, *x, *y;
	char name[64], va[512], vb[512];
	size_t nlen, vlen;
	int k, r;

	for (k = 0; k < 2; k++) {
		pos = keys[k];
		while ((r = key_next(&pos, &f, &nlen, &v, &vlen))) {
			if (r < 0 || nlen >= sizeof(name))
				continue;
			snprintf(name, sizeof(name), "%.*s", (int)nlen, f);
			/* a field both have is said once, from @a */
			if (k == 1 && !key_field(a, name, NULL, 0))
				continue;
			x = key_value(a, name, va, sizeof(va));
			y = key_value(b, name, vb, sizeof(vb));
			if (strcmp(x, y) && (r = fn(ctx, name, x, y)))
				return r;
		}
	}
	return 0;
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
