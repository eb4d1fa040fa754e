// SPDX-License-Identifier: GPL-2.0
/*
 * sweep-file.c - see sweep-file.h.  One row per point, CSV or JSON lines;
 * each row carries "key", the point's configuration as asked for
 * (grid_point_key()), which --resume matches.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include "csv.h"
#include "stats.h"
#include "sweep-file.h"

/*
 * The layout that brought each column and its name, in the order of enum
 * sweep_col; SWEEP_COL_CYCLES, SWEEP_COL_NS and its intervals (per_stat):
 * the prefix of a column per statistic.
 */
static const struct column {
	enum sweep_csv_layout since;
	const char *name;
	bool per_stat;
} columns[NR_SWEEP_COLS] = {
	[SWEEP_COL_POINT]		= { SWEEP_CSV_V1, SWEEP_POINT },
	[SWEEP_COL_TARGET]		= { SWEEP_CSV_V1, "target" },
	[SWEEP_COL_TARGET_KIND]		= { SWEEP_CSV_V1, "target_kind" },
	[SWEEP_COL_ENGINE]		= { SWEEP_CSV_V3, "engine" },
	[SWEEP_COL_NODE]		= { SWEEP_CSV_V1, "node" },
	[SWEEP_COL_CPU]			= { SWEEP_CSV_V1, "cpu" },
	[SWEEP_COL_OP]			= { SWEEP_CSV_V1, "op" },
	[SWEEP_COL_FENCE]		= { SWEEP_CSV_V1, "fence" },
	[SWEEP_COL_PATTERN]		= { SWEEP_CSV_V1, "pattern" },
	[SWEEP_COL_STRIDE]		= { SWEEP_CSV_V1, "stride" },
	[SWEEP_COL_HOTSPOT]		= { SWEEP_CSV_V1, "hotspot" },
	[SWEEP_COL_SIZE]		= { SWEEP_CSV_V1, "size" },
	[SWEEP_COL_REGION]		= { SWEEP_CSV_V1, "region" },
	[SWEEP_COL_PAGE_SIZE]		= { SWEEP_CSV_V3, "page_size" },
	[SWEEP_COL_REGION_REUSED]	= { SWEEP_CSV_V4, SWEEP_REGION_REUSED },
	[SWEEP_COL_CHAIN]		= { SWEEP_CSV_V1, "chain" },
	[SWEEP_COL_WIDTH]		= { SWEEP_CSV_V1, "width" },
	[SWEEP_COL_WARM]		= { SWEEP_CSV_V1, "warm" },
	[SWEEP_COL_SAMPLES_ASKED]	= { SWEEP_CSV_V1, "samples_asked" },
	[SWEEP_COL_SEED]		= { SWEEP_CSV_V1, "seed" },
	[SWEEP_COL_WINDOW_US]		= { SWEEP_CSV_V1, "window_us" },
	[SWEEP_COL_THRESHOLD]		= { SWEEP_CSV_V1, "threshold" },
	[SWEEP_COL_THRESHOLD_CYCLES]	= { SWEEP_CSV_V1, "threshold_cycles" },
	[SWEEP_COL_TSC_KHZ]		= { SWEEP_CSV_V1, "tsc_khz" },
	[SWEEP_COL_START]		= { SWEEP_CSV_V1, "start" },
	[SWEEP_COL_STATE]		= { SWEEP_CSV_V1, "state" },
	[SWEEP_COL_SAMPLES]		= { SWEEP_CSV_V1, "samples" },
	[SWEEP_COL_PER]			= { SWEEP_CSV_V1, "per" },
	[SWEEP_COL_OVERHEAD_CYCLES]	= { SWEEP_CSV_V1, "overhead_cycles" },
	[SWEEP_COL_WINDOWS]		= { SWEEP_CSV_V1, "windows" },
	[SWEEP_COL_NMI_WINDOWS]		= { SWEEP_CSV_V1, "nmi_windows" },
	[SWEEP_COL_DURATION_NS]		= { SWEEP_CSV_V1, "duration_ns" },
	[SWEEP_COL_OUTLIERS]		= { SWEEP_CSV_V1, "outliers" },
	[SWEEP_COL_OUTLIERS_DROPPED]	= { SWEEP_CSV_V1, "outliers_dropped" },
	[SWEEP_COL_OUTLIER_RATE]	= { SWEEP_CSV_V1, "outlier_rate" },
	[SWEEP_COL_OUTLIERS_NMI]	= { SWEEP_CSV_V1, "outliers_nmi" },
	[SWEEP_COL_SPACING_SAMPLES]	= { SWEEP_CSV_V1, "spacing_samples" },
	[SWEEP_COL_SPACING_NS]		= { SWEEP_CSV_V1, "spacing_ns" },
	[SWEEP_COL_SMI]			= { SWEEP_CSV_V1, "smi" },
	[SWEEP_COL_OUTLIERS_EXPLAINED]	= { SWEEP_CSV_V6,
					    "outliers_explained" },
	[SWEEP_COL_OUTLIERS_NONE_SEEN]	= { SWEEP_CSV_V6,
					    "outliers_none_seen" },
	[SWEEP_COL_OUTLIERS_UNEXPLAINED] = { SWEEP_CSV_V6,
					     "outliers_unexplained" },
	[SWEEP_COL_CLEAN_NS_P999]	= { SWEEP_CSV_V6, "clean_ns_p99.9" },
	[SWEEP_COL_CLEAN_NS_P9999]	= { SWEEP_CSV_V6, "clean_ns_p99.99" },
	[SWEEP_COL_CLEAN_NS_MEAN]	= { SWEEP_CSV_V6, "clean_ns_mean" },
	[SWEEP_COL_MODE]		= { SWEEP_CSV_V2, "mode" },
	[SWEEP_COL_THREADS]		= { SWEEP_CSV_V2, "threads" },
	[SWEEP_COL_DELAY]		= { SWEEP_CSV_V2, "delay" },
	[SWEEP_COL_MIX_READ]		= { SWEEP_CSV_V2, "mix_read" },
	[SWEEP_COL_MIX_WRITE]		= { SWEEP_CSV_V2, "mix_write" },
	[SWEEP_COL_WRITE_OP]		= { SWEEP_CSV_V2, "write_op" },
	[SWEEP_COL_TRAFFIC_TARGET]	= { SWEEP_CSV_V9, "traffic_target" },
	[SWEEP_COL_BYTES_READ]		= { SWEEP_CSV_V2, "bytes_read" },
	[SWEEP_COL_BYTES_WRITTEN]	= { SWEEP_CSV_V2, "bytes_written" },
	[SWEEP_COL_READ_GBPS]		= { SWEEP_CSV_V2, "read_gbps" },
	[SWEEP_COL_WRITE_GBPS]		= { SWEEP_CSV_V2, "write_gbps" },
	[SWEEP_COL_TOTAL_GBPS]		= { SWEEP_CSV_V2, "total_gbps" },
	[SWEEP_COL_DUTY_CYCLE]		= { SWEEP_CSV_V7, "duty_cycle" },
	[SWEEP_COL_IDLE_NS_P50]		= { SWEEP_CSV_V8, "idle_ns_p50" },
	[SWEEP_COL_CYCLES]		= { SWEEP_CSV_V1, "cycles_", true },
	[SWEEP_COL_NS]			= { SWEEP_CSV_V1, "ns_", true },
	[SWEEP_COL_NS_LO]		= { SWEEP_CSV_V5, "ns_lo_", true },
	[SWEEP_COL_NS_HI]		= { SWEEP_CSV_V5, "ns_hi_", true },
	[SWEEP_COL_RD_PERCENTAGE]	= { SWEEP_CSV_V8, "rd_percentage" },
	[SWEEP_COL_PAUSE]		= { SWEEP_CSV_V8, "pause" },
	[SWEEP_COL_BANDWIDTH]		= { SWEEP_CSV_V8, "bandwidth" },
	[SWEEP_COL_LATENCY]		= { SWEEP_CSV_V8, "latency" },
	[SWEEP_COL_KEY]			= { SWEEP_CSV_V1, SWEEP_KEY },
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/** sweep_format_of() - .csv or .jsonl; -EINVAL for another name */
int sweep_format_of(const char *path, enum sweep_format *fmt)
{
	if (ends_with(path, ".csv"))
		*fmt = SWEEP_CSV;
	else if (ends_with(path, ".jsonl"))
		*fmt = SWEEP_JSONL;
	else
		return -EINVAL;
	return 0;
}

/** sweep_csv_has() - has @layout the column(s) @col? */
bool sweep_csv_has(enum sweep_csv_layout layout, enum sweep_col col)
{
	return columns[col].since <= layout;
}

/** sweep_col_count() - how many columns @col stands for: 1, or NR_STATS */
int sweep_col_count(enum sweep_col col)
{
	return columns[col].per_stat ? NR_STATS : 1;
}

/**
 * sweep_col_name() - the name of column @col in the header
 * @stat: which statistic's (SWEEP_COL_CYCLES, SWEEP_COL_NS), else ignored
 * @buf, @len: where the name of a statistic's column is made
 *
 * Returns the name, in @buf or a constant.
 */
const char *sweep_col_name(enum sweep_col col, int stat, char *buf,
			   size_t len)
{
	if (!columns[col].per_stat)
		return columns[col].name;
	snprintf(buf, len, "%s%s", columns[col].name, latt_stats[stat].name);
	return buf;
}

/**
 * sweep_csv_find() - the index of column @col (@stat: as for
 * sweep_col_name()) among the @n names of a header, or -1
 */
int sweep_csv_find(char *const *names, int n, enum sweep_col col, int stat)
{
	char buf[32];

	return csv_column(names, n, sweep_col_name(col, stat, buf,
						   sizeof(buf)));
}

/**
 * sweep_csv_like() - does @line begin as the header of a sweep CSV file
 * of any layout does (its first two columns)?
 */
bool sweep_csv_like(const char *line)
{
	char start[64];

	snprintf(start, sizeof(start), "%s,%s,", columns[SWEEP_COL_POINT].name,
		 columns[SWEEP_COL_TARGET].name);
	return !strncmp(line, start, strlen(start));
}

/** sweep_csv_columns_of() - how many columns a row of @layout has */
size_t sweep_csv_columns_of(enum sweep_csv_layout layout)
{
	size_t n = 0;
	int col;

	for (col = 0; col < NR_SWEEP_COLS; col++)
		if (sweep_csv_has(layout, col))
			n += sweep_col_count(col);
	return n;
}

/** sweep_csv_columns() - how many columns a new row has, the key included */
size_t sweep_csv_columns(void)
{
	return sweep_csv_columns_of(SWEEP_CSV_LAYOUT);
}

/** sweep_csv_header_of() - the column names of @layout, in their order */
void sweep_csv_header_of(FILE *f, enum sweep_csv_layout layout)
{
	char buf[32];
	int col, s;

	for (col = 0; col < NR_SWEEP_COLS; col++) {
		if (!sweep_csv_has(layout, col))
			continue;
		for (s = 0; s < sweep_col_count(col); s++)
			csv_put(f, sweep_col_name(col, s, buf, sizeof(buf)),
				col == NR_SWEEP_COLS - 1);
	}
}

/** sweep_csv_header() - the column names of a new file */
void sweep_csv_header(FILE *f)
{
	sweep_csv_header_of(f, SWEEP_CSV_LAYOUT);
}

/* Which layout's header is @line?  -1: none. */
static int header_layout(const char *line)
{
	char *want = NULL;
	size_t wlen = 0;
	FILE *w;
	int l, found = -1;

	for (l = SWEEP_CSV_V1; l <= SWEEP_CSV_LAYOUT && found < 0; l++) {
		w = open_memstream(&want, &wlen);
		if (!w)
			return -1;
		sweep_csv_header_of(w, (enum sweep_csv_layout)l);
		fclose(w);
		if (!strcmp(line, want))
			found = l;
		free(want);
		want = NULL;
	}
	return found;
}

/* Keep the key and the "point" of one of the first rows. */
static int sample_row(struct sweep_file_rows *r, const char *key,
		      const char *point)
{
	char *end;
	unsigned long long v;

	if (r->nsample == SWEEP_SAMPLE_ROWS || !point || !*point)
		return 0;
	v = strtoull(point, &end, 10);
	if (*end)
		return 0;
	r->sample_key[r->nsample] = strdup(key);
	if (!r->sample_key[r->nsample])
		return -ENOMEM;
	r->sample_point[r->nsample++] = v;
	return 0;
}

/* Is @line a header of V1's kind: the statistics right after smi? */
static bool v1_kind(const char *line)
{
	char v1[64], stat[32];

	snprintf(v1, sizeof(v1), ",%s,%s,", columns[SWEEP_COL_SMI].name,
		 sweep_col_name(SWEEP_COL_CYCLES, 0, stat, sizeof(stat)));
	return strstr(line, v1);
}

/*
 * Is @s the beginning of the header of a layout (a file of an older one
 * cut short in its header holds no row either)?
 */
static bool header_prefix(const char *s)
{
	char *buf = NULL;
	size_t n = 0;
	bool yes = false;
	FILE *m;
	int l;

	for (l = SWEEP_CSV_V1; l <= SWEEP_CSV_LAYOUT && !yes; l++) {
		m = open_memstream(&buf, &n);
		if (!m)
			return false;
		sweep_csv_header_of(m, (enum sweep_csv_layout)l);
		fclose(m);
		yes = buf && !strncmp(buf, s, strlen(s));
		free(buf);
		buf = NULL;
	}
	return yes;
}

static int load_csv(FILE *f, struct sweep_file_rows *r, char *why,
		    size_t len)
{
	char *line = NULL, *hdr = NULL, *fields[CSV_MAX_FIELDS];
	unsigned long lineno = 0;
	size_t cap = 0;
	ssize_t got;
	int n, nhdr = 0, col = -1, pcol = -1, layout, rc = 0;

	while ((got = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[got - 1] != '\n') {	/* the last line, cut short */
			/* before any header: only the start of ours is a
			 * sweep's, anything else a file not to touch */
			if (!hdr && !header_prefix(line)) {
				snprintf(why, len, "line 1 is not the header of a lattester-ctl sweep CSV file");
				rc = -EINVAL;
				break;
			}
			r->cut = (size_t)got;
			break;
		}
		if (!hdr) {
			layout = header_layout(line);
			if (layout == SWEEP_CSV_V1 || layout < 0) {
				/* V1, or one of its kind: no thread columns */
				snprintf(why, len, "%s", layout == SWEEP_CSV_V1 ||
					 v1_kind(line) ?
					 "an older sweep file, without the thread columns (mode, threads, ...): start a new --out file" :
					 "line 1 is not the header of a lattester-ctl sweep CSV file");
				rc = -EINVAL;
				break;
			}
			r->layout = (enum sweep_csv_layout)layout;
			hdr = strdup(line);
			n = hdr ? csv_split(hdr, fields, CSV_MAX_FIELDS) : -1;
			nhdr = n;
			col = n > 0 ? sweep_csv_find(fields, n, SWEEP_COL_KEY,
						     0) : -1;
			pcol = n > 0 ? sweep_csv_find(fields, n, SWEEP_COL_POINT,
						      0) : -1;
			if (col < 0) {
				rc = -ENOMEM;
				break;
			}
			r->complete += got;
			continue;
		}
		if (line[0] == '\n') {
			r->complete += got;
			continue;
		}
		n = csv_split(line, fields, CSV_MAX_FIELDS);
		if (n != nhdr) {
			snprintf(why, len, "line %lu holds %d fields where the header has %d: not a whole row (the file was changed by hand, or written by two sweeps at once): remove that line, or start a new --out file",
				 lineno, n, nhdr);
			rc = -EINVAL;
			break;
		}
		r->complete += got;
		rc = key_set_add(&r->keys, fields[col]);
		if (!rc)
			rc = sample_row(r, fields[col], pcol >= 0 &&
					pcol < n ? fields[pcol] : NULL);
		if (rc)
			break;
		r->rows++;
	}
	free(line);
	free(hdr);
	return rc;
}

static int load_jsonl(FILE *f, struct sweep_file_rows *r, char *why,
		      size_t len)
{
	struct json_object *o, *key, *point;
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int rc = 0;

	while ((got = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[got - 1] != '\n') {	/* the last line, cut short */
			/* a row of ours begins so; anything else is not
			 * a sweep's to take off */
			if (line[0] != '{' || (got > 1 && line[1] != '"')) {
				snprintf(why, len, "line %lu is not a whole JSON object, nor the start of one (no newline ends it): not a lattester-ctl sweep JSON lines file",
					 lineno);
				rc = -EINVAL;
				break;
			}
			r->cut = (size_t)got;
			break;
		}
		if (line[strspn(line, " \t\r\n")] == '\0') {
			r->complete += got;
			continue;
		}
		o = json_tokener_parse(line);
		if (!o || !json_object_is_type(o, json_type_object)) {
			snprintf(why, len, "line %lu is not a whole JSON object (the file was changed by hand, or written by two sweeps at once): remove that line, or start a new --out file",
				 lineno);
			json_object_put(o);
			rc = -EINVAL;
			break;
		}
		r->complete += got;
		if (!json_object_object_get_ex(o, SWEEP_KEY, &key) ||
		    !json_object_is_type(key, json_type_string)) {
			snprintf(why, len, "line %lu has no \"%s\": not a lattester-ctl sweep JSON lines file",
				 lineno, SWEEP_KEY);
			json_object_put(o);
			rc = -EINVAL;
			break;
		}
		rc = key_set_add(&r->keys, json_object_get_string(key));
		if (!rc && json_object_object_get_ex(o, SWEEP_POINT, &point) &&
		    json_object_is_type(point, json_type_int))
			rc = sample_row(r, json_object_get_string(key),
					json_object_get_string(point));
		json_object_put(o);
		if (rc)
			break;
		r->rows++;
	}
	free(line);
	return rc;
}

/**
 * sweep_load_file() - the rows of @path, for --resume
 *
 * A missing file holds no rows.  A last line without its newline was cut
 * short (a sweep stopped mid-write): it is no row, and @r->cut says how
 * many bytes it has after @r->complete, for the caller to take off before
 * it appends.  Any other line that is not a whole row refuses the file.
 * Returns 0, or a negative errno (with the reason in @why for a file that
 * isn't a sweep file, or holds a line that is no whole row).
 */
int sweep_load_file(const char *path, enum sweep_format fmt,
		    struct sweep_file_rows *r, char *why, size_t len)
{
	FILE *f = fopen(path, "re");
	int rc;

	snprintf(why, len, "%s", "");
	r->layout = SWEEP_CSV_LAYOUT;
	r->complete = 0;
	r->cut = 0;
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	rc = fmt == SWEEP_CSV ? load_csv(f, r, why, len) :
	     load_jsonl(f, r, why, len);
	fclose(f);
	if (rc && !why[0])
		snprintf(why, len, "%s", strerror(-rc));
	return rc;
}

void sweep_file_rows_free(struct sweep_file_rows *r)
{
	size_t i;

	key_set_free(&r->keys);
	for (i = 0; i < r->nsample; i++)
		free(r->sample_key[i]);
	r->nsample = 0;
	r->rows = 0;
}

/**
 * sweep_load_keys() - add the keys of the rows in @path to @keys
 *
 * A missing file holds no keys.  Returns 0, or a negative errno (with the
 * reason in @why for a file that isn't a sweep file).
 */
int sweep_load_keys(const char *path, enum sweep_format fmt,
		    struct key_set *keys, char *why, size_t len)
{
	struct sweep_file_rows r = { 0 };
	size_t i;
	int rc;

	rc = sweep_load_file(path, fmt, &r, why, len);
	for (i = 0; !rc && i < r.keys.n; i++)
		rc = key_set_add(keys, r.keys.v[i]);
	sweep_file_rows_free(&r);
	return rc;
}
