# SPDX-License-Identifier: GPL-2.0
# Shared by the cxl suite's guest cases (busybox sh): . /tests/lib/cxl.sh
#
# Brings in pmem.sh (rc, fail, wait_dev, jfield, run_json, refused) and
# /tmp/cxl.env, which 10-regions writes:
#   PMEM_REGION  the CXL pmem region (cxl's regionN)
#   FSDAX_DEV    /dev/pmemN of a 128 MiB fsdax namespace on it
#   DEVDAX_DEV   /dev/daxX.Y of a 128 MiB devdax namespace on it
#   PMEM_START, PMEM_SIZE  the pmem region's host physical range
#   RAM_REGION   a 256 MiB CXL ram region (6.12 only; empty on 6.1)
#   RAM_DAX      its device-DAX device, /dev/daxN.0 (empty on 6.1)
#   RAM_NODE     the NUMA node its memory lands on
#   RAM_START, RAM_SIZE    its host physical range
#   RAM2_REGION, RAM2_DAX  a second 256 MiB ram region, the same node's
. /tests/lib/pmem.sh
[ -f /tmp/cxl.env ] && . /tmp/cxl.env

CXL=/sys/bus/cxl/devices

# readback NAME PATH BYTES: write a pattern through a shared mapping of PATH,
# then read it back in another process after the page cache is dropped.
# The first check on every CXL target: a misconfigured emulated topology
# takes every write and reads back zeros.  Returns 1 on a mismatch.
readback() {
	local name=$1 path=$2 bytes=$3 want zero got
	rm -f /tmp/rb.ref
	truncate -s "$bytes" /tmp/rb.ref
	zero=$(daxsum sum /tmp/rb.ref "$bytes")
	daxsum fill /tmp/rb.ref "$bytes" && want=$(daxsum sum /tmp/rb.ref "$bytes")
	rm -f /tmp/rb.ref
	if ! daxsum fill "$path" "$bytes"; then
		fail "$name: cannot write $path"
		return 1
	fi
	sync
	echo 3 >/proc/sys/vm/drop_caches
	got=$(daxsum sum "$path" "$bytes")
	if [ -z "$want" ] || [ "$want" = "$zero" ] || [ "$got" != "$want" ]; then
		fail "$name: $path read back $got after writing $want (zeros: $zero)"
		return 1
	fi
	echo "ok: $name: $bytes bytes written to $path read back intact ($got)"
}

# need_ram_region: end the case skipped, saying why, where 10-regions
# made no ram region (6.1 has no dax_cxl)
need_ram_region() {
	[ -n "${RAM_REGION:-}" ] && return 0
	echo "SKIP: no CXL ram region on $(uname -r) (it has no dax_cxl)"
	exit 77
}

# refused_both STATUS REGEX RUN-ARGS...: refused (pmem.sh) for
# lattester-ctl run RUN-ARGS with --engine kernel and with --engine user:
# the same words from both
refused_both() {
	local want=$1 re=$2 e
	shift 2
	for e in kernel user; do
		refused "$want" "$re" run --engine $e "$@"
	done
}

# held_on_node NODE KB WHAT RUN-ARGS...: a background lattester-ctl run
# RUN-ARGS takes at least KB kB of node NODE's free memory while it runs
# (MemFree; the user engine's 4 KiB pages come partly from the per-CPU
# free lists, which MemFree does not count: 2 MiB of them were seen)
held_on_node() {
	local node=$1 want=$2 what=$3 f0 f1
	shift 3
	f0=$(awk '/MemFree/ {print $4}' /sys/devices/system/node/node$node/meminfo)
	if ! BG_WAIT=600 bg_run /tmp/bg.out --quiet --samples 100000000 "$@"; then
		fail "$what: the background run did not start: $(cat /tmp/bg.out)"
		kill -INT "$bg_pid" 2>/dev/null
		wait "$bg_pid"
		return
	fi
	f1=$(awk '/MemFree/ {print $4}' /sys/devices/system/node/node$node/meminfo)
	kill -INT "$bg_pid"
	wait "$bg_pid"
	if [ $((f0 - f1)) -ge "$want" ]; then
		echo "ok: $what: node $node free memory fell by $((f0 - f1)) kB"
	else
		fail "$what: node $node free memory fell by $((f0 - f1)) kB, not $want: not from that node?"
	fi
}

# sysval FILE: a sysfs value, or empty
sysval() {
	cat "$1" 2>/dev/null
}

# unchecked_flag: --allow-unchecked where the kernel engine refuses a
# target with no poison list (a CPU without recoverable machine checks:
# info lists no mc_recover, as under TCG's AuthenticAMD without SUCCOR)
unchecked_flag() {
	lattester-ctl info 2>/dev/null | grep -q mc_recover ||
		echo --allow-unchecked
}
