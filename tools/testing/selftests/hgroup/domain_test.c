// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups selftests: process domains.
 *
 * set_domainid() and its refusals, get_domainid() and its view through PID
 * namespaces, inheritance, that nothing leaves a domain, that a domain's
 * id stays reserved, /proc/PID/status, and that no state leaks.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/sched.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "hgroup_util.h"

/* Domain of @pid from the "Domain:" or "NSdomain:" line of its status. */
static int status_line(pid_t pid, const char *key, char *buf, size_t len)
{
	char path[64], line[512];
	size_t klen = strlen(key);
	FILE *f;
	int ret = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			snprintf(buf, len, "%s", line + klen + 1);
			buf[strcspn(buf, "\n")] = '\0';
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

static long status_domain(pid_t pid)
{
	char buf[128];

	if (status_line(pid, "Domain", buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10);
}

/*
 * Fork a child that starts a domain and waits to be killed.  Reading one
 * byte from *@ready_pipe_rd returns 'x' once it is in its domain.
 */
static pid_t fork_new_domain_child(int *ready_pipe_rd)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		char c = 'x';

		close(p[0]);
		if (new_domain() != getpid())
			c = 'e';
		if (write(p[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	*ready_pipe_rd = p[0];
	return pid;
}

/*
 * Fork a child that waits until *@release is closed, then exits 0; with
 * @own_pgrp it first moves to a process group of its own (and is there
 * when this returns).
 */
static pid_t fork_parked(int *release, int own_pgrp)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (own_pgrp && setpgid(0, 0))
			_exit(1);
		read(p[0], &c, 1);
		_exit(0);
	}
	close(p[0]);
	*release = p[1];
	while (pid > 0 && own_pgrp && getpgid(pid) != pid)
		usleep(1000);
	return pid;
}

TEST(initial_domain_is_zero)
{
	ASSERT_EQ(0, sys_get_domainid(0));
	ASSERT_EQ(0, sys_get_domainid(getpid()));
	ASSERT_EQ(0, sys_get_domainid(1));
	ASSERT_EQ(0, status_domain(getpid()));
}

TEST(set_domainid_success)
{
	int rd;
	char c;
	pid_t child = fork_new_domain_child(&rd);

	ASSERT_LT(0, child);
	ASSERT_EQ(1, read(rd, &c, 1));
	ASSERT_EQ('x', c);
	/* Seen from outside: the domain id is the creator's pid. */
	EXPECT_EQ(child, sys_get_domainid(child));
	EXPECT_EQ(child, status_domain(child));
	EXPECT_EQ(0, sys_get_domainid(0));
	kill(child, SIGKILL);
	ASSERT_EQ(128 + SIGKILL, wait_exit(child));
}

TEST(set_domainid_returns_and_reports_own_pid)
{
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0) {
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(sys_set_domainid(0) == getpid());
		CHILD_CHECK(sys_get_domainid(0) == getpid());
		CHILD_CHECK(sys_get_domainid(getpid()) == getpid());
		CHILD_CHECK(status_domain(getpid()) == getpid());
		/* Session and process group are untouched. */
		CHILD_CHECK(getsid(0) == getpid());
		CHILD_CHECK(getpgrp() == getpid());
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(child));
}

TEST(set_domainid_unknown_flags)
{
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0) {
		unsigned int bit;

		CHILD_CHECK(setsid() == getpid());
		for (bit = 0; bit < 32; bit++) {
			errno = 0;
			CHILD_CHECK(sys_set_domainid(1U << bit) == -1);
			CHILD_CHECK(errno == EINVAL);
		}
		CHILD_CHECK(sys_set_domainid(~0U) == -1 && errno == EINVAL);
		/* Nothing changed: still in domain 0, and it still works. */
		CHILD_CHECK(sys_get_domainid(0) == 0);
		CHILD_CHECK(sys_set_domainid(0) == getpid());
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(child));
}

/* When several things are wrong, bad flags win, then EPERM, then EBUSY. */
TEST(set_domainid_checks_ordering)
{
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0) {
		pid_t gc;

		/* Not alone (in the parent's session) and bad flags. */
		CHILD_CHECK(sys_set_domainid(2) == -1 && errno == EINVAL);
		CHILD_CHECK(sys_set_domainid(0) == -1 && errno == EBUSY);
		CHILD_CHECK(sys_get_domainid(0) == 0);
		CHILD_CHECK(new_domain() == getpid());
		gc = fork();
		CHILD_CHECK(gc >= 0);
		if (gc == 0) {
			/* Not in domain 0, not alone, bad flags: EINVAL. */
			CHILD_CHECK(sys_set_domainid(4) == -1 &&
				    errno == EINVAL);
			/* Not in domain 0 and not alone: EPERM. */
			CHILD_CHECK(sys_set_domainid(0) == -1 &&
				    errno == EPERM);
			_exit(0);
		}
		CHILD_CHECK(wait_exit(gc) == 0);
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(child));
}

TEST(refuse_shared_session)
{
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0) {
		/* Own process group, but the session is the parent's. */
		CHILD_CHECK(setpgid(0, 0) == 0);
		errno = 0;
		CHILD_CHECK(sys_set_domainid(0) == -1);
		CHILD_CHECK(errno == EBUSY);
		CHILD_CHECK(sys_get_domainid(0) == 0);
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(child));
}

/*
 * A child in the caller's group, or in a group of its own in the caller's
 * session, makes the caller not alone: EBUSY, also while the child is a
 * zombie, until it is reaped.
 */
FIXTURE(not_alone) {
};

FIXTURE_VARIANT(not_alone) {
	int own_pgrp;
};

FIXTURE_VARIANT_ADD(not_alone, child_in_caller_pgrp) {
	.own_pgrp = 0,
};

FIXTURE_VARIANT_ADD(not_alone, child_in_own_pgrp) {
	.own_pgrp = 1,
};

FIXTURE_SETUP(not_alone)
{
}

FIXTURE_TEARDOWN(not_alone)
{
}

TEST_F(not_alone, refused_until_reaped)
{
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0) {
		int release;
		pid_t gc;

		CHILD_CHECK(setsid() == getpid());
		gc = fork_parked(&release, variant->own_pgrp);
		CHILD_CHECK(gc > 0);
		CHILD_CHECK(sys_set_domainid(0) == -1 && errno == EBUSY);
		close(release);
		CHILD_CHECK(waitid(P_PID, gc, NULL, WEXITED | WNOWAIT) == 0);
		CHILD_CHECK(sys_set_domainid(0) == -1 && errno == EBUSY);
		CHILD_CHECK(sys_get_domainid(0) == 0);
		CHILD_CHECK(wait_exit(gc) == 0);
		CHILD_CHECK(sys_set_domainid(0) == getpid());
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(child));
}

TEST(refuse_second_domain)
{
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0) {
		pid_t gc;

		CHILD_CHECK(new_domain() == getpid());
		/* The creator itself, still alone. */
		CHILD_CHECK(sys_set_domainid(0) == -1 && errno == EPERM);
		gc = fork();
		CHILD_CHECK(gc >= 0);
		if (gc == 0) {
			/* A new session inside the domain is alone too. */
			CHILD_CHECK(setsid() == getpid());
			CHILD_CHECK(sys_set_domainid(0) == -1 &&
				    errno == EPERM);
			CHILD_CHECK(sys_get_domainid(0) == getppid());
			_exit(0);
		}
		CHILD_CHECK(wait_exit(gc) == 0);
		CHILD_CHECK(sys_get_domainid(0) == getpid());
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(child));
}

TEST(set_domainid_unprivileged)
{
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0) {
		CHILD_CHECK(setgid(65534) == 0);
		CHILD_CHECK(setuid(65534) == 0);
		CHILD_CHECK(new_domain() == getpid());
		CHILD_CHECK(sys_get_domainid(1) == 0);
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(child));
}

TEST(get_domainid_bad_pids)
{
	pid_t child;
	long pid_max = 0;
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");

	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fscanf(f, "%ld", &pid_max));
	fclose(f);

	errno = 0;
	EXPECT_EQ(-1, sys_get_domainid(-1));
	EXPECT_EQ(ESRCH, errno);
	errno = 0;
	EXPECT_EQ(-1, sys_get_domainid(INT_MIN));
	EXPECT_EQ(ESRCH, errno);
	errno = 0;
	EXPECT_EQ(-1, sys_get_domainid(pid_max));
	EXPECT_EQ(ESRCH, errno);
	errno = 0;
	EXPECT_EQ(-1, sys_get_domainid(INT_MAX));
	EXPECT_EQ(ESRCH, errno);

	/* A reaped child is gone. */
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0)
		_exit(0);
	ASSERT_EQ(0, wait_exit(child));
	errno = 0;
	EXPECT_EQ(-1, sys_get_domainid(child));
	EXPECT_EQ(ESRCH, errno);
}

TEST(get_domainid_of_zombie)
{
	int rd;
	char c;
	pid_t child = fork_new_domain_child(&rd);

	ASSERT_LT(0, child);
	ASSERT_EQ(1, read(rd, &c, 1));
	ASSERT_EQ('x', c);
	kill(child, SIGKILL);
	ASSERT_EQ(0, waitid(P_PID, child, NULL, WEXITED | WNOWAIT));
	/* Like getsid(), a zombie still reports. */
	EXPECT_EQ(child, sys_get_domainid(child));
	ASSERT_EQ(128 + SIGKILL, wait_exit(child));
	errno = 0;
	EXPECT_EQ(-1, sys_get_domainid(child));
	EXPECT_EQ(ESRCH, errno);
}

static void *thread_domain(void *arg)
{
	long *out = arg;

	out[0] = sys_get_domainid(0);
	out[1] = sys_get_domainid(syscall(SYS_gettid));
	return NULL;
}

static void *thread_set_domainid(void *arg)
{
	long *out = arg;

	out[0] = sys_set_domainid(0);
	return NULL;
}

static int barrier_fd[2];

static void *thread_wait_then_domain(void *arg)
{
	long *out = arg;
	char c;

	if (read(barrier_fd[0], &c, 1) != 1)
		return NULL;
	out[0] = sys_get_domainid(0);
	return NULL;
}

TEST(inherit_threads)
{
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0) {
		long after[2] = { -1, -1 };
		long early = -1, set[1] = { -1 };
		pthread_t t, t_early;

		CHILD_CHECK(pipe(barrier_fd) == 0);
		CHILD_CHECK(setsid() == getpid());
		/* A thread that exists before the domain moves with it. */
		CHILD_CHECK(!pthread_create(&t_early, NULL,
					    thread_wait_then_domain, &early));
		/* set_domainid() from a non-leader thread works too. */
		CHILD_CHECK(!pthread_create(&t, NULL, thread_set_domainid,
					    set));
		pthread_join(t, NULL);
		CHILD_CHECK(set[0] == getpid());
		CHILD_CHECK(write(barrier_fd[1], "x", 1) == 1);
		pthread_join(t_early, NULL);
		CHILD_CHECK(early == getpid());
		/* A thread created afterwards is in it. */
		CHILD_CHECK(!pthread_create(&t, NULL, thread_domain, after));
		pthread_join(t, NULL);
		CHILD_CHECK(after[0] == getpid() && after[1] == getpid());
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(child));
}

TEST(inherit_fork_and_exec)
{
	char helper[PATH_MAX], arg[32];
	ssize_t n = readlink("/proc/self/exe", helper, sizeof(helper) - 1);
	pid_t child;

	ASSERT_LT(0, n);
	helper[n] = '\0';
	snprintf(strrchr(helper, '/') + 1, sizeof(helper) - (strrchr(helper, '/') + 1 - helper),
		 "exec_helper");
	ASSERT_EQ(0, access(helper, X_OK));

	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		pid_t gc, ggc;

		CHILD_CHECK(new_domain() == getpid());
		snprintf(arg, sizeof(arg), "%d", getpid());
		gc = fork();
		CHILD_CHECK(gc >= 0);
		if (gc == 0) {
			/* Fork, fork again, then exec. */
			CHILD_CHECK(sys_get_domainid(0) == getppid());
			ggc = fork();
			CHILD_CHECK(ggc >= 0);
			if (ggc == 0) {
				execl(helper, helper, "domain", arg,
				      (char *)NULL);
				_exit(20);
			}
			CHILD_CHECK(wait_exit(ggc) == 0);
			/* exec from a non-leader thread. */
			execl(helper, helper, "thread-exec", arg, (char *)NULL);
			_exit(21);
		}
		CHILD_CHECK(wait_exit(gc) == 0);
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(child));

	/*
	 * The same in domain 0, whose members are not linked to its pid:
	 * de_thread() has no domain link to move, and exit none to drop.
	 */
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		execl(helper, helper, "thread-exec", "0", (char *)NULL);
		_exit(21);
	}
	ASSERT_EQ(0, wait_exit(child));
}

/* No call moves a process or a group into another domain. */
TEST(no_way_out)
{
	pid_t dom, outsider, inner;
	int rd;
	char c;

	dom = fork_new_domain_child(&rd);
	ASSERT_LT(0, dom);
	ASSERT_EQ(1, read(rd, &c, 1));
	ASSERT_EQ('x', c);

	/* From outside: the domain's creator cannot be pulled into our group. */
	errno = 0;
	EXPECT_EQ(-1, setpgid(dom, getpgrp()));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(dom, sys_get_domainid(dom));
	EXPECT_EQ(dom, getpgid(dom));

	/* An outsider in domain 0, in a group of its own. */
	outsider = fork();
	ASSERT_LE(0, outsider);
	if (outsider == 0) {
		setpgid(0, 0);
		pause();
		_exit(0);
	}
	while (getpgid(outsider) != outsider)
		usleep(1000);

	inner = fork();
	ASSERT_LE(0, inner);
	if (inner == 0) {
		pid_t gc;

		CHILD_CHECK(new_domain() == getpid());
		/* Groups of domain 0 are in other sessions: EPERM. */
		CHILD_CHECK(setpgid(0, outsider) == -1 && errno == EPERM);
		CHILD_CHECK(setpgid(0, getppid()) == -1 && errno == EPERM);
		CHILD_CHECK(setpgid(0, 1) == -1 && errno == EPERM);
		gc = fork();
		CHILD_CHECK(gc >= 0);
		if (gc == 0) {
			/* New groups and sessions stay in the domain. */
			CHILD_CHECK(setpgid(0, 0) == 0);
			CHILD_CHECK(sys_get_domainid(0) == getppid());
			CHILD_CHECK(setpgid(0, getppid()) == 0);
			CHILD_CHECK(setsid() == getpid());
			CHILD_CHECK(sys_get_domainid(0) == getppid());
			CHILD_CHECK(setpgid(0, outsider) == -1 &&
				    errno == EPERM);
			CHILD_CHECK(sys_get_domainid(0) == getppid());
			_exit(0);
		}
		CHILD_CHECK(wait_exit(gc) == 0);
		CHILD_CHECK(sys_get_domainid(0) == getpid());
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(inner));
	/* Nothing moved. */
	EXPECT_EQ(0, sys_get_domainid(outsider));
	EXPECT_EQ(0, sys_get_domainid(0));
	EXPECT_EQ(dom, sys_get_domainid(dom));
	kill(outsider, SIGKILL);
	kill(dom, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, wait_exit(outsider));
	EXPECT_EQ(128 + SIGKILL, wait_exit(dom));
}

/* Orphans, reparented when their parent dies, keep their domain. */
TEST(orphan_keeps_domain)
{
	int p[2];
	pid_t child, orphan = 0;

	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	ASSERT_EQ(0, pipe(p));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		pid_t gc, child_self = getpid();

		CHILD_CHECK(new_domain() == getpid());
		gc = fork();
		CHILD_CHECK(gc >= 0);
		if (gc == 0) {
			close(p[0]);
			while (getppid() == child_self)
				usleep(1000);
			gc = getpid();
			CHILD_CHECK(write(p[1], &gc, sizeof(gc)) == sizeof(gc));
			pause();
			_exit(0);
		}
		_exit(0);
	}
	close(p[1]);
	ASSERT_EQ(0, wait_exit(child));
	ASSERT_EQ(sizeof(orphan), read(p[0], &orphan, sizeof(orphan)));
	/* The creator is gone; the domain and its id stay. */
	EXPECT_EQ(child, sys_get_domainid(orphan));
	EXPECT_EQ(child, getsid(orphan));
	EXPECT_EQ(child, status_domain(orphan));
	kill(orphan, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, wait_exit(orphan));
}

/* Inside a new PID namespace the domain holding init reads as 0. */
TEST(pidns_domain_zero_and_nesting)
{
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0) {
		pid_t outer_pid, init;
		int p[2];

		CHILD_CHECK(new_domain() == getpid());
		outer_pid = getpid();
		CHILD_CHECK(pipe(p) == 0);
		CHILD_CHECK(unshare(CLONE_NEWPID) == 0);
		init = fork();
		CHILD_CHECK(init >= 0);
		if (init == 0) {
			pid_t in_ns;

			CHILD_CHECK(getpid() == 1);
			CHILD_CHECK(sys_get_domainid(0) == 0);
			/* The creator outside is invisible here. */
			CHILD_CHECK(sys_get_domainid(outer_pid) == -1 &&
				    errno == ESRCH);
			/* Alone after setsid(), and in the local domain 0. */
			CHILD_CHECK(sys_set_domainid(0) == -1 &&
				    errno == EBUSY);
			CHILD_CHECK(setsid() == 1);
			CHILD_CHECK(sys_set_domainid(0) == 1);
			CHILD_CHECK(sys_get_domainid(0) == 1);
			in_ns = fork();
			CHILD_CHECK(in_ns >= 0);
			if (in_ns == 0) {
				CHILD_CHECK(sys_get_domainid(0) == 1);
				CHILD_CHECK(sys_get_domainid(1) == 1);
				_exit(0);
			}
			CHILD_CHECK(wait_exit(in_ns) == 0);
			close(p[0]);
			CHILD_CHECK(write(p[1], "x", 1) == 1);
			pause();
			_exit(0);
		}
		close(p[1]);
		{
			char c, buf[128], want[128];

			CHILD_CHECK(read(p[0], &c, 1) == 1);
			/* Seen from the parent namespace. */
			CHILD_CHECK(sys_get_domainid(init) == init);
			CHILD_CHECK(sys_get_domainid(0) == getpid());
			CHILD_CHECK(status_line(init, "NSdomain", buf,
						sizeof(buf)) == 0);
			snprintf(want, sizeof(want), "\t%d\t1", init);
			CHILD_CHECK(!strcmp(buf, want));
		}
		kill(init, SIGKILL);
		CHILD_CHECK(wait_exit(init) == 128 + SIGKILL);
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(child));
}

/*
 * Entering another process's PID namespace with setns() does not leave the
 * domain: the child born there is in its parent's domain, which reads as 0
 * inside (its creator is not visible there) and as the creator from here.
 */
TEST(setns_keeps_domain)
{
	int p[2], q[2];
	pid_t holder, init = 0, creator, member = 0;

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(q));
	holder = fork();
	ASSERT_LE(0, holder);
	if (holder == 0) {
		CHILD_CHECK(unshare(CLONE_NEWPID) == 0);
		init = fork();
		CHILD_CHECK(init >= 0);
		if (init == 0) {
			pause();
			_exit(0);
		}
		CHILD_CHECK(write(p[1], &init, sizeof(init)) == sizeof(init));
		wait_exit(init);
		_exit(0);
	}
	ASSERT_EQ(sizeof(init), read(p[0], &init, sizeof(init)));

	creator = fork();
	ASSERT_LE(0, creator);
	if (creator == 0) {
		char path[64];
		int fd;

		CHILD_CHECK(new_domain() == getpid());
		snprintf(path, sizeof(path), "/proc/%d/ns/pid", init);
		fd = open(path, O_RDONLY);
		CHILD_CHECK(fd >= 0);
		CHILD_CHECK(setns(fd, CLONE_NEWPID) == 0);
		member = fork();
		CHILD_CHECK(member >= 0);
		if (member == 0) {
			CHILD_CHECK(getpid() != 1);
			CHILD_CHECK(sys_get_domainid(0) == 0);
			CHILD_CHECK(sys_get_domainid(1) == 0);
			pause();
			_exit(0);
		}
		CHILD_CHECK(write(q[1], &member, sizeof(member)) ==
			    sizeof(member));
		pause();
		_exit(0);
	}
	ASSERT_EQ(sizeof(member), read(q[0], &member, sizeof(member)));
	/* From the root namespace: still the creator's domain. */
	EXPECT_EQ(creator, sys_get_domainid(member));
	EXPECT_EQ(creator, status_domain(member));
	EXPECT_EQ(0, sys_get_domainid(init));
	kill(member, SIGKILL);
	kill(creator, SIGKILL);
	kill(init, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, wait_exit(creator));
	EXPECT_EQ(0, wait_exit(holder));
}

/*
 * Three nested PID namespaces, a domain in each: each level sees its own
 * domain as 1 and its parent's as 0, and the root sees the chain.
 */
static int nest(int level, int depth, int report_fd)
{
	pid_t init;

	if (unshare(CLONE_NEWPID))
		return 10;
	init = fork();
	if (init < 0)
		return 11;
	if (init == 0) {
		if (getpid() != 1 || sys_get_domainid(0) != 0)
			_exit(12);
		if (setsid() != 1 || sys_set_domainid(0) != 1)
			_exit(13);
		if (sys_get_domainid(0) != 1)
			_exit(14);
		if (level + 1 < depth)
			_exit(nest(level + 1, depth, report_fd));
		/* Deepest: report, then wait to be killed. */
		if (write(report_fd, "x", 1) != 1)
			_exit(15);
		pause();
		_exit(0);
	}
	return wait_exit(init) == 128 + SIGKILL ? 0 : 16;
}

/*
 * The deepest init has four entries in NSpid, the last being 1; the
 * level-1 init is @top's child.
 */
static void find_nested(pid_t top, pid_t *deepest, pid_t *l1)
{
	char nspid[128], buf[64];
	struct dirent *de;
	DIR *proc = opendir("/proc");

	*deepest = *l1 = 0;
	if (!proc)
		return;
	while ((de = readdir(proc))) {
		pid_t pid = atoi(de->d_name);
		int fields = 0;
		char *s;

		if (pid <= 0 ||
		    status_line(pid, "NSpid", nspid, sizeof(nspid)) ||
		    status_line(pid, "PPid", buf, sizeof(buf)))
			continue;
		if (atoi(buf) == top)
			*l1 = pid;
		for (s = nspid; *s; s++)
			fields += (*s == '\t');
		if (fields == 4 && !strcmp(strrchr(nspid, '\t'), "\t1"))
			*deepest = pid;
	}
	closedir(proc);
}

/*
 * A child of ours that starts a domain and three nested PID namespaces
 * with a domain in each, returned once the deepest is there; -1 if not.
 */
static pid_t start_nested(void)
{
	pid_t top;
	int p[2];
	char c;

	if (pipe(p))
		return -1;
	top = fork();
	if (top == 0) {
		close(p[0]);
		if (new_domain() != getpid())
			_exit(9);
		_exit(nest(0, 3, p[1]));
	}
	close(p[1]);
	if (top > 0 && read(p[0], &c, 1) != 1)
		top = -1;
	close(p[0]);
	return top;
}

TEST(pidns_three_levels)
{
	char nspid[128], nsdom[128];
	pid_t top, deepest, l1;

	top = start_nested();
	ASSERT_LT(0, top);

	find_nested(top, &deepest, &l1);
	ASSERT_NE(0, deepest);
	ASSERT_NE(0, l1);
	/* Its domain is itself, seen from every level of the chain. */
	ASSERT_EQ(0, status_line(deepest, "NSpid", nspid, sizeof(nspid)));
	ASSERT_EQ(0, status_line(deepest, "NSdomain", nsdom, sizeof(nsdom)));
	EXPECT_STREQ(nspid, nsdom);
	EXPECT_EQ(deepest, sys_get_domainid(deepest));
	EXPECT_EQ(deepest, status_domain(deepest));
	/* The level-1 init's domain is its own too. */
	EXPECT_EQ(l1, sys_get_domainid(l1));
	/* Killing the level-1 init ends levels 1 to 3. */
	kill(l1, SIGKILL);
	ASSERT_EQ(0, wait_exit(top));
}

static pid_t clone3_set_tid(pid_t tid)
{
	struct clone_args args = {
		.exit_signal = SIGCHLD,
		.set_tid = (uintptr_t)&tid,
		.set_tid_size = 1,
	};

	return syscall(__NR_clone3, &args, sizeof(args));
}

/*
 * A domain whose creator and leader group are gone keeps its id reserved
 * while it has members, and releases it when the last one goes.
 */
TEST(domain_id_reserved)
{
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0) {
		pid_t init;

		CHILD_CHECK(unshare(CLONE_NEWPID) == 0);
		init = fork();
		CHILD_CHECK(init >= 0);
		if (init == 0) {
			int p[2], q[2];
			pid_t creator, member, t;
			char c;

			CHILD_CHECK(pipe(p) == 0 && pipe(q) == 0);
			creator = fork();
			CHILD_CHECK(creator >= 0);
			if (creator == 0) {
				pid_t self = getpid();

				CHILD_CHECK(new_domain() == self);
				member = fork();
				CHILD_CHECK(member >= 0);
				if (member == 0) {
					/* Leave the creator's session and
					 * group: only the domain link is left.
					 */
					while (getppid() == self)
						usleep(1000);
					CHILD_CHECK(setsid() == getpid());
					t = getpid();
					CHILD_CHECK(write(p[1], &t,
							  sizeof(t)) == sizeof(t));
					read(q[0], &c, 1);
					_exit(0);
				}
				_exit(0);
			}
			CHILD_CHECK(wait_exit(creator) == 0);
			CHILD_CHECK(read(p[0], &member, sizeof(member)) ==
				    sizeof(member));
			CHILD_CHECK(sys_get_domainid(member) == creator);
			CHILD_CHECK(getsid(member) == member);
			CHILD_CHECK(getpgid(member) == member);
			/* The number is taken. */
			t = clone3_set_tid(creator);
			if (t == 0)
				_exit(0);
			CHILD_CHECK(t == -1 && errno == EEXIST);
			/* The last member leaves: the number is free again. */
			CHILD_CHECK(write(q[1], "x", 1) == 1);
			CHILD_CHECK(wait_exit(member) == 0);
			t = clone3_set_tid(creator);
			if (t == 0)
				_exit(0);
			CHILD_CHECK(t == creator);
			CHILD_CHECK(wait_exit(t) == 0);
			_exit(0);
		}
		CHILD_CHECK(wait_exit(init) == 0);
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(child));
}

/* Every process of a session is in the same domain. */
TEST(sessions_never_span_domains)
{
	pid_t kids[4];
	int i, rd[4];
	char c;

	for (i = 0; i < 4; i++) {
		kids[i] = fork_new_domain_child(&rd[i]);
		ASSERT_LT(0, kids[i]);
		ASSERT_EQ(1, read(rd[i], &c, 1));
	}
	{
		static long sid_dom[1 << 16];
		pid_t pid;

		memset(sid_dom, -1, sizeof(sid_dom));
		for (pid = 1; pid < (1 << 16); pid++) {
			long d = sys_get_domainid(pid);
			pid_t sid = getsid(pid);

			if (d < 0 || sid < 0 || sid >= (1 << 16))
				continue;
			if (sid_dom[sid] == -1)
				sid_dom[sid] = d;
			EXPECT_EQ(sid_dom[sid], d) {
				TH_LOG("pid %d session %d", pid, sid);
			}
		}
	}
	for (i = 0; i < 4; i++) {
		kill(kids[i], SIGKILL);
		wait_exit(kids[i]);
	}
}

/* Object counts from debugfs. */
static int read_objects(long *pgrps, long *domains)
{
	FILE *f = fopen("/sys/kernel/debug/hgroup/objects", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "pgrps %ld\ndomains %ld", pgrps, domains);
	fclose(f);
	return n == 2 ? 0 : -1;
}

/* Wait (RCU frees after a grace period) for the counts to come back. */
static int objects_back_to(long pgrps, long domains)
{
	long p, d;
	int i;

	for (i = 0; i < 3000; i++) {
		if (read_objects(&p, &d))
			return -1;
		if (p == pgrps && d == domains)
			return 0;
		usleep(10000);
	}
	fprintf(stderr, "# objects: pgrps %ld (want %ld), domains %ld (want %ld)\n",
		p, pgrps, d, domains);
	return -1;
}

FIXTURE(slow) {
};

FIXTURE_SETUP(slow)
{
	/* Orphans come back to the test, which reaps them. */
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
}

FIXTURE_TEARDOWN(slow)
{
}

/*
 * Counts from before this test may still be falling (zombies being reaped,
 * RCU callbacks pending): take them once they hold still for a second.
 */
static int read_settled_objects(long *pgrps, long *domains)
{
	long p, d;
	int i, still = 0;

	if (read_objects(pgrps, domains))
		return -1;
	for (i = 0; i < 600 && still < 10; i++) {
		usleep(100000);
		if (read_objects(&p, &d))
			return -1;
		still = (p == *pgrps && d == *domains) ? still + 1 : 0;
		*pgrps = p;
		*domains = d;
	}
	return 0;
}

TEST_F_TIMEOUT(slow, no_leak_100000_cycles, 900)
{
	long pgrps0, domains0, pgrps1, domains1;
	pid_t a, b;

	if (read_settled_objects(&pgrps0, &domains0))
		SKIP(return, "no /sys/kernel/debug/hgroup/objects");

	/*
	 * Two processes of one session: a moves into b's group and back
	 * into a new group of its own, so every cycle makes one process
	 * group state and frees one.
	 */
	b = fork();
	ASSERT_LE(0, b);
	if (b == 0) {
		setpgid(0, 0);
		pause();
		_exit(0);
	}
	while (getpgid(b) != b)
		usleep(1000);
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		int i;

		for (i = 0; i < 100000; i++) {
			CHILD_CHECK(setpgid(0, b) == 0);
			CHILD_CHECK(setpgid(0, 0) == 0);
		}
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(a));
	ASSERT_EQ(0, read_objects(&pgrps1, &domains1));
	TH_LOG("after the cycles: pgrps %ld, domains %ld", pgrps1, domains1);

	/* And 1,000 whole domains, created and ended. */
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		int i;

		for (i = 0; i < 1000; i++) {
			pid_t c = fork();

			CHILD_CHECK(c >= 0);
			if (c == 0)
				_exit(new_domain() == getpid() ? 0 : 1);
			CHILD_CHECK(wait_exit(c) == 0);
		}
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(a));
	kill(b, SIGKILL);
	ASSERT_EQ(128 + SIGKILL, wait_exit(b));
	ASSERT_EQ(0, objects_back_to(pgrps0, domains0));
}

/*
 * 10,000 setsid/set_domainid/exit cycles from four concurrent workers,
 * each domain with a member that outlives its creator.
 */
TEST_F_TIMEOUT(slow, stress_concurrent_domains, 900)
{
	long pgrps0, domains0;
	int have_objects = !read_settled_objects(&pgrps0, &domains0);
	int i, status, workers = 4, bad = 0, members = 0;
	pid_t w[4], pid;

	for (i = 0; i < workers; i++) {
		w[i] = fork();
		ASSERT_LE(0, w[i]);
		if (w[i] == 0) {
			int n;

			for (n = 0; n < 2500; n++) {
				pid_t c = fork();

				CHILD_CHECK(c >= 0);
				if (c == 0) {
					pid_t creator = getpid();

					if (new_domain() != creator)
						_exit(1);
					c = fork();
					if (c < 0)
						_exit(2);
					if (c == 0)
						_exit(sys_get_domainid(0) ==
						      creator ? 42 : 3);
					_exit(0);
				}
				CHILD_CHECK(wait_exit(c) == 0);
			}
			_exit(0);
		}
	}
	/* Reap the workers and every orphaned member (we are subreaper). */
	while ((pid = wait(&status)) > 0) {
		int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;

		for (i = 0; i < workers; i++)
			if (pid == w[i])
				break;
		if (i < workers)
			bad += code != 0;
		else if (code == 42)
			members++;
		else
			bad++;
	}
	EXPECT_EQ(0, bad);
	EXPECT_EQ(10000, members);
	if (have_objects)
		EXPECT_EQ(0, objects_back_to(pgrps0, domains0));
}

/* One line of /sys/kernel/debug/hgroup/domains. */
struct dom_line {
	unsigned int id, parent;
	int pid;
	long tasks;
};

/* Read the tree of domains; -1 if debugfs has none. */
static int read_domains(struct dom_line *l, int max)
{
	FILE *f = fopen("/sys/kernel/debug/hgroup/domains", "r");
	int n = 0;

	if (!f)
		return -1;
	while (n < max && fscanf(f, "%u %u %d %ld", &l[n].id, &l[n].parent,
				 &l[n].pid, &l[n].tasks) == 4)
		n++;
	fclose(f);
	return n;
}

/* The index of the line of @pid's domain (by creator), or -1. */
static int dom_by_pid(const struct dom_line *l, int n, int pid)
{
	for (int i = 0; i < n; i++)
		if (l[i].pid == pid)
			return i;
	return -1;
}

/*
 * The kernel's tree of domains (debugfs hgroup/domains, walked with the
 * sleepable iterator) has every nested domain under its parent, in
 * pre-order, with distinct ids and hierarchical task counts, and loses
 * them once their processes are gone.
 */
TEST(domain_tree_in_debugfs)
{
	static struct dom_line l[4096];
	pid_t top, deepest, l1, chain[4];
	int n, i, k, idx[4];
	long pgrps0, domains0;

	n = read_domains(l, 4096);
	if (n < 0)
		SKIP(return, "no /sys/kernel/debug/hgroup/domains");
	/* The file shows pids of the initial PID namespace. */
	if (n >= 4096 || l[0].id || l[0].pid)
		SKIP(return, "too many domains, or not the initial namespace");
	ASSERT_EQ(0, read_settled_objects(&pgrps0, &domains0));
	top = start_nested();
	ASSERT_LT(0, top);
	find_nested(top, &deepest, &l1);
	ASSERT_NE(0, deepest);
	ASSERT_NE(0, l1);

	n = read_domains(l, 4096);
	ASSERT_LT(0, n);
	/* Domain 0 first, its own parent. */
	EXPECT_EQ(0, l[0].id);
	EXPECT_EQ(0, l[0].parent);
	EXPECT_EQ(0, l[0].pid);
	/* From the deepest up: each domain's parent is the next one. */
	idx[0] = dom_by_pid(l, n, deepest);
	ASSERT_LE(0, idx[0]);
	for (k = 1; k < 4; k++) {
		for (i = 0; i < n; i++)
			if (l[i].id == l[idx[k - 1]].parent)
				break;
		ASSERT_LT(i, n);
		/* Pre-order: a parent comes before its children. */
		EXPECT_LT(i, idx[k - 1]);
		idx[k] = i;
	}
	chain[0] = deepest;
	chain[2] = l1;
	chain[3] = top;
	EXPECT_EQ(l1, l[idx[2]].pid);
	EXPECT_EQ(top, l[idx[3]].pid);
	EXPECT_EQ(0, l[idx[3]].parent);
	for (k = 0; k < 4; k++) {
		/* One process per level, counted in every domain above. */
		EXPECT_EQ(k + 1, l[idx[k]].tasks);
		EXPECT_NE(0, l[idx[k]].id);
		for (i = 0; i < k; i++)
			EXPECT_NE(l[idx[i]].id, l[idx[k]].id);
	}
	chain[1] = l[idx[1]].pid;

	kill(l1, SIGKILL);
	ASSERT_EQ(0, wait_exit(top));
	/* The objects go after grace periods, one per level. */
	for (i = 0; i < 3000; i++) {
		n = read_domains(l, 4096);
		ASSERT_LE(0, n);
		for (k = 0; k < 4; k++)
			if (dom_by_pid(l, n, chain[k]) >= 0)
				break;
		if (k == 4)
			break;
		usleep(10000);
	}
	EXPECT_EQ(4, k);
	/* And are freed: the counts come back to where they were. */
	EXPECT_EQ(0, objects_back_to(pgrps0, domains0));
}

TEST_HARNESS_MAIN
