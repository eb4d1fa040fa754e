/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dev.h - a small library over /dev/lattester's ioctls.  Every function
 * returns 0 or a negative errno and prints nothing.
 */
#ifndef _LATT_DEV_H
#define _LATT_DEV_H

#include <stdbool.h>
#include <uapi/lattester.h>

#define LATT_DEV_ENV	"LATTESTER_DEV"	/* overrides the device path */

struct latt_dev {
	int fd;
	struct latt_info info;	/* from GET_INFO at open */
};

const char *latt_dev_path(void);
int latt_dev_open(struct latt_dev *d);
void latt_dev_close(struct latt_dev *d);
int latt_dev_start(struct latt_dev *d, const struct latt_config *cfg);
int latt_dev_start_traffic(struct latt_dev *d, const struct latt_config *cfg,
			   const struct latt_traffic *t);
int latt_dev_status(struct latt_dev *d, struct latt_status *st);
int latt_dev_abort(struct latt_dev *d);
int latt_dev_result(struct latt_dev *d, struct latt_result *res,
		    __u64 *hist, __u32 hist_len,
		    struct latt_outlier *out, __u32 out_len);

int latt_dev_threads(struct latt_dev *d, struct latt_threads *a);
int latt_dev_batch(struct latt_dev *d, struct latt_batch *b);
int latt_dev_windows(struct latt_dev *d, struct latt_windows *w);

bool latt_abi_compatible(const struct latt_info *info);
const char *latt_open_strerror(int rc);
const char *latt_start_hint(int rc);

#endif /* _LATT_DEV_H */
