// SPDX-License-Identifier: GPL-2.0
/*
 * The memory models: SC, TSO's store buffers, and the weak model's
 * history of stores and each CPU's view of it (README.md, "Memory models").
 */
#include "checker.h"

/* ---- TSO store buffers ------------------------------------------------ */

struct sbuf sb[MAX_CPUS];

static struct hentry hist[MAX_HIST];
int nhist;

struct wview wv[MAX_CPUS];

/* ---- the memory models ------------------------------------------------ */

u64 get(const u8 *m, u32 off, int size)
{
	u64 v = 0;

	memcpy(&v, m + off, size);	/* little-endian host */
	return v;
}

void put(u8 *m, u32 off, int size, u64 v)
{
	memcpy(m + off, &v, size);
}

/*
 * The reads-from pairs of a load by the running event of [off, off+size)
 * as CPU @cpu sees it at time @t of the weak model's history (-1: now):
 * a byte its store buffer holds comes from the newest such store, the
 * others from the last store to reach them (before time @t).
 */
u64 rf_of(int cpu, u32 off, int size, int t)
{
	u64 h = 0;
	int b, i, k;

	for (b = 0; b < size; b++) {
		u32 src = 0, a = off + b;
		int found = 0;

		for (i = sb[cpu].n - 1; i >= 0 && !found; i--)
			if (a >= sb[cpu].e[i].off && a < sb[cpu].e[i].off + sb[cpu].e[i].size) {
				src = sb[cpu].e[i].src;
				found = 1;
			}
		if (!found && t < 0)
			src = msrc[a];
		for (k = t - 1; !found && k >= 0; k--)
			if (a >= hist[k].off && a < hist[k].off + hist[k].size) {
				src = hist[k].src;
				found = 1;
			}
		h += rf_pair(src, a);
	}
	return h;
}

/* An initial value of a litmus test's variable (its init()). */
void vc_litmus_set(volatile void *p, int size, uint64_t v)
{
	if (!in_arena((const void *)p) || size < 1 || size > 8)
		vc_fail("%s(): %d bytes outside the modelled memory", __func__, size);
	put(arena, off_of((const void *)p), size, v);
	put(mem, off_of((const void *)p), size, v);
}

/* What CPU @cpu sees at [off, off+size): its store buffer forwards. */
u64 model_load(int cpu, u32 off, int size)
{
	u8 tmp[8];
	int i, b;

	memcpy(tmp, mem + off, size);
	if (cfg.model != SC) {
		for (i = 0; i < sb[cpu].n; i++) {
			struct sbentry *e = &sb[cpu].e[i];

			for (b = 0; b < size; b++)
				if (off + b >= e->off && off + b < e->off + e->size)
					tmp[b] = ((u8 *)&e->val)[off + b - e->off];
		}
	}
	return get(tmp, 0, size);
}

static void hist_append(int cpu, u32 off, int size, u64 v, int bar,
			int relobs, int release, u32 src);

/*
 * The weak model's rule for its non-FIFO buffer: may a store of @cpu to
 * [off, off+size), issued after @bar write barriers, reach memory before
 * the @k oldest stores its buffer holds?  Not over one of them to the same
 * bytes, nor over a write barrier, and a release only as the oldest.
 */
static int may_pass(int cpu, int k, u32 off, int size, int bar, int release)
{
	int i;

	if (release && k)
		return 0;
	for (i = 0; i < k; i++)
		if (sb[cpu].e[i].bar != bar ||
		    (off < sb[cpu].e[i].off + sb[cpu].e[i].size &&
		     sb[cpu].e[i].off < off + size))
			return 0;
	return 1;
}

/*
 * A store leaves its CPU.  SC: into memory.  TSO: into the FIFO store
 * buffer.  Weak: into memory at once (outcome 0), or into the buffer,
 * where later stores may pass it (outcome 1, a reordering); into the
 * buffer anyway when a store there may not be passed.
 */
void model_store(int cpu, u32 off, int size, u64 v, int release)
{
	int relobs = release ? wv[cpu].obs : wv[cpu].relobs;

	if (release) {
		wv[cpu].release = 1;
		wv[cpu].rel_obs = wv[cpu].obs;
	}
	if (cfg.model == SC) {
		mem_write(off, size, v, cur_src);
		return;
	}
	if (cfg.model == WEAK) {
		if (!may_pass(cpu, sb[cpu].n, off, size, sb[cpu].bar, release))
			pick_alt(1);
		else if (pick_alt(2) == 0) {
			hist_append(cpu, off, size, v, sb[cpu].bar, relobs, release,
				    cur_src);
			return;
		}
	}
	if (sb[cpu].n == SBUF)
		vc_fail("store buffer of CPU %d overflows (%d stores)", cpu, SBUF);
	ev[nev - 1].buffered = 1;
	sb[cpu].e[sb[cpu].n++] = (struct sbentry){
		.off = off, .size = size, .val = v, .issue_ev = nev - 1,
		.bar = sb[cpu].bar, .relobs = relobs, .release = release,
		.src = cur_src,
	};
}

/* ---- the weak model's history and views ------------------------------- */

static inline int overlaps(u32 a, int as, u32 b, int bs)
{
	return a < b + bs && b < a + as;
}

static int coh_get(int cpu, u32 off, int size)
{
	struct wview *w = &wv[cpu];
	int i, t = 0;

	for (i = 0; i < w->ncoh; i++)
		if (overlaps(off, size, w->coh[i].off, w->coh[i].size) && w->coh[i].t > t)
			t = w->coh[i].t;
	return t;
}

static void coh_set(int cpu, u32 off, int size, int t)
{
	struct wview *w = &wv[cpu];
	int i, j;

	for (i = 0; i < w->ncoh; i++)
		if (w->coh[i].off == off && w->coh[i].size == size) {
			if (t > w->coh[i].t)
				w->coh[i].t = t;
			return;
		}
	if (w->ncoh == MAX_COH) {
		/* forget what the floor already guarantees */
		for (i = j = 0; i < w->ncoh; i++)
			if (w->coh[i].t > w->floor)
				w->coh[j++] = w->coh[i];
		w->ncoh = j;
		if (j == MAX_COH) {
			vc_fail("the weak model's coherence list of CPU %d is full (%d ranges)",
				cpu, MAX_COH);
			return;
		}
	}
	w->coh[w->ncoh].off = off;
	w->coh[w->ncoh].size = size;
	w->coh[w->ncoh].t = t;
	w->ncoh++;
}

/* The bytes [off, off+size) as they were at time t. */
static u64 snapshot(u32 off, int size, int t)
{
	u8 tmp[8];
	int k, b;

	memcpy(tmp, mem + off, size);
	for (k = nhist - 1; k >= t; k--) {
		struct hentry *h = &hist[k];

		if (!overlaps(off, size, h->off, h->size))
			continue;
		for (b = 0; b < size; b++)
			if (off + b >= h->off && off + b < h->off + h->size)
				tmp[b] = ((u8 *)&h->prev)[off + b - h->off];
	}
	return get(tmp, 0, size);
}

/*
 * CPU @cpu loads [off, off+size) as it was at time t (the bytes in @skip
 * came from its own store buffer).  Each store it reads from is single-copy
 * atomic: from now on the CPU sees that store or a later one in all of the
 * store's bytes, not only in those it loaded.  Returns the largest cut of
 * those stores.
 */
static int read_from(int cpu, u32 off, int size, int t, unsigned int skip)
{
	unsigned int left = ((1u << size) - 1) & ~skip;
	int k, b, cut = 0;

	for (k = t - 1; k >= 0 && left; k--) {
		struct hentry *h = &hist[k];
		unsigned int m = 0;

		for (b = 0; b < size; b++)
			if ((left & (1u << b)) && off + b >= h->off &&
			    off + b < h->off + h->size)
				m |= 1u << b;
		if (m) {
			left &= ~m;
			if (h->cut > cut)
				cut = h->cut;
			if (h->off != off || h->size != size)
				coh_set(cpu, h->off, h->size, k + 1);
		}
	}
	return cut;
}

/*
 * A store of @cpu reaches memory: the end of the history.  Its cut is what
 * its CPU's barriers order before it: every own store before its last
 * barrier (every own store, for a release), and what the CPU had observed
 * at that barrier (@relobs).
 */
static void hist_append(int cpu, u32 off, int size, u64 v, int bar,
			int relobs, int release, u32 src)
{
	struct wview *w = &wv[cpu];
	int cut;

	if (nhist == MAX_HIST) {
		vc_fail("the weak model's store history is full (%d stores)", MAX_HIST);
		return;
	}
	if (bar != w->last_bar) {
		w->before_bar = w->max_flushed;
		w->last_bar = bar;
	}
	cut = release ? w->max_flushed : w->before_bar;
	if (relobs > cut)
		cut = relobs;
	hist[nhist] = (struct hentry){ .off = off, .size = size,
				       .prev = get(mem, off, size), .cut = cut,
				       .src = src };
	nhist++;
	mem_write(off, size, v, src);
	coh_set(cpu, off, size, nhist);
	w->max_flushed = nhist;
}

/*
 * An acquire after a release of the same CPU (since its last full barrier),
 * as an unlock followed by a lock: the loads before the release are
 * ordered before the acquire and everything after it (the floor rises to
 * what they observed), and the stores before it before the stores after
 * the acquire (a write barrier, cumulative).  A store before the release
 * is NOT ordered before a load after the acquire: store buffering through
 * a release and an acquire stays possible, as on POWER (lwsync) and in
 * the kernel's memory model, which orders unlock+lock that way; ARMv8's
 * RCsc release and acquire forbid it.  Called before the acquire reads.
 */
static void release_acquire(int cpu)
{
	struct wview *w = &wv[cpu];

	if (!w->release)
		return;
	w->release = 0;
	sb[cpu].bar++;
	w->relobs = w->rel_obs;
	if (w->rel_obs > w->floor)
		w->floor = w->rel_obs;
}

/*
 * A load under the weak model.  The bytes that its own store buffer holds
 * come from there (the newest); the others from one time t, which may be
 * any time from now back to the CPU's floor and its own last access to
 * these bytes (coherence): each such time is one outcome, newest first.
 * Right after a spin loop's wake-up, a load of what it waited on does not
 * read the value it waited to change again (it would spin for ever on a
 * value that real hardware replaces eventually).
 */
u64 weak_load(struct task *t, u32 off, int size, int mo, int *stale)
{
	struct wview *w = &wv[t->cpu];
	struct sbuf *q = &sb[t->cpu];
	unsigned int fwd = 0, full = (1u << size) - 1;
	u8 ftmp[8], tmp[8];
	int i, b, k, lo, n = 0, a, cut, when[MAX_ALTS];
	u64 val[MAX_ALTS], v;

	for (i = 0; i < q->n; i++)
		for (b = 0; b < size; b++)
			if (off + b >= q->e[i].off && off + b < q->e[i].off + q->e[i].size) {
				fwd |= 1u << b;
				ftmp[b] = ((u8 *)&q->e[i].val)[off + b - q->e[i].off];
			}
	*stale = 0;
	if (mo == MO_ACQUIRE || mo == MO_SEQ_CST)
		release_acquire(t->cpu);
	if (fwd == full) {
		pick_alt(1);
		return get(ftmp, 0, size);
	}
	lo = coh_get(t->cpu, off, size);
	if (w->floor > lo)
		lo = w->floor;
	for (k = nhist - 1; k >= lo; k--) {
		for (b = 0; b < size; b++)
			if (!(fwd & (1u << b)) && off + b >= hist[k].off &&
			    off + b < hist[k].off + hist[k].size)
				break;
		if (b == size)
			continue;
		if (n == MAX_ALTS - 1) {
			vc_fail("the weak model: a load may read more than %d values, more than it can choose from (MAX_ALTS)",
				MAX_ALTS);
			return 0;
		}
		when[n++] = k + 1;
	}
	when[n++] = lo;
	for (i = 0; i < n; i++) {
		v = snapshot(off, size, when[i]);
		memcpy(tmp, &v, 8);
		for (b = 0; b < size; b++)
			if (fwd & (1u << b))
				tmp[b] = ftmp[b];
		val[i] = get(tmp, 0, size);
	}
	for (i = 0; i < t->nwoken; i++)
		if (t->woken[i].off == off && t->woken[i].size == size) {
			int j, m = 0;

			for (j = 0; j < n; j++)
				if (val[j] != t->woken_val[i]) {
					when[m] = when[j];
					val[m++] = val[j];
				}
			if (m)
				n = m;
			t->woken[i] = t->woken[--t->nwoken];
			break;
		}
	a = pick_alt(n);
	*stale = a;
	t->pend_rf += rf_of(t->cpu, off, size, when[a]);
	coh_set(t->cpu, off, size, when[a]);
	if (when[a] > w->obs)
		w->obs = when[a];
	cut = read_from(t->cpu, off, size, when[a], fwd);
	if (cut > w->acq)
		w->acq = cut;
	if ((mo == MO_ACQUIRE || mo == MO_SEQ_CST) && cut > w->floor)
		w->floor = cut;
	return val[a];
}

/*
 * A read-modify-write under the weak model reads the newest value (none of
 * its bytes is in the store buffer: enabled() waits) and appends its store.
 * Fully ordered ones are a full barrier on both sides.  Its store carries
 * the cut of the store it read as well as its own: an acquire that reads
 * from it is ordered after what a release before it ordered (a release
 * sequence, which ARMv8 and the kernel's model keep; lockref's relaxed
 * cmpxchg relies on it).
 */
u64 weak_rmw(struct task *t, const struct op *op)
{
	struct wview *w = &wv[t->cpu];
	int full = op->mo == MO_SEQ_CST || op->mo == MO_ACQ_REL;
	int acquire = full || op->mo == MO_ACQUIRE;
	int release = full || op->mo == MO_RELEASE;
	int store, cut;
	u64 v, n;

	pick_alt(1);
	if (acquire && !full)
		release_acquire(t->cpu);
	if (full)
		w->floor = nhist;
	if (nhist > w->obs)
		w->obs = nhist;
	beh_key += rf_of(t->cpu, op->off, op->size, -1);
	v = get(mem, op->off, op->size);
	cut = read_from(t->cpu, op->off, op->size, nhist, 0);
	if (cut > w->acq)
		w->acq = cut;
	n = rmw_apply(op->rmw, v, op->a, op->b, op->size, &store);
	/*
	 * A release RMW is a release as a release store is: an acquire after
	 * it is ordered after it (release_acquire()).  The paravirt unlock,
	 * a cmpxchg_release(), showed it: without this, MP+wmb+unlock-lock
	 * was reachable on step 10's pv layout.
	 */
	if (release && !full && store) {
		w->release = 1;
		w->rel_obs = w->obs;
	}
	if (store) {
		int own = release ? w->obs : w->relobs;

		hist_append(t->cpu, op->off, op->size, n, sb[t->cpu].bar,
			    own > cut ? own : cut, release, cur_src);
	} else {
		coh_set(t->cpu, op->off, op->size, nhist);
	}
	if (acquire && cut > w->floor)
		w->floor = cut;
	if (full) {
		w->floor = nhist;
		w->obs = nhist;
		w->relobs = nhist;
		w->release = 0;
	}
	return v;
}

int sb_overlap(int cpu, u32 off, int size)
{
	int i;

	for (i = 0; i < sb[cpu].n; i++)
		if (off < sb[cpu].e[i].off + sb[cpu].e[i].size &&
		    sb[cpu].e[i].off < off + size)
			return 1;
	return 0;
}

/*
 * The weak model's store buffer is not FIFO: an entry may leave before
 * older ones, unless an older one overlaps it, it is a release store (it
 * leaves only as the oldest), or a write barrier (smp_wmb(), smp_mb())
 * separates it from an older one.
 */
int flushable(int cpu, int i)
{
	struct sbentry *e = &sb[cpu].e[i];

	if (cfg.model == TSO)
		return i == 0;
	return may_pass(cpu, i, e->off, e->size, e->bar, e->release);
}

void flush_one(int cpu, int i)
{
	struct sbentry e = sb[cpu].e[i];

	if (cfg.model == WEAK)
		hist_append(cpu, e.off, e.size, e.val, e.bar, e.relobs, e.release,
			    e.src);
	else
		mem_write(e.off, e.size, e.val, e.src);
	memmove(&sb[cpu].e[i], &sb[cpu].e[i + 1],
		(sb[cpu].n - i - 1) * sizeof(e));
	sb[cpu].n--;
}
