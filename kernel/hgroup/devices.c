// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: the device access list.
 *
 * The model is that of the cgroup v1 devices controller: a default
 * policy (allow or deny) and a list of exceptions.  Opening a device node,
 * creating one with mknod() and opening a block device by number are
 * checked beside each cgroup device check; both must allow.
 */

#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "hgroup.h"

/*
 * On while any device list exists (one count per list, taken before it
 * can be installed, dropped after its grace period), so the hooks in
 * inode_permission(), vfs_mknod() and bdev_permission() cost a patched
 * branch otherwise.  Dropping it is deferred by a second, as for perf's
 * keys, so that a user who sets and clears a list in a loop cannot have
 * the kernel text patched more often than that.
 */
DEFINE_STATIC_KEY_DEFERRED_FALSE(hgroup_devs_key, HZ);

static void hgroup_devs_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct hgroup_devs, rcu));
	atomic_long_dec(&hgroup_nr_devs);
	static_branch_slow_dec_deferred(&hgroup_devs_key);
}

struct hgroup_devs *hgroup_devs_get(struct hgroup_devs *devs)
{
	if (devs)
		refcount_inc(&devs->usage);
	return devs;
}

void hgroup_devs_put(struct hgroup_devs *devs)
{
	if (devs && refcount_dec_and_test(&devs->usage))
		call_rcu(&devs->rcu, hgroup_devs_free_rcu);
}

/**
 * hgroup_devs_from_user - build a device list from hgroup_set_attr()
 * @d: the attribute, in kernel memory; @d->rules is a user pointer.
 *
 * Return: the new list (one reference), NULL for "no restriction", or an
 * ERR_PTR(): -EINVAL for a bad policy, count or rule, -EFAULT, -ENOMEM.
 */
static struct hgroup_devs *
hgroup_devs_from_user(const struct hgroup_devices *d)
{
	struct hgroup_devs *devs;
	u32 i;

	if (d->policy > HGROUP_DEV_POLICY_DENY ||
	    d->nr_rules > HGROUP_DEV_MAX_RULES)
		return ERR_PTR(-EINVAL);
	if (d->policy == HGROUP_DEV_POLICY_ALLOW && !d->nr_rules)
		return NULL;
	devs = kzalloc(struct_size(devs, rules, d->nr_rules),
		       GFP_KERNEL_ACCOUNT);
	if (!devs)
		return ERR_PTR(-ENOMEM);
	devs->nr_rules = d->nr_rules;
	if (copy_from_user(devs->rules, u64_to_user_ptr(d->rules),
			   flex_array_size(devs, rules, devs->nr_rules))) {
		kfree(devs);
		return ERR_PTR(-EFAULT);
	}
	for (i = 0; i < devs->nr_rules; i++) {
		const struct hgroup_dev_rule *r = &devs->rules[i];

		if (!r->type || r->type & ~HGROUP_DEV_ALL ||
		    !r->access || r->access & ~HGROUP_DEV_ACC_ALL) {
			kfree(devs);
			return ERR_PTR(-EINVAL);
		}
	}
	devs->policy = d->policy;
	refcount_set(&devs->usage, 1);
	atomic_long_inc(&hgroup_nr_devs);
	static_branch_deferred_inc(&hgroup_devs_key);
	return devs;
}

/**
 * hgroup_devs_to_user - copy a device list out for hgroup_get_attr()
 * @devs: the list, NULL for no restriction.
 * @d: the attribute, in kernel memory: @d->nr_rules is the capacity of
 *	the user buffer @d->rules on input and the length of the list on
 *	output.
 *
 * Return: 0, -ENOSPC if the buffer is too small, or -EFAULT.
 */
static int hgroup_devs_to_user(const struct hgroup_devs *devs,
			       struct hgroup_devices *d)
{
	u32 n = devs ? devs->nr_rules : 0, room = d->nr_rules;

	d->policy = devs ? devs->policy : HGROUP_DEV_POLICY_ALLOW;
	d->nr_rules = n;
	if (room < n)
		return -ENOSPC;
	if (n && copy_to_user(u64_to_user_ptr(d->rules), devs->rules,
			      flex_array_size(devs, rules, n)))
		return -EFAULT;
	return 0;
}

static bool hgroup_num_covers(u32 b, u32 a)
{
	return b == HGROUP_DEV_ANY || b == a;
}

static bool hgroup_num_meets(u32 a, u32 b)
{
	return a == HGROUP_DEV_ANY || b == HGROUP_DEV_ANY || a == b;
}

/* Does rule @b match every access rule @a matches? */
static bool hgroup_rule_covers(const struct hgroup_dev_rule *b,
			       const struct hgroup_dev_rule *a)
{
	return !(a->type & ~b->type) && !(a->access & ~b->access) &&
	       hgroup_num_covers(b->major, a->major) &&
	       hgroup_num_covers(b->minor, a->minor);
}

/* Is there an access that both rules match? */
static bool hgroup_rules_meet(const struct hgroup_dev_rule *a,
			      const struct hgroup_dev_rule *b)
{
	return (a->type & b->type) && (a->access & b->access) &&
	       hgroup_num_meets(a->major, b->major) &&
	       hgroup_num_meets(a->minor, b->minor);
}

static bool hgroup_some_rule_covers(const struct hgroup_devs *d,
				    const struct hgroup_dev_rule *r)
{
	u32 i;

	for (i = 0; d && i < d->nr_rules; i++)
		if (hgroup_rule_covers(&d->rules[i], r))
			return true;
	return false;
}

static bool hgroup_no_rule_meets(const struct hgroup_devs *d,
				 const struct hgroup_dev_rule *r)
{
	u32 i;

	for (i = 0; d && i < d->nr_rules; i++)
		if (hgroup_rules_meet(&d->rules[i], r))
			return false;
	return true;
}

static bool hgroup_devs_allow_all(const struct hgroup_devs *d)
{
	return !d || (d->policy == HGROUP_DEV_POLICY_ALLOW && !d->nr_rules);
}

/**
 * hgroup_devs_subset - does @b allow everything @a allows?
 * @a: a list, NULL for no restriction.
 * @b: a list, NULL for no restriction.
 *
 * Conservative, like the cgroup v1 controller: each rule is compared with
 * single rules of the other list, so a rule covered only by the union of
 * several counts as not covered.
 *
 * Return: true if every access @a allows, @b allows too.
 */
static bool hgroup_devs_subset(const struct hgroup_devs *a,
			       const struct hgroup_devs *b)
{
	u32 i;

	if (hgroup_devs_allow_all(b))
		return true;
	if (hgroup_devs_allow_all(a) || a->policy == HGROUP_DEV_POLICY_ALLOW) {
		/* @a denies only its rules: @b must deny less. */
		if (b->policy == HGROUP_DEV_POLICY_DENY)
			return false;
		for (i = 0; i < b->nr_rules; i++)
			if (!hgroup_some_rule_covers(a, &b->rules[i]))
				return false;
		return true;
	}
	/* @a allows only its rules: @b must allow each. */
	for (i = 0; i < a->nr_rules; i++) {
		const struct hgroup_dev_rule *r = &a->rules[i];

		if (b->policy == HGROUP_DEV_POLICY_DENY ?
		    !hgroup_some_rule_covers(b, r) : !hgroup_no_rule_meets(b, r))
			return false;
	}
	return true;
}

static int hgroup_devices_parse(struct hgroup_change *c, const void *kattr)
{
	c->devs = hgroup_devs_from_user(kattr);
	if (IS_ERR(c->devs)) {
		int ret = PTR_ERR(c->devs);

		c->devs = NULL;
		return ret;
	}
	return 0;
}

static void hgroup_devices_get(struct hgroup_change *c)
{
	hgroup_devs_get(c->devs);
}

static void hgroup_devices_put(struct hgroup_change *c)
{
	hgroup_devs_put(c->devs);
}

static void hgroup_devices_copy(struct hgroup *hg, const struct hgroup *from)
{
	RCU_INIT_POINTER(hg->devs,
			 hgroup_devs_get(hgroup_deref(from->devs, from)));
}

static void hgroup_devices_release(struct hgroup *hg)
{
	hgroup_devs_put(rcu_dereference_raw(hg->devs));
}

static void hgroup_devices_value(const struct hgroup *hg,
				 struct hgroup_change *c)
{
	c->devs = hgroup_deref(hg->devs, hg);
}

static bool hgroup_devices_allows(const struct hgroup *limit,
				  const struct hgroup *hg,
				  const struct hgroup_change *c)
{
	return hgroup_devs_subset(c->devs, hgroup_deref(hg->devs, hg)) ||
	       hgroup_devs_subset(c->devs, hgroup_deref(limit->devs, limit));
}

static bool hgroup_devices_lifts_only(const struct hgroup *hg,
				      const struct hgroup_change *c)
{
	return hgroup_devs_subset(hgroup_deref(hg->devs, hg), c->devs);
}

static void hgroup_devices_apply(struct hgroup *hg,
				 struct hgroup_change *c)
{
	struct hgroup_devs *devs = hgroup_deref(hg->devs, hg);

	rcu_assign_pointer(hg->devs, hgroup_devs_get(c->devs));
	hgroup_devs_put(devs);
}

static int hgroup_devices_to_user(const struct hgroup_change *c, void *kattr)
{
	return hgroup_devs_to_user(c->devs, kattr);
}

const struct hgroup_restriction hgroup_devices_restriction = {
	.attr		= HGROUP_ATTR_DEVICES,
	.kind		= HGROUP_ATTR_DEVICES,
	.size_ver0	= HGROUP_DEVICES_SIZE_VER0,
	.size		= sizeof(struct hgroup_devices),
	.parse		= hgroup_devices_parse,
	.get		= hgroup_devices_get,
	.put		= hgroup_devices_put,
	.copy		= hgroup_devices_copy,
	.release	= hgroup_devices_release,
	.value		= hgroup_devices_value,
	.allows		= hgroup_devices_allows,
	.lifts_only	= hgroup_devices_lifts_only,
	.apply		= hgroup_devices_apply,
	.to_user	= hgroup_devices_to_user,
};

static bool hgroup_devs_allow(const struct hgroup_devs *d, u32 type,
			      u32 major, u32 minor, u32 access)
{
	u32 i;

	for (i = 0; i < d->nr_rules; i++) {
		const struct hgroup_dev_rule *r = &d->rules[i];

		if (!(r->type & type) || !hgroup_num_covers(r->major, major) ||
		    !hgroup_num_covers(r->minor, minor))
			continue;
		if (d->policy == HGROUP_DEV_POLICY_ALLOW) {
			if (r->access & access)
				return false;
		} else if (!(access & ~r->access)) {
			return true;
		}
	}
	return d->policy == HGROUP_DEV_POLICY_ALLOW;
}

static int hgroup_dev_check(u32 type, u32 major, u32 minor, u32 access)
{
	const struct hgroup_devs *devs;
	const struct hgroup *hg;
	bool ok = true;

	rcu_read_lock();
	hg = rcu_dereference(current->signal->hgroup);
	devs = hg ? rcu_dereference(hg->devs) : NULL;
	if (devs)
		ok = hgroup_devs_allow(devs, type, major, minor, access);
	rcu_read_unlock();
	return ok ? 0 : -EPERM;
}

/**
 * __hgroup_inode_permission - may the caller open this device node?
 * @inode: the inode being opened (or otherwise accessed), with an i_rdev.
 * @mask: MAY_READ and MAY_WRITE, as for inode_permission().
 *
 * Called through hgroup_inode_permission() from inode_permission() right
 * after the cgroup device check, while any device list exists.
 *
 * Return: 0, or -EPERM if the caller's process group denies the access.
 */
int __hgroup_inode_permission(struct inode *inode, int mask)
{
	u32 type, access = 0;

	if (S_ISBLK(inode->i_mode))
		type = HGROUP_DEV_BLOCK;
	else if (S_ISCHR(inode->i_mode))
		type = HGROUP_DEV_CHAR;
	else
		return 0;
	if (mask & MAY_WRITE)
		access |= HGROUP_DEV_WRITE;
	if (mask & MAY_READ)
		access |= HGROUP_DEV_READ;
	return hgroup_dev_check(type, imajor(inode), iminor(inode), access);
}

/**
 * __hgroup_inode_mknod - may the caller create this device node?
 * @mode: file type and mode of the new node.
 * @dev: its device number.
 *
 * Called through hgroup_inode_mknod() from vfs_mknod() right after the
 * cgroup device check, while any device list exists.
 *
 * Return: 0, or -EPERM if the caller's process group denies it.
 */
int __hgroup_inode_mknod(int mode, dev_t dev)
{
	u32 type;

	if (S_ISBLK(mode))
		type = HGROUP_DEV_BLOCK;
	else if (S_ISCHR(mode) && dev != WHITEOUT_DEV)
		type = HGROUP_DEV_CHAR;
	else
		return 0;
	return hgroup_dev_check(type, MAJOR(dev), MINOR(dev),
				HGROUP_DEV_MKNOD);
}

/**
 * __hgroup_bdev_permission - may the caller open this block device?
 * @dev: the device number.
 * @read: it is opened for reading.
 * @write: it is opened for writing.
 *
 * Called through hgroup_bdev_permission() from bdev_permission() right
 * after the cgroup device check, while any device list exists, so that
 * block devices opened by number (mount, swapon, device mapper) are
 * checked as those opened through a device node are.
 *
 * Return: 0, or -EPERM if the caller's process group denies the access.
 */
int __hgroup_bdev_permission(dev_t dev, bool read, bool write)
{
	return hgroup_dev_check(HGROUP_DEV_BLOCK, MAJOR(dev), MINOR(dev),
				(read ? HGROUP_DEV_READ : 0) |
				(write ? HGROUP_DEV_WRITE : 0));
}
