// SPDX-License-Identifier: GPL-2.0
/*
 * dev.c - see dev.h
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "dev.h"

_Static_assert(sizeof(struct latt_info) == LATT_INFO_SIZE, "latt_info");
_Static_assert(sizeof(struct latt_config) == LATT_CONFIG_SIZE, "latt_config");
_Static_assert(sizeof(struct latt_status) == LATT_STATUS_SIZE, "latt_status");
_Static_assert(sizeof(struct latt_outlier) == LATT_OUTLIER_SIZE,
	       "latt_outlier");
_Static_assert(sizeof(struct latt_result) == LATT_RESULT_SIZE, "latt_result");
_Static_assert(sizeof(struct latt_thread_stats) == LATT_THREAD_STATS_SIZE,
	       "latt_thread_stats");
_Static_assert(sizeof(struct latt_threads) == LATT_THREADS_SIZE,
	       "latt_threads");
_Static_assert(sizeof(struct latt_batch) == LATT_BATCH_SIZE, "latt_batch");

const char *latt_dev_path(void)
{
	const char *env = getenv(LATT_DEV_ENV);

	return env && *env ? env : "/dev/" LATT_DEVICE_NAME;
}

/* ioctl() that retries on EINTR and returns a negative errno. */
static int latt_ioctl(struct latt_dev *d, unsigned long req, void *arg)
{
	int rc;

	do {
		rc = ioctl(d->fd, req, arg);
	} while (rc < 0 && errno == EINTR);
	return rc < 0 ? -errno : 0;
}

/** latt_dev_open() - open the device and read its struct latt_info */
int latt_dev_open(struct latt_dev *d)
{
	int rc;

	memset(d, 0, sizeof(*d));
	d->fd = open(latt_dev_path(), O_RDWR | O_CLOEXEC);
	if (d->fd < 0)
		return -errno;
	rc = latt_ioctl(d, LATT_IOC_GET_INFO, &d->info);
	/*
	 * a module of ABI 1.x answers its own magic only: its GET_INFO says
	 * which it is, and latt_abi_compatible() then names the mismatch
	 */
	if (rc == -ENOTTY &&
	    !latt_ioctl(d, LATT_IOC_GET_INFO_V1, &d->info) &&
	    d->info.abi_version >> 16 == 1)
		rc = 0;
	if (rc)
		latt_dev_close(d);
	return rc;
}

/** latt_dev_close() - close the device; this aborts a run still going */
void latt_dev_close(struct latt_dev *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

int latt_dev_start(struct latt_dev *d, const struct latt_config *cfg)
{
	struct latt_config c = *cfg;
	int rc = ioctl(d->fd, LATT_IOC_START, &c);

	/* not retried: EINTR here means the start was interrupted */
	return rc < 0 ? -errno : 0;
}

/**
 * latt_dev_start_traffic() - START a loaded run whose traffic streams on
 * @t's memory (ABI 2.9, LATT_FEAT_TRAFFIC)
 */
int latt_dev_start_traffic(struct latt_dev *d, const struct latt_config *cfg,
			   const struct latt_traffic *t)
{
	struct latt_config c = *cfg;
	struct latt_traffic tr = *t;
	int rc;

	tr.config_ptr = (__u64)(uintptr_t)&c;
	rc = ioctl(d->fd, LATT_IOC_START_TRAFFIC, &tr);
	return rc < 0 ? -errno : 0;
}

int latt_dev_status(struct latt_dev *d, struct latt_status *st)
{
	memset(st, 0, sizeof(*st));
	return latt_ioctl(d, LATT_IOC_STATUS, st);
}

int latt_dev_abort(struct latt_dev *d)
{
	return latt_ioctl(d, LATT_IOC_ABORT, NULL);
}

/**
 * latt_dev_result() - fetch a finished run's summary, histogram, outliers
 * @hist: @hist_len buckets (LATT_HIST_BUCKETS), or NULL
 * @out: @out_len records, or NULL
 *
 * On return res->outlier_len holds the number of records copied.
 */
int latt_dev_result(struct latt_dev *d, struct latt_result *res,
		    __u64 *hist, __u32 hist_len,
		    struct latt_outlier *out, __u32 out_len)
{
	int rc;

	memset(res, 0, sizeof(*res));
	res->hist_ptr = (__u64)(uintptr_t)hist;
	res->hist_len = hist ? hist_len : 0;
	res->outlier_ptr = (__u64)(uintptr_t)out;
	res->outlier_len = out ? out_len : 0;
	rc = latt_ioctl(d, LATT_IOC_RESULT, res);
	if (rc)
		return rc;
	if (hist && res->hist_len != hist_len)
		return -EPROTO;
	if (res->outlier_len > (out ? out_len : 0))
		return -EPROTO;
	return 0;
}

/**
 * latt_dev_threads() - LATT_IOC_THREADS: a finished run's per-thread
 * records, histograms and series into the buffers @a names
 */
int latt_dev_threads(struct latt_dev *d, struct latt_threads *a)
{
	if (!(d->info.features & LATT_FEAT_THREADS))
		return -EOPNOTSUPP;
	return latt_ioctl(d, LATT_IOC_THREADS, a);
}

/**
 * latt_dev_batch() - LATT_IOC_BATCH: a finished run's batch record
 * (ABI 2.7; -EOPNOTSUPP from an older module)
 */
int latt_dev_batch(struct latt_dev *d, struct latt_batch *b)
{
	if (!(d->info.features & LATT_FEAT_BATCH))
		return -EOPNOTSUPP;
	return latt_ioctl(d, LATT_IOC_BATCH, b);
}

/**
 * latt_dev_windows() - LATT_IOC_WINDOWS (ABI 2.8): a finished run's
 *	outlier windows' evidence
 */
int latt_dev_windows(struct latt_dev *d, struct latt_windows *w)
{
	if (!(d->info.features & LATT_FEAT_WINDOWS))
		return -EOPNOTSUPP;
	return latt_ioctl(d, LATT_IOC_WINDOWS, w);
}

bool latt_abi_compatible(const struct latt_info *info)
{
	return info->abi_version >> 16 == LATT_ABI_MAJOR &&
	       info->hist_buckets == LATT_HIST_BUCKETS;
}

/** latt_open_strerror() - why latt_dev_open() failed, with a hint */
const char *latt_open_strerror(int rc)
{
	switch (rc) {
	case -ENOENT:
	case -ENXIO:
	case -ENODEV:
		return "module not loaded: run 'insmod kmod/lattester.ko' (or 'modprobe lattester' once installed)";
	case -EACCES:
	case -EPERM:
		return "permission denied: lattester-ctl needs root";
	case -ENOTTY:
		return "not a lattester device (GET_INFO: Inappropriate ioctl for device)";
	default:
		return strerror(-rc);
	}
}

/** latt_start_hint() - what a START error from the module usually means */
const char *latt_start_hint(int rc)
{
	switch (rc) {
	case -EBUSY:
		return "another run is in progress";
	case -EINVAL:
		return "the module rejected the configuration";
	case -ENODEV:
		return "the CPU is offline";
	case -ENOMEM:
		return "could not allocate the region; try a smaller --region";
	case -EOPNOTSUPP:
		return "this CPU lacks the instruction the op needs, or a pmem range was not mapped write-back (see dmesg)";
	case -ENOTTY:
		return "module ABI mismatch";
	case -EHWPOISON:
		return "a known bad block (poisoned media) lies in the range: 'ndctl list --media-errors' shows it, 'ndctl clear-errors' clears it; the module reads no poison";
	default:
		return NULL;
	}
}
