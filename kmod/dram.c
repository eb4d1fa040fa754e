// SPDX-License-Identifier: GPL-2.0
/*
 * dram.c - DRAM targets: memory on one NUMA node
 *
 * The region is made of physically contiguous chunks of LATT_CHUNK (4 MiB)
 * bytes, each reached through the kernel's direct map, which the kernel maps
 * with 2 MiB or 1 GiB pages where it can: a random access then costs the
 * memory's latency and not a page walk, as it would through vmalloc's 4 KiB
 * pages.  The address generator (include/lattester/pattern.h) never lets an
 * access cross a chunk.
 *
 * Where a node has no free 4 MiB blocks left even after compaction (a
 * long-running, fragmented server), the whole region falls back to 2 MiB
 * chunks (LATT_CHUNK_MIN_SHIFT) rather than fail: the generator then keeps
 * accesses inside 2 MiB, a size above that is refused (-ENOMEM: it needs
 * 4 MiB blocks), and the result says the chunk size (latt_result
 * .chunk_size).  sysfs max_chunk_kib = 2048 asks for 2 MiB chunks from the
 * start (tests, and machines known to be fragmented).
 *
 * On a long-running server the chunks take compaction (__GFP_RETRY_MAYFAIL,
 * which never calls the OOM killer), and a node whose memory is all
 * ZONE_MOVABLE -- CXL and hot-plugged memory onlined the default way --
 * is served from there (__GFP_HIGHMEM | __GFP_MOVABLE): first, when it
 * holds most of the node's free pages and stays above twice its high
 * watermark, else when the other zones can't.  The chunks are no LRU
 * pages and have no migration callbacks, so nothing migrates them while the run holds them (offlining
 * that memory waits for the run's end).  A region beyond the node's free memory is refused
 * before anything is allocated.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/nodemask.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/file.h>
#include <linux/io.h>
#include <linux/dax.h>
#include "lattester.h"

#ifdef MAX_PAGE_ORDER			/* v6.8+: inclusive */
#define LATT_MAX_ORDER	MAX_PAGE_ORDER
#else					/* before: exclusive */
#define LATT_MAX_ORDER	(MAX_ORDER - 1)
#endif

static_assert(LATT_CHUNK_SHIFT - PAGE_SHIFT <= LATT_MAX_ORDER);

unsigned int latt_max_chunk_kib = LATT_CHUNK >> 10;	/* sysfs */

/* Where a node's chunks are taken from, in which order */
enum latt_zones {
	LATT_ZONES_KERNEL,		/* no ZONE_MOVABLE on the node */
	LATT_ZONES_MOVABLE_AFTER,	/* the kernel's zones, then MOVABLE */
	LATT_ZONES_MOVABLE_FIRST,	/* MOVABLE, then the kernel's zones */
};

/*
 * The node's free pages, and the order to take chunks in: ZONE_MOVABLE
 * first when it holds most of the node's free pages (a CXL or hot-plugged
 * node onlined the default way, with a little ZONE_NORMAL beside), so that
 * a run does not reclaim and compact the kernel's own zones for blocks
 * the movable zone has free; and only while the movable zone stays above
 * twice its high watermark (latt_movable_room()).
 */
static u64 latt_node_free(int node, enum latt_zones *zones)
{
	pg_data_t *pgdat = NODE_DATA(node);
	u64 free = 0, mfree = 0, f;
	struct zone *zone;
	int z;

	*zones = LATT_ZONES_KERNEL;
	for (z = 0; z < MAX_NR_ZONES; z++) {
		zone = &pgdat->node_zones[z];
		if (!populated_zone(zone))
			continue;
		f = zone_page_state(zone, NR_FREE_PAGES);
		free += f;
		if (zone_idx(zone) == ZONE_MOVABLE) {
			*zones = LATT_ZONES_MOVABLE_AFTER;
			mfree = f;
		}
	}
	if (*zones != LATT_ZONES_KERNEL && 2 * mfree > free)
		*zones = LATT_ZONES_MOVABLE_FIRST;
	return free;
}

/* Can ZONE_MOVABLE of @node give a block of @order and stay above twice
 * its high watermark? */
static bool latt_movable_room(int node, u32 order)
{
	struct zone *zone = &NODE_DATA(node)->node_zones[ZONE_MOVABLE];

	return populated_zone(zone) &&
	       zone_page_state(zone, NR_FREE_PAGES) >=
	       2 * high_wmark_pages(zone) + (1UL << order);
}

/*
 * One physically contiguous block of 1 << @shift bytes on @node, from the
 * zones in the order @zones says; *@from_movable is set when it came from
 * ZONE_MOVABLE.  Never from the reserves (__GFP_NOMEMALLOC), never the
 * OOM killer (__GFP_RETRY_MAYFAIL).
 */
static struct page *latt_chunk_alloc(int node, u32 shift,
				     enum latt_zones zones, bool *from_movable)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_THISNODE | __GFP_RETRY_MAYFAIL |
			  __GFP_NOWARN | __GFP_NOMEMALLOC;
	/*
	 * ZONE_MOVABLE takes __GFP_MOVABLE with __GFP_HIGHMEM (the GFP zone
	 * table; without it MOVABLE means NORMAL); there is no highmem on
	 * x86-64: the direct map still covers it
	 */
	const gfp_t mgfp = gfp | __GFP_HIGHMEM | __GFP_MOVABLE;
	const u32 order = shift - PAGE_SHIFT;
	struct page *p = NULL;

	if (zones == LATT_ZONES_MOVABLE_FIRST && latt_movable_room(node, order))
		p = alloc_pages_node(node, mgfp, order);
	if (!p)
		p = alloc_pages_node(node, gfp, order);
	if (!p && zones != LATT_ZONES_KERNEL)
		p = alloc_pages_node(node, mgfp, order);
	/* mgfp may fall back to the node's other zones: the page says */
	if (p && page_zonenum(p) == ZONE_MOVABLE)
		*from_movable = true;
	return p;
}

/*
 * Fill @r with @bytes in chunks of 1 << @shift.  -EAGAIN when a chunk
 * can't be had, -ENOMEM when the tables can't (what was had stays in @r,
 * for the caller to free), -EINTR when the caller is killed meanwhile.
 */
static int latt_chunks_alloc(struct latt_region *r, u64 bytes, int node,
			     u32 shift, enum latt_zones zones)
{
	u64 i, n = DIV_ROUND_UP(bytes, 1ULL << shift);

	r->chunks = kvcalloc(n, sizeof(*r->chunks), LATT_GFP);
	r->addr = kvcalloc(n, sizeof(*r->addr), LATT_GFP);
	if (!r->chunks || !r->addr)
		return -ENOMEM;
	r->node = node;
	r->chunk_shift = shift;
	r->bytes = n << shift;
	for (i = 0; i < n; i++) {
		r->chunks[i] = latt_chunk_alloc(node, shift, zones,
						&r->movable);
		if (!r->chunks[i])
			return -EAGAIN;
		r->addr[i] = page_address(r->chunks[i]);
		r->nchunks = i + 1;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

/**
 * latt_region_alloc() - allocate @bytes (rounded up to chunks) on @node
 * @r: the region to fill
 * @bytes: asked size
 * @node: NUMA node
 * @size: the run's largest access: 2 MiB chunks can't hold one above 2 MiB
 *
 * 4 MiB chunks, or 2 MiB ones for the whole region when a 4 MiB block
 * can't be had (or sysfs max_chunk_kib says so); r->chunk_shift says which.
 *
 * Return: 0; -EINVAL for a node that isn't online or has no memory;
 * -ENOMEM when the node has less free memory than asked or the chunks
 * can't be had (the allocation gives up rather than invoke the OOM
 * killer); -EINTR when the caller is killed meanwhile.  Called in process
 * context; may sleep.
 */
int latt_region_alloc(struct latt_region *r, u64 bytes, int node, u64 size)
{
	u32 shift = READ_ONCE(latt_max_chunk_kib) == LATT_CHUNK >> 10 ?
		    LATT_CHUNK_SHIFT : LATT_CHUNK_MIN_SHIFT;
	u64 pages = round_up(bytes, LATT_CHUNK) >> PAGE_SHIFT;
	enum latt_zones zones;
	int ret;

	memset(r, 0, sizeof(*r));
	if (node < 0 || node >= nr_node_ids || !node_online(node) ||
	    !node_state(node, N_MEMORY))
		return -EINVAL;
	if (pages > node_present_pages(node) ||
	    pages > latt_node_free(node, &zones))
		return -ENOMEM;

	for (;;) {
		if (size > 1ULL << shift)
			return -ENOMEM;		/* it needs 4 MiB blocks */
		ret = latt_chunks_alloc(r, bytes, node, shift, zones);
		if (!ret)
			return 0;
		latt_region_free(r);
		/* only a block that can't be had falls back, not a table */
		if (ret != -EAGAIN)
			return ret;
		if (shift == LATT_CHUNK_MIN_SHIFT)
			return -ENOMEM;
		pr_info("node %d: no free 4 MiB block; taking 2 MiB ones\n",
			node);
		shift = LATT_CHUNK_MIN_SHIFT;
	}
}

/**
 * latt_region_free() - give the memory back; safe on a partial or freed
 * region, DRAM or PMEM
 * @r: the region
 */
void latt_region_free(struct latt_region *r)
{
	u64 i;

	latt_pmem_release(r);
	if (r->chunks)
		for (i = 0; i < r->nchunks; i++) {
			__free_pages(r->chunks[i],
				     r->chunk_shift - PAGE_SHIFT);
			if (!(i & 63))
				cond_resched();
		}
	if (r->map)
		memunmap(r->map);
	if (r->claim)
		fput(r->claim);
	kvfree(r->chunks);
	kvfree(r->addr);
	memset(r, 0, sizeof(*r));
}

static struct latt_chase_node *latt_node(void *ctx, u64 slot)
{
	struct latt_run *run = ctx;

	return (void *)latt_region_addr(&run->region,
					latt_slot_offset_in(slot, run->cfg.size,
						run->region.chunk_shift));
}

/**
 * latt_chase_build() - link every slot into the run's cycle
 * @run: the run, whose region is linked
 * @pat: its pattern (slots, TLB-locality block, and the seeded PRNG)
 * @mc_off: out: where a poisoned node lies (-EHWPOISON)
 *
 * include/lattester/chase.h builds it in place, as the user engine does:
 * one random cycle (Sattolo), or block by block.  Addresses on DRAM,
 * offsets on PMEM, which other processes may write meanwhile.  Every 64Ki
 * steps it lets others run.
 *
 * Its reads of the nodes are machine-check safe (chase.h's latt_chase_rd()).
 *
 * Return: 0; -EINTR when the run is stopped, -ENODEV when its device went
 * away, -EHWPOISON when a read consumed poison, at *@mc_off of the region.
 */
int latt_chase_build(struct latt_run *run, struct latt_pattern *pat,
		     u64 *mc_off)
{
	struct latt_chase ch;

	struct dax_device *dax = run->region.dax;
	int more = 1, id = 0;

	latt_chase_init(&ch, pat, latt_node, run, !!run->region.map);
	while (more) {
		/* a device-DAX target: pinned per batch, as a window is */
		if (dax) {
			id = dax_read_lock();
			if (!dax_alive(dax)) {
				dax_read_unlock(id);
				return -ENODEV;
			}
		}
		more = latt_chase_step(&ch, 1 << 16);
		if (dax)
			dax_read_unlock(id);
		if (unlikely(ch.mc)) {
			*mc_off = latt_region_offset(&run->region, ch.mc);
			return -EHWPOISON;
		}
		cond_resched();
		if (kthread_should_stop() || READ_ONCE(run->halt))
			return -EINTR;
		if (latt_region_gone(&run->region))
			return -ENODEV;
	}
	return 0;
}
