/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sweep-file.h - the files of lattester-ctl sweep: the CSV columns, and
 * reading back the keys of the points a file already holds (--resume).
 * No logging: the unit test links it.
 */
#ifndef _LATT_SWEEP_FILE_H
#define _LATT_SWEEP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "grid.h"

#define SWEEP_SCHEMA	"lattester-sweep/1"

enum sweep_format {
	SWEEP_CSV,
	SWEEP_JSONL,
};

/*
 * The CSV's column sets, oldest first.  A file keeps the set it was
 * started with: --resume appends rows of that set (sweep_csv_header_of(),
 * sweep_csv_columns_of()).  V1, before the thread columns, is refused.
 */
enum sweep_csv_layout {
	SWEEP_CSV_V1,	/* ... smi, cycles_min ...: no mode ... total_gbps */
	SWEEP_CSV_V2,	/* mode ... total_gbps; "point" counts from 0 */
	SWEEP_CSV_V3,	/* engine, page_size; "point" counts from 1 */
	SWEEP_CSV_V4,	/* region_reused */
};
#define SWEEP_CSV_LAYOUT	SWEEP_CSV_V4	/* what a new file gets */

/* "point" in the rows of a new file: the grid's points count from 1 */
#define SWEEP_POINT_BASE	1

int sweep_format_of(const char *path, enum sweep_format *fmt);
void sweep_csv_header(FILE *f);
void sweep_csv_header_of(FILE *f, enum sweep_csv_layout layout);
size_t sweep_csv_columns(void);
size_t sweep_csv_columns_of(enum sweep_csv_layout layout);
bool sweep_csv_has_column(enum sweep_csv_layout layout, const char *name);
int sweep_load_keys(const char *path, enum sweep_format fmt,
		    struct key_set *keys, char *why, size_t len);

#define SWEEP_SAMPLE_ROWS	32

/**
 * struct sweep_file_rows - what --resume reads of a file
 * @keys: the keys of its complete rows
 * @rows: how many there are (0: a header alone, or nothing)
 * @layout: a CSV file's column set (a JSON lines file: SWEEP_CSV_LAYOUT)
 * @sample_key, @sample_point: the key and "point" of its first rows, to
 *	tell whether the file counts its points from 0 or from 1
 */
struct sweep_file_rows {
	struct key_set keys;
	size_t rows;
	enum sweep_csv_layout layout;
	size_t nsample;
	char *sample_key[SWEEP_SAMPLE_ROWS];
	unsigned long long sample_point[SWEEP_SAMPLE_ROWS];
};

int sweep_load_file(const char *path, enum sweep_format fmt,
		    struct sweep_file_rows *r, char *why, size_t len);
void sweep_file_rows_free(struct sweep_file_rows *r);

#endif /* _LATT_SWEEP_FILE_H */
