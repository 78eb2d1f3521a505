// SPDX-License-Identifier: GPL-2.0
/*
 * pmu-smoke: /init of a tiny initramfs that checks a kernel's x86 PMU
 * driver on the emulated PMU (rig/qemu/linux-smoke.sh boots it under
 * -icount shift=0, and without icount with "kperf_noicount" on the
 * kernel command line: cycles then follow the virtual clock, and are
 * only checked to count). Prints TAP on the console, then powers off.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <unistd.h>

static int ntests, nfailed;
static int icount = 1;

static void report(int pass, const char *what)
{
	ntests++;
	nfailed += !pass;
	printf("%s %d - %s\n", pass ? "ok" : "not ok", ntests, what);
}

static int open_event(__u64 config, __u64 period, int xk, int xu)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = config;
	a.disabled = 1;
	a.exclude_kernel = xk;
	a.exclude_user = xu;
	a.exclude_hv = 1;
	if (period) {
		a.sample_period = period;
		a.sample_type = PERF_SAMPLE_IP;
		a.wakeup_events = 1;
	}
	return syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
}

static void spin(long n)
{
	__asm__ volatile("1: loop 1b" : "+c"(n));
}

static __u64 count(int fd, long n)
{
	__u64 v = 0;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

static __u64 pmis(void)
{
	char l[256];
	__u64 n = 0, v;
	FILE *f = fopen("/proc/interrupts", "r");
	char *p;

	while (f && fgets(l, sizeof(l), f)) {
		p = strstr(l, "PMI:");
		if (!p)
			continue;
		for (p += 4; *p; ) {
			if (sscanf(p, " %llu", (unsigned long long *)&v) != 1)
				break;
			n += v;
			while (*p == ' ')
				p++;
			while (*p >= '0' && *p <= '9')
				p++;
		}
	}
	if (f)
		fclose(f);
	return n;
}

static void test_counting(void)
{
	__u64 a, b, k1, k2, c;
	int fd, ok, i;

	fd = open_event(PERF_COUNT_HW_INSTRUCTIONS, 0, 1, 0);
	report(fd >= 0, "instructions:u opens");
	if (fd < 0)
		return;
	ok = 1;
	a = count(fd, 1000000);
	for (i = 0; i < 4; i++) {
		b = count(fd, 2000000);
		ok &= b - count(fd, 1000000) == 1000000 && count(fd, 1000000) == a;
	}
	printf("# instructions:u of a LOOP of 1e6: %llu\n", (unsigned long long)a);
	report(ok, "instructions:u: a LOOP of 2e6 counts exactly 1e6 more than 1e6, every time");
	report(a >= 1000000 && a < 1001000, "instructions:u: a LOOP of 1e6 counts 1e6 and a few");
	close(fd);

	fd = open_event(PERF_COUNT_HW_INSTRUCTIONS, 0, 0, 1);
	k1 = count(fd, 1000000);
	k2 = count(fd, 3000000);
	printf("# instructions:k around LOOPs of 1e6 and 3e6: %llu, %llu\n",
	       (unsigned long long)k1, (unsigned long long)k2);
	report(fd >= 0 && k1 > 0 && k1 < 100000 && k2 < 100000,
	       "instructions:k: the kernel's share only, whatever the user LOOP");
	close(fd);

	fd = open_event(PERF_COUNT_HW_CPU_CYCLES, 0, 1, 0);
	c = fd >= 0 ? count(fd, 1000000) : 0;
	if (icount) {
		report(c == a, "cycles:u: one per instruction under icount");
	} else {
		printf("# cycles:u of a LOOP of 1e6: %llu\n", (unsigned long long)c);
		report(c > 0, "cycles:u: counts (the virtual clock without icount)");
	}
	close(fd);
}

static void test_sampling(void)
{
	__u64 head, off = 0, samples = 0, before = pmis();
	struct perf_event_mmap_page *pg;
	struct perf_event_header *h;
	int fd;
	char *data;

	fd = open_event(PERF_COUNT_HW_INSTRUCTIONS, 100000, 1, 0);
	report(fd >= 0, "instructions:u, period 1e5, opens");
	if (fd < 0)
		return;
	pg = mmap(0, 65 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		report(0, "mmap");
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(10000000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	head = pg->data_head;
	__sync_synchronize();
	data = (char *)pg + 4096;
	while (off < head) {
		h = (void *)(data + off % (64 * 4096));
		samples += h->type == PERF_RECORD_SAMPLE;
		off += h->size;
	}
	printf("# samples: %llu, PMIs: %llu\n", (unsigned long long)samples,
	       (unsigned long long)(pmis() - before));
	report(samples == 100, "sampling: 1e7 user instructions, period 1e5: 100 samples");
	report(pmis() - before == samples, "sampling: one PMI per sample");
}

int main(void)
{
	char cmdline[1024] = "";
	FILE *f;

	mount("proc", "/proc", "proc", 0, 0);
	f = fopen("/proc/cmdline", "r");
	if (f && fgets(cmdline, sizeof(cmdline), f) && strstr(cmdline, "kperf_noicount"))
		icount = 0;
	if (f)
		fclose(f);
	printf("TAP version 13\n# %s\n", icount ? "under -icount" : "without icount");
	/*
	 * Without icount the kernel times its PMI handler in host time: the
	 * first one, translated by TCG as it runs, takes milliseconds, and
	 * perf lowers the sample rate and throttles the sampling test (37
	 * samples of 100 seen). Turn that limit off.
	 */
	if (!icount) {
		f = fopen("/proc/sys/kernel/perf_cpu_time_max_percent", "w");
		if (f) {
			fputs("0\n", f);
			fclose(f);
		}
	}
	test_counting();
	test_sampling();
	printf("1..%d\n# %s\n", ntests, nfailed ? "FAIL" : "PASS");
	fflush(stdout);
	reboot(RB_POWER_OFF);
	return 0;
}
