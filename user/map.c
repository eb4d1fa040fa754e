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
 *
 * The pre-fault runs under the SIGBUS guard (map_guard()) that the user
 * engine's run also runs under: a page that can't be mapped or read (a
 * known bad block, which DAX refuses to map; poison; the file truncated or
 * the device disabled meanwhile) raises SIGBUS, and the run is refused with
 * the byte and the reason instead of the tool dying of a bus error.  The
 * handler is installed from before the pre-fault until map_release().
 *
 * The rest is the arithmetic of known bad blocks that the runner's checks
 * of both engines use (lists of struct pmem_bad, kept sorted and merged):
 * clipping a region's list to a namespace's range, the first bad block in
 * a range, the largest stretch free of them (--skip-badblocks), and, for a
 * file, where the bad blocks of its device lie in the file (FIEMAP: the
 * device offsets of the file's extents).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* A buffer for one FIEMAP call of FIEMAP_BATCH extents, in __u64s */
#define FIEMAP_BUF_U64	((sizeof(struct fiemap) + \
			  FIEMAP_BATCH * sizeof(struct fiemap_extent)) / 8)

/*
 * One FIEMAP call over [@pos, @end) into @fm (FIEMAP_BUF_U64 __u64s): the
 * extents it mapped, or a negative errno.
 */
static int fiemap_at(int fd, struct fiemap *fm, __u64 pos, __u64 end)
{
	memset(fm, 0, FIEMAP_BUF_U64 * sizeof(__u64));
	fm->fm_start = pos;
	fm->fm_length = end - pos;
	fm->fm_flags = FIEMAP_FLAG_SYNC;
	fm->fm_extent_count = FIEMAP_BATCH;
	if (ioctl(fd, FS_IOC_FIEMAP, fm))
		return -errno;
	return (int)fm->fm_mapped_extents;
}

/*
 * FIEMAP: the first byte of [@pos, @end) that is not written data (a hole,
 * or an extent that is unwritten, delayed or unknown).  1 with it in *@gap,
 * 0 if there is none, or a negative errno.
 */
static int gap_fiemap(int fd, __u64 pos, __u64 end, __u64 *gap)
{
	__u64 buf[FIEMAP_BUF_U64];
	struct fiemap *fm = (struct fiemap *)buf;
	const struct fiemap_extent *e;
	__u32 i;
	int rc;

	while (pos < end) {
		rc = fiemap_at(fd, fm, pos, end);
		if (rc < 0)
			return rc;
		if (!rc)
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

/*
 * The SIGBUS guard.  SIGBUS is synchronous: it goes to the thread that made
 * the access, so the state is the thread's own.  A SIGBUS outside a guard
 * kills, as it would without the handler.
 */
static _Thread_local sigjmp_buf guard_jmp;
static _Thread_local volatile sig_atomic_t guard_armed;
static _Thread_local volatile int guard_code;
static _Thread_local char *volatile guard_addr;
static unsigned int sigbus_holds;
static struct sigaction sigbus_old;

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (!guard_armed) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	guard_armed = 0;
	guard_code = si->si_code;
	guard_addr = si->si_addr;
	siglongjmp(guard_jmp, 1);
}

/**
 * map_sigbus_hold() - install the SIGBUS handler of map_guard(), or count
 * one more hold of it; 0, or a negative errno
 */
int map_sigbus_hold(void)
{
	struct sigaction sa;

	if (sigbus_holds++)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &sigbus_old)) {
		sigbus_holds = 0;
		return -errno;
	}
	return 0;
}

/** map_sigbus_release() - drop a hold; the last restores the old action */
void map_sigbus_release(void)
{
	if (sigbus_holds && !--sigbus_holds)
		sigaction(SIGBUS, &sigbus_old, NULL);
}

/**
 * map_guard() - @fn(@arg), with a SIGBUS in it turned into a return
 * @f: out: whether a SIGBUS came, its code and address
 *
 * The handler must be held (map_sigbus_hold()).  On a SIGBUS, @fn is left
 * where it was (what it allocated stays allocated) and -EFAULT returned
 * with @f->hit set; else @fn's return value.
 */
int map_guard(int (*fn)(void *arg), void *arg, struct map_fault *f)
{
	int ret;

	memset(f, 0, sizeof(*f));
	if (sigsetjmp(guard_jmp, 1)) {
		f->hit = true;
		f->code = guard_code;
		f->addr = guard_addr;
		return -EFAULT;
	}
	guard_armed = 1;
	ret = fn(arg);
	guard_armed = 0;
	return ret;
}

struct prefault_arg {
	char *p;
	__u64 len;
	bool writes;
};

static int prefault_fn(void *arg)
{
	const struct prefault_arg *a = arg;

	map_prefault(a->p, a->len, a->writes);
	return 0;
}

/**
 * map_prefault_guarded() - map_prefault() under map_guard()
 *
 * Returns 0, or 1 with the SIGBUS in @f (@f->addr - @p: the byte).
 */
int map_prefault_guarded(char *p, __u64 len, bool writes,
			 struct map_fault *f)
{
	struct prefault_arg a = { p, len, writes };

	map_guard(prefault_fn, &a, f);
	return f->hit ? 1 : 0;
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
		log_err("%s: the file no longer holds --offset %llu + --region %llu bytes (it has %lld): refusing (it is never extended)", spec, (unsigned long long)offset,
			(unsigned long long)len, (long long)st.st_size);
		return 1;
	}
	return 0;
}

static void map_error(const char *spec, const struct pmem_target *t, int err,
		      __u64 start, __u64 size, __u64 align)
{
	if (t->file[0] && err == EOPNOTSUPP)
		log_err("%s: not a DAX file: mmap with MAP_SYNC refused (%s): its pages would be page cache, DRAM, not persistent memory; refusing (put it on ext4 or xfs mounted with -o dax on an fsdax namespace; dram:NODE measures DRAM)",
			spec, strerror(err));
	else if (t->file[0] && err == EINVAL)
		log_err("%s: mmap with MAP_SHARED_VALIDATE|MAP_SYNC failed (%s; a kernel before 4.15 has no MAP_SYNC)", spec,
			strerror(err));
	else
		log_err("%s: mmap of %llu bytes at offset %llu (alignment %llu) of %s failed: %s", spec,
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
		log_warn("%s: cannot tell whether the region has holes (%s): measuring it anyway", spec, strerror(-rc));
		return 0;
	}
	if (!rc)
		return 0;
	log_err("%s: no data at byte %llu: a hole or an unwritten (fallocated) extent, which DAX maps to the shared zero page, DRAM, not to persistent memory; refusing (write the file's data first, e.g. create it with dd)", spec, (unsigned long long)gap);
	return 1;
}

/*
 * Pre-fault the region under the SIGBUS guard, whose handler stays held
 * (@m->sigbus) until map_release(): a page that can't be had refuses the
 * run, saying which and why.  0, or 1 after the message.
 */
static int prefault(const char *spec, struct map_region *m, __u64 len,
		    bool writes)
{
	struct map_fault f;
	unsigned long long at;
	int rc = map_sigbus_hold();

	if (rc) {
		log_err("%s: cannot catch SIGBUS: %s", spec, strerror(-rc));
		return 1;
	}
	m->sigbus = true;
	if (!map_prefault_guarded(m->base, len, writes, &f))
		return 0;
	at = (unsigned long long)(f.addr - m->base);
	if (f.code == BUS_MCEERR_AR || f.code == BUS_MCEERR_AO)
		log_err("%s: a media error (poisoned memory) at byte %llu of the region while pre-faulting it: nothing was measured ('ndctl list --media-errors' lists the known ones)",
			spec, at);
	else
		log_err("%s: SIGBUS at byte %llu of the region while pre-faulting it: the kernel would not map that page (a known bad block there, the file truncated, or the device disabled): nothing was measured", spec, at);
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
 * The SIGBUS handler of map_guard() is held from the pre-fault on, until
 * map_release(): the run goes under the same guard.  Returns 0, or 1 after
 * a message saying what is wrong.
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
			log_err("%s: cannot read the alignment of %s from sysfs: %s", spec, t->device, strerror(-rc));
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
		log_info("%s: mlock of the region failed (%s): going on (DAX pages are not swapped)", spec, strerror(errno));
	if (prefault(spec, m, len, writes)) {
		map_release(m);
		return 1;
	}
	log_info("%s: mapped %llu bytes at offset %llu (alignment %llu)%s, pre-faulted for %s", spec, (unsigned long long)m->len,
		 (unsigned long long)(offset - (offset % m->align)),
		 (unsigned long long)m->align,
		 t->file[0] ? " with MAP_SYNC" : "",
		 writes ? "writing" : "reading");
	return 0;
}

/**
 * map_devdax_for_module() - map a device-DAX target for the module's check
 * @spec, @t, @fd: as map_target()'s; @t a device-DAX device
 * @offset, @len: the region, in bytes of the device
 * @writes: the run writes: a writable mapping (the module pins the pages
 *	for writing then)
 * @m: out; map_release() it once the run no longer needs it
 *
 * The module (ABI 2.1, LATT_FEAT_DAX_MAP) takes a device-DAX range only
 * where the caller's mapping of the device holds exactly those pages
 * (latt_config.map_addr = m->base): the device's own translation ties the
 * range to it.  Nothing is touched here: the module's pin faults it in.
 * Returns 0, or 1 after a message.
 */
int map_devdax_for_module(const char *spec, const struct pmem_target *t,
			  int fd, __u64 offset, __u64 len, bool writes,
			  struct map_region *m)
{
	int rc;

	memset(m, 0, sizeof(*m));
	rc = map_devdax_align(fd, &m->align);
	if (rc) {
		log_err("%s: cannot read the alignment of %s from sysfs: %s",
			spec, t->device, strerror(-rc));
		return 1;
	}
	return map_window_of(spec, t, fd, offset, len, writes, m);
}

void map_release(struct map_region *m)
{
	if (m->map)
		munmap(m->map, m->len);
	if (m->sigbus)
		map_sigbus_release();
	memset(m, 0, sizeof(*m));
}

/**
 * map_bad_add() - append a run of bad blocks to @bl (map_bad_sort() puts
 * the list in order); 0 or -ENOMEM
 */
int map_bad_add(struct pmem_badlist *bl, __u64 offset, __u64 len, __u64 phys)
{
	struct pmem_bad *p;

	if (!len)
		return 0;
	p = realloc(bl->bad, (bl->nr + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	bl->bad = p;
	bl->bad[bl->nr++] = (struct pmem_bad){ offset, len, phys };
	return 0;
}

static int cmp_bad(const void *a, const void *b)
{
	const struct pmem_bad *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* @b continues @a's physical addresses (or neither has one) */
static bool phys_follows(const struct pmem_bad *a, const struct pmem_bad *b)
{
	if (a->phys == PMEM_UNKNOWN || b->phys == PMEM_UNKNOWN)
		return a->phys == b->phys;
	return b->phys - a->phys == b->offset - a->offset;
}

/**
 * map_bad_sort() - sort @bl by offset and merge runs that overlap or touch
 * (and whose physical addresses agree: a file's neighbours may not)
 */
void map_bad_sort(struct pmem_badlist *bl)
{
	struct pmem_bad *a, *b;
	unsigned int i, n = 0;

	if (bl->nr < 2)
		return;
	qsort(bl->bad, bl->nr, sizeof(*bl->bad), cmp_bad);
	for (i = 1; i < bl->nr; i++) {
		a = &bl->bad[n];
		b = &bl->bad[i];
		if (b->offset <= a->offset + a->len && phys_follows(a, b)) {
			if (b->offset + b->len > a->offset + a->len)
				a->len = b->offset + b->len - a->offset;
		} else {
			bl->bad[++n] = *b;
		}
	}
	bl->nr = n + 1;
}

void map_bad_free(struct pmem_badlist *bl)
{
	free(bl->bad);
	bl->bad = NULL;
	bl->nr = 0;
}

/**
 * map_bad_find() - the first run of @bl that meets [@offset, @offset +
 * @len), or NULL; *@count (if not NULL): how many runs meet it
 */
const struct pmem_bad *map_bad_find(const struct pmem_badlist *bl,
				    __u64 offset, __u64 len,
				    unsigned int *count)
{
	const struct pmem_bad *first = NULL;
	unsigned int i, n = 0;

	for (i = 0; i < bl->nr; i++) {
		const struct pmem_bad *b = &bl->bad[i];

		if (b->offset >= offset + len || b->offset + b->len <= offset)
			continue;
		if (!first || b->offset < first->offset)
			first = b;
		n++;
	}
	if (count)
		*count = n;
	return first;
}

/**
 * map_bad_clip() - the part of list @from inside [@start, @start + @len)
 * (in @from's offsets), appended to @to with offsets from @start
 * @phys: the physical address of @start, or PMEM_UNKNOWN (then each run's
 *	own, moved)
 *
 * 0 or -ENOMEM.
 */
int map_bad_clip(const struct pmem_badlist *from, __u64 start, __u64 len,
		 __u64 phys, struct pmem_badlist *to)
{
	__u64 lo, hi, p;
	unsigned int i;

	for (i = 0; i < from->nr; i++) {
		const struct pmem_bad *b = &from->bad[i];

		lo = b->offset > start ? b->offset : start;
		hi = b->offset + b->len < start + len ? b->offset + b->len :
		     start + len;
		if (lo >= hi)
			continue;
		p = phys != PMEM_UNKNOWN ? phys + (lo - start) :
		    b->phys != PMEM_UNKNOWN ? b->phys + (lo - b->offset) :
		    PMEM_UNKNOWN;
		if (map_bad_add(to, lo - start, hi - lo, p))
			return -ENOMEM;
	}
	return 0;
}

/**
 * map_clean_stretch() - the largest stretch of [@from, @to) that holds no
 * run of (sorted) @bl, each run rounded out to @align (a power of two): its
 * start, a multiple of @align, and its end
 *
 * The first of equal ones.  0, or -ENOSPC if there is none.
 */
int map_clean_stretch(const struct pmem_badlist *bl, __u64 from, __u64 to,
		      __u64 align, __u64 *start, __u64 *end)
{
	__u64 pos = (from + align - 1) & ~(align - 1), lo, hi, best = 0;
	unsigned int i;

	*start = *end = 0;
	for (i = 0; i <= bl->nr && pos < to; i++) {
		if (i < bl->nr) {
			lo = bl->bad[i].offset & ~(align - 1);
			hi = (bl->bad[i].offset + bl->bad[i].len + align - 1) &
			     ~(align - 1);
		} else {
			lo = hi = to;
		}
		if (hi <= pos)
			continue;
		if (lo > to)
			lo = to;
		if (lo > pos && lo - pos > best) {
			best = lo - pos;
			*start = pos;
			*end = lo;
		}
		pos = hi;
	}
	return best ? 0 : -ENOSPC;
}

/* extents whose place on the device FIEMAP can't give */
#define NOT_PLACED	(FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | \
			 FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_DATA_INLINE | \
			 FIEMAP_EXTENT_DATA_TAIL | FIEMAP_EXTENT_NOT_ALIGNED)

/**
 * map_file_bad() - which bytes of file @fd in [@offset, @offset + @len) lie
 * on the bad blocks @dev of the block device under it (in that device's
 * offsets, which FIEMAP's fe_physical are)
 * @out: the runs appended, in file offsets (phys as @dev's, moved)
 *
 * Bytes in no extent (a hole) lie on nothing.  Returns 0; -EOPNOTSUPP or
 * -ENOTTY without FIEMAP, -ENXIO for an extent FIEMAP can't place on the
 * device (inline, encoded, delayed, unknown): then nothing can be said;
 * another negative errno if FIEMAP fails; -ENOMEM.
 */
int map_file_bad(int fd, __u64 offset, __u64 len,
		 const struct pmem_badlist *dev, struct pmem_badlist *out)
{
	__u64 buf[FIEMAP_BUF_U64];
	struct fiemap *fm = (struct fiemap *)buf;
	const struct fiemap_extent *e;
	struct pmem_badlist part = { 0 };
	__u64 pos = offset, end = offset + len, lo, hi, was;
	__u32 i, j;
	int rc = 0;

	while (pos < end) {
		was = pos;
		rc = fiemap_at(fd, fm, pos, end);
		if (rc < 0)
			goto out;
		rc = 0;
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			e = &fm->fm_extents[i];
			lo = e->fe_logical > offset ? e->fe_logical : offset;
			hi = e->fe_logical + e->fe_length < end ?
			     e->fe_logical + e->fe_length : end;
			if (e->fe_logical + e->fe_length > pos)
				pos = e->fe_logical + e->fe_length;
			if (lo >= hi)
				continue;
			if (e->fe_flags & NOT_PLACED)
				return -ENXIO;
			/* the device's bad runs under [lo, hi) of the file */
			part.nr = 0;
			rc = map_bad_clip(dev, e->fe_physical + (lo - e->fe_logical),
					  hi - lo, PMEM_UNKNOWN, &part);
			for (j = 0; !rc && j < part.nr; j++)
				rc = map_bad_add(out, lo + part.bad[j].offset,
						 part.bad[j].len,
						 part.bad[j].phys);
			if (rc)
				goto out;
		}
		e = &fm->fm_extents[fm->fm_mapped_extents - 1];
		if ((e->fe_flags & FIEMAP_EXTENT_LAST) || pos <= was)
			break;
	}
	map_bad_sort(out);
out:
	map_bad_free(&part);
	return rc;
}

/**
 * map_page_size_from() - the smallest page that maps a byte of [@base,
 *	@base + @len), from an smaps listing (/proc/self/smaps)
 * @f: the listing
 * @base: the range's first byte, in one VMA
 * @len: its bytes
 * @note: out: what was seen ("smaps: N% in 2 MiB pages", "unknown")
 * @nlen: room in @note
 *
 * The VMA's KernelPageSize (2 MiB for hugetlbfs), or 2 MiB where
 * transparent huge pages (AnonHugePages; FilePmdMapped for DAX) map the
 * whole range: a range that is only partly in huge pages has bytes in
 * 4 KiB ones.  The module's page_size is the same minimum (ABI 2.4).
 *
 * Return: bytes; 0 if the VMA is not found.
 */
__u64 map_page_size_from(FILE *f, const char *base, __u64 len, char *note,
			 size_t nlen)
{
	unsigned long long lo, hi, kb;
	__u64 page = 0, huge = 0, pct;
	bool in = false, found = false;
	char line[256];

	snprintf(note, nlen, "unknown");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx ", &lo, &hi) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			if (found)
				break;
			in = (uintptr_t)base >= lo && (uintptr_t)base < hi;
			found = in;
			continue;
		}
		if (!in)
			continue;
		if (sscanf(line, "KernelPageSize: %llu kB", &kb) == 1)
			page = kb << 10;
		else if (sscanf(line, "AnonHugePages: %llu kB", &kb) == 1 ||
			 sscanf(line, "FilePmdMapped: %llu kB", &kb) == 1)
			huge += kb << 10;
	}
	if (!found)
		return 0;
	pct = huge >= len ? 100 : len ? huge * 100 / len : 0;
	if (huge >= len && len && page < MAP_HUGE) {
		snprintf(note, nlen, "smaps: %llu%% in 2 MiB pages",
			 (unsigned long long)pct);
		return MAP_HUGE;
	}
	snprintf(note, nlen, "smaps: %s%llu%% in 2 MiB pages",
		 huge && page < MAP_HUGE ? "only " : "",
		 (unsigned long long)pct);
	return page;
}

/** map_page_size() - map_page_size_from() of this process's smaps */
__u64 map_page_size(const char *base, __u64 len, char *note, size_t nlen)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	__u64 page;

	if (!f) {
		snprintf(note, nlen, "unknown");
		return 0;
	}
	page = map_page_size_from(f, base, len, note, nlen);
	fclose(f);
	return page;
}
