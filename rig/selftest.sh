#!/bin/bash
# selftest.sh: prove that the rig fails a run whose guest panics, hangs or
# prints a kernel WARNING, even though every test passed. Uses a kernel
# already built (default: the reference x86_64 build).
#
# Usage: rig/selftest.sh [VARIANT [ARCH]]
source "$(dirname "$0")/lib.sh"
VARIANT=${1:-ref} ARCH=${2:-x86_64}
rc=0
for fault in none panic hang warn; do
	f=$fault; [ $f = none ] && f=
	status=0
	out=$(FAULT=$f TIMEOUT=60 SKIP_KERNEL=1 "$RIG/check.sh" "$VARIANT" "$ARCH" 0 2>&1) || status=$?
	why=$(grep -E 'FAIL +guest/' <<<"$out" | sed 's/^ *//' | tr '\n' ';' || true)
	if { [ $fault = none ] && [ $status = 0 ]; } || { [ $fault != none ] && [ $status != 0 ]; }; then
		echo "ok - fault=$fault: make check exit $status ${why:+($why)}"
	else
		echo "not ok - fault=$fault: make check exit $status"; rc=1
	fi
done
exit $rc
