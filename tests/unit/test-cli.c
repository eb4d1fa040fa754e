// SPDX-License-Identifier: GPL-2.0
/*
 * test-cli.c - host unit test of lattester-ctl's option parsers (parse.c),
 * latency math (stats.c), outlier statistics (outstats.c), sweep grid
 * (grid.c), CSV (csv.c), --resume's reading of sweep files
 * (sweep-file.c), a streaming run's duty cycle and disturbance
 * (duty.c) and a latency-bandwidth curve's knee (curve.c): no module, no
 * root.  TAP-like output, a
 * closing "cli: N passed, N failed" line, non-zero exit on a failure.
 *
 *   make -C user test-cli && ./user/test-cli
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>
#include <unistd.h>

#include <lattester/hist.h>
#include <lattester/core.h>
#include <lattester/prng.h>
#include "csv.h"
#include "curve.h"
#include "duty.h"
#include "grid.h"
#include "outstats.h"
#include "parse.h"
#include "stats.h"
#include "sweep-file.h"
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
	/* not binary, or not the case written: refused, saying K or KiB */
	t_u64("size", parse_size, "4KB", -EBADMSG, 0);
	t_u64("size", parse_size, "4k", -EBADMSG, 0);
	t_u64("size", parse_size, "16MB", -EBADMSG, 0);
	t_u64("size", parse_size, "1gb", -EBADMSG, 0);
	t_u64("size", parse_size, "2TB", -EBADMSG, 0);
	t_u64("size", parse_size, "4kib", -EBADMSG, 0);
	t_u64("size", parse_size, "4Kb", -EBADMSG, 0);
	t_u64("size", parse_size, "4X", -EINVAL, 0);
	t_u64("size", parse_size, "4KiBs", -EINVAL, 0);
	check(strstr(parse_strerror(-EBADMSG), "K or KiB") != NULL,
	      "a size unit that isn't binary: the message names K or KiB");
	t_u64("line size", parse_line_size, "4KB", -EBADMSG, 0);
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

static void test_counts(void)
{
	t_u64("count", parse_count, "100000", 0, 100000);
	t_u64("count", parse_count, "0", 0, 0);
	t_u64("count", parse_count, "100k", 0, 100000);
	t_u64("count", parse_count, "10K", 0, 10000);
	t_u64("count", parse_count, "1M", 0, 1000000);
	t_u64("count", parse_count, "2G", 0, 2000000000ULL);
	t_u64("count", parse_count, "1.5M", 0, 1500000);
	t_u64("count", parse_count, "1.5k", 0, 1500);
	t_u64("count", parse_count, "0.5k", 0, 500);
	t_u64("count", parse_count, "1.000", 0, 1);
	t_u64("count", parse_count, "1e6", 0, 1000000);
	t_u64("count", parse_count, "1E6", 0, 1000000);
	t_u64("count", parse_count, "1e+3", 0, 1000);
	t_u64("count", parse_count, "2.5e5", 0, 250000);
	t_u64("count", parse_count, "1e0", 0, 1);
	t_u64("count", parse_count, "0x186a0", 0, 100000);
	t_u64("count", parse_count, "18446744073709551615", 0, ~0ULL);
	t_u64("count", parse_count, "18446744073709551616", -ERANGE, 0);
	t_u64("count", parse_count, "18446744073709551615k", -ERANGE, 0);
	t_u64("count", parse_count, "1e20", -ERANGE, 0);
	t_u64("count", parse_count, "1e999", -ERANGE, 0);
	t_u64("count", parse_count, "1.5", -EINVAL, 0);
	t_u64("count", parse_count, "1.2345k", -EINVAL, 0);
	t_u64("count", parse_count, "1e-3", -EINVAL, 0);
	t_u64("count", parse_count, "1e3k", -EINVAL, 0);
	t_u64("count", parse_count, "1e", -EINVAL, 0);
	t_u64("count", parse_count, "1.k", -EINVAL, 0);
	t_u64("count", parse_count, ".5k", 0, 500);
	t_u64("count", parse_count, "1844674407370955161.5", -EINVAL, 0);
	t_u64("count", parse_count, "1KiB", -EINVAL, 0);
	t_u64("count", parse_count, "1Ki", -EINVAL, 0);
	t_u64("count", parse_count, "1m", -EINVAL, 0);
	t_u64("count", parse_count, "1T", -EINVAL, 0);
	t_u64("count", parse_count, "k", -EINVAL, 0);
	t_u64("count", parse_count, "", -EINVAL, 0);
	t_u64("count", parse_count, "-1", -EINVAL, 0);
	t_u64("count", parse_count, " 1", -EINVAL, 0);
	t_u64("count", parse_count, "1 k", -EINVAL, 0);
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
		{ "movdir64b", LATT_OP_MOVDIR64B },
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
	      op_features(LATT_OP_MOVDIR64B) == LATT_FEAT_MOVDIR64B &&
	      op_features(LATT_OP_LOAD) == 0, "op feature requirements");
	check(!strcmp(latt_name(NAMES_FEATURE, 18), "movdir64b") &&
	      (1ULL << 18) == LATT_FEAT_MOVDIR64B, "feature bit 18 is movdir64b");
	check(op_is_store(LATT_OP_NT_STORE) && op_is_store(LATT_OP_MOVDIR64B) &&
	      !op_is_store(LATT_OP_NT_LOAD) && !op_is_store(LATT_OP_MAX + 1),
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

/* @s parses as the CXL region after its "cxl:" */
static void t_target_cxl(const char *s)
{
	struct target_spec t = { TARGET_DRAM, 0xdead, NULL };
	int got = parse_target(s, &t);

	check(!got && t.kind == TARGET_CXL && t.name == s + 4 &&
	      t.node == LATT_NODE_LOCAL,
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
	t_target_cxl("cxl:region0");
	t_target_cxl("cxl:region12");
	t_target("cxl:", -EINVAL, 0);
	t_target("cxl:regionX", -EINVAL, 0);
	t_target("cxl:foo", -EINVAL, 0);
	t_target("cxl:region", -EINVAL, 0);
	t_target("cxl:region-1", -EINVAL, 0);
	t_target("cxl:region0x", -EINVAL, 0);
	t_target("cxl:region 0", -EINVAL, 0);
	t_target("cxl:region1234567890", -EINVAL, 0);
	t_target("cxl:/dev/dax0.0", -EINVAL, 0);
	t_target("CXL:region0", -EINVAL, 0);
	t_target("region0", -EINVAL, 0);
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
	t_u64("offset", parse_offset, "4k", -EBADMSG, 0);
	t_u64("offset", parse_offset, "", -EINVAL, 0);
	t_u64("offset", parse_offset, "16777216T", -ERANGE, 0);
	check(!strcmp(latt_name(NAMES_FEATURE, 13), "threads") &&
	      (1ULL << 13) == LATT_FEAT_THREADS,
	      "feature bit 13 is threads");
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

/* --cpus, --mode, --duration, --mix (parse.c) */
static void test_thread_opts(void)
{
	__u32 cpus[8], n = 0, mode = 9;
	__u64 us = 0;
	__u16 r = 0, w = 0;

	check(!parse_cpulist("3,0-2,8", cpus, 8, &n) && n == 5 &&
	      cpus[0] == 3 && cpus[1] == 0 && cpus[3] == 2 && cpus[4] == 8,
	      "cpus: 3,0-2,8 in the order written");
	check(!parse_cpulist("1,1", cpus, 8, &n) && n == 2,
	      "cpus: duplicates kept for the caller to name");
	check(parse_cpulist("0-9", cpus, 8, &n) == -ERANGE,
	      "cpus: more than the room: ERANGE");
	check(parse_cpulist("3-1", cpus, 8, &n) == -ERANGE,
	      "cpus: a backwards range: ERANGE");
	/* one list syntax for every CPU option: sweep's "0..3" too */
	check(!parse_cpulist("3,0..2,8", cpus, 8, &n) && n == 5 &&
	      cpus[0] == 3 && cpus[1] == 0 && cpus[3] == 2 && cpus[4] == 8 &&
	      parse_cpulist("0..", cpus, 8, &n) == -EINVAL &&
	      parse_cpulist("0.2", cpus, 8, &n) == -EINVAL,
	      "cpus: 3,0..2,8 as 3,0-2,8; an open or one-dot range refused");
	check(parse_cpulist("", cpus, 8, &n) == -EINVAL &&
	      parse_cpulist("0,", cpus, 8, &n) == -EINVAL &&
	      parse_cpulist("a", cpus, 8, &n) == -EINVAL &&
	      parse_cpulist("0-", cpus, 8, &n) == -EINVAL,
	      "cpus: empty, trailing comma, letters, open range: EINVAL");
	check(!parse_mode("loaded", &mode) && mode == LATT_MODE_LOADED &&
	      !strcmp(mode_name(LATT_MODE_BANDWIDTH), "bandwidth") &&
	      parse_mode("Latency", &mode) == -EINVAL,
	      "mode: names, case-sensitive");
	check(!parse_duration_us("1.5s", &us) && us == 1500000,
	      "duration: 1.5s = 1500000 us");
	check(!parse_duration_us("250ms", &us) && us == 250000 &&
	      !parse_duration_us("3600s", &us) && us == 3600000000ULL,
	      "duration: 250ms, 3600s");
	check(parse_duration_us("999us", &us) == -ERANGE &&
	      parse_duration_us("2h", &us) == -EINVAL &&
	      parse_duration_us("3601s", &us) == -ERANGE &&
	      parse_duration_us("0x10s", &us) == -EINVAL &&
	      parse_duration_us("1e3ms", &us) == -EINVAL &&
	      parse_duration_us("5", &us) == -EINVAL,
	      "duration: below 1 ms, above 1 h, hex, exponents, no unit: "
	      "refused");
	check(!parse_mix("2:1", &r, &w) && r == 2 && w == 1 &&
	      !parse_mix("0:1", &r, &w) && r == 0 && w == 1,
	      "mix: 2:1, 0:1");
	check(parse_mix("0:0", &r, &w) == -ERANGE &&
	      parse_mix("70000:1", &r, &w) == -ERANGE &&
	      parse_mix("2", &r, &w) == -EINVAL &&
	      parse_mix("2:", &r, &w) == -EINVAL &&
	      parse_mix("-1:2", &r, &w) == -EINVAL,
	      "mix: 0:0, overflow, missing halves, signs: refused");
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

/* A normal variate (Box-Muller) from a xorshift64 stream. */
static double normal(__u64 *x)
{
	double u[2];
	int k;

	for (k = 0; k < 2; k++) {
		*x ^= *x << 13;
		*x ^= *x >> 7;
		*x ^= *x << 17;
		u[k] = ((double)(*x >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

/* How often two sets of @n repeats, the second's mean @shift standard
 * deviations up, are said to differ beyond their spread. */
static double beyond_rate(size_t n, double shift, int trials)
{
	double a[16], b[16], p;
	struct latt_spread sa, sb;
	__u64 x = 0x9e3779b97f4a7c15ULL;
	int t, hits = 0;
	size_t k;

	for (t = 0; t < trials; t++) {
		for (k = 0; k < n; k++) {
			a[k] = 300 + 10 * normal(&x);
			b[k] = 300 + 10 * (shift + normal(&x));
		}
		latt_spread_of(&sa, a, n);
		latt_spread_of(&sb, b, n);
		hits += latt_spread_apart(&sa, &sb, &p) == LATT_APART_BEYOND;
	}
	return (double)hits / trials;
}

/*
 * Repeats: the median and range, and the verdict compare gives: repeats of
 * one distribution are said to differ no more often than LATT_SPREAD_P
 * (2/C(10,5) = 0.8% for 5 and 5), a real shift nearly always, and 3 and 3
 * repeats (a chance of 0.1) never.
 */
static void test_spread(void)
{
	const double odd[] = { 5, 1, 4, 2, 3 }, even[] = { 10, 40, 20, 30 };
	struct latt_spread a = { 0 }, b = { 0 };
	double p, same, shifted;

	int rc = latt_spread_of(&a, odd, 5);

	check(!rc && a.median == 3 && a.min == 1 && a.max == 5 && a.n == 5,
	      "spread of 5: median 3, 1 to 5 (%g, %g to %g)",
	      a.median, a.min, a.max);
	rc = latt_spread_of(&b, even, 4);
	check(!rc && b.median == 25 && b.min == 10 && b.max == 40,
	      "spread of 4: median 25 (the middle two's mean), 10 to 40 (%g)",
	      b.median);
	check(latt_spread_of(&a, odd, 0) == -EINVAL, "spread of nothing: EINVAL");
	check(near(latt_apart_chance(5, 5), 2.0 / 252) &&
	      near(latt_apart_chance(3, 3), 0.1) &&
	      near(latt_apart_chance(1, 9), 0.2) && latt_apart_chance(1, 1) == 1,
	      "chance of ranges apart: 2/C(n+m,n) (5,5: %g; 3,3: %g)",
	      latt_apart_chance(5, 5), latt_apart_chance(3, 3));
	a = (struct latt_spread){ 100, 100, 100, 1 };
	b = (struct latt_spread){ 101, 101, 101, 1 };
	check(latt_spread_apart(&a, &b, &p) == LATT_APART_UNKNOWN,
	      "a run each: no spread to go by");
	b = (struct latt_spread){ 95, 90, 99, 40 };
	rc = latt_spread_apart(&a, &b, &p);
	check(rc == LATT_APART_BEYOND && near(p, 2.0 / 41),
	      "a run outside 40 repeats' range: beyond (chance %g)", p);
	b.max = 100;
	check(latt_spread_apart(&a, &b, &p) == LATT_APART_WITHIN,
	      "a run on the edge of the range: within");

	same = beyond_rate(5, 0, 40000);
	shifted = beyond_rate(5, 4, 4000);
	check(same >= 0.005 && same <= 0.011,
	      "5 and 5 repeats of one distribution: beyond in %.2f%% of 40000 (want 0.79%%)",
	      100 * same);
	check(shifted >= 0.9, "5 and 5 repeats 4 sigma apart: beyond in %.1f%% (want >= 90%%)",
	      100 * shifted);
	check(beyond_rate(3, 6, 2000) == 0,
	      "3 and 3 repeats, however far apart: never beyond (chance 0.1)");
}

/*
 * Synthetic runs for the intervals' coverage: @runs runs of @n samples of
 * a lognormal duration (median @median ticks, sigma @sigma), each read off
 * a TSC of quantum @q as a difference of two readings at a random phase
 * (floor(D / q + U) * q: the duration moved to a multiple of q, up or
 * down, unbiased), into a histogram; how often each statistic's interval
 * held the truth (the lognormal's percentile, its mean), and the mean
 * interval width in quanta.
 */
static void ci_coverage(double median, double sigma, double q, __u64 n,
			int runs, double *held, double *width)
{
	static __u64 h[LATT_HIST_BUCKETS];
	static const int st[] = { STAT_P50, STAT_P99, STAT_P999, STAT_MEAN };
	static const double z[] = { 0, 2.3263479, 3.0902323 };
	struct latt_summary sum;
	struct latt_result r;
	__u64 x = 0x9e3779b97f4a7c15ULL, v, i;
	double truth, d, u;
	int run, k;

	for (k = 0; k < 4; k++)
		held[k] = width[k] = 0;
	for (run = 0; run < runs; run++) {
		memset(h, 0, sizeof(h));
		memset(&r, 0, sizeof(r));
		r.min = ~0ULL;
		for (i = 0; i < n; i++) {
			d = median * exp(sigma * normal(&x));
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			u = ((double)(x >> 11) + 0.5) / 9007199254740992.0;
			v = (__u64)(floor(d / q + u) * q + 0.5);
			h[latt_hist_index(v)]++;
			r.sum += v;
			r.min = v < r.min ? v : r.min;
			r.max = v > r.max ? v : r.max;
		}
		r.count = n;
		r.sum_corrected = r.sum;
		latt_summarize(&sum, &r, h, 1000000);
		latt_summarize_ci(&sum, &r, h, q, 1000000);
		for (k = 0; k < 4; k++) {
			truth = k < 3 ? median * exp(sigma * z[k]) :
				median * exp(sigma * sigma / 2);
			if (!sum.has_ci[st[k]])
				continue;
			held[k] += sum.ci_lo[st[k]] <= truth &&
				   truth <= sum.ci_hi[st[k]];
			width[k] += (sum.ci_hi[st[k]] - sum.ci_lo[st[k]]) / q;
		}
	}
	for (k = 0; k < 4; k++) {
		held[k] /= runs;
		width[k] /= runs;
	}
}

/*
 * The 95% intervals (issue 25, item 2) hold the truth about 95% of the
 * time: where the quantum is fine against their width, 93 to 97% of
 * 2000 runs at p50, p99, p99.9 and the mean; where it is as coarse as a
 * DRAM load's dozen quanta, at least 95% (the quantum's widening makes
 * them conservative there), at most about three quanta wide at p50.
 */
static void test_intervals(void)
{
	static const char *const names[] = { "p50", "p99", "p99.9", "mean" };
	double held[4], width[4];
	__u64 l = 0, u = 0;
	int k;

	k = latt_order_ranks(100, 0.5, &l, &u);
	check(!k && l == 40 && u == 61,
	      "the median of 100 samples: [X_(40), X_(61)], the binomial's 95%% (%llu, %llu)",
	      (unsigned long long)l, (unsigned long long)u);
	k = latt_order_ranks(1000000, 0.5, &l, &u);
	check(!k && l == 499020 && u == 500981,
	      "the median of 10^6 (normal approximation): ranks %llu, %llu (500000 -+ 980)",
	      (unsigned long long)l, (unsigned long long)u);
	check(latt_order_ranks(100, 0.999, &l, &u) == -1,
	      "p99.9 of 100 samples: no interval inside them");

	ci_coverage(2000, 0.5, 1, 20000, 2000, held, width);
	for (k = 0; k < 4; k++)
		check(held[k] >= 0.93 && held[k] <= 0.97,
		      "lognormal, quantum 1 tick, 2000 runs of 2x10^4: the %s interval held the truth in %.1f%% (93-97%%; %.1f quanta wide)",
		      names[k], 100 * held[k], width[k]);
	ci_coverage(294, 0.15, 24.45, 100000, 200, held, width);
	for (k = 0; k < 4; k++)
		check(held[k] >= 0.95,
		      "lognormal of 12 quanta of 24.45 ticks, 200 runs of 10^5: the %s interval held the truth in %.1f%% (>= 95%%; %.2f quanta wide)",
		      names[k], 100 * held[k], width[k]);
	check(width[0] <= 3,
	      "... the p50 interval %.2f quanta wide (<= 3)", width[0]);
}

/* a uniform variate in [0, 1) from the xorshift64 stream */
static double uniform(__u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return ((double)(*x >> 11) + 0.5) / 9007199254740992.0;
}

/*
 * A synthetic batch of @n accesses: an overhead of 50 ticks and @n
 * lognormal durations (median @median, sigma @sigma) read off a TSC of
 * quantum @q at a random phase; with chance @dirty, a disturbance of 20k
 * to 100k ticks lands in it (an interrupt, a stolen vCPU: twice as often
 * in a batch twice as long, so that they lengthen the differences).
 */
static __u32 batch_time(__u64 *x, __u32 n, double median, double sigma,
			double q, double dirty)
{
	double d = 50;
	__u32 i;

	for (i = 0; i < n; i++)
		d += median * exp(sigma * normal(x));
	if (uniform(x) < dirty)
		d += 20000 + 80000 * uniform(x);
	return (__u32)(floor(d / q + uniform(x)) * q + 0.5);
}

/*
 * --batch's estimate (issue 25, item 3): over @runs synthetic runs of
 * @pairs pairs of K = @k, how often its 95% interval held the true mean
 * of one access, how often the plain mean of every pair would have, and
 * the share of pairs left out.
 */
static void batch_coverage(__u32 k, __u64 pairs, int runs, double dirty,
			   double *held, double *plain, double *left)
{
	static struct latt_batch_pair p[4096];
	const double median = 300, sigma = 0.5, q = 24.45;
	const double truth = median * exp(sigma * sigma / 2);
	struct latt_batch_est e;
	__u64 x = 0x2545f4914f6cdd1dULL, i;
	int run;

	*held = *plain = *left = 0;
	for (run = 0; run < runs; run++) {
		for (i = 0; i < pairs; i++) {
			p[i].k = batch_time(&x, k, median, sigma, q, dirty);
			p[i].k2 = batch_time(&x, 2 * k, median, sigma, q,
					     2 * dirty);
		}
		if (latt_batch_estimate(p, pairs, k, 1, q, &e) || !e.has_ci)
			continue;
		*held += e.lo <= truth && truth <= e.hi;
		*plain += fabs(e.mean - truth) <= (e.hi - e.lo) / 2;
		*left += (double)e.clipped / (double)pairs;
	}
	*held /= runs;
	*plain /= runs;
	*left /= runs;
}

/*
 * The batch estimate: its interval holds the true cost of one access
 * about 95% of the time, with and without disturbed pairs, which it
 * leaves out (the plain mean of all of them would miss); a cost that
 * never varies comes out exact, below the quantum.
 */
static void test_batch(void)
{
	struct latt_batch_pair p[512];
	double held, plain, left;
	struct latt_batch_est e;
	__u64 x = 7, i;
	int k;

	batch_coverage(8, 2000, 400, 0, &held, &plain, &left);
	check(held >= 0.93 && held <= 0.97,
	      "batch K 8, 400 runs of 2000 pairs, lognormal accesses, quantum 24.45: the interval held the mean in %.1f%% (93-97%%)",
	      100 * held);
	batch_coverage(8, 2000, 400, 0.03, &held, &plain, &left);
	check(held >= 0.93 && held <= 0.97,
	      "... with 3%% of the K batches and 6%% of the 2K ones disturbed by 20k-100k ticks: held in %.1f%% (93-97%%)",
	      100 * held);
	check(left > 0.08 && left < 0.095,
	      "... %.2f%% of the pairs left out (either batch disturbed: 8.8%%)",
	      100 * left);
	check(plain < 0.2,
	      "... where the plain mean of every pair lay within the interval's half width of the truth in %.1f%% (< 20%%)",
	      100 * plain);
	/* 4 ticks an access, a TSC of quantum 2: 64 and 128 accesses */
	for (i = 0; i < 512; i++) {
		p[i].k = (__u32)(floor((50 + 4 * 64) / 2.0 + uniform(&x)) * 2);
		p[i].k2 = (__u32)(floor((50 + 4 * 128) / 2.0 + uniform(&x)) * 2);
	}
	k = latt_batch_estimate(p, 512, 64, 1, 2, &e);
	check(!k && e.has_ci && fabs(e.cycles - 4) < 0.01 && e.lo <= 4 && 4 <= e.hi &&
	      e.hi - e.lo < 0.02 && !e.clipped,
	      "4 ticks an access under a quantum of 2: %.4f [%.4f, %.4f], %llu left out",
	      e.cycles, e.lo, e.hi, (unsigned long long)e.clipped);
	k = latt_batch_estimate(p, 0, 64, 1, 2, &e);
	check(k == -EINVAL && !e.ok, "no pairs: no estimate");
	p[0].k = LATT_BATCH_SAT;
	k = latt_batch_estimate(p, 512, 16, 4, 2, &e);
	check(!k && e.saturated == 1 && !e.clipped && e.kept == 511 &&
	      fabs(e.cycles - 4) < 0.01,
	      "a saturated pair left out, counted apart; a chase of K 16 x chain 4: per load %.4f",
	      e.cycles);
}

/* Percentiles the sample count supports: 10/(1-q) samples at least. */
static void test_supported(void)
{
	static __u64 hist[LATT_HIST_BUCKETS];
	static const struct { enum latt_stat i; __u64 need; } need[] = {
		{ STAT_P50, 20 }, { STAT_P90, 100 }, { STAT_P99, 1000 },
		{ STAT_P999, 10000 }, { STAT_P9999, 100000 },
		{ STAT_P99999, 1000000 }, { STAT_P999999, 10000000 },
	};
	struct latt_summary s;
	struct latt_result r;
	char note[512];
	size_t k;

	for (k = 0; k < sizeof(need) / sizeof(need[0]); k++) {
		enum latt_stat i = need[k].i;

		check(latt_pct_min_samples(latt_stats[i].ppm) == need[k].need &&
		      latt_stat_supported(need[k].need, i) &&
		      !latt_stat_supported(need[k].need - 1, i),
		      "%s needs %llu samples", latt_stats[i].name,
		      (unsigned long long)need[k].need);
	}
	check(latt_stat_supported(1, STAT_MIN) && latt_stat_supported(1, STAT_MAX) &&
	      latt_stat_supported(1, STAT_MEAN), "min, max, mean: always");
	check(latt_pct_min_samples(0) == 1 && latt_pct_min_samples(1000000) == 1,
	      "the 0th and 100th percentile need one sample");
	check(latt_pct_min_samples(950000) == 200 &&
	      latt_pct_min_samples(999999) == 10000000,
	      "p95 needs 200, p99.9999 10^7");

	fill(&r, hist, LATT_PAT_RAND, 1);	/* 100 samples */
	latt_summarize(&s, &r, hist, 2000000);
	check(s.count == 100 && s.supported[STAT_P50] && s.supported[STAT_P90] &&
	      !s.supported[STAT_P99] && !s.supported[STAT_P999999] &&
	      s.supported[STAT_MAX] && s.supported[STAT_MEAN] &&
	      s.nr_unsupported == 5, "100 samples: p50, p90 supported, not "
	      "p99 and beyond (%u unsupported)", s.nr_unsupported);
	check(s.raw[STAT_P99] == 300, "an unsupported figure is still computed");
	latt_unsupported_note(note, sizeof(note), &s, true);
	check(!strcmp(note, "100 samples are too few for p99 (1000 needed), "
		      "p99.9 (10000) and p99.99 (100000): a percentile q needs "
		      "10/(1-q) samples, 10 beyond it; with fewer it is one of "
		      "the few largest samples"), "the table's note: %s", note);
	latt_unsupported_note(note, sizeof(note), &s, false);
	check(strstr(note, "p99.99 (100000), p99.999 (1000000) and p99.9999 "
		     "(10000000): ") != NULL, "the JSON's note names all: %s",
	      note);
	r.count = 1000000;
	hist[latt_hist_index(200)] = 1000000 - 10;
	latt_summarize(&s, &r, hist, 2000000);
	check(s.supported[STAT_P99999] && !s.supported[STAT_P999999] &&
	      s.nr_unsupported == 1 &&
	      latt_unsupported_note(note, sizeof(note), &s, true) == 0 &&
	      !note[0], "10^6 samples: only p99.9999 unsupported, not in the "
	      "table: no note");
	check(latt_unsupported_note(note, 40, &s, false) < 40,
	      "the note fits a short buffer");
}


static void t_thr(const char *s, int rc, enum threshold_kind kind,
		  double value)
{
	struct threshold_spec t = { THR_CYCLES, -1, "unset" };
	int got = parse_threshold(s, &t);

	check(got == rc && (rc || (t.kind == kind && near(t.value, value) &&
				   !strcmp(t.text, s))),
	      "threshold(\"%s\") = %d, kind %d, %g", s, got, t.kind, t.value);
}

static void test_thresholds(void)
{
	struct threshold_spec t;

	t_thr("2000", 0, THR_CYCLES, 2000);
	t_thr("0x7d0", 0, THR_CYCLES, 2000);
	t_thr("0", 0, THR_OFF, 0);
	t_thr("500ns", 0, THR_NS, 500);
	t_thr("2us", 0, THR_NS, 2000);
	t_thr("2\xc2\xb5s", 0, THR_NS, 2000);
	t_thr("1.5us", 0, THR_NS, 1500);
	t_thr(".5us", 0, THR_NS, 500);
	t_thr("1ms", 0, THR_NS, 1e6);
	t_thr("0us", 0, THR_OFF, 0);
	t_thr("10x", 0, THR_MEDIAN, 10);
	t_thr("2.5x", 0, THR_MEDIAN, 2.5);
	t_thr("0x", -EINVAL, 0, 0);
	t_thr("0.0x", -ERANGE, 0, 0);
	t_thr("2000000x", -ERANGE, 0, 0);
	t_thr("2000001s", -EINVAL, 0, 0);
	t_thr("2000000000ms", -ERANGE, 0, 0);
	t_thr("1.5", -EINVAL, 0, 0);
	t_thr("-5", -EINVAL, 0, 0);
	t_thr("10 x", -EINVAL, 0, 0);
	t_thr("x", -EINVAL, 0, 0);
	t_thr("us", -EINVAL, 0, 0);
	t_thr("", -EINVAL, 0, 0);
	t_thr("5s", -EINVAL, 0, 0);
	t_thr("18446744073709551616", -ERANGE, 0, 0);
	t_thr("123456789012345678901234567890123x", -EINVAL, 0, 0);

	parse_threshold("2000", &t);
	check(threshold_cycles(&t, 3000000, 0) == 2000, "cycles stay cycles");
	parse_threshold("2us", &t);
	check(threshold_cycles(&t, 3000000, 0) == 6000, "2us at 3 GHz: 6000");
	parse_threshold("500ns", &t);
	check(threshold_cycles(&t, 2100000, 0) == 1050, "500ns at 2.1 GHz: 1050");
	parse_threshold("0.1ns", &t);
	check(threshold_cycles(&t, 1000000, 0) == 1, "a tiny time: at least 1");
	parse_threshold("10x", &t);
	check(threshold_cycles(&t, 2000000, 180) == 1800, "10x of 180: 1800");
	check(threshold_cycles(&t, 2000000, 0) == 1, "10x of 0: at least 1");
	parse_threshold("2.5x", &t);
	check(threshold_cycles(&t, 2000000, 101) == 253, "2.5x of 101: 252.5 rounds to 253");
	parse_threshold("0", &t);
	check(threshold_cycles(&t, 2000000, 180) == 0, "off: 0");
}

static void t_spacing(__u64 *g, size_t n, __u64 value, __u64 count,
		      const char *what)
{
	struct latt_spacing s;

	latt_spacing_mode(g, n, &s);
	check(s.value == value && s.count == count && s.of == n,
	      "spacing %s: %llu (%llu of %llu), want %llu (%llu)", what,
	      (unsigned long long)s.value, (unsigned long long)s.count,
	      (unsigned long long)s.of, (unsigned long long)value,
	      (unsigned long long)count);
}

static void test_outliers(void)
{
	static struct latt_outlier rec[64];
	struct outlier_summary s;
	__u64 g[16];
	size_t i, n = 0;

	t_spacing(g, 0, 0, 0, "of nothing");
	g[0] = 7;
	t_spacing(g, 1, 7, 1, "of one gap");
	/* a timer: 4 ms +- 0.2% jitter, among stray gaps */
	for (i = 0; i < 8; i++)
		g[i] = 8000000 + (i % 3) * 8000 - 8000;
	g[8] = 100;
	g[9] = 2500000;
	g[10] = 123;
	t_spacing(g, 11, 8000000, 8, "of a jittery period");
	/* exact small gaps: 5 wins over 1 and 300 */
	__u64 h[] = { 5, 5, 5, 1, 300, 5, 9 };
	t_spacing(h, 7, 5, 4, "of small exact gaps");
	/* a tie goes to the smaller gaps */
	__u64 k[] = { 1000, 50, 1000, 50 };
	t_spacing(k, 4, 50, 2, "tie");

	/* records every 1000 samples (2 us apart), one of them with an NMI,
	 * and a burst of 3 consecutive samples */
	for (i = 0; i < 10; i++) {
		memset(&rec[n], 0, sizeof(rec[n]));
		rec[n].sample = 500 + i * 1000;
		rec[n].tsc = rec[n].sample * 4;
		rec[n].flags = i == 3 ? LATT_OUT_NMI : 0;
		n++;
	}
	for (i = 0; i < 3; i++) {
		memset(&rec[n], 0, sizeof(rec[n]));
		rec[n].sample = 20000 + i;
		rec[n].tsc = rec[n].sample * 4;
		rec[n].flags = LATT_OUT_NMI;
		n++;
	}
	check(!outlier_summarize(&s, rec, n, 20, 7, 100000),
	      "summarize 13 records");
	check(s.count == 20 && s.recorded == 13 && s.dropped == 7,
	      "counts: 20 outliers, 13 recorded, 7 dropped");
	check(near(s.rate, 0.0002), "rate 20 / 100000");
	check(s.nmi == 4, "4 records in NMI windows: %llu",
	      (unsigned long long)s.nmi);
	check(s.samples.value == 1000 && s.samples.count == 9 &&
	      s.samples.of == 12, "spacing 1000 samples, 9 of 12 gaps");
	check(s.cycles.value == 4000 && s.cycles.count == 9,
	      "spacing 4000 cycles, 9 of 12");
	check(!outlier_summarize(&s, rec, 1, 1, 0, 0) && s.rate == 0 &&
	      s.samples.of == 0 && s.samples.value == 0,
	      "one record, no samples: no spacing, rate 0");
}

/*
 * The records' causes (issue 26, outstats.c over cause.h): the module's
 * NMI flags, windows matched by thread and index (one thread's evidence
 * never explains another's records), a record without evidence unknown,
 * and the tail without interference: the run less exactly the records an
 * event explains.
 */
static void test_causes(void)
{
	static struct latt_outlier rec[16];
	static __u64 hist[LATT_HIST_BUCKETS];
	struct cause_summary cs;
	struct latt_wev wev[2];
	struct latt_result r;
	__u64 corr[16], sum = 0;
	double share = 0;
	size_t i, n = 4;
	int c, rc;

	memset(rec, 0, sizeof(rec));
	memset(&cs, 0, sizeof(cs));
	/* the module: window 0 holds two records and an NMI, 1 and 2 one */
	for (i = 0; i < n; i++) {
		rec[i].sample = 100 * i;
		rec[i].window = i ? i - 1 : 0;
		rec[i].cycles = 5000 + 1000 * i;
		corr[i] = rec[i].cycles - 20;
	}
	rec[0].flags = rec[1].flags = LATT_OUT_NMI;
	cs.on = true;
	cs.from_flags = true;	/* a module without windows' evidence */
	cs.sources = LATT_EVS_NMI | LATT_EVS_IRQ_OFF;
	rc = outlier_causes(&cs, rec, corr, n, NULL, 0);
	check(!rc && cs.of[0] == LATT_CAUSE_UNASSIGNED && cs.of[1] == LATT_CAUSE_NMI &&
	      cs.of[2] == LATT_CAUSE_NONE && cs.of[3] == LATT_CAUSE_NONE,
	      "the module's records: one NMI to the larger of its window's two, the other (before it) unassigned, quiet windows none seen (%s, %s, %s, %s)",
	      latt_cause_name(cs.of[0]), latt_cause_name(cs.of[1]),
	      latt_cause_name(cs.of[2]), latt_cause_name(cs.of[3]));
	for (c = 0; c < LATT_CAUSE_KINDS; c++) {
		sum += cs.count[c];
		share += (double)cs.cycles[c] / (double)cs.total_cycles;
	}
	check(sum == n && near(share, 1.0),
	      "the counts add up to the records (%llu), the time shares to 1 (%.6f)",
	      (unsigned long long)sum, share);
	cs.on = false;		/* a module that counts no NMI */
	rc = outlier_causes(&cs, rec, corr, n, NULL, 0);
	check(!rc && cs.count[LATT_CAUSE_UNKNOWN] == n,
	      "a module that counts no NMIs: every record unknown (%llu unknown)",
	      (unsigned long long)cs.count[LATT_CAUSE_UNKNOWN]);

	/* the user engine, two threads, both in their window 5: cpu 1's
	 * was switched out, cpu 0's was quiet; a third record, no evidence */
	memset(rec, 0, sizeof(rec));
	memset(wev, 0, sizeof(wev));
	for (i = 0; i < 3; i++) {
		rec[i].sample = 10 + i;
		rec[i].window = 5;
		rec[i].cpu = i ? 1 : 0;
		rec[i].cycles = 9000;
		corr[i] = 9000;
	}
	rec[2].window = 6;
	wev[0].cpu = 0;
	wev[1].cpu = 1;
	wev[0].window = wev[1].window = 5;
	wev[0].sources = wev[1].sources = LATT_EVS_ALL & ~LATT_EVS_IRQ_OFF;
	wev[1].ev[LATT_CAUSE_PREEMPTED] = 1;
	cs.on = true;
	cs.from_flags = false;
	cs.sources = wev[0].sources;
	rc = outlier_causes(&cs, rec, corr, 3, wev, 2);
	check(!rc && cs.of[0] == LATT_CAUSE_NONE && cs.of[1] == LATT_CAUSE_PREEMPTED &&
	      cs.of[2] == LATT_CAUSE_UNKNOWN,
	      "two threads' window 5: each record by its own thread's evidence; a window without evidence unknown (%s, %s, %s)",
	      latt_cause_name(cs.of[0]), latt_cause_name(cs.of[1]),
	      latt_cause_name(cs.of[2]));

	/* the clean tail: 20000 samples of 200 cycles, 10 of 50000 (9
	 * recorded), five of them explained by events */
	memset(hist, 0, sizeof(hist));
	memset(&r, 0, sizeof(r));
	memset(rec, 0, sizeof(rec));
	hist[latt_hist_index(200)] = 20000 - 10;
	hist[latt_hist_index(50000)] = 10;
	r.count = 20000;
	r.overhead = 0;
	r.min = 200;
	r.max = 50000;
	r.sum = r.sum_corrected = 19990ULL * 200 + 10ULL * 50000;
	r.config.chain = 1;
	n = 9;
	for (i = 0; i < n; i++) {
		rec[i].cycles = 50000;
		rec[i].window = i;
		corr[i] = 50000;
	}
	free(cs.of);
	cs.of = calloc(n, 1);
	for (i = 0; i < n; i++)
		cs.of[i] = i < 5 ? LATT_CAUSE_PREEMPTED : LATT_CAUSE_NONE;
	rc = cause_clean_tail(&cs, &r, hist, rec, corr, n, 2000000);
	check(!rc && cs.clean_count == 20000 - 5 &&
	      near(cs.clean_cycles[CLEAN_MEAN],
		   (19990.0 * 200 + 5.0 * 50000) / 19995.0),
	      "clean tail: five explained records out, %llu samples, mean %.3f cycles",
	      (unsigned long long)cs.clean_count, cs.clean_cycles[CLEAN_MEAN]);
	check(cs.clean_cycles[CLEAN_P9999] >= 49000,
	      "clean tail: the five unexplained stay in its p99.99 (%.0f cycles)",
	      cs.clean_cycles[CLEAN_P9999]);
	for (i = 0; i < n; i++)
		cs.of[i] = LATT_CAUSE_PREEMPTED;
	cs.of[5] = LATT_CAUSE_AFTER;
	rc = cause_clean_tail(&cs, &r, hist, rec, corr, n, 2000000);
	check(!rc && cs.clean_count == 20000 - 9 &&
	      cs.clean_cycles[CLEAN_P9999] < 400,
	      "clean tail: nine out (after counts as interference), p99.99 %.0f cycles: the one left is beyond it",
	      cs.clean_cycles[CLEAN_P9999]);
	free(cs.of);
}

/* test_duty()'s TSC: 2 GHz, 2000 cycles a microsecond */
#define DUTY_KHZ	2000000ULL
#define US(x)		((__u64)((x) * 2000.0))

/*
 * A streaming run as either engine reports it: the result and one record
 * per thread.  Thread 0 streams (bandwidth) or times (loaded), the others
 * stream; each streaming thread ran @windows windows, the longest
 * @longest_us, from the common start (1000) to @end_us; the run asked
 * for @duration_us (bandwidth).
 */
static void duty_run(struct latt_result *r, struct latt_thread_stats *st,
		     __u32 n, __u32 mode, __u64 duration_us, double end_us,
		     __u64 windows, double longest_us)
{
	__u32 i;

	memset(r, 0, sizeof(*r));
	memset(st, 0, n * sizeof(*st));
	r->state = LATT_STATE_DONE;
	r->config.mode = mode;
	r->config.duration_us = duration_us;
	r->config.window_us = 500;
	r->config.nr_threads = n;
	r->tsc_start = 1000;
	r->tsc_end = 1000 + US(end_us);
	for (i = 0; i < n; i++) {
		st[i].cpu = i;
		st[i].role = mode == LATT_MODE_LOADED && !i ?
			     LATT_ROLE_LATENCY : LATT_ROLE_STREAM;
		st[i].tsc_start = 1000;
		st[i].tsc_end = r->tsc_end;
		st[i].windows = windows;
		st[i].window_cycles_max = US(longest_us);
		if (st[i].window_cycles_max > r->window_cycles_max)
			r->window_cycles_max = st[i].window_cycles_max;
		r->windows += windows;
	}
}

static void test_duty(void)
{
	struct latt_thread_stats st[2];
	struct latt_result r;
	struct run_duty d;
	char w[320] = "", q[320] = "untouched";
	bool warned;

	/* issue 27: --duration 10ms took 64 ms, one window of 61.6 ms; 6
	 * windows in all (5 before it, in the 2.4 ms left) */
	duty_run(&r, st, 1, LATT_MODE_BANDWIDTH, 10000, 64000, 6, 61600);
	duty_of(&d, &r, st, 1, DUTY_KHZ, 0);
	warned = duty_warning(&d, DUTY_KHZ, w, sizeof(w));
	check(d.streams && d.known && d.over && d.long_window && d.low &&
	      near(d.share, 6 * 500.0 / 64000) &&
	      near(duty_thread(&d, &st[0]), d.share),
	      "disturbed bandwidth run: over its --duration, a long window, duty cycle %.4f (6 windows of 500 us in 64 ms)",
	      d.share);
	check(warned && strstr(w, "the run took 64.0 ms, over 10% past its --duration of 10.0 ms") &&
	      strstr(w, "a window lasted 61.6 ms, over 2 x --window-us (500 us) + 1.0 ms") &&
	      strstr(w, "the streams ran 5% of the run (duty cycle): a thread lost its CPU") &&
	      strstr(w, "the GB/s count the time lost"),
	      "... its warning says so: '%s'", w);

	/* the same run quiet: 10.02 ms, 20 windows, the longest 520 us */
	duty_run(&r, st, 1, LATT_MODE_BANDWIDTH, 10000, 10020, 20, 520);
	duty_of(&d, &r, st, 1, DUTY_KHZ, 0);
	warned = duty_warning(&d, DUTY_KHZ, q, sizeof(q));
	check(d.known && !duty_disturbed(&d) && near(d.share, 1.0) &&
	      !warned && !strcmp(q, "untouched"),
	      "quiet bandwidth run: no warning, duty cycle %.4f", d.share);

	/* the module's thread held off between its windows (cond_resched):
	 * 1 s, half the windows it holds, every one of them quiet */
	duty_run(&r, st, 2, LATT_MODE_BANDWIDTH, 1000000, 1000100, 1000, 505);
	duty_of(&d, &r, st, 2, DUTY_KHZ, 0);
	warned = duty_warning(&d, DUTY_KHZ, w, sizeof(w));
	check(!d.over && !d.long_window && d.low &&
	      fabs(d.share - 0.505) < 0.001 && warned &&
	      !strstr(w, "took") && !strstr(w, "lasted") &&
	      strstr(w, "streamed") == NULL &&
	      strstr(w, "the streams ran 50% of the run (duty cycle)"),
	      "threads held off between quiet windows: the duty cycle alone (%.4f) warns: '%s'",
	      d.share, w);

	/* the user engine preempted inside every window for a slice of
	 * 1.5 ms: none beyond 2 x 500 us + 1 ms, each counted as 500 us */
	duty_run(&r, st, 1, LATT_MODE_BANDWIDTH, 200000, 200100, 100, 2000);
	duty_of(&d, &r, st, 1, DUTY_KHZ, 0);
	warned = duty_warning(&d, DUTY_KHZ, w, sizeof(w));
	check(!d.over && !d.long_window && d.low &&
	      near(d.share, 0.25 * 200000 / 200100) && warned &&
	      strstr(w, "the streams ran 25% of the run (duty cycle)"),
	      "preempted for 1.5 ms in every window: duty cycle %.4f, a warning: '%s'",
	      d.share, w);

	/* windows a batch past --window-us each (--window-us near its
	 * floor, a slow target): taken as their longest, no warning */
	duty_run(&r, st, 1, LATT_MODE_BANDWIDTH, 1000000, 1000010, 1000000 / 13,
		 13);
	r.config.window_us = 10;
	duty_of(&d, &r, st, 1, DUTY_KHZ, 0);
	check(!duty_disturbed(&d) && d.share > 0.99,
	      "windows of 13 us for --window-us 10: quiet, duty cycle %.4f",
	      d.share);

	/* a config without its window: the engine's default */
	duty_run(&r, st, 1, LATT_MODE_BANDWIDTH, 10000, 10020, 20, 520);
	r.config.window_us = 0;
	duty_of(&d, &r, st, 1, DUTY_KHZ, 500);
	check(d.window == US(500) && !duty_disturbed(&d),
	      "--window-us 0: the engine's default window (%llu cycles)",
	      (unsigned long long)d.window);

	/* loaded: the timing thread's 20 ms and a window are the yardstick */
	duty_run(&r, st, 2, LATT_MODE_LOADED, 0, 20300, 40, 510);
	st[0].tsc_end = 1000 + US(20000);
	duty_of(&d, &r, st, 2, DUTY_KHZ, 0);
	check(d.asked == US(20000) && !duty_disturbed(&d) &&
	      d.nstream == 1 && near(duty_thread(&d, &st[0]), -1),
	      "quiet loaded run: the timing thread's time asked, no warning, no duty cycle of its own");
	duty_run(&r, st, 2, LATT_MODE_LOADED, 0, 30000, 40, 510);
	st[0].tsc_end = 1000 + US(20000);
	duty_of(&d, &r, st, 2, DUTY_KHZ, 0);
	warned = duty_warning(&d, DUTY_KHZ, w, sizeof(w));
	check(d.over && warned &&
	      strstr(w, "the traffic ran 30.0 ms, over 10% past the timing thread's 20.0 ms + a window") &&
	      strstr(w, "the samples had less traffic than asked"),
	      "loaded run whose traffic ended 10 ms late: '%s'", w);

	/* the longest sentence fits the reports' 320 bytes: a loaded run of
	 * 2^40 samples (a day and more) */
	duty_run(&r, st, 2, LATT_MODE_LOADED, 0, 999999999999.0, 7, 99999999);
	st[0].tsc_end = 1000 + US(199999999999.0);
	r.config.window_us = 100000;
	duty_of(&d, &r, st, 2, DUTY_KHZ, 0);
	warned = duty_warning(&d, DUTY_KHZ, w, sizeof(w));
	check(warned && d.over && d.long_window && d.low &&
	      strlen(w) < sizeof(w) - 1 &&
	      strstr(w, "than asked") == w + strlen(w) - strlen("than asked"),
	      "every part at once, the longest times: %zu bytes, whole",
	      strlen(w));

	/* a buffer too small: cut, terminated, nothing written past it */
	{
		char small[24];

		memset(small, 'x', sizeof(small));
		warned = duty_warning(&d, DUTY_KHZ, small, 16);
		check(warned && strlen(small) == 15 && small[16] == 'x' &&
		      !strncmp(small, "streaming distu", 15),
		      "a sentence cut to 16 bytes: '%s', the rest untouched",
		      small);
	}

	/* not held to its --duration once stopped; latency runs: nothing */
	duty_run(&r, st, 1, LATT_MODE_BANDWIDTH, 10000, 64000, 128, 500);
	r.state = LATT_STATE_ABORTED;
	duty_of(&d, &r, st, 1, DUTY_KHZ, 0);
	check(!d.over && !duty_disturbed(&d),
	      "an aborted bandwidth run is not held to its --duration");
	duty_run(&r, st, 1, LATT_MODE_LATENCY, 0, 64000, 6, 61600);
	st[0].role = LATT_ROLE_LATENCY;
	duty_of(&d, &r, st, 1, DUTY_KHZ, 0);
	check(!d.streams && !d.known && !duty_disturbed(&d) &&
	      !duty_warning(&d, DUTY_KHZ, w, sizeof(w)),
	      "a latency run: no streams, no duty cycle, no warning");
	/* a run of no time (stopped at once): no duty cycle */
	duty_run(&r, st, 1, LATT_MODE_BANDWIDTH, 10000, 0, 1, 0);
	duty_of(&d, &r, st, 1, DUTY_KHZ, 0);
	check(!d.known && near(duty_thread(&d, &st[0]), -1) &&
	      !duty_disturbed(&d),
	      "a bandwidth run of no time: duty cycle unknown, no warning");
}

static void t_list(const char *s, enum list_kind kind, int rc,
		   const __u64 *want, size_t n)
{
	struct u64_list l = { 0 };
	int got = parse_u64_list(s, kind, &l);
	bool same = got == rc && (rc || l.n == n);
	size_t i;

	for (i = 0; same && !rc && i < n; i++)
		same = l.v[i] == want[i];
	check(same, "list(\"%s\") = %d, %zu values", s, got, l.n);
	u64_list_free(&l);
}

static void test_grid(void)
{
	static const __u64 geo[] = { 64, 128, 256, 512, 1024, 2048, 4096 };
	static const __u64 ari[] = { 64, 192, 320, 448 };
	static const __u64 mix[] = { 8, 4096, 16384, 65536, 100 };
	static const __u64 cpus[] = { 0, 1, 2, 3, 7 };
	static const __u64 big[] = { 1ULL << 20, 4ULL << 20 };
	struct sweep_grid g = { 0 };
	struct str_list sl = { 0 };
	struct u64_list v = { 0 };
	struct grid_point p;
	char key[512];

	t_list("64..4096x2", LIST_SIZES, 0, geo, 7);
	t_list("64..5000x2", LIST_SIZES, 0, geo, 7);
	t_list("64..512+128", LIST_SIZES, 0, ari, 4);
	t_list("8,4K..64Kx4,100", LIST_SIZES, 0, mix, 5);
	t_list("1M..4MiBx4", LIST_SIZES, 0, big, 2);
	t_list("0..3,7", LIST_NUMBERS, 0, cpus, 5);
	/* the kernel's syntax, as run --cpus and taskset write it */
	t_list("0-3,7", LIST_NUMBERS, 0, cpus, 5);
	t_list("3-1", LIST_NUMBERS, -ERANGE, NULL, 0);
	t_list("64-128", LIST_SIZES, -EINVAL, NULL, 0);
	t_list("64", LIST_SIZES, 0, geo, 1);
	t_list("64..4096", LIST_SIZES, -EINVAL, NULL, 0);
	t_list("64..4096x1", LIST_SIZES, -ERANGE, NULL, 0);
	t_list("64..4096+0", LIST_SIZES, -ERANGE, NULL, 0);
	t_list("4096..64x2", LIST_SIZES, -ERANGE, NULL, 0);
	t_list("0..64x2", LIST_SIZES, -ERANGE, NULL, 0);
	t_list("64,,128", LIST_SIZES, -EINVAL, NULL, 0);
	t_list("64,", LIST_SIZES, -EINVAL, NULL, 0);
	t_list("1..1000000", LIST_NUMBERS, -E2BIG, NULL, 0);
	t_list("0x1", LIST_NUMBERS, -EINVAL, NULL, 0);
	t_list("18446744073709551615..18446744073709551615+1", LIST_NUMBERS,
	       0, (const __u64[]){ ~0ULL }, 1);
	t_list("1..18446744073709551615x4294967296", LIST_NUMBERS, 0,
	       (const __u64[]){ 1, 1ULL << 32 }, 2);

	check(!parse_str_list("load,store-clwb,nt-store", &sl) && sl.n == 3 &&
	      !strcmp(sl.v[2], "nt-store") && str_list_has(&sl, "store-clwb"),
	      "string list");
	check(parse_str_list("a,,b", &sl) == -EINVAL, "empty item refused");
	str_list_free(&sl);

	parse_str_list("dram:0,dram:1", &g.targets);
	parse_u64_list("0", LIST_NUMBERS, &g.cpus);
	parse_str_list("load,nt-store", &g.ops);
	parse_str_list("default", &g.fences);
	parse_str_list("seq", &g.patterns);
	parse_u64_list("4K,64K", LIST_SIZES, &v);
	grid_add_pattern_values(&g, "hotspot", &v);
	u64_list_free(&v);
	parse_u64_list("64..256x2", LIST_SIZES, &g.sizes);
	check(g.patterns.n == 3 && !strcmp(g.patterns.v[1], "hotspot:4096") &&
	      !strcmp(g.patterns.v[2], "hotspot:65536"),
	      "--hotspot adds hotspot:V patterns");
	check(grid_size(&g) == 2 * 1 * 2 * 1 * 3 * 3, "2x2x3x3 = 36 points");
	grid_point(&g, 0, &p);
	check(!strcmp(p.target, "dram:0") && !strcmp(p.op, "load") &&
	      !strcmp(p.pattern, "seq") && p.size == 64, "point 0");
	grid_point(&g, 1, &p);
	check(p.size == 128 && !strcmp(p.pattern, "seq"), "size varies fastest");
	grid_point(&g, 3, &p);
	check(p.size == 64 && !strcmp(p.pattern, "hotspot:4096"),
	      "then the pattern");
	grid_point(&g, 9, &p);
	check(!strcmp(p.op, "nt-store") && p.size == 64, "then the op");
	grid_point(&g, 35, &p);
	check(!strcmp(p.target, "dram:1") && !strcmp(p.op, "nt-store") &&
	      !strcmp(p.pattern, "hotspot:65536") && p.size == 256 &&
	      p.index == 35, "the last point");
	grid_point_key(key, sizeof(key), &p, "samples=1000");
	check(!strcmp(key, "target=dram:1;cpu=0;op=nt-store;fence=default;"
		      "pattern=hotspot:65536;size=256;samples=1000"),
	      "key: %s", key);
	check(p.repeat == 1, "no --repeat: every point repeat 1");

	/* --repeat 3: the whole grid three times, repeat=K from 2 */
	g.repeats = 3;
	check(grid_size(&g) == 3 * 36, "--repeat 3: 108 points");
	grid_point(&g, 35, &p);
	check(p.repeat == 1 && p.size == 256, "the first pass: repeat 1");
	grid_point(&g, 36, &p);
	check(p.repeat == 2 && !strcmp(p.target, "dram:0") && p.size == 64,
	      "point 37: the grid again, repeat 2");
	grid_point_key(key, sizeof(key), &p, "samples=1000");
	check(!strcmp(key, "target=dram:0;cpu=0;op=load;fence=default;"
		      "pattern=seq;size=64;repeat=2;samples=1000"),
	      "key of a repeat: %s", key);
	grid_point(&g, 107, &p);
	check(p.repeat == 3 && p.size == 256 && !strcmp(p.target, "dram:1"),
	      "the last point: repeat 3");
	g.repeats = 0;
	check(!p.traffic, "no --traffic-target list: no point's traffic");

	/* a --traffic-target list: inside the target, outside the CPU */
	parse_str_list("none,cxl:region0", &g.traffics);
	check(grid_size(&g) == 2 * 36, "--traffic-target none,cxl:region0: 72 points");
	grid_point(&g, 17, &p);
	check(!strcmp(p.target, "dram:0") && !strcmp(p.traffic, "none") &&
	      p.size == 256 && !strcmp(p.op, "nt-store"),
	      "point 18: the first target's last with traffic none");
	grid_point(&g, 18, &p);
	check(!strcmp(p.target, "dram:0") && !strcmp(p.traffic, "cxl:region0") &&
	      p.size == 64 && !strcmp(p.op, "load"),
	      "point 19: the same target, the next traffic target, the rest again");
	grid_point(&g, 36, &p);
	check(!strcmp(p.target, "dram:1") && !strcmp(p.traffic, "none"),
	      "point 37: the next target, traffic none again");
	grid_point(&g, 71, &p);
	check(!strcmp(p.target, "dram:1") && !strcmp(p.traffic, "cxl:region0"),
	      "the last point: the last target and traffic target");
	str_list_free(&g.patterns);
	check(grid_size(&g) == 0, "an empty dimension: no points");
	grid_free(&g);
}

/* Lines (of a 2^20-line region) that two address streams share among
 * their first @n draws: about n^2 / 2^20 for unrelated streams. */
static size_t shared_lines(__u64 a, __u64 b, size_t n)
{
	static unsigned char seen[1 << 20];
	struct latt_prng r;
	size_t i, shared = 0;

	memset(seen, 0, sizeof(seen));
	latt_prng_seed(&r, a);
	for (i = 0; i < n; i++)
		seen[latt_prng_below(&r, 1 << 20)] = 1;
	latt_prng_seed(&r, b);
	for (i = 0; i < n; i++)
		shared += seen[latt_prng_below(&r, 1 << 20)];
	return shared;
}

/*
 * The repeats of a point draw other lines than each other and than the
 * threads of any of them (what a user relies on: a repeat is a new sample
 * of addresses, not a replay), and the first keeps --seed.
 */
static void test_repeat_seeds(void)
{
	const __u64 seed = 0x1a77e57e;
	size_t worst = 0, s;
	__u32 r, k, t;

	check(latt_repeat_seed(seed, 1) == seed, "repeat 1 keeps the seed");
	for (r = 1; r <= 4; r++) {
		for (k = r + 1; k <= 4; k++) {
			s = shared_lines(latt_repeat_seed(seed, r),
					 latt_repeat_seed(seed, k), 4096);
			worst = s > worst ? s : worst;
		}
		/* thread t of repeat r against thread 0 of every other */
		for (t = 1; t < 8; t++)
			for (k = 1; k <= 4; k++) {
				if (k == r)
					continue;
				s = shared_lines(latt_prng_derive(latt_repeat_seed(seed, r), t),
						 latt_repeat_seed(seed, k), 4096);
				worst = s > worst ? s : worst;
			}
	}
	/* 4096 draws each: 16 shared lines expected, a replay shares 4096 */
	check(worst < 64, "repeats and their threads share at most %zu of 4096 lines (unrelated: about 16)",
	      worst);
}

/* key_diff()'s calls, said: "name:a/b," each. */
static int note_diff(void *ctx, const char *name, const char *va,
		     const char *vb)
{
	char *out = ctx;
	size_t n = strlen(out);

	snprintf(out + n, 256 - n, "%s:%s/%s,", name, va, vb);
	return !strcmp(name, "stop") ? 7 : 0;
}

/* The key's one table: its names, defaults, reader and writer. */
static void test_key(void)
{
	const char *pos, *name, *value;
	char buf[64], diffs[256] = "";
	size_t i, j, nlen, vlen, n = 0;
	bool named = true, unique = true;
	int r;

	for (i = 0; i < KEY_NR; i++) {
		named &= key_defs[i].name && key_defs[i].option;
		for (j = 0; named && j < i; j++)
			unique &= !!strcmp(key_defs[i].name, key_defs[j].name);
	}
	check(named && unique, "every key field has one name and an option");
	check(key_def_of("engine") == &key_defs[KEY_ENGINE] &&
	      (key_defs[KEY_REGION].flags & KEY_GRID) &&
	      !(key_defs[KEY_SAMPLES].flags & (KEY_GRID | KEY_FREE)) &&
	      !key_def_of("nonesuch"), "key_def_of() finds fields by name");

	check(!strcmp(key_value("op=load", "engine", buf, sizeof(buf)),
		      "kernel") &&
	      !strcmp(key_value("op=load;engine=user", "engine", buf,
				sizeof(buf)), "user") &&
	      !strcmp(key_value("op=load", "timer", buf, sizeof(buf)),
		      "auto") &&
	      !strcmp(key_value("op=load", "nonesuch", buf, sizeof(buf)), "") &&
	      !strcmp(key_value("target=/x=y;op=load", "target", buf,
				sizeof(buf)), "/x=y"),
	      "key_value(): the value, or what its absence stands for");
	check(key_field("op=load", "samples", buf, sizeof(buf)) == -ENOENT &&
	      key_field("ops=x;op=y", "op", buf, sizeof(buf)) == 0 &&
	      !strcmp(buf, "y"), "key_field(): whole names only");

	pos = "a=1;;b=;c;d=4";
	r = key_next(&pos, &name, &nlen, &value, &vlen);
	check(r == 1 && nlen == 1 && *name == 'a' && vlen == 1 &&
	      *value == '1', "key_next(): the first field");
	r = key_next(&pos, &name, &nlen, &value, &vlen);
	check(r == 1 && *name == 'b' && vlen == 0,
	      "key_next(): an empty field passed over, an empty value kept");
	r = key_next(&pos, &name, &nlen, &value, &vlen);
	check(r == -EINVAL, "key_next(): a field without '=' refused");
	r = key_next(&pos, &name, &nlen, &value, &vlen);
	check(r == 1 && *name == 'd', "key_next(): and passed");
	check(key_next(&pos, &name, &nlen, &value, &vlen) == 0 && !*pos,
	      "key_next(): the end");

	r = key_diff("op=load;timer=auto;seed=1;cpus=", "seed=2;op=load;x=3",
		     note_diff, diffs);
	check(!r && !strcmp(diffs, "seed:1/2,x:/3,"),
	      "key_diff(): each field once, absent ones as their default: %s",
	      diffs);
	diffs[0] = '\0';
	r = key_diff("a=1;stop=1;b=1", "a=2;stop=2;b=2", note_diff, diffs);
	check(r == 7 && !strcmp(diffs, "a:1/2,stop:1/2,"),
	      "key_diff(): stops at a call's non-zero: %s", diffs);

	buf[0] = '\0';
	key_put(buf, 16, &n, KEY_SEED, "%d", 12);
	key_put(buf, 16, &n, KEY_OP, "%s", "nt-store");
	check(n == 15 && !strcmp(buf, "seed=12;op=nt-s"),
	      "key_put(): a key cut short stays a string: %s", buf);
	key_put(buf, 16, &n, KEY_CPU, "%d", 1);
	check(n == 15 && strlen(buf) == 15, "key_put(): and grows no more");
}

static void test_csv(void)
{
	char line[] = "a,\"b,c\",\"say \"\"hi\"\"\",,last\n";
	char bad[] = "a,\"open";
	char *f[8];
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int n;

	n = csv_split(line, f, 8);
	check(n == 5 && !strcmp(f[0], "a") && !strcmp(f[1], "b,c") &&
	      !strcmp(f[2], "say \"hi\"") && !strcmp(f[3], "") &&
	      !strcmp(f[4], "last"), "csv_split: quotes, empty, newline");
	check(csv_split(bad, f, 8) == -1, "unterminated quote refused");
	check(csv_column(f, n, "last") == 4 && csv_column(f, n, "x") == -1,
	      "csv_column");
	m = open_memstream(&buf, &len);
	csv_put(m, "plain", 0);
	csv_put(m, "a,b", 0);
	csv_put(m, "q\"q", 1);
	fclose(m);
	check(!strcmp(buf, "plain,\"a,b\",\"q\"\"q\"\n"), "csv_put quotes: %s",
	      buf);
	free(buf);
}

/* --resume: the keys of a CSV and a JSON lines file. */
/*
 * The header as it was before the mode ... total_gbps columns: layout 5's
 * without them (the statistics right after smi, as then; the causes'
 * columns after smi came later).
 */
static void old_header(FILE *f)
{
	const char *cut = ",mode,threads,delay,mix_read,mix_write,write_op,"
			  "bytes_read,bytes_written,read_gbps,write_gbps,"
			  "total_gbps";
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	sweep_csv_header_of(m, SWEEP_CSV_V5);
	fclose(m);
	p = strstr(buf, cut);
	if (p)
		memmove(p, p + strlen(cut), strlen(p + strlen(cut)) + 1);
	fputs(buf, f);
	free(buf);
}

static void test_resume(void)
{
	char dir[] = "/tmp/latt-test-XXXXXX", csv[64], jl[64], why[256];
	struct key_set k = { 0 };
	enum sweep_format fmt;
	FILE *f;
	int rc;

	check(!sweep_format_of("a.csv", &fmt) && fmt == SWEEP_CSV &&
	      !sweep_format_of("a.jsonl", &fmt) && fmt == SWEEP_JSONL &&
	      sweep_format_of("a.json", &fmt) == -EINVAL &&
	      sweep_format_of(".csv", &fmt) == -EINVAL, "file formats");
	if (!mkdtemp(dir)) {
		skip("no temporary directory");
		return;
	}
	snprintf(csv, sizeof(csv), "%s/s.csv", dir);
	snprintf(jl, sizeof(jl), "%s/s.jsonl", dir);

	check(!sweep_load_keys(csv, SWEEP_CSV, &k, why, sizeof(why)) && !k.n,
	      "a missing file holds no keys");
	/* a row's key is its last column; a row cut short is run again */
	f = fopen(csv, "w");
	sweep_csv_header(f);
	for (int r = 0; r < 2; r++) {
		for (size_t c = 1; c < sweep_csv_columns(); c++)
			fputs("0,", f);
		fprintf(f, "\"target=dram;op=load;size=%d\"\n", 64 << r);
	}
	for (int c = 0; c < 20; c++)
		fputs("0,", f);		/* cut short by a crash */
	fclose(f);
	rc = sweep_load_keys(csv, SWEEP_CSV, &k, why, sizeof(why));
	check(!rc && k.n == 2, "CSV: 2 complete rows, the cut one ignored "
	      "(%d, %zu)", rc, k.n);
	check(key_set_has(&k, "target=dram;op=load;size=128") &&
	      !key_set_has(&k, "target=dram;op=load;size=256") &&
	      !key_set_has(&k, "target=dram;op=load"), "CSV keys match exactly");
	key_set_free(&k);

	/* a file of the column set before the thread columns */
	f = fopen(csv, "w");
	old_header(f);
	fputs("0,k\n", f);
	fclose(f);
	rc = sweep_load_keys(csv, SWEEP_CSV, &k, why, sizeof(why));
	check(rc == -EINVAL && strstr(why, "an older sweep file"),
	      "CSV of the columns before threads: said so (%s)", why);
	key_set_free(&k);

	f = fopen(csv, "w");
	fputs("point,op,key\n0,load,k\n", f);
	fclose(f);
	rc = sweep_load_keys(csv, SWEEP_CSV, &k, why, sizeof(why));
	check(rc == -EINVAL && strstr(why, "not the header"),
	      "a foreign CSV refused: %s", why);
	key_set_free(&k);

	f = fopen(jl, "w");
	fputs("{\"schema\": \"lattester-sweep/1\", \"key\": \"a;b\"}\n", f);
	fputs("\n{\"key\": \"c;d\", \"point\": 1}\n", f);
	fputs("{\"key\": \"e;", f);	/* cut short */
	fclose(f);
	rc = sweep_load_keys(jl, SWEEP_JSONL, &k, why, sizeof(why));
	check(!rc && k.n == 2 && key_set_has(&k, "a;b") &&
	      key_set_has(&k, "c;d") && !key_set_has(&k, "e;"),
	      "JSON lines: 2 keys, the cut line ignored");
	key_set_free(&k);
	f = fopen(jl, "w");
	fputs("{\"point\": 1}\n", f);
	fclose(f);
	rc = sweep_load_keys(jl, SWEEP_JSONL, &k, why, sizeof(why));
	check(rc == -EINVAL && strstr(why, "no \"key\""),
	      "a line without a key refused: %s", why);
	key_set_free(&k);
	for (int i = 0; i < 1000; i++) {
		snprintf(why, sizeof(why), "key%d", i);
		key_set_add(&k, why);
	}
	check(k.n == 1000 && key_set_has(&k, "key999") &&
	      key_set_has(&k, "key0") && !key_set_has(&k, "key1000"),
	      "a key set of 1000");
	key_set_add(&k, "late");
	check(key_set_has(&k, "late"), "a key added after a lookup");
	key_set_free(&k);
	unlink(csv);
	unlink(jl);
	rmdir(dir);
}

/* The header of @layout, in a buffer to free. */
static char *header_of(enum sweep_csv_layout layout)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	sweep_csv_header_of(m, layout);
	fclose(m);
	return buf;
}

/* the columns of layout 6 in their place: right after smi, before mode */
static const char *const v6_cols[] = {
	"smi", "outliers_explained", "outliers_none_seen",
	"outliers_unexplained", "clean_ns_p99.9", "clean_ns_p99.99",
	"clean_ns_mean", "mode",
};
#define NV6	((int)(sizeof(v6_cols) / sizeof(v6_cols[0])))

/*
 * Layout 8: sweep --curves' idle latency after duty_cycle, and the Mess
 * benchmark's names of a curve's point (rd_percentage, pause, bandwidth,
 * latency: what its tooling reads) before the key.
 */
static void test_layout8(void)
{
	char *h8 = header_of(SWEEP_CSV_V8), *f8[CSV_MAX_FIELDS];
	int n8, at;

	if (!h8) {
		check(0, "the header of layout 8");
		return;
	}
	n8 = csv_split(h8, f8, CSV_MAX_FIELDS);
	at = csv_column(f8, n8, "duty_cycle");
	check(at >= 0 && at + 2 < n8 && !strcmp(f8[at + 1], "idle_ns_p50") &&
	      !strcmp(f8[at + 2], "cycles_min"),
	      "layout 8: idle_ns_p50 right after duty_cycle");
	check(n8 >= 5 && !strcmp(f8[n8 - 5], "rd_percentage") &&
	      !strcmp(f8[n8 - 4], "pause") &&
	      !strcmp(f8[n8 - 3], "bandwidth") &&
	      !strcmp(f8[n8 - 2], "latency") && !strcmp(f8[n8 - 1], "key") &&
	      n8 == (int)sweep_csv_columns_of(SWEEP_CSV_V8) &&
	      sweep_csv_columns_of(SWEEP_CSV_V8) ==
	      sweep_csv_columns_of(SWEEP_CSV_V7) + 5 &&
	      !sweep_csv_has(SWEEP_CSV_V7, SWEEP_COL_RD_PERCENTAGE),
	      "layout 8: Mess's rd_percentage, pause, bandwidth, latency before the key, 5 columns more than layout 7 (%d)",
	      n8);
	free(h8);
}

/* Layout 9: a loaded run's --traffic-target, right after write_op. */
static void test_layout9(void)
{
	char *h9 = header_of(SWEEP_CSV_V9), *f9[CSV_MAX_FIELDS];
	int n9, at;

	if (!h9) {
		check(0, "the header of layout 9");
		return;
	}
	n9 = csv_split(h9, f9, CSV_MAX_FIELDS);
	at = csv_column(f9, n9, "write_op");
	check(at >= 0 && at + 2 < n9 &&
	      !strcmp(f9[at + 1], "traffic_target") &&
	      !strcmp(f9[at + 2], "bytes_read") &&
	      n9 == (int)sweep_csv_columns() &&
	      sweep_csv_columns_of(SWEEP_CSV_V9) ==
	      sweep_csv_columns_of(SWEEP_CSV_V8) + 1 &&
	      !sweep_csv_has(SWEEP_CSV_V8, SWEEP_COL_TRAFFIC_TARGET),
	      "layout 9: traffic_target right after write_op, one column more than layout 8 (%d)",
	      n9);
	free(h9);
}

/*
 * Layout 6: the outliers' causes; layout 7: the streams' duty cycle; a
 * layout-5 file is continued as such.
 */
static void test_layouts(void)
{
	char dir[] = "/tmp/latt-test-XXXXXX", csv[64], why[256];
	char *h6 = header_of(SWEEP_CSV_V6), *h5 = header_of(SWEEP_CSV_V5);
	char *h7 = header_of(SWEEP_CSV_V7);
	char *f6[CSV_MAX_FIELDS], *f5[CSV_MAX_FIELDS], *f7[CSV_MAX_FIELDS];
	char *cut;
	struct sweep_file_rows r = { 0 };
	int n7, n6, n5, at, k, ok, rc;
	size_t c;
	FILE *f;

	if (!h7 || !h6 || !h5) {
		check(0, "headers of layouts 5, 6 and 7");
		free(h7);
		free(h6);
		free(h5);
		return;
	}
	check(SWEEP_CSV_LAYOUT == SWEEP_CSV_V9, "a new file is of layout 9");
	test_layout8();
	test_layout9();
	n7 = csv_split(h7, f7, CSV_MAX_FIELDS);
	at = csv_column(f7, n7, "total_gbps");
	check(at >= 0 && at + 2 < n7 && !strcmp(f7[at + 1], "duty_cycle") &&
	      !strcmp(f7[at + 2], "cycles_min") &&
	      n7 == (int)sweep_csv_columns_of(SWEEP_CSV_V7) &&
	      sweep_csv_columns_of(SWEEP_CSV_V7) ==
	      sweep_csv_columns_of(SWEEP_CSV_V6) + 1 &&
	      !sweep_csv_has(SWEEP_CSV_V6, SWEEP_COL_DUTY_CYCLE),
	      "layout 7: duty_cycle right after total_gbps, one column more than layout 6 (%d)",
	      n7);
	free(h7);
	n6 = csv_split(h6, f6, CSV_MAX_FIELDS);
	at = csv_column(f6, n6, "smi");
	ok = at >= 0 && at + NV6 <= n6;
	for (k = 0; ok && k < NV6; k++)
		ok = !strcmp(f6[at + k], v6_cols[k]);
	check(ok, "layout 6: smi, outliers_explained, outliers_none_seen, outliers_unexplained, clean_ns_p99.9, clean_ns_p99.99, clean_ns_mean, mode");
	check(n6 == (int)sweep_csv_columns_of(SWEEP_CSV_V6) &&
	      csv_column(f6, n6, "duty_cycle") < 0 &&
	      sweep_csv_columns_of(SWEEP_CSV_V6) ==
	      sweep_csv_columns_of(SWEEP_CSV_V5) + 6,
	      "layout 6: 6 columns more than layout 5 (%d), no duty_cycle",
	      n6);
	n5 = csv_split(h5, f5, CSV_MAX_FIELDS);
	at = csv_column(f5, n5, "smi");
	check(at >= 0 && at + 1 < n5 && !strcmp(f5[at + 1], "mode") &&
	      csv_column(f5, n5, "outliers_explained") < 0 &&
	      csv_column(f5, n5, "clean_ns_mean") < 0 &&
	      !sweep_csv_has(SWEEP_CSV_V5, SWEEP_COL_OUTLIERS_EXPLAINED) &&
	      sweep_csv_has(SWEEP_CSV_V6, SWEEP_COL_CLEAN_NS_MEAN),
	      "layout 5: mode right after smi, none of layout 6's columns");
	free(h6);
	free(h5);

	if (!mkdtemp(dir)) {
		skip("no temporary directory");
		return;
	}
	snprintf(csv, sizeof(csv), "%s/s.csv", dir);
	/* a file of layout 5: --resume appends rows of its columns */
	f = fopen(csv, "w");
	sweep_csv_header_of(f, SWEEP_CSV_V5);
	for (c = 1; c < sweep_csv_columns_of(SWEEP_CSV_V5); c++)
		fputs("0,", f);
	fputs("\"target=dram;op=load;size=64\"\n", f);
	fclose(f);
	rc = sweep_load_file(csv, SWEEP_CSV, &r, why, sizeof(why));
	check(!rc && r.layout == SWEEP_CSV_V5 && r.rows == 1 && !r.cut,
	      "a layout-5 file: continued in layout 5 (rc %d, layout %d, %zu rows: %s)",
	      rc, (int)r.layout + 1, r.rows, why);
	sweep_file_rows_free(&r);
	/* a header cut short (a sweep stopped mid-write): no row, started
	 * anew, whichever layout it began */
	for (k = SWEEP_CSV_V5; k <= SWEEP_CSV_V9; k++) {
		char *h = header_of((enum sweep_csv_layout)k);

		cut = h ? strstr(h, ",mode,") : NULL;
		if (!cut) {
			check(0, "layout %d: a header with mode", k + 1);
			free(h);
			continue;
		}
		cut[3] = '\0';		/* ...,smi[,...],mo */
		f = fopen(csv, "w");
		fputs(h, f);
		fclose(f);
		rc = sweep_load_file(csv, SWEEP_CSV, &r, why, sizeof(why));
		check(!rc && !r.rows && r.cut == strlen(h),
		      "layout %d's header cut short after smi: no row, taken off (rc %d, cut %zu: %s)",
		      k + 1, rc, r.cut, why);
		sweep_file_rows_free(&r);
		free(h);
	}
	unlink(csv);
	rmdir(dir);
}

/* curve_knee() of @n p50s (from the least traffic on), idle @idle */
static void t_knee(const char *what, const double *p50, size_t n,
		   double idle, long want, enum curve_knee_kind kind,
		   double limit)
{
	struct curve_knee k;
	long at = curve_knee(p50, n, idle, &k);

	check(at == want && k.at == want && k.kind == kind &&
	      fabs(k.limit - limit) < 1e-9,
	      "knee: %s: at %ld (want %ld), kind %d (want %d), limit %.1f ns (want %.1f)",
	      what, at, want, (int)k.kind, (int)kind, k.limit, limit);
}

/*
 * The saturation knee that plot curves marks: the last point, from the
 * least traffic on, whose p50 is within 2x the idle p50 (or the curve's
 * least p50), every later point above it.
 */
static void test_knee(void)
{
	static const double reads[] = { 92, 110, 160, 320 };
	static const double mixed[] = { 95, 105, 130, 170 };
	static const double spike[] = { 100, 250, 120, 130, 400 };
	static const double spike_only[] = { 100, 250, 120, 130 };
	static const double above[] = { 250, 300, 400 };
	static const double gaps[] = { 100, NAN, 150, 300, NAN };
	static const double gap_end[] = { 100, 150, NAN };
	static const double edge[] = { 100, 200, 201 };
	static const double none[] = { NAN, NAN };
	static const double zero[] = { 0, 120, 400 };
	static const double one[] = { 300 };
	struct curve_knee k;

	/* tests/plots/fixtures/curves.csv's two curves, idle 90 ns */
	t_knee("100% reads, idle 90", reads, 4, 90, 2, CURVE_KNEE, 180);
	curve_knee(reads, 4, 90, &k);
	check(k.from_idle && k.base == 90 && k.points == 4,
	      "knee: the idle p50 is the baseline (%.1f ns, from idle %d, %zu points)",
	      k.base, k.from_idle, k.points);
	t_knee("50% reads, idle 90: within at every point", mixed, 4, 90, -1,
	       CURVE_NO_SATURATION, 180);
	/* a lower idle moves the knee to less traffic */
	t_knee("100% reads, idle 70", reads, 4, 70, 1, CURVE_KNEE, 140);
	t_knee("50% reads, idle 70", mixed, 4, 70, 2, CURVE_KNEE, 140);
	/* no idle (layout 7 and older, a sweep without --curves): the
	 * curve's least p50 */
	t_knee("100% reads, no idle", reads, 4, 0, 2, CURVE_KNEE, 184);
	t_knee("100% reads, idle NAN", reads, 4, NAN, 2, CURVE_KNEE, 184);
	curve_knee(reads, 4, 0, &k);
	check(!k.from_idle && k.base == 92,
	      "knee: no idle: the least p50 is the baseline (%.1f ns)", k.base);
	t_knee("50% reads, no idle", mixed, 4, 0, -1, CURVE_NO_SATURATION,
	       190);
	/* a disturbed point of light traffic is no knee: the last within */
	t_knee("a spike at light traffic, then saturated", spike, 5, 100, 3,
	       CURVE_KNEE, 200);
	t_knee("a spike at light traffic, never saturated", spike_only, 4,
	       100, -1, CURVE_NO_SATURATION, 200);
	t_knee("every point above 2x idle", above, 3, 100, -1,
	       CURVE_SATURATED, 200);
	/* points without a p50 (too few samples) take no part */
	t_knee("points without a p50 between and after", gaps, 5, 100, 2,
	       CURVE_KNEE, 200);
	t_knee("the last point without a p50", gap_end, 3, 100, -1,
	       CURVE_NO_SATURATION, 200);
	/* exactly 2x is within */
	t_knee("a p50 of exactly 2x idle", edge, 3, 100, 1, CURVE_KNEE, 200);
	t_knee("one point", one, 1, 100, -1, CURVE_SATURATED, 200);
	t_knee("one point, no idle", one, 1, 0, -1, CURVE_NO_SATURATION, 600);
	t_knee("no p50 at all", none, 2, 0, -1, CURVE_UNKNOWN, 0);
	t_knee("no point", NULL, 0, 100, -1, CURVE_UNKNOWN, 200);
	t_knee("a least p50 of 0, no idle", zero, 3, 0, -1, CURVE_UNKNOWN, 0);
	t_knee("a p50 of 0 with an idle", zero, 3, 100, 1, CURVE_KNEE, 200);
}

int main(void)
{
	test_numbers();
	test_sizes();
	test_counts();
	test_names();
	test_patterns_targets();
	test_offsets();
	test_cpulist();
	test_thread_opts();
	test_stats();
	test_supported();
	test_spread();
	test_intervals();
	test_batch();
	test_thresholds();
	test_outliers();
	test_causes();
	test_duty();
	test_grid();
	test_repeat_seeds();
	test_key();
	test_csv();
	test_resume();
	test_layouts();
	test_knee();
	return tap_done("cli");
}
