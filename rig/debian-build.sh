#!/bin/bash
# debian-build.sh: our perf_events in a kernel configured as Debian ships
# 6.12 for amd64 (linux-config-6.12: config.amd64_none_amd64), to show that
# everything a distribution builds around perf still builds and links with
# ours. Not part of make check (it takes long on two cores).
#
# Usage: rig/debian-build.sh [config|perf|vmlinux|modules]
#   config   configure only, and list the perf-related options of Debian's
#            config that our tree does not offer (about a minute)
#   perf     also compile kernel/events/ and arch/x86/events/ under it
#   vmlinux  also build and link vmlinux (the default)
#   modules  also build all of Debian's modules; modpost then fails on any
#            symbol a module needs that our perf code does not export, or
#            exports under another licence (hours on two cores)
#
# Deviations from Debian's config: no debug info and no BTF (pahole and
# hours of link time), no trusted/revocation key files (Debian's are not in
# the source package), an ephemeral module signing key; and, because our
# tree does not build them yet, no Xen PV guest support (arch/x86/xen/pmu.c
# calls x86_pmu.handle_irq from upstream's private arch/x86/events/
# perf_event.h) and no resctrl (its cache pseudo-locking takes X86_CONFIG()
# from the same header): shared/design/contract.md lists both among the
# consumers kept out. Output in build/debian-x86_64; the time of each step
# is printed.
source "$(dirname "$0")/lib.sh"

STEP=${1:-vmlinux}
arch_setup x86_64
SRC=$("$RIG/assemble.sh")
O=$BUILD/debian-x86_64
CFG=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
mkdir -p "$O"

if [ ! -f "$CFG" ]; then
	[ "$(id -u)" = 0 ] || die "need root to install linux-config-6.12"
	log "installing linux-config-6.12"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		linux-config-6.12 >/dev/null || die "cannot install linux-config-6.12"
fi

cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$(dirname "$RIG")")}"
# serialized with the rig's other kernel builds (rig/build-kernel.sh)
dmake() {
	flock "$BUILD_LOCK" nice make -s -C "$SRC" O="$O" ARCH=x86_64 CC="$cc" HOSTCC="$cc" \
		KBUILD_BUILD_TIMESTAMP='2026-01-01 00:00 UTC' \
		KBUILD_BUILD_USER=kperf KBUILD_BUILD_HOST=kperf "$@"
}
timed() { # label command...
	local t=$SECONDS label=$1
	shift
	"$@" || die "$label failed"
	log "debian: $label took $((SECONDS - t)) s"
}

configure() {
	xzcat "$CFG" > "$O/.config.debian"
	cp "$O/.config.debian" "$O/.config"
	"$SRC/scripts/config" --file "$O/.config" \
		--set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str SYSTEM_REVOCATION_KEYS "" \
		--set-str MODULE_SIG_KEY certs/signing_key.pem \
		--disable DEBUG_INFO_DWARF5 --disable DEBUG_INFO_BTF \
		--enable DEBUG_INFO_NONE \
		--disable XEN_PV --disable X86_CPU_RESCTRL
	dmake olddefconfig
	# what of Debian's perf world our tree does not offer (removed with
	# upstream's drivers, or not built yet: see status.rst)
	log "debian: perf options of Debian's config that this tree drops:"
	grep -E '^CONFIG_[A-Z0-9_]*(PERF|UNCORE|RAPL|CSTATE|PMU|UPROBE|HW_BREAKPOINT)[A-Z0-9_]*=' \
		"$O/.config.debian" | while IFS= read -r line; do
		grep -qx "$line" "$O/.config" || echo "  $line (now: $(grep "^${line%%=*}=" "$O/.config" || echo unset))"
	done
}

perf_objs() {
	# the directories, so that Kbuild builds what this config selects
	dmake -j"$(nproc)" kernel/events/ arch/x86/events/
}

# the in-tree directories whose sources call a symbol our perf code exports
perf_user_dirs() {
	local syms
	syms=$(grep -rhoE 'EXPORT_(SYMBOL|SYMBOL_GPL|STATIC_CALL[A-Z_]*)\([a-z_0-9]+\)' \
		"$SRC/kernel/events" "$SRC/arch/x86/events" |
		sed -E 's/.*\(([a-z_0-9]+)\)/\1/' | sort -u | paste -sd'|')
	(cd "$SRC" && grep -rlwE --include='*.c' "$syms" arch/x86 drivers kernel mm net sound virt 2>/dev/null |
		grep -v '^kernel/events/\|^arch/x86/events/' | xargs -r -n1 dirname | sort -u)
}

modules() {
	log "debian: directories whose code calls our perf exports:"
	perf_user_dirs | sed 's/^/  /'
	dmake -j"$(nproc)" modules
}

t0=$SECONDS
timed configure configure
[ "$STEP" = config ] && exit 0
timed perf perf_objs
[ "$STEP" = perf ] && exit 0
# KEEP_GOING=1: go on past errors, to list every object that fails
timed vmlinux dmake -j"$(nproc)" ${KEEP_GOING:+-k} vmlinux
[ "$STEP" = vmlinux ] && { log "debian: total $((SECONDS - t0)) s"; exit 0; }
timed modules modules
log "debian: total $((SECONDS - t0)) s"
