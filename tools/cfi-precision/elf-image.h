/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a vmlinux (or vmlinux.o) with libelf, for every tool here: the
 * allocated sections' bytes by address and the symbols sorted by address,
 * so that code can be decoded and named; the raw symbol table for what
 * the sorted list leaves out (mapping symbols, absolute and section
 * symbols, section indexes of a relocatable object).
 */
#ifndef CFI_ELF_IMAGE_H
#define CFI_ELF_IMAGE_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct section {
	u64 addr;
	u64 size;
	const unsigned char *data;
	bool exec;
};

struct symbol {
	u64 addr;
	const char *name;
	bool func;
};

struct image {
	int fd;
	Elf *elf;
	int machine;
	/* image_load(): allocated PROGBITS sections, in file order */
	struct section *secs;
	size_t nsecs;
	struct symbol *syms;	/* sorted by address, no mapping symbols */
	size_t nsyms;
	/* The raw symbol table (none: symtab is NULL, nsymtab 0). */
	Elf_Scn *symtab;
	Elf_Data *symdata, *xndx;
	size_t strtab, nsymtab;
};

/* Why image_open() failed; each tool words its own message. */
enum image_err {
	IMAGE_OK,
	IMAGE_NO_FILE,		/* errno tells */
	IMAGE_NOT_ELF,
};

/* No section index: undefined, absolute, common or unreadable. */
#define NO_SECTION ((size_t)-1)

enum image_err image_open(struct image *img, const char *path);
void image_load(struct image *img);

size_t image_sym(const struct image *img, size_t i, GElf_Sym *s);
const char *image_sym_name(const struct image *img, const GElf_Sym *s);

const struct section *find_sec(const struct image *img, u64 addr,
			       size_t len);
bool read_mem(const struct image *img, u64 addr, void *buf, size_t len);
const struct symbol *sym_by_name(const struct image *img, const char *name);
const struct symbol *sym_at(const struct image *img, u64 addr);
const char *describe(const struct image *img, u64 addr);
long image_ibt_seal_list(const struct image *img, u64 **out);

#endif
