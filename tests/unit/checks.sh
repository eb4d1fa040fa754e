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

# interrupt SECONDS CMD...: run CMD in the background as run does, send
# it one Ctrl-C (SIGINT) after SECONDS, and wait: its status in $rc
interrupt()
{
	local secs=$1 pid

	shift
	"$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	sleep "$secs"
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
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

# source_options FILE: the options of the tables in user/FILE (cmd-run.c,
# ...), one a line, as the compiler sees them: the rows a command takes
# from run-opts.h's macros expanded by the preprocessor ($CC, as
# tests/unit/run takes it), not only the rows written in FILE.  $top set.
source_options()
{
	# shellcheck disable=SC2086 # $CC may hold words ("ccache gcc")
	${CC:-cc} -E -P -D_GNU_SOURCE -I"$top/include" -I"$top/user" \
		"$top/user/$1" |
		grep -oE '\{ *"[a-z-]+", *OPT_[A-Z0-9_]+' |
		sed -E 's/^\{ *"([a-z-]+)".*/\1/'
}
