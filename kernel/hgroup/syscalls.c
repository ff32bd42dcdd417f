// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: system calls.  Only argument checks and copies live here; the
 * work is done in domain.c and restrict.c.  The ABI is documented in
 * include/uapi/linux/hgroup.h.
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
 * - %EPERM: the caller is not in domain 0 of its PID namespace, or
 *   (checked after %EBUSY) its process group already leads a domain;
 * - %EBUSY: another process, zombies included, is in the caller's session
 *   or process group, or shares or has shared the caller's memory;
 * - %EAGAIN: no id is left for the domain or its memory object;
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

/* Room for the UAPI structure of every kind of restriction. */
union hgroup_kattr {
	struct hgroup_mask mask;
	struct hgroup_devices devices;
	struct hgroup_freeze freeze;
	struct hgroup_tasks tasks;
	struct hgroup_sched sched;
	struct hgroup_cpu cpu;
	struct hgroup_redirect redirect;
	struct hgroup_mem mem;
};

/*
 * Check @attr and @flags, and copy the attribute in: shared by both calls,
 * since both read input fields.  Returns the kernel's size of the
 * structure, or a negative errno.
 */
static long hgroup_attr_in(unsigned int attr, unsigned int flags,
			   unsigned int allowed, union hgroup_kattr *k,
			   const void __user *uattr, size_t usize)
{
	const struct hgroup_restriction *r = hgroup_restriction(attr, flags);
	int ret;

	if (!r || flags & ~allowed)
		return -EINVAL;
	/* A restriction of the domain, and the caller says so. */
	if (r->per_domain && !(flags & HGROUP_SCOPE_DOMAIN))
		return -EINVAL;
	if (usize < r->size_ver0)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	if (WARN_ON_ONCE(r->size > sizeof(*k)))
		return -EINVAL;
	ret = copy_struct_from_user(k, r->size, uattr, usize);
	return ret ?: r->size;
}

/**
 * sys_hgroup_set_attr - change a restriction of a process group
 * @pgid: the process group, 0 for the caller's.
 * @attr: which restriction, HGROUP_ATTR_*.
 * @uattr: the structure for @attr.
 * @usize: its size as user space knows it.
 * @flags: HGROUP_SCOPE_DOMAIN for the whole domain of @pgid.
 *
 * Return: 0 or a negative errno; see include/uapi/linux/hgroup.h.
 */
SYSCALL_DEFINE5(hgroup_set_attr, pid_t, pgid, unsigned int, attr,
		const void __user *, uattr, size_t, usize, unsigned int, flags)
{
	union hgroup_kattr k;
	long ret;

	ret = hgroup_attr_in(attr, flags, HGROUP_SCOPE_DOMAIN, &k, uattr,
			     usize);
	if (ret < 0)
		return ret;
	return hgroup_attr_set(pgid, attr, &k, flags);
}

/**
 * sys_hgroup_get_attr - read a restriction of a process group
 * @pgid: the process group, 0 for the caller's.
 * @attr: which restriction, HGROUP_ATTR_*.
 * @uattr: the structure for @attr: its input fields say where to put
 *	variable-size data, its output fields are filled in.
 * @usize: its size as user space knows it.
 * @flags: HGROUP_SCOPE_DOMAIN for a property of the domain, else 0.
 *
 * Return: 0 or a negative errno; see include/uapi/linux/hgroup.h.
 */
SYSCALL_DEFINE5(hgroup_get_attr, pid_t, pgid, unsigned int, attr,
		void __user *, uattr, size_t, usize, unsigned int, flags)
{
	const struct hgroup_restriction *r;
	union hgroup_kattr k;
	long size, ret;

	r = hgroup_restriction(attr, flags);
	size = hgroup_attr_in(attr, flags,
			      r && r->per_domain ? HGROUP_SCOPE_DOMAIN : 0,
			      &k, uattr, usize);
	if (size < 0)
		return size;
	ret = hgroup_attr_get(pgid, attr, &k, flags);
	if ((!ret || ret == -ENOSPC) &&
	    copy_to_user(uattr, &k, min_t(size_t, size, usize)))
		return -EFAULT;
	return ret;
}
