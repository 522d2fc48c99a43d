// SPDX-License-Identifier: GPL-2.0
/*
 * cfi-precision's statistics and report, the same for both schemes and
 * both architectures, so that the figures compare: every decoder hands
 * over its call sites with the targets each allows and adds its own
 * scheme's lines after the common ones.  -x lives here too: the entries
 * it removes are subtracted from the jump tables of either architecture.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "precision.h"

bool verbose, all_sites;

/* -x: jump-table entries counted as removed, sorted. */
static u64 *removed;
static size_t nremoved;

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void print_stats(const char *key, long *v, size_t n)
{
	double sum = 0, median = 0;
	size_t i;

	if (!n) {
		printf("%s: mean 0 median 0 max 0\n", key);
		return;
	}
	qsort(v, n, sizeof(*v), cmp_long);
	for (i = 0; i < n; i++)
		sum += v[i];
	median = n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
	printf("%s: mean %.2f median %.1f max %ld\n", key, sum / n, median,
	       v[n - 1]);
}

void read_removed(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long a;
	size_t cap = 0;
	char line[512];

	if (!f) {
		perror(path);
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx", &a) != 1)
			continue;
		PUSH(removed, nremoved, cap, a);
	}
	fclose(f);
	qsort(removed, nremoved, sizeof(u64), cmp_u64);
}

/* Entries of the table at @start, @size bytes each, that -x did not remove. */
long live_entries_sized(u64 start, long entries, int size)
{
	size_t lo = 0, hi = nremoved;
	long n = entries;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (removed[mid] < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nremoved && removed[lo] < start + size * (u64)entries; lo++)
		n--;
	return n;
}

bool any_removed(void)
{
	return nremoved;
}

struct proto {
	u64 type;
	long targets;
	long sites;
	u64 first_site;
};

static int cmp_proto_targets(const void *a, const void *b)
{
	const struct proto *x = a, *y = b;

	if (x->targets != y->targets)
		return x->targets < y->targets ? 1 : -1;
	return (x->type > y->type) - (x->type < y->type);
}

static int cmp_site_addr(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int cmp_site_type(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int cmp_site_targets(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->targets != y->targets)
		return x->targets < y->targets ? 1 : -1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/*
 * Print the common report.  Unresolved sites are counted but left out of
 * the figures.  @sites is reordered.
 */
void report(const struct image *img, const char *scheme,
	    struct site *sites, size_t n, int type_digits)
{
	struct proto *protos = NULL;
	size_t np = 0, cap = 0, nres = 0, i, none = 0;
	long *v;

	qsort(sites, n, sizeof(*sites), cmp_site_type);
	for (i = 0; i < n; i++) {
		struct proto p;

		if (!sites[i].resolved)
			continue;
		nres++;
		if (!sites[i].targets)
			none++;
		if (np && protos[np - 1].type == sites[i].type) {
			protos[np - 1].sites++;
			continue;
		}
		p.type = sites[i].type;
		p.targets = sites[i].targets;
		p.sites = 1;
		p.first_site = sites[i].addr;
		PUSH(protos, np, cap, p);
	}
	printf("scheme: %s\n", scheme);
	printf("checked-call-sites: %zu\n", nres);
	printf("call-sites-unresolved: %zu\n", n - nres);
	printf("prototypes: %zu\n", np);

	v = xrealloc(NULL, (nres > np ? nres : np) * sizeof(*v));
	for (i = 0; i < np; i++)
		v[i] = protos[i].targets;
	print_stats("targets-per-prototype", v, np);
	for (i = nres = 0; i < n; i++)
		if (sites[i].resolved)
			v[nres++] = sites[i].targets;
	print_stats("targets-per-call-site", v, nres);
	printf("call-sites-with-no-target: %zu\n", none);
	free(v);

	if (all_sites) {
		qsort(sites, n, sizeof(*sites), cmp_site_addr);
		for (i = 0; i < n; i++)
			if (sites[i].resolved)
				printf("site: %s type 0x%0*" PRIx64 " targets %ld\n",
				       describe(img, sites[i].addr), type_digits,
				       sites[i].type, sites[i].targets);
	}
	if (!verbose)
		goto out;
	qsort(protos, np, sizeof(*protos), cmp_proto_targets);
	for (i = 0; i < np && i < 10; i++)
		printf("top-prototype: type 0x%0*" PRIx64 " targets %ld sites %ld e.g. %s\n",
		       type_digits, protos[i].type, protos[i].targets,
		       protos[i].sites, describe(img, protos[i].first_site));
	qsort(sites, n, sizeof(*sites), cmp_site_targets);
	for (i = 0; i < n && i < 10; i++)
		printf("top-call-site: %s type 0x%0*" PRIx64 " targets %ld\n",
		       describe(img, sites[i].addr), type_digits,
		       sites[i].type, sites[i].targets);
out:
	free(protos);
}
