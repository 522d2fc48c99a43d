#!/bin/bash
# module-initentry.sh ARCH MODE LOGDIR: the test module keeps a pointer to
# its own init function (a jump-table entry in its core text, which
# outlives the init text) and calls it from a timer once init code has
# been freed.  The call must be refused with a CFI report before it
# reaches freed memory, which the next module's code may occupy; without
# that, it runs whatever lies there (here: a fault on the freed page).
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
log=$logs/$arch-$mode-module-initentry.log

boot_or_fail module-initentry "$log" \
	jtcfi.run=module-initentry kunit.enable=0 oops=panic || exit 0
caught_verdict module-initentry "$log" 'Calling this module.s freed init function' 'FAIL: called freed init code\|^jtcfi-guest: survived'
