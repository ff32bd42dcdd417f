// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups selftests: the system calls from a 32-bit task.
 *
 * Built with -m32 and run on the 64-bit kernel (CONFIG_IA32_EMULATION):
 * the attribute structures hold user pointers in __aligned_u64 and
 * bitmaps as __u64 arrays, so a 32-bit task passes the same bytes as a
 * 64-bit one and gets the same answers, errnos included.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <linux/hgroup.h>

#include "../kselftest_harness.h"
#include "hgroup_util.h"

FIXTURE(hg) {
	struct hg_shm *shm;
};

FIXTURE_SETUP(hg)
{
	self->shm = hg_fixture_setup();
	ASSERT_EQ(1, !!self->shm);
}

FIXTURE_TEARDOWN(hg)
{
	hg_fixture_teardown(self->shm);
}

/* This is the 32-bit ABI, and the kernel took the calls. */
TEST_F(hg, is_32bit)
{
	ASSERT_EQ(4, sizeof(long));
	ASSERT_EQ(4, sizeof(void *));
	ASSERT_LE(0, sys_get_domainid(0));
}

/* set_domainid() and get_domainid(), as from a 64-bit task. */
TEST_F(hg, domain_calls)
{
	pid_t a = fork();

	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(sys_set_domainid(0) == getpid());
		CHILD_CHECK(sys_get_domainid(0) == getpid());
		CHILD_CHECK(sys_get_domainid(getppid()) != getpid());
		errno = 0;
		CHILD_CHECK(sys_set_domainid(1U << 31) == -1 &&
			    errno == EINVAL);
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(a));
}

/*
 * A CPU set as a __u64 array: 8 bytes hold CPUs 0-63 for a 32-bit task
 * as for a 64-bit one, 4 bytes (one 32-bit long) are refused, and the
 * set reads back as written and binds the task.
 */
TEST_F(hg, cpus_u64_bitmap)
{
	struct hg_shm *shm = self->shm;
	__u64 m[2] = { 1, 0 };
	struct hgroup_mask hm = { .mask = (uintptr_t)m, .mask_size = 8 };
	pid_t a;

	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		hg_ready(shm);
		for (;;)
			pause();
	}
	ASSERT_TRUE(HG_POLL(shm->ready == 1, HG_CHILD_MS));
	ASSERT_EQ(0, sys_hgroup_set_attr(a, HGROUP_ATTR_CPUS, &hm,
					 sizeof(hm), 0));
	EXPECT_EQ(1UL, hg_affinity(a));
	hm.mask_size = 4;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(a, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(a, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	m[0] = ~0ULL;
	m[1] = ~0ULL;
	hm.mask_size = sizeof(m);
	ASSERT_EQ(0, sys_hgroup_get_attr(a, HGROUP_ATTR_CPUS, &hm,
					 sizeof(hm), 0));
	/* Only the kernel's count of CPUs, rounded up to 64, is written. */
	EXPECT_EQ(1ULL, m[0]);
	EXPECT_EQ(~0ULL, m[1]);
	/* A pointer beyond the 32-bit address space faults. */
	hm.mask = 1ULL << 40;
	EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(a, HGROUP_ATTR_CPUS, &hm,
						 sizeof(hm), 0));
	EXPECT_ERRNO(EFAULT, sys_hgroup_set_attr(a, HGROUP_ATTR_CPUS,
						 (void *)-4096L, sizeof(hm),
						 0));
	kill(a, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, wait_exit(a));
}

/* A device list through its __aligned_u64 rules pointer, and back. */
TEST_F(hg, devices_rules_pointer)
{
	struct hgroup_dev_rule rule = {
		.type = HGROUP_DEV_CHAR, .access = HGROUP_DEV_ACC_ALL,
		.major = 1, .minor = 3,
	}, back[4];
	struct hgroup_devices d = {
		.rules = (uintptr_t)back, .nr_rules = 4,
	};
	pid_t a = fork();

	ASSERT_LE(0, a);
	if (a == 0) {
		int fd;

		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_DENY, &rule, 1,
					   0) == 0);
		fd = open("/dev/null", O_RDWR);
		CHILD_CHECK(fd >= 0);
		close(fd);
		errno = 0;
		CHILD_CHECK(open("/dev/zero", O_RDONLY) < 0 && errno == EPERM);
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(a));

	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(hg_set_devices(0, HGROUP_DEV_POLICY_DENY, &rule, 1,
					   0) == 0);
		memset(back, 0, sizeof(back));
		CHILD_CHECK(sys_hgroup_get_attr(0, HGROUP_ATTR_DEVICES, &d,
						sizeof(d), 0) == 0);
		CHILD_CHECK(d.policy == HGROUP_DEV_POLICY_DENY);
		CHILD_CHECK(d.nr_rules == 1);
		CHILD_CHECK(!memcmp(&back[0], &rule, sizeof(rule)));
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(a));
}

/* The task limit's __u64 fields, whole, in a 32-bit task. */
TEST_F(hg, tasks_u64_fields)
{
	pid_t a = fork();

	ASSERT_LE(0, a);
	if (a == 0) {
		__u64 max = 0, cur = 0;

		CHILD_CHECK(setsid() == getpid());
		CHILD_CHECK(sys_set_domainid(0) == getpid());
		CHILD_CHECK(hg_get_tasks(0, &max, &cur) == 0);
		CHILD_CHECK(max == HGROUP_TASKS_UNLIMITED);
		CHILD_CHECK(cur == 1);
		CHILD_CHECK(hg_set_tasks(0, 5) == 0);
		CHILD_CHECK(hg_get_tasks(0, &max, &cur) == 0);
		CHILD_CHECK(max == 5 && cur == 1);
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit(a));
}

TEST_HARNESS_MAIN
