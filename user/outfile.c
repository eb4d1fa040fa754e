// SPDX-License-Identifier: GPL-2.0
/*
 * outfile.c - see outfile.h.
 *
 * Asking is not enough: root passes every permission check, /proc and /sys
 * answer access() as folders that root may write to, and neither a
 * read-only mount nor a full disk shows before a write.  So a new output
 * is created (O_EXCL), given a block (posix_fallocate: a full disk says
 * ENOSPC here) and removed again; an existing one is opened for appending,
 * which truncates nothing, and must be a regular file, a character device
 * (/dev/null) or a pipe, on no pseudo-filesystem.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "log.h"
#include "outfile.h"

/* filesystems whose files are the kernel's, not results' */
static const struct {
	long magic;
	const char *name;
} pseudo[] = {
	{ PROC_SUPER_MAGIC, "procfs" },
	{ SYSFS_MAGIC, "sysfs" },
	{ DEBUGFS_MAGIC, "debugfs" },
	{ TRACEFS_MAGIC, "tracefs" },
	{ SECURITYFS_MAGIC, "securityfs" },
	{ CGROUP_SUPER_MAGIC, "cgroupfs" },
	{ CGROUP2_SUPER_MAGIC, "cgroup2fs" },
	{ BPF_FS_MAGIC, "bpffs" },
	{ PSTOREFS_MAGIC, "pstore" },
	{ EFIVARFS_MAGIC, "efivarfs" },
};

/* The pseudo-filesystem @fd is on, or NULL. */
static const char *pseudo_fs(int fd)
{
	struct statfs sf;
	size_t i;

	if (fstatfs(fd, &sf))
		return NULL;
	for (i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if ((long)sf.f_type == pseudo[i].magic)
			return pseudo[i].name;
	return NULL;
}

/* Why no file @path can be made in its folder, open() having said @err. */
static void why_not_made(const char *path, int err, char *why,
			 unsigned long len)
{
	const char *slash = strrchr(path, '/'), *fs = NULL;
	char dir[PATH_MAX];
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 :
			 (int)(slash - path), path);
	fd = open(dir, O_PATH | O_CLOEXEC);
	if (fd >= 0) {
		fs = pseudo_fs(fd);
		close(fd);
	}
	if (fs)
		snprintf(why, len, "it is on %s, the kernel's, which holds no results", fs);
	else if (err == ENOENT || err == ENOTDIR)
		snprintf(why, len, "its folder %s: %s", dir, strerror(err));
	else if (err == EACCES || err == EPERM || err == EROFS)
		snprintf(why, len, "no file can be created in %s: %s", dir,
			 strerror(err));
	else
		snprintf(why, len, "%s", strerror(err));
}

/* A new output: made, given a block, and removed. */
static int probe_new(const char *path, char *why, unsigned long len)
{
	const char *fs;
	int fd, err;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = errno;
		why_not_made(path, err, why, len);
		return -err;
	}
	fs = pseudo_fs(fd);
	/* a block, the size kept at 0: a probe left by a kill is empty */
	err = fs ? EPERM : fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 4096) ?
	      errno : 0;
	/* a filesystem without fallocate: nothing more to learn before */
	if (err == EOPNOTSUPP || err == EINVAL)
		err = 0;
	close(fd);
	unlink(path);
	if (fs)
		snprintf(why, len, "it is on %s, the kernel's, which holds no results", fs);
	else if (err)
		snprintf(why, len, "%s", strerror(err));
	return -err;
}

/**
 * out_check_errno() - can @path take an output?  Found out by making it
 * @path: the output
 * @why: out: the reason, when not
 * @len: room in @why
 *
 * A new file is created and removed again; an existing one is opened for
 * appending (nothing truncated).
 *
 * Return: 0, or a negative errno with @why filled.
 */
int out_check_errno(const char *path, char *why, unsigned long len)
{
	char target[2 * PATH_MAX + 2], link[PATH_MAX];
	const char *fs, *slash;
	struct stat st;
	ssize_t n;
	int fd, err;

	if (stat(path, &st)) {
		err = errno;
		if (err != ENOENT) {
			snprintf(why, len, "%s", strerror(err));
			return -err;
		}
		/* a link to a file not made yet: the file is the one made */
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			return probe_new(path, why, len);
		link[n] = '\0';
		slash = strrchr(path, '/');
		if (link[0] == '/' || !slash)
			snprintf(target, sizeof(target), "%s", link);
		else
			snprintf(target, sizeof(target), "%.*s/%s",
				 (int)(slash - path), path, link);
		return probe_new(target, why, len);
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s", strerror(EISDIR));
		return -EISDIR;
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return 0;	/* /dev/null, /dev/stdout on a pipe */
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "not a regular file");
		return -EINVAL;
	}
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err = errno;
		snprintf(why, len, "%s", strerror(err));
		return -err;
	}
	fs = pseudo_fs(fd);
	close(fd);
	if (fs) {
		snprintf(why, len, "it is on %s, the kernel's, which holds no results", fs);
		return -EPERM;
	}
	return 0;
}

/**
 * out_check() - out_check_errno(), said for the command
 * @opt: the option that named @path ("--json"), for the message
 * @path: the output; NULL or "-" (stdout): nothing to check
 * @undone: what the refusal stops (OUT_MEASURED, OUT_DRAWN)
 *
 * Return: 0, or 1 once it said why not.
 */
int out_check(const char *opt, const char *path, const char *undone)
{
	char why[160];

	if (!path || !strcmp(path, "-"))
		return 0;
	if (!out_check_errno(path, why, sizeof(why)))
		return 0;
	log_err("%s: cannot write %s: %s; %s", opt, path, why, undone);
	return 1;
}
