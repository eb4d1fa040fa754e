// SPDX-License-Identifier: GPL-2.0
/*
 * test-access - the module's access kernels (include/lattester/access.h,
 * samples.h) run for real on the host CPU, in userspace: every op, width
 * and fence the CPU has executes, stores write what they should and loads
 * write nothing, chase follows its chain.  What the CPU lacks is skipped,
 * and said.  No timing is judged: only that the timer ran.
 */
#include <cpuid.h>
#include <stdlib.h>
#include <string.h>
#include <lattester/samples.h>
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
	unsigned int op, wi, f, nulls = 0, bad = 0;

	for (op = 1; op <= LATT_OP_MAX; op++)
		for (wi = 0; wi < 4; wi++)
			for (f = 0; f < 3; f++) {
				int want_null = op == LATT_OP_NT_LOAD && wi == 0;

				nulls += !latt_samples[op][wi][f];
				bad += (latt_samples[op][wi][f] == NULL) != want_null;
			}
	check(!bad && nulls == 3, "table: a function for every op, width and "
	      "fence but 8-byte nt-load (%u missing)", nulls);
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
			for (f = 0; f < 3; f++) {
				latt_sample_fn fn = latt_samples[op]
					[__builtin_ctz(w) - 3][f];
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
			check(ran == 3 && wrote_ok == 3,
			      "%s at %u bytes, every fence: timed, and %s",
			      op_names[op], w,
			      store ? "every byte stored" : "nothing written");
		}
	}
}

static void test_empty(unsigned char *buf)
{
	int ok = 1, i;

	for (i = 0; i < 100; i++)
		ok &= latt_samples[LATT_OP_LOAD][0][0]((char *)buf, 0) > 0;
	check(ok, "a zero-byte sample (the calibration) still reads the timer");
	memset(buf, 0x3c, BUF);
	latt_prep_warm((char *)buf, BUF);
	check(all_bytes(buf, BUF, 0x3c), "warm-up reads a block and writes nothing");
}

static void test_chase(unsigned char *buf)
{
	char *node[16], *pos;
	int i, ok;

	/* a cycle through 16 lines, in a scrambled order */
	for (i = 0; i < 16; i++)
		node[i] = (char *)buf + ((i * 7) % 16) * 64;
	for (i = 0; i < 16; i++)
		*(char **)node[i] = node[(i + 1) % 16];
	pos = node[0];
	ok = latt_sample_chase(&pos, 5) > 0 && pos == node[5];
	ok &= latt_sample_chase(&pos, 11) > 0 && pos == node[0];
	ok &= latt_sample_chase(&pos, 0) > 0 && pos == node[0];
	check(ok, "chase follows K links and stops where the next sample starts");
}

int main(void)
{
	unsigned char *buf = aligned_alloc(4096, BUF);

	if (!buf)
		return 2;
	__builtin_cpu_init();
	test_table();
	test_ops(buf);
	test_empty(buf);
	test_chase(buf);
	free(buf);
	return tap_done("access");
}
