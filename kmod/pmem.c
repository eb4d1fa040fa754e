// SPDX-License-Identifier: GPL-2.0
/*
 * pmem.c - persistent-memory targets: a physical range, checked and mapped
 *
 * The module takes no bare physical range on trust.  A LATT_TARGET_PMEM run
 * names a range and hands over an open file of the device that owns it; the
 * module holds that file for the whole run and accepts the range only when
 *
 *  - the file is a pmem block device (nd_pmem's, on the nd bus; not a
 *    partition, not a BTT "sector" device) that this very file opened
 *    exclusively (O_EXCL: the block layer's holder is the file, so nothing
 *    can mount the device while the run holds it, and a mounted device
 *    could not have been opened so), or a device-DAX character device
 *    (device_dax's);
 *  - the range lies inside one iomem resource of persistent memory (also
 *    legacy e820) or soft-reserved memory, and touches no System RAM;
 *  - for a block device with DAX (fsdax, e820), it lies inside the range
 *    DAX reports for that very device (LATT_RES_DAX).  Raw namespaces have
 *    no DAX; there the iomem check stands alone.
 *
 *  - for a raw namespace (no DAX), it lies inside that very namespace's
 *    range (<linux/nd.h>: the disk's parent is the namespace device);
 *  - for a device-DAX device, the device itself says where the range is:
 *    the caller maps it (latt_config.map_addr), and the pages its mapping
 *    holds there must be exactly [phys, phys + size) -- device_dax's fault
 *    handler translates the file's offsets through the device's own
 *    ranges, so a range of another namespace, of its metadata (a devdax
 *    namespace keeps its struct pages at its start), or of anything else
 *    can't pass;
 *  - for a pmem block device, no known bad block lies in the range (the
 *    disk's badblocks): a load of poison from kernel mode is a machine
 *    check the kernel does not survive.  -EHWPOISON otherwise.
 *    (Device-DAX: its region's bad blocks are lattester-ctl's to check,
 *    through libndctl.)
 *
 * Then the range is mapped with memremap(MEMREMAP_WB), and refused unless
 * the page tables really map it write-back (PCD and PWT clear: index 0 or
 * 4 of the kernel's PAT, both WB): a figure through an uncached mapping
 * would be off by an order of magnitude.  That covers the MTRRs too: where
 * they don't say write-back for the range, the PAT code maps a WB request
 * UC- instead (memtype_reserve() -> pat_x_mtrr_type()), which sets PCD.
 * With PAT off that can't be seen, and the module says so once.  The mapping
 * is the module's own, which stays valid whatever happens to the device
 * meanwhile; a run whose device goes away (a device-DAX namespace disabled
 * under it) stops with -ENODEV at the next window.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/badblocks.h>
#include <linux/blkdev.h>
#include <linux/dax.h>
#include <linux/device.h>
#include <linux/cdev.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/memremap.h>
#include <linux/ioport.h>
#include <linux/module.h>
#include <linux/pfn_t.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/version.h>
#include <asm/memtype.h>
#include <asm/pgtable.h>
#include <linux/nd.h>
#include "lattester.h"

/*
 * nd_pmem's disks: "pmemN", or "pmemN.M" for the second and later
 * namespaces of a region, whose parent is a namespace or pfn device on the
 * nd bus -- with nd_pmem a module or built in.  Not a BTT's "pmemN[.M]s"
 * (whose parent is a btt device), not a partition.
 */
static bool latt_is_pmem_disk(struct block_device *bdev)
{
	struct device *parent = disk_to_dev(bdev->bd_disk)->parent;
	const char *p = bdev->bd_disk->disk_name;

	if (bdev_is_partition(bdev) || strncmp(p, "pmem", 4) || !p[4])
		return false;
	for (p += 4; *p; p++)
		if ((*p < '0' || *p > '9') && *p != '.')
			return false;
	return parent && parent->bus && !strcmp(parent->bus->name, "nd") &&
	       strncmp(dev_name(parent), "btt", 3);
}

/* drivers/dax/super.c exports it, no public header declares it */
struct dax_device *inode_dax(struct inode *inode);

/*
 * A device-DAX character device: device_dax adds its cdev with
 * cdev_device_add(), which makes the dax device (on the "dax" bus) the
 * cdev's parent -- whether device_dax is a module or built in.  Nothing
 * else (a node made with mknod for another driver) passes.
 */
static bool latt_is_dax_cdev(struct file *f)
{
	struct cdev *cdev = file_inode(f)->i_cdev;
	struct device *dev;

	if (!cdev || !cdev->kobj.parent)
		return false;
	dev = kobj_to_dev(cdev->kobj.parent);
	return dev->bus && !strcmp(dev->bus->name, "dax");
}

struct latt_cover {
	u64 start, end;		/* inclusive, as struct resource */
	bool covered;
};

static int latt_cover_cb(struct resource *res, void *arg)
{
	struct latt_cover *c = arg;

	/* walk_iomem_res_desc() hands each match clipped to the range */
	if (res->start == c->start && res->end == c->end)
		c->covered = true;
	return 0;
}

/* Does one iomem resource of @desc hold all of [start, start + size)? */
static bool latt_iomem_covers(u64 start, u64 size, unsigned long desc)
{
	struct latt_cover c = { .start = start, .end = start + size - 1 };

	walk_iomem_res_desc(desc, IORESOURCE_MEM, c.start, c.end, &c,
			    latt_cover_cb);
	return c.covered;
}

static int latt_found_cb(struct resource *res, void *arg)
{
	*(bool *)arg = true;
	return 1;
}

static bool latt_touches_ram(u64 start, u64 size)
{
	bool found = false;

	walk_iomem_res_desc(IORES_DESC_NONE, IORESOURCE_SYSTEM_RAM, start,
			    start + size - 1, &found, latt_found_cb);
	return found;
}

/**
 * latt_pmem_iomem_ok() - is a range under memory a claim may measure?
 * @r: the region, its claim checked (@r->dax set for device-DAX)
 * @phys: first byte
 * @size: bytes
 *
 * Persistent Memory (ACPI NFIT, or a CXL pmem region's namespaces), the
 * legacy e820 type 12 and Soft Reserved (EFI specific-purpose memory) serve
 * every claim.  A CXL window (IORES_DESC_CXL: the CFMWS the platform
 * decodes to CXL.mem) also serves a device-DAX claim: a CXL *ram* region's
 * dax device (dax_cxl) sits there and nowhere else.  That is safe because
 * latt_dax_map_check() then ties every page of the range to this very
 * device through its mapping: the window alone is not trusted.  A block
 * device never gets a range from the window this way: its range comes from
 * DAX and must lie under Persistent Memory.  Memory a window's region
 * onlined as System RAM (kmem) is refused after this by latt_touches_ram().
 *
 * Return: true when one resource of those kinds holds the whole range.
 */
static bool latt_pmem_iomem_ok(const struct latt_region *r, u64 phys,
			       u64 size)
{
	return latt_iomem_covers(phys, size, IORES_DESC_PERSISTENT_MEMORY) ||
	       latt_iomem_covers(phys, size,
				 IORES_DESC_PERSISTENT_MEMORY_LEGACY) ||
	       latt_iomem_covers(phys, size, IORES_DESC_SOFT_RESERVED) ||
	       (r->dax && latt_iomem_covers(phys, size, IORES_DESC_CXL));
}

/**
 * latt_dax_range() - the physical range DAX maps for a block device
 * @bdev: the device
 * @start: out: its first byte
 * @size: out: its bytes
 *
 * pmem is linear: the first page's address and the disk's size give the
 * range, so only the first page is asked for (a bad block elsewhere does
 * not matter here).
 *
 * Return: 0; -EOPNOTSUPP when the device has no DAX at all (a raw
 * namespace); any other error of dax_direct_access() as it is, so that the
 * caller fails rather than skip the check.
 */
static int latt_dax_range(struct block_device *bdev, u64 *start, u64 *size)
{
	struct dax_device *dax;
	u64 start_off = 0;
	void *kaddr;
	long avail;
	pfn_t pfn;
	int id;

	dax = fs_dax_get_by_bdev(bdev, &start_off, NULL, NULL);
	if (!dax)
		return -EOPNOTSUPP;
	id = dax_read_lock();
	avail = dax_direct_access(dax, PHYS_PFN(start_off), 1, DAX_ACCESS,
				  &kaddr, &pfn);
	dax_read_unlock(id);
	fs_put_dax(dax, NULL);
	if (avail < 1)
		return avail < 0 ? (int)avail : -EIO;
	*start = pfn_t_to_phys(pfn);
	*size = bdev_nr_bytes(bdev) - start_off;
	return 0;
}

/*
 * Known bad blocks of @bdev in sectors [first, first + n): -EHWPOISON (and
 * the first one in the log), else 0.
 */
static int latt_check_badblocks(struct block_device *bdev, sector_t first,
				sector_t n)
{
	struct badblocks *bb = bdev->bd_disk->bb;
	sector_t bad_first;
	int bad_len, step;

	if (!bb)
		return 0;
	while (n) {
		step = n > (1 << 30) ? 1 << 30 : (int)n;
		if (badblocks_check(bb, first, step, &bad_first, &bad_len)) {
			pr_warn("%s: a known bad block at sector %llu (%d sectors) in the range asked for: refused\n",
				bdev->bd_disk->disk_name,
				(unsigned long long)bad_first, bad_len);
			return -EHWPOISON;
		}
		first += step;
		n -= step;
	}
	return 0;
}

/*
 * A raw namespace (no DAX): its disk's parent is the namespace device,
 * whose range <linux/nd.h> gives (disk sector 0 is its first byte).  The
 * range must lie inside it -- not in another namespace that the claim does
 * not hold -- and hold no known bad block.  -EINVAL, -EHWPOISON.
 */
static int latt_raw_range(struct block_device *bdev, u64 phys, u64 size)
{
	struct device *parent = disk_to_dev(bdev->bd_disk)->parent;
	struct nd_namespace_io *nsio;

	if (!parent || strncmp(dev_name(parent), "namespace", 9))
		return -EINVAL;
	nsio = to_nd_namespace_io(parent);
	if (phys < nsio->res.start || phys + size - 1 > nsio->res.end)
		return -EINVAL;
	return latt_check_badblocks(bdev, (phys - nsio->res.start) >> SECTOR_SHIFT,
				    DIV_ROUND_UP(size, SECTOR_SIZE));
}

#define LATT_PIN_BATCH	512

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define latt_pin_locked(a, n, f, p)	pin_user_pages(a, n, f, p)
#else
#define latt_pin_locked(a, n, f, p)	pin_user_pages(a, n, f, p, NULL)
#endif

/*
 * Is the caller's mapping at [@uaddr, +@size) one VMA of @claim's device?
 * 0 if so; -EFAULT when nothing is mapped at @uaddr, -EINVAL when what is
 * mapped there is something else, or too short (ioctl.md's table).
 */
static int latt_dax_vma_ours(struct file *claim, u64 uaddr, u64 size)
{
	struct vm_area_struct *vma = vma_lookup(current->mm, uaddr);

	if (!vma)
		return -EFAULT;
	return vma->vm_file && uaddr + size <= vma->vm_end &&
	       S_ISCHR(file_inode(vma->vm_file)->i_mode) &&
	       file_inode(vma->vm_file)->i_rdev == file_inode(claim)->i_rdev ?
	       0 : -EINVAL;
}

/*
 * A device-DAX range, tied to its device: the caller's mapping of @claim
 * at @uaddr must hold, page after page, the pages of [phys, phys + size).
 * Each batch is looked up and pinned under one hold of the mmap lock, so
 * that no other thread can put another device's mapping there between
 * the check of the VMA and the pin.  The pages are pinned only while
 * they are compared (the run pins the device per window:
 * dax_read_lock(), and its pagemaps for the run's life: latt_pmem_hold()).
 * -EINVAL when they are not those (pages the mapping can't fault in
 * included), -EFAULT when nothing is mapped at @uaddr, -ENOMEM.
 */
static int latt_dax_map_check(struct file *claim, u64 uaddr, u64 phys,
			      u64 size, bool writes)
{
	u64 npages = size >> PAGE_SHIFT, done = 0, bad = 0;
	unsigned long bad_pfn = 0;
	bool vma_bad = false;
	struct page **pages;
	long got, i;
	int ret = 0;

	if (!uaddr || !PAGE_ALIGNED(uaddr) || !PAGE_ALIGNED(size) ||
	    uaddr + size < uaddr)
		return -EINVAL;
	pages = kmalloc_array(LATT_PIN_BATCH, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	while (!ret && done < npages) {
		mmap_read_lock(current->mm);
		ret = latt_dax_vma_ours(claim, uaddr, size);
		if (ret) {
			mmap_read_unlock(current->mm);
			vma_bad = true;
			break;
		}
		got = latt_pin_locked(uaddr + (done << PAGE_SHIFT),
				      min_t(u64, npages - done, LATT_PIN_BATCH),
				      writes ? FOLL_WRITE : 0, pages);
		mmap_read_unlock(current->mm);
		/*
		 * the device's own mapping, but its pages can't be had: it
		 * does not back the range (a device shrunk under the
		 * mapping faults with SIGBUS)
		 */
		if (got <= 0) {
			ret = got == -EFAULT || !got ? -EINVAL : (int)got;
			break;
		}
		for (i = 0; i < got && !ret; i++)
			if (page_to_pfn(pages[i]) != PHYS_PFN(phys) + done + i) {
				ret = -EINVAL;
				bad = done + i;
				bad_pfn = page_to_pfn(pages[i]);
			}
		unpin_user_pages(pages, got);
		done += got;
		if (fatal_signal_pending(current))
			ret = -EINTR;
		cond_resched();
	}
	kfree(pages);
	if (ret == -EINVAL && bad_pfn)
		pr_warn("0x%llx: not what the claimed device-DAX maps there (its page %llu is at 0x%llx): refused\n",
			(unsigned long long)phys, bad,
			(unsigned long long)PFN_PHYS(bad_pfn));
	else if (ret == -EINVAL && vma_bad)
		pr_warn("0x%llx: the mapping at map_addr is not the claimed device-DAX's (another file, or too short): refused\n",
			(unsigned long long)phys);
	else if (ret == -EINVAL)
		pr_warn("0x%llx: not what the claimed device-DAX maps there (its page %llu can't be had): refused\n",
			(unsigned long long)phys, done);
	return ret;
}

/* Is the mapping at @addr write-back in the page tables? */
static bool latt_mapped_wb(void *addr)
{
	unsigned int level;
	pte_t *pte = lookup_address((unsigned long)addr, &level);

	return pte && !(pte_flags(*pte) & (_PAGE_PWT | _PAGE_PCD));
}

/* The claim: an exclusively opened pmem disk, or a device-DAX device. */
static int latt_check_claim(struct file *f, struct latt_region *r)
{
	struct inode *inode = file_inode(f);
	struct block_device *bdev;

	if (S_ISCHR(inode->i_mode)) {
		if (!latt_is_dax_cdev(f))
			return -EINVAL;
		/* valid while the file is open: it pins the device */
		r->dax = inode_dax(inode);
		return 0;
	}
	if (!S_ISBLK(inode->i_mode))
		return -EINVAL;
	bdev = I_BDEV(f->f_mapping->host);
	if (!latt_is_pmem_disk(bdev))
		return -EINVAL;
	/* opened with O_EXCL by this very file: the block layer's holder */
	if (READ_ONCE(bdev->bd_holder) != f)
		return -EBUSY;
	r->bdev = bdev;
	return 0;
}

/*
 * Map @r's checked range write-back (memremap()), and point its chunks
 * there.  -ENOMEM; -EOPNOTSUPP when the page tables do not say write-back.
 */
static int latt_pmem_mapit(struct latt_region *r)
{
	u64 i;

	r->map = memremap(r->phys, r->bytes, MEMREMAP_WB);
	if (!r->map)
		return -ENOMEM;
	if (!pat_enabled())
		pr_warn_once("PAT is off: the MTRRs could make a pmem mapping uncached unseen\n");
	if (!latt_mapped_wb(r->map)) {
		pr_warn("0x%llx: memremap() did not map it write-back: refused\n", (unsigned long long)r->phys);
		return -EOPNOTSUPP;
	}
	for (i = 0; i < r->nchunks; i++)
		r->addr[i] = (char *)r->map + (i << LATT_CHUNK_SHIFT);
	return 0;
}

/*
 * What a claim's range must be, a new claim's and a kept device-DAX
 * region's alike: memory a claim may measure (-EINVAL), none of it System
 * RAM (-EBUSY); and for device-DAX held (latt_pmem_hold(), first, so that
 * the device can't give it up after the check) and tied to the claimed
 * device through the caller's mapping at @map_addr (latt_dax_map_check()).
 */
static int latt_pmem_range_ok(struct latt_region *r, u64 phys, u64 size,
			      u64 map_addr, bool writes)
{
	int ret;

	if (!latt_pmem_iomem_ok(r, phys, size))
		return -EINVAL;
	if (latt_touches_ram(phys, size))
		return -EBUSY;
	if (!r->dax)
		return 0;
	r->phys = phys;
	r->bytes = size;
	ret = latt_pmem_hold(r);
	return ret ? ret : latt_dax_map_check(r->claim, map_addr, phys, size,
					      writes);
}

/**
 * latt_pmem_map() - check a PMEM target and map it
 * @r: the region to fill (zeroed by the caller)
 * @phys: first byte
 * @size: bytes
 * @fd: the claim, in the caller's file table
 * @map_addr: a device-DAX claim: where the caller maps @phys through it
 * @writes: the run will overwrite the range (stores, chase)
 * @chase: the run chases pointers (offsets, here) through the range
 *
 * Return: 0; -EBADF for a bad @fd, or one not open for writing when
 * @writes; -EIO (or another error of DAX) when the device's DAX range can't
 * be read; -EHWPOISON for a known bad block in the range (a raw
 * namespace: on the disk); -EOPNOTSUPP when the mapping is not
 * write-back; -EINVAL for a chase over a size that is not a power of two, or
 * for a file that is not a pmem or device-DAX device, or a range outside
 * what it may reach (a device-DAX range that is not what @map_addr maps);
 * -EFAULT when @map_addr is not mapped; -EBUSY for a
 * block device not opened with O_EXCL by this file, or a range that is
 * System RAM; -ENOMEM when the mapping fails.
 */
int latt_pmem_map(struct latt_region *r, u64 phys, u64 size, int fd,
		  u64 map_addr, bool writes, bool chase)
{
	u64 dstart, dsize;
	int ret;

	if (!size || !PAGE_ALIGNED(phys) || phys + size < phys)
		return -EINVAL;
	r->claim = fget(fd);
	if (!r->claim)
		return -EBADF;
	ret = -EBADF;		/* overwriting takes a claim opened for it */
	if (writes && !(r->claim->f_mode & FMODE_WRITE))
		goto fail;
	ret = latt_check_claim(r->claim, r);
	if (ret)
		goto fail;

	ret = latt_pmem_range_ok(r, phys, size, map_addr, writes);
	if (ret)
		goto fail;
	ret = -EINVAL;
	if (!r->dax && map_addr)
		goto fail;	/* only a device-DAX claim has one */
	if (r->bdev) {
		ret = latt_dax_range(r->bdev, &dstart, &dsize);
		if (!ret) {
			ret = -EINVAL;
			if (phys < dstart || phys + size > dstart + dsize)
				goto fail;
			r->dax_checked = true;
			ret = latt_check_badblocks(r->bdev,
						   (phys - dstart) >> SECTOR_SHIFT,
						   DIV_ROUND_UP(size, SECTOR_SIZE));
		} else if (ret == -EOPNOTSUPP) {
			ret = latt_raw_range(r->bdev, phys, size);
		}
		if (ret)
			goto fail;	/* fail closed: no check, no run */
	}

	/* chase on PMEM masks its offsets: a power of two keeps them inside */
	ret = -EINVAL;
	if (chase && !is_power_of_2(size))
		goto fail;

	r->chunk_shift = LATT_CHUNK_SHIFT;
	r->nchunks = DIV_ROUND_UP(size, LATT_CHUNK);
	r->addr = kvcalloc(r->nchunks, sizeof(*r->addr), LATT_GFP);
	if (!r->addr) {
		ret = -ENOMEM;
		goto fail;
	}
	r->bytes = size;
	r->phys = phys;
	r->node = NUMA_NO_NODE;
	ret = latt_pmem_mapit(r);
	if (ret)
		goto fail;
	return 0;

fail:
	latt_region_free(r);
	return ret;
}

/**
 * latt_pmem_recheck() - check a kept PMEM region again for a new run
 * @r: the region, as latt_pmem_map() made it
 * @phys: its first byte
 * @size: its bytes
 * @map_addr: a device-DAX claim: where the caller maps @phys (the same
 *	as when it was kept: latt_kept_matches())
 * @writes: the new run overwrites the range
 *
 * Bad blocks found while it was kept (a scrub, a machine check taken
 * elsewhere) go on the disk's list; a run that took the kept mapping
 * without a look would load them.  A device-DAX device is held by no run
 * while its region is kept (latt_pmem_hold()): meanwhile it may have been
 * unbound, shrunk or moved, bound again, and its old range given to
 * another device or onlined as System RAM, while it is alive again.  So
 * it gets the checks of a new claim: the range is still memory a claim
 * may measure, none of it System RAM, and the caller's mapping of the
 * device at @map_addr still holds exactly its pages; then it is mapped
 * again (latt_pmem_release() unmapped it).  (Device-DAX has no bad block
 * list here: lattester-ctl checks its region's, as for a new run.)
 *
 * Return: 0; -EHWPOISON for a known bad block in the range; -EINVAL or
 * an error of DAX when the disk's range can't be confirmed, or the
 * device no longer maps the range; -EBUSY when it touches System RAM;
 * -EFAULT when nothing is mapped at @map_addr.
 */
int latt_pmem_recheck(struct latt_region *r, u64 phys, u64 size,
		      u64 map_addr, bool writes)
{
	u64 dstart, dsize;
	int ret;

	if (r->dax) {
		ret = latt_pmem_range_ok(r, phys, size, map_addr, writes);
		return ret ? ret : r->map ? 0 : latt_pmem_mapit(r);
	}
	if (!r->bdev)
		return 0;
	if (!r->dax_checked)
		return latt_raw_range(r->bdev, phys, size);
	ret = latt_dax_range(r->bdev, &dstart, &dsize);
	if (ret)
		return ret;
	if (phys < dstart || phys + size > dstart + dsize)
		return -EINVAL;
	return latt_check_badblocks(r->bdev, (phys - dstart) >> SECTOR_SHIFT,
				    DIV_ROUND_UP(size, SECTOR_SIZE));
}

/* the last pfn of @pg's range that holds @pfn; @pfn when none does */
static unsigned long latt_pgmap_last(const struct dev_pagemap *pg,
				     unsigned long pfn)
{
	int i;

	for (i = 0; i < pg->nr_range; i++)
		if (PHYS_PFN(pg->ranges[i].start) <= pfn &&
		    pfn <= PHYS_PFN(pg->ranges[i].end))
			return PHYS_PFN(pg->ranges[i].end);
	return pfn;
}

/**
 * latt_pmem_hold() - hold a PMEM run's range for as long as it runs
 * @r: the region, checked (latt_pmem_map(), or latt_pmem_recheck())
 *
 * A reference on every dev_pagemap of the range (a device-DAX device's;
 * an fsdax disk's, whose pages are ZONE_DEVICE too): memunmap_pages()
 * waits for the last one, so the driver can't let go of the range -- be
 * unbound, shrunk, its range given to another device or onlined as
 * System RAM -- until the run does.  An unbind kills the DAX device first
 * (kill_dax(), then synchronize_srcu() for the window in progress), which
 * the run sees before its next window (latt_window_open(),
 * latt_region_gone()): it stops, and latt_pmem_release() lets the unbind
 * go on.  Taken at START after the checks, given back when the run ends,
 * whether its region is kept or not: a kept region holds no device (an
 * unbind need not wait for the file's close), and is checked again when
 * taken.  A raw namespace has no pages, and nothing to hold here: its disk
 * is held open O_EXCL, which its namespace's disable refuses.
 *
 * For device-DAX it is taken before latt_dax_map_check() ties the range
 * to the claimed device (which then can't give it up between the check
 * and the run), for a disk at START.
 *
 * Return: 0; -EINVAL when a page of a device-DAX range has no live
 * pagemap (no device has it, or its device is going away); -ENOMEM.
 */
int latt_pmem_hold(struct latt_region *r)
{
	unsigned long pfn, last, end;
	struct dev_pagemap *pg, **grown;
	u32 cap = 0;

	if (!r->bytes || (!r->dax && !r->dax_checked) || r->npgmaps)
		return 0;
	pfn = PHYS_PFN(r->phys);
	last = PHYS_PFN(r->phys + r->bytes - 1);
	while (pfn <= last) {
		pg = get_dev_pagemap(pfn, NULL);
		if (!pg) {
			if (!r->dax)
				break;	/* a disk without pages: its claim */
			latt_pmem_release(r);
			return -EINVAL;	/* no device's memory there */
		}
		if (r->npgmaps == cap) {
			cap = cap ? 2 * cap : 4;
			grown = krealloc_array(r->pgmaps, cap, sizeof(*grown),
					       GFP_KERNEL);
			if (!grown) {
				put_dev_pagemap(pg);
				latt_pmem_release(r);
				return -ENOMEM;
			}
			r->pgmaps = grown;
		}
		r->pgmaps[r->npgmaps++] = pg;
		end = latt_pgmap_last(pg, pfn);
		pfn = end + 1;
	}
	return 0;
}

/**
 * latt_pmem_release() - give back what latt_pmem_hold() took, at a run's
 *	end
 * @r: the region, kept or about to be freed
 *
 * A device-DAX region's mapping goes too: kept, it would outlive the
 * device's hold on the range, which may then become another device's or
 * System RAM (an alias of the page allocator's memory, and a memremap()
 * whose memory type the kernel tracked for a range that has since changed
 * hands).  latt_pmem_recheck() maps it again once the range is checked.
 */
void latt_pmem_release(struct latt_region *r)
{
	u32 i;

	for (i = 0; i < r->npgmaps; i++)
		put_dev_pagemap(r->pgmaps[i]);
	kfree(r->pgmaps);
	r->pgmaps = NULL;
	r->npgmaps = 0;
	if (r->dax && r->map) {
		memunmap(r->map);
		r->map = NULL;
	}
}

/**
 * latt_region_gone() - has the device behind a PMEM run gone away?
 * @r: the region
 *
 * A pmem disk can't be taken away while the run holds it open (disabling
 * its namespace fails with EBUSY), but a device-DAX device can: its file
 * stays open, the device dies.  Called between windows; may sleep.
 *
 * Return: true once the region's disk or device-DAX device is dead; false
 * while it lives, and for DRAM.
 */
bool latt_region_gone(const struct latt_region *r)
{
	bool alive;
	int id;

	if (r->bdev)
		return test_bit(GD_DEAD, &r->bdev->bd_disk->state);
	if (!r->dax)
		return false;
	id = dax_read_lock();
	alive = dax_alive(r->dax);
	dax_read_unlock(id);
	return !alive;
}
