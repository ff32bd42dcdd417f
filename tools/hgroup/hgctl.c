// SPDX-License-Identifier: GPL-2.0
/*
 * hgctl - start process domains and restrict their process groups.
 *
 * The model is in Documentation/hgroup.rst, the commands in
 * tools/hgroup/hgctl.rst.  Domains and process groups are found by
 * scanning /proc; restrictions are read and set with hgroup_get_attr()
 * and hgroup_set_attr().
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/hgroup.h>

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

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define BIT(n)		(1U << (n))
#define MASK_BITS	8192	/* CPUs or nodes: room for any NR_CPUS */
#define LONG_BITS	(8 * sizeof(unsigned long))
#define MAX_DEPTH	64	/* domain nesting; the kernel allows 33 */
#define MAX_PASSES	100	/* apply: rounds of finding new groups */
#define WAIT_STEP_MS	10
#define WAIT_MAX_MS	60000
#define PF_KTHREAD	0x00200000	/* /proc/PID/stat flags: kernel thread */
#define EXIT_FAIL	1
#define EXIT_USAGE	2
#define EXIT_SETUP	127

static long read_domain(const char *status);

/*
 * The errno of a kernel without hgroups: that of a system call it does
 * not have.
 */
#define ENOHGROUPS	ENOSYS

/*
 * The numbers 463 to 466 belong to other calls (setxattrat() ...) in
 * kernels from 6.13 on: issue none without the hgroups' Domain: line in
 * /proc, unless there is no /proc to tell.  Unused arguments are 0.
 */
static long hg_syscall(long nr, long a, long b, long c, long d, long e)
{
	static int present = -1;

	if (present < 0)
		present = read_domain("/proc/self/status") >= 0 ||
			  access("/proc/self/status", R_OK);
	if (!present) {
		errno = ENOHGROUPS;
		return -1;
	}
	return syscall(nr, a, b, c, d, e, 0L);
}

static long sys_set_domainid(unsigned int flags)
{
	return hg_syscall(__NR_set_domainid, flags, 0, 0, 0, 0);
}

static long sys_get_domainid(pid_t pid)
{
	return hg_syscall(__NR_get_domainid, pid, 0, 0, 0, 0);
}

static long sys_hgroup_set_attr(pid_t pgid, unsigned int attr,
				const void *uattr, size_t size,
				unsigned int flags)
{
	return hg_syscall(__NR_hgroup_set_attr, pgid, attr, (long)uattr, size,
			  flags);
}

static long sys_hgroup_get_attr(pid_t pgid, unsigned int attr, void *uattr,
				size_t size, unsigned int flags)
{
	return hg_syscall(__NR_hgroup_get_attr, pgid, attr, (long)uattr, size,
			  flags);
}

/* Errors: "hgctl: <what>: <ERRNO NAME> (<explanation>)". */

#define ERRNAME(e) { e, #e }
static const struct {
	int err;
	const char *name;
} errnames[] = {
	ERRNAME(EPERM), ERRNAME(ENOENT), ERRNAME(ESRCH), ERRNAME(EINTR),
	ERRNAME(ENOEXEC), ERRNAME(E2BIG), ERRNAME(ECHILD), ERRNAME(EAGAIN),
	ERRNAME(ENOMEM), ERRNAME(EACCES), ERRNAME(EFAULT), ERRNAME(EBUSY),
	ERRNAME(EINVAL), ERRNAME(ENOSPC), { ENOHGROUPS, "ENOSYS" },
	ERRNAME(EOPNOTSUPP), ERRNAME(ETIMEDOUT),
};

struct hint {
	int err;
	const char *text;
};

/* What the errnos of hgroup_set_attr() and hgroup_get_attr() mean. */
static const struct hint attr_hints[] = {
	{ EINVAL, "invalid value, flag or scope" },
	{ E2BIG, "structure larger than the kernel's" },
	{ ESRCH, "no such process group" },
	{ EPERM, "not the group's owner and no CAP_SYS_ADMIN" },
	{ EACCES,
	  "would lift beyond what the caller's group or a group above allows" },
	{ ENOSPC, "device rule buffer too small" },
	{ EOPNOTSUPP, "not supported by this kernel" },
	{ ENOHGROUPS, "kernel without hgroups" },
	{ 0, NULL }
};

static const struct hint domain_hints[] = {
	{ EPERM, "not in domain 0 of its PID namespace, or leads a domain" },
	{ EBUSY,
	  "another process is in the session or process group, or shares the memory" },
	{ ENOHGROUPS, "kernel without hgroups" },
	{ 0, NULL }
};

static const char *errname(int err)
{
	static char buf[24];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnames); i++)
		if (errnames[i].err == err)
			return errnames[i].name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

static int vreport(int err, const char *text, const char *fmt, va_list ap)
{
	fputs("hgctl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, ": %s (%s)\n", errname(err), text ? text : strerror(err));
	return EXIT_FAIL;
}

/* Report @err with its meaning from @hints, else strerror(); returns 1. */
static int report(const struct hint *hints, int err, const char *fmt, ...)
{
	const char *text = NULL;
	va_list ap;
	int ret;

	for (; hints && hints->text && !text; hints++)
		if (hints->err == err)
			text = hints->text;
	va_start(ap, fmt);
	ret = vreport(err, text, fmt, ap);
	va_end(ap);
	return ret;
}

/* Report @err explained by @text; returns 1. */
static int report_text(int err, const char *text, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vreport(err, text, fmt, ap);
	va_end(ap);
	return ret;
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		fputs("hgctl: ENOMEM (out of memory)\n", stderr);
		exit(EXIT_FAIL);
	}
	return p;
}

/* A command-line error: report it as EINVAL, exit status 2. */
#define BAD_ARGS(...)	(report_text(EINVAL, __VA_ARGS__), EXIT_USAGE)

/* Arrays that grow by doubling: PUSH() returns the new last element. */
static void *grow(void *p, int n, size_t size)
{
	if (n & (n - 1))	/* the capacity is the next power of two */
		return p;
	return xrealloc(p, (n ? 2 * (size_t)n : 1) * size);
}

#define PUSH(arr, n) ({						\
	typeof(arr) *__pa = &(arr);					\
	typeof(n) *__pn = &(n);						\
	*__pa = grow(*__pa, *__pn, sizeof(**__pa));			\
	&(*__pa)[(*__pn)++];						\
})

/* CPU and memory-node sets. */

struct bitmap {
	unsigned long bits[MASK_BITS / LONG_BITS];
};

static bool bit_test(const struct bitmap *b, unsigned long n)
{
	return b->bits[n / LONG_BITS] >> (n % LONG_BITS) & 1;
}

/* Parse "0-2,5" into @b: 0, or -1 for a malformed or empty list. */
static int parse_list(const char *s, struct bitmap *b)
{
	unsigned long lo, hi;
	char *end;

	memset(b, 0, sizeof(*b));
	do {
		if (!isdigit((unsigned char)*s))
			return -1;
		lo = strtoul(s, &end, 10);
		hi = lo;
		if (*end == '-') {
			s = end + 1;
			if (!isdigit((unsigned char)*s))
				return -1;
			hi = strtoul(s, &end, 10);
		}
		if (lo > hi || hi >= MASK_BITS)
			return -1;
		for (; lo <= hi; lo++)
			b->bits[lo / LONG_BITS] |= 1UL << (lo % LONG_BITS);
		s = end;
	} while (*s++ == ',');
	return s[-1] ? -1 : 0;
}

static void print_list(const struct bitmap *b)
{
	unsigned long n = 0, lo;
	const char *sep = "";

	while (n < MASK_BITS) {
		if (!bit_test(b, n++))
			continue;
		lo = n - 1;
		while (n < MASK_BITS && bit_test(b, n))
			n++;
		printf(n - 1 > lo ? "%s%lu-%lu" : "%s%lu", sep, lo, n - 1);
		sep = ",";
	}
	if (!*sep)
		fputs("none", stdout);
}

/* Is @a a non-empty subset of @b? */
static bool bitmap_within(const struct bitmap *a, const struct bitmap *b)
{
	unsigned long any = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(a->bits); i++) {
		if (a->bits[i] & ~b->bits[i])
			return false;
		any |= a->bits[i];
	}
	return any;
}

/* Device rules, cgroup v1 style: "a", or "TYPE MAJOR:MINOR ACCESS". */

static int parse_devnum(const char *s, __u32 *num)
{
	unsigned long v;
	char *end;

	if (!strcmp(s, "*")) {
		*num = HGROUP_DEV_ANY;
		return 0;
	}
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v >= HGROUP_DEV_ANY)
		return -1;
	*num = v;
	return 0;
}

static int parse_rule(const char *s, struct hgroup_dev_rule *r)
{
	char buf[64], *tok[4], *colon, *save;
	const char *a;
	int n = 0;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -1;
	for (tok[0] = strtok_r(buf, " \t", &save); tok[n] && n < 3;)
		tok[++n] = strtok_r(NULL, " \t", &save);
	if (tok[n] || (n != 1 && n != 3) || strlen(tok[0]) != 1)
		return -1;
	switch (tok[0][0]) {
	case 'a':
		r->type = HGROUP_DEV_ALL;
		break;
	case 'b':
		r->type = HGROUP_DEV_BLOCK;
		break;
	case 'c':
		r->type = HGROUP_DEV_CHAR;
		break;
	default:
		return -1;
	}
	if (n == 1) {		/* "a": every device, every access */
		r->major = HGROUP_DEV_ANY;
		r->minor = HGROUP_DEV_ANY;
		r->access = HGROUP_DEV_ACC_ALL;
		return r->type == HGROUP_DEV_ALL ? 0 : -1;
	}
	colon = strchr(tok[1], ':');
	if (!colon)
		return -1;
	*colon = '\0';
	if (parse_devnum(tok[1], &r->major) || parse_devnum(colon + 1, &r->minor))
		return -1;
	r->access = 0;
	for (a = tok[2]; *a; a++) {
		if (*a == 'r')
			r->access |= HGROUP_DEV_READ;
		else if (*a == 'w')
			r->access |= HGROUP_DEV_WRITE;
		else if (*a == 'm')
			r->access |= HGROUP_DEV_MKNOD;
		else
			return -1;
	}
	return 0;
}

static const char *const freeze_names[] = {
	"none", "all", "new-pgrp", "all,new-pgrp"
};

static int parse_freeze(const char *s, __u32 *flags)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(freeze_names); i++) {
		if (!strcmp(s, freeze_names[i])) {
			*flags = i;	/* HGROUP_FREEZE_ALL is 1, _NEW_PGRP 2 */
			return 0;
		}
	}
	return -1;
}

static const char *freeze_name(__u32 flags)
{
	return flags < ARRAY_SIZE(freeze_names) ? freeze_names[flags] : "?";
}

/* --group: which of a domain's levels are scheduling groups. */
static const char *const group_names[] = {
	"none", "pgrp", "domain", "pgrp,domain"
};

static int parse_group(const char *s, __u32 *flags)
{
	size_t i;

	if (!strcmp(s, "domain,pgrp"))
		s = "pgrp,domain";
	for (i = 0; i < ARRAY_SIZE(group_names); i++) {
		if (!strcmp(s, group_names[i])) {
			/* HGROUP_SCHED_GROUP_PGRPS is 1, _DOMAINS 2 */
			*flags = i;
			return 0;
		}
	}
	return -1;
}

static const char *group_name(__u32 flags)
{
	return flags < ARRAY_SIZE(group_names) ? group_names[flags] : "?";
}

/* Attribute values, as given on the command line or read back. */

union attrval {
	struct hgroup_mask mask;
	struct hgroup_devices devs;
	struct hgroup_freeze fz;
	struct hgroup_tasks tasks;
	struct hgroup_sched sched;
	struct hgroup_cpu cpu;
	struct hgroup_mem mem;
	/* As given: which of the two limits to keep (see set_one()). */
	struct {
		struct hgroup_mem mem;
		unsigned int keep;
	} mem_opt;
};

#define MEM_KEEP_MAX	1
#define MEM_KEEP_SOFT	2

/*
 * hgctl's name for a process group's CPU budget, after the kernel's
 * numbers: HGROUP_ATTR_CPU without HGROUP_SCOPE_DOMAIN (with it, the
 * domain's CPU limits).
 */
#define ATTR_BUDGET	(HGROUP_ATTR_MEM + 1)

static const struct {
	const char *name;
	size_t size;
} attrs[] = {
	[HGROUP_ATTR_CPUS] = { "cpus", sizeof(struct hgroup_mask) },
	[HGROUP_ATTR_MEMS] = { "mems", sizeof(struct hgroup_mask) },
	[HGROUP_ATTR_DEVICES] = { "devices", sizeof(struct hgroup_devices) },
	[HGROUP_ATTR_FREEZE] = { "freeze", sizeof(struct hgroup_freeze) },
	[HGROUP_ATTR_TASKS] = { "tasks", sizeof(struct hgroup_tasks) },
	[HGROUP_ATTR_SCHED] = { "group", sizeof(struct hgroup_sched) },
	[HGROUP_ATTR_CPU] = { "cpu", sizeof(struct hgroup_cpu) },
	[HGROUP_ATTR_MEM] = { "mem", sizeof(struct hgroup_mem) },
	[ATTR_BUDGET] = { "budget", sizeof(struct hgroup_cpu) },
};

/* The attribute and flags hgroup_*_attr() take for @attr (ATTR_BUDGET). */
static unsigned int sys_attr(unsigned int attr)
{
	return attr == ATTR_BUDGET ? HGROUP_ATTR_CPU : attr;
}

/* Kinds that are the domain's, named with HGROUP_SCOPE_DOMAIN. */
#define DOMAIN_ATTRS	(BIT(HGROUP_ATTR_TASKS) | BIT(HGROUP_ATTR_SCHED) | \
			 BIT(HGROUP_ATTR_CPU) | BIT(HGROUP_ATTR_MEM))

/* The kinds in the order hgctl sets, checks and shows them. */
static const unsigned int attr_order[] = {
	HGROUP_ATTR_CPUS, HGROUP_ATTR_MEMS, HGROUP_ATTR_DEVICES,
	HGROUP_ATTR_FREEZE, HGROUP_ATTR_TASKS, HGROUP_ATTR_SCHED,
	HGROUP_ATTR_CPU, ATTR_BUDGET, HGROUP_ATTR_MEM,
};

/* --weight-max and --cpu-max, of the domain or of a budget. */
struct cpu_opt {
	__u32 weight_max;	/* 0: not given */
	__u64 quota_us, period_us;	/* period 0: --cpu-max not given */
};

struct opts {
	unsigned int have;	/* BIT(HGROUP_ATTR_*) of the options given */
	unsigned int scope;	/* --domain: HGROUP_SCOPE_DOMAIN */
	bool wait, recursive;
	int policy;		/* --device-policy, -1 if not given */
	struct bitmap cpus, mems;
	__u32 nr_rules;
	struct hgroup_dev_rule rules[HGROUP_DEV_MAX_RULES];
	__u32 freeze;
	__u64 tasks_max;
	__u64 mem_max, mem_soft;
	unsigned int mem_given;	/* MEM_KEEP_* of the limits given */
	__u32 group;
	struct cpu_opt cpu, budget;
};

struct reading {
	union attrval v;
	struct bitmap mask;
	struct hgroup_dev_rule rules[HGROUP_DEV_MAX_RULES];
};

/* Fill @v from the options, for hgroup_set_attr(). */
static void opt_value(const struct opts *o, unsigned int attr,
		      union attrval *v)
{
	memset(v, 0, sizeof(*v));
	switch (attr) {
	case HGROUP_ATTR_CPUS:
	case HGROUP_ATTR_MEMS:
		v->mask.mask = (uintptr_t)(attr == HGROUP_ATTR_CPUS ?
					   o->cpus.bits : o->mems.bits);
		v->mask.mask_size = sizeof(o->cpus.bits);
		break;
	case HGROUP_ATTR_DEVICES:
		v->devs.policy = o->policy;
		v->devs.nr_rules = o->nr_rules;
		v->devs.rules = (uintptr_t)o->rules;
		break;
	case HGROUP_ATTR_FREEZE:
		v->fz.flags = o->freeze;
		break;
	case HGROUP_ATTR_TASKS:
		v->tasks.max = o->tasks_max;
		break;
	case HGROUP_ATTR_MEM:
		v->mem.max = o->mem_max;
		v->mem.soft = o->mem_soft;
		v->mem_opt.keep = (MEM_KEEP_MAX | MEM_KEEP_SOFT) & ~o->mem_given;
		break;
	case HGROUP_ATTR_SCHED:
		v->sched.flags = o->group;
		break;
	case HGROUP_ATTR_CPU:
	case ATTR_BUDGET: {
		const struct cpu_opt *c = attr == ATTR_BUDGET ? &o->budget :
							       &o->cpu;

		/* What is not given (0) is kept: see set_one(). */
		v->cpu.weight_max = c->weight_max;
		v->cpu.quota_us = c->quota_us;
		v->cpu.period_us = c->period_us;
		break;
	}
	}
}

/*
 * Read @attr of group @pgid (its domain's, for tasks): 0 or an errno.
 * Group 0 is one outside the namespace here, never the caller's own.
 */
static int read_attr(pid_t pgid, unsigned int attr, struct reading *r)
{
	unsigned int flags = 0;

	memset(&r->v, 0, sizeof(r->v));
	if (!pgid) {
		errno = ESRCH;
		return errno;
	}
	if (attr == HGROUP_ATTR_CPUS || attr == HGROUP_ATTR_MEMS) {
		r->v.mask.mask = (uintptr_t)r->mask.bits;
		r->v.mask.mask_size = sizeof(r->mask.bits);
	} else if (attr == HGROUP_ATTR_DEVICES) {
		r->v.devs.nr_rules = HGROUP_DEV_MAX_RULES;
		r->v.devs.rules = (uintptr_t)r->rules;
	} else if (DOMAIN_ATTRS & BIT(attr)) {
		flags = HGROUP_SCOPE_DOMAIN;
	}
	if (sys_hgroup_get_attr(pgid, sys_attr(attr), &r->v, attrs[attr].size,
				flags))
		return errno;
	return 0;
}

/* A memory limit as the kernel keeps it, in whole pages. */
static __u64 mem_pages(__u64 bytes)
{
	return bytes == HGROUP_MEM_UNLIMITED ? bytes : bytes & ~4095ULL;
}

/* Does what was read back match what the options asked for? */
static bool attr_matches(const struct opts *o, unsigned int attr,
			 const struct reading *r)
{
	switch (attr) {
	case HGROUP_ATTR_CPUS:
		return bitmap_within(&r->mask, &o->cpus);
	case HGROUP_ATTR_MEMS:
		return bitmap_within(&r->mask, &o->mems);
	case HGROUP_ATTR_DEVICES:
		return r->v.devs.policy == (__u32)o->policy &&
		       r->v.devs.nr_rules == o->nr_rules &&
		       !memcmp(r->rules, o->rules,
			       o->nr_rules * sizeof(o->rules[0]));
	case HGROUP_ATTR_FREEZE:
		return r->v.fz.flags == o->freeze;
	case HGROUP_ATTR_TASKS:
		return r->v.tasks.max == o->tasks_max;
	case HGROUP_ATTR_MEM:
		/* The kernel keeps whole pages. */
		return (!(o->mem_given & MEM_KEEP_MAX) ||
			r->v.mem.max == mem_pages(o->mem_max)) &&
		       (!(o->mem_given & MEM_KEEP_SOFT) ||
			r->v.mem.soft == mem_pages(o->mem_soft));
	case HGROUP_ATTR_SCHED:
		return r->v.sched.flags == o->group;
	case HGROUP_ATTR_CPU:
	case ATTR_BUDGET: {
		const struct cpu_opt *c = attr == ATTR_BUDGET ? &o->budget :
							       &o->cpu;

		return (!c->weight_max ||
			r->v.cpu.weight_max == c->weight_max) &&
		       (!c->period_us || (r->v.cpu.quota_us == c->quota_us &&
					  r->v.cpu.period_us == c->period_us));
	}
	}
	return false;
}

/* The processes of the caller's PID namespace, from /proc. */

struct proc {
	pid_t pid, ppid, pgrp, sid;
	long dom;		/* -1: /proc shows no domain */
	char comm[64];
};

struct group {
	pid_t pgid, sid;	/* pgid 0: the group is outside the namespace */
	int first, nr;		/* members: order[first] ... */
};

struct domain {
	long id;
	int first, nr;		/* process groups: groups[first] ... */
	pid_t handle;		/* a group that names the domain, or 0 */
	bool has_leader;	/* handle is the leader group */
};

struct scan {
	struct proc *procs;	/* by pid */
	int *order;		/* procs by domain, process group, pid */
	struct group *groups;
	struct domain *doms;
	int nprocs, ngroups, ndoms;
	bool no_domain;		/* some process had no Domain: line */
};

/* The Domain: of a /proc/PID/status file, -1 if none. */
static long read_domain(const char *status)
{
	char line[256];
	long dom = -1;
	FILE *f;

	f = fopen(status, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Domain:", 7))
			dom = strtol(line + 7, NULL, 10);
	fclose(f);
	return dom;
}

/* 0, or -1 if @pid is gone or a kernel thread. */
static int read_proc(pid_t pid, struct proc *p)
{
	char path[64], buf[512], *open, *close;
	unsigned int flags;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return -1;
	*close = '\0';
	snprintf(p->comm, sizeof(p->comm), "%s", open + 1);
	p->pid = pid;
	if (sscanf(close + 1, " %*c %d %d %d %*d %*d %u", &p->ppid, &p->pgrp,
		   &p->sid, &flags) != 4 || flags & PF_KTHREAD)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	p->dom = read_domain(path);
	return 0;
}

static long dom_key(long id)
{
	return id < 0 ? LONG_MAX : id;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct proc *p = a, *q = b;

	return (p->pid > q->pid) - (p->pid < q->pid);
}

static int cmp_order(const void *a, const void *b, void *arg)
{
	const struct proc *procs = arg;
	const struct proc *p = &procs[*(const int *)a];
	const struct proc *q = &procs[*(const int *)b];

	if (p->dom != q->dom)
		return dom_key(p->dom) < dom_key(q->dom) ? -1 : 1;
	if (p->pgrp != q->pgrp)
		return p->pgrp < q->pgrp ? -1 : 1;
	return (p->pid > q->pid) - (p->pid < q->pid);
}

/* Sort the processes into domains and process groups. */
static void scan_index(struct scan *s)
{
	struct domain *d = NULL;
	struct group *g = NULL;
	int i;

	s->order = xrealloc(NULL, (s->nprocs + 1) * sizeof(int));
	for (i = 0; i < s->nprocs; i++)
		s->order[i] = i;
	qsort_r(s->order, s->nprocs, sizeof(int), cmp_order, s->procs);
	for (i = 0; i < s->nprocs; i++) {
		const struct proc *p = &s->procs[s->order[i]];

		if (!d || d->id != p->dom) {
			d = PUSH(s->doms, s->ndoms);
			*d = (struct domain){ p->dom, s->ngroups, 0, 0, false };
			g = NULL;
		}
		if (!g || g->pgid != p->pgrp) {
			g = PUSH(s->groups, s->ngroups);
			*g = (struct group){ p->pgrp, p->sid, i, 0 };
			d->nr++;
			d->has_leader |= p->pgrp && p->pgrp == d->id;
			if (!d->handle || (p->pgrp && p->pgrp == d->id))
				d->handle = p->pgrp;
		}
		g->nr++;
	}
}

static int scan(struct scan *s)
{
	struct dirent *de;
	struct proc p;
	char *end;
	DIR *dir;
	long pid;

	memset(s, 0, sizeof(*s));
	dir = opendir("/proc");
	if (!dir)
		return report(NULL, errno, "/proc");
	while ((de = readdir(dir))) {
		pid = strtol(de->d_name, &end, 10);
		if (!isdigit((unsigned char)de->d_name[0]) || *end)
			continue;
		if (read_proc(pid, &p))
			continue;
		if (p.dom < 0)
			s->no_domain = true;
		*PUSH(s->procs, s->nprocs) = p;
	}
	closedir(dir);
	if (s->procs)
		qsort(s->procs, s->nprocs, sizeof(*s->procs), cmp_pid);
	scan_index(s);
	return 0;
}

static void scan_free(struct scan *s)
{
	free(s->procs);
	free(s->order);
	free(s->groups);
	free(s->doms);
}

static const struct proc *find_proc(const struct scan *s, pid_t pid)
{
	struct proc key = { .pid = pid };

	if (!s->procs)
		return NULL;
	return bsearch(&key, s->procs, s->nprocs, sizeof(key), cmp_pid);
}

static const struct domain *find_dom(const struct scan *s, long id)
{
	int i;

	for (i = 0; i < s->ndoms; i++)
		if (s->doms[i].id == id)
			return &s->doms[i];
	return NULL;
}

/*
 * The domain above @d: that of the first ancestor, by parent pid, of one
 * of its processes that is not in @d itself; -1 if none is visible.
 */
static long domain_parent(const struct scan *s, const struct domain *d)
{
	const struct proc *p;
	int steps = 0;

	p = &s->procs[s->order[s->groups[d->first].first]];
	while (p && p->dom == d->id && steps++ < s->nprocs)
		p = find_proc(s, p->ppid);
	return p && p->dom != d->id ? p->dom : -1;
}

/* How many levels domain @id is below domain @top (> 0), or -1. */
static int domain_depth(const struct scan *s, long id, long top)
{
	const struct domain *d;
	int depth;

	for (depth = 0; depth <= MAX_DEPTH; depth++) {
		if (id == top)
			return depth;
		d = id > 0 ? find_dom(s, id) : NULL;
		if (!d)
			return -1;
		id = domain_parent(s, d);
	}
	return -1;
}

/* Changing restrictions. */

struct target {
	const char *label;		/* for messages, e.g. "set 123" */
	pid_t pgid;			/* the group, when dom is NULL */
	const struct scan *s;		/* else the domain, named by */
	const struct domain *dom;	/* any of its groups still there */
};

static int set_one(pid_t pgid, unsigned int attr, const union attrval *v,
		   unsigned int flags)
{
	unsigned int a = sys_attr(attr);
	union attrval cur;

	/* The CPU limits are set whole: keep those not given. */
	if (a == HGROUP_ATTR_CPU &&
	    (!v->cpu.weight_max || !v->cpu.period_us)) {
		memset(&cur, 0, sizeof(cur));
		if (sys_hgroup_get_attr(pgid, a, &cur, attrs[attr].size, flags))
			return errno;
		if (v->cpu.weight_max)
			cur.cpu.weight_max = v->cpu.weight_max;
		if (v->cpu.period_us) {
			cur.cpu.quota_us = v->cpu.quota_us;
			cur.cpu.period_us = v->cpu.period_us;
		}
		/* Output fields are zero on input. */
		cur.cpu.usage_us = 0;
		cur.cpu.nr_periods = 0;
		cur.cpu.nr_throttled = 0;
		cur.cpu.throttled_us = 0;
		v = &cur;
	}
	/* The memory limits too: keep the one not given. */
	if (a == HGROUP_ATTR_MEM && v->mem_opt.keep) {
		memset(&cur, 0, sizeof(cur));
		if (sys_hgroup_get_attr(pgid, a, &cur, attrs[attr].size, flags))
			return errno;
		if (!(v->mem_opt.keep & MEM_KEEP_MAX))
			cur.mem.max = v->mem.max;
		if (!(v->mem_opt.keep & MEM_KEEP_SOFT))
			cur.mem.soft = v->mem.soft;
		/* Output fields are zero on input. */
		cur.mem.usage = 0;
		cur.mem.peak = 0;
		memset(&cur.mem.local, 0, sizeof(cur.mem.local));
		memset(&cur.mem.subtree, 0, sizeof(cur.mem.subtree));
		v = &cur;
	}
	if (sys_hgroup_set_attr(pgid, a, v, attrs[attr].size, flags))
		return errno;
	return 0;
}

/* Set @attr of the target: 0 or an errno. */
static int target_set(const struct target *t, unsigned int attr,
		      const union attrval *v, unsigned int flags)
{
	const struct group *g;
	int i, err;

	if (!t->dom)
		return set_one(t->pgid, attr, v, flags);
	err = t->dom->handle ? set_one(t->dom->handle, attr, v, flags) : ESRCH;
	/* The group that names the domain is gone meanwhile: try others. */
	for (i = 0; err == ESRCH && i < t->dom->nr; i++) {
		g = &t->s->groups[t->dom->first + i];
		if (g->pgid)
			err = set_one(g->pgid, attr, v, flags);
	}
	return err;
}

/*
 * One hgroup_set_attr() for each attribute in @have; the task limit is
 * always set on the domain.
 */
static int set_opts(const struct target *t, const struct opts *o,
		    unsigned int have, unsigned int flags)
{
	union attrval v;
	unsigned int attr, f, i;
	int err;

	for (i = 0; i < ARRAY_SIZE(attr_order); i++) {
		attr = attr_order[i];
		if (!(have & BIT(attr)))
			continue;
		opt_value(o, attr, &v);
		/* A budget is one process group's: never the scope. */
		f = DOMAIN_ATTRS & BIT(attr) ? HGROUP_SCOPE_DOMAIN :
		    attr == ATTR_BUDGET ? 0 : flags;
		err = target_set(t, attr, &v, f);
		if (err)
			return report(attr_hints, err, "%s %s", t->label,
				      attrs[attr].name);
	}
	return 0;
}

static int parse_id(const char *cmd, const char *s, long min, long *id)
{
	char *end;

	errno = 0;
	*id = strtol(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end || errno || *id < min ||
	    *id > INT_MAX)
		return BAD_ARGS("not a process id", "%s: '%s'", cmd, s);
	return 0;
}

/* hgctl run */

static pid_t run_child;

static void forward_signal(int sig)
{
	if (kill(-run_child, sig) < 0)
		kill(run_child, sig);
}

/*
 * A soft limit is protection at others' cost, lifting from the new
 * domain's own point of view: hgctl sets it from outside, as the
 * caller, once the child has made its domain.  What the child sets on
 * itself is the rest.
 */
static void run_split_soft(const struct opts *o, struct opts *own,
			   struct opts *outside)
{
	*own = *o;
	memset(outside, 0, sizeof(*outside));
	if (!(o->mem_given & MEM_KEEP_SOFT))
		return;
	own->mem_given &= ~MEM_KEEP_SOFT;
	if (!own->mem_given)
		own->have &= ~BIT(HGROUP_ATTR_MEM);
	outside->have = BIT(HGROUP_ATTR_MEM);
	outside->mem_given = MEM_KEEP_SOFT;
	outside->mem_soft = o->mem_soft;
}

static int run_setup(const struct opts *o)
{
	const struct target own = { .label = "run", .pgid = 0 };

	if (setsid() < 0)
		return report(NULL, errno, "run: setsid");
	if (sys_set_domainid(0) < 0)
		return report(domain_hints, errno, "run: set_domainid");
	/*
	 * Restricting oneself without privilege needs no_new_privs, as
	 * for Landlock: the command then gains none by exec.
	 */
	if (o->have && geteuid() && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return report(NULL, errno, "run: no_new_privs");
	return set_opts(&own, o, o->have, 0);
}

static int cmd_run(int argc, char **argv, struct opts *o)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM };
	struct sigaction sa = { .sa_handler = forward_signal }, old;
	struct opts *own = calloc(2, sizeof(*own)), *outside = own + 1;
	int status, ready[2] = { -1, -1 }, go[2] = { -1, -1 };
	char c = 0;
	size_t i;

	if (argc < 1)
		return BAD_ARGS("missing command", "run");
	if (!own)
		return report(NULL, ENOMEM, "run");
	run_split_soft(o, own, outside);
	/* Closed on exec: the command inherits neither end. */
	if (outside->have &&
	    (pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC))) {
		free(own);
		return report(NULL, errno, "run: pipe");
	}
	fflush(NULL);
	run_child = fork();
	if (run_child < 0) {
		free(own);
		return report(NULL, errno, "run: fork");
	}
	if (!run_child) {
		if (!run_setup(own)) {
			/* Then wait for what is set from outside. */
			if (outside->have) {
				close(ready[0]);
				close(go[1]);
				if (write(ready[1], &c, 1) != 1 ||
				    read(go[0], &c, 1) != 1 || c)
					_exit(EXIT_SETUP);
			}
			execvp(argv[0], argv);
			report(NULL, errno, "run: exec %s", argv[0]);
		}
		_exit(EXIT_SETUP);
	}
	if (outside->have) {
		const struct target child = { .label = "run", .pgid = run_child };

		/* A child dead after its part must not kill hgctl on write. */
		signal(SIGPIPE, SIG_IGN);
		close(ready[1]);
		close(go[0]);
		/* Nothing to read: the child failed its own part. */
		if (read(ready[0], &c, 1) == 1) {
			c = !!set_opts(&child, outside, outside->have, 0);
			if (write(go[1], &c, 1) != 1)
				c = 1;
		}
		close(ready[0]);
		close(go[1]);
	}
	free(own);
	/* The child has a session of its own: pass the terminal's signals. */
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	while (waitpid(run_child, &status, 0) < 0)
		if (errno != EINTR)
			return report(NULL, errno, "run: waitpid");
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* hgctl show */

/* Remember the first error that is not a group vanishing meanwhile. */
static void note_err(int *note, int err)
{
	if (err != ESRCH && !*note)
		*note = err;
}

/* CPU limits as the options name them, and the usage as @usage. */
static void print_cpu(const char *prefix, const char *usage,
		      const struct hgroup_cpu *cpu)
{
	printf(" %sweight-max=%u %scpu-max=", prefix, cpu->weight_max, prefix);
	if (cpu->quota_us == HGROUP_CPU_UNLIMITED)
		printf("max");
	else
		printf("%llu", (unsigned long long)cpu->quota_us);
	printf("/%llu %s=%lluus throttled=%llu",
	       (unsigned long long)cpu->period_us, usage,
	       (unsigned long long)cpu->usage_us,
	       (unsigned long long)cpu->nr_throttled);
}

/* A size in bytes, in the largest of G, M and K that divides it. */
static void print_size(const char *name, unsigned long long n)
{
	static const char units[] = "GMK";
	int i;

	for (i = 0; n && i < 3; i++)
		if (!(n & ((1ULL << (10 * (3 - i))) - 1))) {
			printf(" %s=%llu%c", name, n >> (10 * (3 - i)),
			       units[i]);
			return;
		}
	printf(" %s=%llu", name, n);
}

static void show_attr(pid_t pgid, unsigned int attr, int *note)
{
	static struct reading r;
	int err = read_attr(pgid, attr, &r);

	if (err == EOPNOTSUPP)
		return;
	note_err(note, err);
	if (attr == HGROUP_ATTR_FREEZE) {
		printf(" freeze=%s state=%s",
		       err ? "?" : freeze_name(r.v.fz.flags), err ? "?" :
		       r.v.fz.state & HGROUP_STATE_FROZEN ? "frozen" : "running");
	} else if (attr == HGROUP_ATTR_TASKS) {
		if (err)
			printf(" tasks=? tasks-max=?");
		else if (r.v.tasks.max == HGROUP_TASKS_UNLIMITED)
			printf(" tasks=%llu tasks-max=max",
			       (unsigned long long)r.v.tasks.nr_tasks);
		else
			printf(" tasks=%llu tasks-max=%llu",
			       (unsigned long long)r.v.tasks.nr_tasks,
			       (unsigned long long)r.v.tasks.max);
	} else if (attr == HGROUP_ATTR_SCHED) {
		printf(" group=%s", err ? "?" : group_name(r.v.sched.flags));
	} else if (attr == HGROUP_ATTR_MEM) {
		if (err) {
			printf(" mem=? mem-max=? mem-soft=? mem-peak=?");
			return;
		}
		print_size("mem", r.v.mem.usage);
		if (r.v.mem.max == HGROUP_MEM_UNLIMITED)
			printf(" mem-max=max");
		else
			print_size("mem-max", r.v.mem.max);
		if (r.v.mem.soft == HGROUP_MEM_UNLIMITED)
			printf(" mem-soft=max");
		else
			print_size("mem-soft", r.v.mem.soft);
		print_size("mem-peak", r.v.mem.peak);
		printf(" oom-kills=%llu",
		       (unsigned long long)r.v.mem.local.oom_kill);
	} else if (attr == ATTR_BUDGET) {
		if (err) {
			printf(" budget=?");
			return;
		}
		/* No budget reads as the largest bound and no quota. */
		if (r.v.cpu.weight_max == 10000 &&
		    r.v.cpu.quota_us == HGROUP_CPU_UNLIMITED &&
		    r.v.cpu.period_us == 100000)
			return;
		print_cpu("budget-", "budget-usage", &r.v.cpu);
	} else if (attr == HGROUP_ATTR_CPU) {
		if (err) {
			printf(" weight-max=? cpu-max=?");
			return;
		}
		print_cpu("", "cpu-usage", &r.v.cpu);
	} else if (err) {
		printf(" %s=?", attrs[attr].name);
	} else if (attr == HGROUP_ATTR_DEVICES) {
		printf(" devices=%s(%u rules)",
		       r.v.devs.policy == HGROUP_DEV_POLICY_DENY ?
		       "deny" : "allow", r.v.devs.nr_rules);
	} else {
		printf(" %s=", attrs[attr].name);
		print_list(&r.mask);
	}
}

static void show_domain(const struct scan *s, const struct domain *d,
			int *note)
{
	unsigned int k;
	int i, j;

	if (d->id < 0)
		printf("domain ?");
	else
		printf("domain %ld", d->id);
	show_attr(d->handle, HGROUP_ATTR_TASKS, note);
	show_attr(d->handle, HGROUP_ATTR_SCHED, note);
	show_attr(d->handle, HGROUP_ATTR_CPU, note);
	show_attr(d->handle, HGROUP_ATTR_MEM, note);
	putchar('\n');
	for (i = d->first; i < d->first + d->nr; i++) {
		const struct group *g = &s->groups[i];

		printf("  pgrp %d session=%d%s", g->pgid, g->sid,
		       !g->pgid ? " [outside]" :
		       g->pgid == d->id ? " [leader]" : "");
		for (k = 0; g->pgid && k < ARRAY_SIZE(attr_order); k++)
			if (!(DOMAIN_ATTRS & BIT(attr_order[k])))
				show_attr(g->pgid, attr_order[k], note);
		putchar('\n');
		for (j = g->first; j < g->first + g->nr; j++) {
			const struct proc *p = &s->procs[s->order[j]];

			printf("    pid %d %s\n", p->pid, p->comm);
		}
	}
}

static int cmd_show(int argc, char **argv, struct opts *o)
{
	const struct proc *p = NULL;
	struct scan s;
	int i, note = 0;
	long id = 0;

	(void)o;
	if (argc > 1)
		return BAD_ARGS("at most one PID or PGID", "show");
	if (argc == 1 && parse_id("show", argv[0], 1, &id))
		return EXIT_USAGE;
	if (scan(&s))
		return EXIT_FAIL;
	p = find_proc(&s, id);
	for (i = 0; argc && !p && i < s.nprocs; i++)
		if (s.procs[i].pgrp == id)
			p = &s.procs[i];
	if (argc && !p) {
		scan_free(&s);
		return report(NULL, ESRCH, "show %ld", id);
	}
	for (i = 0; i < s.ndoms; i++)
		if (!argc || s.doms[i].id == p->dom)
			show_domain(&s, &s.doms[i], &note);
	fflush(stdout);
	if (s.no_domain)
		report_text(ENOHGROUPS, "no Domain: line in /proc/PID/status",
			    "show: domains shown as ?");
	if (note)
		report(attr_hints, note, "show: attributes shown as ?");
	scan_free(&s);
	return 0;
}

/* hgctl set, freeze, thaw */

static int cmd_set(int argc, char **argv, struct opts *o)
{
	struct target t = { .label = "set" };
	char label[32];
	long id;

	if (argc != 1)
		return BAD_ARGS("expected one PGID", "set");
	if (parse_id("set", argv[0], 1, &id))
		return EXIT_USAGE;
	if (!o->have)
		return BAD_ARGS("nothing to set", "set %ld", id);
	if (o->scope && o->have & BIT(ATTR_BUDGET))
		return BAD_ARGS("a budget is one process group's: no --domain",
				"set %ld", id);
	snprintf(label, sizeof(label), "set %ld", id);
	t.label = label;
	t.pgid = id;
	return set_opts(&t, o, o->have, o->scope);
}

static int wait_frozen(pid_t pgid)
{
	const struct timespec step = { 0, WAIT_STEP_MS * 1000000L };
	struct reading r;
	int ms, err;

	for (ms = 0; ; ms += WAIT_STEP_MS) {
		err = read_attr(pgid, HGROUP_ATTR_FREEZE, &r);
		if (err)
			return report(attr_hints, err, "freeze %d: wait", pgid);
		if (r.v.fz.state & HGROUP_STATE_FROZEN)
			return 0;
		if (ms >= WAIT_MAX_MS)
			return report_text(ETIMEDOUT, "not frozen after 60 s",
					   "freeze %d: wait", pgid);
		nanosleep(&step, NULL);
	}
}

static int freeze_thaw(int argc, char **argv, const struct opts *o,
		       bool freeze)
{
	const char *cmd = freeze ? "freeze" : "thaw";
	union attrval v = { 0 };
	struct reading r;
	long id;
	int err;

	if (argc != 1)
		return BAD_ARGS("expected one PGID", "%s", cmd);
	if (parse_id(cmd, argv[0], 1, &id))
		return EXIT_USAGE;
	err = read_attr(id, HGROUP_ATTR_FREEZE, &r);
	if (!err) {
		v.fz.flags = freeze ? r.v.fz.flags | HGROUP_FREEZE_ALL :
				      r.v.fz.flags & ~HGROUP_FREEZE_ALL;
		err = target_set(&(struct target){ .pgid = id },
				 HGROUP_ATTR_FREEZE, &v, 0);
	}
	if (err)
		return report(attr_hints, err, "%s %ld", cmd, id);
	return freeze && o->wait ? wait_frozen(id) : 0;
}

static int cmd_freeze(int argc, char **argv, struct opts *o)
{
	return freeze_thaw(argc, argv, o, true);
}

static int cmd_thaw(int argc, char **argv, struct opts *o)
{
	return freeze_thaw(argc, argv, o, false);
}

/*
 * hgctl apply --recursive: block the creation of process groups in the
 * domain and its sub-domains (HGROUP_FREEZE_NEW_PGRP) top-down until no
 * group is left unblocked, set the restrictions on each domain at once,
 * lift the block top-down, and read everything back.
 */

struct saved {
	pid_t pgid;
	__u32 flags;		/* the freeze setting to restore */
};

struct blocked {
	long id;
	int depth;
	bool scoped;		/* blocked, and to be lifted, domain-wide */
};

struct apply {
	long top;
	struct saved *saved;
	struct blocked *blocked;
	int nsaved, nblocked;
};

struct sub {
	const struct domain *d;
	int depth;
};

static int cmp_depth(const void *a, const void *b)
{
	const struct sub *p = a, *q = b;

	return p->depth - q->depth;
}

/* The domains from @top down, top-down; the caller frees *@out. */
static int subtree(const struct scan *s, long top, struct sub **out)
{
	struct sub *sub = NULL;
	int i, n = 0, depth;

	for (i = 0; i < s->ndoms; i++) {
		depth = domain_depth(s, s->doms[i].id, top);
		if (depth >= 0)
			*PUSH(sub, n) = (struct sub){ &s->doms[i], depth };
	}
	if (sub)
		qsort(sub, n, sizeof(*sub), cmp_depth);
	*out = sub;
	return n;
}

static struct saved *find_saved(const struct apply *a, pid_t pgid)
{
	int i;

	for (i = 0; i < a->nsaved; i++)
		if (a->saved[i].pgid == pgid)
			return &a->saved[i];
	return NULL;
}

static struct blocked *find_blocked(const struct apply *a, long id)
{
	int i;

	for (i = 0; i < a->nblocked; i++)
		if (a->blocked[i].id == id)
			return &a->blocked[i];
	return NULL;
}

static int set_freeze(const struct target *t, __u32 flags,
		      unsigned int scope)
{
	union attrval v = { .fz.flags = flags };
	int err = target_set(t, HGROUP_ATTR_FREEZE, &v, scope);

	if (err == ESRCH && !t->dom)
		return 0;	/* the group is gone: nothing to do */
	return err ? report(attr_hints, err, "%s freeze", t->label) : 0;
}

/*
 * Block domain @d: with one domain-wide call when no group has a freeze
 * setting to keep, else group by group in block_group().
 */
static int block_domain(const struct scan *s, const struct domain *d,
			int depth, struct apply *a)
{
	char label[40];
	struct target t = { .label = label, .s = s, .dom = d };
	bool scoped = true;
	struct reading r;
	int i, err;

	snprintf(label, sizeof(label), "apply: domain %ld", d->id);
	for (i = 0; i < d->nr && scoped; i++) {
		err = read_attr(s->groups[d->first + i].pgid,
				HGROUP_ATTR_FREEZE, &r);
		if (err && err != ESRCH)
			return report(attr_hints, err, "apply: pgrp %d freeze",
				      s->groups[d->first + i].pgid);
		scoped = err || !r.v.fz.flags;
	}
	if (scoped && set_freeze(&t, HGROUP_FREEZE_NEW_PGRP,
				 HGROUP_SCOPE_DOMAIN))
		return EXIT_FAIL;
	*PUSH(a->blocked, a->nblocked) = (struct blocked){ d->id, depth,
							   scoped };
	return 0;
}

/* Remember the freeze setting of @pgid and block it, if not done yet. */
static int block_group(pid_t pgid, bool scoped, struct apply *a,
		       int *changed)
{
	char label[40];
	struct target t = { .label = label, .pgid = pgid };
	struct saved *sv;
	struct reading r;
	__u32 flags;
	int err;

	if (find_saved(a, pgid))
		return 0;
	snprintf(label, sizeof(label), "apply: pgrp %d", pgid);
	err = read_attr(pgid, HGROUP_ATTR_FREEZE, &r);
	if (err == ESRCH)
		return 0;
	if (err)
		return report(attr_hints, err, "%s freeze", label);
	flags = r.v.fz.flags;
	sv = PUSH(a->saved, a->nsaved);
	sv->pgid = pgid;
	sv->flags = scoped ? flags & ~HGROUP_FREEZE_NEW_PGRP : flags;
	if (flags & HGROUP_FREEZE_NEW_PGRP)
		return 0;
	(*changed)++;
	return set_freeze(&t, flags | HGROUP_FREEZE_NEW_PGRP, 0);
}

static int block_pass(const struct scan *s, struct apply *a, int *changed)
{
	const struct blocked *b;
	struct sub *sub;
	int n, i, j, ret = 0;
	bool scoped;

	n = subtree(s, a->top, &sub);
	for (i = 0; i < n && !ret; i++) {
		const struct domain *d = sub[i].d;

		b = find_blocked(a, d->id);
		if (!b) {
			ret = block_domain(s, d, sub[i].depth, a);
			if (ret)
				break;
			b = &a->blocked[a->nblocked - 1];
			(*changed)++;
		}
		scoped = b->scoped;
		for (j = 0; j < d->nr && !ret; j++)
			ret = block_group(s->groups[d->first + j].pgid, scoped,
					  a, changed);
	}
	free(sub);
	return ret;
}

static int cmp_blocked(const void *a, const void *b)
{
	const struct blocked *p = a, *q = b;

	return p->depth - q->depth;
}

/*
 * Lift the block top-down, in a domain the leader group first: to the
 * --freeze setting if given and @done, else to the setting saved.
 */
static int lift(const struct scan *s, const struct opts *o, struct apply *a,
		bool done)
{
	bool want = done && (o->have & BIT(HGROUP_ATTR_FREEZE));
	const struct saved *sv;
	struct reading r;
	int i, j, ret = 0;
	char label[40];

	if (a->blocked)
		qsort(a->blocked, a->nblocked, sizeof(*a->blocked),
		      cmp_blocked);
	for (i = 0; i < a->nblocked && !ret; i++) {
		const struct domain *d = find_dom(s, a->blocked[i].id);
		struct target t = { .label = label, .s = s, .dom = d };

		if (!d)
			continue;
		snprintf(label, sizeof(label), "apply: domain %ld", d->id);
		if (want || a->blocked[i].scoped) {
			ret = set_freeze(&t, want ? o->freeze : 0,
					 HGROUP_SCOPE_DOMAIN);
			continue;
		}
		t.dom = NULL;
		for (j = -1; j < d->nr && !ret; j++) {
			t.pgid = j < 0 ? d->handle : s->groups[d->first + j].pgid;
			if (j >= 0 && t.pgid == d->handle)
				continue;
			sv = find_saved(a, t.pgid);
			if (!sv && read_attr(t.pgid, HGROUP_ATTR_FREEZE, &r))
				continue;
			ret = set_freeze(&t, sv ? sv->flags : r.v.fz.flags &
					 ~HGROUP_FREEZE_NEW_PGRP, 0);
		}
	}
	return ret;
}

/* Set the restrictions other than freezing on each domain at once. */
static int restrict_all(const struct scan *s, const struct opts *o,
			long top)
{
	char label[40];
	struct target t = { .label = label, .s = s };
	struct sub *sub;
	int n, i, ret = 0;

	n = subtree(s, top, &sub);
	for (i = 0; i < n && !ret; i++) {
		t.dom = sub[i].d;
		snprintf(label, sizeof(label), "apply: domain %ld", t.dom->id);
		ret = set_opts(&t, o, o->have & ~BIT(HGROUP_ATTR_FREEZE),
			       HGROUP_SCOPE_DOMAIN);
	}
	free(sub);
	return ret;
}

/* Read back @have of @pgid; 0 if it matches the options (or is gone). */
static int verify_one(pid_t pgid, const struct opts *o, unsigned int have)
{
	static struct reading r;
	unsigned int attr, i;
	int err;

	for (i = 0; i < ARRAY_SIZE(attr_order); i++) {
		attr = attr_order[i];
		if (!(have & BIT(attr)))
			continue;
		err = read_attr(pgid, attr, &r);
		if (err == ESRCH)
			return 0;
		if (err)
			return report(attr_hints, err, "apply: verify pgrp %d %s",
				      pgid, attrs[attr].name);
		if (!attr_matches(o, attr, &r))
			return report_text(EAGAIN, "not as requested",
					   "apply: verify pgrp %d %s", pgid,
					   attrs[attr].name);
	}
	return 0;
}

static int verify(const struct opts *o, long top)
{
	unsigned int group_attrs = o->have & ~DOMAIN_ATTRS;
	int n, i, j, ngroups = 0, ret = 0;
	struct sub *sub;
	struct scan s;

	if (scan(&s))
		return EXIT_FAIL;
	n = subtree(&s, top, &sub);
	for (i = 0; i < n && !ret; i++) {
		const struct domain *d = sub[i].d;

		ret = verify_one(d->handle, o, o->have & DOMAIN_ATTRS);
		for (j = 0; j < d->nr && !ret; j++)
			ret = verify_one(s.groups[d->first + j].pgid, o,
					 group_attrs);
		ngroups += d->nr;
	}
	if (!ret)
		printf("hgctl: apply: %d domains, %d process groups\n", n,
		       ngroups);
	free(sub);
	scan_free(&s);
	return ret;
}

static int cmd_apply(int argc, char **argv, struct opts *o)
{
	struct apply a = { 0 };
	int pass, changed, ret, lift_ret;
	struct scan s, next;
	long self;

	if (argc != 1)
		return BAD_ARGS("expected one DOMAIN", "apply");
	if (!o->recursive)
		return BAD_ARGS("--recursive is required", "apply");
	if (parse_id("apply", argv[0], 0, &a.top))
		return EXIT_USAGE;
	if (!a.top)
		return BAD_ARGS("domain 0 is the whole namespace; use set --domain PGID",
				"apply 0");
	if (!o->have)
		return BAD_ARGS("nothing to set", "apply");
	if (o->have & BIT(ATTR_BUDGET))
		return BAD_ARGS("a budget is one process group's: use set",
				"apply");
	if (scan(&s))
		return EXIT_FAIL;
	self = sys_get_domainid(0);
	ret = 0;
	if (!find_dom(&s, a.top))
		ret = report_text(ESRCH, "no such domain", "apply %ld", a.top);
	else if (self > 0 && domain_depth(&s, self, a.top) >= 0)
		ret = report_text(EINVAL, "hgctl runs inside it; run it from outside",
				  "apply %ld", a.top);
	for (pass = 0; !ret; pass++) {
		changed = 0;
		ret = block_pass(&s, &a, &changed);
		if (ret || !changed)
			break;
		if (pass == MAX_PASSES) {
			ret = report_text(EAGAIN, "process groups keep appearing",
					  "apply %ld", a.top);
			break;
		}
		ret = scan(&next);
		if (ret)
			break;
		scan_free(&s);
		s = next;
	}
	if (!ret)
		ret = restrict_all(&s, o, a.top);
	lift_ret = lift(&s, o, &a, !ret);
	scan_free(&s);
	free(a.saved);
	free(a.blocked);
	if (!ret && !lift_ret)
		ret = verify(o, a.top);
	return ret || lift_ret ? EXIT_FAIL : 0;
}

/* Command line. */

enum {
	OPT_CPUS = 256, OPT_MEMS, OPT_TASKS, OPT_DEVICE, OPT_POLICY,
	OPT_FREEZE, OPT_DOMAIN, OPT_WAIT, OPT_RECURSIVE, OPT_GROUP,
	OPT_WEIGHT, OPT_CPU_MAX, OPT_BUDGET_WEIGHT, OPT_BUDGET_CPU_MAX,
	OPT_MEM_MAX, OPT_MEM_SOFT,
};

#define OPTBIT(o)	BIT((o) - OPT_CPUS)
#define RESTRICT_OPTS	(OPTBIT(OPT_CPUS) | OPTBIT(OPT_MEMS) | \
			 OPTBIT(OPT_TASKS) | OPTBIT(OPT_DEVICE) | \
			 OPTBIT(OPT_GROUP) | OPTBIT(OPT_WEIGHT) | \
			 OPTBIT(OPT_CPU_MAX) | OPTBIT(OPT_BUDGET_WEIGHT) | \
			 OPTBIT(OPT_BUDGET_CPU_MAX) | OPTBIT(OPT_POLICY) | \
			 OPTBIT(OPT_MEM_MAX) | OPTBIT(OPT_MEM_SOFT))
#define SET_OPTS	(RESTRICT_OPTS | OPTBIT(OPT_FREEZE) | OPTBIT(OPT_DOMAIN))

static const struct option long_opts[] = {
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "mems", required_argument, NULL, OPT_MEMS },
	{ "tasks-max", required_argument, NULL, OPT_TASKS },
	{ "mem-max", required_argument, NULL, OPT_MEM_MAX },
	{ "mem-soft", required_argument, NULL, OPT_MEM_SOFT },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "weight-max", required_argument, NULL, OPT_WEIGHT },
	{ "cpu-max", required_argument, NULL, OPT_CPU_MAX },
	{ "budget-weight-max", required_argument, NULL, OPT_BUDGET_WEIGHT },
	{ "budget-cpu-max", required_argument, NULL, OPT_BUDGET_CPU_MAX },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "device-policy", required_argument, NULL, OPT_POLICY },
	{ "freeze", required_argument, NULL, OPT_FREEZE },
	{ "domain", no_argument, NULL, OPT_DOMAIN },
	{ "wait", no_argument, NULL, OPT_WAIT },
	{ "recursive", no_argument, NULL, OPT_RECURSIVE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct command {
	const char *name;
	int (*fn)(int argc, char **argv, struct opts *o);
	unsigned int opts;	/* OPTBIT()s accepted */
};

static const struct command commands[] = {
	{ "run", cmd_run, RESTRICT_OPTS },
	{ "show", cmd_show, 0 },
	{ "set", cmd_set, SET_OPTS },
	{ "freeze", cmd_freeze, OPTBIT(OPT_WAIT) },
	{ "thaw", cmd_thaw, 0 },
	{ "apply", cmd_apply, SET_OPTS | OPTBIT(OPT_RECURSIVE) },
};

static const char usage_text[] =
"Usage: hgctl COMMAND [OPTIONS] [ARGS]\n"
"\n"
"  run [RESTRICTIONS] [--] CMD [ARGS...]  run CMD in a new domain\n"
"  show [PID|PGID]                        list domains, groups, processes\n"
"  set PGID [--domain] [RESTRICTIONS] [--freeze=F]\n"
"                                         restrict a group (or its domain)\n"
"  freeze PGID [--wait]                   freeze a process group\n"
"  thaw PGID                              thaw it\n"
"  apply --recursive DOMAIN [RESTRICTIONS] [--freeze=F]\n"
"                                         restrict a domain and all below\n"
"\n"
"RESTRICTIONS:\n"
"  --cpus=LIST            CPUs, e.g. 0-2,5\n"
"  --mems=LIST            memory nodes\n"
"  --tasks-max=N|max      most tasks in the domain and its sub-domains\n"
"  --mem-max=SIZE|max     the domain's hard memory limit, bytes or with a\n"
"                         K, M or G suffix (powers of 1024)\n"
"  --mem-soft=SIZE|max    the domain's soft memory limit (0: none): under\n"
"                         memory pressure, memory within it is reclaimed\n"
"                         last, beyond it in proportion to the excess\n"
"  --group=G              scheduling groups of the domain: none, pgrp (each\n"
"                         process group), domain (each sub-domain) or\n"
"                         pgrp,domain\n"
"  --weight-max=W         bound of the domain's CPU weight, 1-10000 (100:\n"
"                         one nice-0 task)\n"
"  --cpu-max=Q[/P]|max[/P]\n"
"                         the domain's CPU time per period, microseconds\n"
"                         (P default 100000)\n"
"  --budget-weight-max=W, --budget-cpu-max=Q[/P]|max[/P]\n"
"                         the same for the process group, a budget shared\n"
"                         with every group made from it; not with --domain\n"
"                         (10000 and max/100000: no budget)\n"
"  --device=RULE          'a' or 'TYPE MAJOR:MINOR ACCESS' (TYPE a|b|c,\n"
"                         MAJOR, MINOR a number or *, ACCESS of rwm);\n"
"                         repeatable\n"
"  --device-policy=allow|deny\n"
"                         default: deny (a whitelist) with --device\n"
"F: none, all, new-pgrp or all,new-pgrp\n";

/* Apply option @opt; NULL, or what is wrong with @arg. */
static const char *handle_opt(struct opts *o, int opt, const char *arg)
{
	struct cpu_opt *c;
	__u64 *size;
	char *end;

	switch (opt) {
	case OPT_CPUS:
	case OPT_MEMS:
		o->have |= BIT(opt == OPT_CPUS ? HGROUP_ATTR_CPUS :
			       HGROUP_ATTR_MEMS);
		if (parse_list(arg, opt == OPT_CPUS ? &o->cpus : &o->mems))
			return "bad list: N or N-M, comma-separated";
		break;
	case OPT_TASKS:
		o->have |= BIT(HGROUP_ATTR_TASKS);
		o->tasks_max = HGROUP_TASKS_UNLIMITED;
		if (!strcmp(arg, "max"))
			break;
		errno = 0;
		o->tasks_max = strtoull(arg, &end, 10);
		if (!isdigit((unsigned char)*arg) || *end || errno)
			return "expected a number or max";
		break;
	case OPT_MEM_MAX:
	case OPT_MEM_SOFT:
		o->have |= BIT(HGROUP_ATTR_MEM);
		size = opt == OPT_MEM_MAX ? &o->mem_max : &o->mem_soft;
		o->mem_given |= opt == OPT_MEM_MAX ? MEM_KEEP_MAX :
						     MEM_KEEP_SOFT;
		*size = HGROUP_MEM_UNLIMITED;
		if (!strcmp(arg, "max"))
			break;
		errno = 0;
		*size = strtoull(arg, &end, 10);
		if (!isdigit((unsigned char)*arg) || errno)
			return "expected a size (K, M, G suffixes) or max";
		if (*end) {
			const char *u = strchr("KMG", *end);

			if (!u || end[1] ||
			    *size > (~0ULL >> (10 * (u - "KMG" + 1))))
				return "expected a size (K, M, G suffixes) or max";
			*size <<= 10 * (u - "KMG" + 1);
		}
		break;
	case OPT_WEIGHT:
	case OPT_BUDGET_WEIGHT:
		c = opt == OPT_WEIGHT ? &o->cpu : &o->budget;
		o->have |= BIT(opt == OPT_WEIGHT ? HGROUP_ATTR_CPU : ATTR_BUDGET);
		errno = 0;
		c->weight_max = strtoul(arg, &end, 10);
		if (!isdigit((unsigned char)*arg) || *end || errno ||
		    !c->weight_max)
			return "expected a weight, 1 to 10000";
		break;
	case OPT_CPU_MAX:
	case OPT_BUDGET_CPU_MAX:
		c = opt == OPT_CPU_MAX ? &o->cpu : &o->budget;
		o->have |= BIT(opt == OPT_CPU_MAX ? HGROUP_ATTR_CPU : ATTR_BUDGET);
		c->quota_us = HGROUP_CPU_UNLIMITED;
		c->period_us = 100000;
		errno = 0;
		if (!strncmp(arg, "max", 3))
			end = (char *)arg + 3;
		else if (isdigit((unsigned char)*arg))
			c->quota_us = strtoull(arg, &end, 10);
		else
			return "expected QUOTA[/PERIOD] or max[/PERIOD]";
		if (*end == '/') {
			arg = end + 1;
			c->period_us = strtoull(arg, &end, 10);
			if (!isdigit((unsigned char)*arg))
				return "expected QUOTA[/PERIOD] or max[/PERIOD]";
		}
		if (*end || errno || !c->period_us)
			return "expected QUOTA[/PERIOD] or max[/PERIOD]";
		break;
	case OPT_GROUP:
		o->have |= BIT(HGROUP_ATTR_SCHED);
		if (parse_group(arg, &o->group))
			return "expected none, pgrp, domain or pgrp,domain";
		break;
	case OPT_DEVICE:
		o->have |= BIT(HGROUP_ATTR_DEVICES);
		if (o->nr_rules == HGROUP_DEV_MAX_RULES)
			return "too many rules";
		if (parse_rule(arg, &o->rules[o->nr_rules++]))
			return "bad rule: a, or TYPE MAJOR:MINOR ACCESS";
		break;
	case OPT_POLICY:
		o->have |= BIT(HGROUP_ATTR_DEVICES);
		if (!strcmp(arg, "allow"))
			o->policy = HGROUP_DEV_POLICY_ALLOW;
		else if (!strcmp(arg, "deny"))
			o->policy = HGROUP_DEV_POLICY_DENY;
		else
			return "expected allow or deny";
		break;
	case OPT_FREEZE:
		o->have |= BIT(HGROUP_ATTR_FREEZE);
		if (parse_freeze(arg, &o->freeze))
			return "expected none, all, new-pgrp or all,new-pgrp";
		break;
	case OPT_DOMAIN:
		o->scope = HGROUP_SCOPE_DOMAIN;
		break;
	case OPT_WAIT:
		o->wait = true;
		break;
	case OPT_RECURSIVE:
		o->recursive = true;
		break;
	}
	return NULL;
}

/* Parse the options of @c; the index of the first argument, or -1. */
static int parse_opts(const struct command *c, int argc, char **argv,
		      struct opts *o)
{
	const char *optstring = c->fn == cmd_run ? "+:h" : ":h";
	const char *bad;
	int opt, idx;

	o->policy = -1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, optstring, long_opts,
				  &idx)) != -1) {
		if (opt == 'h') {
			fputs(usage_text, stdout);
			exit(0);
		}
		if (opt == '?' || opt == ':') {
			report_text(EINVAL, opt == ':' ? "missing argument" :
				    "unknown option", "%s: %s", c->name,
				    argv[optind - 1]);
			return -1;
		}
		if (!(c->opts & OPTBIT(opt))) {
			report_text(EINVAL, "not an option of this command",
				    "%s: --%s", c->name, long_opts[idx].name);
			return -1;
		}
		bad = handle_opt(o, opt, optarg ? optarg : "");
		if (bad) {
			report_text(EINVAL, bad, "%s: --%s=%s", c->name,
				    long_opts[idx].name, optarg);
			return -1;
		}
	}
	if (o->policy < 0)
		o->policy = o->nr_rules ? HGROUP_DEV_POLICY_DENY :
					  HGROUP_DEV_POLICY_ALLOW;
	return optind;
}

int main(int argc, char **argv)
{
	static struct opts o;
	size_t i;
	int n;

	if (argc > 1 && (!strcmp(argv[1], "--help") ||
			 !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))) {
		fputs(usage_text, stdout);
		return 0;
	}
	for (i = 0; argc > 1 && i < ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		n = parse_opts(&commands[i], argc - 1, argv + 1, &o);
		if (n < 0)
			return EXIT_USAGE;
		return commands[i].fn(argc - 1 - n, argv + 1 + n, &o);
	}
	if (argc < 2)
		return BAD_ARGS("see hgctl --help", "missing command");
	return BAD_ARGS("see hgctl --help", "unknown command '%s'", argv[1]);
}
