/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hgroups: internal definitions shared by kernel/hgroup/.
 *
 * Object model
 * ------------
 * Every process group has a struct hgroup, reached from each member
 * process through signal_struct::hgroup.  Every domain has a struct
 * hgroup_domain, reference-counted on its own: by each of its process
 * groups, each sub-domain, and short-lived users.
 *
 * References to a process group's state (counted in hgroup::usage):
 *  - one per member process (signal_struct::hgroup);
 *  - one per child in the hierarchy (hgroup::parent): every process group
 *    of a domain is a child of the domain's leader, and a domain's leader
 *    is a child of its parent domain's leader;
 *  - short-lived ones taken by readers.
 * There are no back references, so there are no cycles: a leader lives
 * while anything in its domain or below it lives, and a domain at least
 * as long as its leader.
 *
 * All changes of signal_struct::hgroup and of the PIDTYPE_DOMAIN links are
 * made under tasklist_lock held for writing, those of a running process's
 * signal_struct::hgroup under its siglock too; readers use RCU.  Objects are
 * freed after a grace period.
 *
 * Restrictions
 * ------------
 * Values of restrictions that are objects are immutable and
 * reference-counted (NULL meaning unrestricted), shared by every process
 * group that has the same one: a new group takes a reference to its
 * creator's.  A change builds a new object and swaps the pointers.
 * Changes are serialised by the mutex of the domain they are made in;
 * nothing holds two such mutexes, and the values of groups in other
 * domains (the ancestors a lift is bounded by) are read under RCU.  What
 * a change is checked against in the values of restrictions is checked
 * under RCU, without holding up fork, exit, setsid() or setpgid(); what
 * it is checked against in the members is checked, and the change made,
 * with tasklist_lock held for reading.  So fork, setpgid() and setsid(),
 * which read the restrictions with tasklist_lock held for writing, see
 * each change whole, and a walk over a group's tasks misses no task that
 * joins it concurrently.
 */
#ifndef _KERNEL_HGROUP_HGROUP_H
#define _KERNEL_HGROUP_HGROUP_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/hgroup.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/uidgid.h>
#include <uapi/linux/hgroup.h>

struct hgroup_domain;
struct hgroup_memory;

/*
 * Slots for the kinds of restriction: by HGROUP_ATTR_* number, and after
 * those the kinds of process groups that an attribute names without
 * HGROUP_SCOPE_DOMAIN, where with the flag it names a domain's.
 */
#define HGROUP_KIND_PGRP_CPU	(HGROUP_ATTR_MEM + 1)
#define HGROUP_NR_KINDS		(HGROUP_KIND_PGRP_CPU + 1)

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
 * struct hgroup_cpu_budget - a CPU budget of process groups
 * @usage: the process groups in it (hgroup::cpu_budget) and the domains
 *	made from them (hgroup_domain::cpu_budget).
 * @domain: the domain of its process groups; the domains that carry it
 *	are children of it, so it lives as long as the budget.
 * @weight: the bound of the budget's weight; written with @domain's
 *	mutex and tasklist_lock (for reading) held, as the next two are;
 *	read with READ_ONCE() or either lock.
 * @quota_us: its bandwidth quota, or HGROUP_CPU_UNLIMITED.
 * @period_us: its bandwidth period.
 * @sched: its task group, or NULL before it is made; referenced.
 *	Changed under hgroup_sched_mutex (sched.c), read under RCU.
 * @weight_set: the bound @sched was last given; hgroup_sched_mutex.
 * @owner: the owner of the process group it was set on (or made for):
 *	changing it in place while others share it needs to be this user,
 *	or %CAP_SYS_ADMIN in @owner_ns.
 * @owner_ns: the user namespace of that group's PID namespace; held.
 * @admin_ns: as hgroup::admin_ns, for the budget: the outermost user
 *	namespace whose administrator tightened it, or NULL; held.  Binds
 *	every group in it, not only the one named in the change.  Written
 *	with @domain's mutex and tasklist_lock held.
 * @rcu: for freeing after a grace period.
 *
 * A process group made from one in a budget is in the same budget, in
 * the same domain; a domain made from one carries the budget, and all of
 * it runs inside the budget's task group.  So a budget holds everything
 * made from where it was set, and making groups multiplies nothing.
 */
struct hgroup_cpu_budget {
	refcount_t usage;
	struct hgroup_domain *domain;
	u32 weight;
	u64 quota_us;
	u64 period_us;
	struct autogroup *sched;
	u32 weight_set;
	kuid_t owner;
	struct user_namespace *owner_ns;
	struct user_namespace *admin_ns;
	struct rcu_head rcu;
};

/**
 * struct hgroup - state of one process group
 * @usage: references, see the top of this file.
 * @pgrp: the process group this state belongs to.
 * @parent: the process group above this one in the hierarchy; NULL only
 *	for init_hgroup.
 * @domain: the domain this process group is in; holds a reference.
 * @owner: effective uid of the process that created the group.
 * @cpus: allowed CPUs; NULL for all.
 * @mems: allowed memory nodes; NULL for all.
 * @devs: device access list; NULL for no restriction.
 * @freeze: HGROUP_FREEZE_* flags.
 * @nnp: restricted by a caller without %CAP_SYS_ADMIN over its members:
 *	every member must have no_new_privs, as for Landlock and seccomp.
 * @nr_threads: the threads of the group's processes, from fork to release;
 *	tasklist_lock held for writing.
 * @joins: counts the threads that joined the group, by fork or by
 *	setpgid(); tasklist_lock held for writing.  64 bits, so that it
 *	cannot come back to a value it had while a change runs.
 * @nr_frozen: how many of them are counted as unable to return to user
 *	space (freeze.c); changed under the process's siglock, and moved
 *	along with a process under tasklist_lock held for writing too.
 * @admin_ns: by HGROUP_ATTR_* number, the administrators' marks: for a
 *	kind someone other than @owner set (by %CAP_SYS_ADMIN), or that the
 *	group had from a group its creator did not own, the outermost user
 *	namespace in which the one who set it had %CAP_SYS_ADMIN (held);
 *	NULL for a kind not marked.  Only a caller with %CAP_SYS_ADMIN there
 *	may lift the kind, and no member may move to a group without as
 *	high a mark.  Per-group kinds' marks are inherited by groups made
 *	from this one.
 * @unblock_seq: counts the events that may let a group creation held
 *	back by %HGROUP_FREEZE_NEW_PGRP go on: the flag cleared, a member
 *	gone; tasklist_lock held for writing, or for reading together with
 *	the domain's mutex.
 * @sched: the task group the group's tasks run in: its own, or its
 *	domain's (see sched.c); NULL for the session's or the cgroup's.
 *	Referenced.  Changed with hgroup_sched_mutex and tasklist_lock
 *	(for reading) held, the tasks moved before the latter is dropped,
 *	so that under tasklist_lock the tasks are where it says.
 * @sched_own: @sched is the group's own.
 * @cpu_budget: the CPU budget the group is in (HGROUP_ATTR_CPU without
 *	HGROUP_SCOPE_DOMAIN), or NULL; referenced.  Changed as the other
 *	restrictions are.
 * @sched_redirect: the process group whose budget a redirection
 *	(HGROUP_ATTR_REDIRECT) put this one in, or NULL; referenced.
 *	Changed with the domain's mutex and tasklist_lock held, read with
 *	either.
 * @sched_node: in a list of groups sched.c works through.
 * @sched_visit: marks the group during one walk of sched.c.
 * @push_gen: generation of the pushed restrictions (@cpus, @mems): a task
 *	whose task_struct::hgroup_gen differs has yet to apply them.
 * @visit: marks the group during one walk over a domain.
 * @checked: the hgroup_set_attr() call that last checked the group's
 *	values; this and the next three are written with the domain's
 *	mutex held.
 * @check_restricts: what that call found: the change is no pure lift.
 * @check_lift: what that call found: 0, or why the lift is refused.
 * @bind_nnp: what that call found once the members were checked: the
 *	change sets @nnp.
 * @check_admin: what that call found: the caller is not @owner, so the
 *	change marks its kind in @admin_ns.
 * @taken: the hgroup_set_attr() call that took the group's threads for
 *	the LSMs and the update in place (hgroup_take_threads()); with
 *	@taken_joins, written with the domain's mutex held.
 * @taken_joins: @joins when they were taken: if it is unchanged when the
 *	change is made, no thread is missing from those taken.
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
	struct user_namespace *admin_ns[HGROUP_NR_KINDS];
	int nr_threads;
	u64 joins;
	atomic_t nr_frozen;
	unsigned int unblock_seq;
	bool nnp;
	bool check_restricts;
	bool bind_nnp;
	bool check_admin;
	int check_lift;
#ifdef CONFIG_HGROUP_SCHED
	struct autogroup __rcu *sched;
	bool sched_own;
	struct list_head sched_node;
	u64 sched_visit;
	struct hgroup_cpu_budget *cpu_budget;
	struct pid *sched_redirect;
#endif
	atomic64_t push_gen;
	u64 visit;
	u64 checked;
	u64 taken;
	u64 taken_joins;
	struct rcu_head rcu;
};

/* The largest internal domain id: ids fit where pid numbers do. */
#define HGROUP_DOMAIN_ID_MAX	(PID_MAX_LIMIT - 1)

/**
 * struct hgroup_domain - a process domain
 * @usage: references: one per process group of the domain (hgroup::domain),
 *	one per sub-domain (@parent), and short-lived ones.
 * @id: the kernel's name for the domain, unique among referenced domains
 *	and not reused while this one is referenced; 0 for the initial
 *	domain.
 * @pid: the creating process; its numbers are the domain's ids for users.
 *	Every member process is linked to it under PIDTYPE_DOMAIN, which
 *	keeps the numbers reserved while the domain has members.
 * @leader: state of the leader process group; valid while the domain has
 *	a process group (every group of the domain, and every sub-domain's
 *	leader, holds a reference to it through hgroup::parent).  Set to
 *	NULL when the leader's last reference goes, a grace period before
 *	it is freed: read with READ_ONCE() under RCU, it is NULL or usable
 *	until the read-side section ends.
 * @parent: the domain this one is subordinate to; NULL for the initial
 *	domain.  Holds a reference.
 * @children: the sub-domains, linked through their @sibling; changed
 *	under hgroup_domain_lock (domain.c), read under RCU.
 * @sibling: in @parent's @children while the domain is referenced.
 * @mutex: serialises changes of the restrictions of the domain's groups
 *	and of the domain, and the reading of values that a reader takes a
 *	reference to.  Never nested: no path holds two.
 * @nr_tasks: tasks (threads) in the domain and its sub-domains.
 * @tasks_max: limit of @nr_tasks; HGROUP_TASKS_UNLIMITED for none.
 * @sched_flags: HGROUP_SCHED_GROUP_*; written under @mutex with
 *	tasklist_lock held for reading, read with READ_ONCE().
 * @sched: the domain's own task group, or NULL; referenced.  Changed
 *	under hgroup_sched_mutex (sched.c), read under RCU.
 * @cpu_weight: the bound of its weight (HGROUP_ATTR_CPU); written as
 *	@sched_flags are, as are the next two.
 * @cpu_quota_us: its bandwidth quota, or HGROUP_CPU_UNLIMITED.
 * @cpu_period_us: its bandwidth period.
 * @cpu_budget: the CPU budget of the process group the domain was made
 *	from, if it had one: the domain runs inside it.  Referenced; set
 *	when the domain is made.
 * @mem: the memory charged to the domain (memory.c); set when the domain
 *	is made, NULL for domain 0 or with hgroup_memory=off.
 * @rcu: for freeing after a grace period.
 *
 * @nr_tasks changes only with tasklist_lock held for writing.
 */
struct hgroup_domain {
	refcount_t usage;
	u32 id;
	struct pid *pid;
	struct hgroup *leader;
	struct hgroup_domain *parent;
	struct list_head children;
	struct list_head sibling;
	struct mutex mutex;	/* see above */
	long nr_tasks;
	u64 tasks_max;
#ifdef CONFIG_HGROUP_SCHED
	unsigned int sched_flags;
	struct autogroup *sched;
	u32 cpu_weight;
	u64 cpu_quota_us;
	u64 cpu_period_us;
	struct hgroup_cpu_budget *cpu_budget;
#endif
#ifdef CONFIG_HGROUP_MEM
	struct hgroup_memory *mem;
#endif
	struct rcu_head rcu;
};

static inline struct hgroup_domain *
hgroup_domain_get(struct hgroup_domain *d)
{
	refcount_inc(&d->usage);
	return d;
}

void hgroup_domain_put(struct hgroup_domain *d);
struct hgroup_domain *hgroup_domain_next(struct hgroup_domain *pos,
					 struct hgroup_domain *root);

/**
 * hgroup_for_each_domain - walk a subtree of domains, pre-order
 * @pos: the domain of each step, with a reference.
 * @root: the root of the subtree, referenced by the caller.
 *
 * The body may sleep.  Leaving it early, drop @pos with
 * hgroup_domain_put().
 */
#define hgroup_for_each_domain(pos, root)				\
	for (struct hgroup_domain *__root = (root), *__d = NULL;	\
	     ((pos) = __d = hgroup_domain_next(__d, __root));)

extern struct hgroup_domain init_hgroup_domain;

static inline struct pid *task_domain(struct task_struct *task)
{
	return task->signal->pids[PIDTYPE_DOMAIN];
}

/*
 * Are the members of @d linked to its pid under PIDTYPE_DOMAIN?  Those of
 * domain 0 are not: the link keeps a domain's id from being reused, which
 * init_struct_pid never is, and every fork and exit in domain 0 would
 * write one list head shared system wide.  Nothing walks the groups of
 * domain 0: its leader is the initial group, which nobody may change, so
 * a change of the whole domain is refused (hgroup_walk_domain()).
 */
static inline bool hgroup_domain_linked(const struct hgroup_domain *d)
{
	return d != &init_hgroup_domain;
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
struct hgroup *hgroup_alloc(void);
void hgroup_free_unused(struct hgroup *hg);

#ifdef CONFIG_LOCKDEP
/* Is a lock held that keeps the restrictions of @hg from changing? */
static inline bool hgroup_lock_held(const struct hgroup *hg)
{
	return lockdep_is_held(&hg->domain->mutex) ||
	       lockdep_is_held_type(&tasklist_lock, 0);
}
#else
static inline bool hgroup_lock_held(const struct hgroup *hg)
{
	return true;
}
#endif

/*
 * A restriction @p of the group @hg; its domain's mutex, tasklist_lock
 * held for writing, or RCU held.  Changes are made under the mutex with
 * tasklist_lock held for reading, so a reader holding only the latter
 * (for another domain's mutex) needs RCU.
 */
#define hgroup_deref(p, hg)	rcu_dereference_check(p, hgroup_lock_held(hg))

struct hgroup_restriction;

/**
 * struct hgroup_change - a value of one restriction
 * @ops: the kind of restriction.
 * @domain_scope: the change is for every group of @domain at once.
 * @domain: the domain of the target group.
 * @id: tells the groups this call checked, see hgroup::checked.
 * @nr_threads: the threads of the groups checked, an estimate of how
 *	many a change of CPU or node set updates.
 * @pushed: the threads taken for the LSMs and, by a change of CPU or
 *	node set, updated in place, see hgroup_take_threads().
 * @set: the value of a CPU or node set.
 * @devs: the value of a device list.
 * @freeze: the value of the freeze flags.
 * @tasks_max: the value of a task limit.
 * @sched_flags: the value of a domain's scheduling flags.
 * @mem: of a domain's memory (memory.c): its object, for reading it
 *	(@mem.obj, referenced with @get), and the hard limit in pages.
 * @cpu: the value of CPU limits; for a process group's, a new budget
 *	made ready (@cpu.budget, with its task group), whether the target
 *	gets it (@cpu.fresh, decided by the check of the members) and the
 *	group given it or whose budget changed (@cpu.target, referenced),
 *	for hgroup_pcpu_commit().
 *
 * A change is built from the caller's attribute before any lock is
 * taken; a value read from a group is borrowed unless the kind's @get
 * takes a reference.
 */
struct hgroup_change {
	const struct hgroup_restriction *ops;
	bool domain_scope;
	struct hgroup_domain *domain;
	u64 id;
	unsigned int nr_threads;
	struct hgroup_pushed *pushed;
	union {
		struct hgroup_set *set;
		struct hgroup_devs *devs;
		unsigned int freeze;
		u64 tasks_max;
		unsigned int sched_flags;
		struct {
			struct hgroup_memory *obj;
			unsigned long max;
			unsigned long soft;
			bool admin;
		} mem;
		struct {
			u32 weight;
			u64 quota_us;
			u64 period_us;
			struct hgroup_cpu_budget *budget;
			struct hgroup *target;
			bool fresh;
		} cpu;
	};
};

/**
 * struct hgroup_restriction - the operations of one kind of restriction
 * @attr: its HGROUP_ATTR_* number.
 * @kind: its slot, the index of hgroup::admin_ns: @attr, or
 *	HGROUP_KIND_PGRP_CPU.
 * @size_ver0: the size of the first version of its UAPI structure.
 * @size: the size of its UAPI structure as this kernel knows it.
 * @per_domain: a restriction of the whole domain, kept with its leader;
 *	it is named with %HGROUP_SCOPE_DOMAIN only.
 * @no_trust: restricting it needs no trust by the members (see
 *	hgroup_may_restrict() in restrict.c).
 * @disabled: not in this kernel's configuration (%EOPNOTSUPP).
 * @init_domain: a per-domain kind that domain 0 has too, changed there
 *	only by %CAP_SYS_ADMIN in the initial user namespace.
 * @cpusets: checked against the members' cpusets: cpuset_lock() is held
 *	from the check to the change.
 * @parse: check an attribute from hgroup_set_attr() (in kernel memory;
 *	user pointers in it not yet read) and build @c's value.
 * @get: take a reference to @c's value; optional.
 * @put: drop a reference to @c's value, if it has one; optional.
 * @copy: give the new group @hg the value of @from; tasklist_lock held
 *	for writing.  Optional.
 * @release: @hg is being freed; optional.
 * @restricts: does @hg restrict the kind at all?  Optional: by default,
 *	does it allow less than a change all zero would?
 * @get_mark: the administrator's mark the kind keeps for @hg beyond
 *	hgroup::admin_ns, on an object @hg shares with other groups (a CPU
 *	budget); optional.
 * @set_mark: @hg's kind was marked as an administrator's of @ns: mark
 *	what it shares too; optional.
 * @value: make @c's value the one @hg has (borrowed).
 * @allows: does @limit allow everything @c gives @hg beyond what @hg
 *	has?  With @limit == @hg: is @c no lift at all?
 * @lifts_only: does @c allow at least everything @hg allows now?
 * @fits: can @hg take @c, given its members?  Optional.
 * @check: the kind's own last check of the change of @hg, with
 *	tasklist_lock held: 0 or an errno; it may note in @c what @apply
 *	is to do.  Optional.
 * @may_join: does @to's value leave the thread @t something to run on?
 *	Optional.
 * @lsm: ask the LSMs whether the caller may give the thread @t @c's
 *	value, with the hook of the call that does the same to one task
 *	(sched_setaffinity(), kill()); 0 or their errno.  Called with no
 *	lock held, and for setpgid() with tasklist_lock held unless
 *	@lsm_sleeps.  Optional.
 * @lsm_sleeps: @lsm may sleep.
 * @prepare: the checks of values and the LSMs have passed (the caller
 *	may give the group @c's value): take what the change needs beyond
 *	the group (turn on a global check, say), with the domain's mutex
 *	held and before tasklist_lock; may sleep.  A change the checks of
 *	the members refuse after may have had it.  Optional.
 * @apply: give @hg the value of @c, and note in @c what @commit needs;
 *	tasklist_lock held for reading.
 * @read: fill in the output fields of @kattr from @hg; optional.
 * @commit: the change is made: finish what @apply could not do under
 *	tasklist_lock (make task groups and move tasks into them), with the
 *	domain's mutex held; may sleep.  Optional.
 * @to_user: after the locks are dropped, copy @c's value (held with
 *	@get) out through @kattr's user pointers; optional.
 * @set_attr: a kind outside the generic rule, with calls of its own
 *	(redirection): hgroup_set_attr() is this, given the call's @flags;
 *	no other callback is used.  Optional.
 * @get_attr: hgroup_get_attr() of such a kind.
 *
 * Everything but @parse, @get, @put, @release, @prepare and @to_user is
 * called with the group's domain mutex or tasklist_lock held, so that
 * the value of a group cannot change under it; @value, @allows and
 * @lifts_only may be called under RCU with that mutex, and no callback
 * but @lsm and @prepare sleeps.
 * What walks the members (@fits, @apply, @read) has tasklist_lock.  A
 * kind plugs in with one entry in hgroup_restrictions[] (restrict.c);
 * the generic rule (permission, hierarchy, atomic domain scope) is not
 * its business.
 */
struct hgroup_restriction {
	unsigned int attr;
	unsigned int kind;
	size_t size_ver0;
	size_t size;
	bool per_domain;
	bool no_trust;
	bool disabled;
	bool init_domain;
	bool cpusets;
	int (*parse)(struct hgroup_change *c, const void *kattr);
	void (*get)(struct hgroup_change *c);
	void (*put)(struct hgroup_change *c);
	void (*copy)(struct hgroup *hg, const struct hgroup *from);
	void (*release)(struct hgroup *hg);
	bool (*restricts)(const struct hgroup *hg);
	struct user_namespace *(*get_mark)(const struct hgroup *hg);
	void (*set_mark)(struct hgroup *hg, struct user_namespace *ns);
	void (*value)(const struct hgroup *hg, struct hgroup_change *c);
	bool (*allows)(const struct hgroup *limit, const struct hgroup *hg,
		       const struct hgroup_change *c);
	bool (*lifts_only)(const struct hgroup *hg,
			   const struct hgroup_change *c);
	bool (*fits)(struct hgroup *hg, const struct hgroup_change *c);
	int (*check)(struct hgroup *hg, struct hgroup_change *c);
	bool (*may_join)(struct task_struct *t, const struct hgroup *to);
	int (*lsm)(struct task_struct *t, const struct hgroup_change *c);
	bool lsm_sleeps;
	void (*prepare)(const struct hgroup_change *c);
	void (*apply)(struct hgroup *hg, struct hgroup_change *c);
	void (*read)(struct hgroup *hg, void *kattr);
	void (*commit)(const struct hgroup_change *c);
	int (*to_user)(const struct hgroup_change *c, void *kattr);
	long (*set_attr)(pid_t pgid, const void *kattr, unsigned int flags);
	long (*get_attr)(pid_t pgid, void *kattr);
};

extern const struct hgroup_restriction hgroup_tasks_restriction;
extern const struct hgroup_restriction hgroup_cpus_restriction;
extern const struct hgroup_restriction hgroup_mems_restriction;
extern const struct hgroup_restriction hgroup_devices_restriction;
extern const struct hgroup_restriction hgroup_freeze_restriction;
#ifdef CONFIG_HGROUP_SCHED
extern const struct hgroup_restriction hgroup_sched_restriction;
extern const struct hgroup_restriction hgroup_cpu_restriction;
extern const struct hgroup_restriction hgroup_pcpu_restriction;
extern const struct hgroup_restriction hgroup_redirect_restriction;
#endif
#ifdef CONFIG_HGROUP_MEM
extern const struct hgroup_restriction hgroup_mem_restriction;
#endif
void hgroup_init_state(struct hgroup *hg, struct pid *pgrp,
		       const struct hgroup *from, struct hgroup_domain *d);
void hgroup_set_group(struct task_struct *p, struct hgroup *old,
		      struct hgroup *hg);
struct task_struct *hgroup_next_task(struct hgroup *hg, struct task_struct *t);

/* domain.c */
long hgroup_domain_create(void);
long hgroup_domain_of(pid_t pid);

/* restrict.c */

/* The group was found in another domain than the one locked: again. */
#define HGROUP_RETRY	1

struct pid *hgroup_pgid_get(pid_t pgid);
void hgroup_mark_admin(struct hgroup *hg, unsigned int kind,
		       struct user_namespace *ns);
struct user_namespace *hgroup_caller_ns(struct user_namespace *ns);
struct hgroup *hgroup_find(struct pid *pid);
struct hgroup_domain *hgroup_lock_domain(struct pid *pid);
void hgroup_unlock_domain(struct hgroup_domain *d);
const struct hgroup_restriction *
hgroup_restriction(unsigned int attr, unsigned int flags);
void hgroup_restrict_copy(struct hgroup *hg, const struct hgroup *from);
void hgroup_restrict_release(struct hgroup *hg);
long hgroup_attr_set(pid_t pgid, unsigned int attr, const void *kattr,
		     unsigned int flags);
long hgroup_attr_get(pid_t pgid, unsigned int attr, void *kattr,
		     unsigned int flags);
int hgroup_may_join(struct task_struct *p, struct hgroup *from,
		    struct hgroup *to);

/* devices.c */
struct hgroup_devs *hgroup_devs_get(struct hgroup_devs *devs);
void hgroup_devs_put(struct hgroup_devs *devs);

/**
 * struct hgroup_pushed - the threads a change takes
 * @nr: threads taken.
 * @max: room at @tasks.
 * @seen: threads hgroup_take_threads() found, taken or not.
 * @tasks: the threads, each with a reference.
 */
struct hgroup_pushed {
	unsigned int nr;
	unsigned int max;
	unsigned int seen;
	struct task_struct *tasks[];
};

int hgroup_push_alloc(struct hgroup_change *c, unsigned int max);
void hgroup_take_threads(struct hgroup *hg, struct hgroup_change *c);
void hgroup_push(struct hgroup *hg, const struct hgroup_change *c);
void hgroup_push_cancel(struct hgroup_change *c);
void hgroup_push_finish(struct hgroup_change *c);
void hgroup_task_init(struct task_struct *p, struct hgroup *hg);
void hgroup_moved(struct task_struct *p, const struct hgroup *from,
		  const struct hgroup *to);

/* freeze.c */
void hgroup_freeze_task(struct task_struct *t, bool freeze);
bool hgroup_blocks_new(const struct hgroup *hg);
int hgroup_block_new(struct hgroup *hg, struct hgroup **blocker,
		     unsigned int *seq);
void hgroup_member_left(struct hgroup *hg);
int hgroup_wait_unblocked(struct hgroup *hg, unsigned int seq);

/* sets.c */
void hgroup_set_put(struct hgroup_set *set);
struct hgroup_set *hgroup_set_get(struct hgroup_set *set);
/**
 * struct hgroup_masks - the masks computed for the last thread updated
 * @cpus_set: the CPU set of its group, when they were computed.
 * @mems_set: the node set of its group.
 * @cs: its cpuset.
 * @possible: its task_cpu_possible_mask().
 * @valid: @cpus and @mems are what @cpus_set .. @possible give.
 * @cpus: its CPUs, as cpuset_cpus_allowed() answered.
 * @mems: its nodes, as cpuset_mems_allowed() answered.
 *
 * Threads with the same sets, cpuset and possible CPUs get the same
 * masks, so a change computes them once per group and cpuset.  Used with
 * cpuset_lock() held, which keeps cpusets and the groups' sets from
 * changing: a set is installed only under it, so a set seen again at the
 * same address is the same set.
 */
struct hgroup_masks {
	const struct hgroup_set *cpus_set;
	const struct hgroup_set *mems_set;
	const void *cs;
	const struct cpumask *possible;
	bool valid;
	cpumask_var_t cpus;
	nodemask_t mems;
};

bool hgroup_apply_sets_to(struct task_struct *t, struct hgroup_masks *m);
void hgroup_apply_sets(void);

/**
 * struct hgroup_rebind - the memory policies rebound last
 * @mm: the mm, with a reference, so that its address is not reused.
 * @mems: the nodes they were rebound to.
 *
 * The threads of a process come one after another in a change's list,
 * so their mm is rebound once.
 */
struct hgroup_rebind {
	struct mm_struct *mm;
	nodemask_t mems;
};

void hgroup_rebind_mm(struct task_struct *t, struct hgroup_rebind *r);
void hgroup_rebind_done(struct hgroup_rebind *r);

/* tasks.c */
int hgroup_tasks_charge(struct hgroup_domain *d, long n);
void hgroup_tasks_uncharge(struct hgroup_domain *d, long n);

/* sched.c */
#ifdef CONFIG_HGROUP_SCHED
void hgroup_sched_init_state(struct hgroup *hg, const struct hgroup *from);
void hgroup_sched_release(struct hgroup *hg);
void hgroup_sched_domain_init(struct hgroup_domain *d, struct hgroup *from);
void hgroup_sched_domain_release(struct hgroup_domain *d);
void hgroup_sched_join(struct hgroup_pgrp_ctx *ctx, struct task_struct *p,
		       struct hgroup *old, struct hgroup *hg, bool made);
void hgroup_sched_finish(struct hgroup_pgrp_ctx *ctx);
long hgroup_cpu_budgets(void);
#else
static inline void hgroup_sched_init_state(struct hgroup *hg,
					   const struct hgroup *from) { }
static inline void hgroup_sched_release(struct hgroup *hg) { }
static inline void hgroup_sched_domain_init(struct hgroup_domain *d,
					    struct hgroup *from) { }
static inline void hgroup_sched_domain_release(struct hgroup_domain *d) { }
static inline void hgroup_sched_join(struct hgroup_pgrp_ctx *ctx,
				     struct task_struct *p, struct hgroup *old,
				     struct hgroup *hg, bool made) { }
static inline void hgroup_sched_finish(struct hgroup_pgrp_ctx *ctx) { }
#endif

/* memory.c */
#ifdef CONFIG_HGROUP_MEM
struct hgroup_memory *hgroup_mem_alloc(void);
void hgroup_mem_free_unused(struct hgroup_memory *hm);
void hgroup_mem_domain_init(struct hgroup_domain *d, struct hgroup_memory *hm);
void hgroup_mem_domain_release(struct hgroup_domain *d);
void hgroup_mem_enter(struct hgroup_domain *d);
void hgroup_mem_fork(struct task_struct *p, struct hgroup_domain *d);
long hgroup_mem_objects(long *zombies);
#else
static inline struct hgroup_memory *hgroup_mem_alloc(void)
{
	return NULL;
}

static inline void hgroup_mem_free_unused(struct hgroup_memory *hm) { }
static inline void hgroup_mem_domain_init(struct hgroup_domain *d,
					  struct hgroup_memory *hm) { }
static inline void hgroup_mem_domain_release(struct hgroup_domain *d) { }
static inline void hgroup_mem_enter(struct hgroup_domain *d) { }
static inline void hgroup_mem_fork(struct task_struct *p,
				   struct hgroup_domain *d) { }
#endif

/* stats.c */
extern atomic_long_t hgroup_nr_pgrps;
extern atomic_long_t hgroup_nr_domains;
extern atomic_long_t hgroup_nr_sets;
extern atomic_long_t hgroup_nr_devs;

#endif /* _KERNEL_HGROUP_HGROUP_H */
