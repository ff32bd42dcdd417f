// SPDX-License-Identifier: GPL-2.0
/*
 * Helper exec()ed by domain_test:
 *   exec_helper domain EXPECTED
 *	exit 0 if get_domainid(0) is EXPECTED and /proc/self/status agrees;
 *   exec_helper thread-exec EXPECTED
 *	exec "exec_helper domain EXPECTED" from a second thread, so that the
 *	kernel moves the pid links to the new leader (de_thread()).
 */
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

	if (argc != 3)
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
	return 2;
}
