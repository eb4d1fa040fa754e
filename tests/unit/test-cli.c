// SPDX-License-Identifier: GPL-2.0
/*
 * test-cli.c - host unit test of lattester-ctl's option parsers (parse.c)
 * and latency math (stats.c): no module, no root.  TAP-like output, a
 * closing "cli: N passed, N failed" line, non-zero exit on a failure.
 *
 *   make -C user test-cli && ./user/test-cli
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lattester/hist.h>
#include "parse.h"
#include "stats.h"
#include "../tap.h"

typedef int (*parse_u64_fn)(const char *, __u64 *);

/* @fn(@s) returns @rc and, on success, @want. */
static void t_u64(const char *what, parse_u64_fn fn, const char *s, int rc,
		  __u64 want)
{
	__u64 v = 0xdead;
	int got = fn(s, &v);

	check(got == rc && (rc || v == want), "%s(\"%s\") = %d, %llu", what, s,
	      got, (unsigned long long)v);
}

static void test_numbers(void)
{
	__u32 v32 = 0;

	t_u64("u64", parse_u64, "0", 0, 0);
	t_u64("u64", parse_u64, "12345", 0, 12345);
	t_u64("u64", parse_u64, "0x1a77e57e", 0, 0x1a77e57e);
	t_u64("u64", parse_u64, "0XfF", 0, 255);
	t_u64("u64", parse_u64, "18446744073709551615", 0, ~0ULL);
	t_u64("u64", parse_u64, "18446744073709551616", -ERANGE, 0);
	t_u64("u64", parse_u64, "0x10000000000000000", -ERANGE, 0);
	t_u64("u64", parse_u64, "-1", -EINVAL, 0);
	t_u64("u64", parse_u64, "+1", -EINVAL, 0);
	t_u64("u64", parse_u64, " 1", -EINVAL, 0);
	t_u64("u64", parse_u64, "1 ", -EINVAL, 0);
	t_u64("u64", parse_u64, "", -EINVAL, 0);
	t_u64("u64", parse_u64, "0x", -EINVAL, 0);
	t_u64("u64", parse_u64, "12abc", -EINVAL, 0);
	t_u64("u64", parse_u64, "1.5", -EINVAL, 0);
	check(!parse_u32("4294967295", &v32) && v32 == 4294967295U,
	      "u32 max accepted");
	check(parse_u32("4294967296", &v32) == -ERANGE, "u32 overflow rejected");
	check(parse_u32("x", &v32) == -EINVAL, "u32 garbage rejected");
}

static void test_sizes(void)
{
	t_u64("size", parse_size, "64", 0, 64);
	t_u64("size", parse_size, "64B", 0, 64);
	t_u64("size", parse_size, "4K", 0, 4096);
	t_u64("size", parse_size, "4KiB", 0, 4096);
	t_u64("size", parse_size, "2M", 0, 2ULL << 20);
	t_u64("size", parse_size, "2MiB", 0, 2ULL << 20);
	t_u64("size", parse_size, "1G", 0, 1ULL << 30);
	t_u64("size", parse_size, "3GiB", 0, 3ULL << 30);
	t_u64("size", parse_size, "1T", 0, 1ULL << 40);
	t_u64("size", parse_size, "1TiB", 0, 1ULL << 40);
	t_u64("size", parse_size, "0", 0, 0);
	t_u64("size", parse_size, "16777215T", 0, 16777215ULL << 40);
	t_u64("size", parse_size, "16777216T", -ERANGE, 0);
	t_u64("size", parse_size, "17179869184G", -ERANGE, 0);
	t_u64("size", parse_size, "99999999999999999999", -ERANGE, 0);
	t_u64("size", parse_size, "4KB", -EINVAL, 0);
	t_u64("size", parse_size, "4k", -EINVAL, 0);
	t_u64("size", parse_size, "4 K", -EINVAL, 0);
	t_u64("size", parse_size, "K", -EINVAL, 0);
	t_u64("size", parse_size, "-4K", -EINVAL, 0);
	t_u64("size", parse_size, "1.5G", -EINVAL, 0);
	t_u64("size", parse_size, "0x40", -EINVAL, 0);
	t_u64("line size", parse_line_size, "64", 0, 64);
	t_u64("line size", parse_line_size, "4K", 0, 4096);
	t_u64("line size", parse_line_size, "0", -ERANGE, 0);
	t_u64("line size", parse_line_size, "100", -EDOM, 0);
	t_u64("line size", parse_line_size, "32", -EDOM, 0);
	t_u64("line size", parse_line_size, "65", -EDOM, 0);
	t_u64("line size", parse_line_size, "bogus", -EINVAL, 0);
	t_u64("line size", parse_line_size, "16777216T", -ERANGE, 0);
}

static void t_name(const char *what, int (*fn)(const char *, __u32 *),
		   const char *s, int rc, __u32 want)
{
	__u32 v = 0xdead;
	int got = fn(s, &v);

	check(got == rc && (rc || v == want), "%s(\"%s\") = %d, %u", what, s,
	      got, v);
}

static void test_names(void)
{
	static const struct {
		const char *name;
		__u32 op;
	} ops[] = {
		{ "load", LATT_OP_LOAD }, { "nt-load", LATT_OP_NT_LOAD },
		{ "store", LATT_OP_STORE }, { "store-clwb", LATT_OP_STORE_CLWB },
		{ "store-clflushopt", LATT_OP_STORE_CLFLUSHOPT },
		{ "store-clflush", LATT_OP_STORE_CLFLUSH },
		{ "nt-store", LATT_OP_NT_STORE },
	};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		t_name("op", parse_op, ops[i].name, 0, ops[i].op);
		check(!strcmp(latt_name(NAMES_OP, ops[i].op), ops[i].name),
		      "op %u is named %s", ops[i].op, ops[i].name);
	}
	t_name("op", parse_op, "bogus", -EINVAL, 0);
	t_name("op", parse_op, "lo", -EINVAL, 0);
	t_name("op", parse_op, "Load", -EINVAL, 0);
	t_name("op", parse_op, "", -EINVAL, 0);
	t_name("fence", parse_fence, "none", 0, LATT_FENCE_NONE);
	t_name("fence", parse_fence, "sfence", 0, LATT_FENCE_SFENCE);
	t_name("fence", parse_fence, "mfence", 0, LATT_FENCE_MFENCE);
	t_name("fence", parse_fence, "default", 0, LATT_FENCE_DEFAULT);
	t_name("fence", parse_fence, "lfence", -EINVAL, 0);
	t_name("width", parse_width, "auto", 0, LATT_WIDTH_AUTO);
	t_name("width", parse_width, "8", 0, 8);
	t_name("width", parse_width, "64", 0, 64);
	t_name("width", parse_width, "24", -ERANGE, 0);
	t_name("width", parse_width, "128", -ERANGE, 0);
	t_name("width", parse_width, "wide", -EINVAL, 0);
	check(!strcmp(latt_name(NAMES_OP, 99), "?"), "unknown op named ?");
	check(!strcmp(latt_name(NAMES_STATE, LATT_STATE_ABORTED), "aborted"),
	      "state names");
	check(!strcmp(latt_name(NAMES_FEATURE, 5), "sse4_1") &&
	      (1ULL << 5) == LATT_FEAT_SSE4_1, "feature bit 5 is sse4_1");
	check(!strcmp(latt_name_list(NAMES_PATTERN),
		      "seq, rand, stride:BYTES, chase, hotspot:BYTES"),
	      "pattern list: %s", latt_name_list(NAMES_PATTERN));
	check(op_features(LATT_OP_NT_LOAD) == LATT_FEAT_SSE4_1 &&
	      op_features(LATT_OP_STORE_CLWB) == LATT_FEAT_CLWB &&
	      op_features(LATT_OP_STORE_CLFLUSHOPT) == LATT_FEAT_CLFLUSHOPT &&
	      op_features(LATT_OP_LOAD) == 0, "op feature requirements");
	check(op_is_store(LATT_OP_NT_STORE) && !op_is_store(LATT_OP_NT_LOAD),
	      "store ops");
}

static void t_pattern(const char *s, int rc, __u32 want, __u64 arg)
{
	__u32 p = 0xdead;
	__u64 a = 0xdead;
	int got = parse_pattern(s, &p, &a);

	check(got == rc && (rc || (p == want && a == arg)),
	      "pattern(\"%s\") = %d, %u, %llu", s, got, p, (unsigned long long)a);
}

static void t_target(const char *s, int rc, __u32 node)
{
	struct target_spec t = { TARGET_PATH, 0xdead, NULL };
	int got = parse_target(s, &t);

	check(got == rc && (rc || (t.kind == TARGET_DRAM && t.node == node &&
				   !t.name)),
	      "target(\"%s\") = %d, node %u", s, got, t.node);
}

/* @s parses as a device path or a namespace name, @name pointing at @s. */
static void t_target_named(const char *s, enum target_kind kind)
{
	struct target_spec t = { TARGET_DRAM, 0xdead, NULL };
	int got = parse_target(s, &t);

	check(!got && t.kind == kind && t.name == s,
	      "target(\"%s\") = %d, kind %d, %s", s, got, t.kind,
	      t.name ? t.name : "(null)");
}

static void test_patterns_targets(void)
{
	t_pattern("seq", 0, LATT_PAT_SEQ, 0);
	t_pattern("rand", 0, LATT_PAT_RAND, 0);
	t_pattern("chase", 0, LATT_PAT_CHASE, 0);
	t_pattern("stride:4096", 0, LATT_PAT_STRIDE, 4096);
	t_pattern("stride:4K", 0, LATT_PAT_STRIDE, 4096);
	t_pattern("hotspot:1MiB", 0, LATT_PAT_HOTSPOT, 1 << 20);
	t_pattern("stride", -EINVAL, 0, 0);
	t_pattern("stride:", -EINVAL, 0, 0);
	t_pattern("stride:100", -EDOM, 0, 0);
	t_pattern("stride:0", -ERANGE, 0, 0);
	t_pattern("stride:-64", -EINVAL, 0, 0);
	t_pattern("hotspot", -EINVAL, 0, 0);
	t_pattern("hotspot:1x", -EINVAL, 0, 0);
	t_pattern("hotspot:16777216T", -ERANGE, 0, 0);
	t_pattern("rand:64", -EINVAL, 0, 0);
	t_pattern("seq:", -EINVAL, 0, 0);
	t_pattern("random", -EINVAL, 0, 0);
	t_pattern(":64", -EINVAL, 0, 0);
	t_pattern("", -EINVAL, 0, 0);
	t_target("dram", 0, LATT_NODE_LOCAL);
	t_target("dram:0", 0, 0);
	t_target("dram:3", 0, 3);
	t_target("dram:", -EINVAL, 0);
	t_target("dram:x", -EINVAL, 0);
	t_target("dram:-1", -EINVAL, 0);
	t_target("dram:4294967295", -ERANGE, 0);
	t_target("dram:4294967296", -ERANGE, 0);
	t_target("dram1", -EINVAL, 0);
	t_target("dramx", -EINVAL, 0);
	t_target("pmem", -EINVAL, 0);
	t_target("DRAM", -EINVAL, 0);
	t_target("", -EINVAL, 0);
	t_target_named("/dev/pmem0", TARGET_PATH);
	t_target_named("/dev/dax0.1", TARGET_PATH);
	t_target_named("/dev/pmem0.2", TARGET_PATH);
	t_target_named("./pmem0", TARGET_PATH);
	t_target_named("/etc/passwd", TARGET_PATH);
	t_target_named("dram/1", TARGET_PATH);
	t_target_named("namespace0.0", TARGET_NAMESPACE);
	t_target_named("namespace12.345", TARGET_NAMESPACE);
	t_target("namespace0", -EINVAL, 0);
	t_target("namespace0.", -EINVAL, 0);
	t_target("namespace.0", -EINVAL, 0);
	t_target("namespace0.0.0", -EINVAL, 0);
	t_target("namespace0.x", -EINVAL, 0);
	t_target("namespacex.0", -EINVAL, 0);
	t_target("namespace-1.0", -EINVAL, 0);
	t_target("Namespace0.0", -EINVAL, 0);
	t_target("namespace0.0 ", -EINVAL, 0);
	t_target("pmem0", -EINVAL, 0);
	t_target("dax0.0", -EINVAL, 0);
}

static void test_offsets(void)
{
	t_u64("offset", parse_offset, "0", 0, 0);
	t_u64("offset", parse_offset, "4096", 0, 4096);
	t_u64("offset", parse_offset, "4K", 0, 4096);
	t_u64("offset", parse_offset, "2MiB", 0, 2ULL << 20);
	t_u64("offset", parse_offset, "1G", 0, 1ULL << 30);
	t_u64("offset", parse_offset, "8192B", 0, 8192);
	t_u64("offset", parse_offset, "64", -EDOM, 0);
	t_u64("offset", parse_offset, "4097", -EDOM, 0);
	t_u64("offset", parse_offset, "6K", -EDOM, 0);
	t_u64("offset", parse_offset, "0x1000", -EINVAL, 0);
	t_u64("offset", parse_offset, "-4K", -EINVAL, 0);
	t_u64("offset", parse_offset, "4k", -EINVAL, 0);
	t_u64("offset", parse_offset, "", -EINVAL, 0);
	t_u64("offset", parse_offset, "16777216T", -ERANGE, 0);
	check(!strcmp(latt_name(NAMES_FEATURE, 12), "pmem") &&
	      (1ULL << 12) == LATT_FEAT_PMEM, "feature bit 12 is pmem");
}

static void test_cpulist(void)
{
	check(cpulist_has("0-3,8,10-11\n", 0), "cpulist: 0 in 0-3");
	check(cpulist_has("0-3,8,10-11\n", 3), "cpulist: 3 in 0-3");
	check(!cpulist_has("0-3,8,10-11\n", 4), "cpulist: 4 not in list");
	check(cpulist_has("0-3,8,10-11\n", 8), "cpulist: single 8");
	check(cpulist_has("0-3,8,10-11\n", 11), "cpulist: 11 at the end");
	check(!cpulist_has("0-3,8,10-11\n", 12), "cpulist: 12 beyond");
	check(cpulist_has("5", 5) && !cpulist_has("", 0), "cpulist: 5, empty");
	check(!cpulist_has("0-x", 1) && !cpulist_has("a", 0),
	      "cpulist: malformed");
}

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

/* 100 samples: 90 at 200 raw cycles, 9 at 300, 1 at 1000; overhead 20. */
static void fill(struct latt_result *r, __u64 *hist, __u32 pattern,
		 __u32 chain)
{
	memset(r, 0, sizeof(*r));
	memset(hist, 0, LATT_HIST_BUCKETS * sizeof(*hist));
	hist[latt_hist_index(200)] = 90;
	hist[latt_hist_index(300)] = 9;
	hist[latt_hist_index(1000)] = 1;
	r->count = 100;
	r->min = 200;
	r->max = 1000;
	r->sum = 90 * 200 + 9 * 300 + 1000;
	r->sum_corrected = r->sum - 100 * 20;
	r->overhead = 20;
	r->config.pattern = pattern;
	r->config.chain = chain;
}

static void test_stats(void)
{
	static __u64 hist[LATT_HIST_BUCKETS];
	struct latt_summary s;
	struct latt_result r;

	check(latt_correct(100, 20) == 80 && latt_correct(10, 20) == 0 &&
	      latt_correct(20, 20) == 0, "correction floors at zero");
	check(near(latt_ns(3000, 3000000), 1000.0), "3000 cycles at 3 GHz");
	check(latt_ns(1, 0) == 0.0, "unknown tsc_khz gives 0 ns");

	fill(&r, hist, LATT_PAT_RAND, 1);
	latt_summarize(&s, &r, hist, 2000000);
	check(!s.per_load && s.chain == 1, "rand: per access");
	check(s.raw[STAT_MIN] == 200 && s.cycles[STAT_MIN] == 180,
	      "min raw 200, corrected 180");
	check(s.raw[STAT_P50] == 200 && s.raw[STAT_P90] == 200,
	      "p50, p90 raw 200");
	check(s.raw[STAT_P99] == 300 && s.cycles[STAT_P99] == 280 &&
	      near(s.ns[STAT_P99], 140.0), "p99 raw 300, 280 cycles, 140 ns");
	check(s.raw[STAT_MAX] == 1000 && s.cycles[STAT_MAX] == 980,
	      "max raw 1000, corrected 980");
	check(s.raw[STAT_P999] >= 1000 && s.raw[STAT_P999] <= 1000,
	      "p99.9 clamped to the exact max: %.0f", s.raw[STAT_P999]);
	check(near(s.raw[STAT_MEAN], 217.0) && near(s.cycles[STAT_MEAN], 197.0) &&
	      near(s.ns[STAT_MEAN], 98.5), "mean raw 217, corrected 197");

	fill(&r, hist, LATT_PAT_CHASE, 4);
	latt_summarize(&s, &r, hist, 2000000);
	check(s.per_load && s.chain == 4, "chase chain 4: per load");
	check(s.cycles[STAT_P50] == 45 && s.raw[STAT_P50] == 200 &&
	      near(s.ns[STAT_P50], 22.5), "p50 per load 45 cycles, raw 200");
	check(near(s.cycles[STAT_MEAN], 49.25), "mean per load 49.25");

	fill(&r, hist, LATT_PAT_RAND, 4);
	latt_summarize(&s, &r, hist, 2000000);
	check(!s.per_load && s.cycles[STAT_P50] == 180,
	      "chain ignored without chase");

	fill(&r, hist, LATT_PAT_RAND, 1);
	r.overhead = 250;
	latt_summarize(&s, &r, hist, 2000000);
	check(s.cycles[STAT_P50] == 0 && s.cycles[STAT_P99] == 50,
	      "overhead above a sample floors it at 0");

	memset(&r, 0, sizeof(r));
	memset(hist, 0, sizeof(hist));
	latt_summarize(&s, &r, hist, 2000000);
	check(s.raw[STAT_P50] == 0 && s.cycles[STAT_MEAN] == 0,
	      "no samples: all zero");
}

int main(void)
{
	test_numbers();
	test_sizes();
	test_names();
	test_patterns_targets();
	test_offsets();
	test_cpulist();
	test_stats();
	return tap_done("cli");
}
