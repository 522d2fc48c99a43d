#!/bin/bash
# init-bounds.sh ARCH MODE LOGDIR: once a module's init code is freed, the
# loader seals the jump-table entries that lead into it.  What it seals
# must not be steered by struct module, which is writable: the test
# module's init says its init text is its core text, and a timer then
# calls one of its live functions.  Passes if the call is made (the
# module's "sealer not steered") with no CFI report; fails if the live
# function's entry was sealed.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
name=init-bounds
log=$(test_log "$name")

boot_or_fail "$name" "$log" \
	jtcfi.run=module-forge:forge_init_bounds=1 kunit.enable=0 oops=panic || exit 0
after=$(sed -n '/forging struct module: its init text/,$p' "$log")
if [ -z "$after" ]; then
	echo "not ok $name: the test module never forged its init text (console: $log)"
elif echo "$after" | console_find report - > /dev/null; then
	echo "not ok $name: the sealer was steered: $(echo "$after" | first_report) (console: $log)"
elif ! echo "$after" | grep -q 'sealer not steered'; then
	echo "not ok $name: the timer's call was never made (console: $log)"
else
	echo "ok $name: struct module's init bounds did not steer the sealing; the live function was called"
fi
