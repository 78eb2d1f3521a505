#!/bin/bash
# debian-build.sh: our perf_events in a kernel configured as Debian ships
# 6.12 (linux-config-6.12: config.amd64_none_amd64, or for ARCH=arm64
# config.arm64_none_arm64, cross-compiled), to show that everything a
# distribution builds around perf still builds and links with ours. Not
# part of make check (it takes long on two cores).
#
# Usage: rig/debian-build.sh [config|perf|vmlinux|modules] [x86_64|arm64]
#   config   configure only, and list the perf-related options of Debian's
#            config that our tree does not offer (about a minute)
#   perf     also compile kernel/events/ and the arch's PMU drivers under it
#   vmlinux  also build and link vmlinux (the default)
#   modules  also build the modules of every directory whose code calls a
#            perf export (x86: KVM, i915, amdgpu, the IOMMU and DMA
#            perfmon drivers, drivers/perf; arm64: Arm SPE, CoreSight,
#            hisi_ptt, the uncore PMUs of drivers/perf, ...); modpost then
#            fails on any perf symbol one needs that our perf code does not
#            export, or exports under another licence.  (All of Debian's
#            modules would take many hours on two cores.)
#            SKIP_DIRS="dir ..." leaves some of those directories out
#            (amdgpu alone is several hundred objects on arm64).
#
# Deviations from Debian's config: no debug info and no BTF (pahole and
# hours of link time), no trusted/revocation key files (Debian's are not in
# the source package), and an ephemeral module signing key.  Output in
# build/debian-<arch>; the time of each step is printed.
source "$(dirname "$0")/lib.sh"

STEP=${1:-vmlinux}
arch_setup "${2:-x86_64}"
SRC=$("$RIG/assemble.sh")
O=$BUILD/debian-$KARCH
mkdir -p "$O"

case $KARCH in
x86_64)
	DEB_ARCH=amd64
	# where the arch's perf code is: upstream's, then ours
	UP_PERF="kernel/events arch/x86/events"
	OUR_PERF="kernel/events arch/x86/events"
	PERF_DIRS="kernel/events/ arch/x86/events/"
	USER_DIRS="arch/x86 drivers kernel mm net sound virt" ;;
arm64)
	DEB_ARCH=arm64
	UP_PERF="kernel/events drivers/perf/arm_pmu.c drivers/perf/arm_pmu_platform.c drivers/perf/arm_pmu_acpi.c drivers/perf/arm_pmuv3.c"
	OUR_PERF="kernel/events arch/arm64/kernel/perf_event.c arch/arm64/kernel/perf_event_probe.c arch/arm64/kernel/perf_event_sysfs.c arch/arm64/kernel/perf_event_user.c arch/arm64/kernel/perf_event_acpi.c"
	PERF_DIRS="kernel/events/ arch/arm64/kernel/ drivers/perf/"
	USER_DIRS="arch/arm64 drivers kernel mm net sound virt" ;;
esac
CFG=/usr/src/linux-config-6.12/config.${DEB_ARCH}_none_${DEB_ARCH}.xz

# Debian's config of another architecture: its linux-config-6.12 package,
# fetched with an apt configuration of our own (the machine's apt sources
# and architectures stay as they are) and unpacked under the cache
foreign_config() {
	local d=$KPERF_CACHE/linux-config-$DEB_ARCH
	CFG=$d/root/usr/src/linux-config-6.12/config.${DEB_ARCH}_none_${DEB_ARCH}.xz
	[ -f "$CFG" ] && return 0
	log "fetching linux-config-6.12 for $DEB_ARCH"
	rm -rf "$d"
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/root"
	touch "$d/status"
	cat > "$d/sources.list" <<-EOF
	deb [arch=$DEB_ARCH signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main
	deb [arch=$DEB_ARCH signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main
	EOF
	cat > "$d/apt.conf" <<-EOF
	APT::Architecture "$DEB_ARCH";
	APT::Architectures "$DEB_ARCH";
	Dir::State "$d";
	Dir::State::Lists "$d/lists";
	Dir::State::status "$d/status";
	Dir::Cache "$d/cache";
	Dir::Etc::SourceList "$d/sources.list";
	Dir::Etc::SourceParts "$d/none";
	EOF
	(cd "$d" && APT_CONFIG=$d/apt.conf apt-get -o APT::Sandbox::User=root update -q >/dev/null &&
	 APT_CONFIG=$d/apt.conf apt-get -o APT::Sandbox::User=root download -q linux-config-6.12 >/dev/null 2>&1) ||
		die "cannot fetch linux-config-6.12 for $DEB_ARCH"
	dpkg-deb -x "$d"/linux-config-6.12_*.deb "$d/root"
	[ -f "$CFG" ] || die "no $CFG in linux-config-6.12"
}

if [ "$KARCH" != x86_64 ]; then
	foreign_config
elif [ ! -f "$CFG" ]; then
	[ "$(id -u)" = 0 ] || die "need root to install linux-config-6.12"
	log "installing linux-config-6.12"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		linux-config-6.12 >/dev/null || die "cannot install linux-config-6.12"
fi

cc=${CROSS}gcc
hostcc=gcc
command -v ccache >/dev/null && cc="ccache $cc" && hostcc="ccache gcc"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$(dirname "$RIG")")}"
# serialized with the rig's other kernel builds (rig/build-kernel.sh)
dmake() {
	flock "$BUILD_LOCK" nice make -s -C "$SRC" O="$O" ARCH="$KARCH" \
		${CROSS:+CROSS_COMPILE=$CROSS} CC="$cc" HOSTCC="$hostcc" \
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
		--disable DEBUG_INFO_DWARF5 --disable DEBUG_INFO_DWARF4 \
		--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT --disable DEBUG_INFO_BTF \
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
	# shellcheck disable=SC2086 # one directory per word
	dmake -j"$(nproc)" $PERF_DIRS
}

# what perf exports to modules: upstream's list and ours (a symbol only
# upstream exports is one a module may miss with ours)
perf_exports() {
	# shellcheck disable=SC2086 # one path per word
	{ (cd "$(base_tree)" && grep -rhoE 'EXPORT_(SYMBOL|SYMBOL_GPL)\([a-z_0-9]+\)' \
		$UP_PERF)
	  (cd "$SRC" && grep -rhoE 'EXPORT_(SYMBOL|SYMBOL_GPL)\([a-z_0-9]+\)' \
		$OUR_PERF); } |
		sed -E 's/.*\(([a-z_0-9]+)\)/\1/' | sort -u
}

# the in-tree directories whose sources call one of those symbols
perf_user_dirs() {
	local syms
	syms=$(perf_exports | paste -sd'|')
	# shellcheck disable=SC2086 # one directory per word
	(cd "$SRC" && grep -rlwE --include='*.c' "$syms" $USER_DIRS 2>/dev/null |
		grep -v '^kernel/events/\|^arch/x86/events/\|^arch/arm64/kernel/perf_event' |
		xargs -r -n1 dirname | sort -u)
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
	# SKIP_DIRS="dir ...": leave these out (say so: their uses go unchecked)
	if [ -n "${SKIP_DIRS:-}" ]; then
		# shellcheck disable=SC2086 # one directory per word
		dirs=$(echo "$dirs" | grep -vxF -f <(printf '%s\n' $SKIP_DIRS))
		log "debian: left out by SKIP_DIRS: $SKIP_DIRS"
	fi
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
		for sym in $(${CROSS}nm -u "$O/$ko" | awk '{ print $2 }' | grep -xF -f <(echo "$perf_syms")); do
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
