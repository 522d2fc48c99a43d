// SPDX-License-Identifier: GPL-2.0
/*
 * endbr-count: how many places an indirect branch may land on in an x86-64
 * vmlinux built with IBT, once objtool's seal list has been applied.
 *
 * Usage: endbr-count VMLINUX
 *
 * Prints, one "key: value" per line:
 *   endbr-total           ENDBR64 instructions at the start of a function
 *                         symbol or of a jump-table entry
 *   endbr-sealed          those listed in .ibt_endbr_seal, which the
 *                         kernel turns into a NOP-like poison at boot
 *   endbr-left            total - sealed: the indirect-branch targets IBT
 *                         allows once the kernel runs
 *   endbr-in-jump-tables  of those left, how many are jump-table entries
 *                         (between __cfi_jt_start and __cfi_jt_end)
 *
 * An ENDBR64 is counted where a function symbol (STT_FUNC) starts, each
 * address once, and at every 16 bytes of the jump tables; ENDBR64 inside
 * functions (after a setjmp-like call, say) is not counted. A seal entry
 * is a 32-bit offset from itself to the sealed ENDBR64.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sec {
	uint64_t addr, size;
	Elf_Data *data;
	bool exec;
};

static struct sec *secs;
static size_t nsecs;

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "endbr-count: %s%s%s\n", msg, arg ? ": " : "",
		arg ? arg : "");
	exit(1);
}

static const unsigned char *bytes_at(uint64_t addr, size_t len, bool exec)
{
	size_t i;

	for (i = 0; i < nsecs; i++) {
		struct sec *s = &secs[i];

		if (exec && !s->exec)
			continue;
		if (addr >= s->addr && addr - s->addr + len <= s->size &&
		    s->data && s->data->d_buf)
			return (const unsigned char *)s->data->d_buf +
			       (addr - s->addr);
	}
	return NULL;
}

static bool is_endbr64(uint64_t addr)
{
	static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	const unsigned char *p = bytes_at(addr, sizeof(endbr64), true);

	return p && !memcmp(p, endbr64, sizeof(endbr64));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool in_sorted(const uint64_t *v, size_t n, uint64_t key)
{
	return bsearch(&key, v, n, sizeof(*v), cmp_u64) != NULL;
}

int main(int argc, char **argv)
{
	uint64_t jt_start = 0, jt_end = 0, seal_addr = 0, seal_size = 0, a;
	uint64_t *starts = NULL, *sealed = NULL;
	size_t nstarts = 0, nsealed = 0, i, total = 0, left = 0, in_jt = 0;
	size_t nsealed_counted = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: endbr-count VMLINUX\n");
		return 2;
	}
	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf is too old", NULL);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		die("cannot open", argv[1]);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		die("not an ELF file", argv[1]);
	{
		GElf_Ehdr eh;

		if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64)
			die("not an x86-64 image", argv[1]);
	}

	while ((scn = elf_nextscn(elf, scn))) {
		gelf_getshdr(scn, &sh);
		if (sh.sh_type == SHT_SYMTAB) {
			Elf_Data *d = elf_getdata(scn, NULL);
			size_t n = sh.sh_size / sh.sh_entsize;
			GElf_Sym sym;

			starts = malloc(n * sizeof(*starts));
			if (!starts)
				die("out of memory", NULL);
			for (i = 0; i < n; i++) {
				const char *sname;

				gelf_getsym(d, i, &sym);
				sname = elf_strptr(elf, sh.sh_link, sym.st_name);
				if (!sname)
					continue;
				if (!strcmp(sname, "__cfi_jt_start"))
					jt_start = sym.st_value;
				else if (!strcmp(sname, "__cfi_jt_end"))
					jt_end = sym.st_value;
				else if (!strcmp(sname, "__ibt_endbr_seal"))
					seal_addr = sym.st_value;
				else if (!strcmp(sname, "__ibt_endbr_seal_end"))
					seal_size = sym.st_value;
				if (GELF_ST_TYPE(sym.st_info) == STT_FUNC)
					starts[nstarts++] = sym.st_value;
			}
			continue;
		}
		if (!(sh.sh_flags & SHF_ALLOC) || sh.sh_type != SHT_PROGBITS)
			continue;
		secs = realloc(secs, (nsecs + 1) * sizeof(*secs));
		if (!secs)
			die("out of memory", NULL);
		secs[nsecs++] = (struct sec){
			.addr = sh.sh_addr, .size = sh.sh_size,
			.data = elf_getdata(scn, NULL),
			.exec = !!(sh.sh_flags & SHF_EXECINSTR),
		};
	}
	if (!starts)
		die("no symbol table", argv[1]);

	/* The seal list: s32 offsets, each from its own address. */
	if (seal_addr && seal_size > seal_addr) {
		const unsigned char *p;

		seal_size -= seal_addr;
		p = bytes_at(seal_addr, seal_size, false);
		if (!p)
			die("__ibt_endbr_seal is not in the file", argv[1]);
		nsealed = seal_size / 4;
		sealed = malloc(nsealed * sizeof(*sealed) + 1);
		for (i = 0; i < nsealed; i++) {
			int32_t off;

			memcpy(&off, p + 4 * i, sizeof(off));
			sealed[i] = seal_addr + 4 * i + (int64_t)off;
		}
		qsort(sealed, nsealed, sizeof(*sealed), cmp_u64);
	}

	qsort(starts, nstarts, sizeof(*starts), cmp_u64);
	for (i = 0; i < nstarts; i++) {
		if (i && starts[i] == starts[i - 1])
			continue;
		if (starts[i] >= jt_start && starts[i] < jt_end)
			continue;	/* entries are counted below */
		if (!is_endbr64(starts[i]))
			continue;
		total++;
		if (in_sorted(sealed, nsealed, starts[i]))
			nsealed_counted++;
		else
			left++;
	}
	for (a = jt_start; jt_end && a < jt_end; a += 16) {
		if (!is_endbr64(a))
			continue;
		total++;
		if (in_sorted(sealed, nsealed, a)) {
			nsealed_counted++;
		} else {
			left++;
			in_jt++;
		}
	}
	printf("endbr-total: %zu\n", total);
	printf("endbr-sealed: %zu\n", nsealed_counted);
	printf("endbr-left: %zu\n", left);
	printf("endbr-in-jump-tables: %zu\n", in_jt);
	if (nsealed_counted != nsealed)
		fprintf(stderr, "endbr-count: %zu of %zu seal entries are not at a counted ENDBR64\n",
			nsealed - nsealed_counted, nsealed);
	elf_end(elf);
	close(fd);
	return 0;
}
