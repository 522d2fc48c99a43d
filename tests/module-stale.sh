#!/bin/bash
# module-stale.sh ARCH MODE LOGDIR: the CFI test module leaves a timer
# behind and is unloaded; when the timer fires, the core kernel calls into
# the module's freed text.  Jump-table CFI must refuse that call (the
# shadow no longer maps the page to any module) before it runs: a CFI
# report, not the page fault that follows without CFI, and the guest goes
# down (oops=panic).
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
log=$logs/$arch-$mode-module-stale.log

boot_or_fail module-stale "$log" \
	jtcfi.run=module-stale kunit.enable=0 oops=panic || exit 0
caught_verdict module-stale "$log" 'left a timer that fires after unload' 'FAIL: the core kernel called into an unloaded module\|^jtcfi-guest: survived'
