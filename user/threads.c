// SPDX-License-Identifier: GPL-2.0
/*
 * threads.c - runs of several threads, and the bandwidth and loaded-latency
 * modes (ABI 1.2; threads.h).
 *
 * The CPUs: --cpus LIST as given (the first takes the samples of a loaded
 * run), --threads N alone the N online CPUs from --cpu upwards (wrapping),
 * both the first N of LIST.  Everything the module would refuse is refused
 * here first with the option's name; the module checks again.
 *
 * GB/s are bytes / time in 10^9 bytes per second; a thread's time is its own
 * span on the TSC (from the common start to its end), the run's total is all
 * bytes over the longest span.  The series turns each thread's per-bin bytes
 * into the run's GB/s per bin.
 */
#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>
#include <lattester/core.h>
#include <lattester/hist.h>
#include "dev.h"
#include "host.h"
#include "json-out.h"
#include "log.h"
#include "parse.h"
#include "run.h"
#include "stats.h"
#include "threads.h"

/** threads_set_option() - one of the thread options into @o */
int threads_set_option(struct run_opts *o, int id, const char *v)
{
	struct thread_opts *t = &o->th;
	struct latt_config *c = &o->cfg;
	__u32 op;
	int rc;

	switch (id) {
	case OPT_THREADS:
		rc = parse_u32(v, &t->n);
		return rc ? rc : !t->n || t->n > LATT_MAX_THREADS ? -ERANGE : 0;
	case OPT_CPUS:
		if (strlen(v) >= sizeof(t->cpus_text))
			return -ERANGE;
		snprintf(t->cpus_text, sizeof(t->cpus_text), "%s", v);
		return parse_cpulist(v, t->cpus, LATT_MAX_THREADS, &t->ncpus);
	case OPT_MODE:
		return parse_mode(v, &c->mode);
	case OPT_DURATION:
		t->duration_set = true;
		return parse_duration_us(v, &t->duration_us);
	case OPT_MIX:
		return parse_mix(v, &c->mix_read, &c->mix_write);
	case OPT_WRITE_OP:
		rc = parse_op(v, &op);
		if (rc)
			return rc;
		if (!op_is_store(op))
			return -EDOM;
		c->write_op = op;
		return 0;
	case OPT_DELAY:
		rc = parse_u64(v, &c->delay);
		return rc ? rc : c->delay > LATT_MAX_DELAY ? -ERANGE : 0;
	case OPT_SPLIT:
		c->flags |= LATT_CFG_SPLIT;
		return 0;
	}
	return -EINVAL;
}

/* How many threads the options ask for. */
static __u32 nr_threads(const struct run_opts *o)
{
	if (o->th.n)
		return o->th.n;
	return o->th.ncpus ? o->th.ncpus : 1;
}

static const char *mode_problem(const struct run_opts *o, __u32 n)
{
	const struct latt_config *c = &o->cfg;
	const bool bw = c->mode == LATT_MODE_BANDWIDTH;
	const bool chase = c->pattern == LATT_PAT_CHASE;

	if (c->mode == LATT_MODE_LOADED && n < 2)
		return "--mode loaded needs at least 2 threads (--threads or --cpus): one measures, the others load the memory";
	if (c->mode == LATT_MODE_LATENCY &&
	    (c->mix_read || c->mix_write || c->write_op || c->delay))
		return "--mix, --write-op and --delay shape the traffic of --mode bandwidth or loaded";
	if (!bw && o->th.duration_set)
		return "--duration is for --mode bandwidth (the other modes take --samples)";
	if (bw && o->th.samples_set)
		return "--mode bandwidth runs for --duration, not --samples";
	if (bw && o->thr.kind != THR_OFF)
		return "--mode bandwidth times no single access: no --threshold";
	if (bw && chase)
		return "--pattern chase is a latency pattern; bandwidth streams seq, rand, stride or hotspot";
	if (bw && c->flags & LATT_CFG_WARM)
		return "--warm is for timed accesses, not --mode bandwidth";
	/* with a --traffic-target the split and the writes are its own */
	if (chase && c->flags & LATT_CFG_SPLIT && !o->traffic)
		return "--pattern chase is one chain over the region: no --split";
	if (chase && c->mode == LATT_MODE_LATENCY && n > 1)
		return "--pattern chase is one chain: with several threads use --mode loaded (thread 0 chases, the others stream)";
	if (chase && c->mix_write && !o->traffic)
		return "--pattern chase with writing traffic would overwrite the chain: --mix R:0";
	return NULL;
}

/**
 * threads_args_problem() - why the thread options can't make a run, or NULL
 */
const char *threads_args_problem(const struct run_opts *o)
{
	static char buf[256];
	const struct thread_opts *t = &o->th;
	__u32 n = nr_threads(o), i, j;
	__u64 part;

	if (t->n && t->ncpus && t->n > t->ncpus) {
		snprintf(buf, sizeof(buf), "--threads %u: --cpus lists only %u CPUs", t->n, t->ncpus);
		return buf;
	}
	for (i = 0; i < t->ncpus; i++)
		for (j = 0; j < i; j++)
			if (t->cpus[i] == t->cpus[j]) {
				snprintf(buf, sizeof(buf), "--cpus: CPU %u is listed twice", t->cpus[i]);
				return buf;
			}
	if (t->ncpus && t->cpu_set && t->cpus[0] != o->cfg.cpu)
		return "--cpu and --cpus disagree: the first of --cpus is the CPU that takes the samples";
	/* a traffic target's parts are checked once it is resolved */
	if (o->cfg.flags & LATT_CFG_SPLIT && !o->traffic &&
	    (o->region_set || o->spec.kind == TARGET_DRAM) &&
	    latt_split_part(o->cfg.region, n, o->cfg.size, &part)) {
		snprintf(buf, sizeof(buf), "--split: --region %llu over %u threads leaves parts smaller than --size %llu",
			 (unsigned long long)o->cfg.region, n,
			 (unsigned long long)o->cfg.size);
		return buf;
	}
	return mode_problem(o, n);
}

/*
 * The CPUs START gets: --cpus (its first N), or N online CPUs from --cpu
 * upwards, wrapping.  Returns 0, or 1 after saying what is wrong.
 */
/*
 * Is @cpu one the run's other threads may take?  Online; for the user
 * engine also in this process's affinity (taskset, a cgroup's cpuset):
 * --threads N stays inside the CPUs lattester-ctl was given.  Thread 0 is
 * --cpu, and --cpus is taken as listed: the kernel says at the pin
 * whether a cpuset allows a CPU (the thread then fails, naming it).
 */
static bool cpu_usable(const struct run_opts *o, const cpu_set_t *mine,
		       __u32 cpu)
{
	return host_cpu_online(cpu) &&
	       (!o->user_engine || !mine || CPU_ISSET(cpu, mine));
}

static int pick_cpus(struct run_opts *o, __u32 n)
{
	struct thread_opts *t = &o->th;
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t set, *mine = NULL;
	char online[256];
	__u32 i, k = 0;
	long c;

	if (t->ncpus) {
		memcpy(t->list, t->cpus, n * sizeof(*t->list));
		for (i = 0; i < n; i++)
			if (!host_cpu_online(t->list[i])) {
				host_cpus_online(online, sizeof(online));
				log_err("--cpus: CPU %u not online (online: %s)", t->list[i], online);
				return 1;
			}
		return 0;
	}
	if (n == 1) {
		/* one thread: --cpu as it is (check_host() names it) */
		t->list[0] = o->cfg.cpu;
		return 0;
	}
	if (conf < 1)
		conf = 1;
	c = 0;
	if (o->user_engine) {
		/* thread 0 on --cpu, as with one thread; the others from
		 * the CPUs this process was given */
		if (!sched_getaffinity(0, sizeof(set), &set))
			mine = &set;
		t->list[k++] = o->cfg.cpu;
		c = 1;
	}
	for (; c < conf && k < n; c++) {
		__u32 cpu = (__u32)((o->cfg.cpu + c) % conf);

		if (cpu_usable(o, mine, cpu))
			t->list[k++] = cpu;
	}
	if (k < n) {
		host_cpus_online(online, sizeof(online));
		if (mine)
			log_err("--threads %u: --cpu %u and only %u more of the online CPUs (%s) in this process's affinity (taskset, or a cgroup's cpuset): --engine user keeps its threads inside it; name them with --cpus to go beyond", n, o->cfg.cpu, k - 1, online);
		else
			log_err("--threads %u: only %u CPUs online (%s)", n, k, online);
		return 1;
	}
	return 0;
}

/**
 * threads_resolve() - fill the configuration's thread fields before START
 *
 * Returns 0, or 1 after an error was said.  Idempotent: a sweep calls it
 * for every point.
 */
int threads_resolve(struct run_opts *o)
{
	struct latt_config *c = &o->cfg;
	__u32 n = nr_threads(o);

	if (pick_cpus(o, n))
		return 1;
	c->cpu = o->th.list[0];
	c->nr_threads = n > 1 ? n : 0;
	c->cpus_ptr = n > 1 ? (__u64)(uintptr_t)o->th.list : 0;
	if (c->mode == LATT_MODE_BANDWIDTH) {
		c->samples = 0;
		c->duration_us = o->th.duration_set ? o->th.duration_us :
				 THREADS_DEFAULT_DURATION_US;
	}
	return 0;
}

/**
 * threads_fetch() - every thread's record, histogram and series
 *
 * Called for a run that used threads or a mode.  Returns 0, or 1 after an
 * error was said.
 */
int threads_fetch(struct latt_dev *d, struct run_report *r)
{
	struct thread_report *t = &r->trep;
	struct latt_threads a;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = latt_dev_threads(d, &a);
	if (!rc && (!a.len || a.len > LATT_MAX_THREADS ||
		    a.series_len > LATT_MAX_SERIES))
		rc = -EPROTO;
	if (!rc) {
		t->n = a.len;
		t->series_len = a.series_len;
		t->st = calloc(t->n, sizeof(*t->st));
		t->hist = calloc((size_t)t->n * LATT_HIST_BUCKETS,
				 sizeof(*t->hist));
		/* rows of series_len: what the second call passes in */
		t->series = calloc((size_t)t->n * t->series_len + 1,
				   sizeof(*t->series));
		if (!t->st || !t->hist || !t->series)
			rc = -ENOMEM;
	}
	if (!rc) {
		a.stats_ptr = (__u64)(uintptr_t)t->st;
		a.hist_ptr = (__u64)(uintptr_t)t->hist;
		a.series_ptr = (__u64)(uintptr_t)t->series;
		rc = latt_dev_threads(d, &a);
		if (!rc && (a.len != t->n || a.series_len != t->series_len))
			rc = -EPROTO;
		t->series_cycles = a.series_cycles;
		t->tsc_go = a.tsc_go;
	}
	if (rc) {
		log_err("per-thread results failed: %s", strerror(-rc));
		return 1;
	}
	return 0;
}

/** threads_gbps() - @bytes over @cycles of a @tsc_khz TSC, in 10^9 B/s */
double threads_gbps(__u64 bytes, __u64 cycles, __u64 tsc_khz)
{
	double ns = latt_ns((double)cycles, tsc_khz);

	return ns > 0 ? (double)bytes / ns : 0;
}

/* A thread's span: the common start to its end. */
static __u64 span(const struct run_report *r, const struct latt_thread_stats *s)
{
	/* stopped before the common start: no span */
	if (!r->trep.tsc_go)
		return 0;
	return s->tsc_end > r->trep.tsc_go ? s->tsc_end - r->trep.tsc_go : 0;
}

/** run_bandwidth() - every thread's bytes over the longest span (zeroes
 * for a run that streamed nothing) */
void run_bandwidth(const struct run_report *r, struct run_bandwidth *b)
{
	const struct latt_result *s = &r->res;

	/* the module's merge: every thread's bytes, the common start to
	 * the last thread's end */
	memset(b, 0, sizeof(*b));
	b->bytes_read = s->bytes_read;
	b->bytes_written = s->bytes_written;
	b->cycles = s->tsc_end > s->tsc_start ? s->tsc_end - s->tsc_start : 0;
	b->read_gbps = threads_gbps(b->bytes_read, b->cycles,
				    r->info->tsc_khz);
	b->write_gbps = threads_gbps(b->bytes_written, b->cycles,
				     r->info->tsc_khz);
}

/**
 * outlier_overhead() - the overhead that corrects outlier @o: its thread's
 *	own (ABI 2.5: the run's figures are on each thread's, latt_acct_merge());
 *	the run's where the threads are not known
 * @r: the run
 * @o: one of its outlier records
 */
__u64 outlier_overhead(const struct run_report *r,
		       const struct latt_outlier *o)
{
	__u32 i;

	for (i = 0; r->trep.st && i < r->trep.n; i++)
		if (r->trep.st[i].cpu == o->cpu &&
		    r->trep.st[i].role == LATT_ROLE_LATENCY)
			return r->trep.st[i].overhead;
	return r->res.overhead;
}

/* Corrected percentile @ppm of thread @i, in ns (0 without samples). */
static double thread_ns(const struct run_report *r, __u32 i, __u64 ppm)
{
	const struct latt_thread_stats *s = &r->trep.st[i];
	__u32 chain = latt_chain(&r->res.config);
	__u64 raw;

	if (!s->count)
		return 0;
	raw = ppm >= 1000000 ? s->max :	/* exact, not a bucket's middle */
	      latt_hist_percentile(r->trep.hist + (size_t)i * LATT_HIST_BUCKETS,
				   s->count, s->min, s->max, ppm);
	return latt_ns((double)latt_correct(raw, s->overhead) / chain,
		       r->info->tsc_khz);
}

static const char *role_name(__u32 role)
{
	return role == LATT_ROLE_LATENCY ? "latency" :
	       role == LATT_ROLE_STREAM ? "stream" : "?";
}

/* A duty cycle (duty.h) for the table: "97%", or "-" where unknown. */
static const char *fmt_duty(char *buf, size_t len, double share)
{
	if (share < 0)
		return "-";
	snprintf(buf, len, "%.0f%%", 100 * share);
	return buf;
}

/**
 * threads_print() - the per-thread table and the run's bandwidth; a run
 * that streams has a column of each streaming thread's duty cycle, the
 * run's on the line of all
 */
void threads_print(FILE *f, const struct run_report *r)
{
	const struct latt_config *c = &r->res.config;
	const __u64 khz = r->info->tsc_khz;
	const struct run_duty *d = &r->duty;
	struct run_bandwidth b;
	bool few = false;	/* a thread has too few samples for p99 */
	char duty[16];
	__u32 i;

	if (!r->trep.n)
		return;
	fprintf(f, "\nthreads: %u, mode %s", r->trep.n, mode_name(c->mode));
	if (r->traffic.name[0])
		fprintf(f, ", traffic on %s (%llu MiB, %s)", r->traffic.name,
			(unsigned long long)(r->traffic.region >> 20),
			c->flags & LATT_CFG_SPLIT ? "split" : "shared");
	else
		fputs(c->flags & LATT_CFG_SPLIT ? ", split region" :
		      ", shared region", f);
	if (c->mix_read || c->mix_write)
		fprintf(f, ", mix %u:%u (writes: %s)", c->mix_read,
			c->mix_write, latt_name(NAMES_OP, c->write_op ?
						c->write_op : LATT_OP_STORE));
	if (c->delay)
		fprintf(f, ", delay %llu cycles", (unsigned long long)c->delay);
	fprintf(f, "\n%-4s %5s %5s %-8s %10s %10s %10s %10s %10s", "#",
		"cpu", "node", "role", "samples", "p50 ns", "p99 ns",
		"read GB/s", "write GB/s");
	fputs(d->streams ? "   duty\n" : "\n", f);
	for (i = 0; i < r->trep.n; i++) {
		const struct latt_thread_stats *s = &r->trep.st[i];
		char p50[32] = "-", p99[32] = "-";

		/* a thread that timed samples, but too few for the
		 * percentile, gets "-" (the latency table's rule) */
		if (!s->count || latt_pct_supported(s->count, 500000))
			snprintf(p50, sizeof(p50), "%.1f",
				 thread_ns(r, i, 500000));
		if (!s->count || latt_pct_supported(s->count, 990000))
			snprintf(p99, sizeof(p99), "%.1f",
				 thread_ns(r, i, 990000));
		else
			few = true;
		fprintf(f, "%-4u %5u %5u %-8s %10llu %10s %10s %10.2f %10.2f", i, s->cpu, s->node, role_name(s->role),
			(unsigned long long)s->count, p50, p99,
			threads_gbps(s->bytes_read, span(r, s), khz),
			threads_gbps(s->bytes_written, span(r, s), khz));
		if (d->streams)
			fprintf(f, " %6s", fmt_duty(duty, sizeof(duty),
						    duty_thread(d, s)));
		fputc('\n', f);
	}
	run_bandwidth(r, &b);
	if (b.bytes_read || b.bytes_written) {
		fprintf(f, "%-4s %5s %5s %-8s %10s %10s %10s %10.2f %10.2f", "all",
			"", "", "", "", "", "", b.read_gbps, b.write_gbps);
		if (d->streams)
			fprintf(f, " %6s", fmt_duty(duty, sizeof(duty),
						    d->known ? d->share : -1));
		fprintf(f, "  (%.2f GB/s in all%s%s, over %.3f s)\n",
			b.read_gbps + b.write_gbps,
			r->traffic.name[0] ? " on " : "", r->traffic.name,
			latt_ns((double)b.cycles, khz) / 1e9);
	}
	if (d->streams)
		fputs("duty: the share of the run's time a thread streamed: its windows by their length (methodology.md, section 10)\n",
		      f);
	if (few)
		fprintf(f, "-: too few samples for that percentile: p50 needs %llu, p99 %llu (a percentile q needs %d/(1-q) samples, %d beyond it)\n",
			(unsigned long long)latt_pct_min_samples(500000),
			(unsigned long long)latt_pct_min_samples(990000),
			LATT_PCT_BEYOND, LATT_PCT_BEYOND);
}

/* "duty_cycle": a share of 0 to 1 (duty.h), null where unknown */
static void add_duty(struct json_object *o, double share)
{
	json_object_object_add(o, "duty_cycle", share < 0 ? NULL :
			       json_new_fixed(share, 3));
}

/* What thread @s accessed, as the reports name it */
static const char *thread_target(const struct run_report *r,
				 const struct latt_thread_stats *s)
{
	if (r->traffic.name[0] && s->role == LATT_ROLE_STREAM)
		return r->traffic.name;
	return r->target ? r->target->spec : "";
}

/* --traffic-target: where the traffic streamed; null without one */
static struct json_object *traffic_json(const struct run_report *r)
{
	const struct run_traffic *t = &r->traffic;
	struct json_object *o;

	if (!t->name[0])
		return NULL;
	o = json_object_new_object();
	latt_json_str(o, "spec", t->name);
	latt_json_str(o, "kind", t->kind);
	latt_json_int(o, "node", t->node);
	latt_json_u64(o, "region", t->region);
	return o;
}

static struct json_object *thread_json(const struct run_report *r, __u32 i)
{
	const struct latt_thread_stats *s = &r->trep.st[i];
	const __u64 khz = r->info->tsc_khz;
	struct json_object *o = json_object_new_object();
	struct json_object *ns = json_object_new_object();
	struct json_object *un = json_object_new_array();
	static const struct { const char *name; __u64 ppm; } pct[] = {
		{ "p50", 500000 }, { "p90", 900000 }, { "p99", 990000 },
		{ "p99.9", 999000 }, { "max", 1000000 },
	};
	size_t k;

	latt_json_u64(o, "thread", i);
	latt_json_u64(o, "cpu", s->cpu);
	latt_json_u64(o, "node", s->node);
	latt_json_str(o, "role", role_name(s->role));
	/* the memory it accessed: the run's target, or the traffic's */
	latt_json_str(o, "target", thread_target(r, s));
	latt_json_int(o, "error", s->error);
	latt_json_u64(o, "part_offset", s->part_offset);
	latt_json_u64(o, "part_bytes", s->part_bytes);
	latt_json_u64(o, "samples", s->count);
	latt_json_u64(o, "overhead_cycles", s->overhead);
	if (s->overhead_idle)	/* ABI 2.5; loaded: overhead_cycles is under load */
		latt_json_u64(o, "overhead_idle_cycles", s->overhead_idle);
	else
		json_object_object_add(o, "overhead_idle_cycles", NULL);
	for (k = 0; k < sizeof(pct) / sizeof(pct[0]); k++) {
		latt_json_double(ns, pct[k].name, thread_ns(r, i, pct[k].ppm));
		if (s->count && !latt_pct_supported(s->count, pct[k].ppm))
			json_object_array_add(un,
				json_object_new_string(pct[k].name));
	}
	json_object_object_add(o, "latency_ns", s->count ? ns : NULL);
	if (!s->count)
		json_object_put(ns);
	/* as the run's latency.unsupported: too few samples for these */
	json_object_object_add(o, "latency_unsupported", un);
	latt_json_u64(o, "accesses", s->accesses);
	latt_json_u64(o, "bytes_read", s->bytes_read);
	latt_json_u64(o, "bytes_written", s->bytes_written);
	latt_json_double(o, "read_gbps",
			 threads_gbps(s->bytes_read, span(r, s), khz));
	latt_json_double(o, "write_gbps",
			 threads_gbps(s->bytes_written, span(r, s), khz));
	latt_json_u64(o, "duration_ns",
		      (__u64)(latt_ns((double)span(r, s), khz) + 0.5));
	latt_json_u64(o, "windows", s->windows);
	latt_json_u64(o, "nmi_windows", s->nmi_windows);
	latt_json_u64(o, "window_cycles_max", s->window_cycles_max);
	add_duty(o, duty_thread(&r->duty, s));
	latt_json_u64(o, "outliers", s->outliers);
	return o;
}

/* The run's GB/s in each bin of the series, all threads together. */
static struct json_object *series_json(const struct run_report *r)
{
	const struct thread_report *t = &r->trep;
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	__u32 b, i;

	latt_json_double(o, "bin_us",
			 latt_ns((double)t->series_cycles, r->info->tsc_khz) /
			 1000);
	for (b = 0; b < t->series_len; b++) {
		__u64 bytes = 0;

		for (i = 0; i < t->n; i++)
			bytes += t->series[(size_t)i * t->series_len + b];
		json_object_array_add(a, json_new_fixed(threads_gbps(bytes,
			t->series_cycles, r->info->tsc_khz), 3));
	}
	json_object_object_add(o, "gbps", a);
	return o;
}

/**
 * json_run_threads() - {"mode", "threads": [...], "bandwidth": {...}} of a
 * run that used threads or a mode; NULL otherwise
 */
struct json_object *json_run_threads(const struct run_report *r)
{
	const struct latt_config *c = &r->res.config;
	const __u64 khz = r->info->tsc_khz;
	struct json_object *o, *a, *bw;
	struct run_bandwidth b;
	__u32 i;

	if (!r->trep.n)
		return NULL;
	o = json_object_new_object();
	a = json_object_new_array();
	latt_json_str(o, "mode", mode_name(r->res.config.mode));
	latt_json_bool(o, "split", !!(r->res.config.flags & LATT_CFG_SPLIT));
	latt_json_u64(o, "duration_us", c->duration_us);
	latt_json_u64(o, "delay_cycles", c->delay);
	latt_json_u64(o, "mix_read", c->mix_read);
	latt_json_u64(o, "mix_write", c->mix_write);
	latt_json_str(o, "write_op", latt_name(NAMES_OP, c->write_op ?
						 c->write_op : LATT_OP_STORE));
	json_object_object_add(o, "traffic_target", traffic_json(r));
	for (i = 0; i < r->trep.n; i++)
		json_object_array_add(a, thread_json(r, i));
	json_object_object_add(o, "threads", a);
	run_bandwidth(r, &b);
	bw = json_object_new_object();
	/* the memory the bytes moved on */
	latt_json_str(bw, "target", r->traffic.name[0] ? r->traffic.name :
		      r->target ? r->target->spec : "");
	latt_json_u64(bw, "bytes_read", b.bytes_read);
	latt_json_u64(bw, "bytes_written", b.bytes_written);
	latt_json_u64(bw, "duration_ns",
		      (__u64)(latt_ns((double)b.cycles, khz) + 0.5));
	latt_json_double(bw, "read_gbps", b.read_gbps);
	latt_json_double(bw, "write_gbps", b.write_gbps);
	latt_json_double(bw, "total_gbps", b.read_gbps + b.write_gbps);
	add_duty(bw, r->duty.known ? r->duty.share : -1);
	if (r->trep.series_len)
		json_object_object_add(bw, "series", series_json(r));
	json_object_object_add(o, "bandwidth", bw);
	return o;
}
