// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups benchmark loops, run by "make bench" on the baseline and the
 * hgroup kernel.  Not a test: it only prints times.
 *
 *   bench_domain [-n ITERATIONS] [-r REPETITIONS]
 *
 * Loops, interleaved within each repetition:
 *   setsid   ITERATIONS x fork + exec "/bin/setsid /bin/echo hi"
 *   env      ITERATIONS x fork + exec "/bin/env /bin/echo hi"
 *            (the article's pair: the same work, except that setsid makes
 *            a new session and process group)
 *   setpgid  ITERATIONS x fork, setpgid(0, 0) in the child, exit
 *   fork     ITERATIONS x fork, exit
 * Output: one line "bench LOOP REP SECONDS" per loop and repetition.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <time.h>

#include "hgroup_util.h"

/* fork + exec "@prog /bin/echo hi" with stdout on /dev/null. */
static int run_echo(const char *prog, int devnull)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(devnull, 1);
		execl(prog, prog, "/bin/echo", "hi", (char *)NULL);
		_exit(127);
	}
	return wait_exit(pid);
}

static double loop_exec(const char *prog, long n, int devnull)
{
	double t0 = hg_seconds();
	long i;

	for (i = 0; i < n; i++)
		if (run_echo(prog, devnull))
			return -1;
	return hg_seconds() - t0;
}

int main(int argc, char **argv)
{
	long n = 10000, reps = 3, r;
	int opt, devnull = open("/dev/null", O_WRONLY);

	while ((opt = getopt(argc, argv, "n:r:")) != -1) {
		if (opt == 'n')
			n = strtol(optarg, NULL, 10);
		else if (opt == 'r')
			reps = strtol(optarg, NULL, 10);
		else
			return 2;
	}
	if (devnull < 0 || n <= 0 || reps <= 0)
		return 2;
	for (r = 0; r < reps; r++) {
		printf("bench setsid %ld %.6f\n", r, loop_exec("/bin/setsid", n, devnull));
		printf("bench env %ld %.6f\n", r, loop_exec("/bin/env", n, devnull));
		printf("bench setpgid %ld %.6f\n", r, hg_fork_loop(n, 1));
		printf("bench fork %ld %.6f\n", r, hg_fork_loop(n, 0));
		fflush(stdout);
	}
	return 0;
}
