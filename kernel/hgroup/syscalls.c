// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: system calls.  Only argument checks live here; the work is done
 * in domain.c.  The ABI is documented in include/uapi/linux/hgroup.h.
 */

#include <linux/syscalls.h>
#include <uapi/linux/hgroup.h>

#include "hgroup.h"

/**
 * sys_set_domainid - start a new process domain
 * @flags: must be 0.
 *
 * The caller must be the only process in its session and in its process
 * group, and must be in domain 0 of its own PID namespace.  The new domain
 * is subordinate to the caller's domain, its id is the caller's pid and
 * its leader process group is the caller's process group.  The caller,
 * and every process it starts from now on, is in the new domain for good.
 *
 * Return: the new domain's id (the caller's pid) on success, or:
 *
 * - %EINVAL: @flags has an unknown bit set;
 * - %EPERM: the caller is not in domain 0 of its PID namespace;
 * - %EBUSY: another process, zombies included, is in the caller's session
 *   or process group;
 * - %ENOMEM: out of memory.
 */
SYSCALL_DEFINE1(set_domainid, unsigned int, flags)
{
	if (flags)
		return -EINVAL;
	return hgroup_domain_create();
}

/**
 * sys_get_domainid - get the process domain of a process
 * @pid: the process, or 0 for the caller.
 *
 * Like getsid(): the id is the pid of the domain's creator as seen from
 * the caller's PID namespace, and 0 for the domain that holds the
 * namespace's init (any domain whose creator the caller cannot see).
 *
 * Return: the domain id, or:
 *
 * - %ESRCH: no process with that pid is visible to the caller (negative
 *   pids included).
 */
SYSCALL_DEFINE1(get_domainid, pid_t, pid)
{
	return hgroup_domain_of(pid);
}
