#!/bin/bash
# abi-check-all.sh: our uapi header against the base tree's, for x86_64 and
# arm64 (rig/abi/abi-check.sh does the work).
source "$(dirname "$0")/lib.sh"
BASE=$(base_tree)
rc=0
for cc in gcc aarch64-linux-gnu-gcc; do
	echo "# $cc"
	"$RIG/abi/abi-check.sh" "$REPO/include/uapi/linux/perf_event.h" \
		"$BASE/include/uapi/linux/perf_event.h" --cc "$cc" || rc=1
done
exit $rc
