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
 * movdir64b's sample functions are checked byte by byte (the instruction's
 * encoding, its fences, no vector clear) on every host; they run only on a
 * CPU whose CPUID has MOVDIR64B, and are skipped, with the reason,
 * elsewhere.
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
	[LATT_OP_NT_STORE] = "nt-store", [LATT_OP_MOVDIR64B] = "movdir64b",
};

static int has_leaf7_ebx(unsigned int bit)
{
	unsigned int a, b, c, d;

	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> bit & 1);
}

/* CPUID.(EAX=7,ECX=0):ECX[28]: MOVDIR64B */
static int has_movdir64b(void)
{
	unsigned int a, b, c, d;

	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (c >> 28 & 1);
}

/* Can this CPU run @op at @w bytes? Why not, if it can't. */
static const char *lacks(unsigned int op, unsigned int w)
{
	if (op == LATT_OP_STORE_CLWB && !has_leaf7_ebx(24))
		return "clwb";
	if (op == LATT_OP_STORE_CLFLUSHOPT && !has_leaf7_ebx(23))
		return "clflushopt";
	if (op == LATT_OP_MOVDIR64B)	/* no vector register: no width */
		return has_movdir64b() ? NULL : "movdir64b";
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
					int want_null = (op == LATT_OP_NT_LOAD &&
							 wi == 0) ||
							(op == LATT_OP_MOVDIR64B &&
							 wi < 3);

					nulls += !fn;
					bad += (fn == NULL) != want_null;
					same += fn && t &&
						fn == latt_samples[op][wi][f][0];
				}
	check(!bad && nulls == 12 * LATT_NR_TIMERS && !same,
	      "table: a function for every op, width, fence and timer but "
	      "8-byte nt-load and movdir64b below 64 bytes (%u missing), "
	      "each timer its own (%u shared)", nulls, same);
	for (op = 1, bad = 0; op <= LATT_OP_MAX; op++)
		for (wi = 0; wi < 4; wi++)
			bad += !latt_streams[op][wi] !=
			       !latt_samples[op][wi][0][0];
	check(!bad, "table: a stream wherever there is a sample (%u not)",
	      bad);
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
		__u32 want = op == LATT_OP_LOAD || op == LATT_OP_NT_LOAD ?
			     LATT_FENCE_NONE : LATT_FENCE_MFENCE;

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
			 LATT_FEAT_AVX2 | LATT_FEAT_AVX512F | \
			 LATT_FEAT_MOVDIR64B | LATT_FEAT_LFENCE_SERIAL)

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
					    (op == LATT_OP_NT_LOAD && w == 8) ||
					    (op == LATT_OP_MOVDIR64B && w < 64)) {
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
	check(!bad && n == 270, "pick: %u of 320 (op, fence, width, timer) "
	      "resolve to their table entry, 50 are refused (%u wrong)", n,
	      bad);
}

/* What rules.h refuses, with a reason, and what it resolves. */
static void test_rules(void)
{
	struct latt_config c = base_cfg();
	struct latt_pick p;
	const char *why = NULL;
	int rc;

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
	/* ... only where LFENCE serializes, asked for or picked */
	p.lacks = NULL;
	/* the result first: check()'s arguments have no order */
	rc = latt_pick_sample(&c, ALL_FEATURES & ~LATT_FEAT_LFENCE_SERIAL,
			      0xf << 3, &p, &why);
	check(rc == -95 && p.lacks && strstr(p.lacks, "serializing lfence") &&
	      strstr(why, "lfence; rdtsc"),
	      "rules: LATT_CFG_RDTSC without a serializing LFENCE: EOPNOTSUPP (%s: %s)",
	      why, p.lacks ? p.lacks : "-");
	c = base_cfg();
	p.lacks = NULL;
	check(latt_pick_sample(&c, ALL_FEATURES & ~(LATT_FEAT_LFENCE_SERIAL |
						    LATT_FEAT_RDTSCP),
			       0xf << 3, &p, &why) == -95 && p.lacks &&
	      strstr(p.lacks, "serializing lfence"),
	      "rules: no rdtscp and no serializing LFENCE: EOPNOTSUPP");
	check(!latt_pick_sample(&c, ALL_FEATURES & ~LATT_FEAT_LFENCE_SERIAL,
				0xf << 3, &p, &why) &&
	      p.timer == LATT_TIMER_RDTSCP,
	      "rules: rdtscp needs no serializing LFENCE");
	/* the evidence (pick.h): Intel always; AMD by CPUID or DE_CFG */
	check(latt_lfence_serializing(0, 0, 0, 0) == 1 &&
	      latt_lfence_serializing(1, 0, 0, 0) == 0 &&
	      latt_lfence_serializing(1, 1U << 2, 0, 0) == 1 &&
	      latt_lfence_serializing(1, ~(1U << 2), 1, ~2ULL) == 0 &&
	      latt_lfence_serializing(1, 0, 1, 2) == 1 &&
	      latt_lfence_serializing(1, 0, 0, 2) == 0,
	      "lfence: Intel serializes; AMD only with CPUID 0x80000021 EAX[2] or a DE_CFG read with bit 1");
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

			if ((op == LATT_OP_NT_LOAD && w == 8) ||
			    (op == LATT_OP_MOVDIR64B && w != 64))
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
				else if (w == 8 || op == LATT_OP_MOVDIR64B)
					/* LATT_STORE_WORD, latt_direct_src */
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

/*
 * The streams on the CPU: one call makes its accesses at the addresses it
 * is given, each of the length asked, and nothing else: lines 5-6, 9-10,
 * 2-3 and 100-101 of the buffer written by a store stream, every other
 * byte as it was; a load stream writes nothing.  (Their order and count
 * against the pattern are test-loop's.)
 */
static void test_streams(unsigned char *buf)
{
	static const unsigned int lines[] = { 5, 9, 2, 100 };
	unsigned int op, w, i, l, n = sizeof(lines) / sizeof(lines[0]);
	char *addr[4];

	for (op = 1; op <= LATT_OP_MAX; op++) {
		for (w = 8; w <= 64; w *= 2) {
			latt_stream_fn fn = latt_streams[op][__builtin_ctz(w) - 3];
			int store = op >= LATT_OP_STORE, ok = 1;
			unsigned char want;
			__u64 r;

			if (!fn || lacks(op, w))
				continue;	/* test_ops() said why */
			memset(buf, 0xa5, BUF);
			for (i = 0; i < n; i++)
				addr[i] = (char *)buf + lines[i] * LATT_LINE;
			r = fn(addr, n, 2 * LATT_LINE);
			want = !store ? 0xa5 :
			       w == 8 || op == LATT_OP_MOVDIR64B ? 0x5a : 0;
			for (l = 0; l < BUF / LATT_LINE; l++) {
				int hit = 0;

				for (i = 0; i < n; i++)
					hit |= l == lines[i] || l == lines[i] + 1;
				ok &= all_bytes(buf + l * LATT_LINE, LATT_LINE,
						hit ? want : 0xa5);
			}
			check(!r && ok,
			      "stream %s at %u bytes: 4 accesses of 128 B in one call, %s (returned %llu)",
			      op_names[op], w,
			      store ? "exactly their lines stored" :
				      "nothing written",
			      (unsigned long long)r);
		}
	}
}

/*
 * A --mix's one call a batch (LATT_STREAM_MIX()): of its accesses, in
 * order from place 1 of a 2:1 cycle, exactly those at a write's place
 * have their lines stored, with what a store of the write op writes,
 * zeroes for a vector width although the loads before filled the
 * register with 0xa5; the loads' lines keep theirs.  Every write op and
 * read width the CPU has.
 */
static void test_mixes(unsigned char *buf)
{
	static const unsigned int lines[] = { 5, 9, 2, 20, 14, 31, 11, 40 };
	unsigned int op, w, i, l, n = sizeof(lines) / sizeof(lines[0]);
	char *addr[8];

	for (op = LATT_OP_STORE; op <= LATT_OP_MAX; op++) {
		for (w = 8; w <= 64; w *= 2) {
			latt_mix_fn fn = latt_mixes[op][__builtin_ctz(w) - 3];
			unsigned char want;
			int ok = 1;
			__u64 r;

			if (!fn || lacks(op, w) || lacks(LATT_OP_LOAD, w))
				continue;	/* test_ops() said why */
			memset(buf, 0xa5, BUF);
			for (i = 0; i < n; i++)
				addr[i] = (char *)buf + lines[i] * LATT_LINE;
			r = fn(addr, n, 2 * LATT_LINE, 1, 2, 3);
			want = w == 8 || op == LATT_OP_MOVDIR64B ? 0x5a : 0;
			for (l = 0; l < BUF / LATT_LINE; l++) {
				int hit = 0;

				/* places 1, 2, 0, 1, 2, ...: writes at 2 */
				for (i = 0; i < n; i++)
					hit |= (i + 1) % 3 == 2 &&
					       (l == lines[i] ||
						l == lines[i] + 1);
				ok &= all_bytes(buf + l * LATT_LINE, LATT_LINE,
						hit ? want : 0xa5);
			}
			check(!r && ok,
			      "mix: loads at %u bytes and %s: 8 accesses of 128 B from place 1 of a 2:1 cycle, exactly the writes' lines stored (returned %llu)",
			      w, op_names[op], (unsigned long long)r);
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

/*
 * movdir64b in the rule book, on CPUs told by their feature masks: with
 * LATT_FEAT_MOVDIR64B the op is picked (at 64 bytes, whatever vector widths
 * the CPU has), without it refused with the instruction named, as both
 * engines refuse it; a store op everywhere a write op is asked for.
 */
static void test_movdir64b_rules(void)
{
	const __u64 no_avx512 = ALL_FEATURES & ~LATT_FEAT_AVX512F;
	struct latt_stream_pick s;
	struct latt_config c;
	struct latt_pick p;
	const char *why = NULL;
	int ret;

	c = base_cfg();
	c.op = LATT_OP_MOVDIR64B;
	ret = latt_pick_sample(&c, ALL_FEATURES & ~LATT_FEAT_MOVDIR64B,
			       0xf << 3, &p, &why);
	check(ret == -95 && p.lacks && !strcmp(p.lacks, "movdir64b") &&
	      !strcmp(why, "--op needs an instruction"),
	      "movdir64b without LATT_FEAT_MOVDIR64B: EOPNOTSUPP, \"%s: this CPU lacks %s\"",
	      why, p.lacks ? p.lacks : "(nothing)");
	c = base_cfg();
	c.op = LATT_OP_MOVDIR64B;
	c.width = 16;
	check(latt_pick_sample(&c, ALL_FEATURES & ~LATT_FEAT_MOVDIR64B,
			       0xf << 3, &p, &why) == -95,
	      "movdir64b without the feature: EOPNOTSUPP before the width");
	/* a CPU with movdir64b and no AVX-512: widths 8, 16, 32 */
	c = base_cfg();
	c.op = LATT_OP_MOVDIR64B;
	ret = latt_pick_sample(&c, no_avx512, 0x7 << 3, &p, &why);
	check(!ret && c.width == 64 && p.width == 64 &&
	      c.fence == LATT_FENCE_MFENCE &&
	      p.fn == latt_samples[LATT_OP_MOVDIR64B][LATT_WIDX_64]
				  [LATT_FENCE_MFENCE - 1][LATT_TIMER_RDTSCP],
	      "movdir64b with the feature, no AVX-512: picked, 64 bytes, mfence");
	c = base_cfg();
	c.op = LATT_OP_MOVDIR64B;
	c.width = 64;
	c.fence = LATT_FENCE_SFENCE;
	check(!latt_pick_sample(&c, no_avx512, 0x7 << 3, &p, &why) &&
	      p.fn == latt_samples[LATT_OP_MOVDIR64B][LATT_WIDX_64]
				  [LATT_FENCE_SFENCE - 1][LATT_TIMER_RDTSCP],
	      "movdir64b --width 64 --fence sfence without AVX-512: picked");
	c = base_cfg();
	c.op = LATT_OP_MOVDIR64B;
	c.width = 32;
	ret = latt_pick_sample(&c, ALL_FEATURES, 0xf << 3, &p, &why);
	check(ret == -22 && strstr(why, "--width must be 64"),
	      "movdir64b --width 32: EINVAL (%s)", why);
	check(latt_rule_is_store(LATT_OP_MOVDIR64B) &&
	      latt_op_width(LATT_OP_MOVDIR64B) == 64 &&
	      !latt_op_width(LATT_OP_NT_STORE),
	      "movdir64b is a write op, of its own width 64");
	c = base_cfg();
	c.op = LATT_OP_MOVDIR64B;
	c.target = LATT_TARGET_PMEM;
	ret = latt_config_rules(&c, &why);
	check(ret == -1 && strstr(why, "--force"),
	      "movdir64b on pmem without --force: EPERM (%s)", why);
	c = base_cfg();
	c.mode = LATT_MODE_LOADED;
	c.nr_threads = 2;
	c.mix_write = 1;
	c.write_op = LATT_OP_MOVDIR64B;
	check(!latt_config_rules(&c, &why),
	      "--write-op movdir64b is a store op for the mix");

	/* the streams: never a width the CPU lacks */
	c = base_cfg();
	c.op = LATT_OP_MOVDIR64B;
	c.mode = LATT_MODE_LOADED;
	c.nr_threads = 2;
	c.mix_read = c.mix_write = 1;
	ret = latt_pick_sample(&c, no_avx512, 0x7 << 3, &p, &why);
	ret = ret ? ret : latt_pick_streams_of(&c, no_avx512, 0x7 << 3, &s);
	check(!ret && s.width == 32 &&
	      s.op_fn == latt_streams[LATT_OP_MOVDIR64B][LATT_WIDX_64] &&
	      s.read_fn == latt_streams[LATT_OP_LOAD][LATT_WIDX_32] &&
	      s.write_fn == latt_streams[LATT_OP_STORE][LATT_WIDX_32] &&
	      s.mix_fn == latt_mixes[LATT_OP_STORE][LATT_WIDX_32],
	      "movdir64b's streams without AVX-512: loads and stores of 32 bytes");
	c = base_cfg();
	c.mode = LATT_MODE_LOADED;
	c.nr_threads = 2;
	c.mix_read = c.mix_write = 1;
	c.write_op = LATT_OP_MOVDIR64B;
	c.width = 8;
	ret = latt_pick_sample(&c, ALL_FEATURES, 0xf << 3, &p, &why);
	ret = ret ? ret : latt_pick_streams_of(&c, ALL_FEATURES, 0xf << 3, &s);
	check(!ret && s.width == 8 &&
	      s.read_fn == latt_streams[LATT_OP_LOAD][0] &&
	      s.write_fn == latt_streams[LATT_OP_MOVDIR64B][LATT_WIDX_64] &&
	      s.mix_fn == latt_mixes[LATT_OP_MOVDIR64B][0],
	      "--write-op movdir64b at --width 8: its own 64-byte stream");
	check(latt_pick_streams_of(&c, ALL_FEATURES & ~LATT_FEAT_MOVDIR64B,
				   0xf << 3, &s) == -95,
	      "--write-op movdir64b without the feature: EOPNOTSUPP");

	/* the FPU state is saved only for vector streams the threads call */
	c = base_cfg();
	c.op = LATT_OP_MOVDIR64B;
	c.mode = LATT_MODE_BANDWIDTH;
	c.nr_threads = 2;
	ret = latt_pick_sample(&c, ALL_FEATURES, 0xf << 3, &p, &why);
	ret = ret ? ret : latt_pick_streams_of(&c, ALL_FEATURES, 0xf << 3, &s);
	check(!ret && !s.vector,
	      "bandwidth movdir64b, no mix: only direct stores run, no vector state");
	c.mix_read = c.mix_write = 1;
	ret = latt_pick_streams_of(&c, ALL_FEATURES, 0xf << 3, &s);
	check(!ret && s.vector,
	      "bandwidth movdir64b with a mix: its 64-byte loads are vector");
	c = base_cfg();
	c.mode = LATT_MODE_BANDWIDTH;
	c.nr_threads = 2;
	ret = latt_pick_sample(&c, ALL_FEATURES, 0xf << 3, &p, &why);
	ret = ret ? ret : latt_pick_streams_of(&c, ALL_FEATURES, 0xf << 3, &s);
	check(!ret && s.vector == (c.width > 8),
	      "bandwidth loads at %u bytes: vector %d", c.width, s.vector);
	c.width = 8;
	ret = latt_pick_streams_of(&c, ALL_FEATURES, 0xf << 3, &s);
	check(!ret && !s.vector, "bandwidth loads at 8 bytes: no vector state");
	c = base_cfg();
	c.mode = LATT_MODE_LOADED;
	c.nr_threads = 2;
	c.width = 8;
	ret = latt_pick_streams_of(&c, ALL_FEATURES, 0xf << 3, &s);
	check(!ret && !s.vector, "loaded, 8-byte loads: no vector state");
	c.width = 32;
	ret = latt_pick_streams_of(&c, ALL_FEATURES, 0xf << 3, &s);
	check(!ret && s.vector, "loaded, 32-byte loads: vector state");
}

/* @seq of @k bytes in [@from, @to) of @code: its offset, or -1 */
static long find(const unsigned char *code, long from, long to,
		 const unsigned char *seq, long k)
{
	long i;

	for (i = from; i + k <= to; i++)
		if (!memcmp(code + i, seq, (size_t)k))
			return i;
	return -1;
}

/*
 * movdir64b's sample functions, byte by byte, on any host: between the two
 * timer reads exactly one 66 0F 38 F8 /r (SDM Vol. 2B, MOVDIR64B; a REX
 * prefix may come between 66 and 0F) with a memory source (ModRM.mod not
 * 11), the fence of the function after it (mfence 0F AE F0, sfence
 * 0F AE F8, none), and before t0 no vector register cleared (it runs on
 * CPUs without AVX-512).
 */
static void test_movdir64b_encoding(void)
{
	static const unsigned char rdtscp[] = { 0x0f, 0x01, 0xf9 };
	static const unsigned char rdtsc[] = { 0x0f, 0xae, 0xe8, 0x0f, 0x31 };
	static const unsigned char op[] = { 0x0f, 0x38, 0xf8 };
	static const unsigned char mfence[] = { 0x0f, 0xae, 0xf0 };
	static const unsigned char sfence[] = { 0x0f, 0xae, 0xf8 };
	static const unsigned char pxor[] = { 0x0f, 0xef, 0xc0 };
	static const unsigned char vpxord[] = { 0x62, 0xf1, 0x7d, 0x48 };
	static const char *const fences[] = { "none", "sfence", "mfence" };
	unsigned int f, t;

	for (f = 0; f < 3; f++) {
		for (t = 0; t < LATT_NR_TIMERS; t++) {
			const unsigned char *code = (const unsigned char *)
				latt_samples[LATT_OP_MOVDIR64B][LATT_WIDX_64]
					    [f][t];
			const unsigned char *ts = t ? rdtsc : rdtscp;
			long k = t ? sizeof(rdtsc) : sizeof(rdtscp);
			long t0, t1, at, n = 0, i, mod = -1;
			long fm, fs;
			int ok;

			t0 = find(code, 0, 128, ts, k);
			t1 = t0 < 0 ? -1 : find(code, t0 + k, t0 + 256, ts, k);
			ok = t0 >= 0 && t1 > t0;
			at = -1;
			for (i = ok ? t0 + k : t1; ok && i < t1; i++) {
				i = find(code, i, t1, op, sizeof(op));
				if (i < 0)
					break;
				/* 66 0F 38 F8, or 66 REX 0F 38 F8 */
				if (code[i - 1] == 0x66 ||
				    ((code[i - 1] & 0xf0) == 0x40 &&
				     code[i - 2] == 0x66)) {
					n++;
					at = i;
					mod = code[i + 3] >> 6;
				}
			}
			fm = at < 0 ? -1 : find(code, at, t1, mfence,
						sizeof(mfence));
			fs = at < 0 ? -1 : find(code, at, t1, sfence,
						sizeof(sfence));
			ok = ok && n == 1 && mod != 3 &&
			     (f == 2 ? fm > at && fs < 0 :
			      f == 1 ? fs > at && fm < 0 : fm < 0 && fs < 0) &&
			     find(code, 0, t0, pxor, sizeof(pxor)) < 0 &&
			     find(code, 0, t0, vpxord, sizeof(vpxord)) < 0;
			check(ok, "movdir64b sample (%s, %s): one 66 0F 38 F8 "
			      "/r (memory source) between the timer reads, "
			      "then %s; no vector clear (found %ld, ModRM.mod "
			      "%ld)", fences[f], t ? "rdtsc" : "rdtscp",
			      fences[f], n, mod);
		}
	}
}

/*
 * movdir64b for real, where CPUID has it: one 64-byte direct store to a
 * line in the middle of a block writes that line with latt_direct_src and
 * nothing beside it; read back after the sample's fence.
 */
static void test_movdir64b_line(unsigned char *buf)
{
	unsigned int f, t, ok = 0;

	if (!has_movdir64b()) {
		skip("movdir64b write-then-read-back: this CPU's CPUID has no MOVDIR64B (leaf 7, ECX bit 28)");
		return;
	}
	for (f = 0; f < 3; f++) {
		for (t = 0; t < LATT_NR_TIMERS; t++) {
			memset(buf, 0xa5, BUF);
			latt_samples[LATT_OP_MOVDIR64B][LATT_WIDX_64][f][t](
				(char *)buf + 64 * 5, 64);
			/* the sfence and none forms: order it before reading */
			__asm__ __volatile__("mfence" : : : "memory");
			ok += all_bytes(buf, 64 * 5, 0xa5) &&
			      !memcmp(buf + 64 * 5, latt_direct_src, 64) &&
			      all_bytes(buf + 64 * 6, BUF - 64 * 6, 0xa5);
		}
	}
	check(ok == 6, "movdir64b write-then-read-back, every fence and "
	      "timer: the line holds the 64 bytes stored, its neighbours "
	      "are untouched (%u of 6)", ok);
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
	test_movdir64b_rules();
	test_movdir64b_encoding();
	test_ops(buf);
	test_movdir64b_line(buf);
	test_streams(buf);
	test_mixes(buf);
	test_empty(buf);
	test_chase(buf);
	free(buf);
	return tap_done("access");
}
