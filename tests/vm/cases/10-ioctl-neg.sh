#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every ioctl validation returns its documented errno; the module keeps
# working (tests/vm/ioctl-neg.c).
# vm-kernels: 6.1.* 6.12.*+deb12-amd64
# vm-kernels-why: the ioctl's checks are the same code on PREEMPT_RT; 60-fuzz drives them there
exec /usr/libexec/lattester/ioctl-neg
