// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups benchmark: scheduling groups, side by side in one boot of the
 * hgroup kernel.  Not a test: it only prints times.
 *
 *   bench_sched [-p ROUNDTRIPS] [-n LOOPS] [-r REPETITIONS]
 *
 * Loops, interleaved within each repetition, each in a domain of its own:
 *   ppflat      ROUNDTRIPS of a one-byte pipe ping-pong between two
 *               processes pinned to CPU 0, in one session: no group
 *               between them (one autogroup), as perf bench sched pipe
 *   ppauto      the same, each in a session of its own: two autogroups
 *   pphg1       each in a process group of its own in a domain with
 *               HGROUP_SCHED_GROUP_PGRPS: one level of hgroup groups
 *   pphg2       each in a sub-domain of its own (in a PID namespace) of a
 *               domain with both flags: two levels
 *   ppcg2       each in a cgroup v2 leaf two levels down (hgpp/a/x and
 *               hgpp/b/y, +cpu): two levels of cpu cgroups
 *   setsidgrp   LOOPS x fork, exec of setsid /bin/echo hi, in a domain
 *               with HGROUP_SCHED_GROUP_PGRPS: a task group made and
 *               freed per iteration (and an autogroup, as always)
 *   setsidoff   the same in a domain without grouping
 *   setpgidgrp  LOOPS x fork, setpgid(0, 0), exit, grouped
 *   setpgidoff  the same without grouping
 * Output: one line "bench LOOP REP SECONDS" per loop and repetition;
 * and once, "mem pgrp GROUPED NOT" (-m PROCESSES, 0 for none): the kernel
 * memory (Slab in /proc/meminfo) per sleeping process alone in its
 * process group, in a domain with HGROUP_SCHED_GROUP_PGRPS and without:
 * the difference is a task group's cost.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/hgroup.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "hgroup_util.h"

#define CG	"/sys/fs/cgroup"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum { FLAT, AUTO, HG1, HG2, CG2, NR_PP };

static const char *const pp_names[NR_PP] = {
	"ppflat", "ppauto", "pphg1", "pphg2", "ppcg2"
};

static double *result;
static int have_cg;

static void die(const char *what)
{
	fprintf(stderr, "bench_sched: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int set_sched(unsigned int flags)
{
	struct hgroup_sched s = { .flags = flags };

	return sys_hgroup_set_attr(0, HGROUP_ATTR_SCHED, &s, sizeof(s),
				   HGROUP_SCOPE_DOMAIN);
}

/* Two levels of cpu cgroups: hgpp/a/x and hgpp/b/y. */
static int cg_setup(void)
{
	static const char *const dirs[] = {
		CG "/hgpp", CG "/hgpp/a", CG "/hgpp/b", CG "/hgpp/a/x",
		CG "/hgpp/b/y",
	};
	static const char *const ctl[] = {
		CG "/cgroup.subtree_control",
		CG "/hgpp/cgroup.subtree_control",
		CG "/hgpp/a/cgroup.subtree_control",
		CG "/hgpp/b/cgroup.subtree_control",
	};
	unsigned int i;

	mkdir(CG, 0755);
	if (access(CG "/cgroup.controllers", F_OK) &&
	    mount("none", CG, "cgroup2", 0, NULL))
		return -1;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (mkdir(dirs[i], 0755) && errno != EEXIST)
			return -1;
	for (i = 0; i < ARRAY_SIZE(ctl); i++)
		if (hg_write_file(ctl[i], "+cpu"))
			return -1;
	return 0;
}

static void pin0(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(0, &s);
	if (sched_setaffinity(0, sizeof(s), &s))
		die("sched_setaffinity");
}

/* Put a side of the ping-pong where configuration @how says. */
static void place(int how, int side)
{
	char pid[32];
	pid_t p;

	switch (how) {
	case AUTO:
		if (setsid() < 0)
			die("setsid");
		break;
	case HG1:
		if (setpgid(0, 0))
			die("setpgid");
		break;
	case HG2:
		if (unshare(CLONE_NEWPID))
			die("unshare");
		p = fork();
		if (p < 0)
			die("fork");
		if (p)
			_exit(wait_exit(p));
		if (new_domain() < 0)
			die("set_domainid");
		break;
	case CG2:
		snprintf(pid, sizeof(pid), "%d", getpid());
		if (hg_write_file(side ? CG "/hgpp/b/y/cgroup.procs" :
					 CG "/hgpp/a/x/cgroup.procs", pid))
			die("cgroup.procs");
		break;
	}
	pin0();
}

/* @n round trips in configuration @how: seconds. */
static double pingpong(int how, long n)
{
	pid_t runner = fork();

	if (runner < 0)
		die("fork");
	if (!runner) {
		int a[2], b[2];
		pid_t ping, pong;
		char c = 0;
		long i;

		if (new_domain() < 0)
			die("set_domainid");
		if (set_sched(how == HG1 ? HGROUP_SCHED_GROUP_PGRPS :
			      how == HG2 ? HGROUP_SCHED_GROUP_PGRPS |
					   HGROUP_SCHED_GROUP_DOMAINS : 0))
			die("hgroup_set_attr");
		if (pipe(a) || pipe(b))
			die("pipe");
		pong = fork();
		if (!pong) {
			place(how, 1);
			while (read(a[0], &c, 1) == 1)
				if (write(b[1], &c, 1) != 1)
					break;
			_exit(0);
		}
		ping = fork();
		if (!ping) {
			double t0;

			place(how, 0);
			/* Both sides in place: one round trip first. */
			if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
				die("pipe");
			t0 = hg_seconds();
			for (i = 0; i < n; i++)
				if (write(a[1], &c, 1) != 1 ||
				    read(b[0], &c, 1) != 1)
					die("pipe");
			*result = hg_seconds() - t0;
			_exit(0);
		}
		if (pong < 0 || ping < 0 || wait_exit(ping))
			die("ping");
		kill(pong, SIGKILL);
		wait_exit(pong);
		_exit(0);
	}
	if (wait_exit(runner))
		exit(1);
	return *result;
}

static int run_echo(const char *prog, int devnull)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(devnull, 1);
		execl(prog, prog, "/bin/echo", "hi", (char *)NULL);
		_exit(127);
	}
	return wait_exit(pid);
}

/* Slab of /proc/meminfo, in kB; -1 if unreadable. */
static long slab_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * Kernel memory per process, each sleeping in a process group of its
 * own, in a domain with @flags: bytes, from the Slab growth over @n.
 */
static double bytes_per_pgrp(unsigned int flags, int n)
{
	int *ready = (int *)(result + 1);
	pid_t runner = fork();

	if (runner < 0)
		die("fork");
	if (!runner) {
		pid_t *kids = calloc(n, sizeof(*kids));
		long kb0, kb1;
		int i;

		if (!kids)
			die("calloc");
		if (new_domain() < 0)
			die("set_domainid");
		if (set_sched(flags))
			die("hgroup_set_attr");
		*ready = 0;
		/* Warm the caches a first fork fills. */
		if (!fork())
			_exit(0);
		wait(NULL);
		kb0 = slab_kb();
		for (i = 0; i < n; i++) {
			pid_t p = fork();

			if (p < 0)
				die("fork");
			kids[i] = p;
			if (!p) {
				setpgid(0, 0);
				__atomic_add_fetch(ready, 1, __ATOMIC_SEQ_CST);
				for (;;)
					pause();
			}
		}
		while (__atomic_load_n(ready, __ATOMIC_SEQ_CST) < n)
			usleep(1000);
		usleep(100000);
		kb1 = slab_kb();
		*result = (kb1 - kb0) * 1024.0 / n;
		for (i = 0; i < n; i++)
			kill(kids[i], SIGKILL);
		for (i = 0; i < n; i++)
			wait_exit(kids[i]);
		_exit(0);
	}
	if (wait_exit(runner))
		exit(1);
	return *result;
}

/* @n iterations of a loop in a domain with @flags: seconds. */
static double in_domain_loop(unsigned int flags, long n, int setsid_loop)
{
	pid_t runner = fork();

	if (runner < 0)
		die("fork");
	if (!runner) {
		int devnull = open("/dev/null", O_WRONLY);
		double t0;
		long i;

		if (new_domain() < 0)
			die("set_domainid");
		if (set_sched(flags))
			die("hgroup_set_attr");
		if (setsid_loop) {
			t0 = hg_seconds();
			for (i = 0; i < n; i++)
				if (run_echo("/bin/setsid", devnull))
					die("setsid /bin/echo");
			*result = hg_seconds() - t0;
		} else {
			*result = hg_fork_loop(n, 1);
		}
		_exit(*result < 0);
	}
	if (wait_exit(runner))
		exit(1);
	return *result;
}

int main(int argc, char **argv)
{
	long n = 1000, trips = 20000, reps = 3, r, mem = 200;
	int opt, how;

	while ((opt = getopt(argc, argv, "m:n:p:r:")) != -1) {
		if (opt == 'm')
			mem = strtol(optarg, NULL, 10);
		else if (opt == 'n')
			n = strtol(optarg, NULL, 10);
		else if (opt == 'p')
			trips = strtol(optarg, NULL, 10);
		else if (opt == 'r')
			reps = strtol(optarg, NULL, 10);
		else
			return 2;
	}
	if (n <= 0 || trips <= 0 || reps <= 0)
		return 2;
	result = mmap(NULL, 64, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (result == MAP_FAILED)
		die("mmap");
	have_cg = !cg_setup();
	if (!have_cg)
		fprintf(stderr, "bench_sched: no cpu cgroup (%s): no ppcg2\n",
			strerror(errno));
	if (mem > 0) {
		double grouped = bytes_per_pgrp(HGROUP_SCHED_GROUP_PGRPS, mem);

		printf("mem pgrp %.0f %.0f\n", grouped, bytes_per_pgrp(0, mem));
		fflush(stdout);
	}
	for (r = 0; r < reps; r++) {
		for (how = 0; how < NR_PP; how++) {
			if (how == CG2 && !have_cg)
				continue;
			printf("bench %s %ld %.6f\n", pp_names[how], r,
			       pingpong(how, trips));
			fflush(stdout);
		}
		printf("bench setsidgrp %ld %.6f\n", r,
		       in_domain_loop(HGROUP_SCHED_GROUP_PGRPS, n, 1));
		printf("bench setsidoff %ld %.6f\n", r, in_domain_loop(0, n, 1));
		printf("bench setpgidgrp %ld %.6f\n", r,
		       in_domain_loop(HGROUP_SCHED_GROUP_PGRPS, n, 0));
		printf("bench setpgidoff %ld %.6f\n", r, in_domain_loop(0, n, 0));
		fflush(stdout);
	}
	return 0;
}
