#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every ioctl validation returns its documented errno; the module keeps
# working (tests/vm/ioctl-neg.c).
exec /usr/libexec/lattester/ioctl-neg
