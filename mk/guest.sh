#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the selftests for a kernel flavour, pack them with busybox into an
# initramfs, boot it in QEMU and (except in run mode) report the results.
#   mk/guest.sh FLAVOUR MODE      MODE: test | run | bench | regress
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
B=$repo/build
tree=$B/linux
flavour=$1
mode=$2
obj=$B/obj-$flavour
out=${GUEST_OUT:-$B/guest-$flavour}
accel=${ACCEL:-tcg}
mem=${GUEST_MEM:-1G}
cpus=${GUEST_CPUS:-2}
# Three NUMA nodes for the suites (node 2 without CPUs: a cpuset can move
# pages between two nodes the group's set is not both of), two otherwise
# (the benchmarks' and test-regress's numbers were measured so).
[ "$mode" = test ] && nodes=${GUEST_NODES:-3} || nodes=${GUEST_NODES:-2}

# Selftests, static, against this kernel's exported headers.
mkdir -p "$out/tests"
make -s -C "$tree/tools/testing/selftests/hgroup" OUTPUT="$out/tests" \
	KHDR_INCLUDES="-isystem $obj/usr/include" LDFLAGS=-static

# hgctl, static, against the same headers.
make -s -C "$tree/tools/hgroup" OUTPUT="$out/bin/" \
	KHDR_INCLUDES="-isystem $obj/usr/include" LDFLAGS=-static

# Initramfs.
root=$out/root
rm -rf "$root"
mkdir -p "$root"/{bin,hg/tests,hg/bin,proc,sys,dev,tmp,etc}
cp /bin/busybox "$root/bin/busybox"
cp "$repo/mk/guest/init" "$root/init"
cp "$repo"/mk/guest/run-* "$root/hg/"
for t in $(make -s -C "$tree/tools/testing/selftests/hgroup" \
		OUTPUT="$out/tests" KHDR_INCLUDES="-isystem $obj/usr/include" \
		LDFLAGS=-static -f Makefile -f "$repo/mk/print-progs.mk" print-progs); do
	t=$(basename "$t")
	# HG_TESTS="a b" runs only those suites (for development).
	if [ -z "${HG_TESTS:-}" ] || [[ " $HG_TESTS " == *" $t "* ]]; then
		echo "$t" >> "$root/hg/tests/list"
	fi
done
# The programs and their helpers (TEST_GEN_PROGS_EXTENDED).
find "$out/tests" -maxdepth 1 -type f -perm -u+x -exec cp {} "$root/hg/tests/" \;
cp "$out/bin/hgctl" "$root/hg/bin/"
[ -n "$HG_EXTRA_ROOT" ] && cp -a "$HG_EXTRA_ROOT"/. "$root/"
echo "root:x:0:0:root:/:/bin/sh" > "$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/sh" >> "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"
(cd "$root" && find . | cpio -o -H newc --quiet) > "$out/initramfs.cpio"

# HG_STRESS_OPS (operations per stress_test worker), HG_TIMEOUT (the
# seconds one suite may take) and HG_ARGS (arguments for every suite, for
# development: HG_ARGS="-r hg.NAME" runs one test) reach the guest's
# run-test through the command line.
cmdline="console=ttyS0 hgmode=$mode panic=-1 ${GUEST_APPEND:-}"
cmdline+="${HG_STRESS_OPS:+ hgstress_ops=$HG_STRESS_OPS}"
cmdline+="${HG_TIMEOUT:+ hgtimeout=$HG_TIMEOUT}"
cmdline+="${HG_ARGS:+ hgargs=${HG_ARGS// /,}}"
qemu=(qemu-system-x86_64 -accel "$accel" -m "$mem" -smp "$cpus"
	-nodefaults -no-user-config -display none -no-reboot
	-kernel "$obj/arch/x86/boot/bzImage" -initrd "$out/initramfs.cpio"
	-append "$cmdline")
# NUMA nodes (for the hgroup memory-node tests): memory split evenly, CPUs
# dealt out round-robin.
if [ "$nodes" -gt 1 ]; then
	total=$(( $(numfmt --from=iec "$mem") / 1048576 ))
	for ((n = 0; n < nodes; n++)); do
		# The last node takes what an uneven split leaves.
		mib=$(( total / nodes ))
		[ $n = $((nodes - 1)) ] && mib=$(( total - mib * n ))
		qemu+=(-object "memory-backend-ram,id=m$n,size=${mib}M"
		       -numa "node,nodeid=$n,memdev=m$n")
	done
	for ((c = 0; c < cpus; c++)); do
		qemu+=(-numa "cpu,node-id=$((c % nodes)),socket-id=$c")
	done
	qemu+=(-smp "$cpus,sockets=$cpus,cores=1,threads=1")
fi

# GUEST_ICOUNT=1: the guest clock counts instructions, one nanosecond
# each (-icount shift=0,sleep=off), so that a loop's "time" is its
# instruction count and repeats within about 0.5%; for cost ratios.
[ -n "${GUEST_ICOUNT:-}" ] && qemu+=(-icount shift=0,sleep=off)

if [ "$mode" = run ]; then
	echo "Booting $flavour kernel; leave with 'reboot -f' or Ctrl-A X."
	exec "${qemu[@]}" -serial mon:stdio -serial null
fi

timeout=${GUEST_TIMEOUT:-1800}
rm -f "$out/console.log" "$out/results.log"
set +e
timeout -k 10 "$timeout" "${qemu[@]}" \
	-serial "file:$out/console.log" -serial "file:$out/results.log" \
	</dev/null
rc=$?
set -e
[ $rc = 124 ] && echo "guest: timed out after ${timeout}s" >> "$out/results.log"
if [ "$mode" = bench ]; then
	tr -d '\r' < "$out/results.log" > "$out/results.txt"
	grep -q '^# hgroup-guest-done' "$out/results.txt"
	exit
fi
exec "$repo/mk/report.sh" "$out" "$mode" "$flavour"
