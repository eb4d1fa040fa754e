# SPDX-License-Identifier: GPL-2.0
# 99-rmmod of every suite (busybox sh): . /tests/lib/rmmod.sh
# The module unloads cleanly and its device node goes away.  (The host's
# "dmesg clean" check catches warnings from the unload.)

if ! rmmod lattester; then
	echo "FAIL: rmmod lattester"
	exit 1
fi
echo "ok: rmmod lattester"

i=0
while [ -e /dev/lattester ] && [ $i -lt 20 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ -e /dev/lattester ]; then
	echo "FAIL: /dev/lattester still exists after rmmod"
	exit 1
fi
if grep -q '^lattester ' /proc/modules; then
	echo "FAIL: lattester still in /proc/modules"
	exit 1
fi
echo "ok: /dev/lattester and the module are gone"
