// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups selftests: memory charged to domains (HGROUP_ATTR_MEM).
 *
 * The test drives workers: processes it forks that carry out one command
 * at a time, sent through a pipe, and answer through another, so that
 * between commands a worker is blocked in read() and charges nothing.  A
 * worker can start a domain, touch or free anonymous memory, write or
 * remove a file on tmpfs, fork another worker (whose pipes the test made
 * before the first fork), move its memory to another node, or exit.
 * Usage is read from outside, by the process group's number, with
 * HGROUP_SCOPE_DOMAIN; a read drains the per-CPU stocks first, so values
 * are exact and the tests assert them exactly.
 *
 * Covered: argument checks and their errnos; a new domain reads 0;
 * anonymous memory charged to the domain and by the same amount to its
 * parent, refunded exactly when freed and when the process exits; copy on
 * write after fork; tmpfs pages charged to the writer and refunded to its
 * domain after the domain ended (the object outlives it, a zombie, until
 * the file goes); migration between nodes and THP splitting keep
 * the counts; 1,000 processes in nested domains in nested PID namespaces
 * exiting together refund everything, and no object leaks.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "hgroup_util.h"

#define MIB		(1024UL * 1024)
#define MAX_WORKERS	8
#define SHM_DIR		"/dev/shm"
#define NEST_LEVELS	10
#define NEST_PROCS	100
#define NEST_KIB	256

/* A worker: the pipes to and from it, and its pid in the test's view. */
struct worker {
	int cmd[2];
	int ack[2];
	pid_t pid;
};

struct cmd {
	char op;
	long arg;
};

static struct worker workers[MAX_WORKERS];

/* For the nested test: "ready" from every process, and "go" to them. */
static int nest_pipes[2][2];

/* Which worker this process is. */
static int self_index;

/* The file the page-cache tests read. */
static char file_path[128];

/* The worker's anonymous region, and its size. */
static char *region;
static size_t region_len;

/* move_pages() arrays, touched before the worker is in a domain. */
#define MOVE_MAX	4096
static void *move_addr[MOVE_MAX];
static int move_node[MOVE_MAX], move_status[MOVE_MAX];

/* Move the region to @node: pages that did not get there, or -1. */
static long move_region(int node)
{
	unsigned long n = region_len / getpagesize(), i;
	long ret;

	if (n > MOVE_MAX)
		return -1;
	for (i = 0; i < n; i++) {
		move_addr[i] = region + i * getpagesize();
		move_node[i] = node;
	}
	ret = syscall(__NR_move_pages, 0, n, move_addr, move_node,
		      move_status, 0);
	if (ret < 0)
		return -1;
	for (i = 0; i < n; i++)
		ret += move_status[i] != node;
	return ret;
}

static void worker_loop(struct worker *w);

/* Start worker @i as a child of the caller. */
static pid_t worker_fork(int i)
{
	pid_t pid = fork();

	if (pid == 0)
		worker_loop(&workers[i]);
	return pid;
}

/*
 * One level of the nested test, started in its parent level's domain: a
 * new PID namespace, whose first process starts a domain, forks the
 * processes of the level and the next level, and reaps them.
 */
static void nest_level(void)
{
	pid_t kids[NEST_PROCS], sub, next = 0;
	int i, n = 0, level;
	char c = 0;

	for (level = 0; level < NEST_LEVELS && next == 0; level++) {
		if (unshare(CLONE_NEWPID))
			_exit(10);
		sub = fork();
		if (sub < 0)
			_exit(11);
		if (sub > 0)
			_exit(wait_exit(sub));
		/* PID 1 of a new namespace, in its domain 0: may start one. */
		if (new_domain() <= 0)
			_exit(12);
		for (i = 0; i < NEST_PROCS; i++) {
			kids[i] = fork();
			if (kids[i] == 0) {
				char *p = mmap(NULL, NEST_KIB << 10,
					       PROT_READ | PROT_WRITE,
					       MAP_PRIVATE | MAP_ANONYMOUS,
					       -1, 0);

				if (p == MAP_FAILED)
					_exit(1);
				memset(p, 1, NEST_KIB << 10);
				if (write(nest_pipes[0][1], &c, 1) != 1 ||
				    read(nest_pipes[1][0], &c, 1) != 1)
					_exit(1);
				_exit(0);
			}
			if (kids[i] < 0)
				_exit(13);
		}
		/* The next level is made by a child, which goes round. */
		next = level + 1 < NEST_LEVELS ? fork() : -1;
		if (next < -1 || (next < 0 && level + 1 < NEST_LEVELS))
			_exit(14);
	}
	if (next > 0)
		n = wait_exit(next) ? 1 : 0;
	for (i = 0; i < NEST_PROCS; i++)
		n += wait_exit(kids[i]) ? 1 : 0;
	_exit(n ? 15 : 0);
}

static long worker_do(struct cmd *c)
{
	char path[64];
	long ret = 0;
	size_t off;
	int fd;

	switch (c->op) {
	case 'D':	/* start a domain */
		return new_domain();
	case 'T':	/* touch @arg MiB of new anonymous memory */
		region_len = c->arg * MIB;
		region = mmap(NULL, region_len, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (region == MAP_FAILED)
			return -1;
		for (off = 0; off < region_len; off += getpagesize())
			region[off] = 1;
		return 0;
	case 'H':	/* @arg MiB of THP-aligned memory, huge pages asked */
		region_len = c->arg * MIB;
		region = mmap(NULL, region_len + 2 * MIB, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (region == MAP_FAILED)
			return -1;
		region = (char *)(((unsigned long)region + 2 * MIB - 1) &
				  ~(2 * MIB - 1));
		if (madvise(region, region_len, MADV_HUGEPAGE))
			return -1;
		for (off = 0; off < region_len; off += getpagesize())
			region[off] = 1;
		return 0;
	case 'V':	/* @arg MiB, each page its number, read back: 0 or -2 */
		region_len = c->arg * MIB;
		region = mmap(NULL, region_len, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (region == MAP_FAILED)
			return -1;
		for (off = 0; off < region_len; off += getpagesize())
			*(size_t *)(region + off) = off;
		for (off = 0; off < region_len; off += getpagesize())
			if (*(size_t *)(region + off) != off)
				return -2;
		return 0;
	case 'w':	/* write to every page of the region */
		for (off = 0; off < region_len; off += getpagesize())
			region[off] = 2;
		return 0;
	case 'P':	/* unmap @arg MiB at the end of the region */
		region_len -= c->arg * MIB;
		return munmap(region + region_len, c->arg * MIB);
	case 'U':	/* free the region */
		ret = munmap(region, region_len);
		region_len = 0;
		return ret;
	case 'N':	/* move the region to node @arg */
		return move_region(c->arg);
	case 'W':	/* write @arg MiB to a tmpfs file */
		snprintf(path, sizeof(path), SHM_DIR "/hgmem.%d", self_index);
		fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
		if (fd < 0)
			return -1;
		{
			static char buf[1 << 16];

			memset(buf, 7, sizeof(buf));
			for (off = 0; !ret && off < c->arg * MIB;
			     off += sizeof(buf))
				if (write(fd, buf, sizeof(buf)) != sizeof(buf))
					ret = -1;
		}
		close(fd);
		return ret;
	case 'F':	/* start worker @arg as a child */
		return worker_fork(c->arg);
	case 'f':	/* the same, in a new PID namespace (a domain may nest) */
		if (unshare(CLONE_NEWPID))
			return -1;
		return worker_fork(c->arg);
	case 'Y':	/* fork and reap a child, so that our pages are our own */
		ret = fork();
		if (ret == 0)
			_exit(0);
		return ret < 0 ? -1 : wait_exit(ret);
	case 'R':	/* reap a child */
		return wait_exit(c->arg);
	case 'C':	/* start the nested test's chain */
		ret = fork();
		if (ret == 0)
			nest_level();
		return ret;
	case 'G':	/* getpid() */
		return getpid();
	case 'B':	/* become uid @arg */
		return hg_become(c->arg);
	case 'o':	/* set our domain's soft limit to @arg MiB: 0 or -errno */
		{
			struct hgroup_mem m = {
				.max = HGROUP_MEM_UNLIMITED,
				.soft = c->arg * MIB,
			};

			return sys_hgroup_set_attr(0, HGROUP_ATTR_MEM, &m,
						   sizeof(m),
						   HGROUP_SCOPE_DOMAIN) ?
			       -errno : 0;
		}
	case 'S':	/* set our domain's hard limit to @arg MiB: 0 or -errno */
		{
			struct hgroup_mem m = {
				.max = c->arg ? c->arg * MIB :
					HGROUP_MEM_UNLIMITED,
			};

			return sys_hgroup_set_attr(0, HGROUP_ATTR_MEM, &m,
						   sizeof(m),
						   HGROUP_SCOPE_DOMAIN) ?
			       -errno : 0;
		}
	case 'A':	/* our oom_score_adj */
		snprintf(path, sizeof(path), "%ld", c->arg);
		return hg_write_file("/proc/self/oom_score_adj", path);
	case 'K':	/* a child touches @arg MiB: how it ended */
		ret = fork();
		if (ret == 0) {
			char *p = mmap(NULL, c->arg * MIB, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				_exit(1);
			for (off = 0; off < c->arg * MIB; off += getpagesize())
				p[off] = 1;
			_exit(0);
		}
		return ret < 0 ? -1 : wait_exit(ret);
	case 'L':	/* mlock() @arg MiB of new memory: 0 or -errno */
		region_len = c->arg * MIB;
		region = mmap(NULL, region_len, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (region == MAP_FAILED)
			return -1000;
		ret = mlock(region, region_len) ? -errno : 0;
		munmap(region, region_len);
		region_len = 0;
		return ret;
	case 'r':	/* read the file through read(): 0 or -errno */
		fd = open(file_path, O_RDONLY);
		if (fd < 0)
			return -1000;
		{
			static char buf[1 << 16];
			ssize_t n;

			while ((n = read(fd, buf, sizeof(buf))) > 0)
				;
			ret = n < 0 ? -errno : 0;
		}
		close(fd);
		return ret;
	case 'Q':	/* write @arg MiB to the file: 0 or -errno */
		fd = open(file_path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0)
			return -1000;
		{
			static char buf[1 << 16];

			memset(buf, 5, sizeof(buf));
			for (off = 0; off < c->arg * MIB; off += sizeof(buf))
				if (write(fd, buf, sizeof(buf)) != sizeof(buf))
					break;
			ret = off < c->arg * MIB ? -errno : 0;
		}
		close(fd);
		return ret;
	case 'M':	/* read the file through a mapping: 0 or -1 */
		fd = open(file_path, O_RDONLY);
		if (fd < 0)
			return -1000;
		{
			size_t len = lseek(fd, 0, SEEK_END);
			char *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
			long sum = 0;

			if (p == MAP_FAILED) {
				close(fd);
				return -1;
			}
			/* Every page read; the sum keeps the reads. */
			for (off = 0; off < len; off += getpagesize())
				sum += p[off];
			munmap(p, len);
			ret = sum == 3L * (len / getpagesize()) ? 0 : -2;
		}
		close(fd);
		return ret;
	}
	return -1;
}

static void worker_loop(struct worker *w)
{
	struct cmd c;
	long ret;

	self_index = w - workers;
	memset(move_addr, 0, sizeof(move_addr));
	memset(move_node, 0, sizeof(move_node));
	memset(move_status, 0, sizeof(move_status));

	for (;;) {
		if (read(w->cmd[0], &c, sizeof(c)) != sizeof(c))
			_exit(2);
		if (c.op == 'X')
			_exit(0);
		ret = worker_do(&c);
		if (write(w->ack[1], &ret, sizeof(ret)) != sizeof(ret))
			_exit(2);
	}
}

/* Send worker @i a command; its answer, or -100 if it died. */
static bool alive(pid_t pid);

/*
 * Have worker @i run @op: its answer, or -100 if it could not be asked
 * or died before answering (the test holds the pipes' other ends too,
 * so a dead worker is seen by looking, not by end of file).
 */
static long cmd(int i, char op, long arg)
{
	struct cmd c = { .op = op, .arg = arg };
	struct pollfd pfd = { .fd = workers[i].ack[0], .events = POLLIN };
	long ret;

	if (write(workers[i].cmd[1], &c, sizeof(c)) != sizeof(c))
		return -100;
	if (op == 'X')
		return 0;
	while (poll(&pfd, 1, 200) == 0)
		if (workers[i].pid > 0 && !alive(workers[i].pid))
			return -100;
	if (read(workers[i].ack[0], &ret, sizeof(ret)) != sizeof(ret))
		return -100;
	return ret;
}

static int workers_init(void)
{
	int i;

	for (i = 0; i < MAX_WORKERS; i++)
		if (pipe(workers[i].cmd) || pipe(workers[i].ack))
			return -1;
	return pipe(nest_pipes[0]) || pipe(nest_pipes[1]) ? -1 : 0;
}

static void workers_close(void)
{
	int i;

	for (i = 0; i < MAX_WORKERS; i++) {
		close(workers[i].cmd[0]);
		close(workers[i].cmd[1]);
		close(workers[i].ack[0]);
		close(workers[i].ack[1]);
	}
	for (i = 0; i < 2; i++) {
		close(nest_pipes[i][0]);
		close(nest_pipes[i][1]);
	}
}

/* Start worker 0 from the test, in a domain of its own. */
static pid_t start_root_worker(void)
{
	workers[0].pid = worker_fork(0);
	if (workers[0].pid < 0 || cmd(0, 'D', 0) <= 0 || cmd(0, 'Y', 0))
		return -1;
	return workers[0].pid;
}

/* Worker 0 as user @uid, in a domain it made itself: an owner. */
static pid_t start_member_worker(uid_t uid)
{
	workers[0].pid = worker_fork(0);
	if (workers[0].pid < 0 || cmd(0, 'B', uid) || cmd(0, 'D', 0) <= 0)
		return -1;
	return workers[0].pid;
}

/* Worker @child, started by worker @parent, in a domain of its own. */
static pid_t start_sub_worker(int parent, int child)
{
	workers[child].pid = cmd(parent, 'f', child);
	if (workers[child].pid <= 0 || cmd(child, 'D', 0) <= 0 ||
	    cmd(child, 'Y', 0))
		return -1;
	return workers[child].pid;
}

static int get_mem(pid_t pgid, struct hgroup_mem *m)
{
	memset(m, 0, sizeof(*m));
	return sys_hgroup_get_attr(pgid, HGROUP_ATTR_MEM, m, sizeof(*m),
				   HGROUP_SCOPE_DOMAIN);
}

/*
 * Folios freed by munmap() or exit may wait in the per-CPU batches of
 * the LRU code, still allocated and charged, until those are drained:
 * writing drop_caches drains them on every CPU.
 */
static void settle(void)
{
	hg_write_file("/proc/sys/vm/drop_caches", "1");
}

/* The usage of @pgid's domain in bytes; the test fails if unreadable. */
static long long usage_of(struct __test_metadata *_metadata, pid_t pgid,
			  bool want_peak)
{
	struct hgroup_mem m;

	settle();
	ASSERT_EQ(0, get_mem(pgid, &m)) {
		TH_LOG("reading the memory of %d: %s", pgid, strerror(errno));
	}
	return want_peak ? m.peak : m.usage;
}

#define usage(pgid)	usage_of(_metadata, pgid, false)
#define peak(pgid)	usage_of(_metadata, pgid, true)

/* Is @pid running (not gone, not a zombie)? */
static bool alive(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
		state = 0;
	fclose(f);
	return state && state != 'Z';
}

/* Set both limits of @pgid's domain, in bytes: 0 or -errno. */
static long set_limits(pid_t pgid, __u64 max, __u64 soft)
{
	struct hgroup_mem m = { .max = max, .soft = soft };

	return sys_hgroup_set_attr(pgid, HGROUP_ATTR_MEM, &m, sizeof(m),
				   HGROUP_SCOPE_DOMAIN) ? -errno : 0;
}

/* Set the hard limit of @pgid's domain, in bytes: 0 or -errno. */
static long set_max(pid_t pgid, __u64 max)
{
	struct hgroup_mem m = { .max = max };

	return sys_hgroup_set_attr(pgid, HGROUP_ATTR_MEM, &m, sizeof(m),
				   HGROUP_SCOPE_DOMAIN) ? -errno : 0;
}

/* Memory objects once every one freed meanwhile is gone. */
static long mem_objects_settled(long want)
{
	struct hgroup_mem m;

	/*
	 * Reading any domain drains the stocks that pin objects; a folio
	 * freed while it waited in another CPU's LRU batch (page cache of
	 * an unmounted file system, say) still pins its object until the
	 * batches are drained, which nothing does on an idle guest.
	 */
	HG_POLL((settle(), get_mem(0, &m), hg_objects("mem") == want),
		HG_SETTLE_MS);
	return hg_objects("mem");
}

/* The loop device of a test's file system, unmounted at teardown. */
static char loop_dev[32];
static void loop_fs_done(void);
static void swap_off(void);

FIXTURE(mem) {
	long objects;
};

FIXTURE_SETUP(mem)
{
	struct hgroup_mem m;

	if (get_mem(0, &m) && errno == EOPNOTSUPP)
		SKIP(return, "memory charging not in this kernel");
	ASSERT_EQ(0, workers_init());
	/* Not counting what only waits for the LRU batches to drain. */
	settle();
	self->objects = hg_objects("mem");
	ASSERT_LE(0, self->objects);
}

FIXTURE_TEARDOWN(mem)
{
	int i;

	for (i = MAX_WORKERS - 1; i >= 0; i--)
		if (workers[i].pid > 0)
			kill(workers[i].pid, SIGKILL);
	while (wait(NULL) > 0)
		;
	workers_close();
	memset(workers, 0, sizeof(workers));
	loop_fs_done();
	swap_off();
	system("rm -f " SHM_DIR "/hgmem.*");
	/* Every object made by the test is freed. */
	EXPECT_EQ(self->objects, mem_objects_settled(self->objects));
}

TEST_F(mem, bad_arguments)
{
	struct hgroup_mem m;
	char big[sizeof(m) + 8];
	pid_t w = start_root_worker();

	ASSERT_LT(0, w);
	/* A property of the domain: only with the domain scope. */
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(w, HGROUP_ATTR_MEM, &m,
						 sizeof(m), 0));
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(w, HGROUP_ATTR_MEM, &m,
						 sizeof(m), 2));
	EXPECT_ERRNO(EINVAL, sys_hgroup_get_attr(w, HGROUP_ATTR_MEM, &m,
						 HGROUP_MEM_SIZE_VER0 - 8,
						 HGROUP_SCOPE_DOMAIN));
	EXPECT_ERRNO(EFAULT, sys_hgroup_get_attr(w, HGROUP_ATTR_MEM,
						 (void *)8, sizeof(m),
						 HGROUP_SCOPE_DOMAIN));
	EXPECT_ERRNO(ESRCH, sys_hgroup_get_attr(INT_MAX, HGROUP_ATTR_MEM, &m,
						sizeof(m),
						HGROUP_SCOPE_DOMAIN));
	/* A larger structure than the kernel's: its tail must be 0. */
	memset(big, 0, sizeof(big));
	big[sizeof(m)] = 1;
	EXPECT_ERRNO(E2BIG, sys_hgroup_get_attr(w, HGROUP_ATTR_MEM, big,
						sizeof(big),
						HGROUP_SCOPE_DOMAIN));
	big[sizeof(m)] = 0;
	EXPECT_EQ(0, sys_hgroup_get_attr(w, HGROUP_ATTR_MEM, big, sizeof(big),
					 HGROUP_SCOPE_DOMAIN));
	/* The default values set: nothing changes. */
	memset(&m, 0, sizeof(m));
	m.max = HGROUP_MEM_UNLIMITED;
	EXPECT_EQ(0, sys_hgroup_set_attr(w, HGROUP_ATTR_MEM, &m, sizeof(m),
					 HGROUP_SCOPE_DOMAIN));
	/* Domain 0 is not charged. */
	ASSERT_EQ(0, get_mem(getpgid(0), &m));
	EXPECT_EQ(0, m.usage);
	EXPECT_EQ(0, m.peak);
	EXPECT_EQ(HGROUP_MEM_UNLIMITED, m.max);
	EXPECT_EQ(0, m.soft);
}

TEST_F(mem, new_domain_reads_zero)
{
	struct hgroup_mem m;
	pid_t w;

	workers[0].pid = worker_fork(0);
	w = workers[0].pid;
	ASSERT_LT(0, w);
	ASSERT_LT(0, cmd(0, 'D', 0));
	ASSERT_EQ(0, get_mem(w, &m));
	EXPECT_EQ(0, m.usage);
	EXPECT_EQ(HGROUP_MEM_UNLIMITED, m.max);
	EXPECT_EQ(0, m.soft);
}

/*
 * 50 MiB in a domain below another: counted in both by the same amount,
 * refunded exactly by munmap() and by exit.
 */
TEST_F(mem, anon_charged_to_domain_and_parent)
{
	long long a0, b0, a1, b1, before;
	struct hgroup_mem m;
	pid_t a = start_root_worker(), b;

	ASSERT_LT(0, a);
	before = usage(a);
	b = start_sub_worker(0, 1);
	ASSERT_LT(0, b);
	a0 = usage(a);
	b0 = usage(b);
	ASSERT_LE(0, a0);
	ASSERT_LE(0, b0);
	ASSERT_EQ(0, cmd(1, 'T', 50));
	a1 = usage(a);
	b1 = usage(b);
	EXPECT_LE(50 * MIB, b1 - b0);
	EXPECT_GE(52 * MIB, b1 - b0);
	EXPECT_EQ(b1 - b0, a1 - a0);
	EXPECT_LE(b1, peak(b));
	EXPECT_LE(a1, peak(a));
	/* Freed: back exactly. */
	ASSERT_EQ(0, cmd(1, 'U', 0));
	EXPECT_EQ(b0, usage(b));
	EXPECT_EQ(a0, usage(a));
	EXPECT_LE(b1, peak(b));
	/* Touched again, then the process exits: the parent gets it all. */
	ASSERT_EQ(0, cmd(1, 'T', 20));
	EXPECT_LE(a0 + 20 * (long long)MIB, usage(a));
	ASSERT_EQ(0, cmd(1, 'X', 0));
	ASSERT_EQ(0, cmd(0, 'R', b));
	workers[1].pid = 0;
	/*
	 * All of worker 1 is gone, what it had before its domain too.  Its
	 * parent may have copied on write a page it had from domain 0 while
	 * the two shared it: that copy is its own, charged here.
	 */
	EXPECT_GE(a0 - b0, usage(a));
	EXPECT_LE(before, usage(a));
	EXPECT_GE(before + 4 * 4096, usage(a));
	EXPECT_ERRNO(ESRCH, get_mem(b, &m));
}

/*
 * Copy on write after fork is charged to the domain of the process that
 * writes: a child in a domain below rewriting its parent's 16 MiB.
 */
TEST_F(mem, cow_charged_to_writer)
{
	long long a0, a1, b0;
	pid_t a = start_root_worker(), b;

	ASSERT_LT(0, a);
	ASSERT_EQ(0, cmd(0, 'T', 16));
	a0 = usage(a);
	b = start_sub_worker(0, 1);
	ASSERT_LT(0, b);
	b0 = usage(b);
	a1 = usage(a);
	ASSERT_EQ(0, cmd(1, 'w', 0));
	EXPECT_EQ(b0 + 16 * (long long)MIB, usage(b));
	EXPECT_EQ(a1 + 16 * (long long)MIB, usage(a));
	/* Its copy unmapped: refunded there; the parent keeps its own. */
	ASSERT_EQ(0, cmd(1, 'U', 0));
	EXPECT_EQ(b0, usage(b));
	EXPECT_EQ(a1, usage(a));
	ASSERT_EQ(0, cmd(1, 'X', 0));
	ASSERT_EQ(0, cmd(0, 'R', b));
	workers[1].pid = 0;
	EXPECT_GE(a1 - b0, usage(a));
	EXPECT_LE(a0, usage(a));
	/* The parent's region is still charged to it, whole. */
	ASSERT_EQ(0, cmd(0, 'w', 0));
	EXPECT_GE(a1 - b0, usage(a));
}

/*
 * tmpfs pages are charged to the domain of the writer, and stay charged
 * to it after it ended; removing the file refunds them there and frees
 * the object.
 */
TEST_F(mem, tmpfs_refunded_after_domain_ended)
{
	long long a0, b0, a1;
	pid_t a = start_root_worker(), b;
	struct hgroup_mem m;
	long zombies;
	char path[64];

	ASSERT_LT(0, a);
	b = start_sub_worker(0, 1);
	ASSERT_LT(0, b);
	a0 = usage(a);
	b0 = usage(b);
	ASSERT_EQ(0, cmd(1, 'W', 12));
	EXPECT_LE(b0 + 12 * (long long)MIB, usage(b));
	EXPECT_GE(b0 + 13 * (long long)MIB, usage(b));
	EXPECT_EQ(usage(b) - b0, usage(a) - a0);
	zombies = hg_objects("mem_zombies");
	ASSERT_EQ(0, cmd(1, 'X', 0));
	ASSERT_EQ(0, cmd(0, 'R', b));
	workers[1].pid = 0;
	/* The domain is gone; its file is still charged, in its parent. */
	EXPECT_ERRNO(ESRCH, get_mem(b, &m));
	a1 = usage(a);
	EXPECT_LE(12 * (long long)MIB, a1);
	EXPECT_TRUE(HG_POLL(hg_objects("mem_zombies") == zombies + 1,
			    HG_SETTLE_MS));
	snprintf(path, sizeof(path), SHM_DIR "/hgmem.%d", 1);
	ASSERT_EQ(0, unlink(path));
	EXPECT_EQ(a1 - 12 * (long long)MIB, usage(a));
	EXPECT_TRUE(HG_POLL(hg_objects("mem_zombies") == zombies,
			    HG_SETTLE_MS));
}

/* Try to start a domain: 0 if refused with EBUSY, as it must be. */
static int domain_busy(void)
{
	long r;

	if (setsid() < 0)
		return 1;
	errno = 0;
	r = sys_set_domainid(0);
	return r == -1 && errno == EBUSY ? 0 : 2;
}

static int vm_child(void *arg)
{
	return domain_busy();
}

/*
 * A process that shares its memory (clone(CLONE_VM), a vfork() child)
 * cannot start a domain: EBUSY; nor can the process it shares it with,
 * until it has a memory of its own (exec).
 */
TEST_F(mem, shared_memory_cannot_start_domain)
{
	pid_t p = fork();

	ASSERT_LE(0, p);
	if (p == 0) {
		static char stack[1 << 16];
		pid_t c;

		c = clone(vm_child, stack + sizeof(stack), CLONE_VM | SIGCHLD,
			  NULL);
		if (c < 0 || wait_exit(c))
			_exit(10);
		/* The parent shared it too. */
		if (domain_busy())
			_exit(11);
		_exit(0);
	}
	EXPECT_EQ(0, wait_exit(p));
	p = fork();
	ASSERT_LE(0, p);
	if (p == 0) {
		pid_t v = vfork();

		if (v == 0)
			_exit(domain_busy());
		if (v < 0 || wait_exit(v))
			_exit(12);
		/* A vfork() parent is free once the child has gone. */
		_exit(new_domain() > 0 ? 0 : 13);
	}
	EXPECT_EQ(0, wait_exit(p));
}

/* Pages moved to another node keep their charge, refunded exactly. */
TEST_F(mem, migration_keeps_charge)
{
	long long a0, a1;
	pid_t a = start_root_worker();

	ASSERT_LT(0, a);
	if (access("/sys/devices/system/node/node1", F_OK))
		SKIP(return, "one memory node");
	a0 = usage(a);
	ASSERT_EQ(0, cmd(0, 'T', 8));
	a1 = usage(a);
	EXPECT_EQ(a0 + 8 * (long long)MIB, a1);
	ASSERT_EQ(0, cmd(0, 'N', 1));
	EXPECT_EQ(a1, usage(a));
	ASSERT_EQ(0, cmd(0, 'N', 0));
	EXPECT_EQ(a1, usage(a));
	ASSERT_EQ(0, cmd(0, 'U', 0));
	EXPECT_EQ(a0, usage(a));
}

static long anon_huge_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * A huge page charged whole; half of it unmapped: after the deferred
 * split and free, exactly that half is refunded; migrated, unchanged.
 */
TEST_F(mem, thp_split_keeps_counts)
{
	long long a0, a1;
	pid_t a = start_root_worker();

	ASSERT_LT(0, a);
	if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK))
		SKIP(return, "no THP");
	a0 = usage(a);
	ASSERT_EQ(0, cmd(0, 'H', 2));
	if (anon_huge_kb(a) < 2048)
		SKIP(return, "no huge page to be had");
	a1 = usage(a);
	EXPECT_EQ(a0 + 2 * (long long)MIB, a1);
	if (!access("/sys/devices/system/node/node1", F_OK)) {
		/* Migrated whole, or split first: the charge is the same. */
		long left = cmd(0, 'N', 1);

		EXPECT_LE(0, left);
		EXPECT_GT(512, left);
		TH_LOG("%ld of 512 pages not moved to node 1", left);
		EXPECT_EQ(a1, usage(a));
	}
	ASSERT_EQ(0, cmd(0, 'P', 1));
	/* Shrinkers split partly mapped huge pages; the unmapped half goes. */
	EXPECT_TRUE(HG_POLL((hg_write_file("/proc/sys/vm/drop_caches", "3"),
			     usage(a) <= a1 - (long long)MIB), HG_SETTLE_MS));
	EXPECT_EQ(a1 - (long long)MIB, usage(a));
	ASSERT_EQ(0, cmd(0, 'U', 0));
	EXPECT_EQ(a0, usage(a));
}

/* Limits: bad values, and nothing changes on a refused call. */
TEST_F(mem, limit_bad_arguments)
{
	struct hgroup_mem m;
	pid_t w = start_root_worker();

	ASSERT_LT(0, w);
	EXPECT_EQ(-EINVAL, set_max(w, 0));
	EXPECT_EQ(-EINVAL, set_max(w, 4095));
	EXPECT_EQ(-EINVAL, set_max(w, 1ULL << 63));
	EXPECT_EQ(-EINVAL, set_max(w, HGROUP_MEM_UNLIMITED - 1));
	memset(&m, 0, sizeof(m));
	m.max = 64 * MIB;
	m.usage = 1;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(w, HGROUP_ATTR_MEM, &m,
						 sizeof(m),
						 HGROUP_SCOPE_DOMAIN));
	m.usage = 0;
	m.local.oom = 1;
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(w, HGROUP_ATTR_MEM, &m,
						 sizeof(m),
						 HGROUP_SCOPE_DOMAIN));
	m.local.oom = 0;
	/* Without the domain scope: a property of the domain. */
	EXPECT_ERRNO(EINVAL, sys_hgroup_set_attr(w, HGROUP_ATTR_MEM, &m,
						 sizeof(m), 0));
	/* Domain 0 has no limit to set. */
	EXPECT_EQ(-EPERM, set_max(getpgid(0), 64 * MIB));
	ASSERT_EQ(0, get_mem(w, &m));
	EXPECT_EQ(HGROUP_MEM_UNLIMITED, m.max);
	/* A limit reads back in whole pages; the first version still works. */
	EXPECT_EQ(0, set_max(w, 64 * MIB + 100));
	ASSERT_EQ(0, get_mem(w, &m));
	EXPECT_EQ(64 * MIB, m.max);
	memset(&m, 0, sizeof(m));
	m.max = HGROUP_MEM_UNLIMITED;
	EXPECT_EQ(0, sys_hgroup_set_attr(w, HGROUP_ATTR_MEM, &m,
					 HGROUP_MEM_SIZE_VER0,
					 HGROUP_SCOPE_DOMAIN));
	ASSERT_EQ(0, get_mem(w, &m));
	EXPECT_EQ(HGROUP_MEM_UNLIMITED, m.max);
}

/*
 * A member of a domain may tighten its domain's limit but not lift it
 * (its own group bounds the lift: EACCES), and not lift what an
 * administrator set (EPERM); an administrator outside may.
 */
TEST_F(mem, owner_cannot_lift_admin_limit)
{
	struct hgroup_mem m;
	pid_t a;

	a = start_member_worker(1000);
	ASSERT_LT(0, a);
	/* The owner, unprivileged, in its own domain. */
	EXPECT_EQ(0, cmd(0, 'S', 64));
	EXPECT_EQ(-EACCES, cmd(0, 'S', 0));
	EXPECT_EQ(0, set_max(a, HGROUP_MEM_UNLIMITED));
	/* Root tightens it: the owner cannot lift that, only tighten. */
	ASSERT_EQ(0, set_max(a, 32 * MIB));
	EXPECT_EQ(-EPERM, cmd(0, 'S', 48));
	EXPECT_EQ(0, cmd(0, 'S', 16));
	EXPECT_EQ(-EPERM, cmd(0, 'S', 32));
	ASSERT_EQ(0, get_mem(a, &m));
	EXPECT_EQ(16 * MIB, m.max);
	EXPECT_EQ(0, set_max(a, HGROUP_MEM_UNLIMITED));
}

/* Raising a limit is lifting: never beyond a domain above, even by root. */
TEST_F(mem, limit_lift_bounded_by_parent)
{
	struct hgroup_mem m;
	pid_t a = start_root_worker(), b;

	ASSERT_LT(0, a);
	b = start_sub_worker(0, 1);
	ASSERT_LT(0, b);
	ASSERT_EQ(0, set_max(a, 64 * MIB));
	EXPECT_EQ(0, set_max(b, 32 * MIB));
	EXPECT_EQ(-EACCES, set_max(b, HGROUP_MEM_UNLIMITED));
	EXPECT_EQ(-EACCES, set_max(b, 65 * MIB));
	ASSERT_EQ(0, get_mem(b, &m));
	EXPECT_EQ(32 * MIB, m.max);
	EXPECT_EQ(0, set_max(b, 64 * MIB));
	EXPECT_EQ(0, set_max(a, HGROUP_MEM_UNLIMITED));
	EXPECT_EQ(0, set_max(b, HGROUP_MEM_UNLIMITED));
}

/*
 * Soft limits: whole pages, at least one, not above the hard limit (set
 * together: a set without one sets none); raising one is lifting,
 * bounded by the domain above (none there: none here); a failed call
 * changes nothing.
 */
TEST_F(mem, soft_limit_rules)
{
	struct hgroup_mem m;
	pid_t a = start_root_worker(), b;

	ASSERT_LT(0, a);
	b = start_sub_worker(0, 1);
	ASSERT_LT(0, b);
	EXPECT_EQ(0, set_limits(a, 64 * MIB, 32 * MIB + 100));
	ASSERT_EQ(0, get_mem(a, &m));
	EXPECT_EQ(64 * MIB, m.max);
	EXPECT_EQ(32 * MIB, m.soft);
	EXPECT_EQ(-EINVAL, set_limits(a, 64 * MIB, 4095));
	EXPECT_EQ(-EINVAL, set_limits(a, 64 * MIB, 64 * MIB + 4096));
	EXPECT_EQ(-EINVAL, set_limits(a, 64 * MIB, HGROUP_MEM_UNLIMITED));
	EXPECT_EQ(-EINVAL, set_limits(a, 64 * MIB, 1ULL << 63));
	ASSERT_EQ(0, get_mem(a, &m));
	EXPECT_EQ(64 * MIB, m.max);
	EXPECT_EQ(32 * MIB, m.soft);
	/* Below: up to the domain above's, even for root. */
	EXPECT_EQ(0, set_limits(b, HGROUP_MEM_UNLIMITED, 16 * MIB));
	EXPECT_EQ(-EACCES, set_limits(b, HGROUP_MEM_UNLIMITED, 48 * MIB));
	EXPECT_EQ(0, set_limits(b, 64 * MIB, 32 * MIB));
	ASSERT_EQ(0, get_mem(b, &m));
	EXPECT_EQ(32 * MIB, m.soft);
	/* Setting the hard limit alone drops the soft one: tightening. */
	EXPECT_EQ(0, set_max(b, 64 * MIB));
	ASSERT_EQ(0, get_mem(b, &m));
	EXPECT_EQ(0, m.soft);
	EXPECT_EQ(0, set_limits(a, HGROUP_MEM_UNLIMITED, 0));
	EXPECT_EQ(-EACCES, set_limits(b, 64 * MIB, 4096));
	/* A top domain's may be all; domain 0 reads none. */
	EXPECT_EQ(0, set_limits(a, HGROUP_MEM_UNLIMITED,
				HGROUP_MEM_UNLIMITED));
	ASSERT_EQ(0, get_mem(a, &m));
	EXPECT_EQ(HGROUP_MEM_UNLIMITED, m.soft);
	ASSERT_EQ(0, get_mem(getpgid(0), &m));
	EXPECT_EQ(0, m.soft);
}

/*
 * The soft limit of @pgid's domain set to @soft by a process of user
 * @uid that stays in domain 0: 0 or -errno.
 */
static long set_soft_from_outside(uid_t uid, pid_t pgid, __u64 soft)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (hg_become(uid))
			_exit(200);
		_exit(-set_limits(pgid, HGROUP_MEM_UNLIMITED, soft));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1000;
	return -WEXITSTATUS(status);
}

/*
 * An unprivileged member may lower its domain's soft limit, not raise
 * it (EACCES: its own group bounds the lift), nor raise what root set
 * back (EPERM).  Its owner cannot give it one from outside either, from
 * domain 0: protection there is an administrator's to give (EACCES).
 */
TEST_F(mem, soft_limit_member_lowers_only)
{
	struct hgroup_mem m;
	pid_t a;

	a = start_member_worker(1000);
	ASSERT_LT(0, a);
	EXPECT_EQ(-EACCES, cmd(0, 'o', 16));
	EXPECT_EQ(-EACCES, set_soft_from_outside(1000, a, 16 * MIB));
	EXPECT_EQ(-EACCES, set_soft_from_outside(1000, a,
						 HGROUP_MEM_UNLIMITED));
	ASSERT_EQ(0, get_mem(a, &m));
	EXPECT_EQ(0, m.soft);
	ASSERT_EQ(0, set_limits(a, HGROUP_MEM_UNLIMITED, 32 * MIB));
	EXPECT_EQ(0, cmd(0, 'o', 16));
	EXPECT_EQ(-EPERM, cmd(0, 'o', 32));
	ASSERT_EQ(0, get_mem(a, &m));
	EXPECT_EQ(16 * MIB, m.soft);
	EXPECT_EQ(0, set_limits(a, HGROUP_MEM_UNLIMITED, 32 * MIB));
}

/*
 * 30 MiB: a process touching 100 MiB is killed by the OOM killer inside
 * the domain, the peak never passes the limit, the events say so, and the
 * test, outside, touches 100 MiB unharmed.
 */
TEST_F(mem, oom_kill_inside_domain)
{
	struct hgroup_mem m;
	pid_t a = start_root_worker(), b;
	size_t off;
	char *p;

	ASSERT_LT(0, a);
	b = start_sub_worker(0, 1);
	ASSERT_LT(0, b);
	ASSERT_EQ(0, set_max(b, 30 * MIB));
	EXPECT_EQ(128 + SIGKILL, cmd(1, 'K', 100));
	ASSERT_EQ(0, get_mem(b, &m));
	EXPECT_GE(30 * MIB, m.peak);
	EXPECT_LE(1, m.local.max);
	EXPECT_LE(1, m.local.oom);
	EXPECT_EQ(1, m.local.oom_kill);
	EXPECT_EQ(1, m.subtree.oom_kill);
	ASSERT_EQ(0, get_mem(a, &m));
	EXPECT_EQ(0, m.local.oom_kill);
	EXPECT_EQ(1, m.subtree.oom_kill);
	EXPECT_EQ(0, m.local.max);
	/* The worker itself lives, and so does the test with 100 MiB. */
	EXPECT_TRUE(alive(b));
	p = mmap(NULL, 100 * MIB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	for (off = 0; off < 100 * MIB; off += 4096)
		p[off] = 1;
	munmap(p, 100 * MIB);
}

/*
 * No process of the domain may be killed (oom_score_adj -1000): at the
 * limit, mlock() reports the failure, EAGAIN, and nothing is killed.
 */
TEST_F(mem, no_victim_mlock_eagain)
{
	struct hgroup_mem m;
	pid_t a = start_root_worker();

	ASSERT_LT(0, a);
	ASSERT_EQ(0, cmd(0, 'A', -1000));
	ASSERT_EQ(0, set_max(a, 8 * MIB));
	EXPECT_EQ(-EAGAIN, cmd(0, 'L', 16));
	EXPECT_EQ(0, cmd(0, 'L', 2));
	ASSERT_EQ(0, get_mem(a, &m));
	EXPECT_GE(8 * MIB, m.peak);
	EXPECT_LE(1, m.local.oom);
	EXPECT_EQ(0, m.local.oom_kill);
}

/* A limit set below the usage reclaims and kills down to it. */
TEST_F(mem, lower_limit_kills_down_to_it)
{
	pid_t a = start_root_worker(), b;

	ASSERT_LT(0, a);
	b = start_sub_worker(0, 1);
	ASSERT_LT(0, b);
	ASSERT_EQ(0, cmd(1, 'T', 40));
	EXPECT_LE(40 * (long long)MIB, usage(b));
	/* Anonymous memory with no swap: the holder is killed. */
	EXPECT_EQ(0, set_max(b, 20 * MIB));
	EXPECT_EQ(128 + SIGKILL, cmd(0, 'R', b));
	workers[1].pid = 0;
	EXPECT_GE(20 * (long long)MIB, usage(a));
}

#define LOOP_IMG	"/tmp/hgmem.img"
#define LOOP_DIR	"/tmp/hgmem.mnt"

/* An ext2 file system on a loop device over a file in /tmp. */
static int loop_fs(void)
{
	const char *img = LOOP_IMG, *dir = LOOP_DIR, *dev = loop_dev;
	size_t len = sizeof(loop_dev);
	int ctl, fd, n;
	char cmdline[256];

	fd = open(img, O_CREAT | O_RDWR | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, 96 * MIB))
		return -1;
	ctl = open("/dev/loop-control", O_RDWR);
	n = ctl < 0 ? -1 : ioctl(ctl, LOOP_CTL_GET_FREE);
	if (ctl >= 0)
		close(ctl);
	if (n < 0)
		return -1;
	snprintf(loop_dev, len, "/dev/loop%d", n);
	ctl = open(dev, O_RDWR);
	if (ctl < 0 || ioctl(ctl, LOOP_SET_FD, fd))
		return -1;
	close(fd);
	close(ctl);
	snprintf(cmdline, sizeof(cmdline), "mke2fs -q -F %s >/dev/null 2>&1",
		 dev);
	if (system(cmdline))
		return -1;
	mkdir(dir, 0755);
	return mount(dev, dir, "ext2", 0, NULL);
}

static void loop_fs_done(void)
{
	int fd;

	if (!loop_dev[0])
		return;
	umount(LOOP_DIR);
	fd = open(loop_dev, O_RDWR);
	if (fd >= 0) {
		ioctl(fd, LOOP_CLR_FD, 0);
		close(fd);
	}
	unlink(LOOP_IMG);
	loop_dev[0] = 0;
}

/*
 * 16 MiB: writing a 64 MiB file succeeds: the dirty page cache, which
 * the limit's reclaim does not write itself, is written back by the
 * flushers it wakes, and then reclaimed; no OOM kill.
 */
TEST_F_TIMEOUT(mem, file_write_reclaims, 300)
{
	struct hgroup_mem m;
	pid_t a;

	if (access("/dev/loop-control", F_OK))
		SKIP(return, "no loop devices");
	ASSERT_EQ(0, loop_fs());
	snprintf(file_path, sizeof(file_path), "%s/wfile", LOOP_DIR);
	a = start_root_worker();
	ASSERT_LT(0, a);
	ASSERT_EQ(0, set_max(a, 16 * MIB));
	EXPECT_EQ(0, cmd(0, 'Q', 64));
	ASSERT_EQ(0, get_mem(a, &m));
	EXPECT_GE(16 * MIB, m.peak);
	EXPECT_EQ(0, m.local.oom_kill);
	TH_LOG("peak %llu KiB, %llu limit hits, %llu reclaim passes",
	       (unsigned long long)m.peak >> 10,
	       (unsigned long long)m.local.max,
	       (unsigned long long)m.local.reclaim);
	EXPECT_TRUE(alive(a));
}

/*
 * 16 MiB: reading a 64 MiB file, through read() and through a mapping,
 * succeeds by reclaiming the domain's own page cache, with no OOM kill;
 * the peak stays under the limit.
 */
TEST_F_TIMEOUT(mem, file_read_reclaims, 300)
{
	struct hgroup_mem m;
	char buf[1 << 16];
	size_t off;
	pid_t a;
	int fd;

	if (access("/dev/loop-control", F_OK))
		SKIP(return, "no loop devices");
	ASSERT_EQ(0, loop_fs());
	/* Before the worker starts, which reads it. */
	snprintf(file_path, sizeof(file_path), "%s/file", LOOP_DIR);
	/* Written by the test, in domain 0: charged to nobody. */
	fd = open(file_path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	ASSERT_LE(0, fd);
	memset(buf, 3, sizeof(buf));
	for (off = 0; off < 64 * MIB; off += sizeof(buf))
		ASSERT_EQ(sizeof(buf), write(fd, buf, sizeof(buf)));
	close(fd);
	sync();
	hg_write_file("/proc/sys/vm/drop_caches", "3");
	a = start_root_worker();
	ASSERT_LT(0, a);
	ASSERT_EQ(0, set_max(a, 16 * MIB));
	EXPECT_EQ(0, cmd(0, 'r', 0));
	hg_write_file("/proc/sys/vm/drop_caches", "3");
	EXPECT_EQ(0, cmd(0, 'M', 0));
	ASSERT_EQ(0, get_mem(a, &m));
	EXPECT_GE(16 * MIB, m.peak);
	EXPECT_LE(1, m.local.max);
	EXPECT_LE(1, m.local.reclaim);
	EXPECT_EQ(0, m.local.oom_kill);
	TH_LOG("peak %llu KiB, %llu limit hits, %llu reclaim passes",
	       (unsigned long long)m.peak >> 10,
	       (unsigned long long)m.local.max,
	       (unsigned long long)m.local.reclaim);
	EXPECT_TRUE(alive(a));
}

#define ZRAM	"/dev/zram0"
static bool swap_is_on;

/*
 * Swap on a compressed RAM disk of @mib MiB, for one test: the others
 * count on having no swap.  The swap header is written here (no mkswap
 * in the guest).
 */
static int swap_on(unsigned long mib)
{
	long page = getpagesize();
	char size[32], *hdr = calloc(1, page);
	__u32 *info = (__u32 *)(hdr + 1024);
	int fd, ret = -1;

	snprintf(size, sizeof(size), "%luM", mib);
	if (!hdr || hg_write_file("/sys/block/zram0/disksize", size))
		goto out;
	info[0] = 1;				/* version */
	info[1] = mib * MIB / page - 1;		/* last page */
	memcpy(hdr + page - 10, "SWAPSPACE2", 10);
	fd = open(ZRAM, O_WRONLY);
	if (fd < 0)
		goto out;
	ret = pwrite(fd, hdr, page, 0) == page ? 0 : -1;
	close(fd);
	if (!ret)
		ret = swapon(ZRAM, 0);
	swap_is_on = !ret;
out:
	free(hdr);
	return ret;
}

static void swap_off(void)
{
	if (!swap_is_on)
		return;
	swapoff(ZRAM);
	hg_write_file("/sys/block/zram0/reset", "1");
	swap_is_on = false;
}

/* Used swap in KiB, from /proc/meminfo, or -1. */
static long swap_used_kib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	long total = -1, free = -1, v;
	char key[64];

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld kB", key, &v) == 2) {
		if (!strcmp(key, "SwapTotal:"))
			total = v;
		else if (!strcmp(key, "SwapFree:"))
			free = v;
	}
	fclose(f);
	return total < 0 || free < 0 ? -1 : total - free;
}

/*
 * With swap, 48 MiB of anonymous memory fit in a 30 MiB limit: the
 * domain's own pages are swapped out, and read back intact (charged
 * again to the domain when they come in), with no OOM kill.
 */
TEST_F(mem, swap_makes_room_at_limit)
{
	struct hgroup_mem m;
	pid_t a;

	if (access("/sys/block/zram0/disksize", F_OK))
		SKIP(return, "no zram device");
	ASSERT_EQ(0, swap_on(256));
	a = start_root_worker();
	ASSERT_LT(0, a);
	ASSERT_EQ(0, set_max(a, 30 * MIB));
	EXPECT_EQ(0, cmd(0, 'V', 48));
	EXPECT_LE(18 * 1024, swap_used_kib());
	ASSERT_EQ(0, get_mem(a, &m));
	EXPECT_GE(30 * MIB, m.peak);
	EXPECT_GE(30 * (long long)MIB, usage(a));
	EXPECT_LE(1, m.local.reclaim);
	EXPECT_EQ(0, m.local.oom);
	EXPECT_EQ(0, m.local.oom_kill);
	EXPECT_TRUE(alive(a));
	TH_LOG("%ld KiB swapped, %llu reclaim passes", swap_used_kib(),
	       (unsigned long long)m.local.reclaim);
}

/* MemAvailable of /proc/meminfo in bytes, or -1. */
static long long mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	long long ret = -1, v;
	char key[64];

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld kB", key, &v) == 2)
		if (!strcmp(key, "MemAvailable:"))
			ret = v * 1024;
	fclose(f);
	return ret;
}

/*
 * Soft limits under global pressure, with swap.  B, the oldest, within
 * its soft limit, keeps its memory; A, far over its own, gives memory
 * up; the test, in domain 0, asks for more than is left.  Without soft
 * limits reclaim would take B's pages first, as the oldest.
 */
TEST_F_TIMEOUT(mem, soft_limit_under_pressure, 600)
{
	long long avail = mem_available(), a0, a1, b0, b1;
	unsigned long am, bm, pm;
	struct hgroup_mem m;
	size_t off;
	pid_t a, b;
	char *p;

	if (access("/sys/block/zram0/disksize", F_OK))
		SKIP(return, "no zram device");
	ASSERT_LT(64 * (long long)MIB, avail);
	bm = avail / MIB / 4;
	am = avail / MIB * 3 / 8;
	pm = avail / MIB * 5 / 8;
	ASSERT_EQ(0, swap_on(avail / MIB * 2));
	workers[1].pid = worker_fork(1);
	b = workers[1].pid;
	ASSERT_LT(0, b);
	ASSERT_LT(0, cmd(1, 'D', 0));
	ASSERT_EQ(0, cmd(1, 'Y', 0));
	ASSERT_EQ(0, set_limits(b, HGROUP_MEM_UNLIMITED, (bm + 16) * MIB));
	ASSERT_EQ(0, cmd(1, 'T', bm));
	a = start_root_worker();
	ASSERT_LT(0, a);
	ASSERT_EQ(0, set_limits(a, HGROUP_MEM_UNLIMITED, 16 * MIB));
	ASSERT_EQ(0, cmd(0, 'T', am));
	b0 = usage(b);
	a0 = usage(a);
	p = mmap(NULL, pm * MIB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	for (off = 0; off < pm * MIB; off += getpagesize())
		p[off] = 1;
	b1 = usage(b);
	a1 = usage(a);
	munmap(p, pm * MIB);
	TH_LOG("available %lld MiB; B %lld -> %lld MiB, A %lld -> %lld MiB, %ld MiB swapped",
	       avail / MIB, b0 / MIB, b1 / MIB, a0 / MIB, a1 / MIB,
	       swap_used_kib() / 1024);
	EXPECT_LE(b0 - b0 / 20, b1);
	EXPECT_LE(a1 + (long long)am * MIB / 8, a0);
	EXPECT_TRUE(alive(a));
	EXPECT_TRUE(alive(b));
	ASSERT_EQ(0, get_mem(a, &m));
	EXPECT_EQ(0, m.local.oom_kill);
	ASSERT_EQ(0, get_mem(b, &m));
	EXPECT_EQ(0, m.local.oom_kill);
}

/*
 * Sub-domains do not add up to more protection than the domain above
 * them has: C's soft limit is half of what C1 and C2 below it hold, each
 * within a soft limit of its own as large as C's.  Under pressure C
 * loses memory; were the sub-domains' limits enough, it would keep all.
 */
TEST_F_TIMEOUT(mem, soft_limit_subdomains_do_not_add_up, 600)
{
	long long avail = mem_available(), c0, c1;
	unsigned long cm, pm;
	size_t off;
	pid_t c;
	char *p;

	if (access("/sys/block/zram0/disksize", F_OK))
		SKIP(return, "no zram device");
	ASSERT_LT(64 * (long long)MIB, avail);
	cm = avail / MIB / 2;
	pm = avail / MIB * 3 / 4;
	ASSERT_EQ(0, swap_on(avail / MIB * 2));
	c = start_root_worker();
	ASSERT_LT(0, c);
	ASSERT_EQ(0, set_limits(c, HGROUP_MEM_UNLIMITED, cm / 2 * MIB));
	ASSERT_LT(0, start_sub_worker(0, 1));
	/* The second in the same PID namespace: one unshare() a process. */
	workers[2].pid = cmd(0, 'F', 2);
	ASSERT_LT(0, workers[2].pid);
	ASSERT_LT(0, cmd(2, 'D', 0));
	ASSERT_EQ(0, cmd(2, 'Y', 0));
	ASSERT_EQ(0, set_limits(workers[1].pid, HGROUP_MEM_UNLIMITED,
				cm / 2 * MIB));
	ASSERT_EQ(0, set_limits(workers[2].pid, HGROUP_MEM_UNLIMITED,
				cm / 2 * MIB));
	ASSERT_EQ(0, cmd(1, 'T', cm / 2 - 8));
	ASSERT_EQ(0, cmd(2, 'T', cm / 2 - 8));
	c0 = usage(c);
	p = mmap(NULL, pm * MIB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	for (off = 0; off < pm * MIB; off += getpagesize())
		p[off] = 1;
	c1 = usage(c);
	munmap(p, pm * MIB);
	TH_LOG("available %lld MiB; C (soft %lu MiB) %lld -> %lld MiB",
	       avail / MIB, cm / 2, c0 / MIB, c1 / MIB);
	EXPECT_LE(c1 + (long long)cm * MIB / 10, c0);
	EXPECT_TRUE(alive(workers[1].pid));
	EXPECT_TRUE(alive(workers[2].pid));
}

/*
 * 10 nested domains, each in a PID namespace of its own, with 100
 * processes each that touch 256 KiB and exit together: the outermost
 * domain, above them all, is back exactly where it was, and no object
 * is left.
 */
TEST_F_TIMEOUT(mem, nested_namespaces_exit_together, 600)
{
	static char go[NEST_LEVELS * NEST_PROCS];
	long long a0, a1;
	pid_t a = start_root_worker(), top;
	size_t n = 0;
	ssize_t r;
	char buf[256];

	ASSERT_LT(0, a);
	a0 = usage(a);
	top = cmd(0, 'C', 0);
	ASSERT_LT(0, top);
	while (n < sizeof(go)) {
		r = read(nest_pipes[0][0], buf, sizeof(buf));
		ASSERT_LT(0, r);
		n += r;
	}
	a1 = usage(a);
	EXPECT_LE(a0 + (long long)sizeof(go) * NEST_KIB * 1024, a1);
	ASSERT_EQ(sizeof(go), write(nest_pipes[1][1], go, sizeof(go)));
	ASSERT_EQ(0, cmd(0, 'R', top));
	/*
	 * Back where it was, but for the pages worker 0 itself copied on
	 * write while the chain shared them (its own, from before its
	 * domain); the teardown's object count shows nothing else is left.
	 */
	EXPECT_LE(a0, usage(a));
	EXPECT_GE(a0 + 4 * 4096, usage(a));
	TH_LOG("%zu processes, %lld KiB charged at most", n, (a1 - a0) >> 10);
}

TEST_HARNESS_MAIN
