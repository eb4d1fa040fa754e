# SPDX-License-Identifier: GPL-2.0
#
# tests/unit/ctl-test.sh - how a shell test of lattester-ctl begins.  Set
# TAP_NAME, then source it: it sets $top (the source tree), $ctl
# ($LATTESTER_CTL, or the built user/lattester-ctl) and $tmp (a directory
# removed at exit, $TAP_ERR's home: $tmp/err), sources tests/tap.sh and
# tests/unit/checks.sh (run, expect, has, hasnt), and
# ends the test failed if $ctl isn't built.  With CTL_TEST_PYTHON=1 it
# ends it skipped where python3 is missing.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ctl=${LATTESTER_CTL:-$top/user/lattester-ctl}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TAP_ERR=$tmp/err
. "$top/tests/tap.sh"
. "$top/tests/unit/checks.sh"

if [ ! -x "$ctl" ]; then
	report 1 "$ctl not built (make -C user)"
	finish
fi
if [ "${CTL_TEST_PYTHON:-0}" = 1 ] && ! command -v python3 >/dev/null; then
	skip "python3 missing: nothing checked"
	finish
fi
unset LATTESTER_LOG LD_PRELOAD
