// SPDX-License-Identifier: GPL-2.0
/*
 * hotspots: the known workload rig/perf-tool.sh profiles with Debian's
 * perf tool. Two leaf functions do the same loop; per round,
 * hotspot_major runs three times as many iterations as hotspot_minor, so
 * a profile must put hotspot_major first (about 75%) and hotspot_minor
 * second (about 25%), each called from main.
 *
 * Built static at -O0 with -fno-omit-frame-pointer: Debian's gcc 12 at
 * -O1 and above leaves the frame pointer out of these leaf functions even
 * when told not to, and then a frame-pointer callchain taken inside one
 * skips its caller, main. -O0 also keeps both functions out of line and
 * apart (no inlining, no identical-code folding).
 *
 * Usage: hotspots SECONDS
 */
#include <stdlib.h>
#include <time.h>

static unsigned long sink;

void hotspot_major(unsigned long n)
{
	unsigned long i, x = sink;

	for (i = 0; i < n; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	sink = x;
}

void hotspot_minor(unsigned long n)
{
	unsigned long i, x = sink;

	for (i = 0; i < n; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	sink = x;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 5;
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		hotspot_major(300000);
		hotspot_minor(100000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return 0;
}
