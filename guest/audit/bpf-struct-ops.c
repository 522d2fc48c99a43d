// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-struct-ops: a TCP congestion control written in BPF ("jtcfi_cc"),
 * registered through a struct_ops map and used by a loopback TCP
 * connection, so that the TCP stack calls BPF programs through ordinary
 * tcp_congestion_ops pointers that point at JIT-made trampolines: the calls
 * a CFI scheme must accept when the member's prototype matches.
 *
 * ssthresh and undo_cwnd return 10; cong_avoid does nothing.  With BPF
 * statistics on, the programs' run counts show that the kernel did call
 * them.  Prints
 *   jtcfi-struct-ops: registered; 1048576 bytes sent; runs: ssthresh N cong_avoid N undo_cwnd N
 * or "jtcfi-struct-ops: error: ..." and exits 1 (the map update's errno
 * says whether the kernel refused struct_ops).
 *
 * "bpf-struct-ops COMMAND [ARGS...]" then runs COMMAND (a path) while
 * jtcfi_cc is still registered, its trampolines in /proc/kallsyms as
 * bpf__tcp_congestion_ops_*, and exits with COMMAND's status.
 */
#define PROG "jtcfi-struct-ops"
#include "kbtf.h"
#include <linux/in.h>
#include <linux/tcp.h>

#define AF_INET		2
#define SOCK_STREAM	1
#define SOL_TCP		6

static long sys(long nr, long a, long b, long c)
{
	long ret = my_syscall3(nr, a, b, c);

	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}

static char log_buf[1 << 16];

/* A struct_ops program for member INDEX of tcp_congestion_ops. */
static int load_member(int ops_id, int index, const struct bpf_insn *insns, int n,
		       const char *name)
{
	union bpf_attr attr = {};
	int fd;

	attr.prog_type = BPF_PROG_TYPE_STRUCT_OPS;
	attr.expected_attach_type = index;
	attr.attach_btf_id = ops_id;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = n;
	attr.license = (unsigned long)"GPL";
	attr.log_buf = (unsigned long)log_buf;
	attr.log_size = sizeof(log_buf);
	attr.log_level = 1;
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0)
		die("BPF_PROG_LOAD of %s: errno %d, verifier log:\n%s\n", name, errno, log_buf);
	return fd;
}

/*
 * map_create() wants a BTF of the program's own for a struct_ops map, even
 * though the value's type is the kernel's: the smallest is one int.
 */
static int load_own_btf(void)
{
	static struct {
		struct btf_header hdr;
		struct btf_type t_int;
		__u32 int_enc;
		char strs[sizeof("\0int")];
	} __attribute__((packed)) btf = {
		.hdr = { .magic = BTF_MAGIC, .version = BTF_VERSION,
			 .hdr_len = sizeof(struct btf_header),
			 .type_len = sizeof(struct btf_type) + 4,
			 .str_off = sizeof(struct btf_type) + 4,
			 .str_len = sizeof("\0int") },
		.t_int = { .name_off = 1, .info = BTF_INFO_ENC(BTF_KIND_INT, 0, 0), .size = 4 },
		.int_enc = BTF_INT_ENC(BTF_INT_SIGNED, 0, 32),
		.strs = "\0int",
	};

	return btf_load(&btf, sizeof(btf), NULL, 0);
}

static unsigned long long run_count(int prog_fd)
{
	struct bpf_prog_info info = {};
	union bpf_attr attr = {};

	attr.info.bpf_fd = prog_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (unsigned long)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) < 0)
		die("BPF_OBJ_GET_INFO_BY_FD: errno %d\n", errno);
	return info.run_cnt;
}

static char value[4096];
static char buf[65536];

int main(int argc, char **argv)
{
	const struct btf_type *ops, *value_type;
	int ops_id, value_id, data_off, map_fd, stats_fd, key = 0;
	const char *members[] = { "ssthresh", "cong_avoid", "undo_cwnd" };
	int prog_fd[3], i, lfd, cfd, afd;
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = 0,
				    .sin_addr.s_addr = __builtin_bswap32(0x7f000001) };
	int addr_len = sizeof(addr);
	long sent = 0, got = 0, n;
	union bpf_attr attr = {};
	struct bpf_insn ret10[] = { MOV64_IMM(BPF_REG_0, 10), EXIT() };
	struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT() };

	ops_id = kbtf_find("tcp_congestion_ops", BTF_KIND_STRUCT, &ops);
	value_id = kbtf_find("bpf_struct_ops_tcp_congestion_ops", BTF_KIND_STRUCT, &value_type);
	data_off = kbtf_member(value_type, "data", NULL);
	if (value_type->size > sizeof(value))
		die("bpf_struct_ops_tcp_congestion_ops is %u bytes\n", value_type->size);

	attr.enable_stats.type = BPF_STATS_RUN_TIME;
	stats_fd = sys_bpf(BPF_ENABLE_STATS, &attr);
	if (stats_fd < 0)
		die("BPF_ENABLE_STATS: errno %d\n", errno);

	for (i = 0; i < 3; i++) {
		int index, off = kbtf_member(ops, members[i], &index);

		if (i == 1)
			prog_fd[i] = load_member(ops_id, index, ret0, 2, members[i]);
		else
			prog_fd[i] = load_member(ops_id, index, ret10, 2, members[i]);
		/* The kernel reads a program's fd from the member's slot. */
		*(unsigned long *)(value + data_off + off) = prog_fd[i];
	}
	strcpy(value + data_off + kbtf_member(ops, "name", NULL), "jtcfi_cc");

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_STRUCT_OPS;
	attr.key_size = 4;
	attr.value_size = value_type->size;
	attr.max_entries = 1;
	attr.btf_vmlinux_value_type_id = value_id;
	attr.btf_fd = load_own_btf();
	memcpy(attr.map_name, "jtcfi_cc", sizeof("jtcfi_cc"));
	map_fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (map_fd < 0)
		die("BPF_MAP_CREATE of a tcp_congestion_ops struct_ops map: errno %d\n", errno);

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (unsigned long)&key;
	attr.value = (unsigned long)value;
	if (sys_bpf(BPF_MAP_UPDATE_ELEM, &attr) < 0)
		die("registering jtcfi_cc (BPF_MAP_UPDATE_ELEM): errno %d%s\n", errno,
		    errno == 95 ? " (EOPNOTSUPP: the kernel refuses struct_ops)" : "");

	/* A loopback connection whose sender uses jtcfi_cc. */
	lfd = sys(__NR_socket, AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || sys(__NR_bind, lfd, (long)&addr, sizeof(addr)) < 0 ||
	    sys(__NR_listen, lfd, 1, 0) < 0 ||
	    sys(__NR_getsockname, lfd, (long)&addr, (long)&addr_len) < 0)
		die("listening socket: errno %d\n", errno);
	cfd = sys(__NR_socket, AF_INET, SOCK_STREAM, 0);
	if (cfd < 0 || my_syscall5(__NR_setsockopt, cfd, SOL_TCP, TCP_CONGESTION,
				   "jtcfi_cc", sizeof("jtcfi_cc")) < 0)
		die("setsockopt(TCP_CONGESTION, jtcfi_cc) failed\n");
	if (sys(__NR_connect, cfd, (long)&addr, sizeof(addr)) < 0)
		die("connect: errno %d\n", errno);
	afd = sys(__NR_accept, lfd, 0, 0);
	if (afd < 0)
		die("accept: errno %d\n", errno);
	/* Small enough for the socket buffers: no reader thread needed. */
	while (sent < (1 << 20)) {
		n = write(cfd, buf, sizeof(buf));
		if (n <= 0)
			die("write: errno %d\n", errno);
		sent += n;
		while (got < sent && (n = read(afd, buf, sizeof(buf))) > 0)
			got += n;
	}
	close(cfd);
	close(afd);
	close(lfd);

	printf("%s: registered; %ld bytes sent; runs:", PROG, sent);
	for (i = 0; i < 3; i++)
		printf(" %s %llu", members[i], run_count(prog_fd[i]));
	printf("\n");

	if (argc > 1) {
		int status = 1;
		pid_t pid = fork();

		if (pid == 0) {
			execve(argv[1], argv + 1, environ);
			die("cannot run %s: errno %d\n", argv[1], errno);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			die("fork or wait: errno %d\n", errno);
		close(map_fd);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	/* Unregisters jtcfi_cc; the programs go with their fds. */
	close(map_fd);
	return 0;
}
