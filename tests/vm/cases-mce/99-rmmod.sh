#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 99-rmmod: runs last; the module unloads cleanly (tests/vm/lib/rmmod.sh).
. /tests/lib/rmmod.sh
