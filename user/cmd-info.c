// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-info.c - lattester-ctl info: the host (CPU model, online CPUs, the
 * TSC and where its frequency comes from, the CPU's features and widths as
 * --engine user sees them, page sizes, NUMA nodes) and the module: what
 * GET_INFO reports, or why it can't be used.  The host part needs neither
 * the module nor root: without the module, info still exits 0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "dev.h"
#include "host.h"
#include "json-out.h"
#include "log.h"
#include "parse.h"
#include "report.h"
#include "run.h"
#include "engine-user.h"

#define INFO_SCHEMA	"lattester-info/1"
#define MAX_NODES	1024

/* OPT_JSON: run.h's */

static const struct cmd_opt info_options[] = {
	OPT_ROW("json", OPT_JSON, NULL, "print JSON on stdout"),
	OPT_END
};

static const char *const info_examples[] = {
	"sudo lattester-ctl info", "the module's ABI, TSC and features",
	"lattester-ctl info --json | jq .host.nodes",
	"the NUMA nodes, as JSON (no root needed)",
	NULL
};

const struct cmd_usage info_usage = {
	.cmd = "info",
	.synopsis = "[--json]",
	.about = "Show the host (CPU, TSC, features as --engine user sees them, page sizes, NUMA\n"
		 "nodes) and the module's ABI, state, TSC frequency, features and limits, or why it\n"
		 "can't be used.  Exit status 0 without the module (not loaded, or not root); 1 for\n"
		 "a module that answers but can't be used (ABI mismatch).",
	.opts = info_options,
	.description =
		"Prints the host: CPU model (/proc/cpuinfo), online CPUs, kernel release, the timer and the clocksource, the TSC's quantum (the spacing of its values: what one sample can tell apart) and the cost of one read, tsc_khz and its source (the kernel's tsc_freq_khz, or calibrated against CLOCK_MONOTONIC_RAW), the CPU features and access widths --engine user sees (CPUID, less LATTESTER_HWCAPS), the page sizes (4 KiB, transparent huge pages' mode, the hugetlb sizes and their pools) and every NUMA node with its CPUs, memory size and free memory.  None of it needs the module or root.  Then the module: if /dev/lattester opens, what it reports: its ABI version and whether its major matches the tool's, the run state, tsc_khz, the TSC's quantum and read cost as it found them when it loaded (ABI 2.6), the CPU features by name, the usable access widths, the limits (size, region, chain, outliers) and the default interrupt-off window; else why it can't be used (not loaded, no permission, not a lattester device).\n\n"
		"--json prints a lattester-info/1 document: schema, tool_version, tool_abi_version, host, module (null when the device can't be opened), module_status and module_error.\n\n"
		"Exit status: 0 when the host part was printed and the module is usable, not loaded or not accessible (not root); 1 when the device answers but can't be used (an ABI mismatch, not a lattester device) or stdout can't be written; 2 on a usage error.",
	.examples = info_examples,
	.see_also = "the module's parameters under /sys/module/lattester",
};

struct node_info {
	unsigned int node;
	long long size, free;
	char cpus[HOST_STR];
};

struct host_info {
	char model[HOST_STR];
	char online[HOST_STR];
	char kernel[HOST_STR];
	char hostname[HOST_STR];
	struct latt_info user;	/* what the user engine sees */
	bool tsc_kernel;	/* user.tsc_khz is the kernel's tsc_freq_khz */
	char thp[32];		/* always, madvise, never; "" if unknown */
	struct host_hugetlb hugetlb[HOST_MAX_HUGETLB];
	int nr_hugetlb;
	unsigned int nr_nodes;
	struct node_info nodes[MAX_NODES];
};

/* Whether the module can be used, and if not, why: module_status. */
enum module_status {
	MOD_OK,
	MOD_NOT_LOADED,
	MOD_NO_PERMISSION,
	MOD_ABI_MISMATCH,
	MOD_NOT_LATTESTER,
	MOD_ERROR,
};

static const char *const status_names[] = {
	[MOD_OK] = "ok",
	[MOD_NOT_LOADED] = "not-loaded",
	[MOD_NO_PERMISSION] = "no-permission",
	[MOD_ABI_MISMATCH] = "abi-mismatch",
	[MOD_NOT_LATTESTER] = "not-lattester",
	[MOD_ERROR] = "error",
};

/* @rc: latt_dev_open()'s */
static enum module_status module_status(int rc, const struct latt_info *in)
{
	switch (rc) {
	case 0:
		return latt_abi_compatible(in) ? MOD_OK : MOD_ABI_MISMATCH;
	case -ENOENT:
	case -ENXIO:
	case -ENODEV:
		return MOD_NOT_LOADED;
	case -EACCES:
	case -EPERM:
		return MOD_NO_PERMISSION;
	case -ENOTTY:
		return MOD_NOT_LATTESTER;
	default:
		return MOD_ERROR;
	}
}

/* Why the module can't be used, a sentence; "" for MOD_OK. */
static void fmt_module_error(char *buf, size_t len, enum module_status st,
			     int rc, const struct latt_info *in)
{
	switch (st) {
	case MOD_OK:
		snprintf(buf, len, "%s", "");
		break;
	case MOD_ABI_MISMATCH:
		snprintf(buf, len, "ABI mismatch: the module's is %u.%u with %u histogram buckets, lattester-ctl's %d.%d with %u: rebuild one of them", in->abi_version >> 16,
			 in->abi_version & 0xffff, in->hist_buckets,
			 LATT_ABI_MAJOR, LATT_ABI_MINOR, LATT_HIST_BUCKETS);
		break;
	case MOD_NOT_LOADED:
	case MOD_NO_PERMISSION:
		snprintf(buf, len, "%s; 'run --engine user' measures without it", latt_open_strerror(rc));
		break;
	default:
		snprintf(buf, len, "%s", latt_open_strerror(rc));
	}
}

static void collect_host(struct host_info *h)
{
	int max = host_max_node(), n;
	unsigned long long khz;
	struct node_info *ni;

	host_cpu_model(h->model, sizeof(h->model));
	host_cpus_online(h->online, sizeof(h->online));
	host_kernel(h->kernel, sizeof(h->kernel));
	host_name(h->hostname, sizeof(h->hostname));
	user_engine_info(&h->user);
	h->tsc_kernel = !host_tsc_khz(&khz) && khz == h->user.tsc_khz;
	host_thp_mode(h->thp, sizeof(h->thp));
	h->nr_hugetlb = host_hugetlb(h->hugetlb, HOST_MAX_HUGETLB);
	h->nr_nodes = 0;
	for (n = 0; n <= max && h->nr_nodes < MAX_NODES; n++) {
		if (!host_node_exists((unsigned int)n))
			continue;
		ni = &h->nodes[h->nr_nodes++];
		ni->node = (unsigned int)n;
		if (host_node_mem(ni->node, &ni->size, &ni->free))
			ni->size = ni->free = -1;
		host_node_cpus(ni->node, ni->cpus, sizeof(ni->cpus));
	}
}

/* The set bits of @mask: feature names, or for widths the byte counts. */
static void fmt_bits(char *buf, size_t len, __u64 mask, bool widths)
{
	size_t n = 0;
	char num[24];
	const char *label;
	int bit;

	buf[0] = '\0';
	for (bit = 0; bit < 64 && n < len; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		snprintf(num, sizeof(num), "%llu", 1ULL << bit);
		label = widths ? num : latt_name(NAMES_FEATURE, (__u32)bit);
		n += (size_t)snprintf(buf + n, len - n, n ? " %s" : "%s", label);
	}
}

/* "4 KiB; THP madvise; hugetlb 2 MiB (0 in the pool, 0 free), 1 GiB ..." */
static void fmt_pages(char *buf, size_t len, const struct host_info *h)
{
	char size[32];
	size_t n;
	int i;

	n = (size_t)snprintf(buf, len, "4 KiB; transparent huge pages %s",
			     h->thp[0] ? h->thp : "unknown");
	if (!h->nr_hugetlb && n < len)
		n += (size_t)snprintf(buf + n, len - n, "; no hugetlb sizes");
	for (i = 0; i < h->nr_hugetlb && n < len; i++) {
		fmt_bytes(size, sizeof(size), h->hugetlb[i].bytes);
		n += (size_t)snprintf(buf + n, len - n, "%s%s (%llu in the pool, %llu free)", i ? ", " :
				      "; hugetlb ", size, h->hugetlb[i].pages,
				      h->hugetlb[i].free);
	}
}

static void print_host(const struct host_info *h)
{
	const struct node_info *ni;
	char buf[512];
	unsigned int i;

	printf("host:\n  cpu model:   %s\n  cpus online: %s\n  kernel:      %s\n",
	       h->model, h->online, h->kernel);
	printf("  timer:       %s (--engine user), clocksource %s\n",
	       user_engine_timer(), user_clocksource()[0] ?
	       user_clocksource() : "unknown");
	fmt_quantum(buf, sizeof(buf), h->user.timer_quantum,
		    h->user.timer_read_cost, h->user.tsc_khz, "");
	printf("  tsc:         %s (lfence; rdtsc)\n", buf[0] ? buf :
	       "quantum not found: no two reads differed");
	printf("  tsc_khz:     %llu (%s)\n",
	       (unsigned long long)h->user.tsc_khz, h->tsc_kernel ?
	       "the kernel's, /sys/devices/system/cpu/cpu0/tsc_freq_khz" :
	       "calibrated for 100 ms against CLOCK_MONOTONIC_RAW: the kernel exports no tsc_freq_khz");
	fmt_bits(buf, sizeof(buf), h->user.features, false);
	printf("  features:    %s (--engine user)\n", buf);
	fmt_bits(buf, sizeof(buf), h->user.widths, true);
	printf("  widths:      %s bytes (--engine user)\n", buf);
	fmt_pages(buf, sizeof(buf), h);
	printf("  pages:       %s\n", buf);
	for (i = 0; i < h->nr_nodes; i++) {
		ni = &h->nodes[i];
		printf("  node %-6u  cpus %s, %lld MiB, %lld MiB free\n",
		       ni->node, ni->cpus[0] ? ni->cpus : "none",
		       ni->size >> 20, ni->free >> 20);
	}
}

/* What the module times with: its GET_INFO's features say. */
static const char *module_timer(const struct latt_info *in)
{
	bool rdtscp = in->features & LATT_FEAT_RDTSCP;

	if (in->features & LATT_FEAT_TIMER_RDTSC)
		return rdtscp ? "rdtscp" : "rdtsc";
	return rdtscp ? "rdtscp" : "none";
}

static void print_module(const struct latt_info *in)
{
	char buf[512], max_size[32], max_region[32];

	printf("module: %s\n  abi:         %u.%u (lattester-ctl: %d.%d, %s)\n",
	       latt_dev_path(), in->abi_version >> 16, in->abi_version & 0xffff,
	       LATT_ABI_MAJOR, LATT_ABI_MINOR,
	       latt_abi_compatible(in) ? "compatible" : "MISMATCH");
	printf("  state:       %s\n  tsc_khz:     %llu\n",
	       latt_name(NAMES_STATE, in->state),
	       (unsigned long long)in->tsc_khz);
	printf("  timer:       %s\n", module_timer(in));
	fmt_quantum(buf, sizeof(buf), in->timer_quantum, in->timer_read_cost,
		    in->tsc_khz, "");
	printf("  tsc:         %s\n", buf[0] ? buf :
	       "quantum unknown (a module before ABI 2.6)");
	fmt_bits(buf, sizeof(buf), in->features, false);
	printf("  features:    %s\n", buf);
	fmt_bits(buf, sizeof(buf), in->widths, true);
	printf("  widths:      %s bytes\n", buf);
	fmt_bytes(max_size, sizeof(max_size), in->max_size);
	fmt_bytes(max_region, sizeof(max_region), in->max_region);
	printf("  limits:      size %s, region %s, chain %u, outliers %u, nr_cpu_ids %u\n  window_us:   %u\n", max_size, max_region,
	       in->max_chain, in->max_outliers, in->nr_cpu_ids, in->window_us);
}

/* [names] of the set feature bits, or [bytes] of the widths */
static struct json_object *json_bits(__u64 mask, bool widths)
{
	struct json_object *a = json_object_new_array();
	int bit;

	for (bit = 0; bit < 64; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		json_object_array_add(a, widths ?
			json_object_new_int64(1LL << bit) :
			json_object_new_string(latt_name(NAMES_FEATURE,
							 (__u32)bit)));
	}
	return a;
}

static struct json_object *json_pages(const struct host_info *h)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	struct json_object *p;
	int i;

	latt_json_u64(o, "base", 4096);
	json_object_object_add(o, "thp", h->thp[0] ?
			       json_object_new_string(h->thp) : NULL);
	for (i = 0; i < h->nr_hugetlb; i++) {
		p = json_object_new_object();
		latt_json_u64(p, "bytes", h->hugetlb[i].bytes);
		latt_json_u64(p, "pages", h->hugetlb[i].pages);
		latt_json_u64(p, "free", h->hugetlb[i].free);
		json_object_array_add(a, p);
	}
	json_object_object_add(o, "hugetlb", a);
	return o;
}

static struct json_object *json_host(const struct host_info *h)
{
	struct json_object *o = json_object_new_object();
	struct json_object *nodes = json_object_new_array();
	struct json_object *n;
	unsigned int i;

	latt_json_str(o, "cpu_model", h->model);
	latt_json_str(o, "cpus_online", h->online);
	latt_json_str(o, "kernel", h->kernel);
	latt_json_str(o, "hostname", h->hostname);
	latt_json_str(o, "timer", user_engine_timer());
	json_object_object_add(o, "clocksource", user_clocksource()[0] ?
			       json_object_new_string(user_clocksource()) :
			       NULL);
	latt_json_u64(o, "tsc_khz", h->user.tsc_khz);
	latt_json_str(o, "tsc_khz_source", h->tsc_kernel ? "kernel" :
		      "calibrated");
	json_add_quantum(o, h->user.timer_quantum, h->user.tsc_khz);
	latt_json_u64(o, "read_cost_cycles", h->user.timer_read_cost);
	json_object_object_add(o, "features", json_bits(h->user.features,
							false));
	json_object_object_add(o, "widths", json_bits(h->user.widths, true));
	json_object_object_add(o, "pages", json_pages(h));
	for (i = 0; i < h->nr_nodes; i++) {
		n = json_object_new_object();
		latt_json_u64(n, "node", h->nodes[i].node);
		latt_json_str(n, "cpus", h->nodes[i].cpus);
		latt_json_int(n, "mem_total", h->nodes[i].size);
		latt_json_int(n, "mem_free", h->nodes[i].free);
		json_object_array_add(nodes, n);
	}
	json_object_object_add(o, "nodes", nodes);
	return o;
}

static struct json_object *json_module(const struct latt_info *in)
{
	struct json_object *o = json_object_new_object();
	struct json_object *feat = json_object_new_array();
	struct json_object *widths = json_object_new_array();
	int bit;

	latt_json_u64(o, "abi_version", in->abi_version);
	latt_json_bool(o, "abi_compatible", latt_abi_compatible(in));
	latt_json_str(o, "state", latt_name(NAMES_STATE, in->state));
	latt_json_u64(o, "tsc_khz", in->tsc_khz);
	latt_json_str(o, "timer", module_timer(in));
	json_add_quantum(o, in->timer_quantum, in->tsc_khz);
	latt_json_u64(o, "read_cost_cycles", in->timer_read_cost);
	for (bit = 0; bit < 64; bit++)
		if (in->features & (1ULL << bit))
			json_object_array_add(feat, json_object_new_string(
				latt_name(NAMES_FEATURE, (__u32)bit)));
	json_object_object_add(o, "features", feat);
	for (bit = 0; bit < 32; bit++)
		if (in->widths & (1U << bit))
			json_object_array_add(widths,
					      json_object_new_int(1 << bit));
	json_object_object_add(o, "widths", widths);
	latt_json_u64(o, "max_size", in->max_size);
	latt_json_u64(o, "max_region", in->max_region);
	latt_json_u64(o, "max_chain", in->max_chain);
	latt_json_u64(o, "max_outliers", in->max_outliers);
	latt_json_u64(o, "nr_cpu_ids", in->nr_cpu_ids);
	latt_json_u64(o, "window_us", in->window_us);
	return o;
}

static int print_json(const struct host_info *h, const struct latt_info *in,
		      int open_rc, enum module_status st, const char *why)
{
	struct json_object *o = json_object_new_object();
	int rc;

	latt_json_str(o, "schema", INFO_SCHEMA);
	latt_json_str(o, "tool_version", LATT_TOOL_VERSION);
	latt_json_u64(o, "tool_abi_version", LATT_ABI_VERSION);
	json_object_object_add(o, "host", json_host(h));
	json_object_object_add(o, "module", open_rc ? NULL : json_module(in));
	latt_json_str(o, "module_status", status_names[st]);
	if (st != MOD_OK)
		latt_json_str(o, "module_error", why);
	rc = json_emit("-", o);
	json_object_put(o);
	return rc;
}

int cmd_info(int argc, char **argv, const struct cmd_ctx *ctx)
{
	struct host_info *h;
	struct latt_dev dev;
	enum module_status st;
	char why[512];
	bool json = false;
	int id, rc;

	(void)ctx;
	optind = 0;
	while ((id = cmd_getopt(argc, argv, &info_usage)) != -1) {
		if (id == OPT_BAD)
			return EXIT_USAGE;
		if (id == OPT_HELP) {
			cmd_print_usage(stdout, &info_usage);
			return 0;
		}
		json = true;
	}
	h = malloc(sizeof(*h));
	if (!h) {
		log_err("out of memory");
		return 1;
	}
	collect_host(h);
	rc = latt_dev_open(&dev);
	st = module_status(rc, &dev.info);
	fmt_module_error(why, sizeof(why), st, rc, &dev.info);
	if (json) {
		print_json(h, &dev.info, rc, st, why);
	} else {
		print_host(h);
		if (!rc)
			print_module(&dev.info);
		else
			printf("module: %s\n", latt_dev_path());
		printf("  status:      %s\n", st == MOD_OK ? "usable" : why);
	}
	free(h);
	if (!rc)
		latt_dev_close(&dev);
	/* no module here is a state of the machine, not an error of info;
	 * a device that answers but can't be used is */
	if (st == MOD_OK || st == MOD_NOT_LOADED || st == MOD_NO_PERMISSION)
		return 0;
	log_err("%s: %s", latt_dev_path(), why);
	return 1;
}
