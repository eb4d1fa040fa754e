/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmtest.h - helpers shared by the C programs of the VM tests (ioctl-neg,
 * ioctl-fuzz, threads, reuse, ...): the device, an ioctl that returns
 * -errno, the base configuration they start from, where a namespace
 * lives, and a device-DAX device's sysfs values.  Header-only.
 */
#ifndef _LATTESTER_VMTEST_H
#define _LATTESTER_VMTEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/types.h>
#include <uapi/lattester.h>

#define LATT_DEV_PATH	"/dev/lattester"

/* vm_dax_attr() - a sysfs value of the dax device behind @fd, 0 if none */
static inline __u64 vm_dax_attr(int fd, const char *name)
{
	unsigned long long v = 0;
	char path[128];
	struct stat st;
	FILE *f;

	if (fstat(fd, &st))
		return 0;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/%s",
		 major(st.st_rdev), minor(st.st_rdev), name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%lli", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* xioctl() - 0 or -errno of the ioctl */
static inline int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

/* open_dev() - /dev/lattester read-write, or bail out of the whole test */
static inline int open_dev(void)
{
	int fd = open(LATT_DEV_PATH, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		printf("Bail out! open %s: %s\n", LATT_DEV_PATH,
		       strerror(errno));
		exit(1);
	}
	return fd;
}

/*
 * vm_base_config() - a small valid run to start from: 1000 random 64-byte
 * loads in 16 MiB of DRAM on the CPU's node (CPU 0), one thread, latency
 * mode, seed 1, everything else zero
 */
static inline struct latt_config vm_base_config(void)
{
	struct latt_config c;

	memset(&c, 0, sizeof(c));
	c.op = LATT_OP_LOAD;
	c.pattern = LATT_PAT_RAND;
	c.target = LATT_TARGET_DRAM;
	c.node = LATT_NODE_LOCAL;
	c.size = 64;
	c.region = 16 << 20;
	c.samples = 1000;
	c.seed = 1;
	return c;
}

/*
 * vm_wait_done() - poll STATUS every 10 ms, at most @polls times, until
 * the run is no longer running: its state, or -1 (STATUS failed, or it
 * still runs)
 */
static inline int vm_wait_done(int fd, int polls)
{
	struct latt_status st;
	int i;

	for (i = 0; i < polls; i++) {
		if (xioctl(fd, LATT_IOC_STATUS, &st))
			return -1;
		if (st.state != LATT_STATE_RUNNING)
			return (int)st.state;
		usleep(10000);
	}
	return -1;
}

/* vm_set_cpu_online() - take @cpu offline (@on 0) or back: 0 or -errno */
static inline int vm_set_cpu_online(int cpu, int on)
{
	char path[96];
	int fd, ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -errno;
}

/* ns_range() - first byte and size of namespace @ns, from sysfs; 0 or -1 */
static inline int ns_range(const char *ns, __u64 *start, __u64 *size)
{
	const char *attr[2] = { "resource", "size" };
	unsigned long long v[2] = { 0, 0 };
	char path[128];
	FILE *f;
	int i;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/sys/bus/nd/devices/%s/%s", ns,
			 attr[i]);
		f = fopen(path, "r");
		if (!f)
			return -1;
		if (fscanf(f, "%lli", &v[i]) != 1)
			v[i] = 0;
		fclose(f);
	}
	*start = v[0];
	*size = v[1];
	return v[1] ? 0 : -1;
}

/*
 * cpuinfo_has() - does the first CPU's "flags" line in /proc/cpuinfo name
 * @flag?  1 yes, 0 no, -1 no such line (or no /proc/cpuinfo)
 */
static inline int cpuinfo_has(const char *flag)
{
	char line[8192], *p;
	size_t n = strlen(flag);
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = -1;

	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		found = 0;
		for (p = strchr(line, ':'); p && *p; p += strcspn(p, " \n")) {
			p += strspn(p, ": \n");
			if (!strncmp(p, flag, n) &&
			    (p[n] == ' ' || p[n] == '\n' || !p[n]))
				found = 1;
		}
	}
	fclose(f);
	return found;
}

#endif /* _LATTESTER_VMTEST_H */
