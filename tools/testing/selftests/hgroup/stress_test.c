// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups selftests: a randomized stress of the four system calls.
 *
 * Eight worker processes of three threads each, four of them root and four
 * uid 65534 (two of each with no_new_privs), call set_domainid(),
 * get_domainid(), hgroup_set_attr() and hgroup_get_attr() with random
 * arguments, valid and not: unknown attributes, flags and field bits,
 * sizes below, above and far above the structures, bad pointers (NULL,
 * (void *)1, inaccessible, read-only, straddling, beyond user space),
 * process groups of their own, of each other and that do not exist,
 * empty and out-of-range CPU and node sets, random device rules, freeze
 * flags and task limits.  In between they fork children that exit,
 * call setsid(), setpgid() into random groups and set_domainid(), start
 * threads, unshare() a user and PID namespace in a child, and execve()
 * exec_helper.  Every result must be one the UAPI header documents for
 * the call, and for what the arguments make certain (an unknown
 * attribute is EINVAL, a size over a page E2BIG, ...) the one it names.
 *
 * Confinement: the workers run in a PID namespace of their own, so that
 * no process group outside it can even be named, inside a domain whose
 * creator is outside the namespace, so that they are in domain 0 of
 * their namespace and may start domains.  Every 100 ms the test thaws
 * that domain and lifts its task limit; every 500 ms it also lifts its
 * CPU and node sets and device list, and all of that in every domain
 * below it, so that nothing a worker sets stops the others for good.  At
 * the end it thaws everything, checks that no group is left with a freeze
 * flag, kills and reaps everything, and checks that no worker died from a
 * signal and that the object counts of debugfs hgroup/objects are back
 * where they were.
 *
 * HG_STRESS_SEED sets the seed (printed at the start), HG_STRESS_OPS the
 * operations per worker, HG_STRESS_SECS the time budget after which the
 * workers stop early (keep it well below the 870 s timeout).  The choices
 * each thread makes follow from the seed; pids and interleaving do not.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>

#include "../kselftest_harness.h"
#include "hgroup_util.h"

#define NR_WORKERS	8
#define NR_UNPRIV	4	/* the last four run as UNPRIV_UID */
#define NR_THREADS	3	/* per worker, its main thread included */
#define UNPRIV_UID	65534
#define DEFAULT_OPS	5000	/* per worker: HG_STRESS_OPS */
#define DEFAULT_SECS	600	/* time budget: HG_STRESS_SECS */
#define GRACE_MS	60000	/* for the workers to stop after it */
#define STALL_MS	120000	/* no operation finishing: a hang */
#define TICK_MS		100	/* the test thaws the workers' domain */
#define SCAN_TICKS	5	/* and the domains below it */
#define POOL		256	/* pids and pgids seen: random targets */
#define MAX_FAILS	32
#define MSG_LEN		480
#define NR_ERRNO	134
#define BUF		8192	/* structure, mask and rule buffers */
#define NR_RULES	300
#define GUARD		64
#define MUST_SUCCEED	(-1)

enum call {
	C_SET_ATTR, C_GET_ATTR, C_SET_DOMAINID, C_GET_DOMAINID, C_SETSID,
	C_SETPGID, C_FORK, C_UNSHARE, C_EXEC, C_THREAD, NR_CALLS
};

static const char *const call_names[NR_CALLS] = {
	"hgroup_set_attr", "hgroup_get_attr", "set_domainid", "get_domainid",
	"setsid", "setpgid", "fork", "unshare", "execve", "pthread_create",
};

enum op {
	OP_SET_ATTR, OP_GET_ATTR, OP_GET_DOMAINID, OP_SET_DOMAINID, OP_SETSID,
	OP_SETPGID, OP_FORK, OP_EXEC, OP_USERNS, OP_THREAD, OP_NNP, OP_YIELD,
	NR_OPS
};

static const struct {
	const char *name;
	unsigned int weight;	/* in percent */
} ops[NR_OPS] = {
	[OP_SET_ATTR] = { "set_attr", 30 },
	[OP_GET_ATTR] = { "get_attr", 18 },
	[OP_GET_DOMAINID] = { "get_domainid", 6 },
	[OP_SET_DOMAINID] = { "set_domainid", 3 },
	[OP_SETSID] = { "setsid", 3 },
	[OP_SETPGID] = { "setpgid", 6 },
	[OP_FORK] = { "fork", 16 },
	[OP_EXEC] = { "exec", 4 },
	[OP_USERNS] = { "userns", 3 },
	[OP_THREAD] = { "thread", 5 },
	[OP_NNP] = { "no_new_privs", 1 },
	[OP_YIELD] = { "yield", 5 },
};

/*
 * The errors each call may return, whatever the arguments.  The four
 * hgroup calls: include/uapi/linux/hgroup.h (for the attribute calls the
 * list is narrowed per call in attr_allowed()); the others: their manual
 * pages, with ENOMEM for the state setsid() and setpgid() allocate.
 */
static const int set_domainid_errs[] = { EPERM, EBUSY, ENOMEM, 0 };
static const int get_domainid_errs[] = { ESRCH, 0 };
static const int setsid_errs[] = { EPERM, ENOMEM, 0 };
static const int setpgid_errs[] = { EACCES, EINVAL, EPERM, ESRCH, ENOMEM, 0 };
static const int fork_errs[] = { EAGAIN, ENOMEM, 0 };
static const int unshare_errs[] = { EINVAL, ENOMEM, ENOSPC, EPERM, EUSERS, 0 };
static const int thread_errs[] = { EAGAIN, ENOMEM, 0 };

struct thread_state {
	atomic_long done;		/* operations finished */
	atomic_int op;			/* the one under way, plus one */
};

/* Shared by the test and everything it starts. */
struct stress {
	__u64 seed;
	long ops;			/* per thread */
	atomic_int ready;		/* the workers' domain exists */
	atomic_int stop;		/* the time budget is spent */
	atomic_int done;		/* every worker has been reaped */
	atomic_int nfails;
	atomic_int wstatus[NR_WORKERS];	/* wait status, -1 until reaped */
	atomic_uint pool_next;
	atomic_int pool[POOL];
	struct thread_state thr[NR_WORKERS][NR_THREADS];
	atomic_long count[NR_CALLS][NR_ERRNO];
	char fails[MAX_FAILS][MSG_LEN];
};

/* Per thread: buffers for the attribute structures. */
struct bufs {
	char *s;			/* the structure, BUF bytes */
	unsigned long *mask;		/* BUF bytes */
	struct hgroup_dev_rule *rules;	/* NR_RULES of them */
	char *ro;			/* a read-only page of zeros */
	char *none;			/* an inaccessible page */
};

struct ctx {
	__u64 rng;
	int worker, thread;		/* worker -1: the test itself */
	int depth;			/* 0: a worker's thread; 1: a child */
	int nested;			/* in a PID namespace of its own */
	long op;
	struct bufs *b;
};

/* Set before the first fork, inherited by everything. */
static struct stress *st;
static long page_size;
static unsigned long cpus_possible, nodes_possible;
static int possible_wide;		/* a CPU or node numbered 64 or more */
static char helper[PATH_MAX];
static int have_helper;

static __u64 mix(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static __u64 rnd(struct ctx *c)
{
	return mix(&c->rng);
}

static unsigned int below(struct ctx *c, unsigned int n)
{
	return rnd(c) % n;
}

static int chance(struct ctx *c, unsigned int pct)
{
	return below(c, 100) < pct;
}

static const char *ename(int e)
{
	static const struct {
		int e;
		const char *name;
	} names[] = {
		{ 0, "ok" }, { EPERM, "EPERM" }, { ESRCH, "ESRCH" },
		{ EINTR, "EINTR" }, { E2BIG, "E2BIG" }, { EAGAIN, "EAGAIN" },
		{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" },
		{ EFAULT, "EFAULT" }, { EBUSY, "EBUSY" }, { EINVAL, "EINVAL" },
		{ ENOSPC, "ENOSPC" }, { EUSERS, "EUSERS" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { ECHILD, "ECHILD" },
		{ ENOENT, "ENOENT" }, { EEXIST, "EEXIST" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].e == e)
			return names[i].name;
	return "E?";
}

static __printf(2, 3) void fail(const struct ctx *c, const char *fmt, ...)
{
	char msg[MSG_LEN];
	va_list ap;
	int n, i;

	if (c->worker < 0)
		n = snprintf(msg, sizeof(msg), "test: ");
	else
		n = snprintf(msg, sizeof(msg),
			     "worker %d thread %d op %ld%s%s (pid %d): ",
			     c->worker, c->thread, c->op,
			     c->depth ? " child" : "",
			     c->nested ? " in a new PID namespace" : "",
			     getpid());
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	i = atomic_fetch_add(&st->nfails, 1);
	if (i < MAX_FAILS)
		memcpy(st->fails[i], msg, sizeof(msg));
}

static void count(enum call k, long r, int e)
{
	int i = r == -1 ? e : 0;

	if (i < 0 || i >= NR_ERRNO)
		i = NR_ERRNO - 1;
	atomic_fetch_add_explicit(&st->count[k][i], 1, memory_order_relaxed);
}

static int in_list(int e, const int *list)
{
	for (; *list; list++)
		if (*list == e)
			return 1;
	return 0;
}

/*
 * NULL if @r and @e are an outcome @allowed lists, and the one @must
 * names if it is not 0 (MUST_SUCCEED: success); else why not.
 */
static const char *judge(long r, int e, const int *allowed, int must)
{
	if (r < -1)
		return "returned a negative value other than -1";
	if (r != -1)
		return must > 0 ? "succeeded, but the arguments are invalid" :
				  NULL;
	if (must == MUST_SUCCEED)
		return "failed, where nothing documented can fail";
	if (must > 0)
		return e == must ? NULL : "not the error the arguments call for";
	if (!in_list(e, allowed))
		return "an error not documented for the call";
	return NULL;
}

/* Count and check the result of a call; @fmt describes the call. */
static __printf(7, 8) long check(const struct ctx *c, enum call k, long r,
				 int e, const int *allowed, int must,
				 const char *fmt, ...)
{
	const char *why;
	char call[160];
	va_list ap;

	count(k, r, e);
	why = judge(r, e, allowed, must);
	if (!why)
		return r;
	va_start(ap, fmt);
	vsnprintf(call, sizeof(call), fmt, ap);
	va_end(ap);
	if (r == -1)
		fail(c, "%s = -1, errno %s (%d): %s", call, ename(e), e, why);
	else
		fail(c, "%s = %ld: %s", call, r, why);
	return r;
}

static void pool_add(const struct ctx *c, pid_t pid)
{
	unsigned int i;

	if (c->nested || pid <= 0)
		return;
	i = atomic_fetch_add(&st->pool_next, 1) % POOL;
	st->pool[i] = pid;
}

static pid_t pool_pick(struct ctx *c)
{
	return st->pool[below(c, POOL)];
}

/* A process group to name: mostly ours and our neighbours'. */
static pid_t pick_pgid(struct ctx *c)
{
	static const pid_t odd[] = { INT_MAX, INT_MIN, -1, 4194304, 32768 };
	unsigned int r = below(c, 100);

	if (r < 20)
		return 0;
	if (r < 65)
		return pool_pick(c);
	if (r < 72)
		return getpgrp();
	if (r < 76)
		return 1;		/* the namespace's init */
	if (r < 90)
		return 1 + below(c, 4096);
	if (r < 95)
		return -1 - (pid_t)below(c, 100);
	return odd[below(c, ARRAY_SIZE(odd))];
}

/* A pointer that is not good to use for a structure of 8 bytes or more. */
static void *bad_ptr(struct ctx *c)
{
	switch (below(c, 8)) {
	case 0:
		return NULL;
	case 1:
		return (void *)1;
	case 2:
		return (void *)4096;	/* never mapped here */
	case 3:
		return c->b->none;
	case 4:
		return c->b->none - 4;	/* straddles into it */
	case 5:
		return (void *)(1UL << 47);	/* beyond user space */
	case 6:
		return (void *)~0xfffUL;
	default:
		return c->b->ro;	/* readable, not writable */
	}
}

/* A pointer for inside a structure: mostly @good. */
static __u64 inner_ptr(struct ctx *c, void *good, int *bad)
{
	if (chance(c, 90))
		return (uintptr_t)good;
	*bad = 1;
	if (chance(c, 15))
		return 0xdeadbeefdeadbeefULL;
	return (uintptr_t)bad_ptr(c);
}

/* ---------------------------------------------------------------------- */
/* hgroup_set_attr() and hgroup_get_attr()                                 */
/* ---------------------------------------------------------------------- */

struct acall {
	int get;
	pid_t pgid;
	unsigned int attr, flags;
	void *uattr;
	size_t size;
	size_t ksize;		/* the structure's size, 0: unknown @attr */
	int must;		/* the errno the arguments call for */
	int must_field;		/* EINVAL for a bad field, if it can be read */
	int bad_field;
	int valid;		/* @uattr is the structure buffer */
	int may_fault;		/* a pointer given may be bad */
	int inner_bad;		/* the pointer in the structure may be */
	int tail;		/* non-zero bytes beyond the structure */
	int huge;		/* size over a page */
	unsigned int cap;	/* mask_size or the rule buffer's capacity */
	unsigned long bits;	/* the first word of the set given */
	__u64 copy[2];		/* the structure as built */
};

static int per_domain(unsigned int attr)
{
	return attr == HGROUP_ATTR_TASKS || attr == HGROUP_ATTR_SCHED;
}

static size_t attr_size(unsigned int attr, int ver0)
{
	switch (attr) {
	case HGROUP_ATTR_CPUS:
	case HGROUP_ATTR_MEMS:
		return ver0 ? HGROUP_MASK_SIZE_VER0 :
			      sizeof(struct hgroup_mask);
	case HGROUP_ATTR_DEVICES:
		return ver0 ? HGROUP_DEVICES_SIZE_VER0 :
			      sizeof(struct hgroup_devices);
	case HGROUP_ATTR_FREEZE:
		return ver0 ? HGROUP_FREEZE_SIZE_VER0 :
			      sizeof(struct hgroup_freeze);
	case HGROUP_ATTR_TASKS:
		return ver0 ? HGROUP_TASKS_SIZE_VER0 :
			      sizeof(struct hgroup_tasks);
	case HGROUP_ATTR_SCHED:
		return ver0 ? HGROUP_SCHED_SIZE_VER0 :
			      sizeof(struct hgroup_sched);
	case HGROUP_ATTR_CPU:
		return ver0 ? HGROUP_CPU_SIZE_VER0 : sizeof(struct hgroup_cpu);
	case HGROUP_ATTR_REDIRECT:
		return ver0 ? HGROUP_REDIRECT_SIZE_VER0 :
			      sizeof(struct hgroup_redirect);
	}
	return 0;
}

static unsigned long fill_up_to(unsigned long possible)
{
	int top = possible ? 63 - __builtin_clzl(possible) : 0;

	return top == 63 ? ~0UL : (2UL << top) - 1;
}

static void gen_mask(struct ctx *c, struct acall *a)
{
	static const unsigned int odd_sizes[] = { 1, 4, 7, 12, 20 };
	struct hgroup_mask *m = (void *)c->b->s;
	unsigned long possible = a->attr == HGROUP_ATTR_CPUS ?
				 cpus_possible : nodes_possible;
	unsigned long beyond = ~fill_up_to(possible), bits;
	unsigned long *w = c->b->mask;
	unsigned int r = below(c, 100);

	memset(w, 0, BUF);
	if (r < 70)
		m->mask_size = 8;
	else if (r < 82)
		m->mask_size = 8 * (2 + below(c, 16));
	else if (r < 86)
		m->mask_size = BUF;
	else if (r < 89)
		m->mask_size = chance(c, 50) ? 1U << 20 : 0xfffffff8U;
	else if (r < 94)
		m->mask_size = 0;
	else
		m->mask_size = odd_sizes[below(c, ARRAY_SIZE(odd_sizes))];
	if (!m->mask_size || m->mask_size % sizeof(long))
		a->bad_field = 1;
	if (chance(c, 4)) {
		m->__reserved = 1 + below(c, 0xffff);
		a->bad_field = 1;
	}
	m->mask = inner_ptr(c, w, &a->inner_bad);
	a->cap = m->mask_size;
	if (a->get) {
		/* Cleared, with a guard beyond mask_size. */
		if (a->cap <= BUF - GUARD)
			memset((char *)w + a->cap, 0xa5, GUARD);
		return;
	}
	r = below(c, 100);
	if (r < 10)
		bits = 0;
	else if (r < 50)
		bits = (rnd(c) & possible) ?: possible & -possible;
	else if (r < 70)
		bits = possible;
	else if (r < 80)
		bits = rnd(c);
	else if (r < 90)
		bits = rnd(c) & beyond;
	else
		bits = possible | (rnd(c) & beyond);
	w[0] = bits;
	a->bits = bits;
	/* A bit beyond every possible CPU or node, in a later word. */
	if (m->mask_size >= 16 && chance(c, 10))
		w[1 + below(c, (m->mask_size < BUF ? m->mask_size : BUF) /
			       sizeof(long) - 1)] |= 1UL << below(c, 64);
	/* Empty once the bits beyond the possible ones are ignored. */
	if (!(bits & possible) && !possible_wide)
		a->bad_field = 1;
}

static void gen_rule(struct ctx *c, struct hgroup_dev_rule *r, int *bad)
{
	static const __u32 nums[] = { HGROUP_DEV_ANY, 0, 1, 3, 4, 5, 136, 254 };
	static const __u32 bad_types[] = { 0, 4, 8, 0x80000000U };
	static const __u32 bad_access[] = { 0, 8, 0x10, ~0U };

	if (chance(c, 95)) {
		r->type = 1 + below(c, 3);
	} else {
		r->type = bad_types[below(c, ARRAY_SIZE(bad_types))];
		*bad = 1;
	}
	if (chance(c, 95)) {
		r->access = 1 + below(c, 7);
	} else {
		r->access = bad_access[below(c, ARRAY_SIZE(bad_access))];
		*bad = 1;
	}
	r->major = chance(c, 90) ? nums[below(c, ARRAY_SIZE(nums))] : rnd(c);
	r->minor = chance(c, 90) ? nums[below(c, ARRAY_SIZE(nums))] : rnd(c);
}

static void gen_devices(struct ctx *c, struct acall *a)
{
	static const __u32 bad_policies[] = { 2, 3, 0x80000000U, ~0U };
	static const __u32 bad_counts[] = { 257, 1000, 0x10000, ~0U };
	struct hgroup_devices *d = (void *)c->b->s;
	struct hgroup_dev_rule *rules = c->b->rules;
	unsigned int r = below(c, 100), i, n;

	if (chance(c, 93)) {
		d->policy = below(c, 2);
	} else {
		d->policy = bad_policies[below(c, ARRAY_SIZE(bad_policies))];
		/* Reading ignores the policy given. */
		a->bad_field |= !a->get;
	}
	if (r < 30) {
		n = 0;
	} else if (r < 80) {
		n = 1 + below(c, 6);
	} else if (r < 88) {
		n = 7 + below(c, 250);
	} else if (r < 93) {
		n = HGROUP_DEV_MAX_RULES;
	} else {
		n = bad_counts[below(c, ARRAY_SIZE(bad_counts))];
		/* For reading it is the capacity, any will do. */
		a->bad_field |= !a->get;
	}
	d->nr_rules = n;
	d->rules = inner_ptr(c, rules, &a->inner_bad);
	a->cap = n;
	if (a->get) {
		if (n <= NR_RULES - 4)
			memset(&rules[n], 0xa5, 4 * sizeof(*rules));
		return;
	}
	for (i = 0; i < n && i < 8; i++)
		gen_rule(c, &rules[i], &a->bad_field);
	for (; i < n && i < NR_RULES; i++)
		rules[i] = rules[i % 8];
}

static void gen_freeze(struct ctx *c, struct acall *a)
{
	static const __u32 flags[] = {
		0, HGROUP_FREEZE_ALL, HGROUP_FREEZE_NEW_PGRP,
		HGROUP_FREEZE_ALL | HGROUP_FREEZE_NEW_PGRP,
	};
	struct hgroup_freeze *f = (void *)c->b->s;
	unsigned int r = below(c, 100);

	if (r < 50)
		f->flags = 0;
	else if (r < 62)
		f->flags = flags[1];
	else if (r < 80)
		f->flags = flags[2];
	else if (r < 90)
		f->flags = flags[3];
	else if (r < 95)
		f->flags = flags[below(c, 4)] | 1U << (2 + below(c, 30));
	else
		f->flags = 0;
	if (f->flags & ~flags[3])
		a->bad_field |= !a->get;
	if (chance(c, 4)) {
		f->state = 1 + below(c, 0xffff);
		a->bad_field |= !a->get;
	}
	/* Reading takes no flags and no state. */
	if (a->get && chance(c, 90))
		memset(f, 0, sizeof(*f));
}

static void gen_tasks(struct ctx *c, struct acall *a)
{
	struct hgroup_tasks *t = (void *)c->b->s;
	unsigned int r = below(c, 100);

	if (r < 35)
		t->max = HGROUP_TASKS_UNLIMITED;
	else if (r < 75)
		t->max = 100 + below(c, 100000);
	else if (r < 85)
		t->max = 16 + below(c, 48);
	else if (r < 95)
		t->max = rnd(c);
	else
		t->max = below(c, 16);
	if (chance(c, 4)) {
		t->nr_tasks = 1 + below(c, 0xffff);
		a->bad_field |= !a->get;
	}
}

static void gen_sched(struct ctx *c, struct acall *a)
{
	struct hgroup_sched *sc = (void *)c->b->s;

	sc->flags = below(c, 4);
	if (chance(c, 5)) {
		sc->flags |= 1U << (2 + below(c, 30));
		a->bad_field |= !a->get;
	}
	if (chance(c, 4)) {
		sc->__reserved = 1 + below(c, 0xffff);
		a->bad_field = 1;
	}
}

/*
 * Redirections to random groups (only the root workers may, and only in
 * their own domain), or a bad group number or state.
 */
static void gen_redirect(struct ctx *c, struct acall *a)
{
	struct hgroup_redirect *rd = (void *)c->b->s;

	rd->pgid = chance(c, 20) ? 0 : pick_pgid(c);
	if (chance(c, 4)) {
		rd->pgid = -1 - (int)below(c, 1000);
		a->bad_field |= !a->get;
	}
	if (chance(c, 4)) {
		rd->state = 1 + below(c, 0xffff);
		a->bad_field |= !a->get;
	}
}

/*
 * CPU limits: valid ones never below two CPUs' worth (the guest's) nor a
 * weight of 50, so that the workers' own domains are not slowed down;
 * invalid ones of every kind.
 */
static void gen_cpu(struct ctx *c, struct acall *a)
{
	struct hgroup_cpu *cpu = (void *)c->b->s;
	unsigned int r = below(c, 100);

	cpu->weight_max = 50 + below(c, 9951);
	cpu->period_us = 1000 + below(c, 999001);
	cpu->quota_us = chance(c, 50) ? HGROUP_CPU_UNLIMITED :
		2 * cpu->period_us + below(c, 4 * cpu->period_us);
	if (r < 3)
		cpu->weight_max = chance(c, 50) ? 0 : 10001 + below(c, 1000);
	else if (r < 6)
		cpu->period_us = chance(c, 50) ? below(c, 1000) :
						 1000001 + below(c, 1000);
	else if (r < 9)
		cpu->quota_us = below(c, 1000);
	else if (r < 12)
		cpu->quota_us = (1ULL << 40) + 1 + below(c, 1000);
	if (r < 12)
		a->bad_field |= !a->get;
	if (chance(c, 4)) {
		cpu->usage_us = 1 + below(c, 0xffff);
		a->bad_field |= !a->get;
	}
	if (chance(c, 3)) {
		cpu->__reserved = 1 + below(c, 0xffff);
		a->bad_field = 1;
	}
}

static void gen_acall(struct ctx *c, struct acall *a, int get)
{
	static const unsigned int bad_attrs[] = {
		0, 10, 11, 64, 0x80000000U, ~0U
	};
	static const size_t huge[] = { 0, 1 << 20, SIZE_MAX };
	unsigned int r, want;
	size_t ver0;

	memset(a, 0, sizeof(*a));
	a->get = get;
	if (chance(c, 5)) {
		a->attr = bad_attrs[below(c, ARRAY_SIZE(bad_attrs))];
		a->must = EINVAL;
	} else {
		a->attr = 1 + below(c, 8);
	}
	a->ksize = attr_size(a->attr, 0);
	ver0 = attr_size(a->attr, 1);

	/*
	 * Flags: the domain's kinds (task limit, scheduling flags) take the
	 * domain scope; CPU limits are a process group's without it and the
	 * domain's with it; reading takes no other.
	 */
	if (per_domain(a->attr))
		want = HGROUP_SCOPE_DOMAIN;
	else if (a->attr == HGROUP_ATTR_CPU)
		want = chance(c, 50) ? HGROUP_SCOPE_DOMAIN : 0;
	else if (a->attr == HGROUP_ATTR_REDIRECT)
		want = 0;
	else
		want = !get && chance(c, 30) ? HGROUP_SCOPE_DOMAIN : 0;
	r = below(c, 100);
	if (r < 90 || (r < 95 && (a->attr == HGROUP_ATTR_CPU ||
				  (!get && !per_domain(a->attr))))) {
		a->flags = want;
	} else if (r < 95) {
		a->flags = want ^ HGROUP_SCOPE_DOMAIN;
		a->must = EINVAL;
	} else {
		a->flags = want | 1U << (1 + below(c, 31));
		if (chance(c, 20))
			a->flags = ~0U;
		a->must = EINVAL;
	}

	a->pgid = pick_pgid(c);

	r = below(c, 100);
	if (!a->ksize) {
		a->size = 8 * below(c, 4);
	} else if (r < 76) {
		a->size = a->ksize;
	} else if (r < 84) {
		a->size = below(c, ver0);
		a->must = a->must ?: EINVAL;
	} else if (r < 92) {
		a->size = a->ksize + 8 * (1 + below(c, 64));
	} else if (r < 96) {
		a->size = a->ksize + 1 + below(c, 64);
		a->tail = 1;
	} else {
		a->size = huge[below(c, ARRAY_SIZE(huge))] ?:
			  (size_t)page_size + 1;
		a->huge = 1;
	}

	if (chance(c, 90)) {
		a->uattr = c->b->s;
		a->valid = 1;
	} else {
		a->uattr = bad_ptr(c);
		a->may_fault = 1;
	}
	switch (a->attr) {
	case HGROUP_ATTR_CPUS:
	case HGROUP_ATTR_MEMS:
		gen_mask(c, a);
		break;
	case HGROUP_ATTR_DEVICES:
		gen_devices(c, a);
		break;
	case HGROUP_ATTR_FREEZE:
		gen_freeze(c, a);
		break;
	case HGROUP_ATTR_TASKS:
		gen_tasks(c, a);
		break;
	case HGROUP_ATTR_SCHED:
		gen_sched(c, a);
		break;
	case HGROUP_ATTR_CPU:
		gen_cpu(c, a);
		break;
	case HGROUP_ATTR_REDIRECT:
		gen_redirect(c, a);
		break;
	}
	if (a->tail)
		c->b->s[a->ksize + below(c, a->size - a->ksize)] =
			1 + below(c, 255);
	memcpy(a->copy, c->b->s, sizeof(a->copy));
	a->may_fault |= a->inner_bad;

	/*
	 * Over a page is E2BIG before anything is read; a bad field is
	 * EINVAL (EOPNOTSUPP for nodes without cpusets comes first) when
	 * setting, if it can be read and nothing else is wrong with it.
	 */
	if (!a->must && a->huge && !a->bad_field)
		a->must = E2BIG;
	if (!a->must && a->bad_field && !a->get && !a->may_fault &&
	    !a->tail && !a->huge)
		a->must_field = EINVAL;
}

/* The errors hgroup_set_attr() or hgroup_get_attr() may return here. */
static void attr_allowed(const struct acall *a, int *list)
{
	int n = 0;

	list[n++] = EINVAL;
	if (a->size > a->ksize || a->huge)
		list[n++] = E2BIG;	/* only beyond the structure */
	if (a->may_fault)
		list[n++] = EFAULT;	/* only for a bad pointer */
	if (a->pgid)
		list[n++] = ESRCH;	/* our own group always exists */
	if (!a->get) {
		list[n++] = EPERM;	/* reading needs no permission */
		list[n++] = EACCES;
	}
	if (a->get && a->attr == HGROUP_ATTR_DEVICES)
		list[n++] = ENOSPC;
	if (a->attr == HGROUP_ATTR_MEMS)
		list[n++] = EOPNOTSUPP;
	if (a->attr == HGROUP_ATTR_REDIRECT && !a->get) {
		list[n++] = EXDEV;	/* another domain or namespace */
		list[n++] = EBUSY;	/* in a budget of its own */
		if (!a->pgid)
			list[n++] = ESRCH;	/* the group redirected to */
	}
	list[n++] = EINTR;
	list[n++] = ENOMEM;
	list[n] = 0;
}

static const char *judge_attr(const struct acall *a, long r, int e)
{
	int allowed[16];

	if (r != -1) {
		if (r)
			return "returned neither 0 nor -1";
		if (a->must || a->must_field)
			return "succeeded, but the arguments are invalid";
		if (a->get && !a->valid)
			return "succeeded with a bad structure pointer";
		return NULL;
	}
	if (a->must)
		return e == a->must ? NULL :
		       "not the error the arguments call for";
	/*
	 * The kernel may allocate before it has read every field (ENOMEM),
	 * and says EOPNOTSUPP for nodes before it reads any.
	 */
	if (a->must_field && e != a->must_field && e != ENOMEM &&
	    !(a->attr == HGROUP_ATTR_MEMS && e == EOPNOTSUPP))
		return "not the error the arguments call for (a bad field)";
	attr_allowed(a, allowed);
	if (!in_list(e, allowed))
		return "an error not documented for the call and arguments";
	return NULL;
}

/* What a successful read gave: NULL if it is sane, else what is wrong. */
static const char *check_got(const struct ctx *c, const struct acall *a)
{
	const struct bufs *b = c->b;
	size_t i, end = a->size < BUF ? a->size : BUF;
	unsigned long possible;
	unsigned int words;

	for (i = a->ksize; i < end; i++)
		if (b->s[i])
			return "wrote beyond the structure";
	switch (a->attr) {
	case HGROUP_ATTR_CPUS:
	case HGROUP_ATTR_MEMS: {
		const unsigned char *g = (void *)b->mask;

		if (a->inner_bad)
			return "succeeded with a bad mask pointer";
		possible = a->attr == HGROUP_ATTR_CPUS ? cpus_possible :
							 nodes_possible;
		words = (a->cap < BUF ? a->cap : BUF) / sizeof(long);
		if (!possible_wide) {
			if (!b->mask[0] || b->mask[0] & ~possible)
				return "a set that is empty or not possible";
			for (i = 1; i < words; i++)
				if (b->mask[i])
					return "a set that is not possible";
		}
		if (a->cap <= BUF - GUARD)
			for (i = a->cap; i < a->cap + GUARD; i++)
				if (g[i] != 0xa5)
					return "wrote beyond mask_size";
		break;
	}
	case HGROUP_ATTR_SCHED:
		if (((struct hgroup_sched *)b->s)->flags &
		    ~(HGROUP_SCHED_GROUP_PGRPS | HGROUP_SCHED_GROUP_DOMAINS))
			return "unknown scheduling flags";
		break;
	case HGROUP_ATTR_CPU: {
		const struct hgroup_cpu *cpu = (void *)b->s;

		if (!cpu->weight_max || cpu->weight_max > 10000 ||
		    cpu->period_us < 1000 || cpu->period_us > 1000000 ||
		    (cpu->quota_us != HGROUP_CPU_UNLIMITED &&
		     cpu->quota_us < 1000))
			return "CPU limits out of their ranges";
		break;
	}
	case HGROUP_ATTR_DEVICES: {
		const struct hgroup_devices *d = (void *)b->s;
		const struct hgroup_dev_rule *r = b->rules;
		const unsigned char *g = (void *)b->rules;

		if (d->policy > HGROUP_DEV_POLICY_DENY)
			return "an unknown device policy";
		if (d->nr_rules > a->cap || d->nr_rules > HGROUP_DEV_MAX_RULES)
			return "more rules than the buffer holds";
		if (a->inner_bad)
			break;
		for (i = 0; i < d->nr_rules; i++)
			if (!r[i].type || r[i].type & ~HGROUP_DEV_ALL ||
			    !r[i].access || r[i].access & ~HGROUP_DEV_ACC_ALL)
				return "a malformed device rule";
		if (a->cap <= NR_RULES - 4)
			for (i = a->cap * sizeof(*r);
			     i < (a->cap + 4) * sizeof(*r); i++)
				if (g[i] != 0xa5)
					return "wrote beyond the rule buffer";
		break;
	}
	case HGROUP_ATTR_FREEZE: {
		const struct hgroup_freeze *f = (void *)b->s;

		if (f->flags & ~(HGROUP_FREEZE_ALL | HGROUP_FREEZE_NEW_PGRP) ||
		    f->state & ~HGROUP_STATE_FROZEN)
			return "unknown freeze flags or state";
		break;
	}
	}
	return NULL;
}

static void describe(const struct acall *a, char *buf, size_t len)
{
	struct hgroup_mask m;
	struct hgroup_devices d;
	struct hgroup_freeze f;
	struct hgroup_tasks t;

	switch (a->attr) {
	case HGROUP_ATTR_CPUS:
	case HGROUP_ATTR_MEMS:
		memcpy(&m, a->copy, sizeof(m));
		snprintf(buf, len,
			 "{mask %#llx, mask_size %u, __reserved %u; bits %#lx}",
			 (unsigned long long)m.mask, m.mask_size,
			 m.__reserved, a->bits);
		break;
	case HGROUP_ATTR_DEVICES:
		memcpy(&d, a->copy, sizeof(d));
		snprintf(buf, len, "{policy %u, nr_rules %u, rules %#llx}",
			 d.policy, d.nr_rules, (unsigned long long)d.rules);
		break;
	case HGROUP_ATTR_FREEZE:
		memcpy(&f, a->copy, sizeof(f));
		snprintf(buf, len, "{flags %#x, state %#x}", f.flags, f.state);
		break;
	case HGROUP_ATTR_TASKS:
		memcpy(&t, a->copy, sizeof(t));
		snprintf(buf, len, "{max %#llx, nr_tasks %llu}",
			 (unsigned long long)t.max,
			 (unsigned long long)t.nr_tasks);
		break;
	default:
		snprintf(buf, len, "{}");
	}
	if (a->tail)
		snprintf(buf + strlen(buf), len - strlen(buf), " + tail");
}

static void op_attr(struct ctx *c, int get)
{
	const struct hgroup_devices *d = (void *)c->b->s;
	const char *why;
	char desc[128];
	struct acall a;
	size_t clear;
	long r;
	int e;

	gen_acall(c, &a, get);
	errno = 0;
	if (get)
		r = sys_hgroup_get_attr(a.pgid, a.attr, a.uattr, a.size,
					a.flags);
	else
		r = sys_hgroup_set_attr(a.pgid, a.attr, a.uattr, a.size,
					a.flags);
	e = errno;
	count(get ? C_GET_ATTR : C_SET_ATTR, r, e);
	why = judge_attr(&a, r, e);
	if (!why && get && !r)
		why = check_got(c, &a);
	/* The number of rules needed is written back. */
	if (!why && r == -1 && e == ENOSPC && a.valid &&
	    (d->nr_rules <= a.cap || d->nr_rules > HGROUP_DEV_MAX_RULES))
		why = "ENOSPC, but nr_rules is not the number needed";
	if (why) {
		describe(&a, desc, sizeof(desc));
		fail(c, "%s(%d, %u, %p, %zu, %#x) %s = %ld, errno %s (%d): %s",
		     get ? "hgroup_get_attr" : "hgroup_set_attr", a.pgid,
		     a.attr, a.uattr, a.size, a.flags, desc, r,
		     r == -1 ? ename(e) : "-", r == -1 ? e : 0, why);
	}
	/* All the generator wrote, whatever size the call was given. */
	clear = a.size < BUF ? a.size : BUF;
	if (clear < sizeof(struct hgroup_cpu))
		clear = sizeof(struct hgroup_cpu);
	memset(c->b->s, 0, clear);
}

/* ---------------------------------------------------------------------- */
/* The other calls                                                         */
/* ---------------------------------------------------------------------- */

static long op_setsid(struct ctx *c)
{
	long r;

	errno = 0;
	r = setsid();
	check(c, C_SETSID, r, errno, setsid_errs, 0, "setsid()");
	if (r > 0)
		pool_add(c, r);
	return r;
}

/* set_domainid(), with unknown flags now and then if @odd. */
static void op_set_domainid(struct ctx *c, int odd)
{
	unsigned int flags = 0;
	long r;

	if (odd && chance(c, 10)) {
		flags = 1U << below(c, 32);
		if (chance(c, 30))
			flags |= rnd(c);
	}
	errno = 0;
	r = sys_set_domainid(flags);
	/* EINVAL is for unknown flags only, and then checked first. */
	check(c, C_SET_DOMAINID, r, errno, set_domainid_errs,
	      flags ? EINVAL : 0, "set_domainid(%#x)", flags);
	if (r >= 0 && r != getpid())
		fail(c, "set_domainid(0) = %ld, not the caller's pid %d", r,
		     getpid());
	if (r > 0)
		pool_add(c, r);
}

static void op_get_domainid(struct ctx *c)
{
	unsigned int r = below(c, 100);
	int must = 0;
	pid_t pid;
	long ret;

	if (r < 30) {
		pid = 0;
		must = MUST_SUCCEED;
	} else if (r < 40) {
		pid = getpid();
		must = MUST_SUCCEED;
	} else if (r < 75) {
		pid = pool_pick(c);
	} else if (r < 88) {
		pid = 1 + below(c, 4096);
	} else {
		pid = r < 96 ? -1 - (pid_t)below(c, 1000) : INT_MIN;
		must = ESRCH;
	}
	errno = 0;
	ret = sys_get_domainid(pid);
	check(c, C_GET_DOMAINID, ret, errno, get_domainid_errs, must,
	      "get_domainid(%d)", pid);
}

static void op_setpgid(struct ctx *c)
{
	unsigned int r = below(c, 100);
	pid_t pid = 0, pgid = 0;
	long ret;

	if (r < 35) {
		;
	} else if (r < 70) {
		pgid = pool_pick(c);
	} else if (r < 85) {
		pid = pool_pick(c);
	} else {
		pid = pool_pick(c);
		pgid = pool_pick(c);
	}
	if (chance(c, 3))
		pgid = -1 - (pid_t)below(c, 100);
	errno = 0;
	ret = setpgid(pid, pgid);
	check(c, C_SETPGID, ret, errno, setpgid_errs, 0, "setpgid(%d, %d)",
	      pid, pgid);
	if (!ret && !pid)
		pool_add(c, getpgrp());
}

/* Reap @pid: its exit code, or -1 (reported) if a signal killed it. */
static int reap(const struct ctx *c, pid_t pid, const char *what)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fail(c, "waitpid(%s %d): errno %s (%d)", what, pid,
			     ename(errno), errno);
			return -1;
		}
	}
	if (WIFSIGNALED(status)) {
		fail(c, "%s %d was killed by signal %d", what, pid,
		     WTERMSIG(status));
		return -1;
	}
	return WEXITSTATUS(status);
}

static void op_fork(struct ctx *c);

/* What a child does: a few calls, some of them making groups. */
static void child_ops(struct ctx *c)
{
	unsigned int n = 1 + below(c, 4), i, r;

	if (chance(c, 40) && op_setsid(c) > 0 && chance(c, 50))
		op_set_domainid(c, 0);
	for (i = 0; i < n; i++) {
		r = below(c, 100);
		if (r < 30)
			op_attr(c, 0);
		else if (r < 45)
			op_attr(c, 1);
		else if (r < 55)
			op_get_domainid(c);
		else if (r < 65)
			op_set_domainid(c, 1);
		else if (r < 75)
			op_setsid(c);
		else if (r < 88)
			op_setpgid(c);
		else if (c->depth < 2)
			op_fork(c);
	}
}

/* Fork a child that does child_ops(), maybe move it, and reap it. */
static void op_fork(struct ctx *c)
{
	__u64 seed = rnd(c);
	unsigned int move = below(c, 100);
	pid_t pid, pgid;
	long r;

	pid = fork();
	if (pid == 0) {
		struct ctx k = *c;

		k.rng = seed;
		k.depth = c->depth + 1;
		child_ops(&k);
		_exit(0);
	}
	check(c, C_FORK, pid, errno, fork_errs, 0, "fork()");
	if (pid < 0)
		return;
	pool_add(c, pid);
	if (move < 30) {
		pgid = move < 15 ? 0 : pool_pick(c);
		errno = 0;
		r = setpgid(pid, pgid);
		check(c, C_SETPGID, r, errno, setpgid_errs, 0,
		      "setpgid(child %d, %d)", pid, pgid);
	}
	r = reap(c, pid, "child");
	if (r > 0)
		fail(c, "child %d exited with %ld", pid, r);
}

/*
 * Fork a child that maybe makes a group of its own and executes
 * "exec_helper domain D" (or "thread-exec D", which execs that from a
 * second thread): D must be its domain after the exec, in
 * get_domainid() and /proc/self/status alike.
 */
static void op_exec(struct ctx *c)
{
	__u64 seed = rnd(c);
	const char *mode = chance(c, 30) ? "thread-exec" : "domain";
	unsigned int pre = below(c, 100);
	pid_t pid;
	int code;

	if (!have_helper)
		return;
	pid = fork();
	if (pid == 0) {
		struct ctx k = *c;
		char arg[24];
		long d, r;
		int e;

		k.rng = seed;
		k.depth = c->depth + 1;
		if (pre < 20) {
			op_setsid(&k);
		} else if (pre < 35) {
			errno = 0;
			r = setpgid(0, 0);
			check(&k, C_SETPGID, r, errno, setpgid_errs, 0,
			      "setpgid(0, 0)");
		}
		errno = 0;
		d = sys_get_domainid(0);
		check(&k, C_GET_DOMAINID, d, errno, get_domainid_errs,
		      MUST_SUCCEED, "get_domainid(0)");
		snprintf(arg, sizeof(arg), "%ld", d);
		execl(helper, helper, mode, arg, (char *)NULL);
		e = errno;
		count(C_EXEC, -1, e);
		if (e != ENOMEM && e != EAGAIN)
			fail(&k, "execve(%s): errno %s (%d)", helper, ename(e),
			     e);
		_exit(100);
	}
	check(c, C_FORK, pid, errno, fork_errs, 0, "fork()");
	if (pid < 0)
		return;
	code = reap(c, pid, "exec_helper");
	if (code == 0)
		count(C_EXEC, 0, 0);
	else if (code == 5 && !strcmp(mode, "thread-exec"))
		count(C_THREAD, -1, EAGAIN);	/* its pthread_create() */
	else if (code > 0 && code != 100)
		fail(c, "exec_helper %s exited with %d", mode, code);
}

/* The init of a new user and PID namespace. */
static void nested_init(struct ctx *c)
{
	long r;

	errno = 0;
	r = sys_get_domainid(0);
	check(c, C_GET_DOMAINID, r, errno, get_domainid_errs, MUST_SUCCEED,
	      "get_domainid(0)");
	/* The domain that holds the namespace's init reads as 0. */
	if (r > 0)
		fail(c, "get_domainid(0) = %ld in a namespace's init", r);
	if (op_setsid(c) > 0 && chance(c, 70))
		op_set_domainid(c, 0);
	child_ops(c);
}

/*
 * Fork a child that unshares a user and a PID namespace and forks their
 * init, which does a few calls there.
 */
static void op_userns(struct ctx *c)
{
	__u64 seed = rnd(c);
	pid_t x, y;
	long r;

	x = fork();
	if (x == 0) {
		struct ctx k = *c;

		k.rng = seed;
		k.depth = 1;
		errno = 0;
		r = unshare(CLONE_NEWUSER | CLONE_NEWPID);
		check(&k, C_UNSHARE, r, errno, unshare_errs, 0,
		      "unshare(CLONE_NEWUSER | CLONE_NEWPID)");
		if (r)
			_exit(0);
		y = fork();
		if (y == 0) {
			k.nested = 1;
			nested_init(&k);
			_exit(0);
		}
		check(&k, C_FORK, y, errno, fork_errs, 0,
		      "fork() into a new PID namespace");
		if (y > 0) {
			r = reap(&k, y, "namespace init");
			if (r > 0)
				fail(&k, "namespace init exited with %ld", r);
		}
		_exit(0);
	}
	check(c, C_FORK, x, errno, fork_errs, 0, "fork()");
	if (x < 0)
		return;
	r = reap(c, x, "child");
	if (r > 0)
		fail(c, "child %d exited with %ld", x, r);
}

/* A short-lived thread: a few calls, some of them process-wide. */
static void *op_thread_main(void *arg)
{
	struct ctx *c = arg;
	unsigned int n = 1 + below(c, 3), i, r;

	for (i = 0; i < n; i++) {
		r = below(c, 100);
		if (r < 40)
			op_attr(c, 0);
		else if (r < 65)
			op_attr(c, 1);
		else if (r < 75)
			op_get_domainid(c);
		else if (r < 85)
			op_set_domainid(c, 1);
		else if (r < 90)
			op_setsid(c);
		else
			op_setpgid(c);
	}
	return NULL;
}

static void op_thread(struct ctx *c)
{
	struct ctx k = *c;
	pthread_attr_t attr;
	pthread_t t;
	int e;

	/* It uses our buffers: we wait for it. */
	k.rng = rnd(c);
	k.thread = c->thread + 100;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 << 10);
	e = pthread_create(&t, &attr, op_thread_main, &k);
	pthread_attr_destroy(&attr);
	check(c, C_THREAD, e ? -1 : 0, e, thread_errs, 0, "pthread_create()");
	if (!e)
		pthread_join(t, NULL);
}

static enum op pick_op(struct ctx *c)
{
	unsigned int r = below(c, 100), i;

	for (i = 0; i < NR_OPS - 1; i++) {
		if (r < ops[i].weight)
			return i;
		r -= ops[i].weight;
	}
	return NR_OPS - 1;
}

static void do_op(struct ctx *c, enum op op)
{
	switch (op) {
	case OP_SET_ATTR:
		op_attr(c, 0);
		break;
	case OP_GET_ATTR:
		op_attr(c, 1);
		break;
	case OP_GET_DOMAINID:
		op_get_domainid(c);
		break;
	case OP_SET_DOMAINID:
		op_set_domainid(c, 1);
		break;
	case OP_SETSID:
		op_setsid(c);
		break;
	case OP_SETPGID:
		op_setpgid(c);
		break;
	case OP_FORK:
		op_fork(c);
		break;
	case OP_EXEC:
		op_exec(c);
		break;
	case OP_USERNS:
		op_userns(c);
		break;
	case OP_THREAD:
		op_thread(c);
		break;
	case OP_NNP:
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			fail(c, "PR_SET_NO_NEW_PRIVS: errno %s (%d)",
			     ename(errno), errno);
		break;
	default:
		sched_yield();
	}
}

/* ---------------------------------------------------------------------- */
/* Workers, the namespace's init and the domain's creator                  */
/* ---------------------------------------------------------------------- */

static int alloc_bufs(struct bufs *b)
{
	char *m = mmap(NULL, 3 * BUF + 2 * page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return -1;
	b->s = m;
	b->mask = (void *)(m + BUF);
	b->rules = (void *)(m + 2 * BUF);
	b->ro = m + 3 * BUF;
	b->none = b->ro + page_size;
	if (mprotect(b->ro, page_size, PROT_READ) ||
	    mprotect(b->none, page_size, PROT_NONE))
		return -1;
	return 0;
}

static void *thread_main(void *arg)
{
	struct ctx *c = arg;
	struct thread_state *ts = &st->thr[c->worker][c->thread];
	enum op op;
	long i;

	for (i = 0; i < st->ops && !atomic_load(&st->stop); i++) {
		op = pick_op(c);
		c->op = i;
		atomic_store(&ts->op, op + 1);
		do_op(c, op);
		atomic_store(&ts->done, i + 1);
	}
	atomic_store(&ts->op, 0);
	return NULL;
}

static __noreturn void worker_main(int w)
{
	struct ctx c[NR_THREADS];
	struct bufs b[NR_THREADS];
	pthread_t t[NR_THREADS];
	int running[NR_THREADS] = { 0 };
	pthread_attr_t attr;
	long end;
	__u64 s;
	int i, e;

	for (i = 0; i < NR_THREADS; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		s = st->seed + ((__u64)(w + 1) << 20) + i;
		c[i].rng = mix(&s) ^ mix(&s);
		c[i].worker = w;
		c[i].thread = i;
		c[i].b = &b[i];
	}
	if (w >= NR_WORKERS - NR_UNPRIV && hg_become(UNPRIV_UID)) {
		fail(&c[0], "becoming uid %d: errno %s (%d)", UNPRIV_UID,
		     ename(errno), errno);
		_exit(1);
	}
	/* Restricting a group of another uid needs no_new_privs in it. */
	if (w % 4 >= 2 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		fail(&c[0], "PR_SET_NO_NEW_PRIVS: errno %s", ename(errno));
		_exit(1);
	}
	if (have_helper && access(helper, X_OK))
		have_helper = 0;
	for (i = 0; i < NR_THREADS; i++) {
		if (alloc_bufs(&b[i])) {
			fail(&c[0], "mmap: errno %s", ename(errno));
			_exit(1);
		}
	}
	pool_add(&c[0], getpid());
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 << 10);
	for (i = 1; i < NR_THREADS; i++) {
		/* Another worker may have set a task limit already. */
		end = hg_now_ms() + 60000;
		while ((e = pthread_create(&t[i], &attr, thread_main, &c[i])) ==
		       EAGAIN && hg_now_ms() < end)
			hg_sleep_ms(10);
		if (e)
			fail(&c[0], "pthread_create: errno %s (%d)", ename(e),
			     e);
		running[i] = !e;
	}
	thread_main(&c[0]);
	for (i = 1; i < NR_THREADS; i++)
		if (running[i])
			pthread_join(t[i], NULL);
	_exit(0);
}

/*
 * PID 1 of the workers' namespace: a session of its own and a /proc of
 * the namespace (exec_helper compares /proc/self/status with
 * get_domainid()); forks the workers and reaps them, and every orphan.
 */
static __noreturn void init_main(void)
{
	struct ctx me = { .worker = -1 };
	pid_t pid, wpid[NR_WORKERS];
	int w, status, left = 0;
	long end;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (setsid() < 0 || unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL)) {
		fail(&me, "namespace init: setup: errno %s (%d)", ename(errno),
		     errno);
		_exit(1);
	}
	pool_add(&me, getpid());
	for (w = 0; w < NR_WORKERS; w++) {
		end = hg_now_ms() + 60000;
		while ((pid = fork()) < 0 && errno == EAGAIN &&
		       hg_now_ms() < end)
			hg_sleep_ms(10);
		if (pid == 0)
			worker_main(w);
		wpid[w] = pid;
		if (pid < 0) {
			fail(&me, "forking worker %d: errno %s", w,
			     ename(errno));
			continue;
		}
		pool_add(&me, pid);
		left++;
	}
	while (left) {
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (w = 0; w < NR_WORKERS; w++) {
			if (pid == wpid[w]) {
				atomic_store(&st->wstatus[w], status);
				left--;
			}
		}
	}
	atomic_store(&st->done, 1);
	for (;;)
		if (waitpid(-1, NULL, 0) < 0 && errno != EINTR)
			hg_sleep_ms(100);
}

/*
 * The creator of the workers' domain, outside their PID namespace: to
 * them the domain reads as 0, so they may start domains of their own.
 */
static __noreturn void creator_main(pid_t test)
{
	struct ctx me = { .worker = -1 };
	pid_t pid;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != test)
		_exit(1);
	errno = 0;
	if (setsid() < 0 || sys_set_domainid(0) != getpid()) {
		fail(&me, "creator: setsid() or set_domainid(0): errno %s",
		     ename(errno));
		_exit(1);
	}
	atomic_store(&st->ready, 1);
	if (unshare(CLONE_NEWPID)) {
		fail(&me, "creator: unshare(CLONE_NEWPID): errno %s",
		     ename(errno));
		_exit(1);
	}
	pid = fork();
	if (pid < 0) {
		fail(&me, "creator: fork(): errno %s", ename(errno));
		_exit(1);
	}
	if (pid == 0)
		init_main();
	wait_exit(pid);
	_exit(0);
}

/* ---------------------------------------------------------------------- */
/* The test                                                                */
/* ---------------------------------------------------------------------- */

#define NR_OBJS 8

struct objs {
	int n;
	char key[NR_OBJS][16];
	long val[NR_OBJS];
};

/* Every count of debugfs hgroup/objects (pgrps, domains, sets, devs). */
static int read_objs(struct objs *o)
{
	FILE *f = fopen("/sys/kernel/debug/hgroup/objects", "r");

	o->n = 0;
	if (!f)
		return -1;
	while (o->n < NR_OBJS &&
	       fscanf(f, "%15s %ld", o->key[o->n], &o->val[o->n]) == 2)
		o->n++;
	fclose(f);
	return o->n ? 0 : -1;
}

static int objs_equal(const struct objs *a, const struct objs *b)
{
	return a->n == b->n && !memcmp(a->val, b->val, a->n * sizeof(long));
}

/* Counts from before may still be falling: take them once still 1 s. */
static int read_settled_objs(struct objs *o)
{
	struct objs now;
	int i, still = 0;

	if (read_objs(o))
		return -1;
	for (i = 0; i < 600 && still < 10; i++) {
		hg_sleep_ms(100);
		if (read_objs(&now))
			return -1;
		still = objs_equal(&now, o) ? still + 1 : 0;
		*o = now;
	}
	return 0;
}

static long env_long(const char *name, long def)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtol(s, &end, 0);
	return *end || errno || v <= 0 ? -1 : v;
}

/* The highest number in a CPU or node list file, -1 if none. */
static long list_top(const char *path)
{
	char buf[256], *p = buf;
	long top = -1, v;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	while (*p) {
		if (*p >= '0' && *p <= '9') {
			v = strtol(p, &p, 10);
			top = v > top ? v : top;
		} else {
			p++;
		}
	}
	return top;
}

/*
 * A kernel with hgroups shows Domain: in /proc/self/status; on another
 * one, the system call numbers may belong to other calls.
 */
static int has_domains(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "Domain:", 7);
	fclose(f);
	return found;
}

static __u64 own_tasks_max;

/*
 * Thaw every group of @pgid's domain and lift its task limit to our
 * domain's: 0, or the first errno.  With @all, also lift its CPU and node
 * sets and device lists, so that the workers can narrow them again.
 */
static int lift_domain(pid_t pgid, int all)
{
	struct hgroup_tasks t = { .max = own_tasks_max };
	int e = 0;

	if (hg_set_freeze(pgid, 0, HGROUP_SCOPE_DOMAIN))
		e = errno;
	if (sys_hgroup_set_attr(pgid, HGROUP_ATTR_TASKS, &t, sizeof(t),
				HGROUP_SCOPE_DOMAIN) && !e)
		e = errno;
	if (all) {
		hg_set_mask(pgid, HGROUP_ATTR_CPUS, cpus_possible,
			    HGROUP_SCOPE_DOMAIN);
		hg_set_mask(pgid, HGROUP_ATTR_MEMS, nodes_possible,
			    HGROUP_SCOPE_DOMAIN);
		hg_set_devices(pgid, HGROUP_DEV_POLICY_ALLOW, NULL, 0,
			       HGROUP_SCOPE_DOMAIN);
	}
	return e;
}

/* The same for every domain below @root's: those of its descendants. */
static void lift_below(pid_t root, struct hg_proc *p, char *mark)
{
	int i, n = hg_scan_procs(p);
	pid_t pg;

	hg_mark_descendants(p, n, root, mark);
	for (i = 0; i < n; i++) {
		if (!mark[i] || sys_get_domainid(p[i].pid) == root)
			continue;
		pg = getpgid(p[i].pid);
		if (pg > 0)
			lift_domain(pg, 1);
	}
}

/* After the thaw: no group of @root or below has a freeze flag. */
static void check_thawed(const struct ctx *me, pid_t root,
			 struct hg_proc *p, char *mark)
{
	int i, n = hg_scan_procs(p);
	long flags;
	pid_t pg;

	hg_mark_descendants(p, n, root, mark);
	for (i = 0; i < n; i++) {
		if (!mark[i] && p[i].pid != root)
			continue;
		pg = getpgid(p[i].pid);
		flags = pg > 0 ? hg_freeze_flags(pg) : 0;
		if (flags > 0)
			fail(me, "group %d (pid %d) thawed, still flags %#lx",
			     pg, p[i].pid, flags);
	}
}

/* Where each thread still running is. */
static void report_stuck(struct __test_metadata *_metadata)
{
	struct thread_state *ts;
	int w, t, op;

	for (w = 0; w < NR_WORKERS; w++) {
		for (t = 0; t < NR_THREADS; t++) {
			ts = &st->thr[w][t];
			op = atomic_load(&ts->op);
			if (op)
				TH_LOG("stuck: worker %d.%d in %s, op %ld",
				       w, t, ops[op - 1].name,
				       atomic_load(&ts->done));
		}
	}
}

static long ops_done(void)
{
	long n = 0;
	int w, t;

	for (w = 0; w < NR_WORKERS; w++)
		for (t = 0; t < NR_THREADS; t++)
			n += atomic_load(&st->thr[w][t].done);
	return n;
}

static void print_stats(void)
{
	char line[640];
	int k, e, n;
	long v;

	for (k = 0; k < NR_CALLS; k++) {
		n = snprintf(line, sizeof(line), "%-16s", call_names[k]);
		for (e = 0; e < NR_ERRNO && n < (int)sizeof(line); e++) {
			v = atomic_load(&st->count[k][e]);
			if (!v)
				continue;
			if (strcmp(ename(e), "E?"))
				n += snprintf(line + n, sizeof(line) - n,
					      " %s %ld", ename(e), v);
			else
				n += snprintf(line + n, sizeof(line) - n,
					      " errno%d %ld", e, v);
		}
		ksft_print_msg("%s\n", line);
	}
}

FIXTURE(stress) {
	pid_t creator;
};

FIXTURE_SETUP(stress)
{
	self->creator = 0;
	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, st);
	/* Orphans come back to the test, which reaps them. */
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
}

FIXTURE_TEARDOWN(stress)
{
	if (self->creator > 0) {
		lift_domain(self->creator, 1);
		hg_kill_tree(getpid(), 1);
	}
	if (st != MAP_FAILED)
		munmap(st, sizeof(*st));
}

TEST_F_TIMEOUT(stress, random_ops, 870)
{
	long per_worker = env_long("HG_STRESS_OPS", DEFAULT_OPS);
	long secs = env_long("HG_STRESS_SECS", DEFAULT_SECS);
	const char *seed_env = getenv("HG_STRESS_SEED");
	struct ctx me = { .worker = -1 };
	long start, now, deadline, next_log, elapsed, moved = 0, last = -1;
	int have_objs, w, i, e, status, stuck = 0;
	struct objs before, after;
	struct timespec ts;
	struct hg_proc *p;
	char *mark, *end;
	pid_t test = getpid();
	__u64 seed;

	if (geteuid())
		SKIP(return, "needs root: a PID namespace and uid changes");
	if (!has_domains())
		SKIP(return, "no hgroups: no Domain: in /proc/self/status");
	ASSERT_LT(0, per_worker) TH_LOG("HG_STRESS_OPS: not a count");
	ASSERT_LT(0, secs) TH_LOG("HG_STRESS_SECS: not a count");
	if (seed_env && *seed_env) {
		seed = strtoull(seed_env, &end, 0);
		ASSERT_EQ(0, *end) TH_LOG("HG_STRESS_SEED is not a number");
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
		seed = ((__u64)ts.tv_sec * 1000000007ULL) ^ ts.tv_nsec ^
		       ((__u64)getpid() << 40);
	}
	TH_LOG("seed %#llx: HG_STRESS_SEED=%#llx repeats the choices",
	       (unsigned long long)seed, (unsigned long long)seed);
	TH_LOG("%ld operations per worker (HG_STRESS_OPS), at most %ld s",
	       per_worker, secs);

	page_size = sysconf(_SC_PAGESIZE);
	cpus_possible = hg_possible_cpus();
	nodes_possible = hg_cpulist("/sys/devices/system/node/possible") ?: 1;
	possible_wide = list_top("/sys/devices/system/cpu/possible") >= 64 ||
			list_top("/sys/devices/system/node/possible") >= 64;
	ASSERT_NE(0UL, cpus_possible);
	have_helper = !hg_helper_path(helper, sizeof(helper));
	if (!have_helper)
		TH_LOG("no exec_helper next to this program: no execve()");
	if (hg_get_tasks(0, &own_tasks_max, NULL))
		own_tasks_max = HGROUP_TASKS_UNLIMITED;
	have_objs = !read_settled_objs(&before);
	if (!have_objs)
		TH_LOG("no /sys/kernel/debug/hgroup/objects: counts unchecked");

	memset(st, 0, sizeof(*st));
	st->seed = seed;
	st->ops = (per_worker + NR_THREADS - 1) / NR_THREADS;
	for (w = 0; w < NR_WORKERS; w++)
		st->wstatus[w] = -1;
	p = malloc(HG_MAX_PROCS * sizeof(*p));
	mark = malloc(HG_MAX_PROCS);
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, mark);

	fflush(stdout);
	fflush(stderr);
	self->creator = fork();
	ASSERT_LE(0, self->creator);
	if (self->creator == 0)
		creator_main(test);

	/*
	 * Until the workers are done: thaw their domain and lift its task
	 * limit every tick, the domains below every SCAN_TICKS.
	 */
	start = hg_now_ms();
	deadline = start + secs * 1000;
	next_log = start + 30000;
	for (i = 0; !atomic_load(&st->done); i++) {
		if (waitpid(self->creator, &status, WNOHANG) == self->creator) {
			fail(&me, "the domain's creator ended (status %#x)",
			     status);
			self->creator = 0;
			break;
		}
		/* Not before the domain exists: it would be domain 0. */
		if (!atomic_load(&st->ready)) {
			if (hg_now_ms() - start > HG_CHILD_MS) {
				fail(&me, "no domain for the workers");
				break;
			}
			hg_sleep_ms(10);
			continue;
		}
		e = lift_domain(self->creator, i % SCAN_TICKS == 0);
		if (e && e != ENOMEM && !atomic_load(&st->done))
			fail(&me, "thawing the workers' domain: errno %s (%d)",
			     ename(e), e);
		if (i % SCAN_TICKS == 0)
			lift_below(self->creator, p, mark);
		now = hg_now_ms();
		if (!atomic_load(&st->stop) && now >= deadline) {
			atomic_store(&st->stop, 1);
			TH_LOG("%ld s spent, %ld of %ld operations: stopping",
			       secs, ops_done(),
			       st->ops * NR_THREADS * NR_WORKERS);
		}
		if (atomic_load(&st->stop) && now >= deadline + GRACE_MS) {
			fail(&me, "workers still running %d s after the budget",
			     GRACE_MS / 1000);
			stuck = 1;
			break;
		}
		if (ops_done() != last) {
			last = ops_done();
			moved = now;
		} else if (now - moved >= STALL_MS) {
			fail(&me, "no operation finished in %d s",
			     STALL_MS / 1000);
			stuck = 1;
			break;
		}
		if (now >= next_log) {
			TH_LOG("%ld of %ld operations done", ops_done(),
			       st->ops * NR_THREADS * NR_WORKERS);
			next_log += 30000;
		}
		hg_sleep_ms(TICK_MS);
	}
	elapsed = hg_now_ms() - start;

	/* Thaw what is left, top-down, and check that it is. */
	if (self->creator > 0 && atomic_load(&st->ready)) {
		e = lift_domain(self->creator, 1);
		if (e)
			fail(&me, "thawing the domain at the end: errno %s",
			     ename(e));
		for (i = 0; i < 3; i++)
			lift_below(self->creator, p, mark);
		if (!stuck)
			check_thawed(&me, self->creator, p, mark);
		if (stuck)
			report_stuck(_metadata);
		/* SIGKILL everything, the namespace's init first. */
		hg_kill_tree(self->creator, 0);
	}
	if (self->creator > 0) {
		kill(self->creator, SIGKILL);
		wait_exit(self->creator);
		self->creator = 0;
	}
	hg_kill_tree(getpid(), 1);
	/* Our own group was never theirs to freeze. */
	EXPECT_EQ(0, hg_freeze_flags(0));

	TH_LOG("%ld operations in %ld.%03ld s", ops_done(), elapsed / 1000,
	       elapsed % 1000);
	print_stats();
	for (w = 0; w < NR_WORKERS; w++) {
		status = atomic_load(&st->wstatus[w]);
		if (status == -1)
			fail(&me, "worker %d did not finish", w);
		else if (WIFSIGNALED(status))
			fail(&me, "worker %d was killed by signal %d", w,
			     WTERMSIG(status));
		else if (WEXITSTATUS(status))
			fail(&me, "worker %d exited with %d", w,
			     WEXITSTATUS(status));
	}
	e = atomic_load(&st->nfails);
	for (i = 0; i < e && i < MAX_FAILS; i++)
		TH_LOG("%s", st->fails[i]);
	if (e > MAX_FAILS)
		TH_LOG("... and %d more", e - MAX_FAILS);
	EXPECT_EQ(0, e) TH_LOG("replay with HG_STRESS_SEED=%#llx",
			       (unsigned long long)seed);

	/* Everything is gone: so is every object it had. */
	if (have_objs) {
		EXPECT_TRUE(HG_POLL(!read_objs(&after) &&
				    objs_equal(&after, &before), 60000)) {
			for (i = 0; i < before.n && i < after.n; i++)
				TH_LOG("objects: %s %ld, %ld before",
				       after.key[i], after.val[i],
				       before.val[i]);
		}
	}
	free(p);
	free(mark);
}

TEST_HARNESS_MAIN
