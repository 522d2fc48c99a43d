// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-loop: a BPF program whose callback bpf_loop() calls four times, the
 * calls a BPF loop helper makes to JIT-compiled code that is in no jump
 * table.  The callback keeps values in BPF R6-R9, so that its JIT-made
 * prologue saves the callee-saved registers they map to, and calls
 * bpf_get_prandom_u32() each time.
 *
 * "bpf-loop FILE" writes the callback's entry (from the program's
 * jited_ksyms, 0x-prefixed) to FILE once the program is loaded, before it
 * runs: the test module's forge_bpf_loop_cb parameter, so that the module
 * knows which stack words to forge.
 *
 * A sleepable BPF_PROG_TYPE_SYSCALL program, run once with
 * BPF_PROG_TEST_RUN (its context holds bpf_loop()'s flags); its BTF (two
 * static functions, which a callback needs) is built here.
 * Prints "jtcfi-bpf-loop: bpf_loop() made N calls", or
 * "jtcfi-bpf-loop: error: ..." and exits 1.
 */
#define PROG "jtcfi-bpf-loop"
#include "kbtf.h"

/* Type ids in prog_btf, in the order they are laid out below. */
enum { T_INT = 1, T_PROTO, T_MAIN, T_CB };

static const char prog_btf_strs[] = "\0int\0main\0cb";
/* Offsets of the names in prog_btf_strs. */
enum { S_INT = 1, S_MAIN = 5, S_CB = 10 };

static struct {
	struct btf_header hdr;
	struct btf_type t_int;
	__u32 int_enc;
	struct btf_type t_proto, t_main, t_cb;
	char strs[sizeof(prog_btf_strs)];
} __attribute__((packed)) prog_btf;

/* int main(void) and int cb(void), both static (BTF_FUNC_STATIC, 0). */
static int load_prog_btf(char *log, unsigned int log_size)
{
	prog_btf.hdr = (struct btf_header){
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(struct btf_header),
		.type_off = 0,
		.type_len = __builtin_offsetof(typeof(prog_btf), strs) - sizeof(struct btf_header),
		.str_off = __builtin_offsetof(typeof(prog_btf), strs) - sizeof(struct btf_header),
		.str_len = sizeof(prog_btf_strs),
	};
	prog_btf.t_int = (struct btf_type){ .name_off = S_INT,
		.info = BTF_INFO_ENC(BTF_KIND_INT, 0, 0), .size = 4 };
	prog_btf.int_enc = BTF_INT_ENC(BTF_INT_SIGNED, 0, 32);
	prog_btf.t_proto = (struct btf_type){
		.info = BTF_INFO_ENC(BTF_KIND_FUNC_PROTO, 0, 0), .type = T_INT };
	prog_btf.t_main = (struct btf_type){ .name_off = S_MAIN,
		.info = BTF_INFO_ENC(BTF_KIND_FUNC, 0, BTF_FUNC_STATIC), .type = T_PROTO };
	prog_btf.t_cb = (struct btf_type){ .name_off = S_CB,
		.info = BTF_INFO_ENC(BTF_KIND_FUNC, 0, BTF_FUNC_STATIC), .type = T_PROTO };
	memcpy(prog_btf.strs, prog_btf_strs, sizeof(prog_btf_strs));

	return btf_load(&prog_btf, sizeof(prog_btf), log, log_size);
}

/* The second half of a 64-bit immediate load. */
#define LD_IMM64_HI()		INSN(0, 0, 0, 0, 0)
/* Index of the callback's first instruction in prog[] below. */
#define CB_START		7

static const struct bpf_insn prog[] = {
	/*
	 * return bpf_loop(4, cb, NULL, *(u64 *)ctx);
	 * The flags, 0, come from the context, so that the verifier cannot
	 * tell and does not inline bpf_loop() into the program.
	 */
	INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_4, BPF_REG_1, 0, 0),
	MOV64_IMM(BPF_REG_1, 4),
	INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_2, BPF_PSEUDO_FUNC, 0, CB_START - 3),
	LD_IMM64_HI(),
	MOV64_IMM(BPF_REG_3, 0),
	CALL_HELPER(BPF_FUNC_loop),
	EXIT(),
	/* cb(index, ctx): r6 = r7 = r8 = r9 = index; bpf_get_prandom_u32(); return 0; */
	MOV64_REG(BPF_REG_6, BPF_REG_1),
	MOV64_REG(BPF_REG_7, BPF_REG_1),
	MOV64_REG(BPF_REG_8, BPF_REG_1),
	MOV64_REG(BPF_REG_9, BPF_REG_1),
	CALL_HELPER(BPF_FUNC_get_prandom_u32),
	MOV64_IMM(BPF_REG_0, 0),
	EXIT(),
};

static char log_buf[1 << 20];

/* Writes "0x<ADDR>\n" to PATH. */
static void write_addr(const char *path, unsigned long addr)
{
	char text[2 + 16 + 1 + 1] = "0x";
	int fd = open(path, O_WRONLY);
	int n;

	if (fd < 0)
		die("cannot open %s: errno %d\n", path, errno);
	n = 2 + utoh_r(addr, text + 2);
	text[n++] = '\n';
	if (write(fd, text, n) != n)
		die("cannot write %s: errno %d\n", path, errno);
	close(fd);
}

int main(int argc, char **argv)
{
	struct bpf_func_info funcs[] = {
		{ .insn_off = 0, .type_id = T_MAIN },
		{ .insn_off = CB_START, .type_id = T_CB },
	};
	static const char license[] = "GPL";
	struct bpf_prog_info info = {};
	__u64 entries[2] = {}, flags = 0;
	union bpf_attr attr = {};
	int btf_fd, prog_fd;

	btf_fd = load_prog_btf(log_buf, sizeof(log_buf));

	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.prog_flags = BPF_F_SLEEPABLE;	/* as syscall programs must be */
	attr.insns = (unsigned long)prog;
	attr.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	attr.license = (unsigned long)license;
	attr.prog_btf_fd = btf_fd;
	attr.func_info = (unsigned long)funcs;
	attr.func_info_cnt = 2;
	attr.func_info_rec_size = sizeof(funcs[0]);
	attr.log_buf = (unsigned long)log_buf;
	attr.log_size = sizeof(log_buf);
	attr.log_level = 1;
	prog_fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (prog_fd < 0)
		die("BPF_PROG_LOAD: errno %d, verifier log:\n%s\n", errno, log_buf);

	if (argc > 1) {
		info.nr_jited_ksyms = 2;
		info.jited_ksyms = (unsigned long)entries;
		memset(&attr, 0, sizeof(attr));
		attr.info.bpf_fd = prog_fd;
		attr.info.info_len = sizeof(info);
		attr.info.info = (unsigned long)&info;
		if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) < 0)
			die("BPF_OBJ_GET_INFO_BY_FD: errno %d\n", errno);
		if (info.nr_jited_ksyms != 2 || !entries[1])
			die("no JIT-compiled callback (%u entries)\n", info.nr_jited_ksyms);
		write_addr(argv[1], entries[1]);
	}

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.ctx_in = (unsigned long)&flags;
	attr.test.ctx_size_in = sizeof(flags);
	if (sys_bpf(BPF_PROG_TEST_RUN, &attr) < 0)
		die("BPF_PROG_TEST_RUN: errno %d\n", errno);
	printf(PROG ": bpf_loop() made %u calls\n", attr.test.retval);
	close(prog_fd);
	close(btf_fd);
	return 0;
}
