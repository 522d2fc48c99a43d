// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF reader of every tool here; see
 * elf-image.h.  Nothing here prints: the tools keep their own messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf-image.h"

/*
 * Only the symbol table is located here: a relocatable vmlinux.o has a
 * section per function, and its readers want none of them loaded.
 */
enum image_err image_open(struct image *img, const char *path)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;

	memset(img, 0, sizeof(*img));
	elf_version(EV_CURRENT);
	img->fd = open(path, O_RDONLY);
	if (img->fd < 0)
		return IMAGE_NO_FILE;
	img->elf = elf_begin(img->fd, ELF_C_READ_MMAP, NULL);
	if (!img->elf || elf_kind(img->elf) != ELF_K_ELF ||
	    !gelf_getehdr(img->elf, &eh))
		return IMAGE_NOT_ELF;
	img->machine = eh.e_machine;
	while ((scn = elf_nextscn(img->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB && !img->symtab) {
			img->symtab = scn;
			img->symdata = elf_getdata(scn, NULL);
			img->strtab = sh.sh_link;
			if (img->symdata && sh.sh_entsize)
				img->nsymtab = sh.sh_size / sh.sh_entsize;
		}
	}
	/* Over 65279 sections (LTO's one per function): SHN_XINDEX. */
	while (img->symtab && (scn = elf_nextscn(img->elf, scn))) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB_SHNDX &&
		    sh.sh_link == elf_ndxscn(img->symtab))
			img->xndx = elf_getdata(scn, NULL);
	}
	return IMAGE_OK;
}

/*
 * Symbol-table entry @i and the index of the section it is defined in, or
 * NO_SECTION; an unreadable entry reads as the null symbol.
 */
size_t image_sym(const struct image *img, size_t i, GElf_Sym *s)
{
	Elf32_Word x = 0;

	if (!gelf_getsymshndx(img->symdata, img->xndx, i, s, &x)) {
		memset(s, 0, sizeof(*s));
		return NO_SECTION;
	}
	if (s->st_shndx == SHN_XINDEX)
		return x;
	return s->st_shndx >= SHN_LORESERVE || s->st_shndx == SHN_UNDEF ?
	       NO_SECTION : s->st_shndx;
}

const char *image_sym_name(const struct image *img, const GElf_Sym *s)
{
	return elf_strptr(img->elf, img->strtab, s->st_name);
}

static int cmp_sym(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Among aliases prefer functions, then the shortest name. */
	if (x->func != y->func)
		return x->func ? -1 : 1;
	return (int)strlen(x->name) - (int)strlen(y->name);
}

static void load_symbols(struct image *img)
{
	size_t i, cap = 0;

	for (i = 0; i < img->nsymtab; i++) {
		GElf_Sym s;
		struct symbol sym;
		const char *name;
		int t;

		image_sym(img, i, &s);
		t = GELF_ST_TYPE(s.st_info);
		if (t != STT_FUNC && t != STT_NOTYPE && t != STT_OBJECT)
			continue;
		if (s.st_shndx == SHN_UNDEF || s.st_shndx == SHN_ABS)
			continue;
		name = image_sym_name(img, &s);
		/* $x/$d are AArch64 mapping symbols, not names. */
		if (!name || !*name || name[0] == '$')
			continue;
		sym.addr = s.st_value;
		sym.name = name;
		sym.func = t == STT_FUNC;
		PUSH(img->syms, img->nsyms, cap, sym);
	}
	qsort(img->syms, img->nsyms, sizeof(*img->syms), cmp_sym);
}

/* What a linked image needs to be read by address. */
void image_load(struct image *img)
{
	Elf_Scn *scn = NULL;
	size_t cap = 0;

	while ((scn = elf_nextscn(img->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		struct section s;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_ALLOC))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size < sh.sh_size)
			continue;
		s.addr = sh.sh_addr;
		s.size = sh.sh_size;
		s.data = d->d_buf;
		s.exec = sh.sh_flags & SHF_EXECINSTR;
		PUSH(img->secs, img->nsecs, cap, s);
	}
	load_symbols(img);
}

const struct section *find_sec(const struct image *img, u64 addr, size_t len)
{
	size_t i;

	for (i = 0; i < img->nsecs; i++) {
		const struct section *s = &img->secs[i];

		if (addr >= s->addr && addr - s->addr + len <= s->size)
			return s;
	}
	return NULL;
}

bool read_mem(const struct image *img, u64 addr, void *buf, size_t len)
{
	const struct section *s = find_sec(img, addr, len);

	if (!s)
		return false;
	memcpy(buf, s->data + (addr - s->addr), len);	/* little endian host */
	return true;
}

const struct symbol *sym_by_name(const struct image *img, const char *name)
{
	size_t i;

	for (i = 0; i < img->nsyms; i++)
		if (!strcmp(img->syms[i].name, name))
			return &img->syms[i];
	return NULL;
}

/* Closest symbol at or below @addr, for "symbol+offset" output. */
const struct symbol *sym_at(const struct image *img, u64 addr)
{
	size_t lo = 0, hi = img->nsyms;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (img->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* Step back to the preferred alias (sorted first). */
	lo--;
	while (lo && img->syms[lo - 1].addr == img->syms[lo].addr)
		lo--;
	return &img->syms[lo];
}

/* Eight buffers: one message may name several places. */
const char *describe(const struct image *img, u64 addr)
{
	static char buf[8][256];
	static int slot;
	const struct symbol *s = sym_at(img, addr);
	char *b = buf[slot++ & 7];

	if (!s)
		snprintf(b, sizeof(buf[0]), "0x%" PRIx64, addr);
	else
		snprintf(b, sizeof(buf[0]), "%s+0x%" PRIx64, s->name,
			 addr - s->addr);
	return b;
}

/*
 * The addresses objtool's seal list names in a linked x86-64 image built
 * with IBT, sorted: s32 offsets, each from its own address, between
 * __ibt_endbr_seal and __ibt_endbr_seal_end. Returns how many, 0 (and
 * *@out NULL) if the image has no list, -1 if the list is not in the
 * file's loaded sections (image_load() first).
 */
long image_ibt_seal_list(const struct image *img, u64 **out)
{
	u64 start = 0, end = 0, *v;
	const struct section *s;
	size_t i, n;

	*out = NULL;
	for (i = 0; i < img->nsymtab; i++) {
		const char *name;
		GElf_Sym sym;

		image_sym(img, i, &sym);
		name = image_sym_name(img, &sym);
		if (name && !strcmp(name, "__ibt_endbr_seal"))
			start = sym.st_value;
		else if (name && !strcmp(name, "__ibt_endbr_seal_end"))
			end = sym.st_value;
	}
	if (!start || end <= start)
		return 0;
	s = find_sec(img, start, end - start);
	if (!s)
		return -1;
	n = (end - start) / 4;
	v = xcalloc(n, sizeof(*v));
	for (i = 0; i < n; i++) {
		s32 off;

		memcpy(&off, s->data + (start - s->addr) + 4 * i, sizeof(off));
		v[i] = start + 4 * i + (s64)off;
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	*out = v;
	return n;
}
