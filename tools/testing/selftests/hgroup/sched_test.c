// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups selftests: scheduling groups (HGROUP_ATTR_SCHED).
 *
 * Shares of the CPU are measured as the CPU time each contender gets over
 * a few seconds (/proc/PID/stat, which counts every thread of a process),
 * all of them pinned to CPU 0 but in the SMP test; a contender is one
 * process, in a process group of its own, of N busy threads.  The bounds
 * are wide, for TCG.  The contenders run in a domain of their own, made
 * by a child of the test (the runner), and the test, outside it as a
 * manager would be, sets the domain's flags: a member of a domain cannot
 * clear its own domain's flags (that would be lifting itself).
 *
 * Also: bad arguments and their errnos (nothing changed), domain 0 (only
 * CAP_SYS_ADMIN in the initial user namespace), the permission rule
 * (clearing a flag is lifting, bounded by the domains above), a new domain
 * inheriting its parent's flags, and task groups freed after a storm of
 * forks, exits, setpgid(), setsid(), nice changes and flag flips.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "../kselftest_harness.h"
#include "hgroup_util.h"

#define PGRPS	HGROUP_SCHED_GROUP_PGRPS
#define DOMAINS	HGROUP_SCHED_GROUP_DOMAINS

#define MAX_CONT	8
#define WINDOW_MS	3000

struct sched_shm {
	double share[2][MAX_CONT];	/* two measurements */
	pid_t pids[MAX_CONT];
	int nr;
	int step;
	int go;				/* a second step, for budgets */
};

static long set_sched(pid_t pgid, unsigned int flags)
{
	struct hgroup_sched s = { .flags = flags };

	return sys_hgroup_set_attr(pgid, HGROUP_ATTR_SCHED, &s, sizeof(s),
				   HGROUP_SCOPE_DOMAIN);
}

static long get_sched(pid_t pgid)
{
	struct hgroup_sched s = { .__reserved = 0 };

	if (sys_hgroup_get_attr(pgid, HGROUP_ATTR_SCHED, &s, sizeof(s),
				HGROUP_SCOPE_DOMAIN))
		return -1;
	return s.flags;
}

/* Live task groups of hgroups, or -1. */
static long sched_objects(void)
{
	return hg_objects("sched");
}

/* Live CPU budgets of process groups, or -1. */
static long budget_objects(void)
{
	return hg_objects("cpu_budgets");
}

/* CPU time of every thread of @pid so far, in clock ticks; -1 if gone. */
static long proc_ticks(pid_t pid)
{
	unsigned long utime, stime;
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	p = strrchr(buf, ')');
	/* state ppid pgrp session tty tpgid flags 4 fault counts utime stime */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
			 &utime, &stime) != 2)
		return -1;
	return utime + stime;
}

/*
 * The share of the CPU time each of @n processes got over WINDOW_MS, after
 * half a second for the scheduler to settle: 0, or -1.
 */
static int measure(const pid_t *pids, int n, double *share)
{
	long t0[MAX_CONT], t, sum = 0;
	int i;

	hg_sleep_ms(500);
	for (i = 0; i < n; i++) {
		t0[i] = proc_ticks(pids[i]);
		if (t0[i] < 0)
			return -1;
	}
	hg_sleep_ms(WINDOW_MS);
	for (i = 0; i < n; i++) {
		t = proc_ticks(pids[i]);
		if (t < 0)
			return -1;
		t0[i] = t - t0[i];
		sum += t0[i];
	}
	if (sum <= 0)
		return -1;
	for (i = 0; i < n; i++)
		share[i] = (double)t0[i] / sum;
	return 0;
}

static void *spin(void *arg)
{
	for (;;)
		;
	return NULL;
}

/* How a contender leaves its creator's group. */
enum { SAME_PGRP, NEW_PGRP, NEW_SESSION };

/*
 * A process of @threads busy threads at nice @nice, pinned to CPU 0 if
 * @pin, in a process group (or session) of its own as @how says.
 */
static pid_t contender(int threads, int nice, int how, int pin)
{
	cpu_set_t cpus;
	pthread_t t;
	pid_t pid;
	int i;

	pid = fork();
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (how == NEW_PGRP)
		CHILD_CHECK(!setpgid(0, 0));
	else if (how == NEW_SESSION)
		CHILD_CHECK(setsid() > 0);
	if (pin) {
		CPU_ZERO(&cpus);
		CPU_SET(0, &cpus);
		CHILD_CHECK(!sched_setaffinity(0, sizeof(cpus), &cpus));
	}
	CHILD_CHECK(!setpriority(PRIO_PROCESS, 0, nice));
	for (i = 1; i < threads; i++)
		CHILD_CHECK(!pthread_create(&t, NULL, spin, NULL));
	spin(NULL);
	_exit(0);
}

static struct sched_shm *shm_new(void)
{
	void *p = mmap(NULL, sizeof(struct sched_shm), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int step_is(struct sched_shm *shm, int step)
{
	return __atomic_load_n(&shm->step, __ATOMIC_ACQUIRE) == step;
}

static void set_step(struct sched_shm *shm, int step)
{
	__atomic_store_n(&shm->step, step, __ATOMIC_RELEASE);
}

/*
 * A child that starts a domain of its own (its pid is the domain's, and
 * its process group's, id) and, once runner_go() tells it to, runs
 * @setup in it, to start contenders; then it waits to be killed, and its
 * contenders die with it.
 */
static pid_t domain_runner(void (*setup)(struct sched_shm *),
			   struct sched_shm *shm)
{
	pid_t pid;

	memset(shm, 0, sizeof(*shm));
	pid = fork();
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CHILD_CHECK(new_domain() > 0);
	set_step(shm, 1);
	while (!step_is(shm, 2))
		usleep(1000);
	if (setup)
		setup(shm);
	set_step(shm, 3);
	for (;;)
		pause();
}

/* Wait for the runner's domain; 0, or -1. */
static int runner_ready(struct sched_shm *shm)
{
	return HG_POLL(step_is(shm, 1), HG_CHILD_MS) ? 0 : -1;
}

/* Have the runner start its contenders; 0 once it has, or -1. */
static int runner_go(struct sched_shm *shm)
{
	set_step(shm, 2);
	return HG_POLL(step_is(shm, 3), HG_CHILD_MS) ? 0 : -1;
}

/*
 * Reap the test's children, orphans that came to it (a subreaper) too:
 * a zombie would keep its process group, and so its task group.
 */
static void reap_children(void)
{
	long end = hg_now_ms() + HG_CHILD_MS;
	pid_t pid;

	while (hg_now_ms() < end) {
		pid = waitpid(-1, NULL, WNOHANG);
		if (pid < 0 && errno == ECHILD)
			break;
		if (pid <= 0)
			hg_sleep_ms(10);
	}
}

/* Kill the runner; its contenders die with it and come to the test. */
static void runner_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	wait_exit(pid);
	reap_children();
}

/* The count of task groups once it holds still for half a second. */
static long settled_objects(void)
{
	long n = sched_objects(), m;
	int i, still = 0;

	for (i = 0; i < 200 && still < 5; i++) {
		hg_sleep_ms(100);
		m = sched_objects();
		still = m == n ? still + 1 : 0;
		n = m;
	}
	return n;
}

FIXTURE(sched) {
	struct sched_shm *shm;
	long objects;
	long budgets;
};

FIXTURE_SETUP(sched)
{
	self->shm = shm_new();
	ASSERT_NE(NULL, self->shm);
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	self->objects = settled_objects();
	self->budgets = budget_objects();
}

FIXTURE_TEARDOWN(sched)
{
	/* Every test leaves no task group of its own behind. */
	if (self->objects >= 0)
		EXPECT_TRUE(HG_POLL(sched_objects() == self->objects,
				    HG_SETTLE_MS))
			TH_LOG("task groups: %ld, %ld before the test",
			       sched_objects(), self->objects);
	/* Nor a CPU budget. */
	if (self->budgets >= 0)
		EXPECT_TRUE(HG_POLL(budget_objects() == self->budgets,
				    HG_SETTLE_MS))
			TH_LOG("CPU budgets: %ld, %ld before the test",
			       budget_objects(), self->budgets);
	munmap(self->shm, sizeof(*self->shm));
}

TEST_F(sched, bad_arguments)
{
	struct hgroup_sched s = { .flags = PGRPS };
	char big[64] = { 0 };
	pid_t dom;
	int bit;

	dom = domain_runner(NULL, self->shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(self->shm));
	EXPECT_EQ(0, get_sched(dom));
	for (bit = 2; bit < 32; bit++) {
		s.flags = 1U << bit;
		EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dom, HGROUP_ATTR_SCHED,
							 &s, sizeof(s),
							 HGROUP_SCOPE_DOMAIN));
	}
	s = (struct hgroup_sched) { .flags = PGRPS, .__reserved = 1 };
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dom, HGROUP_ATTR_SCHED, &s,
						 sizeof(s),
						 HGROUP_SCOPE_DOMAIN));
	s.__reserved = 0;
	/* A property of the domain: named with the domain scope only. */
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dom, HGROUP_ATTR_SCHED, &s,
						 sizeof(s), 0));
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(dom, HGROUP_ATTR_SCHED, &s,
						 sizeof(s), 0));
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dom, HGROUP_ATTR_SCHED, &s,
						 HGROUP_SCHED_SIZE_VER0 - 1,
						 HGROUP_SCOPE_DOMAIN));
	memcpy(big, &s, sizeof(s));
	big[sizeof(big) - 1] = 1;
	EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(dom, HGROUP_ATTR_SCHED, big,
						sizeof(big),
						HGROUP_SCOPE_DOMAIN));
	EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(dom, HGROUP_ATTR_SCHED,
						 (void *)1, sizeof(s),
						 HGROUP_SCOPE_DOMAIN));
	EXPECT_ERRNO(EFAULT, sys_hgroup_get_attr(dom, HGROUP_ATTR_SCHED,
						 (void *)1, sizeof(s),
						 HGROUP_SCOPE_DOMAIN));
	/* Nothing changed by any of them. */
	EXPECT_EQ(0, get_sched(dom));
	/* A larger structure with a zero tail is the same call. */
	big[sizeof(big) - 1] = 0;
	EXPECT_EQ(0, sys_hgroup_set_attr(dom, HGROUP_ATTR_SCHED, big,
					 sizeof(big), HGROUP_SCOPE_DOMAIN));
	EXPECT_EQ(PGRPS, get_sched(dom));
	EXPECT_EQ(0, set_sched(dom, PGRPS | DOMAINS));
	EXPECT_EQ(PGRPS | DOMAINS, get_sched(dom));
	/* The domain's parent (domain 0) has no flag: clearing is allowed. */
	EXPECT_EQ(0, set_sched(dom, 0));
	EXPECT_EQ(0, get_sched(dom));
	runner_stop(dom);
}

/*
 * Domain 0's flags: only CAP_SYS_ADMIN in the initial user namespace.
 * Setting PGRPS there makes a task group for every process group of the
 * system, clearing it frees them.
 */
TEST_F(sched, domain0_admin_only)
{
	long objects = self->objects;
	pid_t pid;

	ASSERT_EQ(0, get_sched(0));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		CHILD_CHECK(!hg_become(1000));
		CHILD_ERRNO(EPERM, set_sched(0, PGRPS));
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(pid));
	ASSERT_EQ(0, get_sched(0));

	ASSERT_EQ(0, set_sched(0, PGRPS));
	EXPECT_EQ(PGRPS, get_sched(0));
	if (objects >= 0)
		EXPECT_LT(objects, sched_objects());
	/* Every new domain starts with its parent's flags. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		CHILD_CHECK(new_domain() > 0);
		CHILD_CHECK(get_sched(0) == PGRPS);
		/* Its members cannot clear them: that would be lifting. */
		CHILD_ERRNO(EACCES, set_sched(0, 0));
		_exit(0);
	}
	EXPECT_EQ(0, wait_exit(pid));
	ASSERT_EQ(0, set_sched(0, 0));
	EXPECT_EQ(0, get_sched(0));
}

/*
 * One group of 8 busy threads against one of 1: grouped, half each; the
 * flag set while they run, and cleared again: then the lone thread gets
 * about a ninth.
 */
static void pgrps_setup(struct sched_shm *shm)
{
	shm->pids[0] = contender(8, 0, NEW_PGRP, 1);
	shm->pids[1] = contender(1, 0, NEW_PGRP, 1);
}

TEST_F_TIMEOUT(sched, pgrps_share_alike, 120)
{
	double *on = self->shm->share[0], *off = self->shm->share[1];
	pid_t dom = domain_runner(pgrps_setup, self->shm);

	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(self->shm));
	ASSERT_EQ(0, runner_go(self->shm));
	ASSERT_EQ(0, set_sched(dom, PGRPS));
	ASSERT_EQ(0, measure(self->shm->pids, 2, on));
	ASSERT_EQ(0, set_sched(dom, 0));
	ASSERT_EQ(0, measure(self->shm->pids, 2, off));
	runner_stop(dom);
	TH_LOG("8 threads against 1: grouped %.3f/%.3f, not %.3f/%.3f",
	       on[0], on[1], off[0], off[1]);
	EXPECT_LT(0.40, on[1]);
	EXPECT_GT(0.60, on[1]);
	EXPECT_GT(0.20, off[1]);
}

/*
 * nice across groups: a nice-0 and a nice-19 busy process, each alone in
 * its process group, grouped from their start (fork and setpgid() in a
 * grouped domain): the nice-0 one gets at least 90%.  The contrast, with
 * session autogroups (each in a session of its own, no hgroup grouping),
 * is printed: about half each, as the article says.
 */
static void nice_setup(struct sched_shm *shm)
{
	int how = shm->nr ? NEW_SESSION : NEW_PGRP;

	shm->pids[0] = contender(1, 0, how, 1);
	shm->pids[1] = contender(1, 19, how, 1);
}

TEST_F_TIMEOUT(sched, nice_works_across_groups, 120)
{
	double grouped[2], sessions[2];
	pid_t dom;

	dom = domain_runner(nice_setup, self->shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(self->shm));
	ASSERT_EQ(0, set_sched(dom, PGRPS));
	ASSERT_EQ(0, runner_go(self->shm));
	ASSERT_EQ(0, measure(self->shm->pids, 2, grouped));
	runner_stop(dom);

	dom = domain_runner(nice_setup, self->shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(self->shm));
	self->shm->nr = 1;
	ASSERT_EQ(0, runner_go(self->shm));
	ASSERT_EQ(0, measure(self->shm->pids, 2, sessions));
	runner_stop(dom);
	TH_LOG("nice 0 against nice 19: grouped %.3f/%.3f", grouped[0],
	       grouped[1]);
	TH_LOG("the same in two sessions (autogroup, if on): %.3f/%.3f",
	       sessions[0], sessions[1]);
	EXPECT_LE(0.90, grouped[0]);
}

/*
 * Domain grouping: two sub-domains of the runner's domain (each the
 * domain 0 of a PID namespace of its own), one with 4 busy process groups
 * and one with 1.  With HGROUP_SCHED_GROUP_DOMAINS each sub-domain is one
 * group: half each.  Without it, the five process groups share alike: a
 * fifth for the lone one.
 */
static pid_t sub_domain(int groups)
{
	pid_t pid;
	int i;

	pid = fork();
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CHILD_CHECK(!unshare(CLONE_NEWPID));
	pid = fork();
	if (pid)
		_exit(wait_exit(pid));
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CHILD_CHECK(new_domain() > 0);
	for (i = 0; i < groups; i++)
		CHILD_CHECK(contender(1, 0, NEW_PGRP, 1) > 0);
	for (;;)
		pause();
}

/* The children of @pid (one thread of each), into @out: how many, or -1. */
static int children_of(pid_t pid, pid_t *out, int max)
{
	char path[64], line[256], *tok, *save;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	for (tok = strtok_r(line, "\n ", &save); tok && n < max;
	     tok = strtok_r(NULL, "\n ", &save))
		out[n++] = atoi(tok);
	return n;
}

/* The contenders of the sub-domain whose outer process is @sub. */
static int sub_contenders(pid_t sub, pid_t *out, int want)
{
	pid_t init;

	if (!HG_POLL(children_of(sub, &init, 1) == 1 &&
		     children_of(init, out, want) == want, HG_SETTLE_MS))
		return -1;
	return 0;
}

static void domains_setup(struct sched_shm *shm)
{
	pid_t a = sub_domain(4), b = sub_domain(1);

	CHILD_CHECK(a > 0 && b > 0);
	CHILD_CHECK(!sub_contenders(a, shm->pids, 4));
	CHILD_CHECK(!sub_contenders(b, shm->pids + 4, 1));
}

TEST_F_TIMEOUT(sched, domains_share_alike, 120)
{
	double on[5], off[5];
	pid_t dom;

	dom = domain_runner(domains_setup, self->shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(self->shm));
	ASSERT_EQ(0, set_sched(dom, PGRPS | DOMAINS));
	ASSERT_EQ(0, runner_go(self->shm));
	ASSERT_EQ(0, measure(self->shm->pids, 5, on));
	/* Clearing DOMAINS is lifting: domain 0 above has no flag. */
	ASSERT_EQ(0, set_sched(dom, PGRPS));
	ASSERT_EQ(0, measure(self->shm->pids, 5, off));
	runner_stop(dom);
	TH_LOG("4 groups against 1 in two sub-domains: domain groups %.3f/%.3f, none %.3f (lone)",
	       on[0] + on[1] + on[2] + on[3], on[4], off[4]);
	EXPECT_LT(0.40, on[4]);
	EXPECT_GT(0.60, on[4]);
	EXPECT_LT(0.10, off[4]);
	EXPECT_GT(0.30, off[4]);
}

/*
 * SMP: on 2 CPUs, unpinned, a group of 3 busy threads against a group of
 * 1: each gets about half of the machine.
 */
static void smp_setup(struct sched_shm *shm)
{
	shm->pids[0] = contender(3, 0, NEW_PGRP, 0);
	shm->pids[1] = contender(1, 0, NEW_PGRP, 0);
}

TEST_F_TIMEOUT(sched, smp_groups_share_machine, 120)
{
	double s[2];
	pid_t dom;

	if (hg_online_cpus() != 3)
		SKIP(return, "needs exactly CPUs 0 and 1 online");
	dom = domain_runner(smp_setup, self->shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(self->shm));
	ASSERT_EQ(0, set_sched(dom, PGRPS));
	ASSERT_EQ(0, runner_go(self->shm));
	ASSERT_EQ(0, measure(self->shm->pids, 2, s));
	runner_stop(dom);
	TH_LOG("3 threads against 1 on 2 CPUs, grouped: %.3f/%.3f", s[0], s[1]);
	EXPECT_LT(0.40, s[1]);
	EXPECT_GT(0.60, s[1]);
}

/*
 * Clearing a flag is lifting: a member cannot clear its own domain's
 * flags, and nobody clears a domain's beyond what the domains above it
 * have.  A sub-domain (in a PID namespace) inherits its parent's flags,
 * and cannot clear them; root outside cannot either while the parent
 * has them, and can once the parent's are cleared.  Another user may not
 * change the domain at all.
 */
static void lift_setup(struct sched_shm *shm)
{
	pid_t sub;

	CHILD_ERRNO(EACCES, set_sched(0, PGRPS));
	/* Setting what it has is no lift. */
	CHILD_CHECK(!set_sched(0, PGRPS | DOMAINS));
	sub = fork();
	CHILD_CHECK(sub >= 0);
	if (!sub) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		CHILD_CHECK(!unshare(CLONE_NEWPID));
		sub = fork();
		if (sub)
			_exit(wait_exit(sub));
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		CHILD_CHECK(new_domain() > 0);
		CHILD_CHECK(get_sched(0) == (PGRPS | DOMAINS));
		CHILD_ERRNO(EACCES, set_sched(0, PGRPS));
		CHILD_ERRNO(EACCES, set_sched(0, 0));
		__atomic_store_n(&shm->nr, 1, __ATOMIC_RELEASE);
		for (;;)
			pause();
	}
	/* The sub-domain's leader, its init, as seen from here. */
	CHILD_CHECK(HG_POLL(children_of(sub, shm->pids, 1) == 1,
			    HG_SETTLE_MS));
	CHILD_CHECK(HG_POLL(__atomic_load_n(&shm->nr, __ATOMIC_ACQUIRE) == 1,
			    HG_SETTLE_MS));
}

TEST_F(sched, clearing_is_lifting)
{
	pid_t dom, sub, pid;

	dom = domain_runner(lift_setup, self->shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(self->shm));
	ASSERT_EQ(0, set_sched(dom, PGRPS | DOMAINS));
	ASSERT_EQ(0, runner_go(self->shm));
	sub = self->shm->pids[0];
	ASSERT_LT(0, sub);
	EXPECT_EQ(PGRPS | DOMAINS, get_sched(sub));
	/* Bounded by the domain above it. */
	EXPECT_ERRNO(EACCES, set_sched(sub, 0));
	EXPECT_EQ(PGRPS | DOMAINS, get_sched(sub));

	/* Another user: not the owner, no capability. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		CHILD_CHECK(!hg_become(1001));
		CHILD_ERRNO(EPERM, set_sched(dom, PGRPS));
		CHILD_ERRNO(EPERM, set_sched(dom, 0));
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(pid));
	EXPECT_EQ(PGRPS | DOMAINS, get_sched(dom));

	EXPECT_EQ(0, set_sched(dom, 0));
	EXPECT_EQ(0, set_sched(sub, 0));
	EXPECT_EQ(0, get_sched(sub));
	runner_stop(dom);
}

/*
 * The owner of a domain needs no privilege: uid 1000 starts a domain and,
 * from outside it, sets and clears its flags.
 */
TEST_F(sched, owner_needs_no_privilege)
{
	struct sched_shm *shm = self->shm;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		pid_t dom;

		CHILD_CHECK(!hg_become(1000));
		dom = domain_runner(NULL, shm);
		CHILD_CHECK(dom > 0);
		CHILD_CHECK(!runner_ready(shm));
		CHILD_CHECK(!set_sched(dom, PGRPS | DOMAINS));
		CHILD_CHECK(get_sched(dom) == (PGRPS | DOMAINS));
		CHILD_CHECK(!set_sched(dom, 0));
		CHILD_CHECK(get_sched(dom) == 0);
		runner_stop(dom);
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(pid));
}

static long set_cpu_flags(pid_t pgid, __u32 weight, __u64 quota,
			  __u64 period, unsigned int flags)
{
	struct hgroup_cpu c = {
		.weight_max = weight, .quota_us = quota, .period_us = period,
	};

	return sys_hgroup_set_attr(pgid, HGROUP_ATTR_CPU, &c, sizeof(c),
				   flags);
}

/* A process group's CPU budget (HGROUP_ATTR_CPU without the scope). */
static long set_pcpu(pid_t pgid, __u32 weight, __u64 quota, __u64 period)
{
	return set_cpu_flags(pgid, weight, quota, period, 0);
}

static long get_pcpu(pid_t pgid, struct hgroup_cpu *c)
{
	memset(c, 0, sizeof(*c));
	return sys_hgroup_get_attr(pgid, HGROUP_ATTR_CPU, c, sizeof(*c), 0);
}

/*
 * A storm: processes forking, exiting, changing nice, moving between
 * process groups (also while a second thread execs) and making sessions,
 * tightening their process groups' CPU budgets, and a sub-domain, while
 * the test flips the domain's flags and the budget of the group they all
 * come from.  Afterwards every task group is freed (the
 * teardown checks the count) and no task is left in one (a debug kernel
 * would report a use after free).
 */
static void *exec_true(void *arg)
{
	usleep((long)arg);
	execl("/bin/true", "true", (char *)NULL);
	return NULL;
}

static void storm_worker(int seed)
{
	pid_t kids[4] = { 0 };
	int i = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	srand(seed);
	for (;;) {
		pid_t pid;

		switch (rand() % 7) {
		case 0:
			pid = fork();
			if (!pid) {
				if (rand() % 2)
					setpgid(0, 0);
				else
					setsid();
				setpriority(PRIO_PROCESS, 0, rand() % 20);
				usleep(rand() % 3000);
				_exit(0);
			}
			if (kids[i % 4] > 0)
				wait_exit(kids[i % 4]);
			kids[i++ % 4] = pid;
			break;
		case 1:
			setpriority(PRIO_PROCESS, 0, rand() % 20);
			break;
		case 2:
			/* Into a child's group, if it made one. */
			pid = kids[rand() % 4];
			if (pid > 0)
				setpgid(0, getpgid(pid));
			break;
		case 3:
			setpgid(0, 0);
			break;
		case 4:
			/*
			 * setpgid() of a child whose second thread execs
			 * meanwhile, so that another thread leads it by the
			 * time the move finishes.
			 */
			pid = fork();
			if (!pid) {
				pthread_t th;

				setpgid(0, 0);
				pthread_create(&th, NULL, exec_true,
					       (void *)(long)(rand() % 500));
				for (;;)
					pause();
			}
			if (pid > 0) {
				usleep(rand() % 500);
				setpgid(pid, getpgrp());
				wait_exit(pid);
			}
			break;
		case 5:
			/* Quotas of 4 CPUs: they never throttle. */
			set_pcpu(0, 1 + rand() % 100,
				 rand() % 2 ? 400000 : HGROUP_CPU_UNLIMITED,
				 100000);
			break;
		default:
			usleep(100);
		}
	}
}

static void storm_setup(struct sched_shm *shm)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!fork())
			storm_worker(i + 1);
	CHILD_CHECK(sub_domain(2) > 0);
}

TEST_F_TIMEOUT(sched, storm_frees_every_group, 120)
{
	static const unsigned int flips[] = { PGRPS, PGRPS | DOMAINS, 0,
					      DOMAINS, PGRPS };
	long end;
	pid_t dom;
	int n = 0;

	dom = domain_runner(storm_setup, self->shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(self->shm));
	ASSERT_EQ(0, runner_go(self->shm));
	end = hg_now_ms() + 5000;
	while (hg_now_ms() < end) {
		ASSERT_EQ(0, set_sched(dom, flips[n % ARRAY_SIZE(flips)]));
		/* A budget, lifted, shared, left. */
		ASSERT_EQ(0, set_pcpu(dom, 50 + 50 * (n % 3),
				      n % 2 ? 400000 : HGROUP_CPU_UNLIMITED,
				      100000));
		n++;
		hg_sleep_ms(20);
	}
	runner_stop(dom);
	TH_LOG("%d flag and budget changes during the storm", n);
	EXPECT_LT(10, n);
}

/* CPU limits of a domain (HGROUP_ATTR_CPU). */
/* A domain's CPU limits. */
static long set_cpu(pid_t pgid, __u32 weight, __u64 quota, __u64 period)
{
	return set_cpu_flags(pgid, weight, quota, period, HGROUP_SCOPE_DOMAIN);
}

static long get_cpu(pid_t pgid, struct hgroup_cpu *c)
{
	memset(c, 0, sizeof(*c));
	return sys_hgroup_get_attr(pgid, HGROUP_ATTR_CPU, c, sizeof(*c),
				   HGROUP_SCOPE_DOMAIN);
}

#define UNLIM	HGROUP_CPU_UNLIMITED

/* The share of one CPU @n processes used together over WINDOW_MS. */
static double cpu_fraction(const pid_t *pids, int n)
{
	long t0 = 0, t1 = 0, t, ms0, hz = sysconf(_SC_CLK_TCK);
	int i;

	hg_sleep_ms(500);
	for (i = 0; i < n; i++) {
		t = proc_ticks(pids[i]);
		if (t < 0)
			return -1;
		t0 += t;
	}
	ms0 = hg_now_ms();
	hg_sleep_ms(WINDOW_MS);
	for (i = 0; i < n; i++) {
		t = proc_ticks(pids[i]);
		if (t < 0)
			return -1;
		t1 += t;
	}
	if (hz <= 0)
		return -1;
	return (double)(t1 - t0) * 1000 / hz / (hg_now_ms() - ms0);
}

TEST_F(sched, cpu_bad_arguments)
{
	struct hgroup_cpu c, big[2];
	pid_t dom, pid;

	dom = domain_runner(NULL, self->shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(self->shm));
	ASSERT_EQ(0, get_cpu(dom, &c));
	EXPECT_EQ(100, c.weight_max);
	EXPECT_EQ(UNLIM, c.quota_us);
	EXPECT_EQ(100000, c.period_us);
	EXPECT_EQ(0, c.usage_us);

	EXPECT_ERRNO(EINVAL, set_cpu(dom, 0, UNLIM, 100000));
	EXPECT_ERRNO(EINVAL, set_cpu(dom, 10001, UNLIM, 100000));
	EXPECT_ERRNO(EINVAL, set_cpu(dom, 100, UNLIM, 999));
	EXPECT_ERRNO(EINVAL, set_cpu(dom, 100, UNLIM, 1000001));
	EXPECT_ERRNO(EINVAL, set_cpu(dom, 100, 999, 100000));
	EXPECT_ERRNO(EINVAL, set_cpu(dom, 100, (1ULL << 40) + 1, 100000));
	c = (struct hgroup_cpu) { .weight_max = 100, .quota_us = UNLIM,
				  .period_us = 100000, .usage_us = 1 };
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dom, HGROUP_ATTR_CPU, &c,
						 sizeof(c),
						 HGROUP_SCOPE_DOMAIN));
	c.usage_us = 0;
	c.__reserved = 1;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dom, HGROUP_ATTR_CPU, &c,
						 sizeof(c),
						 HGROUP_SCOPE_DOMAIN));
	c.__reserved = 0;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dom, HGROUP_ATTR_CPU, &c,
						 sizeof(c), 2));
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dom, HGROUP_ATTR_CPU, &c,
						 HGROUP_CPU_SIZE_VER0 - 8,
						 HGROUP_SCOPE_DOMAIN));
	memset(big, 0, sizeof(big));
	big[0] = c;
	big[1].weight_max = 1;
	EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(dom, HGROUP_ATTR_CPU, big,
						sizeof(big),
						HGROUP_SCOPE_DOMAIN));
	/* Domain 0 has no limits to set. */
	EXPECT_ERRNO(EPERM, set_cpu(0, 100, 20000, 100000));
	ASSERT_EQ(0, get_cpu(0, &c));
	EXPECT_EQ(10000, c.weight_max);
	EXPECT_EQ(UNLIM, c.quota_us);
	/* Another user. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		CHILD_CHECK(!hg_become(1001));
		CHILD_ERRNO(EPERM, set_cpu(dom, 50, UNLIM, 100000));
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(pid));
	/* Nothing changed; and no task group for an unlimited domain. */
	ASSERT_EQ(0, get_cpu(dom, &c));
	EXPECT_EQ(100, c.weight_max);
	EXPECT_EQ(UNLIM, c.quota_us);
	EXPECT_EQ(self->objects, sched_objects());

	EXPECT_EQ(0, set_cpu(dom, 50, 20000, 50000));
	ASSERT_EQ(0, get_cpu(dom, &c));
	EXPECT_EQ(50, c.weight_max);
	EXPECT_EQ(20000, c.quota_us);
	EXPECT_EQ(50000, c.period_us);
	/* A limit makes the domain a group of its own. */
	EXPECT_EQ(self->objects + 1, sched_objects());
	EXPECT_EQ(0, set_cpu(dom, 100, UNLIM, 100000));
	runner_stop(dom);
}

/*
 * Two busy processes, in two process groups, of a domain with a quota of
 * 20% of a CPU use 20% together, and the statistics say the domain was
 * throttled; lifted, they use the CPU.  A member can lower its domain's
 * limit, not raise it.
 */
static void hog_setup(struct sched_shm *shm)
{
	shm->pids[0] = contender(1, 0, NEW_PGRP, 1);
	shm->pids[1] = contender(1, 0, NEW_PGRP, 1);
	/* Tightening its own domain is allowed, lifting it is not. */
	CHILD_CHECK(!set_cpu(0, 90, 20000, 100000));
	CHILD_ERRNO(EACCES, set_cpu(0, 100, 20000, 100000));
	CHILD_ERRNO(EACCES, set_cpu(0, 90, 30000, 100000));
	CHILD_ERRNO(EACCES, set_cpu(0, 90, 20000, 50000));
	CHILD_ERRNO(EACCES, set_cpu(0, 90, UNLIM, 100000));
}

TEST_F_TIMEOUT(sched, cpu_quota_caps_domain, 120)
{
	struct hgroup_cpu c;
	double capped, free;
	pid_t dom;

	dom = domain_runner(hog_setup, self->shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(self->shm));
	ASSERT_EQ(0, set_cpu(dom, 100, 20000, 100000));
	ASSERT_EQ(0, runner_go(self->shm));
	capped = cpu_fraction(self->shm->pids, 2);
	ASSERT_EQ(0, get_cpu(dom, &c));
	TH_LOG("quota 20%%: %.3f of a CPU; usage %llu us, %llu periods, %llu throttled, %llu us",
	       capped, c.usage_us, c.nr_periods, c.nr_throttled,
	       c.throttled_us);
	EXPECT_LT(0.15, capped);
	EXPECT_GT(0.25, capped);
	EXPECT_LE(25, c.nr_periods);
	EXPECT_LE(20, c.nr_throttled);
	EXPECT_LT(0, c.throttled_us);
	EXPECT_LT(500000, c.usage_us);
	ASSERT_EQ(0, set_cpu(dom, 100, UNLIM, 100000));
	free = cpu_fraction(self->shm->pids, 2);
	TH_LOG("lifted: %.3f of a CPU", free);
	EXPECT_LT(0.80, free);
	runner_stop(dom);
}

/*
 * Nested quotas: a sub-domain's quota and its parent's both hold, the
 * tighter wins, whichever it is; nobody gives a sub-domain more than its
 * parent has.
 */
static void nested_setup(struct sched_shm *shm)
{
	pid_t sub = sub_domain(1);

	CHILD_CHECK(sub > 0);
	/* The sub-domain's leader, its init, as seen from here. */
	CHILD_CHECK(HG_POLL(children_of(sub, shm->pids, 1) == 1,
			    HG_SETTLE_MS));
	CHILD_CHECK(!sub_contenders(sub, shm->pids + 1, 1));
}

TEST_F_TIMEOUT(sched, cpu_quota_tighter_wins, 120)
{
	double child_tighter, parent_tighter;
	pid_t dom, sub, hog;

	dom = domain_runner(nested_setup, self->shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(self->shm));
	ASSERT_EQ(0, runner_go(self->shm));
	sub = self->shm->pids[0];
	hog = self->shm->pids[1];
	ASSERT_EQ(0, set_cpu(sub, 100, 50000, 100000));
	ASSERT_EQ(0, set_cpu(dom, 100, 10000, 100000));
	parent_tighter = cpu_fraction(&hog, 1);
	/* More than the parent has: lifting beyond a domain above. */
	EXPECT_ERRNO(EACCES, set_cpu(sub, 100, UNLIM, 100000));
	ASSERT_EQ(0, set_cpu(dom, 100, 50000, 100000));
	ASSERT_EQ(0, set_cpu(sub, 100, 10000, 100000));
	child_tighter = cpu_fraction(&hog, 1);
	TH_LOG("parent 10%% over child 50%%: %.3f; child 10%% under parent 50%%: %.3f",
	       parent_tighter, child_tighter);
	EXPECT_LT(0.05, parent_tighter);
	EXPECT_GT(0.15, parent_tighter);
	EXPECT_LT(0.05, child_tighter);
	EXPECT_GT(0.15, child_tighter);
	runner_stop(dom);
}

/*
 * The weight bound: a domain of 4 busy process groups bounded at twice
 * one nice-0 task against a lone busy process: two thirds; at the
 * default bound, half.
 */
static void four_setup(struct sched_shm *shm)
{
	int i;

	for (i = 0; i < 4; i++)
		shm->pids[i] = contender(1, 0, NEW_PGRP, 1);
}

static void one_setup(struct sched_shm *shm)
{
	shm->pids[4] = contender(1, 0, NEW_PGRP, 1);
}

TEST_F_TIMEOUT(sched, cpu_weight_bound, 120)
{
	double s[5], twice, once;
	pid_t four, one;
	int i;

	four = domain_runner(four_setup, self->shm);
	ASSERT_LT(0, four);
	ASSERT_EQ(0, runner_ready(self->shm));
	ASSERT_EQ(0, set_cpu(four, 200, UNLIM, 100000));
	ASSERT_EQ(0, runner_go(self->shm));
	/* The lone process: in a domain of its own, no limit (autogroup). */
	one = fork();
	ASSERT_LE(0, one);
	if (!one) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		CHILD_CHECK(new_domain() > 0);
		one_setup(self->shm);
		for (;;)
			pause();
	}
	ASSERT_TRUE(HG_POLL(self->shm->pids[4] > 0, HG_SETTLE_MS));
	ASSERT_EQ(0, measure(self->shm->pids, 5, s));
	for (twice = 0, i = 0; i < 4; i++)
		twice += s[i];
	ASSERT_EQ(0, set_cpu(four, 100, UNLIM, 100000));
	ASSERT_EQ(0, measure(self->shm->pids, 5, s));
	for (once = 0, i = 0; i < 4; i++)
		once += s[i];
	TH_LOG("4 processes bounded at 200 against 1: %.3f; at 100: %.3f",
	       twice, once);
	EXPECT_LT(0.57, twice);
	EXPECT_GT(0.77, twice);
	EXPECT_LT(0.40, once);
	EXPECT_GT(0.60, once);
	/* Its contender comes to the test, which reaps it with the rest. */
	kill(one, SIGKILL);
	wait_exit(one);
	runner_stop(four);
}

/* Wait for @shm->go, set by the test; then go on. */
static void wait_go(struct sched_shm *shm)
{
	while (!__atomic_load_n(&shm->go, __ATOMIC_ACQUIRE))
		usleep(1000);
}

static void set_go(struct sched_shm *shm)
{
	__atomic_store_n(&shm->go, 1, __ATOMIC_RELEASE);
}

/* A child alone in a process group of its own, sleeping; its pid. */
static pid_t sleeper(void)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CHILD_CHECK(!setpgid(0, 0));
	for (;;)
		pause();
}

/*
 * A process group's CPU budget (HGROUP_ATTR_CPU without the scope): its
 * defaults are no budget; every bad argument is refused with its errno
 * and changes nothing; a budget is one task group, shown in the count;
 * the domain scope still names the domain's limits.
 */
TEST_F(sched, budget_bad_arguments)
{
	struct hgroup_cpu c, big[2];
	pid_t g, pid;

	g = sleeper();
	ASSERT_LT(0, g);
	ASSERT_TRUE(HG_POLL(getpgid(g) == g, HG_SETTLE_MS));
	ASSERT_EQ(0, get_pcpu(g, &c));
	EXPECT_EQ(10000, c.weight_max);
	EXPECT_EQ(UNLIM, c.quota_us);
	EXPECT_EQ(100000, c.period_us);
	EXPECT_EQ(0, c.usage_us);

	EXPECT_ERRNO(EINVAL, set_pcpu(g, 0, UNLIM, 100000));
	EXPECT_ERRNO(EINVAL, set_pcpu(g, 10001, UNLIM, 100000));
	EXPECT_ERRNO(EINVAL, set_pcpu(g, 100, UNLIM, 999));
	EXPECT_ERRNO(EINVAL, set_pcpu(g, 100, UNLIM, 1000001));
	EXPECT_ERRNO(EINVAL, set_pcpu(g, 100, 999, 100000));
	EXPECT_ERRNO(EINVAL, set_pcpu(g, 100, (1ULL << 40) + 1, 100000));
	EXPECT_ERRNO(EINVAL, set_cpu_flags(g, 100, 20000, 100000, 4));
	c = (struct hgroup_cpu) { .weight_max = 100, .quota_us = 20000,
				  .period_us = 100000, .throttled_us = 1 };
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_CPU, &c,
						 sizeof(c), 0));
	c.throttled_us = 0;
	c.__reserved = 1;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_CPU, &c,
						 sizeof(c), 0));
	c.__reserved = 0;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_CPU, &c,
						 HGROUP_CPU_SIZE_VER0 - 8, 0));
	memset(big, 0, sizeof(big));
	big[0] = c;
	big[1].weight_max = 1;
	EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(g, HGROUP_ATTR_CPU, big,
						sizeof(big), 0));
	EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(g, HGROUP_ATTR_CPU,
						 (void *)8, sizeof(c), 0));
	EXPECT_ERRNO(EFAULT, sys_hgroup_get_attr(g, HGROUP_ATTR_CPU,
						 (void *)8, sizeof(c), 0));
	EXPECT_ERRNO(ESRCH, set_pcpu(INT_MAX, 100, 20000, 100000));
	/* Another user. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		CHILD_CHECK(!hg_become(1001));
		CHILD_ERRNO(EPERM, set_pcpu(g, 50, UNLIM, 100000));
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(pid));
	/* Nothing changed, nothing made. */
	ASSERT_EQ(0, get_pcpu(g, &c));
	EXPECT_EQ(10000, c.weight_max);
	EXPECT_EQ(UNLIM, c.quota_us);
	EXPECT_EQ(self->objects, sched_objects());
	EXPECT_EQ(self->budgets, budget_objects());

	ASSERT_EQ(0, set_pcpu(g, 50, 20000, 50000));
	ASSERT_EQ(0, get_pcpu(g, &c));
	EXPECT_EQ(50, c.weight_max);
	EXPECT_EQ(20000, c.quota_us);
	EXPECT_EQ(50000, c.period_us);
	EXPECT_EQ(self->objects + 1, sched_objects());
	EXPECT_EQ(self->budgets + 1, budget_objects());
	/* The domain scope reads the domain's limits, not the group's. */
	ASSERT_EQ(0, get_cpu(g, &c));
	EXPECT_NE(50, c.weight_max);
	/* The defaults leave the budget. */
	ASSERT_EQ(0, set_pcpu(g, 10000, UNLIM, 100000));
	EXPECT_TRUE(HG_POLL(budget_objects() == self->budgets, HG_SETTLE_MS));
	kill(g, SIGKILL);
	wait_exit(g);
}

/*
 * A busy process in a process group with a budget of 20% of a CPU uses
 * 20%, and the group's statistics say it was throttled; lifted, the CPU.
 */
TEST_F_TIMEOUT(sched, budget_quota_caps_group, 120)
{
	struct hgroup_cpu c;
	double capped, free;
	pid_t hog;

	hog = contender(1, 0, NEW_PGRP, 1);
	ASSERT_LT(0, hog);
	ASSERT_TRUE(HG_POLL(getpgid(hog) == hog, HG_SETTLE_MS));
	ASSERT_EQ(0, set_pcpu(hog, 10000, 20000, 100000));
	capped = cpu_fraction(&hog, 1);
	ASSERT_EQ(0, get_pcpu(hog, &c));
	TH_LOG("budget 20%%: %.3f of a CPU; usage %llu us, %llu periods, %llu throttled",
	       capped, c.usage_us, c.nr_periods, c.nr_throttled);
	EXPECT_LT(0.15, capped);
	EXPECT_GT(0.25, capped);
	EXPECT_LE(20, c.nr_throttled);
	EXPECT_LT(0, c.throttled_us);
	EXPECT_LT(500000, c.usage_us);
	ASSERT_EQ(0, set_pcpu(hog, 10000, UNLIM, 100000));
	free = cpu_fraction(&hog, 1);
	TH_LOG("lifted: %.3f of a CPU", free);
	EXPECT_LT(0.80, free);
	kill(hog, SIGKILL);
	wait_exit(hog);
}

/*
 * What a process in a budget makes stays in it: busy processes in new
 * sessions, in a new process group and in a domain of its own (with two
 * process groups) use the budget's 20% together, not 20% each.  The
 * groups made share the one budget: tightening it through one of them
 * tightens it for all.
 */
static void escaper(struct sched_shm *shm)
{
	pid_t pid;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CHILD_CHECK(!setpgid(0, 0));
	shm->pids[7] = getpid();
	wait_go(shm);
	shm->pids[0] = contender(1, 0, NEW_SESSION, 1);
	shm->pids[1] = contender(1, 0, NEW_SESSION, 1);
	shm->pids[2] = contender(1, 0, NEW_PGRP, 1);
	pid = fork();
	CHILD_CHECK(pid >= 0);
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		CHILD_CHECK(new_domain() > 0);
		shm->pids[4] = contender(1, 0, NEW_PGRP, 1);
		shm->pids[5] = contender(1, 0, NEW_PGRP, 1);
		shm->pids[3] = getpid();
		for (;;)
			pause();
	}
	spin(NULL);
}

TEST_F_TIMEOUT(sched, budget_holds_what_is_made_from_it, 120)
{
	struct sched_shm *shm = self->shm;
	pid_t pids[6], esc;
	struct hgroup_cpu c;
	double sum;
	int i;

	memset(shm, 0, sizeof(*shm));
	esc = fork();
	ASSERT_LE(0, esc);
	if (!esc) {
		escaper(shm);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->pids[7] == esc && getpgid(esc) == esc,
			    HG_SETTLE_MS));
	ASSERT_EQ(0, set_pcpu(esc, 10000, 20000, 100000));
	set_go(shm);
	ASSERT_TRUE(HG_POLL(shm->pids[3] > 0 && shm->pids[2] > 0,
			    HG_SETTLE_MS));
	pids[0] = esc;
	for (i = 0; i < 5; i++)
		pids[i + 1] = i < 3 ? shm->pids[i] : shm->pids[i + 1];
	sum = cpu_fraction(pids, 6);
	TH_LOG("six busy processes made in a 20%% budget: %.3f of a CPU", sum);
	EXPECT_LT(0.15, sum);
	EXPECT_GT(0.25, sum);
	/* One budget, shared; the new domain's leader carries none itself. */
	EXPECT_EQ(self->budgets + 1, budget_objects());
	ASSERT_EQ(0, get_pcpu(shm->pids[0], &c));
	EXPECT_EQ(20000, c.quota_us);
	ASSERT_EQ(0, get_pcpu(shm->pids[2], &c));
	EXPECT_EQ(20000, c.quota_us);
	ASSERT_EQ(0, get_pcpu(shm->pids[3], &c));
	EXPECT_EQ(UNLIM, c.quota_us);
	/* Tightened through a group made from it: tightened for all. */
	ASSERT_EQ(0, set_pcpu(shm->pids[1], 10000, 10000, 100000));
	ASSERT_EQ(0, get_pcpu(esc, &c));
	EXPECT_EQ(10000, c.quota_us);
	sum = cpu_fraction(pids, 6);
	TH_LOG("tightened to 10%% through one of them: %.3f", sum);
	EXPECT_LT(0.05, sum);
	EXPECT_GT(0.15, sum);
	/*
	 * Lifted for the group it was set on: that group gets a budget of
	 * its own, the others keep the old one.
	 */
	ASSERT_EQ(0, set_pcpu(esc, 10000, 50000, 100000));
	ASSERT_EQ(0, get_pcpu(shm->pids[0], &c));
	EXPECT_EQ(10000, c.quota_us);
	EXPECT_EQ(self->budgets + 2, budget_objects());
	kill(esc, SIGKILL);
	wait_exit(esc);
	for (i = 0; i < 6; i++)
		if (shm->pids[i] > 0)
			kill(shm->pids[i], SIGKILL);
	runner_stop(shm->pids[3]);
}

/*
 * A process group's budget and its domain's limit both hold, and the
 * tighter wins, whichever it is.
 */
static void lone_setup(struct sched_shm *shm)
{
	shm->pids[0] = contender(1, 0, NEW_PGRP, 1);
}

TEST_F_TIMEOUT(sched, budget_and_domain_tighter_wins, 120)
{
	double group_tighter, domain_tighter;
	pid_t dom, hog;

	dom = domain_runner(lone_setup, self->shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(self->shm));
	ASSERT_EQ(0, runner_go(self->shm));
	hog = self->shm->pids[0];
	ASSERT_TRUE(HG_POLL(getpgid(hog) == hog, HG_SETTLE_MS));
	ASSERT_EQ(0, set_cpu(dom, 100, 50000, 100000));
	ASSERT_EQ(0, set_pcpu(hog, 10000, 10000, 100000));
	group_tighter = cpu_fraction(&hog, 1);
	ASSERT_EQ(0, set_pcpu(hog, 10000, 50000, 100000));
	ASSERT_EQ(0, set_cpu(dom, 100, 10000, 100000));
	domain_tighter = cpu_fraction(&hog, 1);
	TH_LOG("group 10%% in domain 50%%: %.3f; group 50%% in domain 10%%: %.3f",
	       group_tighter, domain_tighter);
	EXPECT_LT(0.05, group_tighter);
	EXPECT_GT(0.15, group_tighter);
	EXPECT_LT(0.05, domain_tighter);
	EXPECT_GT(0.15, domain_tighter);
	runner_stop(dom);
}

/*
 * Who may change a budget: its owner tightens it, from inside too, and
 * lifts it from outside only as far as its own group allows and only
 * what it set itself; nobody inside lifts it, nor leaves it by moving
 * into a group without it; another user changes nothing; what an
 * administrator set only an administrator lifts.
 */
TEST_F(sched, budget_permissions)
{
	struct sched_shm *shm = self->shm;
	pid_t pid = fork();

	memset(shm, 0, sizeof(*shm));
	ASSERT_LE(0, pid);
	if (!pid) {
		struct hgroup_cpu c;
		pid_t g, u, m, k;

		CHILD_CHECK(!hg_become(1001));
		u = sleeper();
		CHILD_CHECK(u > 0);
		m = fork();
		CHILD_CHECK(m >= 0);
		if (!m) {
			/* A member of the budget, to be. */
			CHILD_CHECK(!setpgid(0, 0));
			wait_go(shm);
			/* Tightening its own budget: allowed, for all. */
			CHILD_CHECK(!set_pcpu(0, 10000, 40000, 100000));
			/* Lifting it, from inside: no. */
			CHILD_ERRNO(EACCES, set_pcpu(0, 10000, 50000, 100000));
			CHILD_ERRNO(EACCES, set_pcpu(0, 10000, UNLIM, 100000));
			CHILD_ERRNO(EACCES, set_pcpu(0, 10000, 40000, 50000));
			/* Nor leaving it by joining a group without one. */
			CHILD_ERRNO(EPERM, setpgid(0, u));
			/* A group made from it has it, under the same rules. */
			k = fork();
			CHILD_CHECK(k >= 0);
			if (!k) {
				CHILD_CHECK(setsid() > 0);
				CHILD_CHECK(!get_pcpu(0, &c));
				CHILD_CHECK(c.quota_us == 40000);
				CHILD_ERRNO(EACCES,
					    set_pcpu(0, 10000, UNLIM, 100000));
				_exit(0);
			}
			CHILD_CHECK(!wait_exit(k));
			set_step(shm, 1);
			for (;;)
				pause();
		}
		g = m;
		CHILD_CHECK(HG_POLL(getpgid(m) == m && getpgid(u) == u,
				    HG_SETTLE_MS));
		/* The owner, from outside, sets and tightens. */
		CHILD_CHECK(!set_pcpu(g, 10000, 50000, 100000));
		set_go(shm);
		CHILD_CHECK(HG_POLL(step_is(shm, 1), HG_CHILD_MS));
		CHILD_CHECK(!get_pcpu(g, &c) && c.quota_us == 40000);
		/* Another user: nothing. */
		if (!fork()) {
			CHILD_CHECK(!hg_become(1002));
			CHILD_ERRNO(EPERM, set_pcpu(g, 10000, 10000, 100000));
			CHILD_ERRNO(EPERM, set_pcpu(g, 10000, UNLIM, 100000));
			_exit(0);
		}
		CHILD_CHECK(wait(NULL) > 0);
		/* The owner lifts what it set itself, from outside. */
		CHILD_CHECK(!set_pcpu(g, 10000, 80000, 100000));
		shm->pids[0] = g;
		set_step(shm, 2);
		/* The administrator sets one: the owner cannot lift it. */
		CHILD_CHECK(HG_POLL(step_is(shm, 3), HG_CHILD_MS));
		CHILD_ERRNO(EPERM, set_pcpu(g, 10000, UNLIM, 100000));
		CHILD_CHECK(!set_pcpu(g, 10000, 20000, 100000));
		set_step(shm, 4);
		CHILD_CHECK(HG_POLL(step_is(shm, 5), HG_CHILD_MS));
		kill(m, SIGKILL);
		kill(u, SIGKILL);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(step_is(shm, 2), HG_CHILD_MS));
	ASSERT_EQ(0, set_pcpu(shm->pids[0], 10000, 30000, 100000));
	set_step(shm, 3);
	ASSERT_TRUE(HG_POLL(step_is(shm, 4), HG_CHILD_MS));
	/* The administrator lifts it. */
	ASSERT_EQ(0, set_pcpu(shm->pids[0], 10000, UNLIM, 100000));
	set_step(shm, 5);
	ASSERT_EQ(0, wait_exit(pid));
}

/*
 * A budget's weight bound: 4 busy processes in new sessions made in a
 * budget bounded at twice one nice-0 task, against a lone busy process:
 * two thirds; at half a nice-0 task, one third.  In a domain that groups
 * its process groups, a budget weighs no more than a group there: half.
 */
static void bound_setup(struct sched_shm *shm)
{
	pid_t s = fork();
	int i;

	CHILD_CHECK(s >= 0);
	if (!s) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		CHILD_CHECK(!setpgid(0, 0));
		shm->pids[7] = getpid();
		wait_go(shm);
		for (i = 0; i < 4; i++)
			shm->pids[i] = contender(1, 0, NEW_SESSION, 1);
		for (;;)
			pause();
	}
	shm->pids[4] = contender(1, 0, NEW_PGRP, 1);
	CHILD_CHECK(HG_POLL(shm->pids[7] > 0, HG_SETTLE_MS));
}

static double first_four(const double *s)
{
	return s[0] + s[1] + s[2] + s[3];
}

TEST_F_TIMEOUT(sched, budget_weight_bound, 120)
{
	struct sched_shm *shm = self->shm;
	double s[5], twice, half, grouped;
	pid_t dom;

	dom = domain_runner(bound_setup, shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(shm));
	ASSERT_EQ(0, runner_go(shm));
	ASSERT_TRUE(HG_POLL(getpgid(shm->pids[7]) == shm->pids[7],
			    HG_SETTLE_MS));
	ASSERT_EQ(0, set_pcpu(shm->pids[7], 200, UNLIM, 100000));
	set_go(shm);
	ASSERT_TRUE(HG_POLL(shm->pids[3] > 0, HG_SETTLE_MS));
	ASSERT_EQ(0, measure(shm->pids, 5, s));
	twice = first_four(s);
	ASSERT_EQ(0, set_sched(dom, PGRPS));
	ASSERT_EQ(0, measure(shm->pids, 5, s));
	grouped = first_four(s);
	ASSERT_EQ(0, set_sched(dom, 0));
	/* Tightened through one of the groups made from it. */
	ASSERT_EQ(0, set_pcpu(shm->pids[0], 50, UNLIM, 100000));
	ASSERT_EQ(0, measure(shm->pids, 5, s));
	half = first_four(s);
	TH_LOG("4 in a budget bounded at 200 against 1: %.3f; at 50: %.3f; at 200 grouped: %.3f",
	       twice, half, grouped);
	EXPECT_LT(0.57, twice);
	EXPECT_GT(0.77, twice);
	EXPECT_LT(0.23, half);
	EXPECT_GT(0.43, half);
	EXPECT_LT(0.40, grouped);
	EXPECT_GT(0.60, grouped);
	runner_stop(dom);
}

/*
 * A budget shared by groups of several users is changed in place only by
 * the user it was set for (or an administrator): a daemon's worker that
 * dropped privileges and made a group of its own in the daemon's budget
 * cannot throttle the daemon (EPERM).  What an administrator tightened
 * through one group binds them all: the owner cannot lift the group it
 * set the budget on from outside, nor make it leave.  Leaving a budget
 * is lifting, whatever its values.
 */
TEST_F(sched, budget_shared_by_users)
{
	struct sched_shm *shm = self->shm;
	struct hgroup_cpu c;
	pid_t j, pid;

	/* Root's daemon j, in a budget; its worker becomes uid 1001. */
	memset(shm, 0, sizeof(*shm));
	j = fork();
	ASSERT_LE(0, j);
	if (!j) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		CHILD_CHECK(!setpgid(0, 0));
		wait_go(shm);
		pid = fork();
		CHILD_CHECK(pid >= 0);
		if (!pid) {
			CHILD_CHECK(!hg_become(1001));
			CHILD_CHECK(setsid() > 0);
			CHILD_CHECK(!get_pcpu(0, &c) && c.quota_us == 50000);
			CHILD_ERRNO(EPERM, set_pcpu(0, 1, 1000, 1000000));
			/* Made from root's group: root's mark binds it. */
			CHILD_ERRNO(EPERM, set_pcpu(0, 10000, UNLIM, 100000));
			_exit(0);
		}
		CHILD_CHECK(!wait_exit(pid));
		set_step(shm, 1);
		for (;;)
			pause();
	}
	ASSERT_TRUE(HG_POLL(getpgid(j) == j, HG_SETTLE_MS));
	ASSERT_EQ(0, set_pcpu(j, 10000, 50000, 100000));
	set_go(shm);
	ASSERT_TRUE(HG_POLL(step_is(shm, 1), HG_CHILD_MS));
	ASSERT_EQ(0, get_pcpu(j, &c));
	EXPECT_EQ(50000, c.quota_us);
	kill(j, SIGKILL);
	wait_exit(j);

	/* User 1001's group j, budget set by its owner; an admin tightens. */
	memset(shm, 0, sizeof(*shm));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		pid_t g2, k;

		CHILD_CHECK(!hg_become(1001));
		j = fork();
		CHILD_CHECK(j >= 0);
		if (!j) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			CHILD_CHECK(!setpgid(0, 0));
			wait_go(shm);
			/* A group made from it, in the same budget. */
			g2 = fork();
			CHILD_CHECK(g2 >= 0);
			if (!g2) {
				CHILD_CHECK(setsid() > 0);
				/* Leaving, from inside: lifting. */
				CHILD_ERRNO(EACCES, set_pcpu(0, 10000, UNLIM,
							     100000));
				shm->pids[1] = getpid();
				for (;;)
					pause();
			}
			for (;;)
				pause();
		}
		CHILD_CHECK(HG_POLL(getpgid(j) == j, HG_SETTLE_MS));
		/* A budget by its period alone: leaving it is lifting. */
		CHILD_CHECK(!set_pcpu(j, 10000, UNLIM, 50000));
		shm->pids[0] = j;
		set_go(shm);
		CHILD_CHECK(HG_POLL(step_is(shm, 1), HG_CHILD_MS));
		/* The administrator tightened through the other group. */
		CHILD_ERRNO(EPERM, set_pcpu(j, 10000, 40000, 50000));
		CHILD_ERRNO(EPERM, set_pcpu(j, 10000, UNLIM, 100000));
		CHILD_CHECK(!get_pcpu(j, &c) && c.quota_us == 10000);
		/* Tightening it further is still the owner's. */
		CHILD_CHECK(!set_pcpu(j, 10000, 5000, 50000));
		/*
		 * Nor may it move a process out to a group of its own with an
		 * equal budget but no such mark, which it could lift.
		 */
		k = sleeper();
		CHILD_CHECK(k > 0);
		CHILD_CHECK(HG_POLL(getpgid(k) == k, HG_SETTLE_MS));
		CHILD_CHECK(!set_pcpu(k, 10000, 5000, 50000));
		CHILD_ERRNO(EPERM, setpgid(j, k));
		CHILD_CHECK(getpgid(j) == j);
		kill(k, SIGKILL);
		set_step(shm, 2);
		CHILD_CHECK(HG_POLL(step_is(shm, 3), HG_CHILD_MS));
		kill(j, SIGKILL);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->pids[1] > 0 &&
			    getpgid(shm->pids[1]) == shm->pids[1],
			    HG_SETTLE_MS));
	ASSERT_EQ(0, get_pcpu(shm->pids[1], &c));
	EXPECT_EQ(50000, c.period_us);
	ASSERT_EQ(0, set_pcpu(shm->pids[1], 10000, 10000, 50000));
	set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(step_is(shm, 2), HG_CHILD_MS));
	ASSERT_EQ(0, get_pcpu(shm->pids[1], &c));
	EXPECT_EQ(5000, c.quota_us);
	/* The administrator lifts it, through either group. */
	ASSERT_EQ(0, set_pcpu(shm->pids[0], 10000, UNLIM, 100000));
	ASSERT_EQ(0, set_pcpu(shm->pids[1], 10000, UNLIM, 100000));
	set_step(shm, 3);
	ASSERT_EQ(0, wait_exit(pid));
	kill(shm->pids[1], SIGKILL);
	reap_children();
}

static long set_redirect(pid_t pgid, pid_t to)
{
	struct hgroup_redirect r = { .pgid = to };

	return sys_hgroup_set_attr(pgid, HGROUP_ATTR_REDIRECT, &r, sizeof(r),
				   0);
}

static long get_redirect(pid_t pgid, struct hgroup_redirect *r)
{
	memset(r, 0, sizeof(*r));
	return sys_hgroup_get_attr(pgid, HGROUP_ATTR_REDIRECT, r, sizeof(*r),
				   0);
}

/*
 * Redirection: each bad argument with its errno, changing nothing; only
 * an administrator over the target's namespace redirects (EPERM); not to
 * a group of another domain or PID namespace (EXDEV), nor of a group in a
 * budget of its own (EBUSY).
 */
static void other_ns_group(struct sched_shm *shm)
{
	pid_t pid;

	/* A process group of this domain in another PID namespace. */
	CHILD_CHECK(!unshare(CLONE_NEWPID));
	pid = fork();
	CHILD_CHECK(pid >= 0);
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		CHILD_CHECK(!setpgid(0, 0));
		for (;;)
			pause();
	}
	shm->pids[1] = pid;
}

TEST_F(sched, redirect_bad_arguments)
{
	struct sched_shm *shm = self->shm;
	struct hgroup_redirect r, big[2];
	pid_t w, c, dom, pid;

	w = sleeper();
	c = sleeper();
	ASSERT_LT(0, w);
	ASSERT_LT(0, c);
	ASSERT_TRUE(HG_POLL(getpgid(w) == w && getpgid(c) == c,
			    HG_SETTLE_MS));
	ASSERT_EQ(0, get_redirect(w, &r));
	EXPECT_EQ(0, r.pgid);
	EXPECT_EQ(0, r.state);

	EXPECT_ERRNO(EINVAL, set_redirect(w, w));
	EXPECT_ERRNO(EINVAL, set_redirect(w, -2));
	r = (struct hgroup_redirect) { .pgid = c, .state = 1 };
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(w, HGROUP_ATTR_REDIRECT, &r,
						 sizeof(r), 0));
	r.state = 0;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(w, HGROUP_ATTR_REDIRECT, &r,
						 sizeof(r),
						 HGROUP_SCOPE_DOMAIN));
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(w, HGROUP_ATTR_REDIRECT, &r,
						 sizeof(r),
						 HGROUP_SCOPE_DOMAIN));
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(w, HGROUP_ATTR_REDIRECT, &r,
						 HGROUP_REDIRECT_SIZE_VER0 - 4,
						 0));
	memset(big, 0, sizeof(big));
	big[0] = r;
	big[1].pgid = 1;
	EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(w, HGROUP_ATTR_REDIRECT, big,
						sizeof(big), 0));
	EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(w, HGROUP_ATTR_REDIRECT,
						 (void *)8, sizeof(r), 0));
	EXPECT_ERRNO(ESRCH, set_redirect(w, INT_MAX));
	EXPECT_ERRNO(ESRCH, set_redirect(INT_MAX, c));
	/* Another domain. */
	dom = domain_runner(NULL, shm);
	ASSERT_LT(0, dom);
	ASSERT_EQ(0, runner_ready(shm));
	EXPECT_ERRNO(EXDEV, set_redirect(w, dom));
	EXPECT_ERRNO(EXDEV, set_redirect(dom, w));
	/* Reaped at the end: the sleepers are still the test's children. */
	kill(dom, SIGKILL);
	wait_exit(dom);
	/* Another PID namespace, the same domain. */
	memset(shm, 0, sizeof(*shm));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		other_ns_group(shm);
		for (;;)
			pause();
	}
	ASSERT_TRUE(HG_POLL(shm->pids[1] > 0, HG_SETTLE_MS));
	ASSERT_TRUE(HG_POLL(children_of(pid, shm->pids + 2, 1) == 1 &&
			    getpgid(shm->pids[2]) == shm->pids[2],
			    HG_SETTLE_MS));
	EXPECT_ERRNO(EXDEV, set_redirect(w, shm->pids[2]));
	kill(pid, SIGKILL);
	wait_exit(pid);
	/* No privilege: not even one's own group. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		pid_t a, b;

		CHILD_CHECK(!hg_become(1001));
		a = sleeper();
		b = sleeper();
		CHILD_CHECK(HG_POLL(getpgid(a) == a && getpgid(b) == b,
				    HG_SETTLE_MS));
		CHILD_ERRNO(EPERM, set_redirect(a, b));
		CHILD_ERRNO(EPERM, set_redirect(w, c));
		kill(a, SIGKILL);
		kill(b, SIGKILL);
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(pid));
	/* A budget of its own is lifted first. */
	ASSERT_EQ(0, set_pcpu(w, 10000, 50000, 100000));
	EXPECT_ERRNO(EBUSY, set_redirect(w, c));
	ASSERT_EQ(0, set_pcpu(w, 10000, UNLIM, 100000));
	/* Nothing changed, nothing made. */
	ASSERT_EQ(0, get_redirect(w, &r));
	EXPECT_EQ(0, r.pgid);
	EXPECT_EQ(self->budgets, budget_objects());
	/* Ending a redirection that is none: nothing to do. */
	EXPECT_EQ(0, set_redirect(w, 0));
	kill(w, SIGKILL);
	kill(c, SIGKILL);
	reap_children();
}

/*
 * A busy worker group redirected to a client group with a budget of 20%
 * uses the client's 20%, with the client's own; a client without a
 * budget gets one without limits.  When the client ends the worker stays
 * in the budget, and reads the redirection as ended; ended by the
 * administrator, the worker has the CPU again.
 */
TEST_F_TIMEOUT(sched, redirect_charges_client, 120)
{
	struct hgroup_redirect r;
	struct hgroup_cpu cpu;
	pid_t worker, client, other;
	double in, after, free;

	worker = contender(1, 0, NEW_PGRP, 1);
	client = sleeper();
	other = sleeper();
	ASSERT_LT(0, worker);
	ASSERT_LT(0, client);
	ASSERT_LT(0, other);
	ASSERT_TRUE(HG_POLL(getpgid(worker) == worker &&
			    getpgid(client) == client &&
			    getpgid(other) == other, HG_SETTLE_MS));
	/* A client without a budget gets one, without limits. */
	ASSERT_EQ(0, set_redirect(worker, other));
	EXPECT_EQ(self->budgets + 1, budget_objects());
	ASSERT_EQ(0, get_pcpu(other, &cpu));
	EXPECT_EQ(10000, cpu.weight_max);
	EXPECT_EQ(UNLIM, cpu.quota_us);

	ASSERT_EQ(0, set_pcpu(client, 10000, 20000, 100000));
	ASSERT_EQ(0, set_redirect(worker, client));
	ASSERT_EQ(0, get_redirect(worker, &r));
	EXPECT_EQ(client, r.pgid);
	EXPECT_EQ(0, r.state);
	ASSERT_EQ(0, get_pcpu(worker, &cpu));
	EXPECT_EQ(20000, cpu.quota_us);
	in = cpu_fraction(&worker, 1);
	/* The client ends: the worker stays in its budget. */
	kill(client, SIGKILL);
	wait_exit(client);
	ASSERT_EQ(0, get_redirect(worker, &r));
	EXPECT_EQ(client, r.pgid);
	EXPECT_EQ(HGROUP_REDIRECT_ENDED, r.state);
	after = cpu_fraction(&worker, 1);
	/* Ended by the administrator: out of the budget. */
	ASSERT_EQ(0, set_redirect(worker, 0));
	ASSERT_EQ(0, get_redirect(worker, &r));
	EXPECT_EQ(0, r.pgid);
	free = cpu_fraction(&worker, 1);
	TH_LOG("worker in its client's 20%% budget: %.3f; client gone: %.3f; ended: %.3f",
	       in, after, free);
	EXPECT_LT(0.15, in);
	EXPECT_GT(0.25, in);
	EXPECT_LT(0.15, after);
	EXPECT_GT(0.25, after);
	EXPECT_LT(0.80, free);
	kill(worker, SIGKILL);
	kill(other, SIGKILL);
	wait_exit(worker);
	wait_exit(other);
}

/*
 * A redirection is an administrator's: the target's owner cannot take
 * its group out of the budget, by lifting it or leaving it, from inside
 * or outside; the administrator can.
 */
TEST_F(sched, redirect_binds_owner)
{
	struct sched_shm *shm = self->shm;
	struct hgroup_cpu cpu;
	pid_t pid, c;

	memset(shm, 0, sizeof(*shm));
	c = sleeper();
	ASSERT_LT(0, c);
	ASSERT_TRUE(HG_POLL(getpgid(c) == c, HG_SETTLE_MS));
	ASSERT_EQ(0, set_pcpu(c, 10000, 50000, 100000));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		pid_t a;

		CHILD_CHECK(!hg_become(1001));
		a = sleeper();
		CHILD_CHECK(a > 0);
		CHILD_CHECK(HG_POLL(getpgid(a) == a, HG_SETTLE_MS));
		shm->pids[0] = a;
		set_step(shm, 1);
		CHILD_CHECK(HG_POLL(step_is(shm, 2), HG_CHILD_MS));
		CHILD_CHECK(!get_pcpu(a, &cpu) && cpu.quota_us == 50000);
		CHILD_ERRNO(EPERM, set_pcpu(a, 10000, 60000, 100000));
		CHILD_ERRNO(EPERM, set_pcpu(a, 10000, UNLIM, 100000));
		CHILD_ERRNO(EPERM, set_redirect(a, 0));
		CHILD_CHECK(!get_pcpu(a, &cpu) && cpu.quota_us == 50000);
		set_step(shm, 3);
		CHILD_CHECK(HG_POLL(step_is(shm, 4), HG_CHILD_MS));
		/* Ended: unrestricted, and the owner's again. */
		CHILD_CHECK(!get_pcpu(a, &cpu) && cpu.quota_us == UNLIM);
		CHILD_CHECK(!set_pcpu(a, 10000, 30000, 100000));
		CHILD_CHECK(!set_pcpu(a, 10000, UNLIM, 100000));
		kill(a, SIGKILL);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(step_is(shm, 1), HG_CHILD_MS));
	ASSERT_EQ(0, set_redirect(shm->pids[0], c));
	set_step(shm, 2);
	ASSERT_TRUE(HG_POLL(step_is(shm, 3), HG_CHILD_MS));
	ASSERT_EQ(0, set_redirect(shm->pids[0], 0));
	set_step(shm, 4);
	ASSERT_EQ(0, wait_exit(pid));
	kill(c, SIGKILL);
	reap_children();
}

TEST_HARNESS_MAIN
