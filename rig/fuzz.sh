#!/bin/bash
# fuzz.sh: fuzz perf_events on the debug kernel of one arch.
#
# Usage: rig/fuzz.sh VARIANT ARCH MINUTES [SEED]
#
# Builds the DEBUG=1 kernel (lockdep, DEBUG_ATOMIC_SLEEP, KASAN, kmemleak:
# configs/debug.config), an initramfs with trinity (mkinitramfs.sh ...
# fuzz), and boots it with kperf.mode=fuzz: init runs /tests/fuzz.list,
# our fuzzer (tools/testing/selftests/perf_events/fuzz.c) for two thirds
# of MINUTES, then Debian's trinity for the rest (half as an unprivileged
# user, half as root; rig/guest/trinity.sh). Without trinity for the arch
# our fuzzer gets all of it. SEED (default: random) seeds both.
#
# The run is judged like make check (rig/results.py, MODE fuzz): any Oops,
# WARNING, lockdep, KASAN, kmemleak report, RCU stall or hang in the
# kernel log fails it, and so does a fuzzer that does not finish in time.
# Prints the seed, the fuzzers' syscall counts, and ends with
# "N passed, N failed, N skipped"; exit status non-zero on any failure.
#
# SKIP_KERNEL=1 reuses the kernel already built; FUZZ_DEBUG=0 fuzzes the
# non-debug kernel instead (quicker to build, catches less).
source "$(dirname "$0")/lib.sh"

VARIANT=$1 ARCH=$2 MINUTES=$3 SEED=${4:-}
DEBUG=${FUZZ_DEBUG:-1}
arch_setup "$ARCH"
if ! [[ "$MINUTES" =~ ^[1-9][0-9]*$ ]]; then
	die "MINUTES must be a whole number >= 1"
fi
# trinity's -s takes a 32-bit number: use one for both fuzzers
[ -n "$SEED" ] || SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
[[ "$SEED" =~ ^[0-9]+$ ]] || die "SEED must be a decimal number"
BASE=$(base_tree)
log "base tree: $(base_describe "$BASE")"
O=$(variant_dir "$VARIANT" "$ARCH" "$DEBUG")

secs=$((MINUTES * 60))
case "$ARCH" in
x86_64) trinity=/usr/bin/trinity ;;
arm64) trinity=$KPERF_CACHE/trinity-arm64/usr/bin/trinity ;;
esac
if [ -x "$trinity" ]; then
	fuzz_secs=$((secs * 2 / 3))
	trinity_secs=$((secs - fuzz_secs))
else
	log "no trinity for $ARCH (make setup): our fuzzer gets all ${MINUTES} minutes"
	fuzz_secs=$secs
	trinity_secs=0
fi

if [ "${SKIP_KERNEL:-0}" = 1 ] && [ -f "$O/$IMAGE" ]; then
	log "SKIP_KERNEL=1: reusing $O/$IMAGE"
else
	"$RIG/build-kernel.sh" "$VARIANT" "$ARCH" "$DEBUG"
fi
FUZZ_SECONDS=$fuzz_secs TRINITY_SECONDS=$trinity_secs TRINITY_SEED=$SEED \
	"$RIG/mkinitramfs.sh" "$VARIANT" "$ARCH" "$DEBUG" fuzz

log "seed $SEED: our fuzzer ${fuzz_secs}s, trinity ${trinity_secs}s"
# NAME=value kernel parameters reach the guest's programs as environment.
# The guest gets the run's length plus room for a debug kernel's boot,
# both programs' clean-up and the final kmemleak scan.
KPERF_APPEND="PERF_FUZZ_SECONDS=$fuzz_secs PERF_FUZZ_SEED=$SEED${KPERF_APPEND:+ $KPERF_APPEND}" \
	TIMEOUT=${TIMEOUT:-$((secs + 1800))} \
	"$RIG/qemu.sh" "$VARIANT" "$ARCH" "$DEBUG" fuzz || true

# what the fuzzers did: seeds, syscall counts, open results, trinity stats
echo
echo "== fuzz $VARIANT $ARCH$([ "$DEBUG" = 1 ] && echo ", DEBUG=1"): seed $SEED, ${MINUTES} min"
# (the debug kernel may have no virtio console: then init wrote the test
# output to the serial console, among the kernel's messages)
tap=$O/fuzz-tap.log
[ -s "$tap" ] || tap=$O/fuzz-console.log
sed -E 's/^\[ *[0-9]+\.[0-9]+\] ?//' "$tap" 2>/dev/null |
	grep -E '^# (fuzz:|trinity |  )' | sed 's/^# /  /' || true
echo "  logs: $O/fuzz-tap.log, $O/fuzz-console.log"
rc=0
out=$(python3 "$RIG/results.py" "$O" "$VARIANT" "$ARCH" fuzz) || rc=1
printf '%s\n' "$out"
line=$(printf '%s\n' "$out" | tail -1)
[ $rc = 0 ] || echo "re-run: make fuzz ARCH=$ARCH MINUTES=$MINUTES SEED=$SEED"
sed -E 's/.*: ([0-9]+ passed, [0-9]+ failed, [0-9]+ skipped).*/\1/' <<<"$line"
exit $rc
