/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log.h - messages on stderr, "lattester-ctl CMD: ...", filtered by the
 * level in $LATTESTER_LOG (err, warn, info, debug or 3, 4, 6, 7; default
 * warn), as ndctl's util/log.h does with $NDCTL_LOG.
 */
#ifndef _LATT_LOG_H
#define _LATT_LOG_H

#include <stdarg.h>

#define LATT_PROG	"lattester-ctl"

enum latt_log_level {
	LATT_LOG_ERR	= 3,
	LATT_LOG_WARN	= 4,
	LATT_LOG_INFO	= 6,
	LATT_LOG_DEBUG	= 7,
};

void log_init(void);
void log_set_cmd(const char *cmd);
int log_level(void);
void log_msg(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void log_lib(const char *lib, int prio, const char *fn, const char *fmt,
	     va_list ap) __attribute__((format(printf, 4, 0)));

#define log_err(...)	log_msg(LATT_LOG_ERR, __VA_ARGS__)
#define log_warn(...)	log_msg(LATT_LOG_WARN, __VA_ARGS__)
#define log_info(...)	log_msg(LATT_LOG_INFO, __VA_ARGS__)
#define log_dbg(...)	log_msg(LATT_LOG_DEBUG, __VA_ARGS__)

#endif /* _LATT_LOG_H */
