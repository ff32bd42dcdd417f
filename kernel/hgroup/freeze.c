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
 * or in a freezable sleep it is not woken from (a vfork() parent).  The
 * state is computed when read, so fork, exit and setpgid() need no
 * counters.
 *
 * "Freeze on new process group" makes setsid() and the setpgid() calls
 * that create a group wait, killably, before they take tasklist_lock.  A
 * per-CPU rwsem, read-held from that check until the call is done, lets
 * the setting wait for calls already past it: when hgroup_set_attr()
 * returns, no group is being created from a group with the setting.
 */

#include <linux/percpu-rwsem.h>
#include <linux/sched/jobctl.h>
#include <linux/wait.h>

#include "hgroup.h"

DEFINE_STATIC_PERCPU_RWSEM(hgroup_pgrp_rwsem);
static DECLARE_WAIT_QUEUE_HEAD(hgroup_freeze_wq);

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

/**
 * hgroup_freeze_set - change the freeze setting of a group
 * @hg: the group.
 * @flags: HGROUP_FREEZE_* flags.
 *
 * Called with hgroup_attr_mutex and tasklist_lock held.
 */
void hgroup_freeze_set(struct hgroup *hg, unsigned int flags)
{
	unsigned int old = hg->freeze;
	struct task_struct *t;

	WRITE_ONCE(hg->freeze, flags);
	if ((old ^ flags) & HGROUP_FREEZE_ALL)
		for (t = hgroup_next_task(hg, NULL); t;
		     t = hgroup_next_task(hg, t))
			hgroup_freeze_task(t, flags & HGROUP_FREEZE_ALL);
	if (old & ~flags & HGROUP_FREEZE_NEW_PGRP)
		wake_up_all(&hgroup_freeze_wq);
}

static bool hgroup_task_frozen(struct task_struct *t)
{
	if (t->flags & PF_EXITING)
		return true;
	if (!(READ_ONCE(t->jobctl) & JOBCTL_TRAP_HGROUP))
		return false;
	return task_is_stopped_or_traced(t) ||
	       READ_ONCE(t->__state) & TASK_FREEZABLE;
}

/**
 * hgroup_frozen - is every thread of a group frozen?
 * @hg: the group.
 *
 * Called with tasklist_lock held.
 *
 * Return: true if "freeze all" is set and no thread of the group can
 * return to user space.
 */
bool hgroup_frozen(struct hgroup *hg)
{
	struct task_struct *t;

	if (!(hg->freeze & HGROUP_FREEZE_ALL))
		return false;
	for (t = hgroup_next_task(hg, NULL); t;
	     t = hgroup_next_task(hg, t))
		if (!hgroup_task_frozen(t))
			return false;
	return true;
}

void hgroup_freeze_new_lock(void)
{
	percpu_down_write(&hgroup_pgrp_rwsem);
}

void hgroup_freeze_new_unlock(void)
{
	percpu_up_write(&hgroup_pgrp_rwsem);
}

static bool hgroup_blocks_new(pid_t pid)
{
	struct task_struct *t;
	const struct hgroup *hg;
	bool ret;

	rcu_read_lock();
	ret = READ_ONCE(task_hgroup(current)->freeze) & HGROUP_FREEZE_NEW_PGRP;
	t = pid && !ret ? find_task_by_vpid(pid) : NULL;
	hg = t ? task_hgroup(t) : NULL;
	if (hg)
		ret = READ_ONCE(hg->freeze) & HGROUP_FREEZE_NEW_PGRP;
	rcu_read_unlock();
	return ret;
}

/**
 * hgroup_freeze_new_wait - wait while a new process group may not be made
 * @pid: the process setpgid() moves, 0 for setsid() by the caller.
 * @pgid: the group it moves it to; equal to @pid if it creates one.
 *
 * Waits while the caller's group, or that of the process @pid, has
 * HGROUP_FREEZE_NEW_PGRP.  On success the caller holds off that setting
 * until hgroup_freeze_new_done().
 *
 * Return: 0, or -EINTR if a fatal signal came.
 */
int hgroup_freeze_new_wait(pid_t pid, pid_t pgid)
{
	for (;;) {
		percpu_down_read(&hgroup_pgrp_rwsem);
		if (pid != pgid || !hgroup_blocks_new(pid))
			return 0;
		percpu_up_read(&hgroup_pgrp_rwsem);
		if (wait_event_killable(hgroup_freeze_wq,
					!hgroup_blocks_new(pid)))
			return -EINTR;
	}
}

void hgroup_freeze_new_done(void)
{
	percpu_up_read(&hgroup_pgrp_rwsem);
}
