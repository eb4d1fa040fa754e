#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-cli-usage.sh - lattester-ctl's command line on a host without the
# module and without root:
#  - --help lists every command of main.c's table, run --help every option
#    of cmd-run.c's table, and Documentation/lattester-ctl-run.md documents
#    the same options (bpftool's synctypes check); the same for list, sweep,
#    plot and compare and their Documentation/lattester-ctl-CMD.md;
#  - list works without the module and without pmem (empty lists);
#  - pmem targets that aren't pmem are refused with exit 1;
#  - usage errors exit 2, a missing module exits 1 with the insmod hint;
#    info without the module prints the host (tsc_khz and its source, the
#    user engine's features and widths, page sizes) and the module's status
#    and exits 0, exits 1 for a device that answers but can't be used (ABI
#    mismatch, not lattester); a write error on stdout exits 1;
#  - --samples takes decimal counts (10k, 1.5M, 1e4), sizes refuse KB/MB
#    naming K/KiB; output files are checked before anything is measured;
#  - percentiles too few samples support: "-" in the table and the
#    per-thread table, with the reason, and named in the JSON;
#  - --hist FILE.hgrm (or --hist-format hgrm): HdrHistogram's percentile
#    distribution, read back and checked against the run's JSON
#    (check-hgrm.py);
#  - with user/test-cli-fake.so (LD_PRELOAD, answers the ioctls like the
#    module) the whole run path: table, JSON, histogram file, module errors,
#    SIGINT -> ABORT -> partial result, exit 130; outlier files and
#    thresholds in cycles, time and multiples of the median; sweeps into CSV
#    and JSON lines, --resume, --dry-run, Ctrl-C once and twice; a quiet
#    bandwidth run's duty cycle of 100%, a stalled one's warning and duty
#    cycle from the module's records (FAKE_STALL_US).
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

rc=0
TAP_NAME=cli-usage
TAP_ERR=$tmp/err	# a failed check shows the command's stderr
. "$top/tests/tap.sh"
. "$top/tests/unit/checks.sh"

if [ ! -x "$ctl" ]; then
	report 1 "$ctl not built (make -C user)"
	finish
fi

export LATTESTER_DEV=/nonexistent
unset LATTESTER_LOG LD_PRELOAD

# ---- help, version, and the three lists agreeing ----

commands=$(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)",[[:space:]]*cmd_.*/\1/p' \
	"$top/user/main.c")
options=$(source_options cmd-run.c)
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

list_options=$(source_options cmd-list.c)
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

# sweep, plot and compare: --help, the man page and the sources agree
for cmd in sweep plot compare; do
	src=$top/user/cmd-$cmd.c
	doc=$top/Documentation/lattester-ctl-$cmd.md
	opts=$(source_options "cmd-$cmd.c")
	[ -n "$opts" ]
	report $? "$cmd options found in the sources"
	expect 0 "$cmd --help" "$ctl" "$cmd" --help
	cp "$tmp/out" "$tmp/$cmd-help"
	for o in $opts help; do
		has "$tmp/$cmd-help" "^  --$o( |$)" "$cmd --help lists --$o"
		has "$doc" "^\`--$o( |\`)" "lattester-ctl-$cmd.md documents --$o"
	done
	for o in $(sed -n 's/^`--\([a-z-]*\).*/\1/p' "$doc"); do
		grep -qE -- "^  --$o( |$)" "$tmp/$cmd-help"
		report $? "documented $cmd --$o exists in $cmd --help"
	done
	expect 0 "help $cmd" "$ctl" help "$cmd"
	cmp -s "$tmp/out" "$tmp/$cmd-help"
	report $? "help $cmd prints the same as $cmd --help"
done

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
# an option of one value given twice: refused, both values named (the
# second silently won before); a sweep's lists and --out add up
expect 2 "run --size 64 --size 128" "$ctl" run --size 64 --size 128
has "$tmp/err" "^lattester-ctl run: --size given twice \\('64', then '128'\\): it takes one value$" \
	"--size twice: both values named"
expect 2 "matrix --stat p50 --stat mean" "$ctl" matrix --stat p50 --stat mean
has "$tmp/err" "^lattester-ctl matrix: --stat given twice \\('p50', then 'mean'\\)" \
	"matrix --stat twice: named"
expect 2 "sweep --samples 1000 --samples 2000" "$ctl" sweep --engine user \
	--samples 1000 --samples 2000 --dry-run
has "$tmp/err" "^lattester-ctl sweep: --samples given twice \\('1000', then '2000'\\)" \
	"sweep --samples twice: named"
# --op durable: the fence is the sequence's; DRAM has no durable store
expect 2 "run --op durable --fence mfence" "$ctl" run --op durable --fence mfence
has "$tmp/err" "^lattester-ctl run: --op durable times the target's durable sequence, its fence \\(sfence\\) included: leave --fence out$" \
	"--op durable with --fence: the fence is the sequence's"
expect 1 "run --engine user --op durable on DRAM" "$ctl" run --engine user \
	--op durable --samples 100 --region 16M
has "$tmp/err" "^lattester-ctl run: --op durable: dram: DRAM keeps nothing across a power loss: no store makes it durable" \
	"--op durable on DRAM: refused, saying why"
expect 0 "sweep --size 64 --size 128: a list given in two" "$ctl" sweep \
	--engine user --size 64 --size 128 --region 16M --dry-run
[ "$(grep -c ';size=' "$tmp/out")" -eq 2 ]
report $? "sweep --size 64 --size 128: two points"
expect 2 "run with a stray argument" "$ctl" run extra
expect 2 "run --size 100 (not a multiple of 64)" "$ctl" run --size 100
has "$tmp/err" "multiple of 64" "--size 100 explained"
expect 2 "run --size 0" "$ctl" run --size 0
expect 2 "run --size 8M (above 4 MiB)" "$ctl" run --size 8M
expect 2 "run --size 99999999999999999999G" "$ctl" run --size 99999999999999999999G
expect 2 "run --samples 0" "$ctl" run --samples 0
expect 2 "run --samples 1x" "$ctl" run --samples 1x
has "$tmp/err" "--samples: '1x': invalid value \(expected a count such as 100000, 100k, 1.5M, 1e6 or 0x186a0; k, M and G are decimal: 1M = 1000000\)" \
	"--samples 1x: the count forms named, decimal said"
for bad in 1.5 1KiB 1Ki 1e3k 1e 1.k 2T -1 10k5; do
	expect 2 "run --samples $bad" "$ctl" run --samples "$bad"
done
expect 2 "run --samples 2e12 (beyond 2^40)" "$ctl" run --samples 2e12
has "$tmp/err" "--samples: 2000000000000 is out of range" "--samples 2e12: the value named"
expect 2 "run --size 4KB" "$ctl" run --size 4KB
has "$tmp/err" "--size: '4KB': not a size unit: sizes are binary, say K or KiB \(1024 bytes\)" \
	"--size 4KB: refused, K and KiB named"
expect 2 "run --region 16MB" "$ctl" run --region 16MB
has "$tmp/err" "--region: '16MB': not a size unit.*KB, MB, GB and lowercase units are refused" \
	"--region 16MB: refused, why said"
expect 2 "run --pattern stride:4kb" "$ctl" run --pattern stride:4kb
has "$tmp/err" "say K or KiB" "--pattern stride:4kb: K or KiB named"
expect 2 "run --hist-format bogus" "$ctl" run --hist-format bogus --hist x
has "$tmp/err" "--hist-format: 'bogus': invalid value \(expected gnuplot\|hgrm\)" \
	"--hist-format bogus: the formats named"
expect 2 "run --hist-format hgrm without --hist" "$ctl" run --hist-format hgrm
has "$tmp/err" "--hist-format needs --hist" "--hist-format without --hist: said"
expect 2 "run --json and --hist on one file" "$ctl" run --json "$tmp/same" \
	--hist "$tmp/same"
has "$tmp/err" "--json and --hist both write '$tmp/same'" "one file for two outputs: named"
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
expect 2 "run --cpus 0,0" "$ctl" run --cpus 0,0
has "$tmp/err" "CPU 0 is listed twice" "--cpus duplicate named"
expect 2 "run --cpus 0-" "$ctl" run --cpus 0-
expect 2 "run --threads 0" "$ctl" run --threads 0
expect 2 "run --threads 3 --cpus 0,1" "$ctl" run --threads 3 --cpus 0,1
expect 2 "run --cpu 1 --cpus 0,1" "$ctl" run --cpu 1 --cpus 0,1
expect 2 "run --mode bogus" "$ctl" run --mode bogus
expect 2 "run --mode loaded, one thread" "$ctl" run --mode loaded
has "$tmp/err" "at least 2 threads" "loaded without threads explained"
expect 2 "run --mode bandwidth --samples 10" \
	"$ctl" run --mode bandwidth --samples 10
expect 2 "run --mode bandwidth --threshold 2us" \
	"$ctl" run --mode bandwidth --threshold 2us
expect 2 "run --mode bandwidth --pattern chase" \
	"$ctl" run --mode bandwidth --pattern chase
expect 2 "run --duration 1s in latency mode" "$ctl" run --duration 1s
expect 2 "run --duration 10us" "$ctl" run --mode bandwidth --duration 10us
expect 2 "run --mix 1:1 in latency mode" "$ctl" run --mix 1:1
expect 2 "run --mix 0:0" "$ctl" run --mode bandwidth --mix 0:0
expect 2 "run --write-op load" "$ctl" run --mode bandwidth --write-op load
expect 2 "run --delay 2^20 + 1" "$ctl" run --mode loaded --threads 2 \
	--delay 1048577
expect 2 "run --threads 2 --pattern chase" \
	"$ctl" run --threads 2 --pattern chase
expect 2 "run --split --pattern chase" "$ctl" run --mode loaded \
	--threads 2 --split --pattern chase
expect 2 "run --mode loaded --pattern chase --mix 1:1" "$ctl" run \
	--mode loaded --threads 2 --pattern chase --mix 1:1
expect 2 "run --split, parts below --size" "$ctl" run --split \
	--threads 2 --region 4K --size 4K
# the user engine runs threads now, under the same rules
expect 2 "run --engine user --threads 2 --pattern chase" "$ctl" run \
	--engine user --threads 2 --pattern chase
has "$tmp/err" "chase is one chain" \
	"--engine user: several threads can't chase, as for the module"
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

expect 2 "run --threshold 10 x" "$ctl" run --threshold "10 x"
has "$tmp/err" "a multiple of the median such as 10x" "--threshold forms listed"
expect 2 "run --threshold 0x" "$ctl" run --threshold 0x
expect 2 "run --threshold 5s" "$ctl" run --threshold 5s
expect 2 "run --outliers without --threshold" "$ctl" run --outliers "$tmp/o.csv"
has "$tmp/err" "--outliers needs --threshold" "--outliers without threshold explained"
expect 2 "run --outliers o.txt" "$ctl" run --threshold 10x --outliers "$tmp/o.txt"
has "$tmp/err" "must end in .csv or .json" "--outliers extension explained"
expect 2 "sweep without --out" "$ctl" sweep
has "$tmp/err" "--out FILE.csv or --out FILE.jsonl is needed" "sweep --out explained"
expect 2 "sweep --out x.json" "$ctl" sweep --out "$tmp/x.json"
expect 2 "sweep two .csv files" "$ctl" sweep --out "$tmp/a.csv" --out "$tmp/b.csv"
expect 2 "sweep --size 64..4096 (no step)" "$ctl" sweep --dry-run --size 64..4096
expect 0 "sweep --pattern chase --chain 4 (the chain is the point's)" \
	"$ctl" sweep --dry-run --pattern chase --chain 4
expect 2 "sweep --chain 0" "$ctl" sweep --dry-run --chain 0
expect 0 "sweep --mode loaded --threads 2 --delay 0..1000+500" \
	"$ctl" sweep --dry-run --mode loaded --threads 2 --delay 0..1000+500
has "$tmp/out" "threads=2;delay=500;" "sweep: threads and delay in the key"
expect 0 "sweep --cpus 0-63 (long when expanded)" "$ctl" sweep --dry-run \
	--mode bandwidth --threads 2 --cpus 0-63
has "$tmp/out" ";cpus=0-63;" "sweep: --cpus in the key as given, whole"
expect 2 "sweep --threads 0" "$ctl" sweep --dry-run --threads 0
expect 2 "sweep --delay beyond 2^20" "$ctl" sweep --dry-run --mode loaded \
	--threads 2 --delay 2000000
expect 2 "sweep --cpus with --cpu" "$ctl" sweep --dry-run --cpus 0,1 --cpu 0
expect 2 "sweep --size 64,100" "$ctl" sweep --dry-run --size 64,100
has "$tmp/err" "not a multiple of 64" "sweep --size 100 explained"
expect 2 "sweep --op load,bogus" "$ctl" sweep --dry-run --op load,bogus
has "$tmp/err" "--op: 'bogus'" "sweep names the bad item"
expect 2 "sweep --pattern stride" "$ctl" sweep --dry-run --pattern stride
expect 2 "sweep --cpu 0..x" "$ctl" sweep --dry-run --cpu 0..x
expect 2 "sweep --json" "$ctl" sweep --dry-run --json x
expect 2 "sweep --samples 0" "$ctl" sweep --dry-run --samples 0
expect 2 "sweep --threshold bogus" "$ctl" sweep --dry-run --threshold bogus
expect 0 "sweep --dry-run lists the points" "$ctl" sweep --dry-run \
	--op load,store-clwb --size 64..256x2 --pattern seq --hotspot 64,4K \
	--fence default,sfence
[ "$(wc -l <"$tmp/out")" -eq 36 ]
report $? "dry run: 36 points listed ($(wc -l <"$tmp/out"))"
[ "$(grep -c ' skip ' "$tmp/out")" -eq 15 ]
report $? "dry run: sfence with load (9) and hotspot:64 under 128/256 B (6) skipped"
has "$tmp/err" "9 points skipped: --fence sfence is for store ops" "skip reason: sfence"
has "$tmp/err" "6 points skipped: the hotspot must be at least --size" "skip reason: hotspot"
has "$tmp/out" "^1 run target=dram;cpu=0;op=load;fence=default;pattern=seq;size=64;samples=100000;" \
	"dry run: the first point's key"
expect 1 "sweep where no point can run" "$ctl" sweep --dry-run --op load --fence sfence
has "$tmp/err" "no point of the grid can run" "nothing to run: said"
expect 0 "plot --help" "$ctl" plot --help
expect 2 "plot without a kind" "$ctl" plot --in x
expect 2 "plot hist without --in" "$ctl" plot hist
expect 2 "plot --canvas 10x10" "$ctl" plot hist --in x --canvas 10x10
expect 2 "plot --stat p42" "$ctl" plot sweep --in x --stat p42
expect 2 "plot --x threads" "$ctl" plot sweep --in x --x threads

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
expect 0 "info without the module" "$ctl" info
has "$tmp/out" "cpu model:" "info prints the CPU model"
has "$tmp/out" "node [0-9]+ +cpus" "info prints the NUMA nodes"
has "$tmp/out" "^  tsc_khz: +[1-9][0-9]* \((the kernel's, /sys/devices/system/cpu/cpu0/tsc_freq_khz|calibrated for 100 ms against CLOCK_MONOTONIC_RAW: the kernel exports no tsc_freq_khz)\)$" \
	"info: tsc_khz and its source"
if [ -r /sys/devices/system/cpu/cpu0/tsc_freq_khz ]; then
	has "$tmp/out" "^  tsc_khz: +$(cat /sys/devices/system/cpu/cpu0/tsc_freq_khz) \(the kernel's" \
		"info: tsc_khz is the kernel's tsc_freq_khz"
else
	has "$tmp/out" "^  tsc_khz: .*calibrated" \
		"info: no tsc_freq_khz here: tsc_khz calibrated, said"
fi
has "$tmp/out" "^  features: +.*clflush.* \(--engine user\)$" \
	"info: the user engine's features"
has "$tmp/out" "^  widths: +8( 16)?( 32)?( 64)? bytes \(--engine user\)$" \
	"info: the user engine's widths"
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
has "$tmp/out" "^  pages: +4 KiB; transparent huge pages ${thp:-unknown}" \
	"info: 4 KiB pages and THP's mode (${thp:-unknown})"
if [ -d /sys/kernel/mm/hugepages/hugepages-2048kB ]; then
	has "$tmp/out" "^  pages: .*hugetlb .*2 MiB \([0-9]+ in the pool, [0-9]+ free\)" \
		"info: the hugetlb sizes and their pools"
else
	has "$tmp/out" "^  pages: .*no hugetlb sizes" "info: no hugetlb sizes, said"
fi
has "$tmp/out" "^  status: +module not loaded: run 'insmod kmod/lattester.ko' .*'run --engine user' measures without it$" \
	"info: the module's status, why, and the way without it"
[ ! -s "$tmp/err" ]
report $? "info without the module: nothing on stderr"
LATTESTER_HWCAPS=-avx512f,-avx,-clwb run "$ctl" info
has "$tmp/out" "^  widths: +8 16 bytes \(--engine user\)$" \
	"info: LATTESTER_HWCAPS=-avx512f,-avx: widths 8 16"
! grep -E "^  features: .* clwb " "$tmp/out" >/dev/null
report $? "info: LATTESTER_HWCAPS=-clwb: no clwb"
expect 0 "info --json without the module" "$ctl" info --json
if command -v jq >/dev/null; then
	jq -e '.schema == "lattester-info/1" and .module == null and
	       .module_status == "not-loaded" and
	       (.module_error | test("^module not loaded")) and
	       (.host.nodes | length) >= 1 and .host.tsc_khz > 0 and
	       (.host.tsc_khz_source == "kernel" or
	        .host.tsc_khz_source == "calibrated") and
	       (.host.features | index("clflush")) != null and
	       (.host.widths | index(8)) != null and
	       .host.pages.base == 4096 and
	       (.host.pages.hugetlb | type) == "array"' "$tmp/out" >/dev/null
	report $? "info --json: valid, module null, status, tsc_khz, features, pages"
else
	skip "no jq"
fi
expect 1 "info on a device that isn't lattester" env LATTESTER_DEV=/dev/null \
	"$ctl" info
has "$tmp/out" "^  status: +not a lattester device" "info: not lattester, said"
has "$tmp/err" "/dev/null: not a lattester device" "info: not lattester, on stderr"
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

	# the fake has no LATT_FEAT_THREADS by default
	expect 1 "fake: --mode bandwidth on a module without threads" \
		f "$ctl" run --mode bandwidth --duration 10ms
	has "$tmp/err" "need the module's 'threads' feature" \
		"fake: the missing feature named"
	# ABI 2.0 has a magic of its own: a 1.x module answers only its old
	# GET_INFO, and is named for what it is
	expect 1 "fake: a module of ABI 1.3 (magic 0xb7)" \
		env FAKE_ABI=65539 LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" \
		"$ctl" run --samples 10
	abi=$(sed -n 's/^#define LATT_ABI_MAJOR[[:space:]]*\([0-9]*\)$/\1/p;
		s/^#define LATT_ABI_MINOR[[:space:]]*\([0-9]*\)$/.\1/p' \
		"$top/include/uapi/lattester.h" | tr -d '\n')
	has "$tmp/err" "this lattester module speaks ABI 1.3 \(ioctl magic 0xb7\); lattester-ctl speaks ${abi//./\\.} \(0xbc\): load the module of this release" \
		"fake: ... the old ABI and both magics named"
	# one rule book (rules.h): the kernel engine refuses before START, in
	# the very words of the user engine
	for bad in "--op store" "--warm" "--fence mfence"; do
		expect 2 "fake: chase with $bad refused before START" \
			f "$ctl" run --pattern chase $bad --samples 10 --region 1M
		cp "$tmp/err" "$tmp/err.kernel"
		run "$ctl" run --engine user --pattern chase $bad --samples 10 \
			--region 1M
		[ -s "$tmp/err" ] && cmp -s "$tmp/err" "$tmp/err.kernel"
		report $? "chase with $bad: both engines say the same"
	done
	# an op whose instruction the CPU lacks (movdir64b: none here, or
	# hidden by LATTESTER_HWCAPS where it has one; the module's GET_INFO
	# features, here the fake's): refused in the very same words
	no_md="lattester-ctl run: --op movdir64b needs the movdir64b instruction, which this CPU lacks"
	expect 1 "fake: --op movdir64b without the movdir64b feature: refused" \
		f "$ctl" run --op movdir64b --samples 10 --region 1M
	cp "$tmp/err" "$tmp/err.kernel"
	run env LATTESTER_HWCAPS=-movdir64b "$ctl" run --engine user \
		--op movdir64b --samples 10 --region 1M
	[ "$rc" -eq 1 ] && [ "$(cat "$tmp/err")" = "$no_md" ] &&
		cmp -s "$tmp/err" "$tmp/err.kernel"
	report $? "--op movdir64b without the instruction: both engines say '$no_md'"
	# the mix's write op lacking it: the message names --write-op
	expect 1 "fake: --write-op movdir64b without the feature: refused" \
		env FAKE_FEATURES=$((((1 << 12) - 1) | (1 << 13))) \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run \
		--mode loaded --threads 2 --mix 1:1 --write-op movdir64b \
		--samples 10 --region 1M
	has "$tmp/err" "^lattester-ctl run: --write-op movdir64b needs the movdir64b instruction, which this CPU lacks$" \
		"--write-op movdir64b without the instruction: the message names --write-op"
	# where the CPU has it (the fake's feature bit): it runs, at 64 bytes
	md_feat=$((((1 << 12) - 1) | (1 << 18)))
	expect 0 "fake: --op movdir64b with the movdir64b feature runs" \
		env FAKE_FEATURES=$md_feat LATTESTER_DEV=/dev/null \
		LD_PRELOAD="$fake" "$ctl" run --op movdir64b --samples 1000 \
		--region 1M --json "$j"
	jq -e '.config.op == "movdir64b"' "$j" >/dev/null 2>&1
	report $? "fake: --op movdir64b: the JSON names the op movdir64b"
	expect 1 "fake: --op movdir64b --width 32: refused" \
		env FAKE_FEATURES=$md_feat LATTESTER_DEV=/dev/null \
		LD_PRELOAD="$fake" "$ctl" run --op movdir64b --width 32 \
		--samples 10 --region 1M
	has "$tmp/err" "^lattester-ctl run: dram:0: --op movdir64b stores 64 bytes at a time: --width must be 64 \(or auto\)$" \
		"fake: ... the width it has named"
	expect 1 "fake: --op movdir64b, a module of ABI 2.1: refused" \
		env FAKE_FEATURES=$md_feat FAKE_ABI=0x20001 \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run \
		--op movdir64b --samples 10 --region 1M
	has "$tmp/err" "module \(ABI 2\.1\) has no --op movdir64b \(ABI 2\.2\)" \
		"fake: ... the module's ABI named, not the CPU"
	expect 1 "fake: no rdtscp, a module without timer_rdtsc: refused" \
		env FAKE_FEATURES=$(((1 << 12) - 2)) \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run --samples 10
	has "$tmp/err" "times only with rdtscp, which this CPU lacks.*timer_rdtsc" \
		"fake: ... the missing timer and ABI named"
	expect 0 "fake: run" f "$ctl" run --samples 10000
	for row in min p50 p90 p99 p99.9 max mean; do
		# min and max are samples: no interval; the rest have one
		case $row in
		min|max) ci= ;;
		*) ci=" +\[[0-9.]+, [0-9.]+\]" ;;
		esac
		has "$tmp/out" "^$row +[0-9.]+ +[0-9.]+ +[0-9.]+$ci$" \
			"fake: table row $row"
	done
	# 10000 samples: p99.99 needs 100000
	has "$tmp/out" "^p99.99 +- +- +-$" "fake: p99.99 of 10000 samples: -"
	has "$tmp/out" "^-: 10000 samples are too few for p99.99 \(100000 needed\): a percentile q needs 10/\(1-q\) samples" \
		"fake: why p99.99 is -, said once"
	has "$tmp/out" "^p50 +180 +90.0 +200 +\[89.5, 90.5\]$" \
		"fake: p50 corrected 180 cycles, 90 ns, raw 200, its interval one quantum (1 cycle) each side of 200"
	has "$tmp/out" "^seed: +0x1a77e57e$" "fake: default seed printed"
	has "$tmp/out" "^overhead: +20 cycles median, min 18, max 30$" \
		"fake: overhead line"
	[ ! -s "$tmp/err" ]
	report $? "fake: nothing on stderr (not a terminal)"
	expect 0 "fake: run --samples 100k" f "$ctl" run --samples 100k
	has "$tmp/out" "^samples: +100000 of 100000$" "fake: --samples 100k is 100000"
	has "$tmp/out" "^p99.99 +4980 +2490.0 +5000 +\[2489.5, 2490.5\]$" "fake: p99.99 of 100000 samples (the max, 5000, each time), its interval the max -+ one quantum"
	! grep -q "^-: " "$tmp/out"
	report $? "fake: 100000 samples: no '-' note"
	for spec in "1e4 10000" "1.5k 1500" "10K 10000" "0x2710 10000" "2.5e3 2500"; do
		set -- $spec
		run f "$ctl" run --samples "$1"
		grep -q "^samples: *$2 of $2$" "$tmp/out"
		report $? "fake: --samples $1 is $2"
	done
	expect 0 "fake: sweep --samples 2k" f "$ctl" sweep --dry-run --samples 2k
	has "$tmp/out" ";samples=2000;" "fake: sweep takes --samples 2k as 2000 (run's parser)"

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

	# outputs are checked before the run: nothing is measured in vain
	expect 1 "fake: --json in a folder that doesn't exist" f "$ctl" run \
		--samples 1000 --json "$tmp/no/such/dir.json"
	has "$tmp/err" "^lattester-ctl run: --json: cannot write $tmp/no/such/dir.json: its folder $tmp/no/such: No such file or directory; nothing was measured$" \
		"fake: --json: the path and the folder named, one line"
	[ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]
	report $? "fake: nothing measured, no table"
	mkdir -p "$tmp/adir"
	expect 1 "fake: --hist is a directory" f "$ctl" run --samples 1000 \
		--hist "$tmp/adir"
	has "$tmp/err" "^lattester-ctl run: --hist: cannot write $tmp/adir: Is a directory; nothing was measured$" \
		"fake: --hist directory named"
	: >"$tmp/plainfile"
	expect 1 "fake: --outliers under a file" f "$ctl" run --samples 1000 \
		--threshold 500 --outliers "$tmp/plainfile/o.csv"
	has "$tmp/err" "--outliers: cannot write $tmp/plainfile/o.csv: .*Not a directory; nothing was measured$" \
		"fake: --outliers under a file named"
	if [ "$(id -u)" != 0 ]; then
		mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
		expect 1 "fake: --json in a read-only folder" f "$ctl" run \
			--samples 1000 --json "$tmp/ro/x.json"
		has "$tmp/err" "--json: cannot write $tmp/ro/x.json: no file can be created in $tmp/ro: Permission denied" \
			"fake: read-only folder named"
	else
		skip "a read-only folder: root writes anyway"
	fi
	if [ -w /dev/full ]; then
		# a write that fails after the run (the disk full) is still said
		expect 1 "fake: --json to a full disk" f "$ctl" run \
			--samples 1000 --json /dev/full
		has "$tmp/err" "/dev/full: No space left on device" \
			"fake: a write error after the run named"
		has "$tmp/out" "^p50 " "fake: the table is still printed"
	else
		skip "no /dev/full"
	fi
	# what root may not write either is found by making the file: the
	# kernel's filesystems, a full disk, a read-only mount, before the run
	for o in /proc/latt-test.json /sys/latt-test.json /proc/self/comm; do
		expect 1 "fake: --json $o" f "$ctl" run --samples 1000 --json "$o"
		has "$tmp/err" "^lattester-ctl run: --json: cannot write $o: it is on (procfs|sysfs), the kernel's, which holds no results; nothing was measured$" \
			"fake: --json $o: refused before the run, its filesystem named"
	done
	mnt=$tmp/mnt
	mkdir -p "$mnt/full" "$mnt/ro"
	if mount -t tmpfs -o size=64k tmpfs "$mnt/full" 2>/dev/null; then
		dd if=/dev/zero of="$mnt/full/fill" bs=4k 2>/dev/null
		expect 1 "fake: --hist on a full filesystem" f "$ctl" run \
			--samples 1000 --hist "$mnt/full/h.txt"
		has "$tmp/err" "^lattester-ctl run: --hist: cannot write $mnt/full/h.txt: No space left on device; nothing was measured$" \
			"fake: a full filesystem said before the run"
		[ "$(ls "$mnt/full")" = fill ] && [ ! -s "$tmp/out" ]
		report $? "fake: the check left no file behind, and nothing was measured"
		umount "$mnt/full"
	else
		skip "a full filesystem: no tmpfs can be mounted here (needs CAP_SYS_ADMIN)"
	fi
	if mount -t tmpfs -o ro tmpfs "$mnt/ro" 2>/dev/null; then
		expect 1 "fake: --outliers on a read-only mount" f "$ctl" run \
			--samples 1000 --threshold 500 --outliers "$mnt/ro/o.csv"
		has "$tmp/err" "^lattester-ctl run: --outliers: cannot write $mnt/ro/o.csv: no file can be created in $mnt/ro: Read-only file system; nothing was measured$" \
			"fake: a read-only mount said before the run, even to root"
		umount "$mnt/ro"
	else
		skip "a read-only mount: no tmpfs can be mounted here (needs CAP_SYS_ADMIN)"
	fi
	# a link to a file not made yet: the file is made where it points
	ln -sf "$tmp/linked.json" "$tmp/link.json"
	rm -f "$tmp/linked.json"
	expect 0 "fake: --json through a dangling link" f "$ctl" run \
		--samples 1000 --json "$tmp/link.json"
	[ -L "$tmp/link.json" ] && [ -s "$tmp/linked.json" ]
	report $? "fake: the link kept, its target written"
	# one check for every command's outputs
	"$ctl" sweep --engine user --size 64 --samples 100 --region 16M \
		--out /proc/latt-test.csv >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 1 ] && grep -q "^lattester-ctl sweep: --out: cannot write /proc/latt-test.csv: it is on procfs, the kernel's, which holds no results; nothing was measured$" "$tmp/err" &&
		[ ! -s "$tmp/out" ]
	report $? "sweep --out under /proc: refused before the first point"
	"$ctl" matrix --engine user --samples 100 --region 16M \
		--json /sys/latt-test.json >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 1 ] && grep -q "^lattester-ctl matrix: --json: cannot write /sys/latt-test.json: it is on sysfs" "$tmp/err"
	report $? "matrix --json under /sys: refused before the first cell"
	"$ctl" plot hist --in "$tmp/h" --out /proc/latt-test.png \
		>"$tmp/out" 2>"$tmp/err"
	[ $? -eq 1 ] && grep -q "^lattester-ctl plot: --out: cannot write /proc/latt-test.png: it is on procfs, the kernel's, which holds no results; nothing was drawn$" "$tmp/err" &&
		[ "$(wc -l <"$tmp/err")" -eq 1 ]
	report $? "plot --out under /proc: one line of ours, not gnuplot's"

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
	expect 1 "fake: ABI mismatch" env FAKE_ABI=0x30000 \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run
	has "$tmp/err" "module ABI 3.0" "fake: mismatch named"
	expect 0 "fake: info" f "$ctl" info
	has "$tmp/out" "^  features: +rdtscp clflush" "fake: info features"
	has "$tmp/out" "^  status: +usable$" "fake: info: the module is usable"
	expect 0 "fake: info --json" f "$ctl" info --json
	jq -e '.module_status == "ok" and .module.tsc_khz == 2000000 and
	       (has("module_error") | not)' "$tmp/out" >/dev/null 2>&1
	report $? "fake: info --json: module_status ok, no module_error"
	expect 1 "fake: info, ABI mismatch" env FAKE_ABI=0x30000 \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" info
	has "$tmp/out" "^  status: +ABI mismatch: the module's is 3.0 .* rebuild one of them$" \
		"fake: info: the mismatch in the status"
	has "$tmp/out" "^  tsc_khz: " "fake: info: the host part still shown"
	has "$tmp/err" "ABI mismatch" "fake: info: the mismatch on stderr"
	expect 1 "fake: info --json, ABI mismatch" env FAKE_ABI=0x30000 \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" info --json
	jq -e '.module_status == "abi-mismatch" and
	       .module.abi_compatible == false and
	       (.module_error | test("ABI mismatch"))' "$tmp/out" >/dev/null 2>&1
	report $? "fake: info --json: abi-mismatch, the module block kept"

	# --hist FILE.hgrm: HdrHistogram's percentile distribution
	expect 0 "fake: --hist run.hgrm" f "$ctl" run --samples 10000 \
		--hist "$tmp/run.hgrm" --json "$j"
	python3 "$top/tests/unit/check-hgrm.py" "$tmp/run.hgrm" "$j"
	report $? "fake: .hgrm read back: layout, levels, figures as the JSON's"
	has "$tmp/run.hgrm" "^      90.000 0.500000000000       9000           2.00$" \
		"fake: .hgrm: p50 90 ns at 0.5, 9000 samples up to it"
	has "$tmp/run.hgrm" "^    2490.000 1.000000000000      10000$" \
		"fake: .hgrm: the max row, 100%, no 1/(1-Percentile)"
	has "$tmp/run.hgrm" "^#\[Max     = +2490.000, Total count    = +10000\]$" \
		"fake: .hgrm footer: max and count"
	expect 0 "fake: --hist - --hist-format hgrm" f "$ctl" run --samples 1000 \
		--hist - --hist-format hgrm
	head -1 "$tmp/out" | grep -q "^       Value     Percentile TotalCount 1/(1-Percentile)$"
	report $? "fake: --hist-format hgrm to stdout: the .hgrm header first"
	expect 0 "fake: --hist x.hgrm --hist-format gnuplot" f "$ctl" run \
		--samples 1000 --hist "$tmp/cols.hgrm" --hist-format gnuplot
	has "$tmp/cols.hgrm" "^# lo_cycles hi_cycles count" \
		"fake: --hist-format gnuplot wins over the extension"
	expect 0 "fake: --pattern chase --chain 4 --hist c.hgrm" f "$ctl" run \
		--pattern chase --chain 4 --samples 10000 --hist "$tmp/c.hgrm" \
		--json "$j"
	python3 "$top/tests/unit/check-hgrm.py" "$tmp/c.hgrm" "$j" &&
		grep -q "^# Value: ns per load" "$tmp/c.hgrm"
	report $? "fake: chain 4: .hgrm per load, as the JSON"

	# per-thread p99 of too few samples (a module with threads, ABI 1.2)
	F=$(( (1 << 12) - 1 | 1 << 13 ))
	# ABI 2.1: large timed accesses on several CPUs at once are refused
	# before START (rules.h), with the rule's sentence
	expect 1 "fake: --threads 2 --size 512K refused" env FAKE_FEATURES=$F \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run \
		--threads 2 --size 512K --samples 10
	has "$tmp/err" "--size above 256 KiB is for one thread: several threads would each keep interrupts off for a whole access" \
		"fake: ... the interrupts-off reason given"
	expect 0 "fake: --threads 2 --size 256K runs" env FAKE_FEATURES=$F \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run \
		--threads 2 --size 256K --samples 10
	expect 0 "fake: --threads 2 --samples 500" env FAKE_FEATURES=$F \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run \
		--threads 2 --samples 500 --json "$j"
	has "$tmp/out" "^0 +[0-9]+ +[0-9]+ latency +500 +90.0 +- " \
		"fake: threads: p99 of 500 samples is -"
	has "$tmp/out" "^-: too few samples for that percentile: p50 needs 20, p99 1000" \
		"fake: threads: why, said once"
	jq -e '.threads.threads[0].latency_unsupported == ["p99", "p99.9"] and
	       .latency.unsupported == ["p99", "p99.9", "p99.99", "p99.999",
	                                "p99.9999"] and
	       (.latency.unsupported_reason | test("^500 samples are too few for p99 \\(1000 needed\\)"))' \
		"$j" >/dev/null 2>&1
	report $? "fake: JSON names the unsupported percentiles, run and threads"
	expect 0 "fake: --threads 2 --samples 2000" env FAKE_FEATURES=$F \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run \
		--threads 2 --samples 2000
	has "$tmp/out" "^1 +[0-9]+ +[0-9]+ latency +2000 +90.0 +140.0 " \
		"fake: threads: p99 of 2000 samples"

	# a streaming run that knows it was disturbed (issue 27), from the
	# module's records (RESULT, THREADS): quiet, every thread's windows
	# fill its time; FAKE_STALL_US: one window of each thread 61.1 ms
	# longer, the run with it (10 ms asked, 71.1 ms taken)
	for stall in 0 61100; do
		expect 0 "fake: bandwidth, a stall of $stall us: runs" \
			env FAKE_STALL_US=$stall FAKE_FEATURES=$F \
			LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run \
			--mode bandwidth --threads 2 --duration 10ms \
			--window-us 500 --json "$j"
		cp "$tmp/out" "$tmp/bw-$stall.out"
		cp "$j" "$tmp/bw-$stall.json"
	done
	# (the host's own warnings, a core clock that moved under load,
	# may come too: only the streams' are looked at)
	! grep -q "^warning: *streaming" "$tmp/bw-0.out" &&
		grep -Eq "^all +[0-9.]+ +[0-9.]+ +100%  \(.* over 0\.010 s\)$" "$tmp/bw-0.out" &&
		grep -Eq "^1 +1 +[0-9]+ stream +0 .* 100%$" "$tmp/bw-0.out" &&
		jq -e '([.warnings[] | select(startswith("streaming"))] == []) and
		       .threads.bandwidth.duty_cycle == 1 and
		       [.threads.threads[].duty_cycle] == [1, 1]' \
			"$tmp/bw-0.json" >/dev/null
	report $? "fake: a quiet bandwidth run: no warning, duty cycle 100% in the table and the JSON"
	want="streaming disturbed: the run took 71.1 ms, over 10% past its --duration of 10.0 ms; a window lasted 61.6 ms, over 2 x --window-us (500 us) + 1.0 ms; the streams ran 14% of the run (duty cycle): a thread lost its CPU (another task, the hypervisor, an SMI); the GB/s count the time lost"
	grep -Fxq "warning:    $want" "$tmp/bw-61100.out" &&
		grep -Eq "^all +[0-9.]+ +[0-9.]+ +14%  \(.* over 0\.071 s\)$" "$tmp/bw-61100.out" &&
		jq -e --arg w "$want" '[.warnings[] | select(startswith("streaming"))] == [$w] and
		       .threads.bandwidth.duty_cycle == 0.141 and
		       [.threads.threads[].duty_cycle] == [0.141, 0.141] and
		       .threads.threads[0].window_cycles_max == 123200000' \
			"$tmp/bw-61100.json" >/dev/null
	report $? "fake: a stalled bandwidth run: the warning in the table and the JSON, duty cycle 14% (20 windows of 500 us in 71.1 ms)"

	interrupt 0.5 env FAKE_HANG=1 LATTESTER_DEV=/dev/null \
		LD_PRELOAD="$fake" "$ctl" run --samples 1000 --json "$j"
	[ "$rc" -eq 130 ]
	report $? "fake: SIGINT exits 130 (exit $rc)"
	jq -e '.result.state == "aborted" and .result.samples == 500' "$j" \
		>/dev/null 2>&1
	report $? "fake: SIGINT result aborted, partial"
	has "$tmp/out" "^state: +aborted \(interrupted\)$" \
		"fake: table marks the run aborted"
	# --repeat: the repeat Ctrl-C cut short is left out, and said
	interrupt 0.5 env FAKE_HANG=1 LATTESTER_DEV=/dev/null \
		LD_PRELOAD="$fake" "$ctl" run --samples 1000 --repeat 3
	[ "$rc" -eq 130 ] &&
		grep -q "repeat 1 of 3 did not finish: left out of the repeats" "$tmp/err" &&
		! grep -q "over .* repeats" "$tmp/out"
	report $? "fake: SIGINT in repeat 1 of 3: exit 130, the repeat left out and said (exit $rc)"

	# the timer's quantum (issue 25): the module's, and what it means
	# for a threshold; the fake's samples below 256 cycles take one
	# value (200), which pins no quantum down
	FAKE_QUANTUM=6272 expect 0 "fake: quantum 24.5 cycles" f "$ctl" run \
		--samples 10000 --json "$j"
	has "$tmp/out" "^timer: +rdtscp, quantum 24.50 cycles \(12.25 ns\); TSC " \
		"fake: the timer line gives the module's quantum in cycles and ns"
	jq -e '.result.timer.quantum_cycles == 24.5 and
	       .result.timer.quantum_ns == 12.25 and
	       .result.timer.quantum_source == "timer" and
	       .result.timer.samples_quantum_cycles == null' "$j" >/dev/null
	report $? "fake: JSON result.timer: quantum 24.5 cycles from the timer; one sample value pins none"
	# a step below the quantum by more than a tick: the timer moved
	# otherwise (QEMU's TCG on an AMD host: steps of 1, a quantum of 26)
	FAKE_QUANTUM=6656 FAKE_STEP=1 expect 0 "fake: step 1, quantum 26" \
		f "$ctl" run --samples 10000 --json "$j"
	has "$tmp/out" "^warning: +two reads of the timer differed by 1 cycles, less than its quantum \(26.00 cycles\)" \
		"fake: a step below the quantum is a warning"
	jq -e '[.warnings[] | select(test("less than its quantum"))] | length == 1' \
		"$j" >/dev/null
	report $? "fake: ... in the JSON's warnings too"
	bad=
	for st in 25 26 52; do
		FAKE_QUANTUM=6656 FAKE_STEP=$st f "$ctl" run --samples 10000 \
			>"$tmp/out" 2>&1 &&
			! grep -q "less than its quantum" "$tmp/out" ||
			bad+=" $st"
	done
	[ -z "$bad" ]
	report $? "fake: steps of 25, 26 and 52 at a quantum of 26: no warning (a tick less is the rounding of two readings; warned at:${bad:- none})"
	FAKE_QUANTUM=51200 expect 1 "fake: --threshold 10x, median 180 within a quantum of 200" \
		f "$ctl" run --samples 10000 --threshold 10x
	has "$tmp/err" "the median \(180 cycles, corrected\) is within one timer quantum \(200.00 cycles\) of zero" \
		"fake: ... refused, the quantum named"
	FAKE_QUANTUM=0 expect 0 "fake: a module before ABI 2.6" f "$ctl" run \
		--samples 10000 --json "$j"
	jq -e '.result.timer.quantum_cycles == 1 and
	       .result.timer.quantum_source == "assumed" and
	       .latency.intervals.quantum_cycles == 1' "$j" >/dev/null &&
		grep -q "^timer: .*quantum 1.000 cycles (0.500 ns; assumed: the module doesn't say, the samples don't show)" "$tmp/out"
	report $? "fake: no quantum from the module nor the samples: one cycle, said to be assumed"
	# ... and a median of 0 is then no basis for a threshold either
	FAKE_QUANTUM=0 FAKE_OVERHEAD_CYCLES=200 expect 1 "fake: a module before ABI 2.6, --threshold 10x of a median of 0" \
		f "$ctl" run --samples 10000 --threshold 10x
	has "$tmp/err" "the median \(0 cycles, corrected\) is within one timer quantum \(1.00 cycles\) of zero" \
		"fake: ... refused, though the module gives no quantum"

	# outliers: files, thresholds, summary
	expect 0 "fake: --outliers csv, 10x" f "$ctl" run --samples 10000 \
		--threshold 10x --max-outliers 5 --outliers "$tmp/o.csv" --json "$j"
	has "$tmp/out" "^outliers: +10 above 1800 cycles \(900.0 ns\), 5 dropped; rate 0.1000% of samples$" \
		"fake: outliers line: 10x the median of 180 = 1800 cycles"
	has "$tmp/out" "^ +threshold 10x the median of 180 cycles, from a 10000-sample calibration pass$" \
		"fake: how the threshold was found"
	has "$tmp/out" "^nmi: +1 of 5 recorded outliers in windows with an NMI$" "fake: nmi line"
	has "$tmp/out" "^spacing: +most often 1000 samples \(4 of 4 gaps\), 500.0 us \(4 of 4\)$" \
		"fake: spacing line"
	has "$tmp/out" "^smi: +(unavailable \(.+\)|[0-9]+ during the run .*)$" "fake: smi line"
	[ "$(grep -vc '^#' "$tmp/o.csv")" -eq 6 ]
	report $? "fake: outliers CSV: header + 5 records"
	has "$tmp/o.csv" "^sample,time_ns,offset,cycles,raw_cycles,ns,window,nmi,cause$" \
		"fake: outliers CSV columns"
	# the module's windows: interrupts off, NMIs counted (issue 26)
	has "$tmp/o.csv" "^999,499500,63936,4980,5000,2490.000,0,0,none seen$" "fake: first record, no event in its window: none seen"
	has "$tmp/o.csv" "^1999,999500,[0-9]+,4980,5000,2490.000,1,1,nmi$" "fake: NMI record, cause nmi"
	has "$tmp/out" "^causes: +nmi 1 \(20.0% of their time\), none seen 4 \(80.0% of their time\)$" \
		"fake: causes line: one NMI window, four quiet ones"
	has "$tmp/out" "^looked for: nmi, interrupts, switches and faults shut out$" \
		"fake: what the module's windows looked for"
	has "$tmp/o.csv" "^# samples 10000 tsc_khz 2000000 overhead_cycles 20 threshold_cycles 1800 threshold_ns 900.000 threshold 10x$" \
		"fake: outliers CSV header comment"
	# a module of ABI 2.8 gives each window's evidence (LATT_FEAT_WINDOWS):
	# the fake's window 1 an NMI, 2 an SMI, 3 a gap before its record, 0
	# and 4 quiet; two windows without records had an NMI each
	expect 0 "fake: ABI 2.8 windows, --outliers csv, 10x" \
		env FAKE_FEATURES=$(((1 << 12) - 1 | 1 << 23)) \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run \
		--samples 10000 --threshold 10x --max-outliers 5 \
		--outliers "$tmp/ow.csv"
	has "$tmp/out" "^causes: +smi 1 \(20.0% of their time\), nmi 1 \(20.0% of their time\), gap 1 \(20.0% of their time\), none seen 2 \(40.0% of their time\)$" \
		"fake 2.8: an SMI, an NMI, a gap, two quiet windows"
	has "$tmp/out" "^looked for: smi, nmi, gaps, interrupts, switches and faults shut out$" \
		"fake 2.8: what the module's windows looked for"
	has "$tmp/out" "^ +not: steal not looked for: no KVM steal-time record on the CPU" \
		"fake 2.8: steal not looked for, said why"
	has "$tmp/out" "^no outlier: 2 windows, nmi 2 held events but no outlier record$" \
		"fake 2.8: the windows without records"
	has "$tmp/ow.csv" "^2999,[0-9]+,[0-9]+,4980,5000,2490.000,2,0,smi$" \
		"fake 2.8: the SMI window's record"
	has "$tmp/ow.csv" "^3999,[0-9]+,[0-9]+,4980,5000,2490.000,3,0,gap$" \
		"fake 2.8: the gap window's record"
	expect 1 "fake 2.8: WINDOWS keeps more than RESULT gave" \
		env FAKE_FEATURES=$(((1 << 12) - 1 | 1 << 23)) FAKE_WINDOWS_EPROTO=1 \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run \
		--samples 10000 --threshold 10x --max-outliers 5
	has "$tmp/err" "windows failed: Protocol error" \
		"fake 2.8: another run's windows: refused, said"
	jq -e '.outlier_summary.threshold == {"spec": "10x", "basis": "median",
	       "cycles": 1800, "ns": 900, "calibration_samples": 10000,
	       "median_cycles": 180} and .outlier_summary.count == 10 and
	       .outlier_summary.recorded == 5 and .outlier_summary.dropped == 5 and
	       .outlier_summary.rate == 0.001 and .outlier_summary.nmi == 1 and
	       .outlier_summary.spacing_samples == {"samples": 1000, "count": 4, "of": 4} and
	       .outlier_summary.spacing_time == {"ns": 500000, "count": 4, "of": 4} and
	       (.outlier_summary.smi.available | type) == "boolean" and
	       .config.threshold_cycles == 1800' "$j" >/dev/null 2>&1
	report $? "fake: JSON outlier_summary"
	expect 0 "fake: --outliers json, 1us" f "$ctl" run --samples 10000 \
		--threshold 1us --outliers "$tmp/o.json"
	jq -e '.schema == "lattester-outliers/1" and
	       .outlier_summary.threshold.cycles == 2000 and
	       .outlier_summary.threshold.basis == "time" and
	       (.outlier_records | length) == 10 and
	       .outlier_records[0].raw_cycles == 5000' "$tmp/o.json" >/dev/null 2>&1
	report $? "fake: outliers JSON file, 1us = 2000 cycles at 2 GHz"
	expect 0 "fake: no threshold: outliers off" f "$ctl" run --samples 1000 --json "$j"
	has "$tmp/out" "^outliers: +off \(no --threshold\)$" "fake: outliers off line"
	jq -e '.outlier_summary == null' "$j" >/dev/null 2>&1
	report $? "fake: no threshold: outlier_summary null"

	# sweep: files, rows, resume
	sw=$tmp/sw
	expect 0 "fake: sweep" f "$ctl" sweep --op load,nt-store --size 64..256x2 \
		--pattern seq,rand --samples 1000 --threshold 500 \
		--out "$sw.csv" --out "$sw.jsonl"
	[ "$(wc -l <"$sw.csv")" -eq 13 ] && [ "$(wc -l <"$sw.jsonl")" -eq 12 ]
	report $? "fake: sweep: 12 rows in each file"
	[ "$(wc -l <"$tmp/out")" -eq 12 ] && grep -q "^12/12  nt-store rand 256 B " "$tmp/out"
	report $? "fake: sweep: a line per point on stdout"
	has "$tmp/err" "12 points: 12 measured, 0 failed, 0 already in the files, 0 skipped, 0 not run" \
		"fake: sweep summary"
	python3 - "$sw.csv" <<'PY' >"$tmp/err" 2>&1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = rows[5]
assert (r["op"], r["pattern"], r["size"]) == ("load", "rand", "256"), r
assert r["ns_p50"] == "90.000" and r["cycles_p99"] == "280" and r["ns_max"] == "2490.000", r
assert r["outliers"] == "10" and r["threshold_cycles"] == "500" and r["state"] == "done", r
assert r["fence"] == "none" and rows[6]["fence"] == "sfence", (r["fence"], rows[6]["fence"])
assert r["key"].startswith("target=dram;cpu=0;op=load;fence=default;pattern=rand;size=256;samples=1000;"), r["key"]
assert len({x["key"] for x in rows}) == 12
PY
	report $? "fake: sweep CSV values"
	jq -se 'length == 12 and all(.[]; .schema == "lattester-sweep/1" and
	        .result.state == "done" and .latency.ns.p50 == 90 and
	        (.key | test("^target=dram;")))' "$sw.jsonl" >/dev/null 2>&1
	report $? "fake: sweep JSON lines"
	expect 1 "fake: sweep onto an existing file" f "$ctl" sweep --out "$sw.csv"
	has "$tmp/err" "exists: add --resume to continue it, or remove it" "fake: --resume hint"
	head -n 7 "$sw.csv" >"$tmp/part.csv"
	head -n 3 "$sw.jsonl" >"$tmp/part.jsonl"
	expect 0 "fake: sweep --resume" f "$ctl" sweep --op load,nt-store \
		--size 64..256x2 --pattern seq,rand --samples 1000 --threshold 500 \
		--out "$tmp/part.csv" --out "$tmp/part.jsonl" --resume
	has "$tmp/err" "12 points: 9 measured, 0 failed, 3 already in the files" \
		"fake: resume runs what is missing from either file"
	[ "$(wc -l <"$tmp/part.csv")" -eq 13 ] && [ "$(wc -l <"$tmp/part.jsonl")" -eq 12 ]
	report $? "fake: resume fills each file to 12 rows, no duplicates"
	[ "$(cut -d, -f1 "$tmp/part.csv" | sort | uniq -d | wc -l)" -eq 0 ]
	report $? "fake: resume: each point once in the CSV"
	expect 1 "fake: sweep --resume with --samples changed: refused" \
		f "$ctl" sweep --size 64 --samples 500 --out "$tmp/part.csv" --resume
	has "$tmp/err" "holds 12 points measured with other options than this sweep's: --samples 1000, not 500" \
		"fake: the changed option named"
	expect 1 "fake: sweep --resume of a foreign CSV" f "$ctl" sweep \
		--out "$tmp/o.csv" --resume
	has "$tmp/err" "not the header of a lattester-ctl sweep CSV file" "fake: foreign file named"
	expect 1 "fake: sweep, START fails" env FAKE_START_ERR=12 \
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" sweep \
		--size 64,128 --samples 100 --out "$tmp/fail.csv"
	has "$tmp/err" "point 2 \(load rand 128 B\): failed, not written" "fake: failed point named"
	has "$tmp/err" "2 points: 0 measured, 2 failed" "fake: failures counted"
	expect 1 "fake: sweep of pmem stores without --force" f "$ctl" sweep \
		--target /dev/pmem0 --op load,nt-store --samples 100 --out "$tmp/pm.csv"
	has "$tmp/err" "/dev/pmem0: the sweep has store ops, chase or a --mix" "fake: --force asked for"
	expect 1 "fake: sweep of a pmem mix with writes without --force" f \
		"$ctl" sweep --target /dev/pmem0 --mode bandwidth --threads 2 \
		--mix 1:1 --duration 10ms --out "$tmp/pm.csv"
	has "$tmp/err" "/dev/pmem0: the sweep has store ops, chase or a --mix" \
		"fake: --force asked for a mix's writes"
	expect 1 "fake: sweep on an offline CPU" f "$ctl" sweep --cpu 0,99999 \
		--samples 100 --out "$tmp/cpu.csv"
	has "$tmp/err" "--cpu 99999: CPU not online" "fake: offline CPU named"

	# Ctrl-C: once stops after the point, twice aborts it
	FAKE_HANG=1 LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" \
		"$ctl" sweep --size 64,128 --samples 1000 --out "$tmp/hang.csv" \
		>"$tmp/out" 2>"$tmp/err" &
	pid=$!
	sleep 0.5
	kill -INT "$pid" 2>/dev/null
	sleep 0.5
	kill -0 "$pid" 2>/dev/null
	report $? "fake: sweep goes on after one Ctrl-C"
	has "$tmp/err" "stopping after this point \(Ctrl-C again aborts it\)" \
		"fake: sweep says it will stop"
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	[ "$rc" -eq 130 ]
	report $? "fake: second Ctrl-C: exit 130 (exit $rc)"
	has "$tmp/err" "point 1 \(load rand 64 B\): aborted, not written" "fake: aborted point named"
	[ "$(wc -l <"$tmp/hang.csv")" -eq 1 ]
	report $? "fake: the aborted point is not written"

	if command -v script >/dev/null; then
		# the fake reports 500/1000 on its first two polls
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" script -qec \
			"'$ctl' run --samples 1000" /dev/null >"$tmp/tty" 2>&1
		grep -q "lattester-ctl run: 500/1000 samples (50.0%)" "$tmp/tty"
		report $? "fake: progress line on a terminal"
		LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" script -qec \
			"'$ctl' sweep --size 64,128 --samples 1000 --out '$tmp/tty.csv'" \
			/dev/null >"$tmp/tty" 2>&1
		grep -q '\[#*\.*\] [0-9]/2 points .* ETA ' "$tmp/tty"
		report $? "fake: sweep progress bar with an ETA on a terminal"
	else
		skip "no script(1) for a terminal"
	fi
fi

finish
