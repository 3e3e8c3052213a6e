# diy7's C11 litmus tests (diy7 -arch C) as the Linux kernel's: each
# access and fence as the kernel primitive herd7's linux-kernel.def knows.
# A plain C access is a marked one (READ_ONCE(), WRITE_ONCE()): the LKMM
# would otherwise judge a data race.  Three C11 fences stand for the
# kernel's three (diy-families.tsv).
s/^\([ \t]*int r[0-9]* = \)\*\([a-z][a-z0-9]*\);/\1READ_ONCE(*\2);/
s/^\([ \t]*\)\*\([a-z][a-z0-9]*\) = \([0-9][0-9]*\);/\1WRITE_ONCE(*\2, \3);/
s/atomic_store_explicit(\([a-z][a-z0-9]*\),\([0-9][0-9]*\),memory_order_release)/smp_store_release(\1, \2)/
s/atomic_store_explicit(\([a-z][a-z0-9]*\),\([0-9][0-9]*\),memory_order_relaxed)/WRITE_ONCE(*\1, \2)/
s/atomic_load_explicit(\([a-z][a-z0-9]*\),memory_order_acquire)/smp_load_acquire(\1)/
s/atomic_load_explicit(\([a-z][a-z0-9]*\),memory_order_relaxed)/READ_ONCE(*\1)/
s/atomic_thread_fence(memory_order_seq_cst)/smp_mb()/
s/atomic_thread_fence(memory_order_acq_rel)/smp_wmb()/
s/atomic_thread_fence(memory_order_consume)/smp_rmb()/
s/atomic_int\*/int*/g
