#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-matrix.sh - lattester-ctl matrix on this host, no module, no root:
#  - --help (with its examples), the man page and the sources list the
#    same options; help matrix is matrix --help; --help lists the command;
#  - --engine user for real: the rows are the nodes with CPUs and the
#    columns the nodes with memory (from sysfs), each row from its node's
#    first online CPU; the table has MLC's shape; every value is a sane
#    latency; the JSON (lattester-matrix/1) is well formed and agrees with
#    the table, the nodes, each cell's run blocks and itself; --csv has
#    its header and a row per cell agreeing with the JSON; --stat, --json -,
#    --pattern rand, --cpus, the default region (1 GiB or more, clamped);
#  - failed cells: a --nodes column that doesn't exist, and an option the
#    CPU can't run (--timer rdtscp with rdtscp hidden by
#    LATTESTER_HWCAPS): '-' in the table, the reason below it in run's
#    words (and on stderr), null in the JSON, exit 1, the others measured;
#  - Ctrl-C: once stops after the cell (its value kept, the rest '.',
#    exit 130); with user/test-cli-fake.so (the module's stand-in) a cell
#    that hangs, twice aborts it;
#  - the kernel engine through test-cli-fake.so: exact figures (its
#    samples are synthetic: p50 90.0 ns per access, 5.625 ns per load of a
#    chain of 16), a START refused fails every cell;
#  - usage errors exit 2 (unknown option or value, --stat the samples
#    can't support, a list entry twice, --json - with --csv, options no
#    run accepts); the module missing, a CPU offline, a --json file that
#    can't be written exit 1 before anything is measured.
#
#   make -C user && make -C user test-cli-fake.so && bash tests/unit/test-matrix.sh
#
# TAP-like lines, then "matrix: N passed, N failed[, N skipped]".

set -u

TAP_NAME=matrix
CTL_TEST_PYTHON=1
. "$(dirname "$0")/ctl-test.sh"
export LATTESTER_DEV=/nonexistent
fake=$top/user/test-cli-fake.so
doc=$top/Documentation/lattester-ctl-matrix.md
small=(--samples 2000 --region 16M)

# mx WANT DESCRIPTION ARGS...: matrix ARGS, exit status WANT; stdout in
# $tmp/out, stderr in $tmp/err
mx()
{
	local want=$1 desc=$2 rc

	shift 2
	"$ctl" matrix "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq "$want" ]
	report $? "$desc (exit $rc, want $want)"
}

# py DESCRIPTION SCRIPT ARGS...: a python check that prints what is wrong
py()
{
	local desc=$1 out

	shift
	out=$(python3 - "$@" 2>&1)
	[ -z "$out" ]
	report $? "$desc"
	[ -z "$out" ] || sed 's/^/#   /' <<<"$out" | head -8
}

# ---- help, man page, sources ----

opts=$(source_options cmd-matrix.c)
[ -n "$opts" ]
report $? "matrix options found in the sources"
mx 0 "matrix --help" --help
cp "$tmp/out" "$tmp/help"
for o in $opts help; do
	has "$tmp/help" "^  --$o( |$)" "matrix --help lists --$o"
	has "$doc" "^\`--$o( |\`)" "lattester-ctl-matrix.md documents --$o"
done
for o in $(sed -n 's/^`--\([a-z-]*\).*/\1/p' "$doc"); do
	grep -qE -- "^  --$o( |$)" "$tmp/help"
	report $? "documented matrix --$o exists in matrix --help"
done
has "$tmp/help" "^examples:$" "matrix --help shows examples"
has "$tmp/help" "^  lattester-ctl matrix --engine user" "matrix --help: an --engine user example"
"$ctl" help matrix >"$tmp/out" 2>&1
cmp -s "$tmp/out" "$tmp/help"
report $? "help matrix prints the same as matrix --help"
"$ctl" --help >"$tmp/out"
has "$tmp/out" "^   matrix " "--help lists matrix"
"$ctl" __man lattester-ctl-matrix >"$tmp/man.1" 2>&1
has "$tmp/man.1" "^\.SH EXAMPLES" "the man page has EXAMPLES"
has "$tmp/man.1" "chase \\\\-\\\\-chain 16" "the man page says why chase --chain 16"

# ---- usage errors: exit 2, nothing measured ----

mx 2 "--bogus" --bogus
has "$tmp/err" "unknown option '--bogus'" "--bogus named"
mx 2 "a stray argument" extra
mx 2 "--stat p42" --stat p42
has "$tmp/err" "--stat: 'p42': expected one of min, p50" "--stat p42: the stats named"
mx 2 "--stat p99.999 with 100000 samples" --stat p99.999
has "$tmp/err" "--stat p99.999 needs 1000000 samples or more \(--samples 100000\)" \
	"--stat beyond --samples: the samples needed said"
mx 2 "--op bogus" --op bogus
has "$tmp/err" "--op: 'bogus'.*nt-load" "--op bogus: the ops listed"
mx 2 "--samples 0" --samples 0
mx 2 "--size 100" --size 100
mx 2 "--region 16MB" --region 16MB
mx 2 "--chain 4 --pattern rand" --chain 4 --pattern rand
has "$tmp/err" "--chain needs --pattern chase" "--chain without chase: run's words"
mx 2 "--hugepages with the kernel engine" --hugepages
mx 2 "--fence sfence with loads" --fence sfence --pattern rand
mx 2 "--warm with chase" --warm
mx 2 "--nodes 0,0" --nodes 0,0
has "$tmp/err" "--nodes: node 0 is listed twice" "--nodes 0,0 explained"
mx 2 "--cpus x" --cpus x
mx 2 "--cpus 0,0" --cpus 0,0
mx 2 "--json - --csv" --json - --csv
has "$tmp/err" "both want stdout" "--json - --csv explained"

# ---- errors before measuring: exit 1 ----

mx 1 "no module, no --engine" "${small[@]}"
has "$tmp/err" "module not loaded" "no module: said"
has "$tmp/err" "--engine user" "no module: --engine user named"
[ ! -s "$tmp/out" ]
report $? "no module: no table"
mx 1 "--cpus 4095 (not online)" --engine user --cpus 4095 "${small[@]}"
has "$tmp/err" "--cpus: CPU 4095 is not online \(online: " "an offline CPU named, the online ones listed"
mx 1 "--json in a folder that doesn't exist" --engine user --json "$tmp/no/such/m.json" "${small[@]}"
has "$tmp/err" "cannot write .*nothing was measured" "--json unwritable: said before measuring"

# ---- the user engine, for real ----

# the host as sysfs sees it: nodes with CPUs, nodes with memory
rows=""
cols=""
for d in /sys/devices/system/node/node[0-9]*; do
	[ -d "$d" ] || continue
	n=${d##*/node}
	[ -n "$(cat "$d/cpulist" 2>/dev/null)" ] && rows="$rows $n"
	if [ "$(awk '/MemTotal/ { print $4 }' "$d/meminfo")" -gt 0 ] 2>/dev/null; then
		cols="$cols $n"
	fi
done
if [ -z "$rows" ]; then	# no NUMA in the kernel: one node 0
	rows=" 0"
	cols=" 0"
fi
rows=$(tr ' ' '\n' <<<"$rows" | sed '/^$/d' | sort -n | tr '\n' ' ')
cols=$(tr ' ' '\n' <<<"$cols" | sed '/^$/d' | sort -n | tr '\n' ' ')
echo "# host: rows (nodes with CPUs): $rows; columns (nodes with memory): $cols"

mx 0 "--engine user" --engine user --samples 20000 --region 64M --json "$tmp/m.json"
cp "$tmp/out" "$tmp/table"
cp "$tmp/err" "$tmp/table.err"
has "$tmp/table" "^Measuring idle latencies \(in ns\): p50 per load; load, chase, 16 dependent loads per sample, 64 B, region 64 MiB, 20000 samples; engine user$" \
	"the table's first line says what was measured"
sed -n 2p "$tmp/table" | grep -qxP '\t\tNuma node'
report $? "line 2: MLC's 'Numa node' over the columns"
want=$(printf 'Numa node'; for c in $cols; do printf '\t%6s' "$c"; done)
[ "$(sed -n 3p "$tmp/table")" = "$want" ]
report $? "line 3: 'Numa node' and a column per node with memory ($cols)"
got=$(sed -n '4,$p' "$tmp/table" | grep -P '^ {0,7}[0-9]+\t' | awk '{ print $1 }' | tr '\n' ' ')
[ "$got" = "$rows" ]
report $? "a row per node with CPUs ($rows), got ($got)"
# each row's values: one per column, each a latency in ns a machine can have
sed -n '4,$p' "$tmp/table" | grep -P '^ {0,7}[0-9]+\t' >"$tmp/rows"
awk -F'\t' -v nc="$(wc -w <<<"$cols")" '
	NF != nc + 1 { bad = 1; print "row " $1 ": " NF - 1 " values" }
	{ for (i = 2; i <= NF; i++) if ($i !~ /^ *[0-9]+\.[0-9]$/ || $i + 0 < 1 || $i + 0 > 100000) { bad = 1; print "row " $1 ": value \"" $i "\"" } }
	END { exit bad }' "$tmp/rows" >"$tmp/why"
report $? "every cell: a value in ns, one decimal, 1 to 100000 ns"
sed 's/^/#   /' "$tmp/why"
want="rows: "
first=1
for r in $rows; do
	cpu=$(sed 's/[-,].*//' "/sys/devices/system/node/node$r/cpulist" 2>/dev/null || echo 0)
	[ $first = 1 ] || want="$want, "
	want="${want}node $r from CPU $cpu"
	first=0
done
has "$tmp/table" "^$want(;|$)" "each row from its node's first online CPU ($want)"
! grep -q -e '^failed' -e '^interrupted' "$tmp/table"
report $? "no failed or interrupted cell"

py "the JSON: lattester-matrix/1, well formed, agreeing with the table and the host" \
	"$tmp/m.json" "$tmp/table" "$rows" "$cols" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
table = open(sys.argv[2]).read().splitlines()
rows = [int(x) for x in sys.argv[3].split()]
cols = [int(x) for x in sys.argv[4].split()]
p = []
if d.get("schema") != "lattester-matrix/1":
    p.append("schema %r" % d.get("schema"))
prov = d["provenance"]
for k in ("tool", "tool_version", "abi_version", "command_line", "kernel",
          "hostname", "cpu_model", "tsc_khz", "engine", "start", "end"):
    if k not in prov:
        p.append("provenance.%s missing" % k)
if prov.get("engine") != "user" or not prov.get("tsc_khz"):
    p.append("provenance engine %r tsc_khz %r" % (prov.get("engine"), prov.get("tsc_khz")))
if "matrix" not in prov.get("command_line", []):
    p.append("command_line %r" % prov.get("command_line"))
c = d["config"]
want = {"engine": "user", "op": "load", "pattern": "chase", "chain": 16,
        "size": 64, "region": 64 << 20, "region_default": False,
        "samples": 20000, "stat": "p50", "unit": "ns", "per": "load"}
for k, v in want.items():
    if c.get(k) != v:
        p.append("config.%s %r, want %r" % (k, c.get(k), v))
if [r["node"] for r in d["rows"]] != rows:
    p.append("rows %r, want %r" % (d["rows"], rows))
if d["columns"] != cols:
    p.append("columns %r, want %r" % (d["columns"], cols))
nodes = {n["node"]: n for n in d["nodes"]}
for r in d["rows"]:
    n = nodes.get(r["node"])
    if not n or not n["row"] or n["cpu"] != r["cpu"]:
        p.append("nodes: row %r: %r" % (r, n))
for col in cols:
    if not nodes.get(col, {}).get("column") or not nodes[col]["memory_bytes"] > 0:
        p.append("nodes: column %d: %r" % (col, nodes.get(col)))
m = d["matrix"]
if len(m) != len(rows) or any(len(x) != len(cols) for x in m):
    p.append("matrix shape %r" % m)
if len(d["cells"]) != len(rows) * len(cols):
    p.append("%d cells" % len(d["cells"]))
if d["failed"] != 0 or d["interrupted"] is not False:
    p.append("failed %r interrupted %r" % (d["failed"], d["interrupted"]))
# the table's values are the JSON's, to one decimal
tv = [l.split("\t")[1:] for l in table[3:3 + len(rows)]]
for i, r in enumerate(d["rows"]):
    for j, col in enumerate(cols):
        cell = d["cells"][i * len(cols) + j]
        v = m[i][j]
        where = "cell %d->%d" % (r["node"], col)
        if (cell["node"], cell["cpu"], cell["mem_node"]) != (r["node"], r["cpu"], col):
            p.append("%s: names %r" % (where, (cell["node"], cell["cpu"], cell["mem_node"])))
        if cell["state"] != "measured" or cell["reason"] is not None:
            p.append("%s: state %r reason %r" % (where, cell["state"], cell["reason"]))
        if not isinstance(v, float) or cell["value"] != v:
            p.append("%s: value %r, matrix %r" % (where, cell["value"], v))
            continue
        # the table rounds the value to one decimal, the JSON to two: a
        # JSON x.x5 may be either neighbour (169.45 vs a table's 169.5)
        if abs(float(tv[i][j]) - v) > 0.05 + 1e-9:
            p.append("%s: table %r, JSON %r" % (where, tv[i][j], v))
        lat, res, cfg = cell["latency"], cell["result"], cell["config"]
        ns = lat["ns"]
        if lat["per"] != "load" or ns["p50"] != v:
            p.append("%s: latency per %r p50 %r, value %r" % (where, lat["per"], ns["p50"], v))
        if not ns["min"] <= ns["p50"] <= ns["p90"] <= ns["max"]:
            p.append("%s: percentiles out of order %r" % (where, ns))
        if not 1 < ns["p50"] < 100000:
            p.append("%s: p50 %r ns: not a memory latency" % (where, ns["p50"]))
        if res["state"] != "done" or res["samples"] != 20000:
            p.append("%s: result %r %r" % (where, res["state"], res["samples"]))
        if res["timer"]["name"] not in ("rdtscp", "rdtsc"):
            p.append("%s: timer %r" % (where, res["timer"]))
        if res["page_size"]["bytes"] not in (4096, 2 << 20, 1 << 30):
            p.append("%s: page size %r" % (where, res["page_size"]))
        if not isinstance(cell["warnings"], list):
            p.append("%s: warnings %r" % (where, cell["warnings"]))
        if (cfg["cpu"], cfg["node"], cfg["pattern"], cfg["chain"]) != (r["cpu"], col, "chase", 16):
            p.append("%s: config %r" % (where, cfg))
        if cell["target"]["spec"] != "dram:%d" % col:
            p.append("%s: target %r" % (where, cell["target"]))
print("\n".join(p))
EOF

mx 0 "--csv" --engine user --samples 20000 --region 64M --csv
cp "$tmp/out" "$tmp/csv"
has "$tmp/csv" '^node,cpu,mem_node,state,stat,value_ns,per,samples,ns_min,ns_p50,ns_p90,ns_p99,ns_p99\.9,ns_p99\.99,ns_p99\.999,ns_p99\.9999,ns_max,ns_mean,timer,page_size,reason$' \
	"--csv: the header"
py "--csv: a row per cell, row by row, its value its ns_p50, sane" "$tmp/csv" "$rows" "$cols" <<'EOF'
import csv, sys
rows = [int(x) for x in sys.argv[2].split()]
cols = [int(x) for x in sys.argv[3].split()]
r = list(csv.DictReader(open(sys.argv[1])))
p = []
want = [(a, b) for a in rows for b in cols]
if [(int(x["node"]), int(x["mem_node"])) for x in r] != want:
    p.append("cells %r, want %r" % ([(x["node"], x["mem_node"]) for x in r], want))
for x in r:
    if x["state"] != "measured" or x["stat"] != "p50" or x["per"] != "load" \
            or x["samples"] != "20000" or x["reason"] or x["timer"] not in ("rdtscp", "rdtsc"):
        p.append("row %r" % x)
    elif x["value_ns"] != x["ns_p50"] or not 1 < float(x["value_ns"]) < 100000:
        p.append("value %r, ns_p50 %r" % (x["value_ns"], x["ns_p50"]))
    elif x["ns_p99.999"] != "" or x["ns_p99.9"] == "":
        p.append("20000 samples: p99.9 %r (supported), p99.999 %r (not)" %
                 (x["ns_p99.9"], x["ns_p99.999"]))
print("\n".join(p))
EOF

mx 0 "--stat mean --pattern rand --json -" --engine user --samples 20000 --region 64M \
	--stat mean --pattern rand --json -
py "--json -: only the JSON on stdout; --stat mean: the value is the mean per access" "$tmp/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
p = []
c = d["config"]
if (c["stat"], c["pattern"], c["chain"], c["per"]) != ("mean", "rand", 1, "access"):
    p.append("config %r" % c)
for cell in d["cells"]:
    if cell["value"] != cell["latency"]["ns"]["mean"] or cell["latency"]["per"] != "access":
        p.append("value %r, mean %r" % (cell["value"], cell["latency"]["ns"]["mean"]))
print("\n".join(p))
EOF

first_row=$(awk '{ print $1 }' <<<"$rows")
last_cpu=$(sed 's/.*[-,]//' "/sys/devices/system/node/node$first_row/cpulist" 2>/dev/null ||
	   sed 's/.*[-,]//' /sys/devices/system/cpu/online)
mx 0 "--cpus $last_cpu (the last CPU of node $first_row)" --engine user --cpus "$last_cpu" \
	--nodes "$first_row" "${small[@]}" --json "$tmp/cpus.json"
has "$tmp/out" "^rows: node $first_row from CPU $last_cpu$" "--cpus: the row from that CPU"
py "--cpus: one row, the cell's run on that CPU" "$tmp/cpus.json" "$first_row" "$last_cpu" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
row, cpu = int(sys.argv[2]), int(sys.argv[3])
p = []
if d["rows"] != [{"node": row, "cpu": cpu}] or d["columns"] != [row]:
    p.append("rows %r columns %r" % (d["rows"], d["columns"]))
elif d["cells"][0]["config"]["cpu"] != cpu:
    p.append("cell config %r" % d["cells"][0]["config"])
print("\n".join(p))
EOF

# the default region: 1 GiB or 8x the LLC, clamped per cell as run clamps
mx 0 "the default region" --engine user --samples 2000 --nodes "$first_row" --json "$tmp/def.json"
py "the default region: at least 1 GiB asked, the cell's within it" "$tmp/def.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["config"]
cell = d["cells"][0]
p = []
if not c["region_default"] or c["region"] < 1 << 30 or c["region"] % (4 << 20):
    p.append("config region %r default %r" % (c["region"], c["region_default"]))
elif not 0 < cell["config"]["region"] <= c["region"]:
    p.append("cell region %r of %r" % (cell["config"]["region"], c["region"]))
print("\n".join(p))
EOF
# in the first line as the JSON has it: GiB where whole, else MiB (8 x a
# 260 MiB LLC is 2080 MiB)
want=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["config"]["region"]
print("%d GiB" % (r >> 30) if r % (1 << 30) == 0 else "%d MiB" % (r >> 20))' \
	"$tmp/def.json" 2>/dev/null)
[ -n "$want" ] && head -n1 "$tmp/out" | grep -q "region $want,"
report $? "the default region in the first line (region ${want:-?})"

# ---- failed cells ----

bad=$(( $(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | sed 's|.*/node||' |
	  sort -n | tail -1) + 5 ))
mx 1 "--nodes $first_row,$bad: node $bad doesn't exist" --engine user --nodes "$first_row,$bad" \
	"${small[@]}" --json "$tmp/fail.json"
cp "$tmp/out" "$tmp/fail"
has "$tmp/fail" "^Numa node	 +$first_row	 +$bad$" "failed: both columns in the table"
grep -P "^ {0,7}$first_row\t" "$tmp/fail" | grep -qP '^ *[0-9]+\t +[0-9]+\.[0-9]\t +-$'
report $? "failed: the cell of node $bad is '-', the other measured"
has "$tmp/fail" "^failed \(-\):$" "failed: the list below the table"
has "$tmp/fail" "^  node $first_row \(CPU [0-9]+\) -> node $bad: dram:$bad: no such NUMA node \(highest node: [0-9]+\)$" \
	"failed: the cell and run's reason listed"
has "$tmp/err" "dram:$bad: no such NUMA node" "failed: the reason on stderr too"
py "failed: the JSON's cell failed, null, with its reason" "$tmp/fail.json" "$bad" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
bad = int(sys.argv[2])
p = []
ok, fail = d["cells"]
if d["failed"] != 1 or d["matrix"][0][1] is not None or not isinstance(d["matrix"][0][0], float):
    p.append("failed %r matrix %r" % (d["failed"], d["matrix"]))
if fail["state"] != "failed" or fail["value"] is not None or \
        "dram:%d: no such NUMA node" % bad not in (fail["reason"] or "") or \
        fail["latency"] is not None or fail["result"] is not None:
    p.append("failed cell %r" % fail)
if ok["state"] != "measured" or ok["reason"] is not None:
    p.append("measured cell %r" % {k: ok[k] for k in ("state", "reason", "value")})
print("\n".join(p))
EOF
mx 1 "failed, --csv" --engine user --nodes "$first_row,$bad" "${small[@]}" --csv
has "$tmp/out" "^$first_row,[0-9]+,$bad,failed,p50,,load,,,,,,,,,,,,,,dram:$bad: no such NUMA node" \
	"failed, --csv: the row with its reason, no figures"

# an option the CPU (as the user engine is told to see it) can't run
LATTESTER_HWCAPS=-rdtscp "$ctl" matrix --engine user --timer rdtscp --nodes "$first_row" \
	"${small[@]}" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ]
report $? "--timer rdtscp with rdtscp hidden: every cell fails (exit $rc, want 1)"
grep -P "^ {0,7}$first_row\t" "$tmp/out" | grep -qP '^ *[0-9]+\t +-$'
report $? "--timer rdtscp with rdtscp hidden: '-'"
has "$tmp/out" "^  node $first_row \(CPU [0-9]+\) -> node $first_row: --timer rdtscp: this CPU lacks rdtscp" \
	"--timer rdtscp with rdtscp hidden: run's reason below the table"

# ---- Ctrl-C ----

# once: the cell goes on to its end and is printed; the next is not measured
interrupt 0.7 "$ctl" matrix --engine user --samples 2M --region 64M \
	--nodes "$first_row,$bad" --json "$tmp/int.json"
[ $rc -eq 130 ]
report $? "Ctrl-C once: exit $rc, want 130"
grep -P "^ {0,7}$first_row\t" "$tmp/out" | grep -qP '^ *[0-9]+\t +[0-9]+\.[0-9]\t +\.$'
report $? "Ctrl-C once: the current cell measured to its end, the next '.'"
has "$tmp/out" "^interrupted: 1 cell not measured \(\.\)$" "Ctrl-C once: said below the table"
has "$tmp/err" "stopping after this cell" "Ctrl-C once: told on stderr"
py "Ctrl-C once: the JSON has the cell, the next not measured" "$tmp/int.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
a, b = d["cells"]
p = []
if not d["interrupted"] or d["failed"] != 0:
    p.append("interrupted %r failed %r" % (d["interrupted"], d["failed"]))
if a["state"] != "measured" or a["result"]["samples"] != 2000000:
    p.append("cell 1 %r" % a["state"])
if b["state"] != "not_measured" or b["value"] is not None:
    p.append("cell 2 %r" % b["state"])
print("\n".join(p))
EOF

if [ -f "$fake" ]; then
	# twice: the cell that hangs is aborted
	LATTESTER_DEV=/dev/null FAKE_HANG=1 LD_PRELOAD=$fake "$ctl" matrix "${small[@]}" \
		--nodes "$first_row,$bad" --json "$tmp/abort.json" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	sleep 0.5
	kill -INT $pid
	sleep 0.3
	kill -INT $pid
	wait $pid
	rc=$?
	[ $rc -eq 130 ]
	report $? "fake module, Ctrl-C twice: exit $rc, want 130"
	has "$tmp/out" "^interrupted: 2 cells not measured \(\.\)$" "Ctrl-C twice: the cell aborted, not printed"
	py "Ctrl-C twice: the JSON's cells interrupted and not measured" "$tmp/abort.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
s = [c["state"] for c in d["cells"]]
print("" if s == ["interrupted", "not_measured"] and d["interrupted"] else "states %r" % s)
EOF

	# ---- the kernel engine, through the module's stand-in ----
	LATTESTER_DEV=/dev/null LD_PRELOAD=$fake "$ctl" matrix --pattern rand "${small[@]}" \
		--nodes "$first_row" --json "$tmp/fake.json" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ]
	report $? "fake module, --pattern rand: exit $rc, want 0"
	grep -qP "^ {0,7}$first_row\t  90\.0$" "$tmp/out"
	report $? "fake module: p50 90.0 ns per access (180 cycles at 2 GHz)"
	py "fake module: the JSON of the kernel engine" "$tmp/fake.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cells"][0]
p = []
if d["provenance"]["engine"] != "kernel" or d["provenance"]["tsc_khz"] != 2000000:
    p.append("provenance %r" % d["provenance"])
if c["value"] != 90.0 or c["latency"]["ns"]["mean"] != 100.5 or c["latency"]["ns"]["max"] != 2490.0:
    p.append("value %r mean %r max %r" % (c["value"], c["latency"]["ns"]["mean"],
                                          c["latency"]["ns"]["max"]))
if c["result"]["page_size"]["source"] not in ("the kernel's direct map", "unknown"):
    p.append("page size %r" % c["result"]["page_size"])
print("\n".join(p))
EOF
	LATTESTER_DEV=/dev/null LD_PRELOAD=$fake "$ctl" matrix "${small[@]}" --nodes "$first_row" \
		--stat p50 --csv >"$tmp/out" 2>"$tmp/err"
	grep -q "^$first_row,[0-9]*,$first_row,measured,p50,5\.625,load,2000," "$tmp/out"
	report $? "fake module, chase --chain 16: 5.625 ns per load (180 cycles / 16)"
	LATTESTER_DEV=/dev/null FAKE_START_ERR=16 LD_PRELOAD=$fake "$ctl" matrix "${small[@]}" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ]
	report $? "fake module, START refused (EBUSY): exit $rc, want 1"
	has "$tmp/out" "-> node $first_row: dram:$first_row: start failed: Device or resource busy" \
		"START refused: the module's error as the reason"
	! grep -P '\t +[0-9]+\.[0-9]' "$tmp/out" >/dev/null
	report $? "START refused: no cell has a value"
else
	skip "user/test-cli-fake.so not built (make -C user test-cli-fake.so): the kernel engine path and Ctrl-C twice not checked"
fi

finish
