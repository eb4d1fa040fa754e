#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-spdx.sh - every source and script names its licence, and LICENSES/
# holds the text of every licence named:
#  - each file of LICENSES/ has the kernel's header (Valid-License-Identifier
#    or SPDX-Exception-Identifier, SPDX-URL, Usage-Guide, License-Text) and a
#    text below it;
#  - each tracked source and script has an SPDX-License-Identifier line on
#    line 1, or on line 2 below a "#!" or "# shellcheck" line (documents,
#    data, fixtures and LICENSES/ itself are not sources);
#  - each licence such a line names is a Valid-License-Identifier of a file
#    in LICENSES/, each exception (after WITH) the SPDX-Exception-Identifier
#    of one in LICENSES/exceptions/ whose SPDX-Licenses lists that licence.
#
#   bash tests/unit/test-spdx.sh [FILE...]
#
# With FILEs, checks those instead of the tracked files (paths as given,
# licences against this tree's LICENSES/).  TAP-like lines, then
# "spdx: N passed, N failed"; exit 1 on a failure.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
lic=$top/LICENSES
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

TAP_NAME=spdx
. "$top/tests/tap.sh"

# not sources: documents, data, test fixtures, the licence texts themselves
not_source='\.(md|json|jsonl|csv|txt|png|svg)$|^Documentation/ABI/|(^|/)VERSION$|(^|/)\.gitignore$|(^|/)fixtures/|^LICENSES/|^COPYING$'

# field NAME FILE: the values of the header line "NAME: value" of a licence
# file, one per line (the header is what precedes License-Text:)
field()
{
	sed -n '/^License-Text:/q;s/^'"$1"':[[:space:]]*//p' "$2"
}

# --- LICENSES/ ---------------------------------------------------------------
: >"$tmp/licences"	# identifier, one a line
: >"$tmp/exceptions"	# identifier TAB the licences it applies to
: >"$tmp/bad"
if [ -d "$lic" ]; then
	for f in "$lic"/*/*; do
		[ -f "$f" ] || continue
		rel=${f#"$top"/}
		ids=$(field Valid-License-Identifier "$f")
		exc=$(field SPDX-Exception-Identifier "$f")
		case "$rel" in
		LICENSES/exceptions/*)
			[ -n "$exc" ] || echo "$rel: no SPDX-Exception-Identifier" >>"$tmp/bad"
			printf '%s\t%s\n' "$exc" "$(field SPDX-Licenses "$f" | tr -d ',')" >>"$tmp/exceptions"
			;;
		*)
			if [ -n "$ids" ]; then
				echo "$ids" >>"$tmp/licences"
			else
				echo "$rel: no Valid-License-Identifier" >>"$tmp/bad"
			fi
			;;
		esac
		for h in SPDX-URL Usage-Guide; do
			grep -q "^$h:" "$f" || echo "$rel: no $h:" >>"$tmp/bad"
		done
		# the text: something that is not blank below License-Text:
		sed -n '/^License-Text:/,${/^License-Text:/d;p}' "$f" | grep -q '[^[:space:]]' ||
			echo "$rel: no License-Text: with a text below it" >>"$tmp/bad"
	done
	[ -s "$tmp/licences" ] || echo "LICENSES/: no licence file" >>"$tmp/bad"
else
	echo "LICENSES/ is missing" >>"$tmp/bad"
fi
[ ! -s "$tmp/bad" ]
report $? "LICENSES/ holds licence texts with the kernel's header lines"
sed 's/^/#  /' "$tmp/bad"

# --- the files ---------------------------------------------------------------
if [ $# -gt 0 ]; then
	printf '%s\n' "$@" >"$tmp/files"	# as given, from where we were started
elif git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$top" -c core.quotePath=false ls-files | grep -vE "$not_source" >"$tmp/files"
	cd "$top" || exit 1
else
	report 1 "$top is not a git work tree: which files are tracked?"
	finish
fi

: >"$tmp/missing"
: >"$tmp/unknown"
count=0
while IFS= read -r f; do
	# deleted in the work tree, empty, or not text: nothing to look at
	if [ ! -f "$f" ] || [ ! -s "$f" ] || ! grep -qI '' "$f"; then
		continue
	fi
	count=$((count + 1))
	l1=$(sed -n 1p "$f")
	case "$l1" in
	*SPDX-License-Identifier:*) line=$l1 ;;
	'#!'* | '# shellcheck '*) line=$(sed -n 2p "$f") ;;
	*) line= ;;
	esac
	case "$line" in
	*SPDX-License-Identifier:*) ;;
	*)
		echo "$f" >>"$tmp/missing"
		continue
		;;
	esac
	# the expression: what follows the tag, less a closing "*/"
	expr=${line#*SPDX-License-Identifier:}
	expr=${expr%%\*/*}
	set -f
	# shellcheck disable=SC2046 # the expression's words
	set -- $(echo "$expr" | tr '()' '  ')
	set +f
	[ $# -gt 0 ] || { echo "$f: no licence after the tag" >>"$tmp/unknown"; continue; }
	prev='' last=''
	for w in "$@"; do
		case "$w" in
		OR | AND | WITH) ;;
		*)
			if [ "$prev" = WITH ]; then
				if ! awk -F'\t' -v e="$w" -v l="$last" '
					$1 == e { for (i = 1; i <= split($2, a, " "); i++)
						if (a[i] == l) found = 1 }
					END { exit !found }' "$tmp/exceptions"; then
					echo "$f: $w: not in LICENSES/exceptions/, or not for $last" >>"$tmp/unknown"
				fi
			else
				grep -qxF -- "$w" "$tmp/licences" ||
					echo "$f: $w not in LICENSES/" >>"$tmp/unknown"
				last=$w
			fi
			;;
		esac
		prev=$w
	done
done <"$tmp/files"

[ "$count" -gt 0 ]
report $? "there are sources and scripts to check ($count)"

[ ! -s "$tmp/missing" ]
report $? "each has an SPDX-License-Identifier line on line 1 (2 after #! or # shellcheck)"
sed 's/^/#  no SPDX line: /' "$tmp/missing"

[ ! -s "$tmp/unknown" ]
report $? "each licence an SPDX line names is in LICENSES/"
sed 's/^/#  /' "$tmp/unknown"

finish
