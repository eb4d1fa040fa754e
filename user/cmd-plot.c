// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-plot.c - lattester-ctl plot KIND: draw one of lattester's data files
 * with gnuplot into a PNG or an SVG.
 *
 *   hist      the histogram of a run (run --hist FILE)
 *   tail      latency against percentile, p50 ... p99.9999 (run --hist)
 *   outliers  outliers against time, NMI-flagged apart (run --outliers X.csv)
 *   sweep     percentiles against size, stride or hotspot (sweep --out X.csv)
 *   bars      the basic latency table as grouped bars (sweep --out X.csv)
 *   bw-threads  bandwidth against threads (sweep --mode bandwidth --out X.csv)
 *   bw-size   bandwidth against access size (the same)
 *   loaded    latency against bandwidth (sweep --mode loaded --delay LIST)
 *
 * The scripts are plots/KIND.gp, built into the binary (plots.S);
 * $LATTESTER_PLOTS=DIR takes DIR/KIND.gp instead.  The tool reads what the
 * title needs (target, cpu, ...) from the data file's header comments or,
 * for a sweep, from its columns, and passes it as gnuplot variables; a
 * sweep CSV is first turned into the blocks or table the script reads.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "csv.h"
#include "log.h"
#include "parse.h"
#include "run.h"
#include "stats.h"

#define PLOT_HELP	(-1)
#define DEFAULT_W	1000
#define DEFAULT_H	600
#define MAX_SERIES	64
#define GNUPLOT_ENV	"LATTESTER_GNUPLOT"
#define PLOTS_ENV	"LATTESTER_PLOTS"

extern const char plot_gp_hist[], plot_gp_tail[], plot_gp_outliers[],
	plot_gp_sweep[], plot_gp_bars[], plot_gp_bw[], plot_gp_loaded[];

enum plot_input {
	IN_HIST,
	IN_OUTLIERS,
	IN_SWEEP,
};

struct plot;
struct sweep_csv;
typedef int prepare_fn(struct plot *p, const struct sweep_csv *c, bool *use);
static prepare_fn prepare_sweep, prepare_bars, prepare_bw, prepare_loaded;

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
};

static const struct cmd_opt plot_options[] = {
	{ "in", OPT_IN, "FILE",
	  "the data: a run --hist file (hist, tail), a run --outliers .csv "
	  "file (outliers), a sweep .csv file (sweep, bars, bw-threads, "
	  "bw-size, loaded)", -1 },
	{ "out", OPT_OUT, "FILE.png|FILE.svg",
	  "the picture (default: the input's name without its extension, "
	  "-KIND.png)", -1 },
	{ "x", OPT_X, "size|stride|hotspot",
	  "sweep: the x axis (default: the one that varies most)", -1 },
	{ "stat", OPT_STAT, "LIST",
	  "sweep: the percentiles drawn (default: p50,p99); loaded: the "
	  "same (default: p50); bars: the one shown (default: p50); of min, "
	  "p50, p90, p99, p99.9, p99.99, p99.999, p99.9999, max, mean", -1 },
	{ "gbps", OPT_GBPS, "LIST",
	  "bw-threads, bw-size: the bandwidths drawn, of total, read, write "
	  "(default: total)", -1 },
	{ "group", OPT_GROUP, "COLUMN",
	  "bars: what makes a group of bars: op, pattern, size, fence, "
	  "target, cpu (default: op)", -1 },
	{ "canvas", OPT_CANVAS, "WxH",
	  "picture size in pixels (default: 1000x600)", -1 },
	{ "title", OPT_TITLE, "TEXT",
	  "the second title line (default: from the data: target, cpu, ...)",
	  -1 },
	{ NULL, 0, NULL, NULL, -1 }
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
	NULL
};

const struct cmd_usage plot_usage = {
	.cmd = "plot",
	.synopsis = "hist|tail|outliers|sweep|bars|bw-threads|bw-size|loaded "
		    "--in FILE [--out FILE.png|FILE.svg] [OPTIONS]",
	.about = "Draw a data file of lattester-ctl with gnuplot (gnuplot-nox "
		 "is enough): hist, the\n"
		 "histogram; tail, latency against percentile; outliers, "
		 "outliers against time;\n"
		 "sweep, percentiles against size, stride or hotspot; bars, "
		 "grouped bars of a sweep;\n"
		 "bw-threads and bw-size, bandwidth against threads and "
		 "against access size;\n"
		 "loaded, loaded latency against bandwidth.\n"
		 "Prints the picture's name.  Exit status: 0 drawn, 1 error "
		 "(no gnuplot, bad data),\n2 usage.",
	.opts = plot_options,
	.description =
		"The gnuplot scripts are built into lattester-ctl; plot needs "
		"neither the module nor root.  hist and tail read a run --hist "
		"file, outliers a run --outliers CSV file, sweep and bars a "
		"sweep --out CSV file, bw-threads and bw-size its --mode "
		"bandwidth rows (sweep and bars leave those out), loaded its "
		"--mode loaded rows.  For sweep, every column other than the x "
		"axis that varies over the rows (target, cpu, op, pattern, "
		"threads, ...) makes a series; bars groups the rows by --group; "
		"bw-threads, bw-size and loaded split their lines as sweep "
		"does, and loaded joins a line's points in order of --delay.\n\n"
		"Environment: LATTESTER_GNUPLOT, the gnuplot to run (default: "
		"gnuplot on PATH); LATTESTER_PLOTS, a directory whose KIND.gp "
		"(bw.gp for bw-threads and bw-size) replace the built-in "
		"scripts; LATTESTER_PLOT_KEEP, keep the "
		"temporary files after an error.",
	.examples = plot_examples,
	.see_also = "gnuplot(1)",
	.words = "hist|tail|outliers|sweep|bars|bw-threads|bw-size|loaded",
};

struct plot {
	const struct plot_kind *kind;
	const char *in;
	const char *out;
	char out_buf[PATH_MAX];
	const char *x;		/* NULL: automatic */
	char stats[128];	/* "p50 p99" */
	char gbps[32];		/* "total read" */
	const char *group;
	unsigned int w, h;
	const char *title;
	bool svg;
	FILE *vars;		/* gnuplot variable assignments */
	char *vars_buf;
	size_t vars_len;
	char data[PATH_MAX];	/* a temporary data file, or "" */
};

/* ---- options ---- */

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

/* The bandwidths of --gbps, and their columns: total_gbps, ... */
static const char *const gbps_names[] = { "total", "read", "write" };
#define NR_GBPS	(sizeof(gbps_names) / sizeof(gbps_names[0]))

static bool is_gbps(const char *s)
{
	size_t i;

	for (i = 0; i < NR_GBPS; i++)
		if (!strcmp(gbps_names[i], s))
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
	const char *dot, *slash;
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
			return cmd_usage_error(&plot_usage, "'%s' is not a kind "
					       "of plot (%s)", argv[1],
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
			p->in = optarg;
			break;
		case OPT_OUT:
			p->out = optarg;
			break;
		case OPT_X:
			if (strcmp(optarg, "size") && strcmp(optarg, "stride") &&
			    strcmp(optarg, "hotspot"))
				return cmd_usage_error(&plot_usage, "--x: '%s': "
						       "expected size, stride or "
						       "hotspot", optarg);
			p->x = optarg;
			break;
		case OPT_STAT:
			if (set_list(p->stats, sizeof(p->stats), optarg,
				     is_stat))
				return cmd_usage_error(&plot_usage, "--stat: "
						       "'%s': expected a list "
						       "of min, p50, p90, p99, "
						       "p99.9, p99.99, p99.999, "
						       "p99.9999, max, mean",
						       optarg);
			break;
		case OPT_GBPS:
			if (set_list(p->gbps, sizeof(p->gbps), optarg, is_gbps))
				return cmd_usage_error(&plot_usage, "--gbps: "
						       "'%s': expected a list "
						       "of total, read, write",
						       optarg);
			break;
		case OPT_GROUP:
			p->group = optarg;
			break;
		case OPT_CANVAS:
			if (set_canvas(p, optarg))
				return cmd_usage_error(&plot_usage, "--canvas: "
						       "'%s': expected WxH, "
						       "200x150 to 10000x10000",
						       optarg);
			break;
		case OPT_TITLE:
			p->title = optarg;
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
		slash = strrchr(p->in, '/');
		dot = strrchr(p->in, '.');
		i = dot && (!slash || dot > slash) ? (size_t)(dot - p->in) :
		    strlen(p->in);
		snprintf(p->out_buf, sizeof(p->out_buf), "%.*s-%s.png", (int)i,
			 p->in, p->kind->name);
		p->out = p->out_buf;
	}
	if (ends_with(p->out, ".svg"))
		p->svg = true;
	else if (!ends_with(p->out, ".png"))
		return cmd_usage_error(&plot_usage, "--out: '%s': the name must "
				       "end in .png or .svg", p->out);
	if (!p->stats[0])
		snprintf(p->stats, sizeof(p->stats), "%s",
			 p->kind->stats ? p->kind->stats : "p50");
	if (!p->gbps[0])
		snprintf(p->gbps, sizeof(p->gbps), "total");
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
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (header_row) {
			header_row = false;
			continue;
		}
		rows++;
	}
	free(line);
	fclose(f);
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
 * The columns that tell points apart.  The subtitle names those every
 * point shares, but not the DIM_QUIET ones, nor the DIM_ZERO_QUIET ones
 * where they are 0.  The DIM_NEW ones came with --mode: a file from
 * before lacks them and reads as @missing in every row.
 */
#define DIM_QUIET	0x1
#define DIM_ZERO_QUIET	0x2
#define DIM_NEW		0x4

static const struct dim {
	const char *name;
	unsigned int flags;
	const char *missing;
} dims[] = {
	{ "target",  0,			NULL },
	{ "cpu",     0,			NULL },
	{ "op",      0,			NULL },
	{ "fence",   0,			NULL },
	{ "pattern", 0,			NULL },
	{ "size",    0,			NULL },
	{ "stride",  DIM_ZERO_QUIET,	NULL },
	{ "hotspot", DIM_ZERO_QUIET,	NULL },
	{ "chain",   DIM_QUIET,		NULL },
	{ "warm",    DIM_QUIET,		NULL },
	{ "width",   DIM_QUIET,		NULL },
	{ "mode",    DIM_QUIET | DIM_NEW,	"latency" },
	{ "threads", DIM_NEW,			"1" },
	{ "delay",   DIM_ZERO_QUIET | DIM_NEW,	"0" },
};
#define NR_DIMS	(sizeof(dims) / sizeof(dims[0]))

struct sweep_csv {
	char **lines;		/* one allocation per row, split in place */
	char ***fields;
	size_t n;
	int dim_col[NR_DIMS];	/* -1: a DIM_NEW column the file lacks */
	int stat_col[NR_STATS];	/* ns_* */
	int gbps_col[NR_GBPS];	/* total_gbps, ...; -1: missing */
	int state_col;
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
}

static int read_sweep(const char *path, struct sweep_csv *c)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, *hdr[CSV_MAX_FIELDS], **fl;
	size_t cap = 0, i;
	int nh = -1, n;
	char name[32];

	memset(c, 0, sizeof(*c));
	if (!f) {
		log_err("%s: %s", path, strerror(errno));
		return 1;
	}
	while (getline(&line, &cap, f) > 0) {
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (nh < 0) {
			nh = csv_split(line, hdr, CSV_MAX_FIELDS);
			for (i = 0; i < NR_DIMS && nh > 0; i++)
				c->dim_col[i] = csv_column(hdr, nh, dims[i].name);
			for (i = 0; i < NR_STATS && nh > 0; i++) {
				snprintf(name, sizeof(name), "ns_%s",
					 latt_stats[i].name);
				c->stat_col[i] = csv_column(hdr, nh, name);
			}
			for (i = 0; i < NR_GBPS && nh > 0; i++) {
				snprintf(name, sizeof(name), "%s_gbps",
					 gbps_names[i]);
				c->gbps_col[i] = csv_column(hdr, nh, name);
			}
			c->state_col = nh > 0 ? csv_column(hdr, nh, "state") : -1;
			for (i = 0; i < NR_DIMS; i++)
				if (c->dim_col[i] < 0 &&
				    !(dims[i].flags & DIM_NEW))
					nh = -2;
			for (i = 0; i < NR_STATS; i++)
				if (c->stat_col[i] < 0)
					nh = -2;
			if (nh < 0) {
				log_err("%s: not a lattester-ctl sweep CSV file "
					"(its header lacks columns)", path);
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
		c->lines = realloc(c->lines, (c->n + 1) * sizeof(*c->lines));
		c->fields = realloc(c->fields, (c->n + 1) * sizeof(*c->fields));
		if (!c->lines || !c->fields) {
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
	return c->dim_col[dim] < 0 ? dims[dim].missing :
	       c->fields[row][c->dim_col[dim]];
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
 * is resolved ("default" is none for loads, sfence for stores): it counts
 * only where one op ran with more than one fence.
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

/* "64 B", "cpu 1", "stride 4 KiB": one value of a dimension for a title. */
static void fmt_dim(char *buf, size_t len, size_t d, const char *v)
{
	const char *name = dims[d].name;
	char bytes[32];
	__u64 n;

	if ((!strcmp(name, "size") || !strcmp(name, "stride") ||
	     !strcmp(name, "hotspot")) && !parse_u64(v, &n)) {
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
	} else {
		snprintf(buf, len, "%s", v);
	}
}

/* The values of the dimensions in @mask for row @i, joined by ", ". */
static void label(char *buf, size_t len, const struct sweep_csv *c, size_t i,
		  const bool *mask)
{
	char one[96];
	size_t d, n = 0;

	buf[0] = '\0';
	for (d = 0; d < NR_DIMS && n < len; d++) {
		if (!mask[d])
			continue;
		fmt_dim(one, sizeof(one), d, val(c, i, d));
		n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "", one);
	}
}

struct series {
	char key[512];
	size_t rows[4096];
	size_t n;
};

static size_t cmp_dim;
static const struct sweep_csv *cmp_csv;

static int cmp_rows(const void *a, const void *b)
{
	__u64 x = strtoull(val(cmp_csv, *(const size_t *)a, cmp_dim), NULL, 10);
	__u64 y = strtoull(val(cmp_csv, *(const size_t *)b, cmp_dim), NULL, 10);

	return x < y ? -1 : x > y;
}

/* Group the rows in @use by the dimensions in @mask; titles to vars. */
static int make_series(struct plot *p, const struct sweep_csv *c,
		       const bool *use, const bool *mask, struct series *s,
		       size_t *ns)
{
	char key[512], name[32];
	size_t i, k;

	*ns = 0;
	for (i = 0; i < c->n; i++) {
		if (!use[i])
			continue;
		label(key, sizeof(key), c, i, mask);
		for (k = 0; k < *ns && strcmp(s[k].key, key); k++)
			;
		if (k == *ns) {
			if (*ns == MAX_SERIES) {
				log_err("%s: more than %d series: plot a part "
					"of the sweep", p->in, MAX_SERIES);
				return 1;
			}
			snprintf(s[k].key, sizeof(s[k].key), "%s", key);
			s[k].n = 0;
			(*ns)++;
			snprintf(name, sizeof(name), "series_%zu", k + 1);
			var_str(p, name, key);
		}
		if (s[k].n < sizeof(s[k].rows) / sizeof(s[k].rows[0]))
			s[k].rows[s[k].n++] = i;
	}
	fprintf(p->vars, "nseries = %zu\n", *ns);
	return 0;
}

/* The subtitle: what all points share (target, cpu, and the rest). */
static void shared_subtitle(struct plot *p, const struct sweep_csv *c,
			    const bool *use, const bool *vary, int skip)
{
	bool mask[NR_DIMS];
	char buf[512];
	size_t d, first;

	for (first = 0; first < c->n && !use[first]; first++)
		;
	for (d = 0; d < NR_DIMS; d++)
		mask[d] = !vary[d] && (int)d != skip &&
			  !varies_any(c, use, d) && c->dim_col[d] >= 0 &&
			  !(dims[d].flags & DIM_QUIET) &&
			  !((dims[d].flags & DIM_ZERO_QUIET) &&
			    !strcmp(val(c, first, d), "0"));
	label(buf, sizeof(buf), c, first, mask);
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
 * @use, into @mask; what the rest share, into the subtitle.
 */
static void series_mask(struct plot *p, const struct sweep_csv *c,
			const bool *use, size_t along, bool *mask)
{
	bool vary[NR_DIMS];
	size_t d;

	for (d = 0; d < NR_DIMS; d++) {
		vary[d] = varies(c, use, d);
		mask[d] = vary[d] && d != along;
	}
	shared_subtitle(p, c, use, vary, (int)along);
}

/*
 * The data of a line plot: a block per series (the rows in @use that
 * share the dimensions in @mask), two blank lines apart, its rows sorted
 * by dimension @along; a row is @along's value, then the columns @cols.
 */
static int write_blocks(struct plot *p, const struct sweep_csv *c,
			const bool *use, const bool *mask, size_t along,
			const int *cols, size_t ncols)
{
	static struct series s[MAX_SERIES];
	size_t i, j, k, m, ns;
	FILE *f;

	if (make_series(p, c, use, mask, s, &ns) || open_data(p, &f))
		return 1;
	cmp_csv = c;
	cmp_dim = along;
	for (k = 0; k < ns; k++) {
		qsort(s[k].rows, s[k].n, sizeof(s[k].rows[0]), cmp_rows);
		fprintf(f, "# %s\n", s[k].key);
		for (j = 0; j < s[k].n; j++) {
			i = s[k].rows[j];
			fprintf(f, "%s", val(c, i, along));
			for (m = 0; m < ncols; m++)
				fprintf(f, " %s", c->fields[i][cols[m]]);
			fputc('\n', f);
		}
		fputs("\n\n", f);
	}
	return close_data(p, f);
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

static int prepare_sweep(struct plot *p, const struct sweep_csv *c, bool *use)
{
	const char *xs[] = { "size", "stride", "hotspot" };
	int xd = -1, best = -1, nx, d;
	bool mask[NR_DIMS];
	size_t i;

	/* the x axis: --x, or the one of size, stride, hotspot that varies most */
	for (i = 0; i < 3; i++) {
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
	for (i = 0; i < c->n; i++)
		use[i] = use[i] && strcmp(val(c, i, xd), "0") != 0;
	var_str(p, "xname", dims[xd].name);
	var_str(p, "stats", p->stats);
	series_mask(p, c, use, (size_t)xd, mask);
	return write_blocks(p, c, use, mask, (size_t)xd, c->stat_col, NR_STATS);
}

static int prepare_bars(struct plot *p, const struct sweep_csv *c, bool *use)
{
	static struct series s[MAX_SERIES];
	static char groups[MAX_SERIES][128];
	int gd = dim_index(p->group), st = 0;
	size_t i, k, g, ng = 0, ns;
	bool mask[NR_DIMS];
	const char *cell;
	char gname[128], stat[16];
	FILE *f;

	if (gd < 0)
		return cmd_usage_error(&plot_usage, "--group: '%s': expected "
				       "one of op, pattern, size, fence, "
				       "target, cpu", p->group);
	snprintf(stat, sizeof(stat), "%.*s", (int)strcspn(p->stats, " "),
		 p->stats);
	for (i = 0; i < NR_STATS; i++)
		if (!strcmp(latt_stats[i].name, stat))
			st = (int)i;
	var_str(p, "stat", stat);
	var_str(p, "group", dims[gd].name);
	series_mask(p, c, use, (size_t)gd, mask);
	if (make_series(p, c, use, mask, s, &ns))
		return 1;
	for (k = 0; k < c->n; k++) {
		if (!use[k])
			continue;
		fmt_dim(gname, sizeof(gname), gd, val(c, k, gd));
		for (g = 0; g < ng && strcmp(groups[g], gname); g++)
			;
		if (g == ng && ng < MAX_SERIES)
			snprintf(groups[ng++], sizeof(groups[0]), "%s", gname);
	}
	if (open_data(p, &f))
		return 1;
	for (g = 0; g < ng; g++) {
		fprintf(f, "\"%s\"", groups[g]);
		for (k = 0; k < ns; k++) {
			cell = "-";
			for (i = 0; i < s[k].n; i++) {
				fmt_dim(gname, sizeof(gname), gd,
					val(c, s[k].rows[i], gd));
				if (!strcmp(gname, groups[g]))
					cell = c->fields[s[k].rows[i]][c->stat_col[st]];
			}
			fprintf(f, " %s", cell);
		}
		fputc('\n', f);
	}
	return close_data(p, f);
}

static int prepare_bw(struct plot *p, const struct sweep_csv *c, bool *use)
{
	size_t along = (size_t)dim_index(p->kind->along);
	bool mask[NR_DIMS];

	var_str(p, "xname", p->kind->along);
	var_str(p, "gbps", p->gbps);
	series_mask(p, c, use, along, mask);
	return write_blocks(p, c, use, mask, along, c->gbps_col, NR_GBPS);
}

/* loaded: blocks of the delay, total_gbps and the ns_* columns */
static int prepare_loaded(struct plot *p, const struct sweep_csv *c,
			  bool *use)
{
	size_t along = (size_t)dim_index(p->kind->along);
	int cols[1 + NR_STATS];
	bool mask[NR_DIMS];

	cols[0] = c->gbps_col[0];	/* total_gbps */
	memcpy(cols + 1, c->stat_col, sizeof(c->stat_col));
	var_str(p, "stats", p->stats);
	series_mask(p, c, use, along, mask);
	return write_blocks(p, c, use, mask, along, cols, 1 + NR_STATS);
}

/* Has @c the columns the modes brought (mode, threads, ..., total_gbps)? */
static bool has_mode_columns(const struct sweep_csv *c)
{
	size_t i;

	for (i = 0; i < NR_DIMS; i++)
		if (c->dim_col[i] < 0)
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
	const char *mode = p->kind->mode;
	bool other = mode[0] == '!';
	int md = dim_index("mode");
	size_t i, n = 0;

	mode += other;
	if (!other && !has_mode_columns(c)) {
		log_err("no %s rows in %s (it lacks the columns of the modes: "
			"mode, threads, ..., total_gbps): sweep with --mode %s",
			mode, p->in, mode);
		return 1;
	}
	for (i = 0; i < c->n; i++) {
		use[i] = !strcmp(val(c, i, (size_t)md), mode) != other;
		n += use[i];
	}
	if (n)
		return 0;
	if (other)
		log_err("no latency rows in %s (only %s rows): plot them with "
			"bw-threads or bw-size", p->in, mode);
	else
		log_err("no %s rows in %s: sweep with --mode %s", mode, p->in,
			mode);
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
		fprintf(f, "set terminal svg size %u,%u dynamic noenhanced "
			"font 'sans,12' background rgb 'white'\n", p->w, p->h);
	else
		fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			"  set terminal pngcairo size %u,%u noenhanced "
			"font 'sans,10'\n} else {\n  set terminal png size "
			"%u,%u noenhanced\n}\n", p->w, p->h, p->w, p->h);
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
		log_err("gnuplot not found%s%s: install it (apt-get install "
			"gnuplot-nox) or set %s", rc == -ENOENT ? "" : ": ",
			rc == -ENOENT ? "" : strerror(-rc), GNUPLOT_ENV);
		return 1;
	}
	p.vars = open_memstream(&p.vars_buf, &p.vars_len);
	if (!p.vars) {
		log_err("out of memory");
		return 1;
	}
	if (p.title)
		var_str(&p, "subtitle", p.title);
	if (p.kind->input != IN_SWEEP) {
		var_str(&p, "infile", p.in);
		rc = read_commented(&p);
	} else {
		rc = read_sweep(p.in, &csv);
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
