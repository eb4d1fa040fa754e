// SPDX-License-Identifier: GPL-2.0
/* as-nobody CMD [ARG...] - run CMD as uid/gid 65534, no groups (VM tests). */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: as-nobody CMD [ARG...]\n");
		return 2;
	}
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
		perror("as-nobody");
		return 2;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
