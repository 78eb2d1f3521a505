#!/bin/bash
# checkpatch.sh: the base tree's scripts/checkpatch.pl --strict on every C
# file and header we own.
source "$(dirname "$0")/lib.sh"
BASE=$(base_tree)
cd "$REPO"
rc=0
# types accepted in one file (rig/checkpatch-exceptions.list): f's list
accepted() {
	sed -e 's/#.*//' "$RIG/checkpatch-exceptions.list" | awk -v f="$1" '$1 == f { print $2 }'
}
for f in $(git ls-files '*.c' '*.h'; git ls-files --others --exclude-standard '*.c' '*.h'); do
	out=$(cd "$BASE" && ./scripts/checkpatch.pl --no-tree --strict --terse \
		--show-types --ignore FILE_PATH_CHANGES -f "$REPO/$f" 2>&1 |
		grep -E '(ERROR|WARNING|CHECK):') || true
	for t in $(accepted "$f"); do
		out=$(printf '%s\n' "$out" | grep -v ":$t:" || true)
	done
	if [ -n "$out" ]; then
		printf '%s\n' "$out" | sed "s|$REPO/||"
		rc=1
	fi
done
[ $rc = 0 ] && echo "checkpatch --strict: clean"
exit $rc
