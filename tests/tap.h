/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - the C tests' reporting: one "ok N - what" / "not ok N - what" line
 * per check, a "# SKIP" form that says why, and a closing
 * "NAME: N passed, N failed[, N skipped]" line that tests/sum-results adds
 * up.  Header-only: each test is one program.
 */
#ifndef _LATTESTER_TAP_H
#define _LATTESTER_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_passed, tap_failed, tap_skipped;

static inline void tap_vline(const char *status, const char *fmt, va_list ap)
{
	printf("%s %d - ", status, tap_passed + tap_failed + tap_skipped + 1);
	vprintf(fmt, ap);
}

/* check() - one test: @ok true passes; the message says what was checked. */
static inline __attribute__((format(printf, 2, 3)))
void check(int ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline(ok ? "ok" : "not ok", fmt, ap);
	va_end(ap);
	putchar('\n');
	if (ok)
		tap_passed++;
	else
		tap_failed++;
}

/* skip() - a test that could not run here, with the reason. */
static inline __attribute__((format(printf, 1, 2)))
void skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline("ok", "# SKIP ", ap);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	tap_skipped++;
}

/* tap_done() - the plan and the closing line; the exit status to return. */
static inline int tap_done(const char *name)
{
	int n = tap_passed + tap_failed + tap_skipped;

	printf("1..%d\n%s: %d passed, %d failed", n, name, tap_passed,
	       tap_failed);
	if (tap_skipped)
		printf(", %d skipped", tap_skipped);
	putchar('\n');
	return tap_failed ? 1 : 0;
}

#endif /* _LATTESTER_TAP_H */
