// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: the domain lines of /proc/PID/status.
 */

#include <linux/pid_namespace.h>
#include <linux/seq_file.h>

#include "hgroup.h"

/**
 * hgroup_proc_status - show the domain of a process in /proc/PID/status
 * @m: the status file.
 * @ns: the PID namespace of the procfs instance (the reader's view).
 * @pid: the process's pid.
 * @p: the process.
 *
 * "Domain:" is the id as seen from @ns; "NSdomain:", like "NSsid:", lists
 * it in @ns and in every namespace below it down to the process's own.
 */
void hgroup_proc_status(struct seq_file *m, struct pid_namespace *ns,
			struct pid *pid, struct task_struct *p)
{
	unsigned int g;

	seq_put_decimal_ull(m, "\nDomain:\t",
			    __task_pid_nr_ns(p, PIDTYPE_DOMAIN, ns));
	if (!IS_ENABLED(CONFIG_PID_NS))
		return;
	seq_puts(m, "\nNSdomain:");
	for (g = ns->level; g <= pid->level; g++)
		seq_put_decimal_ull(m, "\t",
				    __task_pid_nr_ns(p, PIDTYPE_DOMAIN,
						     pid->numbers[g].ns));
}
