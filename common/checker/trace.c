// SPDX-License-Identifier: GPL-2.0
/*
 * The trace: a failing or replayed execution as lines a person reads,
 * each event named by CPU, location, value and source line; schedules
 * printed and parsed for -r.
 */
#include "checker.h"

/* ---- operations ------------------------------------------------------ */

static const char *const rmw_name[] = { "xchg", "add", "sub", "and", "or",
					"xor", "nand", "cmpxchg" };

/* ---- the trace -------------------------------------------------------- */

static const char *proc_name(int p, char *buf, size_t n)
{
	static const char *const ctx[] = { "", "/softirq", "/hardirq", "/nmi" };

	if (is_flusher(p))
		snprintf(buf, n, "CPU%d sb", p - ntasks);
	else
		snprintf(buf, n, "CPU%d%s", tasks[p].cpu, ctx[tasks[p].level]);
	return buf;
}

const char *loc_name(u32 off, char *buf, size_t n)
{
	static const char *const var_name[] = { "x", "y", "z", "buf", "flag" };
	const struct vc_layout *q = &vc_layout;

	if (off >= VARS_OFF && off < VARS_OFF + VC_VARS_BYTES) {
		u32 i = (off - VARS_OFF) / sizeof(int);

		if (cfg.litmus && cfg.litmus->var_names)
			snprintf(buf, n, "%s", cfg.litmus->var_names[i]);
		else if (i < ARRAY_SIZE(var_name))
			snprintf(buf, n, "%s", var_name[i]);
		else
			snprintf(buf, n, "var%u", i);
	} else if (off < PCPU_OFF) {
		int l = off / sizeof(struct vc_lockref);
		u32 r = off % sizeof(struct vc_lockref);

		if (r < 4)
			snprintf(buf, n, "lock%d%s", l,
				 r == 0 ? "" : r == 1 ? "+1" : r == 2 ? "+2" : "+3");
		else if (r < 8)
			snprintf(buf, n, "count%d", l);
		else
			snprintf(buf, n, "owner%d", l);
		if (r == 0 && cfg.levels == 1 && !cfg.litmus)
			snprintf(buf, n, "lock");
	} else if (pv_hash_bytes && off >= ARENA_SIZE - pv_hash_bytes) {
		/* pv_lock_hash[]: entries of a lock pointer and a node pointer */
		u32 r = off - (ARENA_SIZE - pv_hash_bytes), e = 2 * sizeof(void *);

		snprintf(buf, n, "hash[%u].%s", r / e,
			 r % e == 0 ? "lock" : r % e == sizeof(void *) ? "node" : "?");
	} else {
		u32 c = (off - PCPU_OFF) / pcpu_size;
		u32 r = (off - PCPU_OFF) % pcpu_size;
		u32 i = r / q->node_size, f = r % q->node_size;

		snprintf(buf, n, "node%u.%u%s", c, i,
			 f == 0 ? ".next" : f == q->node_count_offset ? ".count" :
			 f == 8 ? ".locked" : "+?");
	}
	return buf;
}

static void word_str(u32 w, char *buf, size_t n)
{
	const struct vc_layout *q = &vc_layout;
	u32 tail = q->queued ? w >> q->tail_idx_offset : 0;

	if (!q->queued)
		snprintf(buf, n, "%#x", w);
	else if (tail)
		snprintf(buf, n, "(%u.%u,%u,%u)", (w >> q->tail_cpu_offset) - 1,
			 (w & q->tail_idx_mask) >> q->tail_idx_offset,
			 !!(w & q->pending_mask), w & q->locked_mask);
	else
		snprintf(buf, n, "(0,%u,%u)", !!(w & q->pending_mask),
			 w & q->locked_mask);
}

/*
 * Function and file:line of a call site: the innermost inlined frame that
 * is not one of the checker's headers or the shared shim's (common/checker/shim).
 */
static int shim_file(const char *path)
{
	return strstr(path, "common/checker/include/") ||
	       strstr(path, "common/checker/shim/include/");
}

void where(const void *pc, char *buf, size_t n)
{
	char cmd[600], fn[200], loc[400];
	FILE *f;
	int found = 0;

	snprintf(buf, n, "?");
	if (!pc)
		return;
	snprintf(cmd, sizeof(cmd), "addr2line -f -i -e '%s' %p 2>/dev/null", cfg.self,
		 (const void *)((const char *)pc - 1));
	f = popen(cmd, "r");
	if (!f)
		return;
	while (!found && fgets(fn, sizeof(fn), f) && fgets(loc, sizeof(loc), f)) {
		const char *file;
		char *sp;

		fn[strcspn(fn, "\n")] = 0;
		loc[strcspn(loc, "\n")] = 0;
		sp = strchr(loc, ' ');
		if (sp)
			*sp = 0;
		if (shim_file(loc))
			continue;
		file = strstr(loc, "/tree/");
		if (file)
			file += strlen("/tree/");
		else
			file = strrchr(loc, '/') ? strrchr(loc, '/') + 1 : loc;
		snprintf(buf, n, "%.80s %.110s", fn, file);
		found = 1;
	}
	pclose(f);
}

/*
 * A value as a trace shows it: a pointer into the modelled memory by what
 * it points at ("&node3.0" for a node, as in node->next), so that a trace
 * does not depend on where the binary put its arena; any other in hex.
 */
static const char *value_str(u64 v, char *buf, size_t n)
{
	uintptr_t base = (uintptr_t)arena;
	char a[40];

	if (v >= base && v < base + ARENA_SIZE) {
		u32 off = v - base;

		if (off >= PCPU_OFF && (off - PCPU_OFF) % pcpu_size % vc_layout.node_size == 0)
			snprintf(buf, n, "&node%u.%u", (unsigned int)((off - PCPU_OFF) / pcpu_size),
				 (unsigned int)((off - PCPU_OFF) % pcpu_size / vc_layout.node_size));
		else
			snprintf(buf, n, "&%s", loc_name(off, a, sizeof(a)));
	} else {
		snprintf(buf, n, "%#llx", (unsigned long long)v);
	}
	return buf;
}

static void op_str(const struct event *e, char *buf, size_t n)
{
	static const char *const fence_name[] = { "smp_mb()", "smp_rmb()", "smp_wmb()" };
	const struct op *o = &e->op;
	char a[40], b[40], v[40], x[40], y[40];
	const char *ord = o->mo == MO_ACQUIRE ? "-acquire" :
			  o->mo == MO_RELEASE ? "-release" : "";
	int i;

	switch (o->kind) {
	case OP_READ:
		snprintf(buf, n, "load%s %s = %s", ord, loc_name(o->off, a, sizeof(a)),
			 value_str(e->value, v, sizeof(v)));
		if (e->stale)
			snprintf(buf + strlen(buf), n - strlen(buf),
				 " (an old value: %d newer)", e->stale);
		break;
	case OP_WRITE:
		snprintf(buf, n, "store%s %s <- %s%s", ord,
			 loc_name(o->off, a, sizeof(a)),
			 value_str(e->value, v, sizeof(v)),
			 e->buffered ? " (to its store buffer)" : "");
		break;
	case OP_RMW:
		if (o->rmw == R_CAS)
			snprintf(buf, n, "cmpxchg%s %s %s -> %s: found %s%s", ord,
				 loc_name(o->off, a, sizeof(a)), value_str(o->a, x, sizeof(x)),
				 value_str(o->b, y, sizeof(y)), value_str(e->value, v, sizeof(v)),
				 e->value == o->a ? "" : ", fails");
		else
			snprintf(buf, n, "%s%s %s, %s: found %s", rmw_name[o->rmw],
				 ord, loc_name(o->off, a, sizeof(a)),
				 value_str(o->a, x, sizeof(x)), value_str(e->value, v, sizeof(v)));
		break;
	case OP_FENCE:
		snprintf(buf, n, "%s", fence_name[o->rmw]);
		break;
	case OP_AWAIT:
		b[0] = 0;
		for (i = 0; i < o->nr; i++) {
			snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s%s",
				 i ? ", " : "", loc_name(o->r[i].off, a, sizeof(a)));
		}
		snprintf(buf, n, o->timed ? "cpu_relax(): the bounded spin on %s goes on or ends" :
			 "cpu_relax(): %s changed, spin again", b);
		break;
	case OP_IRQ:
		snprintf(buf, n, "interrupt: a nested lock and unlock");
		break;
	case OP_FLUSH:
		snprintf(buf, n, "%s <- %s leaves the store buffer",
			 loc_name(o->off, a, sizeof(a)), value_str(e->value, v, sizeof(v)));
		break;
	default:
		snprintf(buf, n, "?");
	}
}

void print_trace(void)
{
	char who[32], what[160], fn[200], w[40];
	int i, l;

	printf("| # | CPU | operation | in | word%s |\n", cfg.levels > 1 ? "s" : "");
	printf("|---|---|---|---|---|\n");
	for (i = 0; i < nev; i++) {
		struct event *e = &ev[i];

		proc_name(e->proc, who, sizeof(who));
		op_str(e, what, sizeof(what));
		if (is_flusher(e->proc))
			snprintf(fn, sizeof(fn), "(memory)");
		else
			where(e->op.pc, fn, sizeof(fn));
		printf("| %d | %s | %s | %s | ", i + 1, who, what, fn);
		for (l = 0; l < cfg.levels; l++) {
			word_str(e->word[l], w, sizeof(w));
			printf("%s%s", l ? " " : "", w);
		}
		printf(" |\n");
	}
}

/*
 * A schedule: who ran each event, "P:A" when the event took its outcome A
 * (not the first), "PxK" for K events in a row of P's first outcomes.
 */
void print_sched(const int *s, const int *alt, int n, FILE *f)
{
	int i = 0;

	while (i < n) {
		int j = i;

		if (alt[i]) {
			fprintf(f, "%s%d:%d", i ? "," : "", s[i], alt[i]);
			i++;
			continue;
		}
		while (j < n && s[j] == s[i] && !alt[j])
			j++;
		fprintf(f, "%s%d", i ? "," : "", s[i]);
		if (j - i > 1)
			fprintf(f, "x%d", j - i);
		i = j;
	}
}

int parse_sched(const char *s, int **out, int **alts)
{
	int *v = calloc(MAX_EVENTS, sizeof(int)), *w = calloc(MAX_EVENTS, sizeof(int));
	int n = 0;

	while (*s) {
		char *end;
		long p = strtol(s, &end, 10), k = 1, a = 0;

		if (end == s || p < 0)
			return -1;
		if (*end == ':') {
			a = strtol(end + 1, &end, 10);
			if (a < 0)
				return -1;
		} else if (*end == 'x') {
			k = strtol(end + 1, &end, 10);
		}
		while (k-- > 0 && n < MAX_EVENTS) {
			w[n] = a;
			v[n++] = p;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	*out = v;
	*alts = w;
	return n;
}
