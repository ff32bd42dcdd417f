// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: object counts, in debugfs as hgroup/objects, so that tests can
 * check that every process group and domain state, and every restriction
 * object, is freed again; and the tree of domains, as hgroup/domains.
 */

#include <linux/debugfs.h>
#include <linux/sched/stat.h>
#include <linux/seq_file.h>

#include "hgroup.h"

/* Live process-group states, domain leaders too, not init_hgroup. */
atomic_long_t hgroup_nr_pgrps = ATOMIC_LONG_INIT(0);
/* Live domain objects, not counting domain 0. */
atomic_long_t hgroup_nr_domains = ATOMIC_LONG_INIT(0);
/* Live CPU and node sets, and device lists. */
atomic_long_t hgroup_nr_sets = ATOMIC_LONG_INIT(0);
atomic_long_t hgroup_nr_devs = ATOMIC_LONG_INIT(0);

static int hgroup_objects_show(struct seq_file *m, void *v)
{
	seq_printf(m, "pgrps %ld\ndomains %ld\nsets %ld\ndevs %ld\n",
		   atomic_long_read(&hgroup_nr_pgrps),
		   atomic_long_read(&hgroup_nr_domains),
		   atomic_long_read(&hgroup_nr_sets),
		   atomic_long_read(&hgroup_nr_devs));
#ifdef CONFIG_HGROUP_SCHED
	/* Task groups of process groups and domains (kernel/sched/hgroup.c). */
	seq_printf(m, "sched %ld\n", hgroup_sched_count());
	/* CPU budgets of process groups (sched.c). */
	seq_printf(m, "cpu_budgets %ld\n", hgroup_cpu_budgets());
#endif
#ifdef CONFIG_HGROUP_MEM
	{
		long zombies, nr = hgroup_mem_objects(&zombies);

		/* Memory objects, and those outliving their domain. */
		seq_printf(m, "mem %ld\nmem_zombies %ld\n", nr, zombies);
	}
#endif
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hgroup_objects);

/*
 * The tree of domains, one line per domain object in pre-order: its
 * internal id, its parent's (itself for domain 0), the number of its
 * creator's pid in the initial PID namespace (0 for domain 0) and its task
 * count.  A domain whose processes are gone stays while it is referenced.
 */
static int hgroup_domains_show(struct seq_file *m, void *v)
{
	struct hgroup_domain *d;

	hgroup_for_each_domain(d, &init_hgroup_domain)
		seq_printf(m, "%u %u %d %ld\n", d->id,
			   d->parent ? d->parent->id : d->id, pid_nr(d->pid),
			   d->parent ? READ_ONCE(d->nr_tasks) : nr_threads);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hgroup_domains);

static int __init hgroup_stats_init(void)
{
	struct dentry *dir = debugfs_create_dir("hgroup", NULL);

	debugfs_create_file("objects", 0444, dir, NULL, &hgroup_objects_fops);
	debugfs_create_file("domains", 0444, dir, NULL, &hgroup_domains_fops);
	return 0;
}
late_initcall(hgroup_stats_init);
