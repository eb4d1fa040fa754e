#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The premise of the suite: the kernel does not list rdtscp (else the
# other cases would test nothing new; 20-ioctl-neg checks that GET_INFO's
# features agree).
set -u
flags=$(grep -m1 '^flags' /proc/cpuinfo)
case " ${flags#*:} " in
*" rdtscp "*)
	echo "FAIL: clearcpuid=rdtscp did not take: /proc/cpuinfo lists rdtscp"
	cat /proc/cmdline
	exit 1
	;;
esac
echo "ok: /proc/cpuinfo lists no rdtscp ($(cat /proc/cmdline))"
dmesg | grep -i -m3 'clearcpuid\|clearing cpuid' || true
exit 0
