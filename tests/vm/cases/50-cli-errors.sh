#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Clear errors, never a crash: each bad input gives its exit status and a
# message naming the problem.
# vm-kernels: 6.12.*+deb12-amd64
# vm-kernels-why: lattester-ctl's own refusals: the same on every kernel
set -u
rc=0
expect() {	# status, message-regex, lattester-ctl args...
	want=$1 re=$2; shift 2
	msg=$("$@" 2>&1 >/dev/null); got=$?
	if [ "$got" -ne "$want" ] || ! echo "$msg" | grep -qiE "$re"; then
		echo "FAIL: $* -> $got '$msg' (want $want, /$re/)"; rc=1
	else
		echo "ok: $* -> $got: $msg"
	fi
}
expect 2 "op" lattester-ctl run --op bogus
expect 2 "size" lattester-ctl run --size 100
expect 2 "pattern" lattester-ctl run --pattern zigzag
expect 1 "node" lattester-ctl run --target dram:7 --samples 10 --region 16M
expect 1 "cpu" lattester-ctl run --cpu 64 --samples 10 --region 16M
expect 1 "root|permission" as-nobody lattester-ctl run --samples 10 --region 16M
exit $rc
