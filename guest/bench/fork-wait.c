// SPDX-License-Identifier: GPL-2.0
/* fork-wait: fork a child that exits at once, and reap it. */
#include "bench.h"

int main(int argc, char **argv)
{
	long n = bench_args(argc, argv, "fork-wait", 2000, NULL);
	long i;
	int pid;

	bench_start();
	for (i = 0; i < n; i++) {
		pid = bench_check(fork(), "fork");
		if (pid == 0)
			exit(0);
		bench_reap(pid);
	}
	bench_stop(n);
	return 0;
}
