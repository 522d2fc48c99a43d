// SPDX-License-Identifier: GPL-2.0
/*
 * cfi-precision: how many functions may each CFI-checked indirect call
 * site in a vmlinux reach?
 *
 * Usage: cfi-precision [-v] [-a] [-x ENTRIES] VMLINUX
 *   -v  also list the 10 widest prototypes and call sites
 *   -a  also list every call site ("site: symbol+offset type T targets N")
 *   -x  jt: count the jump-table entries whose addresses ENTRIES lists
 *       (one hex address first on each line, as cfi-jt-refs writes them)
 *       as removed: what precision would be without them
 *
 * The scheme is detected from the image:
 *
 *  jt    a symbol __cfi_slowpath_diag or "*.cfi_jt" symbols exist (LLVM
 *        jump-table CFI, cross-DSO, non-canonical jump tables).
 *  kcfi  kCFI check sequences are found (arm64: brk #0x8000-0x83ff after a
 *        compare of the word before the target; x86_64: mov $-hash,%r10d;
 *        add disp8(%reg),%r10d; je).
 *  none  neither.
 *
 * Method, jt, x86_64: see jt-x86.c (tables from the __typeid_ symbols
 * ThinLTO exports, call sites from the calls to the slow path).
 *
 * Method, jt, arm64.  A failing check calls __cfi_slowpath_diag
 * with the 64-bit type id in x0, built by movz/movn/orr + movk (or a
 * literal load), often in a register hoisted out of a loop and moved to x0.
 * The type id is found by walking the control flow graph backwards from the
 * bl; one bl can serve several types when slow paths are tail merged.  The
 * inline fast paths (adrp/add table; sub; ror #2; cmp #N; b.hs/b.hi/b.lo/
 * b.ls, or cmp against a single .cfi_jt entry; b.ne/b.eq) are decoded and
 * their failure edge followed to the bl.  A call site is every such check,
 * plus every (bl, type id) pair that no decoded check leads to: calls of a
 * type with no table in vmlinux (slow path only) or checks not decoded.
 * The allowed targets of a type are the entries of its jump table.  The
 * table list comes from __cfi_check, which cross-DSO CFI emits as a switch
 * over every type id with a table in this image: each case loads the table
 * start and range-checks (sub, ror #2, cmp #N, b.lo/b.ls) or compares for
 * equality (one entry).  A type id without a case has no address-taken
 * function in vmlinux: 0 targets here.  Every decoded inline check is
 * compared with __cfi_check's table for its type; disagreements go to
 * stderr (without __cfi_check the inline checks are the only source).
 *
 * Method, kcfi.  Every check sequence is one checked call site; its 32-bit
 * hash is the constant in the compare register (arm64: mov/movk w17; x86:
 * the negated immediate).  A function is an allowed target when the 32-bit
 * word at (symbol address + load offset, i.e. -4) equals that hash.  All
 * STT_FUNC symbols are considered, aliases (same address) count once.
 * On arm64 the hash word is data inside code, so the assembler marks it
 * with a $d mapping symbol: "kcfi-typed-functions" counts the distinct
 * addresses of named STT_FUNC symbols with a $d symbol at address - 4,
 * i.e. the functions that carry a type hash, whatever the hash
 * ("functions" counts every function with a word at - 4, typed or not).
 * x86_64 kCFI marks its preambles otherwise; the line is left out there.
 *
 * Limits.  Only vmlinux is looked at: modules add targets in both schemes
 * (a jt slow path also accepts a module function of the type through that
 * module's __cfi_check).  kCFI counts every function carrying the hash,
 * whether or not its address is ever taken; jt only has table entries for
 * functions whose address is taken somewhere, which is exactly why jt sets
 * are smaller.  Decoding is pattern based: sites whose type id cannot be
 * decoded are counted as "call-sites-unresolved" and left out of the
 * statistics; jt sites whose check was not decoded still count once per
 * (bl, type id), so checks sharing a tail-merged slow path may be merged.
 * A word before a function that equals a hash without being a kCFI
 * preamble would be counted as a target.
 * "prototypes" counts the distinct type ids demanded by call sites.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "precision.h"

bool verbose, all_sites;

/* -x: jump-table entries counted as removed, sorted. */
static u64 *removed;
static size_t nremoved;

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		perror("realloc");
		exit(2);
	}
	return p;
}

/* ------------------------------------------------------------------ */
/* ELF access                                                         */

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

static void load_symbols(struct image *img, Elf_Scn *scn, GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_size / sh->sh_entsize, cap = 0;

	for (i = 0; d && i < n; i++) {
		GElf_Sym s;
		struct symbol sym;
		const char *name;
		int t;

		if (!gelf_getsym(d, i, &s))
			continue;
		t = GELF_ST_TYPE(s.st_info);
		if (t != STT_FUNC && t != STT_NOTYPE && t != STT_OBJECT)
			continue;
		if (s.st_shndx == SHN_UNDEF || s.st_shndx == SHN_ABS)
			continue;
		name = elf_strptr(img->elf, sh->sh_link, s.st_name);
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

static int open_image(struct image *img, const char *path)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t cap = 0;

	memset(img, 0, sizeof(*img));
	elf_version(EV_CURRENT);
	img->fd = open(path, O_RDONLY);
	if (img->fd < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	img->elf = elf_begin(img->fd, ELF_C_READ_MMAP, NULL);
	if (!img->elf || !gelf_getehdr(img->elf, &eh)) {
		fprintf(stderr, "%s: not an ELF file\n", path);
		return -1;
	}
	img->machine = eh.e_machine;
	while ((scn = elf_nextscn(img->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		struct section s;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			img->symtab = scn;
			load_symbols(img, scn, &sh);
			continue;
		}
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
	return 0;
}

static const struct section *find_sec(const struct image *img, u64 addr,
				      size_t len)
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

const struct symbol *sym_by_name(const struct image *img,
				 const char *name)
{
	size_t i;

	for (i = 0; i < img->nsyms; i++)
		if (!strcmp(img->syms[i].name, name))
			return &img->syms[i];
	return NULL;
}

/* Closest symbol at or below @addr, for "symbol+offset" output. */
static const struct symbol *sym_at(const struct image *img, u64 addr)
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

static const char *describe(const struct image *img, u64 addr)
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

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* ------------------------------------------------------------------ */
/* AArch64 decoding: only the handful of forms the CFI sequences use. */

#define XZR 31

static s64 sext(u64 v, int bits)
{
	return (s64)(v << (64 - bits)) >> (64 - bits);
}

static int rd(u32 i) { return i & 31; }
static int rn(u32 i) { return (i >> 5) & 31; }
static int rm(u32 i) { return (i >> 16) & 31; }

static bool is_adrp(u32 i) { return (i & 0x9f000000) == 0x90000000; }
static bool is_adr(u32 i) { return (i & 0x9f000000) == 0x10000000; }

static u64 adr_value(u32 i, u64 pc)
{
	u64 imm = ((i >> 29) & 3) | (((i >> 5) & 0x7ffff) << 2);

	if (is_adrp(i))
		return (pc & ~0xfffULL) + (sext(imm, 21) << 12);
	return pc + sext(imm, 21);
}

/* add xd, xn, #imm{, lsl #12} */
static bool is_add_imm64(u32 i) { return (i & 0xff800000) == 0x91000000; }
static u64 addsub_imm(u32 i) { return ((i >> 10) & 0xfff) << ((i >> 22) & 1 ? 12 : 0); }
/* sub xd, xn, xm (no shift) */
static bool is_sub_reg64(u32 i) { return (i & 0xffe0fc00) == 0xcb000000; }
/* ror xd, xn, #imm is extr xd, xn, xn, #imm */
static bool is_ror64(u32 i) { return (i & 0xffe00000) == 0x93c00000 && rn(i) == rm(i); }
static int ror_amount(u32 i) { return (i >> 10) & 63; }
/* cmp xn, #imm is subs xzr, xn, #imm; width given by sf */
static bool is_cmp_imm(u32 i, bool sf)
{
	return (i & 0xff800000) == (sf ? 0xf1000000 : 0x71000000) && rd(i) == XZR;
}
/* cmp xn, xm is subs xzr, xn, xm (no shift) */
static bool is_cmp_reg(u32 i, bool sf)
{
	return (i & 0xffe0fc00) == (sf ? 0xeb000000 : 0x6b000000) && rd(i) == XZR;
}
/* Anything else that sets NZCV (adds/subs/ands/ccmp) ends a flag search. */
static bool sets_flags(u32 i)
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

static bool is_bcond(u32 i) { return (i & 0xff000010) == 0x54000000; }
static int bcond(u32 i) { return i & 0xf; }
static bool is_b(u32 i) { return (i & 0xfc000000) == 0x14000000; }
static bool is_bl(u32 i) { return (i & 0xfc000000) == 0x94000000; }
/* br: d61f, blr: d63f, ret: d65f */
static bool is_ret_br(u32 i) { return (i & 0xffbffc1f) == 0xd61f0000; }
static bool is_blr(u32 i) { return (i & 0xfffffc1f) == 0xd63f0000; }
static bool is_ret_br_blr(u32 i) { return is_ret_br(i) || is_blr(i); }
static bool is_brk(u32 i) { return (i & 0xffe0001f) == 0xd4200000; }

static u64 branch_target(u32 i, u64 pc)
{
	if (is_bcond(i))
		return pc + (sext((i >> 5) & 0x7ffff, 19) << 2);
	return pc + (sext(i & 0x3ffffff, 26) << 2);
}

enum { EQ = 0, NE = 1, HS = 2, LO = 3, HI = 8, LS = 9 };

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
static bool writes_reg(u32 i, int r)
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

static u32 insn(const struct code *c, size_t k)
{
	u32 v;

	memcpy(&v, c->sec->data + 4 * k, 4);
	return v;
}

static u64 pc_of(const struct code *c, size_t k) { return c->sec->addr + 4 * k; }

static bool index_of(const struct code *c, u64 addr, size_t *k)
{
	if (addr < c->sec->addr || addr >= c->sec->addr + 4 * c->n || addr & 3)
		return false;
	*k = (addr - c->sec->addr) / 4;
	return true;
}

/* Does @i end a block that never falls through (b, ret, br, brk)? */
static bool block_start(u32 i)
{
	return is_b(i) || is_ret_br(i) || is_brk(i);
}

/* Index of the last instruction before @k (at most @max back) writing @r. */
static bool find_def(const struct code *c, size_t k, int r, int max, size_t *def)
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
static void index_edges(struct code *c)
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

/* A constant being rebuilt backwards: register, bits seen so far. */
struct cstate {
	int r;
	u64 v;
	u64 known;
};

enum { C_MORE, C_DONE, C_FAIL };

/*
 * Account for instruction @j when looking for the constant in s->r: a
 * movz/movn/orr-imm or literal load completes it, movk fills 16 bits, a
 * register move redirects the search, anything else writing it fails.
 */
static int const_step(const struct code *c, size_t j, struct cstate *s,
		      bool sf, u64 *val)
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

/* The distinct constants reaching a point, over all paths explored. */
struct cvals {
	u64 v[8];
	int n;
	bool fail;
	int budget;
	u64 seen[64];		/* block entries already explored */
	int nseen;
};

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
static void consts_before(const struct code *c, size_t k, struct cstate s,
			  bool sf, struct cvals *out)
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
static bool const_before(const struct code *c, size_t k, int r, bool sf, u64 *val)
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
static bool addr_before(const struct code *c, size_t k, int r, u64 *val)
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

/* ------------------------------------------------------------------ */
/* Statistics                                                         */

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void print_stats(const char *key, long *v, size_t n)
{
	double sum = 0, median = 0;
	size_t i;

	if (!n) {
		printf("%s: mean 0 median 0 max 0\n", key);
		return;
	}
	qsort(v, n, sizeof(*v), cmp_long);
	for (i = 0; i < n; i++)
		sum += v[i];
	median = n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
	printf("%s: mean %.2f median %.1f max %ld\n", key, sum / n, median,
	       v[n - 1]);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return (x > y) - (x < y);
}

static void read_removed(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long a;
	size_t cap = 0;
	char line[512];

	if (!f) {
		perror(path);
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx", &a) != 1)
			continue;
		PUSH(removed, nremoved, cap, a);
	}
	fclose(f);
	qsort(removed, nremoved, sizeof(u64), cmp_u64);
}

/* Entries of the table at @start, @size bytes each, that -x did not remove. */
long live_entries_sized(u64 start, long entries, int size)
{
	size_t lo = 0, hi = nremoved;
	long n = entries;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (removed[mid] < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nremoved && removed[lo] < start + size * (u64)entries; lo++)
		n--;
	return n;
}

/* arm64: 4-byte entries. */
static long live_entries(u64 start, long entries)
{
	return live_entries_sized(start, entries, 4);
}

struct proto {
	u64 type;
	long targets;
	long sites;
	u64 first_site;
};

static int cmp_proto_targets(const void *a, const void *b)
{
	const struct proto *x = a, *y = b;

	if (x->targets != y->targets)
		return x->targets < y->targets ? 1 : -1;
	return (x->type > y->type) - (x->type < y->type);
}

static int cmp_site_addr(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int cmp_site_type(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int cmp_site_targets(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->targets != y->targets)
		return x->targets < y->targets ? 1 : -1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/*
 * Print the common report.  Unresolved sites are counted but left out of
 * the figures.  @sites is reordered.
 */
void report(const struct image *img, const char *scheme,
	    struct site *sites, size_t n, int type_digits)
{
	struct proto *protos = NULL;
	size_t np = 0, cap = 0, nres = 0, i, none = 0;
	long *v;

	qsort(sites, n, sizeof(*sites), cmp_site_type);
	for (i = 0; i < n; i++) {
		struct proto p;

		if (!sites[i].resolved)
			continue;
		nres++;
		if (!sites[i].targets)
			none++;
		if (np && protos[np - 1].type == sites[i].type) {
			protos[np - 1].sites++;
			continue;
		}
		p.type = sites[i].type;
		p.targets = sites[i].targets;
		p.sites = 1;
		p.first_site = sites[i].addr;
		PUSH(protos, np, cap, p);
	}
	printf("scheme: %s\n", scheme);
	printf("checked-call-sites: %zu\n", nres);
	printf("call-sites-unresolved: %zu\n", n - nres);
	printf("prototypes: %zu\n", np);

	v = xrealloc(NULL, (nres > np ? nres : np) * sizeof(*v));
	for (i = 0; i < np; i++)
		v[i] = protos[i].targets;
	print_stats("targets-per-prototype", v, np);
	for (i = nres = 0; i < n; i++)
		if (sites[i].resolved)
			v[nres++] = sites[i].targets;
	print_stats("targets-per-call-site", v, nres);
	printf("call-sites-with-no-target: %zu\n", none);
	free(v);

	if (all_sites) {
		qsort(sites, n, sizeof(*sites), cmp_site_addr);
		for (i = 0; i < n; i++)
			if (sites[i].resolved)
				printf("site: %s type 0x%0*" PRIx64 " targets %ld\n",
				       describe(img, sites[i].addr), type_digits,
				       sites[i].type, sites[i].targets);
	}
	if (!verbose)
		goto out;
	qsort(protos, np, sizeof(*protos), cmp_proto_targets);
	for (i = 0; i < np && i < 10; i++)
		printf("top-prototype: type 0x%0*" PRIx64 " targets %ld sites %ld e.g. %s\n",
		       type_digits, protos[i].type, protos[i].targets,
		       protos[i].sites, describe(img, protos[i].first_site));
	qsort(sites, n, sizeof(*sites), cmp_site_targets);
	for (i = 0; i < n && i < 10; i++)
		printf("top-call-site: %s type 0x%0*" PRIx64 " targets %ld\n",
		       describe(img, sites[i].addr), type_digits,
		       sites[i].type, sites[i].targets);
out:
	free(protos);
}

/* ------------------------------------------------------------------ */
/* Jump-table CFI                                                     */

struct jt {
	const struct image *img;
	u64 slowpath;		/* __cfi_slowpath_diag */
	u64 *entries;		/* sorted addresses of *.cfi_jt symbols */
	size_t nentries;
	struct table *tables;	/* from __cfi_check, sorted by type */
	size_t ntables;
	struct site *sites;
	size_t nsites, capsites;
};

static bool is_jt_entry(const struct jt *jt, u64 addr)
{
	return bsearch(&addr, jt->entries, jt->nentries, sizeof(u64), cmp_u64);
}

static int cmp_table_type(const void *a, const void *b)
{
	const struct table *x = a, *y = b;

	return (x->type > y->type) - (x->type < y->type);
}

static const struct table *table_of(const struct jt *jt, u64 type)
{
	struct table key = { .type = type };

	return bsearch(&key, jt->tables, jt->ntables, sizeof(key), cmp_table_type);
}

/*
 * A table check ending at the conditional branch @k: either
 *   sub xs, xt, xj; ror xr, xs, #2; cmp xr, #N (or cmp xr, xN); b.<hs|hi|lo|ls>
 * or
 *   cmp xt, xj (xj = a .cfi_jt entry); b.<ne|eq>
 * On success sets the table start, entry count and the index the failing
 * check continues at.
 */
static bool decode_check(const struct jt *jt, const struct code *c, size_t k,
			 u64 *start, long *entries, u64 *fail)
{
	u32 b = insn(c, k), i = 0, r;
	int cond = bcond(b), back;
	size_t f = k, d;
	u64 n, taken = branch_target(b, pc_of(c, k)), next = pc_of(c, k + 1);

	for (back = 0; back < 4 && f > 0; back++) {
		i = insn(c, --f);
		if (sets_flags(i) || block_start(i) || is_bcond(i))
			break;
	}
	if (is_cmp_imm(i, true) && !((i >> 22) & 1)) {
		n = addsub_imm(i);
	} else if (is_cmp_reg(i, true) && (cond == NE || cond == EQ)) {
		/* Equality against the only entry of a one-entry table. */
		if (addr_before(c, f, rm(i), start) && is_jt_entry(jt, *start))
			;
		else if (addr_before(c, f, rn(i), start) && is_jt_entry(jt, *start))
			;
		else
			return false;
		*entries = 1;
		*fail = cond == NE ? taken : next;
		return true;
	} else if (!is_cmp_reg(i, true) || !const_before(c, f, rm(i), true, &n)) {
		return false;
	}
	if (!find_def(c, f, rn(i), 64, &d) || !is_ror64(r = insn(c, d)) ||
	    ror_amount(r) != 2)
		return false;
	if (!find_def(c, d, rn(r), 64, &d) || !is_sub_reg64(r = insn(c, d)) ||
	    !addr_before(c, d, rm(r), start) || !is_jt_entry(jt, *start))
		return false;
	switch (cond) {
	case HS: *entries = n;     *fail = taken; break;
	case HI: *entries = n + 1; *fail = taken; break;
	case LO: *entries = n;     *fail = next;  break;
	case LS: *entries = n + 1; *fail = next;  break;
	default: return false;
	}
	return true;
}

/*
 * Follow the failure edge of a check to its slow-path call, through
 * unconditional branches; the slow block only sets up arguments.  The
 * instructions passed are kept in @path so that the type id can be read
 * along exactly this path when the slow-path call is shared.
 */
#define MAX_PATH 48

static bool follow_to_slowpath(const struct jt *jt, const struct code *c,
			       u64 addr, u64 *call, size_t *path, int *npath)
{
	size_t k;

	for (*npath = 0; *npath < MAX_PATH && index_of(c, addr, &k);) {
		u32 i = insn(c, k);

		if (is_bl(i)) {
			if (branch_target(i, addr) != jt->slowpath)
				return false;
			*call = addr;
			return true;
		}
		if (is_b(i)) {
			addr = branch_target(i, addr);
			continue;
		}
		if (is_bcond(i) || is_ret_br_blr(i) || is_brk(i) ||
		    (i & 0x7e000000) == 0x34000000)	/* cbz/cbnz/tbz/tbnz */
			return false;
		path[(*npath)++] = k;
		addr += 4;
	}
	return false;
}

/* The type id in x0 at the slow-path call reached from the check at @k. */
static bool link_type(const struct code *c, size_t k, const size_t *path,
		      int npath, u64 *type)
{
	struct cstate s = { .r = 0 };
	struct cvals out = { .budget = 512 };

	while (npath-- > 0) {
		switch (const_step(c, path[npath], &s, true, type)) {
		case C_DONE:
			return true;
		case C_FAIL:
			return false;
		}
	}
	consts_before(c, k, s, true, &out);
	if (out.fail || out.n != 1)
		return false;
	*type = out.v[0];
	return true;
}

/*
 * Forward register tracking for the __cfi_check cases, whose table start is
 * loaded in the case block and checked in a shared block after a branch.
 */
enum rkind { R_UNKNOWN, R_CONST, R_DIFF, R_ROR };

struct rstate {
	enum rkind kind;
	u64 val;		/* constant, or table start for DIFF/ROR */
};

static void step_regs(struct rstate *x, u32 i, u64 pc)
{
	int d = rd(i), sh = ((i >> 21) & 3) * 16;
	u64 imm16 = (u64)((i >> 5) & 0xffff) << sh;

	if (is_adr(i) || is_adrp(i)) {
		x[d] = (struct rstate){ R_CONST, adr_value(i, pc) };
	} else if (is_add_imm64(i) && rn(i) != 31 && x[rn(i)].kind == R_CONST) {
		x[d] = (struct rstate){ R_CONST, x[rn(i)].val + addsub_imm(i) };
	} else if ((i & 0xff800000) == 0xd2800000) {		/* movz */
		x[d] = (struct rstate){ R_CONST, imm16 };
	} else if ((i & 0xff800000) == 0xf2800000 && x[d].kind == R_CONST) {
		x[d].val = (x[d].val & ~(0xffffULL << sh)) | imm16;	/* movk */
	} else if (is_sub_reg64(i) && x[rm(i)].kind == R_CONST) {
		x[d] = (struct rstate){ R_DIFF, x[rm(i)].val };
	} else if (is_ror64(i) && ror_amount(i) == 2 && x[rn(i)].kind == R_DIFF) {
		x[d] = (struct rstate){ R_ROR, x[rn(i)].val };
	} else if (!sets_flags(i) && d != XZR && writes_reg(i, d)) {
		x[d].kind = R_UNKNOWN;
	}
}

/* Follow one __cfi_check case from @addr to the check on x1. */
static bool walk_case(const struct jt *jt, const struct code *c, u64 addr,
		      u64 *start, long *entries)
{
	struct rstate x[32] = { 0 };
	u32 flags = 0;
	int steps;
	size_t k;

	for (steps = 0; steps < 32 && index_of(c, addr, &k); steps++) {
		u32 i = insn(c, k);

		if (is_b(i)) {
			addr = branch_target(i, addr);
			continue;
		}
		if (is_bcond(i))
			break;
		if (is_ret_br_blr(i) || is_bl(i))
			return false;
		if (sets_flags(i))
			flags = i;
		else
			step_regs(x, i, addr);
		addr += 4;
	}
	if (!index_of(c, addr, &k) || !is_bcond(insn(c, k)) || !flags)
		return false;
	if (is_cmp_reg(flags, true) && (bcond(insn(c, k)) == NE ||
					bcond(insn(c, k)) == EQ)) {
		const struct rstate *a = &x[rn(flags)], *b = &x[rm(flags)];

		if (b->kind != R_CONST)
			b = a;
		if (b->kind != R_CONST || !is_jt_entry(jt, b->val))
			return false;
		*start = b->val;
		*entries = 1;
		return true;
	}
	if (is_cmp_imm(flags, true) && x[rn(flags)].kind == R_ROR) {
		*start = x[rn(flags)].val;
		*entries = addsub_imm(flags);
	} else if (is_cmp_reg(flags, true) && x[rn(flags)].kind == R_ROR &&
		   x[rm(flags)].kind == R_CONST) {
		*start = x[rn(flags)].val;
		*entries = x[rm(flags)].val;
	} else {
		return false;
	}
	switch (bcond(insn(c, k))) {
	case LS: case HI: (*entries)++; /* fall through */
	case LO: case HS: return true;
	}
	return false;
}

static int cmp_table_start(const void *a, const void *b)
{
	const struct table *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* Each type has its own slice of the jump tables; say so if not. */
static void check_tables(const struct jt *jt)
{
	struct table *t = xrealloc(NULL, (jt->ntables + 1) * sizeof(*t));
	size_t i;

	memcpy(t, jt->tables, jt->ntables * sizeof(*t));
	qsort(t, jt->ntables, sizeof(*t), cmp_table_start);
	for (i = 1; i < jt->ntables; i++)
		if (t[i].start < t[i - 1].start + 4 * t[i - 1].entries ||
		    t[i].type == t[i - 1].type)
			fprintf(stderr, "cfi-precision: tables of 0x%016" PRIx64
				" and 0x%016" PRIx64 " overlap\n",
				t[i - 1].type, t[i].type);
	free(t);
}

/* Read __cfi_check's switch: type id -> (table start, entries). */
static void parse_cfi_check(struct jt *jt, const struct code *c, size_t k0,
			    size_t k1)
{
	size_t k, cap = 0;

	for (k = k0; k + 1 < k1; k++) {
		u32 i = insn(c, k), b = insn(c, k + 1);
		struct table t;
		u64 addr;

		/* cmp x0, xK; b.eq case  or  cmp x0, xK; b.ne default */
		if (!is_cmp_reg(i, true) || rn(i) != 0 || !is_bcond(b))
			continue;
		if (bcond(b) == EQ)
			addr = branch_target(b, pc_of(c, k + 1));
		else if (bcond(b) == NE)
			addr = pc_of(c, k + 2);
		else
			continue;
		if (!const_before(c, k, rm(i), true, &t.type))
			continue;
		if (!walk_case(jt, c, addr, &t.start, &t.entries)) {
			fprintf(stderr, "cfi-precision: __cfi_check case for type 0x%016"
				PRIx64 " at %s not understood\n", t.type,
				describe(jt->img, addr));
			continue;
		}
		PUSH(jt->tables, jt->ntables, cap, t);
	}
	qsort(jt->tables, jt->ntables, sizeof(*jt->tables), cmp_table_type);
	check_tables(jt);
}

/* A fast-path check whose failure edge reaches the slow-path call @call. */
struct link {
	u64 call;
	u64 check;
	u64 start;
	long entries;
	u64 type;
	bool resolved;
};

/* A slow-path call and one type id that reaches it. */
struct slowcall {
	u64 call;
	u64 type;
	bool resolved;
};

struct jt_scan {
	struct link *links;
	size_t nlinks, caplinks;
	struct slowcall *calls;
	size_t ncalls, capcalls;
};

/* Every type id that reaches the slow-path call at @k is a separate use. */
static void add_slowcall(struct jt_scan *js, const struct code *c, size_t k)
{
	struct cvals out = { .budget = 512 };
	struct cstate st = { .r = 0 };
	struct slowcall sc = { .call = pc_of(c, k) };
	int i;

	consts_before(c, k, st, true, &out);
	if (out.fail || !out.n)
		fprintf(stderr, "cfi-precision: type id of the slow path call at %s not (fully) known (%d found)\n",
			describe(c->img, sc.call), out.n);
	for (i = 0; i < out.n; i++) {
		sc.type = out.v[i];
		sc.resolved = true;
		PUSH(js->calls, js->ncalls, js->capcalls, sc);
	}
	if (!out.n) {
		sc.resolved = false;
		PUSH(js->calls, js->ncalls, js->capcalls, sc);
	}
}

/* Pass over one section: slow-path calls and the checks leading to them. */
static void scan_jt_code(const struct jt *jt, const struct code *c,
			 struct jt_scan *js)
{
	size_t k, path[MAX_PATH];
	int npath;

	for (k = 0; k < c->n; k++) {
		u32 i = insn(c, k);
		struct link l;
		u64 fail;

		if (is_bl(i) && branch_target(i, pc_of(c, k)) == jt->slowpath) {
			const struct symbol *fn = sym_at(c->img, pc_of(c, k));

			/* __cfi_slowpath() only forwards its caller's type id. */
			if (!fn || strcmp(fn->name, "__cfi_slowpath"))
				add_slowcall(js, c, k);
			continue;
		}
		if (!is_bcond(i) ||
		    !decode_check(jt, c, k, &l.start, &l.entries, &fail) ||
		    !follow_to_slowpath(jt, c, fail, &l.call, path, &npath))
			continue;
		l.check = pc_of(c, k);
		l.resolved = link_type(c, k, path, npath, &l.type);
		PUSH(js->links, js->nlinks, js->caplinks, l);
	}
}

/* Fallback without __cfi_check: take table sizes from the inline checks. */
static void tables_from_links(struct jt *jt, const struct jt_scan *js)
{
	size_t i, n, cap = 0;

	for (i = 0; i < js->nlinks; i++) {
		struct table t;

		if (!js->links[i].resolved)
			continue;
		t.type = js->links[i].type;
		t.start = js->links[i].start;
		t.entries = js->links[i].entries;
		PUSH(jt->tables, jt->ntables, cap, t);
	}
	qsort(jt->tables, jt->ntables, sizeof(*jt->tables), cmp_table_type);
	/* Keep one table per type; disagreements show up in verify_links(). */
	for (i = n = 0; i < jt->ntables; i++)
		if (!n || jt->tables[n - 1].type != jt->tables[i].type)
			jt->tables[n++] = jt->tables[i];
	jt->ntables = n;
}

/* Compare every inline check with the table of its type; count misfits. */
static size_t verify_links(const struct jt *jt, const struct jt_scan *js)
{
	size_t i, bad = 0;

	for (i = 0; i < js->nlinks; i++) {
		const struct link *l = &js->links[i];
		const struct table *t;

		if (!l->resolved)
			continue;
		t = table_of(jt, l->type);
		if (t && t->entries == l->entries && t->start == l->start)
			continue;
		bad++;
		fprintf(stderr, "cfi-precision: check at %s for type 0x%016" PRIx64
			" allows %ld entries at %s, table has %ld at %s\n",
			describe(jt->img, l->check), l->type, l->entries,
			describe(jt->img, l->start), t ? t->entries : 0L,
			t ? describe(jt->img, t->start) : "-");
	}
	return bad;
}

/*
 * Turn checks and slow-path calls into call sites: every inline check with
 * a known type is one site; a (slow-path call, type) pair that no check
 * leads to is one more (no fast path, or one this tool did not decode).
 */
static void build_sites(struct jt *jt, const struct jt_scan *js)
{
	size_t i, j;

	for (i = 0; i < js->nlinks; i++) {
		struct site s = { .addr = js->links[i].check, .resolved = true };

		if (!js->links[i].resolved)
			continue;
		s.type = js->links[i].type;
		PUSH(jt->sites, jt->nsites, jt->capsites, s);
	}
	for (i = 0; i < js->ncalls; i++) {
		const struct slowcall *sc = &js->calls[i];
		struct site s = { .addr = sc->call, .type = sc->type,
				  .resolved = sc->resolved, .slow_only = true };

		for (j = 0; j < js->nlinks; j++)
			if (js->links[j].resolved && js->links[j].call == sc->call &&
			    js->links[j].type == sc->type)
				break;
		if (j == js->nlinks)
			PUSH(jt->sites, jt->nsites, jt->capsites, s);
	}
}

static bool find_function(const struct image *img, const char *name,
			  const struct section **sec, size_t *k0, size_t *k1)
{
	const struct symbol *s = sym_by_name(img, name);
	size_t i;
	u64 end;

	if (!s || !(*sec = find_sec(img, s->addr, 4)) || !(*sec)->exec)
		return false;
	i = s - img->syms;
	while (i < img->nsyms && img->syms[i].addr == s->addr)
		i++;
	end = i < img->nsyms ? img->syms[i].addr : (*sec)->addr + (*sec)->size;
	if (end > (*sec)->addr + (*sec)->size)
		end = (*sec)->addr + (*sec)->size;
	*k0 = (s->addr - (*sec)->addr) / 4;
	*k1 = (end - (*sec)->addr) / 4;
	return true;
}

static void collect_jt_entries(struct jt *jt)
{
	size_t i, cap = 0;

	for (i = 0; i < jt->img->nsyms; i++)
		if (ends_with(jt->img->syms[i].name, ".cfi_jt"))
			PUSH(jt->entries, jt->nentries, cap, jt->img->syms[i].addr);
	qsort(jt->entries, jt->nentries, sizeof(u64), cmp_u64);
}

static int run_jt(const struct image *img)
{
	struct jt jt = { .img = img };
	struct jt_scan js = { 0 };
	struct code *codes = xrealloc(NULL, img->nsecs * sizeof(*codes));
	size_t i, j, k0, k1, bad, slow_only = 0, slow_only_tbl = 0;
	const struct section *sec;
	const struct symbol *slow = sym_by_name(img, "__cfi_slowpath_diag");
	long reachable = 0, entries = 0;

	jt.slowpath = slow ? slow->addr : 0;
	collect_jt_entries(&jt);
	for (i = 0; i < img->nsecs; i++) {
		codes[i] = (struct code){ .img = img, .sec = &img->secs[i],
					 .n = img->secs[i].size / 4 };
		if (!img->secs[i].exec)
			continue;
		index_edges(&codes[i]);
		scan_jt_code(&jt, &codes[i], &js);
	}

	if (find_function(img, "__cfi_check", &sec, &k0, &k1)) {
		parse_cfi_check(&jt, &codes[sec - img->secs], k0, k1);
	} else {
		fprintf(stderr, "cfi-precision: no __cfi_check, table sizes come from inline checks only\n");
		tables_from_links(&jt, &js);
	}
	bad = verify_links(&jt, &js);
	build_sites(&jt, &js);

	for (i = 0; i < jt.nsites; i++) {
		const struct table *t = table_of(&jt, jt.sites[i].type);

		jt.sites[i].targets = t ? live_entries(t->start, t->entries) : 0;
		if (jt.sites[i].slow_only && jt.sites[i].resolved) {
			slow_only++;
			slow_only_tbl += t != NULL;
		}
	}
	/* Tables are disjoint: the reachable set is the sum over used types. */
	for (i = 0; i < jt.ntables; i++) {
		entries += jt.tables[i].entries;
		for (j = 0; j < jt.nsites; j++)
			if (jt.sites[j].resolved && jt.sites[j].type == jt.tables[i].type)
				break;
		if (j < jt.nsites)
			reachable += live_entries(jt.tables[i].start, jt.tables[i].entries);
	}

	report(img, "jt", jt.sites, jt.nsites, 16);
	printf("reachable-functions: %ld\n", reachable);
	printf("slowpath-calls: %zu\n", js.ncalls);
	printf("jt-entry-symbols: %zu\n", jt.nentries);
	printf("jt-tables: %zu\n", jt.ntables);
	printf("jt-table-entries: %ld\n", entries);
	printf("jt-inline-checks: %zu\n", js.nlinks);
	printf("jt-inline-check-mismatches: %zu\n", bad);
	printf("jt-sites-without-inline-check: %zu\n", slow_only);
	printf("jt-sites-without-inline-check-but-with-table: %zu\n", slow_only_tbl);
	for (i = 0; i < img->nsecs; i++)
		free(codes[i].edges);
	free(codes);
	free(js.links);
	free(js.calls);
	free(jt.sites);
	free(jt.tables);
	free(jt.entries);
	return 0;
}

/* ------------------------------------------------------------------ */
/* kCFI                                                               */

/* arm64: brk #0x8000 | type_reg << 5 | target_reg, after the compare. */
static void scan_kcfi_arm64(const struct code *c, struct site **sites,
			    size_t *n, size_t *cap)
{
	size_t k, j;

	for (k = 0; k < c->n; k++) {
		u32 i = insn(c, k), imm = (i >> 5) & 0xffff;
		struct site s = { .addr = pc_of(c, k), .off = -4 };
		u64 hash;

		if (!is_brk(i) || (imm & 0xfc00) != 0x8000)
			continue;
		s.resolved = const_before(c, k, (imm >> 5) & 31, false, &hash);
		s.type = hash;
		/* ldur w16, [xT, #off] gives where the hash is read from. */
		if (find_def(c, k, 16, 16, &j) &&
		    (insn(c, j) & 0xffe00c00) == 0xb8400000)
			s.off = sext((insn(c, j) >> 12) & 0x1ff, 9);
		if (!s.resolved)
			fprintf(stderr, "cfi-precision: no hash for the check at %s\n",
				describe(c->img, s.addr));
		PUSH(*sites, *n, *cap, s);
	}
}

/*
 * x86_64: movl $-hash, %r10d; addl disp8(%reg), %r10d; je/jne.  The add is
 * 44 03 5x or 45 03 5x (REX.R for r10, REX.B for r8-r15 bases).
 */
static void scan_kcfi_x86(const struct code *c, struct site **sites,
			  size_t *n, size_t *cap)
{
	const unsigned char *p = c->sec->data;
	size_t k, len = c->sec->size;

	for (k = 0; k + 12 <= len; k++) {
		struct site s;
		u32 imm;

		if (p[k] != 0x41 || p[k + 1] != 0xba ||
		    (p[k + 6] != 0x44 && p[k + 6] != 0x45) || p[k + 7] != 0x03 ||
		    (p[k + 8] & 0xf8) != 0x50 || (p[k + 8] & 7) == 4 ||
		    (p[k + 10] != 0x74 && p[k + 10] != 0x75))
			continue;
		memcpy(&imm, p + k + 2, 4);
		s.addr = c->sec->addr + k;
		s.type = (u32)-imm;
		s.off = (signed char)p[k + 9];
		s.resolved = true;
		PUSH(*sites, *n, *cap, s);
		k += 11;
	}
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return (x > y) - (x < y);
}

/* Hash word of every function (aliases once), read at symbol - 4, sorted. */
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

/* arm64: functions with a $d mapping symbol (a kCFI type hash) at - 4. */
static long kcfi_typed(const struct image *img)
{
	Elf_Scn *scn = img->symtab;
	Elf_Data *d;
	GElf_Shdr sh;
	u64 *data = NULL, *funcs = NULL;
	size_t i, n, ndata = 0, capdata = 0, nfuncs = 0, capfuncs = 0;
	long typed = 0;

	if (!scn || !gelf_getshdr(scn, &sh) || !sh.sh_entsize ||
	    !(d = elf_getdata(scn, NULL)))
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, i, &s))
			continue;
		name = elf_strptr(img->elf, sh.sh_link, s.st_name);
		if (!name || !*name)
			continue;
		if (!strcmp(name, "$d"))
			PUSH(data, ndata, capdata, s.st_value);
		else if (GELF_ST_TYPE(s.st_info) == STT_FUNC)
			PUSH(funcs, nfuncs, capfuncs, s.st_value);
	}
	qsort(data, ndata, sizeof(*data), cmp_u64);
	qsort(funcs, nfuncs, sizeof(*funcs), cmp_u64);
	for (i = 0; i < nfuncs; i++) {
		u64 want = funcs[i] - 4;

		if (i && funcs[i] == funcs[i - 1])
			continue;		/* aliases count once */
		if (ndata && bsearch(&want, data, ndata, sizeof(*data), cmp_u64))
			typed++;
	}
	free(data);
	free(funcs);
	return typed;
}

/*
 * Where the hash sits is the same for every function of an image: -4
 * (arm64, x86-64 without padding), -15 on x86-64 with call padding (the
 * hash is then the immediate of the MOV at the start of the 16-byte
 * preamble). The first resolved check tells; a check that disagrees is
 * left out.
 */
static int run_kcfi(const struct image *img, struct site *sites, size_t n)
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

/* ------------------------------------------------------------------ */

static bool has_jt(const struct image *img)
{
	size_t i;

	if (sym_by_name(img, "__cfi_slowpath_diag"))
		return true;
	for (i = 0; i < img->nsyms; i++)
		if (ends_with(img->syms[i].name, ".cfi_jt"))
			return true;
	return false;
}

static void usage(void)
{
	fprintf(stderr, "usage: cfi-precision [-v] [-a] [-x ENTRIES] VMLINUX\n"
		"  -v  also list the 10 widest prototypes and call sites\n"
		"  -a  also list every call site\n"
		"  -x  count the jump-table entries listed in ENTRIES as removed\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct image img;
	struct site *sites = NULL;
	size_t n = 0, cap = 0, i;
	int opt;

	while ((opt = getopt(argc, argv, "avx:")) != -1) {
		if (opt == 'a')
			all_sites = true;
		else if (opt == 'v')
			verbose = true;
		else if (opt == 'x')
			read_removed(optarg);
		else
			usage();
	}
	if (optind != argc - 1)
		usage();
	if (open_image(&img, argv[optind]))
		return 1;
	if (img.machine != EM_AARCH64 && img.machine != EM_X86_64) {
		fprintf(stderr, "cfi-precision: only arm64 and x86_64 images are supported\n");
		return 1;
	}
	if (!img.nsyms) {
		fprintf(stderr, "cfi-precision: %s has no symbol table\n", argv[optind]);
		return 1;
	}
	if (has_jt(&img) && img.machine == EM_X86_64)
		return run_jt_x86(&img);
	if (has_jt(&img))
		return run_jt(&img);
	if (nremoved) {
		fprintf(stderr, "cfi-precision: -x applies to jump-table CFI images only\n");
		return 2;
	}

	for (i = 0; i < img.nsecs; i++) {
		struct code c = { .img = &img, .sec = &img.secs[i],
				  .n = img.secs[i].size / 4 };

		if (!img.secs[i].exec)
			continue;
		if (img.machine == EM_AARCH64)
			scan_kcfi_arm64(&c, &sites, &n, &cap);
		else
			scan_kcfi_x86(&c, &sites, &n, &cap);
	}
	if (n)
		return run_kcfi(&img, sites, n);
	report(&img, "none", sites, 0, 8);
	return 0;
}
