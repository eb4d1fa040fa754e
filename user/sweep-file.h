/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sweep-file.h - the files of lattester-ctl sweep: the CSV columns (their
 * names, order and layouts, for the writer and the readers alike), and
 * reading back the keys of the points a file already holds (--resume).
 * No logging: the unit test links it.
 */
#ifndef _LATT_SWEEP_FILE_H
#define _LATT_SWEEP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "grid.h"

#define SWEEP_SCHEMA_NAME	"lattester-sweep"
#define SWEEP_SCHEMA		SWEEP_SCHEMA_NAME "/1"

/*
 * The names a CSV column and a member of a JSON lines row share: the
 * row's "point" and "key", and "region_reused" (a column; in JSON lines,
 * a member of "result").  The rest of a JSON lines row is run --json's
 * document, under its own names.
 */
#define SWEEP_POINT		"point"
#define SWEEP_KEY		"key"
#define SWEEP_REGION_REUSED	"region_reused"

enum sweep_format {
	SWEEP_CSV,
	SWEEP_JSONL,
};

/*
 * The CSV's column sets, oldest first.  A file keeps the set it was
 * started with: --resume appends rows of that set (sweep_csv_header_of(),
 * sweep_csv_has()).  V1, before the thread columns, is refused.
 */
enum sweep_csv_layout {
	SWEEP_CSV_V1,	/* ... smi, cycles_min ...: no mode ... total_gbps */
	SWEEP_CSV_V2,	/* mode ... total_gbps; "point" counts from 0 */
	SWEEP_CSV_V3,	/* engine, page_size; "point" counts from 1 */
	SWEEP_CSV_V4,	/* region_reused */
	SWEEP_CSV_V5,	/* ns_lo_*, ns_hi_*: the 95% intervals */
	SWEEP_CSV_V6,	/* outliers_explained ... clean_ns_mean: causes */
	SWEEP_CSV_V7,	/* duty_cycle: the streams' (duty.h) */
	SWEEP_CSV_V8,	/* idle_ns_p50; rd_percentage ... latency: Mess's */
	SWEEP_CSV_V9,	/* traffic_target: a loaded run's traffic's memory */
};
#define SWEEP_CSV_LAYOUT	SWEEP_CSV_V9	/* what a new file gets */

/* "point" in the rows of a new file: the grid's points count from 1 */
#define SWEEP_POINT_BASE	1

/*
 * The CSV's columns, in their order.  The table in sweep-file.c gives each
 * its name and the layout that brought it; the writer (cmd-sweep.c) fills
 * them in this order, the readers (plot, --resume) find them by it
 * (sweep_csv_find()).  SWEEP_COL_CYCLES and SWEEP_COL_NS stand for a
 * column per statistic of latt_stats[] (cycles_min ... cycles_mean).  A
 * column is never moved: a new one is inserted, so that each older layout
 * is this list without the newer ones.
 */
enum sweep_col {
	/* the point's configuration */
	SWEEP_COL_POINT,
	SWEEP_COL_TARGET,
	SWEEP_COL_TARGET_KIND,
	SWEEP_COL_ENGINE,
	SWEEP_COL_NODE,
	SWEEP_COL_CPU,
	SWEEP_COL_OP,
	SWEEP_COL_FENCE,
	SWEEP_COL_PATTERN,
	SWEEP_COL_STRIDE,
	SWEEP_COL_HOTSPOT,
	SWEEP_COL_SIZE,
	SWEEP_COL_REGION,
	SWEEP_COL_PAGE_SIZE,
	SWEEP_COL_REGION_REUSED,
	SWEEP_COL_CHAIN,
	SWEEP_COL_WIDTH,
	SWEEP_COL_WARM,
	SWEEP_COL_SAMPLES_ASKED,
	SWEEP_COL_SEED,
	SWEEP_COL_WINDOW_US,
	SWEEP_COL_THRESHOLD,
	SWEEP_COL_THRESHOLD_CYCLES,
	SWEEP_COL_TSC_KHZ,
	/* its result */
	SWEEP_COL_START,
	SWEEP_COL_STATE,
	SWEEP_COL_SAMPLES,
	SWEEP_COL_PER,
	SWEEP_COL_OVERHEAD_CYCLES,
	SWEEP_COL_WINDOWS,
	SWEEP_COL_NMI_WINDOWS,
	SWEEP_COL_DURATION_NS,
	SWEEP_COL_OUTLIERS,
	SWEEP_COL_OUTLIERS_DROPPED,
	SWEEP_COL_OUTLIER_RATE,
	SWEEP_COL_OUTLIERS_NMI,
	SWEEP_COL_SPACING_SAMPLES,
	SWEEP_COL_SPACING_NS,
	SWEEP_COL_SMI,
	/* its outliers' causes (outstats.h, struct cause_summary) */
	SWEEP_COL_OUTLIERS_EXPLAINED,
	SWEEP_COL_OUTLIERS_NONE_SEEN,
	SWEEP_COL_OUTLIERS_UNEXPLAINED,
	SWEEP_COL_CLEAN_NS_P999,
	SWEEP_COL_CLEAN_NS_P9999,
	SWEEP_COL_CLEAN_NS_MEAN,
	/* its threads and bandwidth */
	SWEEP_COL_MODE,
	SWEEP_COL_THREADS,
	SWEEP_COL_DELAY,
	SWEEP_COL_MIX_READ,
	SWEEP_COL_MIX_WRITE,
	SWEEP_COL_WRITE_OP,
	SWEEP_COL_TRAFFIC_TARGET,
	SWEEP_COL_BYTES_READ,
	SWEEP_COL_BYTES_WRITTEN,
	SWEEP_COL_READ_GBPS,
	SWEEP_COL_WRITE_GBPS,
	SWEEP_COL_TOTAL_GBPS,
	SWEEP_COL_DUTY_CYCLE,
	SWEEP_COL_IDLE_NS_P50,	/* sweep --curves: the probe alone */
	/* its latency, and what identifies it */
	SWEEP_COL_CYCLES,
	SWEEP_COL_NS,
	SWEEP_COL_NS_LO,
	SWEEP_COL_NS_HI,
	/* the Mess benchmark's names for a curve's point (--mode loaded) */
	SWEEP_COL_RD_PERCENTAGE,
	SWEEP_COL_PAUSE,
	SWEEP_COL_BANDWIDTH,
	SWEEP_COL_LATENCY,
	SWEEP_COL_KEY,
};
#define NR_SWEEP_COLS	(SWEEP_COL_KEY + 1)

bool sweep_csv_has(enum sweep_csv_layout layout, enum sweep_col col);
int sweep_col_count(enum sweep_col col);
const char *sweep_col_name(enum sweep_col col, int stat, char *buf,
			   size_t len);
int sweep_csv_find(char *const *names, int n, enum sweep_col col, int stat);
bool sweep_csv_like(const char *line);

int sweep_format_of(const char *path, enum sweep_format *fmt);
void sweep_csv_header(FILE *f);
void sweep_csv_header_of(FILE *f, enum sweep_csv_layout layout);
size_t sweep_csv_columns(void);
size_t sweep_csv_columns_of(enum sweep_csv_layout layout);
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
	long long complete;	/* bytes up to the end of the last whole line */
	size_t cut;		/* bytes after it: a last line cut short (no
				 * newline: a sweep stopped mid-write), 0 */
	enum sweep_csv_layout layout;
	size_t nsample;
	char *sample_key[SWEEP_SAMPLE_ROWS];
	unsigned long long sample_point[SWEEP_SAMPLE_ROWS];
};

int sweep_load_file(const char *path, enum sweep_format fmt,
		    struct sweep_file_rows *r, char *why, size_t len);
void sweep_file_rows_free(struct sweep_file_rows *r);

#endif /* _LATT_SWEEP_FILE_H */
