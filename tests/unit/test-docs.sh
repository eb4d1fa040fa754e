#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-docs.sh - the man pages and the bash completion agree with --help.
# All three come from the same tables (user/doc.c prints the pages with
# 'lattester-ctl __man PAGE' and the completion with '__completion bash');
# this checks what each one actually shows:
#  - the commands of --help, of lattester-ctl(1)'s COMMANDS, of the pages
#    there are (lattester-ctl-CMD.1) and of 'lattester-ctl <TAB>' are the
#    same; each page's NAME line is the command's line in --help;
#  - for every command, the options of 'CMD --help', of the OPTIONS of
#    lattester-ctl-CMD(1) and of 'lattester-ctl CMD --<TAB>' are the same;
#  - an option whose values --help lists ("one of: ...", "a|b|c") completes
#    to exactly those (--op to the op names), --target to dram and dram:N
#    for each node (and to files for a path outside /dev), the file
#    options to files, sweep's lists item by item;
#  - every page renders with groff -ww without a warning, and with man -l;
#  - build/man and build/completion (make -C user) are what the tool prints.
#
#   make -C user && bash tests/unit/test-docs.sh
#
# TAP-like lines, then "docs: N passed, N failed[, N skipped]"; exit 1 on a
# failure.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
ctl=${LATTESTER_CTL:-$top/user/lattester-ctl}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

TAP_NAME=docs
. "$top/tests/tap.sh"

# same WHAT A B: two word lists hold the same set; the difference if not
same()
{
	local what=$1 a b

	a=$(tr ' ' '\n' <<<"$2" | sed '/^$/d' | sort -u)
	b=$(tr ' ' '\n' <<<"$3" | sed '/^$/d' | sort -u)
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		report 0 "$what"
	else
		report 1 "$what"
		diff <(echo "$a") <(echo "$b") | sed -n 's/^[<>]/#  &/p' | head -8
	fi
}

if [ ! -x "$ctl" ]; then
	report 1 "$ctl not built (make -C user)"
	finish
fi
if ! command -v groff >/dev/null; then
	report 1 "groff not installed (groff-base)"
	finish
fi

unset LATTESTER_LOG
export LC_ALL=C.UTF-8

# ---- the sources of truth as the user sees them: --help ----

"$ctl" --help >"$tmp/main-help"
commands=$(sed -n 's/^   \([a-z][a-z-]*\) .*/\1/p' "$tmp/main-help")
[ -n "$commands" ]
report $? "--help lists commands: $(echo $commands)"

# ---- the pages ----

pages=$("$ctl" __man)
same "a page for lattester-ctl and for each command" "$pages" \
	"lattester-ctl $(printf 'lattester-ctl-%s ' $commands)"
for p in $pages; do
	"$ctl" __man "$p" >"$tmp/$p.1"
	groff -man -ww -z "$tmp/$p.1" 2>"$tmp/warn"
	[ $? -eq 0 ] && [ ! -s "$tmp/warn" ]
	report $? "$p.1: groff -ww renders it without a warning"
	sed 's/^/#   /' "$tmp/warn" | head -5
	groff -man -Tascii -P-cbou "$tmp/$p.1" >"$tmp/$p.txt" 2>/dev/null
done
if command -v man >/dev/null; then
	for p in $pages; do
		MANWIDTH=80 man -l "$tmp/$p.1" >"$tmp/man.out" 2>"$tmp/warn"
		[ $? -eq 0 ] && [ ! -s "$tmp/warn" ] && grep -q '^NAME' "$tmp/man.out"
		report $? "$p.1: man -l shows it"
	done
else
	skip "man -l: no man-db"
fi
"$ctl" __man nosuch >/dev/null 2>&1
[ $? -eq 2 ]
report $? "__man of an unknown page fails"

# the words at the tags of section SECTION of a rendered page
section_tags()
{
	awk -v sec="$2" '
		/^[A-Z][A-Z ]*$/ { in_sec = ($0 == sec); next }
		in_sec && /^       [^ ]/ { print $1 }' "$1"
}

same "lattester-ctl(1) COMMANDS: the commands of --help" "$commands" \
	"$(section_tags "$tmp/lattester-ctl.txt" COMMANDS)"
same "lattester-ctl(1) OPTIONS: the options of the usage line" \
	"$(head -1 "$tmp/main-help" | grep -o -- '--[a-z-]*')" \
	"$(section_tags "$tmp/lattester-ctl.txt" OPTIONS)"
for c in $commands; do
	line=$(sed -n "s/^   $c  *//p" "$tmp/main-help")
	name=$(sed -n '/^\.SH NAME/{n;p;q}' "$tmp/lattester-ctl-$c.1" | sed 's/\\-/-/g')
	[ "$name" = "lattester-ctl-$c - $line" ]
	report $? "lattester-ctl-$c(1) NAME: '$line'"
done

# ---- the completion ----

"$ctl" __completion bash >"$tmp/completion"
bash -n "$tmp/completion"
report $? "the completion script is valid bash"
# shellcheck disable=SC1091
source "$tmp/completion"
complete -p lattester-ctl 2>/dev/null | grep -q -- '-F _lattester_ctl'
report $? "it registers _lattester_ctl for lattester-ctl"

# comp LINE: what Tab offers at the end of LINE, one a line, sorted; set
# up as bash does (COMP_LINE, COMP_POINT, COMP_WORDS, COMP_CWORD)
comp()
{
	COMP_LINE=$1
	COMP_POINT=${#COMP_LINE}
	read -ra COMP_WORDS <<<"$COMP_LINE"
	[[ $COMP_LINE == *' ' ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_lattester_ctl 2>/dev/null
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort
}

same "'lattester-ctl <TAB>' offers the commands of --help" "$commands" \
	"$(comp 'lattester-ctl ')"
same "'lattester-ctl help <TAB>' offers the commands" "$commands" \
	"$(comp 'lattester-ctl help ')"
same "'lattester-ctl --<TAB>' offers the usage line's options" \
	"$(head -1 "$tmp/main-help" | grep -o -- '--[a-z-]*')" \
	"$(comp 'lattester-ctl --')"
[ "$(comp 'lattester-ctl ru')" = run ]
report $? "'lattester-ctl ru<TAB>' completes run"
[ -z "$(comp 'lattester-ctl __')" ]
report $? "the hidden commands are not offered"

# ---- per command: --help, page, completion ----

for c in $commands; do
	"$ctl" "$c" --help >"$tmp/$c-help"
	report $? "$c --help"
	opts=$(sed -n 's/^  \(--[a-z][a-z-]*\).*/\1/p' "$tmp/$c-help")
	same "$c: lattester-ctl-$c(1) OPTIONS = $c --help" "$opts" \
		"$(section_tags "$tmp/lattester-ctl-$c.txt" OPTIONS)"
	same "$c: 'lattester-ctl $c --<TAB>' = $c --help" "$opts" \
		"$(comp "lattester-ctl $c --")"

	# values: "one of: a, b, x:BYTES" under an option, or "--o a|b|c"
	awk '/^  --/ { opt = $1; arg = $2; if (arg ~ /^[a-z0-9-]+(\|[a-z0-9-]+)+$/) print opt, arg; next }
	     /^ +one of: / { sub(/^ +one of: /, ""); print opt, $0 }' \
		"$tmp/$c-help" >"$tmp/values"
	while read -r opt vals; do
		want=$(sed 's/, /\n/g; s/|/\n/g; s/:BYTES$/:/; s/:BYTES\n/:\n/g' <<<"$vals" |
			sed 's/:BYTES$/:/')
		same "$c: '$opt <TAB>' offers exactly $(echo $want)" "$want" \
			"$(comp "lattester-ctl $c $opt ")"
	done <"$tmp/values"
done

# the op names, from the parser's own error message
ops=$("$ctl" run --op bogus 2>&1 | sed -n 's/.*(expected \(.*\))$/\1/p' | sed 's/, /\n/g')
same "run --op <TAB>: exactly the op names run accepts" "$ops" \
	"$(comp 'lattester-ctl run --op ')"
same "run --op=<TAB> (the = form) too" "$ops" \
	"$(comp 'lattester-ctl run --op=')"
same "run --op nt<TAB>: the nt- ops" "$(grep '^nt' <<<"$ops")" \
	"$(comp 'lattester-ctl run --op nt')"
same "sweep --op load,nt<TAB>: the last item of the list" \
	"$(sed -n 's/^nt/load,nt/p' <<<"$ops")" \
	"$(comp 'lattester-ctl sweep --op load,nt')"
# without COMP_LINE (older callers): from COMP_WORDS alone
COMP_WORDS=(lattester-ctl run --op "")
COMP_CWORD=3
unset COMP_LINE COMP_POINT
COMPREPLY=()
_lattester_ctl 2>/dev/null
same "run --op <TAB> from COMP_WORDS alone" "$ops" "${COMPREPLY[*]}"

nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null |
	sed 's|.*/node||; s/^/dram:/')
got=$(comp 'lattester-ctl run --target ')
same "run --target <TAB>: dram and dram:N of each node (besides devices)" \
	"dram $nodes" "$(grep '^dram' <<<"$got")"
extra=$(grep -v '^dram' <<<"$got" | grep -v -e '^/dev/pmem' -e '^/dev/dax' -e '^namespace' -e '^cxl:region')
[ -z "$extra" ]
report $? "run --target <TAB>: nothing but dram, /dev/pmem*, /dev/dax*, cxl:regionN, namespaces"
# readline replaces what follows the ':' only
same "run --target dram:<TAB>: the node numbers (after the ':')" \
	"$(sed 's/^dram://' <<<"$nodes")" "$(comp 'lattester-ctl run --target dram:')"
same "run --pattern st<TAB>: stride: (wanting its value)" "stride:" \
	"$(comp 'lattester-ctl run --pattern st')"

mkdir -p "$tmp/files" && touch "$tmp/files/out.json" "$tmp/files/out.csv"
for oc in "run --json" "run --hist" "run --outliers" "sweep --out" \
	  "plot --in" "plot --out"; do
	same "$oc <TAB>: files" "$tmp/files/out.csv $tmp/files/out.json" \
		"$(comp "lattester-ctl $oc $tmp/files/out")"
done
same "run --target DIR/<TAB>: files (a DAX file, for --engine user)" \
	"$tmp/files/out.csv $tmp/files/out.json" \
	"$(comp "lattester-ctl run --target $tmp/files/out")"
[ -z "$(comp 'lattester-ctl run --cpu ')" ]
report $? "run --cpu <TAB>: nothing to guess, no options offered"
same "plot <TAB>: the kinds" "hist tail outliers sweep bars bw-threads bw-size loaded curves working-set matrix" \
	"$(comp 'lattester-ctl plot ')"
same "compare <TAB>: files" "$tmp/files/out.csv $tmp/files/out.json" \
	"$(comp "lattester-ctl compare $tmp/files/out")"
same "compare --stat p50 a.json <TAB>: files, after options and files" \
	"$tmp/files/out.csv $tmp/files/out.json" \
	"$(comp "lattester-ctl compare --stat p50 a.json $tmp/files/out")"
same "compare a.json --<TAB>: the options" \
	"$(sed -n 's/^  \(--[a-z][a-z-]*\).*/\1/p' "$tmp/compare-help")" \
	"$(comp 'lattester-ctl compare a.json --')"
same "plot hist --in x <TAB>: the options once the kind is given" \
	"$(sed -n 's/^  \(--[a-z][a-z-]*\).*/\1/p' "$tmp/plot-help")" \
	"$(comp 'lattester-ctl plot hist --in x ')"

# ---- what the build made ----

if [ -f "$top/build/man/.stamp" ] && [ -f "$top/build/completion/lattester-ctl" ]; then
	ok=0
	for p in $pages; do
		cmp -s "$tmp/$p.1" "$top/build/man/$p.1" || ok=1
	done
	[ "$(ls "$top/build/man" | grep -c '\.1$')" -eq "$(wc -w <<<"$pages")" ] || ok=1
	report $ok "build/man holds the pages the tool prints"
	cmp -s "$tmp/completion" "$top/build/completion/lattester-ctl"
	report $? "build/completion/lattester-ctl is what the tool prints"
else
	skip "build/man, build/completion: not built (make -C user)"
fi

finish
