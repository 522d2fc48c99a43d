// SPDX-License-Identifier: GPL-2.0
/*
 * The AArch64 code walks both arm64 decoders share; see arm64-insn.h.
 */
#include <stdlib.h>
#include <string.h>

#include "arm64-insn.h"

/* Decode an AArch64 logical (bitmask) immediate; see DecodeBitMasks(). */
static bool decode_bitmask(u32 i, bool sf, u64 *out)
{
	int n = (i >> 22) & 1, immr = (i >> 16) & 63, imms = (i >> 10) & 63;
	int len, size, r, s, k;
	u64 pattern, elem;

	len = 31 - __builtin_clz((n << 6) | (~imms & 63));
	if (len < 1 || (!sf && n))
		return false;
	size = 1 << len;
	r = immr & (size - 1);
	s = imms & (size - 1);
	if (s == size - 1)
		return false;
	elem = (s + 1 == 64) ? ~0ULL : (1ULL << (s + 1)) - 1;
	if (r)
		elem = ((elem >> r) | (elem << (size - r))) &
		       (size == 64 ? ~0ULL : (1ULL << size) - 1);
	pattern = 0;
	for (k = 0; k < 64; k += size)
		pattern |= elem << k;
	*out = sf ? pattern : (u32)pattern;
	return true;
}

/*
 * Does @i possibly write register @r?  Most A64 instructions keep their
 * destination in bits 0-4; stores, branches and compares against xzr do
 * not write it, and load pairs also write bits 10-14.  Being conservative
 * only makes a later look-up fail, never invent a value.
 */
bool writes_reg(u32 i, int r)
{
	bool ldst = (i & 0x0a000000) == 0x08000000;

	if ((i & 0x1c000000) == 0x14000000)	/* branches, system */
		return (is_bl(i) || is_blr(i)) && r <= 18;
	if (ldst) {
		bool pair = (i & 0x3a000000) == 0x28000000;

		if (!((i >> 22) & 1))
			return false;			/* store */
		return rd(i) == r || (pair && (int)((i >> 10) & 31) == r);
	}
	return rd(i) == r;
}

/* Index of the last instruction before @k (at most @max back) writing @r. */
bool find_def(const struct code *c, size_t k, int r, int max, size_t *def)
{
	while (k > 0 && max-- > 0) {
		u32 i = insn(c, --k);

		if (block_start(i))
			return false;
		if (writes_reg(i, r)) {
			*def = k;
			return true;
		}
	}
	return false;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	return (x->to > y->to) - (x->to < y->to);
}

/* Index every direct branch so that blocks can be walked backwards. */
void index_edges(struct code *c)
{
	size_t k, cap = 0;

	for (k = 0; k < c->n; k++) {
		u32 i = insn(c, k);
		struct edge e = { .from = k };
		u64 pc = pc_of(c, k);

		if (is_b(i) || is_bcond(i))
			e.to = branch_target(i, pc);
		else if ((i & 0x7e000000) == 0x34000000)	/* cbz/cbnz */
			e.to = pc + (sext((i >> 5) & 0x7ffff, 19) << 2);
		else if ((i & 0x7e000000) == 0x36000000)	/* tbz/tbnz */
			e.to = pc + (sext((i >> 5) & 0x3fff, 14) << 2);
		else
			continue;
		PUSH(c->edges, c->nedges, cap, e);
	}
	qsort(c->edges, c->nedges, sizeof(*c->edges), cmp_edge);
}

/* First edge into @pc, or NULL. */
static const struct edge *edges_to(const struct code *c, u64 pc)
{
	size_t lo = 0, hi = c->nedges;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->edges[mid].to < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nedges && c->edges[lo].to == pc ? &c->edges[lo] : NULL;
}

/*
 * Account for instruction @j when looking for the constant in s->r: a
 * movz/movn/orr-imm or literal load completes it, movk fills 16 bits, a
 * register move redirects the search, anything else writing it fails.
 */
int const_step(const struct code *c, size_t j, struct cstate *s, bool sf,
	       u64 *val)
{
	u64 mask = sf ? ~0ULL : 0xffffffffULL, full;
	u32 i = insn(c, j);
	int op = (i >> 23) & 0xff, sh = ((i >> 21) & 3) * 16;
	u64 imm = (u64)((i >> 5) & 0xffff) << sh;
	bool w = (i >> 31) == (u32)sf;

	if (!writes_reg(i, s->r))
		return C_MORE;
	if (op == 0xe5 && w) {					/* movk */
		if (!(s->known & (0xffffULL << sh)))
			s->v |= imm;
		s->known |= 0xffffULL << sh;
		if ((s->known & mask) != mask)
			return C_MORE;
		full = 0;
	} else if (op == 0xa5 && w) {				/* movz */
		full = imm;
	} else if (op == 0x25 && w) {				/* movn */
		full = ~imm & mask;
	} else if ((i & 0x7f800000) == 0x32000000 && rn(i) == XZR && w) {
		if (!decode_bitmask(i, sf, &full))		/* orr imm */
			return C_FAIL;
	} else if ((i & 0xff000000) == (sf ? 0x58000000 : 0x18000000)) {
		full = 0;					/* ldr lit */
		if (!read_mem(c->img, pc_of(c, j) +
			      (sext((i >> 5) & 0x7ffff, 19) << 2), &full, sf ? 8 : 4))
			return C_FAIL;
	} else if ((i & 0x7fe0ffe0) == 0x2a0003e0 && !s->known) {
		s->r = rm(i);					/* mov reg */
		return C_MORE;
	} else {
		return C_FAIL;
	}
	*val = ((full & ~s->known) | s->v) & mask;
	return C_DONE;
}

static void cvals_add(struct cvals *out, u64 v)
{
	int i;

	for (i = 0; i < out->n; i++)
		if (out->v[i] == v)
			return;
	if (out->n == 8)
		out->fail = true;
	else
		out->v[out->n++] = v;
}

static bool seen_block(struct cvals *out, u64 pc, int r)
{
	u64 key = pc ^ ((u64)r << 58);
	int i;

	for (i = 0; i < out->nseen; i++)
		if (out->seen[i] == key)
			return true;
	if (out->nseen < 64)
		out->seen[out->nseen++] = key;
	else
		out->fail = true;
	return false;
}

/*
 * Walk backwards from @k through the control flow graph and collect the
 * constants that may be in s.r there.  At a block entry every branch into
 * it is a predecessor, next to the fall-through; blocks are visited once
 * per register, which keeps loops finite.
 */
void consts_before(const struct code *c, size_t k, struct cstate s, bool sf,
		   struct cvals *out)
{
	const struct edge *e;
	u64 val;

	while (k > 0) {
		if (--out->budget < 0) {
			out->fail = true;
			return;
		}
		e = edges_to(c, pc_of(c, k));
		if (e) {
			const struct symbol *fn = sym_at(c->img, pc_of(c, k));

			if (seen_block(out, pc_of(c, k), s.r))
				return;
			/* Do not leave the function through a tail call. */
			if (fn && fn->addr == pc_of(c, k))
				goto fail;
			for (; e < c->edges + c->nedges && e->to == pc_of(c, k); e++)
				consts_before(c, e->from, s, sf, out);
		}
		if (block_start(insn(c, k - 1)))
			return;
		switch (const_step(c, --k, &s, sf, &val)) {
		case C_MORE:
			continue;
		case C_DONE:
			cvals_add(out, val);
			return;
		default:
			goto fail;
		}
	}
fail:
	out->fail = true;
}

/* The one constant in @r before @k, if all paths agree. */
bool const_before(const struct code *c, size_t k, int r, bool sf, u64 *val)
{
	struct cvals out = { .budget = 512 };
	struct cstate s = { .r = r };

	consts_before(c, k, s, sf, &out);
	if (out.fail || out.n != 1)
		return false;
	*val = out.v[0];
	return true;
}

/* The address that adrp(+add) or adr left in @r before @k. */
bool addr_before(const struct code *c, size_t k, int r, u64 *val)
{
	size_t j;
	u32 i;

	if (!find_def(c, k, r, 64, &j))
		return false;
	i = insn(c, j);
	if (is_adr(i) || is_adrp(i)) {
		*val = adr_value(i, pc_of(c, j));
		return true;
	}
	if (is_add_imm64(i) && rn(i) != 31 && addr_before(c, j, rn(i), val)) {
		*val += addsub_imm(i);
		return true;
	}
	return false;
}
