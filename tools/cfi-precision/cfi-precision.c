// SPDX-License-Identifier: GPL-2.0
/*
 * cfi-precision: how many functions may each CFI-checked indirect call
 * site in a vmlinux reach?
 *
 * Usage: cfi-precision [-v] [-a] [-x ENTRIES] VMLINUX
 *   -v  also list the 10 widest prototypes and call sites
 *   -a  also list every call site ("site: symbol+offset type T targets N")
 *   -x  jt: count the jump-table entries whose addresses ENTRIES lists
 *       (one hex address first on each line, as cfi-jt-refs writes them)
 *       as removed: what precision would be without them
 *
 * The scheme is detected from the image:
 *
 *  jt    a symbol __cfi_slowpath_diag or "*.cfi_jt" symbols exist (LLVM
 *        jump-table CFI, cross-DSO, non-canonical jump tables).
 *  kcfi  kCFI check sequences are found (arm64: brk #0x8000-0x83ff after a
 *        compare of the word before the target; x86_64: mov $-hash,%r10d;
 *        add disp8(%reg),%r10d; je).
 *  none  neither.
 *
 * Where each part lives: elf-image.c reads the image, jt-arm64.c and
 * jt-x86.c decode jump-table CFI, kcfi.c with kcfi-arm64.c and kcfi-x86.c
 * kCFI (arm64-insn.c holds what both arm64 decoders decode with), each
 * file describing its method; report.c prints what they found, the same
 * way for all.  This file only picks the decoder.
 *
 * Limits.  Only vmlinux is looked at: modules add targets in both schemes
 * (a jt slow path also accepts a module function of the type through that
 * module's __cfi_check).  kCFI counts every function carrying the hash,
 * whether or not its address is ever taken; jt only has table entries for
 * functions whose address is taken somewhere, which is exactly why jt sets
 * are smaller.  Decoding is pattern based: sites whose type id cannot be
 * decoded are counted as "call-sites-unresolved" and left out of the
 * statistics; jt sites whose check was not decoded still count once per
 * (bl, type id), so checks sharing a tail-merged slow path may be merged.
 * A word before a function that equals a hash without being a kCFI
 * preamble would be counted as a target.
 * "prototypes" counts the distinct type ids demanded by call sites.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "precision.h"

static bool has_jt(const struct image *img)
{
	size_t i;

	if (sym_by_name(img, "__cfi_slowpath_diag"))
		return true;
	for (i = 0; i < img->nsyms; i++)
		if (ends_with(img->syms[i].name, ".cfi_jt"))
			return true;
	return false;
}

static void usage(void)
{
	fprintf(stderr, "usage: cfi-precision [-v] [-a] [-x ENTRIES] VMLINUX\n"
		"  -v  also list the 10 widest prototypes and call sites\n"
		"  -a  also list every call site\n"
		"  -x  count the jump-table entries listed in ENTRIES as removed\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct image img;
	int opt;

	while ((opt = getopt(argc, argv, "avx:")) != -1) {
		if (opt == 'a')
			all_sites = true;
		else if (opt == 'v')
			verbose = true;
		else if (opt == 'x')
			read_removed(optarg);
		else
			usage();
	}
	if (optind != argc - 1)
		usage();
	switch (image_open(&img, argv[optind])) {
	case IMAGE_OK:
		break;
	case IMAGE_NO_FILE:
		fprintf(stderr, "%s: %s\n", argv[optind], strerror(errno));
		return 1;
	case IMAGE_NOT_ELF:
		fprintf(stderr, "%s: not an ELF file\n", argv[optind]);
		return 1;
	}
	image_load(&img);
	if (img.machine != EM_AARCH64 && img.machine != EM_X86_64) {
		fprintf(stderr, "cfi-precision: only arm64 and x86_64 images are supported\n");
		return 1;
	}
	if (!img.nsyms) {
		fprintf(stderr, "cfi-precision: %s has no symbol table\n", argv[optind]);
		return 1;
	}
	if (has_jt(&img) && img.machine == EM_X86_64)
		return run_jt_x86(&img);
	if (has_jt(&img))
		return run_jt_arm64(&img);
	if (any_removed()) {
		fprintf(stderr, "cfi-precision: -x applies to jump-table CFI images only\n");
		return 2;
	}
	return run_kcfi(&img);
}
