#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write the series as git format-patch files with a cover letter, against
# the vanilla tree, into build/patchset/, and run checkpatch --strict on
# every patch.  Only the whole series is built and tested.
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

# 1. The new PID level.
apply 0002-pid-add-domain-level.patch
msg_of 0002-pid-add-domain-level.patch | commit

# 2-4. Three small changes outside kernel/hgroup/ that the core uses.
apply 0006-signal-freezer-trap-for-hgroups.patch
msg_of 0006-signal-freezer-trap-for-hgroups.patch | commit
apply 0011-cpuset-share-task-nodemask-update.patch
msg_of 0011-cpuset-share-task-nodemask-update.patch | commit
apply 0015-mm-mempolicy-try-rebind-mm.patch
msg_of 0015-mm-mempolicy-try-rebind-mm.patch | commit

# 5. The core: Kconfig, build glue, kernel/hgroup/, the UAPI structures
# it uses, and the hooks.
apply 0001-hgroup-build-glue.patch
apply 0003-hgroup-lifecycle-hooks.patch
apply 0007-hgroup-restriction-hooks.patch
apply 0009-fs-hgroup-device-check.patch
apply 0012-cpuset-narrow-task-masks-to-hgroup-sets.patch
apply 0013-block-hgroup-device-check.patch
cp "$repo/Kconfig" kernel/Kconfig.hgroup
add include/linux/hgroup.h include/uapi/linux/hgroup.h \
	$(cd "$repo" && git ls-files kernel/hgroup)
maint "$repo/patches/MAINTAINERS.entry" include/linux/hgroup.h \
	include/uapi/linux/hgroup.h kernel/Kconfig.hgroup kernel/hgroup/
commit <<'EOF2'
hgroup: process domains and per-process-group restrictions

Add CONFIG_HGROUP and kernel/hgroup/: a struct hgroup for every process
group, allocated when the group comes into being in setpgid() or
setsid() and freed after an RCU grace period when its last member
leaves, and process domains above sessions.

A process alone in its session and process group, in domain 0 of its
PID namespace, may start a domain subordinate to its own.  Its id is the
creator's pid and its leader process group is the creator's.  All
process groups of a domain are children of its leader, and a leader is a
child of its parent domain's leader, so process groups form a single
hierarchy with init_task's group at the root.  A domain and its leader's
state are one allocation, so the domain outlives its leader process
group for as long as anything in it, or below it, lives.

Each process group carries restrictions, copied into every group made
from it:

 - a CPU set and a memory-node set, pushed to every thread by a virtual
   signal (task_work_add(TWA_SIGNAL)) that makes it apply them to itself
   on its way to user space; generations close the races with fork and
   setpgid(); the cpuset code narrows every mask it computes for a task
   (affinity, mems_allowed, sched_setaffinity(), io_uring threads,
   move_pages()) to them and refuses moves into a cpuset they do not
   meet, so a set never widens the cpuset;
 - a device access list in the model of the cgroup v1 controller,
   checked at open, mknod and bdev_permission() beside the cgroup check;
 - "freeze all", through the cgroup v2 freezer trap with its own job
   control bit, and "freeze on new process group", checked where
   setsid(), setpgid() and set_domainid() would make a group, under
   tasklist_lock; a call held back waits, interruptibly and freezably, and
   is restarted;
 - per domain, a task limit counted hierarchically in copy_process().

A caller may change a group it owns (same euid as the group's creator)
or holds CAP_SYS_ADMIN over (the user namespace of the group's PID
namespace); it may lift only within what its own group and every group
above the target allow.  Restricting (any change but a pure lift, the
task limit aside) also needs, for every thread the caller has no
CAP_SYS_ADMIN over, that kill() would allow the caller to signal it and
that it has no_new_privs, as Landlock and seccomp require; such a group
then admits by setpgid() only processes with no_new_privs.  So a user
cannot restrict a set-id program it runs, nor a container's root a host
process that entered its PID namespace.

Each kind of restriction is a struct hgroup_restriction of operations
(parse, copy, compare with a bound, check against the members, apply,
report) in a file of its own; restrict.c keeps the generic rule.
A change's checks against values (permission, lifting bounds, device
lists compared rule by rule) run under RCU; its checks against the
members and the change itself run under tasklist_lock held for reading,
so that no user's domain-scope change over many groups holds up fork or
exit elsewhere for the long part.

The hooks in copy_process(), __unhash_process(), de_thread(), setpgid(),
setsid(), the cpuset code, inode_permission(), vfs_mknod() and
bdev_permission() are single calls.  Nothing allocates or sleeps under
tasklist_lock.

debugfs hgroup/objects counts the live objects, for leak tests.
EOF2

# 6, 7. The freeze's counts beside the cgroup freezer's, and io_uring's
# threads within the cpuset and the group's CPU set.
apply 0008-signal-count-hgroup-frozen-threads.patch
msg_of 0008-signal-count-hgroup-frozen-threads.patch | commit
apply 0014-io_uring-keep-sqpoll-and-io-wq-threads-within-cpuset.patch
msg_of 0014-io_uring-keep-sqpoll-and-io-wq-threads-within-cpuset.patch | commit

# 8. System calls.
apply 0004-hgroup-wire-up-syscalls.patch
apply 0010-hgroup-wire-up-attr-syscalls.patch
commit <<'EOF2'
hgroup: wire up set_domainid(), get_domainid(), hgroup_set_attr() and hgroup_get_attr()

set_domainid(flags) starts a new process domain; get_domainid(pid) reads
the domain of a process, like getsid().  hgroup_set_attr(pgid, attr,
uattr, size, flags) changes one restriction of a process group (or of
every group of its domain) and hgroup_get_attr() reads it back; their
structures are size-versioned and copied with copy_struct_from_user(),
as for sched_setattr() and clone3().

Numbers 463 to 466 on x86 (64 and 32 bit) and in the generic tables;
without CONFIG_HGROUP all four return -ENOSYS.
EOF2

# 9. procfs.
apply 0005-proc-status-domain.patch
msg_of 0005-proc-status-domain.patch | commit

# 10. Selftests.
add $(cd "$repo" && git ls-files tools/testing/selftests/hgroup)
maint "$repo/patches/MAINTAINERS.entry" tools/testing/selftests/hgroup/
commit <<'EOF2'
selftests/hgroup: test process domains and restrictions

domain_test: every rule of set_domainid() and get_domainid() with the
exact errno of each refusal and which one wins; inheritance by threads,
forks and exec; that nothing leaves a domain; domains in nested PID
namespaces; that a domain's id stays reserved while it has members; no
leak over 100,000 process-group cycles; 10,000 concurrent cycles.

restrict_test: every argument check of the attribute calls, CPU and
node sets reaching every thread (1,000 threads too), inheritance,
lifting bounds, the domain scope under concurrent group creation, device
lists, the task limit, the permission matrix with user namespaces, and
that every restriction object is freed.

freeze_test: the cgroup freezer selftests' checklist (simple, 100
processes, tree, fork storm, migration, SIGKILL, SIGSTOP before and
during, ptrace, vfork) and freeze-on-new-process-group.

confine_test: escape attempts that must fail: threads created during a
freeze, moves into a cpuset outside the CPU or node set (cgroup.procs as
root and from a delegated subtree, clone3(CLONE_INTO_CGROUP)), cpuset
updates, move_pages(), io_uring SQPOLL affinity, mounting a denied
block device, setpgid() into a group that allows more or whose sets
miss the mover's cpuset, set_domainid() from a group that leads a
domain, restricting without no_new_privs or from a user namespace, a
join racing a restriction.

hgctl_test: the hgctl tool, including apply --recursive under a
setsid() storm.

stress_test: 8 workers, root and not, with and without no_new_privs,
call the hgroup system calls with random valid and invalid arguments
among fork, exit, setsid(), setpgid(), set_domainid(), unshare() and
exec, from a printed seed; every result must be a documented one, and
every object count returns to its start.  Twice the operations on the
debug kernel.

bench_stall (not run as a test): fork+exit latency while another user
repeats domain-scope changes over 1,200 groups.
EOF2

# 11. The tool.
add $(cd "$repo" && git ls-files tools/hgroup)
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

# 12. Documentation.
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

echo "  PATCHSET $out"
fail=0
for p in "$out"/0*.patch; do
	[ "$p" = "$cover" ] && continue
	# hgctl is user space, where ENOSYS is what a kernel without the
	# calls returns: checkpatch's rule for kernel code does not apply.
	ignore=
	case $p in *tools-hgroup-*) ignore="--ignore ENOSYS" ;; esac
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
