// SPDX-License-Identifier: GPL-2.0
/*
 * A small module with address-taken functions, loaded and unloaded in a
 * loop to time module load: under jump-table CFI each load and unload
 * also updates the CFI shadow, and the module carries a __cfi_check and
 * a jump table.
 */
#include <linux/fs.h>
#include <linux/module.h>

static ssize_t load_read(struct file *file, char __user *buf, size_t len,
			 loff_t *pos)
{
	return 0;
}

static int load_open(struct inode *inode, struct file *file)
{
	return 0;
}

static const struct file_operations cfi_bench_load_fops = {
	.owner = THIS_MODULE,
	.open = load_open,
	.read = load_read,
};

const struct file_operations *cfi_bench_load_ops = &cfi_bench_load_fops;
EXPORT_SYMBOL_GPL(cfi_bench_load_ops);

static int __init cfi_bench_load_init(void)
{
	return 0;
}
module_init(cfi_bench_load_init);

static void __exit cfi_bench_load_exit(void)
{
}
module_exit(cfi_bench_load_exit);

MODULE_DESCRIPTION("Module load and unload timing target");
MODULE_LICENSE("GPL");
