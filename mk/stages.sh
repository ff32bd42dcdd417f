#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The stages of the core in the series.  make patchset adds the code of
# Kconfig, include/linux/hgroup.h, include/uapi/linux/hgroup.h and
# kernel/hgroup/ in steps, one patch per stage, and their selftests and
# hgctl (tools/hgroup/) in steps of their own (see mk/patchset.sh):
#
#   domains       process domains and per-process-group state
#   restrictions  the attribute calls, the permission rule, the task limit
#   sets          CPU and memory-node sets
#   devices       device access lists
#   freeze        freezing
#   sched         scheduling groups
#   mem           memory charged to domains
#   memlimit      hard memory limits
#   memsoft       soft memory limits (the code as it is in the
#                 repository)
#
# The repository holds the last stage only.  patches/stages/NAME.patch
# takes the code of stage NAME back to the stage before it, so each stage
# is the one after it with one patch reversed.
#
#   mk/stages.sh extract DIR   write every stage's files to DIR/NAME/
#   mk/stages.sh update DIR    after editing DIR/NAME/ (the last stage is
#                              the repository's, edit that there), write
#                              patches/stages/ again from DIR
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
stages="domains restrictions sets devices freeze sched mem memlimit memsoft"
files="Kconfig include/linux/hgroup.h include/uapi/linux/hgroup.h kernel/hgroup
	tools/testing/selftests/hgroup tools/hgroup"
last=${stages##* }

# The stages before $1, nearest first.
before() {
	local s out=
	for s in $stages; do
		[ "$s" = "$1" ] && break
		out="$s $out"
	done
	echo $out
}

cmd=$1 dir=$2
[ -n "$dir" ] || { echo "usage: $0 extract|update DIR" >&2; exit 2; }
case $cmd in
extract)
	rm -rf "$dir"
	mkdir -p "$dir/$last"
	(cd "$repo" && git ls-files $files | tar -cf - -T -) |
		tar -C "$dir/$last" -xf -
	prev=$last
	for s in $(before $last); do
		cp -a "$dir/$prev" "$dir/$s"
		patch -s -d "$dir/$s" -p1 -F0 -E --no-backup-if-mismatch \
			< "$repo/patches/stages/$prev.patch" ||
			{ echo "stages: $prev.patch does not apply" >&2; exit 1; }
		prev=$s
	done
	;;
update)
	rm -rf "$dir/$last"
	mkdir -p "$dir/$last"
	(cd "$repo" && git ls-files $files | tar -cf - -T -) |
		tar -C "$dir/$last" -xf -
	prev=$last
	for s in $(before $last); do
		(cd "$dir" && diff -ruN "$prev" "$s" || true) |
			sed -E 's/^(---|\+\+\+) ([^\t]*)\t.*/\1 \2/' \
			> "$repo/patches/stages/$prev.patch"
		prev=$s
	done
	;;
*)
	echo "usage: $0 extract|update DIR" >&2
	exit 2
	;;
esac
