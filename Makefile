# SPDX-License-Identifier: GPL-2.0
# hgroups: build the patched kernel, boot it in QEMU, run the suites.
# See README for the targets.

MK := mk
B := build
KSRC := $(B)/linux

.PHONY: all run test test-debug test-kcsan test-regress bench bench-icount patchset check check-series clean distclean \
	deps prepare kernel-% FORCE

all: test

deps:
	@$(MK)/deps.sh

prepare: deps
	@$(MK)/prepare.sh $(KSRC)

kernel-%: prepare
	@$(MK)/kernel.sh $*

## make run: boot the hgroup kernel into an interactive busybox shell.
run: kernel-hgroup
	@$(MK)/guest.sh hgroup run

## make test: build, boot and run every hgroup selftest.
test: kernel-hgroup
	@$(MK)/guest.sh hgroup test

## make test-debug: the same suite on a lockdep/KASAN/DEBUG_LIST kernel,
## stress_test with twice its default operations.
test-debug: kernel-debug
	@GUEST_TIMEOUT=3000 HG_TIMEOUT=2400 HG_STRESS_OPS=10000 \
		$(MK)/guest.sh debug test

## make test-kcsan: the same suite on a KCSAN kernel; a data race reported
## in hgroup code fails it, others are listed.
test-kcsan: kernel-kcsan
	@GUEST_TIMEOUT=3000 HG_TIMEOUT=2400 $(MK)/guest.sh kcsan test

## make test-regress: upstream selftests, hgroup kernel against baseline.
test-regress: prepare
	@$(MK)/regress.sh

## make bench: baseline against hgroup kernel, interleaved loops.
bench: prepare
	@$(MK)/bench.sh

## make bench-icount: the same in instructions (QEMU -icount, one vCPU),
## for cost ratios that repeat within about 0.5%.
bench-icount: prepare
	@BENCH_ICOUNT=1 $(MK)/bench.sh

## make patchset: git format-patch series with cover letter in build/patchset.
patchset: prepare
	@$(MK)/patchset.sh

## make check: checkpatch, W=1 and sparse over the series and kernel/hgroup.
check: prepare
	@$(MK)/check.sh

## make check-series: every patch of the series builds with hgroups on and
## off, on x86-64 and i386 (also the last step of make check).
check-series: prepare
	@$(MK)/check-series.sh

clean:
	rm -rf $(B)/obj-* $(B)/guest-* $(B)/patchset*

distclean:
	rm -rf $(B)
