// SPDX-License-Identifier: GPL-2.0
/*
 * log.c - see log.h
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

static int level = LATT_LOG_WARN;
static const char *cmd_name;

void log_init(void)
{
	static const struct {
		const char *name;
		int level;
	} names[] = {
		{ "err", LATT_LOG_ERR }, { "warn", LATT_LOG_WARN },
		{ "info", LATT_LOG_INFO }, { "debug", LATT_LOG_DEBUG },
	};
	const char *env = getenv("LATTESTER_LOG");
	char *end;
	long v;
	size_t i;

	if (!env || !*env)
		return;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(env, names[i].name)) {
			level = names[i].level;
			return;
		}
	}
	v = strtol(env, &end, 10);
	if (!*end && v >= 0 && v <= LATT_LOG_DEBUG)
		level = (int)v;
}

void log_set_cmd(const char *cmd)
{
	cmd_name = cmd;
}

int log_level(void)
{
	return level;
}

void log_msg(int prio, const char *fmt, ...)
{
	va_list ap;

	if (prio > level)
		return;
	fprintf(stderr, "%s%s%s: ", LATT_PROG, cmd_name ? " " : "",
		cmd_name ? cmd_name : "");
	if (prio == LATT_LOG_WARN)
		fputs("warning: ", stderr);
	else if (prio == LATT_LOG_DEBUG)
		fputs("debug: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/**
 * log_lib() - a message of libndctl, libdaxctl or libcxl, at debug level:
 * the libraries' log callbacks hand it on, one line, with the function
 * that said it and its priority
 */
void log_lib(const char *lib, int prio, const char *fn, const char *fmt,
	     va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	msg[strcspn(msg, "\n")] = '\0';
	log_dbg("%s: %s: %s (priority %d)", lib, fn, msg, prio);
}
