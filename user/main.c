// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - lattester-ctl: the commands table and its dispatch (exact names,
 * no prefix guessing), the shared option parser, and perf's check that
 * stdout reached its file.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <uapi/lattester.h>
#include "builtin.h"
#include "log.h"
#include "parse.h"

static int cmd_help(int argc, char **argv, const struct cmd_ctx *ctx);
static int cmd_version(int argc, char **argv, const struct cmd_ctx *ctx);

static const struct cmd_opt no_options[] = {
	OPT_END
};

static const char *const help_examples[] = {
	"lattester-ctl help run", "the same as lattester-ctl run --help",
	NULL
};

static const struct cmd_usage help_usage = {
	.cmd = "help",
	.synopsis = "[COMMAND]",
	.about = "Show the help of COMMAND, as 'lattester-ctl COMMAND --help' does, or without COMMAND\nthe list of commands.",
	.opts = no_options,
	.examples = help_examples,
	.words_are_commands = 1,
};

static const struct cmd_usage version_usage = {
	.cmd = "version",
	.synopsis = "",
	.about = "Show the tool's version and the ABI version of the module interface it was built\nfor, as 'lattester-ctl --version' does.",
	.opts = no_options,
};

const struct command commands[] = {
	{ "info",	cmd_info,	"show the module, the CPU and the NUMA nodes", &info_usage },
	{ "list",	cmd_list,	"list NUMA nodes, pmem namespaces and device-DAX devices", &list_usage },
	{ "run",	cmd_run,	"measure the latency of single memory accesses", &run_usage },
	{ "sweep",	cmd_sweep,	"run a grid of measurements into CSV / JSON lines", &sweep_usage },
	{ "plot",	cmd_plot,	"draw a histogram, tail, outlier or sweep plot (gnuplot)", &plot_usage },
	{ "compare",	cmd_compare,	"show results side by side, with ratios to a baseline", &compare_usage },
	{ "matrix",	cmd_matrix,	"measure every (CPU node, memory node) pair, as MLC's latency matrix", &matrix_usage },
	{ "help",	cmd_help,	"show a command's help: help CMD", &help_usage },
	{ "version",	cmd_version,	"show the tool's version and ABI", &version_usage },
};

#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))
#define MAX_OPTS	64	/* a command's options, at most */

const size_t nr_commands = NR_COMMANDS;

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void main_usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: %s [--version] [--help] COMMAND [ARGS]\n\n"
		"commands:\n", LATT_PROG);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "   %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nSee '%s help COMMAND' or '%s COMMAND --help'.\n"
		"Environment: LATTESTER_LOG=err|warn|info|debug, LATTESTER_DEV=PATH (default /dev/%s).\n",
		LATT_PROG, LATT_PROG, LATT_DEVICE_NAME);
}

static int cmd_version(int argc, char **argv, const struct cmd_ctx *ctx)
{
	int id;

	(void)ctx;
	while ((id = cmd_getopt(argc, argv, &version_usage)) != -1) {
		if (id == OPT_HELP) {
			cmd_print_usage(stdout, &version_usage);
			return 0;
		}
		return EXIT_USAGE;
	}
	printf("%s %s (ABI %d.%d)\n", LATT_PROG, LATT_TOOL_VERSION,
	       LATT_ABI_MAJOR, LATT_ABI_MINOR);
	return 0;
}

static int cmd_help(int argc, char **argv, const struct cmd_ctx *ctx)
{
	const struct command *c;
	char help[] = "--help";
	char *args[] = { NULL, help, NULL };

	if (argc < 2) {
		main_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cmd_print_usage(stdout, &help_usage);
		return 0;
	}
	if (argv[1][0] == '-')
		return cmd_usage_error(&help_usage, "unknown option '%s'",
				       argv[1]);
	if (argc > 2)
		return cmd_usage_error(&help_usage, "unexpected argument '%s'",
				       argv[2]);
	c = find_command(argv[1]);
	if (!c || c->fn == cmd_help) {
		log_err("'%s' is not a command; see '%s --help'", argv[1],
			LATT_PROG);
		return EXIT_USAGE;
	}
	args[0] = argv[1];
	log_set_cmd(c->name);
	return c->fn(2, args, ctx);
}

/*
 * perf's run_builtin(): a full disk or an I/O error on stdout must not exit
 * 0.  Pipes and sockets are left alone (a closed pipe is the reader's
 * choice).
 */
static int finish_stdout(int status)
{
	struct stat st;

	if (fstat(fileno(stdout), &st))
		return status;
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		return status;
	log_set_cmd(NULL);
	if (fflush(stdout)) {
		log_err("write failure on standard output: %s", strerror(errno));
		return status ? status : 1;
	}
	if (ferror(stdout)) {
		log_err("unknown write failure on standard output");
		return status ? status : 1;
	}
	if (fclose(stdout)) {
		log_err("close failed on standard output: %s", strerror(errno));
		return status ? status : 1;
	}
	return status;
}

static int dispatch(int argc, char **argv)
{
	const struct cmd_ctx ctx = { argc, argv };
	const struct command *c;

	if (argc < 2) {
		main_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(1, argv + 1, &ctx);
	if (!strcmp(argv[1], "--version"))
		return cmd_version(1, argv + 1, &ctx);
	/* hidden: what the build turns into man pages and the completion */
	if (!strcmp(argv[1], "__man"))
		return doc_man(argc - 1, argv + 1);
	if (!strcmp(argv[1], "__completion"))
		return doc_completion(argc - 1, argv + 1);
	c = find_command(argv[1]);
	if (!c) {
		log_err("'%s' is not a command; see '%s --help'", argv[1],
			LATT_PROG);
		return EXIT_USAGE;
	}
	log_set_cmd(c->name);
	return c->fn(argc - 1, argv + 1, &ctx);
}

int main(int argc, char **argv)
{
	log_init();
	return finish_stdout(dispatch(argc, argv));
}

/* ---- the option parser shared by the commands ---- */

const struct cmd_opt help_opt =
	OPT_ROW("help", OPT_HELP, NULL, "show this help");

static void print_opt(FILE *f, const struct cmd_opt *o)
{
	char left[64];

	snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "",
		 o->arg ? o->arg : "");
	fprintf(f, "  %-26s %s\n", left, o->help);
	if (o->names >= 0)
		fprintf(f, "  %-26s one of: %s\n", "", latt_name_list(o->names));
}

void cmd_print_usage(FILE *f, const struct cmd_usage *u)
{
	const struct cmd_opt *o;

	fprintf(f, "usage: %s %s%s%s\n\n%s\n\noptions:\n", LATT_PROG, u->cmd,
		u->synopsis[0] ? " " : "", u->synopsis, u->about);
	for (o = u->opts; o->name; o++)
		print_opt(f, o);
	print_opt(f, &help_opt);
}

int cmd_usage_error(const struct cmd_usage *u, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_err("%s", msg);
	fprintf(stderr, "Try '%s %s --help'.\n", LATT_PROG, u->cmd);
	return EXIT_USAGE;
}

/*
 * The options of one command line seen so far, with their values: a
 * value option may not come twice (a second value silently won before),
 * unless @u->repeatable says it may.  A parse starts where the command
 * sets optind to 0.
 */
static struct {
	int id;
	const char *value;
} seen[MAX_OPTS + 1];
static int nseen;

/* @id's value given before in this command line, or NULL */
static const char *seen_before(int id, const char *value)
{
	int i;

	for (i = 0; i < nseen; i++)
		if (seen[i].id == id)
			return seen[i].value;
	if (nseen < MAX_OPTS + 1) {
		seen[nseen].id = id;
		seen[nseen++].value = value;
	}
	return NULL;
}

/* @u's row of option @id, or NULL */
static const struct cmd_opt *opt_row(const struct cmd_usage *u, int id)
{
	const struct cmd_opt *o;

	for (o = u->opts; o->name; o++)
		if (o->id == id)
			return o;
	return NULL;
}

/**
 * cmd_getopt() - the next option of @u in @argv, as getopt_long()
 *
 * Returns the option's id with optarg set, -1 at the end, or OPT_BAD after
 * printing why (unknown option, missing value, stray argument, a value
 * option given twice that @u->repeatable doesn't allow).  With
 * @u->file_args, the arguments that aren't options are the command's, from
 * argv[optind] on at the end.
 */
int cmd_getopt(int argc, char **argv, const struct cmd_usage *u)
{
	struct option lo[MAX_OPTS + 2] = { { 0 } };
	const struct cmd_opt *o;
	const char *before;
	int i, id;

	if (optind == 0)	/* a new command line */
		nseen = 0;

	for (i = 0, o = u->opts; i < MAX_OPTS && o->name; i++, o++)
		lo[i] = (struct option){ o->name,
			o->arg ? required_argument : no_argument, NULL, o->id };
	if (o->name) {
		/* a table outgrew MAX_OPTS: say so, never drop options */
		log_err("internal error: %s has more than %d options",
			u->cmd, MAX_OPTS);
		return OPT_BAD;
	}
	lo[i] = (struct option){ help_opt.name, no_argument, NULL, OPT_HELP };

	opterr = 0;
	id = getopt_long(argc, argv, ":h", lo, NULL);
	if (id == ':') {
		cmd_usage_error(u, "option '%s' needs a value", argv[optind - 1]);
		return OPT_BAD;
	}
	if (id == '?') {
		cmd_usage_error(u, "unknown option '%s'", argv[optind - 1]);
		return OPT_BAD;
	}
	if (id == -1 && optind < argc && !u->file_args) {
		cmd_usage_error(u, "unexpected argument '%s'", argv[optind]);
		return OPT_BAD;
	}
	o = id >= 0 ? opt_row(u, id) : NULL;
	if (o && o->arg && !(u->repeatable && u->repeatable(id)) &&
	    (before = seen_before(id, optarg))) {
		cmd_usage_error(u, "--%s given twice ('%s', then '%s'): it takes one value",
				o->name, before, optarg);
		return OPT_BAD;
	}
	return id;
}
