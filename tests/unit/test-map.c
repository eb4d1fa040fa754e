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
 *  - the SIGBUS guard: a scratch file mapped and then truncated under the
 *    mapping (the pages beyond its new end are gone: SIGBUS, as for a DAX
 *    file truncated under a run); map_prefault_guarded() reports the byte
 *    and BUS_ADRERR instead of dying, for reads and locked writes; the
 *    guarded function's value passes through; a SIGBUS outside a guard
 *    still kills (a child); the handler goes when the last hold does.
 *    map_target() pre-faults with this, but refuses a file without DAX
 *    first, so the guard is tested here at map.c's level (and in the VM
 *    on a DAX file: tests/vm/cases-pmem/75-badblocks-tool.sh);
 *  - bad-block lists: map_bad_add()/map_bad_sort() merge, map_bad_find(),
 *    map_bad_clip() (a region's list into a namespace's range),
 *    map_clean_stretch() (--skip-badblocks: the largest stretch, rounded
 *    to pages or 2 MiB), and map_file_bad(): the device offsets FIEMAP
 *    gives for a scratch file's bytes, turned back into those bytes.
 * The mapping of a real device-DAX device or DAX file is tested in the VM
 * (tests/vm/cases-pmem/70-*, 71-*, 75-*).
 *
 *   test-map DIR    (DIR: where to make the scratch files)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fiemap.h>
#include <linux/fs.h>

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

static int forty_two(void *arg)
{
	(void)arg;
	return 42;
}

/* SIGBUS's action is the default one */
static bool sigbus_default(void)
{
	struct sigaction sa;

	return !sigaction(SIGBUS, NULL, &sa) && sa.sa_handler == SIG_DFL &&
	       !(sa.sa_flags & SA_SIGINFO);
}

static void test_sigbus(void)
{
	static const __u64 at[] = { 0 };
	struct map_fault f;
	char *p;
	int fd, st, rc;
	pid_t pid;

	fd = scratch("sigbus", at, 1, 64 * KiB, 64 * KiB);
	p = fd < 0 ? MAP_FAILED : mmap(NULL, 64 * KiB, PROT_READ | PROT_WRITE,
				       MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		check(0, "a mapped scratch file for the SIGBUS guard: %s",
		      strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	check(sigbus_default(), "SIGBUS: the default action before a hold");
	check(!map_sigbus_hold() && !map_sigbus_hold(),
	      "map_sigbus_hold(), twice");
	check(map_guard(forty_two, NULL, &f) == 42 && !f.hit,
	      "map_guard(): the function's value passes through");
	check(!map_prefault_guarded(p, 64 * KiB, false, &f) && !f.hit,
	      "map_prefault_guarded(): a whole file, no SIGBUS");
	/* the file shrinks under the mapping, as a DAX file truncated
	 * between the checks and the pre-fault */
	check(!ftruncate(fd, 4 * KiB), "the file truncated to 4 KiB");
	rc = map_prefault_guarded(p, 64 * KiB, false, &f);
	check(rc == 1 && f.hit && f.addr - p == (long)(4 * KiB) &&
	      f.code == BUS_ADRERR,
	      "map_prefault_guarded(reads): SIGBUS caught at byte %ld "
	      "(want 4096), code %d (BUS_ADRERR %d)",
	      f.hit ? (long)(f.addr - p) : -1L, f.code, BUS_ADRERR);
	rc = map_prefault_guarded(p + 8 * KiB, 8 * KiB, true, &f);
	check(rc == 1 && f.hit && f.addr == p + 8 * KiB,
	      "map_prefault_guarded(locked writes): SIGBUS caught at its "
	      "first page");
	check(!map_prefault_guarded(p, 4 * KiB, true, &f) && !f.hit,
	      "and again: what is left pre-faults without one");
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		(void)*(volatile char *)(p + 16 * KiB);	/* no guard */
		_exit(0);
	}
	st = 0;
	if (pid > 0 && waitpid(pid, &st, 0) != pid)
		st = 0;
	check(pid > 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS,
	      "a SIGBUS outside a guard still kills (a child: %s %d)",
	      pid > 0 && WIFSIGNALED(st) ? "signal" : "status",
	      pid > 0 ? (WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st)) :
	      -1);
	map_sigbus_release();
	check(!sigbus_default(), "one hold released: the handler stays");
	map_sigbus_release();
	check(sigbus_default(), "the last hold released: the default again");
	munmap(p, 64 * KiB);
	close(fd);
}

/* @bl is exactly the @n runs {offset, len} of @want */
static bool bad_is(const struct pmem_badlist *bl, const __u64 (*want)[2],
		   unsigned int n)
{
	unsigned int i;

	if (bl->nr != n)
		return false;
	for (i = 0; i < n; i++)
		if (bl->bad[i].offset != want[i][0] ||
		    bl->bad[i].len != want[i][1])
			return false;
	return true;
}

static void test_badlists(void)
{
	static const __u64 merged[][2] = {
		{ 0, 1024 }, { 4096, 1536 }, { 8192, 512 } };
	static const __u64 clipped[][2] = { { 0, 1024 }, { 3072, 1024 } };
	struct pmem_badlist bl = { 0 }, to = { 0 }, ns = { 0 };
	const struct pmem_bad *b;
	unsigned int n = 0;
	__u64 s = 0, e = 0;
	int rc;

	map_bad_add(&bl, 8192, 512, PMEM_UNKNOWN);
	map_bad_add(&bl, 0, 512, PMEM_UNKNOWN);
	map_bad_add(&bl, 4096, 1024, PMEM_UNKNOWN);
	map_bad_add(&bl, 512, 512, PMEM_UNKNOWN);
	map_bad_add(&bl, 4608, 1024, PMEM_UNKNOWN);
	map_bad_sort(&bl);
	check(bad_is(&bl, merged, 3), "map_bad_sort(): sorted, overlapping "
	      "and touching runs merged (%u runs)", bl.nr);
	b = map_bad_find(&bl, 2048, 4096, &n);
	check(b && b->offset == 4096 && n == 1,
	      "map_bad_find(): the run in [2048, +4096)");
	b = map_bad_find(&bl, 1024, 3072, &n);
	check(!b && n == 0, "map_bad_find(): none in [1024, 4096)");
	b = map_bad_find(&bl, 0, 1 * MiB, &n);
	check(b && b->offset == 0 && n == 3, "map_bad_find(): 3 in all");
	map_bad_free(&bl);

	/* a region's list: runs at 1 MiB and 1 MiB + 4 KiB of the region;
	 * a namespace at 1 MiB - 512 of it, 4 KiB long, at 0x100000000 */
	map_bad_add(&bl, 1 * MiB - 1024, 1536, 0x200000000ULL);
	map_bad_add(&bl, 1 * MiB + 2560, 4096, PMEM_UNKNOWN);
	map_bad_sort(&bl);
	map_bad_clip(&bl, 1 * MiB - 512, 4 * KiB, 0x100000000ULL, &to);
	check(bad_is(&to, clipped, 2) && to.bad[0].phys == 0x100000000ULL &&
	      to.bad[1].phys == 0x100000000ULL + 3072,
	      "map_bad_clip(): the runs inside, from the range's start, with "
	      "their physical addresses");
	map_bad_free(&to);
	map_bad_clip(&bl, 0, ~0ULL, PMEM_UNKNOWN, &to);
	check(to.nr == 2 && to.bad[0].phys == 0x200000000ULL &&
	      to.bad[1].phys == PMEM_UNKNOWN,
	      "map_bad_clip(): a copy keeps each run's own address");
	map_bad_free(&to);
	map_bad_free(&bl);

	/* --skip-badblocks: bad 4 KiB at 1 MiB, 512 B at 40 MiB, of 124 MiB */
	map_bad_add(&ns, 1 * MiB, 4 * KiB, PMEM_UNKNOWN);
	map_bad_add(&ns, 40 * MiB + 512, 512, PMEM_UNKNOWN);
	rc = map_clean_stretch(&ns, 0, 124 * MiB, 4 * KiB, &s, &e);
	check(!rc &&
	      s == 40 * MiB + 4 * KiB && e == 124 * MiB,
	      "map_clean_stretch(): the largest, after 40 MiB (%llu-%llu)",
	      (unsigned long long)s, (unsigned long long)e);
	rc = map_clean_stretch(&ns, 0, 50 * MiB, 4 * KiB, &s, &e);
	check(!rc &&
	      s == 1 * MiB + 4 * KiB && e == 40 * MiB,
	      "map_clean_stretch(): of 50 MiB, between the two (%llu-%llu)",
	      (unsigned long long)s, (unsigned long long)e);
	rc = map_clean_stretch(&ns, 0, 50 * MiB, 2 * MiB, &s, &e);
	check(!rc &&
	      s == 2 * MiB && e == 40 * MiB,
	      "map_clean_stretch(): in 2 MiB blocks (%llu-%llu)",
	      (unsigned long long)s, (unsigned long long)e);
	rc = map_clean_stretch(&ns, 41 * MiB, 50 * MiB, 4 * KiB, &s, &e);
	check(!rc &&
	      s == 41 * MiB && e == 50 * MiB,
	      "map_clean_stretch(): from an offset past them, all of it");
	rc = map_clean_stretch(&ns, 1 * MiB, 2 * MiB, 4 * KiB, &s, &e);
	check(!rc &&
	      s == 1 * MiB + 4 * KiB && e == 2 * MiB,
	      "map_clean_stretch(): from an offset on a bad block, after it");
	rc = map_clean_stretch(&ns, 1 * MiB, 1 * MiB + 4 * KiB, 4 * KiB, &s,
				&e);
	check(rc == -ENOSPC,
	      "map_clean_stretch(): nothing clean: -ENOSPC");
	map_bad_free(&ns);
	map_bad_add(&ns, 0, 0, PMEM_UNKNOWN);
	rc = map_clean_stretch(&ns, 0, 8 * MiB, 4 * KiB, &s, &e);
	check(!rc &&
	      s == 0 && e == 8 * MiB, "map_clean_stretch(): no bad blocks");
	map_bad_free(&ns);
}

/* the device offset of byte @at of file @fd (FIEMAP), or ~0 */
static __u64 dev_offset(int fd, __u64 at)
{
	__u64 buf[(sizeof(struct fiemap) + 64 * sizeof(struct fiemap_extent)) / 8];
	struct fiemap *fm = (struct fiemap *)buf;
	__u32 i;

	memset(buf, 0, sizeof(buf));
	fm->fm_start = at;
	fm->fm_length = 1;
	fm->fm_flags = FIEMAP_FLAG_SYNC;
	fm->fm_extent_count = 64;
	if (ioctl(fd, FS_IOC_FIEMAP, fm))
		return ~0ULL;
	for (i = 0; i < fm->fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &fm->fm_extents[i];

		if (e->fe_logical <= at && at < e->fe_logical + e->fe_length)
			return e->fe_physical + (at - e->fe_logical);
	}
	return ~0ULL;
}

static void test_file_bad(void)
{
	static const __u64 dense[] = { 0, 256 * KiB, 512 * KiB, 768 * KiB };
	struct pmem_badlist dev = { 0 }, out = { 0 };
	__u64 d1, d2;
	int fd, rc;

	fd = scratch("fiemap", dense, 4, 256 * KiB, 1 * MiB);
	if (fd < 0) {
		check(0, "scratch file for map_file_bad");
		return;
	}
	d1 = dev_offset(fd, 300 * KiB);
	d2 = dev_offset(fd, 900 * KiB + 512);
	if (d1 == ~0ULL || d2 == ~0ULL) {
		skip("map_file_bad: no FIEMAP for %s here", dir);
		close(fd);
		return;
	}
	/* bad blocks on the device under bytes 300 KiB and 900.5 KiB, and
	 * one where the file is not (below its first byte's block) */
	map_bad_add(&dev, d1, 512, 0x300000000ULL);
	map_bad_add(&dev, d2, 1024, PMEM_UNKNOWN);
	map_bad_sort(&dev);
	rc = map_file_bad(fd, 0, 1 * MiB, &dev, &out);
	check(!rc && out.nr == 2 && out.bad[0].offset == 300 * KiB &&
	      out.bad[0].len == 512 && out.bad[0].phys == 0x300000000ULL &&
	      out.bad[1].offset == 900 * KiB + 512 && out.bad[1].len == 1024,
	      "map_file_bad(): the device's bad blocks are bytes 300 KiB and "
	      "900.5 KiB of the file (rc %d, %u runs, first at %llu)", rc,
	      out.nr, out.nr ? (unsigned long long)out.bad[0].offset : 0ULL);
	map_bad_free(&out);
	rc = map_file_bad(fd, 512 * KiB, 256 * KiB, &dev, &out);
	check(!rc && !out.nr, "map_file_bad(): none in [512 KiB, 768 KiB)");
	map_bad_free(&out);
	close(fd);
	fd = scratch("fiemap-sparse", NULL, 0, 0, 1 * MiB);
	rc = fd < 0 ? -1 : map_file_bad(fd, 0, 1 * MiB, &dev, &out);
	check(!rc && !out.nr, "map_file_bad(): a hole lies on no bad block");
	map_bad_free(&out);
	map_bad_free(&dev);
	if (fd >= 0)
		close(fd);
}

/* map_page_size_from() on an smaps listing @text, for the VMA at @base */
static __u64 page_of(const char *text, __u64 base, __u64 len, char *note)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	__u64 p;

	if (!f)
		return ~0ULL;
	p = map_page_size_from(f, (const char *)(uintptr_t)base, len, note,
			       64);
	fclose(f);
	return p;
}

#define VMA_A "7f0000000000-7f0040000000 rw-p 00000000 00:00 0\n"
#define VMA_B "7f0040000000-7f0040200000 rw-p 00000000 00:00 0 \n"

/*
 * The page size a run reports is the smallest page that maps a byte of
 * its region, as the module's (ABI 2.4): a region only partly in
 * transparent huge pages has bytes in 4 KiB pages.
 */
static void test_page_size(void)
{
	char note[64];
	const __u64 a = 0x7f0000000000ULL, gib = 1ULL << 30;

	check(page_of(VMA_A "KernelPageSize: 4 kB\nAnonHugePages: 0 kB\n",
		      a, gib, note) == 4096 &&
	      !strcmp(note, "smaps: 0% in 2 MiB pages"),
	      "smaps: no huge pages: 4 KiB (%s)", note);
	check(page_of(VMA_A "KernelPageSize: 4 kB\nAnonHugePages: 1048576 kB\n",
		      a, gib, note) == 2 << 20 &&
	      !strcmp(note, "smaps: 100% in 2 MiB pages"),
	      "smaps: the whole region in THP: 2 MiB (%s)", note);
	check(page_of(VMA_A "KernelPageSize: 4 kB\nAnonHugePages: 1046528 kB\n",
		      a, gib, note) == 4096 &&
	      !strcmp(note, "smaps: only 99% in 2 MiB pages"),
	      "smaps: all but one 2 MiB in THP: 4 KiB, the smallest (%s)",
	      note);
	check(page_of(VMA_A "KernelPageSize: 4 kB\nAnonHugePages: 629145 kB\n",
		      a, gib, note) == 4096,
	      "smaps: 60%% in THP: 4 KiB (it was 2 MiB from half on)");
	check(page_of(VMA_A "KernelPageSize: 4 kB\nFilePmdMapped: 1048576 kB\n",
		      a, gib, note) == 2 << 20,
	      "smaps: DAX mapped by PMDs throughout: 2 MiB");
	check(page_of(VMA_A "KernelPageSize: 2048 kB\nAnonHugePages: 0 kB\n",
		      a, gib, note) == 2 << 20,
	      "smaps: hugetlbfs: its page size, 2 MiB");
	check(page_of(VMA_A "KernelPageSize: 4 kB\n" VMA_B
		      "KernelPageSize: 4 kB\nAnonHugePages: 2048 kB\n",
		      a + gib, 2 << 20, note) == 2 << 20 &&
	      page_of(VMA_A "KernelPageSize: 4 kB\nAnonHugePages: 0 kB\n"
		      VMA_B "KernelPageSize: 4 kB\nAnonHugePages: 2048 kB\n",
		      a, gib, note) == 4096,
	      "smaps: only the VMA that holds the region counts");
	check(page_of(VMA_A "KernelPageSize: 4 kB\n", 0x1000, 4096, note) == 0 &&
	      !strcmp(note, "unknown"),
	      "smaps: no VMA holds it: 0, unknown");
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
	test_sigbus();
	test_badlists();
	test_file_bad();
	test_page_size();
	return tap_done("map");
}
