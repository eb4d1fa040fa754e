// SPDX-License-Identifier: GPL-2.0
/*
 * test-reuse-shim.c - an LD_PRELOAD layer above the stand-in module
 * (test-cli-fake.so), for test-sweep-reuse.sh: it plays the module's side
 * of LATT_CFG_REUSE (ABI 2.1) and writes down what lattester-ctl does with
 * the device.
 *
 *   LATTESTER_DEV=/dev/null SHIM_LOG=FILE \
 *   LD_PRELOAD="test-reuse-shim.so test-cli-fake.so" lattester-ctl ...
 *
 * FILE gets one line per event: "open FD" and "close FD" for the device
 * (the path in LATTESTER_DEV), "start FD reuse=0|1" for every START, and
 * "result FD reused=0|1" for every RESULT.  A START with LATT_CFG_REUSE
 * takes the region "kept" on the same open file when the previous START
 * there asked for the flag too, ended done and had the same target, node,
 * region and physical address: RESULT then has LATT_RES_REUSED, as the
 * module's would.  Closing the file forgets it.  The module's advertising
 * of the feature is the stand-in's (FAKE_FEATURES with LATT_FEAT_REUSE).
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <uapi/lattester.h>

static int dev_fd = -1;		/* the device, as lattester-ctl opened it */
static struct latt_config kept;	/* what the "kept region" was made for */
static bool have_kept;
static int kept_fd = -1;
static struct latt_config started;
static bool reused;

static void note(const char *fmt, ...)
{
	const char *path = getenv("SHIM_LOG");
	char buf[128];
	va_list ap;
	int fd, n;

	if (!path)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fd = ((int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open"))(
		path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, buf, (size_t)n) < 0)
		n = 0;
	((int (*)(int))dlsym(RTLD_NEXT, "close"))(fd);
}

static bool is_dev(const char *path)
{
	const char *dev = getenv("LATTESTER_DEV");

	return dev && path && !strcmp(path, dev);
}

static int opened(const char *path, int fd)
{
	if (fd >= 0 && is_dev(path)) {
		dev_fd = fd;
		note("open %d\n", fd);
	}
	return fd;
}

int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = va_arg(ap, int);
	va_end(ap);
	if (!real)
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	return opened(path, real(path, flags, mode));
}

int open64(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = va_arg(ap, int);
	va_end(ap);
	if (!real)
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT,
							      "open64");
	return opened(path, real(path, flags, mode));
}

int close(int fd)
{
	static int (*real)(int);

	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "close");
	if (fd >= 0 && fd == dev_fd) {
		note("close %d\n", fd);
		dev_fd = -1;
		if (fd == kept_fd)
			have_kept = false;	/* freed on close */
	}
	return real(fd);
}

static bool same_region(const struct latt_config *a,
			const struct latt_config *b)
{
	return a->target == b->target && a->node == b->node &&
	       a->region == b->region && a->phys_addr == b->phys_addr;
}

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	struct latt_result *res;
	va_list ap;
	void *arg;
	int rc;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT,
							      "ioctl");
	if (req == LATT_IOC_START) {
		started = *(const struct latt_config *)arg;
		note("start %d reuse=%d\n", fd,
		     !!(started.flags & LATT_CFG_REUSE));
		reused = (started.flags & LATT_CFG_REUSE) && have_kept &&
			 kept_fd == fd && same_region(&kept, &started);
		have_kept = false;	/* taken, or freed as it doesn't fit */
	}
	rc = real(fd, req, arg);
	if (req == LATT_IOC_RESULT && !rc) {
		res = arg;
		if (reused)
			res->flags |= LATT_RES_REUSED;
		note("result %d reused=%d\n", fd, reused);
		have_kept = (started.flags & LATT_CFG_REUSE) &&
			    res->state == LATT_STATE_DONE;
		kept = started;
		kept_fd = fd;
	}
	return rc;
}
