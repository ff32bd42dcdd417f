/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * hgroups: process domains - user-space API.
 *
 * See Documentation/hgroup.rst for the model.
 */

#ifndef _UAPI_LINUX_HGROUP_H
#define _UAPI_LINUX_HGROUP_H

/**
 * DOC: set_domainid
 *
 * ``long set_domainid(unsigned int flags);``
 *
 * Start a new process domain, subordinate to the caller's domain.  The
 * caller must be the only process in its session and in its process group
 * (the state right after setsid() in a process with no children) and must
 * be in domain 0 of its own PID namespace.  The new domain's id is the
 * caller's pid, and its leader process group is the caller's process
 * group.  The caller and everything it starts afterwards stay in the
 * domain: no call moves a process or a process group to another domain.
 *
 * @flags must be 0.  No privilege is needed: a domain only adds structure.
 *
 * Returns the new domain's id, or -1 with errno set to:
 *
 * - ``EINVAL``: @flags has an unknown bit set (checked first);
 * - ``EPERM``: the caller is not in domain 0 of its PID namespace (create
 *   a PID namespace to nest domains);
 * - ``EBUSY``: another process, a zombie too, is in the caller's session
 *   or process group;
 * - ``ENOMEM``: out of memory.
 */

/**
 * DOC: get_domainid
 *
 * ``long get_domainid(pid_t pid);``
 *
 * Return the domain id of process @pid, or of the caller if @pid is 0,
 * as seen from the caller's PID namespace, like getsid().  The domain that
 * contains the namespace's init, and any domain whose creator is not
 * visible in the namespace, reads as 0.
 *
 * Returns the id, or -1 with errno set to:
 *
 * - ``ESRCH``: no process with that pid is visible in the caller's PID
 *   namespace, or @pid is negative.
 */

#endif /* _UAPI_LINUX_HGROUP_H */
