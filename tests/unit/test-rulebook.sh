#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-rulebook.sh - one rule book: the module and the user engine choose
# their sample functions and check configurations with the same code
# (include/lattester/rules.h, pick.h, chase.h), and nothing else picks from
# the tables or keeps a copy of the rules (nor of which ops write); the
# CPU features an op needs are read by both engines, and named in the words
# lattester-ctl's refusals use; a streaming run held off its CPUs is told
# from either engine's records by one reader, in one sentence.  The
# sources are read, not run: test-access.c checks what that code decides,
# test-cli-usage.sh that the two engines refuse in the same words.
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
calls latt_run_rules kmod/ops.c user/engine-user.c
report $? "both engines check a configuration with latt_run_rules() (latt_config_rules() of what their target sees)"
calls latt_target_writes kmod/main.c user/run.h
report $? "both engines tell what writes a target with latt_target_writes()"
calls latt_chase_step kmod/dram.c user/engine-user.c
report $? "both engines build the chase cycle with latt_chase_step()"
# several threads (core.h): the same parts, patterns, streams and merge
calls latt_stream_batch kmod/run.c user/engine-user.c
report $? "both engines stream with core.h's latt_stream_batch()"
calls latt_thread_pattern kmod/run.c user/engine-user.c
report $? "both engines give each thread its addresses with latt_thread_pattern()"
calls latt_acct_merge kmod/run.c user/engine-user.c
report $? "both engines merge their threads' records with latt_acct_merge()"
calls latt_split_part kmod/main.c user/threads.c &&
	calls latt_thread_part kmod/run.c user/engine-user.c
report $? "the split is latt_split_part()'s, for both engines and the CLI's check; each thread's part latt_thread_part()'s"
calls latt_traffic_rules kmod/main.c user/runner.c
report $? "both engines check a --traffic-target with latt_traffic_rules()"
calls latt_thread_role kmod/run.c user/engine-user.c
report $? "both engines give their threads roles with latt_thread_role()"
only 'latt_prng_derive' include/lattester/core.h include/lattester/prng.h
report $? "each thread's seed is made in core.h alone (latt_prng_derive())"
only '0x9e3779b97f4a7c15' include/lattester/prng.h
report $? "SplitMix64's increment is prng.h's alone"
only '\(4ULL << 20\)|LATT_MAX_SERIES - 1' include/lattester/core.h
report $? "no engine spells the chunk or the series' bins out again"
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
only '(>=|>) *LATT_OP_(LOAD|NT_LOAD|STORE)\b|(<=|<) *LATT_OP_NT_STORE\b'
report $? "which ops write is rules.h's latt_rule_is_store() alone (no op ranges)"
# a streaming run held off its CPUs (issue 27): both engines' records are
# read by user/duty.c, and its sentence is written there once
only 'streaming disturbed|DUTY_(OVER|MIN)_PCT|DUTY_WINDOW_(FACTOR|SLACK_US)' \
	user/duty.c user/duty.h
report $? "a disturbed stream's rules and sentence are user/duty.c's alone"
calls duty_of user/runner.c
report $? "the runner reads every run's streams with duty_of(), whichever engine"

# the body of latt_op_lacks() in pick.h
lacks_body()
{
	sed -n '/^static inline const char \*latt_op_lacks(/,/^}/p' \
		include/lattester/pick.h
}

# every CPU feature an op needs is read by both engines' CPU detection
feats=$(lacks_body | grep -o 'LATT_FEAT_[A-Z0-9_]*' | sort -u)
bad=
for feat in $feats; do
	grep -q "\b$feat\b" kmod/ops.c &&
		grep -q "\b$feat\b" user/engine-user.c || bad="$bad $feat"
done
[ -n "$feats" ] && [ -z "$bad" ] || echo "# not set by both engines:${bad:- (none found)}"
report $? "the features latt_op_lacks() asks for are set by both engines ($(echo $feats))"

# and the instruction it names is a feature name lattester-ctl knows (the
# runner's refusal names the op table's feature; sse4.1 is sse4_1 there)
names=$(lacks_body | sed -n 's/.*return "\([a-z0-9._]*\)";.*/\1/p')
bad=
for name in $names; do
	grep -q "^	{ \"${name//./_}\"," user/parse.c || bad="$bad $name"
done
[ -n "$names" ] && [ -z "$bad" ] || echo "# not in feature_names[]:${bad:- (none found)}"
report $? "the instructions latt_op_lacks() names are lattester-ctl's feature names ($(echo $names))"

finish
