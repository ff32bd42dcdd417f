/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hgroups: internal definitions shared by kernel/hgroup/.
 *
 * Object model
 * ------------
 * Every process group has a struct hgroup, reached from each member
 * process through signal_struct::hgroup.  Every domain has a struct
 * hgroup_domain, allocated together with the hgroup of its leader process
 * group, so that the domain lives exactly as long as that hgroup.
 *
 * References (all counted in hgroup::usage):
 *  - one per member process (signal_struct::hgroup);
 *  - one per child in the hierarchy (hgroup::parent): every process group
 *    of a domain is a child of the domain's leader, and a domain's leader
 *    is a child of its parent domain's leader;
 *  - short-lived ones taken by readers.
 * There are no back references, so there are no cycles: a leader, and so
 * its domain, lives while anything in the domain or below it lives.
 *
 * All changes of signal_struct::hgroup and of the PIDTYPE_DOMAIN links are
 * made under tasklist_lock held for writing; readers use RCU.  Objects are
 * freed after a grace period.
 */
#ifndef _KERNEL_HGROUP_HGROUP_H
#define _KERNEL_HGROUP_HGROUP_H

#include <linux/atomic.h>
#include <linux/hgroup.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/uidgid.h>

struct hgroup_domain;

/**
 * struct hgroup - state of one process group
 * @usage: references, see the top of this file.
 * @pgrp: the process group this state belongs to.
 * @parent: the process group above this one in the hierarchy; NULL only
 *	for init_hgroup.
 * @domain: the domain this process group is in.
 * @owner: effective uid of the process that created the group.
 * @rcu: for freeing after a grace period.
 */
struct hgroup {
	refcount_t usage;
	struct pid *pgrp;
	struct hgroup *parent;
	struct hgroup_domain *domain;
	kuid_t owner;
	struct rcu_head rcu;
};

/**
 * struct hgroup_domain - a process domain
 * @leader: state of the leader process group; for every domain but the
 *	initial one, allocated in the same object (struct hgroup_leader).
 * @id: the creating process; its numbers are the domain's ids.  Every
 *	member process is linked to it under PIDTYPE_DOMAIN, which keeps the
 *	numbers reserved while the domain has members.
 *
 * The domain a domain is subordinate to is @leader->parent->domain (none
 * for the initial domain), kept alive by @leader's parent reference.
 */
struct hgroup_domain {
	struct hgroup *leader;
	struct pid *id;
};

extern struct hgroup_domain init_hgroup_domain;

static inline struct pid *task_domain(struct task_struct *task)
{
	return task->signal->pids[PIDTYPE_DOMAIN];
}

static inline bool hgroup_is_leader(const struct hgroup *hg)
{
	return hg->domain->leader == hg;
}

/* The process group state of @task; tasklist_lock held for writing. */
static inline struct hgroup *task_hgroup_locked(struct task_struct *task)
{
	return rcu_dereference_protected(task->signal->hgroup,
					 lockdep_is_held_type(&tasklist_lock, 0));
}

static inline struct hgroup *hgroup_get(struct hgroup *hg)
{
	refcount_inc(&hg->usage);
	return hg;
}

void hgroup_put(struct hgroup *hg);
void hgroup_init_state(struct hgroup *hg, struct pid *pgrp,
		       const struct hgroup *from);

/* domain.c */
long hgroup_domain_create(void);
long hgroup_domain_of(pid_t pid);
void hgroup_domain_free(struct hgroup *leader);

/* stats.c */
extern atomic_long_t hgroup_nr_pgrps;
extern atomic_long_t hgroup_nr_domains;

#endif /* _KERNEL_HGROUP_HGROUP_H */
