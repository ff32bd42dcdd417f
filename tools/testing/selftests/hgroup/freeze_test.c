// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups selftests: freezing process groups.
 *
 * HGROUP_FREEZE_ALL: the group reads frozen once every task is, frozen
 * tasks do not run (their counters in shared memory stand still), the
 * parent sees no stop, SIGKILL kills, thawing resumes; stopped, traced and
 * vfork()-waiting tasks count as frozen and stay as they were; a fork
 * storm and 100 processes freeze; moving a process into or out of a frozen
 * group by setpgid(), a stopped one too (the counts move with it);
 * HGROUP_SCOPE_DOMAIN and top-down thawing.
 * HGROUP_FREEZE_NEW_PGRP: setsid() and group-creating setpgid(), by or for
 * a task of the group, block (killably) until the flag is lifted, while
 * the group's tasks keep running; the group cannot lift it itself.
 *
 * Checklist: the cgroup v2 freezer suite (test_freezer.c): simple, tree,
 * forkbomb, migrate, ptrace, stopped, ptraced, vfork.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>

#include "../kselftest_harness.h"
#include "hgroup_util.h"

FIXTURE(hg) {
	struct hg_shm *shm;
};

FIXTURE_SETUP(hg)
{
	self->shm = hg_fixture_setup();
	ASSERT_NE(NULL, self->shm);
}

FIXTURE_TEARDOWN(hg)
{
	hg_fixture_teardown(self->shm);
}

static __noreturn void park(void)
{
	for (;;)
		pause();
}

/* Count in shm->ctr[i] forever: spinning, or every 10 ms. */
static __noreturn void count_forever(struct hg_shm *shm, int i, int spin)
{
	shm->pid[i] = getpid();
	hg_ready(shm);
	for (;;) {
		shm->ctr[i]++;
		if (!spin)
			usleep(10000);
	}
}

/*
 * A process group (a new session) of @n processes, each counting in
 * shm->ctr[i] with its pid in shm->pid[i]: process 0 is the leader, our
 * child; the others are its children.  The last @spin of them spin (so
 * that forking the others is not slowed down), the others count every
 * 10 ms.  Returns the leader, once all of them count.
 */
static pid_t start_counting(struct hg_shm *shm, int n, int spin)
{
	pid_t leader;
	int i;

	shm->ready = 0;
	leader = fork();
	if (leader < 0)
		return -1;
	if (leader == 0) {
		if (setsid() != getpid())
			_exit(1);
		for (i = 1; i < n; i++) {
			pid_t m = fork();

			if (m < 0)
				_exit(1);
			if (m == 0)
				count_forever(shm, i, i >= n - spin);
		}
		count_forever(shm, 0, spin >= n);
	}
	HG_POLL(shm->ready == n || hg_proc_state(leader) == 'Z', HG_CHILD_MS);
	return shm->ready == n ? leader : -1;
}

/* Our child @pid has no state change to report: no stop, no exit. */
static int nothing_to_report(pid_t pid)
{
	int status;

	return waitpid(pid, &status, WNOHANG | WUNTRACED | WCONTINUED) == 0;
}

/* Wait, bounded, for a ptrace stop (or exit) of @pid to be reported. */
static int wait_traced(pid_t pid, int *status, long ms)
{
	return HG_POLL(waitpid(pid, status, WNOHANG | __WALL) == pid, ms) ?
	       0 : -1;
}

#define EXPECT_FROZEN(pgid) EXPECT_EQ(0, hg_wait_frozen(pgid, 1, HG_FREEZE_MS))
#define ASSERT_FROZEN(pgid) ASSERT_EQ(0, hg_wait_frozen(pgid, 1, HG_FREEZE_MS))
#define ASSERT_THAWED(pgid) ASSERT_EQ(0, hg_wait_frozen(pgid, 0, HG_FREEZE_MS))

/* ---------------------------------------------------------------------- */
/* HGROUP_FREEZE_ALL                                                       */
/* ---------------------------------------------------------------------- */

/* Reading back, and hgroup_set_attr() replacing the whole setting. */
TEST_F_TIMEOUT(hg, freeze_setting_replaced, 120)
{
	struct hg_shm *shm = self->shm;
	struct hgroup_freeze f;
	pid_t g = start_counting(shm, 1, 0);

	ASSERT_LT(0, g);
	ASSERT_EQ(0, hg_get_freeze(g, &f));
	EXPECT_EQ(0, f.flags);
	EXPECT_EQ(0, f.state);

	ASSERT_EQ(0, hg_set_freeze(g, HGROUP_FREEZE_ALL |
				   HGROUP_FREEZE_NEW_PGRP, 0));
	EXPECT_EQ(HGROUP_FREEZE_ALL | HGROUP_FREEZE_NEW_PGRP,
		  hg_freeze_flags(g));
	ASSERT_FROZEN(g);
	/* The same again is no change. */
	EXPECT_EQ(0, hg_set_freeze(g, HGROUP_FREEZE_ALL |
				   HGROUP_FREEZE_NEW_PGRP, 0));
	EXPECT_FROZEN(g);

	/* NEW_PGRP alone: thawed, but still blocking new groups. */
	ASSERT_EQ(0, hg_set_freeze(g, HGROUP_FREEZE_NEW_PGRP, 0));
	EXPECT_EQ(HGROUP_FREEZE_NEW_PGRP, hg_freeze_flags(g));
	ASSERT_THAWED(g);
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 1, HG_FREEZE_MS));

	ASSERT_EQ(0, hg_set_freeze(g, 0, 0));
	EXPECT_EQ(0, hg_freeze_flags(g));
	EXPECT_EQ(0, hg_freeze_state(g));
}

static void *spin_thread(void *arg)
{
	struct hg_shm *shm = arg;

	shm->pid[9] = syscall(SYS_gettid);
	hg_ready(shm);
	for (;;)
		shm->ctr[9]++;
	return NULL;
}

/*
 * Three processes, one with a second thread: frozen only once all are,
 * then nothing counts, the parent sees no stop; thawed, all count again.
 */
TEST_F_TIMEOUT(hg, freeze_simple, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a;
	int i;

	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pthread_t t;

		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(!pthread_create(&t, NULL, spin_thread, shm));
		for (i = 1; i < 3; i++) {
			pid_t m = fork();

			CHILD_CHECK(m >= 0);
			if (m == 0)
				count_forever(shm, i, i == 1);
		}
		count_forever(shm, 0, 0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 4, HG_CHILD_MS));
	EXPECT_EQ(0, hg_freeze_state(a));

	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_ALL, 0));
	ASSERT_FROZEN(a);
	EXPECT_TRUE(hg_ctrs_still(shm, 0, 3, HG_QUIET_MS));
	EXPECT_TRUE(hg_ctrs_still(shm, 9, 1, HG_QUIET_MS));
	EXPECT_TRUE(nothing_to_report(a));
	for (i = 0; i < 3; i++)
		EXPECT_NE('T', hg_proc_state(shm->pid[i]));
	/* Still frozen a while later. */
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(a));

	ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
	ASSERT_THAWED(a);
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 3, HG_FREEZE_MS));
	EXPECT_TRUE(hg_ctrs_move(shm, 9, 1, HG_FREEZE_MS));
	EXPECT_TRUE(nothing_to_report(a));
}

/* 100 processes, ten of them spinning. */
TEST_F_TIMEOUT(hg, freeze_100_processes, 300)
{
	struct hg_shm *shm = self->shm;
	pid_t a = start_counting(shm, 100, 10);
	long t0;

	ASSERT_LT(0, a);
	t0 = hg_now_ms();
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_ALL, 0));
	ASSERT_EQ(0, hg_wait_frozen(a, 1, 2 * HG_FREEZE_MS));
	TH_LOG("100 processes frozen in %ld ms", hg_now_ms() - t0);
	EXPECT_TRUE(hg_ctrs_still(shm, 0, 100, 2 * HG_QUIET_MS));
	EXPECT_TRUE(nothing_to_report(a));

	t0 = hg_now_ms();
	ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
	ASSERT_EQ(0, hg_wait_frozen(a, 0, 2 * HG_FREEZE_MS));
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 100, 2 * HG_FREEZE_MS));
	TH_LOG("100 processes thawed and counting in %ld ms",
	       hg_now_ms() - t0);
}

/*
 * SIGKILL kills frozen processes: a member (a zombie then, its parent
 * being frozen; the group stays frozen) and the leader (our child: we
 * reap it).
 */
TEST_F_TIMEOUT(hg, freeze_sigkill, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a = start_counting(shm, 3, 1);
	pid_t m1, m2;

	ASSERT_LT(0, a);
	m1 = shm->pid[1];
	m2 = shm->pid[2];
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_ALL, 0));
	ASSERT_FROZEN(a);

	ASSERT_EQ(0, kill(m1, SIGKILL));
	EXPECT_TRUE(HG_POLL(hg_proc_state(m1) == 'Z', HG_SETTLE_MS)) {
		TH_LOG("state %c", hg_proc_state(m1));
	}
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(a));

	ASSERT_EQ(0, kill(a, SIGKILL));
	EXPECT_EQ(128 + SIGKILL, hg_wait_exit_timeout(a, HG_SETTLE_MS));
	/* m2 is left, frozen, in the group. */
	EXPECT_TRUE(hg_ctrs_still(shm, 2, 1, HG_QUIET_MS));
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(a));
	ASSERT_EQ(0, kill(m2, SIGKILL));
	EXPECT_TRUE(HG_POLL(hg_proc_state(m2) == 'Z' || !hg_proc_state(m2),
			    HG_SETTLE_MS));
}

/*
 * A process stopped by SIGSTOP before the freeze counts as frozen and is
 * still stopped after the thaw; one sent SIGSTOP while frozen stops when
 * thawed.  SIGCONT then resumes it.
 */
static void check_stopped(struct __test_metadata *_metadata,
			  struct hg_shm *shm, int during)
{
	pid_t a = start_counting(shm, 2, 0);
	pid_t b;

	ASSERT_LT(0, a);
	b = shm->pid[1];
	if (!during) {
		ASSERT_EQ(0, kill(b, SIGSTOP));
		ASSERT_TRUE(HG_POLL(hg_proc_state(b) == 'T', HG_SETTLE_MS));
		/* One stopped, one running: not frozen. */
		EXPECT_EQ(0, hg_freeze_state(a));
	}
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_ALL, 0));
	ASSERT_FROZEN(a);
	if (during) {
		/*
		 * As with the cgroup v2 freezer, a frozen task takes no
		 * signal but SIGKILL: the stop waits for the thaw.
		 */
		ASSERT_EQ(0, kill(b, SIGSTOP));
		hg_sleep_ms(HG_QUIET_MS);
		EXPECT_NE('T', hg_proc_state(b));
		EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(a));
	}
	EXPECT_TRUE(hg_ctrs_still(shm, 0, 2, HG_QUIET_MS));

	ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
	ASSERT_THAWED(a);
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 1, HG_FREEZE_MS));
	EXPECT_TRUE(hg_ctrs_still(shm, 1, 1, HG_QUIET_MS));
	EXPECT_TRUE(HG_POLL(hg_proc_state(b) == 'T', HG_SETTLE_MS));

	ASSERT_EQ(0, kill(b, SIGCONT));
	EXPECT_TRUE(hg_ctrs_move(shm, 1, 1, HG_FREEZE_MS));
}

TEST_F_TIMEOUT(hg, freeze_stopped_before, 120)
{
	check_stopped(_metadata, self->shm, 0);
}

TEST_F_TIMEOUT(hg, freeze_stopped_during, 120)
{
	check_stopped(_metadata, self->shm, 1);
}

/*
 * A tracer attaches (PTRACE_SEIZE) to a running member and lets it run:
 * the group still freezes, and the tracee does not run.
 */
TEST_F_TIMEOUT(hg, freeze_seized, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a = start_counting(shm, 2, 2);
	pid_t b;

	ASSERT_LT(0, a);
	b = shm->pid[1];
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, b, NULL, NULL));
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_ALL, 0));
	ASSERT_FROZEN(a);
	EXPECT_TRUE(hg_ctrs_still(shm, 0, 2, HG_QUIET_MS));
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(a));
	ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
	ASSERT_THAWED(a);
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 2, HG_FREEZE_MS));
}

/*
 * cgroup's test_cgfreezer_ptrace: in a frozen group, a tracer seizes and
 * interrupts a task; the group stays frozen while the task is in the
 * tracer's stop, and after the tracer detaches.
 */
TEST_F_TIMEOUT(hg, freeze_ptrace_frozen, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a = start_counting(shm, 2, 2);
	siginfo_t si;
	int status;
	pid_t b;

	ASSERT_LT(0, a);
	b = shm->pid[1];
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_ALL, 0));
	ASSERT_FROZEN(a);

	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, b, NULL, NULL));
	ASSERT_EQ(0, ptrace(PTRACE_INTERRUPT, b, NULL, NULL));
	ASSERT_EQ(0, wait_traced(b, &status, HG_SETTLE_MS));
	ASSERT_TRUE(WIFSTOPPED(status));
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(a));
	EXPECT_EQ(0, ptrace(PTRACE_GETSIGINFO, b, NULL, &si));
	EXPECT_EQ(0, ptrace(PTRACE_DETACH, b, NULL, NULL));
	EXPECT_FROZEN(a);
	EXPECT_TRUE(hg_ctrs_still(shm, 0, 2, HG_QUIET_MS));
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(a));

	ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
	ASSERT_THAWED(a);
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 2, HG_FREEZE_MS));
}

/*
 * cgroup's test_cgfreezer_ptraced: a task in a tracer's stop counts as
 * frozen; after the thaw it is still in that stop, and runs once the
 * tracer detaches.
 */
TEST_F_TIMEOUT(hg, freeze_ptraced, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a = start_counting(shm, 2, 2);
	siginfo_t si;
	int status;
	pid_t b;

	ASSERT_LT(0, a);
	b = shm->pid[1];
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, b, NULL, NULL));
	ASSERT_EQ(0, ptrace(PTRACE_INTERRUPT, b, NULL, NULL));
	ASSERT_EQ(0, wait_traced(b, &status, HG_SETTLE_MS));
	ASSERT_TRUE(WIFSTOPPED(status));
	/* One in a tracer's stop, one running: not frozen. */
	EXPECT_EQ(0, hg_freeze_state(a));

	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_ALL, 0));
	ASSERT_FROZEN(a);
	EXPECT_TRUE(hg_ctrs_still(shm, 0, 2, HG_QUIET_MS));

	ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
	ASSERT_THAWED(a);
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 1, HG_FREEZE_MS));
	EXPECT_TRUE(hg_ctrs_still(shm, 1, 1, HG_QUIET_MS));
	EXPECT_EQ(0, ptrace(PTRACE_GETSIGINFO, b, NULL, &si));
	EXPECT_EQ(0, ptrace(PTRACE_DETACH, b, NULL, NULL));
	EXPECT_TRUE(hg_ctrs_move(shm, 1, 1, HG_FREEZE_MS));
}

/*
 * cgroup's test_cgfreezer_vfork: a vfork() parent waiting for its child
 * counts as frozen (the child, in the group too, is in the trap).
 */
TEST_F_TIMEOUT(hg, freeze_vfork, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a;

	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pid_t c;

		CHILD_CHECK(setsid() == getpid());
		shm->pid[0] = getpid();
		c = vfork();
		if (c == 0) {
			/* Only shared memory is touched: no call returns. */
			shm->pid[1] = getpid();
			__atomic_add_fetch(&shm->ready, 1, __ATOMIC_SEQ_CST);
			for (;;)
				shm->ctr[1]++;
		}
		_exit(2);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_ALL, 0));
	ASSERT_FROZEN(a);
	EXPECT_TRUE(hg_ctrs_still(shm, 1, 1, HG_QUIET_MS));
	EXPECT_TRUE(nothing_to_report(a));
	ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
	ASSERT_THAWED(a);
	EXPECT_TRUE(hg_ctrs_move(shm, 1, 1, HG_FREEZE_MS));
	/* The vfork() parent is still waiting. */
	EXPECT_TRUE(nothing_to_report(a));
}

/*
 * cgroup's test_cgfreezer_forkbomb: four workers fork and reap children
 * as fast as they can; the group freezes all the same, and nothing runs:
 * neither the workers (ctr[0..3]) nor new children (ctr[10]).
 */
TEST_F_TIMEOUT(hg, freeze_fork_storm, 180)
{
	struct hg_shm *shm = self->shm;
	pid_t a;
	int i;

	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		for (i = 0; i < 4; i++) {
			pid_t w = fork();

			CHILD_CHECK(w >= 0);
			if (w)
				continue;
			hg_ready(shm);
			for (;;) {
				pid_t c = fork();

				shm->ctr[i]++;
				if (c == 0) {
					__atomic_add_fetch(&shm->ctr[10], 1,
							   __ATOMIC_SEQ_CST);
					_exit(0);
				}
				if (c > 0)
					waitpid(c, NULL, 0);
				else
					usleep(1000);
			}
		}
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 4, HG_CHILD_MS));
	ASSERT_TRUE(hg_ctrs_move(shm, 0, 4, HG_CHILD_MS));
	ASSERT_TRUE(hg_ctrs_move(shm, 10, 1, HG_CHILD_MS));

	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_ALL, 0));
	ASSERT_EQ(0, hg_wait_frozen(a, 1, 2 * HG_FREEZE_MS));
	EXPECT_TRUE(hg_ctrs_still(shm, 0, 4, 2 * HG_QUIET_MS));
	EXPECT_TRUE(hg_ctrs_still(shm, 10, 1, 2 * HG_QUIET_MS));
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(a));

	ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
	ASSERT_EQ(0, hg_wait_frozen(a, 0, 2 * HG_FREEZE_MS));
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 4, 2 * HG_FREEZE_MS));
	EXPECT_TRUE(hg_ctrs_move(shm, 10, 1, 2 * HG_FREEZE_MS));
}

/*
 * Start a domain: x (its leader group, counting in ctr[0]) and n, a
 * non-leader group of x's session (counting in ctr[1]).
 */
static pid_t start_domain_pair(struct hg_shm *shm)
{
	pid_t x;

	shm->ready = 0;
	x = fork();
	if (x < 0)
		return -1;
	if (x == 0) {
		pid_t n;

		if (new_domain() != getpid())
			_exit(1);
		n = fork();
		if (n < 0)
			_exit(1);
		if (n == 0) {
			if (setpgid(0, 0))
				_exit(1);
			count_forever(shm, 1, 0);
		}
		if (!HG_POLL(getpgid(n) == n, HG_CHILD_MS))
			_exit(1);
		count_forever(shm, 0, 0);
	}
	HG_POLL(shm->ready == 2 || hg_proc_state(x) == 'Z', HG_CHILD_MS);
	if (shm->ready != 2 || getpgid(shm->pid[1]) != shm->pid[1])
		return -1;
	return x;
}

/*
 * cgroup's test_cgfreezer_tree: a domain is thawed top-down (a group
 * cannot be thawed while the leader group above it is frozen), and
 * HGROUP_SCOPE_DOMAIN freezes and thaws all its groups at once.
 */
TEST_F_TIMEOUT(hg, freeze_tree, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t x = start_domain_pair(shm), n;

	ASSERT_LT(0, x);
	n = shm->pid[1];

	/* Each group on its own: no propagation. */
	ASSERT_EQ(0, hg_set_freeze(n, HGROUP_FREEZE_ALL, 0));
	ASSERT_FROZEN(n);
	EXPECT_EQ(0, hg_freeze_state(x));
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 1, HG_FREEZE_MS));
	ASSERT_EQ(0, hg_set_freeze(x, HGROUP_FREEZE_ALL, 0));
	ASSERT_FROZEN(x);
	EXPECT_TRUE(hg_ctrs_still(shm, 0, 2, HG_QUIET_MS));

	/* Bottom-up thawing is refused, and changes nothing. */
	EXPECT_ERRNO(EACCES, hg_set_freeze(n, 0, 0));
	EXPECT_EQ(HGROUP_FREEZE_ALL, hg_freeze_flags(n));
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(n));
	EXPECT_ERRNO(EACCES, hg_set_freeze(n, HGROUP_FREEZE_NEW_PGRP, 0));
	EXPECT_EQ(HGROUP_FREEZE_ALL, hg_freeze_flags(n));

	/* Top-down. */
	ASSERT_EQ(0, hg_set_freeze(x, 0, 0));
	ASSERT_THAWED(x);
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 1, HG_FREEZE_MS));
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(n));
	ASSERT_EQ(0, hg_set_freeze(n, 0, 0));
	ASSERT_THAWED(n);
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 2, HG_FREEZE_MS));

	/* The whole domain at once, named by its non-leader group. */
	ASSERT_EQ(0, hg_set_freeze(n, HGROUP_FREEZE_ALL, HGROUP_SCOPE_DOMAIN));
	EXPECT_EQ(HGROUP_FREEZE_ALL, hg_freeze_flags(x));
	EXPECT_EQ(HGROUP_FREEZE_ALL, hg_freeze_flags(n));
	ASSERT_FROZEN(x);
	ASSERT_FROZEN(n);
	EXPECT_TRUE(hg_ctrs_still(shm, 0, 2, HG_QUIET_MS));
	ASSERT_EQ(0, hg_set_freeze(x, 0, HGROUP_SCOPE_DOMAIN));
	EXPECT_EQ(0, hg_freeze_flags(x));
	EXPECT_EQ(0, hg_freeze_flags(n));
	ASSERT_THAWED(x);
	ASSERT_THAWED(n);
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 2, HG_FREEZE_MS));
}

/*
 * The two groups of freeze_migrate and freeze_move_stopped: a, our child,
 * leads a session (group A) and moves its child c from A to group B (of
 * a's child b) at step 1 (shm->ret[0] = 1 when done) and back at step 2
 * (shm->ret[0] = 2); b counts in ctr[1], c in ctr[2].  Returns a once both
 * count.
 */
static pid_t start_mover(struct hg_shm *shm)
{
	pid_t a, b, c;

	shm->ready = 0;
	a = fork();
	if (a < 0)
		return -1;
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		b = fork();
		CHILD_CHECK(b >= 0);
		if (b == 0) {
			CHILD_CHECK(setpgid(0, 0) == 0);
			count_forever(shm, 1, 0);
		}
		CHILD_CHECK(HG_POLL(getpgid(b) == b, HG_CHILD_MS));
		c = fork();
		CHILD_CHECK(c >= 0);
		if (c == 0)
			count_forever(shm, 2, 0);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(setpgid(c, b) == 0);
		shm->ret[0] = 1;
		CHILD_CHECK(hg_wait_step(shm, 2) == 0);
		CHILD_CHECK(setpgid(c, getpid()) == 0);
		shm->ret[0] = 2;
		park();
	}
	HG_POLL(shm->ready == 2 || hg_proc_state(a) == 'Z', HG_CHILD_MS);
	return shm->ready == 2 ? a : -1;
}

/*
 * cgroup's test_cgfreezer_migrate, with setpgid(): a process moved into a
 * frozen group is frozen ("every task of the group"), and moved back out,
 * it runs again; the group stays frozen throughout.
 *
 *   a: session leader, group A, not frozen: moves c (its child)
 *   b: group B of a's session, frozen (ctr[1])
 *   c: in A, then B, then A (ctr[2])
 */
TEST_F_TIMEOUT(hg, freeze_migrate, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a, b, c;

	a = start_mover(shm);
	ASSERT_LT(0, a);
	b = shm->pid[1];
	c = shm->pid[2];
	ASSERT_EQ(b, getpgid(b));
	ASSERT_EQ(a, getpgid(c));

	ASSERT_EQ(0, hg_set_freeze(b, HGROUP_FREEZE_ALL, 0));
	ASSERT_FROZEN(b);
	EXPECT_TRUE(hg_ctrs_move(shm, 2, 1, HG_FREEZE_MS));

	/* c: running -> frozen group. */
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ret[0] == 1, HG_CHILD_MS));
	ASSERT_EQ(b, getpgid(c));
	EXPECT_TRUE(HG_POLL(hg_ctrs_still(shm, 2, 1, HG_QUIET_MS),
			    HG_FREEZE_MS));
	EXPECT_FROZEN(b);
	EXPECT_TRUE(hg_ctrs_still(shm, 1, 2, HG_QUIET_MS));

	/* c: frozen group -> running. */
	hg_set_step(shm, 2);
	ASSERT_TRUE(HG_POLL(shm->ret[0] == 2, HG_CHILD_MS));
	ASSERT_EQ(a, getpgid(c));
	EXPECT_TRUE(hg_ctrs_move(shm, 2, 1, HG_FREEZE_MS));
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(b));
	EXPECT_TRUE(hg_ctrs_still(shm, 1, 1, HG_QUIET_MS));
	EXPECT_EQ(0, hg_freeze_state(a));
}

/*
 * The frozen state is kept in counts that move with a process: a stopped
 * process (counted as frozen where it stopped) moved by setpgid() into a
 * frozen group leaves it frozen, and moved back makes its old group
 * frozen once the rest of it is.  Groups: A = a (the caller of setpgid())
 * and s (stopped, ctr[2]); B = b (ctr[1]).
 */
TEST_F_TIMEOUT(hg, freeze_move_stopped, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a, b, s;

	a = start_mover(shm);
	ASSERT_LT(0, a);
	b = shm->pid[1];
	s = shm->pid[2];
	ASSERT_EQ(0, kill(s, SIGSTOP));
	ASSERT_TRUE(HG_POLL(hg_proc_state(s) == 'T', HG_SETTLE_MS));
	ASSERT_EQ(0, hg_set_freeze(b, HGROUP_FREEZE_ALL, 0));
	ASSERT_FROZEN(b);

	/* s, stopped: A -> frozen B, which stays frozen. */
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ret[0] == 1, HG_CHILD_MS));
	ASSERT_EQ(b, getpgid(s));
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(b));
	EXPECT_EQ('T', hg_proc_state(s));

	/* s, stopped: B -> A; B stays frozen, A freezes with s stopped. */
	hg_set_step(shm, 2);
	ASSERT_TRUE(HG_POLL(shm->ret[0] == 2, HG_CHILD_MS));
	ASSERT_EQ(a, getpgid(s));
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(b));
	EXPECT_EQ(0, hg_freeze_state(a));
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_ALL, 0));
	EXPECT_FROZEN(a);
	EXPECT_EQ('T', hg_proc_state(s));

	/* Continued, s stays frozen with A, and runs once A is thawed. */
	ASSERT_EQ(0, kill(s, SIGCONT));
	EXPECT_TRUE(hg_ctrs_still(shm, 2, 1, HG_QUIET_MS));
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(a));
	ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
	ASSERT_THAWED(a);
	EXPECT_TRUE(hg_ctrs_move(shm, 2, 1, HG_FREEZE_MS));
	EXPECT_TRUE(hg_ctrs_still(shm, 1, 1, HG_QUIET_MS));
	ASSERT_EQ(0, hg_set_freeze(b, 0, 0));
	ASSERT_THAWED(b);
	EXPECT_TRUE(hg_ctrs_move(shm, 1, 1, HG_FREEZE_MS));
}

/* ---------------------------------------------------------------------- */
/* HGROUP_FREEZE_NEW_PGRP                                                  */
/* ---------------------------------------------------------------------- */

enum {
	CALL_SETSID,
	CALL_SETPGID_SELF,	/* setpgid(0, 0) */
	CALL_SETPGID_CHILD,	/* setpgid(child, child), by its parent */
};

/*
 * A group of a (the leader, counting in ctr[0]) and b (a's child), where
 * at step 1 the caller makes its call, with shm->ret[0] = 1 just before
 * and, when it returns, shm->ret[1] = its result, shm->ret[2] = errno,
 * shm->ret[3] = 1.  The caller is b, or for CALL_SETPGID_CHILD a itself,
 * on its child b.  a reaps b: shm->ret[4] = b's exit status.
 */
static pid_t start_new_pgrp_call(struct hg_shm *shm, int call)
{
	pid_t a;

	shm->ready = 0;
	shm->ret[4] = -1;
	a = fork();
	if (a < 0)
		return -1;
	if (a == 0) {
		pid_t b;
		long r;

		if (setsid() != getpid())
			_exit(1);
		b = fork();
		if (b < 0)
			_exit(1);
		if (b == 0) {
			shm->pid[1] = getpid();
			hg_ready(shm);
			if (call == CALL_SETPGID_CHILD)
				park();
			if (hg_wait_step(shm, 1))
				_exit(1);
			shm->ret[0] = 1;
			r = call == CALL_SETSID ? setsid() : setpgid(0, 0);
			shm->ret[2] = errno;
			shm->ret[1] = r;
			shm->ret[3] = 1;
			park();
		}
		if (call == CALL_SETPGID_CHILD) {
			shm->pid[0] = getpid();
			hg_ready(shm);
			if (hg_wait_step(shm, 1))
				_exit(1);
			shm->ret[0] = 1;
			r = setpgid(b, b);
			shm->ret[2] = errno;
			shm->ret[1] = r;
			shm->ret[3] = 1;
			park();
		}
		/* A child of a counts (ctr[0]); a reaps b. */
		if (fork() == 0)
			count_forever(shm, 0, 0);
		shm->ret[4] = wait_exit(b);
		park();
	}
	HG_POLL(shm->ready == 2 || hg_proc_state(a) == 'Z', HG_CHILD_MS);
	return shm->ready == 2 ? a : -1;
}

/*
 * The call blocks while the flag is set (and has not returned ~300 ms
 * later), the group's tasks keep running, and it completes once lifted.
 */
static void check_new_pgrp_blocks(struct __test_metadata *_metadata,
				  struct hg_shm *shm, int call)
{
	pid_t a = start_new_pgrp_call(shm, call);
	pid_t b, want;

	ASSERT_LT(0, a);
	b = shm->pid[1];
	ASSERT_EQ(a, getpgid(b));
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_NEW_PGRP, 0));
	EXPECT_EQ(HGROUP_FREEZE_NEW_PGRP, hg_freeze_flags(a));

	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ret[0] == 1, HG_CHILD_MS));
	hg_sleep_ms(HG_QUIET_MS);
	EXPECT_EQ(0, shm->ret[3]) {
		TH_LOG("returned %d, errno %d, while the flag was set",
		       shm->ret[1], shm->ret[2]);
	}
	EXPECT_EQ(a, getpgid(b));
	/* Blocking new groups freezes nobody. */
	if (call != CALL_SETPGID_CHILD)
		EXPECT_TRUE(hg_ctrs_move(shm, 0, 1, HG_FREEZE_MS));
	EXPECT_EQ(0, hg_freeze_state(a));

	ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
	ASSERT_TRUE(HG_POLL(shm->ret[3] == 1, HG_SETTLE_MS));
	want = call == CALL_SETSID ? b : 0;
	EXPECT_EQ(want, shm->ret[1]) {
		TH_LOG("errno %d", shm->ret[2]);
	}
	EXPECT_EQ(b, getpgid(b));
	if (call == CALL_SETSID) {
		/* Braces: EXPECT_*() expands to more than one statement. */
		EXPECT_EQ(b, getsid(b));
	} else {
		EXPECT_EQ(a, getsid(b));
	}
}

TEST_F_TIMEOUT(hg, new_pgrp_blocks_setsid, 120)
{
	check_new_pgrp_blocks(_metadata, self->shm, CALL_SETSID);
}

TEST_F_TIMEOUT(hg, new_pgrp_blocks_setpgid, 120)
{
	check_new_pgrp_blocks(_metadata, self->shm, CALL_SETPGID_SELF);
}

/* setpgid() by the parent, for its child: "or for" a task of the group. */
TEST_F_TIMEOUT(hg, new_pgrp_blocks_setpgid_for_child, 120)
{
	check_new_pgrp_blocks(_metadata, self->shm, CALL_SETPGID_CHILD);
}

/* The wait is killable; the flag stays. */
TEST_F_TIMEOUT(hg, new_pgrp_wait_killable, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a = start_new_pgrp_call(shm, CALL_SETSID);
	pid_t b;

	ASSERT_LT(0, a);
	b = shm->pid[1];
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_NEW_PGRP, 0));
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ret[0] == 1, HG_CHILD_MS));
	hg_sleep_ms(HG_QUIET_MS);
	ASSERT_EQ(0, shm->ret[3]);

	ASSERT_EQ(0, kill(b, SIGKILL));
	EXPECT_TRUE(HG_POLL(shm->ret[4] == 128 + SIGKILL, HG_SETTLE_MS)) {
		TH_LOG("b: status %d", shm->ret[4]);
	}
	EXPECT_EQ(0, shm->ret[3]);
	EXPECT_EQ(HGROUP_FREEZE_NEW_PGRP, hg_freeze_flags(a));
}

/*
 * The group cannot lift the flag itself (not even root in it), but may set
 * it again; fork() is not blocked.
 */
TEST_F_TIMEOUT(hg, new_pgrp_not_liftable_from_inside, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a;

	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pid_t c;

		CHILD_CHECK(setsid() == getpid());
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(hg_freeze_flags(0) == HGROUP_FREEZE_NEW_PGRP);
		CHILD_ERRNO(EACCES, hg_set_freeze(0, 0, 0));
		CHILD_CHECK(hg_freeze_flags(0) == HGROUP_FREEZE_NEW_PGRP);
		CHILD_CHECK(hg_set_freeze(0, HGROUP_FREEZE_NEW_PGRP, 0) == 0);
		c = fork();
		CHILD_CHECK(c >= 0);
		if (c == 0)
			_exit(getpgrp() == getppid() ? 0 : 1);
		CHILD_CHECK(hg_wait_exit_timeout(c, HG_CHILD_MS) == 0);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_NEW_PGRP, 0));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
}

/*
 * With both flags, a task held back in setsid() counts as frozen: the
 * group reads frozen (it used to never do, and "hgctl freeze --wait"
 * timed out).  Thawed and lifted, the call completes.
 */
TEST_F_TIMEOUT(hg, new_pgrp_held_back_task_reads_frozen, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a = start_new_pgrp_call(shm, CALL_SETSID);
	pid_t b;

	ASSERT_LT(0, a);
	b = shm->pid[1];
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_NEW_PGRP, 0));
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ret[0] == 1, HG_CHILD_MS));
	hg_sleep_ms(HG_QUIET_MS);
	ASSERT_EQ(0, shm->ret[3]);

	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_NEW_PGRP |
				   HGROUP_FREEZE_ALL, 0));
	EXPECT_FROZEN(a);
	EXPECT_TRUE(hg_ctrs_still(shm, 0, 1, HG_QUIET_MS));
	EXPECT_EQ(0, shm->ret[3]);

	/* Thawed but still held back; then lifted: setsid() completes. */
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_NEW_PGRP, 0));
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 1, HG_FREEZE_MS));
	hg_sleep_ms(HG_QUIET_MS);
	EXPECT_EQ(0, shm->ret[3]);
	ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
	ASSERT_TRUE(HG_POLL(shm->ret[3] == 1, HG_SETTLE_MS));
	EXPECT_EQ(b, shm->ret[1]);
	EXPECT_EQ(b, getsid(b));
}

/*
 * A parent held back in setpgid(child, child), because the child is in a
 * group with the setting (y), wakes up when the child exits (the parent
 * ignores SIGCHLD, so nothing is left of it) and fails with ESRCH, as the
 * call would now, while the setting stays (it used to stay blocked until
 * some group was lifted).  A held-back child cannot move to a group
 * without the setting: that would shed it (EPERM).
 */
TEST_F_TIMEOUT(hg, new_pgrp_waiter_woken_when_target_exits, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a, b, x, y;

	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		long r;

		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(signal(SIGCHLD, SIG_IGN) != SIG_ERR);
		x = fork();
		CHILD_CHECK(x >= 0);
		if (x == 0) {
			CHILD_CHECK(setpgid(0, 0) == 0);
			park();
		}
		y = fork();
		CHILD_CHECK(y >= 0);
		if (y == 0) {
			CHILD_CHECK(setpgid(0, 0) == 0);
			park();
		}
		CHILD_CHECK(HG_POLL(getpgid(x) == x && getpgid(y) == y,
				    HG_CHILD_MS));
		b = fork();
		CHILD_CHECK(b >= 0);
		if (b == 0) {
			CHILD_CHECK(setpgid(0, y) == 0);
			hg_ready(shm);
			CHILD_CHECK(hg_wait_step(shm, 2) == 0);
			CHILD_ERRNO(EPERM, setpgid(0, x));
			_exit(0);
		}
		shm->pid[0] = x;
		shm->pid[1] = y;
		shm->pid[2] = b;
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		shm->ret[0] = 1;
		r = setpgid(b, b);
		shm->ret[2] = errno;
		shm->ret[1] = r;
		shm->ret[3] = 1;
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 2, HG_CHILD_MS));
	x = shm->pid[0];
	y = shm->pid[1];
	b = shm->pid[2];
	ASSERT_EQ(y, getpgid(b));
	ASSERT_EQ(0, hg_set_freeze(y, HGROUP_FREEZE_NEW_PGRP, 0));
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ret[0] == 1, HG_CHILD_MS));
	hg_sleep_ms(HG_QUIET_MS);
	ASSERT_EQ(0, shm->ret[3]);
	EXPECT_EQ(y, getpgid(b));

	hg_set_step(shm, 2);
	ASSERT_TRUE(HG_POLL(shm->ret[3] == 1, HG_SETTLE_MS));
	EXPECT_EQ(-1, shm->ret[1]);
	EXPECT_EQ(ESRCH, shm->ret[2]);
	EXPECT_EQ(HGROUP_FREEZE_NEW_PGRP, hg_freeze_flags(y));
	EXPECT_EQ(0, hg_freeze_flags(x));
}

/*
 * set_domainid() gives the caller's group a new state, a new group as
 * far as "hgctl apply --recursive" is concerned: it is held back too
 * (it used to go through), and completes once the setting is lifted.
 */
TEST_F_TIMEOUT(hg, new_pgrp_blocks_set_domainid, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a;

	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		long r;

		CHILD_CHECK(setsid() == getpid());
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		shm->ret[0] = 1;
		r = sys_set_domainid(0);
		shm->ret[2] = errno;
		shm->ret[1] = r;
		shm->ret[3] = 1;
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_NEW_PGRP, 0));
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ret[0] == 1, HG_CHILD_MS));
	hg_sleep_ms(HG_QUIET_MS);
	EXPECT_EQ(0, shm->ret[3]) {
		TH_LOG("returned %d, errno %d, while the flag was set",
		       shm->ret[1], shm->ret[2]);
	}
	EXPECT_EQ(0, sys_get_domainid(a));

	ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
	ASSERT_TRUE(HG_POLL(shm->ret[3] == 1, HG_SETTLE_MS));
	EXPECT_EQ(a, shm->ret[1]) {
		TH_LOG("errno %d", shm->ret[2]);
	}
	EXPECT_EQ(a, sys_get_domainid(a));
}

TEST_HARNESS_MAIN
