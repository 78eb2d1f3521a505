# rig/qemu/tap.sh: sourced by the bare-metal conformance suites of the
# rig QEMU's models (test.sh, spe-test.sh), which boot one test image per
# run and report in TAP.

# tap_run RUN LOG RC OK_RC: print the run's TAP from LOG with each test
# named "RUN: ...", add its results to the caller's $passed and $failed,
# and count a guest that did not finish cleanly (exit status other than
# OK_RC, or no "# PASS" line) as one failure when none of its tests
# failed, so that a crash or a hang never reads as a pass.
tap_run() {
	local run=$1 log=$2 rc=$3 ok_rc=$4 p f
	tr -d '\r' < "$log" 2>/dev/null |
		sed "s|^\(\(not \)\{0,1\}ok [0-9]* - \)|\1$run: |" || true
	p=$(grep -c '^ok ' "$log" 2>/dev/null || true)
	f=$(grep -c '^not ok ' "$log" 2>/dev/null || true)
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$rc" != "$ok_rc" ] || ! grep -q '^# PASS' "$log"; then
		if [ "$f" = 0 ]; then
			echo "not ok - $run: guest did not finish cleanly (exit status $rc)"
			failed=$((failed + 1))
		fi
	fi
}
