#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test-regress: the kernel's own selftests for the code this series
# touches (pidfd, pid_namespace, clone3, cgroup core/freezer/pids/kill),
# built statically, run on the hgroup kernel and on a baseline built from
# the same tree with CONFIG_HGROUP=n.  Fails on any test that passes on
# the baseline but not with hgroups, or on a splat with hgroups.
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
B=$repo/build
tree=$B/linux
suites="pidfd pid_namespace clone3 cgroup"
cgroup_progs="test_core test_freezer test_pids test_kill"

for k in regress regress-base; do
	"$repo/mk/kernel.sh" $k
done

stage=$B/regress-root
rm -rf "$stage"
mkdir -p "$stage/hg/regress"
: > "$stage/hg/regress/list"
for s in $suites; do
	out=$B/regress-tests/$s
	mkdir -p "$out"
	progs=
	[ $s = cgroup ] && progs=$cgroup_progs
	# Headers of the hgroup kernel; the upstream UAPI is the same.
	make -s -C "$tree/tools/testing/selftests/$s" OUTPUT="$out" \
		KHDR_INCLUDES="-isystem $B/obj-regress/usr/include" \
		LDFLAGS=-static $(for p in $progs; do echo "$out/$p"; done) ||
		echo "regress: some of $s did not build; running what did"
	mkdir -p "$stage/hg/regress/$s"
	all=$(make -s -C "$tree/tools/testing/selftests/$s" OUTPUT="$out" \
		-f Makefile -f "$repo/mk/print-progs.mk" print-progs)
	for p in $all; do
		n=$(basename "$p")
		[ -n "$progs" ] && ! echo " $progs " | grep -q " $n " && continue
		[ -x "$p" ] || continue
		cp "$p" "$stage/hg/regress/$s/"
		echo "$s/$n" >> "$stage/hg/regress/list"
	done
	find "$out" -maxdepth 1 -type f -perm -u+x ! -name '*.o' \
		-exec cp -n {} "$stage/hg/regress/$s/" \;
done
echo "  REGRESS $(wc -l < "$stage/hg/regress/list") programs: $(tr '\n' ' ' < "$stage/hg/regress/list")"

for k in regress-base regress; do
	HG_EXTRA_ROOT=$stage GUEST_TIMEOUT=2400 "$repo/mk/guest.sh" $k regress \
		> "$B/regress-$k.txt" 2>&1 || true
	tail -1 "$B/regress-$k.txt"
done

grep '^PASS ' "$B/regress-regress-base.txt" | sort -u > "$B/regress-base.pass"
grep '^PASS ' "$B/regress-regress.txt" | sort -u > "$B/regress-hgroup.pass"
lost=$(comm -23 "$B/regress-base.pass" "$B/regress-hgroup.pass")
nbase=$(wc -l < "$B/regress-base.pass")
nboth=$(comm -12 "$B/regress-base.pass" "$B/regress-hgroup.pass" | wc -l)
gained=$(comm -13 "$B/regress-base.pass" "$B/regress-hgroup.pass" | wc -l)
splat=$(grep '^FAIL  kernel:' "$B/regress-regress.txt" || true)
echo "== upstream selftests, hgroup kernel against baseline =="
echo "baseline passes $nbase; hgroup passes $nboth of them (and $gained more)"
if [ -n "$lost" ] || [ -n "$splat" ]; then
	echo "regressions:"
	[ -n "$lost" ] && echo "$lost" | sed 's/^PASS /  /'
	[ -n "$splat" ] && echo "  $splat"
	nlost=$(printf '%s' "$lost" | grep -c . || true)
	echo "regress: $nboth passed, $((nlost + (${#splat} > 0))) failed"
	exit 1
fi
echo "regress: $nboth passed, 0 failed"
