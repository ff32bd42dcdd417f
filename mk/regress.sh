#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test-regress: the kernel's own selftests for the code this series
# touches (pidfd, pid_namespace, clone3, cgroup core/freezer/pids/kill),
# built statically, run on the hgroup kernel and on a baseline built from
# the same tree with CONFIG_HGROUP=n.  Fails on any test that passes on
# the baseline but not with hgroups, or on a splat with hgroups.
set -e
export LC_ALL=C
repo=$(cd "$(dirname "$0")/.." && pwd)
B=$repo/build
tree=$B/linux
suites="pidfd pid_namespace clone3 cgroup"
cgroup_progs="test_core test_freezer test_pids test_kill"

# The hgroup and baseline kernels carry regress.config (see kernel.sh).
for k in hgroup baseline; do
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
		KHDR_INCLUDES="-isystem $B/obj-hgroup/usr/include" \
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

reps=${REGRESS_REPS:-3}
for k in regress-base regress; do
	flavour=hgroup
	[ $k = regress-base ] && flavour=baseline
	HG_EXTRA_ROOT=$stage GUEST_TIMEOUT=2400 GUEST_APPEND="hgregress_reps=$reps" \
		GUEST_OUT=$B/guest-$k "$repo/mk/guest.sh" $flavour regress \
		> "$B/regress-$k.txt" 2>&1 || true
	echo "  run on $k: $(tail -1 "$B/regress-$k.txt")"
done

# Per test: how many of the $reps runs passed on each kernel.  A test is a
# regression when it passed every time on the baseline and never with
# hgroups; a test that passed less often with hgroups is reported, and
# tests that fail on the baseline (missing features, flaky under TCG) are
# listed but cannot fail the run.
count() { grep -E '^(PASS|FAIL) ' "$1" | grep -v '^FAIL  (guest|kernel):' |
	awk '{ st = $1; $1 = ""; sub(/^ +/, ""); n[$0] += (st == "PASS"); seen[$0] = 1 }
	     END { for (t in seen) print n[t] "\t" t }' | sort -t$'\t' -k2; }
count "$B/regress-regress-base.txt" > "$B/regress-base.count"
count "$B/regress-regress.txt" > "$B/regress-hgroup.count"
join -t$'\t' -1 2 -2 2 -a 1 -e 0 -o 0,1.1,2.1 \
	"$B/regress-base.count" "$B/regress-hgroup.count" > "$B/regress.cmp"
echo "== upstream selftests, $reps runs each: hgroup kernel against baseline =="
awk -F'\t' -v reps="$reps" '
	$2 == reps && $3 == 0 { printf "REGRESSION  %s (baseline %d/%d, hgroup %d/%d)\n", $1, $2, reps, $3, reps; bad++; next }
	$3 < $2 - 1 { printf "less often  %s (baseline %d/%d, hgroup %d/%d)\n", $1, $2, reps, $3, reps }
	$2 == 0 { printf "fails on baseline  %s (hgroup %d/%d)\n", $1, $3, reps; next }
	$2 < reps { printf "unstable on baseline  %s (baseline %d/%d, hgroup %d/%d)\n", $1, $2, reps, $3, reps }
	$2 == reps { good++ }
	END { printf "stable on baseline: %d tests; regressions: %d\n", good + bad, bad
	      printf "%d\n", bad > "/dev/stderr" }' "$B/regress.cmp" 2> "$B/regress.bad"
nbad=$(cat "$B/regress.bad")
nstable=$(awk -F'\t' -v reps="$reps" '$2 == reps' "$B/regress.cmp" | wc -l)
splat=$(grep '^FAIL  kernel:' "$B/regress-regress.txt" || true)
[ -n "$splat" ] && { echo "hgroup kernel: $splat"; grep -A5 '^FAIL  kernel:' "$B/regress-regress.txt"; nbad=$((nbad + 1)); }
grep -q '^FAIL  guest:' "$B/regress-regress.txt" && { grep '^FAIL  guest:' "$B/regress-regress.txt"; nbad=$((nbad + 1)); }
echo "regress: $((nstable - $(cat "$B/regress.bad"))) passed, $nbad failed"
[ "$nbad" = 0 ]
