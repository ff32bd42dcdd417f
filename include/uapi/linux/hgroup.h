/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * hgroups: process domains - user-space API.
 *
 * See Documentation/hgroup.rst for the model.
 */

#ifndef _UAPI_LINUX_HGROUP_H
#define _UAPI_LINUX_HGROUP_H

#include <linux/types.h>

/**
 * DOC: set_domainid
 *
 * ``long set_domainid(unsigned int flags);``
 *
 * Start a new process domain, subordinate to the caller's domain.  The
 * caller must be the only process in its session and in its process group
 * (the state right after setsid() in a process with no children) and must
 * be in domain 0 of its own PID namespace.  The new domain's id is the
 * caller's pid, and its leader process group is the caller's process
 * group.  The caller and everything it starts afterwards stay in the
 * domain: no call moves a process or a process group to another domain.
 *
 * @flags must be 0.  No privilege is needed: a domain only adds structure.
 *
 * Returns the new domain's id, or -1 with errno set to:
 *
 * - ``EINVAL``: @flags has an unknown bit set (checked first);
 * - ``EPERM``: the caller is not in domain 0 of its PID namespace (create
 *   a PID namespace to nest domains), or (checked after ``EBUSY``) its
 *   process group already leads a domain (one whose creator is outside
 *   the namespace);
 * - ``EBUSY``: another process, a zombie too, is in the caller's session
 *   or process group, or shares or has shared the caller's memory
 *   (``clone()`` with ``CLONE_VM``, or the caller is a ``vfork()`` child
 *   that has not called ``execve()``);
 * - ``EAGAIN``: as many domains exist as there can be pids;
 * - ``ENOMEM``: out of memory.
 */

/**
 * DOC: get_domainid
 *
 * ``long get_domainid(pid_t pid);``
 *
 * Return the domain id of process @pid, or of the caller if @pid is 0,
 * as seen from the caller's PID namespace, like getsid().  The domain that
 * contains the namespace's init, and any domain whose creator is not
 * visible in the namespace, reads as 0.
 *
 * Returns the id, or -1 with errno set to:
 *
 * - ``ESRCH``: no process with that pid is visible in the caller's PID
 *   namespace, or @pid is negative.
 */

/**
 * DOC: restrictions
 *
 * ``long hgroup_set_attr(pid_t pgid, unsigned int attr, const void *uattr,
 * size_t size, unsigned int flags);``
 *
 * ``long hgroup_get_attr(pid_t pgid, unsigned int attr, void *uattr,
 * size_t size, unsigned int flags);``
 *
 * Every process group carries a set of restrictions that bind all its
 * tasks.  @pgid names the process group in the caller's PID namespace, 0
 * meaning the caller's own.  @attr is one of &enum hgroup_attr_id and
 * @uattr points to the structure that goes with it, of @size bytes.  The
 * structures are size-versioned like those of sched_setattr() and
 * clone3(): an older, smaller structure is accepted (the missing tail
 * reads as zero), and a larger one is accepted only if its unknown tail is
 * zero.  Fields documented as "output" must be zero on input to
 * hgroup_set_attr().
 *
 * @flags: %HGROUP_SCOPE_DOMAIN makes hgroup_set_attr() change every
 * process group of @pgid's domain at once (not its sub-domains), as one
 * atomic step: no process group created concurrently is missed.  The task
 * limit and the scheduling flags are properties of the domain and require
 * %HGROUP_SCOPE_DOMAIN with both calls; with %HGROUP_ATTR_CPU the flag
 * names the domain's limits rather than the process group's, with both
 * calls.  hgroup_get_attr() accepts no other flag.
 *
 * Permission: the caller's effective uid must be the owner of each target
 * process group (the effective uid of the process that created it), or the
 * caller must have %CAP_SYS_ADMIN in the user namespace that owns the
 * target's PID namespace.  Reading needs no permission.  Tightening is
 * always allowed to a permitted caller.  Lifting (allowing more than the
 * group allows now) is allowed only up to what the caller's own process
 * group, every process group above it and every process group above the
 * target in the hierarchy allow: nobody grants what they do not have.
 * A kind of restriction that a caller other than the owner set (by
 * %CAP_SYS_ADMIN), or that a group had when a process not its owner made
 * a new group from it, may be lifted only with %CAP_SYS_ADMIN in that
 * caller's (or owner's namespace's) user namespace from then on, in the
 * group and in the groups made from it, until lifted to no restriction.
 * The kernel never propagates a change to other process groups; a new
 * process group starts with the restrictions of the group it was created
 * from, and setpgid() into an existing group that allows more than the
 * mover's own, or that has its values from its owner where the mover's
 * group has them from an administrator, fails with ``EPERM`` unless the
 * caller could lift the mover's group that far; the LSMs are asked about
 * a change of freeze flags the move makes as for hgroup_set_attr().
 *
 * Both calls return 0, or -1 with errno set to:
 *
 * - ``EINVAL``: unknown @attr, unknown bit in @flags or in a field, a
 *   missing or misplaced %HGROUP_SCOPE_DOMAIN, non-zero reserved or output
 *   field, @size smaller than the first version of the structure, an empty
 *   or all-offline CPU or memory-node set, a CPU or memory-node set with
 *   nothing in the cpuset of some task of the group, a malformed device
 *   rule;
 * - ``E2BIG``: @size is larger than the kernel's structure and the extra
 *   bytes are not zero, or larger than a page;
 * - ``EFAULT``: a bad pointer;
 * - ``ESRCH``: no process group @pgid in the caller's PID namespace;
 * - ``EPERM``: the caller may not change the target (see above), or the
 *   target is the initial process group of the kernel threads (so also
 *   any %HGROUP_SCOPE_DOMAIN change of a group of domain 0), or the
 *   change lifts a kind an administrator set and the caller has no
 *   %CAP_SYS_ADMIN where it was set, or the change restricts a task the
 *   caller has no %CAP_SYS_ADMIN over and either could not signal (as
 *   kill() checks by uid) or that has not set no_new_privs, or the
 *   change would tighten in place a CPU budget other groups share and
 *   the caller is neither the user it was set for nor an administrator
 *   over it, or lift a budget an administrator tightened (through any
 *   of its groups), or the caller may not redirect (see &struct
 *   hgroup_redirect);
 * - ``EACCES``: the change would lift a restriction beyond what the
 *   caller's own group or a group above the target allows;
 * - ``EACCES`` or ``EPERM`` (or another errno an LSM chooses): an LSM
 *   refused the change for a task of the group, with the hook it uses
 *   for sched_setaffinity() (CPU and memory-node sets; ``EPERM`` also
 *   where a task has capabilities the caller lacks and the caller has
 *   no %CAP_SYS_NICE, as there) or kill() (freeze flags: ``SIGSTOP`` if
 *   the tasks are to stop, else ``SIGCONT``);
 * - ``ENOSPC``: hgroup_get_attr(): the device rule buffer is too small;
 *   &hgroup_devices.nr_rules has been set to the number needed;
 * - ``EOPNOTSUPP``: the kernel cannot enforce @attr (memory nodes without
 *   %CONFIG_CPUSETS, memory without %CONFIG_HGROUP_MEM or with
 *   ``hgroup_memory=off``);
 * - ``EXDEV``, ``EBUSY``: see &struct hgroup_redirect;
 * - ``EINTR``: a fatal signal arrived while waiting;
 * - ``ENOMEM``: out of memory.
 *
 * On any error nothing has changed.
 */

/**
 * enum hgroup_attr_id - the kinds of restriction
 * @HGROUP_ATTR_TASKS: the most tasks (threads) the domain may hold,
 *	counting its sub-domains; &struct hgroup_tasks.
 * @HGROUP_ATTR_CPUS: the CPUs the group's tasks may run on; &struct
 *	hgroup_mask.  No task's affinity can be widened beyond it, and it
 *	only narrows what the task's cpuset allows: a task cannot be moved
 *	into a cpuset it does not meet (``ENOSPC``).
 * @HGROUP_ATTR_MEMS: the memory nodes the group's tasks may allocate
 *	from; &struct hgroup_mask.  Bound to cpusets as the CPUs are.
 * @HGROUP_ATTR_DEVICES: which devices the group's tasks may open (also
 *	block devices opened by number, as mount() does) and create;
 *	&struct hgroup_devices.
 * @HGROUP_ATTR_FREEZE: freezing; &struct hgroup_freeze.
 * @HGROUP_ATTR_SCHED: how the domain's process groups and sub-domains
 *	are grouped for CPU scheduling; &struct hgroup_sched.  A property
 *	of the domain, named with %HGROUP_SCOPE_DOMAIN.
 * @HGROUP_ATTR_CPU: CPU limits, a weight bound and a bandwidth, and
 *	CPU statistics; &struct hgroup_cpu.  With %HGROUP_SCOPE_DOMAIN,
 *	those of the domain; without, those of the process group, a budget
 *	it shares with every group made from it.
 * @HGROUP_ATTR_REDIRECT: the process group in whose CPU budget the
 *	group's tasks are scheduled; &struct hgroup_redirect.
 * @HGROUP_ATTR_MEM: the memory charged to the domain; &struct hgroup_mem.
 *	Named with %HGROUP_SCOPE_DOMAIN.
 */
enum hgroup_attr_id {
	HGROUP_ATTR_TASKS = 1,
	HGROUP_ATTR_CPUS = 2,
	HGROUP_ATTR_MEMS = 3,
	HGROUP_ATTR_DEVICES = 4,
	HGROUP_ATTR_FREEZE = 5,
	HGROUP_ATTR_SCHED = 6,
	HGROUP_ATTR_CPU = 7,
	HGROUP_ATTR_REDIRECT = 8,
	HGROUP_ATTR_MEM = 9,
};

/* Flags of hgroup_set_attr() and hgroup_get_attr(). */
#define HGROUP_SCOPE_DOMAIN	(1U << 0)

/* &struct hgroup_tasks.max: no limit */
#define HGROUP_TASKS_UNLIMITED	(~0ULL)

/**
 * struct hgroup_tasks - the task limit of a domain
 * @max: fork() and clone() in the domain or any of its sub-domains fail
 *	with EAGAIN while the domain holds @max tasks or more.
 *	%HGROUP_TASKS_UNLIMITED, the default, is no limit.  A limit below the
 *	current count is allowed: it only stops growth.
 * @nr_tasks: output: tasks (threads) now in the domain and its
 *	sub-domains.
 */
struct hgroup_tasks {
	__u64 max;
	__u64 nr_tasks;
};

#define HGROUP_TASKS_SIZE_VER0	16

/**
 * struct hgroup_mask - a set of CPUs or memory nodes
 * @mask: user pointer to an array of __u64, bit N % 64 of element N / 64
 *	meaning CPU (or node) N: the same layout for 32-bit and 64-bit
 *	tasks, and on a little-endian machine the layout of
 *	sched_setaffinity()'s array of unsigned long.
 * @mask_size: size of the array in bytes, a multiple of 8.  Setting
 *	ignores bits beyond the last possible CPU or node; getting needs
 *	room for every possible one and writes no more than the kernel's
 *	count of them rounded up to 64 bits (clear the buffer first).
 * @__reserved: must be 0.
 *
 * A group with no restriction reads as every possible CPU (or node).
 */
struct hgroup_mask {
	__aligned_u64 mask;
	__u32 mask_size;
	__u32 __reserved;
};

#define HGROUP_MASK_SIZE_VER0	16

/* &struct hgroup_dev_rule.type */
#define HGROUP_DEV_BLOCK	(1U << 0)
#define HGROUP_DEV_CHAR		(1U << 1)
#define HGROUP_DEV_ALL		(HGROUP_DEV_BLOCK | HGROUP_DEV_CHAR)

/* &struct hgroup_dev_rule.access */
#define HGROUP_DEV_READ		(1U << 0)
#define HGROUP_DEV_WRITE	(1U << 1)
#define HGROUP_DEV_MKNOD	(1U << 2)
#define HGROUP_DEV_ACC_ALL	(HGROUP_DEV_READ | HGROUP_DEV_WRITE | \
				 HGROUP_DEV_MKNOD)

/* &struct hgroup_dev_rule major or minor: any number */
#define HGROUP_DEV_ANY		(~0U)

/**
 * struct hgroup_dev_rule - one entry of a device access list
 * @type: %HGROUP_DEV_BLOCK, %HGROUP_DEV_CHAR or both (%HGROUP_DEV_ALL).
 * @access: a non-empty set of %HGROUP_DEV_READ, %HGROUP_DEV_WRITE and
 *	%HGROUP_DEV_MKNOD.
 * @major: the device's major number, or %HGROUP_DEV_ANY.
 * @minor: the device's minor number, or %HGROUP_DEV_ANY.
 */
struct hgroup_dev_rule {
	__u32 type;
	__u32 access;
	__u32 major;
	__u32 minor;
};

/* &struct hgroup_devices.policy */
#define HGROUP_DEV_POLICY_ALLOW	0	/* allow all but the rules */
#define HGROUP_DEV_POLICY_DENY	1	/* deny all but the rules */

#define HGROUP_DEV_MAX_RULES	256

/**
 * struct hgroup_devices - the device access list of a process group
 * @policy: %HGROUP_DEV_POLICY_ALLOW: every access is allowed except those
 *	a rule matches; %HGROUP_DEV_POLICY_DENY: every access is denied
 *	except those a rule allows in full.  This is the model of the
 *	cgroup v1 devices controller.
 * @nr_rules: number of rules at @rules, at most %HGROUP_DEV_MAX_RULES.
 *	For hgroup_get_attr(), the capacity of @rules on input and the
 *	number of rules of the list on output.
 * @rules: user pointer to an array of &struct hgroup_dev_rule.
 *
 * An unrestricted group reads as %HGROUP_DEV_POLICY_ALLOW with no rules.
 */
struct hgroup_devices {
	__u32 policy;
	__u32 nr_rules;
	__aligned_u64 rules;
};

#define HGROUP_DEVICES_SIZE_VER0	16

/* &struct hgroup_freeze.flags */
#define HGROUP_FREEZE_ALL	(1U << 0)
#define HGROUP_FREEZE_NEW_PGRP	(1U << 1)

/* &struct hgroup_freeze.state */
#define HGROUP_STATE_FROZEN	(1U << 0)

/**
 * struct hgroup_freeze - the freeze setting of a process group
 * @flags: %HGROUP_FREEZE_ALL stops every task of the group in a freezer
 *	trap, as the cgroup v2 freezer does; %HGROUP_FREEZE_NEW_PGRP makes
 *	every setsid() and set_domainid(), and every setpgid() that would
 *	create a process group, by or for a task of the group block until
 *	the flag is lifted (signals are handled meanwhile, and the call
 *	then blocks again); once hgroup_set_attr() has set
 *	it, no group is being made from the group.  hgroup_set_attr()
 *	replaces the whole setting.
 * @state: output: %HGROUP_STATE_FROZEN once every task of the group is
 *	frozen (in the trap, stopped, traced, waiting for a vfork() child
 *	or in one of the calls held back above, or exiting).
 */
struct hgroup_freeze {
	__u32 flags;
	__u32 state;
};

#define HGROUP_FREEZE_SIZE_VER0	8

/* &struct hgroup_sched.flags */
#define HGROUP_SCHED_GROUP_PGRPS	(1U << 0)
#define HGROUP_SCHED_GROUP_DOMAINS	(1U << 1)

/**
 * struct hgroup_sched - the scheduling groups of a domain
 * @flags: %HGROUP_SCHED_GROUP_PGRPS makes each process group of the
 *	domain a scheduling group: the groups share the CPU as wholes, as
 *	the sessions do with autogroup.  %HGROUP_SCHED_GROUP_DOMAINS makes
 *	each sub-domain one, within which its own flags apply.  A group is
 *	nested in the group of the nearest domain above it that is one.
 *	The weight of a group is that of its runnable tasks (from their
 *	nice values), at most that of one nice-0 task (a domain's, at most
 *	its &struct hgroup_cpu weight_max).  Setting a flag is
 *	tightening, clearing one is lifting; a new domain starts with its
 *	parent's flags.  Domain 0 starts with none; only %CAP_SYS_ADMIN in
 *	the initial user namespace changes its flags.
 * @__reserved: must be 0.
 */
struct hgroup_sched {
	__u32 flags;
	__u32 __reserved;
};

#define HGROUP_SCHED_SIZE_VER0	8

/* &struct hgroup_cpu.quota_us: no bandwidth limit */
#define HGROUP_CPU_UNLIMITED	(~0ULL)

/**
 * struct hgroup_cpu - the CPU limits and statistics of a domain or group
 * @weight_max: the upper bound of the weight against the siblings, in
 *	the units of cgroup v2's cpu.weight: 1 to 10000, 100 (the default)
 *	being one nice-0 task.  The domain or budget weighs what its
 *	runnable tasks weigh, at most this much.
 * @__reserved: must be 0.
 * @quota_us: the CPU time the tasks may use in each period, in
 *	microseconds, together: at least 1000 and at most 2^40, or
 *	%HGROUP_CPU_UNLIMITED (the default).  Enforced with the limits of
 *	the domains above: the tighter limit holds.
 * @period_us: the period, 1000 to 1000000 microseconds; default 100000.
 * @usage_us: output: CPU time the tasks used while the domain had a task
 *	group of its own (for a process group: its budget's, or its own
 *	scheduling group's).
 * @nr_periods: output: periods in which they had runnable tasks under a
 *	quota.
 * @nr_throttled: output: periods in which they ran out of quota.
 * @throttled_us: output: time the tasks waited for quota.
 *
 * A domain with a limit is a scheduling group of its own (whatever its
 * parent's %HGROUP_SCHED_GROUP_DOMAINS says), which holds its process
 * groups and sub-domains; the statistics count from when it became one.
 *
 * A process group's limit is a budget: one scheduling group, inside its
 * domain's, for the group and every process group later made from it
 * (by setsid(), setpgid() or, for the domain it starts, set_domainid()),
 * so that making groups multiplies nothing.  Tightening the limit of any
 * group of a budget tightens the budget, while others share it only by
 * the user it was set for or an administrator over that group; a lift,
 * or a change that lifts one field and lowers another, gives the target
 * group a budget of its own when others share the old one; the default
 * values leave the budget, which is lifting.  Lowering a limit is
 * tightening, raising it lifting; what an administrator tightened binds
 * every group of the budget.
 */
struct hgroup_cpu {
	__u32 weight_max;
	__u32 __reserved;
	__u64 quota_us;
	__u64 period_us;
	__u64 usage_us;
	__u64 nr_periods;
	__u64 nr_throttled;
	__u64 throttled_us;
};

#define HGROUP_CPU_SIZE_VER0	56

/* &struct hgroup_redirect.state: the group redirected to has ended */
#define HGROUP_REDIRECT_ENDED	(1U << 0)

/**
 * struct hgroup_redirect - schedule a process group in another's context
 * @pgid: the process group, in the caller's PID namespace, whose CPU
 *	budget the target's tasks are to run in, as one with its own (a
 *	server's worker group charged to its client's group); 0 to end a
 *	redirection.  It must be in the target's domain and PID namespace
 *	and not be the target.  Read back: that group's number in the
 *	caller's namespace (0 if it has none there), or 0 for none.
 * @state: output: %HGROUP_REDIRECT_ENDED once the group redirected to
 *	has no process left; its number may name another group by then.
 *
 * Setting or ending a redirection needs %CAP_SYS_ADMIN in the user
 * namespace that owns the target's PID namespace (``EPERM``), and a
 * target not in a CPU budget of its own (``EBUSY``: lift that first).
 * The target leaves its budget (if a redirection gave it one) and joins
 * the named group's, which gets a budget without limits if it has none:
 * the two are scheduled, and limited, as one task group, the named
 * group's limits holding for both.  Process groups made from the target
 * afterwards are redirected too.  When the named group ends the target
 * stays in the budget, with its limits, until the redirection is ended
 * or changed; when the target ends, nothing changes for the named
 * group.  Errors: ``EINVAL`` for the target itself, a negative @pgid, a
 * non-zero @state or any flag; ``ESRCH`` for a group that does not
 * exist; ``EXDEV`` for a group in another domain or PID namespace.
 */
struct hgroup_redirect {
	__s32 pgid;
	__u32 state;
};

#define HGROUP_REDIRECT_SIZE_VER0	8

/* &struct hgroup_mem.max: no limit */
#define HGROUP_MEM_UNLIMITED	(~0ULL)

/**
 * struct hgroup_mem_events - counts of memory events of a domain
 * @max: charges that found the hard limit reached.
 * @reclaim: passes of reclaim for the hard limit.
 * @oom: times reclaim could not make room and the OOM killer was asked.
 * @oom_kill: processes killed for want of memory (by the OOM killer for
 *	a domain's limit or the system's), counted where they were charged.
 */
struct hgroup_mem_events {
	__u64 max;
	__u64 reclaim;
	__u64 oom;
	__u64 oom_kill;
};

/**
 * struct hgroup_mem - the memory charged to a domain
 * @max: the hard limit, in bytes, rounded down to pages; at least one
 *	page; %HGROUP_MEM_UNLIMITED, the default, is none.  At the limit a
 *	charge reclaims the domain's own memory (clean page cache dropped,
 *	dirty left to the flushers, anonymous memory swapped), then has the
 *	OOM killer choose among the domain's processes (``oom_score_adj``
 *	honoured), then fails: a page fault kills the faulting process,
 *	and calls that can report it fail (``mlock()`` with ``EAGAIN``,
 *	``read()`` and ``write()`` with ``ENOMEM``).  Setting it below the
 *	usage reclaims and kills down to it, as far as possible, after the
 *	call has set it.  Lowering it is tightening, raising it lifting.
 * @soft: the soft limit, in bytes, rounded down to pages, at most @max;
 *	0, the default, is none, %HGROUP_MEM_UNLIMITED all.  It does
 *	nothing while memory is plentiful.  Under global memory pressure,
 *	reclaim passes over the memory of a domain within its soft limit
 *	(unless nothing else is left), and takes that of a domain over it
 *	with a chance of the excess over the usage.  Raising it is lifting,
 *	lowering it tightening; a domain's is bounded by the one above's,
 *	a top domain's by %CAP_SYS_ADMIN.  ``EOPNOTSUPP`` with MGLRU on.
 * @usage: output: the bytes of user memory (anonymous, page cache,
 *	shmem and tmpfs) charged to the domain and its sub-domains, exact
 *	at the moment of reading.
 * @peak: output: the highest @usage since the domain was made.
 * @local: output: the domain's own events.
 * @subtree: output: the events of the domain and every domain below it.
 *
 * Memory is charged, in pages, to the domain of the process it is
 * faulted in for (the owner of the mm; for page cache, the process that
 * reads or writes it), and to every domain above; it is refunded to the
 * domain charged when it is freed, also after that domain has ended.
 * Domain 0 is not charged: it reads 0, and has no limit.  Kernel memory
 * (page tables, slab, pipe and socket buffers), hugetlbfs pages and swap
 * are not charged.  Both limits are set by every hgroup_set_attr().
 * Errors of hgroup_set_attr(): ``EINVAL`` for a limit below a page or
 * above what the kernel counts (but %HGROUP_MEM_UNLIMITED), a soft limit
 * above the hard one, or a non-zero output field; ``EOPNOTSUPP`` when
 * the kernel charges no memory (booted with ``hgroup_memory=off``).
 */
struct hgroup_mem {
	__u64 max;
	__u64 soft;
	__u64 usage;
	__u64 peak;
	struct hgroup_mem_events local;
	struct hgroup_mem_events subtree;
};

#define HGROUP_MEM_SIZE_VER0	32
#define HGROUP_MEM_SIZE_VER1	96

#endif /* _UAPI_LINUX_HGROUP_H */
