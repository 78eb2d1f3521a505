#!/bin/bash
# clean-room.sh: the clean-room gate (rig/clean-room.py) over every C file
# and header we own, against the base tree's upstream perf files, with the
# facts rig/clean-room.allow lists. Exit status non-zero on any finding.
source "$(dirname "$0")/lib.sh"
python3 "$RIG/clean-room.py" "$REPO" "$(base_tree)" "$RIG/clean-room.allow" "$@"
