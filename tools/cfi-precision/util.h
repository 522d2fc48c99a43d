/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every tool here uses besides the ELF reader: fixed-width types and
 * the growable arrays every scan fills.
 */
#ifndef CFI_UTIL_H
#define CFI_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef int64_t s64;
typedef int32_t s32;

/* Out of memory ends the run: no figure is worth printing half counted. */
static inline void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		perror("realloc");
		exit(2);
	}
	return p;
}

static inline void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		perror("calloc");
		exit(2);
	}
	return p;
}

/* Append one element to a growable array. */
#define PUSH(arr, n, cap, val) do {					\
	if ((n) == (cap)) {						\
		(cap) = (cap) ? 2 * (cap) : 256;			\
		(arr) = xrealloc((arr), (cap) * sizeof(*(arr)));	\
	}								\
	(arr)[(n)++] = (val);						\
} while (0)

static inline int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return (x > y) - (x < y);
}

static inline bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

#endif
