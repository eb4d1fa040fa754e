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

/* The CSV columns before the percentiles; cmd-sweep.c writes the same. */
static const char *const head_columns[] = {
	"point", "target", "target_kind", "node", "cpu", "op", "fence",
	"pattern", "stride", "hotspot", "size", "region", "chain", "width",
	"warm", "samples_asked", "seed", "window_us", "threshold",
	"threshold_cycles", "tsc_khz", "start", "state", "samples", "per",
	"overhead_cycles", "windows", "nmi_windows", "duration_ns",
	"outliers", "outliers_dropped", "outlier_rate", "outliers_nmi",
	"spacing_samples", "spacing_ns", "smi", "mode", "threads", "delay",
	"mix_read", "mix_write", "write_op", "bytes_read", "bytes_written",
	"read_gbps", "write_gbps", "total_gbps",
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

/** sweep_csv_columns() - how many columns a row has, the key included */
size_t sweep_csv_columns(void)
{
	return sizeof(head_columns) / sizeof(head_columns[0]) +
	       2 * NR_STATS + 1;
}

/** sweep_csv_header() - the column names: config, result, "cycles_p50"...,
 * "ns_p50"..., key */
void sweep_csv_header(FILE *f)
{
	char name[32];
	size_t i;
	int s, u;

	for (i = 0; i < sizeof(head_columns) / sizeof(head_columns[0]); i++)
		csv_put(f, head_columns[i], 0);
	for (u = 0; u < 2; u++) {
		for (s = 0; s < NR_STATS; s++) {
			snprintf(name, sizeof(name), "%s_%s",
				 u ? "ns" : "cycles", latt_stats[s].name);
			csv_put(f, name, 0);
		}
	}
	csv_put(f, "key", 1);
}

static int load_csv(FILE *f, struct key_set *keys, char *why, size_t len)
{
	char *line = NULL, *hdr = NULL, *fields[CSV_MAX_FIELDS];
	char *want = NULL;
	size_t cap = 0, wlen = 0;
	FILE *w;
	int n, col = -1, rc = 0;
	unsigned long lineno = 0;

	w = open_memstream(&want, &wlen);
	if (!w)
		return -ENOMEM;
	sweep_csv_header(w);
	fclose(w);
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		if (!hdr) {
			if (strcmp(line, want)) {
				snprintf(why, len, "%s", strstr(line,
					 ",smi,cycles_min,") ?
					 "an older sweep file, without the "
					 "thread columns (mode, threads, ...): "
					 "start a new --out file" :
					 "line 1 is not the header of a "
					 "lattester-ctl sweep CSV file");
				rc = -EINVAL;
				break;
			}
			hdr = strdup(line);
			n = hdr ? csv_split(hdr, fields, CSV_MAX_FIELDS) : -1;
			col = n > 0 ? csv_column(fields, n, "key") : -1;
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
		rc = key_set_add(keys, fields[col]);
		if (rc)
			break;
	}
	(void)lineno;
	free(line);
	free(hdr);
	free(want);
	return rc;
}

static int load_jsonl(FILE *f, struct key_set *keys, char *why, size_t len)
{
	struct json_object *o, *key;
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
			snprintf(why, len, "line %lu has no \"key\": not a "
				 "lattester-ctl sweep JSON lines file", lineno);
			json_object_put(o);
			rc = -EINVAL;
			break;
		}
		rc = key_set_add(keys, json_object_get_string(key));
		json_object_put(o);
		if (rc)
			break;
	}
	free(line);
	return rc;
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
	FILE *f = fopen(path, "re");
	int rc;

	snprintf(why, len, "%s", "");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	rc = fmt == SWEEP_CSV ? load_csv(f, keys, why, len) :
	     load_jsonl(f, keys, why, len);
	fclose(f);
	if (rc && !why[0])
		snprintf(why, len, "%s", strerror(-rc));
	return rc;
}
