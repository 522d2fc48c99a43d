// SPDX-License-Identifier: GPL-2.0
/*
 * cfi-precision, jump-table CFI on arm64.
 *
 * A failing check calls __cfi_slowpath_diag with the 64-bit type id in
 * x0, built by movz/movn/orr + movk (or a literal load), often in a
 * register hoisted out of a loop and moved to x0.  The type id is found
 * by walking the control flow graph backwards from the bl; one bl can
 * serve several types when slow paths are tail merged.  The inline fast
 * paths (adrp/add table; sub; ror #2; cmp #N; b.hs/b.hi/b.lo/b.ls, or cmp
 * against a single .cfi_jt entry; b.ne/b.eq) are decoded and their
 * failure edge followed to the bl.  A call site is every such check, plus
 * every (bl, type id) pair that no decoded check leads to: calls of a type
 * with no table in vmlinux (slow path only) or checks not decoded.
 *
 * The allowed targets of a type are the entries of its jump table.  The
 * table list comes from __cfi_check, which cross-DSO CFI emits as a switch
 * over every type id with a table in this image: each case loads the table
 * start and range-checks (sub, ror #2, cmp #N, b.lo/b.ls) or compares for
 * equality (one entry).  A type id without a case has no address-taken
 * function in vmlinux: 0 targets here.  Every decoded inline check is
 * compared with __cfi_check's table for its type; disagreements go to
 * stderr (without __cfi_check the inline checks are the only source).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm64-insn.h"
#include "precision.h"

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

/* arm64 jump-table entries are one 4-byte branch each. */
static long live_entries(u64 start, long entries)
{
	return live_entries_sized(start, entries, 4);
}

static bool is_jt_entry(const struct jt *jt, u64 addr)
{
	return bsearch(&addr, jt->entries, jt->nentries, sizeof(u64), cmp_u64);
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
	size_t hoisted;		/* of them, id_from_callee_saved() */
};

/*
 * Whether x0 gets the type id of the slow-path call at @k from a
 * callee-saved register (mov x0, x19..x28): the id was set up out of the
 * cold block, on the path that passes the check, and kept across calls,
 * which is what MachineLICM does to a check in a loop. A copy from a
 * temporary is the block's own set-up.
 */
static bool id_from_callee_saved(const struct code *c, size_t k)
{
	size_t def;
	u32 i;

	if (!find_def(c, k, 0, 16, &def))
		return false;
	i = insn(c, def);
	return (i & 0xffe0ffe0) == 0xaa0003e0 &&	/* orr x0, xzr, xN */
	       rm(i) >= 19 && rm(i) <= 28;
}

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
			if (!fn || strcmp(fn->name, "__cfi_slowpath")) {
				add_slowcall(js, c, k);
				js->hoisted += id_from_callee_saved(c, k);
			}
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

int run_jt_arm64(const struct image *img)
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
	printf("slowpath-type-id-from-callee-saved: %zu\n", js.hoisted);
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
