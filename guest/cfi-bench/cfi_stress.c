// SPDX-License-Identifier: GPL-2.0
/*
 * Calls across the module boundary on demand, for the stress test that
 * loads and unloads other modules meanwhile: each read of
 * /sys/kernel/debug/cfi_stress is a core-to-module call through a pointer
 * the module registered (the file's read), in which the module calls the
 * core kernel through its own pointer and through one the core kernel
 * made, and the core kernel calls back into the module (sort()).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sort.h>

static struct dentry *stress_file;

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static ssize_t stress_read(struct file *file, char __user *buf, size_t len,
			   loff_t *pos)
{
	int (*parse)(const char *s, unsigned int base, int *res) = kstrtoint;
	ssize_t (*core_read)(struct file *file, char __user *buf, size_t len,
			     loff_t *pos) = simple_dir_operations.read;
	int v[] = { 3, 1, 2 };
	char out[16];
	int n = 0;

	OPTIMIZER_HIDE_VAR(parse);
	OPTIMIZER_HIDE_VAR(core_read);
	sort(v, ARRAY_SIZE(v), sizeof(v[0]), cmp_int, NULL);
	if (v[0] != 1 || parse("7", 10, &n) || n != 7 ||
	    core_read(NULL, NULL, 0, NULL) != -EISDIR)
		return -EIO;
	n = scnprintf(out, sizeof(out), "ok\n");
	return simple_read_from_buffer(buf, len, pos, out, n);
}

static const struct file_operations stress_fops = {
	.owner = THIS_MODULE,
	.read = stress_read,
};

static int __init cfi_stress_init(void)
{
	stress_file = debugfs_create_file("cfi_stress", 0400, NULL, NULL,
					  &stress_fops);
	return 0;
}
module_init(cfi_stress_init);

static void __exit cfi_stress_exit(void)
{
	debugfs_remove(stress_file);
}
module_exit(cfi_stress_exit);

MODULE_DESCRIPTION("Calls across the module boundary on demand");
MODULE_LICENSE("GPL");
