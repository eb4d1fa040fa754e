#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
. /tests/lib/rmmod.sh
