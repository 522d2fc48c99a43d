// SPDX-License-Identifier: GPL-2.0
/*
 * Asks for kprobes on two functions that NOKPROBE_SYMBOL() lists, one in
 * vmlinux (notify_die(), which the die path runs and a probe would
 * recurse through) and one of this module's own: both must be refused.
 * The macro records the address C takes of a function; under jump-table
 * CFI that is the function's jump-table entry, and a kernel that puts the
 * entry on its blacklist leaves the function's code open to probes.
 * Under jump-table CFI, also one on an entry of this module's jump tables,
 * where sealing writes traps and x86 takes an INT3 for a sealed entry's
 * before asking kprobes: refused too. Loads only if all were refused.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>

/* Global: cross-DSO CFI renames local functions, so kallsyms would not find it. */
int cfi_noprobe_listed(int x);
noinline int cfi_noprobe_listed(int x)
{
	return x + 1;
}
NOKPROBE_SYMBOL(cfi_noprobe_listed);

/* Its address is taken: under jump-table CFI, that is its entry. */
static noinline int cfi_noprobe_entered(int x)
{
	return x - 1;
}

static int (*cfi_noprobe_entry)(int x) = cfi_noprobe_entered;

static int cfi_noprobe_try(struct kprobe *kp, const char *what)
{
	int ret = register_kprobe(kp);

	if (!ret) {
		pr_err("FAIL: cfi_noprobe: a kprobe was placed on %pS, %s\n",
		       kp->addr, what);
		unregister_kprobe(kp);
		return -EINVAL;
	}
	/* The blacklist's answer; anything else did not ask the question. */
	if (ret != -EINVAL) {
		pr_err("FAIL: cfi_noprobe: no kprobe on %pS: %d, not the blacklist's -EINVAL\n",
		       kp->addr, ret);
		return ret;
	}
	/* The size %pS prints tells the function's code from an entry. */
	pr_info("cfi_noprobe: a kprobe on %s (%pS) was refused (%d)\n",
		kp->symbol_name ?: "a jump-table entry of this module",
		kp->addr, ret);
	return 0;
}

static int __init cfi_noprobe_init(void)
{
	struct kprobe listed = { .symbol_name = "notify_die" };
	struct kprobe own = { .symbol_name = "cfi_noprobe_listed" };
	struct kprobe entry = {
		.addr = (kprobe_opcode_t *)READ_ONCE(cfi_noprobe_entry),
	};
	int ret;

	ret = cfi_noprobe_try(&listed, "which NOKPROBE_SYMBOL() lists");
	ret = cfi_noprobe_try(&own, "which NOKPROBE_SYMBOL() lists") ?: ret;
	if (IS_ENABLED(CONFIG_CFI_CLANG_JUMP_TABLE))
		ret = cfi_noprobe_try(&entry, "an entry of a jump table") ?: ret;
	return ret;
}
module_init(cfi_noprobe_init);

static void __exit cfi_noprobe_exit(void)
{
}
module_exit(cfi_noprobe_exit);

MODULE_DESCRIPTION("Kprobes on NOKPROBE_SYMBOL() functions must be refused");
MODULE_LICENSE("GPL");
