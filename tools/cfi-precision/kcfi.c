// SPDX-License-Identifier: GPL-2.0
/*
 * cfi-precision, kCFI on either architecture.
 *
 * Every check sequence is one checked call site; its 32-bit hash is the
 * constant in the compare register (arm64: mov/movk w17; x86: the negated
 * immediate), found by kcfi-arm64.c and kcfi-x86.c.  A function is an
 * allowed target when the 32-bit word at (symbol address + load offset,
 * i.e. -4) equals that hash.  All STT_FUNC symbols are considered, aliases
 * (same address) count once.  On arm64 the hash word is data inside code,
 * so the assembler marks it with a $d mapping symbol:
 * "kcfi-typed-functions" counts the distinct addresses of named STT_FUNC
 * symbols with a $d symbol at address - 4, i.e. the functions that carry
 * a type hash, whatever the hash ("functions" counts every function with
 * a word at - 4, typed or not).  x86_64 kCFI marks its preambles
 * otherwise; the line is left out there.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "precision.h"

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return (x > y) - (x < y);
}

/* The words at @off from every function (kCFI: its type hash). */
static u32 *function_hashes(const struct image *img, int off, size_t *n)
{
	u32 *h = NULL;
	size_t i, cap = 0;
	u64 last = 0;

	*n = 0;
	for (i = 0; i < img->nsyms; i++) {
		const struct symbol *s = &img->syms[i];
		const struct section *sec;
		u32 w;

		if (!s->func || (i && s->addr == last) ||
		    !strncmp(s->name, "__cfi_", 6))
			continue;
		sec = find_sec(img, s->addr, 1);
		if (!sec || !sec->exec || !read_mem(img, s->addr + off, &w, 4))
			continue;
		last = s->addr;
		PUSH(h, *n, cap, w);
	}
	qsort(h, *n, sizeof(*h), cmp_u32);
	return h;
}

static long count_hash(const u32 *h, size_t n, u32 v)
{
	size_t lo = 0, hi = n, first;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (h[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	while (lo < n && h[lo] == v)
		lo++;
	return lo - first;
}

/*
 * Where the hash sits is the same for every function of an image: -4
 * (arm64, x86-64 without padding), -15 on x86-64 with call padding (the
 * hash is then the immediate of the MOV at the start of the 16-byte
 * preamble). The first resolved check tells; a check that disagrees is
 * left out.
 */
static int report_kcfi(const struct image *img, struct site *sites, size_t n)
{
	size_t nh, i, nused = 0;
	u32 *h, *used = NULL;
	long reachable = 0;
	int off = -4;

	for (i = 0; i < n; i++) {
		if (sites[i].resolved) {
			off = sites[i].off;
			break;
		}
	}
	h = function_hashes(img, off, &nh);
	used = xrealloc(NULL, (n ? n : 1) * sizeof(*used));
	for (i = 0; i < n; i++) {
		if (sites[i].resolved && sites[i].off != off) {
			fprintf(stderr, "cfi-precision: check at %s reads the hash at %+d, not %+d\n",
				describe(img, sites[i].addr), sites[i].off, off);
			sites[i].resolved = false;
		}
		if (!sites[i].resolved)
			continue;
		sites[i].targets = count_hash(h, nh, sites[i].type);
		used[nused++] = sites[i].type;
	}
	qsort(used, nused, sizeof(*used), cmp_u32);
	for (i = 0; i < nused; i++)
		if (!i || used[i] != used[i - 1])
			reachable += count_hash(h, nh, used[i]);

	report(img, "kcfi", sites, n, 8);
	printf("reachable-functions: %ld\n", reachable);
	printf("functions: %zu\n", nh);
	if (img->machine == EM_AARCH64)
		printf("kcfi-typed-functions: %ld\n", kcfi_typed(img));
	free(used);
	free(h);
	return 0;
}

/* No check found at all: an image without CFI, reported as such. */
int run_kcfi(const struct image *img)
{
	struct site *sites = NULL;
	size_t n = 0, cap = 0, i;

	for (i = 0; i < img->nsecs; i++) {
		if (!img->secs[i].exec)
			continue;
		if (img->machine == EM_AARCH64)
			scan_kcfi_arm64(img, &img->secs[i], &sites, &n, &cap);
		else
			scan_kcfi_x86(&img->secs[i], &sites, &n, &cap);
	}
	if (n)
		return report_kcfi(img, sites, n);
	report(img, "none", sites, 0, 8);
	return 0;
}
