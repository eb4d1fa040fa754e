// SPDX-License-Identifier: GPL-2.0
/*
 * ops.c - which access kernel a run uses, by CPUID
 *
 * The timed access kernels themselves are in include/lattester/access.h
 * (instantiated by samples.h), shared with lattester-ctl's user engine; see
 * its header comment for what one sample does, instruction by instruction.
 * Which configurations are accepted and which function and timer one gets
 * is include/lattester/rules.h's, shared with the user engine too.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/errno.h>
#include <asm/cpufeature.h>
#include <asm/tsc.h>
#include <asm/msr.h>
#include <asm/mce.h>
#include <asm/processor.h>
#include "lattester.h"
#include <lattester/samples.h>
#include <lattester/pick.h>

/*
 * Whether the CPU reports a consumed poison as a machine check the kernel
 * may recover from: Intel's software error recovery (MCG_CAP.SER_P, SDM
 * Vol. 3B, 16.3.1.1), AMD's SUCCOR (CPUID 0x80000007 EBX[1], "uncorrectable
 * error containment and recovery").  The kernel's severity grading
 * (mce/severity.c) panics on either vendor without them, fixup or not.
 */
static bool latt_mc_recoverable(void)
{
	u64 cap;

	if (!boot_cpu_has(X86_FEATURE_MCE) || !boot_cpu_has(X86_FEATURE_MCA))
		return false;
	switch (boot_cpu_data.x86_vendor) {
	case X86_VENDOR_INTEL:
		return !rdmsrl_safe(MSR_IA32_MCG_CAP, &cap) &&
		       (cap & MCG_SER_P);
	case X86_VENDOR_AMD:
	case X86_VENDOR_HYGON:
		return boot_cpu_has(X86_FEATURE_SUCCOR);
	}
	return false;
}

/*
 * Does LFENCE serialize (pick.h's latt_lfence_serializing())?  6.1's
 * init_amd() sets X86_FEATURE_LFENCE_RDTSC on every AMD CPU with SSE2
 * after it tried to set DE_CFG bit 1, whether the write took or not (a
 * hypervisor may drop it), so the bit is read back here instead.
 */
static bool latt_lfence_serial(void)
{
	bool amd = boot_cpu_data.x86_vendor == X86_VENDOR_AMD ||
		   boot_cpu_data.x86_vendor == X86_VENDOR_HYGON;
	u64 de_cfg = 0;
	u32 eax = 0;
	int err = -EIO;

	if (amd) {
		if (boot_cpu_data.extended_cpuid_level >= 0x80000021)
			eax = cpuid_eax(0x80000021);
		err = rdmsrl_safe(MSR_AMD64_DE_CFG, &de_cfg);
	}
	return latt_lfence_serializing(amd, eax, !err, de_cfg);
}

/**
 * latt_features() - the LATT_FEAT_* bits
 *
 * Return: this CPU's LATT_FEAT_* bits, and the module's own.
 */
u64 latt_features(void)
{
	u64 f = LATT_FEAT_NMI_COUNT | LATT_FEAT_PMEM | LATT_FEAT_THREADS |
		LATT_FEAT_TIMER_RDTSC | LATT_FEAT_REUSE | LATT_FEAT_DAX_MAP |
		LATT_FEAT_BATCH | LATT_FEAT_WINDOWS | LATT_FEAT_TRAFFIC;

	if (boot_cpu_has(X86_FEATURE_RDTSCP))
		f |= LATT_FEAT_RDTSCP;
	if (boot_cpu_has(X86_FEATURE_CLFLUSH))
		f |= LATT_FEAT_CLFLUSH;
	if (boot_cpu_has(X86_FEATURE_CLFLUSHOPT))
		f |= LATT_FEAT_CLFLUSHOPT;
	if (boot_cpu_has(X86_FEATURE_CLWB))
		f |= LATT_FEAT_CLWB;
	if (boot_cpu_has(X86_FEATURE_XMM2))
		f |= LATT_FEAT_SSE2;
	if (boot_cpu_has(X86_FEATURE_XMM4_1))
		f |= LATT_FEAT_SSE4_1;
	if (boot_cpu_has(X86_FEATURE_AVX))
		f |= LATT_FEAT_AVX;
	if (boot_cpu_has(X86_FEATURE_AVX2))
		f |= LATT_FEAT_AVX2;
	if (boot_cpu_has(X86_FEATURE_AVX512F))
		f |= LATT_FEAT_AVX512F;
	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC))
		f |= LATT_FEAT_CONSTANT_TSC;
	if (boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
		f |= LATT_FEAT_NONSTOP_TSC;
	/* CPUID.(EAX=7,ECX=0):ECX[28], as the kernel saw it (ABI 2.2) */
	if (boot_cpu_has(X86_FEATURE_MOVDIR64B))
		f |= LATT_FEAT_MOVDIR64B;
	if (!check_tsc_unstable())
		f |= LATT_FEAT_TSC_STABLE;
	/* access.h: every load of a target has its fixup (ABI 2.3) */
	f |= LATT_FEAT_MC_SAFE;
	if (latt_mc_recoverable())
		f |= LATT_FEAT_MC_RECOVER;
	if (latt_lfence_serial())
		f |= LATT_FEAT_LFENCE_SERIAL;
	return f;
}

/**
 * latt_widths() - usable access widths
 *
 * 16 bytes need SSE2, 32 need AVX (and the kernel to manage its state),
 * 64 need AVX-512F.
 *
 * Return: bit n set when 1 << n bytes work.
 */
u32 latt_widths(void)
{
	u32 w = BIT(3);

	if (boot_cpu_has(X86_FEATURE_XMM2))
		w |= BIT(4);
	if (boot_cpu_has(X86_FEATURE_AVX) && boot_cpu_has(X86_FEATURE_OSXSAVE))
		w |= BIT(5);
	if (boot_cpu_has(X86_FEATURE_AVX512F))
		w |= BIT(6);
	return w;
}

bool latt_op_is_store(u32 op)
{
	return latt_rule_is_store(op);
}

/**
 * latt_check_config() - rules.h's latt_run_rules(), the checks both
 *	engines make (lattester-ctl prints the reason; here it is pr_debug'd)
 * @c: the configuration; .chain 0 becomes 1
 * @traffic: the run has a traffic target (ABI 2.9, LATT_IOC_START_TRAFFIC)
 *
 * Return: 0, -EINVAL, -EPERM.
 */
int latt_check_config(struct latt_config *c, bool traffic)
{
	const char *why = NULL;
	int ret = latt_run_rules(c, traffic, &why);

	if (ret)
		pr_debug("START refused: %s\n", why);
	return ret;
}

/**
 * latt_pick_streams() - the untimed access functions of a run's threads
 * @run: a run whose configuration is checked and whose width is resolved
 *
 * Sets the run's stream_fn (the op itself: bandwidth without a mix),
 * read_fn (loads), write_fn (the mix's write op) and mix_fn (the mix's
 * loads and writes in one call), as pick.h's
 * latt_pick_streams_of() chooses them: at the run's width, or the widest
 * the CPU has for an op of its own width (movdir64b).  Where a function the
 * threads will call uses vector registers, the windows save the FPU state.
 *
 * Return: 0; -EOPNOTSUPP when the CPU lacks the write op; -EINVAL for a
 * write op that is not a store.
 */
int latt_pick_streams(struct latt_run *run)
{
	struct latt_stream_pick s;
	int ret;

	ret = latt_pick_streams_of(&run->cfg, latt_features(), latt_widths(),
				   &s);
	if (ret)
		return ret;
	run->stream_fn = s.op_fn;
	run->read_fn = s.read_fn;
	run->write_fn = s.write_fn;
	run->mix_fn = s.mix_fn;
	/* after latt_pick(), which set it for the sample function */
	if (s.vector)
		run->vector = true;
	return 0;
}

/**
 * latt_pick() - the sample functions and timer of a run (rules.h)
 * @run: a run whose configuration passed latt_check_config(); its fence and
 *	width are resolved in place
 *
 * Sets fn and batch_fn (NULL for chase), chase, chase_off, width, vector
 * and timer.
 *
 * Return: 0; -EOPNOTSUPP when the CPU lacks the op's instruction or the
 * width; -EINVAL for a width the op doesn't have or a fence that doesn't
 * apply (sfence after loads).
 */
int latt_pick(struct latt_run *run)
{
	struct latt_pick p;
	const char *why = NULL;
	int ret;

	ret = latt_pick_sample(&run->cfg, latt_features(), latt_widths(), &p,
			       &why);
	if (ret) {
		pr_debug("START refused: %s%s%s\n", why, p.lacks ? ": " : "",
			 p.lacks ? p.lacks : "");
		return ret;
	}
	run->fn = p.fn;
	run->batch_fn = p.batch;
	run->chase = p.chase;
	run->chase_off = p.chase_off;
	run->width = p.width;
	/* movdir64b's 64 bytes go through no vector register */
	run->vector = p.width > 8 && !latt_op_width(run->cfg.op);
	run->timer = p.timer;
	return 0;
}
