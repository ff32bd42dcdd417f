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
 *
 * Restrictions
 * ------------
 * The CPU set, the node set and the device list are immutable, reference-counted
 * objects (NULL meaning unrestricted), shared by every process group that
 * has the same one: a new group takes a reference to its creator's.  A
 * change builds a new object and swaps the pointers.  Changes are
 * serialised by hgroup_attr_mutex and made with tasklist_lock held for
 * reading, so fork, setpgid() and setsid(), which read the restrictions
 * with tasklist_lock held for writing, see each change whole, and a walk
 * over a group's tasks misses no task that joins it concurrently.
 */
#ifndef _KERNEL_HGROUP_HGROUP_H
#define _KERNEL_HGROUP_HGROUP_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/hgroup.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/uidgid.h>
#include <uapi/linux/hgroup.h>

struct hgroup_domain;

/**
 * struct hgroup_set - an immutable set of CPUs or of memory nodes
 * @usage: process groups using it, plus short-lived references.
 * @rcu: for freeing after a grace period.
 * @bits: the members, as a struct cpumask or a nodemask_t; always with
 *	an online CPU, or a node with memory, when the set is made.
 */
struct hgroup_set {
	refcount_t usage;
	struct rcu_head rcu;
	unsigned long bits[];
};

/**
 * struct hgroup_devs - an immutable device access list
 * @usage: process groups using it, plus short-lived references.
 * @rcu: for freeing after a grace period.
 * @policy: HGROUP_DEV_POLICY_ALLOW or HGROUP_DEV_POLICY_DENY.
 * @nr_rules: number of entries in @rules.
 * @rules: the exceptions to @policy.
 */
struct hgroup_devs {
	refcount_t usage;
	struct rcu_head rcu;
	u32 policy;
	u32 nr_rules;
	struct hgroup_dev_rule rules[] __counted_by(nr_rules);
};

/**
 * struct hgroup - state of one process group
 * @usage: references, see the top of this file.
 * @pgrp: the process group this state belongs to.
 * @parent: the process group above this one in the hierarchy; NULL only
 *	for init_hgroup.
 * @domain: the domain this process group is in.
 * @owner: effective uid of the process that created the group.
 * @cpus: allowed CPUs; NULL for all.
 * @mems: allowed memory nodes; NULL for all.
 * @devs: device access list; NULL for no restriction.
 * @freeze: HGROUP_FREEZE_* flags.
 * @nnp: restricted by a caller without %CAP_SYS_ADMIN over its members:
 *	every member must have no_new_privs, as for Landlock and seccomp.
 * @unblock_seq: counts the events that may let a group creation held
 *	back by %HGROUP_FREEZE_NEW_PGRP go on: the flag cleared, a member
 *	gone; tasklist_lock held for writing, or for reading together with
 *	hgroup_attr_mutex.
 * @push_gen: generation of the pushed restrictions (@cpus, @mems): a task
 *	whose task_struct::hgroup_gen differs has yet to apply them.
 * @visit: marks the group during one walk over a domain.
 * @rcu: for freeing after a grace period.
 */
struct hgroup {
	refcount_t usage;
	struct pid *pgrp;
	struct hgroup *parent;
	struct hgroup_domain *domain;
	kuid_t owner;
	struct hgroup_set __rcu *cpus;
	struct hgroup_set __rcu *mems;
	struct hgroup_devs __rcu *devs;
	unsigned int freeze;
	unsigned int unblock_seq;
	bool nnp;
	u64 push_gen;
	u64 visit;
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
 * @nr_tasks: tasks (threads) in the domain and its sub-domains.
 * @tasks_max: limit of @nr_tasks; HGROUP_TASKS_UNLIMITED for none.
 *
 * The domain a domain is subordinate to is @leader->parent->domain (none
 * for the initial domain), kept alive by @leader's parent reference.
 * @nr_tasks changes only with tasklist_lock held for writing.
 */
struct hgroup_domain {
	struct hgroup *leader;
	struct pid *id;
	long nr_tasks;
	u64 tasks_max;
};

static inline struct hgroup_domain *
hgroup_domain_parent(struct hgroup_domain *d)
{
	return d->leader->parent ? d->leader->parent->domain : NULL;
}

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

/* The process group state of @task; RCU or tasklist_lock held. */
static inline struct hgroup *task_hgroup(struct task_struct *task)
{
	return rcu_dereference_check(task->signal->hgroup,
				     lockdep_is_held(&tasklist_lock));
}

static inline struct hgroup *hgroup_get(struct hgroup *hg)
{
	refcount_inc(&hg->usage);
	return hg;
}

void hgroup_put(struct hgroup *hg);
extern struct mutex hgroup_attr_mutex;
void hgroup_init_state(struct hgroup *hg, struct pid *pgrp,
		       const struct hgroup *from);

/* domain.c */
long hgroup_domain_create(void);
long hgroup_domain_of(pid_t pid);
void hgroup_domain_free(struct hgroup *leader);

/* restrict.c */
void hgroup_restrict_copy(struct hgroup *hg, const struct hgroup *from);
void hgroup_restrict_release(struct hgroup *hg);
long hgroup_attr_set(pid_t pgid, unsigned int attr, const void *kattr,
		     unsigned int flags);
long hgroup_attr_get(pid_t pgid, unsigned int attr, void *kattr,
		     unsigned int flags);
int hgroup_may_join(struct task_struct *p, struct hgroup *from,
		    struct hgroup *to);

/* devices.c */
struct hgroup_devs *hgroup_devs_from_user(const struct hgroup_devices *d);
bool hgroup_devs_subset(const struct hgroup_devs *a,
			const struct hgroup_devs *b);
int hgroup_devs_to_user(const struct hgroup_devs *devs,
			struct hgroup_devices *d);
struct hgroup_devs *hgroup_devs_get(struct hgroup_devs *devs);
void hgroup_devs_put(struct hgroup_devs *devs);

/* propagate.c */
struct task_struct *hgroup_next_task(struct hgroup *hg, struct task_struct *t);

void hgroup_push(struct hgroup *hg);
void hgroup_task_init(struct task_struct *p, struct hgroup *hg);
void hgroup_moved(struct task_struct *p, const struct hgroup *from,
		  const struct hgroup *to);

/* freeze.c */
void hgroup_freeze_set(struct hgroup *hg, unsigned int flags);
bool hgroup_frozen(struct hgroup *hg);
void hgroup_freeze_task(struct task_struct *t, bool freeze);
bool hgroup_blocks_new(const struct hgroup *hg);
int hgroup_block_new(struct hgroup *hg, struct hgroup **blocker,
		     unsigned int *seq);
void hgroup_member_left(struct hgroup *hg);
int hgroup_wait_unblocked(struct hgroup *hg, unsigned int seq);

/* sets.c */
void hgroup_set_put(struct hgroup_set *set);
struct hgroup_set *hgroup_set_get(struct hgroup_set *set);
int hgroup_set_from_user(unsigned int attr, const struct hgroup_mask *m,
			 struct hgroup_set **out);
int hgroup_set_to_user(unsigned int attr, const struct hgroup_set *set,
		       const struct hgroup_mask *m);
bool hgroup_set_allows(unsigned int attr, const struct hgroup_set *new,
		       const struct hgroup_set *cur,
		       const struct hgroup_set *limit);
bool hgroup_set_fits(unsigned int attr, const struct hgroup_set *set,
		     struct hgroup *hg);
void hgroup_apply_sets(void);

/* tasks.c */
int hgroup_tasks_charge(struct hgroup_domain *d, long n);
void hgroup_tasks_uncharge(struct hgroup_domain *d, long n);

/* stats.c */
extern atomic_long_t hgroup_nr_pgrps;
extern atomic_long_t hgroup_nr_domains;
extern atomic_long_t hgroup_nr_sets;
extern atomic_long_t hgroup_nr_devs;

#endif /* _KERNEL_HGROUP_HGROUP_H */
