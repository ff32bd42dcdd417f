// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: the CPU set and the memory-node set.
 *
 * Both are immutable bitmaps, shared by reference between process groups
 * (NULL meaning "every possible one").
 *
 * There is one answer to "which CPUs and nodes may this task use":
 * cpuset_cpus_allowed() and cpuset_mems_allowed(), which narrow what the
 * task's cpuset gives to its group's sets (hgroup_cpus_allowed(),
 * hgroup_mems_allowed()).  Every path that sets a task's affinity or
 * mems_allowed goes through them: sched_setaffinity(), the cpuset's own
 * updates and moves, io_uring's SQPOLL and io-wq threads, and the virtual
 * signal (propagate.c), with which each thread applies a change of its
 * group's sets to itself.  A set never widens the cpuset: see "CPUs and
 * memory nodes beside cpusets" in Documentation/hgroup.rst for the rule
 * when the two do not meet.
 */

#include <linux/cgroup.h>
#include <linux/cpu.h>
#include <linux/cpuset.h>
#include <linux/mmu_context.h>
#include <linux/nodemask.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "hgroup.h"

/* What a set is of, and the sizes that go with it. */
struct hgroup_set_kind {
	unsigned int nbits;
	size_t bytes;
	const unsigned long *possible;
	const unsigned long *usable;
};

static struct hgroup_set_kind hgroup_kind(unsigned int attr)
{
	if (attr == HGROUP_ATTR_CPUS)
		return (struct hgroup_set_kind) {
			.nbits = nr_cpu_ids,
			.bytes = cpumask_size(),
			.possible = cpumask_bits(cpu_possible_mask),
			.usable = cpumask_bits(cpu_online_mask),
		};
	return (struct hgroup_set_kind) {
		.nbits = nr_node_ids,
		.bytes = sizeof(nodemask_t),
		.possible = nodes_addr(node_possible_map),
		.usable = nodes_addr(node_states[N_MEMORY]),
	};
}

static void hgroup_set_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct hgroup_set, rcu));
	atomic_long_dec(&hgroup_nr_sets);
}

void hgroup_set_put(struct hgroup_set *set)
{
	if (set && refcount_dec_and_test(&set->usage))
		call_rcu(&set->rcu, hgroup_set_free_rcu);
}

struct hgroup_set *hgroup_set_get(struct hgroup_set *set)
{
	if (set)
		refcount_inc(&set->usage);
	return set;
}

/* The bits of @set, a set of @attr's kind; NULL is every possible one. */
static const unsigned long *hgroup_set_bits(unsigned int attr,
					    const struct hgroup_set *set)
{
	return set ? set->bits : hgroup_kind(attr).possible;
}

/* Bytes of the UAPI's __u64 array that hold every bit of a set of @k. */
static size_t hgroup_arr64_bytes(const struct hgroup_set_kind *k)
{
	return DIV_ROUND_UP(k->nbits, 64) * sizeof(u64);
}

/**
 * hgroup_set_from_user - build a set from hgroup_set_attr()
 * @attr: HGROUP_ATTR_CPUS or HGROUP_ATTR_MEMS.
 * @m: the attribute, in kernel memory; @m->mask is a user pointer to an
 *	array of __u64, the same for a 32-bit task as for a 64-bit one.
 * @out: the new set (one reference), or NULL if it is every possible one.
 *
 * Bits beyond the last possible CPU or node are ignored.
 *
 * Return: 0, -EINVAL for a bad size or a set with nothing usable in it,
 * -EFAULT, -ENOMEM.
 */
static int hgroup_set_from_user(unsigned int attr,
				const struct hgroup_mask *m,
				struct hgroup_set **out)
{
	struct hgroup_set_kind k = hgroup_kind(attr);
	size_t bytes = hgroup_arr64_bytes(&k);
	unsigned int len = m->mask_size;
	struct hgroup_set *set;
	u64 *arr;

	if (m->__reserved || !len || len % sizeof(u64))
		return -EINVAL;
	arr = kzalloc(bytes, GFP_KERNEL);
	set = kzalloc(struct_size(set, bits, BITS_TO_LONGS(k.bytes * 8)),
		      GFP_KERNEL_ACCOUNT);
	if (!arr || !set)
		goto nomem;
	if (copy_from_user(arr, u64_to_user_ptr(m->mask),
			   min_t(size_t, len, bytes))) {
		kfree(arr);
		kfree(set);
		return -EFAULT;
	}
	bitmap_from_arr64(set->bits, arr, k.nbits);
	kfree(arr);
	bitmap_and(set->bits, set->bits, k.possible, k.nbits);
	if (!bitmap_intersects(set->bits, k.usable, k.nbits)) {
		kfree(set);
		return -EINVAL;
	}
	if (bitmap_equal(set->bits, k.possible, k.nbits)) {
		kfree(set);
		set = NULL;
	} else {
		refcount_set(&set->usage, 1);
		atomic_long_inc(&hgroup_nr_sets);
	}
	*out = set;
	return 0;
nomem:
	kfree(arr);
	kfree(set);
	return -ENOMEM;
}

/**
 * hgroup_set_to_user - copy a set out for hgroup_get_attr()
 * @attr: HGROUP_ATTR_CPUS or HGROUP_ATTR_MEMS.
 * @set: the set, NULL for every possible one.
 * @m: the attribute, in kernel memory; @m->mask is a user pointer to an
 *	array of __u64.
 *
 * Return: 0, -EINVAL if @m->mask_size cannot hold every possible CPU or
 * node or is not a multiple of 8, -EFAULT, or -ENOMEM.
 */
static int hgroup_set_to_user(unsigned int attr,
			      const struct hgroup_set *set,
			      const struct hgroup_mask *m)
{
	struct hgroup_set_kind k = hgroup_kind(attr);
	size_t bytes = hgroup_arr64_bytes(&k);
	unsigned int len = m->mask_size;
	u64 *arr;
	int ret = 0;

	if (m->__reserved || (u64)len * BITS_PER_BYTE < k.nbits ||
	    len % sizeof(u64))
		return -EINVAL;
	arr = kzalloc(bytes, GFP_KERNEL);
	if (!arr)
		return -ENOMEM;
	bitmap_to_arr64(arr, hgroup_set_bits(attr, set), k.nbits);
	if (copy_to_user(u64_to_user_ptr(m->mask), arr,
			 min_t(size_t, len, bytes)))
		ret = -EFAULT;
	kfree(arr);
	return ret;
}

/**
 * hgroup_set_allows - may a set grow as a change wants?
 * @attr: HGROUP_ATTR_CPUS or HGROUP_ATTR_MEMS.
 * @new: the set the change gives.
 * @cur: the set the target has.
 * @limit: the set of a group that bounds the target.
 *
 * Return: true if every member of @new is in @cur or in @limit.
 */
static bool hgroup_set_allows(unsigned int attr,
			      const struct hgroup_set *new,
			      const struct hgroup_set *cur,
			      const struct hgroup_set *limit)
{
	const unsigned long *c = hgroup_set_bits(attr, cur);
	const unsigned long *l = hgroup_set_bits(attr, limit);
	unsigned int bit;

	for_each_set_bit(bit, hgroup_set_bits(attr, new),
			 hgroup_kind(attr).nbits)
		if (!test_bit(bit, c) && !test_bit(bit, l))
			return false;
	return true;
}

#ifdef CONFIG_CPUSETS
static void hgroup_apply_mems(struct task_struct *t, nodemask_t *nodes)
{
	/*
	 * Read racily: cpuset_fork() writes a new task's nodes without
	 * cpuset_lock(), but such a task gets the virtual signal.
	 */
	if (nodes_equal(*nodes, t->mems_allowed))
		return;
	/*
	 * The policies of its memory areas follow once cpuset_lock() is
	 * dropped, see hgroup_rebind_mm().  The bit is set before the
	 * store, so that a policy fork() copies meanwhile is rebound
	 * (current_cpuset_is_being_rebound()), and again after it, so that
	 * an older change's rebind that clears it meanwhile either finds
	 * the new nodes when it reads them again or leaves it set.
	 */
	set_bit(HGROUP_TASK_REBIND, &t->hgroup_flags);
	cpuset_change_task_nodemask(t, nodes);
	/* The store before the bit; pairs with hgroup_rebind_mm(). */
	smp_mb__before_atomic();
	set_bit(HGROUP_TASK_REBIND, &t->hgroup_flags);
}

static void hgroup_compute_mems(struct task_struct *t, nodemask_t *nodes)
{
	*nodes = cpuset_mems_allowed(t);
}

static const void *hgroup_cpuset_of(struct task_struct *t)
{
	return task_css(t, cpuset_cgrp_id);
}
#else
static inline void hgroup_apply_mems(struct task_struct *t,
				     nodemask_t *nodes) { }
static inline void hgroup_compute_mems(struct task_struct *t,
				       nodemask_t *nodes) { }
static inline const void *hgroup_cpuset_of(struct task_struct *t)
{
	return NULL;
}
#endif

/**
 * hgroup_set_fits - does a set leave every thread of a group something?
 * @attr: HGROUP_ATTR_CPUS or HGROUP_ATTR_MEMS.
 * @set: the set, NULL for every possible one.
 * @hg: the group.
 *
 * A set may only narrow what each thread's cpuset gives it: one with
 * nothing in a thread's cpuset is refused rather than let the thread out
 * of its cpuset (see cpuset_task_meets()).  Called with cpuset_lock(),
 * which keeps tasks from changing cpusets meanwhile, and tasklist_lock.
 *
 * Return: true if @set meets the cpuset of every thread of @hg.
 */
static bool hgroup_set_fits(unsigned int attr,
			    const struct hgroup_set *set, struct hgroup *hg)
{
	const void *cs, *prev = NULL;
	const struct cpumask *cpus = NULL;
	const nodemask_t *mems = NULL;
	struct task_struct *t;
	bool ret = true;

	if (!set)
		return true;
	if (attr == HGROUP_ATTR_CPUS)
		cpus = to_cpumask(set->bits);
	else
		mems = (const nodemask_t *)set->bits;
	/*
	 * Fewer cpusets than threads, as a rule: if every cpuset meets the
	 * set, so does every thread's.  Looking at no more cpusets than
	 * half the threads bounds what a miss costs.
	 */
	if (cpuset_all_meet(cpus, mems, hg->nr_threads / 2))
		return true;
	rcu_read_lock();
	for (t = hgroup_next_task(hg, NULL); t && ret;
	     t = hgroup_next_task(hg, t)) {
		if (t->flags & PF_EXITING)
			continue;
		/* The answer depends on the cpuset only. */
		cs = hgroup_cpuset_of(t);
		if (cs != prev) {
			prev = cs;
			ret = cpuset_task_meets(t, cpus, mems);
		}
	}
	rcu_read_unlock();
	return ret;
}

/* Counter for hgroup::push_gen, shared by all domains. */
static atomic64_t hgroup_gen_seq = ATOMIC64_INIT(0);

/* The set of @hg that @attr is about. */
static struct hgroup_set *hgroup_set_of(const struct hgroup *hg,
					unsigned int attr)
{
	return attr == HGROUP_ATTR_CPUS ? hgroup_deref(hg->cpus, hg) :
		hgroup_deref(hg->mems, hg);
}

/* The slot of @hg that holds the set @attr is about. */
static struct hgroup_set __rcu **hgroup_slot(struct hgroup *hg,
					     unsigned int attr)
{
	return attr == HGROUP_ATTR_CPUS ? &hg->cpus : &hg->mems;
}

static int hgroup_sets_parse(struct hgroup_change *c, const void *kattr)
{
	return hgroup_set_from_user(c->ops->attr, kattr, &c->set);
}

static void hgroup_sets_get(struct hgroup_change *c)
{
	hgroup_set_get(c->set);
}

static void hgroup_sets_put(struct hgroup_change *c)
{
	hgroup_set_put(c->set);
}

static void hgroup_cpus_copy(struct hgroup *hg, const struct hgroup *from)
{
	RCU_INIT_POINTER(hg->cpus,
			 hgroup_set_get(hgroup_deref(from->cpus, from)));
	/* Both sets as @from has them: no push when moving between them. */
	atomic64_set(&hg->push_gen, atomic64_read(&from->push_gen));
}

static void hgroup_mems_copy(struct hgroup *hg, const struct hgroup *from)
{
	RCU_INIT_POINTER(hg->mems,
			 hgroup_set_get(hgroup_deref(from->mems, from)));
	atomic64_set(&hg->push_gen, atomic64_read(&from->push_gen));
}

static void hgroup_cpus_release(struct hgroup *hg)
{
	hgroup_set_put(rcu_dereference_raw(hg->cpus));
}

static void hgroup_mems_release(struct hgroup *hg)
{
	hgroup_set_put(rcu_dereference_raw(hg->mems));
}

static void hgroup_sets_value(const struct hgroup *hg, struct hgroup_change *c)
{
	c->set = hgroup_set_of(hg, c->ops->attr);
}

/*
 * The page allocator looks at mems_allowed only once some cpuset other
 * than the root exists (cpusets_enabled()).  The first node set the
 * caller may give (it passed the checks of permission, lifting and the
 * LSMs) turns that check on, as the first child cpuset would, and for
 * good: turning it off again would need a count kept from RCU callbacks.
 * A set refused then by the checks of the group's members may have
 * turned it on; any user may do as much with a set on a group of its
 * own.  Every caller returns only once the check is on.
 */
static void hgroup_mems_prepare(const struct hgroup_change *c)
{
#ifdef CONFIG_CPUSETS
	static DEFINE_MUTEX(lock);
	static bool enabled;

	if (!c->set || READ_ONCE(enabled))
		return;
	mutex_lock(&lock);
	if (!enabled) {
		cpus_read_lock();
		cpuset_inc();
		cpus_read_unlock();
		WRITE_ONCE(enabled, true);
	}
	mutex_unlock(&lock);
#endif
}

static bool hgroup_sets_allows(const struct hgroup *limit,
			       const struct hgroup *hg,
			       const struct hgroup_change *c)
{
	unsigned int attr = c->ops->attr;

	return hgroup_set_allows(attr, c->set, hgroup_set_of(hg, attr),
				 hgroup_set_of(limit, attr));
}

static bool hgroup_sets_lifts_only(const struct hgroup *hg,
				   const struct hgroup_change *c)
{
	unsigned int attr = c->ops->attr;

	return hgroup_set_allows(attr, hgroup_set_of(hg, attr), c->set, c->set);
}

static bool hgroup_sets_fits(struct hgroup *hg, const struct hgroup_change *c)
{
	return hgroup_set_fits(c->ops->attr, c->set, hg);
}

/* The sets must meet the thread's cpuset, or they would not bind. */
static bool hgroup_cpus_may_join(struct task_struct *t, const struct hgroup *to)
{
	const struct hgroup_set *set = hgroup_deref(to->cpus, to);

	return cpuset_task_meets(t, set ? to_cpumask(set->bits) : NULL, NULL);
}

static bool hgroup_mems_may_join(struct task_struct *t, const struct hgroup *to)
{
	const struct hgroup_set *set = hgroup_deref(to->mems, to);

	return cpuset_task_meets(t, NULL,
				 set ? (const nodemask_t *)set->bits : NULL);
}

static void hgroup_sets_apply(struct hgroup *hg, struct hgroup_change *c)
{
	struct hgroup_set __rcu **slot = hgroup_slot(hg, c->ops->attr);
	struct hgroup_set *set = hgroup_set_of(hg, c->ops->attr);

	if (set == c->set)
		return;
	rcu_assign_pointer(*slot, hgroup_set_get(c->set));
	hgroup_set_put(set);
	/*
	 * A generation of its own for every group changed, also in one
	 * domain-scope call: two groups share a generation only when one
	 * copied its sets from the other, so that a process moving between
	 * them needs no push.  Pairs with the acquire in
	 * hgroup_apply_sets().
	 */
	atomic64_set_release(&hg->push_gen,
			     atomic64_inc_return(&hgroup_gen_seq));
	hgroup_push(hg, c);
}

static int hgroup_sets_to_user(const struct hgroup_change *c, void *kattr)
{
	return hgroup_set_to_user(c->ops->attr, c->set, kattr);
}

/* The LSMs' say, as over sched_setaffinity() and a move into a cpuset. */
static int hgroup_sets_lsm(struct task_struct *t,
			   const struct hgroup_change *c)
{
	return security_task_setscheduler(t);
}

const struct hgroup_restriction hgroup_cpus_restriction = {
	.attr		= HGROUP_ATTR_CPUS,
	.kind		= HGROUP_ATTR_CPUS,
	.size_ver0	= HGROUP_MASK_SIZE_VER0,
	.size		= sizeof(struct hgroup_mask),
	.cpusets	= true,
	.parse		= hgroup_sets_parse,
	.get		= hgroup_sets_get,
	.put		= hgroup_sets_put,
	.copy		= hgroup_cpus_copy,
	.release	= hgroup_cpus_release,
	.value		= hgroup_sets_value,
	.allows		= hgroup_sets_allows,
	.lifts_only	= hgroup_sets_lifts_only,
	.fits		= hgroup_sets_fits,
	.may_join	= hgroup_cpus_may_join,
	.lsm		= hgroup_sets_lsm,
	.lsm_sleeps	= true,
	.apply		= hgroup_sets_apply,
	.to_user	= hgroup_sets_to_user,
};

const struct hgroup_restriction hgroup_mems_restriction = {
	.attr		= HGROUP_ATTR_MEMS,
	.kind		= HGROUP_ATTR_MEMS,
	.size_ver0	= HGROUP_MASK_SIZE_VER0,
	.size		= sizeof(struct hgroup_mask),
	.disabled	= !IS_ENABLED(CONFIG_CPUSETS),
	.cpusets	= true,
	.parse		= hgroup_sets_parse,
	.get		= hgroup_sets_get,
	.put		= hgroup_sets_put,
	.copy		= hgroup_mems_copy,
	.release	= hgroup_mems_release,
	.value		= hgroup_sets_value,
	.allows		= hgroup_sets_allows,
	.lifts_only	= hgroup_sets_lifts_only,
	.fits		= hgroup_sets_fits,
	.may_join	= hgroup_mems_may_join,
	.lsm		= hgroup_sets_lsm,
	.lsm_sleeps	= true,
	.prepare	= hgroup_mems_prepare,
	.apply		= hgroup_sets_apply,
	.to_user	= hgroup_sets_to_user,
};

/* The generation of the sets of @t's group, 0 if it has none. */
static u64 hgroup_task_gen(struct task_struct *t)
{
	const struct hgroup *hg;
	u64 gen;

	rcu_read_lock();
	hg = rcu_dereference(t->signal->hgroup);
	/* Pairs with the release in hgroup_sets_apply(). */
	gen = hg ? atomic64_read_acquire(&hg->push_gen) : 0;
	rcu_read_unlock();
	return gen;
}

/*
 * Make @m's key the one of @t (see struct hgroup_masks), and *@gen the
 * generation of @t's group's sets; return whether the key was that
 * already.
 */
static bool hgroup_masks_key(struct task_struct *t, struct hgroup_masks *m,
			     u64 *gen)
{
	const struct hgroup_set *cpus = NULL, *mems = NULL;
	const struct cpumask *possible;
	const struct hgroup *hg;
	const void *cs;
	bool same;

	*gen = 0;
	rcu_read_lock();
	hg = rcu_dereference(t->signal->hgroup);
	if (hg) {
		/* Pairs with the release in hgroup_sets_apply(). */
		*gen = atomic64_read_acquire(&hg->push_gen);
		cpus = rcu_dereference(hg->cpus);
		mems = rcu_dereference(hg->mems);
	}
	cs = hgroup_cpuset_of(t);
	possible = task_cpu_possible_mask(t);
	rcu_read_unlock();
	same = m->cpus_set == cpus && m->mems_set == mems && m->cs == cs &&
	       m->possible == possible;
	m->cpus_set = cpus;
	m->mems_set = mems;
	m->cs = cs;
	m->possible = possible;
	return same;
}

/**
 * hgroup_apply_sets_to - a thread takes its group's sets
 * @t: the thread, current or held with a reference.
 * @m: the masks computed for the thread before, if any.
 *
 * cpuset_cpus_allowed() and cpuset_mems_allowed() answer which CPUs and
 * nodes a task may use, for its cpuset and its process group together
 * (see hgroup_cpus_allowed()), so the thread only takes their answer.  A
 * thread's own affinity, the mask it last gave sched_setaffinity()
 * (task_struct::user_cpus_ptr), is kept as a cpuset change keeps it:
 * set_cpus_allowed_ptr() narrows the new mask to it where the two meet.
 * Called with cpuset_lock() held, so that no cpuset update, and no other
 * application to @t, comes between computing and setting.
 *
 * Return: false if @t's CPUs could not be set; it keeps its generation.
 */
bool hgroup_apply_sets_to(struct task_struct *t, struct hgroup_masks *m)
{
	u64 gen;

	if (t->flags & PF_EXITING)
		return true;
	if (!hgroup_masks_key(t, m, &gen) || !m->valid) {
		cpuset_cpus_allowed(t, m->cpus);
		hgroup_compute_mems(t, &m->mems);
		/*
		 * Moved to another group meanwhile, @t was sent the virtual
		 * signal; these masks may be of either group: use them for
		 * @t only.
		 */
		m->valid = hgroup_masks_key(t, m, &gen);
	}
	if (set_cpus_allowed_ptr(t, m->cpus))
		return false;
	hgroup_apply_mems(t, &m->mems);
	/* After the masks, for a copy by fork; see hgroup_task_init(). */
	atomic64_set_release(&t->hgroup_gen, gen);
	/*
	 * Moved meanwhile into a group whose generation is the one @t had
	 * (made from the same group), it was not sent the virtual signal,
	 * and these masks may be of the group it left.  Pairs with the
	 * barrier in hgroup_moved().
	 */
	smp_mb();
	return hgroup_task_gen(t) == gen;
}

/**
 * hgroup_apply_sets - the current thread takes its group's sets
 *
 * Called from the virtual signal, in process context on the way back to
 * user space.
 */
void hgroup_apply_sets(void)
{
	struct hgroup_masks m = { };
	struct hgroup_rebind r = { };

	if (zalloc_cpumask_var(&m.cpus, GFP_KERNEL)) {
		cpuset_lock();
		hgroup_apply_sets_to(current, &m);
		cpuset_unlock();
		free_cpumask_var(m.cpus);
	}
	hgroup_rebind_mm(current, &r);
	hgroup_rebind_done(&r);
}

/**
 * hgroup_task_cpus - the CPU set of a task's process group
 * @p: the task.
 *
 * Called under rcu_read_lock(); the set stays valid until it is dropped.
 *
 * Return: the set, or NULL if the group has none.
 */
const struct cpumask *hgroup_task_cpus(struct task_struct *p)
{
	const struct hgroup *hg = rcu_dereference(p->signal->hgroup);
	const struct hgroup_set *set = hg ? rcu_dereference(hg->cpus) : NULL;

	return set ? to_cpumask(set->bits) : NULL;
}

/**
 * hgroup_task_mems - the memory-node set of a task's process group
 * @p: the task.
 *
 * Called under rcu_read_lock(); the set stays valid until it is dropped.
 *
 * Return: the set, or NULL if the group has none.
 */
const nodemask_t *hgroup_task_mems(struct task_struct *p)
{
	const struct hgroup *hg = rcu_dereference(p->signal->hgroup);
	const struct hgroup_set *set = hg ? rcu_dereference(hg->mems) : NULL;

	return set ? (const nodemask_t *)set->bits : NULL;
}

/**
 * hgroup_cpus_allowed - narrow a CPU mask to a task's group's set
 * @p: the task.
 * @mask: the CPUs its cpuset allows, narrowed in place.
 *
 * Called by cpuset_cpus_allowed() and wherever the cpuset code computes
 * a task's CPUs, so that the cpuset and the group always bind together.
 *
 * Return: true if @mask was narrowed or the group has no CPU set; false,
 * with @mask unchanged (the cpuset's mask stays in force), if the two
 * have no active CPU in common.
 */
bool hgroup_cpus_allowed(struct task_struct *p, struct cpumask *mask)
{
	const struct cpumask *cpus;
	bool ret = true;

	unsigned int cpu;

	rcu_read_lock();
	cpus = hgroup_task_cpus(p);
	if (cpus) {
		ret = false;
		for_each_cpu_and(cpu, mask, cpus)
			if (cpu_active(cpu))
				ret = true;
		if (ret)
			cpumask_and(mask, mask, cpus);
	}
	rcu_read_unlock();
	return ret;
}

/**
 * hgroup_mems_allowed - narrow a node mask to a task's group's set
 * @p: the task.
 * @mask: the nodes its cpuset allows, narrowed in place.
 *
 * The counterpart of hgroup_cpus_allowed() for memory nodes.
 *
 * Return: true if @mask was narrowed or the group has no node set; false,
 * with @mask unchanged, if the two have no node in common.
 */
bool hgroup_mems_allowed(struct task_struct *p, nodemask_t *mask)
{
	const nodemask_t *mems;
	bool ret = true;

	rcu_read_lock();
	mems = hgroup_task_mems(p);
	if (mems) {
		ret = nodes_intersects(*mask, *mems);
		if (ret)
			nodes_and(*mask, *mask, *mems);
	}
	rcu_read_unlock();
	return ret;
}
