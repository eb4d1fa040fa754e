// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-compare.c - lattester-ctl compare: the results of two or more runs
 * (or sweeps) side by side, with their ratios to a baseline, as perf diff
 * does for profiles.
 *
 * The inputs are run's --json documents ("lattester-run/1") or sweep's JSON
 * lines files ("lattester-sweep/1"), not a mix.  Every result is a list of
 * points (a run is one), and every point a list of fields, its
 * configuration (a run's "config" block, with its target and engine; a
 * sweep row's key), and its latency figures in one unit: corrected ns if
 * every point knows its TSC frequency, else corrected cycles (--unit).
 *
 * A field whose value is the same at every point of each file but differs
 * between the files is what the files compare (the target, the engine, and
 * whatever else was changed); the other fields match the points of each
 * file with those of the baseline (a sweep, point by point).  Differences
 * in fields other than the target and the engine are warned about, never
 * refused: the user may mean them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include "builtin.h"
#include "csv.h"
#include "duty.h"
#include "grid.h"
#include "json-out.h"
#include "log.h"
#include "stats.h"
#include "sweep-file.h"

#define COMPARE_HELP	(-1)
#define COMPARE_SCHEMA	"lattester-compare/1"
#define RUN_SCHEMA	"lattester-run"
#define SCHEMA_VERSION	1	/* of the run and sweep documents read */
#define MAX_FILES	16
#define MAX_REPEATS	1000	/* a point's repeats taken (sweep --repeat's most) */
#define STAT_RATE	NR_STATS	/* the outlier rate: a row of its own */
#define NR_ROWS		(NR_STATS + 1)
#define RATIO_DECIMALS	6
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum compare_opt_id {
	OPT_BASELINE = 256,
	OPT_UNIT,
	OPT_STAT,
	OPT_JSON,
	OPT_CSV,
	OPT_IN,
};

static const struct cmd_opt compare_options[] = {
	OPT_ROW("baseline", OPT_BASELINE, "N",
	  "the result the others are divided by: 1 for the first file (default: 1)"),
	OPT_ROW("unit", OPT_UNIT, "ns|cycles|raw",
	  "what is compared: corrected ns (the default when every result has its TSC frequency), corrected cycles (the default when none has) or raw cycles per sample"),
	OPT_ROW("stat", OPT_STAT, "LIST",
	  "the rows, of min, p50, p90, p99, p99.9, p99.99, p99.999, p99.9999, max, mean, outliers (default: run's table and the outlier rate; sweeps: p50,p99 and the outlier rate)"),
	OPT_ROW("json", OPT_JSON, NULL,
	  "print the comparison as JSON (lattester-compare/1)"),
	OPT_ROW("csv", OPT_CSV, NULL,
	  "print the comparison as CSV: label, stat, then a value and a ratio column per file"),
	OPT_ROW("in", OPT_IN, "FILE",
	  "a result to compare, as plot names its input: again for each (they come before the files named without --in)"),
	OPT_END
};

static const char *const compare_examples[] = {
	"lattester-ctl compare kernel.json user.json",
	"the kernel engine against the user engine, ratios user/kernel",
	"lattester-ctl compare --baseline 2 optane.json dram.json",
	"persistent memory against DRAM, ratios optane/dram",
	"lattester-ctl compare --stat p50,p99.9 --csv node0.jsonl node1.jsonl",
	"two sweeps point by point, as CSV",
	NULL
};

/* --in names one result of several */
static bool compare_repeatable(int id)
{
	return id == OPT_IN;
}

const struct cmd_usage compare_usage = {
	.cmd = "compare",
	.synopsis = "[OPTIONS] A.json B.json [C.json ...]",
	.about = "Show the results of two or more runs (run --json files) or sweeps (sweep .jsonl\n"
		 "files) side by side, with each one's ratio to the baseline (the first, or\n"
		 "--baseline N).  Needs neither the module nor root.  Exit status: 0 compared,\n"
		 "1 error, 2 usage.",
	.opts = compare_options,
	.description =
		"compare prints a header naming each result (file, target, op, pattern, size, CPU, engine, kernel and host), then a table: a row per statistic, a column per file, and a column per other file with its ratio to the baseline.  The figures are corrected ns when every result records its TSC frequency, else corrected cycles; results whose figures can't be brought to one unit are refused.\n\n"
		"What the files compare is what sets them apart: a field of the configuration with one value in each file and different values between them (the target, the engine, ...).  When they differ in more than the target and the engine (op, size, samples, ...), they are compared all the same, with a warning naming the fields.  Sweeps are compared point by point: their other fields (each point's key) match the points; a point with no match is shown with '-' and counted.  A point's repeats (sweep --repeat, run --repeat, or a point written twice) are compared by their median, and a column per other file says whether the difference lies beyond their spread: beyond (the ranges apart, by a chance of 2/C(n+m,n) <= 0.05: 5 and 5 repeats), few (apart, too few repeats to tell) or within.  Two single runs are compared by their 95% confidence intervals (run's latency.intervals, in ns or cycles): beyond where they don't overlap, within where they do.  A file that is no lattester result, of a schema version this tool doesn't read, or an outlier or sweep CSV file, is refused by name.",
	.examples = compare_examples,
	.see_also = "perf-diff(1)",
	.file_args = 1,
	.repeatable = compare_repeatable,
};

/* The fields that say what is compared, not how: no warning. */
static const char *const compared_fields[] = {
	"target", "engine", "hugepages", "force", "offset", "traffic_target",
};

/* The fields a run's header shows first. */
static const char *const head_fields[] = {
	"target", "op", "pattern", "size", "cpu", "engine",
};

/* A run's configuration fields, from its "config" block. */
static const char *const config_fields[] = {
	"cpu", "op", "fence", "size", "region", "samples", "seed", "chain",
	"threshold_cycles", "window_us", "width", "warm", "force",
	"mode", "threads", "split", "delay_cycles", "mix", "tlb_locality",
};

enum unit {
	UNIT_NS,
	UNIT_CYCLES,
	UNIT_RAW,
};

static const struct {
	const char *name;	/* --unit */
	const char *key;	/* of the "latency" block */
	const char *title;	/* "%s": access or load */
	int decimals;		/* of the JSON and CSV values */
} units[] = {
	[UNIT_NS] = { "ns", "ns", "ns per %s, corrected (raw - overhead)", 3 },
	[UNIT_CYCLES] = { "cycles", "cycles",
			  "cycles per %s, corrected (raw - overhead)", 1 },
	[UNIT_RAW] = { "raw", "raw_cycles",
		       "raw cycles per sample, the timer overhead included", 1 },
};

struct field {
	char *name;
	char *value;
};

struct point {
	struct json_object *o;	/* the document, or the sweep's row */
	struct field *f;
	size_t nf;
	char *match;		/* the fields that match it to others */
	size_t idx;		/* in its file */
	bool dup;		/* a repeat of an earlier point (its match) */
	struct point **rep;	/* the first of a match: its repeats, itself
				 * first (@nrep > 1), else NULL */
	size_t nrep;
};

struct file {
	const char *path;
	bool sweep;
	struct point *p;
	size_t n;
	struct point **sorted;	/* by match, then index */
	size_t unmatched;	/* points with no match in the baseline */
	size_t missing;		/* baseline points with no match here */
	size_t repeated;	/* points measured more than once */
	size_t most, least;	/* the most and fewest times, of those */
};

/* A row of points: the baseline's, and what matches it in each file. */
struct match {
	struct point *p[MAX_FILES];
};

struct compare {
	struct file f[MAX_FILES];
	int nf;
	int base;			/* index of the baseline */
	enum unit unit;
	bool unit_set;
	bool json, csv;
	bool rows[NR_ROWS];
	bool rows_set;
	struct str_list names;		/* every field's name, in order */
	bool *file_level;		/* per name: sets the files apart */
	bool *varies;			/* per name: differs in the baseline */
	struct str_list warnings;
	struct match *m;
	size_t nm;
	const char *per;		/* "access", "load", or NULL: mixed */
};

/* ---- JSON ---- */

/* @o's member at the path of keys that follows, or NULL. */
static struct json_object *get(struct json_object *o, ...)
{
	const char *key;
	va_list ap;

	va_start(ap, o);
	while (o && (key = va_arg(ap, const char *)))
		if (!json_object_object_get_ex(o, key, &o))
			o = NULL;
	va_end(ap);
	return o;
}

static const char *get_str(struct json_object *o, const char *key)
{
	o = get(o, key, NULL);
	return o && json_object_is_type(o, json_type_string) ?
	       json_object_get_string(o) : NULL;
}

static bool get_num(struct json_object *o, double *v)
{
	if (!o || (!json_object_is_type(o, json_type_double) &&
		   !json_object_is_type(o, json_type_int)))
		return false;
	*v = json_object_get_double(o);
	return true;
}

/* ---- the fields of a point ---- */

static int add_field_n(struct point *p, const char *name, size_t nlen,
		       const char *value, size_t vlen)
{
	struct field *f = realloc(p->f, (p->nf + 1) * sizeof(*f));

	if (!f)
		return -ENOMEM;
	p->f = f;
	f[p->nf].name = strndup(name, nlen);
	f[p->nf].value = strndup(value, vlen);
	if (!f[p->nf].name || !f[p->nf].value) {
		free(f[p->nf].name);
		free(f[p->nf].value);
		return -ENOMEM;
	}
	p->nf++;
	return 0;
}

static int add_field(struct point *p, const char *name, const char *value)
{
	return add_field_n(p, name, strlen(name), value, strlen(value));
}

/* A run's fields: its target, engine, "config" block and timer (1.3). */
static int run_fields(struct point *p)
{
	struct json_object *cfg = get(p->o, "config", NULL), *v;
	const char *timer = get_str(get(get(p->o, "result", NULL), "timer",
					NULL), "name");
	const char *target = get_str(get(p->o, "target", NULL), "spec");
	const char *engine = get_str(get(p->o, "provenance", NULL), "engine");
	const char *pattern = get_str(cfg, "pattern");
	char buf[96];
	double n;
	size_t i;
	int rc;

	if (!cfg || !pattern)
		return -EINVAL;
	rc = add_field(p, "target", target ? target :
		       get_str(cfg, "target") ? get_str(cfg, "target") : "");
	if (!rc && engine)
		rc = add_field(p, "engine", engine);
	snprintf(buf, sizeof(buf), "%s", pattern);
	if (get_num(get(cfg, "stride", NULL), &n) && n > 0)
		snprintf(buf, sizeof(buf), "%s:%.0f", pattern, n);
	else if (get_num(get(cfg, "hotspot", NULL), &n) && n > 0)
		snprintf(buf, sizeof(buf), "%s:%.0f", pattern, n);
	if (!rc)
		rc = add_field(p, "pattern", buf);
	for (i = 0; !rc && i < ARRAY_SIZE(config_fields); i++) {
		v = get(cfg, config_fields[i], NULL);
		if (v)
			rc = add_field(p, config_fields[i],
				       json_object_get_string(v));
	}
	if (!rc && timer)
		rc = add_field(p, "timer", timer);
	/* --traffic-target, as a sweep's key names it */
	v = get(get(p->o, "threads", NULL), "traffic_target", NULL);
	if (!rc && v)
		rc = add_field(p, "traffic_target",
			       get_str(v, "spec") ? get_str(v, "spec") : "");
	return rc;
}

/* A sweep row's fields: its key, "name=value;...". */
static int key_fields(struct point *p, const char *key)
{
	const char *pos = key, *name, *value;
	size_t nlen, vlen;
	int r;

	while ((r = key_next(&pos, &name, &nlen, &value, &vlen)) > 0) {
		/* sweep --repeat: repeats of one point, not points */
		if (key_name_is(name, nlen, KEY_REPEAT))
			continue;
		if ((r = add_field_n(p, name, nlen, value, vlen)))
			return r;
	}
	return r;
}

/*
 * @name's value at @p; a field a sweep's key lacks reads as what its
 * absence stands for (key_defs[]: an older file's engine is the kernel's).
 */
static const char *value_of(const struct point *p, const char *name)
{
	const struct key_def *d = key_def_of(name);
	size_t i;

	for (i = 0; i < p->nf; i++)
		if (!strcmp(p->f[i].name, name))
			return p->f[i].value;
	return d && d->absent ? d->absent : "";
}

/* @name's value if it is the same at every point of @f, else NULL. */
static const char *file_value(const struct file *f, const char *name)
{
	const char *v = NULL;
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->p[i].dup)
			continue;
		if (!v)
			v = value_of(&f->p[i], name);
		else if (strcmp(v, value_of(&f->p[i], name)))
			return NULL;
	}
	return v;
}

/* ---- reading the files ---- */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f) {
		log_err("%s: %s", path, strerror(errno));
		return NULL;
	}
	n = getdelim(&buf, &cap, '\0', f);
	if (n < 0 && ferror(f)) {
		log_err("%s: %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	} else if (n < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

/*
 * Is @o a document of @want ("lattester-run") of the version read here?
 * Says why not, and returns false.
 */
static bool check_schema(const char *path, const char *where,
			 struct json_object *o, const char *want)
{
	const char *s = json_object_is_type(o, json_type_object) ?
			get_str(o, "schema") : NULL;
	size_t n = strlen(want);

	if (!s) {
		log_err("%s%s: not a lattester result (no \"schema\"): compare reads run --json files and sweep .jsonl files", path,
			where);
		return false;
	}
	if (!strncmp(s, want, n) && s[n] == '/') {
		if (atoi(s + n + 1) == SCHEMA_VERSION)
			return true;
		log_err("%s%s: %s: this lattester-ctl reads %s/%d (a result of another version of lattester-ctl)", path, where, s, want,
			SCHEMA_VERSION);
		return false;
	}
	if (!strncmp(s, "lattester-outliers/", 19))
		log_err("%s: an outlier file (run --outliers), not a result: compare the run's --json file", path);
	else if (!strncmp(s, RUN_SCHEMA "/", strlen(RUN_SCHEMA) + 1) ||
		 !strncmp(s, SWEEP_SCHEMA_NAME "/",
			  strlen(SWEEP_SCHEMA_NAME) + 1))
		log_err("%s%s: a %s document among %s ones", path, where, s,
			want);
	else
		log_err("%s%s: a %s document, not a result of run or sweep",
			path, where, s);
	return false;
}

static int add_warning(struct compare *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int add_warning(struct compare *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return str_list_add(&c->warnings, msg);
}

static struct point *new_point(struct file *f, struct json_object *o)
{
	struct point *p = realloc(f->p, (f->n + 1) * sizeof(*p));

	if (!p) {
		json_object_put(o);
		return NULL;
	}
	f->p = p;
	p += f->n;
	memset(p, 0, sizeof(*p));
	p->o = o;
	p->idx = f->n++;
	return p;
}

/*
 * run --repeat N: the document is repeat 1's, and "repeats" holds every
 * repeat (latency, result, outlier_summary), the first again: repeats 2
 * to N become points of their own with the document's fields, which
 * match_points() gathers as the repeats of the first.
 */
static int load_repeats(struct file *f, struct json_object *o)
{
	struct json_object *reps = get(o, "repeats", NULL), *r;
	struct json_object *prov = get(o, "provenance", NULL);
	size_t k, n, j, first = f->n - 1;
	struct point *p;

	if (!reps || !json_object_is_type(reps, json_type_array))
		return 0;
	n = json_object_array_length(reps);
	for (k = 1; k < n; k++) {
		r = json_object_array_get_idx(reps, k);
		if (!json_object_is_type(r, json_type_object))
			continue;
		/* the run's provenance (its TSC frequency) is each repeat's */
		if (prov && !get(r, "provenance", NULL))
			json_object_object_add(r, "provenance",
					       json_object_get(prov));
		p = new_point(f, json_object_get(r));
		if (!p)
			goto oom;
		for (j = 0; j < f->p[first].nf; j++)
			if (add_field(p, f->p[first].f[j].name,
				      f->p[first].f[j].value))
				goto oom;
	}
	return 0;
oom:
	log_err("out of memory");
	return 1;
}

/* A run --json document. */
static int load_run(struct compare *c, struct file *f, struct json_object *o)
{
	struct point *p;
	const char *state, *mode;

	if (!check_schema(f->path, "", o, RUN_SCHEMA)) {
		json_object_put(o);
		return 1;
	}
	p = new_point(f, o);
	if (!p || run_fields(p)) {
		log_err("%s: %s", f->path, p ? "a lattester-run/1 document without its \"config\"" : "out of memory");
		return 1;
	}
	if (!get(o, "latency", NULL)) {
		mode = get_str(get(o, "config", NULL), "mode");
		if (mode && !strcmp(mode, "bandwidth"))
			log_err("%s: a --mode bandwidth run times no single access: compare sets latencies side by side (its GB/s are in the file's \"threads\" block)", f->path);
		else
			log_err("%s: the run took no sample: nothing to compare", f->path);
		return 1;
	}
	state = get_str(get(o, "result", NULL), "state");
	if (state && strcmp(state, "done") &&
	    add_warning(c, "[%d] %s: the run ended %s: its figures are of the samples taken", (int)(f - c->f) + 1, f->path, state))
		return 1;
	return load_repeats(f, o);
}

/*
 * A point whose traffic streamed less than duty_min_pct() of its run
 * (threads.bandwidth.duty_cycle; duty.h's duty_low(), run's and sweep's
 * own warning): its latency was taken under less load than its delay
 * asked.  The point's duty cycle, or a negative number where it has none
 * (latency mode).
 */
static double point_duty(struct json_object *o)
{
	double d;

	return get_num(get(get(get(o, "threads", NULL), "bandwidth", NULL),
			   "duty_cycle", NULL), &d) ? d : -1;
}

/* A warning for the points of @f whose traffic was disturbed, if any. */
static int warn_disturbed(struct compare *c, const struct file *f)
{
	size_t i, n = 0;
	double d, least = 1;

	for (i = 0; i < f->n; i++) {
		d = point_duty(f->p[i].o);
		if (d >= 0 && duty_low(d)) {
			n++;
			least = d < least ? d : least;
		}
	}
	if (!n)
		return 0;
	if (!f->sweep)
		return add_warning(c, "[%d] %s: its traffic streamed %.0f%% of the run (duty cycle; below %d%% the run was disturbed): its latency is under less load than asked",
				   (int)(f - c->f) + 1, f->path, 100 * least,
				   duty_min_pct());
	return add_warning(c, "[%d] %s: %zu of %zu points' traffic streamed less than %d%% of the run (duty cycle; the least %.0f%%): disturbed, their latency under less load than asked",
			   (int)(f - c->f) + 1, f->path, n, f->n,
			   duty_min_pct(), 100 * least);
}

/* A sweep .jsonl file: one row per line; a line cut short is skipped. */
static int load_sweep(struct compare *c, struct file *f, char *buf)
{
	char *line, *save = NULL;
	struct json_object *o;
	const char *key;
	size_t lineno = 0, cut = 0;
	struct point *p;
	char where[32];

	f->sweep = true;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (line[strspn(line, " \t\r")] == '\0')
			continue;
		o = json_tokener_parse(line);
		if (!o) {
			cut++;
			continue;
		}
		snprintf(where, sizeof(where), ":%zu", lineno);
		if (!check_schema(f->path, where, o, SWEEP_SCHEMA_NAME)) {
			json_object_put(o);
			return 1;
		}
		key = get_str(o, SWEEP_KEY);
		p = new_point(f, o);
		if (!p || !key || key_fields(p, key)) {
			log_err("%s:%zu: %s", f->path, lineno, p ?
				"a sweep row without a valid \"key\"" :
				"out of memory");
			return 1;
		}
		if (!get(o, "latency", NULL)) {
			log_err("%s:%zu: a point without latency figures",
				f->path, lineno);
			return 1;
		}
	}
	if (cut && add_warning(c, "[%d] %s: %zu line%s cut short (not JSON): skipped", (int)(f - c->f) + 1, f->path, cut,
			       cut == 1 ? "" : "s"))
		return 1;
	if (!f->n) {
		log_err("%s: no point: an empty sweep file", f->path);
		return 1;
	}
	return 0;
}

static int load_file(struct compare *c, struct file *f)
{
	char *buf = slurp(f->path), *first, *line;
	struct json_object *o;
	enum json_tokener_error err;
	int rc;

	if (!buf)
		return 1;
	first = buf + strspn(buf, " \t\r\n");
	if (!*first) {
		log_err("%s: empty: not a lattester result", f->path);
		free(buf);
		return 1;
	}
	/* a sweep's JSON lines: the first line is a whole sweep row */
	line = strndup(first, strcspn(first, "\n"));
	o = line ? json_tokener_parse(line) : NULL;
	free(line);
	if (o && json_object_is_type(o, json_type_object) &&
	    get_str(o, "schema") &&
	    !strncmp(get_str(o, "schema"), SWEEP_SCHEMA_NAME "/",
		     strlen(SWEEP_SCHEMA_NAME) + 1)) {
		json_object_put(o);
		rc = load_sweep(c, f, buf);
		free(buf);
		return rc ? rc : warn_disturbed(c, f);
	}
	json_object_put(o);
	o = json_tokener_parse_verbose(buf, &err);
	if (!o) {
		if (sweep_csv_like(first))
			log_err("%s: a sweep CSV file: compare reads sweep's JSON lines (sweep --out FILE.jsonl)", f->path);
		else
			log_err("%s: not a lattester result (not JSON: %s)",
				f->path, json_tokener_error_desc(err));
		free(buf);
		return 1;
	}
	free(buf);
	rc = load_run(c, f, o);
	return rc ? rc : warn_disturbed(c, f);
}

/* ---- matching ---- */

static int cmp_points(const void *a, const void *b)
{
	const struct point *x = *(struct point *const *)a;
	const struct point *y = *(struct point *const *)b;
	int d = strcmp(x->match, y->match);

	return d ? d : (x->idx > y->idx) - (x->idx < y->idx);
}

/* The first point of @f whose match is @match, or NULL. */
static struct point *find(const struct file *f, const char *match)
{
	size_t lo = 0, hi = f->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (strcmp(f->sorted[mid]->match, match) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->n && !strcmp(f->sorted[lo]->match, match) ?
	       f->sorted[lo] : NULL;
}

/* Every field name, and which set the files apart. */
static int classify(struct compare *c)
{
	const char *v, *first;
	size_t i, j, k;
	int fi;

	for (fi = 0; fi < c->nf; fi++)
		for (i = 0; i < c->f[fi].n; i++)
			for (j = 0; j < c->f[fi].p[i].nf; j++) {
				const char *name = c->f[fi].p[i].f[j].name;

				if (!str_list_has(&c->names, name) &&
				    str_list_add(&c->names, name))
					return -ENOMEM;
			}
	c->file_level = calloc(c->names.n + 1, sizeof(bool));
	c->varies = calloc(c->names.n + 1, sizeof(bool));
	if (!c->file_level || !c->varies)
		return -ENOMEM;
	for (k = 0; k < c->names.n; k++) {
		bool differ = false, constant = true;

		first = NULL;
		for (fi = 0; fi < c->nf && constant; fi++) {
			v = file_value(&c->f[fi], c->names.v[k]);
			if (!v)
				constant = false;
			else if (!first)
				first = v;
			else if (strcmp(first, v))
				differ = true;
		}
		c->file_level[k] = constant && differ;
	}
	return 0;
}

/* The match of @p: its fields that don't set the files apart. */
static int make_match(const struct compare *c, struct point *p)
{
	size_t k, len, n = 0;
	FILE *m = open_memstream(&p->match, &len);

	if (!m)
		return -ENOMEM;
	for (k = 0; k < c->names.n; k++)
		if (!c->file_level[k])
			fprintf(m, "%s%s=%s", n++ ? ";" : "", c->names.v[k],
				value_of(p, c->names.v[k]));
	return fclose(m) ? -ENOMEM : 0;
}

/* Sort each file by match, gather each point's repeats, count the
 * unmatched. */
static int match_points(struct compare *c)
{
	struct file *b = &c->f[c->base], *f;
	size_t i, j, k;
	int fi;

	for (fi = 0; fi < c->nf; fi++) {
		f = &c->f[fi];
		f->sorted = calloc(f->n, sizeof(*f->sorted));
		if (!f->sorted)
			return -ENOMEM;
		for (i = 0; i < f->n; i++) {
			if (make_match(c, &f->p[i]))
				return -ENOMEM;
			f->sorted[i] = &f->p[i];
		}
		qsort(f->sorted, f->n, sizeof(*f->sorted), cmp_points);
		/* a match's points: the first (in the file's order) and its
		 * repeats (sweep --repeat, or a point written twice) */
		for (i = 0; i < f->n; i = j) {
			for (j = i + 1; j < f->n &&
			     !strcmp(f->sorted[j]->match, f->sorted[i]->match);
			     j++)
				f->sorted[j]->dup = true;
			f->sorted[i]->nrep = j - i;
			if (j - i < 2)
				continue;
			f->sorted[i]->rep = calloc(j - i, sizeof(struct point *));
			if (!f->sorted[i]->rep)
				return -ENOMEM;
			for (k = i; k < j; k++)
				f->sorted[i]->rep[k - i] = f->sorted[k];
			f->repeated++;
			f->most = j - i > f->most ? j - i : f->most;
			f->least = !f->least || j - i < f->least ? j - i :
				   f->least;
		}
	}
	c->m = calloc(b->n, sizeof(*c->m));
	if (!c->m)
		return -ENOMEM;
	for (i = 0; i < b->n; i++) {
		if (b->p[i].dup)
			continue;
		for (fi = 0; fi < c->nf; fi++)
			c->m[c->nm].p[fi] = fi == c->base ? &b->p[i] :
					    find(&c->f[fi], b->p[i].match);
		c->nm++;
	}
	for (fi = 0; fi < c->nf; fi++) {
		f = &c->f[fi];
		for (i = 0; i < f->n; i++)
			if (!f->p[i].dup && !find(b, f->p[i].match))
				f->unmatched++;
		for (i = 0; i < c->nm; i++)
			if (!c->m[i].p[fi])
				f->missing++;
	}
	return 0;
}

/* Does @name take more than one value over the baseline's points? */
static bool varies_in_base(const struct compare *c, const char *name)
{
	const struct file *b = &c->f[c->base];

	return !file_value(b, name);
}

static bool in_list(const char *const *list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static bool is_compared_field(const char *name)
{
	return in_list(compared_fields, ARRAY_SIZE(compared_fields), name);
}

/* "size (64, 256)": a field's value in each file. */
static void fmt_difference(FILE *m, const struct compare *c, size_t k)
{
	int fi;

	fprintf(m, "%s (", c->names.v[k]);
	for (fi = 0; fi < c->nf; fi++)
		fprintf(m, "%s%s", fi ? ", " : "",
			file_value(&c->f[fi], c->names.v[k]));
	fputc(')', m);
}

static int warn_differences(struct compare *c)
{
	char *buf = NULL;
	size_t k, len, n = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -ENOMEM;
	for (k = 0; k < c->names.n; k++) {
		if (!c->file_level[k] || is_compared_field(c->names.v[k]))
			continue;
		fputs(n++ ? ", " : "", m);
		fmt_difference(m, c, k);
	}
	if (fclose(m))
		return -ENOMEM;
	rc = n ? add_warning(c, "the %s differ in more than target and engine: %s; compared all the same",
			     c->f[0].sweep ? "sweeps" : "runs", buf) : 0;
	free(buf);
	return rc;
}

/* ---- units ---- */

static __u64 tsc_khz_of(const struct point *p)
{
	double v;

	return get_num(get(p->o, "provenance", "tsc_khz", NULL), &v) && v > 0 ?
	       (__u64)v : 0;
}

/*
 * Two TSC frequencies are one if they differ by at most 1/TSC_SAME_PARTS of
 * the lower: the user engine calibrates tsc_khz against CLOCK_MONOTONIC_RAW
 * for 100 ms where the kernel exports none, and two runs on one machine get
 * 2096008 and 2096010 kHz.  0.1% is far above that noise and far below any
 * two machines' difference worth a warning.
 */
#define TSC_SAME_PARTS	1000

/*
 * Corrected ns if every point knows its TSC frequency, cycles if none
 * does; when some do and some don't, --unit cycles must say so.
 */
static int choose_unit(struct compare *c)
{
	const char *unknown = NULL;
	__u64 khz, lo = 0, hi = 0;
	bool differ, known = false;
	size_t i;
	int fi;

	for (fi = 0; fi < c->nf; fi++) {
		for (i = 0; i < c->f[fi].n; i++) {
			khz = tsc_khz_of(&c->f[fi].p[i]);
			if (!khz && !unknown)
				unknown = c->f[fi].path;
			if (khz && (!lo || khz < lo))
				lo = khz;
			if (khz > hi)
				hi = khz;
			known |= khz != 0;
		}
	}
	differ = known && hi - lo > lo / TSC_SAME_PARTS;
	if (!c->unit_set)
		c->unit = unknown && !known ? UNIT_CYCLES : UNIT_NS;
	if (c->unit == UNIT_NS && unknown) {
		log_err("%s: no TSC frequency (tsc_khz 0): its cycles can't be converted to ns%s", unknown, known ? "; compare every result in cycles with --unit cycles" : "");
		return 1;
	}
	if (c->unit != UNIT_NS && unknown && known &&
	    add_warning(c, "%s has no TSC frequency: its cycles may not be the others'", unknown))
		return -ENOMEM;
	if (c->unit != UNIT_NS && differ &&
	    add_warning(c, "the results' TSCs run at different frequencies (%llu to %llu kHz, more than 0.1%% apart): their %s are not the same unit (--unit ns converts)",
			(unsigned long long)lo, (unsigned long long)hi,
			c->unit == UNIT_RAW ? "raw cycles" : "cycles"))
		return -ENOMEM;
	return 0;
}

/* "access", "load", or NULL when the points differ (chase --chain). */
static const char *common_per(const struct compare *c)
{
	const char *per = NULL, *v;
	size_t i;
	int fi;

	for (fi = 0; fi < c->nf; fi++) {
		for (i = 0; i < c->f[fi].n; i++) {
			v = get_str(get(c->f[fi].p[i].o, "latency", NULL), "per");
			if (!v)
				v = "access";
			if (per && strcmp(per, v))
				return NULL;
			per = v;
		}
	}
	return per;
}

/*
 * Is percentile @name in the latency block's "unsupported" list: too few
 * samples for it (run's table prints "-")?  Documents without the list
 * (before it was added) support every figure they have.
 */
static bool unsupported(struct json_object *lat, const char *name)
{
	struct json_object *a = get(lat, "unsupported", NULL), *e;
	size_t i, n;

	if (!a || !json_object_is_type(a, json_type_array))
		return false;
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(a, i);
		if (json_object_is_type(e, json_type_string) &&
		    !strcmp(json_object_get_string(e), name))
			return true;
	}
	return false;
}

/* One run's figure for row @row in the chosen unit; none ("-", null) for
 * a percentile its samples can't support. */
static bool figure_one(const struct compare *c, const struct point *p,
		       int row, double *v)
{
	struct json_object *lat;
	double n;

	if (!p)
		return false;
	if (row == STAT_RATE)
		return get_num(get(p->o, "outlier_summary", "rate", NULL), v);
	lat = get(p->o, "latency", NULL);
	/* the list, and run's rule for documents written before it */
	if (unsupported(lat, latt_stats[row].name) ||
	    (get_num(get(p->o, "result", "samples", NULL), &n) &&
	     !latt_stat_supported((__u64)n, (enum latt_stat)row)))
		return false;
	return get_num(get(lat, units[c->unit].key, latt_stats[row].name,
			   NULL), v);
}

/*
 * A point's figure for row @row over its repeats (one, if it has none):
 * their median, least and largest, counting those that have it.
 */
static bool spread(const struct compare *c, const struct point *p, int row,
		   struct latt_spread *s)
{
	double v[MAX_REPEATS];
	size_t k, n = 0;

	if (!p)
		return false;
	if (!p->rep) {
		if (!figure_one(c, p, row, &v[0]))
			return false;
		*s = (struct latt_spread){ v[0], v[0], v[0], 1 };
		return true;
	}
	for (k = 0; k < p->nrep && n < MAX_REPEATS; k++)
		n += figure_one(c, p->rep[k], row, &v[n]);
	return n && !latt_spread_of(s, v, n);
}

/* A point's figure: its repeats' median, or its own. */
static bool figure(const struct compare *c, const struct point *p, int row,
		   double *v)
{
	struct latt_spread s;

	if (!spread(c, p, row, &s))
		return false;
	*v = s.median;
	return true;
}

/*
 * A single run's 95% interval of row @row in the compared unit
 * (latency.intervals, run's latt_summarize_ci()): false for a point with
 * repeats, a unit or figure without one, or a document from before them.
 */
static bool interval(const struct compare *c, const struct point *p,
		     int row, double *lo, double *hi)
{
	struct json_object *a;

	if (!p || p->rep || row == STAT_RATE || c->unit == UNIT_RAW)
		return false;
	a = get(p->o, "latency", "intervals", units[c->unit].key,
		latt_stats[row].name, NULL);
	if (!a || !json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != 2)
		return false;
	return get_num(json_object_array_get_idx(a, 0), lo) &&
	       get_num(json_object_array_get_idx(a, 1), hi);
}

/*
 * Does @m's figure in file @fi differ from the baseline's beyond their
 * repeats' spread, or, two single runs, beyond their 95% intervals?
 * *@chance: that of repeats' ranges apart by chance; -1 for intervals.
 */
static enum latt_apart apart(const struct compare *c, const struct match *m,
			     int row, int fi, double *chance)
{
	struct latt_spread a, b;
	double alo, ahi, blo, bhi;
	enum latt_apart ap;

	*chance = 1;
	if (fi == c->base || !spread(c, m->p[fi], row, &a) ||
	    !spread(c, m->p[c->base], row, &b))
		return LATT_APART_UNKNOWN;
	ap = latt_spread_apart(&a, &b, chance);
	if (ap != LATT_APART_UNKNOWN ||
	    !interval(c, m->p[fi], row, &alo, &ahi) ||
	    !interval(c, m->p[c->base], row, &blo, &bhi))
		return ap;
	*chance = -1;
	return ahi >= blo && bhi >= alo ? LATT_APART_WITHIN :
	       LATT_APART_BEYOND;
}

/* Does a verdict of two single runs' intervals show anywhere? */
static bool any_intervals(const struct compare *c)
{
	double r;
	size_t i;
	int row, fi;

	for (i = 0; i < c->nm; i++)
		for (row = 0; row < NR_ROWS; row++)
			for (fi = 0; c->rows[row] && fi < c->nf; fi++)
				if (apart(c, &c->m[i], row, fi, &r) !=
				    LATT_APART_UNKNOWN && r < 0)
					return true;
	return false;
}

/* Was any point measured more than once? */
static bool any_repeats(const struct compare *c)
{
	int fi;

	for (fi = 0; fi < c->nf; fi++)
		if (c->f[fi].repeated)
			return true;
	return false;
}

/* @m's figure in file @fi over the baseline's, if both are there. */
static bool ratio(const struct compare *c, const struct match *m, int row,
		  int fi, double *r)
{
	double v, b;

	if (!figure(c, m->p[fi], row, &v) ||
	    !figure(c, m->p[c->base], row, &b) || b == 0)
		return false;
	*r = v / b;
	return true;
}

static bool any_rate(const struct compare *c)
{
	size_t i;
	int fi;

	for (fi = 0; fi < c->nf; fi++)
		for (i = 0; i < c->f[fi].n; i++)
			if (get(c->f[fi].p[i].o, "outlier_summary", NULL))
				return true;
	return false;
}

static void default_rows(struct compare *c)
{
	int i;

	if (c->rows_set)
		return;
	for (i = 0; i < NR_STATS; i++)
		c->rows[i] = c->f[0].sweep ? i == STAT_P50 || i == STAT_P99 :
			     latt_stats[i].in_table;
	c->rows[STAT_RATE] = any_rate(c);
}

static const char *row_name(int row)
{
	return row == STAT_RATE ? "outliers" : latt_stats[row].name;
}

/* "op=load,size=64": the point's fields that vary in the baseline. */
static void label(char *buf, size_t len, const struct compare *c,
		  const struct point *p)
{
	size_t k, n = 0;

	buf[0] = '\0';
	for (k = 0; k < c->names.n && n < len; k++)
		if (c->varies[k])
			n += snprintf(buf + n, len - n, "%s%s=%s", n ? "," : "",
				      c->names.v[k],
				      value_of(p, c->names.v[k]));
}

/* ---- text ---- */

static void fmt_figure(char *buf, size_t len, const struct compare *c,
		       const struct point *p, int row)
{
	double v;

	if (!figure(c, p, row, &v))
		snprintf(buf, len, "-");
	else if (row == STAT_RATE)
		snprintf(buf, len, "%.4f%%", 100 * v);
	else if (c->unit == UNIT_NS || row == STAT_MEAN)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

/* "[1] a.json: target dram, op load, ...; kernel K on HOST" */
static void print_head(const struct compare *c, int fi)
{
	const struct file *f = &c->f[fi];
	struct json_object *prov = get(f->p[0].o, "provenance", NULL);
	const char *kernel = get_str(prov, "kernel"), *host = get_str(prov,
								     "hostname");
	const char *v;
	size_t i, k, n = 0;

	printf("[%d] %s:", fi + 1, f->path);
	if (f->sweep && f->repeated)
		printf(" %zu rows;", f->n);
	else if (f->sweep)
		printf(" %zu point%s;", f->n, f->n == 1 ? "" : "s");
	for (i = 0; i < ARRAY_SIZE(head_fields); i++) {
		v = file_value(f, head_fields[i]);
		if (v && v[0])
			printf("%s %s %s", n++ ? "," : "", head_fields[i], v);
	}
	/* and the other fields that set the files apart */
	for (k = 0; k < c->names.n; k++)
		if (c->file_level[k] && !in_list(head_fields,
						 ARRAY_SIZE(head_fields),
						 c->names.v[k]))
			printf("%s %s %s", n++ ? "," : "", c->names.v[k],
			       file_value(f, c->names.v[k]));
	if (kernel || host)
		printf("; kernel %s on %s", kernel ? kernel : "?",
		       host ? host : "?");
	if (f->repeated)
		printf("; %zu point%s measured %s%zu times: their median",
		       f->repeated, f->repeated == 1 ? "" : "s",
		       f->least < f->most ? "up to " : "", f->most);
	putchar('\n');
}

static void print_text(const struct compare *c)
{
	char lab[512], cell[64], ref[16];
	size_t i, w = 5;	/* "point" */
	bool reps = any_repeats(c), ivs = any_intervals(c);
	int fi, row;

	for (fi = 0; fi < c->nf; fi++)
		print_head(c, fi);
	for (i = 0; i < c->warnings.n; i++)
		printf("warning: %s\n", c->warnings.v[i]);
	putchar('\n');
	printf(units[c->unit].title, c->per ? c->per : "access (per load where chase --chain)");
	printf("; ratios to [%d]\n", c->base + 1);
	if (reps)
		printf("[N]vs[%d]: beyond, the repeats' ranges apart by a chance of at most %g (2/C(n+m,n)); few, apart with too few repeats to tell; within, the ranges overlap\n",
		       c->base + 1, LATT_SPREAD_P);
	if (ivs)
		printf("[N]vs[%d]%s: beyond, the two runs' 95%% intervals apart; within, they overlap\n",
		       c->base + 1, reps ? " of single runs" : "");
	reps = reps || ivs;
	for (i = 0; i < c->nm && c->f[0].sweep; i++) {
		label(lab, sizeof(lab), c, c->m[i].p[c->base]);
		w = strlen(lab) > w ? strlen(lab) : w;
	}
	if (c->f[0].sweep)
		printf("%-*s  ", (int)w, "point");
	printf("%-8s", c->f[0].sweep ? "stat" : "");
	for (fi = 0; fi < c->nf; fi++) {
		snprintf(ref, sizeof(ref), "[%d]", fi + 1);
		printf(" %12s", ref);
	}
	for (fi = 0; fi < c->nf; fi++) {
		if (fi == c->base)
			continue;
		snprintf(cell, sizeof(cell), "[%d]/[%d]", fi + 1, c->base + 1);
		printf(" %9s", cell);
	}
	for (fi = 0; reps && fi < c->nf; fi++) {
		if (fi == c->base)
			continue;
		snprintf(cell, sizeof(cell), "[%d]vs[%d]", fi + 1, c->base + 1);
		printf(" %10s", cell);
	}
	putchar('\n');
	for (i = 0; i < c->nm; i++) {
		const struct match *m = &c->m[i];
		bool first = true;

		label(lab, sizeof(lab), c, m->p[c->base]);
		for (row = 0; row < NR_ROWS; row++) {
			double r;

			if (!c->rows[row])
				continue;
			if (c->f[0].sweep)
				printf("%-*s  ", (int)w, first ? lab : "");
			first = false;
			printf("%-8s", row_name(row));
			for (fi = 0; fi < c->nf; fi++) {
				fmt_figure(cell, sizeof(cell), c, m->p[fi], row);
				printf(" %12s", cell);
			}
			for (fi = 0; fi < c->nf; fi++) {
				if (fi == c->base)
					continue;
				if (ratio(c, m, row, fi, &r))
					printf(" %9.3f", r);
				else
					printf(" %9s", "-");
			}
			for (fi = 0; reps && fi < c->nf; fi++) {
				enum latt_apart a;

				if (fi == c->base)
					continue;
				a = apart(c, m, row, fi, &r);
				printf(" %10s", a == LATT_APART_UNKNOWN ? "-" :
				       latt_apart_name(a));
			}
			putchar('\n');
		}
	}
}

/* ---- JSON and CSV ---- */

static struct json_object *num_or_null(bool ok, double v, int decimals)
{
	return ok ? json_new_fixed(v, decimals) : NULL;
}

static int row_decimals(const struct compare *c, int row)
{
	return row == STAT_RATE ? 9 : units[c->unit].decimals;
}

static struct json_object *json_file(const struct compare *c, int fi)
{
	const struct file *f = &c->f[fi];
	struct json_object *o = json_object_new_object();
	struct json_object *fields = json_object_new_object();
	struct json_object *prov = get(f->p[0].o, "provenance", NULL);
	static const char *const prov_keys[] = {
		"kernel", "hostname", "cpu_model", "tsc_khz", "tool_version",
	};
	struct json_object *v;
	const char *val;
	size_t i, k;

	latt_json_u64(o, "index", (__u64)fi + 1);
	latt_json_str(o, "path", f->path);
	latt_json_str(o, "schema", get_str(f->p[0].o, "schema"));
	latt_json_u64(o, "points", f->n);
	latt_json_u64(o, "unmatched", f->unmatched);
	latt_json_u64(o, "missing", f->missing);
	latt_json_u64(o, "repeated", f->repeated);
	latt_json_u64(o, "most_repeats", f->repeated ? f->most : 1);
	for (i = 0; i < ARRAY_SIZE(prov_keys); i++) {
		v = get(prov, prov_keys[i], NULL);
		json_object_object_add(o, prov_keys[i], json_object_get(v));
	}
	for (k = 0; k < c->names.n; k++) {
		val = file_value(f, c->names.v[k]);
		if (val)
			latt_json_str(fields, c->names.v[k], val);
	}
	json_object_object_add(o, "fields", fields);
	return o;
}

/* "spreads" (per result: its repeats' n, median, min and max), "apart"
 * (per result: beyond, few, within against the baseline; null for it or
 * with neither spread nor intervals), "chance" (of ranges that far
 * apart; null for intervals) and "by" ("repeats" or "intervals") */
static void json_spreads(const struct compare *c, const struct match *m,
			 int row, struct json_object *s)
{
	struct json_object *sp = json_object_new_array();
	struct json_object *ap = json_object_new_array();
	struct json_object *ch = json_object_new_array();
	struct json_object *by = json_object_new_array();
	struct json_object *o;
	struct latt_spread v;
	enum latt_apart a;
	double p;
	int fi, d = row_decimals(c, row);

	for (fi = 0; fi < c->nf; fi++) {
		if (spread(c, m->p[fi], row, &v)) {
			o = json_object_new_object();
			latt_json_u64(o, "n", v.n);
			json_object_object_add(o, "median",
					       json_new_fixed(v.median, d));
			json_object_object_add(o, "min", json_new_fixed(v.min, d));
			json_object_object_add(o, "max", json_new_fixed(v.max, d));
			json_object_array_add(sp, o);
		} else {
			json_object_array_add(sp, NULL);
		}
		a = apart(c, m, row, fi, &p);
		json_object_array_add(ap, a == LATT_APART_UNKNOWN ? NULL :
				      json_object_new_string(latt_apart_name(a)));
		json_object_array_add(ch, a == LATT_APART_UNKNOWN || p < 0 ?
				      NULL : json_new_fixed(p, RATIO_DECIMALS));
		json_object_array_add(by, a == LATT_APART_UNKNOWN ? NULL :
				      json_object_new_string(p < 0 ? "intervals" :
							     "repeats"));
	}
	json_object_object_add(s, "spreads", sp);
	json_object_object_add(s, "apart", ap);
	json_object_object_add(s, "chance", ch);
	json_object_object_add(s, "by", by);
}

static struct json_object *json_point(const struct compare *c,
				      const struct match *m, bool verdicts)
{
	struct json_object *o = json_object_new_object();
	struct json_object *stats = json_object_new_object();
	struct json_object *s, *vals, *ratios;
	char lab[512];
	double v;
	int fi, row;

	label(lab, sizeof(lab), c, m->p[c->base]);
	latt_json_str(o, "label", lab);
	latt_json_str(o, "match", m->p[c->base]->match);
	for (row = 0; row < NR_ROWS; row++) {
		if (!c->rows[row])
			continue;
		s = json_object_new_object();
		vals = json_object_new_array();
		ratios = json_object_new_array();
		for (fi = 0; fi < c->nf; fi++) {
			bool ok = figure(c, m->p[fi], row, &v);

			json_object_array_add(vals, num_or_null(ok, v,
						row_decimals(c, row)));
			ok = ratio(c, m, row, fi, &v);
			json_object_array_add(ratios, num_or_null(ok, v,
							  RATIO_DECIMALS));
		}
		json_object_object_add(s, "values", vals);
		json_object_object_add(s, "ratios", ratios);
		if (verdicts)
			json_spreads(c, m, row, s);
		json_object_object_add(stats, row_name(row), s);
	}
	json_object_object_add(o, "stats", stats);
	return o;
}

static int print_json(const struct compare *c)
{
	struct json_object *o = json_object_new_object();
	struct json_object *files = json_object_new_array();
	struct json_object *diffs = json_object_new_array();
	struct json_object *warns = json_object_new_array();
	struct json_object *points = json_object_new_array();
	struct json_object *d, *vals;
	bool verdicts = any_repeats(c) || any_intervals(c);
	size_t i, k;
	int fi, rc;

	latt_json_str(o, "schema", COMPARE_SCHEMA);
	latt_json_str(o, "kind", c->f[0].sweep ? "sweep" : "run");
	latt_json_str(o, "unit", units[c->unit].name);
	if (c->per)
		latt_json_str(o, "per", c->unit == UNIT_RAW ? "sample" : c->per);
	else
		json_object_object_add(o, "per", NULL);
	latt_json_u64(o, "baseline", (__u64)c->base + 1);
	for (fi = 0; fi < c->nf; fi++)
		json_object_array_add(files, json_file(c, fi));
	json_object_object_add(o, "files", files);
	for (k = 0; k < c->names.n; k++) {
		if (!c->file_level[k])
			continue;
		d = json_object_new_object();
		vals = json_object_new_array();
		latt_json_str(d, "field", c->names.v[k]);
		for (fi = 0; fi < c->nf; fi++)
			json_object_array_add(vals, json_object_new_string(
				file_value(&c->f[fi], c->names.v[k])));
		json_object_object_add(d, "values", vals);
		latt_json_bool(d, "warned", !is_compared_field(c->names.v[k]));
		json_object_array_add(diffs, d);
	}
	json_object_object_add(o, "differences", diffs);
	for (i = 0; i < c->warnings.n; i++)
		json_object_array_add(warns,
				      json_object_new_string(c->warnings.v[i]));
	json_object_object_add(o, "warnings", warns);
	for (i = 0; i < c->nm; i++)
		json_object_array_add(points, json_point(c, &c->m[i], verdicts));
	json_object_object_add(o, "points", points);
	rc = json_emit("-", o);
	json_object_put(o);
	return rc;
}

static void csv_num(bool ok, double v, int decimals, int last)
{
	char buf[64];

	if (ok)
		snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	else
		buf[0] = '\0';
	csv_put(stdout, buf, last);
}

static void print_csv(const struct compare *c)
{
	char lab[512], name[32];
	bool reps = any_repeats(c) || any_intervals(c);
	int cols;
	size_t i;
	int fi, row;
	double v;
	bool ok;

	for (i = 0; i < c->warnings.n; i++)
		log_warn("%s", c->warnings.v[i]);
	csv_put(stdout, "label", 0);
	csv_put(stdout, "stat", 0);
	cols = (reps ? 3 : 2) * c->nf;
	for (fi = 0; fi < cols; fi++) {
		snprintf(name, sizeof(name), "%s_%d", fi < c->nf ? "value" :
			 fi < 2 * c->nf ? "ratio" : "apart", fi % c->nf + 1);
		csv_put(stdout, name, fi + 1 == cols);
	}
	for (i = 0; i < c->nm; i++) {
		label(lab, sizeof(lab), c, c->m[i].p[c->base]);
		for (row = 0; row < NR_ROWS; row++) {
			if (!c->rows[row])
				continue;
			csv_put(stdout, lab, 0);
			csv_put(stdout, row_name(row), 0);
			for (fi = 0; fi < c->nf; fi++) {
				ok = figure(c, c->m[i].p[fi], row, &v);
				csv_num(ok, v, row_decimals(c, row), 0);
			}
			for (fi = 0; fi < c->nf; fi++) {
				ok = ratio(c, &c->m[i], row, fi, &v);
				csv_num(ok, v, RATIO_DECIMALS,
					!reps && fi + 1 == c->nf);
			}
			for (fi = 0; reps && fi < c->nf; fi++) {
				enum latt_apart a = apart(c, &c->m[i], row,
							  fi, &v);

				csv_put(stdout, a == LATT_APART_UNKNOWN ? "" :
					latt_apart_name(a), fi + 1 == c->nf);
			}
		}
	}
}

/* ---- options ---- */

static int set_rows(struct compare *c, const char *v)
{
	char buf[256], *tok, *save = NULL;
	int i;

	if (strlen(v) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", v);
	memset(c->rows, 0, sizeof(c->rows));
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NR_ROWS && strcmp(row_name(i), tok); i++)
			;
		if (i == NR_ROWS)
			return -EINVAL;
		c->rows[i] = true;
	}
	c->rows_set = true;
	return 0;
}

static int compare_parse(int argc, char **argv, struct compare *c)
{
	const char *in[MAX_FILES];
	unsigned long base = 1;
	int id, i, nin = 0, n;
	char *end;

	optind = 0;
	while ((id = cmd_getopt(argc, argv, &compare_usage)) != -1) {
		switch (id) {
		case OPT_BAD:
			return EXIT_USAGE;
		case OPT_HELP:
			cmd_print_usage(stdout, &compare_usage);
			return COMPARE_HELP;
		case OPT_BASELINE:
			errno = 0;
			base = strtoul(optarg, &end, 10);
			if (errno || *end || !base || optarg[0] == '-')
				return cmd_usage_error(&compare_usage,
						       "--baseline: '%s': expected a file's number, 1 for the first", optarg);
			break;
		case OPT_UNIT:
			for (i = 0; i < (int)ARRAY_SIZE(units) &&
			     strcmp(units[i].name, optarg); i++)
				;
			if (i == (int)ARRAY_SIZE(units))
				return cmd_usage_error(&compare_usage,
						       "--unit: '%s': expected ns, cycles or raw", optarg);
			c->unit = (enum unit)i;
			c->unit_set = true;
			break;
		case OPT_STAT:
			if (set_rows(c, optarg))
				return cmd_usage_error(&compare_usage,
						       "--stat: '%s': expected a list of min, p50, p90, p99, p99.9, p99.99, p99.999, p99.9999, max, mean, outliers", optarg);
			break;
		case OPT_JSON:
			c->json = true;
			break;
		case OPT_CSV:
			c->csv = true;
			break;
		case OPT_IN:
			if (nin == MAX_FILES)
				return cmd_usage_error(&compare_usage, "%d results at most", MAX_FILES);
			in[nin++] = optarg;
			break;
		}
	}
	n = nin + argc - optind;
	if (c->json && c->csv)
		return cmd_usage_error(&compare_usage, "--json or --csv, not both");
	if (n < 2)
		return cmd_usage_error(&compare_usage, "two results or more are compared: A.json B.json ...");
	if (n > MAX_FILES)
		return cmd_usage_error(&compare_usage, "%d results at most",
				       MAX_FILES);
	if (base > (unsigned long)n)
		return cmd_usage_error(&compare_usage, "--baseline %lu: there are %d files", base, n);
	c->nf = n;
	c->base = (int)base - 1;
	for (i = 0; i < c->nf; i++)
		c->f[i].path = i < nin ? in[i] : argv[optind + i - nin];
	return 0;
}

static void compare_free(struct compare *c)
{
	size_t i, j;
	int fi;

	for (fi = 0; fi < c->nf; fi++) {
		for (i = 0; i < c->f[fi].n; i++) {
			struct point *p = &c->f[fi].p[i];

			for (j = 0; j < p->nf; j++) {
				free(p->f[j].name);
				free(p->f[j].value);
			}
			free(p->f);
			free(p->rep);
			free(p->match);
			json_object_put(p->o);
		}
		free(c->f[fi].p);
		free(c->f[fi].sorted);
	}
	str_list_free(&c->names);
	str_list_free(&c->warnings);
	free(c->file_level);
	free(c->varies);
	free(c->m);
}

/* Load, classify, match and check; 0 or the exit status. */
static int prepare(struct compare *c)
{
	size_t k;
	int fi, rc;

	for (fi = 0; fi < c->nf; fi++)
		if (load_file(c, &c->f[fi]))
			return 1;
	for (fi = 1; fi < c->nf; fi++) {
		if (c->f[fi].sweep == c->f[0].sweep)
			continue;
		log_err("%s is a %s and %s a %s: compare runs with runs, sweeps with sweeps", c->f[0].path, c->f[0].sweep ? "sweep" :
			"run", c->f[fi].path, c->f[fi].sweep ? "sweep" : "run");
		return 1;
	}
	if (classify(c) || match_points(c))
		goto oom;
	for (k = 0; k < c->names.n; k++)
		c->varies[k] = !c->file_level[k] &&
			       varies_in_base(c, c->names.v[k]);
	for (fi = 0; fi < c->nf; fi++) {
		if (fi == c->base)
			continue;
		if (c->f[fi].n == c->f[fi].unmatched) {
			log_err("%s: no point matches one of %s", c->f[fi].path,
				c->f[c->base].path);
			return 1;
		}
		if ((c->f[fi].unmatched || c->f[fi].missing) &&
		    add_warning(c, "[%d] %s: points without a match: %zu of its own (not shown), %zu of [%d] (shown as -)",
				fi + 1, c->f[fi].path, c->f[fi].unmatched,
				c->f[fi].missing, c->base + 1))
			goto oom;
	}
	if (warn_differences(c))
		goto oom;
	rc = choose_unit(c);
	if (rc < 0)
		goto oom;
	if (rc)
		return rc;
	c->per = common_per(c);
	default_rows(c);
	return 0;
oom:
	log_err("out of memory");
	return 1;
}

int cmd_compare(int argc, char **argv, const struct cmd_ctx *ctx)
{
	struct compare *c = calloc(1, sizeof(*c));
	int rc;

	(void)ctx;
	if (!c) {
		log_err("out of memory");
		return 1;
	}
	rc = compare_parse(argc, argv, c);
	if (rc) {
		free(c);
		return rc == COMPARE_HELP ? 0 : rc;
	}
	rc = prepare(c);
	if (!rc && c->json)
		rc = print_json(c) ? 1 : 0;
	else if (!rc && c->csv)
		print_csv(c);
	else if (!rc)
		print_text(c);
	compare_free(c);
	return rc;
}
