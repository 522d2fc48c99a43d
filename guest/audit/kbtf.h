/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbtf.h: what the guest/audit BPF programs share, built against the
 * kernel tree's nolibc (scripts/build-guest-programs.sh): the bpf()
 * syscall, a die() that names the program, raw BPF instructions, loading a
 * BTF of the program's own, and look-ups in the kernel's own BTF
 * (/sys/kernel/btf/vmlinux) by name.
 */
#ifndef JTCFI_KBTF_H
#define JTCFI_KBTF_H

#include <linux/bpf.h>
#include <linux/btf.h>

/* Each program defines PROG, the prefix of its output lines. */
#define die(...) do {						\
	fprintf(stderr, PROG ": error: " __VA_ARGS__);		\
	exit(1);						\
} while (0)

static __attribute__((unused))
long sys_bpf(int cmd, union bpf_attr *attr)
{
	long ret = my_syscall3(__NR_bpf, cmd, attr, sizeof(*attr));

	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}

/* Encoders libbpf has and the uapi header leaves out. */
#define BTF_INFO_ENC(kind, kflag, vlen) \
	((!!(kflag) << 31) | ((kind) << 24) | ((vlen) & BTF_MAX_VLEN))
#define BTF_INT_ENC(encoding, bits_offset, nr_bits) \
	((encoding) << 24 | (bits_offset) << 16 | (nr_bits))

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), \
	.src_reg = (s), .off = (o), .imm = (i) })
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define ST_W(d, o, i)		INSN(BPF_ST | BPF_MEM | BPF_W, d, 0, o, i)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define CALL_HELPER(f)		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define CALL_KFUNC(id)		INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, id)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define LD_MAP_FD(d, fd)	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), \
				INSN(0, 0, 0, 0, 0)

/* Loads a BTF blob of the program's own; LOG, if given, gets the kernel's. */
static __attribute__((unused))
int btf_load(const void *blob, unsigned int size, char *log, unsigned int log_size)
{
	union bpf_attr attr = {};
	int fd;

	attr.btf = (unsigned long)blob;
	attr.btf_size = size;
	if (log) {
		attr.btf_log_buf = (unsigned long)log;
		attr.btf_log_size = log_size;
		attr.btf_log_level = 1;
	}
	fd = sys_bpf(BPF_BTF_LOAD, &attr);
	if (fd < 0)
		die("BPF_BTF_LOAD: errno %d\n%s\n", errno, log ? log : "");
	return fd;
}

static char kbtf[32 << 20];
static const struct btf_header *kbtf_hdr = (const void *)kbtf;

/* Bytes of kind-specific data after a type's struct btf_type. */
static unsigned int kbtf_extra(const struct btf_type *t)
{
	unsigned int vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	default:		/* PTR, FWD, TYPEDEF, modifiers, FUNC, FLOAT, TYPE_TAG */
		return 0;
	}
}

static const char *kbtf_str(unsigned int off)
{
	return kbtf + kbtf_hdr->hdr_len + kbtf_hdr->str_off + off;
}

/* The id of the type KIND named NAME in the kernel's BTF, *type its entry. */
static __attribute__((unused))
int kbtf_find(const char *name, int kind, const struct btf_type **type)
{
	static long size;
	const char *types;
	unsigned int off;
	int id;

	if (!size) {
		int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY);
		long n;

		if (fd < 0)
			die("cannot open /sys/kernel/btf/vmlinux (CONFIG_DEBUG_INFO_BTF?): errno %d\n", errno);
		while ((n = read(fd, kbtf + size, sizeof(kbtf) - size)) > 0)
			size += n;
		close(fd);
		if (size == sizeof(kbtf) || size < (long)sizeof(*kbtf_hdr) ||
		    kbtf_hdr->magic != BTF_MAGIC)
			die("/sys/kernel/btf/vmlinux: not BTF, or larger than %d bytes\n", (int)sizeof(kbtf));
	}
	types = kbtf + kbtf_hdr->hdr_len + kbtf_hdr->type_off;
	for (off = 0, id = 1; off < kbtf_hdr->type_len; id++) {
		const struct btf_type *t = (const void *)(types + off);

		if (BTF_INFO_KIND(t->info) == kind && !strcmp(kbtf_str(t->name_off), name)) {
			if (type)
				*type = t;
			return id;
		}
		off += sizeof(*t) + kbtf_extra(t);
	}
	die("no %s in the kernel's BTF\n", name);
}

/* Byte offset and index of member NAME of struct type T. */
static __attribute__((unused))
unsigned int kbtf_member(const struct btf_type *t, const char *name, int *index)
{
	const struct btf_member *m = (const void *)(t + 1);
	int i;

	for (i = 0; i < BTF_INFO_VLEN(t->info); i++, m++) {
		if (!strcmp(kbtf_str(m->name_off), name)) {
			if (index)
				*index = i;
			return m->offset / 8;
		}
	}
	die("no member %s in struct %s\n", name, kbtf_str(t->name_off));
}

#endif /* JTCFI_KBTF_H */
