// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-kptr-map: store a referenced task_struct kptr in a BPF array map,
 * then free the map, so that the kernel calls the kptr's destructor
 * (bpf_task_release_dtor) through the pointer btf_parse_kptr() made for it.
 * Under jump-table CFI that pointer came from kallsyms, the body of the
 * function, until the series gave it the function's jump-table entry
 * (issue 10, finding 5): any CAP_BPF user could make the kernel oops.
 *
 * No libbpf and no BPF compiler: the map's BTF (struct val { struct
 * task_struct __kptr *task; }) and the program (a sleepable
 * BPF_PROG_TYPE_SYSCALL one, run once with BPF_PROG_TEST_RUN) are built
 * here; the kfuncs' BTF ids are read from /sys/kernel/btf/vmlinux.
 *
 * Prints "jtcfi-kptr: stored a task kptr in a map, ..." on success,
 * else "jtcfi-kptr: error: ..." (with the verifier's log) and exits 1.  That
 * the destructor then ran, and was not refused, is for the caller to see
 * (ftrace, the console): the map is freed after RCU grace periods (a
 * sleepable program used it), from a workqueue, seconds later under TCG.
 */
#define PROG "jtcfi-kptr"
#include "kbtf.h"

/* --- the map's BTF --------------------------------------------------------- */

/* Type ids in map_btf, in the order they are laid out below. */
enum { T_INT = 1, T_TASK, T_KPTR_TAG, T_PTR, T_VAL };

static const char map_btf_strs[] = "\0int\0task_struct\0kptr\0val\0task";
/* Offsets of the names in map_btf_strs. */
enum { S_INT = 1, S_TASK_STRUCT = 5, S_KPTR = 17, S_VAL = 22, S_TASK = 26 };

static struct {
	struct btf_header hdr;
	struct btf_type t_int;
	__u32 int_enc;
	struct btf_type t_task, t_tag, t_ptr, t_val;
	struct btf_member val_task;
	char strs[sizeof(map_btf_strs)];
} __attribute__((packed)) map_btf;

static int load_map_btf(char *log, unsigned int log_size)
{
	map_btf.hdr = (struct btf_header){
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(struct btf_header),
		.type_off = 0,
		.type_len = __builtin_offsetof(typeof(map_btf), strs) - sizeof(struct btf_header),
		.str_off = __builtin_offsetof(typeof(map_btf), strs) - sizeof(struct btf_header),
		.str_len = sizeof(map_btf_strs),
	};
	map_btf.t_int = (struct btf_type){ .name_off = S_INT,
		.info = BTF_INFO_ENC(BTF_KIND_INT, 0, 0), .size = 4 };
	map_btf.int_enc = BTF_INT_ENC(BTF_INT_SIGNED, 0, 32);
	/* Matched to the kernel's struct task_struct by name and kind. */
	map_btf.t_task = (struct btf_type){ .name_off = S_TASK_STRUCT,
		.info = BTF_INFO_ENC(BTF_KIND_STRUCT, 0, 0), .size = 0 };
	map_btf.t_tag = (struct btf_type){ .name_off = S_KPTR,
		.info = BTF_INFO_ENC(BTF_KIND_TYPE_TAG, 0, 0), .type = T_TASK };
	map_btf.t_ptr = (struct btf_type){
		.info = BTF_INFO_ENC(BTF_KIND_PTR, 0, 0), .type = T_KPTR_TAG };
	map_btf.t_val = (struct btf_type){ .name_off = S_VAL,
		.info = BTF_INFO_ENC(BTF_KIND_STRUCT, 0, 1), .size = 8 };
	map_btf.val_task = (struct btf_member){ .name_off = S_TASK,
		.type = T_PTR, .offset = 0 };
	memcpy(map_btf.strs, map_btf_strs, sizeof(map_btf_strs));

	return btf_load(&map_btf, sizeof(map_btf), log, log_size);
}

/* --- the program ----------------------------------------------------------- */

static char log_buf[1 << 20];

int main(void)
{
	int acquire = kbtf_find("bpf_task_acquire", BTF_KIND_FUNC, NULL);
	int release = kbtf_find("bpf_task_release", BTF_KIND_FUNC, NULL);
	union bpf_attr attr = {};
	int btf_fd, map_fd, prog_fd;

	btf_fd = load_map_btf(log_buf, sizeof(log_buf));

	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 8;
	attr.max_entries = 1;
	attr.btf_fd = btf_fd;
	attr.btf_key_type_id = T_INT;
	attr.btf_value_type_id = T_VAL;
	memcpy(attr.map_name, "jtcfi_kptr", sizeof("jtcfi_kptr"));
	map_fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (map_fd < 0)
		die("BPF_MAP_CREATE of an array with a task_struct kptr: errno %d\n", errno);

	/*
	 * val = bpf_map_lookup_elem(map, &(int){0});
	 * task = bpf_task_acquire(bpf_get_current_task_btf());
	 * old = bpf_kptr_xchg(&val->task, task);
	 * if (old) bpf_task_release(old);
	 * return 1;	(0 if nothing was stored)
	 */
	struct bpf_insn prog[] = {
		ST_W(BPF_REG_10, -4, 0),
		LD_MAP_FD(BPF_REG_1, map_fd),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL_HELPER(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 13),
		MOV64_REG(BPF_REG_7, BPF_REG_0),
		CALL_HELPER(BPF_FUNC_get_current_task_btf),
		MOV64_REG(BPF_REG_1, BPF_REG_0),
		CALL_KFUNC(acquire),
		JEQ_IMM(BPF_REG_0, 0, 8),
		MOV64_REG(BPF_REG_1, BPF_REG_7),
		MOV64_REG(BPF_REG_2, BPF_REG_0),
		CALL_HELPER(BPF_FUNC_kptr_xchg),
		JEQ_IMM(BPF_REG_0, 0, 2),
		MOV64_REG(BPF_REG_1, BPF_REG_0),
		CALL_KFUNC(release),
		MOV64_IMM(BPF_REG_0, 1),
		EXIT(),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	static const char license[] = "GPL";

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.insns = (unsigned long)prog;
	attr.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	attr.license = (unsigned long)license;
	attr.log_buf = (unsigned long)log_buf;
	attr.log_size = sizeof(log_buf);
	attr.log_level = 1;
	prog_fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (prog_fd < 0)
		die("BPF_PROG_LOAD: errno %d, verifier log:\n%s\n", errno, log_buf);

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	if (sys_bpf(BPF_PROG_TEST_RUN, &attr) < 0)
		die("BPF_PROG_TEST_RUN: errno %d\n", errno);
	if (attr.test.retval != 1)
		die("the program stored no task kptr in the map\n");

	/* The last references: the map is freed from a workqueue, later. */
	close(prog_fd);
	close(map_fd);
	close(btf_fd);
	printf("jtcfi-kptr: stored a task kptr in a map, then closed the map and the program\n");
	return 0;
}
