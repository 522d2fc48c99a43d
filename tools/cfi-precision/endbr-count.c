// SPDX-License-Identifier: GPL-2.0
/*
 * endbr-count: how many places an indirect branch may land on in an x86-64
 * vmlinux built with IBT, once objtool's seal list has been applied.
 *
 * Usage: endbr-count VMLINUX
 *
 * Prints, one "key: value" per line:
 *   endbr-total           ENDBR64 instructions at the start of a function
 *                         symbol or of a jump-table entry
 *   endbr-sealed          those listed in .ibt_endbr_seal, which the
 *                         kernel turns into a NOP-like poison at boot
 *   endbr-left            total - sealed: the indirect-branch targets IBT
 *                         allows once the kernel runs
 *   endbr-in-jump-tables  of those left, how many are jump-table entries
 *                         (between __cfi_jt_start and __cfi_jt_end)
 *   endbr-sealed-in-jump-tables  the jump-table entries sealed: targets
 *                         the jump tables allow and IBT removes, since
 *                         nothing takes their address where objtool looks
 *
 * An ENDBR64 is counted where a function symbol (STT_FUNC) starts, each
 * address once, and at every 16 bytes of the jump tables; ENDBR64 inside
 * functions (after a setjmp-like call, say) is not counted. A seal entry
 * is a 32-bit offset from itself to the sealed ENDBR64.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf-image.h"

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "endbr-count: %s%s%s\n", msg, arg ? ": " : "",
		arg ? arg : "");
	exit(1);
}

static bool is_endbr64(const struct image *img, u64 addr)
{
	static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	const struct section *s = find_sec(img, addr, sizeof(endbr64));

	return s && s->exec &&
	       !memcmp(s->data + (addr - s->addr), endbr64, sizeof(endbr64));
}

static bool in_sorted(const u64 *v, size_t n, u64 key)
{
	return bsearch(&key, v, n, sizeof(*v), cmp_u64) != NULL;
}

int main(int argc, char **argv)
{
	u64 jt_start = 0, jt_end = 0, a;
	u64 *starts = NULL, *sealed = NULL;
	size_t nstarts = 0, capstarts = 0, nsealed = 0, i, total = 0;
	size_t left = 0, in_jt = 0, nsealed_counted = 0, sealed_jt = 0;
	struct image img;
	long seal;

	if (argc != 2) {
		fprintf(stderr, "usage: endbr-count VMLINUX\n");
		return 2;
	}
	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf is too old", NULL);
	switch (image_open(&img, argv[1])) {
	case IMAGE_OK:
		break;
	case IMAGE_NO_FILE:
		die("cannot open", argv[1]);
		break;
	case IMAGE_NOT_ELF:
		die("not an ELF file", argv[1]);
		break;
	}
	if (img.machine != EM_X86_64)
		die("not an x86-64 image", argv[1]);
	if (!img.symtab)
		die("no symbol table", argv[1]);
	image_load(&img);

	/*
	 * The raw table, not the sorted symbols: the bounds are linker
	 * script symbols, which may be absolute.
	 */
	for (i = 0; i < img.nsymtab; i++) {
		const char *sname;
		GElf_Sym sym;

		image_sym(&img, i, &sym);
		sname = image_sym_name(&img, &sym);
		if (!sname)
			continue;
		if (!strcmp(sname, "__cfi_jt_start"))
			jt_start = sym.st_value;
		else if (!strcmp(sname, "__cfi_jt_end"))
			jt_end = sym.st_value;
		if (GELF_ST_TYPE(sym.st_info) == STT_FUNC)
			PUSH(starts, nstarts, capstarts, sym.st_value);
	}

	seal = image_ibt_seal_list(&img, &sealed);
	if (seal < 0)
		die("__ibt_endbr_seal is not in the file", argv[1]);
	nsealed = seal;

	qsort(starts, nstarts, sizeof(*starts), cmp_u64);
	for (i = 0; i < nstarts; i++) {
		if (i && starts[i] == starts[i - 1])
			continue;
		if (starts[i] >= jt_start && starts[i] < jt_end)
			continue;	/* entries are counted below */
		if (!is_endbr64(&img, starts[i]))
			continue;
		total++;
		if (in_sorted(sealed, nsealed, starts[i]))
			nsealed_counted++;
		else
			left++;
	}
	for (a = jt_start; jt_end && a < jt_end; a += 16) {
		if (!is_endbr64(&img, a))
			continue;
		total++;
		if (in_sorted(sealed, nsealed, a)) {
			nsealed_counted++;
			sealed_jt++;
		} else {
			left++;
			in_jt++;
		}
	}
	printf("endbr-total: %zu\n", total);
	printf("endbr-sealed: %zu\n", nsealed_counted);
	printf("endbr-left: %zu\n", left);
	printf("endbr-in-jump-tables: %zu\n", in_jt);
	printf("endbr-sealed-in-jump-tables: %zu\n", sealed_jt);
	if (nsealed_counted != nsealed)
		fprintf(stderr, "endbr-count: %zu of %zu seal entries are not at a counted ENDBR64\n",
			nsealed - nsealed_counted, nsealed);
	return 0;
}
