// SPDX-License-Identifier: GPL-2.0
/*
 * The modelled memory (the arena compiled code reads and writes, mem[],
 * the model's memory) and the behaviours: each byte's store, an
 * execution's key of reads-from and coherence, the sets of keys.
 */
#include "checker.h"

/* ---- modelled memory ------------------------------------------------- */

u8 arena[ARENA_SIZE] __attribute__((__aligned__(64)));
u8 mem[ARENA_SIZE] __attribute__((__aligned__(64)));

unsigned long pcpu_size;

struct vc_lockref *const locks = (struct vc_lockref *)arena;

/* The shim's hash_ptr() hashes offsets into the arena (linux/hash.h). */
const unsigned long vc_hash_base = (unsigned long)arena;

/*
 * The lab's shim (common/checker/shim/include) serves the checker unchanged: its
 * smp_processor_id(), per-CPU offsets and cpu_relax() hook are defined
 * here.  The simulated CPUs share one thread, so its thread-locals are
 * the running CPU's.
 */
__thread int lab_cpu;
__thread unsigned long lab_this_cpu_off;
__thread unsigned int lab_relax_count;
unsigned int lab_relax_mask;	/* 0: every cpu_relax() calls the hook */

unsigned long lab_per_cpu_offset(int cpu)
{
	return (unsigned long)(arena + PCPU_OFF + cpu * pcpu_size) -
	       (unsigned long)__start_lab_percpu;
}

struct vc_vars *vc_vars(void)
{
	return (struct vc_vars *)(arena + VARS_OFF);
}

struct vc_lockref *vc_lockref_of(int i)
{
	return &locks[i];
}

/*
 * The paravirt layout's lock-to-node hash (the shim's
 * alloc_large_system_hash()): the arena's last bytes, cleared with the
 * rest before every execution.  Called before main(), once.
 */
unsigned long pv_hash_bytes;

void *vc_pv_hash_area(unsigned long bytes)
{
	pv_hash_bytes = (bytes + 63) & ~63UL;
	if (pv_hash_bytes > ARENA_SIZE / 2) {
		fprintf(stderr, "verify: a paravirt lock hash of %lu bytes does not fit the modelled memory\n",
			bytes);
		exit(2);
	}
	return arena + ARENA_SIZE - pv_hash_bytes;
}

/* ---- behaviours: reads-from and coherence ------------------------------ */

/*
 * Two executions are the same behaviour when every load read its bytes
 * from the same stores and every location's stores reached memory in the
 * same order (reads-from and coherence), and they end in the same state.
 * Each event that counts has a name that does not depend on the
 * interleaving: its context and how many events that count that context
 * made before it.  The loads of a failed spin iteration (those since the
 * last cpu_relax() or store, when the loop calls cpu_relax() again) and
 * the waits do not count: how often a CPU spun is not a behaviour.  An
 * execution's key is a sum of one hash per reads-from and coherence
 * pair, so that the order the pairs were made in does not matter.
 * -E (enumerate) and -R (the reference search) count the distinct keys
 * and final states; common/checker/verify-ref.sh compares them.
 */
u32 msrc[ARENA_SIZE];	/* the store each byte of memory came from */
u32 cur_src;	/* the name of the running event */
u64 beh_key;	/* this execution's key */
int tcount[MAX_TASKS];
/*
 * Which context is inside each lock's critical section: a ghost, set and
 * cleared by the checker itself (no memory access, no scheduling point),
 * from the step in which the lock was taken to the one before the unlock
 * begins, for the observers (-o) to be held against.
 */
int inside[MAX_LEVELS];

u64 mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static u64 pair(u64 kind, u64 a, u64 b, u64 where)
{
	return mix(mix(mix(kind ^ (where << 8)) ^ a) ^ (b << 1));
}

/* A store's bytes reach memory: coherence pairs with what they overwrite. */
void mem_write(u32 off, int size, u64 v, u32 src)
{
	int b;

	for (b = 0; b < size; b++) {
		beh_key += pair(1, src, msrc[off + b], off + b);
		msrc[off + b] = src;
	}
	memcpy(mem + off, &v, size);
}

/* A load by the running event read byte @where from store @src. */
u64 rf_pair(u32 src, u32 where)
{
	return pair(2, cur_src, src, where);
}

struct keyset classes, states;

void keyset_add(struct keyset *s, u64 key)
{
	long i;

	key |= 1;	/* 0 marks an empty slot */
	if (2 * (s->n + 1) > s->cap) {
		struct keyset g = { .cap = s->cap ? 2 * s->cap : 1024 };

		g.k = calloc(g.cap, sizeof(u64));
		if (!g.k) {
			fprintf(stderr, "verify: out of memory for %ld behaviours\n", s->n);
			exit(2);
		}
		for (i = 0; i < s->cap; i++)
			if (s->k[i])
				keyset_add(&g, s->k[i]);
		free(s->k);
		*s = g;
	}
	for (i = mix(key) & (s->cap - 1); s->k[i]; i = (i + 1) & (s->cap - 1))
		if (s->k[i] == key)
			return;
	s->k[i] = key;
	s->n++;
	s->digest += mix(key);
}
