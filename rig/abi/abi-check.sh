#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# abi-check.sh: our uapi header against the base tree's, field by field.
#
# Usage: rig/abi/abi-check.sh OURS.h BASE.h [--cc CC] [--keep] [--verbose]
#
# CC is the target compiler (gcc, aarch64-linux-gnu-gcc): both headers are
# compiled with it and the results read out of the objects, never run, so a
# cross compiler works. Prints TAP on stdout; exit 1 when anything differs
# or is missing, 2 when the check itself could not run. No kernel build is
# needed. The work is done by abi_check.py next to this script.
set -euo pipefail
exec python3 "$(dirname "$0")/abi_check.py" "$@"
