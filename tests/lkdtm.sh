#!/bin/bash
# lkdtm.sh ARCH MODE LOGDIR TEST [permissive]: provoke one LKDTM crash
# point in its own boot, with oops=panic so an enforcing kernel takes the
# guest down.  With "permissive" the same kernel is booted cfi=permissive
# and must report the violation, count it and carry on.
# The expectation is the one in tools/testing/selftests/lkdtm/tests.txt.
# The outcome asserted is the test plan's (JTCFI_EXPECT: caught, missed
# or reported); run by hand it is "missed" without CFI (the negative
# control, which proves the harness tells a caught violation from a missed
# one) and for kCFI's CFI_FORWARD_UNTAKEN (the case that separates the
# schemes), "reported" with permissive, and "caught" otherwise.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
test=$4 variant=${5:-}
log=$(test_log "lkdtm $test${variant:+ $variant}")
name="lkdtm $test${variant:+ $variant}"
boot_args=
[ "$variant" = permissive ] && boot_args=cfi=permissive

line=$(grep -E "^#?$test( |\$)" "$JTCFI_TREE/tools/testing/selftests/lkdtm/tests.txt")
[ -n "$line" ] || { echo "not ok $name: not in lkdtm/tests.txt"; exit 0; }
oops=${line#"$test"}
oops=${oops# }
oops=${oops:-call trace:}
if [ -n "${JTCFI_EXPECT:-}" ]; then
	expect=$JTCFI_EXPECT
elif [ "$mode" = none ] || { [ "$mode" = kcfi ] && [ "$test" = CFI_FORWARD_UNTAKEN ]; }; then
	expect=missed
elif [ "$variant" = permissive ]; then
	expect=reported
else
	expect=caught
fi

# The function that makes LKDTM's indirect call: reports and counters
# must name it, not the CFI run time the failure is found in.
case "$test" in
CFI_FORWARD_FREED_INIT)	site=lkdtm_CFI_FORWARD_FREED_INIT ;;
CFI_FORWARD_*)		site=lkdtm_indirect_call ;;
*)			site= ;;
esac

boot_or_fail "$name" "$log" \
	jtcfi.run="lkdtm:$test" kunit.enable=0 oops=panic $boot_args || exit 0
# Only what the kernel printed after the trigger counts.
marker="lkdtm: Performing direct entry $test"
grep -q "$marker" "$log" || { echo "not ok $name: crash point never triggered (console: $log)"; exit 0; }

case "$expect" in
missed)
	if [ "$mode" = none ]; then
		why="without CFI, as expected (control)"
	elif [ "$test" = CFI_FORWARD_BUGTABLE_REDIRECT ]; then
		why="by $mode, as expected: its stop asks the writable __bug_table first"
	else
		why="by $mode, as expected: only jump tables refuse it"
	fi
	missed_verdict "$name" "$log" "$marker" "$why" 'FAIL: survived' ;;
reported)
	reported_verdict "$name" "$log" "$marker" "$site" 'FAIL: survived' ;;
caught)
	verdict=$(caught_verdict "$name" "$log" "$marker" 'FAIL: survived' "$site")
	# LKDTM's own expectation for the crash (tests.txt), e.g. the oops.
	if [ "${verdict#ok }" != "$verdict" ] &&
	   ! sed -n "/$marker/,\$p" "$log" | grep -Eqi "$oops"; then
		verdict="not ok $name: missing '$oops' (console: $log)"
	fi
	echo "$verdict" ;;
*)	echo "not ok $name: no such expectation '$expect'" ;;
esac
