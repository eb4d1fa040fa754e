#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs of several kthreads through the ioctls: latency, bandwidth and
# loaded modes, split regions, per-thread records against the merged
# result, abort, validation (tests/vm/threads.c).
exec /usr/libexec/lattester/threads
