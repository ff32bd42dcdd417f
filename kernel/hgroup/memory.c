// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: memory charged to domains.
 *
 * Every domain but domain 0 has a struct hgroup_memory: a page counter
 * whose parent is its parent domain's, so that a charge counts in the
 * domain and every domain above it.  User folios (anonymous, page cache,
 * shmem) are charged where memcg charges them and refunded where memcg
 * refunds them: the helpers in <linux/memcontrol.h> call in here first,
 * in both of their configurations, so that hgroups covers exactly the
 * folios memcg covers, with or without memcg.  The domain charged for a
 * folio is recorded as a 32-bit id in the page_ext of its first page, so
 * that the refund reaches it after migration, splitting and swapping too,
 * and after the domain has ended: the object lives on, a zombie, while a
 * folio, an mm or a per-CPU stock refers to it.
 *
 * Who is charged.  Every mm has a target, mm_struct::hgroup_mem: the
 * domain of the process that made it (fork, exec), moved along when the
 * process starts a domain (set_domainid(), which a process sharing its mm
 * with another cannot call); a folio faulted into an mm is charged to its
 * target, page cache read or written through a system call to the
 * caller's mm's.  A process cannot leave its domain, so an mm's target
 * only ever moves down the tree, and what was charged to it stays below
 * every domain that held it.  The target is read under RCU and pinned
 * with percpu_ref_tryget(): objects are freed a grace period after their
 * last reference, so a charge racing the mm's last user (khugepaged holds
 * no user reference) finds a live object or none.
 *
 * Cost.  Everything is behind a static key that is on while any object
 * exists.  A charge takes pages from a per-CPU stock of the domain it
 * charged last (as memcg's), refilled in batches of %HGROUP_MEM_BATCH
 * pages from the counters; the counters include the stocks, so usage never
 * exceeds a limit, and reading a domain's usage drains every stock first
 * so that it is exact.  A refund may come in interrupt context (the last
 * folio_put() from I/O completion): it touches atomics only.
 *
 * Object lifetime: the domain holds the initial reference of the
 * percpu_ref; every charged folio, every mm whose target it is, every
 * stock caching it and every child's object hold one more.  When the
 * domain is freed the stocks caching it are drained and the reference
 * killed; the last reference frees the object and its id.
 */

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/local_lock.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/oom.h>
#include <linux/page_counter.h>
#include <linux/page_ext.h>
#include <linux/percpu-refcount.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "hgroup.h"

/* Pages a stock takes from the counters at once. */
#define HGROUP_MEM_BATCH	64U

/* Reclaim attempts without progress before the OOM killer, as memcg's. */
#define HGROUP_MEM_RETRIES	16

/* Events, counted in the domain and (hierarchically) in those above. */
enum hgroup_mem_event {
	HGROUP_MEM_EV_MAX,		/* a charge hit the hard limit */
	HGROUP_MEM_EV_RECLAIM,		/* the limit's reclaim ran */
	HGROUP_MEM_EV_OOM,		/* reclaim failed: OOM killer asked */
	HGROUP_MEM_EV_OOM_KILL,		/* a process was killed for memory */
	HGROUP_MEM_NR_EVENTS,
};

/**
 * struct hgroup_memory - the memory charged to one domain
 * @counter: pages charged to the domain and its sub-domains, and held in
 *	stocks for them; its parent is @parent's.
 * @ref: pins the object: see the top of this file.
 * @id: the name of the object in page_ext, 1 to %HGROUP_DOMAIN_ID_MAX.
 * @parent: the object of the parent domain, referenced; NULL below
 *	domain 0.
 * @offline_work: drains the stocks caching the object when its domain
 *	ends, then kills @ref.
 * @free_work: frees the object a grace period after @ref reached zero.
 * @soft: the soft limit in pages, 0 for none; written as the hard limit,
 *	read with READ_ONCE().  Dropped when the domain ends.
 * @events: the events of the domain, by enum hgroup_mem_event.
 * @subtree_events: the same, of the domain and every domain below it.
 *
 * The hard limit is @counter's max, in pages; written with the domain's
 * mutex and tasklist_lock (for reading) held, read with READ_ONCE().
 */
struct hgroup_memory {
	struct page_counter counter;
	struct percpu_ref ref;
	u32 id;
	struct hgroup_memory *parent;
	struct work_struct offline_work;
	struct rcu_work free_work;
	unsigned long soft;
	atomic_long_t events[HGROUP_MEM_NR_EVENTS];
	atomic_long_t subtree_events[HGROUP_MEM_NR_EVENTS];
};

DEFINE_STATIC_KEY_DEFERRED_FALSE(hgroup_mem_key, HZ);

/* Objects with a soft limit: global reclaim looks at folios' owners. */
atomic_t hgroup_mem_nr_soft = ATOMIC_INIT(0);

/* Objects by id; looked up under RCU by refunds. */
static DEFINE_XARRAY_FLAGS(hgroup_mem_ids, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);

/* Live objects, and those whose domain has ended. */
static atomic_long_t hgroup_nr_mem = ATOMIC_LONG_INIT(0);
static atomic_long_t hgroup_nr_mem_zombies = ATOMIC_LONG_INIT(0);

/* Boot parameter hgroup_memory=off: no page_ext, no charging. */
static bool hgroup_mem_off __initdata;
static bool hgroup_mem_enabled __ro_after_init;

static int __init hgroup_mem_setup(char *s)
{
	bool on;

	if (kstrtobool(s, &on))
		return 0;
	hgroup_mem_off = !on;
	return 1;
}
__setup("hgroup_memory=", hgroup_mem_setup);

static bool __init hgroup_mem_need(void)
{
	return !hgroup_mem_off;
}

static void __init hgroup_mem_ext_init(void)
{
	hgroup_mem_enabled = true;
}

struct page_ext_operations hgroup_mem_ext_ops = {
	.size = sizeof(u32),
	.need = hgroup_mem_need,
	.init = hgroup_mem_ext_init,
	.need_shared_flags = false,
};

/**
 * struct hgroup_mem_stock - pages charged ahead on one CPU
 * @lock: protects the rest; charges run in task context only.
 * @cached: the object the pages are charged to, referenced; or NULL.
 * @nr_pages: pages charged to @cached and not yet handed out.
 * @work: drains the stock on its CPU, for hgroup_mem_drain().
 */
struct hgroup_mem_stock {
	local_lock_t lock;
	struct hgroup_memory *cached;
	unsigned int nr_pages;
	struct work_struct work;
};

static DEFINE_PER_CPU(struct hgroup_mem_stock, hgroup_mem_stock) = {
	.lock = INIT_LOCAL_LOCK(lock),
};

/* Serialises drains of every CPU's stock. */
static DEFINE_MUTEX(hgroup_mem_drain_mutex);

/*
 * Where the owner id of @page's folio is kept, under rcu_read_lock():
 * NULL if the page has no page_ext (device memory, memory being added).
 * Every charge and refund looks it up: with SPARSEMEM inline, without
 * page_ext_get()'s call and page_ext_put()'s.
 */
static u32 *hgroup_mem_id_slot(struct page *page)
{
	struct page_ext *ext;
#ifdef CONFIG_SPARSEMEM
	unsigned long pfn = page_to_pfn(page);

	ext = page_ext_from_section(READ_ONCE(__pfn_to_section(pfn)->page_ext),
				    pfn);
#else
	/* The caller's RCU read lock keeps it after page_ext_put(). */
	ext = page_ext_get(page);
	page_ext_put(ext);
#endif
	return ext ? page_ext_data(ext, &hgroup_mem_ext_ops) : NULL;
}

/*
 * Give @page's folio the owner @id; 0 clears it.  False if the page has
 * no page_ext: it cannot be charged.
 */
static bool hgroup_mem_set_id(struct page *page, u32 id)
{
	u32 *slot;

	rcu_read_lock();
	slot = hgroup_mem_id_slot(page);
	if (slot)
		WRITE_ONCE(*slot, id);
	rcu_read_unlock();
	return slot;
}

/* The owner id of @page's folio, cleared if @take; 0 for none. */
static u32 hgroup_mem_get_id(struct page *page, bool take)
{
	u32 *slot, id = 0;

	rcu_read_lock();
	slot = hgroup_mem_id_slot(page);
	if (slot) {
		id = READ_ONCE(*slot);
		if (id && take)
			WRITE_ONCE(*slot, 0);
	}
	rcu_read_unlock();
	return id;
}

/*
 * The object of @id: the caller holds a reference by a folio still
 * charged to it, so it exists.
 */
static struct hgroup_memory *hgroup_mem_from_id(u32 id)
{
	struct hgroup_memory *hm;

	rcu_read_lock();
	hm = xa_load(&hgroup_mem_ids, id);
	rcu_read_unlock();
	WARN_ON_ONCE(!hm);
	return hm;
}

static struct hgroup_memory *hgroup_mem_get(struct hgroup_memory *hm)
{
	if (hm)
		percpu_ref_get(&hm->ref);
	return hm;
}

static void hgroup_mem_put(struct hgroup_memory *hm)
{
	if (hm)
		percpu_ref_put(&hm->ref);
}

/* Give the stock's pages back; stock lock held. */
static void hgroup_mem_drain_stock(struct hgroup_mem_stock *stock)
{
	struct hgroup_memory *old = stock->cached;

	if (!old)
		return;
	if (stock->nr_pages)
		page_counter_uncharge(&old->counter, stock->nr_pages);
	stock->nr_pages = 0;
	stock->cached = NULL;
	hgroup_mem_put(old);
}

static void hgroup_mem_drain_work(struct work_struct *work)
{
	struct hgroup_mem_stock *stock;

	local_lock(&hgroup_mem_stock.lock);
	stock = this_cpu_ptr(&hgroup_mem_stock);
	hgroup_mem_drain_stock(stock);
	local_unlock(&hgroup_mem_stock.lock);
}

/* Is @hm @root or below it?  RCU held, or references to both. */
static bool hgroup_mem_below(struct hgroup_memory *hm,
			     struct hgroup_memory *root)
{
	for (; hm; hm = hm->parent)
		if (hm == root)
			return true;
	return false;
}

/*
 * Drain the stocks of every CPU that caches @root or an object below it,
 * as they count in @root's counter, and wait for them, if @wait.  May
 * sleep.  Without @wait (a charge at its limit) it does not wait for
 * another drain to finish either, as memcg's drain_all_stock().
 */
static void __hgroup_mem_drain(struct hgroup_memory *root, bool wait)
{
	struct hgroup_memory *cached;
	int cpu;

	if (wait)
		mutex_lock(&hgroup_mem_drain_mutex);
	else if (!mutex_trylock(&hgroup_mem_drain_mutex))
		return;
	/*
	 * No cpus_read_lock(): a charge drains with the mmap_lock held,
	 * which CPU hotplug (through cpuset) nests inside.  A CPU going
	 * away meanwhile has its stock drained when it is dead; the work
	 * queued for it then runs elsewhere and drains a stock that may
	 * as well be drained, as memcg's drain_all_stock() reasons.
	 */
	for_each_online_cpu(cpu) {
		struct hgroup_mem_stock *stock = per_cpu_ptr(&hgroup_mem_stock,
							     cpu);
		bool match;

		/* Objects are freed a grace period after their last use. */
		rcu_read_lock();
		cached = READ_ONCE(stock->cached);
		match = hgroup_mem_below(cached, root);
		rcu_read_unlock();
		if (match)
			schedule_work_on(cpu, &stock->work);
	}
	/* Waiting on a work that is not queued returns at once. */
	if (wait)
		for_each_online_cpu(cpu)
			flush_work(&per_cpu_ptr(&hgroup_mem_stock, cpu)->work);
	mutex_unlock(&hgroup_mem_drain_mutex);
}

static void hgroup_mem_drain(struct hgroup_memory *root)
{
	__hgroup_mem_drain(root, true);
}

/* Count event @ev of @hm: its own, and in the subtree of each above. */
static void hgroup_mem_event(struct hgroup_memory *hm,
			     enum hgroup_mem_event ev)
{
	atomic_long_inc(&hm->events[ev]);
	for (; hm; hm = hm->parent)
		atomic_long_inc(&hm->subtree_events[ev]);
}

/* Pages @hm may still be charged, by its own limit and those above. */
static unsigned long hgroup_mem_margin(struct hgroup_memory *hm)
{
	unsigned long margin = PAGE_COUNTER_MAX, usage, max;

	for (; hm; hm = hm->parent) {
		usage = page_counter_read(&hm->counter);
		max = READ_ONCE(hm->counter.max);
		margin = min(margin, usage < max ? max - usage : 0);
	}
	return margin;
}

/*
 * Is @folio charged to @arg, or below it?  Called by the reclaim with an
 * LRU lock held: a folio on an LRU list is not freed yet, so the object
 * it is charged to is alive.
 */
static bool hgroup_mem_owned(struct folio *folio, void *arg)
{
	u32 id = hgroup_mem_get_id(&folio->page, false);
	struct hgroup_memory *hm;

	if (!id)
		return false;
	hm = xa_load(&hgroup_mem_ids, id);
	return hgroup_mem_below(hm, arg);
}

/* A task being killed or exiting: the OOM killer has done its part. */
static bool hgroup_mem_task_dying(void)
{
	return tsk_is_oom_victim(current) || fatal_signal_pending(current) ||
	       (current->flags & PF_EXITING);
}

/*
 * The OOM killer, within @over's domain and those below it: false if it
 * found nothing to kill.  Only for small allocations, as for memcg.
 */
static bool hgroup_mem_oom(struct hgroup_memory *over, gfp_t gfp, int order)
{
	struct oom_control oc = {
		.hgroup = over,
		.gfp_mask = gfp,
		.order = order,
	};
	bool ret = true;

	if (order > PAGE_ALLOC_COSTLY_ORDER)
		return false;
	hgroup_mem_event(over, HGROUP_MEM_EV_OOM);
	if (mutex_lock_killable(&oom_lock))
		return true;
	if (hgroup_mem_margin(over) >= (1U << order))
		goto unlock;
	ret = hgroup_mem_task_dying() || out_of_memory(&oc);
unlock:
	mutex_unlock(&oom_lock);
	return ret;
}

/* A CPU that is dead gives its stock back; nothing runs there. */
static int hgroup_mem_cpu_dead(unsigned int cpu)
{
	hgroup_mem_drain_stock(per_cpu_ptr(&hgroup_mem_stock, cpu));
	return 0;
}

/* Take @nr pages from this CPU's stock if it holds them for @hm. */
static bool hgroup_mem_consume_stock(struct hgroup_memory *hm,
				     unsigned int nr)
{
	struct hgroup_mem_stock *stock;
	bool ret = false;

	if (nr > HGROUP_MEM_BATCH)
		return false;
	local_lock(&hgroup_mem_stock.lock);
	stock = this_cpu_ptr(&hgroup_mem_stock);
	if (stock->cached == hm && stock->nr_pages >= nr) {
		stock->nr_pages -= nr;
		ret = true;
	}
	local_unlock(&hgroup_mem_stock.lock);
	return ret;
}

/* Put @nr pages charged to @hm into this CPU's stock. */
static void hgroup_mem_refill_stock(struct hgroup_memory *hm,
				    unsigned int nr)
{
	struct hgroup_mem_stock *stock;

	local_lock(&hgroup_mem_stock.lock);
	stock = this_cpu_ptr(&hgroup_mem_stock);
	if (stock->cached != hm) {
		hgroup_mem_drain_stock(stock);
		stock->cached = hgroup_mem_get(hm);
	}
	stock->nr_pages += nr;
	if (stock->nr_pages > HGROUP_MEM_BATCH) {
		page_counter_uncharge(&hm->counter,
				      stock->nr_pages - HGROUP_MEM_BATCH);
		stock->nr_pages = HGROUP_MEM_BATCH;
	}
	local_unlock(&hgroup_mem_stock.lock);
}

/*
 * Charge @nr pages to @hm and every object above it.  At a limit: reclaim
 * the folios charged there, drain the stocks, retry while reclaim makes
 * progress, then the OOM killer within the domain whose limit was hit,
 * then fail, in the order and with the exceptions of memcg's
 * try_charge_memcg().  Charges that must not fail (__GFP_NOFAIL,
 * __GFP_HIGH, and reclaimers) go over the limit.
 */
static int hgroup_mem_try_charge(struct hgroup_memory *hm, unsigned int nr,
				 gfp_t gfp)
{
	unsigned int batch = max(HGROUP_MEM_BATCH, nr);
	int retries = HGROUP_MEM_RETRIES;
	bool drained = false, passed_oom = false;
	struct hgroup_memory *over;
	struct page_counter *fail;
	unsigned long reclaimed;

	if (hgroup_mem_consume_stock(hm, nr))
		return 0;
retry:
	if (page_counter_try_charge(&hm->counter, batch, &fail)) {
		if (batch > nr)
			hgroup_mem_refill_stock(hm, batch - nr);
		return 0;
	}
	if (batch > nr) {
		batch = nr;
		goto retry;
	}
	over = container_of(fail, struct hgroup_memory, counter);
	hgroup_mem_event(over, HGROUP_MEM_EV_MAX);
	/* Reclaim allocating must not recurse into reclaim: let it pass. */
	if (unlikely(current->flags & PF_MEMALLOC))
		goto force;
	if (!gfpflags_allow_blocking(gfp))
		goto nomem;
	if (passed_oom && hgroup_mem_task_dying())
		goto nomem;
	hgroup_mem_event(over, HGROUP_MEM_EV_RECLAIM);
	reclaimed = reclaim_owned_folios(hgroup_mem_owned, over,
					 max(nr, SWAP_CLUSTER_MAX), gfp);
	if (hgroup_mem_margin(hm) >= nr)
		goto retry;
	if (!drained) {
		__hgroup_mem_drain(over, false);
		drained = true;
		goto retry;
	}
	if (gfp & __GFP_NORETRY)
		goto nomem;
	if (reclaimed && nr <= (1U << PAGE_ALLOC_COSTLY_ORDER))
		goto retry;
	if (gfp & __GFP_RETRY_MAYFAIL)
		goto nomem;
	if (retries--)
		goto retry;
	if (hgroup_mem_oom(over, gfp, get_order(nr * PAGE_SIZE))) {
		passed_oom = true;
		retries = HGROUP_MEM_RETRIES;
		goto retry;
	}
nomem:
	if (!(gfp & (__GFP_NOFAIL | __GFP_HIGH)))
		return -ENOMEM;
force:
	page_counter_charge(&hm->counter, nr);
	return 0;
}

/* Refund @nr pages of @nr_folios folios charged to @id. */
static void hgroup_mem_refund(u32 id, unsigned long nr,
			      unsigned long nr_folios)
{
	struct hgroup_memory *hm = hgroup_mem_from_id(id);

	if (!hm)
		return;
	page_counter_uncharge(&hm->counter, nr);
	percpu_ref_put_many(&hm->ref, nr_folios);
}

/**
 * __hgroup_mem_charge - charge a new folio to a domain
 * @folio: the folio, not yet charged nor mapped.
 * @mm: the mm it is for, or NULL for the caller's.
 * @gfp: how it was allocated.
 *
 * Called from mem_cgroup_charge() and the swap-in charge.
 *
 * Return: 0, also when nobody is to be charged; -ENOMEM.
 */
int __hgroup_mem_charge(struct folio *folio, struct mm_struct *mm, gfp_t gfp)
{
	unsigned int nr = folio_nr_pages(folio);
	struct hgroup_memory *hm;
	int ret;

	if (!mm)
		mm = current->mm;
	if (!mm)
		return 0;
	/* The folio holds the reference taken here. */
	rcu_read_lock();
	hm = rcu_dereference(mm->hgroup_mem);
	if (hm && !percpu_ref_tryget(&hm->ref))
		hm = NULL;
	rcu_read_unlock();
	if (!hm)
		return 0;
	ret = hgroup_mem_try_charge(hm, nr, gfp);
	if (!ret && hgroup_mem_set_id(&folio->page, hm->id))
		return 0;
	/* Refused, or memory with no page_ext, which cannot be charged. */
	if (!ret)
		page_counter_uncharge(&hm->counter, nr);
	hgroup_mem_put(hm);
	return ret;
}

/**
 * __hgroup_mem_uncharge - refund a folio being freed
 * @folio: the folio; any context.
 */
void __hgroup_mem_uncharge(struct folio *folio)
{
	u32 id = hgroup_mem_get_id(&folio->page, true);

	if (id)
		hgroup_mem_refund(id, folio_nr_pages(folio), 1);
}

/**
 * __hgroup_mem_uncharge_folios - refund a batch of folios being freed
 * @folios: the folios; any context.
 *
 * Folios of the same domain next to each other are refunded at once.
 */
void __hgroup_mem_uncharge_folios(struct folio_batch *folios)
{
	unsigned long nr = 0, nr_folios = 0;
	u32 run = 0;
	unsigned int i;

	for (i = 0; i < folios->nr; i++) {
		struct folio *folio = folios->folios[i];
		u32 id = hgroup_mem_get_id(&folio->page, true);

		if (!id)
			continue;
		if (id != run && run) {
			hgroup_mem_refund(run, nr, nr_folios);
			nr = 0;
			nr_folios = 0;
		}
		run = id;
		nr += folio_nr_pages(folio);
		nr_folios++;
	}
	if (run)
		hgroup_mem_refund(run, nr, nr_folios);
}

/**
 * __hgroup_mem_migrate - a folio's contents moved to a new folio
 * @old: the folio migrated, to be freed.
 * @new: the folio that replaces it.
 *
 * The charge moves with the contents; no counter changes.
 */
void __hgroup_mem_migrate(struct folio *old, struct folio *new)
{
	u32 id = hgroup_mem_get_id(&old->page, true);

	/* Device memory has no page_ext: the charge ends there. */
	if (id && !hgroup_mem_set_id(&new->page, id))
		hgroup_mem_refund(id, folio_nr_pages(old), 1);
}

/**
 * __hgroup_mem_replace - a folio replaces another in the page cache
 * @old: the folio replaced, still charged until it is freed.
 * @new: the new folio, charged to @old's owner whatever its limit, as
 *	mem_cgroup_replace_folio() does; unless it is charged already (a
 *	page-cache folio a FUSE server moved in with splice()).
 */
void __hgroup_mem_replace(struct folio *old, struct folio *new)
{
	u32 id = hgroup_mem_get_id(&old->page, false);
	struct hgroup_memory *hm;

	if (!id || hgroup_mem_get_id(&new->page, false))
		return;
	hm = hgroup_mem_from_id(id);
	if (!hm || !hgroup_mem_set_id(&new->page, id))
		return;
	page_counter_charge(&hm->counter, folio_nr_pages(new));
	hgroup_mem_get(hm);
}

/**
 * __hgroup_mem_split - a large folio is split into smaller ones
 * @head: its first page.
 * @old_order: its order.
 * @new_order: the order of the new folios.
 *
 * Each new folio is charged to the same owner and holds a reference of
 * its own.
 */
void __hgroup_mem_split(struct page *head, int old_order, int new_order)
{
	unsigned long step = 1UL << new_order, i;
	u32 id = hgroup_mem_get_id(head, false);
	struct hgroup_memory *hm;

	if (!id || old_order <= new_order)
		return;
	hm = hgroup_mem_from_id(id);
	if (!hm)
		return;
	for (i = step; i < 1UL << old_order; i += step)
		hgroup_mem_set_id(head + i, id);
	percpu_ref_get_many(&hm->ref, (1UL << (old_order - new_order)) - 1);
}

/**
 * __hgroup_mem_charged - is a page being freed still charged?
 * @page: the page; for %CONFIG_DEBUG_VM's check in free_pages_prepare().
 *
 * Return: true if it is, which is a bug: the charge would be lost.
 */
bool __hgroup_mem_charged(struct page *page)
{
	return hgroup_mem_get_id(page, false);
}

/**
 * hgroup_mem_oom_pages - the limit an OOM kill for a domain is about
 * @hm: the domain's memory object.
 *
 * Return: its hard limit in pages, for the badness of the candidates.
 */
unsigned long hgroup_mem_oom_pages(struct hgroup_memory *hm)
{
	return READ_ONCE(hm->counter.max);
}

/**
 * hgroup_mem_oom_eligible - may the OOM killer for a domain take a task?
 * @p: a candidate; RCU held.
 * @hm: the domain's memory object.
 *
 * Return: true if @p's memory is charged to @hm's domain or below it.
 */
bool hgroup_mem_oom_eligible(struct task_struct *p, struct hgroup_memory *hm)
{
	struct task_struct *t;
	bool ret;

	/*
	 * find_lock_task_mm() open-coded: it returns with a lock taken
	 * that sparse is not told about, and this file is sparse clean.
	 */
	for_each_thread(p, t) {
		task_lock(t);
		if (t->mm) {
			ret = hgroup_mem_below(rcu_dereference(t->mm->hgroup_mem),
					       hm);
			task_unlock(t);
			return ret;
		}
		task_unlock(t);
	}
	return false;
}

/**
 * hgroup_mem_oom_kill_event - a process is killed for want of memory
 * @mm: its mm; the kill counts in the domain charged for it.
 */
void hgroup_mem_oom_kill_event(struct mm_struct *mm)
{
	struct hgroup_memory *hm;

	rcu_read_lock();
	hm = rcu_dereference(mm->hgroup_mem);
	if (hm)
		hgroup_mem_event(hm, HGROUP_MEM_EV_OOM_KILL);
	rcu_read_unlock();
}

/* The object the members of @d charge, or NULL; RCU or a reference. */
static struct hgroup_memory *hgroup_domain_mem(struct hgroup_domain *d)
{
	return d ? READ_ONCE(d->mem) : NULL;
}

/* Make @mm's target @hm (referenced by the caller, who gives it up). */
static void hgroup_mem_retarget(struct mm_struct *mm, struct hgroup_memory *hm)
{
	hgroup_mem_put(unrcu_pointer(xchg(&mm->hgroup_mem,
					  RCU_INITIALIZER(hm))));
}

/* @mm's target; the caller keeps it from changing or holds RCU. */
static struct hgroup_memory *hgroup_mem_target(struct mm_struct *mm)
{
	return rcu_dereference_check(mm->hgroup_mem, true);
}

/**
 * hgroup_mem_mm_init - a new mm is charged to its maker's domain
 * @mm: the mm, being set up by fork or exec, or for the kernel's use.
 */
void hgroup_mem_mm_init(struct mm_struct *mm)
{
	struct hgroup *hg;

	rcu_read_lock();
	hg = task_hgroup(current);
	RCU_INIT_POINTER(mm->hgroup_mem,
			 hgroup_mem_get(hg ? hgroup_domain_mem(hg->domain) :
					NULL));
	rcu_read_unlock();
}

/**
 * hgroup_mem_mm_drop - an mm's memory is gone
 * @mm: the mm, after exit_mmap() or being freed: nothing faults into it
 *	any more.
 *
 * Called when its last user goes, not when the struct is freed: an idle
 * CPU may hold the struct (lazy TLB) for long after, which would keep an
 * ended domain's object alive for nothing.
 */
void hgroup_mem_mm_drop(struct mm_struct *mm)
{
	hgroup_mem_retarget(mm, NULL);
}

/**
 * hgroup_mem_exec - the mm of an exec is charged to the caller's domain
 * @mm: the new mm.
 *
 * Called after de_thread(): the mm was made before, while another thread
 * could still move the process into a new domain.
 */
void hgroup_mem_exec(struct mm_struct *mm)
{
	struct hgroup_memory *hm;

	rcu_read_lock();
	hm = hgroup_domain_mem(task_hgroup(current)->domain);
	if (hgroup_mem_target(mm) != hm)
		hgroup_mem_retarget(mm, hgroup_mem_get(hm));
	rcu_read_unlock();
}

/**
 * hgroup_mem_fork - a new process's mm is charged to its domain
 * @p: the new process, joining @d; tasklist_lock held for writing.
 * @d: its domain.
 *
 * Its mm was made before the lock, from its creator's domain, which the
 * creator may have left for a new one meanwhile.  An mm it shares with
 * its creator is the creator's business.
 */
void hgroup_mem_fork(struct task_struct *p, struct hgroup_domain *d)
{
	struct hgroup_memory *hm = hgroup_domain_mem(d);

	if (p->mm && p->mm != current->mm && hgroup_mem_target(p->mm) != hm)
		hgroup_mem_retarget(p->mm, hgroup_mem_get(hm));
}

/**
 * hgroup_mem_enter - the caller's mm is charged to its new domain
 * @d: the domain the caller has just started; tasklist_lock held.
 *
 * No other process shares the mm: set_domainid() refuses that.
 */
void hgroup_mem_enter(struct hgroup_domain *d)
{
	struct mm_struct *mm = current->mm;

	if (mm)
		hgroup_mem_retarget(mm, hgroup_mem_get(hgroup_domain_mem(d)));
}

/*
 * Soft limits.  While memory is plentiful they do nothing.  Global
 * reclaim (kswapd, and an allocation's direct reclaim; not a hard
 * limit's) passes over the folios of a domain within its soft limit,
 * and takes those of a domain over it with a chance of its excess over
 * its usage: a domain far over its soft limit gives memory up at about
 * the rate of one that has none, one just over it hardly any.  A folio
 * is kept only if every domain on its way up with a soft limit keeps it.
 * When a pass of reclaim found nothing else, the next one takes them all
 * (memcg's memory.low retry).
 */

/* Set the soft limit of @hm to @soft pages, 0 for none. */
static void hgroup_mem_set_soft(struct hgroup_memory *hm, unsigned long soft)
{
	unsigned long old = xchg(&hm->soft, soft);

	if (soft && !old)
		atomic_inc(&hgroup_mem_nr_soft);
	else if (!soft && old)
		atomic_dec(&hgroup_mem_nr_soft);
}

/**
 * __hgroup_mem_soft_protected - does global reclaim pass a folio over?
 * @folio: a folio on an LRU list, its LRU lock held.
 *
 * Every domain the folio counts in that has a soft limit must keep it:
 * always if within the limit, else with a chance of the soft limit over
 * the usage.  A domain's protection so never goes beyond the one above
 * (sub-domains within their own soft limits do not add up to more).
 *
 * Return: true if the folio is to be passed over.
 */
bool __hgroup_mem_soft_protected(struct folio *folio)
{
	u32 id = hgroup_mem_get_id(&folio->page, false);
	unsigned long soft, usage;
	struct hgroup_memory *hm;
	bool ret = false;

	if (!id)
		return false;
	rcu_read_lock();
	for (hm = xa_load(&hgroup_mem_ids, id); hm; hm = hm->parent) {
		soft = READ_ONCE(hm->soft);
		if (!soft)
			continue;
		usage = min_t(unsigned long, page_counter_read(&hm->counter),
			      U32_MAX);
		if (usage > soft && get_random_u32_below(usage) < usage - soft) {
			ret = false;
			break;
		}
		ret = true;
	}
	rcu_read_unlock();
	return ret;
}

/* A grace period after the last reference: no charge can find it. */
static void hgroup_mem_free_work(struct work_struct *work)
{
	struct hgroup_memory *hm = container_of(to_rcu_work(work),
						struct hgroup_memory,
						free_work);

	xa_erase_irq(&hgroup_mem_ids, hm->id);
	hgroup_mem_set_soft(hm, 0);
	hgroup_mem_put(hm->parent);
	percpu_ref_exit(&hm->ref);
	kfree(hm);
	atomic_long_dec(&hgroup_nr_mem_zombies);
	atomic_long_dec(&hgroup_nr_mem);
	static_branch_slow_dec_deferred(&hgroup_mem_key);
}

/* The last reference is gone; any context. */
static void hgroup_mem_release(struct percpu_ref *ref)
{
	struct hgroup_memory *hm = container_of(ref, struct hgroup_memory, ref);

	WARN_ON_ONCE(page_counter_read(&hm->counter));
	queue_rcu_work(system_wq, &hm->free_work);
}

static void hgroup_mem_offline_work(struct work_struct *work)
{
	struct hgroup_memory *hm = container_of(work, struct hgroup_memory,
						offline_work);

	hgroup_mem_drain(hm);
	/* What an ended domain left behind is not protected. */
	hgroup_mem_set_soft(hm, 0);
	percpu_ref_kill(&hm->ref);
}

/**
 * hgroup_mem_alloc - make the memory object of a domain to be
 *
 * Called by set_domainid() before it takes tasklist_lock; the object is
 * linked to its parent with hgroup_mem_domain_init().
 *
 * Return: the object; NULL if memory is not charged (hgroup_memory=off);
 * an ERR_PTR(): -ENOMEM, or -EAGAIN when every id is taken.
 */
struct hgroup_memory *hgroup_mem_alloc(void)
{
	struct hgroup_memory *hm;
	int ret;

	if (!hgroup_mem_enabled)
		return NULL;
	hm = kzalloc(sizeof(*hm), GFP_KERNEL_ACCOUNT);
	if (!hm)
		return ERR_PTR(-ENOMEM);
	ret = percpu_ref_init(&hm->ref, hgroup_mem_release, 0,
			      GFP_KERNEL_ACCOUNT);
	if (ret)
		goto out_free;
	ret = xa_alloc_irq(&hgroup_mem_ids, &hm->id, hm,
			   XA_LIMIT(1, HGROUP_DOMAIN_ID_MAX), GFP_KERNEL);
	if (ret) {
		/* As many as there can be domains. */
		ret = ret == -EBUSY ? -EAGAIN : ret;
		goto out_exit;
	}
	INIT_WORK(&hm->offline_work, hgroup_mem_offline_work);
	INIT_RCU_WORK(&hm->free_work, hgroup_mem_free_work);
	page_counter_init(&hm->counter, NULL, false);
	atomic_long_inc(&hgroup_nr_mem);
	static_branch_deferred_inc(&hgroup_mem_key);
	return hm;

out_exit:
	percpu_ref_exit(&hm->ref);
out_free:
	kfree(hm);
	return ERR_PTR(ret);
}

/**
 * hgroup_mem_free_unused - free an object hgroup_mem_domain_init() did
 *	not take
 * @hm: the object, or NULL or an ERR_PTR().
 */
void hgroup_mem_free_unused(struct hgroup_memory *hm)
{
	if (IS_ERR_OR_NULL(hm))
		return;
	atomic_long_inc(&hgroup_nr_mem_zombies);
	percpu_ref_kill(&hm->ref);
}

/**
 * hgroup_mem_domain_init - a new domain takes its memory object
 * @d: the new domain, not yet linked; tasklist_lock held.
 * @hm: from hgroup_mem_alloc().
 */
void hgroup_mem_domain_init(struct hgroup_domain *d, struct hgroup_memory *hm)
{
	if (!hm)
		return;
	hm->parent = hgroup_mem_get(hgroup_domain_mem(d->parent));
	page_counter_init(&hm->counter,
			  hm->parent ? &hm->parent->counter : NULL, false);
	d->mem = hm;
}

/**
 * hgroup_mem_domain_release - a domain is freed
 * @d: the domain; any context.
 *
 * Its object stays while anything is charged to it.
 */
void hgroup_mem_domain_release(struct hgroup_domain *d)
{
	struct hgroup_memory *hm = d->mem;

	if (!hm)
		return;
	atomic_long_inc(&hgroup_nr_mem_zombies);
	schedule_work(&hm->offline_work);
}

/*
 * HGROUP_ATTR_MEM, a property of the domain.  Lowering the hard limit is
 * tightening, raising it lifting.  A new limit is set at once (charges
 * above it fail from then on) and then, after the locks, reclaimed down
 * to, as a write of memory.max does: reclaim, then the OOM killer within
 * the domain, until the usage is under it or nothing is left to kill.
 * The usage is read after the locks are dropped, once the stocks that
 * count in it are drained.
 */

/* The hard limit of @hg's domain in pages; domain 0 has none. */
static unsigned long hgroup_mem_max(const struct hgroup *hg)
{
	struct hgroup_memory *hm = hgroup_domain_mem(hg->domain);

	return hm ? READ_ONCE(hm->counter.max) : PAGE_COUNTER_MAX;
}

/* The soft limit of @hg's domain in pages, 0 for none (domain 0's). */
static unsigned long hgroup_mem_soft(const struct hgroup *hg)
{
	struct hgroup_memory *hm = hgroup_domain_mem(hg->domain);

	return hm ? READ_ONCE(hm->soft) : 0;
}

/*
 * How far @hg bounds the soft limit @c gives.  Protection is taken from
 * everyone else: above the top domains, in domain 0, it is for an
 * administrator to give (CAP_SYS_ADMIN), not for a domain's owner.
 */
static unsigned long hgroup_mem_soft_bound(const struct hgroup *hg,
					   const struct hgroup_change *c)
{
	if (!hgroup_domain_mem(hg->domain))
		return c->mem.admin ? PAGE_COUNTER_MAX : 0;
	return hgroup_mem_soft(hg);
}

/* @bytes of a limit in pages: HGROUP_MEM_UNLIMITED is PAGE_COUNTER_MAX. */
static int hgroup_mem_pages(u64 bytes, unsigned long *pages)
{
	if (bytes == HGROUP_MEM_UNLIMITED) {
		*pages = PAGE_COUNTER_MAX;
		return 0;
	}
	if (bytes < PAGE_SIZE || bytes >> PAGE_SHIFT >= PAGE_COUNTER_MAX)
		return -EINVAL;
	*pages = bytes >> PAGE_SHIFT;
	return 0;
}

static int hgroup_mem_parse(struct hgroup_change *c, const void *kattr)
{
	const struct hgroup_mem *mem = kattr;

	if (!hgroup_mem_enabled)
		return -EOPNOTSUPP;
	if (mem->usage || mem->peak ||
	    memchr_inv(&mem->local, 0, sizeof(mem->local)) ||
	    memchr_inv(&mem->subtree, 0, sizeof(mem->subtree)))
		return -EINVAL;
	if (hgroup_mem_pages(mem->max, &c->mem.max))
		return -EINVAL;
	c->mem.soft = 0;
	if (mem->soft && hgroup_mem_pages(mem->soft, &c->mem.soft))
		return -EINVAL;
	/* A soft limit above the hard one would be a promise not kept. */
	if (c->mem.soft > c->mem.max)
		return -EINVAL;
	/* MGLRU's scan does not isolate where soft limits are checked. */
	if (c->mem.soft && lru_gen_enabled())
		return -EOPNOTSUPP;
	/* Asked only when it can matter: capable() is audited. */
	c->mem.admin = c->mem.soft && capable(CAP_SYS_ADMIN);
	return 0;
}

static void hgroup_mem_value(const struct hgroup *hg, struct hgroup_change *c)
{
	c->mem.obj = hgroup_domain_mem(hg->domain);
	c->mem.max = hgroup_mem_max(hg);
	c->mem.soft = hgroup_mem_soft(hg);
}

static void hgroup_mem_get_value(struct hgroup_change *c)
{
	hgroup_mem_get(c->mem.obj);
}

static void hgroup_mem_put_value(struct hgroup_change *c)
{
	hgroup_mem_put(c->mem.obj);
}

static bool hgroup_mem_allows(const struct hgroup *limit,
			      const struct hgroup *hg,
			      const struct hgroup_change *c)
{
	return (c->mem.max <= hgroup_mem_max(hg) ||
		c->mem.max <= hgroup_mem_max(limit)) &&
	       (c->mem.soft <= hgroup_mem_soft(hg) ||
		c->mem.soft <= hgroup_mem_soft_bound(limit, c));
}

static bool hgroup_mem_lifts_only(const struct hgroup *hg,
				  const struct hgroup_change *c)
{
	return c->mem.max >= hgroup_mem_max(hg) &&
	       c->mem.soft >= hgroup_mem_soft(hg);
}

static void hgroup_mem_apply(struct hgroup *hg, struct hgroup_change *c)
{
	struct hgroup_memory *hm = hgroup_domain_mem(hg->domain);

	if (!hm)
		return;
	WRITE_ONCE(hm->counter.max, c->mem.max);
	hgroup_mem_set_soft(hm, c->mem.soft);
}

/* Reclaim, then kill, down to the new limit; the domain's mutex held. */
static void hgroup_mem_commit(const struct hgroup_change *c)
{
	struct hgroup_memory *hm = hgroup_domain_mem(c->domain);
	int retries = HGROUP_MEM_RETRIES;
	unsigned long usage, max;
	bool drained = false;

	if (!hm)
		return;
	for (;;) {
		usage = page_counter_read(&hm->counter);
		max = READ_ONCE(hm->counter.max);
		if (usage <= max || signal_pending(current))
			break;
		if (!drained) {
			hgroup_mem_drain(hm);
			drained = true;
			continue;
		}
		if (retries) {
			hgroup_mem_event(hm, HGROUP_MEM_EV_RECLAIM);
			if (!reclaim_owned_folios(hgroup_mem_owned, hm,
						  usage - max, GFP_KERNEL))
				retries--;
			continue;
		}
		if (!hgroup_mem_oom(hm, GFP_KERNEL, 0))
			break;
	}
}

static void hgroup_mem_events_read(atomic_long_t *ev,
				   struct hgroup_mem_events *out)
{
	out->max = atomic_long_read(&ev[HGROUP_MEM_EV_MAX]);
	out->reclaim = atomic_long_read(&ev[HGROUP_MEM_EV_RECLAIM]);
	out->oom = atomic_long_read(&ev[HGROUP_MEM_EV_OOM]);
	out->oom_kill = atomic_long_read(&ev[HGROUP_MEM_EV_OOM_KILL]);
}

static void hgroup_mem_read(struct hgroup *hg, void *kattr)
{
	unsigned long max = hgroup_mem_max(hg);
	unsigned long soft = hgroup_mem_soft(hg);
	struct hgroup_mem *mem = kattr;

	mem->max = max == PAGE_COUNTER_MAX ? HGROUP_MEM_UNLIMITED :
		   (u64)max << PAGE_SHIFT;
	mem->soft = soft == PAGE_COUNTER_MAX ? HGROUP_MEM_UNLIMITED :
		    (u64)soft << PAGE_SHIFT;
}

static int hgroup_mem_to_user(const struct hgroup_change *c, void *kattr)
{
	struct hgroup_memory *hm = c->mem.obj;
	struct hgroup_mem *mem = kattr;

	if (!hgroup_mem_enabled)
		return -EOPNOTSUPP;
	if (!hm)
		return 0;
	hgroup_mem_drain(hm);
	mem->usage = (u64)page_counter_read(&hm->counter) << PAGE_SHIFT;
	mem->peak = (u64)READ_ONCE(hm->counter.watermark) << PAGE_SHIFT;
	hgroup_mem_events_read(hm->events, &mem->local);
	hgroup_mem_events_read(hm->subtree_events, &mem->subtree);
	return 0;
}

const struct hgroup_restriction hgroup_mem_restriction = {
	.attr		= HGROUP_ATTR_MEM,
	.kind		= HGROUP_ATTR_MEM,
	.size_ver0	= HGROUP_MEM_SIZE_VER0,
	.size		= sizeof(struct hgroup_mem),
	.per_domain	= true,
	.no_trust	= true,
	.parse		= hgroup_mem_parse,
	.get		= hgroup_mem_get_value,
	.put		= hgroup_mem_put_value,
	.value		= hgroup_mem_value,
	.allows		= hgroup_mem_allows,
	.lifts_only	= hgroup_mem_lifts_only,
	.apply		= hgroup_mem_apply,
	.commit		= hgroup_mem_commit,
	.read		= hgroup_mem_read,
	.to_user	= hgroup_mem_to_user,
};

/**
 * hgroup_mem_objects - the memory objects alive, for debugfs
 * @zombies: set to how many of them outlive their domain.
 *
 * Return: how many there are.
 */
long hgroup_mem_objects(long *zombies)
{
	*zombies = atomic_long_read(&hgroup_nr_mem_zombies);
	return atomic_long_read(&hgroup_nr_mem);
}

static int __init hgroup_mem_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		INIT_WORK(&per_cpu_ptr(&hgroup_mem_stock, cpu)->work,
			  hgroup_mem_drain_work);
	/* The teardown of a PREPARE state runs once the CPU is dead. */
	cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "hgroup/mem:dead",
				  NULL, hgroup_mem_cpu_dead);
	return 0;
}
subsys_initcall(hgroup_mem_init);
