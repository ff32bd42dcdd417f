// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups benchmark: restrictions against the cgroup controllers that do
 * the same job, side by side in one boot of the hgroup kernel.  Not a
 * test: it only prints times.
 *
 *   bench_restrict [-n FORKS] [-t THREADS] [-r REPETITIONS]
 *
 * Loops, interleaved within each repetition:
 *   hgpush   a CPU-set change of the process group of THREADS sleeping
 *            threads, until every thread's affinity shows it
 *   cgpush   the same change made by writing cpuset.cpus of a cgroup
 *            holding the same threads
 *   hgfork   FORKS x fork, exit in a domain with a task limit
 *   pidsfork FORKS x fork, exit in a cgroup with pids.max
 *   fork     FORKS x fork, exit with neither
 * Output: one line "bench LOOP REP SECONDS" per loop and repetition.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/hgroup.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>

#include "hgroup_util.h"

#define CG	"/sys/fs/cgroup"

static void die(const char *what)
{
	fprintf(stderr, "bench_restrict: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int cg_setup(void)
{
	mkdir(CG, 0755);
	if (access(CG "/cgroup.controllers", F_OK) &&
	    mount("none", CG, "cgroup2", 0, NULL))
		return -1;
	if (hg_write_file(CG "/cgroup.subtree_control", "+cpuset +pids"))
		return -1;
	mkdir(CG "/hgbench", 0755);
	return hg_write_file(CG "/hgbench/pids.max", "1000000");
}

/* The threads of the pushed group, shared with the parent. */
struct sleepers {
	int started;
	pid_t tids[];
};

static struct sleepers *sl;
static int nr_tids;
static pid_t target;

static int set_cpus(unsigned long mask)
{
	struct hgroup_mask m = {
		.mask = (unsigned long)&mask,
		.mask_size = sizeof(mask),
	};

	return sys_hgroup_set_attr(target, HGROUP_ATTR_CPUS, &m, sizeof(m),
				   0);
}

static void *sleeper(void *arg)
{
	sl->tids[(long)arg] = gettid();
	__atomic_add_fetch(&sl->started, 1, __ATOMIC_SEQ_CST);
	for (;;)
		pause();
	return NULL;
}

/* Wait until every thread's affinity is @mask. */
static void wait_affinity(unsigned long mask)
{
	int i = 0;

	while (i < nr_tids) {
		cpu_set_t s;
		unsigned long got = 0;
		int c;

		if (sched_getaffinity(sl->tids[i], sizeof(s), &s))
			die("sched_getaffinity");
		for (c = 0; c < 64; c++)
			if (CPU_ISSET(c, &s))
				got |= 1UL << c;
		if (got == mask)
			i++;
		else
			sched_yield();
	}
}

static double push_hgroup(unsigned long mask, unsigned long all)
{
	double t0 = hg_seconds(), dt;

	if (set_cpus(mask))
		die("hgroup_set_attr");
	wait_affinity(mask);
	dt = hg_seconds() - t0;
	if (set_cpus(all))
		die("hgroup_set_attr");
	wait_affinity(all);
	return dt;
}

static double push_cgroup(const char *cpus, unsigned long mask,
			  const char *all_cpus, unsigned long all)
{
	double t0 = hg_seconds(), dt;

	if (hg_write_file(CG "/hgbench/cpuset.cpus", cpus))
		die("cpuset.cpus");
	wait_affinity(mask);
	dt = hg_seconds() - t0;
	if (hg_write_file(CG "/hgbench/cpuset.cpus", all_cpus))
		die("cpuset.cpus");
	wait_affinity(all);
	return dt;
}

/*
 * The push loops: a child in its own process group and in the cgroup
 * holds THREADS sleeping threads; the parent, whose own group is not
 * restricted, changes the child's group (a group cannot lift itself).
 */
static int run_push(int threads, long reps)
{
	char self[32];
	pthread_t t;
	long i, r;

	sl = mmap(NULL, sizeof(*sl) + threads * sizeof(pid_t),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sl == MAP_FAILED)
		die("mmap");
	nr_tids = threads;
	target = fork();
	if (target < 0)
		die("fork");
	if (target == 0) {
		if (setsid() < 0)
			die("setsid");
		snprintf(self, sizeof(self), "%d", getpid());
		if (hg_write_file(CG "/hgbench/cgroup.procs", self))
			die("cgroup.procs");
		for (i = 0; i < threads; i++)
			if (pthread_create(&t, NULL, sleeper, (void *)i))
				die("pthread_create");
		for (;;)
			pause();
	}
	while (__atomic_load_n(&sl->started, __ATOMIC_SEQ_CST) < threads)
		usleep(1000);
	for (r = 0; r < reps; r++) {
		unsigned long m = r & 1 ? 2 : 1;

		printf("bench hgpush %ld %.9f\n", r, push_hgroup(m, 3));
		printf("bench cgpush %ld %.9f\n", r,
		       push_cgroup(r & 1 ? "1" : "0", m, "0-1", 3));
		fflush(stdout);
	}
	kill(target, SIGKILL);
	return wait_exit(target) == 128 + SIGKILL ? 0 : 1;
}

/* One fork loop in a child: 0 plain, 1 in a limited domain, 2 in pids. */
static double fork_in(int where, long n)
{
	struct hgroup_tasks tasks = { .max = 1000000 };
	int p[2];
	double dt = -1;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		char self[32];

		snprintf(self, sizeof(self), "%d", getpid());
		if (where == 1 && (new_domain() < 0 ||
				   sys_hgroup_set_attr(0, HGROUP_ATTR_TASKS,
						       &tasks, sizeof(tasks),
						       HGROUP_SCOPE_DOMAIN)))
			_exit(1);
		if (where == 2 &&
		    hg_write_file(CG "/hgbench/cgroup.procs", self))
			_exit(1);
		dt = hg_fork_loop(n, 0);
		if (write(p[1], &dt, sizeof(dt)) != sizeof(dt))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &dt, sizeof(dt)) != sizeof(dt))
		dt = -1;
	close(p[0]);
	wait_exit(pid);
	return dt;
}

int main(int argc, char **argv)
{
	long n = 10000, reps = 5, threads = 1000, r;
	int opt;

	while ((opt = getopt(argc, argv, "n:r:t:")) != -1) {
		if (opt == 'n')
			n = strtol(optarg, NULL, 10);
		else if (opt == 'r')
			reps = strtol(optarg, NULL, 10);
		else if (opt == 't')
			threads = strtol(optarg, NULL, 10);
		else
			return 2;
	}
	if (n <= 0 || reps <= 0 || threads <= 0)
		return 2;
	if (cg_setup()) {
		perror("bench_restrict: cgroup setup");
		return 1;
	}
	if (run_push(threads, reps))
		return 1;
	for (r = 0; r < reps; r++) {
		printf("bench hgfork %ld %.6f\n", r, fork_in(1, n));
		printf("bench pidsfork %ld %.6f\n", r, fork_in(2, n));
		printf("bench fork0 %ld %.6f\n", r, fork_in(0, n));
		fflush(stdout);
	}
	return 0;
}
