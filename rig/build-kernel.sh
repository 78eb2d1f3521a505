#!/bin/bash
# build-kernel.sh: configure and build one guest kernel.
#
# Usage: rig/build-kernel.sh VARIANT ARCH DEBUG
#   VARIANT  ours (our tree, assembled by assemble.sh) or ref (the
#            unmodified base tree: upstream's perf_events, same config)
#   ARCH     x86_64 or arm64
#   DEBUG    1 adds configs/debug.config (lockdep, KASAN, kmemleak, ...)
#
# Builds out of tree in build/VARIANT-ARCH[-debug]. Kernel builds are
# serialized machine-wide with flock: the machine has two cores.
source "$(dirname "$0")/lib.sh"

VARIANT=$1 ARCH=$2 DEBUG=${3:-0}
arch_setup "$ARCH"
case "$VARIANT" in
ours) SRC=$("$RIG/assemble.sh") ;;
ref) SRC=$(base_tree) ;;
*) die "unknown variant '$VARIANT' (ours or ref)" ;;
esac
O=$(variant_dir "$VARIANT" "$ARCH" "$DEBUG")
mkdir -p "$O"

frags="$RIG/configs/common.config $RIG/configs/$ARCH.config"
[ "$DEBUG" = 1 ] && frags="$frags $RIG/configs/debug.config"
# options that exist only in our tree (kernel/events/Kconfig)
[ "$VARIANT" = ours ] && frags="$frags $RIG/configs/ours.config"

cc="${CROSS}gcc" hostcc=gcc
if command -v ccache >/dev/null; then
	cc="ccache $cc" hostcc="ccache gcc"
	# Kbuild passes absolute source paths; relative to this base, builds
	# of the same tree in different build directories share the cache.
	export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$(dirname "$RIG")")}"
fi
kmake() {
	make -s -C "$SRC" O="$O" ARCH="$KARCH" CROSS_COMPILE="$CROSS" \
		CC="$cc" HOSTCC="$hostcc" KBUILD_BUILD_TIMESTAMP='2026-01-01 00:00 UTC' \
		KBUILD_BUILD_USER=kperf KBUILD_BUILD_HOST=kperf "$@"
}

start=$(date +%s)
log "$VARIANT $ARCH$([ "$DEBUG" = 1 ] && echo " debug"): $(base_describe "$(base_tree)")"

# Configure only when a fragment (or the tree) changed, so that an
# incremental build stays incremental.
stamp=$({ echo "$SRC"; cat $frags; } | sha1sum | cut -c1-40)
if [ ! -f "$O/.config" ] || [ "$(cat "$O/.kperf-config" 2>/dev/null)" != "$stamp" ]; then
	log "configuring $O"
	kmake tinyconfig >/dev/null
	# shellcheck disable=SC2086
	KCONFIG_CONFIG="$O/.config" "$SRC/scripts/kconfig/merge_config.sh" \
		-m -O "$O" "$O/.config" $frags >/dev/null
	kmake olddefconfig >/dev/null
	# Fail loudly when an option we asked for did not stick: a silently
	# missing option would make ours and ref differ, or test nothing.
	bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=n) opt=${line%=n}
			if grep -q "^$opt=" "$O/.config"; then
				log "config: $opt is set, the fragments ask for n"; bad=1
			fi ;;
		CONFIG_*=*) if ! grep -qx "$line" "$O/.config"; then
				log "config: wanted '$line', got '$(grep "^$line\|^# ${line%%=*} " "$O/.config" || echo unset)'"
				bad=1
			fi ;;
		esac
	done < <(cat $frags | sed 's/#.*//' | grep '^CONFIG_')
	[ $bad = 0 ] || die "config fragments did not apply cleanly"
	echo "$stamp" > "$O/.kperf-config"
fi

log "building $O"
flock "$BUILD_LOCK" nice make -s -C "$SRC" O="$O" ARCH="$KARCH" \
	CROSS_COMPILE="$CROSS" CC="$cc" HOSTCC="$hostcc" \
	KBUILD_BUILD_TIMESTAMP='2026-01-01 00:00 UTC' KBUILD_BUILD_USER=kperf \
	KBUILD_BUILD_HOST=kperf -j"$(nproc)" "$(basename "$IMAGE")" headers \
	$(grep -q '^CONFIG_MODULES=y' "$O/.config" && echo modules) \
	|| die "kernel build failed ($VARIANT $ARCH)"

# No removed upstream object may be linked into our kernel: every object in
# vmlinux.a whose source remove.list removed must be one we provide.
if [ "$VARIANT" = ours ]; then
	base=$(base_tree)
	linked=$(cd "$O" && ar t vmlinux.a)
	bad=0
	while read -r p; do
		while read -r c; do
			rel=${c#"$base"/}
			[ -f "$REPO/$rel" ] && continue
			if grep -qx "${rel%.[cS]}.o" <<<"$linked"; then
				log "upstream object ${rel%.[cS]}.o is linked in"; bad=1
			fi
		done < <(find "$base/$p" -name '*.[cS]' 2>/dev/null)
	done < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$RIG/remove.list" | grep -v '^$')
	[ $bad = 0 ] || die "removed upstream perf objects are still linked"
fi

log "built $O/$IMAGE in $(( $(date +%s) - start ))s"
