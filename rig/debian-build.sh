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
#   modules  also build the modules of every directory whose code calls a
#            perf export (KVM, i915, amdgpu, the IOMMU and DMA perfmon
#            drivers, drivers/perf, ...); modpost then fails on any perf
#            symbol one needs that our perf code does not export, or
#            exports under another licence.  (All of Debian's modules
#            would take many hours on two cores.)
#
# Deviations from Debian's config: no debug info and no BTF (pahole and
# hours of link time), no trusted/revocation key files (Debian's are not in
# the source package), and an ephemeral module signing key.  Output in
# build/debian-x86_64; the time of each step is printed.
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
		--enable DEBUG_INFO_NONE
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

# what perf exports to modules: upstream's list and ours (a symbol only
# upstream exports is one a module may miss with ours)
perf_exports() {
	{ (cd "$(base_tree)" && grep -rhoE 'EXPORT_(SYMBOL|SYMBOL_GPL)\([a-z_0-9]+\)' \
		kernel/events arch/x86/events)
	  grep -rhoE 'EXPORT_(SYMBOL|SYMBOL_GPL)\([a-z_0-9]+\)' \
		"$SRC/kernel/events" "$SRC/arch/x86/events"; } |
		sed -E 's/.*\(([a-z_0-9]+)\)/\1/' | sort -u
}

# the in-tree directories whose sources call one of those symbols
perf_user_dirs() {
	local syms
	syms=$(perf_exports | paste -sd'|')
	(cd "$SRC" && grep -rlwE --include='*.c' "$syms" arch/x86 drivers kernel mm net sound virt 2>/dev/null |
		grep -v '^kernel/events/\|^arch/x86/events/' | xargs -r -n1 dirname | sort -u)
}

# The modules of those directories, built on their own: each .ko goes
# through modpost against this vmlinux, which fails on a perf symbol the
# module needs that our perf code does not export, or exports GPL-only to
# a non-GPL module.  Symbols from modules outside the set (kvm.ko for
# kvm-intel.ko, drm helpers for i915.ko) cannot resolve here, so modpost
# only warns about undefined symbols and this step fails on the perf ones.
modules() {
	local dirs kos perf_syms
	dirs=$(perf_user_dirs)
	log "debian: directories whose code calls our perf exports:"
	echo "$dirs" | sed 's/^/  /'
	# a directory build takes its subdirectories along: keep the top ones
	dirs=$(echo "$dirs" | awk '{ for (i = 1; i <= n; i++)
		if (index($0 "/", top[i] "/") == 1) next; top[++n] = $0; print }')
	# shellcheck disable=SC2086 # one directory per word
	dmake -j"$(nproc)" ${KEEP_GOING:+-k} $(echo "$dirs" | sed 's|$|/|') || return 1
	kos=$(for d in $dirs; do
		[ -f "$O/$d/modules.order" ] && sed 's/\.o$/.ko/' "$O/$d/modules.order"
	done | sort -u)
	log "debian: $(echo "$kos" | wc -w) modules there"
	# shellcheck disable=SC2086 # one module per word
	dmake -j"$(nproc)" KBUILD_MODPOST_WARN=1 $kos 2> "$O/modpost.log" ||
		{ cat "$O/modpost.log" >&2; return 1; }
	if grep -E 'GPL-incompatible|uses GPL-only symbol' "$O/modpost.log" >&2; then
		return 1
	fi
	# modpost names only its first ten unresolved symbols: check the
	# perf ones (what upstream's perf exports, or ours) against this
	# vmlinux's exports ourselves
	perf_syms=$(perf_exports)
	local ko sym lic used=0 bad=0
	for ko in $kos; do
		[ -f "$O/$ko" ] || { echo "$ko: not built" >&2; bad=1; continue; }
		lic=$(modinfo -F license "$O/$ko")
		for sym in $(nm -u "$O/$ko" | awk '{ print $2 }' | grep -xF -f <(echo "$perf_syms")); do
			used=$((used + 1))
			case "$(awk -v s="$sym" '$2 == s { print $4 }' "$O/vmlinux.symvers")" in
			EXPORT_SYMBOL) ;;
			EXPORT_SYMBOL_GPL)
				case "$lic" in
				GPL|"GPL v2"|"GPL and additional rights"|"Dual BSD/GPL"|"Dual MIT/GPL"|"Dual MPL/GPL") ;;
				*) echo "$ko ($lic): $sym is GPL-only" >&2; bad=1 ;;
				esac ;;
			*) echo "$ko: $sym is not exported by this vmlinux" >&2; bad=1 ;;
			esac
		done
	done
	[ "$bad" = 0 ] || return 1
	log "debian: $used uses of perf exports in those modules, all exported" \
		"with a licence they may use"
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
