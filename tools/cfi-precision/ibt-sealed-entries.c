// SPDX-License-Identifier: GPL-2.0
/*
 * ibt-sealed-entries: which jump-table entries of an x86-64 image built
 * with IBT does objtool's seal list name?
 *
 * Usage: ibt-sealed-entries IMAGE > NAMES
 *
 * IMAGE is a linked vmlinux or a module (.ko). objtool lists in
 * .ibt_endbr_seal every ENDBR64 nothing it reads takes the address of,
 * and the kernel poisons those at boot or module load, so that an
 * indirect branch there raises #CP. A jump-table entry is an ENDBR64 and
 * a JMP, and objtool does not read the .discard sections that C uses to
 * take an address only to make an entry (except .discard.ibt_endbr_noseal):
 * an entry the kernel hands out, made that way, would be sealed.
 *
 * vmlinux's list is s32 offsets, each from its own address, between
 * __ibt_endbr_seal and __ibt_endbr_seal_end; a module's is the
 * relocations of .ibt_endbr_seal, read before the module loader applies
 * them. An entry is a symbol whose name holds ".cfi_jt".
 *
 * Output: the C name (up to the first '.') of each sealed entry, one a
 * line; on stderr "seal-list: N" and "sealed-entries: N".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf-image.h"

/* Where an entry is: a section and an offset in it (ET_REL), or 0 and an address. */
struct place {
	size_t sec;
	u64 off;
	const char *name;
};

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "ibt-sealed-entries: %s%s%s\n", msg, arg ? ": " : "",
		arg ? arg : "");
	exit(1);
}

static int cmp_place(const void *a, const void *b)
{
	const struct place *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return 0;
}

/* The sealed places of a linked image. */
static size_t sealed_linked(struct image *img, struct place **out)
{
	struct place *v;
	long i, n;
	u64 *seal;

	image_load(img);
	n = image_ibt_seal_list(img, &seal);
	if (n < 0)
		die("__ibt_endbr_seal is not in the file", NULL);
	if (!n)
		die("no __ibt_endbr_seal list (not built with IBT?)", NULL);
	v = xcalloc(n, sizeof(*v));
	for (i = 0; i < n; i++)
		v[i].off = seal[i];
	free(seal);
	*out = v;
	return n;
}

/* The sealed places of a relocatable image: its list's relocations. */
static size_t sealed_relocatable(struct image *img, struct place **out)
{
	size_t n = 0, cap = 0, seal = 0, shstrndx, i;
	struct place *v = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(img->elf, &shstrndx))
		die("no section names", NULL);
	while ((scn = elf_nextscn(img->elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(img->elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".ibt_endbr_seal"))
			seal = elf_ndxscn(scn);
	}
	scn = NULL;
	while (seal && (scn = elf_nextscn(img->elf, scn))) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA ||
		    sh.sh_info != seal)
			continue;
		data = elf_getdata(scn, NULL);
		for (i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			struct place p = { 0 };
			GElf_Rela r;
			GElf_Sym sym;

			if (!gelf_getrela(data, i, &r))
				continue;
			p.sec = image_sym(img, GELF_R_SYM(r.r_info), &sym);
			p.off = sym.st_value + r.r_addend;
			PUSH(v, n, cap, p);
		}
	}
	*out = v;
	return n;
}

int main(int argc, char **argv)
{
	struct place *entries = NULL, *sealed;
	size_t nentries = 0, cap = 0, nsealed, i, hits = 0;
	struct image img;
	GElf_Ehdr eh;
	bool rel;

	if (argc != 2) {
		fprintf(stderr, "usage: ibt-sealed-entries IMAGE\n");
		return 2;
	}
	if (image_open(&img, argv[1]) != IMAGE_OK)
		die("not a readable ELF file", argv[1]);
	if (img.machine != EM_X86_64)
		die("not an x86-64 image", argv[1]);
	if (!img.symtab)
		die("no symbol table", argv[1]);
	gelf_getehdr(img.elf, &eh);
	rel = eh.e_type == ET_REL;

	for (i = 0; i < img.nsymtab; i++) {
		struct place p;
		GElf_Sym sym;
		size_t sec = image_sym(&img, i, &sym);

		p.name = image_sym_name(&img, &sym);
		if (!p.name || !strstr(p.name, ".cfi_jt") || sec == NO_SECTION)
			continue;
		p.sec = rel ? sec : 0;
		p.off = sym.st_value;
		PUSH(entries, nentries, cap, p);
	}
	qsort(entries, nentries, sizeof(*entries), cmp_place);

	nsealed = rel ? sealed_relocatable(&img, &sealed) :
			sealed_linked(&img, &sealed);
	for (i = 0; i < nsealed; i++) {
		const struct place *e = bsearch(&sealed[i], entries, nentries,
						sizeof(*entries), cmp_place);

		/* Aliases at one place name one entry: print the first. */
		while (e && e > entries && !cmp_place(e - 1, e))
			e--;
		if (!e)
			continue;
		printf("%.*s\n", (int)strcspn(e->name, "."), e->name);
		hits++;
	}
	fprintf(stderr, "seal-list: %zu\nsealed-entries: %zu\n", nsealed, hits);
	return 0;
}
