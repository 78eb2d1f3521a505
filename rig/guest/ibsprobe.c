// SPDX-License-Identifier: GPL-2.0
/*
 * ibsprobe: does the kernel's AMD IBS driver work on the rig's QEMU model
 * (rig/qemu patch 0017, X86_PMU=zen3 or zen4)?  Opens the ibs_op PMU
 * (its type from sysfs) on this task with a period of 4096 ops, runs a
 * loop of loads, stores and branches over a known array, and reads the
 * samples back from the ring buffer: each one's IP, data address and raw
 * IBS registers.  Passes (exit 0) when samples came, every IP is
 * canonical, and some of them are loads or stores in the array, at the
 * data address the raw IBS_DC_LINADDR gives.  With "fetch" on the command
 * line it opens ibs_fetch instead and checks only that samples come.
 *
 * Not in any list: built and run by hand (a static binary, e.g. put into
 * an initramfs's /tests with a line "ibs 120 /tests/ibsprobe" in its
 * id-zen3.list), as the driver is upstream's (make check REF=1) until
 * ours has one.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGES 64
#define N 4096

static unsigned long arr[N];

static int pmu_type(const char *name)
{
	char path[128];
	FILE *f;
	int t = -1;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &t) != 1)
		t = -1;
	fclose(f);
	return t;
}

/* loads, and a store every other one, that the compiler keeps */
static void work(int rounds)
{
	unsigned long s = 0;
	int r, i;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < N; i++) {
			asm volatile("" ::: "memory");
			s += arr[i] + 1;
			if (s & 1)
				arr[i] = s;
		}
}

int main(int argc, char **argv)
{
	int fetch = argc > 1 && !strcmp(argv[1], "fetch");
	const char *name = fetch ? "ibs_fetch" : "ibs_op";
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pg;
	long psz = sysconf(_SC_PAGESIZE);
	unsigned long long head, tail, nsamples = 0, ldst = 0, in_arr = 0, bad_ip = 0;
	unsigned long long addr_ok = 0;
	char *data;
	int fd, type = pmu_type(name);

	if (type < 0) {
		printf("not ok - no %s PMU in sysfs\n", name);
		return 1;
	}
	printf("# %s: type %d\n", name, type);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.sample_period = 4096;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_RAW;
	attr.disabled = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		perror("not ok - perf_event_open");
		return 1;
	}
	pg = mmap(NULL, (PAGES + 1) * psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		perror("not ok - mmap");
		return 1;
	}
	data = (char *)pg + psz;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work(20);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (tail < head) {
		struct perf_event_header *h = (void *)(data + tail % (PAGES * psz));
		char rec[4096];
		unsigned long long off = tail % (PAGES * psz), n = h->size;

		/* a record may wrap around the end of the buffer */
		if (n > sizeof(rec))
			break;
		if (off + n <= (unsigned long long)PAGES * psz) {
			memcpy(rec, h, n);
		} else {
			memcpy(rec, h, PAGES * psz - off);
			memcpy(rec + PAGES * psz - off, data, n - (PAGES * psz - off));
		}
		h = (void *)rec;
		if (h->type == PERF_RECORD_SAMPLE) {
			unsigned long long *p = (unsigned long long *)(h + 1);
			unsigned long long ip = p[0], addr = p[2];
			unsigned int rsize = *(unsigned int *)&p[3];
			/* raw: u32 size, u32 caps, then the IBS MSRs */
			unsigned long long *regs = (unsigned long long *)((char *)&p[3] + 8);
			int nregs = (rsize - 4) / 8;

			nsamples++;
			if ((int64_t)ip >> 47 != 0 && (int64_t)ip >> 47 != -1)
				bad_ip++;
			if (!fetch && nregs >= 6) {
				/* ctl, rip, data, data2, data3, dc_lin, ... */
				unsigned long long d3 = regs[4];

				if (d3 & 3) {
					ldst++;
					if (regs[5] >= (unsigned long)arr &&
					    regs[5] < (unsigned long)(arr + N)) {
						in_arr++;
						addr_ok += addr == regs[5];
					}
				}
			}
			if (nsamples <= 5) {
				int i;

				printf("# sample %llu: ip %#llx addr %#llx raw %u bytes:",
				       nsamples, ip, addr, rsize);
				for (i = 0; i < nregs && i < 8; i++)
					printf(" %#llx", regs[i]);
				printf("\n");
			}
		}
		tail += h->size;
	}
	printf("# %llu samples, %llu bad IPs\n", nsamples, bad_ip);
	printf("# %llu loads/stores, %llu in the array, %llu with ADDR == IBS_DC_LINADDR\n",
	       ldst, in_arr, addr_ok);
	if (!nsamples || bad_ip || (!fetch && !in_arr)) {
		printf("not ok - %s samples\n", name);
		return 1;
	}
	printf("ok - %s samples\n", name);
	return 0;
}
