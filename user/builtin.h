/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin.h - the commands of lattester-ctl and what they share: exit
 * codes and a table-driven option parser that also prints --help.
 */
#ifndef _LATT_BUILTIN_H
#define _LATT_BUILTIN_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifndef LATT_TOOL_VERSION
#define LATT_TOOL_VERSION	"unknown"	/* the Makefile sets it */
#endif

#define EXIT_USAGE		2
#define EXIT_INTERRUPTED	130	/* 128 + SIGINT, as shells report it */

/* The whole command line, for the JSON provenance block. */
struct cmd_ctx {
	int argc;
	char **argv;
};

int cmd_info(int argc, char **argv, const struct cmd_ctx *ctx);
int cmd_list(int argc, char **argv, const struct cmd_ctx *ctx);
int cmd_run(int argc, char **argv, const struct cmd_ctx *ctx);
int cmd_sweep(int argc, char **argv, const struct cmd_ctx *ctx);
int cmd_plot(int argc, char **argv, const struct cmd_ctx *ctx);
int cmd_compare(int argc, char **argv, const struct cmd_ctx *ctx);
int cmd_matrix(int argc, char **argv, const struct cmd_ctx *ctx);

/**
 * struct cmd_opt - one long option: getopt_long's entry and its help line
 * @arg: the value's name in --help, NULL for a flag
 * @names: -1, or an enum latt_names table whose names are listed after @help
 */
struct cmd_opt {
	const char *name;
	int id;
	const char *arg;
	const char *help;
	int names;
};

/* A row of an option table; _NAMES: its values listed from @names. */
#define OPT_ROW(name, id, arg, help)	{ name, id, arg, help, -1 }
#define OPT_ROW_NAMES(name, id, arg, help, names) \
	{ name, id, arg, help, names }
/* The row that ends a table. */
#define OPT_END				{ NULL, 0, NULL, NULL, -1 }
/* A number's macro as a string, for the defaults in a row's help. */
#define STR_(x)	#x
#define STR(x)	STR_(x)

/**
 * struct cmd_usage - a command's --help, man page and completion
 * @opts: ends with an entry whose name is NULL; --help is added to it
 * @description: the man page's DESCRIPTION after @about: paragraphs
 *	separated by an empty line, plain text (doc.c escapes it), or NULL
 * @examples: man page EXAMPLES: command line, explanation, ..., NULL
 * @see_also: extra SEE ALSO references ("ndctl-list(1), gnuplot(1)")
 * @words: the positional words completion offers ("hist|tail"), or NULL
 * @words_are_commands: the positional word is a command name (help)
 * @file_args: the positional words are file names: cmd_getopt() leaves
 *	them to the command (argv[optind] on), completion offers files
 *
 * Every page, --help and the bash completion are generated from these
 * (doc.c; lattester-ctl __man, __completion): tests/unit/test-docs.sh
 * checks that they agree.
 */
struct cmd_usage {
	const char *cmd;
	const char *synopsis;
	const char *about;
	const struct cmd_opt *opts;
	const char *description;
	const char *const *examples;
	const char *see_also;
	const char *words;
	int words_are_commands;
	int file_args;
	/* an option id that may be given again (a sweep's lists, --out,
	 * --in); NULL: none.  Any other option with a value, given a second
	 * time, is a usage error (cmd_getopt()) */
	bool (*repeatable)(int id);
};

extern const struct cmd_usage info_usage, list_usage, run_usage,
	sweep_usage, plot_usage, compare_usage, matrix_usage;

/* main.c's commands table */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv, const struct cmd_ctx *ctx);
	const char *help;
	const struct cmd_usage *usage;
};

extern const struct command commands[];
extern const size_t nr_commands;
extern const struct cmd_opt help_opt;

/* doc.c: hidden commands that print the man pages and the completion */
int doc_man(int argc, char **argv);
int doc_completion(int argc, char **argv);

#define OPT_HELP	'h'
#define OPT_BAD		'?'

int cmd_getopt(int argc, char **argv, const struct cmd_usage *u);
void cmd_print_usage(FILE *f, const struct cmd_usage *u);
int cmd_usage_error(const struct cmd_usage *u, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* _LATT_BUILTIN_H */
