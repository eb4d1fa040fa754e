#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# --op movdir64b (ABI 2.2) on whatever the guest CPU is: the ioctls
# (tests/vm/movdir64b.c: EOPNOTSUPP without the instruction, runs and a
# read-back through pmem0 with it), then lattester-ctl, whose two engines
# either refuse it in the same words (the module's features, the user
# engine's CPUID) or run it: the JSON names the op, 64 bytes, mfence.
set -u
rc=0
/usr/libexec/lattester/movdir64b || rc=1
if grep -m1 '^flags' /proc/cpuinfo | grep -qw movdir64b; then
	echo "# the guest CPU has movdir64b"
	for eng in kernel user; do
		j=$OUT/movdir64b-$eng.json
		if lattester-ctl run --quiet --engine "$eng" --op movdir64b \
			--samples 2000 --region 16M --json "$j" >/tmp/md.out 2>&1 &&
			grep -q '"op": *"movdir64b"' "$j" &&
			grep -q '"width": *64' "$j" &&
			grep -q '"fence": *"mfence"' "$j"; then
			echo "ok: --engine $eng --op movdir64b: op, width 64, mfence in the JSON"
		else
			echo "FAIL: --engine $eng --op movdir64b"; cat /tmp/md.out
			rc=1
		fi
	done
else
	echo "# the guest CPU lacks movdir64b"
	want="lattester-ctl run: --op movdir64b needs the movdir64b instruction, which this CPU lacks"
	for eng in kernel user; do
		msg=$(lattester-ctl run --engine "$eng" --op movdir64b \
			--samples 10 --region 16M 2>&1 >/dev/null)
		got=$?
		if [ "$got" -eq 1 ] && [ "$msg" = "$want" ]; then
			echo "ok: --engine $eng --op movdir64b refused: $msg"
		else
			echo "FAIL: --engine $eng --op movdir64b -> $got '$msg' (want 1 '$want')"
			rc=1
		fi
	done
fi
exit $rc
