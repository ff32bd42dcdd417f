// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: bringing threads to their group's CPU and node sets.
 *
 * A restriction that lives in each task (its CPU affinity, its allowed
 * nodes) is pushed to every thread of a process group by the changer, in
 * place, as a cpuset write updates the tasks of a cpuset: the threads are
 * taken under tasklist_lock once, before the change, for both the LSMs'
 * say and the update (a count of joins per group tells whether any joined
 * until the change is made), and updated after it, with cpuset_lock()
 * held; a sleeping thread gets a mask store and no wake-up.  What the
 * changer cannot do (no room for the list, an update that failed, a
 * thread that forks or joins meanwhile) goes by the
 * virtual signal: task_work_add(TWA_SIGNAL), so that the thread applies
 * its group's current sets itself on its way back to user space.  Each
 * thread has one embedded callback; a pending bit keeps it from being
 * queued twice, and the callback always reads the newest state.
 *
 * Races with fork and setpgid() are closed by generations: a change bumps
 * hgroup::push_gen and a thread records in task_struct::hgroup_gen what
 * it applied.  A new thread, or a process moving to another group, is
 * checked against its group's generation with tasklist_lock held for
 * writing, which excludes a concurrent change and the taking of its
 * threads.
 */

#include <linux/cpumask.h>
#include <linux/cpuset.h>
#include <linux/mempolicy.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>

#include "hgroup.h"

/* Have @p and @q the same CPU and node masks? */
static bool hgroup_same_masks(struct task_struct *p, struct task_struct *q)
{
	/*
	 * A change may be updating @q meanwhile: a torn read only queues
	 * @p's callback for nothing (see hgroup_task_init()).
	 */
	if (!data_race(cpumask_equal(&p->cpus_mask, &q->cpus_mask)))
		return false;
#ifdef CONFIG_CPUSETS
	/* The same for @q's nodes. */
	if (!data_race(nodes_equal(p->mems_allowed, q->mems_allowed)))
		return false;
#endif
	return true;
}

static void hgroup_work_fn(struct callback_head *head)
{
	clear_bit(HGROUP_TASK_WORK_QUEUED, &current->hgroup_flags);
	/* A change after this point queues the work again. */
	smp_mb__after_atomic();
	hgroup_apply_sets();
}

/* Send the virtual signal to @t. */
static void hgroup_kick(struct task_struct *t)
{
	if (t->flags & PF_KTHREAD ||
	    test_and_set_bit(HGROUP_TASK_WORK_QUEUED, &t->hgroup_flags))
		return;
	if (task_work_add(t, &t->hgroup_work, TWA_SIGNAL))
		clear_bit(HGROUP_TASK_WORK_QUEUED, &t->hgroup_flags);
}

/**
 * hgroup_push_alloc - make room for the threads a change takes
 * @c: the change.
 * @max: how many.
 *
 * Return: 0 or -ENOMEM.
 */
int hgroup_push_alloc(struct hgroup_change *c, unsigned int max)
{
	c->pushed = kvmalloc(struct_size(c->pushed, tasks, max),
			     GFP_KERNEL | __GFP_NOWARN);
	if (!c->pushed)
		return -ENOMEM;
	c->pushed->nr = 0;
	c->pushed->seen = 0;
	c->pushed->max = max;
	return 0;
}

/*
 * Take @t for hgroup_push_finish(), if @pushed has room; @pushed may be
 * NULL.  A thread not yet woken may take its creator's masks again in
 * cgroup_post_fork() (cpuset_fork()), after its update: for a change of
 * @cpusets it also gets the virtual signal, and applies the sets itself
 * on its way to user space (an io_uring thread, before its first
 * request).  io_uring's threads set their own affinity when they start,
 * and read the allowed CPUs again after (io_thread_set_affinity()): they
 * are not interrupted in a request.
 *
 * Return: whether @t was taken.
 */
static bool hgroup_take(struct hgroup_pushed *pushed, struct task_struct *t,
			bool cpusets)
{
	if (cpusets && READ_ONCE(t->__state) & TASK_NEW)
		hgroup_kick(t);
	if (!pushed || pushed->nr >= pushed->max)
		return false;
	pushed->tasks[pushed->nr++] = get_task_struct(t);
	return true;
}

/**
 * hgroup_take_threads - take the threads of a group a change is about
 * @hg: the group.
 * @c: the change, with the room made by hgroup_push_alloc().
 *
 * Called with tasklist_lock held, before the change is made: the threads
 * are taken once, for the LSMs, asked after the lock is dropped, and for
 * the update in place after the change (hgroup_push()).  Those beyond the
 * room are only counted, in hgroup_pushed::seen, for a second try with
 * more.  @hg's count of joins is noted, so that the change can tell
 * whether a thread joined meanwhile.
 */
void hgroup_take_threads(struct hgroup *hg, struct hgroup_change *c)
{
	struct task_struct *t;

	lockdep_assert_held(&tasklist_lock);
	hg->taken = c->id;
	hg->taken_joins = hg->joins;
	for (t = hgroup_next_task(hg, NULL); t; t = hgroup_next_task(hg, t)) {
		if (t->flags & PF_KTHREAD)
			continue;
		hgroup_take(c->pushed, t, c->ops->cpusets);
		c->pushed->seen++;
	}
}

/**
 * hgroup_push - bring every thread of a group to its new sets
 * @hg: the group, whose hgroup::push_gen has just changed.
 * @c: the change, with the threads hgroup_take_threads() took, if any.
 *
 * Called with tasklist_lock held, so that a thread that forks or joins
 * later is checked against the new generation (hgroup_task_init(),
 * hgroup_moved()).  The threads are updated in place by
 * hgroup_push_finish() once the lock is dropped, as a cpuset write
 * updates the tasks of a cpuset: a sleeping thread is not woken.  If
 * they were taken before and none joined since, there is nothing to do
 * here; otherwise they are taken now, again for those taken before,
 * and those beyond the room get the virtual signal.
 */
void hgroup_push(struct hgroup *hg, const struct hgroup_change *c)
{
	struct hgroup_pushed *pushed = c->pushed;
	struct task_struct *t;

	if (pushed && hg->taken == c->id && hg->taken_joins == hg->joins)
		return;
	for (t = hgroup_next_task(hg, NULL); t; t = hgroup_next_task(hg, t))
		if (!(t->flags & PF_KTHREAD) &&
		    !hgroup_take(pushed, t, c->ops->cpusets))
			hgroup_kick(t);
}

#ifdef CONFIG_CPUSETS
static nodemask_t hgroup_nodes_now(struct task_struct *t)
{
	nodemask_t mems;

	task_lock(t);
	mems = t->mems_allowed;
	task_unlock(t);
	return mems;
}

/*
 * Have a thread of @t's process rebind its mm itself, on its way back to
 * user space: @t, or another if @t is exiting.
 */
static void hgroup_kick_rebind(struct task_struct *t)
{
	struct task_struct *p;

	rcu_read_lock();
	for_each_thread(t, p) {
		if (p->flags & (PF_EXITING | PF_KTHREAD))
			continue;
		set_bit(HGROUP_TASK_REBIND, &p->hgroup_flags);
		hgroup_kick(p);
		break;
	}
	rcu_read_unlock();
}

/**
 * hgroup_rebind_mm - rebind the memory policies of a thread's process
 * @t: the thread, current or held with a reference.
 * @r: what the caller rebound last.
 *
 * If @t's nodes changed (hgroup_apply_mems()), the policies of its
 * memory areas are rebound to them, as a cpuset change rebinds them
 * (cpuset_update_tasks_nodemask()): an interleave or a bind over nodes
 * now outside the set is remapped into it.  Called with no lock held.
 * A changer does not wait for the mm's mmap_lock, which the process can
 * hold for as long as it likes (reading its /proc/PID/mem over a FUSE
 * file, say): if it is taken, a thread of the process rebinds its mm
 * itself, by the virtual signal, and only that process waits.  Two
 * changes may rebind one mm in either order, so the nodes are read again
 * after: if they changed meanwhile, the thread rebinds again itself.
 */
void hgroup_rebind_mm(struct task_struct *t, struct hgroup_rebind *r)
{
	struct mm_struct *mm;
	nodemask_t mems, now;

	if (!hgroup_task_rebinding(t))
		return;
	mm = get_task_mm(t);
	if (!mm) {
		clear_bit(HGROUP_TASK_REBIND, &t->hgroup_flags);
		return;
	}
	mems = hgroup_nodes_now(t);
	if (mm == r->mm && nodes_equal(mems, r->mems)) {
		/* A thread of the same process, rebound just before. */
	} else if (t == current) {
		mpol_rebind_mm(mm, &mems);
	} else if (!mpol_try_rebind_mm(mm, &mems)) {
		mmput(mm);
		hgroup_kick_rebind(t);
		return;
	}
	if (r->mm != mm) {
		hgroup_rebind_done(r);
		/* The mm_struct, not the address space, for the comparison. */
		mmgrab(mm);
		r->mm = mm;
	}
	r->mems = mems;
	mmput(mm);
	clear_bit(HGROUP_TASK_REBIND, &t->hgroup_flags);
	/* Pairs with the set_bit() after the store in hgroup_apply_mems(). */
	smp_mb__after_atomic();
	now = hgroup_nodes_now(t);
	if (!nodes_equal(mems, now))
		hgroup_kick_rebind(t);
}

/**
 * hgroup_rebind_done - drop what hgroup_rebind_mm() kept
 * @r: what was rebound last.
 */
void hgroup_rebind_done(struct hgroup_rebind *r)
{
	if (r->mm)
		mmdrop(r->mm);
	r->mm = NULL;
}
#else
void hgroup_rebind_mm(struct task_struct *t, struct hgroup_rebind *r) { }
void hgroup_rebind_done(struct hgroup_rebind *r) { }
#endif

/* Threads updated in place per hold of cpuset_lock(). */
#define HGROUP_PUSH_BATCH	64

/**
 * hgroup_push_finish - update in place the threads hgroup_push() took
 * @c: the change.
 *
 * Called after the change, with no lock held.  The threads are updated
 * in batches under cpuset_lock(), which the virtual signal takes too:
 * a user's group of many threads holds it for a batch, not for all of
 * them, so cpuset writes and the virtual signal get in between.  Each
 * thread takes the sets of the group it is in when it is updated, which
 * may no longer be the one changed, so nothing is lost between batches;
 * only the masks computed before are not reused.  One whose update fails
 * (its CPUs went offline meanwhile, say) keeps its generation and gets
 * the virtual signal.  After each batch, with cpuset_lock() dropped, the
 * memory policies of the processes whose nodes changed are rebound.
 */
void hgroup_push_finish(struct hgroup_change *c)
{
	struct hgroup_pushed *pushed = c->pushed;
	struct hgroup_masks m = { };
	struct hgroup_rebind r = { };
	unsigned int i, done, end;
	bool room;

	if (!pushed)
		return;
	room = zalloc_cpumask_var(&m.cpus, GFP_KERNEL);
	for (done = 0; done < pushed->nr; done = end) {
		end = min(done + HGROUP_PUSH_BATCH, pushed->nr);
		cpuset_lock();
		m.valid = false;
		for (i = done; i < end; i++)
			if (!room || !hgroup_apply_sets_to(pushed->tasks[i], &m))
				hgroup_kick(pushed->tasks[i]);
		cpuset_unlock();
		for (i = done; i < end; i++) {
			hgroup_rebind_mm(pushed->tasks[i], &r);
			put_task_struct(pushed->tasks[i]);
		}
		cond_resched();
	}
	hgroup_rebind_done(&r);
	if (room)
		free_cpumask_var(m.cpus);
	kvfree(pushed);
	c->pushed = NULL;
}

/**
 * hgroup_push_cancel - drop the threads a change took
 * @c: the change, which was not made.
 */
void hgroup_push_cancel(struct hgroup_change *c)
{
	struct hgroup_pushed *pushed = c->pushed;
	unsigned int i;

	if (!pushed)
		return;
	for (i = 0; i < pushed->nr; i++)
		put_task_struct(pushed->tasks[i]);
	kvfree(pushed);
	c->pushed = NULL;
}

/**
 * hgroup_task_init - set up the hgroup state of a new thread
 * @p: the new thread, not yet running nor visible.
 * @hg: the process group it is joining.
 *
 * Called from copy_process() with tasklist_lock held for writing, after
 * ptrace_init_task() has cleared @p's job-control bits.  The thread's
 * affinity was copied from its creator, which may not have applied the
 * latest change yet.
 */
void hgroup_task_init(struct task_struct *p, struct hgroup *hg)
{
	s64 gen;

	p->hgroup_flags = 0;
	init_task_work(&p->hgroup_work, hgroup_work_fn);
	/*
	 * @p copied its masks and generation from its creator while a
	 * change may have updated the creator in place (masks first, then
	 * the generation, see hgroup_apply_sets_to()): a copy that reads
	 * the new generation and an old mask differs from the creator's
	 * mask now.  Pairs with the release there.
	 */
	smp_rmb();
	gen = atomic64_read(&hg->push_gen);
	if (atomic64_read(&p->hgroup_gen) != gen ||
	    (gen && !hgroup_same_masks(p, current)))
		hgroup_kick(p);
	if (hg->freeze & HGROUP_FREEZE_ALL && !(p->flags & PF_KTHREAD)) {
		p->jobctl |= JOBCTL_TRAP_HGROUP;
		set_tsk_thread_flag(p, TIF_SIGPENDING);
	}
}

/**
 * hgroup_moved - a process has moved to another process group
 * @p: the process.
 * @from: the group it left.
 * @to: the group it joined.
 *
 * Called with tasklist_lock held for writing.
 */
void hgroup_moved(struct task_struct *p, const struct hgroup *from,
		  const struct hgroup *to)
{
	bool freeze = to->freeze & HGROUP_FREEZE_ALL;
	bool refreeze = (from->freeze ^ to->freeze) & HGROUP_FREEZE_ALL;
	struct task_struct *t;

	/*
	 * The group switched before the generations are read, against an
	 * update in place that stores a generation and then looks at the
	 * group (see hgroup_apply_sets_to()): one of the two sees the other.
	 */
	smp_mb();

	for_each_thread(p, t) {
		/* A change may be updating @t in place meanwhile. */
		if (atomic64_read(&t->hgroup_gen) !=
		    atomic64_read(&to->push_gen))
			hgroup_kick(t);
		if (refreeze)
			hgroup_freeze_task(t, freeze);
	}
}
