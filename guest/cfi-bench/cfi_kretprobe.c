// SPDX-License-Identifier: GPL-2.0
/*
 * Runs a kretprobe once: the probed function returns into the kretprobe
 * trampoline, whose address the arm64 code takes from assembly, and the
 * handler is called through a pointer this module registered.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>

static atomic_t returns = ATOMIC_INIT(0);

static int cfi_kretprobe_handler(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	atomic_inc(&returns);
	return 0;
}

static struct kretprobe cfi_kretprobe = {
	.handler = cfi_kretprobe_handler,
	.kp.symbol_name = "kstrtoint",
	.maxactive = 4,
};

static int __init cfi_kretprobe_init(void)
{
	int (*parse)(const char *s, unsigned int base, int *res) = kstrtoint;
	int ret, n = 0;

	ret = register_kretprobe(&cfi_kretprobe);
	if (ret)
		return ret;
	OPTIMIZER_HIDE_VAR(parse);
	ret = parse("5", 10, &n);
	unregister_kretprobe(&cfi_kretprobe);
	pr_info("cfi_kretprobe: kstrtoint() returned %d (%d), %d return(s) seen\n",
		ret, n, atomic_read(&returns));
	return atomic_read(&returns) ? 0 : -EIO;
}
module_init(cfi_kretprobe_init);

static void __exit cfi_kretprobe_exit(void)
{
}
module_exit(cfi_kretprobe_exit);

MODULE_DESCRIPTION("One kretprobe under CFI");
MODULE_LICENSE("GPL");
