// SPDX-License-Identifier: GPL-2.0
/*
 * cfi-precision, jump-table CFI on x86-64.
 *
 * Tables.  Under ThinLTO, LLVM exports the properties of each type's jump
 * table to the other partitions as symbols (x86 can take them as
 * relocated immediates): __typeid_<T>_global_addr is the table's start,
 * the absolute __typeid_<T>_size_m1 its number of entries less one (no
 * such symbol: a table of one entry).  <T> is the type's mangled name,
 * and the 64-bit type id the checks pass to the slow path is the first 8
 * bytes of its MD5 digest, read little-endian, as cross-DSO CFI defines
 * it: so tables are found by name and matched to call sites by id.
 *
 * Call sites.  A failing inline check ends in
 *
 *	movabs $ID, %rdi ; (mov TARGET, %rsi ; mov $DIAG, %rdx) ;
 *	call __cfi_slowpath_diag	(or jmp, as a tail call)
 *
 * Every CALL/JMP rel32 to __cfi_slowpath_diag is one call site, its type
 * id the nearest MOVABS to %rdi in the 32 bytes before it.  Checks that
 * share one slow-path call (tail merged) count once; a call without a
 * MOVABS close enough is counted as unresolved.
 *
 * Sizes are cross-checked: the tables must lie, without overlap, within
 * __cfi_jt_start..__cfi_jt_end at 16 or 8 bytes an entry.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "precision.h"

/* ---- MD5 (RFC 1321), for the type ids ---- */

static u32 rol32(u32 x, int c) { return (x << c) | (x >> (32 - c)); }

static void md5(const unsigned char *msg, size_t len, unsigned char out[16])
{
	static const u32 k[64] = {
		0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf,
		0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af,
		0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e,
		0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
		0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6,
		0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
		0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
		0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
		0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039,
		0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97,
		0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d,
		0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
		0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391 };
	static const int r[64] = {
		7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
		5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
		4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
		6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21 };
	u32 h[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	size_t n = ((len + 8) / 64 + 1) * 64, off, i;
	unsigned char *m = xcalloc(n, 1);
	u64 bits = (u64)len * 8;

	memcpy(m, msg, len);
	m[len] = 0x80;
	for (i = 0; i < 8; i++)
		m[n - 8 + i] = bits >> (8 * i);
	for (off = 0; off < n; off += 64) {
		u32 w[16], a = h[0], b = h[1], c = h[2], d = h[3], f, t;
		int g;

		for (i = 0; i < 16; i++)
			w[i] = m[off + 4 * i] | m[off + 4 * i + 1] << 8 |
			       m[off + 4 * i + 2] << 16 | (u32)m[off + 4 * i + 3] << 24;
		for (i = 0; i < 64; i++) {
			if (i < 16) {
				f = (b & c) | (~b & d);
				g = i;
			} else if (i < 32) {
				f = (d & b) | (~d & c);
				g = (5 * i + 1) % 16;
			} else if (i < 48) {
				f = b ^ c ^ d;
				g = (3 * i + 5) % 16;
			} else {
				f = c ^ (b | ~d);
				g = (7 * i) % 16;
			}
			t = d;
			d = c;
			c = b;
			b = b + rol32(a + f + k[i] + w[g], r[i]);
			a = t;
		}
		h[0] += a;
		h[1] += b;
		h[2] += c;
		h[3] += d;
	}
	for (i = 0; i < 16; i++)
		out[i] = h[i / 4] >> (8 * (i % 4));
	free(m);
}

static u64 type_id(const char *mangled, size_t len)
{
	unsigned char d[16];
	u64 id = 0;
	int i;

	md5((const unsigned char *)mangled, len, d);
	for (i = 7; i >= 0; i--)
		id = id << 8 | d[i];
	return id;
}

/* ---- tables, from the __typeid_ symbols ---- */

static struct table *tables;
static size_t ntables;

static const struct table *table_of(u64 type)
{
	struct table key = { .type = type };

	return bsearch(&key, tables, ntables, sizeof(*tables), cmp_table_type);
}

struct size_m1 {
	u64 type;
	u64 value;
};

static int cmp_size_type(const void *a, const void *b)
{
	u64 x = ((const struct size_m1 *)a)->type, y = ((const struct size_m1 *)b)->type;

	return x < y ? -1 : x > y;
}

static void read_tables(const struct image *img)
{
	static const char pre[] = "__typeid_", addr[] = "_global_addr",
			  size[] = "_size_m1";
	struct size_m1 *sizes = NULL, key, *hit;
	size_t nsizes = 0, scap = 0, tcap = 0, i;

	/* The sorted symbols leave the absolute _size_m1 out. */
	for (i = 0; i < img->nsymtab; i++) {
		const char *name;
		size_t len;
		GElf_Sym s;

		image_sym(img, i, &s);
		name = image_sym_name(img, &s);
		if (!name || strncmp(name, pre, sizeof(pre) - 1))
			continue;
		name += sizeof(pre) - 1;
		len = strlen(name);
		if (len > sizeof(addr) - 1 &&
		    !strcmp(name + len - (sizeof(addr) - 1), addr)) {
			struct table t = {
				.type = type_id(name, len - (sizeof(addr) - 1)),
				.start = s.st_value, .entries = 1,
			};

			PUSH(tables, ntables, tcap, t);
		} else if (len > sizeof(size) - 1 &&
			   !strcmp(name + len - (sizeof(size) - 1), size)) {
			struct size_m1 z = {
				.type = type_id(name, len - (sizeof(size) - 1)),
				.value = s.st_value,
			};

			PUSH(sizes, nsizes, scap, z);
		}
	}
	qsort(sizes, nsizes, sizeof(*sizes), cmp_size_type);
	for (i = 0; i < ntables; i++) {
		key.type = tables[i].type;
		hit = bsearch(&key, sizes, nsizes, sizeof(*sizes), cmp_size_type);
		if (hit)
			tables[i].entries = hit->value + 1;
	}
	free(sizes);
}

/* The tables must tile part of __cfi_jt_start..__cfi_jt_end. */
static size_t check_tables(const struct image *img, int *entry_size)
{
	const struct symbol *s = sym_by_name(img, "__cfi_jt_start");
	const struct symbol *e = sym_by_name(img, "__cfi_jt_end");
	size_t i, bad = 0;
	u32 endbr;

	*entry_size = 8;
	if (s && read_mem(img, s->addr, &endbr, sizeof(endbr)) &&
	    endbr == 0xfa1e0ff3)
		*entry_size = 16;
	qsort(tables, ntables, sizeof(*tables), cmp_table_start);
	for (i = 0; i < ntables; i++) {
		u64 end = tables[i].start + (u64)tables[i].entries * *entry_size;

		if (!s || !e || tables[i].start < s->addr || end > e->addr ||
		    (i + 1 < ntables && end > tables[i + 1].start))
			bad++;
	}
	qsort(tables, ntables, sizeof(*tables), cmp_table_type);
	return bad;
}

/* ---- call sites ---- */

/* Length of a ModRM operand (ModRM, SIB, displacement), or 0. */
static size_t modrm_len(const unsigned char *q, size_t avail)
{
	unsigned int mod, rm;
	size_t len = 1;

	if (!avail)
		return 0;
	mod = q[0] >> 6;
	rm = q[0] & 7;
	if (mod == 3)
		return 1;
	if (rm == 4) {
		if (avail < 2)
			return 0;
		len++;
		if (mod == 0 && (q[1] & 7) == 5)
			len += 4;
	} else if (mod == 0 && rm == 5) {
		len += 4;		/* RIP-relative */
	}
	if (mod == 1)
		len += 1;
	else if (mod == 2)
		len += 4;
	return len <= avail ? len : 0;
}

/*
 * One instruction of those that set up the slow path's other arguments
 * or spill registers on the way (MOV between registers and memory, MOV
 * or LEA of a constant): its length, or 0. *@from_reg is set to the
 * source register when it copies a register into %rdi, else to -1.
 */
static size_t arg_insn_len(const unsigned char *p, size_t avail, int *from_reg)
{
	size_t rex = avail && (p[0] & 0xf0) == 0x40, m;
	const unsigned char *q = p + rex;

	*from_reg = -1;
	if (avail < rex + 2)
		return 0;
	if (q[0] == 0x89 || q[0] == 0x8b || q[0] == 0x8d) {
		m = modrm_len(q + 1, avail - rex - 1);
		if (!m)
			return 0;
		if ((q[1] & 0xc0) == 0xc0) {
			/* 89: rm <- reg, 8b: reg <- rm; REX.R extends reg, REX.B rm */
			int reg = ((q[1] >> 3) & 7) | (rex && (p[0] & 4) ? 8 : 0);
			int rm = (q[1] & 7) | (rex && (p[0] & 1) ? 8 : 0);

			if (q[0] == 0x89 && rm == 7)
				*from_reg = reg;
			else if (q[0] == 0x8b && reg == 7)
				*from_reg = rm;
		}
		return rex + 1 + m;
	}
	if (q[0] == 0xc7) {
		m = modrm_len(q + 1, avail - rex - 1);
		return m && rex + 1 + m + 4 <= avail ? rex + 1 + m + 4 : 0;
	}
	if (q[0] >= 0xb8 && q[0] <= 0xbf && !(rex && (p[0] & 8)))
		return rex + 5;
	return 0;
}

/*
 * Whether set-up instructions lead from @from exactly to @to; the last
 * register copied into %rdi on the way, or -1, in *@from_reg.
 */
static bool args_reach(const unsigned char *p, u64 from, u64 to, int *from_reg)
{
	*from_reg = -1;
	while (from < to) {
		int r;
		size_t len = arg_insn_len(p + from, to - from, &r);

		if (!len)
			return false;
		if (r >= 0)
			*from_reg = r;
		from += len;
	}
	return from == to;
}

/* MOVABS $imm64 into register @reg (REX.W [+B], B8+r). */
static bool is_movabs(const unsigned char *p, int reg)
{
	return p[0] == (0x48 | (reg >= 8 ? 1 : 0)) && p[1] == 0xb8 + (reg & 7);
}

/* %rbx, %rbp, %r12-%r15 */
static bool callee_saved(int reg)
{
	return reg == 3 || reg == 5 || reg >= 12;
}

/*
 * Every slow-path call goes in @sites; *@hoisted counts those whose type
 * id is copied into %rdi from a callee-saved register a MOVABS loaded:
 * set up out of the cold block, on the path that passes the check, and
 * kept across calls, which is what MachineLICM does to a check in a loop.
 */
static void scan_sites(const struct image *img, u64 slowpath,
		       struct site **sites, size_t *n, size_t *cap,
		       size_t *hoisted)
{
	size_t i;
	u64 k;

	for (i = 0; i < img->nsecs; i++) {
		const struct section *sec = &img->secs[i];
		const unsigned char *p = sec->data;

		if (!sec->exec)
			continue;
		for (k = 0; k + 5 <= sec->size; k++) {
			struct site site = { .addr = sec->addr + k };
			s32 rel;
			u64 j;

			if (p[k] != 0xe8 && p[k] != 0xe9)
				continue;
			memcpy(&rel, p + k + 1, sizeof(rel));
			if (sec->addr + k + 5 + (s64)rel != slowpath)
				continue;
			/*
			 * movabs $imm64, %rdi (48 bf imm64), then only the set-up
			 * of the other arguments up to the call; or the id
			 * copied into %rdi from a register that a MOVABS loaded
			 * earlier in the function (a check in a loop).
			 */
			for (j = k >= 3 ? k - 3 : 0; j + 48 >= k && j; j--) {
				int from;

				if (!args_reach(p, j, k, &from) &&
				    !(is_movabs(p + j, 7) && args_reach(p, j + 10, k, &from)))
					continue;
				if (is_movabs(p + j, 7) && args_reach(p, j + 10, k, &from) &&
				    from < 0) {
					memcpy(&site.type, p + j + 2, sizeof(site.type));
					site.resolved = true;
					break;
				}
				/*
				 * A chain that starts inside an instruction can
				 * name a wrong register: only a register some
				 * MOVABS loaded counts.
				 */
				if (from >= 0 && from != 7) {
					u64 lo = j > 4096 ? j - 4096 : 0, b;

					for (b = j; b-- > lo;) {
						if (is_movabs(p + b, from)) {
							memcpy(&site.type, p + b + 2,
							       sizeof(site.type));
							site.resolved = true;
							break;
						}
					}
					if (site.resolved) {
						*hoisted += callee_saved(from);
						break;
					}
				}
			}
			PUSH(*sites, *n, *cap, site);
		}
	}
}

int run_jt_x86(const struct image *img)
{
	const struct symbol *slow = sym_by_name(img, "__cfi_slowpath_diag");
	struct site *sites = NULL;
	size_t nsites = 0, cap = 0, hoisted = 0, i, j, bad;
	long entries = 0, reachable = 0;
	int entry_size;

	if (!slow) {
		fprintf(stderr, "cfi-precision: no __cfi_slowpath_diag in the image\n");
		return 1;
	}
	read_tables(img);
	if (!ntables) {
		fprintf(stderr, "cfi-precision: no __typeid_*_global_addr symbols: not a ThinLTO jump-table image?\n");
		return 1;
	}
	bad = check_tables(img, &entry_size);
	scan_sites(img, slow->addr, &sites, &nsites, &cap, &hoisted);
	/* Entries -x lists count as removed. */
	for (i = 0; i < nsites; i++) {
		const struct table *t = table_of(sites[i].type);

		sites[i].targets = t ? live_entries_sized(t->start, t->entries,
							  entry_size) : 0;
	}
	for (i = 0; i < ntables; i++) {
		entries += tables[i].entries;
		for (j = 0; j < nsites; j++)
			if (sites[j].resolved && sites[j].type == tables[i].type)
				break;
		if (j < nsites)
			reachable += live_entries_sized(tables[i].start,
							tables[i].entries,
							entry_size);
	}

	report(img, "jt", sites, nsites, 16);
	printf("reachable-functions: %ld\n", reachable);
	printf("slowpath-calls: %zu\n", nsites);
	printf("slowpath-type-id-from-callee-saved: %zu\n", hoisted);
	printf("jt-tables: %zu\n", ntables);
	printf("jt-table-entries: %ld\n", entries);
	printf("jt-entry-bytes: %d\n", entry_size);
	printf("jt-tables-misplaced: %zu\n", bad);
	free(sites);
	return bad ? 1 : 0;
}
