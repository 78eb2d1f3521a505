// SPDX-License-Identifier: GPL-2.0
/*
 * perf and KVM guests (arm64): events of a vCPU thread split the time the
 * thread spends in its guest from the time it spends in the host by
 * exclude_host and exclude_guest, and samples taken while a vCPU is loaded
 * carry the guest's state and program counter (the guest info callbacks
 * KVM registers with perf).
 *
 * Built with the base tree's KVM selftest library (rig/mkinitramfs.sh
 * copies it next to the KVM selftests and builds it with them); run in
 * the rig's arm64 "kvm" boot, where the kernel is at EL2.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "kvm_util.h"
#include "processor.h"
#include "ucall_common.h"
#include "kselftest.h"

/* the architected PMUv3 CPU_CYCLES event, on PERF_TYPE_RAW */
#define CPU_CYCLES	0x11
#define GUEST_LOOP	2000000UL
#define GUEST_RUNS	5
#define RING_PAGES	16

/* the guest: spin, tell the host, spin again */
static void guest_code(void)
{
	unsigned long i;

	for (;;) {
		for (i = 0; i < GUEST_LOOP; i++)
			asm volatile("" : "+r" (i));
		GUEST_SYNC(0);
	}
}

static int perf_open(struct perf_event_attr *attr, int group_fd)
{
	return syscall(__NR_perf_event_open, attr, 0, -1, group_fd, 0);
}

static void cycles_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_RAW;
	attr->config = CPU_CYCLES;
}

/* enter the guest @n times, each running one GUEST_LOOP */
static void run_guest(struct kvm_vcpu *vcpu, int n)
{
	struct ucall uc;
	int i;

	for (i = 0; i < n; i++) {
		vcpu_run(vcpu);
		TEST_ASSERT(get_ucall(vcpu, &uc) == UCALL_SYNC,
			    "guest exit %lu, not a sync", (unsigned long)uc.cmd);
	}
}

/*
 * One group on the vCPU thread: cycles everywhere, cycles of the host
 * only (exclude_guest), cycles of the guest only (exclude_host). Each
 * cycle is the host's or the guest's, so the two add up to the first;
 * and the guest, spinning while the host only handles the exits, has
 * most of them.
 */
static void test_host_guest_split(struct kvm_vcpu *vcpu)
{
	struct perf_event_attr attr;
	struct { uint64_t nr, all, host, guest; } v;
	int all, host, guest;
	int64_t diff;

	cycles_attr(&attr);
	attr.disabled = 1;
	attr.read_format = PERF_FORMAT_GROUP;
	all = perf_open(&attr, -1);
	cycles_attr(&attr);
	attr.exclude_guest = 1;
	host = perf_open(&attr, all);
	cycles_attr(&attr);
	attr.exclude_host = 1;
	guest = perf_open(&attr, all);
	TEST_ASSERT(all >= 0 && host >= 0 && guest >= 0,
		    "cannot open the cycles group: %s", strerror(errno));

	ioctl(all, PERF_EVENT_IOC_ENABLE, 0);
	run_guest(vcpu, GUEST_RUNS);
	ioctl(all, PERF_EVENT_IOC_DISABLE, 0);
	TEST_ASSERT(read(all, &v, sizeof(v)) == sizeof(v), "group read");
	close(guest);
	close(host);
	close(all);

	ksft_print_msg("cycles: all %lu host %lu guest %lu\n",
		       (unsigned long)v.all, (unsigned long)v.host,
		       (unsigned long)v.guest);
	diff = (int64_t)(v.host + v.guest - v.all);
	ksft_test_result(v.all && v.host && v.guest &&
			 (diff < 0 ? -diff : diff) <= (int64_t)(v.all / 50),
			 "host_and_guest_cycles_add_up\n");
	ksft_test_result(v.guest > v.all / 4, "guest_cycles_counted_in_guest\n");
}

/* this binary's text: the guest runs it at the same addresses */
extern char __executable_start[], etext[];

/*
 * A sampling cycles event of the vCPU thread: samples taken while the
 * guest runs say so (PERF_RECORD_MISC_GUEST_KERNEL: the guest code runs
 * at EL1) and give the guest's PC, never the host's.  KVM calls a PMI a
 * guest's while the vCPU is loaded, which includes the host's handling
 * of its exits: those samples carry the PC of the exit (the ucall code),
 * and on a loaded host, where that handling is often preempted, they can
 * outnumber the ones in guest_code.  So every guest sample must be in
 * this binary's text (a host PC is not), and some in guest_code.
 */
static void test_guest_samples(struct kvm_vcpu *vcpu)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long lo = (unsigned long)guest_code, hi = lo + 256;
	unsigned long text_lo = (unsigned long)__executable_start;
	unsigned long text_hi = (unsigned long)etext;
	unsigned int guest = 0, in_code = 0, in_text = 0, total = 0;
	uint64_t stray = 0;
	struct perf_event_mmap_page *pg;
	struct perf_event_attr attr;
	uint64_t head, off;
	char *data;
	int fd;

	cycles_attr(&attr);
	attr.disabled = 1;
	attr.sample_period = 200000;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = perf_open(&attr, -1);
	TEST_ASSERT(fd >= 0, "cannot open a sampling event: %s",
		    strerror(errno));
	pg = mmap(NULL, (RING_PAGES + 1) * page, PROT_READ | PROT_WRITE,
		  MAP_SHARED, fd, 0);
	TEST_ASSERT(pg != MAP_FAILED, "mmap of the ring buffer");

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	run_guest(vcpu, GUEST_RUNS);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	data = (char *)pg + page;
	for (off = pg->data_tail; off + sizeof(struct perf_event_header) <= head;) {
		struct perf_event_header *h = (void *)(data + off % (RING_PAGES * page));
		uint64_t ip;

		if (!h->size)
			break;
		if (h->type == PERF_RECORD_SAMPLE &&
		    off % (RING_PAGES * page) + sizeof(*h) + 8 <= RING_PAGES * page) {
			memcpy(&ip, h + 1, sizeof(ip));
			total++;
			if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
			    PERF_RECORD_MISC_GUEST_KERNEL) {
				guest++;
				in_code += ip >= lo && ip < hi;
				if (ip >= text_lo && ip < text_hi)
					in_text++;
				else if (!stray)
					stray = ip;
			}
		}
		off += h->size;
	}
	munmap(pg, (RING_PAGES + 1) * page);
	close(fd);

	ksft_print_msg("samples: %u, guest %u, in guest_code %u, in text %u (first not: %#llx)\n",
		       total, guest, in_code, in_text, (unsigned long long)stray);
	ksft_test_result(guest > total / 4 && in_text == guest && in_code,
			 "guest_samples_have_guest_pc\n");
}

int main(void)
{
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;

	ksft_print_header();
	ksft_set_plan(3);

	vm = vm_create_with_one_vcpu(&vcpu, guest_code);
	/* one run first: fault the guest's memory in */
	run_guest(vcpu, 1);

	test_host_guest_split(vcpu);
	test_guest_samples(vcpu);

	kvm_vm_free(vm);
	ksft_finished();
}
