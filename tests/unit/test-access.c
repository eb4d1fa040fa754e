// SPDX-License-Identifier: GPL-2.0
/*
 * test-access - the module's access kernels (include/lattester/access.h,
 * samples.h) run for real on the host CPU, in userspace: every op, width
 * and fence the CPU has executes, stores write what they should and loads
 * write nothing, chase follows its chain, with both timers.  What the CPU
 * lacks is skipped, and said.  No timing is judged: only that the timer
 * ran.  And the rule book (rules.h) both engines choose with: every (op,
 * fence, width, timer) resolves to its table entry, the default fences
 * (mfence after every store op: SDM Vol. 2B, RDTSCP), what is refused.
 */
#include <cpuid.h>
#include <stdlib.h>
#include <string.h>
#include <lattester/samples.h>
#include <lattester/pick.h>
#include "../tap.h"

#define BUF	8192

static const char *const op_names[] = {
	[LATT_OP_LOAD] = "load", [LATT_OP_NT_LOAD] = "nt-load",
	[LATT_OP_STORE] = "store", [LATT_OP_STORE_CLWB] = "store-clwb",
	[LATT_OP_STORE_CLFLUSHOPT] = "store-clflushopt",
	[LATT_OP_STORE_CLFLUSH] = "store-clflush",
	[LATT_OP_NT_STORE] = "nt-store",
};

static int has_leaf7_ebx(unsigned int bit)
{
	unsigned int a, b, c, d;

	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> bit & 1);
}

/* Can this CPU run @op at @w bytes? Why not, if it can't. */
static const char *lacks(unsigned int op, unsigned int w)
{
	if (op == LATT_OP_STORE_CLWB && !has_leaf7_ebx(24))
		return "clwb";
	if (op == LATT_OP_STORE_CLFLUSHOPT && !has_leaf7_ebx(23))
		return "clflushopt";
	if (op == LATT_OP_NT_LOAD && !__builtin_cpu_supports("sse4.1"))
		return "sse4.1";
	if (op == LATT_OP_NT_LOAD && w == 32 && !__builtin_cpu_supports("avx2"))
		return "avx2";
	if (w == 32 && !__builtin_cpu_supports("avx"))
		return "avx";
	if (w == 64 && !__builtin_cpu_supports("avx512f"))
		return "avx512f";
	return NULL;
}

static int all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
	while (n--)
		if (*p++ != v)
			return 0;
	return 1;
}

static void test_table(void)
{
	unsigned int op, wi, f, t, nulls = 0, bad = 0, same = 0;

	for (op = 1; op <= LATT_OP_MAX; op++)
		for (wi = 0; wi < 4; wi++)
			for (f = 0; f < 3; f++)
				for (t = 0; t < LATT_NR_TIMERS; t++) {
					latt_sample_fn fn =
						latt_samples[op][wi][f][t];
					int want_null = op == LATT_OP_NT_LOAD &&
							wi == 0;

					nulls += !fn;
					bad += (fn == NULL) != want_null;
					same += fn && t &&
						fn == latt_samples[op][wi][f][0];
				}
	check(!bad && nulls == 3 * LATT_NR_TIMERS && !same,
	      "table: a function for every op, width, fence and timer but "
	      "8-byte nt-load (%u missing), each timer its own (%u shared)",
	      nulls, same);
	check(latt_chases[LATT_TIMER_RDTSCP] != latt_chases[LATT_TIMER_RDTSC] &&
	      latt_chases_off[LATT_TIMER_RDTSCP] !=
	      latt_chases_off[LATT_TIMER_RDTSC],
	      "table: a chase sample per timer, through pointers and offsets");
}

/* Every store op's default fence is mfence: the only one RDTSCP waits for. */
static void test_default_fence(void)
{
	unsigned int op;

	for (op = 1; op <= LATT_OP_MAX; op++) {
		__u32 want = op >= LATT_OP_STORE ? LATT_FENCE_MFENCE :
			     LATT_FENCE_NONE;

		check(latt_default_fence(op) == want,
		      "%s: default fence %u (want %s)", op_names[op],
		      latt_default_fence(op), want == LATT_FENCE_MFENCE ?
		      "mfence: sfence does not make rdtscp wait for stores" :
		      "none: the timer waits for loads");
	}
}

static struct latt_config base_cfg(void)
{
	struct latt_config c;

	memset(&c, 0, sizeof(c));
	c.op = LATT_OP_LOAD;
	c.pattern = LATT_PAT_RAND;
	c.target = LATT_TARGET_DRAM;
	c.size = 64;
	c.region = 1 << 20;
	c.samples = 1000;
	return c;
}

#define ALL_FEATURES	(LATT_FEAT_RDTSCP | LATT_FEAT_CLFLUSH | \
			 LATT_FEAT_CLFLUSHOPT | LATT_FEAT_CLWB | \
			 LATT_FEAT_SSE2 | LATT_FEAT_SSE4_1 | LATT_FEAT_AVX | \
			 LATT_FEAT_AVX2 | LATT_FEAT_AVX512F)

/*
 * latt_pick_sample(), which both engines call (kmod/ops.c latt_pick(),
 * user/engine-user.c pick()): every op, fence, width and timer resolves to
 * latt_samples[op][width][fence][timer], with the fence and width resolved
 * as documented, on a CPU with everything and on one whose CPUID hides
 * rdtscp.
 */
static void test_pick(void)
{
	const __u32 widths = 0xf << 3;
	unsigned int op, f, wi, t, bad = 0, n = 0;
	const char *why;

	for (t = 0; t < 2; t++)
		for (op = 1; op <= LATT_OP_MAX; op++)
			for (f = 0; f <= LATT_FENCE_MAX; f++)
				for (wi = 0; wi <= 4; wi++) {
					struct latt_config c = base_cfg();
					struct latt_pick p;
					__u64 feat = ALL_FEATURES &
						~(t ? LATT_FEAT_RDTSCP : 0);
					__u32 rf, w;
					int ret;

					c.op = op;
					c.fence = f;
					c.width = wi == 4 ? 0 : 8U << wi;
					ret = latt_pick_sample(&c, feat, widths,
							       &p, &why);
					rf = f ? f : latt_default_fence(op);
					w = wi == 4 ? 64 : 8U << wi;
					if ((op < LATT_OP_STORE &&
					     rf == LATT_FENCE_SFENCE) ||
					    (op == LATT_OP_NT_LOAD && w == 8)) {
						bad += ret != -22 || !why;
						continue;
					}
					n++;
					bad += ret || c.fence != rf ||
					       c.width != w || p.width != w ||
					       p.timer != (int)t ||
					       p.fn != latt_samples[op]
						[__builtin_ctz(w) - 3][rf - 1][t];
				}
	check(!bad && n == 254, "pick: %u of 280 (op, fence, width, timer) "
	      "resolve to their table entry, 26 are refused (%u wrong)", n,
	      bad);
}

/* What rules.h refuses, with a reason, and what it resolves. */
static void test_rules(void)
{
	struct latt_config c = base_cfg();
	struct latt_pick p;
	const char *why = NULL;

	check(!latt_config_rules(&c, &why) && c.chain == 1,
	      "rules: a plain load passes, chain 0 becomes 1");
	c.pattern = LATT_PAT_CHASE;
	c.op = LATT_OP_STORE;
	check(latt_config_rules(&c, &why) == -22 && strstr(why, "--op"),
	      "rules: chase with a store op refused (%s)", why);
	c.op = LATT_OP_LOAD;
	c.flags = LATT_CFG_WARM;
	check(latt_config_rules(&c, &why) == -22 && strstr(why, "--warm"),
	      "rules: chase with --warm refused (%s)", why);
	c.flags = 0;
	c.fence = LATT_FENCE_MFENCE;
	check(latt_config_rules(&c, &why) == -22 && strstr(why, "--fence"),
	      "rules: chase with a fence refused (%s)", why);
	c = base_cfg();
	c.target = LATT_TARGET_PMEM;
	c.op = LATT_OP_STORE_CLWB;
	check(latt_config_rules(&c, &why) == -1 && strstr(why, "--force"),
	      "rules: a store on pmem without --force: EPERM (%s)", why);
	c.flags = LATT_CFG_FORCE;
	check(!latt_config_rules(&c, &why), "rules: ... and with it, passes");
	c = base_cfg();
	c.flags = 1U << 31;
	check(latt_config_rules(&c, &why) == -22, "rules: unknown flags refused");
	c = base_cfg();
	c.flags = LATT_CFG_RDTSC;
	check(!latt_config_rules(&c, &why) &&
	      !latt_pick_sample(&c, ALL_FEATURES, 0xf << 3, &p, &why) &&
	      p.timer == LATT_TIMER_RDTSC &&
	      p.chase == latt_chases[LATT_TIMER_RDTSC],
	      "rules: LATT_CFG_RDTSC times with lfence; rdtsc");
	c = base_cfg();
	c.op = LATT_OP_STORE_CLWB;
	check(latt_pick_sample(&c, ALL_FEATURES & ~LATT_FEAT_CLWB, 0xf << 3,
			       &p, &why) == -95 && p.lacks &&
	      !strcmp(p.lacks, "clwb"),
	      "rules: store-clwb without clwb: EOPNOTSUPP, names clwb");
	c = base_cfg();
	c.pattern = LATT_PAT_CHASE;
	c.width = 16;
	check(latt_pick_sample(&c, ALL_FEATURES, 0xf << 3, &p, &why) == -22,
	      "rules: chase at 16 bytes refused (%s)", why);
	c.width = 0;
	check(!latt_pick_sample(&c, ALL_FEATURES & ~LATT_FEAT_RDTSCP, 0xf << 3,
				&p, &why) && c.width == 8 && !p.fn &&
	      p.chase == latt_chases[LATT_TIMER_RDTSC],
	      "rules: chase without rdtscp: 8 bytes, the rdtsc chase");
	check(latt_backwards(0ULL - 26) && !latt_backwards(26),
	      "a sample whose t1 < t0 is told from a long one");
}

static void test_ops(unsigned char *buf)
{
	unsigned int op, w, f;
	int opt = has_leaf7_ebx(23);

	for (op = 1; op <= LATT_OP_MAX; op++) {
		for (w = 8; w <= 64; w *= 2) {
			const char *why = lacks(op, w);
			unsigned int ran = 0, wrote_ok = 0;
			int store = op >= LATT_OP_STORE;

			if (op == LATT_OP_NT_LOAD && w == 8)
				continue;
			if (why) {
				skip("%s at %u bytes: the CPU has no %s",
				     op_names[op], w, why);
				continue;
			}
			for (f = 0; f < 3 * LATT_NR_TIMERS; f++) {
				latt_sample_fn fn = latt_samples[op]
					[__builtin_ctz(w) - 3][f / 2][f % 2];
				__u64 cyc;

				memset(buf, 0xa5, BUF);
				latt_prep_flush((char *)buf, BUF, opt);
				cyc = fn((char *)buf, BUF);
				ran += cyc > 0;
				if (!store)
					wrote_ok += all_bytes(buf, BUF, 0xa5);
				else if (w == 8)	/* LATT_STORE_WORD */
					wrote_ok += all_bytes(buf, BUF, 0x5a);
				else			/* a cleared vector */
					wrote_ok += all_bytes(buf, BUF, 0);
			}
			check(ran == 6 && wrote_ok == 6,
			      "%s at %u bytes, every fence and timer: timed, "
			      "and %s",
			      op_names[op], w,
			      store ? "every byte stored" : "nothing written");
		}
	}
}

static void test_empty(unsigned char *buf)
{
	int ok = 1, i;

	for (i = 0; i < 100; i++)
		ok &= latt_samples[LATT_OP_LOAD][0][0][0]((char *)buf, 0) > 0 &&
		      latt_samples[LATT_OP_LOAD][0][0][1]((char *)buf, 0) > 0;
	check(ok, "a zero-byte sample (the calibration) still reads the timer");
	check(latt_timer_step(LATT_TIMER_RDTSCP) > 0 &&
	      latt_timer_step(LATT_TIMER_RDTSC) > 0,
	      "both timers move: steps %llu and %llu cycles",
	      (unsigned long long)latt_timer_step(LATT_TIMER_RDTSCP),
	      (unsigned long long)latt_timer_step(LATT_TIMER_RDTSC));
	memset(buf, 0x3c, BUF);
	latt_prep_warm((char *)buf, BUF);
	check(all_bytes(buf, BUF, 0x3c), "warm-up reads a block and writes nothing");
}

static void test_chase(unsigned char *buf)
{
	char *node[16], *pos;
	int i, t, ok;

	/* a cycle through 16 lines, in a scrambled order */
	for (i = 0; i < 16; i++)
		node[i] = (char *)buf + ((i * 7) % 16) * 64;
	for (i = 0; i < 16; i++)
		*(char **)node[i] = node[(i + 1) % 16];
	for (t = 0; t < LATT_NR_TIMERS; t++) {
		pos = node[0];
		ok = latt_chases[t](&pos, 5) > 0 && pos == node[5];
		ok &= latt_chases[t](&pos, 11) > 0 && pos == node[0];
		ok &= latt_chases[t](&pos, 0) > 0 && pos == node[0];
		check(ok, "chase (timer %d) follows K links and stops where "
		      "the next sample starts", t);
	}
}

int main(void)
{
	unsigned char *buf = aligned_alloc(4096, BUF);

	if (!buf)
		return 2;
	__builtin_cpu_init();
	test_table();
	test_default_fence();
	test_pick();
	test_rules();
	test_ops(buf);
	test_empty(buf);
	test_chase(buf);
	free(buf);
	return tap_done("access");
}
