// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: freezing.
 *
 * "Freeze all" uses the freezer trap of the cgroup v2 freezer with a job
 * control bit of its own, JOBCTL_TRAP_HGROUP: each thread is asked, like
 * a signal asks it, to stop in do_freezer_trap() on its way to user space.
 * The parent sees no stop, SIGKILL still kills, and a thread that was
 * stopped by SIGSTOP or a tracer stays so: thawing only wakes threads
 * sleeping in the trap.  Both freezers can hold one thread; it runs again
 * when neither does.
 *
 * A group reads as frozen once every thread is in the trap or otherwise
 * unable to return to user space until thawed: stopped, traced, exiting,
 * or in a freezable sleep it is not woken from (a vfork() parent).  As
 * the cgroup freezer does, each group keeps counts, so that reading the
 * state is O(1): hgroup::nr_threads, and hgroup::nr_frozen, the threads
 * that entered such a state (hgroup_enter_frozen(), called where
 * cgroup_enter_frozen() is, and by an exiting thread) and have not left
 * it.  A thread changes its own count under its siglock, which
 * a move to another group holds too, and release uncounts it.
 *
 * "Freeze on new process group" holds back setsid(), set_domainid() and
 * the setpgid() calls that would create a group.  They check it with
 * tasklist_lock held for writing, where they would make the group, and
 * the setting is changed with tasklist_lock held, so once
 * hgroup_set_attr() has set it no group is made from the group any more.
 * A call held back drops the lock, waits on a hashed wait queue of the
 * group that held it until the setting is lifted, a member leaves the
 * group or a signal comes (so that a stop or a freeze, ours or the
 * cgroup's, is taken at once), and is then restarted from scratch:
 * nothing is looked up outside the lock, and a call for a process that
 * exited or moved meanwhile gets the answer it would get now.
 */

#include <linux/freezer.h>
#include <linux/sched/jobctl.h>
#include <linux/security.h>
#include <linux/wait_bit.h>

#include "hgroup.h"

/**
 * hgroup_freeze_task - ask a thread to enter or leave the freezer trap
 * @t: the thread.
 * @freeze: enter if true, leave if false.
 */
void hgroup_freeze_task(struct task_struct *t, bool freeze)
{
	unsigned long flags;

	if (t->flags & PF_KTHREAD || !lock_task_sighand(t, &flags))
		return;
	if (freeze) {
		t->jobctl |= JOBCTL_TRAP_HGROUP;
		signal_wake_up(t, false);
	} else if (t->jobctl & JOBCTL_TRAP_HGROUP) {
		t->jobctl &= ~JOBCTL_TRAP_HGROUP;
		wake_up_process(t);
	}
	unlock_task_sighand(t, &flags);
}

/* Let the calls @hg holds back try again. */
static void hgroup_unblock(struct hgroup *hg)
{
	WRITE_ONCE(hg->unblock_seq, hg->unblock_seq + 1);
	/* Pairs with the barrier in set_current_state() of the waiter. */
	smp_mb();
	wake_up_var(&hg->unblock_seq);
}

/*
 * Change the freeze setting of a group; the domain's mutex and
 * tasklist_lock held.
 */
static void hgroup_freeze_apply(struct hgroup *hg,
				struct hgroup_change *c)
{
	unsigned int old = hg->freeze, flags = c->freeze;
	struct task_struct *t;

	WRITE_ONCE(hg->freeze, flags);
	if ((old ^ flags) & HGROUP_FREEZE_ALL)
		for (t = hgroup_next_task(hg, NULL); t;
		     t = hgroup_next_task(hg, t))
			hgroup_freeze_task(t, flags & HGROUP_FREEZE_ALL);
	if (old & ~flags & HGROUP_FREEZE_NEW_PGRP)
		hgroup_unblock(hg);
}

/* Count the current thread in or out of its group's hgroup::nr_frozen. */
static void hgroup_count_frozen(bool frozen)
{
	struct task_struct *t = current;
	/* Only the thread itself replaces its sighand, at exec. */
	struct sighand_struct *sighand = rcu_dereference_protected(t->sighand,
								   true);
	struct hgroup *hg;
	unsigned long flags;

	/*
	 * Every caller runs before exit_notify(), so the thread is not
	 * released yet: its sighand and its group are there.
	 */
	spin_lock_irqsave(&sighand->siglock, flags);
	hg = rcu_dereference_protected(t->signal->hgroup,
				       lockdep_is_held(&sighand->siglock));
	if (frozen) {
		set_bit(HGROUP_TASK_FROZEN, &t->hgroup_flags);
		atomic_inc(&hg->nr_frozen);
	} else {
		clear_bit(HGROUP_TASK_FROZEN, &t->hgroup_flags);
		atomic_dec(&hg->nr_frozen);
	}
	spin_unlock_irqrestore(&sighand->siglock, flags);
}

/**
 * hgroup_enter_frozen - the current thread cannot return to user space
 *
 * Called where cgroup_enter_frozen() is (the freezer trap, a job-control
 * or ptrace stop, a vfork() wait) and by an exiting thread done with its
 * mm and files (beside cgroup_exit()), without the siglock.  The thread
 * counts as frozen for its group until hgroup_leave_frozen() or its
 * release.
 */
void hgroup_enter_frozen(void)
{
	if (!hgroup_task_frozen(current))
		hgroup_count_frozen(true);
}

/**
 * hgroup_leave_frozen - the current thread may return to user space
 *
 * Called without the siglock after the sleeps hgroup_enter_frozen()
 * marks; does nothing for a thread not counted.
 */
void hgroup_leave_frozen(void)
{
	if (hgroup_task_frozen(current))
		hgroup_count_frozen(false);
}

/*
 * Is "freeze all" set and no thread of @hg able to return to user space?
 * tasklist_lock held, so that no thread joins or leaves meanwhile; the
 * frozen count is read once, a snapshot of threads that change it under
 * their own siglock.
 */
static bool hgroup_frozen(struct hgroup *hg)
{
	lockdep_assert_held(&tasklist_lock);
	return hg->freeze & HGROUP_FREEZE_ALL &&
	       atomic_read(&hg->nr_frozen) == hg->nr_threads;
}

static int hgroup_freeze_parse(struct hgroup_change *c, const void *kattr)
{
	const struct hgroup_freeze *fz = kattr;

	if (fz->state ||
	    fz->flags & ~(HGROUP_FREEZE_ALL | HGROUP_FREEZE_NEW_PGRP))
		return -EINVAL;
	c->freeze = fz->flags;
	return 0;
}

static void hgroup_freeze_copy(struct hgroup *hg, const struct hgroup *from)
{
	hg->freeze = from->freeze;
}

static void hgroup_freeze_value(const struct hgroup *hg,
				struct hgroup_change *c)
{
	c->freeze = hg->freeze;
}

/* A flag may be cleared only where @limit does not have it. */
static bool hgroup_freeze_allows(const struct hgroup *limit,
				 const struct hgroup *hg,
				 const struct hgroup_change *c)
{
	/* @limit may be in another domain, changing meanwhile. */
	return !(READ_ONCE(limit->freeze) & hg->freeze & ~c->freeze);
}

static bool hgroup_freeze_lifts_only(const struct hgroup *hg,
				     const struct hgroup_change *c)
{
	return !(c->freeze & ~hg->freeze);
}

static void hgroup_freeze_read(struct hgroup *hg, void *kattr)
{
	struct hgroup_freeze *fz = kattr;

	fz->flags = hg->freeze;
	fz->state = hgroup_frozen(hg) ? HGROUP_STATE_FROZEN : 0;
}

/*
 * The LSMs' say, as over the signal a change of the flags stands for:
 * SIGSTOP if the members are to stop, else SIGCONT (a thaw, or "freeze
 * on new process group" alone, which stops nobody).
 */
static int hgroup_freeze_lsm(struct task_struct *t,
			     const struct hgroup_change *c)
{
	int sig = c->freeze & HGROUP_FREEZE_ALL ? SIGSTOP : SIGCONT;

	return security_task_kill(t, SEND_SIG_NOINFO, sig, NULL);
}

const struct hgroup_restriction hgroup_freeze_restriction = {
	.attr		= HGROUP_ATTR_FREEZE,
	.kind		= HGROUP_ATTR_FREEZE,
	.size_ver0	= HGROUP_FREEZE_SIZE_VER0,
	.size		= sizeof(struct hgroup_freeze),
	.parse		= hgroup_freeze_parse,
	.copy		= hgroup_freeze_copy,
	.value		= hgroup_freeze_value,
	.allows		= hgroup_freeze_allows,
	.lifts_only	= hgroup_freeze_lifts_only,
	.lsm		= hgroup_freeze_lsm,
	.apply		= hgroup_freeze_apply,
	.read		= hgroup_freeze_read,
};

/**
 * hgroup_blocks_new - may no process group be made from this one now?
 * @hg: the group.
 *
 * Return: true while @hg has %HGROUP_FREEZE_NEW_PGRP.
 */
bool hgroup_blocks_new(const struct hgroup *hg)
{
	return READ_ONCE(hg->freeze) & HGROUP_FREEZE_NEW_PGRP;
}

/**
 * hgroup_member_left - a member has left a group
 * @hg: the group.
 *
 * Called with tasklist_lock held for writing.  A call held back by @hg
 * may have been for that member, so it tries again; costs nothing for a
 * group without %HGROUP_FREEZE_NEW_PGRP.
 */
void hgroup_member_left(struct hgroup *hg)
{
	if (hgroup_blocks_new(hg))
		hgroup_unblock(hg);
}

/**
 * hgroup_block_new - hold back a call that would make a group from @hg
 * @hg: the group, with %HGROUP_FREEZE_NEW_PGRP.
 * @blocker: where to keep a reference to @hg for the wait.
 * @seq: where to note @hg's hgroup::unblock_seq.
 *
 * Called with tasklist_lock held for writing.
 *
 * Return: -EAGAIN, for the call to wait in hgroup_pgrp_finish() or
 * hgroup_domain_create() and be restarted.
 */
int hgroup_block_new(struct hgroup *hg, struct hgroup **blocker,
		     unsigned int *seq)
{
	*blocker = hgroup_get(hg);
	*seq = hg->unblock_seq;
	return -EAGAIN;
}

/**
 * hgroup_wait_unblocked - wait until a held-back call may try again
 * @hg: the group that held it back (a reference is held).
 * @seq: @hg's hgroup::unblock_seq when it did.
 *
 * Sleeps interruptibly and freezably, outside any lock: a signal, a
 * job-control stop or a freezer (cgroup's or ours) ends the wait, and is
 * handled before the call is tried again.
 *
 * Return: what makes the call restart.
 */
int hgroup_wait_unblocked(struct hgroup *hg, unsigned int seq)
{
	___wait_var_event(&hg->unblock_seq, READ_ONCE(hg->unblock_seq) != seq,
			  (TASK_INTERRUPTIBLE | TASK_FREEZABLE), 0, 0,
			  schedule());
	return restart_syscall();
}
