#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write the series as git format-patch files with a cover letter, against
# the vanilla tree, into build/patchset/, and run checkpatch --strict on
# every patch.  Each patch builds on its own.
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

# 2. The core: Kconfig, build glue, process-group state, domains, hooks.
apply 0001-hgroup-build-glue.patch
apply 0003-hgroup-lifecycle-hooks.patch
cp "$repo/Kconfig" kernel/Kconfig.hgroup
add include/linux/hgroup.h kernel/hgroup/Makefile kernel/hgroup/hgroup.h \
	kernel/hgroup/pgrp.c kernel/hgroup/domain.c kernel/hgroup/stats.c \
	kernel/hgroup/syscalls.c kernel/hgroup/procfs.c
maint "$repo/patches/MAINTAINERS.entry" include/linux/hgroup.h kernel/Kconfig.hgroup kernel/hgroup/
commit <<'EOF2'
hgroup: add per-process-group state and process domains

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

The hooks in copy_process(), __unhash_process(), de_thread(), setpgid()
and setsid() are single calls.  setpgid() and setsid() allocate before
taking tasklist_lock and free afterwards if the object was not needed,
so nothing allocates under the lock.

debugfs hgroup/objects counts the live objects, for leak tests.
EOF2

# 3. System calls and UAPI.
apply 0004-hgroup-wire-up-syscalls.patch
add include/uapi/linux/hgroup.h
maint "$repo/patches/MAINTAINERS.entry" include/uapi/linux/hgroup.h
msg_of 0004-hgroup-wire-up-syscalls.patch | commit

# 4. procfs.
apply 0005-proc-status-domain.patch
msg_of 0005-proc-status-domain.patch | commit

# 5. Selftests.
add $(cd "$repo" && git ls-files tools/testing/selftests/hgroup)
maint "$repo/patches/MAINTAINERS.entry" tools/testing/selftests/hgroup/
commit <<'EOF2'
selftests/hgroup: test process domains

Test every rule of set_domainid() and get_domainid() with the exact
errno of each refusal and which one wins when several apply; inheritance
by threads, forks and exec (also from a non-leader thread); that nothing
leaves a domain; domain 0 in new and in three nested PID namespaces; that
a domain's id stays reserved while it has members; that sessions never
span domains; that 100,000 process-group cycles and 1,000 domains leave
no object behind; and 10,000 concurrent setsid/set_domainid/exit cycles.
EOF2

# 6. Documentation.
add Documentation/hgroup.rst
maint "$repo/patches/MAINTAINERS.entry" Documentation/hgroup.rst
commit <<'EOF2'
Documentation: describe hgroups process domains

The model, the rules, the system calls with their errors, the choices
made and why, the hooks, and how to build and test.
EOF2

rm -rf "$out"
n=$(git rev-list --count HEAD)
git format-patch -q --cover-letter -o "$out" "HEAD~$((n - 1))"
cover=$(ls "$out"/0000-*.patch)
python3 - "$cover" "$repo/mk/cover-letter.txt" <<'PY'
import sys
p, blurb = sys.argv[1], open(sys.argv[2]).read().rstrip('\n')
s = open(p).read()
s = s.replace('*** SUBJECT HERE ***', 'hgroups: process domains above sessions and process groups')
s = s.replace('*** BLURB HERE ***', blurb)
open(p, 'w').write(s)
PY

echo "  PATCHSET $out"
fail=0
for p in "$out"/0*.patch; do
	[ "$p" = "$cover" ] && continue
	res=$(./scripts/checkpatch.pl --strict -q "$p" 2>&1 || true)
	if [ -n "$res" ]; then
		echo "checkpatch: $(basename "$p"):"
		echo "$res" | sed 's/^/    /'
		fail=1
	else
		echo "  clean   $(basename "$p")"
	fi
done
exit $fail
