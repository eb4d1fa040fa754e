# shellcheck shell=sh disable=SC2034 # the variables are for the scripts
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
#   -- ...      more sweep options, e.g. -- --force (stores on pmem) or
#               -- --region 64M; a list option adds values to the grid
# The sweep resumes: run the script again to finish an interrupted one;
# remove DIR for a fresh start.  $LATTESTER_CTL picks the binary (default:
# lattester-ctl on $PATH, else the one built in this repository).

repro_usage() {
	sed -n '2,/^set -eu/{/^set -eu/d;s/^# \{0,1\}//;p}' "$0" >&2
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
	while [ $# -gt 0 ]; do
		case $1 in
		-n) [ $# -ge 2 ] || repro_usage; samples=$2; shift 2 ;;
		-o) [ $# -ge 2 ] || repro_usage; outdir=$2; shift 2 ;;
		-c) [ $# -ge 2 ] || repro_usage; cpu=$2; shift 2 ;;
		-s) [ $# -ge 2 ] || repro_usage; extra_sizes=$2; shift 2 ;;
		-H) [ $# -ge 2 ] || repro_usage; extra_hot=$2; shift 2 ;;
		--no-plot) plot=0; shift ;;
		-h | --help) repro_usage ;;
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
