// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-matrix.c - lattester-ctl matrix: the latency from every NUMA node
 * that has CPUs to the memory of every node that has memory, one run per
 * cell, printed as Intel MLC's --latency_matrix prints it.
 *
 * A row is a node with CPUs, measured from one CPU of it (its first online
 * CPU, or the one --cpus names); a column is a node with memory, CPU-less
 * (memory-only, CXL) nodes included, or those --nodes names.  Every cell
 * is one run through runner.c's run_measure(), with run's options parsed
 * by run's own run_set_option() (as sweep does), --target dram:COLUMN and
 * --cpu ROW'S CPU: the same checks, the same engines, the same figures.
 *
 * The default is MLC's idle latency: dependent loads (--pattern chase,
 * --chain 16) over a region well beyond the last-level cache.  A cell that
 * fails is shown as '-' and its reason, in run's words, is listed below
 * the table; run_measure() says why on stderr (log.h), so each cell's
 * stderr is captured, passed on, and its first error kept as the reason.
 * Ctrl-C stops after the current cell (a second one aborts it) and what
 * was measured is printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <lattester/pattern.h>
#include "builtin.h"
#include "csv.h"
#include "dev.h"
#include "host.h"
#include "json-out.h"
#include "log.h"
#include "outfile.h"
#include "parse.h"
#include "report.h"
#include "run.h"
#include "run-opts.h"

#define MATRIX_HELP		(-1)
#define MATRIX_SCHEMA		"lattester-matrix/1"
#define MATRIX_CHAIN		16	/* dependent loads per sample, default */
#define MATRIX_REGION		(1ULL << 30)	/* run's default region */
#define MATRIX_LLC_TIMES	8	/* the region is at least 8x the LLC */
#define MATRIX_ALIGN		LATT_CHUNK	/* the module's DRAM chunk */
#define MATRIX_MAX_NODES	1024	/* --nodes, --cpus: entries at most */
#define MATRIX_MAX_CPUS		65536	/* online CPUs looked at */
#define NS_DECIMALS		3	/* of the JSON and CSV values */
#define CACHE_DIR		"/sys/devices/system/cpu/cpu%u/cache"

enum matrix_opt_id {
	OPT_MX_CPUS = OPT_RUN_LAST,
	OPT_MX_NODES,
	OPT_MX_STAT,
	OPT_MX_JSON,
	OPT_MX_CSV,
};

static const struct cmd_opt matrix_options[] = {
	OPT_ROW("engine", OPT_ENGINE, "user|kernel",
	  "who takes the samples, as for run: kernel, the module (default; root), or user, a thread of this program pinned to each row's CPU (no module, no root; interrupts not kept out)"),
	OPT_ROW("cpus", OPT_MX_CPUS, "LIST",
	  "the CPUs the rows are measured from, one per node, e.g. 0,32: the rows are their nodes (default: the first online CPU of every node that has CPUs in this process's affinity mask: taskset -c 1 measures from CPU 1)"),
	OPT_ROW("nodes", OPT_MX_NODES, "LIST",
	  "the memory nodes of the columns, e.g. 0-3 (default: every node with memory, CPU-less ones included)"),
	OPT_ROW("stat", OPT_MX_STAT, "STAT",
	  "the figure of each cell, in ns: min, p50, p90, p99, p99.9, p99.99, p99.999, p99.9999, max or mean (default: p50)"),
	OPT_ROW_NAMES("op", OPT_OP, "OP", "access, as for run (default: load)", NAMES_OP),
	OPT_ROW_NAMES("fence", OPT_FENCE, "FENCE", "fence, as for run (default: default)",
	  NAMES_FENCE),
	OPT_ROW_NAMES("pattern", OPT_PATTERN, "PATTERN",
	  "addresses, as for run (default: chase, with --chain "
	  STR(MATRIX_CHAIN) ": MLC's idle latency)", NAMES_PATTERN),
	OPT_ROW("chain", OPT_CHAIN, "K",
	  "dependent loads per sample, with --pattern chase (default: "
	  STR(MATRIX_CHAIN) " with chase, else 1)"),
	RUN_OPT_TLB_LOCALITY,
	OPT_ROW("size", OPT_SIZE, "BYTES",
	  "bytes per access, a multiple of 64 (default: "
	  STR(RUN_DEFAULT_SIZE) ")"),
	OPT_ROW("samples", OPT_SAMPLES, "N",
	  "samples per cell, e.g. 100k, 1M (default: "
	  STR(RUN_DEFAULT_SAMPLES) ")"),
	OPT_ROW("region", OPT_REGION, "BYTES",
	  "memory each cell's accesses spread over (default: 1GiB, or 8 times the largest cache of the rows' CPUs if that is more; clamped, as run clamps, to half the node's free memory)"),
	OPT_ROW("seed", OPT_SEED, "S", "address generator seed, every cell"),
	RUN_OPT_WIDTH,
	RUN_OPT_WARM,
	OPT_ROW("hugepages", OPT_HUGEPAGES, NULL,
	  "--engine user: transparent huge pages for each region (MADV_HUGEPAGE)"),
	RUN_OPT_TIMER,
	RUN_OPT_WINDOW_US,
	OPT_ROW("json", OPT_MX_JSON, "FILE|-",
	  "write the matrix as JSON (" MATRIX_SCHEMA ") to FILE, or to stdout for - (instead of the table)"),
	OPT_ROW("csv", OPT_MX_CSV, NULL,
	  "print the matrix as CSV instead of the table: one row per cell"),
	OPT_ROW("quiet", OPT_QUIET, NULL, "no progress line"),
	OPT_END
};

static const char *const matrix_examples[] = {
	"lattester-ctl matrix",
	"idle latency from every node with CPUs to every node's memory, p50 ns per load, as MLC --latency_matrix",
	"lattester-ctl matrix --engine user --region 256M",
	"the same without the module or root, over 256 MiB",
	"lattester-ctl matrix --pattern rand --stat p99 --samples 1M",
	"single flushed random loads, their 99th percentile",
	"lattester-ctl matrix --cpus 0,32 --nodes 0-3 --json matrix.json",
	"rows of CPU 0 and CPU 32, columns of nodes 0 to 3, saved as JSON",
	"lattester-ctl matrix --csv > matrix.csv",
	"one CSV row per cell, every percentile",
	NULL
};

const struct cmd_usage matrix_usage = {
	.cmd = "matrix",
	.synopsis = "[OPTIONS]",
	.about = "Measure the latency from every NUMA node with CPUs (the rows) to the memory of every\n"
		 "node (the columns, memory-only nodes included), one run per cell, and print it as\n"
		 "Intel MLC --latency_matrix does.  Needs the module and root; --engine user, neither.\n"
		 "Ctrl-C stops after the current cell (twice: at once).  Exit status: 0 done, 1 error\n"
		 "or a failed cell, 2 usage, 130 interrupted.",
	.opts = matrix_options,
	.description =
		"matrix measures one cell per pair of a row node (a node that has CPUs, measured from one of its CPUs: the first online one, or the one --cpus names) and a column node (a node with memory; a node with memory and no CPU, as a CXL expander presents itself, is a column only).  Each cell is one run, exactly as 'lattester-ctl run --target dram:COLUMN --cpu CPU' with the same options would make it: the same checks, the same engines, the same figures.\n\n"
		"The default is MLC's idle latency: dependent loads (--pattern chase --chain 16, each load's address read by the one before, so that neither the prefetchers nor the out-of-order core can overlap them) over a region well beyond the last-level cache (1 GiB, or 8 times the largest cache the rows' CPUs report), in ns per load.  --pattern rand times single flushed loads instead, the timer's overhead subtracted.\n\n"
		"The table shows --stat (p50 by default) of each cell in ns.  A cell that fails is shown as '-', and its reason, in run's words, is listed below the table; the exit status is then 1.  Ctrl-C stops after the current cell; the cells not measured are shown as '.'.  --json and --csv carry every cell's figures: the JSON each cell's configuration, result (timer, page size), latency block and warnings, as run's JSON has them.",
	.examples = matrix_examples,
	.see_also = "mlc(1) (Intel Memory Latency Checker), numactl(8)",
};

enum cell_state {
	CELL_TODO,		/* not measured: interrupted before it */
	CELL_DONE,
	CELL_FAILED,
	CELL_INTERRUPTED,	/* aborted by a second Ctrl-C */
};

static const char *const cell_state_names[] = {
	[CELL_TODO] = "not_measured",
	[CELL_DONE] = "measured",
	[CELL_FAILED] = "failed",
	[CELL_INTERRUPTED] = "interrupted",
};

struct cell {
	enum cell_state state;
	char reason[512];
	struct latt_summary sum;
	__u64 page_size;
	char timer[16];
	char warnings[RUN_MAX_WARNINGS][320];
	int nr_warnings;
	struct json_object *json;	/* target, config, result, latency */
};

struct row {
	unsigned int node;
	unsigned int cpu;
};

struct matrix {
	struct run_opts base;		/* the options every cell shares */
	bool pattern_set, chain_set;
	int stat;
	const char *json;
	bool csv, quiet;
	__u32 cpus[MATRIX_MAX_NODES], ncpus;	/* --cpus */
	__u32 nodes[MATRIX_MAX_NODES], nnodes;	/* --nodes */
	/* resolved */
	struct row *rows;
	size_t nrows;
	unsigned int *cols;
	size_t ncols;
	struct cell *cells;		/* nrows x ncols, row by row */
	const struct cmd_ctx *ctx;
	struct latt_info info;		/* of the first cell measured */
	bool have_info;
	struct timespec start, end;
	/* while a cell runs */
	FILE *err;			/* the terminal's stderr, or NULL */
	bool progress, told_stop;
	size_t cur;
	bool interrupted;
};

/* ---- options ---- */

static int stat_index(const char *name)
{
	int i;

	for (i = 0; i < NR_STATS; i++)
		if (!strcmp(latt_stats[i].name, name))
			return i;
	return -1;
}

static int bad_value(int id, const char *v, int rc)
{
	const struct cmd_opt *opt = matrix_options;

	while (opt->name && opt->id != id)
		opt++;
	if (id == OPT_SAMPLES)
		return cmd_usage_error(&matrix_usage, "--samples: '%s': %s (expected a count such as 100000, 100k, 1.5M or 1e6)", v,
				       parse_strerror(rc));
	return cmd_usage_error(&matrix_usage, "--%s: '%s': %s (expected %s)",
			       opt->name, v, parse_strerror(rc),
			       opt->names >= 0 ? latt_name_list(opt->names) :
			       opt->arg);
}

/* --cpus or --nodes: a list, each entry once. */
static int set_list(const char *opt, const char *what, const char *v,
		    __u32 *list, __u32 *n)
{
	__u32 i, j;
	int rc = parse_cpulist(v, list, MATRIX_MAX_NODES, n);

	if (rc)
		return cmd_usage_error(&matrix_usage, "--%s: '%s': %s (expected a list such as 0,2 or 0-3)", opt, v,
				       parse_strerror(rc));
	for (i = 0; i < *n; i++)
		for (j = 0; j < i; j++)
			if (list[i] == list[j])
				return cmd_usage_error(&matrix_usage, "--%s: %s %u is listed twice", opt,
						       what, list[i]);
	return 0;
}

static int set_option(struct matrix *m, int id, const char *v)
{
	int rc;

	switch (id) {
	case OPT_MX_CPUS:
		return set_list("cpus", "CPU", v, m->cpus, &m->ncpus);
	case OPT_MX_NODES:
		return set_list("nodes", "node", v, m->nodes, &m->nnodes);
	case OPT_MX_STAT:
		m->stat = stat_index(v);
		if (m->stat < 0)
			return cmd_usage_error(&matrix_usage, "--stat: '%s': expected one of min, p50, p90, p99, p99.9, p99.99, p99.999, p99.9999, max, mean", v);
		return 0;
	case OPT_MX_JSON:
		m->json = v;
		return 0;
	case OPT_MX_CSV:
		m->csv = true;
		return 0;
	case OPT_QUIET:
		m->quiet = true;
		return 0;
	case OPT_PATTERN:
		m->pattern_set = true;
		break;
	case OPT_CHAIN:
		m->chain_set = true;
		break;
	}
	rc = run_set_option(&m->base, id, v);
	return rc ? bad_value(id, v, rc) : 0;
}

/* run's kind of --help, and the examples of the man page after it */
static void print_help(void)
{
	const char *const *ex;

	cmd_print_usage(stdout, &matrix_usage);
	printf("\nexamples:\n");
	for (ex = matrix_examples; ex[0] && ex[1]; ex += 2)
		printf("  %s\n      %s\n", ex[0], ex[1]);
}

static int matrix_parse(int argc, char **argv, struct matrix *m)
{
	const struct latt_config *c = &m->base.cfg;
	const char *why;
	int id, rc;

	run_defaults(&m->base);
	/* MLC's idle latency: dependent loads */
	run_set_option(&m->base, OPT_PATTERN, "chase");
	m->stat = STAT_P50;
	optind = 0;
	while ((id = cmd_getopt(argc, argv, &matrix_usage)) != -1) {
		if (id == OPT_BAD)
			return EXIT_USAGE;
		if (id == OPT_HELP) {
			print_help();
			return MATRIX_HELP;
		}
		rc = set_option(m, id, optarg);
		if (rc)
			return rc;
	}
	if (c->pattern == LATT_PAT_CHASE && !m->chain_set)
		m->base.cfg.chain = MATRIX_CHAIN;
	if (m->json && m->csv && !strcmp(m->json, "-"))
		return cmd_usage_error(&matrix_usage, "--json - and --csv both want stdout");
	why = run_args_problem(&m->base);
	if (why)
		return cmd_usage_error(&matrix_usage, "%s", why);
	if (!latt_stat_supported(c->samples, m->stat))
		return cmd_usage_error(&matrix_usage, "--stat %s needs %llu samples or more (--samples %llu): a percentile q needs %d/(1-q)",
				       latt_stats[m->stat].name,
				       (unsigned long long)latt_pct_min_samples(
					       latt_stats[m->stat].ppm),
				       (unsigned long long)c->samples,
				       LATT_PCT_BEYOND);
	return 0;
}


/* ---- rows and columns ---- */

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return (x->node > y->node) - (x->node < y->node);
}

/* The rows: the nodes of --cpus, or every node's first online CPU. */
static int find_rows(struct matrix *m)
{
	int max = host_max_node(), node;
	char online[HOST_STR];
	__u32 *cpus = NULL, n = 0, i;
	size_t k;

	m->rows = calloc((size_t)max + 1, sizeof(*m->rows));
	if (!m->rows)
		goto oom;
	if (m->ncpus) {
		for (i = 0; i < m->ncpus; i++) {
			if (!host_cpu_online(m->cpus[i])) {
				host_cpus_online(online, sizeof(online));
				log_err("--cpus: CPU %u is not online (online: %s)", m->cpus[i], online);
				return 1;
			}
			node = host_node_of_cpu(m->cpus[i]);
			if (node < 0 || node > max) {
				log_err("--cpus: CPU %u: its NUMA node is unknown", m->cpus[i]);
				return 1;
			}
			for (k = 0; k < m->nrows; k++)
				if (m->rows[k].node == (unsigned int)node) {
					log_err("--cpus: CPUs %u and %u are both on node %d: name one CPU per node (a row is a node)",
						m->rows[k].cpu, m->cpus[i], node);
					return 1;
				}
			m->rows[m->nrows++] = (struct row){ (unsigned int)node,
							    m->cpus[i] };
		}
		qsort(m->rows, m->nrows, sizeof(*m->rows), cmp_row);
		return 0;
	}
	cpus = calloc(MATRIX_MAX_CPUS, sizeof(*cpus));
	if (!cpus)
		goto oom;
	host_cpus_online(online, sizeof(online));
	if (!online[0] || parse_cpulist(online, cpus, MATRIX_MAX_CPUS, &n)) {
		/* no sysfs list: every CPU sysconf counts */
		long nr = sysconf(_SC_NPROCESSORS_ONLN);

		for (n = 0; nr > 0 && n < (__u32)nr && n < MATRIX_MAX_CPUS; n++)
			cpus[n] = n;
	}
	/* in CPU order: each node's first online CPU that this process may
	 * run on (taskset, a cpuset), then by node */
	for (i = 0; i < n; i++) {
		node = host_node_of_cpu(cpus[i]);
		if (node < 0 || node > max || !host_cpu_allowed(cpus[i]))
			continue;
		for (k = 0; k < m->nrows; k++)
			if (m->rows[k].node == (unsigned int)node)
				break;
		if (k == m->nrows)
			m->rows[m->nrows++] = (struct row){ (unsigned int)node,
							    cpus[i] };
	}
	free(cpus);
	if (!m->nrows) {
		log_err("no online CPU of this process's affinity with a known NUMA node: nothing to measure from");
		return 1;
	}
	qsort(m->rows, m->nrows, sizeof(*m->rows), cmp_row);
	return 0;
oom:
	log_err("out of memory");
	return 1;
}

/* The columns: --nodes as given (a node that doesn't exist fails its
 * cells), or every node with memory. */
static int find_cols(struct matrix *m)
{
	int max = host_max_node(), node;
	long long size, free;
	__u32 i;

	m->cols = calloc(m->nnodes ? m->nnodes : (size_t)max + 1,
			 sizeof(*m->cols));
	if (!m->cols) {
		log_err("out of memory");
		return 1;
	}
	if (m->nnodes) {
		for (i = 0; i < m->nnodes; i++)
			m->cols[m->ncols++] = m->nodes[i];
		return 0;
	}
	for (node = 0; node <= max; node++)
		if (host_node_exists((unsigned int)node) &&
		    !host_node_mem((unsigned int)node, &size, &free) && size > 0)
			m->cols[m->ncols++] = (unsigned int)node;
	if (!m->ncols) {
		log_err("no NUMA node with memory found: nothing to measure");
		return 1;
	}
	return 0;
}

static bool is_row(const struct matrix *m, unsigned int node)
{
	size_t k;

	for (k = 0; k < m->nrows; k++)
		if (m->rows[k].node == node)
			return true;
	return false;
}

/* "32768K" in a cache's size file: bytes, or 0. */
static __u64 cache_size(unsigned int cpu, int index)
{
	char path[128], buf[32], *end;
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), CACHE_DIR "/index%d/size", cpu, index);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	v = strtoull(buf, &end, 10);
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	return v;
}

/*
 * The default region: run's 1 GiB, or MATRIX_LLC_TIMES the largest cache
 * a row's CPU reports if that is more (in whole 4 MiB); run_measure()
 * clamps it to half the node's free memory, as run does.
 */
static void default_region(struct matrix *m)
{
	__u64 llc = 0, v, region;
	size_t k;
	int i;

	if (m->base.region_set)
		return;
	for (k = 0; k < m->nrows; k++)
		for (i = 0; i < 16; i++) {
			v = cache_size(m->rows[k].cpu, i);
			llc = v > llc ? v : llc;
		}
	region = llc * MATRIX_LLC_TIMES;
	region = (region + MATRIX_ALIGN - 1) & ~(MATRIX_ALIGN - 1);
	m->base.cfg.region = region > MATRIX_REGION ? region : MATRIX_REGION;
	log_info("region %llu MiB (largest cache %llu KiB)",
		 (unsigned long long)(m->base.cfg.region >> 20),
		 (unsigned long long)(llc >> 10));
}

static int check_module_present(const struct matrix *m)
{
	struct latt_dev d;
	int rc;

	if (m->base.user_engine)
		return 0;
	rc = latt_dev_open(&d);
	if (rc) {
		run_open_failed(rc, !m->base.engine_set);
		return 1;
	}
	latt_dev_close(&d);
	return 0;
}

/* ---- one cell ---- */

/*
 * run_measure() says why a run failed through log_err() on stderr: while a
 * cell runs, stderr goes to a temporary file; afterwards it is passed on
 * to the real stderr, and its first error is the cell's reason.
 */
struct capture {
	FILE *tmp;
	int saved;
};

static void capture_begin(struct capture *cap)
{
	fflush(stderr);
	cap->saved = -1;
	cap->tmp = tmpfile();
	if (!cap->tmp)
		return;
	cap->saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (cap->saved < 0 || dup2(fileno(cap->tmp), STDERR_FILENO) < 0) {
		if (cap->saved >= 0)
			close(cap->saved);
		cap->saved = -1;
		fclose(cap->tmp);
		cap->tmp = NULL;
	}
}

static void capture_end(struct capture *cap, char *reason, size_t len)
{
	char prefix[64], *line = NULL, *text;
	size_t cap_len = 0, n;

	fflush(stderr);
	if (!cap->tmp)
		return;
	dup2(cap->saved, STDERR_FILENO);
	close(cap->saved);
	snprintf(prefix, sizeof(prefix), "%s %s: ", LATT_PROG,
		 matrix_usage.cmd);
	rewind(cap->tmp);
	while (getline(&line, &cap_len, cap->tmp) > 0) {
		fputs(line, stderr);
		if (reason[0] || strncmp(line, prefix, strlen(prefix)))
			continue;
		text = line + strlen(prefix);
		if (!strncmp(text, "warning: ", 9) ||
		    !strncmp(text, "debug: ", 7))
			continue;
		n = strcspn(text, "\n");
		snprintf(reason, len, "%.*s", (int)n, text);
	}
	free(line);
	fclose(cap->tmp);
	cap->tmp = NULL;
}

static struct cell *cell_at(const struct matrix *m, size_t row, size_t col)
{
	return &m->cells[row * m->ncols + col];
}

static void tell_stop(struct matrix *m)
{
	if (run_stops != 1 || m->told_stop)
		return;
	m->told_stop = true;
	if (m->err) {
		if (m->progress)
			fputs("\r\033[K", m->err);
		fprintf(m->err, "%s %s: warning: stopping after this cell (Ctrl-C again aborts it); what was measured is printed\n", LATT_PROG, matrix_usage.cmd);
		fflush(m->err);
	}
}

static void on_progress(void *arg, const struct latt_status *st)
{
	struct matrix *m = arg;
	size_t row = m->cur / m->ncols, col = m->cur % m->ncols;
	double pct = st->samples_total ? 100.0 * (double)st->samples_done /
				       (double)st->samples_total : 0.0;

	tell_stop(m);
	if (!m->progress || !m->err)
		return;
	fprintf(m->err, "\r\033[K%s matrix: cell %zu/%zu: node %u (CPU %u) -> node %u: %.0f%%", LATT_PROG, m->cur + 1,
		m->nrows * m->ncols, m->rows[row].node, m->rows[row].cpu,
		m->cols[col], pct);
	fflush(m->err);
}

static void clear_progress(struct matrix *m)
{
	if (m->progress && m->err) {
		fputs("\r\033[K", m->err);
		fflush(m->err);
	}
}

/* The cell's blocks of run's JSON, once it is measured. */
static struct json_object *cell_blocks(const struct run_report *r)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "target", json_run_target(r));
	json_object_object_add(o, "config", json_run_config(r));
	json_object_object_add(o, "result", json_run_result(r));
	json_object_object_add(o, "latency", r->res.count ?
			       json_run_latency(r) : NULL);
	json_object_object_add(o, "warnings", json_run_warnings(r));
	return o;
}

static void keep_result(struct matrix *m, struct cell *c,
			const struct run_report *r)
{
	int i;

	c->sum = r->sum;
	c->page_size = r->res.page_size;
	snprintf(c->timer, sizeof(c->timer), "%s", report_timer_name(r));
	c->nr_warnings = r->nr_warnings;
	for (i = 0; i < r->nr_warnings; i++)
		snprintf(c->warnings[i], sizeof(c->warnings[i]), "%s",
			 r->warnings[i]);
	c->json = cell_blocks(r);
	if (!m->have_info) {
		m->info = *r->info;
		m->have_info = true;
	}
}

/* Measure cell @idx; EXIT_INTERRUPTED when it was aborted. */
static int measure_cell(struct matrix *m, size_t idx)
{
	struct run_report r = { .ctx = m->ctx };
	struct run_hooks h = { .abort_at = 2, .progress = on_progress,
			       .arg = m, .engine_hint = true };
	const struct row *row = &m->rows[idx / m->ncols];
	struct cell *c = &m->cells[idx];
	struct run_opts o = m->base;
	char cpu[16], target[32];
	struct capture cap;
	int rc;

	m->cur = idx;
	snprintf(cpu, sizeof(cpu), "%u", row->cpu);
	snprintf(target, sizeof(target), "dram:%u", m->cols[idx % m->ncols]);
	if (run_set_option(&o, OPT_TARGET, target) ||
	    run_set_option(&o, OPT_CPU, cpu)) {
		c->state = CELL_FAILED;
		snprintf(c->reason, sizeof(c->reason), "%s: not a target",
			 target);
		return 0;
	}
	if (m->progress)
		on_progress(m, &(struct latt_status){ 0 });
	capture_begin(&cap);
	rc = run_measure(&o, &r, &h);
	if (!rc && r.interrupted) {
		c->state = CELL_INTERRUPTED;
	} else if (!rc && r.res.state != LATT_STATE_DONE) {
		run_exit_status(&o, &r);	/* says how it ended */
		c->state = CELL_FAILED;
	} else if (!rc && !r.sum.supported[m->stat]) {
		c->state = CELL_FAILED;
		snprintf(c->reason, sizeof(c->reason), "%llu samples are too few for %s (%llu needed)",
			 (unsigned long long)r.res.count,
			 latt_stats[m->stat].name, (unsigned long long)
			 latt_pct_min_samples(latt_stats[m->stat].ppm));
	} else if (!rc) {
		c->state = CELL_DONE;
	} else {
		c->state = rc == EXIT_INTERRUPTED ? CELL_INTERRUPTED :
			   CELL_FAILED;
	}
	clear_progress(m);
	capture_end(&cap, c->reason, sizeof(c->reason));
	if (c->state == CELL_FAILED && !c->reason[0])
		snprintf(c->reason, sizeof(c->reason), "the run failed (exit status %d)", rc ? rc : 1);
	if (c->state == CELL_INTERRUPTED)
		snprintf(c->reason, sizeof(c->reason), "interrupted");
	if (!rc && c->state != CELL_INTERRUPTED)
		keep_result(m, c, &r);
	run_report_free(&r);
	return c->state == CELL_INTERRUPTED ? EXIT_INTERRUPTED : 0;
}

/* Every cell, row by row; 0, or EXIT_INTERRUPTED. */
static int measure_all(struct matrix *m)
{
	size_t i, n = m->nrows * m->ncols;
	int fd;

	m->progress = !m->quiet && isatty(STDERR_FILENO);
	fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	m->err = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!m->err && fd >= 0)
		close(fd);
	run_catch_signals();
	clock_gettime(CLOCK_REALTIME, &m->start);
	for (i = 0; i < n; i++) {
		if (run_stops) {
			tell_stop(m);
			m->interrupted = true;
			break;
		}
		if (measure_cell(m, i) == EXIT_INTERRUPTED) {
			m->interrupted = true;
			break;
		}
	}
	clock_gettime(CLOCK_REALTIME, &m->end);
	if (m->err)
		fclose(m->err);
	m->err = NULL;
	/* a Ctrl-C during the last cell stopped nothing, all were measured;
	 * the status says it came all the same (the shell's convention) */
	return m->interrupted || run_stops ? EXIT_INTERRUPTED : 0;
}

/* ---- output ---- */

static bool has_value(const struct matrix *m, const struct cell *c)
{
	return c->state == CELL_DONE && c->sum.supported[m->stat];
}

static const char *per(const struct matrix *m)
{
	return latt_chain(&m->base.cfg) > 1 ? "load" : "access";
}

static size_t count_failed(const struct matrix *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->nrows * m->ncols; i++)
		n += m->cells[i].state == CELL_FAILED;
	return n;
}

static void describe(char *buf, size_t len, const struct matrix *m)
{
	const struct latt_config *c = &m->base.cfg;
	char pat[96], size[32], region[32];

	fmt_pattern(pat, sizeof(pat), c);
	fmt_bytes(size, sizeof(size), c->size);
	fmt_bytes(region, sizeof(region), c->region);
	snprintf(buf, len, "%s per %s; %s, %s, %s, region %s, %llu samples; engine %s", latt_stats[m->stat].name, per(m),
		 latt_name(NAMES_OP, c->op), pat, size, region,
		 (unsigned long long)c->samples,
		 m->base.user_engine ? "user" : "kernel");
}

/*
 * As MLC prints its --latency_matrix: "Numa node" over the columns and
 * over the rows, tab-separated, one decimal.
 */
static void print_text(const struct matrix *m)
{
	char desc[512], cpus[HOST_STR];
	size_t r, k, i;
	const struct cell *c;
	bool first;
	int w;

	describe(desc, sizeof(desc), m);
	printf("Measuring idle latencies (in ns): %s\n", desc);
	printf("\t\tNuma node\nNuma node");
	for (k = 0; k < m->ncols; k++)
		printf("\t%6u", m->cols[k]);
	putchar('\n');
	for (r = 0; r < m->nrows; r++) {
		printf("%8u", m->rows[r].node);
		for (k = 0; k < m->ncols; k++) {
			c = cell_at(m, r, k);
			if (has_value(m, c))
				printf("\t%6.1f", c->sum.ns[m->stat]);
			else
				printf("\t%6s", c->state == CELL_FAILED ? "-" :
				       ".");
		}
		putchar('\n');
	}
	printf("rows: ");
	for (r = 0; r < m->nrows; r++)
		printf("%snode %u from CPU %u", r ? ", " : "", m->rows[r].node,
		       m->rows[r].cpu);
	first = true;
	for (k = 0; k < m->ncols; k++) {
		if (!host_node_exists(m->cols[k]))
			continue;
		host_node_cpus(m->cols[k], cpus, sizeof(cpus));
		if (cpus[0])
			continue;
		printf("%s%u", first ? "; memory only (no CPU): node " : ", ",
		       m->cols[k]);
		first = false;
	}
	putchar('\n');
	for (i = 0; i < m->nrows * m->ncols; i++) {
		c = &m->cells[i];
		for (w = 0; w < c->nr_warnings; w++)
			printf("warning: node %u -> node %u: %s\n",
			       m->rows[i / m->ncols].node,
			       m->cols[i % m->ncols], c->warnings[w]);
	}
	if (count_failed(m)) {
		printf("failed (-):\n");
		for (i = 0; i < m->nrows * m->ncols; i++) {
			c = &m->cells[i];
			if (c->state == CELL_FAILED)
				printf("  node %u (CPU %u) -> node %u: %s\n",
				       m->rows[i / m->ncols].node,
				       m->rows[i / m->ncols].cpu,
				       m->cols[i % m->ncols], c->reason);
		}
	}
	if (m->interrupted) {
		for (i = k = 0; i < m->nrows * m->ncols; i++)
			k += m->cells[i].state == CELL_TODO ||
			     m->cells[i].state == CELL_INTERRUPTED;
		printf("interrupted: %zu cell%s not measured (.)\n", k,
		       k == 1 ? "" : "s");
	}
}

static void put_ns(double v, bool ok, int last)
{
	char buf[64];

	if (ok)
		snprintf(buf, sizeof(buf), "%.*f", NS_DECIMALS, v);
	else
		buf[0] = '\0';
	csv_put(stdout, buf, last);
}

static void put_u64(__u64 v, bool ok)
{
	char buf[32];

	if (ok)
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	else
		buf[0] = '\0';
	csv_put(stdout, buf, 0);
}

/* One row per cell: where, what, the chosen figure, then every figure. */
static void print_csv(const struct matrix *m)
{
	const struct cell *c;
	char name[32];
	size_t i;
	int s;
	bool done;

	csv_put(stdout, "node", 0);
	csv_put(stdout, "cpu", 0);
	csv_put(stdout, "mem_node", 0);
	csv_put(stdout, "state", 0);
	csv_put(stdout, "stat", 0);
	csv_put(stdout, "value_ns", 0);
	csv_put(stdout, "per", 0);
	csv_put(stdout, "samples", 0);
	for (s = 0; s < NR_STATS; s++) {
		snprintf(name, sizeof(name), "ns_%s", latt_stats[s].name);
		csv_put(stdout, name, 0);
	}
	csv_put(stdout, "timer", 0);
	csv_put(stdout, "page_size", 0);
	csv_put(stdout, "reason", 1);
	for (i = 0; i < m->nrows * m->ncols; i++) {
		c = &m->cells[i];
		done = c->state == CELL_DONE;
		put_u64(m->rows[i / m->ncols].node, true);
		put_u64(m->rows[i / m->ncols].cpu, true);
		put_u64(m->cols[i % m->ncols], true);
		csv_put(stdout, cell_state_names[c->state], 0);
		csv_put(stdout, latt_stats[m->stat].name, 0);
		put_ns(c->sum.ns[m->stat], has_value(m, c), 0);
		csv_put(stdout, per(m), 0);
		put_u64(c->sum.count, done);
		for (s = 0; s < NR_STATS; s++)
			put_ns(c->sum.ns[s], done && c->sum.supported[s], 0);
		csv_put(stdout, done ? c->timer : "", 0);
		put_u64(c->page_size, done);
		csv_put(stdout, c->reason, 1);
	}
}

/* The options as asked, every cell's (each cell's own config has what its
 * run resolved: the region as clamped, the width). */
static struct json_object *json_config(const struct matrix *m)
{
	const struct run_opts *b = &m->base;
	const struct latt_config *c = &b->cfg;
	struct json_object *o = json_object_new_object();

	latt_json_str(o, "engine", b->user_engine ? "user" : "kernel");
	latt_json_str(o, "op", latt_name(NAMES_OP, c->op));
	latt_json_str(o, "fence", latt_name(NAMES_FENCE, c->fence));
	latt_json_str(o, "pattern", latt_name(NAMES_PATTERN, c->pattern));
	latt_json_u64(o, "stride", c->pattern == LATT_PAT_STRIDE ? c->stride : 0);
	latt_json_u64(o, "hotspot",
		      c->pattern == LATT_PAT_HOTSPOT ? c->stride : 0);
	latt_json_u64(o, "tlb_locality",
		      c->pattern == LATT_PAT_CHASE ? c->stride : 0);
	latt_json_u64(o, "chain", c->chain ? c->chain : 1);
	latt_json_u64(o, "size", c->size);
	latt_json_u64(o, "region", c->region);
	latt_json_bool(o, "region_default", !b->region_set);
	latt_json_u64(o, "samples", c->samples);
	latt_json_u64(o, "seed", c->seed);
	latt_json_u64(o, "width", c->width);
	latt_json_bool(o, "warm", !!(c->flags & LATT_CFG_WARM));
	latt_json_bool(o, "hugepages", b->hugepages);
	latt_json_str(o, "timer", b->timer_rdtscp ? "rdtscp" :
		      c->flags & LATT_CFG_RDTSC ? "rdtsc" : "auto");
	latt_json_u64(o, "window_us", c->window_us);
	latt_json_str(o, "stat", latt_stats[m->stat].name);
	latt_json_str(o, "unit", "ns");
	latt_json_str(o, "per", per(m));
	return o;
}

static int row_cpu(const struct matrix *m, unsigned int node)
{
	size_t k;

	for (k = 0; k < m->nrows; k++)
		if (m->rows[k].node == node)
			return (int)m->rows[k].cpu;
	return -1;
}

static bool is_col(const struct matrix *m, unsigned int node)
{
	size_t k;

	for (k = 0; k < m->ncols; k++)
		if (m->cols[k] == node)
			return true;
	return false;
}

/* Every node of the host: its CPUs and memory, and whether it is a row
 * (from which CPU) and a column. */
static struct json_object *json_nodes(const struct matrix *m)
{
	struct json_object *a = json_object_new_array(), *o;
	char cpus[HOST_STR];
	long long size, free;
	int node, max = host_max_node(), cpu;

	for (node = 0; node <= max; node++) {
		if (!host_node_exists((unsigned int)node))
			continue;
		o = json_object_new_object();
		latt_json_u64(o, "node", (__u64)node);
		host_node_cpus((unsigned int)node, cpus, sizeof(cpus));
		latt_json_str(o, "cpus", cpus);
		if (!host_node_mem((unsigned int)node, &size, &free)) {
			latt_json_int(o, "memory_bytes", size);
			latt_json_int(o, "free_bytes", free);
		} else {
			json_object_object_add(o, "memory_bytes", NULL);
			json_object_object_add(o, "free_bytes", NULL);
		}
		latt_json_bool(o, "row", is_row(m, (unsigned int)node));
		cpu = row_cpu(m, (unsigned int)node);
		if (cpu >= 0)
			latt_json_u64(o, "cpu", (__u64)cpu);
		else
			json_object_object_add(o, "cpu", NULL);
		latt_json_bool(o, "column", is_col(m, (unsigned int)node));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *num_or_null(const struct matrix *m,
				       const struct cell *c)
{
	return has_value(m, c) ? json_new_fixed(c->sum.ns[m->stat],
						NS_DECIMALS) : NULL;
}

static struct json_object *json_cell(const struct matrix *m, size_t i)
{
	const struct cell *c = &m->cells[i];
	const struct row *row = &m->rows[i / m->ncols];
	struct json_object *o = json_object_new_object();
	static const char *const blocks[] = {
		"target", "config", "result", "latency", "warnings",
	};
	struct json_object *v;
	size_t k;

	latt_json_u64(o, "node", row->node);
	latt_json_u64(o, "cpu", row->cpu);
	latt_json_u64(o, "mem_node", m->cols[i % m->ncols]);
	latt_json_str(o, "state", cell_state_names[c->state]);
	json_object_object_add(o, "value", num_or_null(m, c));
	if (c->reason[0])
		latt_json_str(o, "reason", c->reason);
	else
		json_object_object_add(o, "reason", NULL);
	for (k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
		v = NULL;
		if (c->json)
			json_object_object_get_ex(c->json, blocks[k], &v);
		json_object_object_add(o, blocks[k], json_object_get(v));
	}
	return o;
}

static int write_json(const struct matrix *m)
{
	struct json_object *o = json_object_new_object();
	struct json_object *rows = json_object_new_array();
	struct json_object *cols = json_object_new_array();
	struct json_object *mat = json_object_new_array();
	struct json_object *cells = json_object_new_array();
	struct json_object *row, *ro;
	size_t r, k;
	int rc;

	latt_json_str(o, "schema", MATRIX_SCHEMA);
	json_object_object_add(o, "provenance",
			       json_provenance(m->ctx, m->have_info ? &m->info : NULL,
					       m->base.user_engine, &m->start,
					       &m->end));
	json_object_object_add(o, "config", json_config(m));
	json_object_object_add(o, "nodes", json_nodes(m));
	for (r = 0; r < m->nrows; r++) {
		ro = json_object_new_object();
		latt_json_u64(ro, "node", m->rows[r].node);
		latt_json_u64(ro, "cpu", m->rows[r].cpu);
		json_object_array_add(rows, ro);
		row = json_object_new_array();
		for (k = 0; k < m->ncols; k++)
			json_object_array_add(row,
					      num_or_null(m, cell_at(m, r, k)));
		json_object_array_add(mat, row);
	}
	for (k = 0; k < m->ncols; k++)
		json_object_array_add(cols, json_object_new_uint64(m->cols[k]));
	json_object_object_add(o, "rows", rows);
	json_object_object_add(o, "columns", cols);
	json_object_object_add(o, "matrix", mat);
	for (r = 0; r < m->nrows * m->ncols; r++)
		json_object_array_add(cells, json_cell(m, r));
	json_object_object_add(o, "cells", cells);
	latt_json_u64(o, "failed", count_failed(m));
	latt_json_bool(o, "interrupted", m->interrupted);
	rc = json_emit(m->json, o);
	json_object_put(o);
	if (rc)
		log_err("%s: %s", m->json, strerror(-rc));
	return rc ? 1 : 0;
}

static void matrix_free(struct matrix *m)
{
	size_t i;

	for (i = 0; m->cells && i < m->nrows * m->ncols; i++)
		json_object_put(m->cells[i].json);
	free(m->cells);
	free(m->rows);
	free(m->cols);
}

int cmd_matrix(int argc, char **argv, const struct cmd_ctx *ctx)
{
	struct matrix *m = calloc(1, sizeof(*m));
	int rc, status;

	if (!m) {
		log_err("out of memory");
		return 1;
	}
	m->ctx = ctx;
	rc = matrix_parse(argc, argv, m);
	if (rc) {
		free(m);
		return rc == MATRIX_HELP ? 0 : rc;
	}
	rc = out_check("--json", m->json, OUT_MEASURED) || find_rows(m) || find_cols(m) ||
	     check_module_present(m);
	if (!rc) {
		default_region(m);
		m->cells = calloc(m->nrows * m->ncols, sizeof(*m->cells));
		if (!m->cells) {
			log_err("out of memory");
			rc = 1;
		}
	}
	if (rc) {
		matrix_free(m);
		free(m);
		return 1;
	}
	status = measure_all(m);
	if (m->csv)
		print_csv(m);
	else if (!m->json || strcmp(m->json, "-"))
		print_text(m);
	if (m->json && write_json(m))
		status = status ? status : 1;
	if (!status && count_failed(m))
		status = 1;
	matrix_free(m);
	free(m);
	return status;
}
