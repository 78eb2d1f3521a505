#!/bin/bash
# perf-arm64.sh: Debian's perf tool for arm64, for the arm64 guest's spe
# boot (rig/perf-spe.sh): linux-perf:arm64 and the arm64 libraries it
# links against, downloaded with apt-get download (the machine's apt has
# arm64 as a foreign architecture, rig/setup.sh) and unpacked, not
# installed, into $KPERF_CACHE/perf-arm64/root, which rig/qemu.sh shares
# read-only with the guest.  The guest runs perf chrooted there, so the
# root also gets the mount points perf-spe.sh mounts over.
#
# Usage: rig/perf-arm64.sh   prints the root; does nothing when it exists
source "$(dirname "$0")/lib.sh"

R=$KPERF_CACHE/perf-arm64/root
if [ ! -x "$R/usr/bin/perf" ]; then
	tmp=$(mktemp -d)
	# linux-perf's dependencies, recursively, that are arm64 libraries
	# (perl and python themselves are not needed to record and decode)
	pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances \
		linux-perf:arm64 2>/dev/null | sed -n 's/^\([a-z0-9.+-]*\):arm64$/\1/p' |
		grep -E '^(linux-perf|lib.*|zlib1g)$' | sort -u)
	[ -n "$pkgs" ] || die "apt knows no linux-perf:arm64 (dpkg --add-architecture arm64; apt-get update)"
	# shellcheck disable=SC2046
	(cd "$tmp" && apt-get download -q $(printf '%s:arm64 ' $pkgs) > /dev/null 2>&1) ||
		die "cannot download linux-perf:arm64 and its libraries"
	rm -rf "$R.tmp"
	mkdir -p "$R.tmp"
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$R.tmp"
	done
	mkdir -p "$R.tmp"/{proc,sys,dev,tmp}
	rm -rf "$tmp" "$R"
	mv "$R.tmp" "$R"
	log "arm64 perf: $R ($(du -sh "$R" | cut -f1))"
fi
echo "$R"
