#!/bin/bash
# rig/qemu/build.sh: build qemu-system-x86_64 with the emulated x86 PMU,
# or (TARGET=aarch64) qemu-system-aarch64 with the Statistical Profiling
# Extension (FEAT_SPE, rig/qemu/patches-arm64).
#
# Debian's qemu 7.2 source package, fetched with `apt-get source` through a
# throwaway APT_CONFIG (the machine's own sources, as deb-src; the machine's
# apt configuration is never changed), rig/qemu/patches/series applied,
# configured for x86_64 TCG only (with virtfs for the rig's 9p share), built,
# and installed into $KPERF_CACHE/qemu-pmu/<key>/bin, where <key> is a hash
# of the patch series and of this script: a second run with nothing changed
# does nothing, a changed patch rebuilds (incrementally: only the files whose
# patched contents changed are rewritten in the build tree).
#
#   rig/qemu/build.sh           build if needed; prints the binary's path
#   rig/qemu/build.sh --fetch   only fetch and unpack the source (once)
#   TARGET=x86_64|aarch64       which QEMU (default x86_64); each has its
#                               own series, key, build tree and installs, so
#                               a change to one series never rebuilds the
#                               other: x86_64 from rig/qemu/patches into
#                               $KPERF_CACHE/qemu-pmu, aarch64 from
#                               rig/qemu/patches-arm64 into
#                               $KPERF_CACHE/qemu-arm64 (the source is
#                               fetched once, into qemu-pmu/src, for both)
#   JOBS=n                      parallel compile jobs (default: nproc)
#   QEMU_PMU_DIR=dir            where everything goes (see TARGET)
#
# The binary finds its firmware (SeaBIOS, option ROMs) in the system's
# QEMU directories, so it needs no -L: it is configured with those
# directories as its firmware path, and the install puts symbolic links to
# them beside the binary, where a relocated QEMU looks for them.
source "$(dirname "$0")/../lib.sh"

HERE=$RIG/qemu
TARGET=${TARGET:-x86_64}
case "$TARGET" in
x86_64)
	PATCHES=$HERE/patches
	QEMU_PMU_DIR=${QEMU_PMU_DIR:-$KPERF_CACHE/qemu-pmu} ;;
aarch64)
	PATCHES=$HERE/patches-arm64
	QEMU_PMU_DIR=${QEMU_PMU_DIR:-$KPERF_CACHE/qemu-arm64} ;;
*) die "unknown TARGET '$TARGET' (x86_64 or aarch64)" ;;
esac
# the unpacked source: one copy for both targets
SRC_DIR=${SRC_DIR:-$KPERF_CACHE/qemu-pmu/src}
JOBS=${JOBS:-$(nproc)}

# Host packages the build needs (x86_64 TCG, fdt, virtfs).
deps=(build-essential dpkg-dev python3 pkg-config ninja-build meson
      libglib2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev
      libcap-ng-dev libattr1-dev rsync)
# Firmware the binary loads at run time: the system QEMU's.
rt_deps=(qemu-system-data seabios ipxe-qemu)

series() { grep -v -e '^#' -e '^[[:space:]]*$' "$PATCHES/series"; }

key=$( { echo "$TARGET"; for p in $(series); do echo "$p"; cat "$PATCHES/$p"; done
	 cat "$PATCHES/series" "$HERE/build.sh"; } | sha256sum | cut -c1-16)
dest=$QEMU_PMU_DIR/$key
bin=$dest/bin/qemu-system-$TARGET

if [ -x "$bin" ] && [ -f "$dest/.done" ]; then
	ln -sfn "$key" "$QEMU_PMU_DIR/current"
	log "qemu-pmu up to date: $bin"
	echo "$bin"
	exit 0
fi

missing=()
for p in "${deps[@]}" "${rt_deps[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || die "need root to install: ${missing[*]}"
	log "qemu-pmu: installing ${missing[*]}"
	apt-get update -q >/dev/null || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >/dev/null
fi

mkdir -p "$QEMU_PMU_DIR"
exec 9>"$QEMU_PMU_DIR/.lock"
flock 9
# another worktree may have built this series while we waited
if [ -x "$bin" ] && [ -f "$dest/.done" ]; then
	ln -sfn "$key" "$QEMU_PMU_DIR/current"
	log "qemu-pmu up to date: $bin"
	echo "$bin"
	exit 0
fi

# --- the source package, fetched and unpacked once ---------------------------
# A private apt configuration: the machine's own sources with Types: deb-src,
# its own lists and cache under a temporary directory.
fetch_source() {
	local tmp=$1 f
	mkdir -p "$tmp/etc/sources.list.d" "$tmp/lists/partial" \
		"$tmp/cache/archives/partial"
	local main parts
	main=$(apt-config dump | sed -n 's/^Dir::Etc::sourcelist "\(.*\)";/\1/p')
	parts=$(apt-config dump | sed -n 's/^Dir::Etc::sourceparts "\(.*\)";/\1/p')
	case "$main" in /*) ;; *) main=/etc/apt/${main:-sources.list} ;; esac
	case "$parts" in /*) ;; *) parts=/etc/apt/${parts:-sources.list.d} ;; esac
	# one-line format: every "deb" line becomes "deb-src"
	for f in "$main" "$parts"/*.list; do
		[ -f "$f" ] || continue
		sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f"
	done > "$tmp/etc/sources.list"
	# deb822 format: every stanza's Types becomes deb-src
	for f in "$parts"/*.sources; do
		[ -f "$f" ] || continue
		sed 's/^Types:.*/Types: deb-src/' "$f" > "$tmp/etc/sources.list.d/$(basename "$f")"
	done
	cat > "$tmp/apt.conf" <<-CONF
	Dir::Etc::sourcelist "$tmp/etc/sources.list";
	Dir::Etc::sourceparts "$tmp/etc/sources.list.d";
	Dir::State::lists "$tmp/lists";
	Dir::Cache "$tmp/cache";
	Dir::Cache::pkgcache "";
	Dir::Cache::srcpkgcache "";
	CONF
	# A source that has no deb-src (a third-party repository) may fail
	# here; what matters is whether qemu's source is then found.
	APT_CONFIG=$tmp/apt.conf apt-get update -q >"$tmp/update.log" 2>&1 ||
		log "qemu-pmu: apt-get update (deb-src) reported errors: $(grep -m1 -E '^(E|W):' "$tmp/update.log" || true)"
	# the source of the system's QEMU if the archive still has it (the
	# series is made against it), else the newest
	local want
	want=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null || true)
	if ! (cd "$tmp" && APT_CONFIG=$tmp/apt.conf apt-get source -q ${want:+"qemu=$want"} \
		>"$tmp/source.log" 2>&1); then
		[ -n "$want" ] && log "qemu-pmu: no source for qemu $want; taking the newest"
		(cd "$tmp" && APT_CONFIG=$tmp/apt.conf apt-get source -q qemu >"$tmp/source.log" 2>&1) ||
			{ cat "$tmp/source.log" >&2; die "qemu-pmu: apt-get source qemu failed"; }
	fi
}

src=$SRC_DIR
if [ ! -f "$src/.kperf-extracted" ]; then
	log "qemu-pmu: fetching Debian's qemu source (once)"
	mkdir -p "$(dirname "$src")"
	tmp=$(mktemp -d "$(dirname "$src")/fetch.XXXXXX")
	fetch_source "$tmp"
	d=$(find "$tmp" -maxdepth 1 -type d -name 'qemu-*' | head -1)
	[ -n "$d" ] && [ -f "$d/target/i386/cpu.c" ] || die "qemu-pmu: no qemu source tree in $tmp"
	dpkg-parsechangelog -l "$d/debian/changelog" -S Version > "$d/.kperf-version"
	rm -rf "$src"
	mv "$d" "$src"
	touch "$src/.kperf-extracted"
	rm -rf "$tmp"
fi
version=$(cat "$src/.kperf-version")
if [ "${1:-}" = --fetch ]; then
	log "qemu-pmu: qemu $version source in $src"
	exit 0
fi

# --- patched tree: staged, then synced by content ----------------------------
# Only files whose contents differ from the last build's are rewritten (and
# get a new mtime), so ninja rebuilds only what a changed patch touches.
work=$QEMU_PMU_DIR/work
stage=$QEMU_PMU_DIR/stage
rm -rf "$stage"
# the contents, so that a $src that is a symlink is copied, not linked
mkdir -p "$stage"
cp -a "$src/." "$stage"
rm -rf "$stage/debian" "$stage/.pc"
for p in $(series); do
	patch -d "$stage" -p1 -s --no-backup-if-mismatch < "$PATCHES/$p" ||
		die "qemu-pmu: $p does not apply to qemu $version"
done
mkdir -p "$work/src"
rsync -rlp --checksum --delete --exclude=/build "$stage/" "$work/src/"
rm -rf "$stage"

# --- configure (again when the options change), build, install -------------
b=$work/src/build
t0=$(date +%s)
# SeaBIOS (bios-256k.bin) is not in /usr/share/qemu on Debian: name every
# firmware directory, or a fresh machine's QEMU cannot start a PC.
conf=(--prefix=/usr
      --firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu
      --target-list=$TARGET-softmmu --without-default-features
      --enable-tcg --enable-fdt=system
      --enable-virtfs --enable-cap-ng --enable-attr
      --disable-docs --disable-werror)
if [ ! -f "$b/build.ninja" ] ||
   [ "$(cat "$b/.rig-configure" 2>/dev/null)" != "${conf[*]}" ]; then
	log "qemu-pmu: configuring qemu $version"
	rm -rf "$b"; mkdir -p "$b"
	(cd "$b" && ../configure "${conf[@]}" >"$work/configure.log" 2>&1) ||
		{ tail -30 "$work/configure.log" >&2; die "qemu-pmu: configure failed ($work/configure.log)"; }
	echo "${conf[*]}" > "$b/.rig-configure"
fi
log "qemu-pmu: building ($JOBS jobs; $(series | wc -l) patches, key $key)"
ninja -C "$b" -j "$JOBS" "qemu-system-$TARGET" >"$work/build.log" 2>&1 ||
	{ grep -E -A5 'error|FAILED' "$work/build.log" | head -40 >&2; die "qemu-pmu: build failed ($work/build.log)"; }
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp/bin"
cp "$b/qemu-system-$TARGET" "$dest.tmp/bin/"
strip "$dest.tmp/bin/qemu-system-$TARGET"
# QEMU looks for firmware relative to its binary (prefix /usr: bin/../share/
# qemu, ...): point those at the system's firmware.
mkdir -p "$dest.tmp/share" "$dest.tmp/lib/ipxe"
ln -s /usr/share/qemu "$dest.tmp/share/qemu"
ln -s /usr/share/seabios "$dest.tmp/share/seabios"
ln -s /usr/lib/ipxe/qemu "$dest.tmp/lib/ipxe/qemu"
{ echo "qemu $version + rig/qemu/$(basename "$PATCHES")"; series; } > "$dest.tmp/VERSION"
# It must find its firmware: a PC that cannot load SeaBIOS exits at once
# with an error; one that can waits, stopped (-S), until the timeout.
# (aarch64: a virt board with its CPU model, which needs no firmware.)
case "$TARGET" in
x86_64) machine=(-M pc) ;;
aarch64) machine=(-M virt,gic-version=3 -cpu max,spe=on) ;;
esac
rc=0
out=$(timeout 5 "$dest.tmp/bin/qemu-system-$TARGET" "${machine[@]}" -S -nodefaults \
	-display none -monitor none 2>&1) || rc=$?
[ "$rc" = 124 ] || die "qemu-pmu: the new binary does not start a machine: $out"
touch "$dest.tmp/.done"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
ln -sfn "$key" "$QEMU_PMU_DIR/current"
# Keep the three newest builds (16 MB each): worktrees on different
# series each keep theirs, instead of deleting each other's binary while
# a guest of the other may be about to start it.
ls -1dt "$QEMU_PMU_DIR"/*/.done 2>/dev/null | sed 's|/\.done$||' | tail -n +4 |
	while read -r d; do
		case "$(basename "$d")" in "$key"|src|work) ;; *) rm -rf "$d" ;; esac
	done
log "qemu-pmu: built in $(( $(date +%s) - t0 )) s: $bin"
echo "$bin"
