// SPDX-License-Identifier: GPL-2.0
/*
 * perf-sample: sample this process by the CPU clock for a moment, and
 * count the samples in the ring buffer.  The kernel takes each sample in
 * its timer interrupt and asks perf_misc_flags() where it was, which asks
 * perf_guest_state() first: a static call, so an indirect call wherever
 * static calls are generic (arm64), to its default when no hypervisor has
 * registered perf callbacks.
 *
 * Prints "jtcfi-perf-sample: N samples", or "jtcfi-perf-sample: error: ..."
 * and exits 1.
 */
#include <linux/perf_event.h>

#define PROG "jtcfi-perf-sample"
#define die(...) do {						\
	fprintf(stderr, PROG ": error: " __VA_ARGS__);		\
	exit(1);						\
} while (0)

#define DATA_PAGES	8	/* a power of two, as perf requires */
#define WANT		50	/* samples: a few ms of 10 kHz sampling */
#define GIVE_UP_S	10

static long now_s(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec;
}

int main(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000,	/* ns */
		.sample_type = PERF_SAMPLE_IP,
		.wakeup_events = 1,
	};
	struct perf_event_mmap_page *meta;
	long page = 4096, size, fd, start, samples = 0;
	unsigned long long head, pos;
	volatile unsigned long spin = 0;
	char *data;

	fd = my_syscall5(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		die("perf_event_open of the CPU clock: errno %ld\n", -fd);
	/* The kernel's page size: arm64 kernels may use 16K or 64K. */
	while ((meta = mmap(NULL, (DATA_PAGES + 1) * page, PROT_READ | PROT_WRITE,
			    MAP_SHARED, fd, 0)) == MAP_FAILED && page < 65536)
		page *= 4;
	if (meta == MAP_FAILED)
		die("mmap of the ring buffer: errno %d\n", errno);
	data = (char *)meta + meta->data_offset;
	size = meta->data_size;

	/* Spin, so that the clock fires while this task runs. */
	start = now_s();
	do {
		for (int i = 0; i < 100000; i++)
			spin++;
		head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	} while (head < WANT * 24 && now_s() - start < GIVE_UP_S);
	if (head > (unsigned long long)size)
		head = size;	/* stopped in time, well before a wrap */

	for (pos = 0; pos + sizeof(struct perf_event_header) <= head;) {
		struct perf_event_header *h = (void *)(data + pos);

		if (!h->size)
			break;
		samples += h->type == PERF_RECORD_SAMPLE;
		pos += h->size;
	}
	if (!samples)
		die("no sample in %d s\n", GIVE_UP_S);
	printf(PROG ": %ld samples\n", samples);
	return 0;
}
