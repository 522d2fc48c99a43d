// SPDX-License-Identifier: GPL-2.0
/*
 * tmpfs-read: open, read and close a small file; the guest has tmpfs on
 * /tmp, so this is path lookup plus the file open/release paths.
 * -d DIR puts the file elsewhere (for a run on the host).
 */
#include "bench.h"

#define FILE_SIZE 512

int main(int argc, char **argv)
{
	const char *dir = "/tmp";
	long n = bench_args(argc, argv, "tmpfs-read", 50000, &dir);
	char path[256], pid[24], buf[4096];
	long i;
	int fd;

	/* A per-process name: concurrent runs must not share the file. */
	utoa_r(getpid(), pid);
	path[0] = 0;
	if (strlcat(path, dir, sizeof(path)) >= sizeof(path) ||
	    strlcat(path, "/jtcfi-bench-tmpfs-read.", sizeof(path)) >= sizeof(path) ||
	    strlcat(path, pid, sizeof(path)) >= sizeof(path)) {
		fprintf(stderr, "jtcfi-bench: tmpfs-read: directory name too long\n");
		return 1;
	}

	memset(buf, 'x', FILE_SIZE);
	fd = bench_check(open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600), "open (create)");
	bench_write(fd, buf, FILE_SIZE, "write");
	bench_check(close(fd), "close");

	bench_start();
	for (i = 0; i < n; i++) {
		fd = bench_check(open(path, O_RDONLY), "open");
		/* One read of the whole file; short means something is wrong. */
		if (bench_check(read(fd, buf, sizeof(buf)), "read") != FILE_SIZE) {
			fprintf(stderr, "jtcfi-bench: tmpfs-read: short read\n");
			unlink(path);
			return 1;
		}
		bench_check(close(fd), "close");
	}
	bench_stop(n);
	bench_check(unlink(path), "unlink");
	return 0;
}
