# SPDX-License-Identifier: GPL-2.0
# tests/tap.sh - the shell tests' reporting, as tests/tap.h is the C tests':
# one "ok N - what" / "not ok N - what" line per check, "# SKIP" with the
# reason, and finish() closes with "$TAP_NAME: N passed, N failed[, N
# skipped]" (tests/sum-results adds those up) and exits non-zero on a
# failure.  Source it after setting TAP_NAME; set TAP_ERR to a file whose
# first lines a failed check should show (a command's stderr).

n=0
passed=0
failed=0
skipped=0

# report STATUS DESCRIPTION...: one check; STATUS 0 passes
report()
{
	local status=$1

	shift
	n=$((n + 1))
	if [ "$status" -eq 0 ]; then
		passed=$((passed + 1))
		echo "ok $n - $*"
	else
		failed=$((failed + 1))
		echo "not ok $n - $*"
		if [ -n "${TAP_ERR:-}" ]; then
			sed 's/^/#   stderr: /' "$TAP_ERR" 2>/dev/null | head -5
		fi
	fi
}

# skip REASON...: a check that can't run here, and why
skip()
{
	n=$((n + 1))
	skipped=$((skipped + 1))
	echo "ok $n - # SKIP $*"
}

# finish: the closing line, and out
finish()
{
	if [ "$skipped" -eq 0 ]; then
		echo "$TAP_NAME: $passed passed, $failed failed"
	else
		echo "$TAP_NAME: $passed passed, $failed failed, $skipped skipped"
	fi
	[ "$failed" -eq 0 ]
	exit
}
