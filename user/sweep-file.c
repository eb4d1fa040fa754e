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
 * The CSV columns before the percentiles, with the layout that brought
 * each; cmd-sweep.c writes the same.  A column is never moved: new ones
 * are inserted, so that each older layout is this list without them.
 */
static const struct column {
	const char *name;
	enum sweep_csv_layout since;
} head_columns[] = {
	{ "point", SWEEP_CSV_V1 }, { "target", SWEEP_CSV_V1 },
	{ "target_kind", SWEEP_CSV_V1 }, { "engine", SWEEP_CSV_V3 },
	{ "node", SWEEP_CSV_V1 }, { "cpu", SWEEP_CSV_V1 },
	{ "op", SWEEP_CSV_V1 }, { "fence", SWEEP_CSV_V1 },
	{ "pattern", SWEEP_CSV_V1 }, { "stride", SWEEP_CSV_V1 },
	{ "hotspot", SWEEP_CSV_V1 }, { "size", SWEEP_CSV_V1 },
	{ "region", SWEEP_CSV_V1 }, { "page_size", SWEEP_CSV_V3 },
	{ "region_reused", SWEEP_CSV_V4 },
	{ "chain", SWEEP_CSV_V1 }, { "width", SWEEP_CSV_V1 },
	{ "warm", SWEEP_CSV_V1 }, { "samples_asked", SWEEP_CSV_V1 },
	{ "seed", SWEEP_CSV_V1 }, { "window_us", SWEEP_CSV_V1 },
	{ "threshold", SWEEP_CSV_V1 }, { "threshold_cycles", SWEEP_CSV_V1 },
	{ "tsc_khz", SWEEP_CSV_V1 }, { "start", SWEEP_CSV_V1 },
	{ "state", SWEEP_CSV_V1 }, { "samples", SWEEP_CSV_V1 },
	{ "per", SWEEP_CSV_V1 }, { "overhead_cycles", SWEEP_CSV_V1 },
	{ "windows", SWEEP_CSV_V1 }, { "nmi_windows", SWEEP_CSV_V1 },
	{ "duration_ns", SWEEP_CSV_V1 }, { "outliers", SWEEP_CSV_V1 },
	{ "outliers_dropped", SWEEP_CSV_V1 }, { "outlier_rate", SWEEP_CSV_V1 },
	{ "outliers_nmi", SWEEP_CSV_V1 }, { "spacing_samples", SWEEP_CSV_V1 },
	{ "spacing_ns", SWEEP_CSV_V1 }, { "smi", SWEEP_CSV_V1 },
	{ "mode", SWEEP_CSV_V2 }, { "threads", SWEEP_CSV_V2 },
	{ "delay", SWEEP_CSV_V2 }, { "mix_read", SWEEP_CSV_V2 },
	{ "mix_write", SWEEP_CSV_V2 }, { "write_op", SWEEP_CSV_V2 },
	{ "bytes_read", SWEEP_CSV_V2 }, { "bytes_written", SWEEP_CSV_V2 },
	{ "read_gbps", SWEEP_CSV_V2 }, { "write_gbps", SWEEP_CSV_V2 },
	{ "total_gbps", SWEEP_CSV_V2 },
};
#define NR_HEAD	(sizeof(head_columns) / sizeof(head_columns[0]))

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

/** sweep_csv_columns_of() - how many columns a row of @layout has */
size_t sweep_csv_columns_of(enum sweep_csv_layout layout)
{
	size_t i, n = 0;

	for (i = 0; i < NR_HEAD; i++)
		n += head_columns[i].since <= layout;
	return n + 2 * NR_STATS + 1;
}

/** sweep_csv_columns() - how many columns a new row has, the key included */
size_t sweep_csv_columns(void)
{
	return sweep_csv_columns_of(SWEEP_CSV_LAYOUT);
}

/** sweep_csv_has_column() - has @layout the head column @name? */
bool sweep_csv_has_column(enum sweep_csv_layout layout, const char *name)
{
	size_t i;

	for (i = 0; i < NR_HEAD; i++)
		if (!strcmp(head_columns[i].name, name))
			return head_columns[i].since <= layout;
	return false;
}

/** sweep_csv_header_of() - the column names of @layout: config, result,
 * "cycles_p50"..., "ns_p50"..., key */
void sweep_csv_header_of(FILE *f, enum sweep_csv_layout layout)
{
	char name[32];
	size_t i;
	int s, u;

	for (i = 0; i < NR_HEAD; i++)
		if (head_columns[i].since <= layout)
			csv_put(f, head_columns[i].name, 0);
	for (u = 0; u < 2; u++) {
		for (s = 0; s < NR_STATS; s++) {
			snprintf(name, sizeof(name), "%s_%s",
				 u ? "ns" : "cycles", latt_stats[s].name);
			csv_put(f, name, 0);
		}
	}
	csv_put(f, "key", 1);
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

static int load_csv(FILE *f, struct sweep_file_rows *r, char *why,
		    size_t len)
{
	char *line = NULL, *hdr = NULL, *fields[CSV_MAX_FIELDS];
	size_t cap = 0;
	int n, col = -1, pcol = -1, layout, rc = 0;

	while (getline(&line, &cap, f) > 0) {
		if (!hdr) {
			layout = header_layout(line);
			if (layout == SWEEP_CSV_V1 || layout < 0) {
				/* V1, or one of its kind: no thread columns */
				snprintf(why, len, "%s", layout == SWEEP_CSV_V1 ||
					 strstr(line, ",smi,cycles_min,") ?
					 "an older sweep file, without the thread columns (mode, threads, ...): start a new --out file" :
					 "line 1 is not the header of a lattester-ctl sweep CSV file");
				rc = -EINVAL;
				break;
			}
			r->layout = (enum sweep_csv_layout)layout;
			hdr = strdup(line);
			n = hdr ? csv_split(hdr, fields, CSV_MAX_FIELDS) : -1;
			col = n > 0 ? csv_column(fields, n, "key") : -1;
			pcol = n > 0 ? csv_column(fields, n, "point") : -1;
			if (col < 0) {
				rc = -ENOMEM;
				break;
			}
			continue;
		}
		if (line[0] == '\n')
			continue;
		n = csv_split(line, fields, CSV_MAX_FIELDS);
		if (n <= col) {
			/* a row cut short (a crash mid-write): run it again */
			continue;
		}
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
	int rc = 0;

	while (getline(&line, &cap, f) > 0) {
		lineno++;
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		o = json_tokener_parse(line);
		if (!o) {
			/* a line cut short (a crash mid-write): run it again */
			continue;
		}
		if (!json_object_object_get_ex(o, "key", &key) ||
		    !json_object_is_type(key, json_type_string)) {
			snprintf(why, len, "line %lu has no \"key\": not a lattester-ctl sweep JSON lines file", lineno);
			json_object_put(o);
			rc = -EINVAL;
			break;
		}
		rc = key_set_add(&r->keys, json_object_get_string(key));
		if (!rc && json_object_object_get_ex(o, "point", &point) &&
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
 * A missing file holds no rows.  Returns 0, or a negative errno (with the
 * reason in @why for a file that isn't a sweep file).
 */
int sweep_load_file(const char *path, enum sweep_format fmt,
		    struct sweep_file_rows *r, char *why, size_t len)
{
	FILE *f = fopen(path, "re");
	int rc;

	snprintf(why, len, "%s", "");
	r->layout = SWEEP_CSV_LAYOUT;
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
