// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups benchmark: can an unprivileged user stall the rest of the
 * system?  Not a test: it only prints times.
 *
 *   bench_stall [-g GROUPS] [-k RULES] [-n FORKS] [-r REPETITIONS]
 *
 * A user (uid 1000) makes a domain of GROUPS one-process groups and, from
 * outside it, changes its device list with the domain scope over and
 * over, between two lists of RULES rules (255) that take long to compare
 * (the second narrows the first by one rule).  Meanwhile root times
 * fork+exit, one by one: FORKS of them, and under churn for as long as
 * the churn takes to make 4 changes.  Each repetition times the loop with
 * the churn ("busy") and without ("idle").
 * Output: "stall LOOP REP MAX_MS MEDIAN_US CHANGES FORKS" per loop and
 * repetition, CHANGES being the device-list changes made meanwhile.
 */
#define _GNU_SOURCE
#include <linux/hgroup.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "hgroup_util.h"

struct shared {
	long changes;
	int ready;
	int stop;
	pid_t pgid;
};

static struct shared *sh;

static void die(const char *what)
{
	fprintf(stderr, "bench_stall: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* The domain: its leader makes @groups - 1 more one-process groups. */
static void domain_main(int groups)
{
	int i;

	if (new_domain() < 0)
		die("set_domainid");
	for (i = 1; i < groups; i++) {
		pid_t c = fork();

		if (c < 0)
			die("fork");
		if (c == 0) {
			if (setsid() < 0)
				die("setsid");
			for (;;)
				pause();
		}
	}
	__atomic_store_n(&sh->ready, 1, __ATOMIC_SEQ_CST);
	for (;;)
		pause();
}

static void churn_main(int groups, int rules)
{
	struct hgroup_dev_rule *a = calloc(rules + 1, sizeof(*a));
	struct hgroup_dev_rule *b = calloc(rules + 1, sizeof(*b));
	/*
	 * Two lists that take the longest to compare: @b is @a backwards
	 * plus one rule, so that every rule is looked for in the other list
	 * and found late, or not at all.
	 */
	struct hgroup_devices la = {
		.policy = HGROUP_DEV_POLICY_ALLOW,
		.nr_rules = rules,
		.rules = (unsigned long)a,
	};
	struct hgroup_devices lb = {
		.policy = HGROUP_DEV_POLICY_ALLOW,
		.nr_rules = rules + 1,
		.rules = (unsigned long)b,
	};
	pid_t d;
	int i;

	if (!a || !b)
		die("calloc");
	for (i = 0; i <= rules; i++) {
		a[i].type = HGROUP_DEV_CHAR;
		a[i].major = 1;
		a[i].minor = 100 + i;
		a[i].access = HGROUP_DEV_ACC_ALL;
	}
	for (i = 0; i < rules; i++)
		b[rules - 1 - i] = a[i];
	b[rules] = a[rules];
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || hg_become(1000))
		die("become user");
	d = fork();
	if (d < 0)
		die("fork");
	if (d == 0)
		domain_main(groups);
	while (!__atomic_load_n(&sh->ready, __ATOMIC_SEQ_CST)) {
		if (waitpid(d, NULL, WNOHANG))
			die("domain");
		usleep(10000);
	}
	sh->pgid = d;
	while (!__atomic_load_n(&sh->stop, __ATOMIC_SEQ_CST)) {
		if (sys_hgroup_set_attr(d, HGROUP_ATTR_DEVICES, &lb,
					sizeof(lb), HGROUP_SCOPE_DOMAIN) ||
		    sys_hgroup_set_attr(d, HGROUP_ATTR_DEVICES, &la,
					sizeof(la), HGROUP_SCOPE_DOMAIN))
			die("hgroup_set_attr");
		__atomic_add_fetch(&sh->changes, 2, __ATOMIC_SEQ_CST);
	}
	kill(-d, SIGKILL);
	_exit(0);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Time fork+exit one by one, at least @n of them and, with @changes, for
 * as long as the churn takes to make that many changes; print the max
 * and the median.
 */
static void time_forks(const char *loop, long rep, long n, long changes)
{
	long i, start = __atomic_load_n(&sh->changes, __ATOMIC_SEQ_CST);
	static double *t;
	static long room;

	for (i = 0; i < n || (changes &&
			      __atomic_load_n(&sh->changes, __ATOMIC_SEQ_CST) -
			      start < changes); i++) {
		double t0 = hg_seconds();
		pid_t c;

		if (i == room) {
			room = room ? 2 * room : 1024;
			t = realloc(t, room * sizeof(*t));
			if (!t)
				die("realloc");
		}
		c = fork();
		if (c < 0)
			die("fork");
		if (c == 0)
			_exit(0);
		if (wait_exit(c) != 0)
			die("wait");
		t[i] = hg_seconds() - t0;
	}
	qsort(t, i, sizeof(*t), cmp);
	printf("stall %s %ld %.3f %.1f %ld %ld\n", loop, rep, t[i - 1] * 1e3,
	       t[i / 2] * 1e6,
	       __atomic_load_n(&sh->changes, __ATOMIC_SEQ_CST) - start, i);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	long n = 200, reps = 3, groups = 1200, rules = 255, r;
	pid_t churner;
	int opt;

	while ((opt = getopt(argc, argv, "g:k:n:r:")) != -1) {
		if (opt == 'g')
			groups = strtol(optarg, NULL, 10);
		else if (opt == 'k')
			rules = strtol(optarg, NULL, 10);
		else if (opt == 'n')
			n = strtol(optarg, NULL, 10);
		else if (opt == 'r')
			reps = strtol(optarg, NULL, 10);
		else
			return 2;
	}
	if (n <= 0 || reps <= 0 || groups <= 0 || rules <= 0 ||
	    rules >= HGROUP_DEV_MAX_RULES)
		return 2;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("memory");
	for (r = 0; r < reps; r++) {
		time_forks("idle", r, n, 0);
		sh->ready = 0;
		sh->stop = 0;
		churner = fork();
		if (churner < 0)
			die("fork");
		if (churner == 0)
			churn_main(groups, rules);
		/* Let the churn start. */
		while (__atomic_load_n(&sh->changes, __ATOMIC_SEQ_CST) < 2) {
			if (waitpid(churner, NULL, WNOHANG))
				die("churner");
			usleep(10000);
		}
		time_forks("busy", r, n, 4);
		__atomic_store_n(&sh->stop, 1, __ATOMIC_SEQ_CST);
		wait_exit(churner);
		/* The domain's processes are SIGKILLed; let them go. */
		while (!kill(-sh->pgid, 0))
			usleep(10000);
	}
	return 0;
}
