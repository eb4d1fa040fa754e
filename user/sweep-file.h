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

int sweep_format_of(const char *path, enum sweep_format *fmt);
void sweep_csv_header(FILE *f);
size_t sweep_csv_columns(void);
int sweep_load_keys(const char *path, enum sweep_format fmt,
		    struct key_set *keys, char *why, size_t len);

#endif /* _LATT_SWEEP_FILE_H */
