#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-cli-usage.sh - lattester-ctl's command line on a host without the
# module and without root:
#  - --help lists every command of main.c's table, run --help every option
#    of cmd-run.c's table, and Documentation/lattester-ctl-run.md documents
#    the same options (bpftool's synctypes check); the same for list and
#    Documentation/lattester-ctl-list.md;
#  - list works without the module and without pmem (empty lists);
#  - pmem targets that aren't pmem are refused with exit 1;
#  - usage errors exit 2, a missing module exits 1 with the insmod hint,
#    info still prints the host, a write error on stdout exits 1;
#  - with user/test-cli-fake.so (LD_PRELOAD, answers the ioctls like the
#    module) the whole run path: table, JSON, histogram file, module errors,
#    SIGINT -> ABORT -> partial result, exit 130.
#
#   make -C user && make -C user test-cli && bash tests/unit/test-cli-usage.sh
#
# TAP-like lines, then "cli-usage: N passed, N failed" (", N skipped" added
# when something was skipped); exit 1 on a failure.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
ctl=${LATTESTER_CTL:-$top/user/lattester-ctl}
fake=$top/user/test-cli-fake.so
man=$top/Documentation/lattester-ctl-run.md
listman=$top/Documentation/lattester-ctl-list.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
passed=0
failed=0
skipped=0
rc=0

# report STATUS DESCRIPTION...: one TAP line
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
		sed 's/^/#   stderr: /' "$tmp/err" 2>/dev/null | head -5
	fi
}

skip()
{
	n=$((n + 1))
	skipped=$((skipped + 1))
	echo "ok $n - # SKIP $*"
}

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

if [ ! -x "$ctl" ]; then
	echo "not ok 1 - $ctl not built (make -C user)"
	echo "cli-usage: 0 passed, 1 failed"
	exit 1
fi

export LATTESTER_DEV=/nonexistent
unset LATTESTER_LOG LD_PRELOAD

# ---- help, version, and the three lists agreeing ----

commands=$(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)",[[:space:]]*cmd_.*/\1/p' \
	"$top/user/main.c")
options=$(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)", OPT_.*/\1/p' \
	"$top/user/cmd-run.c")
[ -n "$commands" ] && [ -n "$options" ]
report $? "commands and run options found in the sources"

expect 0 "--help" "$ctl" --help
for c in $commands; do
	has "$tmp/out" "^ +$c " "--help lists command '$c'"
done
cp "$tmp/out" "$tmp/main-help"
expect 0 "help" "$ctl" help
cmp -s "$tmp/out" "$tmp/main-help"
report $? "help prints the same as --help"
expect 2 "no command" "$ctl"
expect 2 "unknown command" "$ctl" bogus
has "$tmp/err" "'bogus' is not a command" "unknown command named"
expect 2 "prefix of a command is not a command" "$ctl" ru
expect 2 "help for an unknown command" "$ctl" help bogus
expect 0 "--version" "$ctl" --version
has "$tmp/out" "^lattester-ctl [^ ]+ \(ABI [0-9]+\.[0-9]+\)$" "--version format"

expect 0 "run --help" "$ctl" run --help
cp "$tmp/out" "$tmp/run-help"
for o in $options help; do
	has "$tmp/run-help" "^  --$o( |$)" "run --help lists --$o"
done
for o in $options help; do
	has "$man" "^\`--$o( |\`)" "lattester-ctl-run.md documents --$o"
done
for o in $(sed -n 's/^`--\([a-z-]*\).*/\1/p' "$man"); do
	grep -qE -- "^  --$o( |$)" "$tmp/run-help"
	report $? "documented --$o exists in run --help"
done
expect 0 "help run" "$ctl" help run
cmp -s "$tmp/out" "$tmp/run-help"
report $? "help run prints the same as run --help"
expect 0 "info --help" "$ctl" info --help
has "$tmp/out" "^  --json" "info --help lists --json"

list_options=$(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)", OPT_.*/\1/p' \
	"$top/user/cmd-list.c")
[ -n "$list_options" ]
report $? "list options found in the sources"
expect 0 "list --help" "$ctl" list --help
cp "$tmp/out" "$tmp/list-help"
for o in $list_options help; do
	has "$tmp/list-help" "^  --$o( |$)" "list --help lists --$o"
	has "$listman" "^\`--$o( |\`)" "lattester-ctl-list.md documents --$o"
done
for o in $(sed -n 's/^`--\([a-z-]*\).*/\1/p' "$listman"); do
	grep -qE -- "^  --$o( |$)" "$tmp/list-help"
	report $? "documented list --$o exists in list --help"
done
expect 0 "help list" "$ctl" help list
cmp -s "$tmp/out" "$tmp/list-help"
report $? "help list prints the same as list --help"

if [ -w /dev/full ]; then
	expect 1 "write error on stdout" sh -c "'$ctl' --help >/dev/full"
	has "$tmp/err" "write failure on standard output" "write error named"
else
	skip "no /dev/full"
fi

# ---- usage errors: exit 2 before the device is opened ----

expect 2 "run --op bogus" "$ctl" run --op bogus
has "$tmp/err" "^lattester-ctl run: --op: 'bogus'" "--op bogus named"
has "$tmp/err" "nt-load" "--op error lists the ops"
expect 2 "run --bogus" "$ctl" run --bogus
has "$tmp/err" "unknown option '--bogus'" "unknown option named"
expect 2 "run --op without value" "$ctl" run --op
expect 2 "run with a stray argument" "$ctl" run extra
expect 2 "run --size 100 (not a multiple of 64)" "$ctl" run --size 100
has "$tmp/err" "multiple of 64" "--size 100 explained"
expect 2 "run --size 0" "$ctl" run --size 0
expect 2 "run --size 8M (above 4 MiB)" "$ctl" run --size 8M
expect 2 "run --size 99999999999999999999G" "$ctl" run --size 99999999999999999999G
expect 2 "run --samples 0" "$ctl" run --samples 0
expect 2 "run --samples 1x" "$ctl" run --samples 1x
expect 2 "run --pattern stride:" "$ctl" run --pattern stride:
expect 2 "run --pattern stride:100" "$ctl" run --pattern stride:100
expect 2 "run --pattern stride:2G (beyond the region)" \
	"$ctl" run --pattern stride:2G
expect 2 "run --pattern hotspot:64 --size 128" \
	"$ctl" run --pattern hotspot:64 --size 128
expect 2 "run --pattern bogus" "$ctl" run --pattern bogus
expect 2 "run --target pmem" "$ctl" run --target pmem
expect 2 "run --target dram:x" "$ctl" run --target dram:x
expect 2 "run --chain 4 without chase" "$ctl" run --chain 4
expect 2 "run --chain 0" "$ctl" run --pattern chase --chain 0
expect 2 "run --fence sfence with a load" "$ctl" run --fence sfence
expect 2 "run --fence lfence" "$ctl" run --fence lfence
expect 2 "run --width 24" "$ctl" run --width 24
expect 2 "run --window-us 5" "$ctl" run --window-us 5
expect 2 "run --max-outliers 2000000" "$ctl" run --max-outliers 2000000
expect 2 "run --region 2T" "$ctl" run --region 2T
expect 2 "run --json - --hist -" "$ctl" run --json - --hist -
expect 2 "info bogus" "$ctl" info bogus
expect 2 "list bogus" "$ctl" list bogus
expect 2 "list --bogus" "$ctl" list --bogus
expect 2 "run --target namespace0" "$ctl" run --target namespace0
has "$tmp/err" "expected dram\[:NODE\], a device path" "--target error lists the forms"
expect 2 "run --offset 100 (not page-aligned)" \
	"$ctl" run --target /dev/pmem0 --offset 100
has "$tmp/err" "not a multiple of 4096 bytes" "--offset 100 explained"
expect 2 "run --offset with a dram target" "$ctl" run --offset 4K
has "$tmp/err" "--offset is for pmem" "--offset on dram explained"

# ---- no module ----

expect 1 "run without the module" "$ctl" run
has "$tmp/err" "module not loaded: run 'insmod kmod/lattester.ko' \(or 'modprobe lattester' once installed\)" \
	"run: insmod hint"
expect 1 "run --cpu 99999 (not online)" "$ctl" run --cpu 99999
has "$tmp/err" "not online" "offline CPU named"
expect 1 "run --target dram:999 (no such node)" "$ctl" run --target dram:999
has "$tmp/err" "dram:999: no such NUMA node" "missing node named"
expect 1 "run --target /dev/null (not pmem)" "$ctl" run --target /dev/null
has "$tmp/err" "^lattester-ctl run: /dev/null: not a device-DAX device" \
	"/dev/null refused by name"
expect 1 "run --target /etc/passwd (a file)" "$ctl" run --target /etc/passwd
has "$tmp/err" "/etc/passwd: not a pmem or device-DAX device \(a regular file" \
	"/etc/passwd refused by name"
expect 1 "run --target /nonexistent/pmem0" "$ctl" run --target /nonexistent/pmem0
has "$tmp/err" "/nonexistent/pmem0: No such file or directory" "missing path named"
expect 1 "run --target namespace99.0 (none)" "$ctl" run --target namespace99.0
has "$tmp/err" "namespace99.0: no such namespace" "missing namespace named"
if [ -d /sys/bus/nd/devices ] && ls /sys/bus/nd/devices | grep -q '^region'; then
	skip "list without pmem: this host has pmem regions"
else
	expect 0 "list (no pmem here)" "$ctl" list
	has "$tmp/out" "^  node +cpus" "list: NUMA node header"
	has "$tmp/out" "^persistent memory regions: none$" "list: no regions"
	has "$tmp/out" "^device-DAX devices: none$" "list: no dax devices"
	expect 0 "list --json (no pmem here)" "$ctl" list --json
	if command -v jq >/dev/null; then
		jq -e '.schema == "lattester-list/1" and .regions == [] and
		       .dax_devices == [] and (.numa_nodes | length) >= 1 and
		       (.numa_nodes[0].distances | length) >= 1' "$tmp/out" >/dev/null
		report $? "list --json: valid, empty pmem lists, nodes"
	else
		skip "no jq"
	fi
fi
expect 1 "info without the module" "$ctl" info
has "$tmp/out" "cpu model:" "info prints the CPU model"
has "$tmp/out" "node [0-9]+ +cpus" "info prints the NUMA nodes"
has "$tmp/err" "module not loaded" "info: insmod hint"
expect 1 "info --json without the module" "$ctl" info --json
if command -v jq >/dev/null; then
	jq -e '.schema == "lattester-info/1" and .module == null and
	       (.host.nodes | length) >= 1' "$tmp/out" >/dev/null
	report $? "info --json: valid, module null, nodes listed"
else
	skip "no jq"
fi
expect 1 "run on a device that isn't lattester" \
	env LATTESTER_DEV=/dev/null "$ctl" run
has "$tmp/err" "not a lattester device" "ENOTTY explained"

# ---- the run path against the LD_PRELOAD fake module ----

if [ ! -f "$fake" ]; then
	skip "the run path: $fake not built (make -C user test-cli)"
elif ! command -v jq >/dev/null; then
	skip "the run path: no jq"
else
	f() { env LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$@"; }
	j=$tmp/run.json

	expect 0 "fake: run" f "$ctl" run --samples 10000
	for row in min p50 p90 p99 p99.9 p99.99 max mean; do
		has "$tmp/out" "^$row +[0-9.]+ +[0-9.]+ +[0-9.]+$" \
			"fake: table row $row"
	done
	has "$tmp/out" "^p50 +180 +90.0 +200$" \
		"fake: p50 corrected 180 cycles, 90 ns, raw 200"
	has "$tmp/out" "^seed: +0x1a77e57e$" "fake: default seed printed"
	has "$tmp/out" "^overhead: +20 cycles median, min 18, max 30$" \
		"fake: overhead line"
	[ ! -s "$tmp/err" ]
	report $? "fake: nothing on stderr (not a terminal)"

	expect 0 "fake: run --json --hist" f "$ctl" run --samples 10000 \
		--threshold 500 --max-outliers 5 --seed 0x10 --json "$j" \
		--hist "$tmp/h"
	jq -e '.schema == "lattester-run/1" and
	       .provenance.engine == "kernel" and
	       .provenance.command_line[1] == "run" and
	       (.provenance.start | test("^[0-9-]+T[0-9:]+Z$")) and
	       .config.seed == 16 and .config.fence == "none" and
	       .config.node == 0 and .config.samples == 10000 and
	       .result.state == "done" and .result.samples == 10000 and
	       .result.outliers == 100 and .result.outliers_dropped == 95 and
	       .latency.per == "access" and .latency.cycles.p50 == 180 and
	       .latency.ns.p50 == 90 and .latency.raw_cycles.max == 5000 and
	       (.latency.cycles | keys | length) == 10 and
	       (.outlier_records | length) == 5 and
	       .outlier_records[0].cycles == 980 and
	       .outlier_records[0].raw_cycles == 1000 and
	       .config.target == "dram" and .config.force == false and
	       .target.kind == "dram" and .target.spec == "dram" and
	       .target.node == 0' "$j" >/dev/null 2>&1
	report $? "fake: JSON schema and values"
	has "$tmp/h" "^# lo_cycles hi_cycles count corrected_ns_mid cumulative_fraction$" \
		"fake: histogram column names"
	awk '!/^#/ { if (NF != 5) bad = 1; last = $5; rows++ }
	     END { exit !(rows == 4 && !bad && last == 1) }' "$tmp/h" 2>/dev/null
	report $? "fake: histogram rows, cumulative fraction ends at 1"

	expect 1 "fake: unwritable --json file" f "$ctl" run --samples 1000 \
		--json "$tmp/no/such/dir.json"
	has "$tmp/err" "no/such/dir.json: No such file or directory" \
		"fake: --json write error named"
	has "$tmp/out" "^p50 " "fake: the table is still printed"

	expect 0 "fake: run --json -" f "$ctl" run --samples 1000 --json -
	jq -e '.result.state == "done"' "$tmp/out" >/dev/null
	report $? "fake: --json - puts only JSON on stdout"

	expect 0 "fake: chase chain 4" f "$ctl" run --pattern chase --chain 4 \
		--samples 1000 --json "$j"
	has "$tmp/out" "^latency per load" "fake: chain table says per load"
	jq -e '.latency.per == "load" and .latency.cycles.p50 == 45 and
	       .config.chain == 4' "$j" >/dev/null 2>&1
	report $? "fake: chain figures divided by 4"

	expect 0 "fake: region clamp" f "$ctl" run --samples 1000 --region 1T
	has "$tmp/err" "warning: region clamped to [0-9]+ MiB: node 0 has only [0-9]+ MiB free" \
		"fake: clamp warning"
	has "$tmp/out" "^region: +[0-9]+ (MiB|GiB)$" "fake: clamped region shown"

	expect 1 "fake: START busy" env FAKE_START_ERR=16 \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" \
		"$ctl" run --target dram:0
	has "$tmp/err" "^lattester-ctl run: dram:0: start failed: Device or resource busy" \
		"fake: EBUSY message"
	expect 1 "fake: START ENOMEM" env FAKE_START_ERR=12 \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run
	has "$tmp/err" "start failed: Cannot allocate memory" "fake: ENOMEM message"
	expect 1 "fake: CPU lacks SSE4.1" env FAKE_FEATURES=0 \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run --op nt-load
	has "$tmp/err" "nt-load needs the sse4_1 instruction" "fake: feature named"
	expect 1 "fake: ABI mismatch" env FAKE_ABI=0x20000 \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run
	has "$tmp/err" "module ABI 2.0" "fake: mismatch named"
	expect 0 "fake: info" f "$ctl" info
	has "$tmp/out" "^  features: +rdtscp clflush" "fake: info features"

	FAKE_HANG=1 LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" \
		"$ctl" run --samples 1000 --json "$j" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	sleep 0.5
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	[ "$rc" -eq 130 ]
	report $? "fake: SIGINT exits 130 (exit $rc)"
	jq -e '.result.state == "aborted" and .result.samples == 500' "$j" \
		>/dev/null 2>&1
	report $? "fake: SIGINT result aborted, partial"
	has "$tmp/out" "^state: +aborted \(interrupted\)$" \
		"fake: table marks the run aborted"

	if command -v script >/dev/null; then
		# the fake reports 500/1000 on its first two polls
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" script -qec \
			"'$ctl' run --samples 1000" /dev/null >"$tmp/tty" 2>&1
		grep -q "lattester-ctl run: 500/1000 samples (50.0%)" "$tmp/tty"
		report $? "fake: progress line on a terminal"
	else
		skip "no script(1) for a terminal"
	fi
fi

if [ "$skipped" -eq 0 ]; then
	echo "cli-usage: $passed passed, $failed failed"
else
	echo "cli-usage: $passed passed, $failed failed, $skipped skipped"
fi
[ "$failed" -eq 0 ]
