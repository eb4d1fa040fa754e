# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the tools/vm scripts.  Source it; don't run it.

LATT_VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LATT_REPO=$(cd "$LATT_VM_DIR/../.." && pwd)
# Not every caller uses every variable.
export LATT_VM_DIR LATT_REPO

latt_prog=$(basename "$0")

# die MSG: exit with ${LATT_DIE_STATUS:-1}.
die() {
	printf '%s: %s\n' "$latt_prog" "$*" >&2
	exit "${LATT_DIE_STATUS:-1}"
}

warn() {
	printf '%s: %s\n' "$latt_prog" "$*" >&2
}

# Print only when V=1.
info() {
	if [[ ${V:-0} == 1 ]]; then
		printf '%s: %s\n' "$latt_prog" "$*" >&2
	fi
}

# The cache of extracted kernels: $LATT_CACHE, else /var/cache/lattester when
# it can be written, else ~/.cache/lattester.  Always outside the repository.
latt_cache() {
	local d=${LATT_CACHE:-}
	if [[ -z $d ]]; then
		d=/var/cache/lattester
		if ! { mkdir -p "$d" && [[ -w $d ]]; } 2>/dev/null; then
			d=${XDG_CACHE_HOME:-$HOME/.cache}/lattester
		fi
	fi
	mkdir -p "$d" || die "cannot create cache dir $d"
	printf '%s\n' "$d"
}

# is_elf FILE: true when FILE starts with the ELF magic.
is_elf() {
	[[ -f $1 ]] && [[ $(head -c 4 -- "$1" | od -An -tx1 | tr -d ' \n') == 7f454c46 ]]
}

# Monotonic-ish seconds with millisecond resolution, for timing reports.
now_ms() {
	date +%s%3N
}

# fmt_ms START_MS END_MS -> "1.234s"
fmt_ms() {
	local d=$(($2 - $1))
	printf '%d.%03ds' $((d / 1000)) $((d % 1000))
}
