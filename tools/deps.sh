#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/deps.sh - install the Debian 12 packages lattester's build and tests
# need (module build for both kernel lines, lattester-ctl, the QEMU VM rig).
#
# Idempotent: when every package is already installed (dpkg-query) apt is not
# touched at all.  Otherwise: apt-get update, pick the newest
# linux-headers-6.12.*+deb12-amd64 (not -rt, not -cloud), install what is
# missing.  DEPS_FORCE=1 always updates and re-resolves the 6.12 headers.
# Needs root (or sudo).
set -euo pipefail

pkgs=(
	qemu-system-x86 busybox-static cpio kmod ndctl daxctl
	libndctl-dev libdaxctl-dev libcxl-dev libnuma-dev libjson-c-dev
	build-essential bc sparse xz-utils zstd pkg-config python3 numactl
	e2fsprogs gnuplot-nox groff-base
	linux-headers-amd64 dkms
	gcc-multilib	# the ioctl fuzzer as a 32-bit program (compat_ioctl)
)
# Debian 12's 6.12 kernel line, generic and PREEMPT_RT; the exact names
# change with every upload.
h612_re='^linux-headers-6\.12\.[0-9.]+\+deb12-amd64$'
h612rt_re='^linux-headers-6\.12\.[0-9.]+\+deb12-rt-amd64$'

installed() {
	[[ $(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null) == "ii " ]]
}

missing=()
for p in "${pkgs[@]}"; do
	installed "$p" || missing+=("$p")
done
have() {	# an installed package matching the regex $1
	dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 'linux-headers-6.12.*' 2>/dev/null |
		awk '$1 == "ii" {print $2}' | grep -E "$1" || true
}
have612=$(have "$h612_re")
have612rt=$(have "$h612rt_re")

if ((${#missing[@]} == 0)) && [[ -n $have612 && -n $have612rt && ${DEPS_FORCE:-0} != 1 ]]; then
	echo "deps: all packages installed"
	exit 0
fi

sudo=()
if [[ $(id -u) != 0 ]]; then
	command -v sudo >/dev/null || {
		echo "deps: need root to install: ${missing[*]}" >&2
		exit 1
	}
	sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive

"${sudo[@]}" apt-get update -q
for re in "$h612_re" "$h612rt_re"; do
	h=$(apt-cache search --names-only "$re" | awk '{print $1}' | sort -V | tail -n 1)
	if [[ -z $h ]]; then
		echo "deps: no package matches $re in the apt sources" \
			"(needs bookworm-security or bookworm-backports)" >&2
		exit 1
	fi
	installed "$h" || missing+=("$h")
done

if ((${#missing[@]} == 0)); then
	echo "deps: all packages installed"
	exit 0
fi
echo "deps: installing ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -q --no-install-recommends "${missing[@]}"
