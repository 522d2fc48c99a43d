// SPDX-License-Identifier: GPL-2.0
/*
 * cfi-jt-refs: which jump-table entries of a jt vmlinux does nothing in the
 * kernel refer to?
 *
 * Usage: cfi-jt-refs [-e] VMLINUX.O VMLINUX > ENTRIES
 *   -e  also list the entries that only EXPORT_SYMBOL() refers to
 *
 * LTO decides which functions get a jump-table entry from the references
 * it sees before it optimises: an address taken in code that inlining or
 * constant folding later removes still gets an entry, and EXPORT_SYMBOL()
 * takes the address of every exported function in C (__ADDRESSABLE(), in
 * a .discard section, to keep the symbol for the export's asm), so each
 * exported function is a valid target of every check of its prototype
 * even if nothing ever stores its address.  Modules that take the address
 * of an exported function get an entry of their own.
 *
 * Method.  VMLINUX.O is the image as LTO left it, with its relocations:
 * every relocation from an allocated section that stays in the image
 * (not .discard.*, not the jump tables themselves, not __cfi_check, which
 * names every table, not a table of code addresses such as x86-64's ORC
 * unwind table, see code_table()) that lands in a jump table marks that entry as
 * referenced; relocations from .discard.* mark it as "export only".
 * Entries are matched to VMLINUX by their "NAME.cfi_jt" symbol; a name
 * that occurs more than once in either image is left out (kept).
 *
 * A relocation names only the entry it lands on, but code in the object
 * that holds the jump tables (LTO's own partition) knows their layout and
 * derives entries from one address: gic_smp_init() loads the entry of
 * gic_check_rdist() through the table's section symbol and passes that
 * address plus 4, the entry of gic_starting_cpu(), with no relocation of
 * its own.  Such code refers to a table through its section or a local
 * symbol.  So an entry no relocation lands on is "unreferenced" only if no
 * such relocation reaches its table; otherwise it is "unnamed": nothing
 * names it, but it may still be in use.
 *
 * Output: "ADDRESS NAME unreferenced" and "ADDRESS NAME unnamed" for each
 * entry of those kinds and, with -e, "ADDRESS NAME export-only" for each
 * entry only a .discard section (EXPORT_SYMBOL(), CFI_NOSEAL()) refers to,
 * ADDRESS in VMLINUX, for "cfi-precision -x" (what precision would be
 * without them); a summary on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf-image.h"

/*
 * Tables of code addresses that name instructions, not targets of an
 * indirect call: x86-64's ORC unwind table names every instruction of
 * every entry, and objtool's and the kernel's patch-site lists name
 * others (the list objtool's IBT validation skips, for the same reason).
 */
static bool code_table(const char *name)
{
	static const char *const tables[] = {
		".orc_unwind_ip", ".ibt_endbr_seal", ".retpoline_sites",
		".return_sites", ".call_sites", ".static_call_sites",
		".altinstructions", ".parainstructions", ".smp_locks",
		"__jump_table", "__ex_table", "__bug_table", "__mcount_loc",
		"_kprobe_blacklist", "_error_injection_whitelist",
		".kcfi_traps", "__patchable_function_entries",
	};
	size_t i;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (!strcmp(name, tables[i]))
			return true;
	return false;
}

enum ref { REF_NONE, REF_EXPORT, REF_KEPT };

struct entry {
	const char *name;	/* without ".cfi_jt" */
	u64 addr;		/* in VMLINUX */
	enum ref ref;
	bool layout;		/* code that knows its table's layout refers to it */
	int in_obj, in_image;
};

static struct entry *entries;
static size_t nentries, capentries;

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

static struct entry *find_entry(const char *name)
{
	struct entry key = { .name = name };

	return bsearch(&key, entries, nentries, sizeof(*entries), cmp_entry);
}

/* "foo.cfi_jt" -> "foo" (a copy), or NULL (also for no name). */
static char *entry_name(const char *sym)
{
	size_t n = sym ? strlen(sym) : 0;

	if (n <= 7 || strcmp(sym + n - 7, ".cfi_jt"))
		return NULL;
	return strndup(sym, n - 7);
}

/* An image with a symbol table, or the end of the run. */
static void open_image(struct image *img, const char *path)
{
	switch (image_open(img, path)) {
	case IMAGE_OK:
		break;
	case IMAGE_NO_FILE:
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		exit(1);
	case IMAGE_NOT_ELF:
		fprintf(stderr, "cfi-jt-refs: %s: not an ELF file\n", path);
		exit(1);
	}
	if (!img->symtab) {
		fprintf(stderr, "cfi-jt-refs: %s has no symbol table\n", path);
		exit(1);
	}
}

/* The entry symbols of VMLINUX: the list, sorted by name. */
static void read_image(const char *path)
{
	struct image img;
	size_t i, n;

	open_image(&img, path);
	for (i = 1; i < img.nsymtab; i++) {
		GElf_Sym s;
		char *name;

		image_sym(&img, i, &s);
		name = entry_name(image_sym_name(&img, &s));
		if (!name)
			continue;
		PUSH(entries, nentries, capentries, ((struct entry){
			.name = name, .addr = s.st_value, .in_image = 1 }));
	}
	qsort(entries, nentries, sizeof(*entries), cmp_entry);
	/* Fold duplicates: one record per name, counting occurrences. */
	for (i = 1; i < nentries; i++)
		if (!strcmp(entries[i].name, entries[i - 1].name))
			entries[i].in_image += entries[i - 1].in_image;
	n = 0;
	for (i = 0; i < nentries; i++)
		if (i + 1 == nentries || strcmp(entries[i].name, entries[i + 1].name))
			entries[n++] = entries[i];
	nentries = n;
}

/* Marks each entry of VMLINUX.O with what refers to it. */
static void read_object(const char *path, long *tot)
{
	struct image img;
	size_t shstrndx, nsec, i, k;
	char *jt, *skip;
	enum ref **ref;
	bool *layout;
	size_t *size;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *e;

	open_image(&img, path);
	e = img.elf;
	elf_getshdrstrndx(e, &shstrndx);
	elf_getshdrnum(e, &nsec);
	jt = xcalloc(nsec, 1);
	skip = xcalloc(nsec, 1);
	ref = xcalloc(nsec, sizeof(*ref));
	size = xcalloc(nsec, sizeof(*size));
	layout = xcalloc(nsec, sizeof(*layout));
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;

		gelf_getshdr(scn, &sh);
		name = elf_strptr(e, shstrndx, sh.sh_name);
		i = elf_ndxscn(scn);
		if (!strncmp(name, ".text..L.cfi.jumptable", 22)) {
			jt[i] = 1;
			size[i] = sh.sh_size;
			ref[i] = xcalloc(sh.sh_size, sizeof(**ref));
		}
		if (!(sh.sh_flags & SHF_ALLOC) || jt[i] ||
		    !strcmp(name, ".text.__cfi_check") || code_table(name))
			skip[i] = 1;
		else if (!strncmp(name, ".discard", 8))
			skip[i] = 2;
	}

	scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d;
		enum ref kind;

		gelf_getshdr(scn, &sh);
		if (sh.sh_type != SHT_RELA || sh.sh_info >= nsec ||
		    skip[sh.sh_info] == 1)
			continue;
		kind = skip[sh.sh_info] == 2 ? REF_EXPORT : REF_KEPT;
		d = elf_getdata(scn, NULL);
		for (k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
			GElf_Rela r;
			GElf_Sym s;
			u64 off;
			size_t shndx;

			gelf_getrela(d, k, &r);
			i = GELF_R_SYM(r.r_info);
			if (!i || i >= img.nsymtab)
				continue;
			shndx = image_sym(&img, i, &s);
			if (shndx >= nsec || !jt[shndx])
				continue;
			if (kind == REF_KEPT &&
			    (GELF_ST_TYPE(s.st_info) == STT_SECTION ||
			     GELF_ST_BIND(s.st_info) == STB_LOCAL))
				layout[shndx] = true;
			off = s.st_value + r.r_addend;
			if (off < size[shndx] && ref[shndx][off] < kind)
				ref[shndx][off] = kind;
		}
	}

	for (i = 1; i < img.nsymtab; i++) {
		size_t shndx;
		GElf_Sym s;
		struct entry *en;
		char *name;

		shndx = image_sym(&img, i, &s);
		if (shndx >= nsec || !jt[shndx] || s.st_value >= size[shndx])
			continue;
		name = entry_name(image_sym_name(&img, &s));
		if (!name)
			continue;
		(*tot)++;
		en = find_entry(name);
		free(name);
		if (!en)
			continue;
		en->in_obj++;
		en->ref = ref[shndx][s.st_value];
		en->layout = layout[shndx];
	}
}

int main(int argc, char **argv)
{
	long tot = 0, n[3] = { 0 }, unnamed = 0, ambiguous = 0, listed = 0;
	bool exports = false;
	size_t i;
	int opt;

	while ((opt = getopt(argc, argv, "e")) != -1) {
		if (opt != 'e')
			goto usage;
		exports = true;
	}
	if (optind != argc - 2)
		goto usage;
	read_image(argv[optind + 1]);
	read_object(argv[optind], &tot);

	for (i = 0; i < nentries; i++) {
		struct entry *en = &entries[i];

		if (!en->in_obj)
			continue;
		if (en->in_obj > 1 || en->in_image > 1) {
			ambiguous += en->in_obj;
			continue;
		}
		if (en->ref == REF_NONE && en->layout)
			unnamed++;
		else
			n[en->ref]++;
		if (en->ref == REF_NONE || (exports && en->ref == REF_EXPORT)) {
			printf("%016llx %s %s\n", (unsigned long long)en->addr,
			       en->name, en->ref == REF_EXPORT ? "export-only" :
			       en->layout ? "unnamed" : "unreferenced");
			listed++;
		}
	}
	fprintf(stderr, "jt-entries: %ld\n", tot);
	fprintf(stderr, "jt-entries-referenced: %ld\n", n[REF_KEPT]);
	fprintf(stderr, "jt-entries-export-only: %ld\n", n[REF_EXPORT]);
	fprintf(stderr, "jt-entries-unreferenced: %ld\n", n[REF_NONE]);
	fprintf(stderr, "jt-entries-unnamed: %ld\n", unnamed);
	fprintf(stderr, "jt-entries-name-not-unique: %ld\n", ambiguous);
	fprintf(stderr, "jt-entries-listed: %ld\n", listed);
	return 0;
usage:
	fprintf(stderr, "usage: cfi-jt-refs [-e] VMLINUX.O VMLINUX\n");
	return 2;
}
