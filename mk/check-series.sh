#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-series (and the end of make check): every patch of the
# series that make patchset writes builds and links on its own, with
# CONFIG_HGROUP=y and =n, on x86-64 and i386, so that the series bisects.
#
# The patches are checked out one after the other in a worktree of the
# series's git tree (build/series-src), and each of the four configurations
# keeps its object directory (build/obj-series-*), so a patch rebuilds
# only what it touches.  A patch with selftests also has them built, as
# errors for warnings, against its own UAPI headers (with the x86_64-y
# object directory).  The configurations are tinyconfig plus what the
# hooks are compiled under (mk/config/series.config or i386.config) and
# the selftests' options; a patch that changes a Kconfig file has them
# merged again.  Before the patch that adds CONFIG_HGROUP, =y and =n are
# the same kernel, built twice.  About an hour the first time (two full
# builds per configuration: the new PID type and the task_struct fields
# reach nearly every file), minutes after.  Not part of CI.
#   SERIES_CONFIGS="x86_64-y i386-n" builds only those;
#   SERIES_FIRST=N, SERIES_LAST=M only patches N to M (1 is the first).
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
B=$repo/build
git_tree=$B/patchset-git
src=$B/series-src
jobs=${JOBS:-2}
configs=${SERIES_CONFIGS:-x86_64-y x86_64-n i386-y i386-n}
log=$B/check-series.log

"$repo/mk/patchset.sh" >/dev/null || true
[ -d "$git_tree/.git" ] || { echo "check-series: no $git_tree" >&2; exit 1; }
if [ ! -d "$src" ]; then
	git -C "$git_tree" worktree prune
	git -C "$git_tree" worktree add -q --detach "$src" HEAD
fi
commits=$(git -C "$git_tree" rev-list --reverse HEAD | tail -n +2)

# Write the .config of configuration $1 into $2, from the tree in $src.
configure() {
	local cfg=$1 obj=$2 arch frags
	arch=${cfg%-*}
	[ "$arch" = x86_64 ] && frags=$repo/mk/config/series.config ||
		frags=$repo/mk/config/i386.config
	frags="$frags $repo/tools/testing/selftests/hgroup/config"
	if [ "${cfg#*-}" = n ]; then
		echo "# CONFIG_HGROUP is not set" > "$obj/.hg-off.config"
		frags="$frags $obj/.hg-off.config"
	fi
	make -s -C "$src" O="$obj" ARCH="$arch" tinyconfig >/dev/null
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		.config $frags >/dev/null)
	make -s -C "$src" O="$obj" ARCH="$arch" olddefconfig >/dev/null
}

fail=0
prev=
: > "$log"
for c in $commits; do
	n=$(git -C "$src" rev-list --count "$c")
	if [ $((n - 1)) -lt "${SERIES_FIRST:-1}" ] ||
	   [ $((n - 1)) -gt "${SERIES_LAST:-999}" ]; then
		continue
	fi
	# The tree the object directories were built from last.
	[ -n "$prev" ] || prev=$(git -C "$src" rev-parse HEAD)
	git -C "$src" checkout -q --detach "$c"
	subject=$(git -C "$src" log -1 --format=%s "$c")
	kconfig=1
	! git -C "$src" diff --name-only "$prev" "$c" |
		grep -q 'Kconfig' && kconfig=0
	for cfg in $configs; do
		obj=$B/obj-series-$cfg
		mkdir -p "$obj"
		if [ $kconfig = 1 ] || [ ! -f "$obj/.config" ]; then
			configure "$cfg" "$obj"
		fi
		# The patch that adds CONFIG_HGROUP must turn it on for =y.
		want=n
		[ "${cfg#*-}" = y ] && grep -q '^config HGROUP$' \
			"$src/kernel/Kconfig.hgroup" 2>/dev/null && want=y
		have=$(grep -q '^CONFIG_HGROUP=y' "$obj/.config" && echo y || echo n)
		t0=$(date +%s)
		if [ "$have" != "$want" ]; then
			res="FAIL (CONFIG_HGROUP=$have, wanted $want)"
		elif make -s -C "$src" O="$obj" ARCH="${cfg%-*}" -j"$jobs" \
			vmlinux >> "$log" 2>&1; then
			res="ok"
		else
			res="FAIL (see $log)"
		fi
		printf '  %-8s %2d %-34.34s %s (%d s)\n' "$cfg" "$((n - 1))" \
			"$subject" "$res" "$(( $(date +%s) - t0 ))"
		[ "$res" = ok ] || fail=1
	done
	# The selftests of this patch, against its UAPI headers, warnings
	# as errors.
	obj=$B/obj-series-x86_64-y
	if [ -d "$src/tools/testing/selftests/hgroup" ] && [ -f "$obj/.config" ]
	then
		t0=$(date +%s)
		rm -rf "$obj/selftests-hgroup"
		mkdir -p "$obj/selftests-hgroup"
		if make -s -C "$src" O="$obj" headers_install >> "$log" 2>&1 &&
		   make -s -C "$src/tools/testing/selftests/hgroup" \
			CC="gcc -Werror" OUTPUT="$obj/selftests-hgroup" \
			KHDR_INCLUDES="-isystem $obj/usr/include" >> "$log" 2>&1
		then
			res=ok
		else
			res="FAIL (see $log)"
		fi
		printf '  %-8s %2d %-34.34s %s (%d s)\n' selftest "$((n - 1))" \
			"$subject" "$res" "$(( $(date +%s) - t0 ))"
		[ "$res" = ok ] || fail=1
	fi
	prev=$c
done
[ $fail = 0 ] && echo "check-series: every patch builds"
exit $fail
