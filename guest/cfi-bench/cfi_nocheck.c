// SPDX-License-Identifier: GPL-2.0
/*
 * A module built without CFI, so jump-table CFI's LTO link gives it no
 * __cfi_check(): nothing can judge a call into it. Its init function has
 * the core kernel call back into it (sort() with a module comparison
 * function), the call an enforcing kernel could only refuse. Jump-table
 * CFI must refuse the module at load instead.
 */
#include <linux/module.h>
#include <linux/sort.h>

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int __init cfi_nocheck_init(void)
{
	int v[] = { 2, 1 };

	sort(v, ARRAY_SIZE(v), sizeof(v[0]), cmp_int, NULL);
	pr_info("cfi_nocheck: loaded, core kernel called back (%d %d)\n", v[0], v[1]);
	return 0;
}
module_init(cfi_nocheck_init);

static void __exit cfi_nocheck_exit(void)
{
}
module_exit(cfi_nocheck_exit);

MODULE_DESCRIPTION("A module without CFI, which jump-table CFI must refuse");
MODULE_LICENSE("GPL");
