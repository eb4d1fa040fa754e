// SPDX-License-Identifier: GPL-2.0
/*
 * csv.c - see csv.h
 */
#include <string.h>

#include "csv.h"

/** csv_put() - @field, quoted if it needs it, then ',' or (last) '\n' */
void csv_put(FILE *f, const char *field, int last)
{
	const char *p;

	if (strpbrk(field, ",\"\r\n")) {
		fputc('"', f);
		for (p = field; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
		}
		fputc('"', f);
	} else {
		fputs(field, f);
	}
	fputc(last ? '\n' : ',', f);
}

/**
 * csv_split() - split one record in place into at most @max fields
 *
 * Quoted fields lose their quotes ("" is a quote).  A trailing newline is
 * dropped.  Returns the number of fields, or -1 for an unterminated quote
 * or more than @max fields.
 */
int csv_split(char *line, char **fields, int max)
{
	char *r = line, *w = line;
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	for (;;) {
		if (n == max)
			return -1;
		fields[n++] = w;
		if (*r == '"') {
			for (r++;; r++) {
				if (!*r)
					return -1;
				if (*r == '"' && r[1] == '"')
					*w++ = *r++;
				else if (*r == '"')
					break;
				else
					*w++ = *r;
			}
			r++;
			if (*r && *r != ',')
				return -1;
		} else {
			while (*r && *r != ',')
				*w++ = *r++;
		}
		if (!*r) {
			*w = '\0';
			return n;
		}
		*w++ = '\0';
		r++;
	}
}

/** csv_column() - index of @name among the @n header fields, or -1 */
int csv_column(char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}
