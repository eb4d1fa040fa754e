#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ABI 2.1: LATT_CFG_REUSE (a region kept for the next START of the same
# file, freed on close and by the shrinker) and 2 MiB DRAM chunks
# (tests/vm/reuse.c).
exec /usr/libexec/lattester/reuse
