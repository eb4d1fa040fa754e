#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-rulebook.sh - one rule book: the module and the user engine choose
# their sample functions and check configurations with the same code
# (include/lattester/rules.h, pick.h, chase.h), and nothing else picks from
# the tables or keeps a copy of the rules.  The sources are read, not run:
# test-access.c checks what that code decides, test-cli-usage.sh that the
# two engines refuse in the same words.
#
#   bash tests/unit/test-rulebook.sh
#
# TAP-like lines, then "rulebook: N passed, N failed".

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
TAP_NAME=rulebook
. "$top/tests/tap.sh"
cd "$top" || exit 1

# calls FUNCTION FILE...: every FILE calls FUNCTION
calls()
{
	local fn=$1 f

	shift
	for f in "$@"; do
		grep -q "\\b$fn(" "$f" || { echo "# $f does not call $fn()"; return 1; }
	done
}

# only PATTERN FILE...: PATTERN occurs in the engines' sources only in FILEs
only()
{
	local pat=$1 hits

	shift
	hits=$(grep -l -E -- "$pat" kmod/*.[ch] user/*.[ch] include/lattester/*.h \
		2>/dev/null | sort)
	[ "$hits" = "$(printf '%s\n' "$@" | sort)" ] ||
		{ echo "# '$pat' in: $(echo $hits)"; return 1; }
}

calls latt_pick_sample kmod/ops.c user/engine-user.c
report $? "both engines pick their sample function with latt_pick_sample()"
calls latt_config_rules kmod/ops.c user/engine-user.c
report $? "both engines check a configuration with latt_config_rules()"
calls latt_chase_step kmod/dram.c user/engine-user.c
report $? "both engines build the chase cycle with latt_chase_step()"
only 'latt_samples\[|latt_chases(_off)?\[' include/lattester/pick.h \
	include/lattester/samples.h
report $? "the sample tables are read by pick.h alone"
only 'latt_default_fence\(' include/lattester/access.h include/lattester/pick.h
report $? "the default fence is resolved in pick.h alone"
only '#include [<"](lattester/)?(samples|pick)\.h' kmod/ops.c \
	user/engine-user.c include/lattester/pick.h
report $? "samples.h and pick.h are compiled once per program"
only 'prng_below' include/lattester/prng.h include/lattester/pattern.h \
	include/lattester/chase.h
report $? "no engine keeps a shuffle of its own"

finish
