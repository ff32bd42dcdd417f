// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups selftests: the hgctl tool (tools/hgroup), run as a program the
 * way an init system or an administrator would.  HGCTL names the binary
 * (default /hg/bin/hgctl, where the test guest puts it).
 */
#define _GNU_SOURCE
#include <linux/hgroup.h>
#include <stdarg.h>
#include <sys/wait.h>

#include "hgroup_util.h"
#include "../kselftest_harness.h"

static const char *hgctl(void)
{
	return getenv("HGCTL") ?: "/hg/bin/hgctl";
}

/*
 * Run hgctl with @fmt's arguments through sh, its output in @out (up to
 * @len bytes, may be NULL).  Returns its exit status, or -1.
 */
static int run_hgctl(char *out, size_t len, const char *fmt, ...)
{
	char args[512], cmd[640];
	va_list ap;
	size_t n = 0;
	FILE *f;
	int st;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", hgctl(), args);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (out) {
		n = fread(out, 1, len - 1, f);
		out[n] = 0;
	} else {
		char buf[256];

		while (fread(buf, 1, sizeof(buf), f) > 0)
			;
	}
	st = pclose(f);
	if (out && n)
		fprintf(stderr, "# hgctl %s:\n%s", args, out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A child in a process group of its own, sleeping; returns its pid. */
static pid_t sleeper_group(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		setsid();
		for (;;)
			pause();
	}
	HG_POLL(getpgid(pid) == pid, HG_SETTLE_MS);
	return pid;
}

static void kill_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	wait_exit(pid);
}

TEST(run_restricts_and_passes_status)
{
	static const char script[] =
		"grep -E \"^(Cpus_allowed_list|Domain):\" /proc/self/status";
	char out[4096];

	ASSERT_EQ(0, run_hgctl(out, sizeof(out),
			       "run --cpus=0 --tasks-max=50 -- /bin/sh -c '%s'",
			       script));
	EXPECT_NE(NULL, strstr(out, "Cpus_allowed_list:\t0\n"));
	EXPECT_EQ(NULL, strstr(out, "Domain:\t0\n"));
	EXPECT_EQ(7, run_hgctl(NULL, 0, "run -- /bin/sh -c 'exit 7'"));
	EXPECT_EQ(128 + SIGKILL,
		  run_hgctl(NULL, 0, "run -- /bin/sh -c 'kill -9 $$'"));
}

TEST(run_device_rule_enforced)
{
	static const char null_ok[] = "cat /dev/null && echo null-ok";
	static const char zero_denied[] =
		"head -c1 /dev/zero >/dev/null 2>&1 || echo zero-denied";
	char out[4096];

	ASSERT_EQ(0, run_hgctl(out, sizeof(out),
			       "run --device='c 1:3 rw' -- /bin/sh -c '%s; %s'",
			       null_ok, zero_denied));
	EXPECT_NE(NULL, strstr(out, "null-ok"));
	EXPECT_NE(NULL, strstr(out, "zero-denied"));
}

TEST(bad_arguments_fail_with_errno_name)
{
	char out[4096];

	EXPECT_EQ(2, run_hgctl(out, sizeof(out), "run --cpus=abc -- true"));
	EXPECT_NE(NULL, strstr(out, "EINVAL"));
	EXPECT_EQ(2, run_hgctl(out, sizeof(out),
			       "run --device='x 1:3 r' -- true"));
	EXPECT_NE(NULL, strstr(out, "EINVAL"));
	EXPECT_EQ(1, run_hgctl(out, sizeof(out), "freeze 999999"));
	EXPECT_NE(NULL, strstr(out, "ESRCH"));
	EXPECT_NE(0, run_hgctl(out, sizeof(out), "apply --recursive 0 --cpus=0"));
	EXPECT_NE(0, run_hgctl(out, sizeof(out), "frobnicate"));
}

TEST(set_freeze_thaw_show)
{
	char out[8192], line[64];
	pid_t pid = sleeper_group();

	ASSERT_EQ(0, run_hgctl(NULL, 0, "set %d --cpus=1", pid));
	EXPECT_EQ(2UL, hg_get_cpus(pid));
	EXPECT_TRUE(HG_POLL(hg_affinity(pid) == 2UL, HG_SETTLE_MS));
	ASSERT_EQ(0, run_hgctl(NULL, 0, "freeze %d --wait", pid));
	EXPECT_EQ(HGROUP_STATE_FROZEN, hg_freeze_state(pid));
	ASSERT_EQ(0, run_hgctl(out, sizeof(out), "show %d", pid));
	snprintf(line, sizeof(line), "pgrp %d ", pid);
	EXPECT_NE(NULL, strstr(out, line));
	EXPECT_NE(NULL, strstr(out, "freeze=all"));
	EXPECT_NE(NULL, strstr(out, "state=frozen"));
	ASSERT_EQ(0, run_hgctl(NULL, 0, "thaw %d", pid));
	EXPECT_EQ(0, hg_freeze_flags(pid));
	EXPECT_TRUE(HG_POLL(hg_freeze_state(pid) == 0, HG_FREEZE_MS));
	kill_reap(pid);
}

/*
 * --group, --weight-max and --cpu-max: run gives the new domain its
 * scheduling flags and CPU limits, show prints them on the domain's line,
 * set changes them from outside (one CPU limit keeping the other), and a
 * bad value fails before anything is done.
 */
TEST(group_run_set_show)
{
	static const char script[] =
		"hgctl show $$ | grep -o \"group=[a-z,]*\" | head -1; "
		"hgctl set $$ --domain --group=none; echo rc=$?";
	char out[4096], dom[32];
	pid_t pid;

	ASSERT_EQ(0, run_hgctl(out, sizeof(out),
			       "run --group=pgrp,domain -- /bin/sh -c 'PATH=%s:$PATH; %s'",
			       "/hg/bin", script));
	EXPECT_NE(NULL, strstr(out, "group=pgrp,domain"));
	/* A member cannot clear its own domain's flags: lifting. */
	EXPECT_NE(NULL, strstr(out, "EACCES"));
	EXPECT_NE(NULL, strstr(out, "rc=1"));

	EXPECT_EQ(2, run_hgctl(out, sizeof(out), "run --group=cpu -- true"));
	EXPECT_NE(NULL, strstr(out, "EINVAL"));

	/* CPU limits: given on run, read back by show. */
	ASSERT_EQ(0, run_hgctl(out, sizeof(out),
			       "run --weight-max=50 --cpu-max=20000/50000 -- /bin/sh -c 'PATH=%s:$PATH; hgctl show $$'",
			       "/hg/bin"));
	EXPECT_NE(NULL, strstr(out, "weight-max=50 cpu-max=20000/50000 "));
	/* The domain's memory: some, in kibibytes at least. */
	EXPECT_NE(NULL, strstr(out, " mem-peak="));
	EXPECT_NE(NULL, strstr(out, " mem-max=max "));
	EXPECT_EQ(NULL, strstr(out, " mem=?"));
	EXPECT_EQ(NULL, strstr(out, " mem=0 "));
	/* A memory limit given on run, in whole pages, read back by show. */
	ASSERT_EQ(0, run_hgctl(out, sizeof(out),
			       "run --mem-max=64M -- /bin/sh -c 'PATH=%s:$PATH; hgctl show $$'",
			       "/hg/bin"));
	EXPECT_NE(NULL, strstr(out, " mem-max=64M mem-soft=0 "));
	/* Both limits; then set changes one and keeps the other. */
	ASSERT_EQ(0, run_hgctl(out, sizeof(out),
			       "run --mem-max=64M --mem-soft=32M -- /bin/sh -c 'PATH=%s:$PATH; hgctl show $$; hgctl set $$ --mem-soft=16M; hgctl show $$; hgctl set $$ --mem-max=48M; hgctl show $$'",
			       "/hg/bin"));
	EXPECT_NE(NULL, strstr(out, " mem-max=64M mem-soft=32M "));
	EXPECT_NE(NULL, strstr(out, " mem-max=64M mem-soft=16M "));
	EXPECT_NE(NULL, strstr(out, " mem-max=48M mem-soft=16M "));
	/* A soft limit above the hard one. */
	EXPECT_EQ(127, run_hgctl(out, sizeof(out),
				 "run --mem-max=16M --mem-soft=32M -- true"));
	EXPECT_NE(NULL, strstr(out, "EINVAL"));
	EXPECT_EQ(2, run_hgctl(out, sizeof(out), "run --mem-soft=1T -- true"));
	EXPECT_EQ(2, run_hgctl(out, sizeof(out), "run --mem-max=12Q -- true"));
	EXPECT_NE(NULL, strstr(out, "EINVAL"));
	EXPECT_EQ(127, run_hgctl(out, sizeof(out), "run --mem-max=1 -- true"));
	EXPECT_NE(NULL, strstr(out, "EINVAL"));
	EXPECT_EQ(2, run_hgctl(out, sizeof(out), "run --cpu-max=lots -- true"));
	EXPECT_NE(NULL, strstr(out, "EINVAL"));
	EXPECT_EQ(2, run_hgctl(out, sizeof(out), "run --weight-max=0 -- true"));
	/* Below the scheduler's minimum quota: the kernel says EINVAL. */
	EXPECT_NE(0, run_hgctl(out, sizeof(out), "run --cpu-max=500 -- true"));
	EXPECT_NE(NULL, strstr(out, "EINVAL"));

	/* From outside: set, show, clear. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		CHILD_CHECK(new_domain() > 0);
		for (;;)
			pause();
	}
	ASSERT_TRUE(HG_POLL(sys_get_domainid(pid) == pid, HG_SETTLE_MS));
	snprintf(dom, sizeof(dom), "%d", pid);
	ASSERT_EQ(0, run_hgctl(NULL, 0, "set %s --domain --group=pgrp", dom));
	ASSERT_EQ(0, run_hgctl(out, sizeof(out), "show %s", dom));
	EXPECT_NE(NULL, strstr(out, "group=pgrp "));
	ASSERT_EQ(0, run_hgctl(NULL, 0, "set %s --domain --group=none", dom));
	ASSERT_EQ(0, run_hgctl(out, sizeof(out), "show %s", dom));
	EXPECT_NE(NULL, strstr(out, "group=none"));
	/* The weight alone keeps the quota, and the other way round. */
	ASSERT_EQ(0, run_hgctl(NULL, 0, "set %s --cpu-max=30000", dom));
	ASSERT_EQ(0, run_hgctl(NULL, 0, "set %s --weight-max=200", dom));
	ASSERT_EQ(0, run_hgctl(out, sizeof(out), "show %s", dom));
	EXPECT_NE(NULL, strstr(out, "weight-max=200 cpu-max=30000/100000 "));
	ASSERT_EQ(0, run_hgctl(NULL, 0, "set %s --cpu-max=max --weight-max=100",
			       dom));
	ASSERT_EQ(0, run_hgctl(out, sizeof(out), "show %s", dom));
	EXPECT_NE(NULL, strstr(out, "weight-max=100 cpu-max=max/100000 "));
	EXPECT_EQ(NULL, strstr(out, "budget-"));
	/* A process group's budget: set, shown with the group, left. */
	ASSERT_EQ(0, run_hgctl(NULL, 0,
			       "set %s --budget-cpu-max=20000/50000 --budget-weight-max=50",
			       dom));
	ASSERT_EQ(0, run_hgctl(out, sizeof(out), "show %s", dom));
	EXPECT_NE(NULL, strstr(out, "budget-weight-max=50 budget-cpu-max=20000/50000 "));
	/* The domain's limits are untouched. */
	EXPECT_NE(NULL, strstr(out, "weight-max=100 cpu-max=max/100000 "));
	EXPECT_EQ(2, run_hgctl(out, sizeof(out),
			       "set %s --domain --budget-cpu-max=20000", dom));
	EXPECT_EQ(2, run_hgctl(out, sizeof(out),
			       "set %s --budget-weight-max=x", dom));
	ASSERT_EQ(0, run_hgctl(NULL, 0,
			       "set %s --budget-cpu-max=max --budget-weight-max=10000",
			       dom));
	ASSERT_EQ(0, run_hgctl(out, sizeof(out), "show %s", dom));
	EXPECT_EQ(NULL, strstr(out, "budget-"));
	kill_reap(pid);
}

/*
 * The point of apply --recursive: with processes making new sessions in
 * a loop, every process group of the domain ends with the restriction.
 */
FIXTURE(slow) {
};

FIXTURE_SETUP(slow)
{
}

FIXTURE_TEARDOWN(slow)
{
}

TEST_F_TIMEOUT(slow, apply_recursive_misses_no_group_under_setsid_storm, 600)
{
	struct hg_proc *procs = calloc(HG_MAX_PROCS, sizeof(*procs));
	int i, n, groups = 0, wrong = 0, stop[2];
	pid_t dom;
	char c;

	ASSERT_NE(NULL, procs);
	ASSERT_EQ(0, pipe(stop));
	dom = fork();
	ASSERT_LE(0, dom);
	if (dom == 0) {
		close(stop[1]);
		CHILD_CHECK(new_domain() == getpid());
		fcntl(stop[0], F_SETFL, O_NONBLOCK);
		/* The storm: children that make a session and live a while. */
		while (read(stop[0], &c, 1) < 0) {
			pid_t k = fork();

			if (k == 0) {
				if (setsid() < 0)
					_exit(1);
				hg_sleep_ms(200);
				_exit(0);
			}
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
			hg_sleep_ms(5);
		}
		kill(0, SIGKILL);
		_exit(0);
	}
	close(stop[0]);
	hg_sleep_ms(500);
	EXPECT_EQ(0, run_hgctl(NULL, 0, "apply --recursive %d --cpus=0", dom));

	/* Every group of the domain now has the set, new ones too. */
	hg_sleep_ms(300);
	n = hg_scan_procs(procs);
	for (i = 0; i < n; i++) {
		unsigned long cpus;
		pid_t pgid;

		if (sys_get_domainid(procs[i].pid) != dom)
			continue;
		pgid = getpgid(procs[i].pid);
		cpus = pgid > 0 ? hg_get_cpus(pgid) : 0;
		if (!cpus)
			continue;	/* gone meanwhile */
		groups++;
		if (cpus != 1UL) {
			wrong++;
			fprintf(stderr, "# pgrp %d has cpus %lx\n", pgid,
				cpus);
		}
	}
	if (write(stop[1], "x", 1) != 1)
		kill(dom, SIGKILL);
	/* The storm ends with kill(0, SIGKILL), its leader included. */
	EXPECT_EQ(128 + SIGKILL, wait_exit(dom));
	EXPECT_LT(1, groups);
	EXPECT_EQ(0, wrong);
	free(procs);
}

TEST_HARNESS_MAIN
