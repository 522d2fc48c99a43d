/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AArch64 decoding for the arm64 decoders of both schemes: only the
 * handful of forms the CFI sequences use, and the walks back through a
 * section's code that find which constant or address a register holds.
 */
#ifndef CFI_ARM64_INSN_H
#define CFI_ARM64_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "elf-image.h"

#define XZR 31

static inline s64 sext(u64 v, int bits)
{
	return (s64)(v << (64 - bits)) >> (64 - bits);
}

static inline int rd(u32 i) { return i & 31; }
static inline int rn(u32 i) { return (i >> 5) & 31; }
static inline int rm(u32 i) { return (i >> 16) & 31; }

static inline bool is_adrp(u32 i) { return (i & 0x9f000000) == 0x90000000; }
static inline bool is_adr(u32 i) { return (i & 0x9f000000) == 0x10000000; }

static inline u64 adr_value(u32 i, u64 pc)
{
	u64 imm = ((i >> 29) & 3) | (((i >> 5) & 0x7ffff) << 2);

	if (is_adrp(i))
		return (pc & ~0xfffULL) + (sext(imm, 21) << 12);
	return pc + sext(imm, 21);
}

/* add xd, xn, #imm{, lsl #12} */
static inline bool is_add_imm64(u32 i)
{
	return (i & 0xff800000) == 0x91000000;
}

static inline u64 addsub_imm(u32 i)
{
	return ((i >> 10) & 0xfff) << ((i >> 22) & 1 ? 12 : 0);
}

/* sub xd, xn, xm (no shift) */
static inline bool is_sub_reg64(u32 i)
{
	return (i & 0xffe0fc00) == 0xcb000000;
}

/* ror xd, xn, #imm is extr xd, xn, xn, #imm */
static inline bool is_ror64(u32 i)
{
	return (i & 0xffe00000) == 0x93c00000 && rn(i) == rm(i);
}

static inline int ror_amount(u32 i) { return (i >> 10) & 63; }

/* cmp xn, #imm is subs xzr, xn, #imm; width given by sf */
static inline bool is_cmp_imm(u32 i, bool sf)
{
	return (i & 0xff800000) == (sf ? 0xf1000000 : 0x71000000) &&
	       rd(i) == XZR;
}

/* cmp xn, xm is subs xzr, xn, xm (no shift) */
static inline bool is_cmp_reg(u32 i, bool sf)
{
	return (i & 0xffe0fc00) == (sf ? 0xeb000000 : 0x6b000000) &&
	       rd(i) == XZR;
}

/* Anything else that sets NZCV (adds/subs/ands/ccmp) ends a flag search. */
static inline bool sets_flags(u32 i)
{
	if ((i & 0x7f800000) == 0x71000000 || (i & 0x7f800000) == 0x31000000)
		return true;			/* subs/adds imm */
	if ((i & 0x7f200000) == 0x6b000000 || (i & 0x7f200000) == 0x2b000000)
		return true;			/* subs/adds shifted reg */
	if ((i & 0x7f200000) == 0x6b200000 || (i & 0x7f200000) == 0x2b200000)
		return true;			/* subs/adds extended reg */
	if ((i & 0x7f800000) == 0x72000000 || (i & 0x7f000000) == 0x6a000000)
		return true;			/* ands imm / ands/bics reg */
	if ((i & 0x3fe00000) == 0x3a400000)
		return true;			/* ccmp/ccmn */
	return false;
}

static inline bool is_bcond(u32 i) { return (i & 0xff000010) == 0x54000000; }
static inline int bcond(u32 i) { return i & 0xf; }
static inline bool is_b(u32 i) { return (i & 0xfc000000) == 0x14000000; }
static inline bool is_bl(u32 i) { return (i & 0xfc000000) == 0x94000000; }
/* br: d61f, blr: d63f, ret: d65f */
static inline bool is_ret_br(u32 i) { return (i & 0xffbffc1f) == 0xd61f0000; }
static inline bool is_blr(u32 i) { return (i & 0xfffffc1f) == 0xd63f0000; }
static inline bool is_ret_br_blr(u32 i) { return is_ret_br(i) || is_blr(i); }
static inline bool is_brk(u32 i) { return (i & 0xffe0001f) == 0xd4200000; }

static inline u64 branch_target(u32 i, u64 pc)
{
	if (is_bcond(i))
		return pc + (sext((i >> 5) & 0x7ffff, 19) << 2);
	return pc + (sext(i & 0x3ffffff, 26) << 2);
}

enum { EQ = 0, NE = 1, HS = 2, LO = 3, HI = 8, LS = 9 };

bool writes_reg(u32 i, int r);

/* A linear view of one executable section as instruction words. */
struct edge {
	u64 to;
	size_t from;
};

struct code {
	const struct image *img;
	const struct section *sec;
	size_t n;
	struct edge *edges;	/* branches in this section, sorted by target */
	size_t nedges;
};

static inline u32 insn(const struct code *c, size_t k)
{
	u32 v;

	memcpy(&v, c->sec->data + 4 * k, 4);
	return v;
}

static inline u64 pc_of(const struct code *c, size_t k)
{
	return c->sec->addr + 4 * k;
}

static inline bool index_of(const struct code *c, u64 addr, size_t *k)
{
	if (addr < c->sec->addr || addr >= c->sec->addr + 4 * c->n || addr & 3)
		return false;
	*k = (addr - c->sec->addr) / 4;
	return true;
}

/* Does @i end a block that never falls through (b, ret, br, brk)? */
static inline bool block_start(u32 i)
{
	return is_b(i) || is_ret_br(i) || is_brk(i);
}

bool find_def(const struct code *c, size_t k, int r, int max, size_t *def);
void index_edges(struct code *c);

/* A constant being rebuilt backwards: register, bits seen so far. */
struct cstate {
	int r;
	u64 v;
	u64 known;
};

enum { C_MORE, C_DONE, C_FAIL };

int const_step(const struct code *c, size_t j, struct cstate *s, bool sf,
	       u64 *val);

/* The distinct constants reaching a point, over all paths explored. */
struct cvals {
	u64 v[8];
	int n;
	bool fail;
	int budget;
	u64 seen[64];		/* block entries already explored */
	int nseen;
};

void consts_before(const struct code *c, size_t k, struct cstate s, bool sf,
		   struct cvals *out);
bool const_before(const struct code *c, size_t k, int r, bool sf, u64 *val);
bool addr_before(const struct code *c, size_t k, int r, u64 *val);

#endif
