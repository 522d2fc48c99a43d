// SPDX-License-Identifier: GPL-2.0
/*
 * insn_profile.c: a QEMU TCG plugin (API version 1, QEMU 7.2) that counts
 * the kernel instructions a guest executes, per translation block.
 *
 *   -plugin insn_profile.so,out=PATH[,mark=0xADDR]
 *
 * At translation, every block whose first instruction is a kernel address
 * (at or above 0xffff000000000000: arm64's and x86_64's kernel halves)
 * gets a counter, keyed by (first pc, number of instructions) since a pc
 * can be translated again into a block of another length, and an inline
 * add of 1 to it on each execution: no callback runs per execution.
 * Blocks below that address (user space) all add their length to one
 * counter.  The counters are plain adds: exact with one vCPU thread (the
 * profile boots run -smp 1 -icount, which keeps TCG single-threaded),
 * slightly racy under MTTCG.
 *
 * The window.  Without mark=, the profile is the whole run.  With
 * mark=ADDR, every execution of the block starting at ADDR closes a
 * window: the counters are written out and zeroed.  The benchmarks time
 * their measured loop with two raw clock_gettime() system calls
 * (guest/bench/bench.h) and nothing else in the test guest makes that
 * call, so with ADDR = __arm64_sys_clock_gettime the odd windows are
 * exactly the benchmarks' measured loops, in the order they ran, and a
 * single boot profiles every benchmark.  One execution callback on one
 * block costs nothing measurable.
 *
 * PATH receives, per window, a line "# window N" then one line per block
 * that ran in it, "PC NINSNS COUNT" (PC in hex), and "user 1 COUNT", the
 * user-space instructions.  The last window ends when QEMU exits.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define KERNEL_START	0xffff000000000000ULL
#define NBUCKETS	(1 << 16)

struct block {
	uint64_t pc;
	uint64_t ninsns;
	uint64_t count;		/* the inline add's target: never moves */
	struct block *next;
};

static struct block *buckets[NBUCKETS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t user_insns;
static uint64_t mark;
static int have_mark;
static FILE *out;
static unsigned int window;

static unsigned int hash(uint64_t pc, uint64_t ninsns)
{
	uint64_t h = (pc >> 2) ^ (ninsns << 48);

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return (h >> 32) & (NBUCKETS - 1);
}

/* The block for (pc, ninsns), made on first sight.  Called with lock held. */
static struct block *block_get(uint64_t pc, uint64_t ninsns)
{
	unsigned int h = hash(pc, ninsns);
	struct block *b;

	for (b = buckets[h]; b; b = b->next)
		if (b->pc == pc && b->ninsns == ninsns)
			return b;
	b = calloc(1, sizeof(*b));
	if (!b) {
		fprintf(stderr, "insn_profile: out of memory\n");
		abort();
	}
	b->pc = pc;
	b->ninsns = ninsns;
	b->next = buckets[h];
	buckets[h] = b;
	return b;
}

/* Writes the blocks that ran since the last window and zeroes them. */
static void window_close(void)
{
	struct block *b;
	unsigned int h;

	pthread_mutex_lock(&lock);
	fprintf(out, "# window %u\n", window++);
	for (h = 0; h < NBUCKETS; h++) {
		for (b = buckets[h]; b; b = b->next) {
			if (!b->count)
				continue;
			fprintf(out, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
				b->pc, b->ninsns, b->count);
			b->count = 0;
		}
	}
	fprintf(out, "user 1 %" PRIu64 "\n", user_insns);
	user_insns = 0;
	fflush(out);
	pthread_mutex_unlock(&lock);
}

static void mark_exec(unsigned int vcpu_index, void *udata)
{
	window_close();
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t pc = qemu_plugin_tb_vaddr(tb);
	uint64_t n = qemu_plugin_tb_n_insns(tb);
	struct block *b;

	if (pc < KERNEL_START) {
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 &user_insns, n);
		return;
	}
	pthread_mutex_lock(&lock);
	b = block_get(pc, n);
	pthread_mutex_unlock(&lock);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->count, 1);
	if (have_mark && pc == mark)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, mark_exec,
						     QEMU_PLUGIN_CB_NO_REGS, NULL);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	window_close();
	fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;
	char *end;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			path = argv[i] + 4;
		} else if (!strncmp(argv[i], "mark=", 5)) {
			mark = strtoull(argv[i] + 5, &end, 16);
			if (*end || end == argv[i] + 5) {
				fprintf(stderr, "insn_profile: bad mark '%s'\n", argv[i]);
				return -1;
			}
			have_mark = 1;
		} else {
			fprintf(stderr, "insn_profile: unknown argument '%s' (out=PATH, mark=0xADDR)\n",
				argv[i]);
			return -1;
		}
	}
	if (!path) {
		fprintf(stderr, "insn_profile: no out=PATH\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
