#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# abi-check.sh: our uapi header against the base tree's, field by field.
#
# Usage: rig/abi/abi-check.sh OURS.h BASE.h [--cc CC] [--extensions FILE]
#                             [--keep] [--verbose]
#
# CC is the target compiler (gcc, aarch64-linux-gnu-gcc): both headers are
# compiled with it and the results read out of the objects, never run, so a
# cross compiler works. Prints TAP on stdout; exit 1 when anything differs
# or is missing, 2 when the check itself could not run. No kernel build is
# needed. The work is done by abi_check.py next to this script.
#
# FILE lists what OURS adds to BASE on purpose (one "NAME VALUE  # why" a
# line); the "extensions" test fails on a name OURS adds that it does not
# list, a listed name OURS lacks, or a value that differs. Default:
# extensions.list next to this script, when it exists.
set -euo pipefail
dir=$(dirname "$0")
if [[ " $* " != *" --extensions "* && -e $dir/extensions.list ]]; then
	set -- "$@" --extensions "$dir/extensions.list"
fi
exec python3 "$dir/abi_check.py" "$@"
