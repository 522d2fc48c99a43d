// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-pingpong: a parent and a forked child bounce one byte over two
 * pipes; one op is a round trip (two writes, two reads, two wakeups).
 */
#include "bench.h"

int main(int argc, char **argv)
{
	long n = bench_args(argc, argv, "pipe-pingpong", 20000, NULL);
	int ping[2], pong[2], pid;
	char c = 'x';
	long i;

	bench_check(pipe(ping), "pipe");
	bench_check(pipe(pong), "pipe");
	pid = bench_check(fork(), "fork");
	if (pid == 0) {
		close(ping[1]);
		close(pong[0]);
		/* One extra round for the untimed warm-up below. */
		for (i = 0; i <= n; i++) {
			bench_read(ping[0], &c, 1, "read");
			bench_write(pong[1], &c, 1, "write");
		}
		exit(0);
	}
	/* Without our copies of the child's ends, its death reads as EOF. */
	close(ping[0]);
	close(pong[1]);

	/* Warm-up: the timed loop starts with the child already running. */
	bench_write(ping[1], &c, 1, "write");
	bench_read(pong[0], &c, 1, "read");

	bench_start();
	for (i = 0; i < n; i++) {
		bench_write(ping[1], &c, 1, "write");
		bench_read(pong[0], &c, 1, "read");
	}
	bench_stop(n);
	bench_reap(pid);
	return 0;
}
