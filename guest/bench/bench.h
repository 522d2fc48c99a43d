/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h: shared by the guest macro benchmarks.  Built against the kernel
 * tree's nolibc (scripts/build-guest-programs.sh), which has no
 * clock_gettime() or socketpair() wrappers, hence the raw syscalls here.
 *
 * Every program takes "-n ITERATIONS" and "-q" (1/100 of the default, for
 * a smoke test), times only its measured loop with CLOCK_MONOTONIC and
 * prints exactly one line:
 *   jtcfi-bench: macro NAME ops=N ns=T ops_per_sec=R
 * A failing syscall prints its name to stderr and exits 1 with no result
 * line, so the harness never records a number from a broken run.
 */
#ifndef JTCFI_BENCH_H
#define JTCFI_BENCH_H

#include <linux/time_types.h>

#ifndef CLOCK_MONOTONIC
#define CLOCK_MONOTONIC 1
#endif
/* From <sys/socket.h>, which the kernel's uapi headers do not provide. */
#define BENCH_AF_UNIX		1
#define BENCH_SOCK_STREAM	1

static const char *bench_name = "jtcfi-bench";
static long long bench_t0;

static __attribute__((unused, noreturn))
void bench_fail(const char *what)
{
	fprintf(stderr, "jtcfi-bench: %s: %s failed: errno=%d\n",
		bench_name, what, errno);
	exit(1);
}

/* Dies unless ret is a syscall's success (nolibc wrappers: -1 + errno). */
static __attribute__((unused))
long bench_check(long ret, const char *what)
{
	if (ret < 0)
		bench_fail(what);
	return ret;
}

/* Raw syscalls return -errno; turn that into the wrappers' convention. */
static __attribute__((unused))
long bench_raw(long ret)
{
	if (ret < 0 && ret > -4096) {
		errno = -ret;
		return -1;
	}
	return ret;
}

static __attribute__((unused))
long long bench_now(void)
{
	struct __kernel_timespec ts;

	bench_check(bench_raw(my_syscall2(__NR_clock_gettime, CLOCK_MONOTONIC, &ts)),
		    "clock_gettime");
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static __attribute__((unused))
int bench_socketpair(int sv[2])
{
	return bench_raw(my_syscall4(__NR_socketpair, BENCH_AF_UNIX,
				     BENCH_SOCK_STREAM, 0, sv));
}

/* Writes or reads exactly len bytes; a short count (EOF, a peer that
 * died) is a failure too. */
static __attribute__((unused))
void bench_write(int fd, const void *buf, long len, const char *what)
{
	const char *p = buf;
	long r;

	while (len > 0) {
		r = bench_check(write(fd, p, len), what);
		p += r;
		len -= r;
	}
}

static __attribute__((unused))
void bench_read(int fd, void *buf, long len, const char *what)
{
	char *p = buf;
	long r;

	while (len > 0) {
		r = bench_check(read(fd, p, len), what);
		if (r == 0) {
			errno = 0;
			fprintf(stderr, "jtcfi-bench: %s: %s: unexpected end of file\n",
				bench_name, what);
			exit(1);
		}
		p += r;
		len -= r;
	}
}

/* Reaps pid; a child that failed fails the whole run. */
static __attribute__((unused))
void bench_reap(int pid)
{
	int status;

	bench_check(waitpid(pid, &status, 0), "waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "jtcfi-bench: %s: child %d failed (wait status 0x%x)\n",
			bench_name, pid, status);
		exit(1);
	}
}

/*
 * Reaps the n children in pids[] in whatever order they exit.  The first
 * failure kills the rest, so no orphan keeps running after the result.
 */
static __attribute__((unused))
void bench_reap_all(int *pids, int n)
{
	int i, j, pid, status;

	for (i = 0; i < n; i++) {
		pid = bench_check(waitpid(-1, &status, 0), "waitpid");
		for (j = 0; j < n; j++)
			if (pids[j] == pid)
				pids[j] = 0;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "jtcfi-bench: %s: child %d failed (wait status 0x%x)\n",
				bench_name, pid, status);
			for (j = 0; j < n; j++)
				if (pids[j] > 0)
					kill(pids[j], SIGKILL);
			exit(1);
		}
	}
}

static __attribute__((unused, noreturn))
void bench_usage(int dir_opt)
{
	fprintf(stderr, "usage: %s [-n ITERATIONS] [-q]%s\n", bench_name,
		dir_opt ? " [-d DIR]" : "");
	exit(1);
}

/*
 * Parses the command line; returns the iteration count.  *dir is only
 * settable (-d DIR) by programs that pass a non-NULL dir.
 */
static __attribute__((unused))
long bench_args(int argc, char **argv, const char *name,
		long dflt, const char **dir)
{
	long n = dflt;
	char *end;
	int i;

	bench_name = name;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-q")) {
			n = dflt / 100 ? dflt / 100 : 1;
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			n = strtol(argv[++i], &end, 10);
			if (*end || n <= 0)
				bench_usage(dir != NULL);
		} else if (dir && !strcmp(argv[i], "-d") && i + 1 < argc) {
			*dir = argv[++i];
		} else {
			bench_usage(dir != NULL);
		}
	}
	return n;
}

static __attribute__((unused))
void bench_start(void)
{
	bench_t0 = bench_now();
}

static __attribute__((unused))
void bench_stop(unsigned long long ops)
{
	long long ns = bench_now() - bench_t0;
	unsigned long long rate10;

	if (ns <= 0)
		ns = 1;
	/* Tenths of an op per second; double because ops * 1e10 can
	 * overflow 64 bits, and nolibc has no 128-bit division helpers. */
	rate10 = (unsigned long long)((double)ops * 1e10 / (double)ns + 0.5);
	printf("jtcfi-bench: macro %s ops=%llu ns=%lld ops_per_sec=%llu.%llu\n",
	       bench_name, ops, ns, rate10 / 10, rate10 % 10);
}

#endif
