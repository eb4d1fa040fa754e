#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/vm/ioctl-neg.c on a kernel without rdtscp: every validation as
# documented, and its timer checks take the other side: runs without
# LATT_CFG_RDTSC say LATT_RES_TIMER_RDTSC too, GET_INFO lacks
# LATT_FEAT_RDTSCP as /proc/cpuinfo does.
exec /usr/libexec/lattester/ioctl-neg
