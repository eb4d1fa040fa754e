// SPDX-License-Identifier: GPL-2.0
/*
 * daxsum - fill or checksum the first BYTES of a device-DAX device (VM
 * tests).  A device-DAX device has no read() or write(), only mmap: this
 * maps it shared (BYTES a multiple of the device's alignment) and
 *   daxsum sum PATH BYTES    prints a 64-bit hash of the bytes
 *   daxsum fill PATH BYTES   writes a pseudo-random pattern (xorshift64)
 * and for a block device (a pmem disk, written behind the page cache):
 *   daxsum blocks PATH FROM COUNT [FROM COUNT]...
 *                            reads each run of COUNT 4 KiB blocks from
 *                            block FROM with O_DIRECT and prints their
 *                            hashes on one line
 * The hash takes 8 bytes a step (FNV-1a's multiply over 64-bit words, each
 * word's position mixed in): under the emulator a byte-wise hash or md5sum
 * of a 124 MiB namespace took seconds.  BYTES a multiple of 8.
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

#define HASH_SEED 0xcbf29ce484222325ULL

/* h over n words more; i counts the words hashed before, so that two
 * equal words swapped change the hash */
static uint64_t hash_words(uint64_t h, const uint64_t *p, size_t n,
			   uint64_t i)
{
	size_t k;

	for (k = 0; k < n; k++) {
		h ^= p[k] + (i + k) * 0x9e3779b97f4a7c15ULL;
		h *= 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return h;
}

/* daxsum blocks PATH FROM COUNT...: the hash of each run, one line */
static int blocks(int argc, char **argv)
{
	const size_t chunk = 1 << 20;
	uint64_t *buf;
	int fd, i;

	fd = open(argv[2], O_RDONLY | O_DIRECT);
	if (fd < 0) {
		fprintf(stderr, "daxsum: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (posix_memalign((void **)&buf, 4096, chunk)) {
		fprintf(stderr, "daxsum: out of memory\n");
		return 1;
	}
	for (i = 3; i + 1 < argc; i += 2) {
		off_t pos = (off_t)strtoull(argv[i], NULL, 0) * 4096;
		size_t left = strtoull(argv[i + 1], NULL, 0) * 4096;
		uint64_t h = HASH_SEED, words = 0;

		while (left) {
			size_t want = left < chunk ? left : chunk;
			ssize_t got = pread(fd, buf, want, pos);

			if (got != (ssize_t)want) {
				fprintf(stderr, "daxsum: %s: read %zu at %lld: %s\n",
					argv[2], want, (long long)pos,
					got < 0 ? strerror(errno) : "short");
				return 1;
			}
			h = hash_words(h, buf, want / 8, words);
			words += want / 8;
			pos += want;
			left -= want;
		}
		printf("%s%016llx", i > 3 ? " " : "", (unsigned long long)h);
	}
	printf("\n");
	free(buf);
	close(fd);
	return 0;
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

	if (argc >= 5 && argc % 2 && !strcmp(argv[1], "blocks"))
		return blocks(argc, argv);
	if (argc != 4 || (!writes && strcmp(argv[1], "sum"))) {
		fprintf(stderr, "usage: daxsum sum|fill PATH BYTES\n"
			"       daxsum blocks PATH FROM COUNT [FROM COUNT]...\n");
		return 2;
	}
	len = strtoull(argv[3], NULL, 0);
	fd = open(argv[2], writes ? O_RDWR : O_RDONLY);
	if (fd < 0 || !len || len % 8) {
		fprintf(stderr, "daxsum: %s: %s\n", argv[2],
			fd < 0 ? strerror(errno) : "BYTES: a multiple of 8");
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
		printf("%016llx\n", (unsigned long long)
		       hash_words(HASH_SEED, p, len / 8, 0));
	munmap(p, len);
	close(fd);
	return 0;
}
