// SPDX-License-Identifier: GPL-2.0
/*
 * daxsum - fill or checksum the first BYTES of a device-DAX device (VM
 * tests).  A device-DAX device has no read() or write(), only mmap: this
 * maps it shared (BYTES a multiple of the device's alignment) and
 *   daxsum sum PATH BYTES    prints a 64-bit FNV-1a hash of the bytes
 *   daxsum fill PATH BYTES   writes a pseudo-random pattern (xorshift64)
 * Exit 0, or 1 with a message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void fill(uint64_t *p, size_t n)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = x;
	}
}

int main(int argc, char **argv)
{
	int writes = argc == 4 && !strcmp(argv[1], "fill");
	size_t len;
	void *p;
	int fd;

	if (argc != 4 || (!writes && strcmp(argv[1], "sum"))) {
		fprintf(stderr, "usage: daxsum sum|fill PATH BYTES\n");
		return 2;
	}
	len = strtoull(argv[3], NULL, 0);
	fd = open(argv[2], writes ? O_RDWR : O_RDONLY);
	if (fd < 0 || !len) {
		fprintf(stderr, "daxsum: %s: %s\n", argv[2],
			fd < 0 ? strerror(errno) : "no BYTES");
		return 1;
	}
	p = mmap(NULL, len, PROT_READ | (writes ? PROT_WRITE : 0), MAP_SHARED,
		 fd, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "daxsum: mmap %s: %s\n", argv[2],
			strerror(errno));
		return 1;
	}
	if (writes)
		fill(p, len / sizeof(uint64_t));
	else
		printf("%016llx\n", (unsigned long long)fnv1a(p, len));
	munmap(p, len);
	close(fd);
	return 0;
}
