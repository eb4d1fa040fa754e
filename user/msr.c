// SPDX-License-Identifier: GPL-2.0
/*
 * msr.c - see msr.h.  Only Intel CPUs have MSR_SMI_COUNT; elsewhere (and
 * without the msr driver, or without CAP_SYS_RAWIO) the count is reported
 * unavailable with the reason, never guessed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "msr.h"

static bool cpu_is_intel(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[256];
	bool intel = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "vendor_id", 9)) {
			intel = strstr(line, "GenuineIntel") != NULL;
			break;
		}
	}
	fclose(f);
	return intel;
}

/**
 * msr_read() - read MSR @msr of @cpu into @val (/dev/cpu/N/msr: the msr
 * driver and CAP_SYS_RAWIO)
 *
 * Returns 0, or a negative errno (-EIO: the CPU has no such MSR).
 */
int msr_read(unsigned int cpu, __u32 msr, __u64 *val)
{
	char path[64];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "/dev/cpu/%u/msr", cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, val, sizeof(*val), msr);
	err = n < 0 ? errno : EIO;
	close(fd);
	return n == (ssize_t)sizeof(*val) ? 0 : -err;
}

/**
 * msr_smi_count() - read MSR_SMI_COUNT of @cpu into @val
 *
 * Returns 0, or a negative errno with the reason in @why.
 */
int msr_smi_count(unsigned int cpu, __u64 *val, char *why, size_t len)
{
	char path[64];
	int err;

	if (!cpu_is_intel()) {
		snprintf(why, len, "not an Intel CPU: no MSR_SMI_COUNT");
		return -ENODEV;
	}
	err = -msr_read(cpu, MSR_SMI_COUNT, val);
	if (!err)
		return 0;
	snprintf(path, sizeof(path), "/dev/cpu/%u/msr", cpu);
	if (err == ENOENT || err == ENXIO)
		snprintf(why, len, "%s missing (modprobe msr)", path);
	else if (err == EACCES || err == EPERM)
		snprintf(why, len, "%s: %s (needs root with CAP_SYS_RAWIO)", path, strerror(err));
	else if (err == EIO)
		snprintf(why, len, "MSR 0x%x (MSR_SMI_COUNT) not readable on this CPU", MSR_SMI_COUNT);
	else
		snprintf(why, len, "%s: %s", path, strerror(err));
	return -err;
}

void smi_begin(struct smi_count *s, unsigned int cpu)
{
	memset(s, 0, sizeof(*s));
	s->cpu = cpu;
	s->ok = !msr_smi_count(cpu, &s->before, s->why, sizeof(s->why));
}

void smi_end(struct smi_count *s)
{
	if (s->ok)
		s->ok = !msr_smi_count(s->cpu, &s->after, s->why,
				       sizeof(s->why));
}
