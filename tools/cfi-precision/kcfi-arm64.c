// SPDX-License-Identifier: GPL-2.0
/*
 * cfi-precision, the check sequences of kCFI on arm64 and the hash words
 * that mark a typed function there (kcfi.c counts the targets).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm64-insn.h"
#include "precision.h"

/* arm64: brk #0x8000 | type_reg << 5 | target_reg, after the compare. */
void scan_kcfi_arm64(const struct image *img, const struct section *sec,
		     struct site **sites, size_t *n, size_t *cap)
{
	/* No branch index: the hash is set on the straight line before. */
	const struct code code = { .img = img, .sec = sec, .n = sec->size / 4 };
	const struct code *c = &code;
	size_t k, j;

	for (k = 0; k < c->n; k++) {
		u32 i = insn(c, k), imm = (i >> 5) & 0xffff;
		struct site s = { .addr = pc_of(c, k), .off = -4 };
		u64 hash;

		if (!is_brk(i) || (imm & 0xfc00) != 0x8000)
			continue;
		s.resolved = const_before(c, k, (imm >> 5) & 31, false, &hash);
		s.type = hash;
		/* ldur w16, [xT, #off] gives where the hash is read from. */
		if (find_def(c, k, 16, 16, &j) &&
		    (insn(c, j) & 0xffe00c00) == 0xb8400000)
			s.off = sext((insn(c, j) >> 12) & 0x1ff, 9);
		if (!s.resolved)
			fprintf(stderr, "cfi-precision: no hash for the check at %s\n",
				describe(c->img, s.addr));
		PUSH(*sites, *n, *cap, s);
	}
}

/* arm64: functions with a $d mapping symbol (a kCFI type hash) at - 4. */
long kcfi_typed(const struct image *img)
{
	u64 *data = NULL, *funcs = NULL;
	size_t i, ndata = 0, capdata = 0, nfuncs = 0, capfuncs = 0;
	long typed = 0;

	/* The sorted symbols leave the mapping symbols out. */
	for (i = 0; i < img->nsymtab; i++) {
		GElf_Sym s;
		const char *name;

		image_sym(img, i, &s);
		name = image_sym_name(img, &s);
		if (!name || !*name)
			continue;
		if (!strcmp(name, "$d"))
			PUSH(data, ndata, capdata, s.st_value);
		else if (GELF_ST_TYPE(s.st_info) == STT_FUNC)
			PUSH(funcs, nfuncs, capfuncs, s.st_value);
	}
	qsort(data, ndata, sizeof(*data), cmp_u64);
	qsort(funcs, nfuncs, sizeof(*funcs), cmp_u64);
	for (i = 0; i < nfuncs; i++) {
		u64 want = funcs[i] - 4;

		if (i && funcs[i] == funcs[i - 1])
			continue;		/* aliases count once */
		if (ndata && bsearch(&want, data, ndata, sizeof(*data), cmp_u64))
			typed++;
	}
	free(data);
	free(funcs);
	return typed;
}
