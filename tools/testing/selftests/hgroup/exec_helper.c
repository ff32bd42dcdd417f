// SPDX-License-Identifier: GPL-2.0
/*
 * Helper exec()ed by domain_test:
 *   exec_helper domain EXPECTED
 *	exit 0 if get_domainid(0) is EXPECTED and /proc/self/status agrees;
 *   exec_helper thread-exec EXPECTED
 *	exec "exec_helper domain EXPECTED" from a second thread, so that the
 *	kernel moves the pid links to the new leader (de_thread());
 * and, exec()ed by restrict_test:
 *   exec_helper cpus MASK
 *	exit 0 if the affinity is MASK (hex) and stays MASK after asking
 *	for every CPU;
 *   exec_helper open PATH ERRNO
 *	exit 0 if open(PATH, O_RDONLY) fails with ERRNO, or succeeds if
 *	ERRNO is 0.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>

#include "hgroup_util.h"

static char *self;
static char *expected;

static long status_domain(void)
{
	char line[256];
	long dom = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Domain: %ld", &dom) == 1)
			break;
	fclose(f);
	return dom;
}

static void *exec_thread(void *arg)
{
	execl(self, self, "domain", expected, (char *)NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	long want;

	if (argc != 3 && argc != 4)
		return 2;
	self = argv[0];
	expected = argv[2];
	want = strtol(expected, NULL, 10);
	if (!strcmp(argv[1], "domain")) {
		if (sys_get_domainid(0) != want)
			return 3;
		return status_domain() == want ? 0 : 4;
	}
	if (!strcmp(argv[1], "thread-exec")) {
		if (pthread_create(&t, NULL, exec_thread, NULL))
			return 5;
		pthread_join(t, NULL);
		return 6;	/* exec failed */
	}
#ifdef HGROUP_SCOPE_DOMAIN
	if (!strcmp(argv[1], "cpus")) {
		unsigned long mask = strtoul(argv[2], NULL, 16);

		if (hg_affinity(0) != mask)
			return 7;
		if (hg_set_affinity(0, ~0UL))
			return 8;
		return hg_affinity(0) == mask ? 0 : 9;
	}
#endif
	if (!strcmp(argv[1], "open") && argc == 4) {
		int err = atoi(argv[3]);
		int fd = open(argv[2], O_RDONLY);

		if (fd >= 0)
			return err ? 10 : 0;
		return errno == err ? 0 : 11;
	}
	return 2;
}
