/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hgroups: process domains and per-process-group state.
 *
 * These are the hooks the process-management core calls.  Each is a single
 * call at its site; with CONFIG_HGROUP=n they are empty inlines and compile
 * away.  See Documentation/hgroup.rst.
 */
#ifndef _LINUX_HGROUP_H
#define _LINUX_HGROUP_H

#include <linux/err.h>
#include <linux/types.h>

struct cpumask;
struct hgroup;
struct inode;
struct pid;
struct pid_namespace;
struct seq_file;
struct task_struct;

#ifdef CONFIG_HGROUP

extern struct hgroup init_hgroup;

int hgroup_can_fork(struct task_struct *p);
void hgroup_fork(struct task_struct *p);
void hgroup_exit(struct task_struct *p, bool group_dead);
void hgroup_exec(struct task_struct *old_leader, struct task_struct *new_leader);

struct hgroup *hgroup_pgrp_prepare(pid_t pid, pid_t pgid);
void hgroup_pgrp_join(struct task_struct *p, struct hgroup **prealloc);
void hgroup_pgrp_finish(struct hgroup *prealloc);

void hgroup_proc_status(struct seq_file *m, struct pid_namespace *ns,
			struct pid *pid, struct task_struct *p);

void hgroup_cpus_allowed(struct task_struct *p, struct cpumask *mask);
int hgroup_inode_permission(struct inode *inode, int mask);
int hgroup_inode_mknod(int mode, dev_t dev);

#else /* !CONFIG_HGROUP */

static inline int hgroup_can_fork(struct task_struct *p)
{
	return 0;
}

static inline void hgroup_fork(struct task_struct *p) { }
static inline void hgroup_exit(struct task_struct *p, bool group_dead) { }
static inline void hgroup_exec(struct task_struct *old_leader,
			       struct task_struct *new_leader) { }

static inline struct hgroup *hgroup_pgrp_prepare(pid_t pid, pid_t pgid)
{
	return NULL;
}

static inline void hgroup_pgrp_join(struct task_struct *p,
				    struct hgroup **prealloc) { }
static inline void hgroup_pgrp_finish(struct hgroup *prealloc) { }

static inline void hgroup_proc_status(struct seq_file *m,
				      struct pid_namespace *ns,
				      struct pid *pid, struct task_struct *p) { }

static inline void hgroup_cpus_allowed(struct task_struct *p,
				       struct cpumask *mask) { }

static inline int hgroup_inode_permission(struct inode *inode, int mask)
{
	return 0;
}

static inline int hgroup_inode_mknod(int mode, dev_t dev)
{
	return 0;
}

#endif /* CONFIG_HGROUP */

#endif /* _LINUX_HGROUP_H */
