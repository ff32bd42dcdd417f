// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups benchmark: the cost of charging memory.  A child faults in
 * 256 MiB of anonymous memory, one write per page, and unmaps it, N times;
 * the loop is timed in the child, in each of:
 *
 *   memroot  domain 0 (not charged), the root cgroup: on the baseline
 *            kernel, no hgroups at all
 *   memdom   a domain of its own, which charges every page to it
 *   memlim   the same with a hard limit it does not reach (512M)
 *   memcg    a memory cgroup with memory.max = 512M, in domain 0
 *
 * The loops run one after the other in each repetition, so that they are
 * compared side by side in one boot.  memdom and memcg need the hgroup
 * kernel and a memory controller; they are left out where they cannot run.
 * Prints "bench LOOP REP SECONDS" lines for mk/bench.sh.
 *
 *   bench_mem [-n ITERATIONS] [-r REPETITIONS] [-m MIB]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "hgroup_util.h"

#define CG	"/sys/fs/cgroup"

enum where { ROOT, DOMAIN, LIMITED, MEMCG };

static size_t len;

/* One timed loop in a child placed by @where; seconds, or -1. */
static double fault_loop(enum where where, long n)
{
	int fds[2];
	double t = -1;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		char self[32];
		double t0;
		long i;
		size_t off;

		snprintf(self, sizeof(self), "%d", getpid());
		if ((where == DOMAIN || where == LIMITED) && new_domain() <= 0)
			_exit(1);
		if (where == LIMITED) {
			struct hgroup_mem m = { .max = 512ULL << 20 };

			if (sys_hgroup_set_attr(0, HGROUP_ATTR_MEM, &m,
						sizeof(m), HGROUP_SCOPE_DOMAIN))
				_exit(1);
		}
		if (where == MEMCG &&
		    hg_write_file(CG "/hgbench_mem/cgroup.procs", self))
			_exit(1);
		t0 = hg_seconds();
		for (i = 0; i < n; i++) {
			char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				_exit(1);
			for (off = 0; off < len; off += 4096)
				p[off] = 1;
			munmap(p, len);
		}
		t0 = hg_seconds() - t0;
		if (write(fds[1], &t0, sizeof(t0)) != sizeof(t0))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (pid > 0 && read(fds[0], &t, sizeof(t)) != sizeof(t))
		t = -1;
	close(fds[0]);
	if (pid < 0 || wait_exit(pid))
		return -1;
	return t;
}

static int memcg_setup(void)
{
	if (access(CG "/cgroup.controllers", F_OK) &&
	    mount("none", CG, "cgroup2", 0, NULL))
		return -1;
	if (hg_write_file(CG "/cgroup.subtree_control", "+memory"))
		return -1;
	if (mkdir(CG "/hgbench_mem", 0755) && errno != EEXIST)
		return -1;
	return hg_write_file(CG "/hgbench_mem/memory.max", "512M");
}

int main(int argc, char **argv)
{
	long n = 20, reps = 3, mib = 256, r;
	int have_domain, have_memcg, c;

	while ((c = getopt(argc, argv, "n:r:m:")) != -1) {
		switch (c) {
		case 'n':
			n = atol(optarg);
			break;
		case 'r':
			reps = atol(optarg);
			break;
		case 'm':
			mib = atol(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-n N] [-r R] [-m MIB]\n",
				argv[0]);
			return 2;
		}
	}
	len = mib << 20;
	have_domain = sys_get_domainid(0) >= 0;
	have_memcg = !memcg_setup();
	if (!have_memcg)
		fprintf(stderr, "bench_mem: no memory cgroup, memcg left out\n");
	for (r = 0; r < reps; r++) {
		printf("bench memroot %ld %.6f\n", r, fault_loop(ROOT, n));
		if (have_domain) {
			printf("bench memdom %ld %.6f\n", r,
			       fault_loop(DOMAIN, n));
			printf("bench memlim %ld %.6f\n", r,
			       fault_loop(LIMITED, n));
		}
		if (have_memcg)
			printf("bench memcg %ld %.6f\n", r,
			       fault_loop(MEMCG, n));
		fflush(stdout);
	}
	rmdir(CG "/hgbench_mem");
	return 0;
}
