// SPDX-License-Identifier: GPL-2.0
/*
 * CFI's attacker against a module that is being loaded (the module named
 * by target=, lib/test_cfi_module.c by default).
 *
 * By default, as soon as the CFI shadow leads the slow path to the
 * module's index, it retypes one entry there, giving forged_index_target()'s
 * entry the type id of stale_timer_fn()'s (the test module's
 * call_forged_index=1 then has a timer call it). It looks twice during the
 * load: from a kprobe on ftrace_module_init(), which runs before the module
 * is formed and its read-only data is made read-only, and when the module
 * notifier says the module is coming. Once the shadow leads to an index,
 * the index must be read-only: the write must fault.
 *
 * With alias=1, it looks instead for a writable alias of read-only CFI
 * data while it is written: of the shadow, while the module's slots are
 * written or cleared, and of the set of JIT-compiled BPF entries
 * (map_bpf_jit_entries=), while a classic BPF program it makes at load is
 * JIT-compiled and freed. From a kprobe on vunmap(), it writes a word
 * through any mapping of a page of either that is being taken down, and
 * checks that the read-only copy changed. When it is unloaded it says
 * whether the module's slots were in the shadow by the time it was
 * coming, whether the BPF program was JIT-compiled, and how many aliases
 * it found (there must be none).
 *
 * map_jiffies=, map_shadow= and map_bpf_jit_entries= are the System.map
 * addresses of jiffies (for the KASLR offset), cfi_jt_shadow and
 * bpf_jit_entries.
 */
#include <linux/bitops.h>
#include <linux/filter.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/cfi.h>

static unsigned long map_jiffies;
module_param(map_jiffies, ulong, 0400);
static unsigned long map_shadow;
module_param(map_shadow, ulong, 0400);
static unsigned long map_bpf_jit_entries;
module_param(map_bpf_jit_entries, ulong, 0400);
static char *target = "test_cfi_module";
module_param(target, charp, 0400);
static bool alias;
module_param(alias, bool, 0400);

#ifdef CONFIG_CFI_CLANG_JUMP_TABLE
/* The layout of struct cfi_jt_shadow in kernel/cfi_jt.h. */
struct load_race_shadow {
	unsigned long base;
	unsigned long slots;
	s32 slot[];
};

static bool load_race_done, load_race_mapped, load_race_jited;
static unsigned int load_race_aliases, load_race_bpf_aliases;

static const struct load_race_shadow *load_race_shadow(void)
{
	unsigned long kaslr = (unsigned long)&jiffies - map_jiffies;

	return READ_ONCE(*(struct load_race_shadow **)(map_shadow + kaslr));
}

/* The shadow's slot of the page at @addr, or NULL outside the shadow. */
static const s32 *load_race_slot(unsigned long addr)
{
	const struct load_race_shadow *shadow = load_race_shadow();
	unsigned long slot = (addr >> PAGE_SHIFT) - shadow->base;

	return slot < shadow->slots ? &shadow->slot[slot] : NULL;
}

/*
 * The jump-table entry of @mod's function @fn: "fn.cfi_jt", or
 * "fn.<hash>.cfi_jt" after ThinLTO.
 */
static unsigned long load_race_entry(struct module *mod, const char *fn)
{
	struct mod_kallsyms *ks = rcu_dereference_sched(mod->kallsyms);
	size_t len = strlen(fn);
	unsigned int i;

	for (i = 0; i < ks->num_symtab; i++) {
		const char *name = ks->strtab + ks->symtab[i].st_name;

		if (!strncmp(name, fn, len) && name[len] == '.' &&
		    strlen(name) >= len + 7 &&
		    !strcmp(name + strlen(name) - 7, ".cfi_jt"))
			return ks->symtab[i].st_value;
	}
	return 0;
}

static void load_race_forge(struct module *mod, const char *when)
{
	unsigned long page = (unsigned long)mod->mem[MOD_TEXT].base >> PAGE_SHIFT;
	unsigned int shift = ilog2(CFI_JT_ENTRY_SIZE);
	const s32 *slot = load_race_slot(page << PAGE_SHIFT);
	unsigned long good, bad;
	u64 *ids;
	s32 delta;

	if (load_race_done || strcmp(mod->name, target))
		return;
	if (!slot) {
		pr_err("FAIL: cfi_load_race: %s's text is outside the CFI shadow\n",
		       target);
		load_race_done = true;
		return;
	}
	delta = READ_ONCE(*slot);
	if (alias) {
		if (delta && !strcmp(when, "coming"))
			load_race_mapped = true;
		return;
	}
	if (!delta) {
		pr_info("cfi_load_race: %s: the CFI shadow does not lead to %s's index yet\n",
			when, target);
		return;
	}
	load_race_done = true;
	ids = (u64 *)(page << PAGE_SHIFT) + delta;
	good = load_race_entry(mod, "stale_timer_fn");
	bad = load_race_entry(mod, "forged_index_target");
	if (!good || !bad) {
		pr_err("FAIL: cfi_load_race: no jump-table entries of stale_timer_fn() and forged_index_target() in %s\n",
		       target);
		return;
	}
	good = ror64(good - ids[-2], shift);
	bad = ror64(bad - ids[-2], shift);
	if (good >= ids[-1] || bad >= ids[-1]) {
		pr_err("FAIL: cfi_load_race: the entries are not in the tables %s's index describes\n",
		       target);
		return;
	}
	pr_info("cfi_load_race: %s: forging %s's index at %px ...\n",
		when, target, &ids[bad]);
	WRITE_ONCE(ids[bad], READ_ONCE(ids[good]));
	pr_info("cfi_load_race: the write to %s's index went through\n", target);
}

static int load_race_formed(struct kprobe *kp, struct pt_regs *regs)
{
	load_race_forge((void *)regs_get_kernel_argument(regs, 0),
			"before the module is formed");
	return 0;
}

static struct kprobe load_race_kprobe = {
	.symbol_name = "ftrace_module_init",
	.pre_handler = load_race_formed,
};

/*
 * If the page at @map maps one of the @size bytes at @ro, write the word
 * at the page's end through it, see whether @ro changed, and put it back.
 */
static bool load_race_alias(s32 *map, const void *ro, unsigned long size,
			    const char *what)
{
	unsigned int last = PAGE_SIZE / sizeof(s32) - 1;
	struct page *page = vmalloc_to_page(map);
	const s32 *word;
	unsigned long p;
	s32 old;

	for (p = 0; page && p < size; p += PAGE_SIZE) {
		word = (const s32 *)(ro + p) + last;
		if (vmalloc_to_page(word) != page)
			continue;
		old = READ_ONCE(*word);
		WRITE_ONCE(map[last], old ^ 1);
		if (READ_ONCE(*word) == (old ^ 1))
			pr_err("cfi_load_race: wrote the read-only %s at %px through a writable alias at %px\n",
			       what, word, &map[last]);
		WRITE_ONCE(map[last], old);
		return true;
	}
	return false;
}

/* @regs' first argument is the start of a mapping being taken down. */
static int load_race_vunmap(struct kprobe *kp, struct pt_regs *regs)
{
	s32 *map = (s32 *)regs_get_kernel_argument(regs, 0);
	const struct load_race_shadow *shadow = load_race_shadow();
	unsigned long kaslr = (unsigned long)&jiffies - map_jiffies;
	const void *bpf;

	if (!is_vmalloc_addr(map) || !PAGE_ALIGNED(map))
		return 0;
	if (load_race_alias(map, shadow,
			    struct_size(shadow, slot, shadow->slots),
			    "CFI shadow"))
		load_race_aliases++;
	if (!map_bpf_jit_entries)
		return 0;
	bpf = READ_ONCE(*(const void **)(map_bpf_jit_entries + kaslr));
	/* BPF_JIT_ENTRY_SLOTS unsigned longs, in kernel/bpf/core.c. */
	if (bpf && load_race_alias(map, bpf, (1UL << 15) * sizeof(long),
				   "set of BPF JIT entries"))
		load_race_bpf_aliases++;
	return 0;
}

/* A classic BPF program, JIT-compiled and freed: its entry comes and goes. */
static void load_race_bpf(void)
{
	struct sock_filter insns[] = { BPF_STMT(BPF_RET | BPF_K, 0) };
	struct sock_fprog_kern fprog = { .len = 1, .filter = insns };
	struct bpf_prog *prog;

	if (bpf_prog_create(&prog, &fprog))
		return;
	load_race_jited = prog->jited;
	bpf_prog_destroy(prog);
}

static struct kprobe load_race_vunmap_kprobe = {
	.symbol_name = "vunmap",
	.pre_handler = load_race_vunmap,
};

static int load_race_coming(struct notifier_block *nb, unsigned long state,
			    void *data)
{
	if (state == MODULE_STATE_COMING)
		load_race_forge(data, "coming");
	return NOTIFY_DONE;
}

static struct notifier_block load_race_nb = {
	.notifier_call = load_race_coming,
};

static int __init cfi_load_race_init(void)
{
	int ret;


	if (!map_jiffies || !map_shadow) {
		pr_err("cfi_load_race: map_jiffies= and map_shadow= are needed\n");
		return -EINVAL;
	}
	ret = register_kprobe(alias ? &load_race_vunmap_kprobe : &load_race_kprobe);
	if (ret) {
		pr_err("cfi_load_race: no kprobe on %s(): %d\n",
		       alias ? "vunmap" : "ftrace_module_init", ret);
		return ret;
	}
	ret = register_module_notifier(&load_race_nb);
	if (ret)
		unregister_kprobe(alias ? &load_race_vunmap_kprobe : &load_race_kprobe);
	else if (alias && map_bpf_jit_entries)
		load_race_bpf();
	return ret;
}

static void __exit cfi_load_race_exit(void)
{
	unregister_module_notifier(&load_race_nb);
	unregister_kprobe(alias ? &load_race_vunmap_kprobe : &load_race_kprobe);
	if (alias)
		pr_info("cfi_load_race: %s's slots %s in the CFI shadow when it was coming; a BPF program was%s JIT-compiled; writable aliases seen: %u of the shadow, %u of the BPF JIT entries\n",
			target, load_race_mapped ? "were" : "were not",
			load_race_jited ? "" : " not", load_race_aliases,
			load_race_bpf_aliases);
}
#else
static int __init cfi_load_race_init(void)
{
	pr_err("cfi_load_race: needs CONFIG_CFI_CLANG_JUMP_TABLE\n");
	return -EOPNOTSUPP;
}

static void __exit cfi_load_race_exit(void)
{
}
#endif

module_init(cfi_load_race_init);
module_exit(cfi_load_race_exit);
MODULE_DESCRIPTION("Forges a module's CFI index while the module loads");
MODULE_LICENSE("GPL");
