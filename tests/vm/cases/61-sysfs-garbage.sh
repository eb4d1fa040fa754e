#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 61-sysfs-garbage: garbage written to every writable attribute of
# /sys/class/misc/lattester/ (found by mode: the module's window_us and
# max_chunk_kib, and the driver core's uevent; power/ is the driver core's
# runtime-PM group and is
# left alone) is refused with the documented errno and changes nothing;
# good values take effect; read-only attributes refuse writes (EACCES, even
# for root); every attribute still reads, whole and byte by byte.
# window_us is left at 500, max_chunk_kib at 4096.
# Each write is one write(2) by dd, whose error message gives the errno.
# vm-kernels: 6.12.*+deb12-amd64
# vm-kernels-why: the module's own sysfs attributes: the same code on every kernel
set -u
D=/sys/class/misc/lattester
T=/tmp/sysfs-garbage
mkdir -p "$T"
rc=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; rc=1; }

# put FILE SRC: write SRC's bytes to FILE in one write(2); prints OK or the
# errno's name.  An empty SRC opens FILE and writes nothing.
put() {
	if dd if="$2" of="$1" bs=65536 count=1 2>"$T/err" >/dev/null; then
		echo OK
		return
	fi
	case $(cat "$T/err") in
	*"Invalid argument"*) echo EINVAL ;;
	*"out of range"*) echo ERANGE ;;
	*"Permission denied"*) echo EACCES ;;
	*"Operation not permitted"*) echo EPERM ;;
	*) echo "other:$(head -n1 "$T/err")" ;;
	esac
}

# The garbage: NAME then printf format (octal escapes for binary bytes).
n=0
mk() {
	n=$((n + 1))
	printf "$2" >"$T/g$n"
	echo "$1" >"$T/g$n.name"
}
mk empty-no-write ''
mk newline '\n'
mk two-newlines '1000\n\n'
mk space ' '
mk leading-space ' 1000'
mk trailing-space '1000 '
mk letters 'abc'
mk number-then-junk '1000abc'
mk float '1000.5'
mk exponent '1e3'
mk negative '-1'
mk negative-500 '-500'
mk zero '0'
mk below-min '9'
mk above-max '100001'
mk uint-max '4294967295'
mk uint-max+1 '4294967296'
mk huge '99999999999999999999999999999999'
mk hex '0x1f4'
mk hex-upper '0X3E8'
mk binary '\001\377\376\200\033[2J'
mk nul-first '\000500'
mk crlf '1000\r\n'
mk tab '1000\t'
# 4 KiB (a whole page, what sysfs passes on) of junk and of digits
i=0
: >"$T/junk"
: >"$T/digits"
while [ $i -lt 64 ]; do
	printf 'Zq#%%\001\377 junk! -0x12 \\n\\0 ;rm -rf / & 1e9 0500 \t\r\n..' >>"$T/junk"
	printf '9999999999999999999999999999999999999999999999999999999999999999' >>"$T/digits"
	i=$((i + 1))
done
head -c 4096 "$T/junk" >"$T/g$((n + 1))"; echo junk-4k >"$T/g$((n + 1)).name"
head -c 4096 "$T/digits" >"$T/g$((n + 2))"; echo digits-4k >"$T/g$((n + 2)).name"
# more than a page: sysfs passes on the first page
cat "$T/junk" "$T/junk" >"$T/g$((n + 3))"; echo junk-over-a-page >"$T/g$((n + 3)).name"
n=$((n + 3))
echo "$n kinds of garbage, up to $(wc -c <"$T/g$n") bytes"

# What each garbage write must give, per attribute.  empty-no-write makes
# no write(2) at all: it succeeds and must change nothing.
want_window() {
	case $1 in
	empty-no-write) echo OK ;;
	uint-max+1 | huge | digits-4k) echo ERANGE ;;
	*) echo EINVAL ;;
	esac
}
# max_chunk_kib takes 2048 and 4096 alone: every other number is EINVAL
want_max_chunk_kib() {
	want_window "$@"
}
want_uevent() {
	case $1 in
	empty-no-write) echo OK ;;
	*) echo EINVAL ;;
	esac
}

# good values: "written expected-read-back"
good_window_us='1000\n:1000 10:10 100000:100000 0500:500 010:10 +750:750 1000:1000 500\n:500'
good_uevent='change:- change\n:-'
good_max_chunk_kib='2048:2048 4096\n:4096 02048:2048 4096:4096'

writable=$(find "$D/" -maxdepth 1 -type f -perm -200 | sort)
readonly=$(find "$D/" -maxdepth 1 -type f ! -perm -200 | sort)
echo "writable: $(echo $writable)"
echo "read-only: $(echo $readonly)"
case " $(echo $writable) " in
*" $D/window_us "*) ;;
*) bad "window_us is not among the writable attributes" ;;
esac

for f in $writable; do
	a=$(basename "$f")
	case $a in
	window_us) good=$good_window_us ;;
	max_chunk_kib) good=$good_max_chunk_kib ;;
	uevent) good=$good_uevent ;;
	*) bad "$a: writable, and this test knows no good value for it"; continue ;;
	esac
	before=$(cat "$f")
	show=$(echo $before)	# on one line
	nbad=0
	i=1
	while [ $i -le $n ]; do
		g=$(cat "$T/g$i.name")
		want=$("want_$(echo "$a" | sed 's/_us$//')" "$g")
		got=$(put "$f" "$T/g$i")
		after=$(cat "$f")
		if [ "$got" != "$want" ]; then
			bad "$a <- $g: $got, want $want"
			nbad=$((nbad + 1))
		elif [ "$after" != "$before" ]; then
			bad "$a <- $g: $got, but the value changed: '$before' -> '$after'"
			nbad=$((nbad + 1))
		fi
		i=$((i + 1))
	done
	[ $nbad = 0 ] && ok "$a: $n garbage writes refused as documented (value stays '$show')"
	for pair in $good; do
		val=${pair%%:*} exp=${pair#*:}
		printf "$val" >"$T/good"
		got=$(put "$f" "$T/good")
		now=$(cat "$f")
		if [ "$got" != OK ]; then
			bad "$a <- '$val': $got, want success"
		elif [ "$exp" != - ] && [ "$now" != "$exp" ]; then
			bad "$a <- '$val': reads '$now', want '$exp'"
		else
			ok "$a <- '$val' taken (reads '$(echo $now)')"
		fi
	done
done

# window_us really is the default a run takes
printf '1234' >"$T/good"
put "$D/window_us" "$T/good" >/dev/null
if lattester-ctl run --quiet --samples 1000 --region 16M --json "$T/w.json" \
	>/dev/null 2>&1 && grep -q '"window_us": 1234' "$T/w.json"; then
	ok "a run takes window_us 1234 from sysfs"
else
	bad "a run did not take window_us 1234 from sysfs"
fi
printf '500' >"$T/good"
put "$D/window_us" "$T/good" >/dev/null
[ "$(cat "$D/window_us")" = 500 ] && ok "window_us restored to 500" ||
	bad "window_us is $(cat "$D/window_us"), not 500"

# read-only attributes: no write gets in, even for root
for f in $readonly; do
	a=$(basename "$f")
	before=$(cat "$f")
	for g in 1 4 $n; do
		got=$(put "$f" "$T/g$g")
		if [ "$got" != EACCES ]; then
			bad "$a (read-only) <- $(cat "$T/g$g.name"): $got, want EACCES"
		fi
	done
	[ "$(cat "$f")" = "$before" ] || bad "$a changed after writes"
done
ok "read-only attributes refuse writes: $(echo $readonly | wc -w)"

# every attribute reads, whole and one byte per read(2), with its format
for f in $D/*; do
	[ -f "$f" ] || continue
	a=$(basename "$f")
	if ! v=$(cat "$f" 2>&1); then
		bad "read $a: $v"
		continue
	fi
	b=$(dd if="$f" bs=1 2>/dev/null)
	[ "$b" = "$v" ] || bad "$a: byte-by-byte read '$b' differs from '$v'"
	case $a in
	abi_version) re='^[0-9]+\.[0-9]+$' ;;
	tsc_khz | window_us) re='^[0-9]+$' ;;
	max_chunk_kib) re='^(2048|4096)$' ;;
	features) re='^0x[0-9a-f]+$' ;;
	state) re='^(idle|running|done|aborted|failed)$' ;;
	progress) re='^[0-9]+ [0-9]+$' ;;
	dev) re='^[0-9]+:[0-9]+$' ;;
	*) re='' ;;
	esac
	if [ -n "$re" ] && ! echo "$v" | grep -qE "$re"; then
		bad "$a reads '$v', not /$re/"
	else
		ok "read $a: $(echo "$v" | head -n1)"
	fi
done
exit $rc
