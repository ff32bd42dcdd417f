#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: static checks.
#  - the format-patch series, every patch checkpatch --strict clean;
#  - kernel-doc of kernel/hgroup and the headers, with -Wall;
#  - kernel/hgroup and the hooked files rebuilt with W=1 and sparse (C=2);
#    any warning in an hgroup file, or a hooked file warning only with
#    CONFIG_HGROUP, fails;
#  - an i386 kernel with CONFIG_HGROUP=y builds and links, and
#    kernel/hgroup/ is W=1 and sparse clean there too;
#  - every patch of the series builds on its own, with CONFIG_HGROUP=y
#    and =n, on x86-64 and i386 (mk/check-series.sh; CHECK_SERIES=0
#    leaves it out).
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
B=$repo/build
tree=$B/linux
fail=0

"$repo/mk/patchset.sh" || fail=1

echo "  KDOC    kernel/hgroup, include/*/hgroup.h"
kd=$("$tree/scripts/kernel-doc" -none -Wall "$tree"/kernel/hgroup/*.[ch] \
	"$tree/include/linux/hgroup.h" "$tree/include/uapi/linux/hgroup.h" 2>&1 || true)
[ -z "$kd" ] || { echo "$kd"; fail=1; }

"$repo/mk/kernel.sh" hgroup >/dev/null
"$repo/mk/kernel.sh" baseline >/dev/null
hooked="kernel/fork.o kernel/exit.o kernel/sys.o kernel/pid.o fs/exec.o fs/proc/array.o init/init_task.o
	kernel/signal.o fs/namei.o kernel/sched/build_policy.o kernel/cgroup/cpuset.o
	block/bdev.o fs/coredump.o mm/mempolicy.o io_uring/io-wq.o io_uring/sqpoll.o
	kernel/sched/core.o kernel/sched/fair.o kernel/sched/build_utility.o"
for k in hgroup baseline; do
	obj=$B/obj-$k
	objs=$hooked
	[ $k = hgroup ] && objs="$objs kernel/hgroup/"
	# Force a rebuild of exactly these objects with the extra checks.
	for o in $objs; do
		case $o in */) rm -f "$obj/$o"*.o ;; *) rm -f "$obj/$o" ;; esac
	done
	echo "  W=1 C=2 $k: $objs"
	make -s -C "$tree" O="$obj" W=1 C=2 -j"${JOBS:-2}" $objs \
		> "$B/check-$k.log" 2>&1 || { cat "$B/check-$k.log"; fail=1; }
	grep -E 'warning|error' "$B/check-$k.log" | sort -u > "$B/check-$k.warn" || true
done
echo "  i386    CONFIG_HGROUP=y"
"$repo/mk/kernel.sh" i386 >/dev/null || fail=1
rm -f "$B/obj-i386/kernel/hgroup/"*.o
make -s -C "$tree" O="$B/obj-i386" ARCH=i386 W=1 C=2 -j"${JOBS:-2}" \
	kernel/hgroup/ > "$B/check-i386.log" 2>&1 || { cat "$B/check-i386.log"; fail=1; }
if grep -E 'warning|error' "$B/check-i386.log" | grep hgroup; then
	echo "check: warnings in hgroup code on i386"; fail=1
fi
if grep -q hgroup "$B/check-hgroup.warn"; then
	echo "check: warnings in hgroup code:"; grep hgroup "$B/check-hgroup.warn"; fail=1
fi
new=$(comm -23 <(sed 's/:[0-9]*:[0-9]*:/:/' "$B/check-hgroup.warn" | sort -u) \
	       <(sed 's/:[0-9]*:[0-9]*:/:/' "$B/check-baseline.warn" | sort -u))
if [ -n "$new" ]; then
	echo "check: warnings only with CONFIG_HGROUP:"; echo "$new"; fail=1
fi
if [ "${CHECK_SERIES:-1}" != 0 ]; then
	"$repo/mk/check-series.sh" || fail=1
fi
[ $fail = 0 ] && echo "check: clean"
exit $fail
