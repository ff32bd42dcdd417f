/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hgroups selftests: system call wrappers and helpers.
 */
#ifndef __HGROUP_UTIL_H
#define __HGROUP_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef __NR_set_domainid
#define __NR_set_domainid 463
#endif
#ifndef __NR_get_domainid
#define __NR_get_domainid 464
#endif

#ifndef __NR_hgroup_set_attr
#define __NR_hgroup_set_attr 465
#endif
#ifndef __NR_hgroup_get_attr
#define __NR_hgroup_get_attr 466
#endif

static inline long sys_hgroup_set_attr(pid_t pgid, unsigned int attr,
				       const void *uattr, size_t size,
				       unsigned int flags)
{
	return syscall(__NR_hgroup_set_attr, pgid, attr, uattr, size, flags);
}

static inline long sys_hgroup_get_attr(pid_t pgid, unsigned int attr,
				       void *uattr, size_t size,
				       unsigned int flags)
{
	return syscall(__NR_hgroup_get_attr, pgid, attr, uattr, size, flags);
}

static inline long sys_set_domainid(unsigned int flags)
{
	return syscall(__NR_set_domainid, flags);
}

static inline long sys_get_domainid(pid_t pid)
{
	return syscall(__NR_get_domainid, pid);
}

/*
 * Checks inside forked children, where the harness's ASSERT_*() cannot
 * report: print what failed and exit non-zero, which the parent asserts.
 */
#define CHILD_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "# %s:%d: child %d: check failed: %s "	\
			"(errno %d: %s)\n", __FILE__, __LINE__,		\
			getpid(), #cond, errno, strerror(errno));	\
		_exit(1);						\
	}								\
} while (0)

/* Reap @pid: its exit status, or 128 + signal, or -1 on wait failure. */
static inline int wait_exit(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

/* Write all of @s to the file @path: 0, or -1. */
static inline int hg_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* Drop every id and supplementary group to @uid: 0, or -1. */
static inline int hg_become(uid_t uid)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		return -1;
	return 0;
}

/* Path of exec_helper, next to this program; 0 if it is executable. */
static inline int hg_helper_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash || (size_t)(slash + 1 - buf) + sizeof("exec_helper") > len)
		return -1;
	memcpy(slash + 1, "exec_helper", sizeof("exec_helper"));
	return access(buf, X_OK);
}

/* Monotonic time in seconds, for the benchmarks. */
static inline double hg_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * @n x fork and reap a child that exits at once (after setpgid(0, 0) if
 * @new_pgrp): seconds taken, or -1.
 */
static inline double hg_fork_loop(long n, int new_pgrp)
{
	double t0 = hg_seconds();
	long i;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0) {
			if (new_pgrp && setpgid(0, 0))
				_exit(1);
			_exit(0);
		}
		if (wait_exit(pid))
			return -1;
	}
	return hg_seconds() - t0;
}

/* setsid() then set_domainid(0): the usual way to start a domain. */
static inline long new_domain(void)
{
	if (setsid() < 0)
		return -1;
	return sys_set_domainid(0);
}

/*
 * Restriction helpers, for the suites of hgroup_set_attr() and
 * hgroup_get_attr().  They need the restriction ABI of <linux/hgroup.h>;
 * against an older <linux/hgroup.h> only the helpers above exist.
 */
#include <linux/hgroup.h>

#ifdef HGROUP_SCOPE_DOMAIN

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>

/* Bounds of the polls: the test guest is a slow TCG emulation. */
#define HG_SETTLE_MS	10000	/* a change reaching every task */
#define HG_FREEZE_MS	30000	/* a freeze or thaw being reported */
#define HG_QUIET_MS	300	/* a task that should not run would have run */
#define HG_CHILD_MS	60000	/* a checking child finishing */

static inline long hg_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

static inline void hg_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Evaluate @cond every 10 ms for up to @ms: true as soon as it holds. */
#define HG_POLL(cond, ms) ({						\
	long __hg_end = hg_now_ms() + (ms);				\
	int __hg_ok;							\
	while (!(__hg_ok = !!(cond)) && hg_now_ms() < __hg_end)	\
		hg_sleep_ms(10);					\
	__hg_ok;							\
})

/* The count @name in debugfs hgroup/objects, or -1. */
static inline long hg_objects(const char *name)
{
	FILE *f = fopen("/sys/kernel/debug/hgroup/objects", "r");
	char key[32];
	long v, ret = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%31s %ld", key, &v) == 2)
		if (!strcmp(key, name))
			ret = v;
	fclose(f);
	return ret;
}

/* In a child: @call must fail with exactly @err, else exit 1. */
#define CHILD_ERRNO(err, call) do {					\
	int __hg_want = (err);						\
	long __hg_r;							\
	int __hg_e;							\
	errno = 0;							\
	__hg_r = (call);						\
	__hg_e = errno;							\
	if (__hg_r != -1 || __hg_e != __hg_want) {			\
		fprintf(stderr, "# %s:%d: child %d: %s returned %ld, "	\
			"errno %d (%s), expected -1, errno %d (%s)\n",	\
			__FILE__, __LINE__, getpid(), #call, __hg_r,	\
			__hg_e, strerror(__hg_e), __hg_want,		\
			strerror(__hg_want));				\
		_exit(1);						\
	}								\
} while (0)

/*
 * The errno of a call that failed (returned -1), or HG_NOT_FAILED minus
 * its return value if it did not: what EXPECT_ERRNO() compares.
 */
#define HG_NOT_FAILED	(-1000000L)

static inline long hg_err(long r)
{
	return r == -1 ? errno : HG_NOT_FAILED - r;
}

/*
 * In a test: @call must fail with exactly @err.  Like EXPECT_EQ(), it
 * takes an optional block run on failure.
 */
#define EXPECT_ERRNO(err, call) \
	EXPECT_EQ((long)(err), hg_err((errno = 0, (long)(call))))

#define ASSERT_ERRNO(err, call) \
	ASSERT_EQ((long)(err), hg_err((errno = 0, (long)(call))))

/*
 * CPU and node sets are one word here: the test guest has fewer than 32.
 * The UAPI's bitmap is an array of __u64, for 32-bit tasks too.
 */
static inline long hg_set_mask(pid_t pgid, unsigned int attr,
			       unsigned long bits, unsigned int flags)
{
	__u64 m[1] = { bits };
	struct hgroup_mask hm = {
		.mask = (uintptr_t)m,
		.mask_size = sizeof(m),
	};

	return sys_hgroup_set_attr(pgid, attr, &hm, sizeof(hm), flags);
}

static inline long hg_set_cpus(pid_t pgid, unsigned long bits,
			       unsigned int flags)
{
	return hg_set_mask(pgid, HGROUP_ATTR_CPUS, bits, flags);
}

/*
 * The first word of a group's set, or 0 (never a valid set) if the call
 * fails.  The buffer is cleared first: the kernel writes no more than
 * its own mask size.
 */
static inline unsigned long hg_get_mask(pid_t pgid, unsigned int attr)
{
	__u64 m[16];
	struct hgroup_mask hm = {
		.mask = (uintptr_t)m,
		.mask_size = sizeof(m),
	};

	memset(m, 0, sizeof(m));
	if (sys_hgroup_get_attr(pgid, attr, &hm, sizeof(hm), 0))
		return 0;
	return m[0];
}

static inline unsigned long hg_get_cpus(pid_t pgid)
{
	return hg_get_mask(pgid, HGROUP_ATTR_CPUS);
}

static inline long hg_set_freeze(pid_t pgid, unsigned int fflags,
				 unsigned int flags)
{
	struct hgroup_freeze f = { .flags = fflags };

	return sys_hgroup_set_attr(pgid, HGROUP_ATTR_FREEZE, &f, sizeof(f),
				   flags);
}

static inline long hg_get_freeze(pid_t pgid, struct hgroup_freeze *f)
{
	memset(f, 0, sizeof(*f));
	return sys_hgroup_get_attr(pgid, HGROUP_ATTR_FREEZE, f, sizeof(*f), 0);
}

/* The freeze state word of a group, or -1. */
static inline long hg_freeze_state(pid_t pgid)
{
	struct hgroup_freeze f;

	if (hg_get_freeze(pgid, &f))
		return -1;
	return f.state;
}

/* The freeze flags of a group, or -1. */
static inline long hg_freeze_flags(pid_t pgid)
{
	struct hgroup_freeze f;

	if (hg_get_freeze(pgid, &f))
		return -1;
	return f.flags;
}

/* Wait up to @ms for the group to read frozen (or not): 0, or -1. */
static inline int hg_wait_frozen(pid_t pgid, int frozen, long ms)
{
	long want = frozen ? HGROUP_STATE_FROZEN : 0;

	return HG_POLL(hg_freeze_state(pgid) == want, ms) ? 0 : -1;
}

static inline long hg_set_tasks(pid_t pgid, __u64 max)
{
	struct hgroup_tasks t = { .max = max };

	return sys_hgroup_set_attr(pgid, HGROUP_ATTR_TASKS, &t, sizeof(t),
				   HGROUP_SCOPE_DOMAIN);
}

static inline long hg_get_tasks(pid_t pgid, __u64 *max, __u64 *cur)
{
	struct hgroup_tasks t;
	long r;

	memset(&t, 0, sizeof(t));
	r = sys_hgroup_get_attr(pgid, HGROUP_ATTR_TASKS, &t, sizeof(t),
				HGROUP_SCOPE_DOMAIN);
	if (!r) {
		if (max)
			*max = t.max;
		if (cur)
			*cur = t.nr_tasks;
	}
	return r;
}

/* Tasks now in @pgid's domain and its sub-domains, or -1. */
static inline long long hg_tasks_current(pid_t pgid)
{
	__u64 cur;

	if (hg_get_tasks(pgid, NULL, &cur))
		return -1;
	return cur;
}

static inline long hg_set_devices(pid_t pgid, __u32 policy,
				  const struct hgroup_dev_rule *rules,
				  __u32 nr_rules, unsigned int flags)
{
	struct hgroup_devices d = {
		.policy = policy,
		.nr_rules = nr_rules,
		.rules = (uintptr_t)rules,
	};

	return sys_hgroup_set_attr(pgid, HGROUP_ATTR_DEVICES, &d, sizeof(d),
				   flags);
}

/* Affinity of thread @tid (0: the caller) as one word, or 0 on error. */
static inline unsigned long hg_affinity(pid_t tid)
{
	unsigned long m[16] = { 0 };

	if (syscall(__NR_sched_getaffinity, tid, sizeof(m), m) < 0)
		return 0;
	return m[0];
}

static inline long hg_set_affinity(pid_t tid, unsigned long bits)
{
	return syscall(__NR_sched_setaffinity, tid, sizeof(bits), &bits);
}

/* A list ("0-1,3") as a bitmap of its numbers below 64; @s is changed. */
static inline unsigned long hg_list_bits(char *s)
{
	unsigned long bits = 0;
	char *tok, *save;

	for (tok = strtok_r(s, ", \t\n", &save); tok;
	     tok = strtok_r(NULL, ", \t\n", &save)) {
		char *dash = strchr(tok, '-');
		long a = strtol(tok, NULL, 10);
		long b = dash ? strtol(dash + 1, NULL, 10) : a;

		for (; a <= b && a < 64; a++)
			bits |= 1UL << a;
	}
	return bits;
}

/* A CPU (or node) list file as a bitmap, 0 if it cannot be read. */
static inline unsigned long hg_cpulist(const char *path)
{
	char buf[256];
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return hg_list_bits(buf);
}

static inline unsigned long hg_online_cpus(void)
{
	return hg_cpulist("/sys/devices/system/cpu/online");
}

static inline unsigned long hg_possible_cpus(void)
{
	return hg_cpulist("/sys/devices/system/cpu/possible");
}

/* State letter and parent of @pid from /proc/PID/stat: 0, or -1 if gone. */
static inline int hg_proc_stat(pid_t pid, char *state, pid_t *ppid)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %d", state, ppid) != 2)
		return -1;
	return 0;
}

/* The state letter of @pid ('R', 'S', 'T', 'Z'...), or 0 if it is gone. */
static inline char hg_proc_state(pid_t pid)
{
	char state;
	pid_t ppid;

	return hg_proc_stat(pid, &state, &ppid) ? 0 : state;
}

static inline pid_t hg_proc_ppid(pid_t pid)
{
	char state;
	pid_t ppid;

	return hg_proc_stat(pid, &state, &ppid) ? -1 : ppid;
}

/*
 * Reap @pid within @ms: its exit status, or 128 + signal, -1 on wait
 * failure, -2 on timeout (the child is then left to the teardown).
 */
static inline int hg_wait_exit_timeout(pid_t pid, long ms)
{
	long end = hg_now_ms() + ms;
	int status;
	pid_t r;

	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (hg_now_ms() >= end)
			return -2;
		hg_sleep_ms(10);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

/*
 * State shared by a test and its children, set up by hg_fixture_setup().
 * Atomic, so that every access is a real one to the shared page.
 */
#define HG_SLOTS 1024
struct hg_shm {
	atomic_int step;		/* set by the test, waited on by children */
	atomic_int ready;		/* counted up by children */
	atomic_int slot;		/* next free pid[] slot */
	atomic_int ret[16];
	atomic_int err[16];
	atomic_int pid[HG_SLOTS];	/* pid_t */
	atomic_ulong ctr[HG_SLOTS];
};

/* In a child: wait (bounded) for the test to reach step @n. */
static inline int hg_wait_step(struct hg_shm *shm, int n)
{
	return HG_POLL(shm->step >= n, HG_CHILD_MS) ? 0 : -1;
}

static inline void hg_set_step(struct hg_shm *shm, int n)
{
	__atomic_store_n(&shm->step, n, __ATOMIC_SEQ_CST);
}

static inline void hg_ready(struct hg_shm *shm)
{
	__atomic_add_fetch(&shm->ready, 1, __ATOMIC_SEQ_CST);
}

/* In a thread or child: record the caller's tid in a free pid[] slot. */
static inline int hg_register_tid(struct hg_shm *shm)
{
	int i = __atomic_fetch_add(&shm->slot, 1, __ATOMIC_SEQ_CST);

	if (i < HG_SLOTS)
		shm->pid[i] = syscall(SYS_gettid);
	hg_ready(shm);
	return i;
}

/* The counters of @n slots from @first stay still for @ms: 1, or 0. */
static inline int hg_ctrs_still(struct hg_shm *shm, int first, int n, long ms)
{
	unsigned long before[HG_SLOTS];
	int i;

	for (i = 0; i < n; i++)
		before[i] = shm->ctr[first + i];
	hg_sleep_ms(ms);
	for (i = 0; i < n; i++)
		if (shm->ctr[first + i] != before[i])
			return 0;
	return 1;
}

/* Every counter of @n slots from @first moves within @ms: 1, or 0. */
static inline int hg_ctrs_move(struct hg_shm *shm, int first, int n, long ms)
{
	unsigned long before[HG_SLOTS];
	long end = hg_now_ms() + ms;
	int i;

	for (i = 0; i < n; i++)
		before[i] = shm->ctr[first + i];
	for (i = 0; i < n; i++)
		if (!HG_POLL(shm->ctr[first + i] != before[i],
			     end - hg_now_ms()))
			return 0;
	return 1;
}

struct hg_proc {
	pid_t pid, ppid;
	char state;
};

#define HG_MAX_PROCS 8192

static inline int hg_scan_procs(struct hg_proc *p)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < HG_MAX_PROCS) {
		p[n].pid = atoi(de->d_name);
		if (p[n].pid > 0 &&
		    !hg_proc_stat(p[n].pid, &p[n].state, &p[n].ppid))
			n++;
	}
	closedir(d);
	return n;
}

/* Set mark[i] for every process of @p descended from @root. */
static inline void hg_mark_descendants(const struct hg_proc *p, int n,
				       pid_t root, char *mark)
{
	int i, j, changed = 1;

	memset(mark, 0, n);
	while (changed) {
		changed = 0;
		for (i = 0; i < n; i++) {
			if (mark[i] || p[i].pid == root)
				continue;
			if (p[i].ppid == root) {
				mark[i] = 1;
				changed = 1;
				continue;
			}
			for (j = 0; j < n; j++) {
				if (mark[j] && p[j].pid == p[i].ppid) {
					mark[i] = 1;
					changed = 1;
					break;
				}
			}
		}
	}
}

/*
 * SIGKILL every descendant of @root (frozen, stopped, traced and blocked
 * ones too: SIGKILL ends all of them) until none is alive, for up to 20 s.
 * With @reap, the caller is @root and a subreaper, and reaps them all.
 */
static inline void hg_kill_tree(pid_t root, int reap)
{
	struct hg_proc *p = malloc(HG_MAX_PROCS * sizeof(*p));
	char *mark = malloc(HG_MAX_PROCS);
	long end = hg_now_ms() + 20000;
	int i, n, live;
	pid_t r;

	if (!p || !mark)
		goto out;
	do {
		n = hg_scan_procs(p);
		hg_mark_descendants(p, n, root, mark);
		live = 0;
		for (i = 0; i < n; i++) {
			if (!mark[i])
				continue;
			/* A zombie leader may still have live threads. */
			kill(p[i].pid, SIGKILL);
			live += p[i].state != 'Z' && p[i].state != 'X';
		}
		while (reap && waitpid(-1, NULL, WNOHANG | __WALL) > 0)
			;
		if (live)
			hg_sleep_ms(10);
	} while (live && hg_now_ms() < end);
	while (reap && hg_now_ms() < end) {
		r = waitpid(-1, NULL, WNOHANG | __WALL);
		if (r < 0 && errno == ECHILD)
			break;
		if (r <= 0)
			hg_sleep_ms(10);
	}
out:
	free(p);
	free(mark);
}

static inline int hg_exe_is(pid_t pid, const char *exe)
{
	char path[64], buf[4096];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return !strcmp(buf, exe);
}

/*
 * A watchdog for when a test dies without its teardown (the harness's
 * timeout SIGKILLs the test's process group only, and the test's children
 * live in sessions of their own): when the test process dies, it kills
 * every process running this executable whose parent does not (the
 * orphans, with everything below them), sparing the harness.
 */
static inline void hg_watchdog(pid_t test, pid_t spare1, pid_t spare2)
{
	struct hg_proc *p = malloc(HG_MAX_PROCS * sizeof(*p));
	char *mark = malloc(HG_MAX_PROCS);
	char exe[4096];
	sigset_t set;
	ssize_t len;
	int i, round, found;

	setsid();
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	prctl(PR_SET_PDEATHSIG, SIGUSR1);
	while (getppid() == test) {
		struct timespec ts = { 5, 0 };

		sigtimedwait(&set, NULL, &ts);
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0 || !p || !mark)
		_exit(0);
	exe[len] = '\0';
	for (round = 0; round < 100; round++) {
		int n = hg_scan_procs(p);

		found = 0;
		for (i = 0; i < n; i++) {
			pid_t pid = p[i].pid;

			if (pid == getpid() || pid == test || pid == spare1 ||
			    pid == spare2 || p[i].state == 'Z' ||
			    !hg_exe_is(pid, exe) || hg_exe_is(p[i].ppid, exe))
				continue;
			hg_kill_tree(pid, 0);
			kill(pid, SIGKILL);
			found = 1;
		}
		if (!found)
			break;
		hg_sleep_ms(100);
	}
	_exit(0);
}

/*
 * For FIXTURE_SETUP(): make the test a subreaper (orphans come back to it
 * and are reaped), start the watchdog, and map the shared state.
 */
static inline struct hg_shm *hg_fixture_setup(void)
{
	pid_t test = getpid(), wrapper = getppid();
	pid_t harness = hg_proc_ppid(wrapper);
	struct hg_shm *shm;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		return NULL;
	fflush(stdout);
	fflush(stderr);
	if (fork() == 0)
		hg_watchdog(test, wrapper, harness);
	shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return shm == MAP_FAILED ? NULL : shm;
}

/* For FIXTURE_TEARDOWN(): kill and reap everything the test started. */
static inline void hg_fixture_teardown(struct hg_shm *shm)
{
	hg_kill_tree(getpid(), 1);
	if (shm)
		munmap(shm, sizeof(*shm));
}

#endif /* HGROUP_SCOPE_DOMAIN */

#endif /* __HGROUP_UTIL_H */
