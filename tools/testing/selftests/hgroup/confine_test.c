// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups selftests: escapes.  Each test is a way out of a restriction
 * that a process might try, and asserts that it stays shut:
 *
 *  - threads created while their group is being frozen are frozen too
 *    (the freeze used to be lost in copy_process());
 *  - a PID namespace's init that leads a domain from outside cannot start
 *    another one from the same process group (EPERM);
 *  - a process moving by setpgid() takes its new group's sets, also after
 *    a domain-scope change gave both groups one generation, and cannot
 *    move into a group that allows more than its own (EPERM);
 *  - restricting without privilege over the members needs no_new_privs
 *    in them, and a container's root cannot restrict a host process
 *    that entered its PID namespace (EPERM);
 *  - a CPU or node set never widens the cpuset: moves into a cpuset it
 *    does not meet fail with ENOSPC (cgroup.procs, as root and as a user
 *    with a delegated subtree, and clone3(CLONE_INTO_CGROUP)); a cpuset
 *    update keeps the group's set; a set that does not meet a member's
 *    cpuset fails with EINVAL; where the cpuset's owner makes them
 *    disjoint, the cpuset's mask is in force, never wider; the pages a
 *    cpuset migrates stay within the group's nodes;
 *  - move_pages() to a node outside the group's set fails with EACCES,
 *    as for a cpuset;
 *  - io_uring's SQPOLL thread cannot be bound to a CPU outside the set,
 *    and neither it nor an io-wq worker started after the set was
 *    narrowed runs outside it;
 *  - the LSMs are asked, as for sched_setaffinity() and kill(), before
 *    a set or a freeze reaches a member or a process joins a restricted
 *    group (Landlock's signal scoping, and Smack where the kernel has it);
 *  - a block device denied by the device list cannot be mounted.
 *
 * Tests skip where the guest lacks what they need (two CPUs, two or three
 * nodes, the cpuset controller, io_uring, a RAM disk and ext2).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/io_uring.h>
#include <linux/landlock.h>
#include <linux/mempolicy.h>
#include <linux/sched.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "../kselftest_harness.h"
#include "hgroup_util.h"

#define CPU0	1UL
#define CPU1	2UL
#define CG	"/sys/fs/cgroup"
#define CGDIR	CG "/hgconfine"

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

/*
 * In a child: fork a process that makes a process group of its own and
 * parks; return its pid once it leads that group, exit 1 on failure.
 */
static pid_t fork_group_leader(void)
{
	pid_t p = fork();

	CHILD_CHECK(p >= 0);
	if (p == 0) {
		CHILD_CHECK(setpgid(0, 0) == 0);
		park();
	}
	CHILD_CHECK(HG_POLL(getpgid(p) == p, HG_CHILD_MS));
	return p;
}

/* ---------------------------------------------------------------------- */
/* Freezing threads that are being created                                 */
/* ---------------------------------------------------------------------- */

static struct hg_shm *tshm;

/* A worker counts in its own slot for as long as it runs. */
static void *worker(void *arg)
{
	long slot = (long)arg;

	for (;;) {
		tshm->ctr[slot]++;
		usleep(100000);
	}
	return NULL;
}

/* A creator starts workers one after the other, up to its share. */
static void *creator(void *arg)
{
	long first = (long)arg, i;
	pthread_attr_t attr;
	pthread_t t;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (i = first; i < first + 100; i++)
		if (pthread_create(&t, &attr, worker, (void *)i))
			break;
	__atomic_add_fetch(&tshm->ret[0], 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/* The highest slot a worker has counted in, plus one. */
static int slots_used(struct hg_shm *shm)
{
	int i, n = 0;

	for (i = 0; i < 400; i++)
		if (shm->ctr[i])
			n = i + 1;
	return n;
}

/*
 * Four threads create workers as fast as they can while the group is
 * frozen and thawed again and again: a creator caught inside clone() by
 * the freeze makes its new thread in a frozen group, and that thread
 * must be frozen too.  With the freeze lost, the group never reads
 * frozen, or a worker counts on while it does.
 */
TEST_F_TIMEOUT(hg, freeze_threads_created_during_freeze, 300)
{
	struct hg_shm *shm = self->shm;
	int cycles = 0;
	pid_t a;

	tshm = shm;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pthread_t t;
		long i;

		CHILD_CHECK(setsid() == getpid());
		for (i = 0; i < 4; i++)
			CHILD_CHECK(!pthread_create(&t, NULL, creator,
						    (void *)(i * 100)));
		park();
	}
	while (cycles < 20 && shm->ret[0] < 4) {
		int n;

		hg_sleep_ms(50);
		ASSERT_EQ(0, hg_set_freeze(a, HGROUP_FREEZE_ALL, 0));
		ASSERT_EQ(0, hg_wait_frozen(a, 1, HG_FREEZE_MS)) {
			TH_LOG("cycle %d: the group never read frozen",
			       cycles);
		}
		n = slots_used(shm);
		EXPECT_TRUE(hg_ctrs_still(shm, 0, n, HG_QUIET_MS)) {
			TH_LOG("cycle %d: a worker ran while frozen", cycles);
		}
		ASSERT_EQ(0, hg_set_freeze(a, 0, 0));
		cycles++;
	}
	TH_LOG("%d freeze cycles, %d threads made", cycles, slots_used(shm));
	ASSERT_LT(0, cycles);
}

/* ---------------------------------------------------------------------- */
/* Domains                                                                 */
/* ---------------------------------------------------------------------- */

/*
 * A process that starts a domain and then a PID namespace leaves, as the
 * namespace's init, the only member of the domain's leader group, and in
 * a domain that reads as 0 from inside.  set_domainid() there must not
 * give that group a second state (EPERM): the first stayed bound to the
 * outer domain, and a freeze of that domain reached the process where its
 * own group could not thaw it.
 */
TEST_F_TIMEOUT(hg, set_domainid_from_leader_group_refused, 90)
{
	struct hg_shm *shm = self->shm;
	pid_t a;

	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pid_t p;

		CHILD_CHECK(new_domain() == getpid());
		CHILD_CHECK(unshare(CLONE_NEWPID) == 0);
		p = fork();
		CHILD_CHECK(p >= 0);
		if (p == 0) {
			CHILD_CHECK(hg_wait_step(shm, 1) == 0);
			CHILD_CHECK(sys_get_domainid(0) == 0);
			CHILD_ERRNO(EPERM, sys_set_domainid(0));
			CHILD_CHECK(sys_get_domainid(0) == 0);
			_exit(0);
		}
		shm->pid[0] = p;
		_exit(0);
	}
	/* Reaped, a is gone: p, reparented here, is alone in its groups. */
	ASSERT_EQ(0, wait_exit(a));
	ASSERT_LT(0, shm->pid[0]);
	EXPECT_EQ(a, getpgid(shm->pid[0]));
	EXPECT_EQ(a, sys_get_domainid(shm->pid[0]));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(shm->pid[0], HG_CHILD_MS));
}

/*
 * A process in a restricted group cannot shed the restriction by moving
 * itself into a group of its session that allows more (EPERM), be it its
 * session leader's group or a sibling's, as root or as a user; moving
 * into a group that restricts at least as much works.  Tried for CPUs,
 * devices and freeze-on-new-group.
 */
TEST_F_TIMEOUT(hg, setpgid_into_wider_group_refused, 120)
{
	static const struct hgroup_dev_rule null_rule = {
		.type = HGROUP_DEV_CHAR, .major = 1, .minor = 3,
		.access = HGROUP_DEV_ACC_ALL,
	};
	struct hg_shm *shm = self->shm;
	int uid;

	for (uid = 0; uid <= 1000; uid += 1000) {
		pid_t a;

		shm->ready = 0;
		shm->step = 0;
		a = fork();
		ASSERT_LE(0, a);
		if (a == 0) {
			pid_t b, c;

			CHILD_CHECK(setsid() == getpid());
			CHILD_CHECK(hg_become(uid) == 0);
			b = fork();
			CHILD_CHECK(b >= 0);
			if (b == 0) {
				CHILD_CHECK(setpgid(0, 0) == 0);
				park();
			}
			/* b's group must exist before we are ready. */
			CHILD_CHECK(HG_POLL(getpgid(b) == b, HG_CHILD_MS));
			shm->pid[0] = b;
			c = fork();
			CHILD_CHECK(c >= 0);
			if (c == 0) {
				CHILD_CHECK(setpgid(0, 0) == 0);
				shm->pid[1] = getpid();
				hg_ready(shm);
				CHILD_CHECK(hg_wait_step(shm, 1) == 0);
				CHILD_ERRNO(EPERM, setpgid(0, getsid(0)));
				CHILD_ERRNO(EPERM, setpgid(0, b));
				CHILD_CHECK(getpgrp() == getpid());
				_exit(0);
			}
			_exit(wait_exit(c));
		}
		ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
		ASSERT_EQ(0, hg_set_cpus(shm->pid[1], CPU0, 0));
		ASSERT_EQ(0, hg_set_devices(shm->pid[1], HGROUP_DEV_POLICY_ALLOW,
					    &null_rule, 1, 0));
		ASSERT_EQ(0, hg_set_freeze(shm->pid[1], HGROUP_FREEZE_NEW_PGRP,
					   0));
		ASSERT_EQ(0, hg_set_cpus(shm->pid[0], CPU0, 0));
		ASSERT_EQ(0, hg_set_devices(shm->pid[0], HGROUP_DEV_POLICY_ALLOW,
					    &null_rule, 1, 0));
		/* b lacks freeze-on-new-group: c moving there would shed it. */
		hg_set_step(shm, 1);
		EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS)) {
			TH_LOG("uid %d", uid);
		}
		kill(shm->pid[0], SIGKILL);
		EXPECT_EQ(128 + SIGKILL,
			  hg_wait_exit_timeout(shm->pid[0], HG_CHILD_MS));
	}
}

/*
 * A user restricting its own group, or one of its own groups from
 * outside, needs no_new_privs in every member (EPERM otherwise), so that
 * no set-id program it then runs is restricted by it; the group then
 * admits only processes with no_new_privs (setpgid(): EPERM).  The
 * owner's lifting needs none.
 */
TEST_F_TIMEOUT(hg, unprivileged_restrict_needs_no_new_privs, 90)
{
	static const struct hgroup_dev_rule null_rule = {
		.type = HGROUP_DEV_CHAR, .major = 1, .minor = 3,
		.access = HGROUP_DEV_ACC_ALL,
	};
	pid_t a;

	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pid_t b, c;
		int p[2];
		char ch;

		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_become(1000) == 0);
		CHILD_CHECK(pipe(p) == 0);
		b = fork();
		CHILD_CHECK(b >= 0);
		if (b == 0) {
			CHILD_CHECK(setpgid(0, 0) == 0);
			CHILD_ERRNO(EPERM, hg_set_cpus(0, CPU0, 0));
			CHILD_ERRNO(EPERM, hg_set_devices(0,
							  HGROUP_DEV_POLICY_ALLOW,
							  &null_rule, 1, 0));
			CHILD_ERRNO(EPERM, hg_set_freeze(0,
							 HGROUP_FREEZE_NEW_PGRP,
							 0));
			CHILD_CHECK(hg_get_cpus(0) == hg_possible_cpus());
			CHILD_CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
			CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_ALLOW,
						   &null_rule, 1, 0) == 0);
			CHILD_CHECK(write(p[1], "x", 1) == 1);
			park();
		}
		CHILD_CHECK(read(p[0], &ch, 1) == 1);
		/* From outside, too: b has no_new_privs now. */
		CHILD_CHECK(hg_set_cpus(b, CPU0, 0) == 0);
		/* A process without no_new_privs may not join b's group. */
		c = fork();
		CHILD_CHECK(c >= 0);
		if (c == 0) {
			CHILD_ERRNO(EPERM, setpgid(0, b));
			CHILD_CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
			/* Nor shed the device list: restrict first. */
			CHILD_CHECK(setpgid(0, 0) == 0);
			CHILD_CHECK(hg_set_cpus(0, CPU0, 0) == 0);
			CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_ALLOW,
						   &null_rule, 1, 0) == 0);
			CHILD_CHECK(setpgid(0, b) == 0);
			_exit(0);
		}
		CHILD_CHECK(wait_exit(c) == 0);
		/* The owner lifts without no_new_privs. */
		CHILD_CHECK(hg_set_cpus(b, hg_possible_cpus(), 0) == 0);
		kill(b, SIGKILL);
		CHILD_CHECK(wait_exit(b) == 128 + SIGKILL);
		_exit(0);
	}
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
}

/* A child of ours leading a process group of its own, parked; or -1. */
static pid_t fork_group(void)
{
	pid_t g = fork();

	if (g == 0) {
		CHILD_CHECK(setpgid(0, 0) == 0);
		park();
	}
	if (g > 0 && !HG_POLL(getpgid(g) == g, HG_CHILD_MS))
		return -1;
	return g;
}

/*
 * A child of ours that runs @act when told through @cmd and reports what
 * it returns (0 or an errno, or a pid) through @res, then parks.
 */
static pid_t acting_child(int cmd[2], int res[2], int (*act)(pid_t),
			  pid_t arg)
{
	pid_t c = fork();
	int e;
	char ch;

	if (c)
		return c;
	if (read(cmd[0], &ch, 1) != 1)
		_exit(1);
	e = act(arg);
	if (write(res[1], &e, sizeof(e)) != sizeof(e))
		_exit(1);
	park();
}

static int act_setsid(pid_t unused)
{
	return setsid() < 0 ? errno : 0;
}

static int act_join(pid_t pgid)
{
	return setpgid(0, pgid) ? errno : 0;
}

/* Tell an acting_child() to act; its errno, or -1. */
static int act(int cmd[2], int res[2])
{
	int e;

	if (write(cmd[1], "x", 1) != 1 || read(res[0], &e, sizeof(e)) !=
	    sizeof(e))
		return -1;
	return e;
}

/*
 * What an administrator tightened binds the group's owner: user u, whose
 * group G root restricted, cannot lift it from another group of its own
 * (EPERM), nor the group X a member of G made by setsid(), nor shed it
 * by moving a member into its own group H with the same value, which it
 * could lift.  Root still can; what u tightened itself u may lift.
 */
TEST_F_TIMEOUT(hg, admin_restriction_binds_owner, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t u;

	shm->ready = 0;
	shm->step = 0;
	u = fork();
	ASSERT_LE(0, u);
	if (u == 0) {
		int xc[2], xr[2], yc[2], yr[2];
		unsigned long all = hg_possible_cpus();
		pid_t g, x, y, h;

		CHILD_CHECK(hg_become(1000) == 0);
		CHILD_CHECK(setsid() == getpid());
		/* So that u may restrict H, its own group, itself. */
		CHILD_CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
		CHILD_CHECK(pipe(xc) == 0 && pipe(xr) == 0);
		CHILD_CHECK(pipe(yc) == 0 && pipe(yr) == 0);
		g = fork_group();
		h = fork_group();
		CHILD_CHECK(g > 0 && h > 0);
		x = acting_child(xc, xr, act_setsid, 0);
		CHILD_CHECK(x >= 0);
		y = acting_child(yc, yr, act_join, h);
		CHILD_CHECK(y >= 0);
		CHILD_CHECK(setpgid(x, g) == 0 && setpgid(y, g) == 0);
		shm->pid[0] = g;
		shm->pid[1] = x;
		shm->pid[2] = h;
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);

		/* Root restricted G to CPU 0: u cannot lift it. */
		CHILD_CHECK(hg_get_cpus(g) == CPU0);
		CHILD_ERRNO(EPERM, hg_set_cpus(g, all, 0));
		CHILD_CHECK(hg_get_cpus(g) == CPU0);
		/* Nor a group made from G by setsid(). */
		CHILD_CHECK(act(xc, xr) == 0);
		CHILD_CHECK(getpgid(x) == x && hg_get_cpus(x) == CPU0);
		CHILD_ERRNO(EPERM, hg_set_cpus(x, all, 0));
		/* Nor move a member of G into H, restricted as much by u. */
		CHILD_CHECK(hg_set_cpus(h, CPU0, 0) == 0);
		CHILD_CHECK(act(yc, yr) == EPERM);
		CHILD_CHECK(getpgid(y) == g);
		/* What u tightened, u may lift. */
		CHILD_CHECK(hg_set_cpus(h, all, 0) == 0);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_cpus(shm->pid[0], CPU0, 0));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(u, HG_CHILD_MS));
	/* Root may lift both. */
	EXPECT_EQ(0, hg_set_cpus(shm->pid[1], hg_possible_cpus(), 0));
	EXPECT_EQ(0, hg_set_cpus(shm->pid[0], hg_possible_cpus(), 0));
	kill(-shm->pid[0], SIGKILL);
	kill(-shm->pid[1], SIGKILL);
	kill(-shm->pid[2], SIGKILL);
}

/*
 * Make a group in a new user and PID namespace: its pgid as we see it,
 * or -1 (never a pid of ours: init's).
 */
static int act_new_ns_group(pid_t unused)
{
	int p[2];
	pid_t w;
	char ch;

	if (pipe(p) || unshare(CLONE_NEWUSER | CLONE_NEWPID))
		return -1;
	w = fork();
	if (w < 0)
		return -1;
	if (w == 0) {
		ch = setsid() == 1 ? 'y' : 'n';
		if (write(p[1], &ch, 1) != 1)
			_exit(1);
		park();
	}
	if (read(p[0], &ch, 1) != 1 || ch != 'y')
		return -1;
	return w;
}

/*
 * An administrator's mark outlives the ways a user could make the group
 * its own: a group made from a marked group inside a new user and PID
 * namespace of the user's (where it has CAP_SYS_ADMIN) keeps the mark of
 * the initial namespace, and a group a user makes from a group it does
 * not own (root's, restricted by root) is marked where the other is
 * restricted; the user lifts neither (EPERM).  An administrator who
 * lifts a kind to no restriction (a thaw) gives it back to the owner.
 * G: the user's group (g, z); R: root's group (r, j), J: made by j's child;
 * K: the user's, in a user and PID namespace of its own, restricted by
 * root (marked in the initial namespace, not K's); H2: the user's, made
 * from R before R was restricted, which a member of R may not join.
 */
TEST_F_TIMEOUT(hg, admin_mark_outlives_namespaces_and_ownership, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t u;

	shm->ready = 0;
	shm->step = 0;
	u = fork();
	ASSERT_LE(0, u);
	if (u == 0) {
		int zc[2], zr[2], jc[2], jr[2], hc[2], hr[2], kc[2], kr[2];
		unsigned long all = hg_possible_cpus();
		pid_t g, z, j, w, r, k;

		shm->pid[2] = 0;
		CHILD_CHECK(pipe(hc) == 0 && pipe(hr) == 0);
		CHILD_CHECK(pipe(kc) == 0 && pipe(kr) == 0);

		/* r: a group root owns, with a uid 1000 member j. */
		CHILD_CHECK(pipe(zc) == 0 && pipe(zr) == 0);
		CHILD_CHECK(pipe(jc) == 0 && pipe(jr) == 0);
		r = fork_group();
		CHILD_CHECK(r > 0);
		j = fork();
		CHILD_CHECK(j >= 0);
		if (j == 0) {
			pid_t h2;

			CHILD_CHECK(setpgid(0, r) == 0);
			CHILD_CHECK(hg_become(1000) == 0);
			CHILD_CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
			/* H2: the user's, made from R before root restricts R. */
			h2 = fork_group();
			CHILD_CHECK(h2 > 0);
			shm->pid[4] = h2;
			CHILD_CHECK(acting_child(hc, hr, act_join, h2) > 0);
			shm->pid[2] = acting_child(jc, jr, act_join, 0);
			park();
		}
		CHILD_CHECK(HG_POLL(shm->pid[2] > 0, HG_CHILD_MS));
		CHILD_CHECK(hg_become(1000) == 0);
		CHILD_CHECK(setsid() == getpid());
		/* So that u may restrict G, its own group, at the end. */
		CHILD_CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
		g = fork_group();
		CHILD_CHECK(g > 0);
		z = acting_child(zc, zr, act_new_ns_group, 0);
		CHILD_CHECK(z >= 0);
		CHILD_CHECK(setpgid(z, g) == 0);
		/* K: a group of the user's in a namespace of its own. */
		k = acting_child(kc, kr, act_new_ns_group, 0);
		CHILD_CHECK(k > 0);
		shm->pid[3] = act(kc, kr);
		CHILD_CHECK(shm->pid[3] > 1 && getpgid(shm->pid[3]) == shm->pid[3]);
		shm->pid[0] = g;
		shm->pid[1] = r;
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);

		/* G, marked by root, copied into the user's own namespace. */
		w = act(zc, zr);
		CHILD_CHECK(w > 1 && getpgid(w) == w);
		CHILD_CHECK(hg_get_cpus(w) == CPU0);
		CHILD_ERRNO(EPERM, hg_set_cpus(w, all, 0));
		kill(-w, SIGKILL);
		/* K, in the user's namespace, marked by root directly. */
		CHILD_CHECK(hg_get_cpus(shm->pid[3]) == CPU0);
		CHILD_ERRNO(EPERM, hg_set_cpus(shm->pid[3], all, 0));
		/*
		 * H2, restricted as much as R by its owner: j's child in R
		 * may not move there (R binds it as root's, H2 as the user's).
		 */
		CHILD_CHECK(hg_set_cpus(shm->pid[4], CPU0, 0) == 0);
		CHILD_CHECK(act(hc, hr) == EPERM);

		/*
		 * j's child (uid 1000, in R) makes a group of its own, J:
		 * R's restriction comes along as root's.
		 */
		CHILD_CHECK(act(jc, jr) == 0);
		CHILD_CHECK(getpgid(shm->pid[2]) == shm->pid[2]);
		CHILD_CHECK(hg_get_cpus(shm->pid[2]) == CPU0);
		CHILD_ERRNO(EPERM, hg_set_cpus(shm->pid[2], all, 0));

		/* Root set and cleared G's freeze flag: u may do both now. */
		CHILD_CHECK(hg_set_freeze(g, HGROUP_FREEZE_NEW_PGRP, 0) == 0);
		CHILD_CHECK(hg_set_freeze(g, 0, 0) == 0);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_cpus(shm->pid[0], CPU0, 0));
	ASSERT_EQ(0, hg_set_cpus(shm->pid[1], CPU0, 0));
	ASSERT_EQ(0, hg_set_cpus(shm->pid[3], CPU0, 0));
	/* A freeze flag root sets and clears is the owner's again. */
	ASSERT_EQ(0, hg_set_freeze(shm->pid[0], HGROUP_FREEZE_NEW_PGRP, 0));
	ASSERT_EQ(0, hg_set_freeze(shm->pid[0], 0, 0));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(u, HG_CHILD_MS));
	/* Root may lift what the user could not. */
	EXPECT_EQ(0, hg_set_cpus(shm->pid[2], hg_possible_cpus(), 0));
	EXPECT_EQ(0, hg_set_cpus(shm->pid[3], hg_possible_cpus(), 0));
	for (int i = 0; i < 5; i++)
		if (shm->pid[i] > 1)
			kill(-shm->pid[i], SIGKILL);
}

/* A group leader with @n sleeping threads and no_new_privs. */
static void *sleep_thread(void *arg)
{
	park();
	return NULL;
}

/*
 * A process without no_new_privs joins a group by setpgid() while the
 * group's owner restricts it, over and over.  A change is checked under
 * RCU and made under tasklist_lock; a join between the two must be
 * checked again.  So either the change is refused (EPERM: the process
 * joined first) or the join is (EPERM: the group now admits only
 * no_new_privs), never both succeed, and the group is never missed
 * (ESRCH) while a process joins it.  Long device lists, compared rule by
 * rule, and 64 threads make the check long enough for joins to land in
 * it; the outcomes are printed.
 */
TEST_F_TIMEOUT(hg, restrict_races_setpgid_join, 300)
{
	static struct hgroup_dev_rule a[HGROUP_DEV_MAX_RULES];
	static struct hgroup_dev_rule b[HGROUP_DEV_MAX_RULES];
	struct hg_shm *shm = self->shm;
	int i, n = HGROUP_DEV_MAX_RULES;
	pid_t q;

	/* @b is @a backwards but for its last rule, which @a lacks. */
	for (i = 0; i < n - 1; i++) {
		a[i] = (struct hgroup_dev_rule) {
			.type = HGROUP_DEV_CHAR, .major = 1, .minor = 100 + i,
			.access = HGROUP_DEV_ACC_ALL,
		};
		b[n - 2 - i] = a[i];
	}
	b[n - 1] = (struct hgroup_dev_rule) {
		.type = HGROUP_DEV_CHAR, .major = 1, .minor = 3,
		.access = HGROUP_DEV_ACC_ALL,
	};
	q = fork();
	ASSERT_LE(0, q);
	if (q == 0) {
		int iter, both = 0, first = 0, refused = 0;

		for (iter = 0; iter < 150; iter++) {
			pid_t p, x, r;
			int joined, st;

			shm->ready = 0;
			shm->step = 0;
			shm->ret[0] = 0;
			p = fork();
			CHILD_CHECK(p >= 0);
			if (p == 0) {
				pthread_t t;

				CHILD_CHECK(hg_become(1000) == 0);
				CHILD_CHECK(setsid() == getpid());
				x = fork();
				CHILD_CHECK(x >= 0);
				if (x == 0) {
					CHILD_CHECK(setpgid(0, 0) == 0);
					shm->pid[0] = getpid();
					shm->ready++;
					CHILD_CHECK(hg_wait_step(shm, 1) == 0);
					usleep(rand() % 4000);
					if (!setpgid(0, getppid()))
						shm->ret[0] = 1;
					park();
				}
				CHILD_CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0,
						  0) == 0);
				for (i = 0; i < 64; i++)
					CHILD_CHECK(!pthread_create(&t, NULL,
								    sleep_thread,
								    NULL));
				shm->ready++;
				park();
			}
			CHILD_CHECK(HG_POLL(shm->ready == 2, HG_CHILD_MS));
			x = shm->pid[0];
			/* Root sets the first list: no no_new_privs rule. */
			CHILD_CHECK(hg_set_devices(p, HGROUP_DEV_POLICY_ALLOW,
						   a, n - 1, 0) == 0);
			r = fork();
			CHILD_CHECK(r >= 0);
			if (r == 0) {
				CHILD_CHECK(hg_become(1000) == 0);
				CHILD_CHECK(hg_wait_step(shm, 1) == 0);
				usleep(rand() % 2000);
				/* The errno as exit status: 0 or EPERM only. */
				if (!hg_set_devices(p, HGROUP_DEV_POLICY_ALLOW,
						    b, n, 0))
					_exit(0);
				_exit(errno);
			}
			hg_set_step(shm, 1);
			st = wait_exit(r);
			if (st != 0 && st != EPERM)
				fprintf(stderr, "# change: exit status %d\n", st);
			CHILD_CHECK(st == 0 || st == EPERM);
			/* Let the join try, then look. */
			CHILD_CHECK(HG_POLL(shm->ret[0] || !st, HG_CHILD_MS));
			hg_sleep_ms(5);
			joined = getpgid(x) == p;
			CHILD_CHECK(joined == shm->ret[0]);
			if (!st && joined)
				both++;
			else if (st)
				first++;
			else
				refused++;
			kill(x, SIGKILL);
			kill(p, SIGKILL);
			CHILD_CHECK(wait_exit(p) == 128 + SIGKILL);
		}
		printf("# joined first %d, join refused %d, both %d\n", first,
		       refused, both);
		CHILD_CHECK(both == 0);
		_exit(0);
	}
	EXPECT_EQ(0, hg_wait_exit_timeout(q, 4 * HG_CHILD_MS));
}

/*
 * A container's root (CAP_SYS_ADMIN in a user namespace that owns a PID
 * namespace) cannot restrict a host process that entered that PID
 * namespace and made a group there (EPERM), though the group's PID
 * namespace is its own: it could not signal that process either.  A
 * group of its own is fine.
 */
TEST_F_TIMEOUT(hg, userns_root_cannot_restrict_host_process, 90)
{
	struct hg_shm *shm = self->shm;
	char path[64];
	pid_t u, h;
	int fd, rc;

	shm->ready = 0;
	u = fork();
	ASSERT_LE(0, u);
	if (u == 0) {
		pid_t init;

		CHILD_CHECK(setsid() == getpid());
		if (unshare(CLONE_NEWUSER | CLONE_NEWPID))
			_exit(4);
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		init = fork();
		CHILD_CHECK(init >= 0);
		if (init == 0) {
			pid_t own;

			shm->pid[0] = getpid();
			hg_ready(shm);
			CHILD_CHECK(hg_wait_step(shm, 2) == 0);
			/* k, the host's process, is pid shm->pid[1] here. */
			CHILD_ERRNO(EPERM, hg_set_devices(shm->pid[1],
							  HGROUP_DEV_POLICY_DENY,
							  NULL, 0, 0));
			CHILD_ERRNO(EPERM, hg_set_freeze(shm->pid[1],
							 HGROUP_FREEZE_ALL, 0));
			own = fork();
			CHILD_CHECK(own >= 0);
			if (own == 0) {
				CHILD_CHECK(setsid() == getpid());
				park();
			}
			CHILD_CHECK(HG_POLL(getpgid(own) == own, HG_CHILD_MS));
			CHILD_CHECK(hg_set_devices(own, HGROUP_DEV_POLICY_DENY,
						   NULL, 0, 0) == 0);
			kill(own, SIGKILL);
			shm->ret[0] = 1;
			_exit(0);
		}
		_exit(hg_wait_exit_timeout(init, HG_CHILD_MS));
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1 || hg_proc_state(u) == 'Z',
			    HG_CHILD_MS));
	if (shm->ready != 1) {
		rc = hg_wait_exit_timeout(u, HG_CHILD_MS);
		if (rc == 4)
			SKIP(return, "no user and PID namespaces");
		ASSERT_EQ(0, rc);
	}
	snprintf(path, sizeof(path), "/proc/%d/uid_map", u);
	ASSERT_EQ(0, hg_write_file(path, "0 100000 1000"));
	snprintf(path, sizeof(path), "/proc/%d/setgroups", u);
	ASSERT_EQ(0, hg_write_file(path, "deny"));
	snprintf(path, sizeof(path), "/proc/%d/gid_map", u);
	ASSERT_EQ(0, hg_write_file(path, "0 100000 1000"));
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ready == 2, HG_CHILD_MS));

	/* The host's root enters the namespace; its child makes a group. */
	h = fork();
	ASSERT_LE(0, h);
	if (h == 0) {
		pid_t k;

		snprintf(path, sizeof(path), "/proc/%d/ns/pid_for_children",
			 u);
		fd = open(path, O_RDONLY);
		CHILD_CHECK(fd >= 0);
		CHILD_CHECK(setns(fd, CLONE_NEWPID) == 0);
		k = fork();
		CHILD_CHECK(k >= 0);
		if (k == 0) {
			CHILD_CHECK(setsid() == getpid());
			shm->pid[1] = getpid();
			park();
		}
		/* The namespace's init ends only once k is reaped. */
		_exit(wait_exit(k) == 128 + SIGKILL ? 0 : 1);
	}
	ASSERT_TRUE(HG_POLL(shm->pid[1] > 0, HG_CHILD_MS));
	hg_set_step(shm, 2);
	EXPECT_EQ(0, hg_wait_exit_timeout(u, HG_CHILD_MS));
	EXPECT_EQ(1, shm->ret[0]);
	EXPECT_EQ(0, hg_wait_exit_timeout(h, HG_CHILD_MS));
}

/* ---------------------------------------------------------------------- */
/* CPU and node sets beside cpusets                                        */
/* ---------------------------------------------------------------------- */

static unsigned long node_list(const char *which)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/node/%s", which);
	return hg_cpulist(path);
}

static int cg_write(const char *cg, const char *file, const char *s)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	return hg_write_file(path, s);
}

/* The cgroup of @pid, relative to the root ("/hgconfine/a"), or "". */
static const char *cg_of(pid_t pid)
{
	static char buf[256];
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return buf;
	if (fgets(buf, sizeof(buf), f) && !strncmp(buf, "0::", 3)) {
		memmove(buf, buf + 3, strlen(buf + 3) + 1);
		buf[strcspn(buf, "\n")] = '\0';
	}
	fclose(f);
	return buf;
}

static void cg_cleanup(void)
{
	static const char * const dirs[] = {
		CGDIR "/d/a", CGDIR "/d/b", CGDIR "/d/c", CGDIR "/d",
		CGDIR "/a", CGDIR "/b", CGDIR "/c", CGDIR,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		HG_POLL(rmdir(dirs[i]) == 0 || errno == ENOENT, 2000);
}

/*
 * cgroup v2 with the cpuset controller, and under CGDIR: a (CPUs 0-1,
 * nodes as online), b (CPU 1 only) and, with two nodes, c (node 1 only).
 * 0, or 1 with the test skipped.
 */
static int cg_setup(struct __test_metadata *_metadata)
{
	char nodes[16];
	unsigned long online = node_list("online");

	if ((hg_online_cpus() & 3UL) != 3UL)
		SKIP(return 1, "needs CPUs 0 and 1 online");
	if (access(CG "/cgroup.controllers", F_OK) &&
	    mount("none", CG, "cgroup2", 0, NULL))
		SKIP(return 1, "no cgroup2 file system");
	if (cg_write(CG, "cgroup.subtree_control", "+cpuset"))
		SKIP(return 1, "no cpuset controller");
	cg_cleanup();
	snprintf(nodes, sizeof(nodes), "%s", online & 2UL ? "0-1" : "0");
	ASSERT_EQ(0, mkdir(CGDIR, 0755));
	ASSERT_EQ(0, cg_write(CGDIR, "cgroup.subtree_control", "+cpuset"));
	ASSERT_EQ(0, mkdir(CGDIR "/a", 0755));
	ASSERT_EQ(0, cg_write(CGDIR "/a", "cpuset.cpus", "0-1"));
	ASSERT_EQ(0, cg_write(CGDIR "/a", "cpuset.mems", nodes));
	ASSERT_EQ(0, mkdir(CGDIR "/b", 0755));
	ASSERT_EQ(0, cg_write(CGDIR "/b", "cpuset.cpus", "1"));
	ASSERT_EQ(0, cg_write(CGDIR "/b", "cpuset.mems", nodes));
	if (online & 2UL) {
		ASSERT_EQ(0, mkdir(CGDIR "/c", 0755));
		ASSERT_EQ(0, cg_write(CGDIR "/c", "cpuset.cpus", "0-1"));
		ASSERT_EQ(0, cg_write(CGDIR "/c", "cpuset.mems", "1"));
	}
	return 0;
}

/* The Mems_allowed of @pid from /proc as a bitmap, 0 if unreadable. */
static unsigned long task_mems(pid_t pid)
{
	char path[64], line[256];
	unsigned long bits = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Mems_allowed_list:", 18))
			bits = hg_list_bits(line + 18);
	fclose(f);
	return bits;
}

/*
 * Start a child in its own process group and in cgroup @cg, with its
 * group's CPU set @cpus (0: none) and node set @mems (0: none) applied.
 * Returns its pid, or -1.
 */
static pid_t start_in_cgroup(struct hg_shm *shm, const char *cg,
			     unsigned long cpus, unsigned long mems)
{
	char self[32];
	pid_t a;

	shm->ready = 0;
	a = fork();
	if (a < 0)
		return -1;
	if (a == 0) {
		snprintf(self, sizeof(self), "%d", getpid());
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(cg_write(cg, "cgroup.procs", self) == 0);
		hg_ready(shm);
		park();
	}
	if (!HG_POLL(shm->ready == 1, HG_CHILD_MS))
		return -1;
	if (cpus && (hg_set_cpus(a, cpus, 0) ||
		     !HG_POLL(hg_affinity(a) == cpus, HG_SETTLE_MS)))
		return -1;
	if (mems && (hg_set_mask(a, HGROUP_ATTR_MEMS, mems, 0) ||
		     !HG_POLL(task_mems(a) == mems, HG_SETTLE_MS)))
		return -1;
	return a;
}

/*
 * A process whose group may use CPU 0 only cannot be moved into a cpuset
 * of CPU 1 only (it used to get CPU 1), nor, with node 0 only, into a
 * cpuset of node 1: ENOSPC, and nothing changes.  A move within what the
 * set allows works.
 */
TEST_F_TIMEOUT(hg, cpuset_move_refused, 120)
{
	struct hg_shm *shm = self->shm;
	unsigned long online = node_list("online");
	char pid[32];
	pid_t a;

	if (cg_setup(_metadata))
		return;
	a = start_in_cgroup(shm, CGDIR "/a", CPU0, online & 2UL ? 1UL : 0);
	ASSERT_LT(0, a);
	snprintf(pid, sizeof(pid), "%d", a);

	EXPECT_ERRNO(ENOSPC, cg_write(CGDIR "/b", "cgroup.procs", pid));
	EXPECT_STREQ("/hgconfine/a", cg_of(a));
	hg_sleep_ms(HG_QUIET_MS);
	EXPECT_EQ(CPU0, hg_affinity(a));
	if (online & 2UL) {
		EXPECT_ERRNO(ENOSPC, cg_write(CGDIR "/c", "cgroup.procs",
					      pid));
		EXPECT_STREQ("/hgconfine/a", cg_of(a));
		EXPECT_EQ(1UL, task_mems(a));
	}
	/* Back to the root cpuset: allowed, and the set still binds. */
	EXPECT_EQ(0, cg_write(CG, "cgroup.procs", pid));
	EXPECT_STREQ("/", cg_of(a));
	EXPECT_EQ(CPU0, hg_affinity(a));
	if (online & 2UL)
		EXPECT_EQ(1UL, task_mems(a));
	/* Lifted, the move works. */
	ASSERT_EQ(0, hg_set_cpus(a, hg_possible_cpus(), 0));
	EXPECT_EQ(0, cg_write(CGDIR "/b", "cgroup.procs", pid));
	EXPECT_STREQ("/hgconfine/b", cg_of(a));
	EXPECT_TRUE(HG_POLL(hg_affinity(a) == CPU1, HG_SETTLE_MS));
	kill(a, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, hg_wait_exit_timeout(a, HG_CHILD_MS));
	cg_cleanup();
}

/*
 * The same escape by an unprivileged user with a delegated subtree: root
 * restricts the user's group to CPU 0, delegates d (CPUs 0-1) and starts
 * the user's process in d/a; the user makes d/b with CPU 1 only and
 * tries to move itself there.  It may move to a cpuset of its own that
 * meets the set (d/c); making that one disjoint from the set then puts
 * the cpuset's mask in force, never anything wider (the documented
 * price of never widening a cpuset).
 */
TEST_F_TIMEOUT(hg, cpuset_delegated_move_refused, 120)
{
	static const char * const owned[] = {
		CGDIR "/d", CGDIR "/d/cgroup.procs",
		CGDIR "/d/cgroup.subtree_control", CGDIR "/d/cgroup.threads",
	};
	struct hg_shm *shm = self->shm;
	unsigned int i;
	pid_t a;

	if (cg_setup(_metadata))
		return;
	ASSERT_EQ(0, mkdir(CGDIR "/d", 0755));
	ASSERT_EQ(0, cg_write(CGDIR "/d", "cpuset.cpus", "0-1"));
	ASSERT_EQ(0, cg_write(CGDIR "/d", "cgroup.subtree_control", "+cpuset"));
	ASSERT_EQ(0, mkdir(CGDIR "/d/a", 0755));
	for (i = 0; i < ARRAY_SIZE(owned); i++)
		ASSERT_EQ(0, chown(owned[i], 1000, 1000));

	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(cg_write(CGDIR "/d/a", "cgroup.procs", "0") == 0);
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(HG_POLL(hg_affinity(0) == CPU0, HG_SETTLE_MS));
		CHILD_CHECK(hg_become(1000) == 0);
		CHILD_CHECK(mkdir(CGDIR "/d/b", 0755) == 0);
		CHILD_CHECK(cg_write(CGDIR "/d/b", "cpuset.cpus", "1") == 0);
		CHILD_ERRNO(ENOSPC, cg_write(CGDIR "/d/b", "cgroup.procs",
					     "0"));
		CHILD_CHECK(!strcmp(cg_of(getpid()), "/hgconfine/d/a"));
		CHILD_CHECK(hg_affinity(0) == CPU0);
		CHILD_CHECK(mkdir(CGDIR "/d/c", 0755) == 0);
		CHILD_CHECK(cg_write(CGDIR "/d/c", "cgroup.procs", "0") == 0);
		CHILD_CHECK(cg_write(CGDIR "/d/c", "cpuset.cpus", "1") == 0);
		CHILD_CHECK(HG_POLL(hg_affinity(0) == CPU1, HG_SETTLE_MS));
		CHILD_ERRNO(EINVAL, hg_set_affinity(0, CPU0));
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	cg_cleanup();
}

/* clone3(CLONE_INTO_CGROUP) into a cpuset the set does not meet: ENOSPC. */
TEST_F_TIMEOUT(hg, cpuset_clone_into_cgroup_refused, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a;

	if (cg_setup(_metadata))
		return;
	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		struct clone_args args = {
			.flags = CLONE_INTO_CGROUP,
			.exit_signal = SIGCHLD,
		};
		int fd;
		long c;

		CHILD_CHECK(setsid() == getpid());
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(HG_POLL(hg_affinity(0) == CPU0, HG_SETTLE_MS));
		fd = open(CGDIR "/b", O_RDONLY | O_DIRECTORY);
		CHILD_CHECK(fd >= 0);
		args.cgroup = fd;
		CHILD_ERRNO(ENOSPC, syscall(__NR_clone3, &args, sizeof(args)));
		close(fd);
		/* Into a: allowed, and the child keeps the set. */
		fd = open(CGDIR "/a", O_RDONLY | O_DIRECTORY);
		CHILD_CHECK(fd >= 0);
		args.cgroup = fd;
		c = syscall(__NR_clone3, &args, sizeof(args));
		CHILD_CHECK(c >= 0);
		if (c == 0)
			_exit(hg_affinity(0) == CPU0 &&
			      !strcmp(cg_of(getpid()), "/hgconfine/a") ? 0 : 1);
		CHILD_CHECK(wait_exit(c) == 0);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	cg_cleanup();
}

/*
 * Writing the cpuset's masks again resets every task's masks: the
 * group's sets stay in force (they used to be replaced by the cpuset's).
 * A set that does not meet the member's cpuset is refused with EINVAL.
 * Where the cpuset's owner makes the two disjoint, the cpuset's masks are
 * in force, never anything wider.
 */
TEST_F_TIMEOUT(hg, cpuset_update_keeps_group_sets, 120)
{
	struct hg_shm *shm = self->shm;
	unsigned long online = node_list("online");
	unsigned long mems = online & 2UL ? 1UL : 0;
	pid_t a;

	if (cg_setup(_metadata))
		return;
	a = start_in_cgroup(shm, CGDIR "/a", CPU0, mems);
	ASSERT_LT(0, a);

	ASSERT_EQ(0, cg_write(CGDIR "/a", "cpuset.cpus", "0-1"));
	if (mems)
		ASSERT_EQ(0, cg_write(CGDIR "/a", "cpuset.mems", "0-1"));
	hg_sleep_ms(HG_QUIET_MS);
	EXPECT_EQ(CPU0, hg_affinity(a));
	if (mems)
		EXPECT_EQ(1UL, task_mems(a));

	/* A set outside the member's cpuset: refused, nothing changed. */
	ASSERT_EQ(0, cg_write(CGDIR "/a", "cpuset.cpus", "0"));
	EXPECT_ERRNO(EINVAL, hg_set_cpus(a, CPU1, 0));
	EXPECT_EQ(CPU0, hg_get_cpus(a));
	EXPECT_EQ(CPU0, hg_affinity(a));
	if (mems) {
		ASSERT_EQ(0, cg_write(CGDIR "/a", "cpuset.mems", "0"));
		EXPECT_ERRNO(EINVAL, hg_set_mask(a, HGROUP_ATTR_MEMS, 2UL, 0));
		EXPECT_EQ(1UL, hg_get_mask(a, HGROUP_ATTR_MEMS));
	}

	/* sched_setaffinity() stays within the set too. */
	EXPECT_ERRNO(EINVAL, hg_set_affinity(a, CPU1));
	EXPECT_EQ(CPU0, hg_affinity(a));

	/* The cpuset's owner makes them disjoint: the cpuset's masks. */
	ASSERT_EQ(0, cg_write(CGDIR "/a", "cpuset.cpus", "1"));
	EXPECT_TRUE(HG_POLL(hg_affinity(a) == CPU1, HG_SETTLE_MS));
	EXPECT_ERRNO(EINVAL, hg_set_affinity(a, CPU0));
	if (mems) {
		ASSERT_EQ(0, cg_write(CGDIR "/a", "cpuset.mems", "1"));
		EXPECT_TRUE(HG_POLL(task_mems(a) == 2UL, HG_SETTLE_MS));
	}
	kill(a, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, hg_wait_exit_timeout(a, HG_CHILD_MS));
	cg_cleanup();
}

/*
 * A set that misses the cpuset of one member is refused, however many
 * threads the others have: a group of many threads is answered from the
 * cpusets first (hgroup_set_fits()), and only where one of them misses
 * the set are the threads looked at.  EINVAL, nothing changed.  Once that
 * member has exited, the same set is taken, though the cpuset that missed
 * it is still there.
 */
TEST_F_TIMEOUT(hg, cpus_outside_one_members_cpuset_refused, 120)
{
	struct hg_shm *shm = self->shm;
	unsigned long online = hg_online_cpus();
	char self_pid[32];
	pid_t p, c;
	int i;

	if (cg_setup(_metadata))
		return;
	shm->ready = 0;
	p = fork();
	ASSERT_LE(0, p);
	if (p == 0) {
		pthread_t t;

		CHILD_CHECK(setsid() == getpid());
		for (i = 0; i < 64; i++)
			CHILD_CHECK(!pthread_create(&t, NULL, sleep_thread,
						    NULL));
		c = fork();
		CHILD_CHECK(c >= 0);
		if (c == 0) {
			snprintf(self_pid, sizeof(self_pid), "%d", getpid());
			CHILD_CHECK(cg_write(CGDIR "/b", "cgroup.procs",
					     self_pid) == 0);
			shm->pid[0] = getpid();
			hg_ready(shm);
		}
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	c = shm->pid[0];
	ASSERT_EQ(p, getpgid(c));

	EXPECT_ERRNO(EINVAL, hg_set_cpus(p, CPU0, 0));
	hg_sleep_ms(HG_QUIET_MS);
	EXPECT_EQ(online, hg_affinity(p));
	EXPECT_EQ(CPU1, hg_affinity(c));

	/* Exited (not reaped), it no longer counts. */
	kill(c, SIGKILL);
	ASSERT_TRUE(HG_POLL(hg_proc_state(c) == 'Z', HG_CHILD_MS));
	EXPECT_EQ(0, hg_set_cpus(p, CPU0, 0));
	EXPECT_TRUE(HG_POLL(hg_affinity(p) == CPU0, HG_SETTLE_MS));
	kill(-p, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, hg_wait_exit_timeout(p, HG_CHILD_MS));
	cg_cleanup();
}

/* Fork children that stay, until step 2 or the slots are full. */
static void *forker_thread(void *arg)
{
	struct hg_shm *shm = arg;

	while (shm->step < 2 && shm->slot < HG_SLOTS - 8) {
		pid_t c = fork();

		if (c == 0) {
			hg_register_tid(shm);
			park();
		}
		if (c < 0)
			_exit(3);
		usleep(200);
	}
	park();
	return NULL;
}

/*
 * A process in a cpuset (not the root one: cpuset_fork() then copies the
 * creator's masks into the child after it is in its process group) forks
 * from two threads while its group's CPU set goes back and forth between
 * CPU 0 and both CPUs.  After the last change (CPU 0), every child, and
 * every child forked later, runs on CPU 0 only: none kept the masks of a
 * creator that had not been updated yet.  With @sleepers more threads,
 * each change asks the LSMs about them all between taking the group's
 * threads and making the change, so that many children are forked in
 * that window: those the changer did not take must be found then.
 */
static void fork_race(struct __test_metadata *_metadata, struct hg_shm *shm,
		      int sleepers, int max_changes)
{
	unsigned long all = hg_possible_cpus();
	int i, n, changes, wrong = 0;
	char self_pid[32];
	pid_t f;

	if (cg_setup(_metadata))
		return;
	shm->step = 0;
	shm->ready = 0;
	f = fork();
	ASSERT_LE(0, f);
	if (f == 0) {
		pthread_t t;

		snprintf(self_pid, sizeof(self_pid), "%d", getpid());
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(cg_write(CGDIR "/a", "cgroup.procs",
				     self_pid) == 0);
		/* The forks come from a process of its own, with a small mm. */
		if (sleepers && fork() == 0) {
			CHILD_CHECK(hg_wait_step(shm, 1) == 0);
			for (i = 0; i < 2; i++)
				CHILD_CHECK(!pthread_create(&t, NULL,
							    forker_thread,
							    shm));
			park();
		}
		for (i = 0; i < sleepers; i++)
			CHILD_CHECK(!pthread_create(&t, NULL, sleep_thread,
						    NULL));
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		for (i = 0; !sleepers && i < 2; i++)
			CHILD_CHECK(!pthread_create(&t, NULL, forker_thread,
						    shm));
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	hg_set_step(shm, 1);
	for (changes = 0; changes < max_changes && shm->slot < HG_SLOTS - 16;
	     changes++) {
		int from = shm->slot;

		ASSERT_EQ(0, hg_set_cpus(f, changes % 2 ? all : CPU0, 0))
			TH_LOG("change %d: %s", changes, strerror(errno));
		/*
		 * Every child that has reached user space by now was a
		 * member when the call returned: those since the call
		 * began are the ones forked while it ran.  A slot taken
		 * but not yet filled holds 0, which sched_getaffinity()
		 * would read as this process: the pid is read once.
		 */
		for (i = from; !(changes % 2) && i < shm->slot; i++) {
			pid_t c = shm->pid[i];
			unsigned long a = c ? hg_affinity(c) : CPU0;

			if (a != CPU0 && wrong++ < 5)
				TH_LOG("change %d, child %d: affinity %#lx",
				       changes, c, a);
		}
		usleep(300);
	}
	ASSERT_EQ(0, hg_set_cpus(f, CPU0, 0));
	hg_sleep_ms(50);
	hg_set_step(shm, 2);
	hg_sleep_ms(HG_QUIET_MS);
	n = shm->slot < HG_SLOTS ? shm->slot : HG_SLOTS;
	ASSERT_LT(10, n);
	for (i = 0; i < n; i++) {
		pid_t c = shm->pid[i];
		unsigned long a = c ? hg_affinity(c) : CPU0;

		if (a != CPU0 && wrong++ < 5)
			TH_LOG("child %d: affinity %#lx", c, a);
	}
	TH_LOG("%d children, %d changes", n, changes);
	EXPECT_EQ(0, wrong);
	EXPECT_EQ(CPU0, hg_affinity(f));
	kill(-f, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, hg_wait_exit_timeout(f, HG_CHILD_MS));
	hg_sleep_ms(HG_QUIET_MS);
	cg_cleanup();
}

TEST_F_TIMEOUT(hg, cpus_change_races_fork_in_cpuset, 180)
{
	fork_race(_metadata, self->shm, 0, 400);
}

TEST_F_TIMEOUT(hg, cpus_change_races_fork_while_lsms_asked, 240)
{
	fork_race(_metadata, self->shm, 1000, 200);
}

/*
 * Two groups of one domain with different node sets (every node, and
 * node 1), then one domain-scope CPU change: a process moving from the
 * first to the second by setpgid() must take node 1 (a generation shared
 * by the whole domain-scope change used to skip the push).
 */
TEST_F_TIMEOUT(hg, setpgid_after_domain_scope_change_takes_set, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t l;

	if ((node_list("online") & 3UL) != 3UL ||
	    (hg_online_cpus() & 3UL) != 3UL)
		SKIP(return, "needs nodes 0 and 1 and CPUs 0 and 1");
	shm->ready = 0;
	l = fork();
	ASSERT_LE(0, l);
	if (l == 0) {
		pid_t x, y;

		CHILD_CHECK(new_domain() == getpid());
		x = fork();
		CHILD_CHECK(x >= 0);
		if (x == 0) {
			CHILD_CHECK(setpgid(0, 0) == 0);
			hg_ready(shm);
			park();
		}
		y = fork();
		CHILD_CHECK(y >= 0);
		if (y == 0) {
			hg_ready(shm);
			CHILD_CHECK(hg_wait_step(shm, 1) == 0);
			CHILD_CHECK(setpgid(0, x) == 0);
			_exit(HG_POLL(task_mems(getpid()) == 2UL,
				      HG_SETTLE_MS) ? 0 : 1);
		}
		shm->pid[0] = x;
		shm->pid[1] = y;
		hg_ready(shm);
		CHILD_CHECK(wait_exit(y) == 0);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 3, HG_CHILD_MS));
	ASSERT_TRUE(HG_POLL(getpgid(shm->pid[0]) == shm->pid[0], HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_mask(shm->pid[0], HGROUP_ATTR_MEMS, 2UL, 0));
	ASSERT_EQ(3UL, task_mems(shm->pid[1]) & 3UL);
	ASSERT_TRUE(HG_POLL(task_mems(shm->pid[0]) == 2UL, HG_SETTLE_MS));
	ASSERT_EQ(0, hg_set_cpus(l, CPU0, HGROUP_SCOPE_DOMAIN));
	ASSERT_TRUE(HG_POLL(hg_affinity(shm->pid[1]) == CPU0, HG_SETTLE_MS));
	ASSERT_TRUE(HG_POLL(hg_affinity(shm->pid[0]) == CPU0, HG_SETTLE_MS));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(l, HG_CHILD_MS));
}

/*
 * setpgid() into a group whose CPU set does not meet the mover's cpuset
 * (CPU 1 only, the set CPU 0) is refused (EPERM): the set would not bind
 * there.  Into a group without a set it works.
 */
TEST_F_TIMEOUT(hg, setpgid_into_group_outside_cpuset_refused, 120)
{
	struct hg_shm *shm = self->shm;
	pid_t a;

	if (cg_setup(_metadata))
		return;
	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pid_t x, y;

		CHILD_CHECK(setsid() == getpid());
		x = fork_group_leader();
		shm->pid[0] = x;
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		y = fork();
		CHILD_CHECK(y >= 0);
		if (y == 0) {
			CHILD_CHECK(cg_write(CGDIR "/b", "cgroup.procs",
					     "0") == 0);
			CHILD_ERRNO(EPERM, setpgid(0, x));
			CHILD_CHECK(getpgrp() == getppid());
			CHILD_CHECK(hg_affinity(0) == CPU1);
			_exit(0);
		}
		CHILD_CHECK(wait_exit(y) == 0);
		kill(x, SIGKILL);
		CHILD_CHECK(wait_exit(x) == 128 + SIGKILL);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_cpus(shm->pid[0], CPU0, 0));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	cg_cleanup();
}

/* ---------------------------------------------------------------------- */
/* move_pages()                                                            */
/* ---------------------------------------------------------------------- */

/*
 * move_pages() of one's own page to a node outside the group's set but
 * inside the cpuset's: EACCES, as for a node outside the cpuset (it used
 * to fail with ENOMEM and a page allocation failure warning).  To a node
 * inside the set it works.
 */
TEST_F_TIMEOUT(hg, move_pages_outside_group_nodes, 90)
{
	struct hg_shm *shm = self->shm;
	pid_t a;

	if ((node_list("online") & 3UL) != 3UL)
		SKIP(return, "needs nodes 0 and 1");
	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		long psz = sysconf(_SC_PAGESIZE);
		char *p = mmap(NULL, psz, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		void *pages[1] = { p };
		int node[1] = { 1 }, status[1] = { -1 };

		CHILD_CHECK(p != MAP_FAILED);
		CHILD_CHECK(setsid() == getpid());
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(HG_POLL(task_mems(getpid()) == 1UL, HG_SETTLE_MS));
		p[0] = 1;
		CHILD_ERRNO(EACCES, syscall(__NR_move_pages, 0, 1, pages, node,
					    status, MPOL_MF_MOVE));
		node[0] = 0;
		CHILD_CHECK(syscall(__NR_move_pages, 0, 1, pages, node, status,
				    MPOL_MF_MOVE) == 0);
		CHILD_CHECK(status[0] == 0);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_mask(a, HGROUP_ATTR_MEMS, 1UL, 0));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
}

/* The node of the page at @p of the caller, or -errno. */
static int page_node(void *p)
{
	void *pages[1] = { p };
	int status[1] = { -1 };

	if (syscall(__NR_move_pages, 0, 1, pages, NULL, status, 0))
		return -errno;
	return status[0];
}

/*
 * A cpuset's memory migration moves a task's pages only to nodes of its
 * group's set too.  With the set node 1 and the cpuset nodes 0-1, a page
 * on node 1 stays there when cpuset.mems becomes 1-2 (cgroup v2 migrates:
 * node 1 maps to node 2, and it used to go there), while one left on
 * node 0 from before the set goes to node 1; and a page on node 1 stays
 * there when the task moves into another cpuset of nodes 1-2.  New pages
 * keep to node 1 throughout.
 */
TEST_F_TIMEOUT(hg, cpuset_migration_stays_in_group_nodes, 120)
{
	struct hg_shm *shm = self->shm;
	char pid[32];
	pid_t a;

	if ((node_list("has_memory") & 7UL) != 7UL)
		SKIP(return, "needs memory on nodes 0, 1 and 2");
	if (cg_setup(_metadata))
		return;
	ASSERT_EQ(0, mkdir(CGDIR "/d", 0755));
	ASSERT_EQ(0, cg_write(CGDIR "/d", "cpuset.cpus", "0-1"));
	ASSERT_EQ(0, cg_write(CGDIR "/d", "cpuset.mems", "1-2"));
	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		long psz = sysconf(_SC_PAGESIZE);
		char *p = mmap(NULL, 4 * psz, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		void *q[1] = { p + 3 * psz };
		int node0[1] = { 0 }, st[1] = { -1 };

		CHILD_CHECK(p != MAP_FAILED);
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(cg_write(CGDIR "/a", "cgroup.procs", "0") == 0);
		/* A page on node 0, left there when the set becomes node 1. */
		p[3 * psz] = 1;
		CHILD_CHECK(syscall(__NR_move_pages, 0, 1, q, node0, st,
				    MPOL_MF_MOVE) == 0 && st[0] == 0);
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(HG_POLL(task_mems(getpid()) == 2UL, HG_SETTLE_MS));
		p[0] = 1;
		shm->ret[0] = page_node(p);
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 2) == 0);
		p[psz] = 1;
		shm->ret[1] = page_node(p);
		shm->ret[2] = page_node(p + psz);
		shm->ret[5] = page_node(p + 3 * psz);
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 3) == 0);
		p[2 * psz] = 1;
		shm->ret[3] = page_node(p);
		shm->ret[4] = page_node(p + 2 * psz);
		_exit(task_mems(getpid()) == 2UL ? 0 : 1);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_mask(a, HGROUP_ATTR_MEMS, 2UL, 0));
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ready == 2, HG_CHILD_MS));
	ASSERT_EQ(1, shm->ret[0]);
	shm->ret[5] = -1;

	/* The cpuset's nodes change: a write migrates (flushed on return). */
	ASSERT_EQ(0, cg_write(CGDIR "/a", "cpuset.mems", "1-2"));
	EXPECT_EQ(2UL, task_mems(a));
	hg_set_step(shm, 2);
	ASSERT_TRUE(HG_POLL(shm->ready == 3, HG_CHILD_MS));
	EXPECT_EQ(1, shm->ret[1]);
	EXPECT_EQ(1, shm->ret[2]);
	/* The migration ran: the page on node 0 went to node 1. */
	EXPECT_EQ(1, shm->ret[5]);

	/* Back to nodes 0-1, then a move into d (nodes 1-2). */
	ASSERT_EQ(0, cg_write(CGDIR "/a", "cpuset.mems", "0-1"));
	snprintf(pid, sizeof(pid), "%d", a);
	ASSERT_EQ(0, cg_write(CGDIR "/d", "cgroup.procs", pid));
	EXPECT_EQ(2UL, task_mems(a));
	hg_set_step(shm, 3);
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	EXPECT_EQ(1, shm->ret[3]);
	EXPECT_EQ(1, shm->ret[4]);
	cg_cleanup();
}

/* ---------------------------------------------------------------------- */
/* LSMs                                                                    */
/* ---------------------------------------------------------------------- */

/*
 * Landlock's signal scoping: a sandboxed process cannot freeze a group
 * outside its sandbox (EPERM, as kill(SIGSTOP) fails), nor move a child
 * it started before the sandbox into a frozen group by setpgid(); it
 * freezes a group it started inside, and moves a child it started inside
 * into the frozen group.
 */
TEST_F_TIMEOUT(hg, landlock_scoped_process_cannot_freeze_outside, 90)
{
	struct hg_shm *shm = self->shm;
	struct landlock_ruleset_attr attr = {
		.scoped = LANDLOCK_SCOPE_SIGNAL,
	};
	long abi;
	pid_t r;

	abi = syscall(__NR_landlock_create_ruleset, NULL, 0,
		      LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 6)
		SKIP(return, "needs Landlock with signal scoping (ABI 6)");
	shm->ready = 0;
	r = fork();
	ASSERT_LE(0, r);
	if (r == 0) {
		pid_t out, frozen, c, in;
		int fd;

		CHILD_CHECK(setsid() == getpid());
		out = fork();
		CHILD_CHECK(out >= 0);
		if (out == 0) {
			CHILD_CHECK(setpgid(0, 0) == 0);
			park();
		}
		frozen = fork();
		CHILD_CHECK(frozen >= 0);
		if (frozen == 0) {
			CHILD_CHECK(setpgid(0, 0) == 0);
			park();
		}
		c = fork();
		CHILD_CHECK(c >= 0);
		if (c == 0)
			park();
		CHILD_CHECK(HG_POLL(getpgid(out) == out, HG_CHILD_MS));
		CHILD_CHECK(HG_POLL(getpgid(frozen) == frozen, HG_CHILD_MS));
		shm->pid[0] = frozen;
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		fd = syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr),
			     0);
		CHILD_CHECK(fd >= 0);
		CHILD_CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
		CHILD_CHECK(syscall(__NR_landlock_restrict_self, fd, 0) == 0);
		CHILD_ERRNO(EPERM, kill(out, SIGSTOP));
		CHILD_ERRNO(EPERM, hg_set_freeze(out, HGROUP_FREEZE_ALL, 0));
		CHILD_CHECK(hg_freeze_flags(out) == 0);
		CHILD_ERRNO(EPERM, setpgid(c, frozen));
		CHILD_CHECK(getpgid(c) == getpid());
		in = fork_group_leader();
		CHILD_CHECK(hg_set_freeze(in, HGROUP_FREEZE_ALL, 0) == 0);
		CHILD_CHECK(hg_wait_frozen(in, 1, HG_FREEZE_MS) == 0);
		CHILD_CHECK(hg_set_freeze(in, 0, 0) == 0);
		kill(in, SIGKILL);
		CHILD_CHECK(wait_exit(in) == 128 + SIGKILL);
		/* A child started inside may be moved into the frozen group. */
		in = fork();
		CHILD_CHECK(in >= 0);
		if (in == 0)
			park();
		CHILD_CHECK(setpgid(in, frozen) == 0);
		CHILD_CHECK(getpgid(in) == frozen);
		CHILD_CHECK(hg_wait_frozen(frozen, 1, HG_FREEZE_MS) == 0);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_freeze(shm->pid[0], HGROUP_FREEZE_ALL, 0));
	ASSERT_EQ(0, hg_wait_frozen(shm->pid[0], 1, HG_FREEZE_MS));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(r, HG_CHILD_MS));
}

#define SMACKFS		"/sys/fs/smackfs"

/* Drop CAP_MAC_OVERRIDE and CAP_MAC_ADMIN: Smack binds root then. */
static int drop_mac_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];
	__u32 bits = CAP_TO_MASK(CAP_MAC_OVERRIDE) | CAP_TO_MASK(CAP_MAC_ADMIN);

	if (syscall(__NR_capget, &h, d))
		return -1;
	d[CAP_TO_INDEX(CAP_MAC_ADMIN)].effective &= ~bits;
	d[CAP_TO_INDEX(CAP_MAC_ADMIN)].permitted &= ~bits;
	return syscall(__NR_capset, &h, d);
}

/*
 * Move the process between its session's group (shm->pid[1]) and
 * shm->pid[0]'s, while their values let it.
 */
static void *pgrp_hopper(void *arg)
{
	struct hg_shm *shm = arg;

	while (!shm->step) {
		setpgid(0, shm->pid[0]);
		setpgid(0, shm->pid[1]);
	}
	return NULL;
}

/* Wait, yielding, for *@v to reach @want; false after @ms. */
static bool spin_until(atomic_ulong *v, unsigned long want, long ms)
{
	long end = hg_now_ms() + ms;

	while (*v < want) {
		if (hg_now_ms() > end)
			return false;
		sched_yield();
	}
	return true;
}

/*
 * The LSMs are asked before a set or a freeze reaches a member, with the
 * hook of the call that would do the same to one process: Smack refuses
 * a subject write access to a task of another label, so a process
 * labelled "hgA" (root, without the MAC capabilities) gets EACCES for a
 * group labelled "_", as from sched_setaffinity() and kill(), when it
 * sets a CPU set or freezes, and nothing changes.  With the rule "hgA _
 * w" loaded, both work.
 */
TEST_F_TIMEOUT(hg, smack_refuses_set_and_freeze, 90)
{
	struct hg_shm *shm = self->shm;
	pid_t r;

	if ((hg_online_cpus() & 3UL) != 3UL)
		SKIP(return, "needs CPUs 0 and 1 online");
	if (access(SMACKFS "/load2", F_OK) &&
	    mount("smackfs", SMACKFS, "smackfs", 0, NULL))
		SKIP(return, "needs Smack (make test-debug has it)");
	ASSERT_EQ(0, hg_write_file(SMACKFS "/load2", "hgA _ -"));
	shm->ready = 0;
	r = fork();
	ASSERT_LE(0, r);
	if (r == 0) {
		cpu_set_t set;
		pid_t t;

		CHILD_CHECK(setsid() == getpid());
		t = fork_group_leader();
		shm->pid[0] = t;
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(hg_write_file("/proc/self/attr/smack/current",
					  "hgA") == 0);
		CHILD_CHECK(drop_mac_caps() == 0);
		CPU_ZERO(&set);
		CPU_SET(0, &set);
		CHILD_ERRNO(EACCES, sched_setaffinity(t, sizeof(set), &set));
		CHILD_ERRNO(EACCES, hg_set_cpus(t, CPU1, 0));
		CHILD_CHECK(hg_get_cpus(t) == CPU0);
		CHILD_ERRNO(EACCES, kill(t, SIGSTOP));
		CHILD_ERRNO(EACCES, hg_set_freeze(t, HGROUP_FREEZE_ALL, 0));
		CHILD_CHECK(hg_freeze_flags(t) == 0);
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 2) == 0);
		CHILD_CHECK(hg_set_cpus(t, CPU1, 0) == 0);
		CHILD_CHECK(HG_POLL(hg_affinity(t) == CPU1, HG_SETTLE_MS));
		CHILD_CHECK(hg_set_freeze(t, HGROUP_FREEZE_ALL, 0) == 0);
		CHILD_CHECK(hg_wait_frozen(t, 1, HG_FREEZE_MS) == 0);
		CHILD_CHECK(hg_set_freeze(t, 0, 0) == 0);
		kill(t, SIGKILL);
		CHILD_CHECK(wait_exit(t) == 128 + SIGKILL);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_cpus(shm->pid[0], CPU0, 0));
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ready == 2, HG_CHILD_MS));
	ASSERT_EQ(0, hg_write_file(SMACKFS "/load2", "hgA _ w"));
	hg_set_step(shm, 2);
	EXPECT_EQ(0, hg_wait_exit_timeout(r, HG_CHILD_MS));
	EXPECT_EQ(0, hg_write_file(SMACKFS "/load2", "hgA _ -"));
}

/*
 * A call about the caller's own group (pgid 0) stays about the group the
 * caller was in when it called.  Process W, labelled "hgA" (root without
 * the MAC capabilities), narrows its own group G, whose members are all
 * "hgA", from every CPU to CPU 0, while another of its threads moves it
 * between G and a group M whose member V is labelled "_" (a move allowed
 * while the two have the same set).  The LSM was asked about G's members
 * only, so the change must never reach M, which only EACCES may come
 * from.  Each round, the test (privileged) checks M and lifts both back.
 */
#define PGID_ZERO_ROUNDS	600

TEST_F_TIMEOUT(hg, smack_pgid_zero_stays_with_group, 240)
{
	struct hg_shm *shm = self->shm;
	unsigned long all = hg_possible_cpus();
	int round, reached = 0;
	pid_t r, g, m;

	if ((hg_online_cpus() & 3UL) != 3UL)
		SKIP(return, "needs CPUs 0 and 1 online");
	if (access(SMACKFS "/load2", F_OK) &&
	    mount("smackfs", SMACKFS, "smackfs", 0, NULL))
		SKIP(return, "needs Smack (make test-debug has it)");
	ASSERT_EQ(0, hg_write_file(SMACKFS "/load2", "hgA _ -"));
	shm->ready = 0;
	shm->step = 0;
	for (round = 0; round < 4; round++)
		shm->ctr[round] = 0;
	r = fork();
	ASSERT_LE(0, r);
	if (r == 0) {
		pthread_t th;
		pid_t v, w;

		CHILD_CHECK(setsid() == getpid());
		v = fork_group_leader();
		shm->pid[0] = v;
		shm->pid[1] = getpid();
		CHILD_CHECK(hg_write_file("/proc/self/attr/smack/current",
					  "hgA") == 0);
		w = fork();
		CHILD_CHECK(w >= 0);
		if (w == 0) {
			unsigned long last = 0;

			CHILD_CHECK(drop_mac_caps() == 0);
			CHILD_CHECK(!pthread_create(&th, NULL, pgrp_hopper,
						    shm));
			hg_ready(shm);
			while (last < PGID_ZERO_ROUNDS) {
				CHILD_CHECK(spin_until(&shm->ctr[0], last + 1,
						       HG_CHILD_MS));
				last = shm->ctr[0];
				if (!hg_set_cpus(0, CPU0, 0))
					shm->ctr[2]++;
				else if (errno == EACCES)
					shm->ctr[3]++;
				else
					CHILD_CHECK(!"only 0 or EACCES");
				shm->ctr[1] = last;
			}
			shm->step = 1;
			pthread_join(th, NULL);
			_exit(0);
		}
		CHILD_CHECK(wait_exit(w) == 0);
		kill(v, SIGKILL);
		CHILD_CHECK(wait_exit(v) == 128 + SIGKILL);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	g = shm->pid[1];
	m = shm->pid[0];
	for (round = 1; round <= PGID_ZERO_ROUNDS; round++) {
		shm->ctr[0] = round;
		ASSERT_TRUE(spin_until(&shm->ctr[1], round, HG_CHILD_MS));
		if (hg_get_cpus(m) != all && reached++ < 5)
			TH_LOG("round %d: M's set is %#lx", round,
			       hg_get_cpus(m));
		if (hg_get_cpus(g) != all)
			ASSERT_EQ(0, hg_set_cpus(g, all, 0));
		if (hg_get_cpus(m) != all)
			ASSERT_EQ(0, hg_set_cpus(m, all, 0));
	}
	TH_LOG("%lu changes made, %lu refused", (unsigned long)shm->ctr[2],
	       (unsigned long)shm->ctr[3]);
	EXPECT_EQ(0, reached);
	EXPECT_EQ(0, hg_wait_exit_timeout(r, HG_CHILD_MS));
	/* The call came from each group at least once. */
	EXPECT_LT(0, shm->ctr[2]);
	EXPECT_LT(0, shm->ctr[3]);
	EXPECT_EQ(0, hg_write_file(SMACKFS "/load2", "hgA _ -"));
}

/* ---------------------------------------------------------------------- */
/* io_uring                                                                */
/* ---------------------------------------------------------------------- */

/*
 * An SQPOLL thread bound (IORING_SETUP_SQ_AFF) to a CPU outside the
 * group's set: EINVAL, as for one outside the cpuset.  Within: allowed.
 */
TEST_F_TIMEOUT(hg, io_uring_sqpoll_cpu_outside_set, 90)
{
	struct hg_shm *shm = self->shm;
	struct io_uring_params p = { 0 };
	int fd;
	pid_t a;

	if ((hg_online_cpus() & 3UL) != 3UL)
		SKIP(return, "needs CPUs 0 and 1 online");
	if (access("/proc/sys/kernel/io_uring_disabled", F_OK))
		SKIP(return, "no io_uring (CONFIG_IO_URING)");
	fd = syscall(__NR_io_uring_setup, 1, &p);
	ASSERT_LE(0, fd);
	close(fd);
	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(HG_POLL(hg_affinity(0) == CPU0, HG_SETTLE_MS));
		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF;
		p.sq_thread_cpu = 1;
		CHILD_ERRNO(EINVAL, syscall(__NR_io_uring_setup, 1, &p));
		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF;
		p.sq_thread_cpu = 0;
		fd = syscall(__NR_io_uring_setup, 1, &p);
		CHILD_CHECK(fd >= 0);
		close(fd);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
}

/*
 * The tid of a thread of the calling process whose name starts with
 * @prefix ("iou-sqp-", "iou-wrk-") and that is not @other, 0 if none.
 */
static pid_t io_thread_tid(const char *prefix, pid_t other)
{
	char path[300], comm[32];
	struct dirent *e;
	pid_t tid = 0;
	DIR *d;

	d = opendir("/proc/self/task");
	if (!d)
		return 0;
	while (!tid && (e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] == '.' || atoi(e->d_name) == other)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) &&
		    !strncmp(comm, prefix, strlen(prefix)))
			tid = atoi(e->d_name);
		fclose(f);
	}
	closedir(d);
	return tid;
}

/*
 * An SQPOLL thread not bound to a CPU runs where its creator's group
 * allows, not on every online CPU (it used to set that affinity for
 * itself when it started, outside the set and the cpuset alike).
 */
TEST_F_TIMEOUT(hg, io_uring_sqpoll_thread_stays_in_set, 90)
{
	struct hg_shm *shm = self->shm;
	struct io_uring_params p = { 0 };
	int fd;
	pid_t a;

	if ((hg_online_cpus() & 3UL) != 3UL)
		SKIP(return, "needs CPUs 0 and 1 online");
	if (access("/proc/sys/kernel/io_uring_disabled", F_OK))
		SKIP(return, "no io_uring (CONFIG_IO_URING)");
	if (!access(SMACKFS, F_OK))
		SKIP(return, "Smack refuses SQPOLL without CAP_MAC_ADMIN");
	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pid_t tid = 0;

		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_become(1000) == 0);
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(HG_POLL(hg_affinity(0) == CPU0, HG_SETTLE_MS));
		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 10;
		fd = syscall(__NR_io_uring_setup, 1, &p);
		CHILD_CHECK(fd >= 0);
		CHILD_CHECK(HG_POLL((tid = io_thread_tid("iou-sqp-", 0)) > 0,
				    HG_CHILD_MS));
		/* Long enough for it to have set its affinity. */
		hg_sleep_ms(HG_QUIET_MS);
		if (hg_affinity(tid) != CPU0)
			fprintf(stderr, "# sqpoll %d: affinity %#lx\n", tid,
				hg_affinity(tid));
		CHILD_CHECK(hg_affinity(tid) == CPU0);
		close(fd);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
}

/* A ring of four entries, mapped once (IORING_FEAT_SINGLE_MMAP). */
struct ring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int ring_setup(struct ring *r)
{
	struct io_uring_params p = { 0 };
	size_t size, cq_size;
	char *m;

	r->fd = syscall(__NR_io_uring_setup, 4, &p);
	if (r->fd < 0 || !(p.features & IORING_FEAT_SINGLE_MMAP))
		return -1;
	size = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_size = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (cq_size > size)
		size = cq_size;
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		 r->fd, IORING_OFF_SQ_RING);
	r->sqes = mmap(NULL, p.sq_entries * sizeof(*r->sqes),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       r->fd, IORING_OFF_SQES);
	if (m == MAP_FAILED || r->sqes == MAP_FAILED)
		return -1;
	r->sq_tail = (unsigned int *)(m + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(m + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(m + p.sq_off.array);
	r->cq_head = (unsigned int *)(m + p.cq_off.head);
	r->cq_tail = (unsigned int *)(m + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(m + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(m + p.cq_off.cqes);
	return 0;
}

/* Submit an openat() of @path that goes to an io-wq worker. */
static int ring_openat_async(struct ring *r, const char *path, int flags)
{
	unsigned int tail = *r->sq_tail, i = tail & *r->sq_mask;
	struct io_uring_sqe *sqe = &r->sqes[i];

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_OPENAT;
	sqe->flags = IOSQE_ASYNC;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)path;
	sqe->open_flags = flags;
	r->sq_array[i] = i;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	return syscall(__NR_io_uring_enter, r->fd, 1, 0, 0, NULL, 0);
}

/* Take the completions there are, their results into @res (up to @max). */
static int ring_reap(struct ring *r, int *res, int max)
{
	unsigned int head = *r->cq_head;
	unsigned int tail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);
	int n = 0;

	for (; head != tail; head++)
		if (n < max)
			res[n++] = r->cqes[head & *r->cq_mask].res;
	__atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
	return n;
}

/*
 * An io-wq worker started after the group's CPU set was narrowed runs
 * within it (the io-wq gave every new worker the mask it read when the
 * ring was set up), and a worker blocked in a request when the set
 * changes is updated where it sleeps: its request is not interrupted
 * (it used to complete with EINTR).  The requests are openat()s of a
 * FIFO, which block in the worker until a writer comes.
 */
TEST_F_TIMEOUT(hg, io_uring_new_worker_stays_in_set, 90)
{
	struct hg_shm *shm = self->shm;
	char fifo[64];
	pid_t a;

	if ((hg_online_cpus() & 3UL) != 3UL)
		SKIP(return, "needs CPUs 0 and 1 online");
	if (access("/proc/sys/kernel/io_uring_disabled", F_OK))
		SKIP(return, "no io_uring (CONFIG_IO_URING)");
	snprintf(fifo, sizeof(fifo), "/tmp/hgconfine-fifo-%d", getpid());
	unlink(fifo);
	ASSERT_EQ(0, mkfifo(fifo, 0600));
	ASSERT_EQ(0, chown(fifo, 1000, 1000));
	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pid_t w1 = 0, w2 = 0;
		struct ring r;
		int res[4], n = 0, wfd;

		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_become(1000) == 0);
		CHILD_CHECK(ring_setup(&r) == 0);
		CHILD_CHECK(ring_openat_async(&r, fifo, O_RDONLY) == 1);
		CHILD_CHECK(HG_POLL((w1 = io_thread_tid("iou-wrk-", 0)) > 0,
				    HG_CHILD_MS));
		CHILD_CHECK(hg_affinity(w1) == hg_affinity(0));
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(HG_POLL(hg_affinity(0) == CPU0, HG_SETTLE_MS));
		CHILD_CHECK(HG_POLL(hg_affinity(w1) == CPU0, HG_SETTLE_MS));
		hg_sleep_ms(HG_QUIET_MS);
		n = ring_reap(&r, res, 4);
		if (n)
			fprintf(stderr, "# openat completed early: %d\n", res[0]);
		CHILD_CHECK(n == 0);
		/* w1 is busy: the second request starts a worker. */
		CHILD_CHECK(ring_openat_async(&r, fifo, O_RDONLY) == 1);
		CHILD_CHECK(HG_POLL((w2 = io_thread_tid("iou-wrk-", w1)) > 0,
				    HG_CHILD_MS));
		if (!HG_POLL(hg_affinity(w2) == CPU0, HG_QUIET_MS))
			fprintf(stderr, "# new worker %d: affinity %#lx\n", w2,
				hg_affinity(w2));
		CHILD_CHECK(hg_affinity(w2) == CPU0);
		/* A writer lets both opens finish, with a file each. */
		wfd = open(fifo, O_WRONLY | O_NONBLOCK);
		CHILD_CHECK(wfd >= 0);
		CHILD_CHECK(HG_POLL((n += ring_reap(&r, res + n, 4 - n)) == 2,
				    HG_CHILD_MS));
		CHILD_CHECK(res[0] >= 0 && res[1] >= 0);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	unlink(fifo);
}

/* ---------------------------------------------------------------------- */
/* Block devices opened by number                                          */
/* ---------------------------------------------------------------------- */

/*
 * mount() opens its block device by number, past inode_permission():
 * with /dev/ram0 denied, mounting it fails with EPERM; allowed, it gets
 * as far as the (empty) device and fails with EINVAL.
 */
TEST_F_TIMEOUT(hg, mount_denied_block_device, 90)
{
	struct hg_shm *shm = self->shm;
	struct hgroup_dev_rule r = {
		.type = HGROUP_DEV_BLOCK,
		.access = HGROUP_DEV_READ | HGROUP_DEV_WRITE,
	};
	char dir[] = "/tmp/hgroup-mnt-XXXXXX";
	struct stat st;
	pid_t a;

	if (stat("/dev/ram0", &st) || !S_ISBLK(st.st_mode))
		SKIP(return, "no /dev/ram0 (CONFIG_BLK_DEV_RAM)");
	ASSERT_NE(NULL, mkdtemp(dir));
	errno = 0;
	if (mount("/dev/ram0", dir, "ext2", MS_RDONLY, NULL) == 0)
		umount(dir);
	if (errno == ENODEV) {
		rmdir(dir);
		SKIP(return, "no ext2 (CONFIG_EXT2_FS)");
	}
	ASSERT_EQ(EINVAL, errno);
	shm->ready = 0;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_ERRNO(EPERM, mount("/dev/ram0", dir, "ext2", MS_RDONLY,
					 NULL));
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	r.major = major(st.st_rdev);
	r.minor = minor(st.st_rdev);
	ASSERT_EQ(0, hg_set_devices(a, HGROUP_DEV_POLICY_ALLOW, &r, 1, 0));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	rmdir(dir);
}

TEST_HARNESS_MAIN
