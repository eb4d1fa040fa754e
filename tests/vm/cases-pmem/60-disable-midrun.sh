#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A namespace disabled under a run: the fsdax namespace can't be (the run
# holds its block device open: EBUSY) and the run goes on; a device-DAX
# namespace can be, and the run then fails cleanly with "No such device" at
# its next window instead of going on over memory that is no longer its
# own.  Either way the namespace disables and enables again afterwards, and
# the kernel reports nothing.
. /tests/lib/pmem.sh
set -u

state() { cat /sys/class/misc/lattester/state; }

# midrun NS DEV MAY_DISABLE: a long run on DEV, disable NS meanwhile
midrun() {
	ns=$1 dev=$2 may=$3
	lattester-ctl run --quiet --cpu 0 --target "$dev" --samples 100000000 \
		--region 16M >/tmp/midrun.out 2>&1 &
	pid=$!
	i=0
	while [ "$(state)" != running ] && [ $i -lt 50 ]; do
		sleep 0.1; i=$((i + 1))
	done
	[ "$(state)" = running ] || fail "$ns: the run did not start"
	sleep 0.5
	if ! ndctl disable-namespace "$ns" >/tmp/disable.out 2>&1; then
		echo "ok: $ns: disable-namespace refused during the run: $(tr '\n' ' ' </tmp/disable.out)"
		sleep 1
		[ "$(state)" = running ] || fail "$ns: the run did not survive the attempt"
		kill -INT $pid
		wait $pid
		st=$?
		[ $st -eq 130 ] || { fail "$ns: lattester-ctl exited $st, want 130"; cat /tmp/midrun.out; }
		ndctl disable-namespace "$ns" >/dev/null 2>&1 || fail "$ns: disable after the run"
	elif [ "$may" = yes ]; then
		wait $pid
		st=$?
		echo "ok: $ns: disabled under the run; lattester-ctl exited $st, module $(state)"
		cat /tmp/midrun.out
		[ $st -eq 1 ] || fail "$ns: lattester-ctl exited $st, want 1"
		[ "$(state)" = failed ] || fail "$ns: module state $(state), want failed"
		grep -q "No such device" /tmp/midrun.out || fail "$ns: the error does not say the device went"
	else
		fail "$ns: disable-namespace succeeded under a run"
		kill -INT $pid; wait $pid
	fi
	ndctl enable-namespace "$ns" >/dev/null 2>&1 || fail "$ns: enable again"
	wait_dev "$dev" || fail "$dev did not come back"
	echo "ok: $ns: enabled again"
}

midrun "$FSDAX_NS" "$FSDAX_DEV" no
if [ -n "$DEVDAX_NS" ]; then
	midrun "$DEVDAX_NS" "$DEVDAX_DEV" yes
else
	echo "note: no devdax namespace on this kernel (no device-DAX driver)"
fi
exit $rc
