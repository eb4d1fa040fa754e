# SPDX-License-Identifier: GPL-2.0
# Shared by the pmem suites' guest cases (busybox sh): . /tests/lib/pmem.sh
#
# rc is 0 until a check fails.  /tmp/pmem.env (written by the suite's setup
# case, read here) names the namespaces the cases measure; it lives as long
# as the boot.

rc=0
[ -f /tmp/pmem.env ] && . /tmp/pmem.env

# fail MSG...: a failed check
fail() {
	echo "FAIL: $*"
	rc=1
}

# wait_dev PATH: a block or character device can appear a moment after the
# command that created it returned
wait_dev() {
	local i=0
	while [ ! -b "$1" ] && [ ! -c "$1" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -b "$1" ] || [ -c "$1" ]
}

# jfield KEY JSON-TEXT: the first string value of "KEY" in ndctl's JSON
jfield() {
	printf '%s\n' "$2" | grep -o "\"$1\":\"[^\"]*\"" | head -n1 | cut -d'"' -f4
}

# run_json STEM ARGS...: lattester-ctl run --json $OUT/STEM.json ARGS,
# 2000 samples (unless ARGS say) from CPU 0; a failure is reported with the tool's output
# (kept in the guest's /tmp: every file on the 9p share costs time)
run_json() {
	local rstem=$1 samples="--samples 2000"
	shift
	# a value option is given once (lattester-ctl refuses a second)
	case " $* " in *" --samples "*) samples= ;; esac
	# shellcheck disable=SC2086 # $samples: two words, or none
	if ! lattester-ctl run --quiet $samples --cpu 0 \
		--json "$OUT/$rstem.json" "$@" >/tmp/run.out 2>&1; then
		fail "$rstem: lattester-ctl run $*"
		cat /tmp/run.out
	fi
}

# refused STATUS REGEX ARGS...: lattester-ctl ARGS exits STATUS with a
# message matching REGEX, and never reached the module's START
refused() {
	local want=$1 re=$2 msg got
	shift 2
	msg=$(lattester-ctl "$@" 2>&1 >/dev/null)
	got=$?
	if [ "$got" -ne "$want" ] || ! printf '%s\n' "$msg" | grep -qE -- "$re"; then
		fail "lattester-ctl $* -> $got '$msg' (want $want, /$re/)"
	elif printf '%s\n' "$msg" | grep -q "start failed"; then
		fail "lattester-ctl $* reached START: '$msg'"
	else
		echo "ok: lattester-ctl $* -> $got: $msg"
	fi
}

OPS="load nt-load store store-clwb store-clflushopt store-clflush nt-store"
PATTERNS="seq rand stride:4096 hotspot:65536"

# op_json STEM TARGET OP PATTERN ARGS...: run_json of OP with PATTERN on
# TARGET into STEM@OP@PATTERN.json (":" as "-"), stores and chase with
# --force
op_json() {
	local stem=$1 tgt=$2 op=$3 pat=$4 force=
	shift 4
	case $op@$pat in store* | nt-store@* | *@chase) force=--force ;; esac
	run_json "$stem@$op@$(echo "$pat" | tr : -)" --target "$tgt" \
		--op "$op" --pattern "$pat" $force "$@"
}

# ops_half STEM TARGET ARGS...: each op with two patterns, the op's turn
# of them and the one two further on (load: seq and stride, nt-load: rand
# and hotspot, ...), so that every pattern meets every other op, and
# chase, into op_json's files.  Half the cross, which the DRAM target
# (cases/20-ops-patterns) and the host's unit tests run whole: the op
# and pattern code is the same on every target.
ops_half() {
	local stem=$1 tgt=$2 op i=0
	shift 2
	for op in $OPS; do
		op_json "$stem" "$tgt" "$op" "$(nth_pattern $i)" "$@"
		op_json "$stem" "$tgt" "$op" "$(nth_pattern $((i + 2)))" "$@"
		i=$((i + 1))
	done
	op_json "$stem" "$tgt" load chase "$@"
}

# nth_pattern I: PATTERNS' word I mod 4
nth_pattern() {
	case $(($1 % 4)) in
	0) echo seq ;;
	1) echo rand ;;
	2) echo stride:4096 ;;
	3) echo hotspot:65536 ;;
	esac
}

# ops_each STEM TARGET ARGS...: each op once, the patterns in turn (seq,
# rand, stride:4096, hotspot:65536, seq, rand, stride:4096), and chase;
# files as op_json's.  What another target kind adds to one kind's
# whole cross: the ops and patterns are the same code on every target
# (and the host's unit tests cover the cross), the mapping and the store
# guard are the target's.
ops_each() {
	local stem=$1 tgt=$2 op pat i=0
	shift 2
	for op in $OPS; do
		case $((i % 4)) in
		0) pat=seq ;;
		1) pat=rand ;;
		2) pat=stride:4096 ;;
		3) pat=hotspot:65536 ;;
		esac
		i=$((i + 1))
		op_json "$stem" "$tgt" "$op" "$pat" "$@"
	done
	op_json "$stem" "$tgt" load chase "$@"
}

# ops_map STEM TARGET ARGS...: what a mapping of the target adds (the
# user engine's), once each: a load, a flushed store (the write path), a
# non-temporal store (write-combining through the mapping) and a chase
# (pointers written into it); the other ops are the same access code on
# every target (the host's unit tests and cases/20-ops-patterns run them
# all); files as op_json's
ops_map() {
	local stem=$1 tgt=$2
	shift 2
	op_json "$stem" "$tgt" load rand "$@"
	op_json "$stem" "$tgt" store-clwb seq "$@"
	op_json "$stem" "$tgt" nt-store stride:4096 "$@"
	op_json "$stem" "$tgt" load chase "$@"
}

# bg_run OUT ARGS...: lattester-ctl run ARGS in the background, its output
# in OUT, its pid in $bg_pid; returns once it says it started (its memory
# is mapped and faulted in), false if it doesn't within 10 s (BG_WAIT
# tenths of a second, where the emulator faults in more memory)
bg_run() {
	local out=$1 i=0
	shift
	LATTESTER_LOG=info lattester-ctl run "$@" >"$out" 2>&1 &
	bg_pid=$!
	while ! grep -q ": started" "$out" && [ $i -lt "${BG_WAIT:-100}" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q ": started" "$out"
}

# gone_wait OUT WHAT: the background run ends with status 1, saying its
# memory is gone, after WHAT took it away
gone_wait() {
	local st
	wait "$bg_pid"
	st=$?
	if [ $st -eq 1 ] && grep -q "SIGBUS at byte [0-9]* of the region: the memory is gone" "$1" &&
		grep -q "run failed: No such device" "$1"; then
		echo "ok: $2: the run failed cleanly: $(grep SIGBUS "$1")"
	else
		fail "$2: lattester-ctl exited $st"
		cat "$1"
	fi
}

# inject DEV SECTOR COUNT: COUNT known bad blocks at SECTOR of DEV's disk
inject() {
	bb=/sys/block/$(basename "$1")/badblocks
	if ! echo "$2 $3" >"$bb" 2>/tmp/bb.err; then
		fail "$1: cannot write $bb: $(cat /tmp/bb.err)"
		return 1
	fi
	grep -q "^$2 $3\$" "$bb" || { fail "$1: $bb does not list $2 $3"; return 1; }
	echo "ok: $1: bad blocks at sector $2 (+$3) listed: $(tr '\n' ' ' <"$bb")"
}

# durable DOMAIN OP TARGET ARGS...: the platform's persistence domain as
# list and run see it, and --op durable on TARGET (run ARGS added): the
# region's table line says DOMAIN, and run --op durable times OP with
# sfence, its "durable:" line saying so; OP "-": refused, the domain named.
durable() {
	local domain=$1 op=$2 tgt=$3 out
	shift 3
	if lattester-ctl list 2>/dev/null | grep -q "persistence domain $domain"; then
		echo "ok: list: persistence domain $domain"
	else
		fail "list: no region with persistence domain $domain: $(lattester-ctl list 2>&1 | grep 'persistence domain')"
	fi
	if [ "$op" = - ]; then
		refused 1 "--op durable: .*(persistence domain is none|no persistence domain \\($domain\\))" \
			run --op durable --samples 100 --cpu 0 --target "$tgt" "$@"
		return
	fi
	if ! out=$(lattester-ctl run --op durable --samples 2000 --cpu 0 \
		--target "$tgt" "$@" 2>&1); then
		fail "run --op durable --target $tgt $*: $out"
		return
	fi
	if printf '%s\n' "$out" | grep -q "^op: *$op$" &&
	   printf '%s\n' "$out" | grep -q "^fence: *sfence$" &&
	   printf '%s\n' "$out" | grep -q "^durable: *$domain (.*): $op + sfence is the shortest durable store; this run times it (--op durable)$"; then
		echo "ok: run --op durable --target $tgt $*: $op + sfence ($domain)"
	else
		fail "run --op durable --target $tgt $*: not $op + sfence on $domain: $(printf '%s\n' "$out" | grep -E '^(op|fence|durable):')"
	fi
}
