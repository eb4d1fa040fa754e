#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The persistence domain (issue 28): this suite's NVDIMM is ADR (vm.env:
# QEMU's nvdimm-persistence=mem-ctrl, the NFIT's platform capabilities
# say the memory controller's queues are flushed on power loss), so list
# says memory_controller and --op durable times a store, its write-back
# (clwb: TCG's max CPU has it) and sfence, in both engines: the kernel
# engine on the raw namespace, the user engine on device-DAX.  Before
# 75-badblocks-tool puts bad blocks into RAW.  cases-eadr/ tests eADR,
# cases-e820/ a region that reports none.
. /tests/lib/pmem.sh
set -u
durable memory_controller store-clwb "$RAW_DEV" --force --region 1M
if [ -n "$DEVDAX_DEV" ]; then
	durable memory_controller store-clwb "$DEVDAX_DEV" --force \
		--region 2M --engine user
	# a CPU without clwb (hidden from the user engine, as a hypervisor
	# hides CPUID bits): the write-back is clflushopt's
	LATTESTER_HWCAPS=-clwb durable memory_controller store-clflushopt \
		"$DEVDAX_DEV" --force --region 2M --engine user
else
	echo "note: no device-DAX on this kernel: the user engine's part left out"
fi
# DRAM keeps nothing: refused, whatever the engine
refused 1 "--op durable: dram.*: DRAM keeps nothing across a power loss" \
	run --op durable --samples 100 --cpu 0
refused 1 "--op durable: dram.*: DRAM keeps nothing across a power loss" \
	run --op durable --samples 100 --cpu 0 --engine user
exit $rc
