// SPDX-License-Identifier: GPL-2.0
/*
 * guest-exit RC - end a QEMU guest with exit status RC.
 *
 * Writes RC to the isa-debug-exit device (QEMU -device
 * isa-debug-exit,iobase=0xf4,iosize=0x04), which makes QEMU exit with
 * status (RC << 1) | 1.  Runs as root inside the test VM; built static
 * (gcc -static -O2) because the initramfs has no libc of its own.
 * If the device is absent the write is ignored and we return 1, so the
 * caller can fall back to poweroff -f.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

#define DEBUG_EXIT_PORT 0xf4

int main(int argc, char **argv)
{
	int rc = argc > 1 ? atoi(argv[1]) : 0;

	if (rc < 0 || rc > 127) {
		fprintf(stderr, "guest-exit: rc %d out of range 0..127\n", rc);
		rc = 127;
	}
	if (ioperm(DEBUG_EXIT_PORT, 1, 1)) {
		perror("guest-exit: ioperm");
		return 1;
	}
	outb((unsigned char)rc, DEBUG_EXIT_PORT);
	/* Still here: no isa-debug-exit device. */
	fprintf(stderr, "guest-exit: no debug-exit device at 0x%x\n",
		DEBUG_EXIT_PORT);
	return 1;
}
