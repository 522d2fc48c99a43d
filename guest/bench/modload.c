// SPDX-License-Identifier: GPL-2.0
/*
 * modload: load and unload one module N times and report the guest time
 * spent loading and unloading, apart.  Under jump-table CFI both update
 * the CFI shadow of module text, so against a build without CFI the
 * difference is CFI's share.  Unload waits for an RCU grace period
 * (free_module()), which idles the guest for whole ticks, so loads are the
 * cleaner figure.  Syscalls directly: no busybox exec lands in a figure.
 *
 *   modload [-n N] [-q] MODULE.ko
 *
 * Prints "jtcfi-bench: modload loads=N load_ns=T unload_ns=U".
 */
#include "bench.h"

static const char *module_name(const char *path)
{
	static char name[64];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t len = strlen(base);

	if (len < 4 || strcmp(base + len - 3, ".ko") || len - 3 >= sizeof(name)) {
		fprintf(stderr, "jtcfi-bench: modload: %s is not a .ko file\n", path);
		exit(1);
	}
	memcpy(name, base, len - 3);
	name[len - 3] = 0;
	return name;
}

int main(int argc, char **argv)
{
	const char *path, *name;
	long long t, load_ns = 0, unload_ns = 0;
	long n, i;
	int fd;

	/* The module is the last argument; the rest is bench_args()'s. */
	if (argc < 2)
		bench_usage(0);
	path = argv[argc - 1];
	n = bench_args(argc - 1, argv, "modload", 100, NULL);
	name = module_name(path);
	fd = bench_check(open(path, O_RDONLY), "open");

	for (i = 0; i < n; i++) {
		t = bench_now();
		bench_check(bench_raw(my_syscall3(__NR_finit_module, fd, "", 0)),
			    "finit_module");
		load_ns += bench_now() - t;
		t = bench_now();
		bench_check(bench_raw(my_syscall2(__NR_delete_module, name, O_NONBLOCK)),
			    "delete_module");
		unload_ns += bench_now() - t;
	}
	printf("jtcfi-bench: modload loads=%ld load_ns=%lld unload_ns=%lld\n",
	       n, load_ns, unload_ns);
	return 0;
}
