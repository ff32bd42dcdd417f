/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hgroups selftests: system call wrappers and helpers.
 */
#ifndef __HGROUP_UTIL_H
#define __HGROUP_UTIL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef __NR_set_domainid
#define __NR_set_domainid 463
#endif
#ifndef __NR_get_domainid
#define __NR_get_domainid 464
#endif

#ifndef __NR_hgroup_set_attr
#define __NR_hgroup_set_attr 465
#endif
#ifndef __NR_hgroup_get_attr
#define __NR_hgroup_get_attr 466
#endif

static inline long sys_hgroup_set_attr(pid_t pgid, unsigned int attr,
				       const void *uattr, size_t size,
				       unsigned int flags)
{
	return syscall(__NR_hgroup_set_attr, pgid, attr, uattr, size, flags);
}

static inline long sys_hgroup_get_attr(pid_t pgid, unsigned int attr,
				       void *uattr, size_t size,
				       unsigned int flags)
{
	return syscall(__NR_hgroup_get_attr, pgid, attr, uattr, size, flags);
}

static inline long sys_set_domainid(unsigned int flags)
{
	return syscall(__NR_set_domainid, flags);
}

static inline long sys_get_domainid(pid_t pid)
{
	return syscall(__NR_get_domainid, pid);
}

/*
 * Checks inside forked children, where the harness's ASSERT_*() cannot
 * report: print what failed and exit non-zero, which the parent asserts.
 */
#define CHILD_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "# %s:%d: child %d: check failed: %s "	\
			"(errno %d: %s)\n", __FILE__, __LINE__,		\
			getpid(), #cond, errno, strerror(errno));	\
		_exit(1);						\
	}								\
} while (0)

/* Reap @pid: its exit status, or 128 + signal, or -1 on wait failure. */
static inline int wait_exit(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

/* setsid() then set_domainid(0): the usual way to start a domain. */
static inline long new_domain(void)
{
	if (setsid() < 0)
		return -1;
	return sys_set_domainid(0);
}

#endif /* __HGROUP_UTIL_H */
