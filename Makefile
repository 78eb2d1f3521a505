# SPDX-License-Identifier: GPL-2.0
#
# perf_events, reimplemented: the build and test rig.
#
#   make setup            install what the rig needs (Debian 12, root; idempotent)
#   make run [ARCH=arm64] build our kernel, boot it, show perf_events working
#   make shell [ARCH=..]  an interactive guest
#   make check            both arches, every suite; last line "N passed, N failed, N skipped"
#   make check REF=1      the same on upstream's perf_events in the same base tree
#   make compare          upstream and ours, test by test
#   make kernel           just build (ARCH=, REF=1, DEBUG=1)
#   make abi-check        our uapi header against the base tree's, both arches
#   make checkpatch       scripts/checkpatch.pl --strict on every file we own
#   make clean-room       fail on code or comments of ours that repeat upstream's perf
#   make rig-selftest     show that a guest panic, hang or WARN fails make check
#   make bench [ARCH=..]  hot-path and scaling costs, ours against upstream (icount)
#   make profile ROWS=..  where both kernels spend a bench row's time (x86_64, perf, icount)
#   make fuzz [ARCH=..]   our fuzzer and trinity on the DEBUG=1 kernel (MINUTES=10, SEED=)
#   make qemu             build QEMU with the emulated x86 PMU (rig/qemu; make setup does)
#   make qemu-test        its conformance suite (bare metal, -icount), Intel and AMD models
#                         and real parts' identities (make check runs it without them)
#   make qemu-arm64       build qemu-system-aarch64 with Arm SPE (rig/qemu/patches-arm64)
#   make qemu-spe-test    its conformance suite (bare metal, EL1 and EL2)
#   make debian-build     our perf in a kernel with Debian's config (ARCH=, STEP=config|perf|vmlinux|modules)
#
# Options: ARCH=x86_64|arm64 (one arch; check and compare default to both),
# REF=1 (upstream instead of ours), DEBUG=1 (lockdep, KASAN, kmemleak,
# DEBUG_ATOMIC_SLEEP), ICOUNT=1 (QEMU -icount shift=0), KSRC=/path (a Linux
# 6.12 tree to use instead of Debian's linux-source-6.12), LOAD=N (N busy
# loops on the host beside the guest), ONLY=glob REPEAT=N (only the
# check-list entries matching suite/name, each N times),
# X86_PMU=intel|amd|amd-legacy|off (the x86 guests' emulated PMU).

ARCH ?=
REF ?= 0
DEBUG ?= 0
VARIANT := $(if $(filter 1,$(REF)),ref,ours)
ARCHES := $(if $(ARCH),$(ARCH),x86_64 arm64)
ONE_ARCH := $(if $(ARCH),$(ARCH),x86_64)
export KSRC ICOUNT TIMEOUT BUILD SKIP_KERNEL FAULT LOAD ONLY REPEAT FUZZ_DEBUG X86_PMU

.PHONY: all setup kernel run shell check compare abi-check checkpatch clean-room rig-selftest bench profile fuzz qemu qemu-test qemu-arm64 qemu-spe-test debian-build clean help
all: help
help:
	@sed -n '3,32s/^# \{0,1\}//p' Makefile

setup:
	@rig/setup.sh

kernel:
	@rig/build-kernel.sh $(VARIANT) $(ONE_ARCH) $(DEBUG)

run shell: kernel
	@rig/mkinitramfs.sh $(VARIANT) $(ONE_ARCH) $(DEBUG)
	@rig/qemu.sh $(VARIANT) $(ONE_ARCH) $(DEBUG) $@

check:
	@rig/check.sh $(VARIANT) "$(ARCHES)" $(DEBUG)

compare:
	@rig/compare.sh "$(ARCHES)" $(DEBUG)

abi-check:
	@rig/abi-check-all.sh

checkpatch:
	@rig/checkpatch.sh

clean-room:
	@rig/clean-room.sh

rig-selftest:
	@rig/selftest.sh

bench:
	@rig/bench.sh $(ONE_ARCH)

ROWS ?= read-group-8
SCALE ?= 1
profile:
	@rig/profile.sh $(ROWS) $(SCALE)

STEP ?= vmlinux
debian-build:
	@rig/debian-build.sh $(STEP) $(ONE_ARCH)

MINUTES ?= 10
SEED ?=
fuzz:
	@rig/fuzz.sh $(VARIANT) $(ONE_ARCH) $(MINUTES) $(SEED)

qemu:
	@rig/qemu/build.sh >/dev/null

qemu-test:
	@IDENTITIES=1 rig/qemu/test.sh

qemu-arm64:
	@TARGET=aarch64 rig/qemu/build.sh >/dev/null

qemu-spe-test:
	@rig/qemu/spe-test.sh

clean:
	rm -rf build
