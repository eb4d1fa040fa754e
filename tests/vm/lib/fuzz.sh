# SPDX-License-Identifier: GPL-2.0
# Shared by the fuzz cases (busybox sh): . /tests/lib/fuzz.sh
#
# fuzz ARGS...: run ioctl-fuzz (or $FUZZ_BIN) with ARGS, say how long it
# took.  rc becomes 1 on any failure; fuzz_dmesg then looks at what the
# kernel logged meanwhile.

rc=0
# calls N: the calls a case makes of N, its figure for a kernel with KASAN
# (make check-debug's, where the fuzzing finds what no other kernel can
# show); the other kernels make a tenth of them, at least 10^4 (each run
# draws its own seed, so runs add up)
calls() {
	if zcat /proc/config.gz 2>/dev/null | grep -qx 'CONFIG_KASAN=y'; then
		echo "$1"
	else
		# a tenth, and the 10^4 the fuzzer needs for runs of each
		# kind (it tries each mode until it has started one): 60-fuzz
		# took 29 s of make check on each of three kernels with a
		# quarter; it was 2/5, then a quarter, until December 2026
		n=$(($1 / 10))
		[ "$n" -ge 10000 ] || n=10000
		echo "$n"
	fi
}
bad='BUG:|WARNING: CPU|cut here|scheduling while atomic|soft lockup|hard LOCKUP|rcu.*stall|Call Trace|Oops|general protection'

fuzz() {
	dmesg >/tmp/fuzz-dmesg.before
	start=$(cut -d' ' -f1 /proc/uptime)
	"${FUZZ_BIN:-ioctl-fuzz}" "$@" || rc=1
	end=$(cut -d' ' -f1 /proc/uptime)
	echo "fuzzer took $(echo "$start $end" |
		awk '{ printf "%.1f", $2 - $1 }') s"
}

# fuzz_dmesg: nothing bad logged since fuzz began
fuzz_dmesg() {
	dmesg | grep -v -x -F -f /tmp/fuzz-dmesg.before >/tmp/fuzz-dmesg.new
	if grep -E "$bad" /tmp/fuzz-dmesg.new; then
		echo "FAIL: the kernel complained during the fuzzing (above)"
		rc=1
	else
		echo "ok: nothing bad in dmesg ($(wc -l </tmp/fuzz-dmesg.new) new lines)"
	fi
}
