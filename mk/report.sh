#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Turn a guest run's TAP output into one line per test and a closing
#   N passed, N failed, N skipped
# line.  Fails on any failed test, a binary that died without finishing its
# plan, a guest that never reached its end, or a kernel splat in the log.
#   mk/report.sh OUTDIR MODE FLAVOUR
out=$1
mode=$2
flavour=$3
results=$out/results.log
console=$out/console.log

tr -d '\r' < "$results" 2>/dev/null > "$out/results.txt"
awk -v flavour="$flavour" '
/^# hgtest-begin / { suite = $3; planned = 0; seen = 0; nd = 0; next }
/^1\.\.[0-9]+/ { planned = substr($1, 4) + 0; next }
# What a test printed (TH_LOG, failed checks): the last 12 lines are
# shown under its FAIL line.
/^# +RUN / { nd = 0; next }
/^# / && !/^# (hgtest-|hgroup-guest-)/ && !/^# +(OK|FAIL|SKIP) / { dl[nd++] = $0; next }
/^(not )?ok [0-9]+ / {
	line = $0
	ok = (line !~ /^not /)
	sub(/^(not )?ok [0-9]+ /, "", line)
	skip = (line ~ /# *SKIP/)
	name = line; sub(/ *#.*$/, "", name)
	seen++
	if (skip) { printf "SKIP  %s: %s\n", suite, line; nskip++ }
	else if (ok) { printf "PASS  %s: %s\n", suite, name; npass++ }
	else {
		printf "FAIL  %s: %s\n", suite, name; nfail++
		for (i = nd > 12 ? nd - 12 : 0; i < nd; i++)
			printf "      %s\n", dl[i]
	}
	next
}
/^# hgtest-exit / {
	rc = $4
	if (seen < planned || (seen == 0 && rc != 0)) {
		printf "FAIL  %s: died after %d of %d tests (exit %s)\n", $3, seen, planned, rc
		nfail++
	}
	next
}
/^# hgroup-guest-done/ { done = 1 }
/^guest: timed out/ { print "FAIL  guest: " $0; nfail++ }
END {
	if (!done) { print "FAIL  guest: never reached the end of the run (panic or hang)"; nfail++ }
	printf "%d %d %d\n", npass, nfail, nskip > "/dev/stderr"
}
' "$out/results.txt" 2> "$out/counts"
read -r npass nfail nskip < "$out/counts"

# KCSAN reports (make test-kcsan), one block each between lines of '='.
# A report with an hgroup function in it fails the run; the others, races
# in code hgroups does not touch, are kept in kcsan-other.txt and counted,
# and taken out of the log the splat check below reads.
log=$console
if [ "$flavour" = kcsan ] && [ -f "$console" ]; then
	rm -f "$out"/kcsan-*.txt "$out/console-nokcsan.log"
	tr -d '\r' < "$console" | awk -v out="$out" '
	/^(\[[ 0-9.]*\] )?=+$/ {
		if (inrep) {
			f = (rep ~ /hgroup/) ? out "/kcsan-hgroup.txt" : out "/kcsan-other.txt"
			print rep $0 "\n" >> f
			inrep = 0; rep = ""; next
		}
		pending = $0 "\n"; next
	}
	pending != "" && /BUG: KCSAN: / { inrep = 1; rep = pending; pending = "" }
	pending != "" { print pending > (out "/console-nokcsan.log"); pending = "" }
	inrep { rep = rep $0 "\n"; next }
	{ print > (out "/console-nokcsan.log") }
	' 2>/dev/null
	log=$out/console-nokcsan.log
	nh=$(grep -c 'BUG: KCSAN: ' "$out/kcsan-hgroup.txt" 2>/dev/null || true)
	no=$(grep -c 'BUG: KCSAN: ' "$out/kcsan-other.txt" 2>/dev/null || true)
	echo "KCSAN: ${nh:-0} reports in hgroup code, ${no:-0} elsewhere ($out/kcsan-*.txt)"
	stat=$(sed -n 's/^# kcsan-stat //p' "$out/results.txt" | tr '\n' ' ')
	echo "KCSAN at the end of the run: ${stat:-no statistics read}"
	if [ "${nh:-0}" -gt 0 ]; then
		echo "FAIL  kernel: data races in hgroup code:"
		grep 'BUG: KCSAN: ' "$out/kcsan-hgroup.txt" | sed 's/^\[[^]]*\] //' | sort | uniq -c | sed 's/^/      /'
		nfail=$((nfail + 1))
	fi
fi

# An OOM kill the memory tests cause on purpose prints the stack of the
# task that asked (dump_header()): not a splat.  Its "Call Trace:" block,
# from "invoked oom-killer" to the end of the stack, is left out of the
# log the check reads, and the reports counted.
if [ -f "$log" ] && grep -aq 'invoked oom-killer:' "$log"; then
	tr -d '\r' < "$log" | awk '
	/invoked oom-killer:/ { skip = 1; n++ }
	skip && /<\/TASK>/ { skip = 0; next }
	!skip { print }
	END { printf "%d\n", n > "/dev/stderr" }
	' > "$out/console-nooom.log" 2> "$out/oom-reports"
	echo "      (OOM reports in the log: $(cat "$out/oom-reports"), their stacks not counted as splats)"
	log=$out/console-nooom.log
fi

# Kernel splats: match real reports, not words (a debug kernel says
# "lockdep" and "KASAN" at boot).
splat='BUG: |WARNING: |Oops|KASAN: |UBSAN: |possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|INFO: rcu|INFO: task .* blocked|general protection fault|Kernel panic|kernel BUG at|list_add corruption|list_del corruption|refcount_t: |Call Trace:'
if grep -aEq "$splat" "$log" 2>/dev/null; then
	echo "FAIL  kernel: splat in the guest log ($console):"
	grep -aE -m 5 "$splat" "$log" | sed 's/^/      /'
	nfail=$((nfail + 1))
fi

echo "== $flavour kernel, $mode run =="
echo "$mode: ${npass:-0} passed, ${nfail:-0} failed, ${nskip:-0} skipped"
[ "${nfail:-0}" = 0 ] && [ "${npass:-0}" -gt 0 ]
