#!/bin/bash
# Shared settings for the rig scripts. Sourced, never run.
#
#   KSRC        a Linux 6.12 tree to use as the base (default: Debian's
#               linux-source-6.12, extracted once into $KPERF_CACHE)
#   KPERF_CACHE where the base tree is extracted (default ~/.cache/kperf)
#   BUILD       where build trees and results go (default <repo>/build)

set -euo pipefail

RIG=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$RIG/.." && pwd)
BUILD=${BUILD:-$REPO/build}
KPERF_CACHE=${KPERF_CACHE:-$HOME/.cache/kperf}
BUILD_LOCK=${BUILD_LOCK:-/tmp/kperf-build.lock}

log() { printf '[rig] %s\n' "$*" >&2; }
die() { printf '[rig] error: %s\n' "$*" >&2; exit 1; }

# kernel ARCH value and image path for an arch name we accept
arch_setup() {
	case "$1" in
	x86_64)
		KARCH=x86_64; CROSS=; IMAGE=arch/x86/boot/bzImage
		TARGET_CC=gcc ;;
	arm64|aarch64)
		KARCH=arm64; CROSS=aarch64-linux-gnu-; IMAGE=arch/arm64/boot/Image
		TARGET_CC=aarch64-linux-gnu-gcc ;;
	*) die "unknown ARCH '$1' (x86_64 or arm64)" ;;
	esac
}

# name of a build directory: ours-x86_64, ref-arm64-debug, ...
variant_dir() { # variant arch debug
	local d="$BUILD/$1-$2"
	[ "${3:-0}" = 1 ] && d="$d-debug"
	echo "$d"
}

# base_tree: prints the base tree's path, extracting it on first use
base_tree() {
	local t
	if [ -n "${KSRC:-}" ]; then
		t=$(cd "$KSRC" && pwd)
	else
		t="$KPERF_CACHE/linux-source-6.12"
		if [ ! -f "$t/.kperf-extracted" ]; then
			local tarball=/usr/src/linux-source-6.12.tar.xz
			[ -f "$tarball" ] || die "$tarball missing: run 'make setup' (or set KSRC=/path/to/linux-6.12)"
			log "extracting $tarball into $KPERF_CACHE (once)"
			mkdir -p "$KPERF_CACHE"
			rm -rf "$t" "$t.tmp"
			mkdir "$t.tmp"
			tar -xJf "$tarball" -C "$t.tmp" --strip-components=1
			touch "$t.tmp/.kperf-extracted"
			mv "$t.tmp" "$t"
		fi
	fi
	local v p
	v=$(sed -n 's/^VERSION = //p' "$t/Makefile" | head -1)
	p=$(sed -n 's/^PATCHLEVEL = //p' "$t/Makefile" | head -1)
	[ "$v.$p" = 6.12 ] || die "$t is Linux $v.$p, not 6.12"
	[ -f "$t/.config" ] && die "$t has a .config: the base tree must be pristine"
	echo "$t"
}

# one line naming the base tree, for run logs
base_describe() { # tree
	local t=$1 s pkg=""
	s=$(sed -n 's/^SUBLEVEL = //p' "$t/Makefile" | head -1)
	if [ -z "${KSRC:-}" ] && command -v dpkg-query >/dev/null; then
		pkg=" (Debian linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo '?'))"
	fi
	echo "Linux 6.12.$s at $t$pkg"
}
