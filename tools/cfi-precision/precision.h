/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of cfi-precision share: the call sites each decoder
 * finds, the report they all end in (report.c) and the decoders main()
 * dispatches to.
 */
#ifndef CFI_PRECISION_H
#define CFI_PRECISION_H

#include <stdbool.h>
#include <stddef.h>

#include "elf-image.h"

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

/* Both jt decoders look tables up by type and check them by address. */
static inline int cmp_table_type(const void *a, const void *b)
{
	const struct table *x = a, *y = b;

	return (x->type > y->type) - (x->type < y->type);
}

static inline int cmp_table_start(const void *a, const void *b)
{
	const struct table *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* report.c: the options that shape the report, and -x. */
extern bool verbose, all_sites;

void read_removed(const char *path);
bool any_removed(void);
long live_entries_sized(u64 start, long entries, int size);
void report(const struct image *img, const char *scheme,
	    struct site *sites, size_t n, int type_digits);

/* jt-arm64.c, jt-x86.c: jump-table CFI. */
int run_jt_arm64(const struct image *img);
int run_jt_x86(const struct image *img);

/*
 * kcfi.c, with the check sequences of kcfi-arm64.c and kcfi-x86.c: kCFI,
 * or no CFI at all when no check is found.
 */
void scan_kcfi_arm64(const struct image *img, const struct section *sec,
		     struct site **sites, size_t *n, size_t *cap);
void scan_kcfi_x86(const struct section *sec, struct site **sites,
		   size_t *n, size_t *cap);
long kcfi_typed(const struct image *img);
int run_kcfi(const struct image *img);

#endif
