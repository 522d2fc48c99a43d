/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of cfi-precision share: the image (ELF reading in
 * cfi-precision.c), the call sites each decoder finds and the report.
 */
#ifndef CFI_PRECISION_H
#define CFI_PRECISION_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef int64_t s64;

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
	struct section *secs;
	size_t nsecs;
	struct symbol *syms;	/* sorted by address, no mapping symbols */
	size_t nsyms;
	Elf_Scn *symtab;	/* with the mapping symbols, for kcfi_typed() */
};

/* One checked indirect call site. */
struct site {
	u64 addr;
	u64 type;
	int off;		/* kcfi: where the hash sits relative to a target */
	bool resolved;
	bool slow_only;		/* jt: no inline check leads here */
	long targets;
};

/* One jump table, as found in __cfi_check or at an inline check. */
struct table {
	u64 type;
	u64 start;
	long entries;
};

/* Append one element to a growable array. */
#define PUSH(arr, n, cap, val) do {					\
	if ((n) == (cap)) {						\
		(cap) = (cap) ? 2 * (cap) : 256;			\
		(arr) = xrealloc((arr), (cap) * sizeof(*(arr)));	\
	}								\
	(arr)[(n)++] = (val);						\
} while (0)

extern bool verbose, all_sites;

void *xrealloc(void *p, size_t n);
bool read_mem(const struct image *img, u64 addr, void *buf, size_t len);
const struct symbol *sym_by_name(const struct image *img, const char *name);
long live_entries_sized(u64 start, long entries, int size);
void report(const struct image *img, const char *scheme,
	    struct site *sites, size_t n, int type_digits);

/* jt-x86.c: jump-table CFI on x86-64. */
int run_jt_x86(const struct image *img);

#endif
