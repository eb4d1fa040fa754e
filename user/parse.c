// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - option value parsing for lattester-ctl.  No I/O, no logging:
 * the unit test (tests/unit/test-cli.c) links this file alone.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <uapi/lattester.h>
#include <lattester/rules.h>
#include "parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct latt_name {
	const char *name;
	__u32 val;
	__u64 aux;	/* ops: LATT_FEAT_* needed; patterns: takes ":BYTES" */
};

#define END { NULL, 0, 0 }

static const struct latt_name op_names[] = {
	{ "load",		LATT_OP_LOAD,		0 },
	{ "nt-load",		LATT_OP_NT_LOAD,	LATT_FEAT_SSE4_1 },
	{ "store",		LATT_OP_STORE,		0 },
	{ "store-clwb",		LATT_OP_STORE_CLWB,	LATT_FEAT_CLWB },
	{ "store-clflushopt",	LATT_OP_STORE_CLFLUSHOPT, LATT_FEAT_CLFLUSHOPT },
	{ "store-clflush",	LATT_OP_STORE_CLFLUSH,	LATT_FEAT_CLFLUSH },
	{ "nt-store",		LATT_OP_NT_STORE,	LATT_FEAT_SSE2 },
	{ "movdir64b",		LATT_OP_MOVDIR64B,	LATT_FEAT_MOVDIR64B },
	END
};

static const struct latt_name fence_names[] = {
	{ "default",	LATT_FENCE_DEFAULT,	0 },
	{ "none",	LATT_FENCE_NONE,	0 },
	{ "sfence",	LATT_FENCE_SFENCE,	0 },
	{ "mfence",	LATT_FENCE_MFENCE,	0 },
	END
};

static const struct latt_name pattern_names[] = {
	{ "seq",	LATT_PAT_SEQ,		0 },
	{ "rand",	LATT_PAT_RAND,		0 },
	{ "stride",	LATT_PAT_STRIDE,	1 },
	{ "chase",	LATT_PAT_CHASE,		0 },
	{ "hotspot",	LATT_PAT_HOTSPOT,	1 },
	END
};

static const struct latt_name state_names[] = {
	{ "idle",	LATT_STATE_IDLE,	0 },
	{ "running",	LATT_STATE_RUNNING,	0 },
	{ "done",	LATT_STATE_DONE,	0 },
	{ "aborted",	LATT_STATE_ABORTED,	0 },
	{ "failed",	LATT_STATE_FAILED,	0 },
	END
};

static const struct latt_name feature_names[] = {
	{ "rdtscp",	0,	0 },
	{ "clflush",	1,	0 },
	{ "clflushopt",	2,	0 },
	{ "clwb",	3,	0 },
	{ "sse2",	4,	0 },
	{ "sse4_1",	5,	0 },
	{ "avx",	6,	0 },
	{ "avx2",	7,	0 },
	{ "avx512f",	8,	0 },
	{ "constant_tsc", 9,	0 },
	{ "nonstop_tsc", 10,	0 },
	{ "nmi_count",	11,	0 },
	{ "pmem",	12,	0 },
	{ "threads",	13,	0 },
	{ "timer_rdtsc", 14,	0 },
	{ "tsc_stable",	15,	0 },
	{ "reuse",	16,	0 },
	{ "dax_map",	17,	0 },
	{ "movdir64b",	18,	0 },
	{ "mc_safe",	19,	0 },
	{ "mc_recover",	20,	0 },
	{ "lfence_serial", 21,	0 },
	{ "batch",	22,	0 },
	{ "windows",	23,	0 },
	{ "traffic",	24,	0 },
	END
};

static const struct latt_name *const tables[] = {
	[NAMES_OP]	= op_names,
	[NAMES_FENCE]	= fence_names,
	[NAMES_PATTERN]	= pattern_names,
	[NAMES_STATE]	= state_names,
	[NAMES_FEATURE]	= feature_names,
};

static const struct latt_name *find_val(enum latt_names t, __u32 val)
{
	const struct latt_name *n;

	for (n = tables[t]; n->name; n++)
		if (n->val == val)
			return n;
	return NULL;
}

/* Exact match on the first @len characters of @s. */
static const struct latt_name *find_name(enum latt_names t, const char *s,
					 size_t len)
{
	const struct latt_name *n;

	for (n = tables[t]; n->name; n++)
		if (strlen(n->name) == len && !strncmp(n->name, s, len))
			return n;
	return NULL;
}

const char *latt_name(enum latt_names t, __u32 val)
{
	const struct latt_name *n = find_val(t, val);

	return n ? n->name : "?";
}

/** latt_name_list() - "a, b, c": the names of a table, for messages */
const char *latt_name_list(enum latt_names t)
{
	static char buf[ARRAY_SIZE(tables)][256];
	const struct latt_name *n;
	char *b = buf[t];

	if (b[0])
		return b;
	for (n = tables[t]; n->name; n++) {
		if (n != tables[t])
			strcat(b, ", ");
		strcat(b, n->name);
		if (n->aux && t == NAMES_PATTERN)
			strcat(b, ":BYTES");
	}
	return b;
}

/**
 * latt_name_at() - the @i-th name of a table, NULL past its end
 * @has_arg: set when the name takes ":BYTES" (stride, hotspot)
 */
const char *latt_name_at(enum latt_names t, unsigned int i, bool *has_arg)
{
	const struct latt_name *n = tables[t];
	unsigned int k;

	for (k = 0; k < i && n->name; k++)
		n++;
	if (has_arg)
		*has_arg = n->name && n->aux && t == NAMES_PATTERN;
	return n->name;
}

/** op_is_store() - whether @op writes its target: rules.h's definition */
bool op_is_store(__u32 op)
{
	return latt_rule_is_store(op);
}

/** op_features() - the LATT_FEAT_* bits the CPU needs to run @op */
__u64 op_features(__u32 op)
{
	const struct latt_name *n = find_val(NAMES_OP, op);

	return n ? n->aux : 0;
}

static int lookup(enum latt_names t, const char *s, __u32 *val)
{
	const struct latt_name *n = find_name(t, s, strlen(s));

	if (!n)
		return -EINVAL;
	*val = n->val;
	return 0;
}

/** latt_value() - the value of @name in @t, or -1 */
int latt_value(enum latt_names t, const char *name)
{
	__u32 v;

	return lookup(t, name, &v) ? -1 : (int)v;
}

int parse_op(const char *s, __u32 *op)
{
	return lookup(NAMES_OP, s, op);
}

int parse_fence(const char *s, __u32 *fence)
{
	return lookup(NAMES_FENCE, s, fence);
}

/*
 * Digits in @base at the start of @s (no sign, no blanks: strtoull would
 * accept "-1" and " 1"); *end is left after them.
 */
static int parse_digits(const char *s, int base, __u64 *out, char **end)
{
	unsigned long long v;

	if (!(base == 16 ? isxdigit : isdigit)((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end == s)
		return -EINVAL;
	*out = v;
	return 0;
}

/** parse_u64() - decimal, or hexadecimal with a 0x prefix */
int parse_u64(const char *s, __u64 *out)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	char *end;
	__u64 v;
	int rc;

	rc = parse_digits(hex ? s + 2 : s, hex ? 16 : 10, &v, &end);
	if (rc)
		return rc;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_u32(const char *s, __u32 *out)
{
	__u64 v;
	int rc = parse_u64(s, &v);

	if (rc)
		return rc;
	if (v > UINT32_MAX)
		return -ERANGE;
	*out = (__u32)v;
	return 0;
}

/*
 * A suffix that names a unit parse_size() doesn't take: decimal-looking
 * (KB, MB: 1000 or 1024?) or in the wrong case (k, mib).  Refused with a
 * message naming K/KiB rather than as garbage.
 */
static bool size_unit_like(const char *s)
{
	static const char *const like[] = {
		"k", "kb", "kib", "m", "mb", "mib", "g", "gb", "gib",
		"t", "tb", "tib",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(like); i++)
		if (!strcasecmp(s, like[i]))
			return true;
	return false;
}

/**
 * parse_size() - decimal bytes with an optional binary suffix: K or KiB
 * (1024), M or MiB, G or GiB, T or TiB; B for bytes.  -EBADMSG for KB, MB,
 * GB, TB and lowercase units (sizes here are binary: say K or KiB).
 */
int parse_size(const char *s, __u64 *out)
{
	static const struct {
		const char *suffix;
		unsigned int shift;
	} units[] = {
		{ "", 0 }, { "B", 0 },
		{ "K", 10 }, { "KiB", 10 },
		{ "M", 20 }, { "MiB", 20 },
		{ "G", 30 }, { "GiB", 30 },
		{ "T", 40 }, { "TiB", 40 },
	};
	char *end;
	size_t i;
	__u64 v;
	int rc;

	rc = parse_digits(s, 10, &v, &end);
	if (rc)
		return rc;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		if (v > (UINT64_MAX >> units[i].shift))
			return -ERANGE;
		*out = v << units[i].shift;
		return 0;
	}
	return size_unit_like(end) ? -EBADMSG : -EINVAL;
}

/* *@v = *@v * 10 + digit @c; -ERANGE on overflow */
static int add_digit(__u64 *v, char c)
{
	__u64 d = (__u64)(c - '0');

	if (*v > (UINT64_MAX - d) / 10)
		return -ERANGE;
	*v = *v * 10 + d;
	return 0;
}

/**
 * parse_count() - a count such as --samples: decimal ("100000"), hex
 * ("0x186a0"), with a decimal suffix k or K (10^3), M (10^6) or G (10^9)
 * ("100k", "1.5M"), or with an exponent ("1e6", "2.5e5").  Counts are
 * decimal: 1M is 1000000, not 2^20.  The value must be a whole number:
 * "1.5" is -EINVAL, "1.5k" is 1500.
 */
int parse_count(const char *s, __u64 *out)
{
	static const struct {
		const char *suffix;
		unsigned int exp;
	} units[] = {
		{ "", 0 }, { "k", 3 }, { "K", 3 }, { "M", 6 }, { "G", 9 },
	};
	const char *p = s, *frac = NULL;
	unsigned int exp = 0, nfrac = 0, i;
	__u64 v = 0;
	bool digits = false, has_exp = false;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_u64(s, out);
	for (; isdigit((unsigned char)*p); p++, digits = true)
		if (add_digit(&v, *p))
			return -ERANGE;
	if (*p == '.') {
		frac = ++p;
		for (; isdigit((unsigned char)*p); p++, digits = true, nfrac++)
			if (add_digit(&v, *p))
				return -ERANGE;
	}
	if (!digits || (frac && !nfrac))
		return -EINVAL;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+')
			p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		for (; isdigit((unsigned char)*p); p++) {
			exp = exp * 10 + (unsigned int)(*p - '0');
			if (exp > 100)
				return -ERANGE;
		}
		has_exp = true;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(p, units[i].suffix))
			break;
	if (i == ARRAY_SIZE(units) || (has_exp && units[i].exp))
		return -EINVAL;
	exp += units[i].exp;
	/* drop the fraction's digits against the exponent: what is left
	 * after the point must be zeros */
	for (; nfrac > exp; nfrac--) {
		if (v % 10)
			return -EINVAL;
		v /= 10;
	}
	for (exp -= nfrac; exp; exp--) {
		if (v > UINT64_MAX / 10)
			return -ERANGE;
		v *= 10;
	}
	*out = v;
	return 0;
}

/** parse_line_size() - a size that is a non-zero multiple of 64 bytes */
int parse_line_size(const char *s, __u64 *out)
{
	__u64 v;
	int rc = parse_size(s, &v);

	if (rc)
		return rc;
	if (!v)
		return -ERANGE;
	if (v % LATT_LINE)
		return -EDOM;
	*out = v;
	return 0;
}

/** parse_pattern() - NAME, or NAME:BYTES for stride and hotspot */
int parse_pattern(const char *s, __u32 *pattern, __u64 *arg)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	const struct latt_name *n = find_name(NAMES_PATTERN, s, len);
	__u64 v = 0;
	int rc;

	if (!n || !n->aux != !colon)
		return -EINVAL;
	if (colon) {
		rc = parse_line_size(colon + 1, &v);
		if (rc)
			return rc;
	}
	*pattern = n->val;
	*arg = v;
	return 0;
}

/* "namespaceX.Y": libnvdimm's name for namespace Y of region X. */
static bool is_namespace_name(const char *s)
{
	const char *p = s + strlen("namespace");
	size_t n;

	if (strncmp(s, "namespace", strlen("namespace")))
		return false;
	n = strspn(p, "0123456789");
	if (!n || p[n] != '.')
		return false;
	p += n + 1;
	n = strspn(p, "0123456789");
	return n && !p[n];
}

/* "regionN": libcxl's name for CXL region N (no sign, no blank, no 0x) */
static bool is_cxl_region_name(const char *s)
{
	const char *p = s + strlen("region");
	size_t n;

	if (strncmp(s, "region", strlen("region")))
		return false;
	n = strspn(p, "0123456789");
	return n && n <= 9 && !p[n];
}

/**
 * parse_target() - "dram" (the CPU's node), "dram:NODE", a device path
 * (anything containing '/': /dev/pmem0, /dev/dax0.1), "namespaceX.Y" or
 * "cxl:regionN"; anything else that begins "cxl:" is -EINVAL
 */
int parse_target(const char *s, struct target_spec *t)
{
	__u32 v = LATT_NODE_LOCAL;
	int rc;

	if (!strncmp(s, "cxl:", 4)) {
		if (!is_cxl_region_name(s + 4))
			return -EINVAL;
		*t = (struct target_spec){ TARGET_CXL, LATT_NODE_LOCAL, s + 4 };
		return 0;
	}
	if (strchr(s, '/')) {
		*t = (struct target_spec){ TARGET_PATH, LATT_NODE_LOCAL, s };
		return 0;
	}
	if (is_namespace_name(s)) {
		*t = (struct target_spec){ TARGET_NAMESPACE, LATT_NODE_LOCAL, s };
		return 0;
	}
	if (strncmp(s, "dram", 4) || (s[4] && s[4] != ':'))
		return -EINVAL;
	if (s[4] == ':') {
		rc = parse_u32(s + 5, &v);
		if (rc)
			return rc;
		if (v == LATT_NODE_LOCAL)
			return -ERANGE;
	}
	*t = (struct target_spec){ TARGET_DRAM, v, NULL };
	return 0;
}

/** parse_offset() - a size that is a multiple of a page (4096 bytes) */
int parse_offset(const char *s, __u64 *out)
{
	__u64 v;
	int rc = parse_size(s, &v);

	if (rc)
		return rc;
	if (v % LATT_PAGE)
		return -EDOM;
	*out = v;
	return 0;
}

/** parse_width() - "auto" or an access width of 8, 16, 32 or 64 bytes */
int parse_width(const char *s, __u32 *width)
{
	__u32 v;
	int rc;

	if (!strcmp(s, "auto")) {
		*width = LATT_WIDTH_AUTO;
		return 0;
	}
	rc = parse_u32(s, &v);
	if (rc)
		return rc;
	if (v != 8 && v != 16 && v != 32 && v != 64)
		return -ERANGE;
	*width = v;
	return 0;
}

/*
 * A decimal number with an optional fraction, "12", "1.5", ".5" (no sign, no
 * exponent, no blanks); *end is left after it.
 */
static int parse_decimal(const char *s, double *out, const char **end)
{
	double v = 0, scale = 1;
	const char *p = s;
	bool digits = false;

	for (; isdigit((unsigned char)*p); p++, digits = true)
		v = v * 10 + (*p - '0');
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, digits = true) {
			scale /= 10;
			v += (*p - '0') * scale;
		}
	}
	if (!digits)
		return -EINVAL;
	*out = v;
	*end = p;
	return 0;
}

/**
 * parse_threshold() - "2000" or "0x7d0" (cycles), "500ns", "2us" (also
 * "2µs"), "1.5ms", or "10x" (a multiple of the median); "0" in any unit is
 * THR_OFF
 */
int parse_threshold(const char *s, struct threshold_spec *t)
{
	static const struct {
		const char *suffix;
		enum threshold_kind kind;
		double scale;
	} units[] = {
		{ "ns", THR_NS, 1 }, { "us", THR_NS, 1e3 },
		{ "\xc2\xb5s", THR_NS, 1e3 }, { "ms", THR_NS, 1e6 },
		{ "x", THR_MEDIAN, 1 },
	};
	struct threshold_spec r = { THR_CYCLES, 0, "" };
	const char *end;
	__u64 cycles;
	size_t i;
	int rc;

	if (strlen(s) >= sizeof(r.text))
		return -EINVAL;
	snprintf(r.text, sizeof(r.text), "%s", s);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		rc = parse_u64(s, &cycles);
		if (rc)
			return rc;
		r.value = (double)cycles;
		r.kind = cycles ? THR_CYCLES : THR_OFF;
		*t = r;
		return 0;
	}
	rc = parse_decimal(s, &r.value, &end);
	if (rc)
		return rc;
	if (!*end) {
		/* plain cycles: an integer, as parse_u64 reads it */
		rc = parse_u64(s, &cycles);
		if (rc)
			return rc;
		r.value = (double)cycles;
		r.kind = cycles ? THR_CYCLES : THR_OFF;
		*t = r;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		r.kind = units[i].kind;
		r.value *= units[i].scale;
		if (r.kind == THR_MEDIAN &&
		    (r.value <= 0 || r.value > THR_MAX_MULTIPLE))
			return -ERANGE;
		if (r.kind == THR_NS && r.value > THR_MAX_NS)
			return -ERANGE;
		if (r.kind == THR_NS && r.value == 0)
			r.kind = THR_OFF;
		*t = r;
		return 0;
	}
	return -EINVAL;
}

/*
 * threshold_cycles() - the threshold in cycles for the module: a time at
 * @tsc_khz, a multiple of @median (corrected cycles per sample), rounded to
 * the nearest cycle and at least 1; 0 for THR_OFF
 */
__u64 threshold_cycles(const struct threshold_spec *t, __u64 tsc_khz,
		       __u64 median)
{
	double c;

	switch (t->kind) {
	case THR_CYCLES:
		return (__u64)t->value;
	case THR_NS:
		c = t->value * (double)tsc_khz / 1e6;
		break;
	case THR_MEDIAN:
		c = t->value * (double)median;
		break;
	default:
		return 0;
	}
	c += 0.5;
	if (c < 1)
		return 1;
	if (c > (double)(1ULL << 62))
		return 1ULL << 62;
	return (__u64)c;
}

const char *parse_strerror(int rc)
{
	switch (rc) {
	case -ERANGE:
		return "out of range";
	case -EDOM:
		return "not a multiple of 64 bytes";
	case -EBADMSG:
		return "not a size unit: sizes are binary, say K or KiB (1024 bytes), M or MiB, G or GiB, T or TiB (KB, MB, GB and lowercase units are refused: 1000 or 1024?)";
	default:
		return "invalid value";
	}
}

/** cpulist_has() - is @cpu in a sysfs CPU list such as "0-3,8,10-11\n"? */
bool cpulist_has(const char *list, unsigned int cpu)
{
	const char *p = list;
	char *end;

	while (*p && *p != '\n') {
		unsigned long lo, hi;

		if (!isdigit((unsigned char)*p))
			return false;
		lo = hi = strtoul(p, &end, 10);
		/* "0-3", the kernel's; "0..3", sweep's --cpu's */
		if (*end == '-' || (end[0] == '.' && end[1] == '.')) {
			p = end + (*end == '-' ? 1 : 2);
			if (!isdigit((unsigned char)*p))
				return false;
			hi = strtoul(p, &end, 10);
		}
		if (cpu >= lo && cpu <= hi)
			return true;
		if (*end == ',')
			end++;
		else if (*end && *end != '\n')
			return false;
		p = end;
	}
	return false;
}

static const char *const mode_names[] = {
	[LATT_MODE_LATENCY] = "latency",
	[LATT_MODE_BANDWIDTH] = "bandwidth",
	[LATT_MODE_LOADED] = "loaded",
};

const char *mode_name(__u32 mode)
{
	return mode <= LATT_MODE_MAX ? mode_names[mode] : "?";
}

int parse_mode(const char *s, __u32 *mode)
{
	__u32 i;

	for (i = 0; i <= LATT_MODE_MAX; i++)
		if (!strcmp(s, mode_names[i])) {
			*mode = i;
			return 0;
		}
	return -EINVAL;
}

/**
 * parse_cpulist() - "0-3,8,10-11" into @cpus, in the order written
 * @max: room in @cpus; -ERANGE beyond it or for a CPU >= 2^20
 *
 * Duplicates are kept (the caller says which one is doubled).
 */
int parse_cpulist(const char *s, __u32 *cpus, __u32 max, __u32 *n)
{
	unsigned long lo, hi, c;
	const char *p = s;
	char *end;
	__u32 k = 0;

	while (*p) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		lo = hi = strtoul(p, &end, 10);
		/* "0-3", the kernel's; "0..3", sweep's --cpu's */
		if (*end == '-' || (end[0] == '.' && end[1] == '.')) {
			p = end + (*end == '-' ? 1 : 2);
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			hi = strtoul(p, &end, 10);
		}
		if (hi < lo || hi >= (1UL << 20))
			return -ERANGE;
		for (c = lo; c <= hi; c++) {
			if (k >= max)
				return -ERANGE;
			cpus[k++] = (__u32)c;
		}
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	if (!k)
		return -EINVAL;
	*n = k;
	return 0;
}

/** parse_duration_us() - "1s", "500ms", "250us", "1.5s" into microseconds */
int parse_duration_us(const char *s, __u64 *us)
{
	static const struct { const char *suffix; double scale; } units[] = {
		{ "us", 1 }, { "ms", 1e3 }, { "s", 1e6 },
	};
	const char *end;
	double v;
	size_t i;

	if (parse_decimal(s, &v, &end))
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		v *= units[i].scale;
		if (v < LATT_MIN_DURATION_US || v > LATT_MAX_DURATION_US)
			return -ERANGE;
		*us = (__u64)(v + 0.5);
		return 0;
	}
	return -EINVAL;
}

/** parse_mix() - "R:W", each 0..65535, not both 0 */
int parse_mix(const char *s, __u16 *r, __u16 *w)
{
	unsigned long a, b;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	a = strtoul(s, &end, 10);
	if (*end != ':' || !isdigit((unsigned char)end[1]))
		return -EINVAL;
	b = strtoul(end + 1, &end, 10);
	if (*end)
		return -EINVAL;
	if (a > 0xffff || b > 0xffff || (!a && !b))
		return -ERANGE;
	*r = (__u16)a;
	*w = (__u16)b;
	return 0;
}
