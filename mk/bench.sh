#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: boot the baseline (CONFIG_HGROUP=n) and the hgroup kernel in
# turn, ROUNDS times each, run the loops of bench_domain in every boot, and
# print the median of each loop per kernel and the ratio hgroup/baseline.
# A benchmark, not a test: it never fails on the numbers.
#   BENCH_N (10000), BENCH_R repetitions per boot (3), BENCH_ROUNDS (2)
#   BENCH_ICOUNT=1 (make bench-icount): QEMU's -icount shift=0,sleep=off,
#   so the guest clock counts instructions (one nanosecond each) and a
#   loop repeats within about 0.5%; the numbers are instructions.
#   bench_domain and bench_sched run on one vCPU (SMP scheduling spreads
#   the counts by about 1%); bench_restrict moves threads between two CPUs and runs in
#   one more hgroup boot with two; bench_stall (latency of one CPU's forks
#   against another's changes) is about wall time and is left out.  The
#   guests boot with norandmaps: where ASLR puts the bench process's
#   mappings changes what each fork copies, and so the count of a boot,
#   by up to 6% (seen once), while a loop repeats within 0.5% in a boot.
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
B=$repo/build
n=${BENCH_N:-10000}
r=${BENCH_R:-3}
rounds=${BENCH_ROUNDS:-2}
icount=${BENCH_ICOUNT:-}
res=$B/bench${icount:+-icount}
append="hgbench_n=$n hgbench_r=$r"
cpus=${GUEST_CPUS:-2}
if [ -n "$icount" ]; then
	export GUEST_ICOUNT=1
	cpus=${GUEST_CPUS:-1}
	append+=" hgbench_progs=domain,sched,mem norandmaps"
fi
rm -rf "$res"
mkdir -p "$res"

"$repo/mk/kernel.sh" baseline
"$repo/mk/kernel.sh" hgroup
for round in $(seq "$rounds"); do
	for k in baseline hgroup; do
		echo "  BENCH   $k round $round"
		GUEST_APPEND="$append" GUEST_CPUS=$cpus GUEST_TIMEOUT=7200 \
			"$repo/mk/guest.sh" "$k" bench
		grep '^bench ' "$B/guest-$k/results.txt" | sed "s/^/$k /" >> "$res/all"
		grep '^stall ' "$B/guest-$k/results.txt" >> "$res/stall" || true
		grep '^mem ' "$B/guest-$k/results.txt" >> "$res/mem" || true
	done
done
if [ -n "$icount" ]; then
	echo "  BENCH   hgroup bench_restrict, 2 vCPUs"
	GUEST_APPEND="hgbench_n=$n hgbench_r=$((r * rounds)) hgbench_progs=restrict norandmaps" \
		GUEST_CPUS=2 GUEST_TIMEOUT=7200 "$repo/mk/guest.sh" hgroup bench
	grep '^bench ' "$B/guest-hgroup/results.txt" | sed "s/^/hgroup /" >> "$res/all"
fi

python3 - "$res/all" "$n" "$r" "$rounds" "$res/stall" "$icount" "$res/mem" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
n, r, rounds = sys.argv[2:5]
icount = bool(sys.argv[6])
# In icount mode a guest "second" is 10^9 instructions: show millions.
scale, unit = (1e3, "M instructions") if icount else (1, "seconds")
t = {}
for k, _, loop, rep, sec in rows:
    t.setdefault(loop, {}).setdefault(k, []).append(float(sec))
def spread(v):
    # (max - min) / median of one loop's samples, in percent.
    return 100 * (max(v) - min(v)) / statistics.median(v)
print(f"\nmake bench: {n} iterations per loop, {r} interleaved repetitions "
      f"per boot, {rounds} alternating boots per kernel (TCG guest"
      f"{', -icount shift=0,sleep=off, 1 vCPU' if icount else ''}).")
print(f"Median {unit} per loop; ratio = hgroup / baseline; spread = "
      "(max - min) / median of the samples, baseline / hgroup.\n")
print(f"{'loop':<10}{'baseline':>12}{'hgroup':>12}{'ratio':>9}{'samples':>9}"
      f"{'spread %':>14}")
med = {}
for loop in ('setsid', 'env', 'setpgid', 'fork', 'memroot'):
    if loop not in t:
        continue
    b = statistics.median(t[loop]['baseline'])
    h = statistics.median(t[loop]['hgroup'])
    med[loop] = (b, h)
    sp = f"{spread(t[loop]['baseline']):.1f} / {spread(t[loop]['hgroup']):.1f}"
    print(f"{loop:<10}{b * scale:>12.3f}{h * scale:>12.3f}{h / b:>9.4f}"
          f"{len(t[loop]['hgroup']):>9}{sp:>14}")
pairs = (('hgpush', 'cgpush', 'CPU-set change reaching 1,000 sleeping threads: hgroup / cpuset.cpus'),
         ('hgfork', 'pidsfork', 'fork+exit under a task limit: hgroup domain / pids cgroup'),
         ('hgfork', 'fork0', 'fork+exit: hgroup domain with a limit / no limit, root cgroup'),
         ('pidsfork', 'fork0', 'fork+exit: pids cgroup / root cgroup'),
         ('pphg1', 'ppauto', 'pipe ping-pong across groups: hgroup process groups / autogroups'),
         ('pphg2', 'ppcg2', 'pipe ping-pong, 2 levels: hgroup domains / cpu cgroups'),
         ('pphg1', 'ppflat', 'pipe ping-pong: hgroup process groups / one group'),
         ('ppauto', 'ppflat', 'pipe ping-pong: autogroups / one group'),
         ('setsidgrp', 'setsidoff', 'setsid /bin/echo hi: a task group per process group / none'),
         ('setpgidgrp', 'setpgidoff', 'fork, setpgid, exit: a task group per process group / none'),
         ('memdom', 'memroot', 'fault in and free 256 MiB: in a domain / domain 0'),
         ('memcg', 'memroot', 'fault in and free 256 MiB: memory cgroup, memory.max=512M / root'),
         ('memdom', 'memcg', 'fault in and free 256 MiB: in a domain / in a memory cgroup'),
         ('memlim', 'memroot', 'fault in and free 256 MiB: domain with a 512M limit / domain 0'),
         ('memlim', 'memcg', 'fault in and free 256 MiB: domain with a 512M limit / memory cgroup'))
shown = False
for a, b, what in pairs:
    if a not in t or b not in t:
        continue
    if not shown:
        print("\nSide by side in each hgroup boot (median of interleaved repetitions):")
        shown = True
    ma = statistics.median(t[a]['hgroup'])
    mb = statistics.median(t[b]['hgroup'])
    u = "M" if icount else "s"
    print(f"  {a}/{b:<9} {ma / mb:7.4f}   ({ma * scale:.4f} {u} / {mb * scale:.4f} {u}, "
          f"spread {spread(t[a]['hgroup']):.1f}% / {spread(t[b]['hgroup']):.1f}%)  {what}")
try:
    st = [l.split() for l in open(sys.argv[5])]
except OSError:
    st = []
if st:
    print("\nfork+exit by root while uid 1000 changes the device list of its")
    print("1,200-group domain with the domain scope (bench_stall; median over")
    print("repetitions of each repetition's max and median fork+exit):")
    for loop in ('idle', 'busy'):
        rs = [r for r in st if r[1] == loop]
        if rs:
            mx = statistics.median(float(r[3]) for r in rs)
            md = statistics.median(float(r[4]) for r in rs)
            ch = statistics.median(int(r[5]) for r in rs)
            print(f"  {loop:<5} max {mx:9.3f} ms   median {md:9.1f} us   changes {ch}")
try:
    mem = [l.split() for l in open(sys.argv[7])]
except OSError:
    mem = []
if mem:
    g = statistics.median(float(m[2]) for m in mem)
    u = statistics.median(float(m[3]) for m in mem)
    print(f"\nKernel memory (Slab) per sleeping process alone in its process group"
          f" (bench_sched, median of {len(mem)} boots):")
    print(f"  grouped (a task group each) {g:8.0f} bytes   not grouped {u:8.0f} bytes"
          f"   difference {g - u:8.0f} bytes")
if 'setsid' in med and 'env' in med:
    print(f"\nsetsid/env within a kernel: baseline {med['setsid'][0] / med['env'][0]:.3f}, "
          f"hgroup {med['setsid'][1] / med['env'][1]:.3f}")
PY
