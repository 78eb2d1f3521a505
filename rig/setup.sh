#!/bin/bash
# setup.sh: install what the rig needs on Debian 12. Idempotent: installs
# only what is missing. Needs root (it runs apt-get).
source "$(dirname "$0")/lib.sh"

pkgs=(linux-source-6.12 build-essential bc bison flex libelf-dev libssl-dev
      cpio kmod rsync python3 ccache util-linux
      qemu-system-x86 qemu-system-arm gcc-aarch64-linux-gnu
      libc6-dev-arm64-cross busybox-static linux-perf trinity bpftrace
      qemu-efi-aarch64 secilc rr papi-tools
      libpapi-dev)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || die "need root to install: ${missing[*]}"
	log "installing: ${missing[*]}"
	apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >/dev/null
fi

# A static busybox for the arm64 guest's shell: Debian's arm64 package,
# unpacked (not installed) into the cache.
bb=$KPERF_CACHE/busybox-arm64
if [ ! -x "$bb" ]; then
	mkdir -p "$KPERF_CACHE"
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		dpkg --add-architecture arm64
		apt-get update -q >/dev/null || true
	fi
	tmp=$(mktemp -d)
	if (cd "$tmp" && apt-get download -q busybox-static:arm64 >/dev/null 2>&1); then
		dpkg-deb -x "$tmp"/busybox-static_*_arm64.deb "$tmp/x"
		cp "$tmp/x/bin/busybox" "$bb"
		log "arm64 busybox: $bb"
	else
		log "no arm64 busybox: make shell ARCH=arm64 will have no shell"
	fi
	rm -rf "$tmp"
fi
# Debian's trinity for the arm64 guest (make fuzz ARCH=arm64): the arm64
# package and the only library it needs, libc6:arm64, unpacked (not
# installed) into a root of their own; mkinitramfs.sh copies the binary,
# libc and the dynamic loader from there.
tr=$KPERF_CACHE/trinity-arm64
if [ ! -x "$tr/usr/bin/trinity" ]; then
	tmp=$(mktemp -d)
	if (cd "$tmp" && apt-get download -q trinity:arm64 libc6:arm64 >/dev/null 2>&1); then
		rm -rf "$tr.tmp"
		for deb in "$tmp"/*.deb; do
			dpkg-deb -x "$deb" "$tr.tmp"
		done
		rm -rf "$tr"
		mv "$tr.tmp" "$tr"
		log "arm64 trinity: $tr"
	else
		log "no arm64 trinity: make fuzz ARCH=arm64 runs our fuzzer only"
	fi
	rm -rf "$tmp"
fi
# Debian's perf for arm64 (rig/perf-arm64.sh), which the arm64 guest's
# spe boot runs from a 9p share (rig/perf-spe.sh)
"$RIG/perf-arm64.sh" >/dev/null ||
	log "no arm64 perf: the spe boot runs no tool/perf-spe"
# QEMU with the emulated x86 PMU (rig/qemu): built once into the cache,
# rebuilt when its patches change. The guests do not use it yet.
"$RIG/qemu/build.sh" >/dev/null
# and qemu-system-aarch64 with the Statistical Profiling Extension
# (rig/qemu/patches-arm64: about 8 minutes cold on 2 cores)
TARGET=aarch64 "$RIG/qemu/build.sh" >/dev/null
base_tree >/dev/null
log "setup done: $(base_describe "$(base_tree)")"
