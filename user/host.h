/* SPDX-License-Identifier: GPL-2.0 */
/*
 * host.h - what lattester-ctl reports and checks about the machine: CPU
 * model, online CPUs, NUMA nodes (libnuma), kernel release, host name, the
 * kernel's TSC frequency, transparent and hugetlb huge pages.
 */
#ifndef _LATT_HOST_H
#define _LATT_HOST_H

#include <stdbool.h>
#include <stddef.h>

#define HOST_STR	256

void host_cpu_model(char *buf, size_t len);
void host_cpus_online(char *buf, size_t len);
bool host_cpu_online(unsigned int cpu);
bool host_cpu_allowed(unsigned int cpu);
unsigned int host_first_cpu(void);
int host_max_node(void);
bool host_node_exists(unsigned int node);
int host_node_of_cpu(unsigned int cpu);
int host_node_mem(unsigned int node, long long *size, long long *free);
void host_node_cpus(unsigned int node, char *buf, size_t len);
int host_node_distance(unsigned int from, unsigned int to);
void host_kernel(char *buf, size_t len);
void host_name(char *buf, size_t len);

int host_tsc_khz(unsigned long long *khz);
void host_thp_mode(char *buf, size_t len);

/* A hugetlb page size and its pool (/sys/kernel/mm/hugepages). */
struct host_hugetlb {
	unsigned long long bytes;
	unsigned long long pages;	/* nr_hugepages: the pool */
	unsigned long long free;	/* free_hugepages */
};

#define HOST_MAX_HUGETLB	8

int host_hugetlb(struct host_hugetlb *h, int max);

#endif /* _LATT_HOST_H */
