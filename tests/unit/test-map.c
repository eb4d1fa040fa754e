// SPDX-License-Identifier: GPL-2.0
/*
 * test-map - the pieces of the user engine's pmem mapping (user/map.c)
 * that a host without persistent memory can check:
 *  - map_window(): the aligned window around a region, for device-DAX
 *    alignments of 4 KiB, 2 MiB and 1 GiB;
 *  - map_file_gap(), map_file_gap_seek(): written data, a sparse file,
 *    a hole in the middle, a hole at the end, a fallocated (unwritten)
 *    range, in files under build/unit/ (the host's filesystem);
 *  - map_prefault(): reads and locked writes leave every byte as it was;
 *  - map_devdax_align() of a file and of /dev/null: refused;
 *  - map_target(): a file on a filesystem without DAX is refused (MAP_SYNC
 *    is not granted), and so is a region beyond the file's end;
 *    map_check_dax_file() refuses the file first, read-only.
 * The mapping of a real device-DAX device or DAX file is tested in the VM
 * (tests/vm/cases-pmem/70-*, 71-*).
 *
 *   test-map DIR    (DIR: where to make the scratch files)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "map.h"
#include "../tap.h"

#define KiB	1024ULL
#define MiB	(1024 * KiB)
#define GiB	(1024 * MiB)

static const char *dir;
static char path[4096];	/* the last scratch file */

static void test_window(void)
{
	static const struct {
		__u64 off, len, align, start, size;
	} c[] = {
		{ 0, 4 * KiB, 4 * KiB, 0, 4 * KiB },
		{ 8 * KiB, 64, 4 * KiB, 8 * KiB, 4 * KiB },
		{ 4 * KiB, 8 * KiB, 2 * MiB, 0, 2 * MiB },
		{ 0, 16 * MiB, 2 * MiB, 0, 16 * MiB },
		{ 2 * MiB + 4 * KiB, 2 * MiB, 2 * MiB, 2 * MiB, 4 * MiB },
		{ 3 * MiB, 1 * MiB, 2 * MiB, 2 * MiB, 2 * MiB },
		{ 1 * GiB + 4 * KiB, 4 * KiB, 1 * GiB, 1 * GiB, 1 * GiB },
	};
	__u64 start, size;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		map_window(c[i].off, c[i].len, c[i].align, &start, &size);
		check(start == c[i].start && size == c[i].size &&
		      start <= c[i].off &&
		      start + size >= c[i].off + c[i].len,
		      "map_window(%llu, %llu, align %llu) = %llu + %llu",
		      (unsigned long long)c[i].off, (unsigned long long)c[i].len,
		      (unsigned long long)c[i].align,
		      (unsigned long long)start, (unsigned long long)size);
	}
}

/* A scratch file: @data bytes written at each of @at[] (n of them), then
 * truncated to @size.  Returns an fd open read-only, or -1. */
static int scratch(const char *name, const __u64 *at, int n, __u64 data,
		   __u64 size)
{
	static char buf[256 * KiB];
	int fd, i;

	memset(buf, 0xa5, sizeof(buf));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (pwrite(fd, buf, data, (off_t)at[i]) != (ssize_t)data)
			goto bad;
	if (ftruncate(fd, (off_t)size) || fsync(fd))
		goto bad;
	return fd;
bad:
	close(fd);
	return -1;
}

/* One gap check: @rc and @gap as found, @want and @want_at as expected. */
static void gap_result(const char *fn, const char *what, __u64 off, __u64 len,
		       int rc, __u64 gap, int want, __u64 want_at)
{
	char got[64];

	if (rc == 1)
		snprintf(got, sizeof(got), "no data from %llu",
			 (unsigned long long)gap);
	else
		snprintf(got, sizeof(got), "%s", rc ? strerror(-rc) : "all data");
	check(rc == want && (!want || gap == want_at), "%s: %s [%llu, +%llu): %s",
	      fn, what, (unsigned long long)off, (unsigned long long)len, got);
}

/* What map_file_gap() (and map_file_gap_seek()) say about a range. */
static void want_gap(int fd, const char *what, __u64 off, __u64 len,
		     int want, __u64 want_at, bool seek_too)
{
	__u64 gap = 0;
	int rc = map_file_gap(fd, off, len, &gap);

	gap_result("map_file_gap", what, off, len, rc, gap, want, want_at);
	if (!seek_too)
		return;
	gap = 0;
	rc = map_file_gap_seek(fd, off, len, &gap);
	gap_result("map_file_gap_seek", what, off, len, rc, gap, want,
		   want_at);
}

static void test_gaps(void)
{
	static const __u64 dense[] = { 0, 256 * KiB, 512 * KiB, 768 * KiB };
	static const __u64 mid[] = { 0, 512 * KiB };
	int fd;

	fd = scratch("dense", dense, 4, 256 * KiB, 1 * MiB);
	check(fd >= 0, "scratch file: 1 MiB written");
	if (fd >= 0) {
		want_gap(fd, "written", 0, 1 * MiB, 0, 0, true);
		want_gap(fd, "written", 512 * KiB, 512 * KiB, 0, 0, true);
		close(fd);
	}
	fd = scratch("sparse", NULL, 0, 0, 1 * MiB);
	check(fd >= 0, "scratch file: 1 MiB sparse");
	if (fd >= 0) {
		want_gap(fd, "sparse", 0, 1 * MiB, 1, 0, true);
		want_gap(fd, "sparse", 64 * KiB, 4 * KiB, 1, 64 * KiB, true);
		close(fd);
	}
	fd = scratch("mid", mid, 2, 256 * KiB, 1 * MiB);
	check(fd >= 0, "scratch file: data, hole, data, hole");
	if (fd >= 0) {
		want_gap(fd, "a hole in the middle", 0, 1 * MiB, 1, 256 * KiB,
			 true);
		want_gap(fd, "before the hole", 0, 256 * KiB, 0, 0, true);
		want_gap(fd, "between the holes", 512 * KiB, 256 * KiB, 0, 0,
			 true);
		want_gap(fd, "a hole at the end", 512 * KiB, 512 * KiB, 1,
			 768 * KiB, true);
		close(fd);
	}
	fd = scratch("unwritten", NULL, 0, 0, 0);
	check(fd >= 0, "scratch file: empty, to fallocate");
	if (fd >= 0 && !fallocate(fd, 0, 0, (off_t)(1 * MiB))) {
		/* SEEK_HOLE may take an unwritten extent for data: FIEMAP */
		want_gap(fd, "fallocated, never written", 0, 1 * MiB, 1, 0,
			 false);
	} else if (fd >= 0) {
		skip("fallocate here: %s", strerror(errno));
	}
	if (fd >= 0)
		close(fd);
}

/* map_target() of @len bytes at 0, with what it says caught in @msg */
static int map_caught(struct pmem_target *t, int fd, __u64 len,
		      struct map_region *m, char *msg, size_t n)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), rc;
	size_t got = 0;

	fflush(stderr);
	if (tmp && saved >= 0)
		dup2(fileno(tmp), 2);
	/* no fd: map_check_dax_file() of the file, as the runner asks */
	rc = fd < 0 ? map_check_dax_file("test", t) :
	     map_target("test", t, fd, 0, len, false, m);
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
	if (tmp) {
		rewind(tmp);
		got = fread(msg, 1, n - 1, tmp);
		fclose(tmp);
	}
	msg[got] = '\0';
	return rc;
}

static void test_prefault(void)
{
	static const __u64 at[] = { 0 };
	unsigned char *p, *copy = malloc(256 * KiB);
	unsigned int i;
	int fd = scratch("prefault", at, 1, 256 * KiB, 256 * KiB);

	for (i = 0; copy && i < 256 * KiB; i++)
		copy[i] = (unsigned char)(i * 2654435761u >> 13);
	if (fd < 0 || !copy || pwrite(fd, copy, 256 * KiB, 0) != 256 * KiB) {
		check(0, "scratch file for map_prefault");
		goto out;
	}
	close(fd);
	fd = open(path, O_RDWR);
	p = fd < 0 ? MAP_FAILED : mmap(NULL, 256 * KiB, PROT_READ | PROT_WRITE,
				       MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		check(0, "mmap of the scratch file: %s", strerror(errno));
		goto out;
	}
	map_prefault((char *)p, 256 * KiB, false);
	check(!memcmp(p, copy, 256 * KiB), "map_prefault(reads): unchanged");
	map_prefault((char *)p, 256 * KiB, true);
	check(!memcmp(p, copy, 256 * KiB),
	      "map_prefault(locked writes): every byte as it was");
	munmap(p, 256 * KiB);
	p = malloc(256 * KiB);
	check(p && pread(fd, p, 256 * KiB, 0) == 256 * KiB &&
	      !memcmp(p, copy, 256 * KiB), "and so is the file");
	free(p);
out:
	if (fd >= 0)
		close(fd);
	free(copy);
}

static void test_refusals(void)
{
	static const __u64 at[] = { 0 };
	struct pmem_target t;
	struct map_region m;
	char msg[512];
	__u64 align = 0;
	int fd;

	fd = scratch("plain", at, 1, 256 * KiB, 256 * KiB);
	check(map_devdax_align(fd, &align) == -ENODEV,
	      "map_devdax_align(a regular file): -ENODEV");
	memset(&t, 0, sizeof(t));
	snprintf(t.file, sizeof(t.file), "%s", path);
	snprintf(t.kind, sizeof(t.kind), "fsdax-file");
	check(map_caught(&t, fd, 64 * KiB, &m, msg, sizeof(msg)) == 1 &&
	      !m.map && strstr(msg, "not a DAX file"),
	      "map_target: a file without DAX (no MAP_SYNC) refused, saying so");
	check(map_caught(&t, fd, 512 * KiB, &m, msg, sizeof(msg)) == 1 &&
	      !m.map && strstr(msg, "no longer holds"),
	      "map_target: a region beyond the file's end refused, for that");
	check(map_caught(&t, -1, 0, &m, msg, sizeof(msg)) == 1 &&
	      strstr(msg, "test: not a DAX file: mmap with MAP_SYNC refused"),
	      "map_check_dax_file: a file without DAX refused, before any "
	      "--force, saying so");
	snprintf(t.file, sizeof(t.file), "%s/no-such-file", dir);
	check(map_caught(&t, -1, 0, &m, msg, sizeof(msg)) == 1 &&
	      strstr(msg, "cannot open") && strstr(msg, "No such file"),
	      "map_check_dax_file: a file that isn't there: said");
	close(fd);
	fd = open("/dev/null", O_RDONLY);
	check(fd >= 0 && map_devdax_align(fd, &align) < 0,
	      "map_devdax_align(/dev/null): no alignment in sysfs");
	memset(&t, 0, sizeof(t));
	snprintf(t.device, sizeof(t.device), "/dev/null");
	check(map_target("test", &t, fd, 0, 64 * KiB, false, &m) == 1,
	      "map_target: /dev/null as device-DAX refused");
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test-map DIR\n");
		return 2;
	}
	dir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_window();
	test_gaps();
	test_prefault();
	test_refusals();
	return tap_done("map");
}
