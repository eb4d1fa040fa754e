# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/unit/checks.sh - the checks the shell tests of lattester-ctl
# share: source it after tests/tap.sh (ctl-test.sh does), with $tmp set.
# Each check is one TAP line (tap.sh's report).

# run CMD...: run it, stdout in $tmp/out, stderr in $tmp/err, status in $rc
run()
{
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# expect WANT DESCRIPTION CMD...: run CMD and check its exit status
expect()
{
	local want=$1 desc=$2

	shift 2
	run "$@"
	[ "$rc" -eq "$want" ]
	report $? "$desc (exit $rc, want $want)"
}

# has FILE REGEX DESCRIPTION: FILE ($tmp/out, $tmp/err, ...) matches
has()
{
	grep -qE -- "$2" "$1" 2>/dev/null
	report $? "$3"
}

# hasnt FILE REGEX DESCRIPTION: FILE does not match
hasnt()
{
	! grep -qE -- "$2" "$1" 2>/dev/null
	report $? "$3"
}
