// SPDX-License-Identifier: GPL-2.0
/*
 * Per-call cost of the kinds of call CFI treats differently, timed in
 * the guest at load (run under QEMU -icount shift=0, one nanosecond of
 * guest time is one instruction):
 *
 *   loop       the loop alone, for reference
 *   direct     a direct call
 *   unchecked  an indirect call from a __nocfi function
 *   checked    an indirect call to a function of this module
 *   cross      an indirect call through a pointer the core kernel made;
 *              under jump-table CFI it is not in this module's tables,
 *              so every call takes the cross-DSO slow path
 *   into       the core kernel calling this module: bsearch() of one
 *              element, whose one call of the comparison is checked in
 *              the core kernel, through a pointer this module made (the
 *              host subtracts the same loop without CFI)
 *   bpf-run    a run of a JIT-compiled classic BPF program that returns
 *              a constant (bpf_prog_run()); under jump-table CFI the run
 *              site looks its entry up in the read-only set of JIT
 *              entries, under x86 kCFI it checks the BPF type hash
 *   bpf-direct the same program called as the BPF dispatcher calls it,
 *              with no check: bpf-run less bpf-direct is the run site's
 *              check
 *
 * The C targets have one prototype and only return, so the figures differ
 * by the call and its check alone.  Results are printed as
 * "jtcfi-bench: micro NAME calls=N ns=T" for the host to read.
 */
#include <linux/bsearch.h>
#include <linux/compiler.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static unsigned long calls = 1000000;
module_param(calls, ulong, 0400);
MODULE_PARM_DESC(calls, "calls per measurement");

typedef ssize_t (*read_fn)(struct file *file, char __user *buf, size_t len,
			   loff_t *pos);

/* Same prototype and body as the core kernel's generic_read_dir(). */
static noinline ssize_t bench_read(struct file *file, char __user *buf,
				   size_t len, loff_t *pos)
{
	barrier();	/* keep the call: the function must not look pure */
	return -EISDIR;
}

/*
 * A second address-taken function of the prototype: with one entry the
 * compiler checks by equality, while kernel call sites mostly see tables
 * of several entries and their range check.
 */
static noinline ssize_t bench_read_zero(struct file *file, char __user *buf,
					size_t len, loff_t *pos)
{
	barrier();
	return 0;
}

/* bsearch()'s comparison: every element matches. */
static noinline int bench_cmp(const void *key, const void *elt)
{
	barrier();
	return 0;
}

/*
 * Each loop hides the pointer from the compiler on every iteration, so
 * that the check cannot be hoisted out of the loop; interrupts are off so
 * that ticks do not land in the figure.
 */
static u64 time_loop(void)
{
	unsigned long i, flags;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < calls; i++)
		OPTIMIZER_HIDE_VAR(i);
	t1 = ktime_get_ns();
	local_irq_restore(flags);
	return t1 - t0;
}

static u64 time_direct(void)
{
	unsigned long i, flags;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < calls; i++)
		bench_read(NULL, NULL, 0, NULL);
	t1 = ktime_get_ns();
	local_irq_restore(flags);
	return t1 - t0;
}

/* The same loop as time_checked(): __nocfi is the only difference. */
static u64 __nocfi time_unchecked(read_fn fn)
{
	unsigned long i, flags;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < calls; i++) {
		OPTIMIZER_HIDE_VAR(fn);
		fn(NULL, NULL, 0, NULL);
	}
	t1 = ktime_get_ns();
	local_irq_restore(flags);
	return t1 - t0;
}

static u64 time_checked(read_fn fn)
{
	unsigned long i, flags;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < calls; i++) {
		OPTIMIZER_HIDE_VAR(fn);
		fn(NULL, NULL, 0, NULL);
	}
	t1 = ktime_get_ns();
	local_irq_restore(flags);
	return t1 - t0;
}

static u64 time_into(cmp_func_t cmp)
{
	unsigned long i, flags;
	int key = 0, elt = 0;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < calls; i++) {
		OPTIMIZER_HIDE_VAR(cmp);
		bsearch(&key, &elt, 1, sizeof(elt), cmp);
	}
	t1 = ktime_get_ns();
	local_irq_restore(flags);
	return t1 - t0;
}

static u64 time_bpf_run(const struct bpf_prog *prog)
{
	unsigned long i, flags;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < calls; i++) {
		OPTIMIZER_HIDE_VAR(prog);
		bpf_prog_run(prog, NULL);
	}
	t1 = ktime_get_ns();
	local_irq_restore(flags);
	return t1 - t0;
}

static u64 time_bpf_direct(const struct bpf_prog *prog)
{
	unsigned long i, flags;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < calls; i++) {
		OPTIMIZER_HIDE_VAR(prog);
		bpf_dispatcher_nop_func(NULL, prog->insnsi, prog->bpf_func);
	}
	t1 = ktime_get_ns();
	local_irq_restore(flags);
	return t1 - t0;
}

static void report(const char *name, u64 ns)
{
	pr_info("jtcfi-bench: micro %s calls=%lu ns=%llu\n", name, calls, ns);
}

static int __init cfi_bench_init(void)
{
	read_fn core_fn = simple_dir_operations.read;
	read_fn zero_fn = bench_read_zero;
	struct sock_filter insns[] = { BPF_STMT(BPF_RET | BPF_K, 0) };
	struct sock_fprog_kern fprog = { .len = ARRAY_SIZE(insns), .filter = insns };
	struct bpf_prog *prog;
	int err;

	if (!calls)
		return -EINVAL;
	/* The cross-DSO case needs a core pointer to generic_read_dir(). */
	OPTIMIZER_HIDE_VAR(zero_fn);
	if (core_fn(NULL, NULL, 0, NULL) != -EISDIR || zero_fn(NULL, NULL, 0, NULL))
		return -EINVAL;

	report("loop", time_loop());
	report("direct", time_direct());
	report("unchecked", time_unchecked(bench_read));
	report("checked", time_checked(bench_read));
	report("cross", time_checked(core_fn));
	report("into", time_into(bench_cmp));

	/* The program never reads its context. */
	err = bpf_prog_create(&prog, &fprog);
	if (err)
		return err;
	if (prog->jited) {
		report("bpf-run", time_bpf_run(prog));
		report("bpf-direct", time_bpf_direct(prog));
	} else {
		pr_err("jtcfi-bench: error: the BPF program was not JIT-compiled\n");
	}
	bpf_prog_destroy(prog);
	return 0;
}
module_init(cfi_bench_init);

static void __exit cfi_bench_exit(void)
{
}
module_exit(cfi_bench_exit);

MODULE_DESCRIPTION("Per-call cost of direct, indirect and CFI-checked calls");
MODULE_LICENSE("GPL");
