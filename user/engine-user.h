/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engine-user.h - the user engine (--engine user): the module's access
 * kernels (include/lattester/samples.h) run from a thread of this process,
 * pinned to --cpu, on DRAM of a NUMA node from libnuma.  No module, no
 * root (mlock may need a raised RLIMIT_MEMLOCK).
 */
#ifndef _LATT_ENGINE_USER_H
#define _LATT_ENGINE_USER_H

#include <uapi/lattester.h>
#include "run.h"

/* What the module's GET_INFO would say, for this CPU and process. */
int user_engine_info(struct latt_info *info);

/* rules.h's checks of @c on the CPU @in describes (both engines; with
 * @traffic, of what the probe's target sees): NULL, or why it can't run;
 * *lacks names a missing instruction */
const char *engine_rules(const struct latt_config *c, bool traffic,
			 const struct latt_info *in, const char **lacks);

/* "rdtscp", or "rdtsc" (lfence; rdtsc) where CPUID shows no rdtscp */
const char *user_engine_timer(void);

/* The kernel's current clocksource ("tsc" while it trusts the TSC), or "" */
const char *user_clocksource(void);

/*
 * One run (or calibration pass) of @c into @r, like the module's START,
 * STATUS polling and RESULT; 0, 1 or EXIT_INTERRUPTED.  @keep NULL: the
 * region is allocated (or mapped) for the run and freed after it.  Else
 * *@keep is a region kept from an earlier run (or NULL): taken as it is
 * if it was made for the same target, node, region, pages, offset and
 * access (r->res.flags then has LATT_RES_REUSED, as the module's result
 * would), freed first if not; and the run's region is left in *@keep when
 * the run ends done, freed when it does not.  A loaded run with
 * @o->traffic_run streams its traffic on that target's region, made or
 * taken from *@tkeep (NULL: not kept) likewise.
 */
int user_engine_measure(const struct run_opts *o, const struct latt_config *c,
			struct run_report *r, const struct run_hooks *h,
			struct user_keep **keep, struct user_keep **tkeep);

/* Free a region user_engine_measure() kept (*@keep NULL: nothing). */
void user_keep_free(struct user_keep **keep);

#endif /* _LATT_ENGINE_USER_H */
