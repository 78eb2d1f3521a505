#!/bin/bash
# assemble.sh: make (or refresh) the source tree our kernels build from.
#
# The tree is the base Linux 6.12 tree as hard links (cheap, and never
# written through: every file we change is replaced by a new inode), minus
# the files in remove.list, with rig/patches/*.patch applied to the build
# files that pointed at them, and with this repository's kernel files laid
# over it with rsync. Re-running after editing one of our files touches only
# that file, so make rebuilds only what depends on it.
#
# Usage: rig/assemble.sh            prints the assembled tree's path
source "$(dirname "$0")/lib.sh"

BASE=$(base_tree)
SRC=$BUILD/src
# directories of this repository that are kernel sources
OVERLAY_DIRS="arch drivers include kernel"

stamp_of() {
	{ echo "$BASE"; cat "$RIG/remove.list" "$RIG"/patches/*.patch; } | sha1sum | cut -c1-40
}

# Every path remove.list names, one per line, without comments.
removed_paths() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$RIG/remove.list" | grep -v '^$'
}

make_tree() {
	log "assembling $SRC from $(base_describe "$BASE")"
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$BUILD"
	cp -al "$BASE" "$SRC.tmp"
	local p
	while read -r p; do
		[ -e "$BASE/$p" ] || die "remove.list names $p, which the base tree lacks"
		rm -rf "${SRC:?}.tmp/$p"
	done < <(removed_paths)
	local patch f
	for patch in "$RIG"/patches/*.patch; do
		# break the hard link of every file the patch edits first
		for f in $(sed -n 's|^+++ b/||p' "$patch"); do
			cp --remove-destination "$BASE/$f" "$SRC.tmp/$f"
		done
		patch -s -p1 -d "$SRC.tmp" < "$patch" || die "$patch does not apply"
	done
	rm -f "$SRC.tmp/.kperf-overlay"
	stamp_of > "$SRC.tmp/.kperf-stamp"
	mv "$SRC.tmp" "$SRC"
}

if [ ! -f "$SRC/.kperf-stamp" ] || [ "$(cat "$SRC/.kperf-stamp")" != "$(stamp_of)" ]; then
	make_tree
fi

# Lay our files over the tree. rsync writes a temporary file and renames it,
# so a hard-linked base file is replaced, never modified. It compares
# contents (-c) and stamps what it writes with the current time (no -t):
# keeping the repository's mtime would let a file edited during a long
# build look older than the object compiled from its previous version.
cd "$REPO"
new_manifest=$(mktemp)
for d in $OVERLAY_DIRS; do
	[ -d "$d" ] && find "$d" -type f ! -name '*.orig' ! -name '*.rej' ! -name '.*'
done | sort > "$new_manifest"
if [ -s "$new_manifest" ]; then
	rsync -lc --files-from="$new_manifest" "$REPO/" "$SRC/"
fi

# A file we laid over before and have since deleted goes back to what the
# base tree has there (or away, if remove.list removes it).
if [ -f "$SRC/.kperf-overlay" ]; then
	comm -23 "$SRC/.kperf-overlay" "$new_manifest" | while read -r f; do
		rm -f "${SRC:?}/$f"
		keep=1
		while read -r p; do
			case "$f" in "$p"|"${p%/}"/*) keep=0 ;; esac
		done < <(removed_paths)
		if [ $keep = 1 ] && [ -f "$BASE/$f" ]; then
			ln "$BASE/$f" "$SRC/$f"
		fi
	done
fi
mv "$new_manifest" "$SRC/.kperf-overlay"

# Clean-room guard: none of our files may be a copy of an upstream file we
# removed.
while read -r f; do
	if [ -f "$BASE/$f" ] && cmp -s "$REPO/$f" "$BASE/$f"; then
		while read -r p; do
			case "$f" in "$p"|"${p%/}"/*)
				die "$f is byte-identical to the upstream file it replaces" ;;
			esac
		done < <(removed_paths)
	fi
done < "$SRC/.kperf-overlay"

echo "$SRC"
