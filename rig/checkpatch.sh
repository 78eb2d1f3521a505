#!/bin/bash
# checkpatch.sh: the base tree's scripts/checkpatch.pl --strict on every C
# file and header we own.
source "$(dirname "$0")/lib.sh"
BASE=$(base_tree)
cd "$REPO"
rc=0
for f in $(git ls-files '*.c' '*.h'; git ls-files --others --exclude-standard '*.c' '*.h'); do
	out=$(cd "$BASE" && ./scripts/checkpatch.pl --no-tree --strict --terse \
		--ignore FILE_PATH_CHANGES -f "$REPO/$f" 2>&1 | grep -E '(ERROR|WARNING|CHECK):') || true
	if [ -n "$out" ]; then
		printf '%s\n' "$out" | sed "s|$REPO/||"
		rc=1
	fi
done
[ $rc = 0 ] && echo "checkpatch --strict: clean"
exit $rc
