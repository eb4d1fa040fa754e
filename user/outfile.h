/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile.h - the check every command makes of its output files before it
 * measures or draws anything: the file is made (or opened for appending),
 * so that what refuses it (/proc, /sys, a read-only mount, a full disk, a
 * missing folder) refuses it before the work, not after.
 */
#ifndef _LATT_OUTFILE_H
#define _LATT_OUTFILE_H

/* out_check()'s words for what was not done, at the end of its message */
#define OUT_MEASURED	"nothing was measured"
#define OUT_DRAWN	"nothing was drawn"

int out_check_errno(const char *path, char *why, unsigned long len);
int out_check(const char *opt, const char *path, const char *undone);

#endif /* _LATT_OUTFILE_H */
