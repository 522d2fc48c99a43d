#!/bin/bash
# die-stop.sh ARCH MODE LOGDIR: the attacker who can write kernel data
# puts a notifier on die_chain that stops every oops (here the test module
# registers one) and clears panic_on_oops (here: the guest boots without
# oops=panic), so that die() returns.  Then the test module makes a call
# CFI must refuse.  jt's stop depends on neither: the call is reported and
# the kernel panics.  arm64 kCFI reports, then skips its BRK when die()
# returns: the call is made, the expected miss.  (x86 kCFI returns to its UD2 and
# traps again, forever: no verdict, so the plan has no line for it.)
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught missed
name=die-stop
log=$(test_log "$name")

boot_or_fail "$name" "$log" \
	jtcfi.run=module-forge:mismatch=1:forge_die_stop=1 kunit.enable=0 || exit 0
marker='mismatched prototype \.\.\.'
if [ "${JTCFI_EXPECT:-caught}" = missed ]; then
	# Reported (kCFI prints its report before die()), but not stopped.
	after=$(sed -n "/$marker/,\$p" "$log")
	if echo "$after" | grep -q 'die notifier: stopping this oops' &&
	   echo "$after" | grep -q 'FAIL: survived mismatched call'; then
		echo "ok $name: not stopped by $mode, as expected: $(echo "$after" | first_report), then die() returned and the call went on"
	else
		echo "not ok $name: expected die() to return and the call to go on (console: $log)"
	fi
else
	caught_verdict "$name" "$log" "$marker" 'FAIL: survived' \
		'init_module\|test_cfi_module_init'
fi
