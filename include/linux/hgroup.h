/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hgroups: process domains and per-process-group state.
 *
 * These are the hooks the process-management core calls.  Each is a single
 * call at its site; with CONFIG_HGROUP=n they are empty inlines and compile
 * away.  See Documentation/hgroup.rst.
 */
#ifndef _LINUX_HGROUP_H
#define _LINUX_HGROUP_H

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/nodemask_types.h>
#include <linux/types.h>
#include <uapi/linux/hgroup.h>

struct cpumask;
struct hgroup;
struct inode;
struct pid;
struct pid_namespace;
struct seq_file;
struct task_struct;

#ifdef CONFIG_HGROUP

/**
 * struct hgroup_pgrp_ctx - the hgroup side of one setpgid() or setsid()
 * @prealloc: state for the process group the call may create.
 * @blocker: the group whose "freeze on new process group" held the call
 *	back, or NULL.
 * @seq: @blocker's hgroup::unblock_seq when it did.
 * @sched_task: the tgid of the process moved, if its threads may have to
 *	change task group afterwards (kernel/hgroup/sched.c); referenced.
 * @sched_hg: the state of the group it moved to; referenced.
 * @sched_old: the task group its threads are in until they are moved,
 *	or NULL; referenced.
 * @sched_made: @sched_hg is new.
 */
struct hgroup_pgrp_ctx {
	struct hgroup *prealloc;
	struct hgroup *blocker;
	unsigned int seq;
#ifdef CONFIG_HGROUP_SCHED
	struct pid *sched_task;
	struct hgroup *sched_hg;
	struct autogroup *sched_old;
	bool sched_made;
#endif
};

extern struct hgroup init_hgroup;

/* task_struct::hgroup_flags, changed with atomic bit operations */
#define HGROUP_TASK_WORK_QUEUED	0	/* the virtual signal is queued */
#define HGROUP_TASK_REBIND	1	/* nodes changed, policies not rebound */
#define HGROUP_TASK_FROZEN	2	/* counted in hgroup::nr_frozen */

/*
 * Is @t counted as unable to return to user space (see freeze.c)?  A macro,
 * as struct task_struct is not complete everywhere this header is.
 */
#define hgroup_task_frozen(t)	test_bit(HGROUP_TASK_FROZEN, &(t)->hgroup_flags)

/*
 * Have @t's nodes changed while the policies of its mm may not be rebound
 * yet (see hgroup_rebind_mm())?  A macro for the same reason.
 */
#define hgroup_task_rebinding(t) \
	test_bit(HGROUP_TASK_REBIND, &(t)->hgroup_flags)

void hgroup_enter_frozen(void);
void hgroup_leave_frozen(void);

int hgroup_can_fork(struct task_struct *p);
void hgroup_fork(struct task_struct *p);
void hgroup_exit(struct task_struct *p, bool group_dead);
void hgroup_exec(struct task_struct *old_leader, struct task_struct *new_leader);

int hgroup_pgrp_prepare(struct hgroup_pgrp_ctx *ctx, bool may_make);
int hgroup_pgrp_check(struct hgroup_pgrp_ctx *ctx, struct task_struct *p,
		      struct pid *pgrp);
void hgroup_pgrp_join(struct task_struct *p, struct hgroup_pgrp_ctx *ctx);
int hgroup_pgrp_finish(struct hgroup_pgrp_ctx *ctx, int err);

void hgroup_proc_status(struct seq_file *m, struct pid_namespace *ns,
			struct pid *pid, struct task_struct *p);

const struct cpumask *hgroup_task_cpus(struct task_struct *p);
const nodemask_t *hgroup_task_mems(struct task_struct *p);
bool hgroup_cpus_allowed(struct task_struct *p, struct cpumask *mask);
bool hgroup_mems_allowed(struct task_struct *p, nodemask_t *mask);
extern struct static_key_false_deferred hgroup_devs_key;
int __hgroup_inode_permission(struct inode *inode, int mask);
int __hgroup_inode_mknod(int mode, dev_t dev);
int __hgroup_bdev_permission(dev_t dev, bool read, bool write);

/**
 * hgroup_inode_permission - may the caller open this device node?
 * @node: the inode being accessed.
 * @mask: MAY_READ and MAY_WRITE, as for inode_permission().
 *
 * For inode_permission(), which calls it for every path component: a
 * patched-out branch while no process group has a device list, then a
 * test of i_rdev before the call.  A macro, as struct inode is not
 * complete everywhere this header is.
 *
 * Return: 0, or -EPERM if the caller's process group denies the access.
 */
#define hgroup_inode_permission(node, mask) ({			\
	struct inode *__hg_inode = (node);				\
									\
	static_branch_unlikely(&hgroup_devs_key.key) &&			\
	unlikely(__hg_inode->i_rdev) ?					\
	__hgroup_inode_permission(__hg_inode, mask) : 0;		\
})

/**
 * hgroup_inode_mknod - may the caller create this device node?
 * @mode: file type and mode of the new node.
 * @dev: its device number.
 *
 * Return: 0, or -EPERM if the caller's process group denies it.
 */
static inline int hgroup_inode_mknod(int mode, dev_t dev)
{
	if (static_branch_unlikely(&hgroup_devs_key.key))
		return __hgroup_inode_mknod(mode, dev);
	return 0;
}

/**
 * hgroup_bdev_permission - may the caller open this block device?
 * @dev: the device number.
 * @read: it is opened for reading.
 * @write: it is opened for writing.
 *
 * Return: 0, or -EPERM if the caller's process group denies the access.
 */
static inline int hgroup_bdev_permission(dev_t dev, bool read, bool write)
{
	if (static_branch_unlikely(&hgroup_devs_key.key))
		return __hgroup_bdev_permission(dev, read, write);
	return 0;
}

#else /* !CONFIG_HGROUP */

struct hgroup_pgrp_ctx { };

static inline int hgroup_can_fork(struct task_struct *p)
{
	return 0;
}

static inline void hgroup_fork(struct task_struct *p) { }
static inline bool hgroup_task_frozen(struct task_struct *t)
{
	return false;
}

static inline bool hgroup_task_rebinding(struct task_struct *t)
{
	return false;
}

static inline void hgroup_enter_frozen(void) { }
static inline void hgroup_leave_frozen(void) { }
static inline void hgroup_exit(struct task_struct *p, bool group_dead) { }
static inline void hgroup_exec(struct task_struct *old_leader,
			       struct task_struct *new_leader) { }

static inline int hgroup_pgrp_prepare(struct hgroup_pgrp_ctx *ctx,
				      bool may_make)
{
	return 0;
}

static inline int hgroup_pgrp_check(struct hgroup_pgrp_ctx *ctx,
				    struct task_struct *p, struct pid *pgrp)
{
	return 0;
}

static inline void hgroup_pgrp_join(struct task_struct *p,
				    struct hgroup_pgrp_ctx *ctx) { }

static inline int hgroup_pgrp_finish(struct hgroup_pgrp_ctx *ctx, int err)
{
	return err;
}

static inline void hgroup_proc_status(struct seq_file *m,
				      struct pid_namespace *ns,
				      struct pid *pid, struct task_struct *p) { }

static inline const struct cpumask *hgroup_task_cpus(struct task_struct *p)
{
	return NULL;
}

static inline const nodemask_t *hgroup_task_mems(struct task_struct *p)
{
	return NULL;
}

static inline bool hgroup_cpus_allowed(struct task_struct *p,
				       struct cpumask *mask)
{
	return true;
}

static inline bool hgroup_mems_allowed(struct task_struct *p,
				       nodemask_t *mask)
{
	return true;
}

static inline int hgroup_inode_permission(struct inode *inode, int mask)
{
	return 0;
}

static inline int hgroup_inode_mknod(int mode, dev_t dev)
{
	return 0;
}

static inline int hgroup_bdev_permission(dev_t dev, bool read, bool write)
{
	return 0;
}

#endif /* CONFIG_HGROUP */

#ifdef CONFIG_HGROUP_SCHED
/*
 * The task groups of process groups and domains: kernel/hgroup/sched.c
 * decides where they are, kernel/sched/hgroup.c makes them.
 */
struct autogroup;

/**
 * struct hgroup_sched_stat - what the scheduler counts of a task group
 * @usage_ns: CPU time its tasks used.
 * @nr_periods: bandwidth periods in which it had runnable tasks.
 * @nr_throttled: periods in which it ran out of quota.
 * @throttled_ns: time its tasks waited for quota.
 */
struct hgroup_sched_stat {
	u64 usage_ns;
	u64 nr_periods;
	u64 nr_throttled;
	u64 throttled_ns;
};

struct autogroup *hgroup_task_sched(struct task_struct *p);
struct autogroup *hgroup_sched_create(struct autogroup *parent);
struct autogroup *hgroup_sched_get(struct autogroup *ag);
void hgroup_sched_put(struct autogroup *ag);
bool hgroup_sched_child_of(struct autogroup *ag, struct autogroup *parent);
long hgroup_sched_count(void);
void hgroup_sched_move(struct task_struct *t);
void hgroup_sched_fork(struct task_struct *p);
int hgroup_sched_set_limits(struct autogroup *ag, u32 weight, u64 quota_us,
			    u64 period_us);
void hgroup_sched_stat(struct autogroup *ag, struct hgroup_sched_stat *st);
#else
static inline struct autogroup *hgroup_task_sched(struct task_struct *p)
{
	return NULL;
}

static inline void hgroup_sched_fork(struct task_struct *p) { }
#endif /* CONFIG_HGROUP_SCHED */

#ifdef CONFIG_HGROUP_MEM
/*
 * Memory charged to domains (kernel/hgroup/memory.c).  The helpers of
 * <linux/memcontrol.h> call these where memcg charges and refunds user
 * folios; all of it is behind a static key that is on while a domain
 * other than domain 0 exists, or anything is still charged to one.
 */
struct folio;
struct folio_batch;
struct hgroup_memory;
struct mm_struct;
struct page;
struct page_ext_operations;

extern struct static_key_false_deferred hgroup_mem_key;
extern struct page_ext_operations hgroup_mem_ext_ops;

int __hgroup_mem_charge(struct folio *folio, struct mm_struct *mm, gfp_t gfp);
void __hgroup_mem_uncharge(struct folio *folio);
void __hgroup_mem_uncharge_folios(struct folio_batch *folios);
void __hgroup_mem_migrate(struct folio *old, struct folio *new);
void __hgroup_mem_replace(struct folio *old, struct folio *new);
void __hgroup_mem_split(struct page *head, int old_order, int new_order);
bool __hgroup_mem_charged(struct page *page);
unsigned long hgroup_mem_oom_pages(struct hgroup_memory *hm);
bool hgroup_mem_oom_eligible(struct task_struct *p, struct hgroup_memory *hm);
void hgroup_mem_oom_kill_event(struct mm_struct *mm);
void hgroup_mem_mm_init(struct mm_struct *mm);
void hgroup_mem_mm_drop(struct mm_struct *mm);
void hgroup_mem_exec(struct mm_struct *mm);
bool __hgroup_mem_soft_protected(struct folio *folio);

extern atomic_t hgroup_mem_nr_soft;

static inline bool hgroup_mem_on(void)
{
	return static_branch_unlikely(&hgroup_mem_key.key);
}

/**
 * hgroup_mem_charge - charge a new user folio to its domain
 * @folio: the folio.
 * @mm: the mm it is for; NULL for the caller's.
 * @gfp: how it was allocated.
 *
 * Return: 0 or -ENOMEM.
 */
static inline int hgroup_mem_charge(struct folio *folio, struct mm_struct *mm,
				    gfp_t gfp)
{
	return hgroup_mem_on() ? __hgroup_mem_charge(folio, mm, gfp) : 0;
}

/**
 * hgroup_mem_uncharge - refund a folio being freed, in any context
 * @folio: the folio, charged or not.
 */
static inline void hgroup_mem_uncharge(struct folio *folio)
{
	if (hgroup_mem_on())
		__hgroup_mem_uncharge(folio);
}

/**
 * hgroup_mem_uncharge_folios - refund folios being freed, in any context
 * @folios: the folios, charged or not.
 */
static inline void hgroup_mem_uncharge_folios(struct folio_batch *folios)
{
	if (hgroup_mem_on())
		__hgroup_mem_uncharge_folios(folios);
}

/**
 * hgroup_mem_migrate - the charge of a folio moves with its contents
 * @old: the folio migrated.
 * @new: its replacement.
 */
static inline void hgroup_mem_migrate(struct folio *old, struct folio *new)
{
	if (hgroup_mem_on())
		__hgroup_mem_migrate(old, new);
}

/**
 * hgroup_mem_replace - charge a page-cache replacement to the same owner
 * @old: the folio replaced.
 * @new: the new folio.
 */
static inline void hgroup_mem_replace(struct folio *old, struct folio *new)
{
	if (hgroup_mem_on())
		__hgroup_mem_replace(old, new);
}

/**
 * hgroup_mem_split - the parts of a split folio keep its owner
 * @head: the first page of the folio.
 * @old_order: its order.
 * @new_order: the order of the parts.
 */
static inline void hgroup_mem_split(struct page *head, int old_order,
				    int new_order)
{
	if (hgroup_mem_on())
		__hgroup_mem_split(head, old_order, new_order);
}

/**
 * hgroup_mem_charged - is a page being freed still charged (a bug)?
 * @page: the page.
 *
 * Return: always false without %CONFIG_DEBUG_VM.
 */
static inline bool hgroup_mem_charged(struct page *page)
{
	return IS_ENABLED(CONFIG_DEBUG_VM) && hgroup_mem_on() &&
	       __hgroup_mem_charged(page);
}

/* Has any domain a soft limit? */
static inline bool hgroup_mem_soft_on(void)
{
	return hgroup_mem_on() && atomic_read(&hgroup_mem_nr_soft);
}

/**
 * hgroup_mem_soft_protected - does global reclaim pass a folio over?
 * @folio: a folio on an LRU list, its LRU lock held.
 *
 * Return: true if every domain it counts in that has a soft limit keeps
 * it (always within the limit, by chance beyond it).
 */
static inline bool hgroup_mem_soft_protected(struct folio *folio)
{
	return hgroup_mem_soft_on() && __hgroup_mem_soft_protected(folio);
}

#else
struct folio;
struct folio_batch;
struct mm_struct;
struct page;

static inline int hgroup_mem_charge(struct folio *folio, struct mm_struct *mm,
				    gfp_t gfp)
{
	return 0;
}

static inline void hgroup_mem_uncharge(struct folio *folio) { }
static inline void hgroup_mem_uncharge_folios(struct folio_batch *folios) { }
static inline void hgroup_mem_migrate(struct folio *old, struct folio *new) { }
static inline void hgroup_mem_replace(struct folio *old, struct folio *new) { }
static inline void hgroup_mem_split(struct page *head, int old_order,
				    int new_order) { }
static inline bool hgroup_mem_charged(struct page *page)
{
	return false;
}

static inline void hgroup_mem_mm_init(struct mm_struct *mm) { }
static inline void hgroup_mem_mm_drop(struct mm_struct *mm) { }
static inline void hgroup_mem_exec(struct mm_struct *mm) { }

struct hgroup_memory;

static inline unsigned long hgroup_mem_oom_pages(struct hgroup_memory *hm)
{
	return 0;
}

static inline bool hgroup_mem_oom_eligible(struct task_struct *p,
					   struct hgroup_memory *hm)
{
	return true;
}

static inline void hgroup_mem_oom_kill_event(struct mm_struct *mm) { }

static inline bool hgroup_mem_soft_protected(struct folio *folio)
{
	return false;
}
#endif /* CONFIG_HGROUP_MEM */

#endif /* _LINUX_HGROUP_H */
