// SPDX-License-Identifier: GPL-2.0
/*
 * papiwork: exact counts through PAPI's low-level API, for rig/papi.sh.
 * Linked with Debian's libpapi (libpapi-dev) on the host; it runs in the
 * guest chrooted into the host's root, where the library is.
 *
 * It counts PAPI events, user domain only, in one event set, around an
 * asm loop of N iterations of 4 instructions (add, add, sub, jnz), one
 * of which is the loop's conditional branch (taken N - 1 times, not
 * taken once), for several N, each several times, every time between
 * PAPI_start() and PAPI_stop(). What PAPI and libc execute in user mode
 * between the ioctl that enables the group and the one that disables
 * it, and the code around the loop, is the same every time: a constant
 * C per event.
 * So a count is exactly N * k + C, where k is what the event counts per
 * iteration (given on the command line, EVENT:k), and the test is that
 * every run of every N leaves the same C: the count grows by exactly
 * (N2 - N1) * k from one N to another, and repeats exactly.
 *
 * Usage: papiwork EVENT:k ...   (e.g. PAPI_TOT_INS:4 PAPI_BR_INS:1)
 * Prints "papiwork: ..." lines, then "papiwork: PASS" or "papiwork:
 * FAIL ..." and exits 0 or 1 (2 when PAPI cannot count at all).
 */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS	4
#define REPEATS		3

static const unsigned long sizes[] = { 1000, 2000, 101000 };
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NSIZES		ARRAY_SIZE(sizes)

static void loop(unsigned long n)
{
	unsigned long a = 0;

	asm volatile("1:\n\t"
		     "add $1, %[a]\n\t"
		     "add $2, %[a]\n\t"
		     "sub $1, %[n]\n\t"
		     "jnz 1b\n\t"
		     : [n] "+r" (n), [a] "+r" (a) : : "cc");
}

static int fail(const char *what, int ret)
{
	printf("papiwork: FAIL %s: %s (%d)\n", what, PAPI_strerror(ret), ret);
	return 2;
}

int main(int argc, char **argv)
{
	long long v[MAX_EVENTS], c[MAX_EVENTS][NSIZES][REPEATS];
	long long k[MAX_EVENTS];
	char *name[MAX_EVENTS];
	int es = PAPI_NULL, ret, nev, i, r, bad = 0;
	unsigned int j;
	PAPI_option_t opt;

	nev = argc - 1;
	if (nev < 1 || nev > MAX_EVENTS) {
		fprintf(stderr, "usage: papiwork EVENT:k ... (at most %d)\n",
			MAX_EVENTS);
		return 2;
	}
	ret = PAPI_library_init(PAPI_VER_CURRENT);
	if (ret != PAPI_VER_CURRENT)
		return fail("PAPI_library_init", ret);
	ret = PAPI_create_eventset(&es);
	if (ret != PAPI_OK)
		return fail("PAPI_create_eventset", ret);
	/* the perf_event component (0) */
	ret = PAPI_assign_eventset_component(es, 0);
	if (ret != PAPI_OK)
		return fail("PAPI_assign_eventset_component", ret);

	for (i = 0; i < nev; i++) {
		PAPI_event_info_t info;
		char *colon;
		int code;
		unsigned int t;

		name[i] = argv[i + 1];
		colon = strrchr(name[i], ':');
		if (!colon) {
			fprintf(stderr, "papiwork: %s: no :k\n", name[i]);
			return 2;
		}
		*colon = '\0';
		k[i] = atoll(colon + 1);
		ret = PAPI_event_name_to_code(name[i], &code);
		if (ret != PAPI_OK)
			return fail(name[i], ret);
		ret = PAPI_add_event(es, code);
		if (ret != PAPI_OK)
			return fail(name[i], ret);
		/* what PAPI made of it: the native events it counts */
		if (PAPI_get_event_info(code, &info) == PAPI_OK) {
			printf("papiwork: %s = %s", name[i],
			       info.derived[0] ? info.derived : "");
			for (t = 0; t < info.count && t < PAPI_MAX_INFO_TERMS; t++)
				printf(" %s", info.name[t]);
			printf("\n");
		}
	}

	/* user domain only (PAPI's default, made sure of), set once it has events */
	memset(&opt, 0, sizeof(opt));
	opt.domain.eventset = es;
	opt.domain.domain = PAPI_DOM_USER;
	ret = PAPI_set_opt(PAPI_DOMAIN, &opt);
	if (ret != PAPI_OK)
		return fail("PAPI_set_opt(PAPI_DOMAIN)", ret);

	/* fault the loop's and PAPI's pages in before the first count */
	loop(sizes[0]);
	ret = PAPI_start(es);
	if (ret != PAPI_OK)
		return fail("PAPI_start", ret);
	loop(sizes[0]);
	ret = PAPI_stop(es, v);
	if (ret != PAPI_OK)
		return fail("PAPI_stop", ret);

	for (j = 0; j < NSIZES; j++) {
		for (r = 0; r < REPEATS; r++) {
			ret = PAPI_start(es);
			if (ret != PAPI_OK)
				return fail("PAPI_start", ret);
			loop(sizes[j]);
			ret = PAPI_stop(es, v);
			if (ret != PAPI_OK)
				return fail("PAPI_stop", ret);
			printf("papiwork: N=%lu", sizes[j]);
			for (i = 0; i < nev; i++) {
				c[i][j][r] = v[i] - (long long)sizes[j] * k[i];
				printf(" %s=%lld", name[i], v[i]);
			}
			printf("\n");
		}
	}

	/* every count of an event leaves the same constant */
	for (i = 0; i < nev; i++) {
		long long c0 = c[i][0][0];
		int same = 1;

		for (j = 0; j < NSIZES; j++)
			for (r = 0; r < REPEATS; r++)
				if (c[i][j][r] != c0) {
					printf("papiwork: FAIL %s: N=%lu: N * k %+lld, not %+lld\n",
					       name[i], sizes[j], c[i][j][r], c0);
					same = 0;
				}
		printf("papiwork: %s = N * %lld %+lld%s\n", name[i], k[i], c0,
		       same ? " at every N" : " at the first N only");
		/* a negative constant: fewer than k per iteration counted */
		if (c0 < 0) {
			printf("papiwork: FAIL %s: constant %lld < 0\n",
			       name[i], c0);
			same = 0;
		}
		if (!same)
			bad = 1;
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	printf("papiwork: %s\n", bad ? "FAIL" : "PASS");
	return bad;
}
