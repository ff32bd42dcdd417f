#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write the series as git format-patch files with a cover letter, against
# the vanilla tree, into build/patchset/, and run checkpatch --strict on
# every patch.  The core comes in stages (mk/stages.sh); make check-series
# builds every patch, the guest tests run the whole series.
set -e
# checkpatch's helpers want Debian's python3 (with ply), not another one.
export PATH=/usr/bin:$PATH
repo=$(cd "$(dirname "$0")/.." && pwd)
B=$repo/build
git_tree=$B/patchset-git
out=$B/patchset
tarball=/usr/src/linux-source-6.12.tar.xz
export GIT_AUTHOR_NAME="hgroups developers" GIT_AUTHOR_EMAIL="hgroup@example.org"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export GIT_AUTHOR_DATE="2026-12-03T00:00:00Z" GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"

if [ ! -f "$B/.patchset-vanilla" ]; then
	rm -rf "$git_tree" "$git_tree.tmp" "$B/.patchset-vanilla"
	mkdir -p "$git_tree.tmp"
	echo "  EXTRACT vanilla tree"
	tar -C "$git_tree.tmp" -xf "$tarball"
	mv "$git_tree.tmp/linux-source-6.12" "$git_tree"
	rmdir "$git_tree.tmp"
	(cd "$git_tree" && git init -q && git add -A -f && git commit -q -m vanilla)
	touch "$B/.patchset-vanilla"
fi
cd "$git_tree"
git checkout -q -f master 2>/dev/null || git checkout -q -f main
git reset -q --hard "$(git rev-list --max-parents=0 HEAD)"
git clean -q -fdx

# Subject and body of a patch file in patches/.
msg_of() {
	sed -n '/^Subject: /{s/^Subject: \[PATCH\] //;p;q}' "$repo/patches/$1"
	echo
	awk 'body && /^---$/ { exit } body { print } /^$/ { body = 1 }' \
		"$repo/patches/$1"
}
apply() { git apply --whitespace=error-all "$repo/patches/$1"; }
add() { for f; do mkdir -p "$(dirname "$f")"; cp "$repo/$f" "$f"; done; }
maint() {
	# Grow the MAINTAINERS entry with the files this patch adds.
	python3 - "$@" <<'PY'
import sys, re
entry = open(sys.argv[1]).read().rstrip('\n').split('\n')
files = sys.argv[2:]
m = open('MAINTAINERS').read()
head = entry[0]
if head not in m:
	# Insert the section in alphabetical order among the entries.
	blocks = m.split('\n\n')
	for i, b in enumerate(blocks):
		t = b.split('\n')[0]
		if i > 0 and re.match(r'^[A-Z0-9]', t) and t > head and \
		   blocks[i - 1].split('\n')[0] < head:
			blocks.insert(i, '\n'.join(entry))
			break
	m = '\n\n'.join(blocks)
start = m.index(head)
end = m.index('\n\n', start)
sec = m[start:end].split('\n')
fl = sorted(set([l for l in sec if l.startswith('F:')] +
		 ['F:\t' + f for f in files]))
sec = [l for l in sec if not l.startswith('F:')] + fl
m = m[:start] + '\n'.join(sec) + m[end:]
open('MAINTAINERS', 'w').write(m)
PY
}
commit() { git add -A -f . && git commit -q -s -F -; }

# The core comes in stages (mk/stages.sh): the repository holds the last,
# patches/stages/ the way back to the others.
stages=$B/stages
"$repo/mk/stages.sh" extract "$stages"
# Put the kernel code of stage $1 in the tree, or with $2 = tests, its
# selftests, or with $2 = tool, its hgctl.
stage() {
	local t=tools/testing/selftests/hgroup h=tools/hgroup

	if [ "$2" = tests ] || [ "$2" = tool ]; then
		[ "$2" = tool ] && t=$h
		(cd "$stages/$1" && tar -cf - $t) | tar -xf -
		return
	fi
	(cd "$stages/$1" && find . -type f ! -name Kconfig ! -path "./$t/*" \
		! -path "./$h/*" | tar -cf - -T -) | tar -xf -
	cp "$stages/$1/Kconfig" kernel/Kconfig.hgroup
}

# The new PID level.
apply 0002-pid-add-domain-level.patch
msg_of 0002-pid-add-domain-level.patch | commit

# Process domains and the state of every process group.
apply 0001-hgroup-build-glue.patch
apply 0003-hgroup-lifecycle-hooks.patch
stage domains
maint "$repo/patches/MAINTAINERS.entry" include/linux/hgroup.h \
	include/uapi/linux/hgroup.h kernel/Kconfig.hgroup kernel/hgroup/
commit <<'EOF2'
hgroup: process domains and per-process-group state

Add CONFIG_HGROUP and kernel/hgroup/: a struct hgroup for every process
group, allocated when the group comes into being in setpgid() or
setsid() and freed after an RCU grace period when its last member
leaves, and process domains above sessions.

A process alone in its session and process group, in domain 0 of its
PID namespace, may start a domain subordinate to its own
(set_domainid(), wired up in the next patch).  Its id is the creator's
pid and its leader process group is the creator's.  Every member process
is linked to that struct pid under PIDTYPE_DOMAIN, as session members
are under PIDTYPE_SID, which keeps the number from being reused while
the domain has members; the kernel's own name for a domain is an id from
an IDA that is not reused while the domain is referenced.  Members of
domain 0 are not linked, so that fork and exit there write no shared
list head.

All process groups of a domain are children of its leader, and a leader
is a child of its parent domain's leader, so process groups form a
single hierarchy with init_task's group at the root.  A domain is
referenced by its process groups and its sub-domains, so it outlives its
leader process group for as long as anything in it, or below it, lives.
Domains form a tree that can be walked without holding a lock from one
step to the next.

setpgid() and setsid() allocate the state of a group they may make
before taking tasklist_lock and install it under the lock only if the
group is new; a setpgid() that joins an existing group allocates
nothing.  The hooks in copy_process(), __unhash_process(), de_thread(),
setpgid() and setsid() are single calls, and nothing allocates or sleeps
under tasklist_lock.

debugfs hgroup/objects counts the live objects, for leak tests, and
hgroup/domains lists the tree of domains.
EOF2

# The domain system calls and /proc.
apply 0004-hgroup-wire-up-syscalls.patch
msg_of 0004-hgroup-wire-up-syscalls.patch | commit
apply 0005-proc-status-domain.patch
msg_of 0005-proc-status-domain.patch | commit
stage domains tests
maint "$repo/patches/MAINTAINERS.entry" tools/testing/selftests/hgroup/
commit <<'EOF2'
selftests/hgroup: test process domains

domain_test: every rule of set_domainid() and get_domainid() with the
exact errno of each refusal and which one wins; inheritance by threads,
forks and exec; that nothing leaves a domain; domains in nested PID
namespaces; that a domain's id stays reserved while it has members; no
leak over 100,000 process-group cycles; 10,000 concurrent cycles.

bench_domain (not run as a test): setsid, exec, setpgid and fork loops,
for comparing a kernel with hgroups and one without.
EOF2

# Restrictions, their permission rule, and the first kind: the
# task limit of a domain.
apply 0007-hgroup-task-limit-hooks.patch
stage restrictions
commit <<'EOF2'
hgroup: restrictions with a permission rule, and a task limit per domain

Every process group carries restrictions that bind all its tasks,
copied into every group made from it.  hgroup_set_attr() changes one
restriction of a group, or of every group of its domain at once
(HGROUP_SCOPE_DOMAIN), and hgroup_get_attr() reads it back; their
structures are size-versioned and copied with copy_struct_from_user(),
as for sched_setattr() and clone3().  The calls are wired up in the
next patch.

Each kind of restriction is a struct hgroup_restriction of operations
(parse, compare with a bound, apply, report) in a file of its own, and
plugs in with one entry in a table; restrict.c keeps the generic rule:

 - a caller may change a group it owns (same euid as the group's
   creator) or holds CAP_SYS_ADMIN over (the user namespace of the
   group's PID namespace); the initial group, of the kernel threads,
   nobody;
 - it may lift (allow more) only within what its own group and every
   group above it, and every group above the target, allow;
 - a kind that an administrator set may be lifted only by an
   administrator of the same or an outer user namespace, and no member
   moves by setpgid() to a group that has the same values from a lesser
   one, or that allows more unless the caller could lift that far;
 - restricting needs, for every thread the caller has no CAP_SYS_ADMIN
   over, that kill() would allow the caller to signal it and that it has
   no_new_privs, as Landlock and seccomp require; such a group then
   admits by setpgid() only processes with no_new_privs.  So a user
   cannot restrict a set-id program it runs, nor a container's root a
   host process that entered its PID namespace.

A change's checks against values (permission, lifting bounds) run under
RCU and the domain's mutex; its checks against the members and the
change itself run under tasklist_lock held for reading, so that fork,
setpgid() and setsid(), which read the restrictions under the lock held
for writing, see each change whole, and a domain-scope change misses no
group made meanwhile.  Changes of different domains do not wait for
each other.

The first kind is the task limit of a domain (HGROUP_ATTR_TASKS):
threads are counted in their domain and every domain above it, from
copy_process(), where the count is checked at the last failure point,
to release.  It needs no trust by the members, like RLIMIT_NPROC.
EOF2
apply 0010-hgroup-wire-up-attr-syscalls.patch
msg_of 0010-hgroup-wire-up-attr-syscalls.patch | commit
stage restrictions tests
commit <<'EOF2'
selftests/hgroup: test the attribute calls and the task limit

restrict_test: every argument check of hgroup_set_attr() and
hgroup_get_attr() for every kind of restriction, with the exact errno
(unknown ids and flags, a missing or misplaced domain scope, sizes below,
above and far above the structure, missing groups), and that a refused
call changes nothing; the task limit of a domain: forks and threads
counted, the creator's threads, zombies, the hierarchy of sub-domains,
and the count returning when a PID namespace ends.

Later patches add the cases of each kind of restriction to the same
table, so that every kind gets every argument check.
EOF2

# CPU and memory-node sets, with the two small changes outside
# kernel/hgroup/ they use, and io_uring's threads.
apply 0011-cpuset-share-task-nodemask-update.patch
msg_of 0011-cpuset-share-task-nodemask-update.patch | commit
apply 0015-mm-mempolicy-try-rebind-mm.patch
msg_of 0015-mm-mempolicy-try-rebind-mm.patch | commit
apply 0016-sched-hgroup-per-thread-state.patch
apply 0012-cpuset-narrow-task-masks-to-hgroup-sets.patch
stage sets
commit <<'EOF2'
hgroup: CPU and memory-node sets

A process group may be given a set of CPUs (HGROUP_ATTR_CPUS) and a set
of memory nodes (HGROUP_ATTR_MEMS).  They are immutable,
reference-counted objects shared by every group with the same set.

The cpuset code narrows every mask it computes for a task (affinity,
mems_allowed, sched_setaffinity(), move_pages()) to its group's sets,
and refuses moves into a cpuset the sets do not meet, so a set never
widens the cpuset.  A set is refused (EINVAL) if it misses the cpuset of
a member, asked once per group from the cpusets where it can be.

The changer updates the threads of the groups in place, as a cpuset
write updates the tasks of a cpuset (a sleeping thread gets a mask store
and no wake-up), after the change and outside tasklist_lock, in batches
under cpuset_lock().  What it cannot do (no room for the list of
threads, an update that failed, a thread that forks or joins meanwhile)
goes by a virtual signal: task_work_add(TWA_SIGNAL), so that the thread
applies its group's sets itself on its way to user space.  Generations
per group and per thread close the races with fork and setpgid().

A node change rebinds the memory policies of each process's areas, as a
cpuset change does; the changer does not wait for an mmap_lock the
process holds (mpol_try_rebind_mm()), the process then rebinds them
itself.  The LSMs are asked about every thread with
security_task_setscheduler(), as for sched_setaffinity().  Without
CONFIG_CPUSETS the memory-node set is refused with EOPNOTSUPP.
EOF2
apply 0014-io_uring-keep-sqpoll-and-io-wq-threads-within-cpuset.patch
msg_of 0014-io_uring-keep-sqpoll-and-io-wq-threads-within-cpuset.patch | commit
stage sets tests
commit <<'EOF2'
selftests/hgroup: test CPU and memory-node sets

restrict_test: CPU sets reaching spinning, sleeping and blocked threads
(1,000 threads too) without waking sleepers, sched_setaffinity()
intersecting, inheritance by threads, forks, exec and new groups,
setpgid() taking the group's set, lifting bounded by the domain's
leader, the domain scope under concurrent group creation; node sets
honoured by the page allocator, and the policies of memory areas
rebound, also while the process holds its mmap_lock (busy, or in a FUSE
read the test's own server holds).

confine_test: escape attempts that must fail: moves into a cpuset
outside the sets (cgroup.procs as root and from a delegated subtree,
clone3(CLONE_INTO_CGROUP)), a cpuset update, a set missing one member's
cpuset, move_pages(), a cpuset migration, io_uring's SQPOLL thread and
io-wq workers, setpgid() into a group whose sets miss the mover's
cpuset, set_domainid() from a group that leads a domain, an owner
lifting what an administrator set, changes racing fork in a cpuset and
the LSMs being asked, and Smack where the kernel has it.

bench_restrict (not run as a test): a CPU-set change reaching 1,000
sleeping threads beside the same cpuset.cpus write, and fork under a
task limit beside a pids cgroup.
EOF2

# Device access lists.
apply 0009-fs-hgroup-device-check.patch
apply 0013-block-hgroup-device-check.patch
stage devices
commit <<'EOF2'
hgroup: device access lists

A process group may be given a device access list (HGROUP_ATTR_DEVICES)
in the model of the cgroup v1 devices controller: a default policy and
up to 256 rules by type, major, minor and access (read, write, mknod).
It is checked at open (inode_permission()), at mknod and in
bdev_permission() for block devices opened by number, beside the cgroup
check.  inode_permission() runs for every path component, so its check
is an inline test of i_rdev behind a static key that is on only while a
device list exists.  Lists are compared rule by rule for the lifting
rule, under RCU only.
EOF2
stage devices tests
commit <<'EOF2'
selftests/hgroup: test device access lists

restrict_test: both policies, rule matching by type, number and access,
malformed rules, reading a list back (ENOSPC with the size needed),
inheritance, lifting, bad pointers, pgid 0 naming the caller's group,
and who may restrict and lift in user namespaces.

confine_test: a block device the list denies cannot be mounted; a
setpgid() racing a restriction ends in the restricted group.
EOF2

# Freezing: the job-control bit, the freeze, and its counts
# beside the cgroup freezer's.
apply 0006-signal-freezer-trap-for-hgroups.patch
msg_of 0006-signal-freezer-trap-for-hgroups.patch | commit
stage freeze
commit <<'EOF2'
hgroup: freezing

HGROUP_ATTR_FREEZE has two flags.  "Freeze all" stops every task of the
group in the freezer trap of the cgroup v2 freezer, with a job-control
bit of its own, and reads as frozen once every thread is unable to
return to user space; the counts are kept per group, so reading is
O(1).  "Freeze on new process group" holds back setsid(),
set_domainid() and the setpgid() calls that would make a group from the
group, checked under tasklist_lock where the group would be made; a call
held back waits, interruptibly and freezably, and is restarted.  The
LSMs are asked about each thread as for kill() with SIGSTOP (or
SIGCONT for a thaw).
EOF2
apply 0008-signal-count-hgroup-frozen-threads.patch
msg_of 0008-signal-count-hgroup-frozen-threads.patch | commit

# The tool, as it is before scheduling groups.
stage freeze tool
maint "$repo/patches/MAINTAINERS.entry" tools/hgroup/
commit <<'EOF2'
tools/hgroup: add hgctl

hgctl run starts a command in a new domain with restrictions; show
prints domains, process groups and processes with their restrictions
and state; set, freeze and thaw change one group or a whole domain; and
apply --recursive propagates restrictions through a domain and every
domain below it without missing a process group created meanwhile
(freeze new process groups, apply, lift).
EOF2

# The rest of the selftests: freezing, hgctl, random calls, 32-bit tasks.
stage freeze tests
commit <<'EOF2'
selftests/hgroup: test freezing, hgctl, random calls and 32-bit tasks

freeze_test: the cgroup freezer selftests' checklist (simple, 100
processes, tree, fork storm, migration, SIGKILL, SIGSTOP before and
during, ptrace, vfork) and freeze-on-new-process-group.

restrict_test: the permission matrix (owner, other uids, the creator's
euid), reserved and output fields, which error wins, and that every
restriction object is freed.

confine_test: threads created during a freeze are frozen; setpgid()
into a group that allows more; restricting without no_new_privs or,
as a container's root, a host process; an administrator's mark
outliving namespaces and ownership; Landlock's signal scoping and Smack
refusing a freeze.

hgctl_test: the hgctl tool, including apply --recursive under a
setsid() storm.

stress_test: 8 workers, root and not, with and without no_new_privs,
call the hgroup system calls with random valid and invalid arguments
among fork, exit, setsid(), setpgid(), set_domainid(), unshare() and
exec, from a printed seed; every result must be a documented one, and
every object count returns to its start.  Twice the operations on the
debug kernel.

compat32_test: the calls from a 32-bit task on a 64-bit kernel.

bench_stall (not run as a test): fork+exit latency while another user
repeats domain-scope changes over 1,200 groups.
EOF2

# Scheduling groups: the scheduler's side (kernel/sched/hgroup.c, the
# bound in update_cfs_group()) and hgroups' side come together, as each
# calls the other.
apply 0017-sched-hgroup-task-groups.patch
stage sched
maint "$repo/patches/MAINTAINERS.entry" kernel/sched/hgroup.c
commit <<'EOF2'
hgroup, sched: scheduling groups of process groups and domains

Let each domain make its process groups (HGROUP_SCHED_GROUP_PGRPS) and
its sub-domains (HGROUP_SCHED_GROUP_DOMAINS) task groups of CFS, nested
as the domains are: a group is a child of the group of the nearest
domain above it that has one, so the levels that group need not be next
to each other, and each container decides its own.  With no flag, tasks
are scheduled as today (session autogroups, or flat).

The task groups are made as autogroup makes a session's and carry
tg->autogroup, so the scheduler's special cases for autogroups cover
them; they nest, each holding a reference to its parent.
autogroup_task_group() asks hgroups first, whatever the autogroup
sysctl says; a task in a non-root cpu cgroup, or exiting, stays where
it is today.  CONFIG_HGROUP_SCHED selects SCHED_AUTOGROUP and needs no
cgroup file system.

A group's weight is an upper bound, not a priority: on each CPU its
entity weighs at most what is runnable in it there, one compare in
update_cfs_group().  A lone nice-19 process is then nice to every other
group (1.3% of a CPU against a nice-0 one in the guest, where two
autogroups get half each), and a 40-task job weighs no more than one
nice-0 task.

Groups exist only where grouping is on.  A flag change makes new groups
for everything whose parent changes and moves the tasks, under a mutex
and outside tasklist_lock; setpgid(), setsid() and set_domainid() give
a new group its task group after tasklist_lock, as setsid() does for
autogroup, holding a reference to the group the process leaves until
its threads are out of it.  Setting a flag is tightening, clearing one
lifting, under the permission rule of the other restrictions; domain
0's flags are for CAP_SYS_ADMIN in the initial user namespace.

HGROUP_ATTR_CPU gives a domain a weight bound (in cpu.weight units) and
a CFS bandwidth quota, which make it a task group of its own; nested
domains' quotas both hold, the tighter wins.  It reads back the CPU time
used and the throttling counts of cpu.stat.

Without HGROUP_SCOPE_DOMAIN, HGROUP_ATTR_CPU names a process group's
limits: a budget, one task group inside the domain's, shared with every
process group made from it afterwards and carried by a domain made from
one, so that setsid() and set_domainid() make no more of it.  Tightening
it through any of its groups tightens it for all, by the user it was
set for or an administrator only; a lift of a shared budget gives the
target one of its own; leaving one is lifting; an administrator's mark
binds every group in it.  Its task group is made before the change,
which fails with ENOMEM rather than leave a budget without its limits.

HGROUP_ATTR_REDIRECT lets an administrator over a group's PID namespace
schedule it in another group's budget (a worker charged to its client),
within one domain and PID namespace; the redirection outlives the
client, and groups made from the target are redirected too.
EOF2
stage sched tool
commit <<'EOF2'
tools/hgroup: hgctl --group, --weight-max, --cpu-max and budgets

run and set take --group=none|pgrp|domain|pgrp,domain, the domain's
scheduling flags, and --weight-max=W and --cpu-max=QUOTA[/PERIOD], its
CPU limits (either alone keeps the other); show prints them, with the
CPU time used and the throttled periods, on each domain's line.
--budget-weight-max and --budget-cpu-max set a process group's budget
(not with --domain nor apply, which set every group); show prints it
on the group's line.
EOF2
stage sched tests
commit <<'EOF2'
selftests/hgroup: test scheduling groups

sched_test: shares of CPU time in the guest: a domain's quota (20% of
a CPU), nested quotas (the tighter wins), the weight bound (two thirds
at twice one nice-0 task); 8 threads against 1 in two
process groups, grouped (half each) and not (a ninth); nice 0 against
nice 19 each in its own group (at least 90%) against two autogroups
(half each); two sub-domains of 4 groups and 1 (half each, a fifth
without domain grouping); 3 threads against 1 on 2 CPUs.  Bad
arguments, domain 0 for the administrator only, clearing as lifting
(not by a member of the domain, not beyond a domain above), the
owner needing no privilege, and every task group freed after a storm
of forks, exits, setpgid() (also of a process one of whose threads
execs meanwhile), setsid(), nice changes, budget changes and flag flips.
Budgets: 20% of a CPU held by six busy processes made in it through new
sessions, a new group and a new domain; with the domain's limit the
tighter wins; the weight bound, capped in a grouping domain; the
permission matrix (owner, member, other user, administrator's mark, a
daemon's unprivileged worker); bad arguments.  Redirection: a worker in
its client's 20% budget, still after the client ended; EPERM, EXDEV
(another domain, another PID namespace), EBUSY, EINVAL, ESRCH.

hgctl_test: --group and --budget-* on run, set and show.

bench_sched (not run as a test): pipe ping-pong across hgroup groups
against autogroups and two levels of cpu cgroups, and the setsid and
setpgid loops with a task group per process group.
EOF2

# mm: an inline page_ext lookup, which memory charging uses.
apply 0021-mm-page_ext-look-a-page-s-extension-up-inline.patch
msg_of 0021-mm-page_ext-look-a-page-s-extension-up-inline.patch | commit

# Memory charged to domains: mm's side (the memcg helpers, page_ext,
# mm_struct) and hgroups' side together, as each calls the other.
apply 0018-mm-charge-user-memory-to-hgroup-domains.patch
stage mem
commit <<'EOF2'
hgroup, mm: charge user memory to domains

With CONFIG_HGROUP_MEM, charge the user folios of every domain's
processes (anonymous, page cache, shmem) to the domain and to every
domain above it, and report a domain's usage and peak through
HGROUP_ATTR_MEM with HGROUP_SCOPE_DOMAIN.  Domain 0 is not charged.

Charging runs inside memcg's helpers (mem_cgroup_charge(), the swap-in
charge, mem_cgroup_uncharge{,_folios}(), in both configurations), so
that hgroups charges and refunds exactly the folios memcg does, with or
without memcg; migration, page-cache replacement and THP splitting pass
the owner on beside their memcg calls.  The owner of a charged folio is
a 4-byte id in page_ext (0.1% of RAM; hgroup_memory=off allocates
none), so the refund reaches the domain charged after migration,
splitting and the domain's end: its memory object, a page_counter whose
parent is the parent domain's, lives while a folio, an mm or a per-CPU
stock refers to it.  The target of a charge is the domain of the mm,
recorded in mm_struct when the mm is made, fixed for a fork or exec
that raced the process starting a domain, and moved with the process
when it starts one.

Charges come from a per-CPU stock of 64 pages, as memcg's; the counters
include the stocks, so reading drains them and is exact.  Refunds use
atomics only, as they may come in interrupt context.  A static key keeps
all of it off while no domain but domain 0 exists.  Limits are for a
later patch; setting the attribute is refused with EOPNOTSUPP.
EOF2
stage mem tool
commit <<'EOF2'
tools/hgroup: hgctl show prints the memory of domains

show prints mem= and mem-peak= on each domain's line, in the largest of
G, M and K that divides them.
EOF2
stage mem tests
commit <<'EOF2'
selftests/hgroup: test memory charging

mem_test: argument checks with their errnos; a new domain reads 0;
50 MiB counted in a domain and by exactly as much in the domain above,
refunded exactly by munmap() and at exit; copy on write charged to the
writer's domain; tmpfs pages refunded to a domain after it ended (its
object a zombie until then); migration between nodes and THP splitting
keep the counts; 1,000 processes in 10 nested domains in nested PID
namespaces exiting together leave the domain above exactly where it was
and no object behind.

hgctl_test: show prints the memory of a domain.

bench_mem (not run as a test): faulting in and freeing 256 MiB in
domain 0, in a domain and in a memory cgroup with memory.max.
EOF2

# Hard memory limits: mm's reclaim and OOM killer for a domain, and
# hgroups' side.
apply 0019-mm-reclaim-and-oom-for-hgroup-domain-limits.patch
stage memlimit
commit <<'EOF2'
hgroup, mm: hard memory limits of domains

HGROUP_ATTR_MEM now sets a domain's hard limit (max, in bytes, rounded
down to pages), which holds for the domain and every domain below it:
the page counter refuses a charge above it, except those memcg lets
through its own limit (__GFP_NOFAIL, __GFP_HIGH, reclaim's own).  At
the limit a charge reclaims the folios charged to that domain or below
it, drains the per-CPU stocks and retries while reclaim makes progress,
then has the OOM killer choose among the domain's processes, then
fails, in the order of memcg's try_charge_memcg().  A limit set below
the usage is set at once, then reclaimed and killed down to after the
call's locks are dropped, as a memory.max write does.

Lowering the limit is tightening, raising it lifting, under the rule of
the other restrictions; as for the task limit, restricting needs no
trust by the members.  Domain 0 has no limit.  The attribute grows
event counts, the domain's own and its subtree's: limit hits, reclaim
passes, OOM invocations and OOM kills.  The soft limit is refused with
EOPNOTSUPP for now.
EOF2
stage memlimit tool
commit <<'EOF2'
tools/hgroup: hgctl --mem-max

run and set take --mem-max=SIZE|max (K, M and G suffixes), the domain's
hard memory limit; show prints it, and the domain's OOM kills.
EOF2
stage memlimit tests
commit <<'EOF2'
selftests/hgroup: test hard memory limits

mem_test: bad limits with their errnos (0, below a page, above what the
counter holds, output fields, a soft limit, domain 0) and nothing
changed; lifting never beyond a domain above, not even by root; a
member tightens its domain's limit but lifts neither its own (EACCES)
nor an administrator's (EPERM); 30 MiB
with a process touching 100 MiB: killed inside the domain, the peak
never above the limit, the events counted where they happened, and a
process outside unharmed; with no process that may be killed, mlock()
fails with EAGAIN; a limit set below the usage kills down to it; a
64 MiB file on ext2 read through read() and a mapping under 16 MiB, by
reclaim and with no OOM kill; with swap on zram (on for that test only),
48 MiB written and read back intact under a 30 MiB limit, no OOM kill.
The guest's config gains zram.

hgctl_test: --mem-max on run, read back by show.

bench_mem: a domain with a limit it does not reach beside the others.
EOF2

# Soft memory limits: global reclaim passes protected folios over.
apply 0020-mm-hgroup-soft-limits-in-global-reclaim.patch
stage memsoft
commit <<'EOF2'
hgroup, mm: soft memory limits of domains

HGROUP_ATTR_MEM now also sets a domain's soft limit (soft, in bytes,
rounded down to pages; 0 is none, HGROUP_MEM_UNLIMITED all), which does
nothing while memory is plentiful.  Under global pressure, reclaim
passes over the folios of a domain within its soft limit, and takes a
folio of a domain over it with a chance of its excess over its usage,
so that among domains with soft limits the pressure falls in proportion
to the excess; a folio is kept only if every domain above it with a
soft limit keeps it, so sub-domains cannot add up to more protection
than the domain above them has.  When a pass of direct reclaim found
nothing else the next one takes them too, as for memory.low.

The soft limit may not exceed the hard limit (EINVAL); both are set by
every call.  Raising it is lifting and lowering it tightening, under
the rule of the other restrictions: a domain's soft limit is bounded by
the one above's, and a top domain's by CAP_SYS_ADMIN, as protection is
taken from everyone else.  With MGLRU on a soft limit is refused
(EOPNOTSUPP).  An ended domain's soft limit is dropped.

In mm, isolate_lru_folios() asks hgroups about each folio while some
domain has a soft limit (a static key and an atomic read otherwise),
moves a folio passed over to the head of its list as it does the folios
of a zone not wanted, and sets memcg_low_skipped for the retry;
kswapd never retries.  MGLRU does not see soft limits.
EOF2
stage memsoft tool
commit <<'EOF2'
tools/hgroup: hgctl --mem-soft

run and set take --mem-soft=SIZE|max; either memory option alone keeps
the other limit; show prints mem-soft.  run sets a soft limit from
outside, as the caller, once the child has made its domain and before
it executes the command.
EOF2
stage memsoft tests
commit <<'EOF2'
selftests/hgroup: test soft memory limits

mem_test: soft limits in whole pages, not above the hard limit, bounded
by the domain above even for root, set with the hard limit, and nothing
changed by a failed call; an unprivileged member lowers its domain's
soft limit but raises neither its own (EACCES) nor root's (EPERM), and
its owner cannot give it one from domain 0 (EACCES); under
global pressure with swap on zram, a domain within its soft limit keeps
its memory although it is the oldest, while one far over its own gives
memory up; two sub-domains, each within a soft limit as large as their
parent's, do not keep the parent from losing memory beyond its own.
Also for the hard limit: a 64 MiB file written under a 16 MiB limit, by
the flushers and reclaim, with no OOM kill.

hgctl_test: --mem-soft on run and set, each option keeping the other
limit, and a soft limit above the hard one refused.
EOF2

# Documentation.
add Documentation/hgroup.rst
maint "$repo/patches/MAINTAINERS.entry" Documentation/hgroup.rst
commit <<'EOF2'
Documentation: describe hgroups

The model, the restrictions and the permission rule, the system calls
with their errors, the choices made and why, the hooks, the hgctl
manual, and how to build and test.
EOF2

# Every patch of patches/series is in the series, once.
for p in $(cat "$repo/patches/series"); do
	[ "$(grep -c "^apply $p\$" "$repo/mk/patchset.sh")" = 1 ] ||
		{ echo "patchset: $p is not applied exactly once" >&2; exit 1; }
done

rm -rf "$out"
n=$(git rev-list --count HEAD)
git format-patch -q --cover-letter -o "$out" "HEAD~$((n - 1))"
cover=$(ls "$out"/0000-*.patch)
python3 - "$cover" "$repo/mk/cover-letter.txt" <<'PY'
import sys
p, blurb = sys.argv[1], open(sys.argv[2]).read().rstrip('\n')
s = open(p).read()
s = s.replace('*** SUBJECT HERE ***', 'hgroups: process domains and per-process-group restrictions')
s = s.replace('*** BLURB HERE ***', blurb)
open(p, 'w').write(s)
PY

# Are the files patch $1 adds all under an F: line of the hgroup entry?
covered() {
	local f pat ok
	f_lines=$(awk -v head="$(head -1 "$repo/patches/MAINTAINERS.entry")" '
		$0 == head { on = 1; next }
		on && /^$/ { exit }
		on && /^F:/ { print $2 }' MAINTAINERS)
	for f in $(awk '/^diff --git / { f = substr($4, 3) }
			/^new file mode/ { print f }' "$1"); do
		ok=
		for pat in $f_lines; do
			case $f in "$pat"*) ok=1 ;; esac
		done
		[ -n "$ok" ] || return 1
	done
	return 0
}

echo "  PATCHSET $out"
fail=0
for p in "$out"/0*.patch; do
	[ "$p" = "$cover" ] && continue
	# hgctl is user space, where ENOSYS is what a kernel without the
	# calls returns: checkpatch's rule for kernel code does not apply.
	ignore=
	case $p in *tools-hgroup-*) ignore="--ignore ENOSYS" ;; esac
	# A patch whose new files all lie where the hgroup entry of
	# MAINTAINERS already covers them (kernel/hgroup/) has nothing to add
	# there; checkpatch asks of every patch that adds a file.
	if covered "$p"; then
		ignore="$ignore --ignore FILE_PATH_CHANGES"
	fi
	res=$(./scripts/checkpatch.pl --strict -q $ignore "$p" 2>&1 || true)
	if [ -n "$res" ]; then
		echo "checkpatch: $(basename "$p"):"
		echo "$res" | sed 's/^/    /'
		fail=1
	else
		echo "  clean   $(basename "$p")"
	fi
done
exit $fail
