// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-info.c - lattester-ctl info: the host (CPU model, online CPUs, NUMA
 * nodes) and, when the module is loaded, what GET_INFO reports.
 */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "host.h"
#include "json-out.h"
#include "lib.h"
#include "log.h"
#include "parse.h"
#include "run.h"
#include "engine-user.h"

#define INFO_SCHEMA	"lattester-info/1"
#define MAX_NODES	1024

/* OPT_JSON: run.h's */

static const struct cmd_opt info_options[] = {
	{ "json", OPT_JSON, NULL, "print JSON on stdout", -1 },
	{ NULL, 0, NULL, NULL, -1 }
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
	.about = "Show the module's ABI, state, TSC frequency, features and "
		 "limits, and the host's CPU\n"
		 "and NUMA nodes.  Exit status 1 if the module can't be "
		 "opened (the host part is\nstill shown).",
	.opts = info_options,
	.description =
		"Prints the host: CPU model (/proc/cpuinfo), online CPUs, "
		"kernel release, and every NUMA node with its CPUs, memory size "
		"and free memory.  Then, if /dev/lattester opens, what the "
		"module reports: its ABI version and whether its major matches "
		"the tool's, the run state, tsc_khz, the CPU features by name, "
		"the usable access widths, the limits (size, region, chain, "
		"outliers) and the default interrupt-off window.\n\n"
		"--json prints a lattester-info/1 document: schema, "
		"tool_version, tool_abi_version, host and module (or module "
		"null and module_error when the device can't be opened).",
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
	unsigned int nr_nodes;
	struct node_info nodes[MAX_NODES];
};

static void collect_host(struct host_info *h)
{
	int max = host_max_node(), n;
	struct node_info *ni;

	host_cpu_model(h->model, sizeof(h->model));
	host_cpus_online(h->online, sizeof(h->online));
	host_kernel(h->kernel, sizeof(h->kernel));
	host_name(h->hostname, sizeof(h->hostname));
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

static void print_host(const struct host_info *h)
{
	const struct node_info *ni;
	unsigned int i;

	printf("host:\n  cpu model:   %s\n  cpus online: %s\n  kernel:      %s\n",
	       h->model, h->online, h->kernel);
	printf("  timer:       %s (--engine user), clocksource %s\n",
	       user_engine_timer(), user_clocksource()[0] ?
	       user_clocksource() : "unknown");
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
	fmt_bits(buf, sizeof(buf), in->features, false);
	printf("  features:    %s\n", buf);
	fmt_bits(buf, sizeof(buf), in->widths, true);
	printf("  widths:      %s bytes\n", buf);
	fmt_bytes(max_size, sizeof(max_size), in->max_size);
	fmt_bytes(max_region, sizeof(max_region), in->max_region);
	printf("  limits:      size %s, region %s, chain %u, outliers %u, "
	       "nr_cpu_ids %u\n  window_us:   %u\n", max_size, max_region,
	       in->max_chain, in->max_outliers, in->nr_cpu_ids, in->window_us);
}

static struct json_object *json_host(const struct host_info *h)
{
	struct json_object *o = json_object_new_object();
	struct json_object *nodes = json_object_new_array();
	struct json_object *n;
	unsigned int i;

	json_add_str(o, "cpu_model", h->model);
	json_add_str(o, "cpus_online", h->online);
	json_add_str(o, "kernel", h->kernel);
	json_add_str(o, "hostname", h->hostname);
	json_add_str(o, "timer", user_engine_timer());
	json_object_object_add(o, "clocksource", user_clocksource()[0] ?
			       json_object_new_string(user_clocksource()) :
			       NULL);
	for (i = 0; i < h->nr_nodes; i++) {
		n = json_object_new_object();
		json_add_u64(n, "node", h->nodes[i].node);
		json_add_str(n, "cpus", h->nodes[i].cpus);
		json_add_int(n, "mem_total", h->nodes[i].size);
		json_add_int(n, "mem_free", h->nodes[i].free);
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

	json_add_u64(o, "abi_version", in->abi_version);
	json_add_bool(o, "abi_compatible", latt_abi_compatible(in));
	json_add_str(o, "state", latt_name(NAMES_STATE, in->state));
	json_add_u64(o, "tsc_khz", in->tsc_khz);
	json_add_str(o, "timer", module_timer(in));
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
	json_add_u64(o, "max_size", in->max_size);
	json_add_u64(o, "max_region", in->max_region);
	json_add_u64(o, "max_chain", in->max_chain);
	json_add_u64(o, "max_outliers", in->max_outliers);
	json_add_u64(o, "nr_cpu_ids", in->nr_cpu_ids);
	json_add_u64(o, "window_us", in->window_us);
	return o;
}

static int print_json(const struct host_info *h, const struct latt_info *in,
		      int open_rc)
{
	struct json_object *o = json_object_new_object();
	int rc;

	json_add_str(o, "schema", INFO_SCHEMA);
	json_add_str(o, "tool_version", LATT_TOOL_VERSION);
	json_add_u64(o, "tool_abi_version", LATT_ABI_VERSION);
	json_object_object_add(o, "host", json_host(h));
	json_object_object_add(o, "module", open_rc ? NULL : json_module(in));
	if (open_rc)
		json_add_str(o, "module_error", latt_open_strerror(open_rc));
	rc = json_emit("-", o);
	json_object_put(o);
	return rc;
}

int cmd_info(int argc, char **argv, const struct cmd_ctx *ctx)
{
	struct host_info *h;
	struct latt_dev dev;
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
	if (json) {
		print_json(h, &dev.info, rc);
	} else {
		print_host(h);
		if (!rc)
			print_module(&dev.info);
	}
	free(h);
	if (rc) {
		log_err("%s: %s", latt_dev_path(), latt_open_strerror(rc));
		return 1;
	}
	latt_dev_close(&dev);
	return latt_abi_compatible(&dev.info) ? 0 : 1;
}
