/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csv.h - the little CSV lattester-ctl writes and reads back (sweep files,
 * outlier files): RFC 4180 quoting, one record per line, lines starting
 * with '#' before the header are comments.  No logging: the unit test
 * links it.
 */
#ifndef _LATT_CSV_H
#define _LATT_CSV_H

#include <stdio.h>

#define CSV_MAX_FIELDS	128

void csv_put(FILE *f, const char *field, int last);
int csv_split(char *line, char **fields, int max);
int csv_column(char *const *names, int n, const char *name);

#endif /* _LATT_CSV_H */
