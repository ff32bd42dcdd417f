// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups selftests: restrictions of process groups.
 *
 * hgroup_set_attr() and hgroup_get_attr(): argument checking (attribute
 * ids, flags, sizes, pointers, reserved and output fields, missing groups,
 * which error wins), CPUs (the set reaching every thread, affinity
 * intersected with it, inheritance, setpgid(), lifting bounded by the
 * caller's group and the groups above, HGROUP_SCOPE_DOMAIN, 1,000
 * threads), memory nodes (pushed like CPUs and honoured by the page
 * allocator), devices (both policies, rule matching, bad rules,
 * reading back, inheritance, lifting), the task limit of a domain (forks,
 * threads, zombies, sub-domains) and who may change what (owners, other
 * uids, user namespaces).
 *
 * Every test works on process groups of its own, made by children that
 * call setsid() (and set_domainid() where a domain is needed); the fixture
 * kills and reaps everything a test started, also when it fails.  Tests
 * that need two CPUs skip with fewer.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/fuse.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>

#include "../kselftest_harness.h"
#include "hgroup_util.h"

FIXTURE(hg) {
	struct hg_shm *shm;
};

FIXTURE_SETUP(hg)
{
	self->shm = hg_fixture_setup();
	ASSERT_NE(NULL, self->shm);
}

FIXTURE_TEARDOWN(hg)
{
	hg_fixture_teardown(self->shm);
}

#define CPU0	1UL

/* CPUs 0 and 1 are both online, as the tests of moves between them need. */
static int two_cpus_online(void)
{
	return (hg_online_cpus() & 3UL) == 3UL;
}

static __noreturn void park(void)
{
	for (;;)
		pause();
}

/*
 * Fork a child that makes a new session and process group (with @domain,
 * a new domain too) and sleeps until killed.  Returns its pid, which also
 * names its group (and domain), once it is there; -1 on failure.
 */
static pid_t start_group(int domain)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (domain ? new_domain() != getpid() : setsid() != getpid())
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		park();
	}
	close(p[1]);
	if (pid > 0 && read(p[0], &c, 1) != 1)
		pid = -1;
	close(p[0]);
	return pid;
}

/*
 * Like start_group(), with @members more processes in the group, forked
 * by the leader: shm->pid[0] is the leader, shm->pid[1..@members] the
 * members.  With @own_pgrp the members each make a group of their own in
 * the leader's session (setpgid(0, 0)), non-leader groups of a domain.
 */
static pid_t start_group_members(struct hg_shm *shm, int domain, int members,
				 int own_pgrp)
{
	pid_t pid;
	int i;

	shm->ready = 0;
	pid = fork();
	if (pid == 0) {
		if (domain ? new_domain() != getpid() : setsid() != getpid())
			_exit(1);
		shm->pid[0] = getpid();
		for (i = 1; i <= members; i++) {
			pid_t m = fork();

			if (m < 0)
				_exit(1);
			if (m == 0) {
				if (own_pgrp && setpgid(0, 0))
					_exit(1);
				park();
			}
			if (own_pgrp && !HG_POLL(getpgid(m) == m, HG_CHILD_MS))
				_exit(1);
			shm->pid[i] = m;
		}
		hg_ready(shm);
		park();
	}
	if (pid < 0)
		return -1;
	HG_POLL(shm->ready == 1 || hg_proc_state(pid) == 'Z', HG_CHILD_MS);
	return shm->ready == 1 ? pid : -1;
}

/* The leading word of a group's set must be @bits. */
#define EXPECT_CPUS(bits, pgid) EXPECT_EQ((unsigned long)(bits), hg_get_cpus(pgid))

static long status_domain_of(pid_t pid)
{
	char path[64], line[256];
	long dom = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Domain: %ld", &dom) == 1)
			break;
	fclose(f);
	return dom;
}

/* The process groups of the members of domain @dom, at most @max. */
static int domain_pgids(pid_t dom, pid_t *out, int max)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	int n = 0, i;

	if (!d)
		return -1;
	while ((de = readdir(d)) && n < max) {
		pid_t pid = atoi(de->d_name), pg;

		if (pid <= 0 || status_domain_of(pid) != dom)
			continue;
		pg = getpgid(pid);
		if (pg <= 0)
			continue;
		for (i = 0; i < n && out[i] != pg; i++)
			;
		if (i == n)
			out[n++] = pg;
	}
	closedir(d);
	return n;
}

/* Fork and exec exec_helper with up to three arguments; its exit code. */
static int run_helper(const char *a1, const char *a2, const char *a3)
{
	char helper[PATH_MAX];
	pid_t pid;

	if (hg_helper_path(helper, sizeof(helper)))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl(helper, helper, a1, a2, a3, (char *)NULL);
		_exit(100);
	}
	return hg_wait_exit_timeout(pid, HG_CHILD_MS);
}

static int devices_are(pid_t pgid, __u32 policy,
		       const struct hgroup_dev_rule *rules, unsigned int n);

/* ---------------------------------------------------------------------- */
/* Argument checks                                                         */
/* ---------------------------------------------------------------------- */

/*
 * A valid structure for @attr in @buf that changes nothing on a group
 * that has no restriction: every possible CPU, allow all devices, no
 * freezing, no task limit.
 */
static unsigned long noop_mask[16];
static struct hgroup_dev_rule noop_rules[4];

static void fill_noop(unsigned int attr, void *buf)
{
	switch (attr) {
	case HGROUP_ATTR_CPUS: {
		struct hgroup_mask *m = buf;

		memset(noop_mask, 0, sizeof(noop_mask));
		noop_mask[0] = hg_possible_cpus();
		m->mask = (uintptr_t)noop_mask;
		m->mask_size = sizeof(noop_mask);
		m->__reserved = 0;
		break;
	}
	case HGROUP_ATTR_DEVICES: {
		struct hgroup_devices *d = buf;

		d->policy = HGROUP_DEV_POLICY_ALLOW;
		d->nr_rules = 0;
		d->rules = (uintptr_t)noop_rules;
		break;
	}
	case HGROUP_ATTR_FREEZE:
		memset(buf, 0, sizeof(struct hgroup_freeze));
		break;
	case HGROUP_ATTR_TASKS: {
		struct hgroup_tasks *t = buf;

		t->max = HGROUP_TASKS_UNLIMITED;
		t->nr_tasks = 0;
		break;
	}
	}
}

/* For reading: capacity for the rules, room for every possible CPU. */
static void fill_get(unsigned int attr, void *buf)
{
	fill_noop(attr, buf);
	if (attr == HGROUP_ATTR_DEVICES)
		((struct hgroup_devices *)buf)->nr_rules = 4;
	if (attr == HGROUP_ATTR_TASKS)
		((struct hgroup_tasks *)buf)->max = 0;
}

struct attr_case {
	const char *name;
	unsigned int attr;
	size_t ver0;
	unsigned int flags;	/* HGROUP_SCOPE_DOMAIN for the task limit */
};

static const struct attr_case attr_cases[] = {
	{ "cpus", HGROUP_ATTR_CPUS, HGROUP_MASK_SIZE_VER0, 0 },
	{ "devices", HGROUP_ATTR_DEVICES, HGROUP_DEVICES_SIZE_VER0, 0 },
	{ "freeze", HGROUP_ATTR_FREEZE, HGROUP_FREEZE_SIZE_VER0, 0 },
	{ "tasks", HGROUP_ATTR_TASKS, HGROUP_TASKS_SIZE_VER0,
	  HGROUP_SCOPE_DOMAIN },
};

#define NR_CASES ARRAY_SIZE(attr_cases)

/* A group that has been through failed calls still has no restriction. */
static void expect_unrestricted(struct __test_metadata *_metadata, pid_t g)
{
	struct hgroup_devices d = { .nr_rules = 4,
				    .rules = (uintptr_t)noop_rules };
	__u64 max = 0;

	EXPECT_CPUS(hg_possible_cpus(), g);
	EXPECT_EQ(0, sys_hgroup_get_attr(g, HGROUP_ATTR_DEVICES, &d,
					 sizeof(d), 0));
	EXPECT_EQ(HGROUP_DEV_POLICY_ALLOW, d.policy);
	EXPECT_EQ(0, d.nr_rules);
	EXPECT_EQ(0, hg_freeze_flags(g));
	EXPECT_EQ(0, hg_get_tasks(g, &max, NULL));
	EXPECT_EQ(HGROUP_TASKS_UNLIMITED, max);
}

TEST_F(hg, bad_attr_ids)
{
	static const unsigned int ids[] = { 0, 10, 11, 64, 0x80000000u, ~0u };
	char buf[64];
	pid_t g = start_group(1);
	unsigned int i;

	ASSERT_LT(0, g);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		memset(buf, 0, sizeof(buf));
		EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, ids[i], buf, 16, 0));
		EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(g, ids[i], buf, 16, 0));
		EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, ids[i], buf, 16,
							 HGROUP_SCOPE_DOMAIN));
		EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(g, ids[i], buf, 16,
							 HGROUP_SCOPE_DOMAIN));
	}
	expect_unrestricted(_metadata, g);
}

TEST_F(hg, bad_flags)
{
	char buf[64];
	pid_t g = start_group(1);
	unsigned int i, bit;

	ASSERT_LT(0, g);
	for (i = 0; i < NR_CASES; i++) {
		const struct attr_case *c = &attr_cases[i];

		for (bit = 1; bit < 32; bit++) {
			fill_noop(c->attr, buf);
			EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, c->attr,
								 buf, c->ver0,
								 c->flags | (1U << bit))) {
				TH_LOG("%s, flag bit %u", c->name, bit);
			}
			fill_get(c->attr, buf);
			EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(g, c->attr,
								 buf, c->ver0,
								 c->flags | (1U << bit))) {
				TH_LOG("%s, flag bit %u", c->name, bit);
			}
		}
		fill_noop(c->attr, buf);
		EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, c->attr, buf,
							 c->ver0, ~0U));
		fill_get(c->attr, buf);
		EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(g, c->attr, buf,
							 c->ver0, ~0U));
	}
	/* hgroup_get_attr() takes HGROUP_SCOPE_DOMAIN for the task limit only. */
	for (i = 0; i < NR_CASES; i++) {
		const struct attr_case *c = &attr_cases[i];

		if (c->attr == HGROUP_ATTR_TASKS)
			continue;
		fill_get(c->attr, buf);
		EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(g, c->attr, buf,
							 c->ver0,
							 HGROUP_SCOPE_DOMAIN)) {
			TH_LOG("%s", c->name);
		}
		/* ...while hgroup_set_attr() takes it with every attribute. */
		fill_noop(c->attr, buf);
		EXPECT_EQ(0, sys_hgroup_set_attr(g, c->attr, buf, c->ver0,
						 HGROUP_SCOPE_DOMAIN)) {
			TH_LOG("%s: %s", c->name, strerror(errno));
		}
	}
	expect_unrestricted(_metadata, g);
}

/* The task limit requires HGROUP_SCOPE_DOMAIN with both calls. */
TEST_F_TIMEOUT(hg, tasks_needs_domain_scope, 90)
{
	struct hgroup_tasks t = { .max = HGROUP_TASKS_UNLIMITED };
	pid_t d = start_group(1);

	ASSERT_LT(0, d);
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(d, HGROUP_ATTR_TASKS, &t,
						 sizeof(t), 0));
	t.max = 0;
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(d, HGROUP_ATTR_TASKS, &t,
						 sizeof(t), 0));
	t.max = 5;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(d, HGROUP_ATTR_TASKS, &t,
						 sizeof(t), 0));
	memset(&t, 0, sizeof(t));
	EXPECT_EQ(0, sys_hgroup_get_attr(d, HGROUP_ATTR_TASKS, &t, sizeof(t),
					 HGROUP_SCOPE_DOMAIN));
	EXPECT_EQ(HGROUP_TASKS_UNLIMITED, t.max);
	/* Only the creator, single-threaded, is in the domain. */
	EXPECT_EQ(1, t.nr_tasks);
	t.nr_tasks = 0;
	EXPECT_EQ(0, sys_hgroup_set_attr(d, HGROUP_ATTR_TASKS, &t, sizeof(t),
					 HGROUP_SCOPE_DOMAIN));
}

TEST_F(hg, size_too_small)
{
	static const size_t sizes[] = { 0, 1, 4, 7 };
	char buf[64];
	pid_t g = start_group(1);
	unsigned int i, j;

	ASSERT_LT(0, g);
	for (i = 0; i < NR_CASES; i++) {
		const struct attr_case *c = &attr_cases[i];

		for (j = 0; j <= ARRAY_SIZE(sizes); j++) {
			size_t size = j < ARRAY_SIZE(sizes) ?
				      sizes[j] : c->ver0 - 1;

			if (size >= c->ver0)
				continue;
			fill_noop(c->attr, buf);
			EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, c->attr,
								 buf, size,
								 c->flags)) {
				TH_LOG("%s, size %zu", c->name, size);
			}
			fill_get(c->attr, buf);
			EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(g, c->attr,
								 buf, size,
								 c->flags)) {
				TH_LOG("%s, size %zu", c->name, size);
			}
		}
	}
	expect_unrestricted(_metadata, g);
}

/*
 * Larger structures: accepted with a zero tail, up to a page; E2BIG with a
 * non-zero tail, and beyond a page whatever the tail.
 */
TEST_F(hg, size_larger_than_struct)
{
	size_t big = 2 << 20;
	char *buf = mmap(NULL, big, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t g = start_group(1);
	unsigned int i;

	ASSERT_NE(MAP_FAILED, buf);
	ASSERT_LT(0, g);
	for (i = 0; i < NR_CASES; i++) {
		const struct attr_case *c = &attr_cases[i];
		size_t v = c->ver0;

		memset(buf, 0, 8192);
		fill_noop(c->attr, buf);
		EXPECT_EQ(0, sys_hgroup_set_attr(g, c->attr, buf, v + 8,
						 c->flags)) {
			TH_LOG("%s: %s", c->name, strerror(errno));
		}
		EXPECT_EQ(0, sys_hgroup_set_attr(g, c->attr, buf, 4096,
						 c->flags)) {
			TH_LOG("%s: %s", c->name, strerror(errno));
		}
		fill_get(c->attr, buf);
		EXPECT_EQ(0, sys_hgroup_get_attr(g, c->attr, buf, v + 8,
						 c->flags)) {
			TH_LOG("%s: %s", c->name, strerror(errno));
		}

		fill_noop(c->attr, buf);
		buf[v] = 1;
		EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(g, c->attr, buf, v + 8,
							c->flags)) {
			TH_LOG("%s", c->name);
		}
		buf[v] = 0;
		buf[v + 7] = 0x80;
		EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(g, c->attr, buf, v + 8,
							c->flags)) {
			TH_LOG("%s", c->name);
		}
		buf[v + 7] = 0;
		buf[4095] = 1;
		EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(g, c->attr, buf, 4096,
							c->flags)) {
			TH_LOG("%s", c->name);
		}
		buf[4095] = 0;

		/* Over a page: E2BIG even with a zero tail. */
		fill_noop(c->attr, buf);
		EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(g, c->attr, buf, 4097,
							c->flags)) {
			TH_LOG("%s", c->name);
		}
		EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(g, c->attr, buf,
							big, c->flags)) {
			TH_LOG("%s", c->name);
		}
		EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(g, c->attr, buf,
							SIZE_MAX, c->flags)) {
			TH_LOG("%s", c->name);
		}
		/*
		 * The errno list is that of both calls: a size over a page
		 * is E2BIG for reading too.
		 */
		fill_get(c->attr, buf);
		EXPECT_ERRNO(E2BIG, sys_hgroup_get_attr(g, c->attr, buf, 4097,
							c->flags)) {
			TH_LOG("%s", c->name);
		}
	}
	expect_unrestricted(_metadata, g);
	munmap(buf, big);
}

TEST_F(hg, bad_pointers)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *gone = map + page;
	struct hgroup_dev_rule rule = {
		HGROUP_DEV_CHAR, HGROUP_DEV_READ, 1, 3
	};
	struct hgroup_devices dv;
	pid_t g = start_group(1);
	unsigned int i;

	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, munmap(gone, page));
	ASSERT_LT(0, g);

	for (i = 0; i < NR_CASES; i++) {
		const struct attr_case *c = &attr_cases[i];
		char *edge = gone - c->ver0;

		EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(g, c->attr, NULL,
							 c->ver0, c->flags)) {
			TH_LOG("%s", c->name);
		}
		EXPECT_ERRNO(EFAULT, sys_hgroup_get_attr(g, c->attr, NULL,
							 c->ver0, c->flags)) {
			TH_LOG("%s", c->name);
		}
		EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(g, c->attr, gone,
							 c->ver0, c->flags)) {
			TH_LOG("%s", c->name);
		}
		EXPECT_ERRNO(EFAULT, sys_hgroup_get_attr(g, c->attr, gone,
							 c->ver0, c->flags)) {
			TH_LOG("%s", c->name);
		}
		/* A structure that ends right before the unmapped page... */
		fill_noop(c->attr, edge);
		EXPECT_EQ(0, sys_hgroup_set_attr(g, c->attr, edge, c->ver0,
						 c->flags)) {
			TH_LOG("%s: %s", c->name, strerror(errno));
		}
		fill_get(c->attr, edge);
		EXPECT_EQ(0, sys_hgroup_get_attr(g, c->attr, edge, c->ver0,
						 c->flags)) {
			TH_LOG("%s: %s", c->name, strerror(errno));
		}
		/* ...whose zero tail would run into it. */
		fill_noop(c->attr, edge);
		EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(g, c->attr, edge,
							 c->ver0 + 8,
							 c->flags)) {
			TH_LOG("%s", c->name);
		}
	}

	/* Pointers inside the structures. */
	{
		struct hgroup_mask m = { .mask = 0, .mask_size = 8 };

		EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(g, HGROUP_ATTR_CPUS,
							 &m, sizeof(m), 0));
		EXPECT_ERRNO(EFAULT, sys_hgroup_get_attr(g, HGROUP_ATTR_CPUS,
							 &m, sizeof(m), 0));
		m.mask = (uintptr_t)gone;
		EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(g, HGROUP_ATTR_CPUS,
							 &m, sizeof(m), 0));
		EXPECT_ERRNO(EFAULT, sys_hgroup_get_attr(g, HGROUP_ATTR_CPUS,
							 &m, sizeof(m), 0));
		/*
		 * A bitmap longer than the kernel's mask is read and written
		 * only as far as the kernel's mask goes, as by
		 * sched_setaffinity(): its tail may be unmapped.
		 */
		m.mask = (uintptr_t)(gone - sizeof(long));
		m.mask_size = 2 * sizeof(long);
		*(unsigned long *)(gone - sizeof(long)) = hg_possible_cpus();
		if (hg_possible_cpus() == hg_online_cpus() &&
		    sysconf(_SC_NPROCESSORS_CONF) <= 64) {
			EXPECT_EQ(0, sys_hgroup_set_attr(g, HGROUP_ATTR_CPUS,
							 &m, sizeof(m), 0));
		}
	}
	{
		struct hgroup_devices d = {
			.policy = HGROUP_DEV_POLICY_DENY,
			.nr_rules = 1,
			.rules = 0,
		};

		EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(g,
							 HGROUP_ATTR_DEVICES,
							 &d, sizeof(d), 0));
		d.rules = (uintptr_t)gone;
		EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(g,
							 HGROUP_ATTR_DEVICES,
							 &d, sizeof(d), 0));
		/* The second rule is in the unmapped page. */
		memcpy(gone - sizeof(rule), &rule, sizeof(rule));
		d.rules = (uintptr_t)(gone - sizeof(rule));
		d.nr_rules = 2;
		EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(g,
							 HGROUP_ATTR_DEVICES,
							 &d, sizeof(d), 0));
	}
	/* Nothing changed, so far. */
	expect_unrestricted(_metadata, g);

	/* Reading a list of one rule into a bad buffer. */
	ASSERT_EQ(0, hg_set_devices(g, HGROUP_DEV_POLICY_DENY, &rule, 1, 0));
	dv.nr_rules = 4;
	dv.rules = 0;
	EXPECT_ERRNO(EFAULT, sys_hgroup_get_attr(g, HGROUP_ATTR_DEVICES, &dv,
						 sizeof(dv), 0));
	dv.nr_rules = 4;
	dv.rules = (uintptr_t)gone;
	EXPECT_ERRNO(EFAULT, sys_hgroup_get_attr(g, HGROUP_ATTR_DEVICES, &dv,
						 sizeof(dv), 0));
	munmap(map, page);
}

TEST_F(hg, reserved_and_output_fields)
{
	unsigned long bits = hg_possible_cpus();
	struct hgroup_mask m = {
		.mask = (uintptr_t)&bits,
		.mask_size = sizeof(bits),
	};
	struct hgroup_freeze f = { 0 };
	struct hgroup_tasks t = { .max = HGROUP_TASKS_UNLIMITED };
	pid_t g = start_group(1);
	unsigned int bit;

	ASSERT_LT(0, g);
	m.__reserved = 1;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_CPUS, &m,
						 sizeof(m), 0));
	m.__reserved = 0x80000000u;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_CPUS, &m,
						 sizeof(m), 0));

	/* Output fields: freeze.state and tasks.current. */
	f.flags = HGROUP_FREEZE_ALL;
	f.state = HGROUP_STATE_FROZEN;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_FREEZE, &f,
						 sizeof(f), 0));
	f.flags = 0;
	f.state = 0x80000000u;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_FREEZE, &f,
						 sizeof(f), 0));
	t.nr_tasks = 1;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_TASKS, &t,
						 sizeof(t),
						 HGROUP_SCOPE_DOMAIN));
	t.max = 5;
	t.nr_tasks = ~0ULL;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_TASKS, &t,
						 sizeof(t),
						 HGROUP_SCOPE_DOMAIN));

	/* Unknown bits of freeze.flags. */
	for (bit = 2; bit < 32; bit++) {
		f.flags = 1U << bit;
		f.state = 0;
		EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_FREEZE,
							 &f, sizeof(f), 0)) {
			TH_LOG("freeze flag bit %u", bit);
		}
	}
	f.flags = HGROUP_FREEZE_ALL | (1U << 5);
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_FREEZE, &f,
						 sizeof(f), 0));

	/* None of these froze, limited or restricted anything. */
	EXPECT_EQ(0, hg_freeze_state(g));
	expect_unrestricted(_metadata, g);
}

TEST_F(hg, no_such_group)
{
	char buf[64];
	pid_t dead, g, member;
	unsigned int i;

	dead = fork();
	ASSERT_LE(0, dead);
	if (dead == 0)
		_exit(0);
	ASSERT_EQ(0, wait_exit(dead));
	g = start_group_members(self->shm, 1, 1, 0);
	ASSERT_LT(0, g);
	/* A process that is in a group, but does not name one. */
	member = self->shm->pid[1];
	ASSERT_EQ(g, getpgid(member));

	for (i = 0; i < NR_CASES; i++) {
		const struct attr_case *c = &attr_cases[i];
		pid_t bad[] = { dead, member, INT_MAX };
		unsigned int j;

		for (j = 0; j < ARRAY_SIZE(bad); j++) {
			fill_noop(c->attr, buf);
			EXPECT_ERRNO(ESRCH, sys_hgroup_set_attr(bad[j], c->attr,
								buf, c->ver0,
								c->flags)) {
				TH_LOG("%s, pgid %d", c->name, bad[j]);
			}
			fill_get(c->attr, buf);
			EXPECT_ERRNO(ESRCH, sys_hgroup_get_attr(bad[j], c->attr,
								buf, c->ver0,
								c->flags)) {
				TH_LOG("%s, pgid %d", c->name, bad[j]);
			}
		}
	}
}

/*
 * "Argument checks come first, in the order of the list": EINVAL, then
 * E2BIG, then EFAULT, all before ESRCH (and, in perm_* below, EPERM
 * before EACCES).
 */
TEST_F(hg, error_order)
{
	char buf[8192] = { 0 };
	pid_t dead = fork();

	ASSERT_LE(0, dead);
	if (dead == 0)
		_exit(0);
	ASSERT_EQ(0, wait_exit(dead));

	fill_noop(HGROUP_ATTR_FREEZE, buf);
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dead, 0, buf, 8, 0));
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dead, 0, NULL, 8, 0));
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(dead, 0, NULL, 8, 0));
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dead, HGROUP_ATTR_FREEZE,
						 buf, 8, 2));
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dead, HGROUP_ATTR_FREEZE,
						 NULL, 8, 2));
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dead, HGROUP_ATTR_FREEZE,
						 buf, 0, 0));
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dead, HGROUP_ATTR_FREEZE,
						 NULL, 4, 0));
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(dead, HGROUP_ATTR_TASKS,
						 NULL, 16, 0));
	EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(dead, HGROUP_ATTR_FREEZE,
						buf, 4097, 0));
	EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(dead, HGROUP_ATTR_FREEZE,
						NULL, 4097, 0));
	buf[100] = 1;
	EXPECT_ERRNO(E2BIG, sys_hgroup_set_attr(dead, HGROUP_ATTR_FREEZE,
						buf, 128, 0));
	EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(dead, HGROUP_ATTR_FREEZE,
						 NULL, 8, 0));
	EXPECT_ERRNO(EFAULT, sys_hgroup_get_attr(dead, HGROUP_ATTR_FREEZE,
						 NULL, 8, 0));
	buf[100] = 0;
	EXPECT_ERRNO(ESRCH, sys_hgroup_set_attr(dead, HGROUP_ATTR_FREEZE,
						buf, 8, 0));
}

/* pgid 0 names the caller's own group, for both calls. */
TEST_F(hg, pgid_zero_is_own_group)
{
	static const struct hgroup_dev_rule rule = {
		HGROUP_DEV_CHAR, HGROUP_DEV_READ, 1, 3
	};
	struct hg_shm *shm = self->shm;
	pid_t child;

	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_DENY, &rule, 1,
					   0) == 0);
		CHILD_CHECK(devices_are(0, HGROUP_DEV_POLICY_DENY, &rule, 1) ==
			    0);
		CHILD_CHECK(devices_are(getpgrp(), HGROUP_DEV_POLICY_DENY,
					&rule, 1) == 0);
		hg_ready(shm);
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1 || hg_proc_state(child) == 'Z',
			    HG_CHILD_MS));
	ASSERT_EQ(1, shm->ready);
	/* The change made with pgid 0 is on the child's group... */
	EXPECT_EQ(0, devices_are(child, HGROUP_DEV_POLICY_DENY, &rule, 1));
	/* ...and ours, pgid 0 here, is untouched. */
	EXPECT_EQ(0, devices_are(0, HGROUP_DEV_POLICY_ALLOW, NULL, 0));
	EXPECT_EQ(0, devices_are(getpgrp(), HGROUP_DEV_POLICY_ALLOW, NULL, 0));
}

/* ---------------------------------------------------------------------- */
/* CPUs                                                                    */
/* ---------------------------------------------------------------------- */

/*
 * An unrestricted group reads as every possible CPU; reading writes no
 * more than the kernel's mask, and never beyond mask_size.
 */
TEST_F_TIMEOUT(hg, cpus_unrestricted_reads_possible, 90)
{
	unsigned long possible = hg_possible_cpus(), m[32];
	struct hgroup_mask hm = {
		.mask = (uintptr_t)m,
		.mask_size = sizeof(m),
	};
	pid_t g = start_group(0);
	unsigned int i;

	ASSERT_NE(0, possible);
	ASSERT_LT(0, g);
	memset(m, 0, sizeof(m));
	ASSERT_EQ(0, sys_hgroup_get_attr(g, HGROUP_ATTR_CPUS, &hm, sizeof(hm),
					 0));
	EXPECT_EQ(possible, m[0]);
	for (i = 1; i < 32; i++)
		EXPECT_EQ(0, m[i]);
	/* The first word is the kernel's in full, whatever was there. */
	memset(m, 0xff, sizeof(m));
	ASSERT_EQ(0, sys_hgroup_get_attr(g, HGROUP_ATTR_CPUS, &hm, sizeof(hm),
					 0));
	EXPECT_EQ(possible, m[0]);
	/* One word is room enough for every possible CPU here. */
	memset(m, 0xff, sizeof(m));
	hm.mask_size = sizeof(m[0]);
	ASSERT_EQ(0, sys_hgroup_get_attr(g, HGROUP_ATTR_CPUS, &hm, sizeof(hm),
					 0));
	EXPECT_EQ(possible, m[0]);
	EXPECT_EQ(~0UL, m[1]);
	/* Our own group too. */
	EXPECT_CPUS(possible, 0);
}

TEST_F_TIMEOUT(hg, cpus_bad_masks, 90)
{
	unsigned long possible = hg_possible_cpus();
	unsigned long offline = possible & ~hg_online_cpus();
	unsigned long m[32] = { 0 };
	struct hgroup_mask hm = { .mask = (uintptr_t)m };
	pid_t g = start_group(1);	/* a domain: HGROUP_SCOPE_DOMAIN below */
	int bit;

	ASSERT_LT(0, g);
	/* Empty. */
	EXPECT_ERRNO(EINVAL, hg_set_cpus(g, 0, 0));
	EXPECT_ERRNO(EINVAL, hg_set_cpus(g, 0, HGROUP_SCOPE_DOMAIN));
	hm.mask_size = sizeof(m);
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	m[0] = CPU0;
	hm.mask_size = 0;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	/* mask_size not a multiple of 8 (a __u64 array). */
	hm.mask_size = 4;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	hm.mask_size = 12;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	hm.mask_size = 1;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	/* Only CPUs that cannot exist: bits beyond the last possible. */
	for (bit = 63; bit >= 0 && (possible & (1UL << bit)); bit--)
		;
	if (bit >= 0 && (1UL << bit) > possible)
		EXPECT_ERRNO(EINVAL, hg_set_cpus(g, 1UL << bit, 0));
	m[0] = 0;
	m[15] = 1UL << 40;		/* CPU 1000 */
	hm.mask_size = 16 * sizeof(m[0]);
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(g, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	/* Only possible CPUs that are offline. */
	if (offline)
		EXPECT_ERRNO(EINVAL, hg_set_cpus(g, offline, 0));
	EXPECT_CPUS(possible, g);
}

/* Bits beyond the last possible CPU are ignored. */
TEST_F_TIMEOUT(hg, cpus_bits_beyond_possible_ignored, 90)
{
	unsigned long m[16] = { CPU0 };
	struct hgroup_mask hm = {
		.mask = (uintptr_t)m,
		.mask_size = sizeof(m),
	};
	pid_t g = start_group(0);

	ASSERT_LT(0, g);
	m[15] = 1UL << 40;		/* CPU 1000 */
	ASSERT_EQ(0, sys_hgroup_set_attr(g, HGROUP_ATTR_CPUS, &hm, sizeof(hm),
					 0));
	EXPECT_CPUS(CPU0, g);
}

/* Reading needs room for every possible CPU. */
TEST_F_TIMEOUT(hg, cpus_get_buffer_too_small, 90)
{
	unsigned long possible = hg_possible_cpus(), m[16];
	struct hgroup_mask hm = { .mask = (uintptr_t)m };
	pid_t g = start_group(0);

	ASSERT_LT(0, g);
	hm.mask_size = 0;
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(g, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	hm.mask_size = 4;
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(g, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	hm.mask_size = 7;
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(g, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	hm.mask_size = 12;
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(g, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	/* With more than 64 possible CPUs one word would be too small. */
	hm.mask_size = 8;
	EXPECT_EQ(0, sys_hgroup_get_attr(g, HGROUP_ATTR_CPUS, &hm, sizeof(hm),
					 0));
	EXPECT_EQ(possible, m[0]);
}

static struct hg_shm *tshm;
static pthread_mutex_t tmutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tcond = PTHREAD_COND_INITIALIZER;

static void *busy_thread(void *arg)
{
	long slot = (long)arg;

	hg_register_tid(tshm);
	while (tshm->step < 99)
		tshm->ctr[slot]++;
	return NULL;
}

static void *sleep_thread(void *arg)
{
	hg_register_tid(tshm);
	for (;;)
		sleep(1000);
	return NULL;
}

static void *read_thread(void *arg)
{
	int fd = (long)arg;
	char c;

	hg_register_tid(tshm);
	while (read(fd, &c, 1) != 0)
		;
	return NULL;
}

static void *cond_thread(void *arg)
{
	hg_register_tid(tshm);
	pthread_mutex_lock(&tmutex);
	for (;;)
		pthread_cond_wait(&tcond, &tmutex);
	return NULL;
}

static int all_affinity(struct hg_shm *shm, int n, unsigned long want)
{
	int i;

	for (i = 0; i < n; i++)
		if (hg_affinity(shm->pid[i]) != want)
			return 0;
	return 1;
}

static void log_affinity(struct __test_metadata *_metadata,
			 struct hg_shm *shm, int n)
{
	int i;

	for (i = 0; i < n; i++)
		TH_LOG("tid %d: affinity %#lx", shm->pid[i],
		       hg_affinity(shm->pid[i]));
}

/*
 * A new set reaches every thread of every process of the group, whatever
 * it is doing: spinning, sleeping, blocked in read() or on a condition
 * variable; and lifting it brings them all back.
 */
TEST_F_TIMEOUT(hg, cpus_reach_every_thread, 120)
{
	struct hg_shm *shm = self->shm;
	unsigned long online = hg_online_cpus();
	int p[2], ntids = 7;
	pid_t a;

	if (!two_cpus_online())
		SKIP(return, "needs CPUs 0 and 1 online");
	ASSERT_EQ(0, pipe(p));
	tshm = shm;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pthread_t t;
		pid_t b;

		CHILD_CHECK(setsid() == getpid());
		hg_register_tid(shm);
		CHILD_CHECK(!pthread_create(&t, NULL, busy_thread, (void *)0L));
		CHILD_CHECK(!pthread_create(&t, NULL, sleep_thread, NULL));
		CHILD_CHECK(!pthread_create(&t, NULL, read_thread,
					    (void *)(long)p[0]));
		CHILD_CHECK(!pthread_create(&t, NULL, cond_thread, NULL));
		b = fork();
		CHILD_CHECK(b >= 0);
		if (b == 0) {
			hg_register_tid(shm);
			CHILD_CHECK(!pthread_create(&t, NULL, sleep_thread,
						    NULL));
			while (shm->step < 99)
				shm->ctr[1]++;
			_exit(0);
		}
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == ntids, HG_CHILD_MS));
	ASSERT_TRUE(all_affinity(shm, ntids, online));

	ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
	EXPECT_CPUS(CPU0, a);
	EXPECT_TRUE(HG_POLL(all_affinity(shm, ntids, CPU0), HG_SETTLE_MS)) {
		log_affinity(_metadata, shm, ntids);
	}
	/* The spinning ones still spin, on CPU 0. */
	EXPECT_TRUE(hg_ctrs_move(shm, 0, 2, HG_SETTLE_MS));

	ASSERT_EQ(0, hg_set_cpus(a, hg_possible_cpus(), 0));
	EXPECT_CPUS(hg_possible_cpus(), a);
	EXPECT_TRUE(HG_POLL(all_affinity(shm, ntids, online), HG_SETTLE_MS)) {
		log_affinity(_metadata, shm, ntids);
	}
}

static int epoll_pipe[2];

/* Wait in epoll_wait() for the pipe; count EINTRs and events. */
static void *epoll_thread(void *arg)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int ep = epoll_create1(0);

	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, epoll_pipe[0], &ev))
		_exit(2);
	hg_register_tid(tshm);
	for (;;) {
		int n = epoll_wait(ep, &ev, 1, -1);

		if (n < 0 && errno == EINTR)
			__atomic_add_fetch(&tshm->ret[0], 1, __ATOMIC_SEQ_CST);
		else if (n == 1)
			break;
	}
	__atomic_add_fetch(&tshm->ret[1], 1, __ATOMIC_SEQ_CST);
	park();
	return NULL;
}

/*
 * A change of CPU set updates sleeping threads in place, as a cpuset
 * write does: when hgroup_set_attr() returns, every thread's affinity
 * shows it already, and a thread asleep in epoll_wait(), which returns
 * EINTR on a signal instead of restarting, is not interrupted.  The
 * threads were asleep there all along: a write to the pipe ends each
 * wait with its event.
 */
TEST_F_TIMEOUT(hg, cpus_change_leaves_sleepers_asleep, 120)
{
	struct hg_shm *shm = self->shm;
	unsigned long online = hg_online_cpus();
	int i, n = 4;
	pid_t a;

	if (!two_cpus_online())
		SKIP(return, "needs CPUs 0 and 1 online");
	ASSERT_EQ(0, pipe(epoll_pipe));
	tshm = shm;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pthread_t t;

		CHILD_CHECK(setsid() == getpid());
		for (i = 0; i < n; i++)
			CHILD_CHECK(!pthread_create(&t, NULL, epoll_thread,
						    NULL));
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == n, HG_CHILD_MS));
	for (i = 0; i < n; i++)
		ASSERT_TRUE(HG_POLL(hg_proc_state(shm->pid[i]) == 'S',
				    HG_CHILD_MS));
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
		EXPECT_TRUE(all_affinity(shm, n, CPU0)) {
			log_affinity(_metadata, shm, n);
		}
		ASSERT_EQ(0, hg_set_cpus(a, hg_possible_cpus(), 0));
		EXPECT_TRUE(all_affinity(shm, n, online)) {
			log_affinity(_metadata, shm, n);
		}
	}
	hg_sleep_ms(100);
	EXPECT_EQ(0, shm->ret[0]);
	EXPECT_EQ(0, shm->ret[1]);
	ASSERT_EQ(1, write(epoll_pipe[1], "x", 1));
	EXPECT_TRUE(HG_POLL(shm->ret[1] == n, HG_CHILD_MS));
	EXPECT_EQ(0, shm->ret[0]);
	kill(a, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, wait_exit(a));
	close(epoll_pipe[0]);
	close(epoll_pipe[1]);
}

/*
 * sched_setaffinity() in a restricted group is intersected with the set,
 * fails with EINVAL when nothing is left, and the group cannot lift
 * itself; root outside can, and then the affinity is free again.
 */
TEST_F_TIMEOUT(hg, cpus_setaffinity_intersects, 90)
{
	struct hg_shm *shm = self->shm;
	unsigned long online = hg_online_cpus();
	pid_t a;

	if (!two_cpus_online())
		SKIP(return, "needs CPUs 0 and 1 online");
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(HG_POLL(hg_affinity(0) == CPU0, HG_SETTLE_MS));
		CHILD_CHECK(hg_set_affinity(0, 3UL) == 0);
		CHILD_CHECK(hg_affinity(0) == CPU0);
		CHILD_CHECK(hg_set_affinity(0, ~0UL) == 0);
		CHILD_CHECK(hg_affinity(0) == CPU0);
		CHILD_ERRNO(EINVAL, hg_set_affinity(0, 2UL));
		CHILD_CHECK(hg_affinity(0) == CPU0);
		/* Root in a restricted group is bound by it too. */
		CHILD_ERRNO(EACCES, hg_set_cpus(0, hg_possible_cpus(), 0));
		CHILD_ERRNO(EACCES, hg_set_cpus(0, 2UL, 0));
		CHILD_CHECK(hg_get_cpus(0) == CPU0);
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 2) == 0);
		/* Lifted from outside. */
		CHILD_CHECK(HG_POLL(hg_affinity(0) == online, HG_SETTLE_MS));
		CHILD_CHECK(hg_set_affinity(0, 2UL) == 0);
		CHILD_CHECK(hg_affinity(0) == 2UL);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ready == 2 || hg_proc_state(a) == 'Z',
			    HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_cpus(a, hg_possible_cpus(), 0));
	hg_set_step(shm, 2);
	ASSERT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
}

/*
 * A thread's own affinity, from sched_setaffinity(), is kept across
 * changes of its group's set as across cpuset changes: the new mask is
 * narrowed to it where they meet, the group's mask is used where they do
 * not, and the thread's own comes back when a later set meets it again.
 */
TEST_F_TIMEOUT(hg, cpus_keep_own_affinity, 90)
{
	struct hg_shm *shm = self->shm;
	pid_t a;

	if (!two_cpus_online())
		SKIP(return, "needs CPUs 0 and 1 online");
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_set_affinity(0, 2UL) == 0);
		hg_ready(shm);
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(2UL, hg_affinity(a));
	/* Each change is in place before the call returns. */
	ASSERT_EQ(0, hg_set_cpus(a, 3UL, 0));
	EXPECT_EQ(2UL, hg_affinity(a));
	ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
	EXPECT_EQ(CPU0, hg_affinity(a));
	ASSERT_EQ(0, hg_set_cpus(a, hg_possible_cpus(), 0));
	EXPECT_EQ(2UL, hg_affinity(a));
	kill(a, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, wait_exit(a));
}

static void *affinity_thread(void *arg)
{
	*(unsigned long *)arg = hg_affinity(0);
	return NULL;
}

/*
 * New threads, forks, exec()ed programs and groups made by setsid() in
 * a restricted group keep its set.
 */
TEST_F_TIMEOUT(hg, cpus_inherited, 90)
{
	struct hg_shm *shm = self->shm;
	char helper[PATH_MAX];
	pid_t a;

	if (!two_cpus_online())
		SKIP(return, "needs CPUs 0 and 1 online");
	ASSERT_EQ(0, hg_helper_path(helper, sizeof(helper)));
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		unsigned long seen = 0;
		pthread_t t;
		pid_t c;

		CHILD_CHECK(setsid() == getpid());
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(HG_POLL(hg_affinity(0) == CPU0, HG_SETTLE_MS));

		CHILD_CHECK(!pthread_create(&t, NULL, affinity_thread, &seen));
		CHILD_CHECK(!pthread_join(t, NULL));
		CHILD_CHECK(seen == CPU0);

		c = fork();
		CHILD_CHECK(c >= 0);
		if (c == 0) {
			CHILD_CHECK(hg_affinity(0) == CPU0);
			CHILD_CHECK(hg_set_affinity(0, 3UL) == 0);
			CHILD_CHECK(hg_affinity(0) == CPU0);
			_exit(0);
		}
		CHILD_CHECK(hg_wait_exit_timeout(c, HG_CHILD_MS) == 0);

		CHILD_CHECK(run_helper("cpus", "1", NULL) == 0);

		c = fork();
		CHILD_CHECK(c >= 0);
		if (c == 0) {
			CHILD_CHECK(setsid() == getpid());
			CHILD_CHECK(hg_get_cpus(0) == CPU0);
			CHILD_CHECK(hg_affinity(0) == CPU0);
			CHILD_CHECK(run_helper("cpus", "1", NULL) == 0);
			_exit(0);
		}
		CHILD_CHECK(hg_wait_exit_timeout(c, HG_CHILD_MS) == 0);
		/* The caller's group still has the set. */
		CHILD_CHECK(hg_get_cpus(0) == CPU0);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
	hg_set_step(shm, 1);
	ASSERT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
}

/*
 * A process moved by setpgid() into another group of its session takes
 * that group's set; a move into a group that allows more is refused.
 */
TEST_F_TIMEOUT(hg, cpus_setpgid_takes_group_set, 90)
{
	struct hg_shm *shm = self->shm;
	unsigned long online = hg_online_cpus();
	pid_t a;

	if (!two_cpus_online())
		SKIP(return, "needs CPUs 0 and 1 online");
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pid_t b, c;

		CHILD_CHECK(setsid() == getpid());
		b = fork();
		CHILD_CHECK(b >= 0);
		if (b == 0) {
			CHILD_CHECK(setpgid(0, 0) == 0);
			park();
		}
		CHILD_CHECK(HG_POLL(getpgid(b) == b, HG_CHILD_MS));
		c = fork();
		CHILD_CHECK(c >= 0);
		if (c == 0)
			park();
		shm->pid[0] = getpid();
		shm->pid[1] = b;
		shm->pid[2] = c;
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		/* Our group (with c) is at {0}, b's is not. */
		CHILD_CHECK(HG_POLL(hg_affinity(c) == CPU0, HG_SETTLE_MS));
		CHILD_CHECK(hg_affinity(b) == online);

		/*
		 * c into b's group would shed our set: refused, even to
		 * root, whose own group is at {0} too (EPERM).
		 */
		CHILD_ERRNO(EPERM, setpgid(c, b));
		CHILD_CHECK(getpgid(c) == getpid());
		hg_sleep_ms(HG_QUIET_MS);
		CHILD_CHECK(hg_affinity(c) == CPU0);
		/* b into ours: {0}. */
		CHILD_CHECK(setpgid(b, getpid()) == 0);
		CHILD_CHECK(HG_POLL(hg_affinity(b) == CPU0, HG_SETTLE_MS));
		/* The group itself did not change. */
		CHILD_CHECK(hg_get_cpus(0) == CPU0);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1 || hg_proc_state(a) == 'Z',
			    HG_CHILD_MS));
	ASSERT_EQ(1, shm->ready);
	ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
	hg_set_step(shm, 1);
	ASSERT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
}

/*
 * Lifting is bounded by every group above the target: a non-leader group
 * of a domain cannot be lifted beyond the domain's leader group, even by
 * root, until the leader is lifted.
 */
TEST_F_TIMEOUT(hg, cpus_lift_bounded_by_leader, 90)
{
	struct hg_shm *shm = self->shm;
	unsigned long possible = hg_possible_cpus();
	pid_t x, n;

	if (!two_cpus_online())
		SKIP(return, "needs CPUs 0 and 1 online");
	x = start_group_members(shm, 1, 1, 1);
	ASSERT_LT(0, x);
	n = shm->pid[1];
	ASSERT_EQ(n, getpgid(n));
	ASSERT_EQ(x, sys_get_domainid(n));

	ASSERT_EQ(0, hg_set_cpus(x, CPU0, 0));
	ASSERT_EQ(0, hg_set_cpus(n, CPU0, 0));
	/* The kernel never propagates: each group was set on its own. */
	EXPECT_CPUS(CPU0, x);
	EXPECT_CPUS(CPU0, n);

	EXPECT_ERRNO(EACCES, hg_set_cpus(n, possible, 0));
	EXPECT_ERRNO(EACCES, hg_set_cpus(n, 3UL, 0));
	EXPECT_CPUS(CPU0, n);
	/* Tightening, or setting the same again, is no lift. */
	EXPECT_EQ(0, hg_set_cpus(n, CPU0, 0));

	ASSERT_EQ(0, hg_set_cpus(x, possible, 0));
	EXPECT_CPUS(possible, x);
	EXPECT_CPUS(CPU0, n);
	EXPECT_EQ(0, hg_set_cpus(n, possible, 0));
	EXPECT_CPUS(possible, n);
	EXPECT_TRUE(HG_POLL(hg_affinity(n) == hg_online_cpus(),
			    HG_SETTLE_MS));
}

/*
 * HGROUP_SCOPE_DOMAIN changes every group of the domain in one call, but
 * not its sub-domains; lifting the whole domain at once is allowed since
 * the groups above in the domain change in the same step.
 */
TEST_F_TIMEOUT(hg, cpus_scope_domain, 90)
{
	struct hg_shm *shm = self->shm;
	unsigned long possible = hg_possible_cpus();
	unsigned long online = hg_online_cpus();
	pid_t x, n, y;

	if (!two_cpus_online())
		SKIP(return, "needs CPUs 0 and 1 online");
	x = fork();
	ASSERT_LE(0, x);
	if (x == 0) {
		CHILD_CHECK(new_domain() == getpid());
		n = fork();
		CHILD_CHECK(n >= 0);
		if (n == 0) {
			CHILD_CHECK(setpgid(0, 0) == 0);
			park();
		}
		CHILD_CHECK(HG_POLL(getpgid(n) == n, HG_CHILD_MS));
		CHILD_CHECK(unshare(CLONE_NEWPID) == 0);
		y = fork();
		CHILD_CHECK(y >= 0);
		if (y == 0) {
			CHILD_CHECK(setsid() == 1);
			CHILD_CHECK(sys_set_domainid(0) == 1);
			hg_ready(shm);
			park();
		}
		shm->pid[1] = n;
		shm->pid[2] = y;
		hg_ready(shm);
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 2, HG_CHILD_MS));
	n = shm->pid[1];
	y = shm->pid[2];
	ASSERT_EQ(y, sys_get_domainid(y));
	ASSERT_EQ(x, sys_get_domainid(n));

	/* Named by a non-leader group: the whole domain. */
	ASSERT_EQ(0, hg_set_cpus(n, CPU0, HGROUP_SCOPE_DOMAIN));
	EXPECT_CPUS(CPU0, x);
	EXPECT_CPUS(CPU0, n);
	EXPECT_CPUS(possible, y);
	EXPECT_TRUE(HG_POLL(hg_affinity(x) == CPU0 && hg_affinity(n) == CPU0,
			    HG_SETTLE_MS));
	hg_sleep_ms(HG_QUIET_MS);
	EXPECT_EQ(online, hg_affinity(y));

	ASSERT_EQ(0, hg_set_cpus(x, possible, HGROUP_SCOPE_DOMAIN));
	EXPECT_CPUS(possible, x);
	EXPECT_CPUS(possible, n);
	EXPECT_TRUE(HG_POLL(hg_affinity(x) == online &&
			    hg_affinity(n) == online, HG_SETTLE_MS));
}

/*
 * Fork a process that makes a domain of its own and then @n processes in
 * it that keep making a group (setpgid(0, 0)) and going back to the
 * leader's, counting rounds in shm->ctr[i], until shm->step is 99.  While
 * the step is odd they stay put and report it in shm->ret[i].  Return the
 * leader's pid (its group's number); it counts shm->ready up once all
 * run.
 */
static pid_t start_churn(struct hg_shm *shm, int n)
{
	pid_t x = fork();
	int i;

	if (x)
		return x;
	CHILD_CHECK(new_domain() == getpid());
	for (i = 0; i < n; i++) {
		pid_t k = fork();

		CHILD_CHECK(k >= 0);
		if (k == 0) {
			pid_t leader = getppid();

			while (shm->step != 99) {
				int step = shm->step;

				if (step % 2) {
					/* Paused: stay put. */
					shm->ret[i] = step;
					usleep(1000);
					continue;
				}
				CHILD_CHECK(setpgid(0, 0) == 0);
				CHILD_CHECK(setpgid(0, leader) == 0);
				shm->ctr[i]++;
			}
			_exit(0);
		}
	}
	hg_ready(shm);
	park();
}

/*
 * HGROUP_SCOPE_DOMAIN misses no group created concurrently: while two
 * processes of the domain keep making and leaving groups, every group of
 * the domain reads the new set once the call has returned.
 */
TEST_F_TIMEOUT(hg, cpus_scope_domain_race, 180)
{
	struct hg_shm *shm = self->shm;
	unsigned long possible = hg_possible_cpus();
	pid_t x, pgids[64];
	int round, i, n;

	if (!two_cpus_online())
		SKIP(return, "needs CPUs 0 and 1 online");
	x = start_churn(shm, 2);
	ASSERT_LE(0, x);
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	for (round = 0; round < 5; round++) {
		unsigned long want = round % 2 ? possible : CPU0;

		/* Running (step even): both churn. */
		hg_set_step(shm, 2 * round);
		ASSERT_TRUE(hg_ctrs_move(shm, 0, 2, HG_CHILD_MS));
		ASSERT_EQ(0, hg_set_cpus(x, want, HGROUP_SCOPE_DOMAIN)) {
			TH_LOG("round %d: %s", round, strerror(errno));
		}
		/* Let them make groups from the changed ones for a while. */
		hg_sleep_ms(200);
		hg_set_step(shm, 2 * round + 1);
		ASSERT_TRUE(HG_POLL(shm->ret[0] == 2 * round + 1 &&
				    shm->ret[1] == 2 * round + 1, HG_CHILD_MS));
		n = domain_pgids(x, pgids, 64);
		ASSERT_LT(0, n);
		for (i = 0; i < n; i++) {
			EXPECT_CPUS(want, pgids[i]) {
				TH_LOG("round %d, group %d", round, pgids[i]);
			}
		}
	}
	hg_set_step(shm, 99);
}

/*
 * A group is found by its number however its members churn: a lookup
 * under RCU that walks the group's member list behind a process moving
 * to another group by setpgid() is taken along into that group's list.
 * Reads and changes of a group whose other members keep leaving and
 * joining never fail with ESRCH.
 */
#define CHURNERS 4

TEST_F_TIMEOUT(hg, find_group_while_members_churn, 180)
{
	struct hg_shm *shm = self->shm;
	unsigned long possible = hg_possible_cpus(), got;
	long calls = 0, esrch = 0, other = 0;
	long end;
	pid_t x;

	x = start_churn(shm, CHURNERS);
	ASSERT_LE(0, x);
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_TRUE(hg_ctrs_move(shm, 0, CHURNERS, HG_CHILD_MS));
	end = hg_now_ms() + 5000;
	while (hg_now_ms() < end) {
		errno = 0;
		got = hg_get_cpus(x);
		if (!got && errno == ESRCH)
			esrch++;
		else if (got != possible)
			other++;
		if (hg_set_cpus(x, possible, 0))
			errno == ESRCH ? esrch++ : other++;
		calls += 2;
	}
	/* The members were still moving at the end. */
	EXPECT_TRUE(hg_ctrs_move(shm, 0, CHURNERS, HG_CHILD_MS));
	hg_set_step(shm, 99);
	TH_LOG("%ld calls, %ld ESRCH, %ld other failures", calls, esrch, other);
	EXPECT_EQ(0, esrch);
	EXPECT_EQ(0, other);
}

/* A new set reaches 1,000 threads of one process in bounded time. */
static void *parked_thread(void *arg)
{
	hg_ready(tshm);
	while (tshm->step < 99)
		pause();
	return NULL;
}

static int list_tids(pid_t pid, pid_t *tids, int max)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)) && n < max)
		if (atoi(de->d_name) > 0)
			tids[n++] = atoi(de->d_name);
	closedir(d);
	return n;
}

static int count_affinity(const pid_t *tids, int n, unsigned long want)
{
	int i, ok = 0;

	for (i = 0; i < n; i++)
		ok += hg_affinity(tids[i]) == want;
	return ok;
}

TEST_F_TIMEOUT(hg, cpus_1000_threads, 300)
{
	static pid_t tids[1100];
	struct hg_shm *shm = self->shm;
	unsigned long online = hg_online_cpus();
	int n, nthreads = 999;
	long t0;
	pid_t a;

	if (!two_cpus_online())
		SKIP(return, "needs CPUs 0 and 1 online");
	tshm = shm;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pthread_attr_t attr;
		pthread_t t;
		int i;

		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(!pthread_attr_init(&attr));
		CHILD_CHECK(!pthread_attr_setstacksize(&attr, 64 << 10));
		/* Two of them spin, the others sleep. */
		for (i = 0; i < 2; i++)
			CHILD_CHECK(!pthread_create(&t, &attr, busy_thread,
						    (void *)(long)i));
		for (; i < nthreads; i++)
			CHILD_CHECK(!pthread_create(&t, &attr, parked_thread,
						    NULL));
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == nthreads, 120000));
	n = list_tids(a, tids, 1100);
	ASSERT_EQ(nthreads + 1, n);
	ASSERT_EQ(n, count_affinity(tids, n, online));

	t0 = hg_now_ms();
	ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
	EXPECT_TRUE(HG_POLL(count_affinity(tids, n, CPU0) == n, 60000)) {
		TH_LOG("%d of %d threads at {0}",
		       count_affinity(tids, n, CPU0), n);
	}
	TH_LOG("{0} reached %d threads in %ld ms", n, hg_now_ms() - t0);

	t0 = hg_now_ms();
	ASSERT_EQ(0, hg_set_cpus(a, hg_possible_cpus(), 0));
	EXPECT_TRUE(HG_POLL(count_affinity(tids, n, online) == n, 60000)) {
		TH_LOG("%d of %d threads back", count_affinity(tids, n, online),
		       n);
	}
	TH_LOG("the lift reached %d threads in %ld ms", n, hg_now_ms() - t0);
	hg_set_step(shm, 99);
}

/* ---------------------------------------------------------------------- */
/* Memory nodes                                                            */
/* ---------------------------------------------------------------------- */

#ifndef MPOL_F_NODE
#define MPOL_F_NODE	0x1
#define MPOL_F_ADDR	0x2
#endif
#ifndef MPOL_INTERLEAVE
#define MPOL_INTERLEAVE	3
#endif

/* Memory nodes from /sys; without NUMA there, node 0 alone. */
static unsigned long node_list(const char *which)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/node/%s", which);
	if (access(path, R_OK))
		return 1UL;
	return hg_cpulist(path);
}

/* Mems_allowed_list of thread @tid of @pid as a bitmap, 0 if unknown. */
static unsigned long task_mems(pid_t pid, pid_t tid)
{
	static const char key[] = "Mems_allowed_list:";
	char path[96], line[256];
	unsigned long bits = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, sizeof(key) - 1)) {
			bits = hg_list_bits(line + sizeof(key) - 1);
			break;
		}
	}
	fclose(f);
	return bits;
}

static int all_mems(struct hg_shm *shm, pid_t pid, int n, unsigned long want)
{
	int i;

	for (i = 0; i < n; i++)
		if (task_mems(pid, shm->pid[i]) != want)
			return 0;
	return 1;
}

/*
 * The nodes of @pages pages the caller allocates and touches now; bit 63
 * if a node cannot be read.
 */
static unsigned long alloc_nodes(int pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long nodes = 0;
	int i;

	if (p == MAP_FAILED)
		return 1UL << 63;
	for (i = 0; i < pages; i++) {
		int node = -1;

		p[i * psz] = 1;
		if (syscall(__NR_get_mempolicy, &node, NULL, 0, p + i * psz,
			    MPOL_F_NODE | MPOL_F_ADDR) || node < 0 || node > 62)
			nodes |= 1UL << 63;
		else
			nodes |= 1UL << node;
	}
	munmap(p, pages * psz);
	return nodes;
}

/*
 * Memory nodes: read back, refused sets, pushed to every thread (their
 * Mems_allowed), honoured by the page allocator for new pages, inherited,
 * not liftable from inside.  Skips where the kernel cannot enforce them
 * (EOPNOTSUPP: no CONFIG_CPUSETS).
 *
 * The child a serves requests: at step k it waits for its own nodes to be
 * shm->ret[1], allocates, and answers in shm->ctr[k] (the nodes its new
 * pages came from), shm->ret[2] (errno of lifting its own group to every
 * online node) and shm->ret[3] (exit code of a fork checking its nodes),
 * then sets shm->ret[0] = k.
 */
TEST_F_TIMEOUT(hg, mems, 120)
{
	struct hg_shm *shm = self->shm;
	unsigned long possible = node_list("possible");
	unsigned long online = node_list("online");
	unsigned long m[16] = { 0 };
	struct hgroup_mask hm = { .mask = (uintptr_t)m, .mask_size = sizeof(m) };
	int step = 0;
	pid_t a;

	errno = 0;
	if (sys_hgroup_get_attr(0, HGROUP_ATTR_MEMS, &hm, sizeof(hm), 0) &&
	    errno == EOPNOTSUPP)
		SKIP(return, "memory nodes not supported (no CONFIG_CPUSETS)");
	ASSERT_NE(0, possible);
	tshm = shm;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pthread_t t;
		int done = 0;

		CHILD_CHECK(setsid() == getpid());
		hg_register_tid(shm);
		CHILD_CHECK(!pthread_create(&t, NULL, sleep_thread, NULL));
		for (;;) {
			unsigned long want;
			pid_t c;
			long r;

			CHILD_CHECK(HG_POLL(shm->step != done, HG_CHILD_MS));
			done = shm->step;
			if (done == 99)
				_exit(0);
			want = shm->ret[1];
			CHILD_CHECK(HG_POLL(task_mems(getpid(), getpid()) ==
					    want, HG_SETTLE_MS));
			shm->ctr[done] = alloc_nodes(64);
			r = hg_set_mask(0, HGROUP_ATTR_MEMS, online, 0);
			shm->ret[2] = r ? errno : 0;
			c = fork();
			CHILD_CHECK(c >= 0);
			if (c == 0)
				_exit(task_mems(getpid(), getpid()) == want &&
				      hg_get_mask(0, HGROUP_ATTR_MEMS) == want ?
				      0 : 1);
			shm->ret[3] = hg_wait_exit_timeout(c, HG_CHILD_MS);
			shm->ret[0] = done;
		}
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 2, HG_CHILD_MS));
	EXPECT_EQ(possible, hg_get_mask(a, HGROUP_ATTR_MEMS));
	EXPECT_TRUE(all_mems(shm, a, 2, online));

	/* Refused: empty, nodes that cannot exist, offline nodes. */
	EXPECT_ERRNO(EINVAL, hg_set_mask(a, HGROUP_ATTR_MEMS, 0, 0));
	EXPECT_ERRNO(EINVAL, hg_set_mask(a, HGROUP_ATTR_MEMS, 1UL << 63, 0));
	if (possible & ~online) {
		EXPECT_ERRNO(EINVAL, hg_set_mask(a, HGROUP_ATTR_MEMS,
						 possible & ~online, 0));
	}
	m[0] = 1;
	hm.mask_size = 4;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(a, HGROUP_ATTR_MEMS, &hm,
						 sizeof(hm), 0));
	hm.mask_size = 0;
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(a, HGROUP_ATTR_MEMS, &hm,
						 sizeof(hm), 0));
	EXPECT_EQ(possible, hg_get_mask(a, HGROUP_ATTR_MEMS));

	/* Node 0, then node 1 if there is one. */
	for (step = 1; step <= 2; step++) {
		unsigned long want = 1UL << (step - 1);

		if (!(online & want))
			break;
		ASSERT_EQ(0, hg_set_mask(a, HGROUP_ATTR_MEMS, want, 0));
		EXPECT_EQ(want, hg_get_mask(a, HGROUP_ATTR_MEMS));
		EXPECT_TRUE(HG_POLL(all_mems(shm, a, 2, want), HG_SETTLE_MS)) {
			TH_LOG("thread nodes %#lx %#lx, want %#lx",
			       task_mems(a, shm->pid[0]),
			       task_mems(a, shm->pid[1]), want);
		}
		shm->ret[1] = want;
		hg_set_step(shm, step);
		ASSERT_TRUE(HG_POLL(shm->ret[0] == step ||
				    hg_proc_state(a) == 'Z', HG_CHILD_MS));
		ASSERT_EQ(step, shm->ret[0]);
		EXPECT_EQ(want, shm->ctr[step]) {
			TH_LOG("new pages came from nodes %#lx",
			       shm->ctr[step]);
		}
		if (online != want)
			EXPECT_EQ(EACCES, shm->ret[2]);
		EXPECT_EQ(0, shm->ret[3]);
	}

	/* Lifted from outside: every node again. */
	ASSERT_EQ(0, hg_set_mask(a, HGROUP_ATTR_MEMS, possible, 0));
	EXPECT_EQ(possible, hg_get_mask(a, HGROUP_ATTR_MEMS));
	EXPECT_TRUE(HG_POLL(all_mems(shm, a, 2, online), HG_SETTLE_MS));
	hg_set_step(shm, 99);
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
}

/* The policy /proc/PID/numa_maps shows for the area at @addr, or "". */
static void area_policy(pid_t pid, unsigned long addr, char *out, size_t len)
{
	char path[64], line[512], pol[64];
	unsigned long start;
	FILE *f;

	out[0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %63s", &start, pol) == 2 &&
		    start == addr) {
			snprintf(out, len, "%s", pol);
			break;
		}
	}
	fclose(f);
}

/*
 * For the tests that remap memory areas between nodes 0-2: 1, with the
 * test skipped, without CONFIG_CPUSETS or unless nodes 0, 1 and 2 are
 * online; 0 otherwise.
 */
static int need_nodes_012(struct __test_metadata *_metadata)
{
	unsigned long m = 0;
	struct hgroup_mask hm = { .mask = (uintptr_t)&m, .mask_size = sizeof(m) };

	errno = 0;
	if (sys_hgroup_get_attr(0, HGROUP_ATTR_MEMS, &hm, sizeof(hm), 0) &&
	    errno == EOPNOTSUPP)
		SKIP(return 1, "memory nodes not supported (no CONFIG_CPUSETS)");
	if ((node_list("online") & 7UL) != 7UL)
		SKIP(return 1, "needs nodes 0, 1 and 2");
	return 0;
}

/*
 * In a child: a page of its own interleaved over nodes 0-1, its address
 * in shm->ctr[0]; exit 1 on failure.
 */
static char *interleaved_page(struct hg_shm *shm)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long nodes = 3UL;

	CHILD_CHECK(p != MAP_FAILED);
	CHILD_CHECK(syscall(__NR_mbind, p, psz, MPOL_INTERLEAVE, &nodes,
			    sizeof(nodes) * 8, 0) == 0);
	shm->ctr[0] = (unsigned long)p;
	return p;
}

static void *pause_thread(void *arg)
{
	for (;;)
		pause();
	return NULL;
}

/*
 * The policies of a process's memory areas follow its group's node set,
 * as a cpuset change rebinds them (by position, nodes_remap()): an area
 * interleaved over nodes 0-1 while the process may use 0-2 is
 * interleaved over 1-2 once its group may use 1-2 only.  The changer
 * rebinds in place, so numa_maps shows it when the call returns, with
 * the process's 70 threads (more than a batch) asleep; a child forked
 * after has it too.  The child answers in shm->ret[1] (the grandchild's
 * exit: 0 if it saw interleave over 1-2) and shm->ret[2] (its own nodes).
 */
TEST_F_TIMEOUT(hg, mems_rebind_area_policy, 90)
{
	struct hg_shm *shm = self->shm;
	char pol[64];
	pid_t a;

	if (need_nodes_012(_metadata))
		return;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		unsigned long nodes;
		int mode = -1, i;
		pthread_t t;
		pid_t g;
		char *p;

		CHILD_CHECK(setsid() == getpid());
		p = interleaved_page(shm);
		for (i = 0; i < 70; i++)
			CHILD_CHECK(!pthread_create(&t, NULL, pause_thread,
						    NULL));
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		g = fork();
		CHILD_CHECK(g >= 0);
		if (g == 0) {
			nodes = 0;
			_exit(syscall(__NR_get_mempolicy, &mode, &nodes,
				      sizeof(nodes) * 8, p, MPOL_F_ADDR) ||
			      mode != MPOL_INTERLEAVE || nodes != 6UL);
		}
		shm->ret[1] = wait_exit(g);
		nodes = 0;
		CHILD_CHECK(syscall(__NR_get_mempolicy, &mode, &nodes,
				    sizeof(nodes) * 8, p, MPOL_F_ADDR) == 0);
		shm->ret[2] = mode == MPOL_INTERLEAVE ? nodes : 0;
		shm->ret[0] = 1;
		for (;;)
			pause();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	area_policy(a, shm->ctr[0], pol, sizeof(pol));
	ASSERT_STREQ("interleave:0-1", pol);
	ASSERT_EQ(0, hg_set_mask(a, HGROUP_ATTR_MEMS, 6UL, 0));
	area_policy(a, shm->ctr[0], pol, sizeof(pol));
	EXPECT_STREQ("interleave:1-2", pol);
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ret[0] == 1 || hg_proc_state(a) == 'Z',
			    HG_CHILD_MS));
	EXPECT_EQ(0, shm->ret[1]);
	EXPECT_EQ(6, shm->ret[2]);
	kill(a, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, wait_exit(a));
}

/* Hold the mm's mmap_lock as often as it can: populate and drop 16 MiB. */
static void *populate_thread(void *arg)
{
	size_t len = 16UL << 20;

	for (;;) {
		void *q = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
			       -1, 0);

		if (q != MAP_FAILED)
			munmap(q, len);
	}
	return NULL;
}

/*
 * A changer never waits for a process's mmap_lock, which the process may
 * hold as long as it likes: while a thread of the process keeps it busy
 * (populating mappings), node-set changes return at once, and the
 * process rebinds its own policies (the virtual signal) when the lock is
 * free.  Twenty changes, back and forth between nodes 1-2 and 0-2: the
 * area interleaved over 0-1 follows, by position, to 1-2 and back.
 */
TEST_F_TIMEOUT(hg, mems_rebind_while_mmap_lock_busy, 120)
{
	struct hg_shm *shm = self->shm;
	char pol[64];
	pid_t a;
	int i;

	if (need_nodes_012(_metadata))
		return;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pthread_t t;

		CHILD_CHECK(setsid() == getpid());
		interleaved_page(shm);
		CHILD_CHECK(!pthread_create(&t, NULL, populate_thread, NULL));
		hg_ready(shm);
		for (;;)
			pause();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	area_policy(a, shm->ctr[0], pol, sizeof(pol));
	ASSERT_STREQ("interleave:0-1", pol);
	for (i = 0; i < 20; i++) {
		const char *want = i % 2 ? "interleave:0-1" : "interleave:1-2";
		long t0;

		ASSERT_EQ(0, hg_set_mask(a, HGROUP_ATTR_MEMS,
					 i % 2 ? 7UL : 6UL, 0));
		t0 = hg_now_ms();
		/* The process may wait long for its own mmap_lock here. */
		EXPECT_TRUE(HG_POLL((area_policy(a, shm->ctr[0], pol,
						 sizeof(pol)),
				     !strcmp(pol, want)), HG_CHILD_MS))
			TH_LOG("change %d: %s, not %s", i, pol, want);
		if (hg_now_ms() - t0 > 1000)
			TH_LOG("change %d: rebound after %ld ms", i,
			       hg_now_ms() - t0);
	}
	kill(a, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, wait_exit(a));
}

#define FUSE_DIR	"/tmp/hgfuse"
#define FUSE_FILE	FUSE_DIR "/f"

/* Answer FUSE request @in on @fd with @len bytes of @out and @error. */
static void fuse_reply(int fd, const struct fuse_in_header *in, int error,
		       const void *out, size_t len)
{
	struct fuse_out_header h = {
		.len = sizeof(h) + len, .error = error, .unique = in->unique,
	};
	struct iovec iov[2] = {
		{ .iov_base = &h, .iov_len = sizeof(h) },
		{ .iov_base = (void *)out, .iov_len = len },
	};

	/* ENOENT: the request was interrupted; nothing to do. */
	if (writev(fd, iov, len ? 2 : 1) < 0 && errno != ENOENT)
		_exit(1);
}

static void fuse_fill_attr(struct fuse_attr *a, uint64_t ino)
{
	memset(a, 0, sizeof(*a));
	a->ino = ino;
	a->mode = ino == FUSE_ROOT_ID ? S_IFDIR | 0755 : S_IFREG | 0444;
	a->nlink = ino == FUSE_ROOT_ID ? 2 : 1;
	a->size = ino == FUSE_ROOT_ID ? 0 : 4096;
	a->blocks = 8;
	a->blksize = 4096;
}

/*
 * A FUSE server of one read-only file of one page, FUSE_FILE, that holds
 * every read until shm->step reaches 2, with shm->ctr[1] set while it
 * holds one.  Runs until the file system is unmounted.
 */
static void fuse_serve(int fd, struct hg_shm *shm)
{
	static char buf[FUSE_MIN_READ_BUFFER + 65536];
	static char page[4096];

	memset(page, 'x', sizeof(page));
	for (;;) {
		struct fuse_in_header *in = (void *)buf;
		void *arg = buf + sizeof(*in);
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < (ssize_t)sizeof(*in))
			_exit(0);
		switch (in->opcode) {
		case FUSE_INIT: {
			struct fuse_init_in *ii = arg;
			struct fuse_init_out io = {
				.major = FUSE_KERNEL_VERSION,
				.minor = FUSE_KERNEL_MINOR_VERSION,
				.max_readahead = ii->max_readahead,
				.max_write = 4096,
				.time_gran = 1,
			};

			fuse_reply(fd, in, 0, &io, sizeof(io));
			break;
		}
		case FUSE_LOOKUP: {
			struct fuse_entry_out eo = {
				.nodeid = 2,
				.entry_valid = 3600,
				.attr_valid = 3600,
			};

			if (strcmp(arg, "f")) {
				fuse_reply(fd, in, -ENOENT, NULL, 0);
				break;
			}
			fuse_fill_attr(&eo.attr, 2);
			fuse_reply(fd, in, 0, &eo, sizeof(eo));
			break;
		}
		case FUSE_GETATTR: {
			struct fuse_attr_out ao = { .attr_valid = 3600 };

			fuse_fill_attr(&ao.attr, in->nodeid);
			fuse_reply(fd, in, 0, &ao, sizeof(ao));
			break;
		}
		case FUSE_OPEN: {
			struct fuse_open_out oo = { .fh = 1 };

			fuse_reply(fd, in, 0, &oo, sizeof(oo));
			break;
		}
		case FUSE_READ: {
			struct fuse_read_in *ri = arg;
			size_t len = ri->offset < sizeof(page) ?
				     sizeof(page) - ri->offset : 0;

			if (len > ri->size)
				len = ri->size;
			shm->ctr[1] = 1;
			HG_POLL(shm->step >= 2, 60000);
			shm->ctr[1] = 0;
			fuse_reply(fd, in, 0, page, len);
			break;
		}
		case FUSE_FLUSH:
		case FUSE_RELEASE:
			fuse_reply(fd, in, 0, NULL, 0);
			break;
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
		case FUSE_INTERRUPT:
			/* No answer; the read is answered when released. */
			break;
		default:
			fuse_reply(fd, in, -EIO, NULL, 0);
		}
	}
}

/* Read a byte of the calling process at shm->ctr[2] through /proc. */
static void *proc_mem_thread(void *arg)
{
	struct hg_shm *shm = arg;
	int fd = open("/proc/self/mem", O_RDONLY);
	char c;

	CHILD_CHECK(fd >= 0);
	CHILD_CHECK(pread(fd, &c, 1, shm->ctr[2]) == 1 && c == 'x');
	shm->ret[0] = 1;
	return NULL;
}

/*
 * A process can hold its own mmap_lock for as long as it likes: a read of
 * its /proc/PID/mem over a page of a FUSE file whose server does not
 * answer holds it for reading throughout (get_user_pages_remote() cannot
 * drop it).  A node-set change of its group does not wait for it: the
 * call returns while the server still holds the read, and the process
 * rebinds its own policies once it has the lock again.  A changer that
 * waited would return only when the test stops holding, after 10 s.
 */
TEST_F_TIMEOUT(hg, mems_rebind_while_mmap_lock_held_by_fuse, 120)
{
	struct hg_shm *shm = self->shm;
	char opts[128], pol[64];
	pid_t a, server, timer;
	long t0, took;
	int fd;

	if (need_nodes_012(_metadata))
		return;
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		SKIP(return, "no /dev/fuse (CONFIG_FUSE_FS): %s",
		     strerror(errno));
	mkdir(FUSE_DIR, 0755);
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0", fd);
	ASSERT_EQ(0, mount("hgfuse", FUSE_DIR, "fuse", MS_NOSUID | MS_NODEV,
			   opts));
	server = fork();
	ASSERT_LE(0, server);
	if (server == 0)
		fuse_serve(fd, shm);
	close(fd);

	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		int f = open(FUSE_FILE, O_RDONLY);
		pthread_t t;
		char *p;

		CHILD_CHECK(setsid() == getpid());
		interleaved_page(shm);
		CHILD_CHECK(f >= 0);
		p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, f, 0);
		CHILD_CHECK(p != MAP_FAILED);
		shm->ctr[2] = (unsigned long)p;
		CHILD_CHECK(!pthread_create(&t, NULL, proc_mem_thread, shm));
		hg_ready(shm);
		for (;;)
			pause();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	area_policy(a, shm->ctr[0], pol, sizeof(pol));
	ASSERT_STREQ("interleave:0-1", pol);
	/* The thread is in the server's read, with the lock held. */
	ASSERT_TRUE(HG_POLL(shm->ctr[1] == 1, HG_CHILD_MS));
	hg_sleep_ms(HG_QUIET_MS);
	ASSERT_EQ(0, shm->ret[0]);

	hg_set_step(shm, 1);
	t0 = hg_now_ms();
	timer = fork();
	ASSERT_LE(0, timer);
	if (timer == 0) {
		/* Stop holding after 10 s, whatever the change does. */
		hg_sleep_ms(10000);
		hg_set_step(shm, 2);
		_exit(0);
	}
	EXPECT_EQ(0, hg_set_mask(a, HGROUP_ATTR_MEMS, 6UL, 0));
	took = hg_now_ms() - t0;
	EXPECT_EQ(1, shm->ctr[1]) TH_LOG("the change took %ld ms", took);
	EXPECT_GT(5000, took);
	EXPECT_EQ(0, shm->ret[0]);

	/* Once the read is answered, the process rebinds itself. */
	hg_set_step(shm, 2);
	EXPECT_TRUE(HG_POLL(shm->ret[0] == 1, HG_CHILD_MS));
	EXPECT_TRUE(HG_POLL((area_policy(a, shm->ctr[0], pol, sizeof(pol)),
			     !strcmp(pol, "interleave:1-2")), HG_CHILD_MS))
		TH_LOG("%s, not interleave:1-2", pol);
	kill(a, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, wait_exit(a));
	EXPECT_EQ(0, umount2(FUSE_DIR, MNT_DETACH));
	EXPECT_EQ(0, wait_exit(server));
	kill(timer, SIGKILL);
	wait_exit(timer);
	rmdir(FUSE_DIR);
}

/* ---------------------------------------------------------------------- */
/* Devices                                                                 */
/* ---------------------------------------------------------------------- */

#define DEV_NULL	makedev(1, 3)
#define DEV_ZERO	makedev(1, 5)

static int open_err(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int mknod_err(const char *dir, const char *name, mode_t mode,
		     dev_t dev)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	if (mknod(path, mode | 0600, dev))
		return errno;
	return 0;
}

/* A scratch directory with copies of /dev/null and /dev/zero. */
struct devdir {
	char dir[64];
	char null2[96];
	char zero2[96];
};

static int devdir_make(struct devdir *d)
{
	struct stat st;

	if (stat("/dev/null", &st) || !S_ISCHR(st.st_mode) ||
	    st.st_rdev != DEV_NULL ||
	    stat("/dev/zero", &st) || !S_ISCHR(st.st_mode) ||
	    st.st_rdev != DEV_ZERO)
		return 1;
	snprintf(d->dir, sizeof(d->dir), "/tmp/hgroup-dev-XXXXXX");
	if (!mkdtemp(d->dir))
		return -1;
	snprintf(d->null2, sizeof(d->null2), "%s/null2", d->dir);
	snprintf(d->zero2, sizeof(d->zero2), "%s/zero2", d->dir);
	if (mknod(d->null2, S_IFCHR | 0666, DEV_NULL) ||
	    mknod(d->zero2, S_IFCHR | 0666, DEV_ZERO))
		return -1;
	return 0;
}

static void devdir_remove(struct devdir *d)
{
	static const char * const names[] = {
		"null2", "zero2", "n", "z", "b", "f", "file", "t", "r",
	};
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", d->dir, names[i]);
		unlink(path);
	}
	rmdir(d->dir);
}

/* devdir_make(): 0, or 1 with the test skipped if the devices are not there. */
static int devdir_make_or_skip(struct __test_metadata *_metadata,
			       struct devdir *d)
{
	int r = devdir_make(d);

	if (r > 0)
		SKIP(return 1, "no /dev/null (1:3) and /dev/zero (1:5)");
	ASSERT_EQ(0, r);
	return 0;
}

/* Rules are compared as sets: the order of the list is not documented. */
static int same_rules(const struct hgroup_dev_rule *a,
		      const struct hgroup_dev_rule *b, unsigned int n)
{
	char used[HGROUP_DEV_MAX_RULES] = { 0 };
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++)
			if (!used[j] && !memcmp(&a[i], &b[j], sizeof(a[i])))
				break;
		if (j == n)
			return 0;
		used[j] = 1;
	}
	return 1;
}

/* Read a group's list: 0 if it is @policy with the @n @rules. */
static int devices_are(pid_t pgid, __u32 policy,
		       const struct hgroup_dev_rule *rules, unsigned int n)
{
	struct hgroup_dev_rule out[HGROUP_DEV_MAX_RULES];
	struct hgroup_devices d = {
		.nr_rules = HGROUP_DEV_MAX_RULES,
		.rules = (uintptr_t)out,
	};

	if (sys_hgroup_get_attr(pgid, HGROUP_ATTR_DEVICES, &d, sizeof(d), 0))
		return -1;
	if (d.policy != policy || d.nr_rules != n)
		return -1;
	return same_rules(rules, out, n) ? 0 : -1;
}

TEST_F_TIMEOUT(hg, devices_unrestricted, 60)
{
	struct hgroup_dev_rule out[4];
	struct hgroup_devices d = { .nr_rules = 4, .rules = (uintptr_t)out };
	pid_t g = start_group(0);

	ASSERT_LT(0, g);
	memset(out, 0xa5, sizeof(out));
	ASSERT_EQ(0, sys_hgroup_get_attr(g, HGROUP_ATTR_DEVICES, &d,
					 sizeof(d), 0));
	EXPECT_EQ(HGROUP_DEV_POLICY_ALLOW, d.policy);
	EXPECT_EQ(0, d.nr_rules);
	/* No rules: no room needed. */
	d.nr_rules = 0;
	d.rules = 0;
	d.policy = 7;
	ASSERT_EQ(0, sys_hgroup_get_attr(g, HGROUP_ATTR_DEVICES, &d,
					 sizeof(d), 0));
	EXPECT_EQ(HGROUP_DEV_POLICY_ALLOW, d.policy);
	EXPECT_EQ(0, d.nr_rules);
}

/*
 * Deny all but /dev/null read and write: /dev/null opens, /dev/zero does
 * not, whatever the path; no device node can be made (the rule lacks
 * mknod); files, FIFOs and directories are not affected.
 */
TEST_F_TIMEOUT(hg, devices_deny_policy, 60)
{
	static const struct hgroup_dev_rule rule = {
		HGROUP_DEV_CHAR, HGROUP_DEV_READ | HGROUP_DEV_WRITE, 1, 3
	};
	struct devdir dd;
	pid_t a;

	if (devdir_make_or_skip(_metadata, &dd))
		return;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		char file[128];

		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_DENY, &rule,
					   1, 0) == 0);
		CHILD_CHECK(open_err("/dev/null", O_RDWR) == 0);
		CHILD_CHECK(open_err("/dev/null", O_RDONLY) == 0);
		CHILD_CHECK(open_err("/dev/null", O_WRONLY) == 0);
		CHILD_CHECK(open_err(dd.null2, O_RDWR) == 0);
		CHILD_CHECK(open_err("/dev/zero", O_RDONLY) == EPERM);
		CHILD_CHECK(open_err("/dev/zero", O_WRONLY) == EPERM);
		CHILD_CHECK(open_err(dd.zero2, O_RDONLY) == EPERM);
		CHILD_CHECK(mknod_err(dd.dir, "z", S_IFCHR, DEV_ZERO) == EPERM);
		CHILD_CHECK(mknod_err(dd.dir, "n", S_IFCHR, DEV_NULL) == EPERM);
		CHILD_CHECK(mknod_err(dd.dir, "b", S_IFBLK, makedev(7, 0)) ==
			    EPERM);
		/* Not device nodes. */
		CHILD_CHECK(mknod_err(dd.dir, "f", S_IFIFO, 0) == 0);
		snprintf(file, sizeof(file), "%s/file", dd.dir);
		CHILD_CHECK(open_err(file, O_RDWR | O_CREAT) == 0);
		CHILD_CHECK(open_err(file, O_RDONLY) == 0);
		CHILD_CHECK(open_err("/proc/self/status", O_RDONLY) == 0);
		CHILD_CHECK(open_err("/dev", O_RDONLY | O_DIRECTORY) == 0);
		_exit(0);
	}
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	/* We are not restricted. */
	EXPECT_EQ(0, open_err("/dev/zero", O_RDONLY));
	devdir_remove(&dd);
}

/*
 * Fork a child that makes a session and group of its own and, once a byte
 * arrives on @fd, exits with the errno of opening /dev/zero.
 */
static pid_t fork_zero_opener(int fd)
{
	pid_t pid = fork();
	char c;

	if (pid == 0) {
		if (setsid() != getpid())
			_exit(100);
		if (read(fd, &c, 1) != 1)
			_exit(101);
		_exit(open_err("/dev/zero", O_RDONLY));
	}
	return pid;
}

/*
 * Domain 0 keeps no member list, and its leader is the initial group,
 * which nobody may change: a change of the whole of domain 0 is refused
 * (EPERM, even for root) and changes no group of it, the one it was named
 * by, the caller's own or one made after; a change of one group of
 * domain 0 still works, and binds only that group.
 */
TEST_F_TIMEOUT(hg, devices_scope_domain_0, 60)
{
	static const struct hgroup_dev_rule rule = {
		HGROUP_DEV_CHAR, HGROUP_DEV_READ | HGROUP_DEV_WRITE, 1, 5
	};
	struct stat st;
	int go[2];
	pid_t a, b, c;

	if (stat("/dev/zero", &st) || st.st_rdev != DEV_ZERO)
		SKIP(return, "no /dev/zero (1:5)");
	ASSERT_EQ(0, sys_get_domainid(0));
	ASSERT_EQ(0, pipe(go));
	a = fork_zero_opener(go[0]);
	ASSERT_LT(0, a);
	b = fork_zero_opener(go[0]);
	ASSERT_LT(0, b);
	ASSERT_TRUE(HG_POLL(getpgid(a) == a && getpgid(b) == b, HG_CHILD_MS));

	EXPECT_ERRNO(EPERM, hg_set_devices(a, HGROUP_DEV_POLICY_ALLOW, &rule,
					   1, HGROUP_SCOPE_DOMAIN));
	EXPECT_EQ(0, devices_are(a, HGROUP_DEV_POLICY_ALLOW, NULL, 0));
	EXPECT_EQ(0, devices_are(getpgrp(), HGROUP_DEV_POLICY_ALLOW, NULL, 0));
	EXPECT_EQ(0, open_err("/dev/zero", O_RDONLY));
	c = fork();
	if (c == 0)
		_exit(setsid() == getpid() ? open_err("/dev/zero", O_RDONLY) :
					     100);
	EXPECT_EQ(0, wait_exit(c));

	/* One group of domain 0: that group only. */
	ASSERT_EQ(0, hg_set_devices(b, HGROUP_DEV_POLICY_ALLOW, &rule, 1, 0));
	EXPECT_EQ(2, write(go[1], "xx", 2));
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	EXPECT_EQ(EPERM, hg_wait_exit_timeout(b, HG_CHILD_MS));
	EXPECT_EQ(0, open_err("/dev/zero", O_RDONLY));
	close(go[0]);
	close(go[1]);
}

/*
 * Allow all but writing /dev/zero: reading it works, writing does not,
 * not even through a node made under another name, which mknod (not in
 * the rule) may create.
 */
TEST_F_TIMEOUT(hg, devices_allow_policy, 60)
{
	static const struct hgroup_dev_rule rule = {
		HGROUP_DEV_CHAR, HGROUP_DEV_WRITE, 1, 5
	};
	struct devdir dd;
	pid_t a;

	if (devdir_make_or_skip(_metadata, &dd))
		return;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		char z[128];

		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_ALLOW, &rule,
					   1, 0) == 0);
		CHILD_CHECK(open_err("/dev/zero", O_RDONLY) == 0);
		CHILD_CHECK(open_err("/dev/zero", O_WRONLY) == EPERM);
		CHILD_CHECK(open_err("/dev/zero", O_RDWR) == EPERM);
		CHILD_CHECK(open_err(dd.zero2, O_WRONLY) == EPERM);
		CHILD_CHECK(open_err("/dev/null", O_RDWR) == 0);
		CHILD_CHECK(mknod_err(dd.dir, "z", S_IFCHR, DEV_ZERO) == 0);
		snprintf(z, sizeof(z), "%s/z", dd.dir);
		CHILD_CHECK(open_err(z, O_RDONLY) == 0);
		CHILD_CHECK(open_err(z, O_WRONLY) == EPERM);
		CHILD_CHECK(mknod_err(dd.dir, "b", S_IFBLK, makedev(7, 0)) ==
			    0);
		_exit(0);
	}
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	devdir_remove(&dd);
}

/*
 * Under "deny", an access is allowed only if one rule allows all of it:
 * a read rule and a write rule do not make read-write.
 */
TEST_F_TIMEOUT(hg, devices_deny_needs_one_rule_in_full, 60)
{
	static const struct hgroup_dev_rule rules[] = {
		{ HGROUP_DEV_CHAR, HGROUP_DEV_READ, 1, 3 },
		{ HGROUP_DEV_CHAR, HGROUP_DEV_WRITE, 1, 3 },
	};
	struct devdir dd;
	pid_t a;

	if (devdir_make_or_skip(_metadata, &dd))
		return;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_DENY, rules,
					   2, 0) == 0);
		CHILD_CHECK(open_err("/dev/null", O_RDONLY) == 0);
		CHILD_CHECK(open_err("/dev/null", O_WRONLY) == 0);
		CHILD_CHECK(open_err("/dev/null", O_RDWR) == EPERM);
		CHILD_CHECK(open_err("/dev/zero", O_RDONLY) == EPERM);
		_exit(0);
	}
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	devdir_remove(&dd);
}

/* HGROUP_DEV_ANY and the types: block, char, both. */
TEST_F_TIMEOUT(hg, devices_any_and_types, 60)
{
	static const struct hgroup_dev_rule major1 = {
		HGROUP_DEV_CHAR, HGROUP_DEV_ACC_ALL, 1, HGROUP_DEV_ANY
	};
	static const struct hgroup_dev_rule no_block = {
		HGROUP_DEV_BLOCK, HGROUP_DEV_ACC_ALL, HGROUP_DEV_ANY,
		HGROUP_DEV_ANY
	};
	static const struct hgroup_dev_rule no_mknod = {
		HGROUP_DEV_ALL, HGROUP_DEV_MKNOD, HGROUP_DEV_ANY, HGROUP_DEV_ANY
	};
	struct devdir dd;
	pid_t a;

	if (devdir_make_or_skip(_metadata, &dd))
		return;
	/* Deny all but char major 1, any minor. */
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_DENY, &major1,
					   1, 0) == 0);
		CHILD_CHECK(open_err("/dev/null", O_RDWR) == 0);
		CHILD_CHECK(open_err("/dev/zero", O_RDWR) == 0);
		CHILD_CHECK(mknod_err(dd.dir, "z", S_IFCHR, DEV_ZERO) == 0);
		CHILD_CHECK(mknod_err(dd.dir, "t", S_IFCHR, makedev(5, 0)) ==
			    EPERM);
		CHILD_CHECK(mknod_err(dd.dir, "b", S_IFBLK, makedev(1, 0)) ==
			    EPERM);
		_exit(0);
	}
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));

	/* Allow all but block devices. */
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_ALLOW,
					   &no_block, 1, 0) == 0);
		CHILD_CHECK(mknod_err(dd.dir, "b", S_IFBLK, makedev(7, 0)) ==
			    EPERM);
		CHILD_CHECK(mknod_err(dd.dir, "z", S_IFCHR, DEV_ZERO) == 0);
		CHILD_CHECK(open_err("/dev/zero", O_RDWR) == 0);
		_exit(0);
	}
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));

	/* Allow all but making device nodes of either type. */
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_ALLOW,
					   &no_mknod, 1, 0) == 0);
		CHILD_CHECK(mknod_err(dd.dir, "n", S_IFCHR, DEV_NULL) == EPERM);
		CHILD_CHECK(mknod_err(dd.dir, "b", S_IFBLK, makedev(7, 0)) ==
			    EPERM);
		CHILD_CHECK(mknod_err(dd.dir, "f", S_IFIFO, 0) == 0);
		CHILD_CHECK(open_err("/dev/null", O_RDWR) == 0);
		CHILD_CHECK(open_err(dd.zero2, O_RDWR) == 0);
		_exit(0);
	}
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	devdir_remove(&dd);
}

TEST_F_TIMEOUT(hg, devices_bad_rules, 60)
{
	static const struct hgroup_dev_rule good = {
		HGROUP_DEV_CHAR, HGROUP_DEV_READ, 1, 3
	};
	static const struct hgroup_dev_rule bad[] = {
		{ 0, HGROUP_DEV_READ, 1, 3 },
		{ 4, HGROUP_DEV_READ, 1, 3 },
		{ 8 | HGROUP_DEV_CHAR, HGROUP_DEV_READ, 1, 3 },
		{ ~0U, HGROUP_DEV_READ, 1, 3 },
		{ HGROUP_DEV_CHAR, 0, 1, 3 },
		{ HGROUP_DEV_CHAR, 8, 1, 3 },
		{ HGROUP_DEV_CHAR, HGROUP_DEV_READ | 16, 1, 3 },
		{ HGROUP_DEV_CHAR, ~0U, 1, 3 },
	};
	static struct hgroup_dev_rule many[HGROUP_DEV_MAX_RULES + 1];
	struct hgroup_dev_rule two[2];
	pid_t g = start_group(0);
	unsigned int i;

	ASSERT_LT(0, g);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_ERRNO(EINVAL, hg_set_devices(g, HGROUP_DEV_POLICY_DENY,
						    &bad[i], 1, 0)) {
			TH_LOG("rule %u", i);
		}
		EXPECT_ERRNO(EINVAL, hg_set_devices(g, HGROUP_DEV_POLICY_ALLOW,
						    &bad[i], 1, 0)) {
			TH_LOG("rule %u", i);
		}
		/* Second of two. */
		two[0] = good;
		two[1] = bad[i];
		EXPECT_ERRNO(EINVAL, hg_set_devices(g, HGROUP_DEV_POLICY_DENY,
						    two, 2, 0)) {
			TH_LOG("rule %u", i);
		}
	}
	EXPECT_ERRNO(EINVAL, hg_set_devices(g, 2, NULL, 0, 0));
	EXPECT_ERRNO(EINVAL, hg_set_devices(g, ~0U, &good, 1, 0));
	for (i = 0; i <= HGROUP_DEV_MAX_RULES; i++) {
		many[i] = good;
		many[i].minor = i;
	}
	EXPECT_ERRNO(EINVAL, hg_set_devices(g, HGROUP_DEV_POLICY_DENY, many,
					    HGROUP_DEV_MAX_RULES + 1, 0));
	EXPECT_ERRNO(EINVAL, hg_set_devices(g, HGROUP_DEV_POLICY_DENY, many,
					    0x80000000u, 0));
	EXPECT_ERRNO(EINVAL, hg_set_devices(g, HGROUP_DEV_POLICY_DENY, many,
					    ~0U, 0));
	EXPECT_ERRNO(EFAULT, hg_set_devices(g, HGROUP_DEV_POLICY_DENY, NULL,
					    1, 0));
	EXPECT_EQ(0, devices_are(g, HGROUP_DEV_POLICY_ALLOW, NULL, 0));

	/* The most rules there can be. */
	ASSERT_EQ(0, hg_set_devices(g, HGROUP_DEV_POLICY_DENY, many,
				    HGROUP_DEV_MAX_RULES, 0));
	EXPECT_EQ(0, devices_are(g, HGROUP_DEV_POLICY_DENY, many,
				 HGROUP_DEV_MAX_RULES));
}

/*
 * Reading back: the policy and the rules; with too small a buffer,
 * ENOSPC and the number needed.
 */
TEST_F_TIMEOUT(hg, devices_get, 60)
{
	static const struct hgroup_dev_rule rules[] = {
		{ HGROUP_DEV_CHAR, HGROUP_DEV_READ | HGROUP_DEV_WRITE, 1, 3 },
		{ HGROUP_DEV_BLOCK, HGROUP_DEV_MKNOD, 7, HGROUP_DEV_ANY },
		{ HGROUP_DEV_ALL, HGROUP_DEV_ACC_ALL, HGROUP_DEV_ANY, 9 },
	};
	struct hgroup_dev_rule out[8];
	struct hgroup_devices d;
	pid_t g = start_group(0);

	ASSERT_LT(0, g);
	ASSERT_EQ(0, hg_set_devices(g, HGROUP_DEV_POLICY_DENY, rules, 3, 0));

	memset(out, 0xa5, sizeof(out));
	d = (struct hgroup_devices){ .nr_rules = 8, .rules = (uintptr_t)out };
	ASSERT_EQ(0, sys_hgroup_get_attr(g, HGROUP_ATTR_DEVICES, &d,
					 sizeof(d), 0));
	EXPECT_EQ(HGROUP_DEV_POLICY_DENY, d.policy);
	ASSERT_EQ(3, d.nr_rules);
	EXPECT_TRUE(same_rules(rules, out, 3));

	d = (struct hgroup_devices){ .nr_rules = 3, .rules = (uintptr_t)out };
	EXPECT_EQ(0, sys_hgroup_get_attr(g, HGROUP_ATTR_DEVICES, &d,
					 sizeof(d), 0));
	EXPECT_EQ(3, d.nr_rules);

	d = (struct hgroup_devices){ .nr_rules = 2, .rules = (uintptr_t)out };
	EXPECT_ERRNO(ENOSPC, sys_hgroup_get_attr(g, HGROUP_ATTR_DEVICES, &d,
						 sizeof(d), 0));
	EXPECT_EQ(3, d.nr_rules);

	d = (struct hgroup_devices){ .nr_rules = 0, .rules = 0 };
	EXPECT_ERRNO(ENOSPC, sys_hgroup_get_attr(g, HGROUP_ATTR_DEVICES, &d,
						 sizeof(d), 0));
	EXPECT_EQ(3, d.nr_rules);

	/* The list is the group's: replaced as a whole by the next call. */
	ASSERT_EQ(0, hg_set_devices(g, HGROUP_DEV_POLICY_DENY, rules, 1, 0));
	EXPECT_EQ(0, devices_are(g, HGROUP_DEV_POLICY_DENY, rules, 1));
}

/*
 * Children forked after the restriction, programs they exec, and groups
 * made by setsid() in the restricted group keep the list.
 */
TEST_F_TIMEOUT(hg, devices_inherited, 60)
{
	static const struct hgroup_dev_rule rule = {
		HGROUP_DEV_CHAR, HGROUP_DEV_READ | HGROUP_DEV_WRITE, 1, 3
	};
	char helper[PATH_MAX], eperm[16];
	struct devdir dd;
	pid_t a;

	if (devdir_make_or_skip(_metadata, &dd))
		return;
	ASSERT_EQ(0, hg_helper_path(helper, sizeof(helper)));
	snprintf(eperm, sizeof(eperm), "%d", EPERM);
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pid_t c;

		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_DENY, &rule,
					   1, 0) == 0);
		c = fork();
		CHILD_CHECK(c >= 0);
		if (c == 0) {
			CHILD_CHECK(open_err("/dev/zero", O_RDONLY) == EPERM);
			CHILD_CHECK(open_err("/dev/null", O_RDWR) == 0);
			_exit(0);
		}
		CHILD_CHECK(hg_wait_exit_timeout(c, HG_CHILD_MS) == 0);
		CHILD_CHECK(run_helper("open", "/dev/zero", eperm) == 0);
		CHILD_CHECK(run_helper("open", "/dev/null", "0") == 0);
		c = fork();
		CHILD_CHECK(c >= 0);
		if (c == 0) {
			CHILD_CHECK(setsid() == getpid());
			CHILD_CHECK(devices_are(0, HGROUP_DEV_POLICY_DENY,
						&rule, 1) == 0);
			CHILD_CHECK(open_err("/dev/zero", O_RDONLY) == EPERM);
			CHILD_CHECK(open_err("/dev/null", O_RDWR) == 0);
			CHILD_CHECK(mknod_err(dd.dir, "z", S_IFCHR, DEV_ZERO) ==
				    EPERM);
			_exit(0);
		}
		CHILD_CHECK(hg_wait_exit_timeout(c, HG_CHILD_MS) == 0);
		_exit(0);
	}
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	devdir_remove(&dd);
}

/*
 * A restricted group cannot lift itself (not even root in it), only
 * tighten; root outside can lift it.
 */
TEST_F_TIMEOUT(hg, devices_lift, 60)
{
	static const struct hgroup_dev_rule null_rw = {
		HGROUP_DEV_CHAR, HGROUP_DEV_READ | HGROUP_DEV_WRITE, 1, 3
	};
	static const struct hgroup_dev_rule more[] = {
		{ HGROUP_DEV_CHAR, HGROUP_DEV_READ | HGROUP_DEV_WRITE, 1, 3 },
		{ HGROUP_DEV_CHAR, HGROUP_DEV_READ, 1, 5 },
	};
	static const struct hgroup_dev_rule null_r = {
		HGROUP_DEV_CHAR, HGROUP_DEV_READ, 1, 3
	};
	struct hg_shm *shm = self->shm;
	struct devdir dd;
	pid_t a;

	if (devdir_make_or_skip(_metadata, &dd))
		return;
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_DENY, &null_rw,
					   1, 0) == 0);
		CHILD_ERRNO(EACCES, hg_set_devices(0, HGROUP_DEV_POLICY_ALLOW,
						   NULL, 0, 0));
		CHILD_ERRNO(EACCES, hg_set_devices(0, HGROUP_DEV_POLICY_DENY,
						   more, 2, 0));
		CHILD_CHECK(devices_are(0, HGROUP_DEV_POLICY_DENY, &null_rw,
					1) == 0);
		/* Narrowing is tightening. */
		CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_DENY, &null_r,
					   1, 0) == 0);
		CHILD_CHECK(open_err("/dev/null", O_WRONLY) == EPERM);
		CHILD_CHECK(open_err("/dev/null", O_RDONLY) == 0);
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(open_err("/dev/zero", O_RDWR) == 0);
		CHILD_CHECK(open_err("/dev/null", O_WRONLY) == 0);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1 || hg_proc_state(a) == 'Z',
			    HG_CHILD_MS));
	ASSERT_EQ(1, shm->ready);
	EXPECT_EQ(0, devices_are(a, HGROUP_DEV_POLICY_DENY, &null_r, 1));
	ASSERT_EQ(0, hg_set_devices(a, HGROUP_DEV_POLICY_ALLOW, NULL, 0, 0));
	EXPECT_EQ(0, devices_are(a, HGROUP_DEV_POLICY_ALLOW, NULL, 0));
	hg_set_step(shm, 1);
	EXPECT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
	devdir_remove(&dd);
}

/* ---------------------------------------------------------------------- */
/* Task limit                                                              */
/* ---------------------------------------------------------------------- */

static void *blocked_thread(void *arg)
{
	char c;

	while (read((int)(long)arg, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/*
 * Forks and threads beyond the limit fail with EAGAIN; zombies count
 * until reaped; a limit below the count only stops growth; the domain
 * cannot lift its own limit, root outside can.
 */
TEST_F_TIMEOUT(hg, tasks_limit, 90)
{
	struct hg_shm *shm = self->shm;
	__u64 max = 0, cur = 0;
	pid_t x;

	x = fork();
	ASSERT_LE(0, x);
	if (x == 0) {
		pthread_t t;
		pid_t c1, c2, c3;
		int p[2];

		CHILD_CHECK(pipe(p) == 0);
		CHILD_CHECK(new_domain() == getpid());
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		/* Limit 3: us, c1, and a thread. */
		c1 = fork();
		CHILD_CHECK(c1 >= 0);
		if (c1 == 0)
			park();
		CHILD_CHECK(!pthread_create(&t, NULL, blocked_thread,
					    (void *)(long)p[0]));
		CHILD_CHECK(hg_tasks_current(0) == 3);
		CHILD_ERRNO(EAGAIN, fork());
		CHILD_CHECK(pthread_create(&t, NULL, blocked_thread,
					   (void *)(long)p[0]) == EAGAIN);
		/* A zombie still counts, until reaped. */
		CHILD_CHECK(kill(c1, SIGKILL) == 0);
		CHILD_CHECK(waitid(P_PID, c1, NULL, WEXITED | WNOWAIT) == 0);
		CHILD_CHECK(hg_tasks_current(0) == 3);
		CHILD_ERRNO(EAGAIN, fork());
		CHILD_CHECK(wait_exit(c1) == 128 + SIGKILL);
		CHILD_CHECK(HG_POLL(hg_tasks_current(0) == 2, HG_SETTLE_MS));
		c2 = fork();
		CHILD_CHECK(c2 >= 0);
		if (c2 == 0)
			park();
		CHILD_ERRNO(EAGAIN, fork());
		/* Our own limit binds us: no lifting it from inside. */
		CHILD_ERRNO(EACCES, hg_set_tasks(0, HGROUP_TASKS_UNLIMITED));
		CHILD_ERRNO(EACCES, hg_set_tasks(0, 10));
		/* A limit below the count is allowed. */
		CHILD_CHECK(hg_set_tasks(0, 2) == 0);
		CHILD_CHECK(hg_tasks_current(0) == 3);
		CHILD_ERRNO(EAGAIN, fork());
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 2) == 0);
		/* Lifted from outside. */
		c3 = fork();
		CHILD_CHECK(c3 >= 0);
		if (c3 == 0)
			park();
		CHILD_CHECK(!pthread_create(&t, NULL, blocked_thread,
					    (void *)(long)p[0]));
		CHILD_CHECK(hg_tasks_current(0) == 5);
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, hg_get_tasks(x, &max, &cur));
	EXPECT_EQ(HGROUP_TASKS_UNLIMITED, max);
	EXPECT_EQ(1, cur);
	ASSERT_EQ(0, hg_set_tasks(x, 3));
	ASSERT_EQ(0, hg_get_tasks(x, &max, &cur));
	EXPECT_EQ(3, max);
	EXPECT_EQ(1, cur);
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ready == 2 || hg_proc_state(x) == 'Z',
			    HG_CHILD_MS));
	ASSERT_EQ(2, shm->ready);
	ASSERT_EQ(0, hg_get_tasks(x, &max, &cur));
	EXPECT_EQ(2, max);
	EXPECT_EQ(3, cur);
	ASSERT_EQ(0, hg_set_tasks(x, HGROUP_TASKS_UNLIMITED));
	hg_set_step(shm, 2);
	EXPECT_EQ(0, hg_wait_exit_timeout(x, HG_CHILD_MS));
}

/* set_domainid() counts the caller's threads in the new domain. */
TEST_F_TIMEOUT(hg, tasks_count_creator_threads, 90)
{
	struct hg_shm *shm = self->shm;
	pid_t x;

	x = fork();
	ASSERT_LE(0, x);
	if (x == 0) {
		pthread_t t;
		int p[2];

		CHILD_CHECK(pipe(p) == 0);
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(!pthread_create(&t, NULL, blocked_thread,
					    (void *)(long)p[0]));
		CHILD_CHECK(!pthread_create(&t, NULL, blocked_thread,
					    (void *)(long)p[0]));
		CHILD_CHECK(sys_set_domainid(0) == getpid());
		CHILD_CHECK(hg_tasks_current(0) == 3);
		hg_ready(shm);
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1 || hg_proc_state(x) == 'Z',
			    HG_CHILD_MS));
	ASSERT_EQ(1, shm->ready);
	EXPECT_EQ(3, hg_tasks_current(x));
	/* Domain 0 counts everything. */
	EXPECT_LT(3, hg_tasks_current(0));
}

/*
 * A sub-domain (in a PID namespace) counts against its parent domain's
 * limit, and its own limit cannot be lifted beyond its parent's.
 */
TEST_F_TIMEOUT(hg, tasks_hierarchical, 90)
{
	struct hg_shm *shm = self->shm;
	__u64 max = 0;
	pid_t x, y;

	x = fork();
	ASSERT_LE(0, x);
	if (x == 0) {
		CHILD_CHECK(new_domain() == getpid());
		CHILD_CHECK(unshare(CLONE_NEWPID) == 0);
		y = fork();
		CHILD_CHECK(y >= 0);
		if (y == 0) {
			pthread_t t;
			pid_t k;
			int p[2], i;

			CHILD_CHECK(pipe(p) == 0);
			CHILD_CHECK(setsid() == 1);
			CHILD_CHECK(sys_set_domainid(0) == 1);
			hg_ready(shm);
			CHILD_CHECK(hg_wait_step(shm, 1) == 0);
			for (i = 0; i < 2; i++) {
				k = fork();
				CHILD_CHECK(k >= 0);
				if (k == 0)
					park();
			}
			CHILD_ERRNO(EAGAIN, fork());
			CHILD_CHECK(pthread_create(&t, NULL, blocked_thread,
						   (void *)(long)p[0]) == EAGAIN);
			hg_ready(shm);
			CHILD_CHECK(hg_wait_step(shm, 2) == 0);
			k = fork();
			CHILD_CHECK(k >= 0);
			if (k == 0)
				park();
			hg_ready(shm);
			park();
		}
		shm->pid[1] = y;
		hg_ready(shm);
		/* Reap y, so that it stops counting when killed. */
		wait_exit(y);
		park();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 2, HG_CHILD_MS));
	y = shm->pid[1];
	ASSERT_EQ(y, sys_get_domainid(y));
	EXPECT_EQ(2, hg_tasks_current(x));
	EXPECT_EQ(1, hg_tasks_current(y));
	ASSERT_EQ(0, hg_get_tasks(y, &max, NULL));
	EXPECT_EQ(HGROUP_TASKS_UNLIMITED, max);

	ASSERT_EQ(0, hg_set_tasks(x, 4));
	hg_set_step(shm, 1);
	ASSERT_TRUE(HG_POLL(shm->ready == 3 || hg_proc_state(y) == 'Z',
			    HG_CHILD_MS));
	ASSERT_EQ(3, shm->ready);
	EXPECT_EQ(4, hg_tasks_current(x));
	EXPECT_EQ(3, hg_tasks_current(y));

	/* The sub-domain's own limit: tightening, then lifting. */
	EXPECT_EQ(0, hg_set_tasks(y, 3));
	EXPECT_ERRNO(EACCES, hg_set_tasks(y, 10));
	EXPECT_ERRNO(EACCES, hg_set_tasks(y, HGROUP_TASKS_UNLIMITED));
	ASSERT_EQ(0, hg_get_tasks(y, &max, NULL));
	EXPECT_EQ(3, max);
	EXPECT_EQ(0, hg_set_tasks(y, 4));
	ASSERT_EQ(0, hg_set_tasks(x, HGROUP_TASKS_UNLIMITED));
	EXPECT_EQ(0, hg_set_tasks(y, 10));
	EXPECT_EQ(0, hg_set_tasks(y, HGROUP_TASKS_UNLIMITED));
	hg_set_step(shm, 2);
	ASSERT_TRUE(HG_POLL(shm->ready == 4 || hg_proc_state(y) == 'Z',
			    HG_CHILD_MS));
	ASSERT_EQ(4, shm->ready);
	EXPECT_EQ(5, hg_tasks_current(x));
	EXPECT_EQ(4, hg_tasks_current(y));

	/* The namespace ends: the count goes back to x alone. */
	ASSERT_EQ(0, kill(y, SIGKILL));
	EXPECT_TRUE(HG_POLL(hg_tasks_current(x) == 1, HG_SETTLE_MS)) {
		TH_LOG("current %lld", hg_tasks_current(x));
	}
	EXPECT_ERRNO(ESRCH, hg_get_tasks(y, NULL, NULL));
}

/* ---------------------------------------------------------------------- */
/* Who may change what                                                     */
/* ---------------------------------------------------------------------- */

static const struct hgroup_dev_rule perm_rule = {
	HGROUP_DEV_CHAR, HGROUP_DEV_READ | HGROUP_DEV_WRITE, 1, 3
};

/*
 * A group's owner is the effective uid of its creator: root's group stays
 * root's after the process that made it becomes uid 1000.
 */
TEST_F_TIMEOUT(hg, perm_owner_is_creator_euid, 90)
{
	pid_t a = fork();

	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_become(1000) == 0);
		CHILD_ERRNO(EPERM, hg_set_devices(0, HGROUP_DEV_POLICY_DENY,
						  &perm_rule, 1, 0));
		CHILD_ERRNO(EPERM, hg_set_devices(getpgrp(),
						  HGROUP_DEV_POLICY_DENY,
						  &perm_rule, 1, 0));
		CHILD_ERRNO(EPERM, hg_set_freeze(0, HGROUP_FREEZE_NEW_PGRP, 0));
		CHILD_ERRNO(EPERM, hg_set_cpus(0, CPU0, 0));
		CHILD_ERRNO(EPERM, hg_set_cpus(0, hg_possible_cpus(), 0));
		/* Reading needs no permission. */
		CHILD_CHECK(devices_are(0, HGROUP_DEV_POLICY_ALLOW, NULL, 0) ==
			    0);
		CHILD_CHECK(hg_get_cpus(0) == hg_possible_cpus());
		CHILD_CHECK(hg_freeze_flags(0) == 0);
		_exit(0);
	}
	ASSERT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
}

/*
 * uid 1000 owns the group it makes: it may tighten it (also from inside,
 * with no_new_privs), and lift it from outside only as far as its own
 * group allows; uid 1001 may do neither, whether tightening or lifting
 * (EPERM before EACCES), but may read.
 *
 *   a: root's group, a itself uid 1000      (owner: root)
 *   b: b's group, made by b as uid 1000     (owner: uid 1000)
 *   c: uid 1001, in a's group
 */
TEST_F_TIMEOUT(hg, perm_uid_matrix, 90)
{
	struct hg_shm *shm = self->shm;
	unsigned long possible = hg_possible_cpus();
	pid_t a;

	if (!two_cpus_online())
		SKIP(return, "needs CPUs 0 and 1 online");
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		pid_t b, c;

		CHILD_CHECK(setsid() == getpid());
		/* c, forked while a is root, becomes uid 1001 and waits. */
		c = fork();
		CHILD_CHECK(c >= 0);
		if (c == 0) {
			CHILD_CHECK(hg_become(1001) == 0);
			CHILD_CHECK(HG_POLL(shm->ret[0] == 1, HG_CHILD_MS));
			b = shm->pid[1];
			CHILD_ERRNO(EPERM, hg_set_cpus(b, possible, 0));
			CHILD_ERRNO(EPERM, hg_set_cpus(b, CPU0, 0));
			CHILD_ERRNO(EPERM, hg_set_devices(b,
							  HGROUP_DEV_POLICY_DENY,
							  &perm_rule, 1, 0));
			CHILD_ERRNO(EPERM, hg_set_freeze(b,
							 HGROUP_FREEZE_NEW_PGRP,
							 0));
			/* Reading needs no permission. */
			CHILD_CHECK(hg_get_cpus(b) == CPU0);
			CHILD_CHECK(devices_are(b, HGROUP_DEV_POLICY_ALLOW,
						NULL, 0) == 0);
			CHILD_CHECK(hg_freeze_flags(b) == 0);
			_exit(0);
		}
		CHILD_CHECK(hg_become(1000) == 0);
		b = fork();
		CHILD_CHECK(b >= 0);
		if (b == 0) {
			CHILD_CHECK(setsid() == getpid());
			/* Restricting oneself needs no_new_privs. */
			CHILD_ERRNO(EPERM, hg_set_cpus(0, CPU0, 0));
			CHILD_CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
			CHILD_CHECK(hg_set_cpus(0, CPU0, 0) == 0);
			CHILD_CHECK(hg_get_cpus(0) == CPU0);
			CHILD_ERRNO(EACCES, hg_set_cpus(0, possible, 0));
			CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_DENY,
						   &perm_rule, 1, 0) == 0);
			CHILD_ERRNO(EACCES, hg_set_devices(0,
							   HGROUP_DEV_POLICY_ALLOW,
							   NULL, 0, 0));
			hg_ready(shm);
			park();
		}
		CHILD_CHECK(HG_POLL(shm->ready == 1, HG_CHILD_MS));
		CHILD_CHECK(hg_get_cpus(b) == CPU0);
		/* The owner lifts from a group that allows it. */
		CHILD_CHECK(hg_set_cpus(b, possible, 0) == 0);
		CHILD_CHECK(hg_get_cpus(b) == possible);
		CHILD_CHECK(hg_set_devices(b, HGROUP_DEV_POLICY_ALLOW, NULL, 0,
					   0) == 0);
		CHILD_CHECK(hg_set_cpus(b, CPU0, 0) == 0);

		shm->pid[1] = b;
		shm->ret[0] = 1;
		CHILD_CHECK(hg_wait_exit_timeout(c, HG_CHILD_MS) == 0);
		CHILD_CHECK(hg_get_cpus(b) == CPU0);

		/* Now root restricts a's group to {0}. */
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(HG_POLL(hg_affinity(0) == CPU0, HG_SETTLE_MS));
		/* Not beyond the lifter's own group. */
		CHILD_ERRNO(EACCES, hg_set_cpus(b, possible, 0));
		CHILD_CHECK(hg_get_cpus(b) == CPU0);
		CHILD_CHECK(hg_set_cpus(b, CPU0, 0) == 0);
		/* And a's group is still root's. */
		CHILD_ERRNO(EPERM, hg_set_cpus(0, possible, 0));
		CHILD_ERRNO(EPERM, hg_set_cpus(0, CPU0, 0));
		_exit(0);
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 2 || hg_proc_state(a) == 'Z',
			    HG_CHILD_MS));
	ASSERT_EQ(2, shm->ready);
	ASSERT_EQ(0, hg_set_cpus(a, CPU0, 0));
	hg_set_step(shm, 1);
	ASSERT_EQ(0, hg_wait_exit_timeout(a, HG_CHILD_MS));
}

/*
 * uid 1000 makes a user and a PID namespace; the namespace's root (uid 0
 * inside, kuid 1000 outside) changes a group made inside by one of its
 * children.  NOTE for the kernel side: that group's owner is kuid 1000,
 * the namespace root's own euid, so ownership alone already allows this;
 * perm_userns_cap_sys_admin below is the case that needs CAP_SYS_ADMIN.
 * The root-owned group outside (the one the namespace's init was born in,
 * named by pgid 0 since it is not visible inside) is not changeable.
 */
TEST_F_TIMEOUT(hg, perm_userns_owner, 90)
{
	pid_t u = fork();
	int rc;

	ASSERT_LE(0, u);
	if (u == 0) {
		pid_t init;

		CHILD_CHECK(setsid() == getpid());	/* owner: root */
		CHILD_CHECK(hg_become(1000) == 0);
		/* The uid change made /proc/self root's; take it back. */
		CHILD_CHECK(prctl(PR_SET_DUMPABLE, 1) == 0);
		if (unshare(CLONE_NEWUSER | CLONE_NEWPID))
			_exit(4);
		CHILD_CHECK(hg_write_file("/proc/self/uid_map", "0 1000 1") == 0);
		CHILD_CHECK(hg_write_file("/proc/self/setgroups", "deny") == 0);
		CHILD_CHECK(hg_write_file("/proc/self/gid_map", "0 1000 1") == 0);
		init = fork();
		CHILD_CHECK(init >= 0);
		if (init == 0) {
			int p[2];
			pid_t d;
			char ch;

			CHILD_CHECK(getpid() == 1);
			/* Its group is u's: root's, outside the namespace. */
			CHILD_ERRNO(EPERM, hg_set_devices(0,
							  HGROUP_DEV_POLICY_DENY,
							  &perm_rule, 1, 0));
			CHILD_CHECK(setsid() == 1);
			CHILD_CHECK(pipe(p) == 0);
			d = fork();
			CHILD_CHECK(d >= 0);
			if (d == 0) {
				CHILD_CHECK(setsid() == getpid());
				CHILD_CHECK(write(p[1], "x", 1) == 1);
				park();
			}
			CHILD_CHECK(read(p[0], &ch, 1) == 1);
			CHILD_CHECK(hg_set_devices(d, HGROUP_DEV_POLICY_DENY,
						   &perm_rule, 1, 0) == 0);
			CHILD_CHECK(devices_are(d, HGROUP_DEV_POLICY_DENY,
						&perm_rule, 1) == 0);
			CHILD_CHECK(hg_set_devices(d, HGROUP_DEV_POLICY_ALLOW,
						   NULL, 0, 0) == 0);
			kill(d, SIGKILL);
			_exit(0);
		}
		_exit(hg_wait_exit_timeout(init, HG_CHILD_MS));
	}
	rc = hg_wait_exit_timeout(u, HG_CHILD_MS);
	if (rc == 4)
		SKIP(return, "no unprivileged user and PID namespaces");
	ASSERT_EQ(0, rc);
}

/*
 * Root makes a user namespace mapping 0-999 to 100000-100999, and a PID
 * namespace owned by it.  Inside:
 *   d (uid 5, kuid 100005) makes a group          (owner: kuid 100005)
 *   e (uid 6, kuid 100006, no capability) may not change it
 *   the namespace's init (uid 0, kuid 100000) may: not its owner, but
 *     CAP_SYS_ADMIN in the user namespace that owns the group's PID
 *     namespace
 *   init may not change its own group, r's, made by root outside (owner
 *     root, PID namespace owned by the initial user namespace)
 */
TEST_F_TIMEOUT(hg, perm_userns_cap_sys_admin, 90)
{
	struct hg_shm *shm = self->shm;
	char path[64];
	pid_t r;
	int rc;

	r = fork();
	ASSERT_LE(0, r);
	if (r == 0) {
		pid_t init;

		CHILD_CHECK(setsid() == getpid());	/* owner: root */
		if (unshare(CLONE_NEWUSER | CLONE_NEWPID))
			_exit(4);
		hg_ready(shm);
		CHILD_CHECK(hg_wait_step(shm, 1) == 0);
		CHILD_CHECK(setresgid(0, 0, 0) == 0);
		CHILD_CHECK(setresuid(0, 0, 0) == 0);
		CHILD_CHECK(setgroups(0, NULL) == 0);
		init = fork();
		CHILD_CHECK(init >= 0);
		if (init == 0) {
			int p[2];
			pid_t d, e;
			char ch;

			CHILD_CHECK(getpid() == 1);
			CHILD_CHECK(pipe(p) == 0);
			d = fork();
			CHILD_CHECK(d >= 0);
			if (d == 0) {
				CHILD_CHECK(hg_become(5) == 0);
				CHILD_CHECK(setsid() == getpid());
				CHILD_CHECK(write(p[1], "x", 1) == 1);
				park();
			}
			CHILD_CHECK(read(p[0], &ch, 1) == 1);
			e = fork();
			CHILD_CHECK(e >= 0);
			if (e == 0) {
				CHILD_CHECK(hg_become(6) == 0);
				CHILD_ERRNO(EPERM, hg_set_devices(d,
								  HGROUP_DEV_POLICY_DENY,
								  &perm_rule, 1, 0));
				CHILD_CHECK(devices_are(d,
							HGROUP_DEV_POLICY_ALLOW,
							NULL, 0) == 0);
				_exit(0);
			}
			CHILD_CHECK(hg_wait_exit_timeout(e, HG_CHILD_MS) == 0);
			CHILD_CHECK(hg_set_devices(d, HGROUP_DEV_POLICY_DENY,
						   &perm_rule, 1, 0) == 0);
			CHILD_CHECK(devices_are(d, HGROUP_DEV_POLICY_DENY,
						&perm_rule, 1) == 0);
			CHILD_CHECK(hg_set_devices(d, HGROUP_DEV_POLICY_ALLOW,
						   NULL, 0, 0) == 0);
			/* Its own group is r's, root's, outside. */
			CHILD_ERRNO(EPERM, hg_set_devices(0,
							  HGROUP_DEV_POLICY_DENY,
							  &perm_rule, 1, 0));
			kill(d, SIGKILL);
			_exit(0);
		}
		_exit(hg_wait_exit_timeout(init, HG_CHILD_MS));
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1 || hg_proc_state(r) == 'Z',
			    HG_CHILD_MS));
	if (shm->ready != 1) {
		rc = hg_wait_exit_timeout(r, HG_CHILD_MS);
		if (rc == 4)
			SKIP(return, "no user and PID namespaces");
		ASSERT_EQ(0, rc);
	}
	snprintf(path, sizeof(path), "/proc/%d/uid_map", r);
	ASSERT_EQ(0, hg_write_file(path, "0 100000 1000"));
	snprintf(path, sizeof(path), "/proc/%d/gid_map", r);
	ASSERT_EQ(0, hg_write_file(path, "0 100000 1000"));
	hg_set_step(shm, 1);
	rc = hg_wait_exit_timeout(r, HG_CHILD_MS);
	ASSERT_EQ(0, rc);
}

/* The restriction object counts of debugfs hgroup/objects. */
static int read_restrict_objects(long *sets, long *devs)
{
	FILE *f = fopen("/sys/kernel/debug/hgroup/objects", "r");
	char key[16];
	int found = 0;
	long v;

	if (!f)
		return -1;
	while (fscanf(f, "%15s %ld", key, &v) == 2) {
		if (!strcmp(key, "sets")) {
			*sets = v;
			found |= 1;
		} else if (!strcmp(key, "devs")) {
			*devs = v;
			found |= 2;
		}
	}
	fclose(f);
	return found == 3 ? 0 : -1;
}

static int restrict_objects_are(long sets, long devs)
{
	long s = -1, d = -1;

	return !read_restrict_objects(&s, &d) && s == sets && d == devs;
}

/*
 * Every CPU set, node set and device list is freed once no group uses it:
 * sets replaced 50 times over, shared with groups made by setsid().
 */
TEST_F_TIMEOUT(hg, restriction_objects_freed, 180)
{
	unsigned long all = hg_possible_cpus();
	long s0, d0, s1, d1;
	int i, mems, done[2];
	pid_t a;
	char c;

	ASSERT_EQ(0, read_restrict_objects(&s0, &d0));
	ASSERT_EQ(0, pipe(done));
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		close(done[0]);
		CHILD_CHECK(setsid() == getpid());
		for (i = 0; i < 10; i++) {
			pid_t k = fork();

			CHILD_CHECK(k >= 0);
			if (k == 0) {
				hg_sleep_ms(50 * i);
				CHILD_CHECK(setsid() == getpid());
				hg_sleep_ms(500);
				_exit(0);
			}
		}
		while (wait(NULL) > 0)
			;
		CHILD_CHECK(write(done[1], "x", 1) == 1);
		for (;;)
			pause();
	}
	close(done[1]);
	ASSERT_TRUE(HG_POLL(getpgid(a) == a, HG_SETTLE_MS));
	mems = hg_set_mask(a, HGROUP_ATTR_MEMS, 1UL, 0) == 0;
	for (i = 0; i < 50; i++) {
		ASSERT_EQ(0, hg_set_cpus(a, i & 1 ? all : 1UL, 0));
		ASSERT_EQ(0, hg_set_devices(a, HGROUP_DEV_POLICY_DENY,
					    &perm_rule, 1, 0));
		if (mems)
			ASSERT_EQ(0, hg_set_mask(a, HGROUP_ATTR_MEMS,
						 i & 1 ? 3UL : 1UL, 0));
		hg_sleep_ms(10);
	}
	ASSERT_EQ(0, read_restrict_objects(&s1, &d1));
	EXPECT_LE(s0 + 1, s1);
	EXPECT_LE(d0 + 1, d1);
	/* Every group made from a's has gone and been reaped. */
	ASSERT_EQ(1, read(done[0], &c, 1));
	kill(a, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, hg_wait_exit_timeout(a, HG_CHILD_MS));
	EXPECT_TRUE(HG_POLL(restrict_objects_are(s0, d0), HG_SETTLE_MS)) {
		read_restrict_objects(&s1, &d1);
		TH_LOG("sets %ld (want %ld), devs %ld (want %ld)",
		       s1, s0, d1, d0);
	}
}

TEST_HARNESS_MAIN
