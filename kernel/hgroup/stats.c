// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: object counts, in debugfs as hgroup/objects, so that tests can
 * check that every process group and domain state, and every restriction
 * object, is freed again.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "hgroup.h"

/* Live process-group states, not counting domain leaders. */
atomic_long_t hgroup_nr_pgrps = ATOMIC_LONG_INIT(0);
/* Live domains (each with its leader's state), not counting domain 0. */
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
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hgroup_objects);

static int __init hgroup_stats_init(void)
{
	struct dentry *dir = debugfs_create_dir("hgroup", NULL);

	debugfs_create_file("objects", 0444, dir, NULL, &hgroup_objects_fops);
	return 0;
}
late_initcall(hgroup_stats_init);
