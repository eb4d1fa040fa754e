// SPDX-License-Identifier: GPL-2.0
/*
 * host.c - see host.h.  Without NUMA support in the kernel, the machine is
 * one node 0 holding every CPU and all memory.
 */
#include <dirent.h>
#include <errno.h>
#include <numa.h>
#include <sched.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "host.h"
#include "parse.h"

#define CPU_ONLINE_PATH	"/sys/devices/system/cpu/online"
#define TSC_KHZ_PATH	"/sys/devices/system/cpu/cpu0/tsc_freq_khz"
#define THP_PATH	"/sys/kernel/mm/transparent_hugepage/enabled"
#define HUGETLB_DIR	"/sys/kernel/mm/hugepages"

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

/**
 * host_cpu_allowed() - may this process run on @cpu (its affinity mask:
 *	taskset, a cgroup's cpuset)?  Where the mask can't be read, yes.
 */
bool host_cpu_allowed(unsigned int cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return true;
	return cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set);
}

/**
 * host_first_cpu() - the first online CPU this process may run on: the
 *	default --cpu, so that "taskset -c 1 lattester-ctl run" measures
 *	from CPU 1.  0 where nothing better is known.
 */
unsigned int host_first_cpu(void)
{
	unsigned int cpu;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set) && host_cpu_online(cpu))
			return cpu;
	return 0;
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

/**
 * host_tsc_khz() - the kernel's TSC frequency: tsc_freq_khz in sysfs, where
 * the kernel exports it (many don't)
 *
 * Returns 0 with *@khz set, or a negative errno (-ENOENT: the kernel says
 * nothing; the user engine then calibrates).
 */
int host_tsc_khz(unsigned long long *khz)
{
	FILE *f = fopen(TSC_KHZ_PATH, "re");
	unsigned long long v;
	int rc = -EINVAL;

	if (!f)
		return -errno;
	if (fscanf(f, "%llu", &v) == 1 && v) {
		*khz = v;
		rc = 0;
	}
	fclose(f);
	return rc;
}

/**
 * host_thp_mode() - transparent huge pages: "always", "madvise" or "never"
 * (the bracketed word of sysfs' enabled), "" if unknown
 */
void host_thp_mode(char *buf, size_t len)
{
	char line[128], *lb, *rb;

	read_line(THP_PATH, line, sizeof(line));
	lb = strchr(line, '[');
	rb = lb ? strchr(lb, ']') : NULL;
	if (!rb) {
		snprintf(buf, len, "%s", "");
		return;
	}
	snprintf(buf, len, "%.*s", (int)(rb - lb - 1), lb + 1);
}

static unsigned long long read_ull(const char *path)
{
	char line[64];

	read_line(path, line, sizeof(line));
	return strtoull(line, NULL, 10);
}

static int cmp_hugetlb(const void *a, const void *b)
{
	const struct host_hugetlb *x = a, *y = b;

	return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

/**
 * host_hugetlb() - the hugetlb page sizes (hugepages-NkB), smallest first,
 * with their pools; the number found (at most @max), 0 if none
 */
int host_hugetlb(struct host_hugetlb *h, int max)
{
	DIR *d = opendir(HUGETLB_DIR);
	struct dirent *e;
	char path[512];
	unsigned long long kb;
	int n = 0;

	if (!d)
		return 0;
	while (n < max && (e = readdir(d))) {
		if (sscanf(e->d_name, "hugepages-%llukB", &kb) != 1)
			continue;
		h[n].bytes = kb << 10;
		snprintf(path, sizeof(path), HUGETLB_DIR "/%s/nr_hugepages",
			 e->d_name);
		h[n].pages = read_ull(path);
		snprintf(path, sizeof(path), HUGETLB_DIR "/%s/free_hugepages",
			 e->d_name);
		h[n].free = read_ull(path);
		n++;
	}
	closedir(d);
	qsort(h, (size_t)n, sizeof(*h), cmp_hugetlb);
	return n;
}
