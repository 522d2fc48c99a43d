// SPDX-License-Identifier: GPL-2.0
/*
 * socketpair-fanout: hackbench's socket mode, scaled down for a slow
 * guest.  GROUPS groups of SENDERS sender and SENDERS receiver processes;
 * each receiver owns one AF_UNIX stream socketpair, and each sender
 * writes -n ITERATIONS rounds of one 100-byte message to every receiver
 * of its group.  One op is one message delivered.
 *
 * As in hackbench, every child reports ready over a pipe and then blocks
 * until the parent closes a second pipe, so the timed part is the
 * message traffic and process exit, not the forks.
 */
#include "bench.h"

#define GROUPS		2
#define SENDERS		4	/* and as many receivers, per group */
#define MSG_SIZE	100

static int ready[2], wakeup[2];

/*
 * Each child closes the socket ends it does not use, so that a dead peer
 * shows up as EOF or EPIPE instead of a hang.  sv[0..n) are this group's
 * socketpairs so far.
 */
static void child_close(int (*sv)[2], int n, int end)
{
	int i;

	for (i = 0; i < n; i++)
		close(sv[i][end]);
}

/*
 * Tells the parent we are set up, then waits for the start signal: EOF on
 * the wakeup pipe once the parent closes the last write end.
 */
static void child_sync(void)
{
	char c = 'r';

	close(ready[0]);
	close(wakeup[1]);
	bench_write(ready[1], &c, 1, "write (ready)");
	if (bench_check(read(wakeup[0], &c, 1), "read (wakeup)") != 0) {
		fprintf(stderr, "jtcfi-bench: socketpair-fanout: stray wakeup byte\n");
		exit(1);
	}
}

static void sender(const int *out, long rounds)
{
	char msg[MSG_SIZE];
	long i;
	int r;

	memset(msg, 's', sizeof(msg));
	child_sync();
	for (i = 0; i < rounds; i++)
		for (r = 0; r < SENDERS; r++)
			bench_write(out[r], msg, MSG_SIZE, "write");
	exit(0);
}

static void receiver(int in, long rounds)
{
	/* Stream sockets: count bytes, not read() calls. */
	long left = rounds * SENDERS * MSG_SIZE;
	char buf[MSG_SIZE];

	child_sync();
	while (left > 0) {
		bench_read(in, buf, MSG_SIZE, "read");
		left -= MSG_SIZE;
	}
	exit(0);
}

int main(int argc, char **argv)
{
	long m = bench_args(argc, argv, "socketpair-fanout", 1000, NULL);
	int pids[GROUPS * 2 * SENDERS], npids = 0;
	int sv[SENDERS][2], out[SENDERS];
	int g, s, i, pid;
	char c;

	bench_check(pipe(ready), "pipe");
	bench_check(pipe(wakeup), "pipe");
	for (g = 0; g < GROUPS; g++) {
		for (s = 0; s < SENDERS; s++) {
			bench_check(bench_socketpair(sv[s]), "socketpair");
			out[s] = sv[s][1];
			pid = bench_check(fork(), "fork");
			if (pid == 0) {
				/* Keeps only sv[s][0], its own socket's read end. */
				child_close(sv, s + 1, 1);
				child_close(sv, s, 0);
				receiver(sv[s][0], m);
			}
			pids[npids++] = pid;
		}
		for (s = 0; s < SENDERS; s++) {
			pid = bench_check(fork(), "fork");
			if (pid == 0) {
				child_close(sv, SENDERS, 0);
				sender(out, m);
			}
			pids[npids++] = pid;
		}
		/* The children have their copies; ours would only pile up. */
		for (s = 0; s < SENDERS; s++) {
			close(sv[s][0]);
			close(sv[s][1]);
		}
	}

	for (i = 0; i < npids; i++)
		bench_read(ready[0], &c, 1, "read (ready)");
	bench_start();
	bench_check(close(wakeup[1]), "close (wakeup)");
	bench_reap_all(pids, npids);
	bench_stop((unsigned long long)GROUPS * SENDERS * SENDERS * m);
	return 0;
}
