# shellcheck shell=sh disable=SC2034 # the variables are for the scripts
# SPDX-License-Identifier: GPL-2.0
# tools/repro-common.sh - what the tools/repro-* scripts share: options,
# finding lattester-ctl, and plotting when gnuplot is there.  Sourced; POSIX
# sh (the scripts also run in the test VM's busybox).
#
# Every script: repro-NAME [-n SAMPLES] [-o DIR] [-c CPU] [--no-plot]
#                          [TARGET] [-- SWEEP OPTIONS...]
#   TARGET      dram (default), dram:NODE, /dev/pmemN, /dev/daxX.Y,
#               namespaceX.Y: what `lattester-ctl run --target` takes
#   -n SAMPLES  samples per point (each script has a modest default; scale
#               it up for publication-quality tails)
#   -o DIR      where the CSV and the plots go (default ./repro-NAME-TARGET)
#   -c CPU      the measuring CPU (default 0)
#   --no-plot   only the data
#   -h          this help
# The scripts of many threads (repro-bandwidth-*, repro-loaded-latency,
# repro-curves) also take
#   -t THREADS  thread counts, a sweep list (1..8, 1,2,4): each script says
#               its default, from the online CPUs (or those of -C)
#   -C CPUS     the threads' CPUs, thread 0 first, as `run --cpus` (0-7,16);
#               a point of N threads takes the first N.  Without it, N
#               online CPUs from -c upwards.  Keep them on one socket, the
#               target's: -C "$(cat /sys/devices/system/node/node0/cpulist)"
#   -d TIME     bandwidth: each point's duration (default 500ms)
#   -- ...      more sweep options, e.g. -- --force (stores on pmem) or
#               -- --region 64M; a list option adds values to the grid
# repro-working-set also takes
#   -R REGIONS  the regions, a sweep list (default 4K..4Gx2, capped at
#               what the target's node can hold)
#   -E ENGINE   user (default: no module needed, and --hugepages) or
#               kernel
# and repro-curves -M MIXES, -D DELAYS (sweep --curves' lists) and
# -E ENGINE (default kernel)
# The sweep resumes: run the script again to finish an interrupted one;
# remove DIR for a fresh start.  $LATTESTER_CTL picks the binary (default:
# lattester-ctl on $PATH, else the one built in this repository).

repro_usage() {	# [STATUS]: the script's header comment; 0 on stdout
	if [ "${1:-2}" = 0 ]; then
		sed -n '2,/^set -eu/{/^set -eu/d;/^# SPDX-License-Identifier:/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
	fi
	sed -n '2,/^set -eu/{/^set -eu/d;/^# SPDX-License-Identifier:/d;s/^# \{0,1\}//;p}' "$0" >&2
	exit 2
}

repro_init() {	# NAME DEFAULT_SAMPLES "$@"
	repro_name=$1
	samples=$2
	shift 2
	target=dram
	cpu=0
	outdir=
	plot=1
	extra_sizes=
	extra_hot=
	extra_threads=
	extra_delays=
	extra_mixes=
	extra_regions=
	engine=
	cpus=
	duration=500ms
	while [ $# -gt 0 ]; do
		case $1 in
		-n) [ $# -ge 2 ] || repro_usage; samples=$2; shift 2 ;;
		-o) [ $# -ge 2 ] || repro_usage; outdir=$2; shift 2 ;;
		-c) [ $# -ge 2 ] || repro_usage; cpu=$2; shift 2 ;;
		-s) [ $# -ge 2 ] || repro_usage; extra_sizes=$2; shift 2 ;;
		-H) [ $# -ge 2 ] || repro_usage; extra_hot=$2; shift 2 ;;
		-t) [ $# -ge 2 ] || repro_usage; extra_threads=$2; shift 2 ;;
		-C) [ $# -ge 2 ] || repro_usage; cpus=$2; shift 2 ;;
		-d) [ $# -ge 2 ] || repro_usage; duration=$2; shift 2 ;;
		-D) [ $# -ge 2 ] || repro_usage; extra_delays=$2; shift 2 ;;
		-M) [ $# -ge 2 ] || repro_usage; extra_mixes=$2; shift 2 ;;
		-R) [ $# -ge 2 ] || repro_usage; extra_regions=$2; shift 2 ;;
		-E) [ $# -ge 2 ] || repro_usage; engine=$2; shift 2 ;;
		--no-plot) plot=0; shift ;;
		-h | --help) repro_usage 0 ;;
		--) shift; break ;;
		-*) echo "$0: unknown option '$1'" >&2; repro_usage ;;
		*) target=$1; shift ;;
		esac
	done
	repro_rest=$*
	# the leftover words, for the sweep: kept as positional parameters by
	# the caller through "set --"
	[ -n "$outdir" ] || outdir=./repro-$repro_name-$(echo "$target" | tr '/:' '__')
	mkdir -p "$outdir"
	ctl=${LATTESTER_CTL:-}
	if [ -z "$ctl" ]; then
		if command -v lattester-ctl >/dev/null 2>&1; then
			ctl=lattester-ctl
		else
			ctl=$(cd "$(dirname "$0")/.." && pwd)/user/lattester-ctl
		fi
	fi
	# where the threads run: -C's list, or from -c upwards
	if [ -n "$cpus" ]; then
		cpu_args="--cpus $cpus"
	else
		cpu_args="--cpu $cpu"
	fi
}

# repro_opt OPT VALUE: "OPT VALUE" for the sweep, unless the words after
# -- give OPT themselves (lattester-ctl takes an option of one value once:
# what the user asks for wins, as it did when the last value won)
repro_opt() {
	case " $repro_rest " in
	*" $1 "* | *" $1="*) ;;
	*) echo "$1 $2" ;;
	esac
}

# repro_ncpus: how many CPUs the threads can have: those of -C, else the
# online ones (/sys/devices/system/cpu/online, a list like 0-3,8)
repro_ncpus() {
	if [ -n "$cpus" ]; then
		repro_l=$cpus
	else
		repro_l=$(cat /sys/devices/system/cpu/online 2>/dev/null) ||
			repro_l=0
	fi
	echo "$repro_l" | awk -F, '{ n = 0
		for (i = 1; i <= NF; i++)
			if (split($i, r, "-") == 2) n += r[2] - r[1] + 1
			else if ($i != "") n++
		print n }'
}

# repro_threads CAP: repro_ncpus, at most CAP
repro_threads() {
	repro_n=$(repro_ncpus)
	[ "$repro_n" -le "$1" ] || repro_n=$1
	echo "$repro_n"
}

# repro_plot KIND CSV PNG [PLOT OPTIONS...]: draw, or say why not
repro_plot() {
	kind=$1 in=$2 out=$3
	shift 3
	if [ "$plot" = 0 ]; then
		echo "$repro_name: not plotting (--no-plot): $ctl plot $kind --in $in --out $out $*"
		return 0
	fi
	if [ -z "${LATTESTER_GNUPLOT:-}" ] && ! command -v gnuplot >/dev/null 2>&1; then
		echo "$repro_name: gnuplot not installed (apt-get install gnuplot-nox): plot later with"
		echo "  $ctl plot $kind --in $in --out $out $*"
		return 0
	fi
	"$ctl" plot "$kind" --in "$in" --out "$out" "$@" >/dev/null || return 1
	echo "$repro_name: wrote $out"
}

# repro_bw_peaks CSV: each bandwidth line's peak (target, op, pattern,
# size) and the fewest threads that come within 5% of it
repro_bw_peaks() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["state"] == "done" && $c["mode"] == "bandwidth" {
		s = sprintf("%s %-10s %-4s %7d B", $c["target"], $c["op"],
			    $c["pattern"], $c["size"])
		if (!(s in peak)) order[++n] = s
		t = $c["threads"] + 0; g = $c["total_gbps"] + 0
		bw[s, t] = g; nt[s] = nt[s] " " t
		if (!(s in peak) || g > peak[s]) { peak[s] = g; at[s] = t }
	}
	END {
		for (k = 1; k <= n; k++) {
			s = order[k]; m = split(nt[s], ts, " "); first = at[s]
			for (j = 1; j <= m; j++)
				if (bw[s, ts[j]] >= 0.95 * peak[s] &&
				    ts[j] + 0 < first)
					first = ts[j] + 0
			printf "%s: peak %8.2f GB/s at %3d threads, 95%% of it from %3d\n",
				s, peak[s], at[s], first
		}
	}' "$1"
}

# The CXL scripts: the NUMA nodes of sysfs.
repro_nodes=/sys/devices/system/node
# repro_node_has_cpus N, repro_node_has_mem N, repro_node_ids: from sysfs
repro_node_has_cpus() {
	[ -n "$(tr -d '\n' <"$repro_nodes/node$1/cpulist" 2>/dev/null)" ]
}
repro_node_has_mem() {
	awk '/MemTotal/ { exit !($4 > 0) }' "$repro_nodes/node$1/meminfo" 2>/dev/null
}
repro_node_ids() {
	for d in "$repro_nodes"/node[0-9]*; do
		[ -d "$d" ] && echo "${d##*/node}"
	done | sort -n
}


# repro_cxl_targets REMOTE: $cxl, the CXL memory (TARGET, or the first
# memory-only node when none was named), $local_node, the node of CPU -c,
# and $targets, "dram:LOCAL[,dram:REMOTE],CXL" for the sweep: REMOTE (with
# 1) the first other node that has CPUs and memory
repro_cxl_targets() {
	cxl=$target
	if [ "$cxl" = dram ]; then
		cxl=
		for n in $(repro_node_ids); do
			if ! repro_node_has_cpus "$n" && repro_node_has_mem "$n"; then
				cxl=dram:$n
				break
			fi
		done
		if [ -z "$cxl" ]; then
			echo "$0: no NUMA node with memory and no CPU here: name the CXL memory (dram:NODE, cxl:regionN or /dev/daxX.Y)" >&2
			exit 1
		fi
		echo "$repro_name: CXL memory: $cxl (the first memory-only node)"
		# the CSV's folder is named after the target
		case $outdir in
		./repro-$repro_name-dram)
			rmdir "$outdir" 2>/dev/null || true
			outdir=./repro-$repro_name-$(echo "$cxl" | tr '/:' '__')
			;;
		esac
		mkdir -p "$outdir"
	fi
	local_node=
	for d in /sys/devices/system/cpu/cpu"$cpu"/node[0-9]*; do
		[ -e "$d" ] && local_node=${d##*/node}
	done
	[ -n "${local_node:-}" ] || local_node=0
	targets=dram:$local_node
	for n in $(repro_node_ids); do
		[ "$1" = 1 ] || break
		if [ "$n" != "$local_node" ] && repro_node_has_cpus "$n" && repro_node_has_mem "$n"; then
			targets=$targets,dram:$n
			break
		fi
	done
	[ "$cxl" = "dram:$local_node" ] || targets=$targets,$cxl
}

# repro_movdir64b: ",movdir64b" when the CPU has it, else nothing (and a
# note on stderr)
repro_movdir64b() {
	if grep -qw movdir64b /proc/cpuinfo 2>/dev/null; then
		echo ,movdir64b
	else
		echo "$repro_name: this CPU has no movdir64b (/proc/cpuinfo): left out" >&2
	fi
}

# ---- the published figures beside the measured ones ----

# repro_setup: what differs between this run's setup and the published
# one ($repro_published_setup, default: the Optane studies',
# Documentation/reproducing.md, "What was published"): the memory, the
# engine, the CPU and whether it is virtual or emulated
repro_setup() {
	case $target in
	dram*) repro_kind="DRAM, not Optane DC PMM" ;;
	/dev/pmem* | namespace*) repro_kind="persistent memory (a pmem namespace)" ;;
	/dev/dax*) repro_kind="device-DAX (persistent memory or CXL)" ;;
	cxl:*) repro_kind="CXL memory, not Optane DC PMM" ;;
	*) repro_kind="a file's memory" ;;
	esac
	case " $repro_rest ${engine:+--engine $engine} " in
	*" --engine user "* | *" --engine=user "*)
		repro_eng="user (a pinned thread, interrupts on: its tails hold the interrupts and the hypervisor's steals the module keeps out)" ;;
	*) repro_eng="kernel (the module: interrupts off in short windows, as LATTester)" ;;
	esac
	repro_model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
	if echo "$repro_model" | grep -q 'TCG'; then
		repro_virt="emulated by QEMU (TCG): every timing is the emulator's, none the hardware's"
	elif grep -qw hypervisor /proc/cpuinfo 2>/dev/null; then
		repro_virt="a virtual machine (CPU flag hypervisor): the hypervisor may take the CPU for milliseconds, and the TSC may move in coarse steps"
	else
		repro_virt="no hypervisor flag: bare metal"
	fi
	echo "$repro_name: setup, published: ${repro_published_setup:-Optane DC PMMs and DDR4 DRAM on a two-socket Cascade Lake server, measured by LATTester (a kernel module, interrupts off)}"
	echo "$repro_name: setup, here: target $target ($repro_kind); engine $repro_eng; CPU ${repro_model:-unknown}; $repro_virt"
}

# repro_stat CSV STAT FIELD=VALUE...: the median over the done rows whose
# FIELDs have those VALUEs (repeats: sweep --repeat, or -- --repeat N) of
# column STAT, or "-" where none has it
repro_stat() {
	repro_csv=$1 repro_col=$2
	shift 2
	awk -F, -v col="$repro_col" -v want="$*" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
		  nw = split(want, w, " "); next }
	$c["state"] == "done" && (col in c) && $c[col] != "" {
		for (k = 1; k <= nw; k++) {
			split(w[k], fv, "=")
			if ($c[fv[1]] != fv[2]) next
		}
		v[++n] = $c[col] + 0
	}
	END {
		if (!n) { print "-"; exit }
		for (i = 2; i <= n; i++)	# insertion sort: busybox awk has no asort
			for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		printf "%.1f\n", m
	}' "$repro_csv"
}

# repro_ratio A B: A / B to two decimals, "-" if either is "-" or B is 0
repro_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "-" || b == "-" || b + 0 == 0) print "-"
		else printf "%.2f\n", a / b }'
}

# repro_pub LABEL PUBLISHED SOURCE MEASURED: one line of the table
repro_pub() {
	printf '%s:   %-44s published %-9s measured %-9s [%s]\n' \
		"$repro_name" "$1" "$2" "$4" "$3"
}

# repro_none SOURCE: an experiment whose figures reproducing.md quotes no
# number of
repro_none() {
	echo "$repro_name: published: reproducing.md quotes no single figure for this experiment; compare the shape of the curve with $1"
}
