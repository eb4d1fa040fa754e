/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msr.h - MSR_SMI_COUNT (0x34, Intel) of one CPU, read through the msr
 * driver's /dev/cpu/N/msr before and after a run: the module doesn't read
 * it, and SMIs are invisible to the kernel otherwise.
 */
#ifndef _LATT_MSR_H
#define _LATT_MSR_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#define MSR_SMI_COUNT		0x34

/**
 * struct smi_count - SMIs on @cpu over a run
 * @ok: both reads worked; else @why says why it is unavailable
 */
struct smi_count {
	bool ok;
	unsigned int cpu;
	__u64 before, after;
	char why[160];
};

int msr_read(unsigned int cpu, __u32 msr, __u64 *val);
int msr_smi_count(unsigned int cpu, __u64 *val, char *why, size_t len);
void smi_begin(struct smi_count *s, unsigned int cpu);
void smi_end(struct smi_count *s);

#endif /* _LATT_MSR_H */
