/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the AUX test PMU (module/perf_aux_pmu.c) writes, for its suites
 * (aux_area.c, aux_controls.c): byte h of the AUX stream, at the running
 * head h, is pattern(h, seed), and an AUX area starts zeroed.
 */
#ifndef _PERF_EVENTS_AUX_COMMON_H
#define _PERF_EVENTS_AUX_COMMON_H

#include <linux/types.h>
#include <stddef.h>

static inline __u8 pattern(__u64 h, __u8 seed)
{
	return (__u8)(h ^ (h >> 8) ^ seed);
}

/*
 * The first head in [@from, @to) whose byte in the @len-byte area @aux
 * is not the pattern (@expect_pattern) or not zero, or -1.
 */
static inline long long aux_first_mismatch(const unsigned char *aux,
					   size_t len, __u64 from, __u64 to,
					   int expect_pattern, __u8 seed)
{
	__u64 h;

	for (h = from; h < to; h++) {
		__u8 want = expect_pattern ? pattern(h, seed) : 0;

		if (aux[h & (len - 1)] != want)
			return h;
	}
	return -1;
}

#endif /* _PERF_EVENTS_AUX_COMMON_H */
