// SPDX-License-Identifier: GPL-2.0
/*
 * host.c - see host.h.  Without NUMA support in the kernel, the machine is
 * one node 0 holding every CPU and all memory.
 */
#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "host.h"
#include "parse.h"

#define CPU_ONLINE_PATH	"/sys/devices/system/cpu/online"

static bool numa_ok(void)
{
	static int avail = -2;

	if (avail == -2)
		avail = numa_available();
	return avail >= 0;
}

/* The first line of @path without its newline; "" if unreadable. */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/** host_cpu_model() - "model name" of /proc/cpuinfo, or "unknown" */
void host_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512], *colon;

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10))
			continue;
		colon = strchr(line, ':');
		if (!colon)
			continue;
		colon += strspn(colon + 1, " \t") + 1;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

void host_cpus_online(char *buf, size_t len)
{
	read_line(CPU_ONLINE_PATH, buf, len);
}

bool host_cpu_online(unsigned int cpu)
{
	char list[4096];

	host_cpus_online(list, sizeof(list));
	if (!list[0])	/* no sysfs: trust sysconf */
		return cpu < (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	return cpulist_has(list, cpu);
}

int host_max_node(void)
{
	return numa_ok() ? numa_max_node() : 0;
}

bool host_node_exists(unsigned int node)
{
	if (!numa_ok())
		return node == 0;
	return (int)node <= numa_max_node() &&
	       numa_bitmask_isbitset(numa_nodes_ptr, node);
}

int host_node_of_cpu(unsigned int cpu)
{
	return numa_ok() ? numa_node_of_cpu((int)cpu) : 0;
}

/** host_node_mem() - total and free bytes of @node; -ENODEV if unknown */
int host_node_mem(unsigned int node, long long *size, long long *free)
{
	struct sysinfo si;

	if (!host_node_exists(node))
		return -ENODEV;
	if (numa_ok()) {
		*size = numa_node_size64((int)node, free);
		return *size < 0 ? -ENODEV : 0;
	}
	if (sysinfo(&si))
		return -errno;
	*size = (long long)si.totalram * si.mem_unit;
	*free = (long long)si.freeram * si.mem_unit;
	return 0;
}

/* Append "a" or "a-b" to the list in @buf. */
static void add_range(char *buf, size_t len, int lo, int hi)
{
	size_t n = strlen(buf);

	if (lo < 0 || n >= len)
		return;
	snprintf(buf + n, len - n, lo == hi ? "%s%d" : "%s%d-%d",
		 n ? "," : "", lo, hi);
}

/** host_node_cpus() - the CPUs of @node as a list "0-3,8" ("" if none) */
void host_node_cpus(unsigned int node, char *buf, size_t len)
{
	struct bitmask *cpus;
	int cpu, lo = -1;
	unsigned int n;

	buf[0] = '\0';
	if (!numa_ok()) {
		host_cpus_online(buf, len);
		return;
	}
	cpus = numa_allocate_cpumask();
	if (!cpus)
		return;
	n = numa_bitmask_nbytes(cpus) * 8;
	if (!numa_node_to_cpus((int)node, cpus)) {
		for (cpu = 0; cpu <= (int)n; cpu++) {
			bool set = cpu < (int)n &&
				   numa_bitmask_isbitset(cpus, (unsigned int)cpu);

			if (set && lo < 0)
				lo = cpu;
			if (!set && lo >= 0) {
				add_range(buf, len, lo, cpu - 1);
				lo = -1;
			}
		}
	}
	numa_free_cpumask(cpus);
}

/** host_node_distance() - the SLIT distance, 10 for local; -1 if unknown */
int host_node_distance(unsigned int from, unsigned int to)
{
	int d;

	if (!numa_ok())
		return from == to ? 10 : -1;
	d = numa_distance((int)from, (int)to);
	return d > 0 ? d : -1;
}

void host_kernel(char *buf, size_t len)
{
	struct utsname u;

	snprintf(buf, len, "%s", uname(&u) ? "unknown" : u.release);
}

void host_name(char *buf, size_t len)
{
	struct utsname u;

	snprintf(buf, len, "%s", uname(&u) ? "unknown" : u.nodename);
}
