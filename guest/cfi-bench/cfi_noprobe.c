// SPDX-License-Identifier: GPL-2.0
/*
 * Asks for kprobes on two functions that NOKPROBE_SYMBOL() lists, one in
 * vmlinux (notify_die(), which the die path runs and a probe would
 * recurse through) and one of this module's own: both must be refused.
 * The macro records the address C takes of a function; under jump-table
 * CFI that is the function's jump-table entry, and a kernel that puts the
 * entry on its blacklist leaves the function's code open to probes.
 * Loads only if both were refused.
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

static int cfi_noprobe_try(const char *symbol)
{
	struct kprobe kp = { .symbol_name = symbol };
	int ret = register_kprobe(&kp);

	if (!ret) {
		pr_err("FAIL: cfi_noprobe: a kprobe was placed on %pS, which NOKPROBE_SYMBOL() lists\n",
		       kp.addr);
		unregister_kprobe(&kp);
		return -EINVAL;
	}
	/* The blacklist's answer; anything else did not ask the question. */
	if (ret != -EINVAL) {
		pr_err("FAIL: cfi_noprobe: no kprobe on %s: %d, not the blacklist's -EINVAL\n",
		       symbol, ret);
		return ret;
	}
	/* The size %pS prints tells the function's code from an entry. */
	pr_info("cfi_noprobe: a kprobe on %s (%pS) was refused (%d)\n",
		symbol, kp.addr, ret);
	return 0;
}

static int __init cfi_noprobe_init(void)
{
	int ret = cfi_noprobe_try("notify_die");

	return cfi_noprobe_try("cfi_noprobe_listed") ?: ret;
}
module_init(cfi_noprobe_init);

static void __exit cfi_noprobe_exit(void)
{
}
module_exit(cfi_noprobe_exit);

MODULE_DESCRIPTION("Kprobes on NOKPROBE_SYMBOL() functions must be refused");
MODULE_LICENSE("GPL");
