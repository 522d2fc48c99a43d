// SPDX-License-Identifier: GPL-2.0
/* getppid: the cheapest round trip into the kernel and back. */
#include "bench.h"

int main(int argc, char **argv)
{
	long n = bench_args(argc, argv, "getppid", 200000, NULL);
	long i;

	bench_start();
	for (i = 0; i < n; i++)
		bench_check(getppid(), "getppid");
	bench_stop(n);
	return 0;
}
