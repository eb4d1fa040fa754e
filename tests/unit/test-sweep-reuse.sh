#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-sweep-reuse.sh - sweep's kernel engine keeps the device, and the
# module's region on it, from one point to the next (LATT_CFG_REUSE, ABI
# 2.1), against the stand-in module (test-cli-fake.so) and a layer above it
# that plays the module's part of the flag and writes down every open,
# close, START and RESULT (test-reuse-shim.c):
#  - a module with LATT_FEAT_REUSE: the device is opened once for the
#    points (and once before, to see that it is there) and closed at the
#    end; every START asks for LATT_CFG_REUSE; the rows say
#    region_reused false, then true, as RESULT's LATT_RES_REUSED (JSON
#    lines and CSV); points that change the region are never told reused;
#  - --threshold 10x: a point's calibration pass and its run on one open
#    device; the point is reused as its calibration pass was;
#  - a module without the feature (ABI 2.0): no flag, never reused, the
#    device still opened once;
#  - --no-reuse: a device opened per point, no flag; `run`: no flag;
#  - a point that fails (refused before START) closes the device: the next
#    opens it again and is not reused;
#  - a point aborted (SIGTERM, a run that hangs): the device is closed.
# The user engine's side is test-sweep-user.sh's.
#
#   make -C user && bash tests/unit/test-sweep-reuse.sh
#   (FAKE_SO=PATH: that stand-in instead of user/test-cli-fake.so)
#
# TAP-like lines, then "sweep-reuse: N passed, N failed[, N skipped]".

set -u

TAP_NAME=sweep-reuse
CTL_TEST_PYTHON=1
. "$(dirname "$0")/ctl-test.sh"

fake=${FAKE_SO:-}
if [ -z "$fake" ]; then
	if make -s -C "$top/user" test-cli-fake.so >/dev/null 2>"$tmp/err"; then
		fake=$top/user/test-cli-fake.so
	else
		report 1 "test-cli-fake.so builds"
		finish
	fi
fi
shim=$tmp/test-reuse-shim.so
# $CC as tests/unit/run takes it (words allowed: unquoted)
if ! ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$top/include" \
	-fPIC -shared -o "$shim" "$top/tests/unit/test-reuse-shim.c" -ldl \
	2>"$tmp/err"; then
	report 1 "test-reuse-shim.c builds"
	finish
fi

# the stand-in's default features (ABI 1.0's), with and without REUSE
old_features=$(((1 << 12) - 1))
reuse_features=$((old_features | (1 << 16)))

# ksweep FEATURES NAME ARGS...: a kernel-engine sweep into $tmp/NAME.csv and
# .jsonl, the shim's log in $tmp/NAME.log
ksweep()
{
	local features=$1 name=$2

	shift 2
	rm -f "$tmp/$name.log"
	LATTESTER_DEV=/dev/null FAKE_FEATURES=$features \
		SHIM_LOG=$tmp/$name.log LD_PRELOAD="$shim $fake" \
		"$ctl" sweep --quiet --out "$tmp/$name.csv" \
		--out "$tmp/$name.jsonl" "$@" >"$tmp/out" 2>"$tmp/err"
}

# count NAME WHAT: the log's lines that begin with WHAT
count()
{
	grep -c "^$2" "$tmp/$1.log"
}

# reused LIST NAME: the rows' region_reused in order ("0 1 1 1"), in both
# files
reused()
{
	python3 - "$1" "$tmp/$2.jsonl" "$tmp/$2.csv" <<'PY'
import csv, json, sys
want = sys.argv[1].split()
got = [str(int(json.loads(l)["result"]["region_reused"]))
       for l in open(sys.argv[2])]
rows = [r["region_reused"] for r in csv.DictReader(open(sys.argv[3]))]
if got != want or rows != want:
    print("#  JSON lines %s, CSV %s, want %s" % (got, rows, want))
    sys.exit(1)
PY
}

grid="--op load,store --pattern seq,rand --samples 1000 --region 16M"

# ---- a module with LATT_FEAT_REUSE ----
ksweep $reuse_features k $grid
[ $? -eq 0 ] && reused "0 1 1 1" k
report $? "the rows: region_reused false, then true, as RESULT says"
[ "$(count k open)" -eq 2 ] && [ "$(count k close)" -eq 2 ] &&
	[ "$(count k 'start .* reuse=1')" -eq 4 ] && [ "$(count k start)" -eq 4 ]
report $? "the device opened once for the points, closed at the end; every START with LATT_CFG_REUSE"
[ "$(grep '^start' "$tmp/k.log" | cut -d' ' -f2 | sort -u | wc -l)" -eq 1 ]
report $? "every START on the same open file"
ksweep $reuse_features kr --op load,store --pattern seq --samples 1000 --region 16M,32M
[ $? -eq 0 ] && reused "0 0 0 0" kr && [ "$(count kr 'start .* reuse=1')" -eq 4 ]
report $? "points that change the region: never reused"
ksweep $reuse_features kt $grid --threshold 10x
[ $? -eq 0 ] && reused "0 1 1 1" kt && [ "$(count kt start)" -eq 8 ] &&
	[ "$(count kt 'result .* reused=1')" -eq 7 ] && [ "$(count kt open)" -eq 2 ]
report $? "--threshold 10x: calibration pass and run on one device; the point reused as its pass"

# ---- a module without it, --no-reuse, run ----
ksweep $old_features ko $grid
[ $? -eq 0 ] && reused "0 0 0 0" ko && [ "$(count ko 'start .* reuse=1')" -eq 0 ] &&
	[ "$(count ko open)" -eq 2 ]
report $? "a module without LATT_FEAT_REUSE: no flag, never reused, one open"
ksweep $reuse_features kn $grid --no-reuse
[ $? -eq 0 ] && reused "0 0 0 0" kn && [ "$(count kn 'start .* reuse=1')" -eq 0 ] &&
	[ "$(count kn open)" -eq 5 ] && [ "$(count kn close)" -eq 5 ]
report $? "--no-reuse: a device opened and closed per point, no flag"
rm -f "$tmp/run.log"
LATTESTER_DEV=/dev/null FAKE_FEATURES=$reuse_features SHIM_LOG=$tmp/run.log \
	LD_PRELOAD="$shim $fake" "$ctl" run --quiet --samples 1000 \
	--region 16M --json "$tmp/run.json" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(count run 'start .* reuse=0')" -eq 1 ] &&
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["result"]
sys.exit("region_reused" in r or r["chunk_size"] != 0)' "$tmp/run.json"
report $? "run: no flag; its JSON has chunk_size (0 here), no region_reused"

# ---- a failed point, an aborted one ----
ksweep $reuse_features kf --pattern seq,chase,rand --width 16 --samples 1000 --region 16M
[ $? -eq 1 ] && reused "0 0" kf && [ "$(count kf open)" -eq 3 ] &&
	[ "$(count kf close)" -eq 3 ]
report $? "a point that fails closes the device: the next opens it again, not reused"
LATTESTER_DEV=/dev/null FAKE_FEATURES=$reuse_features FAKE_HANG=1 \
	SHIM_LOG=$tmp/ka.log LD_PRELOAD="$shim $fake" \
	"$ctl" sweep --quiet --out "$tmp/ka.jsonl" $grid >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 50); do
	grep -q '^start' "$tmp/ka.log" 2>/dev/null && break
	sleep 0.1
done
kill -TERM "$pid"
wait "$pid"
[ $? -eq 130 ] && [ "$(count ka open)" -eq "$(count ka close)" ] &&
	[ "$(count ka start)" -eq 1 ]
report $? "a point aborted (SIGTERM): exit 130, the device closed"

finish
