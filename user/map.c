// SPDX-License-Identifier: GPL-2.0
/*
 * map.c - persistent memory for the user engine, mapped into lattester-ctl.
 *
 * Device-DAX: mmap(MAP_SHARED) of the character device.  The driver refuses
 * a mapping whose offset or length is not a multiple of the device's
 * alignment (sysfs "align": 4 KiB, 2 MiB or 1 GiB), so the window mapped is
 * the region rounded out to it, and the region starts inside the window at
 * the offset asked for: offset N is the device's byte N, as for the kernel
 * engine.
 *
 * A file on a DAX filesystem: mmap(MAP_SHARED_VALIDATE | MAP_SYNC).  The
 * kernel grants MAP_SYNC only to a DAX mapping, one whose pages are the
 * persistent memory itself; any other file (page cache) fails with
 * EOPNOTSUPP, and is refused: page-cache pages are DRAM, and the results
 * would call them pmem.  There is no flag to measure such a file anyway:
 * dram:NODE measures DRAM honestly.  The region must also be written data:
 * DAX maps a hole or an unwritten (fallocated) extent to the shared zero
 * page on a read fault, DRAM again, so such a range is refused (FIEMAP, or
 * SEEK_HOLE where the filesystem has no FIEMAP).
 *
 * Pre-faulting (after an mlock, where RLIMIT_MEMLOCK allows it): a run that
 * doesn't write reads a byte of every page through a read-only mapping; a
 * run that writes (stores, chase: with --force only) ORs zero into a byte
 * of every page with a locked instruction, a write that changes no byte,
 * atomically, even if another process writes the page meanwhile.  A read
 * fault maps a shared DAX page read-only when the filesystem wants to hear
 * of writes (MAP_SYNC does: it syncs the block mapping on the write fault),
 * and the first store would then take that fault, and set the dirty bit,
 * inside a timed sample; the locked OR takes both before the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/fiemap.h>
#include <linux/fs.h>

#include "log.h"
#include "map.h"

#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE	0x03	/* Linux 4.15 */
#endif
#ifndef MAP_SYNC
#define MAP_SYNC		0x80000	/* Linux 4.15 */
#endif

#define MAP_PAGE	4096ULL
#define FIEMAP_BATCH	32	/* extents per FS_IOC_FIEMAP call */
/* extents whose bytes are not (yet) in place on the medium */
#define NOT_DATA	(FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | \
			 FIEMAP_EXTENT_UNWRITTEN)

/**
 * map_window() - the mapping that holds [@offset, @offset + @len)
 * @align: the mapping's alignment (a multiple of the page size)
 * @start, @size: its offset and length, multiples of @align
 */
void map_window(__u64 offset, __u64 len, __u64 align, __u64 *start,
		__u64 *size)
{
	*start = offset / align * align;
	*size = (offset + len - *start + align - 1) / align * align;
}

static int read_u64(const char *path, __u64 *v)
{
	FILE *f = fopen(path, "re");
	unsigned long long x;
	int rc = -EINVAL;

	if (!f)
		return -errno;
	if (fscanf(f, "%llu", &x) == 1) {
		*v = x;
		rc = 0;
	}
	fclose(f);
	return rc;
}

/**
 * map_devdax_align() - the alignment a device-DAX mapping of @fd needs
 *
 * The device's "align" (Linux 5.10+), else its region's.  Returns 0, or a
 * negative errno: -ENODEV if @fd is not a character device, -EINVAL for an
 * alignment that is no multiple of the page size.
 */
int map_devdax_align(int fd, __u64 *align)
{
	static const char *const fmt[] = {
		"/sys/dev/char/%u:%u/align",
		"/sys/dev/char/%u:%u/../dax_region/align",
	};
	char path[64];
	struct stat st;
	size_t i;
	int rc = -ENOENT;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISCHR(st.st_mode))
		return -ENODEV;
	for (i = 0; rc && i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		snprintf(path, sizeof(path), fmt[i], major(st.st_rdev),
			 minor(st.st_rdev));
		rc = read_u64(path, align);
	}
	if (!rc && (!*align || *align % MAP_PAGE))
		rc = -EINVAL;
	return rc;
}

/*
 * FIEMAP: the first byte of [@pos, @end) that is not written data (a hole,
 * or an extent that is unwritten, delayed or unknown).  1 with it in *@gap,
 * 0 if there is none, or a negative errno.
 */
static int gap_fiemap(int fd, __u64 pos, __u64 end, __u64 *gap)
{
	__u64 buf[(sizeof(struct fiemap) +
		   FIEMAP_BATCH * sizeof(struct fiemap_extent)) / 8];
	struct fiemap *fm = (struct fiemap *)buf;
	const struct fiemap_extent *e;
	__u32 i;

	while (pos < end) {
		memset(buf, 0, sizeof(buf));
		fm->fm_start = pos;
		fm->fm_length = end - pos;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = FIEMAP_BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm))
			return -errno;
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			e = &fm->fm_extents[i];
			if (e->fe_logical > pos || (e->fe_flags & NOT_DATA))
				goto gap;
			if (e->fe_logical + e->fe_length > pos)
				pos = e->fe_logical + e->fe_length;
			if (pos >= end)
				return 0;
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				goto gap;
		}
	}
	if (pos >= end)
		return 0;
gap:
	*gap = pos;
	return 1;
}

/** map_file_gap_seek() - map_file_gap() by SEEK_HOLE alone */
int map_file_gap_seek(int fd, __u64 offset, __u64 len, __u64 *gap)
{
	off_t hole = lseek(fd, (off_t)offset, SEEK_HOLE);

	if (hole < 0)
		return -errno;
	if ((__u64)hole >= offset + len)
		return 0;
	*gap = (__u64)hole;
	return 1;
}

/**
 * map_file_gap() - the first byte of [@offset, @offset + @len) of file @fd
 * that isn't written data: a hole, or an unwritten (fallocated) extent
 *
 * FIEMAP, or SEEK_HOLE on a filesystem without it (which may take an
 * unwritten extent for data).  Returns 1 with the byte's offset in *@gap, 0
 * if the range is all data, or a negative errno.
 */
int map_file_gap(int fd, __u64 offset, __u64 len, __u64 *gap)
{
	int rc = gap_fiemap(fd, offset, offset + len, gap);

	if (rc == -EOPNOTSUPP || rc == -ENOTTY)
		rc = map_file_gap_seek(fd, offset, len, gap);
	return rc;
}

/**
 * map_prefault() - fault in every page of [@p, @p + @len), changing nothing
 * @writes: with write access (a locked OR of zero), else by reading
 */
void map_prefault(char *p, __u64 len, bool writes)
{
	char *q, *end = p + len;

	for (q = p; q < end; q += MAP_PAGE) {
		if (writes)
			__asm__ __volatile__("lock orb $0, %0"
					     : "+m"(*(volatile char *)q)
					     : : "memory");
		else
			(void)*(volatile char *)q;
	}
}

/* The file behind @fd still holds the region (it is never extended). */
static int check_file(const char *spec, int fd, __u64 offset, __u64 len)
{
	struct stat st;

	if (fstat(fd, &st)) {
		log_err("%s: %s", spec, strerror(errno));
		return 1;
	}
	if (!S_ISREG(st.st_mode) || (__u64)st.st_size < offset + len) {
		log_err("%s: the file no longer holds --offset %llu + --region "
			"%llu bytes (it has %lld): refusing (it is never "
			"extended)", spec, (unsigned long long)offset,
			(unsigned long long)len, (long long)st.st_size);
		return 1;
	}
	return 0;
}

static void map_error(const char *spec, const struct pmem_target *t, int err,
		      __u64 start, __u64 size, __u64 align)
{
	if (t->file[0] && err == EOPNOTSUPP)
		log_err("%s: not a DAX file: mmap with MAP_SYNC refused (%s): "
			"its pages would be page cache, DRAM, not persistent "
			"memory; refusing (put it on ext4 or xfs mounted with "
			"-o dax on an fsdax namespace; dram:NODE measures DRAM)",
			spec, strerror(err));
	else if (t->file[0] && err == EINVAL)
		log_err("%s: mmap with MAP_SHARED_VALIDATE|MAP_SYNC failed (%s; "
			"a kernel before 4.15 has no MAP_SYNC)", spec,
			strerror(err));
	else
		log_err("%s: mmap of %llu bytes at offset %llu (alignment "
			"%llu) of %s failed: %s", spec,
			(unsigned long long)size, (unsigned long long)start,
			(unsigned long long)align,
			t->file[0] ? t->file : t->device, strerror(err));
}

/**
 * map_check_dax_file() - refuse a file that isn't DAX before anything else
 * @spec: the --target, for messages
 * @t: a resolved fsdax-file target
 *
 * The kernel grants MAP_SYNC only to a DAX mapping, so a read-only mapping
 * of one page with MAP_SYNC, undone at once, tells whether the file can be
 * measured at all; the file is opened read-only and nothing is touched.
 * The runner asks this before it asks for --force (or maps anything): the
 * real reason comes first.  Returns 0, or 1 after map_target()'s message.
 */
int map_check_dax_file(const char *spec, const struct pmem_target *t)
{
	int fd = open(t->file, O_RDONLY | O_CLOEXEC), err;
	void *p;

	if (fd < 0) {
		log_err("%s: cannot open %s: %s", spec, t->file,
			strerror(errno));
		return 1;
	}
	p = mmap(NULL, MAP_PAGE, PROT_READ, MAP_SHARED_VALIDATE | MAP_SYNC, fd,
		 0);
	err = p == MAP_FAILED ? errno : 0;
	if (!err)
		munmap(p, MAP_PAGE);
	close(fd);
	if (!err)
		return 0;
	map_error(spec, t, err, 0, MAP_PAGE, MAP_PAGE);
	return 1;
}

static int map_window_of(const char *spec, const struct pmem_target *t,
			 int fd, __u64 offset, __u64 len, bool writes,
			 struct map_region *m)
{
	int prot = PROT_READ | (writes ? PROT_WRITE : 0);
	int flags = t->file[0] ? MAP_SHARED_VALIDATE | MAP_SYNC : MAP_SHARED;
	__u64 start, size;
	void *p;

	map_window(offset, len, m->align, &start, &size);
	p = mmap(NULL, size, prot, flags, fd, (off_t)start);
	if (p == MAP_FAILED) {
		map_error(spec, t, errno, start, size, m->align);
		return 1;
	}
	m->map = p;
	m->len = size;
	m->base = (char *)p + (offset - start);
	return 0;
}

/* A file's region is data, not holes (mapped to the zero page). */
static int check_data(const char *spec, int fd, __u64 offset, __u64 len)
{
	__u64 gap;
	int rc = map_file_gap(fd, offset, len, &gap);

	if (rc < 0) {
		log_warn("%s: cannot tell whether the region has holes (%s): "
			 "measuring it anyway", spec, strerror(-rc));
		return 0;
	}
	if (!rc)
		return 0;
	log_err("%s: no data at byte %llu: a hole or an unwritten (fallocated) "
		"extent, which DAX maps to the shared zero page, DRAM, not to "
		"persistent memory; refusing (write the file's data first, "
		"e.g. create it with dd)", spec, (unsigned long long)gap);
	return 1;
}

/**
 * map_target() - map, check, lock and pre-fault the region of a device-DAX
 * or fsdax-file target
 * @spec: the --target, for messages
 * @t: the resolved target
 * @fd: the device or file, opened read-write if @writes, else read-only
 * @offset, @len: the region, in bytes of the device or file
 * @writes: the run writes (stores, chase): a writable mapping, pre-faulted
 *	for writing
 * @m: out; map_release() it after the run
 *
 * Returns 0, or 1 after a message saying what is wrong.
 */
int map_target(const char *spec, const struct pmem_target *t, int fd,
	       __u64 offset, __u64 len, bool writes, struct map_region *m)
{
	int rc;

	memset(m, 0, sizeof(*m));
	m->align = MAP_PAGE;
	if (t->file[0] && check_file(spec, fd, offset, len))
		return 1;
	if (!t->file[0]) {
		rc = map_devdax_align(fd, &m->align);
		if (rc) {
			log_err("%s: cannot read the alignment of %s from "
				"sysfs: %s", spec, t->device, strerror(-rc));
			return 1;
		}
	}
	if (map_window_of(spec, t, fd, offset, len, writes, m))
		return 1;
	if (t->file[0] && check_data(spec, fd, offset, len)) {
		map_release(m);
		return 1;
	}
	if (mlock(m->base, len))
		log_info("%s: mlock of the region failed (%s): going on (DAX "
			 "pages are not swapped)", spec, strerror(errno));
	map_prefault(m->base, len, writes);
	log_info("%s: mapped %llu bytes at offset %llu (alignment %llu)%s, "
		 "pre-faulted for %s", spec, (unsigned long long)m->len,
		 (unsigned long long)(offset - (offset % m->align)),
		 (unsigned long long)m->align,
		 t->file[0] ? " with MAP_SYNC" : "",
		 writes ? "writing" : "reading");
	return 0;
}

void map_release(struct map_region *m)
{
	if (m->map)
		munmap(m->map, m->len);
	memset(m, 0, sizeof(*m));
}
