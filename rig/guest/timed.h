/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the rig's perf-tool workloads (ibswork, memwork): run @step over
 * and over for the seconds of wall time the program's first argument
 * gives (1 without one), so that perf has a known hot loop to profile.
 */
#ifndef RIG_GUEST_TIMED_H
#define RIG_GUEST_TIMED_H

#include <stdlib.h>
#include <time.h>

static inline void run_for(int argc, char **argv, void (*step)(void))
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		step();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
}

#endif
