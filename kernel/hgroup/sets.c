// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: the CPU set and the memory-node set.
 *
 * Both are immutable bitmaps, shared by reference between process groups
 * (NULL meaning "every possible one").  Each thread applies its group's
 * sets to itself when the virtual signal reaches it (propagate.c): the
 * CPUs with set_cpus_allowed_ptr(), the nodes through the cpuset's
 * mems_allowed, which is what the page allocator honours.
 * sched_setaffinity() intersects what it is asked for with the CPU set,
 * as it does with the cpuset, and fails with EINVAL when nothing is left.
 */

#include <linux/cpu.h>
#include <linux/cpuset.h>
#include <linux/nodemask.h>
#include <linux/sched.h>
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

/*
 * The page allocator looks at mems_allowed only once some cpuset other
 * than the root exists (cpusets_enabled()).  The first node set turns
 * that check on as the first child cpuset would, and for good: turning it
 * off again would need a count kept from RCU callbacks.
 */
static void hgroup_enable_mems(void)
{
#ifdef CONFIG_CPUSETS
	static atomic_t enabled = ATOMIC_INIT(0);

	if (atomic_xchg(&enabled, 1))
		return;
	cpus_read_lock();
	cpuset_inc();
	cpus_read_unlock();
#endif
}

/**
 * hgroup_set_from_user - build a set from hgroup_set_attr()
 * @attr: HGROUP_ATTR_CPUS or HGROUP_ATTR_MEMS.
 * @m: the attribute, in kernel memory; @m->mask is a user pointer.
 * @out: the new set (one reference), or NULL if it is every possible one.
 *
 * Bits beyond the last possible CPU or node are ignored.
 *
 * Return: 0, -EINVAL for a bad size or a set with nothing usable in it,
 * -EFAULT, -ENOMEM.
 */
int hgroup_set_from_user(unsigned int attr, const struct hgroup_mask *m,
			 struct hgroup_set **out)
{
	struct hgroup_set_kind k = hgroup_kind(attr);
	unsigned int len = m->mask_size;
	struct hgroup_set *set;

	if (m->__reserved || !len || len % sizeof(long))
		return -EINVAL;
	set = kzalloc(struct_size(set, bits, BITS_TO_LONGS(k.bytes * 8)),
		      GFP_KERNEL_ACCOUNT);
	if (!set)
		return -ENOMEM;
	if (copy_from_user(set->bits, u64_to_user_ptr(m->mask),
			   min_t(size_t, len, k.bytes))) {
		kfree(set);
		return -EFAULT;
	}
	bitmap_and(set->bits, set->bits, k.possible, k.nbits);
	bitmap_clear(set->bits, k.nbits, k.bytes * 8 - k.nbits);
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
		if (attr == HGROUP_ATTR_MEMS)
			hgroup_enable_mems();
	}
	*out = set;
	return 0;
}

/**
 * hgroup_set_to_user - copy a set out for hgroup_get_attr()
 * @attr: HGROUP_ATTR_CPUS or HGROUP_ATTR_MEMS.
 * @set: the set, NULL for every possible one.
 * @m: the attribute, in kernel memory; @m->mask is a user pointer.
 *
 * Return: 0, -EINVAL if @m->mask_size cannot hold every possible CPU or
 * node or is not a multiple of sizeof(long), or -EFAULT.
 */
int hgroup_set_to_user(unsigned int attr, const struct hgroup_set *set,
		       const struct hgroup_mask *m)
{
	struct hgroup_set_kind k = hgroup_kind(attr);
	unsigned int len = m->mask_size;

	if (m->__reserved || (u64)len * BITS_PER_BYTE < k.nbits ||
	    len % sizeof(long))
		return -EINVAL;
	len = min_t(size_t, len, k.bytes);
	if (copy_to_user(u64_to_user_ptr(m->mask), hgroup_set_bits(attr, set),
			 len))
		return -EFAULT;
	return 0;
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
bool hgroup_set_allows(unsigned int attr, const struct hgroup_set *new,
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

/* Apply @want, within the cpuset's nodes if they meet. */
static void hgroup_apply_mems(const nodemask_t *want)
{
#ifdef CONFIG_CPUSETS
	nodemask_t nodes = cpuset_mems_allowed(current);

	nodes_and(nodes, nodes, *want);
	if (nodes_empty(nodes))
		nodes_and(nodes, *want, node_states[N_MEMORY]);
	cpuset_change_task_nodemask(current, &nodes);
#endif
}

/**
 * hgroup_apply_sets - the current thread takes its group's sets
 *
 * Called from the virtual signal, in process context on the way back to
 * user space.  The new affinity is the group's CPU set within the
 * cpuset's, or the group's set alone if they do not meet; likewise for
 * memory nodes.  A thread's own narrower affinity is not kept: like a
 * cpuset change, a change of the group's set resets it.
 */
void hgroup_apply_sets(void)
{
	const struct hgroup_set *cpus, *mems;
	const struct hgroup *hg;
	cpumask_var_t mask;
	nodemask_t nodes;
	u64 gen;

	if (!alloc_cpumask_var(&mask, GFP_KERNEL))
		return;
	cpuset_cpus_allowed(current, mask);
	rcu_read_lock();
	hg = rcu_dereference(current->signal->hgroup);
	if (!hg) {
		rcu_read_unlock();
		goto out;
	}
	/* Pairs with the release in hgroup_apply_one(). */
	gen = smp_load_acquire(&hg->push_gen);
	cpus = rcu_dereference(hg->cpus);
	if (cpus && !cpumask_and(mask, mask, to_cpumask(cpus->bits)))
		cpumask_copy(mask, to_cpumask(cpus->bits));
	mems = rcu_dereference(hg->mems);
	nodes = mems ? *(const nodemask_t *)mems->bits : node_possible_map;
	rcu_read_unlock();

	set_cpus_allowed_ptr(current, mask);
	hgroup_apply_mems(&nodes);
	current->hgroup_gen = gen;
out:
	free_cpumask_var(mask);
}

/**
 * hgroup_cpus_allowed - limit a CPU mask to a task's group's set
 * @p: the task.
 * @mask: the mask, changed in place.
 *
 * Called by sched_setaffinity() beside cpuset_cpus_allowed().
 */
void hgroup_cpus_allowed(struct task_struct *p, struct cpumask *mask)
{
	const struct hgroup_set *cpus;
	const struct hgroup *hg;

	rcu_read_lock();
	hg = rcu_dereference(p->signal->hgroup);
	cpus = hg ? rcu_dereference(hg->cpus) : NULL;
	if (cpus)
		cpumask_and(mask, mask, to_cpumask(cpus->bits));
	rcu_read_unlock();
}
