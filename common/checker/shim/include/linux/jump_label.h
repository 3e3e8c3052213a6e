/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace lock lab and checker: the static keys of <linux/jump_label.h>
 * that a step's headers declare (x86's virt_spin_lock_key, step 9 on).
 * The kernel patches a jump into the code; here a key is a flag that is
 * read.  A key is declared only inside #ifdef CONFIG_PARAVIRT, which the
 * lab leaves undefined (it runs the queued slowpath, the one every CPU
 * takes on bare metal); the checker's virt layout defines it, and the
 * key on (common/checker/api.c).
 *
 * The kernel's patched jump reads no memory, so the read of the flag is
 * a function of its own that -fsanitize=thread leaves alone: it is not an
 * event of the checker's executions (it never changes there anyway).
 */
#ifndef _LAB_LINUX_JUMP_LABEL_H
#define _LAB_LINUX_JUMP_LABEL_H

struct static_key_true {
	int enabled;
};

#define DECLARE_STATIC_KEY_TRUE(name)	extern struct static_key_true name
#define DEFINE_STATIC_KEY_TRUE(name)	struct static_key_true name = { 1 }
static __attribute__((__noinline__, __no_sanitize_thread__, __unused__)) int
lab_static_key_enabled(const struct static_key_true *key)
{
	return key->enabled != 0;
}

#define static_branch_likely(key)	lab_static_key_enabled(key)
#define static_key_enabled(key)		lab_static_key_enabled(key)

#endif /* _LAB_LINUX_JUMP_LABEL_H */
