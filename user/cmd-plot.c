// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-plot.c - lattester-ctl plot KIND: draw one of lattester's data files
 * with gnuplot into a PNG or an SVG.
 *
 *   hist      the histogram of a run (run --hist FILE)
 *   tail      latency against percentile, p50 ... p99.9999 (run --hist)
 *   outliers  outliers against time, by cause (run --outliers X.csv)
 *   sweep     percentiles against size, stride or hotspot (sweep --out X.csv)
 *   bars      the basic latency table as grouped bars (sweep --out X.csv)
 *   bw-threads  bandwidth against threads (sweep --mode bandwidth --out X.csv)
 *   bw-size   bandwidth against access size (the same)
 *   loaded    latency against bandwidth (sweep --mode loaded --delay LIST)
 *   curves    latency-bandwidth curves, a curve per read/write ratio, the
 *             idle latency and each curve's knee marked (sweep --curves)
 *   working-set  per-load latency against region size, with the host's
 *             caches marked (sweep --pattern chase --region LIST)
 *   matrix    the NUMA latency matrix as a heat map, a figure in each cell
 *             (matrix --json FILE, or its --csv)
 *
 * No point is hidden: a 0 on a log axis is drawn on a floor line with a
 * marker of its own and a note; rows that no dimension tells apart (two
 * fences that resolve to one, another --samples) become series of their
 * own, named by what their keys say.
 * The scripts are plots/KIND.gp, built into the binary (plots.S);
 * $LATTESTER_PLOTS=DIR takes DIR/KIND.gp instead.  The tool reads what the
 * title needs (target, cpu, ...) from the data file's header comments or,
 * for a sweep, from its columns, and passes it as gnuplot variables; a
 * sweep CSV is first turned into the blocks or table the script reads, a
 * matrix (its --json through json-c, or its --csv) into a line per cell.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <lattester/cause.h>

#include "builtin.h"
#include "csv.h"
#include "curve.h"
#include "duty.h"
#include "grid.h"
#include "json-out.h"
#include "log.h"
#include "outfile.h"
#include "parse.h"
#include "report.h"
#include "stats.h"
#include "sweep-file.h"

#define PLOT_HELP	(-1)
#define DEFAULT_W	1000
#define DEFAULT_H	600
#define MAX_SERIES	64
#define MAX_CACHES	8
#define SYSFS_ENV	"LATTESTER_SYSFS"
#define GNUPLOT_ENV	"LATTESTER_GNUPLOT"
#define PLOTS_ENV	"LATTESTER_PLOTS"

extern const char plot_gp_hist[], plot_gp_tail[], plot_gp_outliers[],
	plot_gp_sweep[], plot_gp_bars[], plot_gp_bw[], plot_gp_loaded[],
	plot_gp_working_set[], plot_gp_matrix[], plot_gp_curves[];

enum plot_input {
	IN_HIST,
	IN_OUTLIERS,
	IN_SWEEP,
	IN_MATRIX,
};

struct plot;
struct sweep_csv;
typedef int prepare_fn(struct plot *p, const struct sweep_csv *c, bool *use);
static prepare_fn prepare_sweep, prepare_bars, prepare_bw, prepare_loaded,
	prepare_ws, prepare_curves;

/*
 * @gp: the script's name in plots/, if not @name; @script: its built-in
 * copy.  A sweep CSV's kinds draw the rows of @mode ("!bandwidth": of any
 * other mode), which @prepare turns into the data the script reads, with
 * the points of a line along dimension @along (NULL: sweep's --x).
 * @stats: the default --stat.
 */
static const struct plot_kind {
	const char *name;
	const char *gp;
	const char *script;
	enum plot_input input;
	const char *what;
	const char *mode;
	prepare_fn *prepare;
	const char *along;
	const char *stats;
} kinds[] = {
	{ .name = "hist", .script = plot_gp_hist, .input = IN_HIST,
	  .what = "a run --hist file" },
	{ .name = "tail", .script = plot_gp_tail, .input = IN_HIST,
	  .what = "a run --hist file" },
	{ .name = "outliers", .script = plot_gp_outliers, .input = IN_OUTLIERS,
	  .what = "a run --outliers .csv file" },
	{ .name = "sweep", .script = plot_gp_sweep, .input = IN_SWEEP,
	  .what = "a sweep .csv file", .mode = "!bandwidth",
	  .prepare = prepare_sweep, .stats = "p50 p99" },
	{ .name = "bars", .script = plot_gp_bars, .input = IN_SWEEP,
	  .what = "a sweep .csv file", .mode = "!bandwidth",
	  .prepare = prepare_bars },
	{ .name = "bw-threads", .gp = "bw", .script = plot_gp_bw,
	  .input = IN_SWEEP, .what = "a sweep .csv file of --mode bandwidth",
	  .mode = "bandwidth", .prepare = prepare_bw, .along = "threads" },
	{ .name = "bw-size", .gp = "bw", .script = plot_gp_bw,
	  .input = IN_SWEEP, .what = "a sweep .csv file of --mode bandwidth",
	  .mode = "bandwidth", .prepare = prepare_bw, .along = "size" },
	{ .name = "loaded", .script = plot_gp_loaded, .input = IN_SWEEP,
	  .what = "a sweep .csv file of --mode loaded", .mode = "loaded",
	  .prepare = prepare_loaded, .along = "delay" },
	{ .name = "curves", .script = plot_gp_curves, .input = IN_SWEEP,
	  .what = "a sweep .csv file of --curves (or --mode loaded)",
	  .mode = "loaded", .prepare = prepare_curves, .along = "delay",
	  .stats = "p50 p99" },
	{ .name = "working-set", .script = plot_gp_working_set,
	  .input = IN_SWEEP, .what = "a sweep .csv file with a --region list",
	  .mode = "!bandwidth", .prepare = prepare_ws, .along = "region",
	  .stats = "p50 p99" },
	{ .name = "matrix", .script = plot_gp_matrix, .input = IN_MATRIX,
	  .what = "a matrix --json or --csv file" },
};

#define NR_KINDS	(sizeof(kinds) / sizeof(kinds[0]))

enum plot_opt_id {
	OPT_IN = 256,
	OPT_OUT,
	OPT_X,
	OPT_STAT,
	OPT_GBPS,
	OPT_GROUP,
	OPT_CANVAS,
	OPT_TITLE,
	OPT_CACHES,
	OPT_REF,
	OPT_NOTE,
};

static const struct cmd_opt plot_options[] = {
	OPT_ROW("in", OPT_IN, "FILE",
	  "the data: a run --hist file (hist, tail), a run --outliers .csv file (outliers), a sweep .csv file (sweep, bars, bw-threads, bw-size, loaded, curves, working-set: give --in again to draw the rows of several; a point's repeats, sweep --repeat or the same key in several files, are drawn as their median, with error bars from the least to the largest in sweep, bars and curves; without repeats, the file's 95% intervals are the error bars), a matrix --json or --csv file (matrix)"),
	OPT_ROW("out", OPT_OUT, "FILE.png|FILE.svg",
	  "the picture (default: in the current folder, the input's name without its folder and extension, -KIND.png)"),
	OPT_ROW("x", OPT_X, "size|stride|hotspot|region",
	  "sweep: the x axis (default: the one that varies most)"),
	OPT_ROW("stat", OPT_STAT, "LIST",
	  "sweep, working-set, curves: the percentiles drawn (default: p50,p99); loaded: the same (default: p50); bars: the one shown (default: p50); matrix: the one shown (default: the file's); of min, p50, p90, p99, p99.9, p99.99, p99.999, p99.9999, max, mean"),
	OPT_ROW("gbps", OPT_GBPS, "LIST",
	  "bw-threads, bw-size: the bandwidths drawn, of total, read, write (default: total)"),
	OPT_ROW("group", OPT_GROUP, "COLUMN",
	  "bars: what makes a group of bars: op, pattern, size, fence, target, cpu (default: op)"),
	OPT_ROW("canvas", OPT_CANVAS, "WxH",
	  "picture size in pixels (default: 1000x600)"),
	OPT_ROW("title", OPT_TITLE, "TEXT",
	  "the second title line (default: from the data: target, cpu, ...)"),
	OPT_ROW("ref", OPT_REF, "NS=LABEL",
	  "sweep, bars: a dashed reference line at a latency, e.g. --ref '305=Optane random load, published'; NS takes ns, us or ms (default ns); give it again for more, up to 8"),
	OPT_ROW("note", OPT_NOTE, "TEXT",
	  "a line of your own under the plot, e.g. where the figures come from ('emulated: QEMU TCG')"),
	OPT_ROW("caches", OPT_CACHES, "LIST",
	  "working-set: the cache lines drawn, e.g. L1d=48K,L2=2M,L3=32M, or none (default: the measured CPU's caches from sysfs)"),
	OPT_END
};

static const char *const plot_examples[] = {
	"lattester-ctl plot tail --in run.hist",
	"latency against percentile, into run-tail.png",
	"lattester-ctl plot sweep --in ops.csv --out ops.svg --stat p50,p99.9",
	"two percentiles against size, as SVG",
	"lattester-ctl plot bars --in ops.csv --group pattern",
	"one group of bars per pattern, of the median",
	"lattester-ctl plot bw-threads --in bw.csv --gbps read,write",
	"read and write bandwidth against the number of threads",
	"lattester-ctl plot loaded --in loaded.csv --stat p50,p99",
	"loaded latency: two percentiles against the traffic's bandwidth",
	"lattester-ctl plot curves --in curves.csv --out curves.svg",
	"a sweep --curves family: p50 and p99 against bandwidth, a curve per read/write ratio, the idle p50 and each curve's knee",
	"lattester-ctl plot working-set --in ws.csv --stat p50,p99.9",
	"per-load latency against region size, the caches marked",
	"lattester-ctl plot matrix --in matrix.json --out matrix.png",
	"the NUMA latency matrix as a heat map, its figure in each cell",
	NULL
};

/* --in: a sweep plot draws the rows of several files; --ref: lines */
static bool plot_repeatable(int id)
{
	return id == OPT_IN || id == OPT_REF;
}

const struct cmd_usage plot_usage = {
	.cmd = "plot",
	.synopsis = "KIND --in FILE [--out FILE.png|FILE.svg] [OPTIONS]",
	.about = "Draw a data file of lattester-ctl with gnuplot (gnuplot-nox is enough).  KIND is\n"
		 "one of hist, the histogram; tail, latency against percentile; outliers, outliers\n"
		 "against time; sweep, percentiles against size, stride or hotspot; bars, grouped\n"
		 "bars of a sweep; bw-threads and bw-size, bandwidth against threads and against\n"
		 "access size; loaded, loaded latency against bandwidth; curves, latency-bandwidth\n"
		 "curves of sweep --curves, a curve per read/write ratio with the idle latency and\n"
		 "each curve's knee; working-set, per-load latency against region size with the\n"
		 "caches marked; matrix, the NUMA latency matrix as a heat map.\n"
		 "Prints the picture's name.  Exit status: 0 drawn, 1 error (no gnuplot, bad data),\n2 usage.",
	.opts = plot_options,
	.repeatable = plot_repeatable,
	.description =
		"The gnuplot scripts are built into lattester-ctl; plot needs neither the module nor root.  hist and tail read a run --hist file, outliers a run --outliers CSV file, sweep and bars a sweep --out CSV file, bw-threads and bw-size its --mode bandwidth rows (sweep and bars leave those out), loaded and curves its --mode loaded rows.  For sweep, every column other than the x axis that varies over the rows (target, cpu, op, pattern, threads, ...) makes a series; bars groups the rows by --group; bw-threads, bw-size and loaded split their lines as sweep does, and loaded joins a line's points in order of --delay.  curves draws the family sweep --curves measures: the probe's latency (--stat, default p50 and p99) against the traffic's total GB/s, a colour per read/write ratio (100% reads, 75% reads, ...: mix_read and mix_write), a dash pattern per percentile, the points in order of delay; the idle p50 (idle_ns_p50) as a dotted line; and each curve's knee, the last point from the least traffic on whose p50 is within 2x the idle p50 (or the curve's least p50, where the file has no idle latency), every later point above it: a curve that never leaves 2x has no knee, and a note says so.  working-set draws the rows of a --region list against region size on a log2 axis, the host's L1d, L2 and L3 as labelled vertical lines (--caches).  matrix draws a matrix --json (or --csv) file as a heat map: a row per CPU node, a column per memory node (CPU-less ones marked), each cell coloured by its figure and labelled with it; a failed cell is grey and says '-', never 0, and a note under the plot says why it failed.\n\n"
		"No point is hidden: a 0 on a log axis is drawn on a floor line marked 0, with a marker of its own and a note; a 0 bar gets a marker and its value; rows that no column tells apart (two fences that resolve to one, another --samples) are series of their own, named from their keys.  Log axes of latency are labelled in ns, us, ms and s, with enough marks to read a range of one decade.  Chase rows are per load, the mean of the chain's K dependent loads, and their tails are of such means: the axis and a note say so.  A sweep with --threshold draws its outlier rate on a second axis; outliers colours each outlier by its cause (files from before causes: NMI-flagged outliers apart, the kernel engine's only).\n\n"
		"Environment: LATTESTER_GNUPLOT, the gnuplot to run (default: gnuplot on PATH); LATTESTER_PLOTS, a directory whose KIND.gp (bw.gp for bw-threads and bw-size) replace the built-in scripts; LATTESTER_PLOT_KEEP, keep the temporary files after an error; LATTESTER_SYSFS, where working-set reads devices/system/cpu (default: /sys).",
	.examples = plot_examples,
	.see_also = "gnuplot(1)",
	.words = "hist|tail|outliers|sweep|bars|bw-threads|bw-size|loaded|curves|working-set|matrix",
};

#define PLOT_MAX_IN	16	/* --in files of a sweep plot */
#define PLOT_MAX_REF	8	/* --ref lines */

struct plot {
	const struct plot_kind *kind;
	const char *in;		/* the input, or the first and how many
				 * more, for messages */
	const char *ins[PLOT_MAX_IN];
	int nin;
	char in_buf[PATH_MAX + 32];
	const char *out;
	char out_buf[PATH_MAX];
	const char *x;		/* NULL: automatic */
	char stats[128];	/* "p50 p99" */
	const char *stat_arg;	/* --stat as given, or NULL */
	char gbps[32];		/* "total read" */
	const char *group;
	unsigned int w, h;
	const char *title;
	const char *note;	/* --note */
	const char *caches;	/* --caches, or NULL: sysfs */
	bool svg;
	FILE *vars;		/* gnuplot variable assignments */
	char *vars_buf;
	size_t vars_len;
	char data[PATH_MAX];	/* a temporary data file, or "" */
	struct cache_line {
		char name[16];
		__u64 bytes;
	} cache[MAX_CACHES];
	size_t ncache;
	char cache_src[64];	/* "--caches", "sysfs, cpu 0" */
	double ref[PLOT_MAX_REF];	/* --ref: ns, and the label */
	const char *ref_label[PLOT_MAX_REF];
	int nref;
	char ref_text[PLOT_MAX_REF][160];	/* labels made here */
};

/* ---- options ---- */

static int parse_caches(struct plot *p, const char *v);
static void var_str(struct plot *p, const char *name, const char *v);
static void var_num(struct plot *p, const char *name, double v);

/* --ref NS=LABEL: 305=..., 1.5us=..., 2ms=... */
static int parse_ref(struct plot *p, const char *v)
{
	const char *eq = strchr(v, '=');
	char num[32], *end;
	double x, scale = 1;
	size_t n;

	if (!eq || eq == v || !eq[1] || (n = (size_t)(eq - v)) >= sizeof(num))
		return -EINVAL;
	memcpy(num, v, n);
	num[n] = '\0';
	x = strtod(num, &end);
	if (!strcmp(end, "us"))
		scale = 1e3;
	else if (!strcmp(end, "ms"))
		scale = 1e6;
	else if (*end && strcmp(end, "ns"))
		return -EINVAL;
	/* the label goes into a gnuplot string between double quotes */
	if (end == num || !(x > 0) || x * scale > 1e12 ||
	    strpbrk(eq + 1, "\"\\"))
		return -EINVAL;
	p->ref[p->nref] = x * scale;
	p->ref_label[p->nref++] = eq + 1;
	return 0;
}

/* the --ref lines, for the scripts: nrefs, ref_K and ref_K_label */
static void ref_vars(struct plot *p)
{
	char name[32];
	int k;

	fprintf(p->vars, "nrefs = %d\n", p->nref);
	for (k = 0; k < p->nref; k++) {
		snprintf(name, sizeof(name), "ref_%d", k + 1);
		var_num(p, name, p->ref[k]);
		snprintf(name, sizeof(name), "ref_%d_label", k + 1);
		var_str(p, name, p->ref_label[k]);
	}
}

static int set_canvas(struct plot *p, const char *v)
{
	char buf[32], *x;
	__u32 w, h;

	if (strlen(v) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", v);
	x = strchr(buf, 'x');
	if (!x)
		return -EINVAL;
	*x = '\0';
	if (parse_u32(buf, &w) || parse_u32(x + 1, &h))
		return -EINVAL;
	if (w < 200 || h < 150 || w > 10000 || h > 10000)
		return -ERANGE;
	p->w = w;
	p->h = h;
	return 0;
}

static bool is_stat(const char *s)
{
	int i;

	for (i = 0; i < NR_STATS; i++)
		if (!strcmp(latt_stats[i].name, s))
			return true;
	return false;
}

/* The bandwidths of --gbps, and their columns */
static const struct {
	const char *name;
	enum sweep_col col;
} gbps[] = {
	{ "total",	SWEEP_COL_TOTAL_GBPS },
	{ "read",	SWEEP_COL_READ_GBPS },
	{ "write",	SWEEP_COL_WRITE_GBPS },
};
#define NR_GBPS	(sizeof(gbps) / sizeof(gbps[0]))

static bool is_gbps(const char *s)
{
	size_t i;

	for (i = 0; i < NR_GBPS; i++)
		if (!strcmp(gbps[i].name, s))
			return true;
	return false;
}

/* "a,b" into @buf as "a b", if @ok with every item */
static int set_list(char *buf, size_t len, const char *v,
		    bool (*ok)(const char *))
{
	char tmp[128], *tok, *save = NULL;
	size_t n = 0;

	if (strlen(v) >= sizeof(tmp) || strlen(v) >= len)
		return -EINVAL;
	snprintf(tmp, sizeof(tmp), "%s", v);
	buf[0] = '\0';
	for (tok = strtok_r(tmp, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!ok(tok))
			return -EINVAL;
		n += snprintf(buf + n, len - n, "%s%s", n ? " " : "", tok);
	}
	return buf[0] ? 0 : -EINVAL;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/* "hist, tail, ...": the kinds, for messages */
static const char *kind_names(void)
{
	static char buf[128];
	size_t i, n = 0;

	for (i = 0; i < NR_KINDS && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? ", " : "",
			      kinds[i].name);
	return buf;
}

static int plot_parse(int argc, char **argv, struct plot *p)
{
	const char *dot, *slash, *base;
	size_t i;
	int id;

	memset(p, 0, sizeof(*p));
	p->w = DEFAULT_W;
	p->h = DEFAULT_H;
	p->group = "op";
	if (argc >= 2 && argv[1][0] != '-') {
		for (i = 0; i < NR_KINDS; i++)
			if (!strcmp(kinds[i].name, argv[1]))
				p->kind = &kinds[i];
		if (!p->kind)
			return cmd_usage_error(&plot_usage, "'%s' is not a kind of plot (%s)", argv[1],
					       kind_names());
		argc--;
		argv++;
	}
	optind = 0;
	while ((id = cmd_getopt(argc, argv, &plot_usage)) != -1) {
		switch (id) {
		case OPT_BAD:
			return EXIT_USAGE;
		case OPT_HELP:
			cmd_print_usage(stdout, &plot_usage);
			return PLOT_HELP;
		case OPT_IN:
			if (p->nin == PLOT_MAX_IN)
				return cmd_usage_error(&plot_usage, "--in: %d files at most", PLOT_MAX_IN);
			p->ins[p->nin++] = optarg;
			p->in = p->ins[0];
			break;
		case OPT_OUT:
			p->out = optarg;
			break;
		case OPT_X:
			if (strcmp(optarg, "size") && strcmp(optarg, "stride") &&
			    strcmp(optarg, "hotspot") && strcmp(optarg, "region"))
				return cmd_usage_error(&plot_usage, "--x: '%s': expected size, stride, hotspot or region",
						       optarg);
			p->x = optarg;
			break;
		case OPT_STAT:
			if (set_list(p->stats, sizeof(p->stats), optarg,
				     is_stat))
				return cmd_usage_error(&plot_usage, "--stat: '%s': expected a list of min, p50, p90, p99, p99.9, p99.99, p99.999, p99.9999, max, mean",
						       optarg);
			p->stat_arg = optarg;
			break;
		case OPT_GBPS:
			if (set_list(p->gbps, sizeof(p->gbps), optarg, is_gbps))
				return cmd_usage_error(&plot_usage, "--gbps: '%s': expected a list of total, read, write",
						       optarg);
			break;
		case OPT_GROUP:
			p->group = optarg;
			break;
		case OPT_CANVAS:
			if (set_canvas(p, optarg))
				return cmd_usage_error(&plot_usage, "--canvas: '%s': expected WxH, 200x150 to 10000x10000",
						       optarg);
			break;
		case OPT_TITLE:
			p->title = optarg;
			break;
		case OPT_NOTE:
			p->note = optarg;
			break;
		case OPT_CACHES:
			p->caches = optarg;
			break;
		case OPT_REF:
			if (p->nref == PLOT_MAX_REF)
				return cmd_usage_error(&plot_usage, "--ref: %d lines at most", PLOT_MAX_REF);
			if (parse_ref(p, optarg))
				return cmd_usage_error(&plot_usage, "--ref: '%s': expected NS=LABEL, NS a latency above 0 in ns, or with us or ms (305=Optane random load, 1.5us=...), LABEL without \" or \\", optarg);
			break;
		}
	}
	if (!p->kind)
		return cmd_usage_error(&plot_usage, "which plot? %s",
				       kind_names());
	if (!p->in)
		return cmd_usage_error(&plot_usage, "--in FILE is needed (%s)",
				       p->kind->what);
	if (!p->out) {
		/* in the current folder, as gnuplot writes (the input's
		 * may be another's, or read-only): its name, -KIND.png */
		slash = strrchr(p->in, '/');
		base = slash ? slash + 1 : p->in;
		dot = strrchr(base, '.');
		i = dot && dot > base ? (size_t)(dot - base) : strlen(base);
		snprintf(p->out_buf, sizeof(p->out_buf), "%.*s-%s.png", (int)i,
			 base, p->kind->name);
		p->out = p->out_buf;
	}
	if (p->nin > 1 && p->kind->input != IN_SWEEP)
		return cmd_usage_error(&plot_usage, "--in given %d times: plot %s draws one file (%s); several --in are for plots of sweep CSV files", p->nin, p->kind->name, p->kind->what);
	if (p->nin > 1) {
		snprintf(p->in_buf, sizeof(p->in_buf), "%s (and %d more --in)",
			 p->ins[0], p->nin - 1);
		p->in = p->in_buf;
	}
	if (ends_with(p->out, ".svg"))
		p->svg = true;
	else if (!ends_with(p->out, ".png"))
		return cmd_usage_error(&plot_usage, "--out: '%s': the name must end in .png or .svg", p->out);
	if (!p->stats[0])
		snprintf(p->stats, sizeof(p->stats), "%s",
			 p->kind->stats ? p->kind->stats : "p50");
	if (p->kind->input == IN_MATRIX && strchr(p->stats, ' '))
		return cmd_usage_error(&plot_usage, "--stat: '%s': matrix draws one figure", p->stat_arg);
	if (!p->gbps[0])
		snprintf(p->gbps, sizeof(p->gbps), "total");
	if (p->nref && p->kind->prepare != prepare_sweep &&
	    p->kind->prepare != prepare_bars)
		return cmd_usage_error(&plot_usage, "--ref: reference lines are drawn on sweep and bars plots, not %s", p->kind->name);
	if (p->caches && parse_caches(p, p->caches))
		return cmd_usage_error(&plot_usage, "--caches: '%s': expected NAME=SIZE,... (L1d=48K,L2=2M) or none",
				       p->caches);
	return 0;
}

/* ---- gnuplot variables ---- */

/* name = 'value' (single quotes: only a quote needs escaping, doubled) */
static void var_str(struct plot *p, const char *name, const char *v)
{
	fprintf(p->vars, "%s = '", name);
	for (; *v; v++) {
		if (*v == '\'')
			fputc('\'', p->vars);
		fputc(*v == '\n' ? ' ' : *v, p->vars);
	}
	fputs("'\n", p->vars);
}

static void var_num(struct plot *p, const char *name, double v)
{
	fprintf(p->vars, "%s = %.17g\n", name, v);
}

/* ---- hist, tail, outliers: a file with '#' header comments ---- */

static char *trim(char *s)
{
	size_t n;

	s += strspn(s, " \t");
	n = strcspn(s, "\r\n");
	s[n] = '\0';
	return s;
}

static int read_commented(struct plot *p)
{
	const char *marker = p->kind->input == IN_HIST ?
			     "# lattester-ctl run histogram: " :
			     "# lattester-ctl run outliers: ";
	FILE *f = fopen(p->in, "re");
	char *line = NULL, *t;
	size_t cap = 0, rows = 0;
	bool known = false, header_row = p->kind->input == IN_OUTLIERS;
	bool nmi_known = true, seen[LATT_CAUSE_KINDS] = { false };
	int cause_col = -1, nf, c, n;
	char *fields[16];
	unsigned int chain;
	char name[16];
	double thr;

	if (!f) {
		log_err("%s: %s", p->in, strerror(errno));
		return 1;
	}
	while (getline(&line, &cap, f) > 0) {
		if (!strncmp(line, marker, strlen(marker))) {
			known = true;
			if (!p->title)
				var_str(p, "subtitle", trim(line + strlen(marker)));
			continue;
		}
		t = strstr(line, " threshold_ns ");
		if (line[0] == '#' && t && sscanf(t, " threshold_ns %lf", &thr) == 1)
			var_num(p, "threshold_ns", thr);
		/* a histogram of chase samples: per load, K loads a sample */
		t = strstr(line, " chain ");
		if (line[0] == '#' && t && sscanf(t, " chain %u", &chain) == 1)
			var_num(p, "chain", chain);
		/*
		 * The user engine keeps no interrupt out and sees no NMI: its
		 * outlier files say "nmi unavailable (user engine)" (or
		 * "# engine user"); the kernel's, and older files, "nmi N".
		 */
		if (line[0] == '#' && (strstr(line, " nmi unavailable") ||
				       !strncmp(line, "# engine user", 13)))
			nmi_known = false;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (header_row) {	/* a file of issue 26 has causes */
			header_row = false;
			nf = csv_split(line, fields, 16);
			cause_col = nf > 0 ? csv_column(fields, nf, "cause") : -1;
			continue;
		}
		rows++;
		if (cause_col < 0)
			continue;
		nf = csv_split(line, fields, 16);
		for (c = 0; nf > cause_col && c < LATT_CAUSE_KINDS; c++)
			if (!strcmp(fields[cause_col], latt_cause_name(c)))
				seen[c] = true;
	}
	free(line);
	fclose(f);
	if (p->kind->input == IN_OUTLIERS)
		var_num(p, "nmi_known", nmi_known);
	/* the causes present, in their order: one series each */
	for (c = 0, n = 0; cause_col >= 0 && c < LATT_CAUSE_KINDS; c++) {
		if (!seen[c])
			continue;
		snprintf(name, sizeof(name), "cause%d", ++n);
		var_str(p, name, latt_cause_name(c));
	}
	if (cause_col >= 0) {
		var_num(p, "ncauses", n);
		var_num(p, "cause_col", cause_col + 1);
	}
	if (!known) {
		log_err("%s: not %s (no '%.*s' line)", p->in, p->kind->what,
			(int)strlen(marker) - 2, marker);
		return 1;
	}
	if (!rows) {
		log_err("%s: nothing to plot (no %s)", p->in,
			p->kind->input == IN_HIST ? "histogram rows" :
			"outlier records");
		return 1;
	}
	return 0;
}

/* ---- sweep, bars, ...: a sweep CSV ---- */

/*
 * The columns that tell points apart: each dimension's name (its field in
 * the key, its --x or --group) and its column, @col (NO_COL: the key's
 * alone).  The subtitle names those every point shares, but not the
 * DIM_QUIET ones, nor the DIM_DEFAULT_QUIET ones where they have their
 * @quiet value.  The DIM_NEW ones came later: a file from before lacks
 * them and reads as @missing in every row, or, DIM_KEY, as what its key
 * says (engine=user, hugepages=1; key_value(): a key without it, as its
 * default).  DIM_MODE: the columns --mode brought.  The mix is two
 * columns, mix_read and mix_write: its value is "R:W" (fill_dims()).
 */
#define DIM_QUIET		0x1
#define DIM_DEFAULT_QUIET	0x2
#define DIM_NEW			0x4
#define DIM_KEY			0x8
#define DIM_MODE		0x10
#define NO_COL			(-1)

static const struct dim {
	const char *name;
	int col;
	unsigned int flags;
	const char *missing;
	const char *quiet;
} dims[] = {
	{ "target",    SWEEP_COL_TARGET,   0, NULL, NULL },
	{ "cpu",       SWEEP_COL_CPU,      0, NULL, NULL },
	{ "op",        SWEEP_COL_OP,       0, NULL, NULL },
	{ "fence",     SWEEP_COL_FENCE,    0, NULL, NULL },
	{ "pattern",   SWEEP_COL_PATTERN,  0, NULL, NULL },
	{ "size",      SWEEP_COL_SIZE,     0, NULL, NULL },
	{ "stride",    SWEEP_COL_STRIDE,   DIM_DEFAULT_QUIET, NULL, "0" },
	{ "hotspot",   SWEEP_COL_HOTSPOT,  DIM_DEFAULT_QUIET, NULL, "0" },
	{ "region",    SWEEP_COL_REGION,   DIM_QUIET, NULL, NULL },
	{ "chain",     SWEEP_COL_CHAIN,    DIM_QUIET, NULL, NULL },
	{ "warm",      SWEEP_COL_WARM,     DIM_QUIET, NULL, NULL },
	{ "width",     SWEEP_COL_WIDTH,    DIM_QUIET, NULL, NULL },
	{ "mode",      SWEEP_COL_MODE,
	  DIM_QUIET | DIM_NEW | DIM_MODE, "latency", NULL },
	{ "threads",   SWEEP_COL_THREADS,  DIM_NEW | DIM_MODE, "1", NULL },
	{ "mix",       SWEEP_COL_MIX_READ,
	  DIM_DEFAULT_QUIET | DIM_NEW, "0:0", "0:0" },
	{ "delay",     SWEEP_COL_DELAY,
	  DIM_DEFAULT_QUIET | DIM_NEW | DIM_MODE, "0", "0" },
	{ "engine",    SWEEP_COL_ENGINE,
	  DIM_DEFAULT_QUIET | DIM_NEW | DIM_KEY, NULL, "kernel" },
	{ "hugepages", NO_COL,
	  DIM_DEFAULT_QUIET | DIM_NEW | DIM_KEY, NULL, "0" },
	{ "traffic_target", SWEEP_COL_TRAFFIC_TARGET,
	  DIM_DEFAULT_QUIET | DIM_NEW, "", "" },
};
#define NR_DIMS	(sizeof(dims) / sizeof(dims[0]))

/*
 * @dv: each row's value of each dimension (NR_DIMS a row), pointing into
 * @fields or at a constant; the other columns by index, -1 if missing.
 */
struct sweep_csv {
	char **lines;		/* one allocation per row, split in place */
	char ***fields;
	size_t n;
	const char **dv;
	int dim_col[NR_DIMS];	/* -1: a DIM_NEW column the file lacks */
	int stat_col[NR_STATS];	/* ns_* */
	int gbps_col[NR_GBPS];	/* gbps[]'s; -1: missing */
	int state_col, key_col, per_col, rate_col, thr_col, samples_col;
	int mix_write_col;	/* the mix dimension's second column */
	int idle_col;		/* idle_ns_p50 (layout 8), or -1 */
	int duty_col;		/* duty_cycle (layout 7), or -1 */
	char **kv;		/* DIM_KEY values that are no constant, and
				 * the mixes' "R:W" */
	size_t nkv;
	char *hdr_line;		/* the header, split in place into @hdr */
	char **hdr;
	int nh;
	/* repeats (collapse_repeats()): per row, the rows it stands for (0:
	 * a repeat drawn as part of another row); with @repeats > 1, the
	 * least and largest value of each column over them, at
	 * [row * nh + column] (NAN: none) */
	size_t *nrep;
	size_t repeats;		/* the most rows one point stands for */
	bool intervals;		/* no repeats: @lo, @hi are the ns_lo_ and
				 * ns_hi_ columns' 95% intervals */
	double *lo, *hi;
	char **owned;		/* the medians written into @fields */
	size_t nowned;
};

static void sweep_csv_free(struct sweep_csv *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->lines[i]);
		free(c->fields[i]);
	}
	free(c->lines);
	free(c->fields);
	free(c->dv);
	for (i = 0; i < c->nkv; i++)
		free(c->kv[i]);
	free(c->kv);
	free(c->hdr_line);
	free(c->hdr);
	free(c->nrep);
	free(c->lo);
	free(c->hi);
	for (i = 0; i < c->nowned; i++)
		free(c->owned[i]);
	free(c->owned);
}

/* @v, kept in @c (freed with it); NULL when out of memory */
static const char *keep_value(struct sweep_csv *c, const char *v)
{
	char **kv = realloc(c->kv, (c->nkv + 1) * sizeof(*kv));

	if (!kv)
		return NULL;
	c->kv = kv;
	return c->kv[c->nkv++] = strdup(v);
}

/*
 * Row @i's value of key field @name (key_value()), kept in @c where it is
 * no constant; NULL when out of memory.
 */
static const char *key_dim(struct sweep_csv *c, size_t i, const char *name)
{
	const char *key = c->key_col >= 0 ? c->fields[i][c->key_col] : "";
	char buf[256];
	const char *v = key_value(key, name, buf, sizeof(buf));

	return v != buf ? v : keep_value(c, buf);
}

/* Row @i's mix, "R:W" from its mix_read and mix_write ("0:0": none) */
static const char *mix_dim(struct sweep_csv *c, size_t i, int read_col)
{
	char buf[48];

	snprintf(buf, sizeof(buf), "%s:%s", *c->fields[i][read_col] ?
		 c->fields[i][read_col] : "0",
		 *c->fields[i][c->mix_write_col] ?
		 c->fields[i][c->mix_write_col] : "0");
	return strcmp(buf, "0:0") ? keep_value(c, buf) : "0:0";
}

/* Each row's value of each dimension. */
static int fill_dims(struct sweep_csv *c)
{
	size_t i, d;

	c->dv = calloc(c->n * NR_DIMS, sizeof(*c->dv));
	if (!c->dv)
		return -ENOMEM;
	for (i = 0; i < c->n; i++) {
		for (d = 0; d < NR_DIMS; d++) {
			const char **v = &c->dv[i * NR_DIMS + d];

			if (dims[d].col == SWEEP_COL_MIX_READ)
				*v = c->dim_col[d] >= 0 &&
				     c->mix_write_col >= 0 ?
				     mix_dim(c, i, c->dim_col[d]) :
				     dims[d].missing;
			else if (c->dim_col[d] >= 0)
				*v = c->fields[i][c->dim_col[d]];
			else if (!(dims[d].flags & DIM_KEY))
				*v = dims[d].missing;
			else
				*v = key_dim(c, i, dims[d].name);
			if (!*v)
				return -ENOMEM;
		}
	}
	return 0;
}

/* The columns of @c among the @n names of a header: -1, those missing. */
static void find_columns(struct sweep_csv *c, char *const *hdr, int n)
{
	size_t i;

	for (i = 0; i < NR_DIMS; i++)
		c->dim_col[i] = dims[i].col == NO_COL ? -1 :
				sweep_csv_find(hdr, n, dims[i].col, 0);
	for (i = 0; i < NR_STATS; i++)
		c->stat_col[i] = sweep_csv_find(hdr, n, SWEEP_COL_NS, (int)i);
	for (i = 0; i < NR_GBPS; i++)
		c->gbps_col[i] = sweep_csv_find(hdr, n, gbps[i].col, 0);
	c->state_col = sweep_csv_find(hdr, n, SWEEP_COL_STATE, 0);
	c->key_col = sweep_csv_find(hdr, n, SWEEP_COL_KEY, 0);
	c->per_col = sweep_csv_find(hdr, n, SWEEP_COL_PER, 0);
	c->rate_col = sweep_csv_find(hdr, n, SWEEP_COL_OUTLIER_RATE, 0);
	c->thr_col = sweep_csv_find(hdr, n, SWEEP_COL_THRESHOLD_CYCLES, 0);
	c->samples_col = sweep_csv_find(hdr, n, SWEEP_COL_SAMPLES, 0);
	c->mix_write_col = sweep_csv_find(hdr, n, SWEEP_COL_MIX_WRITE, 0);
	c->idle_col = sweep_csv_find(hdr, n, SWEEP_COL_IDLE_NS_P50, 0);
	c->duty_col = sweep_csv_find(hdr, n, SWEEP_COL_DUTY_CYCLE, 0);
}

/* Does the plot draw statistic @name (--stat; bars: its first)? */
static bool stat_drawn(const struct plot *p, const char *name)
{
	size_t n = strlen(name);
	const char *t = p->stats;

	while (*t) {
		if (!strncmp(t, name, n) && (t[n] == ' ' || !t[n]))
			return true;
		if (p->kind->prepare == prepare_bars)
			return false;
		t += strcspn(t, " ");
		t += strspn(t, " ");
	}
	return false;
}

/*
 * run's rule for the percentiles a point's samples support
 * (latt_stat_supported()), applied to every row whatever wrote it: a
 * figure it can't support is blanked (not drawn, as a sweep writes it
 * since December 2026), and the drawn statistics' blanks are said, on
 * stderr and in the plot's notes (unsupported_note).
 */
static int drop_unsupported(struct plot *p, struct sweep_csv *c)
{
	size_t r, n[NR_STATS] = { 0 }, len = 0;
	char note[512] = "", *fl;
	unsigned long long samples;
	bool left = false, timed = false;
	int i;

	/* only the kinds that draw latency figures (bw-* draw GB/s) */
	if (c->samples_col < 0 ||
	    !(p->kind->prepare == prepare_sweep ||
	      p->kind->prepare == prepare_bars ||
	      p->kind->prepare == prepare_loaded ||
	      p->kind->prepare == prepare_curves ||
	      p->kind->prepare == prepare_ws))
		return 0;
	for (r = 0; r < c->n; r++) {
		samples = strtoull(c->fields[r][c->samples_col], NULL, 10);
		if (!samples)	/* a bandwidth row: it times nothing */
			continue;
		timed = true;
		for (i = 0; i < NR_STATS; i++) {
			if (c->stat_col[i] < 0)
				continue;
			fl = c->fields[r][c->stat_col[i]];
			if (latt_stat_supported(samples, (enum latt_stat)i)) {
				left |= *fl && stat_drawn(p, latt_stats[i].name);
				continue;
			}
			n[i]++;
			c->fields[r][c->stat_col[i]] = fl + strlen(fl);
		}
	}
	/* a file without timed rows is the kind's own to refuse */
	if (!left && timed) {
		log_err("%s: no point has samples enough for --stat %s (a percentile q needs %u/(1-q) samples): nothing to draw",
			p->in, p->stats, LATT_PCT_BEYOND);
		return 1;
	}
	for (i = 0; i < NR_STATS; i++) {
		if (!n[i] || !stat_drawn(p, latt_stats[i].name) ||
		    len >= sizeof(note))
			continue;
		len += (size_t)snprintf(note + len, sizeof(note) - len,
			"%s%s: %zu point%s of fewer than %llu samples not drawn",
			len ? "; " : "", latt_stats[i].name, n[i],
			n[i] == 1 ? "" : "s",
			(unsigned long long)latt_pct_min_samples(latt_stats[i].ppm));
	}
	if (!note[0])
		return 0;
	log_warn("%s: %s (a percentile q needs %u/(1-q) samples, %u beyond it)",
		 p->in, note, LATT_PCT_BEYOND, LATT_PCT_BEYOND);
	var_str(p, "unsupported_note", note);
	return 0;
}

/* One sweep CSV file into @c; fill_dims() is the caller's, once. */
static int read_sweep(const char *path, struct sweep_csv *c)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, **hdr, **fl, **nl, ***nf;
	size_t cap = 0, i;
	int nh = -1, n;

	memset(c, 0, sizeof(*c));
	hdr = c->hdr = calloc(CSV_MAX_FIELDS, sizeof(*hdr));
	if (!f || !hdr) {
		log_err("%s: %s", path, f ? "out of memory" : strerror(errno));
		if (f)
			fclose(f);
		return 1;
	}
	while (getline(&line, &cap, f) > 0) {
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (nh < 0) {
			c->hdr_line = line;
			nh = c->nh = csv_split(line, hdr, CSV_MAX_FIELDS);
			find_columns(c, hdr, nh);
			for (i = 0; i < NR_DIMS; i++)
				if (c->dim_col[i] < 0 &&
				    !(dims[i].flags & DIM_NEW))
					nh = -2;
			for (i = 0; i < NR_STATS; i++)
				if (c->stat_col[i] < 0)
					nh = -2;
			if (nh < 0) {
				log_err("%s: not a lattester-ctl sweep CSV file (its header lacks columns)", path);
				line = NULL;	/* @c->hdr_line */
				goto fail;
			}
			line = NULL;	/* hdr points into it: keep it */
			cap = 0;
			continue;
		}
		fl = calloc(CSV_MAX_FIELDS, sizeof(*fl));
		if (!fl)
			goto oom;
		n = csv_split(line, fl, CSV_MAX_FIELDS);
		if (n != nh || (c->state_col >= 0 &&
				strcmp(fl[c->state_col], "done"))) {
			free(fl);
			continue;	/* a cut row, or a point not done */
		}
		/* never NULL into @c: sweep_csv_free() walks its @n rows */
		nl = realloc(c->lines, (c->n + 1) * sizeof(*c->lines));
		if (nl)
			c->lines = nl;
		nf = realloc(c->fields, (c->n + 1) * sizeof(*c->fields));
		if (nf)
			c->fields = nf;
		if (!nl || !nf) {
			free(fl);
			goto oom;
		}
		c->lines[c->n] = line;
		c->fields[c->n++] = fl;
		line = NULL;
		cap = 0;
	}
	free(line);
	fclose(f);
	if (nh < 0) {
		log_err("%s: empty: no header", path);
		return 1;
	}
	if (!c->n) {
		log_err("%s: nothing to plot (no finished point)", path);
		return 1;
	}
	return 0;
oom:
	log_err("out of memory");
fail:
	free(line);
	fclose(f);
	return 1;
}

/*
 * The rows of @d (read from @dpath) added to @c's (from @cpath), moved
 * into @c's columns by their names: sweep files of one layout, whatever
 * the order of their columns.  @d keeps nothing.
 */
static int merge_sweep(struct sweep_csv *c, const char *cpath,
		       struct sweep_csv *d, const char *dpath)
{
	int map[CSV_MAX_FIELDS], j, k;
	char **fl, **lines, ***fields;
	size_t r;

	for (j = 0; j < c->nh; j++) {
		for (k = 0; k < d->nh && strcmp(c->hdr[j], d->hdr[k]); k++)
			;
		if (k == d->nh) {
			log_err("%s: its columns are not %s's (it has no '%s'): plot files of one layout together", dpath, cpath, c->hdr[j]);
			return 1;
		}
		map[j] = k;
	}
	lines = realloc(c->lines, (c->n + d->n) * sizeof(*c->lines));
	if (lines)
		c->lines = lines;
	fields = realloc(c->fields, (c->n + d->n) * sizeof(*c->fields));
	if (fields)
		c->fields = fields;
	if (!lines || !fields) {
		log_err("out of memory");
		return 1;
	}
	for (r = 0; r < d->n; r++) {
		fl = calloc(CSV_MAX_FIELDS, sizeof(*fl));
		if (!fl) {
			log_err("out of memory");
			return 1;
		}
		for (j = 0; j < c->nh; j++)
			fl[j] = d->fields[r][map[j]];
		c->lines[c->n] = d->lines[r];	/* @fl points into it */
		c->fields[c->n++] = fl;
		free(d->fields[r]);
		d->lines[r] = NULL;
		d->fields[r] = NULL;
	}
	d->n = 0;
	return 0;
}

/* ---- repeats: the rows of one point, drawn as their median ---- */

/* @key without its repeat field, into @buf */
static void key_sans_repeat(char *buf, size_t len, const char *key)
{
	const char *pos = key, *name, *value;
	size_t nlen, vlen, n = 0;

	buf[0] = '\0';
	while (key_next(&pos, &name, &nlen, &value, &vlen) > 0 && n < len) {
		if (key_name_is(name, nlen, KEY_REPEAT))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%.*s=%.*s",
				      n ? ";" : "", (int)nlen, name,
				      (int)vlen, value);
	}
}

static char **cmp_keys;

static int cmp_key_rows(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int r = strcmp(cmp_keys[x], cmp_keys[y]);

	return r ? r : x < y ? -1 : x > y;
}

/* Is column @k a figure that repeats are drawn by (ns, GB/s, rate, the
 * idle p50 of curves)? */
static bool figure_col(const struct sweep_csv *c, int k)
{
	size_t i;

	for (i = 0; i < NR_STATS; i++)
		if (c->stat_col[i] == k)
			return true;
	for (i = 0; i < NR_GBPS; i++)
		if (c->gbps_col[i] == k)
			return true;
	return k == c->rate_col || k == c->idle_col;
}

/* The median of @rows[0..@n) in column @k into row @rows[0], the least
 * and largest beside it; cells that are empty (unsupported) take no part */
static int merge_column(struct sweep_csv *c, const size_t *rows, size_t n,
			int k)
{
	struct latt_spread s;
	double *v = malloc(n * sizeof(*v));
	size_t j, m = 0;
	char buf[48], **o;
	const char *f;
	int rc = 0;

	if (!v)
		return -ENOMEM;
	for (j = 0; j < n; j++) {
		f = c->fields[rows[j]][k];
		if (*f && strcmp(f, "-"))
			v[m++] = strtod(f, NULL);
	}
	if (m && !latt_spread_of(&s, v, m)) {
		snprintf(buf, sizeof(buf), "%.6g", s.median);
		o = realloc(c->owned, (c->nowned + 1) * sizeof(*o));
		if (!o || !(o[c->nowned] = strdup(buf))) {
			if (o)
				c->owned = o;
			rc = -ENOMEM;
		} else {
			c->owned = o;
			c->fields[rows[0]][k] = o[c->nowned++];
			c->lo[rows[0] * (size_t)c->nh + (size_t)k] = s.min;
			c->hi[rows[0] * (size_t)c->nh + (size_t)k] = s.max;
		}
	}
	free(v);
	return rc;
}

/* @c->lo and @c->hi, a cell each, all NAN (no bound); -ENOMEM */
static int alloc_bounds(struct sweep_csv *c)
{
	size_t k;

	c->lo = malloc(c->n * (size_t)c->nh * sizeof(*c->lo));
	c->hi = malloc(c->n * (size_t)c->nh * sizeof(*c->hi));
	if (!c->lo || !c->hi)
		return -ENOMEM;
	for (k = 0; k < c->n * (size_t)c->nh; k++)
		c->lo[k] = c->hi[k] = NAN;
	return 0;
}

/*
 * A sweep without repeats whose file has the 95% intervals (layout 5:
 * ns_lo_*, ns_hi_*): they make the error bars of sweep, bars and curves,
 * said in a note.  A cell without one (min, max, a percentile the point
 * can't support) gets none.
 */
static int interval_bars(struct plot *p, struct sweep_csv *c)
{
	int lo_col[NR_STATS], hi_col[NR_STATS], i, any = 0;
	const char *lo, *hi;
	size_t r, k;

	if (p->kind->prepare != prepare_sweep &&
	    p->kind->prepare != prepare_bars &&
	    p->kind->prepare != prepare_curves)
		return 0;
	for (i = 0; i < NR_STATS; i++) {
		lo_col[i] = sweep_csv_find(c->hdr, c->nh, SWEEP_COL_NS_LO, i);
		hi_col[i] = sweep_csv_find(c->hdr, c->nh, SWEEP_COL_NS_HI, i);
		any |= lo_col[i] >= 0 && hi_col[i] >= 0;
	}
	if (!any)
		return 0;
	if (alloc_bounds(c))
		return -ENOMEM;
	for (r = 0; r < c->n; r++) {
		for (i = 0; i < NR_STATS; i++) {
			if (lo_col[i] < 0 || hi_col[i] < 0 || c->stat_col[i] < 0)
				continue;
			lo = c->fields[r][lo_col[i]];
			hi = c->fields[r][hi_col[i]];
			if (!*lo || !*hi || !*c->fields[r][c->stat_col[i]] ||
			    !strcmp(c->fields[r][c->stat_col[i]], "-"))
				continue;
			k = r * (size_t)c->nh + (size_t)c->stat_col[i];
			c->lo[k] = strtod(lo, NULL);
			c->hi[k] = strtod(hi, NULL);
		}
	}
	c->intervals = true;
	var_str(p, "repeat_note", "error bars: the 95% confidence interval of each figure (methodology.md §7)");
	fprintf(p->vars, "errbars = 1\n");
	return 0;
}

/*
 * Rows of one point (keys that differ in their repeat field alone, or the
 * same key in several --in files) stand for one: the first, its figures
 * their median, the least and largest beside it (@c->lo, @c->hi) for the
 * error bars; the others' @nrep is 0.  Said in the plot's notes.
 */
static int collapse_repeats(struct plot *p, struct sweep_csv *c)
{
	char **keys = calloc(c->n ? c->n : 1, sizeof(*keys));
	size_t *idx = calloc(c->n ? c->n : 1, sizeof(*idx));
	size_t i, j, g, points = 0, most = 1, least = 0;
	char note[160], buf[2048];
	int rc = -ENOMEM, col;

	c->nrep = calloc(c->n ? c->n : 1, sizeof(*c->nrep));
	if (!keys || !idx || !c->nrep)
		goto out;
	for (i = 0; i < c->n; i++) {
		key_sans_repeat(buf, sizeof(buf), c->key_col >= 0 ?
				c->fields[i][c->key_col] : "");
		/* no key (never written so): a row of its own */
		if (!buf[0])
			snprintf(buf, sizeof(buf), "#%zu", i);
		if (!(keys[i] = strdup(buf)))
			goto out;
		idx[i] = i;
		c->nrep[i] = 1;
	}
	cmp_keys = keys;
	qsort(idx, c->n, sizeof(*idx), cmp_key_rows);
	for (i = 0; i < c->n; i = j) {
		for (j = i + 1; j < c->n && !strcmp(keys[idx[i]], keys[idx[j]]);
		     j++)
			;
		most = j - i > most ? j - i : most;
	}
	c->repeats = most;
	if (most < 2) {
		rc = interval_bars(p, c);
		goto out;
	}
	if (alloc_bounds(c))
		goto out;
	for (i = 0; i < c->n; i = j) {
		for (j = i + 1; j < c->n && !strcmp(keys[idx[i]], keys[idx[j]]);
		     j++)
			;
		/* idx[i] is the group's first row in the files' order */
		c->nrep[idx[i]] = j - i;
		for (g = i + 1; g < j; g++)
			c->nrep[idx[g]] = 0;
		for (col = 0; col < c->nh; col++)
			if (figure_col(c, col) &&
			    merge_column(c, idx + i, j - i, col))
				goto out;
		points += j - i > 1;
		if (j - i > 1 && (!least || j - i < least))
			least = j - i;
	}
	snprintf(note, sizeof(note), "%zu point%s measured %s%zu times: the median of the repeats%s",
		 points, points == 1 ? "" : "s",
		 least < most ? "up to " : "", most,
		 p->kind->prepare == prepare_sweep ||
		 p->kind->prepare == prepare_bars ||
		 p->kind->prepare == prepare_curves ?
		 ", error bars from the least to the largest" : "");
	log_info("%s: %s", p->in, note);
	var_str(p, "repeat_note", note);
	fprintf(p->vars, "repeats = %zu\n", most);
	fprintf(p->vars, "errbars = 1\n");
	rc = 0;
out:
	for (i = 0; keys && i < c->n; i++)
		free(keys[i]);
	free(keys);
	free(idx);
	if (rc)
		log_err("out of memory");
	return rc ? 1 : 0;
}

/* Every --in file's rows, in @c, their dimensions filled. */
static int read_sweeps(struct plot *p, struct sweep_csv *c)
{
	struct sweep_csv d;
	int i, rc;

	rc = read_sweep(p->ins[0], c);
	for (i = 1; !rc && i < p->nin; i++) {
		rc = read_sweep(p->ins[i], &d);
		if (!rc)
			rc = merge_sweep(c, p->ins[0], &d, p->ins[i]);
		sweep_csv_free(&d);
	}
	if (!rc && fill_dims(c)) {
		log_err("out of memory");
		rc = 1;
	}
	if (!rc)
		rc = drop_unsupported(p, c);
	if (!rc)
		rc = collapse_repeats(p, c);
	return rc;
}

static int dim_index(const char *name)
{
	size_t i;

	for (i = 0; i < NR_DIMS; i++)
		if (!strcmp(dims[i].name, name))
			return (int)i;
	return -1;
}

static const char *val(const struct sweep_csv *c, size_t row, size_t dim)
{
	return c->dv[row * NR_DIMS + dim];
}

/* Does dimension @d take more than one value over the rows in @use? */
static bool varies_any(const struct sweep_csv *c, const bool *use, size_t d)
{
	const char *first = NULL;
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (!use[i])
			continue;
		if (!first)
			first = val(c, i, d);
		else if (strcmp(first, val(c, i, d)))
			return true;
	}
	return false;
}

/*
 * Does it vary in a way that tells points apart?  The fence a run reports
 * is resolved ("default" is none for loads, mfence for stores): it counts
 * only where one op ran with more than one fence.  (Two fences that
 * resolve to one, default and mfence of a store, are told apart by their
 * keys: make_labels().)
 */
static bool varies(const struct sweep_csv *c, const bool *use, size_t d)
{
	size_t i, j, op = (size_t)dim_index("op");

	if (strcmp(dims[d].name, "fence"))
		return varies_any(c, use, d);
	for (i = 0; i < c->n; i++)
		for (j = i + 1; use[i] && j < c->n; j++)
			if (use[j] && !strcmp(val(c, i, op), val(c, j, op)) &&
			    strcmp(val(c, i, d), val(c, j, d)))
				return true;
	return false;
}

/*
 * A mix "R:W" as the share of the traffic's accesses that read: "100%
 * reads" (1:0), "75% reads" (3:1), "66.7% reads" (2:1), "0% reads" (0:1);
 * "no mix" (0:0: every access the op).
 */
static void fmt_mix(char *buf, size_t len, const char *v)
{
	unsigned long r, w;
	double pct;
	char end;

	if (sscanf(v, "%lu:%lu%c", &r, &w, &end) != 2) {
		snprintf(buf, len, "mix %s", v);
		return;
	}
	if (!r && !w) {
		snprintf(buf, len, "no mix");
		return;
	}
	pct = 100.0 * (double)r / ((double)r + (double)w);
	snprintf(buf, len, fabs(pct - round(pct)) < 1e-9 ? "%.0f%% reads" :
		 "%.1f%% reads", pct);
}

/* "64 B", "cpu 1", "stride 4 KiB": one value of a dimension for a title. */
static void fmt_dim(char *buf, size_t len, size_t d, const char *v)
{
	const char *name = dims[d].name;
	char bytes[32];
	__u64 n;

	if ((!strcmp(name, "size") || !strcmp(name, "stride") ||
	     !strcmp(name, "hotspot") || !strcmp(name, "region")) &&
	    !parse_u64(v, &n)) {
		fmt_bytes(bytes, sizeof(bytes), n);
		snprintf(buf, len, "%s%s%s", strcmp(name, "size") ? name : "",
			 strcmp(name, "size") ? " " : "", bytes);
	} else if (!strcmp(name, "cpu") || !strcmp(name, "fence") ||
		   !strcmp(name, "chain")) {
		snprintf(buf, len, "%s %s", name, v);
	} else if (!strcmp(name, "warm")) {
		snprintf(buf, len, "%s", strcmp(v, "0") ? "warm" : "flushed");
	} else if (!strcmp(name, "width")) {
		snprintf(buf, len, "width %s B", v);
	} else if (!strcmp(name, "threads")) {
		snprintf(buf, len, "%s thread%s", v, strcmp(v, "1") ? "s" : "");
	} else if (!strcmp(name, "delay")) {
		snprintf(buf, len, "delay %s cycles", v);
	} else if (!strcmp(name, "mix")) {
		fmt_mix(buf, len, v);
	} else if (!strcmp(name, "engine")) {
		snprintf(buf, len, "%s engine", v);
	} else if (!strcmp(name, "hugepages")) {
		snprintf(buf, len, "%s", strcmp(v, "0") ?
			 "huge pages (--hugepages)" : "base pages");
	} else if (!strcmp(name, "traffic_target")) {
		snprintf(buf, len, "traffic on %s", *v ? v : "the target");
	} else {
		snprintf(buf, len, "%s", v);
	}
}

/*
 * How the series are named: the dimensions in @mask, then the key fields
 * in @extra (fields that tell apart rows no dimension does), and for rows
 * whose keys are the same, " (repeat N)".  @text: each row's name.
 */
#define MAX_EXTRA	8

struct labels {
	bool mask[NR_DIMS];
	char extra[MAX_EXTRA][64];
	size_t nextra;
	char **text;
};

static void labels_free(struct labels *l, size_t n)
{
	size_t i;

	for (i = 0; l->text && i < n; i++)
		free(l->text[i]);
	free(l->text);
	l->text = NULL;
}

/* "fence default (mfence)", "samples 500": key field @f of row @i */
static void fmt_key_field(char *buf, size_t len, const struct sweep_csv *c,
			  size_t i, const char *f)
{
	const char *key = c->key_col >= 0 ? c->fields[i][c->key_col] : "";
	char value[256];
	const char *v = key_value(key, f, value, sizeof(value));
	int d = dim_index(f);

	if (!*v)
		v = "-";	/* no key of this version has it */
	if (!strcmp(f, "fence") && strcmp(v, val(c, i, (size_t)d)))
		snprintf(buf, len, "fence %s (%s)", v, val(c, i, (size_t)d));
	else if (d >= 0)
		fmt_dim(buf, len, (size_t)d, v);
	else
		snprintf(buf, len, "%s %s", f, v);
}

static bool is_extra(const struct labels *l, const char *name)
{
	size_t k;

	for (k = 0; k < l->nextra; k++)
		if (!strcmp(l->extra[k], name))
			return true;
	return false;
}

/*
 * Row @i's CPU: "cpu 1" for one thread; a point of several threads ran
 * on more: "CPUs 0-7" (--cpus, in its key) or "CPUs from 1" (N online
 * CPUs from --cpu up), not the first CPU alone.
 */
static void fmt_cpus(char *buf, size_t len, const struct sweep_csv *c,
		     size_t i)
{
	const char *key = c->key_col >= 0 ? c->fields[i][c->key_col] : "";
	const char *threads = val(c, i, (size_t)dim_index("threads"));
	char cpus[128];
	const char *v = key_value(key, "cpus", cpus, sizeof(cpus));

	if (!strcmp(threads, "1") || !*threads)
		fmt_dim(buf, len, (size_t)dim_index("cpu"),
			val(c, i, (size_t)dim_index("cpu")));
	else if (*v)
		snprintf(buf, len, "CPUs %s", v);
	else
		snprintf(buf, len, "CPUs from %s",
			 val(c, i, (size_t)dim_index("cpu")));
}

static void make_label(char *buf, size_t len, const struct sweep_csv *c,
		       size_t i, const struct labels *l)
{
	char one[300];
	size_t d, n = 0;

	buf[0] = '\0';
	for (d = 0; d < NR_DIMS && n < len; d++) {
		if (!l->mask[d] || is_extra(l, dims[d].name))
			continue;	/* an extra field says it from the key */
		if (!strcmp(dims[d].name, "cpu"))
			fmt_cpus(one, sizeof(one), c, i);
		else
			fmt_dim(one, sizeof(one), d, val(c, i, d));
		n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "", one);
	}
	for (d = 0; d < l->nextra && n < len; d++) {
		fmt_key_field(one, sizeof(one), c, i, l->extra[d]);
		n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "", one);
	}
}

/* the rows in @use, sorted by name, then by their value of @cmp_along */
static const struct sweep_csv *cmp_csv;
static const struct labels *cmp_labels;
static int cmp_along;

static int cmp_label_rows(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int r = strcmp(cmp_labels->text[x], cmp_labels->text[y]);

	if (r || cmp_along < 0)
		return r;
	return strcmp(val(cmp_csv, x, (size_t)cmp_along),
		      val(cmp_csv, y, (size_t)cmp_along));
}

/*
 * Two rows of one name at one value of @along (or anywhere, @along < 0):
 * the first such pair in @idx (sorted), or false.
 */
static bool collision(const struct sweep_csv *c, const struct labels *l,
		      size_t *idx, size_t n, int along, size_t *a, size_t *b)
{
	size_t k;

	cmp_csv = c;
	cmp_labels = l;
	cmp_along = along;
	qsort(idx, n, sizeof(*idx), cmp_label_rows);
	for (k = 1; k < n; k++) {
		if (!cmp_label_rows(&idx[k - 1], &idx[k])) {
			*a = idx[k - 1];
			*b = idx[k];
			return true;
		}
	}
	return false;
}

struct name_buf {
	char *buf;
	size_t len;
};

/* key_diff()'s call for key_difference(): the first field, kept. */
static int first_field(void *ctx, const char *name, const char *va,
		       const char *vb)
{
	struct name_buf *f = ctx;

	(void)va;
	(void)vb;
	snprintf(f->buf, f->len, "%s", name);
	return 1;
}

/* The first field of the keys of rows @a and @b whose values differ. */
static bool key_difference(const struct sweep_csv *c, size_t a, size_t b,
			   char *field, size_t len)
{
	struct name_buf f = { field, len };

	if (c->key_col < 0)
		return false;
	return key_diff(c->fields[a][c->key_col], c->fields[b][c->key_col],
			first_field, &f);
}

/*
 * Name every row in @use by the dimensions in @l->mask, so that no two
 * rows share a name and a value of @along (the x of a line, the group of
 * a bar; -1: none): where they would, the key fields that differ join the
 * names, and rows of one key are numbered.
 */
static int make_labels(struct plot *p, const struct sweep_csv *c,
		       const bool *use, int along, struct labels *l)
{
	char buf[1024], field[64];
	size_t *idx, n = 0, i, a, b, rep, k;

	l->text = calloc(c->n, sizeof(*l->text));
	idx = calloc(c->n ? c->n : 1, sizeof(*idx));
	if (!l->text || !idx)
		goto oom;
	for (i = 0; i < c->n; i++)
		if (use[i])
			idx[n++] = i;
	for (;;) {
		for (k = 0; k < n; k++) {
			make_label(buf, sizeof(buf), c, idx[k], l);
			free(l->text[idx[k]]);
			l->text[idx[k]] = strdup(buf);
			if (!l->text[idx[k]])
				goto oom;
		}
		if (!collision(c, l, idx, n, along, &a, &b) ||
		    l->nextra == MAX_EXTRA ||
		    !key_difference(c, a, b, field, sizeof(field)))
			break;
		snprintf(l->extra[l->nextra++], sizeof(l->extra[0]), "%s",
			 field);
	}
	/* the same key twice: rows of one point, numbered */
	rep = 0;
	while (collision(c, l, idx, n, along, &a, &b)) {
		for (k = 2;; k++) {
			snprintf(buf, sizeof(buf), "%s%s(repeat %zu)",
				 l->text[b], l->text[b][0] ? " " : "", k);
			for (i = 0; i < n && (strcmp(l->text[idx[i]], buf) ||
				(along >= 0 && strcmp(val(c, idx[i], (size_t)along),
						     val(c, b, (size_t)along))));
			     i++)
				;
			if (i == n)
				break;
		}
		free(l->text[b]);
		l->text[b] = strdup(buf);
		if (!l->text[b])
			goto oom;
		rep++;
	}
	if (rep)
		log_warn("%s: %zu row%s repeat%s a point of another row (the same key): drawn apart, as \"(repeat N)\"", p->in,
			 rep, rep == 1 ? "" : "s", rep == 1 ? "s" : "");
	free(idx);
	return 0;
oom:
	free(idx);
	log_err("out of memory");
	return 1;
}

/* one series: its name and rows */
struct series {
	const char *key;
	size_t *rows;
	size_t n, cap;
};

static void series_free(struct series *s, size_t ns)
{
	size_t k;

	for (k = 0; k < ns; k++)
		free(s[k].rows);
}

static int cmp_dim;
static bool cmp_desc;		/* cmp_rows(): the largest first */

static int cmp_rows(const void *a, const void *b)
{
	const char *sx = val(cmp_csv, *(const size_t *)a, (size_t)cmp_dim);
	const char *sy = val(cmp_csv, *(const size_t *)b, (size_t)cmp_dim);
	__u64 x = strtoull(sx, NULL, 10), y = strtoull(sy, NULL, 10);

	return cmp_desc ? (x > y ? -1 : x < y) : (x < y ? -1 : x > y);
}

/* Group the rows in @use by their names; titles to vars. */
static int make_series(struct plot *p, const struct sweep_csv *c,
		       const bool *use, const struct labels *l,
		       struct series *s, size_t *ns)
{
	char name[32];
	size_t i, k, *nr;

	*ns = 0;
	for (i = 0; i < c->n; i++) {
		if (!use[i])
			continue;
		for (k = 0; k < *ns && strcmp(s[k].key, l->text[i]); k++)
			;
		if (k == *ns) {
			if (*ns == MAX_SERIES) {
				log_err("%s: more than %d series: plot a part of the sweep", p->in, MAX_SERIES);
				return 1;
			}
			s[k].key = l->text[i];
			s[k].n = s[k].cap = 0;
			s[k].rows = NULL;
			(*ns)++;
			snprintf(name, sizeof(name), "series_%zu", k + 1);
			var_str(p, name, l->text[i]);
		}
		if (s[k].n == s[k].cap) {
			s[k].cap = s[k].cap ? 2 * s[k].cap : 16;
			nr = realloc(s[k].rows, s[k].cap * sizeof(*nr));
			if (!nr) {
				log_err("out of memory");
				return 1;
			}
			s[k].rows = nr;
		}
		s[k].rows[s[k].n++] = i;
	}
	fprintf(p->vars, "nseries = %zu\n", *ns);
	return 0;
}

/* The subtitle: what all points share (target, cpu, and the rest). */
static void shared_subtitle(struct plot *p, const struct sweep_csv *c,
			    const bool *use, const bool *vary, int skip)
{
	struct labels l = { 0 };
	char buf[1024];
	size_t d, first;

	/* the row of the most threads: its CPUs are what the points span
	 * (fmt_cpus()); the other fields shown are the same in every row */
	for (first = 0; first < c->n && !use[first]; first++)
		;
	for (d = first; d < c->n; d++)
		if (use[d] && atoi(val(c, d, (size_t)dim_index("threads"))) >
			      atoi(val(c, first, (size_t)dim_index("threads"))))
			first = d;
	for (d = 0; d < NR_DIMS; d++)
		l.mask[d] = !vary[d] && (int)d != skip &&
			    !varies_any(c, use, d) &&
			    (c->dim_col[d] >= 0 || (dims[d].flags & DIM_KEY)) &&
			    !(dims[d].flags & DIM_QUIET) &&
			    !((dims[d].flags & DIM_DEFAULT_QUIET) &&
			      !strcmp(val(c, first, d), dims[d].quiet));
	make_label(buf, sizeof(buf), c, first, &l);
	var_str(p, "subtitle", p->title ? p->title : buf);
}

static int open_data(struct plot *p, FILE **f)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	snprintf(p->data, sizeof(p->data), "%s/lattester-plot-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(p->data);
	*f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!*f) {
		log_err("%s: %s", p->data, strerror(errno));
		if (fd >= 0)
			close(fd);
		p->data[0] = '\0';
		return 1;
	}
	return 0;
}

static int close_data(struct plot *p, FILE *f)
{
	if (ferror(f) | fclose(f)) {
		log_err("%s: write error", p->data);
		return 1;
	}
	var_str(p, "infile", p->data);
	return 0;
}

/*
 * The series: the dimensions other than @along that vary over the rows in
 * @use, into @l->mask, and the names (make_labels()); what the rest share,
 * into the subtitle.
 */
static int series_labels(struct plot *p, const struct sweep_csv *c,
			 const bool *use, int along, struct labels *l)
{
	bool vary[NR_DIMS];
	size_t d;

	for (d = 0; d < NR_DIMS; d++) {
		vary[d] = varies(c, use, d);
		l->mask[d] = vary[d] && (int)d != along;
	}
	shared_subtitle(p, c, use, vary, along);
	return make_labels(p, c, use, along, l);
}

/* A cell for gnuplot: "-" (missing, `set datafile missing`) if empty. */
static const char *cell(const struct sweep_csv *c, size_t row, int col)
{
	const char *v = col >= 0 ? c->fields[row][col] : "";

	return *v ? v : "-";
}

/*
 * A cell's least or largest over its point's repeats (collapse_repeats()),
 * for an error bar: the cell itself where the point has no repeats, "-"
 * where the cell is empty.
 */
static void fprint_bound(FILE *f, const struct sweep_csv *c, size_t row,
			 int col, bool hi)
{
	double v = col >= 0 && c->lo ?
		   (hi ? c->hi : c->lo)[row * (size_t)c->nh + (size_t)col] :
		   NAN;

	if (!isnan(v))
		fprintf(f, " %.6g", v);
	else
		fprintf(f, " %s", cell(c, row, col));
}

/* What a kind adds after the blocks: @s[0..@ns) as written, in order */
typedef int after_blocks_fn(struct plot *p, const struct sweep_csv *c,
			    const struct series *s, size_t ns, FILE *f);

/*
 * The data of a line plot: a block per series, two blank lines apart, its
 * rows sorted by dimension @along (@desc: the largest first); a row is
 * @along's value, then the columns @cols (-1: "-"), then, where points
 * were repeated (@c->repeats > 1) or have intervals, the least and
 * largest of each of @cols in turn.  Then @after's, if any.
 */
static int write_blocks_of(struct plot *p, const struct sweep_csv *c,
			   const bool *use, const struct labels *l,
			   size_t along, const int *cols, size_t ncols,
			   bool desc, after_blocks_fn *after)
{
	static struct series s[MAX_SERIES];
	size_t i, j, k, m, ns = 0;
	FILE *f;
	int rc = 1;

	if (make_series(p, c, use, l, s, &ns) || open_data(p, &f))
		goto out;
	cmp_csv = c;
	cmp_dim = (int)along;
	cmp_desc = desc;
	for (k = 0; k < ns; k++) {
		qsort(s[k].rows, s[k].n, sizeof(s[k].rows[0]), cmp_rows);
		fprintf(f, "# %s\n", s[k].key);
		for (j = 0; j < s[k].n; j++) {
			i = s[k].rows[j];
			fprintf(f, "%s", val(c, i, along));
			for (m = 0; m < ncols; m++)
				fprintf(f, " %s", cell(c, i, cols[m]));
			for (m = 0; (c->repeats > 1 || c->intervals) &&
			     m < ncols; m++) {
				fprint_bound(f, c, i, cols[m], false);
				fprint_bound(f, c, i, cols[m], true);
			}
			fputc('\n', f);
		}
		fputs("\n\n", f);
	}
	cmp_desc = false;
	if (after && after(p, c, s, ns, f)) {
		fclose(f);
		goto out;
	}
	rc = close_data(p, f);
out:
	series_free(s, ns);
	return rc;
}

static int write_blocks(struct plot *p, const struct sweep_csv *c,
			const bool *use, const struct labels *l, size_t along,
			const int *cols, size_t ncols)
{
	return write_blocks_of(p, c, use, l, along, cols, ncols, false, NULL);
}

/* How many values other than 0 dimension @d takes over the rows in @use. */
static size_t count_values(const struct sweep_csv *c, const bool *use,
			   size_t d)
{
	size_t i, j, n = 0;

	for (i = 0; i < c->n; i++) {
		if (!use[i] || !strcmp(val(c, i, d), "0"))
			continue;
		for (j = 0; j < i && (!use[j] ||
				      strcmp(val(c, j, d), val(c, i, d))); j++)
			;
		n += j == i;
	}
	return n;
}

/* ---- axes: what gnuplot can't tell from the data ---- */

/* The largest 1, 2 or 5 times a power of ten not above @x (> 0). */
static double nice_below(double x)
{
	static const double m[] = { 5, 2, 1 };
	double e = 1;
	size_t i;

	while (e > x)
		e /= 10;
	while (e * 10 <= x)
		e *= 10;
	for (i = 0; i < 3; i++)
		if (m[i] * e <= x)
			return m[i] * e;
	return e;
}

/*
 * The values of the columns @cols over the rows in @use, for a log axis:
 * the smallest above 0, the largest, how many are 0 (or below).  Said to
 * gnuplot as PREFIX_min, PREFIX_max, PREFIX_zeros and PREFIX_floor: where
 * a 0 is drawn, a 1, 2 or 5 below the smallest value (0: no 0 to draw).
 */
static void log_range(struct plot *p, const char *prefix,
		      const struct sweep_csv *c, const bool *use,
		      const int *cols, size_t ncols)
{
	double v, min = 0, max = 0, floor = 0;
	size_t i, k, zeros = 0;
	char name[32], *end;
	const char *s;

	for (i = 0; i < c->n; i++) {
		for (k = 0; use[i] && k < ncols; k++) {
			if (cols[k] < 0)
				continue;
			s = c->fields[i][cols[k]];
			v = strtod(s, &end);
			if (!*s || *end)
				continue;	/* missing: not drawn */
			if (v <= 0) {
				zeros++;
				continue;
			}
			if (!min || v < min)
				min = v;
			if (v > max)
				max = v;
			/* a repeated point's error bar, drawn too: a
			 * least repeat of 0 on the floor line */
			if (c->lo && c->lo[i * (size_t)c->nh + (size_t)cols[k]] <= 0)
				zeros++;
			else if (c->lo && c->lo[i * (size_t)c->nh + (size_t)cols[k]] < min)
				min = c->lo[i * (size_t)c->nh + (size_t)cols[k]];
			if (c->hi && c->hi[i * (size_t)c->nh + (size_t)cols[k]] > max)
				max = c->hi[i * (size_t)c->nh + (size_t)cols[k]];
		}
	}
	/* the latency axis holds the --ref lines */
	for (k = 0; !strcmp(prefix, "y") && k < (size_t)p->nref; k++) {
		if (!min || p->ref[k] < min)
			min = p->ref[k];
		if (p->ref[k] > max)
			max = p->ref[k];
	}
	if (!min)		/* nothing above 0: an axis around 1 */
		min = max = 1;
	if (zeros)
		floor = nice_below(min / 3);
	snprintf(name, sizeof(name), "%s_min", prefix);
	var_num(p, name, min);
	snprintf(name, sizeof(name), "%s_max", prefix);
	var_num(p, name, max);
	snprintf(name, sizeof(name), "%s_zeros", prefix);
	var_num(p, name, (double)zeros);
	snprintf(name, sizeof(name), "%s_floor", prefix);
	var_num(p, name, floor);
}

/* The ns_* columns of the --stat list. */
static size_t stat_cols(const struct plot *p, const struct sweep_csv *c,
			int *cols)
{
	char buf[sizeof(p->stats)], *tok, *save = NULL;
	size_t n = 0;
	int i;

	snprintf(buf, sizeof(buf), "%s", p->stats);
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		for (i = 0; i < NR_STATS; i++)
			if (!strcmp(latt_stats[i].name, tok))
				cols[n++] = c->stat_col[i];
	return n;
}

/*
 * per = 'load' (every row a chase chain: its figures are the mean of its
 * chain's K loads, chain = K, or 0 if K varies), 'access', or 'mixed'.
 */
static void per_vars(struct plot *p, const struct sweep_csv *c,
		     const bool *use)
{
	size_t i, loads = 0, n = 0, cd = (size_t)dim_index("chain");
	const char *chain = NULL;

	for (i = 0; i < c->n; i++) {
		if (!use[i])
			continue;
		n++;
		if (c->per_col < 0 || strcmp(c->fields[i][c->per_col], "load"))
			continue;
		loads++;
		if (!chain)
			chain = val(c, i, cd);
		else if (strcmp(chain, val(c, i, cd)))
			chain = "0";
	}
	var_str(p, "per", !loads ? "access" : loads == n ? "load" : "mixed");
	var_num(p, "chain", chain ? strtod(chain, NULL) : 0);
}

/* ---- the host's caches, for working-set ---- */

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int rc = f && fgets(buf, (int)len, f) ? 0 : -1;

	if (f)
		fclose(f);
	buf[strcspn(buf, "\r\n")] = '\0';
	return rc;
}

/* sysfs cache/index* of @cpu: L1d, L2, L3 (instruction caches left out) */
static void sysfs_caches(struct plot *p, unsigned int cpu)
{
	const char *root = getenv(SYSFS_ENV);
	char dir[PATH_MAX], path[PATH_MAX + 16], level[16], type[32], size[32];
	__u64 bytes;
	int i;

	if (!root || !*root)
		root = "/sys";
	snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpu%u/cache", root,
		 cpu);
	if (access(dir, F_OK) && cpu) {
		cpu = 0;
		snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpu0/cache",
			 root);
	}
	snprintf(p->cache_src, sizeof(p->cache_src), "cpu %u, sysfs", cpu);
	for (i = 0; i < 16 && p->ncache < MAX_CACHES; i++) {
		snprintf(path, sizeof(path), "%s/index%d/level", dir, i);
		if (read_line(path, level, sizeof(level)))
			continue;
		snprintf(path, sizeof(path), "%s/index%d/type", dir, i);
		if (read_line(path, type, sizeof(type)) ||
		    !strcmp(type, "Instruction"))
			continue;
		snprintf(path, sizeof(path), "%s/index%d/size", dir, i);
		if (read_line(path, size, sizeof(size)) ||
		    parse_size(size, &bytes) || !bytes)
			continue;
		snprintf(p->cache[p->ncache].name, sizeof(p->cache[0].name),
			 "L%.4s%s", level, strcmp(type, "Data") ? "" : "d");
		p->cache[p->ncache++].bytes = bytes;
	}
}

/* --caches L1d=48K,L2=2M,L3=32M or none */
static int parse_caches(struct plot *p, const char *v)
{
	char buf[256], *tok, *save = NULL, *eq;

	p->ncache = 0;
	snprintf(p->cache_src, sizeof(p->cache_src), "--caches");
	if (!strcmp(v, "none"))
		return 0;
	if (strlen(v) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", v);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		if (!eq || eq == tok || (size_t)(eq - tok) >=
		    sizeof(p->cache[0].name) || p->ncache == MAX_CACHES)
			return -EINVAL;
		*eq = '\0';
		snprintf(p->cache[p->ncache].name, sizeof(p->cache[0].name),
			 "%s", tok);
		if (parse_size(eq + 1, &p->cache[p->ncache].bytes) ||
		    !p->cache[p->ncache].bytes)
			return -EINVAL;
		p->ncache++;
	}
	return p->ncache ? 0 : -EINVAL;
}

/* ---- the kinds ---- */

/*
 * sweep against hotspot or stride: the points of a plain pattern (rand,
 * seq: x 0, no hotspot to stand at) become dashed lines across, one per
 * drawn statistic, as long as the --ref lines leave room: the baseline
 * the hotspots are measured against.  Returns how many.
 */
static int baseline_refs(struct plot *p, const struct sweep_csv *c,
			 const bool *use, int xd)
{
	char stats[128], *save = NULL, *st;
	size_t i, k, dropped = 0;
	int n = 0;

	if (strcmp(dims[xd].name, "hotspot") && strcmp(dims[xd].name, "stride"))
		return 0;
	for (i = 0; i < c->n; i++) {
		/* a plain pattern (rand, seq), not another kind's x 0 */
		if (!use[i] || strcmp(val(c, i, (size_t)xd), "0") ||
		    strchr(val(c, i, (size_t)dim_index("pattern")), ':'))
			continue;
		snprintf(stats, sizeof(stats), "%s", p->stats);
		for (st = strtok_r(stats, " ", &save); st;
		     st = strtok_r(NULL, " ", &save)) {
			for (k = 0; k < NR_STATS &&
			     strcmp(latt_stats[k].name, st); k++)
				;
			if (k == NR_STATS || c->stat_col[k] < 0 ||
			    !*c->fields[i][c->stat_col[k]] ||
			    strtod(c->fields[i][c->stat_col[k]], NULL) <= 0)
				continue;
			if (p->nref == PLOT_MAX_REF) {
				dropped++;
				continue;
			}
			snprintf(p->ref_text[p->nref], sizeof(p->ref_text[0]),
				 "%s over the whole region, %s %s",
				 val(c, i, (size_t)dim_index("pattern")),
				 val(c, i, (size_t)dim_index("op")), st);
			p->ref[p->nref] = strtod(c->fields[i][c->stat_col[k]],
						 NULL);
			p->ref_label[p->nref] = p->ref_text[p->nref];
			p->nref++;
			n++;
		}
	}
	if (dropped)
		log_warn("%s: %zu baseline line%s of plain-pattern points left out: %d lines at most (--ref's included)",
			 p->in, dropped, dropped == 1 ? "" : "s", PLOT_MAX_REF);
	return n;
}

static int prepare_sweep(struct plot *p, const struct sweep_csv *c, bool *use)
{
	const char *xs[] = { "size", "stride", "hotspot", "region" };
	int xd = -1, best = -1, nx, d, cols[NR_STATS + 1], ycols[NR_STATS];
	bool rate = false;
	struct labels l = { 0 };
	size_t i, ny;
	int rc;

	/* the x axis: --x, or the one of size, stride, hotspot, region that
	 * varies most */
	for (i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		d = dim_index(xs[i]);
		nx = (int)count_values(c, use, (size_t)d);
		if (p->x ? !strcmp(p->x, xs[i]) : nx > best) {
			best = nx;
			xd = d;
		}
	}
	if (best < 1) {
		log_err("%s: no point has a %s", p->in, dims[xd].name);
		return 1;
	}
	if (baseline_refs(p, c, use, xd))
		var_str(p, "baseline_note", "dashed: the points of a plain pattern (no hotspot or stride), across");
	for (i = 0; i < c->n; i++) {
		use[i] = use[i] && strcmp(val(c, i, xd), "0") != 0;
		/* a sweep with --threshold: its outlier rate too */
		if (use[i] && c->thr_col >= 0 && c->rate_col >= 0 &&
		    strcmp(c->fields[i][c->thr_col], "0"))
			rate = true;
	}
	var_str(p, "xname", dims[xd].name);
	var_str(p, "stats", p->stats);
	ref_vars(p);
	per_vars(p, c, use);
	ny = stat_cols(p, c, ycols);
	log_range(p, "y", c, use, ycols, ny);
	memcpy(cols, c->stat_col, sizeof(c->stat_col));
	cols[NR_STATS] = rate ? c->rate_col : -1;
	var_num(p, "rate", rate);
	if (rate)
		log_range(p, "y2", c, use, &c->rate_col, 1);
	rc = series_labels(p, c, use, xd, &l);
	if (!rc)
		rc = write_blocks(p, c, use, &l, (size_t)xd, cols,
				  NR_STATS + 1);
	labels_free(&l, c->n);
	return rc;
}

static int prepare_ws(struct plot *p, const struct sweep_csv *c, bool *use)
{
	size_t along = (size_t)dim_index("region"), i, ny;
	int ycols[NR_STATS], cpu = -1;
	struct labels l = { 0 };
	char name[32];
	int rc;

	if (count_values(c, use, along) < 2) {
		log_err("%s: its points share one region: a working-set curve needs a sweep over regions (sweep --region LIST, e.g. 4K..1Gx2)", p->in);
		return 1;
	}
	/* the caches: --caches, or those of the CPU every point ran on */
	for (i = 0; i < c->n; i++) {
		if (!use[i])
			continue;
		if (cpu == -1)
			cpu = atoi(val(c, i, (size_t)dim_index("cpu")));
		else if (cpu != atoi(val(c, i, (size_t)dim_index("cpu"))))
			cpu = -2;
	}
	if (!p->caches)
		sysfs_caches(p, cpu >= 0 ? (unsigned int)cpu : 0);
	fprintf(p->vars, "ncaches = %zu\n", p->ncache);
	for (i = 0; i < p->ncache; i++) {
		snprintf(name, sizeof(name), "cache_%zu_name", i + 1);
		var_str(p, name, p->cache[i].name);
		snprintf(name, sizeof(name), "cache_%zu_bytes", i + 1);
		var_num(p, name, (double)p->cache[i].bytes);
	}
	var_str(p, "caches_from", p->cache_src);
	var_str(p, "stats", p->stats);
	per_vars(p, c, use);
	ny = stat_cols(p, c, ycols);
	log_range(p, "y", c, use, ycols, ny);
	rc = series_labels(p, c, use, (int)along, &l);
	if (!rc)
		rc = write_blocks(p, c, use, &l, along, c->stat_col, NR_STATS);
	labels_free(&l, c->n);
	return rc;
}

static int prepare_bars(struct plot *p, const struct sweep_csv *c, bool *use)
{
	static struct series s[MAX_SERIES];
	static char groups[MAX_SERIES][128];
	static size_t at[MAX_SERIES];	/* each series' row in a group */
	double vmax = 0;
	int gd = dim_index(p->group), st = 0;
	size_t i, k, g, ng = 0, ns = 0, nzero = 0;
	struct labels l = { 0 };
	const char *v;
	char gname[128], stat[16];
	FILE *f;
	int rc = 1;

	if (gd < 0)
		return cmd_usage_error(&plot_usage, "--group: '%s': expected one of op, pattern, size, fence, target, cpu", p->group);
	snprintf(stat, sizeof(stat), "%.*s", (int)strcspn(p->stats, " "),
		 p->stats);
	for (i = 0; i < NR_STATS; i++)
		if (!strcmp(latt_stats[i].name, stat))
			st = (int)i;
	var_str(p, "stat", stat);
	var_str(p, "group", dims[gd].name);
	ref_vars(p);
	per_vars(p, c, use);
	if (series_labels(p, c, use, gd, &l) ||
	    make_series(p, c, use, &l, s, &ns))
		goto out;
	for (k = 0; k < c->n; k++) {
		if (!use[k])
			continue;
		fmt_dim(gname, sizeof(gname), (size_t)gd, val(c, k, (size_t)gd));
		for (g = 0; g < ng && strcmp(groups[g], gname); g++)
			;
		if (g == ng && ng == MAX_SERIES) {
			log_err("%s: more than %d groups of bars: plot a part of the sweep", p->in, MAX_SERIES);
			goto out;
		}
		if (g == ng)
			snprintf(groups[ng++], sizeof(groups[0]), "%s", gname);
	}
	if (open_data(p, &f))
		goto out;
	for (g = 0; g < ng; g++) {
		fprintf(f, "\"%s\"", groups[g]);
		for (k = 0; k < ns; k++) {
			v = "-";
			at[k] = SIZE_MAX;
			for (i = 0; i < s[k].n; i++) {
				fmt_dim(gname, sizeof(gname), (size_t)gd,
					val(c, s[k].rows[i], (size_t)gd));
				if (!strcmp(gname, groups[g])) {
					v = cell(c, s[k].rows[i],
						 c->stat_col[st]);
					at[k] = s[k].rows[i];
				}
			}
			if (strcmp(v, "-") && strtod(v, NULL) <= 0)
				nzero++;
			if (strcmp(v, "-") && strtod(v, NULL) > vmax)
				vmax = strtod(v, NULL);
			if (at[k] != SIZE_MAX && c->hi &&
			    c->hi[at[k] * (size_t)c->nh + (size_t)c->stat_col[st]] > vmax)
				vmax = c->hi[at[k] * (size_t)c->nh +
					     (size_t)c->stat_col[st]];
			fprintf(f, " %s", v);
		}
		/* repeats (or intervals): each bar's least and largest */
		for (k = 0; (c->repeats > 1 || c->intervals) && k < ns; k++) {
			if (at[k] == SIZE_MAX) {
				fputs(" - -", f);
				continue;
			}
			fprint_bound(f, c, at[k], c->stat_col[st], false);
			fprint_bound(f, c, at[k], c->stat_col[st], true);
		}
		fputc('\n', f);
	}
	/* bars.gp marks bars of 0 only where there are some: gnuplot 5.4
	 * dies of a labels plot whose every point is undefined beside a
	 * histogram of one group */
	fprintf(p->vars, "nzero = %zu\n", nzero);
	/* the axis holds the bars, their error bars and the --ref lines */
	for (i = 0; i < (size_t)p->nref; i++)
		vmax = p->ref[i] > vmax ? p->ref[i] : vmax;
	var_num(p, "y_max", vmax);
	rc = close_data(p, f);
out:
	series_free(s, ns);
	labels_free(&l, c->n);
	return rc;
}

static int prepare_bw(struct plot *p, const struct sweep_csv *c, bool *use)
{
	size_t along = (size_t)dim_index(p->kind->along);
	struct labels l = { 0 };
	int rc;

	var_str(p, "xname", p->kind->along);
	var_str(p, "gbps", p->gbps);
	rc = series_labels(p, c, use, (int)along, &l);
	if (!rc)
		rc = write_blocks(p, c, use, &l, along, c->gbps_col, NR_GBPS);
	labels_free(&l, c->n);
	return rc;
}

static int prepare_latency_bw(struct plot *p, const struct sweep_csv *c,
			      bool *use, bool desc, after_blocks_fn *after);

/* loaded: blocks of the delay, total_gbps and the ns_* columns */
static int prepare_loaded(struct plot *p, const struct sweep_csv *c,
			  bool *use)
{
	return prepare_latency_bw(p, c, use, false, NULL);
}

/* ---- curves: sweep --curves' family, the idle p50 and the knees ---- */

#define MAX_IDLE_LINES	8	/* dotted idle lines, at most */
#define NOTE_NAMES	400	/* characters of curves' names in a note */

/* prepare_latency_bw()'s names of the series, for curve_knees() */
static const struct labels *curves_labels;

/* A cell as a number, NAN if empty (a figure the point can't support) */
static double cell_num(const struct sweep_csv *c, size_t row, int col)
{
	const char *v = col >= 0 ? c->fields[row][col] : "";
	char *end;
	double x;

	if (!*v || !strcmp(v, "-"))
		return NAN;
	x = strtod(v, &end);
	return *end ? NAN : x;
}

/* The median of the idle p50 over the rows of @s (NAN: none has one) */
static double series_idle(const struct sweep_csv *c, const struct series *s)
{
	struct latt_spread sp;
	double *v, x;
	size_t j, m = 0;

	if (c->idle_col < 0 || !(v = calloc(s->n, sizeof(*v))))
		return NAN;
	for (j = 0; j < s->n; j++) {
		x = cell_num(c, s->rows[j], c->idle_col);
		if (isfinite(x) && x > 0)
			v[m++] = x;
	}
	x = m && !latt_spread_of(&sp, v, m) ? sp.median : NAN;
	free(v);
	return x;
}

/* @name added to the list @buf ("a, b"), or "..." once it is full */
static void note_name(char *buf, size_t len, const char *name)
{
	size_t n = strlen(buf);

	if (n && !strcmp(buf + n - 3, "..."))
		return;
	if (n + strlen(name) + 2 >= NOTE_NAMES || n + strlen(name) + 6 >= len) {
		snprintf(buf + n, len - n, "%s...", n ? ", " : "");
		return;
	}
	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", name[0] ? name :
		 "the curve");
}

/* "21.5", "0.18", "105": a bandwidth for a knee's label */
static void fmt_gbps(char *buf, size_t len, double v)
{
	snprintf(buf, len, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
}

/*
 * The drawn statistic a knee sits on: p50 if --stat has it, else the
 * first of --stat (where the point has it; else p50).
 */
static int knee_col(const struct plot *p, const struct sweep_csv *c,
		    size_t row)
{
	char first[16];
	int i;

	if (stat_drawn(p, "p50"))
		return c->stat_col[STAT_P50];
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(p->stats, " "),
		 p->stats);
	for (i = 0; i < NR_STATS; i++)
		if (!strcmp(latt_stats[i].name, first) &&
		    isfinite(cell_num(c, row, c->stat_col[i])))
			return c->stat_col[i];
	return c->stat_col[STAT_P50];
}

/*
 * After the curves' blocks: each curve's knee (curve_knee(), on its rows
 * in the blocks' order, the least traffic first), a block of "gbps ns
 * series label" rows that curves.gp marks; the idle lines (idle_K,
 * idle_K_label); and the notes: what a knee is, the curves without one
 * and why, the curves without an idle p50.
 */
static int curve_knees(struct plot *p, const struct sweep_csv *c,
		       const struct series *s, size_t ns, FILE *f)
{
	char never[NOTE_NAMES + 8] = "", above[NOTE_NAMES + 8] = "";
	char unknown[NOTE_NAMES + 8] = "", no_idle[NOTE_NAMES + 8] = "";
	char name[32], text[600], group[300], gb[32];
	double idle[MAX_SERIES], lines[MAX_IDLE_LINES], *p50;
	size_t k, j, d, nknees = 0, nidle = 0, nlines = 0, lost = 0;
	struct labels gl = { 0 };
	struct curve_knee kn;
	const char *base;
	size_t row;
	double gbps;
	long at;

	/* the idle p50 of each curve; one line per value */
	for (k = 0; k < ns; k++) {
		idle[k] = series_idle(c, &s[k]);
		if (!isfinite(idle[k])) {
			note_name(no_idle, sizeof(no_idle), s[k].key);
			continue;
		}
		nidle++;
		for (j = 0; j < nlines && lines[j] != idle[k]; j++)
			;
		if (j < nlines)
			continue;
		if (nlines == MAX_IDLE_LINES) {
			lost++;
			continue;
		}
		lines[nlines++] = idle[k];
	}
	/* a line per group of curves (what tells them apart but their
	 * traffic: target, cpu, op, ...), named so where there are more */
	for (d = 0; d < NR_DIMS; d++)
		gl.mask[d] = curves_labels->mask[d] &&
			     strcmp(dims[d].name, "mix") &&
			     strcmp(dims[d].name, "threads");
	for (j = 0; j < nlines; j++) {
		for (k = 0; k < ns && idle[k] != lines[j]; k++)
			;
		make_label(group, sizeof(group), c, s[k].rows[0], &gl);
		if (nlines == 1)
			snprintf(text, sizeof(text), "idle p50");
		else if (group[0])
			snprintf(text, sizeof(text), "idle p50, %s", group);
		else
			snprintf(text, sizeof(text), "idle p50 of %s", s[k].key);
		snprintf(name, sizeof(name), "idle_%zu", j + 1);
		var_num(p, name, lines[j]);
		snprintf(name, sizeof(name), "idle_%zu_label", j + 1);
		var_str(p, name, text);
	}
	fprintf(p->vars, "nidle = %zu\n", nlines);
	if (lost)
		log_warn("%s: %zu more idle latencies not drawn: %d lines at most",
			 p->in, lost, MAX_IDLE_LINES);

	/* the knees, each against its curve's idle p50, or least p50 */
	base = !nidle ? "its curve's least p50" : nidle == ns ? "the idle p50" :
	       "the idle p50 (or, without one, its curve's least p50)";
	fputs("# knees: gbps ns series label\n", f);
	for (k = 0; k < ns; k++) {
		p50 = calloc(s[k].n ? s[k].n : 1, sizeof(*p50));
		if (!p50) {
			log_err("out of memory");
			return 1;
		}
		for (j = 0; j < s[k].n; j++)
			p50[j] = cell_num(c, s[k].rows[j], c->stat_col[STAT_P50]);
		at = curve_knee(p50, s[k].n, idle[k], &kn);
		free(p50);
		snprintf(text, sizeof(text), "%s%s", s[k].key,
			 s[k].key[0] ? ": " : "");
		switch (kn.kind) {
		case CURVE_KNEE:
			break;
		case CURVE_NO_SATURATION:
			note_name(never, sizeof(never), s[k].key);
			log_info("%s: %sno knee: every p50 within %gx %s (%.1f ns)",
				 p->in, text, CURVE_KNEE_FACTOR, kn.from_idle ?
				 "the idle p50" : "the curve's least p50",
				 kn.base);
			continue;
		case CURVE_SATURATED:
			note_name(above, sizeof(above), s[k].key);
			log_info("%s: %sno knee: every p50 above %gx the idle p50 (%.1f ns)",
				 p->in, text, CURVE_KNEE_FACTOR, kn.base);
			continue;
		case CURVE_UNKNOWN:
			note_name(unknown, sizeof(unknown), s[k].key);
			log_info("%s: %sno knee: no p50 to judge by", p->in,
				 text);
			continue;
		}
		row = s[k].rows[at];
		gbps = cell_num(c, row, c->gbps_col[0]);
		if (!isfinite(gbps)) {
			note_name(unknown, sizeof(unknown), s[k].key);
			continue;
		}
		fmt_gbps(gb, sizeof(gb), gbps);
		log_info("%s: %sknee at %s GB/s, delay %s cycles: p50 %.1f ns, within %gx %s (%.1f ns); every point of more traffic above",
			 p->in, text, gb, val(c, row, (size_t)dim_index("delay")),
			 cell_num(c, row, c->stat_col[STAT_P50]),
			 CURVE_KNEE_FACTOR, kn.from_idle ? "the idle p50" :
			 "the curve's least p50", kn.base);
		fprintf(f, "%s %s %zu \"knee %s GB/s\"\n",
			cell(c, row, c->gbps_col[0]),
			cell(c, row, knee_col(p, c, row)), k + 1, gb);
		nknees++;
	}
	fprintf(p->vars, "nknees = %zu\n", nknees);
	if (nknees) {
		snprintf(text, sizeof(text), "knee (circled): the last point, from the least traffic on, whose p50 is within %gx %s; every point after it is above (saturated)",
			 CURVE_KNEE_FACTOR, base);
		var_str(p, "knee_note", text);
	}
	if (never[0]) {
		snprintf(text, sizeof(text), "no knee, every p50 within %gx %s (not saturated at these delays): %s",
			 CURVE_KNEE_FACTOR, base, never);
		var_str(p, "never_note", text);
	}
	if (above[0]) {
		snprintf(text, sizeof(text), "no knee, every p50 above %gx the idle p50 (saturated from the least traffic on): %s",
			 CURVE_KNEE_FACTOR, above);
		var_str(p, "above_note", text);
	}
	if (unknown[0]) {
		snprintf(text, sizeof(text), "no knee, no p50 (or bandwidth) to judge by: %s",
			 unknown);
		var_str(p, "unknown_note", text);
	}
	if (!nidle)
		var_str(p, "idle_note", c->idle_col < 0 ?
			"no idle line: the file has no idle_ns_p50 (layout 7 or older)" :
			"no idle line: no row has an idle_ns_p50 (a sweep without --curves)");
	if (nidle && no_idle[0]) {
		snprintf(text, sizeof(text), "no idle p50 (no idle line) for: %s",
			 no_idle);
		var_str(p, "idle_note", text);
	}
	return 0;
}

/*
 * Latency against bandwidth (loaded, curves): blocks of the delay,
 * total_gbps and the ns_* columns, a line per series, the smallest delay
 * first (@desc: the largest); then @after's, if any, which may look at
 * the series' names in curves_labels meanwhile.
 */
/*
 * The points drawn whose traffic streamed less than duty_min_pct() of
 * the run's time (duty_cycle, layout 7: duty.h's duty_low(), the run's warning
 * said it was disturbed): their GB/s fell short of what the delay asked,
 * and the curve lies left of where it would.  A note says how many.
 */
static void disturbed_note(struct plot *p, const struct sweep_csv *c,
			   const bool *use)
{
	size_t i, n = 0, m = 0;
	double d, least = 1;
	char text[320];

	for (i = 0; i < c->n; i++) {
		if (!use[i])
			continue;
		m++;
		d = cell_num(c, i, c->duty_col);
		if (isfinite(d) && duty_low(d)) {
			n++;
			least = d < least ? d : least;
		}
	}
	if (!n)
		return;
	snprintf(text, sizeof(text), "disturbed: %zu of %zu points' traffic streamed less than %d%% of the run (duty cycle; the least %.0f%%): its threads lost their CPUs, and the GB/s fall short",
		 n, m, duty_min_pct(), 100 * least);
	var_str(p, "disturbed_note", text);
}

static int prepare_latency_bw(struct plot *p, const struct sweep_csv *c,
			      bool *use, bool desc, after_blocks_fn *after)
{
	size_t along = (size_t)dim_index(p->kind->along), ny;
	int cols[1 + NR_STATS], ycols[NR_STATS];
	struct labels l = { 0 };
	int rc;

	disturbed_note(p, c, use);
	cols[0] = c->gbps_col[0];	/* total_gbps */
	memcpy(cols + 1, c->stat_col, sizeof(c->stat_col));
	var_str(p, "stats", p->stats);
	per_vars(p, c, use);
	ny = stat_cols(p, c, ycols);
	log_range(p, "y", c, use, ycols, ny);
	rc = series_labels(p, c, use, (int)along, &l);
	curves_labels = &l;
	if (!rc)
		rc = write_blocks_of(p, c, use, &l, along, cols, 1 + NR_STATS,
				     desc, after);
	curves_labels = NULL;
	labels_free(&l, c->n);
	return rc;
}

/*
 * curves: as loaded, a curve per mix (and whatever else varies but the
 * delay), the largest delay first; then the knees (curve_knees()).
 */
static int prepare_curves(struct plot *p, const struct sweep_csv *c,
			  bool *use)
{
	return prepare_latency_bw(p, c, use, true, curve_knees);
}

/* Has @c the columns the modes brought (mode, threads, ..., total_gbps)? */
static bool has_mode_columns(const struct sweep_csv *c)
{
	size_t i;

	for (i = 0; i < NR_DIMS; i++)
		if ((dims[i].flags & DIM_MODE) && c->dim_col[i] < 0)
			return false;
	for (i = 0; i < NR_GBPS; i++)
		if (c->gbps_col[i] < 0)
			return false;
	return true;
}

/*
 * The rows of a sweep CSV the kind draws, into @use: those of its mode
 * ("!bandwidth": of any other mode).  1, said, if there are none.
 */
static int select_rows(struct plot *p, const struct sweep_csv *c, bool *use)
{
	const char *mode = p->kind->mode, *how = NULL;
	bool other = mode[0] == '!';
	int md = dim_index("mode");
	size_t i, n = 0;

	mode += other;
	/* curves: the loaded rows sweep --curves writes */
	if (p->kind->prepare == prepare_curves)
		how = "--curves (or --mode loaded)";
	if (!other && !has_mode_columns(c)) {
		log_err("no %s rows in %s (it lacks the columns of the modes: mode, threads, ..., total_gbps): sweep with %s%s",
			mode, p->in, how ? how : "--mode ", how ? "" : mode);
		return 1;
	}
	for (i = 0; i < c->n; i++) {
		/* a repeat is drawn as part of its point's first row */
		use[i] = !strcmp(val(c, i, (size_t)md), mode) != other &&
			 (!c->nrep || c->nrep[i]);
		n += use[i];
	}
	if (n)
		return 0;
	if (other)
		log_err("no latency rows in %s (only %s rows): plot them with bw-threads or bw-size", p->in, mode);
	else
		log_err("no %s rows in %s: sweep with %s%s", mode, p->in,
			how ? how : "--mode ", how ? "" : mode);
	return 1;
}

static int prepare_csv(struct plot *p, const struct sweep_csv *c)
{
	bool *use = calloc(c->n, sizeof(*use));
	int rc;

	if (!use) {
		log_err("out of memory");
		return 1;
	}
	rc = select_rows(p, c, use);
	if (!rc)
		rc = p->kind->prepare(p, c, use);
	free(use);
	return rc;
}

/* ---- matrix: a matrix --json or --csv file ---- */

#define MATRIX_SCHEMA	"lattester-matrix/1"	/* what cmd-matrix.c writes */
#define MAX_NODES	64	/* rows, and columns, of a matrix */
#define MAX_FAILED_NOTES 6	/* failed cells named under the plot */
#define REASON_MAX	80	/* characters of a reason shown there */

/* What a cell shows: the data's state column (matrix.gp) */
enum mx_state {
	MX_MEASURED = 1,	/* the colour of its value, and the value */
	MX_FAILED,		/* grey, "-": never a 0 */
	MX_UNMEASURED,		/* light grey, ".": an interrupted matrix */
	MX_NO_FIGURE,		/* measured, without the --stat figure */
};

struct mx_cell {
	bool set;
	enum mx_state state;
	double v;
	char *reason;
};

/*
 * A matrix as read: the rows (a node, the CPU measured from), the columns
 * (a node, and what marks it: " (no CPU)"), the cells at
 * cell[row * MAX_NODES + column].
 */
struct mx {
	bool csv;
	size_t nrows, ncols;
	unsigned int row_node[MAX_NODES], row_cpu[MAX_NODES];
	unsigned int col_node[MAX_NODES];
	const char *col_mark[MAX_NODES];
	struct mx_cell *cell;
	char stat[16];		/* the figure drawn (a stat name) */
	char per[16];		/* "load", "access" */
	unsigned int chain;	/* 0: not known (a --csv file) */
	char subtitle[512];
};

static struct mx_cell *mx_at(struct mx *m, size_t r, size_t k)
{
	return &m->cell[r * MAX_NODES + k];
}

static void mx_free(struct mx *m)
{
	size_t i;

	for (i = 0; m->cell && i < (size_t)MAX_NODES * MAX_NODES; i++)
		free(m->cell[i].reason);
	free(m->cell);
}

/* The row of @node (or a new one, if @add); -1, said, if none. */
static int mx_row(struct plot *p, struct mx *m, unsigned int node,
		  unsigned int cpu, bool add)
{
	size_t r;

	for (r = 0; r < m->nrows; r++)
		if (m->row_node[r] == node)
			return (int)r;
	if (!add) {
		log_err("%s: a cell of node %u, which is no row", p->in, node);
		return -1;
	}
	if (m->nrows == MAX_NODES) {
		log_err("%s: more than %d rows", p->in, MAX_NODES);
		return -1;
	}
	m->row_node[m->nrows] = node;
	m->row_cpu[m->nrows] = cpu;
	return (int)m->nrows++;
}

static int mx_col(struct plot *p, struct mx *m, unsigned int node, bool add)
{
	size_t k;

	for (k = 0; k < m->ncols; k++)
		if (m->col_node[k] == node)
			return (int)k;
	if (!add) {
		log_err("%s: a cell of memory node %u, which is no column",
			p->in, node);
		return -1;
	}
	if (m->ncols == MAX_NODES) {
		log_err("%s: more than %d columns", p->in, MAX_NODES);
		return -1;
	}
	m->col_node[m->ncols] = node;
	m->col_mark[m->ncols] = "";
	return (int)m->ncols++;
}

/*
 * Cell (@node, @mem) of state @state ("measured", ...): @v its figure
 * (@has_v: there is one), @reason why it failed.
 */
static int mx_put(struct plot *p, struct mx *m, unsigned int node,
		  unsigned int cpu, unsigned int mem, const char *state,
		  bool has_v, double v, const char *reason, bool add)
{
	int r = mx_row(p, m, node, cpu, add), k;
	struct mx_cell *c;

	if (r < 0)
		return 1;
	k = mx_col(p, m, mem, add);
	if (k < 0)
		return 1;
	c = mx_at(m, (size_t)r, (size_t)k);
	if (c->set) {
		log_err("%s: the cell node %u -> node %u twice", p->in, node,
			mem);
		return 1;
	}
	c->set = true;
	if (!strcmp(state, "measured")) {
		c->state = has_v ? MX_MEASURED : MX_NO_FIGURE;
		c->v = v;
	} else if (!strcmp(state, "failed")) {
		c->state = MX_FAILED;
	} else if (!strcmp(state, "interrupted") ||
		   !strcmp(state, "not_measured")) {
		c->state = MX_UNMEASURED;
	} else {
		log_err("%s: the cell node %u -> node %u: unknown state '%s'",
			p->in, node, mem, state);
		return 1;
	}
	if (reason && *reason) {
		c->reason = strdup(reason);
		if (!c->reason) {
			log_err("out of memory");
			return 1;
		}
	}
	return 0;
}

/* ---- matrix --json ---- */

static struct json_object *jget(struct json_object *o, const char *key)
{
	return o && json_object_is_type(o, json_type_object) &&
	       json_object_object_get_ex(o, key, &o) ? o : NULL;
}

/* @o's member @key if it is an array, or NULL */
static struct json_object *jarr(struct json_object *o, const char *key)
{
	o = jget(o, key);
	return o && json_object_is_type(o, json_type_array) ? o : NULL;
}

static const char *jstr(struct json_object *o, const char *key)
{
	o = jget(o, key);
	return o && json_object_is_type(o, json_type_string) ?
	       json_object_get_string(o) : NULL;
}

/* @o's member @key (or @o itself, @key NULL), a number, into @v. */
static bool jnum(struct json_object *o, const char *key, double *v)
{
	if (key)
		o = jget(o, key);
	if (!o || (!json_object_is_type(o, json_type_double) &&
		   !json_object_is_type(o, json_type_int)))
		return false;
	*v = json_object_get_double(o);
	return true;
}

static bool jnode(struct json_object *o, const char *key, unsigned int *n)
{
	double v;

	if (!jnum(o, key, &v) || v < 0 || v > 1e6 || v != (unsigned int)v)
		return false;
	*n = (unsigned int)v;
	return true;
}

/* Does cell @o have figure @stat ("p99.99") of its latency, into @v? */
static bool cell_figure(struct json_object *o, const char *stat, double *v)
{
	struct json_object *lat = jget(o, "latency");
	struct json_object *un = jarr(lat, "unsupported");
	const char *s;
	size_t i;

	for (i = 0; un && i < json_object_array_length(un); i++) {
		s = json_object_get_string(json_object_array_get_idx(un, i));
		if (s && !strcmp(s, stat))
			return false;
	}
	return jnum(jget(lat, "ns"), stat, v);
}

/* "load, chase, 16 dependent loads per sample, 64 B, region 1 GiB, ..." */
static void json_subtitle(struct mx *m, struct json_object *o)
{
	struct json_object *cfg = jget(o, "config");
	const char *op = jstr(cfg, "op"), *fence = jstr(cfg, "fence");
	const char *pattern = jstr(cfg, "pattern"), *engine = jstr(cfg, "engine");
	const char *host = jstr(jget(o, "provenance"), "hostname");
	struct latt_config c = { 0 };
	char pat[128], size[32], region[32];
	double v;
	int pv = pattern ? latt_value(NAMES_PATTERN, pattern) : -1;
	size_t n = 0, len = sizeof(m->subtitle);
	char *b = m->subtitle;

	if (pv >= 0) {
		c.pattern = (__u32)pv;
		if (c.pattern == LATT_PAT_STRIDE && jnum(cfg, "stride", &v))
			c.stride = (__u64)v;
		else if (c.pattern == LATT_PAT_HOTSPOT &&
			 jnum(cfg, "hotspot", &v))
			c.stride = (__u64)v;
		else if (c.pattern == LATT_PAT_CHASE &&
			 jnum(cfg, "tlb_locality", &v))
			c.stride = (__u64)v;
		c.chain = m->chain;
		fmt_pattern(pat, sizeof(pat), &c);
	} else {
		snprintf(pat, sizeof(pat), "%s", pattern ? pattern : "?");
	}
	fmt_bytes(size, sizeof(size), jnum(cfg, "size", &v) ? (__u64)v : 0);
	fmt_bytes(region, sizeof(region),
		  jnum(cfg, "region", &v) ? (__u64)v : 0);
	n += snprintf(b + n, len - n, "%s", op ? op : "?");
	if (fence && strcmp(fence, "default") && n < len)
		n += snprintf(b + n, len - n, ", fence %s", fence);
	if (n < len)
		n += snprintf(b + n, len - n, ", %s, %s, region %s", pat, size,
			      region);
	if (jnum(cfg, "samples", &v) && n < len)
		n += snprintf(b + n, len - n, ", %.0f samples", v);
	if (engine && n < len)
		n += snprintf(b + n, len - n, ", %s engine", engine);
	if (json_object_get_boolean(jget(cfg, "hugepages")) && n < len)
		n += snprintf(b + n, len - n, ", huge pages (--hugepages)");
	if (json_object_get_boolean(jget(cfg, "warm")) && n < len)
		n += snprintf(b + n, len - n, ", warm");
	if (host && *host && n < len)
		snprintf(b + n, len - n, ", host %s", host);
}

static int matrix_json(struct plot *p, struct mx *m, const char *buf)
{
	enum json_tokener_error err;
	struct json_object *o = json_tokener_parse_verbose(buf, &err);
	struct json_object *cfg, *a, *e, *nodes;
	const char *schema, *s, *file_stat;
	unsigned int node, cpu, mem;
	bool has_v;
	double v;
	size_t i, j, k;
	int rc = 1;

	if (!o) {
		log_err("%s: not %s (not JSON: %s)", p->in, p->kind->what,
			json_tokener_error_desc(err));
		return 1;
	}
	schema = jstr(o, "schema");
	if (!schema || strcmp(schema, MATRIX_SCHEMA)) {
		log_err("%s: not %s (%s%s): plot matrix reads %s", p->in,
			p->kind->what, schema ? "its schema is " :
			"no \"schema\"", schema ? schema : "", MATRIX_SCHEMA);
		goto out;
	}
	cfg = jget(o, "config");
	file_stat = jstr(cfg, "stat");
	if (!p->stat_arg && file_stat && is_stat(file_stat))
		snprintf(m->stat, sizeof(m->stat), "%s", file_stat);
	snprintf(m->per, sizeof(m->per), "%s",
		 jstr(cfg, "per") ? jstr(cfg, "per") : "access");
	m->chain = jnum(cfg, "chain", &v) && v >= 1 && v < 1e6 ?
		   (unsigned int)v : 0;
	/* the rows and the columns in their order */
	a = jarr(o, "rows");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		e = json_object_array_get_idx(a, i);
		if (!jnode(e, "node", &node) || !jnode(e, "cpu", &cpu))
			goto bad;
		if (mx_row(p, m, node, cpu, true) < 0)
			goto out;
	}
	a = jarr(o, "columns");
	nodes = jarr(o, "nodes");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		if (!jnode(json_object_array_get_idx(a, i), NULL, &mem))
			goto bad;
		if (mx_col(p, m, mem, true) < 0)
			goto out;
		k = m->ncols - 1;
		/* a node without a CPU: a CXL expander, a memory-only node */
		m->col_mark[k] = nodes ? " (no such node)" : "";
		for (j = 0; nodes && j < json_object_array_length(nodes); j++) {
			e = json_object_array_get_idx(nodes, j);
			if (!jnode(e, "node", &node) || node != mem)
				continue;
			s = jstr(e, "cpus");
			m->col_mark[k] = s && !*s ? " (no CPU)" : "";
		}
	}
	a = jarr(o, "cells");
	if (!m->nrows || !m->ncols || !a)
		goto bad;
	for (i = 0; i < json_object_array_length(a); i++) {
		e = json_object_array_get_idx(a, i);
		s = jstr(e, "state");
		if (!s || !jnode(e, "node", &node) ||
		    !jnode(e, "mem_node", &mem))
			goto bad;
		if (file_stat && !strcmp(m->stat, file_stat))
			has_v = jnum(e, "value", &v);
		else
			has_v = cell_figure(e, m->stat, &v);
		if (mx_put(p, m, node, 0, mem, s, has_v, v, jstr(e, "reason"),
			   false))
			goto out;
	}
	json_subtitle(m, o);
	rc = 0;
	goto out;
bad:
	log_err("%s: not %s (its rows, columns or cells are not those of %s)",
		p->in, p->kind->what, MATRIX_SCHEMA);
out:
	json_object_put(o);
	return rc;
}

/* ---- matrix --csv ---- */

enum { MC_NODE, MC_CPU, MC_MEM, MC_STATE, MC_STAT, MC_VALUE, MC_PER,
       MC_SAMPLES, MC_REASON, NR_MC };
static const char *const mc_names[NR_MC] = {
	"node", "cpu", "mem_node", "state", "stat", "value_ns", "per",
	"samples", "reason",
};

static int matrix_csv(struct plot *p, struct mx *m, FILE *f)
{
	char *line = NULL, *hdr_line = NULL, *hdr[CSV_MAX_FIELDS];
	char *fl[CSV_MAX_FIELDS], *end;
	int nh = -1, n, col[NR_MC], stat_col = -1, rc = 1, i;
	__u32 node, cpu, mem;
	const char *v;
	char name[32], samples[32] = "";
	bool same_samples = true, has_v;
	double x;
	size_t cap = 0;

	m->csv = true;
	while (getline(&line, &cap, f) > 0) {
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		line[strcspn(line, "\r\n")] = '\0';
		if (nh < 0) {
			nh = csv_split(line, hdr, CSV_MAX_FIELDS);
			for (i = 0; i < NR_MC; i++)
				col[i] = nh > 0 ? csv_column(hdr, nh, mc_names[i]) :
					 -1;
			snprintf(name, sizeof(name), "ns_%.15s", m->stat);
			stat_col = nh > 0 ? csv_column(hdr, nh, name) : -1;
			for (i = 0; i < NR_MC; i++)
				if (col[i] < 0 && i != MC_REASON)
					nh = -2;
			if (nh < 0 || stat_col < 0) {
				log_err("%s: not %s (its header lacks columns)",
					p->in, p->kind->what);
				goto out;
			}
			hdr_line = line;	/* hdr points into it: keep it */
			line = NULL;
			cap = 0;
			continue;
		}
		n = csv_split(line, fl, CSV_MAX_FIELDS);
		if (n != nh)
			continue;	/* a cut row: its cell is missing */
		if (parse_u32(fl[col[MC_NODE]], &node) ||
		    parse_u32(fl[col[MC_CPU]], &cpu) ||
		    parse_u32(fl[col[MC_MEM]], &mem)) {
			log_err("%s: not %s (a row without its nodes)", p->in,
				p->kind->what);
			goto out;
		}
		if (!p->stat_arg && !m->nrows && is_stat(fl[col[MC_STAT]])) {
			snprintf(m->stat, sizeof(m->stat), "%s",
				 fl[col[MC_STAT]]);
			snprintf(name, sizeof(name), "ns_%.15s", m->stat);
			stat_col = csv_column(hdr, nh, name);
			if (stat_col < 0) {
				log_err("%s: not %s (no column %s)", p->in,
					p->kind->what, name);
				goto out;
			}
		}
		if (!m->nrows)
			snprintf(m->per, sizeof(m->per), "%s", fl[col[MC_PER]]);
		/* the --stat figure: value_ns if it is the file's, or ns_* */
		v = strcmp(fl[col[MC_STAT]], m->stat) ? fl[stat_col] :
		    fl[col[MC_VALUE]];
		x = strtod(v, &end);
		has_v = *v && !*end;
		if (mx_put(p, m, node, cpu, mem, fl[col[MC_STATE]], has_v, x,
			   col[MC_REASON] >= 0 ? fl[col[MC_REASON]] : NULL,
			   true))
			goto out;
		v = fl[col[MC_SAMPLES]];
		if (*v && !samples[0])
			snprintf(samples, sizeof(samples), "%s", v);
		else if (*v && strcmp(samples, v))
			same_samples = false;
	}
	if (nh < 0) {
		log_err("%s: empty: no header", p->in);
		goto out;
	}
	if (samples[0] && same_samples)
		snprintf(m->subtitle, sizeof(m->subtitle), "%s samples a cell",
			 samples);
	rc = 0;
out:
	free(line);
	free(hdr_line);
	return rc;
}

/* ---- matrix: the data and variables matrix.gp reads ---- */

/* "92.4 ns", "12.3 µs": a cell's figure, one decimal as matrix prints it */
static void fmt_cell(char *buf, size_t len, double ns)
{
	if (ns >= 1e7)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else if (ns >= 1e4)
		snprintf(buf, len, "%.1f \xc2\xb5s", ns / 1e3);
	else
		snprintf(buf, len, "%.1f ns", ns);
}

static int matrix_emit(struct plot *p, struct mx *m)
{
	static const char *const label[] = { "", "", "-", ".", "n/a" };
	static const char *const caption[] = { "", "", "failed", "not measured",
						"too few samples" };
	size_t r, k, nf = 0, nu = 0, nn = 0, nnotes = 0, measured = 0;
	double lo = 0, hi = 0;
	char name[32], text[64], note[512];
	struct mx_cell *c;
	FILE *f;

	for (r = 0; r < m->nrows; r++) {
		for (k = 0; k < m->ncols; k++) {
			c = mx_at(m, r, k);
			if (!c->set) {
				log_err("%s: not a whole matrix: the cell node %u -> node %u is missing", p->in,
					m->row_node[r], m->col_node[k]);
				return 1;
			}
			if (c->state != MX_MEASURED)
				continue;
			if (!measured++ || c->v < lo)
				lo = c->v;
			if (measured == 1 || c->v > hi)
				hi = c->v;
		}
	}
	if (!measured) {
		log_err("%s: nothing to plot (no cell with a %s figure)", p->in,
			m->stat);
		return 1;
	}
	fprintf(p->vars, "nrows = %zu\nncols = %zu\n", m->nrows, m->ncols);
	for (r = 0; r < m->nrows; r++) {
		snprintf(name, sizeof(name), "row_%zu", r + 1);
		snprintf(text, sizeof(text), "node %u (cpu %u)", m->row_node[r],
			 m->row_cpu[r]);
		var_str(p, name, text);
	}
	for (k = 0; k < m->ncols; k++) {
		snprintf(name, sizeof(name), "col_%zu", k + 1);
		snprintf(text, sizeof(text), "node %u%s", m->col_node[k],
			 m->col_mark[k]);
		var_str(p, name, text);
	}
	var_str(p, "stat", m->stat);
	var_str(p, "per", m->per);
	var_num(p, "chain", m->per[0] == 'l' ? m->chain : 0);
	var_num(p, "v_min", lo);
	var_num(p, "v_max", hi);
	if (!p->title)
		var_str(p, "subtitle", m->subtitle);
	/* the notes: each failed cell and why (the first few), the rest */
	for (r = 0; r < m->nrows; r++) {
		for (k = 0; k < m->ncols; k++) {
			c = mx_at(m, r, k);
			nf += c->state == MX_FAILED;
			nu += c->state == MX_UNMEASURED;
			nn += c->state == MX_NO_FIGURE;
			if (c->state != MX_FAILED || nf > MAX_FAILED_NOTES)
				continue;
			snprintf(note, sizeof(note), "failed (grey, -): node %u (cpu %u) -> node %u: %.*s%s", m->row_node[r],
				 m->row_cpu[r], m->col_node[k], REASON_MAX,
				 c->reason ? c->reason : "(no reason given)",
				 c->reason && strlen(c->reason) > REASON_MAX ?
				 "..." : "");
			snprintf(name, sizeof(name), "note_%zu", ++nnotes);
			var_str(p, name, note);
		}
	}
	if (nf > MAX_FAILED_NOTES) {
		snprintf(note, sizeof(note), "and %zu more failed cells (grey, -): the file's reasons say why",
			 nf - MAX_FAILED_NOTES);
		snprintf(name, sizeof(name), "note_%zu", ++nnotes);
		var_str(p, name, note);
	}
	if (nu) {
		snprintf(note, sizeof(note), "not measured (light grey, .): %zu cell%s: the matrix was interrupted", nu,
			 nu == 1 ? "" : "s");
		snprintf(name, sizeof(name), "note_%zu", ++nnotes);
		var_str(p, name, note);
	}
	if (nn) {
		snprintf(note, sizeof(note), "no %s figure (light grey, n/a): %zu cell%s measured with too few samples", m->stat,
			 nn, nn == 1 ? "" : "s");
		snprintf(name, sizeof(name), "note_%zu", ++nnotes);
		var_str(p, name, note);
	}
	if (m->csv) {
		snprintf(note, sizeof(note), "a matrix --csv file says neither which nodes have no CPU nor the op, pattern and region: its --json file does");
		snprintf(name, sizeof(name), "note_%zu", ++nnotes);
		var_str(p, name, note);
	}
	fprintf(p->vars, "nnotes = %zu\n", nnotes);
	if (open_data(p, &f))
		return 1;
	fprintf(f, "# col row state value label caption\n");
	for (r = 0; r < m->nrows; r++) {
		for (k = 0; k < m->ncols; k++) {
			c = mx_at(m, r, k);
			if (c->state == MX_MEASURED) {
				fmt_cell(text, sizeof(text), c->v);
				fprintf(f, "%zu %zu %d %.3f \"%s\" \"\"\n", k, r,
					c->state, c->v, text);
			} else {
				fprintf(f, "%zu %zu %d - \"%s\" \"%s\"\n", k, r,
					c->state, label[c->state],
					caption[c->state]);
			}
		}
	}
	return close_data(p, f);
}

/* A matrix --json or --csv file (by its first character: '{', JSON). */
static int read_matrix(struct plot *p)
{
	struct mx m = { 0 };
	FILE *f = fopen(p->in, "re");
	char *buf = NULL;
	size_t cap = 0;
	int ch, rc;

	if (!f) {
		log_err("%s: %s", p->in, strerror(errno));
		return 1;
	}
	m.cell = calloc((size_t)MAX_NODES * MAX_NODES, sizeof(*m.cell));
	if (!m.cell) {
		fclose(f);
		log_err("out of memory");
		return 1;
	}
	snprintf(m.stat, sizeof(m.stat), "%.15s", p->stats);
	snprintf(m.per, sizeof(m.per), "access");
	while ((ch = getc(f)) != EOF && strchr(" \t\r\n", ch))
		;
	rewind(f);
	if (ch == '{') {
		if (getdelim(&buf, &cap, '\0', f) < 0 && ferror(f)) {
			log_err("%s: %s", p->in, strerror(errno));
			rc = 1;
		} else {
			rc = matrix_json(p, &m, buf ? buf : "");
		}
		free(buf);
	} else {
		rc = matrix_csv(p, &m, f);
	}
	fclose(f);
	if (!rc)
		rc = matrix_emit(p, &m);
	mx_free(&m);
	return rc;
}

/* ---- gnuplot ---- */

/* The gnuplot to run: $LATTESTER_GNUPLOT, or the first in $PATH. */
static int find_gnuplot(char *buf, size_t len)
{
	const char *env = getenv(GNUPLOT_ENV), *path = getenv("PATH");
	const char *p, *end;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return access(buf, X_OK) ? -errno : 0;
	}
	for (p = path && *path ? path : "/usr/bin:/bin"; *p; p = end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		snprintf(buf, len, "%.*s/gnuplot", (int)(end - p), p);
		if (end > p && !access(buf, X_OK))
			return 0;
		if (*end)
			end++;
	}
	return -ENOENT;
}

/* The script: $LATTESTER_PLOTS/KIND.gp, or the built-in copy. */
static char *load_script(const struct plot *p)
{
	const char *dir = getenv(PLOTS_ENV);
	char path[PATH_MAX], *buf;
	FILE *f;
	long n;

	if (!dir || !*dir)
		return strdup(p->kind->script);
	snprintf(path, sizeof(path), "%s/%s.gp", dir,
		 p->kind->gp ? p->kind->gp : p->kind->name);
	f = fopen(path, "re");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		log_err("%s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
		log_err("%s: read error", path);
	}
	fclose(f);
	return buf;
}

static int run_gnuplot(struct plot *p, const char *gnuplot)
{
	char script[PATH_MAX], *body;
	const char *tmp = getenv("TMPDIR");
	struct stat st;
	FILE *f;
	pid_t pid;
	int fd, status, rc = 1;

	body = load_script(p);
	if (!body)
		return 1;
	snprintf(script, sizeof(script), "%s/lattester-plot-XXXXXX.gp",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemps(script, 3);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		log_err("%s: %s", script, strerror(errno));
		free(body);
		return 1;
	}
	fprintf(f, "%s", p->vars_buf);
	if (p->svg)
		fprintf(f, "set terminal svg size %u,%u dynamic noenhanced font 'sans,12' background rgb 'white'\n", p->w, p->h);
	else
		fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			"  set terminal pngcairo size %u,%u noenhanced font 'sans,10'\n} else {\n  set terminal png size %u,%u noenhanced\n}\n", p->w, p->h, p->w, p->h);
	fputs("set output ", f);
	fclose(f);
	/* the output's name through var_str's quoting, then the script */
	f = fopen(script, "ae");
	if (!f) {
		log_err("%s: %s", script, strerror(errno));
		goto out;
	}
	fputc('\'', f);
	for (const char *c = p->out; *c; c++) {
		if (*c == '\'')
			fputc('\'', f);
		fputc(*c, f);
	}
	fprintf(f, "'\n%s\nunset output\n", body);
	if (fclose(f)) {
		log_err("%s: %s", script, strerror(errno));
		goto out;
	}
	unlink(p->out);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		log_err("fork: %s", strerror(errno));
		goto out;
	}
	if (!pid) {
		execl(gnuplot, "gnuplot", script, (char *)NULL);
		fprintf(stderr, "%s plot: %s: %s\n", LATT_PROG, gnuplot,
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		log_err("gnuplot failed (%s %d) on %s", WIFEXITED(status) ?
			"exit status" : "signal", WIFEXITED(status) ?
			WEXITSTATUS(status) : WTERMSIG(status), p->in);
		goto out;
	}
	if (stat(p->out, &st) || !st.st_size) {
		log_err("%s: gnuplot wrote nothing", p->out);
		goto out;
	}
	rc = 0;
out:
	if (rc && getenv("LATTESTER_PLOT_KEEP"))
		log_err("script kept in %s", script);
	else
		unlink(script);
	free(body);
	return rc;
}

int cmd_plot(int argc, char **argv, const struct cmd_ctx *ctx)
{
	struct sweep_csv csv = { 0 };
	char gnuplot[PATH_MAX];
	struct plot p;
	int rc;

	(void)ctx;
	rc = plot_parse(argc, argv, &p);
	if (rc)
		return rc == PLOT_HELP ? 0 : rc;
	rc = find_gnuplot(gnuplot, sizeof(gnuplot));
	if (rc) {
		log_err("gnuplot not found%s%s: install it (apt-get install gnuplot-nox) or set %s", rc == -ENOENT ? "" : ": ",
			rc == -ENOENT ? "" : strerror(-rc), GNUPLOT_ENV);
		return 1;
	}
	/* gnuplot's own words for an output it can't write are not ours */
	if (out_check("--out", p.out, OUT_DRAWN))
		return 1;
	p.vars = open_memstream(&p.vars_buf, &p.vars_len);
	if (!p.vars) {
		log_err("out of memory");
		return 1;
	}
	if (p.title)
		var_str(&p, "subtitle", p.title);
	if (p.note)
		var_str(&p, "user_note", p.note);
	if (p.kind->input == IN_MATRIX) {
		rc = read_matrix(&p);
	} else if (p.kind->input != IN_SWEEP) {
		var_str(&p, "infile", p.in);
		rc = read_commented(&p);
	} else {
		rc = read_sweeps(&p, &csv);
		if (!rc)
			rc = prepare_csv(&p, &csv);
		sweep_csv_free(&csv);
	}
	fclose(p.vars);
	if (!rc)
		rc = run_gnuplot(&p, gnuplot);
	if (p.data[0] && !getenv("LATTESTER_PLOT_KEEP"))
		unlink(p.data);
	else if (p.data[0])
		log_err("data kept in %s", p.data);
	free(p.vars_buf);
	if (!rc)
		printf("%s\n", p.out);
	return rc;
}
