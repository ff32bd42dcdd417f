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

#endif /* _LINUX_HGROUP_H */
